/*
 * server.h - the server's own counters (SPEC 10): snapshots and increments
 * of counters go in, the window of each family (10.3) comes out.
 *
 * A struct ss_server collects one run's server inputs, whatever their
 * shape: the exposition-text reader (server/expo.h) and the JSON shapes
 * feed it through the same calls,
 *
 *   ep = ss_server_endpoint(s, key, len);
 *   ss_server_begin(s, ep, source, flags);          one snapshot or increment
 *   ss_server_sample(s, name, labels, value) ...    each series
 *   ss_server_end(s, has_time, time_ns);
 *
 * and ss_server_finish() turns what it kept into struct ss_server_results
 * for the report layer: families in engine order with every field of
 * 10.4's JSON. Only the series of known families are kept (10.2), each
 * with its previous snapshot's value, in one hash table keyed by name and
 * label set: memory grows with the number of series, never with the
 * number of snapshots (intervals aside: SS_SERVER_MAX_INTERVALS).
 *
 * The caller owns every pointer it passes in; the results own their arrays
 * until ss_server_results_release(). One thread at a time per struct.
 */
#ifndef SS_SERVER_SERVER_H
#define SS_SERVER_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/positions.h"
#include "model/record.h"
#include "server/families.h"
#include "util/msg.h"

/*
 * Series kept in all (a hostile input cannot grow the table past it), and
 * endpoints (SPEC 10.5's AIPerf endpoints; every other input has one).
 * The memory budget (ss_server_set_budget) may stop either sooner.
 */
#define SS_SERVER_MAX_SERIES 100000
#define SS_SERVER_MAX_ENDPOINTS 10000
/* Bytes of a kept series' label set (names and values); a longer one is a bad sample. */
#define SS_SERVER_MAX_KEY 4096
/* Bytes of an endpoint's name (AIPerf's directory and endpoint_url). */
#define SS_SERVER_MAX_ENDPOINT_KEY 8192
/* Labels of one kept series. */
#define SS_SERVER_MAX_LABELS 64
/* Intervals kept per family and endpoint; past it, neighbours merge in pairs. */
#define SS_SERVER_MAX_INTERVALS 100000
/* Bad lines named in messages (all with -v); the rest are counted. */
#define SS_SERVER_BAD_SHOWN 5

struct ss_server;
struct ss_server_groups;

/* No series: ss_server_resolve() never gives this handle. */
#define SS_SERVER_NO_HANDLE UINT32_MAX

/* One label of a sample: the value unescaped. Borrowed for the call. */
struct ss_server_label {
	const char *name;
	size_t name_len;
	const char *value;
	size_t value_len;
};

/* ss_server_begin() flags. */
enum {
	SS_SNAP_INCREMENT = 1, /* counts of an interval, summed as they are */
	SS_SNAP_SPARSE = 2,    /* a series missing here keeps its value (Prometheus API results) */
	SS_SNAP_SLICE = 4      /* with INCREMENT: an interval's counts (AIPerf's timeslices), not the window's */
};

/* The start of the open SS_SNAP_SLICE (its end is ss_server_end()'s time). */
void ss_server_slice_start(struct ss_server *s, int64_t start_ns);

/* What became of a sample. */
enum ss_server_status {
	SS_SERVER_KEPT = 0,  /* a series of a family, its value recorded */
	SS_SERVER_IGNORED,   /* no family's, `_created`, or another tensor-parallel rank */
	SS_SERVER_BAD,       /* a bad sample: counted with the bad lines (reason given) */
	SS_SERVER_REPEAT,    /* the series already has a value in this snapshot: nothing done */
	SS_SERVER_NOMEM,
	SS_SERVER_NOVALUE    /* a new series whose value is no value (a NaN gauge): nothing made */
};

/* msg: where bad lines are told (NULL: nowhere). NULL when out of memory. */
struct ss_server *ss_server_new(struct ss_msg *msg);
void ss_server_free(struct ss_server *s);

/*
 * The bytes the struct's tables (series and their keys, endpoints, the
 * sums by position, intervals) may take, counted as they grow, slack of
 * their doubling included; 0 (the default) leaves only the counts' caps
 * above. Past it a new series or endpoint is refused (a bad sample or
 * line, and a message) and a family's intervals merge in pairs sooner.
 */
void ss_server_set_budget(struct ss_server *s, uint64_t bytes);

/*
 * The same, for a state that shares `bytes` with others (SPEC 5's one
 * memory bound: --group-by dir's directories): *pool counts what all of
 * them have taken; the caller owns it, zeroed, for as long as they live.
 */
void ss_server_share_budget(struct ss_server *s, uint64_t bytes, uint64_t *pool);

/* Whether a bound (series, endpoints, processes, intervals, the budget) was reached. */
bool ss_server_bounded(const struct ss_server *s);

/* The budget for a run whose record limit is max_record (README "Reliability"). */
static inline uint64_t ss_server_budget_for(uint64_t max_record)
{
	return max_record > ((uint64_t)16 << 20) ? max_record : (uint64_t)16 << 20;
}

/*
 * The index of the endpoint named by key[0..len) (SPEC 10.5: AIPerf's
 * input directory and endpoint_url; len 0 is the one unnamed endpoint of
 * every other input). UINT32_MAX when out of memory;
 * SS_SERVER_ENDPOINT_FULL when a new endpoint is refused (past
 * SS_SERVER_MAX_ENDPOINTS, the budget, or a name over
 * SS_SERVER_MAX_ENDPOINT_KEY; told once): the caller counts a bad line.
 */
#define SS_SERVER_ENDPOINT_FULL (UINT32_MAX - 1)
uint32_t ss_server_endpoint(struct ss_server *s, const char *key, size_t len);

/* Open a snapshot (or, with SS_SNAP_INCREMENT, an increment). false: out of memory. */
bool ss_server_begin(struct ss_server *s, uint32_t endpoint, enum ss_server_source src,
		     unsigned flags);

/*
 * One sample of the open snapshot: the series' name as written (a trailing
 * `_total` is taken off here) and labels, its value as text. *reason says
 * why a sample is bad (a static string).
 */
enum ss_server_status ss_server_sample(struct ss_server *s, const char *name, size_t name_len,
				    const struct ss_server_label *labels, size_t nlabels,
				    const char *value, size_t value_len, const char **reason);

/*
 * The same in two halves, for a reader that keeps the handle of each
 * series it has seen (the exposition reader does, per line of the page
 * before): ss_server_resolve() finds the series (*handle, with
 * SS_SERVER_KEPT) and ss_server_put() records its value. A handle stays valid
 * for the struct's life. Resolving needs no open snapshot.
 */
enum ss_server_status ss_server_resolve(struct ss_server *s, uint32_t endpoint,
				     enum ss_server_source src, const char *name, size_t name_len,
				     const struct ss_server_label *labels, size_t nlabels,
				     uint32_t *handle, const char **reason);
enum ss_server_status ss_server_put(struct ss_server *s, uint32_t handle, const char *value,
				 size_t value_len, const char **reason);

/*
 * ss_server_resolve() for a sample whose value is at hand: a series not
 * yet kept is made only when the value is one (a counter's count, a
 * gauge's number); else SS_SERVER_BAD with the value's reason, or
 * SS_SERVER_NOVALUE for a NaN gauge, and nothing is made (SPEC 5: a bad line
 * adds nothing but its count). value NULL: not checked.
 */
enum ss_server_status ss_server_resolve_value(struct ss_server *s, uint32_t endpoint,
					   enum ss_server_source src, const char *name,
					   size_t name_len, const struct ss_server_label *labels,
					   size_t nlabels, const char *value, size_t value_len,
					   uint32_t *handle, const char **reason);

/*
 * The process the open snapshot belongs to (SPEC 10.3), said before it is
 * closed; without it, the unnamed process of its endpoint. The strings
 * are copied.
 */
struct ss_server_proc_info {
	uint8_t space;             /* 0: pages and AIPerf's files; 1: Prometheus API results */
	const char *name;          /* `# endpoint: NAME` or AIPerf's endpoint_url; NULL: none */
	size_t name_len;
	bool has_start;            /* process_start_time_seconds, Unix seconds */
	double start_s;
	const char *input;         /* the input's name: shown for a process known by its start */
};
void ss_server_set_process(struct ss_server *s, const struct ss_server_proc_info *p);

/* Close the open snapshot; its time in Unix nanoseconds when known. */
void ss_server_end(struct ss_server *s, bool has_time, int64_t time_ns);

/*
 * A bad line or sample at place:line (place: the input's name), counted
 * in the results' bad_lines; the first SS_SERVER_BAD_SHOWN are told
 * (every one with -v), the rest summed up by ss_server_finish().
 */
void ss_server_bad(struct ss_server *s, const char *place, uint64_t line, const char *what,
		   const char *reason);

/*
 * A bound of README's "Reliability" was hit at place:line (place NULL:
 * none): `what` (a static string) is told once per run as a warning.
 */
void ss_server_bound(struct ss_server *s, const char *place, uint64_t line, const char *what);

/* The per-request sums of the main results for one engine (reconciliation, 10.3). */
struct ss_server_requests {
	bool present;      /* ok or zero_step records of the engine exist */
	unsigned __int128 steps, accepted, drafted; /* steps over the records that have them */
};

struct ss_server_interval {
	uint32_t process; /* index into the family's process_names */
	bool has_start, has_end;
	int64_t start_ns, end_ns;
	unsigned __int128 steps, draft_tokens;
	__int128 accepted_tokens; /* negative only for an estimate */
	bool has_acceptance_length, has_rate;
	double acceptance_length, draft_acceptance_rate;
};

struct ss_server_gauge {
	const char *name; /* the table's (static) */
	double value;
};

struct ss_server_reconciliation {
	unsigned __int128 steps, accepted, drafted; /* the requests' sums */
	bool has_steps_ratio, has_accepted_ratio;
	double steps_ratio, accepted_ratio;
	bool steps_off, accepted_off; /* a ratio off 1 by more than 1% (the note's cue) */
};

/* A batch-size bucket of an SGLang log family (SPEC 12.3). */
struct ss_server_logbucket {
	uint64_t running_req, lines;
	double mean;
};

/* An SGLang log line with a time: its interval (SPEC 12.3). */
struct ss_server_loginterval {
	uint32_t process; /* index into the family's process_names */
	bool has_start, has_end;
	int64_t start_ns, end_ns;
	double accept_len;
	uint64_t running_req;
};

/* What a log family (`"counters": "log"`, SPEC 12.2-12.3) says beyond 10.4's fields. */
struct ss_server_logfam {
	uint64_t lines, processes, unknown_items;
	uint64_t unpinned;          /* vLLM: lines with D > 0 whose steps are unknown */
	bool assumes_full;          /* vLLM: steps stand, "assuming full-length drafts" */
	bool has_accept_len;        /* SGLang: the printed acceptance length as a series */
	uint64_t al_lines;
	double mean, weighted_mean, min, max, last;
	struct ss_server_logbucket *buckets;
	size_t nbuckets;
	struct ss_server_loginterval *iv;
	size_t niv;
};

/* One family, every field of SPEC 10.4's JSON; has_* flags mark the absent parts. */
/* A process whose last intervals had no verify steps (SPEC 10.3, "Speculation that stops"). */
struct ss_server_idle {
	uint32_t process; /* as an interval's */
	bool has_from;
	int64_t from_ns;
};

#define SS_SERVER_MAX_MISSING 4

struct ss_server_family {
	const struct ss_family_row *row; /* engine, counters ("prometheus", ...) */
	uint64_t snapshots, series, resets;
	uint64_t processes, started_in_window;
	bool since_start, inexact, estimated;
	bool unordered;       /* a process's snapshots could not be ordered by its counters */
	bool untimed_starts;  /* more than one process, not all timed: the note on starts */
	const char *missing[SS_SERVER_MAX_MISSING]; /* the counters the row needs without a series (static) */
	size_t nmissing;
	char **process_names; /* nprocess_names, owned (NULL: the unnamed process): what intervals and idle name */
	size_t nprocess_names;
	struct ss_server_idle *idle;
	size_t nidle;
	bool has_start, has_end; /* window.start_ns, window.end_ns (null when false) */
	int64_t start_ns, end_ns;
	unsigned __int128 steps;
	bool has_draft_tokens;
	unsigned __int128 draft_tokens;
	__int128 accepted_tokens;
	bool has_acceptance_length, has_rate;
	double acceptance_length, draft_acceptance_rate;
	/* Position i + 1 at [i], the analysis's row (analysis/positions.h):
	 * accepted ΔP_i, drafted ΔDP_i (else ΔS), rate accepted / drafted,
	 * conditional ΔP_i / ΔP_{i-1}. npositions; none when 0. */
	struct ss_drafted_row *positions;
	size_t npositions;
	bool has_consistent, consistent;
	unsigned __int128 *histogram; /* histogram[0..k], k = npositions; NULL when not rebuilt */
	/* 7.1's shorter-draft table on the histogram (analysis/positions.h). */
	struct ss_whatif_row *what_if; /* k rows when histogram */
	bool has_cost;
	double draft_cost;
	uint32_t suggested_k;
	struct ss_server_gauge gauges[SS_FAMILY_GAUGES];
	size_t ngauges;
	struct ss_server_interval *intervals;
	size_t nintervals;
	bool has_reconciliation;
	struct ss_server_reconciliation reconciliation;
	struct ss_server_logfam *log;  /* a log family's own fields; NULL for the others */
};

struct ss_server_results {
	uint64_t endpoints, snapshots, bad_lines;
	struct ss_server_family *families; /* nfamilies, in table order */
	size_t nfamilies;
	/* --group-by dir (SPEC 10.7; server/bydir.h): set by the caller, never
	 * by ss_server_finish(); borrowed, NULL: none */
	const struct ss_server_groups *groups;
};

/*
 * The results of everything fed so far (an open snapshot is closed, with
 * no time). req[e] is the main results' sums for engine e (NULL: none);
 * with has_cost, the draft cost of 7.1's speedups. false when out of
 * memory (*out is then empty).
 */
bool ss_server_finish(struct ss_server *s, const struct ss_server_requests req[SS_ENGINE_COUNT],
		      bool has_cost, double cost, struct ss_server_results *out);
void ss_server_results_release(struct ss_server_results *r);

#endif
