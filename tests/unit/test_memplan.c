/*
 * test_memplan.c - fitting a run into --memory-limit: the bound is
 * 64 MiB + 64 MiB x threads + 16 x record limit (memplan.h); the expected
 * plans below are worked out by hand from it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/memplan.h"

#define MiB ((uint64_t)1 << 20)

static void test_bound(void **state)
{
	(void)state;
	/* 64 + 64 x 2 + 16 x 256 MiB = 4288 MiB */
	assert_true(ss_mem_bound(2, 256 * MiB) == 4288 * MiB);
	assert_true(ss_mem_bound(1, UINT64_MAX / 2) == UINT64_MAX);
}

static void test_fits(void **state)
{
	struct ss_memplan p;
	uint64_t min;

	(void)state;
	/* Fits as asked: nothing lowered. */
	assert_true(ss_memplan_fit(8192 * MiB, 4, 1, 256 * MiB, &p, &min));
	assert_int_equal(p.threads, 4);
	assert_true(p.max_record == 256 * MiB);
	assert_false(p.threads_lowered || p.record_lowered);
	/* 256 MiB, 2 threads: threads may take (256-64)/2 = 96 MiB, so one
	 * (64 MiB); record limit (256 - 64 - 64) / 16 = 8 MiB. */
	assert_true(ss_memplan_fit(256 * MiB, 2, 1, 256 * MiB, &p, &min));
	assert_int_equal(p.threads, 1);
	assert_true(p.max_record == 8 * MiB);
	assert_true(p.record_lowered && p.threads_lowered);
	/* 1 GiB, 8 threads: (1024-64)/2 = 480 MiB for threads: 7 of them
	 * (448); record limit (1024 - 64 - 448) / 16 = 32 MiB. */
	assert_true(ss_memplan_fit(1024 * MiB, 8, 1, 256 * MiB, &p, &min));
	assert_int_equal(p.threads, 7);
	assert_true(p.max_record == 32 * MiB);
	assert_true(p.record_lowered && p.threads_lowered);
	/* 64 + 128 + 16 = 208 MiB fits in 256 as asked. */
	assert_true(ss_memplan_fit(256 * MiB, 2, 1, 1 * MiB, &p, &min));
	assert_true(p.threads == 2 && p.max_record == 1 * MiB);
	assert_false(p.record_lowered || p.threads_lowered);
}

static void test_too_small(void **state)
{
	struct ss_memplan p;
	uint64_t min;

	(void)state;
	/* The least: one thread and 64-byte records, 128 MiB + 1 KiB. */
	assert_false(ss_memplan_fit(1024, 2, 1, 256 * MiB, &p, &min));
	assert_true(min == 128 * MiB + 1024);
	assert_true(ss_memplan_fit(128 * MiB + 1024, 2, 1, 256 * MiB, &p, &min));
	assert_int_equal(p.threads, 1);
	assert_true(p.max_record == 64);
}

/* The run never goes below one worker and the reading thread: two. */
static void test_min_threads(void **state)
{
	struct ss_memplan p;
	uint64_t min;

	(void)state;
	/* 256 MiB, 3 asked, at least 2: half of 192 MiB would allow one, the
	 * floor keeps two (128 MiB); record limit (256 - 64 - 128) / 16 = 4 MiB. */
	assert_true(ss_memplan_fit(256 * MiB, 3, 2, 256 * MiB, &p, &min));
	assert_int_equal(p.threads, 2);
	assert_true(p.max_record == 4 * MiB);
	assert_true(p.threads_lowered && p.record_lowered);
	/* The least is then two threads and 64-byte records: 192 MiB + 1 KiB. */
	assert_false(ss_memplan_fit(192 * MiB, 3, 2, 256 * MiB, &p, &min));
	assert_true(min == 192 * MiB + 1024);
	/* One asked, two the floor: two, not lowered. */
	assert_true(ss_memplan_fit(8192 * MiB, 1, 2, 256 * MiB, &p, &min));
	assert_int_equal(p.threads, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_fits),
		cmocka_unit_test(test_too_small),
		cmocka_unit_test(test_min_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
