#!/usr/bin/env python3
"""Server logs and harness answer files through specscan (SPEC 12).

Every expected value is worked out by hand from SPEC 12.7's vectors (the
arithmetic is restated in the comments): the vLLM and SGLang log families
of the `server` key, llama.cpp task blocks as requests, Spec-Bench and
EAGLE answer lines as requests, the lines' counts in `specscan.inputs`,
every deployment prefix, colour codes, interleaved lines, a many-MB log
in a .tar.zst (made here, not committed), and bad input counted and named.
"""

import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sslib  # noqa: E402
from sslib import Case, TempDir, main, run  # noqa: E402

V1 = ("SpecDecoding metrics: Mean acceptance length: 2.37, Accepted throughput: 8.90 tokens/s, "
      "Drafted throughput: 97.50 tokens/s, Accepted: 89 tokens, Drafted: 975 tokens, "
      "Per-position acceptance rate: 0.600, 0.385, 0.215, 0.108, 0.062, 0.000, 0.000, 0.000, "
      "0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, Avg Draft acceptance rate: 9.1%")
VLLM1 = "(APIServer pid=1) INFO 05-01 14:24:50 [metrics.py:101] " + V1
VLLM2 = ("INFO 06-06 14:20:34 [metrics.py:86] SpecDecoding metrics: Draft acceptance rate: "
         "38.8%, Mean acceptance length: 2.16, Accepted: 150 tokens, Drafted: 387 tokens, "
         "Per-position acceptance rate: 0.543, 0.357, 0.264")
LLAMA = ("slot print_timing: id  1 | task 0 | draft acceptance = 0.64479 (  167 accepted /   "
         "259 generated), mean acceptance length =  2.92, acceptance rate per position = "
         "(0.805, 0.632, 0.483)")
SGLANG = ("[2026-07-21 15:00:13 TP0 EP0] Decode batch, #running-req: 24, #token: 233600, token "
          "usage: 0.66, accept len: 3.05, accept rate: 0.68, npu graph: True, gen throughput "
          "(token/s): 239.06, #queue-req: 2")


def llama_block(slot, task, prompt_ms, prompt_tok, eval_ms, eval_tok, draft=None):
    """The lines llama-server prints for one finished task."""
    pre = "slot print_timing: id %2d | task %d | " % (slot, task)
    lines = [pre + "prompt eval time = %10.2f ms / %5d tokens (    1.00 ms per token,  "
             "1000.00 tokens per second)" % (prompt_ms, prompt_tok),
             pre + "       eval time = %10.2f ms / %5d tokens (    1.00 ms per token,  "
             "1000.00 tokens per second)" % (eval_ms, eval_tok),
             pre + "      total time = %10.2f ms / %5d tokens" % (prompt_ms + eval_ms,
                                                               prompt_tok + eval_tok)]
    if draft:
        lines.append(pre + draft)
    return lines


def write(d, name, lines, data=None):
    p = os.path.join(d, name)
    with open(p, "wb") as f:
        f.write(data if data is not None else ("\n".join(lines) + "\n").encode())
    return p


def doc(res):
    return json.loads(res.out)


def family(j, engine):
    fams = [f for f in j["server"]["families"] if f["engine"] == engine and f["counters"] == "log"]
    return fams[0] if fams else None


class VllmLog(Case):
    def test_vector_one(self):
        # k 15, S = 975 / 15 = 65 (1 + 89/65 prints 2.37), A 89, D 975
        with TempDir() as d:
            r = run(["-f", "json", write(d, "v.log", [VLLM1, "INFO other text"])])
        self.assertRan(r)
        j = doc(r)
        f = family(j, "vllm")
        self.assertEqual((f["draft_tokens"], f["accepted_tokens"], f["steps"]), (975, 89, 65))
        self.assertEqual(f["acceptance_length"], 1 + 89 / 65)
        self.assertEqual(f["acceptance_length"], 2.3692307692307693)
        self.assertEqual(f["draft_acceptance_rate"], 9.12820512820513)
        self.assertEqual(f["assumes"], "full-length drafts")
        self.assertEqual(len(f["positions"]), 15)
        self.assertEqual(f["positions"][0]["rate"], 0.6)
        self.assertTrue(f["inexact"])
        self.assertEqual(j["specscan"]["inputs"][0]["kind"], "log")
        self.assertEqual(j["specscan"]["inputs"][0]["log_lines"], 1)
        self.assertEqual(j["specscan"]["requests"]["total"], 0)

    def test_vector_two_and_unpinned(self):
        # k 3, S = 387/3 = 129, 1 + 150/129 = 2.162790697674419
        with TempDir() as d:
            r = run(["-f", "json", write(d, "v.log", [VLLM2])])
            f = family(doc(r), "vllm")
            self.assertEqual((f["steps"], f["acceptance_length"]), (129, 2.162790697674419))
            # D 3652, A 25, k 4, mean 1.03: S = 913; with a D 10, k 4 line the
            # family's steps are unknown (10 is no multiple of 4)
            a = ("INFO 05-06 06:11:23 [metrics.py:101] SpecDecoding metrics: Mean acceptance "
                 "length: 1.03, Accepted: 25 tokens, Drafted: 3652 tokens, Per-position "
                 "acceptance rate: 0.027, 0.000, 0.000, 0.000")
            b = ("INFO 05-06 06:11:33 [metrics.py:101] SpecDecoding metrics: Accepted: 2 tokens, "
                 "Drafted: 10 tokens, Per-position acceptance rate: 0.100, 0.000, 0.000, 0.000")
            f = family(doc(run(["-f", "json", write(d, "a.log", [a])])), "vllm")
            self.assertEqual(f["steps"], 913)
            f = family(doc(run(["-f", "json", write(d, "b.log", [a, b])])), "vllm")
            self.assertNotIn("steps", f)
            self.assertNotIn("acceptance_length", f)
            self.assertEqual((f["draft_tokens"], f["accepted_tokens"]), (3662, 27))
            self.assertEqual(f["unpinned_lines"], 1)
            # SPEC 12.2: positions over the lines with steps (only a, S 913):
            # 27 x 913 / (1000 x 913) = 0.027, the rest 0
            self.assertEqual(f["positions"], [{"position": 1, "rate": 0.027},
                                              {"position": 2, "rate": 0.0},
                                              {"position": 3, "rate": 0.0},
                                              {"position": 4, "rate": 0.0}])
            r = run(["-f", "table", write(d, "b.log", [a, b])])
            self.assertIn("by position (printed rates, weighted by steps): 0.027, 0.000", r.text)
            self.assertIn("of the lines that pin their steps", r.text)

    def test_every_prefix_and_colour(self):
        # the same line behind each deployment prefix: the same counts
        # (8 lines: A 8 x 89, D 8 x 975, S 8 x 65); docker's and kubectl's
        # times make intervals
        esc = "\x1b"
        lines = [
            "2026-12-01T10:00:00.000000000Z " + VLLM1,                       # docker logs -t
            "[pod/vllm-0/vllm] 2026-12-01T10:00:10.000000000Z " + VLLM1,     # kubectl
            "vllm-1  | " + VLLM1,                                             # compose
            "Dec 01 10:00:30 gpu1 vllm[42]: " + VLLM1,                        # journald
            "3: " + VLLM1,                                                    # srun --label
            esc + "[1;36m(APIServer pid=1)" + esc + "[0;0m " + esc + "[32mINFO" + esc +
            "[0m 05-01 14:24:50 [metrics.py:101] " + V1,                      # colour
            "INFO 05-01 14:24:50 [metrics.py:101] " + V1 + "\r",              # CRLF
            V1,                                                               # bare
        ]
        with TempDir() as d:
            r = run(["-f", "json", write(d, "p.log", lines)])
        self.assertRan(r)
        j = doc(r)
        f = family(j, "vllm")
        self.assertEqual((f["draft_tokens"], f["accepted_tokens"], f["steps"]),
                         (8 * 975, 8 * 89, 8 * 65))
        self.assertEqual(j["specscan"]["inputs"][0]["log_lines"], 8)
        # two timed lines of the unnamed process and one of APIServer: the
        # docker and kubectl lines are the unnamed process's
        ends = sorted(iv["end_ns"] for iv in f["intervals"])
        t0 = 1796119200 * 10**9   # 2026-12-01T10:00:00Z
        self.assertEqual(ends, [t0, t0 + 10 * 10**9])

    def test_two_servers_mixed_and_refused(self):
        # two API servers' processes in one log: one family, two processes
        a = "(APIServer pid=11) INFO 05-06 06:11:23 [metrics.py:101] " + V1
        b = "(APIServer_DP1 pid=12) INFO 05-06 06:11:24 [metrics.py:101] " + V1
        v0 = ("INFO 10-16 19:05:47 metrics.py:367] Speculative metrics: Draft acceptance rate: "
              "0.642, System efficiency: 0.598, Number of speculative tokens: 3, Number of "
              "accepted tokens: 8547, Number of draft tokens: 13311, Number of emitted tokens: "
              "10616.")
        with TempDir() as d:
            r = run(["-f", "json", write(d, "m.log", [a, b, v0])])
        j = doc(r)
        f = family(j, "vllm")
        self.assertEqual((f["processes"], f["lines"], f["draft_tokens"]), (2, 2, 1950))
        inp = j["specscan"]["inputs"][0]
        self.assertEqual((inp["log_lines"], inp["refused_lines"], inp["bad_lines"]), (3, 1, 0))
        self.assertIn("m.log:3", r.errtext)


    def test_intervals_name_their_process(self):
        # SPEC 12.2 with 10.5: each timed line is an interval naming its
        # process, the prefix's (NAME pid=N) NAME (null without one); its
        # start is the previous timed line of the same process.
        t0 = 1796119200 * 10**9   # 2026-12-01T10:00:00Z
        lines = ["2026-12-01T10:00:00.000000000Z (APIServer pid=1) INFO x " + V1,
                 "2026-12-01T10:00:05.000000000Z (APIServer_DP1 pid=2) INFO x " + V1,
                 "2026-12-01T10:00:10.000000000Z (APIServer pid=1) INFO x " + V1,
                 "2026-12-01T10:00:20.000000000Z INFO x " + V1]
        with TempDir() as d:
            r = run(["-f", "json", write(d, "n.log", lines)])
        self.assertRan(r)
        f = family(doc(r), "vllm")
        self.assertEqual(f["processes"], 3)
        got = [(iv["process"], iv["start_ns"], iv["end_ns"]) for iv in f["intervals"]]
        self.assertEqual(got, [("APIServer", None, t0),
                               ("APIServer_DP1", None, t0 + 5 * 10**9),
                               ("APIServer", t0, t0 + 10 * 10**9),
                               (None, None, t0 + 20 * 10**9)])
        # 10.5's key order: process first
        self.assertEqual(list(f["intervals"][0])[:3], ["process", "start_ns", "end_ns"])


class LlamaLog(Case):
    def test_vector_request(self):
        # A 167, G 259: S 87 (the only S printing 2.92), k 3, n = 70, 55, 42,
        # histogram {0: 17, 1: 15, 2: 13, 3: 42}
        lines = ["main: server is listening"] + llama_block(1, 0, 120.5, 35, 2000.0, 201, LLAMA[36:])
        lines += ["srv  update_slots: all slots are idle"]
        with TempDir() as d:
            p = write(d, "l.log", lines)
            r = run(["-f", "json", "--records", os.path.join(d, "r.jsonl"), p])
            self.assertRan(r)
            with open(os.path.join(d, "r.jsonl")) as f:
                recs = [json.loads(x) for x in f]
        j = doc(r)
        self.assertEqual(j["specscan"]["requests"]["ok"], 1)
        self.assertEqual(j["specscan"]["inputs"][0]["kind"], "log")
        self.assertEqual(j["pooled_spec_decode_acceptance_histogram"],
                         {"0": 17, "1": 15, "2": 13, "3": 42})
        self.assertEqual(j["spec_decode_acceptance_length"]["avg"], 1 + 167 / 87)
        self.assertEqual(j["spec_decode_acceptance_length"]["avg"], 2.9195402298850572)
        self.assertEqual(len(recs), 1)
        rec = recs[0]
        self.assertEqual(rec["source"]["kind"], "log")
        self.assertEqual(rec["source"]["line"], 4)   # SPEC 13: its total time line
        self.assertEqual(rec["metadata"], {"slot": 1, "task": 0})
        sda = rec["spec_decode_acceptance"]
        self.assertEqual((sda["engine"], sda["num_spec_steps"], sda["num_spec_tokens"]),
                         ("llamacpp", 87, 3))
        self.assertEqual(sda["draft_acceptance_rate"], 0.6447876447876448)
        self.assertEqual((sda["prompt_tokens"], sda["completion_tokens"]), (35, 201))
        # SPEC 12.4 with 11.1: TTFT = prompt eval ms, latency = total ms,
        # ITL = 2000 / (201 - 1) = 10
        m = rec["metrics"]
        self.assertEqual(m["time_to_first_token"], {"value": 120.5, "unit": "ms"})
        self.assertEqual(m["request_latency"], {"value": 2120.5, "unit": "ms"})
        self.assertEqual(m["inter_token_latency"], {"value": 10, "unit": "ms"})

    def test_mean_len_and_baseline(self):
        # mean len 2.85 with A 24: S 13; a block without a draft line is no_stats
        draft = ("draft acceptance = 0.63158 (   24 accepted /    38 generated), "
                 "mean len =  2.85")
        lines = (llama_block(0, 1, 10, 10, 100, 38, draft) + ["srv  other"] +
                 llama_block(0, 2, 10, 10, 100, 11))
        with TempDir() as d:
            p = write(d, "l.log", lines)
            r = run(["-f", "json", "--records", os.path.join(d, "r.jsonl"), p])
            with open(os.path.join(d, "r.jsonl")) as f:
                recs = [json.loads(x) for x in f]
        j = doc(r)
        self.assertEqual((j["specscan"]["requests"]["ok"], j["specscan"]["requests"]["no_stats"]),
                         (1, 1))
        self.assertEqual(recs[0]["spec_decode_acceptance"]["num_spec_steps"], 13)
        self.assertEqual(recs[1]["spec_decode_status"], "no_stats")
        # the baseline's timing is carried for SPEC 11's speedup
        self.assertEqual(recs[1]["metrics"]["request_latency"], {"value": 110, "unit": "ms"})

    def test_interleaved_slots(self):
        # two slots' blocks with other lines between: two requests, A 167 + 24
        d2 = ("draft acceptance = 0.63158 (   24 accepted /    38 generated), "
              "mean len =  2.85")
        a = llama_block(1, 0, 120.5, 35, 2000.0, 201, LLAMA[36:])
        b = llama_block(0, 3, 10, 10, 100, 38, d2)
        lines = (["INFO other"] + a[:2] + ["srv  log_server_r: request: draft acceptance"] +
                 a[2:] + ["slot launch_slot_: id  0 | task 3 | processing task"] + b)
        with TempDir() as d:
            r = run(["-f", "json", write(d, "i.log", lines)])
        j = doc(r)
        self.assertEqual(j["specscan"]["requests"]["ok"], 2)
        self.assertEqual(j["total_accepted_draft_tokens"]["avg"], 167 + 24)
        self.assertEqual(j["total_draft_tokens"]["avg"], 259 + 38)


    def test_bad_draft_line_makes_block_malformed(self):
        # SPEC 13: a draft line that does not parse makes its block malformed
        # (counted and named), not a baseline; the line is a bad line too.
        # Block 1 is good (A 24, G 38), block 2's draft line has a count of
        # 19 digits, block 3 has no draft line (no_stats).
        good = ("draft acceptance = 0.63158 (   24 accepted /    38 generated), "
                "mean len =  2.85")
        broken = ("draft acceptance = 0.63158 (   24 accepted / 1234567890123456789 "
                  "generated), mean len =  2.85")
        lines = (llama_block(0, 1, 10, 10, 100, 38, good) + llama_block(1, 2, 10, 10, 100, 38, broken)
                 + llama_block(0, 3, 10, 10, 100, 11))
        with TempDir() as d:
            r = run(["-f", "json", write(d, "b.log", lines)])
        j = doc(r)
        req = j["specscan"]["requests"]
        self.assertEqual((req["total"], req["ok"], req["malformed"], req["no_stats"]), (3, 1, 1, 1))
        inp = j["specscan"]["inputs"][0]
        self.assertEqual((inp["log_lines"], inp["bad_lines"]), (1, 1))
        # named: the block's total time line (line 7), and the bad line (8)
        self.assertIn("b.log:7", r.errtext)
        self.assertIn("b.log:8", r.errtext)
        self.assertEqual(j["total_accepted_draft_tokens"]["avg"], 24)


class SglangLog(Case):
    def test_vector(self):
        # one line, accept len 3.05, #running-req 24 -> bucket 16
        with TempDir() as d:
            r = run(["-f", "json", write(d, "s.log", [SGLANG, "[2026-07-21 15:00:14] INFO x"])])
        self.assertRan(r)
        f = family(doc(r), "sglang")
        self.assertTrue(f["estimated"])
        self.assertEqual(f["accept_len"], {"lines": 1, "mean": 3.05, "weighted_mean": 3.05,
                                           "min": 3.05, "max": 3.05, "last": 3.05})
        self.assertEqual(f["by_running_req"], [{"running_req": 16, "lines": 1, "mean": 3.05}])
        # two lines: (3.05 x 24 + 1.95 x 1) / 25 = 75.15 / 25 = 3.006
        two = SGLANG.replace("#running-req: 24", "#running-req: 1").replace("3.05", "1.95")
        with TempDir() as d:
            f = family(doc(run(["-f", "json", write(d, "s.log", [SGLANG, two])])), "sglang")
        self.assertEqual(f["accept_len"]["weighted_mean"], 3.006)
        self.assertEqual(f["accept_len"]["mean"], 2.5)
        self.assertEqual([b["running_req"] for b in f["by_running_req"]], [1, 16])


    def test_intervals_name_their_process(self):
        # SPEC 12.3: the prefix's tag set names the process (tags sorted:
        # "TP0 EP0" is "EP0 TP0"); times from docker's -t prefix
        t0 = 1796119200 * 10**9
        other = SGLANG.replace("TP0 EP0", "DP1 TP1")
        lines = ["2026-12-01T10:00:00.000000000Z " + SGLANG,
                 "2026-12-01T10:00:01.000000000Z " + other,
                 "2026-12-01T10:00:02.000000000Z " + SGLANG]
        with TempDir() as d:
            f = family(doc(run(["-f", "json", write(d, "s.log", lines)])), "sglang")
        got = [(iv["process"], iv["start_ns"], iv["end_ns"]) for iv in f["intervals"]]
        self.assertEqual(got, [("EP0 TP0", None, t0), ("DP1 TP1", None, t0 + 10**9),
                               ("EP0 TP0", t0, t0 + 2 * 10**9)])


class Shards(Case):
    def test_shards_merge_like_one_run(self):
        # SPEC 12.6 with 8: logs are split into shards as whole inputs; the
        # merge run reads the partials and the logs again. The vLLM and
        # SGLang families and every input's log_lines / bad_lines /
        # refused_lines come out as one run's, byte for byte, and the
        # llama.cpp requests the partials brought are not counted twice.
        # The llama.cpp log: 2 blocks (A 167 of G 259; A 24 of G 38) and a
        # third whose draft line does not parse (malformed, 1 bad line).
        broken = ("draft acceptance = 0.5 (1 accepted / 2 generated)")
        d2 = "draft acceptance = 0.63158 (   24 accepted /    38 generated), mean len =  2.85"
        llama = (llama_block(1, 0, 120.5, 35, 2000.0, 201, LLAMA[36:]) +
                 llama_block(0, 3, 10, 10, 100, 38, d2) + llama_block(0, 4, 10, 10, 100, 38, broken))
        v0 = ("INFO 10-16 19:05:47 metrics.py:367] Speculative metrics: Draft acceptance rate: "
              "0.642, System efficiency: 0.598, Number of speculative tokens: 3, Number of "
              "accepted tokens: 8547, Number of draft tokens: 13311, Number of emitted tokens: "
              "10616.")
        t = "2026-12-01T10:00:%02d.000000000Z "
        with TempDir() as d:
            req = os.path.join(sslib.SRCDIR, "testdata", "engines", "vllm_bodies.jsonl")
            files = [req, write(d, "l.log", llama),
                     write(d, "v.log", [t % 0 + VLLM1, t % 10 + VLLM1, v0, t % 20 + VLLM2]),
                     write(d, "s.log", [t % 1 + SGLANG, t % 2 + SGLANG.replace("24", "3")])]
            one = run(["-f", "json", req] + files[1:2])
            self.assertEqual(doc(one)["specscan"]["requests"]["malformed"] -
                             doc(run(["-f", "json", req]))["specscan"]["requests"]["malformed"], 1)
            for n in (1, 2, 3, 4):
                parts = []
                for i in range(n):
                    p = os.path.join(d, "part-%d-%d.jsonl" % (n, i))
                    self.assertRan(run(["--shard", "%d/%d" % (i, n), "-f", "none",
                                        "--records", p] + files))
                    parts.append(p)
                for f in ("json", "csv", "table"):
                    want = run(["-f", f] + files)
                    got = run(["-f", f] + parts + files[1:])
                    self.assertEqual(got.rc, want.rc)
                    self.assertEqual(got.out.decode(), want.out.decode(), "%d shards, -f %s" % (n, f))
            j = doc(run(["-f", "json"] + parts + files[1:]))
        ins = {i["name"]: i for i in j["specscan"]["inputs"]}
        lg = ins[files[1]]
        self.assertEqual((lg["requests"], lg["log_lines"], lg["bad_lines"]), (3, 2, 1))
        self.assertEqual((ins[files[2]]["log_lines"], ins[files[2]]["refused_lines"]), (4, 1))
        self.assertEqual(ins[files[3]]["log_lines"], 2)
        # vLLM: D 975 + 975 + 387, A 89 + 89 + 150; SGLang: 2 lines
        v = family(j, "vllm")
        self.assertEqual((v["draft_tokens"], v["accepted_tokens"]), (2337, 328))
        self.assertEqual(family(j, "sglang")["accept_len"]["lines"], 2)


class Harness(Case):
    def test_spec_bench_thirteen_categories(self):
        # each line accept_lengths [3,1,4,2,2,2,1], new_tokens [10, 5]:
        # S 7, A 8, acceptance length 15/7, histogram {0: 2, 1: 3, 2: 1, 3: 1}
        cats = ["writing", "roleplay", "reasoning", "math", "coding", "extraction", "stem",
                "humanities", "translation", "summarization", "qa", "math_reasoning", "rag"]
        lines = []
        for i, c in enumerate(cats):
            lines.append(json.dumps({
                "question_id": i + 1, "category": c, "answer_id": "x%d" % i,
                "model_id": "vicuna-7b-eagle", "tstamp": 1.0,
                "choices": [{"index": 0, "turns": ["a", "b"], "decoding_steps": [4, 3],
                             "new_tokens": [10, 5], "wall_time": [0.5, 0.25],
                             "accept_lengths": [3, 1, 4, 2, 2, 2, 1]}]}))
        with TempDir() as d:
            p = write(d, "answers.jsonl", lines)
            r = run(["-f", "json", "--group-by", "meta.category", p])
            self.assertRan(r)
            j = doc(r)
            r2 = run(["-f", "json", "--records", os.path.join(d, "r.jsonl"), p])
            with open(os.path.join(d, "r.jsonl")) as f:
                rec = json.loads(f.readline())
            # the enriched lines read back (SPEC 8.1): the same requests
            back = doc(run(["-f", "json", os.path.join(d, "r.jsonl")]))
        self.assertEqual(back["specscan"]["requests"]["ok"], 13)
        self.assertEqual(back["spec_decode_acceptance_length"]["avg"], 15 / 7)
        self.assertEqual(j["specscan"]["requests"]["ok"], 13)
        self.assertEqual(j["specscan"]["inputs"][0]["kind"], "harness")
        rows = j["analysis"]["groups"]["rows"]
        self.assertEqual(sorted(r["key"]["meta.category"] for r in rows), sorted(cats))
        for row in rows:
            self.assertEqual(row["pooled_spec_decode_acceptance_histogram"],
                             {"0": 2, "1": 3, "2": 1, "3": 1})
        self.assertEqual(j["spec_decode_acceptance_length"]["avg"], 15 / 7)
        self.assertEqual(j["spec_decode_acceptance_length"]["avg"], 2.142857142857143)
        self.assertEqual(j["pooled_spec_decode_acceptance_histogram"],
                         {"0": 26, "1": 39, "2": 13, "3": 13})
        # no drafted tokens: no draft acceptance rate
        self.assertNotIn("spec_decode_draft_acceptance_rate", j)
        self.assertNotIn("spec_decode_overall_draft_acceptance_rate", j)
        sda = rec["spec_decode_acceptance"]
        self.assertEqual((sda["engine"], sda["num_spec_steps"], sda["num_accepted_draft_tokens"]),
                         ("spec_bench", 7, 8))
        self.assertNotIn("num_draft_tokens", sda)
        self.assertEqual(rec["metadata"], {"question_id": 1, "category": "writing"})
        self.assertEqual(rec["metrics"]["request_latency"], {"value": 750, "unit": "ms"})
        self.assertEqual(rec["model"], "vicuna-7b-eagle")
        self.assertRan(r2)

    def test_eagle_and_bad(self):
        # idxs [41, 37], new_tokens [160, 150]: S 80, A 230, 310/80 = 3.875
        good = {"question_id": 81, "answer_id": "a", "model_id": "m-temperature-0.0",
                "choices": [{"index": 0, "turns": ["x", "y"], "idxs": [41, 37],
                             "new_tokens": [160, 150], "wall_time": [1.0, 1.0]}]}
        neg = {"question_id": 82, "choices": [{"turns": ["x"], "idxs": [9],
                                               "new_tokens": [5]}]}
        neither = {"question_id": 83, "choices": [{"turns": ["x"]}]}
        body = {"question_id": 84, "choices": [{"message": {"content": "hi"}}]}
        with TempDir() as d:
            p = write(d, "e.jsonl", [json.dumps(x) for x in (good, neg, neither, body)])
            r = run(["-f", "json", p])
        j = doc(r)
        self.assertEqual(j["spec_decode_acceptance_length"]["avg"], 3.875)
        self.assertEqual(j["total_accepted_draft_tokens"]["avg"], 230)
        acc = j["specscan"]["requests"]
        self.assertEqual((acc["ok"], acc["malformed"], acc["unrecognized"]), (1, 1, 1))
        self.assertEqual(acc["total"], 4)   # the last line is a body (no_stats)


class BadAndBig(Case):
    def test_bad_lines_counted_and_named(self):
        lines = [
            VLLM1[:120],                                                        # truncated
            "INFO SpecDecoding metrics: Accepted: 1234567890123456789 tokens, Drafted: 2 tokens",
            "INFO SpecDecoding metrics: Accepted: 1 tokens, Drafted: 2 tokens, "
            "Per-position acceptance rate: 0.5;0.5",                            # bad list
            VLLM1,
        ]
        with TempDir() as d:
            p = write(d, "bad.log", lines)
            with open(p, "ab") as f:
                f.write(bytes(random.Random(1).randrange(256) for _ in range(4096)) + b"\n")
            r = run(["-f", "json", p])
        self.assertRan(r)
        j = doc(r)
        inp = j["specscan"]["inputs"][0]
        self.assertEqual((inp["bad_lines"], inp["log_lines"]), (3, 1))
        for n in (1, 2, 3):
            self.assertIn("bad.log:%d" % n, r.errtext)
        self.assertEqual(family(j, "vllm")["draft_tokens"], 975)

    def test_line_over_limit_and_forced_kind(self):
        # a line over --max-record-size is a bad line; reading goes on
        with TempDir() as d:
            p = write(d, "big.log", None, data=(VLLM1 + "\n" + "SpecDecoding metrics: " +
                                               "x" * 5000 + "\n" + VLLM1 + "\n").encode())
            r = run(["-f", "json", "--max-record-size", "1K", p])
            inp = doc(r)["specscan"]["inputs"][0]
            self.assertEqual((inp["bad_lines"], inp["log_lines"]), (1, 2))
            # an anchor past the first 64 KiB is not detected; --input-kind log reads it
            q = write(d, "late.log", None, data=(b"INFO x\n" * 20000) + (VLLM1 + "\n").encode())
            self.assertNotEqual(doc(run(["-f", "json", q]))["specscan"]["inputs"][0]["kind"], "log")
            j = doc(run(["-f", "json", "--input-kind", "log", q]))
            self.assertEqual(family(j, "vllm")["draft_tokens"], 975)

    def test_hundred_mb_line(self):
        # one 100 MB line after an anchor: a bad line, bounded memory, no hang
        with TempDir() as d:
            p = os.path.join(d, "huge.log")
            with open(p, "wb") as f:
                f.write((VLLM1 + "\n").encode())
                f.write(b"SpecDecoding metrics: " + b"9" * (100 << 20) + b"\n")
                f.write((VLLM1 + "\n").encode())
            r = run(["-f", "json", p], timeout=300)
        self.assertRan(r)
        inp = doc(r)["specscan"]["inputs"][0]
        self.assertEqual((inp["bad_lines"], inp["log_lines"]), (1, 2))

    def test_many_mb_log_in_tar_zst(self):
        if not sslib.have_tool("zstd"):
            self.skipTest("zstd not installed")
        # 200,000 lines, one vLLM line in fifty: 4,000 lines of A 89, D 975
        n = 200000
        with TempDir() as d:
            gen = os.path.join(d, "server.log")
            with open(gen, "w") as f:
                for i in range(n):
                    if i % 50 == 49:
                        f.write("2026-12-01T10:%02d:%02d.000000000Z %s\n" % (i // 50 // 60 % 60,
                                                                           i // 50 % 60, VLLM1))
                    else:
                        f.write("(APIServer pid=1) INFO 05-01 14:24:50 [loggers.py:123] Engine "
                                "000: Avg prompt throughput: 0.0 tokens/s, request %d\n" % i)
            self.assertGreater(os.path.getsize(gen), 10 << 20)
            tarp = os.path.join(d, "logs.tar")
            subprocess.run(["tar", "-C", d, "-cf", tarp, "server.log"], check=True)
            subprocess.run(["zstd", "-q", "--rm", tarp], check=True)
            r = run(["-f", "json", tarp + ".zst"], timeout=300)
        self.assertRan(r)
        j = doc(r)
        inp = j["specscan"]["inputs"][0]
        self.assertEqual(inp["name"], tarp + ".zst:server.log")
        self.assertEqual((inp["kind"], inp["log_lines"]), ("log", 4000))
        f = family(j, "vllm")
        self.assertEqual((f["draft_tokens"], f["accepted_tokens"], f["steps"]),
                         (4000 * 975, 4000 * 89, 4000 * 65))


if __name__ == "__main__":
    main()
