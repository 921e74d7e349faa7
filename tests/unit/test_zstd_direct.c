/*
 * test_zstd_direct.c - zstd decoded straight into the batches (source_zstd.c
 * buffer-less path, framer.c fill_direct), and every case again through the
 * portable path (libzstd's streaming API for every frame, as a build with
 * --disable-fast-paths decodes; in such a build only that one, and the
 * case that needs the in-place path is skipped, saying why). Texts are made
 * here, compressed here with libzstd's own compressor, and the units the
 * framer makes are compared with the lines of the original text, cut by
 * this test. Batches
 * are reused as run.c reuses its slots, only much sooner: as soon as a fill
 * returns, the batch before the one it filled is overwritten (framer.h
 * promises nothing is read back from it then), so a decoder that looked
 * back further than its contract allows would produce wrong text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "io/framer.h"
#include "io/source.h"
#include "util/buf.h"

#define NSLOTS 4

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* A pool of random printable chunks: lines made of them repeat at every
 * distance, so the compressor refers back as far as its window allows. */
static char pool[256][1024];

static void make_pool(void)
{
	const char *abc = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ";

	for (size_t i = 0; i < 256; i++)
		for (size_t j = 0; j < sizeof(pool[i]); j++)
			pool[i][j] = abc[rnd() % 63];
}

static void add_line(struct ss_buf *t, size_t len)
{
	ss_buf_adds(t, "{\"k\":\"");
	while (len > 0) {
		size_t off = rnd() % 512, k = 1 + rnd() % 512;

		if (k > len)
			k = len;
		ss_buf_add(t, pool[rnd() % 256] + off, k);
		len -= k;
	}
	ss_buf_adds(t, "\"}\n");
}

/*
 * A text of `size` bytes or a little more: lines of 50 to 4,000 bytes, with
 * a run of 20,000 tiny lines (batches full of requests), a 1.5 MiB line
 * (many blocks) and a 5 MiB line (over a batch's room) in it.
 */
static void make_text(struct ss_buf *t, size_t size)
{
	bool tiny = false, big = false, huge = false;

	while (t->len < size) {
		if (!tiny && t->len > size / 4) {
			for (int i = 0; i < 20000; i++)
				ss_buf_adds(t, i % 7 ? "1\n" : "{}\n");
			tiny = true;
		} else if (!big && t->len > size / 2) {
			add_line(t, (size_t)3 << 19);
			big = true;
		} else if (!huge && t->len > size / 4 * 3) {
			add_line(t, (size_t)5 << 20);
			huge = true;
		} else {
			add_line(t, 50 + rnd() % 4000);
		}
	}
}

/* The units the framer should make: "LINE:text" or "LINE:OVERSIZE". */
static void expected_units(struct ss_buf *out, const char *p, size_t n, size_t max_record)
{
	uint64_t line = 0;

	while (n > 0) {
		const char *nl = memchr(p, '\n', n);
		size_t len = nl ? (size_t)(nl - p) : n;

		line++;
		if (len > max_record)
			ss_buf_addf(out, "%llu:OVERSIZE\n", (unsigned long long)line);
		else if (len > 0) {
			ss_buf_addf(out, "%llu:", (unsigned long long)line);
			ss_buf_add(out, p, len);
			ss_buf_addc(out, '\n');
		}
		if (!nl)
			break;
		p += len + 1;
		n -= len + 1;
	}
}

/*
 * One frame of `text` with this window log and level, and a checksum. Fed
 * in pieces, so that libzstd does not know the size: it keeps the window
 * asked for (a known small size would shrink it) and writes no size.
 */
static void compress_frame(struct ss_buf *z, const char *text, size_t n, int wlog, int level)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	size_t cap = ZSTD_compressBound(n) + 4096;
	char *dst = malloc(cap);
	ZSTD_outBuffer out = {dst, cap, 0};
	size_t done = 0;

	assert_non_null(c);
	assert_non_null(dst);
	assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level)));
	assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, wlog)));
	assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1)));
	for (;;) {
		size_t k = n - done > ((size_t)1 << 20) ? (size_t)1 << 20 : n - done;
		ZSTD_inBuffer in = {text + done, k, 0};
		ZSTD_EndDirective e = done + k == n && done > 0 ? ZSTD_e_end : ZSTD_e_continue;
		size_t ret;

		do {
			ret = ZSTD_compressStream2(c, &out, &in, e);
			assert_false(ZSTD_isError(ret));
		} while (e == ZSTD_e_end ? ret != 0 : in.pos < in.size);
		done += k;
		if (e == ZSTD_e_end)
			break;
	}
	ss_buf_add(z, dst, out.pos);
	free(dst);
	ZSTD_freeCCtx(c);
}

static void add_units(struct ss_buf *out, const struct ss_batch *b)
{
	for (size_t u = 0; u < b->nunits; u++) {
		const struct ss_unit *un = &b->units[u];

		ss_buf_addf(out, "%llu:", (unsigned long long)un->line);
		if (un->oversize)
			ss_buf_adds(out, "OVERSIZE");
		for (size_t i = 0; i < un->nparts; i++) {
			assert_true(b->part_off[un->first_part + i] + b->part_len[un->first_part + i] +
				    SS_BATCH_PADDING <= b->cap);
			ss_buf_add(out, b->buf + b->part_off[un->first_part + i],
				   b->part_len[un->first_part + i]);
		}
		ss_buf_addc(out, '\n');
	}
}

/*
 * Frame the zstd data `z` (fed `chunk` bytes at a time) into a ring of
 * NSLOTS batches; the units go to `out`. Returns how the last fill ended.
 */
/* What the last frame_zstd's stream decoded in place and copied. */
static uint64_t last_in_place, last_copied;

static enum ss_fill frame_zstd(const struct ss_buf *z, size_t chunk, unsigned wlog,
			       size_t max_record, enum ss_framing mode, struct ss_buf *out,
			       char *err, size_t err_size)
{
	struct ss_stream *s = ss_source_zstd_new_window(
		ss_source_mem_new(z->data, z->len, chunk, NULL), wlog);
	struct ss_framer *f = ss_framer_new(max_record, mode);
	struct ss_batch ring[NSLOTS];
	enum ss_fill k;

	assert_non_null(s);
	assert_non_null(f);
	for (size_t i = 0; i < NSLOTS; i++)
		ss_batch_init(&ring[i]);
	ss_framer_start(f, s);
	for (size_t i = 0;; i++) {
		struct ss_batch *b = &ring[i % NSLOTS];
		struct ss_batch *old = &ring[(i + NSLOTS - 1) % NSLOTS];

		ss_batch_reset(b);
		k = ss_framer_fill(f, b, (size_t)2 << 20);
		assert_true(k != SS_FILL_NOMEM);
		/* The batch before is no longer the decoder's: spoil it. */
		if (i >= 1 && old->buf)
			memset(old->buf, 'X', old->cap);
		add_units(out, b);
		/* As run.c: a batch holding a huge line gives its memory back. */
		if (b->len > ((size_t)3 << 20))
			ss_batch_reset(b);
		if (k != SS_FILL_MORE)
			break;
		assert_true(i < 1000000);
	}
	if (k == SS_FILL_ERROR)
		snprintf(err, err_size, "%s", ss_stream_error(s));
	ss_source_zstd_counts(s, &last_in_place, &last_copied);
	for (size_t i = 0; i < NSLOTS; i++)
		ss_batch_release(&ring[i]);
	ss_framer_free(f);
	ss_stream_free(s);
	return k;
}

struct variant {
	int wlog, level;
	size_t chunk;
	enum ss_framing mode;
};

/*
 * Windows from 1 KiB (many small blocks) through 512 KiB (zstd -1) and
 * 2 MiB (zstd -3, the largest decoded in place) to 8 MiB (zstd -19:
 * the streaming API); fed whole or in odd pieces; forced JSONL (direct
 * from the first byte) or detected (the first fill copies).
 */
static const struct variant variants[] = {
	{19, 1, 0, SS_FRAMING_JSONL},    {19, 1, 4093, SS_FRAMING_AUTO},
	{21, 3, 0, SS_FRAMING_AUTO},     {21, 3, 65537, SS_FRAMING_JSONL},
	{10, 1, 0, SS_FRAMING_JSONL},    {17, 2, 0, SS_FRAMING_JSONL},
	{23, 3, 0, SS_FRAMING_JSONL},
};

enum path { PATH_INPLACE, PATH_STREAMING };
static const enum path inplace_path = PATH_INPLACE, streaming_path = PATH_STREAMING;

/*
 * Decode with the path the test was started for (its state). The in-place
 * one exists only in a build with libzstd's buffer-less API, run with the
 * libzstd it was built for: elsewhere the case is skipped, saying why.
 */
static enum path use_path(void **state)
{
	enum path p = *(const enum path *)*state;
	size_t room, step;
	struct ss_stream *s;
	bool inplace;

	ss_source_zstd_set_streaming_only(p == PATH_STREAMING);
	s = ss_source_zstd_new(ss_source_mem_new("", 0, 0, NULL));
	assert_non_null(s);
	inplace = ss_stream_inplace(s, &room, &step);
	ss_stream_free(s);
	assert_true(inplace == (p == PATH_INPLACE) || p == PATH_INPLACE);
	if (p == PATH_INPLACE && !inplace) {
		print_message("SKIP: no in-place zstd decoding in this build or run (%s)\n",
			      ss_zstd_decoding());
		skip();
	}
	return p;
}

static void test_lines(void **state)
{
	struct ss_buf text, z, want, got;
	const size_t max_record = (size_t)4 << 20;
	enum path path = use_path(state);

	ss_buf_init(&text);
	make_text(&text, (size_t)12 << 20);
	ss_buf_init(&want);
	expected_units(&want, text.data, text.len, max_record);
	for (size_t v = 0; v < sizeof(variants) / sizeof(*variants); v++) {
		char err[256] = "";

		ss_buf_init(&z);
		ss_buf_init(&got);
		compress_frame(&z, text.data, text.len, variants[v].wlog, variants[v].level);
		assert_int_equal(frame_zstd(&z, variants[v].chunk, 27, max_record,
					    variants[v].mode, &got, err, sizeof(err)),
				 SS_FILL_END);
		if (got.len != want.len || memcmp(got.data, want.data, want.len) != 0)
			fail_msg("variant %zu (window log %d): units differ", v, variants[v].wlog);
		/*
		 * Every byte is handed out once. In place: most of the text of
		 * the frames with windows up to 2 MiB is decoded where it is
		 * framed (all but the lines over a batch's room, the tiny lines
		 * read in small pieces and what the first, detecting, fill copies;
		 * about half for the 2 MiB window, whose batches the first in-place
		 * read fills). Streaming, or a larger window: nothing is.
		 */
		assert_int_equal(last_in_place + last_copied, text.len);
		if (path == PATH_INPLACE && variants[v].wlog <= 21)
			assert_true(last_in_place > text.len / 3);
		else
			assert_int_equal(last_in_place, 0);
		ss_buf_release(&z);
		ss_buf_release(&got);
	}
	ss_buf_release(&want);
	ss_buf_release(&text);
}

/* A skippable frame of n bytes of content. */
static void skippable(struct ss_buf *z, uint32_t n)
{
	unsigned char h[8] = {0x50, 0x2A, 0x4D, 0x18, (unsigned char)n, (unsigned char)(n >> 8),
			      (unsigned char)(n >> 16), (unsigned char)(n >> 24)};

	ss_buf_add(z, h, 8);
	for (uint32_t i = 0; i < n; i++)
		ss_buf_addc(z, (char)i);
}

/*
 * Several frames with different windows (in place, streaming, in place
 * again), skippable frames between them, a frame that cuts a line in two:
 * one stream.
 */
static void test_frames(void **state)
{
	struct ss_buf text, z, want, got;
	size_t cut[4];
	const int wlogs[4] = {19, 23, 12, 21};
	char err[256] = "";

	use_path(state);
	ss_buf_init(&text);
	make_text(&text, (size_t)6 << 20);
	cut[0] = 0;
	cut[1] = text.len / 3 + 17;   /* inside a line, most likely */
	cut[2] = text.len / 2;
	cut[3] = text.len / 4 * 3;
	ss_buf_init(&z);
	for (size_t i = 0; i < 4; i++) {
		size_t end = i == 3 ? text.len : cut[i + 1];

		compress_frame(&z, text.data + cut[i], end - cut[i], wlogs[i], 1);
		skippable(&z, i == 1 ? 300000 : (uint32_t)i);
	}
	ss_buf_init(&want);
	expected_units(&want, text.data, text.len, (size_t)4 << 20);
	ss_buf_init(&got);
	assert_int_equal(frame_zstd(&z, 7001, 27, (size_t)4 << 20, SS_FRAMING_JSONL, &got, err,
				    sizeof(err)),
			 SS_FILL_END);
	assert_true(got.len == want.len && memcmp(got.data, want.data, want.len) == 0);
	ss_buf_release(&got);
	ss_buf_release(&want);
	ss_buf_release(&z);
	ss_buf_release(&text);
}

/*
 * Read the stream with direct reads into one buffer, never leaving it:
 * every block lands in place, across block boundaries; the bytes are
 * the original ones.
 */
static void test_direct_read(void **state)
{
	struct ss_buf text, z;
	int wlogs[3] = {10, 19, 21};

	if (use_path(state) == PATH_STREAMING)
		return;
	ss_buf_init(&text);
	make_text(&text, (size_t)8 << 20);
	for (size_t v = 0; v < 3; v++) {
		struct ss_stream *s;
		char *out;
		size_t len = 0, got = 0, room, step, reads = 0;
		uint64_t in_place, copied;
		enum ss_io r;

		ss_buf_init(&z);
		compress_frame(&z, text.data, text.len, wlogs[v], 1);
		s = ss_source_zstd_new(ss_source_mem_new(z.data, z.len, 0, NULL));
		assert_non_null(s);
		assert_true(ss_stream_inplace(s, &room, &step));
		out = malloc(text.len + room);
		assert_non_null(out);
		while ((r = ss_stream_read_inplace(s, out + len, text.len + room - len, &got)) ==
		       SS_IO_OK) {
			len += got;
			reads++;
		}
		assert_int_equal(r, SS_IO_END);
		/* Every block was decoded in place, the first one too (a frame's
		 * first segment may start anywhere with room). */
		ss_source_zstd_counts(s, &in_place, &copied);
		assert_int_equal(in_place, text.len);
		assert_int_equal(copied, 0);
		assert_true(reads > 8);
		assert_int_equal(len, text.len);
		assert_memory_equal(out, text.data, text.len);
		ss_stream_free(s);
		ss_buf_release(&z);
		free(out);
	}
	ss_buf_release(&text);
}

/* The lines wholly inside what libzstd's own streaming decoder gets out of z. */
static void streaming_prefix(const struct ss_buf *z, struct ss_buf *out)
{
	ZSTD_DStream *d = ZSTD_createDStream();
	ZSTD_inBuffer in = {z->data, z->len, 0};
	char buf[1 << 16];

	assert_non_null(d);
	while (in.pos < in.size) {
		ZSTD_outBuffer o = {buf, sizeof(buf), 0};
		size_t ret = ZSTD_decompressStream(d, &o, &in);

		if (ZSTD_isError(ret))
			break;
		ss_buf_add(out, buf, o.pos);
		if (o.pos == 0 && in.pos == in.size)
			break;
	}
	ZSTD_freeDStream(d);
	while (out->len > 0 && out->data[out->len - 1] != '\n')
		out->len--;   /* a partial last line is dropped */
}

/* Input cut inside a frame: the lines before, then "truncated zstd frame". */
static void test_truncated(void **state)
{
	struct ss_buf text, z, prefix, want, got;
	char err[256] = "";

	use_path(state);
	ss_buf_init(&text);
	make_text(&text, (size_t)6 << 20);
	ss_buf_init(&z);
	compress_frame(&z, text.data, text.len, 19, 1);
	z.len = z.len / 2;
	ss_buf_init(&prefix);
	streaming_prefix(&z, &prefix);
	assert_true(prefix.len > 0);
	ss_buf_init(&want);
	expected_units(&want, prefix.data, prefix.len, (size_t)4 << 20);
	ss_buf_init(&got);
	assert_int_equal(frame_zstd(&z, 0, 27, (size_t)4 << 20, SS_FRAMING_JSONL, &got, err,
				    sizeof(err)),
			 SS_FILL_ERROR);
	assert_string_equal(err, "truncated zstd frame (unexpected end of input)");
	assert_true(got.len == want.len && memcmp(got.data, want.data, want.len) == 0);
	ss_buf_release(&got);
	ss_buf_release(&want);
	ss_buf_release(&prefix);
	ss_buf_release(&z);
	ss_buf_release(&text);
}

/* A damaged block: "corrupt zstd data", never a crash or wrong lines. */
static void test_corrupt(void **state)
{
	struct ss_buf text, z, want, got;

	use_path(state);
	ss_buf_init(&text);
	make_text(&text, (size_t)4 << 20);
	ss_buf_init(&want);
	expected_units(&want, text.data, text.len, (size_t)4 << 20);
	for (int i = 1; i < 8; i++) {
		char err[256] = "";

		ss_buf_init(&z);
		compress_frame(&z, text.data, text.len, 19, 1);
		z.data[z.len / 8 * i] ^= 0x5A;
		ss_buf_init(&got);
		assert_int_equal(frame_zstd(&z, 0, 27, (size_t)4 << 20, SS_FRAMING_JSONL, &got,
					    err, sizeof(err)),
				 SS_FILL_ERROR);
		assert_memory_equal(err, "corrupt zstd data: ", 19);
		/* What came out before the failure is a prefix of the units
		 * (the checksum catches damage libzstd decoded without noticing). */
		assert_true(got.len <= want.len);
		ss_buf_release(&got);
		ss_buf_release(&z);
	}
	ss_buf_release(&want);
	ss_buf_release(&text);
}

/* Windows over the limit: the message names the --zstd-window-log to use. */
static void test_window_limit(void **state)
{
	struct ss_buf text, z, got;
	char err[256] = "";

	use_path(state);
	ss_buf_init(&text);
	make_text(&text, (size_t)3 << 20);
	ss_buf_init(&z);
	compress_frame(&z, text.data, text.len, 21, 1);   /* in place */
	ss_buf_init(&got);
	assert_int_equal(frame_zstd(&z, 0, 20, (size_t)4 << 20, SS_FRAMING_JSONL, &got, err,
				    sizeof(err)),
			 SS_FILL_ERROR);
	assert_string_equal(err, "zstd frame needs a larger window (window log 21, over 20); "
				 "use --zstd-window-log 21");
	assert_int_equal(got.len, 0);
	ss_buf_release(&got);
	ss_buf_release(&z);
	ss_buf_init(&z);
	compress_frame(&z, text.data, text.len, 22, 1);   /* streaming */
	ss_buf_init(&got);
	assert_int_equal(frame_zstd(&z, 0, 21, (size_t)4 << 20, SS_FRAMING_JSONL, &got, err,
				    sizeof(err)),
			 SS_FILL_ERROR);
	assert_string_equal(err, "zstd frame needs a larger window (window log 22, over 21); "
				 "use --zstd-window-log 22");
	ss_buf_release(&got);
	ss_buf_release(&z);
	ss_buf_release(&text);
}

/* ---- frame headers, written by hand (RFC 8878, 3.1.1) ---- */

/* A frame: magic, descriptor `fhd`, then `hdr` (window descriptor,
 * dictionary id, content size as the descriptor says), one raw last block. */
static void raw_frame(struct ss_buf *z, unsigned char fhd, const void *hdr, size_t hlen,
		      const char *data, size_t len)
{
	unsigned char bh[3] = {(unsigned char)(len << 3 | 1), (unsigned char)(len >> 5),
			       (unsigned char)(len >> 13)};

	ss_buf_add(z, "\x28\xB5\x2F\xFD", 4);
	ss_buf_addc(z, (char)fhd);
	ss_buf_add(z, hdr, hlen);
	ss_buf_add(z, bh, 3);
	ss_buf_add(z, data, len);
}

/* Read a zstd stream to its end; what it gave, and its error if it failed. */
static enum ss_io decode_all(const struct ss_buf *z, unsigned wlog, struct ss_buf *out,
			     char *err, size_t err_size)
{
	struct ss_stream *s = ss_source_zstd_new_window(
		ss_source_mem_new(z->data, z->len, 3, NULL), wlog);
	char buf[1000];
	size_t got;
	enum ss_io r;

	assert_non_null(s);
	while ((r = ss_stream_read(s, buf, sizeof(buf), &got)) == SS_IO_OK)
		ss_buf_add(out, buf, got);
	snprintf(err, err_size, "%s", r == SS_IO_ERROR ? ss_stream_error(s) : "");
	ss_stream_free(s);
	return r;
}

struct hcase {
	const char *what;
	unsigned char fhd;
	unsigned char hdr[9];
	size_t hlen, len;       /* len: the block's bytes, a pattern */
	const char *after;      /* bytes after the frame */
	size_t after_len;
	unsigned wlog;
	const char *err;        /* NULL: read to the end; "corrupt...": a prefix */
	bool out;               /* the block's bytes come out (before err) */
};

/*
 * Windows worked out by hand: descriptor (exponent << 3 | mantissa) gives
 * 2^(10+e) + 2^(10+e)/8 * m; a single-segment frame's window is its content
 * size (2 bytes: value + 256). Over 2^27 (the default limit) the message
 * names the window log that reads it: ceil(log2(window)).
 */
static const struct hcase hcases[] = {
	{"window 2^27", 0x00, {17 << 3}, 1, 6, NULL, 0, 0, NULL, true},
	{"window 2^27 + 2^24", 0x00, {17 << 3 | 1}, 1, 6, NULL, 0, 0,
	 "zstd frame needs a larger window (window log 28, over 27); use --zstd-window-log 28", false},
	{"window 2^27 + 2^24, limit 28", 0x00, {17 << 3 | 1}, 1, 6, NULL, 0, 28, NULL, true},
	{"window 2^20 + 7 * 2^17, limit 20", 0x00, {10 << 3 | 7}, 1, 6, NULL, 0, 20,
	 "zstd frame needs a larger window (window log 21, over 20); use --zstd-window-log 21", false},
	{"single segment, 1-byte size", 0x20, {6}, 1, 6, NULL, 0, 0, NULL, true},
	{"single segment, 2-byte size 300", 0x60, {44, 0}, 2, 300, NULL, 0, 0, NULL, true},
	{"single segment, 2-byte size 769 + 256, limit 10", 0x60, {1, 3}, 2, 6, NULL, 0, 10,
	 "zstd frame needs a larger window (window log 11, over 10); use --zstd-window-log 11", false},
	{"single segment, 8-byte size 2^28 + 1", 0xE0, {0x01, 0, 0, 0x10}, 8, 6, NULL, 0, 0,
	 "zstd frame needs a larger window (window log 29, over 27); use --zstd-window-log 29", false},
	{"window log 32", 0x00, {22 << 3}, 1, 6, NULL, 0, 0, "corrupt zstd data: ", false},
	{"reserved bit", 0x08, {17 << 3}, 1, 6, NULL, 0, 0, "corrupt zstd data: ", false},
	{"dictionary id", 0x01, {17 << 3, 7}, 2, 6, NULL, 0, 0, "corrupt zstd data: ", false},
	{"skippable frame after it", 0x20, {6}, 1, 6, "\x5F\x2A\x4D\x18\x03\0\0\0abc", 11, 0, NULL, true},
	{"skippable frame cut", 0x20, {6}, 1, 6, "\x50\x2A\x4D\x18\x64\0\0\0abc", 11, 0,
	 "truncated zstd frame (unexpected end of input)", true},
	{"a magic number cut", 0x20, {6}, 1, 6, "\x28\xB5", 2, 0,
	 "truncated zstd frame (unexpected end of input)", true},
	{"other bytes after it", 0x20, {6}, 1, 6, "xy", 2, 0, "corrupt zstd data: ", true},
};

/*
 * Every header on both paths: the bytes before a failure, the message
 * (exact when worked out here, else libzstd's, the same on both paths).
 */
static void test_headers(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(hcases) / sizeof(*hcases); i++) {
		const struct hcase *c = &hcases[i];
		char err[2][256], data[300];
		struct ss_buf z, out[2];

		for (size_t k = 0; k < c->len; k++)
			data[k] = (char)('a' + k % 26);
		ss_buf_init(&z);
		raw_frame(&z, c->fhd, c->hdr, c->hlen, data, c->len);
		ss_buf_add(&z, c->after, c->after_len);
		for (int p = 0; p < 2; p++) {
			enum ss_io r;

			ss_source_zstd_set_streaming_only(p == 1);
			ss_buf_init(&out[p]);
			ss_buf_adds(&out[p], "");
			r = decode_all(&z, c->wlog, &out[p], err[p], sizeof(err[p]));
			if (r != (c->err ? SS_IO_ERROR : SS_IO_END))
				fail_msg("%s: %s", c->what, err[p]);
			if (c->err && strncmp(c->err, "corrupt", 7) == 0)
				assert_memory_equal(err[p], c->err, strlen(c->err));
			else if (c->err)
				assert_string_equal(err[p], c->err);
			assert_int_equal(out[p].len, c->out ? c->len : 0);
			assert_memory_equal(out[p].data, data, out[p].len);
		}
		assert_string_equal(err[0], err[1]);
		ss_buf_release(&out[0]);
		ss_buf_release(&out[1]);
		ss_buf_release(&z);
	}
	ss_source_zstd_set_streaming_only(false);
}

int main(void)
{
#define BOTH(t) cmocka_unit_test_prestate(t, (void *)&inplace_path), \
		cmocka_unit_test_prestate(t, (void *)&streaming_path)
	const struct CMUnitTest tests[] = {
		BOTH(test_lines),   BOTH(test_frames),  BOTH(test_truncated),
		BOTH(test_corrupt), BOTH(test_window_limit),
		cmocka_unit_test_prestate(test_direct_read, (void *)&inplace_path),
		cmocka_unit_test(test_headers),
	};

	rng_state = 0x9E3779B97F4A7C15ull;
	make_pool();
	/* Small input reads: blocks are gathered across many of them. */
	ss_source_set_buffer_size(4096);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
