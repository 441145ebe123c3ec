// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libm2m's thread contract under load, on the in-process device: several
 * threads on one device (conversions, streaming, formats, controls,
 * events, waits racing), many devices at once, m2m_close() racing calls
 * and ending blocking waits, the log callback cleared while threads log.
 * What may fail does so with a negative errno and a message; conversions
 * that succeed are right; nothing crashes, hangs or races (the sanitizer
 * lanes run this under ASan+UBSan and under TSan).
 *
 * M2M_STRESS_MS sets how long each race runs (default 1000 ms).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/videodev2.h>
#include <m2m/m2m.h>

#define W 64
#define H 48
#define FRAME (W * H * 3)

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static unsigned int stress_ms(void)
{
	const char *ms = getenv("M2M_STRESS_MS");

	return ms && atoi(ms) > 0 ? (unsigned int)atoi(ms) : 1000;
}

/* A thread of a race: what it saw wrong first, and how much it did. */
struct racer {
	pthread_t thread;
	struct m2m_device *dev;
	unsigned int id;
	atomic_bool *stop;
	char wrong[256];
	unsigned int calls;
	unsigned int succeeded;
};

static bool failed(const struct racer *r)
{
	return r->wrong[0] != '\0';
}

/*
 * A call's result: success, or a failure a race may cause (buffers freed
 * by another thread's call, a queue another API holds, nothing to
 * dequeue), with a message. Anything else is wrong.
 */
static bool check(struct racer *r, int ret, const char *call)
{
	const char *msg = m2m_last_error();

	r->calls++;
	if (ret >= 0) {
		r->succeeded++;
		return true;
	}
	if ((ret == -EBUSY || ret == -EINVAL || ret == -EAGAIN ||
	     ret == -ENODATA || ret == -EPIPE || ret == -ETIMEDOUT) &&
	    msg[0] && strcmp(msg, "no error"))
		return true;
	if (!failed(r))
		snprintf(r->wrong, sizeof(r->wrong), "%s: %d (%s)", call, ret,
			 msg);
	return false;
}

static void set_formats(struct m2m_device *dev, uint32_t w, uint32_t h)
{
	struct m2m_format f;

	m2m_format_init(&f, V4L2_PIX_FMT_RGB24, w, h);
	m2m_set_format(dev, &f, M2M_QUEUE_OUTPUT);
	m2m_format_init(&f, V4L2_PIX_FMT_RGB24, w, h);
	m2m_set_format(dev, &f, M2M_QUEUE_CAPTURE);
}

/*
 * One conversion of a frame of one grey level: whatever the formats and
 * flips another thread set, the result is that grey, and the size of one
 * of the two frame sizes the races use.
 */
static void convert_grey(struct racer *r, uint8_t grey)
{
	uint8_t *src = malloc(FRAME), *dst = malloc(FRAME);
	int n;

	cr_assert(src && dst);
	memset(src, grey, FRAME);
	memset(dst, grey ^ 0xff, FRAME);
	n = m2m_convert(r->dev, dst, FRAME, src, FRAME);
	if (check(r, n, "m2m_convert") && n >= 0) {
		if (n != FRAME && n != FRAME / 4 && !failed(r))
			snprintf(r->wrong, sizeof(r->wrong), "m2m_convert "
				 "gave %d bytes", n);
		for (int i = 0; i < n && !failed(r); i++)
			if (dst[i] != grey)
				snprintf(r->wrong, sizeof(r->wrong), "byte %d "
					 "of %d is %u, not %u", i, n, dst[i],
					 grey);
	}
	free(src);
	free(dst);
}

static void *converts(void *arg)
{
	struct racer *r = arg;

	for (unsigned int i = 0; !atomic_load(r->stop) && !failed(r); i++)
		convert_grey(r, (uint8_t)(r->id * 64 + i));
	return NULL;
}

static void *sets_formats(void *arg)
{
	struct racer *r = arg;
	struct m2m_format f;

	for (unsigned int i = 0; !atomic_load(r->stop) && !failed(r); i++) {
		uint32_t w = i & 1 ? W : W / 2, h = i & 1 ? H : H / 2;

		m2m_format_init(&f, V4L2_PIX_FMT_RGB24, w, h);
		check(r, m2m_set_format(r->dev, &f, M2M_QUEUE_OUTPUT),
		      "m2m_set_format");
		m2m_format_init(&f, V4L2_PIX_FMT_RGB24, w, h);
		check(r, m2m_set_format(r->dev, &f, M2M_QUEUE_CAPTURE),
		      "m2m_set_format");
	}
	return NULL;
}

static void *sets_controls(void *arg)
{
	struct racer *r = arg;
	int64_t v;

	for (unsigned int i = 0; !atomic_load(r->stop) && !failed(r); i++) {
		check(r, m2m_set_control(r->dev, V4L2_CID_HFLIP, i & 1),
		      "m2m_set_control");
		check(r, m2m_get_control(r->dev, &v, V4L2_CID_VFLIP),
		      "m2m_get_control");
	}
	return NULL;
}

/* The streaming API on the same device: buffers come and go. */
static void *streams(void *arg)
{
	struct racer *r = arg;
	struct m2m_buffer *b;
	unsigned int ready;

	while (!atomic_load(r->stop) && !failed(r)) {
		check(r, m2m_alloc_buffers(r->dev, M2M_QUEUE_OUTPUT,
					   M2M_MEMORY_MMAP, 2), "alloc");
		check(r, m2m_alloc_buffers(r->dev, M2M_QUEUE_CAPTURE,
					   M2M_MEMORY_MMAP, 2), "alloc");
		check(r, m2m_stream_on(r->dev, M2M_QUEUE_OUTPUT), "stream_on");
		check(r, m2m_stream_on(r->dev, M2M_QUEUE_CAPTURE),
		      "stream_on");
		for (unsigned int i = 0; i < 2; i++) {
			b = m2m_get_buffer(r->dev, M2M_QUEUE_CAPTURE, i);
			if (b)
				check(r, m2m_queue_buffer(r->dev, b), "queue");
			b = m2m_get_buffer(r->dev, M2M_QUEUE_OUTPUT, i);
			if (b)
				check(r, m2m_queue_buffer(r->dev, b), "queue");
		}
		if (check(r, m2m_wait_for(r->dev, &ready, M2M_READY_CAPTURE,
					  50), "m2m_wait_for") &&
		    ready & M2M_READY_CAPTURE)
			check(r, m2m_dequeue_buffer(r->dev, &b,
						    M2M_QUEUE_CAPTURE),
			      "dequeue");
		check(r, m2m_stream_off(r->dev, M2M_QUEUE_CAPTURE),
		      "stream_off");
		check(r, m2m_free_buffers(r->dev, M2M_QUEUE_OUTPUT), "free");
		check(r, m2m_free_buffers(r->dev, M2M_QUEUE_CAPTURE), "free");
	}
	return NULL;
}

static void *takes_events(void *arg)
{
	struct racer *r = arg;
	struct m2m_event ev;
	unsigned int ready;

	check(r, m2m_subscribe_event(r->dev, M2M_EVENT_CTRL, V4L2_CID_HFLIP,
				     M2M_EVENT_ALLOW_FEEDBACK), "subscribe");
	while (!atomic_load(r->stop) && !failed(r)) {
		check(r, m2m_wait_for(r->dev, &ready, M2M_READY_EVENT, 10),
		      "m2m_wait_for");
		check(r, m2m_dequeue_event(r->dev, &ev), "m2m_dequeue_event");
	}
	return NULL;
}

typedef void *(*racer_fn)(void *);

/* Run fns[i] in a thread each on dev for the stress time; check them. */
static void race(struct m2m_device *dev, const racer_fn *fns, unsigned int n)
{
	struct racer *r = calloc(n, sizeof(*r));
	atomic_bool stop = false;
	uint64_t end = now_ms() + stress_ms();
	unsigned int i;

	cr_assert_not_null(r);
	for (i = 0; i < n; i++) {
		r[i].dev = dev;
		r[i].id = i;
		r[i].stop = &stop;
		cr_assert_eq(pthread_create(&r[i].thread, NULL, fns[i], &r[i]),
			     0);
	}
	while (now_ms() < end)
		usleep(10000);
	atomic_store(&stop, true);
	for (i = 0; i < n; i++)
		pthread_join(r[i].thread, NULL);
	for (i = 0; i < n; i++) {
		cr_assert(!failed(&r[i]), "thread %u: %s", i, r[i].wrong);
		cr_assert_gt(r[i].calls, 0, "thread %u made no call", i);
	}
	/* The conversions were not all refused. */
	cr_assert_gt(r[0].succeeded + r[1].succeeded, 0);
	free(r);
}

static struct m2m_device *open_inprocess(void)
{
	struct m2m_device *dev;

	cr_assert_eq(m2m_open(&dev, M2M_INPROCESS), 0, "%s", m2m_last_error());
	return dev;
}

Test(stress, one_device_many_threads, .timeout = 120)
{
	static const racer_fn fns[] = {
		converts, converts, sets_formats, sets_controls, streams,
		takes_events,
	};
	struct m2m_device *dev = open_inprocess();

	set_formats(dev, W, H);
	race(dev, fns, sizeof(fns) / sizeof(fns[0]));
	m2m_close(dev);
}

/* A device per thread, opened, used and closed again and again. */
static void *opens_converts_closes(void *arg)
{
	struct racer *r = arg;

	while (!atomic_load(r->stop) && !failed(r)) {
		if (!check(r, m2m_open(&r->dev, M2M_INPROCESS), "m2m_open"))
			break;
		set_formats(r->dev, W, H);
		for (unsigned int i = 0; i < 4 && !failed(r); i++)
			convert_grey(r, (uint8_t)(r->id * 16 + i));
		m2m_close(r->dev);
	}
	return NULL;
}

Test(stress, many_devices_opened_and_closed_at_once, .timeout = 120)
{
	static const racer_fn fns[] = {
		opens_converts_closes, opens_converts_closes,
		opens_converts_closes, opens_converts_closes,
		opens_converts_closes, opens_converts_closes,
	};

	race(NULL, fns, sizeof(fns) / sizeof(fns[0]));
}

/*
 * m2m_close() racing calls: threads call until the device is closed, two
 * of them blocked in waits without a timeout. After the close, the calls
 * in flight and every call made later fail with -EINVAL and a message
 * saying so; the waits end.
 */
struct closing {
	pthread_t thread;
	struct m2m_device *dev;
	atomic_bool *closed;
	unsigned int kind;
	char wrong[256];
};

static bool closed_message(void)
{
	return strstr(m2m_last_error(), "closed") != NULL;
}

static int call_until_closed(struct closing *c)
{
	struct m2m_buffer *b;
	struct m2m_format f;
	unsigned int ready;
	uint8_t frame[FRAME];

	memset(frame, c->kind, sizeof(frame));
	switch (c->kind) {
	case 0:
		return m2m_convert(c->dev, frame, FRAME, frame, FRAME);
	case 1:
		m2m_format_init(&f, V4L2_PIX_FMT_RGB24, W, H);
		return m2m_set_format(c->dev, &f, M2M_QUEUE_OUTPUT);
	case 2:
		return m2m_wait(c->dev, &ready, -1);
	default:
		return m2m_dequeue_buffer(c->dev, &b, M2M_QUEUE_CAPTURE);
	}
}

static void *calls_until_closed(void *arg)
{
	struct closing *c = arg;
	int ret;

	for (;;) {
		bool was_closed = atomic_load(c->closed);

		ret = call_until_closed(c);
		if (ret == -EINVAL && closed_message())
			break;
		if (was_closed) {
			snprintf(c->wrong, sizeof(c->wrong), "kind %u after "
				 "the close: %d (%s)", c->kind, ret,
				 m2m_last_error());
			break;
		}
	}
	return NULL;
}

Test(stress, close_races_calls_and_ends_waits, .timeout = 120)
{
	uint64_t end = now_ms() + stress_ms();
	unsigned int rounds = 0;

	while (now_ms() < end || rounds < 5) {
		struct m2m_device *dev = open_inprocess();
		struct closing c[5];
		atomic_bool closed = false;

		set_formats(dev, W, H);
		/* CAPTURE queued, OUTPUT not: the waits have nothing to get. */
		cr_assert_eq(m2m_alloc_buffers(dev, M2M_QUEUE_CAPTURE,
					       M2M_MEMORY_MMAP, 1), 1);
		cr_assert_eq(m2m_stream_on(dev, M2M_QUEUE_CAPTURE), 0);
		cr_assert_eq(m2m_queue_buffer(dev, m2m_get_buffer(dev,
					      M2M_QUEUE_CAPTURE, 0)), 0);
		for (unsigned int i = 0; i < 5; i++) {
			c[i] = (struct closing){ .dev = dev, .kind = i % 4,
						 .closed = &closed };
			cr_assert_eq(pthread_create(&c[i].thread, NULL,
						    calls_until_closed, &c[i]),
				     0);
		}
		usleep(rounds % 4 * 2000);
		m2m_close(dev);
		atomic_store(&closed, true);
		for (unsigned int i = 0; i < 5; i++) {
			pthread_join(c[i].thread, NULL);
			cr_assert_eq(c[i].wrong[0], '\0', "round %u: %s",
				     rounds, c[i].wrong);
		}
		rounds++;
	}
}
