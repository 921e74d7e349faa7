/* memplan.c - fitting a run into --memory-limit (see memplan.h). */
#include "util/memplan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint64_t ss_mem_bound(unsigned threads, uint64_t max_record)
{
	uint64_t t = SS_MEM_PER_THREAD * (uint64_t)threads;

	if (max_record > (UINT64_MAX - SS_MEM_BASE - t) / SS_MEM_PER_RECORD)
		return UINT64_MAX;
	return SS_MEM_BASE + t + SS_MEM_PER_RECORD * max_record;
}

bool ss_memplan_fit(uint64_t limit, unsigned threads, unsigned min_threads,
		    uint64_t max_record, struct ss_memplan *out, uint64_t *min_limit)
{
	uint64_t room, rec;
	unsigned lo = min_threads ? min_threads : 1;
	unsigned t = threads > lo ? threads : lo;

	memset(out, 0, sizeof(*out));
	*min_limit = ss_mem_bound(lo, SS_MIN_RECORD);
	if (limit < *min_limit)
		return false;
	out->threads = t;
	out->max_record = max_record;
	if (ss_mem_bound(t, max_record) <= limit)
		return true;
	/* Threads may take at most half of what the base leaves. */
	room = limit - SS_MEM_BASE;
	while (t > lo && SS_MEM_PER_THREAD * (uint64_t)t > room / 2)
		t--;
	if (t != out->threads) {
		out->threads = t;
		out->threads_lowered = true;
	}
	rec = (room - SS_MEM_PER_THREAD * (uint64_t)t) / SS_MEM_PER_RECORD;
	if (rec < max_record) {
		out->max_record = rec;
		out->record_lowered = true;
	}
	return true;
}

/* cgroup v2's memory.max of this process, or 0 (none, "max", unknown). */
static uint64_t cgroup_max(void)
{
	FILE *f = fopen("/proc/self/cgroup", "r");
	char line[512], path[600], val[64];
	uint64_t v = 0;

	if (!f)
		return 0;
	path[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3) == 0) {
			size_t n = strcspn(line + 3, "\n");

			snprintf(path, sizeof(path), "/sys/fs/cgroup%.*s/memory.max", (int)n,
				 line + 3);
			break;
		}
	}
	fclose(f);
	if (!path[0] || !(f = fopen(path, "r")))
		return 0;
	if (fgets(val, sizeof(val), f) && strncmp(val, "max", 3) != 0)
		v = strtoull(val, NULL, 10);
	fclose(f);
	return v;
}

uint64_t ss_mem_default_limit(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	uint64_t phys = pages > 0 && psize > 0 ? (uint64_t)pages * (uint64_t)psize : 0;
	uint64_t cg = cgroup_max();

	if (cg && (!phys || cg < phys))
		phys = cg;
	return phys / 2;
}
