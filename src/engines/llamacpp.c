/*
 * llama.cpp (and servers that copy its names): timings.draft_n and
 * draft_n_accepted. No step count and no histogram are reported, and none
 * is invented; MLX servers add draft_rounds, which is the step count.
 */
#include <string.h>

#include "engines/adapters.h"

static bool llamacpp_claims(const struct ss_payload *pl)
{
	return pl->f[SS_F_DRAFT_N].present && pl->f[SS_F_DRAFT_N_ACCEPTED].present;
}

static bool llamacpp_map(struct ss_reader *rd, struct ss_record *r)
{
	strcpy(r->engine, "llamacpp");
	ss_read_count(rd, SS_F_DRAFT_N, true, NULL, &r->num_draft_tokens);
	ss_read_count(rd, SS_F_DRAFT_N_ACCEPTED, true, NULL, &r->num_accepted_draft_tokens);
	ss_read_count(rd, SS_F_DRAFT_ROUNDS, false, &r->has_steps, &r->num_spec_steps);
	if (rd->bad)
		return false;
	ss_record_compute_rate(r);
	ss_record_compute_mean(r);
	return true;
}

const struct ss_adapter ss_adapter_llamacpp = {SS_ENGINE_LLAMACPP, llamacpp_claims,
					       llamacpp_map};
