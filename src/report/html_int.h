/*
 * html_int.h - the sections of the HTML report (html-internal: html.c
 * assembles the page from them, in this order) and the few writers they
 * share (html.c).
 *
 * Each section appends its <section> to `b` from the aggregate (and the
 * analysis, when it needs one), computing nothing but shares of a total
 * and what a chart needs to be drawn; every text from input goes through
 * ss_buf_add_html() (report/htmlesc.h). A section that cannot be drawn
 * says what is missing and why.
 *
 * Ownership: the sections borrow the aggregate and the analysis and keep
 * nothing; what they allocate for a chart they free before returning. An
 * allocation failure sets b->failed, checked once by the caller.
 */
#ifndef SS_HTML_INT_H
#define SS_HTML_INT_H

#include "analysis/analyze.h"
#include "metrics/aggregate.h"
#include "report/html.h"
#include "util/buf.h"

/* -- shared writers (html.c) ------------------------------------------------ */

/* A count with `,` separators (plain digits beyond 64 bits). */
void ss_html_add_count(struct ss_buf *b, __int128 v);
/* A share in percent with one decimal, "0.0" for an empty total and
 * "<0.1" for a part too small to show. */
void ss_html_add_pct(struct ss_buf *b, double part, double total);
/* The box that replaces a part that cannot be drawn, saying why. */
void ss_html_missing(struct ss_buf *b, const char *text);
/* The same with the text composed in `why` (released), then the end of
 * the section: a section that has nothing else to show. */
void ss_html_missing_end(struct ss_buf *b, struct ss_buf *why);

/* -- the sections, in page order ------------------------------------------- */

/* The page's lead, after its header (html.c): with a baseline the answer
 * (sec_groups_page.c) and each group's charts, then folded the groups and
 * the pooled part; groups without one: the groups, then the pooled part
 * folded; else the pooled key figures. Its end closes the fold, after the
 * pooled distribution. */
struct ss_report_ctx;
void ss_html_page_lead(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_html_page_lead_end(struct ss_buf *out, const struct ss_report_ctx *c);

/* Another series on the windows' time axis (the server's intervals, SPEC
 * 10.3): n points at t_ns[i] (Unix ns, as the requests' times) with value
 * v[i] (NaN: a gap); borrowed for the call. */
struct ss_html_time_series {
	const char *name;
	const int64_t *t_ns;
	const double *v;
	size_t n;
};
/* Acceptance length over time (7.8), with `nextra` more series on its axis
 * (sec_windows.c; sec_server_page.c adds the server's, SPEC 10.3). */
void ss_html_windows(struct ss_buf *b, const struct ss_analysis *an,
		     const struct ss_html_time_series *extra, size_t nextra);

#endif
