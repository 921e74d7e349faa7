/*
 * outputs.h - the set of report outputs of a run: each a file (or stdout,
 * see outfile.h) and the kind of report that goes into it.
 *
 * A list without a fixed number of entries: any number of outputs may be
 * added; adding fails only with a message (out of memory, or the file
 * cannot be opened), never silently.
 *
 * A new kind of output is a row in ss_out_kinds (outputs.c): its name in
 * an --output-dir and how it is rendered from the finished aggregate
 * (NULL: streamed during the run, as the records are).
 *
 * Ownership: the list owns its entries and their files. Entries do not
 * move once added (the signal handler of outfile.c chains through them).
 */
#ifndef SS_OUTPUTS_H
#define SS_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/analyze.h"
#include "cli/outfile.h"
#include "metrics/aggregate.h"
#include "server/server.h"
#include "util/buf.h"
#include "util/msg.h"

enum ss_out_kind {
	SS_OUT_JSON = 0, SS_OUT_CSV, SS_OUT_RECORDS, SS_OUT_HTML,
	SS_OUT_PROFILE,   /* --acceptance-profile (SPEC 11.5): not in an --output-dir */
	SS_OUT_FLAT,      /* --table-csv: streamed, not in an --output-dir */
	SS_OUT_KINDS
};

struct ss_output {
	enum ss_out_kind kind;
	struct ss_outfile file;
	struct ss_output *next;
};

struct ss_outputs {
	struct ss_output *head;
	struct ss_output **tail;
	size_t n;
	/* Refuse to overwrite existing files unless force; never write over
	 * one of the inputs. */
	bool force;
	/* --no-records: ss_outputs_add_dir leaves spec_decode_records.jsonl out */
	bool dir_no_records;
	const char *const *inputs;
	size_t ninputs;
	/* The analysis the HTML page is rendered with (SPEC 9.1 always shows
	 * 7.1 and 7.2); NULL: the run's. */
	const struct ss_analysis *html_analysis;
	/* The server's counters (SPEC 10.4); NULL: no server input was read. */
	const struct ss_server_results *server;
	/* Private: the rendered reports by kind, and the text for stdout
	 * (the table), held until ss_outputs_commit writes them. */
	struct ss_buf text[SS_OUT_KINDS];
	struct ss_buf stdout_text;
};

void ss_outputs_init(struct ss_outputs *l, bool force, const char *const *inputs,
		     size_t ninputs);
/* Open `path` ("-": stdout) for `kind` and append it. false (with a message)
 * on failure; the list is unchanged then. */
bool ss_outputs_add(struct ss_outputs *l, enum ss_out_kind kind, const char *path,
		    struct ss_msg *msg);
/* Add one output of every kind into `dir` (created when missing), under the
 * names of ss_out_kinds, in kind order. */
bool ss_outputs_add_dir(struct ss_outputs *l, const char *dir, struct ss_msg *msg);
bool ss_outputs_want(const struct ss_outputs *l, enum ss_out_kind kind);
/* Write to every output of `kind`; false when any of them has failed. */
bool ss_outputs_write(struct ss_outputs *l, enum ss_out_kind kind, const char *data,
		      size_t len);
/*
 * Render every kind that has an aggregate renderer and is wanted (with
 * SPEC 7's parts from `an`, which may be NULL), kept for commit. false
 * (with "out of memory") when a rendering failed.
 */
bool ss_outputs_render(struct ss_outputs *l, const struct ss_agg *agg,
		       const struct ss_analysis *an, const char *version, struct ss_msg *msg);
/* Text for standard output besides the list's outputs (the -f table or
 * markdown report), written at commit; the list takes `text` over (it is
 * left empty). */
void ss_outputs_take_stdout(struct ss_outputs *l, struct ss_buf *text);
/* Name every output whose write failed (one message each). */
void ss_outputs_report_failed(const struct ss_outputs *l, struct ss_msg *msg);
/*
 * Write the rendered reports and put every output in place, all or none
 * (see outputs.c for the order): false when any failed, and then no file
 * is in place and stdout has had nothing of the reports but what was
 * streamed to it during the run (-f jsonl). The one exception: a rename
 * that fails after the others succeeded (each is tried).
 */
bool ss_outputs_commit(struct ss_outputs *l, struct ss_msg *msg);
/* Remove every temporary file and free the list; it is empty after. */
void ss_outputs_abort(struct ss_outputs *l);
/* Free the list (after commit or abort). */
void ss_outputs_release(struct ss_outputs *l);

#endif
