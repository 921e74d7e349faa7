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

/* 2n zero entries appended to dst (a scratch block); its start, or NULL. */
static int64_t *room(struct ss_vec_i64 *dst, size_t n)
{
	size_t at = dst->len;

	if (!SS_ALLOC_GROW(dst->v, at + 2 * n, dst->cap))
		return NULL;
	memset(dst->v + at, 0, 2 * n * sizeof(*dst->v));
	dst->len = at + 2 * n;
	return dst->v + at;
}

/*
 * Replace the dense scratch block at `base` (n counts by drafted length,
 * then n by accepted length) with the part as pairs: nd, na, then nd
 * (length, count) pairs and na more, only the lengths with steps. So a
 * record takes room in proportion to its distinct lengths, never to the
 * largest one (a one-step record drafting 4096 tokens is a few numbers).
 */
static bool to_pairs(struct ss_vec_i64 *dst, size_t base, size_t n, size_t *len)
{
	size_t nd = 0, na = 0, w;
	int64_t *v;

	for (size_t i = 0; i < n; i++) {
		nd += dst->v[base + i] != 0;
		na += dst->v[base + n + i] != 0;
	}
	/* the pairs are written after the block, then moved down over it */
	if (!SS_ALLOC_GROW(dst->v, dst->len + 2 + 2 * (nd + na), dst->cap))
		return false;
	v = dst->v;
	w = dst->len;
	v[w++] = (int64_t)nd;
	v[w++] = (int64_t)na;
	for (size_t half = 0; half < 2; half++)
		for (size_t i = 0; i < n; i++)
			if (v[base + half * n + i]) {
				v[w++] = (int64_t)i;
				v[w++] = v[base + half * n + i];
			}
	*len = w - dst->len;
	memmove(v + base, v + dst->len, *len * sizeof(*v));
	dst->len = base + *len;
	return true;
}

/* Per-step arrays: identities 4-6 (SPEC 2.5) hold, so a_s <= d_s. */
static bool from_steps(const struct ss_record *r, struct ss_vec_i64 *dst,
		       enum ss_drafted_state *state, size_t *len)
{
	const struct ss_vec_i64 *acc = &r->per_step_accepted, *dr = &r->per_step_drafted;
	int64_t top = 0, *v;
	size_t n, base = dst->len;

	if (acc->len != dr->len) {
		*state = SS_DR_INCONSISTENT;
		return true;
	}
	/* (the identities are checked before a record is ok; kept here too,
	 * as the indexes below rely on them) */
	for (size_t s = 0; s < dr->len; s++) {
		if (acc->v[s] < 0 || acc->v[s] > dr->v[s]) {
			*state = SS_DR_INCONSISTENT;
			return true;
		}
		if (dr->v[s] > top)
			top = dr->v[s];
	}
	if (top > SS_POS_MAX_K) {
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
	return to_pairs(dst, base, n, len);
}

/* By-length rows: they must sum to num_spec_steps (SPEC 7.9). */
static bool from_rows(const struct ss_record *r, struct ss_vec_i64 *dst,
		      enum ss_drafted_state *state, size_t *len)
{
	unsigned __int128 sum = 0;
	int64_t d, top = 0, *v;
	const int64_t *c;
	size_t at = 0, n, base = dst->len;

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
	return to_pairs(dst, base, n, len);
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
	size_t nd, na, top = 0;
	const int64_t *pd, *pa;

	if (state == SS_DR_INCONSISTENT) {
		p->inconsistent++;
		return true;
	}
	if (state != SS_DR_POOLED || len < 2)
		return true;
	nd = (size_t)v[0];
	na = (size_t)v[1];
	pd = v + 2;
	pa = pd + 2 * nd;
	/* lengths ascend in each list: the last is the largest */
	if (nd)
		top = (size_t)pd[2 * nd - 2];
	if (na && (size_t)pa[2 * na - 2] > top)
		top = (size_t)pa[2 * na - 2];
	if (!reserve(p, top + 1))
		return false;
	for (size_t i = 0; i < nd; i++)
		p->by_drafted[pd[2 * i]] += (unsigned __int128)pd[2 * i + 1];
	for (size_t i = 0; i < na; i++)
		p->by_accepted[pa[2 * i]] += (unsigned __int128)pa[2 * i + 1];
	p->requests++;
	return true;
}
