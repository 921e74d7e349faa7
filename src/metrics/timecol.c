#include "metrics/timecol.h"

#include <stdint.h>
#include <string.h>

#include "util/grow.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

#if defined(__linux__) && defined(MREMAP_MAYMOVE) && defined(MREMAP_FIXED) && \
	defined(MAP_ANONYMOUS)
#define TIMECOL_MAP 1
#endif

void ss_timecol_init(struct ss_timecol *c)
{
	memset(c, 0, sizeof(*c));
	c->map_from = SS_TIMECOL_MAP_FROM;
}

#ifdef TIMECOL_MAP
/* The unit of a mapping's size and alignment. */
#define HUGE_PAGE SS_TIMECOL_MAP_FROM

/*
 * A fresh mapping of `bytes` (a multiple of HUGE_PAGE) at a HUGE_PAGE
 * aligned address: a larger one with its unaligned ends unmapped. NULL
 * when there is none.
 */
static void *map_aligned(size_t bytes)
{
	char *p, *a;
	size_t head;

	if (bytes > SIZE_MAX - HUGE_PAGE)
		return NULL;
	p = mmap(NULL, bytes + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	head = (HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE;
	a = p + head;
	if (head)
		(void)munmap(p, head);
	(void)munmap(a + bytes, HUGE_PAGE - head);
#ifdef MADV_HUGEPAGE
	(void)madvise(a, bytes, MADV_HUGEPAGE);
#endif
	return a;
}

/*
 * Grow to `cap` doubles (cap * 8 a multiple of HUGE_PAGE) as a mapping:
 * from the heap, one copy (less than map_from bytes, once); from a
 * mapping, its pages moved, not copied. false: nothing changed.
 */
static bool grow_mapped(struct ss_timecol *c, size_t cap)
{
	size_t bytes = cap * sizeof(double);
	void *a = map_aligned(bytes);

	if (!a)
		return false;
	if (!c->mapped) {
		if (c->n)
			memcpy(a, c->v, c->n * sizeof(double));
		ss_free(c->v);
	} else if (mremap(c->v, c->cap * sizeof(double), c->cap * sizeof(double),
			  MREMAP_MAYMOVE | MREMAP_FIXED, a) == MAP_FAILED) {
		(void)munmap(a, bytes);
		return false;
	}
	c->v = a;
	c->cap = cap;
	c->mapped = true;
	return true;
}
#endif

void ss_timecol_release(struct ss_timecol *c)
{
#ifdef TIMECOL_MAP
	if (c->mapped)
		(void)munmap(c->v, c->cap * sizeof(double));
	else
#endif
		ss_free(c->v);
	ss_timecol_init(c);
}

bool ss_timecol_grow(struct ss_timecol *c, size_t extra)
{
	size_t need;

	if (extra > SIZE_MAX / sizeof(double) / 2 - c->n)
		return false;
	need = c->n + extra;
	if (need <= c->cap)
		return true;
#ifdef TIMECOL_MAP
	if (need * sizeof(double) > c->map_from) {
		/* doubling, in whole huge pages */
		size_t cap = c->cap * 2 > need ? c->cap * 2 : need;
		size_t per = HUGE_PAGE / sizeof(double);

		cap = (cap + per - 1) / per * per;
		if (grow_mapped(c, cap))
			return true;
		/* no mapping: the heap, as elsewhere */
		if (c->mapped)
			return false;
	}
#endif
	return SS_ALLOC_GROW(c->v, need, c->cap);
}
