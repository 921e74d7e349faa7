/*
 * capture.h - find the spec-decode payload, the content and the usage of
 * a request's JSON objects (SPEC 2.2, 2.3).
 *
 * One struct ss_capture gathers what a request's objects say, object by
 * object, in order; the decision (which payload, which status) is made by
 * the caller once all objects were seen. The payload text chosen so far is
 * copied into the capture (its buffers, owned by it), so object texts may
 * be short-lived.
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
	const char *payload_at;  /* where it was copied from (in the document
				    it was captured from) */
	bool multi_choice;
	char multi_reason[96];
	bool have_choice_index;  /* a choice-level payload was seen ... */
	int64_t choice_index;    /* ... for this choice index */
	bool has_completion_tokens;
	int64_t completion_tokens;
	/*
	 * What the objects held when no payload is found (SPEC 5, "When
	 * nothing shows up"): the likely cause is named from these. Only
	 * objects that the key prefilter never skips count (those with a
	 * payload key: usage, timings, meta_info), so the fast path and a
	 * full parse name the same cause.
	 */
	bool metrics_no_sd;      /* a `metrics` object without speculative_decoding */
	bool metrics_with_usage; /* ... in an object with a `usage` key */
	bool timings_no_draft;   /* `timings` without draft_n and draft_n_accepted */
	bool meta_no_verify;     /* `meta_info` without spec_verify_ct */
	bool saw_usage;          /* some object has a `usage` key */
	bool has_prompt_tokens;  /* SPEC 7.10: from the same usage object */
	int64_t prompt_tokens;
	bool has_reasoning_tokens; /* SPEC 11.4: usage.completion_tokens_details. */
	int64_t reasoning_tokens;  /* reasoning_tokens of the same usage object */
	bool has_model;          /* the first object with a string `model` ... */
	struct ss_buf model;     /* ... gave this name (unescaped) */
	bool nomem;
};

void ss_capture_init(struct ss_capture *c);
void ss_capture_release(struct ss_capture *c);
void ss_capture_reset(struct ss_capture *c);

/*
 * Add one object of the request: the document open on `parser` (a chunk,
 * an SSE event, or a body line itself), checked already. Its payload's
 * text is copied into c->payload; c->payload_at tells where it lay in the
 * document, for a caller whose document stays open (a body line's
 * payload is then visited where it lies). Returns false only when memory
 * ran out.
 */
bool ss_capture_object(struct ss_capture *c, struct ssj_parser *parser);

#endif
