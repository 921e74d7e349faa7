/*
 * textfit.h - prose at the console's width (report-internal; the box
 * tables' own fitting is tabular.c's). Widths count UTF-8 characters.
 */
#ifndef SS_TEXTFIT_H
#define SS_TEXTFIT_H

#include <stddef.h>

#include "util/buf.h"

/* The words of `s` (n bytes, one paragraph) after `indent`, wrapped at
 * `limit` columns (0: none), ending with a newline. */
void ss_text_wrap(struct ss_buf *out, const char *s, size_t n, const char *indent,
		  size_t limit);
/* The next line of a cell wrapped at `w` columns, from byte *at of `s` (n
 * bytes): *len bytes of whole words (a word wider than `w` cut); *at moves
 * past the line and the spaces after it. */
void ss_text_next_line(const char *s, size_t n, size_t w, size_t *at, size_t *len);
/* Every line of `out` from byte `from` on that is wider than `limit` (0:
 * none) and is not a box's or its title's, wrapped at spaces: its items
 * (parts two spaces apart) kept whole when each fits, else its words; the
 * lines after the first indented two more. Nothing is cut. */
void ss_text_fit_lines(struct ss_buf *out, size_t from, size_t limit);

/* The columns of `s` (n bytes of UTF-8): its characters. */
size_t ss_text_columns(const char *s, size_t n);
/* The bytes of `s` (n bytes) that hold its first `chars` characters. */
size_t ss_text_prefix_bytes(const char *s, size_t n, size_t chars);

#endif
