/*
 * source_zstd.c - zstd decoding. Concatenated frames (and skippable frames)
 * make one stream; input that ends inside a frame is an error, after all
 * the data before it. A frame that declares a window larger than allowed
 * is reported as such (with the --zstd-window-log that would read it), not
 * as corrupt data.
 *
 * Two decoders. The portable one is libzstd's streaming API, for every
 * frame: the frame's header is read here first (RFC 8878's layout: the
 * kind of frame, its window), so that a window over the limit is named as
 * such and skippable frames are passed over without libzstd. The fast one,
 * built when configure finds libzstd's buffer-less API (which libzstd
 * keeps out of its stable interface: ZSTD_STATIC_LINKING_ONLY) and used
 * only with the very libzstd version it was built against, decodes frames
 * whose window is at most DIRECT_WINDOW block by block, either into a ring
 * of our own (an ordinary read copies out of it) or, for
 * ss_stream_read_inplace(), straight into the caller's memory: the batch,
 * without the copy the streaming API makes out of its window. Larger
 * windows (zstd -19, --long) go through the streaming API in both.
 *
 * The buffer-less decoder looks back into what it wrote: the current
 * segment (contiguous output since the last jump to another destination)
 * and the one before it, as long as together they hold a window. So:
 *  - a jump is made only when the current segment holds a whole window (or
 *    all of the frame so far): the segment before is then not needed;
 *  - a segment in the caller's memory is started only where there is room
 *    for a window and two blocks, and the read that starts it decodes
 *    until it holds a window (or the frame so far): once any read has
 *    returned, only the segment of the last in-place reads is read back;
 *  - an ordinary read, or one without room, first decodes ahead into the
 *    ring until the caller's memory is no longer read back (let_go);
 *  - the ring has two halves of a window plus a block each, and moves to
 *    the other half only when the current one is full (a window long).
 * What the caller must do in return is in source.h (ss_stream_read_inplace).
 */
#include "io/source.h"

#include <stdio.h>
#include <string.h>

#ifdef SS_HAVE_ZSTD_INPLACE
#define ZSTD_STATIC_LINKING_ONLY   /* buffer-less API, ZSTD_getFrameHeader */
#endif
#include <zstd.h>

#include "util/alloc.h"

/*
 * A zstd block holds at most 128 KiB. Frames whose window is at most
 * DIRECT_WINDOW (zstd -1 to -8) are decoded block by block; a segment in
 * the caller's memory starts only with room for a window and two blocks
 * (INPLACE_ROOM at most), so that after the read that starts it, which
 * decodes up to a window and a block, a read can still go on at its end.
 */
#define BLOCK ((size_t)128 << 10)
#define DIRECT_WINDOW ((size_t)2 << 20)
#define INPLACE_ROOM (DIRECT_WINDOW + 2 * BLOCK)
/* libzstd's default window limit (its ZSTD_WINDOWLOG_LIMIT_DEFAULT, which
 * only its static API names): 2^27 bytes. */
#define WINDOW_LOG_DEFAULT 27
#ifdef SS_HAVE_ZSTD_INPLACE
_Static_assert(WINDOW_LOG_DEFAULT == ZSTD_WINDOWLOG_LIMIT_DEFAULT, "libzstd's default limit");
#endif

enum where { AT_NONE = 0, AT_RING0, AT_RING1, AT_CALLER };
#define RING_GAP 64
enum frame { FR_NONE = 0, FR_BLOCKS, FR_STREAM };

struct zstd_stream {
	struct ss_stream s;
	bool blocks;                 /* the buffer-less decoder may be used */
	ZSTD_DCtx *dctx;             /* buffer-less decoding */
	ZSTD_DStream *z;             /* the streaming API; made when needed */
	unsigned window_log;         /* the limit set (0: libzstd's default) */
	/* input: inbuf[in_pos .. in_len) not consumed yet */
	unsigned char *inbuf;
	size_t inbuf_size, in_pos, in_len;
	bool in_end;                 /* the inner stream has ended */
	/* the frame being decoded */
	enum frame frame;
	size_t win, blk;             /* its window and largest block */
	unsigned long long frame_out;  /* bytes it produced so far */
	/* the decoder's history: where its current segment is, and the one before */
	enum where cur, prev;
	unsigned char *cur_end;      /* where the current segment ends */
	size_t seg;                  /* its length */
	/*
	 * The ring: two halves of `half` bytes, RING_GAP apart so that the end
	 * of the first is never the start of the second (libzstd would take
	 * that for one segment).
	 */
	unsigned char *ring;
	size_t half, ring_cap;
	/* decoded bytes not yet handed out, in the ring: at most two pieces */
	unsigned char *pend[2];
	size_t pend_len[2];
	/* a failure met while decoding ahead, reported after those bytes */
	bool deferred;
	char deferred_err[256];
	/* bytes handed out: decoded in place, and copied (ring or streaming) */
	uint64_t n_in_place, n_copied;
};

/* What a frame's first bytes say (struct header). */
enum hdr { HDR_ZSTD, HDR_SKIP, HDR_OTHER };

struct header {
	enum hdr kind;
	unsigned long long window;   /* HDR_ZSTD: its window */
	size_t blk;                  /* ... and its largest block */
	unsigned long long skip;     /* HDR_SKIP: its bytes, header included */
};

static unsigned limit_log(const struct zstd_stream *zs)
{
	return zs->window_log ? zs->window_log : WINDOW_LOG_DEFAULT;
}

/* A frame's window over the limit: the message says which limit would do. */
static enum ss_io window_too_large(struct zstd_stream *zs, unsigned long long window)
{
	unsigned need = 0, limit = limit_log(zs);

	while (need < 63 && ((unsigned long long)1 << need) < window)
		need++;
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

static enum ss_io truncated(struct zstd_stream *zs)
{
	return ss_stream_fail(&zs->s, "truncated zstd frame (unexpected end of input)");
}

static enum ss_io corrupt(struct zstd_stream *zs, size_t ret)
{
	return ss_stream_fail(&zs->s, "corrupt zstd data: %s", ZSTD_getErrorName(ret));
}

/*
 * Make `need` input bytes available at inbuf + in_pos. SS_IO_END: the
 * input ended with fewer (possibly none); SS_IO_ERROR: failed (said).
 */
static enum ss_io need_input(struct zstd_stream *zs, size_t need)
{
	while (zs->in_len - zs->in_pos < need) {
		size_t k = 0;
		enum ss_io r;

		if (zs->in_end)
			return SS_IO_END;
		if (need > zs->inbuf_size) {
			unsigned char *nb = ss_realloc(zs->inbuf, need);

			if (!nb)
				return ss_stream_fail(&zs->s, "out of memory");
			zs->inbuf = nb;
			zs->inbuf_size = need;
		}
		if (zs->in_pos + need > zs->inbuf_size || zs->in_len == zs->inbuf_size) {
			memmove(zs->inbuf, zs->inbuf + zs->in_pos, zs->in_len - zs->in_pos);
			zs->in_len -= zs->in_pos;
			zs->in_pos = 0;
		}
		r = ss_stream_read(zs->s.inner, zs->inbuf + zs->in_len,
				   zs->inbuf_size - zs->in_len, &k);
		if (r == SS_IO_ERROR)
			return ss_stream_fail(&zs->s, "%s", ss_stream_error(zs->s.inner));
		if (r == SS_IO_END)
			zs->in_end = true;
		zs->in_len += k;
	}
	return SS_IO_OK;
}

static unsigned long long le(const unsigned char *p, size_t n)
{
	unsigned long long v = 0;

	while (n-- > 0)
		v = v << 8 | p[n];
	return v;
}

/*
 * The header of a frame from its first n bytes (RFC 8878, 3.1.1 and
 * 3.1.2): its kind; a zstd frame's window (the window descriptor, or the
 * content size of a single-segment frame); a skippable frame's length.
 * Returns how many bytes it needs when n is too few, else 0 with *h set.
 * What it does not know (another magic number, the reserved bit, a window
 * log over SS_ZSTD_WINDOW_LOG_MAX) is HDR_OTHER: libzstd says what it is.
 */
static size_t parse_header(const unsigned char *p, size_t n, struct header *h)
{
	static const unsigned char magic[4] = {0x28, 0xB5, 0x2F, 0xFD};
	static const unsigned char skip_magic[3] = {0x2A, 0x4D, 0x18};
	static const size_t did_len[4] = {0, 1, 2, 4};
	size_t k = n < 4 ? n : 4, fcs_len, len;
	unsigned fhd, wlog;
	bool single;

	h->kind = HDR_OTHER;
	if (memcmp(p, magic, k) != 0) {
		if ((p[0] & 0xF0) != 0x50 || memcmp(p + 1, skip_magic, k - 1) != 0)
			return 0;
		if (n < 8)
			return 8;
		h->kind = HDR_SKIP;
		h->skip = 8 + le(p + 4, 4);
		return 0;
	}
	if (n < 5)
		return 5;
	fhd = p[4];
	if (fhd & 0x08)
		return 0;
	single = fhd & 0x20;
	fcs_len = (fhd >> 6) ? (size_t)1 << (fhd >> 6) : single;
	len = 5 + !single + did_len[fhd & 3] + fcs_len;
	if (n < len)
		return len;
	if (single) {
		h->window = le(p + len - fcs_len, fcs_len) + (fcs_len == 2 ? 256 : 0);
	} else {
		wlog = 10 + (p[5] >> 3);
		if (wlog > SS_ZSTD_WINDOW_LOG_MAX)
			return 0;
		h->window = ((unsigned long long)1 << wlog) + ((unsigned long long)1 << (wlog - 3)) * (p[5] & 7);
	}
	h->kind = HDR_ZSTD;
	h->blk = h->window < BLOCK ? (size_t)h->window : BLOCK;
	return 0;
}

/*
 * `need` bytes of the next frame's start at inbuf + in_pos. SS_IO_END: the
 * input ended cleanly, before a frame; fewer bytes: a truncated frame.
 */
static enum ss_io header_input(struct zstd_stream *zs, size_t need)
{
	enum ss_io r = need_input(zs, need);

	if (r != SS_IO_END)
		return r;
	return zs->in_len == zs->in_pos ? SS_IO_END : truncated(zs);
}

/* The next frame's header, read here. SS_IO_END: the input ended cleanly. */
static enum ss_io read_header(struct zstd_stream *zs, struct header *h)
{
	size_t need = 1;

	for (;;) {
		enum ss_io r = header_input(zs, need);

		if (r != SS_IO_OK)
			return r;
		need = parse_header(zs->inbuf + zs->in_pos, zs->in_len - zs->in_pos, h);
		if (need == 0)
			return SS_IO_OK;
	}
}

/* A skippable frame is dropped here, as it arrives (libzstd's buffer-less
 * API would want its content, up to 4 GiB, in one piece). */
static enum ss_io skip_frame(struct zstd_stream *zs, unsigned long long left)
{
	while (left > 0) {
		size_t k = zs->in_len - zs->in_pos;

		if (k == 0) {
			enum ss_io r = need_input(zs, 1);

			if (r == SS_IO_ERROR)
				return r;
			if (r == SS_IO_END)
				return truncated(zs);
			continue;
		}
		if (k > left)
			k = (size_t)left;
		zs->in_pos += k;
		left -= k;
	}
	zs->frame = FR_NONE;
	return SS_IO_OK;
}

/* The frame goes through the streaming API, which reads its header too. */
static enum ss_io stream_begin(struct zstd_stream *zs)
{
	if (!zs->z) {
		zs->z = ZSTD_createDStream();
		if (!zs->z || ZSTD_isError(ZSTD_DCtx_setParameter(zs->z, ZSTD_d_windowLogMax,
								  (int)limit_log(zs))))
			return ss_stream_fail(&zs->s, "out of memory");
	}
	ZSTD_DCtx_reset(zs->z, ZSTD_reset_session_only);
	zs->frame = FR_STREAM;
	return SS_IO_OK;
}

/*
 * FR_STREAM: decode into buf with the streaming API. A window over the
 * limit was refused from the header before; libzstd names any other fault.
 */
static enum ss_io stream_step(struct zstd_stream *zs, unsigned char *buf, size_t n,
			      size_t *got)
{
	ZSTD_outBuffer out = {buf, n, 0};

	for (;;) {
		ZSTD_inBuffer in = {zs->inbuf, zs->in_len, zs->in_pos};
		size_t ret = ZSTD_decompressStream(zs->z, &out, &in);
		enum ss_io r;

		zs->in_pos = in.pos;
		*got = out.pos;   /* delivered, also before a failure */
		if (ZSTD_isError(ret))
			return corrupt(zs, ret);
		if (ret == 0) {   /* the frame is complete and flushed */
			zs->frame = FR_NONE;
			return SS_IO_OK;
		}
		if (out.pos > 0)
			return SS_IO_OK;
		if (in.pos < in.size)
			continue;
		zs->in_pos = zs->in_len = 0;
		r = need_input(zs, 1);
		if (r == SS_IO_ERROR)
			return r;
		if (r == SS_IO_END)
			return truncated(zs);
	}
}

/* ---- the buffer-less decoder (libzstd's static API) ---- */
#ifdef SS_HAVE_ZSTD_INPLACE

/* The header as libzstd reads it, with the errors it names. */
static enum ss_io header_libzstd(struct zstd_stream *zs, struct header *h)
{
	ZSTD_frameHeader fh;
	size_t need = 1, ret;

	for (;;) {
		enum ss_io r = header_input(zs, need);

		if (r != SS_IO_OK)
			return r;
		ret = ZSTD_getFrameHeader(&fh, zs->inbuf + zs->in_pos, zs->in_len - zs->in_pos);
		if (ZSTD_isError(ret))
			return corrupt(zs, ret);
		if (ret == 0)
			break;
		need = ret;
	}
	h->kind = fh.frameType == ZSTD_frame ? HDR_ZSTD : HDR_SKIP;
	h->window = fh.windowSize;
	h->blk = fh.blockSizeMax;
	h->skip = ZSTD_SKIPPABLEHEADERSIZE + fh.frameContentSize;
	return SS_IO_OK;
}

/* The frame is decoded block by block (its header by to_block). */
static enum ss_io blocks_begin(struct zstd_stream *zs, const struct header *h)
{
	size_t ret;

	zs->frame_out = 0;
	zs->cur = zs->prev = AT_NONE;
	zs->cur_end = NULL;
	zs->seg = 0;
	zs->win = (size_t)h->window;
	zs->blk = h->blk;
	if (zs->win < zs->blk)
		zs->win = zs->blk;
	/* No output is waiting (a frame starts only then): the ring may move. */
	if (2 * (zs->win + zs->blk) + RING_GAP > zs->ring_cap) {
		size_t cap = 2 * (zs->win + zs->blk) + RING_GAP;

		ss_free(zs->ring);
		zs->ring = ss_malloc(cap);
		zs->ring_cap = zs->ring ? cap : 0;
		if (!zs->ring)
			return ss_stream_fail(&zs->s, "out of memory");
	}
	zs->half = zs->win + zs->blk;
	ret = ZSTD_decompressBegin(zs->dctx);
	if (ZSTD_isError(ret))
		return corrupt(zs, ret);
	zs->frame = FR_BLOCKS;
	return SS_IO_OK;
}

/*
 * FR_BLOCKS: feed the decoder until its next input is a block. SS_IO_END:
 * the frame ended (zs->frame is FR_NONE).
 */
static enum ss_io to_block(struct zstd_stream *zs)
{
	for (;;) {
		size_t n = ZSTD_nextSrcSizeToDecompress(zs->dctx), ret;
		ZSTD_nextInputType_e t;
		enum ss_io r;

		if (n == 0) {
			zs->frame = FR_NONE;
			zs->cur = zs->prev = AT_NONE;   /* nothing looks back any more */
			return SS_IO_END;
		}
		t = ZSTD_nextInputType(zs->dctx);
		if (t == ZSTDnit_block || t == ZSTDnit_lastBlock)
			return SS_IO_OK;
		r = need_input(zs, n);
		if (r == SS_IO_ERROR)
			return r;
		if (r == SS_IO_END)
			return truncated(zs);
		ret = ZSTD_decompressContinue(zs->dctx, NULL, 0, zs->inbuf + zs->in_pos, n);
		if (ZSTD_isError(ret))
			return corrupt(zs, ret);
		zs->in_pos += n;
	}
}

static bool can_leave(const struct zstd_stream *zs)
{
	return zs->cur == AT_NONE || zs->seg >= zs->win || zs->seg == zs->frame_out;
}

/*
 * Decode the next block (to_block said there is one) at `dst`, which has
 * room for `cap` bytes; `at` says whose memory it is. The bytes written go
 * to *got (0 for an empty block).
 */
static enum ss_io decode_block(struct zstd_stream *zs, unsigned char *dst, size_t cap,
			       enum where at, size_t *got)
{
	size_t n = ZSTD_nextSrcSizeToDecompress(zs->dctx), ret;
	enum ss_io r;

	r = need_input(zs, n);
	if (r == SS_IO_ERROR)
		return r;
	if (r == SS_IO_END)
		return truncated(zs);
	ret = ZSTD_decompressContinue(zs->dctx, dst, cap, zs->inbuf + zs->in_pos, n);
	if (ZSTD_isError(ret))
		return corrupt(zs, ret);
	zs->in_pos += n;
	/* libzstd started a new segment (the check on `at` errs on the safe
	 * side: a segment counted shorter is left later). */
	if (dst != zs->cur_end || at != zs->cur) {
		zs->prev = zs->cur;
		zs->cur = at;
		zs->seg = 0;
	}
	zs->cur_end = dst + ret;
	zs->seg += ret;
	zs->frame_out += ret;
	if (at == AT_CALLER)
		zs->n_in_place += ret;
	*got = ret;
	return SS_IO_OK;
}

static bool in_ring(enum where w)
{
	return w == AT_RING0 || w == AT_RING1;
}

/*
 * Decode the next block into the ring and queue its bytes. `away`: move
 * to the other half as soon as the current one may be left (detaching).
 */
static enum ss_io ring_block(struct zstd_stream *zs, bool away)
{
	unsigned char *dst;
	enum where at;
	size_t got = 0;
	enum ss_io r;

	if (in_ring(zs->cur) && !away &&
	    (size_t)(zs->ring + (zs->cur == AT_RING1) * (zs->half + RING_GAP) + zs->half - zs->cur_end) >=
		    zs->blk) {
		dst = zs->cur_end;
		at = zs->cur;
	} else if (in_ring(zs->cur) && away && !can_leave(zs)) {
		dst = zs->cur_end;   /* fill this half up to a window first */
		at = zs->cur;
	} else {
		if (!can_leave(zs))
			return ss_stream_fail(&zs->s, "internal error: zstd history left too early");
		at = zs->cur == AT_RING0 ? AT_RING1 : AT_RING0;
		dst = zs->ring + (at == AT_RING1) * (zs->half + RING_GAP);
	}
	r = decode_block(zs, dst, zs->ring + (at == AT_RING1) * (zs->half + RING_GAP) + zs->half - dst, at,
			 &got);
	if (r != SS_IO_OK || got == 0)
		return r;
	if (zs->pend_len[0] == 0) {
		zs->pend[0] = dst;
		zs->pend_len[0] = got;
	} else if (zs->pend[0] + zs->pend_len[0] == dst) {
		zs->pend_len[0] += got;
	} else if (zs->pend_len[1] == 0) {
		zs->pend[1] = dst;
		zs->pend_len[1] = got;
	} else if (zs->pend[1] + zs->pend_len[1] == dst) {
		zs->pend_len[1] += got;
	} else {
		return ss_stream_fail(&zs->s, "internal error: zstd output queue");
	}
	return SS_IO_OK;
}

/* Hand out queued bytes; 0 when none are queued. */
static size_t take_pending(struct zstd_stream *zs, unsigned char *buf, size_t n)
{
	size_t k = zs->pend_len[0];

	if (k == 0)
		return 0;
	if (k > n)
		k = n;
	memcpy(buf, zs->pend[0], k);
	zs->n_copied += k;
	zs->pend[0] += k;
	zs->pend_len[0] -= k;
	if (zs->pend_len[0] == 0) {
		zs->pend[0] = zs->pend[1];
		zs->pend_len[0] = zs->pend_len[1];
		zs->pend_len[1] = 0;
	}
	return k;
}

/* Whether the decoder may still read back memory given to in-place reads. */
static bool holds_caller(const struct zstd_stream *zs)
{
	return zs->frame == FR_BLOCKS && !zs->deferred && !zs->s.failed &&
	       (zs->cur == AT_CALLER || zs->prev == AT_CALLER);
}

/*
 * Decode ahead into the ring until the decoder no longer reads back the
 * caller's memory: a window's worth in one half, then a jump to the
 * other. A failure on the way is kept for after the bytes before it.
 */
static void let_go(struct zstd_stream *zs)
{
	while (holds_caller(zs)) {
		enum ss_io r = to_block(zs);

		if (r == SS_IO_OK)
			r = ring_block(zs, true);
		if (r == SS_IO_ERROR) {
			/* Take the message back: it is given after the queued bytes. */
			snprintf(zs->deferred_err, sizeof(zs->deferred_err), "%s", zs->s.err);
			zs->s.failed = false;
			zs->s.err[0] = '\0';
			zs->deferred = true;
			return;
		}
	}
}

/*
 * Start a segment at buf (room for n >= a window and two blocks): decode
 * blocks there until the history lies in it alone (a window, or all of the
 * frame so far), so that nothing before it is read back once this read
 * returns (source.h). A failure after some bytes returns them with it.
 */
static enum ss_io start_in_place(struct zstd_stream *zs, unsigned char *buf, size_t n,
				 size_t *got)
{
	for (;;) {
		size_t k = 0;
		enum ss_io r = decode_block(zs, buf + *got, n - *got, AT_CALLER, &k);

		*got += k;
		if (r != SS_IO_OK || can_leave(zs))
			return r;
		r = to_block(zs);
		if (r == SS_IO_END)
			return SS_IO_OK;   /* the frame ended: nothing is read back */
		if (r != SS_IO_OK)
			return r;
	}
}

/*
 * FR_BLOCKS: the next block, `inplace` decoded straight into buf where the
 * run of in-place bytes ends, or in a segment started there when it has
 * room; else through the ring, once the decoder no longer reads back the
 * caller's memory. SS_IO_OK with *got == 0: nothing yet (the frame ended,
 * an empty block, or bytes queued in the ring): call again.
 */
static enum ss_io blocks_read(struct zstd_stream *zs, unsigned char *buf, size_t n,
			      size_t *got, bool inplace)
{
	enum ss_io r = to_block(zs);

	if (r != SS_IO_OK)
		return r == SS_IO_END ? SS_IO_OK : r;   /* ended: maybe another frame */
	if (inplace && zs->cur == AT_CALLER && buf == zs->cur_end && n >= zs->blk)
		return decode_block(zs, buf, n, AT_CALLER, got);
	if (inplace && can_leave(zs) && n >= zs->win + zs->blk + BLOCK)
		return start_in_place(zs, buf, n, got);
	if (holds_caller(zs)) {
		let_go(zs);   /* copied: the caller's memory is let go first */
		return SS_IO_OK;
	}
	return ring_block(zs, false);
}

static void zstd_release(struct ss_stream *s)
{
	let_go((struct zstd_stream *)s);
}

#endif /* SS_HAVE_ZSTD_INPLACE */

/* Start the next frame. SS_IO_END: the input ended cleanly before one. */
static enum ss_io frame_begin(struct zstd_stream *zs)
{
	struct header h = {HDR_OTHER, 0, 0, 0};
	enum ss_io r;

#ifdef SS_HAVE_ZSTD_INPLACE
	r = zs->blocks ? header_libzstd(zs, &h) : read_header(zs, &h);
#else
	r = read_header(zs, &h);
#endif
	if (r != SS_IO_OK)
		return r;
	if (h.kind == HDR_SKIP)
		return skip_frame(zs, h.skip);
	if (h.kind == HDR_ZSTD && h.window > (unsigned long long)1 << limit_log(zs))
		return window_too_large(zs, h.window);
#ifdef SS_HAVE_ZSTD_INPLACE
	if (zs->blocks && h.window <= DIRECT_WINDOW)
		return blocks_begin(zs, &h);
#endif
	return stream_begin(zs);   /* the streaming API keeps its own window */
}

/* The read: queued bytes first, then the frame's decoder. */
static enum ss_io zstd_read_any(struct zstd_stream *zs, unsigned char *buf, size_t n,
				size_t *got, bool inplace)
{
	for (;;) {
		enum ss_io r;

		*got = 0;
#ifdef SS_HAVE_ZSTD_INPLACE
		*got = take_pending(zs, buf, n);
		if (*got)
			return SS_IO_OK;
		if (zs->deferred)
			return ss_stream_fail(&zs->s, "%s", zs->deferred_err);
		if (zs->frame == FR_BLOCKS) {
			r = blocks_read(zs, buf, n, got, inplace);
			if (r != SS_IO_OK || *got > 0)
				return r;
			continue;
		}
#else
		(void)inplace;
#endif
		if (zs->frame == FR_NONE) {
			r = frame_begin(zs);
			if (r != SS_IO_OK)
				return r;
			continue;
		}
		r = stream_step(zs, buf, n, got);
		zs->n_copied += *got;
		if (r != SS_IO_OK || *got > 0)
			return r;
	}
}

static enum ss_io zstd_read(struct ss_stream *s, void *buf, size_t n, size_t *got)
{
	return zstd_read_any((struct zstd_stream *)s, buf, n, got, false);
}

static void zstd_destroy(struct ss_stream *s)
{
	struct zstd_stream *zs = (struct zstd_stream *)s;

#ifdef SS_HAVE_ZSTD_INPLACE
	ZSTD_freeDCtx(zs->dctx);
#endif
	ZSTD_freeDStream(zs->z);
	ss_free(zs->ring);
	ss_free(zs->inbuf);
	ss_free(zs);
}

static const struct ss_stream_ops zstd_ops = {zstd_read, zstd_destroy, NULL};

#ifdef SS_HAVE_ZSTD_INPLACE
static enum ss_io zstd_read_inplace(struct ss_stream *s, void *buf, size_t n, size_t *got)
{
	return zstd_read_any((struct zstd_stream *)s, buf, n, got, true);
}

static const struct ss_inplace_ops zstd_inplace = {INPLACE_ROOM, BLOCK, zstd_read_inplace,
						   zstd_release};
static const struct ss_stream_ops zstd_blocks_ops = {zstd_read, zstd_destroy, &zstd_inplace};
#endif

/* Not per-stream state: a process-wide knob only tests turn. */
static bool streaming_only;

void ss_source_zstd_set_streaming_only(bool on)
{
	streaming_only = on;
}

#ifdef SS_HAVE_ZSTD_INPLACE
/*
 * The buffer-less API and its frame header struct are outside libzstd's
 * stable interface: they are used only with the libzstd this was built
 * against, never with another one a library upgrade put in its place.
 */
static bool blocks_usable(void)
{
	return !streaming_only && ZSTD_versionNumber() == ZSTD_VERSION_NUMBER;
}
#endif

const char *ss_zstd_decoding(void)
{
#ifdef SS_HAVE_ZSTD_INPLACE
	if (ZSTD_versionNumber() != ZSTD_VERSION_NUMBER)
		return "streaming API only (built for libzstd " ZSTD_VERSION_STRING ")";
	return "frames decoded in place";
#else
	return "streaming API only (" SS_ZSTD_STREAMING_WHY ")";
#endif
}

void ss_source_zstd_counts(const struct ss_stream *s, uint64_t *in_place, uint64_t *copied)
{
	const struct zstd_stream *zs = (const struct zstd_stream *)s;

	*in_place = zs->n_in_place;
	*copied = zs->n_copied;
}

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
	zs->window_log = window_log;
	if (!zs->inbuf) {
		ss_stream_free(&zs->s);
		return NULL;
	}
#ifdef SS_HAVE_ZSTD_INPLACE
	if (blocks_usable()) {
		zs->dctx = ZSTD_createDCtx();
		if (!zs->dctx) {
			ss_stream_free(&zs->s);
			return NULL;
		}
		zs->blocks = true;
		zs->s.ops = &zstd_blocks_ops;
	}
#endif
	return &zs->s;
}
