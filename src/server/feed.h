/*
 * feed.h - the run's one way into the server stage (SPEC 10.1, 10.5): it
 * asks whether an input or a line is the server's, and hands over bytes.
 *
 * Where a server input is told and how it is read:
 *   - an input named like AIPerf's server_metrics_export.json (whatever
 *     --input-kind says) is read whole, up to --max-record-size;
 *   - an input of Prometheus exposition text (forced by --input-kind
 *     scrape, or its first line says so) is read raw, in pieces;
 *   - a JSONL line of one of 10.1's JSON shapes that no request kind
 *     claims is the server's (ss_server_feed_line_shape(), from any
 *     thread); the run keeps it and hands it over in input order.
 * Under --shard every server input and line is left out, with a note.
 *
 * The feed runs on one thread (the run's reader and collector); it owns
 * the exposition reader of the input being read, nothing else: the struct
 * ss_server it feeds is the caller's.
 */
#ifndef SS_SERVER_FEED_H
#define SS_SERVER_FEED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/batch.h"
#include "io/stream.h"
#include "model/record.h"
#include "server/bydir.h"
#include "server/expo.h"
#include "server/server.h"
#include "server/server_json.h"
#include "server/server_log.h"
#include "util/msg.h"

/* How the server's inputs are told (--input-kind). */
enum ss_server_feed_mode {
	SS_SERVER_FEED_OFF = 0,   /* no server inputs */
	SS_SERVER_FEED_DETECT,    /* told by name and content */
	SS_SERVER_FEED_FORCED,    /* every input is one (the document's name aside) */
	SS_SERVER_FEED_LOGS       /* every input is a server log (--input-kind log) */
};

/* What an input just opened is. */
enum ss_server_feed_kind {
	SS_SERVER_FEED_REQUESTS = 0,  /* not the server's: framed into requests */
	SS_SERVER_FEED_SCRAPE,        /* exposition text, read raw */
	SS_SERVER_FEED_DOCUMENT,      /* AIPerf's JSON document, read whole */
	SS_SERVER_FEED_LEFT_OUT,      /* the server's, left out under --shard */
	SS_SERVER_FEED_LOG            /* a server log (SPEC 12.1), read raw, line by line */
};

/* A line of a JSON server shape found among a batch's requests. */
struct ss_server_feed_line {
	enum ss_server_shape shape;
	size_t off, len;   /* its text in the batch */
	uint64_t line;
};

struct ss_server_feed {
	struct ss_server *srv;   /* NULL: no server state (mode OFF) */
	enum ss_server_feed_mode mode;
	bool shard;              /* server inputs and lines are left out */
	size_t max_record;       /* the document's limit */
	struct ss_scrape *sc;    /* the exposition input being fed */
	bool noted;              /* this input's server lines were said left out */
	/* --group-by dir alone (SPEC 10.7): each input's server part goes to
	 * its directory's state too; NULL: pooled only */
	struct ss_server_bydir *bydir;
	struct ss_scrape *gsc;   /* the directory's reader of the input being fed */
	struct ssj_parser *json; /* the server lines' parser, kept from line to line */
};

void ss_server_feed_init(struct ss_server_feed *f, struct ss_server *srv, enum ss_server_feed_mode mode,
			 bool shard, size_t max_record);
/* Feed each input's server part to its directory's state in `d` as well
 * (SPEC 10.7); `d` outlives the feed. */
void ss_server_feed_by_dir(struct ss_server_feed *f, struct ss_server_bydir *d);
/* Frees the reader of an input stopped in the middle, and the lines' parser. */
void ss_server_feed_release(struct ss_server_feed *f);

/*
 * What the input just opened (name, stream) is; SS_SERVER_FEED_LEFT_OUT comes
 * with its note said. false: out of memory (said).
 */
bool ss_server_feed_input(struct ss_server_feed *f, const char *name, struct ss_stream *st,
			  struct ss_msg *msg, enum ss_server_feed_kind *kind);

/*
 * A server input's next bytes into b (appended): a document whole (more
 * than max_record bytes is a failure naming the limit, and nothing of it
 * is kept), exposition text up to `target` bytes. *last: the input ended
 * or failed; *failed: it failed, *why saying why (allocated, the caller
 * frees; NULL when even that failed). *got: the bytes read. false: out of
 * memory (said).
 */
bool ss_server_feed_read(const struct ss_server_feed *f, enum ss_server_feed_kind kind,
			 struct ss_stream *st, struct ss_batch *b, size_t target, uint64_t *got,
			 bool *last, bool *failed, char **why, struct ss_msg *msg);

/*
 * Whether a line that came to `status` as a request is the server's: its
 * shape, SS_SRVJ_NONE when not (SPEC 10.1, 10.5: only an unrecognized or
 * unparsable line, only while detection is on). doc: the parser the line
 * is still open on as a request (engines' ss_processor_document()), or
 * NULL: the shape is read from that document when it is open, and only
 * a line it does not hold (an array, an unparsable one) is parsed here.
 * Pure: from any thread, doc only visited. Inline: the run asks it of
 * every request.
 */
static inline enum ss_server_shape ss_server_feed_line_shape(enum ss_server_feed_mode mode,
							       enum ss_status status,
							       struct ssj_parser *doc,
							       const char *text, size_t len)
{
	enum ss_server_shape shape;

	/* (an array line is unparsable as a request) */
	if (mode != SS_SERVER_FEED_DETECT ||
	    (status != SS_ST_UNRECOGNIZED && status != SS_ST_UNPARSABLE))
		return SS_SRVJ_NONE;
	if (doc && ss_server_json_shape_open(doc, text, len, &shape))
		return shape;
	return ss_server_json_shape(text, len);
}

/*
 * Hand over, in input order, what one batch of the input `name` held:
 * its raw bytes (kind SCRAPE; `last` ends the input) or the whole document
 * (kind DOCUMENT; `failed` when it could not be read), then its server
 * lines (text their base). `first`: the batch is the input's first.
 * *counted: the batch ended the input's exposition text, read its
 * document or fed server lines, and *n holds the snapshots and increments
 * they gave (the input's server part, even at 0). false: out of memory.
 */
bool ss_server_feed_batch(struct ss_server_feed *f, const char *name, bool first,
			  enum ss_server_feed_kind kind, bool last, bool failed, const char *bytes,
			  size_t len, const struct ss_server_feed_line *lines, size_t nlines,
			  struct ss_msg *msg, bool *counted, uint64_t *n);

/*
 * A log input's next bytes (kind SS_SERVER_FEED_LOG; `first` begins it,
 * `last` ends it): its lines read (server/server_log.h), each finished
 * llama.cpp task block handed to sink. *counted: the input ended, and
 * *counts holds its lines' counts. false: out of memory.
 */
bool ss_server_feed_log(struct ss_server_feed *f, const char *name, bool first, bool last,
			const char *bytes, size_t len, const struct ss_server_log_sink *sink,
			bool *counted, struct ss_server_log_counts *counts);

#endif
