/*
 * test_request.c - from one request's text to its status and record:
 * SPEC 6's vectors, every line kind, every status of SPEC 2.1, and the
 * malformed cases of 2.4/2.5 with their reasons. Expected values are
 * worked out by hand from the payloads written here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/capture.h"
#include "engines/payload.h"
#include "engines/request.h"
#include "json/json.h"
#include "json/unescape.h"

static struct ss_processor *proc_for(enum ss_kind kind, enum ss_engine engine, bool full)
{
	struct ss_process_opts o = {kind, engine, full, false, false, false, false, NULL, 0};
	struct ss_processor *p = ss_processor_new(&o);

	assert_non_null(p);
	return p;
}

/* Copies of texts, padded as the shim needs; freed at the end of a test. */
static char *padded[64];
static size_t npadded;

static const char *pad(const char *s)
{
	size_t n = strlen(s);
	char *c = malloc(n + SSJ_PADDING + 1);

	assert_non_null(c);
	memcpy(c, s, n);
	memset(c + n, ' ', SSJ_PADDING);
	c[n + SSJ_PADDING] = '\0';
	assert_true(npadded < 64);
	padded[npadded++] = c;
	return c;
}

static void free_padded(void)
{
	while (npadded)
		free(padded[--npadded]);
}

static struct ss_outcome run_parts(struct ss_processor *p, const char **texts, size_t n, bool sse)
{
	const char *parts[16];
	size_t lens[16];
	struct ss_request_text req;
	struct ss_outcome o;

	for (size_t i = 0; i < n; i++) {
		parts[i] = pad(texts[i]);
		lens[i] = strlen(texts[i]);
	}
	memset(&req, 0, sizeof(req));
	req.parts = parts;
	req.lens = lens;
	req.nparts = n;
	req.sse = sse;
	req.line = 7;
	req.input_name = "t.jsonl";
	assert_true(ss_process(p, &req, &o));
	return o;
}

static struct ss_outcome run_line(struct ss_processor *p, const char *line)
{
	return run_parts(p, &line, 1, false);
}

#define VLLM_SD "{\"mean_acceptance_length\":1.2325581395348837,\"draft_acceptance_rate\":0.07751937984496124,\"acceptance_histogram\":[39,1,0,3],\"num_spec_steps\":43,\"num_accepted_draft_tokens\":10,\"num_draft_tokens\":129,\"num_spec_tokens\":3}"

/* A vLLM non-streaming body around a speculative_decoding object. */
static char *vllm_body(const char *sd)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf),
		 "{\"id\":\"x\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Four.\"}}],"
		 "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":50},\"metrics\":{\"speculative_decoding\":%s}}",
		 sd);
	return buf;
}

static void assert_hist(const struct ss_record *r, const int64_t *want, size_t n)
{
	assert_true(r->has_histogram);
	assert_int_equal(r->histogram.len, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(r->histogram.v[i], want[i]);
}

static void test_vllm_vector(void **state)
{
	struct ss_processor *p = proc_for(SS_KIND_UNKNOWN, SS_ENGINE_NONE, false);
	struct ss_outcome o = run_line(p, vllm_body(VLLM_SD));
	static const int64_t h[] = {39, 1, 0, 3};

	(void)state;
	assert_int_equal(o.status, SS_ST_OK);
	assert_int_equal(o.kind, SS_KIND_BODY);
	assert_string_equal(o.engine, "vllm");
	assert_non_null(o.record);
	assert_hist(o.record, h, 4);
	assert_int_equal(o.record->num_spec_steps, 43);
	assert_int_equal(o.record->num_accepted_draft_tokens, 10);
	assert_int_equal(o.record->num_draft_tokens, 129);
	assert_true(o.record->has_spec_tokens);
	assert_int_equal(o.record->num_spec_tokens, 3);
	assert_true(o.record->has_completion_tokens);
	assert_int_equal(o.record->completion_tokens, 50);
	/* Taken as sent, not recomputed. */
	assert_true(o.record->mean_acceptance_length == 1.2325581395348837);
	assert_true(o.record->draft_acceptance_rate == 0.07751937984496124);
	assert_int_equal(o.steps, 43);
	assert_int_equal(o.hist_len, 4);
	ss_processor_free(p);
	free_padded();
}

static void test_trtllm_sse(void **state)
{
	struct ss_processor *p = proc_for(SS_KIND_UNKNOWN, SS_ENGINE_NONE, false);
	const char *ev[] = {
		"{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}",
		"{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Sure, \"},\"avg_decoded_tokens_per_iter\":2.0}]}",
		"{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"here.\"},\"finish_reason\":\"stop\",\"avg_decoded_tokens_per_iter\":2.5,"
		"\"speculative_decoding\":{\"acceptance_rate\":0.5,\"total_accepted_draft_tokens\":30,\"total_draft_tokens\":60,"
		"\"num_spec_steps\":20,\"acceptance_histogram\":[8,0,6,6],\"num_spec_tokens\":3}}]}",
		"{\"choices\":[],\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":51}}",
	};
	struct ss_outcome o = run_parts(p, ev, 4, true);
	static const int64_t h[] = {8, 0, 6, 6};

	(void)state;
	assert_int_equal(o.status, SS_ST_OK);
	assert_int_equal(o.kind, SS_KIND_SSE);
	assert_string_equal(o.engine, "tensorrt_llm");
	assert_hist(o.record, h, 4);
	assert_true(o.record->mean_acceptance_length == 2.5);
	assert_true(o.record->draft_acceptance_rate == 0.5);
	assert_int_equal(o.record->completion_tokens, 51);
	ss_processor_free(p);
	free_padded();
}

static void expect_malformed(const char *sd, const char *reason)
{
	struct ss_processor *p = proc_for(SS_KIND_UNKNOWN, SS_ENGINE_NONE, false);
	struct ss_outcome o = run_line(p, vllm_body(sd));

	assert_int_equal(o.status, SS_ST_MALFORMED);
	assert_string_equal(o.reason, reason);
	ss_processor_free(p);
	free_padded();
}

static void test_vllm_malformed(void **state)
{
	(void)state;
	expect_malformed("{\"mean_acceptance_length\":4,\"draft_acceptance_rate\":1.5,\"acceptance_histogram\":[0,0,0,1],"
			 "\"num_spec_steps\":1,\"num_accepted_draft_tokens\":3,\"num_draft_tokens\":2,\"num_spec_tokens\":3}",
			 "num_accepted_draft_tokens 3 exceeds num_draft_tokens 2");
	expect_malformed("{\"mean_acceptance_length\":5,\"draft_acceptance_rate\":1,\"acceptance_histogram\":[0,0,0,0,1],"
			 "\"num_spec_steps\":1,\"num_accepted_draft_tokens\":4,\"num_draft_tokens\":4,\"num_spec_tokens\":3}",
			 "acceptance_histogram has 5 buckets but num_spec_tokens is 3");
	expect_malformed("{\"mean_acceptance_length\":2,\"draft_acceptance_rate\":0.3,\"acceptance_histogram\":[2,1,0,1],"
			 "\"num_spec_steps\":4,\"num_accepted_draft_tokens\":4,\"num_draft_tokens\":12,\"num_spec_tokens\":3,"
			 "\"per_step_accepted\":[0,1,3,0],\"per_step_drafted\":[3,3,2,4]}",
			 "step 2 accepted 3 of 2 drafts");
	expect_malformed("{\"mean_acceptance_length\":2,\"draft_acceptance_rate\":0.3,\"acceptance_histogram\":[39,1,0,3],"
			 "\"num_spec_steps\":42,\"num_accepted_draft_tokens\":10,\"num_draft_tokens\":129}",
			 "histogram sums to 43 but num_spec_steps is 42");
	expect_malformed("{\"mean_acceptance_length\":2,\"draft_acceptance_rate\":0.3,\"acceptance_histogram\":[39,1,0,3],"
			 "\"num_spec_steps\":43,\"num_accepted_draft_tokens\":11,\"num_draft_tokens\":129}",
			 "histogram accounts for 10 accepted drafts but num_accepted_draft_tokens is 11");
	expect_malformed("{\"mean_acceptance_length\":2,\"draft_acceptance_rate\":0.3,\"acceptance_histogram\":{\"0\":1},"
			 "\"num_spec_steps\":1,\"num_accepted_draft_tokens\":0,\"num_draft_tokens\":1}",
			 "acceptance_histogram is not an array");
	expect_malformed("{\"mean_acceptance_length\":2,\"draft_acceptance_rate\":0.3,\"acceptance_histogram\":null,"
			 "\"num_spec_steps\":1,\"num_accepted_draft_tokens\":0,\"num_draft_tokens\":1}",
			 "acceptance_histogram is null");
	expect_malformed("{\"mean_acceptance_length\":2,\"draft_acceptance_rate\":0.3,\"acceptance_histogram\":[1],"
			 "\"num_spec_steps\":\"1\",\"num_accepted_draft_tokens\":0,\"num_draft_tokens\":1}",
			 "num_spec_steps is not a number");
	expect_malformed("{\"mean_acceptance_length\":2,\"draft_acceptance_rate\":0.3,\"acceptance_histogram\":[1],"
			 "\"num_spec_steps\":1.0,\"num_accepted_draft_tokens\":0,\"num_draft_tokens\":1}",
			 "num_spec_steps is not an integer (1.0)");
	expect_malformed("{\"mean_acceptance_length\":2,\"draft_acceptance_rate\":0.3,\"acceptance_histogram\":[1],"
			 "\"num_spec_steps\":1e0,\"num_accepted_draft_tokens\":0,\"num_draft_tokens\":1}",
			 "num_spec_steps is not an integer (1e0)");
	expect_malformed("{\"mean_acceptance_length\":2,\"draft_acceptance_rate\":0.3,\"acceptance_histogram\":[1],"
			 "\"num_spec_steps\":1,\"num_accepted_draft_tokens\":-1,\"num_draft_tokens\":1}",
			 "num_accepted_draft_tokens is negative (-1)");
	expect_malformed("{\"mean_acceptance_length\":2,\"draft_acceptance_rate\":0.3,\"acceptance_histogram\":[1],"
			 "\"num_spec_steps\":1,\"num_accepted_draft_tokens\":0,\"num_draft_tokens\":9223372036854775808}",
			 "num_draft_tokens is out of range (9223372036854775808)");
	expect_malformed("{\"mean_acceptance_length\":2,\"draft_acceptance_rate\":1e400,\"acceptance_histogram\":[1],"
			 "\"num_spec_steps\":1,\"num_accepted_draft_tokens\":0,\"num_draft_tokens\":1}",
			 "draft_acceptance_rate is not finite (1e400)");
	expect_malformed("{\"mean_acceptance_length\":2,\"draft_acceptance_rate\":0.5,\"acceptance_histogram\":[1],"
			 "\"num_spec_steps\":1,\"num_accepted_draft_tokens\":0}",
			 "num_draft_tokens is missing");
	/* a required count null; the first failure's reason stands; an
	 * optional count null is no failure, of the wrong type it is one */
	expect_malformed("{\"mean_acceptance_length\":2,\"draft_acceptance_rate\":0.5,\"acceptance_histogram\":[1],"
			 "\"num_spec_steps\":1,\"num_accepted_draft_tokens\":0,\"num_draft_tokens\":null}",
			 "num_draft_tokens is null");
	expect_malformed("{\"mean_acceptance_length\":2,\"draft_acceptance_rate\":0.5,\"acceptance_histogram\":{\"0\":1},"
			 "\"num_spec_steps\":1,\"num_accepted_draft_tokens\":\"0\"}",
			 "num_accepted_draft_tokens is not a number");
	expect_malformed("{\"mean_acceptance_length\":null,\"draft_acceptance_rate\":0.5,\"acceptance_histogram\":[1],"
			 "\"num_spec_tokens\":null,\"num_spec_steps\":1,\"num_accepted_draft_tokens\":0,\"num_draft_tokens\":1}",
			 "mean_acceptance_length is null");
	expect_malformed("{\"mean_acceptance_length\":2,\"draft_acceptance_rate\":0.5,\"acceptance_histogram\":[1],"
			 "\"num_spec_tokens\":[0],\"num_spec_steps\":1,\"num_accepted_draft_tokens\":0,\"num_draft_tokens\":1}",
			 "num_spec_tokens is not a number");
	expect_malformed("{\"mean_acceptance_length\":2,\"draft_acceptance_rate\":0.5,\"acceptance_histogram\":[1,true],"
			 "\"num_spec_steps\":1,\"num_accepted_draft_tokens\":0,\"num_draft_tokens\":1}",
			 "acceptance_histogram[1] is not a number");
	expect_malformed("{\"mean_acceptance_length\":2,\"draft_acceptance_rate\":0.5,\"acceptance_histogram\":[9223372036854775807,9223372036854775807],"
			 "\"num_spec_steps\":1,\"num_accepted_draft_tokens\":0,\"num_draft_tokens\":1}",
			 "histogram counts overflow when summed");
	expect_malformed("{\"mean_acceptance_length\":2,\"draft_acceptance_rate\":0.5,\"acceptance_histogram\":[0,1],"
			 "\"num_spec_steps\":1,\"num_accepted_draft_tokens\":1,\"num_draft_tokens\":1,\"per_step_accepted\":[1,0]}",
			 "per_step_accepted has 2 entries but num_spec_steps is 1");
}

static void test_per_step_ok_and_zero_step(void **state)
{
	struct ss_processor *p = proc_for(SS_KIND_UNKNOWN, SS_ENGINE_NONE, false);
	struct ss_outcome o = run_line(p, vllm_body(
		"{\"mean_acceptance_length\":2,\"draft_acceptance_rate\":0.3333333333333333,\"acceptance_histogram\":[2,1,0,1],"
		"\"num_spec_steps\":4,\"num_accepted_draft_tokens\":4,\"num_draft_tokens\":12,\"num_spec_tokens\":3,"
		"\"per_step_accepted\":[0,1,3,0],\"per_step_drafted\":[3,3,3,3]}"));

	(void)state;
	assert_int_equal(o.status, SS_ST_OK);
	assert_int_equal(o.record->per_step_accepted.len, 4);
	assert_int_equal(o.record->per_step_accepted.v[2], 3);
	assert_int_equal(o.record->per_step_drafted.v[3], 3);
	/* Zero steps: valid, but only counted as zero-step. */
	o = run_line(p, vllm_body("{\"mean_acceptance_length\":1.0,\"draft_acceptance_rate\":0.0,\"acceptance_histogram\":[0,0,0],"
				  "\"num_spec_steps\":0,\"num_accepted_draft_tokens\":0,\"num_draft_tokens\":0,\"num_spec_tokens\":2}"));
	assert_int_equal(o.status, SS_ST_ZERO_STEP);
	assert_string_equal(o.engine, "vllm");
	assert_non_null(o.record);
	ss_processor_free(p);
	free_padded();
}

static void test_llamacpp_and_sglang(void **state)
{
	struct ss_processor *p = proc_for(SS_KIND_UNKNOWN, SS_ENGINE_NONE, false);
	struct ss_outcome o;
	static const int64_t h[] = {11, 14, 11, 4, 0, 3};

	(void)state;
	o = run_line(p, "{\"choices\":[{\"index\":0,\"message\":{\"content\":\"...\"}}],\"usage\":{\"completion_tokens\":665},"
			"\"timings\":{\"predicted_n\":665,\"draft_n\":604,\"draft_n_accepted\":515}}");
	assert_int_equal(o.status, SS_ST_OK);
	assert_string_equal(o.engine, "llamacpp");
	assert_false(o.record->has_steps);
	assert_false(o.record->has_histogram);
	assert_false(o.record->has_mean_acceptance_length);
	assert_true(o.record->draft_acceptance_rate == 515.0 / 604.0);
	assert_int_equal(o.hist_len, 0);

	/* MLX servers: draft_rounds is the step count. */
	o = run_line(p, "{\"choices\":[{\"message\":{\"content\":\"a\"}}],\"timings\":{\"draft_n\":10,\"draft_n_accepted\":6,\"draft_rounds\":4}}");
	assert_int_equal(o.status, SS_ST_OK);
	assert_true(o.record->has_steps);
	assert_int_equal(o.record->num_spec_steps, 4);
	assert_true(o.record->mean_acceptance_length == 2.5);

	/* MLX without a drafter: nulls, so no payload. */
	o = run_line(p, "{\"choices\":[{\"message\":{\"content\":\"a\"}}],\"timings\":{\"draft_n\":null,\"draft_n_accepted\":null}}");
	assert_int_equal(o.status, SS_ST_NO_STATS);

	/* Nothing drafted and no steps: zero-step. */
	o = run_line(p, "{\"content\":\"hi\",\"timings\":{\"draft_n\":0,\"draft_n_accepted\":0}}");
	assert_int_equal(o.status, SS_ST_ZERO_STEP);

	o = run_line(p, "{\"id\":\"0f3c1d\",\"choices\":[{\"index\":0,\"message\":{\"content\":\"...\"}}],"
			"\"usage\":{\"completion_tokens\":106},\"sglext\":{\"spec_tokens_details\":{\"spec_accept_rate\":0.29,"
			"\"spec_accept_length\":2.4651162790697674,\"spec_num_correct_drafts\":63,\"spec_num_proposed_drafts\":215,"
			"\"spec_verify_ct\":43,\"spec_correct_drafts_histogram\":[11,14,11,4,0,3]}}}");
	assert_int_equal(o.status, SS_ST_OK);
	assert_string_equal(o.engine, "sglang");
	assert_hist(o.record, h, 6);
	assert_int_equal(o.record->num_spec_tokens, 5);
	assert_true(o.record->mean_acceptance_length == 1.0 + 63.0 / 43.0);
	assert_true(o.record->draft_acceptance_rate == 63.0 / 215.0);
	assert_int_equal(o.record->completion_tokens, 106);

	/* Native /generate with older aliases in meta_info. */
	o = run_line(p, "{\"text\":\"hello\",\"meta_info\":{\"spec_verify_ct\":5,\"spec_accept_token_num\":null,"
			"\"spec_accepted_drafts\":7,\"spec_draft_token_num\":15}}");
	assert_int_equal(o.status, SS_ST_OK);
	assert_int_equal(o.record->num_accepted_draft_tokens, 7);
	assert_int_equal(o.record->num_draft_tokens, 15);
	assert_false(o.record->has_histogram);

	/* An array of two details is two choices. */
	o = run_line(p, "{\"choices\":[{\"message\":{\"content\":\"a\"}}],\"sglext\":{\"spec_tokens_details\":["
			"{\"spec_verify_ct\":1,\"spec_num_correct_drafts\":0,\"spec_num_proposed_drafts\":1},"
			"{\"spec_verify_ct\":1,\"spec_num_correct_drafts\":0,\"spec_num_proposed_drafts\":1}]}}");
	assert_int_equal(o.status, SS_ST_MULTI_CHOICE);
	ss_processor_free(p);
	free_padded();
}

#define RAW_STREAM                                                                                        \
	"{\"metadata\":{\"x_request_id\":\"r1\",\"benchmark_phase\":\"profiling\",\"was_cancelled\":false},"  \
	"\"responses\":[{\"perf_ns\":1,\"packets\":[{\"name\":\"data\",\"value\":\"{\\\"choices\\\":[{\\\"index\\\":0,\\\"delta\\\":{\\\"content\\\":\\\"\\\"}}]}\"}]}," \
	"{\"perf_ns\":2,\"packets\":[{\"name\":\"data\",\"value\":\"{\\\"choices\\\":[{\\\"index\\\":0,\\\"delta\\\":{\\\"content\\\":\\\"Paris\\\"}}]}\"}]}," \
	"{\"perf_ns\":3,\"packets\":[{\"value\":\"{\\\"choices\\\":[],\\\"usage\\\":{\\\"completion_tokens\\\":54},\\\"metrics\\\":{\\\"speculative_decoding\\\":" \
	"{\\\"mean_acceptance_length\\\":1.2325581395348837,\\\"draft_acceptance_rate\\\":0.07751937984496124,\\\"acceptance_histogram\\\":[39,1,0,3]," \
	"\\\"num_spec_steps\\\":43,\\\"num_accepted_draft_tokens\\\":10,\\\"num_draft_tokens\\\":129,\\\"num_spec_tokens\\\":3}}}\",\"name\":\"data\"}]}," \
	"{\"perf_ns\":4,\"packets\":[{\"name\":\"data\",\"value\":\"[DONE]\"}]}],\"payload\":{\"stream\":true,\"n\":1}}"

static void test_raw_lines(void **state)
{
	struct ss_processor *fast = proc_for(SS_KIND_UNKNOWN, SS_ENGINE_NONE, false);
	struct ss_processor *full = proc_for(SS_KIND_UNKNOWN, SS_ENGINE_NONE, true);
	struct ss_outcome a = run_line(fast, RAW_STREAM);
	struct ss_outcome b = run_line(full, RAW_STREAM);

	(void)state;
	assert_int_equal(a.status, SS_ST_OK);
	assert_int_equal(a.kind, SS_KIND_RAW);
	assert_int_equal(a.record->completion_tokens, 54);
	assert_int_equal(a.record->num_spec_steps, 43);
	assert_non_null(a.metadata);
	assert_int_equal(b.status, SS_ST_OK);
	assert_int_equal(b.record->num_spec_steps, 43);
	assert_int_equal(b.record->completion_tokens, 54);

	/* Non-streaming raw: the body is in responses[].text. */
	a = run_line(fast, "{\"metadata\":{\"benchmark_phase\":\"warmup\"},\"responses\":[{\"perf_ns\":9,\"text\":"
			   "\"{\\\"choices\\\":[{\\\"message\\\":{\\\"content\\\":\\\"Four.\\\"}}],\\\"metrics\\\":{\\\"speculative_decoding\\\":"
			   "{\\\"mean_acceptance_length\\\":3.0,\\\"draft_acceptance_rate\\\":0.5,\\\"acceptance_histogram\\\":[0,0,1],"
			   "\\\"num_spec_steps\\\":1,\\\"num_accepted_draft_tokens\\\":2,\\\"num_draft_tokens\\\":4}}}\"}]}");
	assert_int_equal(a.status, SS_ST_OK);
	assert_int_equal(a.phase, SS_PHASE_WARMUP);
	assert_false(a.record->has_completion_tokens);
	ss_processor_free(fast);
	ss_processor_free(full);
	free_padded();
}

static void expect_status(const char *line, enum ss_status st, const char *reason)
{
	struct ss_processor *p = proc_for(SS_KIND_UNKNOWN, SS_ENGINE_NONE, false);
	struct ss_outcome o = run_line(p, line);

	assert_int_equal(o.status, st);
	if (reason)
		assert_string_equal(o.reason, reason);
	ss_processor_free(p);
	free_padded();
}

static void test_statuses(void **state)
{
	(void)state;
	expect_status("{\"a\":", SS_ST_UNPARSABLE, "invalid JSON");
	expect_status("[1,2]", SS_ST_UNPARSABLE, "not a JSON object");
	expect_status("{\"a\":\"\xff\"}", SS_ST_UNPARSABLE, "invalid UTF-8");
	expect_status("{\"a\":1} x", SS_ST_UNPARSABLE, "invalid JSON");
	expect_status("{\"metadata\":{\"a\":tru},\"responses\":[]}", SS_ST_UNPARSABLE, NULL);
	expect_status("{\"hello\":1}", SS_ST_UNRECOGNIZED, NULL);
	expect_status("{\"metadata\":{},\"responses\":[],\"error\":{\"type\":\"HTTP\",\"message\":\"boom\"}}",
		      SS_ST_ERROR, "request failed: boom");
	expect_status("{\"metadata\":{},\"metrics\":{},\"error\":\"timeout\"}", SS_ST_ERROR,
		      "request failed: timeout");
	expect_status("{\"metadata\":{\"was_cancelled\":true},\"responses\":[],\"error\":null}", SS_ST_CANCELLED, NULL);
	expect_status("{\"metadata\":{},\"responses\":[{\"text\":\"{\\\"choices\\\":[{\\\"text\\\":\\\"a\\\"}]}\"}],"
		      "\"payload\":{\"n\":2}}", SS_ST_MULTI_CHOICE, "the request asked for n = 2 choices");
	expect_status("{\"metadata\":{},\"responses\":[{\"text\":\"{\\\"choices\\\":[{\\\"text\\\":\\\"\\\"}]}\"}]}",
		      SS_ST_NO_CONTENT, NULL);
	expect_status("{\"choices\":[{\"message\":{\"content\":\"hi\"}}]}", SS_ST_NO_STATS, NULL);
	expect_status("{\"choices\":[{\"message\":{\"tool_calls\":[{\"id\":1}]}}],\"metrics\":{\"speculative_decoding\":null}}",
		      SS_ST_NO_STATS, NULL);
	expect_status("{\"choices\":[{\"message\":{\"content\":\"hi\"}}],\"metrics\":{\"speculative_decoding\":{\"foo\":1}}}",
		      SS_ST_UNRECOGNIZED, "payload not claimed by any adapter");
	expect_status("{\"choices\":[{\"message\":{\"content\":\"hi\"}}],\"metrics\":{\"speculative_decoding\":"
		      "{\"draft_n\":1,\"draft_n_accepted\":1,\"spec_verify_ct\":1,\"spec_num_correct_drafts\":1}}}",
		      SS_ST_AMBIGUOUS, "payload claimed by both llamacpp and sglang");
	/* Two objects with a payload. */
	expect_status("{\"metadata\":{},\"responses\":["
		      "{\"text\":\"{\\\"choices\\\":[{\\\"text\\\":\\\"a\\\"}],\\\"meta_info\\\":{\\\"spec_verify_ct\\\":1,\\\"spec_num_correct_drafts\\\":0,\\\"spec_num_proposed_drafts\\\":1}}\"},"
		      "{\"text\":\"{\\\"choices\\\":[{\\\"text\\\":\\\"a\\\"}],\\\"meta_info\\\":{\\\"spec_verify_ct\\\":1,\\\"spec_num_correct_drafts\\\":0,\\\"spec_num_proposed_drafts\\\":1}}\"}]}",
		      SS_ST_AMBIGUOUS, "2 responses carry a spec-decode payload");
	/* llama.cpp timings in several chunks: the last one wins. */
	expect_status("{\"metadata\":{},\"responses\":["
		      "{\"text\":\"{\\\"content\\\":\\\"a\\\",\\\"timings\\\":{\\\"draft_n\\\":4,\\\"draft_n_accepted\\\":5}}\"},"
		      "{\"text\":\"{\\\"content\\\":\\\"b\\\",\\\"timings\\\":{\\\"draft_n\\\":8,\\\"draft_n_accepted\\\":5}}\"}]}",
		      SS_ST_OK, "");
	/* TensorRT-LLM payloads for two choice indexes. */
	expect_status("{\"metadata\":{},\"responses\":["
		      "{\"text\":\"{\\\"choices\\\":[{\\\"index\\\":0,\\\"text\\\":\\\"a\\\",\\\"speculative_decoding\\\":{\\\"total_accepted_draft_tokens\\\":1,\\\"total_draft_tokens\\\":2}}]}\"},"
		      "{\"text\":\"{\\\"choices\\\":[{\\\"index\\\":1,\\\"text\\\":\\\"b\\\",\\\"speculative_decoding\\\":{\\\"total_accepted_draft_tokens\\\":1,\\\"total_draft_tokens\\\":2}}]}\"}]}",
		      SS_ST_MULTI_CHOICE, NULL);
	/* TensorRT-LLM never sends a payload without steps. */
	expect_status("{\"choices\":[{\"text\":\"a\",\"speculative_decoding\":{\"acceptance_rate\":0,\"total_accepted_draft_tokens\":0,"
		      "\"total_draft_tokens\":0,\"num_spec_steps\":0,\"acceptance_histogram\":[0]}}]}",
		      SS_ST_MALFORMED, "num_spec_steps is 0");
}

static void test_records_line(void **state)
{
	struct ss_processor *p = proc_for(SS_KIND_UNKNOWN, SS_ENGINE_NONE, false);
	struct ss_outcome o;
	static const int64_t h[] = {1, 1, 2, 3, 1};

	(void)state;
	o = run_line(p, "{\"metadata\":{\"benchmark_phase\":\"profiling\"},\"metrics\":{\"request_latency\":{\"value\":1300.0,\"unit\":\"ms\"}},"
			"\"spec_decode_acceptance\":{\"engine\":\"vllm\",\"mean_acceptance_length\":3.25,\"draft_acceptance_rate\":0.5625,"
			"\"acceptance_histogram\":{\"0\":1,\"1\":1,\"2\":2,\"3\":3,\"4\":1},\"num_accepted_draft_tokens\":18,"
			"\"num_draft_tokens\":32,\"num_spec_steps\":8,\"num_spec_tokens\":4,\"completion_tokens\":26,"
			"\"per_step_accepted\":[2,3,1,4,2,0,3,3],\"per_step_drafted\":[4,4,4,4,4,4,4,4]}}");
	assert_int_equal(o.status, SS_ST_OK);
	assert_int_equal(o.kind, SS_KIND_RECORDS);
	assert_string_equal(o.engine, "vllm");
	assert_hist(o.record, h, 5);
	assert_int_equal(o.record->completion_tokens, 26);
	assert_non_null(o.metrics);

	o = run_line(p, "{\"metadata\":{},\"metrics\":{}}");
	assert_int_equal(o.status, SS_ST_NO_STATS);
	o = run_line(p, "{\"metadata\":{},\"metrics\":{},\"spec_decode_acceptance\":{\"engine\":\"vllm\",\"draft_acceptance_rate\":0.5,"
			"\"acceptance_histogram\":{\"0\":1,\"x\":2},\"num_accepted_draft_tokens\":0,\"num_draft_tokens\":1,\"num_spec_steps\":1}}");
	assert_int_equal(o.status, SS_ST_MALFORMED);
	o = run_line(p, "{\"metadata\":{},\"metrics\":{},\"spec_decode_acceptance\":{\"engine\":\"llamacpp\",\"draft_acceptance_rate\":0.5,"
			"\"num_accepted_draft_tokens\":1,\"num_draft_tokens\":2}}");
	assert_int_equal(o.status, SS_ST_OK);
	assert_string_equal(o.engine, "llamacpp");
	ss_processor_free(p);
	free_padded();
}

/*
 * A repeated key keeps its last value, whatever the first one left in the
 * field (an array's bad element, a string, a histogram's bad key), and a
 * field a line did not repeat starts clean on the next line.
 */
static void test_repeated_keys_keep_last(void **state)
{
	struct ss_processor *p = proc_for(SS_KIND_UNKNOWN, SS_ENGINE_NONE, false);
	static const int64_t h[] = {2, 0, 1};
	struct ss_outcome o;

	(void)state;
	o = run_line(p, vllm_body("{\"mean_acceptance_length\":1.5,\"draft_acceptance_rate\":0.25,"
				  "\"acceptance_histogram\":[1,true],\"num_spec_steps\":\"3\","
				  "\"acceptance_histogram\":[2,0,1],\"num_spec_steps\":3,"
				  "\"num_accepted_draft_tokens\":2,\"num_draft_tokens\":6,\"num_spec_tokens\":2}"));
	assert_int_equal(o.status, SS_ST_OK);
	assert_int_equal(o.record->num_spec_steps, 3);
	assert_hist(o.record, h, 3);
	/* the same processor, once each: the last line's values are gone */
	o = run_line(p, vllm_body("{\"mean_acceptance_length\":1.5,\"draft_acceptance_rate\":0.25,"
				  "\"acceptance_histogram\":[2,0,1],\"num_spec_steps\":3,"
				  "\"num_accepted_draft_tokens\":2,\"num_draft_tokens\":6}"));
	assert_int_equal(o.status, SS_ST_OK);
	assert_false(o.record->has_spec_tokens);
	assert_hist(o.record, h, 3);
	o = run_line(p, vllm_body("{\"mean_acceptance_length\":1.5,\"draft_acceptance_rate\":0.25,"
				  "\"acceptance_histogram\":[2,0,1],\"num_spec_steps\":3,"
				  "\"num_accepted_draft_tokens\":2,\"num_draft_tokens\":6,\"acceptance_histogram\":[1,true]}"));
	assert_int_equal(o.status, SS_ST_MALFORMED);
	assert_string_equal(o.reason, "acceptance_histogram[1] is not a number");
	/* records lines: the engine string and the histogram object repeated */
	o = run_line(p, "{\"metadata\":{},\"metrics\":{},\"spec_decode_acceptance\":{\"engine\":\"sglang\","
			"\"acceptance_histogram\":{\"0\":1,\"x\":2},\"engine\":\"vllm\",\"draft_acceptance_rate\":0.5,"
			"\"acceptance_histogram\":{\"1\":1},\"num_accepted_draft_tokens\":1,\"num_draft_tokens\":2,"
			"\"num_spec_steps\":1}}");
	assert_int_equal(o.status, SS_ST_OK);
	assert_string_equal(o.engine, "vllm");
	assert_int_equal(o.record->histogram.len, 2);
	assert_int_equal(o.record->histogram.v[0], 0);
	assert_int_equal(o.record->histogram.v[1], 1);
	ss_processor_free(p);
	free_padded();
}

static void test_engine_filter_and_forced_kind(void **state)
{
	struct ss_processor *p = proc_for(SS_KIND_UNKNOWN, SS_ENGINE_SGLANG, false);
	struct ss_outcome o = run_line(p, vllm_body(VLLM_SD));

	(void)state;
	assert_int_equal(o.status, SS_ST_UNRECOGNIZED);
	ss_processor_free(p);
	free_padded();

	/* Forced body: a line without choices is still read as a body. */
	p = proc_for(SS_KIND_BODY, SS_ENGINE_NONE, false);
	o = run_line(p, "{\"content\":\"x\",\"metrics\":{\"speculative_decoding\":" VLLM_SD "}}");
	assert_int_equal(o.status, SS_ST_OK);
	assert_int_equal(o.kind, SS_KIND_BODY);
	ss_processor_free(p);
	free_padded();
}

static void test_oversize(void **state)
{
	struct ss_processor *p = proc_for(SS_KIND_UNKNOWN, SS_ENGINE_NONE, false);
	struct ss_request_text req;
	struct ss_outcome o;

	(void)state;
	memset(&req, 0, sizeof(req));
	req.oversize = true;
	req.line = 3;
	assert_true(ss_process(p, &req, &o));
	assert_int_equal(o.status, SS_ST_OVERSIZE);
	assert_int_equal(o.line, 3);
	ss_processor_free(p);
}

static void test_unescape(void **state)
{
	struct ss_buf b = SS_BUF_INIT;

	(void)state;
	/* x\"y (4 bytes) is x"y */
	assert_true(ss_json_unescape("x\\\"y", 4, &b));
	assert_string_equal(b.data, "x\"y");
	ss_buf_reset(&b);
	/* e-acute, the G clef (a surrogate pair), \/ and \n: 22 bytes in */
	assert_true(ss_json_unescape("\\u00e9\\ud834\\udd1e\\/\\n", 22, &b));
	assert_int_equal(b.len, 2 + 4 + 1 + 1);
	assert_memory_equal(b.data, "\xc3\xa9\xf0\x9d\x84\x9e/\n", 8);
	ss_buf_reset(&b);
	/* a lone surrogate is U+FFFD (EF BF BD), as jq decodes it */
	assert_true(ss_json_unescape("\\ud834x", 7, &b));    /* lone high surrogate */
	assert_int_equal(b.len, 4);
	assert_memory_equal(b.data, "\xef\xbf\xbdx", 4);
	ss_buf_reset(&b);
	assert_true(ss_json_unescape("\\udd1e", 6, &b));     /* lone low surrogate */
	assert_int_equal(b.len, 3);
	assert_memory_equal(b.data, "\xef\xbf\xbd", 3);
	ss_buf_reset(&b);
	assert_true(ss_json_unescape("\\ud834\\ud834", 12, &b));  /* two highs: two */
	assert_int_equal(b.len, 6);
	ss_buf_reset(&b);
	assert_false(ss_json_unescape("\\ud83", 5, &b));     /* cut \\u */
	ss_buf_reset(&b);
	assert_false(ss_json_unescape("\\x", 2, &b));        /* unknown escape */
	ss_buf_reset(&b);
	assert_false(ss_json_unescape("a\tb", 3, &b));         /* raw control character */
	ss_buf_reset(&b);
	assert_false(ss_json_unescape("ab\\", 3, &b));        /* cut escape */
	ss_buf_release(&b);
}

/* SPEC 2.4's counts: integer literals in [0, 2^63-1], every digit read. */
static void test_parse_count(void **state)
{
	static const struct {
		const char *text;
		enum ss_int_error want;
		int64_t value;
	} cases[] = {
		{"0", SS_INT_OK, 0},
		{"-0", SS_INT_OK, 0},
		{"7", SS_INT_OK, 7},
		{"1234567890123456789", SS_INT_OK, 1234567890123456789LL},   /* 19 digits */
		{"9223372036854775807", SS_INT_OK, INT64_MAX},               /* 2^63 - 1 */
		{"9223372036854775808", SS_INT_RANGE, 0},                    /* 2^63 */
		{"9999999999999999999", SS_INT_RANGE, 0},                    /* 19 nines */
		{"18446744073709551615", SS_INT_RANGE, 0},                   /* 2^64 - 1 */
		{"18446744073709551616", SS_INT_RANGE, 0},                   /* 2^64 */
		{"00000000000000000000042", SS_INT_OK, 42},                  /* 23 digits */
		{"-5", SS_INT_NEGATIVE, 0},
		{"-99999999999999999999", SS_INT_NEGATIVE, 0},
		{"", SS_INT_NOT_INTEGER, 0},
		{"-", SS_INT_NOT_INTEGER, 0},
		{"1.0", SS_INT_NOT_INTEGER, 0},
		{"1e3", SS_INT_NOT_INTEGER, 0},
		{"12x", SS_INT_NOT_INTEGER, 0},
		{"123456789012345678x", SS_INT_NOT_INTEGER, 0},              /* 19 bytes */
		{"99999999999999999999x", SS_INT_NOT_INTEGER, 0},            /* after overflow */
		{"9/", SS_INT_NOT_INTEGER, 0},                               /* '/' is '0' - 1 */
		{"9:", SS_INT_NOT_INTEGER, 0},                               /* ':' is '9' + 1 */
		{"999999999999999999", SS_INT_OK, 999999999999999999LL},     /* 18 digits */
		{"12345678901234567x", SS_INT_NOT_INTEGER, 0},               /* 18 bytes */
		{"+5", SS_INT_NOT_INTEGER, 0},
		{"x", SS_INT_NOT_INTEGER, 0},
		/* 19 bytes and more: the first sixteen digits read in two groups
		 * of eight; a non-digit in either group, at its edges, or a byte
		 * whose +6 carries into the next one */
		{"1787366173251636217", SS_INT_OK, 1787366173251636217LL},
		{"1234/67890123456789", SS_INT_NOT_INTEGER, 0},
		{"12345678901:3456789", SS_INT_NOT_INTEGER, 0},
		{"x234567890123456789", SS_INT_NOT_INTEGER, 0},
		{"1234567x90123456789", SS_INT_NOT_INTEGER, 0},
		{"12345678x0123456789", SS_INT_NOT_INTEGER, 0},
		{"123456789012345.789", SS_INT_NOT_INTEGER, 0},
		{"1234567\xfa" "90123456789", SS_INT_NOT_INTEGER, 0},
		{"123456789012345\xff" "789", SS_INT_NOT_INTEGER, 0},
		{"-1234567890123456789", SS_INT_NEGATIVE, 0},
		{"-123456789012345678x", SS_INT_NOT_INTEGER, 0},
		{"-0000000000000000000", SS_INT_OK, 0},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t v = -1;
		enum ss_int_error e = ss_parse_count(cases[i].text, strlen(cases[i].text), &v);

		if (e != cases[i].want)
			fail_msg("\"%s\": error %d, want %d", cases[i].text, (int)e,
				 (int)cases[i].want);
		if (e == SS_INT_OK)
			assert_int_equal(v, cases[i].value);
		else
			assert_int_equal(v, -1);   /* left alone */
	}
}
/*
 * Every field name of the payload is found by its key and by no other:
 * field i is written with the value i, then keys that are no field's name
 * (one byte off, a prefix, one longer than any name) are ignored.
 */
static void test_payload_field_names(void **state)
{
	struct ssj_parser *ps = ssj_parser_new();
	struct ss_payload pl;
	char text[4096];
	size_t len = 0;

	(void)state;
	assert_non_null(ps);
	ss_payload_init(&pl);
	len += (size_t)snprintf(text + len, sizeof(text) - len, "{");
	for (int i = 0; i < SS_F_COUNT; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "\"%s\":%d,",
					ss_field_name((enum ss_field_id)i), i);
	len += (size_t)snprintf(text + len, sizeof(text) - len,
				"\"num_spec_stepz\":-1,\"engin\":-1,"
				"\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\":-1}");
	assert_true(len + SSJ_PADDING < sizeof(text));
	assert_int_equal(ss_payload_collect(&pl, ps, text, len), SSJ_OK);
	for (int i = 0; i < SS_F_COUNT; i++) {
		char want[8];

		snprintf(want, sizeof(want), "%d", i);
		assert_true(pl.f[i].present);
		assert_int_equal(pl.f[i].type, SSJ_NUMBER);
		assert_int_equal(pl.f[i].len, strlen(want));
		assert_memory_equal(pl.f[i].text, want, pl.f[i].len);
	}
	ss_payload_release(&pl);
	ssj_parser_free(ps);
}

/* SPEC 7.8's time: asked for, from the metadata of the line, by 7.13's test. */
static void test_request_time(void **state)
{
	struct ss_process_opts po = {SS_KIND_UNKNOWN, SS_ENGINE_NONE, false, true, false, false, false, NULL, 0};
	struct ss_processor *p = ss_processor_new(&po), *plain;
	static const char *const tail =
		"\"metrics\":{},\"spec_decode_acceptance\":{\"engine\":\"vllm\","
		"\"acceptance_histogram\":{\"0\":1,\"1\":1},\"num_accepted_draft_tokens\":1,"
		"\"num_draft_tokens\":2,\"num_spec_steps\":2,\"num_spec_tokens\":1}}";
	static const struct {
		const char *meta;
		bool timed;
		int64_t t;
	} cases[] = {
		{"{\"request_end_ns\":12,\"request_start_ns\":5}", true, 12},
		{"{\"request_start_ns\":5}", true, 5},
		{"{\"request_end_ns\":-1,\"request_start_ns\":5}", true, 5},
		{"{\"request_end_ns\":1.5e9,\"request_start_ns\":-5}", false, 0},
		{"{\"request_end_ns\":9223372036854775807}", true, INT64_MAX},
		{"{\"request_end_ns\":9223372036854775808}", false, 0},
		{"{\"request_end_ns\":\"12\"}", false, 0},
		{"{\"request_end_ns\":0}", true, 0},
		{"{\"request_end_ns\":3,\"request_end_ns\":4}", true, 4},   /* the last counts */
		{"{\"request_end_ns\":3,\"request_end_ns\":null}", false, 0},
		{"[1]", false, 0},
		/* a real 19-digit time and lengths around 8 and 16 digits; a
		 * fraction or exponent early or late in the token is no time */
		{"{\"request_end_ns\":1787366173251636217}", true, INT64_C(1787366173251636217)},
		{"{\"request_end_ns\":9081726354091827364}", true, INT64_C(9081726354091827364)},
		{"{\"request_end_ns\":12345678}", true, 12345678},
		{"{\"request_end_ns\":123456789}", true, 123456789},
		{"{\"request_end_ns\":1234567890123456}", true, INT64_C(1234567890123456)},
		{"{\"request_end_ns\":10000000000000000}", true, INT64_C(10000000000000000)},
		{"{\"request_end_ns\":9999999999999999999}", false, 0},
		{"{\"request_end_ns\":1234567.9,\"request_start_ns\":7}", true, 7},
		{"{\"request_end_ns\":1234e567,\"request_start_ns\":8}", true, 8},
		{"{\"request_end_ns\":12345678e3,\"request_start_ns\":9}", true, 9},
		{"{\"request_end_ns\":123456781234567.5,\"request_start_ns\":10}", true, 10},
		{"{\"request_end_ns\":-12345678901234567}", false, 0},
		/* 16 to 19 characters with a sign, a point or an exponent
		 * early, in the middle or late; a 16- and a 19-digit time */
		{"{\"request_end_ns\":12.4567890123456789,\"request_start_ns\":11}", true, 11},
		{"{\"request_end_ns\":12345678901234e+56,\"request_start_ns\":12}", true, 12},
		{"{\"request_end_ns\":1234567E12345678,\"request_start_ns\":13}", true, 13},
		{"{\"request_end_ns\":-123456789012345678,\"request_start_ns\":14}", true, 14},
		{"{\"request_end_ns\":1234567890123456E1,\"request_start_ns\":15}", true, 15},
		{"{\"request_end_ns\":9876543210987654}", true, INT64_C(9876543210987654)},
		{"{\"request_end_ns\":8000000000000000009}", true, INT64_C(8000000000000000009)},
	};
	char line[1024];

	(void)state;
	assert_non_null(p);
	plain = proc_for(SS_KIND_UNKNOWN, SS_ENGINE_NONE, false);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ss_outcome o;

		snprintf(line, sizeof(line), "{\"metadata\":%s,%s", cases[i].meta, tail);
		o = run_line(p, line);
		assert_int_equal(o.timed, cases[i].timed);
		if (cases[i].timed)
			assert_true(o.time_ns == cases[i].t);
		/* not asked for: never timed */
		o = run_line(plain, line);
		assert_false(o.timed);
	}
	free_padded();
	ss_processor_free(p);
	ss_processor_free(plain);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vllm_vector),
		cmocka_unit_test(test_trtllm_sse),
		cmocka_unit_test(test_vllm_malformed),
		cmocka_unit_test(test_repeated_keys_keep_last),
		cmocka_unit_test(test_per_step_ok_and_zero_step),
		cmocka_unit_test(test_llamacpp_and_sglang),
		cmocka_unit_test(test_raw_lines),
		cmocka_unit_test(test_statuses),
		cmocka_unit_test(test_records_line),
		cmocka_unit_test(test_engine_filter_and_forced_kind),
		cmocka_unit_test(test_oversize),
		cmocka_unit_test(test_unescape),
		cmocka_unit_test(test_parse_count),
		cmocka_unit_test(test_payload_field_names),
		cmocka_unit_test(test_request_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
