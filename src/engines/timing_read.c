/*
 * timing_read.c - SPEC 11.1's timing as the lines give it: a records (or
 * enriched) line's metrics, each time a {value, unit} object, and the
 * perf_ns of a raw line's element that the fast path passes over. The
 * arithmetic is model/timing.c's; this file only finds the numbers.
 */
#include <string.h>

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

/* The tags read, with the time each fills (SS_T_COUNT: the output length,
 * TAG_REASONING: SPEC 11.4's reasoning tokens). */
#define TAG_REASONING (SS_T_COUNT + 1)

static int tag_of(const char *key, size_t n)
{
	if (ss_key_is(key, n, "time_to_first_token"))
		return SS_T_TTFT;
	if (ss_key_is(key, n, "inter_token_latency"))
		return SS_T_ITL;
	if (ss_key_is(key, n, "request_latency"))
		return SS_T_LATENCY;
	if (ss_key_is(key, n, "output_sequence_length"))
		return SS_T_COUNT;
	if (ss_key_is(key, n, "reasoning_token_count"))
		return TAG_REASONING;
	return -1;
}

static int metrics_field(void *ctx, const char *key, size_t n, struct ssj_value *v)
{
	struct ss_metrics_read *mr = ctx;
	struct ss_timing *t = &mr->timing;
	struct vu_scan k;
	int tag;

	/* the tags are long: most metrics are passed over by their length */
	if (n < 15 || (tag = tag_of(key, n)) < 0)
		return 0;
	/* SPEC 1.2: a repeated key counts its last value */
	if (tag == TAG_REASONING)
		mr->has_reasoning = false;
	else if (tag == SS_T_COUNT)
		t->has_output = false;
	else
		t->has[tag] = false;
	if (ssj_value_type(v) != SSJ_OBJECT)
		return 0;
	memset(&k, 0, sizeof(k));
	if (ssj_object_foreach(v, vu_field, &k) != SSJ_OK || !k.has_value || !k.has_unit)
		return 0;
	if (tag == TAG_REASONING)
		mr->has_reasoning = ss_tokens_of(k.value, k.unit, k.unit_len, &mr->reasoning);
	else if (tag == SS_T_COUNT)
		t->has_output = ss_tokens_of(k.value, k.unit, k.unit_len, &t->output_tokens);
	else
		t->has[tag] = ss_time_to_ms(k.value, k.unit, k.unit_len, &t->ms[tag]);
	return 0;
}

bool ss_metrics_read(struct ssj_parser *doc, const char *m, size_t n, struct ss_metrics_read *mr)
{
	ss_timing_clear(&mr->timing);
	mr->has_reasoning = false;
	if (ssj_visit_span(doc, m, n, metrics_field, mr) != SSJ_OK) {
		ss_timing_clear(&mr->timing);
		mr->has_reasoning = false;
		return false;
	}
	return true;
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
