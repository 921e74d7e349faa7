#!/usr/bin/env python3
"""SPEC 11.5 (--acceptance-profile FILE) end to end: the document for the
main results and each group, in order, against SPEC 7.1's vector and rows
worked out by hand below; `-` as the one stdout output; the file written
only with the option (an --output-dir does not get it); it implies
--positions.

The fixture is written by the test: SPEC 6's records A and B (k 4, group
"x"), a k-2 record that accepted nothing in its one step and a k-6 record
that accepted all six (group "y"). The expected text is typed out here
from SPEC 7.1 and 11.5, never taken from specscan's output."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, main, run


def line(hist, k, cat, n):
    steps = sum(hist.values())
    acc = sum(int(j) * c for j, c in hist.items())
    rec = {"engine": "vllm", "mean_acceptance_length": 1 + acc / steps,
           "draft_acceptance_rate": acc / (k * steps), "acceptance_histogram": hist,
           "num_accepted_draft_tokens": acc, "num_draft_tokens": k * steps,
           "num_spec_steps": steps, "num_spec_tokens": k}
    return json.dumps({"metadata": {"benchmark_phase": "profiling", "category": cat,
                                    "session_num": n},
                       "metrics": {}, "spec_decode_acceptance": rec})


LINES = [line({"0": 1, "1": 1, "2": 2, "3": 3, "4": 1}, 4, "x", 1),  # SPEC 6's A
         line({"0": 1}, 2, "y", 2),                                 # S = 1, 0, 0
         line({"0": 1, "1": 2}, 4, "x", 3),                         # SPEC 6's B
         line({"6": 1}, 6, "y", 4)]                                 # S = 1, 1, ..., 1

# k 4 (A + B): SPEC 7.1's vector; aic_args as SPEC 11.6 writes it.
R4 = "0.8181818181818182, 0.5454545454545454, 0.36363636363636365, 0.09090909090909091"
K4 = ('"k": 4, "requests": 2, "steps": 11, "acceptance_length": 2.8181818181818183, '
      '"unconditional": [' + R4 + '], '
      '"conditional": [0.8181818181818182, 0.6666666666666666, 0.6666666666666666, 0.25], '
      '"vllm": {"rejection_sample_method": "synthetic", "synthetic_acceptance_rates": ['
      + R4 + ']}, '
      '"aic_args": "--aic-nextn 4 --aic-nextn-accept-rates 0.8182,0.6667,0.6667,0.2500"}')
# k 2: rates 0/1; conditional 0/1 then 0/0 (null, written 0 in aic_args).
K2 = ('"k": 2, "requests": 1, "steps": 1, "acceptance_length": 1.0, '
      '"unconditional": [0.0, 0.0], "conditional": [0.0, null], '
      '"vllm": {"rejection_sample_method": "synthetic", "synthetic_acceptance_rates": '
      '[0.0, 0.0]}, '
      '"aic_args": "--aic-nextn 2 --aic-nextn-accept-rates 0.0000,0.0000"}')
# k 6: every rate 1/1; tau 1 + 6/1; K above 5: no aic_args.
ONES = ", ".join(["1.0"] * 6)
K6 = ('"k": 6, "requests": 1, "steps": 1, "acceptance_length": 7.0, '
      '"unconditional": [' + ONES + '], "conditional": [' + ONES + '], '
      '"vllm": {"rejection_sample_method": "synthetic", "synthetic_acceptance_rates": ['
      + ONES + ']}}')


def entry(key, body):
    return '{"key": ' + key + ', ' + body


MAIN_ONLY = '{"profiles": [' + ", ".join(entry("{}", b) for b in (K2, K4, K6)) + "]}\n"
GROUPED = ('{"profiles": [' + ", ".join(
    [entry("{}", b) for b in (K2, K4, K6)]
    + [entry('{"meta.category": "x"}', K4)]
    + [entry('{"meta.category": "y"}', b) for b in (K2, K6)]) + "]}\n")


class AcceptanceProfile(Case):
    def fixture(self, d):
        path = os.path.join(d, "runs.jsonl")
        with open(path, "w") as f:
            f.write("\n".join(LINES) + "\n")
        return path

    def test_main_results_to_stdout(self):
        with TempDir() as d:
            res = run([self.fixture(d), "--acceptance-profile", "-", "-f", "none"])
            self.assertRan(res)
            self.assertEqual(res.out.decode(), MAIN_ONLY)
            json.loads(res.out)  # one valid JSON document

    def test_groups_to_file(self):
        with TempDir() as d:
            out = os.path.join(d, "profile.json")
            res = run([self.fixture(d), "--group-by", "meta.category",
                       "--acceptance-profile", out, "-f", "none"])
            self.assertRan(res)
            with open(out) as f:
                self.assertEqual(f.read(), GROUPED)

    def test_key_escaped(self):
        """A key value from the input is JSON-escaped (a quote, a newline,
        an escape character), non-ASCII copied, as json.dumps writes it."""
        name = 'a"b\n\x1b\u00e9'
        with TempDir() as d:
            path = os.path.join(d, "hostile.jsonl")
            with open(path, "w", encoding="utf-8") as f:
                f.write(line({"0": 1}, 2, name, 1) + "\n")
            res = run([path, "--group-by", "meta.category", "--acceptance-profile", "-",
                       "-f", "none"])
            self.assertRan(res)
            key = '{"meta.category": ' + json.dumps(name, ensure_ascii=False) + '}'
            want = '{"profiles": [' + entry("{}", K2) + ", " + entry(key, K2) + "]}\n"
            self.assertEqual(res.out.decode("utf-8"), want)
            self.assertNotIn(b"\x1b", res.out)

    def test_implies_positions(self):
        with TempDir() as d:
            out = os.path.join(d, "p.json")
            res = run([self.fixture(d), "--acceptance-profile", out, "-f", "json"])
            self.assertRan(res)
            doc = json.loads(res.out)
            by_k = doc["analysis"]["positions"]["by_k"]
            self.assertEqual([r["k"] for r in by_k], [2, 4, 6])

    def test_not_without_the_option(self):
        with TempDir() as d:
            odir = os.path.join(d, "o")
            res = run([self.fixture(d), "-o", odir, "-f", "none"])
            self.assertRan(res)
            self.assertEqual(sorted(os.listdir(odir)),
                             ["spec_decode.csv", "spec_decode.html", "spec_decode.json",
                              "spec_decode_records.jsonl"])

    def test_one_stdout_output(self):
        with TempDir() as d:
            res = run([self.fixture(d), "--acceptance-profile", "-", "-f", "json"])
            self.assertRan(res, 2)
            self.assertIn("--acceptance-profile -", res.errtext)
            self.assertEqual(res.out, b"")


if __name__ == "__main__":
    main()
