/*
 * numfmt.c - locale-independent number formatting.
 *
 * printf's %e and %f round correctly (glibc), but may write the locale's
 * radix character. So only the digits of their output are used, and the
 * decimal point is placed here; the round-trip check parses an integer
 * mantissa with an exponent ("12345e-4"), which has no radix character.
 */
#include "report/numfmt.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The mantissa digits (no trailing zeros) and decimal exponent of v > 0. */
struct dec {
	char d[24];
	int n;
	int exp; /* v = d[0].d[1..] x 10^exp */
};

static bool roundtrips(uint64_t mant, int exp, double v)
{
	char tmp[48];

	snprintf(tmp, sizeof(tmp), "%" PRIu64 "e%d", mant, exp);
	return strtod(tmp, NULL) == v;
}

static void dec_set(struct dec *out, uint64_t mant, int exp)
{
	char tmp[24];
	int n = snprintf(tmp, sizeof(tmp), "%" PRIu64, mant);

	while (n > 1 && tmp[n - 1] == '0')
		n--, exp++;
	memcpy(out->d, tmp, (size_t)n);
	out->d[n] = '\0';
	out->n = n;
	/* mant has n digits after stripping: d[0] sits at 10^(exp + n - 1) */
	out->exp = exp + n - 1;
}

/*
 * Shortest digits that read back to v: the correctly rounded p-digit
 * decimal for p = 1, 2, ...; when it misses, a neighbour may still hit on
 * the wide side of a power of two (the round-trip interval is asymmetric).
 */
static void shortest(double v, struct dec *out)
{
	char tmp[64];
	int first = 1;

	/*
	 * Fast start: a double is within half an ulp (< 1.2e-16 relative) of
	 * any decimal that reads back to it, closer than half the spacing of
	 * 15-digit decimals. So when a decimal of 15 or fewer digits reads
	 * back, it is the correctly rounded 15-digit one with its trailing
	 * zeros dropped (dec_set drops them); when that one does not read
	 * back, no shorter one does, and the search starts at 16 digits.
	 * (Subnormals have wider ulps: they take the long way.)
	 */
	if (v >= DBL_MIN) {
		uint64_t mant = 0;
		const char *s = tmp;

		snprintf(tmp, sizeof(tmp), "%.14e", v);
		for (; *s && *s != 'e'; s++)
			if (*s >= '0' && *s <= '9')
				mant = mant * 10 + (uint64_t)(*s - '0');
		if (roundtrips(mant, (int)strtol(s + 1, NULL, 10) - 14, v)) {
			dec_set(out, mant, (int)strtol(s + 1, NULL, 10) - 14);
			return;
		}
		first = 16;
	}
	for (int p = first; p <= 17; p++) {
		uint64_t mant = 0;
		const char *s = tmp;
		int e;

		snprintf(tmp, sizeof(tmp), "%.*e", p - 1, v);
		for (; *s && *s != 'e'; s++)
			if (*s >= '0' && *s <= '9')
				mant = mant * 10 + (uint64_t)(*s - '0');
		e = (int)strtol(s + 1, NULL, 10) - (p - 1);
		if (roundtrips(mant, e, v)) {
			dec_set(out, mant, e);
			return;
		}
		if (roundtrips(mant + 1, e, v)) {
			dec_set(out, mant + 1, e);
			return;
		}
		if (mant > 1 && roundtrips(mant - 1, e, v)) {
			dec_set(out, mant - 1, e);
			return;
		}
	}
	/* 17 significant digits always round-trip; not reached. */
	snprintf(tmp, sizeof(tmp), "%.16e", v);
	{
		uint64_t mant = 0;
		const char *s = tmp;

		for (; *s && *s != 'e'; s++)
			if (*s >= '0' && *s <= '9')
				mant = mant * 10 + (uint64_t)(*s - '0');
		dec_set(out, mant, (int)strtol(s + 1, NULL, 10) - 16);
	}
}

static void add_zeros(struct ss_buf *b, int n)
{
	while (n-- > 0)
		ss_buf_addc(b, '0');
}

void ss_buf_add_double(struct ss_buf *b, double v)
{
	struct dec d;

	if (!isfinite(v)) {
		ss_buf_adds(b, "null");
		return;
	}
	if (signbit(v)) {
		ss_buf_addc(b, '-');
		v = -v;
	}
	if (v == 0) {
		ss_buf_adds(b, "0.0");
		return;
	}
	shortest(v, &d);
	/* Python's repr: exponent form when exp < -4 or exp >= 16. */
	if (d.exp < -4 || d.exp >= 16) {
		int e = d.exp;

		ss_buf_addc(b, d.d[0]);
		if (d.n > 1) {
			ss_buf_addc(b, '.');
			ss_buf_add(b, d.d + 1, (size_t)d.n - 1);
		}
		ss_buf_addc(b, 'e');
		ss_buf_addc(b, e < 0 ? '-' : '+');
		if (e < 0)
			e = -e;
		if (e < 10)
			ss_buf_addc(b, '0');
		ss_buf_add_u64(b, (uint64_t)e);
	} else if (d.exp >= 0) {
		int whole = d.exp + 1;

		if (d.n <= whole) {
			ss_buf_add(b, d.d, (size_t)d.n);
			add_zeros(b, whole - d.n);
			ss_buf_adds(b, ".0");
		} else {
			ss_buf_add(b, d.d, (size_t)whole);
			ss_buf_addc(b, '.');
			ss_buf_add(b, d.d + whole, (size_t)(d.n - whole));
		}
	} else {
		ss_buf_adds(b, "0.");
		add_zeros(b, -d.exp - 1);
		ss_buf_add(b, d.d, (size_t)d.n);
	}
}

void ss_buf_add_i128(struct ss_buf *b, __int128 v)
{
	unsigned __int128 u = v < 0 ? -(unsigned __int128)v : (unsigned __int128)v;
	char tmp[48];
	size_t i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + (int)(u % 10));
		u /= 10;
	} while (u);
	if (v < 0)
		tmp[--i] = '-';
	ss_buf_add(b, tmp + i, sizeof(tmp) - i);
}

static void add_grouped_digits(struct ss_buf *b, const char *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			ss_buf_addc(b, ',');
		ss_buf_addc(b, d[i]);
	}
}

/* `%.*f` of v with prec <= 2, optionally grouped, locale-independent. */
static void add_fixed(struct ss_buf *b, double v, int prec, bool grouped)
{
	char tmp[400], digits[400];
	size_t n = 0, whole;

	if (isnan(v)) {
		ss_buf_adds(b, "nan");
		return;
	}
	if (isinf(v)) {
		ss_buf_adds(b, v < 0 ? "-inf" : "inf");
		return;
	}
	/* At most 309 integral digits, the radix, prec digits and a sign. */
	snprintf(tmp, sizeof(tmp), "%.*f", prec, v);
	for (const char *s = tmp; *s; s++)
		if (*s >= '0' && *s <= '9')
			digits[n++] = *s;
	whole = n - (size_t)prec;
	if (tmp[0] == '-')
		ss_buf_addc(b, '-');
	if (grouped)
		add_grouped_digits(b, digits, whole);
	else
		ss_buf_add(b, digits, whole);
	if (prec > 0) {
		ss_buf_addc(b, '.');
		ss_buf_add(b, digits + whole, (size_t)prec);
	}
}

void ss_buf_add_fixed2(struct ss_buf *b, double v)
{
	add_fixed(b, v, 2, false);
}

void ss_buf_add_fixed2_grouped(struct ss_buf *b, double v)
{
	add_fixed(b, v, 2, true);
}

void ss_buf_add_fixed0(struct ss_buf *b, double v)
{
	add_fixed(b, v, 0, false);
}

void ss_buf_add_u64_grouped(struct ss_buf *b, uint64_t v)
{
	char tmp[24];
	int n = snprintf(tmp, sizeof(tmp), "%" PRIu64, v);

	add_grouped_digits(b, tmp, (size_t)n);
}
