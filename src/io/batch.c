/*
 * batch.c - the batch of framed requests handed from the reader to the
 * workers. Arrays grow by doubling and keep their memory across resets.
 */
#include "io/batch.h"

#include <string.h>

#include "util/alloc.h"
#include "util/grow.h"

void ss_batch_init(struct ss_batch *b)
{
	memset(b, 0, sizeof(*b));
}

void ss_batch_reset(struct ss_batch *b)
{
	/* A slot that once held a huge line must not keep it for the run. */
	if (b->cap > SS_BATCH_KEEP_BYTES) {
		ss_free(b->buf);
		b->buf = NULL;
		b->cap = 0;
	}
	if (b->units_cap > 2 * SS_BATCH_MAX_UNITS) {
		ss_free(b->units);
		b->units = NULL;
		b->units_cap = 0;
	}
	if (b->off_cap > 16 * SS_BATCH_MAX_UNITS || b->len_cap > 16 * SS_BATCH_MAX_UNITS) {
		ss_free(b->part_off);
		ss_free(b->part_len);
		b->part_off = b->part_len = NULL;
		b->off_cap = b->len_cap = 0;
	}
	b->len = 0;
	b->nunits = 0;
	b->nparts = 0;
}

void ss_batch_release(struct ss_batch *b)
{
	ss_free(b->buf);
	ss_free(b->units);
	ss_free(b->part_off);
	ss_free(b->part_len);
	ss_batch_init(b);
}

bool ss_batch_reserve(struct ss_batch *b, size_t n)
{
	return ss_batch_reserve_at(b, b->len, n);
}

#define FIRST_CAP ((size_t)2 << 20)

bool ss_batch_reserve_at(struct ss_batch *b, size_t used, size_t n)
{
	size_t need, cap;
	char *p;

	if (n > SIZE_MAX - SS_BATCH_PADDING - used)
		return false;
	need = used + n + SS_BATCH_PADDING;
	if (need <= b->cap)
		return true;
	/*
	 * A first buffer is as large as a batch of the run's target grows
	 * to (its 1 MiB of text and the read past it): it comes from calloc,
	 * whose fresh pages cost nothing until they are written, and then
	 * never has to grow and be cleared piece by piece.
	 */
	cap = b->cap ? b->cap : FIRST_CAP;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	/*
	 * Past the size a batch keeps, grow by a quarter, not to the next
	 * power of two (up to twice the text, all of it touched by the
	 * memset below): still geometric, so an SSE stream of many events
	 * is not copied once per event.
	 */
	if (cap > SS_BATCH_KEEP_BYTES && need > SS_BATCH_KEEP_BYTES / 2)
		cap = need > SIZE_MAX / 5 * 4 ? need : need + need / 4;
	/*
	 * simdjson reads the first padding byte after a text (to rule out a
	 * stray '}'); after the last text of a batch it is fresh memory:
	 * give it a defined value (found by valgrind, tests/valgrind.sh).
	 * A first buffer comes zeroed from calloc (for a batch's megabytes,
	 * fresh pages the kernel zeroed: no clearing of our own, which was
	 * 8% of the instructions of a 10 MB records run, counted per byte);
	 * a grown one has its new part cleared.
	 */
	if (!b->buf) {
		p = ss_calloc(1, cap);
		if (!p)
			return false;
	} else {
		p = ss_realloc(b->buf, cap);
		if (!p)
			return false;
		memset(p + b->cap, 0, cap - b->cap);
	}
	b->buf = p;
	b->cap = cap;
	return true;
}

struct ss_unit *ss_batch_add_unit(struct ss_batch *b, uint64_t line, bool sse,
				  bool oversize)
{
	struct ss_unit *u;

	if (!SS_ALLOC_GROW(b->units, b->nunits + 1, b->units_cap))
		return NULL;
	u = &b->units[b->nunits++];
	u->line = line;
	u->first_part = b->nparts;
	u->nparts = 0;
	u->sse = sse;
	u->oversize = oversize;
	return u;
}

bool ss_batch_add_part(struct ss_batch *b, size_t off, size_t len)
{
	if (b->nunits == 0)
		return false;
	if (!SS_ALLOC_GROW(b->part_off, b->nparts + 1, b->off_cap) ||
	    !SS_ALLOC_GROW(b->part_len, b->nparts + 1, b->len_cap))
		return false;
	b->part_off[b->nparts] = off;
	b->part_len[b->nparts] = len;
	b->nparts++;
	b->units[b->nunits - 1].nparts++;
	return true;
}
