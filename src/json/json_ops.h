/*
 * json_ops.h - private to the shim: the table of operations that each
 * build of json.cpp (one per instruction-set variant) exports, and that
 * json_dispatch.c forwards json.h's functions to.
 */
#ifndef SS_JSON_OPS_H
#define SS_JSON_OPS_H

#include "json/json.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ssj_ops {
	struct ssj_parser *(*parser_new)(void);
	void (*parser_free)(struct ssj_parser *p);
	enum ssj_status (*parse)(struct ssj_parser *p, const char *text, size_t len,
				 ssj_field_fn fn, void *ctx);
	/* whole: take the whole-text path first */
	enum ssj_status (*validate)(struct ssj_parser *p, const char *text, size_t len,
				    bool whole);
	enum ssj_status (*validate_parse)(struct ssj_parser *p, const char *text, size_t len,
					  ssj_field_fn fn, void *ctx, bool whole);
	enum ssj_status (*parse_again)(struct ssj_parser *p, ssj_field_fn fn, void *ctx);
	enum ssj_status (*validate_again)(struct ssj_parser *p);
	enum ssj_status (*validate_whole)(struct ssj_parser *p, const char *text, size_t len,
					  ssj_field_fn fn, void *ctx);
	enum ssj_status (*parse_within)(struct ssj_parser *p, const char *text, size_t len,
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
	const char *(*strerror)(enum ssj_status s);
	const char *(*version)(void);
	const char *(*implementation)(void);
};

extern const struct ssj_ops ssj_ops_generic;
#ifdef SSJ_HAVE_HASWELL
extern const struct ssj_ops ssj_ops_haswell;
#endif

#ifdef __cplusplus
}
#endif

#endif
