#!/usr/bin/env python3
"""Write the server-counter fixture pages of testdata/server (SPEC 10).

The vLLM-, SGLang- and TensorRT-LLM-named pages come from the library those
servers export with, prometheus_client (Debian's python3-prometheus-client):
its `_total` and `_created` series, its label escapes and both of its text
formats (classic, and OpenMetrics ending in `# EOF`). llama.cpp writes its
page by hand (tools/server: `# HELP`, `# TYPE`, then `name value` with the
value streamed as a C++ double, six significant digits, so counters from
10^6 up come out as 1.23457e+06); that page is reproduced here the same way.

The numbers are chosen so that the windows are easy to work out by hand
(tests/cli/test_server_stage.py has them). Everything is deterministic:
the `_created` clock is fixed. Usage:

  testdata/server/make_pages.py [OUTDIR]      (default: this directory)

Run it with a Python that has prometheus_client (/usr/bin/python3 on Debian).
"""

import os
import sys
import time
import unittest.mock

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.openmetrics.exposition import generate_latest as openmetrics_latest

MODEL = "Qwen/Qwen3-8B"
# A model name a user could give: quotes, a backslash, a newline, UTF-8.
ODD_MODEL = 'team "alpha" \\ Qwen3\nmodèle 模型'
STARTED = 1765039000.0

# vLLM's bucket boundaries (vllm/v1/metrics/loggers.py).
TTFT_BUCKETS = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0,
                2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0]
E2E_BUCKETS = [0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0,
               60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0]


def clock(at):
    """prometheus_client stamps `_created` with time.time(): fix it."""
    return unittest.mock.patch("time.time", return_value=at)


def vllm_page(engines, model=MODEL, created=STARTED, openmetrics=False):
    """A vLLM page. engines: {engine: dict of cumulative counts}."""
    with clock(created):
        r = CollectorRegistry()
        labels = ["engine", "model_name"]
        running = Gauge("vllm:num_requests_running", "Number of requests in model execution batches.",
                        labels, registry=r)
        waiting = Gauge("vllm:num_requests_waiting", "Number of requests waiting to be processed.",
                        labels, registry=r)
        kv = Gauge("vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.",
                   labels, registry=r)
        prompt = Counter("vllm:prompt_tokens", "Number of prefill tokens processed.", labels,
                         registry=r)
        gen = Counter("vllm:generation_tokens", "Number of generation tokens processed.", labels,
                      registry=r)
        success = Counter("vllm:request_success", "Count of successfully processed requests.",
                          labels + ["finished_reason"], registry=r)
        ttft = Histogram("vllm:time_to_first_token_seconds",
                         "Histogram of time to first token in seconds.", labels,
                         buckets=TTFT_BUCKETS, registry=r)
        e2e = Histogram("vllm:e2e_request_latency_seconds",
                        "Histogram of e2e request latency in seconds.", labels,
                        buckets=E2E_BUCKETS, registry=r)
        drafts = Counter("vllm:spec_decode_num_drafts", "Number of spec decoding drafts.", labels,
                         registry=r)
        dtok = Counter("vllm:spec_decode_num_draft_tokens", "Number of draft tokens.", labels,
                       registry=r)
        acc = Counter("vllm:spec_decode_num_accepted_tokens", "Number of accepted tokens.", labels,
                      registry=r)
        acc_pos = Counter("vllm:spec_decode_num_accepted_tokens_per_pos",
                          "Accepted tokens per draft position.", labels + ["position"], registry=r)
        dtok_pos = Counter("vllm:spec_decode_num_draft_tokens_per_pos",
                           "Draft tokens per draft position.", labels + ["position"], registry=r)
        for e, v in engines.items():
            lab = (e, model)
            running.labels(*lab).set(v.get("running", 0))
            waiting.labels(*lab).set(0)
            kv.labels(*lab).set(v.get("kv", 0.0))
            prompt.labels(*lab).inc(v["drafts"] * 3)
            gen.labels(*lab).inc(v["drafts"] + v["accepted"])
            for reason, n in (("stop", v["drafts"] // 10), ("length", v["drafts"] // 50),
                              ("abort", 0)):
                success.labels(*lab, reason).inc(n)
            for i in range(v["drafts"] // 20):
                ttft.labels(*lab).observe(0.02 + 0.01 * (i % 7))
                e2e.labels(*lab).observe(1.2 + 0.4 * (i % 5))
            drafts.labels(*lab).inc(v["drafts"])
            dtok.labels(*lab).inc(v["draft_tokens"])
            acc.labels(*lab).inc(v["accepted"])
            for pos, n in enumerate(v["acc_pos"]):
                acc_pos.labels(*lab, str(pos)).inc(n)
            for pos, n in enumerate(v.get("dtok_pos", [])):
                dtok_pos.labels(*lab, str(pos)).inc(n)
    return (openmetrics_latest if openmetrics else generate_latest)(r).decode("utf-8")


# Engine "0": SPEC 10.6's first vector. Engine "1": its survival counts.
VLLM_BEFORE = {
    "0": {"drafts": 10, "draft_tokens": 20, "accepted": 10, "acc_pos": [8, 2, 0],
          "dtok_pos": [10, 5, 0], "running": 2, "kv": 0.25},
    "1": {"drafts": 100, "draft_tokens": 300, "accepted": 150, "acc_pos": [70, 50, 30],
          "dtok_pos": [100, 100, 100], "running": 3, "kv": 0.5},
}
VLLM_AFTER = {
    "0": {"drafts": 14, "draft_tokens": 26, "accepted": 13, "acc_pos": [10, 3, 0],
          "dtok_pos": [14, 7, 0], "running": 0, "kv": 0.0},
    "1": {"drafts": 187, "draft_tokens": 561, "accepted": 317, "acc_pos": [140, 105, 72],
          "dtok_pos": [187, 187, 187], "running": 1, "kv": 0.125},
}

# A scrape loop of five pages, 10 s apart; the server restarts before the fourth.
SCRAPES = [
    (1765039200, STARTED, {"drafts": 0, "draft_tokens": 0, "accepted": 0,
                           "acc_pos": [0, 0, 0], "dtok_pos": [0, 0, 0]}),
    (1765039210, STARTED, {"drafts": 100, "draft_tokens": 300, "accepted": 200,
                           "acc_pos": [90, 70, 40], "dtok_pos": [100, 100, 100]}),
    (1765039220, STARTED, {"drafts": 250, "draft_tokens": 750, "accepted": 450,
                           "acc_pos": [210, 150, 90], "dtok_pos": [250, 250, 250]}),
    (1765039230, 1765039225.0, {"drafts": 30, "draft_tokens": 90, "accepted": 60,
                                "acc_pos": [25, 20, 15], "dtok_pos": [30, 30, 30]}),
    (1765039240, 1765039225.0, {"drafts": 130, "draft_tokens": 390, "accepted": 260,
                                "acc_pos": [115, 85, 60], "dtok_pos": [130, 130, 130]}),
]


def sglang_page(v, created=STARTED):
    """SGLang's names; tensor-parallel ranks 0 and 1 report the same batch."""
    with clock(created):
        r = CollectorRegistry()
        labels = ["model_name", "tp_rank"]
        calls = Counter("sglang:spec_verify_calls", "The number of verification forward calls.",
                        labels, registry=r)
        gen = Counter("sglang:generation_tokens", "Number of generation tokens processed.", labels,
                      registry=r)
        reqs = Counter("sglang:num_requests", "Number of requests processed.", labels, registry=r)
        alen = Gauge("sglang:spec_accept_length", "The average acceptance length of speculative decoding.",
                     labels, registry=r)
        arate = Gauge("sglang:spec_accept_rate", "The average acceptance rate of speculative decoding.",
                      labels, registry=r)
        running = Gauge("sglang:num_running_reqs", "The number of running requests.", labels,
                        registry=r)
        for rank in ("0", "1"):
            lab = ("meta-llama/Llama-3.1-8B-Instruct", rank)
            calls.labels(*lab).inc(v["calls"])
            gen.labels(*lab).inc(v["gen"])
            reqs.labels(*lab).inc(v["reqs"])
            alen.labels(*lab).set(v["alen"])
            arate.labels(*lab).set(v["arate"])
            running.labels(*lab).set(4)
    return generate_latest(r).decode("utf-8")


def trtllm_page(v, created=STARTED, openmetrics=False):
    """trtllm-serve's /prometheus/metrics names."""
    with clock(created):
        r = CollectorRegistry()
        labels = ["model_name", "engine_type"]
        lab = ("nvidia/Llama-3.1-8B-Instruct-FP8", "trtllm")
        dt = Counter("trtllm_spec_decode_num_draft_tokens", "Total number of draft tokens.", labels,
                     registry=r)
        at = Counter("trtllm_spec_decode_num_accepted_tokens", "Total number of accepted draft tokens.",
                     labels, registry=r)
        ap = Counter("trtllm_spec_decode_accepted_tokens", "Accepted draft tokens by position.",
                     labels + ["token_position"], registry=r)
        dp = Counter("trtllm_spec_decode_drafted_tokens", "Drafted tokens by position.",
                     labels + ["token_position"], registry=r)
        al = Gauge("trtllm_spec_decode_acceptance_length", "Acceptance length of the last interval.",
                   labels, registry=r)
        lat = Histogram("trtllm_e2e_request_latency_seconds", "End-to-end request latency.", labels,
                        buckets=E2E_BUCKETS, registry=r)
        dt.labels(*lab).inc(v["dt"])
        at.labels(*lab).inc(v["at"])
        for pos, n in enumerate(v["ap"]):
            ap.labels(*lab, str(pos)).inc(n)
        for pos, n in enumerate(v["dp"]):
            dp.labels(*lab, str(pos)).inc(n)
        al.labels(*lab).set(v["al"])
        for i in range(v["dt"] // 40):
            lat.labels(*lab).observe(0.8 + 0.3 * (i % 4))
    return (openmetrics_latest if openmetrics else generate_latest)(r).decode("utf-8")


def cxx_double(v):
    """A double as `std::ostream << double` writes it by default: %g."""
    return "%g" % v


def llamacpp_page(v):
    """llama.cpp's hand-written page (server_task_result_metrics::to_metrics)."""
    counters = [
        ("prompt_tokens_total", "Number of prompt tokens processed, excluding cached tokens", v["prompt"]),
        ("prompt_tokens_cached_total", "Number of prompt tokens reused from the cache", 0),
        ("prompt_seconds_total", "Total time spent processing prompts", v["prompt"] / 2351.7),
        ("tokens_predicted_total", "Number of generation tokens processed", v["predicted"]),
        ("tokens_predicted_seconds_total", "Total time spent generating tokens", v["predicted"] / 86.3),
        ("n_decode_total", "Total number of llama_decode() calls, excluding speculative decoding and multimodal decoding", v["decode"]),
        ("n_tokens_max", "Largest observed sequence length (prompt + generation)", 4096),
        ("spec_decode_num_draft_tokens_total", "Speculative: Total draft tokens generated", v["draft_tokens"]),
        ("spec_decode_num_accepted_tokens_total", "Speculative: Total draft tokens accepted by the target model", v["accepted"]),
        ("spec_decode_num_drafts_total", "Speculative: Total speculative decoding verification steps", v["drafts"]),
    ]
    gauges = [
        ("prompt_tokens_seconds", "Average prompt throughput in tokens/s", 2351.7),
        ("predicted_tokens_seconds", "Average generation throughput in tokens/s", 86.3),
        ("requests_processing", "Number of requests processing", 1),
        ("requests_deferred", "Number of requests deferred", 0),
        ("n_busy_slots_per_decode", "Average number of busy slots per llama_decode() call", 0.987654),
    ]
    out = []
    for kind, items in (("counter", counters), ("gauge", gauges)):
        for name, help_text, value in items:
            out.append("# HELP llamacpp:%s %s\n" % (name, help_text))
            out.append("# TYPE llamacpp:%s %s\n" % (name, kind))
            out.append("llamacpp:%s %s\n" % (name, cxx_double(value)))
    if v["acc_pos"]:
        out.append("# HELP llamacpp:spec_decode_num_accepted_tokens_per_pos_total"
                   " Accepted tokens per draft position\n")
        out.append("# TYPE llamacpp:spec_decode_num_accepted_tokens_per_pos_total counter\n")
        for i, n in enumerate(v["acc_pos"]):
            # an integer vector: streamed as an integer
            out.append('llamacpp:spec_decode_num_accepted_tokens_per_pos_total{position="%d"} %d\n'
                       % (i, n))
    return "".join(out)


LLAMACPP_BEFORE = {"prompt": 88120, "predicted": 6322, "decode": 3507, "draft_tokens": 5017,
                   "accepted": 1787, "drafts": 1261, "acc_pos": [600, 500, 400, 287]}
LLAMACPP_AFTER = {"prompt": 90211, "predicted": 6417, "decode": 3533, "draft_tokens": 5115,
                  "accepted": 1857, "drafts": 1286, "acc_pos": [622, 520, 416, 299]}
# A long-running server: counters past 10^6 print with six digits.
LLAMACPP_BIG_BEFORE = {"prompt": 31234567, "predicted": 4012345, "decode": 1300000,
                       "draft_tokens": 4000000, "accepted": 2500000, "drafts": 1000000,
                       "acc_pos": []}
LLAMACPP_BIG_AFTER = {"prompt": 31244567, "predicted": 4012995, "decode": 1300100,
                      "draft_tokens": 4000400, "accepted": 2500250, "drafts": 1000100,
                      "acc_pos": []}


def pages():
    yield "vllm_before.prom", vllm_page(VLLM_BEFORE)
    yield "vllm_after.prom", vllm_page(VLLM_AFTER)
    yield "vllm_before.om.prom", vllm_page(VLLM_BEFORE, openmetrics=True)
    yield "vllm_after.om.prom", vllm_page(VLLM_AFTER, openmetrics=True)
    yield "vllm_odd_model_before.prom", vllm_page({"0": VLLM_BEFORE["0"]}, model=ODD_MODEL)
    yield "vllm_odd_model_after.prom", vllm_page({"0": VLLM_AFTER["0"]}, model=ODD_MODEL)
    loop = []
    for t, created, v in SCRAPES:
        loop.append("# time: %d.000000000\n" % t)
        loop.append(vllm_page({"0": v}, created=created))
    yield "vllm_scrapes.prom", "".join(loop)
    yield "sglang_before.prom", sglang_page({"calls": 3000, "gen": 12500, "reqs": 250,
                                             "alen": 3.1, "arate": 0.7})
    yield "sglang_after.prom", sglang_page({"calls": 5000, "gen": 20750, "reqs": 300,
                                            "alen": 2.9, "arate": 0.65})
    trt_before = {"dt": 300, "at": 150, "ap": [70, 50, 30], "dp": [100, 100, 100], "al": 2.5}
    trt_after = {"dt": 561, "at": 317, "ap": [140, 105, 72], "dp": [187, 187, 187], "al": 2.92}
    yield "trtllm_before.prom", trtllm_page(trt_before)
    yield "trtllm_after.prom", trtllm_page(trt_after)
    yield "trtllm_after.om.prom", trtllm_page(trt_after, openmetrics=True)
    yield "llamacpp_before.prom", llamacpp_page(LLAMACPP_BEFORE)
    yield "llamacpp_after.prom", llamacpp_page(LLAMACPP_AFTER)
    yield "llamacpp_big_before.prom", llamacpp_page(LLAMACPP_BIG_BEFORE)
    yield "llamacpp_big_after.prom", llamacpp_page(LLAMACPP_BIG_AFTER)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(out, exist_ok=True)
    for name, text in pages():
        with open(os.path.join(out, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    time.tzset()
    sys.exit(main())
