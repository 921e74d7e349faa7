#!/usr/bin/env python3
"""Output files: --json/--csv/--records FILE, -o DIR, '-' for stdout,
refusing to replace files without --force, never writing over an input,
atomic writes that leave no temporary file behind (SPEC 4, 5)."""

import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, loads, main, run, td

SAMPLE = td("sample", "aiperf_raw_vllm.jsonl")
NAMES = ["spec_decode.csv", "spec_decode.html", "spec_decode.json", "spec_decode_records.jsonl"]


class Outputs(Case):
    @classmethod
    def setUpClass(cls):
        cls.std = {f: run(["-f", f, SAMPLE]).out for f in ("json", "csv", "jsonl")}

    def read(self, path):
        with open(path, "rb") as f:
            return f.read()

    def test_file_options(self):
        with TempDir() as d:
            j, c, r = (os.path.join(d, n) for n in ("a.json", "b.csv", "c.jsonl"))
            res = run(["-f", "none", "--json", j, "--csv", c, "--records", r, SAMPLE])
            self.assertRan(res)
            self.assertEqual(res.out, b"")
            self.assertEqual(self.read(j), self.std["json"])
            self.assertEqual(self.read(c), self.std["csv"])
            self.assertEqual(self.read(r), self.std["jsonl"])
            self.assertEqual(sorted(os.listdir(d)), ["a.json", "b.csv", "c.jsonl"])
            # stdout keeps its own format next to the files
            res = run(["-f", "csv", "--force", "--json", j, SAMPLE])
            self.assertRan(res)
            self.assertEqual(res.out, self.std["csv"])
            self.assertEqual(self.read(j), self.std["json"])

    def test_output_dir(self):
        with TempDir() as d:
            res = run(["-f", "none", "-o", d, SAMPLE])
            self.assertRan(res)
            self.assertEqual(sorted(os.listdir(d)), NAMES)
            self.assertEqual(self.read(os.path.join(d, "spec_decode.json")), self.std["json"])
            self.assertEqual(self.read(os.path.join(d, "spec_decode.csv")), self.std["csv"])
            self.assertEqual(self.read(os.path.join(d, "spec_decode_records.jsonl")),
                             self.std["jsonl"])
            # the long spelling, and stdout still gets the default JSON
            sub = os.path.join(d, "long")
            os.mkdir(sub)
            res = run(["--output-dir", sub, SAMPLE])
            self.assertRan(res)
            self.assertEqual(res.out, self.std["json"])
            self.assertEqual(sorted(os.listdir(sub)), NAMES)

    def test_refuses_to_overwrite(self):
        with TempDir() as d:
            target = os.path.join(d, "spec_decode.json")
            with open(target, "w") as f:
                f.write("precious\n")
            res = run(["-f", "none", "-o", d, SAMPLE])
            self.assertRan(res, 3)
            self.assertIn("specscan: ", res.errtext)
            self.assertIn("spec_decode.json", res.errtext)
            self.assertIn("--force", res.errtext)
            self.assertEqual(self.read(target), b"precious\n")
            self.assertEqual(os.listdir(d), ["spec_decode.json"], "nothing else written, no temp file")
            # the same with --json FILE
            res = run(["-f", "none", "--json", target, SAMPLE])
            self.assertRan(res, 3)
            self.assertEqual(self.read(target), b"precious\n")
            # --force replaces it
            res = run(["-f", "none", "--force", "-o", d, SAMPLE])
            self.assertRan(res)
            self.assertEqual(self.read(target), self.std["json"])
            self.assertEqual(sorted(os.listdir(d)), NAMES)

    def test_output_dir_without_records(self):
        """Issue 34 item 6: --no-records leaves the records out of -o DIR;
        --records DIR/....jsonl.zst keeps them compressed, and they read
        back as a partial (SPEC 8.1, 8.3) giving the same report."""
        with TempDir() as d:
            res = run(["-f", "none", "-o", d, "--no-records", SAMPLE])
            self.assertRan(res)
            self.assertEqual(sorted(os.listdir(d)),
                             ["spec_decode.csv", "spec_decode.html", "spec_decode.json"])
            self.assertEqual(self.read(os.path.join(d, "spec_decode.json")), self.std["json"])
            # a rerun says why it stops, and what to do
            res = run(["-f", "none", "-o", d, "--no-records", SAMPLE])
            self.assertRan(res, 3)
            self.assertIn("'%s' exists; refusing to overwrite it without --force: "
                          "nothing written" % os.path.join(d, "spec_decode.json"), res.errtext)
            sub = os.path.join(d, "z")
            zst = os.path.join(sub, "spec_decode_records.jsonl.zst")
            res = run(["-f", "none", "-o", sub, "--no-records", "--records", zst, SAMPLE])
            self.assertRan(res)
            self.assertEqual(sorted(os.listdir(sub)),
                             ["spec_decode.csv", "spec_decode.html", "spec_decode.json",
                              "spec_decode_records.jsonl.zst"])
            self.assertEqual(self.read(zst)[:4], b"\x28\xb5\x2f\xfd", "a zstd frame")
            back = run(["-f", "json", zst])
            self.assertRan(back)
            self.assertEqual(back.out, self.std["json"])
            back = run(["-f", "jsonl", zst])
            self.assertEqual(back.out, self.std["jsonl"])

    def test_output_dir_made_and_removed_when_nothing_written(self):
        with TempDir() as d:
            new = os.path.join(d, "new")
            res = run(["-f", "none", "-o", new, SAMPLE])
            self.assertRan(res)
            self.assertEqual(sorted(os.listdir(new)), NAMES)
            # a run that writes nothing leaves no empty directory it made
            gone = os.path.join(d, "gone")
            res = run(["-f", "none", "-o", gone, os.path.join(d, "missing.jsonl")])
            self.assertRan(res, 3)
            self.assertFalse(os.path.exists(gone))

    def test_never_overwrites_an_input(self):
        with TempDir() as d:
            inp = os.path.join(d, "in.jsonl")
            shutil.copy(SAMPLE, inp)
            before = self.read(inp)
            sub = os.path.join(d, "sub")
            os.mkdir(sub)
            for opt in ("--json", "--csv", "--records"):
                for spelling in (inp, os.path.join(sub, "..", "in.jsonl")):
                    res = run(["-f", "none", "--force", opt, spelling, inp])
                    self.assertRan(res, 3)
                    self.assertIn("specscan: ", res.errtext)
                    self.assertEqual(self.read(inp), before, "%s %s" % (opt, spelling))
            # an input that is one of -o's file names
            inp2 = os.path.join(sub, "spec_decode_records.jsonl")
            shutil.copy(SAMPLE, inp2)
            res = run(["-f", "none", "--force", "-o", sub, inp2])
            self.assertRan(res, 3)
            self.assertEqual(self.read(inp2), before)
            self.assertEqual(sorted(os.listdir(d)), ["in.jsonl", "sub"])
            self.assertEqual(os.listdir(sub), ["spec_decode_records.jsonl"])

    def test_dash_is_stdout(self):
        res = run(["-f", "none", "--csv", "-", SAMPLE])
        self.assertRan(res)
        self.assertEqual(res.out, self.std["csv"])
        res = run(["-f", "none", "--records", "-", SAMPLE])
        self.assertRan(res)
        self.assertEqual(res.out, self.std["jsonl"])
        res = run(["-f", "none", "--json", "-", SAMPLE])
        self.assertRan(res)
        self.assertEqual(res.out, self.std["json"])

    def test_format_none(self):
        res = run(["-f", "none", SAMPLE])
        self.assertRan(res)
        self.assertEqual(res.out, b"")

    def test_nothing_written_on_failure(self):
        with TempDir() as d:
            res = run(["-o", d, os.path.join(d, "missing.jsonl")])
            self.assertRan(res, 3)
            self.assertEqual(res.out, b"")
            self.assertEqual(os.listdir(d), [], "exit 3 leaves no file (nor temp file)")

    def test_unwritable_output(self):
        with TempDir() as d:
            res = run(["--json", os.path.join(d, "no", "such", "dir", "x.json"), SAMPLE])
            self.assertRan(res, 3)
            self.assertIn("specscan: ", res.errtext)
            self.assertEqual(os.listdir(d), [])

    def test_table_on_stderr(self):
        res = run(["--table", SAMPLE])
        self.assertRan(res)
        self.assertEqual(res.out, self.std["json"])
        self.assertIn("0: 18%   1: 27%   2: 18%   3: 27%   4: 9%", res.errtext)
        res = run(["--no-table", SAMPLE])
        self.assertNotIn("Accepted drafts per step", res.errtext)
        self.assertEqual(loads(res.out)["specscan"]["requests"]["total"], 9)


if __name__ == "__main__":
    main()
