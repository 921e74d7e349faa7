/*
 * htmlesc.c - escaping for the HTML report (see htmlesc.h).
 */
#include "report/htmlesc.h"

#include <stdint.h>
#include <string.h>

#include "util/termesc.h"
#include "util/utf8.h"

void ss_buf_add_html(struct ss_buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, start = 0;

	while (i < n) {
		const char *rep = NULL;
		size_t len = 1;

		switch (p[i]) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		default:
			if (p[i] < 0x20 && p[i] != '\t' && p[i] != '\n') {
				rep = "\xEF\xBF\xBD";
			} else if (p[i] == 0x7F) {
				rep = "\xEF\xBF\xBD";
			} else if (p[i] >= 0x80) {
				uint32_t cp;

				len = ss_utf8_next(p + i, n - i, &cp);
				if (cp == SS_UTF8_INVALID || ss_cp_unsafe(cp))
					rep = "\xEF\xBF\xBD";
			}
		}
		if (rep) {
			ss_buf_add(b, s + start, i - start);
			ss_buf_adds(b, rep);
			start = i + len;
		}
		i += len;
	}
	ss_buf_add(b, s + start, n - start);
}

void ss_buf_add_htmls(struct ss_buf *b, const char *s)
{
	if (s)
		ss_buf_add_html(b, s, strlen(s));
}
