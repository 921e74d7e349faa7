#!/usr/bin/env python3
"""SPEC 5, "When nothing shows up": an input with at least one line of
which no line is a request of a known kind or a server line could not be
read (exit 1, its lines still counted with their statuses), and the
message says what it looks like. The inputs are written here by hand.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, loads, main, run, td  # noqa: E402

AGGREGATE = """{
  "request_latency": {
    "unit": "ms",
    "avg": 1200.5
  },
  "request_count": {
    "unit": "requests",
    "avg": 169
  }
}
"""


class Unreadable(Case):
    def check(self, name, text, words, lines):
        with TempDir() as tmp:
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                f.write(text)
            res = run(["-f", "json", path])
            self.assertRan(res, 1)
            self.assertIn("%s: cannot be read: none of its %d lines is a request or a server "
                          "line; %s" % (path, lines, words), res.errtext)
            doc = loads(res.out)
            acc = doc["spec_decode_requests"] if "spec_decode_requests" in doc else None
            ins = doc["specscan"]["inputs"]
            self.assertEqual(len(ins), 1)
            self.assertEqual(ins[0]["requests"], lines)   # still counted
            return doc, acc

    def test_aiperf_aggregate_json(self):
        # 10 lines, none a request: a JSON document spread over lines
        self.check("profile_export_aiperf.json", AGGREGATE,
                   "it looks like a JSON document spread over lines", 10)

    def test_csv(self):
        self.check("profile_export_aiperf.csv", "Metric,avg,min\nrequest_latency,1.0,0.5\n",
                   "it looks like a CSV file", 2)

    def test_log(self):
        self.check("server.log", "2026-12-06 08:00:00,123 INFO started\n"
                   "2026-12-06 08:00:01,000 INFO ready\n", "it looks like a log file", 2)

    def test_one_request_is_enough(self):
        # an input with one readable request among junk is read (exit 0)
        with open(td("groups", "base", "requests.jsonl")) as f:
            good = f.readline()
        with TempDir() as tmp:
            path = os.path.join(tmp, "mixed.jsonl")
            with open(path, "w") as f:
                f.write("{\n" + good)
            res = run(["-f", "json", path])
            self.assertRan(res, 0)
            self.assertNotIn("cannot be read", res.errtext)

    def test_beside_a_good_input(self):
        # the good input's report is written; the run exits 1 (SPEC 5)
        with TempDir() as tmp:
            bad = os.path.join(tmp, "profile_export_aiperf.json")
            with open(bad, "w") as f:
                f.write(AGGREGATE)
            res = run(["-f", "json", td("groups", "base", "requests.jsonl"), bad])
            self.assertRan(res, 1)
            doc = loads(res.out)
            self.assertEqual([i["requests"] for i in doc["specscan"]["inputs"]], [2, 10])
            self.assertEqual(json.dumps(doc["spec_decode_acceptance_length"]["avg"]), "2.0")

    def test_vllm_log_is_read(self):
        # SPEC 12.1: a log with one vLLM interval line (anchor "SpecDecoding
        # metrics: ") is a server input although it holds no request: read,
        # exit 0; its one anchored line counted, the other line not at all
        text = ("(APIServer pid=1) INFO 05-01 14:24:40 [api_server.py:1] Starting\n"
                "(APIServer pid=1) INFO 05-01 14:24:50 [metrics.py:101] SpecDecoding "
                "metrics: Mean acceptance length: 2.00, Accepted throughput: 1.00 tokens/s, "
                "Drafted throughput: 2.00 tokens/s, Accepted: 10 tokens, Drafted: 20 tokens, "
                "Per-position acceptance rate: 0.600, 0.400, Avg Draft acceptance rate: "
                "50.0%\n")
        with TempDir() as tmp:
            path = os.path.join(tmp, "vllm.log")
            with open(path, "w") as f:
                f.write(text)
            res = run(["-f", "json", path])
            self.assertRan(res, 0)
            self.assertNotIn("cannot be read", res.errtext)
            [inp] = loads(res.out)["specscan"]["inputs"]
            self.assertEqual((inp["kind"], inp["log_lines"], inp["bad_lines"]), ("log", 1, 0))

    def test_only_oversize_lines(self):
        # SPEC 13: an input whose lines are all oversize falls under the rule
        line = '{"pad":"%s"}\n' % ("x" * 100)     # 112 bytes, over 64
        with TempDir() as tmp:
            path = os.path.join(tmp, "long.jsonl")
            with open(path, "w") as f:
                f.write(line * 2)
            res = run(["-f", "none", "--max-record-size", "64", path])
            self.assertRan(res, 1)
            self.assertIn("%s: cannot be read: none of its 2 lines is a request or a server "
                          "line; its first line is longer than --max-record-size" % path,
                          res.errtext)

    def test_sse_keepalives_only(self):
        # SPEC 13: an SSE capture of only keep-alives and comments is exempt
        with TempDir() as tmp:
            path = os.path.join(tmp, "idle.sse")
            with open(path, "w") as f:
                f.write(": keep-alive\n\n: ping\n\n")
            res = run(["-f", "none", path])
            self.assertRan(res, 0)
            self.assertNotIn("cannot be read", res.errtext)


if __name__ == "__main__":
    main()
