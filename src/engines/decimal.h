/*
 * decimal.h - the nearest double of a plain decimal number text, as
 * AIPerf writes its times (`241.63621701857465`), without the general
 * parser: exact (round to nearest, ties to even) by integer arithmetic.
 */
#ifndef SS_ENGINES_DECIMAL_H
#define SS_ENGINES_DECIMAL_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The n bytes at s as a JSON number of the form DIGITS or DIGITS.DIGITS
 * (no sign, no exponent, no leading zero before other integer digits), at
 * most 19 digits in all: *out gets the nearest double of its value.
 * false, *out untouched: any other text (the caller reads it with the
 * general parser). Only the n bytes are read.
 */
bool ss_decimal_double(const char *s, size_t n, double *out);

/*
 * The same number where a longer text starts at s, its end found on the
 * way (8 bytes at a time: the text must have 8 readable bytes past the
 * byte that ends the number and past each of its digits, as padded texts
 * have): its length, with its nearest double in *out and in *integral
 * whether it had no point. 0, *out untouched: s does not start with such
 * a number of at most 19 digits followed by a byte that is not a digit,
 * a point or an exponent (a sign, an exponent, more digits: the caller
 * reads the number another way).
 */
size_t ss_decimal_lead(const char *s, double *out, bool *integral);

#endif
