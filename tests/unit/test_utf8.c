/*
 * test_utf8.c - the UTF-8 decoder of util/utf8.h on its own. The code
 * points are worked out by hand from the bit patterns (RFC 3629, table 3):
 * 110xxxxx 10xxxxxx and so on, the x bits read in order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/utf8.h"

struct utf8_case {
	const char *bytes;
	size_t n;          /* bytes given to the decoder */
	uint32_t cp;       /* expected code point, or SS_UTF8_INVALID */
	size_t len;        /* expected length */
};

static void check(const struct utf8_case *c, size_t ncases)
{
	for (size_t i = 0; i < ncases; i++) {
		uint32_t cp = 0;
		size_t len = ss_utf8_next((const unsigned char *)c[i].bytes, c[i].n, &cp);

		if (cp != c[i].cp || len != c[i].len)
			fail_msg("case %zu: got U+%04X length %zu, want U+%04X length %zu", i,
				 (unsigned)cp, len, (unsigned)c[i].cp, c[i].len);
	}
}

/* The shortest and longest code point of each length, and one between. */
static void test_valid(void **state)
{
	static const struct utf8_case cases[] = {
		{"\x00", 1, 0x0000, 1},
		{"A", 1, 0x0041, 1},
		{"\x7F", 1, 0x007F, 1},
		{"\xC2\x80", 2, 0x0080, 2},           /* 00010 000000 */
		{"\xC3\xA9", 2, 0x00E9, 2},           /* e acute: 00011 101001 */
		{"\xCE\x94", 2, 0x0394, 2},           /* Greek Delta: 01110 010100 */
		{"\xDF\xBF", 2, 0x07FF, 2},
		{"\xE0\xA0\x80", 3, 0x0800, 3},       /* 0000 100000 000000 */
		{"\xE2\x82\xAC", 3, 0x20AC, 3},       /* euro: 0010 000010 101100 */
		{"\xE2\x80\xA6", 3, 0x2026, 3},       /* ellipsis */
		{"\xED\x9F\xBF", 3, 0xD7FF, 3},       /* just below the surrogates */
		{"\xEE\x80\x80", 3, 0xE000, 3},       /* just above them */
		{"\xEF\xBF\xBD", 3, 0xFFFD, 3},
		{"\xEF\xBF\xBF", 3, 0xFFFF, 3},
		{"\xF0\x90\x80\x80", 4, 0x10000, 4},  /* 000 010000 000000 000000 */
		{"\xF0\x9F\x98\x80", 4, 0x1F600, 4},  /* 000 011111 011000 000000 */
		{"\xF4\x8F\xBF\xBF", 4, 0x10FFFF, 4}, /* 100 001111 111111 111111 */
	};

	(void)state;
	check(cases, sizeof(cases) / sizeof(cases[0]));
}

/* A longer text: only the first sequence is read. */
static void test_reads_one_sequence(void **state)
{
	static const struct utf8_case cases[] = {
		{"AB", 2, 0x41, 1},
		{"\xC3\xA9Z", 3, 0xE9, 2},
		{"\xE2\x82\xAC\xE2\x82\xAC", 6, 0x20AC, 3},
		{"\xF0\x9F\x98\x80!", 5, 0x1F600, 4},
	};

	(void)state;
	check(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Overlong forms: a code point written with more bytes than it needs. */
static void test_overlong(void **state)
{
	static const struct utf8_case cases[] = {
		{"\xC0\x80", 2, SS_UTF8_INVALID, 1},          /* U+0000 in two */
		{"\xC0\xAF", 2, SS_UTF8_INVALID, 1},          /* '/' in two */
		{"\xC1\xBF", 2, SS_UTF8_INVALID, 1},          /* U+007F in two */
		{"\xE0\x80\x80", 3, SS_UTF8_INVALID, 1},      /* U+0000 in three */
		{"\xE0\x9F\xBF", 3, SS_UTF8_INVALID, 1},      /* U+07FF in three */
		{"\xF0\x80\x80\x80", 4, SS_UTF8_INVALID, 1},  /* U+0000 in four */
		{"\xF0\x8F\xBF\xBF", 4, SS_UTF8_INVALID, 1},  /* U+FFFF in four */
	};

	(void)state;
	check(cases, sizeof(cases) / sizeof(cases[0]));
}

/* UTF-16 surrogates and values past U+10FFFF are no code points. */
static void test_surrogates_and_beyond(void **state)
{
	static const struct utf8_case cases[] = {
		{"\xED\xA0\x80", 3, SS_UTF8_INVALID, 1},      /* U+D800 */
		{"\xED\xB2\x80", 3, SS_UTF8_INVALID, 1},      /* U+DC80 */
		{"\xED\xBF\xBF", 3, SS_UTF8_INVALID, 1},      /* U+DFFF */
		{"\xF4\x90\x80\x80", 4, SS_UTF8_INVALID, 1},  /* U+110000 */
		{"\xF4\xBF\xBF\xBF", 4, SS_UTF8_INVALID, 1},  /* U+13FFFF */
		{"\xF5\x80\x80\x80", 4, SS_UTF8_INVALID, 1},
		{"\xF7\xBF\xBF\xBF", 4, SS_UTF8_INVALID, 1},
		{"\xF8\x88\x80\x80\x80", 5, SS_UTF8_INVALID, 1}, /* the old 5-byte form */
		{"\xFC\x84\x80\x80\x80\x80", 6, SS_UTF8_INVALID, 1},
	};

	(void)state;
	check(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Cut short by the end of the text, or by a byte that does not continue. */
static void test_truncated(void **state)
{
	static const struct utf8_case cases[] = {
		{"\xC3", 1, SS_UTF8_INVALID, 1},
		{"\xE2\x82", 2, SS_UTF8_INVALID, 1},
		{"\xE2", 1, SS_UTF8_INVALID, 1},
		{"\xF0\x9F\x98", 3, SS_UTF8_INVALID, 1},
		{"\xF0\x9F", 2, SS_UTF8_INVALID, 1},
		/* the bytes are there, but n says the text ends before them */
		{"\xC3\xA9", 1, SS_UTF8_INVALID, 1},
		{"\xF0\x9F\x98\x80", 3, SS_UTF8_INVALID, 1},
		/* a byte that is not 10xxxxxx where a continuation must be */
		{"\xC3" "A", 2, SS_UTF8_INVALID, 1},
		{"\xC3\xC3\xA9", 3, SS_UTF8_INVALID, 1},
		{"\xE2\x28\xA1", 3, SS_UTF8_INVALID, 1},
		{"\xE2\x82\x28", 3, SS_UTF8_INVALID, 1},
		{"\xF0\x9F\x98" "A", 4, SS_UTF8_INVALID, 1},
		{"\xF0\x9F\xC0\x80", 4, SS_UTF8_INVALID, 1},
	};

	(void)state;
	check(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Each byte of 0x80 .. 0xFF alone is invalid: a continuation byte with
 * nothing before it, or a lead byte with nothing after it. */
static void test_high_bytes_alone(void **state)
{
	(void)state;
	for (unsigned c = 0x80; c <= 0xFF; c++) {
		unsigned char b = (unsigned char)c;
		uint32_t cp = 0;

		assert_int_equal(ss_utf8_next(&b, 1, &cp), 1);
		assert_int_equal(cp, SS_UTF8_INVALID);
	}
}

/* A continuation byte where a sequence should start, followed by more
 * continuation bytes: each is invalid on its own. */
static void test_stray_continuations(void **state)
{
	static const unsigned char text[] = {0x80, 0xBF, 0xA9, 0x41};
	size_t i = 0, invalid = 0;
	uint32_t cp = 0;

	(void)state;
	while (i < sizeof(text)) {
		i += ss_utf8_next(text + i, sizeof(text) - i, &cp);
		invalid += cp == SS_UTF8_INVALID;
	}
	assert_int_equal(invalid, 3);
	assert_int_equal(cp, 0x41);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_reads_one_sequence),
		cmocka_unit_test(test_overlong),
		cmocka_unit_test(test_surrogates_and_beyond),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_high_bytes_alone),
		cmocka_unit_test(test_stray_continuations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
