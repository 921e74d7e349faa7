/*
 * numfmt.c - locale-independent number formatting.
 *
 * printf's %e and %f round correctly (glibc), but may write the locale's
 * radix character. So only the digits of their output are used, and the
 * decimal point is placed here; the round-trip check parses an integer
 * mantissa with an exponent ("12345e-4"), which has no radix character,
 * with the JSON shim's correctly rounded reader.
 */
#include "report/numfmt.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"

/* The mantissa digits (no trailing zeros) and decimal exponent of v > 0. */
struct dec {
	char d[24];
	int n;
	int exp; /* v = d[0].d[1..] x 10^exp */
};

/* 10^0 .. 10^19, every power of ten a uint64_t holds. */
static const uint64_t pow10_u64[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
	100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL,
	1000000000000ULL, 10000000000000ULL, 100000000000000ULL,
	1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
	1000000000000000000ULL, 10000000000000000000ULL};

static bool roundtrips(uint64_t mant, int exp, double v)
{
	/* the text, then the padding the shim's reader may look into */
	char tmp[48 + SSJ_PADDING];
	char *end = tmp + 48, *p = end;
	unsigned ue = (unsigned)(exp < 0 ? -exp : exp);
	double back;

	memset(end, ' ', SSJ_PADDING);
	/* "<mant>e<exp>", written backwards: no locale, no printf. */
	do {
		*--p = (char)('0' + ue % 10);
		ue /= 10;
	} while (ue);
	if (exp < 0)
		*--p = '-';
	*--p = 'e';
	do {
		*--p = (char)('0' + mant % 10);
		mant /= 10;
	} while (mant);
	/* simdjson's reader rounds correctly, as strtod, many times faster */
	return ssj_number_double(p, (size_t)(end - p), &back) == SSJ_OK && back == v;
}

/* v's 17 significant digits, correctly rounded, from printf (any v > 0). */
static void digits17_printf(double v, uint64_t *m, int *e)
{
	char tmp[64];
	const char *s = tmp;
	uint64_t mant = 0;

	snprintf(tmp, sizeof(tmp), "%.16e", v);
	for (; *s && *s != 'e'; s++)
		if (*s >= '0' && *s <= '9')
			mant = mant * 10 + (uint64_t)(*s - '0');
	*m = mant;
	*e = (int)strtol(s + 1, NULL, 10) - 16;
}

/*
 * The same without printf, exactly, for the doubles a report writes most
 * (ratios, percentages, counts: 1e-6 <= v < 1e17). v is M x 2^E with M
 * an integer below 2^53; for k = 16 - floor(log10(v)), 0 <= k <= 22,
 * M x 10^k fits 127 bits, so x = v x 10^k = (M x 10^k) x 2^E is split
 * exactly into its integer part (1e16 <= x < 1e17) and the remainder,
 * which rounds it to the nearest integer. An exact half goes to printf
 * (whose rounding of a tie is the C library's), as does any other v.
 * printf's %e is a big-number conversion: most of the time of an
 * enriched line's numbers went to it.
 */
static bool digits17_fast(double v, uint64_t *m, int *e)
{
	uint64_t bits, mant;
	int exp2, e10;

	if (!(v >= 1e-6 && v < 1e17))
		return false;
	memcpy(&bits, &v, sizeof(bits));
	mant = (bits & (((uint64_t)1 << 52) - 1)) | (uint64_t)1 << 52;  /* normal */
	exp2 = (int)(bits >> 52 & 0x7ff) - 1075;
	e10 = (int)floor(log10(v));
	for (int tries = 0; tries < 2; tries++) {
		int k = 16 - e10;
		unsigned __int128 n, whole, rem, half;

		if (k < 0 || k > 22)
			return false;
		/* 10^k = 10^(k - 19) x 10^19 beyond 19 digits: below 2^74, x M < 2^127 */
		n = (unsigned __int128)mant * (k <= 19 ? pow10_u64[k] : pow10_u64[k - 19]);
		if (k > 19)
			n *= pow10_u64[19];
		if (exp2 >= 0) {
			whole = n << exp2;  /* v >= 2^52: k <= 1, n < 2^57, exp2 <= 4 */
			rem = 0;            /* an integer: nothing to round */
			half = 1;
		} else {
			int s = -exp2;     /* v >= 1e-6: s < 128 */

			whole = n >> s;
			rem = n - (whole << s);
			half = (unsigned __int128)1 << (s - 1);
		}
		if (whole < pow10_u64[16]) {         /* log10 came out one too high */
			e10--;
			continue;
		}
		if (whole >= pow10_u64[17]) {        /* one too low */
			e10++;
			continue;
		}
		if (rem == half)
			return false;
		*m = (uint64_t)whole + (rem > half);
		*e = e10 - 16;
		if (*m == pow10_u64[17]) {   /* 9.99...95 rounded up to 10.0...0 */
			*m = pow10_u64[16];
			(*e)++;
		}
		return true;
	}
	return false;
}

/* v's 17 significant digits, correctly rounded: v ~ m x 10^e. */
static void digits17(double v, uint64_t *m, int *e)
{
	if (!digits17_fast(v, m, e))
		digits17_printf(v, m, e);
}

/*
 * The 17 digits m17 rounded to `keep` digits (*q x 10^(e + 17 - keep)).
 * Rounding rounded digits is exact unless the dropped part is exactly one
 * half: then false, and the caller asks printf for those digits.
 */
static bool round_digits(uint64_t m17, int keep, uint64_t *q)
{
	uint64_t div = pow10_u64[17 - keep], r, half;

	*q = m17 / div;
	r = m17 % div;
	half = div / 2;
	if (r == half)
		return false;
	if (r > half)
		(*q)++;
	return true;
}

/* The correctly rounded `keep`-digit mantissa from printf (slow path). */
static uint64_t printf_digits(double v, int keep, int *e)
{
	char tmp[64];
	const char *s = tmp;
	uint64_t mant = 0;

	snprintf(tmp, sizeof(tmp), "%.*e", keep - 1, v);
	for (; *s && *s != 'e'; s++)
		if (*s >= '0' && *s <= '9')
			mant = mant * 10 + (uint64_t)(*s - '0');
	*e = (int)strtol(s + 1, NULL, 10) - (keep - 1);
	return mant;
}

static void dec_set(struct dec *out, uint64_t mant, int exp)
{
	char tmp[24], *end = tmp + sizeof(tmp), *p = end;
	int n;

	/* mant's decimal digits, written backwards as roundtrips() writes them */
	do {
		*--p = (char)('0' + mant % 10);
		mant /= 10;
	} while (mant);
	n = (int)(end - p);
	while (n > 1 && p[n - 1] == '0')
		n--, exp++;
	memcpy(out->d, p, (size_t)n);
	out->d[n] = '\0';
	out->n = n;
	/* mant has n digits after stripping: d[0] sits at 10^(exp + n - 1) */
	out->exp = exp + n - 1;
}

/*
 * Shortest digits of a normal double, from its 17 correctly rounded
 * digits: the 15-digit rounding if it reads back (then it is the
 * shortest: see shortest()), else the 16-digit rounding or a neighbour of
 * it, else the 17 digits, which always read back and are what repr keeps.
 * A neighbour can only help a power of two: elsewhere the doubles that
 * read back to v lie within half an ulp on both sides, so when the
 * nearest 16-digit decimal is not among them, none further off is.
 */
static void shortest_normal(double v, struct dec *out)
{
	uint64_t m17, q, bits;
	int e17, e;
	bool pow2;

	memcpy(&bits, &v, sizeof(bits));
	pow2 = (bits & (((uint64_t)1 << 52) - 1)) == 0;
	digits17(v, &m17, &e17);
	for (int keep = 15; keep <= 16; keep++) {
		if (round_digits(m17, keep, &q)) {
			e = e17 + 17 - keep;
		} else {
			q = printf_digits(v, keep, &e);
		}
		if (roundtrips(q, e, v)) {
			dec_set(out, q, e);
			return;
		}
		if (keep == 16 && pow2) {
			if (roundtrips(q + 1, e, v)) {
				dec_set(out, q + 1, e);
				return;
			}
			if (q > 1 && roundtrips(q - 1, e, v)) {
				dec_set(out, q - 1, e);
				return;
			}
		}
	}
	dec_set(out, m17, e17);
}

/*
 * Shortest digits that read back to v: the correctly rounded p-digit
 * decimal for p = 1, 2, ...; when it misses, a neighbour may still hit on
 * the wide side of a power of two (the round-trip interval is asymmetric).
 */
static void shortest(double v, struct dec *out)
{
	char tmp[64];

	/*
	 * Normal doubles: a double is within half an ulp (< 1.2e-16 relative) of
	 * any decimal that reads back to it, closer than half the spacing of
	 * 15-digit decimals. So when a decimal of 15 or fewer digits reads
	 * back, it is the correctly rounded 15-digit one with its trailing
	 * zeros dropped (dec_set drops them); when that one does not read
	 * back, no shorter one does, and the search starts at 16 digits
	 * (shortest_normal). Subnormals have wider ulps: they take the long
	 * way, below.
	 */
	if (v >= DBL_MIN) {
		shortest_normal(v, out);
		return;
	}
	for (int p = 1; p <= 17; p++) {
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

void ss_buf_add_u128_grouped(struct ss_buf *b, unsigned __int128 v)
{
	if (v <= UINT64_MAX)
		ss_buf_add_u64_grouped(b, (uint64_t)v);
	else
		ss_buf_add_i128(b, (__int128)v);
}

void ss_report_add_level(struct ss_buf *b, double level)
{
	/* 95 -> "95", 99.5 -> "99.5": the shortest text that reads back */
	if (level == floor(level))
		ss_buf_add_i64(b, (int64_t)level);
	else
		ss_buf_add_double(b, level);
}
