/*
 * processor.h - private to the engines stage: the state one worker keeps
 * across requests (struct ss_processor), shared by request.c (the decision
 * in the order of SPEC 2.1) and linewalk.c (the one walk over a JSONL line
 * that feeds the capture).
 */
#ifndef SS_PROCESSOR_H
#define SS_PROCESSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engines/capture.h"
#include "engines/payload.h"
#include "engines/request.h"
#include "json/json.h"
#include "model/record.h"
#include "util/buf.h"

struct span {
	const char *p;
	size_t n;
};

/* How far ahead of the element at hand the key scan may run. */
#define SCAN_STEP ((size_t)64 << 10)

/* What a line's `metadata` says (SPEC 1.5). */
struct ss_meta_scan {
	bool cancelled;
	int phase;          /* -1 unknown */
	int credit_phase;   /* -1 unknown */
};

/* The metadata scan of a line that says nothing. */
#define SS_META_SCAN_NONE {false, -1, -1}

/*
 * What the metadata value v says (SS_META_SCAN_NONE when it is not an
 * object). false: the walk over it failed (*m then holds what it read).
 */
bool ss_meta_scan_of(struct ssj_value *v, struct ss_meta_scan *m);

/* What an enriched line's `source` object says. */
struct ss_source_scan {
	struct span input;   /* escaped */
	bool has_input, has_line, has_kind;
	const char *bad;     /* what is wrong, or NULL */
	uint64_t line;
	enum ss_kind kind;
};

/* An object-field callback filling a struct ss_source_scan. */
int ss_source_field(void *ctx, const char *key, size_t n, struct ssj_value *v);

/* What the walk over one JSONL line found at its top level. */
struct line_scan {
	struct ss_processor *p;
	bool has_responses;
	bool has_choices, has_meta_info, has_timings;
	struct span metadata;          /* any JSON type (SPEC 4.4: copied verbatim);
					* not taken when meta_inline */
	bool metadata_object;
	bool meta_inline;              /* read `metadata` during the walk ... */
	bool meta_seen;                /* ... found an object ... */
	struct ss_meta_scan meta;      /* ... which said this */
	struct span metrics;           /* object */
	/* The response element being walked (SPEC 1.4: packets win over text). */
	bool elem_packets, elem_text;
	struct span elem_text_span;
	bool sda_present;              /* spec_decode_acceptance, not null */
	enum ssj_type sda_type;
	struct span sda;
	bool error;                    /* `error` present and not null */
	struct span error_value;
	bool n_multi;
	int64_t n;
	struct span model;             /* root `model` string, escaped text */
	struct span payload_model;     /* `payload.model` string, escaped */
	struct span status;            /* `spec_decode_status` string, escaped */
	struct span reason;            /* `spec_decode_reason` string, escaped */
	bool source_seen;              /* a `source` object ... */
	struct ss_source_scan src;     /* ... saying this */
	/*
	 * read_parts: a line checked whole (not one of specscan's own) has its
	 * metadata scanned and its spec_decode_acceptance payload collected
	 * (into p->pl) during the walk, which a records line reads anyway; the
	 * last of a repeated key counts.
	 */
	bool read_parts;
	struct ss_meta_scan parts_meta;
	enum ssj_status parts_sda;     /* SSJ_EINTERNAL: no object payload */
	bool parsed;                   /* the walk over the line succeeded */
	const char *text;              /* the line */
	size_t len;
	size_t hit;                    /* next place a key may be (response_elem) */
	size_t scanned;                /* the line is scanned up to here */
	bool failed;                   /* a walk below the top level failed */
	bool nomem;
};

struct ss_processor {
	struct ss_process_opts opts;
	struct ssj_parser *outer;      /* the line */
	struct ssj_parser *element;    /* one element of `responses` */
	struct ssj_parser *inner;      /* objects, payloads, metadata */
	struct ss_buf chunk;           /* an unescaped object text (padded) */
	struct ss_capture cap;
	struct ss_payload pl;
	struct ss_record rec;
	struct line_scan scan;
	struct ss_buf model;           /* the outcome's model name */
	struct ss_buf input;           /* an enriched line's source.input */
	/* one response element: the raw spans of its data packets */
	struct span *parts;
	size_t nparts, parts_cap;
	/* the kind of the last line: a records line after one is checked whole first */
	enum ss_kind last_kind;
};

/*
 * Walk one JSONL line (its padded text) with p->outer, filling p->scan and,
 * for an AIPerf raw line, feeding the capture with the objects of its
 * responses. With meta_inline the `metadata` object is read during the walk
 * (scan.meta) instead of being kept as a span for a later look. Returns the
 * parse status; p->scan.nomem or p->cap.nomem tell that memory ran out,
 * p->scan.failed that a walk below the top level did.
 */
enum ssj_status ss_line_walk(struct ss_processor *p, const char *text, size_t len,
			     bool meta_inline);
/*
 * The same walk over a line that is checked whole by ssj_validate_whole()
 * first, reading a records line's parts on the way unless meta_inline (see
 * read_parts in struct line_scan). SSJ_OK: the line is valid to the letter
 * and was walked; any other status: nothing was walked, and ss_line_walk()
 * decides.
 */
enum ssj_status ss_line_walk_whole(struct ss_processor *p, const char *text, size_t len,
				   bool meta_inline);

#endif
