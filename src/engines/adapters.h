/*
 * adapters.h - one adapter per engine (SPEC 2.6): it recognises a payload
 * by its signature keys and maps it to the neutral record.
 *
 * Signatures are disjoint. map() fills a reset record and returns false
 * with a reason when the payload is malformed; the identities of SPEC 2.5
 * are checked afterwards by ss_record_check().
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
	bool (*map)(struct ss_payload *pl, struct ss_record *r, char *why, size_t whylen);
};

extern const struct ss_adapter ss_adapter_vllm;
extern const struct ss_adapter ss_adapter_trtllm;
extern const struct ss_adapter ss_adapter_llamacpp;
extern const struct ss_adapter ss_adapter_sglang;

/* All built-in adapters, in a fixed order; NULL-terminated. */
extern const struct ss_adapter *const ss_adapters[];

/* An AIPerf records line's `spec_decode_acceptance` object, used as is. */
bool ss_records_line_map(struct ss_payload *pl, struct ss_record *r, char *why,
			 size_t whylen);

/* Shared by the adapters: the optional per-step arrays (SPEC 2.4). */
void ss_read_per_step(struct ss_payload *pl, struct ss_record *r, char *why,
		      size_t whylen, bool *bad);

/* Shared by the adapters: a histogram whose length must be k + 1. */
bool ss_check_histogram_length(const struct ss_record *r, const char *name,
			       char *why, size_t whylen);

#endif
