/*
 * server_report.h - the server's own counters (SPEC 10.4) in every
 * report (report-internal; report.c puts them last): the `server` key of
 * the aggregate JSON and the CSV section `Engine,Metric,Value`
 * (server_jsoncsv.c), the `Server Spec Decode` section of `-f table` and
 * `-f markdown` and the lines the HTML section shares with it
 * (server_text.c); the HTML section itself is html_server.c's (html_int.h).
 *
 * Ownership: every writer appends to the caller's buffer (or JSON writer)
 * and borrows the results (server/server.h) for the call, keeping
 * nothing. Nothing written here comes from an input's bytes: engine,
 * counter and gauge names are the family table's, so no escaping applies
 * beyond what each destination always needs.
 */
#ifndef SS_SERVER_REPORT_H
#define SS_SERVER_REPORT_H

#include <stdbool.h>

#include "analysis/analyze.h"
#include "metrics/aggregate.h"
#include "report/jsonw.h"
#include "server/server.h"
#include "util/buf.h"

/* The `server` member of the aggregate JSON (10.4). */
void ss_report_json_server(struct ss_jsonw *w, const struct ss_server_results *r);

/* One family's object, as in `families` (server.groups' rows use it too, 10.7). */
void ss_report_json_server_family(struct ss_jsonw *w, const struct ss_server_family *f);

/*
 * Shared with the log families' writer (sec_logs.c): a family object's
 * opening and head (engine, counters, the counts, flags and window: the
 * family is left open), an interval's or idle entry's `process` (its name,
 * null for the unnamed process), a time or null.
 */
void ss_report_json_server_head(struct ss_jsonw *w, const struct ss_server_family *f);
void ss_report_json_server_process(struct ss_jsonw *w, const struct ss_server_family *f,
				   uint32_t p);
void ss_report_json_opt_time(struct ss_jsonw *w, const char *key, bool has, int64_t v);

/* The console section (after the Spec Decode section), `markdown`: as Markdown. */
void ss_report_server_text(struct ss_buf *out, const struct ss_server_results *r,
			   bool markdown);

/* Pieces of the section the HTML page shows too (no line end after the
 * first two; each note a line after `lead`, ending in a newline). */
void ss_report_server_family_line(struct ss_buf *b, const struct ss_server_family *f);
void ss_report_server_reconciliation_line(struct ss_buf *b, const struct ss_server_family *f);
void ss_report_server_notes(struct ss_buf *b, const struct ss_server_family *f, const char *lead);

/* The CSV section, after an empty line when `out` holds anything (CRLF). */
void ss_report_server_csv(struct ss_buf *out, const struct ss_server_results *r);

#endif
