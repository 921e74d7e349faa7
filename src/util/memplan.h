/*
 * memplan.h - what --memory-limit allows (issue 13, README "Reliability").
 *
 * specscan's peak resident memory is bounded by
 *
 *     SS_MEM_BASE + SS_MEM_PER_THREAD x threads + SS_MEM_PER_RECORD x record limit
 *
 * whatever the number or shape of the lines: batches are capped in bytes
 * and requests, at most one batch holding a line longer than the batch
 * target is in flight, and buffers grown for such a line are given back
 * (each worker renews its parsers after a line over 1 MiB; buffers of
 * 1 MiB and more are mapped, so freeing them returns them to the system).
 * Measured (tests/cli/test_limits.py, and lines of 0.5 to 40 MiB of the
 * worst shape): at most about 40 MiB per thread and 12.4 bytes per byte
 * of the longest line.
 * The multiple covers the worst line shape measured (a line of small
 * numbers: simdjson's structural index is 4 bytes per byte, an integer
 * array read into 64-bit counts another 4, plus the framer's window and
 * the batch's copy). Zstd windows larger than the default (--zstd-window-log)
 * come on top; a zstd frame decoded in place (window up to 2 MiB) keeps
 * two windows of its own output (at most 4.3 MiB, inside the base), and the
 * batch the decoder looks back into is one the ring holds anyway.
 *
 * ss_memplan() fits a run into a limit: threads are lowered first while
 * they would take more than half of what is left above the base, then the
 * record limit is lowered to what remains.
 *
 * Ownership: plain arithmetic; the plan is written into the caller's
 * struct and nothing is allocated.
 */
#ifndef SS_MEMPLAN_H
#define SS_MEMPLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SS_MEM_BASE ((uint64_t)64 << 20)
#define SS_MEM_PER_THREAD ((uint64_t)64 << 20)
#define SS_MEM_PER_RECORD 16
/* SPEC 1.2: --max-record-size below this is a usage error. */
#define SS_MIN_RECORD 64

struct ss_memplan {
	unsigned threads;
	uint64_t max_record;
	bool threads_lowered, record_lowered;
};

/* The bound above for a plan. */
uint64_t ss_mem_bound(unsigned threads, uint64_t max_record);

/*
 * Fit `threads` (never fewer than `min_threads`, at least 1) and
 * `max_record` into `limit` bytes. false: the limit is too small even for
 * `min_threads` and SS_MIN_RECORD (*min_limit says what would do).
 */
bool ss_memplan_fit(uint64_t limit, unsigned threads, unsigned min_threads,
		    uint64_t max_record, struct ss_memplan *out, uint64_t *min_limit);

/*
 * The default --memory-limit: half of the memory the process may use (the
 * machine's physical memory, or the cgroup's memory.max when lower).
 * 0 when unknown (no limit then).
 */
uint64_t ss_mem_default_limit(void);

#endif
