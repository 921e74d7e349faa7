/*
 * speedup.h - SPEC 11.3: did speculation pay? A group's timing against
 * its baseline partner's (7.4): the decode speedup X(baseline) / X(group),
 * the latency speedup avg latency(baseline) / avg latency(group) and the
 * TTFT ratio avg TTFT(group) / avg TTFT(baseline); with --ci, each one's
 * percentile interval over 7.2's resamples (each side's timing on its own
 * stream, analysis/bootstrap.h) and whether it excludes 1. Then the draft
 * cost that the measured speedup implies under 7.1's model (speedup =
 * tau / (1 + c k)): c = (tau / speedup - 1) / k, and the choice of the
 * cost 7.1's what-if table uses (given, measured or none).
 *
 * Ownership: plain values; the statistics and resample rows are borrowed
 * for the call.
 */
#ifndef SS_SPEEDUP_H
#define SS_SPEEDUP_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/positions.h"
#include "analysis/timestats.h"

/* The three ratios, in the order of vs_baseline's keys. */
enum ss_speedup_ratio {
	SS_SR_SPEEDUP = 0,   /* speedup: X(base) / X(group) */
	SS_SR_LATENCY,       /* latency_speedup */
	SS_SR_TTFT,          /* ttft_ratio: TTFT(group) / TTFT(base) */
	SS_SR_COUNT
};

/* "speedup", "latency_speedup", "ttft_ratio" */
extern const char *const ss_speedup_names[SS_SR_COUNT];

struct ss_ratio_est {
	bool has;          /* both sides have the value (else left out) */
	double value;
	bool has_ci;       /* with --ci, some resample defines it */
	double lo, hi;
	bool significant;  /* the interval excludes 1 */
};

struct ss_speedup {
	struct ss_ratio_est r[SS_SR_COUNT];
	bool has_cost;       /* draft_cost (else null) */
	double draft_cost;
	bool cost_negative;  /* c < 0: written as it comes, with a note */
};

/*
 * The ratios of a group's timing `g` against its baseline's `base`, and
 * the draft cost from the group's token-weighted acceptance length tau
 * (has_tau) and its draft length k (has_k: every ok record has the same
 * num_spec_tokens).
 */
void ss_speedup_compute(const struct ss_timing_stats *g, const struct ss_timing_stats *base,
			bool has_tau, double tau, bool has_k, int64_t k, struct ss_speedup *out);

/*
 * 11.3's draft cost: (tau / speedup - 1) / k; false (null) when k < 1, the
 * speedup is not > 0 or the result is not finite.
 */
bool ss_draft_cost(double tau, double speedup, int64_t k, double *c);

/*
 * With --ci: the intervals of the ratios from the B resample rows
 * (SS_TB_COUNT doubles each) of the group and of its baseline, at `level`.
 * `scratch` holds B doubles. Only ratios that have a value get one.
 */
void ss_speedup_ci(struct ss_speedup *sp, const double *rows, const double *base_rows,
		   uint32_t B, double level, double *scratch);

/*
 * The cost a group's 7.1 tables use: --draft-cost when given, else the
 * measured cost of `sp` when there is one (sp may be NULL: none). *cost is
 * set unless the source is SS_COST_NONE.
 */
enum ss_cost_source ss_cost_choose(bool given, double given_cost, const struct ss_speedup *sp,
				   double *cost);

#endif
