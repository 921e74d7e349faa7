/*
 * analyze.h - SPEC 7 over a finished aggregate: acceptance by position,
 * bootstrap intervals, the comparison of groups with a baseline, the
 * windows over time (7.8), and the values --expect gates read. The
 * outliers of 7.11 are the aggregate's own (ss_agg.outliers, sorted by
 * ss_agg_finish), read by the reports directly.
 *
 * Everything is computed from what the aggregate kept (ss_agg_keep) for
 * the main results and each group, never from the input again, and does
 * not depend on the thread count: each resample has its own stream (g, b),
 * g = 0 for the main results and 1..G for the groups in their order.
 *
 * Ownership: struct ss_analysis_opts owns its expectations and group keys
 * (ss_analysis_opts_release); struct ss_analysis owns its per-k rows, its
 * resample rows, its group array and its windows until ss_analysis_release(), and
 * borrows the options it was run with (they must outlive it) and nothing
 * of the aggregate.
 */
#ifndef SS_ANALYZE_H
#define SS_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/bootstrap.h"
#include "analysis/expect.h"
#include "analysis/groupkey.h"
#include "analysis/positions.h"
#include "analysis/speedup.h"
#include "analysis/timestats.h"
#include "analysis/windows.h"
#include "metrics/aggregate.h"

struct ss_analysis_opts {
	bool positions;           /* --positions (or --draft-cost) */
	bool has_cost;            /* --draft-cost */
	double cost;
	bool ci;                  /* --ci */
	double level;             /* (0, 100) */
	uint32_t resamples;       /* --bootstrap, 1..10^6 */
	uint64_t seed;            /* --seed */
	struct ss_group_spec group_by; /* n = 0: no groups */
	const char *compare;      /* --compare VALUE, NULL: none */
	bool definitions;         /* --definitions (7.12) */
	bool speedup;             /* --speedup (11.2, 11.3) */
	struct ss_expect *expects; /* owned */
	size_t nexpects, expects_cap;
	bool windows;             /* --windows DURATION (7.8) */
	int64_t window_ns;        /* D in ns */
	char window_unit;         /* 's', 'm' or 'h', as given */
	const char *window_text;  /* the DURATION as given; borrowed */
	size_t outliers;          /* --outliers N (7.11), 0: none */
	unsigned threads;         /* for the bootstrap */
	size_t rows_budget;       /* bytes of resample rows at a time (64 MiB) */
};

void ss_analysis_opts_init(struct ss_analysis_opts *o);
void ss_analysis_opts_release(struct ss_analysis_opts *o);
/* Whether the aggregate must pool histograms per k (7.1 or a positionN gate). */
bool ss_analysis_needs_positions(const struct ss_analysis_opts *o);
/* Whether it must count all-rejected and all-accepted records (7.11 or its gates). */
bool ss_analysis_needs_counts(const struct ss_analysis_opts *o);

/* 7.4: one statistic of a group against the baseline. */
struct ss_delta {
	bool has;          /* both sides have the value */
	double delta;
	bool has_ci;       /* with --ci, some resample defined both */
	double lo, hi;
	bool significant;  /* the interval excludes 0 */
};

/* What SPEC 7 adds to one result set (the main results or a group). */
struct ss_set_analysis {
	struct ss_pos_result *pos; /* one per pooled k, ascending; owned */
	size_t npos;
	struct ss_drafted_result drafted; /* 7.9 */
	double *rows;              /* the baseline's resamples (B x SS_BS_COUNT); owned */
	bool has_ci[SS_BS_COUNT];
	double lo[SS_BS_COUNT], hi[SS_BS_COUNT];
	struct ss_delta vs[SS_BS_COUNT]; /* --compare, groups but the baseline */
	bool has_timing;           /* --speedup (11.2) */
	struct ss_timing_stats timing;
	bool has_speedup;          /* --speedup --compare, groups but the baseline (11.3) */
	struct ss_speedup speedup;
};

/* SPEC 7.12: the definitions of acceptance length, in this order. */
enum ss_def {
	SS_DEF_REQUEST_MEAN = 0,
	SS_DEF_STEP_POOLED,
	SS_DEF_OUTPUT_WEIGHTED,
	SS_DEF_WITH_PREFILL,
	SS_DEF_COUNT
};
/* "request_mean", "step_pooled", "output_weighted", "with_prefill" */
extern const char *const ss_def_names[SS_DEF_COUNT];

struct ss_definition {
	bool has;          /* defined (else null) */
	double value;
	uint64_t requests; /* the records it used */
};

struct ss_analysis {
	const struct ss_analysis_opts *opts;
	bool any;                   /* some part of 7 is in the reports */
	struct ss_set_analysis main;
	struct ss_set_analysis *group; /* by group id (struct ss_agg) */
	size_t ngroups;
	bool has_baseline;
	size_t baseline;            /* group id: the first baseline in key order */
	size_t *partner;            /* by group id, with --compare: its baseline (itself
				     * for a baseline, SS_NO_PARTNER: none; 7.4); owned */
	struct ss_windows windows;  /* --windows: the main results' */
	struct ss_definition defs[SS_DEF_COUNT]; /* with opts->definitions */
};

#define SS_NO_PARTNER ((size_t)-1)

/*
 * With --compare: whether group g is a baseline (its first key the one
 * --compare names; with one key the one group), and the baseline group g
 * is compared with (false for a baseline and a group with no partner).
 */
bool ss_analysis_is_baseline(const struct ss_analysis *an, size_t g);
bool ss_analysis_partner(const struct ss_analysis *an, size_t g, size_t *base);

/* The metric of each bootstrap statistic, and the reverse (-1: none). */
extern const int ss_boot_metric[SS_BS_COUNT];

enum ss_an_status { SS_AN_OK = 0, SS_AN_NOMEM, SS_AN_NO_BASELINE, SS_AN_TOO_MANY_WINDOWS };

/*
 * Compute everything `o` asks for from the finished aggregate `a` (which
 * must outlive `an`). SS_AN_NO_BASELINE: --compare names no group (the
 * caller lists them; a usage error). SS_AN_TOO_MANY_WINDOWS: --windows
 * makes more than SS_WINDOWS_MAX windows (a usage error; an->windows
 * says how many, and the smallest duration that fits).
 */
enum ss_an_status ss_analysis_run(struct ss_analysis *an, const struct ss_agg *a,
				  const struct ss_analysis_opts *o);
void ss_analysis_release(struct ss_analysis *an);
/*
 * SPEC 11.2-11.3 (speedup_run.c, called by ss_analysis_run before the
 * positions): with --speedup each set's timing, and with a baseline each
 * group's speedup. false when out of memory.
 */
bool ss_analysis_speedup(struct ss_analysis *an, const struct ss_agg *a,
			 const struct ss_analysis_opts *o);

/* The value a --expect gate compares: false (has) when it is absent. */
void ss_analysis_expect_value(const struct ss_analysis *an, const struct ss_agg *a,
			      const struct ss_expect *e, bool *has, double *v);

#endif
