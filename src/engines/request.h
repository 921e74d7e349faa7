/*
 * request.h - from one framed request to its outcome (SPEC 1.3-2.6).
 *
 * A worker owns one struct ss_processor (its parsers and scratch buffers)
 * and calls ss_process() for each request in order. The outcome holds the
 * status, the reason, the few numbers the aggregation keeps, and borrowed
 * views (the record, the input's metadata and metrics texts) from which
 * the report stage writes the enriched JSONL line (SPEC 4.4).
 */
#ifndef SS_REQUEST_H
#define SS_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engines/record.h"
#include "metrics/values.h"

#define SS_REASON_MAX 160

struct ss_outcome {
	enum ss_status status;
	enum ss_phase phase;
	enum ss_kind kind;
	uint64_t line;
	char reason[SS_REASON_MAX];      /* empty for ok */
	char engine[SS_ENGINE_NAME_MAX]; /* ok and zero_step */
	/* For ok records: what the aggregation needs. */
	bool has_steps;
	int64_t steps, accepted, drafted;
	bool has_k;          /* num_spec_tokens (SPEC 7.1) */
	int64_t k;
	struct ss_req_values values;
	const int64_t *hist; /* dense histogram, borrowed (see ss_process) */
	size_t hist_len;     /* 0 when the record has none */
	/* Borrowed views for the enriched JSONL, valid as `hist`: */
	const struct ss_record *record; /* ok and zero_step, else NULL */
	const char *metadata;           /* the line's `metadata` JSON text */
	size_t metadata_len;            /* 0: none */
	const char *metrics;            /* a records line's `metrics` object */
	size_t metrics_len;             /* 0: none */
};

struct ss_process_opts {
	enum ss_kind force_kind;   /* SS_KIND_UNKNOWN: detect per line */
	enum ss_engine only_engine; /* SS_ENGINE_NONE: all adapters */
	bool full_parse;           /* parse every chunk (no substring filter) */
};

struct ss_processor;

struct ss_processor *ss_processor_new(const struct ss_process_opts *opts);
void ss_processor_free(struct ss_processor *p);

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
