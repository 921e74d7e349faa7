/*
 * timekeep.h - the per-request timing a result set keeps for SPEC 11
 * (--speedup): a few numbers per request with any time (11.1), in input
 * order, and whether its ok records share one draft length k (11.3's
 * draft cost needs k).
 *
 * One packed sample per request: the statistics of 11.2 read the present
 * times of each tag in input order, the decode time per token sums
 * (latency - TTFT) and (c - 1) over the requests that have both times and
 * c >= 2, and the bootstrap (analysis/bootstrap.h) resamples the samples.
 * Absent numbers are stored as 0 and `flags` says which are present.
 *
 * Ownership: the set owns its samples until ss_timekeep_release(); readers
 * borrow `s` for as long as no sample is added.
 */
#ifndef SS_TIMEKEEP_H
#define SS_TIMEKEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/timing.h"

#define SS_TS_TTFT 1u    /* ms[SS_T_TTFT] is present */
#define SS_TS_ITL 2u     /* ms[SS_T_ITL] */
#define SS_TS_LATENCY 4u /* ms[SS_T_LATENCY] */
#define SS_TS_DECODE 8u  /* dec_ms and dec_tokens: both times and c >= 2 */

struct ss_tsample {
	double ms[SS_T_COUNT]; /* 0 when absent */
	double dec_ms;         /* latency - TTFT */
	uint64_t dec_tokens;   /* c - 1 */
	uint64_t flags;
};

/* Whether the ok records of a set share one num_spec_tokens. */
enum ss_kstate {
	SS_KS_NONE = 0,  /* no ok record yet */
	SS_KS_ONE,       /* every ok record so far has k */
	SS_KS_MIXED      /* two values, or an ok record without one */
};

struct ss_timekeep {
	struct ss_tsample *s;  /* owned, input order */
	size_t n, cap;         /* n: the requests with any time */
	enum ss_kstate kstate;
	int64_t k;
};

void ss_timekeep_init(struct ss_timekeep *tk);
void ss_timekeep_release(struct ss_timekeep *tk);
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
