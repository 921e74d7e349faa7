/*
 * section.h - the sections of the reports that are written on one axis
 * (report-internal): each file of a SPEC section holds that section's
 * JSON, console, Markdown, CSV and HTML writers, building its tables once
 * with report/tabular.h. One section list (report.c) calls them: every
 * format (the JSON, the console, Markdown, CSV, the page's body) walks it
 * in its order; the callers ask for one render per format.
 *
 * Where a new piece goes (DESIGN): a column is one entry in its section's
 * column list (tabular.h), shown in every format that lists it; a section
 * of SPEC is one file sec_NAME.c (sec_NAME_page.c for its page when the
 * file would pass 900 lines) declared here and one entry in report.c's
 * list (a second entry where one format shows it elsewhere). A section
 * file includes no other section's file (the server's positions aside,
 * tests/check_includes.py); it may call another section's writers
 * declared here (a group's row holds its positions and intervals).
 *
 * Every writer borrows `c` for the call and appends to `out` (or the JSON
 * writer), keeping nothing; an allocation failure sets out->failed.
 */
#ifndef SS_SECTION_H
#define SS_SECTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/analyze.h"
#include "metrics/aggregate.h"
#include "report/jsonw.h"
#include "server/server.h"
#include "util/buf.h"

/* What a section reads: the aggregate, the analysis and how the console
 * draws (UTF-8 rules, bold heads); the server's results (NULL: no server
 * section), specscan's version (the JSON's) and the page's options. */
struct ss_html_opts;
struct ss_report_ctx {
	const struct ss_agg *a;
	const struct ss_analysis *an;
	bool utf8, color;
	const struct ss_server_results *srv;
	const char *version;
	const struct ss_html_opts *ho;
};

/* What was read and the accounting (sec_read.c): the `specscan` member
 * of the JSON with c->version, the accounting line, the page's "What was
 * read" with the versions of c->ho (report/html.h). No CSV. */
void ss_sec_read_json(struct ss_jsonw *w, const struct ss_report_ctx *c);
void ss_sec_read_text(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_read_md(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_read_html(struct ss_buf *out, const struct ss_report_ctx *c);

/* SPEC 4, the results (sec_results.c): the metrics and the pooled
 * histogram, the Spec Decode table and the histogram's line; the page's
 * Spec Decode section holds the intervals' table (an may be NULL). */
void ss_sec_results_json(struct ss_jsonw *w, const struct ss_report_ctx *c);
void ss_sec_results_text(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_results_md(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_results_csv(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_results_html(struct ss_buf *out, const struct ss_report_ctx *c);
/* The page's pooled charts: the acceptance histogram (% of steps per
 * number of accepted drafts) and the per-request acceptance lengths. */
void ss_sec_results_hist_html(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_results_dist_html(struct ss_buf *out, const struct ss_report_ctx *c);

/* SPEC 7.1 and 7.9, acceptance by position, the shorter drafts and
 * acceptance per drafted token (sec_positions.c; the page's section in
 * sec_positions_page.c): the main results', and the JSON of one result
 * set's (each group's row holds one; `speedup`: --speedup's cost source). */
void ss_sec_positions_json(struct ss_jsonw *w, const struct ss_report_ctx *c);
void ss_sec_positions_json_set(struct ss_jsonw *w, const struct ss_results *r,
			       const struct ss_set_analysis *s, bool speedup);
void ss_sec_positions_text(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_positions_md(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_positions_csv(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_positions_html(struct ss_buf *out, const struct ss_report_ctx *c);
/* SPEC 10.4: a server family's rows by the same writers (its positions are
 * the analysis's per-drafted-token rows, its shorter drafts 7.1's): the
 * JSON's `positions` and `what_if` arrays (each speedup with a cost), the
 * Markdown tables after an empty line, the page's chart with its table
 * (sec_positions_page.c; idx numbers the chart's id). */
void ss_sec_positions_server_json(struct ss_jsonw *w, const struct ss_server_family *f);
void ss_sec_positions_server_whatif_json(struct ss_jsonw *w, const struct ss_server_family *f);
void ss_sec_positions_server_md(struct ss_buf *out, const struct ss_server_family *f);
void ss_sec_positions_server_whatif_md(struct ss_buf *out, const struct ss_server_family *f);
void ss_sec_positions_server_html(struct ss_buf *out, const struct ss_server_family *f, size_t idx);

/* SPEC 7.2, the bootstrap intervals of the main results (sec_intervals.c);
 * the JSON of one result set's too (each group's row holds one). The
 * page's table is in its Spec Decode section. */
void ss_sec_intervals_json(struct ss_jsonw *w, const struct ss_report_ctx *c);
void ss_sec_intervals_json_set(struct ss_jsonw *w, const struct ss_analysis_opts *o,
			       const struct ss_set_analysis *s);
void ss_sec_intervals_text(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_intervals_md(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_intervals_csv(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_intervals_html(struct ss_buf *out, const struct ss_report_ctx *c);

/* SPEC 7.12, the definitions of acceptance length (sec_definitions.c). */
void ss_sec_defs_json(struct ss_jsonw *w, const struct ss_report_ctx *c);
void ss_sec_defs_text(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_defs_md(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_defs_csv(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_defs_html(struct ss_buf *out, const struct ss_report_ctx *c);

/* SPEC 7.3 and 7.4, the groups and their differences from the baseline
 * (sec_groups.c): the JSON's `groups` object, the `Spec Decode by KEY`
 * table with its legend (console, Markdown), the CSV's rows per group and
 * metric and per group and difference, the page's groups section (its
 * chart and table). With a baseline the page opens with the answer
 * (sec_groups_page.c): each group's sentence, cards, the overlaid
 * position charts and the table of the figures and their differences;
 * then each group's own position charts (nothing past six groups). */
void ss_sec_groups_json(struct ss_jsonw *w, const struct ss_report_ctx *c);
void ss_sec_groups_text(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_groups_md(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_groups_csv(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_groups_html(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_groups_answer_html(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_groups_each_html(struct ss_buf *out, const struct ss_report_ctx *c);
/* The groups' labels: group `id`'s key values as the console shows them,
 * "a.jsonl, 4" (not escaped); the key names "input, k"; and the labels of
 * all groups in key order (group_order) for a chart: what all of them
 * share is cut from each and said once in `axis` ("input: runs/….jsonl";
 * the key names when nothing is shared). store[i] (n = a->groups.n of
 * them, released by the caller) holds the text, lab[i] points into it. */
void ss_sec_groups_label(struct ss_buf *b, const struct ss_agg *a, size_t id);
void ss_sec_groups_keys(struct ss_buf *b, const struct ss_analysis *an);
void ss_sec_groups_labels(const struct ss_agg *a, const struct ss_analysis *an,
			  struct ss_buf *store, const char **lab, struct ss_buf *axis);

/* SPEC 7.8, the windows over time (sec_windows.c); the console shows a
 * line, the page the chart (html_int.h's ss_html_windows() draws it with
 * the server's series too). */
void ss_sec_windows_json(struct ss_jsonw *w, const struct ss_report_ctx *c);
void ss_sec_windows_text(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_windows_md(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_windows_csv(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_windows_html(struct ss_buf *out, const struct ss_report_ctx *c);

/* SPEC 7.11, the outliers (sec_outliers.c). */
void ss_sec_outliers_json(struct ss_jsonw *w, const struct ss_report_ctx *c);
void ss_sec_outliers_text(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_outliers_md(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_outliers_csv(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_outliers_html(struct ss_buf *out, const struct ss_report_ctx *c);

/* SPEC 10.4-10.5, the server's own counters (sec_server.c; the page's
 * part in sec_server_page.c): the `server` member of the JSON (server.groups
 * inside it), the `Server Spec Decode` section of the console and Markdown,
 * the CSV section `Engine,Metric,Value`, the page's section (last, SPEC
 * 9.1), and the windows' chart with the families' intervals on its time
 * axis (SPEC 7.8 with 10.3; an: the analysis with windows). */
void ss_sec_server_json(struct ss_jsonw *w, const struct ss_server_results *srv);
void ss_sec_server_text(struct ss_buf *out, const struct ss_server_results *srv);
void ss_sec_server_md(struct ss_buf *out, const struct ss_server_results *srv);
void ss_sec_server_csv(struct ss_buf *out, const struct ss_server_results *srv);
void ss_sec_server_html(struct ss_buf *out, const struct ss_server_results *srv);
void ss_sec_server_windows_html(struct ss_buf *out, const struct ss_analysis *an,
				const struct ss_server_results *srv);
/* Its pieces that sec_server_groups.c and sec_logs.c share:
 * - a family's whole object as in `families` (server.groups' rows, 10.7);
 * - a family object's opening and head (engine, counters, the counts,
 *   flags and window; the object is left open), an interval's or idle
 *   entry's `process` (its name, null for the unnamed process), a time or
 *   null;
 * - the engine's label (`vllm`, `tensorrt_llm (iterations)`);
 * - a family's CSV rows (Engine, Metric, Value), after a `dir` cell when
 *   dir is not NULL, with the differences from `base` when not NULL (t's
 *   columns say which). */
struct ss_tab;
void ss_sec_server_family_json(struct ss_jsonw *w, const struct ss_server_family *f);
void ss_sec_server_head_json(struct ss_jsonw *w, const struct ss_server_family *f);
void ss_sec_server_process_json(struct ss_jsonw *w, const struct ss_server_family *f, uint32_t p);
void ss_sec_server_time_json(struct ss_jsonw *w, const char *key, bool has, int64_t v);
/* - a family's `intervals` array (10.3; 12.2's log intervals): with
 *   `drafts` each interval's draft tokens and rate (the counters have
 *   them; a log line always does), with `pinned` its steps only where its
 *   acceptance length is known (a log's lines that do not pin them); */
void ss_sec_server_intervals_json(struct ss_jsonw *w, const struct ss_server_family *f,
				  bool drafts, bool pinned);
void ss_sec_server_engine(struct ss_buf *b, const struct ss_server_family *f);
void ss_sec_server_csv_rows(struct ss_tab *t, const struct ss_server_family *f,
			    const struct ss_server_family *base, const char *dir, size_t len);
/* The words the page shares with the console (sec_server.c): the
 * reconciliation line (no line end) and the notes, each a line after
 * `lead`, ending in a newline. */
void ss_sec_server_reconciliation_line(struct ss_buf *b, const struct ss_server_family *f);
void ss_sec_server_notes(struct ss_buf *b, const struct ss_server_family *f, const char *lead);

/* SPEC 10.7, the server's results per directory (sec_server_groups.c):
 * each writes nothing unless srv->groups is set (--group-by dir alone). */
void ss_sec_server_groups_json(struct ss_jsonw *w, const struct ss_server_results *srv);
void ss_sec_server_groups_text(struct ss_buf *out, const struct ss_server_results *srv,
			       bool utf8, bool color);
void ss_sec_server_groups_md(struct ss_buf *out, const struct ss_server_results *srv);
void ss_sec_server_groups_csv(struct ss_buf *out, const struct ss_server_results *srv);
void ss_sec_server_groups_html(struct ss_buf *out, const struct ss_server_results *srv);
/* SPEC 11.2-11.3, timing and the speedup over the baseline (sec_speedup.c):
 * a set's `timing` object (with --speedup), the speedup keys inside a
 * group's `vs_baseline`, the Timing table in each format, the group
 * table's Speedup and Draft Cost columns, and the page's speedup chart
 * (with a baseline; the page opens with it). */
struct ss_tab;
struct ss_tab_col;
void ss_sec_timing_json(struct ss_jsonw *w, const struct ss_set_analysis *s);
bool ss_sec_speedup_vs_any(const struct ss_set_analysis *s);
void ss_sec_speedup_vs_json(struct ss_jsonw *w, const struct ss_set_analysis *s);
void ss_sec_speedup_text(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_speedup_md(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_speedup_csv(struct ss_buf *out, const struct ss_report_ctx *c);
/* The group table's columns (into col and their box priorities into prio,
 * at most `room`; how many), its legend of them and a row's cells; nothing
 * without them. */
size_t ss_sec_speedup_group_cols(struct ss_tab_col *col, unsigned char *prio, size_t room,
				 const struct ss_analysis *an);
void ss_sec_speedup_legend(struct ss_buf *out, const struct ss_analysis *an);
void ss_sec_speedup_group_cells(struct ss_tab *t, const struct ss_analysis *an, size_t id);
void ss_sec_speedup_html(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_timing_html(struct ss_buf *out, const struct ss_report_ctx *c);
/* SPEC 11.5, the document of --acceptance-profile (sec_profile.c): the
 * profiles of the main results and of each group (c->an holds them). */
void ss_sec_profile_json(struct ss_buf *out, const struct ss_report_ctx *c);
/* SPEC 12.2-12.3, the log families of the server section (sec_logs.c):
 * the whole JSON entry of `server.families`, the console and Markdown
 * lines with their notes. */
void ss_sec_logs_json(struct ss_jsonw *w, const struct ss_server_family *f);
void ss_sec_logs_text(struct ss_buf *out, const struct ss_server_family *f, bool md);
void ss_sec_logs_html(struct ss_buf *out, const struct ss_server_family *f);

#endif
