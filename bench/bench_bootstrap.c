/*
 * bench_bootstrap - time SPEC 7.2's bootstrap alone: N synthetic samples,
 * B resamples, T threads (the cost target: 1,000 resamples over 1 million
 * requests in under 10 s on 2 cores). Not a test; built by
 * `make bench/bench_bootstrap`.
 *
 *   bench/bench_bootstrap [N [B [T]]]     (defaults 1000000 1000 2)
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "analysis/bootstrap.h"
#include "util/alloc.h"

static double clock_of(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
	uint32_t B = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 1000;
	unsigned T = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 2;
	struct ss_samples s;
	uint64_t x = 12345;
	double *rows, *scratch, t0, t1, c0, c1, lo, hi;

	ss_samples_init(&s);
	for (uint64_t i = 0; i < n; i++) {
		struct ss_sample smp = {0};
		int64_t k = 4, steps, acc = 0;

		x = x * 6364136223846793005u + 1442695040888963407u;
		steps = 1 + (int64_t)((x >> 33) % 200);
		acc = (int64_t)((x >> 20) % (uint64_t)(k * steps + 1));
		smp.has_al = smp.has_dar = smp.has_steps = true;
		smp.steps = steps;
		smp.accepted = acc;
		smp.drafted = k * steps;
		smp.al = 1.0 + (double)acc / (double)steps;
		smp.dar = (double)acc / (double)(k * steps) * 100.0;
		if (!ss_samples_add(&s, &smp))
			return 3;
	}
	rows = ss_reallocarray(NULL, (size_t)B * SS_BS_COUNT, sizeof(double));
	scratch = ss_reallocarray(NULL, B, sizeof(double));
	if (!rows || !scratch)
		return 3;

	struct ss_boot_job job = {&s, 0, rows};

	t0 = clock_of(CLOCK_MONOTONIC);
	c0 = clock_of(CLOCK_PROCESS_CPUTIME_ID);
	ss_boot_run(&job, 1, 1, B, T);
	t1 = clock_of(CLOCK_MONOTONIC);
	c1 = clock_of(CLOCK_PROCESS_CPUTIME_ID);
	/* CPU time too: the machine may be shared, and wall time then lies */
	printf("n=%" PRIu64 " B=%" PRIu32 " threads=%u: %.3f s wall, %.3f s cpu "
	       "(%.2f ns cpu/draw)\n",
	       n, B, T, t1 - t0, c1 - c0, (c1 - c0) * 1e9 / ((double)n * B));
	for (int k = 0; k < SS_BS_COUNT; k++)
		if (ss_boot_interval(rows, B, (enum ss_boot_stat)k, 95, scratch, &lo, &hi))
			printf("  stat %d: [%.17g, %.17g]\n", k, lo, hi);
	ss_free(rows);
	ss_free(scratch);
	ss_samples_release(&s);
	return 0;
}
