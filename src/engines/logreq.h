/*
 * logreq.h - a llama.cpp task block of a server log as a request (SPEC
 * 12.4): the record the block's printed text gives, and its status.
 */
#ifndef SS_ENGINES_LOGREQ_H
#define SS_ENGINES_LOGREQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "logs/llama_log.h"
#include "model/record.h"

/*
 * Fill r (reset first) from a finished block: engine `llamacpp`, A and G,
 * the steps, k and the histogram only where the block pins them, the
 * prompt and completion (eval) tokens. Returns no_stats for a block
 * without a draft line (a baseline request), malformed (why filled) when
 * A > G or the record breaks SPEC 2.5, else ok or zero_step.
 */
enum ss_status ss_record_from_llama_task(const struct ss_llama_task *t, struct ss_record *r,
					 char *why, size_t whylen);

/*
 * The processor's entry for a ready task block (the run's log feed, one
 * thread): o becomes the block's request, kind `log`, line `line` (its
 * total time line, else its last), the record (ss_record_from_llama_task)
 * kept in the processor as ss_process() keeps its own, `metadata`
 * {"slot","task","time"} and the timing of SPEC 11.1 in `metrics`
 * (composed texts the processor holds, padded for the JSON reader). Its
 * views live until the processor's next request. false: out of memory.
 */
struct ss_processor;
struct ss_outcome;
bool ss_process_llama_task(struct ss_processor *p, const struct ss_llama_task *t, uint64_t line,
			   struct ss_outcome *o);

#endif
