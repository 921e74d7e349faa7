/*
 * llama_log.h - llama.cpp's per-task timing blocks (SPEC 12.4): each
 * finished task prints `prompt eval time`, `eval time`, `total time` and,
 * with a draft model, a `draft acceptance` line, every one after the
 * prefix `slot print_timing: id N | task M | ` (older builds: a prefix-only
 * line, then the lines without it). One block is one request.
 *
 * Feed every line of the log in order; a block is handed back when it is
 * complete (at the first line after it that is not its own) and at the end.
 */
#ifndef SS_LOGS_LLAMA_LOG_H
#define SS_LOGS_LLAMA_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "logs/logline.h"

/* One task's block and what its printed text pins. */
struct ss_llama_task {
	long long slot, task;     /* from the prefix; -1 and 0 when unknown */
	bool has_ids;
	char time[48];            /* the first line's prefix time ("" if none) */
	uint64_t first_line, last_line; /* 1-based line numbers in the feed */
	uint64_t total_line;      /* its `total time` line (0: none) */

	bool has_prompt, has_eval, has_total;
	double prompt_ms, eval_ms, total_ms;
	uint64_t prompt_tokens, eval_tokens, total_tokens;

	bool has_draft;           /* a draft line: else a baseline request */
	const char *bad_draft;    /* a draft (or acc per pos) line of the block that
				     does not parse: why (the block is malformed) */
	uint64_t accepted, generated; /* A and G */
	char mean[24];            /* the printed mean length ("" when none) */
	size_t k;                 /* the position list's length (0: none) */
	uint16_t rate[SS_LOG_MAX_POS]; /* printed rates, thousandths */

	/* derived when the block is handed back (ss_llama_task_derive) */
	bool malformed;           /* A > G */
	bool steps_known;
	uint64_t steps;
	bool hist_known;          /* H[0..k] below */
	uint64_t hist[SS_LOG_MAX_POS + 1];
	bool has_itl;
	double itl_ms;            /* eval ms / (eval tokens - 1) */
};

struct ss_llama_blocks {
	struct ss_llama_task cur; /* the open block */
	bool open;
	bool bare;                /* opened by a prefix-only line (old builds) */
	bool closing;             /* its total time line was seen */
	uint64_t line;            /* lines fed */
};

void ss_llama_blocks_init(struct ss_llama_blocks *b);

/*
 * Feed one cleaned line. Returns SS_LOG_OK for a line of a block,
 * SS_LOG_SKIPPED for any other line, SS_LOG_BAD (with *why) for a block line
 * that does not parse. *done is true when `out` holds a finished block
 * (the one this line closed).
 */
enum ss_log_status ss_llama_blocks_feed(struct ss_llama_blocks *b, const char *s, size_t n,
					struct ss_llama_task *out, bool *done, const char **why);

/* The open block at the end of the input, if any: true when out holds it. */
bool ss_llama_blocks_finish(struct ss_llama_blocks *b, struct ss_llama_task *out);

/*
 * Derive the steps, the histogram and the inter-token latency of a block
 * from its printed text (SPEC 12.4); done by the feed before it hands a
 * block back, public for the tests.
 */
void ss_llama_task_derive(struct ss_llama_task *t);

/*
 * The one integer S >= 1 with `%.2f` of 1 + A/S equal to the printed mean:
 * false when there is none or several (and when A is 0 or above 2^53).
 */
bool ss_log_steps_from_mean(uint64_t a, const char *mean, uint64_t *steps);

#endif
