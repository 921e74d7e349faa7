/*
 * Unit tests of the reports: aggregate JSON (SPEC 4.1), CSV (4.2), the
 * console section (4.3) and the enriched JSONL lines (4.4). The expected
 * texts were written by hand from the SPEC and its test vectors.
 */
#include "fixtures_records.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "json/json.h"
#include "metrics/aggregate.h"
#include "report/report.h"
#include "report/report_int.h"
#include "util/buf.h"
#include "util/alloc.h"

/* The SPEC 6 two-record run: A then B, both profiling vLLM. */
static void agg_ab(struct ss_agg *a)
{
	struct ss_record ra, rb;
	struct ss_outcome o;

	ss_agg_init(a, SS_PHASES_PROFILING);
	assert_true(ss_agg_begin_input(a, "run.jsonl"));
	fx_record_a(&ra);
	fx_record_b(&rb);
	fx_outcome_of(&o, &ra, SS_PHASE_PROFILING, 1);
	assert_true(ss_agg_add(a, &o));
	fx_outcome_of(&o, &rb, SS_PHASE_PROFILING, 2);
	assert_true(ss_agg_add(a, &o));
	ss_record_release(&ra);
	ss_record_release(&rb);
	assert_true(ss_agg_finish(a));
}

/* s repeated n times */
static void rep(struct ss_buf *b, const char *s, int n)
{
	while (n-- > 0)
		ss_buf_adds(b, s);
}

/* A rule line: left, fill x w0, then (junction, fill x w) for each width. */
static void rule(struct ss_buf *b, const char *l, const char *f, const char *j,
		 const char *r, int w0, int w, int ncols)
{
	ss_buf_adds(b, l);
	rep(b, f, w0);
	for (int i = 0; i < ncols; i++) {
		ss_buf_adds(b, j);
		rep(b, f, w);
	}
	ss_buf_adds(b, r);
	ss_buf_addc(b, '\n');
}

/* Replace every `|` of a row template with the given vertical bar. */
static void row(struct ss_buf *b, const char *tmpl, const char *bar)
{
	for (; *tmpl; tmpl++) {
		if (*tmpl == '|')
			ss_buf_adds(b, bar);
		else
			ss_buf_addc(b, *tmpl);
	}
	ss_buf_addc(b, '\n');
}

static const char *const ab_rows[] = {
	"| Acceptance Length (ratio)         |  2.46 |  1.67 |  3.25 |  3.23 |  3.09 |  2.46 |  0.79 |",
	"| Token-Weighted Acceptance Length  |  2.82 |   N/A |   N/A |   N/A |   N/A |   N/A |   N/A |",
	"| (ratio)                           |       |       |       |       |       |       |       |",
	"| Draft Acceptance Rate (%)         | 36.46 | 16.67 | 56.25 | 55.85 | 52.29 | 36.46 | 19.79 |",
	"| Overall Draft Acceptance Rate (%) | 45.45 |   N/A |   N/A |   N/A |   N/A |   N/A |   N/A |",
	"| Accepted per Verified (ratio)     |  0.49 |  0.33 |  0.65 |  0.65 |  0.62 |  0.49 |  0.16 |",
	"| Spec Decode Steps (count)         |  5.50 |  3.00 |  8.00 |  7.95 |  7.50 |  5.50 |  2.50 |",
};
static const char ab_header[] =
	"| Metric                            |   avg |   min |   max |   p99 |   p90 |   p50 |   std |";
static const char ab_tail[] =
	"  Accepted drafts per step (% of steps):  0: 18%   1: 27%   2: 18%   3: 27%   4: 9%\n"
	"  2 requests: 2 with stats\n";

static void test_table_utf8(void **state)
{
	struct ss_agg a;
	struct ss_buf got = SS_BUF_INIT, want = SS_BUF_INIT;

	(void)state;
	agg_ab(&a);
	ss_report_table(&got, &a, NULL, NULL, true, false);

	/* 35 + 7 x 7 + 9 = 93 columns: the title starts at (93 - 11) / 2 */
	rep(&want, " ", 41);
	ss_buf_adds(&want, "Spec Decode\n");
	rule(&want, "┏", "━", "┳", "┓", 35, 7, 7);
	row(&want, ab_header, "┃");
	rule(&want, "┡", "━", "╇", "┩", 35, 7, 7);
	for (size_t i = 0; i < sizeof(ab_rows) / sizeof(ab_rows[0]); i++)
		row(&want, ab_rows[i], "│");
	rule(&want, "└", "─", "┴", "┘", 35, 7, 7);
	ss_buf_adds(&want, ab_tail);
	assert_string_equal(got.data, want.data);
	assert_null(strchr(got.data, '\033'));

	ss_buf_release(&got);
	ss_buf_release(&want);
	ss_agg_release(&a);
}

static void test_table_ascii(void **state)
{
	struct ss_agg a;
	struct ss_buf got = SS_BUF_INIT, want = SS_BUF_INIT;

	(void)state;
	agg_ab(&a);
	ss_report_table(&got, &a, NULL, NULL, false, false);

	rep(&want, " ", 41);
	ss_buf_adds(&want, "Spec Decode\n");
	rule(&want, "+", "-", "+", "+", 35, 7, 7);
	row(&want, ab_header, "|");
	rule(&want, "+", "-", "+", "+", 35, 7, 7);
	for (size_t i = 0; i < sizeof(ab_rows) / sizeof(ab_rows[0]); i++)
		row(&want, ab_rows[i], "|");
	rule(&want, "+", "-", "+", "+", 35, 7, 7);
	ss_buf_adds(&want, ab_tail);
	assert_string_equal(got.data, want.data);
	/* pure ASCII */
	for (size_t i = 0; i < got.len; i++)
		assert_true((unsigned char)got.data[i] < 0x80);

	ss_buf_release(&got);
	ss_buf_release(&want);
	ss_agg_release(&a);
}

static void test_table_color(void **state)
{
	struct ss_agg a;
	struct ss_buf got = SS_BUF_INIT;

	(void)state;
	agg_ab(&a);
	ss_report_table(&got, &a, NULL, NULL, true, true);
	/* the header is bold; the padding stays outside the escapes */
	assert_non_null(strstr(got.data, "┃ \033[1mMetric\033[0m                            ┃"));
	assert_non_null(strstr(got.data, "┃   \033[1mavg\033[0m ┃"));
	/* body rows are unchanged */
	assert_non_null(strstr(got.data, "│ Spec Decode Steps (count)         │  5.50 │"));
	ss_buf_release(&got);
	ss_agg_release(&a);
}

/* An aggregate whose only content is a pooled histogram and the accounting. */
static void agg_hist(struct ss_agg *a, const int64_t *h, size_t n)
{
	ss_agg_init(a, SS_PHASES_PROFILING);
	a->main.hist = ss_calloc(n, sizeof(__int128));
	assert_non_null(a->main.hist);
	a->main.hist_len = a->main.hist_cap = n;
	for (size_t i = 0; i < n; i++)
		a->main.hist[i] = h[i];
}

static void test_histogram_lines(void **state)
{
	static const int64_t h1[] = {2, 2, 4, 6, 2};
	static const int64_t h2[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
	static const int64_t h3[] = {3, 0, 0, 1, 0, 0};
	struct ss_agg a;
	struct ss_buf got = SS_BUF_INIT;

	(void)state;
	agg_hist(&a, h1, 5);
	ss_report_table(&got, &a, NULL, NULL, true, false);
	/* no metric: no table; ties round to even */
	assert_string_equal(got.data,
		"  Accepted drafts per step (% of steps):  0: 12%   1: 12%   2: 25%   3: 38%   4: 12%\n"
		"  0 requests\n");
	ss_agg_release(&a);

	ss_buf_reset(&got);
	agg_hist(&a, h2, 12);
	ss_report_table(&got, &a, NULL, NULL, true, false);
	assert_string_equal(got.data,
		"  Accepted drafts per step (% of steps):  0: 8%   1: 8%   2: 8%   3: 8%   4: 8%   5: 8%   6: 8%   7: 8%   >=8: 33%\n"
		"  0 requests\n");
	ss_agg_release(&a);

	/* missing buckets below the largest are 0%; trailing zeros are not shown */
	ss_buf_reset(&got);
	agg_hist(&a, h3, 6);
	ss_report_table(&got, &a, NULL, NULL, true, false);
	assert_string_equal(got.data,
		"  Accepted drafts per step (% of steps):  0: 75%   1: 0%   2: 0%   3: 25%\n"
		"  0 requests\n");
	ss_agg_release(&a);
	ss_buf_release(&got);
}

static const char zs_rule[] =
	"+-------------------------------+----------+-----+-----+-----+-----+-----+-----+\n";

static void test_table_zero_step_only(void **state)
{
	static const int64_t zero[] = {0, 0};
	struct ss_agg a;
	struct ss_record r;
	struct ss_outcome o;
	struct ss_buf got = SS_BUF_INIT, want = SS_BUF_INIT;

	(void)state;
	ss_agg_init(&a, SS_PHASES_PROFILING);
	fx_vllm(&r, zero, 2, 0, 0, 0, 1.0, 0.0);
	fx_outcome_of(&o, &r, SS_PHASE_PROFILING, 1);
	for (int i = 0; i < 1234; i++)
		assert_true(ss_agg_add(&a, &o));
	ss_record_release(&r);
	fx_outcome_status(&o, SS_ST_ERROR, SS_PHASE_PROFILING, SS_KIND_RAW, NULL);
	assert_true(ss_agg_add(&a, &o));
	fx_outcome_status(&o, SS_ST_NO_CONTENT, SS_PHASE_PROFILING, SS_KIND_RAW, NULL);
	assert_true(ss_agg_add(&a, &o));
	assert_true(ss_agg_finish(&a));
	ss_report_table(&got, &a, NULL, NULL, false, false);

	/* widths 29, 8 (1,234.00), six x 3: 31 + 10 + 6 x 5 + 9 = 80 */
	rep(&want, " ", 34);
	ss_buf_adds(&want, "Spec Decode\n");
	ss_buf_adds(&want, zs_rule);
	ss_buf_adds(&want,
		"| Metric                        |      avg | min | max | p99 | p90 | p50 | std |\n");
	ss_buf_adds(&want, zs_rule);
	ss_buf_adds(&want,
		"| Zero-Step Requests (requests) | 1,234.00 | N/A | N/A | N/A | N/A | N/A | N/A |\n");
	ss_buf_adds(&want, zs_rule);
	ss_buf_adds(&want, "  1,236 requests: 1,234 zero-step, 1 failed, 1 without content\n");
	assert_string_equal(got.data, want.data);

	ss_buf_release(&got);
	ss_buf_release(&want);
	ss_agg_release(&a);
}

static void test_csv_ab(void **state)
{
	struct ss_agg a;
	struct ss_buf got = SS_BUF_INIT;

	(void)state;
	agg_ab(&a);
	ss_report_csv(&got, &a, NULL, NULL);
	assert_string_equal(got.data,
		"Metric,avg,min,max,sum,p1,p5,p10,p25,p50,p75,p90,p95,p99,std\r\n"
		/* sorted by tag: "acceptance_length" < "accepted_..." */
		"Acceptance Length (ratio),2.46,1.67,3.25,4.92,1.68,1.75,1.82,2.06,2.46,2.85,3.09,3.17,3.23,0.79\r\n"
		"Accepted Draft Tokens (tokens),10.00,2.00,18.00,20.00,2.16,2.80,3.60,6.00,10.00,14.00,16.40,17.20,17.84,8.00\r\n"
		"Accepted per Verified (ratio),0.49,0.33,0.65,0.98,0.34,0.35,0.36,0.41,0.49,0.57,0.62,0.63,0.65,0.16\r\n"
		"Draft Acceptance Rate (%),36.46,16.67,56.25,72.92,17.06,18.65,20.62,26.56,36.46,46.35,52.29,54.27,55.85,19.79\r\n"
		"Draft Tokens (tokens),22.00,12.00,32.00,44.00,12.20,13.00,14.00,17.00,22.00,27.00,30.00,31.00,31.80,10.00\r\n"
		"Spec Decode Steps,5.50,3.00,8.00,11.00,3.05,3.25,3.50,4.25,5.50,6.75,7.50,7.75,7.95,2.50\r\n"
		"\r\n"
		"Metric,Value\r\n"
		"Overall Draft Acceptance Rate (%),45.45\r\n"
		"Token-Weighted Acceptance Length (ratio),2.82\r\n"
		"Total Accepted Draft Tokens (tokens),20.00\r\n"
		"Total Draft Tokens (tokens),44.00\r\n"
		"Total Spec Decode Steps,11.00\r\n");
	ss_buf_release(&got);
	ss_agg_release(&a);
}

static void test_csv_sections(void **state)
{
	struct ss_agg a;
	struct ss_buf got = SS_BUF_INIT;
	struct ss_outcome o;

	(void)state;
	/* nothing at all: empty */
	ss_agg_init(&a, SS_PHASES_PROFILING);
	assert_true(ss_agg_finish(&a));
	ss_report_csv(&got, &a, NULL, NULL);
	assert_int_equal(got.len, 0);
	ss_agg_release(&a);

	/* only a run-level metric: no per-request section, no empty line */
	ss_agg_init(&a, SS_PHASES_PROFILING);
	fx_outcome_status(&o, SS_ST_ZERO_STEP, SS_PHASE_PROFILING, SS_KIND_RAW, NULL);
	strcpy(o.engine, "vllm");
	assert_true(ss_agg_add(&a, &o));
	assert_true(ss_agg_add(&a, &o));
	assert_true(ss_agg_finish(&a));
	ss_report_csv(&got, &a, NULL, NULL);
	assert_string_equal(got.data, "Metric,Value\r\nZero-Step Requests,2.00\r\n");
	ss_buf_release(&got);
	ss_agg_release(&a);
}

/* The expected pretty JSON of a per-request metric whose n = 1 value is x. */
static void want_metric1(struct ss_buf *b, const char *tag, const char *unit,
			 const char *x, int ind)
{
	static const char *const keys[] = {
		"avg", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95",
		"p99", "min", "max",
	};

	ss_buf_addf(b, ",\n%*s\"%s\": {\n", ind, "", tag);
	ss_buf_addf(b, "%*s\"unit\": \"%s\",\n", ind + 2, "", unit);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		ss_buf_addf(b, "%*s\"%s\": %s,\n", ind + 2, "", keys[i], x);
	ss_buf_addf(b, "%*s\"std\": 0.0,\n", ind + 2, "");
	ss_buf_addf(b, "%*s\"count\": 1,\n", ind + 2, "");
	ss_buf_addf(b, "%*s\"sum\": %s\n", ind + 2, "", x);
	ss_buf_addf(b, "%*s}", ind, "");
}

static void want_run(struct ss_buf *b, const char *tag, const char *unit,
		     const char *x, int ind)
{
	ss_buf_addf(b, ",\n%*s\"%s\": {\n", ind, "", tag);
	ss_buf_addf(b, "%*s\"unit\": \"%s\",\n", ind + 2, "", unit);
	ss_buf_addf(b, "%*s\"avg\": %s\n", ind + 2, "", x);
	ss_buf_addf(b, "%*s}", ind, "");
}

/* The metrics of one record with steps s, accepted s, drafted 2s (n = 1). */
static void want_metrics_of(struct ss_buf *b, int ind, const char *steps,
			    const char *drafted)
{
	want_metric1(b, "spec_decode_acceptance_length", "ratio", "2.0", ind);
	want_run(b, "spec_decode_token_weighted_acceptance_length", "ratio", "2.0", ind);
	want_metric1(b, "spec_decode_draft_acceptance_rate", "%", "50.0", ind);
	want_run(b, "spec_decode_overall_draft_acceptance_rate", "%", "50.0", ind);
	want_metric1(b, "spec_decode_accepted_per_verified", "ratio",
		     "0.6666666666666666", ind);
	want_metric1(b, "spec_decode_steps", "count", steps, ind);
	want_metric1(b, "spec_decode_accepted_draft_tokens", "tokens", steps, ind);
	want_metric1(b, "spec_decode_draft_tokens", "tokens", drafted, ind);
	want_run(b, "total_spec_decode_steps", "count", steps, ind);
	want_run(b, "total_accepted_draft_tokens", "tokens", steps, ind);
	want_run(b, "total_draft_tokens", "tokens", drafted, ind);
}

static void test_json_full(void **state)
{
	static const int64_t hr[] = {1, 0, 1}, hw[] = {0, 1};
	struct ss_agg a;
	struct ss_record r, w;
	struct ss_outcome o;
	struct ss_buf got = SS_BUF_INIT, want = SS_BUF_INIT;

	(void)state;
	ss_agg_init(&a, SS_PHASES_PROFILING);
	assert_true(ss_agg_begin_input(&a, "in\"put.jsonl"));
	fx_vllm(&r, hr, 3, 2, 2, 4, 2.0, 0.5);
	fx_vllm(&w, hw, 2, 1, 1, 2, 2.0, 0.5);
	fx_outcome_of(&o, &r, SS_PHASE_PROFILING, 1);
	assert_true(ss_agg_add(&a, &o));
	fx_outcome_of(&o, &w, SS_PHASE_WARMUP, 2);
	assert_true(ss_agg_add(&a, &o));
	fx_outcome_status(&o, SS_ST_MALFORMED, SS_PHASE_PROFILING, SS_KIND_RAW, "bad");
	assert_true(ss_agg_add(&a, &o));
	assert_true(ss_agg_begin_input(&a, "empty.jsonl"));
	ss_record_release(&r);
	ss_record_release(&w);
	assert_true(ss_agg_finish(&a));
	ss_report_json(&got, &a, NULL, NULL, "0.1.0");

	ss_buf_adds(&want,
		"{\n"
		"  \"specscan\": {\n"
		"    \"version\": \"0.1.0\",\n"
		"    \"inputs\": [\n"
		"      {\n"
		"        \"name\": \"in\\\"put.jsonl\",\n"
		"        \"kind\": \"raw\",\n"
		"        \"requests\": 3\n"
		"      },\n"
		"      {\n"
		"        \"name\": \"empty.jsonl\",\n"
		"        \"kind\": \"unknown\",\n"
		"        \"requests\": 0\n"
		"      }\n"
		"    ],\n"
		"    \"requests\": {\n"
		"      \"total\": 3,\n"
		"      \"ok\": 2,\n"
		"      \"zero_step\": 0,\n"
		"      \"no_stats\": 0,\n"
		"      \"unrecognized\": 0,\n"
		"      \"ambiguous\": 0,\n"
		"      \"multi_choice\": 0,\n"
		"      \"malformed\": 1,\n"
		"      \"error\": 0,\n"
		"      \"cancelled\": 0,\n"
		"      \"no_content\": 0,\n"
		"      \"unparsable\": 0,\n"
		"      \"oversize\": 0\n"
		"    },\n"
		"    \"phases\": {\n"
		"      \"profiling\": 2,\n"
		"      \"warmup\": 1\n"
		"    },\n"
		"    \"engines\": {\n"
		"      \"vllm\": 2\n"
		"    }\n"
		"  },\n"
		"  \"pooled_spec_decode_acceptance_histogram\": {\n"
		"    \"0\": 1,\n"
		"    \"2\": 1\n"
		"  }");
	want_metrics_of(&want, 2, "2.0", "4.0");
	ss_buf_adds(&want, ",\n  \"warmup_metrics\": {");
	{
		/* the first warmup metric is not preceded by a comma */
		struct ss_buf tmp = SS_BUF_INIT;

		want_metrics_of(&tmp, 4, "1.0", "2.0");
		ss_buf_add(&want, tmp.data + 1, tmp.len - 1);
		ss_buf_release(&tmp);
	}
	ss_buf_adds(&want, "\n  }\n}\n");
	assert_string_equal(got.data, want.data);

	ss_buf_release(&got);
	ss_buf_release(&want);
	ss_agg_release(&a);
}

static void test_json_ab(void **state)
{
	struct ss_agg a;
	struct ss_buf got = SS_BUF_INIT;

	(void)state;
	agg_ab(&a);
	ss_report_json(&got, &a, NULL, NULL, "0.1.0");
	assert_non_null(strstr(got.data,
		"  \"pooled_spec_decode_acceptance_histogram\": {\n"
		"    \"0\": 2,\n    \"1\": 3,\n    \"2\": 2,\n    \"3\": 3,\n    \"4\": 1\n  },\n"
		"  \"spec_decode_acceptance_length\": {\n"
		"    \"unit\": \"ratio\",\n"
		"    \"avg\": 2.458333333333333,\n"
		"    \"p1\": 1.6824999999999999,\n"
		"    \"p5\": 1.7458333333333331,\n"
		"    \"p10\": 1.825,\n"
		"    \"p25\": 2.0625,\n"
		"    \"p50\": 2.458333333333333,\n"
		"    \"p75\": 2.8541666666666665,\n"
		"    \"p90\": 3.091666666666667,\n"
		"    \"p95\": 3.1708333333333334,\n"
		"    \"p99\": 3.234166666666667,\n"
		"    \"min\": 1.6666666666666665,\n"
		"    \"max\": 3.25,\n"
		"    \"std\": 0.7916666666666667,\n"
		"    \"count\": 2,\n"
		"    \"sum\": 4.916666666666666\n"
		"  },\n"
		"  \"spec_decode_token_weighted_acceptance_length\": {\n"
		"    \"unit\": \"ratio\",\n"
		"    \"avg\": 2.8181818181818183\n"
		"  },\n"));
	assert_non_null(strstr(got.data,
		"  \"spec_decode_overall_draft_acceptance_rate\": {\n"
		"    \"unit\": \"%\",\n"
		"    \"avg\": 45.45454545454545\n"
		"  },\n"));
	assert_non_null(strstr(got.data,
		"  \"spec_decode_steps\": {\n"
		"    \"unit\": \"count\",\n"
		"    \"avg\": 5.5,\n"
		"    \"p1\": 3.05,\n"));
	assert_non_null(strstr(got.data, "    \"std\": 2.5,\n    \"count\": 2,\n    \"sum\": 11.0\n"));
	assert_non_null(strstr(got.data,
		"  \"total_draft_tokens\": {\n"
		"    \"unit\": \"tokens\",\n"
		"    \"avg\": 44.0\n"
		"  }\n}\n"));
	assert_null(strstr(got.data, "warmup_metrics"));
	assert_null(strstr(got.data, "zero_step_requests"));
	ss_buf_release(&got);
	ss_agg_release(&a);
}

static void test_json_empty(void **state)
{
	struct ss_agg a;
	struct ss_buf got = SS_BUF_INIT;

	(void)state;
	ss_agg_init(&a, SS_PHASES_WARMUP);
	assert_true(ss_agg_finish(&a));
	ss_report_json(&got, &a, NULL, NULL, "0.1.0");
	assert_non_null(strstr(got.data, "    \"inputs\": [],\n"));
	assert_non_null(strstr(got.data, "    \"engines\": {}\n  }\n}\n"));
	assert_null(strstr(got.data, "pooled"));
	ss_buf_release(&got);
	ss_agg_release(&a);
}

static void jsonl(struct ss_buf *b, const char *input, const struct ss_outcome *o)
{
	struct ssj_parser *p = ssj_parser_new();

	assert_non_null(p);
	ss_buf_reset(b);
	ss_report_jsonl(b, p, input, o);
	assert_false(b->failed);
	ssj_parser_free(p);
}

static void test_jsonl_ok(void **state)
{
	struct ss_record r;
	struct ss_outcome o;
	struct ss_buf got = SS_BUF_INIT;

	(void)state;
	fx_record_a(&r);
	r.has_completion_tokens = true;
	r.completion_tokens = 50;
	fx_outcome_of(&o, &r, SS_PHASE_PROFILING, 12);
	o.kind = SS_KIND_BODY;
	jsonl(&got, "run.jsonl", &o);
	assert_string_equal(got.data,
		"{\"source\":{\"input\":\"run.jsonl\",\"line\":12,\"kind\":\"body\"},"
		"\"metrics\":{"
		"\"spec_decode_acceptance_length\":{\"value\":3.25,\"unit\":\"ratio\"},"
		"\"spec_decode_draft_acceptance_rate\":{\"value\":56.25,\"unit\":\"%\"},"
		"\"spec_decode_accepted_per_verified\":{\"value\":0.65,\"unit\":\"ratio\"},"
		"\"spec_decode_steps\":{\"value\":8,\"unit\":\"count\"},"
		"\"spec_decode_accepted_draft_tokens\":{\"value\":18,\"unit\":\"tokens\"},"
		"\"spec_decode_draft_tokens\":{\"value\":32,\"unit\":\"tokens\"}},"
		"\"spec_decode_acceptance\":{\"engine\":\"vllm\",\"mean_acceptance_length\":3.25,"
		"\"draft_acceptance_rate\":0.5625,"
		"\"acceptance_histogram\":{\"0\":1,\"1\":1,\"2\":2,\"3\":3,\"4\":1},"
		"\"num_accepted_draft_tokens\":18,\"num_draft_tokens\":32,\"num_spec_steps\":8,"
		"\"num_spec_tokens\":4,\"completion_tokens\":50,"
		"\"per_step_accepted\":[2,3,1,4,2,0,3,3]},"
		"\"spec_decode_status\":\"ok\"}\n");
	ss_record_release(&r);

	/* llama.cpp without steps: no steps, no histogram, no mean */
	fx_llamacpp(&r, 1, 4);
	fx_outcome_of(&o, &r, SS_PHASE_PROFILING, 2);
	jsonl(&got, "l.jsonl", &o);
	assert_string_equal(got.data,
		"{\"source\":{\"input\":\"l.jsonl\",\"line\":2,\"kind\":\"raw\"},"
		"\"metrics\":{"
		"\"spec_decode_draft_acceptance_rate\":{\"value\":25.0,\"unit\":\"%\"},"
		"\"spec_decode_accepted_draft_tokens\":{\"value\":1,\"unit\":\"tokens\"},"
		"\"spec_decode_draft_tokens\":{\"value\":4,\"unit\":\"tokens\"}},"
		"\"spec_decode_acceptance\":{\"engine\":\"llamacpp\",\"draft_acceptance_rate\":0.25,"
		"\"num_accepted_draft_tokens\":1,\"num_draft_tokens\":4},"
		"\"spec_decode_status\":\"ok\"}\n");
	ss_record_release(&r);
	ss_buf_release(&got);
}

static void test_jsonl_zero_step(void **state)
{
	static const int64_t zero[] = {0, 0, 0};
	static const char meta[] = "{\"benchmark_phase\":\"warmup\"}";
	struct ss_record r;
	struct ss_outcome o;
	struct ss_buf got = SS_BUF_INIT;

	(void)state;
	fx_vllm(&r, zero, 3, 0, 0, 0, 1.0, 0.0);
	fx_outcome_of(&o, &r, SS_PHASE_WARMUP, 3);
	o.metadata = meta;
	o.metadata_len = strlen(meta);
	jsonl(&got, "run.jsonl", &o);
	assert_string_equal(got.data,
		"{\"source\":{\"input\":\"run.jsonl\",\"line\":3,\"kind\":\"raw\"},"
		"\"metadata\":{\"benchmark_phase\":\"warmup\"},"
		"\"spec_decode_acceptance\":{\"engine\":\"vllm\",\"mean_acceptance_length\":1.0,"
		"\"draft_acceptance_rate\":0.0,\"acceptance_histogram\":{},"
		"\"num_accepted_draft_tokens\":0,\"num_draft_tokens\":0,\"num_spec_steps\":0,"
		"\"num_spec_tokens\":2},"
		"\"spec_decode_status\":\"zero_step\",\"spec_decode_reason\":\"num_spec_steps is 0\"}\n");
	ss_record_release(&r);
	ss_buf_release(&got);
}

static void test_jsonl_malformed(void **state)
{
	struct ss_outcome o;
	struct ss_buf got = SS_BUF_INIT;

	(void)state;
	fx_outcome_status(&o, SS_ST_MALFORMED, SS_PHASE_PROFILING, SS_KIND_RAW,
			  "histogram sums to 42 but num_spec_steps is 43");
	o.line = 7;
	jsonl(&got, "a\\b\xff.jsonl", &o);
	assert_string_equal(got.data,
		"{\"source\":{\"input\":\"a\\\\b\\ufffd.jsonl\",\"line\":7,\"kind\":\"raw\"},"
		"\"spec_decode_status\":\"malformed\","
		"\"spec_decode_reason\":\"histogram sums to 42 but num_spec_steps is 43\"}\n");

	/* an unparsable line: a reason is always given */
	fx_outcome_status(&o, SS_ST_UNPARSABLE, SS_PHASE_PROFILING, SS_KIND_UNKNOWN, NULL);
	jsonl(&got, "x", &o);
	assert_string_equal(got.data,
		"{\"source\":{\"input\":\"x\",\"line\":1,\"kind\":\"unknown\"},"
		"\"spec_decode_status\":\"unparsable\","
		"\"spec_decode_reason\":\"not a JSON object\"}\n");
	ss_buf_release(&got);
}

/* A records line in a padded buffer; *metrics and *meta point into it. */
static char *records_line(const char *text, const char **meta, size_t *metalen,
			  const char **metrics, size_t *metricslen)
{
	size_t n = strlen(text);
	char *buf = calloc(1, n + SSJ_PADDING + 1);
	const char *m, *end;

	assert_non_null(buf);
	memcpy(buf, text, n);
	/* the test texts hold no brace inside strings */
	m = strstr(buf, "\"metadata\":") + strlen("\"metadata\":");
	end = strchr(m, '}') + 1;
	*meta = m;
	*metalen = (size_t)(end - m);
	m = strstr(buf, "\"metrics\":") + strlen("\"metrics\":");
	{
		int depth = 0;

		for (end = m;; end++) {
			depth += (*end == '{') - (*end == '}');
			if (depth == 0)
				break;
		}
	}
	*metrics = m;
	*metricslen = (size_t)(end + 1 - m);
	return buf;
}

static void test_jsonl_records_line(void **state)
{
	struct ss_record r;
	struct ss_outcome o;
	struct ss_buf got = SS_BUF_INIT;
	char *line;

	(void)state;
	fx_record_b(&r);
	fx_outcome_of(&o, &r, SS_PHASE_PROFILING, 1);
	o.kind = SS_KIND_RECORDS;
	line = records_line(
		"{\"metadata\":{\"x_request_id\":\"r1\",\"benchmark_phase\":\"profiling\"},"
		"\"metrics\":{\"request_latency\":{\"value\":12.5,\"unit\":\"ms\"},"
		"\"spec_decode_acceptance_length\":{\"value\":9.0,\"unit\":\"ratio\"}, "
		"\"output_token_count\": {\"value\": 40, \"unit\": \"tokens\"}},"
		"\"spec_decode_acceptance\":{}}",
		&o.metadata, &o.metadata_len, &o.metrics, &o.metrics_len);
	jsonl(&got, "p.jsonl", &o);
	assert_string_equal(got.data,
		"{\"source\":{\"input\":\"p.jsonl\",\"line\":1,\"kind\":\"records\"},"
		"\"metadata\":{\"x_request_id\":\"r1\",\"benchmark_phase\":\"profiling\"},"
		"\"metrics\":{\"request_latency\":{\"value\":12.5,\"unit\":\"ms\"},"
		"\"output_token_count\":{\"value\": 40, \"unit\": \"tokens\"},"
		"\"spec_decode_acceptance_length\":{\"value\":1.6666666666666665,\"unit\":\"ratio\"},"
		"\"spec_decode_draft_acceptance_rate\":{\"value\":16.666666666666664,\"unit\":\"%\"},"
		"\"spec_decode_accepted_per_verified\":{\"value\":0.3333333333333333,\"unit\":\"ratio\"},"
		"\"spec_decode_steps\":{\"value\":3,\"unit\":\"count\"},"
		"\"spec_decode_accepted_draft_tokens\":{\"value\":2,\"unit\":\"tokens\"},"
		"\"spec_decode_draft_tokens\":{\"value\":12,\"unit\":\"tokens\"}},"
		"\"spec_decode_acceptance\":{\"engine\":\"vllm\",\"mean_acceptance_length\":1.6666666666666665,"
		"\"draft_acceptance_rate\":0.16666666666666666,"
		"\"acceptance_histogram\":{\"0\":1,\"1\":2},"
		"\"num_accepted_draft_tokens\":2,\"num_draft_tokens\":12,\"num_spec_steps\":3,"
		"\"num_spec_tokens\":4},"
		"\"spec_decode_status\":\"ok\"}\n");
	free(line);
	ss_record_release(&r);

	/* a failed request: its own metrics, without spec-decode ones */
	fx_outcome_status(&o, SS_ST_ERROR, SS_PHASE_PROFILING, SS_KIND_RECORDS, NULL);
	line = records_line(
		"{\"metadata\":{\"benchmark_phase\":\"profiling\"},"
		"\"metrics\":{\"request_latency\":{\"value\":1,\"unit\":\"ms\"},"
		"\"spec_decode_steps\":{\"value\":3,\"unit\":\"count\"}},\"error\":{}}",
		&o.metadata, &o.metadata_len, &o.metrics, &o.metrics_len);
	jsonl(&got, "p.jsonl", &o);
	assert_string_equal(got.data,
		"{\"source\":{\"input\":\"p.jsonl\",\"line\":1,\"kind\":\"records\"},"
		"\"metadata\":{\"benchmark_phase\":\"profiling\"},"
		"\"metrics\":{\"request_latency\":{\"value\":1,\"unit\":\"ms\"}},"
		"\"spec_decode_status\":\"error\",\"spec_decode_reason\":\"the request failed\"}\n");
	free(line);
	ss_buf_release(&got);
}

/* SPEC 4.4's model after source; SPEC 8.1: a line read back is kept as is. */
static void test_jsonl_model_and_verbatim(void **state)
{
	static const char line[] = "{\"source\":{\"input\":\"a\",\"line\":1,\"kind\":\"sse\"},"
				   "\"spec_decode_status\":\"no_stats\", \"x\":1}";
	struct ss_outcome o;
	struct ss_buf got = SS_BUF_INIT;

	(void)state;
	fx_outcome_status(&o, SS_ST_NO_STATS, SS_PHASE_PROFILING, SS_KIND_SSE, "none");
	o.model = "org/m\"1";
	o.model_len = strlen(o.model);
	jsonl(&got, "s.sse", &o);
	assert_string_equal(got.data,
		"{\"source\":{\"input\":\"s.sse\",\"line\":1,\"kind\":\"sse\"},"
		"\"model\":\"org/m\\\"1\","
		"\"spec_decode_status\":\"no_stats\",\"spec_decode_reason\":\"none\"}\n");
	ss_buf_reset(&got);
	o.verbatim = line;
	o.verbatim_len = strlen(line);
	jsonl(&got, "other", &o);
	assert_string_equal(got.data, "{\"source\":{\"input\":\"a\",\"line\":1,\"kind\":\"sse\"},"
				      "\"spec_decode_status\":\"no_stats\", \"x\":1}\n");
	ss_buf_release(&got);
}

static void test_json_histogram_uncapped(void **state)
{
	static const int64_t h[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1};
	struct ss_agg a;
	struct ss_buf got = SS_BUF_INIT;

	(void)state;
	agg_hist(&a, h, 12);
	ss_report_json(&got, &a, NULL, NULL, "0.1.0");
	/* every non-zero bucket, beyond 8 too; the empty bucket 10 is left out */
	assert_non_null(strstr(got.data, "    \"8\": 1,\n    \"9\": 1,\n    \"11\": 1\n  }\n}\n"));
	assert_null(strstr(got.data, "\"10\""));
	ss_buf_release(&got);
	ss_agg_release(&a);
}

/* With allocations failing, every writer sets `failed` and leaks nothing. */
static void test_out_of_memory(void **state)
{
	struct ss_agg a;
	struct ss_record r;
	struct ss_outcome o;
	struct ssj_parser *p = ssj_parser_new();
	bool done = false;

	(void)state;
	assert_non_null(p);
	agg_ab(&a);
	fx_record_a(&r);
	fx_outcome_of(&o, &r, SS_PHASE_PROFILING, 1);
	for (uint64_t n = 1; !done && n < 200; n++) {
		struct ss_buf b = SS_BUF_INIT;

		ss_alloc_fail_at(n, 1);
		ss_report_json(&b, &a, NULL, NULL, "0.1.0");
		ss_report_csv(&b, &a, NULL, NULL);
		ss_report_table(&b, &a, NULL, NULL, true, true);
		ss_report_jsonl(&b, p, "x", &o);
		ss_alloc_fail_at(0, 0);
		done = !b.failed;
		ss_buf_release(&b);
	}
	assert_true(done);
	ss_record_release(&r);
	ss_agg_release(&a);
	ssj_parser_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_utf8),
		cmocka_unit_test(test_table_ascii),
		cmocka_unit_test(test_table_color),
		cmocka_unit_test(test_histogram_lines),
		cmocka_unit_test(test_table_zero_step_only),
		cmocka_unit_test(test_csv_ab),
		cmocka_unit_test(test_csv_sections),
		cmocka_unit_test(test_json_full),
		cmocka_unit_test(test_json_ab),
		cmocka_unit_test(test_json_empty),
		cmocka_unit_test(test_jsonl_ok),
		cmocka_unit_test(test_jsonl_zero_step),
		cmocka_unit_test(test_jsonl_malformed),
		cmocka_unit_test(test_jsonl_records_line),
		cmocka_unit_test(test_jsonl_model_and_verbatim),
		cmocka_unit_test(test_json_histogram_uncapped),
		cmocka_unit_test(test_out_of_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
