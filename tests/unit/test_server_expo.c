/*
 * Unit tests of the exposition-text reader (SPEC 10.1) and of the number
 * texts of counters (10.2): good and bad lines, escapes, UTF-8 labels,
 * timestamps, `# time:`, `# EOF`, several snapshots in one text, a page
 * cut mid-line, NaN and infinities on counters, a counter that goes down,
 * a series that disappears, tp_rank, `_created`, inexact values,
 * data-parallel engines. Every text is also read cut into pieces of 1, 2,
 * 3, 7 and 64 bytes and with the template off: the answers must not move.
 * Expected values are worked out by hand in the comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/expo.h"
#include "server/keymap.h"
#include "server/number.h"
#include "util/alloc.h"
#include "util/buf.h"

#define assert_u128(x, y) assert_true((x) == (unsigned __int128)(y))
#define assert_i128(x, y) assert_true((x) == (__int128)(y))

/* What one read gave: the results, the input's counts, the messages. */
struct run {
	struct ss_server_results r;
	struct ss_scrape_stats st;
	char *msgs;
	size_t msgs_len;
	char summary[4096];
};

static void summarize(struct run *x)
{
	struct ss_buf b = SS_BUF_INIT;

	ss_buf_addf(&b, "lines %llu samples %llu snaps %llu bad %llu | %llu %llu %llu |",
		    (unsigned long long)x->st.lines, (unsigned long long)x->st.samples,
		    (unsigned long long)x->st.snapshots, (unsigned long long)x->st.bad_lines,
		    (unsigned long long)x->r.endpoints, (unsigned long long)x->r.snapshots,
		    (unsigned long long)x->r.bad_lines);
	for (size_t i = 0; i < x->r.nfamilies; i++) {
		const struct ss_server_family *f = &x->r.families[i];

		ss_buf_addf(&b, " %s/%s snaps %llu series %llu resets %llu ss %d in %d t %d:%lld %d:%lld"
			    " S %llu D %llu A %lld pos %zu iv %zu g %zu",
			    ss_engine_name(f->row->engine), f->row->counters,
			    (unsigned long long)f->snapshots, (unsigned long long)f->series,
			    (unsigned long long)f->resets, f->since_start, f->inexact, f->has_start,
			    (long long)f->start_ns, f->has_end, (long long)f->end_ns,
			    (unsigned long long)f->steps, (unsigned long long)f->draft_tokens,
			    (long long)f->accepted_tokens, f->npositions, f->nintervals, f->ngauges);
		for (size_t p = 0; p < f->npositions; p++)
			ss_buf_addf(&b, " P%zu=%llu/%llu", p + 1,
				    (unsigned long long)f->positions[p].accepted,
				    (unsigned long long)f->positions[p].drafted);
	}
	snprintf(x->summary, sizeof(x->summary), "%s", b.data ? b.data : "");
	ss_buf_release(&b);
}

/* Read `text` (n bytes) cut in pieces of `piece` bytes, as input "t". */
static void read_text(const char *text, size_t n, size_t piece, bool no_template, size_t max_line,
		      struct run *x)
{
	struct ss_msg msg;
	FILE *out;
	struct ss_server *s;
	struct ss_scrape *sc;
	struct ss_scrape_opts o = {max_line, no_template};

	memset(x, 0, sizeof(*x));
	out = open_memstream(&x->msgs, &x->msgs_len);
	assert_non_null(out);
	ss_msg_init(&msg, out, 1 /* verbose: every bad line told */);
	s = ss_server_new(&msg);
	assert_non_null(s);
	assert_int_equal(ss_server_endpoint(s, "", 0), 0);
	sc = ss_scrape_new(s, 0, "t", &o);
	assert_non_null(sc);
	for (size_t at = 0; at < n; at += piece)
		assert_true(ss_scrape_feed(sc, text + at, n - at < piece ? n - at : piece));
	assert_true(ss_scrape_finish(sc));
	ss_scrape_get_stats(sc, &x->st);
	assert_true(ss_server_finish(s, NULL, false, 0.0, &x->r));
	ss_scrape_free(sc);
	ss_server_free(s);
	fclose(out);
	summarize(x);
}

static void run_release(struct run *x)
{
	ss_server_results_release(&x->r);
	free(x->msgs);
}

/*
 * Read the text whole (template on), then in pieces and with the
 * template off, which must give the same summary and messages.
 */
static void read_all(const char *text, struct run *x)
{
	static const size_t pieces[] = {1, 2, 3, 7, 64};
	size_t n = strlen(text);

	read_text(text, n, n ? n : 1, false, 0, x);
	for (size_t i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
		for (int nt = 0; nt < 2; nt++) {
			struct run y;

			read_text(text, n, pieces[i], nt, 0, &y);
			assert_string_equal(y.summary, x->summary);
			assert_string_equal(y.msgs ? y.msgs : "", x->msgs ? x->msgs : "");
			run_release(&y);
		}
	}
}

static const struct ss_server_family *only(struct run *x)
{
	assert_int_equal(x->r.nfamilies, 1);
	return &x->r.families[0];
}

/* ---- number texts ---- */

static void test_float_syntax(void **state)
{
	/* SPEC 13: NaN, Inf and Infinity in any letter case, with an optional sign */
	static const char *const good[] = {"12", "43.0", "1.23457e+06", "NaN", "+Inf", "-Inf", "Inf",
					   ".5", "5.", "-0", "+3", "1E5", "1e-05", "0.000", "nan",
					   "inf", "+NaN", "Infinity", "-INFINITY", "iNf"};
	static const char *const bad[] = {"+", ".", "e5", "1e", "1e+", "0x10", "1_000", "Infin",
					  "nana", "0x1p3", "infinityy", "--1"};

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_int_equal(ss_server_float_len(good[i], good[i] + strlen(good[i])), strlen(good[i]));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_true(ss_server_float_len(bad[i], bad[i] + strlen(bad[i])) != strlen(bad[i]));
}

static void test_parse_count(void **state)
{
	static const struct {
		const char *text;
		enum ss_count_status st;
		uint64_t v;
		bool inexact;
	} cases[] = {
		{"0", SS_COUNT_OK, 0, false},
		{"-0.0", SS_COUNT_OK, 0, false},
		{"12", SS_COUNT_OK, 12, false},
		{"43.0", SS_COUNT_OK, 43, false},
		{"0043.000", SS_COUNT_OK, 43, false},
		{"1.23457e+06", SS_COUNT_OK, 1234570, false}, /* rounded: see ss_server_count_rounded */
		{"1.234567e+06", SS_COUNT_OK, 1234567, false}, /* 7 */
		{"1e3", SS_COUNT_OK, 1000, false},
		{"120e-1", SS_COUNT_OK, 12, false},
		{"0.0012e4", SS_COUNT_OK, 12, false},           /* 12 x 10^-4 x 10^4 */
		/* SPEC 13: the nearest double: 2^64 - 1 is read as 2^64, out of range */
		{"18446744073709551615", SS_COUNT_RANGE, 0, false},
		{"18446744073709549568", SS_COUNT_OK, UINT64_C(18446744073709549568), true}, /* 2^64 - 2^11 */
		{"9007199254740993", SS_COUNT_OK, 9007199254740992u, true},  /* 2^53 + 1: 2^53 */
		{"12345678901234567890", SS_COUNT_OK, UINT64_C(12345678901234567168), true},
		{"2.5e+06", SS_COUNT_OK, 2500000, false},
		{"nan", SS_COUNT_NONFINITE, 0, false},
		{"-Infinity", SS_COUNT_NONFINITE, 0, false},
		{"9007199254740991", SS_COUNT_OK, 9007199254740991u, false}, /* 2^53 - 1 */
		{"9007199254740992", SS_COUNT_OK, 9007199254740992u, true},  /* 2^53 */
		{"18446744073709551616", SS_COUNT_RANGE, 0, false},          /* 2^64 */
		{"1e20", SS_COUNT_RANGE, 0, false},
		{"1e999999999999", SS_COUNT_RANGE, 0, false},
		{"0e999999999999", SS_COUNT_OK, 0, false},
		{"12.5", SS_COUNT_FRACTION, 0, false},
		{"0.5", SS_COUNT_FRACTION, 0, false},
		{"5e-1", SS_COUNT_FRACTION, 0, false},
		{"1e-999999999", SS_COUNT_OK, 0, false},  /* its nearest double is 0 */
		{"1e-1", SS_COUNT_FRACTION, 0, false},
		{"-1", SS_COUNT_NEGATIVE, 0, false},
		{"NaN", SS_COUNT_NONFINITE, 0, false},
		{"+Inf", SS_COUNT_NONFINITE, 0, false},
		{"-Inf", SS_COUNT_NONFINITE, 0, false},
		{"1.0.0", SS_COUNT_SYNTAX, 0, false},
		{"", SS_COUNT_SYNTAX, 0, false},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 99;
		bool inexact = false;

		assert_int_equal(ss_server_parse_count(cases[i].text, strlen(cases[i].text), &v, &inexact),
				 cases[i].st);
		if (cases[i].st == SS_COUNT_OK) {
			assert_true(v == cases[i].v);
			assert_int_equal(inexact, cases[i].inexact);
		}
	}
	/* %g's rounded print: an exponent and one to six significant digits */
	assert_true(ss_server_count_rounded("1.23457e+06", 11));
	assert_true(ss_server_count_rounded("1e3", 3));
	assert_true(ss_server_count_rounded("0.0012e4", 8));
	assert_false(ss_server_count_rounded("1.234567e+06", 12));
	assert_false(ss_server_count_rounded("1234570", 7));
	assert_false(ss_server_count_rounded("0e+00", 5));
}

/* A text of n bytes: head, then `fill` repeated, then tail (the caller frees). */
static char *long_text(const char *head, char fill, size_t n, const char *tail, size_t *len)
{
	size_t h = strlen(head), t = strlen(tail);
	char *s = malloc(h + n + t + 1);

	assert_non_null(s);
	memcpy(s, head, h);
	memset(s + h, fill, n);
	memcpy(s + h + n, tail, t + 1);
	*len = h + n + t;
	return s;
}

/*
 * Number texts of 128 bytes and more (issue 35): read in a fixed buffer,
 * never through an allocation that could fail and turn a count into "2^64
 * or more"; a long gauge is read too (it was refused from 128 bytes).
 * Every allocation is made to fail around the calls.
 */
static void test_long_number_texts(void **state)
{
	static const struct {
		const char *head;
		char fill;
		size_t n;
		const char *tail;
		enum ss_count_status st;
		uint64_t v;
		bool inexact;
	} cases[] = {
		{"", '0', 200, "12", SS_COUNT_OK, 12, false},             /* leading zeros */
		{"+", '0', 100000, "7", SS_COUNT_OK, 7, false},
		{"1", '0', 200, "e-200", SS_COUNT_OK, 1, false},          /* 10^200 x 10^-200 */
		{"0.", '0', 300, "5e301", SS_COUNT_OK, 5, false},         /* 5 x 10^-301 x 10^301 */
		{"12.", '0', 5000, "1", SS_COUNT_OK, 12, false},      /* 12 + 10^-5001: its nearest double is 12 */
		/* 2^53 + 1 is halfway between 2^53 and 2^53 + 2: ties to even */
		{"9007199254740993.", '0', 1000, "", SS_COUNT_OK, UINT64_C(9007199254740992), true},
		/* a nonzero digit 1,001 places after the point: past the midpoint */
		{"9007199254740993.", '0', 1000, "1", SS_COUNT_OK, UINT64_C(9007199254740994), true},
		{"1", '0', 300, "", SS_COUNT_RANGE, 0, false},            /* 10^300 */
		{"-", '0', 150, "3", SS_COUNT_NEGATIVE, 0, false},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n;
		char *s = long_text(cases[i].head, cases[i].fill, cases[i].n, cases[i].tail, &n);
		uint64_t v = 99;
		bool inexact = false;

		ss_alloc_fail_at(1, 1);
		assert_int_equal(ss_server_parse_count(s, n, &v, &inexact), cases[i].st);
		ss_alloc_fail_at(0, 0);
		if (cases[i].st == SS_COUNT_OK) {
			assert_true(v == cases[i].v);
			assert_int_equal(inexact, cases[i].inexact);
		}
		free(s);
	}
	{
		size_t n;
		double g = 0;
		char *s = long_text("2.5", '0', 200, "", &n);

		assert_true(ss_server_parse_gauge(s, n, &g));
		assert_true(g == 2.5);
		free(s);
		s = long_text("0.", '0', 150, "25e152", &n); /* 25 x 10^-152 x 10^152 */
		assert_true(ss_server_parse_gauge(s, n, &g));
		assert_true(g == 25.0);
		free(s);
		s = long_text("-1", '0', 100000, "e-100000", &n);
		assert_true(ss_server_parse_gauge(s, n, &g));
		assert_true(g == -1.0);
		free(s);
		s = long_text("1", '0', 400, "", &n); /* 10^400: not finite */
		assert_false(ss_server_parse_gauge(s, n, &g));
		free(s);
		assert_false(ss_server_parse_gauge("-Inf", 4, &g));
		assert_false(ss_server_parse_gauge("NaN", 3, &g));
	}
}

/* ---- the reader ---- */

/* A classic page (HELP, TYPE, `_created`), then the page after. */
static const char page_before[] =
	"# HELP vllm:num_requests_running Number of requests in model execution batches.\n"
	"# TYPE vllm:num_requests_running gauge\n"
	"vllm:num_requests_running{engine=\"0\",model_name=\"Qwen/Qwen3-8B\"} 0.0\n"
	"# HELP vllm:spec_decode_num_drafts_total Number of spec decoding drafts.\n"
	"# TYPE vllm:spec_decode_num_drafts_total counter\n"
	"vllm:spec_decode_num_drafts_total{engine=\"0\",model_name=\"Qwen/Qwen3-8B\"} 10.0\n"
	"vllm:spec_decode_num_drafts_created{engine=\"0\",model_name=\"Qwen/Qwen3-8B\"} 1765039200.0\n"
	"vllm:spec_decode_num_draft_tokens_total{engine=\"0\",model_name=\"Qwen/Qwen3-8B\"} 20.0\n"
	"vllm:spec_decode_num_accepted_tokens_total{engine=\"0\",model_name=\"Qwen/Qwen3-8B\"} 10.0\n"
	"vllm:spec_decode_num_accepted_tokens_per_pos_total{engine=\"0\",model_name=\"Qwen/Qwen3-8B\",position=\"0\"} 8.0\n"
	"vllm:spec_decode_num_accepted_tokens_per_pos_total{engine=\"0\",model_name=\"Qwen/Qwen3-8B\",position=\"1\"} 2.0\n";

static const char page_after[] =
	"# HELP vllm:num_requests_running Number of requests in model execution batches.\n"
	"# TYPE vllm:num_requests_running gauge\n"
	"vllm:num_requests_running{engine=\"0\",model_name=\"Qwen/Qwen3-8B\"} 3.0\n"
	"# HELP vllm:spec_decode_num_drafts_total Number of spec decoding drafts.\n"
	"# TYPE vllm:spec_decode_num_drafts_total counter\n"
	"vllm:spec_decode_num_drafts_total{engine=\"0\",model_name=\"Qwen/Qwen3-8B\"} 14.0\n"
	"vllm:spec_decode_num_drafts_created{engine=\"0\",model_name=\"Qwen/Qwen3-8B\"} 1765039200.0\n"
	"vllm:spec_decode_num_draft_tokens_total{engine=\"0\",model_name=\"Qwen/Qwen3-8B\"} 26.0\n"
	"vllm:spec_decode_num_accepted_tokens_total{engine=\"0\",model_name=\"Qwen/Qwen3-8B\"} 13.0\n"
	"vllm:spec_decode_num_accepted_tokens_per_pos_total{engine=\"0\",model_name=\"Qwen/Qwen3-8B\",position=\"0\"} 10.0\n"
	"vllm:spec_decode_num_accepted_tokens_per_pos_total{engine=\"0\",model_name=\"Qwen/Qwen3-8B\",position=\"1\"} 3.0\n";

/* Two pages one after the other, no marker: the repeated series splits them. */
static void test_two_pages(void **state)
{
	char text[4096];
	struct run x;
	const struct ss_server_family *f;

	(void)state;
	snprintf(text, sizeof(text), "%s%s", page_before, page_after);
	read_all(text, &x);
	assert_int_equal(x.st.lines, 22);
	assert_int_equal(x.st.samples, 14);
	assert_int_equal(x.st.snapshots, 2);
	assert_int_equal(x.st.bad_lines, 0);
	f = only(&x);
	/* Δ 4, 6, 3; ΔP 2, 1 (position "0" is 1) */
	assert_u128(f->steps, 4);
	assert_u128(f->draft_tokens, 6);
	assert_i128(f->accepted_tokens, 3);
	assert_int_equal(f->npositions, 2);
	assert_u128(f->positions[0].accepted, 2);
	assert_u128(f->positions[1].accepted, 1);
	assert_true(f->consistent);
	/* H = {4 - 2, 2 - 1, 1} */
	assert_u128(f->histogram[0], 2);
	assert_u128(f->histogram[1], 1);
	assert_u128(f->histogram[2], 1);
	assert_int_equal(f->series, 1);
	run_release(&x);
}

/* A scrape loop's `# time:` lines set each snapshot's time; the page may repeat many times. */
static void test_time_lines(void **state)
{
	struct ss_buf b = SS_BUF_INIT;
	struct run x;
	const struct ss_server_family *f;

	(void)state;
	for (int i = 0; i < 5; i++) {
		ss_buf_addf(&b, "# time: 1765039200.%d5\n", i);
		ss_buf_addf(&b, "vllm:spec_decode_num_drafts_total{engine=\"0\"} %d\n", 10 * i);
		ss_buf_addf(&b, "vllm:spec_decode_num_drafts_total{engine=\"1\"} %d\n", 5 * i);
		ss_buf_adds(&b, "vllm:gpu_cache_usage_perc 0.5\n");
		/* D and A at 0 (SPEC 10.3: no counter missing) */
		ss_buf_adds(&b, "vllm:spec_decode_num_draft_tokens_total{engine=\"0\"} 0\n"
				"vllm:spec_decode_num_accepted_tokens_total{engine=\"0\"} 0\n");
	}
	/* a `# time:` after the last page with nothing after it: no snapshot */
	ss_buf_adds(&b, "# time: 1765039300\n");
	read_all(b.data, &x);
	assert_int_equal(x.st.snapshots, 5);
	f = only(&x);
	/* engines summed: 40 + 20 */
	assert_u128(f->steps, 60);
	assert_int_equal(f->series, 2);
	assert_true(f->has_start && f->has_end);
	assert_int_equal(f->start_ns, 1765039200050000000); /* .05 */
	assert_int_equal(f->end_ns, 1765039200450000000);   /* .45 */
	assert_int_equal(f->nintervals, 4);
	assert_u128(f->intervals[2].steps, 15);
	assert_int_equal(f->intervals[2].start_ns, 1765039200250000000);
	assert_int_equal(f->intervals[2].end_ns, 1765039200350000000);
	run_release(&x);
	ss_buf_release(&b);
}

/* Two `# time:` lines before a page: the later one is its time. */
static void test_time_latest_wins(void **state)
{
	struct run x;
	const struct ss_server_family *f;

	(void)state;
	read_all("# time: 100\n# time: 200.000000001999\nvllm:spec_decode_num_drafts 1\n"
		 "# time: 300\nvllm:spec_decode_num_drafts 3\n",
		 &x);
	f = only(&x);
	assert_int_equal(f->start_ns, 200000000001); /* digits past the ninth dropped */
	assert_int_equal(f->end_ns, 300000000000);
	run_release(&x);
}

/* Without `# time:`, the largest timestamp (ms) of a snapshot is its time. */
static void test_timestamps(void **state)
{
	struct run x;
	const struct ss_server_family *f;

	(void)state;
	read_all("vllm:spec_decode_num_drafts 1 1765039200000\n"
		 "vllm:spec_decode_num_draft_tokens 1 1765039200500\n"
		 "vllm:spec_decode_num_drafts 3 -5\n"
		 "vllm:spec_decode_num_draft_tokens\t3\t1765039201000\n",
		 &x);
	f = only(&x);
	assert_int_equal(x.st.snapshots, 2);
	assert_int_equal(f->start_ns, 1765039200500000000);
	assert_int_equal(f->end_ns, 1765039201000000000);
	assert_u128(f->steps, 2);
	run_release(&x);
}

/*
 * Times that fit nanoseconds in 64 bits are read, later ones make a bad
 * line (docs/BEHAVIOUR.md): a timestamp of at most 9,223,372,036,854 ms
 * either side of 1970, with Prometheus' optional sign; a `# time:` of at
 * most 9,223,372,036.854775807 s, however many leading zeros.
 */
static void test_time_bounds(void **state)
{
	struct run x;
	const struct ss_server_family *f;

	(void)state;
	read_all("vllm:spec_decode_num_drafts 10 +9223372036854\n"        /* 1: read */
		 "vllm:spec_decode_num_drafts 11 9223372036855\n"          /* 2: bad */
		 "vllm:spec_decode_num_drafts 12 -9223372036855\n"         /* 3: bad */
		 "vllm:spec_decode_num_draft_tokens 1 -9223372036854\n"    /* 4: read */
		 "vllm:spec_decode_num_accepted_tokens 1 1"
		 "0000000000000000000000000000000000000000"
		 "00000000000000000000000000000000000000000000000000000000000000000000000000000000"
		 "000000000000000000000000000000\n"                        /* 5: 151 digits, bad */
		 "# time: 9223372036.854775808\n"                          /* 6: bad */
		 "# time: 000000000000009223372037\n"                      /* 7: bad */
		 "# time: 0009223372036.854775807\n"                       /* 8: ends snapshot 1 */
		 "vllm:spec_decode_num_drafts 14\n"
		 "vllm:spec_decode_num_draft_tokens 3\n",
		 &x);
	assert_int_equal(x.st.lines, 10);
	assert_int_equal(x.st.bad_lines, 5);
	assert_int_equal(x.st.samples, 4);
	assert_int_equal(x.st.snapshots, 2);
	f = only(&x);
	/* snapshot 1's time: its largest timestamp, 9223372036854 ms */
	assert_true(f->has_start);
	assert_int_equal(f->start_ns, INT64_C(9223372036854000000));
	assert_true(f->has_end);
	assert_int_equal(f->end_ns, INT64_MAX);
	assert_u128(f->steps, 4);        /* 10 -> 14 */
	assert_u128(f->draft_tokens, 2); /* 1 -> 3 */
	assert_non_null(strstr(x.msgs, "t:2: bad line: a timestamp out of range"));
	assert_non_null(strstr(x.msgs, "t:6: bad line: `# time:` is not followed by Unix seconds"));
	run_release(&x);
}

/* OpenMetrics' `# EOF` ends a page; `# UNIT` and other comments are comments. */
static void test_eof(void **state)
{
	struct run x;

	(void)state;
	read_all("# TYPE vllm:spec_decode_num_drafts counter\n# UNIT x y\n"
		 "vllm:spec_decode_num_drafts_total 1\nvllm:spec_decode_num_drafts_created 1.7e9\n"
		 "# EOF\n# EOF\n"
		 "vllm:spec_decode_num_drafts_total 3\n# EOF",
		 &x);
	assert_int_equal(x.st.snapshots, 2);
	assert_int_equal(x.st.bad_lines, 0); /* a last `# EOF` may lack its line end */
	assert_u128(only(&x)->steps, 2);
	run_release(&x);
}

/* Escapes and UTF-8 in label values; label order and a trailing comma do not make another series. */
static void test_label_escapes(void **state)
{
	struct run x;
	const struct ss_server_family *f;

	(void)state;
	read_all("vllm:spec_decode_num_drafts_total{model_name=\"a\\\"b\\\\c\\nd \xc3\xbc\xe6\xa8\xa1\","
		 "engine=\"0\"} 10\n"
		 "vllm:spec_decode_num_drafts_total{engine=\"0\",model_name=\"a\\\"b\\\\c\\nd "
		 "\xc3\xbc\xe6\xa8\xa1\",} 14\n"
		 "vllm:spec_decode_num_drafts_total{engine=\"0\",model_name=\"a\\\"b\\\\c\\nd \\\xc3\xbc\xe6\xa8\xa1\"} 1\n",
		 &x);
	/* the third spells `\ü` (another escape: SPEC 13 makes the line bad) */
	f = only(&x);
	assert_int_equal(x.st.snapshots, 2);
	assert_int_equal(x.st.bad_lines, 1);
	assert_u128(f->steps, 4); /* 14 - 10 */
	assert_int_equal(f->series, 1);
	run_release(&x);
}

/* Bad lines: counted, each named with its line number, never a stop. */
static void test_bad_lines(void **state)
{
	struct run x;

	(void)state;
	read_all("vllm:spec_decode_num_drafts 1\n"                       /* 1 */
		 "vllm:spec_decode_num_drafts\n"                         /* 2: no value */
		 "vllm:spec_decode_num_drafts{engine=\"0\" 1\n"          /* 3: no } */
		 "vllm:spec_decode_num_drafts{engine=0} 1\n"             /* 4: unquoted */
		 "vllm:spec_decode_num_drafts{engine=\"\xff\"} 1\n"      /* 5: not UTF-8 */
		 "vllm:spec_decode_num_drafts{engine=\"\xc0\xaf\"} 1\n"  /* 6: overlong UTF-8 */
		 "vllm:spec_decode_num_drafts {engine=\"0\"} 1\n"        /* 7: fine (SPEC 13) */
		 "vllm:spec_decode_num_drafts{ engine=\"0\"} 1\n"        /* 8: fine, repeats 7 */
		 "vllm:spec_decode_num_drafts{,} 1\n"                    /* 9 */
		 "vllm:spec_decode_num_drafts{0a=\"1\"} 1\n"             /* 10: label name */
		 "vllm:spec_decode_num_drafts 1 2.5\n"                   /* 11: ts not ms */
		 "vllm:spec_decode_num_drafts 1 2 3\n"                   /* 12 */
		 "vllm:spec_decode_num_drafts 0x10\n"                    /* 13 */
		 "vllm:spec_decode_num_drafts 1abc\n"                    /* 14 */
		 "9lives 1\n"                                           /* 15: name */
		 "{a=\"1\"} 1\n"                                         /* 16 */
		 "# time: yesterday\n"                                   /* 17 */
		 "vllm:spec_decode_num_drafts{a=\"1\"}x 1\n"             /* 18 */
		 "vllm:spec_decode_num_drafts 1 99999999999999999999\n"  /* 19: ts range */
		 "vllm:spec_decode_num_drafts{a=\"unterminated} 1\n"     /* 20 */
		 "\n  \t\n"                                              /* 21, 22: blank */
		 "  vllm:spec_decode_num_drafts   1   \r\n",             /* 23: fine */
		 &x);
	/* line 8 repeats line 7's series: two snapshots (23 is line 1's series, new in the second) */
	assert_int_equal(x.st.lines, 23);
	assert_int_equal(x.st.bad_lines, 17);
	assert_int_equal(x.r.bad_lines, 17);
	assert_int_equal(x.st.samples, 4);
	assert_int_equal(x.st.snapshots, 2);
	assert_non_null(strstr(x.msgs, "specscan: t:2: bad line: no blank between the series and its value"));
	assert_non_null(strstr(x.msgs, "specscan: t:5: bad line: a label value that is not UTF-8"));
	assert_non_null(strstr(x.msgs, "specscan: t:11: bad line: a timestamp that is not integer milliseconds"));
	assert_non_null(strstr(x.msgs, "specscan: t:17: bad line: `# time:` is not followed by Unix seconds"));
	assert_non_null(strstr(x.msgs, "specscan: t:20: bad line: a label value without its closing quote"));
	assert_null(strstr(x.msgs, "t:23:"));
	assert_u128(only(&x)->steps, 0);
	run_release(&x);
}

/* NaN and infinities on a counter are bad samples; on other series they are values. */
static void test_nonfinite(void **state)
{
	struct run x;
	const struct ss_server_family *f;

	(void)state;
	read_all("vllm:spec_decode_num_drafts 10\nvllm:spec_decode_num_draft_tokens 5\n"
		 "vllm:spec_decode_num_drafts NaN\nvllm:spec_decode_num_draft_tokens 6\n"
		 "vllm:spec_decode_num_drafts +Inf\nvllm:spec_decode_num_draft_tokens 7\n"
		 "vllm:e2e_request_latency_seconds_bucket{le=\"+Inf\"} NaN\n"
		 "vllm:spec_decode_num_drafts 12\nvllm:spec_decode_num_draft_tokens 8\n",
		 &x);
	f = only(&x);
	assert_int_equal(x.st.snapshots, 4);
	assert_int_equal(x.st.bad_lines, 2);
	assert_non_null(strstr(x.msgs, "t:3: bad sample: counter value is NaN or infinite"));
	assert_non_null(strstr(x.msgs, "t:5: bad sample: counter value is NaN or infinite"));
	/* the drafts held at 10 through the bad samples: 12 - 10; no reset */
	assert_u128(f->steps, 2);
	assert_u128(f->draft_tokens, 3);
	assert_int_equal(f->resets, 0);
	run_release(&x);
}

/* A counter that goes down (a restart) and a series that disappears. */
static void test_reset_and_gone(void **state)
{
	struct run x;
	const struct ss_server_family *f;

	(void)state;
	read_all("# time: 1\nvllm:spec_decode_num_drafts_total{engine=\"0\"} 100\n"
		 "vllm:spec_decode_num_drafts_total{engine=\"1\"} 50\n"
		 "vllm:spec_decode_num_draft_tokens_total{engine=\"0\"} 0\n"
		 "vllm:spec_decode_num_accepted_tokens_total{engine=\"0\"} 0\n"
		 "# time: 2\nvllm:spec_decode_num_drafts_total{engine=\"0\"} 150\n"
		 "# time: 3\nvllm:spec_decode_num_drafts_total{engine=\"0\"} 20\n"
		 "vllm:spec_decode_num_drafts_total{engine=\"1\"} 10\n"
		 "# time: 4\nvllm:spec_decode_num_drafts_total{engine=\"0\"} 60\n"
		 "vllm:spec_decode_num_drafts_total{engine=\"1\"} 15\n",
		 &x);
	f = only(&x);
	/*
	 * engine 0: 50, 20 (down: a reset), 40; engine 1: not at t=2 (no
	 * value, no reset: SPEC 10.3 diffs the snapshots that hold it), 10
	 * at t=3 below its 50 (a reset: 10), 5. Resets: interval 2 only.
	 */
	assert_u128(f->steps, 125);
	assert_int_equal(f->resets, 1);
	assert_int_equal(f->nintervals, 3);
	assert_u128(f->intervals[0].steps, 50);
	assert_u128(f->intervals[1].steps, 30);
	assert_u128(f->intervals[2].steps, 45);
	run_release(&x);
}

/* SGLang's tensor-parallel ranks and `_created`. */
static void test_tp_rank_created(void **state)
{
	struct run x;
	const struct ss_server_family *f;

	(void)state;
	read_all("sglang:spec_verify_calls_total{model_name=\"m\",tp_rank=\"0\"} 10\n"
		 "sglang:spec_verify_calls_total{model_name=\"m\",tp_rank=\"1\"} 10\n"
		 "sglang:spec_verify_calls_created{model_name=\"m\",tp_rank=\"0\"} 1e9\n"
		 "sglang:generation_tokens_total{model_name=\"m\",tp_rank=\"0\"} 100\n"
		 "sglang:num_requests_total{model_name=\"m\",tp_rank=\"0\"} 3\n"
		 "sglang:spec_verify_calls_total{model_name=\"m\",tp_rank=\"0\"} 30\n"
		 "sglang:spec_verify_calls_total{model_name=\"m\",tp_rank=\"1\"} 30\n"
		 "sglang:spec_verify_calls_created{model_name=\"m\",tp_rank=\"0\"} 1e9\n"
		 "sglang:generation_tokens_total{model_name=\"m\",tp_rank=\"0\"} 180\n"
		 "sglang:num_requests_total{model_name=\"m\",tp_rank=\"0\"} 5\n",
		 &x);
	f = only(&x);
	assert_int_equal(x.st.snapshots, 2);
	/* rank 0: ΔS 20, ΔG 80, ΔR 2: A = 80 - 2 - 20 = 58 */
	assert_u128(f->steps, 20);
	assert_i128(f->accepted_tokens, 58);
	assert_true(f->estimated);
	run_release(&x);
}

/* llama.cpp's %g counters: a value with an exponent and 6 digits is inexact. */
static void test_inexact_page(void **state)
{
	struct run x;
	const struct ss_server_family *f;

	(void)state;
	read_all("# HELP llamacpp:spec_decode_num_drafts_total Speculative: Total speculative decoding verification steps\n"
		 "# TYPE llamacpp:spec_decode_num_drafts_total counter\n"
		 "llamacpp:spec_decode_num_drafts_total 999999\n"
		 "llamacpp:spec_decode_num_drafts_total 1.00001e+06\n",
		 &x);
	f = only(&x);
	assert_true(f->inexact);
	assert_u128(f->steps, 11); /* 1000010 - 999999 */
	run_release(&x);
}

/*
 * SPEC 13: a last line without its line end is read as any other (the
 * drafts 10 then 15: ΔS 5); a page cut inside a label is a bad line.
 * One CR before the line end goes, any other stays the line's.
 */
static void test_cut_pages(void **state)
{
	struct run x;

	(void)state;
	read_all("vllm:spec_decode_num_drafts 10\n# EOF\nvllm:spec_decode_num_drafts 15", &x);
	assert_int_equal(x.st.snapshots, 2);
	assert_int_equal(x.st.bad_lines, 0);
	assert_u128(only(&x)->steps, 5);
	run_release(&x);

	read_all("vllm:spec_decode_num_drafts 10\nvllm:spec_decode_num_drafts{engine=\"", &x);
	assert_int_equal(x.st.bad_lines, 1);
	run_release(&x);

	read_all("vllm:spec_decode_num_drafts 10\n# time: 12", &x);
	assert_int_equal(x.st.bad_lines, 0);
	run_release(&x);

	/* CR LF; a CR of its own; two CRs; a last line's CR without its LF */
	read_all("vllm:spec_decode_num_drafts 10\r\n\r\n"
		 "vllm:spec_decode_num_draft_tokens 20\r\r\n"
		 "# EOF\r\nvllm:spec_decode_num_drafts 15\r\n"
		 "vllm:spec_decode_num_draft_tokens 30\r", &x);
	assert_int_equal(x.st.bad_lines, 3);
	assert_int_equal(x.st.snapshots, 2);
	assert_u128(only(&x)->steps, 5);
	run_release(&x);
}

/* A line over the limit is one bad line, whatever the pieces; the next lines read. */
static void test_overlong(void **state)
{
	struct ss_buf b = SS_BUF_INIT;
	static const size_t pieces[] = {1, 5, 100, 4096};

	(void)state;
	ss_buf_adds(&b, "vllm:spec_decode_num_drafts 1\nvllm:x{a=\"");
	for (int i = 0; i < 300; i++)
		ss_buf_addc(&b, 'x');
	ss_buf_adds(&b, "\"} 1\nvllm:spec_decode_num_drafts 3\n");
	for (size_t i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
		struct run x;

		read_text(b.data, b.len, pieces[i], false, 200, &x);
		assert_int_equal(x.st.lines, 3);
		assert_int_equal(x.st.bad_lines, 1);
		assert_non_null(strstr(x.msgs, "t:2: bad line: a line over the length limit"));
		assert_u128(only(&x)->steps, 2);
		run_release(&x);
	}
	ss_buf_release(&b);
}

/* A byte-order mark at the start; CRLF line ends. */
static void test_bom_crlf(void **state)
{
	struct run x;

	(void)state;
	read_all("\xEF\xBB\xBFvllm:spec_decode_num_drafts 1\r\nvllm:spec_decode_num_drafts 4\r\n", &x);
	assert_int_equal(x.st.bad_lines, 0);
	assert_u128(only(&x)->steps, 3);
	run_release(&x);
}

/*
 * Pages that change between scrapes (a series added, one gone, the order
 * changed): the template must find repeats as the full parse does.
 */
static void test_changing_pages(void **state)
{
	struct run x;
	const struct ss_server_family *f;

	(void)state;
	read_all("a 1\nb 1\nvllm:spec_decode_num_drafts 1\nc 1\n"
		 "vllm:spec_decode_num_draft_tokens 0\nvllm:spec_decode_num_accepted_tokens 0\n"
		 "a 2\nb 2\nvllm:spec_decode_num_drafts 2\nc 2\n"
		 "a 3\nnew 1\nb 3\nvllm:spec_decode_num_drafts 4\nc 3\n" /* one more line */
		 "a 4\nvllm:spec_decode_num_drafts 8\nc 4\n"             /* b gone */
		 "c 5\nvllm:spec_decode_num_drafts 16\na 5\n"            /* reordered */
		 "a 6\nvllm:spec_decode_num_drafts 32\nc 6\n"
		 "a 7\nvllm:spec_decode_num_drafts 64\nc 7\n",
		 &x);
	f = only(&x);
	assert_int_equal(x.st.snapshots, 7);
	assert_u128(f->steps, 63);
	assert_int_equal(f->nintervals, 6);
	run_release(&x);

	/* The same page with only other families' series, many times. */
	read_all("x 1\ny{a=\"1\"} 2\ny{a=\"2\"} 2\nx 1\ny{a=\"1\"} 2\ny{a=\"2\"} 2\n"
		 "x 1\ny{a=\"2\"} 2\ny{a=\"1\"} 2\ny{a=\"1\"} 3\n",
		 &x);
	/* the third page has a="1" twice: a fourth snapshot starts there */
	assert_int_equal(x.st.snapshots, 4);
	assert_int_equal(x.r.nfamilies, 0);
	run_release(&x);
}

/* Nothing of a known family: no families, the snapshots still counted. */
static void test_no_family(void **state)
{
	struct run x;

	(void)state;
	read_all("# HELP up x\n# TYPE up gauge\nup 1\n", &x);
	assert_int_equal(x.r.nfamilies, 0);
	assert_int_equal(x.st.snapshots, 1);
	assert_int_equal(x.r.snapshots, 1);
	assert_int_equal(x.r.endpoints, 1);
	run_release(&x);

	read_all("", &x);
	assert_int_equal(x.st.snapshots, 0);
	assert_int_equal(x.r.endpoints, 0);
	run_release(&x);

	read_all("# HELP only comments\n\n# EOF\n", &x);
	assert_int_equal(x.st.snapshots, 0);
	run_release(&x);
}

/* Every allocation failing in turn while reading a page: false or done, no crash. */
static void test_out_of_memory(void **state)
{
	char text[4096];

	(void)state;
	snprintf(text, sizeof(text), "%s%s%s", page_before, page_after, page_before);
	for (uint64_t n = 1; n < 200; n++) {
		struct ss_server *s;
		struct ss_scrape *sc = NULL;
		struct ss_server_results r;

		ss_alloc_fail_at(n, 1);
		s = ss_server_new(NULL);
		if (s && ss_server_endpoint(s, "", 0) == 0)
			sc = ss_scrape_new(s, 0, "t", NULL);
		if (sc) {
			bool ok = true;

			for (size_t at = 0, len = strlen(text); ok && at < len; at += 50)
				ok = ss_scrape_feed(sc, text + at, len - at < 50 ? len - at : 50);
			if (ok)
				(void)ss_scrape_finish(sc);
		}
		if (s && ss_server_finish(s, NULL, false, 0.0, &r))
			ss_server_results_release(&r);
		ss_scrape_free(sc);
		ss_server_free(s);
		ss_alloc_fail_at(0, 0);
	}
}


/*
 * SPEC 13's rulings on the text grammar: blanks around `{`, `}`, `,`, `=`
 * read as without them; a label name twice is a bad line whatever the
 * metric; NaN, Inf, Infinity in any case are float texts (a counter's
 * NaN is a bad sample, not a bad line); hex is a bad line.
 */
static void test_grammar_rulings(void **state)
{
	struct run x, y;

	(void)state;
	read_all("vllm:spec_decode_num_drafts { engine = \"0\" ,\tm=\"a\" , } 10\n"
		 "# EOF\n"
		 "vllm:spec_decode_num_drafts{engine=\"0\",m=\"a\"} 13\n", &x);
	read_all("vllm:spec_decode_num_drafts{engine=\"0\",m=\"a\"} 10\n"
		 "# EOF\n"
		 "vllm:spec_decode_num_drafts{engine=\"0\",m=\"a\"} 13\n", &y);
	assert_string_equal(x.summary, y.summary);
	assert_u128(only(&x)->steps, 3);
	assert_int_equal(only(&x)->series, 1);
	run_release(&x);
	run_release(&y);

	read_all("up{a=\"1\",a=\"2\"} 1\n"
		 "vllm:spec_decode_num_drafts{a=\"1\",a=\"1\"} 1\n"
		 "vllm:spec_decode_num_drafts nan\n"
		 "vllm:spec_decode_num_drafts -INFINITY\n"
		 "vllm:spec_decode_num_drafts 0x1p3\n"
		 "vllm:spec_decode_num_drafts 7\n", &x);
	assert_int_equal(x.st.bad_lines, 5);
	assert_int_equal(x.st.samples, 3); /* nan, -INFINITY and 7 are samples */
	assert_non_null(strstr(x.msgs, "t:1: bad line: a label name appears twice"));
	assert_non_null(strstr(x.msgs, "t:3: bad sample: counter value is NaN or infinite"));
	assert_u128(only(&x)->steps, 7);
	run_release(&x);
}

/*
 * A page's bare name, then a later page's line of that name, blanks and
 * braces (SPEC 13: blanks may stand before '{'): the line names the series
 * with labels, read so with the template as without it (a fuzz_scrape
 * find: the template took the line for the bare series with the value
 * `{engine="1"} 9`, a bad line). By hand: the bare series 10 -> 13 and
 * {engine="1"} 4 -> 9 give S = 3 + 5 = 8, two series, four samples, no
 * bad line.
 */
static void test_template_bare_name(void **state)
{
	struct run x;

	(void)state;
	read_all("vllm:spec_decode_num_drafts 10\n"
		 "vllm:spec_decode_num_drafts{engine=\"1\"} 4\n"
		 "# EOF\n"
		 "vllm:spec_decode_num_drafts 13\n"
		 "vllm:spec_decode_num_drafts \t{engine=\"1\"} 9\n", &x);
	assert_int_equal(x.st.bad_lines, 0);
	assert_int_equal(x.st.samples, 4);
	assert_int_equal(x.st.snapshots, 2);
	assert_int_equal(only(&x)->series, 2);
	assert_u128(only(&x)->steps, 8);
	run_release(&x);
}

/* The families part of a summary (after the input's and the results' counts). */
static const char *families_part(const struct run *x)
{
	const char *p = strchr(x->summary, '|');

	assert_non_null(p);
	p = strchr(p + 1, '|');
	assert_non_null(p);
	return p;
}

/*
 * A bad line of a known family adds nothing but its count and message
 * (SPEC 5, issue 35): the pages with bad lines give the window of the
 * same pages without them. Here the drafts {x="neg"} and {x="syn"} first
 * have a good value in the second page, so they count from 0 there:
 * ΔS = 10 + 500 + 7 = 517, three series; the llama.cpp family, whose one
 * line is bad, is not listed.
 */
static void test_bad_lines_inert(void **state)
{
	static const char with[] =
		"vllm:spec_decode_num_drafts 100\n"
		"vllm:spec_decode_num_drafts{x=\"neg\"} -5\n"
		"vllm:spec_decode_num_drafts{x=\"syn\"} abc\n"
		"vllm:spec_decode_num_accepted_tokens_per_pos{position=\"0\"} 1.5\n"
		"llamacpp:spec_decode_num_drafts NaN\n"
		"# EOF\n"
		"vllm:spec_decode_num_drafts 110\n"
		"vllm:spec_decode_num_drafts{x=\"neg\"} 500\n"
		"vllm:spec_decode_num_drafts{x=\"syn\"} 7\n"
		"# EOF\n";
	static const char without[] =
		"vllm:spec_decode_num_drafts 100\n"
		"# EOF\n"
		"vllm:spec_decode_num_drafts 110\n"
		"vllm:spec_decode_num_drafts{x=\"neg\"} 500\n"
		"vllm:spec_decode_num_drafts{x=\"syn\"} 7\n"
		"# EOF\n";
	struct run x, y;

	(void)state;
	read_all(with, &x);
	read_all(without, &y);
	assert_int_equal(x.st.bad_lines, 4);
	assert_string_equal(families_part(&x), families_part(&y));
	assert_u128(only(&x)->steps, 517);
	assert_int_equal(only(&x)->series, 3);
	run_release(&x);
	run_release(&y);
}

/*
 * SPEC 10.1: a snapshot ends just before a sample whose series, the name
 * and the label set, already appeared in it, for every metric; SPEC 13:
 * `x_total` and `x` are one series. Series of no family were compared by
 * their text: label order, blanks, a trailing comma, `{}` and `_total`
 * made them differ (departure 5(b) of fuzz_expo_diff's reference).
 */
static void test_repeat_by_series(void **state)
{
	struct run x;

	(void)state;
	read_all("foo_total{a=\"x\"} 1\n"                 /* 1: snapshot 1 */
		 "foo{a=\"x\"} 2\n"                       /* 2: repeats 1: snapshot 2 */
		 "bar 1\n"                                /* 3 */
		 "bar{} 1\n"                              /* 4: repeats 3: snapshot 3 */
		 "baz{b=\"2\",a=\"1\"} 1\n"               /* 5 */
		 "baz{ a = \"1\" ,\tb=\"2\" , } 1\n"      /* 6: repeats 5: snapshot 4 */
		 "qux{a=\"1\"} 1\n"                       /* 7 */
		 "qux{a=\"2\"} 1\n"                       /* 8: another value */
		 "qux{a=\"\\n\"} 1\n"                     /* 9: an escape */
		 "qux{a=\"n\"} 1\n"                       /* 10: not the escape's value */
		 "qux{b=\"1\"} 1\n"                       /* 11: another label name */
		 "quxx{a=\"1\"} 1\n",                     /* 12: another name */
		 &x);
	assert_int_equal(x.st.lines, 12);
	assert_int_equal(x.st.samples, 12);
	assert_int_equal(x.st.bad_lines, 0);
	assert_int_equal(x.st.snapshots, 4);
	run_release(&x);

	/* a bad sample of a family's name made no series, but it is one: the
	 * good sample of it after starts the next snapshot (10 -> 15: ΔS 5) */
	read_all("vllm:spec_decode_num_drafts -1\n"
		 "vllm:spec_decode_num_drafts_total 10\n"
		 "# EOF\n"
		 "vllm:spec_decode_num_drafts 15\n", &x);
	assert_int_equal(x.st.samples, 3);
	assert_int_equal(x.st.bad_lines, 1);
	assert_int_equal(x.st.snapshots, 3);
	assert_u128(only(&x)->steps, 5);
	run_release(&x);

	/* so is a gauge's NaN (no value, but a sample of its series) */
	read_all("sglang:spec_accept_length NaN\n"
		 "sglang:spec_accept_length 2\n", &x);
	assert_int_equal(x.st.samples, 2);
	assert_int_equal(x.st.bad_lines, 0);
	assert_int_equal(x.st.snapshots, 2);
	run_release(&x);
}

/*
 * Bad lines use no part of the series cap: 100,001 distinct series with
 * negative counts, then good drafts on two pages: the drafts are kept.
 */
static void test_bad_lines_no_cap(void **state)
{
	struct ss_buf b = SS_BUF_INIT;
	struct run x;

	(void)state;
	for (int i = 0; i <= SS_SERVER_MAX_SERIES; i++)
		ss_buf_addf(&b, "vllm:spec_decode_num_drafts{i=\"%d\"} -1\n", i);
	ss_buf_addf(&b, "vllm:spec_decode_num_drafts 100\n# EOF\nvllm:spec_decode_num_drafts 112\n");
	assert_false(b.failed);
	read_text(b.data, b.len, b.len, false, 0, &x);
	assert_int_equal(x.st.bad_lines, SS_SERVER_MAX_SERIES + 1);
	assert_u128(only(&x)->steps, 12);
	assert_int_equal(only(&x)->series, 1);
	run_release(&x);
	ss_buf_release(&b);
}

/*
 * No result depends on a hash (issue 35): with every hash equal, every
 * series text and key collides with every other, and the pages still
 * read as they do with the keyed hash. Two pages of a shared server: a
 * model gauge and LoRA series of no family between the vLLM counters.
 */
static void test_hash_collisions(void **state)
{
	static const char text[] =
		"vllm:num_requests_running{model_name=\"m\"} 1\n"
		"vllm:lora_requests_info{running_lora_adapters=\"a\"} 1\n"
		"vllm:lora_requests_info{running_lora_adapters=\"b\"} 1\n"
		"vllm:spec_decode_num_drafts{model_name=\"m\"} 10\n"
		"vllm:spec_decode_num_drafts{model_name=\"n\"} 20\n"
		"vllm:spec_decode_num_draft_tokens{model_name=\"m\"} 30\n"
		"vllm:spec_decode_num_accepted_tokens{model_name=\"m\"} 5\n"
		"vllm:num_requests_running{model_name=\"m\"} 2\n"
		"vllm:lora_requests_info{running_lora_adapters=\"a\"} 1\n"
		"vllm:lora_requests_info{running_lora_adapters=\"b\"} 1\n"
		"vllm:spec_decode_num_drafts{model_name=\"m\"} 14\n"
		"vllm:spec_decode_num_drafts{model_name=\"n\"} 25\n"
		"vllm:spec_decode_num_draft_tokens{model_name=\"m\"} 40\n"
		"vllm:spec_decode_num_accepted_tokens{model_name=\"m\"} 9\n";
	struct run x, y;

	(void)state;
	read_all(text, &x);
	/* two snapshots (the first line again starts the second): ΔS 4 + 5, ΔD 10, ΔA 4 */
	assert_int_equal(x.st.snapshots, 2);
	assert_u128(only(&x)->steps, 9);
	assert_int_equal(only(&x)->resets, 0);
	ss_keymap_collide_for_tests(true);
	read_all(text, &y);
	ss_keymap_collide_for_tests(false);
	assert_string_equal(y.summary, x.summary);
	run_release(&x);
	run_release(&y);
}

/*
 * Out of memory is never "no family's" (issue 35): with one allocation
 * failing (the n-th, once), a read that says it succeeded gives exactly
 * the results of a read without failure; otherwise feed, finish or
 * ss_server_finish says false. Label values with escapes make the reader
 * unescape into its buffer; the third page's new series makes a series
 * after the table exists.
 */
static void test_out_of_memory_not_dropped(void **state)
{
	static const char text[] =
		"vllm:spec_decode_num_drafts{m=\"a\\\\b\"} 10\n"
		"vllm:spec_decode_num_draft_tokens{m=\"a\\\\b\"} 20\n"
		"vllm:spec_decode_num_accepted_tokens{m=\"a\\\\b\"} 5\n"
		"# EOF\n"
		"vllm:spec_decode_num_drafts{m=\"a\\\\b\"} 14\n"
		"vllm:spec_decode_num_draft_tokens{m=\"a\\\\b\"} 26\n"
		"vllm:spec_decode_num_accepted_tokens{m=\"a\\\\b\"} 8\n"
		"vllm:spec_decode_num_drafts{m=\"c\\\"d\"} 3\n"
		"# EOF\n";
	struct run ref;
	uint64_t recovered = 0;

	(void)state;
	read_text(text, strlen(text), strlen(text), false, 0, &ref);
	/* ΔS 4 + 3 (new in the second page: from 0), ΔD 6, ΔA 3 */
	assert_u128(only(&ref)->steps, 7);
	for (uint64_t n = 1; n < 400; n++) {
		struct run x;
		struct ss_server *s;
		struct ss_scrape *sc = NULL;
		bool ok = false, done = false;

		memset(&x, 0, sizeof(x));
		ss_alloc_fail_at(n, 0);
		s = ss_server_new(NULL);
		if (s && ss_server_endpoint(s, "", 0) == 0)
			sc = ss_scrape_new(s, 0, "t", NULL);
		if (sc) {
			ok = true;
			for (size_t at = 0, len = strlen(text); ok && at < len; at += 16)
				ok = ss_scrape_feed(sc, text + at, len - at < 16 ? len - at : 16);
			ok = ok && ss_scrape_finish(sc);
			if (ok)
				ss_scrape_get_stats(sc, &x.st);
			done = ok && ss_server_finish(s, NULL, false, 0.0, &x.r);
		}
		ss_alloc_fail_at(0, 0);
		if (done) {
			recovered++;
			summarize(&x);
			assert_string_equal(x.summary, ref.summary);
			ss_server_results_release(&x.r);
		}
		ss_scrape_free(sc);
		ss_server_free(s);
	}
	assert_true(recovered > 0); /* the sweep went past the run's last allocation */
	run_release(&ref);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_float_syntax),
		cmocka_unit_test(test_parse_count),
		cmocka_unit_test(test_two_pages),
		cmocka_unit_test(test_time_lines),
		cmocka_unit_test(test_time_latest_wins),
		cmocka_unit_test(test_timestamps),
		cmocka_unit_test(test_eof),
		cmocka_unit_test(test_label_escapes),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_nonfinite),
		cmocka_unit_test(test_reset_and_gone),
		cmocka_unit_test(test_tp_rank_created),
		cmocka_unit_test(test_inexact_page),
		cmocka_unit_test(test_cut_pages),
		cmocka_unit_test(test_overlong),
		cmocka_unit_test(test_bom_crlf),
		cmocka_unit_test(test_changing_pages),
		cmocka_unit_test(test_no_family),
		cmocka_unit_test(test_out_of_memory),
		cmocka_unit_test(test_out_of_memory_not_dropped),
		cmocka_unit_test(test_bad_lines_inert),
		cmocka_unit_test(test_grammar_rulings),
		cmocka_unit_test(test_long_number_texts),
		cmocka_unit_test(test_hash_collisions),
		cmocka_unit_test(test_bad_lines_no_cap),
		cmocka_unit_test(test_time_bounds),
		cmocka_unit_test(test_repeat_by_series),
		cmocka_unit_test(test_template_bare_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
