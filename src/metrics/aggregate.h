/*
 * aggregate.h - everything kept to the end of a run: the accounting of
 * every request, and per phase the metric values (a few doubles per ok
 * request, in input order), the totals and the pooled histogram.
 *
 * Outcomes are added in input order by one thread; ss_agg_finish() then
 * computes the statistics (SPEC 3.1) that the reports print.
 *
 * Ownership: the aggregate owns everything it keeps (the values, the
 * histograms, the engines' and inputs' names, copied when first seen; the
 * groups and their key strings) until ss_agg_release(); an outcome and a
 * key tuple are borrowed only for the call that adds them. What the
 * reports read (results, inputs, engines, groups) is borrowed from it.
 */
#ifndef SS_AGGREGATE_H
#define SS_AGGREGATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrics/defs.h"
#include "metrics/drafted.h"
#include "metrics/groups.h"
#include "metrics/outliers.h"
#include "metrics/poshist.h"
#include "metrics/samples.h"
#include "model/outcome.h"
#include "metrics/stats.h"
#include "metrics/timekeep.h"
#include "metrics/timeline.h"
#include "metrics/values.h"
#include "util/grow.h"

enum ss_phase_mode { SS_PHASES_PROFILING = 0, SS_PHASES_WARMUP, SS_PHASES_ALL };

/* The results of one set of phases: the main results, or warmup_metrics. */
struct ss_results {
	struct ss_vec_f64 values[SS_M_COUNT];  /* per-request metrics only */
	double sums[SS_M_COUNT];               /* of each values[m], in input order */
	__int128 sum_steps, sum_accepted, sum_drafted;
	uint64_t ok_with_steps;   /* ok records that have a step count */
	__int128 sum_accepted_with_steps;
	/* over the ok records that have drafted tokens (SPEC 12.5, 13) */
	uint64_t ok_with_drafted;
	__int128 sum_accepted_with_drafted;
	uint64_t ok;                        /* ok records of the set */
	uint64_t zero_step;
	__int128 *hist;                     /* pooled, dense */
	size_t hist_len;                    /* allocated buckets (some may be 0) */
	size_t hist_cap;
	/* Kept for SPEC 7 when asked (ss_agg_keep), main results and groups only: */
	bool keep_samples, keep_positions;
	bool keep_defs;                     /* the main results only (7.12) */
	struct ss_defs defs;
	struct ss_samples samples;          /* one per ok record, input order */
	struct ss_positions positions;      /* histograms pooled per k */
	struct ss_drafted drafted;          /* steps by drafted length (7.9) */
	bool keep_timing;                   /* SPEC 11 (--speedup), main results and groups */
	struct ss_timekeep timing;          /* ok, zero_step and no_stats requests' times */
	/* Filled by ss_agg_finish(): */
	bool has[SS_M_COUNT];
	struct ss_stats stats[SS_M_COUNT];  /* run-level metrics: only .avg */
};

/* One group of --group-by (SPEC 7.3): its own accounting and results. */
struct ss_group {
	uint64_t total;
	uint64_t status[SS_ST_COUNT];
	struct ss_results res;              /* from the main results' phases */
};

struct ss_engine_count {
	char *name;                 /* owned; any length (SPEC 2.6) */
	uint64_t count;
};

/* The main results' sums for one built-in engine (SPEC 10.3's reconciliation). */
struct ss_engine_sums {
	bool present;                        /* ok or zero_step records of it */
	__int128 steps, accepted, drafted;   /* steps: over the ok records that have them */
};

struct ss_input_info {
	char *name;
	unsigned kinds;      /* bit (1 << enum ss_kind) per kind seen */
	uint64_t requests;
	bool failed;         /* the input could not be read (wholly or partly) */
	bool empty_stream;   /* listed only because a stream of that name held nothing */
	bool server;         /* it held snapshots of the server's counters (SPEC 10.1) */
	uint64_t snapshots;  /* how many (increments included) */
	bool log;            /* a server log (SPEC 12.1): its lines' counts below */
	uint64_t log_lines, bad_lines, refused_lines;
	unsigned char look;  /* what its first line looks like (io/looks.h), set by the run */
	bool from_parts;     /* listed by enriched lines (a shard's partial results, SPEC 8.1) */
};

struct ss_agg {
	enum ss_phase_mode mode;
	struct ss_results main;
	struct ss_results warmup;   /* only in SS_PHASES_PROFILING mode */
	uint64_t total;
	uint64_t status[SS_ST_COUNT];
	uint64_t nostats[SS_NOSTATS_COUNT]; /* no_stats requests by cause */
	uint64_t phases[SS_PHASE_COUNT];
	struct ss_engine_count *engines; /* sorted by name at finish */
	size_t nengines, engines_cap;
	struct ss_input_info *inputs;
	size_t ninputs, inputs_cap;
	struct ss_engine_sums by_engine[SS_ENGINE_COUNT]; /* main results, built-in engines */
	/* Groups (SPEC 7.3), when ss_agg_keep() was given keys: */
	struct ss_group_table groups;       /* key values -> group id */
	struct ss_group *group;             /* by id, groups.n of them */
	size_t group_cap;
	size_t *group_order;                /* ss_agg_finish(): ids in key order */
	/* SPEC 7.8 and 7.11, of the main results only (ss_agg_keep_main): */
	struct ss_timeline timeline;        /* the timed points, when kept */
	struct ss_outliers outliers;        /* the counts and lists, when kept */
	bool keep_counts;
	bool timing_draws;                  /* groups keep their timing's draws */
	unsigned threads;                   /* ss_agg_finish() may use (>= 1) */
	/* private: the stream being read, and inputs by name (enriched lines) */
	char *stream_name;
	size_t stream_entry;        /* index in inputs; SIZE_MAX: not listed yet */
	uint64_t stream_seen;       /* requests of the stream, enriched ones too */
	bool stream_failed;
	bool read_enriched;         /* some request was counted by its source.input */
	size_t *by_name;            /* hash table of entry index + 1 (0: free) */
	size_t by_name_cap;         /* a power of two, or 0 */
	size_t last_named;          /* the entry of the last named request */
};

void ss_agg_init(struct ss_agg *a, enum ss_phase_mode mode);
void ss_agg_release(struct ss_agg *a);
/* How many threads ss_agg_finish() may compute statistics on (default 1;
 * it uses at most two, and only for large runs). */
void ss_agg_set_threads(struct ss_agg *a, unsigned threads);
/*
 * Keep what SPEC 7 reads, for the main results and every group: with
 * `samples`, each ok record's bootstrap sample (7.2); with `positions`,
 * histograms pooled per k (7.1); with nkeys > 0, a group per distinct
 * tuple of nkeys key values (7.3, outcomes then come through
 * ss_agg_add_keyed). Call before the first outcome.
 */
void ss_agg_keep(struct ss_agg *a, bool samples, bool positions, size_t nkeys);
/*
 * Keep the timing of SPEC 11 (--speedup) for the main results and every
 * group: the times of the requests given to ss_agg_add_timing(), and
 * whether the ok records share one num_spec_tokens. With `draws`, every
 * group keeps its draw records too, what 7.2's resamples of 11.3 read
 * (--compare); the main results are never resampled. Call before the
 * first outcome.
 */
void ss_agg_keep_timing(struct ss_agg *a, bool draws);
/* Keep the sums of SPEC 7.12's definitions for the main results. */
void ss_agg_keep_definitions(struct ss_agg *a);
/*
 * Keep what SPEC 7.8 and 7.11 read of the main results: with `windows`,
 * the time and counts of every timed ok record with steps; with
 * outliers > 0 (at most SS_OUTLIERS_MAX), that many lowest and highest
 * records (their input, line and model; the outcome's model must then be
 * set when it is added); with `counts` (or outliers > 0), the counts of
 * records whose drafts were all rejected or all accepted. Call before the
 * first outcome; false when out of memory.
 */
bool ss_agg_keep_main(struct ss_agg *a, bool windows, size_t outliers, bool counts);
/*
 * Start a new input stream; its requests follow. The stream is listed in
 * `inputs` at its first request counted under its own name, or when it ends
 * (the next ss_agg_begin_input() or ss_agg_finish()) with no request at all.
 * false when out of memory.
 */
bool ss_agg_begin_input(struct ss_agg *a, const char *name);
/*
 * The current input held `snapshots` snapshots of the server's counters
 * (SPEC 10.1): it is listed now, with kind `scrape` (or `mixed` beside
 * requests) and its count. false when out of memory.
 */
bool ss_agg_input_snapshots(struct ss_agg *a, uint64_t snapshots);
/* The current input was a server log (SPEC 12.1, 13): its lines' counts. */
/*
 * SPEC 12.6 with 8.1: whether the current stream is a log whose requests
 * the partial results read before it (enriched lines naming it, kind
 * `log`) already brought; if so its counts join that entry, and its
 * llama.cpp task blocks must not be added again (the merge run reads the
 * logs for their families and counts).
 */
bool ss_agg_stream_in_parts(struct ss_agg *a);

bool ss_agg_input_log(struct ss_agg *a, uint64_t log_lines, uint64_t bad_lines,
		      uint64_t refused_lines);
/* What the current input's first line looks like (io/looks.h's enum ss_look): kept
 * once the input is listed, for SPEC 5's message about an input of no request. */
void ss_agg_input_look(struct ss_agg *a, unsigned look);
/* Mark the current input as failed (it could not be read to its end). */
void ss_agg_fail_input(struct ss_agg *a);
/*
 * Add one request's outcome. It is counted under o->input (o->input_len
 * bytes) when that is set: an enriched line read back (SPEC 8.1) counts
 * under its source.input, listed in order of first appearance; else under
 * the current stream (outcomes added before any ss_agg_begin_input() are
 * counted in the run but in no input). Once a request was counted by its
 * source.input, streams that held no request at all (enriched files
 * without a line) are not listed. Uses o->status, phase, kind, engine and,
 * for ok outcomes, has_steps, steps, accepted, drafted, values and
 * hist/hist_len, and drafted_state/by_len (SPEC 7.9) when positions are
 * kept; o->record is not read. false when out of memory.
 */
bool ss_agg_add(struct ss_agg *a, const struct ss_outcome *o);
/*
 * ss_agg_add(), and the outcome also goes to the group of `key` (nkeys
 * values; strings borrowed): its accounting, and its results when the
 * outcome's phase feeds the main results.
 */
bool ss_agg_add_keyed(struct ss_agg *a, const struct ss_outcome *o, const struct ss_kv *key);
/*
 * The timing (SPEC 11.1) of a request already added (ss_agg_add or, with
 * the same key, ss_agg_add_keyed): kept for the main results and its
 * group when timing is kept, the request is ok, zero_step or no_stats,
 * and its phase feeds the main results. `key` is NULL without groups.
 * false when out of memory.
 */
bool ss_agg_add_timing(struct ss_agg *a, const struct ss_outcome *o, const struct ss_timing *t,
		       const struct ss_kv *key);
/*
 * Compute statistics (and sort the engines and the groups); false when
 * out of memory.
 * May be called again after more outcomes were added.
 */
bool ss_agg_finish(struct ss_agg *a);
/* Whether a result set has at least one metric (after ss_agg_finish). */
bool ss_results_any(const struct ss_results *r);
/* The kind name of an input: "raw", ..., "mixed" or "unknown". */
const char *ss_input_kind_name(const struct ss_input_info *in);

#endif
