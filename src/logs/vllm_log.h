/*
 * vllm_log.h - vLLM's spec-decoding interval line (SPEC 12.2): the tail
 * after `SpecDecoding metrics: ` or `Speculative metrics: `, items
 * `KEY: VALUE` in any order, read strictly.
 */
#ifndef SS_LOGS_VLLM_LOG_H
#define SS_LOGS_VLLM_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "logs/logline.h"

struct ss_vllm_line {
	uint64_t accepted;   /* A */
	uint64_t drafted;    /* D */
	bool has_mean;       /* `Mean acceptance length` printed */
	char mean[24];       /* its text (F2 or "nan") */
	bool has_list;       /* `Per-position acceptance rate` printed */
	size_t k;            /* the list's length */
	uint16_t rate[SS_LOG_MAX_POS]; /* the printed rates, in thousandths */
	unsigned unknown_items; /* other keys (forks' items), ignored */
	bool steps_known;    /* S pinned by the printed numbers (SPEC 12.2) */
	uint64_t steps;      /* S when steps_known */
	const char *why;     /* SS_LOG_BAD: what failed; SS_LOG_REFUSED: the note */
};

/*
 * Parse the tail (the text after the anchor, to the end of the cleaned
 * line). SS_LOG_OK fills *out; SS_LOG_BAD and SS_LOG_REFUSED (the V0
 * engine's cumulative line) set out->why.
 */
enum ss_log_status ss_vllm_line_parse(const char *tail, size_t n, struct ss_vllm_line *out);

/*
 * The lines of one family (SPEC 12.2), summed: A and D always; the steps,
 * and the printed position rates weighted by them, from the lines whose
 * steps are pinned. Only when every line with D > 0 is pinned (unpinned
 * 0) do the family's steps stand, "assuming full-length drafts"; the
 * position rates are the pinned lines' (SPEC 12.2: "over the lines with
 * steps") whether or not others are unpinned.
 */
struct ss_vllm_tally {
	uint64_t lines;          /* lines read, D = 0 ones too */
	unsigned __int128 accepted, drafted, steps;
	uint64_t unpinned;       /* lines with D > 0 whose steps are unknown */
	uint64_t unknown_items;
	size_t k;                /* the longest list among the pinned lines */
	unsigned __int128 pos_weighted[SS_LOG_MAX_POS]; /* sum of rate (1/1000) x S */
};

void ss_vllm_tally_init(struct ss_vllm_tally *t);
void ss_vllm_tally_add(struct ss_vllm_tally *t, const struct ss_vllm_line *l);
/* rate_i = sum (r_i x S) / sum S over the pinned lines; false when none has steps. */
bool ss_vllm_tally_rate(const struct ss_vllm_tally *t, size_t i, double *rate);

#endif
