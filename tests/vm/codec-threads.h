/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The codec objects' thread contract (include/m2m/codec.h, as m2m.h's for
 * devices), held for the decoder, the encoder (test_vicodec_codec.c) and
 * the chain (test_vicodec_chain.c) alike: a receive that waits is ended by
 * a close from another thread, promptly and with -EINVAL; the handle is
 * refused after; and a receive on nothing returns within its timeout.
 * Header-only, as the tests are one file each.
 */
#ifndef CODEC_THREADS_H
#define CODEC_THREADS_H

#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <m2m/m2m.h>

/* A receive of one kind of object: obj's, up to timeout_ms. */
typedef int receive_fn(void *obj, int timeout_ms);
typedef void close_fn(void *obj);

static inline double seconds_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A receive run in a thread of its own, timed. */
struct waiter {
	pthread_t thread;
	receive_fn *receive;
	void *obj;
	int timeout_ms;
	int ret;
	bool done;
	double seconds;
	char message[256];
};

static inline void *waiter_run(void *arg)
{
	struct waiter *w = arg;
	double start = seconds_now();

	w->ret = w->receive(w->obj, w->timeout_ms);
	w->seconds = seconds_now() - start;
	snprintf(w->message, sizeof(w->message), "%s", m2m_last_error());
	__atomic_store_n(&w->done, true, __ATOMIC_RELEASE);
	return NULL;
}

static inline void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/*
 * A receive of 10 s waits in another thread while nothing is to come;
 * close(obj) ends it with -EINVAL well before its timeout (within 2 s of
 * its start, the close 0.3 s in); then a call on the closed handle is
 * -EINVAL and closing again does nothing.
 */
static inline void close_ends_a_receive(void *obj, receive_fn *receive,
					close_fn *close, const char *what)
{
	struct waiter w = { .receive = receive, .obj = obj,
			    .timeout_ms = 10000 };
	int ret;

	cr_assert_eq(pthread_create(&w.thread, NULL, waiter_run, &w), 0);
	sleep_ms(300);
	cr_assert(!__atomic_load_n(&w.done, __ATOMIC_ACQUIRE),
		  "the %s's receive returned %d before the close (%s): it "
		  "did not wait", what, w.ret, w.message);
	close(obj);
	pthread_join(w.thread, NULL);
	cr_assert_eq(w.ret, -EINVAL, "the %s's receive gave %d (%s), not "
		     "-EINVAL, when closed during its wait", what, w.ret,
		     w.message);
	cr_assert_lt(w.seconds, 2.0, "the %s's receive waited %.2f s, closed "
		     "after 0.3 s", what, w.seconds);
	cr_assert(strstr(w.message, "closed"), "the message says: %s",
		  w.message);
	ret = receive(obj, 0);
	cr_assert_eq(ret, -EINVAL, "a receive on a closed %s gave %d", what,
		     ret);
	cr_assert(strstr(m2m_last_error(), "closed or invalid"),
		  "the message says: %s", m2m_last_error());
	close(obj);
}

/* A send and a drain of one kind of object. */
typedef int send_fn(void *obj, const void *data, size_t size,
		    uint64_t timestamp_ns);
typedef int drain_fn(void *obj);

/* What a feeding thread sends to obj: count items, the ith timestamped
 * (i + 1) * step_ns, then a drain. */
struct feed {
	void *obj;
	send_fn *send;
	drain_fn *drain;
	const unsigned char *data[64];
	size_t size[64];
	unsigned int count;
	uint64_t step_ns;
	pthread_t thread;
	int ret;
	char message[256];
};

/* Send every item, waiting while the object is full (-EAGAIN: the other
 * thread receives), then drain. */
static inline void *feed_run(void *arg)
{
	struct feed *f = arg;
	unsigned int i;
	int ret = 0;

	for (i = 0; ret == 0 && i < f->count; i++)
		while ((ret = f->send(f->obj, f->data[i], f->size[i],
				      (i + 1) * f->step_ns)) == -EAGAIN)
			sleep_ms(1);
	if (ret == 0)
		ret = f->drain(f->obj);
	f->ret = ret;
	snprintf(f->message, sizeof(f->message), "%s", m2m_last_error());
	return NULL;
}

static inline void start_feed(struct feed *f)
{
	cr_assert_eq(pthread_create(&f->thread, NULL, feed_run, f), 0);
}

/* The feeder's end: every item sent and the drain asked for. */
static inline void finish_feed(struct feed *f)
{
	pthread_join(f->thread, NULL);
	cr_assert_eq(f->ret, 0, "the feeding thread: %s", f->message);
}

/* A receive of 0.5 s on nothing returns -EAGAIN after 0.5 s, not before
 * and not much after. */
static inline void receive_keeps_its_timeout(void *obj, receive_fn *receive,
					     const char *what)
{
	double start = seconds_now(), took;
	int ret = receive(obj, 500);

	took = seconds_now() - start;
	cr_assert_eq(ret, -EAGAIN, "the %s's receive on nothing gave %d (%s)",
		     what, ret, m2m_last_error());
	cr_assert(took >= 0.49 && took < 0.8, "the %s's receive of 0.5 s "
		  "took %.3f s", what, took);
}

#endif
