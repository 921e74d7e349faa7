/*
 * timecol.h - a growable column of doubles for the kept timing
 * (metrics/timekeep.h): one value a request, appended in input order and
 * read as one array at the end of the run.
 *
 * A column is written once and read a few times, so what it costs is its
 * pages, not its instructions: it grows by doubling, in place where the
 * system can (no copy of what is kept).
 *
 * Ownership: the column owns `v` until ss_timecol_release(); readers
 * borrow v[0..n) for as long as nothing is added.
 */
#ifndef SS_TIMECOL_H
#define SS_TIMECOL_H

#include <stdbool.h>
#include <stddef.h>

struct ss_timecol {
	double *v;
	size_t n, cap;
};

void ss_timecol_init(struct ss_timecol *c);
void ss_timecol_release(struct ss_timecol *c);
/* Room for `extra` more values (nothing is added). false: out of memory,
 * the column unchanged. */
bool ss_timecol_reserve(struct ss_timecol *c, size_t extra);

/* Append x; the caller has reserved room. */
static inline void ss_timecol_put(struct ss_timecol *c, double x)
{
	c->v[c->n++] = x;
}

#endif
