/*
 * SGLang: sglext.spec_tokens_details or meta_info. Field names changed over
 * releases; the first alias present and not null wins. SGLang's own
 * spec_accept_length counts the prefill token too, so both ratios are
 * computed here instead.
 */
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

static bool sglang_map(struct ss_reader *rd, struct ss_record *r)
{
	int acc = PICK(rd->pl, accepted_aliases);
	int drafted = PICK(rd->pl, drafted_aliases);
	int hist = PICK(rd->pl, histogram_aliases);

	strcpy(r->engine, "sglang");
	ss_read_count(rd, SS_F_SPEC_VERIFY_CT, true, &r->has_steps, &r->num_spec_steps);
	ss_read_count(rd, (enum ss_field_id)acc, true, NULL, &r->num_accepted_draft_tokens);
	if (drafted >= 0)
		ss_read_count(rd, (enum ss_field_id)drafted, true, NULL, &r->num_draft_tokens);
	else
		ss_reader_fail(rd, "spec_num_proposed_drafts is missing");
	if (hist >= 0)
		ss_read_array(rd, (enum ss_field_id)hist, false, &r->has_histogram,
			      &r->histogram);
	if (rd->bad)
		return false;
	/* SPEC 2.6: an empty histogram array counts as absent. */
	if (r->has_histogram && r->histogram.len == 0)
		r->has_histogram = false;
	if (r->has_histogram && r->histogram.len > 0) {
		r->has_spec_tokens = true;
		r->num_spec_tokens = (int64_t)r->histogram.len - 1;
	}
	ss_record_compute_mean(r);
	ss_record_compute_rate(r);
	return true;
}

const struct ss_adapter ss_adapter_sglang = {SS_ENGINE_SGLANG, sglang_claims, sglang_map};
