/*
 * decimal.h - the nearest double of a plain decimal number text, as
 * AIPerf writes its times (`241.63621701857465`), without the general
 * parser: exact (round to nearest, ties to even) by integer arithmetic.
 */
#ifndef SS_ENGINES_DECIMAL_H
#define SS_ENGINES_DECIMAL_H

#include <float.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* 10^0 .. 10^15, each a double exactly */
static const double ss_decimal_pow10_exact[16] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
};

/*
 * The n bytes at s as a JSON number of the form DIGITS or DIGITS.DIGITS
 * (no sign, no exponent, no leading zero before other integer digits), at
 * most 19 digits in all: *out gets the nearest double of its value.
 * false, *out untouched: any other text (the caller reads it with the
 * general parser). Only the n bytes are read.
 */
bool ss_decimal_double(const char *s, size_t n, double *out);

/* w / 10^k to nearest, w < 10^19, k <= 27 (the tail of ss_decimal_double). */
double ss_decimal_scaled(uint64_t w, size_t k);

/*
 * Bytes of digits from p on (8 readable from each): bit 7 of byte i of
 * the mask set when byte i of the word is not a digit. (t - '0' wraps a
 * byte below '0' to 0xD0 or more; + 0x76 carries a byte of 10 or more
 * into bit 7. A carry out of a byte reaches only bytes above a non-digit,
 * which are not looked at.) More than 19 digits: some number above 19.
 */
static inline size_t ss_decimal_run(const char *p)
{
	size_t n = 0;

	for (;;) {
		uint64_t x, t, nd;

		memcpy(&x, p + n, sizeof(x));
		t = x ^ UINT64_C(0x3030303030303030);
		nd = ((t + UINT64_C(0x7676767676767676)) | t) & UINT64_C(0x8080808080808080);
		if (nd) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			return n + (size_t)__builtin_ctzll(nd) / 8;
#else
			while ((unsigned)(unsigned char)p[n] - '0' <= 9)
				n++;
			return n;
#endif
		}
		n += 8;
		if (n > 19 + 8)
			return n;
	}
}

/*
 * w followed by the r digits at p (all digits, 8 bytes readable from
 * each): on a little-endian machine eight at a time (SWAR), the last
 * r % 8 moved to the top of their word below '0' bytes.
 */
static inline uint64_t ss_decimal_run_value(uint64_t w, const char *p, size_t r)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	static const uint64_t pow10[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
	uint64_t x;

	for (;; p += 8, r -= 8) {
		memcpy(&x, p, sizeof(x));
		if (r < 8)
			break;
		x = ((x & UINT64_C(0x0F0F0F0F0F0F0F0F)) * 2561) >> 8;
		x = ((x & UINT64_C(0x00FF00FF00FF00FF)) * 6553601) >> 16;
		w = w * 100000000 +
		    (((x & UINT64_C(0x0000FFFF0000FFFF)) * UINT64_C(42949672960001)) >> 32);
	}
	if (r > 0) {
		x = (x << (8 * (8 - r))) | (UINT64_C(0x3030303030303030) >> (8 * r));
		x = ((x & UINT64_C(0x0F0F0F0F0F0F0F0F)) * 2561) >> 8;
		x = ((x & UINT64_C(0x00FF00FF00FF00FF)) * 6553601) >> 16;
		w = w * pow10[r] +
		    (((x & UINT64_C(0x0000FFFF0000FFFF)) * UINT64_C(42949672960001)) >> 32);
	}
#else
	for (; r > 0; p++, r--)
		w = w * 10 + (uint64_t)(*p - '0');
#endif
	return w;
}

/*
 * The number of ss_decimal_double where a longer text starts at s, its
 * end found on the way (8 bytes at a time: the text must have 8 readable
 * bytes past the byte that ends the number and past each of its digits,
 * as padded texts have): its length, with its nearest double in *out and
 * in *integral whether it had no point. 0, *out untouched: s does not
 * start with such a number of at most 19 digits followed by a byte that is
 * not a digit, a point or an exponent (a sign, an exponent, more digits:
 * the caller reads the number another way). Inline: it is read three
 * times a records line with --speedup.
 */
static inline size_t ss_decimal_lead(const char *s, double *out, bool *integral)
{
	size_t r1 = ss_decimal_run(s), r2, k = 0;
	uint64_t w;
	const char *p = s + r1;

	/* JSON: digits before the point, a leading zero alone */
	if (r1 == 0 || r1 > 19 || (*s == '0' && r1 > 1))
		return 0;
	w = ss_decimal_run_value(0, s, r1);
	if (*p == '.') {
		r2 = ss_decimal_run(p + 1);
		if (r2 == 0 || r1 + r2 > 19)
			return 0;
		w = ss_decimal_run_value(w, p + 1, r2);
		k = r2;
		p += 1 + r2;
	}
	/* an exponent, or digits beyond the 19 read: the general parser */
	if (*p == 'e' || *p == 'E' || *p == '.')
		return 0;
	*integral = k == 0;
	/* exact: w and 10^k are doubles exactly, one division rounds */
	if (w <= (UINT64_C(1) << 53) && k <= 15 && FLT_EVAL_METHOD == 0)
		*out = (double)w / ss_decimal_pow10_exact[k];
	else
		*out = ss_decimal_scaled(w, k);
	return (size_t)(p - s);
}

#endif
