/* Unit tests of the output compressors (SPEC 8.3): what is written reads
 * back through libzstd and zlib as the same bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "io/compress.h"
#include "util/alloc.h"

static void test_codec_for_path(void **state)
{
	(void)state;
	assert_int_equal(ss_codec_for_path("part-3.jsonl.zst"), SS_CODEC_ZSTD);
	assert_int_equal(ss_codec_for_path("/a/b.json.gz"), SS_CODEC_GZIP);
	assert_int_equal(ss_codec_for_path("b.json"), SS_CODEC_NONE);
	assert_int_equal(ss_codec_for_path("b.zst.json"), SS_CODEC_NONE);
	assert_int_equal(ss_codec_for_path("b.ZST"), SS_CODEC_NONE);
	assert_int_equal(ss_codec_for_path("b.tgz"), SS_CODEC_NONE);
	assert_int_equal(ss_codec_for_path(".zst"), SS_CODEC_NONE); /* a name, no suffix */
	assert_int_equal(ss_codec_for_path("-"), SS_CODEC_NONE);
}

/* `n` bytes of text that compress, but not to nothing. */
static char *sample(size_t n)
{
	char *p = malloc(n);
	uint64_t x = 88172645463325252ull;

	assert_non_null(p);
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		p[i] = i % 97 == 96 ? '\n' : "specdecode{}[]\":,0123456789"[x % 27];
	}
	return p;
}

/* Write `data` through a compressor in uneven pieces; the file's bytes. */
static unsigned char *squeeze(enum ss_codec codec, const char *data, size_t n, size_t *outlen)
{
	FILE *f = tmpfile();
	struct ss_compressor *c;
	unsigned char *out;
	long len;

	assert_non_null(f);
	c = ss_compressor_new(codec, f);
	assert_non_null(c);
	for (size_t off = 0, step = 1; off < n; off += step, step = step * 3 + 1) {
		if (step > n - off)
			step = n - off;
		assert_true(ss_compressor_write(c, data + off, step));
	}
	assert_true(ss_compressor_write(c, data, 0));
	assert_true(ss_compressor_finish(c));
	ss_compressor_free(c);
	assert_int_equal(fflush(f), 0);
	len = ftell(f);
	assert_true(len > 0);
	rewind(f);
	out = malloc((size_t)len);
	assert_non_null(out);
	assert_int_equal(fread(out, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*outlen = (size_t)len;
	return out;
}

static char *unzstd(const unsigned char *z, size_t zn, size_t cap, size_t *n)
{
	ZSTD_DStream *d = ZSTD_createDStream();
	char *out = malloc(cap + 1);
	ZSTD_inBuffer in = {z, zn, 0};
	ZSTD_outBuffer o = {out, cap + 1, 0};
	size_t r;

	assert_non_null(d);
	do {
		r = ZSTD_decompressStream(d, &o, &in);
		assert_false(ZSTD_isError(r));
	} while (in.pos < in.size);
	assert_int_equal(r, 0); /* the frame is complete */
	ZSTD_freeDStream(d);
	*n = o.pos;
	return out;
}

static char *ungzip(const unsigned char *z, size_t zn, size_t cap, size_t *n)
{
	z_stream s;
	char *out = malloc(cap + 1);

	memset(&s, 0, sizeof(s));
	assert_int_equal(inflateInit2(&s, 15 + 16), Z_OK); /* gzip only */
	s.next_in = (Bytef *)(uintptr_t)z;
	s.avail_in = (uInt)zn;
	s.next_out = (Bytef *)out;
	s.avail_out = (uInt)(cap + 1);
	assert_int_equal(inflate(&s, Z_FINISH), Z_STREAM_END);
	*n = s.total_out;
	inflateEnd(&s);
	return out;
}

static void round_trip(enum ss_codec codec, size_t n)
{
	char *data = sample(n ? n : 1), *back;
	size_t zn, bn;
	unsigned char *z = squeeze(codec, data, n, &zn);

	back = codec == SS_CODEC_ZSTD ? unzstd(z, zn, n, &bn) : ungzip(z, zn, n, &bn);
	assert_int_equal(bn, n);
	assert_memory_equal(back, data, n);
	if (n > 100000)
		assert_true(zn < n);
	free(back);
	free(z);
	free(data);
}

static void test_zstd(void **state)
{
	(void)state;
	round_trip(SS_CODEC_ZSTD, 0);
	round_trip(SS_CODEC_ZSTD, 1);
	round_trip(SS_CODEC_ZSTD, 3 << 20);
}

static void test_gzip(void **state)
{
	(void)state;
	round_trip(SS_CODEC_GZIP, 0);
	round_trip(SS_CODEC_GZIP, 1);
	round_trip(SS_CODEC_GZIP, 3 << 20);
}

/* A write error is sticky and reported; no crash, no second error. */
static void test_write_error(void **state)
{
	FILE *f = fopen("/dev/full", "w");
	struct ss_compressor *c;
	char *data = sample(1 << 20);
	bool ok = true;

	(void)state;
	if (!f) {
		free(data);
		skip();
	}
	setvbuf(f, NULL, _IONBF, 0);
	c = ss_compressor_new(SS_CODEC_GZIP, f);
	assert_non_null(c);
	for (int i = 0; i < 8 && ok; i++)
		ok = ss_compressor_write(c, data, 1 << 20);
	ok = ok && ss_compressor_finish(c);
	assert_false(ok);
	assert_int_not_equal(ss_compressor_error(c), 0);
	assert_false(ss_compressor_write(c, "x", 1));
	ss_compressor_free(c);
	fclose(f);
	free(data);
}

static void test_out_of_memory(void **state)
{
	(void)state;
	ss_alloc_fail_at(1, 1);
	assert_null(ss_compressor_new(SS_CODEC_GZIP, stdout));
	ss_alloc_fail_at(1, 1);
	assert_null(ss_compressor_new(SS_CODEC_ZSTD, stdout));
	ss_alloc_fail_at(2, 1);
	assert_null(ss_compressor_new(SS_CODEC_GZIP, stdout));
	ss_alloc_fail_at(0, 0);
	assert_null(ss_compressor_new(SS_CODEC_NONE, stdout));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_codec_for_path), cmocka_unit_test(test_zstd),
	    cmocka_unit_test(test_gzip),           cmocka_unit_test(test_write_error),
	    cmocka_unit_test(test_out_of_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
