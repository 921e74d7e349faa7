/*
 * speedup_run.c - SPEC 11.2 and 11.3 over a finished aggregate: each
 * result set's timing statistics, and each group's speedup against its
 * partner, the baseline of 7.4 (with --ci, the intervals of its ratios over 7.2's
 * resamples: each side's timing on its own stream). Runs before the
 * positions, whose 7.1 tables may use the measured draft cost.
 */
#include "analysis/analyze.h"

#include <string.h>

#include "util/alloc.h"

/* Stream number of group id g: its place in key order + 1 (analyze.h). */
static uint32_t stream_of(const struct ss_agg *a, size_t g)
{
	for (size_t i = 0; i < a->groups.n; i++)
		if (a->group_order[i] == g)
			return (uint32_t)(i + 1);
	return 0;
}

/* One set's timing resampled into B rows (owned by the caller). */
static double *timing_rows(const struct ss_timekeep *tk, uint32_t g,
			   const struct ss_analysis_opts *o)
{
	struct ss_boot_tjob job;
	double *rows = ss_reallocarray(NULL, (size_t)o->resamples * SS_TB_COUNT, sizeof(double));

	if (!rows)
		return NULL;
	job.timing = tk;
	job.g = g;
	job.out = rows;
	ss_boot_timing_run(&job, 1, o->seed, o->resamples, o->threads);
	return rows;
}

/*
 * Each group against its own partner (7.4: with several keys, the
 * baseline of the same other keys' values); a baseline and a group
 * without a partner get none. With --ci a baseline's rows are resampled
 * once, when a group first needs them, and kept until the end.
 */
static bool group_speedups(struct ss_analysis *an, const struct ss_agg *a,
			   const struct ss_analysis_opts *o)
{
	double **base_rows = NULL, *rows = NULL, *scratch = NULL;
	bool ok = true;

	if (o->ci) {
		scratch = ss_reallocarray(NULL, o->resamples, sizeof(double));
		base_rows = scratch ? ss_calloc(an->ngroups ? an->ngroups : 1, sizeof(*base_rows))
				    : NULL;
		if (!base_rows) {
			ss_free(scratch);
			return false;
		}
	}
	for (size_t g = 0; ok && g < an->ngroups; g++) {
		const struct ss_results *r = &a->group[g].res;
		struct ss_set_analysis *s = &an->group[g];
		int64_t k = 0;
		bool has_k = ss_timekeep_k(&r->timing, &k);
		size_t b;

		if (!ss_analysis_partner(an, g, &b))
			continue;
		ss_speedup_compute(&s->timing, &an->group[b].timing, r->has[SS_M_TOKEN_WEIGHTED_AL],
				   r->stats[SS_M_TOKEN_WEIGHTED_AL].avg, has_k, k, &s->speedup);
		s->has_speedup = true;
		if (!o->ci)
			continue;
		if (!base_rows[b])
			base_rows[b] = timing_rows(&a->group[b].res.timing, stream_of(a, b), o);
		rows = base_rows[b] ? timing_rows(&r->timing, stream_of(a, g), o) : NULL;
		if (!rows) {
			ok = false;
			break;
		}
		ss_speedup_ci(&s->speedup, rows, base_rows[b], o->resamples, o->level, scratch);
		ss_free(rows);
	}
	for (size_t g = 0; base_rows && g < an->ngroups; g++)
		ss_free(base_rows[g]);
	ss_free(base_rows);
	ss_free(scratch);
	return ok;
}

bool ss_analysis_speedup(struct ss_analysis *an, const struct ss_agg *a,
			 const struct ss_analysis_opts *o)
{
	if (!o->speedup)
		return true;
	if (!ss_timing_stats_compute(&a->main.timing, &an->main.timing))
		return false;
	an->main.has_timing = true;
	for (size_t g = 0; g < an->ngroups; g++) {
		if (!ss_timing_stats_compute(&a->group[g].res.timing, &an->group[g].timing))
			return false;
		an->group[g].has_timing = true;
	}
	return !an->has_baseline || group_speedups(an, a, o);
}
