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

/* What the walk over one JSONL line found at its top level. */
struct line_scan {
	struct ss_processor *p;
	bool has_responses;
	bool has_choices, has_meta_info, has_timings;
	struct span metadata;
	struct span metrics;           /* object */
	bool sda_present;              /* spec_decode_acceptance, not null */
	enum ssj_type sda_type;
	struct span sda;
	bool error;                    /* `error` present and not null */
	struct span error_value;
	bool n_multi;
	int64_t n;
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
	/* one response element: the raw spans of its data packets */
	struct span *parts;
	size_t nparts, parts_cap;
};

/*
 * Walk one JSONL line (its padded text) with p->outer, filling p->scan and,
 * for an AIPerf raw line, feeding the capture with the objects of its
 * responses. Returns the parse status; p->scan.nomem or p->cap.nomem tell
 * that memory ran out, p->scan.failed that a walk below the top level did.
 */
enum ssj_status ss_line_walk(struct ss_processor *p, const char *text, size_t len);

#endif
