/*
 * positions.h - acceptance by draft position and the shorter-draft table
 * (SPEC 7.1), from the histograms the aggregate pools per draft length k
 * (metrics/poshist.h). ss_pos_compute() derives one k's rows; every ratio
 * is one division of exact integer sums (util/ratio.h).
 *
 * ss_drafted_compute() derives SPEC 7.9's rows from the steps pooled by
 * drafted length (metrics/drafted.h).
 *
 * Ownership: a struct ss_pos_result owns its two row arrays until
 * ss_pos_result_release(), a struct ss_drafted_result its rows until
 * ss_drafted_result_release(); neither borrows from the pools.
 */
#ifndef SS_POSITIONS_H
#define SS_POSITIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metrics/drafted.h"
#include "metrics/poshist.h"

struct ss_pos_row {
	unsigned __int128 accepted; /* S_i */
	double rate;                /* S_i / S_0 */
	bool has_conditional;       /* S_{i-1} > 0 */
	double conditional;         /* S_i / S_{i-1} */
};

struct ss_whatif_row {
	double acceptance_length;     /* τ(k') = 1 + A(k') / S_0 */
	double draft_acceptance_rate; /* A(k') / (k' S_0) × 100 */
	bool has_speedup;             /* a draft cost, and 1 + C k' > 0 */
	double speedup;               /* τ(k') / (1 + C k'), with a draft cost */
};

/*
 * Where the draft cost of the what-if speedups comes from (SPEC 11.3's
 * `draft_cost_source`): --draft-cost ("given"), or the cost a group's
 * measured speedup implies ("measured", analysis/speedup.h).
 */
enum ss_cost_source { SS_COST_NONE = 0, SS_COST_GIVEN, SS_COST_MEASURED };

/* "given", "measured" (NULL for none). */
const char *ss_cost_source_name(enum ss_cost_source s);

/* The rows of one k; pos[i-1] is position i, what_if[k'-1] is draft length k'. */
struct ss_pos_result {
	uint32_t k;
	uint64_t requests;
	unsigned __int128 steps;  /* S_0 */
	bool defined;             /* S_0 > 0: the ratios below exist */
	double acceptance_length; /* 1 + Σ S_i / S_0 */
	struct ss_pos_row *pos;   /* k rows, owned */
	struct ss_whatif_row *what_if; /* k rows, owned */
	bool has_cost;
	enum ss_cost_source cost_source; /* SS_COST_NONE when !has_cost */
	double draft_cost;
	uint32_t suggested_k;     /* 0 when no speedup exceeds 1.0 */
};

/* SPEC 7.9: position i of the steps that said what they drafted. */
struct ss_drafted_row {
	unsigned __int128 drafted;  /* D_i: steps that drafted position i */
	unsigned __int128 accepted; /* S_i: steps that accepted at least i */
	bool has_rate;              /* D_i > 0 */
	double rate;                /* S_i / D_i */
	bool has_conditional;       /* S_{i-1} > 0 */
	double conditional;         /* S_i / S_{i-1} */
};

struct ss_drafted_result {
	bool present;               /* some record was pooled */
	uint64_t requests;
	unsigned __int128 steps;    /* S_0 */
	struct ss_drafted_row *rows; /* positions 1..n, owned */
	size_t n;                   /* up to the largest i with D_i > 0 */
};

/* The rows of a pool (metrics/drafted.h); false when out of memory. */
bool ss_drafted_compute(const struct ss_drafted *p, struct ss_drafted_result *out);
void ss_drafted_result_release(struct ss_drafted_result *r);

/*
 * Compute the rows of `pk`; with has_cost, the speedups at draft cost
 * `cost` (>= 0) and the suggested k. false when out of memory.
 */
bool ss_pos_compute(const struct ss_pos_k *pk, bool has_cost, double cost,
		    struct ss_pos_result *out);
/*
 * The same with the cost's source: SS_COST_NONE computes no speedup. A
 * measured cost may be negative (11.3): a draft length k' with 1 + C k'
 * <= 0 then has no speedup (has_speedup false) and is never suggested.
 */
bool ss_pos_compute_cost(const struct ss_pos_k *pk, enum ss_cost_source source, double cost,
			 struct ss_pos_result *out);
void ss_pos_result_release(struct ss_pos_result *r);

#endif
