/*
 * payload.h - the fields of one spec-decode payload object, collected in a
 * single walk, and the strict readers the adapters use (SPEC 2.4).
 *
 * ss_payload_collect() visits a payload's JSON object once and remembers,
 * for every key any adapter knows, whether it is present, its JSON type,
 * and its text; integer arrays are decoded on the way. A key that appears
 * twice keeps its last value (as Python's json does). Number texts point
 * into the payload text, which must outlive the payload; strings are
 * copied into the payload, which owns them.
 */
#ifndef SS_PAYLOAD_H
#define SS_PAYLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/record.h"
#include "json/json.h"
#include "util/buf.h"

enum ss_field_id {
	/* vLLM */
	SS_F_ACCEPTANCE_HISTOGRAM = 0,
	SS_F_NUM_SPEC_STEPS,
	SS_F_MEAN_ACCEPTANCE_LENGTH,
	SS_F_DRAFT_ACCEPTANCE_RATE,
	SS_F_NUM_ACCEPTED_DRAFT_TOKENS,
	SS_F_NUM_DRAFT_TOKENS,
	SS_F_NUM_SPEC_TOKENS,
	SS_F_PER_STEP_ACCEPTED,
	SS_F_PER_STEP_DRAFTED,
	/* TensorRT-LLM */
	SS_F_TOTAL_ACCEPTED_DRAFT_TOKENS,
	SS_F_TOTAL_DRAFT_TOKENS,
	SS_F_ACCEPTANCE_RATE,
	/* llama.cpp and MLX servers */
	SS_F_DRAFT_N,
	SS_F_DRAFT_N_ACCEPTED,
	SS_F_DRAFT_ROUNDS,
	/* SGLang, every alias */
	SS_F_SPEC_VERIFY_CT,
	SS_F_SPEC_NUM_CORRECT_DRAFTS,
	SS_F_SPEC_ACCEPTED_DRAFTS,
	SS_F_SPEC_ACCEPT_TOKEN_NUM,
	SS_F_SPEC_NUM_PROPOSED_DRAFTS,
	SS_F_SPEC_PROPOSED_DRAFTS,
	SS_F_SPEC_DRAFT_TOKEN_NUM,
	SS_F_SPEC_CORRECT_DRAFTS_HISTOGRAM,
	SS_F_SPEC_ACCEPT_HISTOGRAM,
	/* AIPerf records line */
	SS_F_ENGINE,
	SS_F_COMPLETION_TOKENS,
	SS_F_PROMPT_TOKENS,
	/* vLLM, optional (SPEC 7.9) */
	SS_F_BY_DRAFT_LENGTH,
	/* AIPerf records line and enriched line, optional (SPEC 11.4) */
	SS_F_REASONING_TOKENS,
	SS_F_COUNT
};

/* Why an integer (or an element of an integer array) was refused. */
enum ss_int_error {
	SS_INT_OK = 0,
	SS_INT_NOT_NUMBER,
	SS_INT_NOT_INTEGER,
	SS_INT_NEGATIVE,
	SS_INT_RANGE,
	SS_INT_TOO_LONG
};

struct ss_field {
	bool present;
	enum ssj_type type;
	const char *text;       /* number: its text; string: unescaped (copied) */
	size_t len;
	/* arrays and (for the records line) histogram objects: */
	struct ss_vec_i64 ints;
	enum ss_int_error ierr;
	size_t ierr_index;      /* element at fault */
	char ierr_key[24];      /* object key at fault (histogram objects) */
};

struct ss_payload {
	struct ss_field f[SS_F_COUNT];
	char strbuf[SS_ENGINE_NAME_MAX * 2]; /* copies of short strings */
	size_t strlen;
	struct ss_buf engine;   /* the `engine` string whole, whatever its length */
	uint64_t touched;       /* bit i: f[i] written since the last reset */
};

void ss_payload_init(struct ss_payload *pl);
void ss_payload_release(struct ss_payload *pl);

/*
 * Collect the payload object whose text is [text, text + len): an object
 * of the document open on `parser` is visited where it lies; any other
 * text (a copy, padded) is checked whole first (json.h's
 * ssj_visit_span). Returns SSJ_OK, SSJ_ENOMEM, or the shim's error when
 * the text is not a valid object.
 */
enum ssj_status ss_payload_collect(struct ss_payload *pl, struct ssj_parser *parser,
				   const char *text, size_t len);

const char *ss_field_name(enum ss_field_id id);

/* The field is present with a non-null value. */
bool ss_field_given(const struct ss_payload *pl, enum ss_field_id id);

/*
 * The handle an adapter reads a payload through. It carries the payload and
 * the first failure's reason (as libarchive keeps its error in the handle):
 * every read after a failure does nothing, so an adapter reads field after
 * field and checks `bad` once; `why` then holds the first reason.
 */
struct ss_reader {
	struct ss_payload *pl;
	char *why;          /* whylen bytes, NUL-terminated on failure */
	size_t whylen;
	bool bad;
};

void ss_reader_init(struct ss_reader *rd, struct ss_payload *pl, char *why,
		    size_t whylen);

/* Fail with a reason of the adapter's own, unless a failure stands. */
void ss_reader_fail(struct ss_reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Read a count (SPEC 2.4: an integer literal in [0, 2^63-1]). Missing or
 * null: false with *has = false; `required` then makes it a failure. A
 * value that is not a valid count fails with *has = true. `has` may be
 * NULL. The return value is "usable": true when *out was set.
 */
bool ss_read_count(struct ss_reader *rd, enum ss_field_id id, bool required, bool *has,
		   int64_t *out);

/* Read a finite double; same conventions. */
bool ss_read_double(struct ss_reader *rd, enum ss_field_id id, bool required, bool *has,
		    double *out);

/*
 * Move an integer array into `dst` (swapping buffers; dst is emptied
 * first). Missing or null: *has = false. Not an array, or a bad element:
 * a failure.
 */
void ss_read_array(struct ss_reader *rd, enum ss_field_id id, bool required, bool *has,
		   struct ss_vec_i64 *dst);

/* Parse an integer literal of any length; SS_INT_OK with *out set. */
enum ss_int_error ss_parse_count_long(const char *s, size_t n, int64_t *out);

/*
 * The same, inline for the usual count: 1 to 18 digits and no sign, which
 * cannot overflow (10^18 < 2^63). Anything else goes to the long form.
 */
static inline enum ss_int_error ss_parse_count(const char *s, size_t n, int64_t *out)
{
	uint64_t v = 0;

	if (n == 0 || n > 18 || s[0] == '-')
		return ss_parse_count_long(s, n, out);
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (d > 9)
			return SS_INT_NOT_INTEGER;
		v = v * 10 + d;
	}
	*out = (int64_t)v;
	return SS_INT_OK;
}

#endif
