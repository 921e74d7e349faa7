/*
 * logreq.c - a llama.cpp task block as a record (SPEC 12.4).
 */
#include <stdio.h>
#include <string.h>

#include "engines/logreq.h"

enum ss_status ss_record_from_llama_task(const struct ss_llama_task *t, struct ss_record *r,
					 char *why, size_t whylen)
{
	ss_record_reset(r);
	strcpy(r->engine, "llamacpp");
	if (t->has_prompt) {
		r->has_prompt_tokens = true;
		r->prompt_tokens = (int64_t)t->prompt_tokens;
	}
	if (t->has_eval) {
		r->has_completion_tokens = true;
		r->completion_tokens = (int64_t)t->eval_tokens;
	}
	if (!t->has_draft) {
		snprintf(why, whylen, "a task block without a draft line (no draft model)");
		return SS_ST_NO_STATS;
	}
	if (t->malformed) {
		snprintf(why, whylen, "%llu accepted of %llu generated draft tokens",
			 (unsigned long long)t->accepted, (unsigned long long)t->generated);
		return SS_ST_MALFORMED;
	}
	r->num_accepted_draft_tokens = (int64_t)t->accepted;
	r->num_draft_tokens = (int64_t)t->generated;
	if (t->steps_known) {
		r->has_steps = true;
		r->num_spec_steps = (int64_t)t->steps;
		if (t->k) {
			r->has_spec_tokens = true;
			r->num_spec_tokens = (int64_t)t->k;
		}
	}
	if (t->hist_known) {
		for (size_t j = 0; j <= t->k; j++) {
			if (!SS_VEC_PUSH(&r->histogram, (int64_t)t->hist[j])) {
				snprintf(why, whylen, "out of memory");
				return SS_ST_ERROR;
			}
		}
		r->has_histogram = true;
	}
	ss_record_compute_rate(r);
	ss_record_compute_mean(r);
	if (!ss_record_check(r, why, whylen))
		return SS_ST_MALFORMED;
	return ss_record_status(r);
}
