/*
 * jsonw.h - the one JSON writer of the report stage (git's json-writer.c
 * is the model): string literals for every JSON output (the aggregate JSON
 * and its `analysis` key, the enriched per-request line), and a layout
 * writer that lays its output out as Python's json.dumps(indent=2) does
 * (SPEC 4.1), so the aggregate JSON is written one member per call.
 *
 * Every value call takes the member's key, or NULL for an array element
 * (or the outermost value). The writer puts the comma, the newline and the
 * indentation in front of each member, and closes a container on its own
 * line unless it is empty (`[]`, `{}`).
 *
 * Ownership: everything is appended to a buffer the caller owns; nothing
 * here allocates by itself or keeps a pointer it was given, and a failed
 * append shows in the buffer's `failed` flag as usual (util/buf.h).
 */
#ifndef SS_JSONW_H
#define SS_JSONW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

/*
 * Append s[0..n) as a JSON string literal. It checks UTF-8 (file names
 * are bytes, util/utf8.h): an invalid byte is written as \ufffd, so the
 * output is always valid JSON. Controls are escaped as json.dumps escapes
 * them (\n, \t, ..., \u001b); everything else, non-ASCII included, is
 * copied as it is.
 */
void ss_buf_add_json_string(struct ss_buf *b, const char *s, size_t n);

/* Deepest nesting the writer tracks (the outputs use about ten levels). */
#define SS_JSONW_MAX_DEPTH 63

struct ss_jsonw {
	struct ss_buf *b;
	int depth;		/* open containers; members are indented 2 * depth */
	uint64_t nonempty;	/* bit d: the container at depth d has a member */
};

void ss_jsonw_init(struct ss_jsonw *w, struct ss_buf *b);

void ss_jsonw_begin_object(struct ss_jsonw *w, const char *key);
void ss_jsonw_end_object(struct ss_jsonw *w);
void ss_jsonw_begin_array(struct ss_jsonw *w, const char *key);
void ss_jsonw_end_array(struct ss_jsonw *w);

void ss_jsonw_u64(struct ss_jsonw *w, const char *key, uint64_t v);
void ss_jsonw_i64(struct ss_jsonw *w, const char *key, int64_t v);
void ss_jsonw_i128(struct ss_jsonw *w, const char *key, __int128 v);
/* Python's repr() of v (numfmt.h); null when it is not finite. */
void ss_jsonw_double(struct ss_jsonw *w, const char *key, double v);
void ss_jsonw_str(struct ss_jsonw *w, const char *key, const char *s);
void ss_jsonw_strn(struct ss_jsonw *w, const char *key, const char *s, size_t n);
void ss_jsonw_null(struct ss_jsonw *w, const char *key);
void ss_jsonw_bool(struct ss_jsonw *w, const char *key, bool v);

/*
 * Start a member whose value is formatted elsewhere and return the buffer
 * to append exactly one JSON value to.
 */
struct ss_buf *ss_jsonw_value(struct ss_jsonw *w, const char *key);

#endif
