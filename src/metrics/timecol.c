#include "metrics/timecol.h"

#include <string.h>

#include "util/grow.h"

void ss_timecol_init(struct ss_timecol *c)
{
	memset(c, 0, sizeof(*c));
}

void ss_timecol_release(struct ss_timecol *c)
{
	ss_free(c->v);
	ss_timecol_init(c);
}

bool ss_timecol_reserve(struct ss_timecol *c, size_t extra)
{
	if (extra > SIZE_MAX / sizeof(double) - c->n)
		return false;
	return SS_ALLOC_GROW(c->v, c->n + extra, c->cap);
}
