#!/usr/bin/env python3
"""The progress line (issue 11): on a terminal, a bar with percent and time
left when the size of the input is known (regular files, compressed ones
measured by their compressed bytes), the plain counter for a pipe; nothing
when stderr is not a terminal; at most four redraws a second; erased at the
end.  stderr is a pseudo-terminal made by the test (pty)."""

import gzip
import os
import pty
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import SPECSCAN, Case, TempDir, main  # noqa: E402

BAR = re.compile(r"specscan \[[=> ]{10,40}\] +(\d+)%  [0-9.]+/[0-9.]+ [kMGT]?B  [0-9,]+ requests?  ETA ")
COUNTER = re.compile(r"specscan: [0-9.]+ MB read, \d+ requests, \d+ MB/s")


def on_tty(args, stdin=None):
    """Run specscan with stderr on a pty (80 columns); (rc, tty text, seconds)."""
    master, slave = pty.openpty()
    t0 = time.monotonic()
    proc = subprocess.Popen([SPECSCAN] + args, stdin=stdin, stdout=subprocess.DEVNULL,
                            stderr=slave, close_fds=True)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:          # EIO: the child closed its side
            break
        if not data:
            break
        chunks.append(data)
    rc = proc.wait(timeout=120)
    os.close(master)
    return rc, b"".join(chunks).decode("utf-8", "replace"), time.monotonic() - t0


class Progress(Case):
    @classmethod
    def setUpClass(cls):
        cls.tmp = TempDir()
        d = cls.tmp.__enter__()
        line = (b'{"metadata":{"benchmark_phase":"profiling"},"metrics":{},'
                b'"spec_decode_acceptance":{"engine":"vllm","mean_acceptance_length":2.5,'
                b'"draft_acceptance_rate":0.375,"acceptance_histogram":{"0":1,"3":1},'
                b'"num_accepted_draft_tokens":3,"num_draft_tokens":8,"num_spec_steps":2,'
                b'"num_spec_tokens":4}}\n')
        cls.plain = os.path.join(d, "big.jsonl")
        with open(cls.plain, "wb") as f:
            f.write(line * 40000)
        cls.gz = cls.plain + ".gz"
        with open(cls.plain, "rb") as f, gzip.open(cls.gz, "wb", compresslevel=1) as g:
            g.write(f.read())

    @classmethod
    def tearDownClass(cls):
        cls.tmp.__exit__(None, None, None)

    def redraws(self, text):
        return [l for l in text.split("\r") if l.startswith("specscan")]

    def check_end(self, text, seconds):
        # erased at the end, and at most 4 redraws a second (plus the first)
        self.assertTrue(text.endswith("\r\x1b[K"), repr(text[-40:]))
        self.assertLessEqual(len(self.redraws(text)), 4 * seconds + 2)
        for line in self.redraws(text):
            self.assertLessEqual(len(line.replace("\x1b[K", "")), 79, repr(line))

    def test_bar_for_files(self):
        for path in (self.plain, self.gz):
            with self.subTest(path=os.path.basename(path)):
                rc, text, secs = on_tty(["-f", "none", "--no-table", "-j2", path])
                self.assertEqual(rc, 0, text)
                lines = self.redraws(text)
                self.assertTrue(lines, repr(text))
                for line in lines:
                    self.assertRegex(line, BAR)
                self.check_end(text, secs)
                pcts = [int(BAR.match(l).group(1)) for l in lines]
                self.assertEqual(pcts, sorted(pcts), "the percentage never goes back")

    def test_counter_for_a_pipe(self):
        cat = subprocess.Popen(["cat", self.plain], stdout=subprocess.PIPE)
        rc, text, secs = on_tty(["-f", "none", "--no-table", "-"], stdin=cat.stdout)
        cat.stdout.close()
        cat.wait()
        self.assertEqual(rc, 0, text)
        lines = self.redraws(text)
        self.assertTrue(lines, repr(text))
        for line in lines:
            self.assertRegex(line, COUNTER)
        self.check_end(text, secs)

    def test_off_without_a_terminal(self):
        res = subprocess.run([SPECSCAN, "-f", "none", self.plain], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
        self.assertEqual(res.returncode, 0)
        self.assertNotIn(b"\r", res.stderr)
        self.assertNotIn(b"%", res.stderr)
        # and --no-progress on a terminal
        rc, text, _ = on_tty(["-f", "none", "--no-progress", "--no-table", self.plain])
        self.assertEqual(rc, 0)
        self.assertNotIn("\r", text)


if __name__ == "__main__":
    main()
