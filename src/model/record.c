#include "model/record.h"

#include <stdio.h>
#include <stddef.h>
#include <string.h>

#include "util/alloc.h"
#include "util/ratio.h"
#include "util/text.h"

static const char *const status_names[SS_ST_COUNT] = {
	"ok", "zero_step", "no_stats", "unrecognized", "ambiguous",
	"multi_choice", "malformed", "error", "cancelled", "no_content",
	"unparsable", "oversize",
};

static const char *const status_labels[SS_ST_COUNT] = {
	"with stats", "zero-step", "without stats", "unrecognized",
	"ambiguous", "multi-choice", "malformed", "failed", "cancelled",
	"without content", "unparsable", "oversize",
};

const char *ss_status_name(enum ss_status s)
{
	return (unsigned)s < SS_ST_COUNT ? status_names[s] : "?";
}

const char *ss_status_label(enum ss_status s)
{
	return (unsigned)s < SS_ST_COUNT ? status_labels[s] : "?";
}

static const char *const nostats_reasons[SS_NOSTATS_COUNT] = {
	"no spec-decode payload",
	"no spec-decode payload: metrics without speculative_decoding",
	"no spec-decode payload: a stream without a usage chunk",
	"no spec-decode payload: timings without draft_n",
	"no spec-decode payload: meta_info without spec_verify_ct",
	"no spec_decode_acceptance record",
};

const char *ss_nostats_reason(enum ss_nostats_cause c)
{
	return nostats_reasons[(unsigned)c < SS_NOSTATS_COUNT ? c : SS_NOSTATS_GENERAL];
}

enum ss_nostats_cause ss_nostats_cause_of(const char *reason)
{
	for (unsigned c = 1; c < SS_NOSTATS_COUNT; c++)
		if (strcmp(reason, nostats_reasons[c]) == 0)
			return (enum ss_nostats_cause)c;
	return SS_NOSTATS_GENERAL;
}

const char *ss_kind_name(enum ss_kind k)
{
	static const char *const names[SS_KIND_COUNT] = {
		"unknown", "raw", "records", "body", "sse", "enriched", "scrape", "log",
		"harness",
	};
	return (unsigned)k < SS_KIND_COUNT ? names[k] : "unknown";
}

static const char *const engine_names[SS_ENGINE_COUNT] = {
	"", "vllm", "tensorrt_llm", "llamacpp", "sglang", "spec_bench", "eagle",
};

const char *ss_engine_name(enum ss_engine e)
{
	return (unsigned)e < SS_ENGINE_COUNT ? engine_names[e] : "";
}

enum ss_engine ss_engine_from_name(const char *name)
{
	for (int e = 1; e < SS_ENGINE_COUNT; e++)
		if (strcmp(name, engine_names[e]) == 0)
			return (enum ss_engine)e;
	return SS_ENGINE_NONE;
}

void ss_record_init(struct ss_record *r)
{
	memset(r, 0, sizeof(*r));
	r->has_num_draft_tokens = true;
}

void ss_record_reset(struct ss_record *r)
{
	struct ss_vec_i64 h = r->histogram, a = r->per_step_accepted,
			 d = r->per_step_drafted, b = r->by_draft_length;

	ss_free(r->engine_long);
	ss_clear_around(r, sizeof(*r), offsetof(struct ss_record, engine),
			offsetof(struct ss_record, engine) + sizeof(r->engine));
	r->engine[0] = '\0';
	h.len = a.len = d.len = b.len = 0;
	r->histogram = h;
	r->per_step_accepted = a;
	r->per_step_drafted = d;
	r->by_draft_length = b;
	r->has_num_draft_tokens = true;
}

void ss_record_release(struct ss_record *r)
{
	SS_VEC_RELEASE(&r->histogram);
	SS_VEC_RELEASE(&r->per_step_accepted);
	SS_VEC_RELEASE(&r->per_step_drafted);
	SS_VEC_RELEASE(&r->by_draft_length);
	ss_free(r->engine_long);
	memset(r, 0, sizeof(*r));
}

/* Sum of a[i] (or of i * a[i] when weighted); false when it overflows. */
static bool checked_sum(const struct ss_vec_i64 *a, bool weighted, int64_t *out)
{
	int64_t s = 0, t;

	for (size_t i = 0; i < a->len; i++) {
		int64_t x = a->v[i];

		if (weighted && __builtin_mul_overflow(x, (int64_t)i, &x))
			return false;
		if (__builtin_add_overflow(s, x, &t))
			return false;
		s = t;
	}
	*out = s;
	return true;
}

bool ss_record_check(const struct ss_record *r, char *why, size_t whylen)
{
	int64_t sum;

	if (r->has_num_draft_tokens && r->num_accepted_draft_tokens > r->num_draft_tokens) {
		snprintf(why, whylen,
			 "num_accepted_draft_tokens %lld exceeds num_draft_tokens %lld",
			 (long long)r->num_accepted_draft_tokens,
			 (long long)r->num_draft_tokens);
		return false;
	}
	if (r->has_histogram && r->has_steps) {
		if (!checked_sum(&r->histogram, false, &sum)) {
			snprintf(why, whylen, "histogram counts overflow when summed");
			return false;
		}
		if (sum != r->num_spec_steps) {
			snprintf(why, whylen,
				 "histogram sums to %lld but num_spec_steps is %lld",
				 (long long)sum, (long long)r->num_spec_steps);
			return false;
		}
		if (!checked_sum(&r->histogram, true, &sum)) {
			snprintf(why, whylen,
				 "histogram's accepted drafts overflow when summed");
			return false;
		}
		if (sum != r->num_accepted_draft_tokens) {
			snprintf(why, whylen,
				 "histogram accounts for %lld accepted drafts but num_accepted_draft_tokens is %lld",
				 (long long)sum, (long long)r->num_accepted_draft_tokens);
			return false;
		}
	}
	if (r->has_per_step_accepted && !r->has_steps) {
		/* SPEC 2.5 (4, 5): the arrays need a step count to agree with. */
		snprintf(why, whylen, "per_step_accepted is given without num_spec_steps");
		return false;
	}
	if (r->has_per_step_accepted) {
		if ((int64_t)r->per_step_accepted.len != r->num_spec_steps) {
			snprintf(why, whylen,
				 "per_step_accepted has %zu entries but num_spec_steps is %lld",
				 r->per_step_accepted.len, (long long)r->num_spec_steps);
			return false;
		}
		if (!checked_sum(&r->per_step_accepted, false, &sum)) {
			snprintf(why, whylen, "per_step_accepted overflows when summed");
			return false;
		}
		if (sum != r->num_accepted_draft_tokens) {
			snprintf(why, whylen,
				 "per_step_accepted sums to %lld but num_accepted_draft_tokens is %lld",
				 (long long)sum, (long long)r->num_accepted_draft_tokens);
			return false;
		}
	}
	if (r->has_per_step_drafted && !r->has_steps) {
		/* SPEC 2.5 (4, 5): the arrays need a step count to agree with. */
		snprintf(why, whylen, "per_step_drafted is given without num_spec_steps");
		return false;
	}
	if (r->has_per_step_drafted) {
		if ((int64_t)r->per_step_drafted.len != r->num_spec_steps) {
			snprintf(why, whylen,
				 "per_step_drafted has %zu entries but num_spec_steps is %lld",
				 r->per_step_drafted.len, (long long)r->num_spec_steps);
			return false;
		}
		if (!checked_sum(&r->per_step_drafted, false, &sum)) {
			snprintf(why, whylen, "per_step_drafted overflows when summed");
			return false;
		}
		if (sum != r->num_draft_tokens) {
			snprintf(why, whylen,
				 "per_step_drafted sums to %lld but num_draft_tokens is %lld",
				 (long long)sum, (long long)r->num_draft_tokens);
			return false;
		}
	}
	if (r->has_per_step_accepted && r->has_per_step_drafted) {
		for (size_t i = 0; i < r->per_step_accepted.len; i++) {
			if (r->per_step_accepted.v[i] > r->per_step_drafted.v[i]) {
				snprintf(why, whylen,
					 "step %zu accepted %lld of %lld drafts", i,
					 (long long)r->per_step_accepted.v[i],
					 (long long)r->per_step_drafted.v[i]);
				return false;
			}
		}
	}
	return true;
}

void ss_record_compute_mean(struct ss_record *r)
{
	if (!r->has_steps)
		return;
	r->has_mean_acceptance_length = true;
	r->mean_acceptance_length =
		r->num_spec_steps > 0
			? 1.0 + ss_ratio((unsigned __int128)r->num_accepted_draft_tokens,
					 (unsigned __int128)r->num_spec_steps)
			: 1.0;
}

void ss_record_compute_rate(struct ss_record *r)
{
	r->draft_acceptance_rate =
		r->num_draft_tokens > 0
			? ss_ratio((unsigned __int128)r->num_accepted_draft_tokens,
				   (unsigned __int128)r->num_draft_tokens)
			: 0.0;
}

enum ss_status ss_record_status(const struct ss_record *r)
{
	if (r->has_steps)
		return r->num_spec_steps > 0 ? SS_ST_OK : SS_ST_ZERO_STEP;
	/* llama.cpp without a step count: ok when anything was drafted. */
	return r->num_draft_tokens > 0 ? SS_ST_OK : SS_ST_ZERO_STEP;
}
