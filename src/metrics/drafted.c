/*
 * drafted.c - steps pooled by drafted and accepted length (SPEC 7.9).
 */
#include "metrics/drafted.h"

#include <string.h>

#include "metrics/poshist.h"
#include "util/alloc.h"

void ss_drafted_init(struct ss_drafted *p)
{
	memset(p, 0, sizeof(*p));
}

void ss_drafted_release(struct ss_drafted *p)
{
	ss_free(p->by_drafted);
	ss_free(p->by_accepted);
	ss_drafted_init(p);
}

/* 2n zero entries appended to dst; the start of them, or NULL. */
static int64_t *room(struct ss_vec_i64 *dst, size_t n)
{
	size_t at = dst->len;

	if (!SS_ALLOC_GROW(dst->v, at + 2 * n, dst->cap))
		return NULL;
	memset(dst->v + at, 0, 2 * n * sizeof(*dst->v));
	dst->len = at + 2 * n;
	return dst->v + at;
}

/* Per-step arrays: identities 4-6 (SPEC 2.5) hold, so a_s <= d_s. */
static bool from_steps(const struct ss_record *r, struct ss_vec_i64 *dst,
		       enum ss_drafted_state *state, size_t *len)
{
	const struct ss_vec_i64 *acc = &r->per_step_accepted, *dr = &r->per_step_drafted;
	int64_t top = 0, *v;
	size_t n;

	for (size_t s = 0; s < dr->len; s++)
		if (dr->v[s] > top)
			top = dr->v[s];
	if (top > SS_POS_MAX_K || acc->len != dr->len) {
		*state = SS_DR_INCONSISTENT;
		return true;
	}
	n = (size_t)top + 1;
	v = room(dst, n);
	if (!v)
		return false;
	for (size_t s = 0; s < dr->len; s++) {
		v[dr->v[s]]++;
		v[n + (size_t)acc->v[s]]++;
	}
	*state = SS_DR_POOLED;
	*len = 2 * n;
	return true;
}

/* By-length rows: they must sum to num_spec_steps (SPEC 7.9). */
static bool from_rows(const struct ss_record *r, struct ss_vec_i64 *dst,
		      enum ss_drafted_state *state, size_t *len)
{
	unsigned __int128 sum = 0;
	int64_t d, top = 0, *v;
	const int64_t *c;
	size_t at = 0, n;

	while (ss_record_bdl_next(r, &at, &d, &c)) {
		for (int64_t j = 0; j <= d; j++) {
			sum += (unsigned __int128)c[j]; /* under 2^20 counts below 2^63 */
			if (c[j] && d > top)
				top = d;
		}
	}
	if (!r->has_steps || sum != (unsigned __int128)r->num_spec_steps || top > SS_POS_MAX_K) {
		*state = SS_DR_INCONSISTENT;
		return true;
	}
	n = (size_t)top + 1;
	v = room(dst, n);
	if (!v)
		return false;
	/* every bucket is at most the sum, num_spec_steps: no overflow */
	at = 0;
	while (ss_record_bdl_next(r, &at, &d, &c)) {
		for (int64_t j = 0; j <= d; j++) {
			if (!c[j])
				continue;
			v[d] += c[j];
			v[n + (size_t)j] += c[j];
		}
	}
	*state = SS_DR_POOLED;
	*len = 2 * n;
	return true;
}

bool ss_drafted_summarize(const struct ss_record *r, struct ss_vec_i64 *dst,
			  enum ss_drafted_state *state, size_t *len)
{
	*state = SS_DR_NONE;
	*len = 0;
	if (r->has_per_step_accepted && r->has_per_step_drafted)
		return from_steps(r, dst, state, len);
	if (r->has_by_draft_length)
		return from_rows(r, dst, state, len);
	return true;
}

/* Room for lengths 0..n-1 in both pooled histograms. */
static bool reserve(struct ss_drafted *p, size_t n)
{
	unsigned __int128 *d, *a;

	if (n <= p->len)
		return true;
	d = ss_realloc(p->by_drafted, n * sizeof(*d));
	if (!d)
		return false;
	p->by_drafted = d;
	a = ss_realloc(p->by_accepted, n * sizeof(*a));
	if (!a)
		return false;
	p->by_accepted = a;
	memset(d + p->len, 0, (n - p->len) * sizeof(*d));
	memset(a + p->len, 0, (n - p->len) * sizeof(*a));
	p->len = n;
	return true;
}

bool ss_drafted_add(struct ss_drafted *p, enum ss_drafted_state state, const int64_t *v,
		    size_t len)
{
	size_t n = len / 2;

	if (state == SS_DR_INCONSISTENT) {
		p->inconsistent++;
		return true;
	}
	if (state != SS_DR_POOLED)
		return true;
	if (!reserve(p, n))
		return false;
	for (size_t i = 0; i < n; i++) {
		p->by_drafted[i] += (unsigned __int128)v[i];
		p->by_accepted[i] += (unsigned __int128)v[n + i];
	}
	p->requests++;
	return true;
}
