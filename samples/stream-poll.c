// SPDX-License-Identifier: MIT
/*
 * stream-poll: stream frames through an m2m device from one poll() loop.
 *
 * Usage: stream-poll [DEVICE] [FRAMES]   (default "auto", 30 frames)
 *
 * DEVICE is anything m2m_open() takes: a node ("/dev/video0"), a driver
 * name ("vhqv"), "inprocess", or "auto".
 *
 * The device is opened non-blocking (M2M_OPEN_NONBLOCK) and both queues
 * get memory-mapped buffers. A single poll() on m2m_get_fd() then drives
 * everything, as an application's event loop would: each time the fd is
 * readable, m2m_wait(dev, &ready, 0) says which queue has a buffer to give
 * back; CAPTURE buffers are printed and queued again, OUTPUT buffers are
 * refilled with the next synthetic frame. Once every frame is queued,
 * m2m_drain() asks the device to finish: the CAPTURE buffer of the last
 * frame comes back flagged M2M_BUFFER_LAST (or, if everything was done
 * already, an extra empty one does), and dequeueing CAPTURE after it
 * fails with -EPIPE.
 *
 * Each OUTPUT frame carries a timestamp; the device copies it to the
 * CAPTURE buffer made from it. The program exits with status 1 if a frame
 * is missing, comes back out of order or with the wrong size, or its
 * timestamp did not carry through.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <m2m/m2m.h>

#define WIDTH		320
#define HEIGHT		240
#define BUFFERS		4
/* 25 frames per second. V4L2 keeps timestamps to the microsecond, so
 * these survive the trip exactly. */
#define FRAME_NS	40000000ull
#define FIRST_NS	1000000000ull

static void check(int ret, const char *what)
{
	if (ret < 0) {
		fprintf(stderr, "stream-poll: %s: %s\n", what,
			m2m_last_error());
		exit(1);
	}
}

static uint64_t frame_timestamp(unsigned int frame)
{
	return FIRST_NS + frame * FRAME_NS;
}

/* A YUYV frame: a diagonal ramp that moves with the frame number. */
static void fill_frame(uint8_t *data, unsigned int frame)
{
	unsigned int x, y;

	for (y = 0; y < HEIGHT; y++) {
		uint8_t *line = data + y * WIDTH * 2;

		for (x = 0; x < WIDTH; x++) {
			line[2 * x] = 16 + (x + y + 4 * frame) % 220;
			line[2 * x + 1] = 128;	/* Cb and Cr: grey */
		}
	}
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "auto";
	unsigned int frames = argc > 2 ? strtoul(argv[2], NULL, 0) : 30;
	struct m2m_open_options opts = M2M_OPEN_OPTIONS_INIT;
	struct m2m_format in, out;
	struct m2m_device_info info;
	struct m2m_device *dev;
	/* OUTPUT buffers the device has given back, ready for a frame. */
	struct m2m_buffer *free_out[BUFFERS];
	unsigned int num_free = 0, queued = 0, received = 0, errors = 0;
	int drained = 0, last = 0, n, i, ret;
	struct pollfd pfd;

	if (frames == 0) {
		fprintf(stderr, "usage: %s [DEVICE] [FRAMES > 0]\n", argv[0]);
		return 2;
	}

	opts.flags = M2M_OPEN_NONBLOCK;
	check(m2m_open_ext(&dev, name, &opts), name);
	check(m2m_device_get_info(dev, &info), "m2m_device_get_info");
	printf("device %s (%s)\n", info.path, info.driver);

	/* YUYV in, planar 4:2:0 out, same size. Setting OUTPUT first: the
	 * device may make CAPTURE follow it. */
	check(m2m_format_init(&in, M2M_FOURCC('Y', 'U', 'Y', 'V'), WIDTH,
			      HEIGHT), "m2m_format_init");
	check(m2m_format_init(&out, M2M_FOURCC('Y', 'U', '1', '2'), WIDTH,
			      HEIGHT), "m2m_format_init");
	check(m2m_set_format(dev, &in, M2M_QUEUE_OUTPUT), "OUTPUT format");
	check(m2m_set_format(dev, &out, M2M_QUEUE_CAPTURE), "CAPTURE format");

	/* The driver may give more buffers than asked: use BUFFERS. */
	check(m2m_alloc_buffers(dev, M2M_QUEUE_OUTPUT, M2M_MEMORY_MMAP,
				BUFFERS), "OUTPUT buffers");
	check(m2m_alloc_buffers(dev, M2M_QUEUE_CAPTURE, M2M_MEMORY_MMAP,
				BUFFERS), "CAPTURE buffers");
	for (i = 0; i < BUFFERS; i++) {
		free_out[num_free++] = m2m_get_buffer(dev, M2M_QUEUE_OUTPUT, i);
		check(m2m_queue_buffer(dev, m2m_get_buffer(dev,
				       M2M_QUEUE_CAPTURE, i)),
		      "queueing a CAPTURE buffer");
	}
	check(m2m_stream_on(dev, M2M_QUEUE_OUTPUT), "m2m_stream_on");
	check(m2m_stream_on(dev, M2M_QUEUE_CAPTURE), "m2m_stream_on");

	pfd.fd = m2m_get_fd(dev);
	check(pfd.fd, "m2m_get_fd");
	pfd.events = POLLIN;

	while (!last) {
		struct m2m_buffer *buf;
		unsigned int ready;

		/* Feed every free OUTPUT buffer; drain after the last frame. */
		while (num_free > 0 && queued < frames) {
			buf = free_out[--num_free];
			fill_frame(buf->data[0], queued);
			buf->bytesused[0] = 0;	/* the whole frame */
			buf->timestamp_ns = frame_timestamp(queued);
			check(m2m_queue_buffer(dev, buf), "queueing a frame");
			queued++;
		}
		if (queued == frames && !drained) {
			check(m2m_drain(dev), "m2m_drain");
			printf("drain: all %u frames queued\n", frames);
			drained = 1;
		}

		n = poll(&pfd, 1, 5000);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "stream-poll: nothing from the device "
				"for 5 s\n");
			return 1;
		}
		/* Which queue has something: m2m_wait() without waiting. */
		check(m2m_wait(dev, &ready, 0), "m2m_wait");
		if (ready == M2M_READY_IDLE) {
			fprintf(stderr, "stream-poll: the device is idle but "
				"the LAST buffer never came\n");
			return 1;
		}

		while (ready & M2M_READY_CAPTURE && !last) {
			ret = m2m_dequeue_buffer(dev, &buf, M2M_QUEUE_CAPTURE);
			if (ret == -EAGAIN)
				break;
			check(ret, "dequeueing CAPTURE");
			last = (buf->flags & M2M_BUFFER_LAST) != 0;
			printf("capture sequence=%" PRIu32 " timestamp=%" PRIu64
			       " bytes=%" PRIu32 "%s%s\n", buf->sequence,
			       buf->timestamp_ns, buf->bytesused[0],
			       buf->flags & M2M_BUFFER_ERROR ? " ERROR" : "",
			       last ? " LAST" : "");
			/* The empty LAST buffer of a drain that found the
			 * device idle carries no frame. */
			if (last && buf->bytesused[0] == 0)
				break;
			if (buf->sequence != received ||
			    buf->timestamp_ns != frame_timestamp(received) ||
			    buf->bytesused[0] != m2m_format_frame_size(&out) ||
			    buf->flags & M2M_BUFFER_ERROR) {
				fprintf(stderr, "stream-poll: expected frame "
					"%u, timestamp %" PRIu64 ", %zu "
					"bytes\n", received,
					frame_timestamp(received),
					m2m_format_frame_size(&out));
				errors++;
			}
			received++;
			if (!last)
				check(m2m_queue_buffer(dev, buf),
				      "queueing a CAPTURE buffer");
		}
		while (ready & M2M_READY_OUTPUT) {
			ret = m2m_dequeue_buffer(dev, &buf, M2M_QUEUE_OUTPUT);
			if (ret == -EAGAIN)
				break;
			check(ret, "dequeueing OUTPUT");
			free_out[num_free++] = buf;
		}
	}

	/* After the LAST buffer, CAPTURE has nothing more to give. */
	{
		struct m2m_buffer *buf;

		ret = m2m_dequeue_buffer(dev, &buf, M2M_QUEUE_CAPTURE);
		printf("after LAST: m2m_dequeue_buffer returns %s\n",
		       ret == -EPIPE ? "-EPIPE" : "something else");
		if (ret != -EPIPE)
			errors++;
	}
	m2m_close(dev);

	if (received != frames || errors) {
		fprintf(stderr, "stream-poll: FAILED: %u of %u frames back, "
			"%u wrong\n", received, frames, errors);
		return 1;
	}
	printf("stream-poll: OK: %u frames, every timestamp carried "
	       "through\n", frames);
	return 0;
}
