#!/usr/bin/env python3
"""Each engine fixture: one request per line (or per SSE stream), the right
status and record per request, the aggregate built from the ok ones.

The expectations below are worked out by hand from the fixtures' design
(testdata/make_fixtures.py describes the same requests in prose); doubles
that SPEC 2.6 makes specscan compute (TensorRT-LLM and SGLang means,
llama.cpp and SGLang rates) are computed here with SPEC's formulas.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import (Case, Rec, expected_metrics, jsonl_lines, loads, main, pooled, run, td,
                   PER_REQUEST, STATUSES, UNITS)


def sse_stream_lines(path):
    """1-based line of the first event of each stream: an independent,
    deliberately simple reading of SPEC 1.2 for these fixtures (every stream
    starts with a data: line)."""
    starts = []
    new = True
    with open(path, "rb") as f:
        for i, raw in enumerate(f.read().decode("utf-8").split("\n"), 1):
            line = raw.rstrip("\r")
            if not line.startswith("data:"):
                continue
            val = line[5:].strip()
            if new and val != "[DONE]":
                starts.append(i)
                new = False
            if val == "[DONE]":
                new = True
    return starts


def jsonl_request_lines(path):
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    return [i for i, l in enumerate(lines, 1) if l.strip(b"\r\n\t ")]


A = Rec("vllm", 18, 32, 8, mean=3.25, rate=0.5625, hist={0: 1, 1: 1, 2: 2, 3: 3, 4: 1},
        k=4, comp=26, psa=[2, 3, 1, 4, 2, 0, 3, 3], psd=[4] * 8)

CASES = {
    "vllm_bodies": dict(
        path=td("engines", "vllm_bodies.jsonl"), kind="body",
        status=["ok", "ok", "malformed", "malformed", "no_stats", "no_content", "malformed",
                "malformed", "ok", "malformed", "unrecognized", "malformed", "malformed",
                "malformed", "ok"],
        recs={
            1: Rec("vllm", 10, 129, 43, mean=1.2325581395348837, rate=0.07751937984496124,
                   hist={0: 39, 1: 1, 3: 3}, k=3, comp=50, prompt=12),
            2: Rec("vllm", 4, 12, 4, mean=2.0, rate=0.3333333333333333,
                   hist={0: 2, 1: 1, 3: 1}, k=3, comp=9, psa=[0, 1, 3, 0], psd=[3, 3, 3, 3],
                   prompt=12),
            9: Rec("vllm", 2, 6, 2, mean=2.0, rate=0.3333333333333333, hist={0: 1, 2: 1},
                   comp=7, prompt=30),
            15: Rec("vllm", 0, 5, 1, mean=1.0, rate=0.0, hist={0: 1}, k=5, comp=3, prompt=12),
        },
        reasons={3: "step", 4: "histogram"},
        engines={"vllm": 4}),
    "trtllm_sse": dict(
        path=td("engines", "trtllm_streams.sse"), kind="sse", sse=True,
        status=["ok", "ok", "ok", "malformed", "multi_choice", "no_stats", "ok"],
        recs={
            1: Rec("tensorrt_llm", 30, 60, 20, rate=0.5, hist={0: 8, 2: 6, 3: 6}, k=3, comp=51, prompt=20),
            2: Rec("tensorrt_llm", 5, 20, 5, rate=0.25, hist={0: 1, 1: 3, 2: 1}, k=4, comp=11, prompt=20),
            3: Rec("tensorrt_llm", 4, 9, 3, rate=0.4444444444444444, hist={0: 1, 2: 2}, comp=7, prompt=20),
            7: Rec("tensorrt_llm", 1, 4, 2, rate=0.25, hist={0: 1, 1: 1}, k=4, comp=3, prompt=20),
        },
        engines={"tensorrt_llm": 4}),
    "comment_sse": dict(
        path=td("engines", "sse_comment_first.sse"), kind="sse", sse=True, check_lines=False,
        status=["ok"],
        recs={1: Rec("vllm", 2, 4, 2, mean=2.0, rate=0.5, hist={1: 2}, k=2, comp=3, prompt=20)},
        engines={"vllm": 1}),
    "llamacpp_bodies": dict(
        path=td("engines", "llamacpp_bodies.jsonl"), kind="body",
        status=["ok", "ok", "no_stats", "zero_step", "malformed", "ok", "malformed"],
        recs={
            1: Rec("llamacpp", 515, 604, comp=665, prompt=808),
            2: Rec("llamacpp", 25, 40, 10, comp=50, prompt=808),
            6: Rec("llamacpp", 10, 10),
        },
        zero={4}, engines={"llamacpp": 4}),
    "llamacpp_sse": dict(
        path=td("engines", "llamacpp_stream.sse"), kind="sse", sse=True,
        status=["ok", "ok"],
        recs={1: Rec("llamacpp", 9, 12, comp=20, prompt=8), 2: Rec("llamacpp", 3, 6)},
        engines={"llamacpp": 2}),
    "sglang_bodies": dict(
        path=td("engines", "sglang_bodies.jsonl"), kind="body",
        status=["ok", "ok", "multi_choice", "ok", "ok", "ok", "ok", "zero_step",
                "unrecognized", "malformed"],
        recs={
            1: Rec("sglang", 63, 215, 43, hist={0: 11, 1: 14, 2: 11, 3: 4, 5: 3}, k=5, comp=106,
                   prompt=31),
            2: Rec("sglang", 6, 12, 4, hist={0: 1, 1: 1, 2: 1, 3: 1}, k=3, comp=8, prompt=31),
            4: Rec("sglang", 7, 15, 5, hist={0: 2, 2: 2, 3: 1}, k=3),
            5: Rec("sglang", 3, 8, 4),
            6: Rec("sglang", 2, 4, 2),
            7: Rec("sglang", 1, 2, 1, comp=3, prompt=31),
        },
        zero={8}, engines={"sglang": 7}),
    "records": dict(
        path=td("records", "profile_export.jsonl"), kind="records",
        status=["ok", "ok", "ok", "ok", "ok", "no_stats", "error", "ok", "malformed",
                "zero_step", "cancelled"],
        recs={
            1: A,
            2: Rec("vllm", 2, 12, 3, mean=1.6666666666666665, rate=0.16666666666666666,
                   hist={0: 1, 1: 2}, k=4),
            3: Rec("tensorrt_llm", 30, 60, 20, mean=2.5, rate=0.5, hist={0: 8, 2: 6, 3: 6},
                   k=3, comp=51),
            4: Rec("llamacpp", 515, 604, rate=515 / 604, comp=665),
            5: Rec("vllm", 345, 12345, 12345, mean=1 + 345 / 12345, rate=345 / 12345,
                   hist={0: 12000, 1: 345}, k=1),
            8: Rec("vllm", 3, 4, 2, mean=2.5, rate=0.75, hist={1: 1, 2: 1}, k=2),
        },
        warmup={8}, zero={10}, metadata=True,
        engines={"llamacpp": 1, "tensorrt_llm": 1, "vllm": 5}),
    "mixed": dict(
        path=td("mixed", "mixed_garbage.jsonl"), kind="mixed",
        status=["ok", "unparsable", "unparsable", "unparsable", "unparsable", "unparsable",
                "ok", "ok", "malformed", "unrecognized", "unrecognized", "error", "error", "ok"],
        recs={
            1: Rec("vllm", 4, 8, 4, mean=2.0, rate=0.5, hist={0: 1, 1: 2, 2: 1}, k=2, comp=6, prompt=12),
            7: Rec("vllm", 1, 1, 1, mean=2.0, rate=1.0, hist={1: 1}, k=1, comp=1500, prompt=12),
            8: Rec("tensorrt_llm", 1, 4, 2, rate=0.25, hist={0: 1, 1: 1}, k=2, comp=3, prompt=12),
            14: Rec("llamacpp", 5, 10, comp=7, prompt=808),
        },
        engines={"llamacpp": 1, "tensorrt_llm": 1, "vllm": 2}),
}

# The same garbage with --max-record-size 1K: the 2007-byte line is oversize.
CASES["mixed_1k"] = dict(CASES["mixed"], args=["--max-record-size", "1K"],
                         status=CASES["mixed"]["status"][:6] + ["oversize"] +
                         CASES["mixed"]["status"][7:],
                         recs={k: v for k, v in CASES["mixed"]["recs"].items() if k != 7},
                         engines={"llamacpp": 1, "tensorrt_llm": 1, "vllm": 1})


class Engines(Case):
    def check(self, name):
        c = CASES[name]
        args = c.get("args", [])
        path = c["path"]
        status = c["status"]
        n = len(status)
        warm = c.get("warmup", set())
        zero = {i for i, s in enumerate(status, 1) if s == "zero_step"}
        self.assertEqual(zero, c.get("zero", zero))
        ok_prof = [c["recs"][i] for i in sorted(c["recs"]) if i not in warm]
        ok_warm = [c["recs"][i] for i in sorted(c["recs"]) if i in warm]
        for i in c["recs"]:
            self.assertEqual(status[i - 1], "ok", "%s: fixture table" % name)

        # aggregate JSON
        r = run(args + [path])
        self.assertRan(r, 0)
        doc = loads(r.text)
        counts = {s: status.count(s) for s in STATUSES}
        self.assertAccounting(doc, counts, total=n)
        self.assertEqual(doc["specscan"]["inputs"], [{"name": path, "kind": c["kind"], "requests": n}])
        self.assertEqual(doc["specscan"]["engines"], c["engines"])
        self.assertEqual(list(doc["specscan"]["engines"]), sorted(c["engines"]))
        self.assertEqual(doc["specscan"]["phases"], {"profiling": n - len(warm), "warmup": len(warm)}
                         if warm else {"profiling": n, "warmup": 0}
                         if "warmup" in doc["specscan"]["phases"] else {"profiling": n})
        want = expected_metrics(ok_prof, zero_steps=len(zero - warm))
        self.assertMetrics(doc, want)
        h = pooled(ok_prof)
        if h:
            self.assertEqual(list(doc["pooled_spec_decode_acceptance_histogram"].items()),
                             list(h.items()))
        else:
            self.assertNotIn("pooled_spec_decode_acceptance_histogram", doc)
        if ok_warm:
            self.assertMetrics(doc["warmup_metrics"], expected_metrics(ok_warm), "warmup_metrics")
        else:
            self.assertNotIn("warmup_metrics", doc)

        # enriched JSONL
        r = run(args + ["-f", "jsonl", path])
        self.assertRan(r, 0)
        out = jsonl_lines(r)
        self.assertEqual(len(out), n, "one JSONL line per request")
        lines = sse_stream_lines(path) if c.get("sse") else jsonl_request_lines(path)
        self.assertEqual(len(lines), n, "%s: fixture table" % name)
        for i, o in enumerate(out, 1):
            where = "%s request %d" % (name, i)
            self.assertEqual(o["source"]["input"], path, where)
            if c.get("check_lines", True):
                self.assertEqual(o["source"]["line"], lines[i - 1], where)
            self.assertEqual(o["spec_decode_status"], status[i - 1], where)
            if status[i - 1] == "ok":
                self.assertNotIn("spec_decode_reason", o, where)
                self.assertRecord(o["spec_decode_acceptance"], c["recs"][i], where)
                want = c["recs"][i].per_request()
                got = {k: v for k, v in o["metrics"].items() if k in UNITS}
                self.assertEqual(list(got), [t for t, _, _ in PER_REQUEST if t in want], where)
                for t, v in want.items():
                    self.assertEqual(got[t]["unit"], UNITS[t], where)
                    self.assertNum(got[t]["value"], v, "%s %s" % (where, t))
            else:
                self.assertTrue(o.get("spec_decode_reason"), where + ": reason")
                self.assertEqual([k for k in o.get("metrics", {}) if k in UNITS], [], where)
                if status[i - 1] == "zero_step":
                    self.assertEqual(o["spec_decode_acceptance"]["num_draft_tokens"], 0, where)
                else:
                    self.assertNotIn("spec_decode_acceptance", o, where)
            if c.get("sse"):
                self.assertNotIn("metadata", o, where)
        for i, word in c.get("reasons", {}).items():
            self.assertIn(word, out[i - 1]["spec_decode_reason"], "%s request %d" % (name, i))
        return out, r.text.split("\n")

    def test_vllm_bodies(self):
        self.check("vllm_bodies")

    def test_trtllm_sse(self):
        self.check("trtllm_sse")

    def test_sse_comment_first(self):
        self.check("comment_sse")

    def test_llamacpp_bodies(self):
        self.check("llamacpp_bodies")

    def test_llamacpp_sse(self):
        self.check("llamacpp_sse")

    def test_sglang_bodies(self):
        self.check("sglang_bodies")

    def test_records(self):
        out, text = self.check("records")
        src = open(CASES["records"]["path"], encoding="utf-8").read().split("\n")
        for i, o in enumerate(out, 1):
            # the line's own metrics kept verbatim, metadata copied verbatim
            self.assertEqual(o["metrics"]["request_latency"]["value"].text, "%d.0" % (1000 + i))
            raw = src[i - 1][len('{"metadata":'):src[i - 1].index("}") + 1]
            self.assertIn('"metadata":' + raw, text[i - 1], "line %d" % i)
        # a stale spec-decode metric of the line is replaced by specscan's value
        self.assertEqual(out[1]["metrics"]["spec_decode_steps"], {"value": 3, "unit": "count"})
        # and dropped when the request is not ok
        self.assertNotIn("spec_decode_acceptance_length", out[8]["metrics"])

    def test_records_table_thousands(self):
        r = run(["-f", "table", CASES["records"]["path"]])
        self.assertRan(r)
        rows = [l for l in r.text.split("\n") if "Spec Decode Steps (count)" in l]
        self.assertEqual(len(rows), 1, r.text)
        # steps 8, 3, 20, 12345: avg 3,094.00, min 3.00, max 12,345.00
        cells = [x.strip() for x in rows[0].replace("│", "|").split("|")[1:-1]]
        self.assertEqual(cells[1:4], ["3,094.00", "3.00", "12,345.00"])

    def test_mixed_garbage(self):
        self.check("mixed")

    def test_mixed_garbage_1k(self):
        self.check("mixed_1k")

    def test_stdin(self):
        path = td("engines", "trtllm_streams.sse")
        data = open(path, "rb").read()
        for args in ([], ["-"]):
            r = run(["-f", "jsonl"] + args, stdin=data)
            self.assertRan(r)
            out = jsonl_lines(r)
            self.assertEqual([o["spec_decode_status"] for o in out], CASES["trtllm_sse"]["status"])
            self.assertEqual({o["source"]["input"] for o in out}, {"<stdin>"})
        r = run([], stdin=data)
        self.assertRan(r)
        self.assertEqual(loads(r.text)["specscan"]["inputs"],
                         [{"name": "<stdin>", "kind": "sse", "requests": 7}])

    def test_input_kind_forced(self):
        for name, kind in (("vllm_bodies", "body"), ("records", "records"),
                           ("trtllm_sse", "sse")):
            c = CASES[name]
            auto = run(["-f", "jsonl", c["path"]])
            forced = run(["-f", "jsonl", "--input-kind", kind, c["path"]])
            self.assertRan(forced)
            self.assertEqual(forced.out, auto.out, name)

    def test_engine_filter_keeps_own(self):
        c = CASES["sglang_bodies"]

        def unreasoned(res):
            out = jsonl_lines(res)
            for o in out:
                o.pop("spec_decode_reason", None)
            return out
        self.assertEqual(unreasoned(run(["-f", "jsonl", "--engine", "sglang", c["path"]])),
                         unreasoned(run(["-f", "jsonl", c["path"]])))
        r = run(["-f", "jsonl", "--engine", "vllm", c["path"]])
        self.assertRan(r)
        st = [o["spec_decode_status"] for o in jsonl_lines(r)]
        # payloads found, none claimed; multi_choice still comes first (SPEC 2.1)
        self.assertEqual(st, ["unrecognized", "unrecognized", "multi_choice"] +
                         ["unrecognized"] * 7)


if __name__ == "__main__":
    main()
