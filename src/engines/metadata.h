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
#include "model/record.h"

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
 * What the metadata value v says (SS_META_SCAN_NONE when it is not an
 * object), its times too with `want_time` (else the scan passes over
 * them); its text can be taken afterwards (json.h). false: the visit over
 * it failed (*m then holds what it read).
 */
bool ss_meta_scan_of(struct ssj_value *v, struct ss_meta_scan *m, bool want_time);

/* SPEC 1.5's phase: benchmark_phase, else credit_phase, else profiling. */
enum ss_phase ss_meta_phase(const struct ss_meta_scan *m);

/* SPEC 7.8's time: request_end_ns, else request_start_ns, each when an
 * integer in 0..2^63-1 (read while the line's text lives); false: untimed. */
bool ss_meta_time(const struct ss_meta_scan *m, int64_t *t_ns);

#endif
