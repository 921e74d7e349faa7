/*
 * source_zstd.c - zstd decoding with libzstd's streaming API (the fast
 * path). Concatenated frames (and skippable frames) make one stream; input
 * that ends inside a frame is an error, after all the data before it.
 */
#include "io/source.h"

#include <zstd.h>

#include "util/alloc.h"

#define ZIN_SIZE (1 << 20)

struct zstd_stream {
	struct ss_stream s;
	ZSTD_DStream *z;
	ZSTD_inBuffer in;
	unsigned char *inbuf;
	bool in_end;        /* the inner stream has ended */
	bool mid_frame;     /* a frame was started and is not complete */
};

static enum ss_io zstd_read(struct ss_stream *s, void *buf, size_t n, size_t *got)
{
	struct zstd_stream *zs = (struct zstd_stream *)s;
	ZSTD_outBuffer out = {buf, n, 0};

	for (;;) {
		size_t in0 = zs->in.pos, ret, k = 0;
		enum ss_io r;

		ret = ZSTD_decompressStream(zs->z, &out, &zs->in);
		if (ZSTD_isError(ret)) {
			*got = out.pos;   /* delivered before the failure */
			return ss_stream_fail(s, "corrupt zstd data: %s", ZSTD_getErrorName(ret));
		}
		/* A call without progress says nothing about frame boundaries. */
		if (zs->in.pos != in0 || out.pos != 0)
			zs->mid_frame = ret != 0;
		if (out.pos > 0) {
			*got = out.pos;
			return SS_IO_OK;
		}
		if (zs->in.pos < zs->in.size)
			continue;
		/* No output and no input left: the decoder has nothing pending. */
		if (zs->in_end) {
			if (zs->mid_frame)
				return ss_stream_fail(s, "truncated zstd frame (unexpected end of input)");
			return SS_IO_END;
		}
		r = ss_stream_read(s->inner, zs->inbuf, ZIN_SIZE, &k);
		if (r == SS_IO_ERROR)
			return ss_stream_fail(s, "%s", ss_stream_error(s->inner));
		if (r == SS_IO_END)
			zs->in_end = true;
		zs->in.src = zs->inbuf;
		zs->in.size = k;
		zs->in.pos = 0;
	}
}

static void zstd_destroy(struct ss_stream *s)
{
	struct zstd_stream *zs = (struct zstd_stream *)s;

	ZSTD_freeDStream(zs->z);
	ss_free(zs->inbuf);
	ss_free(zs);
}

static const struct ss_stream_ops zstd_ops = {zstd_read, zstd_destroy};

struct ss_stream *ss_source_zstd_new(struct ss_stream *inner)
{
	struct zstd_stream *zs = ss_calloc(1, sizeof(*zs));

	if (!zs) {
		ss_stream_free(inner);
		return NULL;
	}
	ss_stream_setup(&zs->s, &zstd_ops, inner);
	zs->inbuf = ss_malloc(ZIN_SIZE);
	zs->z = ZSTD_createDStream();
	if (!zs->inbuf || !zs->z || ZSTD_isError(ZSTD_initDStream(zs->z))) {
		ss_stream_free(&zs->s);
		return NULL;
	}
	zs->in.src = zs->inbuf;
	return &zs->s;
}
