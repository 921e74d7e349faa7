/*
 * adapters.h - one adapter per engine (SPEC 2.6): it recognises a payload
 * by its signature keys and maps it to the neutral record.
 *
 * Signatures are disjoint. map() reads the payload through a reader
 * (payload.h) into a reset record and returns false when the payload is
 * malformed, the reader holding the reason; the identities of SPEC 2.5 are
 * checked afterwards by ss_record_check(). The registry and the helpers
 * the adapters share live in adapters.c. The adapters are static tables;
 * what map() writes belongs to the caller's record.
 */
#ifndef SS_ADAPTERS_H
#define SS_ADAPTERS_H

#include <stdbool.h>
#include <stddef.h>

#include "engines/payload.h"
#include "model/record.h"

struct ss_adapter {
	enum ss_engine engine;
	bool (*claims)(const struct ss_payload *pl);
	bool (*map)(struct ss_reader *rd, struct ss_record *r);
};

extern const struct ss_adapter ss_adapter_vllm;
extern const struct ss_adapter ss_adapter_trtllm;
extern const struct ss_adapter ss_adapter_llamacpp;
extern const struct ss_adapter ss_adapter_sglang;

/* All built-in adapters, in a fixed order; NULL-terminated. */
extern const struct ss_adapter *const ss_adapters[];

/* An AIPerf records line's `spec_decode_acceptance` object, used as is. */
bool ss_records_line_map(struct ss_reader *rd, struct ss_record *r);

/* Shared by the adapters: the optional per-step arrays (SPEC 2.4). */
void ss_read_per_step(struct ss_reader *rd, struct ss_record *r);

/*
 * vLLM's optional acceptance_histogram_by_draft_length (SPEC 7.9): an
 * object of canonical decimal keys d, each an array of d + 1 counts; any
 * other shape fails through the reader. Kept in the record canonical (rows
 * by ascending d; a key given twice keeps its last row).
 */
void ss_read_by_draft_length(struct ss_reader *rd, struct ss_record *r);

/*
 * Shared by the adapters: a histogram whose length must be k + 1. Fails
 * through the reader (unless it failed already); returns !rd->bad.
 */
bool ss_check_histogram_length(struct ss_reader *rd, const struct ss_record *r,
			       const char *name);

#endif
