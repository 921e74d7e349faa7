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

static void add_pos_result(struct ss_jsonw *w, const struct ss_pos_result *p, bool speedup)
{
	ss_jsonw_begin_object(w, NULL);
	ss_jsonw_u64(w, "k", p->k);
	ss_jsonw_u64(w, "requests", p->requests);
	ss_jsonw_i128(w, "steps", (__int128)p->steps);
	ss_jsonw_double(w, "acceptance_length", p->acceptance_length);
	ss_jsonw_begin_array(w, "positions");
	for (uint32_t i = 0; i < p->k; i++) {
		const struct ss_pos_row *r = &p->pos[i];

		ss_jsonw_begin_object(w, NULL);
		ss_jsonw_u64(w, "position", i + 1);
		ss_jsonw_i128(w, "accepted", (__int128)r->accepted);
		ss_jsonw_double(w, "rate", r->rate);
		if (r->has_conditional)
			ss_jsonw_double(w, "conditional", r->conditional);
		else
			ss_jsonw_null(w, "conditional");
		ss_jsonw_end_object(w);
	}
	ss_jsonw_end_array(w);
	ss_jsonw_begin_array(w, "what_if");
	for (uint32_t i = 0; i < p->k; i++) {
		const struct ss_whatif_row *wi = &p->what_if[i];

		ss_jsonw_begin_object(w, NULL);
		ss_jsonw_u64(w, "k", i + 1);
		ss_jsonw_double(w, "acceptance_length", wi->acceptance_length);
		ss_jsonw_double(w, "draft_acceptance_rate", wi->draft_acceptance_rate);
		if (p->has_cost && wi->has_speedup)
			ss_jsonw_double(w, "speedup", wi->speedup);
		ss_jsonw_end_object(w);
	}
	ss_jsonw_end_array(w);
	if (p->has_cost) {
		ss_jsonw_double(w, "draft_cost", p->draft_cost);
		ss_jsonw_u64(w, "suggested_k", p->suggested_k);
		/* SPEC 11.3: with --speedup, where the cost came from */
		if (speedup || p->cost_source == SS_COST_MEASURED)
			ss_jsonw_str(w, "draft_cost_source", ss_cost_source_name(p->cost_source));
	}
	ss_jsonw_str(w, "model", "chain");
	ss_jsonw_end_object(w);
}

/* SPEC 7.9: acceptance per drafted token. */
static void add_drafted(struct ss_jsonw *w, const struct ss_drafted_result *d)
{
	ss_jsonw_begin_object(w, "drafted");
	ss_jsonw_u64(w, "requests", d->requests);
	ss_jsonw_i128(w, "steps", (__int128)d->steps);
	ss_jsonw_begin_array(w, "positions");
	for (size_t i = 0; i < d->n; i++) {
		const struct ss_drafted_row *r = &d->rows[i];

		ss_jsonw_begin_object(w, NULL);
		ss_jsonw_u64(w, "position", i + 1);
		ss_jsonw_i128(w, "drafted", (__int128)r->drafted);
		ss_jsonw_i128(w, "accepted", (__int128)r->accepted);
		if (r->has_rate)
			ss_jsonw_double(w, "rate", r->rate);
		else
			ss_jsonw_null(w, "rate");
		if (r->has_conditional)
			ss_jsonw_double(w, "conditional", r->conditional);
		else
			ss_jsonw_null(w, "conditional");
		ss_jsonw_end_object(w);
	}
	ss_jsonw_end_array(w);
	ss_jsonw_end_object(w);
}

static void add_positions(struct ss_jsonw *w, const struct ss_results *r,
			  const struct ss_set_analysis *s, bool speedup)
{
	ss_jsonw_begin_object(w, "positions");
	ss_jsonw_begin_object(w, "excluded");
	for (int x = 0; x < SS_PX_COUNT; x++)
		ss_jsonw_u64(w, ss_pos_excl_names[x], r->positions.excluded[x]);
	/* SPEC 7.13: the fifth key, always written */
	ss_jsonw_u64(w, "inconsistent_by_draft_length", r->drafted.inconsistent);
	ss_jsonw_end_object(w);
	ss_jsonw_begin_array(w, "by_k");
	for (size_t i = 0; i < s->npos; i++)
		add_pos_result(w, &s->pos[i], speedup);
	ss_jsonw_end_array(w);
	if (s->drafted.present)
		add_drafted(w, &s->drafted);
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
		add_positions(w, &gr->res, s, o->speedup);
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
		add_positions(w, &a->main, &an->main, o->speedup);
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
