#!/usr/bin/env python3
"""SPEC 11.4's `reasoning` key end to end: the reasoning tokens t of a
records line's `metrics.reasoning_token_count`, of the
`usage.completion_tokens_details.reasoning_tokens` beside the completion
tokens of a raw line, an SSE stream's usage chunk and a response body;
the record's `reasoning_tokens` (after `prompt_tokens`) in the enriched
line and the flat table; `--group-by reasoning` in quarters (ceil(4 t / c)
/ 4, null when t or c is unknown, t > c, or the request has no record);
`--compare` matching numerically; -j1 = -j2; shards' partials merged =
one run (8.1).

The fixtures are testdata/reasoning/ (written for this test). Every
expected value is worked out by hand below from the fixture's literal
counts, never taken from specscan's output."""

import csv
import io
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, jsonl_lines, loads, main, run, td

RECORDS = td("reasoning/records.jsonl")
RAW = td("reasoning/raw.jsonl")
SSE = td("reasoning/stream.sse")
BODIES = td("reasoning/bodies.jsonl")
ALL = [RECORDS, RAW, SSE, BODIES]

# records.jsonl, line by line (k 4; AL = 1 + accepted / steps):
#  1: t 30 of c 100 -> 0.3 -> 0.5; hist {1: 10} -> AL 2.0; prompt_tokens 10
#  2: t 0 of c 100 -> 0.0; {3: 10} -> AL 4.0
#  3: t 100 of c 100 -> 1.0; {2: 10} -> AL 3.0
#  4: t 101 > c 100 -> null; {0: 10} -> AL 1.0 (the record keeps t 101)
#  5: t 10, no c -> null; {4: 5} -> AL 5.0
#  6: t 20 of c 80 -> 0.25 exactly; {1: 4} -> AL 2.0
#  7: no record (no_stats), t 50 -> null
#  8: t 20.0 (an integral value) of c 40 -> 0.5; {2: 2, 4: 2} -> AL 4.0
#  9: unit `count`, not `tokens`: t unknown -> null; {1: 2} -> AL 2.0
RECORD_T = {1: 30, 2: 0, 3: 100, 4: 101, 5: 10, 6: 20, 8: 20}
# (key, ok requests, all requests, AL avg), in SPEC 7.3's order
RECORD_GROUPS = [
    (None, 3, 4, (1.0 + 5.0 + 2.0) / 3),
    (0.0, 1, 1, 4.0),
    (0.25, 1, 1, 2.0),
    (0.5, 2, 2, (2.0 + 4.0) / 2),
    (1.0, 1, 1, 3.0),
]
# raw.jsonl (k 2): 1: t 6 of c 8 -> 0.75, AL 2.5; 2: t null -> null, AL
# 1.5; 3: the last usage (whose completion tokens count) has no details,
# an earlier one said 8 of 8 -> null, AL 3.0; 4: t 1 of c 8 -> 0.125 ->
# 0.25, AL 2.0.
RAW_T = {1: 6, 4: 1}
RAW_GROUPS = [(None, 2, 2, (1.5 + 3.0) / 2), (0.25, 1, 1, 2.0), (0.75, 1, 1, 2.5)]
# stream.sse: 1: t 2 of c 10 -> 0.2 -> 0.25, AL 2.5; 2: t 10 of c 10 ->
# 1.0, AL 2.0; 3: t -1 is not a count -> null, AL 1.5.
SSE_GROUPS = [(None, 1, 1, 1.5), (0.25, 1, 1, 2.5), (1.0, 1, 1, 2.0)]
# bodies.jsonl: t 5 of c 10 -> 0.5; hist [1, 1, 2]: AL 1 + 5 / 4 = 2.25
BODY_GROUPS = [(0.5, 1, 1, 2.25)]


def groups_of(doc):
    return doc["analysis"]["groups"]


class Reasoning(Case):
    def json_run(self, inputs, *extra):
        res = run(inputs + ["-f", "json", "-q", "--no-progress", "--group-by", "reasoning"]
                  + list(extra))
        self.assertEqual(res.rc, 0, res.errtext)
        return res, loads(res.text)

    def check_groups(self, inputs, want):
        _, doc = self.json_run(inputs)
        rows = groups_of(doc)["rows"]
        self.assertEqual([r["key"] for r in rows], [{"reasoning": w[0]} for w in want])
        for r, (key, ok, total, al) in zip(rows, want):
            self.assertEqual(r["requests"]["ok"], ok, key)
            self.assertEqual(r["requests"]["total"], total, key)
            self.assertAlmostEqual(r["spec_decode_acceptance_length"]["avg"], al, places=12)
        return doc

    def test_records(self):
        doc = self.check_groups([RECORDS], RECORD_GROUPS)
        # the values are JSON numbers (1.0, not "1.0")
        self.assertIsInstance(groups_of(doc)["rows"][4]["key"]["reasoning"], float)

    def test_raw_sse_body(self):
        self.check_groups([RAW], RAW_GROUPS)
        self.check_groups([SSE], SSE_GROUPS)
        self.check_groups([BODIES], BODY_GROUPS)

    def test_enriched_record(self):
        res = run([RECORDS, RAW, "-f", "none", "-q", "--no-progress", "--records", "-"])
        self.assertEqual(res.rc, 0, res.errtext)
        lines = jsonl_lines(res)
        seen = {}
        for ln in lines:
            src, rec = ln["source"], ln.get("spec_decode_acceptance")
            t = RECORD_T if src["kind"] == "records" else RAW_T
            if rec is None:
                self.assertEqual(ln["spec_decode_status"], "no_stats")
                continue
            if src["line"] in t:
                self.assertEqual(rec["reasoning_tokens"], t[src["line"]], src)
                keys = list(rec)
                # SPEC 11.4: after prompt_tokens (or where it would be)
                after = "prompt_tokens" if "prompt_tokens" in rec else "completion_tokens"
                if after in rec:
                    self.assertEqual(keys.index("reasoning_tokens"), keys.index(after) + 1)
                seen[(src["kind"], src["line"])] = True
            else:
                self.assertNotIn("reasoning_tokens", rec, src)
        self.assertEqual(len(seen), len(RECORD_T) + len(RAW_T))
        # line 1: completion, prompt, reasoning in this order
        first = lines[0]["spec_decode_acceptance"]
        keys = list(first)
        self.assertEqual(keys[keys.index("completion_tokens"):keys.index("completion_tokens") + 3],
                         ["completion_tokens", "prompt_tokens", "reasoning_tokens"])

    def test_flat_column(self):
        with TempDir() as d:
            path = os.path.join(d, "rows.csv")
            res = run([RECORDS, SSE, "-f", "none", "-q", "--no-progress", "--table-csv", path,
                       "--group-by", "reasoning"])
            self.assertEqual(res.rc, 0, res.errtext)
            with open(path, newline="") as f:
                rows = list(csv.DictReader(f))
        got = [(r["kind"], int(r["line"]), r["reasoning_tokens"], r["key.reasoning"])
               for r in rows]
        want = [("records", 1, "30", "0.5"), ("records", 2, "0", "0.0"),
                ("records", 3, "100", "1.0"), ("records", 4, "101", ""),
                ("records", 5, "10", ""), ("records", 6, "20", "0.25"),
                ("records", 7, "", ""), ("records", 8, "20", "0.5"),
                ("records", 9, "", "")]
        self.assertEqual(got[:9], want)
        # the streams' lines are those of their first events (5 events a stream)
        self.assertEqual([g[2:] for g in got[9:]], [("2", "0.25"), ("10", "1.0"), ("", "")])

    def test_compare_numeric(self):
        # `1` and `1.0` name the group 1.0; deltas of AL against 3.0
        for text in ("1", "1.0", "1.00"):
            _, doc = self.json_run([RECORDS], "--compare", text)
            g = groups_of(doc)
            self.assertEqual(g["baseline"], {"reasoning": 1.0})
            deltas = {r["key"]["reasoning"]: r.get("vs_baseline", {})
                      .get("spec_decode_acceptance_length", {}).get("delta")
                      for r in g["rows"]}
            self.assertAlmostEqual(deltas[None], (1.0 + 5.0 + 2.0) / 3 - 3.0, places=12)
            self.assertEqual(deltas[0.0], 1.0)
            self.assertEqual(deltas[0.25], -1.0)
            self.assertEqual(deltas[0.5], 0.0)
            self.assertIsNone(deltas[1.0])
        _, doc = self.json_run([RECORDS], "--compare", ".25")
        self.assertEqual(groups_of(doc)["baseline"], {"reasoning": 0.25})
        _, doc = self.json_run([RECORDS], "--compare", "null")
        self.assertEqual(groups_of(doc)["baseline"], {"reasoning": None})
        # 0.3 is not a value: a usage error listing the values
        res = run([RECORDS, "-f", "json", "-q", "--group-by", "reasoning", "--compare", "0.3"])
        self.assertEqual(res.rc, 2)
        self.assertIn("null, 0.0, 0.25, 0.5, 1.0", res.errtext)

    def test_console_and_csv(self):
        res = run(ALL + ["-q", "--no-progress", "--group-by", "reasoning", "-f", "csv"])
        self.assertEqual(res.rc, 0, res.errtext)
        keys = []
        for row in csv.reader(io.StringIO(res.text)):
            if len(row) > 2 and row[1] == "Acceptance Length (ratio)":
                keys.append(row[0])
        # all four inputs: null, 0.0, 0.25, 0.5, 0.75, 1.0
        self.assertEqual(keys, ["", "0.0", "0.25", "0.5", "0.75", "1.0"])
        res = run(ALL + ["-q", "--no-progress", "--group-by", "reasoning", "-f", "table"],
                  env={"COLUMNS": "200"})
        self.assertEqual(res.rc, 0, res.errtext)
        self.assertIn("Spec Decode by reasoning", res.text)
        for v in ("null", "0.0", "0.25", "0.5", "0.75", "1.0"):
            self.assertRegex(res.text, r"│ %s +│" % v.replace(".", r"\."))

    def test_threads_and_merge(self):
        args = ["-q", "--no-progress", "--group-by", "reasoning,engine", "--compare", "0.5"]
        one = run(ALL + args + ["-f", "json", "-j1"])
        two = run(ALL + args + ["-f", "json", "-j2"])
        self.assertEqual(one.rc, 0, one.errtext)
        self.assertEqual(one.out, two.out)
        with TempDir() as d:
            parts = []
            for i in range(2):
                p = os.path.join(d, "part%d.jsonl" % i)
                res = run(ALL + ["-q", "--no-progress", "-f", "none", "--shard", "%d/2" % i,
                                 "--records", p])
                self.assertEqual(res.rc, 0, res.errtext)
                parts.append(p)
            merged = run(parts + args + ["-f", "json", "-j2"])
            self.assertEqual(merged.rc, 0, merged.errtext)
            self.assertEqual(merged.out, one.out)
            for fmt in ("csv", "table", "jsonl"):
                a = run(ALL + args + ["-f", fmt])
                b = run(parts + args + ["-f", fmt])
                self.assertEqual(a.out, b.out, fmt)


if __name__ == "__main__":
    main()
