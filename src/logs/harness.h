/*
 * harness.h - Spec-Bench's and EAGLE's answer files (SPEC 12.5): a JSONL
 * line that is an object with a `question_id` and a `choices` array whose
 * first element is an object with a `turns` array is one question; its
 * first choice gives one request with exact steps and accepted tokens.
 */
#ifndef SS_LOGS_HARNESS_H
#define SS_LOGS_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json/json.h"
#include "logs/logline.h"

enum ss_harness_status {
	SS_HARNESS_NOT = 0,      /* not a harness line: try the other kinds */
	SS_HARNESS_OK,
	SS_HARNESS_MALFORMED,    /* a choice whose arrays break the rules */
	SS_HARNESS_UNRECOGNIZED  /* the first choice has neither shape */
};

enum ss_harness_engine { SS_HARNESS_SPEC_BENCH, SS_HARNESS_EAGLE };

/* Spec-Bench's accepted lengths run from 1 to this (longer: malformed). */
#define SS_HARNESS_MAX_LEN (SS_LOG_MAX_POS + 1)

struct ss_harness_req {
	enum ss_harness_engine engine;
	uint64_t steps, accepted;       /* S and A */
	bool has_hist;                  /* Spec-Bench only */
	size_t k;                       /* the histogram's last index */
	uint64_t hist[SS_HARNESS_MAX_LEN]; /* H[j]: steps that appended j + 1 tokens */
	bool has_completion;
	uint64_t completion_tokens;     /* sum of new_tokens */
	bool has_latency;
	double latency_s;               /* sum of wall_time */
	/* raw JSON spans in the open document's text (empty when absent) */
	const char *question_id, *category, *model;
	size_t question_id_len, category_len, model_len; /* model: escaped text */
	const char *why;                /* MALFORMED / UNRECOGNIZED: the reason */
};

/*
 * Read the parser's open document (ssj_open by the caller) as an answer
 * line. The spans in *out live as long as the document.
 */
enum ss_harness_status ss_harness_visit(struct ssj_parser *p, struct ss_harness_req *out);

#endif
