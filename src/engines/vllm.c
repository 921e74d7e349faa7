/* vLLM: metrics.speculative_decoding, dense histogram, server-computed ratios. */
#include <stdio.h>
#include <string.h>

#include "engines/adapters.h"

static bool vllm_claims(const struct ss_payload *pl)
{
	return pl->f[SS_F_ACCEPTANCE_HISTOGRAM].present &&
	       pl->f[SS_F_NUM_SPEC_STEPS].present &&
	       pl->f[SS_F_MEAN_ACCEPTANCE_LENGTH].present;
}

void ss_read_per_step(struct ss_payload *pl, struct ss_record *r, char *why,
		      size_t whylen, bool *bad)
{
	ss_payload_array(pl, SS_F_PER_STEP_ACCEPTED, false, &r->has_per_step_accepted,
			 &r->per_step_accepted, why, whylen, bad);
	ss_payload_array(pl, SS_F_PER_STEP_DRAFTED, false, &r->has_per_step_drafted,
			 &r->per_step_drafted, why, whylen, bad);
}

bool ss_check_histogram_length(const struct ss_record *r, const char *name,
			       char *why, size_t whylen)
{
	if (!r->has_histogram || !r->has_spec_tokens)
		return true;
	if (r->histogram.len == 0 ||
	    (uint64_t)(r->histogram.len - 1) != (uint64_t)r->num_spec_tokens) {
		snprintf(why, whylen, "%s has %zu buckets but num_spec_tokens is %lld",
			 name, r->histogram.len, (long long)r->num_spec_tokens);
		return false;
	}
	return true;
}

static bool vllm_map(struct ss_payload *pl, struct ss_record *r, char *why, size_t whylen)
{
	bool bad = false, has;

	strcpy(r->engine, "vllm");
	ss_payload_count(pl, SS_F_NUM_SPEC_STEPS, true, &r->has_steps,
			 &r->num_spec_steps, why, whylen, &bad);
	ss_payload_count(pl, SS_F_NUM_ACCEPTED_DRAFT_TOKENS, true, &has,
			 &r->num_accepted_draft_tokens, why, whylen, &bad);
	ss_payload_count(pl, SS_F_NUM_DRAFT_TOKENS, true, &has,
			 &r->num_draft_tokens, why, whylen, &bad);
	ss_payload_count(pl, SS_F_NUM_SPEC_TOKENS, false, &r->has_spec_tokens,
			 &r->num_spec_tokens, why, whylen, &bad);
	ss_payload_double(pl, SS_F_MEAN_ACCEPTANCE_LENGTH, true,
			  &r->has_mean_acceptance_length,
			  &r->mean_acceptance_length, why, whylen, &bad);
	ss_payload_double(pl, SS_F_DRAFT_ACCEPTANCE_RATE, true, &has,
			  &r->draft_acceptance_rate, why, whylen, &bad);
	ss_payload_array(pl, SS_F_ACCEPTANCE_HISTOGRAM, true, &r->has_histogram,
			 &r->histogram, why, whylen, &bad);
	ss_read_per_step(pl, r, why, whylen, &bad);
	if (bad)
		return false;
	return ss_check_histogram_length(r, "acceptance_histogram", why, whylen);
}

const struct ss_adapter ss_adapter_vllm = {SS_ENGINE_VLLM, vllm_claims, vllm_map};
