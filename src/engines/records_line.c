/*
 * AIPerf records line (profile_export.jsonl): `spec_decode_acceptance` is
 * already a neutral record, with a sparse histogram keyed by strings. It
 * is validated like any record and used as is, engine string included.
 */
#include <stdio.h>
#include <string.h>

#include "engines/adapters.h"

bool ss_records_line_map(struct ss_payload *pl, struct ss_record *r, char *why,
			 size_t whylen)
{
	const struct ss_field *eng = &pl->f[SS_F_ENGINE];
	const struct ss_field *hist = &pl->f[SS_F_ACCEPTANCE_HISTOGRAM];
	bool bad = false, has;

	if (!ss_field_given(pl, SS_F_ENGINE) || eng->type != SSJ_STRING) {
		snprintf(why, whylen, "engine is %s",
			 !eng->present ? "missing" : eng->type == SSJ_NULL ? "null"
									   : "not a string");
		return false;
	}
	if (eng->len == 0 || eng->len >= SS_ENGINE_NAME_MAX) {
		snprintf(why, whylen, "engine name is %s",
			 eng->len == 0 ? "empty" : "too long");
		return false;
	}
	memcpy(r->engine, eng->text, eng->len);
	r->engine[eng->len] = '\0';

	ss_payload_count(pl, SS_F_NUM_ACCEPTED_DRAFT_TOKENS, true, &has,
			 &r->num_accepted_draft_tokens, why, whylen, &bad);
	ss_payload_count(pl, SS_F_NUM_DRAFT_TOKENS, true, &has,
			 &r->num_draft_tokens, why, whylen, &bad);
	ss_payload_count(pl, SS_F_NUM_SPEC_STEPS, false, &r->has_steps,
			 &r->num_spec_steps, why, whylen, &bad);
	ss_payload_count(pl, SS_F_NUM_SPEC_TOKENS, false, &r->has_spec_tokens,
			 &r->num_spec_tokens, why, whylen, &bad);
	ss_payload_count(pl, SS_F_COMPLETION_TOKENS, false,
			 &r->has_completion_tokens, &r->completion_tokens, why,
			 whylen, &bad);
	ss_payload_double(pl, SS_F_MEAN_ACCEPTANCE_LENGTH, false,
			  &r->has_mean_acceptance_length,
			  &r->mean_acceptance_length, why, whylen, &bad);
	ss_payload_double(pl, SS_F_DRAFT_ACCEPTANCE_RATE, true, &has,
			  &r->draft_acceptance_rate, why, whylen, &bad);
	if (!bad && ss_field_given(pl, SS_F_ACCEPTANCE_HISTOGRAM)) {
		if (hist->type != SSJ_OBJECT) {
			snprintf(why, whylen, "acceptance_histogram is not an object");
			bad = true;
		} else if (hist->ierr == SS_INT_TOO_LONG) {
			snprintf(why, whylen,
				 "acceptance_histogram has a bucket beyond %u",
				 SS_HIST_MAX_BUCKETS - 1);
			bad = true;
		} else if (hist->ierr == SS_INT_NOT_INTEGER && hist->ierr_key[0] &&
			   hist->ierr_index == SIZE_MAX) {
			snprintf(why, whylen,
				 "acceptance_histogram key \"%s\" is not a bucket number or its count is not an integer",
				 hist->ierr_key);
			bad = true;
		} else if (hist->ierr != SS_INT_OK) {
			snprintf(why, whylen,
				 "acceptance_histogram[\"%s\"] is not a valid count",
				 hist->ierr_key);
			bad = true;
		} else {
			struct ss_vec_i64 tmp = r->histogram;

			r->histogram = pl->f[SS_F_ACCEPTANCE_HISTOGRAM].ints;
			pl->f[SS_F_ACCEPTANCE_HISTOGRAM].ints = tmp;
			pl->f[SS_F_ACCEPTANCE_HISTOGRAM].ints.len = 0;
			r->has_histogram = true;
		}
	}
	ss_read_per_step(pl, r, why, whylen, &bad);
	return !bad;
}
