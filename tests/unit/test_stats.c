/* Unit tests of the statistics of one per-request metric (SPEC 3.1). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/stats.h"

/* Exact comparison: the expected doubles are the SPEC's shortest texts. */
#define assert_double_is(x, y) assert_true((x) == (y))

/* The statistics of v as the aggregate computes them: the sum added up in
 * input order, then the rest. */
static void stats_of(const double *v, size_t n, double *scratch, struct ss_stats *out)
{
	double sum = 0.0;

	for (size_t i = 0; i < n; i++)
		sum += v[i];
	ss_stats_compute_sum(v, n, sum, scratch, out);
}

static void test_acceptance_length_ab(void **state)
{
	/* SPEC 6: A mean 3.25, B 1 + 2/3, in input order A then B. */
	const double v[] = {3.25, 1.0 + 2.0 / 3.0};
	double scratch[2];
	struct ss_stats s;

	(void)state;
	stats_of(v, 2, scratch, &s);
	assert_int_equal(s.count, 2);
	assert_double_is(s.avg, 2.458333333333333);
	assert_double_is(s.p50, 2.458333333333333);
	assert_double_is(s.p90, 3.091666666666667);
	assert_double_is(s.std, 0.7916666666666667);
	assert_double_is(s.min, 1.6666666666666665);
	assert_double_is(s.max, 3.25);
	assert_double_is(s.sum, 4.916666666666666);
	/* numpy's lerp: from below when t < 0.5, from above otherwise */
	assert_double_is(s.p1, 1.6824999999999999);
	assert_double_is(s.p10, 1.825);
	assert_double_is(s.p75, 2.8541666666666665);
	assert_double_is(s.p99, 3.234166666666667);
	/* input untouched */
	assert_double_is(v[0], 3.25);
}

static void test_steps_ab(void **state)
{
	const double v[] = {8, 3};
	double scratch[2];
	struct ss_stats s;

	(void)state;
	stats_of(v, 2, scratch, &s);
	assert_double_is(s.avg, 5.5);
	assert_double_is(s.p1, 3.05);
	assert_double_is(s.std, 2.5);
	assert_double_is(s.sum, 11.0);
	assert_double_is(s.min, 3.0);
	assert_double_is(s.max, 8.0);
	assert_double_is(s.p5, 3.25);
	assert_double_is(s.p10, 3.5);
	assert_double_is(s.p25, 4.25);
	assert_double_is(s.p50, 5.5);
	assert_double_is(s.p75, 6.75);
	assert_double_is(s.p90, 7.5);
	assert_double_is(s.p95, 7.75);
	assert_double_is(s.p99, 7.95);
}

static void test_single_value(void **state)
{
	const double v[] = {42.5};
	double scratch[1];
	struct ss_stats s;

	(void)state;
	stats_of(v, 1, scratch, &s);
	assert_int_equal(s.count, 1);
	assert_double_is(s.avg, 42.5);
	assert_double_is(s.min, 42.5);
	assert_double_is(s.max, 42.5);
	assert_double_is(s.p1, 42.5);
	assert_double_is(s.p99, 42.5);
	assert_double_is(s.std, 0.0);
	assert_double_is(s.sum, 42.5);
}

static void test_percentiles_of_five(void **state)
{
	/* sorted 1..5, unsorted input: x = q/100 * 4 */
	const double v[] = {5, 1, 4, 2, 3};
	double scratch[5];
	struct ss_stats s;

	(void)state;
	stats_of(v, 5, scratch, &s);
	assert_double_is(s.avg, 3.0);
	assert_double_is(s.p25, 2.0);
	assert_double_is(s.p50, 3.0);
	assert_double_is(s.p75, 4.0);
	assert_double_is(s.p90, 4.6);   /* 5 - 1 * 0.4 */
	assert_double_is(s.p10, 1.4);   /* 1 + 1 * 0.4 */
	assert_double_is(s.std, 1.4142135623730951); /* sqrt(2) */
	assert_double_is(ss_percentile(scratch, 5, 0), 1.0);
	assert_double_is(ss_percentile(scratch, 5, 100), 5.0);
}

static void test_sum_in_input_order(void **state)
{
	/*
	 * The sum is the one given, added up in input order: (1e16 + 1) + 1
	 * loses both ones, where a sum of the sorted values (1 + 1) + 1e16
	 * would keep them (1e16 + 2). The mean divides that sum.
	 */
	const double v[] = {1e16, 1.0, 1.0};
	double scratch[3];
	struct ss_stats s;

	(void)state;
	ss_stats_compute_sum(v, 3, (1e16 + 1.0) + 1.0, scratch, &s);
	assert_double_is(s.sum, 1e16);
	assert_double_is(s.avg, 1e16 / 3.0);
	assert_double_is(s.min, 1.0);
	assert_double_is(s.max, 1e16);
}

/* Insertion sort: slow, obviously right, independent of the one in stats.c. */
static void slow_sort(double *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		double x = v[i];
		size_t j = i;

		while (j > 0 && v[j - 1] > x) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

/* Every statistic of s against those of the plainly sorted `want`. */
static void check_against_sorted(const struct ss_stats *s, const double *want, size_t n)
{
	static const double q[] = {1, 5, 10, 25, 50, 75, 90, 95, 99};
	const double got[] = {s->p1, s->p5, s->p10, s->p25, s->p50, s->p75, s->p90, s->p95,
			      s->p99};

	assert_double_is(s->min, want[0]);
	assert_double_is(s->max, want[n - 1]);
	assert_int_equal(signbit(s->min) != 0, signbit(want[0]) != 0);
	for (size_t j = 0; j < sizeof(q) / sizeof(q[0]); j++) {
		double w = ss_percentile(want, n, q[j]);

		assert_memory_equal(&got[j], &w, sizeof(w));
	}
}

/*
 * Large inputs take the selection of ranks (and the radix sort for its
 * buckets): the statistics must be those of the plain sort for negative,
 * tiny, huge and repeated values, sorted, reversed and constant inputs,
 * sizes around the threshold, and -0.0 next to 0.0 (those take the full
 * sort, which keeps them in input order as a stable comparison sort does).
 */
static void test_large_inputs_sorted(void **state)
{
	enum { N = 6000 };
	static double v[N], want[N], scratch[N];
	static const size_t sizes[] = {2048, 2049, 2050, 2101, 3000, 4097, N};
	uint64_t x = 88172645463325252ULL;
	struct ss_stats s;

	(void)state;
	for (int round = 0; round < 8; round++) {
		for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
			size_t n = sizes[z];

			for (size_t i = 0; i < n; i++) {
				double d;

				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				switch (round) {
				case 0: d = (double)(x % 200) - 50.0; break;  /* many repeats */
				case 1: d = ldexp((double)(x >> 11), (int)(x % 200) - 150) *
					    ((x >> 3) & 1 ? -1.0 : 1.0); break;
				case 2: d = 1.0 + (double)(x >> 11) / 9007199254740992.0; break;
				case 3: d = (double)i; break;                 /* sorted */
				case 4: d = (double)(n - i); break;           /* reversed */
				case 5: d = 2.5; break;                       /* all equal */
				case 6: d = (double)(i < n / 2 ? i : n - i); break;  /* organ pipe */
				default: d = (x & 3) == 0 ? -0.0 : (x & 3) == 1 ? 0.0 : (double)(x % 7); break;
				}
				v[i] = want[i] = d;
			}
			slow_sort(want, n);
			stats_of(v, n, scratch, &s);
			check_against_sorted(&s, want, n);
		}
	}
}

static int cmp_plain(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Large inputs find their order statistics in the buckets that hold them:
 * shapes that put most values into one bucket (a spike among spread
 * values, two far clusters, one outlier), that put the wanted ranks at
 * bucket edges (few distinct values, each repeated), and values that need
 * all 64 key bits (both signs, every exponent). Compared with qsort. The
 * sizes give from 2^9 (n = 2048) up to 2^16 buckets (n = 270001).
 */
static void test_selection_shapes(void **state)
{
	enum { N = 270001 };
	static double v[N], want[N], scratch[N];
	static const size_t sizes[] = {2048, 4095, 9999, 16384, 65537, 131071, N};
	uint64_t x = 0x9E3779B97F4A7C15ULL;
	struct ss_stats s;

	(void)state;
	for (int shape = 0; shape < 7; shape++) {
		for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
			size_t n = sizes[z];

			for (size_t i = 0; i < n; i++) {
				double d;

				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				switch (shape) {
				case 0: d = (x % 10) ? 1.0 : 1.0 + (double)(x >> 40) / 1e6; break;
				case 1: d = (x & 1) ? 1e-300 * (double)(x >> 50) : 1e300 * (double)(x >> 50); break;
				case 2: d = i == n / 3 ? 1e308 : 3.0 + (double)(x % 1000) / 1000.0; break;
				case 3: d = (double)(x % 3); break;
				case 4: d = (double)(x % 65539) * 0.5 - 7.0; break;
				case 5: {
					uint64_t u = x & ~((uint64_t)0x7FF << 52);

					/* every exponent but the one of inf and NaN */
					u |= (uint64_t)(x % 2047) << 52;
					memcpy(&d, &u, sizeof(d));
					if (d == 0.0)
						d = 1.0;
					break;
				}
				default: d = (double)(int64_t)(x >> 1) ; break;
				}
				v[i] = want[i] = d;
			}
			qsort(want, n, sizeof(want[0]), cmp_plain);
			stats_of(v, n, scratch, &s);
			check_against_sorted(&s, want, n);
			assert_int_equal(s.count, n);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_acceptance_length_ab),
		cmocka_unit_test(test_steps_ab),
		cmocka_unit_test(test_single_value),
		cmocka_unit_test(test_percentiles_of_five),
		cmocka_unit_test(test_sum_in_input_order),
		cmocka_unit_test(test_large_inputs_sorted),
		cmocka_unit_test(test_selection_shapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
