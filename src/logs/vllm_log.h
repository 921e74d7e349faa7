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

#endif
