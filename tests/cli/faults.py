"""Helpers of the fault cases (test_limits.py, test_reliability.py,
test_names.py, test_edges.py): specscan run with its peak RSS sampled
(sampled.py) and, if asked, its address space capped; want() checks that
fail the test with the run attached; inputs written by hand (vLLM and
llama.cpp bodies, records lines, tar archives, zstd frames of raw and RLE
blocks); and FaultCase, an sslib.Case with a fresh temporary directory.

Memory bounds are docs/BEHAVIOUR.md's formula (src/util/memplan.h):
    peak RSS <= 64 MiB + 64 MiB x threads + 16 x record limit
where the record limit is --max-record-size (or what --memory-limit lowers
it to).
"""
import io
import os
import resource
import struct
import tarfile
import tempfile

import sampled
import sslib

SPECSCAN = os.path.abspath(sslib.SPECSCAN)

MiB = 1 << 20


ASAN = sampled.sanitized(SPECSCAN)
SLOW = 4 if ASAN else 1


def mem_bound_kb(threads, record_limit):
    """docs/BEHAVIOUR.md's bound, in KiB (ASan: shadow memory and quarantine scale it)."""
    b = 64 * MiB + 64 * MiB * threads + 16 * record_limit
    if ASAN:
        b = b * 3 + 512 * MiB
    return b // 1024


def run(args, stdin=None, stdin_data=None, timeout=60, cwd=None, preexec=None,
        on_start=None, stdout=None, as_kb=None):
    """Run specscan; sample its peak RSS. stdin: a file object or None
    (/dev/null); stdin_data: bytes fed through a pipe. as_kb: cap the
    address space (not under ASan) so that a run breaking its memory bound
    fails there instead of taking the machine's memory."""
    env = dict(os.environ, LC_ALL="C.UTF-8", NO_COLOR="1")
    if as_kb and not ASAN:
        inner = preexec

        def preexec():
            lim = as_kb * 1024
            resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
            if inner:
                inner()
    return sampled.run([SPECSCAN] + args, timeout * SLOW, stdin=stdin,
                       stdin_data=stdin_data, cwd=cwd, preexec=preexec,
                       on_start=on_start, stdout=stdout, env=env)


class CaseFailed(AssertionError):
    """A check of a fault case failed (unittest counts it a failure)."""


def want(cond, what, r=None):
    if not cond:
        raise CaseFailed("%s%s" % (what, " [%r]" % r if r is not None else ""))


def want_rc(r, rc):
    want(r.rc == rc, "exit status %d, want %d" % (r.rc, rc), r)


def want_no_crash(r):
    want(r.rc >= 0 and "Sanitizer" not in r.err, "crashed (signal %d)" % -r.rc, r)


def counts(r):
    try:
        req = r.json()["specscan"]["requests"]
    except (ValueError, KeyError) as e:
        raise CaseFailed("no JSON report (%s) [%r]" % (e, r))
    want(sum(v for k, v in req.items() if k != "total") == req["total"],
         "accounting sums to the total: %s" % req)
    return req


# ---- inputs ----

def vllm_body(hist, steps, acc, drafted, mean, rate, extra=""):
    return ('{"choices":[{"text":"x"}],"metrics":{"speculative_decoding":'
            '{"acceptance_histogram":%s,"num_spec_steps":%s,"mean_acceptance_length":%s,'
            '"draft_acceptance_rate":%s,"num_accepted_draft_tokens":%s,'
            '"num_draft_tokens":%s%s}}}' % (hist, steps, mean, rate, acc, drafted, extra))


# hist [1,2]: 3 steps, accepted 0*1 + 1*2 = 2; drafted 4
GOOD = vllm_body("[1,2]", 3, 2, 4, "1.6666666666666667", "0.5") + "\n"


def llama_body(drafted, accepted, extra=""):
    return '{"content":"x","timings":{"draft_n":%d,"draft_n_accepted":%d%s}}' % (
        drafted, accepted, extra)


def records_line(sda, metadata='{"benchmark_phase":"profiling"}', metrics="{}"):
    return '{"metadata":%s,"metrics":%s,"spec_decode_acceptance":%s}' % (
        metadata, metrics, sda)


def tar_bytes(members, fmt=tarfile.PAX_FORMAT):
    """members: (name, bytes) or (name, None) for a directory."""
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w", format=fmt) as t:
        for name, data in members:
            ti = tarfile.TarInfo(name)
            ti.mtime = 0
            if data is None:
                ti.type = tarfile.DIRTYPE
                ti.mode = 0o755
                t.addfile(ti)
            else:
                ti.size = len(data)
                ti.mode = 0o644
                t.addfile(ti, io.BytesIO(data))
    return bio.getvalue()


def zstd_raw_frame(data, window_desc=0x58):
    """A zstd frame of raw blocks written by hand, with the given window
    descriptor byte (exponent << 3 | mantissa: window log = 10 + exponent)."""
    out = bytearray(b"\x28\xb5\x2f\xfd\x00")
    out.append(window_desc)
    blocks = [data[i:i + 65536] for i in range(0, len(data), 65536)] or [b""]
    for i, b in enumerate(blocks):
        hdr = (len(b) << 3) | (1 if i == len(blocks) - 1 else 0)
        out += struct.pack("<I", hdr)[:3] + b
    return bytes(out)


def zstd_rle(byte, blocks):
    """`blocks` RLE blocks of 128 KiB of one byte: 128 KiB x blocks decoded."""
    out = bytearray(b"\x28\xb5\x2f\xfd\x00\x58")
    for i in range(blocks):
        hdr = ((128 << 10) << 3) | (1 << 1) | (1 if i == blocks - 1 else 0)
        out += struct.pack("<I", hdr)[:3] + bytes([byte])
    return bytes(out)


class Tmp:
    def __init__(self, path):
        self.dir = path
        self.n = 0

    def file(self, name, data):
        p = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
        return p

    def sub(self):
        self.n += 1
        p = os.path.join(self.dir, "c%d" % self.n)
        os.makedirs(p)
        return p


class FaultCase(sslib.Case):
    """A case with its own temporary directory, as self.t (a Tmp)."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="specscan-faults.")
        self.t = Tmp(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()
