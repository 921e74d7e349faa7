#include "analysis/bootstrap.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "analysis/rng.h"
#include "metrics/stats.h"
#include "util/alloc.h"
#include "util/ratio.h"

/*
 * A sample as the resampling loop reads it. Absent values are stored as 0
 * (adding +0.0 to a sum that started at +0.0 changes nothing, so the loop
 * needs no branch), and `flags` says which are present.
 */
#define F_AL 1u
#define F_DAR 2u
#define F_STEPS 4u

struct ss_boot_rec32 {
	double al, dar;
	uint32_t accepted, drafted, steps, flags;
};

struct ss_boot_rec64 {
	double al, dar;
	uint64_t accepted, drafted, steps, flags;
};

_Static_assert(sizeof(struct ss_boot_rec32) == 32, "two samples per cache line");

void ss_samples_init(struct ss_samples *s)
{
	memset(s, 0, sizeof(*s));
}

void ss_samples_release(struct ss_samples *s)
{
	ss_free(s->base);
	ss_samples_init(s);
}

static size_t rec_size(bool wide)
{
	return wide ? sizeof(struct ss_boot_rec64) : sizeof(struct ss_boot_rec32);
}

/*
 * A resample reads one random sample per draw: over a few million samples
 * nearly every read misses the TLB with 4 KiB pages. So a large store is
 * 2 MiB aligned and asks for transparent huge pages (a hint; without them
 * it is only slower).
 */
#define HUGE_PAGE ((size_t)2 << 20)

/* A new store of `cap` records of `size` bytes holding the first n of the old one. */
static bool regrow(struct ss_samples *s, size_t cap, bool wide)
{
	size_t size = rec_size(wide), align = cap * size >= 2 * HUGE_PAGE ? HUGE_PAGE : 64;
	char *base, *recs;

	if (cap > (SIZE_MAX - HUGE_PAGE) / size)
		return false;
	base = ss_malloc(cap * size + align);
	if (!base)
		return false;
	recs = base + (align - (uintptr_t)base % align) % align;
#ifdef MADV_HUGEPAGE
	if (align == HUGE_PAGE)
		(void)madvise(recs, cap * size / HUGE_PAGE * HUGE_PAGE, MADV_HUGEPAGE);
#endif
	if (wide && !s->wide) {
		/* once, when a count outgrows 32 bits */
		const struct ss_boot_rec32 *r = s->recs;
		struct ss_boot_rec64 *w = (struct ss_boot_rec64 *)recs;

		for (size_t i = 0; i < s->n; i++) {
			w[i].al = r[i].al;
			w[i].dar = r[i].dar;
			w[i].accepted = r[i].accepted;
			w[i].drafted = r[i].drafted;
			w[i].steps = r[i].steps;
			w[i].flags = r[i].flags;
		}
	} else if (s->n) {
		memcpy(recs, s->recs, s->n * size);
	}
	ss_free(s->base);
	s->base = base;
	s->recs = recs;
	s->cap = cap;
	s->wide = wide;
	return true;
}

bool ss_samples_add(struct ss_samples *s, const struct ss_sample *x)
{
	uint64_t acc = x->accepted > 0 ? (uint64_t)x->accepted : 0;
	uint64_t dr = x->drafted > 0 ? (uint64_t)x->drafted : 0;
	uint64_t st = x->has_steps && x->steps > 0 ? (uint64_t)x->steps : 0;
	unsigned flags = (x->has_al ? F_AL : 0) | (x->has_dar ? F_DAR : 0) |
			 (x->has_steps ? F_STEPS : 0);

	/*
	 * The 32-bit layout also needs n < 2^32, so that its 64-bit sums of
	 * n counts below 2^32 cannot overflow.
	 */
	if (!s->wide && (acc > UINT32_MAX || dr > UINT32_MAX || st > UINT32_MAX ||
			 s->n >= UINT32_MAX))
		if (!regrow(s, s->cap ? s->cap : 1, true))
			return false;
	if (s->n == s->cap && !regrow(s, s->cap ? s->cap * 2 : 1024, s->wide))
		return false;
	if (s->wide) {
		struct ss_boot_rec64 *r = (struct ss_boot_rec64 *)s->recs + s->n;

		r->al = x->has_al ? x->al : 0.0;
		r->dar = x->has_dar ? x->dar : 0.0;
		r->accepted = acc;
		r->drafted = dr;
		r->steps = st;
		r->flags = flags;
	} else {
		struct ss_boot_rec32 *r = (struct ss_boot_rec32 *)s->recs + s->n;

		r->al = x->has_al ? x->al : 0.0;
		r->dar = x->has_dar ? x->dar : 0.0;
		r->accepted = (uint32_t)acc;
		r->drafted = (uint32_t)dr;
		r->steps = (uint32_t)st;
		r->flags = flags;
	}
	s->n++;
	return true;
}

void ss_samples_get(const struct ss_samples *s, size_t i, struct ss_sample *out)
{
	uint64_t flags;

	if (s->wide) {
		const struct ss_boot_rec64 *r = (const struct ss_boot_rec64 *)s->recs + i;

		out->al = r->al;
		out->dar = r->dar;
		out->accepted = (int64_t)r->accepted;
		out->drafted = (int64_t)r->drafted;
		out->steps = (int64_t)r->steps;
		flags = r->flags;
	} else {
		const struct ss_boot_rec32 *r = (const struct ss_boot_rec32 *)s->recs + i;

		out->al = r->al;
		out->dar = r->dar;
		out->accepted = r->accepted;
		out->drafted = r->drafted;
		out->steps = r->steps;
		flags = r->flags;
	}
	out->has_al = flags & F_AL;
	out->has_dar = flags & F_DAR;
	out->has_steps = flags & F_STEPS;
}

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
 * the draw order; only the loads move.
 */
#define BLOCK 64

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
			c_al += f & F_AL;                                                      \
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
	RESAMPLE_BODY(struct ss_boot_rec32, uint64_t);
}

static void resample64(const void *recs, uint64_t n, struct ss_rng *rng, double *row)
{
	RESAMPLE_BODY(struct ss_boot_rec64, unsigned __int128);
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

/*
 * The work of ss_boot_run(): chunks of resamples of every job, handed out
 * through one atomic counter. Which thread runs a chunk does not matter:
 * each resample writes its own row.
 */
struct boot_work {
	const struct ss_boot_job *jobs;
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
		job = &w->jobs[c / w->chunks_per_job];
		b0 = (uint32_t)(c % w->chunks_per_job) * w->chunk;
		b1 = b0 + w->chunk < w->B ? b0 + w->chunk : w->B;
		ss_boot_range(job->samples, w->seed, job->g, b0, b1,
			      job->out + (size_t)b0 * SS_BS_COUNT);
	}
	return NULL;
}

void ss_boot_run(const struct ss_boot_job *jobs, size_t njobs, uint64_t seed, uint32_t B,
		 unsigned threads)
{
	struct boot_work w;
	pthread_t *tids = NULL;
	unsigned started = 0;

	if (njobs == 0 || B == 0)
		return;
	w.jobs = jobs;
	w.njobs = njobs;
	w.seed = seed;
	w.B = B;
	/* Small chunks balance the threads; 8 resamples keep the counter cold. */
	w.chunk = 8;
	w.chunks_per_job = (B + w.chunk - 1) / w.chunk;
	atomic_init(&w.next, 0);

	if (threads > 1)
		tids = ss_reallocarray(NULL, threads - 1, sizeof(*tids));
	if (tids)
		for (unsigned t = 0; t < threads - 1; t++) {
			if (pthread_create(&tids[started], NULL, boot_worker, &w) != 0)
				break;
			started++;
		}
	boot_worker(&w);
	for (unsigned t = 0; t < started; t++)
		pthread_join(tids[t], NULL);
	ss_free(tids);
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
