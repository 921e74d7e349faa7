// ondemand.cpp - the On-Demand path of the shim, over simdjson's public
// API only: the path of a build without the fast paths, and of texts
// longer than the whole-text path takes.
//
// On-Demand reads forward and skips what it is not asked for, and its
// skip only counts brackets (it treats '[' and '{' alike and looks at no
// comma or colon). So a text is first walked whole, every value visited
// and judged as the whole-text path judges it (literals to the letter,
// numbers by their syntax, strings by the escape check over the text,
// depth), and every visit after that starts from a rewind over the same
// index: whatever a visit skips was checked.
#include "json/shim.h"

namespace SSJ_NS {

namespace {

// Trailing content: simdjson 3.0 reports a location only inside the text.
bool at_end(ondemand::document &doc)
{
	const char *loc;
	return doc.current_location().get(loc) != SUCCESS;
}

SSJ_HOT std::string_view token_of(ondemand::value &v)
{
	return trim_right(v.raw_json_token());
}

error_code walk(ondemand::value &v, size_t depth);

// The value of an object's field, or an array's element itself.
SSJ_HOT ondemand::value &child(ondemand::field &f)
{
	return f.value();
}

SSJ_HOT ondemand::value &child(ondemand::value &v)
{
	return v;
}

// The validating walk of each child of a container at `depth`.
template <typename Item, typename Container> error_code walk_children(Container &c, size_t depth)
{
	error_code e;
	for (auto item : c) {
		Item it;
		if ((e = std::move(item).get(it)))
			return e;
		if ((e = walk(child(it), depth + 1)))
			return e;
	}
	return SUCCESS;
}

// The validating walk of a value at `depth` (the root object is at 0):
// errors in document order, as the whole-text path's grammar finds them.
error_code walk(ondemand::value &v, size_t depth)
{
	ondemand::json_type t;
	error_code e = v.type().get(t);
	if (e)
		return e;
	if (depth >= MAX_DEPTH &&
	    (t == ondemand::json_type::object || t == ondemand::json_type::array))
		return DEPTH_ERROR;
	switch (t) {
	case ondemand::json_type::object: {
		ondemand::object obj;
		e = v.get_object().get(obj);
		return e ? e : walk_children<ondemand::field>(obj, depth);
	}
	case ondemand::json_type::array: {
		ondemand::array arr;
		e = v.get_array().get(arr);
		return e ? e : walk_children<ondemand::value>(arr, depth);
	}
	case ondemand::json_type::string: {
		// Stage 1 closed it and the escape check passed over the text,
		// but it is consumed all the same: On-Demand's skip of a string
		// followed by a colon takes it for a key and eats the colon
		// ({"a":{"b":"":}},"c":1} passed; found by test_whole).
		ondemand::raw_json_string r;
		return v.get_raw_json_string().get(r);
	}
	case ondemand::json_type::number:
		// any size is valid JSON (1e400): only the syntax counts
		return number_token_ok(token_of(v)) ? SUCCESS : NUMBER_ERROR;
	case ondemand::json_type::boolean: {
		// to the letter: simdjson 3.0.1 tests the byte after a root
		// literal one place too far (`null?` passed as null; found by
		// fuzz_request), and the shim checks every literal the same way
		std::string_view tok = token_of(v);
		return tok == "true" || tok == "false" ? SUCCESS : INCORRECT_TYPE;
	}
	case ondemand::json_type::null:
		return token_of(v) == "null" ? SUCCESS : INCORRECT_TYPE;
	}
	return TAPE_ERROR;
}

// The closing quote of a string whose inside starts at s, in a checked
// text: the first quote after an even run of backslashes (keys are short:
// a byte loop).
const char *string_end(const char *s)
{
	const char *q = s;
	size_t run = 0;

	for (; *q != '"' || run % 2; q++)
		run = *q == '\\' ? run + 1 : 0;
	return q;
}

// Visit the fields of obj, which lies in iter's document.
enum ssj_status visit_object(ondemand::object obj, parser_impl *iter, parser_impl *home,
			     ssj_field_fn fn, void *ctx, uint64_t lens)
{
	for (auto item : obj) {
		ondemand::field f;
		error_code e = std::move(item).get(f);
		if (e)
			return map_error(e);
		const char *k = f.key().raw();
		std::string_view key;
		enum ssj_status s = decode_string(home, k, (size_t)(string_end(k) - k), key);
		if (s != SSJ_OK)
			return s;
		if (!fn || !(lens & SSJ_LEN_BIT(key.size())))
			continue;
		value_impl val;
		val.v = f.value();
		val.odp = home;
		val.odi = iter;
		if (fn(ctx, key.data(), key.size(), C(&val)))
			return SSJ_STOPPED;
	}
	return SSJ_OK;
}

// Call each(i, element) for the elements of the array `v` in order, until
// an answer other than SSJ_OK, which is returned.
template <typename F> enum ssj_status visit_array(value_impl *v, F &&each)
{
	ondemand::array arr;
	error_code e = v->v.get_array().get(arr);
	if (e)
		return map_error(e);
	size_t i = 0;
	for (auto item : arr) {
		value_impl ev;
		if ((e = std::move(item).get(ev.v)))
			return map_error(e);
		ev.odp = v->odp;
		ev.odi = v->odi;
		enum ssj_status s = each(i, ev);
		if (s != SSJ_OK)
			return s;
		i++;
	}
	return SSJ_OK;
}

// A value's whole JSON text (consuming it), and its type.
error_code span_of(ondemand::value &v, std::string_view &s, enum ssj_type *ct)
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

// The trimmed token of a scalar value that must be of type `want`.
enum ssj_status scalar_token(ondemand::value &v, ondemand::json_type want, std::string_view &tok)
{
	ondemand::json_type t;
	error_code e = v.type().get(t);
	if (e)
		return map_error(e);
	if (t != want)
		return SSJ_ETYPE;
	tok = token_of(v);
	return SSJ_OK;
}

} // namespace

enum ssj_status od_start(parser_impl *p, const char *text, size_t len)
{
	ondemand::parser &ps = p->od;
	if (ps.capacity() > KEEP_CAPACITY && len <= KEEP_CAPACITY) {
		error_code e = ps.allocate(KEEP_CAPACITY, ps.max_depth());
		if (e)
			return open_error(e);
	}
	padded_string_view view(text, len, len + SIMDJSON_PADDING);
	error_code e = ps.iterate(view).get(p->doc);
	if (e)
		return open_error(e);
	p->text = text;
	p->len = len;
	p->used = SSJ_PATH_ONDEMAND;
	return SSJ_OK;
}

enum ssj_status od_open(parser_impl *p, const char *text, size_t len)
{
	enum ssj_status s = od_start(p, text, len);
	if (s != SSJ_OK)
		return s;
	p->text = nullptr;  // open only once checked
	// the same order as the whole-text path: stage 1, escapes, grammar
	const char *bs = static_cast<const char *>(memchr(text, '\\', len));
	if (bs && !escapes_valid(bs, len - (size_t)(bs - text)))
		return SSJ_ESYNTAX;
	error_code e;
	if (p->root_array) {  // ssj_open_array: each element walked as a field's value is
		ondemand::array arr;
		e = p->doc.get_array().get(arr);
		if (!e)
			e = walk_children<ondemand::value>(arr, 0);
	} else {
		ondemand::object obj;
		e = p->doc.get_object().get(obj);
		if (!e)
			e = walk_children<ondemand::field>(obj, 0);
	}
	if (e)
		return open_error(e);
	if (!at_end(p->doc))
		return SSJ_ESYNTAX;
	p->doc.rewind();
	p->text = text;
	p->escapes = bs != nullptr;
	return SSJ_OK;
}

enum ssj_status od_root_status(parser_impl *p, const char *text, size_t len)
{
	padded_string_view view(text, len, len + SIMDJSON_PADDING);
	ondemand::json_type t;
	error_code e = p->od.iterate(view).get(p->doc);
	if (!e)
		e = p->doc.type().get(t);
	if (e)
		return map_error(e);
	return t == ondemand::json_type::object ? SSJ_ESYNTAX : SSJ_ENOTOBJECT;
}

enum ssj_status od_visit(parser_impl *p, parser_impl *home, ssj_field_fn fn, void *ctx)
{
	ondemand::object obj;
	p->doc.rewind();
	error_code e = p->doc.get_object().get(obj);
	if (e)
		return map_error(e);
	return visit_object(obj, p, home, fn, ctx, SSJ_ALL_LENS);
}

enum ssj_status od_visit_array(parser_impl *p, ssj_elem_fn fn, void *ctx)
{
	value_impl root;
	p->doc.rewind();
	error_code e = p->doc.get_value().get(root.v);
	if (e)
		return map_error(e);
	root.odp = p;
	root.odi = p;
	return od_array(&root, fn, ctx);
}

enum ssj_type od_type(value_impl *v)
{
	ondemand::json_type t;
	if (v->v.type().get(t))
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
}

bool od_is_null(value_impl *v)
{
	return od_type(v) == SSJ_NULL;
}

enum ssj_status od_bool(value_impl *v, bool *out)
{
	std::string_view tok;
	enum ssj_status s = scalar_token(v->v, ondemand::json_type::boolean, tok);
	if (s == SSJ_OK)
		*out = tok[0] == 't';
	return s;
}

enum ssj_status od_number_text(value_impl *v, std::string_view &tok)
{
	return scalar_token(v->v, ondemand::json_type::number, tok);
}

enum ssj_status od_raw_string(value_impl *v, std::string_view &tok)
{
	enum ssj_status s = scalar_token(v->v, ondemand::json_type::string, tok);
	if (s != SSJ_OK)
		return s;
	if (tok.size() < 2 || tok.front() != '"' || tok.back() != '"')
		return SSJ_ESYNTAX;
	tok = tok.substr(1, tok.size() - 2);
	return SSJ_OK;
}

enum ssj_status od_string(value_impl *v, std::string_view &out)
{
	std::string_view tok;
	enum ssj_status s = od_raw_string(v, tok);
	if (s != SSJ_OK)
		return s;
	return decode_string(v->odp, tok.data(), tok.size(), out);
}

enum ssj_status od_raw_json(value_impl *v, std::string_view &s)
{
	enum ssj_type t;
	if (!v->span.empty()) {
		s = v->span;
		return SSJ_OK;
	}
	return map_error(span_of(v->v, s, &t));
}

enum ssj_status od_object(value_impl *v, uint64_t lens, ssj_field_fn fn, void *ctx)
{
	ondemand::object obj;
	const char *start = token_of(v->v).data(), *end;
	error_code e = v->v.get_object().get(obj);
	if (e)
		return map_error(e);
	enum ssj_status s = visit_object(obj, v->odi, v->odp, fn, ctx, lens);
	if (s != SSJ_OK || !v->odi)
		return s;
	// The whole object went by: the document stands just past its
	// closing brace (or at its end), which ends its text.
	if (v->odi->doc.current_location().get(end) != SUCCESS)
		end = v->odi->text + v->odi->len;
	while (end > start && end[-1] != '}')
		end--;
	v->span = std::string_view(start, (size_t)(end - start));
	return SSJ_OK;
}

enum ssj_status od_array(value_impl *v, ssj_elem_fn fn, void *ctx)
{
	return visit_array(v, [&](size_t i, value_impl &ev) {
		return fn && fn(ctx, i, C(&ev)) ? SSJ_STOPPED : SSJ_OK;
	});
}

enum ssj_status od_array_spans(value_impl *v, ssj_span_fn fn, void *ctx)
{
	return visit_array(v, [&](size_t i, value_impl &ev) {
		std::string_view s;
		enum ssj_type t;
		error_code e = span_of(ev.v, s, &t);
		if (e)
			return map_error(e);
		return fn && fn(ctx, i, t, s.data(), s.size()) ? SSJ_STOPPED : SSJ_OK;
	});
}

enum ssj_status od_is_empty(value_impl *v, bool *empty)
{
	ondemand::json_type t;
	error_code e = v->v.type().get(t);
	if (e)
		return map_error(e);
	*empty = true;
	if (t == ondemand::json_type::array) {
		enum ssj_status s = visit_array(v, [&](size_t, value_impl &) {
			*empty = false;
			return SSJ_STOPPED;  // one element is enough
		});
		return s == SSJ_STOPPED ? SSJ_OK : s;
	}
	if (t == ondemand::json_type::object) {
		ondemand::object obj;
		if ((e = v->v.get_object().get(obj)))
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
}

} // namespace SSJ_NS
