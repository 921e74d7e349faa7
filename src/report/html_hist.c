/*
 * html_hist.c - the pooled acceptance histogram of the HTML report: the
 * share of verify steps per number of accepted drafts, a bar chart and its
 * numbers (the buckets past MAX_HIST_BARS share the last bar).
 */
#include <stdio.h>

#include "report/chart.h"
#include "report/html_int.h"
#include "report/htmlesc.h"
#include "report/numfmt.h"
#include "report/tabular.h"

/* Histogram buckets drawn one by one; the rest share the last bar. */
#define MAX_HIST_BARS 32

/* The chart's numbers: the bucket, its steps, its share (one decimal, as
 * the chart writes it: "<0.1" for a share too small to show). */
static const struct ss_tab_col hist_cols[] = {
	{"Accepted drafts", SS_COL_TEXT, false, 0, NULL, NULL, false},
	{"Steps", SS_COL_COUNT, false, 0, NULL, NULL, false},
	{"% of steps", SS_COL_TEXT, false, 0, NULL, NULL, false},
};

/* A cell of the chart's own number text (trusted markup on the page). */
static void share_cell(struct ss_tab *t, double v)
{
	struct ss_buf n = SS_BUF_INIT;

	ss_chart_add_small(&n, v, 1);
	t->failed |= n.failed;
	ss_tab_markup(t, n.data ? n.data : "", n.data ? n.data : "");
	ss_buf_release(&n);
}

static bool hist_any(const struct ss_results *r)
{
	for (size_t j = 0; j < r->hist_len; j++)
		if (r->hist[j])
			return true;
	return false;
}

void ss_html_histogram(struct ss_buf *b, const struct ss_agg *a)
{
	const struct ss_results *r = &a->main;
	struct ss_bar bars[MAX_HIST_BARS];
	char names[MAX_HIST_BARS][24];
	__int128 counts[MAX_HIST_BARS] = {0}, sum = 0;
	struct ss_buf desc = SS_BUF_INIT;
	struct ss_tab t;
	size_t top = 0, nb;

	ss_buf_adds(b, "<section id=\"histogram\">\n<h2>Accepted drafts per step</h2>\n");
	if (!hist_any(r)) {
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
		share_cell(&t, bars[j].value);
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

