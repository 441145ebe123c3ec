// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The in-process device's band pool: a context's worker splits each frame
 * into bands of IP_BAND_ROWS rows (engine/hqv.h, hqv_job_run()) and runs
 * them with the pool's helper threads, each band taken by whichever
 * thread is free next, each thread with its own scratch memory. Helpers
 * start with the first frame that has bands for them, and a frame with
 * one band runs on the worker alone, so small frames pay no wake-up.
 */
#include <stdlib.h>
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

/* Bands of the pool's job until none is left or the job is aborted. */
static void run_bands(struct ip_pool *pool, void *scratch)
{
	const struct hqv_job *job = pool->job;
	uint32_t band;

	while ((band = __atomic_fetch_add(&pool->next_band, 1,
					  __ATOMIC_RELAXED)) < pool->bands) {
		uint32_t y = band * IP_BAND_ROWS;

		if (__atomic_load_n(pool->aborting, __ATOMIC_RELAXED)) {
			__atomic_store_n(&pool->aborted, true,
					 __ATOMIC_RELAXED);
			return;
		}
		hqv_job_run(job, scratch, y, y + IP_BAND_ROWS);
	}
}

static void *helper(void *arg)
{
	struct ip_helper *h = arg;
	struct ip_pool *pool = h->pool;
	unsigned int seen = 0;

	pthread_mutex_lock(&pool->lock);
	for (;;) {
		while (pool->generation == seen && !pool->quit)
			pthread_cond_wait(&pool->start, &pool->lock);
		if (pool->quit)
			break;
		seen = pool->generation;
		pthread_mutex_unlock(&pool->lock);
		if (ip_reserve(&h->scratch, &h->scratch_size,
			       pool->scratch_size))
			run_bands(pool, h->scratch);
		pthread_mutex_lock(&pool->lock);
		if (!--pool->busy)
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
		if (pthread_create(&h->thread, NULL, helper, h))
			break;
		pool->n_helpers++;
	}
}

bool ip_pool_run(struct ip_pool *pool, const struct hqv_job *job,
		 void **scratch, size_t *scratch_size, const bool *aborting)
{
	size_t need = hqv_job_scratch_size(job);
	uint32_t bands = (job->dst.height + IP_BAND_ROWS - 1) / IP_BAND_ROWS;
	unsigned int helpers;

	if (!ip_reserve(scratch, scratch_size, need))
		return false;
	pool->job = job;
	pool->bands = bands;
	pool->next_band = 0;
	pool->aborting = aborting;
	pool->aborted = false;
	pool->scratch_size = need;
	if (bands > 1 && pool->threads > 1 && !pool->started)
		pool_start(pool);
	helpers = bands > 1 ? pool->n_helpers : 0;
	if (helpers) {
		pthread_mutex_lock(&pool->lock);
		pool->busy = helpers;
		pool->generation++;
		pthread_cond_broadcast(&pool->start);
		pthread_mutex_unlock(&pool->lock);
	}
	run_bands(pool, *scratch);
	if (helpers) {
		pthread_mutex_lock(&pool->lock);
		while (pool->busy)
			pthread_cond_wait(&pool->done, &pool->lock);
		pthread_mutex_unlock(&pool->lock);
	}
	return !pool->aborted;
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
