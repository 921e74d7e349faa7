/*
 * families.h - SPEC 10.2's table of server counter families, as data.
 *
 * A family is one row: the engine, where its numbers come from (Prometheus
 * names, TensorRT-LLM iteration statistics, SGLang's server info), the name
 * of each counter by its role, which label separates positions, which
 * series are left out, how steps and accepted tokens are derived, and its
 * gauges. A renamed counter or a new engine is a row in families.c, not
 * code. The table is static: nothing here is allocated or freed.
 */
#ifndef SS_SERVER_FAMILIES_H
#define SS_SERVER_FAMILIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/record.h"

/* Where a sample's name comes from; a name is looked up among its rows only. */
enum ss_server_source {
	SS_SRC_PROMETHEUS = 0, /* exposition text, Prometheus API results, AIPerf's files */
	SS_SRC_ITERATIONS,     /* TensorRT-LLM iteration statistics */
	SS_SRC_SERVER_INFO,    /* SGLang get_server_info */
	SS_SRC_LOG,            /* a server log's lines (SPEC 12.2, 12.3): no named counters */
	SS_SRC_COUNT
};

/* What a counter counts; the scalar roles first, then the two by position. */
enum ss_role {
	SS_ROLE_STEPS = 0,
	SS_ROLE_DRAFTED,
	SS_ROLE_ACCEPTED,
	SS_ROLE_GEN_TOKENS,   /* SGLang: generated tokens */
	SS_ROLE_REQUESTS,     /* SGLang: requests */
	SS_ROLE_ACCEPT_TOTAL, /* SGLang server info: accepted tokens, bonus included */
	SS_ROLE_SCALARS,      /* the number of scalar roles */
	SS_ROLE_POS_ACCEPTED = SS_ROLE_SCALARS, /* P_i: steps that accepted >= i */
	SS_ROLE_POS_DRAFTED,  /* DP_i: steps that drafted position i */
	SS_ROLE_COUNTERS,     /* the number of counter roles */
	SS_ROLE_GAUGE = SS_ROLE_COUNTERS
};

/* How a row's steps S are found. */
enum ss_steps_from {
	SS_STEPS_COUNTER = 0, /* the steps counter */
	SS_STEPS_DRAFTED_AT_1 /* DP_1: every verify step drafts position 1 */
};

/* How a row's accepted tokens A are found. */
enum ss_accepted_from {
	SS_ACC_COUNTER = 0, /* the accepted counter */
	SS_ACC_TOKENS_ESTIMATE, /* generated - requests - steps (SGLang) */
	SS_ACC_TOTAL_LESS_STEPS /* accept total - steps (the bonus token out) */
};

#define SS_FAMILY_GAUGES 2

struct ss_family_row {
	enum ss_engine engine;
	enum ss_server_source source;
	const char *counters;                  /* the JSON "counters": prometheus, iterations, server_info */
	const char *names[SS_ROLE_COUNTERS];   /* by role, without `_total`; NULL: the row has none */
	const char *position_label;            /* of the two position roles */
	const char *only_label, *only_value;   /* series whose only_label is another value are left out */
	enum ss_steps_from steps_from;
	enum ss_accepted_from accepted_from;
	bool estimated;                        /* A is an estimate (SPEC 10.3) */
	const char *gauges[SS_FAMILY_GAUGES];  /* NULL-ended */
};

/* The rows, in output order: engine order, then 10.2's order within one engine. */
extern const struct ss_family_row ss_family_rows[];
extern const size_t ss_family_count;

/* What a name is: its row and its role (SS_ROLE_GAUGE with the gauge's index). */
struct ss_family_match {
	uint16_t row;
	uint8_t role;
	uint8_t gauge;
};

/*
 * Look a name up among the rows of `src`, as written (the caller has taken
 * one trailing `_total` off). false when no row has it.
 */
bool ss_family_lookup(enum ss_server_source src, const char *name, size_t len,
		      struct ss_family_match *m);

/* Whether the row counts drafted tokens D (its JSON always has draft_tokens). */
static inline bool ss_family_has_drafted(const struct ss_family_row *r)
{
	return r->names[SS_ROLE_DRAFTED] != NULL;
}

/*
 * A row's steps S, drafted D and accepted A from the sums of its scalar
 * roles v[SS_ROLE_SCALARS] and DP_1 (SPEC 10.2's derivations). A is
 * negative only for an estimate that went below zero.
 */
void ss_family_derive(const struct ss_family_row *row, const unsigned __int128 *v,
		      unsigned __int128 dp1, unsigned __int128 *S, unsigned __int128 *D,
		      __int128 *A);

#endif
