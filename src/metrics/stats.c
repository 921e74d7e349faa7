#include "metrics/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"

/* Below this many values qsort is as fast as the radix sort. */
#define RADIX_MIN 2048

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* A double's bits as an unsigned key in the double's order (no NaN). */
static inline uint64_t key_of(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return u >> 63 ? ~u : u | (uint64_t)1 << 63;
}

static inline double double_of(uint64_t k)
{
	uint64_t u = k >> 63 ? k & ~((uint64_t)1 << 63) : ~k;
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

/* Keys live in memory typed double (the scratch): moved by memcpy. */
static inline uint64_t ld(const void *p, size_t i)
{
	uint64_t k;

	memcpy(&k, (const char *)p + i * sizeof(k), sizeof(k));
	return k;
}

static inline void st(void *p, size_t i, uint64_t k)
{
	memcpy((char *)p + i * sizeof(k), &k, sizeof(k));
}

/*
 * Sort v[0..n) ascending: a least-significant-byte radix sort of the
 * order-preserving keys, skipping the bytes all keys share (most of a
 * metric's exponent bits). It gives the same array as qsort: finite
 * doubles that compare equal have the same bits, except 0.0 and -0.0,
 * whose order qsort keeps and keys would not, so those go to qsort. The
 * end of a run with a million requests sorts a few million doubles, which
 * took qsort most of a second. false: not sorted (-0.0, or no memory).
 */
static bool radix_sort(double *v, size_t n)
{
	size_t (*count)[256];
	void *a = v, *b, *t;
	bool skip[8];

	for (size_t i = 0; i < n; i++)
		if (v[i] == 0.0 && signbit(v[i]))
			return false;
	count = ss_calloc(8, sizeof(*count));
	b = ss_reallocarray(NULL, n, sizeof(uint64_t));
	if (!count || !b) {
		ss_free(count);
		ss_free(b);
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t k = key_of(v[i]);

		st(a, i, k);
		for (int d = 0; d < 8; d++)
			count[d][(k >> (8 * d)) & 0xff]++;
	}
	for (int d = 0; d < 8; d++) {
		size_t sum = 0;

		skip[d] = count[d][(ld(a, 0) >> (8 * d)) & 0xff] == n;
		for (int j = 0; j < 256; j++) {
			size_t c = count[d][j];

			count[d][j] = sum;
			sum += c;
		}
	}
	for (int d = 0; d < 8; d++) {
		if (skip[d])
			continue;
		for (size_t i = 0; i < n; i++) {
			uint64_t k = ld(a, i);

			st(b, count[d][(k >> (8 * d)) & 0xff]++, k);
		}
		t = a;
		a = b;
		b = t;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = double_of(ld(a, i));
	ss_free(a == (void *)v ? b : a);
	ss_free(count);
	return true;
}

/*
 * numpy's _lerp: a + (b - a) * t, but computed from b's side when t >= 0.5
 * so the result is monotonic and exact at t = 1. Both forms are the SPEC's
 * formula; this is the one numpy (and so AIPerf) evaluates.
 */
static double lerp(double a, double b, double t)
{
	double d = b - a;

	if (t >= 0.5)
		return b - d * (1.0 - t);
	return a + d * t;
}

double ss_percentile(const double *sorted, size_t n, double q)
{
	double x;

	if (n == 0)
		return 0.0;
	x = q / 100.0 * (double)(n - 1);
	double lo_f = floor(x);
	size_t lo = (size_t)lo_f;
	size_t hi;

	if (lo >= n)
		lo = n - 1;
	hi = lo + 1 < n ? lo + 1 : n - 1;
	return lerp(sorted[lo], sorted[hi], x - lo_f);
}

void ss_stats_compute(const double *v, size_t n, double *scratch,
		      struct ss_stats *out)
{
	double sum = 0.0, sq = 0.0;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	/* Sums in input order, so the result does not depend on -j. */
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	out->sum = sum;
	out->avg = sum / (double)n;
	for (size_t i = 0; i < n; i++) {
		double d = v[i] - out->avg;

		sq += d * d;
	}
	out->std = sqrt(sq / (double)n);
	out->count = n;

	memcpy(scratch, v, n * sizeof(*v));
	if (n < RADIX_MIN || !radix_sort(scratch, n))
		qsort(scratch, n, sizeof(*scratch), cmp_double);
	out->min = scratch[0];
	out->max = scratch[n - 1];
	out->p1 = ss_percentile(scratch, n, 1);
	out->p5 = ss_percentile(scratch, n, 5);
	out->p10 = ss_percentile(scratch, n, 10);
	out->p25 = ss_percentile(scratch, n, 25);
	out->p50 = ss_percentile(scratch, n, 50);
	out->p75 = ss_percentile(scratch, n, 75);
	out->p90 = ss_percentile(scratch, n, 90);
	out->p95 = ss_percentile(scratch, n, 95);
	out->p99 = ss_percentile(scratch, n, 99);
}
