/*
 * test_pool.c - the ordered work pool of src/run: results are taken back
 * in submission order even when jobs finish out of order, at most `nslots`
 * jobs are in flight, the end of input drains cleanly, and the failure
 * paths (a worker without its state, a stop with jobs still queued, no
 * memory) end without a hang, a leak or a lost slot.
 *
 * Out-of-order completion is forced, not hoped for: a job may be made to
 * wait until a later job has finished (a gate), so the order of
 * completion is known without any timing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run/pool.h"
#include "util/alloc.h"

#define MAXSLOTS 16

struct job {
	int id;            /* which submission this slot holds */
	int wait_for;      /* -1, or the id of a job that must finish first */
	bool failed;       /* the worker had no state */
	int done_rank;     /* order of completion, from 0 */
};

struct fixture {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct job slots[MAXSLOTS];
	bool finished[4096];   /* by job id */
	int ndone;             /* completed jobs */
	int nwork;             /* calls of work() */
	bool gate_closed;      /* every job waits while closed */
	bool no_worker_state;
	int workers_made, workers_freed;
	/* caller_works: the calling thread is never held by the gate; the
	 * job `open_gate_on` (>= 0) opens it when it finishes. */
	bool caller_works;
	size_t queue_ahead;
	pthread_t caller;
	int caller_jobs;
	int open_gate_on;
};

static void *t_worker_new(void *ctx)
{
	struct fixture *f = ctx;
	static int token;
	void *w;

	pthread_mutex_lock(&f->lock);
	f->workers_made++;
	w = f->no_worker_state ? NULL : &token;
	pthread_mutex_unlock(&f->lock);
	return w;
}

static void t_worker_free(void *ctx, void *w)
{
	struct fixture *f = ctx;

	(void)w;
	pthread_mutex_lock(&f->lock);
	f->workers_freed++;
	pthread_mutex_unlock(&f->lock);
}

/*
 * Wait on the fixture's condition; after 10 seconds something hangs: give
 * up loudly (abort, as cmocka's asserts must not run in a worker thread).
 */
static void wait_changed(struct fixture *f)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 10;
	if (pthread_cond_timedwait(&f->changed, &f->lock, &ts) == ETIMEDOUT) {
		fprintf(stderr, "test_pool: a wait timed out\n");
		abort();
	}
}

static void t_work(void *ctx, void *w, size_t slot)
{
	struct fixture *f = ctx;
	struct job *j = &f->slots[slot];

	bool by_caller;

	pthread_mutex_lock(&f->lock);
	by_caller = f->caller_works && pthread_equal(pthread_self(), f->caller);
	f->nwork++;
	if (by_caller)
		f->caller_jobs++;
	pthread_cond_broadcast(&f->changed);
	while ((f->gate_closed && !by_caller) ||
	       (j->wait_for >= 0 && !f->finished[j->wait_for]))
		wait_changed(f);
	if (j->id == f->open_gate_on)
		f->gate_closed = false;
	j->failed = w == NULL;
	j->done_rank = f->ndone++;
	f->finished[j->id] = true;
	pthread_cond_broadcast(&f->changed);
	pthread_mutex_unlock(&f->lock);
}

static struct fixture *fixture_new(void)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->changed, NULL);
	f->open_gate_on = -1;
	return f;
}

static void fixture_free(struct fixture *f)
{
	pthread_cond_destroy(&f->changed);
	pthread_mutex_destroy(&f->lock);
	free(f);
}

static struct ss_pool *pool_new(struct fixture *f, size_t nslots, size_t nthreads)
{
	struct ss_pool_ops ops;
	struct ss_pool *p;

	memset(&ops, 0, sizeof(ops));
	ops.ctx = f;
	ops.worker_new = t_worker_new;
	ops.work = t_work;
	ops.worker_free = t_worker_free;
	ops.caller_works = f->caller_works;
	ops.queue_ahead = f->queue_ahead;
	p = ss_pool_new(nslots, nthreads, &ops);
	assert_non_null(p);
	assert_int_equal(ss_pool_start(p), nthreads);
	return p;
}

/* Wait until a worker holds a job (at the closed gate). */
static void wait_worker_busy(struct fixture *f)
{
	pthread_mutex_lock(&f->lock);
	while (f->nwork == 0)
		wait_changed(f);
	pthread_mutex_unlock(&f->lock);
}

static void submit(struct ss_pool *p, struct fixture *f, int id, int wait_for)
{
	struct job *j;

	assert_true(ss_pool_can_submit(p));
	j = &f->slots[ss_pool_slot_to_fill(p)];
	j->id = id;
	j->wait_for = wait_for;
	j->failed = false;
	j->done_rank = -1;
	ss_pool_submit(p);
}

/* Take the oldest job back; it must be `id`. Returns its completion rank. */
static int take(struct ss_pool *p, struct fixture *f, int id)
{
	struct job *j = &f->slots[ss_pool_wait_oldest(p)];
	int rank = j->done_rank;

	assert_int_equal(j->id, id);
	assert_true(rank >= 0);
	ss_pool_release_oldest(p);
	return rank;
}

/* Job 0 waits for job 1: job 1 completes first, job 0 still comes first. */
static void test_order_despite_completion(void **state)
{
	struct fixture *f = fixture_new();
	struct ss_pool *p = pool_new(f, 4, 2);

	(void)state;
	submit(p, f, 0, 1);
	submit(p, f, 1, -1);
	assert_int_equal(take(p, f, 0), 1);   /* finished second ... */
	assert_int_equal(take(p, f, 1), 0);   /* ... first */
	assert_int_equal(ss_pool_pending(p), 0);
	ss_pool_free(p);
	assert_int_equal(f->workers_made, 2);
	assert_int_equal(f->workers_freed, 2);
	fixture_free(f);
}

/*
 * Many jobs through a small ring, each odd one finished before the even
 * one before it: taken strictly 0, 1, 2, ... with slots reused.
 */
static void test_order_many(void **state)
{
	struct fixture *f = fixture_new();
	struct ss_pool *p = pool_new(f, 4, 3);
	int next_submit = 0, next_take = 0, n = 1000, out_of_order = 0;

	(void)state;
	while (next_take < n) {
		while (next_submit < n && ss_pool_can_submit(p)) {
			/* An even job waits for its odd successor, when that one
			 * fits in the ring with it (ring of 4: pairs do). */
			int wait = next_submit % 2 == 0 && next_submit + 1 < n ? next_submit + 1 : -1;

			submit(p, f, next_submit++, wait);
		}
		assert_true(ss_pool_pending(p) <= 4);
		if (take(p, f, next_take) != next_take)
			out_of_order++;
		next_take++;
	}
	assert_true(out_of_order > 0);
	assert_int_equal(f->nwork, n);
	ss_pool_free(p);
	fixture_free(f);
}

/* No more than nslots jobs in flight; a release frees exactly one slot. */
static void test_backpressure(void **state)
{
	struct fixture *f = fixture_new();
	struct ss_pool *p = pool_new(f, 3, 1);

	(void)state;
	f->gate_closed = true;
	submit(p, f, 0, -1);
	submit(p, f, 1, -1);
	submit(p, f, 2, -1);
	assert_false(ss_pool_can_submit(p));
	assert_int_equal(ss_pool_pending(p), 3);
	pthread_mutex_lock(&f->lock);
	f->gate_closed = false;
	pthread_cond_broadcast(&f->changed);
	pthread_mutex_unlock(&f->lock);
	take(p, f, 0);
	assert_true(ss_pool_can_submit(p));
	submit(p, f, 3, -1);
	assert_false(ss_pool_can_submit(p));
	take(p, f, 1);
	take(p, f, 2);
	take(p, f, 3);
	/* End of input: nothing pending, every slot free again. */
	assert_int_equal(ss_pool_pending(p), 0);
	assert_true(ss_pool_can_submit(p));
	ss_pool_free(p);
	fixture_free(f);
}

/*
 * caller_works: a job submitted while every worker has one waiting is done
 * by the calling thread at once, and waiting for the oldest job, it does a
 * queued one instead; results still come back in order, and the calling
 * thread's worker state is made once and freed.
 */
static void test_caller_works(void **state)
{
	struct fixture *f = fixture_new();
	struct ss_pool *p;

	(void)state;
	f->caller_works = true;
	f->caller = pthread_self();
	f->gate_closed = true;
	f->open_gate_on = 1;
	p = pool_new(f, 4, 1);
	submit(p, f, 0, -1);
	wait_worker_busy(f);      /* the worker holds job 0 at the gate */
	submit(p, f, 1, -1);      /* queued: the worker has none waiting */
	assert_int_equal(f->caller_jobs, 0);
	submit(p, f, 2, -1);      /* the worker has one waiting: done now */
	assert_int_equal(f->caller_jobs, 1);
	assert_int_equal(f->slots[2].done_rank, 0);
	/* Waiting for job 0, the caller does the queued job 1 (which opens
	 * the gate), then job 0 finishes. */
	assert_int_equal(take(p, f, 0), 2);
	assert_int_equal(f->caller_jobs, 2);
	assert_int_equal(take(p, f, 1), 1);
	assert_int_equal(take(p, f, 2), 0);
	ss_pool_free(p);
	assert_int_equal(f->workers_made, 2);
	assert_int_equal(f->workers_freed, 2);
	fixture_free(f);
}

/*
 * queue_ahead 2: the calling thread works only once the worker has two
 * jobs waiting, so the worker finds one queued when it finishes.
 */
static void test_queue_ahead(void **state)
{
	struct fixture *f = fixture_new();
	struct ss_pool *p;

	(void)state;
	f->caller_works = true;
	f->queue_ahead = 2;
	f->caller = pthread_self();
	f->gate_closed = true;
	f->open_gate_on = 3;
	p = pool_new(f, 5, 1);
	submit(p, f, 0, -1);
	wait_worker_busy(f);
	submit(p, f, 1, -1);      /* queued: one waiting */
	submit(p, f, 2, -1);      /* queued: two waiting */
	assert_int_equal(f->caller_jobs, 0);
	submit(p, f, 3, -1);      /* two were waiting: done now, opens the gate */
	assert_int_equal(f->caller_jobs, 1);
	assert_int_equal(f->slots[3].done_rank, 0);
	take(p, f, 0);
	take(p, f, 1);
	take(p, f, 2);
	assert_int_equal(take(p, f, 3), 0);
	ss_pool_free(p);
	fixture_free(f);
}

/* No input at all: start and stop without a job. */
static void test_empty(void **state)
{
	struct fixture *f = fixture_new();
	struct ss_pool *p = pool_new(f, 2, 2);

	(void)state;
	assert_int_equal(ss_pool_pending(p), 0);
	ss_pool_free(p);
	ss_pool_free(NULL);
	assert_int_equal(f->nwork, 0);
	assert_int_equal(f->workers_freed, f->workers_made);
	fixture_free(f);
}

/* A worker without its state still completes each job, marked failed. */
static void test_worker_without_state(void **state)
{
	struct fixture *f = fixture_new();
	struct ss_pool *p;

	(void)state;
	f->no_worker_state = true;
	p = pool_new(f, 2, 1);
	submit(p, f, 0, -1);
	submit(p, f, 1, -1);
	assert_true(f->slots[ss_pool_wait_oldest(p)].failed);
	ss_pool_release_oldest(p);
	assert_true(f->slots[ss_pool_wait_oldest(p)].failed);
	ss_pool_release_oldest(p);
	ss_pool_free(p);
	fixture_free(f);
}

/*
 * A stop with jobs queued (an interrupt, a failed sink): the job being
 * processed finishes, the queued ones are never processed, and free
 * returns.
 */
static void *open_gate_later(void *arg)
{
	struct fixture *f = arg;
	struct timespec pause = {0, 200 * 1000 * 1000};

	nanosleep(&pause, NULL);
	pthread_mutex_lock(&f->lock);
	f->gate_closed = false;
	pthread_cond_broadcast(&f->changed);
	pthread_mutex_unlock(&f->lock);
	return NULL;
}

static void test_stop_drops_queued(void **state)
{
	struct fixture *f = fixture_new();
	struct ss_pool *p = pool_new(f, 4, 1);
	pthread_t opener;

	(void)state;
	f->gate_closed = true;
	for (int i = 0; i < 4; i++)
		submit(p, f, i, -1);
	wait_worker_busy(f);      /* the single worker holds job 0 at the gate */
	/*
	 * Open the gate from another thread a while after free() has started:
	 * free() drops the queue at once, then blocks joining the worker until
	 * the gate opens. (Only the 200 ms between this thread calling free()
	 * and free() taking the pool's lock is timing; nothing else runs.)
	 */
	assert_int_equal(pthread_create(&opener, NULL, open_gate_later, f), 0);
	ss_pool_free(p);
	pthread_join(opener, NULL);
	assert_int_equal(f->nwork, 1);
	assert_true(f->finished[0]);
	assert_false(f->finished[1]);
	fixture_free(f);
}

/* Out of memory making the pool: NULL, nothing leaked (sanitizer build). */
static void test_new_out_of_memory(void **state)
{
	struct fixture *f = fixture_new();
	struct ss_pool_ops ops;

	(void)state;
	memset(&ops, 0, sizeof(ops));
	ops.ctx = f;
	ops.work = t_work;
	for (uint64_t n = 1; n <= 4; n++) {
		struct ss_pool *p;

		ss_alloc_fail_at(n, 0);
		p = ss_pool_new(4, 2, &ops);
		ss_alloc_fail_at(0, 0);
		assert_null(p);
	}
	fixture_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caller_works),
		cmocka_unit_test(test_queue_ahead),
		cmocka_unit_test(test_order_despite_completion),
		cmocka_unit_test(test_order_many),
		cmocka_unit_test(test_backpressure),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_worker_without_state),
		cmocka_unit_test(test_stop_drops_queued),
		cmocka_unit_test(test_new_out_of_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
