#include "run/pool.h"

#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/alloc.h"

enum slot_state { SLOT_FREE = 0, SLOT_QUEUED, SLOT_DONE };

struct ss_pool {
	struct ss_pool_ops ops;
	size_t nslots;
	enum slot_state *state;    /* per slot, under lock */
	size_t *queue;             /* FIFO of queued slot indexes */
	size_t qhead, qlen;
	size_t next_fill, next_collect;  /* submitted and released, ever */
	bool quit;
	pthread_t *threads;
	size_t nthreads, started;
	void *caller;              /* the calling thread's worker state */
	bool caller_made;
	pthread_mutex_t lock;
	pthread_cond_t work;       /* a slot was queued, or quitting */
	pthread_cond_t done;       /* a slot was processed */
};

struct ss_pool *ss_pool_new(size_t nslots, size_t nthreads, const struct ss_pool_ops *ops)
{
	struct ss_pool *p = ss_calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->ops = *ops;
	p->nslots = nslots;
	p->state = ss_calloc(nslots, sizeof(*p->state));
	p->queue = ss_calloc(nslots, sizeof(*p->queue));
	p->nthreads = nthreads;
	p->threads = ss_calloc(nthreads, sizeof(*p->threads));
	if (!p->state || !p->queue || !p->threads) {
		ss_free(p->threads);
		ss_free(p->state);
		ss_free(p->queue);
		ss_free(p);
		return NULL;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	return p;
}

static void *worker_main(void *arg)
{
	struct ss_pool *p = arg;
	void *w;

	/*
	 * The calling thread is the run's one serial stage (it reads and
	 * decompresses): when workers and it compete for the cores, it must
	 * win, or every worker ends up waiting for it. A slightly lower
	 * priority for the workers says so to the scheduler; it changes
	 * nothing when cores are idle. (Failure to lower it is harmless.)
	 */
#ifdef SYS_gettid
	if (p->ops.worker_nice) {
		/* Relative to the value inherited from the calling thread. */
		int cur = getpriority(PRIO_PROCESS, 0);

		(void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid),
				  cur + p->ops.worker_nice);
	}
#endif
	w = p->ops.worker_new ? p->ops.worker_new(p->ops.ctx) : NULL;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		size_t idx;

		while (!p->quit && p->qlen == 0)
			pthread_cond_wait(&p->work, &p->lock);
		if (p->qlen == 0)
			break;
		idx = p->queue[p->qhead];
		p->qhead = (p->qhead + 1) % p->nslots;
		p->qlen--;
		pthread_mutex_unlock(&p->lock);
		p->ops.work(p->ops.ctx, w, idx);
		pthread_mutex_lock(&p->lock);
		p->state[idx] = SLOT_DONE;
		pthread_cond_broadcast(&p->done);
	}
	pthread_mutex_unlock(&p->lock);
	if (p->ops.worker_free)
		p->ops.worker_free(p->ops.ctx, w);
	return NULL;
}

size_t ss_pool_start(struct ss_pool *p)
{
	sigset_t stop_sigs, old;

	/* Workers block the stop signals, so they reach the calling thread
	 * and interrupt a read blocked on a pipe. */
	sigemptyset(&stop_sigs);
	sigaddset(&stop_sigs, SIGINT);
	sigaddset(&stop_sigs, SIGTERM);
	sigaddset(&stop_sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &stop_sigs, &old);
	for (; p->started < p->nthreads; p->started++)
		if (pthread_create(&p->threads[p->started], NULL, worker_main, p) != 0)
			break;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return p->started;
}

bool ss_pool_can_submit(const struct ss_pool *p)
{
	return p->next_fill - p->next_collect < p->nslots;
}

size_t ss_pool_slot_to_fill(const struct ss_pool *p)
{
	return p->next_fill % p->nslots;
}

/* Do job `idx` in the calling thread (the lock is not held). */
static void caller_work(struct ss_pool *p, size_t idx)
{
	if (!p->caller_made) {
		p->caller_made = true;
		p->caller = p->ops.worker_new ? p->ops.worker_new(p->ops.ctx) : NULL;
	}
	p->ops.work(p->ops.ctx, p->caller, idx);
}

void ss_pool_submit(struct ss_pool *p)
{
	size_t idx = p->next_fill % p->nslots;
	bool now;

	pthread_mutex_lock(&p->lock);
	/* Every worker has its jobs waiting: the caller is ahead, it works. */
	now = p->ops.caller_works &&
	      p->qlen >= p->started * (p->ops.queue_ahead ? p->ops.queue_ahead : 1);
	if (!now) {
		p->state[idx] = SLOT_QUEUED;
		p->queue[(p->qhead + p->qlen) % p->nslots] = idx;
		p->qlen++;
		pthread_cond_signal(&p->work);
	}
	pthread_mutex_unlock(&p->lock);
	p->next_fill++;
	if (now) {
		caller_work(p, idx);
		pthread_mutex_lock(&p->lock);
		p->state[idx] = SLOT_DONE;
		pthread_mutex_unlock(&p->lock);
	}
}

size_t ss_pool_pending(const struct ss_pool *p)
{
	return p->next_fill - p->next_collect;
}

size_t ss_pool_wait_oldest(struct ss_pool *p)
{
	size_t idx = p->next_collect % p->nslots;

	pthread_mutex_lock(&p->lock);
	while (p->state[idx] != SLOT_DONE) {
		if (p->ops.caller_works && p->qlen > 0) {
			/* Rather than wait, do a job no worker took yet. */
			size_t q = p->queue[p->qhead];

			p->qhead = (p->qhead + 1) % p->nslots;
			p->qlen--;
			pthread_mutex_unlock(&p->lock);
			caller_work(p, q);
			pthread_mutex_lock(&p->lock);
			p->state[q] = SLOT_DONE;
			continue;
		}
		pthread_cond_wait(&p->done, &p->lock);
	}
	pthread_mutex_unlock(&p->lock);
	return idx;
}

void ss_pool_release_oldest(struct ss_pool *p)
{
	/* Only the calling thread touches a done slot's state. */
	p->state[p->next_collect % p->nslots] = SLOT_FREE;
	p->next_collect++;
}

void ss_pool_free(struct ss_pool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->quit = true;
	p->qlen = 0;   /* drop queued work when stopping early */
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	for (size_t i = 0; i < p->started; i++)
		pthread_join(p->threads[i], NULL);
	if (p->caller_made && p->ops.worker_free)
		p->ops.worker_free(p->ops.ctx, p->caller);
	ss_free(p->threads);
	pthread_cond_destroy(&p->done);
	pthread_cond_destroy(&p->work);
	pthread_mutex_destroy(&p->lock);
	ss_free(p->state);
	ss_free(p->queue);
	ss_free(p);
}
