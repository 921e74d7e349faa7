/*
 * fuzz_sse.c - libFuzzer target: the framer over a memory stream, in SSE,
 * JSONL and automatic mode, each framed request then through ss_process.
 *
 * The first four bytes choose the read size, the framing mode (SSE, JSONL
 * or automatic), whether the stream fails at its end, the window, the
 * record limit and the batch target; the rest is the stream. A run frames
 * the stream once as cut (the costly framing: tiny reads and windows) and
 * once whole, so a run stays fast. Oracles beyond "no crash":
 *  - every part lies inside its batch with SSJ_PADDING bytes after it, is
 *    no longer than the record limit and holds no newline; an oversize
 *    unit has no part, any other unit at least one (a JSONL unit exactly
 *    one), and line numbers increase strictly and stay within the input;
 *  - the units do not depend on how the stream was cut: reading it whole
 *    in one read gives the same units;
 *  - a stream that fails at its end gives a prefix of those units;
 *  - an oversize unit gets the status `oversize`, and every outcome
 *    carries the unit's line and a valid status.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/request.h"
#include "io/framer.h"
#include "io/source.h"
#include "json/json.h"
#include "util/buf.h"

static struct ss_processor *proc;
static struct ss_buf ref, got;

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

struct cut {
	size_t chunk, window, max_record, target;
	const char *fail;
};

/* Check one batch, append its units to `dump`, process them when asked. */
static void take(const struct ss_batch *b, const struct cut *c, enum ss_framing mode,
		 uint64_t *last_line, uint64_t nlines, struct ss_buf *dump, bool process)
{
	const char *parts[64];
	size_t lens[64];

	for (size_t u = 0; u < b->nunits; u++) {
		const struct ss_unit *un = &b->units[u];
		struct ss_request_text req;
		struct ss_outcome out;

		CHECK(un->line > *last_line && un->line <= nlines);
		*last_line = un->line;
		CHECK(un->first_part + un->nparts <= b->nparts);
		if (un->oversize)
			CHECK(un->nparts == 0);
		else if (!un->sse)
			CHECK(un->nparts == 1);
		else
			CHECK(un->nparts >= 1);
		if (mode == SS_FRAMING_JSONL)
			CHECK(!un->sse);
		if (mode == SS_FRAMING_SSE)
			CHECK(un->sse);
		ss_buf_addf(dump, "%llu%c%s:", (unsigned long long)un->line,
			    un->sse ? 's' : 'j', un->oversize ? "OVER" : "");
		for (size_t i = 0; i < un->nparts; i++) {
			size_t off = b->part_off[un->first_part + i];
			size_t len = b->part_len[un->first_part + i];

			CHECK(off <= b->len && len <= b->len - off);
			CHECK(off + len + SSJ_PADDING <= b->cap);
			CHECK(len <= c->max_record);
			CHECK(memchr(b->buf + off, '\n', len) == NULL || un->sse);
			ss_buf_addf(dump, "%zu|", len);
			ss_buf_add(dump, b->buf + off, len);
			ss_buf_addc(dump, '|');
		}
		ss_buf_addc(dump, '\n');
		if (!process)
			continue;
		memset(&req, 0, sizeof(req));
		if (un->nparts > 64)
			continue;
		for (size_t i = 0; i < un->nparts; i++) {
			parts[i] = b->buf + b->part_off[un->first_part + i];
			lens[i] = b->part_len[un->first_part + i];
		}
		req.parts = parts;
		req.lens = lens;
		req.nparts = un->nparts;
		req.sse = un->sse;
		req.oversize = un->oversize;
		req.line = un->line;
		req.input_name = "fuzz";
		if (!ss_process(proc, &req, &out))
			continue;
		CHECK((unsigned)out.status < SS_ST_COUNT);
		CHECK(out.line == un->line);
		CHECK(!un->oversize || out.status == SS_ST_OVERSIZE);
	}
}

/* Frame `text` as `c` says; the last fill's result. */
static enum ss_fill frame(const uint8_t *text, size_t n, uint64_t nlines,
			  enum ss_framing mode, const struct cut *c, struct ss_buf *dump,
			  bool process)
{
	struct ss_framer *f = ss_framer_new(c->max_record, mode);
	struct ss_stream *s = ss_source_mem_new(text, n, c->chunk, c->fail);
	struct ss_batch b;
	enum ss_fill r = SS_FILL_NOMEM;
	uint64_t last = 0;

	ss_buf_reset(dump);
	ss_batch_init(&b);
	if (!f || !s)
		goto out;
	if (c->window)
		ss_framer_set_window(f, c->window);
	ss_framer_start(f, s);
	for (int rounds = 0; rounds < 1000000; rounds++) {
		ss_batch_reset(&b);
		r = ss_framer_fill(f, &b, c->target);
		if (r == SS_FILL_NOMEM)
			break;
		take(&b, c, mode, &last, nlines, dump, process);
		if (r != SS_FILL_MORE)
			break;
	}
	CHECK(r != SS_FILL_MORE);
	/* After the end, the framer stays ended. */
	ss_batch_reset(&b);
	CHECK(ss_framer_fill(f, &b, c->target) == r && b.nunits == 0);
out:
	ss_batch_release(&b);
	ss_framer_free(f);
	ss_stream_free(s);
	return r;
}

/*
 * Lines in the stream (the last may lack its newline): counted with
 * memchr, as a byte loop here would be instrumented byte by byte.
 */
static uint64_t count_lines(const uint8_t *p, size_t n)
{
	const uint8_t *end = p + n;
	uint64_t lines = 1;

	while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		lines++;
		p++;
	}
	return lines;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum ss_framing modes[] = {SS_FRAMING_SSE, SS_FRAMING_JSONL,
						SS_FRAMING_AUTO};
	struct cut c, whole;
	enum ss_fill a, b;
	uint64_t nlines;
	size_t m;

	if (!proc) {
		struct ss_process_opts o = {SS_KIND_UNKNOWN, SS_ENGINE_NONE, false, false, false, false, false, NULL, 0};

		proc = ss_processor_new(&o);
		if (!proc)
			abort();
	}
	if (size < 4)
		return 0;
	c.chunk = data[0] % 64;                  /* 0: as much as asked */
	m = (size_t)(data[0] >> 6) % 3;          /* the framing mode */
	c.window = 2 + data[1] % 32;
	/*
	 * One stream in two fails at its end: framing it cut a second time
	 * to check the failure would double the cost of every run.
	 */
	c.fail = data[1] & 0x80 ? "injected failure" : NULL;
	c.max_record = data[2] < 128 ? (size_t)data[2] + 1 : (size_t)256 << 20;
	c.target = 1 + (size_t)data[3] * 4;
	whole = c;
	whole.chunk = 0;
	whole.window = size + 2;          /* the whole stream in one read */
	whole.target = (size_t)1 << 30;
	whole.fail = NULL;
	data += 4;
	size -= 4;
	nlines = count_lines(data, size);
	a = frame(data, size, nlines, modes[m], &c, &got, true);
	b = frame(data, size, nlines, modes[m], &whole, &ref, false);
	if (a == SS_FILL_NOMEM || b == SS_FILL_NOMEM)
		return 0;
	CHECK(b == SS_FILL_END);
	if (getenv("FUZZ_SSE_DEBUG"))
		fprintf(stderr, "mode %d%s\n--- cut:\n%.*s--- whole:\n%.*s", (int)modes[m],
			c.fail ? " (failing)" : "", (int)got.len, got.len ? got.data : "",
			(int)ref.len, ref.len ? ref.data : "");
	if (c.fail) {
		/* The units before the failure: a prefix of the whole stream's. */
		CHECK(a == SS_FILL_ERROR);
		CHECK(got.len <= ref.len && (!got.len || memcmp(got.data, ref.data, got.len) == 0));
	} else {
		CHECK(a == SS_FILL_END);
		CHECK(got.len == ref.len && (!got.len || memcmp(got.data, ref.data, got.len) == 0));
	}
	return 0;
}
