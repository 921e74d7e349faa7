/*
 * framer.h - cut a decoded stream into requests (SPEC 1.2): JSONL lines
 * (LF or CRLF, blank lines skipped, last line without newline accepted) or
 * SSE capture streams (one request per stream, ended by `data: [DONE]`).
 * A UTF-8 byte-order mark at the start of a stream is skipped.
 *
 * The framer keeps a partial line between calls; memory grows only to the
 * longest record, capped by max_record. A record over the cap becomes an
 * oversize unit and its bytes are skipped.
 *
 * Ownership: the caller owns the framer, the stream (borrowed from
 * ss_framer_start until the next start or the framer's end) and the
 * batches, which the framer only fills; a batch's text may still be read
 * back by the stream's decoder until the next fill (ss_framer_fill).
 */
#ifndef SS_FRAMER_H
#define SS_FRAMER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "io/batch.h"
#include "io/stream.h"

enum ss_framing { SS_FRAMING_AUTO = 0, SS_FRAMING_JSONL, SS_FRAMING_SSE };

enum ss_fill { SS_FILL_MORE = 0, SS_FILL_END, SS_FILL_ERROR, SS_FILL_NOMEM };

struct ss_framer;

struct ss_framer *ss_framer_new(size_t max_record, enum ss_framing mode);
void ss_framer_free(struct ss_framer *f);

/* Begin a new stream: forget all state of the previous one. */
void ss_framer_start(struct ss_framer *f, struct ss_stream *s);

/*
 * Append whole requests of the stream to `b` until it holds at least
 * `target` bytes of text or SS_BATCH_MAX_UNITS requests (SS_FILL_MORE:
 * call again with a fresh batch) or
 * the stream ends (SS_FILL_END). SS_FILL_ERROR: the stream failed
 * (ss_stream_error() says why); the requests before the failure are in
 * `b`, a partial last record is dropped. SS_FILL_NOMEM: out of memory.
 *
 * After SS_FILL_MORE the stream may still read back the text of `b` (a
 * decoder that writes in place, source.h): keep it unchanged (not written,
 * moved or freed; ss_batch_reset does none of these to a batch of at most
 * SS_BATCH_KEEP_BYTES) until the next fill, with another batch, returns.
 */
enum ss_fill ss_framer_fill(struct ss_framer *f, struct ss_batch *b, size_t target);

/*
 * Read window size for new streams (default 4 MiB). Tests use tiny windows
 * to cut lines and events at every place; the window still grows to hold
 * a line of up to max_record bytes.
 */
void ss_framer_set_window(struct ss_framer *f, size_t size);

/*
 * A flag set by a signal handler: a fill checks it before every read and
 * stops with SS_FILL_ERROR (the stream's error says "interrupted") when it
 * is set, so skipping an endless over-limit line or a stream of blank
 * lines never outlasts a SIGINT/SIGTERM. NULL: never stop.
 */
void ss_framer_set_stop(struct ss_framer *f, const volatile sig_atomic_t *stop);

/* After the first fill: whether the stream was framed as SSE. */
bool ss_framer_is_sse(const struct ss_framer *f);

#endif
