#!/usr/bin/env python3
"""Edge cases on small inputs written at test time: the console histogram
line (SPEC 6's rounding and >=8 vectors), number formatting at the repr
boundaries, input names that need JSON escaping, empty inputs, zero-step-only
runs, overflowing per-step sums, lines longer than the read window, a
truncated compressed input."""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import (Case, Rec, TempDir, expected_metrics, have_tool, jsonl_lines, loads, main,
                   run, td)


def js(o):
    return json.dumps(o, separators=(",", ":"))


def vllm_body(hist, steps, acc, drafted, mean, rate, k=None, content="ok", **extra):
    sd = {"mean_acceptance_length": mean, "draft_acceptance_rate": rate,
          "acceptance_histogram": hist, "num_spec_steps": steps,
          "num_accepted_draft_tokens": acc, "num_draft_tokens": drafted}
    if k is not None:
        sd["num_spec_tokens"] = k
    sd.update(extra)
    return js({"id": "x", "object": "chat.completion",
               "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                            "finish_reason": "stop"}],
               "metrics": {"speculative_decoding": sd}})


def llama_body(dn, dna, content="ok"):
    return js({"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
               "object": "chat.completion", "timings": {"draft_n": dn, "draft_n_accepted": dna}})


class Edges(Case):
    def write(self, d, name, lines, end="\n"):
        p = os.path.join(d, name)
        with open(p, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + end)
        return p

    def hist_line(self, text):
        lines = [l.strip() for l in text.split("\n") if "Accepted drafts per step" in l]
        self.assertEqual(len(lines), 1, text)
        return lines[0].split(":", 1)[1].strip()

    def test_histogram_ties_round_to_even(self):
        with TempDir() as d:
            p = self.write(d, "a.jsonl", [vllm_body([2, 2, 4, 6, 2], 16, 36, 64, 3.25, 0.5625, 4)])
            r = run(["-f", "table", p])
            self.assertRan(r)
            self.assertEqual(self.hist_line(r.text), "0: 12%   1: 12%   2: 25%   3: 38%   4: 12%")

    def test_histogram_eight_and_more(self):
        with TempDir() as d:
            p = self.write(d, "a.jsonl", [vllm_body([1] * 12, 12, 66, 132, 6.5, 0.5, 11)])
            r = run(["-f", "table", p])
            self.assertRan(r)
            self.assertEqual(self.hist_line(r.text),
                             "   ".join("%d: 8%%" % j for j in range(8)) + "   >=8: 33%")
            doc = loads(run([p]).out)
            self.assertEqual(doc["pooled_spec_decode_acceptance_histogram"],
                             {str(j): 1 for j in range(12)})

    def test_number_formats(self):
        with TempDir() as d:
            p = self.write(d, "a.jsonl", [
                llama_body(100000, 1),
                vllm_body([1, 0], 1, 0, 10 ** 16, 1.0, 0.0, 1),
            ])
            r = run(["-f", "jsonl", p])
            self.assertRan(r)
            lines = r.text.split("\n")
            self.assertIn('"draft_acceptance_rate":1e-05', lines[0])
            self.assertIn('"spec_decode_draft_acceptance_rate":{"value":0.001,"unit":"%"}', lines[0])
            self.assertIn('"num_draft_tokens":10000000000000000', lines[1])
            doc = loads(run([p]).out)
            dt = doc["spec_decode_draft_tokens"]
            self.assertEqual(dt["max"].text, "1e+16")
            self.assertEqual(dt["sum"].text, "1.00000000001e+16")
            self.assertEqual(dt["min"].text, "100000.0")
            self.assertEqual(doc["total_draft_tokens"]["avg"], 10 ** 16 + 100000)
            self.assertEqual(doc["spec_decode_draft_acceptance_rate"]["max"].text, "0.001")

    def test_big_counts_divide_exactly(self):
        """Counts above 2^53: specscan's own divisions must give the double
        nearest the exact quotient, as AIPerf's Python int / int does
        (not the quotient of the two counts each first rounded to a double)."""
        with TempDir() as d:
            p = self.write(d, "a.jsonl", [
                llama_body(2 ** 53 + 1, 3),
                vllm_body([1, 0], 1, 0, 10 ** 16, 1.0, 0.0, 1),
            ])
            r = run(["-f", "jsonl", p])
            self.assertRan(r)
            out = jsonl_lines(r)
            self.assertEqual(out[0]["spec_decode_acceptance"]["draft_acceptance_rate"].text,
                             repr(3 / (2 ** 53 + 1)))
            self.assertEqual(out[1]["metrics"]["spec_decode_accepted_per_verified"]["value"].text,
                             repr(1 / (10 ** 16 + 1)))
            want = expected_metrics([Rec("llamacpp", 3, 2 ** 53 + 1),
                                     Rec("vllm", 0, 10 ** 16, 1, mean=1.0, rate=0.0, hist={0: 1}, k=1)])
            self.assertMetrics(loads(run([p]).out), want)

    def test_names_that_need_escaping(self):
        with TempDir() as d:
            name = os.path.join(d, 'we"ird\\na me\t\u00e9.jsonl')
            with open(td("sample", "aiperf_raw_vllm.jsonl"), "rb") as f, open(name, "wb") as g:
                g.write(f.read())
            r = run([name])
            self.assertRan(r)
            self.assertEqual(loads(r.out)["specscan"]["inputs"][0]["name"], name)
            r = run(["-f", "jsonl", name])
            self.assertRan(r)
            self.assertEqual({o["source"]["input"] for o in jsonl_lines(r)}, {name})

    def test_empty_inputs(self):
        with TempDir() as d:
            empty = self.write(d, "empty.jsonl", [], end="")
            blank = self.write(d, "blank.jsonl", ["", "  ", "\r"])
            for p in (empty, blank):
                r = run([p])
                self.assertRan(r)
                doc = loads(r.out)
                self.assertAccounting(doc, {}, total=0)
                self.assertEqual(doc["specscan"]["inputs"],
                                 [{"name": p, "kind": "unknown", "requests": 0}])
                self.assertEqual(list(doc), ["specscan"])
                self.assertEqual(run(["-f", "jsonl", p]).out, b"")
                self.assertEqual(run(["-f", "csv", p]).out, b"")
            r = run([], stdin=b"")
            self.assertRan(r)
            self.assertEqual(loads(r.out)["specscan"]["requests"]["total"], 0)

    def test_zero_step_only(self):
        with TempDir() as d:
            p = self.write(d, "z.jsonl", [llama_body(0, 0), llama_body(0, 0)])
            doc = loads(run([p]).out)
            self.assertAccounting(doc, {"zero_step": 2}, total=2)
            self.assertMetrics(doc, {"spec_decode_zero_step_requests": {"avg": 2}})
            r = run(["-f", "table", p])
            rows = [l for l in r.text.split("\n") if "Zero-Step Requests" in l]
            self.assertEqual(len(rows), 1, r.text)
            self.assertIn("2.00", rows[0])
            self.assertNotIn("Acceptance Length", r.text)
            self.assertEqual(run(["-f", "csv", p]).text,
                             "Metric,Value\r\nZero-Step Requests,2.00\r\n")

    def test_overflowing_sums_are_malformed(self):
        big = 2 ** 63 - 1
        with TempDir() as d:
            p = self.write(d, "o.jsonl", [
                vllm_body([1, 1], 2, 1, 2, 1.5, 0.5, 1, per_step_accepted=[big, 1]),
                vllm_body([1, 1], 2, 1, big, 1.5, 0.0, 1, per_step_drafted=[big, 1]),
                vllm_body([1, big], big, big, big, 2.0, 1.0, 1),
                vllm_body([0, 1], 1, 1, big, 2.0, 0.0, 1),
            ])
            r = run(["-f", "jsonl", p])
            self.assertRan(r)
            self.assertEqual([o["spec_decode_status"] for o in jsonl_lines(r)],
                             ["malformed", "malformed", "malformed", "ok"])

    def test_line_longer_than_read_window(self):
        with TempDir() as d:
            long = vllm_body([0, 1], 1, 1, 1, 2.0, 1.0, 1, content="y" * (9 << 20))
            p = self.write(d, "long.jsonl", [long, llama_body(4, 2), long, llama_body(4, 3)])
            r = run(["-f", "jsonl", p])
            self.assertRan(r)
            self.assertEqual([(o["source"]["line"], o["spec_decode_status"]) for o in jsonl_lines(r)],
                             [(1, "ok"), (2, "ok"), (3, "ok"), (4, "ok")])
            r = run(["-f", "jsonl", "--max-record-size", "4M", p])
            self.assertRan(r)
            self.assertEqual([(o["source"]["line"], o["spec_decode_status"]) for o in jsonl_lines(r)],
                             [(1, "oversize"), (2, "ok"), (3, "oversize"), (4, "ok")])

    def test_truncated_compressed_input(self):
        if not have_tool("zstd"):
            self.skipTest("zstd not installed")
        with TempDir() as d:
            z = os.path.join(d, "cut.zst")
            data = subprocess.run(["zstd", "-q", "-c", td("sample", "aiperf_raw_vllm.jsonl")],
                                  stdout=subprocess.PIPE, check=True).stdout
            with open(z, "wb") as f:
                f.write(data[:len(data) * 2 // 3])
            good = td("engines", "llamacpp_stream.sse")
            r = run([z, good])
            self.assertRan(r, 1)
            self.assertIn("specscan: ", r.errtext)
            self.assertIn(z, r.errtext)
            doc = loads(r.out)
            self.assertEqual(doc["specscan"]["inputs"][-1], {"name": good, "kind": "sse", "requests": 2})
            self.assertAccounting(doc)


if __name__ == "__main__":
    main()
