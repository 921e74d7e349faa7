#include "server/number.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Whether [q, end) starts with the word w (lower case), in any letter case. */
static bool word_at(const char *q, const char *end, const char *w, size_t n)
{
	if ((size_t)(end - q) < n)
		return false;
	for (size_t i = 0; i < n; i++)
		if ((q[i] | 0x20) != w[i])
			return false;
	return true;
}

size_t ss_server_float_len(const char *p, const char *end)
{
	const char *q = p;
	bool digits = false;

	if (q < end && (*q == '+' || *q == '-'))
		q++;
	/* SPEC 13: NaN, Inf, Infinity in any letter case, with an optional sign */
	if (q < end && ((*q | 0x20) == 'n' || (*q | 0x20) == 'i')) {
		if (word_at(q, end, "nan", 3))
			return (size_t)(q + 3 - p);
		if (word_at(q, end, "infinity", 8))
			return (size_t)(q + 8 - p);
		if (word_at(q, end, "inf", 3))
			return (size_t)(q + 3 - p);
		return 0;
	}
	while (q < end && is_digit(*q)) {
		q++;
		digits = true;
	}
	if (q < end && *q == '.') {
		q++;
		while (q < end && is_digit(*q)) {
			q++;
			digits = true;
		}
	}
	if (!digits)
		return 0;
	if (q < end && (*q == 'e' || *q == 'E')) {
		const char *e = q + 1;

		if (e < end && (*e == '+' || *e == '-'))
			e++;
		if (e == end || !is_digit(*e))
			return 0;
		while (e < end && is_digit(*e))
			e++;
		q = e;
	}
	return (size_t)(q - p);
}

const char *ss_count_status_text(enum ss_count_status st)
{
	switch (st) {
	case SS_COUNT_OK: return "a count";
	case SS_COUNT_SYNTAX: return "counter value is not a number";
	case SS_COUNT_NONFINITE: return "counter value is NaN or infinite";
	case SS_COUNT_NEGATIVE: return "counter value is negative";
	case SS_COUNT_FRACTION: return "counter value is not an integer";
	case SS_COUNT_RANGE: return "counter value is 2^64 or more";
	}
	return "?";
}

/*
 * The plain form most counters are written in: digits (at most 15, so
 * the value is its own nearest double), then maybe a point and zeros.
 * false: another form (the caller reads it as a double).
 */
static bool plain_count(const char *q, const char *end, uint64_t *out)
{
	uint64_t v = 0;
	const char *d = q;

	while (q < end && is_digit(*q))
		v = v * 10 + (uint64_t)(*q++ - '0');
	if (q == d || q - d > 15)
		return false;
	if (q < end && *q == '.')
		for (q++; q < end && *q == '0'; q++)
			;
	if (q != end)
		return false;
	*out = v;
	return true;
}

/* 2^64 as a double: the first value out of range. */
#define TWO_64 18446744073709551616.0

/*
 * Significant digits kept of a long number text. A double's rounding
 * boundaries (the doubles and the midpoints between them) have at most 767
 * significant digits, so the first 800 digits, and one more nonzero digit
 * standing for every nonzero digit after them, round as the whole text.
 */
#define SIG_KEEP 800
#define EXP_CLAMP 1000000000LL

static long long exp_add(long long e, long long d)
{
	e += d;
	return e > EXP_CLAMP ? EXP_CLAMP : e < -EXP_CLAMP ? -EXP_CLAMP : e;
}

/*
 * The float text [p, end) (its syntax checked, no NaN or infinity) as
 * `[-]0.DIGITSeEXP` in buf, at most SIG_KEEP + 1 digits: the same nearest
 * double whatever the text's length, and no allocation (a number text of
 * any size is read in this fixed buffer).
 */
static void bounded_text(const char *q, const char *end, char buf[static SIG_KEEP + 48])
{
	char *o = buf;
	size_t sig = 0;
	long long e = 0;
	bool sticky = false;

	if (*q == '+' || *q == '-')
		if (*q++ == '-')
			*o++ = '-';
	*o++ = '0';
	*o++ = '.';
	for (; q < end && is_digit(*q); q++) {
		if (sig == 0 && *q == '0')
			continue; /* a leading zero */
		if (sig < SIG_KEEP)
			o[sig++] = *q;
		else if (*q != '0')
			sticky = true;
		e = exp_add(e, 1);
	}
	if (q < end && *q == '.')
		for (q++; q < end && is_digit(*q); q++) {
			if (sig == 0 && *q == '0')
				e = exp_add(e, -1); /* 0.00d: d's place */
			else if (sig < SIG_KEEP)
				o[sig++] = *q;
			else if (*q != '0')
				sticky = true;
		}
	if (q < end && (*q == 'e' || *q == 'E')) {
		bool neg = false;
		long long x = 0;

		q++;
		if (q < end && (*q == '+' || *q == '-'))
			neg = *q++ == '-';
		for (; q < end && is_digit(*q); q++)
			x = x >= EXP_CLAMP ? EXP_CLAMP : x * 10 + (*q - '0');
		e = exp_add(e, neg ? -x : x);
	}
	if (sig == 0)
		o[sig++] = '0';
	if (sticky)
		o[sig++] = '1';
	snprintf(o + sig, 32, "e%lld", e);
}

/* The nearest double of a checked float text (not NaN or an infinity). */
static double nearest_double(const char *p, size_t n)
{
	char buf[SIG_KEEP + 48];

	bounded_text(p, p + n, buf);
	/* specscan never sets LC_NUMERIC: strtod reads '.' as the point. */
	return strtod(buf, NULL);
}

enum ss_count_status ss_server_parse_count(const char *p, size_t n, uint64_t *out, bool *inexact)
{
	const char *q = p, *end = p + n;
	double d;

	*out = 0;
	if (n == 0 || ss_server_float_len(p, end) != n)
		return SS_COUNT_SYNTAX;
	if (*q == '+')
		q++;
	if (plain_count(q, end, out))
		return SS_COUNT_OK;
	if (*q == '-')
		q++;
	if ((*q | 0x20) == 'n' || (*q | 0x20) == 'i')
		return SS_COUNT_NONFINITE;
	/* SPEC 13: read as a JSON number is, the nearest double */
	d = nearest_double(p, n);
	if (d == 0.0)
		return SS_COUNT_OK; /* zero, signed or not, or below the smallest double */
	if (d < 0.0)
		return SS_COUNT_NEGATIVE;
	if (d != floor(d))
		return SS_COUNT_FRACTION;
	if (d >= TWO_64)
		return SS_COUNT_RANGE;
	*out = (uint64_t)d;
	if (*out >= (UINT64_C(1) << 53))
		*inexact = true;
	return SS_COUNT_OK;
}

bool ss_server_count_rounded(const char *p, size_t n)
{
	const char *q = p, *end = p + n;
	long sig = 0;

	for (; q < end && *q != 'e' && *q != 'E'; q++)
		if (is_digit(*q) && (*q != '0' || sig))
			sig++;
	return q < end && sig >= 1 && sig <= 6;
}

bool ss_server_parse_gauge(const char *p, size_t n, double *out)
{
	const char *q = p;

	if (n == 0 || ss_server_float_len(p, p + n) != n)
		return false;
	if (*q == '+' || *q == '-')
		q++;
	if ((*q | 0x20) == 'n' || (*q | 0x20) == 'i')
		return false; /* NaN or an infinity */
	*out = nearest_double(p, n);
	return isfinite(*out);
}
