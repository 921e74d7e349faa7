/*
 * metadata.h - what an AIPerf line's `metadata` object says (SPEC 1.5):
 * its phase, whether the request was cancelled, and its time (SPEC 7.8). The one place that
 * reads it, for every line kind (the walk over a line calls it on the
 * `metadata` object it meets); the scan is a plain struct the caller owns.
 */
#ifndef SS_METADATA_H
#define SS_METADATA_H

#include <stdbool.h>

#include "json/json.h"
#include "model/outcome.h"
#include "model/record.h"
#include "util/buf.h"

struct ss_meta_scan {
	bool cancelled;     /* was_cancelled is true */
	int phase;          /* benchmark_phase: an enum ss_phase, or -1 unknown */
	int credit_phase;   /* credit_phase (older exports): the same */
	/* request_end_ns / request_start_ns: their number texts (NULL: not a
	 * number), read only when asked for (ss_meta_time) */
	const char *end, *start;
	size_t end_len, start_len;
};

/* The metadata scan of a line that says nothing. */
#define SS_META_SCAN_NONE {false, -1, -1, NULL, NULL, 0, 0}

/*
 * The `--group-by meta.NAME` keys a processor reads (SPEC 7.3), in the
 * same pass over the metadata object as the scan above: the names it was
 * asked for (borrowed, living as long as the processor), and the values
 * of the last object read, whose strings it copies into `text` (a string
 * read from the line may live in the parser, which a later visit reuses).
 * Owned by the processor; values valid until its next request.
 */
struct ss_meta_keys {
	const char *names[SS_META_KEYS_MAX];
	size_t name_len[SS_META_KEYS_MAX];
	size_t n;                    /* 0: none asked for, nothing read */
	uint64_t lens;               /* SSJ_LEN_BIT of each name's length */
	struct ss_meta_value vals[SS_META_KEYS_MAX];
	size_t at[SS_META_KEYS_MAX]; /* a string's offset in text */
	struct ss_buf text;
};

/* Keys for the n names (at most SS_META_KEYS_MAX are read). */
void ss_meta_keys_init(struct ss_meta_keys *mk, const char *const *names, size_t n);
void ss_meta_keys_release(struct ss_meta_keys *mk);
/*
 * The values of a metadata object given as text [text, text + len)
 * (padded), visited on `parser` (a composed text, engines/logreq.c): not
 * an object, or not valid, leaves every value null.
 */
void ss_meta_keys_read_span(struct ss_meta_keys *mk, struct ssj_parser *parser,
			    const char *text, size_t len);
/*
 * Hand the values read last to o (o->meta, o->nmeta; nothing when no
 * name was asked for). false: out of memory.
 */
bool ss_meta_keys_attach(struct ss_meta_keys *mk, struct ss_outcome *o);

/*
 * What the metadata value v says (SS_META_SCAN_NONE when it is not an
 * object), its times too with `want_time` (else the scan passes over
 * them), and the values of keys' names when keys is not NULL (all null
 * when v is not an object); its text can be taken afterwards (json.h).
 * false: the visit over it failed (*m and keys then hold what it read).
 */
bool ss_meta_scan_of(struct ssj_value *v, struct ss_meta_scan *m, bool want_time,
		     struct ss_meta_keys *keys);

/* SPEC 1.5's phase: benchmark_phase, else credit_phase, else profiling. */
enum ss_phase ss_meta_phase(const struct ss_meta_scan *m);

/* SPEC 7.8's time: request_end_ns, else request_start_ns, each when an
 * integer in 0..2^63-1 (read while the line's text lives); false: untimed. */
bool ss_meta_time(const struct ss_meta_scan *m, int64_t *t_ns);

#endif
