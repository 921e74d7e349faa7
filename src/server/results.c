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
		if (f->log) {
			ss_free(f->log->buckets);
			ss_free(f->log->iv);
			ss_free(f->log);
		}
	}
	ss_free(r->families);
	memset(r, 0, sizeof(*r));
}

/* A row's sums over its endpoints. */
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
	bool has_p, has_dp;
};

struct labelset {
	uint32_t endpoint;
	const char *p;
	size_t n;
};

static int labelset_cmp(const void *a, const void *b)
{
	const struct labelset *x = a, *y = b;
	size_t n = x->n < y->n ? x->n : y->n;
	int c;

	if (x->endpoint != y->endpoint)
		return x->endpoint < y->endpoint ? -1 : 1;
	c = memcmp(x->p, y->p, n);
	if (c)
		return c;
	return x->n < y->n ? -1 : x->n > y->n;
}

/*
 * SPEC 10.5: `series` counts the distinct label sets (without the
 * position label) on each endpoint, over all the row's names.
 */
static bool row_shape(const struct ss_server *s, const uint32_t *fes, size_t nfes,
		      struct shape *sh)
{
	struct labelset *ls = NULL;
	size_t n = 0, cap = 0;

	memset(sh, 0, sizeof(*sh));
	for (size_t i = 0; i < nfes; i++) {
		const struct ss_server_fe *f = &s->fe[fes[i]];

		for (uint32_t j = f->head; j != SS_SERVER_NONE; j = s->series[j].next) {
			const struct ss_server_series *se = &s->series[j];
			size_t len;
			const char *key = ss_keymap_key(&s->series_map, j, &len);

			if (se->role == SS_ROLE_GAUGE)
				continue; /* SPEC 13: `series` counts the counters' label sets */
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
			ls[n++] = (struct labelset){f->endpoint, key + SS_SERVER_KEY_HEAD,
						    len - SS_SERVER_KEY_HEAD};
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
		struct ss_server_position *p = &fam->positions[i - 1];
		unsigned __int128 acc = at(t, 0, i);

		p->position = i;
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

static bool add_interval(struct ss_server_family *fam, size_t *cap, uint32_t endpoint,
			 const struct ss_server_raw_interval *r)
{
	struct ss_server_interval *iv;

	if (!SS_ALLOC_GROW(fam->intervals, fam->nintervals + 1, *cap))
		return false;
	iv = &fam->intervals[fam->nintervals++];
	iv->endpoint = endpoint;
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

/* Intervals of each endpoint with three or more of the family's snapshots. */
static bool intervals(const struct ss_server *s, struct ss_server_family *fam,
		      const uint32_t *fes, size_t nfes)
{
	size_t cap = 0;

	for (size_t i = 0; i < nfes; i++) {
		const struct ss_server_fe *f = &s->fe[fes[i]];

		if (f->snaps < 3)
			continue;
		for (size_t j = 0; j < f->niv; j++)
			if (!add_interval(fam, &cap, f->endpoint, &f->iv[j]))
				return false;
		if (f->pend_n && !add_interval(fam, &cap, f->endpoint, &f->pending))
			return false;
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

/* The window of SPEC 10.5: over the endpoints with two or more snapshots. */
static void window_times(const struct ss_server *s, struct ss_server_family *fam,
			 const uint32_t *fes, size_t nfes)
{
	bool any = false, start_ok = true, end_ok = true;

	for (size_t i = 0; i < nfes; i++) {
		const struct ss_server_fe *f = &s->fe[fes[i]];

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
	/* One endpoint's unknown time makes the window's edge unknown. */
	fam->has_start = any && start_ok && fam->has_start;
	fam->has_end = any && end_ok && fam->has_end;
}

static bool family(const struct ss_server *s, size_t r, const uint32_t *fes, size_t nfes,
		   const struct ss_server_requests *req, bool has_cost, double cost,
		   struct ss_server_family *fam)
{
	const struct ss_family_row *row = &ss_family_rows[r];
	struct totals t;
	struct shape sh;
	bool ok = true;

	memset(fam, 0, sizeof(*fam));
	memset(&t, 0, sizeof(t));
	fam->row = row;
	fam->estimated = row->estimated;
	fam->inexact = s->inexact[r];
	if (!row_shape(s, fes, nfes, &sh))
		return false;
	fam->series = sh.nseries;
	for (size_t i = 0; i < nfes && ok; i++) {
		const struct ss_server_fe *f = &s->fe[fes[i]];

		fam->snapshots += f->snaps + f->incrs;
		fam->resets += f->resets;
		if (f->snaps == 1) {
			fam->since_start = true;
			ok = totals_add(&t, &f->first);
		} else if (f->snaps >= 2) {
			ok = totals_add(&t, &f->delta);
		}
		ok = ok && totals_add(&t, &f->incr);
	}
	window_times(s, fam, fes, nfes);
	ss_family_derive(row, t.v, at(&t, 1, 1), &fam->steps, &fam->draft_tokens,
			 &fam->accepted_tokens);
	fam->has_draft_tokens = ss_family_has_drafted(row);
	if (ok && fam->steps > 0) {
		divide(&fam->has_acceptance_length, &fam->acceptance_length, &fam->has_rate,
		       &fam->draft_acceptance_rate, fam->has_draft_tokens, fam->steps,
		       fam->draft_tokens, fam->accepted_tokens);
		if (sh.has_p && sh.k > 0)
			ok = positions(fam, &t, &sh, has_cost, cost);
		ok = ok && intervals(s, fam, fes, nfes);
	}
	for (int g = 0; g < SS_FAMILY_GAUGES && row->gauges[g]; g++)
		if (s->gauge[r][g].has)
			fam->gauges[fam->ngauges++] =
				(struct ss_server_gauge){row->gauges[g], s->gauge[r][g].last};
	if (req && req[row->engine].present)
		reconcile(fam, &req[row->engine]);
	ss_free(t.pos[0]);
	ss_free(t.pos[1]);
	return ok;
}

bool ss_server_finish(struct ss_server *s, const struct ss_server_requests req[SS_ENGINE_COUNT],
		      bool has_cost, double cost, struct ss_server_results *out)
{
	uint32_t *fes = NULL;
	bool ok = true;

	memset(out, 0, sizeof(*out));
	if (s->open)
		ss_server_end(s, false, 0);
	out->snapshots = s->snapshots;
	out->bad_lines = s->bad_lines;
	for (size_t e = 0; e < s->endpoints.n; e++)
		out->endpoints += s->endpoint_used[e];
	if (s->msg && s->msg->verbosity >= SS_NORMAL && s->bad_lines > s->bad_shown)
		ss_msg_warn(s->msg, "%llu more bad lines of server inputs not shown (%llu in all)",
			    (unsigned long long)(s->bad_lines - s->bad_shown),
			    (unsigned long long)s->bad_lines);
	if (s->nfe || s->log) {
		fes = ss_calloc(s->nfe + 1, sizeof(*fes));
		out->families = ss_calloc(ss_family_count, sizeof(*out->families));
		ok = fes && out->families;
	}
	for (size_t r = 0; ok && r < ss_family_count; r++) {
		size_t n = 0, cap = ss_family_count;

		if (ss_family_rows[r].source == SS_SRC_LOG) {
			ok = ss_server_log_families(s->log, ss_family_rows[r].engine, out, &cap, s->msg);
			continue;
		}
		/* The row's fes in endpoint order (intervals are listed so). */
		for (size_t e = 0; e < s->endpoints.n; e++) {
			uint32_t f = s->fe_of[e * ss_family_count + r];

			if (f != SS_SERVER_NONE && s->fe[f].head != SS_SERVER_NONE)
				fes[n++] = f;
		}
		if (n == 0)
			continue;
		ok = family(s, r, fes, n, req, has_cost, cost, &out->families[out->nfamilies++]);
	}
	ss_free(fes);
	if (!ok)
		ss_server_results_release(out);
	return ok;
}
