#!/usr/bin/env python3
"""Write specscan's small text fixtures, deterministically.

    python3 testdata/make_fixtures.py            # (re)write testdata/
    python3 testdata/make_fixtures.py --out DIR  # write the same tree to DIR

Every fixture is hand-designed: each request's expected status, and for
the good ones every count, is chosen here so that the expected report can be
worked out by hand (see the comments; tests/cli states the expectations on
its own, it never imports this file).  The compressed and archived variants
are not stored: tests/cli builds them at test time with the CLI tools.

Python 3 standard library only; no randomness, no timestamps.
"""

import argparse
import json
import os
import sys


def js(obj):
    """Compact JSON, as servers and AIPerf write it."""
    return json.dumps(obj, separators=(",", ":"))


# --------------------------------------------------------------------------
# Building blocks

def meta(n, phase="profiling", cancelled=False, phase_key="benchmark_phase", **extra):
    m = {
        "session_num": n,
        "x_request_id": "00000000-0000-4000-8000-%012d" % n,
        "x_correlation_id": "00000000-0000-4000-9000-%012d" % n,
        "conversation_id": "conv-%d" % n,
        "turn_index": 0,
        "request_start_ns": 1787366173000000000 + n * 1000000,
        "request_end_ns": 1787366174000000000 + n * 1000000,
        "worker_id": "worker_1",
        "record_processor_id": "record_processor_1",
        phase_key: phase,
        "was_cancelled": cancelled,
    }
    m.update(extra)
    return m


def chat_chunk(rid, delta=None, finish=None, choices=None, **root):
    c = {"id": rid, "object": "chat.completion.chunk", "created": 1787366173,
         "model": "Qwen/Qwen3-8B"}
    if choices is None:
        ch = {"index": 0, "delta": delta or {}, "logprobs": None, "finish_reason": finish}
        choices = [ch]
    c["choices"] = choices
    c.update(root)
    return c


def vllm_sd(hist, steps, acc, drafted, mean, rate, k=None, psa=None, psd=None):
    sd = {"mean_acceptance_length": mean, "draft_acceptance_rate": rate,
          "acceptance_histogram": hist, "num_spec_steps": steps,
          "num_accepted_draft_tokens": acc, "num_draft_tokens": drafted}
    if k is not None:
        sd["num_spec_tokens"] = k
    if psa is not None:
        sd["per_step_accepted"] = psa
    if psd is not None:
        sd["per_step_drafted"] = psd
    return sd


def vllm_stream_chunks(rid, words, sd, completion_tokens, prompt_tokens=20):
    """A vLLM streaming chat: role chunk, content chunks, a finish chunk, and
    the trailing usage chunk (choices: []) that carries the payload."""
    out = [chat_chunk(rid, {"role": "assistant", "content": ""})]
    for w in words:
        out.append(chat_chunk(rid, {"content": w}))
    out.append(chat_chunk(rid, {}, finish="stop"))
    usage = {"prompt_tokens": prompt_tokens,
             "total_tokens": prompt_tokens + completion_tokens,
             "completion_tokens": completion_tokens}
    tail = chat_chunk(rid, choices=[], usage=usage)
    if sd is not False:
        tail["metrics"] = {"speculative_decoding": sd}
    out.append(tail)
    return out


def raw_line(metadata, chunks, payload, done=True, error=None, split_last=False,
             extra_packets=False, start=1000):
    """An AIPerf --export-level raw streaming line. Each chunk is one
    response element whose data packet holds the chunk's JSON as a string."""
    responses = []
    perf = start
    for i, ch in enumerate(chunks):
        perf += 100
        text = js(ch)
        if split_last and i == len(chunks) - 1:
            # One SSE event sent as two data: lines -> two data packets,
            # joined with "\n" by the reader (still valid JSON).
            cut = text.index(',"choices"') + 1
            packets = [{"name": "data", "value": text[:cut]},
                       {"name": "data", "value": text[cut:]}]
        else:
            packets = [{"name": "data", "value": text}]
        if extra_packets and i == 1:
            # Packets that carry no data: another name, a null value, and an
            # empty value; all skipped.
            packets = [{"name": "event", "value": "message"},
                       {"name": "data", "value": None}] + packets + \
                      [{"name": "data", "value": ""}]
        responses.append({"perf_ns": perf, "packets": packets})
    if done:
        responses.append({"perf_ns": perf + 100,
                          "packets": [{"name": "data", "value": "[DONE]"}]})
    line = {"metadata": metadata, "start_perf_ns": start,
            "request_headers": {"Content-Type": "application/json"},
            "status": 200 if error is None else error.get("code", 500),
            "responses": responses}
    if error is not None:
        line["error"] = error
    line["payload"] = payload
    return js(line)


def chat_payload(text, stream=True, **extra):
    p = {"messages": [{"role": "user", "content": text}], "model": "Qwen/Qwen3-8B",
         "stream": stream}
    if stream:
        p["stream_options"] = {"include_usage": True}
    p["max_tokens"] = 64
    p.update(extra)
    return p


def chat_body(rid, content, sd=None, usage=None, model="Qwen/Qwen3-8B", message=None,
              choice_extra=None, **root):
    """A non-streaming chat.completion body; sd goes to metrics.speculative_decoding
    (pass the string "null" for an explicit null)."""
    msg = message if message is not None else {"role": "assistant", "content": content}
    ch = {"index": 0, "message": msg, "logprobs": None, "finish_reason": "stop"}
    if choice_extra:
        ch.update(choice_extra)
    b = {"id": rid, "object": "chat.completion", "created": 1787366200, "model": model,
         "choices": [ch]}
    if usage is not None:
        b["usage"] = usage
    if sd == "null":
        b["metrics"] = {"time_to_first_token_ms": None, "speculative_decoding": None}
    elif sd is not None:
        b["metrics"] = {"time_to_first_token_ms": None, "speculative_decoding": sd}
    b.update(root)
    return b


def usage(c, p=12):
    return {"prompt_tokens": p, "total_tokens": p + c, "completion_tokens": c}


# --------------------------------------------------------------------------
# testdata/sample/aiperf_raw_vllm.jsonl: the README's quick-start sample.
#
# line 1  warmup   ok          W: [1,2] k 2 -> hist [0,1,1], steps 2, acc 3, drafted 4
# line 2  profiling ok         A (SPEC 6)
# line 3  profiling error      error object, no responses
# line 4  profiling ok         B (SPEC 6; mean 1 + 2/3 = 1.6666666666666665 as vLLM computes
#                        it, which SPEC 6's avg and percentiles need); usage chunk
#                        split over two packets
# line 5  profiling cancelled  was_cancelled, partial stream, no [DONE]
# line 6  (none)   unparsable  garbage text (phase: profiling, the default)
# line 7  profiling malformed  histogram sums to 3 but num_spec_steps is 4
# line 8  profiling zero_step  steps 0 (mean 1.0, rate 0.0 as vLLM sends them)
# line 9  profiling no_stats   non-streaming (responses[].text), speculative_decoding null

def sample_raw():
    lines = []
    W = vllm_sd([0, 1, 1], 2, 3, 4, 2.5, 0.75, k=2, psa=[1, 2], psd=[2, 2])
    lines.append(raw_line(meta(1, "warmup"),
                          vllm_stream_chunks("chatcmpl-w1", ["Warm", "ing up."], W, 5),
                          chat_payload("Say something.")))
    A = vllm_sd([1, 1, 2, 3, 1], 8, 18, 32, 3.25, 0.5625, k=4,
                psa=[2, 3, 1, 4, 2, 0, 3, 3], psd=[4] * 8)
    # Metadata with a non-ASCII escape: the enriched JSONL must copy it verbatim.
    lines.append(raw_line(meta(2, conversation_id="conv-caf\u00e9"),
                          vllm_stream_chunks("chatcmpl-a", ["Paris is the", " capital of France."], A, 26),
                          chat_payload("What is the capital of France?"), extra_packets=True))
    lines.append(raw_line(meta(3), [], chat_payload("This one fails."), done=False,
                          error={"code": 500, "type": "InternalServerError",
                                 "message": "upstream connect error"}))
    B = vllm_sd([1, 2, 0, 0, 0], 3, 2, 12, 1.6666666666666665, 0.16666666666666666, k=4,
                psa=[1, 1, 0], psd=[4, 4, 4])
    lines.append(raw_line(meta(4), vllm_stream_chunks("chatcmpl-b", ["Four."], B, 4),
                          chat_payload("2+2?"), split_last=True))
    part = vllm_stream_chunks("chatcmpl-c", ["Once upon", " a time"], False, 0)[:3]
    lines.append(raw_line(meta(5, cancelled=True), part, chat_payload("Tell me a story."),
                          done=False))
    lines.append("<html><body>502 Bad Gateway</body></html>")
    bad = vllm_sd([1, 1, 1, 0, 0], 4, 3, 16, 1.75, 0.1875, k=4)
    lines.append(raw_line(meta(7), vllm_stream_chunks("chatcmpl-d", ["Hello", "!"], bad, 2),
                          chat_payload("Hi.")))
    Z = vllm_sd([0, 0, 0, 0, 0], 0, 0, 0, 1.0, 0.0, k=4, psa=[], psd=[])
    lines.append(raw_line(meta(8), vllm_stream_chunks("chatcmpl-e", ["Hi"], Z, 1),
                          chat_payload("Greet me.")))
    body = chat_body("chatcmpl-f", "Four.", sd="null", usage=usage(2))
    nonstream = {"metadata": meta(9), "start_perf_ns": 5000,
                 "request_headers": {"Content-Type": "application/json"}, "status": 200,
                 "responses": [{"perf_ns": 90000, "text": js(body),
                                "content_type": "application/json"}],
                 "payload": chat_payload("2+2?", stream=False)}
    lines.append(js(nonstream))
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------
# testdata/engines/vllm_bodies.jsonl: vLLM non-streaming bodies, one a line.
#
#  1 ok         SPEC 6 vector 1; completion_tokens 50
#  2 ok         [2,1,0,1] steps 4 acc 4 drafted 12 k 3, per-step arrays
#  3 malformed  same, per_step_drafted [3,3,2,4] (3 > 2 at step 3)
#  4 malformed  histogram [0,0,0,0,1] with k 3 (length)
#  5 no_stats   speculative_decoding null
#  6 no_content payload but empty content
#  7 malformed  num_accepted_draft_tokens is a string
#  8 malformed  num_draft_tokens is 12.0 (not an integer literal)
#  9 ok         num_spec_tokens null: histogram length not checked; usage
#               completion_tokens 0 -> output_tokens 7; content only in tool_calls
# 10 malformed  acceptance_histogram is an object
# 11 unrecognized  a speculative_decoding object no adapter claims
# 12 malformed  num_spec_steps is -1
# 13 malformed  num_draft_tokens is 2^63
# 14 malformed  draft_acceptance_rate missing (required)
# 15 ok         steps 1, acc 0, drafted 5, hist [1,0,0,0,0,0] k 5; reasoning_content only

def vllm_bodies():
    L = []
    v1 = vllm_sd([39, 1, 0, 3], 43, 10, 129, 1.2325581395348837, 0.07751937984496124, k=3)
    L.append(chat_body("v1", "Answer one.", v1, usage(50)))
    v2 = vllm_sd([2, 1, 0, 1], 4, 4, 12, 2.0, 0.3333333333333333, k=3,
                 psa=[0, 1, 3, 0], psd=[3, 3, 3, 3])
    L.append(chat_body("v2", "Answer two.", v2, usage(9)))
    v3 = dict(v2, per_step_drafted=[3, 3, 2, 4])
    L.append(chat_body("v3", "Answer three.", v3, usage(9)))
    v4 = vllm_sd([0, 0, 0, 0, 1], 1, 4, 4, 5.0, 1.0, k=3)
    L.append(chat_body("v4", "Answer four.", v4, usage(5)))
    L.append(chat_body("v5", "No drafter here.", "null", usage(4)))
    v6 = vllm_sd([1, 1], 2, 1, 2, 1.5, 0.5, k=1)
    L.append(chat_body("v6", "", v6, usage(0)))
    v7 = dict(v2, num_accepted_draft_tokens="4")
    del v7["per_step_accepted"], v7["per_step_drafted"]
    L.append(chat_body("v7", "Answer seven.", v7, usage(9)))
    v8 = vllm_sd([2, 1, 0, 1], 4, 4, 12.0, 2.0, 0.3333333333333333, k=3)
    L.append(chat_body("v8", "Answer eight.", v8, usage(9)))
    v9 = vllm_sd([1, 0, 1], 2, 2, 6, 2.0, 0.3333333333333333)
    v9["num_spec_tokens"] = None
    v9["per_step_accepted"] = None
    msg = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function",
         "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]}
    L.append(chat_body("v9", None, v9, {"prompt_tokens": 30, "total_tokens": 30,
                                        "completion_tokens": 0, "output_tokens": 7},
                       message=msg))
    v10 = dict(v2, acceptance_histogram={"0": 2, "1": 1, "3": 1})
    L.append(chat_body("v10", "Answer ten.", v10, usage(9)))
    L.append(chat_body("v11", "Answer eleven.", {"draft_tokens": 12, "accepted": 4}, usage(9)))
    v12 = vllm_sd([0], -1, 0, 0, 1.0, 0.0)
    L.append(chat_body("v12", "Answer twelve.", v12, usage(3)))
    v13 = vllm_sd([1, 0], 1, 0, 9223372036854775808, 1.0, 0.0, k=1)
    L.append(chat_body("v13", "Answer thirteen.", v13, usage(3)))
    v14 = vllm_sd([1, 0], 1, 0, 1, 1.0, 0.0, k=1)
    del v14["draft_acceptance_rate"]
    L.append(chat_body("v14", "Answer fourteen.", v14, usage(3)))
    v15 = vllm_sd([1, 0, 0, 0, 0, 0], 1, 0, 5, 1.0, 0.0, k=5)
    msg = {"role": "assistant", "content": "", "reasoning_content": "Thinking..."}
    L.append(chat_body("v15", None, v15, usage(3), message=msg))
    return "".join(js(b) + "\n" for b in L)


# --------------------------------------------------------------------------
# testdata/engines/vllm_variable.jsonl: variable draft lengths (SPEC 7.9) and
# prompt tokens (7.10).
#
#  1 ok         by-length rows {"4":[0,0,0,1,0],"2":[1,0,1]}: steps (drafted,
#               accepted) (4,3) (2,0) (2,2); hist [1,0,1,1,0] k 4; prompt 700
#  2 ok         per-step arrays: (2,2) (2,1) (1,0); hist [1,1,1] k 2; only
#               usage.input_tokens 40
#  3 ok         rows {"2":[1,0,0]} sum to 1 but num_spec_steps is 2: left out
#               of 7.9 (inconsistent); prompt_tokens 0
#  4 malformed  row "2" has 2 counts, not 3
#  5 ok         records line: rows {"1":[1,0],"2":[0,0,1]}: (1,0) (2,2);
#               prompt_tokens 3000 in its own record

def vllm_variable():
    L = []
    d1 = vllm_sd([1, 0, 1, 1, 0], 3, 5, 8, 1 + 5 / 3, 0.625, k=4)
    d1["acceptance_histogram_by_draft_length"] = {"4": [0, 0, 0, 1, 0], "2": [1, 0, 1]}
    L.append(js(chat_body("d1", "Rows.", d1, usage(9, p=700))))
    d2 = vllm_sd([1, 1, 1], 3, 3, 5, 2.0, 0.6, k=2, psa=[2, 1, 0], psd=[2, 2, 1])
    L.append(js(chat_body("d2", "Steps.", d2, {"input_tokens": 40, "completion_tokens": 7})))
    d3 = vllm_sd([1, 0, 1], 2, 2, 4, 2.0, 0.5, k=2)
    d3["acceptance_histogram_by_draft_length"] = {"2": [1, 0, 0]}
    L.append(js(chat_body("d3", "Short rows.", d3, usage(4, p=0))))
    d4 = dict(d3, acceptance_histogram_by_draft_length={"2": [1, 1]})
    L.append(js(chat_body("d4", "Bad row.", d4, usage(4))))
    rec = {"engine": "vllm", "mean_acceptance_length": 2.0, "draft_acceptance_rate": 0.5,
           "acceptance_histogram": {"0": 1, "2": 1}, "num_accepted_draft_tokens": 2,
           "num_draft_tokens": 3, "num_spec_steps": 2, "num_spec_tokens": 2,
           "completion_tokens": 4, "prompt_tokens": 3000,
           "acceptance_histogram_by_draft_length": {"1": [1, 0], "2": [0, 0, 1]}}
    L.append(js({"metadata": meta(5), "metrics": {}, "spec_decode_acceptance": rec}))
    return "".join(l + "\n" for l in L)


# --------------------------------------------------------------------------
# testdata/engines/trtllm_streams.sse: a TensorRT-LLM SSE capture, 7 streams.
#
# S1 ok           SPEC 6 vector 2, CRLF line ends, space after the first JSON;
#                 completion_tokens 51
# S2 ok           comments, event: lines, one event split over two data: lines;
#                 hist [1,3,1,0,0] steps 5 acc 5 drafted 20 rate 0.25 k 4
# S3 ok           num_spec_tokens null (draft_len_schedule): hist [1,0,2] steps 3
#                 acc 4 drafted 9 rate 4/9
# S4 malformed    num_spec_steps 0
# S5 multi_choice two choices of the terminal chunk carry a payload
# S6 no_stats     content, no payload
# S7 ok           no [DONE] and no final newline: hist [1,1,0,0,0] steps 2 acc 1
#                 drafted 4 rate 0.25 k 4

def trt_chunk(rid, choices, **root):
    c = {"id": rid, "object": "chat.completion.chunk", "created": 1787400000,
         "model": "meta-llama/Llama-3.1-8B-Instruct", "choices": choices}
    c.update(root)
    return c


def trt_sd(rate, acc, drafted, steps, hist, k):
    return {"acceptance_rate": rate, "total_accepted_draft_tokens": acc,
            "total_draft_tokens": drafted, "num_spec_steps": steps,
            "acceptance_histogram": hist, "num_spec_tokens": k}


def trt_stream(rid, words, sd, completion_tokens, choices_n=1):
    ev = [trt_chunk(rid, [{"index": 0, "delta": {"role": "assistant"}}])]
    for w in words[:-1]:
        ev.append(trt_chunk(rid, [{"index": 0, "delta": {"content": w},
                                   "avg_decoded_tokens_per_iter": 2.0}]))
    last = []
    for i in range(choices_n):
        ch = {"index": i, "delta": {"content": words[-1]}, "finish_reason": "stop",
              "avg_decoded_tokens_per_iter": 2.5}
        if sd is not None:
            ch["speculative_decoding"] = sd
        last.append(ch)
    ev.append(trt_chunk(rid, last))
    ev.append(trt_chunk(rid, [], usage={"prompt_tokens": 20,
                                        "total_tokens": 20 + completion_tokens,
                                        "completion_tokens": completion_tokens}))
    return [js(e) for e in ev]


def trtllm_sse():
    out = []
    # S1: CRLF everywhere, a trailing space after the first event's JSON.
    s1 = trt_stream("t1", ["Sure, ", "here it is."], trt_sd(0.5, 30, 60, 20, [8, 0, 6, 6], 3), 51)
    s1[0] += " "
    for e in s1:
        out.append("data: " + e + "\r\n\r\n")
    out.append("data: [DONE]\r\n\r\n")
    # S2: comments, event: lines, a data event split over two lines.
    s2 = trt_stream("t2", ["One", " two", " three"], trt_sd(0.25, 5, 20, 5, [1, 3, 1, 0, 0], 4), 11)
    out.append("data: " + s2[0] + "\n\n")
    out.append(": keep-alive\n\n")
    out.append("event: message\nid: 2\ndata: " + s2[1] + "\n\n")
    out.append(":another comment\nretry: 1000\ndata: " + s2[2] + "\n\n")
    cut = s2[3].index(',"choices"') + 1
    out.append("event: message\ndata: " + s2[3][:cut] + "\ndata:" + s2[3][cut:] + "\n\n")
    out.append("data: " + s2[4] + "   \n\n")
    out.append("data: [DONE]\n\n")
    # S3: num_spec_tokens null under draft_len_schedule.
    s3 = trt_stream("t3", ["Three", " words here"],
                    trt_sd(0.4444444444444444, 4, 9, 3, [1, 0, 2], None), 7)
    out.extend("data: " + e + "\n\n" for e in s3)
    out.append("data: [DONE]\n\n")
    # S4: num_spec_steps 0 -> malformed.
    s4 = trt_stream("t4", ["Zero"], trt_sd(0.0, 0, 0, 0, [0, 0, 0, 0], 3), 1)
    out.extend("data: " + e + "\n\n" for e in s4)
    out.append("data: [DONE]\n\n\n")
    # S5: n=2, both choices carry a payload -> multi_choice.
    s5 = trt_stream("t5", ["A", "B"], trt_sd(0.5, 2, 4, 2, [0, 2, 0], 2), 4, choices_n=2)
    out.extend("data: " + e + "\n\n" for e in s5)
    out.append("data: [DONE]\n\n")
    # S6: no payload -> no_stats.
    s6 = trt_stream("t6", ["Plain", " answer"], None, 3)
    out.extend("data: " + e + "\n\n" for e in s6)
    out.append("data: [DONE]\n\n")
    # S7: no [DONE], no newline at the very end.
    s7 = trt_stream("t7", ["Cut", " short"], trt_sd(0.25, 1, 4, 2, [1, 1, 0, 0, 0], 4), 3)
    out.append("".join("data: " + e + "\n\n" for e in s7[:-1]))
    out.append("data: " + s7[-1])
    return "".join(out)


# A one-stream capture whose first line is a comment: SSE detection by ':'.
# One request, ok: vLLM usage-chunk payload hist [0,2,0] steps 2 acc 2
# drafted 4 mean 2.0 rate 0.5 k 2.
def sse_comment_first():
    sd = vllm_sd([0, 2, 0], 2, 2, 4, 2.0, 0.5, k=2)
    ev = vllm_stream_chunks("cmt", ["Hello", " there"], sd, 3)
    return ": captured by proxy\n\n" + "".join("data: " + js(e) + "\n\n" for e in ev) + \
        "data: [DONE]\n\n"


# --------------------------------------------------------------------------
# testdata/engines/llamacpp_bodies.jsonl
#
# 1 ok         OpenAI chat body: draft_n 604, accepted 515; no steps; completion 665
# 2 ok         MLX body, draft_rounds 10: draft_n 40, accepted 25 -> steps 10,
#              mean 3.5, rate 0.625
# 3 no_stats   MLX body, draft_n and draft_n_accepted null (no drafter)
# 4 zero_step  draft_n 0, accepted 0, no steps
# 5 malformed  accepted 9 > drafted 8
# 6 ok         native /completion body (root content): draft_n 10, accepted 10
# 7 malformed  draft_n_accepted is a string

def llama_timings(dn, dna, **extra):
    t = {"cache_n": 804, "prompt_n": 4, "prompt_ms": 128.301, "predicted_n": 665,
         "predicted_ms": 20629.211, "draft_n": dn, "draft_n_accepted": dna}
    t.update(extra)
    return t


def llama_chat(rid, content, timings, comp, model="Qwen3.5-9B-Q4_K_M.gguf", **root):
    b = {"choices": [{"finish_reason": "stop", "index": 0,
                      "message": {"role": "assistant", "content": content}}],
         "created": 1779349198, "model": model, "system_fingerprint": "b9251-e2b129e1b",
         "object": "chat.completion", "usage": usage(comp, 808), "id": rid,
         "timings": timings}
    b.update(root)
    return b


def llamacpp_bodies():
    L = [llama_chat("chatcmpl-l1", "Here you go.", llama_timings(604, 515), 665)]
    mlx = llama_chat("chatcmpl-l2", "MLX says hi.", {"prompt_n": 10, "predicted_n": 50,
                     "draft_n": 40, "draft_n_accepted": 25, "draft_rounds": 10}, 50,
                     model="mlx-community/Qwen3-4B-4bit")
    L.append(mlx)
    L.append(llama_chat("chatcmpl-l3", "No drafter.", {"prompt_n": 10, "predicted_n": 5,
                        "draft_n": None, "draft_n_accepted": None}, 5,
                        model="mlx-community/Qwen3-4B-4bit"))
    L.append(llama_chat("chatcmpl-l4", "Tiny.", llama_timings(0, 0), 1))
    L.append(llama_chat("chatcmpl-l5", "Broken.", llama_timings(8, 9), 9))
    L.append({"content": "Native completion text.", "id_slot": 0, "stop": True,
              "model": "gguf", "tokens_predicted": 12, "tokens_evaluated": 5,
              "timings": llama_timings(10, 10)})
    L.append(llama_chat("chatcmpl-l7", "Stringy.", llama_timings(8, "4"), 9))
    return "".join(js(b) + "\n" for b in L)


# testdata/engines/llamacpp_stream.sse: two llama.cpp streams.
# S1 (OpenAI chat, [DONE]): timings on three chunks, cumulative; the last
#    counts: draft_n 12, accepted 9 -> rate 0.75, no steps; completion 20.
# S2 (native /completion, no [DONE]): content events, timings only on the
#    last: draft_n 6, accepted 3 -> rate 0.5.

def llamacpp_sse():
    out = []
    rid = "chatcmpl-ls1"
    ev = [{"choices": [{"finish_reason": None, "index": 0, "delta": {"role": "assistant", "content": None}}],
           "created": 1779349198, "id": rid, "model": "gguf", "object": "chat.completion.chunk"}]
    for i, (w, t) in enumerate([("Alpha", (4, 2)), (" beta", (8, 5)), (" gamma", (12, 9))]):
        ev.append({"choices": [{"finish_reason": None, "index": 0, "delta": {"content": w}}],
                   "created": 1779349198, "id": rid, "model": "gguf",
                   "object": "chat.completion.chunk",
                   "timings": llama_timings(t[0], t[1], predicted_n=i + 1)})
    ev.append({"choices": [{"finish_reason": "stop", "index": 0, "delta": {}}],
               "created": 1779349198, "id": rid, "model": "gguf",
               "object": "chat.completion.chunk", "usage": usage(20, 8)})
    out.extend("data: " + js(e) + "\n\n" for e in ev)
    out.append("data: [DONE]\n\n")
    for w in ["Native", " stream", " end"]:
        out.append("data: " + js({"content": w, "stop": False, "id_slot": 0}) + "\n\n")
    out.append("data: " + js({"content": "", "stop": True, "id_slot": 0, "tokens_predicted": 3,
                              "timings": llama_timings(6, 3)}) + "\n\n")
    return "".join(out)


# --------------------------------------------------------------------------
# testdata/engines/sglang_bodies.jsonl
#
#  1 ok           sglext object: hist [11,14,11,4,0,3] steps 43 acc 63 drafted 215
#                 (k 5); completion 106
#  2 ok           sglext array of one: hist [1,1,1,1] steps 4 acc 6 drafted 12 (k 3)
#  3 multi_choice sglext array of two
#  4 ok           native /generate, oldest aliases: spec_accept_token_num 7,
#                 spec_draft_token_num 15, spec_accept_histogram [2,0,2,1], steps 5
#  5 ok           native, middle aliases, no histogram: steps 4 acc 3 drafted 8
#  6 ok           newest accepted alias null -> next alias (2); steps 2 drafted 4
#  7 ok           choices[0].meta_info: steps 1 acc 1 drafted 2
#  8 zero_step    spec_verify_ct 0, acc 0, drafted 0
#  9 unrecognized spec_verify_ct without any accepted count
# 10 malformed    no drafted count

def sgl_chat(rid, content, sglext=None, comp=10, choice_extra=None, **root):
    ch = {"index": 0, "message": {"role": "assistant", "content": content},
          "finish_reason": "stop"}
    if choice_extra:
        ch.update(choice_extra)
    b = {"id": rid, "object": "chat.completion", "created": 1787500000,
         "model": "deepseek-ai/DeepSeek-V4-Flash", "choices": [ch],
         "usage": usage(comp, 31), "metadata": {"weight_version": "default"}}
    if sglext is not None:
        b["sglext"] = {"spec_tokens_details": sglext}
    b.update(root)
    return b


def sgl_details(acc, drafted, steps, hist):
    return {"spec_accept_rate": acc / drafted if drafted else 0.0,
            "spec_accept_length": (acc + steps) / steps if steps else 0.0,
            "spec_cap_length": 0.0, "spec_block_accept_length": 0.0,
            "spec_num_correct_drafts": acc, "spec_num_proposed_drafts": drafted,
            "spec_verify_ct": steps, "spec_correct_drafts_histogram": hist,
            "spec_cap_lens_histogram": []}


def sgl_native(text, mi):
    m = {"id": "gen-1", "finish_reason": {"type": "stop"}, "prompt_tokens": 9,
         "completion_tokens": 12, "cached_tokens": 0}
    m.update(mi)
    return {"text": text, "output_ids": [1, 2, 3], "meta_info": m}


def sglang_bodies():
    L = [sgl_chat("s1", "Answer.", sgl_details(63, 215, 43, [11, 14, 11, 4, 0, 3]), 106)]
    L.append(sgl_chat("s2", "Answer.", [sgl_details(6, 12, 4, [1, 1, 1, 1])], 8))
    L.append(sgl_chat("s3", "Answer.", [sgl_details(6, 12, 4, [1, 1, 1, 1]),
                                         sgl_details(2, 8, 4, [2, 2, 0, 0])], 8))
    L.append(sgl_native("Native text.", {"spec_verify_ct": 5, "spec_accept_token_num": 7,
                                         "spec_draft_token_num": 15,
                                         "spec_accept_histogram": [2, 0, 2, 1],
                                         "spec_accept_length": 2.6}))
    L.append(sgl_native("Native text two.", {"spec_verify_ct": 4, "spec_accepted_drafts": 3,
                                             "spec_proposed_drafts": 8}))
    L.append(sgl_native("Alias fallback.", {"spec_verify_ct": 2, "spec_num_correct_drafts": None,
                                            "spec_accepted_drafts": 2,
                                            "spec_num_proposed_drafts": 4}))
    L.append(sgl_chat("s7", "Choice meta.", None, 3, choice_extra={"meta_info": {
        "spec_verify_ct": 1, "spec_num_correct_drafts": 1, "spec_num_proposed_drafts": 2}}))
    L.append(sgl_native("Zero.", {"spec_verify_ct": 0, "spec_num_correct_drafts": 0,
                                  "spec_num_proposed_drafts": 0}))
    L.append(sgl_native("Unclaimed.", {"spec_verify_ct": 3}))
    L.append(sgl_native("No drafted.", {"spec_verify_ct": 3, "spec_num_correct_drafts": 2}))
    return "".join(js(b) + "\n" for b in L)


# --------------------------------------------------------------------------
# testdata/records/profile_export.jsonl: AIPerf records lines.
#
#  1 ok         A (vLLM) as AIPerf writes it
#  2 ok         B, sparse histogram {"0":1,"1":2}; the line's own stale
#               spec_decode_steps (999) must be replaced by 3
#  3 ok         tensorrt_llm: hist {"0":8,"2":6,"3":6} steps 20 acc 30 drafted 60
#  4 ok         llamacpp: acc 515 drafted 604, no steps, no histogram
#  5 ok         vLLM, hist {"0":12000,"1":345} steps 12345 acc 345 drafted 12345 k 1
#  6 no_stats   no spec_decode_acceptance
#  7 error      error object
#  8 ok         warmup: hist {"1":1,"2":1} steps 2 acc 3 drafted 4 k 2
#  9 malformed  histogram key "x"; stale spec-decode metrics must be dropped
# 10 zero_step  steps 0
# 11 cancelled  was_cancelled with a record

def rec_line(n, rec, metrics=None, phase="profiling", cancelled=False, error=None,
             phase_key="benchmark_phase"):
    m = {"request_latency": {"value": 1000.0 + n, "unit": "ms"},
         "output_sequence_length": {"value": 20 + n, "unit": "tokens"}}
    if metrics:
        m.update(metrics)
    line = {"metadata": meta(n, phase, cancelled, phase_key=phase_key), "metrics": m}
    if error is not None:
        line["error"] = error
    if rec is not None:
        line["spec_decode_acceptance"] = rec
    return js(line)


def neutral(engine, mean, rate, hist, acc, drafted, steps, k=None, comp=None, psa=None, psd=None):
    r = {"engine": engine}
    if mean is not None:
        r["mean_acceptance_length"] = mean
    r["draft_acceptance_rate"] = rate
    if hist is not None:
        r["acceptance_histogram"] = hist
    r["num_accepted_draft_tokens"] = acc
    r["num_draft_tokens"] = drafted
    if steps is not None:
        r["num_spec_steps"] = steps
    if k is not None:
        r["num_spec_tokens"] = k
    if comp is not None:
        r["completion_tokens"] = comp
    if psa is not None:
        r["per_step_accepted"] = psa
    if psd is not None:
        r["per_step_drafted"] = psd
    return r


def records():
    L = []
    A = neutral("vllm", 3.25, 0.5625, {"0": 1, "1": 1, "2": 2, "3": 3, "4": 1}, 18, 32, 8, 4, 26,
                [2, 3, 1, 4, 2, 0, 3, 3], [4] * 8)
    L.append(rec_line(1, A, {
        "spec_decode_acceptance_length": {"value": 3.25, "unit": "ratio"},
        "spec_decode_draft_acceptance_rate": {"value": 56.25, "unit": "%"},
        "spec_decode_accepted_per_verified": {"value": 0.65, "unit": "ratio"},
        "spec_decode_steps": {"value": 8, "unit": "count"},
        "spec_decode_accepted_draft_tokens": {"value": 18, "unit": "tokens"},
        "spec_decode_draft_tokens": {"value": 32, "unit": "tokens"}}))
    B = neutral("vllm", 1.6666666666666665, 0.16666666666666666, {"0": 1, "1": 2}, 2, 12, 3, 4)
    L.append(rec_line(2, B, {"spec_decode_steps": {"value": 999, "unit": "count"}}))
    T = neutral("tensorrt_llm", 2.5, 0.5, {"0": 8, "2": 6, "3": 6}, 30, 60, 20, 3, 51)
    L.append(rec_line(3, T))
    LL = neutral("llamacpp", None, 515 / 604, None, 515, 604, None, None, 665)
    L.append(rec_line(4, LL))
    BIG = neutral("vllm", 1 + 345 / 12345, 345 / 12345, {"0": 12000, "1": 345}, 345, 12345, 12345, 1)
    L.append(rec_line(5, BIG))
    L.append(rec_line(6, None))
    L.append(rec_line(7, None, error={"code": 503, "type": "ServiceUnavailable",
                                      "message": "Service Unavailable"}))
    Wm = neutral("vllm", 2.5, 0.75, {"1": 1, "2": 1}, 3, 4, 2, 2)
    L.append(rec_line(8, Wm, phase="warmup"))
    BAD = neutral("vllm", 2.0, 0.5, {"0": 1, "x": 2}, 2, 4, 3, 2)
    L.append(rec_line(9, BAD, {"spec_decode_acceptance_length": {"value": 2.0, "unit": "ratio"}}))
    Z = neutral("vllm", 1.0, 0.0, {}, 0, 0, 0, 4)
    L.append(rec_line(10, Z))
    L.append(rec_line(11, A, cancelled=True))
    return "\n".join(L) + "\n"


# --------------------------------------------------------------------------
# testdata/mixed/mixed_garbage.jsonl (bytes; run with and without
# --max-record-size 1K).  Blank lines are not requests.
#
#  1 ok          vLLM body: hist [1,2,1] steps 4 acc 4 drafted 8 mean 2.0 rate 0.5 k 2
#  2 unparsable  truncated JSON
#  3 unparsable  an array (not an object)
#  4 unparsable  a string
#  5 (blank)
#  6 unparsable  invalid UTF-8 inside a string
#  7 unparsable  a NUL byte
#  8 ok/oversize vLLM body padded to > 1 KiB: hist [0,1] steps 1 acc 1 drafted 1 k 1;
#                ok by default, oversize with --max-record-size 1K
#  9 ok          TensorRT-LLM body (choice payload), CRLF: hist [1,1,0] steps 2 acc 1
#                drafted 4 rate 0.25 k 2
# 10 malformed   vLLM payload without num_spec_steps' partner: rate missing
# 11 unrecognized {"hello":"world"}
# 12 unrecognized {}
# 13 error       AIPerf raw line with an error
# 14 error       AIPerf records line with an error
# 15 (blank, CRLF)
# 16 ok          llama.cpp body, no newline at the end: draft_n 10 accepted 5

def mixed_garbage():
    L = []
    L.append(js(chat_body("m1", "Good.", vllm_sd([1, 2, 1], 4, 4, 8, 2.0, 0.5, k=2), usage(6))).encode())
    L.append(b'{"choices": [{"message": {"content": "trunc')
    L.append(b'[1,2,3]')
    L.append(b'"just a string"')
    L.append(b'')
    L.append(b'{"choices":[{"index":0,"message":{"role":"assistant","content":"bad \xff\xfe bytes"}}]}')
    L.append(b'{"choices":[{"index":0,"message":{"role":"assistant","content":"nul\x00byte"}}]}')
    big = chat_body("m8", "x" * 1500, vllm_sd([0, 1], 1, 1, 1, 2.0, 1.0, k=1), usage(1500))
    L.append(js(big).encode())
    trt = {"id": "m9", "object": "chat.completion", "created": 1787400000, "model": "trt",
           "choices": [{"index": 0, "message": {"role": "assistant", "content": "TRT."},
                        "finish_reason": "stop",
                        "speculative_decoding": trt_sd(0.25, 1, 4, 2, [1, 1, 0], 2)}],
           "usage": usage(3)}
    L.append(js(trt).encode() + b'\r')
    bad = vllm_sd([1, 1], 2, 1, 2, 1.5, 0.5, k=1)
    del bad["draft_acceptance_rate"]
    L.append(js(chat_body("m10", "Missing rate.", bad, usage(3))).encode())
    L.append(b'{"hello":"world"}')
    L.append(b'{}')
    L.append(raw_line(meta(13), [], chat_payload("Fails."), done=False,
                      error={"code": 429, "type": "TooManyRequests", "message": "rate limited"}).encode())
    L.append(js({"metadata": meta(14), "metrics": {},
                 "error": {"code": 500, "type": "Error", "message": "boom"}}).encode())
    L.append(b'\r')
    last = llama_chat("m16", "Last line.", llama_timings(10, 5), 7)
    return b"\n".join(L) + b"\n" + js(last).encode()


# --------------------------------------------------------------------------
# testdata/artifacts: AIPerf artifact directories.
#
# run1/profile_export_raw.jsonl (read; preferred):
#   1 ok  hist [1,1,1,1] k 3 steps 4 acc 6 drafted 12 mean 2.5 rate 0.5
#   2 ok  hist [0,0,2,0] k 3 steps 2 acc 4 drafted 6 mean 3.0 rate 2/3
# run1/profile_export.jsonl (never read when the raw file is there): 3 lines
# run1/profile_export_aiperf.json, inputs.json, logs/aiperf.log: never read
# run2/profile_export.jsonl (read):
#   1 ok  profiling: hist {"0":1,"2":1} steps 2 acc 2 drafted 6 mean 2.0 rate 1/3 k 3
#   2 ok  warmup, old credit_phase key: hist {"1":2} steps 2 acc 2 drafted 4 k 2

def artifacts():
    files = {}
    X1 = vllm_sd([1, 1, 1, 1], 4, 6, 12, 2.5, 0.5, k=3)
    X2 = vllm_sd([0, 0, 2, 0], 2, 4, 6, 3.0, 0.6666666666666666, k=3)
    files["run1/profile_export_raw.jsonl"] = (
        raw_line(meta(1), vllm_stream_chunks("r1", ["One."], X1, 5), chat_payload("One?")) + "\n" +
        raw_line(meta(2), vllm_stream_chunks("r2", ["Two."], X2, 3), chat_payload("Two?")) + "\n")
    decoy = neutral("vllm", 9.0, 1.0, {"8": 1}, 8, 8, 1, 8)
    files["run1/profile_export.jsonl"] = "".join(
        rec_line(n, decoy) + "\n" for n in (1, 2, 3))
    files["run1/profile_export_aiperf.json"] = json.dumps({
        "spec_decode_acceptance_length": {"unit": "ratio", "avg": 9.0},
        "records": [1, 2, 3]}, indent=2) + "\n"
    files["run1/inputs.json"] = json.dumps({"data": [{"session_id": "s", "payloads": []}]},
                                           indent=2) + "\n"
    files["run1/logs/aiperf.log"] = "INFO not a JSON line\n"
    files["run2/profile_export.jsonl"] = (
        rec_line(1, neutral("vllm", 2.0, 1 / 3, {"0": 1, "2": 1}, 2, 6, 2, 3)) + "\n" +
        rec_line(2, neutral("vllm", 2.0, 0.5, {"1": 2}, 2, 4, 2, 2), phase="warmup",
                 phase_key="credit_phase") + "\n")
    return files


# --------------------------------------------------------------------------

def fixtures():
    out = {
        "sample/aiperf_raw_vllm.jsonl": sample_raw(),
        "engines/vllm_bodies.jsonl": vllm_bodies(),
        "engines/trtllm_streams.sse": trtllm_sse(),
        "engines/sse_comment_first.sse": sse_comment_first(),
        "engines/llamacpp_bodies.jsonl": llamacpp_bodies(),
        "engines/llamacpp_stream.sse": llamacpp_sse(),
        "engines/sglang_bodies.jsonl": sglang_bodies(),
        "engines/vllm_variable.jsonl": vllm_variable(),
        "records/profile_export.jsonl": records(),
        "mixed/mixed_garbage.jsonl": mixed_garbage(),
    }
    for name, text in artifacts().items():
        out["artifacts/" + name] = text
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)),
                    help="directory to write into (default: testdata/)")
    args = ap.parse_args(argv)
    for name, data in sorted(fixtures().items()):
        path = os.path.join(args.out, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if isinstance(data, str):
            data = data.encode("utf-8")
        with open(path, "wb") as f:
            f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
