/*
 * section.h - the sections of the reports that are written on one axis
 * (report-internal): each file of a SPEC section holds that section's
 * JSON, console, Markdown, CSV and HTML writers, building its tables once
 * with report/tabular.h. report.c, analysis_json.c, markdown.c,
 * analysis_csv.c and html.c call them in the section order.
 *
 * Every writer borrows `c` for the call and appends to `out` (or the JSON
 * writer), keeping nothing; an allocation failure sets out->failed.
 */
#ifndef SS_SECTION_H
#define SS_SECTION_H

#include <stdbool.h>

#include "analysis/analyze.h"
#include "metrics/aggregate.h"
#include "report/jsonw.h"
#include "server/server.h"
#include "util/buf.h"

/* What a section reads: the aggregate, the analysis and how the console
 * draws (UTF-8 rules, bold heads). */
struct ss_report_ctx {
	const struct ss_agg *a;
	const struct ss_analysis *an;
	bool utf8, color;
};

/* SPEC 7.12, the definitions of acceptance length (sec_definitions.c). */
void ss_sec_defs_json(struct ss_jsonw *w, const struct ss_report_ctx *c);
void ss_sec_defs_text(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_defs_md(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_defs_csv(struct ss_buf *out, const struct ss_report_ctx *c);
void ss_sec_defs_html(struct ss_buf *out, const struct ss_report_ctx *c);

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

/* SPEC 12.2-12.3, the log families of the server section (sec_logs.c):
 * the whole JSON entry of `server.families`, the console and Markdown
 * lines with their notes. */
void ss_sec_logs_json(struct ss_jsonw *w, const struct ss_server_family *f);
void ss_sec_logs_text(struct ss_buf *out, const struct ss_server_family *f, bool md);
void ss_sec_logs_html(struct ss_buf *out, const struct ss_server_family *f);

#endif
