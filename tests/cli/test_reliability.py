#!/usr/bin/env python3
"""What README's "Reliability" promises (issue 24): one output on standard
output, every other that names `-` a usage error; exit 3 means nothing was
written (the outputs all together or not at all, stdout after every file is
complete); the default spool limit enforced; stale temporary files named;
and SPEC's rulings of 1.2, 4.4, 7.3, 7.4 and 8.1 kept."""

import csv
import io
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import subprocess

from sslib import SPECSCAN, Case, TempDir, loads, main, run, td

SAMPLE = td("sample", "aiperf_raw_vllm.jsonl")


def listing(d):
    return sorted(os.listdir(d))


class OneStdout(Case):
    """SPEC 4/5: exactly one output goes to stdout."""

    def test_html_dash_with_default_json(self):
        # stdout is a pipe here, so -f defaults to json: two on stdout
        res = run(["--html", "-", SAMPLE])
        self.assertRan(res, 2)
        self.assertEqual(res.out, b"")
        self.assertIn("-f json and --html - both name standard output", res.errtext)

    def test_every_pair_refused_naming_both(self):
        dashes = ["--json", "--csv", "--records", "--html"]
        for i, a in enumerate(dashes):
            for b in dashes[i + 1:]:
                res = run(["-f", "none", a, "-", b, "-", SAMPLE])
                self.assertRan(res, 2)
                self.assertEqual(res.out, b"", (a, b))
                self.assertIn("%s - and %s - both name standard output" % (a, b), res.errtext)
        for fmt in ("csv", "table", "markdown", "jsonl"):
            res = run(["-f", fmt, "--html", "-", SAMPLE])
            self.assertRan(res, 2)
            self.assertIn("-f %s and --html -" % fmt, res.errtext)

    def test_html_dash_alone(self):
        res = run(["-f", "none", "--html", "-", SAMPLE])
        self.assertRan(res)
        self.assertTrue(res.out.startswith(b"<!DOCTYPE html>"), res.out[:40])
        self.assertTrue(res.out.rstrip().endswith(b"</html>"))


class AllOrNothing(Case):
    """SPEC 5: exit 3 means nothing was written."""

    def full_stdout(self, args, cwd):
        with open("/dev/full", "wb") as full:
            return subprocess.run([SPECSCAN] + args, stdout=full, stderr=subprocess.PIPE,
                                  stdin=subprocess.DEVNULL, cwd=cwd,
                                  env=dict(os.environ, LC_ALL="C.UTF-8"), timeout=60)

    def test_device_fails_stdout_untouched(self):
        with TempDir() as d:
            res = run(["--json", "/dev/full", "--csv", os.path.join(d, "a.csv"), SAMPLE])
            self.assertRan(res, 3)
            self.assertEqual(res.out, b"", "the stdout report is not written either")
            self.assertIn("cannot write '/dev/full': No space left on device", res.errtext)
            self.assertIn("nothing written", res.errtext)
            self.assertEqual(listing(d), [], "no file, no temporary file")

    def test_stdout_fails_no_file_in_place(self):
        if not os.path.exists("/dev/full"):
            self.skipTest("no /dev/full")
        with TempDir() as d:
            for fmt in ("json", "table", "markdown", "csv"):
                p = self.full_stdout(["-f", fmt, "--json", "o.json", "--csv", "o.csv",
                                      "--html", "o.html", SAMPLE], d)
                self.assertEqual(p.returncode, 3, fmt)
                self.assertIn(b"cannot write to standard output: No space left on device",
                              p.stderr)
                self.assertEqual(listing(d), [], fmt + ": no file is put in place")

    def test_every_file_or_none(self):
        with TempDir() as d:
            # a target that is a directory fails at once, before the run
            os.mkdir(os.path.join(d, "x.csv"))
            res = run(["--json", os.path.join(d, "x.json"), "--csv", os.path.join(d, "x.csv"),
                       SAMPLE])
            self.assertRan(res, 3)
            self.assertEqual(res.out, b"")
            self.assertEqual(listing(d), ["x.csv"])

    def test_success_puts_all(self):
        with TempDir() as d:
            res = run(["--json", os.path.join(d, "a.json"), "--csv", os.path.join(d, "a.csv"),
                       SAMPLE])
            self.assertRan(res)
            self.assertEqual(listing(d), ["a.csv", "a.json"])
            with open(os.path.join(d, "a.json"), "rb") as f:
                self.assertEqual(f.read(), res.out)


if __name__ == "__main__":
    main()
