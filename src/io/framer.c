/*
 * framer.c - JSONL lines and SSE capture streams into batches (SPEC 1.2).
 *
 * The stream is read into a window of a few MiB; complete lines are found
 * with memchr and copied once, into the batch. A line cut by the window's
 * end is moved to its front and more is read; the window grows only while
 * such a line still fits the record limit, so memory stays within
 * max_record plus one window. A line over the limit becomes an oversize
 * unit at once and its remaining bytes are dropped as they arrive.
 *
 * Once a stream is known to be JSONL (after the first fill, or at once when
 * the framing is forced), it is read straight into the batch and its lines
 * are framed where they lie, without the copy: only the partial line after
 * a batch's last line is copied, through the window, to the next batch
 * (fill_direct). Memory then stays within the batch target plus one line.
 * Both fills frame with the same line loop (frame_lines, partial_line,
 * last_line); they differ only in where the bytes are read to.
 *
 * SSE: the data of an event is written straight into the batch (lines
 * joined with '\n'); the event becomes a part of the current stream's unit
 * when a blank line ends it, unless it is `[DONE]` (the stream ends) or
 * empty (skipped). A stream's size (SPEC 1.2) is the bytes of its events'
 * field lines with their line ends and the blank line closing each event,
 * from its first event with data through its `[DONE]` event; keep-alive
 * events (no data) and comment lines are not counted. Past max_record its
 * text is dropped and it ends as one oversize unit (its text, always
 * smaller than its size, is dropped as soon as it alone passes). A
 * `[DONE]` without any event before it makes no request. A fill returns
 * only between streams, so a unit's parts never span two batches.
 */
#include "io/framer.h"

#include <stdint.h>
#include <string.h>

#include "io/source.h"
#include "util/alloc.h"

#define WINDOW_SIZE ((size_t)4 << 20)
/* Reads straight into a batch: the step once its target is met, or while a
 * long line goes on (the reads before it aim at the target). */
#define DIRECT_STEP ((size_t)64 << 10)
/* A partial line is judged over the limit only with this many bytes. */
#define LONG_PREFIX 8

struct ss_framer {
	size_t max_record;
	enum ss_framing mode;      /* as asked */
	enum ss_framing used;      /* AUTO until the first non-blank line */
	struct ss_stream *s;
	char *win;
	size_t cap, cap_max, pos, end;
	size_t window;             /* initial window size */
	uint64_t line;             /* physical lines completed */
	const volatile sig_atomic_t *stop;
	bool bom_done;             /* the start was checked for a BOM */
	bool skipping;             /* inside an oversize line */
	bool eof, over;            /* over: END or ERROR was returned */
	enum ss_fill final;
	const char *direct;        /* the batch's text during fill_direct */
	bool capped;               /* the last fill ended at SS_BATCH_MAX_UNITS */
	bool held;                 /* the stream may read back the batch's bytes */
	bool held_before;          /* ... those of the batch handed on last */

	/* SSE: the event being read */
	bool ev_active;            /* a field line of the event was seen */
	uint64_t ev_line;
	size_t ev_off, ev_len;     /* its text in the batch (unless st_over) */
	size_t ev_ndata;
	bool ev_first_done;        /* its first data line is `[DONE]` */
	size_t ev_bytes;           /* its field lines' bytes, line ends included */
	bool ev_huge;              /* one of its lines was over the limit */
	size_t line_bytes;         /* the current line's bytes with its line end */
	/* SSE: the stream (request) being read */
	bool st_active, st_over, st_unit;
	uint64_t st_line;
	size_t st_off;
	size_t st_bytes;           /* its size so far (SPEC 1.2) */
	/* the batch as it was after the last complete unit */
	size_t c_len, c_units, c_parts;
};

struct ss_framer *ss_framer_new(size_t max_record, enum ss_framing mode)
{
	struct ss_framer *f = ss_calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->max_record = max_record;
	f->mode = mode;
	f->window = WINDOW_SIZE;
	return f;
}

void ss_framer_set_window(struct ss_framer *f, size_t size)
{
	f->window = size < 2 ? 2 : size;
	ss_free(f->win);
	f->win = NULL;
	f->cap = 0;
}

void ss_framer_set_stop(struct ss_framer *f, const volatile sig_atomic_t *stop)
{
	f->stop = stop;
}

void ss_framer_free(struct ss_framer *f)
{
	if (!f)
		return;
	ss_free(f->win);
	ss_free(f);
}

void ss_framer_start(struct ss_framer *f, struct ss_stream *s)
{
	size_t keep_cap = f->cap;
	char *keep_win = f->win;
	size_t max_record = f->max_record, window = f->window;
	enum ss_framing mode = f->mode;
	const volatile sig_atomic_t *stop = f->stop;

	/* A window grown for one huge line is not kept for the next input. */
	if (keep_cap > 2 * window) {
		ss_free(keep_win);
		keep_win = NULL;
		keep_cap = 0;
	}
	memset(f, 0, sizeof(*f));
	f->stop = stop;
	f->win = keep_win;
	f->cap = keep_cap;
	f->max_record = max_record;
	f->window = window;
	f->mode = mode;
	f->used = mode;
	f->s = s;
	f->cap_max = max_record > SIZE_MAX - 2 ? SIZE_MAX : max_record + 2;
	if (f->cap_max < window)
		f->cap_max = window;
	if (f->cap_max < 2 * LONG_PREFIX)
		f->cap_max = 2 * LONG_PREFIX;   /* a full window is a long line */
}

bool ss_framer_is_sse(const struct ss_framer *f)
{
	return f->used == SS_FRAMING_SSE;
}

static inline bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static bool blank(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!is_ws(p[i]))
			return false;
	return true;
}

static bool starts(const char *p, size_t len, const char *pre, size_t n)
{
	return len >= n && memcmp(p, pre, n) == 0;
}

static bool sse_start(const char *p, size_t len)
{
	return starts(p, len, "data:", 5) || starts(p, len, "event:", 6) ||
	       starts(p, len, "id:", 3) || starts(p, len, ":", 1);
}

static void commit(struct ss_framer *f, const struct ss_batch *b)
{
	f->c_len = b->len;
	f->c_units = b->nunits;
	f->c_parts = b->nparts;
}

/* ---- JSONL ---- */

static bool jsonl_line(struct ss_framer *f, struct ss_batch *b, const char *p,
		       size_t len)
{
	if (len == 0 || (is_ws(p[0]) && blank(p, len)))
		return true;
	if (len > f->max_record)
		return ss_batch_add_unit(b, f->line, false, true) != NULL;
	if (f->direct)   /* the line already lies in the batch */
		return ss_batch_add_unit(b, f->line, false, false) &&
		       ss_batch_add_part(b, (size_t)(p - f->direct), len);
	if (!ss_batch_reserve(b, len))
		return false;
	memcpy(b->buf + b->len, p, len);
	if (!ss_batch_add_unit(b, f->line, false, false) ||
	    !ss_batch_add_part(b, b->len, len))
		return false;
	b->len += len;
	return true;
}

/* ---- SSE ---- */

/* Drop the current stream's text and parts: it became oversize. */
static void sse_overflow(struct ss_framer *f, struct ss_batch *b)
{
	if (!f->st_active) {
		f->st_active = true;
		f->st_line = f->ev_line;
		f->st_off = f->ev_off;
	}
	if (f->st_unit) {
		b->nparts = b->units[b->nunits - 1].first_part;
		b->nunits--;
		f->st_unit = false;
	}
	b->len = f->st_off;
	f->st_over = true;
}

static bool sse_end_stream(struct ss_framer *f, struct ss_batch *b)
{
	if (!f->st_active)
		return true;
	if (f->st_over && !ss_batch_add_unit(b, f->st_line, true, true))
		return false;
	f->st_active = f->st_over = f->st_unit = false;
	f->st_bytes = 0;
	commit(f, b);
	return true;
}

static size_t add_sat(size_t a, size_t b)
{
	return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

static bool sse_end_event(struct ss_framer *f, struct ss_batch *b)
{
	bool done = f->ev_ndata == 1 && f->ev_first_done;
	bool counts = done ? f->st_active : f->ev_ndata > 0 && (f->ev_len > 0 || f->st_over);
	bool ok = true;

	/* The event belongs to the stream: its size counts (SPEC 1.2). */
	if (counts) {
		f->st_bytes = add_sat(f->st_bytes, f->ev_bytes);
		if ((f->ev_huge || f->st_bytes > f->max_record) && !f->st_over)
			sse_overflow(f, b);
	}
	if (done) {
		if (!f->st_over)
			b->len = f->ev_off;
		ok = sse_end_stream(f, b);
	} else if (f->ev_ndata > 0 && (f->ev_len > 0 || f->st_over)) {
		if (!f->st_active) {
			f->st_active = true;
			f->st_line = f->ev_line;
			f->st_off = f->ev_off;
		}
		if (!f->st_over) {
			if (!f->st_unit) {
				ok = ss_batch_add_unit(b, f->st_line, true, false) != NULL;
				f->st_unit = ok;
			}
			ok = ok && ss_batch_add_part(b, f->ev_off, f->ev_len);
		}
	} else if (!f->st_over) {
		b->len = f->ev_off;   /* empty data: nothing */
	}
	f->ev_active = false;
	f->ev_ndata = 0;
	f->ev_len = 0;
	f->ev_first_done = false;
	f->ev_bytes = 0;
	f->ev_huge = false;
	return ok;
}

static void sse_field(struct ss_framer *f, const struct ss_batch *b)
{
	if (!f->ev_active) {
		f->ev_active = true;
		f->ev_line = f->line;
		f->ev_off = b->len;
	}
}

static bool sse_data(struct ss_framer *f, struct ss_batch *b, const char *v,
		     size_t vlen)
{
	size_t add = vlen + (f->ev_ndata > 0), used;

	sse_field(f, b);
	if (f->ev_ndata++ == 0)
		f->ev_first_done = vlen == 6 && memcmp(v, "[DONE]", 6) == 0;
	if (f->st_over)
		return true;
	used = b->len - (f->st_active ? f->st_off : f->ev_off);
	if (add > f->max_record || used > f->max_record - add) {
		sse_overflow(f, b);
		return true;
	}
	if (!ss_batch_reserve(b, add))
		return false;
	if (f->ev_ndata > 1)
		b->buf[b->len++] = '\n';
	memcpy(b->buf + b->len, v, vlen);
	b->len += vlen;
	f->ev_len += add;
	return true;
}

static bool sse_line(struct ss_framer *f, struct ss_batch *b, const char *p,
		     size_t len)
{
	if (len == 0 || (is_ws(p[0]) && blank(p, len))) {
		if (!f->ev_active)
			return true;
		f->ev_bytes = add_sat(f->ev_bytes, f->line_bytes);
		return sse_end_event(f, b);
	}
	if (p[0] == ':')
		return true;
	f->ev_bytes = add_sat(f->ev_bytes, f->line_bytes);
	if (starts(p, len, "data:", 5) || (len == 4 && memcmp(p, "data", 4) == 0)) {
		const char *v = p + (len > 4 ? 5 : 4);
		size_t vlen = len - (size_t)(v - p);

		if (vlen && *v == ' ') {
			v++;
			vlen--;
		}
		while (vlen && is_ws(v[vlen - 1]))
			vlen--;
		return sse_data(f, b, v, vlen);
	}
	sse_field(f, b);   /* event:, id:, retry: and unknown fields */
	return true;
}

/*
 * A line over the limit, seen whole or only its first bytes: a comment is
 * skipped, any other line is a field of the event (a long white-space line
 * too: it cannot be known blank before its end), and a data line makes
 * the stream oversize.
 */
static void sse_long_line(struct ss_framer *f, struct ss_batch *b, const char *p,
			  size_t len)
{
	if (p[0] == ':')
		return;
	sse_field(f, b);
	f->ev_huge = true;   /* its event's size is over the limit */
	if (!starts(p, len, "data", 4) || (len > 4 && p[4] != ':'))
		return;
	if (f->ev_ndata++ == 0)
		f->ev_first_done = false;
	if (!f->st_over)
		sse_overflow(f, b);
}

/* ---- driver ---- */

static void decide(struct ss_framer *f, const char *p, size_t len)
{
	f->used = sse_start(p, len) ? SS_FRAMING_SSE : SS_FRAMING_JSONL;
}

/*
 * A line longer than the limit (len > max_record, numbered f->line), whole
 * or its first bytes (at least LONG_PREFIX). It is handled the same either
 * way, so the units never depend on where reads cut the stream: in JSONL
 * it is an oversize request even when blank, in SSE see sse_long_line.
 */
static bool over_limit(struct ss_framer *f, struct ss_batch *b, const char *p,
		       size_t len)
{
	if (f->used == SS_FRAMING_AUTO)
		decide(f, p, len);
	if (f->used == SS_FRAMING_JSONL) {
		if (!ss_batch_add_unit(b, f->line, false, true))
			return false;
		commit(f, b);
		return true;
	}
	sse_long_line(f, b, p, len);
	return true;
}

/* One complete line (without its LF); false: out of memory. */
static bool one_line(struct ss_framer *f, struct ss_batch *b, const char *p,
		     size_t len)
{
	if (len && p[len - 1] == '\r')
		len--;
	if (len > f->max_record)
		return over_limit(f, b, p, len);
	if (f->used == SS_FRAMING_AUTO) {
		if (len == 0 || (is_ws(p[0]) && blank(p, len)))
			return true;
		decide(f, p, len);
	}
	if (f->used == SS_FRAMING_JSONL)
		return jsonl_line(f, b, p, len);
	return sse_line(f, b, p, len);
}

/* The current partial line (line f->line + 1) is over the limit. */
static bool long_line(struct ss_framer *f, struct ss_batch *b, const char *p,
		      size_t len)
{
	bool ok;

	f->line++;   /* number it as its own line while handling it */
	ok = over_limit(f, b, p, len);
	f->line--;
	f->skipping = true;
	return ok;
}

static bool boundary(const struct ss_framer *f)
{
	return f->used != SS_FRAMING_SSE || (!f->st_active && !f->ev_active);
}

/*
 * A UTF-8 byte-order mark before the first line (editors on Windows write
 * one) is not part of it: skipped, so the line still parses and an SSE
 * capture is still recognised. buf[*pos, end) is what has been read.
 */
static void skip_bom(struct ss_framer *f, const char *buf, size_t *pos, size_t end)
{
	size_t avail = end - *pos, k = avail < 3 ? avail : 3;

	if (memcmp(buf + *pos, "\xEF\xBB\xBF", k) != 0) {
		f->bom_done = true;
	} else if (k == 3) {
		*pos += 3;
		f->bom_done = true;
	} else if (f->eof) {
		f->bom_done = true;
	}
}

enum lines { LINES_MORE, LINES_FULL, LINES_NOMEM };

/*
 * The line loop of both fills: frame every complete line of buf[*pos,
 * end). LINES_FULL: it stopped after a line that filled the batch
 * (SS_BATCH_MAX_UNITS requests, or `target` bytes of text copied into it,
 * at the end of an SSE stream). LINES_MORE: no complete line is left.
 */
static enum lines frame_lines(struct ss_framer *f, struct ss_batch *b, char *buf, size_t *pos,
			      size_t end, size_t target)
{
	if (!f->bom_done)
		skip_bom(f, buf, pos, end);
	while (*pos < end) {
		char *p = buf + *pos;
		char *nl = memchr(p, '\n', end - *pos);
		size_t len;

		if (!nl)
			break;
		len = (size_t)(nl - p);
		*pos += len + 1;
		f->line++;
		f->line_bytes = len + 1;
		if (f->skipping) {
			f->skipping = false;
			continue;
		}
		if (!one_line(f, b, p, len))
			return LINES_NOMEM;
		if (f->used != SS_FRAMING_SSE)
			commit(f, b);
		if ((b->nunits >= SS_BATCH_MAX_UNITS || (!f->direct && b->len >= target)) &&
		    boundary(f))
			return LINES_FULL;
	}
	return LINES_MORE;
}

enum partial { PARTIAL_WAIT, PARTIAL_DROP, PARTIAL_NOMEM };

/*
 * The partial line buf[pos, end) after the complete ones. PARTIAL_DROP: its
 * bytes are not needed (the rest of a line being skipped, or a line now
 * over the limit even if a CR ends it, with enough bytes to tell a `data:`
 * or `event:` line); PARTIAL_WAIT: it waits for more bytes.
 */
static enum partial partial_line(struct ss_framer *f, struct ss_batch *b, char *buf,
				 size_t pos, size_t end)
{
	if (f->skipping)
		return PARTIAL_DROP;
	if (end - pos >= LONG_PREFIX && end - pos - 1 > f->max_record)
		return long_line(f, b, buf + pos, end - pos) ? PARTIAL_DROP : PARTIAL_NOMEM;
	return PARTIAL_WAIT;
}

/* End of input: the last line, buf[pos, end), may lack its newline. */
static bool last_line(struct ss_framer *f, struct ss_batch *b, char *buf, size_t pos,
		      size_t end)
{
	if (f->skipping) {
		f->line++;
		f->skipping = false;
		return true;
	}
	if (pos == end)
		return true;
	f->line++;
	f->line_bytes = end - pos;
	return one_line(f, b, buf + pos, end - pos);
}

static enum ss_fill over(struct ss_framer *f, enum ss_fill final)
{
	f->over = true;
	f->final = final;
	return final;
}

/* A failed read: keep the requests before it, not a partial one. */
static enum ss_fill failed(struct ss_framer *f, struct ss_batch *b, size_t len)
{
	b->len = len;
	b->nunits = f->c_units;
	b->nparts = f->c_parts;
	f->direct = NULL;
	return over(f, SS_FILL_ERROR);
}

static enum ss_io read_checked(struct ss_framer *f, char *buf, size_t n, size_t *got,
			       bool inplace)
{
	if (f->stop && *f->stop)
		return ss_stream_fail(f->s, "interrupted");
	return inplace ? ss_stream_read_inplace(f->s, buf, n, got)
		       : ss_stream_read(f->s, buf, n, got);
}

/* Keep the partial line p[0..n) in the window for the next batch. */
static bool keep_tail(struct ss_framer *f, const char *p, size_t n)
{
	if (n > f->cap || !f->win) {
		size_t cap = n > f->window ? n : f->window;
		char *nw = ss_realloc(f->win, cap);

		if (!nw)
			return false;
		f->win = nw;
		f->cap = cap;
	}
	if (n)
		memcpy(f->win, p, n);
	f->pos = 0;
	f->end = n;
	return true;
}

/*
 * ss_framer_fill for a JSONL stream: read into the batch after its text
 * and frame the lines in place. Line numbers, blank and oversize lines
 * are handled as in the window loop; the bytes of a line being skipped
 * are dropped from the batch as they arrive.
 *
 * With a stream that decodes in place (zstd: ss_stream_read_inplace), the
 * bytes are decoded straight into the batch, and the stream may read them
 * back until the framer lets go of them. How the framer keeps its side:
 *  - the batch is given the stream's room before the first read, so that
 *    the stream can start decoding in place there;
 *  - while the stream may hold the batch (f->held: the last read was in
 *    place into it), the batch is neither grown nor rewound: the bytes of
 *    a skipped line stay (not framed) instead of being dropped, and when
 *    the room runs out the stream is released first;
 *  - a batch is handed on still held only when ss_batch_reset keeps its
 *    memory (at most SS_BATCH_KEEP_BYTES): the caller keeps it unchanged
 *    until the next fill has returned (framer.h), and the next fill's
 *    first read, or its end when it made none, lets go of it.
 */
static void let_go(struct ss_framer *f)
{
	if (f->held || f->held_before)
		ss_stream_release(f->s);
	f->held = f->held_before = false;
}

/* The batch begins with the bytes after the last batch's last line. */
static bool direct_begin(struct ss_framer *f, struct ss_batch *b, size_t target, size_t *end)
{
	size_t base = b->len, tail = f->end - f->pos, room, step, want = 1;

	commit(f, b);
	f->held_before = f->held;
	f->held = false;
	if (ss_stream_inplace(f->s, &room, &step))
		want = room > target ? room : target;
	if (!ss_batch_reserve_at(b, base, tail + want))
		return false;
	if (tail)
		memcpy(b->buf + base, f->win + f->pos, tail);
	f->pos = f->end = 0;
	*end = base + tail;
	return true;
}

/*
 * The batch ends after its last line (at pos; `full`: it holds
 * SS_BATCH_MAX_UNITS requests): the bytes after it wait, in the window.
 * After a full batch, reads are kept small so that what waits stays small
 * too.
 */
static enum ss_fill direct_hand_on(struct ss_framer *f, struct ss_batch *b, size_t pos,
				   size_t end, bool full)
{
	f->capped = full;
	f->direct = NULL;
	if (!keep_tail(f, b->buf + pos, end - pos))
		return SS_FILL_NOMEM;
	if (f->held_before || (f->held && b->cap > SS_BATCH_KEEP_BYTES))
		let_go(f);
	b->len = pos;
	return SS_FILL_MORE;
}

/*
 * One read into the batch at `end` (its text began at `base`): in place
 * when the stream can and the room allows, else a copy of the size the
 * batch still wants. false: out of memory.
 */
static bool direct_read(struct ss_framer *f, struct ss_batch *b, size_t base, size_t target,
			size_t end, enum ss_io *r, size_t *got)
{
	size_t room, step, n = b->cap - end - SS_BATCH_PADDING, want = DIRECT_STEP;

	if (ss_stream_inplace(f->s, &room, &step) && !f->capped && n >= step) {
		*r = read_checked(f, b->buf + end, n, got, true);
		f->held = true;   /* (or copied: the stream decides) */
		f->held_before = false;
		return true;
	}
	let_go(f);   /* the batch may move or be rewound */
	if (!f->capped && end - base < target && target - (end - base) > want)
		want = target - (end - base);
	if (want > f->window)
		want = f->window;
	if (!ss_batch_reserve_at(b, end, want))
		return false;
	n = b->cap - end - SS_BATCH_PADDING;
	*r = read_checked(f, b->buf + end, n < want ? n : want, got, false);
	return true;
}

static enum ss_fill fill_direct(struct ss_framer *f, struct ss_batch *b, size_t target)
{
	size_t base = b->len, pos = base, end;

	if (!direct_begin(f, b, target, &end))
		return SS_FILL_NOMEM;
	for (;;) {
		enum lines k;
		enum ss_io r;
		size_t got = 0;

		f->direct = b->buf;
		k = frame_lines(f, b, b->buf, &pos, end, target);
		if (k == LINES_NOMEM)
			goto nomem;
		if (k == LINES_MORE) {
			/* Bytes not framed: dropped, or passed over while the
			 * stream may read them back. */
			switch (partial_line(f, b, b->buf, pos, end)) {
			case PARTIAL_NOMEM:
				goto nomem;
			case PARTIAL_DROP:
				if (f->held)
					pos = end;
				else
					end = pos;
				break;
			case PARTIAL_WAIT:
				break;
			}
			if (f->eof)
				break;
		}
		if (k == LINES_FULL || (end - base >= target && pos > base))
			return direct_hand_on(f, b, pos, end, k == LINES_FULL);
		if (!direct_read(f, b, base, target, end, &r, &got))
			goto nomem;
		if (r == SS_IO_ERROR)
			return failed(f, b, pos);
		if (r == SS_IO_END)
			f->eof = true;
		end += got;
	}
	if (!last_line(f, b, b->buf, pos, end))
		goto nomem;
	b->len = end;
	f->direct = NULL;
	return over(f, SS_FILL_END);
nomem:
	f->direct = NULL;
	return SS_FILL_NOMEM;
}

/*
 * Make room in the window for a read (the partial line moved to its
 * front; the window grown while such a line may still fit the limit) and
 * read. false: out of memory.
 */
static bool window_read(struct ss_framer *f, enum ss_io *r, size_t *got)
{
	if (f->pos > 0) {
		memmove(f->win, f->win + f->pos, f->end - f->pos);
		f->end -= f->pos;
		f->pos = 0;
	}
	if (f->end > f->cap / 2 && f->cap < f->cap_max) {
		size_t ncap = f->cap > f->cap_max / 2 ? f->cap_max : f->cap * 2;
		char *nw = ss_realloc(f->win, ncap);

		if (!nw)
			return false;
		f->win = nw;
		f->cap = ncap;
	}
	*r = read_checked(f, f->win + f->end, f->cap - f->end, got, false);
	return true;
}

/*
 * ss_framer_fill until a stream is known to be JSONL, and for SSE: read
 * into the window, and copy each line's text (or an event's data) into
 * the batch.
 */
static enum ss_fill fill_window(struct ss_framer *f, struct ss_batch *b, size_t target)
{
	commit(f, b);
	if (!f->win) {
		f->cap = f->window;
		f->win = ss_malloc(f->cap);
		if (!f->win) {
			f->cap = 0;
			return SS_FILL_NOMEM;
		}
	}
	for (;;) {
		size_t got = 0;
		enum ss_io r;

		switch (frame_lines(f, b, f->win, &f->pos, f->end, target)) {
		case LINES_NOMEM:
			return SS_FILL_NOMEM;
		case LINES_FULL:
			return SS_FILL_MORE;
		case LINES_MORE:
			break;
		}
		/* A partial line: drop it, or keep it at the window's front. */
		switch (partial_line(f, b, f->win, f->pos, f->end)) {
		case PARTIAL_NOMEM:
			return SS_FILL_NOMEM;
		case PARTIAL_DROP:
			f->pos = f->end;
			break;
		case PARTIAL_WAIT:
			break;
		}
		if (f->eof)
			break;
		if (!window_read(f, &r, &got))
			return SS_FILL_NOMEM;
		if (r == SS_IO_ERROR)
			return failed(f, b, f->c_len);
		if (r == SS_IO_END)
			f->eof = true;
		f->end += got;
	}
	if (!last_line(f, b, f->win, f->pos, f->end))
		return SS_FILL_NOMEM;
	f->pos = f->end;
	if (f->used == SS_FRAMING_SSE) {
		if (f->ev_active && !sse_end_event(f, b))
			return SS_FILL_NOMEM;
		if (!sse_end_stream(f, b))
			return SS_FILL_NOMEM;
	}
	return over(f, SS_FILL_END);
}

enum ss_fill ss_framer_fill(struct ss_framer *f, struct ss_batch *b, size_t target)
{
	if (f->over)
		return f->final;
	if (f->used == SS_FRAMING_JSONL)
		return fill_direct(f, b, target);
	return fill_window(f, b, target);
}
