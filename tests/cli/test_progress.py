#!/usr/bin/env python3
"""The progress line (issues 11 and 23): on a terminal, a bar with percent,
bytes, rate and time left when the size of the input is known (regular
files, compressed ones measured by their compressed bytes; the exports a
-r walk will read; beside a pipe, the files), the plain counter for a pipe
alone; nothing when stderr is not a terminal; at most four
redraws a second; erased at the end; a message clears the line first and
the display is drawn again below it (SPEC 5).  And the default stdout
format: the table on a terminal, JSON otherwise.  stderr (and stdout, where
said) is a pseudo-terminal made by the test (pty)."""

import gzip
import json
import os
import pty
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import SPECSCAN, Case, TempDir, main, td  # noqa: E402

# percent, bytes done/total, rate, time left, then (when it fits) requests
BAR = re.compile(r"specscan \[[=> ]{8,40}\] +(\d+)%  [0-9.]+/[0-9.]+ [kMGT]?B  "
                 r"[0-9.]+ [kMGT]?B/s  ETA (--:--|\d+:\d\d)(  \d{1,3}(,\d{3})* requests?)?$")
COUNTER = re.compile(r"specscan: [0-9.]+ MB read, \d{1,3}(,\d{3})* requests, [0-9.]+ [kMGT]?B/s$")


def on_tty(args, stdin=None, stdout_tty=False, cwd=None):
    """Run specscan with stderr on a pty (80 columns), and stdout too when
    stdout_tty; (rc, tty text, seconds)."""
    master, slave = pty.openpty()
    t0 = time.monotonic()
    proc = subprocess.Popen([SPECSCAN] + args, stdin=stdin,
                            stdout=slave if stdout_tty else subprocess.DEVNULL,
                            stderr=slave, close_fds=True, cwd=cwd)
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
        return [l.replace("\x1b[K", "") for l in text.split("\r") if l.startswith("specscan")]

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

    def test_plain_and_compressed_mixed(self):
        # the total is what the inputs take on disk (the compressed one by
        # its compressed size), never their decoded size, so the bar runs
        # to the end instead of stalling where the plain input ends
        total = os.path.getsize(self.plain) + os.path.getsize(self.gz)
        v = total / 1e6
        shown = "%.2f" % v if v < 9.995 else "%.1f" % v if v < 99.95 else "%.0f" % v
        rc, text, secs = on_tty(["-f", "none", "--no-table", "-j1", self.plain, self.gz])
        self.assertEqual(rc, 0, text)
        lines = self.redraws(text)
        self.assertTrue(lines, repr(text))
        for line in lines:
            self.assertRegex(line, BAR)
            self.assertIn("/%s MB  " % shown, line)
        pcts = [int(BAR.match(l).group(1)) for l in lines]
        self.assertEqual(pcts, sorted(pcts), "the percentage never goes back")
        self.check_end(text, secs)

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

    def shown_mb(self, total):
        v = total / 1e6
        return "%.2f" % v if v < 9.995 else "%.1f" % v if v < 99.95 else "%.0f" % v

    def test_bar_for_a_tree(self):
        # issue 34 item 8, SPEC 5: -r over a tree shows the percentage of the
        # sizes of the exports the walk will read (two artifact directories;
        # the loose file beside them is not an input and not in the total)
        import shutil
        tree = os.path.join(self.tmp.path, "tree")
        for run in ("a", "b"):
            os.makedirs(os.path.join(tree, run))
            shutil.copy(self.plain, os.path.join(tree, run, "profile_export.jsonl"))
        shutil.copy(self.plain, os.path.join(tree, "loose.jsonl"))
        total = 2 * os.path.getsize(self.plain)
        rc, text, secs = on_tty(["-f", "none", "--no-table", "-j1", "-r", tree])
        self.assertEqual(rc, 0, text)
        lines = self.redraws(text)
        self.assertTrue(lines, repr(text))
        for line in lines:
            self.assertRegex(line, BAR)
            self.assertIn("/%s MB  " % self.shown_mb(total), line)
        self.check_end(text, secs)

    def test_bar_for_a_pipe_beside_a_file(self):
        # the percentage is of the inputs whose sizes are known: the file
        cat = subprocess.Popen(["cat", self.plain], stdout=subprocess.PIPE)
        rc, text, secs = on_tty(["-f", "none", "--no-table", "-j1", self.plain, "-"],
                                stdin=cat.stdout)
        cat.stdout.close()
        cat.wait()
        self.assertEqual(rc, 0, text)
        lines = self.redraws(text)
        self.assertTrue(lines, repr(text))
        for line in lines:
            self.assertRegex(line, BAR)
            self.assertIn("/%s MB  " % self.shown_mb(os.path.getsize(self.plain)), line)
        self.check_end(text, secs)

    def test_message_clears_the_line(self):
        # a bad line three quarters in: the display is on by then; its
        # message must start on a cleared line (never after "ETA ..."),
        # and the display is drawn again after it
        path = os.path.join(self.tmp.path, "bad.jsonl")
        with open(self.plain, "rb") as f:
            lines = f.readlines()
        lines[30000] = b"{not json\n"
        with open(path, "wb") as f:
            f.writelines(lines)
        rc, text, _ = on_tty(["-f", "none", "--no-table", "-j1", path])
        self.assertEqual(rc, 0, text)
        msg = "specscan: %s:30001: unparsable" % path
        at = text.find(msg)
        self.assertGreater(at, 0, repr(text))
        before = text[:at]
        # the line was cleared right before the message, and a bar was
        # drawn on it before that
        self.assertTrue(before.endswith("\r\x1b[K"), repr(before[-100:]))
        drawn = before[:-len("\r\x1b[K")].split("\r")[-1].replace("\x1b[K", "")
        self.assertRegex(drawn, BAR)
        # the message ends its own line, then the display comes back
        after = text[at + len(msg):]
        end = after.index("\n")
        self.assertEqual(after[:end].rstrip("\r"), ": invalid JSON")
        self.assertTrue(after[end + 1:].startswith("\rspecscan ["), repr(after[end:end + 40]))
        # nowhere is a message written into a drawn line
        for line in text.replace("\r\n", "\n").split("\n"):
            last = line.split("\r")[-1]
            self.assertFalse("ETA" in last and "unparsable" in last, repr(line))

    def test_table_is_the_default_on_a_terminal(self):
        # SPEC 5: stdout a terminal and no -f: the table; else JSON
        sample = td("sample", "aiperf_raw_vllm.jsonl")
        rc, text, _ = on_tty(["--no-progress", sample], stdout_tty=True)
        self.assertEqual(rc, 0, text)
        self.assertIn("Acceptance Length", text)
        self.assertNotIn('"spec_decode_acceptance_length"', text)
        self.assertNotIn('{', text)
        # -o on a terminal: the files, and the table (not JSON) on stdout
        out = os.path.join(self.tmp.path, "out")
        rc, text, _ = on_tty(["--no-progress", "-o", out, sample], stdout_tty=True)
        self.assertEqual(rc, 0, text)
        self.assertIn("Acceptance Length", text)
        self.assertNotIn('{', text)
        self.assertTrue(os.path.exists(os.path.join(out, "spec_decode.json")))
        # the table is on stdout, so not a second time on stderr
        self.assertEqual(text.count("Accepted drafts per step"), 1, text)
        # -f json on a terminal still gives JSON
        rc, text, _ = on_tty(["--no-progress", "-f", "json", sample], stdout_tty=True)
        self.assertIn('"spec_decode_acceptance_length"', text)
        # stdout not a terminal, stderr one: the table on stderr, but not
        # with -q (quiet on the terminal: no table, no progress)
        rc, text, _ = on_tty(["-f", "none", sample])
        self.assertIn("Accepted drafts per step", text)
        rc, text, _ = on_tty(["-q", "-f", "none", sample])
        self.assertEqual(rc, 0)
        self.assertEqual(text, "")
        # stdout a pipe: JSON, as before
        res = subprocess.run([SPECSCAN, sample], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
        self.assertEqual(res.returncode, 0)
        self.assertIn("spec_decode_acceptance_length", json.loads(res.stdout))

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
