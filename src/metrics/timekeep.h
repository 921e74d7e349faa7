/*
 * timekeep.h - the per-request timing a result set keeps for SPEC 11
 * (--speedup): what 11.2's statistics and 11.3's resamples read of each
 * request with any time (11.1), in input order, and whether its ok records
 * share one draft length k (11.3's draft cost needs k).
 *
 * Kept by what reads it, so that a request costs as few bytes as the
 * outputs asked for need (the end of a large run reads them all):
 *  - each time's present values, one column a time in input order, and
 *    their sum added up in that order: 3.1's statistics read the column
 *    as it is (no gathering, no copy);
 *  - the decode sums of 11.2's X, Σ (latency - TTFT) and Σ (c - 1) over
 *    the requests with both times and c >= 2, added up in input order;
 *  - only when ss_timekeep_keep_draws() was called (the set may be
 *    resampled: --compare, 7.2), one draw record a request, what a
 *    resample adds up (analysis/bootstrap.h).
 * A column grows in place where the system can (timecol.h): no copies.
 *
 * Ownership: the set owns its columns and draws until
 * ss_timekeep_release(); readers borrow them for as long as nothing is
 * added.
 */
#ifndef SS_TIMEKEEP_H
#define SS_TIMEKEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrics/timecol.h"
#include "model/timing.h"

/*
 * What a resample reads of one request: latency and TTFT in ms, NaN when
 * absent (a kept time is finite: 11.1), and c - 1 when the request has
 * both times and c >= 2, else 0. Its decode time is lat - ttft, the same
 * subtraction the decode sum adds.
 */
struct ss_tdraw {
	double lat, ttft;
	uint64_t dec_tokens;
};

/* Whether the ok records of a set share one num_spec_tokens. */
enum ss_kstate {
	SS_KS_NONE = 0,  /* no ok record yet */
	SS_KS_ONE,       /* every ok record so far has k */
	SS_KS_MIXED      /* two values, or an ok record without one */
};

struct ss_timekeep {
	size_t n;                        /* the requests with any time */
	struct ss_timecol col[SS_T_COUNT]; /* each time's present values */
	double sum[SS_T_COUNT];          /* of each column, in input order */
	double dec_ms;                   /* Σ (latency - TTFT), input order */
	unsigned __int128 dec_tokens;    /* Σ (c - 1) */
	uint64_t dec_requests;           /* the requests the two sums are over */
	bool keep_draws;
	struct ss_tdraw *draw;           /* n records when keep_draws; owned */
	size_t draw_cap;
	enum ss_kstate kstate;
	int64_t k;
};

void ss_timekeep_init(struct ss_timekeep *tk);
void ss_timekeep_release(struct ss_timekeep *tk);
/* Keep a draw record a request too (call before the first add). */
void ss_timekeep_keep_draws(struct ss_timekeep *tk);
/*
 * Keep one request's timing (nothing when it has no time). false when out
 * of memory (the set is unchanged).
 */
bool ss_timekeep_add(struct ss_timekeep *tk, const struct ss_timing *t);
/* An ok record of the set, with its num_spec_tokens when has_k. */
void ss_timekeep_note_k(struct ss_timekeep *tk, bool has_k, int64_t k);
/* The shared k of the set's ok records: false when there is none. */
bool ss_timekeep_k(const struct ss_timekeep *tk, int64_t *k);

#endif
