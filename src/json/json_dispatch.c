/*
 * json_dispatch.c - choose the shim variant the CPU can run, once, and
 * forward json.h's functions to it; the test switch of json_paths.h.
 *
 * The level comes from util/cpu.h, shared with the key prefilter:
 * SPECSCAN_SIMD=generic forces the portable variant (the tests use it to
 * check that both variants give the same results).
 */
#include <stdatomic.h>

#include "json/json_ops.h"
#include "util/cpu.h"

static _Atomic(const struct ssj_ops *) chosen;

static const struct ssj_ops *pick(void)
{
#ifdef SSJ_HAVE_HASWELL
	if (ss_simd_level() >= SS_SIMD_AVX2)
		return &ssj_ops_haswell;
#endif
	return &ssj_ops_generic;
}

static const struct ssj_ops *ops(void)
{
	const struct ssj_ops *o = atomic_load_explicit(&chosen, memory_order_acquire);

	if (!o) {
		o = pick();
		atomic_store_explicit(&chosen, o, memory_order_release);
	}
	return o;
}

static _Atomic(enum ssj_path) default_path;

void ssj_set_default_path(enum ssj_path path)
{
	atomic_store_explicit(&default_path, path, memory_order_relaxed);
}

bool ssj_whole_built(void)
{
#ifdef SSJ_HAVE_WHOLE
	return true;
#else
	return false;
#endif
}

const char *ssj_paths_built(void)
{
#ifdef SSJ_HAVE_WHOLE
	return "whole-text path and On-Demand";
#else
	return "On-Demand only (portable build, no fast paths)";
#endif
}

struct ssj_parser *ssj_parser_new(void)
{
	return ops()->parser_new(atomic_load_explicit(&default_path, memory_order_relaxed));
}

void ssj_parser_free(struct ssj_parser *p) { if (p) ops()->parser_free(p); }
void ssj_parser_set_path(struct ssj_parser *p, enum ssj_path path) { ops()->parser_set_path(p, path); }
enum ssj_path ssj_parser_path_used(struct ssj_parser *p) { return ops()->parser_path_used(p); }

enum ssj_status ssj_open(struct ssj_parser *p, const char *text, size_t len)
{
	return ops()->open(p, text, len);
}

enum ssj_status ssj_open_array(struct ssj_parser *p, const char *text, size_t len)
{
	return ops()->open_array(p, text, len);
}

enum ssj_status ssj_visit_array(struct ssj_parser *p, ssj_elem_fn fn, void *ctx)
{
	return ops()->visit_array(p, fn, ctx);
}

void ssj_close(struct ssj_parser *p) { ops()->close(p); }

enum ssj_status ssj_visit(struct ssj_parser *p, ssj_field_fn fn, void *ctx)
{
	return ops()->visit(p, fn, ctx);
}

enum ssj_status ssj_visit_span(struct ssj_parser *p, const char *text, size_t len,
			       ssj_field_fn fn, void *ctx)
{
	return ops()->visit_span(p, text, len, fn, ctx);
}

enum ssj_type ssj_value_type_slow(struct ssj_value *v) { return ops()->value_type(v); }
bool ssj_value_is_null(struct ssj_value *v) { return ops()->value_is_null(v); }

enum ssj_status ssj_value_bool(struct ssj_value *v, bool *out)
{
	return ops()->value_bool(v, out);
}

enum ssj_status ssj_value_double(struct ssj_value *v, double *out)
{
	return ops()->value_double(v, out);
}

enum ssj_status ssj_number_double(const char *text, size_t len, double *out)
{
	return ops()->number_double(text, len, out);
}

enum ssj_status ssj_value_number_text_slow(struct ssj_value *v, const char **p, size_t *n)
{
	return ops()->value_number_text(v, p, n);
}

enum ssj_status ssj_value_string_slow(struct ssj_value *v, const char **p, size_t *n)
{
	return ops()->value_string(v, p, n);
}

enum ssj_status ssj_value_raw_string_slow(struct ssj_value *v, const char **p, size_t *n)
{
	return ops()->value_raw_string(v, p, n);
}

enum ssj_status ssj_value_raw_json(struct ssj_value *v, const char **p, size_t *n)
{
	return ops()->value_raw_json(v, p, n);
}

enum ssj_status ssj_object_foreach(struct ssj_value *v, ssj_field_fn fn, void *ctx)
{
	return ops()->object_foreach(v, SSJ_ALL_LENS, fn, ctx);
}

enum ssj_status ssj_object_foreach_lens(struct ssj_value *v, uint64_t lens, ssj_field_fn fn,
					void *ctx)
{
	return ops()->object_foreach(v, lens, fn, ctx);
}

enum ssj_status ssj_array_foreach(struct ssj_value *v, ssj_elem_fn fn, void *ctx)
{
	return ops()->array_foreach(v, fn, ctx);
}

enum ssj_status ssj_array_foreach_span(struct ssj_value *v, ssj_span_fn fn, void *ctx)
{
	return ops()->array_foreach_span(v, fn, ctx);
}

enum ssj_status ssj_value_is_empty(struct ssj_value *v, bool *empty)
{
	return ops()->value_is_empty(v, empty);
}

const char *ssj_strerror(enum ssj_status s)
{
	switch (s) {
	case SSJ_OK: return "no error";
	case SSJ_STOPPED: return "stopped";
	case SSJ_ESYNTAX: return "invalid JSON";
	case SSJ_EUTF8: return "invalid UTF-8";
	case SSJ_EDEPTH: return "JSON nested too deeply";
	case SSJ_ENOTOBJECT: return "not a JSON object";
	case SSJ_ETYPE: return "unexpected JSON type";
	case SSJ_ERANGE: return "number out of range";
	case SSJ_ECAPACITY: return "JSON text too large";
	case SSJ_ENOMEM: return "out of memory";
	case SSJ_EINTERNAL: return "internal JSON parser error";
	}
	return "unknown JSON error";
}
const char *ssj_version(void) { return ops()->version(); }
const char *ssj_implementation(void) { return ops()->implementation(); }
