#include "analysis/expect.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* positionN: N a decimal >= 1 without a sign or leading zero. */
static bool parse_position(const char *tag, size_t len, uint32_t *n)
{
	static const char prefix[] = "position";
	const size_t plen = sizeof(prefix) - 1;
	uint64_t v = 0;

	if (len <= plen || memcmp(tag, prefix, plen) != 0 || tag[plen] == '0')
		return false;
	for (size_t i = plen; i < len; i++) {
		if (tag[i] < '0' || tag[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(tag[i] - '0');
		if (v > UINT32_MAX)
			return false;
	}
	*n = (uint32_t)v;
	return true;
}

static const struct {
	const char *tag;
	enum ss_expect_value what;
} named_values[] = {
	{"window_min", SS_EXV_WINDOW_MIN},
	{"window_last", SS_EXV_WINDOW_LAST},
	{"all_rejected_requests", SS_EXV_ALL_REJECTED},
	{"all_accepted_requests", SS_EXV_ALL_ACCEPTED},
};

bool ss_expect_parse(const char *text, const char *const *tags, size_t ntags,
		     struct ss_expect *out, char *err, size_t errlen)
{
	const char *p = text, *tag, *op, *num;
	size_t tlen;
	char *end;

	memset(out, 0, sizeof(*out));
	out->text = text;
	out->metric = -1;
	while (is_blank(*p))
		p++;
	tag = p;
	while (*p && *p != '<' && *p != '>' && *p != '=' && !is_blank(*p))
		p++;
	tlen = (size_t)(p - tag);
	while (is_blank(*p))
		p++;
	op = p;
	if (p[0] == '>' && p[1] == '=') {
		out->op = SS_OP_GE;
		p += 2;
	} else if (p[0] == '<' && p[1] == '=') {
		out->op = SS_OP_LE;
		p += 2;
	} else if (p[0] == '>') {
		out->op = SS_OP_GT;
		p++;
	} else if (p[0] == '<') {
		out->op = SS_OP_LT;
		p++;
	} else {
		snprintf(err, errlen,
			 "--expect '%s': expected TAG OP VALUE with OP one of >=, >, <=, <", text);
		return false;
	}
	if (tlen == 0) {
		snprintf(err, errlen, "--expect '%s': no metric tag before '%.*s'", text,
			 p - op > 0 ? (int)(p - op) : 0, op);
		return false;
	}
	for (size_t i = 0; i < ntags; i++)
		if (strlen(tags[i]) == tlen && memcmp(tags[i], tag, tlen) == 0)
			out->metric = (int)i;
	for (size_t i = 0; i < sizeof(named_values) / sizeof(named_values[0]); i++)
		if (strlen(named_values[i].tag) == tlen &&
		    memcmp(named_values[i].tag, tag, tlen) == 0)
			out->what = named_values[i].what;
	if (out->metric < 0 && out->what == SS_EXV_NONE &&
	    !parse_position(tag, tlen, &out->position)) {
		snprintf(err, errlen,
			 "--expect '%s': unknown metric '%.*s' (a metric tag such as "
			 "spec_decode_acceptance_length, positionN, window_min, "
			 "window_last, all_rejected_requests or all_accepted_requests)",
			 text, (int)tlen, tag);
		return false;
	}
	while (is_blank(*p))
		p++;
	num = p;
	/* strtod would also take hex, inf and nan: allow a plain decimal only. */
	for (const char *q = num; *q && !is_blank(*q); q++)
		if (!strchr("0123456789+-.eE", *q))
			goto bad_value;
	errno = 0;
	out->value = strtod(num, &end);
	if (end == num || errno == ERANGE || !isfinite(out->value))
		goto bad_value;
	while (is_blank(*end))
		end++;
	if (*end)
		goto bad_value;
	return true;
bad_value:
	snprintf(err, errlen, "--expect '%s': '%s' is not a number", text, num);
	return false;
}

bool ss_expect_holds(const struct ss_expect *e, bool has, double v)
{
	if (!has)
		return false;
	switch (e->op) {
	case SS_OP_GE:
		return v >= e->value;
	case SS_OP_GT:
		return v > e->value;
	case SS_OP_LE:
		return v <= e->value;
	case SS_OP_LT:
		break;
	}
	return v < e->value;
}
