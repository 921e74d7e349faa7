/*
 * results.c - ss_server_finish(): the window's sums into SPEC 10.3's
 * figures per family (10.4's fields): acceptance, positions, the rebuilt
 * histogram and its shorter-draft table (7.1's code, analysis/positions.h),
 * intervals, gauges and the reconciliation with the per-request sums.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/positions.h"
#include "server/server_int.h"
#include "util/alloc.h"
#include "util/grow.h"
#include "util/ratio.h"

/* n / d rounded once, n signed (an estimate can go below zero), d > 0. */
static double sratio(__int128 n, unsigned __int128 d)
{
	return n >= 0 ? ss_ratio((unsigned __int128)n, d) : -ss_ratio((unsigned __int128)-n, d);
}

void ss_server_results_release(struct ss_server_results *r)
{
	for (size_t i = 0; i < r->nfamilies; i++) {
		struct ss_server_family *f = &r->families[i];

		ss_free(f->positions);
		ss_free(f->histogram);
		ss_free(f->what_if);
		ss_free(f->intervals);
		ss_free(f->idle);
		for (size_t j = 0; j < f->nprocess_names; j++)
			ss_free(f->process_names[j]);
		ss_free(f->process_names);
		if (f->log) {
			ss_free(f->log->buckets);
			ss_free(f->log->iv);
			ss_free(f->log);
		}
	}
	ss_free(r->families);
	memset(r, 0, sizeof(*r));
}

/*
 * One process's fe of a family: how its window is taken (SPEC 10.3). With
 * `tracked`, input order was not the process's order and the series'
 * tracks give its window (by time or by the counters' sum).
 */
struct fe_view {
	uint32_t fe;
	bool tracked, by_time;
	bool unordered, started;
};

/* A row's sums over its processes. */
struct totals {
	unsigned __int128 v[SS_ROLE_SCALARS];
	unsigned __int128 *pos[2];
	uint32_t npos[2];
};

static bool totals_add(struct totals *t, const struct ss_server_acc *a)
{
	for (int r = 0; r < SS_ROLE_SCALARS; r++)
		t->v[r] += a->v[r];
	for (int w = 0; w < 2; w++) {
		if (a->npos[w] > t->npos[w]) {
			unsigned __int128 *p = ss_reallocarray(t->pos[w], a->npos[w], sizeof(*p));

			if (!p)
				return false;
			memset(p + t->npos[w], 0, (a->npos[w] - t->npos[w]) * sizeof(*p));
			t->pos[w] = p;
			t->npos[w] = a->npos[w];
		}
		for (uint32_t i = 0; i < a->npos[w]; i++)
			t->pos[w][i] += a->pos[w][i];
	}
	return true;
}

static unsigned __int128 at(const struct totals *t, int w, uint32_t pos)
{
	return pos >= 1 && pos <= t->npos[w] ? t->pos[w][pos - 1] : 0;
}

/* What the row's series say about positions: the largest, and which roles exist. */
struct shape {
	uint64_t nseries;
	uint32_t k;
	bool has_p, has_dp, has_dp1;
	bool roles[SS_ROLE_COUNTERS];
};

struct labelset {
	const char *p;
	size_t n;
};

static int labelset_cmp(const void *a, const void *b)
{
	const struct labelset *x = a, *y = b;
	size_t n = x->n < y->n ? x->n : y->n;
	int c;

	c = memcmp(x->p, y->p, n);
	if (c)
		return c;
	return x->n < y->n ? -1 : x->n > y->n;
}

/*
 * SPEC 10.5: `series` counts the distinct label sets (without the
 * position label) over all the row's names and processes; `roles` which
 * counter roles have a series (DP at position 1 apart, for 10.3's missing).
 */
static bool row_shape(const struct ss_server *s, const struct fe_view *v, size_t nfes,
		      struct shape *sh)
{
	struct labelset *ls = NULL;
	size_t n = 0, cap = 0;

	memset(sh, 0, sizeof(*sh));
	for (size_t i = 0; i < nfes; i++) {
		const struct ss_server_fe *f = &s->fe[v[i].fe];

		for (uint32_t j = f->head; j != SS_SERVER_NONE; j = s->ps[j].next) {
			const struct ss_server_pseries *se = &s->ps[j];
			size_t len;
			const char *key = ss_keymap_key(&s->series_map, se->series, &len);

			sh->roles[se->role] = true;
			sh->has_dp1 |= se->role == SS_ROLE_POS_DRAFTED && se->position == 1;
			if (se->role == SS_ROLE_POS_ACCEPTED)
				sh->has_p = true;
			if (se->role == SS_ROLE_POS_DRAFTED)
				sh->has_dp = true;
			if (se->position > sh->k)
				sh->k = se->position;
			if (!SS_ALLOC_GROW(ls, n + 1, cap)) {
				ss_free(ls);
				return false;
			}
			ls[n++] = (struct labelset){key + SS_SERVER_KEY_HEAD, len - SS_SERVER_KEY_HEAD};
		}
	}
	if (n)
		qsort(ls, n, sizeof(*ls), labelset_cmp);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || labelset_cmp(&ls[i - 1], &ls[i]) != 0)
			sh->nseries++;
	ss_free(ls);
	return true;
}

/* Positions 1..k, consistency and, when drafting was fixed, the histogram. */
static bool positions(struct ss_server_family *fam, const struct totals *t,
		      const struct shape *sh, bool has_cost, double cost)
{
	uint32_t k = sh->k;
	unsigned __int128 S = fam->steps, prev = S, sum = 0;
	bool monotone = true, fixed = true;
	struct ss_pos_k pk;
	struct ss_pos_result pr;

	fam->positions = ss_calloc(k, sizeof(*fam->positions));
	if (!fam->positions)
		return false;
	fam->npositions = k;
	for (uint32_t i = 1; i <= k; i++) {
		struct ss_drafted_row *p = &fam->positions[i - 1];
		unsigned __int128 acc = at(t, 0, i);

		p->accepted = acc;
		p->drafted = sh->has_dp ? at(t, 1, i) : S;
		p->has_rate = p->drafted > 0;
		p->rate = p->has_rate ? ss_ratio(acc, p->drafted) : 0.0;
		p->has_conditional = prev > 0;
		p->conditional = prev > 0 ? ss_ratio(acc, prev) : 0.0;
		if (i > 1 && acc > prev)
			monotone = false;
		if (sh->has_dp && at(t, 1, i) != S)
			fixed = false;
		sum += acc;
		prev = acc;
	}
	fam->has_consistent = true;
	fam->consistent = monotone && fam->accepted_tokens >= 0 &&
			  sum == (unsigned __int128)fam->accepted_tokens;
	/* H[0] = S - P_1 needs P_1 <= S, which consistency alone does not give. */
	if (!fam->consistent || !fixed || at(t, 0, 1) > S)
		return true;
	fam->histogram = ss_calloc((size_t)k + 1, sizeof(*fam->histogram));
	if (!fam->histogram)
		return false;
	fam->histogram[0] = S - at(t, 0, 1);
	for (uint32_t j = 1; j < k; j++)
		fam->histogram[j] = at(t, 0, j) - at(t, 0, j + 1);
	fam->histogram[k] = at(t, 0, k);
	pk = (struct ss_pos_k){.k = k, .requests = 0, .h = fam->histogram};
	if (!ss_pos_compute(&pk, has_cost, cost, &pr))
		return false;
	/* Only the shorter-draft table is new here: the positions are above. */
	fam->what_if = pr.what_if;
	pr.what_if = NULL;
	fam->has_cost = has_cost;
	fam->draft_cost = cost;
	fam->suggested_k = pr.suggested_k;
	ss_pos_result_release(&pr);
	return true;
}

static void divide(bool *has_al, double *al, bool *has_rate, double *rate, bool has_d,
		   unsigned __int128 S, unsigned __int128 D, __int128 A)
{
	*has_al = S > 0;
	*al = S > 0 ? 1.0 + sratio(A, S) : 0.0;
	*has_rate = S > 0 && has_d && D > 0;
	*rate = *has_rate ? sratio(A, D) * 100.0 : 0.0;
}

static bool add_interval(struct ss_server_family *fam, size_t *cap, uint32_t process,
			 const struct ss_server_raw_interval *r)
{
	struct ss_server_interval *iv;

	if (!SS_ALLOC_GROW(fam->intervals, fam->nintervals + 1, *cap))
		return false;
	iv = &fam->intervals[fam->nintervals++];
	iv->process = process;
	iv->has_start = r->has_start;
	iv->start_ns = r->start_ns;
	iv->has_end = r->has_end;
	iv->end_ns = r->end_ns;
	iv->steps = r->steps;
	iv->draft_tokens = r->drafted;
	iv->accepted_tokens = r->accepted;
	divide(&iv->has_acceptance_length, &iv->acceptance_length, &iv->has_rate,
	       &iv->draft_acceptance_rate, fam->has_draft_tokens, r->steps, r->drafted,
	       r->accepted);
	return true;
}

/*
 * Every process's intervals add up to the window when each has intervals
 * and none started inside it; where they do not (pages of equal times
 * that disagree, a series first seen on a page the window does not start
 * with), no interval is listed: the window is the figure that stands.
 */
static void drop_unsound(struct ss_server_family *fam)
{
	unsigned __int128 st = 0, dr = 0;
	__int128 ac = 0;
	size_t with = 0;

	for (size_t j = 0; j < fam->nintervals; j++) {
		const struct ss_server_interval *iv = &fam->intervals[j];

		st += iv->steps;
		dr += iv->draft_tokens;
		ac += iv->accepted_tokens;
		with += j == 0 || iv->process != fam->intervals[j - 1].process;
	}
	if (fam->nintervals && fam->started_in_window == 0 && with == fam->processes &&
	    (st != fam->steps || dr != fam->draft_tokens || ac != fam->accepted_tokens))
		fam->nintervals = 0;
}

/* Intervals of each process with three or more of the family's snapshots, in its order. */
static bool intervals(const struct ss_server *s, struct ss_server_family *fam,
		      const struct fe_view *v, size_t nfes)
{
	size_t cap = 0;

	for (size_t i = 0; i < nfes; i++) {
		const struct ss_server_fe *f = &s->fe[v[i].fe];

		if (f->snaps < 3 && !f->slices)
			continue;
		if (v[i].tracked) {
			/* given out of its order: its snapshots sorted into it */
			struct ss_server_raw_interval *r;
			size_t nr;
			bool ok = ss_server_order_intervals(s, f, v[i].by_time, &r, &nr);

			for (size_t j = 0; ok && j < nr; j++)
				ok = add_interval(fam, &cap, (uint32_t)i, &r[j]);
			ss_free(r);
			if (!ok)
				return false;
			continue;
		}
		for (size_t j = 0; j < f->niv; j++)
			if (!add_interval(fam, &cap, (uint32_t)i, &f->iv[j]))
				return false;
		if (f->pend_n && !add_interval(fam, &cap, (uint32_t)i, &f->pending))
			return false;
	}
	drop_unsound(fam);
	return true;
}

/*
 * SPEC 10.3, "Speculation that stops": a process whose last intervals,
 * after one with steps, all have none.
 */
static bool idle(struct ss_server_family *fam)
{
	size_t i = 0;

	while (i < fam->nintervals) {
		size_t j = i, last = SIZE_MAX;
		uint32_t p = fam->intervals[i].process;

		for (; j < fam->nintervals && fam->intervals[j].process == p; j++)
			if (fam->intervals[j].steps > 0)
				last = j;
		if (last != SIZE_MAX && last + 1 < j) {
			const struct ss_server_interval *iv = &fam->intervals[last + 1];
			struct ss_server_idle *d = ss_reallocarray(fam->idle, fam->nidle + 1, sizeof(*d));

			if (!d)
				return false;
			fam->idle = d;
			d[fam->nidle++] = (struct ss_server_idle){p, iv->has_start, iv->start_ns};
		}
		i = j;
	}
	return true;
}

static void reconcile(struct ss_server_family *fam, const struct ss_server_requests *q)
{
	struct ss_server_reconciliation *r = &fam->reconciliation;

	fam->has_reconciliation = true;
	r->steps = q->steps;
	r->accepted = q->accepted;
	r->drafted = q->drafted;
	r->has_steps_ratio = q->steps > 0;
	r->steps_ratio = r->has_steps_ratio ? ss_ratio(fam->steps, q->steps) : 0.0;
	r->has_accepted_ratio = q->accepted > 0;
	r->accepted_ratio = r->has_accepted_ratio ? sratio(fam->accepted_tokens, q->accepted) : 0.0;
	r->steps_off = r->has_steps_ratio && fabs(r->steps_ratio - 1.0) > 0.01;
	r->accepted_off = r->has_accepted_ratio && fabs(r->accepted_ratio - 1.0) > 0.01;
}

/* The window of SPEC 10.5: over the processes with two or more snapshots. */
static void window_times(const struct ss_server *s, struct ss_server_family *fam,
			 const struct fe_view *v, size_t nfes)
{
	bool any = false, start_ok = true, end_ok = true;

	for (size_t i = 0; i < nfes; i++) {
		const struct ss_server_fe *f = &s->fe[v[i].fe];

		if (f->snaps < 2)
			continue;
		if (!f->has_first_time)
			start_ok = false;
		else if (!any || !fam->has_start || f->first_time < fam->start_ns)
			fam->start_ns = f->first_time, fam->has_start = true;
		if (!f->has_last_time)
			end_ok = false;
		else if (!any || !fam->has_end || f->last_time > fam->end_ns)
			fam->end_ns = f->last_time, fam->has_end = true;
		any = true;
	}
	/* One process's unknown time makes the window's edge unknown. */
	fam->has_start = any && start_ok && fam->has_start;
	fam->has_end = any && end_ok && fam->has_end;
}

/* Add d at a pseries' role to an acc of results (its position arrays grown here). */
bool ss_server_acc_put(struct ss_server_acc *a, const struct ss_server_pseries *se, uint64_t d)
{
	int w = se->role - SS_ROLE_POS_ACCEPTED;

	if (se->role < SS_ROLE_SCALARS) {
		a->v[se->role] += d;
		return true;
	}
	if (se->position > a->npos[w]) {
		unsigned __int128 *p = ss_reallocarray(a->pos[w], se->position, sizeof(*p));

		if (!p)
			return false;
		memset(p + a->npos[w], 0, (se->position - a->npos[w]) * sizeof(*p));
		a->pos[w] = p;
		a->npos[w] = a->cap[w] = se->position;
	}
	a->pos[w][se->position - 1] += d;
	return true;
}

/*
 * SPEC 10.3's order for one process: time order when every snapshot is
 * timed; a process known by its start, counter order; else input order.
 * When input order was that order the differences as they came stand;
 * else (v->tracked) the kept snapshots of a timed process are diffed
 * again in time order (order.c), and each series' track gives the window
 * of a process in counter order, or of one whose snapshots were let go:
 * last − first in that order (a series first seen after the first
 * snapshot counts from 0, a value that went down counts as a reset).
 */
static bool fe_order(const struct ss_server *s, struct fe_view *v)
{
	const struct ss_server_fe *f = &s->fe[v->fe];
	int c;

	v->tracked = v->by_time = v->unordered = false;
	if (f->snaps < 2)
		return true;
	if (f->timed == f->snaps) {
		v->by_time = true;
		v->tracked = f->time_back;
		return true;
	}
	if (!s->procs[f->process].has_start)
		return true;
	for (uint32_t j = f->head; j != SS_SERVER_NONE; j = s->ps[j].next)
		if (s->ps[j].by_sum.broken)
			v->unordered = true; /* input order stands */
	if (!v->unordered && f->sum_back) {
		/* every pair of neighbours in counter order, not only the ends */
		c = ss_server_order_check(s, f);
		if (c < 0)
			return false;
		v->unordered = c == 0;
	}
	v->tracked = !v->unordered && f->sum_back;
	return true;
}

/* The window of a tracked fe into delta and first; *reset when a series went down. */
static bool fe_tracked(const struct ss_server *s, const struct fe_view *v,
		       struct ss_server_acc *delta, struct ss_server_acc *first, bool *reset)
{
	const struct ss_server_fe *f = &s->fe[v->fe];
	__int128 min = v->by_time ? f->min_time : f->min_sum;

	*reset = false;
	for (uint32_t j = f->head; j != SS_SERVER_NONE; j = s->ps[j].next) {
		const struct ss_server_pseries *se = &s->ps[j];
		const struct ss_server_track *t = v->by_time ? &se->by_time : &se->by_sum;
		uint64_t d;

		if (!t->has)
			continue;
		if (t->lo_key > min && !f->sparse) {
			d = t->hi; /* first seen after the first snapshot: from 0 */
		} else {
			if (!ss_server_acc_put(first, se, t->lo))
				return false;
			d = t->hi >= t->lo ? t->hi - t->lo : t->hi;
		}
		*reset |= t->hi < t->lo || t->broken;
		if (!ss_server_acc_put(delta, se, d))
			return false;
	}
	return true;
}

static void acc_free(struct ss_server_acc *a)
{
	ss_free(a->pos[0]);
	ss_free(a->pos[1]);
}

/*
 * The row's counters that have no series (SPEC 10.3, "Incomplete
 * families"), in the table's column order: S (DP_1 where steps are
 * drafted position 1), D, A, then SGLang's G and R, or the accept total.
 */
static void missing(struct ss_server_family *fam, const struct shape *sh)
{
	const struct ss_family_row *row = fam->row;
	static const int order[] = {SS_ROLE_STEPS, SS_ROLE_DRAFTED, SS_ROLE_ACCEPTED,
				    SS_ROLE_GEN_TOKENS, SS_ROLE_REQUESTS, SS_ROLE_ACCEPT_TOTAL};

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		int r = order[i];

		if (r == SS_ROLE_STEPS && row->steps_from == SS_STEPS_DRAFTED_AT_1) {
			if (!sh->has_dp1 && fam->nmissing < SS_SERVER_MAX_MISSING)
				fam->missing[fam->nmissing++] = row->names[SS_ROLE_POS_DRAFTED];
			continue;
		}
		if (row->names[r] && !sh->roles[r] && fam->nmissing < SS_SERVER_MAX_MISSING)
			fam->missing[fam->nmissing++] = row->names[r];
	}
}

/* The earliest snapshot time among the fes (SPEC 10.3, "Starts"); false when none is timed. */
static bool earliest(const struct ss_server *s, const struct fe_view *v, size_t n, int64_t *t)
{
	bool any = false;

	for (size_t i = 0; i < n; i++) {
		const struct ss_server_fe *f = &s->fe[v[i].fe];

		if (f->has_min_time && (!any || f->min_time < *t))
			*t = f->min_time, any = true;
	}
	return any;
}

/* Each process's part of the window into t (SPEC 10.3: Order, Differences, Starts). */
static bool processes(const struct ss_server *s, struct ss_server_family *fam, struct fe_view *v,
		      size_t nfes, struct totals *t)
{
	bool all_single = true, untimed = false, ok = true, has_e;
	int64_t e = 0;

	has_e = earliest(s, v, nfes, &e);
	for (size_t i = 0; i < nfes; i++) {
		const struct ss_server_fe *f = &s->fe[v[i].fe];
		const struct ss_server_process *p = &s->procs[f->process];

		all_single &= f->snaps <= 1;
		untimed |= f->snaps > f->timed;
		if (!fe_order(s, &v[i]))
			return false;
		fam->unordered |= v[i].unordered;
		/* started inside the window: its start is after the earliest snapshot */
		v[i].started = f->snaps > 0 && p->has_start && has_e && p->start_s * 1e9 > (double)e;
		fam->started_in_window += v[i].started;
	}
	fam->processes = nfes;
	fam->untimed_starts = nfes > 1 && untimed;
	for (size_t i = 0; i < nfes && ok; i++) {
		const struct ss_server_fe *f = &s->fe[v[i].fe];

		fam->snapshots += f->snaps + f->incrs;
		if (v[i].tracked) {
			struct ss_server_acc d, first;
			bool reset;

			memset(&d, 0, sizeof(d));
			memset(&first, 0, sizeof(first));
			uint64_t nres = 0;
			bool kept = false;

			/* timed: diffed in time order when the snapshots were kept */
			ok = !v[i].by_time ||
			     ss_server_order_window(s, f, &d, &first, &nres, &kept);
			if (ok && !kept) {
				ok = fe_tracked(s, &v[i], &d, &first, &reset);
				nres = reset;
			}
			ok = ok && totals_add(t, &d) && (!v[i].started || totals_add(t, &first));
			fam->resets += nres;
			acc_free(&d);
			acc_free(&first);
		} else if (f->snaps >= 2) {
			fam->resets += f->resets;
			ok = totals_add(t, &f->delta) && (!v[i].started || totals_add(t, &f->first));
		} else if (f->snaps == 1 &&
			   ((all_single && !fam->started_in_window) || v[i].started)) {
			/* since the start; or, when one started inside the window,
			 * only those (the others' one snapshot is a baseline) */
			ok = totals_add(t, &f->first);
		}
		ok = ok && totals_add(t, &f->incr);
	}
	fam->since_start = all_single && fam->snapshots > 0 && fam->started_in_window == 0;
	for (size_t i = 0; i < nfes; i++)
		fam->since_start &= s->fe[v[i].fe].snaps == 1;
	return ok;
}

/* The names intervals and idle refer to, one per process of the family. */
static bool names(const struct ss_server *s, struct ss_server_family *fam,
		  const struct fe_view *v, size_t nfes)
{
	fam->process_names = ss_calloc(nfes ? nfes : 1, sizeof(char *));
	if (!fam->process_names)
		return false;
	fam->nprocess_names = nfes;
	for (size_t i = 0; i < nfes; i++) {
		const char *n = s->procs[s->fe[v[i].fe].process].name;

		if (n && !(fam->process_names[i] = ss_strdup(n)))
			return false;
	}
	return true;
}

static bool family(const struct ss_server *s, size_t r, struct fe_view *v, size_t nfes,
		   const struct ss_server_requests *req, bool has_cost, double cost,
		   struct ss_server_family *fam)
{
	const struct ss_family_row *row = &ss_family_rows[r];
	struct totals t;
	struct shape sh;
	bool ok;

	memset(fam, 0, sizeof(*fam));
	memset(&t, 0, sizeof(t));
	fam->row = row;
	fam->estimated = row->estimated;
	fam->inexact = s->inexact[r];
	if (!row_shape(s, v, nfes, &sh))
		return false;
	fam->series = sh.nseries;
	missing(fam, &sh);
	ok = names(s, fam, v, nfes) && processes(s, fam, v, nfes, &t);
	window_times(s, fam, v, nfes);
	ss_family_derive(row, t.v, at(&t, 1, 1), &fam->steps, &fam->draft_tokens,
			 &fam->accepted_tokens);
	if (fam->nmissing && row->accepted_from == SS_ACC_TOKENS_ESTIMATE)
		fam->accepted_tokens = 0; /* no estimate without all three counters */
	fam->has_draft_tokens = ss_family_has_drafted(row);
	if (ok && fam->steps > 0 && !fam->nmissing) {
		divide(&fam->has_acceptance_length, &fam->acceptance_length, &fam->has_rate,
		       &fam->draft_acceptance_rate, fam->has_draft_tokens, fam->steps,
		       fam->draft_tokens, fam->accepted_tokens);
		if (sh.has_p && sh.k > 0)
			ok = positions(fam, &t, &sh, has_cost, cost);
		ok = ok && intervals(s, fam, v, nfes) && idle(fam);
	}
	for (int g = 0; g < SS_FAMILY_GAUGES && row->gauges[g]; g++)
		if (s->gauge[r][g].has)
			fam->gauges[fam->ngauges++] =
				(struct ss_server_gauge){row->gauges[g], s->gauge[r][g].last};
	if (req && req[row->engine].present) {
		reconcile(fam, &req[row->engine]);
		if (fam->nmissing)
			fam->reconciliation.has_steps_ratio = fam->reconciliation.has_accepted_ratio =
				fam->reconciliation.steps_off = fam->reconciliation.accepted_off = false;
	}
	ss_free(t.pos[0]);
	ss_free(t.pos[1]);
	return ok;
}

/* Whether the row makes a family (SPEC 10.3: SGLang's G and R alone make none). */
static bool row_listed(const struct ss_server *s, size_t r, const struct fe_view *v, size_t n)
{
	for (int g = 0; g < SS_FAMILY_GAUGES; g++)
		if (s->gauge[r][g].has)
			return true;
	for (size_t i = 0; i < n; i++)
		for (uint32_t j = s->fe[v[i].fe].head; j != SS_SERVER_NONE; j = s->ps[j].next)
			if (s->ps[j].role != SS_ROLE_GEN_TOKENS && s->ps[j].role != SS_ROLE_REQUESTS)
				return true;
	return false;
}

/* Processes in time order of their first snapshot when every one is timed, else read order. */
static int view_cmp(const struct ss_server *s, const struct fe_view *x, const struct fe_view *y)
{
	const struct ss_server_fe *f = &s->fe[x->fe], *g = &s->fe[y->fe];

	if (f->min_time != g->min_time)
		return f->min_time < g->min_time ? -1 : 1;
	return f->process < g->process ? -1 : f->process > g->process;
}

static void sort_views(const struct ss_server *s, struct fe_view *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!s->fe[v[i].fe].has_min_time || s->fe[v[i].fe].timed != s->fe[v[i].fe].snaps)
			return;
	/* insertion sort: stable, and the processes of one family are few */
	for (size_t i = 1; i < n; i++) {
		struct fe_view x = v[i];
		size_t j = i;

		while (j > 0 && view_cmp(s, &v[j - 1], &x) > 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

bool ss_server_finish(struct ss_server *s, const struct ss_server_requests req[SS_ENGINE_COUNT],
		      bool has_cost, double cost, struct ss_server_results *out)
{
	struct fe_view *v = NULL;
	bool ok = true;

	memset(out, 0, sizeof(*out));
	if (s->open)
		ss_server_end(s, false, 0);
	out->snapshots = s->snapshots;
	out->bad_lines = s->bad_lines;
	for (size_t p = 0; p < s->procmap.n; p++)
		out->endpoints += s->procs[p].used;
	if (s->msg && s->msg->verbosity >= SS_NORMAL && s->bad_lines > s->bad_shown)
		ss_msg_warn(s->msg, "%llu more bad lines of server inputs not shown (%llu in all)",
			    (unsigned long long)(s->bad_lines - s->bad_shown),
			    (unsigned long long)s->bad_lines);
	if (s->nomem) {
		memset(out, 0, sizeof(*out));
		return false; /* a snapshot lost a part: no result rather than a wrong one */
	}
	v = ss_calloc(s->nfe ? s->nfe : 1, sizeof(*v));
	out->families = ss_calloc(ss_family_count, sizeof(*out->families));
	ok = v && out->families;
	for (size_t r = 0; ok && r < ss_family_count; r++) {
		size_t n = 0, cap = ss_family_count;

		if (ss_family_rows[r].source == SS_SRC_LOG) {
			ok = ss_server_log_families(s->log, ss_family_rows[r].engine, out, &cap, s->msg);
			continue;
		}
		/* The row's fes in process order. */
		for (size_t p = 0; p < s->procmap.n; p++) {
			uint32_t f = s->fe_of[p * ss_family_count + r];

			if (f != SS_SERVER_NONE && s->fe[f].head != SS_SERVER_NONE)
				v[n++] = (struct fe_view){.fe = f};
		}
		if (!row_listed(s, r, v, n))
			continue;
		sort_views(s, v, n);
		ok = family(s, r, v, n, req, has_cost, cost, &out->families[out->nfamilies++]);
	}
	ss_free(v);
	if (!ok)
		ss_server_results_release(out);
	return ok;
}
