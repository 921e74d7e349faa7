/*
 * json.h - the C face of the simdjson shim (json.cpp).
 *
 * simdjson's On-Demand front end is forward-only, so this interface is a
 * visitor: ssj_parse() hands each field of the root object to a callback,
 * and the callback inspects its value with the ssj_value_* functions, or
 * descends with ssj_object_foreach()/ssj_array_foreach(). A value that a
 * callback does not touch is skipped without being decoded.
 *
 * Lifetimes: a `struct ssj_value *` is borrowed and valid only inside the
 * callback that received it, and only until the callback moves to another
 * value. Strings returned by ssj_value_string() live in the parser and are
 * valid until the parser's next ssj_parse(). Spans returned by
 * ssj_value_raw_*() point into the caller's text.
 *
 * Input texts must have SSJ_PADDING readable bytes after their end (their
 * content does not matter): nothing is copied before parsing.
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
	SSJ_EDEPTH,     /* nested deeper than the parser allows */
	SSJ_ENOTOBJECT, /* the root is valid JSON but not an object */
	SSJ_ETYPE,      /* the value is not of the type asked for */
	SSJ_ERANGE,     /* a number that does not fit */
	SSJ_ECAPACITY,  /* the text is larger than the parser accepts */
	SSJ_ENOMEM,
	SSJ_EINTERNAL
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
 * filled when the shim knew them as it handed the value out (every value
 * of a text checked whole), so that the readers below need no call into
 * the shim for them:
 * - `known`: the value's type, else SSJ_INVALID;
 * - `tok`, `tok_len`: for a number, its text; for a string, its escaped
 *   text between the quotes (pointing into the input); else tok is NULL;
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

/* Return 0 to go on, non-zero to stop (the walk then ends with SSJ_STOPPED). */
typedef int (*ssj_field_fn)(void *ctx, const char *key, size_t keylen,
			    struct ssj_value *v);
typedef int (*ssj_elem_fn)(void *ctx, size_t index, struct ssj_value *v);

/* NULL when out of memory. ssj_parser_free(NULL) does nothing. */
struct ssj_parser *ssj_parser_new(void);
void ssj_parser_free(struct ssj_parser *p);

/*
 * Parse `text` (len bytes + SSJ_PADDING readable) whose root must be an
 * object, and call `fn` for each field in document order (keys unescaped).
 * Trailing content after the root is SSJ_ESYNTAX. fn may be NULL (then the
 * fields are only walked over).
 */
enum ssj_status ssj_parse(struct ssj_parser *p, const char *text, size_t len,
			  ssj_field_fn fn, void *ctx);

/*
 * Check that `text` is one complete, valid JSON value: every scalar is
 * decoded, nothing is skipped. Slower than ssj_parse(); meant for small
 * spans that are copied verbatim into outputs.
 */
enum ssj_status ssj_validate(struct ssj_parser *p, const char *text, size_t len);

/*
 * ssj_validate() and, when the text is valid, ssj_parse() of the same text:
 * the same result, but the text is indexed once for both walks.
 */
enum ssj_status ssj_validate_parse(struct ssj_parser *p, const char *text, size_t len,
				   ssj_field_fn fn, void *ctx);

/*
 * ssj_parse() of the text this parser's last call parsed, without indexing
 * it again. Only right after an ssj_parse() or ssj_validate_parse() on this
 * parser that returned SSJ_OK, the text still alive and unchanged.
 */
enum ssj_status ssj_parse_again(struct ssj_parser *p, ssj_field_fn fn, void *ctx);

/*
 * ssj_validate() of the text this parser's last call parsed, without
 * indexing it again. Same precondition as ssj_parse_again(); afterwards
 * ssj_parse_again() may follow.
 */
enum ssj_status ssj_validate_again(struct ssj_parser *p);

/*
 * The whole-text path: ssj_validate_parse() of an object of at most
 * SSJ_WHOLE_MAX bytes that is read or copied almost entirely anyway (an
 * AIPerf records line). simdjson's stage 1 indexes the text, the shim
 * checks the JSON grammar over that index in one pass, and the visit then
 * steps over the index. SSJ_OK: the text is valid to the letter and `fn`
 * saw its fields, with the same values ssj_parse() gives;
 * ssj_validate_again() is then SSJ_OK and ssj_parse_again() visits again.
 * Any other status (also for a valid text this path does not take: too
 * long, nested deeper than it allows, not an object) says nothing about
 * the text: the caller takes the usual way, which decides.
 */
#define SSJ_WHOLE_MAX ((size_t)256 << 10)
/*
 * ssj_validate() and ssj_validate_parse() take the whole-text path first
 * too. Tests and the differential fuzzer turn it off for the whole
 * process (ssj_validate_whole() then refuses every text) to compare.
 */
void ssj_set_whole_path(bool on);
enum ssj_status ssj_validate_whole(struct ssj_parser *p, const char *text, size_t len,
				   ssj_field_fn fn, void *ctx);

/*
 * ssj_parse() of an object that lies inside the text this parser last
 * checked whole (the whole-text path said SSJ_OK and no parse on this
 * parser came since): [text, text + len) must be exactly that object's
 * text, as ssj_value_raw_json() gave it. The visit steps over the index
 * already made: nothing is indexed or checked again (the object is valid
 * with its document). SSJ_EINTERNAL: not such an object (nothing was
 * visited): parse it the usual way.
 */
enum ssj_status ssj_parse_within(struct ssj_parser *p, const char *text, size_t len,
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
 * The double of a number's text as ssj_value_number_text() gave it (inside
 * a document still alive, its padding after it): what ssj_value_double()
 * gives for that value, so a reader can keep the text and convert only
 * when it needs to.
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

/* Unescaped string; valid until the parser's next parse. */
static inline enum ssj_status ssj_value_string(struct ssj_value *v, const char **p, size_t *n)
{
	if (!v->tok || !v->plain || v->known != SSJ_STRING)
		return ssj_value_string_slow(v, p, n);
	*p = v->tok;
	*n = v->tok_len;
	return SSJ_OK;
}

/* The string's escaped text between its quotes, pointing into the input. */
static inline enum ssj_status ssj_value_raw_string(struct ssj_value *v, const char **p,
						   size_t *n)
{
	if (!v->tok || v->known != SSJ_STRING)
		return ssj_value_raw_string_slow(v, p, n);
	*p = v->tok;
	*n = v->tok_len;
	return SSJ_OK;
}
/* The value's whole JSON text (object, array or scalar) in the input. */
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
 * array whose elements are mostly skipped.
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

#ifdef __cplusplus
}
#endif

#endif
