/*
 * processor.h - private to the engines stage: the state one worker keeps
 * across requests (struct ss_processor, which owns its parsers, buffers
 * and the record it fills), what the walk over a JSONL line found (struct
 * line_scan, whose spans borrow from the line), and the calls between the
 * stage's files.
 *
 * Calls run one way: request.c (SPEC 2.1's decision) calls linewalk.c
 * (the walk over a line, which feeds the capture), enriched.c (a line
 * specscan wrote) and the capture and payload; everything may call
 * processor.c (the processor's life and the helpers the decisions
 * share), which calls none of them.
 */
#ifndef SS_PROCESSOR_H
#define SS_PROCESSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engines/capture.h"
#include "engines/metadata.h"
#include "engines/payload.h"
#include "engines/request.h"
#include "json/json.h"
#include "model/record.h"
#include "util/buf.h"
#include "util/text.h"

/* How far ahead of the element at hand the key scan may run. */
#define SCAN_STEP ((size_t)64 << 10)

/* What an enriched line's `source` object says (SPEC 4.4, 8.1). */
struct ss_source_scan {
	struct ss_span input;   /* escaped */
	bool has_input, has_line, has_kind;
	bool has_concurrency;   /* SPEC 11.4 */
	int64_t concurrency;
	const char *bad;        /* what is wrong, or NULL */
	uint64_t line;
	enum ss_kind kind;
};

/* What the walk over one JSONL line found at its top level; the last of
 * a repeated key counts (SPEC 1.2). Spans point into the line. */
struct line_scan {
	struct ss_processor *p;
	bool has_responses;
	size_t nresponses;             /* objects in `responses` */
	bool has_choices, has_meta_info, has_timings;
	bool has_question_id;          /* with choices: maybe a harness line (SPEC 12.5) */
	struct ss_span metadata;       /* any JSON type (SPEC 4.4: copied verbatim) */
	bool metadata_object;
	struct ss_meta_scan meta;      /* what that object says */
	struct ss_span metrics;        /* object */
	struct ss_timing timing;       /* what it says (want_timing): SPEC 11.1 */
	/* The response element being walked (SPEC 1.4: packets win over text). */
	bool elem_packets, elem_text;
	struct ss_span elem_text_span;
	bool sda_present;              /* spec_decode_acceptance, not null */
	enum ssj_type sda_type;
	struct ss_span sda;            /* object */
	bool error;                    /* `error` present and not null */
	struct ss_span error_value;
	bool n_multi;
	int64_t n;
	struct ss_span model;          /* root `model` string, escaped text */
	struct ss_span payload_model;  /* `payload.model` string, escaped */
	struct ss_span status;         /* `spec_decode_status` string, escaped */
	struct ss_span reason;         /* `spec_decode_reason` string, escaped */
	bool source_seen;              /* a `source` object ... */
	struct ss_source_scan src;     /* ... saying this */
	bool parsed;                   /* the walk over the line succeeded */
	const char *text;              /* the line */
	size_t len;
	size_t hit;                    /* next place a key may be (response_elem) */
	size_t scanned;                /* the line is scanned up to here */
	bool failed;                   /* a visit below the top level failed */
	bool nomem;
	/* SPEC 11.1 (want_timing): a raw line's start and its elements */
	bool has_start;
	int64_t start;
	struct ss_raw_timer timer;
	bool elem_has_perf;            /* the visited element's perf_ns */
	int64_t elem_perf;
	/* SPEC 11.4 (want_reasoning): a records line's reasoning_token_count */
	bool has_reasoning;
	int64_t reasoning;
};

struct ss_processor {
	struct ss_process_opts opts;
	struct ssj_parser *outer;      /* the line, open until the next request */
	struct ssj_parser *inner;      /* a chunk, an SSE event, a payload's copy */
	struct ss_buf chunk;           /* an unescaped object text (padded) */
	struct ss_capture cap;
	struct ss_payload pl;
	struct ss_record rec;
	struct line_scan scan;
	struct ss_buf model;           /* the outcome's model name */
	struct ss_buf input;           /* an enriched line's source.input */
	struct ss_buf logtext;         /* a log request's metadata and metrics (logreq.c) */
	struct ss_meta_keys metakeys;  /* opts.meta_names' values (metadata.c) */
	/* one response element: the raw spans of its data packets */
	struct ss_span *parts;
	size_t nparts, parts_cap;
};

/* ---- linewalk.c ---- */

/*
 * Open one JSONL line (its padded text) on p->outer, which checks it
 * whole, and walk it, filling p->scan and, for an AIPerf raw line,
 * feeding the capture with the objects of its responses. Returns the
 * open or visit status; p->scan.nomem or p->cap.nomem tell that memory
 * ran out, p->scan.failed that a visit below the top level failed.
 */
enum ssj_status ss_line_walk(struct ss_processor *p, const char *text, size_t len);

/* ---- timing_read.c ---- */

/*
 * SPEC 11.1 and 11.4: the timing in a records or enriched line's `metrics`
 * object and its reasoning tokens, read in the line walk's own pass over
 * it: an object-field callback for the object's fields, ctx the struct
 * line_scan whose `timing`, `has_reasoning` and `reasoning` it fills
 * (cleared first by the caller): each time's {value, unit} in ms,
 * output_sequence_length and reasoning_token_count (an integral value >= 0,
 * unit `tokens`, as the output length). A value that cannot be read is
 * absent. It wants only keys of the lengths in SS_METRICS_TIMING_LENS
 * (ssj_object_foreach_lens): time_to_first_token and inter_token_latency
 * (19), request_latency (15), reasoning_token_count (21),
 * output_sequence_length (22).
 */
#define SS_METRICS_TIMING_LENS \
	(SSJ_LEN_BIT(15) | SSJ_LEN_BIT(19) | SSJ_LEN_BIT(21) | SSJ_LEN_BIT(22))
int ss_metrics_timing_field(void *ctx, const char *key, size_t n, struct ssj_value *v);
/*
 * An element of a raw line that the fast path passes over unvisited: its
 * perf_ns (an integer), read from its text; false: none.
 */
bool ss_elem_perf_ns(struct ssj_parser *doc, const char *text, size_t n, int64_t *perf);
/* A JSON integer literal (any sign) that fits int64_t. */
bool ss_parse_i64(const char *s, size_t n, int64_t *out);

/* ---- harness.c's caller, logreq.c ---- */

/*
 * A line with `question_id` and `choices` (open on p->outer), read as a
 * harness answer line (SPEC 12.5): false in *taken when it is not one (the
 * line goes on as a body); else o holds its request. false: out of memory.
 */
bool ss_harness_line(struct ss_processor *p, struct ss_outcome *o, bool *taken);

/* ---- enriched.c ---- */

/* An object-field callback filling a struct ss_source_scan. */
int ss_source_field(void *ctx, const char *key, size_t n, struct ssj_value *v);
/*
 * A line specscan wrote (SPEC 8.1), once its walk succeeded: its status,
 * reason, source, model, metadata, metrics and record taken as written.
 * false only when memory ran out.
 */
bool ss_enriched_line(struct ss_processor *p, struct ss_outcome *o, const char *text,
		      size_t len);

/* ---- processor.c ---- */

void ss_outcome_set(struct ss_outcome *o, enum ss_status s, const char *reason);
/* Point o->model at a name given as a string's escaped text (p->model
 * holds it); an invalid escape gives no model. false when out of memory. */
bool ss_outcome_model(struct ss_processor *p, struct ss_outcome *o, struct ss_span esc);
/*
 * The outcome of a record mapped as ok (o->status SS_ST_OK): SPEC 2.5's
 * identities checked, the status made ok, zero_step or malformed, and the
 * numbers the aggregation keeps copied.
 */
void ss_outcome_record(struct ss_processor *p, struct ss_outcome *o);
/* Keep a reason printable on one line. */
void ss_reason_sanitize(char *s);

#endif
