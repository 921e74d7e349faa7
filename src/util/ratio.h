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

/* n / d for d > 0; 0.0 when d is 0 (callers handle that case first). */
double ss_ratio(unsigned __int128 n, unsigned __int128 d);

#endif
