/*
 * sglang_log.c - SGLang's decode batch line (SPEC 12.3).
 *
 * DECODE := "Decode batch" [ " [" INT "]" ] ( "." | "," ) " " ITEM { ", " ITEM }
 *           [ "," ] [ " " ];  ITEM := KEY ": " VALUE, KEY without ": ",
 *           VALUE without ", " and neither empty.
 */
#include <stdlib.h>
#include <string.h>

#include "logs/sglang_log.h"

static enum ss_log_status bad(struct ss_sglang_line *o, const char *why)
{
	o->why = why;
	return SS_LOG_BAD;
}

static const char *one_item(struct ss_sglang_line *o, const char *p, const char *end,
			    bool *has_running, bool *has_len)
{
	const char *colon = memmem(p, (size_t)(end - p), ": ", 2);
	bool toolong = false;

	if (!colon || colon == p || colon + 2 == end)
		return "an item that is not KEY: VALUE";
	const char *v = colon + 2;
	size_t kl = (size_t)(colon - p);
	if (kl == 12 && memcmp(p, "#running-req", 12) == 0) {
		size_t l = ss_log_int(v, end, &o->running, &toolong);
		if (toolong)
			return "a count with more than 18 digits";
		if (!l || v + l != end)
			return "#running-req that is not an integer";
		if (*has_running)
			return "an item given twice";
		*has_running = true;
	} else if (kl == 10 && memcmp(p, "accept len", 10) == 0) {
		size_t l = ss_log_fixed(v, end, 2, &toolong);
		if (toolong)
			return "a number with more than 18 digits";
		if (!l || v + l != end || l >= sizeof(o->accept_txt))
			return "accept len that is not a number with two decimals";
		if (*has_len)
			return "an item given twice";
		*has_len = true;
		memcpy(o->accept_txt, v, l);
		o->accept_txt[l] = '\0';
		o->accept_len = strtod(o->accept_txt, NULL);
	}
	return NULL;
}

enum ss_log_status ss_sglang_line_parse(const char *tail, size_t n, struct ss_sglang_line *o)
{
	const char *p = tail, *end = tail + n;
	bool has_running = false, has_len = false;

	memset(o, 0, sizeof(*o));
	if (ss_log_eat(&p, end, " [")) {
		uint64_t iter;
		bool toolong = false;
		size_t l = ss_log_int(p, end, &iter, &toolong);
		if (!l)
			return bad(o, toolong ? "a count with more than 18 digits"
					      : "an iteration that is not an integer");
		p += l;
		if (!ss_log_eat(&p, end, "]"))
			return bad(o, "an iteration without its ']'");
	}
	if (!ss_log_eat(&p, end, ". ") && !ss_log_eat(&p, end, ", "))
		return bad(o, "no '. ' or ', ' after Decode batch");
	if (end > p && end[-1] == ' ')
		end--;
	if (end > p && end[-1] == ',')
		end--;
	if (p == end)
		return bad(o, "no items");
	while (p < end) {
		const char *t = memmem(p, (size_t)(end - p), ", ", 2);
		if (!t)
			t = end;
		const char *why = one_item(o, p, t, &has_running, &has_len);
		if (why)
			return bad(o, why);
		if (t == end)
			break;
		p = t + 2;
		if (p == end)
			return bad(o, "an empty item");
	}
	if (!has_len)
		return SS_LOG_SKIPPED;
	if (!has_running)
		return bad(o, "no #running-req");
	return SS_LOG_OK;
}

void ss_sglang_series_init(struct ss_sglang_series *s)
{
	memset(s, 0, sizeof(*s));
}

void ss_sglang_series_add(struct ss_sglang_series *s, const struct ss_sglang_line *l)
{
	double v = l->accept_len;
	uint64_t b = ss_log_bucket(l->running);
	size_t i = 0;

	while (b > 1) {
		b >>= 1;
		i++;
	}
	if (!s->lines || v < s->min)
		s->min = v;
	if (!s->lines || v > s->max)
		s->max = v;
	s->lines++;
	s->sum += v;
	s->weighted_sum += v * (double)l->running;
	s->running_sum += (double)l->running;
	s->last = v;
	s->bucket_lines[i]++;
	s->bucket_sum[i] += v;
}
