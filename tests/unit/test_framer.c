/*
 * test_framer.c - SPEC 1.2 framing: JSONL lines and SSE streams. Every
 * case is run with many read sizes and window sizes, so lines and events
 * are cut at every place; the expected units are written by hand as
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
 * Frame `text` with reads of at most `chunk` bytes (0: any), a window of
 * `window` bytes (0: default) and fills of `target` bytes. `fail`: the
 * stream fails with this text at its end.
 */
static enum ss_fill frame(struct run *r, const char *text, size_t max_record,
			  enum ss_framing mode, size_t chunk, size_t window,
			  size_t target, const char *fail)
{
	struct ss_framer *f = ss_framer_new(max_record, mode);
	struct ss_stream *s = ss_source_mem_new(text, strlen(text), chunk, fail);
	struct ss_batch b;
	int rounds = 0;

	assert_non_null(f);
	assert_non_null(s);
	ss_buf_init(&r->out);
	ss_buf_adds(&r->out, "");
	r->err[0] = '\0';
	if (window)
		ss_framer_set_window(f, window);
	ss_framer_start(f, s);
	ss_batch_init(&b);
	for (;;) {
		enum ss_fill k = ss_framer_fill(f, &b, target);

		assert_true(k != SS_FILL_NOMEM);
		dump(&r->out, &b);
		ss_batch_reset(&b);
		r->last = k;
		if (k != SS_FILL_MORE)
			break;
		assert_true(++rounds < 100000);
	}
	/* Once over, it stays over. */
	assert_int_equal(ss_framer_fill(f, &b, target), r->last);
	assert_int_equal(b.nunits, 0);
	r->sse = ss_framer_is_sse(f);
	if (r->last == SS_FILL_ERROR)
		snprintf(r->err, sizeof(r->err), "%s", ss_stream_error(s));
	ss_batch_release(&b);
	ss_framer_free(f);
	ss_stream_free(s);
	assert_false(r->out.failed);
	return r->last;
}

static const size_t chunks[] = {0, 1, 2, 3, 5, 7, 64};
static const size_t windows[] = {0, 2, 3, 8, 13, 4096};
static const size_t targets[] = {1, 20, (size_t)1 << 30};

/* Every read size, window and target gives the same units. */
static void check(const char *text, size_t max_record, enum ss_framing mode,
		  const char *want, bool want_sse)
{
	size_t c, w, t;

	for (c = 0; c < sizeof(chunks) / sizeof(*chunks); c++)
		for (w = 0; w < sizeof(windows) / sizeof(*windows); w++)
			for (t = 0; t < sizeof(targets) / sizeof(*targets); t++) {
				struct run r;

				frame(&r, text, max_record, mode, chunks[c], windows[w],
				      targets[t], NULL);
				if (strcmp(r.out.data, want) != 0)
					fail_msg("chunk %zu window %zu target %zu:\n%s\nwanted:\n%s",
						 chunks[c], windows[w], targets[t],
						 r.out.data, want);
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
		cmocka_unit_test(test_sse_fields_and_streams),
		cmocka_unit_test(test_sse_oversize),
		cmocka_unit_test(test_error_keeps_good_requests),
		cmocka_unit_test(test_targets),
		cmocka_unit_test(test_out_of_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
