/*
 * SGLang: sglext.spec_tokens_details or meta_info. Field names changed over
 * releases; the first alias present and not null wins. SGLang's own
 * spec_accept_length counts the prefill token too, so both ratios are
 * computed here instead.
 */
#include <stdio.h>
#include <string.h>

#include "engines/adapters.h"

static const enum ss_field_id accepted_aliases[] = {
	SS_F_SPEC_NUM_CORRECT_DRAFTS, SS_F_SPEC_ACCEPTED_DRAFTS, SS_F_SPEC_ACCEPT_TOKEN_NUM,
};
static const enum ss_field_id drafted_aliases[] = {
	SS_F_SPEC_NUM_PROPOSED_DRAFTS, SS_F_SPEC_PROPOSED_DRAFTS, SS_F_SPEC_DRAFT_TOKEN_NUM,
};
static const enum ss_field_id histogram_aliases[] = {
	SS_F_SPEC_CORRECT_DRAFTS_HISTOGRAM, SS_F_SPEC_ACCEPT_HISTOGRAM,
};

/* The first alias present and not null; else the first present; else -1. */
static int pick(const struct ss_payload *pl, const enum ss_field_id *ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ss_field_given(pl, ids[i]))
			return (int)ids[i];
	for (size_t i = 0; i < n; i++)
		if (pl->f[ids[i]].present)
			return (int)ids[i];
	return -1;
}

#define PICK(pl, a) pick((pl), (a), sizeof(a) / sizeof((a)[0]))

static bool sglang_claims(const struct ss_payload *pl)
{
	return pl->f[SS_F_SPEC_VERIFY_CT].present && PICK(pl, accepted_aliases) >= 0;
}

static bool sglang_map(struct ss_payload *pl, struct ss_record *r, char *why,
		       size_t whylen)
{
	bool bad = false, has;
	int acc = PICK(pl, accepted_aliases);
	int drafted = PICK(pl, drafted_aliases);
	int hist = PICK(pl, histogram_aliases);

	strcpy(r->engine, "sglang");
	ss_payload_count(pl, SS_F_SPEC_VERIFY_CT, true, &r->has_steps,
			 &r->num_spec_steps, why, whylen, &bad);
	ss_payload_count(pl, (enum ss_field_id)acc, true, &has,
			 &r->num_accepted_draft_tokens, why, whylen, &bad);
	if (drafted >= 0) {
		ss_payload_count(pl, (enum ss_field_id)drafted, true, &has,
				 &r->num_draft_tokens, why, whylen, &bad);
	} else if (!bad) {
		snprintf(why, whylen, "spec_num_proposed_drafts is missing");
		bad = true;
	}
	if (hist >= 0)
		ss_payload_array(pl, (enum ss_field_id)hist, false, &r->has_histogram,
				 &r->histogram, why, whylen, &bad);
	if (bad)
		return false;
	if (r->has_histogram && r->histogram.len > 0) {
		r->has_spec_tokens = true;
		r->num_spec_tokens = (int64_t)r->histogram.len - 1;
	}
	ss_record_compute_mean(r);
	ss_record_compute_rate(r);
	return true;
}

const struct ss_adapter ss_adapter_sglang = {SS_ENGINE_SGLANG, sglang_claims, sglang_map};

const struct ss_adapter *const ss_adapters[] = {
	&ss_adapter_vllm, &ss_adapter_trtllm, &ss_adapter_llamacpp, &ss_adapter_sglang, NULL,
};
