/*
 * request.h - from one framed request to its outcome (SPEC 1.3-2.6).
 *
 * A worker owns one struct ss_processor (its parsers and scratch buffers)
 * and calls ss_process() for each request in order, which fills a struct
 * ss_outcome (model/outcome.h) but not its metric values: the caller gets
 * those from ss_outcome_values() (metrics/values.h).
 */
#ifndef SS_REQUEST_H
#define SS_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/outcome.h"

struct ss_process_opts {
	enum ss_kind force_kind;   /* SS_KIND_UNKNOWN: detect per line */
	enum ss_engine only_engine; /* SS_ENGINE_NONE: all adapters */
	bool full_parse;           /* parse every chunk (no substring filter) */
	bool want_time;            /* read SPEC 7.8's time (outcome.timed) */
	bool want_timing;          /* read SPEC 11.1's timing (outcome.timing) */
	bool raw_timing;           /* only a raw line's (its enriched line, 4.4) */
	bool want_reasoning;       /* a records line's reasoning tokens (SPEC 11.4) */
	/* --group-by meta.NAME (SPEC 7.3): the NAMEs whose values the
	 * outcome carries (outcome.meta), at most SS_META_KEYS_MAX; the
	 * array is copied, the names borrowed for the processor's life */
	const char *const *meta_names;
	size_t meta_n;
};

struct ss_processor;

struct ss_processor *ss_processor_new(const struct ss_process_opts *opts);
void ss_processor_free(struct ss_processor *p);
/*
 * Give back the memory grown for a huge request (parsers, buffers): a
 * worker calls it after such a request so that each thread holds only
 * what ordinary requests need (README's memory bound). Outcomes of
 * earlier requests must no longer be used.
 */
void ss_processor_trim(struct ss_processor *p);

struct ssj_parser;
/*
 * The parser whose open document is the last request's JSONL line, for
 * the later readers of the outcome's spans (its metadata and metrics):
 * they visit them where they lie (ssj_visit_span) instead of indexing
 * the line again. Owned by the processor; its document is open until the
 * next ss_process() (closed for an SSE request).
 */
struct ssj_parser *ss_processor_document(struct ss_processor *p);

/* One framed request: a JSONL line, or the events of one SSE stream. */
struct ss_request_text {
	const char *const *parts;  /* JSON texts, each padded by SSJ_PADDING */
	const size_t *lens;
	size_t nparts;
	bool sse;                  /* the parts are SSE events */
	bool oversize;             /* the framer skipped it: no parts */
	uint64_t line;
	const char *input_name;    /* for the enriched JSONL `source` */
};

/*
 * Process one request. The borrowed pointers of `out` point into the
 * processor or into the request's text, and are valid until the next
 * ss_process() on this processor and as long as the text lives. Returns
 * false only when memory ran out (the outcome is then unusable).
 */
bool ss_process(struct ss_processor *p, const struct ss_request_text *req,
		struct ss_outcome *out);

#endif
