/*
 * poshist.h - histograms pooled per draft length k, for acceptance by
 * position (SPEC 7.1; the rows are computed by analysis/positions.h).
 *
 * struct ss_positions collects the ok records of one result set: each is
 * either pooled under its k or counted under the first exclusion rule it
 * breaks (no histogram, no k, k above SS_POS_MAX_K, a histogram key above
 * k). Counting only: the order records arrive in does not matter.
 *
 * Ownership: struct ss_positions owns its per-k histograms until
 * ss_positions_release(); the histogram given to ss_positions_add() is
 * only read.
 */
#ifndef SS_POSHIST_H
#define SS_POSHIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SS_POS_MAX_K 4096

/* Why a record is not pooled, in the order the rules are checked. */
enum ss_pos_excl {
	SS_PX_NO_HISTOGRAM = 0,
	SS_PX_NO_K,
	SS_PX_K_TOO_LARGE,
	SS_PX_KEY_ABOVE_K,
	SS_PX_COUNT
};

/* The JSON names: "no_histogram", "no_k", "k_too_large", "key_above_k". */
extern const char *const ss_pos_excl_names[SS_PX_COUNT];

/* The pooled histogram of the records of one k. */
struct ss_pos_k {
	uint32_t k;
	uint64_t requests;
	unsigned __int128 *h; /* h[0..k], owned */
};

struct ss_positions {
	struct ss_pos_k *ks; /* ascending k, owned */
	size_t nk, cap;
	uint64_t excluded[SS_PX_COUNT];
};

void ss_positions_init(struct ss_positions *p);
void ss_positions_release(struct ss_positions *p);

/*
 * Add one ok record: its dense histogram hist[0..hist_len-1] (hist_len 0,
 * or all counts 0: no histogram; trailing zero buckets do not count as
 * keys) and its num_spec_tokens when has_k. false when out of memory (the
 * record is then not counted).
 */
bool ss_positions_add(struct ss_positions *p, const int64_t *hist, size_t hist_len, bool has_k,
		      int64_t k);

#endif
