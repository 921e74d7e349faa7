/*
 * termesc.h - the one escaping of text for a terminal, as git quotes
 * paths: every message (util/msg.h), the console tables (report/tabular.h)
 * and anything else written where a terminal may read it goes through it,
 * so a name from an input (a file or archive member name, a model, a
 * metadata value, a reason) can neither forge a line nor drive the
 * terminal (an OSC title, a colour, a clear screen, a BEL).
 *
 * Shown as it is: printable ASCII but the backslash, and valid UTF-8
 * (util/utf8.h) other than the code points of ss_cp_unsafe(). Escaped:
 * the backslash (\\), the C0 controls with a C name (\a \b \t \n \v \f
 * \r), every other byte below 0x20, DEL, an invalid UTF-8 byte and each
 * byte of an unsafe code point as three octal digits (\033, \177, \377,
 * \302\233). The result is printable and unambiguous: a backslash always
 * starts an escape.
 *
 * Nothing here keeps state or allocates but the ss_buf append (which
 * sets the buffer's `failed` flag, util/buf.h); the FILE form allocates
 * nothing, so "out of memory" itself can be said safely.
 */
#ifndef SS_TERMESC_H
#define SS_TERMESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/buf.h"

/*
 * A code point that valid UTF-8 may carry but no output for people shows
 * raw: a C1 control (U+0080 .. U+009F: U+009B is a CSI to many
 * terminals) or a bidirectional embedding, override or isolate (U+202A ..
 * U+202E, U+2066 .. U+2069), which make a name read as something else.
 */
static inline bool ss_cp_unsafe(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

/* The length of the longest prefix of s[0..n) that is shown as it is. */
size_t ss_term_safe_len(const char *s, size_t n);

/*
 * The escape of byte c (one that ss_term_safe_len() stops at), into out,
 * NUL-terminated; its length (2 or 4).
 */
size_t ss_term_escape_byte(unsigned char c, char out[5]);

/* s[0..n), escaped, appended to b. */
void ss_buf_add_term(struct ss_buf *b, const char *s, size_t n);
/* The NUL-terminated s, escaped; nothing for NULL. */
void ss_buf_add_terms(struct ss_buf *b, const char *s);
/* s[0..n), escaped, written to out. */
void ss_term_put(FILE *out, const char *s, size_t n);

#endif
