/*
 * number.h - the number texts of the server's counters (SPEC 10.1, 10.2):
 * the float syntax of a sample's value, a counter's value (the nearest
 * double of its text, SPEC 13, which must be a whole number below 2^64)
 * and a gauge's double. Pure functions of the text; nothing is allocated:
 * a text of any length is read in a fixed buffer (its first 800
 * significant digits, and one sticky digit for the rest, round as the
 * whole text does).
 */
#ifndef SS_SERVER_NUMBER_H
#define SS_SERVER_NUMBER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The length of the float text at p (before end): `12`, `43.0`, `.5`,
 * `1.23457e+06`, `NaN`, `Inf`, `+Inf`, `-Inf`, with an optional sign on the
 * numbers; 0 when p does not start with one.
 */
size_t ss_server_float_len(const char *p, const char *end);

/* Why a value is not a counter's (SPEC 10.2: finite, >= 0 and integral). */
enum ss_count_status {
	SS_COUNT_OK = 0,
	SS_COUNT_SYNTAX,    /* not a float text */
	SS_COUNT_NONFINITE, /* NaN or an infinity */
	SS_COUNT_NEGATIVE,
	SS_COUNT_FRACTION,  /* not integral */
	SS_COUNT_RANGE      /* 2^64 or more */
};

/* The reason for a message ("counter value is NaN or infinite", ...). */
const char *ss_count_status_text(enum ss_count_status st);

/*
 * Read the n bytes at p (a whole float text) as a counter: *out gets the
 * nearest double's value (SPEC 13). *inexact is set (never cleared) when
 * the value is 2^53 or more.
 */
enum ss_count_status ss_server_parse_count(const char *p, size_t n, uint64_t *out, bool *inexact);

/*
 * Whether a counter's text has an exponent and one to six significant
 * digits: llama.cpp's %g print of a count from 10^6 up, rounded (SPEC
 * 10.2: it makes only that family inexact).
 */
bool ss_server_count_rounded(const char *p, size_t n);

/* A gauge's value: false when the text is not a float or not finite. */
bool ss_server_parse_gauge(const char *p, size_t n, double *out);

#endif
