#!/usr/bin/env python3
"""The flat per-request table (--table-csv FILE, docs/RECORDS.md): one head
row, one row per request of every status, plain numbers, empty cells for
absent values, names formula-guarded; the same bytes for any -j; read by
pandas (when /usr/bin/python3 has it), whose per-category means agree with
the hand-worked values of testdata/flat/make_flat.py and with the report.
"""
import csv
import io
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, main, run, td  # noqa: E402

FIX = td("flat", "categories.jsonl")

HEAD = ["input", "line", "kind", "status", "reason", "engine", "model", "k", "steps",
        "accepted", "drafted", "acceptance_length", "draft_acceptance_rate",
        "completion_tokens", "prompt_tokens", "reasoning_tokens"]
TIME = ["time_to_first_token_ms", "inter_token_latency_ms", "request_latency_ms",
        "output_tokens"]

# (status, k, steps, accepted, drafted, AL, DAR, completion, prompt, category),
# from the table in make_flat.py; None: an empty cell
ROWS = [
    ("ok", "4", "4", "9", "16", "3.25", "56.25", "13", "10", "code"),
    ("ok", "4", "4", "5", "16", "2.25", "31.25", "9", "30", "code"),
    ("ok", "2", "4", "5", "8", "2.25", "62.5", "9", "10", "chat"),
    ("ok", "2", "4", "5", "8", "2.25", "62.5", "9", "10", "'=cmd"),
    ("cancelled", None, None, None, None, None, None, None, None, "chat"),
    ("unparsable", None, None, None, None, None, None, None, None, None),
    ("zero_step", "4", "0", "0", "0", None, None, "0", "10", "code"),
    ("no_stats", None, None, None, None, None, None, None, None, "chat"),
    ("ok", "2", "4", "8", "8", "3.0", "100.0", "12", "10", "code"),
    ("malformed", None, None, None, None, None, None, None, None, "chat"),
]

PANDAS = r"""
import json, sys
import pandas as pd
df = pd.read_csv(sys.argv[1])
ok = df[df["status"] == "ok"]
means = ok.groupby("key.meta.category")["acceptance_length"].mean()
print(json.dumps({"rows": len(df), "columns": list(df.columns),
                  "numeric": bool(pd.api.types.is_float_dtype(df["acceptance_length"])),
                  "means": {k: float(v) for k, v in means.items()},
                  "statuses": df.groupby("status").size().to_dict()}))
"""


def pandas_python():
    """/usr/bin/python3 when it imports pandas, else None."""
    py = "/usr/bin/python3"
    if not os.access(py, os.X_OK):
        return None
    p = subprocess.run([py, "-c", "import pandas"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, cwd="/", timeout=120)
    return py if p.returncode == 0 else None


class FlatTable(Case):
    def table(self, *extra):
        res = run(["-f", "none", "--table-csv", "-", "--group-by", "meta.category"] +
                  list(extra) + [FIX])
        self.assertRan(res, 0)
        return res

    def test_rows(self):
        text = self.table().text
        self.assertTrue(text.endswith("\r\n"))
        rows = list(csv.reader(io.StringIO(text, newline="")))
        self.assertEqual(rows[0], HEAD + ["key.meta.category"] + TIME)
        self.assertEqual(len(rows), 1 + len(ROWS))
        for i, (row, want) in enumerate(zip(rows[1:], ROWS), start=1):
            got = dict(zip(rows[0], row))
            self.assertEqual(len(row), len(rows[0]), "row %d" % i)
            self.assertEqual(got["input"], FIX, "row %d" % i)
            self.assertEqual(got["line"], str(i))
            self.assertEqual(got["kind"], "unknown" if i == 6 else "records")
            self.assertEqual(got["status"], want[0])
            self.assertEqual(got["reason"] == "", want[0] == "ok", "row %d reason" % i)
            self.assertEqual(got["engine"], "vllm" if want[1] else "", "row %d" % i)
            cells = [got[c] for c in ("k", "steps", "accepted", "drafted",
                                      "acceptance_length", "draft_acceptance_rate",
                                      "completion_tokens", "prompt_tokens",
                                      "key.meta.category")]
            self.assertEqual(cells, [w or "" for w in want[1:]], "row %d" % i)
            # no times in these records lines; no reasoning tokens either (test_reasoning.py fills them)
            self.assertEqual([got[c] for c in TIME + ["reasoning_tokens", "model"]],
                             [""] * 6, "row %d" % i)

    def test_threads(self):
        # 810 requests, many batches: the rows in input order for any -j
        more = [td("analysis", "run-a.jsonl"), td("analysis", "run-b.jsonl")]
        a = self.table("-j", "1", *more).out
        b = self.table("-j", "2", *more).out
        self.assertEqual(a.count(b"\r\n"), 1 + 10 + 800)
        self.assertEqual(a, b)

    def test_no_keys_to_file(self):
        with TempDir() as d:
            path = os.path.join(d, "t.csv")
            res = run(["-f", "json", "--table-csv", path, FIX])
            self.assertRan(res, 0)
            with open(path, newline="") as f:
                rows = list(csv.reader(f))
            self.assertEqual(rows[0], HEAD + TIME)
            self.assertEqual(len(rows), 11)
            # an existing file is not replaced without --force
            res = run(["-f", "none", "--table-csv", path, FIX])
            self.assertNotEqual(res.rc, 0)
            self.assertIn("--force", res.errtext)

    def test_one_stdout(self):
        res = run(["-f", "json", "--table-csv", "-", FIX])
        self.assertRan(res, 2)
        self.assertIn("--table-csv -", res.errtext)

    def test_pandas(self):
        py = pandas_python()
        if not py:
            self.skipTest("/usr/bin/python3 has no pandas (apt-get install python3-pandas)")
        with TempDir() as d:
            path = os.path.join(d, "t.csv")
            jpath = os.path.join(d, "r.json")
            res = run(["-f", "none", "--table-csv", path, "--json", jpath,
                       "--group-by", "meta.category", FIX])
            self.assertRan(res, 0)
            p = subprocess.run([py, "-c", PANDAS, path], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=d, timeout=300)
            self.assertEqual(p.returncode, 0, p.stderr.decode("utf-8", "replace"))
            got = json.loads(p.stdout)
            with open(jpath) as f:
                report = json.load(f)
        self.assertEqual(got["rows"], 10)
        self.assertTrue(got["numeric"])
        self.assertEqual(got["statuses"], {"ok": 5, "cancelled": 1, "unparsable": 1,
                                           "zero_step": 1, "no_stats": 1, "malformed": 1})
        # by hand (make_flat.py): code (3.25 + 2.25 + 3.0) / 3, chat and =cmd 2.25
        self.assertEqual(got["means"], {"code": 8.5 / 3, "chat": 2.25, "'=cmd": 2.25})
        # and the report's per-category acceptance length says the same
        rows = report["analysis"]["groups"]["rows"]
        by_cat = {r["key"]["meta.category"]: r["spec_decode_acceptance_length"]["avg"]
                  for r in rows if "spec_decode_acceptance_length" in r}
        self.assertEqual(by_cat, {"code": 8.5 / 3, "chat": 2.25, "=cmd": 2.25})

    def test_timing_columns(self):
        # SPEC 11.6's raw line: start 1000 ns, content first at 1200 ns,
        # last element 1500 ns, 54 completion tokens: TTFT 200 ns = 0.0002
        # ms, latency 500 ns = 0.0005 ms, ITL (0.0005 - 0.0002) / 53 ms.
        # Its row has the times with or without --speedup (no_stats: no
        # spec-decode record in the chunks).
        chunk = lambda d: json.dumps({"choices": [{"index": 0, "delta": d}]})
        raw = {"start_perf_ns": 1000, "responses": [
            {"perf_ns": 1100, "text": chunk({"role": "assistant", "content": ""})},
            {"perf_ns": 1200, "text": chunk({"content": "Paris is the"})},
            {"perf_ns": 1300, "text": chunk({"content": " capital"})},
            {"perf_ns": 1400, "text": json.dumps({"choices": [], "usage": {
                "prompt_tokens": 5, "completion_tokens": 54}})},
            {"perf_ns": 1500, "text": "[DONE]"}]}
        # a records line: latency 1.0 s, TTFT 200000 us, ITL 10 ms, 81
        # tokens -> 1000, 200, 10 ms and 81, only with --speedup
        rec = {"metadata": {"benchmark_phase": "profiling"},
               "metrics": {"request_latency": {"value": 1.0, "unit": "s"},
                           "time_to_first_token": {"value": 200000, "unit": "us"},
                           "inter_token_latency": {"value": 10.0, "unit": "ms"},
                           "output_sequence_length": {"value": 81, "unit": "tokens"}}}
        with TempDir() as d:
            path = os.path.join(d, "t.jsonl")
            with open(path, "w") as f:
                f.write(json.dumps(raw) + "\n" + json.dumps(rec) + "\n")
            for speedup in (False, True):
                extra = ["--speedup"] if speedup else []
                res = run(["-f", "none", "--table-csv", "-"] + extra + [path])
                self.assertRan(res, 0)
                rows = list(csv.reader(io.StringIO(res.text, newline="")))
                self.assertEqual(len(rows), 3)
                raw_row, rec_row = (dict(zip(rows[0], r)) for r in rows[1:])
                self.assertEqual((raw_row["kind"], raw_row["status"]), ("raw", "no_stats"))
                self.assertAlmostEqual(float(raw_row["time_to_first_token_ms"]), 0.0002,
                                       places=15)
                self.assertAlmostEqual(float(raw_row["request_latency_ms"]), 0.0005,
                                       places=15)
                self.assertAlmostEqual(float(raw_row["inter_token_latency_ms"]),
                                       0.0003 / 53, places=15)
                self.assertEqual(raw_row["output_tokens"], "54")
                self.assertEqual(rec_row["kind"], "records")
                got = [rec_row[c] for c in TIME]
                if speedup:
                    self.assertEqual([float(x) for x in got[:3]], [200.0, 10.0, 1000.0])
                    self.assertEqual(got[3], "81")
                else:
                    self.assertEqual(got, [""] * 4)


if __name__ == "__main__":
    main()
