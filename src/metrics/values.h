/*
 * values.h - the Spec Decode metrics (SPEC 3): their table, and the
 * per-request values of one record.
 */
#ifndef SS_VALUES_H
#define SS_VALUES_H

#include <stdbool.h>
#include <stdint.h>

#include "engines/record.h"

/* In the order of the aggregate JSON (SPEC 4.1 point 3). */
enum ss_metric {
	SS_M_ACCEPTANCE_LENGTH = 0,
	SS_M_TOKEN_WEIGHTED_AL,
	SS_M_DRAFT_ACCEPTANCE_RATE,
	SS_M_OVERALL_DAR,
	SS_M_ACCEPTED_PER_VERIFIED,
	SS_M_STEPS,
	SS_M_ZERO_STEP_REQUESTS,
	SS_M_ACCEPTED_DRAFT_TOKENS,
	SS_M_DRAFT_TOKENS,
	SS_M_TOTAL_STEPS,
	SS_M_TOTAL_ACCEPTED,
	SS_M_TOTAL_DRAFT,
	SS_M_COUNT
};

struct ss_metric_info {
	const char *tag;      /* "spec_decode_acceptance_length" */
	const char *header;   /* "Acceptance Length" */
	const char *unit;     /* "ratio", "%", "count", "tokens", "requests" */
	bool per_request;     /* else run-level */
	bool integral;        /* per-request value is an integer count */
};

extern const struct ss_metric_info ss_metric_table[SS_M_COUNT];

/* The per-request metric values of one ok record. */
struct ss_req_values {
	bool has[SS_M_COUNT];
	double v[SS_M_COUNT];   /* every present value, as a double */
	int64_t iv[SS_M_COUNT]; /* the integer, for integral metrics */
};

void ss_req_values_of(const struct ss_record *r, struct ss_req_values *out);

#endif
