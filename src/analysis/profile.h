/*
 * profile.h - SPEC 11.5's acceptance profile: the measured acceptance of
 * each 7.1 `by_k` row as the inputs simulators and synthetic-acceptance
 * runs take: vLLM's synthetic rejection sampler (the unconditional rate
 * per position) and Dynamo's and AIConfigurator's `--aic-nextn K
 * --aic-nextn-accept-rates c_1,...,c_K` (conditional rates, `%.4f`, a null
 * one written 0, only for K <= 5).
 *
 * The document is one line: {"profiles": [ENTRY, ...]} with `, ` and `: `
 * between items, as SPEC writes it, then a newline. Its numbers are
 * written by the caller's `add_double` (the reports' shortest round-trip
 * form, report/numfmt.h, so this stage needs no report code), its key
 * object is the caller's JSON text (`{}` for the main results).
 *
 * Ownership: everything is appended to a buffer the caller owns; the rows
 * and key text are borrowed for the call.
 */
#ifndef SS_PROFILE_H
#define SS_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/positions.h"
#include "util/buf.h"

/* The largest K AIConfigurator takes (--aic-nextn). */
#define SS_PROFILE_AIC_MAX_K 5

/* `{"profiles": [` */
void ss_profile_begin(struct ss_buf *b);
/* `]}` and a newline. */
void ss_profile_end(struct ss_buf *b);

/*
 * One entry for the row `p` under the key object `key_json` (key_len
 * bytes); `first`: no `, ` before it. A row without steps (S_0 = 0) has
 * null for its acceptance length and rates, and no `vllm` or `aic_args`
 * (there is no measured acceptance to start from).
 */
void ss_profile_entry(struct ss_buf *b, bool first, const char *key_json, size_t key_len,
		      const struct ss_pos_result *p, void (*add_double)(struct ss_buf *, double));

/*
 * `--aic-nextn K --aic-nextn-accept-rates c_1,...,c_K` for `p`; false (and
 * nothing appended) when K is not in 1..SS_PROFILE_AIC_MAX_K or the row
 * has no steps.
 */
bool ss_profile_aic_args(struct ss_buf *b, const struct ss_pos_result *p);

#endif
