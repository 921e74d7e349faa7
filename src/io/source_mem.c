/*
 * source_mem.c - a stream over bytes already in memory, read in chunks of
 * a chosen size, optionally failing at the end (tests use it to cut input
 * at every place and to play a failing decoder); and a stream that fails
 * at the end of another (a spooled archive member that broke).
 */
#include "io/source.h"

#include <stdio.h>
#include <string.h>

#include "util/alloc.h"

struct mem_stream {
	struct ss_stream s;
	const unsigned char *p;
	size_t n, off, chunk;
	const char *fail;
};

static enum ss_io mem_read(struct ss_stream *s, void *buf, size_t n, size_t *got)
{
	struct mem_stream *ms = (struct mem_stream *)s;
	size_t k = ms->n - ms->off;

	if (k == 0) {
		if (ms->fail)
			return ss_stream_fail(s, "%s", ms->fail);
		return SS_IO_END;
	}
	if (ms->chunk && k > ms->chunk)
		k = ms->chunk;
	if (k > n)
		k = n;
	memcpy(buf, ms->p + ms->off, k);
	ms->off += k;
	*got = k;
	return SS_IO_OK;
}

static void mem_destroy(struct ss_stream *s)
{
	ss_free(s);
}

static const struct ss_stream_ops mem_ops = {mem_read, mem_destroy, NULL};

struct ss_stream *ss_source_mem_new(const void *p, size_t n, size_t chunk,
				    const char *fail)
{
	struct mem_stream *ms = ss_malloc(sizeof(*ms));

	if (!ms)
		return NULL;
	ss_stream_setup(&ms->s, &mem_ops, NULL);
	ms->p = p;
	ms->n = n;
	ms->off = 0;
	ms->chunk = chunk;
	ms->fail = fail;
	return &ms->s;
}

/* ---- fail after the end ---- */

struct fail_after_stream {
	struct ss_stream s;
	char why[200];
};

static enum ss_io fail_after_read(struct ss_stream *s, void *buf, size_t n, size_t *got)
{
	struct fail_after_stream *fs = (struct fail_after_stream *)s;
	enum ss_io r = ss_stream_read(s->inner, buf, n, got);

	if (r == SS_IO_ERROR)
		return ss_stream_fail(s, "%s", ss_stream_error(s->inner));
	if (r == SS_IO_END)
		return ss_stream_fail(s, "%s", fs->why);
	return r;
}

static void fail_after_destroy(struct ss_stream *s)
{
	ss_free(s);
}

static const struct ss_stream_ops fail_after_ops = {fail_after_read, fail_after_destroy, NULL};

struct ss_stream *ss_source_fail_after_new(struct ss_stream *inner, const char *why)
{
	struct fail_after_stream *fs = ss_malloc(sizeof(*fs));

	if (!fs) {
		ss_stream_free(inner);
		return NULL;
	}
	ss_stream_setup(&fs->s, &fail_after_ops, inner);
	snprintf(fs->why, sizeof(fs->why), "%s", why);
	return &fs->s;
}
