/*
 * sec_results.c - the results of SPEC 4 in every report: the metric
 * objects and pooled histogram of the aggregate JSON (4.1, for the run,
 * its warmup requests and each group), the CSV's per-request and run-level
 * sections sorted by tag (4.2), and the Spec Decode table with the
 * console's rows (4.3) drawn as the console's box table (its fixed layout:
 * a long label puts its unit on a row of its own), the Markdown table and
 * the HTML tables of the run and of its warmup requests, with the pooled
 * histogram's line; and the page's two pooled charts, the acceptance
 * histogram and the distribution of the per-request acceptance lengths.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/chart.h"
#include "report/html_int.h"
#include "report/htmlesc.h"
#include "report/numfmt.h"
#include "report/report_int.h"
#include "report/section.h"
#include "report/tabular.h"

/* -- SPEC 3.1's statistics, the one builder (report_int.h) -------------------- */

void ss_report_stats_json(struct ss_jsonw *w, const char *key, const char *unit,
			  const struct ss_stats *st, bool all)
{
	ss_jsonw_begin_object(w, key);
	ss_jsonw_str(w, "unit", unit);
	ss_jsonw_double(w, "avg", st->avg);
	if (all) {
		ss_jsonw_double(w, "p1", st->p1);
		ss_jsonw_double(w, "p5", st->p5);
		ss_jsonw_double(w, "p10", st->p10);
		ss_jsonw_double(w, "p25", st->p25);
		ss_jsonw_double(w, "p50", st->p50);
		ss_jsonw_double(w, "p75", st->p75);
		ss_jsonw_double(w, "p90", st->p90);
		ss_jsonw_double(w, "p95", st->p95);
		ss_jsonw_double(w, "p99", st->p99);
		ss_jsonw_double(w, "min", st->min);
		ss_jsonw_double(w, "max", st->max);
		ss_jsonw_double(w, "std", st->std);
		ss_jsonw_u64(w, "count", (uint64_t)st->count);
		ss_jsonw_double(w, "sum", st->sum);
	}
	ss_jsonw_end_object(w);
}

static double stat_value(const struct ss_stats *st, enum ss_stat_pick p)
{
	switch (p) {
	case SS_SP_AVG: return st->avg;
	case SS_SP_MIN: return st->min;
	case SS_SP_MAX: return st->max;
	case SS_SP_SUM: return st->sum;
	case SS_SP_P1: return st->p1;
	case SS_SP_P5: return st->p5;
	case SS_SP_P10: return st->p10;
	case SS_SP_P25: return st->p25;
	case SS_SP_P50: return st->p50;
	case SS_SP_P75: return st->p75;
	case SS_SP_P90: return st->p90;
	case SS_SP_P95: return st->p95;
	case SS_SP_P99: return st->p99;
	case SS_SP_STD: break;
	}
	return st->std;
}

void ss_report_stats_cells(struct ss_tab *t, const struct ss_stats *st,
			   const enum ss_stat_pick *pick, size_t n, enum ss_stat_fill fill)
{
	for (size_t k = 0; k < n; k++) {
		if (fill == SS_SF_ALL || (fill == SS_SF_FIRST && k == 0))
			ss_tab_num(t, stat_value(st, pick[k]));
		else
			ss_tab_na(t);
	}
}

/* -- JSON ------------------------------------------------------------------- */

void ss_report_add_metrics(struct ss_jsonw *w, const struct ss_results *r)
{
	for (int m = 0; m < SS_M_COUNT; m++)
		if (r->has[m])
			ss_report_stats_json(w, ss_metric_table[m].tag, ss_metric_table[m].unit,
					     &r->stats[m], ss_metric_table[m].per_request);
}

static bool hist_empty(const struct ss_results *r)
{
	for (size_t i = 0; i < r->hist_len; i++)
		if (r->hist[i])
			return false;
	return true;
}

void ss_report_add_results(struct ss_jsonw *w, const struct ss_results *r)
{
	if (!hist_empty(r)) {
		char num[24];

		ss_jsonw_begin_object(w, "pooled_spec_decode_acceptance_histogram");
		for (size_t j = 0; j < r->hist_len; j++) {
			if (!r->hist[j])
				continue;
			snprintf(num, sizeof(num), "%zu", j);
			ss_jsonw_i128(w, num, r->hist[j]);
		}
		ss_jsonw_end_object(w);
	}
	ss_report_add_metrics(w, r);
}

void ss_sec_results_json(struct ss_jsonw *w, const struct ss_report_ctx *c)
{
	const struct ss_agg *a = c->a;

	ss_report_add_results(w, &a->main);
	if (a->mode == SS_PHASES_PROFILING && ss_results_any(&a->warmup)) {
		ss_jsonw_begin_object(w, "warmup_metrics");
		ss_report_add_metrics(w, &a->warmup);
		ss_jsonw_end_object(w);
	}
}

/* -- CSV -------------------------------------------------------------------- */

void ss_report_csv_label_text(struct ss_buf *b, int m)
{
	const struct ss_metric_info *mi = &ss_metric_table[m];

	ss_buf_adds(b, mi->header);
	if (strcmp(mi->unit, "count") != 0 && strcmp(mi->unit, "requests") != 0)
		ss_buf_addf(b, " (%s)", mi->unit);
}

static int cmp_tag(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;

	return strcmp(ss_metric_table[a].tag, ss_metric_table[b].tag);
}

int ss_report_sorted_metrics(const struct ss_results *r, bool per_request, int out[SS_M_COUNT])
{
	int n = 0;

	for (int m = 0; m < SS_M_COUNT; m++)
		if (r->has[m] && ss_metric_table[m].per_request == per_request)
			out[n++] = m;
	qsort(out, (size_t)n, sizeof(*out), cmp_tag);
	return n;
}

#define CSV_STAT(h) {h, SS_COL_FIX2, false, SS_TAB_CSV, NULL, NULL, false}

static const struct ss_tab_col csv_request_cols[] = {
	{"Metric", SS_COL_TEXT, true, SS_TAB_CSV, NULL, NULL, false},
	CSV_STAT("avg"), CSV_STAT("min"), CSV_STAT("max"), CSV_STAT("sum"), CSV_STAT("p1"),
	CSV_STAT("p5"), CSV_STAT("p10"), CSV_STAT("p25"), CSV_STAT("p50"), CSV_STAT("p75"),
	CSV_STAT("p90"), CSV_STAT("p95"), CSV_STAT("p99"), CSV_STAT("std"),
};

/* the statistics of csv_request_cols, in order; the run's Value is avg */
static const enum ss_stat_pick csv_picks[] = {
	SS_SP_AVG, SS_SP_MIN, SS_SP_MAX, SS_SP_SUM, SS_SP_P1,  SS_SP_P5,  SS_SP_P10,
	SS_SP_P25, SS_SP_P50, SS_SP_P75, SS_SP_P90, SS_SP_P95, SS_SP_P99, SS_SP_STD,
};

static const struct ss_tab_col csv_run_cols[] = {
	{"Metric", SS_COL_TEXT, true, SS_TAB_CSV, NULL, NULL, false},
	CSV_STAT("Value"),
};

/* The per-request metrics (every statistic) or the run-level ones (the
 * value), sorted by tag; nothing when there is none. */
static void csv_section(struct ss_buf *out, const struct ss_results *r, bool per_request)
{
	int rows[SS_M_COUNT];
	int n = ss_report_sorted_metrics(r, per_request, rows);
	struct ss_tab t;

	if (per_request)
		ss_tab_init(&t, csv_request_cols, sizeof(csv_request_cols) / sizeof(csv_request_cols[0]));
	else
		ss_tab_init(&t, csv_run_cols, 2);
	for (int i = 0; i < n; i++) {
		ss_report_csv_label_text(ss_tab_begin(&t), rows[i]);
		ss_tab_end(&t);
		ss_report_stats_cells(&t, &r->stats[rows[i]], csv_picks,
				      per_request ? sizeof(csv_picks) / sizeof(csv_picks[0]) : 1,
				      SS_SF_ALL);
	}
	if (n || t.failed)
		ss_tab_csv(out, &t, true);
	ss_tab_release(&t);
}

void ss_sec_results_csv(struct ss_buf *out, const struct ss_report_ctx *c)
{
	csv_section(out, &c->a->main, true);
	csv_section(out, &c->a->main, false);
}

/* -- the Spec Decode table ---------------------------------------------------- */

#define LABEL_WRAP 30 /* the box's longest label with its unit on its line */

/* The console's rows, in order. */
static const int table_rows[] = {
	SS_M_ACCEPTANCE_LENGTH, SS_M_TOKEN_WEIGHTED_AL,
	SS_M_DRAFT_ACCEPTANCE_RATE, SS_M_OVERALL_DAR,
	SS_M_ACCEPTED_PER_VERIFIED, SS_M_STEPS, SS_M_ZERO_STEP_REQUESTS,
};

#define STAT(h) {h, SS_COL_FIX2, false, SS_TAB_TEXT | SS_TAB_HTML, NULL, NULL, false}

/* Metric, then the seven statistics; a run-level metric has its value
 * under avg and N/A under the others. The page's first column is not
 * marked left (its style sheet aligns a first column left), so it is a
 * column of its own there. */
static const struct ss_tab_col spec_cols[] = {
	{"Metric", SS_COL_TEXT, true, SS_TAB_TEXT, NULL, NULL, false},
	{"Metric", SS_COL_TEXT, false, SS_TAB_HTML, NULL, NULL, false},
	STAT("avg"), STAT("min"), STAT("max"), STAT("p99"), STAT("p90"), STAT("p50"), STAT("std"),
};
#define NSTATS 7
static const enum ss_stat_pick spec_picks[NSTATS] = {
	SS_SP_AVG, SS_SP_MIN, SS_SP_MAX, SS_SP_P99, SS_SP_P90, SS_SP_P50, SS_SP_STD,
};

/* With `wrap` (the box), a label longer than LABEL_WRAP characters puts
 * "(unit)" on a row of its own under it, a row of empty cells. */
static void spec_table(struct ss_tab *t, const struct ss_results *r, bool wrap_long)
{
	ss_tab_init(t, spec_cols, sizeof(spec_cols) / sizeof(spec_cols[0]));
	for (size_t i = 0; i < sizeof(table_rows) / sizeof(table_rows[0]); i++) {
		int m = table_rows[i];
		const struct ss_metric_info *mi = &ss_metric_table[m];
		bool wrap = wrap_long && strlen(mi->header) > LABEL_WRAP;

		if (!r->has[m])
			continue;
		for (int k = 0; k < 2; k++) {
			struct ss_buf *label = ss_tab_begin(t);

			ss_buf_adds(label, mi->header);
			if (!wrap)
				ss_buf_addf(label, " (%s)", mi->unit);
			ss_tab_end(t);
		}
		ss_report_stats_cells(t, &r->stats[m], spec_picks, NSTATS,
				      mi->per_request ? SS_SF_ALL : SS_SF_FIRST);
		if (!wrap)
			continue;
		for (int k = 0; k < 2; k++) {
			ss_buf_addf(ss_tab_begin(t), "(%s)", mi->unit);
			ss_tab_end(t);
		}
		for (int k = 0; k < NSTATS; k++)
			ss_tab_empty(t);
	}
}

static void add_percent(struct ss_buf *out, const char *key, __int128 count, double total)
{
	ss_buf_adds(out, key);
	ss_buf_adds(out, ": ");
	ss_buf_add_fixed0(out, (double)count / total * 100.0);
	ss_buf_addc(out, '%');
}

/* `Accepted drafts per step (% of steps):  0: 20%   1: ...` after prefix. */
static void hist_line(struct ss_buf *out, const struct ss_results *r, const char *prefix)
{
	__int128 sum = 0, rest = 0;
	size_t top = 0;
	bool any = false;
	char key[24];

	for (size_t j = 0; j < r->hist_len; j++) {
		if (r->hist[j]) {
			any = true;
			top = j;
			sum += r->hist[j];
		}
	}
	if (!any)
		return;
	ss_buf_adds(out, prefix);
	ss_buf_adds(out, "Accepted drafts per step (% of steps):  ");
	for (size_t j = 0; j <= top && j < 8; j++) {
		if (j)
			ss_buf_adds(out, "   ");
		snprintf(key, sizeof(key), "%zu", j);
		add_percent(out, key, r->hist[j], (double)sum);
	}
	if (top >= 8) {
		for (size_t j = 8; j <= top; j++)
			rest += r->hist[j];
		ss_buf_adds(out, "   ");
		add_percent(out, ">=8", rest, (double)sum);
	}
	ss_buf_addc(out, '\n');
}

void ss_sec_results_text(struct ss_buf *out, const struct ss_report_ctx *c)
{
	struct ss_tab t;

	spec_table(&t, &c->a->main, true);
	t.fixed = true; /* SPEC 4.3: the fixed layout, at any width */
	ss_tab_box(out, &t, "Spec Decode", c->utf8, c->color);
	ss_tab_release(&t);
	hist_line(out, &c->a->main, "  ");
}

void ss_sec_results_md(struct ss_buf *out, const struct ss_report_ctx *c)
{
	struct ss_tab t;

	ss_buf_adds(out, "## Spec Decode\n");
	spec_table(&t, &c->a->main, false);
	if (ss_tab_rows(&t) || t.failed) {
		ss_buf_addc(out, '\n');
		ss_tab_md(out, &t);
	}
	ss_tab_release(&t);
	if (!hist_empty(&c->a->main)) {
		ss_buf_addc(out, '\n');
		hist_line(out, &c->a->main, "");
	}
}

/* -- HTML ------------------------------------------------------------------- */

/* `caption`: trusted markup. */
static void html_table(struct ss_buf *out, const struct ss_results *r, const char *caption)
{
	struct ss_tab t;

	spec_table(&t, r, false);
	ss_tab_html(out, &t, caption);
	ss_tab_release(&t);
}

/* The Spec Decode section: the table of the run, the intervals (7.2) under
 * it and the table of the warmup requests, when any. */
void ss_sec_results_html(struct ss_buf *out, const struct ss_report_ctx *c)
{
	const struct ss_agg *a = c->a;

	ss_buf_adds(out, "<section id=\"spec-decode\">\n<h2>Spec Decode</h2>\n");
	if (ss_results_any(&a->main)) {
		html_table(out, &a->main, "The numbers of specscan&#39;s console table and aggregate JSON");
		if (c->an)
			ss_sec_intervals_html(out, c);
	} else {
		ss_html_missing(out, "No request of the main results carried speculative-decoding "
			   "statistics, so the Spec Decode table, the histogram, the curves and the "
			   "distribution of acceptance lengths are left out. The accounting above says "
			   "what the requests were instead.");
	}
	if (a->mode == SS_PHASES_PROFILING && ss_results_any(&a->warmup)) {
		ss_buf_adds(out, "<h3>Warmup requests</h3>\n");
		html_table(out, &a->warmup, "The same metrics over the warmup requests only "
			   "(not part of the results above)");
	}
	ss_buf_adds(out, "</section>\n");
}

/* -- the page's pooled charts ----------------------------------------------------- */

/* A cell of a chart's own number text (trusted markup on the page): the
 * value with `dec` decimals, or (dec < 0) a share in percent as the
 * charts write it, one decimal, "<0.1" for one too small to show. */
static void chart_cell(struct ss_tab *t, double v, int dec)
{
	struct ss_buf n = SS_BUF_INIT;

	if (dec >= 0)
		ss_chart_add_fixed(&n, v, dec);
	else
		ss_chart_add_small(&n, v, 1);
	t->failed |= n.failed;
	ss_tab_markup(t, n.data ? n.data : "", n.data ? n.data : "");
	ss_buf_release(&n);
}

/* Histogram buckets drawn one by one; the rest share the last bar. */
#define MAX_HIST_BARS 32

/* The chart's numbers: the bucket, its steps, its share (one decimal, as
 * the chart writes it: "<0.1" for a share too small to show). */
static const struct ss_tab_col hist_cols[] = {
	{"Accepted drafts", SS_COL_TEXT, false, 0, NULL, NULL, false},
	{"Steps", SS_COL_COUNT, false, 0, NULL, NULL, false},
	{"% of steps", SS_COL_TEXT, false, 0, NULL, NULL, false},
};

/* The pooled acceptance histogram (% of steps): the share of verify steps
 * per number of accepted drafts, a bar chart and its numbers (the buckets
 * past MAX_HIST_BARS share the last bar). */
void ss_sec_results_hist_html(struct ss_buf *b, const struct ss_report_ctx *c)
{
	const struct ss_agg *a = c->a;
	const struct ss_results *r = &a->main;
	struct ss_bar bars[MAX_HIST_BARS];
	char names[MAX_HIST_BARS][24];
	__int128 counts[MAX_HIST_BARS] = {0}, sum = 0;
	struct ss_buf desc = SS_BUF_INIT;
	struct ss_tab t;
	size_t top = 0, nb;

	ss_buf_adds(b, "<section id=\"histogram\">\n<h2>Accepted drafts per step</h2>\n");
	if (hist_empty(r)) {
		struct ss_buf why = SS_BUF_INIT;

		if (!ss_results_any(r)) {
			ss_buf_adds(&why, "No histogram: no request carried speculative-decoding statistics.");
		} else {
			ss_buf_adds(&why, "No histogram: none of the requests with stats carries a per-step "
				    "acceptance histogram (how many draft tokens each verify step accepted). ");
			ss_buf_adds(&why, "Engines of these records: ");
			for (size_t i = 0; i < a->nengines; i++) {
				if (i)
					ss_buf_adds(&why, ", ");
				ss_buf_adds(&why, a->engines[i].name);
			}
			ss_buf_adds(&why, ". llama.cpp, for one, reports only the totals of accepted and "
				    "drafted tokens, so the share of steps per number of accepted drafts and "
				    "the acceptance by position cannot be computed; the totals and rates above "
				    "are complete.");
		}
		ss_html_missing_end(b, &why);
		return;
	}
	for (size_t j = 0; j < r->hist_len; j++) {
		if (r->hist[j])
			top = j;
		sum += r->hist[j];
	}
	nb = top + 1 <= MAX_HIST_BARS ? top + 1 : MAX_HIST_BARS;
	for (size_t j = 0; j <= top; j++)
		counts[j < nb - 1 || top + 1 <= MAX_HIST_BARS ? j : nb - 1] += r->hist[j];
	ss_buf_adds(&desc, "Bar chart of the share of verify steps, in percent, that accepted 0, 1, 2 "
		    "and more draft tokens:");
	for (size_t j = 0; j < nb; j++) {
		if (j == nb - 1 && top + 1 > MAX_HIST_BARS)
			snprintf(names[j], sizeof(names[j]), ">=%zu", j);
		else
			snprintf(names[j], sizeof(names[j]), "%zu", j);
		bars[j] = (struct ss_bar){names[j], (double)counts[j] / (double)sum * 100.0, false, 0, 0};
		ss_buf_addf(&desc, "%s %s: ", j ? "," : "", names[j]);
		ss_chart_add_small(&desc, bars[j].value, 1);
		ss_buf_addc(&desc, '%');
	}
	ss_buf_adds(&desc, ".");
	ss_buf_adds(b, "<p>How many draft tokens each verify step accepted, pooled over the requests "
		    "with a histogram (");
	ss_html_add_count(b, sum);
	ss_buf_adds(b, " steps). A step that accepts j drafts yields j + 1 tokens.</p>\n");
	ss_buf_adds(b, "<div class=\"fig\">\n");
	ss_chart_bars(b, &(struct ss_chart){
		.id = "c-hist", .title = "Accepted drafts per step (% of steps)",
		.desc = desc.data ? desc.data : "",
		.x_label = "Draft tokens accepted in a step", .y_label = "Share of steps (%)",
		.width = 640, .height = 340, .show_values = nb <= 16, .value_decimals = 1,
		.value_suffix = "%"}, bars, nb);
	ss_tab_init(&t, hist_cols, sizeof(hist_cols) / sizeof(hist_cols[0]));
	for (size_t j = 0; j < nb; j++) {
		ss_tab_text(&t, names[j]);
		ss_tab_int(&t, counts[j]);
		chart_cell(&t, bars[j].value, -1);
	}
	ss_tab_row_class(&t, "total");
	ss_tab_text(&t, "total");
	ss_tab_int(&t, sum);
	ss_tab_text(&t, "100.0");
	ss_tab_html(b, &t, "Numbers of the chart");
	ss_tab_release(&t);
	ss_buf_adds(b, "</div>\n</section>\n");
	if (desc.failed)
		b->failed = true;
	ss_buf_release(&desc);
}

/* Every bin: its edges (as the chart writes them), its requests, its share. */
static const struct ss_tab_col bin_cols[] = {
	{"From", SS_COL_TEXT, false, 0, NULL, NULL, false},
	{"To", SS_COL_TEXT, false, 0, NULL, NULL, false},
	{"Requests", SS_COL_COUNT, false, 0, NULL, NULL, false},
	{"%", SS_COL_TEXT, false, 0, NULL, NULL, false},
};

/* The distribution of the per-request acceptance lengths: a histogram of
 * the bins of chart_geom.h and a table of every bin. */
void ss_sec_results_dist_html(struct ss_buf *b, const struct ss_report_ctx *c)
{
	const struct ss_results *r = &c->a->main;
	const struct ss_vec_f64 *v = &r->values[SS_M_ACCEPTANCE_LENGTH];
	const struct ss_stats *s = &r->stats[SS_M_ACCEPTANCE_LENGTH];
	struct ss_buf desc = SS_BUF_INIT;
	struct ss_bins bins;
	struct ss_tab t;
	int dec;

	ss_buf_adds(b, "<section id=\"distribution\">\n<h2>Acceptance length across requests</h2>\n");
	if (!r->has[SS_M_ACCEPTANCE_LENGTH] || v->len == 0) {
		ss_html_missing(b, ss_results_any(r) ?
			"No request with stats has a number of verify steps, so there is no "
			"per-request acceptance length to show." :
			"No request carried speculative-decoding statistics.");
		ss_buf_adds(b, "</section>\n");
		return;
	}
	if (!ss_bins_compute(&bins, v->v, v->len)) {
		b->failed = true;
		ss_buf_adds(b, "</section>\n");
		return;
	}
	dec = bins.exp10 < 0 ? -bins.exp10 : 0;
	ss_buf_adds(b, "<p>The mean acceptance length of each request (tokens per verify step), ");
	ss_buf_add_u64_grouped(b, v->len);
	ss_buf_adds(b, v->len == 1 ? " request" : " requests");
	ss_buf_adds(b, ": median ");
	ss_buf_add_fixed2(b, s->p50);
	ss_buf_adds(b, ", 10th to 90th percentile ");
	ss_buf_add_fixed2(b, s->p10);
	ss_buf_adds(b, "&ndash;");
	ss_buf_add_fixed2(b, s->p90);
	ss_buf_adds(b, ", mean ");
	ss_buf_add_fixed2(b, s->avg);
	ss_buf_adds(b, ".</p>\n<div class=\"fig\">\n");
	ss_buf_adds(&desc, "Histogram of the requests' acceptance lengths in ");
	ss_buf_add_u64(&desc, bins.n);
	ss_buf_adds(&desc, bins.n == 1 ? " bin " : " bins ");
	ss_chart_add_fixed(&desc, bins.width, dec);
	ss_buf_adds(&desc, " wide from ");
	ss_chart_add_fixed(&desc, ss_bins_edge(&bins, 0), dec);
	ss_buf_adds(&desc, " to ");
	ss_chart_add_fixed(&desc, ss_bins_edge(&bins, bins.n), dec);
	ss_buf_adds(&desc, "; the table beside it lists every bin.");
	ss_chart_histogram(b, &(struct ss_chart){
		.id = "c-dist", .title = "Acceptance length per request",
		.desc = desc.data ? desc.data : "",
		.x_label = "Acceptance length (tokens per step)", .y_label = "Requests (count)",
		.width = 640, .height = 340}, &bins);
	ss_tab_init(&t, bin_cols, sizeof(bin_cols) / sizeof(bin_cols[0]));
	for (size_t i = 0; i < bins.n; i++) {
		chart_cell(&t, ss_bins_edge(&bins, i), dec);
		chart_cell(&t, ss_bins_edge(&bins, i + 1), dec);
		ss_tab_int(&t, (__int128)bins.count[i]);
		chart_cell(&t, bins.total > 0 ? (double)bins.count[i] / (double)bins.total * 100.0 : 0.0,
			   -1);
	}
	ss_tab_html(b, &t, "Bins [from, to)");
	ss_tab_release(&t);
	ss_buf_adds(b, "</div>\n</section>\n");
	if (desc.failed)
		b->failed = true;
	ss_buf_release(&desc);
	ss_bins_release(&bins);
}
