/*
 * TensorRT-LLM: choices[i].speculative_decoding. The server sends no mean
 * acceptance length (avg_decoded_tokens_per_iter is another quantity), so
 * it is computed; a payload with zero steps is never sent, so 0 is malformed.
 */
#include <string.h>

#include "engines/adapters.h"

static bool trtllm_claims(const struct ss_payload *pl)
{
	return pl->f[SS_F_TOTAL_ACCEPTED_DRAFT_TOKENS].present &&
	       pl->f[SS_F_TOTAL_DRAFT_TOKENS].present;
}

static bool trtllm_map(struct ss_reader *rd, struct ss_record *r)
{
	strcpy(r->engine, "tensorrt_llm");
	ss_read_count(rd, SS_F_TOTAL_ACCEPTED_DRAFT_TOKENS, true, NULL,
		      &r->num_accepted_draft_tokens);
	ss_read_count(rd, SS_F_TOTAL_DRAFT_TOKENS, true, NULL, &r->num_draft_tokens);
	if (ss_read_count(rd, SS_F_NUM_SPEC_STEPS, true, &r->has_steps, &r->num_spec_steps) &&
	    r->num_spec_steps == 0)
		ss_reader_fail(rd, "num_spec_steps is 0");
	ss_read_count(rd, SS_F_NUM_SPEC_TOKENS, false, &r->has_spec_tokens,
		      &r->num_spec_tokens);
	ss_read_double(rd, SS_F_ACCEPTANCE_RATE, true, NULL, &r->draft_acceptance_rate);
	ss_read_array(rd, SS_F_ACCEPTANCE_HISTOGRAM, true, &r->has_histogram, &r->histogram);
	if (rd->bad)
		return false;
	ss_record_compute_mean(r);
	return ss_check_histogram_length(rd, r, "acceptance_histogram");
}

const struct ss_adapter ss_adapter_trtllm = {SS_ENGINE_TRTLLM, trtllm_claims,
					     trtllm_map};
