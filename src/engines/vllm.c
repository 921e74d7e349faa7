/* vLLM: metrics.speculative_decoding, dense histogram, server-computed ratios. */
#include <string.h>

#include "engines/adapters.h"

static bool vllm_claims(const struct ss_payload *pl)
{
	return pl->f[SS_F_ACCEPTANCE_HISTOGRAM].present &&
	       pl->f[SS_F_NUM_SPEC_STEPS].present &&
	       pl->f[SS_F_MEAN_ACCEPTANCE_LENGTH].present;
}

static bool vllm_map(struct ss_reader *rd, struct ss_record *r)
{
	strcpy(r->engine, "vllm");
	ss_read_count(rd, SS_F_NUM_SPEC_STEPS, true, &r->has_steps, &r->num_spec_steps);
	ss_read_count(rd, SS_F_NUM_ACCEPTED_DRAFT_TOKENS, true, NULL,
		      &r->num_accepted_draft_tokens);
	ss_read_count(rd, SS_F_NUM_DRAFT_TOKENS, true, NULL, &r->num_draft_tokens);
	ss_read_count(rd, SS_F_NUM_SPEC_TOKENS, false, &r->has_spec_tokens,
		      &r->num_spec_tokens);
	ss_read_double(rd, SS_F_MEAN_ACCEPTANCE_LENGTH, true, &r->has_mean_acceptance_length,
		       &r->mean_acceptance_length);
	ss_read_double(rd, SS_F_DRAFT_ACCEPTANCE_RATE, true, NULL, &r->draft_acceptance_rate);
	ss_read_array(rd, SS_F_ACCEPTANCE_HISTOGRAM, true, &r->has_histogram, &r->histogram);
	ss_read_per_step(rd, r);
	ss_read_by_draft_length(rd, r);
	return ss_check_histogram_length(rd, r, "acceptance_histogram");
}

const struct ss_adapter ss_adapter_vllm = {SS_ENGINE_VLLM, vllm_claims, vllm_map};
