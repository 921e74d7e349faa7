#!/usr/bin/env python3
"""Generate a synthetic benchmark corpus for specscan (JSONL).

Kinds:
  raw      AIPerf --export-level raw lines of a streaming vLLM chat run: one
           line per request, tens of KB each, every SSE chunk's JSON held as a
           string in responses[].packets[].value; the trailing usage chunk
           carries metrics.speculative_decoding.  About 2% of the lines are
           warmup-phase requests and about 1% are failed requests (non-null
           "error", no usage chunk).
  records  AIPerf profile_export.jsonl lines with a spec_decode_acceptance
           record (same mix of warmup and failed requests).
  bodies   non-streaming vLLM chat.completion response bodies.
  sse      an SSE capture (what `curl -N` saves) of streaming vLLM chat
           requests, one stream per request: a `data:` event per chunk (the
           same chunks as a raw line's packets), a final usage chunk with
           metrics.speculative_decoding, then `data: [DONE]`.  About 1% of
           the streams stop early (no usage chunk, so no_stats, then
           [DONE]); a `: keep-alive` comment now and then.

The output depends only on --seed, --kind and --size, and a smaller --size
gives a prefix of a larger one (lines are generated one after another until
the size is reached).  Python 3 standard library only.

  bench/gen_corpus.py --size 1G -o bench/corpus/raw-1G.jsonl
  bench/gen_corpus.py --kind records --size 50M > records.jsonl
"""

import argparse
import json
import random
import sys

WORDS = (
    "the of and to in is that for it as was with be by on not he this are or "
    "his from at which but have an they you were her she there been one all "
    "we their has would when if so no will more can out up into do any your "
    "what some could them other than then now only its time like over also "
    "new after first two may such these most used made through where before "
    "between many being under while same another because each number river "
    "model token decode draft verify accept speculative latency throughput "
    "kernel cache batch prefill tensor layer head matrix vector sample greedy "
    "Paris France capital city north south east west mountain ocean forest "
    "window garden market bridge station library museum theatre harbour"
).split()

MODEL = "Qwen/Qwen3-8B"
T0_NS = 1_787_366_173_000_000_000


def parse_size(text):
    """'100M' -> 104857600; K, M, G, T suffixes (powers of 1024)."""
    text = text.strip().upper().rstrip("B")
    mult = 1
    for i, suffix in enumerate("KMGT"):
        if text.endswith(suffix):
            mult = 1024 ** (i + 1)
            text = text[:-1]
            break
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("bad size: %r" % text) from None
    if value <= 0:
        raise argparse.ArgumentTypeError("size must be positive")
    return int(value * mult)


class Gen:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.n = 0

    def rand_int(self, lo, hi):
        """Uniform integer in [lo, hi], from random() only (stable across
        Python versions)."""
        return lo + int(self.rng.random() * (hi - lo + 1))

    def words(self, count):
        r = self.rng.random
        nw = len(WORDS)
        return " ".join(WORDS[int(r() * nw)] for _ in range(count))

    def uuid(self):
        r = self.rng.getrandbits(128)
        h = "%032x" % r
        return "%s-%s-4%s-8%s-%s" % (h[:8], h[8:12], h[13:16], h[17:20], h[20:])

    def spec_payload(self):
        """A valid vLLM speculative_decoding payload (SPEC 2.5 identities)."""
        k = self.rand_int(1, 7)
        steps = self.rand_int(20, 160)
        p = 0.3 + 0.6 * self.rng.random()  # per-draft acceptance probability
        hist = [0] * (k + 1)
        r = self.rng.random
        for _ in range(steps):
            j = 0
            while j < k and r() < p:
                j += 1
            hist[j] += 1
        accepted = sum(j * c for j, c in enumerate(hist))
        drafted = k * steps
        return {
            "mean_acceptance_length": 1.0 + accepted / steps,
            "draft_acceptance_rate": accepted / drafted,
            "acceptance_histogram": hist,
            "num_spec_steps": steps,
            "num_accepted_draft_tokens": accepted,
            "num_draft_tokens": drafted,
            "num_spec_tokens": k,
        }

    def metadata(self, phase, start_ns, end_ns):
        return {
            "session_num": self.n,
            "x_request_id": self.uuid(),
            "x_correlation_id": self.uuid(),
            "conversation_id": "c-%d" % self.n,
            "turn_index": 0,
            "request_start_ns": start_ns,
            "request_end_ns": end_ns,
            "worker_id": "worker_%d" % (self.n % 8),
            "record_processor_id": "record_processor_%d" % (self.n % 4),
            "benchmark_phase": phase,
            "was_cancelled": False,
        }

    def phase_and_error(self):
        u = self.rng.random()
        phase = "warmup" if u < 0.02 else "profiling"
        failed = self.rng.random() < 0.01
        return phase, failed

    def request_payload(self, stream):
        body = {
            "messages": [{"role": "user", "content": self.words(self.rand_int(8, 60))}],
            "model": MODEL,
            "stream": stream,
            "max_tokens": 1024,
        }
        if stream:
            body["stream_options"] = {"include_usage": True}
        return body

    # -- raw ---------------------------------------------------------------
    def stream_chunks(self, failed):
        """The SSE chunks (JSON texts) of one streaming request, one at a
        time (a generator: the caller's own draws between chunks keep the
        raw corpus what it always was for a given seed)."""
        cid = "chatcmpl-%016x" % self.rng.getrandbits(64)
        created = T0_NS // 10**9 + self.n
        head = ('{"id":"%s","object":"chat.completion.chunk","created":%d,'
                '"model":"%s","choices":' % (cid, created, MODEL))
        spec = self.spec_payload()
        steps = spec["num_spec_steps"]
        # one chunk per verify step; a failed request stops part way
        nchunks = steps if not failed else self.rand_int(0, steps // 2)
        yield (head + '[{"index":0,"delta":{"role":"assistant","content":""},'
               '"logprobs":null,"finish_reason":null}]}')
        for i in range(nchunks):
            text = self.words(self.rand_int(1, 6))
            if i:
                text = " " + text
            last = (i == nchunks - 1) and not failed
            finish = '"stop","stop_reason":null' if last else "null"
            yield (head + '[{"index":0,"delta":{"content":%s},"logprobs":null,'
                   '"finish_reason":%s}]}' % (json.dumps(text), finish))
        if not failed:
            prompt = self.rand_int(20, 400)
            completion = steps + spec["num_accepted_draft_tokens"]
            usage = {"prompt_tokens": prompt, "total_tokens": prompt + completion,
                     "completion_tokens": completion}
            yield (head + "[],\"usage\":%s,\"metrics\":{\"speculative_decoding\":%s}}"
                   % (json.dumps(usage, separators=(",", ":")),
                      json.dumps(spec, separators=(",", ":"))))

    def raw_line(self):
        self.n += 1
        phase, failed = self.phase_and_error()
        perf = 1000 + self.n * 10_000_000
        start_perf = perf
        responses = []
        for chunk_text in self.stream_chunks(failed):
            perf += self.rand_int(2_000_000, 30_000_000)
            responses.append('{"perf_ns":%d,"packets":[{"name":"data","value":%s}]}'
                             % (perf, json.dumps(chunk_text)))
        error = "null"
        if failed:
            error = json.dumps({"code": 503, "type": "ServiceUnavailable",
                                "message": "upstream connection reset by peer"})
        else:
            perf += 100_000
            responses.append('{"perf_ns":%d,"packets":[{"name":"data","value":"[DONE]"}]}'
                             % perf)
        start_ns = T0_NS + self.n * 10_000_000
        meta = self.metadata(phase, start_ns, start_ns + (perf - start_perf))
        return ('{"metadata":%s,"start_perf_ns":%d,"request_headers":'
                '{"Content-Type":"application/json"},"status":%d,"responses":[%s],'
                '"error":%s,"payload":%s}\n'
                % (json.dumps(meta, separators=(",", ":")), start_perf,
                   503 if failed else 200, ",".join(responses), error,
                   json.dumps(self.request_payload(True), separators=(",", ":"))))

    # -- sse -----------------------------------------------------------------
    def sse_stream(self):
        """One request of an SSE capture: its events, then [DONE] (a stream
        cut short has no usage chunk)."""
        self.n += 1
        failed = self.rng.random() < 0.01
        out = []
        for i, chunk_text in enumerate(self.stream_chunks(failed)):
            if i % 50 == 49:
                out.append(": keep-alive\n\n")
            out.append("data: %s\n\n" % chunk_text)
        out.append("data: [DONE]\n\n")
        return "".join(out)

    # -- records -----------------------------------------------------------
    def records_line(self):
        self.n += 1
        phase, failed = self.phase_and_error()
        start_ns = T0_NS + self.n * 10_000_000
        spec = self.spec_payload()
        latency_ms = 200.0 + 2000.0 * self.rng.random()
        meta = self.metadata(phase, start_ns, start_ns + int(latency_ms * 1e6))
        line = {"metadata": meta}
        metrics = {"request_latency": {"value": latency_ms, "unit": "ms"}}
        if failed:
            line["metrics"] = metrics
            line["error"] = {"code": 503, "type": "ServiceUnavailable",
                             "message": "upstream connection reset by peer"}
            return json.dumps(line, separators=(",", ":")) + "\n"
        steps = spec["num_spec_steps"]
        acc = spec["num_accepted_draft_tokens"]
        dr = spec["num_draft_tokens"]
        metrics.update({
            "time_to_first_token": {"value": 20.0 + 80.0 * self.rng.random(), "unit": "ms"},
            "output_sequence_length": {"value": steps + acc, "unit": "tokens"},
            "spec_decode_acceptance_length": {"value": spec["mean_acceptance_length"], "unit": "ratio"},
            "spec_decode_draft_acceptance_rate": {"value": spec["draft_acceptance_rate"] * 100.0, "unit": "%"},
            "spec_decode_accepted_per_verified": {"value": (acc + steps) / (dr + steps), "unit": "ratio"},
            "spec_decode_steps": {"value": steps, "unit": "count"},
            "spec_decode_accepted_draft_tokens": {"value": acc, "unit": "tokens"},
            "spec_decode_draft_tokens": {"value": dr, "unit": "tokens"},
        })
        line["metrics"] = metrics
        line["spec_decode_acceptance"] = {
            "engine": "vllm",
            "mean_acceptance_length": spec["mean_acceptance_length"],
            "draft_acceptance_rate": spec["draft_acceptance_rate"],
            "acceptance_histogram": {str(j): c for j, c in enumerate(spec["acceptance_histogram"]) if c},
            "num_accepted_draft_tokens": acc,
            "num_draft_tokens": dr,
            "num_spec_steps": steps,
            "num_spec_tokens": spec["num_spec_tokens"],
            "completion_tokens": steps + acc,
        }
        return json.dumps(line, separators=(",", ":")) + "\n"

    # -- bodies ------------------------------------------------------------
    def body_line(self):
        self.n += 1
        spec = self.spec_payload()
        steps = spec["num_spec_steps"]
        completion = steps + spec["num_accepted_draft_tokens"]
        prompt = self.rand_int(20, 400)
        body = {
            "id": "chatcmpl-%016x" % self.rng.getrandbits(64),
            "object": "chat.completion",
            "created": T0_NS // 10**9 + self.n,
            "model": MODEL,
            "choices": [{"index": 0,
                         "message": {"role": "assistant",
                                     "content": self.words(completion),
                                     "tool_calls": []},
                         "logprobs": None, "finish_reason": "stop",
                         "stop_reason": None}],
            "usage": {"prompt_tokens": prompt, "total_tokens": prompt + completion,
                      "completion_tokens": completion},
            "metrics": {"speculative_decoding": spec},
        }
        return json.dumps(body, separators=(",", ":")) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=parse_size, default=parse_size("100M"),
                    help="approximate uncompressed size, e.g. 100M, 1G (default 100M)")
    ap.add_argument("--kind", choices=("raw", "records", "bodies", "sse"), default="raw")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    args = ap.parse_args()

    gen = Gen(args.seed)
    make = {"raw": gen.raw_line, "records": gen.records_line, "bodies": gen.body_line,
            "sse": gen.sse_stream}[args.kind]
    out = open(args.output, "w", encoding="ascii", newline="\n") if args.output else sys.stdout
    written = 0
    try:
        while written < args.size:
            line = make()
            out.write(line)
            written += len(line)
    except BrokenPipeError:
        sys.stderr.close()
        return 1
    finally:
        if out is not sys.stdout:
            out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
