/*
 * Unit tests of a request's timing (SPEC 11.1) and of the per-request
 * values of 11.4's keys. The raw line is SPEC 11.6's vector; the other
 * cases are worked by hand in the comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "model/timing.h"

#define assert_double_is(x, y) assert_true((x) == (y))
#define UNIT(s) (s), strlen(s)

/*
 * SPEC 11.6: start 1000; 1100 role chunk (empty content), 1200 "Paris is
 * the", 1300 more content, 1400 usage (54 completion tokens), 1500 [DONE].
 */
static const struct ss_raw_element vector_elems[] = {
	{true, 1100, false, false, 0}, {true, 1200, true, false, 0}, {true, 1300, true, false, 0},
	{true, 1400, false, true, 54}, {true, 1500, false, false, 0},
};

static void test_raw_vector(void **state)
{
	struct ss_timing t;

	(void)state;
	ss_timing_of_raw(true, 1000, vector_elems, 5, &t);
	assert_true(t.has[SS_T_LATENCY]);
	assert_double_is(t.ms[SS_T_LATENCY], 0.0005);   /* 500 ns */
	assert_true(t.has[SS_T_TTFT]);
	assert_double_is(t.ms[SS_T_TTFT], 0.0002);      /* 200 ns */
	assert_true(t.has_output);
	assert_int_equal(t.output_tokens, 54);
	assert_true(t.has[SS_T_ITL]);
	/* (0.0005 - 0.0002) / 53, the times in ms first */
	assert_double_is(t.ms[SS_T_ITL], 5.660377358490566e-06);
	assert_true(ss_timing_any(&t));
	assert_string_equal(ss_time_tags[SS_T_TTFT], "time_to_first_token");
	assert_string_equal(ss_time_tags[SS_T_ITL], "inter_token_latency");
	assert_string_equal(ss_time_tags[SS_T_LATENCY], "request_latency");
}

/* The start may come after the elements in the line: the same times. */
static void test_raw_start_last(void **state)
{
	struct ss_raw_timer rt;
	struct ss_timing t;

	(void)state;
	ss_raw_timer_init(&rt);
	for (size_t i = 0; i < 5; i++)
		ss_raw_timer_element(&rt, true, vector_elems[i].perf_ns, vector_elems[i].content,
				     vector_elems[i].has_c, vector_elems[i].c);
	ss_raw_timer_start(&rt, 1000);
	ss_raw_timer_finish(&rt, &t);
	assert_double_is(t.ms[SS_T_LATENCY], 0.0005);
	assert_double_is(t.ms[SS_T_TTFT], 0.0002);
}

static void test_raw_absent(void **state)
{
	struct ss_raw_element e[5];
	struct ss_timing t;

	(void)state;
	/* an element before start_perf_ns: no time at all; c is still known */
	memcpy(e, vector_elems, sizeof(e));
	e[0].perf_ns = 999;
	ss_timing_of_raw(true, 1000, e, 5, &t);
	assert_false(ss_timing_any(&t));
	assert_true(t.has_output);
	assert_int_equal(t.output_tokens, 54);

	/* an element without an integer perf_ns */
	memcpy(e, vector_elems, sizeof(e));
	e[4].has_perf = false;
	ss_timing_of_raw(true, 1000, e, 5, &t);
	assert_false(ss_timing_any(&t));

	/* no start_perf_ns */
	ss_timing_of_raw(false, 0, vector_elems, 5, &t);
	assert_false(ss_timing_any(&t));

	/* no element */
	ss_timing_of_raw(true, 1000, vector_elems, 0, &t);
	assert_false(ss_timing_any(&t));

	/* no content token: latency only */
	memcpy(e, vector_elems, sizeof(e));
	e[1].content = e[2].content = false;
	ss_timing_of_raw(true, 1000, e, 5, &t);
	assert_true(t.has[SS_T_LATENCY]);
	assert_false(t.has[SS_T_TTFT]);
	assert_false(t.has[SS_T_ITL]);

	/* c = 1: no ITL (c - 1 = 0); no usage: no ITL either */
	memcpy(e, vector_elems, sizeof(e));
	e[3].c = 1;
	ss_timing_of_raw(true, 1000, e, 5, &t);
	assert_true(t.has[SS_T_TTFT]);
	assert_false(t.has[SS_T_ITL]);
	e[3].has_c = false;
	ss_timing_of_raw(true, 1000, e, 5, &t);
	assert_false(t.has_output);
	assert_false(t.has[SS_T_ITL]);

	/* c = 2 and an element exactly at the start: TTFT 0, ITL = latency */
	memcpy(e, vector_elems, sizeof(e));
	e[0].perf_ns = 1000;
	e[0].content = true;
	e[3].c = 2;
	ss_timing_of_raw(true, 1000, e, 5, &t);
	assert_double_is(t.ms[SS_T_TTFT], 0.0);
	assert_double_is(t.ms[SS_T_ITL], 0.0005);

	/* a span past int64: no time */
	memcpy(e, vector_elems, sizeof(e));
	for (int i = 0; i < 5; i++)
		e[i].perf_ns = INT64_MAX;
	ss_timing_of_raw(true, INT64_MIN, e, 5, &t);
	assert_false(ss_timing_any(&t));
}

static void test_units(void **state)
{
	double ms = -1.0;

	(void)state;
	assert_true(ss_time_to_ms(1300.0, UNIT("ms"), &ms));
	assert_double_is(ms, 1300.0);
	assert_true(ss_time_to_ms(2.0, UNIT("s"), &ms));
	assert_double_is(ms, 2000.0);
	assert_true(ss_time_to_ms(250.0, UNIT("us"), &ms));
	assert_double_is(ms, 0.25);
	assert_true(ss_time_to_ms(1500000.0, UNIT("ns"), &ms));
	assert_double_is(ms, 1.5);
	assert_true(ss_time_to_ms(-0.0, UNIT("ms"), &ms));
	assert_double_is(ms, 0.0);
	assert_false(signbit(ms));
	/* another unit, a negative or non-finite value: absent */
	ms = 7.0;
	assert_false(ss_time_to_ms(1.0, UNIT("min"), &ms));
	assert_false(ss_time_to_ms(1.0, UNIT("MS"), &ms));
	assert_false(ss_time_to_ms(1.0, UNIT(""), &ms));
	assert_false(ss_time_to_ms(1.0, UNIT("mss"), &ms));
	assert_false(ss_time_to_ms(1.0, "m", 1, &ms));  /* a prefix of "ms" */
	assert_false(ss_time_to_ms(-1.0, UNIT("ms"), &ms));
	assert_false(ss_time_to_ms(NAN, UNIT("ms"), &ms));
	assert_false(ss_time_to_ms(INFINITY, UNIT("ms"), &ms));
	assert_false(ss_time_to_ms(1e308, UNIT("s"), &ms)); /* inf in ms */
	assert_false(ss_time_to_ms(1.0, NULL, 0, &ms));
	assert_double_is(ms, 7.0);
}

static void test_tokens(void **state)
{
	int64_t c = -1;

	(void)state;
	assert_true(ss_tokens_of(54.0, UNIT("tokens"), &c));
	assert_int_equal(c, 54);
	assert_true(ss_tokens_of(0.0, UNIT("tokens"), &c));
	assert_int_equal(c, 0);
	c = 9;
	assert_false(ss_tokens_of(54.5, UNIT("tokens"), &c));
	assert_false(ss_tokens_of(54.0, UNIT("token"), &c));
	assert_false(ss_tokens_of(-1.0, UNIT("tokens"), &c));
	assert_false(ss_tokens_of(9223372036854775808.0, UNIT("tokens"), &c)); /* 2^63 */
	assert_false(ss_tokens_of(NAN, UNIT("tokens"), &c));
	assert_int_equal(c, 9);
}

static void test_itl_derived(void **state)
{
	struct ss_timing t;

	(void)state;
	/* records-line times (1000, 200, c 81): ITL = 800 / 80 = 10 */
	ss_timing_clear(&t);
	t.has[SS_T_LATENCY] = t.has[SS_T_TTFT] = t.has_output = true;
	t.ms[SS_T_LATENCY] = 1000.0;
	t.ms[SS_T_TTFT] = 200.0;
	t.output_tokens = 81;
	ss_timing_derive_itl(&t);
	assert_true(t.has[SS_T_ITL]);
	assert_double_is(t.ms[SS_T_ITL], 10.0);
	/* latency below TTFT: no negative ITL */
	ss_timing_clear(&t);
	t.has[SS_T_LATENCY] = t.has[SS_T_TTFT] = t.has_output = true;
	t.ms[SS_T_LATENCY] = 100.0;
	t.ms[SS_T_TTFT] = 200.0;
	t.output_tokens = 11;
	ss_timing_derive_itl(&t);
	assert_false(t.has[SS_T_ITL]);
}

static void test_reasoning(void **state)
{
	int q = -1;

	(void)state;
	/* SPEC 11.6: t 30, c 100 -> r 0.3 -> 0.5 (2 quarters) */
	assert_true(ss_reasoning_quarters(true, 30, true, 100, &q));
	assert_int_equal(q, 2);
	assert_true(ss_reasoning_quarters(true, 0, true, 100, &q));
	assert_int_equal(q, 0);
	assert_true(ss_reasoning_quarters(true, 100, true, 100, &q));
	assert_int_equal(q, 4);
	/* 25/100 is exactly a quarter; 26/100 goes up to a half; 1/3 -> 0.5 */
	assert_true(ss_reasoning_quarters(true, 25, true, 100, &q));
	assert_int_equal(q, 1);
	assert_true(ss_reasoning_quarters(true, 26, true, 100, &q));
	assert_int_equal(q, 2);
	assert_true(ss_reasoning_quarters(true, 1, true, 3, &q));
	assert_int_equal(q, 2);
	/* 1 of 2^63-1 tokens: above 0, so the first quarter */
	assert_true(ss_reasoning_quarters(true, 1, true, INT64_MAX, &q));
	assert_int_equal(q, 1);
	assert_true(ss_reasoning_quarters(true, INT64_MAX, true, INT64_MAX, &q));
	assert_int_equal(q, 4);
	/* null: t > c, c 0, unknown t or c */
	q = 9;
	assert_false(ss_reasoning_quarters(true, 101, true, 100, &q));
	assert_false(ss_reasoning_quarters(true, 0, true, 0, &q));
	assert_false(ss_reasoning_quarters(false, 0, true, 100, &q));
	assert_false(ss_reasoning_quarters(true, 5, false, 0, &q));
	assert_false(ss_reasoning_quarters(true, -1, true, 100, &q));
	assert_int_equal(q, 9);
}

static void test_concurrency(void **state)
{
	int64_t c = -1;

	(void)state;
	assert_true(ss_concurrency_of(UNIT("4"), &c));
	assert_int_equal(c, 4);
	assert_true(ss_concurrency_of(UNIT("128"), &c));
	assert_int_equal(c, 128);
	assert_true(ss_concurrency_of(UNIT("9223372036854775807"), &c));
	assert_int_equal(c, INT64_MAX);
	c = 7;
	assert_false(ss_concurrency_of(UNIT("0"), &c));
	assert_false(ss_concurrency_of(UNIT("-1"), &c));
	assert_false(ss_concurrency_of(UNIT("4.0"), &c));
	assert_false(ss_concurrency_of(UNIT("1e2"), &c));
	assert_false(ss_concurrency_of(UNIT("04"), &c));
	assert_false(ss_concurrency_of(UNIT("\"4\""), &c));
	assert_false(ss_concurrency_of(UNIT("true"), &c));
	assert_false(ss_concurrency_of(UNIT("9223372036854775808"), &c));
	assert_false(ss_concurrency_of(UNIT(""), &c));
	assert_false(ss_concurrency_of(NULL, 0, &c));
	assert_int_equal(c, 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raw_vector),   cmocka_unit_test(test_raw_start_last),
		cmocka_unit_test(test_raw_absent),   cmocka_unit_test(test_units),
		cmocka_unit_test(test_tokens),       cmocka_unit_test(test_itl_derived),
		cmocka_unit_test(test_reasoning),    cmocka_unit_test(test_concurrency),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
