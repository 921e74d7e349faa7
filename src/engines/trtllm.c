/*
 * TensorRT-LLM: choices[i].speculative_decoding. The server sends no mean
 * acceptance length (avg_decoded_tokens_per_iter is another quantity), so
 * it is computed; a payload with zero steps is never sent, so 0 is malformed.
 */
#include <stdio.h>
#include <string.h>

#include "engines/adapters.h"

static bool trtllm_claims(const struct ss_payload *pl)
{
	return pl->f[SS_F_TOTAL_ACCEPTED_DRAFT_TOKENS].present &&
	       pl->f[SS_F_TOTAL_DRAFT_TOKENS].present;
}

static bool trtllm_map(struct ss_payload *pl, struct ss_record *r, char *why,
		       size_t whylen)
{
	bool bad = false, has;

	strcpy(r->engine, "tensorrt_llm");
	ss_payload_count(pl, SS_F_TOTAL_ACCEPTED_DRAFT_TOKENS, true, &has,
			 &r->num_accepted_draft_tokens, why, whylen, &bad);
	ss_payload_count(pl, SS_F_TOTAL_DRAFT_TOKENS, true, &has,
			 &r->num_draft_tokens, why, whylen, &bad);
	ss_payload_count(pl, SS_F_NUM_SPEC_STEPS, true, &r->has_steps,
			 &r->num_spec_steps, why, whylen, &bad);
	if (!bad && r->num_spec_steps == 0) {
		snprintf(why, whylen, "num_spec_steps is 0");
		bad = true;
	}
	ss_payload_count(pl, SS_F_NUM_SPEC_TOKENS, false, &r->has_spec_tokens,
			 &r->num_spec_tokens, why, whylen, &bad);
	ss_payload_double(pl, SS_F_ACCEPTANCE_RATE, true, &has,
			  &r->draft_acceptance_rate, why, whylen, &bad);
	ss_payload_array(pl, SS_F_ACCEPTANCE_HISTOGRAM, true, &r->has_histogram,
			 &r->histogram, why, whylen, &bad);
	if (bad)
		return false;
	ss_record_compute_mean(r);
	return ss_check_histogram_length(r, "acceptance_histogram", why, whylen);
}

const struct ss_adapter ss_adapter_trtllm = {SS_ENGINE_TRTLLM, trtllm_claims,
					     trtllm_map};
