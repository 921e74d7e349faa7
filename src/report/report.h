/*
 * report.h - the aggregate outputs (SPEC 4.1-4.3) and the enriched
 * per-request line (4.4), each appended to a buffer.
 *
 * Ownership: every writer only appends to the caller's buffer and borrows
 * the aggregate, the analysis and the outcome for the call, keeping
 * nothing; an allocation failure sets out->failed (see util/buf.h), which
 * the caller checks once. The aggregate must have been through
 * ss_agg_finish(). No output depends on the locale.
 *
 * Choices where the SPEC is silent:
 * - Input names and other texts are written as JSON strings with invalid
 *   UTF-8 bytes replaced by \ufffd, so every output is valid JSON.
 * - Aggregate JSON: `warmup_metrics` holds the metric objects only (no
 *   histogram); the inputs list name, kind and requests (no failure flag).
 * - Console: the label is header + " (unit)" for every metric, `count`
 *   and `requests` included (`Spec Decode Steps (count)`), as SPEC 4.3
 *   and AIPerf's console say; only the CSV leaves those two units out.
 *   The title is centred exactly ((width - 11) / 2 spaces before it, none
 *   after). Only the header cells are bold when `color`. The accounting
 *   line says `1 request` for a single request and counts use `,`
 *   separators.
 * - JSONL: for a records line, its own metrics keep their order and text;
 *   the SPEC 3 tags are dropped from them and specscan's per-request
 *   metrics (ok only) follow, in the order of ss_metric_table. For other
 *   kinds, `metrics` is left out when there is none. A non-ok request
 *   without a reason of its own gets a short default reason.
 */
#ifndef SS_REPORT_H
#define SS_REPORT_H

#include <stdbool.h>

#include "analysis/analyze.h"
#include "model/outcome.h"
#include "json/json.h"
#include "metrics/aggregate.h"
#include "util/buf.h"

struct ss_server_results;

/*
 * The four aggregate reports, each whole: every section of SPEC 4, 7 and
 * 10.4 that has something to say, in the order of the section list
 * (report.c). `an` may be NULL (no analysis option given) and `srv` NULL
 * (no server input read); the server's section comes last (SPEC 9.1).
 * The HTML page is report/html.h's.
 */
/* Aggregate JSON (4.1), 2-space indent, ending with a newline, with SPEC
 * 7's `analysis` key when `an` holds any and 10.4's `server` key last. */
void ss_report_json(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
		    const struct ss_server_results *srv, const char *version);
/* Aggregate CSV (4.2), CRLF line ends, then SPEC 7's and 10.4's sections,
 * each after an empty line when anything precedes it. Empty when no
 * metric exists. */
void ss_report_csv(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
		   const struct ss_server_results *srv);
/* The console Spec Decode section (4.3), with SPEC 7's lines and tables
 * and the `Server Spec Decode` section. */
void ss_report_table(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
		     const struct ss_server_results *srv, bool utf8, bool color);
/* `-f markdown` (SPEC 9.2): the console's sections as GitHub Markdown. */
void ss_report_markdown(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an,
			const struct ss_server_results *srv);

/* The --acceptance-profile document (SPEC 11.5), a file of its own:
 * report/sec_profile.c. `an` must hold the positions (7.1). */
void ss_report_profile(struct ss_buf *out, const struct ss_agg *a, const struct ss_analysis *an);

/*
 * The enriched JSONL line (4.4) of one request, newline included.
 * `parser` reads a records line's metrics to rewrite them: best the
 * processor's (ss_processor_document), which holds the line open; any
 * other parser checks the metrics' text on its own first.
 */
void ss_report_jsonl(struct ss_buf *out, struct ssj_parser *parser,
		     const char *input_name, const struct ss_outcome *o);

#endif
