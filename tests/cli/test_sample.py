#!/usr/bin/env python3
"""The bundled samples. testdata/sample/aiperf_raw_vllm.jsonl, zstd-compressed
at test time: every output format against SPEC 6 and values worked out here.
testdata/sample/clean.jsonl, the README's quick start: eight vLLM bodies,
every one ok, a table with no message at all (class CleanSample below).

Lines of the sample and their expected statuses (SPEC 2.1):
  1 warmup    ok         W: steps 2, accepted 3, drafted 4, hist [0,1,1], k 2
  2 profiling ok         A of SPEC 6
  3 profiling error      non-null error object
  4 profiling ok         B of SPEC 6
  5 profiling cancelled  metadata.was_cancelled
  6 -         unparsable HTML text (no metadata: profiling)
  7 profiling malformed  histogram sums to 3, num_spec_steps 4
  8 profiling zero_step  num_spec_steps 0
  9 profiling no_stats   non-streaming body, speculative_decoding null
"""

import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import (Case, F, Rec, TempDir, expected_metrics, have_tool, jsonl_lines, loads,
                   main, pooled, run, td, HEADERS, PER_REQUEST, RUN_LEVEL, UNITS)

SAMPLE = td("sample", "aiperf_raw_vllm.jsonl")

W = Rec("vllm", 3, 4, 2, mean=2.5, rate=0.75, hist={1: 1, 2: 1}, k=2, comp=5,
        psa=[1, 2], psd=[2, 2], prompt=20)
A = Rec("vllm", 18, 32, 8, mean=3.25, rate=0.5625, hist={0: 1, 1: 1, 2: 2, 3: 3, 4: 1},
        k=4, comp=26, psa=[2, 3, 1, 4, 2, 0, 3, 3], psd=[4] * 8, prompt=20)
B = Rec("vllm", 2, 12, 3, mean=1.6666666666666665, rate=0.16666666666666666,
        hist={0: 1, 1: 2}, k=4, comp=4, psa=[1, 1, 0], psd=[4, 4, 4], prompt=20)

STATUS_BY_LINE = {1: "ok", 2: "ok", 3: "error", 4: "ok", 5: "cancelled", 6: "unparsable",
                  7: "malformed", 8: "zero_step", 9: "no_stats"}
COUNTS = {"ok": 3, "zero_step": 1, "no_stats": 1, "malformed": 1, "error": 1,
          "cancelled": 1, "unparsable": 1}
ACCOUNTING = ("9 requests: 3 with stats, 1 zero-step, 1 without stats, 1 malformed, "
              "1 failed, 1 cancelled, 1 unparsable")


def f2(x):
    return "%.2f" % x


def csv_label(tag):
    u = UNITS[tag]
    return HEADERS[tag] if u in ("count", "requests") else "%s (%s)" % (HEADERS[tag], u)


def expected_csv(metrics):
    """SPEC 4.2, built from the expected metric values."""
    rows = []
    per = sorted(t for t, _, _ in PER_REQUEST if t in metrics)
    run_level = sorted(t for t, _, _ in RUN_LEVEL if t in metrics)
    if per:
        rows.append("Metric,avg,min,max,sum,p1,p5,p10,p25,p50,p75,p90,p95,p99,std")
        for t in per:
            m = metrics[t]
            rows.append(",".join([csv_label(t)] + [f2(m[k]) for k in
                                 ("avg", "min", "max", "sum", "p1", "p5", "p10", "p25", "p50",
                                  "p75", "p90", "p95", "p99", "std")]))
        if run_level:
            rows.append("")
    if run_level:
        rows.append("Metric,Value")
        for t in run_level:
            rows.append("%s,%s" % (csv_label(t), f2(metrics[t]["avg"])))
    return "".join(r + "\r\n" for r in rows)


class Sample(Case):
    @classmethod
    def setUpClass(cls):
        cls.tmp = TempDir()
        d = cls.tmp.__enter__()
        if have_tool("zstd"):
            cls.input = os.path.join(d, "aiperf_raw_vllm.jsonl.zst")
            subprocess.run(["zstd", "-q", "-19", SAMPLE, "-o", cls.input], check=True)
        else:
            cls.input = SAMPLE
        cls.want = expected_metrics([A, B], zero_steps=1)
        cls.res = {f: run(["-j2", "-f", f, cls.input]) for f in ("json", "csv", "table", "jsonl")}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.__exit__(None, None, None)

    # ---- JSON
    def test_json_top_level(self):
        r = self.res["json"]
        self.assertRan(r)
        text = r.text
        self.assertTrue(text.startswith('{\n  "specscan": {\n    "version": '), text[:80])
        self.assertTrue(text.endswith("}\n"))
        doc = loads(text)
        keys = list(doc)
        self.assertEqual(keys[0], "specscan")
        self.assertEqual(keys[1], "pooled_spec_decode_acceptance_histogram")
        self.assertEqual(keys[-1], "warmup_metrics")
        self.assertEqual(list(doc["specscan"]), ["version", "inputs", "requests", "phases", "engines"])
        self.assertEqual(doc["specscan"]["version"], "0.1.0")

    def test_json_accounting(self):
        doc = loads(self.res["json"].text)
        self.assertAccounting(doc, COUNTS, total=9)
        self.assertEqual(doc["specscan"]["phases"], {"profiling": 8, "warmup": 1})
        self.assertEqual(doc["specscan"]["engines"], {"vllm": 4})
        self.assertEqual(doc["specscan"]["inputs"],
                         [{"name": self.input, "kind": "raw", "requests": 9}])

    def test_json_metrics(self):
        doc = loads(self.res["json"].text)
        self.assertEqual(doc["pooled_spec_decode_acceptance_histogram"],
                         {"0": 2, "1": 3, "2": 2, "3": 3, "4": 1})
        self.assertEqual(doc["pooled_spec_decode_acceptance_histogram"], pooled([A, B]))
        self.assertMetrics(doc, self.want)

    def test_json_spec6_literals(self):
        """SPEC 6's numbers, exactly as text."""
        text = self.res["json"].text
        doc = loads(text)
        al = doc["spec_decode_acceptance_length"]
        self.assertEqual(al["avg"].text, "2.458333333333333")
        self.assertEqual(al["p50"].text, "2.458333333333333")
        self.assertEqual(al["p90"].text, "3.091666666666667")
        self.assertEqual(al["std"].text, "0.7916666666666667")
        st = doc["spec_decode_steps"]
        self.assertEqual(st["avg"].text, "5.5")
        self.assertEqual(st["p1"].text, "3.05")
        self.assertEqual(st["std"].text, "2.5")
        self.assertEqual(st["sum"].text, "11.0")
        self.assertEqual(doc["spec_decode_token_weighted_acceptance_length"]["avg"].text,
                         "2.8181818181818183")
        self.assertEqual(doc["spec_decode_overall_draft_acceptance_rate"]["avg"].text,
                         "45.45454545454545")
        self.assertIn('"avg": 2.458333333333333', text)

    def test_json_warmup_metrics(self):
        doc = loads(self.res["json"].text)
        self.assertIn("warmup_metrics", doc)
        self.assertMetrics(doc["warmup_metrics"], expected_metrics([W]), "warmup_metrics")

    # ---- CSV
    def test_csv(self):
        r = self.res["csv"]
        self.assertRan(r)
        text = r.text
        self.assertIn("Acceptance Length (ratio),2.46,1.67,3.25,4.92,1.68,1.75,1.82,2.06,2.46,"
                      "2.85,3.09,3.17,3.23,0.79\r\n", text)
        self.assertIn("Spec Decode Steps,5.50,3.00,8.00,11.00,3.05,3.25,3.50,4.25,5.50,6.75,"
                      "7.50,7.75,7.95,2.50\r\n", text)
        self.assertNotIn("\n", text.replace("\r\n", ""), "bare LF in CSV")
        self.assertEqual(text, expected_csv(self.want))

    # ---- table
    def table_rows(self, text):
        """Label -> cells of the Spec Decode table (box or ASCII)."""
        rows = {}
        order = []
        last = None
        for line in text.split("\n"):
            s = line.strip()
            if not s or s[0] not in "│|":
                continue
            cells = [c.strip() for c in re.split("[│┃|]", s)[1:-1]]
            if not cells or cells[0] == "Metric":
                continue
            if cells[0] and any(cells[1:]):
                last = cells[0]
                rows[last] = cells[1:]
                order.append(last)
            elif cells[0] and last:  # continuation: "(unit)" on its own line
                rows[last + " " + cells[0]] = rows.pop(last)
                order[-1] = last = last + " " + cells[0]
        return order, rows

    def test_table(self):
        r = self.res["table"]
        self.assertRan(r)
        text = r.text
        lines = [l.strip() for l in text.split("\n")]
        self.assertIn("Spec Decode", lines)
        hist = [l for l in lines if l.startswith("Accepted drafts per step")]
        self.assertEqual(hist, ["Accepted drafts per step (% of steps):  "
                                "0: 18%   1: 27%   2: 18%   3: 27%   4: 9%"])
        self.assertIn(ACCOUNTING, lines)
        self.assertIn("┏", text)  # UTF-8 locale: box characters
        order, rows = self.table_rows(text)
        w = self.want
        # SPEC 4.3: header + " (unit)" for every row (unlike the CSV)
        label = {t: "%s (%s)" % (HEADERS[t], UNITS[t]) for t in UNITS}
        self.assertEqual(order, [label[t] for t in (
            "spec_decode_acceptance_length", "spec_decode_token_weighted_acceptance_length",
            "spec_decode_draft_acceptance_rate", "spec_decode_overall_draft_acceptance_rate",
            "spec_decode_accepted_per_verified", "spec_decode_steps",
            "spec_decode_zero_step_requests")])
        for t in ("spec_decode_acceptance_length", "spec_decode_draft_acceptance_rate",
                  "spec_decode_accepted_per_verified", "spec_decode_steps"):
            m = w[t]
            self.assertEqual(rows[label[t]], ["{:,.2f}".format(m[k]) for k in
                                              ("avg", "min", "max", "p99", "p90", "p50", "std")], t)
        for t in ("spec_decode_token_weighted_acceptance_length",
                  "spec_decode_overall_draft_acceptance_rate", "spec_decode_zero_step_requests"):
            self.assertEqual(rows[label[t]], ["{:,.2f}".format(w[t]["avg"])] + ["N/A"] * 6, t)
        self.assertEqual(rows["Acceptance Length (ratio)"],
                         ["2.46", "1.67", "3.25", "3.23", "3.09", "2.46", "0.79"])

    def test_table_ascii(self):
        r = run(["-f", "table", self.input], env={"LC_ALL": "C"})
        self.assertRan(r)
        self.assertTrue(all(b < 0x80 for b in r.out), "non-ASCII bytes in a C-locale table")
        self.assertIn(b"+", r.out)
        order, rows = self.table_rows(r.text)
        self.assertEqual(rows["Spec Decode Steps (count)"],
                         ["5.50", "3.00", "8.00", "7.95", "7.50", "5.50", "2.50"])
        self.assertIn(ACCOUNTING, [l.strip() for l in r.text.split("\n")])

    # ---- enriched JSONL
    def test_jsonl(self):
        r = self.res["jsonl"]
        self.assertRan(r)
        out = jsonl_lines(r)
        self.assertEqual(len(out), 9)
        src_lines = open(SAMPLE, "rb").read().decode("utf-8").split("\n")
        for i, o in enumerate(out, 1):
            where = "line %d" % i
            # SPEC 4.4: the line kind, unknown for a line that is not JSON
            kind = "unknown" if STATUS_BY_LINE[i] == "unparsable" else "raw"
            self.assertEqual(o["source"], {"input": self.input, "line": i, "kind": kind}, where)
            # SPEC 7.3's model: a raw line's payload.model, as the line says it
            try:
                model = json.loads(src_lines[i - 1]).get("payload", {}).get("model")
            except ValueError:
                model = None
            self.assertEqual(o.get("model"), model, where)
            if model:
                self.assertEqual(list(o)[:2], ["source", "model"], where)
            self.assertEqual(o["spec_decode_status"], STATUS_BY_LINE[i], where)
            if STATUS_BY_LINE[i] == "ok":
                self.assertNotIn("spec_decode_reason", o, where)
            else:
                self.assertIsInstance(o.get("spec_decode_reason"), str, where)
                self.assertTrue(o["spec_decode_reason"], where)
            if STATUS_BY_LINE[i] in ("ok", "zero_step"):
                self.assertIn("spec_decode_acceptance", o, where)
            else:
                self.assertNotIn("spec_decode_acceptance", o, where)
                self.assertFalse([k for k in o.get("metrics", {}) if k in UNITS], where)
            # metadata copied verbatim (the raw text of the input line)
            src = src_lines[i - 1]
            if src.startswith('{"metadata":'):
                raw = src[len('{"metadata":'):src.index("}") + 1]
                self.assertIn('"metadata":' + raw + ",", r.text.split("\n")[i - 1], where)
            else:
                self.assertNotIn("metadata", o, where)
        self.assertIn("histogram", out[6]["spec_decode_reason"])
        self.assertIn("caf\\u00e9", r.text.split("\n")[1])
        # SPEC 4.4, 11.1: a raw request's timing after the spec-decode
        # metrics, from the fixture's perf_ns (start 1000 ns): line 1 TTFT at
        # 1200, last response 1600, 5 completion tokens; line 2 TTFT 1200 (its
        # second response's data packets hold "Paris is the"), last 1600, 26
        # tokens; line 4 TTFT 1200, last 1500, 4 tokens (its usage is split
        # over two data packets of the response at 1400).
        ms = lambda ns: ns / 1e6
        timing = {1: [("time_to_first_token", ms(200)),
                      ("inter_token_latency", (ms(600) - ms(200)) / 4),
                      ("request_latency", ms(600)), ("output_sequence_length", 5)],
                  2: [("time_to_first_token", ms(200)),
                      ("inter_token_latency", (ms(600) - ms(200)) / 25),
                      ("request_latency", ms(600)), ("output_sequence_length", 26)],
                  4: [("time_to_first_token", ms(200)),
                      ("inter_token_latency", (ms(500) - ms(200)) / 3),
                      ("request_latency", ms(500)), ("output_sequence_length", 4)]}
        for line, rec in ((1, W), (2, A), (4, B)):
            o = out[line - 1]
            self.assertRecord(o["spec_decode_acceptance"], rec, "line %d" % line)
            want = rec.per_request()
            self.assertEqual(list(o["metrics"]), [t for t, _, _ in PER_REQUEST if t in want]
                             + [t for t, _ in timing[line]])
            for t, v in timing[line]:
                self.assertEqual(o["metrics"][t]["unit"],
                                 "tokens" if t == "output_sequence_length" else "ms")
                self.assertNum(o["metrics"][t]["value"], v, "line %d %s" % (line, t))
            for t, v in want.items():
                self.assertEqual(list(o["metrics"][t]), ["value", "unit"])
                self.assertEqual(o["metrics"][t]["unit"], UNITS[t])
                self.assertNum(o["metrics"][t]["value"], v, "line %d %s" % (line, t))
                if isinstance(v, int):
                    self.assertNotIsInstance(o["metrics"][t]["value"], F, "integers stay integers")
        z = out[7]["spec_decode_acceptance"]
        self.assertEqual((z["engine"], z["num_spec_steps"], z["num_accepted_draft_tokens"],
                          z["num_draft_tokens"]), ("vllm", 0, 0, 0))

    # ---- phases and engines
    def test_phase_warmup(self):
        r = run(["--phase", "warmup", self.input])
        self.assertRan(r)
        doc = loads(r.text)
        self.assertAccounting(doc, COUNTS, total=9)
        self.assertNotIn("warmup_metrics", doc)
        self.assertEqual(doc["pooled_spec_decode_acceptance_histogram"], {"1": 1, "2": 1})
        self.assertMetrics(doc, expected_metrics([W]))

    def test_phase_all(self):
        r = run(["--phase", "all", self.input])
        self.assertRan(r)
        doc = loads(r.text)
        self.assertAccounting(doc, COUNTS, total=9)
        self.assertNotIn("warmup_metrics", doc)
        self.assertEqual(doc["pooled_spec_decode_acceptance_histogram"], pooled([W, A, B]))
        self.assertMetrics(doc, expected_metrics([W, A, B], zero_steps=1))

    def test_engine_filter(self):
        """--engine sglang: no adapter claims the vLLM payloads."""
        r = run(["--engine", "sglang", self.input])
        self.assertRan(r)
        doc = loads(r.text)
        self.assertAccounting(doc, {"unrecognized": 5, "error": 1, "cancelled": 1,
                                    "unparsable": 1, "no_stats": 1}, total=9)
        self.assertEqual(doc["specscan"]["engines"], {})
        self.assertEqual(list(doc), ["specscan"])


# The README's quick-start sample: eight vLLM chat.completion bodies, k = 3,
# each (histogram of accepted drafts per step); steps and accepted follow
# from the histogram, drafted = 3 x steps, completion = 1 + steps + accepted.
CLEAN = td("sample", "clean.jsonl")
CLEAN_HISTS = [[5, 4, 4, 7], [3, 2, 3, 4], [12, 8, 6, 4], [2, 3, 4, 7],
               [6, 6, 5, 8], [1, 1, 2, 4], [14, 10, 9, 7], [4, 5, 4, 5]]


def clean_recs():
    recs = []
    for h in CLEAN_HISTS:
        steps = sum(h)
        acc = sum(j * c for j, c in enumerate(h))
        recs.append(Rec("vllm", acc, 3 * steps, steps, hist={j: c for j, c in enumerate(h) if c},
                        k=3, comp=1 + steps + acc))
    return recs


class CleanSample(Case):
    """What the README's first command prints: the table, nothing on stderr."""

    def test_clean_table(self):
        r = run(["-f", "table", CLEAN])
        self.assertEqual(r.rc, 0, r)
        self.assertEqual(r.err, b"", "the clean sample says nothing on stderr")
        text = r.text
        for word in ("unparsable", "malformed", "without stats"):
            self.assertNotIn(word, text)
        lines = [l.strip() for l in text.split("\n")]
        # by hand: steps 169 (20+12+30+16+25+8+40+18), accepted 251, drafted 507;
        # pooled buckets 47, 39, 37, 46 of 169 steps: 27.8%, 23.1%, 21.9%, 27.2%
        self.assertIn("Accepted drafts per step (% of steps):  0: 28%   1: 23%   2: 22%   3: 27%",
                      lines)
        self.assertIn("8 requests: 8 with stats", lines)
        order, rows = Sample.table_rows(self, text)
        # acceptance lengths 2.65, 2.6667, 2.0667, 3.0, 2.6, 3.125, 2.225, 2.5556:
        # mean 20.8889 / 8 = 2.6111, min 2.0667, max 3.125
        al = rows["Acceptance Length (ratio)"]
        self.assertEqual(al[:3], ["2.61", "2.07", "3.12"])
        # TWAL 1 + 251/169 = 2.4852; ODAR 251/507 = 49.51%
        self.assertEqual(rows["Token-Weighted Acceptance Length (ratio)"][0], "2.49")
        self.assertEqual(rows["Overall Draft Acceptance Rate (%)"][0], "49.51")
        self.assertEqual(rows["Spec Decode Steps (count)"][:3], ["21.12", "8.00", "40.00"])
        want = expected_metrics(clean_recs())
        for label, tag in (("Acceptance Length (ratio)", "spec_decode_acceptance_length"),
                           ("Draft Acceptance Rate (%)", "spec_decode_draft_acceptance_rate"),
                           ("Spec Decode Steps (count)", "spec_decode_steps")):
            self.assertEqual(rows[label], ["{:,.2f}".format(want[tag][k]) for k in
                                           ("avg", "min", "max", "p99", "p90", "p50", "std")], tag)

    def test_clean_json(self):
        r = run(["-f", "json", CLEAN])
        self.assertRan(r)
        doc = loads(r.text)
        self.assertAccounting(doc, {"ok": 8}, total=8)
        self.assertEqual(doc["pooled_spec_decode_acceptance_histogram"],
                         {"0": 47, "1": 39, "2": 37, "3": 46})
        self.assertMetrics(doc, expected_metrics(clean_recs()))


if __name__ == "__main__":
    main()
