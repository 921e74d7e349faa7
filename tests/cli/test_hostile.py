#!/usr/bin/env python3
"""Whole-program tests with hostile inputs and I/O faults ("trusted with bad
data"): each case runs the built specscan and checks its exit status, a
message, the accounting, and that memory and time stay bounded.

The binary and the source directory are sslib's (SPECSCAN, SRCDIR). Large
inputs are generated here, in a temporary directory, and never committed.
Each test runs a group of cases; a failed check is reported by name and
fails its test after the group has run.
"""
import gzip
import io
import json
import os
import random
import resource
import signal
import struct
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import zipfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sampled  # noqa: E402
import sslib  # noqa: E402

SRCDIR = sslib.SRCDIR
SPECSCAN = os.path.abspath(sslib.SPECSCAN)

I64_MAX = 2**63 - 1
FAILURES = []
PASSED = [0]


ASAN = sampled.sanitized(SPECSCAN)  # an ASan build: scale the limits
SLOW = 4 if ASAN else 1


def rss_limit_kb(plain_mb):
    return (plain_mb * 3 + 300 if ASAN else plain_mb) * 1024


def run(args, stdin_data=None, timeout=60, cwd=None, as_mb=None):
    """Run specscan. Memory: its peak RSS is sampled while it runs; with
    `as_mb` (not under ASan) its address space is also capped, so a large
    allocation fails for certain (and the run with it)."""
    def limit():
        if as_mb and not ASAN:
            lim = (as_mb + 600) << 20
            resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
    return sampled.run([SPECSCAN] + args, timeout * SLOW, stdin_data=stdin_data,
                       cwd=cwd, preexec=limit)


def check(name, cond, detail=""):
    if cond:
        PASSED[0] += 1
    else:
        FAILURES.append(name)
        print("FAIL: %s %s" % (name, detail), file=sys.stderr)


def expect(name, r, rc, message=None, rss_mb=None, secs=None):
    check(name + ": exit status", r.rc == rc,
          "(got %d, want %d; stderr: %s)" % (r.rc, rc, r.err[-500:]))
    if message is not None:
        check(name + ": message", message in r.err,
              "(%r not in stderr: %s)" % (message, r.err[-500:]))
    if rss_mb is not None:
        check(name + ": memory", r.rss_kb <= rss_limit_kb(rss_mb),
              "(max RSS %d KiB, limit %d KiB)" % (r.rss_kb, rss_limit_kb(rss_mb)))
    if secs is not None:
        check(name + ": time", r.secs <= secs * SLOW, "(%.1f s)" % r.secs)
    check(name + ": no crash", r.rc >= 0 and "Sanitizer" not in r.err,
          "(signal %d; %s)" % (-r.rc, r.err[-500:]))


def requests(name, r, **want):
    """Compare some status counts; they must always sum to the total."""
    try:
        req = r.json()["specscan"]["requests"]
    except (ValueError, KeyError) as e:
        check(name + ": report", False, "(%s; stdout %r)" % (e, r.out[:200]))
        return None
    total = req["total"]
    check(name + ": accounting", sum(v for k, v in req.items() if k != "total") == total,
          str(req))
    for k, v in want.items():
        check("%s: %s" % (name, k), req[k] == v, "(got %d, want %d)" % (req[k], v))
    return req


# ---- inputs ----

def vllm(hist, steps, acc, drafted, mean=None, rate=None, extra=""):
    num = lambda x: isinstance(x, int) and x > 0
    if mean is None:
        mean = 1 + acc / steps if num(steps) and isinstance(acc, int) else 1.5
    if rate is None:
        rate = acc / drafted if num(drafted) and isinstance(acc, int) else 0.5
    return ('{"choices":[{"text":"x"}],"metrics":{"speculative_decoding":'
            '{"acceptance_histogram":%s,"num_spec_steps":%s,"mean_acceptance_length":%s,'
            '"draft_acceptance_rate":%s,"num_accepted_draft_tokens":%s,"num_draft_tokens":%s%s}}}\n'
            % (hist, steps, mean if isinstance(mean, str) else repr(mean),
               rate if isinstance(rate, str) else repr(rate), acc, drafted, extra))


GOOD = vllm("[1,2]", 3, 2, 4)
GOOD_B = GOOD.encode()


def llama(drafted, accepted):
    return ('{"content":"x","timings":{"draft_n":%d,"draft_n_accepted":%d}}\n'
            % (drafted, accepted))


def zstd_frame(data):
    """A zstd frame of raw (stored) blocks, written by hand: no zstd module."""
    out = bytearray(b"\x28\xb5\x2f\xfd")
    out.append(0x00)                 # descriptor: no size, no checksum
    out.append(0x58)                 # window descriptor: 8 MiB window
    blocks = [data[i:i + 65536] for i in range(0, len(data), 65536)] or [b""]
    for i, b in enumerate(blocks):
        last = i == len(blocks) - 1
        hdr = (len(b) << 3) | (0 << 1) | (1 if last else 0)
        out += struct.pack("<I", hdr)[:3] + b
    return bytes(out)


def zstd_rle_bomb(byte, blocks):
    """A zstd frame of `blocks` RLE blocks of 128 KiB of one byte each."""
    out = bytearray(b"\x28\xb5\x2f\xfd\x00\x58")
    for i in range(blocks):
        hdr = ((128 << 10) << 3) | (1 << 1) | (1 if i == blocks - 1 else 0)
        out += struct.pack("<I", hdr)[:3] + bytes([byte])
    return bytes(out)


def gzip_bomb(total, line_every=0):
    """gzip of `total` bytes of 'a' (a newline every `line_every` bytes)."""
    z = zlib.compressobj(9, zlib.DEFLATED, 31)
    unit = (b"a" * (line_every - 1) + b"\n") if line_every else b"a" * 65536
    out = [z.compress(GOOD_B)]
    for _ in range(total // len(unit)):
        out.append(z.compress(unit))
    out.append(z.compress(b"\n" + GOOD_B))
    out.append(z.flush())
    return b"".join(out)


def tar_bytes(members):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def tar_header(name, size_field):
    """A ustar header block whose size field is given as 11 octal digits."""
    h = bytearray(512)
    h[0:len(name)] = name.encode()
    h[100:108] = b"0000644\0"
    h[108:116] = b"0000000\0"
    h[116:124] = b"0000000\0"
    h[124:136] = size_field + b"\0"
    h[136:148] = b"00000000000\0"
    h[148:156] = b"        "
    h[156:157] = b"0"
    h[257:263] = b"ustar\0"
    h[263:265] = b"00"
    h[148:156] = b"%06o\0 " % sum(h)
    return bytes(h)


class Files:
    """Files of a case, in its temporary directory."""

    def __init__(self, tmp):
        self.tmp = tmp

    def path(self, name, data):
        p = os.path.join(self.tmp, name)
        with open(p, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())
        return p


def interrupt(c, sig, via):
    name = "%s during a %s read" % (signal.Signals(sig).name, via)
    out = tempfile.mkdtemp(dir=c.tmp)
    args = [SPECSCAN, "-j", "2", "-f", "none", "--json", os.path.join(out, "r.json"),
            "--csv", os.path.join(out, "r.csv"), "--records", os.path.join(out, "r.jsonl")]
    stop = threading.Event()
    chunk = (GOOD * 5000).encode()
    if via == "fifo":
        fifo = os.path.join(c.tmp, "fifo-%d-%d" % (sig, time.monotonic_ns()))
        os.mkfifo(fifo)
        p = subprocess.Popen(args + [fifo], stderr=subprocess.PIPE)
        w = open(fifo, "wb")
    else:
        p = subprocess.Popen(args + ["-"], stdin=subprocess.PIPE, stderr=subprocess.PIPE)
        w = p.stdin

    def writer():
        try:
            for _ in range(20):          # some data, then a stall
                w.write(chunk)
            w.flush()
            stop.wait(120)
        except OSError:
            pass
    t = threading.Thread(target=writer, daemon=True)
    t.start()
    time.sleep(1.0 * SLOW)
    p.send_signal(sig)
    try:
        rc = p.wait(timeout=20 * SLOW)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = p.wait()
        check(name + ": stops", False, "(still running 20 s after the signal)")
    stop.set()
    try:
        w.close()
    except OSError:
        pass
    err = p.stderr.read().decode("utf-8", "replace")
    # SPEC 5: it ends by the signal itself (a shell sees 128 + N)
    check(name + ": ended by the signal", rc == -sig, "(rc %d, %s)" % (rc, err[-300:]))
    check(name + ": message", "interrupted" in err, err[-300:])
    left = os.listdir(out)
    check(name + ": no output or temporary file left", left == [], str(left))

def interrupt_output_dir(c, made_by_run):
    """Issue 34 item 7, SPEC 5: Ctrl-C during `-o DIR` on a slow pipe ends
    the run by SIGINT itself (a shell sees 130), and DIR goes again when
    this run created it (it is still empty); a DIR that was there stays."""
    name = "SIGINT with -o (%s)" % ("a new directory" if made_by_run else "an existing one")
    out = os.path.join(tempfile.mkdtemp(dir=c.tmp), "out")
    if not made_by_run:
        os.mkdir(out)
    p = subprocess.Popen([SPECSCAN, "-f", "none", "-o", out, "-"], stdin=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    p.stdin.write((GOOD * 1000).encode())   # some data, then the pipe stalls
    p.stdin.flush()
    time.sleep(1.0 * SLOW)
    check(name + ": the directory is there while it runs", os.path.isdir(out))
    p.send_signal(signal.SIGINT)
    try:
        rc = p.wait(timeout=20 * SLOW)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = p.wait()
    try:
        p.stdin.close()
    except OSError:
        pass
    err = p.stderr.read().decode("utf-8", "replace")
    # killed by SIGINT (WIFSIGNALED), which a shell reports as 128 + 2 = 130
    check(name + ": ended by SIGINT", rc == -signal.SIGINT, "(rc %d, %s)" % (rc, err[-300:]))
    check(name + ": says so", "interrupted; nothing written" in err, err[-300:])
    if made_by_run:
        check(name + ": the directory it made is gone", not os.path.exists(out))
    else:
        check(name + ": the existing directory stays, empty",
              os.path.isdir(out) and os.listdir(out) == [], str(os.path.exists(out)))


def accounting(c, name, args):
    """Status counts sum to the total; --records has exactly `total` lines,
    one per request, whose statuses agree with the counts."""
    rec = os.path.join(c.tmp, "acct.records.jsonl")
    r = run(["--force", "--records", rec] + args, timeout=120)
    check(name + ": report written", r.rc in (0, 1), "(rc %d: %s)" % (r.rc, r.err[-300:]))
    req = requests(name, r)
    if req is None:
        return
    with open(rec, "rb") as f:
        lines = f.read().split(b"\n")
    check(name + ": records end with a newline", lines[-1] == b"")
    lines = lines[:-1]
    check(name + ": one record per request", len(lines) == req["total"],
          "(%d lines, total %d)" % (len(lines), req["total"]))
    seen = {}
    for ln in lines:
        try:
            st = json.loads(ln)["spec_decode_status"]
        except (ValueError, KeyError):
            check(name + ": record is JSON with a status", False, repr(ln[:200]))
            return
        seen[st] = seen.get(st, 0) + 1
    check(name + ": record statuses agree with the counts",
          all(req[k] == seen.get(k, 0) for k in req if k != "total"), "%s vs %s" % (seen, req))
    inputs = r.json()["specscan"]["inputs"]
    check(name + ": inputs sum to total", sum(i["requests"] for i in inputs) == req["total"])


class Hostile(sslib.Case):
    """Each test runs its cases and counts every check (check()); the test
    fails after its last case when one of its checks failed, naming each."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="specscan-hostile.")
        self.c = Files(self._tmp.name)
        del FAILURES[:]

    def tearDown(self):
        self._tmp.cleanup()
        self.assertEqual(FAILURES, [], "failed checks")

    def test_compressed(self):
        c = self.c
        body = (GOOD * 2000).encode()
        z = zstd_frame(body)
        r = run(["-j", "2", c.path("ok.zst", z)])
        expect("zstd (hand-made frame)", r, 0)
        requests("zstd (hand-made frame)", r, total=2000, ok=2000)

        r = run([c.path("cut.zst", z[:len(z) // 2])])
        expect("truncated zstd", r, 1, "truncated zstd frame")
        req = requests("truncated zstd", r)
        if req:
            check("truncated zstd: lines before the cut", 0 < req["total"] < 2000, str(req))

        bad = bytearray(z)
        bad[6] |= 0x06                   # block type 3: reserved
        r = run([c.path("bad.zst", bytes(bad)), c.path("good1.jsonl", GOOD)])
        expect("corrupt zstd", r, 1, "corrupt zstd data")
        requests("corrupt zstd", r, total=1, ok=1)

        # Decompression bombs: 256 MiB of one line from a few KiB, memory stays
        # within the record limit and the read window.
        bomb = zstd_frame(GOOD_B) + zstd_rle_bomb(ord("a"), 2048) + zstd_frame(b"\n" + GOOD_B)
        r = run(["--max-record-size", "1M", c.path("bomb.zst", bomb)], timeout=60, as_mb=80)
        expect("zstd bomb (256 MiB line)", r, 0, rss_mb=80, secs=30)
        requests("zstd bomb (256 MiB line)", r, total=3, ok=2, oversize=1)
        r = run(["--max-record-size", "1M", c.path("bomb.gz", gzip_bomb(256 << 20))],
                timeout=60, as_mb=80)
        expect("gzip bomb (256 MiB line)", r, 0, rss_mb=80, secs=30)
        requests("gzip bomb (256 MiB line)", r, total=3, ok=2, oversize=1)

        g = gzip.compress(body)
        r = run([c.path("cut.gz", g[:len(g) // 2])])
        expect("truncated gzip", r, 1, "truncated gzip data")
        req = requests("truncated gzip", r)
        if req:
            check("truncated gzip: lines before the cut", 0 < req["total"] < 2000, str(req))

        r = run([c.path("nothing.gz", g[:5])])
        expect("gzip header only", r, 1, "gzip")

        # An input that is nothing but a failure: nothing could be read.
        r = run([os.path.join(c.tmp, "missing.jsonl")])
        expect("missing input only", r, 3, "No such file or directory")

    def test_archives(self):
        c = self.c
        a = (GOOD * 3).encode()
        t = tar_bytes([("a.jsonl", a), ("b.jsonl", a)])
        # A second header whose checksum is broken.
        bad = bytearray(t)
        second = 512 + ((len(a) + 511) // 512) * 512
        bad[second + 148:second + 156] = b"0000000\0"
        r = run([c.path("corrupt.tar", bytes(bad))])
        expect("corrupt tar", r, 1, "corrupt.tar")
        requests("corrupt tar", r, total=3, ok=3)

        # The same for a member that is spooled (a records-only artifact
        # directory's export is held until the archive ends).
        rec = ('{"metadata":{"benchmark_phase":"profiling"},"metrics":{},'
               '"spec_decode_acceptance":{"engine":"vllm","mean_acceptance_length":2.0,'
               '"draft_acceptance_rate":0.5,"num_accepted_draft_tokens":1,"num_draft_tokens":2,'
               '"num_spec_steps":1,"acceptance_histogram":{"1":1}}}\n').encode()
        ta = tar_bytes([("run/profile_export.jsonl", rec * 30)])
        r = run([c.path("spooled.tar", ta[:512 + 3 * len(rec) + 10])])
        expect("truncated spooled member: lines before the cut", r, 1, "Truncated tar archive")
        requests("truncated spooled member: lines before the cut", r, total=3, ok=3)

        r = run([c.path("short.tar", t[:600])])
        expect("truncated tar member", r, 1, "short.tar")
        # The complete lines of a cut member are read (libarchive's blocks,
        # not archive_read_data, which drops them with the error).
        r = run([c.path("short2.tar", t[:512 + 2 * len(GOOD) + 10])])
        expect("truncated tar member: lines before the cut", r, 1, "Truncated tar archive")
        requests("truncated tar member: lines before the cut", r, total=2, ok=2)

        z = io.BytesIO()
        with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr("a.jsonl", GOOD * 200)
            zf.writestr("b.jsonl", GOOD * 3)
        zb = bytearray(z.getvalue())
        for i in range(60, 90):          # inside a.jsonl's deflate data
            zb[i] ^= 0x55
        r = run([c.path("corrupt.zip", bytes(zb))])
        expect("corrupt zip", r, 1, "corrupt.zip:a.jsonl")
        requests("corrupt zip", r)
        r = run(["-"], stdin_data=bytes(zb))
        expect("corrupt zip on stdin", r, 1)
        requests("corrupt zip on stdin", r)

        # A member that declares 8 GiB and holds a few lines.
        huge = tar_header("huge.jsonl", b"77777777777") + (GOOD * 10).encode()
        huge += b"\0" * (-len(huge) % 512)
        r = run([c.path("huge.tar", huge)], timeout=30, as_mb=80)
        expect("tar member declaring 8 GiB", r, 1, "huge.tar", rss_mb=80, secs=10)
        requests("tar member declaring 8 GiB", r, total=10, ok=10)
        r = run(["-"], stdin_data=huge, timeout=30, as_mb=80)
        expect("tar member declaring 8 GiB on stdin", r, 1, rss_mb=80, secs=10)

        # A zip whose local header claims 4 GiB uncompressed, stored.
        data = (GOOD * 5).encode()
        lh = struct.pack("<4sHHHHHIIIHH", b"PK\3\4", 20, 0, 0, 0, 0,
                         zlib.crc32(data),
                         len(data), 0xFFFFFFFF, 7, 0) + b"z.jsonl" + data
        r = run([c.path("huge.zip", lh)], timeout=30, as_mb=80)
        expect("zip member declaring 4 GiB", r, 1, "wrong size", rss_mb=80, secs=10)
        requests("zip member declaring 4 GiB", r, total=5, ok=5)

    def test_records(self):
        c = self.c
        big = 20 << 20
        path = os.path.join(c.tmp, "long.jsonl")
        with open(path, "w") as f:
            f.write(GOOD)
            f.write('{"x":"' + "a" * big + '"}\n')
            f.write(GOOD)
        r = run(["--max-record-size", "1M", "-j", "2", path], timeout=60, as_mb=60)
        expect("line over --max-record-size", r, 0, rss_mb=60, secs=20)
        requests("line over --max-record-size", r, total=3, ok=2, oversize=1)
        r = run(["--strict", "--max-record-size", "1M", path])
        expect("--strict with an oversize line", r, 1)

        sse = "".join('data: {"choices":[{"delta":{"content":"%s"}}]}\n\n' % ("b" * 1000)
                      for _ in range(3000)) + "data: [DONE]\n\n"
        r = run(["--max-record-size", "1M", c.path("long.sse", sse)], as_mb=60)
        expect("SSE stream over --max-record-size", r, 0, rss_mb=60)
        requests("SSE stream over --max-record-size", r, total=1, oversize=1)

        deep = ("[" * 1000000 + "\n" + "[" * 1000000 + "]" * 1000000 + "\n" +
                '{"a":' * 1000000 + "1" + "}" * 1000000 + "\n" +
                vllm("[1,2]", 3, 2, 4, extra=',"x":' + "[" * 1000000 + "]" * 1000000) +
                '{"metadata":{"m":' + "[" * 1000000 + "]" * 1000000 + '},"metrics":{},'
                '"spec_decode_acceptance":{"engine":"vllm"}}\n' + GOOD)
        r = run([c.path("deep.jsonl", deep)], timeout=60)
        expect("1,000,000-deep nesting", r, 0, secs=20)
        req = requests("1,000,000-deep nesting", r, total=6, ok=1)
        if req:
            check("1,000,000-deep nesting: statuses",
                  req["unparsable"] + req["malformed"] + req["unrecognized"] == 5, str(req))

        utf = GOOD_B.replace(b'"x"', b'"\xff\xfe\xc3"') + GOOD_B.replace(b'"x"', b'"\xed\xa0\x80"') + GOOD_B
        r = run([c.path("utf8.jsonl", utf)])
        expect("invalid UTF-8", r, 0, "invalid UTF-8")
        requests("invalid UTF-8", r, total=3, ok=1, unparsable=2)
        r = run(["--strict", c.path("utf8.jsonl", utf)])
        expect("--strict with an unparsable line", r, 1)

        nul = GOOD_B[:10] + b"\0" + GOOD_B[10:] + b"\0\0\0\n" + GOOD_B + b"\0" * 100
        r = run([c.path("nul.jsonl", nul)])
        expect("NUL bytes", r, 0)
        requests("NUL bytes", r, total=4, ok=1, unparsable=3)

    def test_numbers(self):
        c = self.c
        lines = [
            vllm("[1,1]", 2, 1, "18446744073709551616"),        # 2^64
            vllm("[1,1]", 2, 1, "9223372036854775808"),         # 2^63
            vllm("[1,1]", 2, 1, "1" + "0" * 40),
            vllm("[1,1]", 2, 1, 4, mean="1e400"),
            vllm("[1,1]", 2, 1, 4, rate="-1e400"),
            vllm("[1,1]", 2, 1, "4e0"),
            vllm("[1,1]", 2, 1, "-1"),
            vllm("[1,1]", 2, 1, 4, extra=',"unrelated":1e400'),  # ok: not read
            vllm("[1,1]", 2, 1, "-0"),                          # 0 drafts < 1 accepted
            vllm("[2,0]", 2, "-0", 4, mean="-0.0"),             # -0 is zero: ok
            vllm("[1,1]", 2, 1, I64_MAX),                       # ok
        ]
        r = run(["--records", os.path.join(c.tmp, "nums.out.jsonl"),
                 c.path("nums.jsonl", "".join(lines))])
        expect("numbers beyond 64 bits, 1e400, -0", r, 0)
        requests("numbers beyond 64 bits, 1e400, -0", r, total=11, ok=3, malformed=8)
        with open(os.path.join(c.tmp, "nums.out.jsonl")) as f:
            st = [json.loads(x)["spec_decode_status"] for x in f]
        check("numbers: per line", st == ["malformed"] * 7 + ["ok", "malformed", "ok", "ok"], str(st))
        r = run(["--strict", c.path("nums.jsonl", "".join(lines))])
        expect("--strict with malformed requests", r, 1)
        r = run(["--strict", c.path("fine.jsonl", GOOD * 3 + '{"choices":[{"text":"x"}]}\n'
                                    '{"hello":1}\n' + llama(0, 0))])
        expect("--strict with only ok, no_stats, unrecognized, zero_step", r, 0)
        r = run(["--strict", c.path("fine.jsonl", GOOD), os.path.join(c.tmp, "none")])
        expect("--strict with an unreadable input", r, 1, "No such file")

        # Overflow within one request: sums of counts past 2^63 - 1.
        q = 2**62
        over = [
            vllm("[%d,%d]" % (q, q), "9223372036854775807", 0, 0, mean=1.0, rate=0.0),
            vllm("[0,0,0,0,%d]" % (2**61), 2**61, I64_MAX, I64_MAX),
            vllm("[0,2]", 2, 2, 2, extra=',"per_step_accepted":[%d,%d]' % (q, q)),
            vllm("[2]", 2, 0, 2, extra=',"per_step_drafted":[%d,%d]' % (q, q)),
        ]
        r = run([c.path("over1.jsonl", "".join(over))])
        expect("sums overflowing within a request", r, 0)
        requests("sums overflowing within a request", r, total=4, malformed=4)

        # Overflow across requests: totals and the pooled histogram go past 2^64.
        across = (vllm("[%d]" % I64_MAX, I64_MAX, 0, 0, mean=1.0, rate=0.0) * 3 +
                  llama(I64_MAX, I64_MAX) * 3)
        r = run([c.path("over2.jsonl", across)])
        expect("sums overflowing across requests", r, 0)
        requests("sums overflowing across requests", r, total=6, ok=6)
        try:
            j = r.json()
            check("across: pooled histogram is exact",
                  j["pooled_spec_decode_acceptance_histogram"] == {"0": 3 * I64_MAX},
                  str(j.get("pooled_spec_decode_acceptance_histogram")))
            check("across: total draft tokens",
                  j["total_draft_tokens"]["avg"] == float(3 * I64_MAX), str(j.get("total_draft_tokens")))
            check("across: total steps",
                  j["total_spec_decode_steps"]["avg"] == float(3 * I64_MAX))
            check("across: overall rate", j["spec_decode_overall_draft_acceptance_rate"]["avg"] == 100.0)
        except (ValueError, KeyError) as e:
            check("across: report", False, repr(e))

        # Past the histogram cap (2^20 buckets), dense or as a records-line key:
        # malformed, without allocating for the bucket index.
        n = 1100000
        capped = (vllm("[" + ",".join(["0"] * n) + "]", 0, 0, 0, mean=1.0, rate=0.0) +
                  '{"metadata":{},"metrics":{},"spec_decode_acceptance":{"engine":"vllm",'
                  '"mean_acceptance_length":1.0,"draft_acceptance_rate":0.0,'
                  '"num_accepted_draft_tokens":0,"num_draft_tokens":0,"num_spec_steps":1,'
                  '"acceptance_histogram":{"9000000000000000000":1}}}\n')
        r = run([c.path("capped.jsonl", capped)], as_mb=80)
        expect("histograms past the bucket cap", r, 0, rss_mb=80, secs=20)
        requests("histograms past the bucket cap", r, total=2, malformed=2)

        # A million buckets.
        n = 1000000
        hist = "[" + ",".join(["1"] * n) + "]"
        acc = n * (n - 1) // 2
        line = vllm(hist, n, acc, acc, extra=',"num_spec_tokens":%d' % (n - 1))
        r = run([c.path("million.jsonl", line + line)], timeout=60, as_mb=200)
        expect("a histogram with a million buckets", r, 0, rss_mb=200, secs=20)
        requests("a histogram with a million buckets", r, total=2, ok=2)
        try:
            h = r.json()["pooled_spec_decode_acceptance_histogram"]
            check("million buckets: pooled", len(h) == n and h["0"] == 2 and h[str(n - 1)] == 2)
        except (ValueError, KeyError) as e:
            check("million buckets: report", False, repr(e))

    def test_degenerate(self):
        c = self.c
        for name, data in (("empty file", b""), ("only blank lines", b"\n \r\n\t\n\n" * 1000)):
            r = run([c.path(name.replace(" ", "_"), data)])
            expect(name, r, 0)
            req = requests(name, r, total=0)
            if req is not None:
                inputs = r.json()["specscan"]["inputs"]
                check(name + ": kind", inputs[0]["kind"] == "unknown" and inputs[0]["requests"] == 0)
            r = run(["--records", os.path.join(c.tmp, "deg.out"), "--force", c.path("d", data)])
            with open(os.path.join(c.tmp, "deg.out"), "rb") as f:
                check(name + ": records empty", f.read() == b"")
        rnd = random.Random(7)
        blob = bytes(rnd.getrandbits(8) for _ in range(1 << 20))
        nonblank = sum(1 for ln in blob.split(b"\n") if ln.strip(b" \t\r\f\v"))
        r = run([c.path("binary.bin", blob)], timeout=60, as_mb=80)
        expect("binary file", r, 1, rss_mb=80, secs=20)   # SPEC 5: no line is a request: could not be read
        req = requests("binary file", r)
        if req:
            check("binary file: one request per non-blank line", req["total"] == nonblank,
                  "%d vs %d" % (req["total"], nonblank))
            check("binary file: nothing ok", req["ok"] == 0)
        r = run([c.path("fake.gz", b"\x1f\x8b" + blob[:4096])])
        expect("binary file behind a gzip magic", r, 1, "gzip")

    def test_io_faults(self):
        c = self.c
        good = c.path("g.jsonl", GOOD * 3)
        for opt in ("--json", "--csv", "--records"):
            r = run(["-f", "none", opt, "/dev/full", good])
            expect(opt + " /dev/full", r, 3, "No space left on device")
        check("/dev/full is still a device", os.path.exists("/dev/full") and
              not os.path.isfile("/dev/full"))
        r = run(["--force", "-f", "none", "--json", "/dev/full", good])
        expect("--force --json /dev/full", r, 3, "No space left on device")
        check("/dev/full is still a device (--force)", not os.path.isfile("/dev/full"))
        r = run(["-f", "none", "--json", "/dev/null", good])
        expect("--json /dev/null", r, 0)
        with open("/dev/full", "wb") as full:
            p = subprocess.run([SPECSCAN, good], stdout=full, stderr=subprocess.PIPE,
                               timeout=60 * SLOW)
        check("stdout on /dev/full: exit 3", p.returncode == 3, str(p.returncode))
        check("stdout on /dev/full: message", b"No space left on device" in p.stderr)

        # An unreadable input among good ones: a directory (read fails as root
        # too), a missing file.
        d = os.path.join(c.tmp, "adir")
        os.makedirs(d, exist_ok=True)
        r = run([good, d, os.path.join(c.tmp, "nope.jsonl"), good])
        expect("unreadable inputs among good ones", r, 1, "adir")
        requests("unreadable inputs among good ones", r, total=6, ok=6)

        # SIGPIPE: the reader of stdout goes away after one line.
        big = c.path("big.jsonl", GOOD * 200000)
        start = time.monotonic()
        p = subprocess.Popen([SPECSCAN, "-f", "jsonl", big], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        first = p.stdout.readline()
        p.stdout.close()
        err = p.stderr.read()
        rc = p.wait(timeout=60 * SLOW)
        check("| head -1: a line came", first.startswith(b'{"source"'))
        check("| head -1: exit 3, no crash", rc == 3, "rc %d %s" % (rc, err[-300:]))
        check("| head -1: message", b"Broken pipe" in err, err[-300:])
        check("| head -1: stops early", time.monotonic() - start < 30 * SLOW)

        # SIGINT / SIGTERM while reading a FIFO (and a pipe) that stalls.
        for sig in (signal.SIGINT, signal.SIGTERM):
            for via in ("fifo", "pipe"):
                interrupt(c, sig, via)
        interrupt_output_dir(c, made_by_run=True)
        interrupt_output_dir(c, made_by_run=False)

    def test_fixture_accounting(self):
        """The invariant over whatever testdata/ holds (fixtures are added by
        others): each file, gzip and zstd copies of it, each directory with -r,
        and all of testdata at once."""
        c = self.c
        top = os.path.join(SRCDIR, "testdata")
        if not os.path.isdir(top):
            print("test_fixture_accounting: no testdata/, skipped")
            return
        files, dirs = [], []
        for root, dnames, fnames in os.walk(top):
            dnames[:] = sorted(d for d in dnames if not d.startswith("."))
            dirs.append(root)
            files += [os.path.join(root, f) for f in sorted(fnames)
                      if not f.startswith(".") and not f.endswith(".py")]
        for f in files:
            rel = os.path.relpath(f, top)
            accounting(c, rel, [f])
            with open(f, "rb") as fh:
                data = fh.read()
            accounting(c, rel + " (gzip)", [c.path("acct.gz", gzip.compress(data))])
            accounting(c, rel + " (zstd)", [c.path("acct.zst", zstd_frame(data))])
        for d in dirs:
            # SPEC 1.1: -r reads only artifact directories; a tree without one
            # is an input error that says so (nothing readable: exit 3).
            # (SPEC 10.8: a directory of a server-metrics export alone is one)
            has_art = any(f in ("profile_export_raw.jsonl", "profile_export.jsonl",
                                "server_metrics_export.json", "server_metrics_export.jsonl")
                          for _, _, fs in os.walk(d) for f in fs)
            if has_art:
                accounting(c, os.path.relpath(d, top) + "/ -r", ["-r", d])
            else:
                r = run(["-r", d])
                check(os.path.relpath(d, top) + "/ -r: no artifact directory", r.rc == 3 and
                      "no AIPerf artifact directory" in r.err, "(rc %d: %s)" % (r.rc, r.err[-300:]))
        accounting(c, "all files", files)
        check("fixture accounting: some files", len(files) > 0)


def tearDownModule():
    print("%d checks passed" % PASSED[0], file=sys.stderr)


if __name__ == "__main__":
    sslib.main()
