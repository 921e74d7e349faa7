/*
 * unescape.c - the inside of a JSON string to its text: for AIPerf's
 * JSON-in-a-string packets and the names the engines read (DESIGN: the
 * shim's "unescape into a caller buffer"), and for the shim's own string
 * readers (json_ops.h), so that every string in specscan decodes alike.
 * Plain C: it needs no parser.
 */
#include "json/unescape.h"
#include "json/json_ops.h"

#include <string.h>

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

static bool read_u4(const char *p, const char *end, unsigned *out)
{
	unsigned v = 0;

	if (end - p < 4)
		return false;
	for (int i = 0; i < 4; i++) {
		int h = hexval(p[i]);

		if (h < 0)
			return false;
		v = v << 4 | (unsigned)h;
	}
	*out = v;
	return true;
}

/* Encode a code point as UTF-8 at d; the number of bytes written. */
static size_t put_utf8(char *d, unsigned cp)
{
	if (cp < 0x80) {
		d[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		d[0] = (char)(0xC0 | cp >> 6);
		d[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		d[0] = (char)(0xE0 | cp >> 12);
		d[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		d[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	d[0] = (char)(0xF0 | cp >> 18);
	d[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	d[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	d[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* U+FFFD, what a lone surrogate decodes to. */
#define REPLACEMENT_CHAR 0xFFFDu

char *ss_json_unescape_to(char *d, const char *raw, size_t n)
{
	const char *p = raw, *end = raw + n;

	while (p < end) {
		const char *bs = memchr(p, '\\', (size_t)(end - p));
		const char *stop = bs ? bs : end;
		unsigned char ctl = 0;

		for (const char *q = p; q < stop; q++)  /* vectorizes: no early exit */
			ctl |= (unsigned char)*q < 0x20;
		if (ctl)
			return NULL;  /* a raw control character */
		memcpy(d, p, (size_t)(stop - p));
		d += stop - p;
		if (!bs)
			break;
		p = bs + 1;
		if (p >= end)
			return NULL;
		switch (*p++) {
		case '"': *d++ = '"'; break;
		case '\\': *d++ = '\\'; break;
		case '/': *d++ = '/'; break;
		case 'b': *d++ = '\b'; break;
		case 'f': *d++ = '\f'; break;
		case 'n': *d++ = '\n'; break;
		case 'r': *d++ = '\r'; break;
		case 't': *d++ = '\t'; break;
		case 'u': {
			unsigned cp, lo;

			if (!read_u4(p, end, &cp))
				return NULL;
			p += 4;
			/*
			 * A surrogate pair is one code point; a surrogate
			 * without its other half is valid JSON (Python and jq
			 * read it) but no character: U+FFFD, as jq decodes it.
			 */
			if (cp >= 0xD800 && cp <= 0xDBFF && end - p >= 6 && p[0] == '\\' &&
			    p[1] == 'u' && read_u4(p + 2, end, &lo) && lo >= 0xDC00 && lo <= 0xDFFF) {
				p += 6;
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			} else if (cp >= 0xD800 && cp <= 0xDFFF) {
				cp = REPLACEMENT_CHAR;
			}
			d += put_utf8(d, cp);
			break;
		}
		default:
			return NULL;
		}
	}
	return d;
}

bool ss_json_unescape(const char *raw, size_t n, struct ss_buf *out)
{
	char *end;

	/* The text never grows: an escape of 2, 6 or 12 bytes gives 1 to 4. */
	if (!ss_buf_grow(out, n))
		return false;
	end = ss_json_unescape_to(out->data + out->len, raw, n);
	if (!end)
		return false;
	ss_buf_setlen(out, (size_t)(end - out->data));
	return true;
}
