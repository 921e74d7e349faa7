/*
 * record.h - the engine-neutral record of one request (SPEC 2.4) and the
 * status every request ends with (SPEC 2.1).
 *
 * A record is filled by one adapter, then checked by ss_record_check()
 * against the identities of SPEC 2.5. Its arrays (histogram, per-step
 * arrays) live in buffers owned by the record and reused from request to
 * request: ss_record_reset() empties it, ss_record_release() frees them.
 */
#ifndef SS_RECORD_H
#define SS_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/grow.h"

/* The order is that of the accounting in SPEC 4.1; do not reorder. */
enum ss_status {
	SS_ST_OK = 0,
	SS_ST_ZERO_STEP,
	SS_ST_NO_STATS,
	SS_ST_UNRECOGNIZED,
	SS_ST_AMBIGUOUS,
	SS_ST_MULTI_CHOICE,
	SS_ST_MALFORMED,
	SS_ST_ERROR,
	SS_ST_CANCELLED,
	SS_ST_NO_CONTENT,
	SS_ST_UNPARSABLE,
	SS_ST_OVERSIZE,
	SS_ST_COUNT
};

/* "ok", "zero_step", ... as in the JSON outputs. */
const char *ss_status_name(enum ss_status s);
/* "with stats", "zero-step", ... as in the console accounting line. */
const char *ss_status_label(enum ss_status s);

/*
 * Why a `no_stats` request carried no payload, as far as its objects tell
 * (SPEC 5, "When nothing shows up"). Each cause has its own reason text,
 * so the enriched JSONL carries it and a merge of partials reads it back.
 */
enum ss_nostats_cause {
	SS_NOSTATS_GENERAL = 0,     /* nothing more specific was seen */
	SS_NOSTATS_VLLM_FLAG,       /* vLLM `metrics` without speculative_decoding */
	SS_NOSTATS_STREAM_USAGE,    /* a stream without a usage chunk */
	SS_NOSTATS_LLAMACPP_DRAFT,  /* llama.cpp `timings` without draft_n */
	SS_NOSTATS_SGLANG_OFF,      /* SGLang `meta_info` without spec_verify_ct */
	SS_NOSTATS_RECORDS,         /* an AIPerf records line without the record */
	SS_NOSTATS_COUNT
};

/* The reason text of a cause (static). */
const char *ss_nostats_reason(enum ss_nostats_cause c);
/* The cause a no_stats reason text names (GENERAL when none). */
enum ss_nostats_cause ss_nostats_cause_of(const char *reason);

enum ss_phase { SS_PHASE_PROFILING = 0, SS_PHASE_WARMUP, SS_PHASE_COUNT };

/* The kind of line a request came from (SPEC 1.3). */
enum ss_kind {
	SS_KIND_UNKNOWN = 0,
	SS_KIND_RAW,
	SS_KIND_RECORDS,
	SS_KIND_BODY,
	SS_KIND_SSE,
	SS_KIND_ENRICHED,   /* specscan's own per-request line, read back (SPEC 8.1) */
	SS_KIND_SCRAPE,     /* a server input: no request, snapshots (SPEC 10.1) */
	SS_KIND_LOG,        /* a server log (SPEC 12.1): llama.cpp task blocks are requests */
	SS_KIND_HARNESS,    /* a Spec-Bench or EAGLE answer line (SPEC 12.5) */
	SS_KIND_COUNT
};
const char *ss_kind_name(enum ss_kind k);

/* Built-in adapters; records lines carry their own engine string. */
enum ss_engine {
	SS_ENGINE_NONE = 0,
	SS_ENGINE_VLLM,
	SS_ENGINE_TRTLLM,
	SS_ENGINE_LLAMACPP,
	SS_ENGINE_SGLANG,
	SS_ENGINE_SPEC_BENCH, /* harness answer files (SPEC 12.5): no drafted tokens */
	SS_ENGINE_EAGLE,
	SS_ENGINE_COUNT
};
const char *ss_engine_name(enum ss_engine e);
/* SS_ENGINE_NONE when `name` is not a built-in adapter's name. */
enum ss_engine ss_engine_from_name(const char *name);

#define SS_ENGINE_NAME_MAX 64
/* The largest histogram accepted; beyond it a payload is malformed. */
#define SS_HIST_MAX_BUCKETS (1u << 20)

struct ss_record {
	char engine[SS_ENGINE_NAME_MAX]; /* NUL-terminated (short names) */
	/*
	 * A records line's engine string is kept whatever its length (SPEC
	 * 2.6): one of SS_ENGINE_NAME_MAX bytes or more is here (owned,
	 * NUL-terminated), else NULL. Read the name with ss_record_engine().
	 */
	char *engine_long;
	bool has_mean_acceptance_length;
	double mean_acceptance_length;
	double draft_acceptance_rate;    /* fraction */
	bool has_histogram;
	struct ss_vec_i64 histogram;      /* dense: index j = accepted drafts */
	int64_t num_accepted_draft_tokens;
	/*
	 * false only for the harness engines (SPEC 2.4, 12.5): neither file
	 * records drafted tokens, so num_draft_tokens is 0 and means nothing
	 * (no draft acceptance rate, no accepted per verified, no 7.1).
	 * ss_record_init() and ss_record_reset() set it true.
	 */
	bool has_num_draft_tokens;
	int64_t num_draft_tokens;
	bool has_steps;
	int64_t num_spec_steps;
	bool has_spec_tokens;
	int64_t num_spec_tokens;
	bool has_completion_tokens;
	int64_t completion_tokens;
	bool has_prompt_tokens;          /* SPEC 7.10 */
	int64_t prompt_tokens;
	bool has_reasoning_tokens;       /* SPEC 11.4: t of the `reasoning` key */
	int64_t reasoning_tokens;
	bool has_per_step_accepted;
	struct ss_vec_i64 per_step_accepted;
	bool has_per_step_drafted;
	struct ss_vec_i64 per_step_drafted;
	/*
	 * vLLM's acceptance_histogram_by_draft_length (SPEC 7.9), canonical:
	 * rows by ascending draft length d, each written as d then its d + 1
	 * counts (h_d[0..d]). Not cross-checked against the other fields.
	 */
	bool has_by_draft_length;
	struct ss_vec_i64 by_draft_length;
};

/*
 * Walk the rows of r->by_draft_length: *at starts at 0; each call gives the
 * next row's d and counts (d + 1 of them) and returns false past the last.
 */
static inline bool ss_record_bdl_next(const struct ss_record *r, size_t *at, int64_t *d,
				      const int64_t **counts)
{
	if (*at >= r->by_draft_length.len)
		return false;
	*d = r->by_draft_length.v[*at];
	*counts = &r->by_draft_length.v[*at + 1];
	*at += (size_t)*d + 2;
	return true;
}

static inline const char *ss_record_engine(const struct ss_record *r)
{
	return r->engine_long ? r->engine_long : r->engine;
}

void ss_record_init(struct ss_record *r);
void ss_record_reset(struct ss_record *r);
void ss_record_release(struct ss_record *r);

/*
 * Check the identities of SPEC 2.5 (and the ranges of 2.4). Returns true
 * when the record holds; otherwise writes a short reason into `why`
 * (`whylen` bytes, NUL-terminated) and returns false.
 */
bool ss_record_check(const struct ss_record *r, char *why, size_t whylen);

/*
 * The ratios an engine does not send, computed from the counts (SPEC 2.4:
 * a zero denominator gives 1.0 for the mean, 0.0 for the rate). The mean
 * is set only when the record has steps.
 */
void ss_record_compute_mean(struct ss_record *r);
void ss_record_compute_rate(struct ss_record *r);

/* The record's status once it passed ss_record_check: ok or zero_step. */
enum ss_status ss_record_status(const struct ss_record *r);

#endif
