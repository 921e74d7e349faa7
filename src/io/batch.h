/*
 * batch.h - a batch of framed requests, the unit of work between the
 * reader (framer) and the workers.
 *
 * The framer appends requests; a worker reads them; the batch is then
 * reset and reused. Texts are stored in `buf` and referred to by offset
 * (the buffer may move while it grows). Every text has at least
 * SS_BATCH_PADDING readable bytes after its end inside `buf` (their content
 * is unspecified), so the JSON shim parses it in place.
 *
 * Ownership: the batch is the caller's (embedded: init/reset/release);
 * units and parts point into its own arrays and `buf`, valid until the
 * next reset.
 */
#ifndef SS_BATCH_H
#define SS_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The JSON shim's padding (SSJ_PADDING, simdjson's), written here so that
 * io does not include the shim; tests/unit/test_framer.c checks they agree.
 */
#define SS_BATCH_PADDING 64

/*
 * A batch is full at about 2 MiB of text (the reader's target) or at this
 * many requests, whichever comes first: each request carries a few hundred
 * bytes of state through the workers, so a batch of a million one-byte
 * lines would otherwise cost hundreds of MiB.
 */
#define SS_BATCH_MAX_UNITS 4096
/* Memory a reset batch keeps; a batch that held one huge line gives it back. */
#define SS_BATCH_KEEP_BYTES ((size_t)16 << 20)

struct ss_unit {
	uint64_t line;        /* 1-based line of the request (first event for SSE) */
	size_t first_part;    /* index into part_off/part_len */
	size_t nparts;        /* 1 for a JSONL line; the events of an SSE stream */
	bool sse;
	bool oversize;        /* skipped: longer than --max-record-size; no parts */
};

struct ss_batch {
	char *buf;
	size_t len, cap;      /* cap >= len + SS_BATCH_PADDING whenever parts exist */
	struct ss_unit *units;
	size_t nunits, units_cap;
	size_t *part_off, *part_len;
	size_t nparts, off_cap, len_cap;
};

void ss_batch_init(struct ss_batch *b);
/* Empty; keep its memory up to SS_BATCH_KEEP_BYTES of text (and arrays
 * of twice SS_BATCH_MAX_UNITS), free the rest. */
void ss_batch_reset(struct ss_batch *b);
void ss_batch_release(struct ss_batch *b);
/* Make room for `n` more bytes of text plus padding. false: out of memory. */
bool ss_batch_reserve(struct ss_batch *b, size_t n);
/*
 * Make room for `n` bytes plus padding after the first `used` bytes of buf
 * (used may exceed len: a reader filling buf before the texts are
 * recorded). false: out of memory.
 */
bool ss_batch_reserve_at(struct ss_batch *b, size_t used, size_t n);
/* Append a unit (its parts are appended after with ss_batch_add_part). */
struct ss_unit *ss_batch_add_unit(struct ss_batch *b, uint64_t line, bool sse,
				  bool oversize);
/* Record a part of the last unit: text at buf[off .. off+len). */
bool ss_batch_add_part(struct ss_batch *b, size_t off, size_t len);

#endif
