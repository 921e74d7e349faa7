#include "server/feed.h"

#include <stdio.h>
#include <string.h>

#include "io/sniff.h"
#include "json/json.h"
#include "util/alloc.h"

void ss_server_feed_init(struct ss_server_feed *f, struct ss_server *srv, enum ss_server_feed_mode mode,
			 bool shard, size_t max_record)
{
	memset(f, 0, sizeof(*f));
	f->srv = srv;
	f->mode = srv ? mode : SS_SERVER_FEED_OFF;
	f->shard = shard;
	f->max_record = max_record;
}

void ss_server_feed_by_dir(struct ss_server_feed *f, struct ss_server_bydir *d)
{
	f->bydir = d;
}

void ss_server_feed_release(struct ss_server_feed *f)
{
	ss_scrape_free(f->sc);
	ss_scrape_free(f->gsc);
	f->sc = f->gsc = NULL;
	ssj_parser_free(f->json);
	f->json = NULL;
}

/*
 * The directory's state of input `name` (SPEC 10.7), NULL without
 * --group-by dir or past the bound; *ok false when out of memory.
 */
static struct ss_server *dir_server(struct ss_server_feed *f, const char *name, bool *ok)
{
	bool nomem = false;
	struct ss_server *g;

	*ok = true;
	if (!f->bydir)
		return NULL;
	g = ss_server_bydir_of(f->bydir, name, &nomem);
	if (nomem)
		*ok = false;
	else if (!g && f->srv)
		ss_server_bound(f->srv, NULL, 0, "more directories than --group-by dir keeps "
				"(1000): the server inputs of the others are pooled only");
	return g;
}

bool ss_server_feed_input(struct ss_server_feed *f, const char *name, struct ss_stream *st,
			  struct ss_msg *msg, enum ss_server_feed_kind *kind)
{
	bool scrape = false, log = false;

	*kind = SS_SERVER_FEED_REQUESTS;
	/* the document's name rule holds whatever --input-kind says (10.5) */
	if (f->srv && ss_server_json_is_document_name(name, strlen(name)))
		*kind = SS_SERVER_FEED_DOCUMENT;
	else if (f->mode == SS_SERVER_FEED_FORCED)
		*kind = SS_SERVER_FEED_SCRAPE;
	else if (f->mode == SS_SERVER_FEED_LOGS)
		*kind = SS_SERVER_FEED_LOG;
	else if (f->mode == SS_SERVER_FEED_DETECT) {
		/* SPEC 12.1, 13: log detection comes before the Prometheus one */
		if (!ss_sniff_log(st, &log) || (!log && !ss_sniff_scrape(st, &scrape))) {
			ss_msg_error(msg, "out of memory");
			return false;
		}
		if (log)
			*kind = SS_SERVER_FEED_LOG;
		else if (scrape)
			*kind = SS_SERVER_FEED_SCRAPE;
	}
	/* a log is split into shards like requests (SPEC 12.6): whole inputs */
	if (*kind != SS_SERVER_FEED_REQUESTS && *kind != SS_SERVER_FEED_LOG && f->shard) {
		ss_msg_warn(msg, "%s: a server input, left out under --shard "
			    "(give it to the merge run)", name);
		*kind = SS_SERVER_FEED_LEFT_OUT;
	}
	return true;
}

/* The document, whole, up to the limit (SPEC 10.1). */
static bool read_document(const struct ss_server_feed *f, struct ss_stream *st,
			  struct ss_batch *b, size_t step, uint64_t *got, bool *failed,
			  char **why, struct ss_msg *msg)
{
	for (;;) {
		size_t n = 0, want = f->max_record + 1 - b->len;
		enum ss_io io;

		if (want > step)
			want = step;
		if (!ss_batch_reserve(b, want)) {
			ss_msg_error(msg, "out of memory");
			return false;
		}
		io = ss_stream_read(st, b->buf + b->len, want, &n);
		b->len += n;
		*got += n;
		if (b->len > f->max_record) {
			char text[160];

			snprintf(text, sizeof(text), "larger than --max-record-size (%zu bytes), "
				 "the most an AIPerf server_metrics_export.json is read", f->max_record);
			*why = ss_strdup(text);
			io = SS_IO_ERROR;
		} else if (io == SS_IO_ERROR) {
			*why = ss_strdup(ss_stream_error(st));
		}
		if (io == SS_IO_OK)
			continue;
		if (io == SS_IO_ERROR) {
			*failed = true;
			b->len = 0;   /* nothing of it is read */
		}
		return true;
	}
}

bool ss_server_feed_read(const struct ss_server_feed *f, enum ss_server_feed_kind kind,
			 struct ss_stream *st, struct ss_batch *b, size_t target, uint64_t *got,
			 bool *last, bool *failed, char **why, struct ss_msg *msg)
{
	*got = 0;
	*why = NULL;
	*last = *failed = false;
	if (kind == SS_SERVER_FEED_DOCUMENT) {
		*last = true;
		return read_document(f, st, b, target, got, failed, why, msg);
	}
	while (b->len < target) {
		size_t n = 0;
		enum ss_io io;

		if (!ss_batch_reserve(b, target - b->len)) {
			ss_msg_error(msg, "out of memory");
			return false;
		}
		io = ss_stream_read(st, b->buf + b->len, target - b->len, &n);
		b->len += n;
		*got += n;
		if (io == SS_IO_OK)
			continue;
		if (io == SS_IO_ERROR) {
			*failed = true;
			*why = ss_strdup(ss_stream_error(st));
		}
		*last = true;
		break;
	}
	return true;
}

/* The length of the directory part of an input's name ("" without one). */
static size_t dir_len(const char *name)
{
	const char *slash = strrchr(name, '/');

	return slash ? (size_t)(slash - name) : 0;
}

/* Exposition text into the input's reader (made at its first bytes). */
static bool feed_scrape(struct ss_server_feed *f, const char *name, bool first, bool last,
			const char *bytes, size_t len, bool *counted, uint64_t *n)
{
	struct ss_scrape_stats st;

	if (first) {
		uint32_t ep = ss_server_endpoint(f->srv, "", 0);
		bool ok;
		struct ss_server *g = dir_server(f, name, &ok);

		ss_scrape_free(f->sc);
		ss_scrape_free(f->gsc);
		f->gsc = NULL;
		f->sc = ep == UINT32_MAX ? NULL : ss_scrape_new(f->srv, ep, name, NULL);
		if (!ok)
			return false;
		if (g) {
			ep = ss_server_endpoint(g, "", 0);
			f->gsc = ep == UINT32_MAX ? NULL : ss_scrape_new(g, ep, name, NULL);
			if (!f->gsc)
				return false;
		}
	}
	if (!f->sc || !ss_scrape_feed(f->sc, bytes, len) ||
	    (f->gsc && !ss_scrape_feed(f->gsc, bytes, len)))
		return false;
	if (!last)
		return true;
	if (!ss_scrape_finish(f->sc) || (f->gsc && !ss_scrape_finish(f->gsc)))
		return false;
	ss_scrape_free(f->gsc);
	f->gsc = NULL;
	ss_scrape_get_stats(f->sc, &st);
	ss_scrape_free(f->sc);
	f->sc = NULL;
	*counted = true;
	*n = st.snapshots;
	return true;
}

/*
 * A batch's server lines, in input order: each its input's snapshots (so
 * an input of requests too is `mixed`). Under --shard they are dropped,
 * with one note per input (10.5).
 */
static bool feed_lines(struct ss_server_feed *f, const char *name, bool first,
		       const char *base, const struct ss_server_feed_line *lines, size_t nlines,
		       struct ss_msg *msg, bool *counted, uint64_t *n)
{
	if (first)
		f->noted = false;
	if (nlines && f->shard) {
		if (!f->noted)
			ss_msg_warn(msg, "%s:%llu: a server line, left out under --shard with the "
				    "input's others (give the input to the merge run)", name,
				    (unsigned long long)lines[0].line);
		f->noted = true;
		return true;
	}
	struct ss_server *g = NULL;
	bool ok = true;

	if (nlines)
		g = dir_server(f, name, &ok);
	if (!ok)
		return false;
	for (size_t i = 0; i < nlines; i++) {
		const struct ss_server_feed_line *l = &lines[i];
		uint64_t got = 0;

		/* one parse of the line feeds both states */
		if (!f->json && !(f->json = ssj_parser_new()))
			return false;
		if (!ss_server_json_line_pair(f->json, f->srv, g, l->shape, name, dir_len(name),
					      name, l->line, base + l->off, l->len, &got))
			return false;
		*n += got;
	}
	*counted = nlines > 0;
	return true;
}

bool ss_server_feed_batch(struct ss_server_feed *f, const char *name, bool first,
			  enum ss_server_feed_kind kind, bool last, bool failed, const char *bytes,
			  size_t len, const struct ss_server_feed_line *lines, size_t nlines,
			  struct ss_msg *msg, bool *counted, uint64_t *n)
{
	*counted = false;
	*n = 0;
	if (kind == SS_SERVER_FEED_SCRAPE)
		return feed_scrape(f, name, first, last, bytes, len, counted, n);
	if (kind == SS_SERVER_FEED_DOCUMENT) {
		if (failed)
			return true;   /* said, with the limit, by the run */
		struct ss_server *g;
		bool ok;
		uint64_t gn = 0;

		*counted = true;
		g = dir_server(f, name, &ok);
		return ok && ss_server_json_document(f->srv, name, dir_len(name), name, bytes, len, n) &&
		       (!g || ss_server_json_document(g, name, dir_len(name), name, bytes, len, &gn));
	}
	return feed_lines(f, name, first, bytes, lines, nlines, msg, counted, n);
}

bool ss_server_feed_log(struct ss_server_feed *f, const char *name, bool first, bool last,
			const char *bytes, size_t len, const struct ss_server_log_sink *sink,
			bool *counted, struct ss_server_log_counts *counts)
{
	*counted = false;
	if (first && !ss_server_log_begin(f->srv, name, f->max_record))
		return false;
	if (!ss_server_log_feed(f->srv, bytes, len, last, sink, counts))
		return false;
	*counted = last;
	return true;
}
