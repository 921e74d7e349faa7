/*
 * Unit tests of SPEC 7.2's generator and bootstrap, and 7.4's difference
 * intervals.
 *
 * Every expected number below was computed outside specscan, by a short
 * Python 3 script written for this test (not by the code under test): it
 * implements mix64, the stream seeding, next() and draw(n) of SPEC 7.2 with
 * Python's unbounded integers masked to 64 bits, draws the indexes, sums the
 * three samples' values in draw order with Python floats (integer sums with
 * Python ints, one true division), and takes the percentiles with SPEC 3.1's
 * formula. The values are its repr() output, pasted as literals.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "analysis/bootstrap.h"
#include "analysis/rng.h"
#include "util/alloc.h"

#define assert_double_is(x, y) assert_true((x) == (y))

static void test_mix64_and_streams(void **state)
{
	struct ss_rng r;

	(void)state;
	/* Python: mix(0), mix(1), mix(12345) */
	assert_true(ss_mix64(0) == 0);
	assert_true(ss_mix64(1) == UINT64_C(0x5692161d100b05e5));
	assert_true(ss_mix64(12345) == UINT64_C(0xf36cf1164265dd51));
	/* stream (0, 0) of seed 1: state = mix(1 ^ mix(0)) = mix(1) */
	ss_rng_stream(&r, 1, 0, 0);
	assert_true(r.state == UINT64_C(0x5692161d100b05e5));
	assert_true(ss_rng_next(&r) == UINT64_C(0xbfef8030ddc2d772));
	assert_true(ss_rng_next(&r) == UINT64_C(0x5f552ce482f2aa47));
	assert_true(ss_rng_next(&r) == UINT64_C(0x70335fc3daf3d8a7));
}

static void test_draw_scaling(void **state)
{
	(void)state;
	/* The exact product: (x >> 11) * n needs more than 64 bits. */
	assert_true(ss_rng_scale(UINT64_MAX, 3) == 2);
	/* Python: ((2**64-1 >> 11) * (2**64-1)) >> 53 */
	assert_true(ss_rng_scale(UINT64_MAX, UINT64_MAX) == UINT64_C(0xfffffffffffff7ff));
	assert_true(ss_rng_scale(0, UINT64_MAX) == 0);
	assert_true(ss_rng_scale(UINT64_C(1) << 63, 10) == 5);
	assert_true(ss_rng_scale(UINT64_C(0xbfef8030ddc2d772), 3) == 2); /* 0.7497... * 3 */
}

/*
 * Three samples: SPEC 6's records A and B, and a llama.cpp-like record
 * without steps or acceptance length (accepted 5 of 10).
 */
static void add_three(struct ss_samples *s)
{
	struct ss_sample a = {true, true, true, 3.25, 56.25, 18, 32, 8};
	struct ss_sample b = {true, true, true, 1.0 + 2.0 / 3.0, 2.0 / 12.0 * 100.0, 2, 12, 3};
	struct ss_sample c = {false, true, false, 0.0, 50.0, 5, 10, 0};

	assert_true(ss_samples_add(s, &a));
	assert_true(ss_samples_add(s, &b));
	assert_true(ss_samples_add(s, &c));
}

/* Per (g, b): the drawn indexes (Python) and the four statistics. */
struct expected_row {
	double al, twal, dar, odar;
};

/* g 0, b 0..5; draws [2,1,1] [0,0,2] [1,2,0] [1,1,1] [0,1,1] [1,1,1] */
static const struct expected_row g0_rows[6] = {
	{1.6666666666666665, 1.6666666666666665, 27.77777777777777, 26.47058823529412},
	{3.25, 3.25, 54.166666666666664, 55.4054054054054},
	{2.458333333333333, 2.8181818181818183, 40.97222222222222, 46.2962962962963},
	/* 1+2/3 added three times then divided by 3 is not 1+2/3 */
	{1.6666666666666667, 1.6666666666666665, 16.666666666666664, 16.666666666666664},
	{2.194444444444444, 2.571428571428571, 29.861111111111104, 39.285714285714285},
	{1.6666666666666667, 1.6666666666666665, 16.666666666666664, 16.666666666666664},
};

/* g 1, b 0..5; draws [0,0,1] [2,1,2] [1,0,0] [2,0,2] [1,2,2] [2,0,0] */
static const struct expected_row g1_rows[6] = {
	{2.722222222222222, 3.0, 43.05555555555555, 50.0},
	{1.6666666666666665, 1.6666666666666665, 38.888888888888886, 37.5},
	{2.722222222222222, 3.0, 43.05555555555555, 50.0},
	{3.25, 3.25, 52.083333333333336, 53.84615384615385},
	{1.6666666666666665, 1.6666666666666665, 38.888888888888886, 37.5},
	{3.25, 3.25, 54.166666666666664, 55.4054054054054},
};

static void check_rows(const double *rows, const struct expected_row *want, int n)
{
	for (int b = 0; b < n; b++) {
		const double *r = rows + b * SS_BS_COUNT;

		assert_double_is(r[SS_BS_AL], want[b].al);
		assert_double_is(r[SS_BS_TWAL], want[b].twal);
		assert_double_is(r[SS_BS_DAR], want[b].dar);
		assert_double_is(r[SS_BS_ODAR], want[b].odar);
	}
}

static void test_resamples_by_hand(void **state)
{
	struct ss_samples s;
	double rows[6 * SS_BS_COUNT];

	(void)state;
	ss_samples_init(&s);
	add_three(&s);
	ss_boot_range(&s, 1, 0, 0, 6, rows);
	check_rows(rows, g0_rows, 6);
	ss_boot_range(&s, 1, 1, 0, 6, rows);
	check_rows(rows, g1_rows, 6);
	/* a range that starts later gives the same rows */
	ss_boot_range(&s, 1, 1, 3, 6, rows);
	check_rows(rows, g1_rows + 3, 3);
	ss_samples_release(&s);
}

static void test_threads_same_rows(void **state)
{
	struct ss_samples s;
	double one[6 * SS_BS_COUNT], two[6 * SS_BS_COUNT], many[6 * SS_BS_COUNT];
	struct ss_boot_job job;

	(void)state;
	ss_samples_init(&s);
	add_three(&s);
	job.samples = &s;
	job.g = 0;
	job.out = one;
	ss_boot_run(&job, 1, 1, 6, 1);
	job.out = two;
	ss_boot_run(&job, 1, 1, 6, 2);
	job.out = many;
	ss_boot_run(&job, 1, 1, 6, 7);
	check_rows(one, g0_rows, 6);
	assert_memory_equal(one, two, sizeof(one));
	assert_memory_equal(one, many, sizeof(one));
	ss_samples_release(&s);
}

static void test_two_jobs_on_threads(void **state)
{
	struct ss_samples s;
	double a[6 * SS_BS_COUNT], b[6 * SS_BS_COUNT];
	struct ss_boot_job jobs[2];

	(void)state;
	ss_samples_init(&s);
	add_three(&s);
	jobs[0].samples = jobs[1].samples = &s;
	jobs[0].g = 0;
	jobs[0].out = a;
	jobs[1].g = 1;
	jobs[1].out = b;
	ss_boot_run(jobs, 2, 1, 6, 2);
	check_rows(a, g0_rows, 6);
	check_rows(b, g1_rows, 6);
	ss_samples_release(&s);
}

static void test_intervals_by_hand(void **state)
{
	struct ss_samples s;
	double g0[6 * SS_BS_COUNT], g1[6 * SS_BS_COUNT], scratch[6], lo, hi;

	(void)state;
	ss_samples_init(&s);
	add_three(&s);
	ss_boot_range(&s, 1, 0, 0, 6, g0);
	ss_boot_range(&s, 1, 1, 0, 6, g1);

	/* level 50: q = 25 and 75 */
	assert_true(ss_boot_interval(g0, 6, SS_BS_AL, 50, scratch, &lo, &hi));
	assert_double_is(lo, 1.6666666666666667);
	assert_double_is(hi, 2.3923611111111107);
	assert_true(ss_boot_interval(g0, 6, SS_BS_TWAL, 50, scratch, &lo, &hi));
	assert_double_is(lo, 1.6666666666666665);
	assert_double_is(hi, 2.7564935064935066);
	assert_true(ss_boot_interval(g0, 6, SS_BS_DAR, 50, scratch, &lo, &hi));
	assert_double_is(lo, 19.444444444444443);
	assert_double_is(hi, 38.19444444444444);
	assert_true(ss_boot_interval(g0, 6, SS_BS_ODAR, 50, scratch, &lo, &hi));
	assert_double_is(lo, 19.11764705882353);
	assert_double_is(hi, 44.5436507936508);
	/* level 90: q = 5 and 95 */
	assert_true(ss_boot_interval(g0, 6, SS_BS_AL, 90, scratch, &lo, &hi));
	assert_double_is(lo, 1.6666666666666665);
	assert_double_is(hi, 3.052083333333333);
	assert_true(ss_boot_interval(g0, 6, SS_BS_ODAR, 90, scratch, &lo, &hi));
	assert_double_is(lo, 16.666666666666664);
	assert_double_is(hi, 53.128128128128125);

	/* differences: stream (1, b) minus stream (0, b) */
	assert_true(ss_boot_diff_interval(g1, g0, 6, SS_BS_AL, 50, scratch, &lo, &hi));
	assert_double_is(lo, -0.32986111111111105);
	assert_double_is(hi, 1.4513888888888888);
	assert_true(ss_boot_diff_interval(g1, g0, 6, SS_BS_TWAL, 50, scratch, &lo, &hi));
	assert_double_is(lo, -0.6331168831168831);
	assert_double_is(hi, 1.5208333333333335);
	assert_true(ss_boot_diff_interval(g1, g0, 6, SS_BS_DAR, 50, scratch, &lo, &hi));
	assert_double_is(lo, 3.819444444444442);
	assert_double_is(hi, 30.38194444444445);
	assert_true(ss_boot_diff_interval(g1, g0, 6, SS_BS_ODAR, 90, scratch, &lo, &hi));
	assert_double_is(lo, -13.875482625482624);
	assert_double_is(hi, 38.34892584892585);
	ss_samples_release(&s);
}

static void test_undefined_left_out(void **state)
{
	/* One llama.cpp-like sample: no acceptance length, no steps. */
	struct ss_sample c = {false, true, false, 0.0, 50.0, 5, 10, 0};
	struct ss_samples s, empty;
	double rows[4 * SS_BS_COUNT], base[4 * SS_BS_COUNT], scratch[4], lo, hi;

	(void)state;
	ss_samples_init(&s);
	ss_samples_init(&empty);
	assert_true(ss_samples_add(&s, &c));
	ss_boot_range(&s, 7, 0, 0, 4, rows);
	for (int b = 0; b < 4; b++) {
		assert_true(isnan(rows[b * SS_BS_COUNT + SS_BS_AL]));
		assert_true(isnan(rows[b * SS_BS_COUNT + SS_BS_TWAL]));
		assert_double_is(rows[b * SS_BS_COUNT + SS_BS_DAR], 50.0);
		assert_double_is(rows[b * SS_BS_COUNT + SS_BS_ODAR], 50.0);
	}
	assert_false(ss_boot_interval(rows, 4, SS_BS_AL, 95, scratch, &lo, &hi));
	assert_true(ss_boot_interval(rows, 4, SS_BS_ODAR, 95, scratch, &lo, &hi));
	assert_double_is(lo, 50.0);
	assert_double_is(hi, 50.0);
	/* an empty set: every row undefined, and so every difference */
	ss_boot_range(&empty, 7, 1, 0, 4, base);
	for (int i = 0; i < 4 * SS_BS_COUNT; i++)
		assert_true(isnan(base[i]));
	assert_false(ss_boot_diff_interval(rows, base, 4, SS_BS_DAR, 95, scratch, &lo, &hi));
	ss_samples_release(&s);
}

static void test_wide_counts(void **state)
{
	/*
	 * Counts past 32 bits switch the store to 64-bit counts and 128-bit
	 * sums; the samples added before read back unchanged.
	 */
	struct ss_sample a = {true, true, true, 2.5, 40.0, 3, 10, 2};
	struct ss_sample big = {true, true, true, 1.5, 50.0, INT64_C(1) << 62, INT64_MAX,
				INT64_C(1) << 62};
	struct ss_sample top = {true, true, true, 1.25, 100.0, INT64_MAX, INT64_MAX, INT64_MAX};
	struct ss_sample got;
	struct ss_samples s;
	double rows[SS_BS_COUNT];

	(void)state;
	ss_samples_init(&s);
	assert_true(ss_samples_add(&s, &a));
	assert_false(s.wide);
	assert_true(ss_samples_add(&s, &big));
	assert_true(s.wide);
	assert_true(ss_samples_add(&s, &top));
	ss_samples_get(&s, 0, &got);
	assert_true(got.has_al && got.has_dar && got.has_steps);
	assert_double_is(got.al, 2.5);
	assert_int_equal(got.accepted, 3);
	assert_int_equal(got.drafted, 10);
	assert_int_equal(got.steps, 2);
	ss_samples_get(&s, 1, &got);
	assert_int_equal(got.drafted, INT64_MAX);

	/*
	 * Python: stream (0, 0) of seed 1 draws [2, 1, 1] from n = 3. Accepted
	 * sums to 2^64 - 1, steps too, drafted to 3 (2^63 - 1), past 2^64: the
	 * sums must not wrap.
	 */
	ss_boot_range(&s, 1, 0, 0, 1, rows);
	assert_double_is(rows[SS_BS_AL], 1.4166666666666667);
	assert_double_is(rows[SS_BS_TWAL], 2.0);
	assert_double_is(rows[SS_BS_DAR], 66.66666666666667);
	assert_double_is(rows[SS_BS_ODAR], 66.66666666666666);
	ss_samples_release(&s);
}

static void test_samples_oom(void **state)
{
	struct ss_sample a = {true, true, true, 2.5, 40.0, 3, 10, 2};
	struct ss_samples s;

	(void)state;
	ss_samples_init(&s);
	ss_alloc_fail_at(1, 1);
	assert_false(ss_samples_add(&s, &a));
	ss_alloc_fail_at(0, 0);
	assert_int_equal(s.n, 0);
	assert_true(ss_samples_add(&s, &a));
	assert_int_equal(s.n, 1);
	ss_samples_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mix64_and_streams),
		cmocka_unit_test(test_draw_scaling),
		cmocka_unit_test(test_resamples_by_hand),
		cmocka_unit_test(test_threads_same_rows),
		cmocka_unit_test(test_two_jobs_on_threads),
		cmocka_unit_test(test_intervals_by_hand),
		cmocka_unit_test(test_undefined_left_out),
		cmocka_unit_test(test_wide_counts),
		cmocka_unit_test(test_samples_oom),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
