/*
 * adapters.c - the registry of built-in adapters and the helpers they
 * share. Each adapter lives in its own file (vllm.c, trtllm.c, ...).
 */
#include "engines/adapters.h"

const struct ss_adapter *const ss_adapters[] = {
	&ss_adapter_vllm, &ss_adapter_trtllm, &ss_adapter_llamacpp, &ss_adapter_sglang, NULL,
};

void ss_read_per_step(struct ss_reader *rd, struct ss_record *r)
{
	ss_read_array(rd, SS_F_PER_STEP_ACCEPTED, false, &r->has_per_step_accepted,
		      &r->per_step_accepted);
	ss_read_array(rd, SS_F_PER_STEP_DRAFTED, false, &r->has_per_step_drafted,
		      &r->per_step_drafted);
}

bool ss_check_histogram_length(struct ss_reader *rd, const struct ss_record *r,
			       const char *name)
{
	if (rd->bad || !r->has_histogram || !r->has_spec_tokens)
		return !rd->bad;
	if (r->histogram.len == 0 ||
	    (uint64_t)(r->histogram.len - 1) != (uint64_t)r->num_spec_tokens)
		ss_reader_fail(rd, "%s has %zu buckets but num_spec_tokens is %lld", name,
			       r->histogram.len, (long long)r->num_spec_tokens);
	return !rd->bad;
}
