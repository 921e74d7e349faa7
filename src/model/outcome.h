/*
 * outcome.h - what one request came to (SPEC 2.1): its status and reason,
 * the few numbers the aggregation keeps, and borrowed views from which the
 * report stage writes the enriched JSONL line (SPEC 4.4).
 *
 * The engines stage fills everything but `values`; the run computes the
 * metric values of an ok outcome afterwards (ss_outcome_values() in
 * metrics/values.h), so no stage reaches upward.
 *
 * Ownership: an outcome is a value (its reason and a short engine name are
 * held inline) that allocates nothing; its pointers are views borrowed from
 * the request's text and the processor's buffers, valid until the
 * processor takes its next request (engines/request.h): a struct
 * ss_outcome_arena (below) keeps those that outlive it.
 */
#ifndef SS_OUTCOME_H
#define SS_OUTCOME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/metric.h"
#include "model/record.h"
#include "model/timing.h"
#include "util/buf.h"

#define SS_REASON_MAX 160

/* Where a kept outcome's views lie in its arena (SIZE_MAX: none). */
struct ss_outcome_at {
	size_t hist, by_len, engine_long, input, model;
};

/*
 * A `--group-by meta.NAME` value (SPEC 7.3): what the line's metadata
 * object holds at its top-level key NAME (the last of a repeated key,
 * SPEC 1.2). An integer literal that fits 64 bits, a boolean or a string
 * (unescaped) is a value; anything else -- a float, null, an object, an
 * array, a key that is absent -- is null.
 */
#define SS_META_KEYS_MAX 16
enum ss_meta_type { SS_META_NULL = 0, SS_META_INT, SS_META_BOOL, SS_META_STR };
struct ss_meta_value {
	enum ss_meta_type type;
	bool b;          /* SS_META_BOOL */
	int64_t i;       /* SS_META_INT */
	const char *s;   /* SS_META_STR: its bytes (borrowed, not NUL-terminated) */
	size_t len;
};

/* What an ok record gives SPEC 7.9 (metrics/drafted.h). */
enum ss_drafted_state {
	SS_DR_NONE = 0,       /* it does not say what its steps drafted */
	SS_DR_POOLED,         /* `drafted` holds its steps by length */
	SS_DR_INCONSISTENT    /* left out of 7.9, counted */
};

struct ss_outcome {
	enum ss_status status;
	enum ss_phase phase;
	enum ss_kind kind;
	uint64_t line;
	char reason[SS_REASON_MAX];      /* empty for ok */
	char engine[SS_ENGINE_NAME_MAX]; /* ok and zero_step (short names) */
	struct ss_outcome_at kept;       /* private to struct ss_outcome_arena */
	const char *engine_long;         /* a longer name: borrowed, valid as `hist` */
	/* For ok records: what the aggregation needs. */
	bool has_steps;
	int64_t steps, accepted, drafted;
	bool no_drafted;     /* the record has no num_draft_tokens (SPEC 12.5): `drafted` is 0 */
	bool has_k;          /* num_spec_tokens (SPEC 7.1; set by ss_outcome_values) */
	int64_t k;
	bool has_completion; /* completion_tokens (SPEC 7.11, 7.12; set by ss_outcome_values) */
	int64_t completion_tokens;
	bool has_prompt; /* prompt_tokens (SPEC 7.11; set by ss_outcome_values) */
	int64_t prompt_tokens;
	/* SPEC 7.8's time: metadata.request_end_ns, else request_start_ns
	 * (integers in 0..2^63-1), any line kind; timed false: neither. */
	bool timed;
	int64_t time_ns;
	struct ss_req_values values;     /* set by ss_outcome_values() */
	/* SPEC 11.1, when the processor was asked for it (want_timing): a
	 * records or enriched line's metrics, a raw line's perf_ns. */
	struct ss_timing timing;
	/* SPEC 11.4: its input's AIPerf concurrency (an enriched line's
	 * source.concurrency) */
	bool has_concurrency;
	int64_t concurrency;
	const int64_t *hist; /* dense histogram, borrowed (see ss_process) */
	size_t hist_len;     /* 0 when the record has none */
	/* SPEC 7.9, when the run asks for it (metrics/drafted.h), borrowed like hist: */
	enum ss_drafted_state drafted_state;
	const int64_t *by_len;  /* steps by drafted and by accepted length, as pairs */
	size_t by_len_len;      /* numbers at by_len (metrics/drafted.h) */
	/* Borrowed views for the enriched JSONL, valid as `hist`: */
	const struct ss_record *record; /* ok and zero_step, else NULL */
	const char *metadata;           /* the line's `metadata` JSON text */
	size_t metadata_len;            /* 0: none */
	/* The meta.NAME values of the names the processor was asked for
	 * (engines/request.h), in their order, read from that metadata
	 * object in the line's walk: */
	const struct ss_meta_value *meta; /* NULL: none asked for, or no metadata */
	size_t nmeta;
	const char *metrics;            /* a records line's `metrics` object */
	size_t metrics_len;             /* 0: none */
	const char *model;              /* the model name (SPEC 7.3), unescaped */
	size_t model_len;               /* model NULL: none */
	/* An enriched line read back (SPEC 8.1), borrowed like the views above: */
	const char *input;              /* its source.input, unescaped; NULL: */
	size_t input_len;               /*   counted under the stream's name */
	/* (`line` and `kind` are then its source.line and source.kind) */
	const char *verbatim;           /* the line, written back unchanged */
	size_t verbatim_len;            /* verbatim NULL: the line is composed */
};

/*
 * Outcomes kept past the processor's next request (a batch's, in the run):
 * their views that outlive the line -- hist, by_len, engine_long, input
 * and model, whichever is not NULL -- copied into one arena. A view added
 * to the outcome that must live on is added here (model/outcome.c) alone.
 *
 * Ownership: the arena owns its bytes; restored views borrow them until
 * the arena's next reset or its release.
 */
struct ss_outcome_arena {
	struct ss_buf bytes;   /* the views' bytes, numbers 8-byte aligned */
};

void ss_outcome_arena_init(struct ss_outcome_arena *a);
void ss_outcome_arena_release(struct ss_outcome_arena *a);
/* Forget every kept outcome, keep the memory. */
void ss_outcome_arena_reset(struct ss_outcome_arena *a);
/*
 * Copy o's lasting views into the arena and set every view of o to NULL
 * (the others -- record, metadata, meta, metrics, verbatim -- die
 * with the line: a meta value is read, and its string copied, by the run's
 * group keys before the outcome is kept); the lengths stay. A view the caller does not want kept is set to
 * NULL before. false when out of memory.
 */
bool ss_outcome_arena_keep(struct ss_outcome_arena *a, struct ss_outcome *o);
/* Point the views that o kept (by ss_outcome_arena_keep on a) back into a. */
void ss_outcome_arena_restore(const struct ss_outcome_arena *a, struct ss_outcome *o);

/* The outcome's engine name, however long. */
static inline const char *ss_outcome_engine(const struct ss_outcome *o)
{
	return o->engine_long ? o->engine_long : o->engine;
}

#endif
