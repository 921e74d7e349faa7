/*
 * analysis_json.c - the `analysis` key of the aggregate JSON (SPEC 7):
 * positions, intervals and groups, laid out as json.dumps(indent=2) lays
 * out the rest of the file.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/numfmt.h"
#include "report/report.h"
#include "report/report_int.h"

#define indent ss_report_indent
#define key ss_report_key

static void add_u128(struct ss_buf *b, unsigned __int128 v)
{
	ss_buf_add_i128(b, (__int128)v);
}

/* A number the user gave: an integer when it is one (95), else its repr (99.5). */
static void add_user_number(struct ss_buf *b, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		ss_buf_add_i64(b, (int64_t)v);
	else
		ss_buf_add_double(b, v);
}

/* A two-number array, expanded as json.dumps(indent=2) writes it. */
static void add_pair(struct ss_buf *b, double lo, double hi, int ind)
{
	ss_buf_addc(b, '[');
	indent(b, ind + 2);
	ss_buf_add_double(b, lo);
	ss_buf_addc(b, ',');
	indent(b, ind + 2);
	ss_buf_add_double(b, hi);
	indent(b, ind);
	ss_buf_addc(b, ']');
}

static void add_kv_json(struct ss_buf *b, const struct ss_kv *v)
{
	if (v->type == SS_KV_STR)
		ss_report_add_text(b, v->s, v->len);
	else
		ss_kv_add_text(b, v);
}

/* {"KEY": value, ...} for a group's key values. */
static void add_key_obj(struct ss_buf *b, const struct ss_group_spec *spec, const struct ss_kv *v,
			int ind)
{
	ss_buf_addc(b, '{');
	for (size_t i = 0; i < spec->n; i++) {
		if (i)
			ss_buf_addc(b, ',');
		key(b, ind + 2, spec->keys[i].name);
		add_kv_json(b, &v[i]);
	}
	indent(b, ind);
	ss_buf_addc(b, '}');
}

static void add_pos_result(struct ss_buf *b, const struct ss_pos_result *p, int ind)
{
	ss_buf_addc(b, '{');
	key(b, ind + 2, "k");
	ss_buf_add_u64(b, p->k);
	ss_buf_addc(b, ',');
	key(b, ind + 2, "requests");
	ss_buf_add_u64(b, p->requests);
	ss_buf_addc(b, ',');
	key(b, ind + 2, "steps");
	add_u128(b, p->steps);
	ss_buf_addc(b, ',');
	key(b, ind + 2, "acceptance_length");
	ss_buf_add_double(b, p->acceptance_length);
	ss_buf_addc(b, ',');
	key(b, ind + 2, "positions");
	ss_buf_addc(b, '[');
	for (uint32_t i = 0; i < p->k; i++) {
		const struct ss_pos_row *r = &p->pos[i];

		if (i)
			ss_buf_addc(b, ',');
		indent(b, ind + 4);
		ss_buf_addc(b, '{');
		key(b, ind + 6, "position");
		ss_buf_add_u64(b, i + 1);
		ss_buf_addc(b, ',');
		key(b, ind + 6, "accepted");
		add_u128(b, r->accepted);
		ss_buf_addc(b, ',');
		key(b, ind + 6, "rate");
		ss_buf_add_double(b, r->rate);
		ss_buf_addc(b, ',');
		key(b, ind + 6, "conditional");
		if (r->has_conditional)
			ss_buf_add_double(b, r->conditional);
		else
			ss_buf_adds(b, "null");
		indent(b, ind + 4);
		ss_buf_addc(b, '}');
	}
	if (p->k)
		indent(b, ind + 2);
	ss_buf_adds(b, "],");
	key(b, ind + 2, "what_if");
	ss_buf_addc(b, '[');
	for (uint32_t i = 0; i < p->k; i++) {
		const struct ss_whatif_row *w = &p->what_if[i];

		if (i)
			ss_buf_addc(b, ',');
		indent(b, ind + 4);
		ss_buf_addc(b, '{');
		key(b, ind + 6, "k");
		ss_buf_add_u64(b, i + 1);
		ss_buf_addc(b, ',');
		key(b, ind + 6, "acceptance_length");
		ss_buf_add_double(b, w->acceptance_length);
		ss_buf_addc(b, ',');
		key(b, ind + 6, "draft_acceptance_rate");
		ss_buf_add_double(b, w->draft_acceptance_rate);
		if (p->has_cost) {
			ss_buf_addc(b, ',');
			key(b, ind + 6, "speedup");
			ss_buf_add_double(b, w->speedup);
		}
		indent(b, ind + 4);
		ss_buf_addc(b, '}');
	}
	if (p->k)
		indent(b, ind + 2);
	ss_buf_addc(b, ']');
	if (p->has_cost) {
		ss_buf_addc(b, ',');
		key(b, ind + 2, "draft_cost");
		ss_buf_add_double(b, p->draft_cost);
		ss_buf_addc(b, ',');
		key(b, ind + 2, "suggested_k");
		ss_buf_add_u64(b, p->suggested_k);
	}
	ss_buf_addc(b, ',');
	key(b, ind + 2, "model");
	ss_buf_adds(b, "\"chain\"");
	indent(b, ind);
	ss_buf_addc(b, '}');
}

static void add_positions(struct ss_buf *b, const struct ss_results *r,
			  const struct ss_set_analysis *s, int ind)
{
	ss_buf_addc(b, '{');
	key(b, ind + 2, "excluded");
	ss_buf_addc(b, '{');
	for (int x = 0; x < SS_PX_COUNT; x++) {
		if (x)
			ss_buf_addc(b, ',');
		key(b, ind + 4, ss_pos_excl_names[x]);
		ss_buf_add_u64(b, r->positions.excluded[x]);
	}
	indent(b, ind + 2);
	ss_buf_adds(b, "},");
	key(b, ind + 2, "by_k");
	ss_buf_addc(b, '[');
	for (size_t i = 0; i < s->npos; i++) {
		if (i)
			ss_buf_addc(b, ',');
		indent(b, ind + 4);
		add_pos_result(b, &s->pos[i], ind + 4);
	}
	if (s->npos)
		indent(b, ind + 2);
	ss_buf_addc(b, ']');
	indent(b, ind);
	ss_buf_addc(b, '}');
}

static void add_intervals(struct ss_buf *b, const struct ss_analysis_opts *o,
			  const struct ss_set_analysis *s, int ind)
{
	bool any = false;

	ss_buf_addc(b, '{');
	key(b, ind + 2, "level");
	add_user_number(b, o->level);
	ss_buf_addc(b, ',');
	key(b, ind + 2, "resamples");
	ss_buf_add_u64(b, o->resamples);
	ss_buf_addc(b, ',');
	key(b, ind + 2, "seed");
	ss_buf_add_u64(b, o->seed);
	ss_buf_addc(b, ',');
	key(b, ind + 2, "metrics");
	ss_buf_addc(b, '{');
	for (int k = 0; k < SS_BS_COUNT; k++) {
		if (!s->has_ci[k])
			continue;
		if (any)
			ss_buf_addc(b, ',');
		any = true;
		key(b, ind + 4, ss_metric_table[ss_boot_metric[k]].tag);
		add_pair(b, s->lo[k], s->hi[k], ind + 4);
	}
	if (any)
		indent(b, ind + 2);
	ss_buf_addc(b, '}');
	indent(b, ind);
	ss_buf_addc(b, '}');
}

static void add_vs(struct ss_buf *b, const struct ss_set_analysis *s, int ind)
{
	bool any = false;

	ss_buf_addc(b, '{');
	for (int k = 0; k < SS_BS_COUNT; k++) {
		const struct ss_delta *d = &s->vs[k];

		if (!d->has)
			continue;
		if (any)
			ss_buf_addc(b, ',');
		any = true;
		key(b, ind + 2, ss_metric_table[ss_boot_metric[k]].tag);
		ss_buf_addc(b, '{');
		key(b, ind + 4, "delta");
		ss_buf_add_double(b, d->delta);
		if (d->has_ci) {
			ss_buf_addc(b, ',');
			key(b, ind + 4, "ci");
			add_pair(b, d->lo, d->hi, ind + 4);
			ss_buf_addc(b, ',');
			key(b, ind + 4, "significant");
			ss_buf_adds(b, d->significant ? "true" : "false");
		}
		indent(b, ind + 2);
		ss_buf_addc(b, '}');
	}
	if (any)
		indent(b, ind);
	ss_buf_addc(b, '}');
}

static void add_accounting(struct ss_buf *b, const struct ss_group *g, int ind)
{
	ss_buf_addc(b, '{');
	key(b, ind + 2, "total");
	ss_buf_add_u64(b, g->total);
	for (int s = 0; s < SS_ST_COUNT; s++) {
		ss_buf_addc(b, ',');
		key(b, ind + 2, ss_status_name((enum ss_status)s));
		ss_buf_add_u64(b, g->status[s]);
	}
	indent(b, ind);
	ss_buf_addc(b, '}');
}

static void add_group_row(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an,
			  size_t g, int ind)
{
	const struct ss_analysis_opts *o = an->opts;
	const struct ss_group *gr = &a->group[g];
	const struct ss_set_analysis *s = &an->group[g];
	bool first = false;

	ss_buf_addc(b, '{');
	key(b, ind + 2, "key");
	add_key_obj(b, &o->group_by, ss_group_table_key(&a->groups, g), ind + 2);
	ss_buf_addc(b, ',');
	key(b, ind + 2, "requests");
	add_accounting(b, gr, ind + 2);
	ss_report_add_results(b, &gr->res, ind + 2, &first);
	if (o->positions) {
		ss_buf_addc(b, ',');
		key(b, ind + 2, "positions");
		add_positions(b, &gr->res, s, ind + 2);
	}
	if (o->ci) {
		ss_buf_addc(b, ',');
		key(b, ind + 2, "intervals");
		add_intervals(b, o, s, ind + 2);
	}
	if (an->has_baseline && g != an->baseline) {
		ss_buf_addc(b, ',');
		key(b, ind + 2, "vs_baseline");
		add_vs(b, s, ind + 2);
	}
	indent(b, ind);
	ss_buf_addc(b, '}');
}

static void add_groups(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an,
		       int ind)
{
	const struct ss_group_spec *spec = &an->opts->group_by;

	ss_buf_addc(b, '{');
	key(b, ind + 2, "by");
	ss_buf_addc(b, '[');
	for (size_t i = 0; i < spec->n; i++) {
		if (i)
			ss_buf_addc(b, ',');
		indent(b, ind + 4);
		ss_report_add_text(b, spec->keys[i].name, strlen(spec->keys[i].name));
	}
	indent(b, ind + 2);
	ss_buf_adds(b, "],");
	if (an->has_baseline) {
		key(b, ind + 2, "baseline");
		add_key_obj(b, spec, ss_group_table_key(&a->groups, an->baseline), ind + 2);
		ss_buf_addc(b, ',');
	}
	key(b, ind + 2, "rows");
	ss_buf_addc(b, '[');
	for (size_t i = 0; i < a->groups.n; i++) {
		if (i)
			ss_buf_addc(b, ',');
		indent(b, ind + 4);
		add_group_row(b, a, an, a->group_order[i], ind + 4);
	}
	if (a->groups.n)
		indent(b, ind + 2);
	ss_buf_addc(b, ']');
	indent(b, ind);
	ss_buf_addc(b, '}');
}

void ss_report_json_analysis(struct ss_buf *b, const struct ss_agg *a,
			     const struct ss_analysis *an)
{
	const struct ss_analysis_opts *o = an->opts;
	bool any = false;

	ss_buf_addc(b, ',');
	key(b, 2, "analysis");
	ss_buf_addc(b, '{');
	if (o->positions) {
		key(b, 4, "positions");
		add_positions(b, &a->main, &an->main, 4);
		any = true;
	}
	if (o->ci) {
		if (any)
			ss_buf_addc(b, ',');
		key(b, 4, "intervals");
		add_intervals(b, o, &an->main, 4);
		any = true;
	}
	if (o->group_by.n) {
		if (any)
			ss_buf_addc(b, ',');
		key(b, 4, "groups");
		add_groups(b, a, an, 4);
	}
	indent(b, 2);
	ss_buf_addc(b, '}');
}
