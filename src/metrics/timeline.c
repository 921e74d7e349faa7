/*
 * timeline.c - the points SPEC 7.8's windows are made of.
 */
#include "metrics/timeline.h"

#include <string.h>

#include "util/grow.h"

void ss_timeline_init(struct ss_timeline *tl)
{
	memset(tl, 0, sizeof(*tl));
}

void ss_timeline_release(struct ss_timeline *tl)
{
	bool keep = tl->keep;

	ss_free(tl->pts);
	ss_timeline_init(tl);
	tl->keep = keep;
}

bool ss_timeline_grow(struct ss_timeline *tl)
{
	return SS_ALLOC_GROW(tl->pts, tl->n + 1, tl->cap);
}
