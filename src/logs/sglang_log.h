/*
 * sglang_log.h - SGLang's decode batch line (SPEC 12.3): the tail after
 * `Decode batch`, read strictly; only `#running-req` and `accept len` are
 * kept (`accept rate` has had three definitions and is never read).
 */
#ifndef SS_LOGS_SGLANG_LOG_H
#define SS_LOGS_SGLANG_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "logs/logline.h"

struct ss_sglang_line {
	uint64_t running;     /* #running-req */
	double accept_len;    /* accept len, the printed F2 */
	char accept_txt[24];  /* its text */
	const char *why;      /* SS_LOG_BAD: what failed */
};

/*
 * Parse the tail. SS_LOG_SKIPPED: a line without `accept len` (a server
 * without speculation), not counted.
 */
enum ss_log_status ss_sglang_line_parse(const char *tail, size_t n, struct ss_sglang_line *out);

/*
 * The series of one process (SPEC 12.3): every value estimated, no
 * counts. by_running_req[b] holds bucket 2^b (b = 0 for r of 0 or 1).
 */
#define SS_SGLANG_BUCKETS 65
struct ss_sglang_series {
	uint64_t lines;
	double sum, weighted_sum, running_sum, min, max, last;
	uint64_t bucket_lines[SS_SGLANG_BUCKETS];
	double bucket_sum[SS_SGLANG_BUCKETS];
};

void ss_sglang_series_init(struct ss_sglang_series *s);
void ss_sglang_series_add(struct ss_sglang_series *s, const struct ss_sglang_line *l);

#endif
