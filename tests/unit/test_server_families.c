/*
 * Unit tests of the server window for each family row but vLLM's and
 * llama.cpp's (those are in test_server_window.c): SGLang's Prometheus
 * counters (tp_rank, the estimate, gauges) and server info, TensorRT-LLM's
 * Prometheus counters (steps from DP_1, the histogram and 7.1's table) and
 * iteration statistics (increments), and the reconciliation with the
 * per-request sums. Expected values are worked out by hand in the
 * comments.
 */
#include "server_samples.h"

/* SGLang: tp_rank other than "0" left out, accepted estimated as G - R - S, gauges. */
static void test_sglang_prometheus(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	SNAP(s, "sglang:spec_verify_calls_total{tp_rank=0} 100",
	     "sglang:spec_verify_calls_total{tp_rank=1} 100",
	     "sglang:generation_tokens_total{tp_rank=0} 500",
	     "sglang:generation_tokens_total{tp_rank=1} 500", "sglang:num_requests_total{tp_rank=0} 10",
	     "sglang:spec_accept_length{tp_rank=0} 2.0", "sglang:spec_accept_length{tp_rank=1} 9.0",
	     "sglang:spec_accept_rate{tp_rank=0} NaN");
	SNAP(s, "sglang:spec_verify_calls_total{tp_rank=0} 300",
	     "sglang:spec_verify_calls_total{tp_rank=1} 300",
	     "sglang:generation_tokens_total{tp_rank=0} 1210",
	     "sglang:generation_tokens_total{tp_rank=1} 1210", "sglang:num_requests_total{tp_rank=0} 20",
	     "sglang:spec_accept_length{tp_rank=0} 3.5", "sglang:spec_accept_rate{tp_rank=0} 0.625");
	f = finish(s, &r, 1);
	assert_int_equal(f->row->engine, SS_ENGINE_SGLANG);
	assert_true(f->estimated);
	/* rank 0 only: ΔS 200, ΔG 710, ΔR 10: ΔA = 710 - 10 - 200 = 500 */
	assert_u128(f->steps, 200);
	assert_i128(f->accepted_tokens, 500);
	assert_double_is(f->acceptance_length, 3.5); /* 1 + 500/200 */
	assert_false(f->has_draft_tokens);
	assert_false(f->has_rate);
	assert_int_equal(f->series, 1); /* {tp_rank="0"} */
	/* gauges of the last snapshot that had them, rank 0 */
	assert_int_equal(f->ngauges, 2);
	assert_string_equal(f->gauges[0].name, "sglang:spec_accept_length");
	assert_double_is(f->gauges[0].value, 3.5);
	assert_string_equal(f->gauges[1].name, "sglang:spec_accept_rate");
	assert_double_is(f->gauges[1].value, 0.625);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* SGLang server info: S = Σ forward counts, A = Σ accept tokens - S. */
static void test_sglang_server_info(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	snap_at(s, 0, SS_SRC_SERVER_INFO, 0, false, 0, "spec_cumulative_num_forward_ct{state=0} 3000",
		"spec_cumulative_num_accept_tokens{state=0} 9300", "avg_spec_accept_length 3.1", NULL);
	snap_at(s, 0, SS_SRC_SERVER_INFO, 0, false, 0, "spec_cumulative_num_forward_ct{state=0} 5000",
		"spec_cumulative_num_accept_tokens{state=0} 15100", NULL);
	/* A Prometheus name is not looked up among server info rows, nor the reverse. */
	snap_at(s, 0, SS_SRC_PROMETHEUS, 0, false, 0, "spec_cumulative_num_forward_ct 1", NULL);
	f = finish(s, &r, 1);
	assert_string_equal(f->row->counters, "server_info");
	/* ΔS 2000, Δ accept 5800: A = 3800 */
	assert_u128(f->steps, 2000);
	assert_i128(f->accepted_tokens, 3800);
	assert_double_is(f->acceptance_length, 2.9);
	assert_false(f->estimated);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* TensorRT-LLM's Prometheus counters: S = DP_1; fixed drafting gives the histogram. */
static void test_trtllm_prometheus(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	SNAP(s, "trtllm_spec_decode_num_draft_tokens_total 0",
	     "trtllm_spec_decode_num_accepted_tokens_total 0",
	     "trtllm_spec_decode_accepted_tokens_total{token_position=0} 0",
	     "trtllm_spec_decode_accepted_tokens_total{token_position=1} 0",
	     "trtllm_spec_decode_drafted_tokens_total{token_position=0} 0",
	     "trtllm_spec_decode_drafted_tokens_total{token_position=1} 0");
	SNAP(s, "trtllm_spec_decode_num_draft_tokens_total 20",
	     "trtllm_spec_decode_num_accepted_tokens_total 12",
	     "trtllm_spec_decode_accepted_tokens_total{token_position=0} 8",
	     "trtllm_spec_decode_accepted_tokens_total{token_position=1} 4",
	     "trtllm_spec_decode_drafted_tokens_total{token_position=0} 10",
	     "trtllm_spec_decode_drafted_tokens_total{token_position=1} 10",
	     "trtllm_spec_decode_acceptance_length 2.25");
	assert_true(ss_server_finish(s, NULL, true, 0.1, &r));
	assert_int_equal(r.nfamilies, 1);
	f = &r.families[0];
	assert_int_equal(f->row->engine, SS_ENGINE_TRTLLM);
	assert_string_equal(f->row->counters, "prometheus");
	assert_u128(f->steps, 10); /* ΔDP_1 */
	assert_double_is(f->acceptance_length, 2.2);     /* 1 + 12/10 */
	assert_double_is(f->draft_acceptance_rate, 60.0); /* 12/20 x 100 */
	assert_true(f->consistent);                       /* 8 + 4 = 12, 8 >= 4 */
	/* ΔDP_i = 10 = ΔS: H = {10 - 8, 8 - 4, 4} */
	assert_non_null(f->histogram);
	assert_u128(f->histogram[0], 2);
	assert_u128(f->histogram[1], 4);
	assert_u128(f->histogram[2], 4);
	/* τ(1) = 1.8, τ(2) = 2.2; rates 80, 60; speedups 1.8/1.1, 2.2/1.2 */
	assert_double_is(f->what_if[0].acceptance_length, 1.8);
	assert_double_is(f->what_if[1].acceptance_length, 2.2);
	assert_double_is(f->what_if[0].draft_acceptance_rate, 80.0);
	assert_double_is(f->what_if[1].draft_acceptance_rate, 60.0);
	assert_double_is(f->what_if[0].speedup, 1.6363636363636362);
	assert_double_is(f->what_if[1].speedup, 1.8333333333333335);
	assert_int_equal(f->suggested_k, 2);
	assert_int_equal(f->ngauges, 1);
	assert_double_is(f->gauges[0].value, 2.25);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* TensorRT-LLM iterations are increments (SPEC 10.6's example lines). */
static void test_trtllm_iterations(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	snap_at(s, 0, SS_SRC_ITERATIONS, SS_SNAP_INCREMENT, false, 0, "numDraftTokens 24",
		"numAcceptedTokens 13", "numRequestsWithDraftTokens 8", "iterLatencyMS 21", NULL);
	snap_at(s, 0, SS_SRC_ITERATIONS, SS_SNAP_INCREMENT, false, 0, "numDraftTokens 24",
		"numAcceptedTokens 11", "numRequestsWithDraftTokens 8", NULL);
	f = finish(s, &r, 1);
	assert_string_equal(f->row->counters, "iterations");
	assert_int_equal(f->snapshots, 2);
	assert_false(f->since_start);
	assert_u128(f->steps, 16);
	assert_u128(f->draft_tokens, 48);
	assert_i128(f->accepted_tokens, 24);
	assert_double_is(f->acceptance_length, 2.5);
	assert_double_is(f->draft_acceptance_rate, 50.0);
	assert_false(f->has_start || f->has_end);
	assert_int_equal(f->nintervals, 0);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* Reconciliation with the per-request sums of the same engine. */
static void test_reconciliation(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	struct ss_server_requests req[SS_ENGINE_COUNT];
	const struct ss_server_reconciliation *rc;

	(void)state;
	memset(req, 0, sizeof(req));
	SNAP(s, "vllm:spec_decode_num_drafts 0", "vllm:spec_decode_num_accepted_tokens 0",
	     "llamacpp:spec_decode_num_drafts 0", "llamacpp:spec_decode_num_accepted_tokens 0",
	     "vllm:spec_decode_num_draft_tokens 0", "llamacpp:spec_decode_num_draft_tokens 0");
	SNAP(s, "vllm:spec_decode_num_drafts 400", "vllm:spec_decode_num_accepted_tokens 1000",
	     "llamacpp:spec_decode_num_drafts 10", "llamacpp:spec_decode_num_accepted_tokens 30");
	req[SS_ENGINE_VLLM] = (struct ss_server_requests){true, 400, 1005, 3000};
	req[SS_ENGINE_LLAMACPP] = (struct ss_server_requests){true, 0, 20, 50};
	assert_true(ss_server_finish(s, req, false, 0.0, &r));
	assert_int_equal(r.nfamilies, 2);
	rc = &r.families[0].reconciliation;
	assert_true(r.families[0].has_reconciliation);
	assert_u128(rc->steps, 400);
	assert_u128(rc->accepted, 1005);
	assert_u128(rc->drafted, 3000);
	assert_double_is(rc->steps_ratio, 1.0);
	assert_double_is(rc->accepted_ratio, 0.9950248756218906); /* 1000/1005: within 1% */
	assert_false(rc->steps_off);
	assert_false(rc->accepted_off);
	rc = &r.families[1].reconciliation;
	assert_false(rc->has_steps_ratio); /* no record had steps (llama.cpp) */
	assert_double_is(rc->accepted_ratio, 1.5); /* 30/20 */
	assert_true(rc->accepted_off);
	ss_server_results_release(&r);
	ss_server_free(s);

	/* No family for an engine with records: nothing to reconcile; no family, none listed. */
	s = new_server();
	SNAP(s, "vllm:num_requests_running 3");
	finish(s, &r, 0);
	assert_int_equal(r.snapshots, 1);
	ss_server_results_release(&r);
	ss_server_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sglang_prometheus),
		cmocka_unit_test(test_sglang_server_info),
		cmocka_unit_test(test_trtllm_prometheus),
		cmocka_unit_test(test_trtllm_iterations),
		cmocka_unit_test(test_reconciliation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
