#include "util/buf.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "util/alloc.h"

void ss_buf_init(struct ss_buf *b)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	b->failed = false;
}

void ss_buf_release(struct ss_buf *b)
{
	ss_free(b->data);
	ss_buf_init(b);
}

void ss_buf_reset(struct ss_buf *b)
{
	b->len = 0;
	b->failed = false;
	if (b->data)
		b->data[0] = '\0';
}

/* Not SS_ALLOC_GROW: the size counts the slack and the NUL, and the new
 * bytes are zeroed (below). */
bool ss_buf_grow(struct ss_buf *b, size_t extra)
{
	size_t need, cap;
	char *p;

	if (extra > SIZE_MAX - b->len - SS_BUF_SLACK - 1) {
		b->failed = true;
		return false;
	}
	need = b->len + extra + SS_BUF_SLACK + 1;
	if (need <= b->cap)
		return true;
	cap = b->cap ? b->cap : 256;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	p = ss_realloc(b->data, cap);
	if (!p) {
		b->failed = true;
		return false;
	}
	/*
	 * The slack is handed to the JSON parser as padding, which it may
	 * read: give it a defined value (found by valgrind, tests/valgrind.sh).
	 */
	memset(p + b->cap, 0, cap - b->cap);
	b->data = p;
	b->cap = cap;
	return true;
}

void ss_buf_add_grow(struct ss_buf *b, const void *p, size_t n)
{
	if (!ss_buf_grow(b, n))
		return;
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void ss_buf_adds(struct ss_buf *b, const char *s)
{
	ss_buf_add(b, s, strlen(s));
}

void ss_buf_addc_grow(struct ss_buf *b, char c)
{
	if (!ss_buf_grow(b, 1))
		return;
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}

void ss_buf_vaddf(struct ss_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	/* written before the slack, never into it: the inline appends rely on
	 * cap >= len + SS_BUF_SLACK + 1 (their room, cap - len - slack, would
	 * wrap otherwise; found with -f markdown on a log family's notes) */
	if (!ss_buf_grow(b, 64))
		return;
	va_copy(cp, ap);
	n = vsnprintf(b->data + b->len, b->cap - b->len - SS_BUF_SLACK, fmt, cp);
	va_end(cp);
	if (n < 0) {
		b->failed = true;
		return;
	}
	if ((size_t)n >= b->cap - b->len - SS_BUF_SLACK) {
		if (!ss_buf_grow(b, (size_t)n))
			return;
		vsnprintf(b->data + b->len, b->cap - b->len - SS_BUF_SLACK, fmt, ap);
	}
	b->len += (size_t)n;
}

void ss_buf_addf(struct ss_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ss_buf_vaddf(b, fmt, ap);
	va_end(ap);
}

void ss_buf_add_u64(struct ss_buf *b, uint64_t v)
{
	char tmp[24];
	size_t i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	ss_buf_add(b, tmp + i, sizeof(tmp) - i);
}

void ss_buf_add_i64(struct ss_buf *b, int64_t v)
{
	if (v < 0) {
		ss_buf_addc(b, '-');
		ss_buf_add_u64(b, (uint64_t)0 - (uint64_t)v);
	} else {
		ss_buf_add_u64(b, (uint64_t)v);
	}
}

void ss_buf_setlen(struct ss_buf *b, size_t len)
{
	assert(len == 0 || len + SS_BUF_SLACK < b->cap);
	b->len = len;
	if (b->data)
		b->data[len] = '\0';
}
