/*
 * report_int.h - helpers shared by the report writers (not a public
 * interface of the stage).
 *
 * Ownership: like the public writers, every helper appends to the caller's
 * buffer or JSON writer and keeps nothing.
 */
#ifndef SS_REPORT_INT_H
#define SS_REPORT_INT_H

#include <stddef.h>

#include <stdbool.h>

#include "analysis/analyze.h"
#include "metrics/aggregate.h"
#include "report/jsonw.h"
#include "util/buf.h"

/* The JSON of a result set and its accounting (results_json.c), for the
 * whole run and for each group: */
/* `"key": {"total": ..., "ok": ..., ...}`, the request accounting of SPEC 4.1. */
void ss_report_add_accounting(struct ss_jsonw *w, const char *key, uint64_t total,
			      const uint64_t status[SS_ST_COUNT]);
/* A result set's pooled histogram (when not empty) and metric objects, as
 * members of the enclosing object. */
void ss_report_add_results(struct ss_jsonw *w, const struct ss_results *r);
/* Only the metric objects. */
void ss_report_add_metrics(struct ss_jsonw *w, const struct ss_results *r);

/* The `specscan` member of the aggregate JSON (aggjson.c). */
void ss_report_json_specscan(struct ss_jsonw *w, const struct ss_agg *a, const char *version);

/* The CSV's metric sections (4.2; csv.c). */
void ss_report_csv_results(struct ss_buf *out, const struct ss_agg *a);
/* CSV pieces (csv.c): a cell quoted when needed; a metric's first cell;
 * ",avg,min,...,std" of a per-request metric; the metrics of r of one kind
 * sorted by tag (how many). */
void ss_report_csv_cell(struct ss_buf *b, const char *s);
/* SPEC 7.3: a CSV cell of a name from an input: a leading ' when it
 * begins as a formula would (escape.h), then quoted as any cell. */
void ss_report_csv_name(struct ss_buf *b, const char *s);
void ss_report_csv_label(struct ss_buf *b, int m);
void ss_report_csv_stats(struct ss_buf *b, const struct ss_stats *st);
int ss_report_sorted_metrics(const struct ss_results *r, bool per_request, int out[SS_M_COUNT]);

/* The console's Spec Decode box table (4.3; table.c), nothing when no row. */
void ss_report_text_spec_decode(struct ss_buf *out, const struct ss_results *r, bool utf8,
				bool color);
/* The Markdown report without the server's section (markdown.c). */
void ss_report_md_body(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an);
/* SPEC 7's CSV sections (analysis_csv.c). */
void ss_report_csv_analysis(struct ss_buf *out, const struct ss_agg *a,
			    const struct ss_analysis *an);

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

/* The `analysis` member of the aggregate JSON (SPEC 7). */
void ss_report_json_analysis(struct ss_jsonw *w, const struct ss_agg *a,
			     const struct ss_analysis *an);

#endif
