/*
 * json.h - the C face of the simdjson shim (the C++ of src/json): the one way
 * into a JSON document.
 *
 * A text is opened on a parser (ssj_open), which indexes it and checks it
 * completely: its structure, its UTF-8, every literal, number and string
 * escape, and its depth (1,024 levels). A text that passes is the
 * parser's open document, and is read through visitors: ssj_visit() hands
 * each field of the root object to a callback, ssj_visit_span() the
 * fields of an object found inside it, and the callback inspects a value
 * with the ssj_value_* functions or descends with ssj_object_foreach()
 * and ssj_array_foreach(). A value that no callback touches is stepped
 * over, never decoded. Visits may be repeated as often as needed while
 * the document is open.
 *
 * How the shim reads a document (simdjson's structural index checked by
 * the shim's own grammar pass, or an On-Demand walk) is its own choice,
 * made per text: callers see the same statuses and the same values
 * either way.
 *
 * Ownership and lifetimes: the caller owns every text and must keep it
 * alive and unchanged while it is open (until the next ssj_open() or
 * ssj_close() on that parser). Texts must have SSJ_PADDING readable bytes
 * after their end (their content does not matter): nothing is copied.
 * A `struct ssj_value *` is borrowed, valid only inside the callback that
 * received it, and read once: ssj_value_type() as often as needed, then
 * one reader (a scalar's, ssj_value_raw_json, a foreach), except that an
 * object a foreach went through to its end can still give its text; an
 * object whose text was taken can be visited with ssj_visit_span(). Spans (ssj_value_raw_*, number texts) point into the text;
 * strings returned by ssj_value_string() point into the text or into the
 * parser, valid while the document is open.
 *
 * This header is plain C99 and includes only the three headers below.
 */
#ifndef SS_JSON_H
#define SS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SSJ_PADDING 64

enum ssj_status {
	SSJ_OK = 0,
	SSJ_STOPPED,    /* a callback returned non-zero */
	SSJ_ESYNTAX,    /* not valid JSON */
	SSJ_EUTF8,      /* invalid UTF-8 */
	SSJ_EDEPTH,     /* nested deeper than 1,024 levels */
	SSJ_ENOTOBJECT, /* the root is not an object */
	SSJ_ETYPE,      /* the value is not of the type asked for */
	SSJ_ERANGE,     /* a number that does not fit */
	SSJ_ECAPACITY,  /* the text is larger than the parser accepts */
	SSJ_ENOMEM,
	SSJ_EINTERNAL   /* misuse (no open document) or a shim fault */
};

enum ssj_type {
	SSJ_INVALID = 0,
	SSJ_OBJECT,
	SSJ_ARRAY,
	SSJ_STRING,
	SSJ_NUMBER,
	SSJ_BOOL,
	SSJ_NULL
};

struct ssj_parser;
/*
 * A value, as a callback borrows it. Only its first members are public,
 * filled when the shim knew them as it handed the value out, so that the
 * inline readers below need no call into the shim:
 * - `known`: the value's type, else SSJ_INVALID;
 * - `tok`, `tok_len`: for a number, its text; for a string, its escaped
 *   text between the quotes (pointing into the text); else tok is NULL;
 * - `plain`: such a string has no backslash: it is its unescaped text.
 * Read them through ssj_value_type(), ssj_value_number_text(),
 * ssj_value_string() and ssj_value_raw_string().
 */
struct ssj_value {
	enum ssj_type known;
	bool plain;
	const char *tok;
	size_t tok_len;
};

/* Return 0 to go on, non-zero to stop (the visit then ends with SSJ_STOPPED). */
typedef int (*ssj_field_fn)(void *ctx, const char *key, size_t keylen,
			    struct ssj_value *v);
typedef int (*ssj_elem_fn)(void *ctx, size_t index, struct ssj_value *v);

/* NULL when out of memory. ssj_parser_free(NULL) does nothing. */
struct ssj_parser *ssj_parser_new(void);
void ssj_parser_free(struct ssj_parser *p);

/*
 * Index and check `text` (len bytes + SSJ_PADDING readable), whose root
 * must be an object; on SSJ_OK it is the parser's open document. Any
 * other status: the text is not valid JSON (or not an object) and the
 * parser has no open document. JSON as Python's json and jq read it: a
 * number of any size or precision is valid; a lone surrogate escape
 * (\ud800) is valid, and reads as U+FFFD where its string is decoded.
 */
enum ssj_status ssj_open(struct ssj_parser *p, const char *text, size_t len);
/*
 * The same for a text whose root is an array (TensorRT-LLM's iteration
 * statistics, polled, are one): indexed and checked in place, as
 * ssj_open() checks an object (the array the first of the 1,024 levels),
 * nothing copied. A text whose first byte after white space is not '['
 * is SSJ_ETYPE (not read further). Its elements are read with
 * ssj_visit_array(); ssj_visit() on it is SSJ_ENOTOBJECT. Objects inside
 * it can be visited with ssj_visit_span() as in any open document.
 */
enum ssj_status ssj_open_array(struct ssj_parser *p, const char *text, size_t len);
/* Forget the open document (its text may then die). */
void ssj_close(struct ssj_parser *p);

/*
 * Call `fn` for each field of the open document's root object, in
 * document order (keys unescaped). fn may be NULL.
 */
enum ssj_status ssj_visit(struct ssj_parser *p, ssj_field_fn fn, void *ctx);

/*
 * Call `fn` for each element of the open document's root array (opened by
 * ssj_open_array()), in order; SSJ_ETYPE when the root is an object.
 */
enum ssj_status ssj_visit_array(struct ssj_parser *p, ssj_elem_fn fn, void *ctx);

/*
 * The same for an object whose text is exactly [text, text + len). An
 * object of the open document (as ssj_value_raw_json() gave it) is
 * visited where it lies, checked already, without being indexed again.
 * Any other text is opened and checked on its own first (its status
 * returned when it is not valid, SSJ_ENOTOBJECT when it is not an
 * object), without closing the open document. Not to be called from
 * inside another ssj_visit_span() callback on the same parser.
 */
enum ssj_status ssj_visit_span(struct ssj_parser *p, const char *text, size_t len,
			       ssj_field_fn fn, void *ctx);

/* The type of v: `known`, else the shim looks (ssj_value_type_slow). */
enum ssj_type ssj_value_type_slow(struct ssj_value *v);
static inline enum ssj_type ssj_value_type(struct ssj_value *v)
{
	return v->known != SSJ_INVALID ? v->known : ssj_value_type_slow(v);
}
bool ssj_value_is_null(struct ssj_value *v);
enum ssj_status ssj_value_bool(struct ssj_value *v, bool *out);
/* A finite double; SSJ_ERANGE for a number that overflows (1e400). */
enum ssj_status ssj_value_double(struct ssj_value *v, double *out);
/*
 * The double of a number's text as ssj_value_number_text() gave it (or
 * any number's text followed by white space, SSJ_PADDING bytes readable
 * after it): what ssj_value_double() gives for that value, so a reader
 * can keep the text and convert only when it needs to.
 */
enum ssj_status ssj_number_double(const char *text, size_t len, double *out);
/*
 * The three readers of a scalar's text: inline when the value's token is
 * known (ssj_value), else the shim looks (the _slow functions).
 */
enum ssj_status ssj_value_number_text_slow(struct ssj_value *v, const char **p, size_t *n);
enum ssj_status ssj_value_string_slow(struct ssj_value *v, const char **p, size_t *n);
enum ssj_status ssj_value_raw_string_slow(struct ssj_value *v, const char **p, size_t *n);

/* The number's text as written (e.g. "3.0", "-7", "1e400"), no white space. */
static inline enum ssj_status ssj_value_number_text(struct ssj_value *v, const char **p,
						    size_t *n)
{
	if (!v->tok || v->known != SSJ_NUMBER)
		return ssj_value_number_text_slow(v, p, n);
	*p = v->tok;
	*n = v->tok_len;
	return SSJ_OK;
}

/* The unescaped string (a lone surrogate as U+FFFD). */
static inline enum ssj_status ssj_value_string(struct ssj_value *v, const char **p, size_t *n)
{
	if (!v->tok || !v->plain || v->known != SSJ_STRING)
		return ssj_value_string_slow(v, p, n);
	*p = v->tok;
	*n = v->tok_len;
	return SSJ_OK;
}

/* The string's escaped text between its quotes, pointing into the text. */
static inline enum ssj_status ssj_value_raw_string(struct ssj_value *v, const char **p,
						   size_t *n)
{
	if (!v->tok || v->known != SSJ_STRING)
		return ssj_value_raw_string_slow(v, p, n);
	*p = v->tok;
	*n = v->tok_len;
	return SSJ_OK;
}
/* The value's whole JSON text (object, array or scalar) in the text. */
enum ssj_status ssj_value_raw_json(struct ssj_value *v, const char **p, size_t *n);
enum ssj_status ssj_object_foreach(struct ssj_value *v, ssj_field_fn fn, void *ctx);
/*
 * The same, but fn sees only the fields whose (unescaped) key length n has
 * bit n of `lens` set, bit 63 for every length from 63 on: a reader that
 * wants a few keys of a wide object saves a call per field it would pass
 * over (SSJ_ALL_LENS: every field).
 */
#define SSJ_LEN_BIT(n) ((uint64_t)1 << ((n) < 63 ? (n) : 63))
#define SSJ_ALL_LENS (~(uint64_t)0)
enum ssj_status ssj_object_foreach_lens(struct ssj_value *v, uint64_t lens, ssj_field_fn fn,
					void *ctx);
enum ssj_status ssj_array_foreach(struct ssj_value *v, ssj_elem_fn fn, void *ctx);
/*
 * Walk an array handing each element's whole JSON text and type to `fn`
 * (the raw span, as ssj_value_raw_json gives it): the fast way over an
 * array whose elements are mostly passed over. An object element can be
 * visited later with ssj_visit_span().
 */
typedef int (*ssj_span_fn)(void *ctx, size_t index, enum ssj_type type,
			   const char *p, size_t n);
enum ssj_status ssj_array_foreach_span(struct ssj_value *v, ssj_span_fn fn, void *ctx);
/* *empty tells whether the array or object has no element. */
enum ssj_status ssj_value_is_empty(struct ssj_value *v, bool *empty);

/* A short text for a status ("invalid JSON", ...). */
const char *ssj_strerror(enum ssj_status s);
/* The simdjson version string and the implementation in use ("haswell"). */
const char *ssj_version(void);
const char *ssj_implementation(void);
/*
 * How this build reads JSON, for --version: the whole-text path and
 * On-Demand, or On-Demand only (a build without the fast paths, or whose
 * simdjson lacks what the whole-text path uses).
 */
const char *ssj_paths_built(void);

#ifdef __cplusplus
}
#endif

#endif
