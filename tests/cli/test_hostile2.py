#!/usr/bin/env python3
"""Hostile inputs, round two (issue 13): one whole-program case per class of
fault an attacker or an unlucky user can cause, and one per SPEC agreement
fix (SPEC 1.1, 1.2, 1.4, 1.5, 2.5, 2.6, 3, 3.1, 4.4).

Classes:
  1 memory   peak RSS is bounded by the documented formula, whatever the
             line count or the shape of one line; --memory-limit
  2 spool    records-only members held from archives use one temporary file
             (not one descriptor each) and respect --spool-limit
  3 signals  SIGTERM stops the run at once while an over-limit line is skipped
  4 inputs   no input is overwritten, however it was reached (walk, artifact
             directory, stdin, hard link): compared by device and inode
  5 fds      closed standard descriptors 0-2 at start
  6 names    control characters and invalid UTF-8 are escaped in messages
  7 usage    two outputs on stdout; UTF-8 BOM; zstd windows (--zstd-window-log)
  9 SPEC     the agreement fixes of issue 13 item 9

Memory is measured by sampling the child's VmHWM (/proc/PID/status) while
it runs; the bound each case checks is stated next to it, from docs/BEHAVIOUR.md's
formula (src/util/memplan.h):
    peak RSS <= 64 MiB + 64 MiB x threads + 16 x record limit
where the record limit is --max-record-size (or what --memory-limit lowers
it to).

Every expected value is worked out by hand (or by Python's own float()),
never taken from specscan's output.

Cases listed in KNOWN_FAILING are run and reported, but do not fail the
suite unless SPECSCAN_HOSTILE2=1 (the fixes land in steps); a known
failure that passes is reported as XPASS. Run one case by name:
    SPECSCAN=build/specscan python3 tests/cli/test_hostile2.py spool_fd_count
"""
import gzip
import io
import json
import os
import resource
import signal
import struct
import subprocess
import sys
import tarfile
import tempfile
import threading
import time

import sampled

HERE = os.path.dirname(os.path.abspath(__file__))
SPECSCAN = os.path.abspath(os.environ.get("SPECSCAN") or "./specscan")
STRICT = os.environ.get("SPECSCAN_HOSTILE2") == "1"

# Cases whose fix is not in yet (none: every class of issue 13 is fixed;
# the set stays for the next round's tests-first steps).
KNOWN_FAILING = set()

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


class CaseFailed(Exception):
    pass


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


CASES = []


def case(fn):
    CASES.append(fn)
    return fn


# ==== 1. memory ====

@case
def memory_many_tiny_lines(t):
    """A 20 MB gzip-compressed stream of ten million 1-byte lines: each
    request's state must not stay in flight in bulk. `1` is JSON but not
    an object: 10,000,000 unparsable. Bound (-j2: two workers and the
    reading thread parse): 64 + 64*3 + 16*1 = 272 MiB
    (the record limit is set to 1M to make the bound tight; before the
    fix: 5.9 GB, here out of memory at the address-space cap)."""
    n = 10_000_000
    gz = t.file("tiny.gz", gzip.compress(b"1\n" * n, 1))
    bound = mem_bound_kb(3, 1 * MiB)
    r = run(["-j2", "--max-record-size", "1M", "-q", gz], timeout=120,
            as_kb=2 * bound + (1 << 20))
    want_rc(r, 0)
    req = counts(r)
    want(req["total"] == n and req["unparsable"] == n, "10M unparsable: %s" % req)
    want(r.rss_kb <= bound, "peak RSS %d KiB <= %d KiB" % (r.rss_kb, bound), r)


def zero_array_line(size):
    """`[0,0,...,0]` of exactly `size` bytes (size odd), plus LF."""
    k = (size - 1) // 2
    return b"[" + b"0," * (k - 1) + b"0]\n"


@case
def memory_huge_lines_threads(t):
    """Sixteen 20 MiB lines of `[0,0,...]` at -j8 with --max-record-size
    21M: every structural character costs the parser (5.7 bytes a byte);
    the lines must not be parsed (and held) eight at a time. Not objects:
    16 unparsable. Bound (eight workers and the reading thread):
    64 + 64*9 + 16*21 = 976 MiB (before the fix:
    about 1.3 GiB)."""
    line = zero_array_line(20 * MiB + 1)
    p = t.file("zeros.jsonl", line * 16)
    bound = mem_bound_kb(9, 21 * MiB)
    r = run(["-j8", "--max-record-size", "21M", p], timeout=120,
            as_kb=2 * bound + (1 << 20))
    os.unlink(p)
    want_rc(r, 0)
    req = counts(r)
    want(req["unparsable"] == 16, "16 unparsable: %s" % req)
    want(r.rss_kb <= bound, "peak RSS %d KiB <= %d KiB" % (r.rss_kb, bound), r)


@case
def memory_limit_option(t):
    """--memory-limit 256M with the default record limit (256M) at -j2:
    the parsing threads (workers and the reading thread) may take half of
    the 192 MiB above the base but never fewer than two (one worker and the
    reader), so 128 MiB; the record limit is lowered so that
    64 + 64*2 + 16*L <= 256 MiB, i.e. L = 4 MiB, so two 30 MiB lines are oversize; a small line is still
    read. Peak RSS stays under 256 MiB."""
    big = zero_array_line(30 * MiB + 1)
    p = t.file("big.jsonl", big + GOOD.encode() + big)
    r = run(["-j2", "--memory-limit", "256M", p], timeout=120, as_kb=(512 + 1024) * 1024)
    want_rc(r, 0)
    req = counts(r)
    want(req["oversize"] == 2 and req["ok"] == 1, "2 oversize, 1 ok: %s" % req)
    limit = 256 * 1024 * (3 if ASAN else 1) + (512 * 1024 if ASAN else 0)
    want(r.rss_kb <= limit, "peak RSS %d KiB <= %d KiB" % (r.rss_kb, limit), r)
    r = run(["--memory-limit", "1K", p])
    want_rc(r, 2)


# ==== 2. spool ====

@case
def spool_fd_count(t):
    """3,000 records-only artifact directories in one tar, run with at most
    256 open descriptors: every one is read (one no_stats record each),
    none lost to "Too many open files"."""
    n = 3000
    line = (records_line("null").replace(',"spec_decode_acceptance":null', "") + "\n").encode()
    members = []
    for i in range(n):
        members.append(("runs/r%04d/profile_export.jsonl" % i, line))
    tb = t.file("many.tar", tar_bytes(members, tarfile.USTAR_FORMAT))

    def lim():
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))
    r = run([tb], preexec=lim, timeout=120)
    want_rc(r, 0)
    req = counts(r)
    want(req["total"] == n and req["no_stats"] == n, "3000 no_stats: %s" % req)
    want("Too many open files" not in r.err, "no EMFILE", r)


@case
def spool_limit(t):
    """A records-only export held from an archive (SPEC 1.1) larger than
    --spool-limit: a clear message, the member counts as an unreadable
    input (exit 1), the other member is read, and the spool never grows
    past the limit (the process may write at most 4 MiB of files)."""
    line = (records_line("null").replace(',"spec_decode_acceptance":null', "") + "\n")
    big = (line * (8 * MiB // len(line) + 1)).encode()         # > 8 MiB
    tb = t.file("spool.tar", tar_bytes([
        ("a/profile_export.jsonl", big),
        ("b/profile_export_raw.jsonl", GOOD.encode()),
    ]))

    def lim():
        resource.setrlimit(resource.RLIMIT_FSIZE, (4 * MiB, 4 * MiB))
    r = run(["--spool-limit", "1M", tb], preexec=lim)
    want_no_crash(r)
    want_rc(r, 1)
    want("spool" in r.err and "1M" in r.err.replace("1 MiB", "1M"),
         "message names the spool limit", r)
    req = counts(r)
    want(req["ok"] == 1 and req["total"] == 1, "b's request read: %s" % req)
    r = run(["--spool-limit", "nonsense", tb])
    want_rc(r, 2)


# ==== 3. signals ====

def term_after(delay):
    def start(p):
        def go():
            time.sleep(delay)
            try:
                p.send_signal(signal.SIGTERM)
            except OSError:
                pass
        threading.Thread(target=go, daemon=True).start()
    return start


@case
def signal_while_skipping_dev_zero(t):
    """`specscan /dev/zero`: one endless over-limit line. One SIGTERM
    after 1 s stops it at once, "interrupted", ended by SIGTERM, within 5 s."""
    r = run(["--max-record-size", "1M", "/dev/zero"], on_start=term_after(1.0), timeout=20)
    want_rc(r, -signal.SIGTERM)     # SPEC 5: ended by the signal itself
    want("interrupted" in r.err, "says interrupted", r)
    want(r.secs < 5 * SLOW, "stopped at once (%.1f s)" % r.secs)


@case
def signal_while_skipping_zstd_bomb(t):
    """The same through the zstd decoder: 100 GiB of zeros (one line) in
    3.2 MB; SIGTERM after 1 s stops it."""
    p = t.file("zeros.zst", zstd_rle(0, 800000))
    r = run(["--max-record-size", "1M", p], on_start=term_after(1.0), timeout=20)
    want_rc(r, -signal.SIGTERM)     # SPEC 5: ended by the signal itself
    want("interrupted" in r.err, "says interrupted", r)
    want(r.secs < 5 * SLOW, "stopped at once (%.1f s)" % r.secs)


# ==== 4. no input overwritten ====

def same_bytes(path, data):
    with open(path, "rb") as f:
        return f.read() == data


@case
def overwrite_walked_input(t):
    """`specscan -r tree --force --records tree/run/profile_export.jsonl`:
    the output is an input the walk found. Refused before anything is
    written (exit 3, as for an input typed on the command line), the input
    unchanged."""
    d = t.sub()
    data = (records_line("null").replace(',"spec_decode_acceptance":null', "") + "\n").encode()
    inp = t.file(os.path.join(d, "run", "profile_export.jsonl"), data)
    r = run(["-r", d, "--force", "--records", inp])
    want_rc(r, 3)
    want(same_bytes(inp, data), "input unchanged")
    want("one of the inputs" in r.err, "message says it is an input", r)


@case
def overwrite_artifact_member(t):
    """An artifact directory given by name; the output is the file chosen
    inside it."""
    d = t.sub()
    inp = t.file(os.path.join(d, "run", "profile_export_raw.jsonl"), GOOD)
    r = run([os.path.join(d, "run"), "--force", "--json", inp])
    want_rc(r, 3)
    want(same_bytes(inp, GOOD.encode()), "input unchanged")


@case
def overwrite_stdin_file(t):
    """stdin is a regular file that is also an output (`< x --json x`)."""
    d = t.sub()
    inp = t.file(os.path.join(d, "x.jsonl"), GOOD)
    with open(inp, "rb") as f:
        r = run(["--force", "--json", inp], stdin=f)
    want_rc(r, 3)
    want(same_bytes(inp, GOOD.encode()), "input unchanged")


@case
def overwrite_hard_link(t):
    """The output is a hard link (another name, same inode) to an input
    found inside an artifact directory by -r."""
    d = t.sub()
    inp = t.file(os.path.join(d, "run", "profile_export_raw.jsonl"), GOOD)
    link = os.path.join(d, "link.jsonl")
    os.link(inp, link)
    r = run(["-r", d, "--force", "--csv", link])
    want_rc(r, 3)
    want(same_bytes(inp, GOOD.encode()), "input unchanged")


@case
def overwrite_stdout_appending(t):
    """`specscan -f jsonl x >> x`: standard output is the input file (the
    report would be appended to what is being read): refused (exit 3),
    the input unchanged."""
    d = t.sub()
    inp = t.file(os.path.join(d, "x.jsonl"), GOOD)
    with open(inp, "ab") as out:
        r = run(["-f", "jsonl", inp], stdout=out, timeout=10)
    want_rc(r, 3)
    want(same_bytes(inp, GOOD.encode()), "input unchanged")


# ==== 5. closed standard descriptors ====

@case
def closed_stdout_with_file_output(t):
    """`specscan --json x.json in >&-`: x.json holds exactly one JSON
    document; stdout output was asked for (-f json) and cannot be written:
    an error (exit 3)."""
    d = t.sub()
    inp = t.file(os.path.join(d, "in.jsonl"), GOOD)
    out = os.path.join(d, "x.json")
    r = run(["--json", out, inp], preexec=lambda: os.close(1))
    want_rc(r, 3)
    want("standard output" in r.err or "stdout" in r.err, "names stdout", r)
    if os.path.exists(out):
        with open(out) as f:
            json.load(f)   # exactly one document, or this raises
    # Nothing asked of stdout: fine.
    r = run(["-f", "none", "--json", out, "--force", inp], preexec=lambda: os.close(1))
    want_rc(r, 0)
    with open(out) as f:
        want(json.load(f)["specscan"]["requests"]["ok"] == 1, "x.json: one ok")


@case
def closed_stdin_with_spool(t):
    """stdin closed; an archive whose records-only member is spooled to a
    temporary file, then `-`: standard input must read as empty (fd 0 is
    /dev/null), not the temporary file. 1 request in all."""
    line = (records_line("null").replace(',"spec_decode_acceptance":null', "") + "\n")
    tb = t.file("one.tar", tar_bytes([("a/profile_export.jsonl", line.encode())]))
    r = run([tb, "-"], preexec=lambda: os.close(0))
    want_rc(r, 0)
    req = counts(r)
    want(req["total"] == 1, "one request (the member's): %s" % req)
    # nothing but the hint that its one request carried no stats (SPEC 5)
    want(all(l.startswith(("specscan: no request carried", "specscan:   1 of them"))
             for l in r.err.splitlines()), "no message", r)


# ==== 6. untrusted names in messages ====

@case
def escaped_member_names(t):
    """An archive member named with an escape sequence and a newline that
    would forge a `specscan:` line; its one line is unparsable. The message
    shows the name escaped (ESC as \\033, LF as \\n), valid UTF-8 (é) kept,
    an invalid byte (\\xff) as \\377."""
    name = "a\x1b[31mred\nspecscan: forged \u00e9.jsonl"
    tb = t.file("names.tar", tar_bytes([(name, b"not json\n")], tarfile.GNU_FORMAT))
    r = run([tb])
    want_rc(r, 0)
    want("\x1b" not in r.err, "no raw ESC", r)
    want(not any(ln.startswith("specscan: forged") for ln in r.err.splitlines()),
         "no forged line", r)
    want("a\\033[31mred\\nspecscan: forged \u00e9.jsonl:1: unparsable" in r.err,
         "escaped name", r)
    # An invalid UTF-8 byte in a path on the command line.
    d = t.sub()
    bad = os.path.join(d.encode(), b"x\xff\x07.jsonl")
    r = run([bad.decode("utf-8", "surrogateescape")])
    want_rc(r, 3)
    want("x\\377\\a.jsonl" in r.err, "invalid byte and BEL escaped", r)
    # Usage errors name what was typed: escaped too.
    r = run(["--x\x1b[2J", bad.decode("utf-8", "surrogateescape")])
    want_rc(r, 2)
    want("\x1b" not in r.err and "--x\\033[2J" in r.err, "option escaped", r)
    r = run(["--engine", "v\x1b]0;pwned\x07", bad.decode("utf-8", "surrogateescape")])
    want_rc(r, 2)
    want("\x1b" not in r.err and "v\\033]0;pwned\\a" in r.err, "value escaped", r)


# ==== 7. usage and small edges ====

@case
def usage_two_stdout_outputs(t):
    """Two outputs on stdout are a usage error: --json - with -f json
    (the default), --records - with -f jsonl, --json - with --csv -."""
    p = t.file("u.jsonl", GOOD)
    for args in (["--json", "-"], ["-f", "jsonl", "--records", "-"],
                 ["-f", "none", "--json", "-", "--csv", "-"], ["-f", "csv", "--csv", "-"]):
        r = run(args + [p])
        want_rc(r, 2)
        want("stdout" in r.err or "standard output" in r.err, "says why", r)
        want(r.out == b"", "nothing on stdout", r)
    r = run(["-f", "none", "--json", "-", p])
    want_rc(r, 0)
    want(r.json()["specscan"]["requests"]["ok"] == 1, "one document")


@case
def usage_bom(t):
    """A UTF-8 BOM at the start of an input is skipped: a JSONL body line
    is ok; an SSE capture is still detected as SSE (also gzip-compressed)."""
    bom = b"\xef\xbb\xbf"
    p = t.file("bom.jsonl", bom + GOOD.encode())
    r = run(["-f", "jsonl", p])
    want_rc(r, 0)
    ln = r.lines()
    want(len(ln) == 1 and ln[0]["spec_decode_status"] == "ok", "one ok", r)
    sse = (bom + b"data: " + llama_body(4, 2).encode() + b"\n\ndata: [DONE]\n\n")
    for name, data in (("bom.sse", sse), ("bom.sse.gz", gzip.compress(sse))):
        r = run([t.file(name, data)])
        want_rc(r, 0)
        j = r.json()
        want(j["specscan"]["requests"]["ok"] == 1 and j["specscan"]["requests"]["total"] == 1
             and j["specscan"]["inputs"][0]["kind"] == "sse", "one ok sse request", r)


@case
def usage_zstd_window(t):
    """A zstd frame declaring a 2^28-byte window (more than libzstd's
    default limit, 2^27): reported as needing a larger window, naming
    --zstd-window-log 28, not as corrupt; with --zstd-window-log 28 (and
    31, the most zstd --long takes) it is read; 32 and 9 are usage errors."""
    win28 = ((28 - 10) << 3)
    p = t.file("w28.zst", zstd_raw_frame(GOOD.encode(), win28))
    r = run([p])
    want_rc(r, 1)   # opened, but nothing could be read: as a corrupt stream
    want("larger window" in r.err and "--zstd-window-log 28" in r.err, "says so", r)
    want("corrupt" not in r.err, "not corrupt", r)
    for wl in ("28", "31"):
        r = run(["--zstd-window-log", wl, p])
        want_rc(r, 0)
        want(counts(r)["ok"] == 1, "read with window log %s" % wl, r)
    win31 = ((31 - 10) << 3)
    p31 = t.file("w31.zst", zstd_raw_frame(GOOD.encode(), win31))
    r = run(["--zstd-window-log", "31", p31])
    want_rc(r, 0)
    for wl in ("32", "9", "x"):
        r = run(["--zstd-window-log", wl, p])
        want_rc(r, 2)


# ==== 9. SPEC agreement ====

def one_jsonl(t, line, args=(), name="l.jsonl"):
    p = t.file(name, line if line.endswith("\n") else line + "\n")
    r = run(["-f", "jsonl"] + list(args) + [p])
    want(r.rc in (0, 1), "report written", r)
    ln = r.lines()
    want(len(ln) == 1, "one request", r)
    return ln[0]


@case
def spec_long_doubles(t):
    """SPEC 1.2: every double correctly rounded whatever its length. vLLM's
    mean_acceptance_length is taken as sent, so the record shows the double
    read; Python's float() is the reference."""
    for text in ("0.33333333333333333333333333333", "2.44444444444444444444444",
                 "1.00000000000000011102230246251565404236316680908203126",
                 "1.00000000000000011102230246251565404236316680908203125",
                 "3.14159265358979323846264338327950288",
                 "0.000000000000000000000000000000000000000000012345678901234567890123",
                 "12345678901234567890123.5e-20", "-0.0000000000000000000000000001"):
        rec = one_jsonl(t, vllm_body("[1]", 1, 0, 1, text, "0.5"))
        want(rec["spec_decode_status"] == "ok", "ok for %s" % text, rec)
        got = rec["spec_decode_acceptance"]["mean_acceptance_length"]
        want(got == float(text) and repr(got) == repr(float(text)),
             "%s read as %r, want %r" % (text, got, float(text)))


@case
def spec_engine_before_fields(t):
    """SPEC 2.6: --engine vllm and a records line of engine sglang with a
    mistyped field: unrecognized, not malformed."""
    sda = ('{"engine":"sglang","mean_acceptance_length":2.0,"draft_acceptance_rate":0.5,'
           '"num_accepted_draft_tokens":"two","num_draft_tokens":4,"num_spec_steps":2}')
    rec = one_jsonl(t, records_line(sda), ["--engine", "vllm"])
    want(rec["spec_decode_status"] == "unrecognized", "unrecognized", rec)


@case
def spec_long_engine_name(t):
    """SPEC 2.6: a records line's engine string is kept whatever its
    length (100 bytes here)."""
    eng = "e" * 100
    sda = ('{"engine":"%s","mean_acceptance_length":2.0,"draft_acceptance_rate":0.5,'
           '"num_accepted_draft_tokens":2,"num_draft_tokens":4,"num_spec_steps":2}' % eng)
    rec = one_jsonl(t, records_line(sda))
    want(rec["spec_decode_status"] == "ok", "ok", rec)
    want(rec["spec_decode_acceptance"]["engine"] == eng, "engine kept", rec)


@case
def spec_duplicate_keys(t):
    """SPEC 1.2: the last of a repeated key counts, everywhere. A raw line
    with `responses` twice reads only the second; a body with `timings`
    twice reads the second."""
    def resp(drafted, acc):
        body = json.dumps(json.loads(llama_body(drafted, acc)))
        return '[{"perf_ns":1,"text":%s}]' % json.dumps(body)
    vresp = '[{"perf_ns":1,"text":%s}]' % json.dumps(GOOD.strip())
    raw = ('{"metadata":{"benchmark_phase":"warmup"},"responses":%s,'
           '"metadata":{"benchmark_phase":"profiling"},"responses":%s}' % (vresp, resp(4, 1)))
    # Both read: two payloads (vLLM, llama.cpp) would be ambiguous.
    rec = one_jsonl(t, raw)
    want(rec["spec_decode_status"] == "ok", "ok", rec)
    sda = rec["spec_decode_acceptance"]
    want(sda["engine"] == "llamacpp" and sda["num_draft_tokens"] == 4
         and sda["num_accepted_draft_tokens"] == 1, "second responses read", rec)
    want(rec.get("metadata") == {"benchmark_phase": "profiling"}, "second metadata", rec)
    body = ('{"content":"x","timings":{"draft_n":10,"draft_n_accepted":5},'
            '"timings":{"draft_n":4,"draft_n_accepted":1}}')
    rec = one_jsonl(t, body, name="b.jsonl")
    sda = rec.get("spec_decode_acceptance", {})
    want(sda.get("num_draft_tokens") == 4 and sda.get("num_accepted_draft_tokens") == 1,
         "second timings read", rec)


@case
def spec_sglang_empty_histogram(t):
    """SPEC 2.6: an empty SGLang histogram array counts as absent: steps 2,
    accepted 3, drafted 6 -> ok, no histogram, no k."""
    body = ('{"text":"x","meta_info":{"spec_verify_ct":2,"spec_accept_token_num":3,'
            '"spec_draft_token_num":6,"spec_accept_histogram":[]}}')
    rec = one_jsonl(t, body)
    want(rec["spec_decode_status"] == "ok", "ok", rec)
    sda = rec["spec_decode_acceptance"]
    want("acceptance_histogram" not in sda and "num_spec_tokens" not in sda,
         "no histogram, no k", rec)
    want(sda["num_spec_steps"] == 2 and sda["mean_acceptance_length"] == 2.5, "1 + 3/2", rec)


@case
def spec_records_histogram_keys(t):
    """SPEC 2.6: records-line histogram keys are canonical decimals: "00"
    is malformed ("0" is fine)."""
    base = ('{"engine":"vllm","mean_acceptance_length":1.5,"draft_acceptance_rate":0.25,'
            '"acceptance_histogram":{%s},"num_accepted_draft_tokens":1,'
            '"num_draft_tokens":4,"num_spec_steps":2}')
    rec = one_jsonl(t, records_line(base % '"0":1,"1":1'))
    want(rec["spec_decode_status"] == "ok", "canonical keys ok", rec)
    for keys in ('"00":1,"1":1', '"0":1,"+1":1', '"0":1,"01":1'):
        rec = one_jsonl(t, records_line(base % keys))
        want(rec["spec_decode_status"] == "malformed", "%s malformed" % keys, rec)


@case
def spec_per_step_without_steps(t):
    """SPEC 2.5 (4): per-step arrays without num_spec_steps are malformed,
    and the reason says num_spec_steps is missing (not that it "is 0")."""
    sda = ('{"engine":"vllm","mean_acceptance_length":2.5,"draft_acceptance_rate":0.75,'
           '"num_accepted_draft_tokens":3,"num_draft_tokens":4,"per_step_accepted":[1,2]}')
    rec = one_jsonl(t, records_line(sda))
    want(rec["spec_decode_status"] == "malformed", "malformed", rec)
    reason = rec.get("spec_decode_reason", "")
    want("num_spec_steps" in reason and "is 0" not in reason, "reason: %r" % reason)


@case
def spec_metadata_any_type(t):
    """SPEC 4.4: metadata is copied verbatim whatever its JSON type."""
    for meta in ('"hello"', '[1, 2]', '12.50', 'true'):
        line = '{"metadata":%s,"responses":[{"perf_ns":1,"text":%s}]}' % (
            meta, json.dumps(llama_body(4, 2)))
        p = t.file("m.jsonl", line + "\n")
        r = run(["-f", "jsonl", p])
        want_rc(r, 0)
        want(b'"metadata":' + meta.encode() + b',' in r.out, "metadata %s verbatim" % meta, r)


@case
def spec_packets_and_text(t):
    """SPEC 1.4: an element with both `packets` and `text` is streaming:
    the packets' body (drafted 4, accepted 1) counts, not the text's."""
    pk = json.dumps(llama_body(4, 1))
    tx = json.dumps(llama_body(10, 5))
    line = ('{"metadata":{},"responses":[{"perf_ns":1,"text":%s,'
            '"packets":[{"name":"data","value":%s}]}]}' % (tx, pk))
    rec = one_jsonl(t, line)
    sda = rec.get("spec_decode_acceptance", {})
    want(sda.get("num_draft_tokens") == 4, "packets read", rec)


@case
def spec_total_steps_absent(t):
    """SPEC 3: total_spec_decode_steps is absent when no ok record has
    steps (llama.cpp without draft_rounds)."""
    p = t.file("ll.jsonl", llama_body(4, 2) + "\n" + llama_body(6, 3) + "\n")
    r = run([p])
    want_rc(r, 0)
    j = r.json()
    want("total_spec_decode_steps" not in j, "absent", r)
    want(j["total_draft_tokens"]["avg"] == 10.0, "drafted 10")


@case
def spec_negative_zero(t):
    """SPEC 1.2: an integer literal in a double field is converted exactly:
    draft_acceptance_rate -0 is 0.0, so the CSV says 0.00, not -0.00."""
    body = vllm_body("[1]", 1, 0, 1, "1", "-0")
    p = t.file("z.jsonl", body + "\n")
    r = run(["-f", "csv", p])
    want_rc(r, 0)
    rows = [ln for ln in r.out.decode().split("\r\n") if ln.startswith("Draft Acceptance Rate")]
    want(rows and rows[0].split(",")[1] == "0.00", "0.00: %r" % rows)
    want(b"-0.00" not in r.out, "no -0.00", r)


@case
def spec_sse_size(t):
    """SPEC 1.2: a stream's size is the bytes of its events' lines, line
    ends and each event's closing blank line included, keep-alives
    excluded. Stream = `data: J` LF LF `data: [DONE]` LF LF = len(J)+6+1+1
    +12+1+1 = len(J)+22 bytes. With --max-record-size 100, len(J) = 78 fits
    exactly (with a keep-alive event between), 79 is oversize; 63 is a
    usage error and 64 is not."""
    def stream(jlen):
        j = llama_body(4, 2)
        j = j[:-1] + " " * (jlen - len(j)) + "}"
        assert len(j) == jlen
        return "data: %s\n\ndata:\n\ndata: [DONE]\n\n" % j
    rec = one_jsonl(t, stream(78), ["--max-record-size", "100"], name="s.sse")
    want(rec["spec_decode_status"] == "ok", "100 bytes: ok", rec)
    rec = one_jsonl(t, stream(79), ["--max-record-size", "100"], name="s.sse")
    want(rec["spec_decode_status"] == "oversize", "101 bytes: oversize", rec)
    p = t.file("g.jsonl", GOOD)
    want_rc(run(["--max-record-size", "63", p]), 2)
    want_rc(run(["--max-record-size", "64", "-f", "none", p]), 0)


@case
def spec_walk_only_artifacts(t):
    """SPEC 1.1: with -r, loose files outside artifact directories are not
    inputs; a walk that finds no artifact directory is an input error that
    says so (exit 3: nothing readable)."""
    d = t.sub()
    t.file(os.path.join(d, "README.md"), "# notes\n")
    t.file(os.path.join(d, "plot.png"), b"\x89PNG\r\n\x1a\n....")
    t.file(os.path.join(d, "run1", "profile_export_raw.jsonl"), GOOD)
    r = run(["-r", d])
    want_rc(r, 0)
    j = r.json()
    names = [i["name"] for i in j["specscan"]["inputs"]]
    want(len(names) == 1 and names[0].endswith("run1/profile_export_raw.jsonl"),
         "only the artifact: %s" % names)
    want(j["specscan"]["requests"]["total"] == 1, "one request")
    e = t.sub()
    t.file(os.path.join(e, "notes.txt"), "hello\n")
    r = run(["-r", e])
    want_rc(r, 3)
    want("artifact director" in r.err, "says no artifact directory", r)


@case
def spec_nan_in_payload(t):
    """SPEC 1.2: a line that is not valid JSON is unparsable even when the
    fault is in a payload that is read (NaN, a leading zero, a bad literal
    in timings)."""
    for bad in ('{"content":"x","timings":{"draft_n":NaN,"draft_n_accepted":1}}',
                '{"content":"x","timings":{"draft_n":04,"draft_n_accepted":1}}',
                '{"content":"x","timings":{"draft_n":4,"draft_n_accepted":1,"draft_rounds":tru}}'):
        rec = one_jsonl(t, bad)
        want(rec["spec_decode_status"] == "unparsable", "unparsable: %s" % bad, rec)


def raw_chunks(*chunks):
    """A raw line whose elements are streams of one data packet each."""
    els = ['{"perf_ns":%d,"packets":[{"name":"data","value":%s}]}' % (i + 1, json.dumps(c))
           for i, c in enumerate(chunks)]
    return '{"metadata":{},"responses":[%s]}' % ",".join(els)


def sse_stream(*events):
    return "".join("data: %s\n\n" % e for e in events) + "data: [DONE]\n\n"


ROLE = '{"choices":[{"index":0,"delta":{"role":"assistant"}}]}'
HI = '{"choices":[{"index":0,"delta":{"content":"hi"}}]}'
# a terminal chunk with llama.cpp timings: drafted 4, accepted 1 when valid
TIMINGS = '{"choices":[{"index":0,"delta":{}}],"timings":{"draft_n":%s,"draft_n_accepted":1}}'
HI_TIMINGS = ('{"choices":[{"index":0,"delta":{"content":"hi"}}],'
              '"timings":{"draft_n":%s,"draft_n_accepted":1}}')
VLLM_SD = ('{"choices":[],"metrics":{"speculative_decoding":{"acceptance_histogram":[0,1],'
           '"num_spec_steps":%s,"mean_acceptance_length":2.0,"draft_acceptance_rate":1.0,'
           '"num_accepted_draft_tokens":1,"num_draft_tokens":1}}}')


def nan_cases():
    """(what, objects, expected status), worked out by hand from SPEC 1.4 and
    2.1: an object whose text is not valid JSON is skipped whole, so it
    carries neither content nor a payload."""
    return [
        ("control: valid timings", [ROLE, HI, TIMINGS % "4"], "ok"),
        ("NaN payload chunk, valid content chunk", [ROLE, HI, TIMINGS % "NaN"], "no_stats"),
        ("Infinity payload chunk", [HI, TIMINGS % "Infinity"], "no_stats"),
        ("NaN in metrics.speculative_decoding", [HI, VLLM_SD % "NaN"], "no_stats"),
        ("control: valid vLLM payload", [HI, VLLM_SD % "1"], "ok"),
        ("NaN chunk the only one with content", [ROLE, HI_TIMINGS % "NaN"], "no_content"),
        ("NaN outside any field read, only content",
         [ROLE, HI[:-1] + ',"x":[1,NaN]}'], "no_content"),
        ("bad literal outside any field read, only content",
         [HI[:-1] + ',"x":tru}', TIMINGS % "4"], "no_content"),
    ]


@case
def spec_nan_in_raw_chunk(t):
    """SPEC 1.4: a raw element's TEXT that is not valid JSON (a NaN in its
    timings or metrics) is skipped, not an error: the status comes from the
    other chunks (no_stats, no_content), never malformed or unparsable."""
    for what, objs, want_st in nan_cases():
        rec = one_jsonl(t, raw_chunks(*objs))
        want(rec["spec_decode_status"] == want_st, "raw, %s: %s" % (what, want_st), rec)


@case
def spec_nan_in_sse_event(t):
    """The same rule for an SSE event whose data is not valid JSON: the
    event is skipped like a raw chunk (SPEC 1.2 reads an event's data as
    one of the request's objects, 1.4's TEXT)."""
    for what, objs, want_st in nan_cases():
        p = t.file("s.txt", sse_stream(*objs))
        r = run(["-f", "jsonl", p])
        want(r.rc in (0, 1), "report written", r)
        ln = r.lines()
        want(len(ln) == 1 and ln[0]["source"]["line"] == 1, "one SSE stream", r)
        want(ln[0]["spec_decode_status"] == want_st, "sse, %s: %s" % (what, want_st), ln[0])


@case
def stale_model_after_invalid_enriched(t):
    """Found by fuzz_records: a line that starts like an enriched line but
    is not valid JSON must not inherit the previous line's model (its
    walk's spans pointed into the previous line, or freed memory)."""
    body = '{"model":"m1","content":"x","timings":{"draft_n":4,"draft_n_accepted":2}}'
    p = t.file("m.jsonl", body + '\n{"source":{"input":"a"}, bad\n')
    r = run(["-f", "jsonl", "-q", p])
    want_rc(r, 0)
    ln = r.lines()
    want(len(ln) == 2 and ln[0].get("model") == "m1", "line 1 has its model", r)
    want(ln[1]["spec_decode_status"] == "unparsable" and "model" not in ln[1],
         "line 2 has no model", r)


@case
def metadata_null_with_junk(t):
    """Found by fuzz_request: `"metadata":null?` (or `nullx`) is not valid
    JSON, so the line is unparsable; it was taken for null and copied
    verbatim, and the enriched line written was not valid JSON."""
    for junk in ("null?", "nullx", "nulll", "null!"):
        line = '{"metadata":%s,"specx":{"a":1}}' % junk
        p = t.file("n.jsonl", line + "\n")
        r = run(["-f", "jsonl", "-q", p])
        want(r.rc in (0, 1), "report written", r)
        raw = r.out.decode("utf-8").splitlines()
        want(len(raw) == 1, "one request", r)
        try:
            rec = json.loads(raw[0])
        except ValueError:
            raise CaseFailed("metadata %s: output line is not JSON: %r" % (junk, raw[0]))
        want(rec["spec_decode_status"] == "unparsable", "metadata %s: unparsable" % junk, rec)


def main():
    if not os.access(SPECSCAN, os.X_OK):
        print("test_hostile2: no specscan binary at %s" % SPECSCAN, file=sys.stderr)
        return 99
    only = sys.argv[1:]
    failed, xfail, xpass, passed = [], [], [], 0
    with tempfile.TemporaryDirectory(prefix="specscan-hostile2.") as tmp:
        tmpd = Tmp(tmp)
        for fn in CASES:
            name = fn.__name__
            if only and name not in only:
                continue
            start = time.monotonic()
            try:
                fn(tmpd)
                ok, why = True, ""
            except CaseFailed as e:
                ok, why = False, str(e)
            except Exception as e:   # a broken case is a failure too
                ok, why = False, "%s: %s" % (type(e).__name__, e)
            secs = time.monotonic() - start
            known = name in KNOWN_FAILING and not STRICT
            if ok:
                passed += 1
                if known:
                    xpass.append(name)
                print("%s %s (%.1f s)" % ("XPASS" if known else "PASS", name, secs))
            elif known:
                xfail.append(name)
                print("XFAIL %s: %s" % (name, why))
            else:
                failed.append(name)
                print("FAIL %s: %s" % (name, why))
    print("%d passed, %d failed, %d known failing, %d unexpectedly passing"
          % (passed, len(failed), len(xfail), len(xpass)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
