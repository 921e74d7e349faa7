#!/usr/bin/env python3
"""Scale-out (SPEC 8): shards of the inputs whose partial results (the
enriched per-request JSONL) merge into the report one run writes.

For every fixture family (AIPerf raw, records, response bodies, SSE
captures, archives, artifact directories, and all of them at once), the
inputs are split into 1, 2, 3 and more shards than units with
`--shard I/N`; each shard writes its partial with `--records`; reading the
partials back, in shard order, must give the JSON, CSV, table and records
of the single run, byte for byte (also under --phase warmup and all, and
for partials written compressed).  The expected shard blocks are worked
out by hand from SPEC 8.2's formula; the merged reports are compared with
the single run, never with stored output.
"""

import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import (SPECSCAN, SRCDIR, Case, Rec, TempDir, expected_metrics, have_tool,
                   jsonl_lines, loads, main, pooled, run, td)

FORMATS = ("json", "csv", "table", "jsonl")


def slurp(path):
    with open(path, "rb") as f:
        return f.read()


def block(m, i, n):
    """SPEC 8.2: shard i of n over m units reads units floor(i*m/n) ..
    floor((i+1)*m/n) - 1."""
    return list(range(i * m // n, (i + 1) * m // n))


class Shards(Case):
    def families(self, d):
        """name -> argument list; the archive families are built in d."""
        fam = {
            "raw": [td("sample/aiperf_raw_vllm.jsonl"), td("mixed/mixed_garbage.jsonl")],
            "records": [td("records/profile_export.jsonl"),
                        td("artifacts/run2/profile_export.jsonl")],
            "bodies": [td("engines/vllm_bodies.jsonl"), td("engines/llamacpp_bodies.jsonl"),
                       td("engines/sglang_bodies.jsonl")],
            "sse": [td("engines/trtllm_streams.sse"), td("engines/llamacpp_stream.sse"),
                    td("engines/sse_comment_first.sse")],
            "artifacts": ["-r", td("artifacts")],
        }
        if have_tool("tar") and have_tool("zstd"):
            tree = os.path.join(d, "tree")
            for sub, src in (("a/raw.jsonl", "sample/aiperf_raw_vllm.jsonl"),
                             ("a/streams.sse", "engines/trtllm_streams.sse"),
                             ("b/records.jsonl", "records/profile_export.jsonl")):
                os.makedirs(os.path.dirname(os.path.join(tree, sub)), exist_ok=True)
                shutil.copy(td(src), os.path.join(tree, sub))
            tarf = os.path.join(d, "runs.tar")
            subprocess.run(["tar", "-cf", tarf, "-C", tree, "a", "b"], check=True)
            subprocess.run(["zstd", "-q", "-f", tarf, "-o", tarf + ".zst"], check=True)
            arts = os.path.join(d, "arts.tar")
            subprocess.run(["tar", "-cf", arts, "-C", td(), "artifacts"], check=True)
            gz = os.path.join(d, "bodies.jsonl.gz")
            with open(gz, "wb") as f:
                subprocess.run(["gzip", "-c", "-n", td("engines/vllm_bodies.jsonl")],
                               stdout=f, check=True)
            fam["archives"] = [tarf + ".zst", arts, gz]
        fam["everything"] = [a for k in ("raw", "records", "bodies", "sse") for a in fam[k]] \
            + fam.get("archives", []) + [td("artifacts/run1")]
        return fam

    def units(self, args):
        res = run(["--list-inputs"] + args)
        self.assertRan(res)
        return res.text.splitlines()

    def shard_parts(self, d, tag, args, n, ext=".jsonl.zst"):
        parts = []
        for i in range(n):
            p = os.path.join(d, "%s-part-%d%s" % (tag, i, ext))
            res = run(["--shard", "%d/%d" % (i, n), "-f", "none", "--records", p] + args)
            self.assertRan(res)
            self.assertEqual(res.out, b"")
            parts.append(p)
        return parts

    def assertMerges(self, parts, args, extra=(), where=""):
        for f in FORMATS:
            want = run(list(extra) + ["-f", f] + args)
            got = run(list(extra) + ["-f", f] + parts)
            self.assertEqual(got.rc, want.rc, "%s -f %s: %r" % (where, f, got))
            self.assertEqual(got.out.decode(), want.out.decode(), "%s -f %s" % (where, f))

    def test_merge_equals_single_run(self):
        with TempDir() as d:
            for name, args in self.families(d).items():
                m = len(self.units(args))
                self.assertGreater(m, 0, name)
                for n in sorted({1, 2, 3, m + 2}):
                    with self.subTest(family=name, shards=n):
                        parts = self.shard_parts(d, "%s-%d" % (name, n), args, n)
                        self.assertMerges(parts, args, where="%s, %d shards" % (name, n))

    def test_phases_and_threads(self):
        """The partials do not depend on --phase: the merge takes it."""
        with TempDir() as d:
            args = self.families(d)["everything"]
            parts = self.shard_parts(d, "ph", args, 3, ".jsonl")
            for extra in (["--phase", "warmup"], ["--phase", "all"], ["-j", "1"], ["-j", "3"]):
                with self.subTest(extra=extra):
                    self.assertMerges(parts, args, extra, " ".join(extra))

    def test_partials_concatenate_to_the_records(self):
        """The partials are the single run's records, cut at unit borders:
        lines written back unchanged."""
        with TempDir() as d:
            args = self.families(d)["everything"]
            whole = run(["-f", "jsonl"] + args)
            self.assertRan(whole)
            parts = self.shard_parts(d, "cat", args, 4, ".jsonl")
            data = b"".join(slurp(p) for p in parts)
            self.assertEqual(data, whole.out)
            # and one partial read back alone writes itself again
            again = run(["-f", "jsonl", parts[1]])
            self.assertEqual(again.out, slurp(parts[1]))

    def test_glob_of_twelve_parts(self):
        """SPEC 8.4: the job array's parts are zero-padded to the width of
        N-1, so a shell glob of 12 parts lists them in index order and the
        merge equals the single run, byte for byte; unpadded parts globbed
        (part-10 before part-2) are out of order, and specscan says so."""
        if not have_tool("zstd"):
            self.skipTest("zstd is not installed")
        shard_sh = os.path.join(SRCDIR, "contrib", "slurm", "specscan-shard.sbatch")
        merge_sh = os.path.join(SRCDIR, "contrib", "slurm", "specscan-merge.sbatch")
        env = dict(os.environ, SPECSCAN=SPECSCAN)
        with TempDir() as d:
            # 13 units, each with requests: shard I of 12 reads 1 or 2 of them
            srcs = ["sample/aiperf_raw_vllm.jsonl", "records/profile_export.jsonl",
                    "engines/vllm_bodies.jsonl", "engines/llamacpp_bodies.jsonl",
                    "engines/sglang_bodies.jsonl", "engines/trtllm_streams.sse"]
            inputs = []
            for i in range(13):
                p = os.path.join(d, "in-%c%s" % (chr(ord("a") + i),
                                                 os.path.splitext(srcs[i % 6])[1]))
                shutil.copy(td(srcs[i % 6]), p)
                inputs.append(p)
            out = os.path.join(d, "out")
            os.mkdir(out)
            for i in range(12):
                res = subprocess.run(["bash", shard_sh, "12", out] + inputs,
                                     env=dict(env, SLURM_ARRAY_TASK_ID=str(i)),
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                self.assertEqual(res.returncode, 0, res.stderr.decode())
            names = sorted(os.listdir(out))   # what `ls` and a C-locale glob give
            self.assertEqual(names, ["part-%02d.jsonl.zst" % i for i in range(12)])
            parts = [os.path.join(out, n) for n in names]
            self.assertMerges(parts, inputs, where="a glob of 12 parts")
            self.assertNotIn("out of order", run(["-f", "none"] + parts).errtext)
            # the merge job lists them by index: the same report
            res = subprocess.run(["bash", merge_sh, "12", out], env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            self.assertEqual(res.returncode, 0, res.stderr.decode())
            self.assertEqual(slurp(os.path.join(out, "spec_decode.json")),
                             run(["-f", "json"] + inputs).out)
            # unpadded names: the glob puts part-10 and part-11 before part-2
            bare = sorted("part-%d.jsonl.zst" % i for i in range(12))
            self.assertEqual(bare[:4], ["part-0.jsonl.zst", "part-1.jsonl.zst",
                                        "part-10.jsonl.zst", "part-11.jsonl.zst"])
            for i in range(12):
                os.rename(parts[i], os.path.join(d, "part-%d.jsonl.zst" % i))
            globbed = [os.path.join(d, n) for n in bare]
            res = run(["-f", "json"] + globbed)
            self.assertRan(res)
            self.assertNotEqual(res.out, run(["-f", "json"] + inputs).out)
            self.assertIn("specscan: the numbered inputs are out of order ('%s' after '%s')"
                          % (globbed[4], globbed[3]), res.errtext)

    def test_blocks(self):
        """--list-inputs with --shard: contiguous blocks, by SPEC 8.2's formula
        (5 units in 3 shards: 1, 2 and 2 units)."""
        files = [td("sample/aiperf_raw_vllm.jsonl"), td("engines/vllm_bodies.jsonl"),
                 td("engines/trtllm_streams.sse"), td("records/profile_export.jsonl"),
                 td("mixed/mixed_garbage.jsonl")]
        self.assertEqual(self.units(files), files)
        want = {(3, 0): files[0:1], (3, 1): files[1:3], (3, 2): files[3:5],
                (2, 0): files[0:2], (2, 1): files[2:5], (7, 0): [], (7, 1): files[0:1],
                (7, 6): files[4:5], (1, 0): files}
        for (n, i), w in want.items():
            self.assertEqual([files[k] for k in block(5, i, n)], w, "hand-made table")
            res = run(["--list-inputs", "--shard", "%d/%d" % (i, n)] + files)
            self.assertRan(res)
            self.assertEqual(res.text.splitlines(), w, "shard %d/%d" % (i, n))

    def test_units(self):
        """Directories are walked into units; an archive is one unit."""
        art = td("artifacts")
        self.assertEqual(self.units(["-r", art]),
                         [os.path.join(art, "run1", "profile_export_raw.jsonl"),
                          os.path.join(art, "run2", "profile_export.jsonl")])
        self.assertEqual(self.units([os.path.join(art, "run2")]),
                         [os.path.join(art, "run2", "profile_export.jsonl")])
        if have_tool("tar"):
            with TempDir() as d:
                arc = os.path.join(d, "a.tar")
                subprocess.run(["tar", "-cf", arc, "-C", td(), "artifacts", "engines"],
                               check=True)
                self.assertEqual(self.units([arc, td("engines/vllm_bodies.jsonl")]),
                                 [arc, td("engines/vllm_bodies.jsonl")])

    def test_empty_shard(self):
        """A shard with no unit writes empty results and exits 0."""
        with TempDir() as d:
            rec = os.path.join(d, "empty.jsonl.zst")
            # 1 unit in 6 shards: only shard 5 reads it (floor(5/6) .. floor(6/6) - 1)
            res = run(["--shard", "0/6", "--records", rec, td("engines/vllm_bodies.jsonl")])
            self.assertRan(res)
            doc = loads(res.out)
            self.assertEqual(doc["specscan"]["inputs"], [])
            self.assertEqual(doc["specscan"]["requests"]["total"], 0)
            if have_tool("zstd"):
                out = subprocess.run(["zstd", "-dc", rec], stdout=subprocess.PIPE, check=True)
                self.assertEqual(out.stdout, b"")

    def test_input_without_requests(self):
        """SPEC 8.1's one exception: an input that held no request leaves no
        line, so the merge does not list it; all else is equal."""
        with TempDir() as d:
            empty = os.path.join(d, "empty.jsonl")
            open(empty, "wb").close()
            args = [td("engines/vllm_bodies.jsonl"), empty, td("engines/sglang_bodies.jsonl")]
            parts = self.shard_parts(d, "e", args, 3)
            want = loads(run(args).out)
            got = loads(run(parts).out)
            names = [i["name"] for i in want["specscan"]["inputs"]]
            self.assertEqual(names, args)
            want["specscan"]["inputs"] = [i for i in want["specscan"]["inputs"]
                                          if i["name"] != empty]
            self.assertEqual(got, want)

    def test_usage(self):
        for bad in ("1", "2/2", "3/2", "-1/2", "0/0", "a/b", "1/2x", "1/", "/2", "0/-1",
                    "18446744073709551616/2"):
            with self.subTest(shard=bad):
                res = run(["--shard", bad, td("engines/vllm_bodies.jsonl")])
                self.assertRan(res, 2)
                self.assertIn("--shard", res.errtext)

    def test_enriched_kind(self):
        """Enriched lines are counted under source.input with source.kind
        as the kind; --input-kind enriched forces the kind."""
        with TempDir() as d:
            args = [td("records/profile_export.jsonl"), td("engines/trtllm_streams.sse")]
            parts = self.shard_parts(d, "k", args, 1, ".jsonl")
            doc = loads(run(parts).out)
            self.assertEqual([(i["name"], i["kind"]) for i in doc["specscan"]["inputs"]],
                             [(args[0], "records"), (args[1], "sse")])
            forced = run(["--input-kind", "enriched"] + parts)
            self.assertEqual(forced.out, run(parts).out)
            for line in jsonl_lines(run(["-f", "jsonl"] + parts)):
                self.assertIn(line["source"]["kind"], ("records", "sse", "unknown"))


# SPEC 6's record A, as an enriched line of a raw input would carry it.
A = Rec("vllm", 18, 32, 8, mean=3.25, rate=0.5625, hist={0: 1, 1: 1, 2: 2, 3: 3, 4: 1}, k=4)
A_SDA = ('{"engine":"vllm","mean_acceptance_length":3.25,"draft_acceptance_rate":0.5625,'
         '"acceptance_histogram":{"0":1,"1":1,"2":2,"3":3,"4":1},"num_accepted_draft_tokens":18,'
         '"num_draft_tokens":32,"num_spec_steps":8,"num_spec_tokens":4}')
META = '{"benchmark_phase":"profiling","x_request_id":"r1"}'


def enriched(inp='"x.jsonl"', line=1, kind='"raw"', meta=META, sda=A_SDA, status='"ok"', extra=""):
    src = '{"input":%s,"line":%s,"kind":%s}' % (inp, line, kind)
    out = '{"source":%s,"model":"m"' % src
    if meta is not None:
        out += ',"metadata":' + meta
    if sda is not None:
        out += ',"spec_decode_acceptance":' + sda
    return out + ',"spec_decode_status":%s%s}' % (status, extra)


class HandEdited(Case):
    """Enriched lines edited by hand: a broken record or source is
    malformed (never a crash), counted under the file it was read from with
    the kind `enriched`; a valid one is counted under its source.input."""

    LINES = [
        # (line, expected status, expected input: None = the file)
        (enriched(inp='"x.jsonl"'), "ok", "x.jsonl"),
        (enriched(inp='"x.jsonl"', line=2, sda=A_SDA.replace('"4":1}', '"4":2}')),
         "malformed", None),                                  # histogram sums to 9, steps 8
        (enriched(inp='"x.jsonl"', line=3, sda=None), "malformed", None),
        (enriched(inp='"x.jsonl"', line=4, status='"bogus"'), "malformed", None),
        (enriched(inp='"x.jsonl"', line=5, sda=A_SDA.replace('"num_spec_steps":8',
                                                             '"num_spec_steps":"8"')),
         "malformed", None),
        (enriched(inp='"x.jsonl"', line=6, status='"zero_step"'), "malformed", None),
        (enriched(inp="5"), "malformed", None),
        (enriched(inp='"x.jsonl"', line='"7"'), "malformed", None),
        (enriched(inp='"x.jsonl"', kind='"weird"'), "malformed", None),
        (enriched(inp='"x.jsonl"', sda=A_SDA.replace("18,", "-18,")), "malformed", None),
        (enriched(inp='"x.jsonl"', sda=A_SDA.replace('"acceptance_histogram"', '"h"')
                  .replace('"num_accepted_draft_tokens":18', '"num_accepted_draft_tokens":33')),
         "malformed", None),                                  # accepted > drafted
        (enriched(inp='"x.jsonl"', line=9)[:-20], "unparsable", None),
        (enriched(inp='"x.jsonl"', line=10, sda=None, status='"no_stats"',
                  meta='{"benchmark_phase":"warmup"}',
                  extra=',"spec_decode_reason":"no spec-decode payload"'), "no_stats", "x.jsonl"),
        (enriched(inp='"y.jsonl"', kind='"body"', meta=None), "ok", "y.jsonl"),
    ]

    def test_hand_edited(self):
        with TempDir() as d:
            f = os.path.join(d, "edited.jsonl")
            with open(f, "w") as out:
                out.write("".join(l + "\n" for l, _, _ in self.LINES))
            res = run(["-f", "json", f])
            self.assertRan(res)
            doc = loads(res.out)
            counts = {}
            for _, st, _ in self.LINES:
                counts[st] = counts.get(st, 0) + 1
            self.assertAccounting(doc, counts, total=len(self.LINES))
            by_input = {}
            for _, _, inp in self.LINES:
                by_input[inp or f] = by_input.get(inp or f, 0) + 1
            self.assertEqual([(i["name"], i["kind"], i["requests"])
                              for i in doc["specscan"]["inputs"]],
                             [("x.jsonl", "raw", by_input["x.jsonl"]),
                              (f, "enriched", by_input[f]),
                              ("y.jsonl", "body", 1)])
            self.assertEqual(doc["specscan"]["phases"], {"profiling": len(self.LINES) - 1,
                                                         "warmup": 1})
            self.assertEqual(doc["pooled_spec_decode_acceptance_histogram"], pooled([A, A]))
            self.assertMetrics(doc, expected_metrics([A, A]))

            recs = jsonl_lines(run(["-f", "jsonl", f]))
            self.assertEqual([r["spec_decode_status"] for r in recs],
                             [st for _, st, _ in self.LINES])
            for (line, st, inp), r in zip(self.LINES, recs):
                if inp is not None:
                    continue
                self.assertEqual(r["source"]["input"], f)
                self.assertEqual(r["source"]["kind"], "enriched" if st == "malformed" else "unknown")
                self.assertIn("spec_decode_reason", r)
            # valid lines are written back unchanged
            raw = run(["-f", "jsonl", f]).out.decode().split("\n")
            for i, (line, st, inp) in enumerate(self.LINES):
                if inp is not None:
                    self.assertEqual(raw[i], line)


class EngineFilter(Case):
    def test_engine_on_partials(self):
        """--engine given to the merge: a record of another engine (an ok or
        zero_step line) becomes unrecognized and is written anew; every
        other line keeps its status. (--engine decides statuses, so it
        belongs to the shards; this is what it does when given late.)"""
        with TempDir() as d:
            args = [td("engines/vllm_bodies.jsonl"), td("engines/llamacpp_bodies.jsonl")]
            parts = []
            for i in range(2):
                p = os.path.join(d, "p%d.jsonl" % i)
                self.assertRan(run(["--shard", "%d/2" % i, "-f", "none", "--records", p] + args))
                parts.append(p)
            written = [l for p in parts for l in jsonl_lines(slurp(p).decode())]
            want = []
            for l in written:
                st = l["spec_decode_status"]
                if st in ("ok", "zero_step") and l["spec_decode_acceptance"]["engine"] != "llamacpp":
                    st = "unrecognized"
                want.append((l["source"], st))
            got = jsonl_lines(run(["--engine", "llamacpp", "-f", "jsonl"] + parts))
            self.assertEqual([(l["source"], l["spec_decode_status"]) for l in got], want)
            self.assertIn("unrecognized", [st for _, st in want])
            doc = loads(run(["--engine", "llamacpp"] + parts).out)
            counts = {}
            for _, st in want:
                counts[st] = counts.get(st, 0) + 1
            self.assertAccounting(doc, counts, total=len(want))


class CompressedOutputs(Case):
    """SPEC 8.3: an output path ending in .zst or .gz is written compressed,
    still atomically; zstd -dc and gzip -dc read back the plain bytes."""

    def test_read_back(self):
        for tool in ("zstd", "gzip"):
            if not have_tool(tool):
                self.skipTest("%s not installed" % tool)
        src = [td("sample/aiperf_raw_vllm.jsonl"), td("engines/trtllm_streams.sse")]
        with TempDir() as d:
            outs = {"json": os.path.join(d, "r.json.gz"), "csv": os.path.join(d, "r.csv.zst"),
                    "records": os.path.join(d, "r.jsonl.zst")}
            res = run(["-f", "none", "--json", outs["json"], "--csv", outs["csv"],
                       "--records", outs["records"]] + src)
            self.assertRan(res)
            self.assertEqual(sorted(os.listdir(d)), sorted(os.path.basename(p)
                                                          for p in outs.values()),
                             "no temporary file left")
            for fmt, path in outs.items():
                want = run(["-f", "jsonl" if fmt == "records" else fmt] + src).out
                tool = "gzip" if path.endswith(".gz") else "zstd"
                with open(path, "rb") as f:
                    magic = f.read(4)
                self.assertEqual(magic[:2] if tool == "gzip" else magic,
                                 b"\x1f\x8b" if tool == "gzip" else b"\x28\xb5\x2f\xfd", path)
                got = subprocess.run([tool, "-dc", path], stdout=subprocess.PIPE, check=True)
                self.assertEqual(got.stdout, want, path)
            # an existing output is kept without --force, replaced with it
            before = slurp(outs["json"])
            res = run(["-f", "none", "--json", outs["json"], src[0]])
            self.assertRan(res, 3)
            self.assertEqual(slurp(outs["json"]), before)
            res = run(["-f", "none", "--force", "--json", outs["json"], src[0]])
            self.assertRan(res)
            got = subprocess.run(["gzip", "-dc", outs["json"]], stdout=subprocess.PIPE, check=True)
            self.assertEqual(got.stdout, run([src[0]]).out)

    def test_big_records(self):
        """Many megabytes through the compressors (several frames of output)."""
        if not have_tool("zstd"):
            self.skipTest("zstd not installed")
        src = td("records/profile_export.jsonl")
        with TempDir() as d:
            big = os.path.join(d, "big.jsonl")
            data = slurp(src)
            with open(big, "wb") as f:
                for _ in range(3000):
                    f.write(data)
            for ext, tool in ((".zst", "zstd"), (".gz", "gzip")):
                out = os.path.join(d, "r.jsonl" + ext)
                res = run(["-f", "none", "--records", out, big], timeout=300)
                self.assertRan(res)
                got = subprocess.run([tool, "-dc", out], stdout=subprocess.PIPE, check=True)
                self.assertEqual(got.stdout, run(["-f", "jsonl", big], timeout=300).out)


if __name__ == "__main__":
    main()
