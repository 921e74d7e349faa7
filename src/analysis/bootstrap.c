#include "analysis/bootstrap.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/rng.h"
#include "metrics/stats.h"
#include "util/alloc.h"
#include "util/ratio.h"

/* The four statistics from one resample's sums (SPEC 7.2). */
static void finish_row(double s_al, uint64_t c_al, double s_dar, uint64_t c_dar,
		       unsigned __int128 acc, unsigned __int128 acc_w, unsigned __int128 drafted,
		       unsigned __int128 steps, double *row)
{
	row[SS_BS_AL] = c_al ? s_al / (double)c_al : NAN;
	row[SS_BS_DAR] = c_dar ? s_dar / (double)c_dar : NAN;
	row[SS_BS_TWAL] = steps ? 1.0 + ss_ratio(acc_w, steps) : NAN;
	row[SS_BS_ODAR] = drafted ? ss_ratio(acc, drafted) * 100.0 : NAN;
}

/*
 * Draws are made a block at a time, one block ahead: the indexes of block
 * t + 1 are drawn (and their cache lines prefetched: a million samples do
 * not fit the caches) before the sums over block t, so the reads of a
 * block have landed when it is summed. The doubles are summed in exactly
 * the draw order; only the loads move. 32 draws ahead measured best on
 * the project's machine (16: about the same, 64: a third slower, 256:
 * nearly twice: more lines in flight than the core tracks).
 */
#ifndef BLOCK
#define BLOCK 32
#endif

#define FILL_BLOCK(REC, dst, m)                                                                \
	for (uint64_t t_ = 0; t_ < (m); t_++) {                                                \
		(dst)[t_] = ss_rng_draw(rng, n);                                               \
		__builtin_prefetch((const REC *)recs + (dst)[t_]);                              \
	}

/*
 * One resample over the packed samples REC with integer sums of type ACC.
 * Every present count fits: 32-bit counts over n < 2^32 samples sum below
 * 2^64, 64-bit counts over any n below 2^128.
 */
#define RESAMPLE_BODY(REC, ACC)                                                                \
	const REC *r = recs;                                                                   \
	double s_al = 0.0, s_dar = 0.0;                                                        \
	uint64_t c_al = 0, c_dar = 0;                                                          \
	ACC acc = 0, acc_w = 0, dr = 0, st = 0;                                                \
	uint64_t idx[2][BLOCK];                                                                \
	uint64_t m = n < BLOCK ? n : BLOCK, drawn = m;                                         \
	int cur = 0;                                                                           \
                                                                                               \
	FILL_BLOCK(REC, idx[0], m);                                                            \
	while (m) {                                                                            \
		uint64_t next = n - drawn < BLOCK ? n - drawn : BLOCK;                         \
                                                                                               \
		FILL_BLOCK(REC, idx[cur ^ 1], next);                                           \
		drawn += next;                                                                 \
		for (uint64_t t = 0; t < m; t++) {                                             \
			const REC *p = &r[idx[cur][t]];                                        \
			uint64_t f = p->flags;                                                 \
                                                                                               \
			s_al += p->al;                                                         \
			s_dar += p->dar;                                                       \
			c_al += f & SS_SAMPLE_AL;                                                      \
			c_dar += (f >> 1) & 1;                                                 \
			acc += p->accepted;                                                    \
			/* accepted counts toward TWAL only with steps: mask, no branch */   \
			acc_w += p->accepted & (0 - (uint64_t)((f >> 2) & 1));                 \
			dr += p->drafted;                                                      \
			st += p->steps;                                                        \
		}                                                                              \
		cur ^= 1;                                                                      \
		m = next;                                                                      \
	}                                                                                      \
	finish_row(s_al, c_al, s_dar, c_dar, acc, acc_w, dr, st, row)

static void resample32(const void *recs, uint64_t n, struct ss_rng *rng, double *row)
{
	RESAMPLE_BODY(struct ss_sample_rec32, uint64_t);
}

static void resample64(const void *recs, uint64_t n, struct ss_rng *rng, double *row)
{
	RESAMPLE_BODY(struct ss_sample_rec64, unsigned __int128);
}

void ss_boot_range(const struct ss_samples *s, uint64_t seed, uint32_t g, uint32_t b0,
		   uint32_t b1, double *out)
{
	for (uint32_t b = b0; b < b1; b++) {
		double *row = out + (size_t)(b - b0) * SS_BS_COUNT;
		struct ss_rng rng;

		if (s->n == 0) {
			for (int k = 0; k < SS_BS_COUNT; k++)
				row[k] = NAN;
			continue;
		}
		ss_rng_stream(&rng, seed, g, b);
		if (s->wide)
			resample64(s->recs, s->n, &rng, row);
		else
			resample32(s->recs, s->n, &rng, row);
	}
}

void ss_boot_timing_range(const struct ss_timekeep *tk, uint64_t seed, uint32_t g, uint32_t b0,
			  uint32_t b1, double *out)
{
	/* a set that kept no draws has nothing to resample */
	size_t n = tk->draw ? tk->n : 0;

	for (uint32_t b = b0; b < b1; b++) {
		double *row = out + (size_t)(b - b0) * SS_TB_COUNT;
		double dec_ms = 0.0, lat = 0.0, ttft = 0.0;
		unsigned __int128 dec_tokens = 0;
		uint64_t n_lat = 0, n_ttft = 0;
		struct ss_rng rng;

		ss_rng_stream(&rng, seed, g, b);
		/* in draw order; absent times are NaN, no decode 0 tokens: they add nothing */
		for (size_t i = 0; i < n; i++) {
			const struct ss_tdraw *x = &tk->draw[ss_rng_draw(&rng, n)];

			if (x->dec_tokens) {
				dec_ms += x->lat - x->ttft;
				dec_tokens += x->dec_tokens;
			}
			if (!isnan(x->lat)) {
				lat += x->lat;
				n_lat++;
			}
			if (!isnan(x->ttft)) {
				ttft += x->ttft;
				n_ttft++;
			}
		}
		row[SS_TB_X] = dec_tokens ? dec_ms / ss_ratio(dec_tokens, 1) : NAN;
		row[SS_TB_LATENCY] = n_lat ? lat / (double)n_lat : NAN;
		row[SS_TB_TTFT] = n_ttft ? ttft / (double)n_ttft : NAN;
	}
}

/*
 * The work of ss_boot_run(): chunks of resamples of every job, handed out
 * through one atomic counter. Which thread runs a chunk does not matter:
 * each resample writes its own row.
 */
struct boot_work {
	const struct ss_boot_job *jobs;
	const struct ss_boot_tjob *tjobs;  /* set: timing jobs instead */
	size_t njobs;
	uint64_t seed;
	uint32_t B, chunk, chunks_per_job;
	atomic_size_t next;
};

static void *boot_worker(void *arg)
{
	struct boot_work *w = arg;
	size_t total = w->njobs * w->chunks_per_job;

	for (;;) {
		size_t c = atomic_fetch_add(&w->next, 1);
		const struct ss_boot_job *job;
		uint32_t b0, b1;

		if (c >= total)
			break;
		b0 = (uint32_t)(c % w->chunks_per_job) * w->chunk;
		b1 = b0 + w->chunk < w->B ? b0 + w->chunk : w->B;
		if (w->tjobs) {
			const struct ss_boot_tjob *tj = &w->tjobs[c / w->chunks_per_job];

			ss_boot_timing_range(tj->timing, w->seed, tj->g, b0, b1,
					     tj->out + (size_t)b0 * SS_TB_COUNT);
			continue;
		}
		job = &w->jobs[c / w->chunks_per_job];
		ss_boot_range(job->samples, w->seed, job->g, b0, b1,
			      job->out + (size_t)b0 * SS_BS_COUNT);
	}
	return NULL;
}

/* Run every chunk of `w` on up to `threads` threads (the caller's among them). */
static void run_work(struct boot_work *w, unsigned threads)
{
	pthread_t *tids = NULL;
	unsigned started = 0;

	/* Small chunks balance the threads; 8 resamples keep the counter cold. */
	w->chunk = 8;
	w->chunks_per_job = (w->B + w->chunk - 1) / w->chunk;
	atomic_init(&w->next, 0);

	if (threads > 1)
		tids = ss_reallocarray(NULL, threads - 1, sizeof(*tids));
	if (tids)
		for (unsigned t = 0; t < threads - 1; t++) {
			if (pthread_create(&tids[started], NULL, boot_worker, w) != 0)
				break;
			started++;
		}
	boot_worker(w);
	for (unsigned t = 0; t < started; t++)
		pthread_join(tids[t], NULL);
	ss_free(tids);
}

void ss_boot_run(const struct ss_boot_job *jobs, size_t njobs, uint64_t seed, uint32_t B,
		 unsigned threads)
{
	struct boot_work w;

	if (njobs == 0 || B == 0)
		return;
	w.jobs = jobs;
	w.tjobs = NULL;
	w.njobs = njobs;
	w.seed = seed;
	w.B = B;
	run_work(&w, threads);
}

void ss_boot_timing_run(const struct ss_boot_tjob *jobs, size_t njobs, uint64_t seed, uint32_t B,
			unsigned threads)
{
	struct boot_work w;

	if (njobs == 0 || B == 0)
		return;
	w.jobs = NULL;
	w.tjobs = jobs;
	w.njobs = njobs;
	w.seed = seed;
	w.B = B;
	run_work(&w, threads);
}


static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static bool interval_of(double *v, size_t n, double level, double *lo, double *hi)
{
	double q = (100.0 - level) / 2.0;

	if (n == 0)
		return false;
	qsort(v, n, sizeof(*v), cmp_double);
	*lo = ss_percentile(v, n, q);
	*hi = ss_percentile(v, n, 100.0 - q);
	return true;
}

bool ss_boot_interval(const double *rows, uint32_t B, enum ss_boot_stat stat, double level,
		      double *scratch, double *lo, double *hi)
{
	size_t n = 0;

	for (uint32_t b = 0; b < B; b++) {
		double x = rows[(size_t)b * SS_BS_COUNT + stat];

		if (!isnan(x))
			scratch[n++] = x;
	}
	return interval_of(scratch, n, level, lo, hi);
}

bool ss_boot_diff_interval(const double *rows, const double *base, uint32_t B,
			   enum ss_boot_stat stat, double level, double *scratch, double *lo,
			   double *hi)
{
	size_t n = 0;

	for (uint32_t b = 0; b < B; b++) {
		double x = rows[(size_t)b * SS_BS_COUNT + stat];
		double y = base[(size_t)b * SS_BS_COUNT + stat];
		double d = x - y;

		/* inf - inf is NaN: no difference to rank, left out like an undefined one */
		if (!isnan(x) && !isnan(y) && !isnan(d))
			scratch[n++] = d;
	}
	return interval_of(scratch, n, level, lo, hi);
}

bool ss_boot_ratio_interval(const double *num, const double *den, uint32_t B, unsigned ncols,
			    unsigned col, double level, double *scratch, double *lo, double *hi)
{
	size_t n = 0;

	for (uint32_t b = 0; b < B; b++) {
		double q;

		if (ss_boot_ratio(num[(size_t)b * ncols + col], den[(size_t)b * ncols + col], &q))
			scratch[n++] = q;
	}
	return interval_of(scratch, n, level, lo, hi);
}
