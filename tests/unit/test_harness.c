/*
 * test_harness.c - Spec-Bench and EAGLE answer lines (SPEC 12.5): SPEC
 * 12.7's two vectors, the shape rules (what is a harness line, what is
 * unrecognized, what is malformed) and the optional fields. Expected values
 * are worked out by hand in the comments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>

/* |x - y| <= eps (0: the same double) */
#define assert_near(x, y, eps) assert_true(fabs((double)(x) - (double)(y)) <= (eps))

#include "logs/harness.h"

static struct ssj_parser *parser;
static char *text;

static enum ss_harness_status read_line(const char *line, struct ss_harness_req *o)
{
	size_t n = strlen(line);

	ssj_close(parser);
	free(text);
	text = calloc(1, n + SSJ_PADDING);
	assert_non_null(text);
	memcpy(text, line, n);
	assert_int_equal(ssj_open(parser, text, n), SSJ_OK);
	return ss_harness_visit(parser, o);
}

static void expect_span(const char *p, size_t n, const char *want)
{
	assert_int_equal(n, strlen(want));
	assert_memory_equal(p, want, n);
}

static void test_spec_bench(void **state)
{
	struct ss_harness_req *o = malloc(sizeof(*o));

	(void)state;
	/* S 7, A 15 - 7 = 8, H = {0: 2, 1: 3, 2: 1, 3: 1}; 10 + 5 tokens;
	 * 1.5 + 0.25 s; the fields in another order than the harness writes */
	assert_int_equal(read_line("{\"choices\": [{\"index\": 0, \"turns\": [\"a\", \"b\"], "
				   "\"decoding_steps\": [4, 3], \"new_tokens\": [10, 5], "
				   "\"wall_time\": [1.5, 0.25], \"accept_lengths\": [3, 1, 4, 2, 2, "
				   "2, 1]}], \"question_id\": 81, \"category\": \"writing\", "
				   "\"answer_id\": \"x\", \"model_id\": "
				   "\"vicuna-7b-v1.3-eagle-float32-temperature-0.0\", \"tstamp\": "
				   "1.7e9}",
				   o),
			 SS_HARNESS_OK);
	assert_int_equal(o->engine, SS_HARNESS_SPEC_BENCH);
	assert_true(o->steps == 7 && o->accepted == 8);
	assert_true(o->has_hist && o->k == 3);
	assert_true(o->hist[0] == 2 && o->hist[1] == 3 && o->hist[2] == 1 && o->hist[3] == 1);
	assert_true(o->has_completion && o->completion_tokens == 15);
	assert_true(o->has_latency);
	assert_near(o->latency_s, 1.75, 0);
	expect_span(o->question_id, o->question_id_len, "81");
	expect_span(o->category, o->category_len, "\"writing\"");
	expect_span(o->model, o->model_len, "vicuna-7b-v1.3-eagle-float32-temperature-0.0");

	/* a baseline: one token per step, A 0, H = {0: 3} */
	assert_int_equal(read_line("{\"question_id\": 1, \"choices\": [{\"turns\": [], "
				   "\"accept_lengths\": [1, 1, 1], \"new_tokens\": [3], "
				   "\"wall_time\": [-1]}]}",
				   o),
			 SS_HARNESS_OK);
	assert_true(o->steps == 3 && o->accepted == 0 && o->k == 0 && o->hist[0] == 3);
	assert_false(o->has_latency); /* a negative time: no latency, the request stays */
	assert_null(o->category);
	free(o);
}

static void test_eagle(void **state)
{
	struct ss_harness_req *o = malloc(sizeof(*o));

	(void)state;
	/* S (41 + 1) + (37 + 1) = 80, A 310 - 80 = 230 */
	assert_int_equal(read_line("{\"question_id\": 81, \"answer_id\": \"x\", \"model_id\": "
				   "\"ess-vicuna-70b-fp16-temperature-0.0\", \"choices\": "
				   "[{\"index\": 0, \"turns\": [\"a\", \"b\"], \"idxs\": [41, 37], "
				   "\"new_tokens\": [160, 150], \"wall_time\": [2.0, 1.0]}], "
				   "\"tstamp\": 1.7e9}",
				   o),
			 SS_HARNESS_OK);
	assert_int_equal(o->engine, SS_HARNESS_EAGLE);
	assert_true(o->steps == 80 && o->accepted == 230);
	assert_false(o->has_hist);
	assert_true(o->has_completion && o->completion_tokens == 310);
	assert_near(o->latency_s, 3.0, 0);
	free(o);
}

static void test_shapes(void **state)
{
	struct ss_harness_req *o = malloc(sizeof(*o));

	(void)state;
	/* not harness lines: no question_id, no turns, choices not an array */
	assert_int_equal(read_line("{\"id\": 1, \"choices\": [{\"turns\": []}]}", o),
			 SS_HARNESS_NOT);
	assert_int_equal(read_line("{\"question_id\": 1, \"choices\": [{\"message\": {}}]}", o),
			 SS_HARNESS_NOT);
	assert_int_equal(read_line("{\"question_id\": 1, \"choices\": {\"turns\": []}}", o),
			 SS_HARNESS_NOT);
	assert_int_equal(read_line("{\"question_id\": 1, \"choices\": [7, {\"turns\": []}]}", o),
			 SS_HARNESS_NOT);
	/* neither shape */
	assert_int_equal(read_line("{\"question_id\": 1, \"choices\": [{\"turns\": [\"a\"], "
				   "\"idxs\": [1]}]}",
				   o),
			 SS_HARNESS_UNRECOGNIZED);
	assert_non_null(o->why);
	free(o);
}

static void expect_malformed(const char *choice, const char *why_part)
{
	struct ss_harness_req *o = malloc(sizeof(*o));
	char line[512];

	snprintf(line, sizeof(line), "{\"question_id\": 5, \"choices\": [{\"turns\": [], %s}]}",
		 choice);
	assert_int_equal(read_line(line, o), SS_HARNESS_MALFORMED);
	if (!strstr(o->why, why_part))
		fail_msg("%s: reason '%s' lacks '%s'", choice, o->why, why_part);
	free(o);
}

static void test_malformed(void **state)
{
	(void)state;
	expect_malformed("\"accept_lengths\": [3, 0, 1]", ">= 1");
	expect_malformed("\"accept_lengths\": [3, 2.5]", ">= 1");
	expect_malformed("\"accept_lengths\": [\"3\"]", ">= 1");
	expect_malformed("\"accept_lengths\": [1234567890123456789]", ">= 1");
	expect_malformed("\"accept_lengths\": [300]", "above 257");
	expect_malformed("\"accept_lengths\": []", "empty");
	expect_malformed("\"accept_lengths\": 3", ">= 1");
	expect_malformed("\"idxs\": [1, 2], \"new_tokens\": [5]", "differ in length");
	/* S = 10 steps, 5 tokens: A would be negative */
	expect_malformed("\"idxs\": [9], \"new_tokens\": [5]", "fewer new tokens");
	expect_malformed("\"idxs\": [-1], \"new_tokens\": [5]", ">= 0");
}

static int setup(void **state)
{
	(void)state;
	parser = ssj_parser_new();
	return parser ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	ssj_parser_free(parser);
	free(text);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec_bench),
		cmocka_unit_test(test_eagle),
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
