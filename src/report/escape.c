/*
 * escape.c - the Markdown escaping of escape.h.
 */
#include "report/escape.h"

#include <string.h>

/* One byte of text the terminal shows as it is, escaped for Markdown. */
static void md_byte(struct ss_buf *b, char c)
{
	switch (c) {
	case '<': ss_buf_adds(b, "&lt;"); return;
	case '>': ss_buf_adds(b, "&gt;"); return;
	case '&': ss_buf_adds(b, "&amp;"); return;
	case '\\': case '`': case '*': case '_': case '[': case ']': case '|': case '~':
	case '$':
		ss_buf_addc(b, '\\');
		break;
	default:
		break;
	}
	ss_buf_addc(b, c);
}

static bool md_plain(char c)
{
	return !strchr("<>&\\`*_[]|~$", c);
}

void ss_buf_add_md(struct ss_buf *b, const char *s, size_t n)
{
	while (n > 0) {
		size_t k = ss_term_safe_len(s, n), run = 0;
		char esc[5];

		/* what the terminal shows as it is, with Markdown's own escapes */
		while (run < k) {
			size_t j = run;

			while (j < k && md_plain(s[j]))
				j++;
			ss_buf_add(b, s + run, j - run);
			if (j < k)
				md_byte(b, s[j++]);
			run = j;
		}
		if (k == n)
			break;
		if (s[k] == '\n' || s[k] == '\r') {
			ss_buf_addc(b, ' ');
		} else {
			/* the terminal's escape (\033, \\), its backslashes shown */
			size_t e = ss_term_escape_byte((unsigned char)s[k], esc);

			for (size_t i = 0; i < e; i++)
				md_byte(b, esc[i]);
		}
		s += k + 1;
		n -= k + 1;
	}
}

bool ss_csv_is_formula(const char *s, size_t n)
{
	return n > 0 && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' ||
			 s[0] == '\t' || s[0] == '\r');
}
