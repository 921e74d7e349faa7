#include "metrics/values.h"

#include <string.h>
#include "util/ratio.h"

/* Indexed by enum ss_metric, which is the order of the aggregate JSON. */
const struct ss_metric_info ss_metric_table[SS_M_COUNT] = {
	[SS_M_ACCEPTANCE_LENGTH] = {"spec_decode_acceptance_length",
		"Acceptance Length", "ratio", true, false},
	[SS_M_TOKEN_WEIGHTED_AL] = {"spec_decode_token_weighted_acceptance_length",
		"Token-Weighted Acceptance Length", "ratio", false, false},
	[SS_M_DRAFT_ACCEPTANCE_RATE] = {"spec_decode_draft_acceptance_rate",
		"Draft Acceptance Rate", "%", true, false},
	[SS_M_OVERALL_DAR] = {"spec_decode_overall_draft_acceptance_rate",
		"Overall Draft Acceptance Rate", "%", false, false},
	[SS_M_ACCEPTED_PER_VERIFIED] = {"spec_decode_accepted_per_verified",
		"Accepted per Verified", "ratio", true, false},
	[SS_M_STEPS] = {"spec_decode_steps",
		"Spec Decode Steps", "count", true, true},
	[SS_M_ZERO_STEP_REQUESTS] = {"spec_decode_zero_step_requests",
		"Zero-Step Requests", "requests", false, false},
	[SS_M_ACCEPTED_DRAFT_TOKENS] = {"spec_decode_accepted_draft_tokens",
		"Accepted Draft Tokens", "tokens", true, true},
	[SS_M_DRAFT_TOKENS] = {"spec_decode_draft_tokens",
		"Draft Tokens", "tokens", true, true},
	[SS_M_TOTAL_STEPS] = {"total_spec_decode_steps",
		"Total Spec Decode Steps", "count", false, false},
	[SS_M_TOTAL_ACCEPTED] = {"total_accepted_draft_tokens",
		"Total Accepted Draft Tokens", "tokens", false, false},
	[SS_M_TOTAL_DRAFT] = {"total_draft_tokens",
		"Total Draft Tokens", "tokens", false, false},
};

static void set_int(struct ss_req_values *out, enum ss_metric m, int64_t x)
{
	out->has[m] = true;
	out->iv[m] = x;
	out->v[m] = (double)x;
}

void ss_req_values_of(const struct ss_record *r, struct ss_req_values *out)
{
	memset(out, 0, sizeof(*out));

	if (r->has_steps && r->has_mean_acceptance_length) {
		out->has[SS_M_ACCEPTANCE_LENGTH] = true;
		out->v[SS_M_ACCEPTANCE_LENGTH] = r->mean_acceptance_length;
	}
	if (!r->has_num_draft_tokens) {
		/* SPEC 12.5: no drafted tokens, so no rate and no accepted per verified */
		if (r->has_steps)
			set_int(out, SS_M_STEPS, r->num_spec_steps);
		set_int(out, SS_M_ACCEPTED_DRAFT_TOKENS, r->num_accepted_draft_tokens);
		return;
	}
	out->has[SS_M_DRAFT_ACCEPTANCE_RATE] = true;
	out->v[SS_M_DRAFT_ACCEPTANCE_RATE] = r->draft_acceptance_rate * 100.0;

	if (r->has_steps) {
		/* Both sums can exceed 2^63 - 1: add them in 128 bits. */
		__int128 num = (__int128)r->num_accepted_draft_tokens + r->num_spec_steps;
		__int128 den = (__int128)r->num_draft_tokens + r->num_spec_steps;

		if (den != 0) {
			out->has[SS_M_ACCEPTED_PER_VERIFIED] = true;
			out->v[SS_M_ACCEPTED_PER_VERIFIED] =
				ss_ratio((unsigned __int128)num, (unsigned __int128)den);
		}
		set_int(out, SS_M_STEPS, r->num_spec_steps);
	}
	set_int(out, SS_M_ACCEPTED_DRAFT_TOKENS, r->num_accepted_draft_tokens);
	set_int(out, SS_M_DRAFT_TOKENS, r->num_draft_tokens);
}

void ss_outcome_values(struct ss_outcome *o)
{
	if (o->status == SS_ST_OK && o->record) {
		ss_req_values_of(o->record, &o->values);
		o->has_k = o->record->has_spec_tokens;
		o->k = o->record->num_spec_tokens;
		o->has_completion = o->record->has_completion_tokens;
		o->completion_tokens = o->record->completion_tokens;
		o->has_prompt = o->record->has_prompt_tokens;
		o->prompt_tokens = o->record->prompt_tokens;
	}
}
