/*
 * report_int.h - helpers shared by the report writers (not a public
 * interface of the stage).
 */
#ifndef SS_REPORT_INT_H
#define SS_REPORT_INT_H

#include <stddef.h>

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

#endif
