/*
 * test_framer.c - SPEC 1.2 framing: JSONL lines and SSE streams. Every
 * case is run with many read sizes and window sizes, so lines and events
 * are cut at every place, both through the window (detected framing) and
 * read straight into the batch (forced JSONL), and again from a stream
 * that decodes in place (a stand-in for zstd that checks the framer keeps
 * what it may read back); the expected units are written by hand as
 * "LINE:part|part" lines ("LINE:OVERSIZE" for an oversize unit).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/framer.h"
#include "io/source.h"
#include "json/json.h"
#include "util/alloc.h"
#include "util/buf.h"

_Static_assert(SS_BATCH_PADDING >= SSJ_PADDING,
	       "a batch must pad its texts as the JSON shim needs");

struct run {
	struct ss_buf out;      /* the units as text */
	enum ss_fill last;
	bool sse;
	char err[256];
};

/* Append the units of `b` to `out`, checking the padding contract. */
static void dump(struct ss_buf *out, const struct ss_batch *b)
{
	size_t u, i;

	for (u = 0; u < b->nunits; u++) {
		const struct ss_unit *un = &b->units[u];

		ss_buf_addf(out, "%llu:", (unsigned long long)un->line);
		if (un->oversize) {
			assert_int_equal(un->nparts, 0);
			ss_buf_adds(out, "OVERSIZE");
		}
		for (i = 0; i < un->nparts; i++) {
			size_t off = b->part_off[un->first_part + i];
			size_t len = b->part_len[un->first_part + i];

			assert_true(off + len + SSJ_PADDING <= b->cap);
			if (i)
				ss_buf_addc(out, '|');
			ss_buf_add(out, b->buf + off, len);
		}
		ss_buf_addc(out, '\n');
	}
}

/*
 * A stream that decodes in place as zstd does (source.h,
 * ss_stream_read_inplace), for the framer's side of that contract: it
 * hands out `text` in pieces of at most `chunk` bytes, writes them where
 * asked when the room allows (FAKE_ROOM to start a run, FAKE_STEP to go on
 * at its end), and before every call checks that the bytes it may still
 * read back (the current run) are unchanged, as a decoder reading its
 * history would. A read elsewhere, a plain read or a release ends the run.
 */
#define FAKE_ROOM 16
#define FAKE_STEP 4

struct fake {
	struct ss_stream s;
	const char *text, *fail;
	size_t n, off, chunk;
	char *run;               /* the caller's bytes it may read back */
	size_t run_len;
	struct ss_buf shadow;    /* what they were when written */
	size_t in_place;         /* bytes written in place */
};

static void fake_check(struct fake *fs)
{
	if (fs->run_len && memcmp(fs->run, fs->shadow.data, fs->run_len) != 0)
		fail_msg("bytes held by the stream were changed (%zu of them)", fs->run_len);
}

static enum ss_io fake_any(struct ss_stream *s, void *buf, size_t n, size_t *got, bool inplace)
{
	struct fake *fs = (struct fake *)s;
	size_t k = fs->n - fs->off;
	bool here = fs->run_len && (char *)buf == fs->run + fs->run_len;

	fake_check(fs);
	if (k == 0)
		return fs->fail ? ss_stream_fail(s, "%s", fs->fail) : SS_IO_END;
	if (fs->chunk && k > fs->chunk)
		k = fs->chunk;
	if (k > n)
		k = n;
	memcpy(buf, fs->text + fs->off, k);
	fs->off += k;
	*got = k;
	if (inplace && (here ? n >= FAKE_STEP : n >= FAKE_ROOM)) {
		/* A run started elsewhere reads the old one back while it
		 * writes anywhere in its room: they must not meet. */
		if (!here && fs->run_len && (char *)buf < fs->run + fs->run_len &&
		    fs->run < (char *)buf + n)
			fail_msg("a read in place overlaps the bytes still held");
		if (!here) {
			fs->run = buf;
			fs->run_len = 0;
			fs->shadow.len = 0;
		}
		ss_buf_add(&fs->shadow, buf, k);
		fs->run_len += k;
		fs->in_place += k;
	} else {
		fs->run_len = 0;   /* copied: nothing is read back */
	}
	return SS_IO_OK;
}

static enum ss_io fake_read(struct ss_stream *s, void *buf, size_t n, size_t *got)
{
	return fake_any(s, buf, n, got, false);
}

static enum ss_io fake_read_inplace(struct ss_stream *s, void *buf, size_t n, size_t *got)
{
	return fake_any(s, buf, n, got, true);
}

static void fake_release(struct ss_stream *s)
{
	struct fake *fs = (struct fake *)s;

	fake_check(fs);
	fs->run_len = 0;
}

static void fake_destroy(struct ss_stream *s)
{
	ss_buf_release(&((struct fake *)s)->shadow);
	free(s);
}

static const struct ss_inplace_ops fake_inplace = {FAKE_ROOM, FAKE_STEP, fake_read_inplace,
						   fake_release};
static const struct ss_stream_ops fake_ops = {fake_read, fake_destroy, &fake_inplace};

static struct fake *fake_new(const char *text, size_t chunk, const char *fail)
{
	struct fake *fs = calloc(1, sizeof(*fs));

	assert_non_null(fs);
	ss_stream_setup(&fs->s, &fake_ops, NULL);
	fs->text = text;
	fs->n = strlen(text);
	fs->chunk = chunk;
	fs->fail = fail;
	ss_buf_init(&fs->shadow);
	return fs;
}

/*
 * Frame `text` with reads of at most `chunk` bytes (0: any), a window of
 * `window` bytes (0: default) and fills of `target` bytes. `fail`: the
 * stream fails with this text at its end. `inplace`: from the stream
 * above, into two batches used in turn, the one before spoiled as soon as
 * a fill returns (framer.h: nothing is read back from it then); else from
 * a memory stream into one batch.
 */
static enum ss_fill frame_any(struct run *r, const char *text, size_t max_record,
			      enum ss_framing mode, size_t chunk, size_t window,
			      size_t target, const char *fail, bool inplace)
{
	struct ss_framer *f = ss_framer_new(max_record, mode);
	struct fake *fs = inplace ? fake_new(text, chunk, fail) : NULL;
	struct ss_stream *s = fs ? &fs->s : ss_source_mem_new(text, strlen(text), chunk, fail);
	struct ss_batch b[2];
	int rounds = 0;

	assert_non_null(f);
	assert_non_null(s);
	ss_buf_init(&r->out);
	ss_buf_adds(&r->out, "");
	r->err[0] = '\0';
	if (window)
		ss_framer_set_window(f, window);
	ss_framer_start(f, s);
	ss_batch_init(&b[0]);
	ss_batch_init(&b[1]);
	for (;;) {
		struct ss_batch *cur = &b[inplace ? rounds % 2 : 0];
		enum ss_fill k = ss_framer_fill(f, cur, target);

		assert_true(k != SS_FILL_NOMEM);
		if (inplace && b[(rounds + 1) % 2].buf)
			memset(b[(rounds + 1) % 2].buf, 'X', b[(rounds + 1) % 2].cap);
		dump(&r->out, cur);
		r->last = k;
		if (k != SS_FILL_MORE)
			break;
		assert_true(++rounds < 100000);
		ss_batch_reset(&b[inplace ? rounds % 2 : 0]);
	}
	/* Once over, it stays over. */
	ss_batch_reset(&b[0]);
	assert_int_equal(ss_framer_fill(f, &b[0], target), r->last);
	assert_int_equal(b[0].nunits, 0);
	r->sse = ss_framer_is_sse(f);
	if (r->last == SS_FILL_ERROR)
		snprintf(r->err, sizeof(r->err), "%s", ss_stream_error(s));
	/* Forced JSONL with room for in-place reads: some were made. */
	if (fs && mode == SS_FRAMING_JSONL && window == 0 && target > 1 && strlen(text) >= FAKE_ROOM)
		assert_true(fs->in_place > 0);
	ss_batch_release(&b[0]);
	ss_batch_release(&b[1]);
	ss_framer_free(f);
	ss_stream_free(s);
	assert_false(r->out.failed);
	return r->last;
}

static enum ss_fill frame(struct run *r, const char *text, size_t max_record,
			  enum ss_framing mode, size_t chunk, size_t window,
			  size_t target, const char *fail)
{
	return frame_any(r, text, max_record, mode, chunk, window, target, fail, false);
}

static const size_t chunks[] = {0, 1, 2, 3, 5, 7, 64};
static const size_t windows[] = {0, 2, 3, 8, 13, 4096};
static const size_t targets[] = {1, 20, (size_t)1 << 30};

/* Every read size, window and target, from either stream, gives the same units. */
static void check(const char *text, size_t max_record, enum ss_framing mode,
		  const char *want, bool want_sse)
{
	size_t c, w, t;

	for (int inplace = 0; inplace < 2; inplace++)
	for (c = 0; c < sizeof(chunks) / sizeof(*chunks); c++)
		for (w = 0; w < sizeof(windows) / sizeof(*windows); w++)
			for (t = 0; t < sizeof(targets) / sizeof(*targets); t++) {
				struct run r;

				/* (an in-place stream makes the batch take its
				 * target at once: 64 KiB is past every text too) */
				size_t target = inplace && targets[t] > 65536 ? 65536 : targets[t];

				frame_any(&r, text, max_record, mode, chunks[c], windows[w],
					  target, NULL, inplace);
				if (strcmp(r.out.data, want) != 0)
					fail_msg("%s chunk %zu window %zu target %zu:\n%s\nwanted:\n%s",
						 inplace ? "in place" : "copied", chunks[c],
						 windows[w], target, r.out.data, want);
				assert_int_equal(r.last, SS_FILL_END);
				assert_int_equal(r.sse, want_sse);
				ss_buf_release(&r.out);
			}
}

static void test_jsonl_crlf_blank_no_final_newline(void **state)
{
	(void)state;
	/* lines: 1 CRLF, 2 empty, 3 spaces+tab, 4 LF, 5 lone CR, 6 no LF */
	check("{\"a\":1}\r\n\n  \t\n{\"b\":2}\n\r\n{\"c\":3}", 100,
	      SS_FRAMING_AUTO, "1:{\"a\":1}\n4:{\"b\":2}\n6:{\"c\":3}\n", false);
	/* leading white space is kept: the parser skips it */
	check(" {\"a\":1}\n", 100, SS_FRAMING_AUTO, "1: {\"a\":1}\n", false);
	check("", 100, SS_FRAMING_AUTO, "", false);
	check("\n\r\n \n", 100, SS_FRAMING_AUTO, "", false);
	check("x", 100, SS_FRAMING_AUTO, "1:x\n", false);
}

static void test_jsonl_oversize(void **state)
{
	(void)state;
	/*
	 * max 10: line 2 (32 bytes) is over; line 5 has exactly 10; line 6
	 * has 10 plus CR; line 7 has 11 and no newline.
	 */
	check("{\"a\":1}\n"
	      "{\"long\":\"xxxxxxxxxxxxxxxxxxxxxx\"}\n"
	      "\n"
	      "{\"b\":22}\n"
	      "{\"c\":1234}\n"
	      "{\"e\":1234}\r\n"
	      "{\"d\":12345}",
	      10, SS_FRAMING_JSONL,
	      "1:{\"a\":1}\n2:OVERSIZE\n4:{\"b\":22}\n5:{\"c\":1234}\n"
	      "6:{\"e\":1234}\n7:OVERSIZE\n", false);
	/* two oversize lines in a row, then a good one */
	check("aaaaaaaaaaaaaaaaaaaaaaaaa\nbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\r\nok\n", 4,
	      SS_FRAMING_AUTO, "1:OVERSIZE\n2:OVERSIZE\n3:ok\n", false);
}

/*
 * More lines than a batch takes (SS_BATCH_MAX_UNITS): the lines after a
 * full batch wait for the next one, also when no read is needed to fill
 * it; an oversize line among them.
 */
static void test_full_batches(void **state)
{
	struct ss_buf text, want;
	size_t n = 2 * SS_BATCH_MAX_UNITS + 100;

	(void)state;
	ss_buf_init(&text);
	ss_buf_init(&want);
	for (size_t i = 1; i <= n; i++) {
		if (i == SS_BATCH_MAX_UNITS + 7) {
			ss_buf_adds(&text, "[\"over the limit\"]\n");
			ss_buf_addf(&want, "%zu:OVERSIZE\n", i);
		} else {
			ss_buf_addf(&text, "%zu\n", i % 10);
			ss_buf_addf(&want, "%zu:%zu\n", i, i % 10);
		}
	}
	check(text.data, 10, SS_FRAMING_JSONL, want.data, false);
	check(text.data, 10, SS_FRAMING_AUTO, want.data, false);
	ss_buf_release(&text);
	ss_buf_release(&want);
}

/* A UTF-8 byte-order mark is skipped at the very start only (SPEC 1.2). */
static void test_bom(void **state)
{
	(void)state;
	for (int m = 0; m < 2; m++) {
		enum ss_framing mode = m ? SS_FRAMING_JSONL : SS_FRAMING_AUTO;

		check("\xEF\xBB\xBF{\"a\":1}\n{\"b\":2}\n", 100, mode,
		      "1:{\"a\":1}\n2:{\"b\":2}\n", false);
		/* elsewhere it is an ordinary byte; a second one is kept */
		check("{\"a\":1}\n\xEF\xBB\xBF{}\n", 100, mode,
		      "1:{\"a\":1}\n2:\xEF\xBB\xBF{}\n", false);
		check("\xEF\xBB\xBF\xEF\xBB\xBFx\n", 100, mode, "1:\xEF\xBB\xBFx\n", false);
		/* the start of one that the input ends inside is kept */
		check("\xEF\xBB", 100, mode, "1:\xEF\xBB\n", false);
		/* blank lines after it are still counted */
		check("\xEF\xBB\xBF\n\r\nx\n", 100, mode, "3:x\n", false);
	}
	/* an SSE capture is recognised behind it */
	check("\xEF\xBB\xBF" "data: x\n\n", 100, SS_FRAMING_AUTO, "1:x\n", true);
}

static void test_sse_fields_and_streams(void **state)
{
	(void)state;
	check(": comment\r\n"                 /* 1 */
	      "event: message\r\n"            /* 2: first field of the event */
	      "id: 1\r\n"                     /* 3 */
	      "retry: 100\r\n"                /* 4 */
	      "data: {\"x\":1}\r\n"           /* 5 */
	      "\r\n"                          /* 6 */
	      "data:{\"x\":2}\n"              /* 7: no space after the colon */
	      "data:  {\"y\":3}   \n"         /* 8: one space stripped, trailing too */
	      "\n"                            /* 9 */
	      "data: [DONE]\n"                /* 10 */
	      "\n"                            /* 11 */
	      "\n"                            /* 12 */
	      "data: {\"z\":1}\n"             /* 13 */
	      "\n"                            /* 14 */
	      "event: ping\n"                 /* 15 */
	      "data:\n"                       /* 16: empty data, skipped */
	      "\n"                            /* 17 */
	      ": keep-alive\n"                /* 18 */
	      "data: {\"z\":2}",              /* 19: ends without [DONE] */
	      1000, SS_FRAMING_AUTO,
	      "2:{\"x\":1}|{\"x\":2}\n {\"y\":3}\n"
	      "13:{\"z\":1}|{\"z\":2}\n",
	      true);
	/* detection by each prefix; a [DONE] alone makes no request */
	check("\n\nid: 7\ndata: a\n\n", 100, SS_FRAMING_AUTO, "3:a\n", true);
	check("event: x\ndata: a\n", 100, SS_FRAMING_AUTO, "1:a\n", true);
	check(":c\n\ndata: [DONE]\n\ndata: [DONE]\n", 100, SS_FRAMING_AUTO, "", true);
	/* forced framings */
	check("data: a\n\ndata: b\n", 100, SS_FRAMING_JSONL, "1:data: a\n3:data: b\n", false);
	check("{\"a\":1}\n\n", 100, SS_FRAMING_SSE, "", true);
	/* a bare "data" line is an empty data line */
	check("data\ndata: a\n\n", 100, SS_FRAMING_SSE, "1:\na\n", true);
}

static void test_sse_oversize(void **state)
{
	(void)state;
	/*
	 * max 30. A stream's size (SPEC 1.2) is its events' field lines with
	 * their line ends plus each event's closing blank line, [DONE] event
	 * included: the first stream is (26+1)+1 + (14+1)+1 + (12+1)+1 = 58
	 * bytes, oversize; the second (14+1)+1 + (12+1)+1 = 30, exactly the
	 * limit; the third has a data line far over the limit (a long line for
	 * small windows); the last, cut by the end of input, is 14+1 = 15.
	 */
	check("data: {\"a\":\"0123456789\"}\n"                        /* 1 */
	      "\n"
	      "data: {\"b\":1}\n"                                     /* 3 */
	      "\n"
	      "data: [DONE]\n"                                        /* 5 */
	      "\n"
	      "data: {\"c\":1}\n"                                     /* 7 */
	      "\n"
	      "data: [DONE]\n"                                        /* 9 */
	      "\n"
	      "data: {\"d\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}\n"  /* 11 */
	      "\n"
	      "data: {\"e\":2}\n"                                     /* 13 */
	      "\n"
	      "data: [DONE]\n"                                        /* 15 */
	      "\n"
	      ": a comment longer than the limit, which is just skipped\n"
	      "data: {\"f\":3}\n",                                    /* 18 */
	      30, SS_FRAMING_AUTO,
	      "1:OVERSIZE\n7:{\"c\":1}\n11:OVERSIZE\n18:{\"f\":3}\n", true);
	/* an oversize stream that ends at EOF */
	check("data: 0123456789\ndata: 0123456789\n", 15, SS_FRAMING_SSE,
	      "1:OVERSIZE\n", true);
	/*
	 * Keep-alive events (no data) and comments do not count: the stream
	 * is (8+1)+1 + (12+1)+1 = 24 bytes with a limit of 24; one more byte
	 * in its data line makes it oversize.
	 */
	check("data: {}\n\n: ping\nevent: ping\n\ndata:\n\ndata: [DONE]\n\n", 24,
	      SS_FRAMING_SSE, "1:{}\n", true);
	check("data: { }\n\n: ping\nevent: ping\n\ndata:\n\ndata: [DONE]\n\n", 24,
	      SS_FRAMING_SSE, "1:OVERSIZE\n", true);
}

static void test_error_keeps_good_requests(void **state)
{
	struct run r;

	(void)state;
	for (size_t c = 0; c < sizeof(chunks) / sizeof(*chunks); c++) {
		for (int inplace = 0; inplace < 2; inplace++) {
			frame_any(&r, "{\"a\":1}\n{\"b\":2}\n{\"c\"", 100, SS_FRAMING_JSONL,
				  chunks[c], 0, 1 << 16, "truncated zstd frame", inplace);
			assert_int_equal(r.last, SS_FILL_ERROR);
			assert_string_equal(r.out.data, "1:{\"a\":1}\n2:{\"b\":2}\n");
			assert_string_equal(r.err, "truncated zstd frame");
			ss_buf_release(&r.out);
		}
		frame(&r, "{\"a\":1}\n{\"b\":2}\n{\"c\"", 100, SS_FRAMING_AUTO,
		      chunks[c], 8, 1, "truncated zstd frame");
		assert_int_equal(r.last, SS_FILL_ERROR);
		assert_string_equal(r.out.data, "1:{\"a\":1}\n2:{\"b\":2}\n");
		assert_string_equal(r.err, "truncated zstd frame");
		ss_buf_release(&r.out);

		frame(&r, "data: {\"a\":1}\n\ndata: [DONE]\n\ndata: {\"b\":1}\n\n",
		      100, SS_FRAMING_AUTO, chunks[c], 0, 1 << 20, "boom");
		assert_int_equal(r.last, SS_FILL_ERROR);
		assert_string_equal(r.out.data, "1:{\"a\":1}\n");
		assert_string_equal(r.err, "boom");
		ss_buf_release(&r.out);
	}
}

/* A batch fills to its target and stops at a unit boundary. */
static void test_targets(void **state)
{
	struct ss_framer *f = ss_framer_new(100, SS_FRAMING_AUTO);
	const char *text = "aaaa\nbbbb\ncccc\n";
	struct ss_stream *s = ss_source_mem_new(text, strlen(text), 0, NULL);
	struct ss_batch b;

	(void)state;
	ss_batch_init(&b);
	ss_framer_start(f, s);
	assert_int_equal(ss_framer_fill(f, &b, 6), SS_FILL_MORE);
	assert_int_equal(b.nunits, 2);   /* 4 < 6, 8 >= 6 */
	assert_int_equal(b.len, 8);
	ss_batch_reset(&b);
	assert_int_equal(ss_framer_fill(f, &b, 6), SS_FILL_END);
	assert_int_equal(b.nunits, 1);
	assert_int_equal(b.units[0].line, 3);
	assert_memory_equal(b.buf + b.part_off[0], "cccc", 4);
	ss_stream_free(s);

	/* the framer is reused for a second stream */
	text = "data: q\n";
	s = ss_source_mem_new(text, strlen(text), 0, NULL);
	ss_batch_reset(&b);
	ss_framer_start(f, s);
	assert_int_equal(ss_framer_fill(f, &b, 6), SS_FILL_END);
	assert_true(ss_framer_is_sse(f));
	assert_int_equal(b.nunits, 1);
	assert_true(b.units[0].sse);
	assert_int_equal(b.units[0].nparts, 1);
	ss_stream_free(s);
	ss_batch_release(&b);
	ss_framer_free(f);
}

/* Every allocation may fail: the framer reports it and leaks nothing. */
static void test_out_of_memory(void **state)
{
	static const char *const texts[] = {
		"{\"a\":1}\n{\"b\":2}\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n{\"c\":3}\n",
		"data: {\"a\":1}\n\ndata: {\"b\":1}\n\ndata: [DONE]\n\ndata: 2\n",
	};
	size_t t;

	(void)state;
	for (t = 0; t < 2; t++) {
		uint64_t n;

		for (n = 1; n < 200; n++) {
			struct ss_framer *f;
			struct ss_stream *s;
			struct ss_batch b;
			enum ss_fill k = SS_FILL_MORE;
			bool failed = false;

			ss_alloc_fail_at(n, 1);
			f = ss_framer_new(20, SS_FRAMING_AUTO);
			s = ss_source_mem_new(texts[t], strlen(texts[t]), 3, NULL);
			ss_batch_init(&b);
			if (f && s) {
				ss_framer_set_window(f, 8);
				ss_framer_start(f, s);
				while (k == SS_FILL_MORE) {
					k = ss_framer_fill(f, &b, 1);
					ss_batch_reset(&b);
				}
				failed = k == SS_FILL_NOMEM;
			} else {
				failed = true;
			}
			ss_alloc_fail_at(0, 0);
			ss_batch_release(&b);
			ss_framer_free(f);
			ss_stream_free(s);
			if (!failed)
				break;
		}
		assert_true(n < 200);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jsonl_crlf_blank_no_final_newline),
		cmocka_unit_test(test_jsonl_oversize),
		cmocka_unit_test(test_full_batches),
		cmocka_unit_test(test_bom),
		cmocka_unit_test(test_sse_fields_and_streams),
		cmocka_unit_test(test_sse_oversize),
		cmocka_unit_test(test_error_keeps_good_requests),
		cmocka_unit_test(test_targets),
		cmocka_unit_test(test_out_of_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
