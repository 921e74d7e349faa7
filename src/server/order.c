/*
 * order.c - SPEC 10.3's order for a process whose snapshots did not come
 * in it (contract in server_int.h): each closing snapshot's values are
 * kept per fe (its key: time and the counters' sum), so that at the end
 * the snapshots can be sorted into the process's order, every pair of
 * neighbours checked (a counter that goes down between two of them
 * leaves input order standing: `unordered`), and the intervals listed in
 * that order. Kept within the budget and SS_SERVER_MAX_INTERVALS points
 * per fe; past either they are let go (told once) and the window alone
 * is right, as it was.
 */
#include <stdlib.h>
#include <string.h>

#include "server/server_int.h"
#include "util/alloc.h"
#include "util/grow.h"

void ss_server_points_free(struct ss_server_fe *f)
{
	ss_free(f->pts);
	ss_free(f->vals);
	f->pts = NULL;
	f->vals = NULL;
	f->npts = f->pts_cap = f->nvals = f->vals_cap = 0;
}

/* Values kept per fe at most (16 bytes each), beside the budget. */
#define MAX_VALUES ((size_t)1 << 20)

/* Let the fe's points go: too many, or no room (told once). */
static void drop(struct ss_server *s, struct ss_server_fe *f)
{
	ss_server_points_free(f);
	ss_server_refund(s, f->pts_charged); /* the budget is the others' again */
	f->pts_charged = 0;
	f->pts_dropped = true;
	ss_server_bound(s, NULL, 0, "the snapshots of a process kept for its order past "
				    "100,000 or the memory limit's share: if they came out of "
				    "order, its window stays right but its intervals are not "
				    "listed and only its first and last snapshot are checked");
}

/*
 * Room for one more of n items of size sz at p (capacity *cap), counted
 * against the budget: the array (moved or not), or NULL (p unchanged).
 */
static void *room(struct ss_server *s, struct ss_server_fe *f, void *p, size_t n, size_t *cap,
		  size_t sz)
{
	size_t ncap;
	void *q;

	if (n < *cap)
		return p;
	ncap = *cap ? 2 * *cap : 16;
	if (!ss_server_charge(s, (uint64_t)(ncap - *cap) * sz))
		return NULL;
	f->pts_charged += (uint64_t)(ncap - *cap) * sz;
	q = ss_reallocarray(p, ncap, sz);
	if (q)
		*cap = ncap;
	return q;
}

void ss_server_points_add(struct ss_server *s, const uint32_t *tps, size_t n, bool has_time,
			  int64_t t_ns)
{
	for (size_t i = 0; i < s->ntouched; i++) {
		struct ss_server_fe *f = &s->fe[s->touched[i]];

		if (f->pts_dropped)
			continue;
		struct ss_server_point *pt = f->npts < SS_SERVER_MAX_INTERVALS
			? room(s, f, f->pts, f->npts, &f->pts_cap, sizeof(*f->pts)) : NULL;

		if (!pt) {
			drop(s, f);
			continue;
		}
		f->pts = pt;
		f->pts[f->npts++] = (struct ss_server_point){has_time, t_ns, f->snap_sum,
							     (uint32_t)f->t, f->nvals, 0};
	}
	for (size_t i = 0; i < n; i++) {
		const struct ss_server_pseries *se = &s->ps[tps[i]];
		const struct ss_server_series *g = &s->series[se->series];
		struct ss_server_fe *f = &s->fe[se->fe];

		if (f->touched != s->snap_id || g->valued != s->snap_id || f->pts_dropped)
			continue;
		struct ss_server_pval *pv = f->nvals < MAX_VALUES
			? room(s, f, f->vals, f->nvals, &f->vals_cap, sizeof(*f->vals)) : NULL;

		if (!pv) {
			drop(s, f);
			continue;
		}
		f->vals = pv;
		f->vals[f->nvals++] = (struct ss_server_pval){tps[i], g->cur};
		f->pts[f->npts - 1].n++;
	}
}

/* The sort: by time or by the counters' sum, then input order (stable). */
static int cmp_time(const void *a, const void *b)
{
	const struct ss_server_point *x = a, *y = b;

	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	return (x->nth > y->nth) - (x->nth < y->nth);
}

static int cmp_sum(const void *a, const void *b)
{
	const struct ss_server_point *x = a, *y = b;

	if (x->sum != y->sum)
		return x->sum < y->sum ? -1 : 1;
	return (x->nth > y->nth) - (x->nth < y->nth);
}

/* The fe's points in its order (a copy), and each series' last value so far (zeroed). */
struct walk {
	struct ss_server_point *p;
	uint64_t *prev;
	uint64_t *seen;   /* 1 + the sorted index of the last point that held it, 0 none */
};

static bool walk_open(const struct ss_server *s, const struct ss_server_fe *f, bool by_time,
		      struct walk *w)
{
	memset(w, 0, sizeof(*w));
	w->p = ss_reallocarray(NULL, f->npts ? f->npts : 1, sizeof(*w->p));
	w->prev = ss_calloc(s->nps ? s->nps : 1, sizeof(*w->prev));
	w->seen = ss_calloc(s->nps ? s->nps : 1, sizeof(*w->seen));
	if (!w->p || !w->prev || !w->seen)
		return false;
	memcpy(w->p, f->pts, f->npts * sizeof(*w->p));
	qsort(w->p, f->npts, sizeof(*w->p), by_time ? cmp_time : cmp_sum);
	return true;
}

/*
 * One value of the walk's point i: its difference from the series' last
 * value in this order, the seen and last values then set to it. A value
 * that went down is a reset (d = v, *down set); a series new after the
 * first point counts from 0 unless snapshots hold only some series. false
 * when nothing counts (the first point's values, a sparse new series).
 */
static bool walk_diff(struct walk *w, const struct ss_server_fe *f, size_t i,
		      const struct ss_server_pval *pv, uint64_t *d, bool *down)
{
	bool seen = w->seen[pv->ps], counts = seen || (i > 0 && !f->sparse);

	*d = 0;
	if (seen && pv->v < w->prev[pv->ps]) {
		*d = pv->v;
		*down = true;
	} else if (seen) {
		*d = pv->v - w->prev[pv->ps];
	} else if (counts) {
		*d = pv->v;
	}
	w->seen[pv->ps] = i + 1;
	w->prev[pv->ps] = pv->v;
	return counts;
}

static void walk_close(struct walk *w)
{
	ss_free(w->p);
	ss_free(w->prev);
	ss_free(w->seen);
}

int ss_server_order_check(const struct ss_server *s, const struct ss_server_fe *f)
{
	struct walk w;
	int r = 1;

	if (f->pts_dropped || f->npts != f->snaps)
		return 1; /* not kept: the tracks' check alone */
	if (!walk_open(s, f, false, &w)) {
		walk_close(&w);
		return -1;
	}
	for (size_t i = 0; i < f->npts && r == 1; i++)
		for (size_t j = 0; j < w.p[i].n; j++) {
			const struct ss_server_pval *pv = &f->vals[w.p[i].off + j];

			if (w.seen[pv->ps] && pv->v < w.prev[pv->ps]) {
				r = 0; /* down between two neighbours that hold it */
				break;
			}
			w.seen[pv->ps] = i + 1;
			w.prev[pv->ps] = pv->v;
		}
	walk_close(&w);
	return r;
}

bool ss_server_order_intervals(const struct ss_server *s, const struct ss_server_fe *f,
			       bool by_time, struct ss_server_raw_interval **out, size_t *nout)
{
	struct walk w;
	struct ss_server_raw_interval *iv = NULL;

	*out = NULL;
	*nout = 0;
	if (f->pts_dropped || f->npts != f->snaps || f->npts < 2)
		return true;
	if (!walk_open(s, f, by_time, &w) ||
	    !(iv = ss_calloc(f->npts - 1, sizeof(*iv)))) {
		walk_close(&w);
		return false;
	}
	for (size_t i = 0; i < f->npts; i++) {
		struct ss_server_iv_sums sums;

		memset(&sums, 0, sizeof(sums));
		for (size_t j = 0; j < w.p[i].n; j++) {
			const struct ss_server_pval *pv = &f->vals[w.p[i].off + j];
			const struct ss_server_pseries *se = &s->ps[pv->ps];
			uint64_t d;
			bool down = false;

			if (w.seen[pv->ps] && pv->v < w.prev[pv->ps] && !by_time) {
				/* a counter down in counter order too: the order
				 * is not the process's, its intervals are not
				 * listed (the window, read as the pages came, stays) */
				walk_close(&w);
				ss_free(iv);
				return true;
			}
			(void)walk_diff(&w, f, i, pv, &d, &down); /* in time order down is a reset */
			if (se->role < SS_ROLE_SCALARS)
				sums.v[se->role] += d;
			else if (se->role == SS_ROLE_POS_DRAFTED && se->position == 1)
				sums.dp1 += d;
		}
		if (i == 0)
			continue;
		iv[i - 1] = (struct ss_server_raw_interval){.has_start = w.p[i - 1].has_time,
							    .start_ns = w.p[i - 1].t_ns,
							    .has_end = w.p[i].has_time,
							    .end_ns = w.p[i].t_ns};
		ss_family_derive(&ss_family_rows[f->row], sums.v, sums.dp1, &iv[i - 1].steps,
				 &iv[i - 1].drafted, &iv[i - 1].accepted);
	}
	walk_close(&w);
	*out = iv;
	*nout = f->npts - 1;
	return true;
}

bool ss_server_order_window(const struct ss_server *s, const struct ss_server_fe *f,
			    struct ss_server_acc *delta, struct ss_server_acc *first,
			    uint64_t *resets, bool *kept)
{
	struct walk w;
	bool ok = true;

	*resets = 0;
	*kept = !f->pts_dropped && f->npts == f->snaps;
	if (!*kept)
		return true;
	if (!walk_open(s, f, true, &w)) {
		walk_close(&w);
		return false;
	}
	for (size_t i = 0; i < f->npts && ok; i++) {
		bool down = false;

		for (size_t j = 0; j < w.p[i].n && ok; j++) {
			const struct ss_server_pval *pv = &f->vals[w.p[i].off + j];
			const struct ss_server_pseries *se = &s->ps[pv->ps];

			uint64_t d;

			if (walk_diff(&w, f, i, pv, &d, &down))
				ok = ss_server_acc_put(delta, se, d);
			else if (i == 0)
				ok = ss_server_acc_put(first, se, pv->v); /* s_0's */
		}
		*resets += down;
	}
	walk_close(&w);
	return ok;
}
