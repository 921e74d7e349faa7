/*
 * report_int.h - helpers shared by the report writers (not a public
 * interface of the stage).
 */
#ifndef SS_REPORT_INT_H
#define SS_REPORT_INT_H

#include <stddef.h>

#include <stdbool.h>

#include "analysis/analyze.h"
#include "metrics/aggregate.h"
#include "util/buf.h"

/*
 * Append s[0..n) as a JSON string literal. It checks UTF-8 (file names
 * are bytes): a byte that does not start a valid sequence is written as
 * \ufffd, so the output is always valid JSON.
 */
void ss_report_add_text(struct ss_buf *b, const char *s, size_t n);

/* Append a metric's unit-and-values object `{"unit": ..., "avg": ...}`
 * (run-level) or with all statistics (per-request), pretty-printed with
 * `indent` spaces before the keys. */
void ss_report_add_metric_obj(struct ss_buf *b, const struct ss_results *r,
			      int m, int indent);

/* A newline and n spaces; then `"k": ` after such an indentation. */
void ss_report_indent(struct ss_buf *b, int n);
void ss_report_key(struct ss_buf *b, int ind, const char *k);

/*
 * A result set's pooled histogram and metric objects as fields of the
 * enclosing object (keys at `ind`); *first: no field before them yet.
 */
void ss_report_add_results(struct ss_buf *b, const struct ss_results *r, int ind, bool *first);

/* CSV pieces (csv.c): a cell quoted when needed; a metric's first cell;
 * ",avg,min,...,std" of a per-request metric; the metrics of r of one kind
 * sorted by tag (how many). */
void ss_report_csv_cell(struct ss_buf *b, const char *s);
void ss_report_csv_label(struct ss_buf *b, int m);
void ss_report_csv_stats(struct ss_buf *b, const struct ss_stats *st);
int ss_report_sorted_metrics(const struct ss_results *r, bool per_request, int out[SS_M_COUNT]);

/* The console section's rows (table.c), in order. */
#define SS_REPORT_TABLE_NROWS 7
extern const int ss_report_table_rows[SS_REPORT_TABLE_NROWS];
/* The histogram and accounting lines of SPEC 4.3, after `prefix`. */
void ss_report_hist_line(struct ss_buf *out, const struct ss_results *r, const char *prefix);
void ss_report_accounting_line(struct ss_buf *out, const struct ss_agg *a, const char *prefix);
/* SPEC 7's console lines (positions, intervals) and the group table. */
void ss_report_text_analysis(struct ss_buf *out, const struct ss_agg *a,
			     const struct ss_analysis *an, bool utf8);
void ss_report_text_groups(struct ss_buf *out, const struct ss_agg *a,
			   const struct ss_analysis *an, bool utf8, bool color);

/* The `analysis` key of the aggregate JSON (SPEC 7), with its leading comma. */
void ss_report_json_analysis(struct ss_buf *b, const struct ss_agg *a,
			     const struct ss_analysis *an);

#endif
