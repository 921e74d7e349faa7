#include "run/progress.h"

#include <time.h>

/* Redraw at most this often (seconds): the display must cost nothing. */
#define REDRAW_INTERVAL 0.25

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void ss_progress_init(struct ss_progress *p, FILE *out)
{
	p->out = out;
	p->start = now();
	p->last = 0.0;
}

void ss_progress_update(struct ss_progress *p, uint64_t bytes, uint64_t requests)
{
	double t;

	if (!p->out)
		return;
	t = now();
	if (t - p->last < REDRAW_INTERVAL)
		return;
	p->last = t;
	fprintf(p->out, "\rspecscan: %.1f MB read, %llu requests, %.0f MB/s\033[K",
		(double)bytes / 1e6, (unsigned long long)requests,
		t > p->start ? (double)bytes / 1e6 / (t - p->start) : 0.0);
	fflush(p->out);
}

void ss_progress_end(struct ss_progress *p)
{
	if (!p->out)
		return;
	p->last = now();
	fputs("\r\033[K", p->out);
}
