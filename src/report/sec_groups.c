/*
 * sec_groups.c - SPEC 7.3 and 7.4, the groups and their differences from
 * the baseline, in every format: the JSON's `groups` object (each row with
 * its accounting, results, timing, positions, intervals and vs_baseline),
 * the console's and Markdown's `Spec Decode by KEY` table with its legend,
 * the CSV's rows per group and metric and per group and difference, and
 * the page's groups section (a bar chart of the acceptance lengths and the
 * table of every group). The answer that opens the page under --compare is
 * in sec_groups_page.c.
 *
 * The group labels of the page's charts are here too: what all group
 * labels share is said once, in the axis title.
 */
#include "report/section.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report/bestk.h"
#include "report/chart.h"
#include "report/escape.h"
#include "report/htmlesc.h"
#include "report/numfmt.h"
#include "report/report_int.h"
#include "report/tabular.h"
#include "util/alloc.h"

/* -- labels ------------------------------------------------------------------ */

void ss_sec_groups_label(struct ss_buf *b, const struct ss_agg *a, size_t id)
{
	const struct ss_kv *kv = ss_group_table_key(&a->groups, id);

	for (size_t k = 0; k < a->groups.nkeys; k++) {
		if (k)
			ss_buf_adds(b, ", ");
		ss_kv_add_text(b, &kv[k]);
	}
}

void ss_sec_groups_keys(struct ss_buf *b, const struct ss_analysis *an)
{
	const struct ss_group_spec *spec = &an->opts->group_by;

	for (size_t k = 0; k < spec->n; k++) {
		if (k)
			ss_buf_adds(b, ", ");
		ss_buf_adds(b, spec->keys[k].name);
	}
}

/* Cut at word boundaries only: "run-01" keeps "run-". A prefix never ends
 * at a '.' ("0.1" stays whole), a suffix may start at one (".jsonl"). */
static bool is_sep(char c, bool suffix)
{
	return c == '/' || c == '-' || c == '_' || c == ' ' || c == ',' || (suffix && c == '.');
}

/*
 * Strip the prefix and the suffix all n labels share, each ending (or
 * starting) at a separator, when every label keeps something; the axis
 * title then reads "input: runs/qwen3-…​.jsonl" with … for the label.
 * The labels are the caller's own buffers, cut in place.
 */
static void strip_common(const char **lab, size_t n, struct ss_buf *axis, const char *keys)
{
	const char *l0 = lab[0];
	size_t len0 = strlen(l0), cp = len0, cs = len0, shortest = len0;

	for (size_t i = 1; i < n; i++) {
		const char *l = lab[i];
		size_t len = strlen(l), j = 0;

		while (j < cp && j < len && l[j] == l0[j])
			j++;
		cp = j;
		j = 0;
		while (j < cs && j < len && l[len - 1 - j] == l0[len0 - 1 - j])
			j++;
		cs = j;
		if (len < shortest)
			shortest = len;
	}
	for (;;) {
		while (cp > 0 && !is_sep(l0[cp - 1], false))
			cp--;
		while (cs > 0 && !is_sep(l0[len0 - cs], true))
			cs--;
		if (cp + cs < shortest)
			break;
		if (cs > 0)
			cs--;
		else if (cp > 0)
			cp--;
		else
			break;
	}
	if (cp == 0 && cs == 0)
		return;
	ss_buf_adds(axis, keys);
	ss_buf_adds(axis, ": ");
	ss_buf_add(axis, l0, cp);
	ss_buf_adds(axis, "\xE2\x80\xA6");
	ss_buf_adds(axis, l0 + len0 - cs);
	for (size_t i = 0; i < n; i++) {
		char *t = (char *)lab[i];

		if (cs)
			t[strlen(t) - cs] = '\0';
		lab[i] = t + cp;
	}
}

void ss_sec_groups_labels(const struct ss_agg *a, const struct ss_analysis *an,
			  struct ss_buf *store, const char **lab, struct ss_buf *axis)
{
	struct ss_buf keys = SS_BUF_INIT;
	size_t n = a->groups.n;

	ss_sec_groups_keys(&keys, an);
	for (size_t i = 0; i < n; i++) {
		ss_sec_groups_label(&store[i], a, a->group_order[i]);
		if (!store[i].data)
			ss_buf_adds(&store[i], "");
		lab[i] = store[i].data ? store[i].data : "";
	}
	/* What all labels share (a directory, a model name, ".jsonl") is
	 * said once, in the axis title, and the part that tells the groups
	 * apart gets the room under the bars. */
	if (n > 1)
		strip_common(lab, n, axis, keys.data ? keys.data : "");
	if (!axis->len)
		ss_buf_adds(axis, keys.data ? keys.data : "");
	if (keys.failed)
		axis->failed = true;
	ss_buf_release(&keys);
}

/* -- JSON -------------------------------------------------------------------- */

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

void ss_sec_groups_json(struct ss_jsonw *w, const struct ss_report_ctx *c)
{
	const struct ss_agg *a = c->a;
	const struct ss_analysis *an = c->an;
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

/* -- the console's and Markdown's table ---------------------------------------- */

enum { MAX_COLS = SS_GROUP_MAX_KEYS + 16 };

/* The table of the console and Markdown: its columns (after the keys'
 * names and the options) and their priorities on a narrow console. */
struct text_table {
	struct ss_tab t;
	struct ss_tab_col col[MAX_COLS];
	unsigned char prio[MAX_COLS];
	size_t nc;
};

static void text_col(struct text_table *g, const char *head, bool right, unsigned char prio)
{
	if (g->nc == MAX_COLS)
		return;
	g->prio[g->nc] = prio;
	g->col[g->nc++] = (struct ss_tab_col){head, SS_COL_TEXT, !right, SS_TAB_TEXT, NULL, NULL,
					      false};
}

/* A delta: signed, %.2f grouped, `*` when its interval excludes 0. */
static void add_delta(struct ss_buf *b, const struct ss_delta *d)
{
	if (!d->has) {
		ss_buf_adds(b, "N/A");
		return;
	}
	if (d->delta >= 0)
		ss_buf_addc(b, '+');
	ss_buf_add_fixed2_grouped(b, d->delta);
	if (d->significant)
		ss_buf_addc(b, '*');
}

static void value_cell(struct ss_tab *t, const struct ss_results *r, int m, bool p50)
{
	struct ss_buf *b = ss_tab_begin(t);

	if (!r->has[m])
		ss_buf_adds(b, "N/A");
	else
		ss_buf_add_fixed2_grouped(b, p50 ? r->stats[m].p50 : r->stats[m].avg);
	ss_tab_end(t);
}

static void text_cols(struct text_table *g, const struct ss_analysis *an, bool utf8)
{
	/* the rates' differences are percentage points, not percent */
	static const char *const u_heads[SS_BS_COUNT] = {"Δ AL", "Δ TWAL", "Δ DAR (pp)",
							 "Δ ODAR (pp)"};
	static const char *const a_heads[SS_BS_COUNT] = {"d AL", "d TWAL", "d DAR (pp)",
							 "d ODAR (pp)"};
	/* on a narrow console the least read go first (tabular.h): the keys,
	 * AL avg and its difference stay */
	static const unsigned char d_prio[SS_BS_COUNT] = {0, 4, 2, 3};
	const struct ss_group_spec *spec = &an->opts->group_by;

	for (size_t k = 0; k < spec->n; k++)
		text_col(g, spec->keys[k].name, false, 0);
	text_col(g, "requests", true, 6);
	text_col(g, "with stats", true, 2);
	text_col(g, "AL avg", true, 0);
	text_col(g, "AL p50", true, 5);
	if (an->opts->ci)
		text_col(g, "AL interval", true, 1);
	text_col(g, "TWAL", true, 4);
	text_col(g, "DAR avg (%)", true, 2);
	text_col(g, "ODAR (%)", true, 3);
	if (ss_bestk_column(an))
		text_col(g, "exp. speedup", true, 0);
	if (an->has_baseline)
		for (int k = 0; k < SS_BS_COUNT; k++)
			text_col(g, utf8 ? u_heads[k] : a_heads[k], true, d_prio[k]);
	g->nc += ss_sec_speedup_group_cols(g->col + g->nc, g->prio + g->nc, MAX_COLS - g->nc, an);
}

static void text_row(struct ss_tab *t, const struct ss_agg *a, const struct ss_analysis *an,
		     size_t id, bool utf8)
{
	const struct ss_group_spec *spec = &an->opts->group_by;
	const struct ss_group *gr = &a->group[id];
	const struct ss_kv *key = ss_group_table_key(&a->groups, id);

	for (size_t k = 0; k < spec->n; k++) {
		ss_kv_add_text(ss_tab_begin(t), &key[k]);
		ss_tab_end(t);
	}
	ss_buf_add_u64_grouped(ss_tab_begin(t), gr->total);
	ss_tab_end(t);
	ss_buf_add_u64_grouped(ss_tab_begin(t), gr->status[SS_ST_OK]);
	ss_tab_end(t);
	value_cell(t, &gr->res, SS_M_ACCEPTANCE_LENGTH, false);
	value_cell(t, &gr->res, SS_M_ACCEPTANCE_LENGTH, true);
	if (an->opts->ci) {
		const struct ss_set_analysis *ga = &an->group[id];
		struct ss_buf *b = ss_tab_begin(t);

		if (ga->has_ci[SS_BS_AL]) {
			ss_buf_add_fixed2_grouped(b, ga->lo[SS_BS_AL]);
			ss_buf_adds(b, utf8 ? "–" : "-");
			ss_buf_add_fixed2_grouped(b, ga->hi[SS_BS_AL]);
		} else {
			ss_buf_adds(b, "N/A");
		}
		ss_tab_end(t);
	}
	value_cell(t, &gr->res, SS_M_TOKEN_WEIGHTED_AL, false);
	value_cell(t, &gr->res, SS_M_DRAFT_ACCEPTANCE_RATE, false);
	value_cell(t, &gr->res, SS_M_OVERALL_DAR, false);
	if (ss_bestk_column(an)) {
		struct ss_buf *b = ss_tab_begin(t);
		double sp;

		if (ss_bestk_speedup(a, an, id, &sp)) {
			ss_buf_add_fixed2_grouped(b, sp);
			ss_buf_addc(b, 'x');
		} else {
			ss_buf_adds(b, "N/A");
		}
		ss_tab_end(t);
	}
	if (!an->has_baseline)
		return;
	for (int k = 0; k < SS_BS_COUNT; k++) {
		struct ss_buf *b = ss_tab_begin(t);

		if (ss_analysis_is_baseline(an, id))
			ss_buf_adds(b, k == 0 ? "baseline" : "");
		else if (ss_analysis_partner(an, id, &(size_t){0}))
			add_delta(b, &an->group[id].vs[k]);
		else
			ss_buf_adds(b, k == 0 ? "no baseline" : "");
		ss_tab_end(t);
	}
	ss_sec_speedup_group_cells(t, an, id);
}

/* The table of every group, its rows in key order (released by the caller). */
static void text_table(struct text_table *g, const struct ss_agg *a,
		       const struct ss_analysis *an, bool utf8)
{
	memset(g, 0, sizeof(*g));
	text_cols(g, an, utf8);
	ss_tab_init(&g->t, g->col, g->nc);
	g->t.priority = g->prio;
	for (size_t i = 0; i < a->groups.n; i++)
		text_row(&g->t, a, an, a->group_order[i], utf8);
}

/* The legend under the group table. */
static void legend(struct ss_buf *out, const struct ss_analysis *an)
{
	const struct ss_analysis_opts *o = an->opts;

	ss_buf_adds(out, "AL: Acceptance Length; TWAL: Token-Weighted Acceptance Length; "
			 "DAR: Draft Acceptance Rate; ODAR: Overall Draft Acceptance Rate");
	if (o->ci) {
		ss_buf_adds(out, "; AL interval: the ");
		ss_report_add_level(out, o->level);
		ss_buf_adds(out, "% bootstrap interval of AL avg");
	}
	if (ss_bestk_column(an))
		ss_buf_adds(out, "; exp. speedup: TWAL / (1 + C k), the speedup over no speculation "
				 "this acceptance implies at draft cost C (--draft-cost, else the "
				 "group's measured Draft Cost)");
	if (an->has_baseline) {
		ss_buf_adds(out, "; differences against the baseline (pp: percentage points)");
		if (o->ci) {
			ss_buf_adds(out, ", * where the ");
			ss_report_add_level(out, o->level);
			ss_buf_adds(out, "% interval of the difference excludes 0");
		} else {
			/* issue 34: say once what a * would need */
			ss_buf_adds(out, "; which differences are significant needs --ci "
					 "(e.g. --ci 95)");
		}
	}
	ss_sec_speedup_legend(out, an);
	ss_buf_addc(out, '\n');
}

static void title(struct ss_buf *b, const struct ss_analysis *an)
{
	ss_buf_adds(b, "Spec Decode by ");
	ss_sec_groups_keys(b, an);
}

void ss_sec_groups_text(struct ss_buf *out, const struct ss_report_ctx *c)
{
	struct text_table g;
	struct ss_buf head = SS_BUF_INIT;

	if (c->a->groups.n == 0)
		return;
	text_table(&g, c->a, c->an, c->utf8);
	title(&head, c->an);
	if (head.failed) {
		out->failed = true;
	} else {
		ss_buf_addc(out, '\n');
		struct ss_buf lines = SS_BUF_INIT;

		ss_tab_box(out, &g.t, head.data, c->utf8, c->color);
		/* prose, wrapped at the console's width as the table fits it */
		legend(&lines, c->an);
		ss_bestk_line(&lines, c->a, c->an, "");
		out->failed |= lines.failed;
		for (size_t at = 0, nl; at < lines.len; at = nl + 1) {
			nl = at;
			while (nl < lines.len && lines.data[nl] != '\n')
				nl++;
			ss_tab_wrap(out, lines.data + at, nl - at, "  ");
		}
		ss_buf_release(&lines);
	}
	ss_buf_release(&head);
	ss_tab_release(&g.t);
}

void ss_sec_groups_md(struct ss_buf *out, const struct ss_report_ctx *c)
{
	struct text_table g;
	struct ss_buf head = SS_BUF_INIT;

	/* the key names were typed (meta.NAME): escaped like the cells */
	title(&head, c->an);
	ss_buf_adds(out, "\n### ");
	ss_buf_add_md(out, head.data ? head.data : "", head.len);
	ss_buf_adds(out, "\n\n");
	out->failed |= head.failed;
	ss_buf_release(&head);
	text_table(&g, c->a, c->an, true);
	ss_tab_md(out, &g.t);
	ss_tab_release(&g.t);
	ss_buf_addc(out, '\n');
	legend(out, c->an);
	ss_bestk_line(out, c->a, c->an, "\n");
}

/* -- CSV ----------------------------------------------------------------------- */

/* The key columns of a CSV section, then `rest`: n columns in `col`. */
static size_t csv_cols(struct ss_tab_col *col, const struct ss_group_spec *spec,
		       const struct ss_tab_col *rest, size_t nrest)
{
	size_t n = 0;

	for (size_t k = 0; k < spec->n && k < SS_GROUP_MAX_KEYS; k++)
		col[n++] = (struct ss_tab_col){spec->keys[k].name, SS_COL_NAME, true, SS_TAB_CSV,
					       NULL, NULL, false};
	memcpy(col + n, rest, nrest * sizeof(*rest));
	return n + nrest;
}

/* SPEC 7.3: a null key value is an empty cell, true/false as written; a
 * text value has the formula guard of a name, a number and a boolean
 * none (a cell of the same text in every format). Up to a NUL, as every
 * CSV cell of a C string. */
static void csv_key_cells(struct ss_tab *t, const struct ss_kv *v, size_t n)
{
	struct ss_buf cell = SS_BUF_INIT;

	for (size_t i = 0; i < n && i < SS_GROUP_MAX_KEYS; i++) {
		ss_buf_reset(&cell);
		if (v[i].type != SS_KV_NULL)
			ss_kv_add_text(&cell, &v[i]);
		t->failed |= cell.failed;
		if (v[i].type == SS_KV_STR)
			ss_tab_text(t, cell.len ? cell.data : "");
		else
			ss_tab_markup(t, cell.len ? cell.data : "", cell.len ? cell.data : "");
	}
	ss_buf_release(&cell);
}

#define CSV_STAT(h) {h, SS_COL_FIX2, false, SS_TAB_CSV, NULL, NULL, false}

static const struct ss_tab_col metric_cols[] = {
	{"Metric", SS_COL_TEXT, true, SS_TAB_CSV, NULL, NULL, false},
	CSV_STAT("avg"), CSV_STAT("min"), CSV_STAT("max"), CSV_STAT("sum"), CSV_STAT("p1"),
	CSV_STAT("p5"), CSV_STAT("p10"), CSV_STAT("p25"), CSV_STAT("p50"), CSV_STAT("p75"),
	CSV_STAT("p90"), CSV_STAT("p95"), CSV_STAT("p99"), CSV_STAT("std"),
};
#define NMETRIC_COLS (sizeof(metric_cols) / sizeof(metric_cols[0]))

static const enum ss_stat_pick metric_picks[NMETRIC_COLS - 1] = {
	SS_SP_AVG, SS_SP_MIN, SS_SP_MAX, SS_SP_SUM, SS_SP_P1,  SS_SP_P5,  SS_SP_P10,
	SS_SP_P25, SS_SP_P50, SS_SP_P75, SS_SP_P90, SS_SP_P95, SS_SP_P99, SS_SP_STD,
};

/* One row per group and metric, the per-request metrics first (a
 * run-level metric has its avg only); no section without a row. */
static void csv_metrics(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an)
{
	const struct ss_group_spec *spec = &an->opts->group_by;
	struct ss_tab_col col[SS_GROUP_MAX_KEYS + NMETRIC_COLS];
	struct ss_tab t;

	ss_tab_init(&t, col, csv_cols(col, spec, metric_cols, NMETRIC_COLS));
	for (size_t i = 0; i < a->groups.n; i++) {
		size_t g = a->group_order[i];
		const struct ss_results *r = &a->group[g].res;
		int rows[SS_M_COUNT];

		for (int kind = 1; kind >= 0; kind--) {
			int n = ss_report_sorted_metrics(r, kind == 1, rows);

			for (int j = 0; j < n; j++) {
				csv_key_cells(&t, ss_group_table_key(&a->groups, g), spec->n);
				ss_report_csv_label_text(ss_tab_begin(&t), rows[j]);
				ss_tab_end(&t);
				ss_report_stats_cells(&t, &r->stats[rows[j]], metric_picks,
						      NMETRIC_COLS - 1,
						      kind == 1 ? SS_SF_ALL : SS_SF_FIRST);
			}
		}
	}
	if (ss_tab_rows(&t) || t.failed)
		ss_tab_csv(out, &t, true);
	ss_tab_release(&t);
}

static const struct ss_tab_col delta_cols[] = {
	{"Difference from the baseline", SS_COL_TEXT, true, SS_TAB_CSV, NULL, NULL, false},
	CSV_STAT("Delta"), CSV_STAT("Low"), CSV_STAT("High"),
	{"Significant", SS_COL_TEXT, true, SS_TAB_CSV, NULL, NULL, false},
};
#define NDELTA_COLS (sizeof(delta_cols) / sizeof(delta_cols[0]))

/* The differences from the baseline (SPEC 7.4): the rates' in percentage
 * points, so their unit is written as `pp`; Low and High with --ci. */
static void csv_deltas(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an)
{
	const struct ss_group_spec *spec = &an->opts->group_by;
	struct ss_tab_col col[SS_GROUP_MAX_KEYS + NDELTA_COLS];
	struct ss_tab t;

	ss_tab_init(&t, col, csv_cols(col, spec, delta_cols, NDELTA_COLS));
	for (size_t i = 0; i < a->groups.n; i++) {
		size_t g = a->group_order[i], pb;

		if (!ss_analysis_partner(an, g, &pb))
			continue;   /* a baseline, or a group with no partner (7.4) */
		for (int k = 0; k < SS_BS_COUNT; k++) {
			const struct ss_metric_info *mi = &ss_metric_table[ss_boot_metric[k]];
			const struct ss_delta *d = &an->group[g].vs[k];
			bool ci = d->has && d->has_ci;
			char label[128];

			snprintf(label, sizeof(label), "%s (%s)", mi->header,
				 strcmp(mi->unit, "%") == 0 ? "pp" : mi->unit);
			csv_key_cells(&t, ss_group_table_key(&a->groups, g), spec->n);
			ss_tab_text(&t, label);
			if (d->has)
				ss_tab_num(&t, d->delta);
			else
				ss_tab_empty(&t);
			if (ci) {
				ss_tab_num(&t, d->lo);
				ss_tab_num(&t, d->hi);
				ss_tab_text(&t, d->significant ? "true" : "false");
			} else {
				ss_tab_empty(&t);
				ss_tab_empty(&t);
				ss_tab_empty(&t);
			}
		}
	}
	ss_tab_csv(out, &t, true);
	ss_tab_release(&t);
}

void ss_sec_groups_csv(struct ss_buf *out, const struct ss_report_ctx *c)
{
	csv_metrics(out, c->a, c->an);
	if (c->an->has_baseline)
		csv_deltas(out, c->a, c->an);
}

/* -- HTML ---------------------------------------------------------------------- */

/* The bars of the groups in key order, their labels lab[i]. Returns
 * whether any bar has an interval. */
static bool fill_bars(const struct ss_agg *a, const struct ss_analysis *an, const char **lab,
		      struct ss_bar *bars)
{
	bool ci = false;

	for (size_t i = 0; i < a->groups.n; i++) {
		size_t id = a->group_order[i];
		const struct ss_results *r = &a->group[id].res;
		const struct ss_set_analysis *g = &an->group[id];

		bars[i].label = lab[i];
		bars[i].value = r->has[SS_M_ACCEPTANCE_LENGTH] ? r->stats[SS_M_ACCEPTANCE_LENGTH].avg : NAN;
		if (g->has_ci[SS_BS_AL]) {
			bars[i].has_interval = true;
			bars[i].lo = g->lo[SS_BS_AL];
			bars[i].hi = g->hi[SS_BS_AL];
			ci = true;
		}
	}
	return ci;
}

/* The bar chart of the groups' acceptance lengths, `axis` its x title. */
static void groups_chart(struct ss_buf *b, const struct ss_analysis *an, const struct ss_bar *bars,
			 size_t n, bool ci, const char *keys, const char *axis)
{
	struct ss_buf head = SS_BUF_INIT, desc = SS_BUF_INIT;

	ss_buf_adds(b, "<div class=\"fig\">\n");
	ss_buf_adds(&head, "Acceptance length by ");
	ss_buf_adds(&head, keys);
	if (ci) {
		ss_buf_adds(&head, " (");
		ss_report_add_level(&head, an->opts->level);
		ss_buf_adds(&head, "% intervals)");
	}
	ss_buf_adds(&desc, "Bar chart of the mean acceptance length of each group");
	ss_buf_adds(&desc, ci ? ", with interval whiskers; " : "; ");
	ss_buf_adds(&desc, "the table below lists every group's numbers.");
	ss_chart_bars(b, &(struct ss_chart){
		.id = "c-groups", .title = head.data ? head.data : "",
		.desc = desc.data ? desc.data : "", .x_label = axis,
		.y_label = "Acceptance length (tokens per step)",
		.width = n > 6 ? 1136 : 640, .height = 400, .value_decimals = 2,
		.show_values = true}, bars, n);
	ss_buf_adds(b, "</div>\n");
	if (head.failed || desc.failed)
		b->failed = true;
	ss_buf_release(&head);
	ss_buf_release(&desc);
}

/* The page's table of every group: its keys, requests, with stats, AL avg
 * and p50 (and its interval when `ci`), TWAL, DAR, ODAR. */
static void html_table(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an,
		       bool ci)
{
	static const struct ss_tab_col tail[] = {
		{"Requests", SS_COL_COUNT, false, 0, NULL, NULL, false},
		{"With stats", SS_COL_COUNT, false, 0, NULL, NULL, false},
		{"AL avg", SS_COL_FIX2, false, 0, NULL, NULL, true},
		{"AL p50", SS_COL_FIX2, false, 0, NULL, NULL, true},
		{"AL interval", SS_COL_TEXT, false, 0, NULL, NULL, false},
		{"TWAL", SS_COL_FIX2, false, 0, NULL, NULL, true},
		{"DAR avg (%)", SS_COL_FIX2, false, 0, NULL, NULL, true},
		{"ODAR (%)", SS_COL_FIX2, false, 0, NULL, NULL, true},
	};
	static const int cols[] = {
		SS_M_TOKEN_WEIGHTED_AL, SS_M_DRAFT_ACCEPTANCE_RATE, SS_M_OVERALL_DAR,
	};
	size_t nk = a->groups.nkeys < SS_GROUP_MAX_KEYS ? a->groups.nkeys : SS_GROUP_MAX_KEYS;
	size_t nc = 0;
	struct ss_tab_col col[SS_GROUP_MAX_KEYS + sizeof(tail) / sizeof(tail[0])];
	struct ss_tab t;

	for (size_t k = 0; k < nk; k++)
		col[nc++] = (struct ss_tab_col){an->opts->group_by.keys[k].name, SS_COL_NAME, true,
						0, NULL, NULL, false};
	for (size_t c = 0; c < sizeof(tail) / sizeof(tail[0]); c++)
		if (ci || c != 4)
			col[nc++] = tail[c];
	ss_tab_init(&t, col, nc);
	for (size_t i = 0; i < a->groups.n; i++) {
		size_t id = a->group_order[i];
		const struct ss_group *grp = &a->group[id];
		const struct ss_results *r = &grp->res;
		const struct ss_set_analysis *g = &an->group[id];
		const struct ss_kv *kv = ss_group_table_key(&a->groups, id);
		bool al = r->has[SS_M_ACCEPTANCE_LENGTH];

		for (size_t k = 0; k < nk; k++) {
			ss_kv_add_text(ss_tab_begin(&t), &kv[k]);
			ss_tab_end(&t);
		}
		ss_tab_int(&t, (__int128)grp->total);
		ss_tab_int(&t, (__int128)grp->status[SS_ST_OK]);
		if (al) {
			ss_tab_num(&t, r->stats[SS_M_ACCEPTANCE_LENGTH].avg);
			ss_tab_num(&t, r->stats[SS_M_ACCEPTANCE_LENGTH].p50);
		} else {
			ss_tab_empty(&t);
			ss_tab_empty(&t);
		}
		if (ci && g->has_ci[SS_BS_AL]) {
			struct ss_buf *v = ss_tab_begin(&t);

			ss_buf_add_fixed2(v, g->lo[SS_BS_AL]);
			ss_buf_adds(v, "\xE2\x80\x93");
			ss_buf_add_fixed2(v, g->hi[SS_BS_AL]);
			ss_tab_end(&t);
		} else if (ci) {
			ss_tab_empty(&t);
		}
		for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
			if (r->has[cols[c]])
				ss_tab_num(&t, r->stats[cols[c]].avg);
			else
				ss_tab_empty(&t);
	}
	ss_buf_adds(b, "<div class=\"tw groups\">\n");
	ss_tab_html(b, &t, "Every group (AL: acceptance length, TWAL: token-weighted acceptance "
		    "length, DAR: draft acceptance rate, ODAR: overall draft acceptance rate)");
	ss_buf_adds(b, "</div>\n");
	ss_tab_release(&t);
}

void ss_sec_groups_html(struct ss_buf *b, const struct ss_report_ctx *c)
{
	const struct ss_agg *a = c->a;
	const struct ss_analysis *an = c->an;
	size_t n = a->groups.n;
	struct ss_bar *bars = ss_calloc(n ? n : 1, sizeof(*bars));
	struct ss_buf *store = ss_calloc(n ? n : 1, sizeof(*store));
	const char **lab = ss_calloc(n ? n : 1, sizeof(*lab));
	struct ss_buf keys = SS_BUF_INIT, axis = SS_BUF_INIT;
	bool ci;

	if (!bars || !store || !lab) {
		b->failed = true;
		goto out;
	}
	ss_sec_groups_keys(&keys, an);
	ss_sec_groups_labels(a, an, store, lab, &axis);
	ci = fill_bars(a, an, lab, bars);

	ss_buf_adds(b, "<section id=\"groups\">\n<h2>Spec Decode by ");
	ss_buf_add_htmls(b, keys.data ? keys.data : "");
	ss_buf_adds(b, "</h2>\n<p>");
	ss_buf_add_u64_grouped(b, n);
	ss_buf_adds(b, n == 1 ? " group" : " groups");
	ss_buf_adds(b, ", in key order: each with its own accounting and results");
	if (ci) {
		ss_buf_adds(b, "; the whiskers are ");
		ss_report_add_level(b, an->opts->level);
		ss_buf_adds(b, "% bootstrap intervals over the group's requests");
	}
	ss_buf_adds(b, an->has_baseline ? ". The differences from the baseline are in the "
			"comparison at the top of the page.</p>\n" : ".</p>\n");
	groups_chart(b, an, bars, n, ci, keys.data ? keys.data : "", axis.data ? axis.data : "");
	html_table(b, a, an, ci);
	ss_buf_adds(b, "</section>\n");
out:
	if (keys.failed || axis.failed)
		b->failed = true;
	ss_buf_release(&axis);
	ss_buf_release(&keys);
	if (store)
		for (size_t i = 0; i < n; i++) {
			if (store[i].failed)
				b->failed = true;
			ss_buf_release(&store[i]);
		}
	ss_free(store);
	ss_free(lab);
	ss_free(bars);
}
