/*
 * analysis_more.h - the writers of SPEC 7.8 (windows over time) and 7.11
 * (outliers) for every destination but HTML (html_time.c): JSON members
 * of `analysis`, CSV sections, console lines and tables, Markdown
 * sections. Report-internal; called by the writers of each destination
 * (analysis_json.c, analysis_csv.c, analysis_text.c, table.c, markdown.c).
 *
 * Names from inputs (input, model) go through each destination's one
 * escaping: the JSON writer, CSV quoting, the grid (terminal and
 * Markdown escaping).
 *
 * Ownership: every function appends to the caller's buffer or JSON writer
 * and keeps nothing.
 */
#ifndef SS_ANALYSIS_MORE_H
#define SS_ANALYSIS_MORE_H

#include <stdbool.h>

#include "analysis/analyze.h"
#include "metrics/aggregate.h"
#include "report/jsonw.h"
#include "util/buf.h"

/* `"windows": {...}` (7.8) and `"outliers": {...}` (7.11). */
void ss_report_json_windows(struct ss_jsonw *w, const struct ss_analysis *an);
void ss_report_json_outliers(struct ss_jsonw *w, const struct ss_agg *a);
/* The CSV sections, each after an empty line (none when it has no row). */
void ss_report_csv_windows(struct ss_buf *out, const struct ss_analysis *an);
void ss_report_csv_outliers(struct ss_buf *out, const struct ss_agg *a);
/* "60 s", "5 min", "2 h": the duration as given. */
void ss_report_window_duration(struct ss_buf *b, const struct ss_analysis_opts *o);
/* The console's one line on the windows, after `prefix`. */
void ss_report_windows_line(struct ss_buf *out, const struct ss_analysis *an, const char *prefix);
/* The console's outlier tables and their counts line. */
void ss_report_text_outliers(struct ss_buf *out, const struct ss_agg *a, bool utf8, bool color);
/* The Markdown sections. */
void ss_report_md_windows(struct ss_buf *out, const struct ss_analysis *an);
void ss_report_md_outliers(struct ss_buf *out, const struct ss_agg *a);

#endif
