/*
 * drafted.h - steps pooled by what they drafted and what they accepted, for
 * acceptance by position per drafted token (SPEC 7.9; the rows are computed
 * by analysis/positions.h).
 *
 * A record says what each of its steps drafted through its per-step arrays
 * (per_step_accepted with per_step_drafted, read first when both forms are
 * there) or vLLM's acceptance_histogram_by_draft_length. Where the record
 * lives (a worker), ss_drafted_summarize() turns it into two small sparse
 * histograms: steps that drafted exactly d tokens and steps that accepted
 * exactly j. The aggregate pools them (ss_drafted_add); D_i (steps that
 * drafted position i) and S_i (steps that accepted at least i) follow by
 * suffix sums. A record whose by-length rows do not sum to its
 * num_spec_steps, or that drafted more than SS_POS_MAX_K tokens on a step,
 * is left out and counted (`inconsistent`). Counting only: the order
 * records arrive in does not matter.
 *
 * Ownership: struct ss_drafted owns its two histograms until
 * ss_drafted_release(); the record and the summary given to the functions
 * below are only read.
 */
#ifndef SS_DRAFTED_H
#define SS_DRAFTED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/outcome.h"
#include "model/record.h"
#include "util/grow.h"

struct ss_drafted {
	uint64_t requests;          /* records pooled */
	uint64_t inconsistent;      /* records left out (see above) */
	unsigned __int128 *by_drafted;  /* [d]: steps that drafted exactly d; owned */
	unsigned __int128 *by_accepted; /* [j]: steps that accepted exactly j; owned */
	size_t len;                 /* entries of both (d, j = 0..len-1) */
};

void ss_drafted_init(struct ss_drafted *p);
void ss_drafted_release(struct ss_drafted *p);

/*
 * One ok record's part: for SS_DR_POOLED, *len numbers are appended to
 * `dst`: nd, na, then nd (drafted length, steps) pairs and na (accepted
 * length, steps) pairs, lengths ascending, only those with steps (room in
 * proportion to the record's distinct lengths). SS_DR_NONE when the record
 * does not say what its steps drafted. false when out of memory.
 */
bool ss_drafted_summarize(const struct ss_record *r, struct ss_vec_i64 *dst,
			  enum ss_drafted_state *state, size_t *len);

/* Pool one record's part (len entries at v); false when out of memory. */
bool ss_drafted_add(struct ss_drafted *p, enum ss_drafted_state state, const int64_t *v,
		    size_t len);

#endif
