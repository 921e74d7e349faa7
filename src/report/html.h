/*
 * html.h - the HTML report (SPEC 9.1): one self-contained page, inline CSS
 * and inline SVG (report/chart.h), no script, no request to any other file
 * or host, no timestamp or host name: the same inputs give the same bytes.
 *
 * The writer only assembles sections from the aggregate (and the analysis,
 * when given) and the chart module; it computes no statistic of its own
 * beyond shares of a total and the bins of the per-request histogram.
 * Every text that came from input goes through ss_buf_add_html().
 *
 * Sections, in order: what was read (inputs, kinds, accounting, versions);
 * the Spec Decode table (4.3) and the warmup table when any; the pooled
 * acceptance histogram (% of steps); acceptance by position and the
 * shorter-draft curve per k (7.1); the distribution of per-request
 * acceptance lengths; groups (7.3, with interval whiskers) when asked
 * for. With --group-by the groups come first and the pooled sections are
 * folded; with --compare the answer comes first (each group's key figures
 * and curves side by side, the differences, 7.4) and the groups' section
 * and the pooled ones are folded. Each chart has its
 * numbers in a table beside it. A part that cannot be drawn (no
 * histogram, no stats at all) is replaced by a sentence saying what is
 * missing and why.
 *
 * Ownership: the writer borrows the aggregate, the analysis and the
 * options for the call and keeps nothing; the page is appended to the
 * caller's buffer.
 */
#ifndef SS_HTML_H
#define SS_HTML_H

#include "analysis/analyze.h"
#include "metrics/aggregate.h"
#include "util/buf.h"

struct ss_server_results;   /* server/server.h */

struct ss_html_opts {
	const char *version;     /* specscan's version */
	const char *libraries;   /* e.g. "simdjson 3.0.1, zstd 1.5.4"; NULL: none */
	const struct ss_server_results *server; /* SPEC 10.4's section; NULL: none */
};

/*
 * The whole page, appended to out (out->failed on allocation failure).
 * `an` (NULL: none) gives the parts of SPEC 7: acceptance by position, the
 * intervals (key figures, a table, group whiskers), the groups and the
 * comparison; SPEC 9.1 wants 7.1 and 7.2 always, so the caller runs the
 * analysis for the page with positions and intervals on.
 */
void ss_report_html(struct ss_buf *out, const struct ss_agg *a,
		    const struct ss_analysis *an, const struct ss_html_opts *o);

#endif
