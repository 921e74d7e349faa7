/*
 * defs.h - the sums behind the definitions of acceptance length side by
 * side (SPEC 7.12), kept for the main results only: a few numbers for the
 * whole run, added in input order, so the doubles are the same for any -j.
 *
 * Over the ok records with steps (a accepted, s steps, c completion tokens,
 * AL = 1 + a/s from the counts, 1.0 when s is 0):
 *   request_mean    = sum AL / n
 *   step_pooled     = 1 + sum a / sum s
 *   output_weighted = sum c*AL / sum c      over the records with c >= 1
 *   with_prefill    = sum (c/s) / n'        over the records with c >= 1 and s >= 1
 * The values are computed by analysis/analyze.h.
 *
 * Ownership: a plain value; nothing is allocated.
 */
#ifndef SS_DEFS_H
#define SS_DEFS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/outcome.h"

struct ss_defs {
	uint64_t n;                    /* ok records with steps */
	double sum_al;                 /* sum of their AL, in input order */
	unsigned __int128 sum_acc, sum_steps;
	uint64_t n_out;                /* ... of them with completion tokens >= 1 */
	double sum_c_al;               /* sum of c*AL, in input order */
	unsigned __int128 sum_c;
	uint64_t n_prefill;            /* ... with c >= 1 and s >= 1 */
	double sum_c_per_s;            /* sum of c/s, in input order */
};

/* Add one outcome (only ok ones with steps count). */
void ss_defs_add(struct ss_defs *d, const struct ss_outcome *o);

#endif
