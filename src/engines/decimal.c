/*
 * decimal.c - a plain decimal's nearest double. The digits make an
 * integer w < 10^19 and the point a power of ten 10^k, k <= 27: the value
 * is w / 10^k. When w and 10^k are both doubles exactly (w <= 2^53,
 * k <= 22) one division rounds correctly (IEEE 754). Otherwise
 * w / 10^k = (w / 5^k) * 2^-k, and w * 2^s / 5^k is divided in 128 bits
 * to a 63- or 64-bit quotient with its remainder, rounded to 53 bits by
 * hand (the remainder breaks a tie), then scaled by a power of two
 * (exact: the values read here are far from the double's limits).
 */
#include "engines/decimal.h"

#include <float.h>
#include <stdint.h>
#include <string.h>

#define MAX_DIGITS 19
#define MAX_FRACTION 27

#if FLT_EVAL_METHOD == 0
static const double exact_pow10[23] = {
	1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};
#endif

/* 5^k, k <= 27 (5^27 < 2^63) */
static const uint64_t pow5[MAX_FRACTION + 1] = {
	UINT64_C(1), UINT64_C(5), UINT64_C(25),
	UINT64_C(125), UINT64_C(625), UINT64_C(3125),
	UINT64_C(15625), UINT64_C(78125), UINT64_C(390625),
	UINT64_C(1953125), UINT64_C(9765625), UINT64_C(48828125),
	UINT64_C(244140625), UINT64_C(1220703125), UINT64_C(6103515625),
	UINT64_C(30517578125), UINT64_C(152587890625), UINT64_C(762939453125),
	UINT64_C(3814697265625), UINT64_C(19073486328125), UINT64_C(95367431640625),
	UINT64_C(476837158203125), UINT64_C(2384185791015625), UINT64_C(11920928955078125),
	UINT64_C(59604644775390625), UINT64_C(298023223876953125), UINT64_C(1490116119384765625),
	UINT64_C(7450580596923828125),
};

static int bit_length(uint64_t v)
{
	return 64 - __builtin_clzll(v);
}

/* 2^e for a normal double's exponent e. */
static double pow2(int e)
{
	uint64_t bits = (uint64_t)(e + 1023) << 52;
	double d;

	memcpy(&d, &bits, sizeof(d));
	return d;
}

/* w / 5^k * 2^-k to nearest, w > 0, by the 128-bit quotient. */
static double divided(uint64_t w, size_t k)
{
	uint64_t d = pow5[k], q, m, rem, half;
	int s = 63 + bit_length(d) - bit_length(w), drop;
	unsigned __int128 num = (unsigned __int128)w << s;
	bool sticky;

	/* w * 2^s / d lies in (2^62, 2^64): the quotient fits in 64 bits */
	q = (uint64_t)(num / d);
	sticky = num - (unsigned __int128)q * d != 0;
	drop = bit_length(q) - 53;
	m = q >> drop;
	rem = q & ((UINT64_C(1) << drop) - 1);
	half = UINT64_C(1) << (drop - 1);
	if (rem > half || (rem == half && (sticky || (m & 1))))
		m++;
	if (m == UINT64_C(1) << 53) {
		m >>= 1;
		drop++;
	}
	/* the value is m * 2^(drop - s - k), m below 2^53 */
	return (double)m * pow2(drop - s - (int)k);
}

/* w / 10^k to nearest. */
static inline __attribute__((always_inline)) double value_of(uint64_t w, size_t k)
{
	if (w == 0)
		return 0.0;
#if FLT_EVAL_METHOD == 0
	if (w <= (UINT64_C(1) << 53) && k <= 22)
		return (double)w / exact_pow10[k];
#endif
	return divided(w, k);
}

static bool is_digits_word(uint64_t v)
{
	const uint64_t high = UINT64_C(0xF0F0F0F0F0F0F0F0);

	/* a byte 0x30..0x39 has the high nibble 3, and 3 again after +6 */
	return ((v & high) | (((v + UINT64_C(0x0606060606060606)) & high) >> 4)) ==
	       UINT64_C(0x3333333333333333);
}

/* Eight digit bytes, the first the most significant, as their integer. */
static uint64_t digits_word(uint64_t v)
{
	v = ((v & UINT64_C(0x0F0F0F0F0F0F0F0F)) * 2561) >> 8;
	v = ((v & UINT64_C(0x00FF00FF00FF00FF)) * 6553601) >> 16;
	return ((v & UINT64_C(0x0000FFFF0000FFFF)) * UINT64_C(42949672960001)) >> 32;
}

static const uint64_t pow10_u64[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};

/*
 * The digits [p, end) added to *w (at most 19 in all with those before).
 * Eight at a time on a little-endian machine (SWAR): the last r < 8 read
 * as the word that ends at `end`, its first 8 - r bytes (read already)
 * set to '0'. false: a byte that is not a digit.
 */
static bool digits_of(const char *p, const char *end, uint64_t *w)
{
	uint64_t v = *w;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t x;

	if (end - p >= 8) {
		size_t r;

		for (; end - p >= 8; p += 8) {
			memcpy(&x, p, sizeof(x));
			if (!is_digits_word(x))
				return false;
			v = v * 100000000 + digits_word(x);
		}
		if ((r = (size_t)(end - p)) > 0) {
			uint64_t low = (UINT64_C(1) << (8 * (8 - r))) - 1;

			memcpy(&x, end - 8, sizeof(x));
			x = (x & ~low) | (UINT64_C(0x3030303030303030) & low);
			if (!is_digits_word(x))
				return false;
			v = v * pow10_u64[r] + digits_word(x);
		}
		*w = v;
		return true;
	}
#endif
	for (; p < end; p++) {
		unsigned d = (unsigned)(unsigned char)*p - '0';

		if (d > 9)
			return false;
		v = v * 10 + d;
	}
	*w = v;
	return true;
}

bool ss_decimal_double(const char *s, size_t n, double *out)
{
	const char *p = s, *end = s + n;
	uint64_t w = 0;
	size_t k = 0;
	unsigned d;

	/* at most 19 digits and a point: w < 10^19 < 2^64 */
	if (n == 0 || n > MAX_DIGITS + 1)
		return false;
	for (; p < end && (d = (unsigned)(unsigned char)*p - '0') <= 9; p++)
		w = w * 10 + d;
	/* JSON: digits before the point, a leading zero alone */
	if (p == s || (*s == '0' && p - s > 1))
		return false;
	if (p == end) {
		if (n > MAX_DIGITS)
			return false;
	} else {
		if (*p != '.' || p + 1 == end || !digits_of(p + 1, end, &w))
			return false;
		k = (size_t)(end - p - 1);
	}
	*out = value_of(w, k);
	return true;
}

double ss_decimal_scaled(uint64_t w, size_t k)
{
	return value_of(w, k);
}
