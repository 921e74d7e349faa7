// whole.cpp - the whole-text path of the shim: simdjson's stage 1 indexes
// the text (the offset of every bracket, colon, comma and value start,
// strings never split, UTF-8 and control characters checked), the
// escapes are checked over the whole text (strings.cpp), the shim checks
// the JSON grammar over the index in one pass, and every visit then steps
// over that index, reading scalars from the text where they lie.
//
// The index is simdjson's own (its dom_parser_implementation: public in
// the header but marked private, so configure checks that it is there,
// SSJ_HAVE_WHOLE, and the build goes without this path when it is not).
#include "json/shim.h"

namespace SSJ_NS {

#ifdef SSJ_HAVE_WHOLE

struct whole_state {
	std::unique_ptr<internal::dom_parser_implementation> impl;
	size_t cap = 0;
	std::unique_ptr<uint32_t[]> close;   // cap + 1 entries
};

void whole_state_free(whole_state *w) noexcept
{
	delete w;
}

namespace {

// A scalar of the grammar whose escapes are checked already: a string is
// whole (stage 1 closed it, and between its closing quote and the next
// structural only white space can stand: any other byte starts a scalar
// of its own, which is a structural), a literal to the letter, or a
// number of the JSON syntax (its range does not matter).
SSJ_HOT bool scalar_ok(std::string_view tok, char c)
{
	switch (c) {
	case '"': return true;
	case 't': return tok == "true";
	case 'f': return tok == "false";
	case 'n': return tok == "null";
	default: return number_token_ok(tok);
	}
}

#ifdef __SSE2__
// The usual number of a records line, checked without its token: digits
// (no leading zero but a lone one), optionally a '.' and digits, ending
// exactly at the next structural `next` (no white space between). s is
// the number's first byte, with SSJ_PADDING readable bytes after the
// text. false: not that shape (the caller checks the token the long way),
// never a verdict on the syntax.
SSJ_HOT bool number_plain(const char *s, const char *next)
{
	uint64_t digit = digit_mask32(s);
	// (bit 32 set: a run of 32 digits ends there, at most)
	unsigned run = (unsigned)__builtin_ctzll(~digit);

	if (run == 0 || run == 32 || (s[0] == '0' && run > 1))
		return false;
	if (s + run == next)
		return true;
	if (s[run] != '.')
		return false;
	unsigned frac = (unsigned)__builtin_ctzll(~(digit >> (run + 1)));
	return frac > 0 && run + 1 + frac < 32 && s + run + 1 + frac == next;
}
#endif

// The grammar over the index: a value wherever one must stand, each
// scalar whole, keys followed by colons, brackets that match, at most
// MAX_DEPTH levels, the root an object (or an array: ssj_open_array)
// and nothing after it. Fills `close` for every container. Written as
// the grammar's loop with labels (not a state variable) so that the
// branches follow the text's shape.
//
// The last structural was checked to be the root's closing bracket, a
// '}' or for an array root a ']' (w_open). Then no step needs its own
// bound: a step that reads past a structural has read a character that
// is not that bracket there (a key's quote, a value, a comma, an
// opening bracket), so that structural is not the last one. Only a
// container closed before the root's end is followed by a read that
// could pass it, and that is checked.
enum ssj_status grammar(const parser_impl *p, uint32_t *__restrict close)
{
	// the opening structural of each open container
	const uint32_t *open[MAX_DEPTH];
	size_t depth = 0;
	// The innermost open container's closing bracket: its opening one
	// plus 2 ('{' + 2 is '}', '[' + 2 is ']').
	char closer;
	// (in locals: the stores to `close` cannot move them) The index is
	// walked by a pointer, q the structural at hand: q[k] and text[q[k]]
	// are a load each, with no index to widen or add first.
	const char *const text = p->text;
	const uint32_t *__restrict const ix = p->ix;
	const uint32_t *const end = ix + p->n;
	const uint32_t *q = ix;
	char c;
	auto at = [&](size_t k) { return text[q[k]]; };
	auto token = [&]() { return trim_right(std::string_view(text + q[0], q[1] - q[0])); };

	// the root: an object, or an array (ssj_open_array), opened as any
	c = at(0);
	if (c != '{' && c != '[')
		return SSJ_ESYNTAX;
	goto open_container;
object_field:
	// a key, its colon after it (a key's quote is not the last structural)
	if (at(0) != '"' || at(1) != ':')
		return SSJ_ESYNTAX;
	q += 2;
value:
	c = at(0);
	if (c == '"')
		goto next;  // whole as it stands (scalar_ok), and the most common
	if (c == '{' || c == '[')
		goto open_container;
#ifdef __SSE2__
	if (number_plain(text + q[0], text + q[1]))
		goto next;
#endif
	if (!scalar_ok(token(), c))
		return SSJ_ESYNTAX;
next:
	q++;
after_value:
	c = at(0);
	if (c == ',') {
		q++;
		if (closer == '}')
			goto object_field;
		goto value;
	}
	if (c != closer)
		return SSJ_ESYNTAX;
close_container:
	close[open[--depth] - ix] = (uint32_t)(q - ix);
	q++;
	if (depth == 0)
		return q == end ? SSJ_OK : SSJ_ESYNTAX;
	if (q == end)
		return SSJ_ESYNTAX;
	closer = (char)(text[*open[depth - 1]] + 2);
	goto after_value;

open_container:
	if (depth == MAX_DEPTH)
		return SSJ_EDEPTH;
	open[depth++] = q++;
	closer = (char)(c + 2);
	if (at(0) == closer)
		goto close_container;
	if (closer == '}')
		goto object_field;
	goto value;
}

// Whether the brackets of the index balance (opening ones count up,
// closing ones down).
bool balanced(const parser_impl *p)
{
	int64_t count = 0;

	for (uint32_t i = 0; i < p->n; i++) {
		char c = w_char(p, i);
		count += (c == '{' || c == '[') - (c == '}' || c == ']');
	}
	return count == 0;
}

// Grow the stage-1 state for a text of len bytes (a new state, or a
// larger one); give back a huge one after a huge text. Throws
// std::bad_alloc; false for another failure.
bool reserve(parser_impl *p, size_t len)
{
	whole_state *w = p->ws.get();
	error_code e;

	if (w && w->cap >= len && (w->cap <= KEEP_CAPACITY || len > KEEP_CAPACITY))
		return true;
	if (!w) {
		p->ws.reset(new whole_state());
		w = p->ws.get();
	}
	size_t cap = len < 4096 ? 4096 : len;
	if (!w->impl)
		e = get_active_implementation()->create_dom_parser_implementation(cap, MAX_DEPTH,
										   w->impl);
	else
		e = w->impl->set_capacity(cap);
	if (e == MEMALLOC)
		throw std::bad_alloc();
	if (e)
		return false;
	// one entry per structural, at most one per byte
	w->close.reset(new uint32_t[cap + 1]);
	w->cap = cap;
	return true;
}

} // namespace

enum ssj_status w_open(parser_impl *p, const char *text, size_t len)
{
	if (len > SSJ_WHOLE_MAX)
		return SSJ_ECAPACITY;
	if (!reserve(p, len))
		return SSJ_ECAPACITY;
	whole_state *w = p->ws.get();
	error_code e = w->impl->stage1(reinterpret_cast<const uint8_t *>(text), len,
				       stage1_mode::regular);
	if (e)
		return open_error(e);
	const char *bs = static_cast<const char *>(memchr(text, '\\', len));
	if (bs && !escapes_valid(bs, len - (size_t)(bs - text)))
		return SSJ_ESYNTAX;
	p->text = text;
	p->span_at = nullptr;
	p->len = len;
	p->escapes = bs != nullptr;
	p->ix = w->impl->structural_indexes.get();
	p->n = (uint32_t)w->impl->n_structural_indexes;
	p->close = w->close.get();
	// Refused before the grammar runs, as the On-Demand path refuses
	// them when it starts on the root object (so that both give the same
	// status for a text that is also nested too deeply): a text whose
	// last structural is not the root's closing brace, and an unbalanced
	// one when the byte after the text is a '}' (simdjson's guard against
	// reading past the end there).
	enum ssj_status s = SSJ_ESYNTAX;
	char last = w_char(p, 0) == '[' ? ']' : '}';  // the root's closing bracket
	if (p->n >= 2 && w_char(p, p->n - 1) == last && (text[len] != last || balanced(p)))
		s = grammar(p, w->close.get());
	if (s != SSJ_OK) {
		p->text = nullptr;
		return s;
	}
	p->used = SSJ_PATH_WHOLE;
	return SSJ_OK;
}

// A key at structural i, decoded: the text between its quotes when the
// text has no backslash at all.
SSJ_HOT enum ssj_status w_key(parser_impl *p, uint32_t i, std::string_view &out)
{
	if (p->escapes)
		return w_string(p, i, out);
	std::string_view tok = w_token(p, i);
	out = std::string_view(tok.data() + 1, tok.size() - 2);
	return SSJ_OK;
}

// w_object over a text without a backslash, the usual one: a key is the
// text between its quotes, found from the offsets of its structural and of
// the colon after it, and a field the callback does not want costs a
// handful of loads (no value made, no token trimmed).
static enum ssj_status w_object_plain(parser_impl *p, uint32_t i, ssj_field_fn fn, void *ctx,
				      uint64_t lens)
{
	const char *const text = p->text;
	const uint32_t *const ix = p->ix;
	const uint32_t *const close = p->close;
	const uint32_t *q = ix + i + 1;  // the field's key (walked by a pointer, as the grammar)
	value_impl val;  // made once: only what is set below changes from field to field

	if (text[q[0]] == '}')
		return SSJ_OK;
	val.ixp = p;
	val.head.plain = true;
	for (;;) {
		// the key's closing quote: the byte before its colon, but for
		// white space between them
		const char *key = text + q[0] + 1;
		const char *e = text + q[1] - 1;
		while (*e != '"')
			e--;
		size_t kn = (size_t)(e - key);
		const uint32_t *v = q + 2;
		char c = text[v[0]];

		if (lens & SSJ_LEN_BIT(kn)) {
			w_value_at(val, text, v, (uint32_t)(v - ix), c);
			if (fn(ctx, key, kn, C(&val)))
				return SSJ_STOPPED;
		}
		q = c == '{' || c == '[' ? ix + close[v - ix] + 1 : v + 1;
		if (text[q[0]] != ',')
			return SSJ_OK;
		q++;
	}
}

enum ssj_status w_object(parser_impl *p, uint32_t i, ssj_field_fn fn, void *ctx, uint64_t lens)
{
	uint32_t j = i + 1;
	value_impl val;  // made once: only what w_value sets changes from field to field

	if (fn && !p->escapes)
		return w_object_plain(p, i, fn, ctx, lens);
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
template <typename F> static enum ssj_status each_element(parser_impl *p, uint32_t i, F &&each)
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

enum ssj_status w_array(parser_impl *p, uint32_t i, ssj_elem_fn fn, void *ctx)
{
	value_impl ev;

	ev.ixp = p;
	return each_element(p, i, [&](size_t k, uint32_t j) {
		w_value(p, ev, j);
		return fn && fn(ctx, k, C(&ev)) ? SSJ_STOPPED : SSJ_OK;
	});
}

enum ssj_status w_array_spans(parser_impl *p, uint32_t i, ssj_span_fn fn, void *ctx)
{
	return each_element(p, i, [&](size_t k, uint32_t j) {
		std::string_view s = w_span(p, j);
		return fn && fn(ctx, k, w_type(p, j), s.data(), s.size()) ? SSJ_STOPPED : SSJ_OK;
	});
}

// Found by its offset among the structurals (they are in ascending
// order), its end checked against its closing brace.
bool w_find_object(const parser_impl *p, const char *text, size_t len, uint32_t *i)
{
	uintptr_t base = reinterpret_cast<uintptr_t>(p->text);
	uintptr_t where = reinterpret_cast<uintptr_t>(text);

	if (where < base || where - base >= p->len || len > p->len - (where - base))
		return false;
	uint32_t off = (uint32_t)(where - base);
	// the object whose text was taken last: the usual caller's
	if (text == p->span_at) {
		*i = p->span_i;
		return p->ix[p->close[*i]] + 1 == off + len;
	}
	// the first structural at or past off, halving without a branch on
	// the comparison (std::lower_bound's branch mispredicts on every
	// other step: 1% of a records run)
	const uint32_t *found = p->ix;
	if (p->n) {
		for (size_t n = p->n; n > 1; n -= n / 2)
			found = found[n / 2] < off ? found + n / 2 : found;
		found += *found < off;
	}
	if (found == p->ix + p->n || *found != off || p->text[off] != '{')
		return false;
	*i = (uint32_t)(found - p->ix);
	return p->ix[p->close[*i]] + 1 == off + len;
}

#else // !SSJ_HAVE_WHOLE: the portable build, On-Demand only

struct whole_state {};

void whole_state_free(whole_state *w) noexcept
{
	delete w;
}

enum ssj_status w_open(parser_impl *, const char *, size_t)
{
	return SSJ_ECAPACITY;
}

enum ssj_status w_object(parser_impl *, uint32_t, ssj_field_fn, void *, uint64_t)
{
	return SSJ_EINTERNAL;
}

enum ssj_status w_array(parser_impl *, uint32_t, ssj_elem_fn, void *)
{
	return SSJ_EINTERNAL;
}

enum ssj_status w_array_spans(parser_impl *, uint32_t, ssj_span_fn, void *)
{
	return SSJ_EINTERNAL;
}

bool w_find_object(const parser_impl *, const char *, size_t, uint32_t *)
{
	return false;
}

#endif

} // namespace SSJ_NS
