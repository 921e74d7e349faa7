/*
 * test_ratio.c - integer quotients rounded once. The expected doubles are
 * Python's `a / b` on the same integers (computed outside this project).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/ratio.h"

struct ratio_case {
	unsigned long long a, b;
	double want;
};

static const struct ratio_case cases[] = {
	{3ULL, 9007199254740993ULL, 3.330669073875469e-16},
	{1ULL, 10000000000000001ULL, 9.999999999999999e-17},
	{9223372036854775807ULL, 3ULL, 3.0744573456182584e+18},
	{9223372036854775807ULL, 9223372036854775806ULL, 1.0},
	{1000000000000000007ULL, 1000000000000000009ULL, 1.0},
	{123456789012345678ULL, 987654321ULL, 124999998.8734375},
	{5ULL, 7ULL, 0.7142857142857143},
	{1152921504606846977ULL, 128ULL, 9007199254740992.0},
	{80671704424204620ULL, 7205464747235938445ULL, 0.011195905781809673},
	{73187640528816246ULL, 1751537126674979379ULL, 0.041784806850056096},
	{2305434523035945ULL, 88480791473946233ULL, 0.026055762890805467},
	{434067829733004325ULL, 20434832927208577ULL, 21.241564894570367},
	{1823155801280863ULL, 96569473337360227ULL, 0.01887921449992553},
	{228370678136506164ULL, 106489001038804887ULL, 2.144547097904386},
};

static void test_python_quotients(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double got = ss_ratio(cases[i].a, cases[i].b);

		if (got != cases[i].want)
			fail_msg("%llu / %llu: got %.17g, want %.17g", cases[i].a, cases[i].b,
				 got, cases[i].want);
	}
}

static void test_edges(void **state)
{
	(void)state;
	assert_true(ss_ratio(0, 5) == 0.0);
	assert_true(ss_ratio(7, 0) == 0.0);
	assert_true(ss_ratio(18, 32) == 0.5625);
	assert_true(ss_ratio(2, 3) == 2.0 / 3.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_python_quotients),
		cmocka_unit_test(test_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
