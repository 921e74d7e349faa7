/*
 * utf8.h - the one UTF-8 decoder of specscan (jq's jv_unicode.h plays the
 * same part there): the next code point of a byte string, or word that its
 * first byte starts no valid sequence. Every writer that checks the UTF-8
 * of a text from input goes through it: the JSON string writer
 * (report/jsonw.h), the HTML escaping and the chart's text widths and
 * label shortening (report/), and the terminal escaping (util/termesc.h).
 * What each does with an invalid byte (\ufffd, U+FFFD, an octal escape)
 * is its own business.
 *
 * A valid sequence is the shortest form of a code point of U+0000 ..
 * U+10FFFF other than a surrogate (RFC 3629). Anything else is an invalid
 * byte, taken alone: a continuation byte (0x80 .. 0xBF) where a sequence
 * should start, 0xC0, 0xC1 and 0xF5 .. 0xFF, an overlong form, a
 * surrogate (U+D800 .. U+DFFF), a value past U+10FFFF, and a sequence cut
 * short by the end of the text or by a byte that is not a continuation.
 * The caller then goes on at the next byte, so a bad sequence of k bytes
 * reads as k invalid bytes (or fewer, when a valid sequence starts inside
 * it).
 *
 * Nothing here allocates or keeps state; it reads only the bytes it is
 * given. Header-only: the JSON string writer is on the path of every
 * enriched line.
 */
#ifndef SS_UTF8_H
#define SS_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* What *cp holds after an invalid byte (no code point is this large). */
#define SS_UTF8_INVALID UINT32_MAX

/*
 * Decode the sequence at s[0 .. n), n >= 1: its code point in *cp and its
 * length in bytes (1 to 4). When s[0] starts no valid sequence, *cp is
 * SS_UTF8_INVALID and the length is 1.
 */
static inline size_t ss_utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned c = s[0];
	size_t len;
	uint32_t v;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xC2 && c <= 0xDF) {
		len = 2;
		v = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		v = c & 0x0F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		v = c & 0x07;
	} else {
		goto invalid;
	}
	if (n < len)
		goto invalid;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			goto invalid;
		v = (v << 6) | (s[i] & 0x3F);
	}
	/* overlong forms (a 2-byte one cannot be: 0xC0 and 0xC1 are out),
	 * surrogates and values past U+10FFFF */
	if ((len == 3 && v < 0x800) || (len == 4 && v < 0x10000) ||
	    (v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF)
		goto invalid;
	*cp = v;
	return len;
invalid:
	*cp = SS_UTF8_INVALID;
	return 1;
}

#endif
