#!/usr/bin/env python3
"""SPEC 11.1-11.3 (--speedup) end to end: timing read from records lines
(any time unit) and raw lines (perf_ns, AIPerf's ITL), the raw request's
enriched line carrying it (4.4), the timing statistics of the run and of
each group, the speedup, latency speedup, TTFT ratio and draft cost of a
speculative run against its baseline, the shorter-draft table at the
measured cost, -j1 = -j2, merged partials = one run (8.1), and bad timing
(an unknown unit, a negative time, perf_ns before start_perf_ns) left out
without losing the request.

The fixtures are written by the test. Every expected value is worked out
below by hand from SPEC 11.6's vectors (or with the formulas of 11.2-11.3
written out in Python on the literal inputs), never taken from specscan's
output."""

import gzip
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, jsonl_lines, loads, main, run, stats


def tv(value, unit):
    return {"value": value, "unit": unit}


def records_line(n, metrics, hist=None, k=4):
    """A records line; with `hist` a k-draft vLLM record (else no_stats)."""
    doc = {"metadata": {"benchmark_phase": "profiling", "session_num": n},
           "metrics": metrics}
    if hist is not None:
        steps = sum(hist.values())
        acc = sum(int(j) * c for j, c in hist.items())
        doc["spec_decode_acceptance"] = {
            "engine": "vllm", "mean_acceptance_length": 1 + acc / steps,
            "draft_acceptance_rate": acc / (k * steps), "acceptance_histogram": hist,
            "num_accepted_draft_tokens": acc, "num_draft_tokens": k * steps,
            "num_spec_steps": steps, "num_spec_tokens": k}
    return json.dumps(doc)


# The speculative run: SPEC 11.6's two requests (latency 1000, TTFT 200,
# c 81) and (600, 100, 51), given in s / us and ms / ns; k 4, steps 20 and
# 10 that accepted 40 and 20 drafts: tau = 1 + 60 / 30 = 3.0.
H1 = {"0": 4, "1": 4, "2": 4, "3": 4, "4": 4}
H2 = {"0": 2, "1": 2, "2": 2, "3": 2, "4": 2}
SPEC_LINES = [
    records_line(1, {"request_latency": tv(1.0, "s"),
                     "time_to_first_token": tv(200000, "us"),
                     "inter_token_latency": tv(10.0, "ms"),
                     "output_sequence_length": tv(81, "tokens")}, H1),
    records_line(2, {"request_latency": tv(600, "ms"),
                     "time_to_first_token": tv(100000000, "ns"),
                     "inter_token_latency": tv(10.0, "ms"),
                     "output_sequence_length": tv(51, "tokens")}, H2),
]
# The baseline: one request (2200, 200, 81), no record (no_stats): X = 25.0.
BASE_LINES = [
    records_line(1, {"request_latency": tv(2200, "ms"),
                     "time_to_first_token": tv(200, "ms"),
                     "inter_token_latency": tv(25.0, "ms"),
                     "output_sequence_length": tv(81, "tokens")}),
]

# SPEC 11.6's raw line: start 1000, elements at 1100 (role chunk), 1200
# (content), 1300, 1400 (usage, 54 completion tokens), 1500 ([DONE]).
def chunk(delta):
    return json.dumps({"choices": [{"index": 0, "delta": delta}]})


RAW = {"metadata": {"benchmark_phase": "profiling"}, "start_perf_ns": 1000,
       "responses": [
           {"perf_ns": 1100, "text": chunk({"role": "assistant", "content": ""})},
           {"perf_ns": 1200, "text": chunk({"content": "Paris is the"})},
           {"perf_ns": 1300, "text": chunk({"content": " capital"})},
           {"perf_ns": 1400, "text": json.dumps({"choices": [], "usage": {
               "prompt_tokens": 5, "completion_tokens": 54}})},
           {"perf_ns": 1500, "text": "[DONE]"}]}


def write(d, name, lines):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


class RawTiming(Case):
    def test_vector_in_enriched_line(self):
        """SPEC 11.6: latency 0.0005 ms, TTFT 0.0002 ms, ITL (0.0005 -
        0.0002) / 53 in ms, c 54; the line is no_stats and still timed."""
        with TempDir() as d:
            path = write(d, "raw.jsonl", [json.dumps(RAW)])
            res = run([path, "--records", "-", "-f", "none", "-q"])
            self.assertRan(res)
            (line,) = jsonl_lines(res)
            m = line["metrics"]
            self.assertEqual(list(m), ["time_to_first_token", "inter_token_latency",
                                       "request_latency", "output_sequence_length"])
            self.assertEqual(m["time_to_first_token"]["value"].text, "0.0002")
            self.assertEqual(m["request_latency"]["value"].text, "0.0005")
            self.assertEqual(m["inter_token_latency"]["value"].text, "5.660377358490566e-06")
            self.assertEqual(m["request_latency"]["unit"], "ms")
            self.assertEqual(m["output_sequence_length"], {"value": 54, "unit": "tokens"})
            self.assertEqual(line["spec_decode_status"], "no_stats")

    def test_perf_before_start_has_no_time(self):
        """An element before start_perf_ns: no time at all, the request kept."""
        bad = json.loads(json.dumps(RAW))
        bad["responses"][0]["perf_ns"] = 900
        with TempDir() as d:
            path = write(d, "raw.jsonl", [json.dumps(bad)])
            res = run([path, "--records", "-", "-f", "none", "-q"])
            self.assertRan(res)
            (line,) = jsonl_lines(res)
            self.assertNotIn("metrics", line)
            self.assertEqual(line["spec_decode_status"], "no_stats")
            res = run([path, "--speedup", "-f", "json", "-q"])
            self.assertRan(res)
            doc = loads(res.out)
            self.assertEqual(doc["specscan"]["requests"]["total"], 1)
            self.assertEqual(doc["timing"]["requests"], 0)
            self.assertIsNone(doc["timing"]["decode_ms_per_token"])

    def test_fast_path_equals_full_parse(self):
        """Elements the key scan passes over still give their perf_ns."""
        with TempDir() as d:
            path = write(d, "raw.jsonl", [json.dumps(RAW)])
            a = run([path, "--records", "-", "-f", "none", "-q"])
            b = run([path, "--records", "-", "-f", "none", "-q"],
                    env={"SPECSCAN_FULL_PARSE": "1"})
            self.assertRan(a)
            self.assertEqual(a.out, b.out)


class Speedup(Case):
    def fixture(self, d):
        return write(d, "spec.jsonl", SPEC_LINES), write(d, "base.jsonl", BASE_LINES)

    def compare(self, d, *extra):
        spec, base = self.fixture(d)
        res = run([spec, base, "--speedup", "--group-by", "input", "--compare", base,
                   "-f", "json", "-q"] + list(extra))
        self.assertRan(res)
        return loads(res.out), spec, base

    def test_main_timing(self):
        """11.2 over all three requests (the baseline's no_stats one too)."""
        with TempDir() as d:
            doc, _, _ = self.compare(d)
            t = doc["timing"]
            self.assertEqual(list(doc)[-2:], ["timing", "analysis"])
            self.assertEqual(t["requests"], 3)
            for tag, values in (("time_to_first_token", [200.0, 100.0, 200.0]),
                                ("request_latency", [1000.0, 600.0, 2200.0]),
                                ("inter_token_latency", [10.0, 10.0, 25.0])):
                want = stats(values)
                self.assertEqual(t[tag]["unit"], "ms")
                for k in ("avg", "p50", "p99", "min", "max", "std", "sum"):
                    self.assertNum(t[tag][k], want[k], tag + "." + k)
                self.assertEqual(t[tag]["count"], 3)
            # X = (800 + 500 + 2000) / (80 + 50 + 80)
            self.assertNum(t["decode_ms_per_token"], 3300.0 / 210.0)

    def test_vs_baseline(self):
        """11.3 with SPEC 11.6's numbers: X 10.0 against 25.0, speedup 2.5;
        latency 2200 / 800; TTFT 150 / 200; c = (3.0 / 2.5 - 1) / 4."""
        with TempDir() as d:
            doc, spec, base = self.compare(d)
            rows = {r["key"]["input"]: r for r in doc["analysis"]["groups"]["rows"]}
            self.assertNotIn("vs_baseline", rows[base])
            self.assertNum(rows[base]["timing"]["decode_ms_per_token"], 25.0)
            g = rows[spec]
            self.assertNum(g["timing"]["decode_ms_per_token"], 10.0)
            self.assertEqual(g["timing"]["requests"], 2)
            vs = g["vs_baseline"]
            self.assertEqual(vs["speedup"], {"value": 2.5})
            self.assertNum(vs["latency_speedup"]["value"], 2200.0 / 800.0)
            self.assertNum(vs["ttft_ratio"]["value"], 150.0 / 200.0)
            self.assertEqual(vs["draft_cost"].text, "0.04999999999999999")
            self.assertNotIn("draft_cost_note", vs)
            # timing before positions in a group row
            keys = list(g)
            self.assertLess(keys.index("timing"), keys.index("vs_baseline"))

    def test_ci_significance_and_threads(self):
        """With --ci each ratio has an interval; one request a side gives
        every resample the same X, so the interval is [2.5, 2.5]: significant.
        -j1 and -j2 write the same bytes."""
        with TempDir() as d:
            spec, base = self.fixture(d)
            args = [spec, base, "--speedup", "--group-by", "input", "--compare", base,
                    "--ci", "95", "--bootstrap", "200", "-f", "json", "-q"]
            a = run(args + ["-j1"])
            b = run(args + ["-j2"])
            self.assertRan(a)
            self.assertEqual(a.out, b.out)
            doc = loads(a.out)
            rows = {r["key"]["input"]: r for r in doc["analysis"]["groups"]["rows"]}
            sp = rows[spec]["vs_baseline"]["speedup"]
            self.assertEqual(len(sp["ci"]), 2)
            self.assertLessEqual(sp["ci"][0], sp["ci"][1])
            self.assertTrue(sp["significant"])

    def test_positions_use_measured_cost(self):
        """7.1's table at the measured c: S_0 30, S_i 24, 18, 12, 6;
        tau(k') 1.8, 2.4, 2.8, 3.0; speedup tau / (1 + c k'); best k 4."""
        with TempDir() as d:
            doc, spec, _ = self.compare(d, "--positions")
            rows = {r["key"]["input"]: r for r in doc["analysis"]["groups"]["rows"]}
            (bk,) = rows[spec]["positions"]["by_k"]
            c = (3.0 / 2.5 - 1) / 4
            self.assertEqual(bk["draft_cost_source"], "measured")
            self.assertNum(bk["draft_cost"], c)
            for kp, tau in ((1, 1 + 24 / 30), (2, 1 + 42 / 30), (3, 1 + 54 / 30),
                            (4, 1 + 60 / 30)):
                self.assertNum(bk["what_if"][kp - 1]["speedup"], tau / (1 + c * kp))
            self.assertEqual(bk["suggested_k"], 4)
            # --draft-cost wins, and says so
            doc, spec, _ = self.compare(d, "--draft-cost", "0.1")
            rows = {r["key"]["input"]: r for r in doc["analysis"]["groups"]["rows"]}
            (bk,) = rows[spec]["positions"]["by_k"]
            self.assertEqual(bk["draft_cost_source"], "given")
            self.assertNum(bk["draft_cost"], 0.1)

    def test_console_columns(self):
        with TempDir() as d:
            spec, base = self.fixture(d)
            res = run([spec, base, "--speedup", "--group-by", "input", "--compare", base,
                       "-f", "table", "-q"])
            self.assertRan(res)
            self.assertIn("Speedup", res.text)
            self.assertIn("Draft Cost", res.text)
            self.assertIn("2.50", res.text)
            self.assertIn("Timing", res.text)
            res = run([spec, base, "--speedup", "--group-by", "input", "-f", "csv", "-q"])
            self.assertRan(res)
            self.assertIn("input,Metric,avg,p50,p99\r\n", res.text)
            self.assertIn("decode_ms_per_token,10.00,,\r\n", res.text)

    def test_merged_partials_equal_one_run(self):
        """8.1: the enriched lines of the raw and records inputs, read back,
        give the same JSON as the run itself, --speedup on."""
        with TempDir() as d:
            spec, base = self.fixture(d)
            raw = write(d, "raw.jsonl", [json.dumps(RAW)])
            part = os.path.join(d, "part.jsonl")
            args = ["--speedup", "--group-by", "input", "--compare", base, "-f", "json",
                    "-q", "--positions"]
            one = run([spec, base, raw, "--records", part] + args)
            self.assertRan(one)
            merged = run([part] + args)
            self.assertRan(merged)
            self.assertEqual(one.out, merged.out)

    def test_without_speedup_nothing_changes(self):
        with TempDir() as d:
            spec, base = self.fixture(d)
            res = run([spec, base, "--group-by", "input", "--compare", base, "--positions",
                       "--draft-cost", "0.1", "-f", "json", "-q"])
            self.assertRan(res)
            self.assertNotIn('"timing"', res.text)
            self.assertNotIn("draft_cost_source", res.text)
            self.assertNotIn('"speedup": {', res.text)


class BadTiming(Case):
    def test_unknown_unit_and_negative_time(self):
        """A time in minutes or below 0 is absent; the request still counts
        and its other times stay."""
        lines = [records_line(1, {"request_latency": tv(1, "min"),
                                  "time_to_first_token": tv(100, "ms")}),
                 records_line(2, {"request_latency": tv(-5, "ms"),
                                  "time_to_first_token": tv(300, "ms")}),
                 records_line(3, {"request_latency": tv(1e308, "s")})]
        with TempDir() as d:
            path = write(d, "bad.jsonl", lines)
            res = run([path, "--speedup", "-f", "json", "-q"])
            self.assertRan(res)
            doc = loads(res.out)
            t = doc["timing"]
            self.assertEqual(doc["specscan"]["requests"]["no_stats"], 3)
            self.assertEqual(t["requests"], 2)
            self.assertNum(t["time_to_first_token"]["avg"], 200.0)
            self.assertIsNone(t["request_latency"])
            self.assertIsNone(t["decode_ms_per_token"])


class Concurrency(Case):
    """SPEC 11.4: a sweep of artifact directories grouped by concurrency,
    the value carried in the enriched line (source.concurrency) and read
    back; a configuration that cannot give it is named, the requests kept."""

    def sweep(self, d, confs):
        for name, conf in confs:
            os.makedirs(os.path.join(d, name))
            write(os.path.join(d, name), "profile_export.jsonl", SPEC_LINES)
            if conf is not None:
                with open(os.path.join(d, name, "profile_export_aiperf.json"), "w") as f:
                    f.write(conf)

    def conf(self, c):
        return json.dumps({"input_config": {"endpoint": {"model_names": ["m"]},
                                            "loadgen": {"concurrency": c}}})

    def test_group_by_concurrency(self):
        with TempDir() as d:
            self.sweep(d, [("c4", self.conf(4)), ("c16", self.conf(16)),
                           ("c1x", '{"input_config": {"loadgen": {"concurrency": 4.0}}}'),
                           ("none", None)])
            # a broken file; a compressed one (10.8's suffixes)
            self.sweep(d, [("broken", "{nope"), ("c32", None)])
            with gzip.open(os.path.join(d, "c32", "profile_export_aiperf.json.gz"), "wt") as f:
                f.write(self.conf(32))
            res = run(["-r", d, "--group-by", "concurrency", "-f", "json"])
            self.assertRan(res)
            doc = loads(res.out)
            rows = [(r["key"]["concurrency"], r["requests"]["total"])
                    for r in doc["analysis"]["groups"]["rows"]]
            # 4.0 is not an integer literal; no file; not JSON: null (3 x 2 requests)
            self.assertEqual(sorted(rows, key=lambda x: (x[0] is not None, x[0] or 0)),
                             [(None, 6), (4, 2), (16, 2), (32, 2)])
            self.assertIn("c1x/profile_export_aiperf.json: input_config.loadgen.concurrency "
                          "is not an integer >= 1", res.errtext)
            self.assertIn("broken/profile_export_aiperf.json: is not a JSON document",
                          res.errtext)

    def test_enriched_line_carries_it(self):
        with TempDir() as d:
            self.sweep(d, [("c8", self.conf(8))])
            part = os.path.join(d, "part.jsonl")
            one = run(["-r", os.path.join(d, "c8"), "--records", part, "-f", "json", "-q",
                       "--group-by", "concurrency"])
            self.assertRan(one)
            with open(part) as f:
                lines = [json.loads(l) for l in f]
            self.assertEqual([l["source"]["concurrency"] for l in lines], [8, 8])
            self.assertEqual(list(lines[0]["source"]), ["input", "line", "kind",
                                                         "concurrency"])
            merged = run([part, "-f", "json", "-q", "--group-by", "concurrency"])
            self.assertRan(merged)
            self.assertEqual(loads(merged.out)["analysis"], loads(one.out)["analysis"])

    def test_huge_configuration_refused(self):
        """A configuration larger than --max-record-size is not read: named,
        the concurrency null, nothing else lost."""
        with TempDir() as d:
            big = '{"input_config": {"loadgen": {"concurrency": 4}}, "pad": "' + \
                "x" * 5000 + '"}'
            self.sweep(d, [("c4", big)])
            res = run(["-r", d, "--group-by", "concurrency", "--max-record-size", "4K",
                       "-f", "json"])
            self.assertRan(res)
            doc = loads(res.out)
            (row,) = doc["analysis"]["groups"]["rows"]
            self.assertIsNone(row["key"]["concurrency"])
            self.assertEqual(doc["specscan"]["requests"]["ok"], 2)
            self.assertIn("max-record-size", res.errtext)


def timed_line(n, cat, lat, ttft, c, hist=None):
    """A records line of category `cat`: latency and TTFT in ms, c tokens."""
    doc = json.loads(records_line(n, {"request_latency": tv(lat, "ms"),
                                      "time_to_first_token": tv(ttft, "ms"),
                                      "output_sequence_length": tv(c, "tokens")}, hist))
    doc["metadata"]["category"] = cat
    return json.dumps(doc)


class SeveralPartners(Case):
    def test_each_group_against_its_own_partner(self):
        """--group-by input,meta.category --compare BASE: each category of
        the speculative run against the same category of the baseline
        (7.4). X = (latency - TTFT) / (c - 1): baseline a (2200 - 200) / 80
        = 25, b (1200 - 200) / 50 = 20; speculative a (1000 - 200) / 80 = 10,
        b (600 - 100) / 50 = 10: speedups 2.5 and 2.0 (b against a's
        baseline would read 2.5). Latency speedups 2200 / 1000 and
        1200 / 600."""
        with TempDir() as d:
            base = write(d, "base.jsonl", [timed_line(1, "a", 2200, 200, 81),
                                           timed_line(2, "b", 1200, 200, 51)])
            spec = write(d, "spec.jsonl", [timed_line(1, "a", 1000, 200, 81, H1),
                                           timed_line(2, "b", 600, 100, 51, H2)])
            for ci in ([], ["--ci", "95", "--bootstrap", "50"]):
                res = run([spec, base, "--speedup", "--group-by", "input,meta.category",
                           "--compare", base, "-f", "json", "-q"] + ci)
                self.assertRan(res)
                rows = {(r["key"]["input"], r["key"]["meta.category"]): r
                        for r in loads(res.out)["analysis"]["groups"]["rows"]}
                self.assertNotIn("vs_baseline", rows[(base, "a")])
                self.assertNotIn("vs_baseline", rows[(base, "b")])
                for cat, x, lat in (("a", 2.5, 2200.0 / 1000.0), ("b", 2.0, 1200.0 / 600.0)):
                    vs = rows[(spec, cat)]["vs_baseline"]
                    self.assertNum(vs["speedup"]["value"], x, cat)
                    self.assertNum(vs["latency_speedup"]["value"], lat, cat)
                    if ci:   # one request a side: every resample the same
                        self.assertNum(vs["speedup"]["ci"][0], x, cat)
                        self.assertNum(vs["speedup"]["ci"][1], x, cat)


class BestKMeasured(Case):
    def test_best_k_from_measured_cost(self):
        """--group-by k --speedup --compare null: each k judged at its own
        measured cost. Baseline (k null) X 25. k 4: SPEC 11.6's two
        requests, X 10, tau 3.0: speedup 2.5, c = (3.0 / 2.5 - 1) / 4,
        expected 3.0 / (1 + 4c) = 2.5. k 2: steps 10 accepting 0,0,1,1,
        2 x6 = 14, tau 2.4, X (1200 - 200) / 80 = 12.5: speedup 2.0,
        c = (2.4 / 2.0 - 1) / 2 = 0.1, expected 2.4 / 1.2 = 2.0. Best k 4.
        With --draft-cost 0.5: k 2 2.4 / 2 = 1.2, k 4 3.0 / 3 = 1.0: k 2."""
        h2 = {"0": 2, "1": 2, "2": 6}
        k2 = json.loads(records_line(3, {"request_latency": tv(1200, "ms"),
                                         "time_to_first_token": tv(200, "ms"),
                                         "output_sequence_length": tv(81, "tokens")},
                                     h2, k=2))
        with TempDir() as d:
            path = write(d, "k.jsonl", SPEC_LINES + [json.dumps(k2)] + BASE_LINES)
            c4 = (3.0 / 2.5 - 1) / 4
            args = ["--speedup", "--group-by", "k", "--compare", "null", "-q", path]
            want = ("Best k: 4 (expected speedup 2.50x over no speculation at its "
                    "measured draft cost of %r target passes per draft token)" % c4)
            for fmt, env in (("markdown", None), ("table", {"COLUMNS": "400"})):
                res = run(["-f", fmt] + args, env=env)
                self.assertRan(res)
                best = [ln.strip() for ln in res.text.splitlines() if "Best k" in ln]
                self.assertEqual(best, [want], fmt)
            res = run(["-f", "markdown", "--draft-cost", "0.5"] + args)
            self.assertRan(res)
            best = [ln for ln in res.text.splitlines() if "Best k" in ln]
            self.assertEqual(best, ["Best k: 2 (expected speedup 1.20x over no speculation at "
                                    "a draft cost of 0.5 target passes per draft token)"])


class CompactNumbers(Case):
    """AIPerf's compact {"value":N,"unit":"U"} is read from its text; a
    count of digits only (at most 15) takes a short path, any other
    number's text the general one: both give the number as written."""

    def one(self, d, tokens_text, latency_text="1000"):
        # written by hand, compact, no white space (the form read from text)
        line = ('{"metadata":{"benchmark_phase":"profiling","session_num":1},'
                '"metrics":{"request_latency":{"value":%s,"unit":"ms"},'
                '"time_to_first_token":{"value":200.0,"unit":"ms"},'
                '"output_sequence_length":{"value":%s,"unit":"tokens"}}}'
                % (latency_text, tokens_text))
        path = write(d, "c.jsonl", [line])
        res = run([path, "--speedup", "-f", "json", "-q"])
        self.assertRan(res)
        return loads(res.out)["timing"]

    def test_count_forms(self):
        # X = (1000 - 200) / (c - 1) for the one request (11.2)
        with TempDir() as d:
            for text, c in (("81", 81), ("81.0", 81), ("8.1e1", 81), ("810e-1", 81),
                            ("2", 2), ("123456789012345", 123456789012345),
                            ("1234567890123456", 1234567890123456)):
                t = self.one(d, text)
                self.assertEqual(t["requests"], 1, text)
                self.assertNum(t["decode_ms_per_token"], 800.0 / (c - 1), text)

    def test_integer_time(self):
        with TempDir() as d:
            for text in ("1000", "1000.0", "1e3", "1.000e+3"):
                t = self.one(d, "81", latency_text=text)
                self.assertNum(t["request_latency"]["max"], 1000.0, text)
                self.assertNum(t["decode_ms_per_token"], 10.0, text)

    def test_fraction_count_refused(self):
        """A count that is not a whole number gives no decode time."""
        with TempDir() as d:
            t = self.one(d, "81.5")
            self.assertIsNone(t["decode_ms_per_token"])


if __name__ == "__main__":
    main()
