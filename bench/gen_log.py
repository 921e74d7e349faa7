#!/usr/bin/env python3
"""Generate a synthetic vLLM server log for the log-input benchmark
(SPEC 12; bench/README.md, "Log inputs").

The shape of what `docker logs` of a busy vLLM API server holds: HTTP
access lines of the chat endpoint, the engine's `Avg prompt throughput`
stats line and, after it, the `SpecDecoding metrics:` line (V1d, k = 15)
every --every lines (default 50: one spec line in fifty), with the
`(APIServer pid=1)` process prefix. Deterministic (seeded).

  bench/gen_log.py --size 100M [--every 50] > vllm.log

Each spec line prints 30 accepted of 300 drafted tokens over 20 steps, so
a log of n spec lines gives accepted 30 n, drafted 300 n, steps 20 n.
"""
import argparse
import random
import sys

SPEC = ("(APIServer pid=1) INFO 12-01 10:%02d:%02d [metrics.py:101] SpecDecoding metrics: "
        "Mean acceptance length: 2.50, Accepted throughput: 3.00 tokens/s, Drafted throughput: "
        "30.00 tokens/s, Accepted: 30 tokens, Drafted: 300 tokens, Per-position acceptance "
        "rate: 0.750, 0.400, 0.200, 0.100, 0.050, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, "
        "0.000, 0.000, 0.000, 0.000, Avg Draft acceptance rate: 10.0%%\n")
ENGINE = ("(APIServer pid=1) INFO 12-01 10:%02d:%02d [loggers.py:123] Engine 000: Avg prompt "
          "throughput: 120.5 tokens/s, Avg generation throughput: 80.2 tokens/s, Running: 4 "
          "reqs, Waiting: 0 reqs, GPU KV cache usage: 3.1%%, Prefix cache hit rate: 0.0%%\n")
ACCESS = ('(APIServer pid=1) INFO:     127.0.0.1:%d - "POST /v1/chat/completions HTTP/1.1" '
          '200 OK\n')


def size_arg(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    if text[-1:].upper() in units:
        return int(float(text[:-1]) * units[text[-1].upper()])
    return int(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=size_arg, default=100 << 20, help="bytes (100M)")
    ap.add_argument("--every", type=int, default=50, help="one spec line in EVERY lines")
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    out = sys.stdout
    size = i = 0
    while size < a.size:
        t = (i // 600 % 60, i // 10 % 60)
        if i % a.every == 0:
            line = SPEC % t
        elif i % a.every == 1:
            line = ENGINE % t
        else:
            line = ACCESS % rnd.randrange(30000, 60000)
        out.write(line)
        size += len(line)
        i += 1


if __name__ == "__main__":
    main()
