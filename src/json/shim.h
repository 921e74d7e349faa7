// shim.h - private to the shim's C++ (shim.cpp, ondemand.cpp, whole.cpp,
// strings.cpp, numbers.cpp): the parser and value types behind json.h's
// opaque structs, the guards that keep exceptions out of C, and the small
// helpers of the hot paths, inlined wherever they are used.
//
// The jobs, one file each (the way simdjson keeps its stage 1 and stage 2
// apart):
//  - shim.cpp: json.h's entry points; it chooses the path for each text
//    and hands a value's readers to the path that made the value;
//  - whole.cpp: the whole-text path: simdjson's stage 1 indexes the text,
//    the shim checks the grammar over that index and visits over it
//    (simdjson internals: built only with SSJ_HAVE_WHOLE);
//  - ondemand.cpp: the On-Demand path over simdjson's public API: a
//    complete validating walk, then visits after a rewind;
//  - strings.cpp: the escape check both paths run over a whole text, and
//    decoded strings;
//  - numbers.cpp: a number token to its double.
//
// Every variant (generic, haswell) builds all of them with its own -m
// flags, so everything here lives in a namespace of the variant's own
// (SSJ_NS): two variants never share a definition.
//
// Ownership: a parser_impl owns its index, its decoded strings and its
// helper parser; texts are the caller's (json.h).
#ifndef SS_JSON_SHIM_H
#define SS_JSON_SHIM_H

#include "json/json_ops.h"

#include <simdjson.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>
#include <type_traits>
#include <vector>

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#ifdef __AVX2__
#include <immintrin.h>
#endif

#ifndef SSJ_NS
#error "SSJ_NS names the variant's namespace (src/json/local.mk)"
#endif

static_assert(SSJ_PADDING == simdjson::SIMDJSON_PADDING, "SSJ_PADDING must match simdjson's padding");

// Small helpers of the hot paths, inlined wherever they are used.
#define SSJ_HOT static inline __attribute__((always_inline))

namespace SSJ_NS {

using namespace simdjson;

// Deepest nesting either path accepts: 1,024 levels of containers, the
// root object the first (SPEC 1.2); one more is SSJ_EDEPTH.
constexpr size_t MAX_DEPTH = 1024;

// Whether this build has the whole-text path (configure: SSJ_HAVE_WHOLE).
#ifdef SSJ_HAVE_WHOLE
constexpr bool WHOLE_BUILT = true;
#else
constexpr bool WHOLE_BUILT = false;
#endif

// A parser keeps the buffers of its largest document (the On-Demand
// parser about 5.7 bytes per byte of text, the whole-text index 8).
// After a text longer than this it gives them back at its next, shorter
// one, so each worker holds that much only while it reads a huge line.
constexpr size_t KEEP_CAPACITY = (size_t)1 << 20;

// Decoded strings go to blocks of at least this size, kept between
// documents; a block never moves, so earlier strings stay valid.
constexpr size_t STRING_BLOCK = 4096;

struct whole_state;  // whole.cpp: simdjson's stage-1 state and the index
void whole_state_free(whole_state *w) noexcept;
struct whole_state_del {
	void operator()(whole_state *w) const noexcept { whole_state_free(w); }
};

struct parser_impl {
	enum ssj_path path = SSJ_PATH_AUTO;   // the test switch (json_paths.h)
	// The open document: its text while open, else null; `used` the
	// path that opened it.
	const char *text = nullptr;
	size_t len = 0;
	enum ssj_path used = SSJ_PATH_AUTO;
	bool escapes = false;                 // the text has a backslash
	bool root_array = false;              // opened by ssj_open_array()
	// The whole-text path's index of the open document: the offset of
	// every structural (bracket, colon, comma, value start; strings never
	// split), n of them, followed by simdjson's sentinel; `close` the
	// closing structural of each container, by its opening one.
	const uint32_t *ix = nullptr;
	const uint32_t *close = nullptr;
	uint32_t n = 0;
	// The last object whose text ssj_value_raw_json() gave on this path:
	// where it starts and its structural, so that ssj_visit_span() on it
	// needs no search (null: none since the document was opened).
	const char *span_at = nullptr;
	uint32_t span_i = 0;
	std::unique_ptr<whole_state, whole_state_del> ws;
	// The On-Demand path.
	ondemand::parser od;
	ondemand::document doc;
	// Decoded strings of the open document.
	std::vector<std::unique_ptr<uint8_t[]>> sblocks;
	size_t sblock_cap = 0, sblock_used = 0;
	// ssj_visit_span's helper: re-reads an object of an On-Demand
	// document, and opens texts that lie outside the open document.
	std::unique_ptr<parser_impl> aux;
	bool aux_busy = false;
	// An aux parser's owner, whose string blocks its strings go to (they
	// live as long as the owner's document); null for a caller's parser.
	parser_impl *owner = nullptr;
};

// Where the strings of p's documents are decoded to.
SSJ_HOT parser_impl *string_home(parser_impl *p)
{
	return p->owner ? p->owner : p;
}

// A value is the value starting at structural `i` of ixp's whole-text
// document (ixp set), or On-Demand's `v`, which lies in odi's document
// and whose strings decode to odp's blocks; `span` is its text once an
// On-Demand foreach went through the whole object (so that its text can
// still be asked for, as on the whole-text path).
struct value_impl {
	// first: what C sees of a value (json.h); w_value() fills it
	struct ssj_value head = {SSJ_INVALID, false, nullptr, 0};
	ondemand::value v;
	parser_impl *ixp = nullptr;
	parser_impl *odp = nullptr;
	parser_impl *odi = nullptr;
	std::string_view span;
	uint32_t i = 0;
};

static_assert(std::is_standard_layout<value_impl>::value,
	      "a value_impl starts at its head (V() and C() convert)");

SSJ_HOT parser_impl *P(struct ssj_parser *p)
{
	return reinterpret_cast<parser_impl *>(p);
}

// A C value is the head of its value_impl, which starts at it.
SSJ_HOT value_impl *V(struct ssj_value *v)
{
	return reinterpret_cast<value_impl *>(v);
}

SSJ_HOT struct ssj_value *C(value_impl *v)
{
	return &v->head;
}

// simdjson's errors as the shim's, for reading a value.
enum ssj_status map_error(error_code e);
// ... and for opening a text: anything but memory, size, UTF-8 and depth
// is a text that is not valid JSON.
enum ssj_status open_error(error_code e);

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

// ---- numbers: the syntax (both paths' checks) here, doubles in numbers.cpp

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
#ifdef __AVX2__
// digit_mask32's constants, read from memory where they are used (made
// from an immediate instead, as the compiler does for a _mm256_set1_epi8,
// they cost 6 instructions a number)
struct digit_consts {
	alignas(32) char shift[32];
	alignas(32) char limit[32];
	constexpr digit_consts() : shift(), limit()
	{
		for (int k = 0; k < 32; k++) {
			shift[k] = (char)(0x80 - '0');
			limit[k] = (char)(0x80 + 10);
		}
	}
};
extern const digit_consts DIGIT_CONSTS;
#endif

// The digits among the 32 bytes at s, as a mask (bit i: s[i]).
SSJ_HOT uint64_t digit_mask32(const char *s)
{
#ifdef __AVX2__
	// '0'..'9' moved to the 10 smallest signed bytes: one compare finds them
	__m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(s));
	__m256i shifted = _mm256_add_epi8(
		a, _mm256_load_si256(reinterpret_cast<const __m256i *>(DIGIT_CONSTS.shift)));
	return (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(
		_mm256_load_si256(reinterpret_cast<const __m256i *>(DIGIT_CONSTS.limit)), shifted));
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

	// the usual count: digits only, no leading zero
	if (digit == in)
		return s[0] != '0' || n == 1;
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

// A number token of any length (in a padded text) has the JSON syntax.
SSJ_HOT bool number_token_ok(std::string_view tok)
{
#ifdef __SSE2__
	if (!tok.empty() && tok.size() <= 32)
		return number_syntax_short(tok.data(), tok.size());
#endif
	return json_number_syntax(tok);
}

// numbers.cpp: the double of a number token lying in a padded text, as
// json.h's ssj_number_double() promises (SSJ_ESYNTAX when the token is
// not a number, SSJ_ERANGE past the double range).
enum ssj_status number_double(const char *text, size_t len, double *out);

// ---- strings (strings.cpp)

// Every backslash of s[0..n) (SSJ_PADDING readable after it) opens a
// valid escape: \" \\ \/ \b \f \n \r \t, or \u and four hex digits (a
// lone surrogate is valid). Backslashes pair off from the left in each
// run, as stage 1 reads them. Run over a whole text, inside strings and
// out (outside a string a backslash is refused by the grammar anyway).
bool escapes_valid(const char *s, size_t n);

// The decoded text of a string's inside (body, n bytes, its escapes
// checked): body itself when it has no backslash, else decoded into the
// parser's string blocks (a lone surrogate as U+FFFD).
enum ssj_status decode_string(parser_impl *p, const char *body, size_t n,
			      std::string_view &out);
// Forget the decoded strings of the last document.
void strings_reset(parser_impl *p);

// ---- the whole-text path's index (whole.cpp builds it and walks it)

SSJ_HOT char w_char(const parser_impl *p, uint32_t i)
{
	return p->text[p->ix[i]];
}

// The structural just past the value that starts at structural i.
SSJ_HOT uint32_t w_skip(const parser_impl *p, uint32_t i)
{
	char c = w_char(p, i);
	if (c != '{' && c != '[')
		return i + 1;
	return p->close[i] + 1;
}

// The type of a value of a checked text by its first character: a table,
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
constexpr type_table TYPE_OF;

SSJ_HOT enum ssj_type w_type(const parser_impl *p, uint32_t i)
{
	return (enum ssj_type)TYPE_OF.t[(unsigned char)w_char(p, i)];
}

// A scalar's text (or a key's, quotes included): up to the next
// structural, white space trimmed. Inside the root object there always is
// a next one.
SSJ_HOT std::string_view w_token(const parser_impl *p, uint32_t i)
{
	return trim_right(std::string_view(p->text + p->ix[i], p->ix[i + 1] - p->ix[i]));
}

// A value's whole text, as ssj_value_raw_json() gives it.
SSJ_HOT std::string_view w_span(const parser_impl *p, uint32_t i)
{
	char c = w_char(p, i);
	if (c != '{' && c != '[')
		return w_token(p, i);
	uint32_t close = p->close[i];
	return std::string_view(p->text + p->ix[i], p->ix[close] + 1 - p->ix[i]);
}

// The decoded text of the string (or key) at structural i.
SSJ_HOT enum ssj_status w_string(parser_impl *p, uint32_t i, std::string_view &out)
{
	std::string_view tok = w_token(p, i);
	const char *body = tok.data() + 1;
	size_t n = tok.size() - 2;

	if (!p->escapes) {
		out = std::string_view(body, n);
		return SSJ_OK;
	}
	return decode_string(string_home(p), body, n, out);
}

// Make v the value at structural i, with what json.h's inline readers
// read: its type, and a scalar's token.
// w_value's work for a walk that has the value's first character c and
// its structural (at: its offset, then the next one's) at hand; `plain`
// is left as it was.
SSJ_HOT void w_value_at(value_impl &v, const char *text, const uint32_t *at, uint32_t i, char c)
{
	enum ssj_type t = (enum ssj_type)TYPE_OF.t[(unsigned char)c];

	v.i = i;
	v.head.known = t;
	v.head.tok = nullptr;
	if (t == SSJ_NUMBER || t == SSJ_STRING) {
		std::string_view tok = trim_right(std::string_view(text + at[0], at[1] - at[0]));
		bool str = t == SSJ_STRING;
		v.head.tok = tok.data() + str;
		v.head.tok_len = tok.size() - 2 * str;
	}
}

SSJ_HOT void w_value(parser_impl *p, value_impl &v, uint32_t i)
{
	w_value_at(v, p->text, p->ix + i, i, w_char(p, i));
	if (v.head.tok)
		v.head.plain = !p->escapes;
}

// whole.cpp. w_open: SSJ_OK (the text is the open document, on this
// path; its root an object, or an array when it starts with '['), another status (the text is not valid), or SSJ_ECAPACITY when
// this path does not take the text (too long; in a build without the
// path, every text).
enum ssj_status w_open(parser_impl *p, const char *text, size_t len);
enum ssj_status w_object(parser_impl *p, uint32_t i, ssj_field_fn fn, void *ctx,
			 uint64_t lens);
enum ssj_status w_array(parser_impl *p, uint32_t i, ssj_elem_fn fn, void *ctx);
enum ssj_status w_array_spans(parser_impl *p, uint32_t i, ssj_span_fn fn, void *ctx);
// The structural where the object [text, text + len) of the open
// document starts, in *i; false when no object of it lies exactly there.
bool w_find_object(const parser_impl *p, const char *text, size_t len, uint32_t *i);

// ---- the On-Demand path (ondemand.cpp)

// Open and check the text completely (then rewound for visits).
enum ssj_status od_open(parser_impl *p, const char *text, size_t len);
// Index the text for visits only: a text already checked (an object of a
// document this path opened).
enum ssj_status od_start(parser_impl *p, const char *text, size_t len);
// The status of a text whose first byte (after white space) is not '{'
// (as the On-Demand parser types it: SSJ_ENOTOBJECT, or its error).
enum ssj_status od_root_status(parser_impl *p, const char *text, size_t len);
// Visit the root object of the document od_open or od_start made; the
// values' strings decode to `home`'s blocks.
enum ssj_status od_visit(parser_impl *p, parser_impl *home, ssj_field_fn fn, void *ctx);
// Each element of the root array of the document od_open made (root_array).
enum ssj_status od_visit_array(parser_impl *p, ssj_elem_fn fn, void *ctx);
enum ssj_type od_type(value_impl *v);
bool od_is_null(value_impl *v);
enum ssj_status od_bool(value_impl *v, bool *out);
enum ssj_status od_number_text(value_impl *v, std::string_view &tok);
enum ssj_status od_raw_string(value_impl *v, std::string_view &tok);
enum ssj_status od_string(value_impl *v, std::string_view &out);
enum ssj_status od_raw_json(value_impl *v, std::string_view &s);
enum ssj_status od_object(value_impl *v, uint64_t lens, ssj_field_fn fn, void *ctx);
enum ssj_status od_array(value_impl *v, ssj_elem_fn fn, void *ctx);
enum ssj_status od_array_spans(value_impl *v, ssj_span_fn fn, void *ctx);
enum ssj_status od_is_empty(value_impl *v, bool *empty);

} // namespace SSJ_NS

#endif
