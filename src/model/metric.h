/*
 * metric.h - the names of the Spec Decode metrics (SPEC 3) and the
 * per-request values a request's outcome carries.
 *
 * Only the vocabulary lives here, shared by every stage; the table of tags
 * and units and the computation of the values belong to the metrics stage
 * (metrics/values.h).
 *
 * Ownership: types only; struct ss_req_values is a plain value, owned by
 * whoever holds it.
 */
#ifndef SS_METRIC_H
#define SS_METRIC_H

#include <stdbool.h>
#include <stdint.h>

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

/* The per-request metric values of one ok record. */
struct ss_req_values {
	bool has[SS_M_COUNT];
	double v[SS_M_COUNT];   /* every present value, as a double */
	int64_t iv[SS_M_COUNT]; /* the integer, for integral metrics */
};

#endif
