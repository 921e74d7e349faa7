/*
 * source_zstd.c - zstd decoding with libzstd's streaming API (the fast
 * path). Concatenated frames (and skippable frames) make one stream; input
 * that ends inside a frame is an error, after all the data before it.
 * A frame that declares a window larger than allowed is reported as such
 * (with the --zstd-window-log that would read it), not as corrupt data.
 */
#include "io/source.h"

#define ZSTD_STATIC_LINKING_ONLY   /* ZSTD_getFrameHeader */
#include <zstd.h>
#include <zstd_errors.h>

#include "util/alloc.h"


struct zstd_stream {
	struct ss_stream s;
	ZSTD_DStream *z;
	ZSTD_inBuffer in;
	unsigned char *inbuf;
	size_t inbuf_size;
	bool in_end;        /* the inner stream has ended */
	bool mid_frame;     /* a frame was started and is not complete */
	unsigned window_log;  /* the limit set (0: libzstd's default) */
};

/*
 * The decoder refused a frame's window. If the frame header is at the
 * start of what this call was given (a frame starts with a call, since a
 * call that ends a frame returns), read the window it asks for.
 */
static enum ss_io window_too_large(struct zstd_stream *zs, size_t in0)
{
	ZSTD_frameHeader fh;
	unsigned need = 0, limit = zs->window_log ? zs->window_log : ZSTD_WINDOWLOG_LIMIT_DEFAULT;
	const char *src = (const char *)zs->in.src + in0;

	if (ZSTD_getFrameHeader(&fh, src, zs->in.size - in0) == 0 &&
	    fh.frameType == ZSTD_frame) {
		while (need < 63 && ((unsigned long long)1 << need) < fh.windowSize)
			need++;
	}
	if (need > SS_ZSTD_WINDOW_LOG_MAX)
		return ss_stream_fail(&zs->s,
				      "zstd frame needs a larger window (window log %u) than "
				      "--zstd-window-log %u allows",
				      need, SS_ZSTD_WINDOW_LOG_MAX);
	if (need > limit)
		return ss_stream_fail(&zs->s,
				      "zstd frame needs a larger window (window log %u, over %u); "
				      "use --zstd-window-log %u",
				      need, limit, need);
	return ss_stream_fail(&zs->s,
			      "zstd frame needs a larger window (over window log %u); "
			      "use --zstd-window-log %u", limit, SS_ZSTD_WINDOW_LOG_MAX);
}

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
			if (ZSTD_getErrorCode(ret) == ZSTD_error_frameParameter_windowTooLarge)
				return window_too_large(zs, in0);
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
		r = ss_stream_read(s->inner, zs->inbuf, zs->inbuf_size, &k);
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
	return ss_source_zstd_new_window(inner, 0);
}

struct ss_stream *ss_source_zstd_new_window(struct ss_stream *inner, unsigned window_log)
{
	struct zstd_stream *zs = ss_calloc(1, sizeof(*zs));

	if (!zs) {
		ss_stream_free(inner);
		return NULL;
	}
	ss_stream_setup(&zs->s, &zstd_ops, inner);
	zs->inbuf_size = ss_source_buffer_size();
	zs->inbuf = ss_malloc(zs->inbuf_size);
	zs->z = ZSTD_createDStream();
	zs->window_log = window_log;
	if (!zs->inbuf || !zs->z || ZSTD_isError(ZSTD_initDStream(zs->z)) ||
	    (window_log && ZSTD_isError(ZSTD_DCtx_setParameter(zs->z, ZSTD_d_windowLogMax,
								(int)window_log)))) {
		ss_stream_free(&zs->s);
		return NULL;
	}
	zs->in.src = zs->inbuf;
	return &zs->s;
}
