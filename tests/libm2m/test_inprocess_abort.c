// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A long frame on the in-process device ends within about a band's time
 * (engine/hqv.h: HQV_BAND_PIXELS) when it is abandoned, wherever the
 * thread that makes it waits: m2m_close() or m2m_stream_off() from
 * another thread, or a signal that asks the process to stop (SIGINT, as
 * Ctrl-C and Python's KeyboardInterrupt send) reaching the thread whose
 * call runs the frame, which then returns -EINTR. The frame is an 8192
 * x 8192 one through the general pipeline (scaled, turned, a proc-amp):
 * about 4 s of CPU time on an AMD EPYC in 256 bands. The abort comes as
 * soon as the frame's first row is written, whatever the machine's speed,
 * and the frame's middle row must stay unwritten: the job's thread takes
 * bands from the top down and the helpers from the bottom up, so only an
 * abandoned frame leaves it, where they meet last. What the process does
 * after the abort until the wait returns is at most a band a thread, far
 * under WITHIN_S; time is the process's CPU time, all threads', not the
 * clock's: a loaded machine (a test VM beside, a sanitizer) stretches the
 * clock, not the work.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/videodev2.h>
#include <m2m/m2m.h>
#include <m2m/vhqv.h>

#define FMT(s) m2m_fourcc_from_name(s)
#define OK(call) cr_assert_geq((call), 0, "%s: %s", #call, m2m_last_error())

#define SIDE		8192
/* CPU time at most from the abort until the frame's wait returns. */
#define WITHIN_S	1.0
/* The clock's time at most until a frame's first row is written. */
#define START_S		60.0

/* The process's CPU time so far: every thread's. */
static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
	struct timespec t = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&t, &t) < 0 && errno == EINTR)
		;
}

static double clock_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/*
 * Until the frame whose CAPTURE memory starts at first has begun: its
 * first byte, zero before, is written (a luma sample, 16 or more). The
 * engine's threads write it as this one reads: a race by design, which
 * ThreadSanitizer is not to report.
 */
__attribute__((no_sanitize("thread")))
static bool started(const volatile uint8_t *first)
{
	double until = clock_s() + START_S;

	while (!*first)
		if (clock_s() > until)
			return false;
		else
			sleep_s(0.0005);
	return true;
}

/* A device set up for the long frame, and its buffers' sizes. */
static struct m2m_device *long_job(size_t *in_size, size_t *out_size)
{
	struct m2m_format in, out;
	struct m2m_device *dev;

	OK(m2m_open(&dev, M2M_INPROCESS));
	OK(m2m_format_init(&in, FMT("RGB24"), SIDE, SIDE));
	OK(m2m_format_init(&out, FMT("NV12"), SIDE / 2 + 2, SIDE / 2 - 2));
	/* Turning first: it sets CAPTURE's size to the turned source's. */
	OK(m2m_set_control(dev, V4L2_CID_ROTATE, 90));
	OK(m2m_set_control(dev, V4L2_CID_VHQV_SCALER, VHQV_SCALER_BILINEAR));
	OK(m2m_set_control(dev, V4L2_CID_HUE, 30));
	OK(m2m_set_format(dev, &in, M2M_QUEUE_OUTPUT));
	OK(m2m_set_format(dev, &out, M2M_QUEUE_CAPTURE));
	OK(m2m_get_format(dev, &out, M2M_QUEUE_CAPTURE));
	cr_assert_eq(out.width, SIDE / 2 + 2, "CAPTURE %ux%u", out.width,
		     out.height);
	*in_size = m2m_format_frame_size(&in);
	*out_size = m2m_format_frame_size(&out);
	return dev;
}

/*
 * What another thread does to the device once the frame has begun (its
 * CAPTURE memory's first byte is written), after queueing a buffer (when
 * given) QUEUE_S from now.
 */
#define QUEUE_S		0.05

struct later {
	struct m2m_device *dev;
	struct m2m_buffer *queue;
	const volatile uint8_t *first;	/* the frame's CAPTURE memory */
	size_t size;			/* and its size */
	pthread_t target;	/* the thread a signal goes to */
	enum { CLOSE, STREAM_OFF, SIGNAL } what;
	bool began;
	int queued, ret;
	double sent, done;	/* when it was done, and when that returned */
};

static void *later_thread(void *arg)
{
	struct later *l = arg;

	if (l->queue) {
		sleep_s(QUEUE_S);
		l->queued = m2m_queue_buffer(l->dev, l->queue);
	}
	l->began = started(l->first);
	l->sent = now();
	switch (l->what) {
	case CLOSE:
		m2m_close(l->dev);
		break;
	case STREAM_OFF:
		l->ret = m2m_stream_off(l->dev, M2M_QUEUE_CAPTURE);
		break;
	case SIGNAL:
		l->ret = pthread_kill(l->target, SIGINT);
		break;
	}
	l->done = now();
	return NULL;
}

static void later_start(struct later *l, pthread_t *thread)
{
	l->target = pthread_self();
	cr_assert_eq(pthread_create(thread, NULL, later_thread, l), 0);
}

/*
 * The frame began, and was abandoned before its end: the first luma of
 * its middle row (a third into NV12's frame, 16 or more from black) is
 * still the zero it was before.
 */
static void assert_abandoned(const struct later *l)
{
	cr_assert(l->began, "the frame had not begun %g s after it was "
		  "queued", START_S);
	cr_assert_eq(l->first[l->size / 3], 0, "the frame was made to its "
		     "end");
}

/*
 * A streaming device with a zeroed CAPTURE buffer queued for the long
 * frame; l's OUTPUT buffer is to be queued by another thread once this
 * one waits, so that the frame is this thread's to make (with none
 * waiting, the device's own thread would make it).
 */
static void long_stream(struct later *l)
{
	struct m2m_buffer *out;
	size_t in_size;

	l->dev = long_job(&in_size, &l->size);
	OK(m2m_alloc_buffers(l->dev, M2M_QUEUE_OUTPUT, M2M_MEMORY_MMAP, 1));
	OK(m2m_alloc_buffers(l->dev, M2M_QUEUE_CAPTURE, M2M_MEMORY_MMAP, 1));
	l->queue = m2m_get_buffer(l->dev, M2M_QUEUE_OUTPUT, 0);
	out = m2m_get_buffer(l->dev, M2M_QUEUE_CAPTURE, 0);
	cr_assert(l->queue && out);
	cr_assert_geq(out->length[0], l->size);
	memset(out->data[0], 0, l->size);
	l->first = out->data[0];
	OK(m2m_queue_buffer(l->dev, out));
	OK(m2m_stream_on(l->dev, M2M_QUEUE_OUTPUT));
	OK(m2m_stream_on(l->dev, M2M_QUEUE_CAPTURE));
}

static volatile sig_atomic_t interrupts;

static void on_sigint(int sig)
{
	(void)sig;
	interrupts++;
}

/* SIGINT is caught, as Python catches it, without SA_RESTART. */
static void catch_sigint(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	cr_assert_eq(sigaction(SIGINT, &sa, NULL), 0);
}

/*
 * m2m_convert() of the long frame on l's device, another thread doing
 * what l says meanwhile; its result, and when it returned. The frame was
 * abandoned (assert_abandoned()).
 */
static int convert_while(struct later *l, double *ended)
{
	size_t in_size;
	uint8_t *src, *dst;
	pthread_t thread;
	int ret;

	l->dev = long_job(&in_size, &l->size);
	/* Black from zeroed pages: the frame's content does not matter. */
	src = calloc(1, in_size);
	dst = calloc(1, l->size);
	cr_assert(src && dst);
	l->first = dst;
	later_start(l, &thread);
	ret = m2m_convert(l->dev, dst, l->size, src, in_size);
	*ended = now();
	pthread_join(thread, NULL);
	assert_abandoned(l);
	free(src);
	free(dst);
	return ret;
}

static void assert_message_mentions(const char *what)
{
	cr_assert_not_null(strstr(m2m_last_error(), what),
			   "message \"%s\" mentions \"%s\"", m2m_last_error(),
			   what);
}

Test(abort, closing_from_another_thread_ends_a_frame_being_made)
{
	struct later l = { .what = CLOSE };
	double ended;
	int ret;

	ret = convert_while(&l, &ended);
	cr_assert_eq(ret, -EINVAL, "m2m_convert: %d, %s", ret,
		     m2m_last_error());
	assert_message_mentions("closed by another thread");
	/* m2m_close() returns once the call it ended has returned. */
	cr_assert_lt(l.done - l.sent, WITHIN_S, "m2m_close() took %.2f s",
		     l.done - l.sent);
}

Test(abort, stream_off_from_another_thread_ends_a_frame_being_made)
{
	struct later l = { .what = STREAM_OFF };
	struct m2m_buffer *buf;
	pthread_t thread;
	double ended;
	int ret;

	long_stream(&l);
	later_start(&l, &thread);
	/* Without a timeout: this thread makes the frame while it waits. */
	ret = m2m_dequeue_buffer(l.dev, &buf, M2M_QUEUE_CAPTURE);
	ended = now();
	pthread_join(thread, NULL);
	OK(l.queued);
	OK(l.ret);
	cr_assert_lt(l.done - l.sent, WITHIN_S, "m2m_stream_off() took %.2f s",
		     l.done - l.sent);
	cr_assert_lt(ended - l.sent, WITHIN_S, "the wait took %.2f s more",
		     ended - l.sent);
	/* The stopped queue has nothing to give back. */
	cr_assert_lt(ret, 0);
	assert_abandoned(&l);
	m2m_close(l.dev);
}

Test(abort, sigint_ends_the_frame_a_conversion_makes_with_eintr)
{
	struct later l = { .what = SIGNAL };
	uint8_t small[4 * 4 * 3] = { 0 }, out[4 * 4 * 2];
	struct m2m_format in, to;
	double ended;
	int ret;

	catch_sigint();
	ret = convert_while(&l, &ended);
	cr_assert_eq(ret, -EINTR, "m2m_convert: %d, %s", ret,
		     m2m_last_error());
	assert_message_mentions("signal");
	cr_assert_eq(interrupts, 1, "the handler ran %d times", interrupts);
	cr_assert_lt(ended - l.sent, WITHIN_S, "m2m_convert() took %.2f s more",
		     ended - l.sent);
	/* The next conversion starts afresh. */
	OK(m2m_format_init(&in, FMT("RGB24"), 4, 4));
	OK(m2m_format_init(&to, FMT("YUYV"), 4, 4));
	OK(m2m_set_format(l.dev, &in, M2M_QUEUE_OUTPUT));
	OK(m2m_set_format(l.dev, &to, M2M_QUEUE_CAPTURE));
	OK(m2m_set_control(l.dev, V4L2_CID_ROTATE, 0));
	cr_assert_eq(m2m_convert(l.dev, out, sizeof(out), small,
				 sizeof(small)), (int)sizeof(out), "%s",
		     m2m_last_error());
	m2m_close(l.dev);
}

Test(abort, sigint_ends_the_frame_a_streaming_wait_makes_with_eintr)
{
	struct later l = { .what = SIGNAL };
	unsigned int ready = 0;
	pthread_t thread;
	double ended;
	int ret;

	catch_sigint();
	long_stream(&l);
	later_start(&l, &thread);
	ret = m2m_wait(l.dev, &ready, -1);
	ended = now();
	pthread_join(thread, NULL);
	OK(l.queued);
	cr_assert_eq(ret, -EINTR, "m2m_wait: %d, %s", ret, m2m_last_error());
	cr_assert_eq(interrupts, 1, "the handler ran %d times", interrupts);
	cr_assert_lt(ended - l.sent, WITHIN_S, "m2m_wait() took %.2f s more",
		     ended - l.sent);
	/* The frame was abandoned: its buffers come back flagged. */
	assert_abandoned(&l);
	ret = m2m_wait(l.dev, &ready, 0);
	OK(ret);
	cr_assert(ready & M2M_READY_CAPTURE, "ready 0x%x", ready);
	m2m_close(l.dev);
}
