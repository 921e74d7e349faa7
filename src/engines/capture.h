/*
 * capture.h - find the spec-decode payload, the content and the usage of
 * a request's JSON objects (SPEC 2.2, 2.3).
 *
 * One struct ss_capture gathers what a request's objects say, object by
 * object, in order; the decision (which payload, which status) is made by
 * the caller once all objects were seen. The payload text chosen so far is
 * copied into the capture, so object texts may be short-lived.
 */
#ifndef SS_CAPTURE_H
#define SS_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json/json.h"
#include "util/buf.h"

enum ss_payload_loc {
	SS_LOC_NONE = 0,
	SS_LOC_METRICS,     /* metrics.speculative_decoding (vLLM) */
	SS_LOC_CHOICE,      /* choices[i].speculative_decoding (TensorRT-LLM) */
	SS_LOC_TIMINGS,     /* timings (llama.cpp) */
	SS_LOC_SGLEXT,      /* sglext.spec_tokens_details (SGLang) */
	SS_LOC_META_INFO,   /* meta_info or choices[0].meta_info (SGLang) */
};

struct ss_capture {
	bool content;            /* some object carries content */
	unsigned payload_objects;/* objects that carried a payload */
	bool all_timings;        /* ... and all of them at timings */
	enum ss_payload_loc loc; /* of the last payload */
	struct ss_buf payload;   /* the last payload's text (padded) */
	const char *payload_at;  /* where it was copied from, when read by
				    ss_capture_object_again; else NULL */
	bool multi_choice;
	char multi_reason[96];
	bool have_choice_index;  /* a choice-level payload was seen ... */
	int64_t choice_index;    /* ... for this choice index */
	bool has_completion_tokens;
	int64_t completion_tokens;
	bool has_model;          /* the first object with a string `model` ... */
	struct ss_buf model;     /* ... gave this name (unescaped) */
	bool nomem;
};

void ss_capture_init(struct ss_capture *c);
void ss_capture_release(struct ss_capture *c);
void ss_capture_reset(struct ss_capture *c);

/*
 * Add one object (its padded text) of the request. `parser` may be any
 * parser not otherwise in use. Texts that are not a valid JSON object are
 * skipped whole (SPEC 1.4): the text is validated to the letter (a NaN
 * anywhere in it) before it contributes anything. Returns false only when
 * memory ran out.
 */
bool ss_capture_object(struct ss_capture *c, struct ssj_parser *parser,
		       const char *text, size_t len);
/*
 * The same for the object `parser` has just parsed (ssj_parse_again()'s
 * condition), without indexing its text again; the parser is then reused.
 * When that parse was the whole-text path, the payload's text can be
 * visited where it lies: ssj_parse_within(parser, payload_at, payload.len)
 * (unless that says otherwise, as after a parse of some other text).
 */
bool ss_capture_object_again(struct ss_capture *c, struct ssj_parser *parser);

#endif
