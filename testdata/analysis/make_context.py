#!/usr/bin/env python3
"""Write context.jsonl: 400 captured vLLM response bodies (k = 4) for the
README's tutorials on context length, variable draft lengths and the
definitions of acceptance length. The drafter accepts less often as the
prompt grows, drafts fewer tokens on some steps (per-step arrays), and the
usage counts the first token the prefill produces. Deterministic (a plain
LCG): python3 make_context.py."""
import json
import os

M = (1 << 64) - 1
K = 4


def lcg(x):
    return (x * 6364136223846793005 + 1442695040888963407) & M


def main(path, seed=7, n=400):
    x = seed
    lines = []
    for i in range(n):
        x = lcg(x)
        prompt = 64 << ((x >> 40) % 9)           # 64 .. 16384 tokens
        prompt += (x >> 20) % prompt             # anywhere in [2^j, 2^(j+1))
        # acceptance per draft token falls from 0.80 to about 0.50 with context
        per_mille = 800 - 35 * (prompt.bit_length() - 7)
        x = lcg(x)
        steps = 20 + (x >> 40) % 60
        acc_steps, drafted = [], []
        for _ in range(steps):
            x = lcg(x)
            d = K if (x >> 33) % 4 else 1 + (x >> 40) % (K - 1)  # a quarter draft less
            a = 0
            while a < d:
                x = lcg(x)
                if (x >> 33) % 1000 >= per_mille:
                    break
                a += 1
            acc_steps.append(a)
            drafted.append(d)
        hist = [0] * (K + 1)
        for a in acc_steps:
            hist[a] += 1
        acc, dr = sum(acc_steps), sum(drafted)
        sd = {"acceptance_histogram": hist, "num_spec_steps": steps,
              "mean_acceptance_length": 1 + acc / steps,
              "draft_acceptance_rate": acc / dr,
              "num_accepted_draft_tokens": acc, "num_draft_tokens": dr,
              "num_spec_tokens": K, "per_step_accepted": acc_steps,
              "per_step_drafted": drafted}
        body = {"id": "cmpl-%d" % i, "model": "Qwen/Qwen3-8B",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}}],
                "usage": {"prompt_tokens": prompt, "completion_tokens": 1 + steps + acc},
                "metrics": {"speculative_decoding": sd}}
        lines.append(json.dumps(body, separators=(",", ":")))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


main(os.path.join(os.path.dirname(os.path.abspath(__file__)), "context.jsonl"))
