/*
 * AIPerf records line (profile_export.jsonl): `spec_decode_acceptance` is
 * already a neutral record, with a sparse histogram keyed by strings. It
 * is validated like any record and used as is, engine string included.
 */
#include <stdint.h>
#include <string.h>

#include "engines/adapters.h"
#include "util/alloc.h"

bool ss_records_line_map(struct ss_reader *rd, struct ss_record *r)
{
	struct ss_payload *pl = rd->pl;
	const struct ss_field *eng = &pl->f[SS_F_ENGINE];
	struct ss_field *hist = &pl->f[SS_F_ACCEPTANCE_HISTOGRAM];

	if (!ss_field_given(pl, SS_F_ENGINE) || eng->type != SSJ_STRING) {
		ss_reader_fail(rd, "engine is %s",
			       !eng->present ? "missing" : eng->type == SSJ_NULL ? "null"
										: "not a string");
		return false;
	}
	/* Kept whatever its length (SPEC 2.6), the empty string too. */
	if (eng->len >= SS_ENGINE_NAME_MAX) {
		r->engine_long = ss_strndup(eng->text, eng->len);
		if (!r->engine_long) {
			ss_reader_fail(rd, "out of memory");
			return false;
		}
	} else {
		memcpy(r->engine, eng->text, eng->len);
		r->engine[eng->len] = '\0';
	}

	ss_read_count(rd, SS_F_NUM_ACCEPTED_DRAFT_TOKENS, true, NULL,
		      &r->num_accepted_draft_tokens);
	/* SPEC 2.4, 12.5: the harness engines alone may leave drafted tokens out */
	const char *name = ss_record_engine(r);
	/* (the first byte first: a call to strcmp per name was 0.6% of a
	 * records run, whose engine is neither) */
	bool harness = (name[0] == 's' && strcmp(name, "spec_bench") == 0) ||
		       (name[0] == 'e' && strcmp(name, "eagle") == 0);
	bool has_rate = true;

	if (harness)
		ss_read_count(rd, SS_F_NUM_DRAFT_TOKENS, false, &r->has_num_draft_tokens,
			      &r->num_draft_tokens);
	else
		ss_read_count(rd, SS_F_NUM_DRAFT_TOKENS, true, NULL, &r->num_draft_tokens);
	ss_read_count(rd, SS_F_NUM_SPEC_STEPS, false, &r->has_steps, &r->num_spec_steps);
	ss_read_count(rd, SS_F_NUM_SPEC_TOKENS, false, &r->has_spec_tokens,
		      &r->num_spec_tokens);
	ss_read_count(rd, SS_F_COMPLETION_TOKENS, false, &r->has_completion_tokens,
		      &r->completion_tokens);
	ss_read_count(rd, SS_F_PROMPT_TOKENS, false, &r->has_prompt_tokens, &r->prompt_tokens);
	/* SPEC 11.4: an enriched line's (a records line's metrics win, request.c) */
	ss_read_count(rd, SS_F_REASONING_TOKENS, false, &r->has_reasoning_tokens,
		      &r->reasoning_tokens);
	ss_read_double(rd, SS_F_MEAN_ACCEPTANCE_LENGTH, false, &r->has_mean_acceptance_length,
		       &r->mean_acceptance_length);
	ss_read_double(rd, SS_F_DRAFT_ACCEPTANCE_RATE, !harness, harness ? &has_rate : NULL,
		       &r->draft_acceptance_rate);
	if (!rd->bad && ss_field_given(pl, SS_F_ACCEPTANCE_HISTOGRAM)) {
		if (hist->type != SSJ_OBJECT) {
			ss_reader_fail(rd, "acceptance_histogram is not an object");
		} else if (hist->ierr == SS_INT_TOO_LONG) {
			ss_reader_fail(rd, "acceptance_histogram has a bucket beyond %u",
				       SS_HIST_MAX_BUCKETS - 1);
		} else if (hist->ierr == SS_INT_NOT_INTEGER && hist->ierr_key[0] &&
			   hist->ierr_index == SIZE_MAX) {
			ss_reader_fail(rd,
				       "acceptance_histogram key \"%s\" is not a bucket number or its count is not an integer",
				       hist->ierr_key);
		} else if (hist->ierr != SS_INT_OK) {
			ss_reader_fail(rd, "acceptance_histogram[\"%s\"] is not a valid count",
				       hist->ierr_key);
		} else {
			struct ss_vec_i64 tmp = r->histogram;

			r->histogram = hist->ints;
			hist->ints = tmp;
			hist->ints.len = 0;
			r->has_histogram = true;
		}
	}
	ss_read_per_step(rd, r);
	ss_read_by_draft_length(rd, r);
	return !rd->bad;
}
