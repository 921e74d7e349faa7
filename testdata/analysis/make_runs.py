#!/usr/bin/env python3
"""Write run-a.jsonl and run-b.jsonl: two small runs of captured vLLM
response bodies (k = 4), for the README's analysis tutorial. Run B's
drafter accepts a little more often. And soak.jsonl: a two-hour soak as
AIPerf records lines (one request every 20 s, each with its
request_start_ns and request_end_ns), whose drafter accepts less after
the first hour, with two repetition loops (every draft accepted) and two
garbled replies (every draft rejected). Deterministic (a plain LCG), so the
files are reproducible: python3 make_runs.py."""
import json
import os

M = (1 << 64) - 1


def lcg(x):
    return (x * 6364136223846793005 + 1442695040888963407) & M


def run(path, seed, accept_per_mille, n=400, k=4):
    x = seed
    lines = []
    for i in range(n):
        x = lcg(x)
        steps = 20 + (x >> 40) % 60
        hist = [0] * (k + 1)
        for _ in range(steps):
            a = 0
            while a < k:
                x = lcg(x)
                if (x >> 33) % 1000 >= accept_per_mille:
                    break
                a += 1
            hist[a] += 1
        acc = sum(j * c for j, c in enumerate(hist))
        x = lcg(x)
        prompt = ("chat", "code", "summarize")[(x >> 50) % 3]
        sd = {"acceptance_histogram": hist, "num_spec_steps": steps,
              "mean_acceptance_length": 1 + acc / steps,
              "draft_acceptance_rate": acc / (k * steps),
              "num_accepted_draft_tokens": acc, "num_draft_tokens": k * steps,
              "num_spec_tokens": k}
        body = {"id": "cmpl-%d" % i, "model": "Qwen/Qwen3-8B",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": prompt}}],
                "usage": {"completion_tokens": steps + acc},
                "metrics": {"speculative_decoding": sd}}
        lines.append(json.dumps(body, separators=(",", ":")))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def soak(path, seed=5, n=360, k=4):
    x = seed
    t0 = 1787366400 * 10 ** 9
    lines = []
    for i in range(n):
        x = lcg(x)
        steps = 20 + (x >> 40) % 60
        # 700 per mille for the first hour, then sinking to 450 by the end
        per_mille = 700 if i < n // 2 else 700 - (250 * (i - n // 2)) // (n // 2)
        hist = [0] * (k + 1)
        for _ in range(steps):
            a = 0
            while a < k:
                x = lcg(x)
                if (x >> 33) % 1000 >= per_mille:
                    break
                a += 1
            hist[a] += 1
        if i in (97, 301):
            hist = [0] * k + [steps]      # a repetition loop: every draft accepted
        if i in (150, 222):
            hist = [steps] + [0] * k      # garbled output: every draft rejected
        acc = sum(j * c for j, c in enumerate(hist))
        start = t0 + i * 20 * 10 ** 9 + (x >> 30) % (5 * 10 ** 9)
        end = start + (steps * 30 + (x >> 45) % 500) * 10 ** 6
        rec = {"engine": "vllm", "mean_acceptance_length": 1 + acc / steps,
               "draft_acceptance_rate": acc / (k * steps),
               "acceptance_histogram": {str(j): c for j, c in enumerate(hist) if c},
               "num_accepted_draft_tokens": acc, "num_draft_tokens": k * steps,
               "num_spec_steps": steps, "num_spec_tokens": k,
               "completion_tokens": steps + acc}
        line = {"metadata": {"session_num": i, "conversation_id": "conv-%d" % i,
                             "request_start_ns": start, "request_end_ns": end,
                             "benchmark_phase": "profiling", "was_cancelled": False},
                "metrics": {"request_latency": {"value": (end - start) / 1e6, "unit": "ms"}},
                "model": "Qwen/Qwen3-8B", "spec_decode_acceptance": rec}
        lines.append(json.dumps(line, separators=(",", ":")))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


here = os.path.dirname(os.path.abspath(__file__))
run(os.path.join(here, "run-a.jsonl"), 1, 700)
run(os.path.join(here, "run-b.jsonl"), 2, 730)
soak(os.path.join(here, "soak.jsonl"))
