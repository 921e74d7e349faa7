#!/usr/bin/env python3
"""AIPerf records lines read through one index (issue 12, second round): a
records line is validated whole, then its metadata and its
spec_decode_acceptance are read from the walk's index. The last of a
repeated key counts (SPEC 1.2); a line with an invalid span is unparsable;
a payload valid as JSON but not as a record is malformed. Expected values
follow from the lines written here, not from specscan's output."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, jsonl_lines, main, run

META = ('{"session_num":1,"x_request_id":"r1","benchmark_phase":"profiling",'
        '"was_cancelled":false}')
METRICS = '{"request_latency":{"value":241.5,"unit":"ms"},"output_sequence_length":{"value":9,"unit":"tokens"}}'
SDA_VLLM = ('{"engine":"vllm","mean_acceptance_length":2.0,"draft_acceptance_rate":0.5,'
            '"num_accepted_draft_tokens":2,'
            '"num_draft_tokens":4,"num_spec_steps":2,"num_spec_tokens":2}')
SDA_SGL = ('{"engine":"sglang","num_accepted_draft_tokens":3,"num_draft_tokens":4,'
           '"draft_acceptance_rate":0.75}')


def line(*parts):
    return "{" + ",".join('"%s":%s' % kv for kv in parts) + "}"


class RecordsParts(Case):
    def enrich(self, lines, *extra, rc=0):
        with TempDir() as d:
            src = os.path.join(d, "profile_export.jsonl")
            out = os.path.join(d, "out.jsonl")
            with open(src, "w") as f:
                f.write("".join(l + "\n" for l in lines))
            for j in ("1", "2"):
                res = run(["-q", "--no-progress", "-j", j, "-f", "none", "--force",
                           "--records", out, *extra, src])
                self.assertRan(res, rc)
                with open(out) as f:
                    got = jsonl_lines(f.read())
                if j == "1":
                    first = got
                else:
                    self.assertEqual(got, first, "-j1 and -j2 differ")
            return first

    def test_plain_line_ok(self):
        [r] = self.enrich([line(("metadata", META), ("metrics", METRICS),
                                ("spec_decode_acceptance", SDA_VLLM))])
        self.assertEqual(r["spec_decode_status"], "ok")
        self.assertEqual(r["spec_decode_acceptance"]["engine"], "vllm")

    def test_last_payload_counts(self):
        [r] = self.enrich([line(("metadata", META), ("metrics", METRICS),
                                ("spec_decode_acceptance", SDA_VLLM),
                                ("spec_decode_acceptance", SDA_SGL))])
        self.assertEqual(r["spec_decode_status"], "ok")
        sda = r["spec_decode_acceptance"]
        self.assertEqual(sda["engine"], "sglang")
        self.assertEqual(sda["num_accepted_draft_tokens"], 3)
        self.assertEqual(sda["num_draft_tokens"], 4)

    def test_last_payload_not_object(self):
        [r] = self.enrich([line(("metadata", META), ("metrics", METRICS),
                                ("spec_decode_acceptance", SDA_VLLM),
                                ("spec_decode_acceptance", "[1]"))])
        self.assertEqual(r["spec_decode_status"], "malformed")

    def test_last_metadata_counts(self):
        cancelled = META.replace('"was_cancelled":false', '"was_cancelled":true')
        rs = self.enrich([
            line(("metadata", META), ("metrics", METRICS),
                 ("spec_decode_acceptance", SDA_VLLM), ("metadata", cancelled)),
            line(("metadata", cancelled), ("metrics", METRICS),
                 ("spec_decode_acceptance", SDA_VLLM), ("metadata", META)),
        ])
        self.assertEqual([r["spec_decode_status"] for r in rs], ["cancelled", "ok"])
        self.assertEqual(rs[0]["metadata"], json.loads(cancelled))
        self.assertEqual(rs[1]["metadata"], json.loads(META))

    def test_invalid_spans_unparsable(self):
        rs = self.enrich([
            line(("metadata", META.replace("false", "fals")), ("metrics", METRICS),
                 ("spec_decode_acceptance", SDA_VLLM)),
            line(("metadata", META), ("metrics", METRICS.replace('"ms"', '"m\\x"')),
                 ("spec_decode_acceptance", SDA_VLLM)),
            line(("metadata", META), ("metrics", METRICS.replace("241.5", "241.")),
                 ("spec_decode_acceptance", SDA_VLLM)),
        ], rc=1)   # SPEC 5: no line is a request, the input could not be read
        self.assertEqual([r["spec_decode_status"] for r in rs], ["unparsable"] * 3)

    def test_payload_not_a_record(self):
        rs = self.enrich([
            line(("metadata", META), ("metrics", METRICS),
                 ("spec_decode_acceptance", SDA_VLLM.replace('"num_draft_tokens":4',
                                                             '"num_draft_tokens":1e400'))),
            line(("metadata", META), ("metrics", METRICS),
                 ("spec_decode_acceptance", SDA_VLLM.replace('"num_draft_tokens":4',
                                                             '"num_draft_tokens":-4'))),
        ])
        self.assertEqual([r["spec_decode_status"] for r in rs], ["malformed"] * 2)

    def test_engine_filter(self):
        rs = self.enrich([line(("metadata", META), ("metrics", METRICS),
                               ("spec_decode_acceptance", SDA_VLLM),
                               ("spec_decode_acceptance", SDA_SGL))], "--engine", "vllm")
        self.assertEqual(rs[0]["spec_decode_status"], "unrecognized")


if __name__ == "__main__":
    main()
