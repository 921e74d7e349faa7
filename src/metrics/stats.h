/*
 * stats.h - statistics of one per-request metric (SPEC 3.1).
 *
 * Ownership: nothing here allocates; the caller owns the values, the
 * scratch space and the result.
 */
#ifndef SS_STATS_H
#define SS_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct ss_stats {
	double avg, min, max, std, sum;
	double p1, p5, p10, p25, p50, p75, p90, p95, p99;
	size_t count;
};

/*
 * The statistics of v[0..n-1] (n >= 1), given in input order, and `sum`,
 * their sum added up in input order (the aggregate adds the values up as
 * they come, so the result does not depend on -j). `scratch` must hold n
 * doubles: work space, its content is unspecified after.
 */
void ss_stats_compute_sum(const double *v, size_t n, double sum, double *scratch,
			  struct ss_stats *out);

/* The numpy "linear" percentile q (0..100) of sorted[0..n-1]. */
double ss_percentile(const double *sorted, size_t n, double q);

#endif
