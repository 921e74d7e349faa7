/*
 * html_table.c - the Spec Decode section of the HTML report: the table of
 * SPEC 4.3 (and of the warmup requests, when any), with the console's rows
 * (ss_report_table_rows), and the 7.2 intervals.
 */
#include <stddef.h>

#include "report/analysis_text.h"
#include "report/html_int.h"
#include "report/htmlesc.h"
#include "report/numfmt.h"
#include "report/report_int.h"

static void stats_table(struct ss_buf *b, const struct ss_results *r, const char *caption)
{
	static const char *const cols[] = {"avg", "min", "max", "p99", "p90", "p50", "std"};

	ss_buf_adds(b, "<table>\n<caption>");
	ss_buf_add_htmls(b, caption);
	ss_buf_adds(b, "</caption>\n<thead><tr><th>Metric</th>");
	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
		ss_buf_addf(b, "<th>%s</th>", cols[c]);
	ss_buf_adds(b, "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < SS_REPORT_TABLE_NROWS; i++) {
		int m = ss_report_table_rows[i];
		const struct ss_metric_info *mi = &ss_metric_table[m];
		const struct ss_stats *s = &r->stats[m];
		const double v[] = {s->avg, s->min, s->max, s->p99, s->p90, s->p50, s->std};

		if (!r->has[m])
			continue;
		ss_buf_adds(b, "<tr><td>");
		ss_buf_adds(b, mi->header);
		ss_buf_adds(b, " (");
		ss_buf_add_htmls(b, mi->unit);
		ss_buf_adds(b, ")</td>");
		for (size_t c = 0; c < sizeof(v) / sizeof(v[0]); c++) {
			ss_buf_adds(b, "<td>");
			if (mi->per_request || c == 0)
				ss_buf_add_fixed2_grouped(b, v[c]);
			else
				ss_buf_adds(b, "N/A");
			ss_buf_adds(b, "</td>");
		}
		ss_buf_adds(b, "</tr>\n");
	}
	ss_buf_adds(b, "</tbody>\n</table>\n");
}

/* The 7.2 intervals of the main results: a table under the Spec Decode one. */
static void intervals_table(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an)
{
	const struct ss_set_analysis *s = &an->main;
	bool any = false;

	for (int k = 0; k < SS_BS_COUNT; k++)
		any = any || s->has_ci[k];
	if (!any)
		return;
	ss_buf_adds(b, "<table>\n<caption>");
	ss_report_add_level(b, an->opts->level);
	ss_buf_adds(b, "% bootstrap intervals over requests (");
	ss_buf_add_u64_grouped(b, an->opts->resamples);
	ss_buf_adds(b, an->opts->resamples == 1 ? " resample" : " resamples");
	ss_buf_adds(b, ", seed ");
	ss_buf_add_u64(b, an->opts->seed);
	ss_buf_adds(b, ")</caption>\n<thead><tr><th>Metric</th><th>avg</th><th>low</th><th>high</th>"
		    "</tr></thead>\n<tbody>\n");
	for (int k = 0; k < SS_BS_COUNT; k++) {
		const struct ss_metric_info *mi = &ss_metric_table[ss_boot_metric[k]];

		if (!s->has_ci[k])
			continue;
		ss_buf_adds(b, "<tr><td>");
		ss_buf_adds(b, mi->header);
		ss_buf_adds(b, " (");
		ss_buf_add_htmls(b, mi->unit);
		ss_buf_adds(b, ")</td><td>");
		ss_buf_add_fixed2_grouped(b, a->main.stats[ss_boot_metric[k]].avg);
		ss_buf_adds(b, "</td><td>");
		ss_buf_add_fixed2_grouped(b, s->lo[k]);
		ss_buf_adds(b, "</td><td>");
		ss_buf_add_fixed2_grouped(b, s->hi[k]);
		ss_buf_adds(b, "</td></tr>\n");
	}
	ss_buf_adds(b, "</tbody>\n</table>\n");
}

void ss_html_spec_decode(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an)
{
	ss_buf_adds(b, "<section id=\"spec-decode\">\n<h2>Spec Decode</h2>\n");
	if (ss_results_any(&a->main)) {
		stats_table(b, &a->main, "The numbers of specscan's console table and aggregate JSON");
		if (an)
			intervals_table(b, a, an);
	} else
		ss_html_missing(b, "No request of the main results carried speculative-decoding statistics, "
			   "so the Spec Decode table, the histogram, the curves and the distribution "
			   "of acceptance lengths are left out. The accounting above says what the "
			   "requests were instead.");
	if (a->mode == SS_PHASES_PROFILING && ss_results_any(&a->warmup)) {
		ss_buf_adds(b, "<h3>Warmup requests</h3>\n");
		stats_table(b, &a->warmup, "The same metrics over the warmup requests only "
			    "(not part of the results above)");
	}
	ss_buf_adds(b, "</section>\n");
}

