/*
 * profile_out.h - the document of --acceptance-profile (SPEC 11.5) from a
 * finished analysis: one entry per 7.1 `by_k` row of the main results
 * (key {}) and of each group in key order (its key values), written by
 * analysis/profile.h with the reports' number form.
 *
 * Ownership: appends to a buffer the caller owns; the aggregate and the
 * analysis are borrowed for the call.
 */
#ifndef SS_PROFILE_OUT_H
#define SS_PROFILE_OUT_H

#include "analysis/analyze.h"
#include "metrics/aggregate.h"
#include "util/buf.h"

void ss_profile_render(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an);

#endif
