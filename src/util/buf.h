/*
 * buf.h - a growable byte buffer (git's strbuf, smaller).
 *
 * The buffer owns `data`; it is always NUL-terminated when len > 0 or after
 * any append, and it keeps `SS_BUF_SLACK` spare bytes after the end so a
 * JSON text built in it can be parsed in place (the shim needs padding).
 * A failed append leaves the buffer as it was and sets `failed`, so a
 * writer can append many pieces and check once at the end.
 */
#ifndef SS_BUF_H
#define SS_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SS_BUF_SLACK 64

struct ss_buf {
	char *data;
	size_t len;
	size_t cap;     /* bytes allocated, slack included */
	bool failed;    /* an allocation failed since the last reset */
};

#define SS_BUF_INIT {NULL, 0, 0, false}

void ss_buf_init(struct ss_buf *b);
void ss_buf_release(struct ss_buf *b);
/* Empty the buffer, keep its memory, clear `failed`. */
void ss_buf_reset(struct ss_buf *b);
/* Make room for `extra` more bytes (plus slack). false on failure. */
bool ss_buf_grow(struct ss_buf *b, size_t extra);
/* The appends that grow the buffer first (the inline ones below call them). */
void ss_buf_add_grow(struct ss_buf *b, const void *p, size_t n);
void ss_buf_addc_grow(struct ss_buf *b, char c);

/*
 * Whether n more bytes fit without growing: once grown, cap >= len +
 * SS_BUF_SLACK + 1 always holds, so the difference does not wrap.
 */
static inline bool ss_buf_fits(const struct ss_buf *b, size_t n)
{
	return b->cap && n < b->cap - b->len - SS_BUF_SLACK;
}

/* The appends, inline: a report writes many short pieces. */
static inline void ss_buf_add(struct ss_buf *b, const void *p, size_t n)
{
	if (!ss_buf_fits(b, n)) {
		ss_buf_add_grow(b, p, n);
		return;
	}
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static inline void ss_buf_addc(struct ss_buf *b, char c)
{
	if (!ss_buf_fits(b, 1)) {
		ss_buf_addc_grow(b, c);
		return;
	}
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}

void ss_buf_adds(struct ss_buf *b, const char *s);
void ss_buf_addf(struct ss_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ss_buf_vaddf(struct ss_buf *b, const char *fmt, va_list ap);
void ss_buf_add_i64(struct ss_buf *b, int64_t v);
void ss_buf_add_u64(struct ss_buf *b, uint64_t v);
/*
 * Set the length to `len` and terminate there: to cut back to an earlier
 * length, or to take bytes written in place after ss_buf_grow() (len must
 * lie within the room that made).
 */
void ss_buf_setlen(struct ss_buf *b, size_t len);

#endif
