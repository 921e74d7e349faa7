#include "metrics/stats.h"

#include <math.h>
#include <stdbool.h>
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

/* The two ranks percentile q of n values reads, and the weight between. */
static void percentile_ranks(size_t n, double q, size_t *lo, size_t *hi, double *t)
{
	double x = q / 100.0 * (double)(n - 1);
	double lo_f = floor(x);

	*lo = (size_t)lo_f;
	if (*lo >= n)
		*lo = n - 1;
	*hi = *lo + 1 < n ? *lo + 1 : n - 1;
	*t = x - lo_f;
}

double ss_percentile(const double *sorted, size_t n, double q)
{
	size_t lo, hi;
	double t;

	if (n == 0)
		return 0.0;
	percentile_ranks(n, q, &lo, &hi, &t);
	return lerp(sorted[lo], sorted[hi], t);
}

/* Sort v[0..n) ascending, as qsort with cmp_double would. */
static void sort_values(double *v, size_t n)
{
	if (n < RADIX_MIN || !radix_sort(v, n))
		qsort(v, n, sizeof(*v), cmp_double);
}

/*
 * Buckets of select_ranks: keys by their highest varying bits, 4 to 8
 * values a bucket (2^(bit length of n - 3) buckets), at most
 * 2^SELECT_BITS_MAX. The buckets' own passes (cleared, summed, scanned)
 * cost about eight instructions a bucket; 2^16 of them for the 8,000
 * values of a 10 MB records run were half of the run's statistics.
 */
#define SELECT_BITS_MAX 16
/* The most ranks select_ranks is asked for at once. */
#define SELECT_MAX_RANKS 32

/*
 * The values of ranks rank[0..nr) (0-based, in ascending order of value)
 * into val[], without sorting all n values: the keys are counted by their
 * highest varying bits (see SELECT_BITS_MAX), which orders them into buckets; only
 * the buckets that hold a wanted rank are copied into `scratch` and
 * sorted. A summary wants twenty ranks, so that is three passes over the
 * values and the sort of a few buckets, instead of a sort of them all.
 * The values are those the full sort puts at those ranks. kmin and kmax:
 * the least and greatest key of the values, none of which is -0.0 (whose
 * order against 0.0 only qsort keeps). false: not done (too many values,
 * or no memory): the caller sorts. How many buckets there are changes
 * only the work, never the values found.
 */
static bool select_ranks(const double *v, size_t n, uint64_t kmin, uint64_t kmax,
			 double *scratch, const size_t *rank, double *val, size_t nr)
{
	uint64_t base;
	uint32_t *below;   /* per bucket: values in the buckets before it (+1: all) */
	uint16_t *slot;    /* per bucket: 0, or 1 + its index among the wanted */
	size_t bucket[SELECT_MAX_RANKS];  /* per rank: its bucket */
	size_t start[SELECT_MAX_RANKS];   /* per wanted bucket: its region in scratch */
	uint32_t cursor[SELECT_MAX_RANKS];
	size_t nb, nwanted = 0, used = 0;
	int shift, bits;

	if (n > UINT32_MAX || nr > SELECT_MAX_RANKS)
		return false;
	if (kmin == kmax) {
		for (size_t r = 0; r < nr; r++)
			val[r] = v[0];
		return true;
	}
	/* Keys between kmin and kmax share every bit above the highest that
	 * differs between those two: the bits from it down order them. */
	bits = 64 - __builtin_clzll((unsigned long long)n | 1) - 3;
	bits = bits < 8 ? 8 : bits > SELECT_BITS_MAX ? SELECT_BITS_MAX : bits;
	shift = 64 - __builtin_clzll(kmin ^ kmax) - bits;
	if (shift < 0)
		shift = 0;
	base = kmin >> shift;
	nb = (size_t)((kmax >> shift) - base) + 1;
	below = ss_calloc(nb + 1, sizeof(*below));
	slot = ss_calloc(nb, sizeof(*slot));
	if (!below || !slot) {
		ss_free(below);
		ss_free(slot);
		return false;
	}
	for (size_t i = 0; i < n; i++)
		below[(key_of(v[i]) >> shift) - base + 1]++;
	for (size_t b = 1; b <= nb; b++)
		below[b] += below[b - 1];
	/* A rank's bucket: the last one starting at or before it. */
	for (size_t r = 0; r < nr; r++) {
		size_t lo = 0, hi = nb - 1;

		while (lo < hi) {
			size_t mid = lo + (hi - lo + 1) / 2;

			if (below[mid] <= rank[r])
				lo = mid;
			else
				hi = mid - 1;
		}
		bucket[r] = lo;
		slot[lo] = 1;
	}
	/* The wanted buckets, in bucket order, end to end in scratch. */
	for (size_t b = 0; b < nb; b++) {
		if (!slot[b])
			continue;
		start[nwanted] = used;
		cursor[nwanted] = (uint32_t)used;
		slot[b] = (uint16_t)++nwanted;
		used += below[b + 1] - below[b];
	}
	for (size_t i = 0; i < n; i++) {
		uint16_t s = slot[(key_of(v[i]) >> shift) - base];

		if (s)
			scratch[cursor[s - 1]++] = v[i];
	}
	for (size_t w = 0; w < nwanted; w++)
		sort_values(scratch + start[w], cursor[w] - start[w]);
	for (size_t r = 0; r < nr; r++) {
		size_t b = bucket[r];

		val[r] = scratch[start[slot[b] - 1] + (rank[r] - below[b])];
	}
	ss_free(below);
	ss_free(slot);
	return true;
}

/* The percentiles of a summary, in struct ss_stats order. */
static const double PERCENTILES[] = {1, 5, 10, 25, 50, 75, 90, 95, 99};
#define NPCT (sizeof(PERCENTILES) / sizeof(PERCENTILES[0]))

void ss_stats_compute_sum(const double *v, size_t n, double sum, double *scratch,
			  struct ss_stats *out)
{
	double sq = 0.0;
	uint64_t kmin = UINT64_MAX, kmax = 0;
	bool negzero = false;
	/* min, max, then the low and high rank of each percentile */
	size_t rank[2 + 2 * NPCT];
	double val[2 + 2 * NPCT], t[NPCT];
	double *pct[NPCT] = {&out->p1, &out->p5, &out->p10, &out->p25, &out->p50,
			     &out->p75, &out->p90, &out->p95, &out->p99};
	const size_t nr = 2 + 2 * NPCT;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	out->sum = sum;
	out->avg = sum / (double)n;
	/*
	 * The squares in input order, and the range of the keys: one pass,
	 * the keys' work filling the time each addition waits for the last.
	 */
	for (size_t i = 0; i < n; i++) {
		double d = v[i] - out->avg;
		uint64_t k = key_of(v[i]);

		sq += d * d;
		kmin = k < kmin ? k : kmin;
		kmax = k > kmax ? k : kmax;
		negzero |= v[i] == 0.0 && signbit(v[i]);
	}
	out->std = sqrt(sq / (double)n);
	out->count = n;

	rank[0] = 0;
	rank[1] = n - 1;
	for (size_t j = 0; j < NPCT; j++)
		percentile_ranks(n, PERCENTILES[j], &rank[2 + 2 * j], &rank[3 + 2 * j], &t[j]);
	if (n < RADIX_MIN || negzero || !select_ranks(v, n, kmin, kmax, scratch, rank, val, nr)) {
		memcpy(scratch, v, n * sizeof(*v));
		sort_values(scratch, n);
		for (size_t r = 0; r < nr; r++)
			val[r] = scratch[rank[r]];
	}
	out->min = val[0];
	out->max = val[1];
	for (size_t j = 0; j < NPCT; j++)
		*pct[j] = lerp(val[2 + 2 * j], val[3 + 2 * j], t[j]);
}
