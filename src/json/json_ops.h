/*
 * json_ops.h - private to the shim: the table of operations that each
 * build of the shim's C++ (one per instruction-set variant) exports, and
 * that json_dispatch.c forwards json.h's functions to; and the string
 * decoder of unescape.c, which the C++ shares (one decoder in the tree).
 * The tables are static; ownership is as json.h says.
 */
#ifndef SS_JSON_OPS_H
#define SS_JSON_OPS_H

#include "json/json.h"
#include "json/json_paths.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ssj_ops {
	struct ssj_parser *(*parser_new)(enum ssj_path path);
	void (*parser_free)(struct ssj_parser *p);
	void (*parser_set_path)(struct ssj_parser *p, enum ssj_path path);
	enum ssj_path (*parser_path_used)(struct ssj_parser *p);
	enum ssj_status (*open)(struct ssj_parser *p, const char *text, size_t len);
	void (*close)(struct ssj_parser *p);
	enum ssj_status (*visit)(struct ssj_parser *p, ssj_field_fn fn, void *ctx);
	enum ssj_status (*visit_span)(struct ssj_parser *p, const char *text, size_t len,
				      ssj_field_fn fn, void *ctx);
	enum ssj_type (*value_type)(struct ssj_value *v);
	bool (*value_is_null)(struct ssj_value *v);
	enum ssj_status (*value_bool)(struct ssj_value *v, bool *out);
	enum ssj_status (*value_double)(struct ssj_value *v, double *out);
	enum ssj_status (*number_double)(const char *text, size_t len, double *out);
	enum ssj_status (*value_number_text)(struct ssj_value *v, const char **p, size_t *n);
	enum ssj_status (*value_string)(struct ssj_value *v, const char **p, size_t *n);
	enum ssj_status (*value_raw_string)(struct ssj_value *v, const char **p, size_t *n);
	enum ssj_status (*value_raw_json)(struct ssj_value *v, const char **p, size_t *n);
	enum ssj_status (*object_foreach)(struct ssj_value *v, uint64_t lens, ssj_field_fn fn,
					  void *ctx);
	enum ssj_status (*array_foreach)(struct ssj_value *v, ssj_elem_fn fn, void *ctx);
	enum ssj_status (*value_is_empty)(struct ssj_value *v, bool *empty);
	enum ssj_status (*array_foreach_span)(struct ssj_value *v, ssj_span_fn fn, void *ctx);
	const char *(*version)(void);
	const char *(*implementation)(void);
	/* an array root (ssj_open_array, ssj_visit_array) */
	enum ssj_status (*open_array)(struct ssj_parser *p, const char *text, size_t len);
	enum ssj_status (*visit_array)(struct ssj_parser *p, ssj_elem_fn fn, void *ctx);
};

extern const struct ssj_ops ssj_ops_generic;
#ifdef SSJ_HAVE_HASWELL
extern const struct ssj_ops ssj_ops_haswell;
#endif

/*
 * Decode the inside of a JSON string (raw[0..n), escapes checked) to
 * dst, which has room for n bytes: the text never grows. A lone
 * surrogate escape decodes to U+FFFD, as jq reads it. Returns the end of
 * what was written, or NULL for an invalid escape or a raw control
 * character (dst then holds a part).
 */
char *ss_json_unescape_to(char *dst, const char *raw, size_t n);

#ifdef __cplusplus
}
#endif

#endif
