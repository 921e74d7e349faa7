#!/usr/bin/env python3
"""SPEC 7.9, 7.10 and 7.12: drafted per position for variable draft lengths,
the `prompt_tokens` of the record and the `isl` group key, and the
definitions of acceptance length side by side.

Every expected number is worked out by hand in the comments next to it
from the records written here, never taken from specscan's output."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, jsonl_lines, loads, main, run, td


def write(path, lines):
    with open(path, "w") as f:
        f.write("".join(l + "\n" for l in lines))
    return path


def sd_payload(per_step, k, psd=None, bdl=None):
    """A vLLM payload whose steps accepted `per_step`; with `psd`, per-step
    arrays; with `bdl`, acceptance_histogram_by_draft_length as given."""
    hist = [0] * (k + 1)
    for a in per_step:
        hist[a] += 1
    steps, acc = len(per_step), sum(per_step)
    drafted = sum(psd) if psd is not None else k * steps
    sd = {"acceptance_histogram": hist, "num_spec_steps": steps,
          "mean_acceptance_length": 1 + acc / steps if steps else 1.0,
          "draft_acceptance_rate": acc / drafted if drafted else 0.0,
          "num_accepted_draft_tokens": acc, "num_draft_tokens": drafted,
          "num_spec_tokens": k}
    if psd is not None:
        sd["per_step_accepted"] = list(per_step)
        sd["per_step_drafted"] = list(psd)
    if bdl is not None:
        sd["acceptance_histogram_by_draft_length"] = bdl
    return sd


def body(sd, usage=None, model="m1"):
    obj = {"model": model, "choices": [{"index": 0, "message": {"content": "x"}}],
           "metrics": {"speculative_decoding": sd}}
    if usage is not None:
        obj["usage"] = usage
    return json.dumps(obj)


class ContextLength(Case):
    """7.10: prompt_tokens from usage (prompt_tokens, else input_tokens), the
    isl buckets 2^floor(log2 p), null when absent or 0."""

    USAGES = [
        {"prompt_tokens": 300, "completion_tokens": 5},        # 300 -> isl 256
        {"prompt_tokens": 0, "completion_tokens": 5},          # 0 kept, isl null
        {"prompt_tokens": -5, "input_tokens": 40},             # negative: input_tokens 40 -> 32
        {"input_tokens": 1},                                   # 1 -> 1
        {"prompt_tokens": 9223372036854775808},                # past 2^63-1: absent, null
        {"prompt_tokens": "12"},                               # not an integer: absent
        {"prompt_tokens": 1.5, "input_tokens": 3},             # 3 -> 2
        {"prompt_tokens": 256},                                # 256 -> 256
        None,                                                  # no usage: null
    ]
    PROMPTS = [300, 0, 40, 1, None, None, 3, 256, None]

    def fixture(self, d):
        lines = [body(sd_payload([1, 2], 2), u) for u in self.USAGES]
        return write(os.path.join(d, "ctx.jsonl"), lines)

    def test_record_keeps_prompt_tokens(self):
        with TempDir() as d:
            res = run(["-f", "jsonl", self.fixture(d)])
        self.assertRan(res)
        lines = jsonl_lines(res)
        self.assertEqual([l["spec_decode_status"] for l in lines], ["ok"] * 9)
        got = [l["spec_decode_acceptance"].get("prompt_tokens") for l in lines]
        self.assertEqual(got, self.PROMPTS)
        # after completion_tokens (7.10), before the per-step arrays
        keys = list(lines[0]["spec_decode_acceptance"])
        self.assertEqual(keys[keys.index("completion_tokens") + 1], "prompt_tokens")

    def test_isl_groups(self):
        with TempDir() as d:
            res = run(["--group-by", "isl", self.fixture(d)])
        self.assertRan(res)
        rows = loads(res.out)["analysis"]["groups"]["rows"]
        # null: records 2, 5, 6, 9; 1: record 4; 2: record 7; 32: record 3; 256: 1 and 8
        self.assertEqual([(r["key"]["isl"], r["requests"]["total"]) for r in rows],
                         [(None, 4), (1, 1), (2, 1), (32, 1), (256, 2)])

    def test_records_line_and_read_back(self):
        rec = {"engine": "vllm", "mean_acceptance_length": 2.0, "draft_acceptance_rate": 0.5,
               "acceptance_histogram": {"1": 2}, "num_accepted_draft_tokens": 2,
               "num_draft_tokens": 4, "num_spec_steps": 2, "num_spec_tokens": 2,
               "completion_tokens": 7, "prompt_tokens": 1000}
        line = json.dumps({"metadata": {"benchmark_phase": "profiling"}, "metrics": {},
                           "spec_decode_acceptance": rec})
        with TempDir() as d:
            path = write(os.path.join(d, "r.jsonl"), [line])
            res = run(["--group-by", "isl", "--records", os.path.join(d, "e.jsonl"), path])
            self.assertRan(res)
            # 1000 -> 512
            rows = loads(res.out)["analysis"]["groups"]["rows"]
            self.assertEqual([r["key"]["isl"] for r in rows], [512])
            with open(os.path.join(d, "e.jsonl")) as f:
                (e,) = [json.loads(l) for l in f]
            self.assertEqual(e["spec_decode_acceptance"]["prompt_tokens"], 1000)
            # the enriched line read back keeps it: the same group
            res2 = run(["--group-by", "isl", os.path.join(d, "e.jsonl")])
            self.assertRan(res2)
            rows2 = loads(res2.out)["analysis"]["groups"]["rows"]
            self.assertEqual([(r["key"]["isl"], r["requests"]["ok"]) for r in rows2], [(512, 1)])

    def test_records_line_bad_prompt_tokens(self):
        # a records line's own record is a record: a negative count is malformed (2.4)
        rec = {"engine": "vllm", "draft_acceptance_rate": 0.5, "num_accepted_draft_tokens": 2,
               "num_draft_tokens": 4, "prompt_tokens": -1}
        line = json.dumps({"metadata": {"benchmark_phase": "profiling"}, "metrics": {},
                           "spec_decode_acceptance": rec})
        with TempDir() as d:
            res = run(["-f", "jsonl", write(os.path.join(d, "r.jsonl"), [line])])
        self.assertRan(res)
        (l,) = jsonl_lines(res)
        self.assertEqual(l["spec_decode_status"], "malformed")
        self.assertIn("prompt_tokens", l["spec_decode_reason"])


class DraftedPositions(Case):
    """7.9 with --positions: per-step arrays and vLLM's by-length rows."""

    def fixture(self, d):
        # R1: steps (drafted, accepted) (3,3) (3,1) (2,0) by per-step arrays
        r1 = sd_payload([3, 1, 0], 3, psd=[3, 3, 2])
        # R2: the same steps as by-length rows: h_2 = [1,0,0], h_3 = [0,1,0,1]
        r2 = sd_payload([3, 1, 0], 3, bdl={"3": [0, 1, 0, 1], "2": [1, 0, 0]})
        # R3: both forms; read from its per-step arrays (7.13): (2,2) (2,0)
        r3 = sd_payload([2, 0], 3, psd=[2, 2], bdl={"1": [5, 5]})
        # R4: rows summing to 1 for 2 steps: left out, counted
        r4 = sd_payload([1, 0], 3, bdl={"3": [1, 0, 0, 0]})
        # R5: neither form
        r5 = sd_payload([1, 2], 3)
        lines = [body(r1, model="a"), body(r2, model="a"), body(r3, model="b"),
                 body(r4, model="b"), body(r5, model="b")]
        return write(os.path.join(d, "var.jsonl"), lines)

    def test_json(self):
        with TempDir() as d:
            res = run(["--positions", "--group-by", "model", self.fixture(d)])
        self.assertRan(res)
        pos = loads(res.out)["analysis"]["positions"]
        self.assertEqual(list(pos), ["excluded", "by_k", "drafted"])
        self.assertEqual(list(pos["excluded"]), ["no_histogram", "no_k", "k_too_large",
                                                 "key_above_k", "inconsistent_by_draft_length"])
        self.assertEqual(pos["excluded"]["inconsistent_by_draft_length"], 1)
        dr = pos["drafted"]
        # R1, R2, R3: 8 steps. D = 8, 8, 4 (d >= 3 on the 3-token steps of R1, R2);
        # S = 5, 3, 2. Rates 5/8, 3/8, 2/4; conditional 5/8, 3/5, 2/3.
        self.assertEqual((dr["requests"], dr["steps"]), (3, 8))
        want = [(1, 8, 5, 0.625, 0.625), (2, 8, 3, 0.375, 0.6), (3, 4, 2, 0.5, 2 / 3)]
        got = [(p["position"], p["drafted"], p["accepted"], p["rate"], p["conditional"])
               for p in dr["positions"]]
        self.assertEqual(got, want)
        self.assertEqual(list(dr["positions"][0]),
                         ["position", "drafted", "accepted", "rate", "conditional"])
        rows = loads(res.out)["analysis"]["groups"]["rows"]
        a, b = rows
        # a: R1 + R2: 6 steps; D = 6, 6, 4; S = 4, 2, 2
        self.assertEqual([(p["drafted"], p["accepted"], p["rate"])
                          for p in a["positions"]["drafted"]["positions"]],
                         [(6, 4, 4 / 6), (6, 2, 2 / 6), (4, 2, 0.5)])
        self.assertEqual(a["positions"]["excluded"]["inconsistent_by_draft_length"], 0)
        # b: R3 only (R4 left out): 2 steps; D = 2, 2; S = 1, 1
        self.assertEqual([(p["drafted"], p["accepted"], p["rate"], p["conditional"])
                          for p in b["positions"]["drafted"]["positions"]],
                         [(2, 1, 0.5, 0.5), (2, 1, 0.5, 1.0)])
        self.assertEqual(b["positions"]["drafted"]["requests"], 1)
        self.assertEqual(b["positions"]["excluded"]["inconsistent_by_draft_length"], 1)

    def test_absent_without_such_records(self):
        with TempDir() as d:
            path = write(os.path.join(d, "plain.jsonl"), [body(sd_payload([1, 2], 3))])
            res = run(["--positions", path])
        self.assertRan(res)
        pos = loads(res.out)["analysis"]["positions"]
        self.assertNotIn("drafted", pos)
        self.assertEqual(pos["excluded"]["inconsistent_by_draft_length"], 0)

    def test_console_csv_markdown(self):
        with TempDir() as d:
            path = self.fixture(d)
            table = run(["-f", "table", "--positions", path])
            csv = run(["-f", "csv", "--positions", path])
            md = run(["-f", "markdown", "--positions", path])
        for r in (table, csv, md):
            self.assertRan(r)
        # 62.5 and 37.5 print as 62 and 38 (%.0f, ties to even)
        self.assertIn("  Acceptance by position, per drafted token (3 requests, 8 steps):"
                      "  1: 62% of 8  2: 38% of 8  3: 50% of 4\n", table.text)
        self.assertIn("\r\n\r\nPosition,Drafted,Accepted,Rate (%),Conditional (%)\r\n"
                      "1,8,5,62.50,62.50\r\n2,8,3,37.50,60.00\r\n3,4,2,50.00,66.67\r\n",
                      csv.text)
        self.assertIn("### Acceptance by position, per drafted token (3 requests, 8 steps)",
                      md.text)
        self.assertRegex(md.text, r"\| *3 \| *4 \| *2 \| *50% \| *67% \|")

    def test_html(self):
        with TempDir() as d:
            page = os.path.join(d, "p.html")
            res = run(["-f", "none", "--html", page, self.fixture(d)])
            self.assertRan(res)
            with open(page, encoding="utf-8") as f:
                text = f.read()
        self.assertIn('<title id="c-drafted-t">Acceptance per drafted token</title>', text)
        # the table beside it: the numbers of test_json
        for row in ("<tr><td>1</td><td>8</td><td>5</td><td>62.50</td><td>62.50</td></tr>",
                    "<tr><td>2</td><td>8</td><td>3</td><td>37.50</td><td>60.00</td></tr>",
                    "<tr><td>3</td><td>4</td><td>2</td><td>50.00</td><td>66.67</td></tr>"):
            self.assertIn(row, text)
        # after 7.1's chart, in the same section
        self.assertLess(text.index('<title id="c-pos-t">Acceptance by draft position'),
                        text.index('<title id="c-drafted-t">'))

    def test_record_round_trip(self):
        with TempDir() as d:
            res = run(["-f", "jsonl", self.fixture(d)])
        self.assertRan(res)
        lines = jsonl_lines(res)
        rec = lines[1]["spec_decode_acceptance"]
        # kept after per_step_drafted, keys ascending
        self.assertEqual(list(rec)[-1], "acceptance_histogram_by_draft_length")
        self.assertEqual(list(rec["acceptance_histogram_by_draft_length"].items()),
                         [("2", [1, 0, 0]), ("3", [0, 1, 0, 1])])
        # R4's rows are kept even though they do not sum to its steps
        self.assertEqual(lines[3]["spec_decode_acceptance"]["acceptance_histogram_by_draft_length"],
                         {"3": [1, 0, 0, 0]})
        self.assertEqual(lines[3]["spec_decode_status"], "ok")

    def test_bad_shapes_are_malformed(self):
        bad = [{"2": [1, 0]}, [1, 2], {"01": [1, 1]}, {"1": 3}, {"1": [1, -1]}, {"x": []}]
        with TempDir() as d:
            lines = [body(sd_payload([1, 0], 2, bdl=b)) for b in bad]
            lines.append(body(sd_payload([1, 0], 2, bdl=None)))
            res = run(["-f", "jsonl", write(os.path.join(d, "bad.jsonl"), lines)])
        self.assertRan(res)
        out = jsonl_lines(res)
        self.assertEqual([l["spec_decode_status"] for l in out], ["malformed"] * 6 + ["ok"])
        for l in out[:6]:
            self.assertIn("acceptance_histogram_by_draft_length", l["spec_decode_reason"])
        self.assertIn("has 2 counts, not 3", out[0]["spec_decode_reason"])


class Definitions(Case):
    """7.12: four definitions of acceptance length over the same records."""

    def fixture(self, d, only_r3=False):
        # R1: SPEC 6's record A (a 18, s 8), 300 completion tokens: AL 3.25
        r1 = body(sd_payload([2, 3, 1, 4, 2, 0, 3, 3], 4), {"completion_tokens": 300})
        # R2: record B (a 2, s 3), 50 completion tokens: AL 1 + 2/3
        r2 = body(sd_payload([1, 1, 0], 4), {"completion_tokens": 50}, model="m2")
        # R3: a 1, s 2, no usage: AL 1.5
        r3 = body(sd_payload([1, 0], 2))
        # R4: llama.cpp without steps: in no definition
        r4 = json.dumps({"choices": [{"index": 0, "message": {"content": "y"}}],
                         "timings": {"draft_n": 10, "draft_n_accepted": 5},
                         "usage": {"completion_tokens": 20}})
        lines = [r3] if only_r3 else [r1, r2, r3, r4]
        return write(os.path.join(d, "defs.jsonl"), lines)

    # the same sums specscan is to do, in input order, written out here
    REQUEST_MEAN = (3.25 + (1 + 2 / 3) + 1.5) / 3
    STEP_POOLED = 1 + (18 + 2 + 1) / (8 + 3 + 2)
    OUTPUT_WEIGHTED = (300 * 3.25 + 50 * (1 + 2 / 3)) / 350
    WITH_PREFILL = (300 / 8 + 50 / 3) / 2

    def test_json(self):
        with TempDir() as d:
            res = run(["--definitions", "--positions", "--ci", "95", "--bootstrap", "10",
                       "--group-by", "model", self.fixture(d)])
        self.assertRan(res)
        an = loads(res.out)["analysis"]
        self.assertEqual(list(an), ["positions", "intervals", "groups", "definitions"])
        defs = an["definitions"]
        self.assertEqual(list(defs), ["request_mean", "step_pooled", "output_weighted",
                                      "with_prefill"])
        want = {"request_mean": (self.REQUEST_MEAN, 3), "step_pooled": (self.STEP_POOLED, 3),
                "output_weighted": (self.OUTPUT_WEIGHTED, 2),
                "with_prefill": (self.WITH_PREFILL, 2)}
        for name, (value, n) in want.items():
            self.assertEqual(list(defs[name]), ["value", "requests"])
            self.assertNum(defs[name]["value"], value, name)
            self.assertEqual(defs[name]["requests"], n, name)
        # main results only: not in the group rows
        for row in an["groups"]["rows"]:
            self.assertNotIn("definitions", row)

    def test_null_without_completion_tokens(self):
        with TempDir() as d:
            res = run(["--definitions", self.fixture(d, only_r3=True)])
        self.assertRan(res)
        defs = loads(res.out)["analysis"]["definitions"]
        self.assertEqual(defs["output_weighted"], {"value": None, "requests": 0})
        self.assertEqual(defs["with_prefill"], {"value": None, "requests": 0})
        self.assertNum(defs["request_mean"]["value"], 1.5)
        self.assertNum(defs["step_pooled"]["value"], 1.5)

    def test_tables(self):
        with TempDir() as d:
            path = self.fixture(d)
            # wide enough for every column (test_width.py fits the tables)
            table = run(["-f", "table", "--definitions", path], env={"COLUMNS": "300"})
            csv = run(["-f", "csv", "--definitions", path])
            md = run(["-f", "markdown", "--definitions", path])
            page = os.path.join(d, "p.html")
            html = run(["-f", "none", "--definitions", "--html", page, path])
            for r in (table, csv, md, html):
                self.assertRan(r)
            with open(page, encoding="utf-8") as f:
                text = f.read()
        # %.2f of 2.1388..., 2.6153..., 3.0238..., 27.0833...
        self.assertTrue(csv.text.endswith(
            "\r\n\r\nDefinition,Value,Requests\r\nrequest_mean,2.14,3\r\n"
            "step_pooled,2.62,3\r\noutput_weighted,3.02,2\r\nwith_prefill,27.08,2\r\n"))
        self.assertIn("Acceptance Length by Definition", table.text)
        self.assertRegex(table.text, r"│ with_prefill +│ +27\.08 │ +2 │ mean of completion tokens / s")
        self.assertRegex(table.text, r"│ request_mean +│ +2\.14 │ +3 │ .*AIPerf")
        self.assertRegex(md.text, r"\| request\\_mean \| 2\.14 \| 3 \|")
        self.assertIn("<td><code>output_weighted</code></td><td>3.02</td><td>2</td>", text)

    def test_without_option(self):
        with TempDir() as d:
            res = run(["--positions", self.fixture(d)])
        self.assertRan(res)
        self.assertNotIn("definitions", loads(res.out)["analysis"])


class VariableFixture(Case):
    """testdata/engines/vllm_variable.jsonl (make_fixtures.py describes its
    five requests)."""

    PATH = td("engines", "vllm_variable.jsonl")

    def test_report(self):
        res = run(["--positions", "--group-by", "isl", self.PATH])
        self.assertRan(res)
        doc = loads(res.out)
        self.assertAccounting(doc, {"ok": 4, "malformed": 1}, total=5)
        pos = doc["analysis"]["positions"]
        self.assertEqual(pos["excluded"]["inconsistent_by_draft_length"], 1)
        # steps (drafted, accepted): line 1 (4,3) (2,0) (2,2); line 2 (2,2)
        # (2,1) (1,0); line 5 (1,0) (2,2). S_0 8; D = 8, 6, 1, 1;
        # S = 5, 4, 1, 0; rates 5/8, 4/6, 1, 0; conditional 5/8, 4/5, 1/4, 0
        dr = pos["drafted"]
        self.assertEqual((dr["requests"], dr["steps"]), (3, 8))
        self.assertEqual([(p["drafted"], p["accepted"], p["rate"], p["conditional"])
                          for p in dr["positions"]],
                         [(8, 5, 0.625, 0.625), (6, 4, 4 / 6, 0.8), (1, 1, 1.0, 0.25),
                          (1, 0, 0.0, 0.0)])
        # isl: 700 -> 512, input_tokens 40 -> 32, 0 -> null, the malformed
        # line has no record -> null, 3000 -> 2048
        self.assertEqual([(r["key"]["isl"], r["requests"]["total"])
                          for r in doc["analysis"]["groups"]["rows"]],
                         [(None, 2), (32, 1), (512, 1), (2048, 1)])

    def test_enriched_read_back(self):
        with TempDir() as d:
            part = os.path.join(d, "part.jsonl")
            self.assertRan(run(["-f", "none", "--records", part, self.PATH]))
            for fmt in ("json", "csv", "table"):
                one = run(["-f", fmt, "--positions", "--group-by", "isl", self.PATH])
                back = run(["-f", fmt, "--positions", "--group-by", "isl", part])
                self.assertEqual(back.out.decode(), one.out.decode(), fmt)
            with open(part) as f:
                lines = [json.loads(l) for l in f]
        rec = lines[0]["spec_decode_acceptance"]
        self.assertEqual(rec["prompt_tokens"], 700)
        self.assertEqual(rec["acceptance_histogram_by_draft_length"],
                         {"2": [1, 0, 1], "4": [0, 0, 0, 1, 0]})
        self.assertEqual(lines[4]["spec_decode_acceptance"]["prompt_tokens"], 3000)


class Merge(Case):
    """8.1: partials written with --records and read back give the same isl
    groups, drafted positions and definitions as one run."""

    ARGS = ["--positions", "--group-by", "isl", "--definitions"]

    def inputs(self, d):
        ctx = ContextLength().fixture(d)
        var = DraftedPositions().fixture(d)
        defs = Definitions().fixture(d)
        return [ctx, var, defs]

    def test_partials_merge(self):
        with TempDir() as d:
            inputs = self.inputs(d)
            parts = []
            for i in range(2):
                p = os.path.join(d, "part-%d.jsonl" % i)
                self.assertRan(run(["--shard", "%d/2" % i, "-f", "none", "--records", p]
                                   + inputs))
                parts.append(p)
            for fmt in ("json", "csv", "table", "markdown"):
                one = run(["-f", fmt] + self.ARGS + inputs)
                merged = run(["-f", fmt] + self.ARGS + parts)
                self.assertRan(one)
                self.assertRan(merged)
                self.assertEqual(merged.out.decode(), one.out.decode(), "-f " + fmt)
                if fmt == "json":
                    an = loads(one.out)["analysis"]
        # ctx.jsonl's 9 requests (test_isl_groups) plus 5 + 4 without usage
        # prompt tokens: 9 more in the null group
        rows = an["groups"]["rows"]
        self.assertEqual([(r["key"]["isl"], r["requests"]["total"]) for r in rows],
                         [(None, 13), (1, 1), (2, 1), (32, 1), (256, 2)])
        # var.jsonl's drafted positions (DraftedPositions.test_json): the other
        # inputs have no per-step arrays or rows
        dr = an["positions"]["drafted"]
        self.assertEqual([(p["drafted"], p["accepted"]) for p in dr["positions"]],
                         [(8, 5), (8, 3), (4, 2)])
        self.assertEqual(an["positions"]["excluded"]["inconsistent_by_draft_length"], 1)
        null_row = rows[0]
        self.assertEqual(null_row["positions"]["drafted"]["requests"], 3)


if __name__ == "__main__":
    main()
