/*
 * timeline.h - what SPEC 7.8 (acceptance over time) keeps of the main
 * results: a few numbers per timed ok record with steps, in input order.
 * The windows start at the smallest time, known only at the end, so the
 * points are kept until then (40 bytes each); analysis/windows.c folds
 * them into windows.
 *
 * Ownership: the timeline owns its points until ss_timeline_release();
 * readers borrow `pts` for as long as no point is added.
 */
#ifndef SS_TIMELINE_H
#define SS_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ss_time_point {
	int64_t t_ns;               /* 0..2^63-1 */
	int64_t steps, accepted, drafted;
	double al;                  /* the record's mean_acceptance_length, NAN: none */
};

struct ss_timeline {
	bool keep;                  /* --windows asked for */
	struct ss_time_point *pts;  /* input order */
	size_t n, cap;
	uint64_t untimed;           /* ok records with steps that have no time */
};

void ss_timeline_init(struct ss_timeline *tl);
void ss_timeline_release(struct ss_timeline *tl);
/* Room for one more point. false: out of memory. */
bool ss_timeline_grow(struct ss_timeline *tl);

/* Add one ok record with steps; timed false counts it untimed. false: out of memory. */
static inline bool ss_timeline_add(struct ss_timeline *tl, bool timed, const struct ss_time_point *p)
{
	if (!timed) {
		tl->untimed++;
		return true;
	}
	if (tl->n == tl->cap && !ss_timeline_grow(tl))
		return false;
	tl->pts[tl->n++] = *p;
	return true;
}

#endif
