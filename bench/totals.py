#!/usr/bin/env python3
"""Totals of an AIPerf raw corpus, computed the plain way with Python's json.

Reads AIPerf --export-level raw JSONL (files given, or stdin) and sums, over
the profiling-phase requests that succeeded (no "error", not cancelled) and
whose metrics.speculative_decoding payload reports at least one step, the
numbers specscan reports as requests.ok, total_spec_decode_steps,
total_accepted_draft_tokens and total_draft_tokens.  Every data packet is
parsed as JSON, as a naive reader would.  Prints one line:

  requests=N steps=N accepted=N drafted=N

It is the Python neighbour of bench/run.sh and a cross-check of specscan's
totals; bench/totals.jq does the same with jq.
"""

import json
import sys


def element_objects(elem):
    """The JSON objects one responses[] element carries."""
    if not isinstance(elem, dict):
        return
    packets = elem.get("packets")
    if isinstance(packets, list):
        parts = [p.get("value") for p in packets
                 if isinstance(p, dict) and p.get("name") == "data"]
        text = "\n".join(v for v in parts
                         if isinstance(v, str) and v and v != "[DONE]")
    elif isinstance(elem.get("text"), str):
        text = elem["text"]
    else:
        return
    if not text:
        return
    try:
        obj = json.loads(text)
    except ValueError:
        return
    if isinstance(obj, dict):
        yield obj


def line_payload(line):
    """The spec-decode payload of a profiling-phase ok line, else None."""
    if not isinstance(line, dict) or line.get("error") is not None:
        return None
    meta = line.get("metadata")
    if not isinstance(meta, dict):
        meta = {}
    phase = meta.get("benchmark_phase") or meta.get("credit_phase") or "profiling"
    if phase != "profiling" or meta.get("was_cancelled") is True:
        return None
    payload = None
    for elem in line.get("responses") or ():
        for obj in element_objects(elem):
            metrics = obj.get("metrics")
            if isinstance(metrics, dict) and isinstance(metrics.get("speculative_decoding"), dict):
                payload = metrics["speculative_decoding"]
    return payload


def main(paths):
    requests = steps = accepted = drafted = 0
    files = paths or ["-"]
    for path in files:
        f = sys.stdin.buffer if path == "-" else open(path, "rb")
        with f:
            for raw in f:
                if not raw.strip():
                    continue
                try:
                    line = json.loads(raw)
                except ValueError:
                    continue
                p = line_payload(line)
                if p is None or not p.get("num_spec_steps"):
                    continue
                requests += 1
                steps += p["num_spec_steps"]
                accepted += p["num_accepted_draft_tokens"]
                drafted += p["num_draft_tokens"]
    print("requests=%d steps=%d accepted=%d drafted=%d"
          % (requests, steps, accepted, drafted))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
