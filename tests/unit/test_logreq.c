/*
 * test_logreq.c - llama.cpp task blocks as records (SPEC 12.4): SPEC
 * 12.7's block (A 167, G 259, S 87, H 17, 15, 13, 42; acceptance length
 * 1 + 167/87 = 2.9195402298850572, rate 167/259 = 0.6447876447876448 as
 * SPEC states them), a block whose steps are not pinned, a baseline block
 * (no_stats) and A > G (malformed).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engines/logreq.h"

#define PFX "slot print_timing: id  1 | task 0 | "

/* Feed the lines and an end; the one block they make. */
static void block(const char *const *lines, size_t n, struct ss_llama_task *t)
{
	struct ss_llama_blocks b;
	bool done;
	const char *why;

	ss_llama_blocks_init(&b);
	for (size_t i = 0; i < n; i++) {
		ss_llama_blocks_feed(&b, lines[i], strlen(lines[i]), t, &done, &why);
		assert_false(done);
	}
	assert_true(ss_llama_blocks_finish(&b, t));
}

static void test_spec_block(void **state)
{
	static const char *const lines[] = {
		PFX "prompt eval time =     120.50 ms /    35 tokens (    3.44 ms per token,   290.46 "
		    "tokens per second)",
		PFX "       eval time =    2000.00 ms /   201 tokens (    9.95 ms per token,   100.50 "
		    "tokens per second)",
		PFX "      total time =    2120.50 ms /   236 tokens",
		PFX "draft acceptance = 0.64479 (  167 accepted /   259 generated), mean acceptance "
		    "length =  2.92, acceptance rate per position = (0.805, 0.632, 0.483)"};
	struct ss_llama_task *t = malloc(sizeof(*t));
	struct ss_record r;
	char why[160] = "";

	(void)state;
	block(lines, 4, t);
	ss_record_init(&r);
	assert_int_equal(ss_record_from_llama_task(t, &r, why, sizeof(why)), SS_ST_OK);
	assert_string_equal(r.engine, "llamacpp");
	assert_true(r.num_accepted_draft_tokens == 167 && r.num_draft_tokens == 259);
	assert_true(r.has_steps && r.num_spec_steps == 87);
	assert_true(r.has_spec_tokens && r.num_spec_tokens == 3);
	assert_true(r.has_histogram && r.histogram.len == 4);
	assert_true(r.histogram.v[0] == 17 && r.histogram.v[1] == 15 && r.histogram.v[2] == 13 &&
		    r.histogram.v[3] == 42);
	assert_true(r.has_mean_acceptance_length);
	assert_true(r.mean_acceptance_length == 2.9195402298850572);
	assert_true(r.draft_acceptance_rate == 0.6447876447876448);
	assert_true(r.has_prompt_tokens && r.prompt_tokens == 35);
	assert_true(r.has_completion_tokens && r.completion_tokens == 201);
	ss_record_release(&r);
	free(t);
}

static void test_other_blocks(void **state)
{
	struct ss_llama_task *t = malloc(sizeof(*t));
	struct ss_record r;
	char why[160] = "";

	(void)state;
	ss_record_init(&r);
	/* L2: no mean, so no steps; still ok (drafted > 0), rate 24/38 */
	static const char *const l2[] = {
		PFX "draft acceptance = 0.63158 (   24 accepted /    38 generated)"};
	block(l2, 1, t);
	assert_int_equal(ss_record_from_llama_task(t, &r, why, sizeof(why)), SS_ST_OK);
	assert_false(r.has_steps || r.has_histogram || r.has_mean_acceptance_length);
	assert_true(r.draft_acceptance_rate == 24.0 / 38.0);
	/* a baseline block: no_stats, its tokens kept */
	static const char *const base[] = {
		PFX "prompt eval time =      10.00 ms /    10 tokens (    1.00 ms per token,  1000.00 "
		    "tokens per second)",
		PFX "       eval time =    1000.00 ms /   100 tokens (   10.00 ms per token,   100.00 "
		    "tokens per second)",
		PFX "      total time =    1010.00 ms /   110 tokens"};
	block(base, 3, t);
	assert_int_equal(ss_record_from_llama_task(t, &r, why, sizeof(why)), SS_ST_NO_STATS);
	assert_true(r.has_completion_tokens && r.completion_tokens == 100 && r.prompt_tokens == 10);
	/* A > G */
	static const char *const bad[] = {
		PFX "draft acceptance = 1.20000 (   12 accepted /    10 generated)"};
	block(bad, 1, t);
	assert_int_equal(ss_record_from_llama_task(t, &r, why, sizeof(why)), SS_ST_MALFORMED);
	assert_string_equal(why, "12 accepted of 10 generated draft tokens");
	/* nothing accepted, with a mean of 1.00: no steps (A = 0 pins none) */
	static const char *const zero[] = {
		PFX "draft acceptance = 0.00000 (    0 accepted /    30 generated), mean len =  1.00"};
	block(zero, 1, t);
	assert_int_equal(ss_record_from_llama_task(t, &r, why, sizeof(why)), SS_ST_OK);
	assert_false(r.has_steps);
	assert_true(r.num_draft_tokens == 30 && r.draft_acceptance_rate == 0.0);
	ss_record_release(&r);
	free(t);
}

/* Feed the lines and an end; how many blocks come back, the last in *t. */
static size_t blocks(const char *const *lines, size_t n, struct ss_llama_task *t, size_t *nbad)
{
	struct ss_llama_blocks b;
	struct ss_llama_task *tmp = malloc(sizeof(*tmp));
	size_t got = 0;
	bool done;
	const char *why;

	*nbad = 0;
	ss_llama_blocks_init(&b);
	for (size_t i = 0; i < n; i++) {
		if (ss_llama_blocks_feed(&b, lines[i], strlen(lines[i]), tmp, &done, &why) ==
		    SS_LOG_BAD)
			(*nbad)++;
		if (done) {
			memcpy(t, tmp, sizeof(*t));
			got++;
		}
	}
	if (ss_llama_blocks_finish(&b, tmp)) {
		memcpy(t, tmp, sizeof(*t));
		got++;
	}
	free(tmp);
	return got;
}

static void test_bad_draft_line(void **state)
{
	struct ss_llama_task *t = malloc(sizeof(*t));
	struct ss_record r;
	char why[200] = "";
	size_t nbad;

	(void)state;
	ss_record_init(&r);
	/* a prefixed block whose draft line's mean has three decimals: one
	 * block, malformed (without the rule it was a baseline, no_stats) */
	static const char *const l3[] = {
		PFX "prompt eval time =     120.50 ms /    35 tokens (    3.44 ms per token,   290.46 "
		    "tokens per second)",
		PFX "      total time =    2120.50 ms /   236 tokens",
		PFX "draft acceptance = 0.64479 (  167 accepted /   259 generated), mean len =  2.920"};
	assert_int_equal(blocks(l3, 3, t, &nbad), 1);
	assert_int_equal(nbad, 1);
	assert_int_equal(ss_record_from_llama_task(t, &r, why, sizeof(why)), SS_ST_MALFORMED);
	assert_non_null(strstr(why, "draft line"));
	assert_true(t->first_line == 1 && t->last_line == 3 && t->total_line == 2);
	/* an old build's unprefixed draft line with a cut list, right after the
	 * block's total time: that block is malformed */
	static const char *const l1[] = {
		"slot print_timing: id  0 | task 7 | ",
		"prompt eval time =      10.00 ms /    10 tokens (    1.00 ms per token,  1000.00 "
		"tokens per second)",
		"      total time =      20.00 ms /    20 tokens",
		"draft acceptance rate = 0.50000 (    5 accepted /    10 generated), mean acceptance "
		"length =  1.50, acceptance rate per position = (0.500, 0.0"};
	assert_int_equal(blocks(l1, 4, t, &nbad), 1);
	assert_int_equal(nbad, 1);
	assert_true(t->slot == 0 && t->task == 7);
	assert_int_equal(ss_record_from_llama_task(t, &r, why, sizeof(why)), SS_ST_MALFORMED);
	/* a broken draft line with its own slot prefix after another task's
	 * block: the first block stays a baseline, the second is malformed */
	static const char *const two[] = {
		"slot print_timing: id  0 | task 1 |       total time =      20.00 ms /    20 tokens",
		PFX "draft acceptance = 0.64479 (  167 accepted /   x generated)"};
	assert_int_equal(blocks(two, 2, t, &nbad), 2);
	assert_int_equal(nbad, 1);
	assert_true(t->slot == 1 && t->task == 0);
	assert_int_equal(ss_record_from_llama_task(t, &r, why, sizeof(why)), SS_ST_MALFORMED);
	/* a broken unprefixed draft line outside any block: a bad line, no request */
	static const char *const alone[] = {"draft acceptance = 0.5 (1 accepted / 2 generated)"};
	assert_int_equal(blocks(alone, 1, t, &nbad), 0);
	assert_int_equal(nbad, 1);
	ss_record_release(&r);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec_block),
		cmocka_unit_test(test_other_blocks),
		cmocka_unit_test(test_bad_draft_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
