#include "metrics/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
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
