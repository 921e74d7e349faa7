#include "io/compress.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "util/alloc.h"

/* zstd's default level: several hundred MB/s, far faster than the reports
 * are produced, and partials shrink about tenfold. */
#define ZSTD_LEVEL 3
#define OUT_SIZE   ((size_t)1 << 17)

struct ss_compressor {
	enum ss_codec codec;
	FILE *out;
	ZSTD_CCtx *zc;
	z_stream gz;
	bool gz_live;
	unsigned char *buf;
	bool failed;
	int err;
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && memcmp(s + n - k, suffix, k) == 0;
}

enum ss_codec ss_codec_for_path(const char *path)
{
	if (ends_with(path, ".zst"))
		return SS_CODEC_ZSTD;
	if (ends_with(path, ".gz"))
		return SS_CODEC_GZIP;
	return SS_CODEC_NONE;
}

/* zlib's allocations go through the project's wrapper too. */
static voidpf gz_alloc(voidpf opaque, uInt items, uInt size)
{
	(void)opaque;
	return ss_reallocarray(NULL, items, size);
}

static void gz_free(voidpf opaque, voidpf p)
{
	(void)opaque;
	ss_free(p);
}

struct ss_compressor *ss_compressor_new(enum ss_codec codec, FILE *out)
{
	struct ss_compressor *c;

	if (codec == SS_CODEC_NONE)
		return NULL;
	c = ss_calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->codec = codec;
	c->out = out;
	c->buf = ss_malloc(OUT_SIZE);
	if (!c->buf)
		goto fail;
	if (codec == SS_CODEC_ZSTD) {
		/* (libzstd's allocator hooks are not in its stable API) */
		c->zc = ZSTD_createCCtx();
		if (!c->zc || ZSTD_isError(ZSTD_CCtx_setParameter(c->zc, ZSTD_c_compressionLevel,
		                                                  ZSTD_LEVEL)))
			goto fail;
		ZSTD_CCtx_setParameter(c->zc, ZSTD_c_checksumFlag, 1);
	} else {
		c->gz.zalloc = gz_alloc;
		c->gz.zfree = gz_free;
		/* 15 + 16: a gzip wrapper (header and CRC trailer), not zlib's */
		if (deflateInit2(&c->gz, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
		                 Z_DEFAULT_STRATEGY) != Z_OK)
			goto fail;
		c->gz_live = true;
	}
	return c;
fail:
	ss_compressor_free(c);
	return NULL;
}

void ss_compressor_free(struct ss_compressor *c)
{
	if (!c)
		return;
	ZSTD_freeCCtx(c->zc);
	if (c->gz_live)
		deflateEnd(&c->gz);
	ss_free(c->buf);
	ss_free(c);
}

static bool put(struct ss_compressor *c, size_t n)
{
	if (n && fwrite(c->buf, 1, n, c->out) != n) {
		c->failed = true;
		c->err = errno;
	}
	return !c->failed;
}

/* Feed `n` bytes (n may be 0) and, when `end`, close the stream. */
static bool run_zstd(struct ss_compressor *c, const void *p, size_t n, bool end)
{
	ZSTD_inBuffer in = {p, n, 0};

	for (;;) {
		ZSTD_outBuffer out = {c->buf, OUT_SIZE, 0};
		size_t left =
		    ZSTD_compressStream2(c->zc, &out, &in, end ? ZSTD_e_end : ZSTD_e_continue);

		if (ZSTD_isError(left)) {
			c->failed = true;
			return false;
		}
		if (!put(c, out.pos))
			return false;
		if (end ? left == 0 : in.pos == in.size)
			return true;
	}
}

static bool run_gzip(struct ss_compressor *c, const void *p, size_t n, bool end)
{
	const unsigned char *src = p;

	/* avail_in is an unsigned int: feed big writes in pieces */
	do {
		size_t piece = n > (1u << 30) ? (1u << 30) : n;
		int r;

		c->gz.next_in = (Bytef *)(uintptr_t)src;
		c->gz.avail_in = (uInt)piece;
		src += piece;
		n -= piece;
		do {
			c->gz.next_out = c->buf;
			c->gz.avail_out = (uInt)OUT_SIZE;
			r = deflate(&c->gz, end && n == 0 ? Z_FINISH : Z_NO_FLUSH);
			if (r == Z_STREAM_ERROR) {
				c->failed = true;
				return false;
			}
			if (!put(c, OUT_SIZE - c->gz.avail_out))
				return false;
		} while (c->gz.avail_out == 0 || (end && n == 0 && r != Z_STREAM_END));
	} while (n > 0);
	return true;
}

bool ss_compressor_write(struct ss_compressor *c, const void *p, size_t n)
{
	if (c->failed)
		return false;
	if (n == 0)
		return true;
	return c->codec == SS_CODEC_ZSTD ? run_zstd(c, p, n, false) : run_gzip(c, p, n, false);
}

bool ss_compressor_finish(struct ss_compressor *c)
{
	if (c->failed)
		return false;
	return c->codec == SS_CODEC_ZSTD ? run_zstd(c, "", 0, true) : run_gzip(c, "", 0, true);
}

int ss_compressor_error(const struct ss_compressor *c)
{
	return c->err;
}
