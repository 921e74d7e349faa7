/*
 * timestats.h - SPEC 11.2's timing statistics of a result set: 3.1's
 * statistics (metrics/stats.h, unit ms) of each time over the requests
 * that have it, in input order, and the token-weighted decode time per
 * token X = Σ (latency - TTFT) / Σ (c - 1) over the requests with both
 * times and c >= 2 (the pooled inter-token latency: every decoded token
 * weighs the same).
 *
 * Ownership: a struct ss_timing_stats is a plain value; the kept timing
 * (metrics/timekeep.h) is borrowed for the call.
 */
#ifndef SS_TIMESTATS_H
#define SS_TIMESTATS_H

#include <stdbool.h>
#include <stdint.h>

#include "metrics/stats.h"
#include "metrics/timekeep.h"

struct ss_timing_stats {
	uint64_t requests;          /* n: the requests with any time */
	bool has[SS_T_COUNT];       /* some request has the time */
	struct ss_stats s[SS_T_COUNT];
	bool has_x;                 /* some request has both times and c >= 2 */
	double x;                   /* decode_ms_per_token */
	uint64_t x_requests;        /* the requests X is taken over */
};

/*
 * The statistics of `tk` (any number of samples). false when out of
 * memory (the scratch space of the percentiles).
 */
bool ss_timing_stats_compute(const struct ss_timekeep *tk, struct ss_timing_stats *out);

#endif
