/*
 * bestk.h - choosing k from the group table (report-internal): under
 * `--group-by k` with a draft cost, each group's expected speedup over no
 * speculation, tau / (1 + C k) (SPEC 7.1's model, Leviathan et al. 2023),
 * tau the group's token-weighted acceptance length and k its key value;
 * and the one "best k" line of the console and Markdown reports.
 *
 * The draft cost C is the one SPEC 11.3 lets a group's 7.1 tables use:
 * --draft-cost when given (analysis/speedup.h's ss_cost_choose), else
 * the group's own measured cost (--speedup --compare), so with measured
 * costs each group is judged at its own C.
 *
 * Ownership: borrows everything for the call, keeps nothing.
 */
#ifndef SS_BESTK_H
#define SS_BESTK_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/analyze.h"
#include "metrics/aggregate.h"
#include "util/buf.h"

/* Whether the group table has the Speedup column: `k` is a group key
 * and a draft cost is known (given, or measured for some group). */
bool ss_bestk_column(const struct ss_analysis *an);
/* Group `id`'s expected speedup; false when its k, its tau or the cost is
 * unknown, or 1 + C k is not positive. */
bool ss_bestk_speedup(const struct ss_agg *a, const struct ss_analysis *an, size_t id,
		      double *speedup);
/*
 * Under `--group-by k` alone: `Best k: 3 (expected speedup 2.10x at a draft
 * cost of 0.1 of a target pass)` after `prefix`; without a draft cost, a
 * line saying how to give or measure one. Nothing otherwise.
 */
void ss_bestk_line(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
		   const char *prefix);

#endif
