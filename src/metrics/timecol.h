/*
 * timecol.h - a growable column of doubles for the kept timing
 * (metrics/timekeep.h): one value a request, appended in input order and
 * read as one array at the end of the run.
 *
 * A column is written once and read a few times, so what it costs is its
 * pages, not its instructions. It grows by doubling. A small column lives
 * on the heap; from SS_TIMECOL_MAP_FROM bytes on (Linux) it is its own
 * 2 MiB aligned mapping that asks for transparent huge pages, and grows
 * by moving its pages into a larger mapping (mremap): no copy of what is
 * kept, and a fault every 2 MiB instead of every 4 KiB where the system
 * grants huge pages (a hint: without them it is only the usual faults).
 * Elsewhere, or when a mapping fails, it stays on the heap.
 *
 * Ownership: the column owns `v` until ss_timecol_release(); readers
 * borrow v[0..n) for as long as nothing is added.
 */
#ifndef SS_TIMECOL_H
#define SS_TIMECOL_H

#include <stdbool.h>
#include <stddef.h>

/* The size from which a column is mapped (a huge page). */
#define SS_TIMECOL_MAP_FROM ((size_t)2 << 20)

struct ss_timecol {
	double *v;
	size_t n, cap;
	size_t map_from;  /* bytes: SS_TIMECOL_MAP_FROM (tests: less) */
	bool mapped;      /* v is a mapping of cap doubles, not heap */
};

void ss_timecol_init(struct ss_timecol *c);
void ss_timecol_release(struct ss_timecol *c);
/* The slow half of ss_timecol_reserve(): the column grows. */
bool ss_timecol_grow(struct ss_timecol *c, size_t extra);

/* Room for `extra` more values (nothing is added). false: out of memory,
 * the column unchanged. */
static inline bool ss_timecol_reserve(struct ss_timecol *c, size_t extra)
{
	return extra <= c->cap - c->n || ss_timecol_grow(c, extra);
}

/* Append x; the caller has reserved room. */
static inline void ss_timecol_put(struct ss_timecol *c, double x)
{
	c->v[c->n++] = x;
}

#endif
