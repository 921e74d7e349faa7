/*
 * sec_intervals.c - SPEC 7.2's bootstrap intervals in every report: the
 * `intervals` member of `analysis` (and of each group's row), the
 * console's line, and one table of the metrics' low and high ends drawn
 * as the Markdown table, the CSV section (with the level) and the HTML
 * table under the Spec Decode one (with the mean).
 */
#include <math.h>

#include "report/numfmt.h"
#include "report/section.h"
#include "report/tabular.h"

/* A number the user gave: an integer when it is one (95), else its repr (99.5). */
static void json_user_number(struct ss_jsonw *w, const char *key, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		ss_jsonw_i64(w, key, (int64_t)v);
	else
		ss_jsonw_double(w, key, v);
}

void ss_sec_intervals_json_set(struct ss_jsonw *w, const struct ss_analysis_opts *o,
			       const struct ss_set_analysis *s)
{
	ss_jsonw_begin_object(w, "intervals");
	json_user_number(w, "level", o->level);
	ss_jsonw_u64(w, "resamples", o->resamples);
	ss_jsonw_u64(w, "seed", o->seed);
	ss_jsonw_begin_object(w, "metrics");
	for (int k = 0; k < SS_BS_COUNT; k++) {
		if (!s->has_ci[k])
			continue;
		ss_jsonw_begin_array(w, ss_metric_table[ss_boot_metric[k]].tag);
		ss_jsonw_double(w, NULL, s->lo[k]);
		ss_jsonw_double(w, NULL, s->hi[k]);
		ss_jsonw_end_array(w);
	}
	ss_jsonw_end_object(w);
	ss_jsonw_end_object(w);
}

void ss_sec_intervals_json(struct ss_jsonw *w, const struct ss_report_ctx *c)
{
	ss_sec_intervals_json_set(w, c->an->opts, &c->an->main);
}

/* `95% intervals (1,000 resamples): Acceptance Length 2.31–2.62, ...` */
void ss_sec_intervals_text(struct ss_buf *out, const struct ss_report_ctx *c)
{
	const struct ss_analysis_opts *o = c->an->opts;
	const struct ss_set_analysis *s = &c->an->main;
	bool first = true;

	ss_buf_adds(out, "  ");
	ss_report_add_level(out, o->level);
	ss_buf_adds(out, "% intervals (");
	ss_buf_add_u64_grouped(out, o->resamples);
	ss_buf_adds(out, o->resamples == 1 ? " resample):" : " resamples):");
	for (int k = 0; k < SS_BS_COUNT; k++) {
		if (!s->has_ci[k])
			continue;
		ss_buf_adds(out, first ? " " : ", ");
		first = false;
		ss_buf_adds(out, ss_metric_table[ss_boot_metric[k]].header);
		ss_buf_addc(out, ' ');
		ss_buf_add_fixed2_grouped(out, s->lo[k]);
		ss_buf_adds(out, c->utf8 ? "–" : "-");
		ss_buf_add_fixed2_grouped(out, s->hi[k]);
	}
	if (first)
		ss_buf_adds(out, " none (no resample defines a statistic)");
	ss_buf_addc(out, '\n');
}

/* The page's first column is not marked left (its style sheet aligns a
 * first column left), so it is a column of its own there. */
static const struct ss_tab_col cols[] = {
	{"Metric", SS_COL_TEXT, true, SS_TAB_TEXT | SS_TAB_CSV, NULL, NULL, false},
	{"Metric", SS_COL_TEXT, false, SS_TAB_HTML, NULL, NULL, false},
	{"Level", SS_COL_FIX2, false, SS_TAB_CSV, NULL, NULL, false},
	{"avg", SS_COL_FIX2, false, SS_TAB_HTML, NULL, NULL, false},
	{"Low", SS_COL_FIX2, false, 0, NULL, "low", false},
	{"High", SS_COL_FIX2, false, 0, NULL, "high", false},
};

/* One row per metric with an interval ("Header (unit)": no bootstrap
 * metric is a count, so the CSV's label is the same). */
static void table(struct ss_tab *t, const struct ss_report_ctx *c)
{
	const struct ss_set_analysis *s = &c->an->main;

	ss_tab_init(t, cols, sizeof(cols) / sizeof(cols[0]));
	for (int k = 0; k < SS_BS_COUNT; k++) {
		int m = ss_boot_metric[k];
		struct ss_buf *b;

		if (!s->has_ci[k])
			continue;
		for (int i = 0; i < 2; i++) {
			b = ss_tab_begin(t);
			ss_buf_adds(b, ss_metric_table[m].header);
			ss_buf_adds(b, " (");
			ss_buf_adds(b, ss_metric_table[m].unit);
			ss_buf_addc(b, ')');
			ss_tab_end(t);
		}
		ss_tab_num(t, c->an->opts->level);
		ss_tab_num(t, c->a->main.stats[m].avg);
		ss_tab_num(t, s->lo[k]);
		ss_tab_num(t, s->hi[k]);
	}
}

void ss_sec_intervals_md(struct ss_buf *out, const struct ss_report_ctx *c)
{
	const struct ss_analysis_opts *o = c->an->opts;
	struct ss_tab t;

	ss_buf_adds(out, "\n### ");
	ss_report_add_level(out, o->level);
	ss_buf_adds(out, "% intervals (");
	ss_buf_add_u64_grouped(out, o->resamples);
	ss_buf_adds(out, o->resamples == 1 ? " resample)\n\n" : " resamples)\n\n");
	table(&t, c);
	if (ss_tab_rows(&t))
		ss_tab_md(out, &t);
	else
		ss_buf_adds(out, "No resample defines a statistic.\n");
	ss_tab_release(&t);
}

void ss_sec_intervals_csv(struct ss_buf *out, const struct ss_report_ctx *c)
{
	struct ss_tab t;

	table(&t, c);
	if (ss_tab_rows(&t) || t.failed)
		ss_tab_csv(out, &t, true);
	ss_tab_release(&t);
}

void ss_sec_intervals_html(struct ss_buf *out, const struct ss_report_ctx *c)
{
	const struct ss_analysis_opts *o = c->an->opts;
	struct ss_buf caption = SS_BUF_INIT;
	struct ss_tab t;

	table(&t, c);
	if (ss_tab_rows(&t) || t.failed) {
		ss_report_add_level(&caption, o->level);
		ss_buf_adds(&caption, "% bootstrap intervals over requests (");
		ss_buf_add_u64_grouped(&caption, o->resamples);
		ss_buf_adds(&caption, o->resamples == 1 ? " resample" : " resamples");
		ss_buf_adds(&caption, ", seed ");
		ss_buf_add_u64(&caption, o->seed);
		ss_buf_addc(&caption, ')');
		out->failed |= caption.failed;
		ss_tab_html(out, &t, caption.data ? caption.data : "");
	}
	ss_buf_release(&caption);
	ss_tab_release(&t);
}
