#include "analysis/analyze.h"

#include <math.h>
#include <string.h>

#include "util/alloc.h"

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
		if (o->expects[i].metric < 0)
			return true;
	return false;
}

static void set_release(struct ss_set_analysis *s)
{
	for (size_t i = 0; i < s->npos; i++)
		ss_pos_result_release(&s->pos[i]);
	ss_free(s->pos);
	ss_free(s->rows);
	memset(s, 0, sizeof(*s));
}

void ss_analysis_release(struct ss_analysis *an)
{
	set_release(&an->main);
	for (size_t g = 0; g < an->ngroups; g++)
		set_release(&an->group[g]);
	ss_free(an->group);
	memset(an, 0, sizeof(*an));
}

static bool set_positions(struct ss_set_analysis *s, const struct ss_results *r,
			  const struct ss_analysis_opts *o)
{
	const struct ss_positions *p = &r->positions;

	if (p->nk == 0)
		return true;
	s->pos = ss_calloc(p->nk, sizeof(*s->pos));
	if (!s->pos)
		return false;
	for (size_t i = 0; i < p->nk; i++) {
		if (!ss_pos_compute(&p->ks[i], o->has_cost, o->cost, &s->pos[i]))
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

static int find_baseline(const struct ss_agg *a, const char *text, size_t *id)
{
	/* In key order: when values of several types read the same ("4"), the first wins. */
	for (size_t i = 0; i < a->groups.n; i++) {
		size_t g = a->group_order[i];

		if (ss_kv_matches_text(ss_group_table_key(&a->groups, g), text)) {
			*id = g;
			return 1;
		}
	}
	return 0;
}

enum ss_an_status ss_analysis_run(struct ss_analysis *an, const struct ss_agg *a,
				  const struct ss_analysis_opts *o)
{
	const uint32_t B = o->resamples;
	bool need_pos = ss_analysis_needs_positions(o);
	double *scratch = NULL;

	memset(an, 0, sizeof(*an));
	an->opts = o;
	an->any = o->positions || o->ci || o->group_by.n;
	if (o->compare && !find_baseline(a, o->compare, &an->baseline))
		return SS_AN_NO_BASELINE;
	an->has_baseline = o->compare != NULL;

	if (a->groups.n) {
		an->group = ss_calloc(a->groups.n, sizeof(*an->group));
		if (!an->group)
			goto nomem;
		an->ngroups = a->groups.n;
	}
	if (need_pos) {
		if (!set_positions(&an->main, &a->main, o))
			goto nomem;
		for (size_t g = 0; o->positions && g < an->ngroups; g++)
			if (!set_positions(&an->group[g], &a->group[g].res, o))
				goto nomem;
	}

	if (o->ci) {
		size_t njobs = 1 + an->ngroups;
		struct ss_boot_job *jobs = ss_calloc(njobs, sizeof(*jobs));

		if (!jobs)
			goto nomem;
		an->main.rows = ss_reallocarray(NULL, (size_t)B * SS_BS_COUNT, sizeof(double));
		jobs[0].samples = &a->main.samples;
		jobs[0].g = 0;
		jobs[0].out = an->main.rows;
		for (size_t i = 0; i < an->ngroups; i++) {
			size_t g = a->group_order[i];
			struct ss_set_analysis *s = &an->group[g];

			s->rows = ss_reallocarray(NULL, (size_t)B * SS_BS_COUNT, sizeof(double));
			jobs[1 + i].samples = &a->group[g].res.samples;
			jobs[1 + i].g = (uint32_t)(i + 1);
			jobs[1 + i].out = s->rows;
		}
		for (size_t j = 0; j < njobs; j++)
			if (!jobs[j].out) {
				ss_free(jobs);
				goto nomem;
			}
		ss_boot_run(jobs, njobs, o->seed, B, o->threads);
		ss_free(jobs);

		scratch = ss_reallocarray(NULL, B, sizeof(*scratch));
		if (!scratch)
			goto nomem;
		for (size_t j = 0; j <= an->ngroups; j++) {
			struct ss_set_analysis *s = j ? &an->group[j - 1] : &an->main;

			for (int k = 0; k < SS_BS_COUNT; k++)
				s->has_ci[k] = ss_boot_interval(s->rows, B, (enum ss_boot_stat)k,
								o->level, scratch, &s->lo[k],
								&s->hi[k]);
		}
	}

	if (an->has_baseline) {
		const struct ss_results *base = &a->group[an->baseline].res;
		const struct ss_set_analysis *bs = &an->group[an->baseline];

		for (size_t g = 0; g < an->ngroups; g++) {
			struct ss_set_analysis *s = &an->group[g];

			if (g == an->baseline)
				continue;
			for (int k = 0; k < SS_BS_COUNT; k++) {
				struct ss_delta *d = &s->vs[k];
				double x, y;

				if (stat_value(&a->group[g].res, k, &x) && stat_value(base, k, &y)) {
					d->has = true;
					d->delta = x - y;
				}
				if (o->ci && ss_boot_diff_interval(s->rows, bs->rows, B,
								   (enum ss_boot_stat)k, o->level,
								   scratch, &d->lo, &d->hi)) {
					d->has_ci = true;
					d->significant = d->lo > 0.0 || d->hi < 0.0;
				}
			}
		}
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
	/* positionN: the pooled rate of position N of the largest k */
	if (an->main.npos) {
		const struct ss_pos_result *p = &an->main.pos[an->main.npos - 1];

		if (p->defined && e->position >= 1 && e->position <= p->k) {
			*has = true;
			*v = p->pos[e->position - 1].rate;
		}
	}
}
