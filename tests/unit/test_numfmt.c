/* Unit tests of the number formats (SPEC 4: Python's repr, %.2f). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/numfmt.h"

static char out[512];

static const char *repr(double v)
{
	struct ss_buf b = SS_BUF_INIT;

	ss_buf_add_double(&b, v);
	assert_false(b.failed);
	snprintf(out, sizeof(out), "%s", b.data);
	ss_buf_release(&b);
	return out;
}

static const char *fmt(void (*fn)(struct ss_buf *, double), double v)
{
	struct ss_buf b = SS_BUF_INIT;

	fn(&b, v);
	snprintf(out, sizeof(out), "%s", b.data);
	ss_buf_release(&b);
	return out;
}

static void test_repr(void **state)
{
	(void)state;
	assert_string_equal(repr(0.1), "0.1");
	assert_string_equal(repr(1.0 / 3.0), "0.3333333333333333");
	assert_string_equal(repr(8.0), "8.0");
	assert_string_equal(repr(1e16), "1e+16");
	assert_string_equal(repr(1e-05), "1e-05");
	assert_string_equal(repr(1.5e-05), "1.5e-05");
	assert_string_equal(repr(123456789012345680.0), "1.2345678901234568e+17");
	assert_string_equal(repr(5e-324), "5e-324");
	assert_string_equal(repr(-0.0), "-0.0");
	assert_string_equal(repr(0.0), "0.0");
	assert_string_equal(repr(0.0001), "0.0001");
	assert_string_equal(repr(1e22), "1e+22");
	assert_string_equal(repr(9999999999999998.0), "9999999999999998.0");
	assert_string_equal(repr(11.0), "11.0");
	assert_string_equal(repr(-2.5), "-2.5");
	assert_string_equal(repr(2.8181818181818183), "2.8181818181818183");
	assert_string_equal(repr(45.45454545454545), "45.45454545454545");
	assert_string_equal(repr(1e100), "1e+100");
	assert_string_equal(repr(1.7976931348623157e308), "1.7976931348623157e+308");
	assert_string_equal(repr(2.2250738585072014e-308), "2.2250738585072014e-308");
	assert_string_equal(repr(123.456), "123.456");
	assert_string_equal(repr(0.000123), "0.000123");
	/* non-finite values are never written as numbers */
	assert_string_equal(repr(__builtin_inf()), "null");
	assert_string_equal(repr(__builtin_nan("")), "null");
}

/* Significant digits of a repr (the mantissa's, without leading zeros). */
static int sig_digits(const char *s)
{
	int n = 0, lead = 1, trailing = 0;

	for (; *s && *s != 'e'; s++) {
		if (*s < '0' || *s > '9')
			continue;
		if (lead && *s == '0')
			continue;
		lead = 0;
		n++;
		trailing = *s == '0' ? trailing + 1 : 0;
	}
	return n - trailing;
}

/*
 * Random doubles (random bits, short decimals, and ratios of full
 * precision between 1e-12 and 1e12, the range the formatter takes without
 * printf): each repr reads back to the same double (glibc's strtod, not
 * the reader the formatter uses) and is the shortest: the correctly
 * rounded text one digit shorter does not read back. A repr that needs
 * all 17 digits has exactly printf's correctly rounded ones.
 */
/*
 * Whether the 16-digit decimal `step` units of the last digit away from
 * v's correctly rounded 16 digits reads back to v (glibc's strtod).
 */
static bool neighbour16_reads_back(double v, int step)
{
	char t[64], *e;
	uint64_t m = 0;
	long x;

	snprintf(t, sizeof(t), "%.15e", v);
	for (e = t; *e && *e != 'e'; e++)
		if (*e >= '0' && *e <= '9')
			m = m * 10 + (uint64_t)(*e - '0');
	x = strtol(e + 1, NULL, 10) - 15;
	snprintf(t, sizeof(t), "%" PRIu64 "e%ld", m + (uint64_t)(int64_t)step, x);
	return strtod(t, NULL) == v;
}

/*
 * What a repr of v > 0 must be: it reads back to v (glibc's strtod, not
 * the reader the formatter uses) and is the shortest: the correctly
 * rounded text one digit shorter does not read back, and when it takes
 * all 17 digits, neither do the 16-digit neighbours of that rounding,
 * and its digits are printf's correctly rounded ones. Returns its count
 * of significant digits.
 */
static int check_repr(double v)
{
	char shorter[64];
	int d;

	repr(v);
	assert_true(strtod(out, NULL) == v);
	d = sig_digits(out);
	if (d > 1) {
		snprintf(shorter, sizeof(shorter), "%.*e", d - 2, v);
		assert_false(strtod(shorter, NULL) == v);
	}
	if (d == 17) {
		char full[64];
		const char *a = out, *b = full;

		assert_false(neighbour16_reads_back(v, 1));
		assert_false(neighbour16_reads_back(v, -1));
		snprintf(full, sizeof(full), "%.16e", v);
		/* the same digits in the same order (the point and the leading
		 * zeros of a repr such as 0.0012 aside) */
		while (*a == '0' || *a == '.')
			a++;
		for (;;) {
			while (*a && (*a < '0' || *a > '9'))
				a++;
			while (*b && *b != 'e' && (*b < '0' || *b > '9'))
				b++;
			if (!*a || *a == 'e' || !*b || *b == 'e')
				break;
			assert_int_equal(*a, *b);
			a++, b++;
		}
	}
	return d;
}

/*
 * Random doubles (random bits, short decimals, and ratios of full
 * precision between 1e-12 and 1e12, the range the formatter takes without
 * printf), and the powers of two (where the doubles that read back lie
 * unevenly around v), each checked by check_repr.
 */
static void test_repr_roundtrip_shortest(void **state)
{
	uint64_t x = 0x2545f4914f6cdd1dULL;
	int full17 = 0;

	(void)state;
	for (int i = 0; i < 300000; i++) {
		double v;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		if (i % 3 == 1) {
			memcpy(&v, &x, sizeof(v));
			if (!isfinite(v) || v == 0.0)
				continue;
			v = fabs(v);
		} else if (i % 3 == 2) {
			/* a 53-bit mantissa in [1, 2), scaled by 2^-40 .. 2^40 */
			v = ldexp(1.0 + (double)(x >> 11) * 0x1p-53, (int)(x % 81) - 40);
		} else {
			v = (double)(int64_t)(x % 2000001 - 1000000) / (double)(1 + x % 100000);
			if (v == 0.0)
				continue;
			v = fabs(v);
		}
		full17 += check_repr(v) == 17;
	}
	/* the 17-digit case was met often (about half of full-precision ratios) */
	assert_true(full17 > 10000);
	for (int k = -1022; k <= 1023; k++)
		check_repr(ldexp(1.0, k));
}

static void test_fixed2(void **state)
{
	(void)state;
	assert_string_equal(fmt(ss_buf_add_fixed2, 16.0), "16.00");
	assert_string_equal(fmt(ss_buf_add_fixed2, 2.458333333333333), "2.46");
	/* the binary value of 2.675 is below the tie */
	assert_string_equal(fmt(ss_buf_add_fixed2, 2.675), "2.67");
	/* exact ties round to even */
	assert_string_equal(fmt(ss_buf_add_fixed2, 0.125), "0.12");
	assert_string_equal(fmt(ss_buf_add_fixed2, 0.375), "0.38");
	assert_string_equal(fmt(ss_buf_add_fixed2, -0.0), "-0.00");
	assert_string_equal(fmt(ss_buf_add_fixed2, -0.001), "-0.00");
	assert_string_equal(fmt(ss_buf_add_fixed2, 999.995), "1000.00");
	assert_string_equal(fmt(ss_buf_add_fixed2, 1234567.891), "1234567.89");
	assert_string_equal(fmt(ss_buf_add_fixed2, __builtin_inf()), "inf");
}

static void test_fixed2_grouped(void **state)
{
	(void)state;
	assert_string_equal(fmt(ss_buf_add_fixed2_grouped, 0.5), "0.50");
	assert_string_equal(fmt(ss_buf_add_fixed2_grouped, 999.994), "999.99");
	assert_string_equal(fmt(ss_buf_add_fixed2_grouped, 999.995), "1,000.00");
	assert_string_equal(fmt(ss_buf_add_fixed2_grouped, 1234567.891), "1,234,567.89");
	assert_string_equal(fmt(ss_buf_add_fixed2_grouped, -1234.5), "-1,234.50");
	assert_string_equal(fmt(ss_buf_add_fixed2_grouped, 123456.0), "123,456.00");
	assert_string_equal(fmt(ss_buf_add_fixed2_grouped, 1e20),
			    "100,000,000,000,000,000,000.00");
}

static void test_fixed0(void **state)
{
	(void)state;
	assert_string_equal(fmt(ss_buf_add_fixed0, 12.5), "12");
	assert_string_equal(fmt(ss_buf_add_fixed0, 37.5), "38");
	assert_string_equal(fmt(ss_buf_add_fixed0, 100.0 / 12.0), "8");
	assert_string_equal(fmt(ss_buf_add_fixed0, 0.0), "0");
	assert_string_equal(fmt(ss_buf_add_fixed0, 100.0), "100");
}

static void test_integers(void **state)
{
	struct ss_buf b = SS_BUF_INIT;
	__int128 big = (__int128)INT64_MAX * 4 + 3; /* 36893488147419103231 */
	__int128 min128 = -(__int128)(((unsigned __int128)1 << 127) - 1) - 1;

	(void)state;
	ss_buf_add_i128(&b, 0);
	ss_buf_addc(&b, ' ');
	ss_buf_add_i128(&b, -42);
	ss_buf_addc(&b, ' ');
	ss_buf_add_i128(&b, big);
	ss_buf_addc(&b, ' ');
	ss_buf_add_i128(&b, min128);
	assert_string_equal(b.data,
		"0 -42 36893488147419103231 -170141183460469231731687303715884105728");
	ss_buf_reset(&b);
	ss_buf_add_u64_grouped(&b, 0);
	ss_buf_addc(&b, ' ');
	ss_buf_add_u64_grouped(&b, 999);
	ss_buf_addc(&b, ' ');
	ss_buf_add_u64_grouped(&b, 1000);
	ss_buf_addc(&b, ' ');
	ss_buf_add_u64_grouped(&b, 1234567);
	ss_buf_addc(&b, ' ');
	ss_buf_add_u64_grouped(&b, UINT64_MAX);
	assert_string_equal(b.data, "0 999 1,000 1,234,567 18,446,744,073,709,551,615");
	/* 128-bit counts: grouped up to 2^64-1, the digits alone past it */
	ss_buf_reset(&b);
	ss_buf_add_u128_grouped(&b, 1234567);
	ss_buf_addc(&b, ' ');
	ss_buf_add_u128_grouped(&b, (unsigned __int128)UINT64_MAX);
	ss_buf_addc(&b, ' ');
	ss_buf_add_u128_grouped(&b, (unsigned __int128)UINT64_MAX + 1);
	assert_string_equal(b.data, "1,234,567 18,446,744,073,709,551,615 18446744073709551616");
	ss_buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_repr),
		cmocka_unit_test(test_repr_roundtrip_shortest),
		cmocka_unit_test(test_fixed2),
		cmocka_unit_test(test_fixed2_grouped),
		cmocka_unit_test(test_fixed0),
		cmocka_unit_test(test_integers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
