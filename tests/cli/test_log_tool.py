#!/usr/bin/env python3
"""The logs stage through its driver (tests/tools/log_tool): the fixture logs
of testdata/logs read as files, bad lines counted and named with their line
numbers (never their text), a 100 MB line and binary garbage read in
bounded memory without a crash.

Expected values are added up by hand from the fixtures' lines (the same
sums as tests/unit/test_log_fixtures.c, restated). LOG_TOOL names the
driver (default: tests/tools/log_tool beside the specscan binary).
"""

import json
import os
import random
import resource
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sampled  # noqa: E402
import sslib  # noqa: E402
from sslib import Case, main, td  # noqa: E402

TOOL = sslib.tool_path("log_tool")


def tool(args, stdin=None, limit=None):
    """Run the driver; `limit` caps its address space (bytes)."""
    if limit and sampled.sanitized(TOOL):
        limit = None  # ASan reserves terabytes of shadow: no address-space cap
    pre = (lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit))) if limit else None
    r = subprocess.run([TOOL] + args, input=stdin, capture_output=True, timeout=300,
                       preexec_fn=pre)
    return r.returncode, json.loads(r.stdout.decode()), r.stderr.decode()


class LogTool(Case):
    def test_vllm_v1d_docker(self):
        # 89 + 30 + 0 accepted of 975 + 300 + 150; S 65 + 20 + 10, k 15
        rc, j, _ = tool([td("logs", "vllm_v1d_docker.log")])
        self.assertEqual(rc, 0)
        self.assertEqual(j["lines"], 7)
        self.assertEqual(j["log_lines"], 3)
        self.assertEqual(j["bad_lines"], 0)
        self.assertEqual(j["vllm"], {"lines": 3, "accepted": 119, "drafted": 1425, "unpinned": 0,
                                     "unknown_items": 0, "steps": 95, "k": 15})

    def test_vllm_unpinned_and_refused(self):
        # V1b's D 100 line has no list: the family has no steps
        _, j, _ = tool([td("logs", "vllm_v1b_compose.log")])
        self.assertEqual(j["vllm"], {"lines": 2, "accepted": 40, "drafted": 100, "unpinned": 1,
                                     "unknown_items": 0})
        _, j, _ = tool([td("logs", "vllm_v0_nohup.log")])
        self.assertEqual((j["refused"], j["vllm"]["lines"], j["bad_lines"]), (2, 0, 0))

    def test_bad_lines_named(self):
        rc, j, _ = tool([td("logs", "vllm_bad.log")])
        self.assertEqual(rc, 0)
        self.assertEqual(j["bad_lines"], 4)
        self.assertEqual(j["vllm"]["lines"], 1)
        self.assertEqual(j["named"], [
            "line 1: vLLM: a count that is not an integer",
            "line 2: vLLM: a count with more than 18 digits",
            "line 3: vLLM: a position rate that is not a number with three decimals",
            "line 5: vLLM: an item that is not KEY: VALUE"])

    def test_sglang(self):
        # (3.05 x 24 + 2.95 x 32 + 1.00 x 48) / 104 = 215.6 / 104
        _, j, _ = tool([td("logs", "sglang_s4_kubectl.log")])
        s = j["sglang"]
        self.assertEqual((s["lines"], s["min"], s["max"], s["last"]), (3, 1.0, 3.05, 1.0))
        self.assertAlmostEqual(s["weighted_mean"], 215.6 / 104, places=12)
        self.assertAlmostEqual(s["mean"], 7.0 / 3, places=12)

    def test_llama(self):
        cases = {
            # requests, with draft, with steps, with histogram, A, G, malformed
            "llama_l2_l3_timestamps.log": (2, 2, 1, 1, 191, 297, 0),
            "llama_l0_l1.log": (2, 2, 0, 0, 1357, 1504, 0),
            "llama_baseline.log": (3, 0, 0, 0, 0, 0, 0),
            "llama_l4_docker.log": (2, 2, 1, 1, 36, 48, 1),
        }
        for name, want in cases.items():
            _, j, _ = tool([td("logs", name)])
            c = j["llamacpp"]
            got = (c["requests"], c["with_draft"], c["with_steps"], c["with_histogram"],
                   c["accepted"], c["generated"], c["malformed"])
            self.assertEqual(got, want, name)
        _, j, _ = tool([td("logs", "llama_l4_docker.log")])
        self.assertEqual(j["named"], ["line 3: llama.cpp: no ' = ' after draft acceptance"])

    def test_huge_line_and_garbage(self):
        good = b"INFO SpecDecoding metrics: Accepted: 1 tokens, Drafted: 2 tokens\n"
        big = b"INFO SpecDecoding metrics: Accepted: 1 tokens, " + b"x" * (100 << 20) + b"\n"
        # an address space of 96 MiB cannot hold the 100 MiB line (not
        # checked under ASan)
        rc, j, err = tool([], stdin=good + big + good, limit=96 << 20)
        self.assertEqual(rc, 0, err)
        self.assertEqual((j["lines"], j["too_long"], j["bad_lines"], j["vllm"]["lines"]),
                         (3, 1, 1, 2))
        self.assertEqual(j["named"], ["line 2: log: a line longer than 64 KiB"])
        rnd = random.Random(33)
        junk = bytes(rnd.getrandbits(8) for _ in range(1 << 20))
        anchors = b"\n".join(a + bytes(rnd.getrandbits(8) for _ in range(64))
                             for a in (b"SpecDecoding metrics: ", b"Decode batch",
                                       b"draft acceptance", b"slot print_timing: id ") * 50)
        rc, j, _ = tool([], stdin=junk + b"\n" + anchors)
        self.assertEqual(rc, 0)
        self.assertGreaterEqual(j["bad_lines"], 150)


if __name__ == "__main__":
    main()
