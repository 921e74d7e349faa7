/*
 * source_gzip.c - gzip decoding with zlib (windowBits 15+32 also accepts a
 * zlib header). Members of a multi-member file make one stream, as gunzip
 * does; zero bytes after the last member are ignored (tape padding), any
 * other trailing byte or an input that ends inside a member is an error.
 */
#include "io/source.h"

#include <limits.h>
#include <zlib.h>

#include "util/alloc.h"


struct gzip_stream {
	struct ss_stream s;
	z_stream z;
	unsigned char *inbuf;
	size_t inbuf_size;
	bool in_end;
	bool between;      /* after a member's end, before the next one */
	bool zinit;
};

static enum ss_io gz_more(struct gzip_stream *gs)
{
	size_t k = 0;
	enum ss_io r = ss_stream_read(gs->s.inner, gs->inbuf, gs->inbuf_size, &k);

	if (r == SS_IO_ERROR)
		return ss_stream_fail(&gs->s, "%s", ss_stream_error(gs->s.inner));
	if (r == SS_IO_END)
		gs->in_end = true;
	gs->z.next_in = gs->inbuf;
	gs->z.avail_in = (uInt)k;
	return SS_IO_OK;
}

static enum ss_io gz_read_some(struct ss_stream *s, void *buf, size_t n, size_t *got);

/* Whatever was inflated before a failure is still delivered. */
static enum ss_io gz_read(struct ss_stream *s, void *buf, size_t n, size_t *got)
{
	struct gzip_stream *gs = (struct gzip_stream *)s;
	enum ss_io r;

	if (n > UINT_MAX)
		n = UINT_MAX;
	r = gz_read_some(s, buf, n, got);
	if (r == SS_IO_ERROR)
		*got = n - gs->z.avail_out;
	return r;
}

static enum ss_io gz_read_some(struct ss_stream *s, void *buf, size_t n, size_t *got)
{
	struct gzip_stream *gs = (struct gzip_stream *)s;

	gs->z.next_out = buf;
	gs->z.avail_out = (uInt)n;
	for (;;) {
		int ret;

		if (gs->z.avail_in == 0) {
			if (gs->in_end) {
				if (!gs->between)
					return ss_stream_fail(s, "truncated gzip data (unexpected end of input)");
				*got = n - gs->z.avail_out;
				return *got ? SS_IO_OK : SS_IO_END;
			}
			if (gz_more(gs) != SS_IO_OK)
				return SS_IO_ERROR;
			continue;
		}
		if (gs->between) {
			/* Skip padding zeros; anything else must start a member. */
			while (gs->z.avail_in && *gs->z.next_in == 0) {
				gs->z.next_in++;
				gs->z.avail_in--;
			}
			if (gs->z.avail_in == 0)
				continue;
			if (*gs->z.next_in != 0x1f)
				return ss_stream_fail(s, "corrupt gzip data: trailing garbage after the last member");
			if (inflateReset(&gs->z) != Z_OK)
				return ss_stream_fail(s, "corrupt gzip data");
			gs->between = false;
		}
		ret = inflate(&gs->z, Z_NO_FLUSH);
		if (ret == Z_STREAM_END) {
			gs->between = true;
		} else if (ret != Z_OK && ret != Z_BUF_ERROR) {
			if (ret == Z_MEM_ERROR)
				return ss_stream_fail(s, "out of memory");
			return ss_stream_fail(s, "corrupt gzip data: %s",
					      gs->z.msg ? gs->z.msg : "inflate failed");
		}
		if (gs->z.avail_out == 0 || (gs->z.avail_out < n && gs->z.avail_in == 0)) {
			*got = n - gs->z.avail_out;
			return SS_IO_OK;
		}
	}
}

static void gz_destroy(struct ss_stream *s)
{
	struct gzip_stream *gs = (struct gzip_stream *)s;

	if (gs->zinit)
		inflateEnd(&gs->z);
	ss_free(gs->inbuf);
	ss_free(gs);
}

static const struct ss_stream_ops gz_ops = {gz_read, gz_destroy, NULL};

static voidpf gz_alloc(voidpf opaque, uInt items, uInt size)
{
	(void)opaque;
	return ss_calloc(items, size);
}

static void gz_free(voidpf opaque, voidpf p)
{
	(void)opaque;
	ss_free(p);
}

struct ss_stream *ss_source_gzip_new(struct ss_stream *inner)
{
	struct gzip_stream *gs = ss_calloc(1, sizeof(*gs));

	if (!gs) {
		ss_stream_free(inner);
		return NULL;
	}
	ss_stream_setup(&gs->s, &gz_ops, inner);
	gs->inbuf_size = ss_source_buffer_size();
	gs->inbuf = ss_malloc(gs->inbuf_size);
	gs->z.zalloc = gz_alloc;
	gs->z.zfree = gz_free;
	if (!gs->inbuf || inflateInit2(&gs->z, 15 + 32) != Z_OK) {
		ss_stream_free(&gs->s);
		return NULL;
	}
	gs->zinit = true;
	return &gs->s;
}
