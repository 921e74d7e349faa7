#include "util/ratio.h"

#include <math.h>

static int bitlen(unsigned __int128 x)
{
	int n = 0;

	while (x) {
		x >>= 1;
		n++;
	}
	return n;
}

double ss_ratio_wide(unsigned __int128 n, unsigned __int128 d)
{
	const unsigned __int128 exact = (unsigned __int128)1 << 53;
	unsigned __int128 q, r, m, rest, half;
	int k, drop;

	if (d == 0)
		return 0.0;
	if (n == 0)
		return 0.0;
	if (n <= exact && d <= exact)
		return (double)n / (double)d;  /* exact operands: one rounding */
	if (bitlen(n) > 64 || bitlen(d) > 64)
		return (double)((long double)n / (long double)d);  /* beyond any count */
	/*
	 * Scale so the integer quotient has 55 or 56 bits: then the 53 kept
	 * bits, the rounding bit and the remainder (sticky) decide exactly.
	 */
	k = 55 + bitlen(d) - bitlen(n);
	if (k >= 0) {
		q = (n << k) / d;
		r = (n << k) % d;
	} else {
		q = n / (d << -k);
		r = n % (d << -k);
	}
	drop = bitlen(q) - 53;
	m = q >> drop;
	rest = q & (((unsigned __int128)1 << drop) - 1);
	half = (unsigned __int128)1 << (drop - 1);
	if (rest > half || (rest == half && (r != 0 || (m & 1))))
		m++;
	return ldexp((double)m, drop - k);
}
