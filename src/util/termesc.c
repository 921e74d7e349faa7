/*
 * termesc.c - escaping for a terminal (see termesc.h).
 */
#include "util/termesc.h"

#include <string.h>

#include "util/utf8.h"

size_t ss_term_safe_len(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	while (p < end) {
		if (*p >= 0x20 && *p < 0x7F && *p != '\\') {
			p++;
		} else if (*p >= 0x80) {
			uint32_t cp;
			size_t k = ss_utf8_next(p, (size_t)(end - p), &cp);

			if (cp == SS_UTF8_INVALID || ss_cp_unsafe(cp))
				break;
			p += k;
		} else {
			break;
		}
	}
	return (size_t)(p - (const unsigned char *)s);
}

size_t ss_term_escape_byte(unsigned char c, char out[5])
{
	static const char named[] = "\\\\\aa\bb\tt\nn\vv\ff\rr";

	for (size_t i = 0; i + 1 < sizeof(named); i += 2) {
		if ((unsigned char)named[i] == c) {
			out[0] = '\\';
			out[1] = named[i + 1];
			out[2] = '\0';
			return 2;
		}
	}
	out[0] = '\\';
	out[1] = (char)('0' + (c >> 6));
	out[2] = (char)('0' + ((c >> 3) & 7));
	out[3] = (char)('0' + (c & 7));
	out[4] = '\0';
	return 4;
}

void ss_buf_add_term(struct ss_buf *b, const char *s, size_t n)
{
	while (n > 0) {
		size_t k = ss_term_safe_len(s, n);
		char esc[5];

		ss_buf_add(b, s, k);
		if (k == n)
			break;
		ss_buf_add(b, esc, ss_term_escape_byte((unsigned char)s[k], esc));
		s += k + 1;
		n -= k + 1;
	}
}

void ss_buf_add_terms(struct ss_buf *b, const char *s)
{
	if (s)
		ss_buf_add_term(b, s, strlen(s));
}

void ss_term_put(FILE *out, const char *s, size_t n)
{
	while (n > 0) {
		size_t k = ss_term_safe_len(s, n);
		char esc[5];

		if (k)
			fwrite(s, 1, k, out);
		if (k == n)
			break;
		fwrite(esc, 1, ss_term_escape_byte((unsigned char)s[k], esc), out);
		s += k + 1;
		n -= k + 1;
	}
}
