/*
 * values.h - the Spec Decode metrics (SPEC 3): their table, and the
 * per-request values of one record.
 *
 * Ownership: the metric table is static; the per-request values are
 * written into structs the caller owns.
 */
#ifndef SS_VALUES_H
#define SS_VALUES_H

#include <stdbool.h>
#include <stdint.h>

#include "model/metric.h"
#include "model/outcome.h"
#include "model/record.h"

struct ss_metric_info {
	const char *tag;      /* "spec_decode_acceptance_length" */
	const char *header;   /* "Acceptance Length" */
	const char *unit;     /* "ratio", "%", "count", "tokens", "requests" */
	bool per_request;     /* else run-level */
	bool integral;        /* per-request value is an integer count */
};

extern const struct ss_metric_info ss_metric_table[SS_M_COUNT];

/* The per-request metric values of one ok record. */
void ss_req_values_of(const struct ss_record *r, struct ss_req_values *out);

/*
 * Fill o->values from o->record when the outcome is ok (ss_process() leaves
 * them empty); other outcomes keep no values.
 */
void ss_outcome_values(struct ss_outcome *o);

#endif
