/*
 * ratio.h - the quotient of two non-negative integers, rounded once to the
 * nearest double (ties to even), as Python's `int / int` gives it. AIPerf
 * divides Python integers; converting each count to a double first would
 * round twice once counts pass 2^53.
 *
 * Ownership: a pure function of two integers; nothing is allocated.
 */
#ifndef SS_RATIO_H
#define SS_RATIO_H

/* ss_ratio beyond 2^53, where converting to double would round. */
double ss_ratio_wide(unsigned __int128 n, unsigned __int128 d);

/*
 * n / d for d > 0; 0.0 when d is 0 (callers handle that case first).
 * Counts up to 2^53 convert to double exactly, so one division rounds
 * once: the common case stays inline.
 */
static inline double ss_ratio(unsigned __int128 n, unsigned __int128 d)
{
	const unsigned __int128 exact = (unsigned __int128)1 << 53;

	if (n <= exact && d - 1 < exact)  /* 1 <= d <= 2^53 */
		return (double)n / (double)d;
	return ss_ratio_wide(n, d);
}

#endif
