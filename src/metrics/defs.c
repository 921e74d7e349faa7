/*
 * defs.c - the sums of SPEC 7.12's definitions.
 */
#include "metrics/defs.h"

#include "util/ratio.h"

void ss_defs_add(struct ss_defs *d, const struct ss_outcome *o)
{
	double al;

	if (o->status != SS_ST_OK || !o->has_steps)
		return;
	/* SPEC 7.13: from the counts; a zero step count gives 1.0 (SPEC 2.4) */
	al = 1.0 + ss_ratio((unsigned __int128)o->accepted, (unsigned __int128)o->steps);
	d->n++;
	d->sum_al += al;
	d->sum_acc += (unsigned __int128)o->accepted;
	d->sum_steps += (unsigned __int128)o->steps;
	if (!o->has_completion || o->completion_tokens < 1)
		return;
	d->n_out++;
	d->sum_c_al += (double)o->completion_tokens * al;
	d->sum_c += (unsigned __int128)o->completion_tokens;
	if (o->steps < 1)
		return;
	d->n_prefill++;
	d->sum_c_per_s += ss_ratio((unsigned __int128)o->completion_tokens, (unsigned __int128)o->steps);
}
