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

#endif
