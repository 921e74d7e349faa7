/*
 * server_log.h - a server log input read line by line (SPEC 12.1-12.4):
 * the lines are cut out of the input's bytes (a line longer than the
 * record limit is a bad line), cleaned, and told by their anchor; vLLM's
 * interval lines make the `vllm` log family (one tally per process name),
 * SGLang's decode lines the `sglang` one (one series per tag set), and
 * llama.cpp's task blocks are handed to the caller, one request each.
 *
 * The state hangs off the run's struct ss_server (made at the first log
 * input) so that ss_server_finish() lists the two families after the
 * engine's other rows. One thread at a time, as struct ss_server.
 */
#ifndef SS_SERVER_LOG_H
#define SS_SERVER_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "logs/llama_log.h"
#include "server/server.h"

/* What one log input counted (specscan.inputs, SPEC 12.1, 13). */
struct ss_server_log_counts {
	uint64_t log_lines;     /* lines with an anchor that were read */
	uint64_t bad_lines;     /* tails that do not parse, lines over the limit */
	uint64_t refused_lines; /* vLLM V0's cumulative lines */
};

/* Called with each finished llama.cpp task block; false: out of memory. */
struct ss_server_log_sink {
	bool (*task)(void *ctx, const struct ss_llama_task *t);
	void *ctx;
};

/*
 * Begin the log input `name` (lines longer than max_line are bad).
 * false: out of memory.
 */
bool ss_server_log_begin(struct ss_server *s, const char *name, size_t max_line);
/*
 * The input's next bytes; `last` ends it (an open block is handed over,
 * and *counts holds the input's counts). false: out of memory.
 */
bool ss_server_log_feed(struct ss_server *s, const char *bytes, size_t len, bool last,
			const struct ss_server_log_sink *sink, struct ss_server_log_counts *counts);

/* ---- for the server stage: the families at the end, and the state's life ---- */

struct ss_server_log;
void ss_server_log_free(struct ss_server_log *l);
/*
 * Append the log families of `engine` (vllm or sglang) to out, after the
 * engine's other rows. false: out of memory.
 */
bool ss_server_log_families(struct ss_server_log *l, enum ss_engine engine,
			    struct ss_server_results *out, size_t *cap, struct ss_msg *msg);

#endif
