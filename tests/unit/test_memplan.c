/*
 * test_memplan.c - fitting a run into --memory-limit: the bound is
 * 64 MiB + 32 MiB x threads + 16 x record limit (memplan.h); the expected
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
	/* 64 + 32 x 2 + 16 x 256 MiB = 4224 MiB */
	assert_true(ss_mem_bound(2, 256 * MiB) == 4224 * MiB);
	assert_true(ss_mem_bound(1, UINT64_MAX / 2) == UINT64_MAX);
}

static void test_fits(void **state)
{
	struct ss_memplan p;
	uint64_t min;

	(void)state;
	/* Fits as asked: nothing lowered. */
	assert_true(ss_memplan_fit(8192 * MiB, 4, 256 * MiB, &p, &min));
	assert_int_equal(p.threads, 4);
	assert_true(p.max_record == 256 * MiB);
	assert_false(p.threads_lowered || p.record_lowered);
	/* 256 MiB, 2 threads: threads may take (256-64)/2 = 96 MiB (2 fit);
	 * record limit (256 - 64 - 64) / 16 = 8 MiB. */
	assert_true(ss_memplan_fit(256 * MiB, 2, 256 * MiB, &p, &min));
	assert_int_equal(p.threads, 2);
	assert_true(p.max_record == 8 * MiB);
	assert_true(p.record_lowered && !p.threads_lowered);
	/* 256 MiB, 8 threads: 96 / 32 = 3 threads; (256-64-96)/16 = 6 MiB. */
	assert_true(ss_memplan_fit(256 * MiB, 8, 256 * MiB, &p, &min));
	assert_int_equal(p.threads, 3);
	assert_true(p.max_record == 6 * MiB);
	assert_true(p.record_lowered && p.threads_lowered);
	/* A small record limit that already fits stays. */
	assert_true(ss_memplan_fit(256 * MiB, 2, 1 * MiB, &p, &min));
	assert_true(p.max_record == 1 * MiB && !p.record_lowered);
}

static void test_too_small(void **state)
{
	struct ss_memplan p;
	uint64_t min;

	(void)state;
	/* The least: one thread and 64-byte records, 96 MiB + 1 KiB. */
	assert_false(ss_memplan_fit(1024, 2, 256 * MiB, &p, &min));
	assert_true(min == 96 * MiB + 1024);
	assert_true(ss_memplan_fit(96 * MiB + 1024, 2, 256 * MiB, &p, &min));
	assert_int_equal(p.threads, 1);
	assert_true(p.max_record == 64);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_fits),
		cmocka_unit_test(test_too_small),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
