/*
 * Unit tests of engines/decimal.c: a plain decimal's nearest double,
 * checked against the C library's strtod (an independent correctly
 * rounding reader) and against values worked out by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/decimal.h"

/* The text in a heap block of exactly its length: a read past it is
 * caught by the sanitizer build. */
static bool read_exact(const char *text, double *out)
{
	size_t n = strlen(text);
	char *copy = malloc(n ? n : 1);
	bool ok;

	assert_non_null(copy);
	memcpy(copy, text, n);
	ok = ss_decimal_double(copy, n, out);
	free(copy);
	return ok;
}

static uint64_t bits_of(double d)
{
	uint64_t b;

	memcpy(&b, &d, sizeof(b));
	return b;
}

static void test_by_hand(void **state)
{
	double d = -1.0;

	(void)state;
	assert_true(read_exact("250", &d));
	assert_true(d == 250.0);
	assert_true(read_exact("0.25", &d));
	assert_true(d == 0.25);
	/* 0.1: the double 0x3FB999999999999A */
	assert_true(read_exact("0.1", &d));
	assert_true(bits_of(d) == UINT64_C(0x3FB999999999999A));
	/* 0.30000000000000004 (17 digits, above 2^53): 0x3FD3333333333334 */
	assert_true(read_exact("0.30000000000000004", &d));
	assert_true(bits_of(d) == UINT64_C(0x3FD3333333333334));
	/* 2^53 + 1 lies halfway between 2^53 and 2^53 + 2: the even one */
	assert_true(read_exact("9007199254740993", &d));
	assert_true(d == 9007199254740992.0);
	/* 2^53 + 3: between 2^53 + 2 (odd mantissa) and 2^53 + 4 (even) */
	assert_true(read_exact("9007199254740995", &d));
	assert_true(d == 9007199254740996.0);
	/* 2^53 + 3 and a little more: above the midpoint, up */
	assert_true(read_exact("9007199254740993.1", &d));
	assert_true(d == 9007199254740994.0);
	/* zero, positive whatever its spelling */
	assert_true(read_exact("0", &d));
	assert_true(bits_of(d) == 0);
	assert_true(read_exact("0.000", &d));
	assert_true(bits_of(d) == 0);
	/* 19 digits: the most read here (10^19 - 1 rounds to 10^19) */
	assert_true(read_exact("9999999999999999999", &d));
	assert_true(d == 1e19);
	assert_true(read_exact("1.000000000000000001", &d));
	assert_true(d == 1.0);
}

static void test_refused(void **state)
{
	static const char *const texts[] = {
		"", "-1.5", "-0", "+1", "1e5", "1.5E2", "01.5", "00", "1.", ".5", "1..5",
		"1.5x", "x", "12345678901234567890", "1.2345678901234567890", "1,5",
		"123456789.12345678901",
	};
	double d = 42.0;

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		assert_false(read_exact(texts[i], &d));
		assert_true(d == 42.0);
	}
}

/* xorshift64: a fixed sequence, the same on every run */
static uint64_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Every length of 1 to 19 digits, the point anywhere (or none), digits
 * at random: the same double as strtod, to the bit.
 */
/*
 * A random plain decimal into text (NUL-ended, at most 20 bytes): 1 to 19
 * digits, a point at a random place or none, no leading zero before other
 * integer digits (JSON). Returns its length.
 */
static size_t random_decimal(char *text, uint64_t *seed)
{
	size_t digits = 1 + next_random(seed) % 19;
	size_t point = next_random(seed) % (digits + 1); /* == digits: none */
	size_t n = 0;

	for (size_t i = 0; i < digits; i++) {
		if (i == point && i > 0)
			text[n++] = '.';
		text[n++] = (char)('0' + next_random(seed) % 10);
	}
	if (text[0] == '0' && n > 1 && text[1] != '.')
		text[0] = '1';
	text[n] = '\0';
	return n;
}

static void test_against_strtod(void **state)
{
	uint64_t seed = UINT64_C(0x9E3779B97F4A7C15);
	char text[32];

	(void)state;
	for (int round = 0; round < 200000; round++) {
		random_decimal(text, &seed);
		double got = 0.0, want;

		want = strtod(text, NULL);
		assert_true(read_exact(text, &got));
		if (bits_of(got) != bits_of(want))
			fail_msg("%s: %.17g, strtod %.17g", text, got, want);
	}
}

/*
 * ss_decimal_lead: the number at the start of a longer text, in a block
 * of its length and 8 bytes more (the padding it may read), the rest 'x'.
 * Returns the length it found; *out and *integral as it gave them.
 */
static size_t lead(const char *text, double *out, bool *integral)
{
	size_t n = strlen(text);
	char *copy = malloc(n + 8);
	size_t got;

	assert_non_null(copy);
	memcpy(copy, text, n);
	memset(copy + n, 'x', 8);
	got = ss_decimal_lead(copy, out, integral);
	free(copy);
	return got;
}

static void test_lead_by_hand(void **state)
{
	double d = -1.0;
	bool integral = false;

	(void)state;
	/* AIPerf's time and count, ended by the comma that follows */
	assert_int_equal(lead("241.63621701857465,", &d, &integral), 18);
	assert_true(bits_of(d) == bits_of(241.63621701857465));
	assert_false(integral);
	assert_int_equal(lead("150,\"unit\"", &d, &integral), 3);
	assert_true(d == 150.0);
	assert_true(integral);
	assert_int_equal(lead("150.0}", &d, &integral), 5);
	assert_true(d == 150.0);
	assert_false(integral);
	/* 0.1 and 2^53 + 1 as in test_by_hand, ended by other bytes */
	assert_int_equal(lead("0.1]", &d, &integral), 3);
	assert_true(bits_of(d) == UINT64_C(0x3FB999999999999A));
	assert_int_equal(lead("9007199254740993 ", &d, &integral), 16);
	assert_true(d == 9007199254740992.0);
	/* runs across the 8-byte steps: 8, 9, 16 digits on either side */
	assert_int_equal(lead("12345678,", &d, &integral), 8);
	assert_true(d == 12345678.0);
	assert_int_equal(lead("123456789.5,", &d, &integral), 11);
	assert_true(d == 123456789.5);
	assert_int_equal(lead("1.2345678,", &d, &integral), 9);
	assert_true(bits_of(d) == bits_of(1.2345678));
	assert_int_equal(lead("0.0000000000000001,", &d, &integral), 18);
	assert_true(bits_of(d) == bits_of(1e-16));
	/* 19 digits, the most */
	assert_int_equal(lead("9999999999999999999,", &d, &integral), 19);
	assert_true(d == 1e19);
	assert_int_equal(lead("0.000,", &d, &integral), 5);
	assert_true(bits_of(d) == 0);
}

static void test_lead_refused(void **state)
{
	static const char *const texts[] = {
		"", ",", "-1.5,", "-0,", "+1,", "1e5,", "1.5E2,", "2.5e-1,", "01.5,", "00,",
		"1.,", ".5,", "1..5,", "12345678901234567890,", "1.2345678901234567890,",
		"123456789.12345678901,", "\"250\",",
	};
	double d = 42.0;
	bool integral = true;

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		if (lead(texts[i], &d, &integral) != 0)
			fail_msg("%s: read", texts[i]);
		assert_true(d == 42.0);
	}
}

/* The random numbers of test_against_strtod, each ended by a comma. */
static void test_lead_against_strtod(void **state)
{
	uint64_t seed = UINT64_C(0x2545F4914F6CDD1D);
	char text[40];

	(void)state;
	for (int round = 0; round < 100000; round++) {
		size_t n = random_decimal(text, &seed);
		double got = 0.0, want;
		bool integral;

		want = strtod(text, NULL);
		text[n] = ',';
		text[n + 1] = '\0';
		if (lead(text, &got, &integral) != n || bits_of(got) != bits_of(want) ||
		    integral != (strchr(text, '.') == NULL))
			fail_msg("%s: %.17g, strtod %.17g", text, got, want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_against_strtod),
		cmocka_unit_test(test_lead_by_hand),
		cmocka_unit_test(test_lead_refused),
		cmocka_unit_test(test_lead_against_strtod),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
