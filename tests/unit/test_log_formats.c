/*
 * test_log_formats.c - the three log readers on SPEC 12.7's vectors (real
 * captures) and on lines written by hand for every version of the notes:
 * vLLM's interval lines (V1a-V1d, forks, reordered, V0 refused), SGLang's
 * decode batch lines (S1-S4) and llama.cpp's per-task blocks (L0-L4), and
 * bad input counted and named. Expected values are worked out by hand in
 * the comments, never taken from the program.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>

/* |x - y| <= eps (0: the same double) */
#define assert_near(x, y, eps) assert_true(fabs((double)(x) - (double)(y)) <= (eps))

#include "logs/llama_log.h"
#include "logs/sglang_log.h"
#include "logs/vllm_log.h"

static enum ss_log_status vllm(const char *line, struct ss_vllm_line *o)
{
	struct ss_log_anchor a;
	size_t n = strlen(line);

	assert_true(ss_log_find_anchor(line, n, &a));
	assert_int_equal(a.fmt, SS_LOG_VLLM);
	return ss_vllm_line_parse(line + a.tail, n - a.tail, o);
}

static void test_vllm_spec_vectors(void **state)
{
	struct ss_vllm_line o;

	(void)state;
	/* SPEC 12.7: k 15, D 975 = 15 x 65, 1 + 89/65 = 2.369 -> "2.37" */
	assert_int_equal(vllm("(APIServer pid=1) INFO 05-01 14:24:50 [metrics.py:101] SpecDecoding "
			      "metrics: Mean acceptance length: 2.37, Accepted throughput: 8.90 "
			      "tokens/s, Drafted throughput: 97.50 tokens/s, Accepted: 89 tokens, "
			      "Drafted: 975 tokens, Per-position acceptance rate: 0.600, 0.385, "
			      "0.215, 0.108, 0.062, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, "
			      "0.000, 0.000, 0.000, 0.000, Avg Draft acceptance rate: 9.1%",
			      &o),
			 SS_LOG_OK);
	assert_true(o.accepted == 89 && o.drafted == 975);
	assert_int_equal(o.k, 15);
	assert_true(o.steps_known && o.steps == 65);
	assert_int_equal(o.rate[0], 600);
	assert_int_equal(o.rate[1], 385);
	assert_int_equal(o.rate[4], 62);
	assert_int_equal(o.rate[14], 0);
	assert_string_equal(o.mean, "2.37");
	assert_int_equal(o.unknown_items, 0);

	/* V1c (vLLM 0.9.0.1): k 3, D 387 = 3 x 129, 1 + 150/129 = 2.163 */
	assert_int_equal(vllm("INFO 06-06 14:20:34 [metrics.py:86] SpecDecoding metrics: Draft "
			      "acceptance rate: 38.8%, Mean acceptance length: 2.16, Accepted: 150 "
			      "tokens, Drafted: 387 tokens, Per-position acceptance rate: 0.543, "
			      "0.357, 0.264",
			      &o),
			 SS_LOG_OK);
	assert_int_equal(o.k, 3);
	assert_true(o.steps_known && o.steps == 129);
	assert_int_equal(o.rate[2], 264);

	/* D 3652 = 4 x 913, 1 + 25/913 = 1.027 -> "1.03" */
	assert_int_equal(vllm("SpecDecoding metrics: Mean acceptance length: 1.03, Accepted "
			      "throughput: 2.50 tokens/s, Drafted throughput: 365.14 tokens/s, "
			      "Accepted: 25 tokens, Drafted: 3652 tokens, Per-position acceptance "
			      "rate: 0.027, 0.000, 0.000, 0.000, Avg Draft acceptance rate: 0.7%",
			      &o),
			 SS_LOG_OK);
	assert_true(o.steps_known && o.steps == 913);

	/* D 10 is no multiple of k 4: steps unknown, the line still counts */
	assert_int_equal(vllm("SpecDecoding metrics: Mean acceptance length: 1.75, Accepted: 3 "
			      "tokens, Drafted: 10 tokens, Per-position acceptance rate: 0.500, "
			      "0.250, 0.000, 0.000, Avg Draft acceptance rate: 30.0%",
			      &o),
			 SS_LOG_OK);
	assert_true(o.accepted == 3 && o.drafted == 10);
	assert_false(o.steps_known);
}

static void test_vllm_versions(void **state)
{
	struct ss_vllm_line o;

	(void)state;
	/* V1a: trailing ", ", no list: k unknown, so no steps */
	assert_int_equal(vllm("Speculative metrics: Draft acceptance rate: 0.388, Number of "
			      "accepted tokens: 150, Number of draft tokens: 387, ",
			      &o),
			 SS_LOG_OK);
	assert_true(o.accepted == 150 && o.drafted == 387 && !o.has_list && !o.steps_known);
	/* V1b with speculation off: nan%, zero counts */
	assert_int_equal(vllm("INFO 04-02 18:03:41 [metrics.py:53] SpecDecoding metrics: Draft "
			      "acceptance rate: nan%, Accepted: 0 tokens, Drafted: 0 tokens",
			      &o),
			 SS_LOG_OK);
	assert_true(o.accepted == 0 && o.drafted == 0 && !o.steps_known);
	/* V1c': throughputs in the middle; 35 = 5 x 7, 1 + 9/7 = 2.286 */
	assert_int_equal(vllm("SpecDecoding metrics: Draft acceptance rate: 25.7%, Mean "
			      "acceptance length: 2.29, Accepted throughput: 0.03 tokens/s, Drafted "
			      "throughput: 0.13 tokens/s, Accepted: 9 tokens, Drafted: 35 tokens, "
			      "Per-position acceptance rate: 0.571, 0.429, 0.286, 0.000, 0.000",
			      &o),
			 SS_LOG_OK);
	assert_true(o.steps_known && o.steps == 7 && o.k == 5);
	/* reordered, a trailing ",", the mean last */
	assert_int_equal(vllm("SpecDecoding metrics: Accepted: 9 tokens, Per-position acceptance "
			      "rate: 0.571, 0.429, 0.286, 0.000, 0.000, Drafted: 35 tokens, Mean "
			      "acceptance length: 2.29,",
			      &o),
			 SS_LOG_OK);
	assert_true(o.steps_known && o.steps == 7 && o.k == 5 && o.rate[1] == 429);
	/* forks' items (a list value with ", " inside) ignored and counted */
	assert_int_equal(vllm("SpecDecoding metrics: Mean acceptance length: 2.29, Accepted: 9 "
			      "tokens, Drafted: 35 tokens, Per-position acceptance rate: 0.571, "
			      "0.429, 0.286, 0.000, 0.000, Avg Draft acceptance rate: 25.7%, top1: "
			      "[0.5, 0.25], Avg tree nodes per depth: 1.0",
			      &o),
			 SS_LOG_OK);
	assert_int_equal(o.unknown_items, 2);
	assert_true(o.steps_known && o.steps == 7 && o.k == 5);
	/* an empty list (k 0) and a nan mean */
	assert_int_equal(vllm("SpecDecoding metrics: Mean acceptance length: nan, Accepted: 0 "
			      "tokens, Drafted: 0 tokens, Per-position acceptance rate: , Avg Draft "
			      "acceptance rate: nan%",
			      &o),
			 SS_LOG_OK);
	assert_true(o.has_list && o.k == 0 && o.has_mean);
	assert_string_equal(o.mean, "nan");
	/* the printed mean disagrees with D/k: 1 + 150/129 prints 2.16, not 2.17 */
	assert_int_equal(vllm("SpecDecoding metrics: Mean acceptance length: 2.17, Accepted: 150 "
			      "tokens, Drafted: 387 tokens, Per-position acceptance rate: 0.543, "
			      "0.357, 0.264",
			      &o),
			 SS_LOG_OK);
	assert_false(o.steps_known);
	/* V0: cumulative, refused with a note */
	assert_int_equal(vllm("INFO 10-16 19:05:47 metrics.py:367] Speculative metrics: Draft "
			      "acceptance rate: 0.642, System efficiency: 0.598, Number of "
			      "speculative tokens: 3, Number of accepted tokens: 8547, Number of "
			      "draft tokens: 13311, Number of emitted tokens: 10616.",
			      &o),
			 SS_LOG_REFUSED);
	assert_non_null(strstr(o.why, "V0"));
}

static void expect_vllm_bad(const char *tail, const char *why_part)
{
	struct ss_vllm_line o;

	assert_int_equal(ss_vllm_line_parse(tail, strlen(tail), &o), SS_LOG_BAD);
	assert_non_null(o.why);
	if (!strstr(o.why, why_part))
		fail_msg("'%s': reason '%s' lacks '%s'", tail, o.why, why_part);
}

static void test_vllm_bad(void **state)
{
	(void)state;
	expect_vllm_bad("", "no items");
	expect_vllm_bad("Mean acceptance length: 2.37, Accepted: 89 tok", "not an integer");
	expect_vllm_bad("Accepted: 1234567890123456789 tokens, Drafted: 1 tokens", "18 digits");
	expect_vllm_bad("Accepted: 1 tokens, Drafted: 2 tokens, Per-position acceptance rate: "
			"0.600, 0.3x5",
			"three decimals");
	expect_vllm_bad("Accepted: 1 tokens, Drafted: 2 tokens, Per-position acceptance rate: 0.60",
			"three decimals");
	expect_vllm_bad("Accepted: 1 tokens, Drafted: 2 tokens, Per-position acceptance rate: 1.500",
			"above 1");
	expect_vllm_bad("Accepted: 1 tokens, Drafted: 2 tokens, Per-position acceptance rate: , "
			"0.500",
			"not KEY: VALUE");
	expect_vllm_bad("Accepted: 1 tokens, Accepted: 1 tokens, Drafted: 2 tokens", "twice");
	expect_vllm_bad("Accepted: 3 tokens, Drafted: 2 tokens", "more accepted");
	expect_vllm_bad("Accepted: 3 tokens", "no draft-token count");
	expect_vllm_bad("Drafted: 3 tokens", "no accepted-token count");
	expect_vllm_bad("Accepted: -1 tokens, Drafted: 2 tokens", "not an integer");
	expect_vllm_bad("garbage, Accepted: 1 tokens, Drafted: 2 tokens", "not KEY: VALUE");
	expect_vllm_bad("Accepted: 1 tokens, , Drafted: 2 tokens", "not KEY: VALUE");
	expect_vllm_bad("Mean acceptance length: 2.3, Accepted: 1 tokens, Drafted: 2 tokens",
			"two decimals");
	expect_vllm_bad("Accepted: 1 tokens, Drafted: 2 tokens, Avg Draft acceptance rate: 50%",
			"percentage");
	expect_vllm_bad("\x01\xff\x80" "Accepted\x00: 1", "not KEY: VALUE");

	/* 257 positions: more than the reader keeps */
	char *long_list = malloc(128 + 257 * 7);
	strcpy(long_list, "Accepted: 1 tokens, Drafted: 257 tokens, Per-position acceptance rate: ");
	for (int i = 0; i < 257; i++)
		strcat(long_list, i ? ", 0.000" : "0.000");
	expect_vllm_bad(long_list, "longer than 256");
	free(long_list);
}

static void test_vllm_tally(void **state)
{
	struct ss_vllm_line *o = malloc(sizeof(*o));
	struct ss_vllm_tally *t = malloc(sizeof(*t));
	double r;
	static const char *const lines[] = {
		"SpecDecoding metrics: Mean acceptance length: 2.37, Accepted: 89 tokens, Drafted: "
		"975 tokens, Per-position acceptance rate: 0.600, 0.385, 0.215, 0.108, 0.062, "
		"0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000",
		"SpecDecoding metrics: Mean acceptance length: 2.50, Accepted: 30 tokens, Drafted: "
		"300 tokens, Per-position acceptance rate: 0.750, 0.400, 0.200, 0.100, 0.050, "
		"0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 0.000",
		"SpecDecoding metrics: Draft acceptance rate: nan%, Accepted: 0 tokens, Drafted: 0 "
		"tokens",
		"SpecDecoding metrics: Mean acceptance length: 2.50, Accepted: 6 tokens, Drafted: "
		"12 tokens, Per-position acceptance rate: 0.750, 0.500, 0.250",
	};

	(void)state;
	ss_vllm_tally_init(t);
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(vllm(lines[i], o), SS_LOG_OK);
		ss_vllm_tally_add(t, o);
	}
	/* A 89 + 30 + 6, D 975 + 300 + 12, S 65 + 20 + 4; the D = 0 line adds
	 * nothing; k the longest list (15), the k 3 line counts 0 beyond 3 */
	assert_true(t->lines == 4 && t->unpinned == 0 && t->k == 15);
	assert_true(t->accepted == 125 && t->drafted == 1287 && t->steps == 89);
	/* rate_0 = (600 x 65 + 750 x 20 + 750 x 4) / (1000 x 89) */
	assert_true(ss_vllm_tally_rate(t, 0, &r));
	assert_near(r, 57000.0 / 89000.0, 0);
	/* rate_2 = (215 x 65 + 200 x 20 + 250 x 4) / 89000 */
	assert_true(ss_vllm_tally_rate(t, 2, &r));
	assert_near(r, 18975.0 / 89000.0, 0);
	/* rate_4 = (62 x 65 + 50 x 20) / 89000: the k 3 line has no position 4 */
	assert_true(ss_vllm_tally_rate(t, 4, &r));
	assert_near(r, 5030.0 / 89000.0, 0);
	assert_false(ss_vllm_tally_rate(t, 15, &r));
	/* a line whose steps are not pinned: the family has no steps */
	assert_int_equal(vllm("SpecDecoding metrics: Accepted: 3 tokens, Drafted: 10 tokens, "
			      "Per-position acceptance rate: 0.500, 0.250, 0.000, 0.000",
			      o),
			 SS_LOG_OK);
	ss_vllm_tally_add(t, o);
	assert_true(t->unpinned == 1 && t->accepted == 128 && t->drafted == 1297);
	/* SPEC 12.2: the rates stay those of the lines with steps (S 89) */
	assert_true(t->steps == 89);
	assert_true(ss_vllm_tally_rate(t, 0, &r));
	assert_near(r, 57000.0 / 89000.0, 0);
	free(o);
	free(t);
}

static enum ss_log_status sglang(const char *line, struct ss_sglang_line *o)
{
	struct ss_log_anchor a;
	size_t n = strlen(line);

	assert_true(ss_log_find_anchor(line, n, &a));
	assert_int_equal(a.fmt, SS_LOG_SGLANG);
	return ss_sglang_line_parse(line + a.tail, n - a.tail, o);
}

static void test_sglang(void **state)
{
	struct ss_sglang_line o;
	struct ss_sglang_series s;

	(void)state;
	ss_sglang_series_init(&s);
	/* SPEC 12.7 (S4): accept len 3.05 with 24 running, bucket 16 */
	assert_int_equal(sglang("[2026-07-21 15:00:13 TP0 EP0] Decode batch, #running-req: 24, "
				"#token: 233600, token usage: 0.66, accept len: 3.05, accept rate: "
				"0.68, npu graph: True, gen throughput (token/s): 239.06, "
				"#queue-req: 2",
				&o),
			 SS_LOG_OK);
	assert_true(o.running == 24);
	assert_string_equal(o.accept_txt, "3.05");
	assert_true(ss_log_bucket(o.running) == 16);
	ss_sglang_series_add(&s, &o);
	/* S3: ". " and a trailing ", "; accept rate is never read */
	assert_int_equal(sglang("[2025-10-22 10:27:57 TP0] Decode batch. #running-req: 1, #token: "
				"186, token usage: 0.00, accept len: 2.00, accept rate: ??, cuda "
				"graph: True, gen throughput (token/s): 178.86, #queue-req: 0, ",
				&o),
			 SS_LOG_OK);
	assert_true(o.running == 1);
	ss_sglang_series_add(&s, &o);
	/* an iteration number, a custom logger prefix */
	assert_int_equal(sglang("2025-12-04 20:35:53 INFO 151972 [scheduler_metrics_mixin.py:287] "
				"Decode batch [120], #running-req: 17, accept len: 2.50",
				&o),
			 SS_LOG_OK);
	ss_sglang_series_add(&s, &o);
	/* lines 3; mean (3.05 + 2 + 2.5) / 3; weighted (3.05*24 + 2*1 + 2.5*17) / 42 */
	assert_true(s.lines == 3);
	assert_near(s.sum / 3.0, 7.55 / 3.0, 1e-12);
	assert_near(s.weighted_sum / s.running_sum, 117.7 / 42.0, 1e-12);
	assert_near(s.min, 2.0, 0);
	assert_near(s.max, 3.05, 0);
	assert_near(s.last, 2.5, 0);
	assert_true(s.bucket_lines[4] == 2 && s.bucket_lines[0] == 1 && s.bucket_lines[1] == 0);
	assert_near(s.bucket_sum[4], 5.55, 1e-12);

	/* no accept len: a server without speculation, skipped */
	assert_int_equal(sglang("Decode batch. #running-req: 3, #token: 10, #queue-req: 0", &o),
			 SS_LOG_SKIPPED);
	/* bad lines, each named */
	assert_int_equal(sglang("Decode batch. #running-req: x, accept len: 2.00", &o), SS_LOG_BAD);
	assert_non_null(strstr(o.why, "#running-req"));
	assert_int_equal(sglang("Decode batch. #running-req: 2, accept len: 2.0", &o), SS_LOG_BAD);
	assert_int_equal(sglang("Decode batch. #token: 2, accept len: 2.00", &o), SS_LOG_BAD);
	assert_non_null(strstr(o.why, "no #running-req"));
	assert_int_equal(sglang("Decode batches are printed every 40 passes", &o), SS_LOG_BAD);
	assert_int_equal(sglang("Decode batch. #running-req 2, accept len: 2.00", &o), SS_LOG_BAD);
	assert_int_equal(sglang("Decode batch. #running-req: 2, accept len: 2.00, accept len: 2.00",
				&o),
			 SS_LOG_BAD);
	assert_int_equal(sglang("Decode batch. #running-req: 12345678901234567890, accept len: "
				"2.00",
				&o),
			 SS_LOG_BAD);
	assert_non_null(strstr(o.why, "18 digits"));
	assert_int_equal(sglang("Decode batch [12, #running-req: 2, accept len: 2.00", &o),
			 SS_LOG_BAD);
	assert_int_equal(sglang("Decode batch.", &o), SS_LOG_BAD);
}

/* Feed lines; collect up to 8 finished blocks (and the end's). */
struct fed {
	struct ss_llama_task t[8];
	size_t n;
	unsigned ok, bad, skipped;
	const char *why;
};

static void feed(struct fed *f, const char *const *lines, size_t nlines)
{
	struct ss_llama_blocks b;
	struct ss_llama_task *t = malloc(sizeof(*t));

	memset(f, 0, sizeof(*f));
	ss_llama_blocks_init(&b);
	for (size_t i = 0; i < nlines; i++) {
		bool done;
		const char *why;
		enum ss_log_status st =
			ss_llama_blocks_feed(&b, lines[i], strlen(lines[i]), t, &done, &why);
		if (st == SS_LOG_OK)
			f->ok++;
		else if (st == SS_LOG_BAD) {
			f->bad++;
			f->why = why;
			assert_non_null(why);
		} else
			f->skipped++;
		if (done && f->n < 8)
			f->t[f->n++] = *t;
	}
	if (ss_llama_blocks_finish(&b, t) && f->n < 8)
		f->t[f->n++] = *t;
	free(t);
}

#define FEED(f, ...)                                                       \
	do {                                                               \
		static const char *const lines_[] = {__VA_ARGS__};         \
		feed(f, lines_, sizeof(lines_) / sizeof(lines_[0]));       \
	} while (0)

#define PFX "0.06.896.015 I slot print_timing: id  1 | task 0 | "

static void test_llama_l3(void **state)
{
	struct fed *f = malloc(sizeof(*f));

	(void)state;
	/* SPEC 12.7: A 167, G 259, S 87 (the only S), n = 70, 55, 42 */
	FEED(f,
	     PFX "prompt eval time =     120.50 ms /    35 tokens (    3.44 ms per token,   290.46 "
		 "tokens per second)",
	     PFX "       eval time =    2000.00 ms /   201 tokens (    9.95 ms per token,   100.50 "
		 "tokens per second)",
	     PFX "      total time =    2120.50 ms /   236 tokens",
	     PFX "draft acceptance = 0.64479 (  167 accepted /   259 generated), mean acceptance "
		 "length =  2.92, acceptance rate per position = (0.805, 0.632, 0.483)",
	     "0.06.896.057 I statistics     draft-eagle3: #calls(b,g,a) =    1     87     87, #gen "
	     "drafts =     87, #acc drafts =    70, #gen tokens =    259, #acc tokens =   167, "
	     "#mean acc len = 2.92, #acc rate/pos = (0.805, 0.632, 0.483)");
	assert_int_equal(f->n, 1);
	assert_int_equal(f->ok, 4);
	assert_int_equal(f->bad, 0);
	struct ss_llama_task *t = &f->t[0];
	assert_true(t->has_ids && t->slot == 1 && t->task == 0);
	assert_true(t->has_draft && t->accepted == 167 && t->generated == 259);
	assert_true(t->steps_known && t->steps == 87);
	assert_int_equal(t->k, 3);
	assert_true(t->hist_known);
	assert_true(t->hist[0] == 17 && t->hist[1] == 15 && t->hist[2] == 13 && t->hist[3] == 42);
	assert_true(t->has_prompt && t->prompt_tokens == 35);
	assert_near(t->prompt_ms, 120.5, 0);
	assert_true(t->has_eval && t->eval_tokens == 201);
	assert_true(t->has_total);
	assert_near(t->total_ms, 2120.5, 0);
	/* 2000 ms over 200 gaps */
	assert_true(t->has_itl);
	assert_near(t->itl_ms, 10.0, 0);
	free(f);
}

static void test_llama_l4_and_baseline(void **state)
{
	struct fed *f = malloc(sizeof(*f));

	(void)state;
	/* L4 + the trace line: S 13 from "2.85" (1 + 24/13 = 2.846), n = 10, 8, 6
	 * (10/13 = 0.769, 8/13 = 0.615, 6/13 = 0.462), H = 3, 2, 2, 6; then a
	 * baseline block on another slot, then one cut before its total time */
	FEED(f,
	     "slot print_timing: id  0 | task 7 | prompt eval time =      10.00 ms /    10 tokens "
	     "(    1.00 ms per token,  1000.00 tokens per second)",
	     "slot print_timing: id  0 | task 7 |        eval time =     100.00 ms /    38 tokens "
	     "(    2.63 ms per token,   380.00 tokens per second)",
	     "slot print_timing: id  0 | task 7 |       total time =     110.00 ms /    48 tokens",
	     "slot print_timing: id  0 | task 7 |    graphs reused =          3",
	     "slot print_timing: id  0 | task 7 | draft acceptance = 0.63158 (   24 accepted /    "
	     "38 generated), mean len =  2.85",
	     "slot print_timing: id  0 | task 7 |      acc per pos = (0.769, 0.615, 0.462)",
	     "slot print_timing: id 11 | task -1 | prompt eval time =       5.00 ms /     4 tokens "
	     "(    1.25 ms per token,   800.00 tokens per second)",
	     "slot print_timing: id 11 | task -1 |        eval time =      20.00 ms /     1 tokens "
	     "(   20.00 ms per token,    50.00 tokens per second)",
	     "slot print_timing: id 11 | task -1 |       total time =      25.00 ms /     5 tokens",
	     "srv  update_slots: all slots are idle",
	     "slot print_timing: id  2 | task 9 | prompt eval time =       5.00 ms /     4 tokens "
	     "(    1.25 ms per token,   800.00 tokens per second)");
	assert_int_equal(f->n, 3);
	assert_int_equal(f->bad, 0);
	struct ss_llama_task *t = &f->t[0];
	assert_true(t->slot == 0 && t->task == 7 && t->accepted == 24 && t->generated == 38);
	assert_true(t->steps_known && t->steps == 13 && t->k == 3 && t->hist_known);
	assert_true(t->hist[0] == 3 && t->hist[1] == 2 && t->hist[2] == 2 && t->hist[3] == 6);
	assert_true(t->has_itl);
	assert_near(t->itl_ms, 100.0 / 37.0, 0);
	t = &f->t[1];
	assert_true(t->slot == 11 && t->task == -1 && !t->has_draft && t->has_total);
	assert_false(t->has_itl); /* one eval token: no gap */
	t = &f->t[2];
	assert_true(t->slot == 2 && t->task == 9 && t->has_prompt && !t->has_total);
	free(f);
}

static void test_llama_old_builds(void **state)
{
	struct fed *f = malloc(sizeof(*f));

	(void)state;
	/* L1: a prefix-only line, unprefixed timing, the draft line after total */
	FEED(f, "slot print_timing: id  0 | task 5 | ",
	     "prompt eval time =      10.00 ms /    10 tokens (    1.00 ms per token,  1000.00 "
	     "tokens per second)",
	     "       eval time =     100.00 ms /    11 tokens (   10.00 ms per token,   100.00 "
	     "tokens per second)",
	     "      total time =     110.00 ms /    21 tokens",
	     "draft acceptance rate = 0.57576 (  171 accepted /   297 generated)",
	     "srv  log_server_r: request: POST /completion 127.0.0.1 200");
	assert_int_equal(f->n, 1);
	assert_int_equal(f->bad, 0);
	assert_true(f->t[0].slot == 0 && f->t[0].task == 5 && f->t[0].accepted == 171 &&
		    f->t[0].generated == 297 && f->t[0].prompt_tokens == 10 &&
		    f->t[0].eval_tokens == 11);
	assert_false(f->t[0].steps_known); /* no mean: S not pinned */
	assert_near(f->t[0].itl_ms, 10.0, 0);

	/* L0: the draft line is a second prefix-only line, then the unprefixed text */
	FEED(f, "slot print_timing: id  3 | task 12 | ",
	     "prompt eval time =      10.00 ms /    10 tokens (    1.00 ms per token,  1000.00 "
	     "tokens per second)",
	     "      total time =     110.00 ms /    21 tokens",
	     "slot print_timing: id  3 | task 12 | ",
	     "draft acceptance rate = 0.98260 ( 1186 accepted /  1207 generated)");
	assert_int_equal(f->n, 1);
	assert_true(f->t[0].slot == 3 && f->t[0].task == 12 && f->t[0].has_draft &&
		    f->t[0].accepted == 1186 && f->t[0].has_total && !f->t[0].has_eval);
	free(f);
}

static void test_llama_bad(void **state)
{
	struct fed *f = malloc(sizeof(*f));

	(void)state;
	/* A > G: handed back malformed */
	FEED(f, "slot print_timing: id  0 | task 1 | draft acceptance = 1.20000 (   12 accepted / "
		"   10 generated)");
	assert_int_equal(f->n, 1);
	assert_true(f->t[0].malformed);
	/* 25 accepted at mean 1.03 fits 285 step counts: none chosen */
	FEED(f, "slot print_timing: id  0 | task 1 | draft acceptance = 0.00685 (   25 accepted / "
		" 3652 generated), mean len =  1.03");
	assert_true(f->n == 1 && !f->t[0].steps_known && !f->t[0].hist_known);
	/* a draft line outside any block; an echo of the anchor words */
	FEED(f, "draft acceptance rate = 0.57576 (  171 accepted /   297 generated)",
	     "srv  params: prompt = \"what is the draft acceptance of EAGLE?\"");
	assert_int_equal(f->bad, 2);
	assert_int_equal(f->n, 0);
	/* F5 printed with three decimals; a count of 19 digits; a cut list */
	FEED(f, PFX "draft acceptance = 0.645 (  167 accepted /   259 generated)");
	assert_int_equal(f->bad, 1);
	assert_non_null(strstr(f->why, "five decimals"));
	FEED(f, PFX "draft acceptance = 0.64479 (1234567890123456789 accepted /   259 generated)");
	assert_non_null(strstr(f->why, "18 digits"));
	FEED(f, PFX "draft acceptance = 0.64479 (  167 accepted /   259 generated), mean acceptance "
		    "length =  2.92, acceptance rate per position = (0.805, 0.632");
	assert_int_equal(f->bad, 1);
	assert_non_null(strstr(f->why, "position list"));
	FEED(f, PFX "prompt eval time =     120.50 ms /    35 tok");
	assert_int_equal(f->bad, 1);
	FEED(f, "slot print_timing: id  x | task 0 | ");
	assert_int_equal(f->bad, 1);
	free(f);
}

static void test_steps_from_mean(void **state)
{
	uint64_t s = 0;

	(void)state;
	assert_true(ss_log_steps_from_mean(167, "2.92", &s) && s == 87);
	assert_true(ss_log_steps_from_mean(24, " 2.85", &s) && s == 13);
	/* 150 at 2.16: 129 alone (128 prints 2.17, 130 prints 2.15) */
	assert_true(ss_log_steps_from_mean(150, "2.16", &s) && s == 129);
	assert_false(ss_log_steps_from_mean(25, "1.03", &s));
	assert_false(ss_log_steps_from_mean(0, "1.00", &s));
	assert_false(ss_log_steps_from_mean(5, "1.00", &s));
	assert_false(ss_log_steps_from_mean(5, "0.50", &s));
	/* 1 + 10/S = 7.00 needs S = 10/6: no integer */
	assert_false(ss_log_steps_from_mean(10, "7.00", &s));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vllm_spec_vectors),
		cmocka_unit_test(test_vllm_versions),
		cmocka_unit_test(test_vllm_bad),
		cmocka_unit_test(test_vllm_tally),
		cmocka_unit_test(test_sglang),
		cmocka_unit_test(test_llama_l3),
		cmocka_unit_test(test_llama_l4_and_baseline),
		cmocka_unit_test(test_llama_old_builds),
		cmocka_unit_test(test_llama_bad),
		cmocka_unit_test(test_steps_from_mean),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
