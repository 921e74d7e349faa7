/*
 * test_log_fixtures.c - the log readers over the fixture logs of
 * testdata/logs/ (every version and deployment prefix, written for this
 * project after the formats' notes), read line by line as a log input is
 * (SPEC 12.1: LF, one CR stripped, colour removed, the first anchor), with
 * a 64 KiB line limit, and the answer files of Spec-Bench's shape (its
 * thirteen categories) and EAGLE's. The expected totals are added up by
 * hand from the fixtures' lines (see the comments).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>

/* |x - y| <= eps (0: the same double) */
#define assert_near(x, y, eps) assert_true(fabs((double)(x) - (double)(y)) <= (eps))

#include "logs/harness.h"
#include "logs/llama_log.h"
#include "logs/sglang_log.h"
#include "logs/vllm_log.h"

#define LINE_CAP 65536

struct proc_sum {
	char name[32];
	uint64_t a, d;
};

struct tally {
	unsigned log_lines, too_long;
	unsigned v_ok, v_bad, v_refused, v_nosteps, v_unknown;
	uint64_t v_a, v_d, v_s;
	struct proc_sum procs[4];
	unsigned nprocs;
	char first_time[48];
	unsigned s_ok, s_skipped, s_bad;
	struct ss_sglang_series series;
	char tags[4][64];
	unsigned ntags;
	unsigned l_blocks, l_drafted, l_bad, l_malformed, l_steps, l_hist;
	uint64_t l_a, l_g, l_prompt, l_eval;
	double l_total_ms;
	struct ss_llama_blocks blocks;
	struct ss_llama_task task;
};

static void add_proc(struct tally *t, const struct ss_log_prefix *pf, const struct ss_vllm_line *v)
{
	char name[32] = "";

	if (pf->proc_len && pf->proc_len < sizeof(name))
		memcpy(name, pf->proc, pf->proc_len);
	for (unsigned i = 0; i < t->nprocs; i++) {
		if (strcmp(t->procs[i].name, name) == 0) {
			t->procs[i].a += v->accepted;
			t->procs[i].d += v->drafted;
			return;
		}
	}
	if (t->nprocs < 4) {
		strcpy(t->procs[t->nprocs].name, name);
		t->procs[t->nprocs].a = v->accepted;
		t->procs[t->nprocs++].d = v->drafted;
	}
}

static void add_task(struct tally *t, const struct ss_llama_task *k)
{
	t->l_blocks++;
	t->l_prompt += k->prompt_tokens;
	t->l_eval += k->eval_tokens;
	t->l_total_ms += k->total_ms;
	if (!k->has_draft)
		return;
	t->l_drafted++;
	t->l_a += k->accepted;
	t->l_g += k->generated;
	t->l_malformed += k->malformed;
	t->l_steps += k->steps_known;
	t->l_hist += k->hist_known;
}

static void one_vllm(struct tally *t, const char *s, size_t n, const struct ss_log_anchor *a)
{
	struct ss_vllm_line *v = malloc(sizeof(*v));
	struct ss_log_prefix pf;

	switch (ss_vllm_line_parse(s + a->tail, n - a->tail, v)) {
	case SS_LOG_OK:
		t->v_ok++;
		t->v_a += v->accepted;
		t->v_d += v->drafted;
		t->v_unknown += v->unknown_items;
		if (v->steps_known)
			t->v_s += v->steps;
		else if (v->drafted)
			t->v_nosteps++;
		ss_log_prefix_parse(s, a->at, &pf);
		add_proc(t, &pf, v);
		if (!t->first_time[0] && pf.time_len && pf.time_len < sizeof(t->first_time))
			memcpy(t->first_time, pf.time, pf.time_len);
		break;
	case SS_LOG_BAD:
		assert_non_null(v->why);
		t->v_bad++;
		break;
	case SS_LOG_REFUSED:
		assert_non_null(v->why);
		t->v_refused++;
		break;
	case SS_LOG_SKIPPED:
		fail_msg("a vLLM line is never skipped");
	}
	free(v);
}

static void one_sglang(struct tally *t, const char *s, size_t n, const struct ss_log_anchor *a)
{
	struct ss_sglang_line g;
	struct ss_log_prefix pf;

	switch (ss_sglang_line_parse(s + a->tail, n - a->tail, &g)) {
	case SS_LOG_OK:
		t->s_ok++;
		ss_sglang_series_add(&t->series, &g);
		ss_log_prefix_parse(s, a->at, &pf);
		if (t->ntags < 4)
			strcpy(t->tags[t->ntags++], pf.tags);
		break;
	case SS_LOG_SKIPPED:
		t->s_skipped++;
		t->log_lines--; /* a server without speculation: not counted */
		break;
	default:
		assert_non_null(g.why);
		t->s_bad++;
	}
}

static void one_line(struct tally *t, char *s, size_t n)
{
	struct ss_log_anchor a;
	const char *why;
	bool done;

	n = ss_log_clean(s, n, s);
	if (ss_log_find_anchor(s, n, &a)) {
		if (a.fmt != SS_LOG_LLAMASLOT)
			t->log_lines++;
		if (a.fmt == SS_LOG_VLLM)
			one_vllm(t, s, n, &a);
		else if (a.fmt == SS_LOG_SGLANG)
			one_sglang(t, s, n, &a);
	}
	if (ss_llama_blocks_feed(&t->blocks, s, n, &t->task, &done, &why) == SS_LOG_BAD) {
		assert_non_null(why);
		t->l_bad++;
	}
	if (done)
		add_task(t, &t->task);
}

/* Read f line by line; a line past LINE_CAP is a bad line, skipped. */
static void read_log(FILE *f, struct tally *t)
{
	char *line = malloc(LINE_CAP);
	size_t n = 0;
	bool over = false;
	int c;

	memset(t, 0, sizeof(*t));
	ss_sglang_series_init(&t->series);
	ss_llama_blocks_init(&t->blocks);
	while ((c = getc(f)) != EOF) {
		if (c == '\n') {
			if (over)
				t->too_long++;
			else
				one_line(t, line, n);
			n = 0;
			over = false;
		} else if (n == LINE_CAP) {
			over = true;
		} else if (!over) {
			line[n++] = (char)c;
		}
	}
	if (over)
		t->too_long++;
	else if (n)
		one_line(t, line, n);
	if (ss_llama_blocks_finish(&t->blocks, &t->task))
		add_task(t, &t->task);
	free(line);
}

static struct tally *read_fixture(const char *name)
{
	const char *top = getenv("SRCDIR");
	char path[4096];
	struct tally *t = malloc(sizeof(*t));

	snprintf(path, sizeof(path), "%s/testdata/logs/%s", top ? top : ".", name);
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	read_log(f, t);
	fclose(f);
	return t;
}

static void test_vllm_fixtures(void **state)
{
	struct tally *t;

	(void)state;
	/* V1d behind docker -t, coloured: 89 + 30 + 0 of 975 + 300 + 150;
	 * S 65 + 20 + 10 (k 15 each) */
	t = read_fixture("vllm_v1d_docker.log");
	assert_true(t->log_lines == 3 && t->v_ok == 3 && t->v_bad == 0);
	assert_true(t->v_a == 119 && t->v_d == 1425 && t->v_s == 95 && t->v_nosteps == 0);
	assert_string_equal(t->procs[0].name, "APIServer");
	assert_string_equal(t->first_time, "2026-12-01T10:00:10.000000100Z");
	free(t);
	/* V1c behind kubectl --timestamps --prefix: S 129 + 20 */
	t = read_fixture("vllm_v1c_kubectl.log");
	assert_true(t->v_ok == 2 && t->v_a == 180 && t->v_d == 447 && t->v_s == 149);
	assert_string_equal(t->first_time, "2026-12-01T10:00:10.000000000Z");
	free(t);
	/* V1b behind compose: no list, so the D 100 line has no steps */
	t = read_fixture("vllm_v1b_compose.log");
	assert_true(t->v_ok == 2 && t->v_a == 40 && t->v_d == 100 && t->v_nosteps == 1);
	assert_string_equal(t->first_time, "2026-12-01T10:00:00.000000000Z");
	free(t);
	/* V1a behind journald (short and short-iso: "+0200" is no RFC 3339
	 * zone, so no time is read) */
	t = read_fixture("vllm_v1a_journald.log");
	assert_true(t->v_ok == 2 && t->v_a == 160 && t->v_d == 407 && t->v_nosteps == 2);
	assert_string_equal(t->first_time, "");
	free(t);
	/* V1c' and a DEBUG location behind srun --label: S 35 / 5 + 20 / 2 */
	t = read_fixture("vllm_v1c2_slurm.log");
	assert_true(t->v_ok == 2 && t->v_a == 21 && t->v_d == 55 && t->v_s == 17);
	assert_true(t->v_nosteps == 0 && t->nprocs == 1);
	assert_string_equal(t->procs[0].name, "");
	free(t);
	/* V0: both refused */
	t = read_fixture("vllm_v0_nohup.log");
	assert_true(t->log_lines == 2 && t->v_refused == 2 && t->v_ok == 0);
	free(t);
	/* two API servers: APIServer 25 + 15 of 3652 + 1724, APIServer_DP1 9 + 7
	 * of 35 + 10; S 913 + 7 + 431 + 5; a fork's item; the Diffusion line
	 * is no anchor */
	t = read_fixture("vllm_two_servers.log");
	assert_true(t->log_lines == 4 && t->v_ok == 4 && t->v_unknown == 1);
	assert_true(t->v_a == 56 && t->v_d == 5421 && t->v_s == 1356);
	assert_int_equal(t->nprocs, 2);
	assert_string_equal(t->procs[0].name, "APIServer");
	assert_true(t->procs[0].a == 40 && t->procs[0].d == 5376);
	assert_string_equal(t->procs[1].name, "APIServer_DP1");
	assert_true(t->procs[1].a == 16 && t->procs[1].d == 45);
	free(t);
	/* truncated, 20 digits, a list that does not parse, binary garbage */
	t = read_fixture("vllm_bad.log");
	assert_true(t->log_lines == 5 && t->v_ok == 1 && t->v_bad == 4);
	free(t);
}

static void test_sglang_fixtures(void **state)
{
	struct tally *t;

	(void)state;
	/* S1, S2 and a line without accept len (skipped, not counted);
	 * prefill lines are no anchor */
	t = read_fixture("sglang_s1_s2.log");
	assert_true(t->log_lines == 2 && t->s_ok == 2 && t->s_skipped == 1);
	assert_near(t->series.last, 2.4, 0);
	assert_string_equal(t->tags[0], "TP0");
	free(t);
	/* S3 with DP groups behind docker -t: the tag sets name the processes */
	t = read_fixture("sglang_s3_dp.log");
	assert_true(t->s_ok == 2 && t->s_bad == 0);
	assert_string_equal(t->tags[0], "DP0 TP0");
	assert_string_equal(t->tags[1], "DP1 TP1");
	/* weighted by #running-req: (2.17 * 8 + 1.80 * 3) / 11 */
	assert_near(t->series.weighted_sum / t->series.running_sum,
			    (2.17 * 8 + 1.80 * 3) / 11.0, 1e-12);
	free(t);
	/* S4 behind kubectl, a fork's logger: buckets 16, 32, 32 */
	t = read_fixture("sglang_s4_kubectl.log");
	assert_true(t->s_ok == 3 && t->s_bad == 0);
	assert_true(t->series.bucket_lines[4] == 1 && t->series.bucket_lines[5] == 2);
	assert_near(t->series.min, 1.0, 0);
	assert_near(t->series.max, 3.05, 0);
	assert_string_equal(t->tags[0], "EP0 TP0");
	assert_string_equal(t->tags[2], "");
	free(t);
	t = read_fixture("sglang_bad.log");
	assert_true(t->log_lines == 3 && t->s_ok == 1 && t->s_bad == 2);
	free(t);
}

static void test_llama_fixtures(void **state)
{
	struct tally *t;

	(void)state;
	/* L3 (S 87, its histogram) and L2 (no mean: no S) with timestamps */
	t = read_fixture("llama_l2_l3_timestamps.log");
	assert_true(t->log_lines == 2 && t->l_blocks == 2 && t->l_drafted == 2 && t->l_bad == 0);
	assert_true(t->l_a == 191 && t->l_g == 297 && t->l_steps == 1 && t->l_hist == 1);
	assert_true(t->l_prompt == 45 && t->l_eval == 239);
	free(t);
	/* L1 and L0: prefix-only lines, unprefixed bodies */
	t = read_fixture("llama_l0_l1.log");
	assert_true(t->log_lines == 2 && t->l_blocks == 2 && t->l_drafted == 2 && t->l_bad == 0);
	assert_true(t->l_a == 1357 && t->l_g == 1504 && t->l_steps == 0);
	assert_true(t->l_prompt == 26 && t->l_eval == 1311);
	free(t);
	/* without a draft model: three baseline requests */
	t = read_fixture("llama_baseline.log");
	assert_true(t->log_lines == 0 && t->l_blocks == 3 && t->l_drafted == 0 && t->l_bad == 0);
	assert_true(t->l_prompt == 60 && t->l_eval == 600);
	assert_near(t->l_total_ms, 6060.0, 0);
	free(t);
	/* L4 behind docker -t with llama.cpp's colours; an echoed anchor is a
	 * bad line; A > G is handed back malformed */
	t = read_fixture("llama_l4_docker.log");
	assert_true(t->log_lines == 3 && t->l_blocks == 2 && t->l_bad == 1);
	assert_true(t->l_steps == 1 && t->l_hist == 1 && t->l_malformed == 1);
	free(t);
}

static void test_long_line(void **state)
{
	struct tally *t = malloc(sizeof(*t));
	FILE *f = tmpfile();
	const char *good = "SpecDecoding metrics: Accepted: 1 tokens, Drafted: 2 tokens\n";

	(void)state;
	assert_non_null(f);
	fputs(good, f);
	/* a 100 MB line holding an anchor: bad, and no more than 64 KiB held */
	fputs("INFO SpecDecoding metrics: Accepted: 1 tokens, ", f);
	char *chunk = malloc(1 << 20);
	memset(chunk, 'x', 1 << 20);
	for (int i = 0; i < 100; i++)
		fwrite(chunk, 1, 1 << 20, f);
	free(chunk);
	fputs("\n", f);
	fputs(good, f);
	rewind(f);
	read_log(f, t);
	fclose(f);
	assert_true(t->too_long == 1 && t->v_ok == 2 && t->v_a == 2);
	free(t);
}

struct harness_tally {
	unsigned ok, malformed, other, categories;
	uint64_t s, a, completion, hist[5];
	double latency;
	char seen[16][24];
};

static void harness_file(const char *name, struct harness_tally *h)
{
	const char *top = getenv("SRCDIR");
	char path[4096];
	struct ssj_parser *p = ssj_parser_new();
	struct ss_harness_req *o = malloc(sizeof(*o));
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	memset(h, 0, sizeof(*h));
	snprintf(path, sizeof(path), "%s/testdata/logs/%s", top ? top : ".", name);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	while ((n = getline(&line, &cap, f)) > 0) {
		char *text = calloc(1, (size_t)n + SSJ_PADDING);
		memcpy(text, line, (size_t)n);
		assert_int_equal(ssj_open(p, text, (size_t)n), SSJ_OK);
		enum ss_harness_status st = ss_harness_visit(p, o);
		if (st == SS_HARNESS_OK) {
			h->ok++;
			h->s += o->steps;
			h->a += o->accepted;
			h->completion += o->completion_tokens;
			h->latency += o->latency_s;
			for (size_t j = 0; o->has_hist && j <= o->k && j < 5; j++)
				h->hist[j] += o->hist[j];
			if (o->category_len && h->categories < 16 && o->category_len < 24) {
				memcpy(h->seen[h->categories], o->category, o->category_len);
				h->categories++;
			}
		} else if (st == SS_HARNESS_MALFORMED) {
			h->malformed++;
		} else {
			h->other++;
		}
		ssj_close(p);
		free(text);
	}
	free(line);
	fclose(f);
	free(o);
	ssj_parser_free(p);
}

static void test_harness_fixtures(void **state)
{
	struct harness_tally h;

	(void)state;
	/* question q: [2, 3, 1, 4] and q - 1 ones: S 3 + q, A 6, 9 + q tokens;
	 * over q = 1..13: S 39 + 91, A 78, tokens 117 + 91, H = 91, 13, 13, 13 */
	harness_file("spec_bench_answers.jsonl", &h);
	assert_true(h.ok == 13 && h.malformed == 0 && h.other == 0);
	assert_true(h.s == 130 && h.a == 78 && h.completion == 208);
	assert_true(h.hist[0] == 91 && h.hist[1] == 13 && h.hist[2] == 13 && h.hist[3] == 13 &&
		    h.hist[4] == 0);
	assert_near(h.latency, 13 * 0.75, 1e-9);
	assert_int_equal(h.categories, 13);
	assert_string_equal(h.seen[0], "\"writing\"");
	assert_string_equal(h.seen[12], "\"rag\"");
	/* EAGLE: S 80 + 10 + 100, A 230 + 20 + 0, one line of unequal arrays */
	harness_file("eagle_answers.jsonl", &h);
	assert_true(h.ok == 3 && h.malformed == 1);
	assert_true(h.s == 190 && h.a == 250 && h.completion == 440);
	assert_near(h.latency, 10.0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vllm_fixtures),
		cmocka_unit_test(test_sglang_fixtures),
		cmocka_unit_test(test_llama_fixtures),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_harness_fixtures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
