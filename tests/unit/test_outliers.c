/*
 * Unit tests of SPEC 7.11's outliers (metrics/outliers.c, and the counts
 * through the aggregate): ties in input order in both lists, the bound of
 * N entries, the names copied, all_rejected, all_accepted with k unknown.
 * Expected lists worked out by hand, or by sorting every value (the
 * bounded heaps must agree with a full sort).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fixtures_records.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/aggregate.h"
#include "metrics/outliers.h"

static void offer(struct ss_outliers *s, double al, uint64_t line)
{
	struct ss_outlier_in x;

	memset(&x, 0, sizeof(x));
	x.al = al;
	x.line = line;
	x.steps = 1;
	x.accepted = 1;
	x.input = "in.jsonl";
	assert_true(ss_outliers_add(s, &x));
}

/* The lines of a list, in order. */
static void expect_lines(const struct ss_outlier *v, size_t n, const uint64_t *lines, size_t m)
{
	assert_int_equal(n, m);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(v[i].line, lines[i]);
}

static void test_ties(void **state)
{
	/* lines 1..7 with acceptance lengths 2, 1, 3, 1, 3, 2, 1 */
	static const double al[] = {2.0, 1.0, 3.0, 1.0, 3.0, 2.0, 1.0};
	static const uint64_t low2[] = {2, 4}, high2[] = {3, 5};
	static const uint64_t low3[] = {2, 4, 7}, high3[] = {3, 5, 1};
	static const uint64_t low5[] = {2, 4, 7, 1, 6}, high5[] = {3, 5, 1, 6, 2};
	struct ss_outliers s;

	(void)state;
	for (size_t n = 2; n <= 5; n++) {
		if (n == 4)
			continue;
		ss_outliers_init(&s);
		assert_true(ss_outliers_keep(&s, n));
		for (size_t i = 0; i < 7; i++)
			offer(&s, al[i], i + 1);
		ss_outliers_finish(&s);
		if (n == 2) {
			expect_lines(s.low, s.nlow, low2, 2);
			expect_lines(s.high, s.nhigh, high2, 2);
		} else if (n == 3) {
			expect_lines(s.low, s.nlow, low3, 3);
			expect_lines(s.high, s.nhigh, high3, 3);
		} else {
			expect_lines(s.low, s.nlow, low5, 5);
			expect_lines(s.high, s.nhigh, high5, 5);
		}
		assert_string_equal(s.low[0].input, "in.jsonl");
		ss_outliers_release(&s);
	}
	/* more lists than records: every record, sorted */
	ss_outliers_init(&s);
	assert_true(ss_outliers_keep(&s, 1000));
	offer(&s, 2.5, 1);
	offer(&s, 1.5, 2);
	ss_outliers_finish(&s);
	assert_int_equal(s.nlow, 2);
	assert_int_equal(s.low[0].line, 2);
	assert_int_equal(s.high[0].line, 1);
	/* records after a finish still go in (the lists become heaps again) */
	offer(&s, 0.5, 3);
	ss_outliers_finish(&s);
	assert_int_equal(s.nlow, 3);
	assert_int_equal(s.low[0].line, 3);
	assert_int_equal(s.high[2].line, 3);
	ss_outliers_release(&s);
}

struct ref {
	double al;
	uint64_t line;
};

static int cmp_ref_low(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;

	if (x->al != y->al)
		return x->al < y->al ? -1 : 1;
	return x->line < y->line ? -1 : 1;
}

static int cmp_ref_high(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;

	if (x->al != y->al)
		return x->al > y->al ? -1 : 1;
	return x->line < y->line ? -1 : 1;
}

/* 20,000 values from 50 distinct ones (many ties): the heaps equal a full sort. */
static void test_bounded_against_sort(void **state)
{
	enum { NREC = 20000, N = 37 };
	static struct ref ref[NREC];
	struct ss_outliers s;
	uint64_t x = 12345;

	(void)state;
	ss_outliers_init(&s);
	assert_true(ss_outliers_keep(&s, N));
	for (size_t i = 0; i < NREC; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		ref[i].al = 1.0 + (double)((x >> 33) % 50) / 10.0;
		ref[i].line = i + 1;
		offer(&s, ref[i].al, ref[i].line);
	}
	ss_outliers_finish(&s);
	assert_int_equal(s.nlow, N);
	assert_int_equal(s.nhigh, N);
	qsort(ref, NREC, sizeof(ref[0]), cmp_ref_low);
	for (size_t i = 0; i < N; i++) {
		assert_int_equal(s.low[i].line, ref[i].line);
		assert_true(s.low[i].al == ref[i].al);
	}
	qsort(ref, NREC, sizeof(ref[0]), cmp_ref_high);
	for (size_t i = 0; i < N; i++)
		assert_int_equal(s.high[i].line, ref[i].line);
	ss_outliers_release(&s);
}

static void add(struct ss_agg *a, struct ss_record *r, enum ss_phase ph, uint64_t line,
		const char *model)
{
	struct ss_outcome o;

	fx_outcome_of(&o, r, ph, line);
	o.model = model;
	o.model_len = model ? 2 : 0;  /* only the first two bytes are the model */
	if (r->has_completion_tokens) {
		o.has_completion = true;
		o.completion_tokens = r->completion_tokens;
	}
	assert_true(ss_agg_add(a, &o));
	ss_record_release(r);
}

static void test_counts_through_aggregate(void **state)
{
	static const int64_t all3[] = {0, 0, 0, 5}, none3[] = {4, 0, 0, 0};
	static const int64_t two_of_3[] = {0, 0, 5, 0}, mixed[] = {1, 0, 0, 1};
	struct ss_agg a;
	struct ss_record r;

	(void)state;
	ss_agg_init(&a, SS_PHASES_PROFILING);
	assert_true(ss_agg_keep_main(&a, false, 2, false));
	assert_true(ss_agg_begin_input(&a, "run.jsonl"));
	/* every step accepted k = 3: all accepted */
	fx_vllm(&r, all3, 4, 5, 15, 15, 4.0, 1.0);
	r.has_completion_tokens = true;
	r.completion_tokens = 21;
	add(&a, &r, SS_PHASE_PROFILING, 1, "m1-and-more");
	/* the same histogram with k unknown: not counted */
	fx_vllm(&r, all3, 4, 5, 15, 15, 4.0, 1.0);
	r.has_spec_tokens = false;
	add(&a, &r, SS_PHASE_PROFILING, 2, NULL);
	/* every step accepted 2 of k = 3: neither */
	fx_vllm(&r, two_of_3, 4, 5, 10, 15, 3.0, 10.0 / 15.0);
	add(&a, &r, SS_PHASE_PROFILING, 3, NULL);
	/* nothing accepted: all rejected */
	fx_vllm(&r, none3, 4, 4, 0, 12, 1.0, 0.0);
	add(&a, &r, SS_PHASE_PROFILING, 4, "m2");
	/* a warmup record is not in the main results */
	fx_vllm(&r, none3, 4, 4, 0, 12, 1.0, 0.0);
	add(&a, &r, SS_PHASE_WARMUP, 5, NULL);
	fx_vllm(&r, mixed, 4, 2, 3, 6, 2.5, 0.5);
	add(&a, &r, SS_PHASE_PROFILING, 6, NULL);
	/* a record without steps (llama.cpp) is not counted, even with nothing accepted */
	fx_llamacpp(&r, 0, 8);
	add(&a, &r, SS_PHASE_PROFILING, 7, NULL);
	assert_true(ss_agg_finish(&a));

	assert_int_equal(a.outliers.all_accepted, 1);
	assert_int_equal(a.outliers.all_rejected, 1);
	/* lowest: line 4 (1.0), then line 6 (2.5); highest: line 1 then line 2 (4.0, tie) */
	assert_int_equal(a.outliers.nlow, 2);
	assert_int_equal(a.outliers.low[0].line, 4);
	assert_string_equal(a.outliers.low[0].model, "m2");
	assert_int_equal(a.outliers.low[0].steps, 4);
	assert_false(a.outliers.low[0].has_completion);
	assert_int_equal(a.outliers.low[1].line, 6);
	assert_null(a.outliers.low[1].model);
	assert_int_equal(a.outliers.high[0].line, 1);
	assert_string_equal(a.outliers.high[0].model, "m1");
	assert_string_equal(a.outliers.high[0].input, "run.jsonl");
	assert_true(a.outliers.high[0].has_completion);
	assert_int_equal(a.outliers.high[0].completion_tokens, 21);
	assert_int_equal(a.outliers.high[1].line, 2);
	ss_agg_release(&a);
}

/*
 * The aggregate offers a record only when ss_outliers_may_keep says it
 * could enter a list, and only counts the others: ties with a full
 * list's root are not offered, and are still counted.
 */
static void test_count_only_path(void **state)
{
	static const int64_t all3[] = {0, 0, 0, 5}, none3[] = {4, 0, 0, 0};
	struct ss_outliers s;
	struct ss_agg a;
	struct ss_record r;

	(void)state;
	/* the rule itself: lists of 2 holding 1.0, 1.5 (low) and 2.0, 1.5 (high) */
	ss_outliers_init(&s);
	assert_false(ss_outliers_may_keep(&s, 1.0));  /* no lists */
	assert_true(ss_outliers_keep(&s, 2));
	assert_true(ss_outliers_may_keep(&s, 7.0));   /* room */
	offer(&s, 2.0, 1);
	offer(&s, 1.0, 2);
	assert_true(ss_outliers_may_keep(&s, 1.5));   /* still room */
	offer(&s, 1.5, 3);
	assert_false(ss_outliers_may_keep(&s, 1.5));  /* a tie with both roots */
	assert_true(ss_outliers_may_keep(&s, 1.4999));
	assert_true(ss_outliers_may_keep(&s, 1.5001));
	assert_false(ss_outliers_may_keep(&s, NAN));
	ss_outliers_finish(&s);
	assert_true(ss_outliers_may_keep(&s, 1.5));   /* sorted: the slow way */
	ss_outliers_release(&s);

	/* through the aggregate, one entry a list: lines 3 and 4 tie and are only counted */
	ss_agg_init(&a, SS_PHASES_PROFILING);
	assert_true(ss_agg_keep_main(&a, false, 1, false));
	assert_true(ss_agg_begin_input(&a, "run.jsonl"));
	fx_vllm(&r, none3, 4, 4, 0, 12, 1.0, 0.0);
	add(&a, &r, SS_PHASE_PROFILING, 1, NULL);
	fx_vllm(&r, all3, 4, 5, 15, 15, 4.0, 1.0);
	add(&a, &r, SS_PHASE_PROFILING, 2, NULL);
	fx_vllm(&r, none3, 4, 4, 0, 12, 1.0, 0.0);
	add(&a, &r, SS_PHASE_PROFILING, 3, NULL);
	fx_vllm(&r, all3, 4, 5, 15, 15, 4.0, 1.0);
	add(&a, &r, SS_PHASE_PROFILING, 4, NULL);
	assert_true(ss_agg_finish(&a));
	assert_int_equal(a.outliers.all_rejected, 2);
	assert_int_equal(a.outliers.all_accepted, 2);
	assert_int_equal(a.outliers.nlow, 1);
	assert_int_equal(a.outliers.low[0].line, 1);
	assert_int_equal(a.outliers.nhigh, 1);
	assert_int_equal(a.outliers.high[0].line, 2);
	ss_agg_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_bounded_against_sort),
		cmocka_unit_test(test_counts_through_aggregate),
		cmocka_unit_test(test_count_only_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
