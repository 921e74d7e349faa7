#!/usr/bin/env python3
"""Write categories.jsonl: ten AIPerf records lines for the flat table's
tests (tests/cli/test_flat.py), with metadata.category, one of each status
the table must keep, and numbers small enough to check by hand:

 line  category  k  histogram     steps acc drafted  AL    DAR (%)
 1     code      4  0:1 1:1 4:2   4     9   16       3.25  56.25
 2     code      4  0:2 2:1 3:1   4     5   16       2.25  31.25
 3     chat      2  0:1 1:1 2:2   4     5   8        2.25  62.5
 4     =cmd      2  1:3 2:1       4     5   8        2.25  62.5
 5     chat      -  cancelled
 6     -         -  not JSON (unparsable)
 7     code      4  no step (zero_step)
 8     chat      -  no spec_decode_acceptance (no_stats)
 9     code      2  2:4           4     8   8        3.0   100.0
 10    chat      4  sums to 3, steps 4 (malformed)

Per category, the mean acceptance length of the ok requests: code
(3.25 + 2.25 + 3.0) / 3 = 2.8333333333333335, chat 2.25, =cmd 2.25 (a
name a spreadsheet would run as a formula). Prompt tokens 10 (line 2: 30),
completion tokens steps + accepted. Run: python3 make_flat.py (writes
beside itself)."""
import json
import os


def meta(cat, i, cancelled=False):
    m = {"x_request_id": "req-%d" % i, "benchmark_phase": "profiling",
         "was_cancelled": cancelled}
    if cat is not None:
        m["category"] = cat
    return m


def line(i, cat, k, hist, steps=None, prompt=10):
    n = sum(hist.values()) if steps is None else steps
    acc = sum(j * c for j, c in hist.items())
    rec = {"engine": "vllm",
           "draft_acceptance_rate": acc / (k * n) if n else 0.0,
           "acceptance_histogram": {str(j): c for j, c in sorted(hist.items())},
           "num_accepted_draft_tokens": acc, "num_draft_tokens": k * n,
           "num_spec_steps": n, "num_spec_tokens": k,
           "completion_tokens": n + acc, "prompt_tokens": prompt}
    if n:
        rec = dict([("engine", "vllm"), ("mean_acceptance_length", 1 + acc / n)] +
                   list(rec.items())[1:])
    return {"metadata": meta(cat, i),
            "metrics": {"request_latency": {"value": 100.0 + i, "unit": "ms"}},
            "spec_decode_acceptance": rec}


def main():
    rows = [
        line(1, "code", 4, {0: 1, 1: 1, 4: 2}),
        line(2, "code", 4, {0: 2, 2: 1, 3: 1}, prompt=30),
        line(3, "chat", 2, {0: 1, 1: 1, 2: 2}),
        line(4, "=cmd", 2, {1: 3, 2: 1}),
        {"metadata": meta("chat", 5, cancelled=True), "metrics": {}},
        None,
        line(7, "code", 4, {}),
        {"metadata": meta("chat", 8), "metrics": {"request_latency": {"value": 99.0, "unit": "ms"}}},
        line(9, "code", 2, {2: 4}),
        line(10, "chat", 4, {0: 1, 1: 1, 2: 1}, steps=4),
    ]
    text = [json.dumps(r, separators=(",", ":")) if r is not None else '{"metadata":{' for r in rows]
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "categories.jsonl"), "w") as f:
        f.write("\n".join(text) + "\n")


if __name__ == "__main__":
    main()
