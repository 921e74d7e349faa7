#!/usr/bin/env python3
"""The key pre-filter never changes a result: SSE events (plain JSON) and raw
chunks (JSON inside a string) whose keys are written in unusual ways must
still be parsed when they matter.  Each request's status and completion
tokens below were worked out by hand from SPEC 1.2, 2.1-2.3; every run is
repeated with the pre-filter off (SPECSCAN_FULL_PARSE) and with each
vector width of the scan forced (SPECSCAN_SIMD)."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, loads, main, run

VLLM = ('{"mean_acceptance_length":2.0,"draft_acceptance_rate":0.5,'
        '"acceptance_histogram":[1,1,1],"num_spec_steps":3,'
        '"num_accepted_draft_tokens":3,"num_draft_tokens":6,"num_spec_tokens":2}')
TRT = ('{"total_accepted_draft_tokens":3,"total_draft_tokens":6,"num_spec_steps":3,'
       '"acceptance_histogram":[1,1,1],"num_spec_tokens":2,"acceptance_rate":0.5}')
CONTENT = '{"choices":[{"index":0,"delta":{"content":"hi"}}]}'
ROLE = '{"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}'
PAYLOAD = '{"choices":[],"usage":{"completion_tokens":7},"metrics":{"speculative_decoding":%s}}' % VLLM
PAYLOAD_NO_USAGE = '{"choices":[],"metrics":{"speculative_decoding":%s}}' % VLLM

# (name, events, status, completion_tokens or None, engine or None)
STREAMS = [
    ("plain", [ROLE, CONTENT, CONTENT, PAYLOAD], "ok", 7, "vllm"),
    ("usage key written with an escape",
     [ROLE, CONTENT, PAYLOAD_NO_USAGE, '{"choices":[],"\\u0075sage":{"completion_tokens":9}}'],
     "ok", 9, "vllm"),
    ("white space before colons",
     [CONTENT, '{"choices":[] , "metrics" :{"speculative_decoding"\t: %s}}' % VLLM],
     "ok", None, "vllm"),
    ("content key written with an escape",
     [ROLE, '{"choices":[{"index":0,"delta":{"\\u0063ontent":"x"}}]}', PAYLOAD],
     "ok", 7, "vllm"),
    ("key names inside a string value",
     [CONTENT, '{"choices":[{"index":0,"delta":{"content":"\\"usage\\": {\\"completion_tokens\\": 5}"}}]}',
      PAYLOAD],
     "ok", 7, "vllm"),
    ("no content at all", [ROLE, '{"choices":[{"index":0,"delta":{}}]}', PAYLOAD],
     "no_content", None, None),
    ("content only in a later chunk", [ROLE, ROLE, PAYLOAD, CONTENT], "ok", 7, "vllm"),
    ("two payloads", [CONTENT, PAYLOAD, CONTENT, PAYLOAD], "ambiguous", None, None),
    ("the last usage counts",
     [CONTENT, PAYLOAD, CONTENT, '{"choices":[],"usage":{"completion_tokens":11}}'],
     "ok", 11, "vllm"),
    ("an event over several data lines",
     [CONTENT, '{"choices":[],\n"usage":{"completion_tokens":4},\n"metrics":{"speculative_decoding":%s}}' % VLLM],
     "ok", 4, "vllm"),
    ("payload on the choice (TensorRT-LLM)",
     [ROLE, '{"choices":[{"index":0,"delta":{"content":"a"},"speculative_decoding":%s}]}' % TRT],
     "ok", None, "tensorrt_llm"),
    ("content only as tool calls",
     ['{"choices":[{"index":0,"delta":{"tool_calls":[{"id":"t"}]}}]}', PAYLOAD], "ok", 7, "vllm"),
    ("content only as reasoning",
     ['{"choices":[{"index":0,"delta":{"reasoning":"hmm"}}]}', PAYLOAD], "ok", 7, "vllm"),
    ("llama.cpp timings, cumulative",
     ['{"content":"a","timings":{"draft_n":4,"draft_n_accepted":2}}',
      '{"content":"b","timings":{"draft_n":6,"draft_n_accepted":3}}'],
     "ok", None, "llamacpp"),
    ("a payload key in an invalid event only", [CONTENT, '{"usage":{"completion_tokens":3}'],
     "no_stats", None, None),
]

VARIANTS = [
    ("default", None),
    ("full parse", {"SPECSCAN_FULL_PARSE": "1"}),
    ("generic", {"SPECSCAN_SIMD": "generic"}),
    ("avx2", {"SPECSCAN_SIMD": "avx2"}),
    ("avx512", {"SPECSCAN_SIMD": "avx512"}),
]


def sse_text():
    out = []
    for _, events, _, _, _ in STREAMS:
        for ev in events:
            for line in ev.split("\n"):
                out.append("data: %s\n" % line)
            out.append("\n")
        out.append("data: [DONE]\n\n")
    return "".join(out)


def raw_text():
    """The same requests as AIPerf raw lines: each event a data packet."""
    lines = []
    for _, events, _, _, _ in STREAMS:
        responses = [{"perf_ns": i + 1, "packets": [{"name": "data", "value": ev}]}
                     for i, ev in enumerate(events)]
        lines.append(json.dumps({"metadata": {"benchmark_phase": "profiling"},
                                 "responses": responses, "error": None}))
    return "\n".join(lines) + "\n"


class Prefilter(Case):
    def check(self, path):
        for label, env in VARIANTS:
            got = run(["-f", "jsonl", path], env=env)
            self.assertEqual(got.rc, 0, "%s: %r" % (label, got))
            recs = [loads(line) for line in got.text.splitlines()]
            self.assertEqual(len(recs), len(STREAMS), label)
            for rec, (name, _, status, tokens, engine) in zip(recs, STREAMS):
                what = "%s, %s" % (label, name)
                self.assertEqual(rec["spec_decode_status"], status, what)
                sda = rec.get("spec_decode_acceptance", {})
                self.assertEqual(sda.get("completion_tokens"), tokens, what)
                self.assertEqual(sda.get("engine"), engine, what)

    def test_sse_events(self):
        with TempDir() as d:
            path = os.path.join(d, "tricky.sse")
            with open(path, "w") as f:
                f.write(sse_text())
            self.check(path)

    def test_raw_chunks(self):
        with TempDir() as d:
            path = os.path.join(d, "tricky.jsonl")
            with open(path, "w") as f:
                f.write(raw_text())
            self.check(path)


if __name__ == "__main__":
    main()
