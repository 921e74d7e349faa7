#!/usr/bin/env python3
"""Writes the fixtures of tests/cli/test_groups_dir.py (run from this folder).

Two runs of one model, `base/` and `eagle/`, each with per-request AIPerf raw
lines (one request per category, a vLLM body with k = 2) and the server's
/metrics page before and after the run. The expected values are worked out
by hand in the test from the histograms and counters written here.
"""
import json
import os

# (run, category, acceptance histogram for k = 2)
REQUESTS = [
    ("base", "coding", [1, 1, 2]),
    ("base", "chat", [2, 1, 1]),
    ("eagle", "coding", [0, 1, 3]),
    ("eagle", "chat", [1, 2, 1]),
    ("eagle", "math", [0, 0, 4]),
]

# run -> (before, after) counters: drafts, draft tokens, accepted tokens
PAGES = {
    "base": ((100, 200, 100), (200, 400, 200)),
    "eagle": ((50, 100, 60), (150, 300, 210)),
}


def body(hist):
    steps = sum(hist)
    acc = sum(i * h for i, h in enumerate(hist))
    return {
        "id": "cmpl", "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "x"}}],
        "usage": {"completion_tokens": steps + acc},
        "metrics": {"speculative_decoding": {
            "acceptance_histogram": hist, "num_spec_steps": steps,
            "mean_acceptance_length": 1 + acc / steps,
            "draft_acceptance_rate": acc / (2 * steps),
            "num_accepted_draft_tokens": acc, "num_draft_tokens": 2 * steps,
            "num_spec_tokens": 2}},
    }


def page(c):
    return ("# TYPE vllm:spec_decode_num_drafts counter\n"
            f'vllm:spec_decode_num_drafts_total{{model_name="m"}} {c[0]}\n'
            "# TYPE vllm:spec_decode_num_draft_tokens counter\n"
            f'vllm:spec_decode_num_draft_tokens_total{{model_name="m"}} {c[1]}\n'
            "# TYPE vllm:spec_decode_num_accepted_tokens counter\n"
            f'vllm:spec_decode_num_accepted_tokens_total{{model_name="m"}} {c[2]}\n')


def main():
    for run in PAGES:
        os.makedirs(run, exist_ok=True)
        with open(os.path.join(run, "requests.jsonl"), "w") as f:
            for r, cat, hist in REQUESTS:
                if r != run:
                    continue
                line = {"metadata": {"benchmark_phase": "profiling", "category": cat},
                        "responses": [{"perf_ns": 1, "text": json.dumps(body(hist))}]}
                f.write(json.dumps(line) + "\n")
        for name, c in zip(("before", "after"), PAGES[run]):
            with open(os.path.join(run, name + ".prom"), "w") as f:
                f.write(page(c))


if __name__ == "__main__":
    main()
