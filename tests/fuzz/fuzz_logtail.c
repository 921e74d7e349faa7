/*
 * fuzz_logtail.c - libFuzzer target: the log readers of SPEC 12 on
 * arbitrary bytes, line by line as a log input is read: each line cleaned,
 * its first anchor found, its tail parsed by that format's reader, every
 * line fed to llama.cpp's block reader, and each line that opens as JSON
 * read as a harness answer line.
 *
 * Oracles beyond "no crash, no leak, no undefined behaviour, no hang":
 *  - cleaning never lengthens a line; the anchor is the one a plain
 *    memmem search finds (the earliest counted one, else the slot
 *    prefix); the prefix's spans lie inside it;
 *  - a vLLM line that parses has A <= D, at most 256 positions, rates of at
 *    most 1.000, and steps only with S x k = D;
 *  - an SGLang line that parses has an accept len that reads back;
 *  - a llama.cpp block with a histogram has sum H = S and sum j H = A, and
 *    steps only with A > 0; malformed exactly when A > G;
 *  - a harness request's histogram sums to its steps and its accepted
 *    tokens (Spec-Bench), and EAGLE's steps never exceed its tokens.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "logs/harness.h"
#include "logs/llama_log.h"
#include "logs/logline.h"
#include "logs/sglang_log.h"
#include "logs/vllm_log.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct state {
	struct ss_llama_blocks blocks;
	struct ss_llama_task task;
	struct ss_vllm_line vllm;
	struct ss_harness_req harness;
	struct ssj_parser *parser;
};

static void check_task(const struct ss_llama_task *t)
{
	CHECK(t->first_line <= t->last_line || !t->last_line);
	if (!t->has_draft) {
		CHECK(!t->steps_known && !t->hist_known);
		return;
	}
	CHECK(t->malformed == (t->accepted > t->generated));
	if (t->steps_known)
		CHECK(t->steps >= 1 && t->accepted > 0);
	if (t->hist_known) {
		uint64_t s = 0, a = 0;
		CHECK(t->steps_known && t->k >= 1 && t->k <= SS_LOG_MAX_POS);
		for (size_t j = 0; j <= t->k; j++) {
			s += t->hist[j];
			a += j * t->hist[j];
		}
		CHECK(s == t->steps && a == t->accepted);
	}
}

static void one_vllm(struct state *st, const char *s, size_t n, const struct ss_log_anchor *a)
{
	struct ss_vllm_line *v = &st->vllm;
	enum ss_log_status r = ss_vllm_line_parse(s + a->tail, n - a->tail, v);

	CHECK(r != SS_LOG_SKIPPED);
	if (r != SS_LOG_OK) {
		CHECK(v->why != NULL);
		return;
	}
	CHECK(v->accepted <= v->drafted && v->k <= SS_LOG_MAX_POS);
	for (size_t i = 0; i < v->k; i++)
		CHECK(v->rate[i] <= 1000);
	if (v->steps_known)
		CHECK(v->k >= 1 && v->steps * v->k == v->drafted && v->steps > 0);
}

static void one_sglang(const char *s, size_t n, const struct ss_log_anchor *a)
{
	struct ss_sglang_line g;
	enum ss_log_status r = ss_sglang_line_parse(s + a->tail, n - a->tail, &g);

	if (r == SS_LOG_BAD)
		CHECK(g.why != NULL);
	if (r == SS_LOG_OK)
		CHECK(g.accept_len >= 0.0 && strlen(g.accept_txt) >= 4);
}

static void one_json(struct state *st, const char *s, size_t n)
{
	char *text;
	struct ss_harness_req *h = &st->harness;

	if (!st->parser || !n || s[0] != '{')
		return;
	text = calloc(1, n + SSJ_PADDING);
	if (!text)
		return;
	memcpy(text, s, n);
	if (ssj_open(st->parser, text, n) == SSJ_OK) {
		enum ss_harness_status r = ss_harness_visit(st->parser, h);
		if (r == SS_HARNESS_MALFORMED || r == SS_HARNESS_UNRECOGNIZED)
			CHECK(h->why != NULL);
		if (r == SS_HARNESS_OK && h->engine == SS_HARNESS_SPEC_BENCH) {
			uint64_t sum = 0, acc = 0;
			CHECK(h->has_hist && h->k < SS_HARNESS_MAX_LEN);
			for (size_t j = 0; j <= h->k; j++) {
				sum += h->hist[j];
				acc += j * h->hist[j];
			}
			CHECK(sum == h->steps && acc == h->accepted && h->steps > 0);
		}
		if (r == SS_HARNESS_OK && h->engine == SS_HARNESS_EAGLE)
			CHECK(h->has_completion && h->completion_tokens == h->steps + h->accepted);
		ssj_close(st->parser);
	}
	free(text);
}

/* The anchor rule the slow way (logline.c scans once for byte pairs). */
static bool ref_anchor(const char *s, size_t n, struct ss_log_anchor *a)
{
	static const char *const counted[] = {"SpecDecoding metrics: ", "Speculative metrics: ",
					      "Decode batch", "draft acceptance"};
	static const enum ss_log_format fmts[] = {SS_LOG_VLLM, SS_LOG_VLLM, SS_LOG_SGLANG,
						  SS_LOG_LLAMACPP};
	const char *best = NULL;

	for (size_t i = 0; i < 4; i++) {
		const char *hit = memmem(s, n, counted[i], strlen(counted[i]));
		if (hit && (!best || hit < best)) {
			best = hit;
			a->fmt = fmts[i];
			a->at = (size_t)(hit - s);
			a->tail = a->at + strlen(counted[i]);
		}
	}
	if (best)
		return true;
	best = memmem(s, n, "slot print_timing: id", 21);
	if (!best)
		return false;
	a->fmt = SS_LOG_LLAMASLOT;
	a->at = (size_t)(best - s);
	a->tail = a->at + 21;
	return true;
}

static void one_line(struct state *st, char *s, size_t n)
{
	struct ss_log_anchor a, want;
	struct ss_log_prefix pf;
	const char *why;
	bool done;
	size_t m = ss_log_clean(s, n, s);

	CHECK(m <= n);
	bool found = ss_log_find_anchor(s, m, &a);
	CHECK(found == ref_anchor(s, m, &want));
	CHECK(!found || (a.fmt == want.fmt && a.at == want.at && a.tail == want.tail));
	if (found) {
		CHECK(a.at < a.tail && a.tail <= m);
		ss_log_prefix_parse(s, a.at, &pf);
		CHECK(!pf.time_len || (pf.time >= s && pf.time + pf.time_len <= s + a.at));
		CHECK(!pf.proc_len || (pf.proc >= s && pf.proc + pf.proc_len <= s + a.at));
		CHECK(strlen(pf.tags) < sizeof(pf.tags));
		if (a.fmt == SS_LOG_VLLM)
			one_vllm(st, s, m, &a);
		else if (a.fmt == SS_LOG_SGLANG)
			one_sglang(s, m, &a);
	}
	enum ss_log_status r = ss_llama_blocks_feed(&st->blocks, s, m, &st->task, &done, &why);
	if (r == SS_LOG_BAD)
		CHECK(why != NULL);
	if (done)
		check_task(&st->task);
	one_json(st, s, m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct state *st = calloc(1, sizeof(*st));
	char *buf = malloc(size + 1);

	if (!st || !buf) {
		free(st);
		free(buf);
		return 0;
	}
	memcpy(buf, data, size);
	static struct ssj_parser *parser; /* one for the process, as a worker has */
	if (!parser)
		parser = ssj_parser_new();
	st->parser = parser;
	ss_llama_blocks_init(&st->blocks);
	size_t start = 0;
	for (size_t i = 0; i <= size; i++) {
		if (i == size || buf[i] == '\n') {
			if (i > start || i < size)
				one_line(st, buf + start, i - start);
			start = i + 1;
		}
	}
	if (ss_llama_blocks_finish(&st->blocks, &st->task))
		check_task(&st->task);
	free(buf);
	free(st);
	return 0;
}
