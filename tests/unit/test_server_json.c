/*
 * Unit tests of SPEC 10.1's JSON shapes (server/server_json.h): which
 * shape a line is, and the windows of AIPerf's server-metrics lines and
 * document, TensorRT-LLM's iteration statistics, SGLang's server info and
 * a Prometheus server's query_range / query answers. The inputs are
 * written here; the expected windows are worked out by hand in the
 * comments (doubles: one division of the integers, as Python's int / int
 * gives it, checked there). Bad parts are counted, never a stop.
 */
#include <stdlib.h>

#include "json/json.h"
#include "server/server_json.h"
#include "server_samples.h"
#include "util/alloc.h"

/* A text with the seam's padding after it (freed by the caller). */
static char *padded(const char *text)
{
	size_t n = strlen(text);
	char *p = malloc(n + SSJ_PADDING);

	assert_non_null(p);
	memcpy(p, text, n);
	memset(p + n, ' ', SSJ_PADDING);
	return p;
}

static enum ss_server_shape shape(const char *text)
{
	char *p = padded(text);
	enum ss_server_shape sh = ss_server_json_shape(p, strlen(text));

	free(p);
	return sh;
}

/* Feed one line of the expected shape from directory dir; the snapshots it gave. */
static uint64_t line_in(struct ss_server *s, const char *dir, enum ss_server_shape want,
			const char *text)
{
	char *p = padded(text);
	uint64_t snaps = 99;

	assert_int_equal(ss_server_json_shape(p, strlen(text)), want);
	assert_true(ss_server_json_line(s, want, dir, strlen(dir), "t.jsonl", 1, p, strlen(text),
					&snaps));
	free(p);
	return snaps;
}

#define LINE(s, want, text) line_in((s), "run", (want), (text))

static void test_shapes(void **state)
{
	(void)state;
	assert_int_equal(shape("{\"endpoint_url\":\"http://a/metrics\",\"timestamp_ns\":1,"
			       "\"metrics\":{}}"),
			 SS_SRVJ_AIPERF_LINE);
	/* keys written with escapes are the same keys */
	assert_int_equal(shape("{\"endpoint\\u005furl\":\"u\",\"timestamp_ns\":-5,\"metrics\":{}}"),
			 SS_SRVJ_AIPERF_LINE);
	/* timestamp_ns not an integer, metrics not an object, no endpoint_url string */
	assert_int_equal(shape("{\"endpoint_url\":\"u\",\"timestamp_ns\":1.5,\"metrics\":{}}"),
			 SS_SRVJ_NONE);
	assert_int_equal(shape("{\"endpoint_url\":\"u\",\"timestamp_ns\":1,\"metrics\":[]}"),
			 SS_SRVJ_NONE);
	assert_int_equal(shape("{\"endpoint_url\":7,\"timestamp_ns\":1,\"metrics\":{}}"), SS_SRVJ_NONE);
	assert_int_equal(shape("{\"iter\":3,\"specDecodingStats\":null}"), SS_SRVJ_ITERATIONS);
	assert_int_equal(shape("[{\"iter\":1,\"specDecodingStats\":{}},{\"iter\":2}]"),
			 SS_SRVJ_ITERATIONS);
	assert_int_equal(shape(" [ ] "), SS_SRVJ_ITERATIONS);
	assert_int_equal(shape("[{\"iter\":1}]"), SS_SRVJ_NONE);
	assert_int_equal(shape("[{\"iter\":1,\"specDecodingStats\":{}},3]"), SS_SRVJ_NONE);
	assert_int_equal(shape("[1,2]"), SS_SRVJ_NONE);
	assert_int_equal(shape("{\"internal_states\":[]}"), SS_SRVJ_SERVER_INFO);
	assert_int_equal(shape("{\"internal_states\":{}}"), SS_SRVJ_NONE);
	assert_int_equal(shape("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\","
			       "\"result\":[]}}"),
			 SS_SRVJ_PROM_API);
	assert_int_equal(shape("{\"data\":{\"result\":[],\"resultType\":\"vector\"},"
			       "\"status\":\"success\"}"),
			 SS_SRVJ_PROM_API);
	/* other result types and failed queries are no server line */
	assert_int_equal(shape("{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\","
			       "\"result\":[1,\"2\"]}}"),
			 SS_SRVJ_NONE);
	assert_int_equal(shape("{\"status\":\"error\",\"data\":{\"resultType\":\"matrix\"}}"),
			 SS_SRVJ_NONE);
	/* the last of a repeated key counts */
	assert_int_equal(shape("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\"},"
			       "\"status\":\"error\"}"),
			 SS_SRVJ_NONE);
	assert_int_equal(shape("{\"responses\":[],\"metadata\":{}}"), SS_SRVJ_NONE);
	assert_int_equal(shape("{\"endpoint_url\":\"u\",\"timestamp_ns\":1,\"metrics\":{"), SS_SRVJ_NONE);
	assert_int_equal(shape("not json"), SS_SRVJ_NONE);
	assert_true(ss_server_json_is_document_name("a/b/server_metrics_export.json", 30));
	assert_true(ss_server_json_is_document_name("x.tar:run/server_metrics_export.json", 36));
	assert_false(ss_server_json_is_document_name("server_metrics_export.jsonl", 27));
	assert_false(ss_server_json_is_document_name("erver_metrics_export.json", 25));
}

/* SPEC 10.6's first vector, as two AIPerf lines of one endpoint (names without _total). */
static const char *const AIP_BEFORE =
	"{\"endpoint_url\":\"http://h:8000/metrics\",\"timestamp_ns\":1000,\"endpoint_latency_ns\":5,"
	"\"metrics\":{\"vllm:num_requests_running\":[{\"value\":3.0}],"
	"\"vllm:spec_decode_num_drafts\":[{\"labels\":{\"engine\":\"0\"},\"value\":10.0}],"
	"\"vllm:spec_decode_num_draft_tokens\":[{\"labels\":{\"engine\":\"0\"},\"value\":20.0}],"
	"\"vllm:spec_decode_num_accepted_tokens\":[{\"labels\":{\"engine\":\"0\"},\"value\":10.0}],"
	"\"vllm:spec_decode_num_accepted_tokens_per_pos\":["
	"{\"labels\":{\"engine\":\"0\",\"position\":\"0\"},\"value\":8.0},"
	"{\"labels\":{\"engine\":\"0\",\"position\":\"1\"},\"value\":2.0},"
	"{\"labels\":{\"engine\":\"0\",\"position\":\"2\"},\"value\":0.0}],"
	"\"vllm:spec_decode_num_draft_tokens_per_pos\":["
	"{\"labels\":{\"engine\":\"0\",\"position\":\"0\"},\"value\":10.0},"
	"{\"labels\":{\"engine\":\"0\",\"position\":\"1\"},\"value\":5.0},"
	"{\"labels\":{\"engine\":\"0\",\"position\":\"2\"},\"value\":0.0}],"
	"\"vllm:time_to_first_token_seconds\":[{\"histogram\":{\"0.1\":1.0},\"sum\":0.5,\"count\":1.0}]}}";
static const char *const AIP_AFTER =
	"{\"endpoint_url\":\"http://h:8000/metrics\",\"timestamp_ns\":2000,"
	"\"metrics\":{\"vllm:spec_decode_num_drafts\":[{\"labels\":{\"engine\":\"0\"},\"value\":14.0}],"
	"\"vllm:spec_decode_num_draft_tokens\":[{\"labels\":{\"engine\":\"0\"},\"value\":26.0}],"
	"\"vllm:spec_decode_num_accepted_tokens\":[{\"labels\":{\"engine\":\"0\"},\"value\":13.0}],"
	"\"vllm:spec_decode_num_accepted_tokens_per_pos\":["
	"{\"labels\":{\"engine\":\"0\",\"position\":\"0\"},\"value\":10.0},"
	"{\"labels\":{\"engine\":\"0\",\"position\":\"1\"},\"value\":3.0},"
	"{\"labels\":{\"engine\":\"0\",\"position\":\"2\"},\"value\":0.0}],"
	"\"vllm:spec_decode_num_draft_tokens_per_pos\":["
	"{\"labels\":{\"engine\":\"0\",\"position\":\"0\"},\"value\":14.0},"
	"{\"labels\":{\"engine\":\"0\",\"position\":\"1\"},\"value\":7.0},"
	"{\"labels\":{\"engine\":\"0\",\"position\":\"2\"},\"value\":0.0}]}}";

static void test_aiperf_one_endpoint(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	assert_int_equal(LINE(s, SS_SRVJ_AIPERF_LINE, AIP_BEFORE), 1);
	assert_int_equal(LINE(s, SS_SRVJ_AIPERF_LINE, AIP_AFTER), 1);
	f = finish(s, &r, 1);
	assert_string_equal(f->row->counters, "prometheus");
	assert_int_equal(f->snapshots, 2);
	assert_int_equal(f->series, 1); /* engine="0" */
	assert_false(f->since_start);
	/* Δ 14-10, 26-20, 13-10 */
	assert_u128(f->steps, 4);
	assert_u128(f->draft_tokens, 6);
	assert_i128(f->accepted_tokens, 3);
	assert_double_is(f->acceptance_length, 1.75);      /* 1 + 3/4 */
	assert_double_is(f->draft_acceptance_rate, 50.0);  /* 3/6 x 100 */
	assert_int_equal(f->npositions, 3);
	assert_u128(f->positions[0].accepted, 2);
	assert_u128(f->positions[1].accepted, 1);
	assert_u128(f->positions[2].accepted, 0);
	assert_u128(f->positions[0].drafted, 4);
	assert_u128(f->positions[1].drafted, 2);
	assert_true(f->consistent);
	assert_null(f->histogram); /* drafting varied */
	/* the window: the two lines' timestamp_ns */
	assert_true(f->has_start && f->has_end);
	assert_int_equal(f->start_ns, 1000);
	assert_int_equal(f->end_ns, 2000);
	assert_int_equal(r.endpoints, 1);
	assert_int_equal(r.snapshots, 2);
	assert_int_equal(r.bad_lines, 0);
	ss_server_results_release(&r);
	ss_server_free(s);
}

static const char *aip(char *buf, size_t n, const char *url, long ts, long drafts, long dtok,
		       long acc)
{
	snprintf(buf, n,
		 "{\"endpoint_url\":\"%s\",\"timestamp_ns\":%ld,\"metrics\":{"
		 "\"vllm:spec_decode_num_drafts\":[{\"value\":%ld.0}],"
		 "\"vllm:spec_decode_num_draft_tokens\":[{\"value\":%ld}],"
		 "\"vllm:spec_decode_num_accepted_tokens\":[{\"labels\":null,\"value\":%ld.0}]}}",
		 url, ts, drafts, dtok, acc);
	return buf;
}

/* The full record's form of a family (AIPerf's MetricFamily: type, description, samples). */
static void test_aiperf_family_objects(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	LINE(s, SS_SRVJ_AIPERF_LINE,
	     "{\"endpoint_url\":\"u\",\"timestamp_ns\":1,\"metrics\":{"
	     "\"llamacpp:spec_decode_num_drafts\":{\"type\":\"counter\",\"description\":\"d\","
	     "\"samples\":[{\"labels\":{\"slot\":\"0\"},\"value\":1261.0}]},"
	     "\"llamacpp:spec_decode_num_accepted_tokens\":{\"samples\":[{\"value\":1}],"
	     "\"samples\":[{\"value\":1787.0}]},"
	     "\"llamacpp:spec_decode_num_draft_tokens\":[{\"value\":5017}]}}");
	LINE(s, SS_SRVJ_AIPERF_LINE,
	     "{\"endpoint_url\":\"u\",\"timestamp_ns\":2,\"metrics\":{"
	     "\"llamacpp:spec_decode_num_drafts\":{\"samples\":[{\"labels\":{\"slot\":\"0\"},"
	     "\"value\":1286.0}]},"
	     "\"llamacpp:spec_decode_num_accepted_tokens\":{\"type\":\"counter\",\"samples\":"
	     "[{\"value\":1857.0}]},"
	     "\"llamacpp:spec_decode_num_draft_tokens\":{\"samples\":{}}}}");
	/* SPEC 10.6's llama.cpp vector: Δ 25 drafts, 70 accepted; the draft tokens' second list is bad */
	f = finish(s, &r, 1);
	assert_u128(f->steps, 25);
	assert_i128(f->accepted_tokens, 70);
	assert_double_is(f->acceptance_length, 3.8);
	assert_int_equal(r.bad_lines, 1);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* Two endpoints, their windows summed; the same URL in another directory is another endpoint. */
static void test_aiperf_two_endpoints(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;
	char b[512];

	(void)state;
	/* A: 100 -> 110 drafts, 300 -> 330 draft tokens, 30 -> 45 accepted */
	LINE(s, SS_SRVJ_AIPERF_LINE, aip(b, sizeof(b), "http://a/metrics", 10, 100, 300, 30));
	/* B, interleaved: 50 -> 70, 150 -> 210, 10 -> 30 */
	LINE(s, SS_SRVJ_AIPERF_LINE, aip(b, sizeof(b), "http://b/metrics", 11, 50, 150, 10));
	LINE(s, SS_SRVJ_AIPERF_LINE, aip(b, sizeof(b), "http://a/metrics", 20, 110, 330, 45));
	LINE(s, SS_SRVJ_AIPERF_LINE, aip(b, sizeof(b), "http://b/metrics", 21, 70, 210, 30));
	/* A's URL in another artifact directory: one snapshot alone, no difference */
	line_in(s, "other", SS_SRVJ_AIPERF_LINE, aip(b, sizeof(b), "http://a/metrics", 5, 1, 1, 1));
	assert_true(ss_server_finish(s, NULL, false, 0.0, &r));
	assert_int_equal(r.nfamilies, 1);
	f = &r.families[0];
	assert_int_equal(r.endpoints, 3);
	assert_int_equal(f->snapshots, 5);
	/*
	 * 10 + 20 steps; the lone snapshot is a baseline with nothing after
	 * it (SPEC 10.3, Starts: its process is not known to have started in
	 * the window), so it adds nothing
	 */
	assert_u128(f->steps, 30);
	assert_u128(f->draft_tokens, 90);
	assert_i128(f->accepted_tokens, 35);
	assert_false(f->since_start);
	assert_int_equal(f->processes, 3);
	/* the window over the endpoints with two or more snapshots: 10 .. 21 */
	assert_int_equal(f->start_ns, 10);
	assert_int_equal(f->end_ns, 21);
	ss_server_results_release(&r);
	ss_server_free(s);

	/* the two endpoints alone: ΔS 30, ΔD 90, ΔA 35 */
	s = new_server();
	LINE(s, SS_SRVJ_AIPERF_LINE, aip(b, sizeof(b), "http://a/metrics", 10, 100, 300, 30));
	LINE(s, SS_SRVJ_AIPERF_LINE, aip(b, sizeof(b), "http://b/metrics", 11, 50, 150, 10));
	LINE(s, SS_SRVJ_AIPERF_LINE, aip(b, sizeof(b), "http://a/metrics", 20, 110, 330, 45));
	LINE(s, SS_SRVJ_AIPERF_LINE, aip(b, sizeof(b), "http://b/metrics", 21, 70, 210, 30));
	f = finish(s, &r, 1);
	assert_u128(f->steps, 30);
	assert_u128(f->draft_tokens, 90);
	assert_i128(f->accepted_tokens, 35);
	assert_false(f->since_start);
	assert_double_is(f->acceptance_length, 2.166666666666667);     /* 1 + 35/30 */
	assert_double_is(f->draft_acceptance_rate, 38.88888888888889); /* 35/90 x 100 */
	assert_int_equal(r.endpoints, 2);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* SPEC 10.6's reset vector over four lines: 100, 150, 20, 60 -> 50 + 20 + 40. */
static void test_aiperf_reset(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;
	const long v[] = {100, 150, 20, 60};
	char b[512];

	(void)state;
	for (int i = 0; i < 4; i++)
		LINE(s, SS_SRVJ_AIPERF_LINE,
		     aip(b, sizeof(b), "http://a/metrics", 1000 * (i + 1), v[i], 2 * v[i], v[i] / 2));
	f = finish(s, &r, 1);
	assert_u128(f->steps, 110);
	assert_u128(f->draft_tokens, 220); /* 100 + 40 + 80 */
	assert_i128(f->accepted_tokens, 55); /* 25 + 10 + 20 */
	assert_int_equal(f->resets, 1);
	/* four snapshots: three intervals, the second the restart's */
	assert_int_equal(f->nintervals, 3);
	assert_u128(f->intervals[0].steps, 50);
	assert_u128(f->intervals[1].steps, 20);
	assert_u128(f->intervals[2].steps, 40);
	assert_int_equal(f->intervals[1].start_ns, 2000);
	assert_int_equal(f->intervals[1].end_ns, 3000);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* AIPerf's document: one increment per endpoint, each counter series' stats.total. */
static const char *const DOC =
	"{\"schema_version\":\"1.0\",\"summary\":{\"endpoints_successful\":[\"http://a/metrics\","
	"\"http://b/metrics\"]},\"metrics\":{"
	"\"vllm:kv_cache_usage_perc\":{\"type\":\"gauge\",\"series\":[{\"endpoint_url\":"
	"\"http://a/metrics\",\"stats\":{\"avg\":0.5}}]},"
	"\"vllm:spec_decode_num_drafts\":{\"type\":\"counter\",\"series\":["
	"{\"endpoint_url\":\"http://a/metrics\",\"labels\":{\"engine\":\"0\"},"
	"\"stats\":{\"total\":40.0,\"rate\":2.0}},"
	"{\"endpoint_url\":\"http://b/metrics\",\"labels\":{\"engine\":\"0\"},"
	"\"stats\":{\"total\":10.0,\"rate\":0.5}}]},"
	"\"vllm:spec_decode_num_draft_tokens\":{\"type\":\"counter\",\"series\":["
	"{\"endpoint_url\":\"http://b/metrics\",\"labels\":{\"engine\":\"0\"},\"stats\":{\"total\":30.0}},"
	"{\"endpoint_url\":\"http://a/metrics\",\"labels\":{\"engine\":\"0\"},\"stats\":{\"total\":120.0}}]},"
	"\"vllm:spec_decode_num_accepted_tokens\":{\"type\":\"counter\",\"series\":["
	"{\"endpoint_url\":\"http://a/metrics\",\"labels\":{\"engine\":\"0\"},\"stats\":{\"total\":50}},"
	"{\"endpoint_url\":\"http://b/metrics\",\"labels\":{\"engine\":\"0\"},\"stats\":{\"total\":12}}]},"
	"\"vllm:e2e_request_latency_seconds\":{\"type\":\"histogram\",\"series\":[{\"endpoint_url\":"
	"\"http://a/metrics\",\"stats\":{\"count\":19,\"sum\":2.5}}]}},"
	"\"input_config\":{}}";

static void test_aiperf_document(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;
	char *p = padded(DOC);
	uint64_t snaps = 0;

	(void)state;
	assert_true(ss_server_json_document(s, "run", 3, "run/server_metrics_export.json", p,
					    strlen(DOC), &snaps));
	free(p);
	assert_int_equal(snaps, 2); /* endpoints a and b */
	f = finish(s, &r, 1);
	assert_int_equal(r.endpoints, 2);
	assert_int_equal(f->snapshots, 2);
	/* increments summed as they are: 40 + 10, 120 + 30, 50 + 12 */
	assert_u128(f->steps, 50);
	assert_u128(f->draft_tokens, 150);
	assert_i128(f->accepted_tokens, 62);
	assert_double_is(f->acceptance_length, 2.24);                   /* 1 + 62/50 */
	assert_double_is(f->draft_acceptance_rate, 41.333333333333336); /* 62/150 x 100 */
	assert_false(f->since_start);
	assert_false(f->has_start); /* increments have no times */
	assert_int_equal(r.bad_lines, 0);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* TensorRT-LLM's iterations: an array line (one iteration without statistics) and an object line. */
static void test_iterations(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	assert_int_equal(
		LINE(s, SS_SRVJ_ITERATIONS,
		     "[{\"iter\":1,\"iterLatencyMS\":12.5,\"specDecodingStats\":{\"numDraftTokens\":6,"
		     "\"numAcceptedTokens\":4,\"numRequestsWithDraftTokens\":2,\"acceptanceLength\":3.0,"
		     "\"iterLatencyMS\":1.5,\"draftOverhead\":0.1}},"
		     "{\"iter\":2,\"specDecodingStats\":null},"
		     "{\"iter\":3,\"specDecodingStats\":{\"numDraftTokens\":9,\"numAcceptedTokens\":3,"
		     "\"numRequestsWithDraftTokens\":3}}]"),
		2);
	assert_int_equal(LINE(s, SS_SRVJ_ITERATIONS,
			      "{\"iter\":4,\"specDecodingStats\":{\"numDraftTokens\":1,"
			      "\"numAcceptedTokens\":1,\"numRequestsWithDraftTokens\":1}}"),
			 1);
	assert_int_equal(LINE(s, SS_SRVJ_ITERATIONS, "[]"), 0);
	f = finish(s, &r, 1);
	assert_int_equal(f->row->engine, SS_ENGINE_TRTLLM);
	assert_string_equal(f->row->counters, "iterations");
	assert_int_equal(f->snapshots, 3);
	/* S 2 + 3 + 1, D 6 + 9 + 1, A 4 + 3 + 1 */
	assert_u128(f->steps, 6);
	assert_u128(f->draft_tokens, 16);
	assert_i128(f->accepted_tokens, 8);
	assert_double_is(f->acceptance_length, 2.333333333333333); /* 1 + 8/6 */
	assert_double_is(f->draft_acceptance_rate, 50.0);          /* 8/16 x 100 */
	assert_int_equal(r.bad_lines, 0);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* SGLang's server info: A = Σ accept - S; a state of another tensor-parallel rank left out. */
static void test_server_info(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	assert_int_equal(
		LINE(s, SS_SRVJ_SERVER_INFO,
		     "{\"version\":\"0.5\",\"internal_states\":["
		     "{\"avg_spec_accept_length\":3.0,\"spec_cumulative_num_forward_ct\":10,"
		     "\"spec_cumulative_num_accept_tokens\":30,\"spec_counter_dp_rank\":0},"
		     "{\"spec_cumulative_num_forward_ct\":20,\"spec_cumulative_num_accept_tokens\":50},"
		     "{\"tp_rank\":1,\"spec_cumulative_num_forward_ct\":1000,"
		     "\"spec_cumulative_num_accept_tokens\":5000}]}"),
		1);
	LINE(s, SS_SRVJ_SERVER_INFO,
	     "{\"internal_states\":["
	     "{\"spec_cumulative_num_forward_ct\":15,\"spec_cumulative_num_accept_tokens\":45},"
	     "{\"spec_cumulative_num_forward_ct\":30,\"spec_cumulative_num_accept_tokens\":80},"
	     "{\"tp_rank\":1,\"spec_cumulative_num_forward_ct\":2000,"
	     "\"spec_cumulative_num_accept_tokens\":9000}]}");
	f = finish(s, &r, 1);
	assert_int_equal(f->row->engine, SS_ENGINE_SGLANG);
	assert_string_equal(f->row->counters, "server_info");
	assert_int_equal(f->series, 2); /* the two states of rank 0 */
	/* ΔS 5 + 10 = 15; Σ accept 15 + 30 = 45; A = 45 - 15 = 30 */
	assert_u128(f->steps, 15);
	assert_i128(f->accepted_tokens, 30);
	assert_double_is(f->acceptance_length, 3.0); /* 1 + 30/15 */
	assert_false(f->has_draft_tokens);
	assert_false(f->has_rate);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* A query_range matrix: series B listed first, with no sample at t = 100.5. */
static void test_prom_matrix(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	assert_int_equal(
		LINE(s, SS_SRVJ_PROM_API,
		     "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":["
		     "{\"metric\":{\"__name__\":\"vllm:spec_decode_num_drafts_total\",\"engine\":\"1\"},"
		     "\"values\":[[100,\"5\"],[102,\"9\"]]},"
		     "{\"metric\":{\"__name__\":\"vllm:spec_decode_num_accepted_tokens_total\",\"engine\":\"1\"},"
		     "\"values\":[[100,\"1\"],[102,\"2\"]]},"
		     "{\"metric\":{\"engine\":\"0\",\"__name__\":\"vllm:spec_decode_num_drafts_total\"},"
		     "\"values\":[[100,\"10\"],[100.5,\"12\"],[102,\"15\"]]},"
		     "{\"metric\":{\"__name__\":\"vllm:spec_decode_num_accepted_tokens_total\",\"engine\":\"0\"},"
		     "\"values\":[[100,\"4\"],[100.5,\"6\"],[102,\"7\"]]},"
		     "{\"metric\":{\"__name__\":\"vllm:spec_decode_num_draft_tokens_total\",\"engine\":\"0\"},"
		     "\"values\":[[100,\"0\"]]},"
		     "{\"metric\":{\"__name__\":\"up\",\"job\":\"vllm\"},\"values\":[[99,\"1\"]]}]}}"),
		3); /* times 100, 100.5, 102 (up is no family's) */
	f = finish(s, &r, 1);
	assert_int_equal(f->snapshots, 3);
	assert_int_equal(f->series, 2);
	assert_int_equal(f->resets, 0);
	/* each series over its own samples: drafts 15-10 + 9-5, accepted 7-4 + 2-1 */
	assert_u128(f->steps, 9);
	assert_i128(f->accepted_tokens, 4);
	assert_double_is(f->acceptance_length, 1.4444444444444444); /* 1 + 4/9 */
	assert_int_equal(f->start_ns, 100000000000LL);
	assert_int_equal(f->end_ns, 102000000000LL);
	/* intervals: 100 -> 100.5 (engine 0 only: 2 steps, 2 accepted), 100.5 -> 102 (3 + 4, 1 + 1) */
	assert_int_equal(f->nintervals, 2);
	assert_int_equal(f->intervals[0].end_ns, 100500000000LL);
	assert_u128(f->intervals[0].steps, 2);
	assert_i128(f->intervals[0].accepted_tokens, 2);
	assert_u128(f->intervals[1].steps, 7);
	assert_i128(f->intervals[1].accepted_tokens, 2);
	assert_int_equal(r.bad_lines, 0);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* A query vector: one snapshot, the counters since the server started. */
static void test_prom_vector(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	assert_int_equal(
		LINE(s, SS_SRVJ_PROM_API,
		     "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
		     "{\"metric\":{\"__name__\":\"llamacpp:spec_decode_num_drafts\"},\"value\":[1700000000.25,\"25\"]},"
		     "{\"metric\":{\"__name__\":\"llamacpp:spec_decode_num_draft_tokens\"},\"value\":[1700000000.25,\"98\"]},"
		     "{\"metric\":{\"__name__\":\"llamacpp:spec_decode_num_accepted_tokens\"},\"value\":[1700000000.25,\"70\"]}]}}"),
		1);
	f = finish(s, &r, 1);
	assert_int_equal(f->row->engine, SS_ENGINE_LLAMACPP);
	assert_true(f->since_start);
	/* SPEC 10.6's llama.cpp differences, as counts since start: 3.8, 71.43% */
	assert_u128(f->steps, 25);
	assert_u128(f->draft_tokens, 98);
	assert_i128(f->accepted_tokens, 70);
	assert_double_is(f->acceptance_length, 3.8);
	assert_double_is(f->draft_acceptance_rate, 71.42857142857143);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/*
 * An API answer and a page of text: the API results are a process of
 * their own (SPEC 13), apart from the pages' unnamed one, each with one
 * snapshot: the counters since the servers started, 10 + 15.
 */
static void test_prom_and_text(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	snap_at(s, 0, SS_SRC_PROMETHEUS, 0, true, 1000000000, "vllm:spec_decode_num_drafts_total 10",
		NULL);
	LINE(s, SS_SRVJ_PROM_API,
	     "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
	     "{\"metric\":{\"__name__\":\"vllm:spec_decode_num_drafts_total\"},\"value\":[3,\"15\"]}]}}");
	f = finish(s, &r, 1);
	assert_int_equal(r.endpoints, 2);
	assert_int_equal(f->processes, 2);
	assert_true(f->since_start);
	assert_u128(f->steps, 25);
	assert_false(f->has_start || f->has_end); /* no process with two snapshots */
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* Bad parts: counted bad samples, the good ones kept, never a stop. */
static void test_bad_values(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	/* 6 bad: -1, 1.5, a string, null, no value, a label that is no string; the gauge's null is none */
	LINE(s, SS_SRVJ_AIPERF_LINE,
	     "{\"endpoint_url\":\"u\",\"timestamp_ns\":1,\"metrics\":{"
	     "\"vllm:spec_decode_num_drafts\":[{\"labels\":{\"e\":\"0\"},\"value\":-1},"
	     "{\"labels\":{\"e\":\"1\"},\"value\":1.5},{\"labels\":{\"e\":\"2\"},\"value\":\"12\"},"
	     "{\"labels\":{\"e\":\"3\"},\"value\":null},{\"labels\":{\"e\":\"4\"}},"
	     "{\"labels\":{\"e\":5},\"value\":3},{\"labels\":{\"e\":\"6\"},\"value\":7}],"
	     "\"trtllm_spec_decode_acceptance_length\":[{\"value\":null}],"
	     "\"vllm:other_counter\":[{\"value\":-5}]}}");
	/* the series e=6: 7 -> 10 */
	LINE(s, SS_SRVJ_AIPERF_LINE,
	     "{\"endpoint_url\":\"u\",\"timestamp_ns\":2,\"metrics\":{"
	     "\"vllm:spec_decode_num_drafts\":[{\"labels\":{\"e\":\"6\"},\"value\":10}]}}");
	/* 3 bad in API results: a value that is no number, NaN, a time that is no number */
	LINE(s, SS_SRVJ_PROM_API,
	     "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":["
	     "{\"metric\":{\"__name__\":\"llamacpp:spec_decode_num_drafts\"},"
	     "\"values\":[[1,\"abc\"],[2,\"NaN\"],[\"3\",\"4\"],[4,\"6\"],[5,\"8\"]]},"
	     "{\"metric\":{\"__name__\":\"up\"},\"values\":[[1,\"x\"]]}]}}");
	assert_true(ss_server_finish(s, NULL, false, 0.0, &r));
	assert_int_equal(r.bad_lines, 9);
	assert_int_equal(r.nfamilies, 2);
	f = &r.families[0]; /* vllm */
	assert_u128(f->steps, 3);
	f = &r.families[1]; /* llama.cpp: 6 -> 8 */
	assert_int_equal(f->row->engine, SS_ENGINE_LLAMACPP);
	assert_u128(f->steps, 2);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* SPEC 1.2: of a repeated key the last counts, at every level read. */
static void test_repeated_keys(void **state)
{
	struct ss_server *s = new_server();
	struct ss_server_results r;
	const struct ss_server_family *f;
	const char *doc = "{\"metrics\":{\"vllm:spec_decode_num_accepted_tokens\":{\"series\":"
			  "[{\"stats\":{\"total\":100}}],\"series\":[{\"stats\":{\"total\":1,"
			  "\"total\":3}}]}}}";
	char *p;
	uint64_t snaps;

	(void)state;
	LINE(s, SS_SRVJ_AIPERF_LINE,
	     "{\"endpoint_url\":\"u\",\"timestamp_ns\":1,\"metrics\":{"
	     "\"vllm:spec_decode_num_drafts\":[{\"value\":1000}],"
	     "\"vllm:spec_decode_num_drafts\":[{\"value\":5,\"value\":10}]}}");
	LINE(s, SS_SRVJ_AIPERF_LINE,
	     "{\"endpoint_url\":\"u\",\"timestamp_ns\":2,\"metrics\":{\"x\":[]},\"metrics\":{"
	     "\"vllm:spec_decode_num_drafts\":[{\"labels\":{\"a\":\"1\"},\"labels\":{},\"value\":14}]}}");
	/* the document: the last series list of a family, the last stats.total */
	p = padded(doc);
	assert_true(ss_server_json_document(s, "", 0, "d.json", p, strlen(doc), &snaps));
	assert_int_equal(snaps, 1);
	free(p);
	f = finish(s, &r, 1);
	assert_u128(f->steps, 4);            /* 14 - 10 */
	assert_i128(f->accepted_tokens, 3);  /* the document's increment */
	assert_int_equal(r.bad_lines, 0);
	ss_server_results_release(&r);
	ss_server_free(s);
}

/* Messages name the place, the line and the family (by its table name). */
static void test_messages(void **state)
{
	struct ss_msg msg;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	struct ss_server *s;
	struct ss_server_results r;
	char *p;
	const char *l = "{\"iter\":1,\"specDecodingStats\":{\"numDraftTokens\":-2}}";

	(void)state;
	assert_non_null(out);
	ss_msg_init(&msg, out, SS_NORMAL);
	s = ss_server_new(&msg);
	assert_non_null(s);
	p = padded(l);
	assert_true(ss_server_json_line(s, SS_SRVJ_ITERATIONS, "", 0, "it.jsonl", 7, p, strlen(l),
					NULL));
	free(p);
	assert_true(ss_server_finish(s, NULL, false, 0.0, &r));
	assert_int_equal(r.bad_lines, 1);
	ss_server_results_release(&r);
	ss_server_free(s);
	fclose(out);
	assert_non_null(strstr(text, "specscan: it.jsonl:7: bad sample of numDraftTokens: "));
	free(text);
}

/* Every allocation failing in turn, from the n-th on: false or a result, never a crash or a leak. */
static void test_out_of_memory(void **state)
{
	const char *lines[] = {
		AIP_BEFORE, AIP_AFTER,
		"[{\"iter\":1,\"specDecodingStats\":{\"numDraftTokens\":6,\"numAcceptedTokens\":4,"
		"\"numRequestsWithDraftTokens\":2}},{\"iter\":2,\"specDecodingStats\":{\"numDraftTokens\":1}}]",
		"{\"internal_states\":[{\"spec_cumulative_num_forward_ct\":10,"
		"\"spec_cumulative_num_accept_tokens\":30,\"tp_rank\":\"0\"}]}",
		"{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":["
		"{\"metric\":{\"__name__\":\"vllm:spec_decode_num_drafts_total\",\"engine\":\"1\"},"
		"\"values\":[[100,\"5\"],[102,\"9\"],[103,\"x\"]]}]}}",
	};
	enum ss_server_shape shapes[] = {SS_SRVJ_AIPERF_LINE, SS_SRVJ_AIPERF_LINE,
					   SS_SRVJ_ITERATIONS, SS_SRVJ_SERVER_INFO, SS_SRVJ_PROM_API};

	(void)state;
	for (uint64_t n = 1; n < 300; n++) {
		struct ss_server *s;
		struct ss_server_results r;
		bool ok = true;

		ss_alloc_fail_at(n, 1);
		s = ss_server_new(NULL);
		if (s) {
			for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]) && ok; i++) {
				char *p = malloc(strlen(lines[i]) + SSJ_PADDING);

				assert_non_null(p);
				memcpy(p, lines[i], strlen(lines[i]));
				memset(p + strlen(lines[i]), ' ', SSJ_PADDING);
				ok = ss_server_json_line(s, shapes[i], "d", 1, "oom", i + 1, p,
							 strlen(lines[i]), NULL);
				free(p);
			}
			if (ok) {
				char *p = malloc(strlen(DOC) + SSJ_PADDING);

				assert_non_null(p);
				memcpy(p, DOC, strlen(DOC));
				memset(p + strlen(DOC), ' ', SSJ_PADDING);
				(void)ss_server_json_document(s, "d", 1, "oom", p, strlen(DOC), NULL);
				free(p);
			}
			if (ss_server_finish(s, NULL, false, 0.0, &r))
				ss_server_results_release(&r);
			ss_server_free(s);
		}
		ss_alloc_fail_at(0, 0);
	}
}

/* The shape read from a caller's parser the line is open on: the same as a parse of its own. */
static void test_shape_open(void **state)
{
	static const struct {
		const char *text;
		enum ss_server_shape want;
	} cases[] = {
		{"{\"endpoint_url\":\"u\",\"timestamp_ns\":5,\"metrics\":{}}", SS_SRVJ_AIPERF_LINE},
		{"{\"iter\":3,\"specDecodingStats\":{}}", SS_SRVJ_ITERATIONS},
		{"{\"internal_states\":[]}", SS_SRVJ_SERVER_INFO},
		{"{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}",
		 SS_SRVJ_PROM_API},
		{"{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[]}}",
		 SS_SRVJ_NONE},
		{"{\"internal_st\\u0061tes\":[]}", SS_SRVJ_SERVER_INFO},
		{"{\"responses\":[],\"metadata\":{}}", SS_SRVJ_NONE},
	};
	struct ssj_parser *p = ssj_parser_new();
	enum ss_server_shape sh;
	char *t;

	(void)state;
	assert_non_null(p);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		t = padded(cases[i].text);
		assert_int_equal(ssj_open(p, t, strlen(cases[i].text)), SSJ_OK);
		sh = SS_SRVJ_PROM_API + 1;
		assert_true(ss_server_json_shape_open(p, t, strlen(cases[i].text), &sh));
		assert_int_equal(sh, cases[i].want);
		assert_int_equal(shape(cases[i].text), cases[i].want);
		ssj_close(p);
		free(t);
	}
	/* an array line is not open on a caller's parser: not told so */
	t = padded(" [ ] ");
	assert_false(ss_server_json_shape_open(p, t, 5, &sh));
	free(t);
	/* nor is a line whose open failed */
	t = padded("{\"internal_states\":[]");
	assert_int_equal(ssj_open(p, t, 21), SSJ_ESYNTAX);
	assert_false(ss_server_json_shape_open(p, t, 21, &sh));
	free(t);
	ssj_parser_free(p);
}

/* One parse feeds two states (SPEC 10.7's pooled and directory states): both see every line. */
static void test_line_pair(void **state)
{
	static const char *const lines[] = {
		"[{\"iter\":1,\"specDecodingStats\":{\"numDraftTokens\":6,\"numAcceptedTokens\":4,"
		"\"numRequestsWithDraftTokens\":2}},{\"iter\":2,\"specDecodingStats\":null}]",
		"{\"iter\":4,\"specDecodingStats\":{\"numDraftTokens\":1,\"numAcceptedTokens\":1,"
		"\"numRequestsWithDraftTokens\":1}}",
		"[]",
	};
	static const uint64_t want_snaps[] = {1, 1, 0};
	struct ss_server *s = new_server(), *g = new_server();
	struct ssj_parser *p = ssj_parser_new(); /* the caller's, kept from line to line */
	struct ss_server_results r;
	const struct ss_server_family *f;

	(void)state;
	assert_non_null(p);
	for (size_t i = 0; i < 3; i++) {
		char *t = padded(lines[i]);
		uint64_t snaps = 99;

		assert_true(ss_server_json_line_pair(i == 1 ? NULL : p, s, g, SS_SRVJ_ITERATIONS, "",
						     0, "it.jsonl", i + 1, t, strlen(lines[i]),
						     &snaps));
		assert_int_equal(snaps, want_snaps[i]);
		free(t);
	}
	for (int k = 0; k < 2; k++) {
		f = finish(k ? g : s, &r, 1);
		/* S 2 + 1, D 6 + 1, A 4 + 1 */
		assert_int_equal(f->snapshots, 2);
		assert_u128(f->steps, 3);
		assert_u128(f->draft_tokens, 7);
		assert_i128(f->accepted_tokens, 5);
		ss_server_results_release(&r);
	}
	/* nothing is left open on the caller's parser */
	assert_int_equal(ssj_visit(p, NULL, NULL), SSJ_EINTERNAL);
	ssj_parser_free(p);
	ss_server_free(s);
	ss_server_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_aiperf_one_endpoint),
		cmocka_unit_test(test_aiperf_family_objects),
		cmocka_unit_test(test_aiperf_two_endpoints),
		cmocka_unit_test(test_aiperf_reset),
		cmocka_unit_test(test_aiperf_document),
		cmocka_unit_test(test_iterations),
		cmocka_unit_test(test_server_info),
		cmocka_unit_test(test_prom_matrix),
		cmocka_unit_test(test_prom_vector),
		cmocka_unit_test(test_prom_and_text),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_repeated_keys),
		cmocka_unit_test(test_messages),
		cmocka_unit_test(test_out_of_memory),
		cmocka_unit_test(test_shape_open),
		cmocka_unit_test(test_line_pair),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
