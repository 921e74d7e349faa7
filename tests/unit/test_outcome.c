/*
 * test_outcome.c - an outcome's lasting views kept in an arena and pointed
 * back (model/outcome.h): the values are written out here by hand, the
 * sources overwritten before the views are restored (as the processor's
 * buffers are by its next request).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/outcome.h"

static void test_keep_and_restore(void **state)
{
	struct ss_outcome_arena a;
	struct ss_outcome o[3];
	int64_t hist[3] = {5, 0, 7};
	int64_t by_len[4] = {1, 1, 3, 2};
	char engine[] = "a-long-engine-name-over-the-inline-limit";
	char input[] = "dir/run.jsonl";
	char model[] = "m\0x";   /* a model name may hold a NUL: its length counts */
	struct ss_record rec;

	(void)state;
	memset(o, 0, sizeof(o));
	ss_outcome_arena_init(&a);
	/* a text of 3 bytes first: the numbers after it must still be aligned */
	o[0].input = "abc";
	o[0].input_len = 3;
	o[0].metadata = "{}";
	o[0].metadata_len = 2;
	assert_true(ss_outcome_arena_keep(&a, &o[0]));
	o[1].hist = hist;
	o[1].hist_len = 3;
	o[1].by_len = by_len;
	o[1].by_len_len = 4;
	o[1].engine_long = engine;
	o[1].model = model;
	o[1].model_len = 3;
	o[1].record = &rec;
	o[1].verbatim = "x";
	o[1].verbatim_len = 1;
	assert_true(ss_outcome_arena_keep(&a, &o[1]));
	o[2].input = input;
	o[2].input_len = 13;
	assert_true(ss_outcome_arena_keep(&a, &o[2]));

	/* kept: every view NULL, the lengths as they were */
	for (int i = 0; i < 3; i++) {
		assert_null(o[i].hist);
		assert_null(o[i].by_len);
		assert_null(o[i].engine_long);
		assert_null(o[i].input);
		assert_null(o[i].model);
		assert_null(o[i].record);
		assert_null(o[i].metadata);
		assert_null(o[i].verbatim);
	}
	assert_int_equal(o[1].hist_len, 3);
	assert_int_equal(o[0].metadata_len, 2);

	/* the sources die */
	memset(hist, 0x55, sizeof(hist));
	memset(by_len, 0x55, sizeof(by_len));
	memset(engine, 'z', sizeof(engine) - 1);
	memset(input, 'z', sizeof(input) - 1);
	memset(model, 'z', sizeof(model));

	for (int i = 0; i < 3; i++)
		ss_outcome_arena_restore(&a, &o[i]);
	assert_string_equal(o[0].input, "abc");
	assert_null(o[0].hist);
	assert_null(o[0].metadata);
	assert_non_null(o[1].hist);
	assert_int_equal((uintptr_t)o[1].hist % sizeof(int64_t), 0);
	assert_int_equal(o[1].hist[0], 5);
	assert_int_equal(o[1].hist[1], 0);
	assert_int_equal(o[1].hist[2], 7);
	assert_int_equal((uintptr_t)o[1].by_len % sizeof(int64_t), 0);
	assert_int_equal(o[1].by_len[0], 1);
	assert_int_equal(o[1].by_len[2], 3);
	assert_int_equal(o[1].by_len[3], 2);
	assert_string_equal(o[1].engine_long, "a-long-engine-name-over-the-inline-limit");
	assert_memory_equal(o[1].model, "m\0x", 3);
	assert_null(o[1].input);
	assert_null(o[1].record);
	assert_string_equal(o[2].input, "dir/run.jsonl");
	assert_null(o[2].model);

	/* a reset arena keeps nothing of before */
	ss_outcome_arena_reset(&a);
	memset(&o[0], 0, sizeof(o[0]));
	o[0].model = "";
	o[0].model_len = 0;
	assert_true(ss_outcome_arena_keep(&a, &o[0]));
	ss_outcome_arena_restore(&a, &o[0]);
	assert_non_null(o[0].model);   /* an empty name is a name, not none */
	assert_string_equal(o[0].model, "");
	ss_outcome_arena_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keep_and_restore),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
