/*
 * stream.c - the common part of every decoded stream: the read call with
 * its peek buffer and sticky failure, names and error texts.
 */
#include "io/source.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/alloc.h"

void ss_stream_setup(struct ss_stream *s, const struct ss_stream_ops *ops,
		     struct ss_stream *inner)
{
	s->ops = ops;
	s->inner = inner;
	s->name = "";
	s->peek = NULL;
	s->peek_off = s->peek_len = s->peek_cap = 0;
	s->peek_state = SS_IO_OK;
	s->failed = false;
	s->err[0] = '\0';
	s->stop = inner ? inner->stop : NULL;
}

void ss_stream_set_stop(struct ss_stream *s, const volatile sig_atomic_t *stop)
{
	s->stop = stop;
}

enum ss_io ss_stream_fail(struct ss_stream *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	s->failed = true;
	return SS_IO_ERROR;
}

enum ss_io ss_stream_read(struct ss_stream *s, void *buf, size_t n, size_t *got)
{
	enum ss_io r;

	*got = 0;
	if (s->peek_off < s->peek_len) {
		size_t k = s->peek_len - s->peek_off;

		if (k > n)
			k = n;
		memcpy(buf, s->peek + s->peek_off, k);
		s->peek_off += k;
		*got = k;
		return SS_IO_OK;
	}
	if (s->failed)
		return SS_IO_ERROR;
	if (s->peek_state != SS_IO_OK)
		return s->peek_state;   /* the end was met while peeking */
	if (n == 0)
		return SS_IO_OK;
	if (s->stop && *s->stop)
		return ss_stream_fail(s, "interrupted");
	r = s->ops->read(s, buf, n, got);
	if (r == SS_IO_ERROR) {
		s->failed = true;
		if (*got > 0)
			return SS_IO_OK;   /* the data first, the failure next time */
	}
	return r;
}

bool ss_stream_inplace(const struct ss_stream *s, size_t *room, size_t *step)
{
	*room = s->ops->inplace ? s->ops->inplace->room : 0;
	*step = s->ops->inplace ? s->ops->inplace->step : 0;
	return s->ops->inplace != NULL;
}

enum ss_io ss_stream_read_inplace(struct ss_stream *s, void *buf, size_t n, size_t *got)
{
	enum ss_io r;

	/* Peeked bytes, a failure or the end: as a plain read. */
	if (s->peek_off < s->peek_len || s->failed || s->peek_state != SS_IO_OK || n == 0 ||
	    !s->ops->inplace)
		return ss_stream_read(s, buf, n, got);
	*got = 0;
	if (s->stop && *s->stop)
		return ss_stream_fail(s, "interrupted");
	r = s->ops->inplace->read(s, buf, n, got);
	if (r == SS_IO_ERROR) {
		s->failed = true;
		if (*got > 0)
			return SS_IO_OK;   /* the data first, the failure next time */
	}
	return r;
}

void ss_stream_release(struct ss_stream *s)
{
	if (s->ops->inplace && !s->failed)
		s->ops->inplace->release(s);
}

bool ss_stream_peek(struct ss_stream *s, size_t want, const unsigned char **p,
		    size_t *got)
{
	if (s->peek_off > 0) {
		memmove(s->peek, s->peek + s->peek_off, s->peek_len - s->peek_off);
		s->peek_len -= s->peek_off;
		s->peek_off = 0;
	}
	if (want > s->peek_cap) {
		unsigned char *np = ss_realloc(s->peek, want);

		if (!np)
			return false;
		s->peek = np;
		s->peek_cap = want;
	}
	while (s->peek_len < want && s->peek_state == SS_IO_OK && !s->failed) {
		size_t k = 0;
		enum ss_io r = s->ops->read(s, s->peek + s->peek_len,
					    want - s->peek_len, &k);

		if (r == SS_IO_ERROR)
			s->failed = true;   /* given back after the peeked bytes */
		else if (r == SS_IO_END)
			s->peek_state = SS_IO_END;
		s->peek_len += k;
	}
	*p = s->peek;
	*got = s->peek_len < want ? s->peek_len : want;
	return true;
}

const char *ss_stream_name(const struct ss_stream *s)
{
	return s->name;
}

const char *ss_stream_error(const struct ss_stream *s)
{
	return s->err[0] ? s->err : "read error";
}

void ss_stream_free(struct ss_stream *s)
{
	while (s) {
		struct ss_stream *inner = s->inner;

		ss_free(s->peek);
		s->ops->destroy(s);
		s = inner;
	}
}

/* Not per-stream state: a process-wide knob only tests/fuzz turns. */
static size_t source_buffer_size = SS_SOURCE_BUFFER_SIZE;

size_t ss_source_buffer_size(void)
{
	return source_buffer_size;
}

void ss_source_set_buffer_size(size_t n)
{
	source_buffer_size = n < 4096 ? 4096 : n;
}
