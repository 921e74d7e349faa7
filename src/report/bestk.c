/*
 * bestk.c - the expected speedup per k and the best-k line of bestk.h.
 */
#include "report/bestk.h"

#include "analysis/speedup.h"
#include "report/numfmt.h"

/* The index of the `k` key in --group-by, or n when it is not there. */
static size_t k_index(const struct ss_analysis *an)
{
	const struct ss_group_spec *spec = &an->opts->group_by;
	size_t i = 0;

	while (i < spec->n && spec->keys[i].kind != SS_GK_K)
		i++;
	return i;
}

/* The cost group `id` is judged at: --draft-cost when given, else the
 * group's measured draft cost (SPEC 11.3) when it has one. */
static enum ss_cost_source group_cost(const struct ss_analysis *an, size_t id, double *cost)
{
	const struct ss_speedup *sp = id < an->ngroups && an->group[id].has_speedup
					      ? &an->group[id].speedup
					      : NULL;

	return ss_cost_choose(an->opts->has_cost, an->opts->cost, sp, cost);
}

/* Whether some group has a cost (every one when it is given). */
static bool any_cost(const struct ss_analysis *an)
{
	double c;

	for (size_t id = 0; id < an->ngroups; id++)
		if (group_cost(an, id, &c) != SS_COST_NONE)
			return true;
	return an->opts->has_cost;
}

bool ss_bestk_column(const struct ss_analysis *an)
{
	return k_index(an) < an->opts->group_by.n && any_cost(an);
}

bool ss_bestk_speedup(const struct ss_agg *a, const struct ss_analysis *an, size_t id,
		      double *speedup)
{
	size_t ki = k_index(an);
	const struct ss_group *gr = &a->group[id];
	const struct ss_kv *key;
	double c, den;

	if (ki == an->opts->group_by.n || group_cost(an, id, &c) == SS_COST_NONE ||
	    !gr->res.has[SS_M_TOKEN_WEIGHTED_AL])
		return false;
	key = &ss_group_table_key(&a->groups, id)[ki];
	if (key->type != SS_KV_INT || key->i < 1)
		return false;
	den = 1.0 + c * (double)key->i;
	if (!(den > 0))
		return false;
	*speedup = gr->res.stats[SS_M_TOKEN_WEIGHTED_AL].avg / den;
	return true;
}

void ss_bestk_line(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
		   const char *prefix)
{
	const struct ss_group_spec *spec = &an->opts->group_by;
	size_t best = a->groups.n;
	double s, best_s = 0, c = 0;

	if (spec->n != 1 || spec->keys[0].kind != SS_GK_K || a->groups.n == 0)
		return;
	ss_buf_adds(out, prefix);
	if (!any_cost(an)) {
		ss_buf_adds(out, "No best k without a draft cost: give --draft-cost C (C: the time of "
				 "one draft token over one target forward pass), or measure it with "
				 "--speedup and --compare against a run without speculation (its "
				 "draft_cost)\n");
		return;
	}
	/* groups run in ascending k: the first of equal speedups is the smallest k */
	for (size_t i = 0; i < a->groups.n; i++) {
		size_t id = a->group_order[i];

		if (ss_bestk_speedup(a, an, id, &s) && (best == a->groups.n || s > best_s)) {
			best = id;
			best_s = s;
		}
	}
	if (best == a->groups.n || !(best_s > 1.0)) {
		ss_buf_adds(out, "Best k: none; no k is expected to beat decoding without "
				 "speculation at ");
		if (an->opts->has_cost) {
			ss_buf_adds(out, "a draft cost of ");
			ss_buf_add_double(out, an->opts->cost);
		} else {
			ss_buf_adds(out, "its measured draft cost");
		}
		ss_buf_addc(out, '\n');
		return;
	}
	(void)group_cost(an, best, &c);
	ss_buf_addf(out, "Best k: %lld (expected speedup ",
		    (long long)ss_group_table_key(&a->groups, best)[0].i);
	ss_buf_add_fixed2_grouped(out, best_s);
	ss_buf_adds(out, an->opts->has_cost ? "x over no speculation at a draft cost of "
					    : "x over no speculation at its measured draft cost of ");
	ss_buf_add_double(out, c);
	ss_buf_adds(out, " target passes per draft token)\n");
}
