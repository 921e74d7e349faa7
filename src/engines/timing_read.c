/*
 * timing_read.c - SPEC 11.1's timing as the lines give it: a records (or
 * enriched) line's metrics, each time a {value, unit} object, and the
 * perf_ns of a raw line's element that the fast path passes over. The
 * arithmetic is model/timing.c's; this file only finds the numbers.
 */
#include <string.h>

#include "engines/decimal.h"
#include "engines/processor.h"

bool ss_parse_i64(const char *s, size_t n, int64_t *out)
{
	int64_t v;

	if (n > 0 && s[0] == '-') {
		/* -0 is 0; the most negative value is not needed (times) */
		if (ss_parse_count(s + 1, n - 1, &v) != SS_INT_OK)
			return false;
		*out = -v;
		return true;
	}
	return ss_parse_count(s, n, out) == SS_INT_OK;
}

/* One {value, unit} object. */
struct vu_scan {
	bool has_value, has_unit;
	double value;
	const char *unit;
	size_t unit_len;
};

static int vu_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct vu_scan *k = ctx;

	if (ss_key_is(key, n, "value")) {
		k->has_value = ssj_value_type(v) == SSJ_NUMBER &&
			       ssj_value_double(v, &k->value) == SSJ_OK;
	} else if (ss_key_is(key, n, "unit")) {
		k->has_unit = ssj_value_type(v) == SSJ_STRING &&
			      ssj_value_string(v, &k->unit, &k->unit_len) == SSJ_OK;
	}
	return 0;
}

/*
 * The tags read, with the time each fills (SS_T_COUNT: the output length,
 * TAG_REASONING: SPEC 11.4's reasoning tokens), told apart by their
 * lengths first (one comparison of the key's bytes).
 * A tag added here needs its length in SS_METRICS_TIMING_LENS (processor.h).
 */
#define TAG_REASONING (SS_T_COUNT + 1)

static int tag_of(const char *key, size_t n)
{
	switch (n) {
	case 15:
		return memcmp(key, "request_latency", 15) == 0 ? SS_T_LATENCY : -1;
	case 19:
		if (memcmp(key, "time_to_first_token", 19) == 0)
			return SS_T_TTFT;
		return memcmp(key, "inter_token_latency", 19) == 0 ? SS_T_ITL : -1;
	case 21:
		return memcmp(key, "reasoning_token_count", 21) == 0 ? TAG_REASONING : -1;
	case 22:
		return memcmp(key, "output_sequence_length", 22) == 0 ? SS_T_COUNT : -1;
	default:
		return -1;
	}
}

/* A number's text (valid JSON) as its nearest double: false out of range. */
static bool number_of(const char *s, size_t n, double *out)
{
	return ss_decimal_double(s, n, out) || ssj_number_double(s, n, out) == SSJ_OK;
}

/*
 * A {value, unit} object as AIPerf writes it, read from its text (the
 * open document's, checked whole already): exactly {"value":N,"unit":"U"}
 * with a number N and a unit without a backslash, nothing else, no white
 * space. false: not of that form (the caller visits it).
 */
static bool vu_exact(const char *s, size_t n, struct vu_scan *k)
{
	static const char head[] = "{\"value\":", mid[] = ",\"unit\":\"";
	const size_t hn = sizeof(head) - 1, mn = sizeof(mid) - 1;
	const char *end = s + n, *num = s + hn, *comma;

	if (n < hn + 2 + mn + 2 || memcmp(s, head, hn) != 0 || end[-1] != '}' ||
	    end[-2] != '"' || !(*num == '-' || (*num >= '0' && *num <= '9')))
		return false;
	/*
	 * A number starts there: it ends at the first comma when a digit
	 * stands before it (no white space), as every number ends.
	 */
	comma = memchr(num, ',', (size_t)(end - num));
	if (!comma || comma[-1] < '0' || comma[-1] > '9' || (size_t)(end - comma) < mn + 2 ||
	    memcmp(comma, mid, mn) != 0)
		return false;
	k->unit = comma + mn;
	k->unit_len = (size_t)(end - 2 - k->unit);
	/* the unit ends at the closing quote: no quote or backslash inside */
	for (size_t i = 0; i < k->unit_len; i++)
		if (k->unit[i] == '"' || k->unit[i] == '\\')
			return false;
	k->has_unit = true;
	k->has_value = number_of(num, (size_t)(comma - num), &k->value);
	return true;
}

/*
 * Forget what an earlier key of the tag gave (SPEC 1.2: a repeated key
 * counts its last value), then take k's value when it has one.
 */
static void tag_set(struct line_scan *ls, int tag, const struct vu_scan *k)
{
	struct ss_timing *t = &ls->timing;
	bool ok = k && k->has_value && k->has_unit;

	if (tag == TAG_REASONING)
		ls->has_reasoning = ok && ss_tokens_of(k->value, k->unit, k->unit_len,
						       &ls->reasoning);
	else if (tag == SS_T_COUNT)
		t->has_output = ok && ss_tokens_of(k->value, k->unit, k->unit_len,
						   &t->output_tokens);
	else
		t->has[tag] = ok && ss_time_to_ms(k->value, k->unit, k->unit_len, &t->ms[tag]);
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The usual case read without asking where the value ends: the key as it
 * lies in the line's text (ls->text, checked whole already, so valid JSON:
 * what follows a key there is its own value) followed by :{"value":N,"unit":"U"} exactly, N a number, U
 * without a backslash. The number ends at the first comma when a digit
 * stands before it, the unit at the first quote (none escaped before it)
 * and the object at the brace after it. false: not so (the caller reads
 * the value's own text).
 */
static bool vu_after_key(const struct line_scan *ls, const char *key, size_t n,
			 struct vu_scan *k)
{
	static const char head[] = ":{\"value\":", mid[] = ",\"unit\":\"";
	const size_t hn = sizeof(head) - 1, mn = sizeof(mid) - 1;
	const char *end = ls->text + ls->len, *num, *comma, *u;

	/* a key decoded elsewhere (an escape in the line) is not in the text */
	if (!ls->text || key <= ls->text || key >= end ||
	    (size_t)(end - key) < n + 1 + hn + 2 || key[n] != '"' ||
	    memcmp(key + n + 1, head, hn) != 0)
		return false;
	num = key + n + 1 + hn;
	if (!(*num == '-' || is_digit(*num)) ||
	    !(comma = memchr(num, ',', (size_t)(end - num))) || !is_digit(comma[-1]) ||
	    (size_t)(end - comma) < mn + 2 || memcmp(comma, mid, mn) != 0)
		return false;
	k->unit = u = comma + mn;
	while (u < end && *u != '"' && *u != '\\')
		u++;
	if (end - u < 2 || *u != '"' || u[1] != '}')
		return false;
	k->unit_len = (size_t)(u - k->unit);
	k->has_unit = true;
	k->has_value = number_of(num, (size_t)(comma - num), &k->value);
	return true;
}

/* The units AIPerf writes, told apart by the bytes that follow `"unit":"`. */
enum fast_unit { FU_NONE = 0, FU_MS, FU_NS, FU_US, FU_S, FU_TOKENS };


static bool same4(const char *p, const char *lit)
{
	return memcmp(p, lit, 4) == 0;
}

/*
 * The unit at u, with its closing quote and the object's brace: `ms"}`,
 * `ns"}`, `us"}`, `s"}` or `tokens"}`; *close: that brace.
 */
static enum fast_unit unit_at(const char *u, const char **close)
{
	if (same4(u, "ms\"}") || same4(u, "ns\"}") || same4(u, "us\"}")) {
		*close = u + 3;
		return u[0] == 'm' ? FU_MS : u[0] == 'n' ? FU_NS : FU_US;
	}
	if (memcmp(u, "s\"}", 3) == 0) {
		*close = u + 2;
		return FU_S;
	}
	if (memcmp(u, "tokens\"}", 8) == 0) {
		*close = u + 7;
		return FU_TOKENS;
	}
	return FU_NONE;
}

/*
 * AIPerf's own form read in one pass where the key lies in the line's
 * text (ls->text, checked whole, padded: SSJ_PADDING readable bytes past
 * its end): :{"value":N,"unit":"U"} exactly, N a plain decimal (no sign,
 * no exponent, at most 19 digits) ended by the comma, U one of ns, us,
 * ms, s, tokens ended by the quote and the object's brace, that brace
 * inside the text. The value is stored as tag_set() stores it (the same
 * double, the same conversion: ss_time_to_ms's for a time, an integral
 * count for a token count). false: not so, nothing stored (the caller
 * reads the field the general way).
 */
static bool vu_fast(struct line_scan *ls, int tag, const char *key, size_t n)
{
	static const char head[] = "\":{\"value\":", mid[] = ",\"unit\":\"";
	const char *end = ls->text + ls->len, *num, *close;
	enum fast_unit fu;
	double d;
	bool integral;
	size_t len;

	/* a key decoded elsewhere (an escape in the line) is not in the text */
	if (!ls->text || key <= ls->text || key >= end ||
	    memcmp(key + n, head, sizeof(head) - 1) != 0)
		return false;
	num = key + n + sizeof(head) - 1;
	if ((len = ss_decimal_lead(num, &d, &integral)) == 0 ||
	    memcmp(num + len, mid, sizeof(mid) - 1) != 0 ||
	    (fu = unit_at(num + len + sizeof(mid) - 1, &close)) == FU_NONE || close >= end)
		return false;
	if (tag == TAG_REASONING || tag == SS_T_COUNT) {
		bool ok = fu == FU_TOKENS;
		int64_t c = 0;

		/* below 2^53 an integral value's double is exact */
		if (ok && integral && d < 9007199254740992.0)
			c = (int64_t)d;
		else if (ok)
			ok = ss_tokens_of(d, "tokens", 6, &c);
		if (tag == TAG_REASONING) {
			ls->has_reasoning = ok;
			ls->reasoning = ok ? c : ls->reasoning;
		} else {
			ls->timing.has_output = ok;
			ls->timing.output_tokens = ok ? c : ls->timing.output_tokens;
		}
		return true;
	}
	/* ss_time_to_ms's arithmetic: d is finite and not negative */
	ls->timing.has[tag] = fu != FU_TOKENS;
	switch (fu) {
	case FU_MS:
		ls->timing.ms[tag] = d + 0.0;
		break;
	case FU_NS:
		ls->timing.ms[tag] = d / 1e6;
		break;
	case FU_US:
		ls->timing.ms[tag] = d / 1e3;
		break;
	case FU_S:
		ls->timing.ms[tag] = d * 1e3;
		break;
	default:
		break;
	}
	return true;
}

/*
 * Any other spelling of a tag's field (out of line: the usual call above
 * keeps a light frame).
 */
static __attribute__((noinline)) void vu_slow(struct line_scan *ls, int tag, const char *key,
					      size_t n, struct ssj_value *v)
{
	struct vu_scan k;
	const char *raw;
	size_t rawn;

	k.has_value = k.has_unit = false;
	if (vu_after_key(ls, key, n, &k)) {
		tag_set(ls, tag, &k);
		return;
	}
	/* the usual form read from the object's text, any other visited */
	if (ssj_value_type(v) != SSJ_OBJECT || ssj_value_raw_json(v, &raw, &rawn) != SSJ_OK ||
	    (!vu_exact(raw, rawn, &k) &&
	     ssj_visit_span(ls->p->outer, raw, rawn, vu_field, &k) != SSJ_OK))
		tag_set(ls, tag, NULL);
	else
		tag_set(ls, tag, &k);
}

int ss_metrics_timing_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct line_scan *ls = ctx;
	int tag;

	if ((tag = tag_of(key, n)) >= 0 && !vu_fast(ls, tag, key, n))
		vu_slow(ls, tag, key, n, v);
	return 0;
}

/* ---- a raw element's perf_ns ---- */

struct perf_scan {
	bool has;
	int64_t perf;
};

static int perf_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct perf_scan *k = ctx;
	const char *s;
	size_t len;

	if (ss_key_is(key, n, "perf_ns"))
		k->has = ssj_value_type(v) == SSJ_NUMBER &&
			 ssj_value_number_text(v, &s, &len) == SSJ_OK &&
			 ss_parse_i64(s, len, &k->perf);
	return 0;
}

static bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * AIPerf writes perf_ns as an element's first key: read there, when the
 * key occurs nowhere else in the element (SPEC 1.2: a repeated key's last
 * value counts); any other element is visited.
 */
bool ss_elem_perf_ns(struct ssj_parser *doc, const char *text, size_t n, int64_t *perf)
{
	static const char key[] = "\"perf_ns\"";
	const size_t klen = sizeof(key) - 1;
	struct perf_scan k = {false, 0};
	size_t i = 1, b;

	while (i < n && is_ws(text[i]))
		i++;
	if (n > 0 && text[0] == '{' && n - i > klen && memcmp(text + i, key, klen) == 0 &&
	    !memmem(text + i + klen, n - i - klen, key, klen)) {
		i += klen;
		while (i < n && is_ws(text[i]))
			i++;
		if (i < n && text[i] == ':') {
			i++;
			while (i < n && is_ws(text[i]))
				i++;
			b = i;
			while (i < n && (text[i] == '-' || (text[i] >= '0' && text[i] <= '9')))
				i++;
			if (i < n && (text[i] == ',' || text[i] == '}' || is_ws(text[i])))
				return ss_parse_i64(text + b, i - b, perf);
			/* a fraction, an exponent, another type: not an integer */
			if (i > b && i < n && (text[i] == '.' || text[i] == 'e' || text[i] == 'E'))
				return false;
		}
	}
	if (ssj_visit_span(doc, text, n, perf_field, &k) != SSJ_OK || !k.has)
		return false;
	*perf = k.perf;
	return true;
}
