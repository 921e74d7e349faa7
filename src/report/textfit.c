/*
 * textfit.c - prose at the console's width (textfit.h): words wrapped
 * after an indent, a wrapped cell's next line, and the console's lines
 * that are wider than the terminal wrapped, boxes left alone.
 */
#include "report/textfit.h"

#include <string.h>

/* Characters, not bytes: continuation bytes do not count. */
size_t ss_text_columns(const char *s, size_t n)
{
	size_t w = 0;

	for (size_t i = 0; i < n; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

/* The bytes of `s` (n bytes) that hold its first `chars` characters. */
size_t ss_text_prefix_bytes(const char *s, size_t n, size_t chars)
{
	size_t i = 0;

	for (; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && chars-- == 0)
			break;
	return i;
}

static void spaces(struct ss_buf *out, size_t n)
{
	while (n--)
		ss_buf_addc(out, ' ');
}

/* The next line of a wrapped cell, from byte *at of `s` (n bytes): the
 * words that fit in `w` columns (a word longer than that cut); *at moves
 * past it and the spaces after it. */
void ss_text_next_line(const char *s, size_t n, size_t w, size_t *at, size_t *len)
{
	size_t i = *at, end = i, col = 0;

	while (i < n) {
		size_t j = i, ww;

		while (j < n && s[j] != ' ')
			j++;
		ww = ss_text_columns(s + i, j - i);
		if (col && col + 1 + ww > w)
			break;
		if (!col && ww > w) {
			end = i + ss_text_prefix_bytes(s + i, j - i, w);
			i = end;
			break;
		}
		col += (col ? 1 : 0) + ww;
		end = j;
		i = j;
		while (i < n && s[i] == ' ')
			i++;
	}
	*len = end - *at;
	while (i < n && s[i] == ' ')
		i++;
	*at = i;
}

/* Words of `s` after `indent`, wrapped at `limit` columns (0: none). */
void ss_text_wrap(struct ss_buf *out, const char *s, size_t n, const char *indent,
		    size_t limit)
{
	size_t col = 0, i = 0;

	while (i < n) {
		size_t j = i, w;

		while (j < n && s[j] != ' ')
			j++;
		w = ss_text_columns(s + i, j - i);
		if (col == 0) {
			ss_buf_adds(out, indent);
			col = strlen(indent);
		} else if (limit && col + 1 + w > limit) {
			ss_buf_addc(out, '\n');
			ss_buf_adds(out, indent);
			col = strlen(indent);
		} else {
			ss_buf_addc(out, ' ');
			col++;
		}
		ss_buf_add(out, s + i, j - i);
		col += w;
		i = j < n ? j + 1 : j;
	}
	if (col)
		ss_buf_addc(out, '\n');
}

/* Whether a line of the console is a box's (drawn to its own width). */
static bool box_row(const char *s, size_t n)
{
	static const char *const starts[] = {"\xE2\x94", "\xE2\x95", "+", "|"};

	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		if (n >= strlen(starts[i]) && memcmp(s, starts[i], strlen(starts[i])) == 0)
			return true;
	return false;
}

/* One line longer than `limit` (no newline), wrapped: its items (parts
 * two spaces apart, as in "1: 86%  2: 62%") kept whole when each fits,
 * else its words; the lines after the first indented two more. */
static void fit_line(struct ss_buf *out, const char *s, size_t n, size_t limit)
{
	size_t ind = 0, col = 0, i, room;
	bool items = true;
	char sep[3] = "  ";

	while (ind < n && s[ind] == ' ')
		ind++;
	room = limit > ind + 2 ? limit - ind - 2 : 1;
	for (i = ind; i < n;) {   /* does every item fit a line? */
		size_t j = i;

		while (j < n && !(s[j] == ' ' && j + 1 < n && s[j + 1] == ' '))
			j++;
		items &= ss_text_columns(s + i, j - i) <= room;
		while (j < n && s[j] == ' ')
			j++;
		i = j;
	}
	if (!items)
		sep[1] = '\0';
	ss_buf_add(out, s, ind);
	col = ind;
	for (i = ind; i < n;) {
		size_t j = i, w;

		while (j < n && (items ? !(s[j] == ' ' && j + 1 < n && s[j + 1] == ' ') : s[j] != ' '))
			j++;
		w = ss_text_columns(s + i, j - i);
		if (col > ind && col + strlen(sep) + w > limit) {
			ss_buf_addc(out, '\n');
			spaces(out, ind + 2);
			col = ind + 2;
		} else if (col > ind) {
			ss_buf_adds(out, sep);
			col += strlen(sep);
		}
		ss_buf_add(out, s + i, j - i);
		col += w;
		while (j < n && s[j] == ' ')
			j++;
		i = j;
	}
}

void ss_text_fit_lines(struct ss_buf *out, size_t from, size_t limit)
{
	struct ss_buf in = SS_BUF_INIT;
	size_t i = 0;

	if (!limit || out->failed || from >= out->len)
		return;
	ss_buf_add(&in, out->data + from, out->len - from);
	if (in.failed) {
		out->failed = true;
		ss_buf_release(&in);
		return;
	}
	ss_buf_setlen(out, from);
	while (i < in.len) {
		const char *s = in.data + i;
		const char *nl = memchr(s, '\n', in.len - i);
		size_t n = nl ? (size_t)(nl - s) : in.len - i;

		/* a box's title too is drawn to the box's width */
		bool title = nl && box_row(nl + 1, in.len - i - n - 1);

		if (ss_text_columns(s, n) > limit && !box_row(s, n) && !title &&
		    !memchr(s, '\033', n))
			fit_line(out, s, n, limit);
		else
			ss_buf_add(out, s, n);
		if (nl)
			ss_buf_addc(out, '\n');
		i += n + (nl ? 1 : 0);
	}
	ss_buf_release(&in);
}
