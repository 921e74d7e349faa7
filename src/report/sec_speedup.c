/*
 * sec_speedup.c - SPEC 11.2 and 11.3 in every report: the `timing` object
 * of the main results and of each group row, the speedup keys of a
 * group's `vs_baseline`, the Timing table (TTFT, ITL and latency avg, p50
 * and p99, and the decode time per token; the main results, then each
 * group) drawn as the console's box table, the Markdown table, the CSV
 * section `Key...,Metric,avg,p50,p99` and the HTML table, the group
 * table's Speedup and Draft Cost cells, and the page's chart of the
 * speedup per group with its interval (the baseline at 1).
 */
#include "report/section.h"

#include <math.h>
#include <string.h>

#include "report/chart.h"
#include "report/html_int.h"
#include "report/numfmt.h"
#include "report/report_int.h"
#include "report/tabular.h"
#include "util/alloc.h"

/* -- JSON ------------------------------------------------------------------ */

static void json_stats(struct ss_jsonw *w, const char *key, bool has, const struct ss_stats *st)
{
	if (has)
		ss_report_stats_json(w, key, "ms", st, true);
	else
		ss_jsonw_null(w, key);
}

void ss_sec_timing_json(struct ss_jsonw *w, const struct ss_set_analysis *s)
{
	const struct ss_timing_stats *t = &s->timing;

	if (!s->has_timing)
		return;
	ss_jsonw_begin_object(w, "timing");
	ss_jsonw_u64(w, "requests", t->requests);
	for (int i = 0; i < SS_T_COUNT; i++)
		json_stats(w, ss_time_tags[i], t->has[i], &t->s[i]);
	if (t->has_x)
		ss_jsonw_double(w, "decode_ms_per_token", t->x);
	else
		ss_jsonw_null(w, "decode_ms_per_token");
	ss_jsonw_end_object(w);
}

bool ss_sec_speedup_vs_any(const struct ss_set_analysis *s)
{
	return s->has_speedup;
}

void ss_sec_speedup_vs_json(struct ss_jsonw *w, const struct ss_set_analysis *s)
{
	const struct ss_speedup *sp = &s->speedup;

	if (!s->has_speedup)
		return;
	for (int k = 0; k < SS_SR_COUNT; k++) {
		const struct ss_ratio_est *r = &sp->r[k];

		if (!r->has)
			continue;
		ss_jsonw_begin_object(w, ss_speedup_names[k]);
		ss_jsonw_double(w, "value", r->value);
		if (r->has_ci) {
			ss_jsonw_begin_array(w, "ci");
			ss_jsonw_double(w, NULL, r->lo);
			ss_jsonw_double(w, NULL, r->hi);
			ss_jsonw_end_array(w);
			ss_jsonw_bool(w, "significant", r->significant);
		}
		ss_jsonw_end_object(w);
	}
	if (sp->has_cost)
		ss_jsonw_double(w, "draft_cost", sp->draft_cost);
	else
		ss_jsonw_null(w, "draft_cost");
	if (sp->has_cost && sp->cost_negative)
		ss_jsonw_str(w, "draft_cost_note",
			     "negative: the target passes of this run were faster than the "
			     "baseline's (other settings differ between the runs)");
}

/* -- the Timing table ---------------------------------------------------------- */

static const char *const metric_names[SS_T_COUNT + 1] = {
	"time_to_first_token", "inter_token_latency", "request_latency", "decode_ms_per_token",
};

enum { MAX_COLS = SS_GROUP_MAX_KEYS + 4 };

/* the statistics of the avg, p50 and p99 columns */
static const enum ss_stat_pick timing_picks[3] = {SS_SP_AVG, SS_SP_P50, SS_SP_P99};

/* The columns: the group keys (with groups), Metric, avg, p50, p99. */
static size_t timing_cols(struct ss_tab_col *cols, const struct ss_analysis *an)
{
	const struct ss_group_spec *spec = &an->opts->group_by;
	static const struct ss_tab_col fixed[4] = {
		{"Metric", SS_COL_TEXT, true, 0, NULL, NULL, false},
		{"avg (ms)", SS_COL_FIX2, false, 0, "avg", NULL, true},
		{"p50 (ms)", SS_COL_FIX2, false, 0, "p50", NULL, true},
		{"p99 (ms)", SS_COL_FIX2, false, 0, "p99", NULL, true},
	};
	size_t n = 0;

	for (size_t k = 0; k < spec->n && k < SS_GROUP_MAX_KEYS; k++)
		cols[n++] = (struct ss_tab_col){spec->keys[k].name, SS_COL_NAME, true, 0,
						NULL, NULL, false};
	memcpy(cols + n, fixed, sizeof(fixed));
	return n + 4;
}

static void timing_rows(struct ss_tab *t, const struct ss_set_analysis *s, size_t nkeys,
			const struct ss_kv *key)
{
	const struct ss_timing_stats *ts = &s->timing;

	for (int i = 0; i <= SS_T_COUNT; i++) {
		for (size_t k = 0; k < nkeys; k++) {
			if (key) {
				struct ss_buf *b = ss_tab_begin(t);

				ss_kv_add_text(b, &key[k]);
				ss_tab_end(t);
			} else {
				ss_tab_text(t, k == 0 ? "(all)" : NULL);
			}
		}
		ss_tab_text(t, metric_names[i]);
		if (i == SS_T_COUNT) {
			if (ts->has_x)
				ss_tab_num(t, ts->x);
			else
				ss_tab_na(t);
			ss_tab_empty(t);
			ss_tab_empty(t);
		} else {
			ss_report_stats_cells(t, &ts->s[i], timing_picks, 3,
					      ts->has[i] ? SS_SF_ALL : SS_SF_NONE);
		}
	}
}

/* The table of the main results and every group, in key order. */
static void timing_table(struct ss_tab *t, struct ss_tab_col *cols, const struct ss_report_ctx *c)
{
	const struct ss_analysis *an = c->an;
	size_t nkeys = an->opts->group_by.n;

	ss_tab_init(t, cols, timing_cols(cols, an));
	timing_rows(t, &an->main, nkeys, NULL);
	for (size_t i = 0; i < c->a->groups.n && i < an->ngroups; i++) {
		size_t id = c->a->group_order[i];

		timing_rows(t, &an->group[id], nkeys, ss_group_table_key(&c->a->groups, id));
	}
}

static bool has_timing(const struct ss_report_ctx *c)
{
	return c->an && c->an->opts && c->an->opts->speedup && c->an->main.has_timing;
}

void ss_sec_speedup_text(struct ss_buf *out, const struct ss_report_ctx *c)
{
	struct ss_tab_col cols[MAX_COLS];
	struct ss_tab t;

	if (!has_timing(c))
		return;
	timing_table(&t, cols, c);
	ss_buf_addc(out, '\n');
	ss_tab_box(out, &t, "Timing", c->utf8, c->color);
	ss_buf_adds(out, "  over the requests with each time; decode_ms_per_token: "
			 "sum(latency - TTFT) / sum(output tokens - 1) (avg column)\n");
	if (t.failed)
		out->failed = true;
	ss_tab_release(&t);
}

void ss_sec_speedup_md(struct ss_buf *out, const struct ss_report_ctx *c)
{
	struct ss_tab_col cols[MAX_COLS];
	struct ss_tab t;

	if (!has_timing(c))
		return;
	timing_table(&t, cols, c);
	ss_buf_adds(out, "\n## Timing\n\n");
	ss_tab_md(out, &t);
	ss_buf_adds(out, "\ndecode_ms_per_token (avg column): sum(latency - TTFT) / "
			 "sum(output tokens - 1).\n");
	if (t.failed)
		out->failed = true;
	ss_tab_release(&t);
}

void ss_sec_speedup_csv(struct ss_buf *out, const struct ss_report_ctx *c)
{
	struct ss_tab_col cols[MAX_COLS];
	struct ss_tab t;

	if (!has_timing(c))
		return;
	timing_table(&t, cols, c);
	ss_tab_csv(out, &t, true);
	if (t.failed)
		out->failed = true;
	ss_tab_release(&t);
}

/* -- the group table's columns ---------------------------------------------- */

static bool has_speedup_cols(const struct ss_analysis *an)
{
	return an->opts->speedup && an->has_baseline;
}

size_t ss_sec_speedup_group_cols(struct ss_tab_col *col, unsigned char *prio, size_t room,
				  const struct ss_analysis *an)
{
	if (!has_speedup_cols(an) || room < 2)
		return 0;
	col[0] = (struct ss_tab_col){"Speedup", SS_COL_TEXT, false, SS_TAB_TEXT, NULL, NULL, false};
	col[1] = (struct ss_tab_col){"Draft Cost", SS_COL_TEXT, false, SS_TAB_TEXT, NULL, NULL,
				     false};
	prio[0] = prio[1] = 0;
	return 2;
}

void ss_sec_speedup_legend(struct ss_buf *out, const struct ss_analysis *an)
{
	if (!has_speedup_cols(an))
		return;
	ss_buf_adds(out, "; Speedup: the baseline's decode time per token over the group's");
	if (an->opts->ci)
		ss_buf_adds(out, " (* where its interval excludes 1)");
	ss_buf_adds(out, "; Draft Cost: the cost of one draft token, in target passes, "
			 "that it implies");
}

void ss_sec_speedup_group_cells(struct ss_tab *t, const struct ss_analysis *an, size_t id)
{
	const struct ss_speedup *sp = &an->group[id].speedup;
	const struct ss_ratio_est *r = &sp->r[SS_SR_SPEEDUP];
	struct ss_buf *b;

	if (!has_speedup_cols(an))
		return;
	b = ss_tab_begin(t);
	if (id == an->baseline) {
		ss_buf_adds(b, "1.00");
	} else if (r->has) {
		ss_buf_add_fixed2_grouped(b, r->value);
		if (r->has_ci && r->significant)
			ss_buf_addc(b, '*');
	} else {
		ss_buf_adds(b, "N/A");
	}
	ss_tab_end(t);
	b = ss_tab_begin(t);
	if (id != an->baseline && sp->has_cost)
		ss_buf_add_fixed2_grouped(b, sp->draft_cost);
	else if (id != an->baseline)
		ss_buf_adds(b, "N/A");
	ss_tab_end(t);
}

/* -- HTML -------------------------------------------------------------------- */

void ss_sec_speedup_html(struct ss_buf *out, const struct ss_report_ctx *c)
{
	const struct ss_analysis *an = c->an;
	const struct ss_agg *a = c->a;
	struct ss_bar *bars;
	struct ss_buf labels = SS_BUF_INIT;
	size_t *offs;
	struct ss_chart ch;

	if (!has_timing(c) || !an->has_baseline || a->groups.n == 0)
		return;
	bars = ss_calloc(a->groups.n, sizeof(*bars));
	offs = ss_calloc(a->groups.n, sizeof(*offs));
	if (!bars || !offs) {
		ss_free(bars);
		ss_free(offs);
		out->failed = true;
		return;
	}
	for (size_t i = 0; i < a->groups.n; i++) {
		size_t id = a->group_order[i];
		const struct ss_kv *key = ss_group_table_key(&a->groups, id);
		const struct ss_ratio_est *r = &an->group[id].speedup.r[SS_SR_SPEEDUP];

		offs[i] = labels.len;
		for (size_t k = 0; k < an->opts->group_by.n; k++) {
			if (k)
				ss_buf_adds(&labels, " / ");
			ss_kv_add_text(&labels, &key[k]);
		}
		ss_buf_addc(&labels, '\0');
		bars[i].value = id == an->baseline ? 1.0 : r->has ? r->value : NAN;
		bars[i].has_interval = id != an->baseline && r->has_ci;
		bars[i].lo = r->lo;
		bars[i].hi = r->hi;
	}
	if (labels.failed) {
		out->failed = true;
	} else {
		for (size_t i = 0; i < a->groups.n; i++)
			bars[i].label = labels.data + offs[i];
		memset(&ch, 0, sizeof(ch));
		ch.id = "speedup";
		ch.title = "Decode speedup per group (baseline = 1)";
		ch.desc = "Bars: each group's decode speedup over the baseline group, "
			  "the baseline's decode time per token over the group's; whiskers: "
			  "the bootstrap interval when computed.";
		ch.x_label = "Group";
		ch.y_label = "Decode speedup (x)";
		ch.y_max_hint = 1.0;
		ch.value_decimals = 2;
		ch.value_suffix = "x";
		ch.show_values = true;
		ss_buf_adds(out, "<section id=\"speedup\">\n<h2>Did speculation pay?</h2>\n");
		ss_chart_bars(out, &ch, bars, a->groups.n);
		ss_buf_adds(out, "</section>\n");
	}
	ss_buf_release(&labels);
	ss_free(bars);
	ss_free(offs);
}

void ss_sec_timing_html(struct ss_buf *out, const struct ss_report_ctx *c)
{
	struct ss_tab_col cols[MAX_COLS];
	struct ss_tab t;

	if (!has_timing(c))
		return;
	timing_table(&t, cols, c);
	ss_buf_adds(out, "<section id=\"timing\">\n<h2>Timing</h2>\n");
	ss_tab_html(out, &t, "Per-request times in ms; decode_ms_per_token: "
			     "sum(latency - TTFT) / sum(output tokens - 1)");
	ss_buf_adds(out, "</section>\n");
	if (t.failed)
		out->failed = true;
	ss_tab_release(&t);
}
