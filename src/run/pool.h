/*
 * pool.h - the ordered work pool: the calling thread submits jobs into a
 * ring of `nslots` slots, worker threads process them in any order, and
 * the calling thread takes them back strictly in the order submitted. So
 * whatever the thread count, results come out as if processed one by one.
 *
 * The pool only hands out slot indexes; what a slot holds (its input and
 * its result) belongs to the caller, who keeps an array of `nslots` of
 * them. A slot is the caller's from ss_pool_slot_to_fill() until
 * ss_pool_submit(), a worker's until it is done, and the caller's again
 * from ss_pool_wait_oldest() until ss_pool_release_oldest(). The pool's
 * lock orders those hand-offs: no other synchronisation is needed.
 *
 * Backpressure: at most `nslots` jobs are submitted and not yet released;
 * ss_pool_can_submit() says whether one more fits.
 *
 * The calling thread works too (when ops.caller_works): a job submitted
 * while every worker already has ops.queue_ahead jobs waiting (at least
 * one) is done at once by the calling thread, in ss_pool_submit(), and
 * ss_pool_wait_oldest() does a queued job rather than wait. So the calling thread, a pipeline's serial
 * stage (it reads and decompresses), parses whenever it is ahead, and N
 * workers plus it keep N + 1 cores busy without ever making a core wait.
 * Its scratch state comes from ops.worker_new, made in that thread the
 * first time it works, freed by ss_pool_free().
 *
 * Worker threads are started with SIGINT, SIGTERM and SIGHUP blocked, so
 * those signals reach the calling thread (and interrupt a blocked read).
 * The calling thread is the only one that may call the ss_pool_* functions.
 */
#ifndef SS_POOL_H
#define SS_POOL_H

#include <stdbool.h>
#include <stddef.h>

struct ss_pool_ops {
	void *ctx;
	/*
	 * Per worker thread, in that thread: its scratch state. NULL when it
	 * could not be made; `work` is then called with a NULL worker and
	 * must mark the slot failed.
	 */
	void *(*worker_new)(void *ctx);
	void (*work)(void *ctx, void *worker, size_t slot);
	void (*worker_free)(void *ctx, void *worker);   /* NULL-safe */
	/* Added to the workers' nice value (0: none), so that the calling
	 * thread wins when they compete for cores. */
	int worker_nice;
	bool caller_works;   /* see above */
	/* Jobs kept waiting per worker before the caller works (0: one). More
	 * than one keeps a worker fed while the caller is busy with a job of
	 * its own; the ring needs room for them (nslots). */
	size_t queue_ahead;
};

struct ss_pool;

/*
 * A pool of `nslots` slots (>= 1) for up to `nthreads` workers (>= 1).
 * NULL when out of memory. `ops` is copied. No thread is started yet.
 */
struct ss_pool *ss_pool_new(size_t nslots, size_t nthreads, const struct ss_pool_ops *ops);
/* Start the workers; how many started (0: the pool cannot work). */
size_t ss_pool_start(struct ss_pool *p);
/* Whether a slot is free for one more job. */
bool ss_pool_can_submit(const struct ss_pool *p);
/* The slot the next job goes into; only when ss_pool_can_submit(). */
size_t ss_pool_slot_to_fill(const struct ss_pool *p);
/* Queue that slot for the workers (or do it now: see caller_works). */
void ss_pool_submit(struct ss_pool *p);
/* Jobs submitted and not yet released. */
size_t ss_pool_pending(const struct ss_pool *p);
/* Wait until the oldest pending job is done (doing queued jobs meanwhile,
 * when the caller works); its slot. Only when pending. */
size_t ss_pool_wait_oldest(struct ss_pool *p);
/* That slot is free again. */
void ss_pool_release_oldest(struct ss_pool *p);
/*
 * Stop: jobs still queued are dropped (never processed), jobs being
 * processed finish, the workers are joined; then free. NULL-safe.
 */
void ss_pool_free(struct ss_pool *p);

#endif
