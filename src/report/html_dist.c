/*
 * html_dist.c - the distribution of the per-request acceptance lengths in
 * the HTML report: a histogram of the bins of chart_geom.h and a table of
 * every bin.
 */
#include <stdint.h>

#include "report/chart.h"
#include "report/html_int.h"
#include "report/htmlesc.h"
#include "report/numfmt.h"
#include "report/tabular.h"

/* Every bin: its edges (as the chart writes them), its requests, its share. */
static const struct ss_tab_col bin_cols[] = {
	{"From", SS_COL_TEXT, false, 0, NULL, NULL, false},
	{"To", SS_COL_TEXT, false, 0, NULL, NULL, false},
	{"Requests", SS_COL_COUNT, false, 0, NULL, NULL, false},
	{"%", SS_COL_TEXT, false, 0, NULL, NULL, false},
};

/* A cell of the chart's own number text (trusted markup on the page):
 * the value with `dec` decimals, or (dec < 0) part's share of total. */
static void chart_cell(struct ss_tab *t, double v, int dec, double total)
{
	struct ss_buf n = SS_BUF_INIT;

	if (dec >= 0)
		ss_chart_add_fixed(&n, v, dec);
	else
		ss_html_add_pct(&n, v, total);
	t->failed |= n.failed;
	ss_tab_markup(t, n.data ? n.data : "", n.data ? n.data : "");
	ss_buf_release(&n);
}

void ss_html_distribution(struct ss_buf *b, const struct ss_agg *a)
{
	const struct ss_results *r = &a->main;
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
		chart_cell(&t, ss_bins_edge(&bins, i), dec, 0);
		chart_cell(&t, ss_bins_edge(&bins, i + 1), dec, 0);
		ss_tab_int(&t, (__int128)bins.count[i]);
		chart_cell(&t, (double)bins.count[i], -1, (double)bins.total);
	}
	ss_tab_html(b, &t, "Bins [from, to)");
	ss_tab_release(&t);
	ss_buf_adds(b, "</div>\n</section>\n");
	if (desc.failed)
		b->failed = true;
	ss_buf_release(&desc);
	ss_bins_release(&bins);
}

