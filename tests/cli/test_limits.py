#!/usr/bin/env python3
"""Bounds a run keeps whatever its input: peak memory by docs/BEHAVIOUR.md's formula
(src/util/memplan.h), whatever the line count or the shape of one line,
and under --memory-limit; the spool (records-only members held from
archives use one temporary file, not one descriptor each, and respect
--spool-limit); SIGTERM stopping a run at once while an over-limit line is
skipped; zstd windows (--zstd-window-log).

Memory is measured by sampling the child's VmHWM (/proc/PID/status) while
it runs (sampled.py); the bound each case checks is stated next to it:
    peak RSS <= 64 MiB + 64 MiB x threads + 16 x record limit
where the record limit is --max-record-size (or what --memory-limit lowers
it to). Every expected value is worked out by hand, never taken from
specscan's output. The default spool limit (half the free space) is in
test_reliability.py.
"""
import gzip
import os
import resource
import signal
import sys
import tarfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import faults  # noqa: E402
from faults import (ASAN, GOOD, SLOW, MiB, FaultCase, counts, mem_bound_kb,  # noqa: E402
                    records_line, tar_bytes, want, want_no_crash, want_rc, zstd_raw_frame, zstd_rle)
from sslib import main  # noqa: E402


def zero_array_line(size):
    """`[0,0,...,0]` of exactly `size` bytes (size odd), plus LF."""
    k = (size - 1) // 2
    return b"[" + b"0," * (k - 1) + b"0]\n"


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


class Limits(FaultCase):
    def test_memory_many_tiny_lines(self):
        """A 20 MB gzip-compressed stream of ten million 1-byte lines: each
        request's state must not stay in flight in bulk. `1` is JSON but not
        an object: 10,000,000 unparsable. Bound (-j2: two workers and the
        reading thread parse): 64 + 64*3 + 16*1 = 272 MiB
        (the record limit is set to 1M to make the bound tight; before the
        fix: 5.9 GB, here out of memory at the address-space cap)."""
        t = self.t
        n = 10_000_000
        gz = t.file("tiny.gz", gzip.compress(b"1\n" * n, 1))
        bound = mem_bound_kb(3, 1 * MiB)
        r = faults.run(["-j2", "--max-record-size", "1M", "-q", gz], timeout=120,
                       as_kb=2 * bound + (1 << 20))
        want_rc(r, 1)   # SPEC 5: no line is a request, the input could not be read
        req = counts(r)
        want(req["total"] == n and req["unparsable"] == n, "10M unparsable: %s" % req)
        want(r.rss_kb <= bound, "peak RSS %d KiB <= %d KiB" % (r.rss_kb, bound), r)

    def test_memory_huge_lines_threads(self):
        """Sixteen 20 MiB lines of `[0,0,...]` at -j8 with --max-record-size
        21M: every structural character costs the parser (5.7 bytes a byte);
        the lines must not be parsed (and held) eight at a time. Not objects:
        16 unparsable. Bound (eight workers and the reading thread):
        64 + 64*9 + 16*21 = 976 MiB (before the fix:
        about 1.3 GiB)."""
        t = self.t
        line = zero_array_line(20 * MiB + 1)
        p = t.file("zeros.jsonl", line * 16)
        bound = mem_bound_kb(9, 21 * MiB)
        r = faults.run(["-j8", "--max-record-size", "21M", p], timeout=120,
                       as_kb=2 * bound + (1 << 20))
        os.unlink(p)
        want_rc(r, 1)   # SPEC 5: no line is a request, the input could not be read
        req = counts(r)
        want(req["unparsable"] == 16, "16 unparsable: %s" % req)
        want(r.rss_kb <= bound, "peak RSS %d KiB <= %d KiB" % (r.rss_kb, bound), r)

    def test_memory_limit_option(self):
        """--memory-limit 256M with the default record limit (256M) at -j2:
        the parsing threads (workers and the reading thread) may take half of
        the 192 MiB above the base but never fewer than two (one worker and the
        reader), so 128 MiB; the record limit is lowered so that
        64 + 64*2 + 16*L <= 256 MiB, i.e. L = 4 MiB, so two 30 MiB lines are oversize; a small line is still
        read. Peak RSS stays under 256 MiB."""
        t = self.t
        big = zero_array_line(30 * MiB + 1)
        p = t.file("big.jsonl", big + GOOD.encode() + big)
        r = faults.run(["-j2", "--memory-limit", "256M", p], timeout=120, as_kb=(512 + 1024) * 1024)
        want_rc(r, 0)
        req = counts(r)
        want(req["oversize"] == 2 and req["ok"] == 1, "2 oversize, 1 ok: %s" % req)
        limit = 256 * 1024 * (3 if ASAN else 1) + (512 * 1024 if ASAN else 0)
        want(r.rss_kb <= limit, "peak RSS %d KiB <= %d KiB" % (r.rss_kb, limit), r)
        r = faults.run(["--memory-limit", "1K", p])
        want_rc(r, 2)

    def test_spool_fd_count(self):
        """3,000 records-only artifact directories in one tar, run with at most
        256 open descriptors: every one is read (one no_stats record each),
        none lost to "Too many open files"."""
        t = self.t
        n = 3000
        line = (records_line("null").replace(',"spec_decode_acceptance":null', "") + "\n").encode()
        members = []
        for i in range(n):
            members.append(("runs/r%04d/profile_export.jsonl" % i, line))
        tb = t.file("many.tar", tar_bytes(members, tarfile.USTAR_FORMAT))

        def lim():
            resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))
        r = faults.run([tb], preexec=lim, timeout=120)
        want_rc(r, 0)
        req = counts(r)
        want(req["total"] == n and req["no_stats"] == n, "3000 no_stats: %s" % req)
        want("Too many open files" not in r.err, "no EMFILE", r)

    def test_spool_limit(self):
        """A records-only export held from an archive (SPEC 1.1) larger than
        --spool-limit: a clear message, the member counts as an unreadable
        input (exit 1), the other member is read, and the spool never grows
        past the limit (the process may write at most 4 MiB of files)."""
        t = self.t
        line = (records_line("null").replace(',"spec_decode_acceptance":null', "") + "\n")
        big = (line * (8 * MiB // len(line) + 1)).encode()         # > 8 MiB
        tb = t.file("spool.tar", tar_bytes([
            ("a/profile_export.jsonl", big),
            ("b/profile_export_raw.jsonl", GOOD.encode()),
        ]))

        def lim():
            resource.setrlimit(resource.RLIMIT_FSIZE, (4 * MiB, 4 * MiB))
        r = faults.run(["--spool-limit", "1M", tb], preexec=lim)
        want_no_crash(r)
        want_rc(r, 1)
        want("spool" in r.err and "1M" in r.err.replace("1 MiB", "1M"),
             "message names the spool limit", r)
        req = counts(r)
        want(req["ok"] == 1 and req["total"] == 1, "b's request read: %s" % req)
        r = faults.run(["--spool-limit", "nonsense", tb])
        want_rc(r, 2)

    def test_signal_while_skipping_dev_zero(self):
        """`specscan /dev/zero`: one endless over-limit line. One SIGTERM
        after 1 s stops it at once, "interrupted", ended by SIGTERM, within 5 s."""
        t = self.t
        r = faults.run(["--max-record-size", "1M", "/dev/zero"], on_start=term_after(1.0), timeout=20)
        want_rc(r, -signal.SIGTERM)     # SPEC 5: ended by the signal itself
        want("interrupted" in r.err, "says interrupted", r)
        want(r.secs < 5 * SLOW, "stopped at once (%.1f s)" % r.secs)

    def test_signal_while_skipping_zstd_bomb(self):
        """The same through the zstd decoder: 100 GiB of zeros (one line) in
        3.2 MB; SIGTERM after 1 s stops it."""
        t = self.t
        p = t.file("zeros.zst", zstd_rle(0, 800000))
        r = faults.run(["--max-record-size", "1M", p], on_start=term_after(1.0), timeout=20)
        want_rc(r, -signal.SIGTERM)     # SPEC 5: ended by the signal itself
        want("interrupted" in r.err, "says interrupted", r)
        want(r.secs < 5 * SLOW, "stopped at once (%.1f s)" % r.secs)

    def test_usage_zstd_window(self):
        """A zstd frame declaring a 2^28-byte window (more than libzstd's
        default limit, 2^27): reported as needing a larger window, naming
        --zstd-window-log 28, not as corrupt; with --zstd-window-log 28 (and
        31, the most zstd --long takes) it is read; 32 and 9 are usage errors."""
        t = self.t
        win28 = ((28 - 10) << 3)
        p = t.file("w28.zst", zstd_raw_frame(GOOD.encode(), win28))
        r = faults.run([p])
        want_rc(r, 1)   # opened, but nothing could be read: as a corrupt stream
        want("larger window" in r.err and "--zstd-window-log 28" in r.err, "says so", r)
        want("corrupt" not in r.err, "not corrupt", r)
        for wl in ("28", "31"):
            r = faults.run(["--zstd-window-log", wl, p])
            want_rc(r, 0)
            want(counts(r)["ok"] == 1, "read with window log %s" % wl, r)
        win31 = ((31 - 10) << 3)
        p31 = t.file("w31.zst", zstd_raw_frame(GOOD.encode(), win31))
        r = faults.run(["--zstd-window-log", "31", p31])
        want_rc(r, 0)
        for wl in ("32", "9", "x"):
            r = faults.run(["--zstd-window-log", wl, p])
            want_rc(r, 2)

if __name__ == "__main__":
    main()
