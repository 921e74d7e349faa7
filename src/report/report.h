/*
 * report.h - the aggregate outputs (SPEC 4.1-4.3) and the enriched
 * per-request line (4.4), each appended to a buffer.
 */
#ifndef SS_REPORT_H
#define SS_REPORT_H

#include <stdbool.h>

#include "engines/request.h"
#include "json/json.h"
#include "metrics/aggregate.h"
#include "util/buf.h"

/* Aggregate JSON (4.1), 2-space indent, ending with a newline. */
void ss_report_json(struct ss_buf *out, const struct ss_agg *a, const char *version);

/* Aggregate CSV (4.2), CRLF line ends. Empty when no metric exists. */
void ss_report_csv(struct ss_buf *out, const struct ss_agg *a);

/* The console Spec Decode section (4.3). */
void ss_report_table(struct ss_buf *out, const struct ss_agg *a, bool utf8, bool color);

/*
 * The enriched JSONL line (4.4) of one request, newline included.
 * `parser` is a scratch parser used to rewrite a records line's metrics.
 */
void ss_report_jsonl(struct ss_buf *out, struct ssj_parser *parser,
		     const char *input_name, const struct ss_outcome *o);

#endif
