#include "analysis/analyze.h"

#include <math.h>
#include <string.h>

#include "util/alloc.h"
#include "util/ratio.h"
#include "util/text.h"

const int ss_boot_metric[SS_BS_COUNT] = {
	[SS_BS_AL] = SS_M_ACCEPTANCE_LENGTH,
	[SS_BS_TWAL] = SS_M_TOKEN_WEIGHTED_AL,
	[SS_BS_DAR] = SS_M_DRAFT_ACCEPTANCE_RATE,
	[SS_BS_ODAR] = SS_M_OVERALL_DAR,
};

void ss_analysis_opts_init(struct ss_analysis_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->level = 95.0;
	o->resamples = 1000;
	o->seed = 1;
	o->rows_budget = (size_t)64 << 20;
}

void ss_analysis_opts_release(struct ss_analysis_opts *o)
{
	ss_group_spec_release(&o->group_by);
	ss_free(o->expects);
	ss_analysis_opts_init(o);
}

bool ss_analysis_needs_positions(const struct ss_analysis_opts *o)
{
	if (o->positions)
		return true;
	for (size_t i = 0; i < o->nexpects; i++)
		if (o->expects[i].metric < 0 && o->expects[i].what == SS_EXV_NONE)
			return true;
	return false;
}

bool ss_analysis_needs_counts(const struct ss_analysis_opts *o)
{
	if (o->outliers)
		return true;
	for (size_t i = 0; i < o->nexpects; i++)
		if (o->expects[i].what == SS_EXV_ALL_REJECTED ||
		    o->expects[i].what == SS_EXV_ALL_ACCEPTED)
			return true;
	return false;
}

static void set_release(struct ss_set_analysis *s)
{
	for (size_t i = 0; i < s->npos; i++)
		ss_pos_result_release(&s->pos[i]);
	ss_free(s->pos);
	ss_drafted_result_release(&s->drafted);
	ss_free(s->rows);
	memset(s, 0, sizeof(*s));
}

void ss_analysis_release(struct ss_analysis *an)
{
	set_release(&an->main);
	for (size_t g = 0; g < an->ngroups; g++)
		set_release(&an->group[g]);
	ss_free(an->group);
	ss_free(an->partner);
	ss_windows_release(&an->windows);
	memset(an, 0, sizeof(*an));
}

static bool set_positions(struct ss_set_analysis *s, const struct ss_results *r,
			  const struct ss_analysis_opts *o)
{
	const struct ss_positions *p = &r->positions;
	double cost = o->cost;
	/* SPEC 11.3: without --draft-cost, a group's measured cost */
	enum ss_cost_source src = ss_cost_choose(o->has_cost, o->cost,
						 s->has_speedup ? &s->speedup : NULL, &cost);

	if (!ss_drafted_compute(&r->drafted, &s->drafted))
		return false;
	if (p->nk == 0)
		return true;
	s->pos = ss_calloc(p->nk, sizeof(*s->pos));
	if (!s->pos)
		return false;
	for (size_t i = 0; i < p->nk; i++) {
		if (!ss_pos_compute_cost(&p->ks[i], src, cost, &s->pos[i]))
			return false;
		s->npos++;
	}
	return true;
}

/* The value of statistic k in a result set: the avg, or the run-level value. */
static bool stat_value(const struct ss_results *r, int k, double *v)
{
	int m = ss_boot_metric[k];

	if (!r->has[m])
		return false;
	*v = r->stats[m].avg;
	return true;
}

/* The result sets in stream order: 0 the main results, i + 1 the i-th group in key order. */
static struct ss_set_analysis *set_at(struct ss_analysis *an, const struct ss_agg *a, size_t j)
{
	return j ? &an->group[a->group_order[j - 1]] : &an->main;
}

static const struct ss_samples *samples_at(const struct ss_agg *a, size_t j)
{
	return j ? &a->group[a->group_order[j - 1]].res.samples : &a->main.samples;
}

/* Set j's intervals, and a group's difference intervals against its baseline's rows. */
static void finish_set(struct ss_analysis *an, const struct ss_agg *a,
		       const struct ss_analysis_opts *o, size_t j, double *scratch)
{
	struct ss_set_analysis *s = set_at(an, a, j);
	const uint32_t B = o->resamples;
	const double *base_rows;
	size_t pb;

	for (int k = 0; k < SS_BS_COUNT; k++)
		s->has_ci[k] = ss_boot_interval(s->rows, B, (enum ss_boot_stat)k, o->level, scratch,
						&s->lo[k], &s->hi[k]);
	if (j == 0 || !ss_analysis_partner(an, a->group_order[j - 1], &pb))
		return;
	base_rows = an->group[pb].rows;
	for (int k = 0; k < SS_BS_COUNT && base_rows; k++) {
		struct ss_delta *d = &s->vs[k];

		if (ss_boot_diff_interval(s->rows, base_rows, B, (enum ss_boot_stat)k, o->level,
					  scratch, &d->lo, &d->hi)) {
			d->has_ci = true;
			d->significant = d->lo > 0.0 || d->hi < 0.0;
		}
	}
}

/* Whether set j (stream order) is a baseline, whose rows are kept. */
static bool set_is_base(const struct ss_analysis *an, const struct ss_agg *a, size_t j)
{
	return j && ss_analysis_is_baseline(an, a->group_order[j - 1]);
}

/*
 * Resample every set. The rows (B x 4 doubles a set) of at most
 * o->rows_budget bytes of sets exist at a time, plus the baselines',
 * resampled first and kept for every difference (one with one key, one
 * per combination of the other keys' values with several): grouping by
 * a field that is unique per request stays within memory. Sets keep
 * their stream numbers, so the batching changes no byte of the results.
 */
static bool bootstrap_all(struct ss_analysis *an, const struct ss_agg *a,
			  const struct ss_analysis_opts *o, double *scratch)
{
	const size_t row_bytes = (size_t)o->resamples * SS_BS_COUNT * sizeof(double);
	size_t nsets = 1 + an->ngroups, per = o->rows_budget / row_bytes;
	struct ss_boot_job *jobs;
	bool ok = true;

	if (per < 1)
		per = 1;
	if (per > nsets)
		per = nsets;
	jobs = ss_calloc(per, sizeof(*jobs));
	if (!jobs)
		return false;
	/* the baselines first, in batches too; their rows stay */
	for (size_t start = 1; ok && an->has_baseline && start < nsets;) {
		size_t n = 0;

		for (; start < nsets && n < per; start++) {
			struct ss_set_analysis *s = set_at(an, a, start);

			if (!set_is_base(an, a, start))
				continue;
			s->rows = ss_malloc(row_bytes);
			if (!s->rows) {
				ok = false;
				break;
			}
			jobs[n].samples = samples_at(a, start);
			jobs[n].g = (uint32_t)start;
			jobs[n].out = s->rows;
			n++;
		}
		if (ok)
			ss_boot_run(jobs, n, o->seed, o->resamples, o->threads);
	}
	for (size_t start = 0; ok && start < nsets; start += per) {
		size_t end = start + per < nsets ? start + per : nsets, n = 0;

		for (size_t j = start; j < end; j++) {
			struct ss_set_analysis *s = set_at(an, a, j);

			if (set_is_base(an, a, j))
				continue;  /* resampled above */
			s->rows = ss_malloc(row_bytes);
			if (!s->rows) {
				ok = false;
				break;
			}
			jobs[n].samples = samples_at(a, j);
			jobs[n].g = (uint32_t)j;
			jobs[n].out = s->rows;
			n++;
		}
		if (ok)
			ss_boot_run(jobs, n, o->seed, o->resamples, o->threads);
		for (size_t j = start; j < end; j++) {
			struct ss_set_analysis *s = set_at(an, a, j);

			if (ok && s->rows)
				finish_set(an, a, o, j, scratch);
			if (!set_is_base(an, a, j)) {
				ss_free(s->rows);
				s->rows = NULL;
			}
		}
	}
	ss_free(jobs);
	return ok;
}

/* Whether the input name v lies in the directory text[0..n) (its `dir`, 7.3). */
static bool input_in_dir(const struct ss_kv *v, const char *text, size_t n)
{
	size_t keep;
	const char *sfx;

	if (v->type != SS_KV_STR)
		return false;
	sfx = ss_name_dir(v->s, v->len, &keep);
	return keep + strlen(sfx) == n && memcmp(v->s, text, keep) == 0 &&
	       memcmp(sfx, text + keep, n - keep) == 0;
}

/*
 * The group whose first key --compare's `text` names (SPEC 7.4), in key
 * order: when values of several types read the same ("4"), the first
 * wins. For `dir` and `input` a trailing '/' is ignored, and an `input`
 * text that names a directory holding exactly one input names that input.
 */
static int find_baseline(const struct ss_agg *a, const struct ss_analysis_opts *o,
			 const char *text, size_t *id)
{
	enum ss_gkey kind = o->group_by.n ? o->group_by.keys[0].kind : SS_GK_INPUT;
	size_t n = strlen(text), found = SIZE_MAX;
	char *t;
	int ok = 0;

	if (kind == SS_GK_DIR || kind == SS_GK_INPUT)
		while (n > 1 && text[n - 1] == '/')
			n--;
	t = ss_strndup(text, n);
	if (!t)
		return -1;
	for (size_t i = 0; i < a->groups.n && !ok; i++) {
		size_t g = a->group_order[i];

		if (ss_kv_matches_text(ss_group_table_key(&a->groups, g), t)) {
			*id = g;
			ok = 1;
		}
	}
	for (size_t i = 0; i < a->groups.n && !ok && kind == SS_GK_INPUT; i++) {
		size_t g = a->group_order[i];
		const struct ss_kv *v = ss_group_table_key(&a->groups, g);

		if (!input_in_dir(v, t, n))
			continue;
		if (found == SIZE_MAX) {
			found = g;
		} else if (ss_kv_cmp(v, ss_group_table_key(&a->groups, found)) != 0) {
			found = SIZE_MAX - 1;   /* a second input there: it names none */
			break;
		}
	}
	if (!ok && found < SIZE_MAX - 1)
		ok = 2;
	if (ok == 2)
		*id = found;
	ss_free(t);
	return ok != 0;
}

/*
 * The partner of every group (SPEC 7.4): the baselines (first key the
 * baseline's) are their own, each other group has the baseline with the
 * same values of the other keys, or none.
 */
static bool set_partners(struct ss_analysis *an, const struct ss_agg *a, size_t nkeys)
{
	const struct ss_kv *base = ss_group_table_key(&a->groups, an->baseline);

	an->partner = ss_calloc(a->groups.n ? a->groups.n : 1, sizeof(*an->partner));
	if (!an->partner)
		return false;
	for (size_t g = 0; g < a->groups.n; g++)
		an->partner[g] = ss_kv_cmp(ss_group_table_key(&a->groups, g), base) == 0
					 ? g : SS_NO_PARTNER;
	for (size_t g = 0; g < a->groups.n; g++) {
		const struct ss_kv *key = ss_group_table_key(&a->groups, g);

		if (an->partner[g] == g)
			continue;
		for (size_t b = 0; b < a->groups.n && nkeys > 1; b++)
			if (an->partner[b] == b &&
			    ss_kv_tuple_cmp(key + 1, ss_group_table_key(&a->groups, b) + 1,
					    nkeys - 1) == 0) {
				an->partner[g] = b;
				break;
			}
		if (nkeys == 1)
			an->partner[g] = an->baseline;
	}
	return true;
}

bool ss_analysis_is_baseline(const struct ss_analysis *an, size_t g)
{
	return an->has_baseline && an->partner && g < an->ngroups && an->partner[g] == g;
}

bool ss_analysis_partner(const struct ss_analysis *an, size_t g, size_t *base)
{
	if (!an->has_baseline || !an->partner || g >= an->ngroups || an->partner[g] == g ||
	    an->partner[g] == SS_NO_PARTNER)
		return false;
	*base = an->partner[g];
	return true;
}

const char *const ss_def_names[SS_DEF_COUNT] = {
	"request_mean", "step_pooled", "output_weighted", "with_prefill",
};

/* SPEC 7.12 from the main results' sums (metrics/defs.h). */
static void set_definitions(struct ss_definition *out, const struct ss_defs *d)
{
	out[SS_DEF_REQUEST_MEAN] = (struct ss_definition){
		d->n > 0, d->n ? d->sum_al / (double)d->n : 0.0, d->n};
	out[SS_DEF_STEP_POOLED] = (struct ss_definition){
		d->sum_steps > 0, 1.0 + ss_ratio(d->sum_acc, d->sum_steps), d->n};
	out[SS_DEF_OUTPUT_WEIGHTED] = (struct ss_definition){
		d->sum_c > 0, d->sum_c ? d->sum_c_al / (double)d->sum_c : 0.0, d->n_out};
	out[SS_DEF_WITH_PREFILL] = (struct ss_definition){
		d->n_prefill > 0, d->n_prefill ? d->sum_c_per_s / (double)d->n_prefill : 0.0,
		d->n_prefill};
}

enum ss_an_status ss_analysis_run(struct ss_analysis *an, const struct ss_agg *a,
				  const struct ss_analysis_opts *o)
{
	bool need_pos = ss_analysis_needs_positions(o);
	double *scratch = NULL;

	memset(an, 0, sizeof(*an));
	an->opts = o;
	an->any = o->positions || o->ci || o->group_by.n || o->windows || o->outliers ||
		  o->definitions || o->speedup;
	if (o->definitions)
		set_definitions(an->defs, &a->main.defs);
	if (o->compare) {
		int found = find_baseline(a, o, o->compare, &an->baseline);

		if (found < 0)
			goto nomem;
		if (!found)
			return SS_AN_NO_BASELINE;
	}
	if (o->windows) {
		switch (ss_windows_compute(&an->windows, &a->timeline, o->window_ns)) {
		case SS_WIN_OK:
			break;
		case SS_WIN_NOMEM:
			goto nomem;
		case SS_WIN_TOO_MANY:
			return SS_AN_TOO_MANY_WINDOWS;  /* an->windows still says why */
		}
	}
	an->has_baseline = o->compare != NULL;

	if (a->groups.n) {
		an->group = ss_calloc(a->groups.n, sizeof(*an->group));
		if (!an->group)
			goto nomem;
		an->ngroups = a->groups.n;
	}
	if (an->has_baseline && !set_partners(an, a, a->groups.nkeys))
		goto nomem;
	if (!ss_analysis_speedup(an, a, o))
		goto nomem;
	if (need_pos) {
		if (!set_positions(&an->main, &a->main, o))
			goto nomem;
		for (size_t g = 0; o->positions && g < an->ngroups; g++)
			if (!set_positions(&an->group[g], &a->group[g].res, o))
				goto nomem;
	}

	/* Deltas need no resample. */
	if (an->has_baseline) {
		for (size_t g = 0; g < an->ngroups; g++) {
			size_t pb;
			const struct ss_results *base;

			if (!ss_analysis_partner(an, g, &pb))
				continue;
			base = &a->group[pb].res;
			for (int k = 0; k < SS_BS_COUNT; k++) {
				struct ss_delta *d = &an->group[g].vs[k];
				double x, y;

				if (stat_value(&a->group[g].res, k, &x) && stat_value(base, k, &y)) {
					d->has = true;
					d->delta = x - y;
				}
			}
		}
	}
	if (o->ci) {
		scratch = ss_reallocarray(NULL, o->resamples, sizeof(*scratch));
		if (!scratch || !bootstrap_all(an, a, o, scratch))
			goto nomem;
	}
	ss_free(scratch);
	return SS_AN_OK;
nomem:
	ss_free(scratch);
	ss_analysis_release(an);
	return SS_AN_NOMEM;
}

void ss_analysis_expect_value(const struct ss_analysis *an, const struct ss_agg *a,
			      const struct ss_expect *e, bool *has, double *v)
{
	*has = false;
	*v = 0.0;
	switch (e->what) {
	case SS_EXV_NONE:
		break;
	case SS_EXV_WINDOW_MIN:
	case SS_EXV_WINDOW_LAST:
		/* absent without --windows, or with no window holding steps */
		*has = an->opts && an->opts->windows && an->windows.has_summary;
		if (*has)
			*v = e->what == SS_EXV_WINDOW_MIN ? an->windows.min : an->windows.last;
		return;
	case SS_EXV_ALL_REJECTED:
	case SS_EXV_ALL_ACCEPTED:
		*has = true;
		*v = (double)(e->what == SS_EXV_ALL_REJECTED ? a->outliers.all_rejected
							      : a->outliers.all_accepted);
		return;
	}
	if (e->metric >= 0) {
		const struct ss_results *r = &a->main;

		if (r->has[e->metric]) {
			*has = true;
			*v = r->stats[e->metric].avg;
		} else if (e->metric == SS_M_ZERO_STEP_REQUESTS) {
			/* SPEC 7.5: an absent Zero-Step Requests counts as 0 */
			*has = true;
		}
		return;
	}
	if (e->server)
		return;   /* the server's figures: the caller's (SPEC 10.4) */
	/* positionN: the pooled rate of position N of the largest k */
	if (an->main.npos) {
		const struct ss_pos_result *p = &an->main.pos[an->main.npos - 1];

		if (p->defined && e->position >= 1 && e->position <= p->k) {
			*has = true;
			*v = p->pos[e->position - 1].rate;
		}
	}
}
