/*
 * analysis_json.c - the `analysis` key of the aggregate JSON (SPEC 7):
 * positions, intervals, groups, windows, outliers and definitions, laid out as json.dumps(indent=2) lays
 * out the rest of the file (through the writer of jsonw.h).
 */
#include <string.h>

#include "report/jsonw.h"
#include "report/report.h"
#include "report/report_int.h"
#include "report/section.h"

/* A two-number array [lo, hi]. */
static void add_pair(struct ss_jsonw *w, const char *key, double lo, double hi)
{
	ss_jsonw_begin_array(w, key);
	ss_jsonw_double(w, NULL, lo);
	ss_jsonw_double(w, NULL, hi);
	ss_jsonw_end_array(w);
}

/* {"KEY": value, ...} for a group's key values. */
static void add_key_obj(struct ss_jsonw *w, const char *key, const struct ss_group_spec *spec,
			const struct ss_kv *v)
{
	ss_jsonw_begin_object(w, key);
	for (size_t i = 0; i < spec->n; i++) {
		if (v[i].type == SS_KV_STR)
			ss_jsonw_strn(w, spec->keys[i].name, v[i].s, v[i].len);
		else
			ss_kv_add_text(ss_jsonw_value(w, spec->keys[i].name), &v[i]);
	}
	ss_jsonw_end_object(w);
}

/* SPEC 7.4: a tag with no value on one side is left out, and a row left
 * with no tag has no vs_baseline. */
static void add_vs(struct ss_jsonw *w, const struct ss_set_analysis *s)
{
	bool any = false;

	for (int k = 0; k < SS_BS_COUNT; k++)
		any |= s->vs[k].has;
	any |= ss_sec_speedup_vs_any(s);
	if (!any)
		return;
	ss_jsonw_begin_object(w, "vs_baseline");
	for (int k = 0; k < SS_BS_COUNT; k++) {
		const struct ss_delta *d = &s->vs[k];

		if (!d->has)
			continue;
		ss_jsonw_begin_object(w, ss_metric_table[ss_boot_metric[k]].tag);
		ss_jsonw_double(w, "delta", d->delta);
		if (d->has_ci) {
			add_pair(w, "ci", d->lo, d->hi);
			ss_jsonw_bool(w, "significant", d->significant);
		}
		ss_jsonw_end_object(w);
	}
	ss_sec_speedup_vs_json(w, s);
	ss_jsonw_end_object(w);
}

static void add_group_row(struct ss_jsonw *w, const struct ss_agg *a,
			  const struct ss_analysis *an, size_t g)
{
	const struct ss_analysis_opts *o = an->opts;
	const struct ss_group *gr = &a->group[g];
	const struct ss_set_analysis *s = &an->group[g];

	ss_jsonw_begin_object(w, NULL);
	add_key_obj(w, "key", &o->group_by, ss_group_table_key(&a->groups, g));
	ss_report_add_accounting(w, "requests", gr->total, gr->status);
	ss_report_add_results(w, &gr->res);
	if (o->speedup)
		ss_sec_timing_json(w, s);
	if (o->positions)
		ss_sec_positions_json_set(w, &gr->res, s, o->speedup);
	if (o->ci)
		ss_sec_intervals_json_set(w, o, s);
	if (ss_analysis_partner(an, g, &(size_t){0}))
		add_vs(w, s);
	ss_jsonw_end_object(w);
}

static void add_groups(struct ss_jsonw *w, const struct ss_agg *a, const struct ss_analysis *an)
{
	const struct ss_group_spec *spec = &an->opts->group_by;

	ss_jsonw_begin_object(w, "groups");
	ss_jsonw_begin_array(w, "by");
	for (size_t i = 0; i < spec->n; i++)
		ss_jsonw_str(w, NULL, spec->keys[i].name);
	ss_jsonw_end_array(w);
	if (an->has_baseline) {
		/* the first key's value: with several keys, every group with it is a baseline (7.4) */
		const struct ss_group_spec first = {spec->keys, 1};

		add_key_obj(w, "baseline", &first, ss_group_table_key(&a->groups, an->baseline));
	}
	ss_jsonw_begin_array(w, "rows");
	for (size_t i = 0; i < a->groups.n; i++)
		add_group_row(w, a, an, a->group_order[i]);
	ss_jsonw_end_array(w);
	ss_jsonw_end_object(w);
}

void ss_report_json_analysis(struct ss_jsonw *w, const struct ss_agg *a,
			     const struct ss_analysis *an)
{
	const struct ss_analysis_opts *o = an->opts;

	ss_jsonw_begin_object(w, "analysis");
	if (o->positions)
		ss_sec_positions_json(w, &(struct ss_report_ctx){a, an, false, false});
	if (o->ci)
		ss_sec_intervals_json(w, &(struct ss_report_ctx){a, an, false, false});
	if (o->group_by.n)
		add_groups(w, a, an);
	if (o->windows)
		ss_sec_windows_json(w, &(struct ss_report_ctx){a, an, false, false});
	if (o->outliers)
		ss_sec_outliers_json(w, &(struct ss_report_ctx){a, an, false, false});
	/* last of the sub-keys (SPEC 7.12) */
	if (o->definitions)
		ss_sec_defs_json(w, &(struct ss_report_ctx){a, an, false, false});
	ss_jsonw_end_object(w);
}
