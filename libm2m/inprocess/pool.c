// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The in-process device's band pool: a job's frame is split into bands
 * (engine/hqv.h: hqv_band_rows(), hqv_job_threads()) that the thread
 * running the job and the pool's helper threads take, each band by
 * whichever thread is free next, each thread with its own scratch memory;
 * a small frame runs on the job's thread alone. Helpers start with the
 * first frame that wants them.
 *
 * Between bands the frame is abandoned when the context aborts it
 * (STREAMOFF, close), and, when the job's thread runs it for a caller's
 * wait, when a signal that asks the process to stop is pending: the
 * caller's wait then ends with EINTR, as a system call's would. The
 * pending signals are looked at once a millisecond at most
 * (STOP_CHECK_NS).
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "inprocess.h"

/* Grow a buffer to size bytes, keeping it while it is large enough. */
bool ip_reserve(void **buf, size_t *have, size_t size)
{
	if (size <= *have)
		return true;
	free(*buf);
	*buf = malloc(size);
	*have = *buf ? size : 0;
	return *buf;
}

/*
 * The signals that ask a process to stop what it does: the terminal's
 * Ctrl-C (Python's KeyboardInterrupt, a notebook's "interrupt kernel")
 * and Ctrl-\, a hang-up, kill's default. The library's threads keep them
 * blocked, so that they reach the application's threads; a thread that
 * runs a frame for its caller's wait blocks them while it does, and looks
 * for one pending between bands.
 */
static void stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGQUIT);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGTERM);
}

static bool stop_pending(const sigset_t *stop)
{
	sigset_t pending;

	if (sigpending(&pending))
		return false;
	sigandset(&pending, &pending, stop);
	return !sigisemptyset(&pending);
}

int ip_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg,
		     const char *name)
{
	sigset_t stop, old;
	int err;

	stop_signals(&stop);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	err = pthread_create(thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	/* A name is a convenience: the thread runs without one. */
	if (!err)
		pthread_setname_np(*thread, name);
	return err;
}

static int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/*
 * How often the job's thread looks for a pending stop signal between
 * bands. Each look is a system call (sigpending(), about 1 us on a
 * Firecracker VM), and a 1080p frame that takes a tenth of a
 * millisecond has a dozen bands on that thread; so the first look comes
 * a millisecond into the frame and the next a millisecond after the one
 * before. Ctrl-C then ends a long frame within a millisecond and a band.
 */
#define STOP_CHECK_NS 1000000

/*
 * Bands of the pool's job until none is left or the job is abandoned;
 * stop: the stop signals, for the job's thread when they interrupt it.
 */
static void run_bands(struct ip_pool *pool, void *scratch,
		      const sigset_t *stop)
{
	const struct hqv_job *job = pool->job;
	int64_t look = stop ? now_ns() + STOP_CHECK_NS : 0;
	uint32_t band;

	while ((band = __atomic_fetch_add(&pool->next_band, 1,
					  __ATOMIC_RELAXED)) < pool->bands) {
		uint32_t y = band * pool->band_rows;

		if (stop && now_ns() >= look) {
			if (stop_pending(stop))
				__atomic_store_n(&pool->interrupted, true,
						 __ATOMIC_RELAXED);
			look = now_ns() + STOP_CHECK_NS;
		}
		if (__atomic_load_n(pool->aborting, __ATOMIC_RELAXED) ||
		    __atomic_load_n(&pool->interrupted, __ATOMIC_RELAXED)) {
			__atomic_store_n(&pool->aborted, true,
					 __ATOMIC_RELAXED);
			return;
		}
		hqv_job_run(job, scratch, y, y + pool->band_rows);
	}
}

/*
 * Before a thread sleeps on a condition it watches a word for a while
 * (about 50 us), as OpenCV's pool does: frames that follow each other
 * then find the helpers awake, and the job's thread sees the last band
 * end without a wake-up, which is a large part of a short job.
 */
#define SPIN_NS 50000

static inline void spin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/*
 * Watch *word for SPIN_NS at most (the clock read every 64 pauses, whose
 * length varies from CPU to CPU): whether it became nonzero (zero, for
 * want_zero) meanwhile.
 */
static bool spin_on(const unsigned int *word, bool want_zero)
{
	int64_t end = now_ns() + SPIN_NS;
	unsigned int i;

	for (i = 1;; i++) {
		if ((__atomic_load_n(word, __ATOMIC_ACQUIRE) == 0) == want_zero)
			return true;
		if (!(i % 64) && now_ns() > end)
			return false;
		spin_pause();
	}
}

static void *helper(void *arg)
{
	struct ip_helper *h = arg;
	struct ip_pool *pool = h->pool;

	pthread_mutex_lock(&pool->lock);
	for (;;) {
		if (!pool->tickets && !pool->quit) {
			pthread_mutex_unlock(&pool->lock);
			spin_on(&pool->tickets, false);
			pthread_mutex_lock(&pool->lock);
		}
		while (!pool->tickets && !pool->quit)
			pthread_cond_wait(&pool->start, &pool->lock);
		if (pool->quit)
			break;
		__atomic_store_n(&pool->tickets, pool->tickets - 1,
				 __ATOMIC_RELAXED);
		pthread_mutex_unlock(&pool->lock);
		if (ip_reserve(&h->scratch, &h->scratch_size,
			       pool->scratch_size))
			run_bands(pool, h->scratch, NULL);
		pthread_mutex_lock(&pool->lock);
		__atomic_store_n(&pool->busy, pool->busy - 1, __ATOMIC_RELEASE);
		if (!pool->busy)
			pthread_cond_signal(&pool->done);
	}
	pthread_mutex_unlock(&pool->lock);
	return NULL;
}

void ip_pool_init(struct ip_pool *pool, unsigned int threads)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (!threads)
		threads = cpus > 0 ? (unsigned int)cpus : 1;
	pool->threads = threads > IP_MAX_THREADS ? IP_MAX_THREADS : threads;
	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->start, NULL);
	pthread_cond_init(&pool->done, NULL);
}

/* The helpers, started once; fewer when the system refuses threads. */
static void pool_start(struct ip_pool *pool)
{
	unsigned int i;

	pool->started = true;
	for (i = 0; i + 1 < pool->threads; i++) {
		struct ip_helper *h = &pool->helpers[i];

		h->pool = pool;
		if (ip_thread_create(&h->thread, helper, h, IP_THREAD_BANDS))
			break;
		pool->n_helpers++;
	}
}

/*
 * Run a job's bands. side, when given, is other work for the calling
 * thread that does not touch what the job reads or writes: it runs while
 * the helpers take their first bands, then the caller takes bands too.
 */
int ip_pool_run(struct ip_pool *pool, const struct hqv_job *job,
		void **scratch, size_t *scratch_size, const bool *aborting,
		bool interruptible, void (*side)(void *), void *side_arg)
{
	size_t need = hqv_job_scratch_size(job);
	uint32_t rows = hqv_band_rows(job);
	uint32_t bands = (job->dst.height + rows - 1) / rows;
	unsigned int helpers = hqv_job_threads(job, bands, pool->threads) - 1;
	sigset_t stop, old;

	if (!ip_reserve(scratch, scratch_size, need))
		return -ENOMEM;
	pool->job = job;
	pool->band_rows = rows;
	pool->bands = bands;
	pool->next_band = 0;
	pool->aborting = aborting;
	pool->aborted = false;
	pool->interrupted = false;
	pool->scratch_size = need;
	/*
	 * Those the calling thread takes: the others are not for it. A job
	 * of one band has no point between bands to stop at: it runs as any
	 * short call does, and a stop signal is delivered when it comes (for
	 * a small frame that saves three system calls, a third of Python's
	 * 160x120 convert() on a Firecracker VM).
	 */
	interruptible = interruptible && bands > 1;
	stop_signals(&stop);
	if (interruptible) {
		int sig;

		pthread_sigmask(SIG_BLOCK, &stop, &old);
		for (sig = 1; sig < NSIG; sig++)
			if (sigismember(&old, sig) == 1)
				sigdelset(&stop, sig);
	}
	if (helpers && !pool->started)
		pool_start(pool);
	if (helpers > pool->n_helpers)
		helpers = pool->n_helpers;
	if (helpers) {
		pthread_mutex_lock(&pool->lock);
		__atomic_store_n(&pool->busy, helpers, __ATOMIC_RELAXED);
		__atomic_store_n(&pool->tickets, helpers, __ATOMIC_RELEASE);
		if (helpers == 1)
			pthread_cond_signal(&pool->start);
		else
			pthread_cond_broadcast(&pool->start);
		pthread_mutex_unlock(&pool->lock);
	}
	if (side)
		side(side_arg);
	run_bands(pool, *scratch, interruptible ? &stop : NULL);
	if (helpers) {
		/* Helpers not awake yet would find no band left: not waited for. */
		pthread_mutex_lock(&pool->lock);
		__atomic_store_n(&pool->busy, pool->busy - pool->tickets,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&pool->tickets, 0, __ATOMIC_RELAXED);
		if (pool->busy) {
			pthread_mutex_unlock(&pool->lock);
			spin_on(&pool->busy, true);
			pthread_mutex_lock(&pool->lock);
		}
		while (pool->busy)
			pthread_cond_wait(&pool->done, &pool->lock);
		pthread_mutex_unlock(&pool->lock);
	}
	/* A stop signal pending now is delivered: its handler runs. */
	if (interruptible)
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (pool->interrupted)
		return -EINTR;
	return pool->aborted ? -ECANCELED : 0;
}

void ip_pool_free(struct ip_pool *pool)
{
	unsigned int i;

	pthread_mutex_lock(&pool->lock);
	pool->quit = true;
	pthread_cond_broadcast(&pool->start);
	pthread_mutex_unlock(&pool->lock);
	for (i = 0; i < pool->n_helpers; i++) {
		pthread_join(pool->helpers[i].thread, NULL);
		free(pool->helpers[i].scratch);
	}
	pthread_cond_destroy(&pool->done);
	pthread_cond_destroy(&pool->start);
	pthread_mutex_destroy(&pool->lock);
}
