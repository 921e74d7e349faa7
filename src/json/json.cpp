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

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#ifdef __AVX2__
#include <immintrin.h>
#endif
#include <cerrno>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <locale.h>
#include <new>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

using namespace simdjson;

static_assert(SSJ_PADDING == SIMDJSON_PADDING,
	      "SSJ_PADDING must match simdjson's padding");

// The opaque C types are these, private to each variant's translation unit.
namespace {
struct parser_impl {
	ondemand::parser parser;
	ondemand::document doc;
	// The whole-text path (ssj_validate_whole): simdjson's stage 1 indexes
	// the text (the offset of every bracket, colon, comma and value start),
	// w_check() checks the grammar over that index, and the visit steps
	// over it. `wtext` is the text of the last such call while it is the
	// parser's current document, else null; `wix` its index, `wclose` the
	// closing structural of each container (by its opening one). Unescaped
	// strings go to blocks that stay put until the next document (a block
	// never moves, so earlier strings stay valid, as in On-Demand's string
	// buffer).
	std::unique_ptr<internal::dom_parser_implementation> wimpl;
	size_t wcap = 0;
	std::unique_ptr<uint32_t[]> wclose;
	const char *wtext = nullptr;
	size_t wlen = 0;
	const uint32_t *wix = nullptr;
	bool wescapes = false;       // the text has a backslash somewhere
	std::vector<std::unique_ptr<uint8_t[]>> sblocks;
	size_t sblock_cap = 0, sblock_used = 0;
};
// A value is On-Demand's, or (ixp set) the value starting at structural
// `i` of ixp's whole-text document.
struct value_impl {
	// first: what C sees of a value (json.h); w_value() fills it with `i`
	struct ssj_value head = {SSJ_INVALID, false, nullptr, 0};
	ondemand::value v;
	parser_impl *ixp = nullptr;
	uint32_t i = 0;
};
} // namespace

static inline parser_impl *P(struct ssj_parser *p)
{
	return reinterpret_cast<parser_impl *>(p);
}

static_assert(std::is_standard_layout<value_impl>::value,
	      "a value_impl starts at its head (V() and C() convert)");

// A C value is the head of its value_impl, which starts at it.
static inline value_impl *V(struct ssj_value *v)
{
	return reinterpret_cast<value_impl *>(v);
}

static inline struct ssj_value *C(value_impl *v)
{
	return &v->head;
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

// Small helpers of the hot paths, inlined wherever they are used.
#define SSJ_HOT static inline __attribute__((always_inline))

SSJ_HOT std::string_view trim_right(std::string_view s)
{
	// (every white space byte is at most ' ': one test for the usual case)
	if (!s.empty() && (unsigned char)s.back() > ' ')
		return s;
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
	P(p)->wtext = nullptr;
	if (ps.capacity() > KEEP_CAPACITY && len <= KEEP_CAPACITY) {
		error_code e = ps.allocate(KEEP_CAPACITY, ps.max_depth());
		if (e)
			return map_error(e);
	}
	padded_string_view view(text, len, len + SIMDJSON_PADDING);
	error_code e = P(p)->parser.iterate(view).get(P(p)->doc);
	return map_error(e);
}

static enum ssj_status visit_object(ondemand::object obj, ssj_field_fn fn, void *ctx,
				   uint64_t lens = SSJ_ALL_LENS)
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
		if (!fn || !(lens & SSJ_LEN_BIT(key.size())))
			continue;
		value_impl val;
		val.v = f.value();
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

SSJ_HOT bool is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

// Past the digits that start at s (s < end). The text has SSJ_PADDING
// readable bytes after its end, so a block may be read past `end`.
SSJ_HOT const char *skip_digits(const char *s, const char *end)
{
#ifdef __SSE2__
	const __m128i below = _mm_set1_epi8('0' - 1), above = _mm_set1_epi8('9' + 1);
	for (;;) {
		__m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s));
		unsigned digit = (unsigned)_mm_movemask_epi8(
			_mm_and_si128(_mm_cmpgt_epi8(v, below), _mm_cmplt_epi8(v, above)));
		unsigned run = (unsigned)__builtin_ctz(~digit | 0x10000u);
		s += run;
		if (run < 16 || s >= end)
			return s < end ? s : end;
	}
#else
	while (s < end && is_digit(*s))
		s++;
	return s;
#endif
}

// The JSON number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
SSJ_HOT bool json_number_syntax(std::string_view t)
{
	const char *s = t.data(), *end = s + t.size();

	if (s < end && *s == '-')
		s++;
	if (s == end)
		return false;
	if (*s == '0')
		s++;
	else if (is_digit(*s))
		s = skip_digits(s, end);
	else
		return false;
	if (s < end && *s == '.') {
		if (++s == end || !is_digit(*s))
			return false;
		s = skip_digits(s, end);
	}
	if (s < end && (*s == 'e' || *s == 'E')) {
		if (++s < end && (*s == '+' || *s == '-'))
			s++;
		if (s == end || !is_digit(*s))
			return false;
		while (++s < end && is_digit(*s))
			;
	}
	return s == end;
}

#ifdef __SSE2__
// The digits among the 32 bytes at s, as a mask (bit i: s[i]).
SSJ_HOT uint64_t digit_mask32(const char *s)
{
#ifdef __AVX2__
	// '0'..'9' moved to the 10 smallest signed bytes: one compare finds them
	__m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(s));
	__m256i shifted = _mm256_add_epi8(a, _mm256_set1_epi8((char)(0x80 - '0')));
	return (uint32_t)_mm256_movemask_epi8(
		_mm256_cmpgt_epi8(_mm256_set1_epi8((char)(0x80 + 10)), shifted));
#else
	const __m128i below = _mm_set1_epi8('0' - 1), above = _mm_set1_epi8('9' + 1);
	__m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s));
	__m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + 16));
	unsigned lo = (unsigned)_mm_movemask_epi8(
		_mm_and_si128(_mm_cmpgt_epi8(a, below), _mm_cmplt_epi8(a, above)));
	unsigned hi = (unsigned)_mm_movemask_epi8(
		_mm_and_si128(_mm_cmpgt_epi8(b, below), _mm_cmplt_epi8(b, above)));
	return (uint64_t)lo | (uint64_t)hi << 16;
#endif
}

// json_number_syntax for a token of 1 to 32 bytes (with SSJ_PADDING
// readable after the text it lies in): one mask of its digits, and each
// run of digits the grammar wants ends at the next non-digit, found with
// one count of trailing zeros instead of a loop.
SSJ_HOT bool number_syntax_short(const char *s, size_t n)
{
	uint64_t in = ((uint64_t)1 << n) - 1;
	uint64_t digit = digit_mask32(s) & in, other = ~digit & in;
	// where the digit run that starts at k ends (n: at the token's end)
	auto run_end = [&](size_t k) -> size_t {
		uint64_t o = other >> k;
		return o ? k + (size_t)__builtin_ctzll(o) : n;
	};
	size_t i = s[0] == '-', end;

	if (!(digit >> i & 1))
		return false;
	end = run_end(i);
	if (s[i] == '0' && end > i + 1)
		return false;
	if (end == n)
		return true;
	if (s[end] == '.') {
		if (!(digit >> (end + 1) & 1))
			return false;
		end = run_end(end + 1);
		if (end == n)
			return true;
	}
	if (s[end] != 'e' && s[end] != 'E')
		return false;
	end++;
	if (end < n && (s[end] == '+' || s[end] == '-'))
		end++;
	if (!(digit >> end & 1))
		return false;
	return run_end(end) == n;
}
#endif

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

static bool whole_index(parser_impl *pi, const char *text, size_t len);

// Both validating entry points take the whole-text path first (faster
// than the validating walk); what it does not take, the walk decides.
static enum ssj_status v_validate(struct ssj_parser *p, const char *text,
					size_t len, bool whole)
{
	return guard_status([&] {
		if (whole && whole_index(P(p), text, len))
			return SSJ_OK;
		enum ssj_status s = start(p, text, len);
		if (s != SSJ_OK)
			return s;
		return validate_doc(p);
	});
}

static enum ssj_status w_visit_root(parser_impl *p, ssj_field_fn fn, void *ctx);

static enum ssj_status v_parse_again(struct ssj_parser *p, ssj_field_fn fn, void *ctx)
{
	return guard_status([&] {
		if (P(p)->wtext)
			return w_visit_root(P(p), fn, ctx);
		P(p)->doc.rewind();
		return visit_root(p, fn, ctx);
	});
}

// The validating walk over the document the last parse indexed: a line
// already walked is checked to the letter without a second stage 1.
static enum ssj_status v_validate_again(struct ssj_parser *p)
{
	return guard_status([&] {
		if (P(p)->wtext)
			return SSJ_OK;  // checked whole by the full parse
		P(p)->doc.rewind();
		return validate_doc(p);
	});
}

// The validating walk, then the visit over the same index (a rewind instead
// of a second stage 1): payloads and metadata are checked, then read.
static enum ssj_status v_validate_parse(struct ssj_parser *p, const char *text,
				       size_t len, ssj_field_fn fn, void *ctx, bool whole)
{
	return guard_status([&] {
		if (whole && whole_index(P(p), text, len))
			return w_visit_root(P(p), fn, ctx);
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

// ---- the whole-text path (ssj_validate_whole) ----
//
// A full DOM parse checks the text to the letter in one pass; the visit
// then steps over the structural index that parse left behind (the
// offsets of every bracket, colon, comma and value start, strings never
// split), reading scalars from the text as On-Demand does. The index is
// simdjson's own (dom::parser's implementation, public but marked private
// in simdjson 3.0.1): the text is valid, so brackets balance and every
// scalar is followed by a structural.

// Nesting this path takes: deeper texts go the usual way (which decides at
// WALK_MAX_DEPTH), so the two never disagree near the limit.
static constexpr size_t WHOLE_MAX_DEPTH = 256;
// Unescaped strings: a block of this size is kept between documents.
static constexpr size_t WHOLE_STRING_BLOCK = 4096;

SSJ_HOT char w_char(const parser_impl *p, uint32_t i)
{
	return p->wtext[p->wix[i]];
}

// The structural just past the value that starts at structural i.
static uint32_t w_skip(parser_impl *p, uint32_t i)
{
	char c = w_char(p, i);
	if (c != '{' && c != '[')
		return i + 1;
	return p->wclose[i] + 1;
}

// The type of a value of a valid text by its first character: a table,
// not a switch, as the visit asks it of every value it hands out.
struct type_table {
	uint8_t t[256];
	constexpr type_table() : t()
	{
		for (int c = 0; c < 256; c++)
			t[c] = SSJ_NUMBER;
		t['{'] = SSJ_OBJECT;
		t['['] = SSJ_ARRAY;
		t['"'] = SSJ_STRING;
		t['t'] = t['f'] = SSJ_BOOL;
		t['n'] = SSJ_NULL;
	}
};
static constexpr type_table TYPE_OF;

SSJ_HOT enum ssj_type w_type(const parser_impl *p, uint32_t i)
{
	return (enum ssj_type)TYPE_OF.t[(unsigned char)w_char(p, i)];
}

// A scalar's text (or a key's, quotes included): up to the next
// structural, white space trimmed. Inside the root object there always is
// a next one.
SSJ_HOT std::string_view w_token(const parser_impl *p, uint32_t i)
{
	return trim_right(std::string_view(p->wtext + p->wix[i], p->wix[i + 1] - p->wix[i]));
}

// A value's whole text, as span_of() gives it.
static std::string_view w_span(parser_impl *p, uint32_t i)
{
	char c = w_char(p, i);
	if (c != '{' && c != '[')
		return w_token(p, i);
	uint32_t close = w_skip(p, i) - 1;
	return std::string_view(p->wtext + p->wix[i], p->wix[close] + 1 - p->wix[i]);
}

// Forget the unescaped strings of the last visit (as a rewind does).
static void w_strings_reset(parser_impl *p)
{
	if (p->sblocks.size() > 1 || p->sblock_cap > WHOLE_STRING_BLOCK) {
		p->sblocks.clear();
		p->sblock_cap = 0;
	}
	p->sblock_used = 0;
}

// The unescaped text of the string (or key) at structural i: the text
// itself when it has no escape, else decoded by simdjson's own routine.
static enum ssj_status w_string(parser_impl *p, uint32_t i, std::string_view &out)
{
	std::string_view tok = w_token(p, i);
	const char *body = tok.data() + 1;
	size_t n = tok.size() - 2;

	if (!p->wescapes || !memchr(body, '\\', n)) {
		out = std::string_view(body, n);
		return SSJ_OK;
	}
	size_t need = n + SIMDJSON_PADDING;
	if (p->sblocks.empty() || p->sblock_cap - p->sblock_used < need) {
		size_t cap = need < WHOLE_STRING_BLOCK ? WHOLE_STRING_BLOCK : need;
		p->sblocks.emplace_back(new uint8_t[cap]);
		p->sblock_cap = cap;
		p->sblock_used = 0;
	}
	uint8_t *dst = p->sblocks.back().get() + p->sblock_used;
	uint8_t *end = p->wimpl->parse_string(
		reinterpret_cast<const uint8_t *>(body), dst);
	if (!end)
		return SSJ_ESYNTAX;
	p->sblock_used += (size_t)(end - dst);
	out = std::string_view(reinterpret_cast<const char *>(dst), (size_t)(end - dst));
	return SSJ_OK;
}

// A scalar of the grammar, whole: a string whose escapes simdjson decodes,
// a literal, or a number of the JSON syntax (its range does not matter).
// ESC: the text has a backslash somewhere (p->wescapes).
template <bool ESC> SSJ_HOT bool w_scalar_ok(parser_impl *p, uint32_t i, char c)
{
	// Stage 1 closed every string, and between a closing quote and the
	// next structural only white space can stand (any other byte starts a
	// scalar of its own, which is a structural): without a backslash in
	// the text, a string is whole as it is.
	if (c == '"' && !ESC)
		return true;
	std::string_view tok = w_token(p, i);
	switch (c) {
	case '"': {
		if (tok.size() < 2 || tok.back() != '"')
			return false;
		const char *body = tok.data() + 1;
		size_t n = tok.size() - 2;
		if (!memchr(body, '\\', n))
			return true;
		std::string_view out;
		enum ssj_status s = w_string(p, i, out);
		p->sblock_used -= out.size();  // only checked: the room is free again
		return s == SSJ_OK;
	}
	case 't': return tok == "true";
	case 'f': return tok == "false";
	case 'n': return tok == "null";
	default:
#ifdef __SSE2__
		if (tok.size() <= 32)
			return number_syntax_short(tok.data(), tok.size());
#endif
		return json_number_syntax(tok);
	}
}

// The JSON grammar over the structural index that stage 1 left (stage 1
// has checked the UTF-8, closed every string and refused control
// characters in them): a value wherever one must stand, each scalar whole,
// keys followed by colons, brackets that match, the root an object and
// nothing after it. A number is judged by its syntax alone, as the
// validating walk judges it. Fills wclose for every container. Written
// as the grammar's loop with labels (not a state variable) so that the
// branches follow the text's shape.
//
// The last structural is checked first to be the root's closing brace.
// Then no step needs its own bound: a step that reads past a structural
// has read a character that is not '}' there (a key's quote, a value, a
// comma, an opening bracket), so that structural is not the last one.
// Only a container closed before the root's end is followed by a read
// that could pass it, and that is checked.
template <bool ESC> static bool w_check(parser_impl *p, uint32_t n)
{
	uint32_t open[WHOLE_MAX_DEPTH];  // opening structural of each open container
	size_t depth = 0;
	bool in_object = true;           // the innermost open container is an object
	uint32_t i = 0;
	char c;

	if (n < 2 || w_char(p, 0) != '{' || w_char(p, n - 1) != '}')
		return false;
	open[depth++] = i++;
	if (w_char(p, i) == '}')
		goto close_container;
object_field:
	// a key, its colon after it (a key's quote is not the last structural)
	if (w_char(p, i) != '"' || w_char(p, i + 1) != ':' || !w_scalar_ok<ESC>(p, i, '"'))
		return false;
	i += 2;
value:
	c = w_char(p, i);
	if (c == '{' || c == '[')
		goto open_container;
	if (!w_scalar_ok<ESC>(p, i, c))
		return false;
	i++;
after_value:
	c = w_char(p, i);
	if (c == ',') {
		i++;
		if (in_object)
			goto object_field;
		goto value;
	}
	if (c != (in_object ? '}' : ']'))
		return false;
close_container:
	p->wclose[open[--depth]] = i++;
	if (depth == 0)
		return i == n;
	if (i == n)
		return false;
	in_object = w_char(p, open[depth - 1]) == '{';
	goto after_value;

open_container:
	if (depth == WHOLE_MAX_DEPTH)
		return false;
	open[depth++] = i++;
	in_object = c == '{';
	if (w_char(p, i) == (in_object ? '}' : ']'))
		goto close_container;
	if (in_object)
		goto object_field;
	goto value;
}

// A key at structural i, unescaped: the text between its quotes when the
// text has no backslash at all.
SSJ_HOT enum ssj_status w_key(parser_impl *p, uint32_t i, std::string_view &out)
{
	if (p->wescapes)
		return w_string(p, i, out);
	std::string_view tok = w_token(p, i);
	out = std::string_view(tok.data() + 1, tok.size() - 2);
	return SSJ_OK;
}

// Make v the value at structural i, with what json.h's inline readers
// read: its type, and a scalar's token.
SSJ_HOT void w_value(parser_impl *p, value_impl &v, uint32_t i)
{
	enum ssj_type t = w_type(p, i);

	v.i = i;
	v.head.known = t;
	v.head.tok = nullptr;
	if (t == SSJ_NUMBER || t == SSJ_STRING) {
		std::string_view tok = w_token(p, i);
		bool str = t == SSJ_STRING;
		v.head.tok = tok.data() + str;
		v.head.tok_len = tok.size() - 2 * str;
		v.head.plain = !p->wescapes;
	}
}

// Call fn for each field of the object at structural i.
static enum ssj_status w_object(parser_impl *p, uint32_t i, ssj_field_fn fn, void *ctx,
			       uint64_t lens = SSJ_ALL_LENS)
{
	uint32_t j = i + 1;
	value_impl val;  // made once: only what w_value sets changes from field to field

	if (w_char(p, j) == '}')
		return SSJ_OK;
	val.ixp = p;
	for (;;) {
		std::string_view key;
		enum ssj_status s = w_key(p, j, key);
		if (s != SSJ_OK)
			return s;
		if (fn && (lens & SSJ_LEN_BIT(key.size()))) {
			w_value(p, val, j + 2);
			if (fn(ctx, key.data(), key.size(), C(&val)))
				return SSJ_STOPPED;
		}
		j = w_skip(p, j + 2);
		if (w_char(p, j) != ',')
			return SSJ_OK;
		j++;
	}
}

// Call each(index, element's first structural) for the array at i.
template <typename F> static enum ssj_status w_array(parser_impl *p, uint32_t i, F &&each)
{
	uint32_t j = i + 1;

	if (w_char(p, j) == ']')
		return SSJ_OK;
	for (size_t k = 0;; k++) {
		enum ssj_status s = each(k, j);
		if (s != SSJ_OK)
			return s;
		j = w_skip(p, j);
		if (w_char(p, j) != ',')
			return SSJ_OK;
		j++;
	}
}

static enum ssj_status w_visit_root(parser_impl *p, ssj_field_fn fn, void *ctx)
{
	w_strings_reset(p);
	if (w_char(p, 0) != '{')
		return SSJ_ENOTOBJECT;
	return w_object(p, 0, fn, ctx);
}

// Index `text` and check it whole: true when it is a valid object this
// path takes (the parser's current document is then it), false for
// anything else, which the usual path decides. Throws std::bad_alloc.
static bool whole_index(parser_impl *pi, const char *text, size_t len)
{
	error_code e;

	pi->wtext = nullptr;
	if (len > SSJ_WHOLE_MAX)
		return false;
	if (!pi->wimpl || pi->wcap < len) {
		size_t cap = len < 4096 ? 4096 : len;
		if (!pi->wimpl)
			e = get_active_implementation()->create_dom_parser_implementation(
				cap, WHOLE_MAX_DEPTH, pi->wimpl);
		else
			e = pi->wimpl->set_capacity(cap);
		if (e == MEMALLOC)
			throw std::bad_alloc();
		if (e)
			return false;
		// one entry per structural, at most one per byte
		pi->wclose.reset(new uint32_t[cap + 1]);
		pi->wcap = cap;
	}
	if (pi->wimpl->stage1(reinterpret_cast<const uint8_t *>(text), len, stage1_mode::regular))
		return false;
	pi->wtext = text;
	pi->wlen = len;
	pi->wix = pi->wimpl->structural_indexes.get();
	pi->wescapes = memchr(text, '\\', len) != nullptr;
	uint32_t n = (uint32_t)pi->wimpl->n_structural_indexes;
	if (!(pi->wescapes ? w_check<true>(pi, n) : w_check<false>(pi, n))) {
		pi->wtext = nullptr;
		return false;
	}
	return true;
}

static enum ssj_status v_validate_whole(struct ssj_parser *p, const char *text, size_t len,
					ssj_field_fn fn, void *ctx)
{
	return guard_status([&] {
		if (!whole_index(P(p), text, len))
			return SSJ_ESYNTAX;
		return w_visit_root(P(p), fn, ctx);
	});
}

// The object whose text is [text, text + len) inside the whole-text
// document the parser holds: found by its offset among the structurals
// (they are in ascending order), its end checked against its closing
// brace, then visited over the index. The strings of the visits before
// stay (no reset): the document is the same.
static enum ssj_status v_parse_within(struct ssj_parser *p, const char *text, size_t len,
				      ssj_field_fn fn, void *ctx)
{
	return guard_status([&] {
		parser_impl *pi = P(p);
		uintptr_t base = reinterpret_cast<uintptr_t>(pi->wtext);
		uintptr_t at = reinterpret_cast<uintptr_t>(text);

		if (!pi->wtext || at < base || at - base >= pi->wlen || len > pi->wlen - (at - base))
			return SSJ_EINTERNAL;
		uint32_t off = (uint32_t)(at - base);
		uint32_t n = (uint32_t)pi->wimpl->n_structural_indexes;
		const uint32_t *found = std::lower_bound(pi->wix, pi->wix + n, off);
		if (found == pi->wix + n || *found != off || pi->wtext[off] != '{')
			return SSJ_EINTERNAL;
		uint32_t i = (uint32_t)(found - pi->wix);
		if (pi->wix[pi->wclose[i]] + 1 != off + len)
			return SSJ_EINTERNAL;
		return w_object(pi, i, fn, ctx);
	});
}

static enum ssj_type v_value_type(struct ssj_value *v)
{
	return guard(SSJ_INVALID, [v] {
		if (V(v)->ixp)
			return w_type(V(v)->ixp, V(v)->i);
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
		if (V(v)->ixp)
			return w_char(V(v)->ixp, V(v)->i) == 'n';
		bool n = false;
		if (V(v)->v.is_null().get(n))
			return false;
		return n;
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
		return map_error(V(v)->v.get_bool().get(*out));
	});
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

// The double of the number token `tok`, given simdjson's reading of it
// (error `e`, value *out).
static enum ssj_status finish_double(error_code e, std::string_view tok, double *out)
{
	if (e == NUMBER_ERROR || e == NUMBER_OUT_OF_RANGE) {
		if (json_number_syntax(tok) && significant_digits(tok) > 19)
			return long_double(tok, out);
		return SSJ_ERANGE;
	}
	if (e)
		return map_error(e);
	// (a token of at most 19 bytes has at most 19 digits)
	if (tok.size() > 19 && significant_digits(tok) > 19) {
		enum ssj_status s = long_double(tok, out);
		if (s != SSJ_OK)
			return s;
	}
	// An integer literal converts exactly (SPEC 1.2): `-0` is 0.0.
	if (*out == 0.0 && tok.find_first_of(".eE") == std::string_view::npos)
		*out = 0.0;
	return SSJ_OK;
}

// Read where the text lies: json.h asks for a number's token as
// ssj_value_number_text() gave it, so the byte after it is white space or
// a structural character (where simdjson's reader stops) and the
// document's padding covers the 8-byte reads of its digit loop. (Copying
// the text out with spaces after it cost a call to memcpy per number.)
static enum ssj_status v_number_double(const char *text, size_t len, double *out)
{
	return guard_status([&] {
		error_code e = builtin::numberparsing::parse_double(
			reinterpret_cast<const uint8_t *>(text)).get(*out);
		return finish_double(e, std::string_view(text, len), out);
	});
}

static enum ssj_status v_value_double(struct ssj_value *v, double *out)
{
	return guard_status([&] {
		if (V(v)->ixp) {
			parser_impl *pi = V(v)->ixp;
			if (w_type(pi, V(v)->i) != SSJ_NUMBER)
				return SSJ_ETYPE;
			const uint8_t *src = reinterpret_cast<const uint8_t *>(pi->wtext) + pi->wix[V(v)->i];
			error_code e = builtin::numberparsing::parse_double(src).get(*out);
			return finish_double(e, w_token(pi, V(v)->i), out);
		}
		error_code e = V(v)->v.get_double().get(*out);
		if (e == NUMBER_ERROR || e == NUMBER_OUT_OF_RANGE) {
			// only a number gets here with its text read again
			ondemand::json_type t;
			if (V(v)->v.type().get(t) || t != ondemand::json_type::number)
				return map_error(e);
		} else if (e) {
			return map_error(e);
		}
		return finish_double(e, trim_right(V(v)->v.raw_json_token()), out);
	});
}

// The same for a value of the whole-text path.
static enum ssj_status w_scalar(value_impl *v, enum ssj_type want, std::string_view &tok)
{
	if (w_type(v->ixp, v->i) != want)
		return SSJ_ETYPE;
	tok = w_token(v->ixp, v->i);
	return SSJ_OK;
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
		enum ssj_status s = V(v)->ixp ? w_scalar(V(v), SSJ_NUMBER, tok)
			: scalar_token(V(v)->v, ondemand::json_type::number, tok);
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
		if (V(v)->ixp) {
			if (w_type(V(v)->ixp, V(v)->i) != SSJ_STRING)
				return SSJ_ETYPE;
			enum ssj_status st = w_string(V(v)->ixp, V(v)->i, s);
			if (st != SSJ_OK)
				return st;
		} else {
			error_code e = V(v)->v.get_string().get(s);
			if (e)
				return map_error(e);
		}
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
		enum ssj_status s = V(v)->ixp ? w_scalar(V(v), SSJ_STRING, tok)
			: scalar_token(V(v)->v, ondemand::json_type::string, tok);
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
		if (V(v)->ixp) {
			s = w_span(V(v)->ixp, V(v)->i);
		} else {
			error_code e = span_of(V(v)->v, s, &t);
			if (e)
				return map_error(e);
		}
		*p = s.data();
		*n = s.size();
		return SSJ_OK;
	});
}

static enum ssj_status v_object_foreach(struct ssj_value *v, uint64_t lens, ssj_field_fn fn,
					void *ctx)
{
	return guard_status([&] {
		if (V(v)->ixp) {
			if (w_type(V(v)->ixp, V(v)->i) != SSJ_OBJECT)
				return SSJ_ETYPE;
			return w_object(V(v)->ixp, V(v)->i, fn, ctx, lens);
		}
		ondemand::object obj;
		error_code e = V(v)->v.get_object().get(obj);
		if (e)
			return map_error(e);
		return visit_object(obj, fn, ctx, lens);
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
		if (V(v)->ixp) {
			parser_impl *pi = V(v)->ixp;
			if (w_type(pi, V(v)->i) != SSJ_ARRAY)
				return SSJ_ETYPE;
			value_impl ev;
			ev.ixp = pi;
			return w_array(pi, V(v)->i, [&](size_t i, uint32_t j) {
				w_value(pi, ev, j);
				return fn && fn(ctx, i, C(&ev)) ? SSJ_STOPPED : SSJ_OK;
			});
		}
		return visit_array(V(v)->v, [&](size_t i, value_impl &ev) {
			return fn && fn(ctx, i, C(&ev)) ? SSJ_STOPPED : SSJ_OK;
		});
	});
}

static enum ssj_status v_array_foreach_span(struct ssj_value *v, ssj_span_fn fn,
					    void *ctx)
{
	return guard_status([&] {
		if (V(v)->ixp) {
			parser_impl *pi = V(v)->ixp;
			if (w_type(pi, V(v)->i) != SSJ_ARRAY)
				return SSJ_ETYPE;
			return w_array(pi, V(v)->i, [&](size_t i, uint32_t j) {
				std::string_view s = w_span(pi, j);
				return fn && fn(ctx, i, w_type(pi, j), s.data(), s.size()) ? SSJ_STOPPED
											    : SSJ_OK;
			});
		}
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
		if (V(v)->ixp) {
			char c = w_char(V(v)->ixp, V(v)->i), next;
			*empty = true;
			if (c != '[' && c != '{')
				return SSJ_ETYPE;
			next = w_char(V(v)->ixp, V(v)->i + 1);
			*empty = next == ']' || next == '}';
			return SSJ_OK;
		}
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
	v_validate_whole, v_parse_within,
	v_value_type,
	v_value_is_null, v_value_bool, v_value_double, v_number_double, v_value_number_text,
	v_value_string, v_value_raw_string, v_value_raw_json, v_object_foreach,
	v_array_foreach, v_value_is_empty, v_array_foreach_span, v_strerror, v_version,
	v_implementation,
};
