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
#include "report/section.h"
#include "report/tabular.h"
#include "util/buf.h"

/* The JSON of a result set (sec_results.c) and its accounting (sec_read.c),
 * for the whole run and for each group: */
/* `"key": {"total": ..., "ok": ..., ...}`, the request accounting of SPEC 4.1. */
void ss_report_add_accounting(struct ss_jsonw *w, const char *key, uint64_t total,
			      const uint64_t status[SS_ST_COUNT]);
/* A result set's pooled histogram (when not empty) and metric objects, as
 * members of the enclosing object. */
void ss_report_add_results(struct ss_jsonw *w, const struct ss_results *r);
/* Only the metric objects. */
void ss_report_add_metrics(struct ss_jsonw *w, const struct ss_results *r);

/*
 * One builder for SPEC 3.1's statistics wherever a metric is written
 * (sec_results.c; the timing of sec_speedup.c too): the JSON object
 * `"key": {"unit": ..., "avg": ..., "p1" ... "p99", "min", "max", "std",
 * "count", "sum"}` (with `all` false only unit and avg: a run-level
 * metric), and a table row's statistic cells, picked by name in the
 * table's column order.
 */
void ss_report_stats_json(struct ss_jsonw *w, const char *key, const char *unit,
			  const struct ss_stats *st, bool all);
enum ss_stat_pick {
	SS_SP_AVG = 0, SS_SP_MIN, SS_SP_MAX, SS_SP_SUM, SS_SP_P1, SS_SP_P5, SS_SP_P10,
	SS_SP_P25, SS_SP_P50, SS_SP_P75, SS_SP_P90, SS_SP_P95, SS_SP_P99, SS_SP_STD
};
/* What the cells hold: every picked value; the first one only, N/A in the
 * others (a run-level metric); N/A in all (no value). */
enum ss_stat_fill { SS_SF_ALL = 0, SS_SF_FIRST, SS_SF_NONE };
void ss_report_stats_cells(struct ss_tab *t, const struct ss_stats *st,
			   const enum ss_stat_pick *pick, size_t n, enum ss_stat_fill fill);

/* CSV pieces (sec_results.c; a cell's quoting is tabular.h's
 * ss_tab_csv_field): a metric's first cell's text, header + " (unit)"
 * except for counts of things; the metrics of r of one kind sorted by tag
 * (how many). */
void ss_report_csv_label_text(struct ss_buf *b, int m);
int ss_report_sorted_metrics(const struct ss_results *r, bool per_request, int out[SS_M_COUNT]);

/*
 * The one section list (report.c), walked in its order for one format:
 * each entry writes what its section says in that format (JSON through
 * `w`, the others to `out`), the page's body between html.c's header and
 * footer included. The report's frame (the JSON's outer object, the page's
 * head) is the caller's.
 */
enum ss_report_fmt { SS_RF_JSON, SS_RF_TEXT, SS_RF_MD, SS_RF_CSV, SS_RF_HTML, SS_RF_COUNT };
struct ss_report_walk {
	enum ss_report_fmt fmt;
	struct ss_report_ctx c;
	struct ss_jsonw *w;                  /* JSON */
	struct ss_buf *out;                  /* the other formats */
};
void ss_report_walk(const struct ss_report_walk *k);

#endif
