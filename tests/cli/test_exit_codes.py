#!/usr/bin/env python3
"""Exit status and messages (SPEC 5): 0 written; 1 written but an input
could not be read (or --strict found bad requests); 2 usage error; 3 nothing
written.  Also --help and --version."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, loads, main, run, td

SAMPLE = td("sample", "aiperf_raw_vllm.jsonl")
LLAMA_SSE = td("engines", "llamacpp_stream.sse")
VLLM = td("engines", "vllm_bodies.jsonl")
MIXED = td("mixed", "mixed_garbage.jsonl")


class ExitCodes(Case):
    def test_ok(self):
        self.assertRan(run([SAMPLE]), 0)

    def test_missing_input_among_good(self):
        with TempDir() as d:
            missing = os.path.join(d, "missing.jsonl")
            res = run([SAMPLE, missing, LLAMA_SSE])
            self.assertRan(res, 1)
            self.assertIn("specscan: cannot open '%s'" % missing, res.errtext)
            doc = loads(res.out)
            self.assertEqual(doc["specscan"]["requests"]["total"], 9 + 2)
            self.assertEqual([i["name"] for i in doc["specscan"]["inputs"]], [SAMPLE, LLAMA_SSE])

    def test_usage_errors(self):
        for args in (["--format", "xml"], ["-f", "xml"], ["--max-record-size", "0"],
                     ["--max-record-size", "12Q"], ["--max-record-size", "-5"],
                     ["--max-record-size", ""], ["--max-record-size", "1KK"],
                     ["--bogus"], ["-j", "0"], ["-j", "two"], ["--phase", "cooldown"],
                     ["--engine", "tgi"], ["--input-kind", "xml"], ["-j"]):
            res = run(args + [SAMPLE] if args != ["-j"] else [SAMPLE] + args)
            self.assertRan(res, 2)
            self.assertEqual(res.out, b"", args)
            self.assertTrue(res.errtext.startswith("specscan: "), (args, res.errtext))

    def test_good_sizes(self):
        for size in ("1K", "64M", "1G", "4096", "2k"):
            self.assertRan(run(["--max-record-size", size, SAMPLE]), 0)

    def test_nothing_readable(self):
        with TempDir() as d:
            missing = os.path.join(d, "missing.jsonl")
            res = run([missing])
            self.assertRan(res, 3)
            self.assertEqual(res.out, b"")
            self.assertIn("specscan: cannot open '%s'" % missing, res.errtext)
            res = run([missing, os.path.join(d, "also-missing.jsonl")])
            self.assertRan(res, 3)

    def test_directory_without_r(self):
        d = td("engines")
        res = run([d])
        self.assertRan(res, 3)
        self.assertIn("specscan: ", res.errtext)
        self.assertIn(d, res.errtext)
        res = run([SAMPLE, d])
        self.assertRan(res, 1)

    def test_strict(self):
        self.assertRan(run(["--strict", VLLM]), 1)          # malformed
        self.assertRan(run(["--strict", SAMPLE]), 1)        # malformed, unparsable
        self.assertRan(run(["--strict", MIXED]), 1)
        self.assertRan(run(["--strict", LLAMA_SSE]), 0)     # all ok
        self.assertRan(run([VLLM]), 0)
        res = run(["--strict", VLLM])
        self.assertEqual(loads(res.out)["specscan"]["requests"]["malformed"], 8)

    def test_strict_oversize(self):
        # both llama.cpp streams are longer than 300 bytes
        self.assertRan(run(["--strict", "--max-record-size", "1M", LLAMA_SSE]), 0)
        res = run(["--strict", "--max-record-size", "300", LLAMA_SSE])
        self.assertRan(res, 1)
        req = loads(res.out)["specscan"]["requests"]
        self.assertEqual((req["total"], req["oversize"]), (2, 2))

    def test_terminal_stdin_without_inputs(self):
        """No path and a terminal on stdin: a usage error, not a wait."""
        import pty
        import subprocess
        master, slave = pty.openpty()
        try:
            p = subprocess.run([os.environ.get("SPECSCAN", "./specscan")], stdin=slave,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=20)
        finally:
            os.close(slave)
            os.close(master)
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"standard input is a terminal", p.stderr)
        self.assertEqual(p.stdout, b"")

    def test_help(self):
        for opt in ("--help", "-h"):
            res = run([opt])
            self.assertRan(res, 0)
            self.assertEqual(res.err, b"")
            self.assertIn("Usage: specscan", res.text)
            self.assertIn("--format", res.text)

    def test_version(self):
        for opt in ("--version", "-V"):
            res = run([opt])
            self.assertRan(res, 0)
            low = res.text.lower()
            for lib in ("specscan", "0.1.0", "simdjson", "zstd", "zlib", "libarchive"):
                self.assertIn(lib, low, opt)

    def test_request_problems_are_summarised(self):
        """A bad request never stops the run; messages name its place."""
        res = run([VLLM])
        self.assertRan(res, 0)
        self.assertIn("%s:3: malformed" % VLLM, res.errtext)


if __name__ == "__main__":
    main()
