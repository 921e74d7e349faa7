/*
 * json_dispatch.c - choose the shim variant the CPU can run, once.
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

static atomic_bool whole_off;

void ssj_set_whole_path(bool on)
{
	atomic_store_explicit(&whole_off, !on, memory_order_relaxed);
}

static bool whole_on(void)
{
	return !atomic_load_explicit(&whole_off, memory_order_relaxed);
}

struct ssj_parser *ssj_parser_new(void) { return ops()->parser_new(); }
void ssj_parser_free(struct ssj_parser *p) { if (p) ops()->parser_free(p); }

enum ssj_status ssj_parse(struct ssj_parser *p, const char *text, size_t len,
			  ssj_field_fn fn, void *ctx)
{
	return ops()->parse(p, text, len, fn, ctx);
}

enum ssj_status ssj_validate(struct ssj_parser *p, const char *text, size_t len)
{
	return ops()->validate(p, text, len, whole_on());
}

enum ssj_status ssj_validate_parse(struct ssj_parser *p, const char *text, size_t len,
				   ssj_field_fn fn, void *ctx)
{
	return ops()->validate_parse(p, text, len, fn, ctx, whole_on());
}

enum ssj_status ssj_parse_again(struct ssj_parser *p, ssj_field_fn fn, void *ctx)
{
	return ops()->parse_again(p, fn, ctx);
}

enum ssj_status ssj_validate_again(struct ssj_parser *p)
{
	return ops()->validate_again(p);
}

enum ssj_status ssj_validate_whole(struct ssj_parser *p, const char *text, size_t len,
				   ssj_field_fn fn, void *ctx)
{
	if (!whole_on())
		return SSJ_ESYNTAX;
	return ops()->validate_whole(p, text, len, fn, ctx);
}

enum ssj_status ssj_parse_within(struct ssj_parser *p, const char *text, size_t len,
				 ssj_field_fn fn, void *ctx)
{
	return ops()->parse_within(p, text, len, fn, ctx);
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

const char *ssj_strerror(enum ssj_status s) { return ops()->strerror(s); }
const char *ssj_version(void) { return ops()->version(); }
const char *ssj_implementation(void) { return ops()->implementation(); }
