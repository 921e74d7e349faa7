#!/usr/bin/env python3
"""SPEC 10.1's JSON shapes on the fixtures of testdata/server (aiperf/,
trtllm/, sglang/, and prometheus/, which a real Prometheus answered),
read by tests/tools/server_tool (--as jsonl: each line's shape found and
fed; --as document: AIPerf's server_metrics_export.json whole). The
windows are worked out by hand below from the counts the fixtures hold
(testdata/server/README.md states them); the doubles are Python's own
division of those integers.

SERVER_TOOL names the driver (default: tests/tools/server_tool beside the
SPECSCAN binary of sslib).
"""

import json
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sslib  # noqa: E402
from sslib import td  # noqa: E402

TOOL = os.environ.get("SERVER_TOOL") or os.path.join(
    os.path.dirname(os.path.abspath(sslib.SPECSCAN)), "tests", "tools", "server_tool")


def tool(*args):
    p = subprocess.run([TOOL] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=120)
    return p.returncode, json.loads(p.stdout.decode("utf-8")), p.stderr.decode("utf-8", "replace")


def only_family(doc, engine, counters):
    fams = doc["server"]["families"]
    assert len(fams) == 1, fams
    f = fams[0]
    assert (f["engine"], f["counters"]) == (engine, counters), f
    return f


class JsonShapes(unittest.TestCase):
    maxDiff = None

    def read(self, *args):
        rc, doc, err = tool(*args)
        self.assertEqual(rc, 0, err)
        self.assertEqual(doc["server"]["bad_lines"], 0, err)
        self.assertEqual(err, "")
        return doc

    def test_aiperf_jsonl(self):
        """Three scrapes of one endpoint, two engines. Engine 0: drafts
        100, 130, 150; draft tokens 300, 390, 450; accepted 150, 195, 225;
        P 70/50/30, 90/65/40, 104/75/46; DP = drafts. Engine 1: 40, 60,
        70; 120, 180, 210; 50, 74, 86; P 25/15/10, 37/23/14, 43/27/16.
        Window: S 50 + 30 = 80, D 150 + 90 = 240, A 75 + 36 = 111; P 52,
        37, 22; every position drafted each step, so H = 80-52, 52-37,
        37-22, 22. Intervals: S 50, D 150, A 45+24; S 30, D 90, A 30+12."""
        doc = self.read("--as", "jsonl", td("server", "aiperf", "server_metrics_export.jsonl"))
        self.assertEqual(doc["inputs"][0]["shapes"]["aiperf"], 3)
        self.assertEqual(doc["inputs"][0]["snapshots"], 3)
        f = only_family(doc, "vllm", "prometheus")
        self.assertEqual((f["snapshots"], f["series"], f["resets"]), (3, 2, 0))
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (80, 240, 111))
        self.assertEqual(f["acceptance_length"], 1 + 111 / 80)
        self.assertEqual(f["draft_acceptance_rate"], 111 / 240 * 100)
        self.assertEqual([p["accepted"] for p in f["positions"]], [52, 37, 22])
        self.assertEqual([p["drafted"] for p in f["positions"]], [80, 80, 80])
        self.assertTrue(f["consistent"])
        self.assertEqual(f["histogram"], {"0": 28, "1": 15, "2": 15, "3": 22})
        self.assertEqual(f["window"], {"start_ns": 1765793061967310848,
                                       "end_ns": 1765793062633000000})
        self.assertEqual([(i["steps"], i["draft_tokens"], i["accepted_tokens"])
                          for i in f["intervals"]], [(50, 150, 69), (30, 90, 42)])
        self.assertEqual(doc["server"]["endpoints"], 1)

    def test_aiperf_document(self):
        """The profiling window (scrapes 2 -> 3) as stats.total: S 20 + 10,
        D 60 + 30, A 30 + 12; P 14+6, 10+4, 6+2; DP 30 each = S, so
        H = 30-20, 20-14, 14-8, 8. One endpoint: one increment."""
        path = td("server", "aiperf", "server_metrics_export.json")
        doc = self.read("--as", "document", path)
        self.assertTrue(doc["inputs"][0]["document_name"])
        self.assertEqual(doc["inputs"][0]["snapshots"], 1)
        f = only_family(doc, "vllm", "prometheus")
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (30, 90, 42))
        self.assertEqual(f["acceptance_length"], 1 + 42 / 30)
        self.assertEqual(f["draft_acceptance_rate"], 42 / 90 * 100)
        self.assertEqual([p["accepted"] for p in f["positions"]], [20, 14, 8])
        self.assertEqual(f["histogram"], {"0": 10, "1": 6, "2": 6, "3": 8})
        self.assertEqual(f["window"], {"start_ns": None, "end_ns": None})
        self.assertFalse(f["since_start"])

    def test_trtllm_iterations(self):
        """Three polls: iterations (D, A, requests with drafts) 12/7/4,
        9/5/3; none; 6/6/2, one without statistics, 3/0/1. S 10, D 30,
        A 18: 1 + 18/10, 18/30 x 100. Four increments."""
        doc = self.read("--as", "jsonl", td("server", "trtllm", "iterations.jsonl"))
        self.assertEqual(doc["inputs"][0]["shapes"]["iterations"], 3)
        self.assertEqual(doc["inputs"][0]["snapshots"], 4)
        f = only_family(doc, "tensorrt_llm", "iterations")
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (10, 30, 18))
        self.assertEqual(f["acceptance_length"], 1 + 18 / 10)
        self.assertEqual(f["draft_acceptance_rate"], 18 / 30 * 100)

    def test_sglang_server_info(self):
        """Two polls, two data-parallel ranks: forward counts 200 -> 260
        and 180 -> 230 (S 110), accept counts 520 -> 700 and 450 -> 590
        (320, the bonus tokens included): A = 320 - 110 = 210."""
        doc = self.read("--as", "jsonl", td("server", "sglang", "server_info.jsonl"))
        self.assertEqual(doc["inputs"][0]["shapes"]["server_info"], 2)
        f = only_family(doc, "sglang", "server_info")
        self.assertEqual((f["series"], f["steps"], f["accepted_tokens"]), (2, 110, 210))
        self.assertEqual(f["acceptance_length"], 1 + 210 / 110)
        self.assertNotIn("draft_tokens", f)
        self.assertNotIn("draft_acceptance_rate", f)

    def test_prometheus_query_range(self):
        """What a real Prometheus kept of tests/cli/test_prometheus.py's
        exporter (its STEPS, summed by hand there): S 62, D 186, A 92,
        P 45, 32, 15, H 17, 13, 17, 15; a sample a second, four times."""
        doc = self.read("--as", "jsonl", td("server", "prometheus", "query_range.json"))
        self.assertEqual(doc["inputs"][0]["shapes"]["prometheus_api"], 1)
        self.assertEqual(doc["inputs"][0]["snapshots"], 4)
        f = only_family(doc, "vllm", "prometheus")
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (62, 186, 92))
        self.assertEqual([p["accepted"] for p in f["positions"]], [45, 32, 15])
        self.assertEqual(f["histogram"], {"0": 17, "1": 13, "2": 17, "3": 15})
        self.assertEqual((f["series"], f["resets"]), (2, 0))
        self.assertEqual(len(f["intervals"]), 3)

    def test_prometheus_query(self):
        """The instant query at the window's end: one snapshot, the counts
        since the exporter started: every step of test_prometheus.py's
        STEPS, the baseline's (drafts 100 + 50; accepted per position
        80+40, 60+30, 40+20) and the window's (62; 45, 32, 15): S 212,
        D 3 x 212, P 165, 122, 75, A their sum 362."""
        doc = self.read("--as", "jsonl", td("server", "prometheus", "query.json"))
        f = only_family(doc, "vllm", "prometheus")
        self.assertTrue(f["since_start"])
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (212, 636, 362))
        self.assertEqual([p["accepted"] for p in f["positions"]], [165, 122, 75])

    def test_other_lines_and_bad_parts(self):
        """Lines of no server shape are left to the caller; a bad value is
        a counted bad sample named by its place, never a stop."""
        with sslib.TempDir() as d:
            path = os.path.join(d, "mixed.jsonl")
            with open(path, "w") as f:
                f.write('{"responses":[]}\n\n')
                f.write('{"status":"success","data":{"resultType":"scalar","result":[1,"2"]}}\n')
                f.write('{"iter":1,"specDecodingStats":{"numDraftTokens":4,'
                        '"numAcceptedTokens":-1,"numRequestsWithDraftTokens":2}}\n')
                f.write('{"iter":2,"specDecodingStats":{"numDraftTokens":4,'
                        '"numAcceptedTokens":3,"numRequestsWithDraftTokens":2}}\n')
            rc, doc, err = tool("--as", "jsonl", path)
        self.assertEqual(rc, 0, err)
        self.assertEqual(doc["inputs"][0]["shapes"]["none"], 2)
        self.assertEqual(doc["inputs"][0]["shapes"]["iterations"], 2)
        self.assertEqual(doc["server"]["bad_lines"], 1)
        self.assertIn("mixed.jsonl:4: bad sample of numAcceptedTokens: ", err)
        f = only_family(doc, "tensorrt_llm", "iterations")
        # the bad value is left out; the rest of its iteration counts
        self.assertEqual((f["steps"], f["draft_tokens"], f["accepted_tokens"]), (4, 8, 3))


if __name__ == "__main__":
    if not os.access(TOOL, os.X_OK):
        sys.stderr.write("server_tool not found at %s (set SERVER_TOOL)\n" % TOOL)
        sys.exit(99)
    unittest.main(verbosity=2)
