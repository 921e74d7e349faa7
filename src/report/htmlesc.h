/*
 * htmlesc.h - the one escaping function of the HTML report: every text
 * that may come from input (input names, group keys, engine names, chart
 * titles and labels) reaches the page through it, in HTML content, in SVG
 * and in quoted attribute values alike.
 *
 * & < > " ' become entities; bytes that are not valid UTF-8 (util/utf8.h),
 * NUL, DEL and the other C0 controls but tab and newline, and the code
 * points no page shows raw (C1 controls, bidirectional overrides:
 * ss_cp_unsafe() of util/termesc.h) become U+FFFD, so any input gives a
 * well-formed page that shows what it can of the name, in its order.
 *
 * Ownership: both functions append to a buffer the caller owns and keep
 * nothing; an allocation failure shows in its `failed` flag (util/buf.h).
 */
#ifndef SS_HTMLESC_H
#define SS_HTMLESC_H

#include <stddef.h>

#include "util/buf.h"

/* s[0..n), escaped. */
void ss_buf_add_html(struct ss_buf *b, const char *s, size_t n);
/* The NUL-terminated s, escaped; nothing for NULL. */
void ss_buf_add_htmls(struct ss_buf *b, const char *s);

#endif
