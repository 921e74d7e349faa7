// json.cpp - the only file that sees simdjson. It implements json.h over
// simdjson's On-Demand API with error codes; every function catches
// everything, and simdjson's error numbers never leave this file.
//
// On-Demand is compiled for one instruction set (the one the compiler
// targets), so this file is built once per variant, with SSJ_VARIANT naming
// it and matching -m flags; json_dispatch.c picks the best variant the CPU
// runs, once, and forwards json.h's functions to its table of operations.

#include "json/json_ops.h"

#include <simdjson.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <locale.h>
#include <new>
#include <string>
#include <string_view>

using namespace simdjson;

static_assert(SSJ_PADDING == SIMDJSON_PADDING,
	      "SSJ_PADDING must match simdjson's padding");

// The opaque C types are these, private to each variant's translation unit.
namespace {
struct parser_impl {
	ondemand::parser parser;
	ondemand::document doc;
};
struct value_impl {
	ondemand::value v;
};
} // namespace

static inline parser_impl *P(struct ssj_parser *p)
{
	return reinterpret_cast<parser_impl *>(p);
}

static inline value_impl *V(struct ssj_value *v)
{
	return reinterpret_cast<value_impl *>(v);
}

static inline struct ssj_value *C(value_impl *v)
{
	return reinterpret_cast<struct ssj_value *>(v);
}

static enum ssj_status map_error(error_code e)
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

static std::string_view trim_right(std::string_view s)
{
	while (!s.empty() && (s.back() == ' ' || s.back() == '\t' ||
			      s.back() == '\n' || s.back() == '\r'))
		s.remove_suffix(1);
	return s;
}

// Every entry point runs its body inside one of these guards, so that no
// exception ever crosses into C: guard() answers `fallback`, guard_status()
// maps std::bad_alloc to SSJ_ENOMEM and anything else to SSJ_EINTERNAL.
template <typename T, typename F> static T guard(T fallback, F &&body) noexcept
{
	try {
		return body();
	} catch (...) {
		return fallback;
	}
}

template <typename F> static enum ssj_status guard_status(F &&body) noexcept
{
	try {
		return body();
	} catch (const std::bad_alloc &) {
		return SSJ_ENOMEM;
	} catch (...) {
		return SSJ_EINTERNAL;
	}
}

static struct ssj_parser *v_parser_new(void)
{
	return guard<struct ssj_parser *>(nullptr, [] {
		return reinterpret_cast<struct ssj_parser *>(new (std::nothrow) parser_impl());
	});
}

static void v_parser_free(struct ssj_parser *p)
{
	guard(0, [p] {
		delete P(p);
		return 0;
	});
}

// Trailing content: simdjson 3.0 reports a location only inside the text.
static bool at_end(ondemand::document &doc)
{
	const char *loc;
	return doc.current_location().get(loc) != SUCCESS;
}

// A parser keeps the buffers of its largest document: about 5.7 bytes per
// byte of text (4 for the structural index, 5/3 for strings). After one
// huge line it gives them back at its next, smaller document, so each
// worker holds that much only while it parses a huge line.
static constexpr size_t KEEP_CAPACITY = (size_t)1 << 20;

static enum ssj_status start(struct ssj_parser *p, const char *text, size_t len)
{
	ondemand::parser &ps = P(p)->parser;
	if (ps.capacity() > KEEP_CAPACITY && len <= KEEP_CAPACITY) {
		error_code e = ps.allocate(KEEP_CAPACITY, ps.max_depth());
		if (e)
			return map_error(e);
	}
	padded_string_view view(text, len, len + SIMDJSON_PADDING);
	error_code e = P(p)->parser.iterate(view).get(P(p)->doc);
	return map_error(e);
}

static enum ssj_status visit_object(ondemand::object obj, ssj_field_fn fn, void *ctx)
{
	for (auto item : obj) {
		ondemand::field f;
		error_code e = std::move(item).get(f);
		if (e)
			return map_error(e);
		std::string_view key;
		e = f.unescaped_key().get(key);
		if (e)
			return map_error(e);
		if (!fn)
			continue;
		value_impl val{f.value()};
		if (fn(ctx, key.data(), key.size(), C(&val)))
			return SSJ_STOPPED;
	}
	return SSJ_OK;
}

// The visit of ssj_parse() over a document already started.
static enum ssj_status visit_root(struct ssj_parser *p, ssj_field_fn fn, void *ctx)
{
	ondemand::json_type t;
	error_code e = P(p)->doc.type().get(t);
	if (e)
		return map_error(e);
	if (t != ondemand::json_type::object)
		return SSJ_ENOTOBJECT;
	ondemand::object obj;
	e = P(p)->doc.get_object().get(obj);
	if (e)
		return map_error(e);
	enum ssj_status s = visit_object(obj, fn, ctx);
	if (s != SSJ_OK)
		return s;
	if (!at_end(P(p)->doc))
		return SSJ_ESYNTAX;
	return SSJ_OK;
}

static enum ssj_status v_parse(struct ssj_parser *p, const char *text,
				     size_t len, ssj_field_fn fn, void *ctx)
{
	return guard_status([&] {
		enum ssj_status s = start(p, text, len);
		if (s != SSJ_OK)
			return s;
		return visit_root(p, fn, ctx);
	});
}

static error_code token_of(ondemand::value &v, std::string_view &tok)
{
	tok = v.raw_json_token();
	return SUCCESS;
}

static error_code token_of(ondemand::document &d, std::string_view &tok)
{
	return d.raw_json_token().get(tok);
}

// The JSON number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
static bool json_number_syntax(std::string_view t)
{
	size_t i = 0, n = t.size();
	auto digits = [&](void) {
		size_t s = i;
		while (i < n && t[i] >= '0' && t[i] <= '9')
			i++;
		return i > s;
	};

	if (i < n && t[i] == '-')
		i++;
	if (i < n && t[i] == '0')
		i++;
	else if (!digits())
		return false;
	if (i < n && t[i] == '.') {
		i++;
		if (!digits())
			return false;
	}
	if (i < n && (t[i] == 'e' || t[i] == 'E')) {
		i++;
		if (i < n && (t[i] == '+' || t[i] == '-'))
			i++;
		if (!digits())
			return false;
	}
	return i == n;
}

// Deepest nesting a full walk accepts (simdjson's own default). The walk
// recurses once per level: without a bound, a line of a million '['
// overflowed the stack.
static constexpr size_t WALK_MAX_DEPTH = 1024;

// A full walk that decodes every scalar. T is ondemand::value or
// ondemand::document (the root), which share these member functions.
template <typename T> static error_code walk(T &v, size_t depth)
{
	ondemand::json_type t;
	error_code e = v.type().get(t);
	if (e)
		return e;
	if (depth >= WALK_MAX_DEPTH &&
	    (t == ondemand::json_type::object || t == ondemand::json_type::array))
		return DEPTH_ERROR;
	switch (t) {
	case ondemand::json_type::object: {
		ondemand::object obj;
		if ((e = v.get_object().get(obj)))
			return e;
		for (auto item : obj) {
			ondemand::field f;
			if ((e = std::move(item).get(f)))
				return e;
			std::string_view key;
			if ((e = f.unescaped_key().get(key)))
				return e;
			if ((e = walk(f.value(), depth + 1)))
				return e;
		}
		return SUCCESS;
	}
	case ondemand::json_type::array: {
		ondemand::array arr;
		if ((e = v.get_array().get(arr)))
			return e;
		for (auto item : arr) {
			ondemand::value ev;
			if ((e = std::move(item).get(ev)))
				return e;
			if ((e = walk(ev, depth + 1)))
				return e;
		}
		return SUCCESS;
	}
	case ondemand::json_type::string: {
		std::string_view s;
		return v.get_string().get(s);
	}
	case ondemand::json_type::number: {
		// A number too large for a double or an integer type is still
		// valid JSON; only its syntax matters here.
		double d;
		e = v.get_double().get(d);
		if (e == NUMBER_OUT_OF_RANGE)
			return SUCCESS;
		if (e == NUMBER_ERROR) {
			// simdjson refuses numbers a double cannot hold (1e400);
			// they are still valid JSON when their syntax is.
			std::string_view tok;
			if (token_of(v, tok))
				return e;
			return json_number_syntax(trim_right(tok)) ? SUCCESS : e;
		}
		return e;
	}
	case ondemand::json_type::boolean: {
		bool b;
		return v.get_bool().get(b);
	}
	case ondemand::json_type::null: {
		// simdjson 3.0.1 checks the byte after a root `null` one place
		// too far (json[5], not json[4]): a document `null?` or `nullx`
		// passed as null, and a `metadata` span copied verbatim made
		// an invalid output line (found by fuzz_request). The token must
		// be `null` to the letter, as inside a document.
		std::string_view tok;
		bool n;
		if ((e = token_of(v, tok)))
			return e;
		if (trim_right(tok) != "null")
			return INCORRECT_TYPE;
		if ((e = v.is_null().get(n)))
			return e;
		return n ? SUCCESS : INCORRECT_TYPE;
	}
	}
	return TAPE_ERROR;
}

// The validating walk over the whole indexed document, to its end.
static enum ssj_status validate_doc(struct ssj_parser *p)
{
	error_code e = walk(P(p)->doc, 0);
	if (e)
		return map_error(e);
	if (!at_end(P(p)->doc))
		return SSJ_ESYNTAX;
	return SSJ_OK;
}

static enum ssj_status v_validate(struct ssj_parser *p, const char *text,
					size_t len)
{
	return guard_status([&] {
		enum ssj_status s = start(p, text, len);
		if (s != SSJ_OK)
			return s;
		return validate_doc(p);
	});
}

static enum ssj_status v_parse_again(struct ssj_parser *p, ssj_field_fn fn, void *ctx)
{
	return guard_status([&] {
		P(p)->doc.rewind();
		return visit_root(p, fn, ctx);
	});
}

// The validating walk over the document the last parse indexed: a line
// already walked is checked to the letter without a second stage 1.
static enum ssj_status v_validate_again(struct ssj_parser *p)
{
	return guard_status([&] {
		P(p)->doc.rewind();
		return validate_doc(p);
	});
}

// The validating walk, then the visit over the same index (a rewind instead
// of a second stage 1): payloads and metadata are checked, then read.
static enum ssj_status v_validate_parse(struct ssj_parser *p, const char *text,
				       size_t len, ssj_field_fn fn, void *ctx)
{
	return guard_status([&] {
		enum ssj_status s = start(p, text, len);
		if (s != SSJ_OK)
			return s;
		s = validate_doc(p);
		if (s != SSJ_OK)
			return s;
		P(p)->doc.rewind();
		return visit_root(p, fn, ctx);
	});
}

static enum ssj_type v_value_type(struct ssj_value *v)
{
	return guard(SSJ_INVALID, [v] {
		ondemand::json_type t;
		if (V(v)->v.type().get(t))
			return SSJ_INVALID;
		switch (t) {
		case ondemand::json_type::object: return SSJ_OBJECT;
		case ondemand::json_type::array: return SSJ_ARRAY;
		case ondemand::json_type::string: return SSJ_STRING;
		case ondemand::json_type::number: return SSJ_NUMBER;
		case ondemand::json_type::boolean: return SSJ_BOOL;
		case ondemand::json_type::null: return SSJ_NULL;
		}
		return SSJ_INVALID;
	});
}

static bool v_value_is_null(struct ssj_value *v)
{
	return guard(false, [v] {
		bool n = false;
		if (V(v)->v.is_null().get(n))
			return false;
		return n;
	});
}

static enum ssj_status v_value_bool(struct ssj_value *v, bool *out)
{
	return guard_status([&] { return map_error(V(v)->v.get_bool().get(*out)); });
}

// Significant digits of a JSON number's mantissa (leading zeros, of the
// integer or the fraction part, do not count).
static size_t significant_digits(std::string_view t)
{
	size_t n = 0;
	bool lead = true;

	for (char c : t) {
		if (c == 'e' || c == 'E')
			break;
		if (c < '0' || c > '9')
			continue;
		if (lead && c == '0')
			continue;
		lead = false;
		n++;
	}
	return n;
}

// glibc's strtod rounds correctly at any length; a C locale of our own
// keeps it from reading ',' as the decimal point under LC_NUMERIC=de_DE.
static locale_t c_locale(void)
{
	static locale_t loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	return loc;
}

// A long number (more than 19 significant digits), read correctly
// rounded: simdjson 3.0.1's get_double misreads some of them (upstream
// issue 2093: 0.33333333333333333333333333333 came out as 1.49e-10).
static enum ssj_status long_double(std::string_view tok, double *out)
{
	locale_t loc = c_locale();
	std::string text(tok);
	char *end = nullptr;
	double d;

	if (loc == (locale_t)0)
		return SSJ_ENOMEM;
	errno = 0;
	d = strtod_l(text.c_str(), &end, loc);
	if (end != text.c_str() + text.size())
		return SSJ_ESYNTAX;
	if (std::isinf(d))
		return SSJ_ERANGE;
	*out = d;   // underflow reads as 0 (or the nearest subnormal), as Python's float()
	return SSJ_OK;
}

static enum ssj_status v_value_double(struct ssj_value *v, double *out)
{
	return guard_status([&] {
		error_code e = V(v)->v.get_double().get(*out);
		if (e == NUMBER_ERROR || e == NUMBER_OUT_OF_RANGE) {
			ondemand::json_type t;
			if (!V(v)->v.type().get(t) && t == ondemand::json_type::number) {
				std::string_view tok = trim_right(V(v)->v.raw_json_token());
				if (json_number_syntax(tok) && significant_digits(tok) > 19)
					return long_double(tok, out);
				return SSJ_ERANGE;
			}
		}
		if (e)
			return map_error(e);
		std::string_view tok = trim_right(V(v)->v.raw_json_token());
		if (significant_digits(tok) > 19) {
			enum ssj_status s = long_double(tok, out);
			if (s != SSJ_OK)
				return s;
		}
		// An integer literal converts exactly (SPEC 1.2): `-0` is 0.0.
		if (*out == 0.0 && tok.find_first_of(".eE") == std::string_view::npos)
			*out = 0.0;
		return SSJ_OK;
	});
}

// The trimmed token of a scalar value that must be of type `want`.
static enum ssj_status scalar_token(ondemand::value &v, ondemand::json_type want,
				    std::string_view &tok)
{
	ondemand::json_type t;
	error_code e = v.type().get(t);
	if (e)
		return map_error(e);
	if (t != want)
		return SSJ_ETYPE;
	tok = trim_right(v.raw_json_token());
	return SSJ_OK;
}

static enum ssj_status v_value_number_text(struct ssj_value *v,
						 const char **p, size_t *n)
{
	return guard_status([&] {
		std::string_view tok;
		enum ssj_status s = scalar_token(V(v)->v, ondemand::json_type::number, tok);
		if (s != SSJ_OK)
			return s;
		*p = tok.data();
		*n = tok.size();
		return SSJ_OK;
	});
}

static enum ssj_status v_value_string(struct ssj_value *v, const char **p,
					    size_t *n)
{
	return guard_status([&] {
		std::string_view s;
		error_code e = V(v)->v.get_string().get(s);
		if (e)
			return map_error(e);
		*p = s.data();
		*n = s.size();
		return SSJ_OK;
	});
}

static enum ssj_status v_value_raw_string(struct ssj_value *v,
						const char **p, size_t *n)
{
	return guard_status([&] {
		std::string_view tok;
		enum ssj_status s = scalar_token(V(v)->v, ondemand::json_type::string, tok);
		if (s != SSJ_OK)
			return s;
		if (tok.size() < 2 || tok.front() != '"' || tok.back() != '"')
			return SSJ_ESYNTAX;
		*p = tok.data() + 1;
		*n = tok.size() - 2;
		return SSJ_OK;
	});
}

// A value's whole JSON text (consuming it), and its type.
static error_code span_of(ondemand::value &v, std::string_view &s, enum ssj_type *ct)
{
	ondemand::json_type t;
	error_code e = v.type().get(t);
	if (e)
		return e;
	switch (t) {
	case ondemand::json_type::object: {
		ondemand::object obj;
		*ct = SSJ_OBJECT;
		if ((e = v.get_object().get(obj)))
			return e;
		e = obj.raw_json().get(s);
		break;
	}
	case ondemand::json_type::array: {
		ondemand::array arr;
		*ct = SSJ_ARRAY;
		if ((e = v.get_array().get(arr)))
			return e;
		e = arr.raw_json().get(s);
		break;
	}
	default:
		*ct = t == ondemand::json_type::string    ? SSJ_STRING
		      : t == ondemand::json_type::number  ? SSJ_NUMBER
		      : t == ondemand::json_type::boolean ? SSJ_BOOL
							  : SSJ_NULL;
		s = v.raw_json_token();
		break;
	}
	if (!e)
		s = trim_right(s);
	return e;
}

static enum ssj_status v_value_raw_json(struct ssj_value *v, const char **p,
					      size_t *n)
{
	return guard_status([&] {
		std::string_view s;
		enum ssj_type t;
		error_code e = span_of(V(v)->v, s, &t);
		if (e)
			return map_error(e);
		*p = s.data();
		*n = s.size();
		return SSJ_OK;
	});
}

static enum ssj_status v_object_foreach(struct ssj_value *v, ssj_field_fn fn,
					      void *ctx)
{
	return guard_status([&] {
		ondemand::object obj;
		error_code e = V(v)->v.get_object().get(obj);
		if (e)
			return map_error(e);
		return visit_object(obj, fn, ctx);
	});
}

// Call each(i, element) for the elements of the array `v` in order, until
// an answer other than SSJ_OK, which is returned.
template <typename F> static enum ssj_status visit_array(ondemand::value &v, F &&each)
{
	ondemand::array arr;
	error_code e = v.get_array().get(arr);
	if (e)
		return map_error(e);
	size_t i = 0;
	for (auto item : arr) {
		value_impl ev;
		if ((e = std::move(item).get(ev.v)))
			return map_error(e);
		enum ssj_status s = each(i, ev);
		if (s != SSJ_OK)
			return s;
		i++;
	}
	return SSJ_OK;
}

static enum ssj_status v_array_foreach(struct ssj_value *v, ssj_elem_fn fn,
					     void *ctx)
{
	return guard_status([&] {
		return visit_array(V(v)->v, [&](size_t i, value_impl &ev) {
			return fn && fn(ctx, i, C(&ev)) ? SSJ_STOPPED : SSJ_OK;
		});
	});
}

static enum ssj_status v_array_foreach_span(struct ssj_value *v, ssj_span_fn fn,
					    void *ctx)
{
	return guard_status([&] {
		return visit_array(V(v)->v, [&](size_t i, value_impl &ev) {
			std::string_view s;
			enum ssj_type t;
			error_code e = span_of(ev.v, s, &t);
			if (e)
				return map_error(e);
			return fn && fn(ctx, i, t, s.data(), s.size()) ? SSJ_STOPPED : SSJ_OK;
		});
	});
}

static enum ssj_status v_value_is_empty(struct ssj_value *v, bool *empty)
{
	return guard_status([&] {
		ondemand::json_type t;
		error_code e = V(v)->v.type().get(t);
		if (e)
			return map_error(e);
		*empty = true;
		if (t == ondemand::json_type::array) {
			enum ssj_status s = visit_array(V(v)->v, [&](size_t, value_impl &) {
				*empty = false;
				return SSJ_STOPPED;  // one element is enough
			});
			return s == SSJ_STOPPED ? SSJ_OK : s;
		}
		if (t == ondemand::json_type::object) {
			ondemand::object obj;
			if ((e = V(v)->v.get_object().get(obj)))
				return map_error(e);
			for (auto item : obj) {
				ondemand::field f;
				if ((e = std::move(item).get(f)))
					return map_error(e);
				*empty = false;
				break;
			}
			return SSJ_OK;
		}
		return SSJ_ETYPE;
	});
}

static const char *v_strerror(enum ssj_status s)
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

extern "C" const struct ssj_ops SSJ_OPS_NAME = {
	v_parser_new, v_parser_free, v_parse, v_validate, v_validate_parse, v_parse_again, v_validate_again,
	v_value_type,
	v_value_is_null, v_value_bool, v_value_double, v_value_number_text,
	v_value_string, v_value_raw_string, v_value_raw_json, v_object_foreach,
	v_array_foreach, v_value_is_empty, v_array_foreach_span, v_strerror, v_version,
	v_implementation,
};
