/*
 * flat.h - the flat per-request table (`--table-csv FILE`): one CSV head
 * row, then one row per request of every status, in input order, for
 * pandas, R or a spreadsheet (docs/RECORDS.md lists the columns).
 *
 * Columns: input, line, kind, status, reason, engine, model, k, steps,
 * accepted, drafted, acceptance_length, draft_acceptance_rate,
 * completion_tokens, prompt_tokens, reasoning_tokens, one `key.NAME`
 * column per --group-by key (its value, as the groups see it), then the
 * timing of SPEC 11.1: time_to_first_token_ms, inter_token_latency_ms,
 * request_latency_ms, output_tokens. A value the request does not have is
 * an empty cell; numbers are plain (no separator, no rounding: the
 * shortest text that reads back); names from an input are CSV-quoted and
 * formula-guarded (SPEC 7.3) by the table model (report/tabular.h). CRLF
 * line ends, as the aggregate CSV.
 *
 * A row is rendered by the worker that processed the request, from the
 * outcome while its views live (as the enriched line is), so the table
 * streams in bounded memory and is the same for any -j.
 *
 * Ownership: struct ss_flat owns its column list (ss_flat_release) and
 * borrows the group spec, which must outlive it; rows and the head are
 * appended to the caller's buffer. Safe to share between threads once
 * initialised (it is only read).
 */
#ifndef SS_FLAT_H
#define SS_FLAT_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/groupkey.h"
#include "metrics/groups.h"
#include "model/outcome.h"
#include "report/tabular.h"
#include "util/buf.h"

struct ss_flat {
	struct ss_tab_col *cols; /* owned */
	char *heads;             /* the key columns' heads; owned */
	size_t ncols, nkeys;
};

/* The columns for `spec` (NULL or no key: none); false when out of memory. */
bool ss_flat_init(struct ss_flat *f, const struct ss_group_spec *spec);
void ss_flat_release(struct ss_flat *f);
/* The head row. */
void ss_flat_head(const struct ss_flat *f, struct ss_buf *out);
/* The row of outcome `o` read from `input_name`, with its group key values
 * `key` (nkeys of them; NULL when there is no key). */
void ss_flat_row(const struct ss_flat *f, struct ss_buf *out, const char *input_name,
		 const struct ss_outcome *o, const struct ss_kv *key);

#endif
