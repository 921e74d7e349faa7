#include "server/number.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

size_t ss_srv_float_len(const char *p, const char *end)
{
	const char *q = p;
	bool digits = false;

	if (end - q >= 3 && memcmp(q, "NaN", 3) == 0)
		return 3;
	if (q < end && (*q == '+' || *q == '-'))
		q++;
	if (end - q >= 3 && memcmp(q, "Inf", 3) == 0)
		return (size_t)(q + 3 - p);
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

/* Exponents past this only make 0 or a value out of range; no overflow below it. */
#define EXP_CAP 100000

enum ss_count_status ss_srv_parse_count(const char *p, size_t n, uint64_t *out, bool *inexact)
{
	const char *q = p, *end = p + n, *mant;
	bool neg = false, has_exp = false, fraction = false, range = false;
	long exp = 0, int_len = 0, pos = 0, sig = 0, whole;
	uint64_t v = 0;

	*out = 0;
	if (n == 0 || ss_srv_float_len(p, end) != n)
		return SS_COUNT_SYNTAX;
	if (*q == '+' || *q == '-')
		neg = *q++ == '-';
	if (*q == 'N' || *q == 'I')
		return SS_COUNT_NONFINITE;
	mant = q;
	while (q < end && is_digit(*q)) {
		q++;
		int_len++;
	}
	if (q < end && *q == '.')
		q++;
	while (q < end && is_digit(*q))
		q++;
	if (q < end) { /* the exponent, its size capped */
		const char *e = q + 1;
		bool eneg = false;

		has_exp = true;
		if (*e == '+' || *e == '-')
			eneg = *e++ == '-';
		for (; e < end; e++)
			if (exp < EXP_CAP)
				exp = exp * 10 + (*e - '0');
		if (eneg)
			exp = -exp;
	}
	/*
	 * The value is the mantissa's digits (the '.' left out) times
	 * 10^(exp - digits after the point): the first int_len + exp digits
	 * make the integer, every later one must be a zero.
	 */
	whole = int_len + exp;
	for (const char *d = mant; d < q; d++) {
		unsigned c;

		if (*d == '.')
			continue;
		c = (unsigned)(*d - '0');
		if (c || sig)
			sig++;
		if (pos++ < whole) {
			if (v > (UINT64_MAX - c) / 10)
				range = true;
			else
				v = v * 10 + c;
		} else if (c) {
			fraction = true;
		}
	}
	if (sig == 0)
		return SS_COUNT_OK; /* zero, signed or not */
	if (neg)
		return SS_COUNT_NEGATIVE;
	if (fraction)
		return SS_COUNT_FRACTION;
	/* Zeros the exponent puts after the digits. */
	for (; pos < whole && !range; pos++) {
		if (v > UINT64_MAX / 10)
			range = true;
		else
			v *= 10;
	}
	if (range)
		return SS_COUNT_RANGE;
	if ((has_exp && sig <= 6) || v >= (UINT64_C(1) << 53))
		*inexact = true;
	*out = v;
	return SS_COUNT_OK;
}

bool ss_srv_parse_gauge(const char *p, size_t n, double *out)
{
	char small[128];
	char *end;

	if (n == 0 || n >= sizeof(small) || ss_srv_float_len(p, p + n) != n)
		return false;
	memcpy(small, p, n);
	small[n] = '\0';
	/* specscan never sets LC_NUMERIC: strtod reads '.' as the point. */
	*out = strtod(small, &end);
	return isfinite(*out);
}
