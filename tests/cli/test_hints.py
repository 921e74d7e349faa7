#!/usr/bin/env python3
"""When nothing shows up (SPEC 5, issue 23 item 5): a run whose requests
carry no statistics names the likely cause from what they showed (one case
per cause, each input written here by hand in the shape of its engine); a
--group-by meta.NAME that no request has says so; a directory that is not an
artifact directory says what it holds and how to pass it.  The causes ride
in the per-request reasons, so a merge of partials names them too."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sslib import Case, TempDir, jsonl_lines, main, run, td  # noqa: E402

VLLM_NO_SD = {"choices": [{"index": 0, "message": {"content": "hi"}}],
              "usage": {"completion_tokens": 3}, "metrics": {"arrival_time": 1.0}}
LLAMA_NO_DRAFT = {"choices": [{"index": 0, "message": {"content": "hi"}}],
                  "timings": {"predicted_n": 3, "predicted_ms": 9.5}}
SGLANG_OFF = {"text": "hi", "meta_info": {"id": "x", "completion_tokens": 3}}
PLAIN = {"choices": [{"index": 0, "message": {"content": "hi"}}],
         "usage": {"completion_tokens": 3}}
WITH_STATS = {"choices": [{"index": 0, "message": {"content": "hi"}}],
              "metrics": {"speculative_decoding": {
                  "mean_acceptance_length": 2.0, "draft_acceptance_rate": 1 / 3,
                  "acceptance_histogram": [2, 1, 0, 1], "num_spec_steps": 4,
                  "num_accepted_draft_tokens": 4, "num_draft_tokens": 12,
                  "num_spec_tokens": 3}}}


def chunk(content):
    return {"choices": [{"index": 0, "delta": {"content": content}}]}


def sse(*objs):
    return "".join("data: %s\n\n" % json.dumps(o) for o in objs) + "data: [DONE]\n\n"


def raw_line(*objs):
    """An AIPerf raw line: one response per streamed chunk."""
    return json.dumps({"metadata": {"benchmark_phase": "profiling"}, "status": 200,
                       "responses": [{"perf_ns": i, "packets": [
                           {"name": "data", "value": json.dumps(o)}]}
                           for i, o in enumerate(objs)]}) + "\n"


def lines(*objs):
    return "".join(json.dumps(o) + "\n" for o in objs)


class Hints(Case):
    def setUp(self):
        self.tmp = TempDir()
        self.dir = self.tmp.__enter__()

    def tearDown(self):
        self.tmp.__exit__(None, None, None)

    def put(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def check(self, text, name, words, count, total=None):
        path = self.put(name, text)
        res = run(["-f", "none", path])
        self.assertEqual(res.rc, 0, res)
        err = res.errtext
        self.assertIn("specscan: no request carried spec-decode statistics (%d of %d "
                      "without stats)" % (count, total or count), err)
        for w in words:
            self.assertIn(w, err)
        return path, err

    def test_vllm_without_the_flag(self):
        _, err = self.check(lines(VLLM_NO_SD, VLLM_NO_SD), "v.jsonl",
                            ["2 of them: vLLM responses with a metrics object but no "
                             "speculative_decoding", "--per-request-spec-decode-metrics"], 2)
        self.assertNotIn("Dynamo", err)   # a specific cause for all: no general one
        # streamed: the last chunk has the usage and a metrics object (the
        # key prefilter passes over the content chunks, not that one)
        last = {"choices": [], "usage": {"completion_tokens": 2}, "metrics": {"ttft": 0.1}}
        self.check(raw_line(chunk("a"), chunk("b"), last), "raw.jsonl",
                   ["1 of them: vLLM responses with a metrics object"], 1)

    def test_stream_without_usage(self):
        self.check(sse(chunk("a"), chunk("b")), "s.sse",
                   ["1 of them: streamed replies without a usage chunk",
                    '"stream_options": {"include_usage": true}'], 1)
        # the same as AIPerf raw lines, and a stream that has its usage chunk
        # falls back to the general causes
        usage = {"choices": [], "usage": {"completion_tokens": 2}}
        _, err = self.check(raw_line(chunk("a"), chunk("b")) + raw_line(chunk("a"), usage),
                            "r.jsonl", ["1 of them: streamed replies without a usage chunk",
                                        "the others: speculative decoding off"], 2)

    def test_llamacpp_without_a_draft_model(self):
        self.check(lines(LLAMA_NO_DRAFT), "l.jsonl",
                   ["llama.cpp timings without draft_n: no draft model was loaded"], 1)

    def test_sglang_speculation_off(self):
        self.check(lines(SGLANG_OFF), "g.jsonl",
                   ["SGLang meta_info without spec_verify_ct: speculative decoding was off"], 1)

    def test_general_causes(self):
        _, err = self.check(lines(PLAIN), "p.jsonl",
                            ["likely causes: speculative decoding off",
                             "NVIDIA Dynamo", "server's own counters"], 1)
        self.assertNotIn("of them:", err)

    def test_records_without_the_record(self):
        rec = {"metadata": {"benchmark_phase": "profiling"}, "metrics": {}}
        self.check(lines(rec), "rec.jsonl",
                   ["AIPerf records without a spec_decode_acceptance record"], 1)

    def test_silent_when_some_have_stats_or_quiet(self):
        path = self.put("m.jsonl", lines(WITH_STATS, VLLM_NO_SD))
        res = run(["-f", "none", path])
        self.assertEqual(res.rc, 0, res)
        self.assertEqual(res.errtext, "")
        path = self.put("q.jsonl", lines(VLLM_NO_SD))
        res = run(["-q", "-f", "none", path])
        self.assertEqual(res.errtext, "")

    def test_reason_in_the_records_and_a_merge(self):
        path = self.put("v.jsonl", lines(VLLM_NO_SD, PLAIN))
        part = os.path.join(self.dir, "part-0.jsonl")
        res = run(["-f", "none", "--records", part, path])
        self.assertEqual(res.rc, 0, res)
        with open(part) as f:
            reasons = [json.loads(l)["spec_decode_reason"] for l in f]
        self.assertEqual(reasons, ["no spec-decode payload: metrics without "
                                   "speculative_decoding", "no spec-decode payload"])
        # the merge reads the causes back from the reasons
        res = run(["-f", "none", part])
        self.assertEqual(res.rc, 0, res)
        self.assertIn("1 of them: vLLM responses with a metrics object", res.errtext)
        self.assertIn("the others: speculative decoding off", res.errtext)

    def test_group_by_a_missing_meta_key(self):
        sample = td("sample", "aiperf_raw_vllm.jsonl")
        res = run(["-f", "none", "--group-by", "meta.typo", sample])
        self.assertEqual(res.rc, 0, res)
        self.assertIn("specscan: --group-by meta.typo: no request has a metadata.typo that "
                      "is a string, an integer or a boolean; all are in the null group",
                      res.errtext)
        # a key that is there: nothing said
        res = run(["-f", "none", "--group-by", "meta.conversation_id,meta.typo2", sample])
        self.assertNotIn("meta.conversation_id:", res.errtext)
        self.assertIn("--group-by meta.typo2:", res.errtext)

    def test_a_directory_that_is_not_an_artifact_directory(self):
        run_dir = os.path.join(self.dir, "run1")
        os.mkdir(run_dir)
        for name in ("profile_export_aiperf.json", "profile_export_aiperf.csv", "plot.png"):
            self.put(os.path.join("run1", name), "x")
        res = run(["-f", "none", run_dir])
        self.assertEqual(res.rc, 3, res)
        self.assertIn("it holds plot.png, profile_export_aiperf.csv, "
                      "profile_export_aiperf.json; AIPerf's aggregates "
                      "(profile_export_aiperf.*) hold no per-request data", res.errtext)
        self.assertNotIn("-r walks", res.errtext)     # -r cannot help here
        # a tree and captures beside it: -r, and the files by name
        tree = os.path.join(self.dir, "tree")
        os.makedirs(os.path.join(tree, "b"))
        os.makedirs(os.path.join(tree, "a"))
        self.put(os.path.join("tree", "c.jsonl.zst"), "x")
        res = run(["-f", "none", tree])
        self.assertIn("it holds a/, b/, c.jsonl.zst; -r walks its subdirectories for "
                      "artifact directories; pass capture files by name (%s/*.jsonl.zst)" % tree,
                      res.errtext)

    def test_directory_globs_follow_what_it_holds(self):
        # issue 34 item 8: a trailing slash gives no "//", and the globs are
        # those of the files there, AIPerf's server export `.json` included
        os.makedirs(os.path.join(self.dir, "x"))
        d = os.path.dirname(self.put("x/a.json", lines(PLAIN)))
        self.put("x/b.jsonl", lines(PLAIN))
        res = run(["-f", "none", d + "/"])
        self.assertEqual(res.rc, 3, res)
        self.assertIn("pass capture files by name (%s/*.json, %s/*.jsonl)" % (d, d), res.errtext)
        self.assertNotIn("//", res.errtext)
        # SPEC 10.8: a directory of AIPerf's server export alone is an
        # artifact directory: its export is read (exit 0)
        res = run(["-f", "none", td("server", "aiperf") + "/"])
        self.assertEqual(res.rc, 0, res)

    def test_directory_of_pages_and_logs(self):
        # a category's before.prom/after.prom (SPEC 10.7) or a server log in
        # a folder of its own: the hint names them as files to pass, never
        # "none of them is a capture specscan reads"
        os.makedirs(os.path.join(self.dir, "coding"))
        d = os.path.dirname(self.put("coding/before.prom", "x 1\n"))
        self.put("coding/after.prom", "x 2\n")
        self.put("coding/server.log", "x\n")
        res = run(["-f", "none", d])
        self.assertEqual(res.rc, 3, res)
        self.assertIn("pass capture files by name (%s/*.prom, %s/*.log)" % (d, d), res.errtext)
        self.assertNotIn("none of them", res.errtext)

    def test_forced_kind_says_why_there_is_no_content(self):
        # issue 23 item 10: a body read as raw has no `responses`, a raw
        # line read as a body none of a body's keys; each reason says so
        body = self.put("b.jsonl", lines(PLAIN))
        res = run(["--input-kind", "raw", "-f", "jsonl", body])
        self.assertEqual(res.rc, 0, res)
        got = json.loads(res.out.decode())
        self.assertEqual((got["spec_decode_status"], got["spec_decode_reason"]),
                         ("no_content", "no responses array (read as raw: --input-kind raw)"))
        raw = self.put("r.jsonl", raw_line(chunk("a"), chunk("b")))
        res = run(["--input-kind", "body", "-f", "jsonl", raw])
        got = json.loads(res.out.decode())
        self.assertEqual(got["spec_decode_reason"],
                         "no choices, meta_info or timings (read as a body: --input-kind body)")
        # detected, the same lines are what they are
        res = run(["-f", "jsonl", body])
        self.assertEqual(json.loads(res.out.decode())["spec_decode_reason"],
                         "no spec-decode payload")

    def test_fast_path_names_the_same_cause(self):
        # the key prefilter skips chunks a full parse reads: the causes are
        # read only from objects both read, so both give the same reasons
        # (a metrics object alone in a stream's chunk says nothing)
        usage = {"choices": [], "usage": {"completion_tokens": 1}}
        text = (raw_line(chunk("a"), {"metrics": {"x": 1}}) +
                raw_line(chunk("a"), dict(usage, metrics={})) +
                raw_line({"choices": [{"delta": {"role": "a"}}], "metrics": {}}, chunk("b")) +
                raw_line(chunk("a"), {"timings": {"predicted_n": 1}}) +
                raw_line(dict(PLAIN, metrics={})))
        path = self.put("fz.jsonl", text)
        fast = run(["-f", "jsonl", path])
        full = run(["-f", "jsonl", path], env={"SPECSCAN_FULL_PARSE": "1"})
        self.assertEqual(fast.out, full.out)
        self.assertEqual([json.loads(l)["spec_decode_reason"] for l in fast.text.splitlines()],
                         ["no spec-decode payload: a stream without a usage chunk",
                          "no spec-decode payload: metrics without speculative_decoding",
                          "no spec-decode payload: a stream without a usage chunk",
                          "no spec-decode payload: timings without draft_n",
                          "no spec-decode payload: metrics without speculative_decoding"])

    def test_expect_value_as_the_json_writes_it(self):
        # issue 23 item 10: a failed --expect names the value in the
        # shortest form that reads back, the JSON's; here DAR = 4 / 12
        path = self.put("w.jsonl", lines(WITH_STATS))
        res = run(["--expect", "spec_decode_draft_acceptance_rate>=50", "-f", "json", path])
        self.assertEqual(res.rc, 4, res)
        text = res.out.decode()
        at = text.index('"spec_decode_draft_acceptance_rate"')
        avg = text[text.index('"avg": ', at) + 7:].split(",")[0]
        self.assertAlmostEqual(float(avg), 100 * 4 / 12, places=12)
        self.assertEqual(repr(float(avg)), avg)          # the shortest form
        self.assertIn("expectation failed: spec_decode_draft_acceptance_rate>=50 (the value "
                      "is %s)\n" % avg, res.errtext)


if __name__ == "__main__":
    main()
