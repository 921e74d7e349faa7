#!/usr/bin/env python3
"""SPEC 7 end to end: acceptance by position (7.1's test vector), bootstrap
intervals (7.2) against an independent Python implementation of the
generator, groups (7.3) and their order, --compare (7.4), --expect (7.5),
-f markdown (9.2), and byte-identical outputs for -j1 and -j2 with every
option of 7 on.

The expected numbers are SPEC 7.1's vector, or computed here from the
records the fixtures are built from (the generator and statistics written
out plainly below), never taken from specscan's output."""

import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, F, TempDir, loads, main, percentile, pyrepr, run

M64 = (1 << 64) - 1


# --------------------------------------------------------------------------
# SPEC 7.2's generator and statistics, written out plainly

def mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def draws(seed, g, b, n):
    state = mix64(seed ^ mix64(((g << 32) | b) & M64))
    out = []
    for _ in range(n):
        state = (state + 0x9E3779B97F4A7C15) & M64
        out.append(((mix64(state) >> 11) * n) >> 53)
    return out


def resample(recs, idx):
    """The four statistics of one resample (None: undefined), 4.1's order."""
    s_al, n_al, s_dar, acc, acc_w, dr, st = 0.0, 0, 0.0, 0, 0, 0, 0
    for i in idx:
        r = recs[i]
        if r["steps"] is not None:
            s_al += r["mean"]
            n_al += 1
            acc_w += r["acc"]
            st += r["steps"]
        s_dar += r["rate"] * 100.0
        acc += r["acc"]
        dr += r["drafted"]
    return [s_al / n_al if n_al else None,
            1 + acc_w / st if st else None,
            s_dar / len(idx) if idx else None,
            acc / dr * 100.0 if dr else None]


TAGS4 = ["spec_decode_acceptance_length", "spec_decode_token_weighted_acceptance_length",
         "spec_decode_draft_acceptance_rate", "spec_decode_overall_draft_acceptance_rate"]


def intervals(rows, level):
    q = (100 - level) / 2
    out = {}
    for k, tag in enumerate(TAGS4):
        v = sorted(r[k] for r in rows if r[k] is not None)
        if v:
            out[tag] = [percentile(v, q), percentile(v, 100 - q)]
    return out


def boot_rows(recs, seed, g, B):
    return [resample(recs, draws(seed, g, b, len(recs))) if recs else [None] * 4
            for b in range(B)]


# --------------------------------------------------------------------------
# Fixtures: vLLM bodies built from per-step accepted counts

def vllm_record(per_step, k, comp=None, model="m1"):
    hist = [0] * (k + 1)
    for a in per_step:
        hist[a] += 1
    steps, acc = len(per_step), sum(per_step)
    return {"steps": steps, "acc": acc, "drafted": k * steps, "mean": 1 + acc / steps,
            "rate": acc / (k * steps), "hist": hist, "k": k, "comp": comp, "model": model}


def body_line(r):
    sd = {"acceptance_histogram": r["hist"], "num_spec_steps": r["steps"],
          "mean_acceptance_length": r["mean"], "draft_acceptance_rate": r["rate"],
          "num_accepted_draft_tokens": r["acc"], "num_draft_tokens": r["drafted"],
          "num_spec_tokens": r["k"]}
    obj = {"model": r["model"], "choices": [{"index": 0, "message": {"content": "x"}}],
           "metrics": {"speculative_decoding": sd}}
    if r["comp"] is not None:
        obj["usage"] = {"completion_tokens": r["comp"]}
    return json.dumps(obj)


def records_line(r, meta):
    """An AIPerf profile_export.jsonl line with `meta` merged into metadata."""
    md = {"benchmark_phase": "profiling"}
    md.update(meta)
    hist = {str(j): c for j, c in enumerate(r["hist"]) if c}
    rec = {"engine": "vllm", "mean_acceptance_length": r["mean"],
           "draft_acceptance_rate": r["rate"], "acceptance_histogram": hist,
           "num_accepted_draft_tokens": r["acc"], "num_draft_tokens": r["drafted"],
           "num_spec_steps": r["steps"], "num_spec_tokens": r["k"]}
    return json.dumps({"metadata": md, "metrics": {}, "spec_decode_acceptance": rec})


SPEC_A = vllm_record([2, 3, 1, 4, 2, 0, 3, 3], 4, comp=300)
SPEC_B = vllm_record([1, 1, 0], 4, comp=50)


def write(path, lines):
    with open(path, "w") as f:
        f.write("".join(l + "\n" for l in lines))
    return path


def pseudo_records(n, seed, k=4):
    """n vLLM records from a small LCG (deterministic, no random module)."""
    x = seed
    out = []
    for _ in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) & M64
        steps = 1 + (x >> 40) % 9
        per = []
        for _ in range(steps):
            x = (x * 6364136223846793005 + 1442695040888963407) & M64
            per.append((x >> 33) % (k + 1))
        out.append(vllm_record(per, k, comp=1 + (x >> 20) % 700))
    return out


class Positions(Case):
    """SPEC 7.1's test vector: the two records of SPEC 6."""

    def setUp(self):
        self.tmp = TempDir()
        self.dir = self.tmp.__enter__()
        self.path = write(os.path.join(self.dir, "ab.jsonl"),
                          [body_line(SPEC_A), body_line(SPEC_B)])

    def tearDown(self):
        self.tmp.__exit__()

    def test_json_vector(self):
        res = run(["--positions", "--draft-cost", "0.1", self.path])
        self.assertRan(res)
        doc = loads(res.out)
        self.assertEqual(list(doc)[-1], "analysis")
        self.assertEqual(list(doc["analysis"]), ["positions"])
        pos = doc["analysis"]["positions"]
        self.assertEqual(pos["excluded"], {"no_histogram": 0, "no_k": 0, "k_too_large": 0,
                                           "key_above_k": 0, "inconsistent_by_draft_length": 0})
        self.assertEqual(len(pos["by_k"]), 1)
        bk = pos["by_k"][0]
        self.assertEqual(list(bk), ["k", "requests", "steps", "acceptance_length", "positions",
                                    "what_if", "draft_cost", "suggested_k", "model"])
        self.assertEqual((bk["k"], bk["requests"], bk["steps"]), (4, 2, 11))
        self.assertEqual(bk["acceptance_length"].text, "2.8181818181818183")
        self.assertEqual([p["accepted"] for p in bk["positions"]], [9, 6, 4, 1])
        self.assertEqual([p["position"] for p in bk["positions"]], [1, 2, 3, 4])
        self.assertEqual([p["rate"].text for p in bk["positions"]],
                         ["0.8181818181818182", "0.5454545454545454", "0.36363636363636365",
                          "0.09090909090909091"])
        self.assertEqual([p["conditional"].text for p in bk["positions"]],
                         ["0.8181818181818182", "0.6666666666666666", "0.6666666666666666",
                          "0.25"])
        wi = bk["what_if"]
        self.assertEqual([w["k"] for w in wi], [1, 2, 3, 4])
        self.assertEqual([w["acceptance_length"].text for w in wi],
                         ["1.8181818181818183", "2.3636363636363633", "2.7272727272727275",
                          "2.8181818181818183"])
        self.assertEqual([w["draft_acceptance_rate"].text for w in wi],
                         ["81.81818181818183", "68.18181818181817", "57.57575757575758",
                          "45.45454545454545"])
        self.assertEqual([w["speedup"].text for w in wi],
                         ["1.6528925619834711", "1.9696969696969695", "2.097902097902098",
                          "2.012987012987013"])
        self.assertEqual(bk["draft_cost"].text, "0.1")
        self.assertEqual(bk["suggested_k"], 3)
        self.assertEqual(bk["model"], "chain")

    def test_without_cost_no_speedup(self):
        doc = loads(run(["--positions", self.path]).out)
        bk = doc["analysis"]["positions"]["by_k"][0]
        self.assertNotIn("draft_cost", bk)
        self.assertNotIn("suggested_k", bk)
        self.assertEqual(list(bk["what_if"][0]), ["k", "acceptance_length",
                                                  "draft_acceptance_rate"])

    def test_no_option_no_analysis(self):
        doc = loads(run([self.path]).out)
        self.assertNotIn("analysis", doc)
        csv = run(["-f", "csv", self.path]).text
        self.assertNotIn("Position", csv)

    def test_console_lines(self):
        res = run(["--draft-cost", "0.1", "-f", "table", self.path])
        self.assertRan(res)
        lines = res.text.split("\n")
        i = next(n for n, l in enumerate(lines) if l.startswith("  Accepted drafts per step"))
        self.assertEqual(lines[i + 1],
                         "  Acceptance by position (k=4, 11 steps):  1: 82%  2: 55%  3: 36%  4: 9%")
        self.assertEqual(lines[i + 2],
                         "  If the draft were shorter (k=4):  k=1: 1.82  k=2: 2.36  k=3: 2.73"
                         "  k=4: 2.82 tokens/step  speedup k=1: 1.65x  k=2: 1.97x  k=3: 2.10x"
                         "  k=4: 2.01x  suggested k=3")
        self.assertTrue(lines[-2].startswith("  2 requests: 2 with stats"), lines[-2])

    def test_csv_sections(self):
        res = run(["--draft-cost", "0.1", "-f", "csv", self.path])
        self.assertRan(res)
        text = res.text
        want = ("\r\n\r\nk,Position,Accepted,Rate (%),Conditional (%)\r\n"
                "4,1,9,81.82,81.82\r\n4,2,6,54.55,66.67\r\n4,3,4,36.36,66.67\r\n"
                "4,4,1,9.09,25.00\r\n"
                "\r\nk,Draft Length,Acceptance Length,Draft Acceptance Rate (%),Speedup\r\n"
                "4,1,1.82,81.82,1.65\r\n4,2,2.36,68.18,1.97\r\n4,3,2.73,57.58,2.10\r\n"
                "4,4,2.82,45.45,2.01\r\n")
        self.assertTrue(text.endswith(want), text[-600:])

    def test_excluded_counts(self):
        # no histogram (llama.cpp), no k (SGLang-like records line without k),
        # a key above k: counted in that order, not pooled
        no_k = vllm_record([1, 2], 3)
        line_no_k = records_line(no_k, {})
        line_no_k = line_no_k.replace(', "num_spec_tokens": 3', "")
        above = vllm_record([1, 3, 3], 3)
        line_above = records_line(above, {}).replace('"num_spec_tokens": 3', '"num_spec_tokens": 2')
        llama = json.dumps({"content": "x", "timings": {"draft_n": 10, "draft_n_accepted": 4}})
        path = write(os.path.join(self.dir, "ex.jsonl"), [llama])
        path2 = write(os.path.join(self.dir, "ex2.jsonl"), [line_no_k, line_above])
        res = run(["--positions", self.path, path, path2])
        self.assertRan(res)
        pos = loads(res.out)["analysis"]["positions"]
        self.assertEqual(pos["excluded"], {"no_histogram": 1, "no_k": 1, "k_too_large": 0,
                                           "key_above_k": 1,
                                           "inconsistent_by_draft_length": 0})
        self.assertEqual(pos["by_k"][0]["requests"], 2)


class Intervals(Case):
    def test_bootstrap_matches_python(self):
        recs = pseudo_records(37, 5)
        # one llama.cpp-like record: no steps, no acceptance length
        llama = {"steps": None, "acc": 3, "drafted": 8, "mean": None, "rate": 3 / 8}
        with TempDir() as d:
            path = write(os.path.join(d, "r.jsonl"),
                         [body_line(r) for r in recs] +
                         [json.dumps({"content": "x", "timings": {"draft_n": 8,
                                                                  "draft_n_accepted": 3}})])
            res = run(["--ci", "90", "--bootstrap", "60", "--seed", "12345", "-j2", path])
        self.assertRan(res)
        iv = loads(res.out)["analysis"]["intervals"]
        self.assertEqual(list(iv), ["level", "resamples", "seed", "metrics"])
        self.assertEqual((iv["level"], iv["resamples"], iv["seed"]), (90, 60, 12345))
        want = intervals(boot_rows(recs + [llama], 12345, 0, 60), 90)
        self.assertEqual(list(iv["metrics"]), TAGS4)
        for tag in TAGS4:
            self.assertEqual([x.text for x in iv["metrics"][tag]],
                             [pyrepr(x) for x in want[tag]], tag)

    def test_default_seed_and_fractional_level(self):
        recs = pseudo_records(9, 77)
        with TempDir() as d:
            path = write(os.path.join(d, "r.jsonl"), [body_line(r) for r in recs])
            res = run(["--ci", "99.5", "--bootstrap", "25", path])
            csv = run(["--ci", "99.5", "--bootstrap", "25", "-f", "csv", path]).text
        self.assertRan(res)
        iv = loads(res.out)["analysis"]["intervals"]
        self.assertEqual(iv["level"].text, "99.5")
        self.assertEqual(iv["seed"], 1)
        want = intervals(boot_rows(recs, 1, 0, 25), 99.5)
        for tag in TAGS4:
            self.assertEqual([x.text for x in iv["metrics"][tag]],
                             [pyrepr(x) for x in want[tag]], tag)
        self.assertIn("\r\n\r\nMetric,Level,Low,High\r\n", csv)
        self.assertIn("Acceptance Length (ratio),99.50,%.2f,%.2f\r\n"
                      % tuple(want[TAGS4[0]]), csv)


def meta_fixture(d):
    """Records lines whose metadata.tag covers every type, in scrambled order."""
    recs = pseudo_records(9, 3)
    metas = [{"tag": "b"}, {"tag": 10}, {}, {"tag": True}, {"tag": "a"}, {"tag": 3},
             {"tag": False}, {"tag": 2.5}, {"tag": [1]}]
    return recs, metas, write(os.path.join(d, "meta.jsonl"),
                              [records_line(r, m) for r, m in zip(recs, metas)])


class Groups(Case):
    def test_order_of_values(self):
        with TempDir() as d:
            recs, metas, path = meta_fixture(d)
            res = run(["--group-by", "meta.tag", path])
        self.assertRan(res)
        g = loads(res.out)["analysis"]["groups"]
        self.assertEqual(g["by"], ["meta.tag"])
        self.assertNotIn("baseline", g)
        keys = [r["key"]["meta.tag"] for r in g["rows"]]
        # null (missing, 2.5, [1]) < false < true < 3 < 10 < "a" < "b"
        self.assertEqual(keys, [None, False, True, 3, 10, "a", "b"])
        null_row = g["rows"][0]
        self.assertEqual(null_row["requests"]["total"], 3)
        self.assertEqual(null_row["requests"]["ok"], 3)
        # the null group's metrics are those of records 2, 7, 8
        sub = [recs[i] for i in (2, 7, 8)]
        self.assertNum(null_row["spec_decode_acceptance_length"]["avg"],
                       sum(r["mean"] for r in sub) / 3)
        tw = 1 + sum(r["acc"] for r in sub) / sum(r["steps"] for r in sub)
        self.assertNum(null_row["spec_decode_token_weighted_acceptance_length"]["avg"], tw)

    def test_osl_and_two_keys(self):
        recs = [vllm_record([1], 2, comp=c) for c in (300, 1, 0, 256, 255, None, 2, 3)]
        with TempDir() as d:
            path = write(os.path.join(d, "o.jsonl"), [body_line(r) for r in recs])
            res = run(["--group-by", "osl,input", path])
        self.assertRan(res)
        rows = loads(res.out)["analysis"]["groups"]["rows"]
        # usage.completion_tokens 0 gives no completion_tokens: null like a missing one
        self.assertEqual([(r["key"]["osl"], r["requests"]["total"]) for r in rows],
                         [(None, 2), (1, 1), (2, 2), (128, 1), (256, 2)])
        self.assertEqual(list(rows[0]["key"]), ["osl", "input"])

    def test_group_accounting_and_phase(self):
        with TempDir() as d:
            lines = [records_line(SPEC_A, {}), records_line(SPEC_B, {"benchmark_phase": "warmup"}),
                     "not json"]
            path = write(os.path.join(d, "p.jsonl"), lines)
            res = run(["--group-by", "phase", path])
        self.assertRan(res)
        rows = loads(res.out)["analysis"]["groups"]["rows"]
        self.assertEqual([r["key"]["phase"] for r in rows], ["profiling", "warmup"])
        self.assertEqual(rows[0]["requests"]["total"], 2)
        self.assertEqual(rows[0]["requests"]["unparsable"], 1)
        # warmup requests are accounted in their group but feed no main results
        self.assertEqual(rows[1]["requests"]["ok"], 1)
        self.assertNotIn("spec_decode_acceptance_length", rows[1])

    def test_model_key(self):
        # raw line: payload.model first; else the first object naming one;
        # bodies and SSE streams: their objects' model
        def raw_line(payload_model, chunk_model):
            chunk = json.loads(body_line(vllm_record([1, 2], 3, model=chunk_model)))
            pl = {"messages": []}
            if payload_model is not None:
                pl["model"] = payload_model
            return json.dumps({"metadata": {"benchmark_phase": "profiling"}, "payload": pl,
                               "responses": [{"perf_ns": 1, "packets": [
                                   {"name": "data", "value": json.dumps(chunk)}]}]})
        sse = "data: %s\n\ndata: [DONE]\n\n" % body_line(vllm_record([2], 2, model="s-model"))
        with TempDir() as d:
            raw = write(os.path.join(d, "raw.jsonl"),
                        [raw_line("p-model", "c-model"), raw_line(None, "c-model"),
                         raw_line(7, "c-model"), body_line(vllm_record([1], 2, model="b"))])
            ssep = os.path.join(d, "s.sse")
            with open(ssep, "w") as f:
                f.write(sse)
            res = run(["--group-by", "model", raw, ssep])
        self.assertRan(res)
        rows = loads(res.out)["analysis"]["groups"]["rows"]
        self.assertEqual([(r["key"]["model"], r["requests"]["total"]) for r in rows],
                         [("b", 1), ("c-model", 2), ("p-model", 1), ("s-model", 1)])

    def test_groups_from_partial_results(self):
        # SPEC 8.1: enriched lines group by their source.input (and model),
        # so a merge of partials gives the groups of one run
        with TempDir() as d:
            a = write(os.path.join(d, "a.jsonl"), [body_line(r) for r in pseudo_records(20, 4)])
            b = write(os.path.join(d, "b.jsonl"), [body_line(SPEC_A), body_line(SPEC_B)])
            opts = ["--group-by", "input,model", "--positions", "--ci", "90", "--bootstrap", "30"]
            one = run(opts + [a, b])
            parts = []
            for i, path in enumerate((a, b)):
                part = os.path.join(d, "part-%d.jsonl" % i)
                self.assertRan(run(["-f", "none", "--records", part, path]))
                parts.append(part)
            merged = run(opts + parts)
        self.assertRan(one)
        self.assertRan(merged)
        self.assertEqual(loads(merged.out)["analysis"], loads(one.out)["analysis"])
        self.assertEqual([r["key"]["input"] for r in
                          loads(merged.out)["analysis"]["groups"]["rows"]], [a, b])

    def test_group_table_console(self):
        with TempDir() as d:
            a = write(os.path.join(d, "a.jsonl"), [body_line(SPEC_A)])
            b = write(os.path.join(d, "b.jsonl"), [body_line(SPEC_B)])
            # wide enough for one line per group (test_width.py fits it)
            res = run(["--group-by", "input", "-f", "table", a, b], env={"COLUMNS": "200"})
        self.assertRan(res)
        text = res.text
        self.assertIn("Spec Decode by input\n", text)
        row = [l for l in text.split("\n") if a in l][0]
        cells = [c.strip() for c in row.split("│")[1:-1]]
        self.assertEqual(cells, [a, "1", "1", "3.25", "3.25", "3.25", "56.25", "56.25"])

    def test_usage_errors(self):
        for args in (["--group-by", "bogus"], ["--group-by", ""], ["--group-by", "k,k"],
                     ["--compare", "x"], ["--group-by", "k,input", "--compare", "4"],
                     ["--ci", "0"], ["--ci", "100"], ["--ci", "abc"], ["--bootstrap", "0"],
                     ["--bootstrap", "1000001"], ["--seed", "-1"],
                     ["--seed", "18446744073709551616"], ["--draft-cost", "-0.5"],
                     ["--draft-cost", "nan"], ["--expect", "bogus>=1"],
                     ["--expect", "spec_decode_acceptance_length=3"]):
            with self.subTest(args=args):
                res = run(args + ["/dev/null"])
                self.assertEqual(res.rc, 2, res)
                self.assertTrue(res.errtext.startswith("specscan: "), res.errtext)
                self.assertEqual(res.out, b"")


class Compare(Case):
    def test_missing_baseline_lists_groups(self):
        with TempDir() as d:
            a = write(os.path.join(d, "a.jsonl"), [body_line(SPEC_A)])
            b = write(os.path.join(d, "b.jsonl"), [body_line(SPEC_B)])
            out = os.path.join(d, "out.json")
            res = run(["--group-by", "input", "--compare", "c.jsonl", "--json", out, a, b])
            self.assertEqual(res.rc, 2, res)
            self.assertIn("c.jsonl", res.errtext)
            self.assertIn("%s, %s" % (a, b), res.errtext)
            self.assertFalse(os.path.exists(out), "no report on a usage error")

    def test_deltas_and_intervals(self):
        base = pseudo_records(23, 11, k=3)
        other = pseudo_records(31, 12, k=3)
        B = 40
        with TempDir() as d:
            a = write(os.path.join(d, "a.jsonl"), [body_line(r) for r in base])
            b = write(os.path.join(d, "b.jsonl"), [body_line(r) for r in other])
            res = run(["--group-by", "input", "--compare", a, "--ci", "80", "--bootstrap",
                       str(B), "--seed", "9", a, b])
        self.assertRan(res)
        g = loads(res.out)["analysis"]["groups"]
        self.assertEqual(g["baseline"], {"input": a})
        rows = {r["key"]["input"]: r for r in g["rows"]}
        self.assertNotIn("vs_baseline", rows[a])
        vs = rows[b]["vs_baseline"]
        self.assertEqual(list(vs), TAGS4)
        # groups in their order: a is g = 1, b is g = 2
        ra, rb = boot_rows(base, 9, 1, B), boot_rows(other, 9, 2, B)
        q = (100 - 80) / 2

        def value(recs, k):
            if k == 0:
                return sum(r["mean"] for r in recs) / len(recs)
            if k == 1:
                return 1 + sum(r["acc"] for r in recs) / sum(r["steps"] for r in recs)
            if k == 2:
                s = 0.0
                for r in recs:
                    s += r["rate"] * 100.0
                return s / len(recs)
            return sum(r["acc"] for r in recs) / sum(r["drafted"] for r in recs) * 100.0

        for k, tag in enumerate(TAGS4):
            diffs = sorted(y[k] - x[k] for x, y in zip(ra, rb))
            lo, hi = percentile(diffs, q), percentile(diffs, 100 - q)
            self.assertEqual(vs[tag]["delta"].text, pyrepr(value(other, k) - value(base, k)), tag)
            self.assertEqual([x.text for x in vs[tag]["ci"]], [pyrepr(lo), pyrepr(hi)], tag)
            self.assertIs(vs[tag]["significant"], lo > 0 or hi < 0, tag)
        # each group's own intervals use its own stream
        want = intervals(ra, 80)
        self.assertEqual([x.text for x in rows[a]["intervals"]["metrics"][TAGS4[0]]],
                         [pyrepr(x) for x in want[TAGS4[0]]])

    def test_compare_integer_and_null_values(self):
        recs = [vllm_record([1], 2), vllm_record([2, 1], 3)]
        with TempDir() as d:
            path = write(os.path.join(d, "k.jsonl"), [body_line(r) for r in recs] + ["{}"])
            res = run(["--group-by", "k", "--compare", "3", path])
            res_null = run(["--group-by", "k", "--compare", "null", path])
        self.assertRan(res)
        g = loads(res.out)["analysis"]["groups"]
        self.assertEqual(g["baseline"], {"k": 3})
        self.assertEqual([r["key"]["k"] for r in g["rows"]], [None, 2, 3])
        self.assertRan(res_null)
        self.assertEqual(loads(res_null.out)["analysis"]["groups"]["baseline"], {"k": None})


class Expect(Case):
    def setUp(self):
        self.tmp = TempDir()
        d = self.tmp.__enter__()
        self.path = write(os.path.join(d, "ab.jsonl"), [body_line(SPEC_A), body_line(SPEC_B)])

    def tearDown(self):
        self.tmp.__exit__()

    def test_pass(self):
        res = run(["--expect", "spec_decode_acceptance_length>=2.45",
                   "--expect", "spec_decode_overall_draft_acceptance_rate<46",
                   "--expect", "spec_decode_zero_step_requests<=0",  # absent counts as 0
                   "--expect", "position1>0.8", self.path])
        self.assertRan(res)
        self.assertNotIn("analysis", loads(res.out))

    def test_fail_names_each(self):
        res = run(["--expect", "spec_decode_acceptance_length>=3.3",
                   "--expect", "spec_decode_draft_tokens<22",
                   "--expect", "spec_decode_steps>5", self.path])
        self.assertEqual(res.rc, 4, res)
        self.assertIn("spec_decode_acceptance_length>=3.3", res.errtext)
        self.assertIn("spec_decode_draft_tokens<22", res.errtext)
        self.assertNotIn("spec_decode_steps>5", res.errtext)
        self.assertIn("spec_decode_acceptance_length", loads(res.out))  # report written

    def test_absent_metric_fails(self):
        for expr in ("position5>=0", "spec_decode_zero_step_requests>=1"):
            with self.subTest(expr=expr):
                res = run(["--expect", expr, self.path])
                self.assertEqual(res.rc, 4, res)
                self.assertIn(expr, res.errtext)
        llama = json.dumps({"content": "x", "timings": {"draft_n": 10, "draft_n_accepted": 4}})
        res = run(["--expect", "spec_decode_acceptance_length>0"], stdin=(llama + "\n").encode())
        self.assertEqual(res.rc, 4, res)

    def test_exit_1_takes_precedence(self):
        res = run(["--expect", "spec_decode_acceptance_length>=9", self.path,
                   "/nonexistent/x.jsonl"])
        self.assertEqual(res.rc, 1, res)
        self.assertIn("expectation failed", res.errtext)


class Markdown(Case):
    def test_tables(self):
        with TempDir() as d:
            a = write(os.path.join(d, "a.jsonl"), [body_line(SPEC_A)])
            b = write(os.path.join(d, "b.jsonl"), [body_line(SPEC_B)])
            res = run(["-f", "markdown", "--draft-cost", "0.1", "--ci", "95", "--group-by",
                       "input", "--compare", a, a, b])
        self.assertRan(res)
        lines = res.text.split("\n")
        self.assertEqual(lines[0], "## Spec Decode")
        self.assertIn("| Metric | avg | min | max | p99 | p90 | p50 | std |", lines)
        self.assertIn("| :--- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |", lines)
        self.assertIn("| Acceptance Length (ratio) | 2.46 | 1.67 | 3.25 | 3.23 | 3.09 | 2.46 "
                      "| 0.79 |", lines)
        self.assertIn("| Token-Weighted Acceptance Length (ratio) | 2.82 | N/A | N/A | N/A "
                      "| N/A | N/A | N/A |", lines)
        self.assertIn("Accepted drafts per step (% of steps):  0: 18%   1: 27%   2: 18%   "
                      "3: 27%   4: 9%", lines)
        self.assertIn("2 requests: 2 with stats", lines)
        self.assertIn("### Acceptance by position (k=4, 11 steps)", lines)
        self.assertIn("| 1 | 9 | 82% | 82% |", lines)
        self.assertIn("| 3 | 2.73 | 57.58 | 2.10x |", lines)
        self.assertIn("### 95% intervals (1,000 resamples)", lines)
        self.assertIn("### Spec Decode by input", lines)
        # one request per group: every resample is that request, so each
        # group's interval is its value (AL interval 3.25-3.25), and each
        # difference's interval is the difference itself, which is not 0
        self.assertIn("| %s | 1 | 1 | 3.25 | 3.25 | 3.25–3.25 | 3.25 | 56.25 | 56.25 | baseline "
                      "|  |  |  |" % md_text(a), lines)
        self.assertIn("| %s | 1 | 1 | 1.67 | 1.67 | 1.67–1.67 | 1.67 | 16.67 | 16.67 | -1.58\\* "
                      "| -1.58\\* | -39.58\\* | -39.58\\* |" % md_text(b), lines)
        self.assertIn("| input | requests | with stats | AL avg | AL p50 | AL interval | TWAL | "
                      "DAR avg (%) | ODAR (%) | Δ AL | Δ TWAL | Δ DAR (pp) | Δ ODAR (pp) |", lines)
        self.assertTrue(res.text.endswith("\n") and not res.text.endswith("\n\n"))

    def test_csv_deltas(self):
        # issue 23 item 8: the CSV carries the differences too, the rates'
        # in percentage points: b - a = 1.67 - 3.25 = -1.58 tokens, 16.67 -
        # 56.25 = -39.58 pp; with one request each, interval = difference
        with TempDir() as d:
            a = write(os.path.join(d, "a.jsonl"), [body_line(SPEC_A)])
            b = write(os.path.join(d, "b.jsonl"), [body_line(SPEC_B)])
            res = run(["-f", "csv", "--ci", "95", "--group-by", "input", "--compare", a, a, b])
            self.assertRan(res)
            tail = res.text.split("\r\n\r\n")[-1].split("\r\n")
            self.assertEqual(tail, [
                "input,Difference from the baseline,Delta,Low,High,Significant",
                "%s,Acceptance Length (ratio),-1.58,-1.58,-1.58,true" % b,
                "%s,Token-Weighted Acceptance Length (ratio),-1.58,-1.58,-1.58,true" % b,
                "%s,Draft Acceptance Rate (pp),-39.58,-39.58,-39.58,true" % b,
                "%s,Overall Draft Acceptance Rate (pp),-39.58,-39.58,-39.58,true" % b, ""])
            # without --ci: the differences alone
            res = run(["-f", "csv", "--group-by", "input", "--compare", a, a, b])
            tail = res.text.split("\r\n\r\n")[-1].split("\r\n")
            self.assertEqual(tail[1], "%s,Acceptance Length (ratio),-1.58,,," % b)


def md_text(path):
    """A temporary path as -f markdown shows it: the markup characters
    GitHub-flavoured Markdown could read (escape.h's list) get a backslash;
    mkdtemp names may hold `_`."""
    return re.sub(r"([\\`*_\[\]|~$])", r"\\\1", path)


def variable_lines(n, seed, k=4):
    """n vLLM bodies with variable draft lengths (SPEC 7.9: per-step arrays
    on even records, by-length rows on odd ones) and prompt tokens (7.10)."""
    x = seed
    out = []
    for i in range(n):
        steps = []
        for _ in range(1 + i % 7):
            x = (x * 6364136223846793005 + 1442695040888963407) & M64
            d = 1 + (x >> 40) % k
            steps.append((d, (x >> 20) % (d + 1)))
        hist = [0] * (k + 1)
        for _, a in steps:
            hist[a] += 1
        acc, dr = sum(a for _, a in steps), sum(d for d, _ in steps)
        sd = {"acceptance_histogram": hist, "num_spec_steps": len(steps),
              "mean_acceptance_length": 1 + acc / len(steps), "draft_acceptance_rate": acc / dr,
              "num_accepted_draft_tokens": acc, "num_draft_tokens": dr, "num_spec_tokens": k}
        if i % 2 == 0:
            sd["per_step_accepted"] = [a for _, a in steps]
            sd["per_step_drafted"] = [d for d, _ in steps]
        else:
            rows = {}
            for d, a in steps:
                rows.setdefault(str(d), [0] * (d + 1))[a] += 1
            sd["acceptance_histogram_by_draft_length"] = rows
        out.append(json.dumps({"model": "v", "choices": [{"index": 0, "message": {"content": "x"}}],
                               "usage": {"prompt_tokens": (x >> 30) % 5000,
                                         "completion_tokens": 1 + (x >> 12) % 900},
                               "metrics": {"speculative_decoding": sd}}))
    return out


class Determinism(Case):
    def test_j1_j2_every_option(self):
        with TempDir() as d:
            a = write(os.path.join(d, "a.jsonl"), [body_line(r) for r in pseudo_records(300, 1)])
            b = write(os.path.join(d, "b.jsonl"), [body_line(r) for r in pseudo_records(200, 2)])
            v = write(os.path.join(d, "v.jsonl"), variable_lines(250, 3))
            recs, metas, m = meta_fixture(d)
            opts = ["--positions", "--draft-cost", "0.05", "--ci", "90", "--bootstrap", "150",
                    "--seed", "42", "--group-by", "input", "--compare", a,
                    "--expect", "spec_decode_acceptance_length>=1", "--definitions"]
            for fmt in ("json", "csv", "table", "markdown"):
                one = run(["-j1", "-f", fmt] + opts + [a, b, v, m])
                self.assertRan(one)
                for j in ("-j2", "-j3"):
                    two = run([j, "-f", fmt] + opts + [a, b, v, m])
                    self.assertRan(two)
                    self.assertEqual(one.out, two.out, "%s %s" % (fmt, j))
            # the parts of 7.9, 7.10 and 7.12 are there to compare
            an = loads(run(["-j1"] + opts + [a, b, v, m]).out)
            self.assertIn("drafted", an["analysis"]["positions"])
            self.assertEqual(an["analysis"]["definitions"]["with_prefill"]["requests"], 750)
            multi = ["--positions", "--ci", "95", "--bootstrap", "50", "--group-by",
                     "meta.tag,k,osl,isl,engine,phase,model", "--definitions"]
            one = run(["-j1"] + multi + [a, v, m])
            two = run(["-j2"] + multi + [a, v, m])
            self.assertRan(one)
            self.assertEqual(one.out, two.out)


if __name__ == "__main__":
    main()
