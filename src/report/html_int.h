/*
 * html_int.h - the sections of the HTML report (html-internal: html.c
 * assembles the page from them, in this order) and the few writers they
 * share (html_util.c).
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

/* -- shared writers (html_util.c) ---------------------------------------- */

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

/* The groups' labels (html_groups.c). Group `id`'s key values as the
 * console shows them, "a.jsonl, 4" (not escaped); the key names "input,
 * k"; and the labels of all groups in key order (group_order) for a chart:
 * what all of them share is cut from each and said once in `axis`
 * ("input: runs/…​.jsonl"; the key names when nothing is shared).
 * store[i] (n = a->groups.n of them, released by the caller) holds the
 * text, lab[i] points into it. */
void ss_html_group_label(struct ss_buf *b, const struct ss_agg *a, size_t id);
void ss_html_group_keys(struct ss_buf *b, const struct ss_analysis *an);
void ss_html_group_labels(const struct ss_agg *a, const struct ss_analysis *an,
			  struct ss_buf *store, const char **lab, struct ss_buf *axis);

/* -- the sections, in page order ------------------------------------------- */

/* With --compare, first (html_compare.c): the answer, i.e. the key figures
 * of the baseline and of each other group side by side (cards), their
 * acceptance by position in one chart, and the one table of the figures,
 * their differences and significance; then each group's own position
 * and shorter-draft charts, side by side. Nothing without a baseline. */
void ss_html_compare(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an);
void ss_html_compare_groups(struct ss_buf *b, const struct ss_agg *a,
			    const struct ss_analysis *an);
/* The pooled acceptance histogram (% of steps). */
void ss_html_histogram(struct ss_buf *b, const struct ss_agg *a);
/* The distribution of the per-request acceptance lengths. */
void ss_html_distribution(struct ss_buf *b, const struct ss_agg *a);
/* The groups (7.3) and the differences from the baseline (7.4). */
void ss_html_groups(struct ss_buf *b, const struct ss_agg *a, const struct ss_analysis *an);

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
