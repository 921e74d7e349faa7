/*
 * aggjson.c - the aggregate JSON (SPEC 4.1), laid out as Python's
 * json.dumps(indent=2) writes it, so AIPerf's consumers read it unchanged.
 */
#include <stdio.h>
#include <string.h>

#include "report/numfmt.h"
#include "report/report.h"
#include "report/report_int.h"

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

void ss_report_add_text(struct ss_buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, start = 0;

	ss_buf_addc(b, '"');
	while (i < n) {
		unsigned char c = u[i];
		size_t len = utf8_len(u + i, n - i);
		char esc[7] = "\\u00";

		if (len > 1 || (len == 1 && c >= 0x20 && c != '"' && c != '\\')) {
			i += len;
			continue;
		}
		ss_buf_add(b, s + start, i - start);
		if (len == 0)
			ss_buf_adds(b, "\\ufffd");
		else if (c == '"')
			ss_buf_adds(b, "\\\"");
		else if (c == '\\')
			ss_buf_adds(b, "\\\\");
		else if (c == '\n')
			ss_buf_adds(b, "\\n");
		else if (c == '\r')
			ss_buf_adds(b, "\\r");
		else if (c == '\t')
			ss_buf_adds(b, "\\t");
		else if (c == '\b')
			ss_buf_adds(b, "\\b");
		else if (c == '\f')
			ss_buf_adds(b, "\\f");
		else {
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			ss_buf_add(b, esc, 6);
		}
		start = ++i;
	}
	ss_buf_add(b, s + start, n - start);
	ss_buf_addc(b, '"');
}

static void indent(struct ss_buf *b, int n)
{
	ss_buf_addc(b, '\n');
	while (n-- > 0)
		ss_buf_addc(b, ' ');
}

/* `"key": ` after the indentation */
static void key(struct ss_buf *b, int ind, const char *k)
{
	indent(b, ind);
	ss_report_add_text(b, k, strlen(k));
	ss_buf_adds(b, ": ");
}

void ss_report_indent(struct ss_buf *b, int n)
{
	indent(b, n);
}

void ss_report_key(struct ss_buf *b, int ind, const char *k)
{
	key(b, ind, k);
}

static void dkey(struct ss_buf *b, int ind, const char *k, double v)
{
	ss_buf_addc(b, ',');
	key(b, ind, k);
	ss_buf_add_double(b, v);
}

void ss_report_add_metric_obj(struct ss_buf *b, const struct ss_results *r,
			      int m, int ind)
{
	const struct ss_stats *st = &r->stats[m];
	const char *unit = ss_metric_table[m].unit;

	ss_buf_addc(b, '{');
	key(b, ind, "unit");
	ss_report_add_text(b, unit, strlen(unit));
	dkey(b, ind, "avg", st->avg);
	if (ss_metric_table[m].per_request) {
		dkey(b, ind, "p1", st->p1);
		dkey(b, ind, "p5", st->p5);
		dkey(b, ind, "p10", st->p10);
		dkey(b, ind, "p25", st->p25);
		dkey(b, ind, "p50", st->p50);
		dkey(b, ind, "p75", st->p75);
		dkey(b, ind, "p90", st->p90);
		dkey(b, ind, "p95", st->p95);
		dkey(b, ind, "p99", st->p99);
		dkey(b, ind, "min", st->min);
		dkey(b, ind, "max", st->max);
		dkey(b, ind, "std", st->std);
		ss_buf_addc(b, ',');
		key(b, ind, "count");
		ss_buf_add_u64(b, (uint64_t)st->count);
		dkey(b, ind, "sum", st->sum);
	}
	indent(b, ind - 2);
	ss_buf_addc(b, '}');
}

/* The metrics of a result set as fields of the enclosing object. */
static void add_metrics(struct ss_buf *b, const struct ss_results *r, int ind,
			bool *first)
{
	for (int m = 0; m < SS_M_COUNT; m++) {
		if (!r->has[m])
			continue;
		if (!*first)
			ss_buf_addc(b, ',');
		*first = false;
		key(b, ind, ss_metric_table[m].tag);
		ss_report_add_metric_obj(b, r, m, ind + 2);
	}
}

static bool hist_empty(const struct ss_results *r)
{
	for (size_t i = 0; i < r->hist_len; i++)
		if (r->hist[i])
			return false;
	return true;
}

static void add_specscan(struct ss_buf *b, const struct ss_agg *a,
			 const char *version)
{
	ss_buf_addc(b, '{');
	key(b, 4, "version");
	ss_report_add_text(b, version, strlen(version));
	ss_buf_addc(b, ',');

	key(b, 4, "inputs");
	ss_buf_addc(b, '[');
	for (size_t i = 0; i < a->ninputs; i++) {
		const struct ss_input_info *in = &a->inputs[i];
		const char *kind = ss_input_kind_name(in);

		if (i)
			ss_buf_addc(b, ',');
		indent(b, 6);
		ss_buf_addc(b, '{');
		key(b, 8, "name");
		ss_report_add_text(b, in->name, strlen(in->name));
		ss_buf_addc(b, ',');
		key(b, 8, "kind");
		ss_report_add_text(b, kind, strlen(kind));
		ss_buf_addc(b, ',');
		key(b, 8, "requests");
		ss_buf_add_u64(b, in->requests);
		indent(b, 6);
		ss_buf_addc(b, '}');
	}
	if (a->ninputs)
		indent(b, 4);
	ss_buf_adds(b, "],");

	key(b, 4, "requests");
	ss_buf_addc(b, '{');
	key(b, 6, "total");
	ss_buf_add_u64(b, a->total);
	for (int s = 0; s < SS_ST_COUNT; s++) {
		ss_buf_addc(b, ',');
		key(b, 6, ss_status_name((enum ss_status)s));
		ss_buf_add_u64(b, a->status[s]);
	}
	indent(b, 4);
	ss_buf_adds(b, "},");

	key(b, 4, "phases");
	ss_buf_addc(b, '{');
	key(b, 6, "profiling");
	ss_buf_add_u64(b, a->phases[SS_PHASE_PROFILING]);
	ss_buf_addc(b, ',');
	key(b, 6, "warmup");
	ss_buf_add_u64(b, a->phases[SS_PHASE_WARMUP]);
	indent(b, 4);
	ss_buf_adds(b, "},");

	/* ss_agg_finish() sorted them by name */
	key(b, 4, "engines");
	ss_buf_addc(b, '{');
	for (size_t i = 0; i < a->nengines; i++) {
		if (i)
			ss_buf_addc(b, ',');
		key(b, 6, a->engines[i].name);
		ss_buf_add_u64(b, a->engines[i].count);
	}
	if (a->nengines)
		indent(b, 4);
	ss_buf_addc(b, '}');
	indent(b, 2);
	ss_buf_addc(b, '}');
}

void ss_report_add_results(struct ss_buf *out, const struct ss_results *r, int ind, bool *first)
{
	if (!hist_empty(r)) {
		bool any = false;
		char num[24];

		if (!*first)
			ss_buf_addc(out, ',');
		*first = false;
		key(out, ind, "pooled_spec_decode_acceptance_histogram");
		ss_buf_addc(out, '{');
		for (size_t j = 0; j < r->hist_len; j++) {
			if (!r->hist[j])
				continue;
			if (any)
				ss_buf_addc(out, ',');
			any = true;
			snprintf(num, sizeof(num), "%zu", j);
			key(out, ind + 2, num);
			ss_buf_add_i128(out, r->hist[j]);
		}
		indent(out, ind);
		ss_buf_addc(out, '}');
	}
	add_metrics(out, r, ind, first);
}

void ss_report_json(struct ss_buf *out, const struct ss_agg *a, const char *version)
{
	ss_report_json_full(out, a, NULL, version);
}

void ss_report_json_full(struct ss_buf *out, const struct ss_agg *a,
			 const struct ss_analysis *an, const char *version)
{
	const struct ss_results *r = &a->main;
	bool first = false;

	ss_buf_addc(out, '{');
	key(out, 2, "specscan");
	add_specscan(out, a, version);
	ss_report_add_results(out, r, 2, &first);

	if (a->mode == SS_PHASES_PROFILING && ss_results_any(&a->warmup)) {
		bool wfirst = true;

		ss_buf_addc(out, ',');
		key(out, 2, "warmup_metrics");
		ss_buf_addc(out, '{');
		add_metrics(out, &a->warmup, 4, &wfirst);
		indent(out, 2);
		ss_buf_addc(out, '}');
	}
	if (an && an->any)
		ss_report_json_analysis(out, a, an);
	indent(out, 0);
	ss_buf_adds(out, "}\n");
}
