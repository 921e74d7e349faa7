// numbers.cpp - a JSON number token to its double, for both paths of the
// shim (their syntax checks are in shim.h, inlined where they run).
//
// The double is correctly rounded whatever the number of digits (SPEC
// 1.2). With the fast paths, simdjson's own number reader does the usual
// numbers where they lie in the text (its internals: configure checks
// them with the whole-text path); glibc's strtod, which rounds correctly
// at any length, does the long ones simdjson 3.0.1 misreads, and every
// number in a build without the fast paths.
#include "json/shim.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <locale.h>
#include <string>

namespace SSJ_NS {

#if defined(__SSE2__) && defined(__AVX2__)
// (defined here, away from the grammar's file, so that the compiler there
// reads it from memory instead of making its vectors again; shim.h
// declares it)
const digit_consts DIGIT_CONSTS;
#endif

namespace {

// A C locale of our own keeps strtod from reading ',' as the decimal
// point under LC_NUMERIC=de_DE.
locale_t c_locale(void)
{
	static locale_t loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	return loc;
}

// The token read by strtod, correctly rounded. Throws std::bad_alloc.
enum ssj_status strtod_double(std::string_view tok, double *out)
{
	locale_t loc = c_locale();
	std::string text(tok);
	char *end = nullptr;
	double d;

	if (loc == (locale_t)0)
		return SSJ_ENOMEM;
	errno = 0;
	d = strtod_l(text.c_str(), &end, loc);
	if (end != text.c_str() + text.size())
		return SSJ_ESYNTAX;
	if (std::isinf(d))
		return SSJ_ERANGE;
	*out = d;   // underflow reads as 0 (or the nearest subnormal), as Python's float()
	return SSJ_OK;
}

// What JSON makes of the double d read from tok: an integer literal
// converts exactly (SPEC 1.2), so `-0` is 0.0.
SSJ_HOT double integer_exact(std::string_view tok, double d)
{
	if (d == 0.0 && tok.find_first_of(".eE") == std::string_view::npos)
		return 0.0;
	return d;
}

} // namespace

#ifdef SSJ_HAVE_WHOLE
// Significant digits of a JSON number's mantissa (leading zeros, of the
// integer or the fraction part, do not count).
static size_t significant_digits(std::string_view t)
{
	size_t n = 0;
	bool lead = true;

	for (char c : t) {
		if (c == 'e' || c == 'E')
			break;
		if (c < '0' || c > '9')
			continue;
		if (lead && c == '0')
			continue;
		lead = false;
		n++;
	}
	return n;
}

// simdjson's reading of the number at text (error e, value *out), made
// right: long numbers (more than 19 significant digits) go to strtod,
// since simdjson 3.0.1's reader misreads some of them (upstream issue
// 2093: 0.33333333333333333333333333333 came out as 1.49e-10); a number
// past the double range is SSJ_ERANGE.
static enum ssj_status finish_double(error_code e, std::string_view tok, double *out)
{
	if (e == NUMBER_ERROR || e == NUMBER_OUT_OF_RANGE) {
		if (json_number_syntax(tok) && significant_digits(tok) > 19)
			return strtod_double(tok, out);
		return json_number_syntax(tok) ? SSJ_ERANGE : SSJ_ESYNTAX;
	}
	if (e)
		return map_error(e);
	// (a token of at most 19 bytes has at most 19 digits)
	if (tok.size() > 19 && significant_digits(tok) > 19) {
		enum ssj_status s = strtod_double(tok, out);
		if (s != SSJ_OK)
			return s;
	}
	*out = integer_exact(tok, *out);
	return SSJ_OK;
}

// The usual number, [-]DIGITS[.DIGITS] with at most 19 digits in all
// (a leading zero alone before the point), read eight digits at a time:
// its digits as the integer w and the point as 10^-k go to simdjson's own
// last step (compute_float_64, Eisel-Lemire), which is where its reader
// would send the same w and k, so the double is the same to the bit.
// simdjson's reader takes the digits one at a time (about 110 of its 215
// instructions for a 17-digit double). false: not that shape, or the last
// step declined (the caller reads it the general way). Only len bytes are
// looked at.
static bool plain_double(const char *text, size_t len, double *out)
{
	const char *p = text, *end = text + len;
	bool negative = p < end && *p == '-';
	uint64_t w = 0;

	p += negative;
	const char *digits = p;
	while (p < end && is_digit(*p))
		w = w * 10 + (uint64_t)(*p++ - '0');
	size_t int_digits = (size_t)(p - digits);
	if (int_digits == 0 || (digits[0] == '0' && int_digits > 1) || int_digits > 19)
		return false;
	int64_t k = 0;
	if (p < end) {
		if (*p != '.')
			return false;
		const char *frac = ++p;
		if (frac == end || (size_t)(end - frac) + int_digits > 19)
			return false;
		const uint8_t *u = reinterpret_cast<const uint8_t *>(p);
		for (; end - p >= 8; p += 8, u += 8) {
			if (!builtin::numberparsing::is_made_of_eight_digits_fast(u))
				return false;
			w = w * 100000000 + builtin::parse_eight_digits_unrolled(u);
		}
		for (; p < end; p++) {
			if (!is_digit(*p))
				return false;
			w = w * 10 + (uint64_t)(*p - '0');
		}
		k = end - frac;
	}
	double d;
	if (!builtin::numberparsing::compute_float_64(-k, w, negative, d))
		return false;
	*out = integer_exact(std::string_view(text, len), d);
	return true;
}

// Read where the text lies: the byte after the token is white space or a
// structural character (where simdjson's reader stops) and the padding
// covers the 8-byte reads of its digit loop. (Copying the text out with
// spaces after it cost a call to memcpy per number.)
enum ssj_status number_double(const char *text, size_t len, double *out)
{
	if (plain_double(text, len, out))
		return SSJ_OK;
	error_code e = builtin::numberparsing::parse_double(
		reinterpret_cast<const uint8_t *>(text)).get(*out);
	return finish_double(e, std::string_view(text, len), out);
}
#else
enum ssj_status number_double(const char *text, size_t len, double *out)
{
	std::string_view tok(text, len);
	double d;

	if (!json_number_syntax(tok))
		return SSJ_ESYNTAX;
	enum ssj_status s = strtod_double(tok, &d);
	if (s == SSJ_OK)
		*out = integer_exact(tok, d);
	return s;
}
#endif

} // namespace SSJ_NS
