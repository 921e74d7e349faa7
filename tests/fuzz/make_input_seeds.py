#!/usr/bin/env python3
"""Write seeds for fuzz_inputs into DIR: small captures, compressed and
archived the ways specscan reads them (gzip, xz, bzip2, zstd when the zstd
tool exists, tar, compressed tar, zip, an AIPerf artifact tree in a tar).

    make_input_seeds.py DIR
"""
import bz2
import gzip
import io
import lzma
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile

RAW = (b'{"metadata":{"benchmark_phase":"profiling"},"responses":[{"perf_ns":1,'
       b'"text":"{\\"choices\\":[{\\"text\\":\\"hi\\"}],\\"metrics\\":{\\"speculative_decoding\\":'
       b'{\\"acceptance_histogram\\":[1,2],\\"num_spec_steps\\":3,\\"mean_acceptance_length\\":1.6,'
       b'\\"draft_acceptance_rate\\":0.5,\\"num_accepted_draft_tokens\\":2,\\"num_draft_tokens\\":3}}}"}]}\n')
REC = (b'{"metadata":{"benchmark_phase":"profiling"},"metrics":{},'
       b'"spec_decode_acceptance":{"engine":"vllm","mean_acceptance_length":2.0,'
       b'"draft_acceptance_rate":0.5,"num_accepted_draft_tokens":1,"num_draft_tokens":2,'
       b'"num_spec_steps":1,"acceptance_histogram":{"1":1}}}\n')
SSE = (b'data: {"choices":[{"delta":{"content":"a"}}]}\n\n'
       b'data: {"choices":[],"timings":{"draft_n":4,"draft_n_accepted":3}}\n\n'
       b'data: [DONE]\n\n')


def tar_bytes(members, mode="w"):
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode=mode) as t:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return out.getvalue()


def zip_bytes(members, method):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as z:
        for name, data in members:
            z.writestr(name, data)
    return out.getvalue()


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    body = RAW + REC
    seeds = {
        "plain.jsonl": body,
        "plain.sse": SSE,
        "gz": gzip.compress(body),
        "gz2": gzip.compress(RAW) + gzip.compress(SSE),
        "xz": lzma.compress(body),
        "bz2": bz2.compress(body),
        "tar": tar_bytes([("a.jsonl", RAW), ("b.sse", SSE)]),
        "tgz": tar_bytes([("a.jsonl", RAW)], "w:gz"),
        "txz": tar_bytes([("a.jsonl", RAW)], "w:xz"),
        "artifacts.tar": tar_bytes([("run1/profile_export.jsonl", REC),
                                    ("run1/profile_export_raw.jsonl", RAW),
                                    ("run1/inputs.json", b"{}"),
                                    ("run2/profile_export.jsonl", REC),
                                    ("other.jsonl", RAW)]),
        "stored.zip": zip_bytes([("a.jsonl", RAW), ("b.sse", SSE)], zipfile.ZIP_STORED),
        "deflate.zip": zip_bytes([("a.jsonl", RAW)], zipfile.ZIP_DEFLATED),
    }
    if shutil.which("zstd"):
        for name in ("plain.jsonl", "tar"):
            r = subprocess.run(["zstd", "-q", "-c"], input=seeds[name],
                               stdout=subprocess.PIPE, check=True)
            seeds[name + ".zst"] = r.stdout
            seeds[name + ".zst2"] = r.stdout + r.stdout
    for name, data in seeds.items():
        with open(os.path.join(d, "seed-" + name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
