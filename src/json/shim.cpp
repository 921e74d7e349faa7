// shim.cpp - json.h's entry points for one instruction-set variant (the
// table json_dispatch.c forwards to). Every function catches everything,
// and simdjson's error numbers never leave the shim.
//
// ssj_open chooses how a text is read: the whole-text path (whole.cpp)
// when this build has it and the text is short enough, else On-Demand
// (ondemand.cpp); a value's readers then go to the path that made the
// value. Callers never learn which path ran.
#include "json/shim.h"

namespace SSJ_NS {

enum ssj_status map_error(error_code e)
{
	switch (e) {
	case SUCCESS:
		return SSJ_OK;
	case UTF8_ERROR:
		return SSJ_EUTF8;
	case DEPTH_ERROR:
		return SSJ_EDEPTH;
	case INCORRECT_TYPE:
		return SSJ_ETYPE;
	case NUMBER_OUT_OF_RANGE:
		return SSJ_ERANGE;
	case CAPACITY:
		return SSJ_ECAPACITY;
	case MEMALLOC:
		return SSJ_ENOMEM;
	default:
		return SSJ_ESYNTAX;
	}
}

enum ssj_status open_error(error_code e)
{
	switch (e) {
	case UTF8_ERROR:
		return SSJ_EUTF8;
	case DEPTH_ERROR:
		return SSJ_EDEPTH;
	case CAPACITY:
		return SSJ_ECAPACITY;
	case MEMALLOC:
		return SSJ_ENOMEM;
	default:
		return SSJ_ESYNTAX;
	}
}

namespace {

void forget(parser_impl *p)
{
	p->text = nullptr;
	p->len = 0;
	p->used = SSJ_PATH_AUTO;
	p->span_at = nullptr;
	p->root_array = false;
}

// The first byte of the text that is not JSON white space is `want`.
bool starts_with(const char *text, size_t len, char want)
{
	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			return c == want;
	}
	return false;
}

bool starts_object(const char *text, size_t len)
{
	return starts_with(text, len, '{');
}

enum ssj_status open_checked(parser_impl *p, const char *text, size_t len);

enum ssj_status open_text(parser_impl *p, const char *text, size_t len)
{
	forget(p);
	strings_reset(p);
	if (!starts_object(text, len))
		return od_root_status(p, text, len);
	return open_checked(p, text, len);
}

// A text whose root is an array (ssj_open_array), by the same paths.
enum ssj_status open_array_text(parser_impl *p, const char *text, size_t len)
{
	forget(p);
	strings_reset(p);
	if (!starts_with(text, len, '['))
		return SSJ_ETYPE;
	p->root_array = true;  // both paths read the root as the array it is
	return open_checked(p, text, len);
}

// The path's open of a text that starts as its root must (open_text,
// open_array_text).
enum ssj_status open_checked(parser_impl *p, const char *text, size_t len)
{
	enum ssj_status s;
	if (p->path == SSJ_PATH_WHOLE && !WHOLE_BUILT)
		return SSJ_EINTERNAL;
	if (p->path != SSJ_PATH_ONDEMAND) {
		// SSJ_ECAPACITY: not a text this path takes; On-Demand decides
		s = w_open(p, text, len);
		if (s != SSJ_ECAPACITY || p->path == SSJ_PATH_WHOLE) {
			if (s != SSJ_OK)
				forget(p);
			return s;
		}
	}
	s = od_open(p, text, len);
	if (s != SSJ_OK)
		forget(p);
	return s;
}

parser_impl *aux_of(parser_impl *p)
{
	if (!p->aux) {
		p->aux.reset(new parser_impl());
		p->aux->path = p->path;
		p->aux->owner = p;
	}
	return p->aux.get();
}

// Visit an object of p's open document that lies at [text, text + len):
// over the index on the whole-text path; on the On-Demand path the span
// is read again by the helper parser (indexed, not checked again).
// SSJ_ECAPACITY: the span is not such an object.
enum ssj_status visit_inside(parser_impl *p, const char *text, size_t len, ssj_field_fn fn,
			     void *ctx)
{
	if (p->used == SSJ_PATH_WHOLE) {
		uint32_t i;
		if (!w_find_object(p, text, len, &i))
			return SSJ_ECAPACITY;
		return w_object(p, i, fn, ctx, SSJ_ALL_LENS);
	}
	uintptr_t base = reinterpret_cast<uintptr_t>(p->text);
	uintptr_t where = reinterpret_cast<uintptr_t>(text);
	if (where < base || where - base >= p->len || len > p->len - (where - base) ||
	    text[0] != '{')
		return SSJ_ECAPACITY;
	parser_impl *a = aux_of(p);
	enum ssj_status s = od_start(a, text, len);
	if (s == SSJ_OK)
		s = od_visit(a, p, fn, ctx);
	forget(a);
	return s;
}

} // namespace

static struct ssj_parser *v_parser_new(enum ssj_path path)
{
	return guard<struct ssj_parser *>(nullptr, [path] {
		parser_impl *p = new (std::nothrow) parser_impl();
		if (p)
			p->path = path;
		return reinterpret_cast<struct ssj_parser *>(p);
	});
}

static void v_parser_free(struct ssj_parser *p)
{
	guard(0, [p] {
		delete P(p);
		return 0;
	});
}

static void v_parser_set_path(struct ssj_parser *p, enum ssj_path path)
{
	P(p)->path = path;
	if (P(p)->aux)
		P(p)->aux->path = path;
}

static enum ssj_path v_parser_path_used(struct ssj_parser *p)
{
	return P(p)->used;
}

static enum ssj_status v_open(struct ssj_parser *p, const char *text, size_t len)
{
	return guard_status([&] {
		enum ssj_status s = open_text(P(p), text, len);
		if (s == SSJ_ENOMEM || s == SSJ_EINTERNAL)
			forget(P(p));
		return s;
	});
}

static enum ssj_status v_open_array(struct ssj_parser *p, const char *text, size_t len)
{
	return guard_status([&] {
		enum ssj_status s = open_array_text(P(p), text, len);
		if (s == SSJ_ENOMEM || s == SSJ_EINTERNAL)
			forget(P(p));
		return s;
	});
}

static void v_close(struct ssj_parser *p)
{
	forget(P(p));
}

static enum ssj_status v_visit(struct ssj_parser *p, ssj_field_fn fn, void *ctx)
{
	return guard_status([&] {
		parser_impl *pi = P(p);
		if (!pi->text)
			return SSJ_EINTERNAL;
		if (pi->root_array)
			return SSJ_ENOTOBJECT;
		if (pi->used == SSJ_PATH_WHOLE)
			return w_object(pi, 0, fn, ctx, SSJ_ALL_LENS);
		return od_visit(pi, pi, fn, ctx);
	});
}

static enum ssj_status v_visit_array(struct ssj_parser *p, ssj_elem_fn fn, void *ctx)
{
	return guard_status([&] {
		parser_impl *pi = P(p);
		if (!pi->text)
			return SSJ_EINTERNAL;
		if (!pi->root_array)
			return SSJ_ETYPE;
		if (pi->used == SSJ_PATH_WHOLE)
			return w_array(pi, 0, fn, ctx);
		return od_visit_array(pi, fn, ctx);
	});
}

static enum ssj_status v_visit_span(struct ssj_parser *p, const char *text, size_t len,
				    ssj_field_fn fn, void *ctx)
{
	return guard_status([&] {
		parser_impl *pi = P(p);
		enum ssj_status s = SSJ_ECAPACITY;

		if (pi->aux_busy)
			return SSJ_EINTERNAL;
		pi->aux_busy = true;
		struct unbusy {
			parser_impl *p;
			~unbusy() { p->aux_busy = false; }
		} done{pi};
		if (pi->text)
			s = visit_inside(pi, text, len, fn, ctx);
		if (s != SSJ_ECAPACITY)
			return s;
		// a text of its own: checked whole first
		parser_impl *a = aux_of(pi);
		s = open_text(a, text, len);
		if (s == SSJ_OK)
			s = a->used == SSJ_PATH_WHOLE ? w_object(a, 0, fn, ctx, SSJ_ALL_LENS)
						      : od_visit(a, pi, fn, ctx);
		forget(a);
		return s;
	});
}

static enum ssj_type v_value_type(struct ssj_value *v)
{
	return guard(SSJ_INVALID, [v] {
		if (V(v)->ixp)
			return w_type(V(v)->ixp, V(v)->i);
		return od_type(V(v));
	});
}

static bool v_value_is_null(struct ssj_value *v)
{
	return guard(false, [v] {
		if (V(v)->ixp)
			return w_char(V(v)->ixp, V(v)->i) == 'n';
		return od_is_null(V(v));
	});
}

static enum ssj_status v_value_bool(struct ssj_value *v, bool *out)
{
	return guard_status([&] {
		if (V(v)->ixp) {
			char c = w_char(V(v)->ixp, V(v)->i);
			if (c != 't' && c != 'f')
				return SSJ_ETYPE;
			*out = c == 't';
			return SSJ_OK;
		}
		return od_bool(V(v), out);
	});
}

// The token of a scalar of type `want`, from whichever path made it.
static enum ssj_status scalar(struct ssj_value *v, enum ssj_type want, std::string_view &tok)
{
	value_impl *vi = V(v);
	if (vi->ixp) {
		if (w_type(vi->ixp, vi->i) != want)
			return SSJ_ETYPE;
		tok = w_token(vi->ixp, vi->i);
		if (want == SSJ_STRING)
			tok = tok.substr(1, tok.size() - 2);
		return SSJ_OK;
	}
	return want == SSJ_NUMBER ? od_number_text(vi, tok) : od_raw_string(vi, tok);
}

static enum ssj_status v_value_double(struct ssj_value *v, double *out)
{
	return guard_status([&] {
		std::string_view tok;
		enum ssj_status s = scalar(v, SSJ_NUMBER, tok);
		if (s != SSJ_OK)
			return s;
		return number_double(tok.data(), tok.size(), out);
	});
}

static enum ssj_status v_number_double(const char *text, size_t len, double *out)
{
	return guard_status([&] { return number_double(text, len, out); });
}

// A reader's answer s, with the text it found when s is SSJ_OK.
static enum ssj_status answer(enum ssj_status s, std::string_view text, const char **p, size_t *n)
{
	if (s == SSJ_OK) {
		*p = text.data();
		*n = text.size();
	}
	return s;
}

// A scalar reader's answer: the token of a value of type `want`.
static enum ssj_status token_out(struct ssj_value *v, enum ssj_type want, const char **p,
				 size_t *n)
{
	return guard_status([&] {
		std::string_view tok;
		enum ssj_status s = scalar(v, want, tok);
		return answer(s, tok, p, n);
	});
}

static enum ssj_status v_value_number_text(struct ssj_value *v, const char **p, size_t *n)
{
	return token_out(v, SSJ_NUMBER, p, n);
}

static enum ssj_status v_value_string(struct ssj_value *v, const char **p, size_t *n)
{
	return guard_status([&] {
		std::string_view s;
		enum ssj_status st;
		if (V(v)->ixp) {
			if (w_type(V(v)->ixp, V(v)->i) != SSJ_STRING)
				return SSJ_ETYPE;
			st = w_string(V(v)->ixp, V(v)->i, s);
		} else {
			st = od_string(V(v), s);
		}
		return answer(st, s, p, n);
	});
}

static enum ssj_status v_value_raw_string(struct ssj_value *v, const char **p, size_t *n)
{
	return token_out(v, SSJ_STRING, p, n);
}

static enum ssj_status v_value_raw_json(struct ssj_value *v, const char **p, size_t *n)
{
	return guard_status([&] {
		std::string_view s;
		if (V(v)->ixp) {
			parser_impl *ip = V(v)->ixp;
			std::string_view w = w_span(ip, V(v)->i);
			if (w[0] == '{') {
				ip->span_at = w.data();
				ip->span_i = V(v)->i;
			}
			return answer(SSJ_OK, w, p, n);
		}
		enum ssj_status st = od_raw_json(V(v), s);
		return answer(st, s, p, n);
	});
}

// A container reader: over the index for a value of the whole-text path
// (which must be of type `want`), else On-Demand's.
template <typename W, typename O>
static enum ssj_status container(struct ssj_value *v, enum ssj_type want, W &&whole, O &&od)
{
	return guard_status([&] {
		value_impl *vi = V(v);
		if (!vi->ixp)
			return od(vi);
		if (w_type(vi->ixp, vi->i) != want)
			return SSJ_ETYPE;
		return whole(vi->ixp, vi->i);
	});
}

static enum ssj_status v_object_foreach(struct ssj_value *v, uint64_t lens, ssj_field_fn fn,
					void *ctx)
{
	return container(
		v, SSJ_OBJECT, [&](parser_impl *p, uint32_t i) { return w_object(p, i, fn, ctx, lens); },
		[&](value_impl *vi) { return od_object(vi, lens, fn, ctx); });
}

static enum ssj_status v_array_foreach(struct ssj_value *v, ssj_elem_fn fn, void *ctx)
{
	return container(
		v, SSJ_ARRAY, [&](parser_impl *p, uint32_t i) { return w_array(p, i, fn, ctx); },
		[&](value_impl *vi) { return od_array(vi, fn, ctx); });
}

static enum ssj_status v_array_foreach_span(struct ssj_value *v, ssj_span_fn fn, void *ctx)
{
	return container(
		v, SSJ_ARRAY, [&](parser_impl *p, uint32_t i) { return w_array_spans(p, i, fn, ctx); },
		[&](value_impl *vi) { return od_array_spans(vi, fn, ctx); });
}

static enum ssj_status v_value_is_empty(struct ssj_value *v, bool *empty)
{
	return guard_status([&] {
		if (V(v)->ixp) {
			char c = w_char(V(v)->ixp, V(v)->i), next;
			*empty = true;
			if (c != '[' && c != '{')
				return SSJ_ETYPE;
			next = w_char(V(v)->ixp, V(v)->i + 1);
			*empty = next == ']' || next == '}';
			return SSJ_OK;
		}
		return od_is_empty(V(v), empty);
	});
}

static const char *v_version(void)
{
	return SIMDJSON_STRINGIFY(SIMDJSON_VERSION);
}

static const char *v_implementation(void)
{
#ifdef __AVX2__
	return "haswell";
#else
	return "fallback";
#endif
}

} // namespace SSJ_NS

using namespace SSJ_NS;

extern "C" const struct ssj_ops SSJ_OPS_NAME = {
	v_parser_new,        v_parser_free,       v_parser_set_path,    v_parser_path_used,
	v_open,              v_close,             v_visit,              v_visit_span,
	v_value_type,        v_value_is_null,     v_value_bool,         v_value_double,
	v_number_double,     v_value_number_text, v_value_string,       v_value_raw_string,
	v_value_raw_json,    v_object_foreach,    v_array_foreach,      v_value_is_empty,
	v_array_foreach_span, v_version,          v_implementation,
	v_open_array,        v_visit_array,
};
