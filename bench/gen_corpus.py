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

  scrape   a soak's scrape loop (`while :; do echo "# time: ..."; curl -s
           host:8000/metrics; sleep 10; done >> scrapes.prom`): one vLLM
           /metrics page every 10 s, in prometheus_client's text format, of
           a data-parallel server (engine "0" and "1"): request and
           cache gauges, token and request counters with `_created`, the
           latency and token-count histograms with vLLM's buckets, the
           speculative-decoding counters by position, Python's process and
           GC collectors, and the HTTP instrumentator's histograms (about
           80 KB a page: 4,320 pages, twelve hours, are about 350 MB).
           --pages N stops after N pages.

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


# vLLM's histogram boundaries (vllm/v1/metrics/loggers.py) and the HTTP
# instrumentator's.
TTFT_BUCKETS = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0,
                2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0]
ITL_BUCKETS = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5,
               5.0, 7.5, 10.0, 20.0, 40.0, 80.0]
LATENCY_BUCKETS = [0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0,
                   50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0]
TOKEN_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 32768]
ITER_BUCKETS = [1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384]
N_BUCKETS = [1, 2, 5, 10, 20]
HTTP_BUCKETS = [0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0,
                3.5, 4.0, 4.5, 5.0, 7.5, 10.0, 30.0, 60.0]


def go_float(v):
    """A value as prometheus_client writes it (floatToGoString)."""
    if v == float("inf"):
        return "+Inf"
    if v == float("-inf"):
        return "-Inf"
    if v != v:
        return "NaN"
    s = repr(float(v))
    dot = s.find(".")
    if v > 0 and dot > 6:
        mantissa = "{0}.{1}{2}".format(s[0], s[1:dot], s[dot + 1:]).rstrip("0.")
        return "{0}e+0{1}".format(mantissa, dot - 1)
    return s


def labels_text(pairs):
    return "{" + ",".join('%s="%s"' % kv for kv in pairs) + "}" if pairs else ""


class ScrapeGen:
    """The cumulative state of a vLLM server, one page per call."""

    K = 4  # draft tokens per step (every position drafted)

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.t = 1765039200.0
        self.started = self.t - 3600.0
        self.engines = ["0", "1"]
        self.state = {e: {} for e in self.engines}

    def add(self, e, key, v):
        self.state[e][key] = self.state[e].get(key, 0) + v

    def observe(self, e, key, buckets, values):
        h = self.state[e].setdefault(key, [[0] * (len(buckets) + 1), 0.0])
        for v in values:
            i = 0
            while i < len(buckets) and v > buckets[i]:
                i += 1
            h[0][i] += 1
            h[1] += v

    def advance(self):
        """Ten seconds of traffic on each engine."""
        r = self.rng.random
        for e in self.engines:
            reqs = 20 + int(r() * 20)
            steps = reqs * (30 + int(r() * 20))
            p = 0.55 + 0.2 * r()
            pos = [0] * self.K
            for i in range(self.K):
                pos[i] = int(steps * p ** (i + 1))
            self.add(e, "requests", reqs)
            self.add(e, "prompt", reqs * (400 + int(r() * 800)))
            self.add(e, "gen", steps + sum(pos))
            self.add(e, "drafts", steps)
            self.add(e, "draft_tokens", self.K * steps)
            self.add(e, "accepted", sum(pos))
            for i in range(self.K):
                self.add(e, "pos%d" % i, pos[i])
            self.add(e, "queries", reqs * 900)
            self.add(e, "hits", reqs * 400)
            self.add(e, "preempt", 1 if r() < 0.05 else 0)
            lat = [0.5 + 20 * r() for _ in range(reqs)]
            self.observe(e, "ttft", TTFT_BUCKETS, [0.02 + 0.5 * r() for _ in range(reqs)])
            self.observe(e, "itl", ITL_BUCKETS, [0.01 + 0.05 * r() for _ in range(reqs)])
            self.observe(e, "tpot", ITL_BUCKETS, [0.01 + 0.04 * r() for _ in range(reqs)])
            for key in ("e2e", "queue", "inference", "prefill", "decode"):
                self.observe(e, key, LATENCY_BUCKETS, lat)
            for key in ("prompt_tokens", "gen_tokens", "max_tokens", "max_gen"):
                self.observe(e, key, TOKEN_BUCKETS, [50 + 2000 * r() for _ in range(reqs)])
            self.observe(e, "iter", ITER_BUCKETS, [1 + 2000 * r() for _ in range(reqs)])
            self.observe(e, "n", N_BUCKETS, [1] * reqs)
            self.observe("0", "http", HTTP_BUCKETS, [0.5 + 15 * r() for _ in range(reqs)])
        self.t += 10.0

    def page(self):
        out = []
        w = out.append
        base = [("model_name", MODEL)]

        def family(name, kind, help_text, rows):
            w("# HELP %s %s\n# TYPE %s %s\n" % (name, help_text, name, kind))
            for suffix, pairs, v in rows:
                w("%s%s%s %s\n" % (name, suffix, labels_text(pairs), go_float(v)))

        def counter(name, help_text, rows):
            family(name + "_total", "counter", help_text, [("", p, v) for p, v in rows])
            family(name + "_created", "gauge", help_text,
                   [("", p, self.started) for p, _ in rows])

        def histogram(name, help_text, key, buckets, engines):
            rows = []
            for e in engines:
                counts, total = self.state[e].get(key, [[0] * (len(buckets) + 1), 0.0])
                lab = [("engine", e)] + base
                acc = 0
                for b, c in zip(buckets + [float("inf")], counts):
                    acc += c
                    rows.append(("_bucket", lab[:1] + [("le", go_float(b))] + lab[1:], acc))
                rows.append(("_count", lab, acc))
                rows.append(("_sum", lab, total))
            family(name, "histogram", help_text, rows)
            family(name + "_created", "gauge", help_text,
                   [("", [("engine", e)] + base, self.started) for e in engines])

        ge = lambda key: [([("engine", e)] + base, self.state[e].get(key, 0)) for e in self.engines]
        r = self.rng.random
        family("python_gc_objects_collected_total", "counter", "Objects collected during gc",
               [("", [("generation", str(g))], 1000 * (g + 1) + int(self.t) % 977) for g in range(3)])
        family("python_gc_objects_uncollectable_total", "counter", "Uncollectable objects found during GC",
               [("", [("generation", str(g))], 0.0) for g in range(3)])
        family("python_gc_collections_total", "counter", "Number of times this generation was collected",
               [("", [("generation", str(g))], 100 * (3 - g) + int(self.t) % 311) for g in range(3)])
        family("python_info", "gauge", "Python platform information",
               [("", [("implementation", "CPython"), ("major", "3"), ("minor", "12"),
                      ("patchlevel", "3"), ("version", "3.12.3")], 1.0)])
        family("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.",
               [("", [], 4.2e10 + int(r() * 1e8))])
        family("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.",
               [("", [], 6.1e9 + int(r() * 1e7))])
        family("process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.",
               [("", [], self.started)])
        family("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.",
               [("", [], round(self.t - self.started, 2))])
        family("process_open_fds", "gauge", "Number of open file descriptors.", [("", [], 112.0)])
        family("process_max_fds", "gauge", "Maximum number of open file descriptors.", [("", [], 1048576.0)])
        handlers = ["/v1/chat/completions", "/v1/completions", "/metrics", "/health"]
        family("http_requests_total", "counter", "Total number of requests by method, status and handler.",
               [("", [("handler", h), ("method", "GET" if h in ("/metrics", "/health") else "POST"),
                      ("status", "2xx")], self.state["0"].get("requests", 0) // (i + 1))
                for i, h in enumerate(handlers)])
        family("http_request_size_bytes", "summary", "Content length of incoming requests by handler.",
               [(sfx, [("handler", h)], v) for h in handlers
                for sfx, v in (("_count", self.state["0"].get("requests", 0)),
                               ("_sum", self.state["0"].get("prompt", 0) * 4.0))])
        http, hsum = self.state["0"].get("http", [[0] * (len(HTTP_BUCKETS) + 1), 0.0])
        rows, acc = [], 0
        for b, c in zip(HTTP_BUCKETS + [float("inf")], http):
            acc += c
            rows.append(("_bucket", [("le", go_float(b))], acc))
        rows += [("_count", [], acc), ("_sum", [], hsum)]
        family("http_request_duration_highr_seconds", "histogram",
               "Latency with many buckets but no API specific labels.", rows)
        family("vllm:num_requests_running", "gauge", "Number of requests in model execution batches.",
               [("", p, float(int(r() * 64))) for p, _ in ge("requests")])
        family("vllm:num_requests_waiting", "gauge", "Number of requests waiting to be processed.",
               [("", p, float(int(r() * 8))) for p, _ in ge("requests")])
        family("vllm:kv_cache_usage_perc", "gauge", "KV-cache usage. 1 means 100 percent usage.",
               [("", p, round(r(), 6)) for p, _ in ge("requests")])
        counter("vllm:num_preemptions", "Cumulative number of preemption from the engine.", ge("preempt"))
        counter("vllm:prefix_cache_queries", "Prefix cache queries, in terms of number of queried tokens.",
                ge("queries"))
        counter("vllm:prefix_cache_hits", "Prefix cache hits, in terms of number of cached tokens.",
                ge("hits"))
        counter("vllm:prompt_tokens", "Number of prefill tokens processed.", ge("prompt"))
        counter("vllm:generation_tokens", "Number of generation tokens processed.", ge("gen"))
        counter("vllm:request_success", "Count of successfully processed requests.",
                [(p + [("finished_reason", fr)], v // d) for p, v in ge("requests")
                 for fr, d in (("stop", 1), ("length", 7), ("abort", 50))])
        counter("vllm:spec_decode_num_drafts", "Number of spec decoding drafts.", ge("drafts"))
        counter("vllm:spec_decode_num_draft_tokens", "Number of draft tokens.", ge("draft_tokens"))
        counter("vllm:spec_decode_num_accepted_tokens", "Number of accepted tokens.", ge("accepted"))
        counter("vllm:spec_decode_num_accepted_tokens_per_pos", "Accepted tokens per draft position.",
                [(p + [("position", str(i))], v) for i in range(self.K)
                 for p, v in ge("pos%d" % i)])
        for name, help_text, key, buckets in (
                ("vllm:iteration_tokens_total", "Histogram of number of tokens per engine_step.", "iter", ITER_BUCKETS),
                ("vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.", "ttft", TTFT_BUCKETS),
                ("vllm:inter_token_latency_seconds", "Histogram of inter-token latency in seconds.", "itl", ITL_BUCKETS),
                ("vllm:request_time_per_output_token_seconds", "Histogram of time_per_output_token_seconds per request.", "tpot", ITL_BUCKETS),
                ("vllm:e2e_request_latency_seconds", "Histogram of e2e request latency in seconds.", "e2e", LATENCY_BUCKETS),
                ("vllm:request_queue_time_seconds", "Histogram of time spent in WAITING phase for request.", "queue", LATENCY_BUCKETS),
                ("vllm:request_inference_time_seconds", "Histogram of time spent in RUNNING phase for request.", "inference", LATENCY_BUCKETS),
                ("vllm:request_prefill_time_seconds", "Histogram of time spent in PREFILL phase for request.", "prefill", LATENCY_BUCKETS),
                ("vllm:request_decode_time_seconds", "Histogram of time spent in DECODE phase for request.", "decode", LATENCY_BUCKETS),
                ("vllm:request_prompt_tokens", "Number of prefill tokens processed.", "prompt_tokens", TOKEN_BUCKETS),
                ("vllm:request_generation_tokens", "Number of generation tokens processed.", "gen_tokens", TOKEN_BUCKETS),
                ("vllm:request_max_num_generation_tokens", "Histogram of maximum number of requested generation tokens.", "max_gen", TOKEN_BUCKETS),
                ("vllm:request_params_max_tokens", "Histogram of the max_tokens request parameter.", "max_tokens", TOKEN_BUCKETS),
                ("vllm:request_params_n", "Histogram of the n request parameter.", "n", N_BUCKETS)):
            histogram(name, help_text, key, buckets, self.engines)
        family("vllm:cache_config_info", "gauge", "Information of the LLMEngine CacheConfig",
               [("", [("block_size", "16"), ("cache_dtype", "auto"), ("enable_prefix_caching", "True"),
                      ("gpu_memory_utilization", "0.9"), ("num_gpu_blocks", "27356"),
                      ("num_cpu_blocks", "None"), ("prefix_caching_hash_algo", "builtin"),
                      ("swap_space", "4")], 1.0)])
        return "".join(out)

    def scrape(self):
        """One iteration of the loop: the time line, then the page."""
        self.advance()
        ns = int(self.rng.random() * 1e9)
        return "# time: %d.%09d\n%s" % (int(self.t), ns, self.page())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=parse_size, default=parse_size("100M"),
                    help="approximate uncompressed size, e.g. 100M, 1G (default 100M)")
    ap.add_argument("--kind", choices=("raw", "records", "bodies", "sse", "scrape"), default="raw")
    ap.add_argument("--pages", type=int, default=0,
                    help="scrape: stop after this many pages (default: at --size)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    args = ap.parse_args()

    gen = Gen(args.seed)
    if args.kind == "scrape":
        make = ScrapeGen(args.seed).scrape
        if args.pages:
            args.size = float("inf")
    else:
        make = {"raw": gen.raw_line, "records": gen.records_line, "bodies": gen.body_line,
                "sse": gen.sse_stream}[args.kind]
    out = open(args.output, "w", encoding="ascii", newline="\n") if args.output else sys.stdout
    written = 0
    try:
        pages = 0
        while written < args.size:
            line = make()
            out.write(line)
            written += len(line)
            pages += 1
            if args.pages and pages == args.pages:
                break
    except BrokenPipeError:
        sys.stderr.close()
        return 1
    finally:
        if out is not sys.stdout:
            out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
