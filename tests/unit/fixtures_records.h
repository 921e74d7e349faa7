/*
 * fixtures_records.h - records and outcomes built by hand for the metrics
 * and report tests (the engines stage is not involved).
 */
#ifndef SS_TEST_FIXTURES_RECORDS_H
#define SS_TEST_FIXTURES_RECORDS_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "model/outcome.h"
#include "metrics/values.h"

static inline void fx_push_all(struct ss_vec_i64 *v, const int64_t *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		assert_true(SS_VEC_PUSH(v, x[i]));
}

/* A vLLM-shaped record with a dense histogram and k = len - 1. */
static inline void fx_vllm(struct ss_record *r, const int64_t *hist, size_t n,
			   int64_t steps, int64_t accepted, int64_t drafted,
			   double mean, double rate)
{
	ss_record_init(r);
	strcpy(r->engine, "vllm");
	r->has_mean_acceptance_length = true;
	r->mean_acceptance_length = mean;
	r->draft_acceptance_rate = rate;
	r->has_histogram = true;
	fx_push_all(&r->histogram, hist, n);
	r->num_accepted_draft_tokens = accepted;
	r->num_draft_tokens = drafted;
	r->has_steps = true;
	r->num_spec_steps = steps;
	r->has_spec_tokens = true;
	r->num_spec_tokens = (int64_t)n - 1;
}

/* SPEC 6, record A: per-step accepted [2,3,1,4,2,0,3,3], k 4. */
static inline void fx_record_a(struct ss_record *r)
{
	static const int64_t h[] = {1, 1, 2, 3, 1};
	static const int64_t psa[] = {2, 3, 1, 4, 2, 0, 3, 3};

	fx_vllm(r, h, 5, 8, 18, 32, 3.25, 0.5625);
	r->has_per_step_accepted = true;
	fx_push_all(&r->per_step_accepted, psa, 8);
}

/* SPEC 6, record B: per-step accepted [1,1,0], k 4. */
static inline void fx_record_b(struct ss_record *r)
{
	static const int64_t h[] = {1, 2, 0, 0, 0};

	fx_vllm(r, h, 5, 3, 2, 12, 1.0 + 2.0 / 3.0, 2.0 / 12.0);
}

/* A llama.cpp record: no steps, no histogram. */
static inline void fx_llamacpp(struct ss_record *r, int64_t accepted, int64_t drafted)
{
	ss_record_init(r);
	strcpy(r->engine, "llamacpp");
	r->num_accepted_draft_tokens = accepted;
	r->num_draft_tokens = drafted;
	r->draft_acceptance_rate = drafted ? (double)accepted / (double)drafted : 0.0;
}

/* The outcome of a valid record (ok or zero_step), as ss_process makes it. */
static inline void fx_outcome_of(struct ss_outcome *o, const struct ss_record *r,
				 enum ss_phase phase, uint64_t line)
{
	char why[SS_REASON_MAX];

	assert_true(ss_record_check(r, why, sizeof(why)));
	memset(o, 0, sizeof(*o));
	o->status = ss_record_status(r);
	o->phase = phase;
	o->kind = SS_KIND_RAW;
	o->line = line;
	strcpy(o->engine, r->engine);
	o->record = r;
	if (o->status == SS_ST_OK) {
		o->has_steps = r->has_steps;
		o->steps = r->num_spec_steps;
		o->accepted = r->num_accepted_draft_tokens;
		o->drafted = r->num_draft_tokens;
		o->has_k = r->has_spec_tokens;
		o->k = r->num_spec_tokens;
		ss_req_values_of(r, &o->values);
		if (r->has_histogram) {
			o->hist = r->histogram.v;
			o->hist_len = r->histogram.len;
		}
	} else {
		strcpy(o->reason, "num_spec_steps is 0");
	}
}

/* An outcome without a record. */
static inline void fx_outcome_status(struct ss_outcome *o, enum ss_status st,
				     enum ss_phase phase, enum ss_kind kind,
				     const char *reason)
{
	memset(o, 0, sizeof(*o));
	o->status = st;
	o->phase = phase;
	o->kind = kind;
	o->line = 1;
	if (reason)
		strcpy(o->reason, reason);
}

#endif
