/*
 * aggjson.c - the aggregate JSON (SPEC 4.1), laid out as Python's
 * json.dumps(indent=2) writes it, so AIPerf's consumers read it unchanged.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report/jsonw.h"
#include "report/report.h"
#include "report/report_int.h"
#include "util/utf8.h"

/*
 * Whether the 8 bytes at p are all plain ASCII that a JSON string takes as
 * it stands (0x20..0x7f but for '"' and '\\'): the byte tests of the loop
 * below, eight at a time. The "some byte below N" and "some byte equal to
 * N" word tricks answer exactly whether any byte is so (not which).
 */
static inline bool plain8(const unsigned char *p)
{
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	uint64_t x, q, bs;

	memcpy(&x, p, sizeof(x));
	q = x ^ ones * '"';
	bs = x ^ ones * '\\';
	return ((x & highs) |                      /* 0x80 and up */
		((x - ones * 0x20) & ~x & highs) |  /* below 0x20 */
		((q - ones) & ~q & highs) |         /* '"' */
		((bs - ones) & ~bs & highs)) == 0;  /* '\\' */
}

void ss_report_add_text(struct ss_buf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, start = 0;

	ss_buf_addc(b, '"');
	while (i < n) {
		unsigned char c = u[i];
		char esc[7] = "\\u00";

		/* plain ASCII, most of any text, passes without a look at UTF-8 */
		if (i + 8 <= n && plain8(u + i)) {
			i += 8;
			continue;
		}
		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			i++;
			continue;
		}
		if (c >= 0x80) {
			uint32_t cp;
			size_t len = ss_utf8_next(u + i, n - i, &cp);

			if (cp != SS_UTF8_INVALID) {
				i += len;
				continue;
			}
		}
		ss_buf_add(b, s + start, i - start);
		if (c >= 0x80)
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

/* A metric's unit-and-values object `{"unit": ..., "avg": ...}` (run-level)
 * or with all statistics (per-request). */
static void add_metric_obj(struct ss_jsonw *w, const struct ss_results *r, int m)
{
	const struct ss_stats *st = &r->stats[m];

	ss_jsonw_begin_object(w, ss_metric_table[m].tag);
	ss_jsonw_str(w, "unit", ss_metric_table[m].unit);
	ss_jsonw_double(w, "avg", st->avg);
	if (ss_metric_table[m].per_request) {
		ss_jsonw_double(w, "p1", st->p1);
		ss_jsonw_double(w, "p5", st->p5);
		ss_jsonw_double(w, "p10", st->p10);
		ss_jsonw_double(w, "p25", st->p25);
		ss_jsonw_double(w, "p50", st->p50);
		ss_jsonw_double(w, "p75", st->p75);
		ss_jsonw_double(w, "p90", st->p90);
		ss_jsonw_double(w, "p95", st->p95);
		ss_jsonw_double(w, "p99", st->p99);
		ss_jsonw_double(w, "min", st->min);
		ss_jsonw_double(w, "max", st->max);
		ss_jsonw_double(w, "std", st->std);
		ss_jsonw_u64(w, "count", (uint64_t)st->count);
		ss_jsonw_double(w, "sum", st->sum);
	}
	ss_jsonw_end_object(w);
}

/* The metrics of a result set as members of the enclosing object. */
static void add_metrics(struct ss_jsonw *w, const struct ss_results *r)
{
	for (int m = 0; m < SS_M_COUNT; m++)
		if (r->has[m])
			add_metric_obj(w, r, m);
}

static bool hist_empty(const struct ss_results *r)
{
	for (size_t i = 0; i < r->hist_len; i++)
		if (r->hist[i])
			return false;
	return true;
}

void ss_report_add_accounting(struct ss_jsonw *w, const char *key, uint64_t total,
			      const uint64_t status[SS_ST_COUNT])
{
	ss_jsonw_begin_object(w, key);
	ss_jsonw_u64(w, "total", total);
	for (int s = 0; s < SS_ST_COUNT; s++)
		ss_jsonw_u64(w, ss_status_name((enum ss_status)s), status[s]);
	ss_jsonw_end_object(w);
}

static void add_specscan(struct ss_jsonw *w, const struct ss_agg *a, const char *version)
{
	ss_jsonw_begin_object(w, "specscan");
	ss_jsonw_str(w, "version", version);
	ss_jsonw_begin_array(w, "inputs");
	for (size_t i = 0; i < a->ninputs; i++) {
		const struct ss_input_info *in = &a->inputs[i];

		ss_jsonw_begin_object(w, NULL);
		ss_jsonw_str(w, "name", in->name);
		ss_jsonw_str(w, "kind", ss_input_kind_name(in));
		ss_jsonw_u64(w, "requests", in->requests);
		ss_jsonw_end_object(w);
	}
	ss_jsonw_end_array(w);
	ss_report_add_accounting(w, "requests", a->total, a->status);
	ss_jsonw_begin_object(w, "phases");
	ss_jsonw_u64(w, "profiling", a->phases[SS_PHASE_PROFILING]);
	ss_jsonw_u64(w, "warmup", a->phases[SS_PHASE_WARMUP]);
	ss_jsonw_end_object(w);
	/* ss_agg_finish() sorted them by name */
	ss_jsonw_begin_object(w, "engines");
	for (size_t i = 0; i < a->nengines; i++)
		ss_jsonw_u64(w, a->engines[i].name, a->engines[i].count);
	ss_jsonw_end_object(w);
	ss_jsonw_end_object(w);
}

void ss_report_add_results(struct ss_jsonw *w, const struct ss_results *r)
{
	if (!hist_empty(r)) {
		char num[24];

		ss_jsonw_begin_object(w, "pooled_spec_decode_acceptance_histogram");
		for (size_t j = 0; j < r->hist_len; j++) {
			if (!r->hist[j])
				continue;
			snprintf(num, sizeof(num), "%zu", j);
			ss_jsonw_i128(w, num, r->hist[j]);
		}
		ss_jsonw_end_object(w);
	}
	add_metrics(w, r);
}

void ss_report_json(struct ss_buf *out, const struct ss_agg *a, const char *version)
{
	ss_report_json_full(out, a, NULL, version);
}

void ss_report_json_full(struct ss_buf *out, const struct ss_agg *a,
			 const struct ss_analysis *an, const char *version)
{
	struct ss_jsonw w;

	ss_jsonw_init(&w, out);
	ss_jsonw_begin_object(&w, NULL);
	add_specscan(&w, a, version);
	ss_report_add_results(&w, &a->main);
	if (a->mode == SS_PHASES_PROFILING && ss_results_any(&a->warmup)) {
		ss_jsonw_begin_object(&w, "warmup_metrics");
		add_metrics(&w, &a->warmup);
		ss_jsonw_end_object(&w);
	}
	if (an && an->any)
		ss_report_json_analysis(&w, a, an);
	ss_jsonw_end_object(&w);
	ss_buf_addc(out, '\n');
}
