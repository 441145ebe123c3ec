// SPDX-License-Identifier: MIT
/*
 * dmabuf-share: hand a frame from one m2m session to another without
 * copying it, through a DMABUF file descriptor.
 *
 * Usage: dmabuf-share [DEVICE]   (default "auto")
 *
 * DEVICE is anything m2m_open() takes ("/dev/video0", "vhqv", "auto").
 * Two independent sessions (two m2m_open() calls; with a kernel driver,
 * two open files) make a two-step pipeline:
 *
 *   session A: YUYV 320x240 -> RGB24, into a memory-mapped CAPTURE buffer;
 *              m2m_export_buffer() turns that buffer into a DMABUF fd;
 *   session B: takes the fd as a DMABUF OUTPUT buffer (M2M_MEMORY_DMABUF,
 *              buf->fd[0]) and converts it, mirrored, to planar 4:2:0.
 *
 * The same two steps are then done in one session with m2m_convert() and
 * memory-mapped buffers; the two results must be equal byte for byte, and
 * the program prints OK. The same pattern passes a frame between two
 * different devices (a decoder's CAPTURE into a scaler's OUTPUT).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/videodev2.h>
#include <m2m/m2m.h>

#define WIDTH	320
#define HEIGHT	240

static void check(int ret, const char *what)
{
	if (ret < 0) {
		fprintf(stderr, "dmabuf-share: %s: %s\n", what,
			m2m_last_error());
		exit(1);
	}
}

/* A YUYV frame with colour: luma and both chroma samples vary. */
static void fill_yuyv(uint8_t *data)
{
	unsigned int x, y;

	for (y = 0; y < HEIGHT; y++) {
		for (x = 0; x < WIDTH; x++) {
			uint8_t *p = data + (y * WIDTH + x) * 2;

			p[0] = 16 + (x + 2 * y) % 220;
			p[1] = x % 2 ? 16 + y * 224 / HEIGHT :
				       16 + x * 224 / WIDTH;
		}
	}
}

/* Wait at most 5 s for the device, then take its processed CAPTURE
 * buffer (the sessions are blocking: the dequeue waits for it). */
static struct m2m_buffer *take_capture(struct m2m_device *dev,
				       const char *who)
{
	struct m2m_buffer *buf;
	unsigned int ready;

	check(m2m_wait(dev, &ready, 5000), who);
	if (!ready) {
		fprintf(stderr, "dmabuf-share: %s: no frame in 5 s\n", who);
		exit(1);
	}
	check(m2m_dequeue_buffer(dev, &buf, M2M_QUEUE_CAPTURE), who);
	if (buf->flags & M2M_BUFFER_ERROR) {
		fprintf(stderr, "dmabuf-share: %s: the frame came back with "
			"an error\n", who);
		exit(1);
	}
	return buf;
}

/* Step 1's formats, on any session. */
static void step1_formats(struct m2m_device *dev, struct m2m_format *rgb)
{
	struct m2m_format yuyv;

	check(m2m_format_init(&yuyv, M2M_FOURCC('Y', 'U', 'Y', 'V'), WIDTH,
			      HEIGHT), "m2m_format_init");
	check(m2m_format_init(rgb, M2M_FOURCC('R', 'G', 'B', '3'), WIDTH,
			      HEIGHT), "m2m_format_init");
	check(m2m_set_format(dev, &yuyv, M2M_QUEUE_OUTPUT), "YUYV");
	check(m2m_set_format(dev, rgb, M2M_QUEUE_CAPTURE), "RGB24");
}

/* Step 2's formats: OUTPUT is exactly what step 1 produced. */
static void step2_formats(struct m2m_device *dev, struct m2m_format *rgb,
			  struct m2m_format *yuv420)
{
	check(m2m_format_init(yuv420, M2M_FOURCC('Y', 'U', '1', '2'), WIDTH,
			      HEIGHT), "m2m_format_init");
	check(m2m_set_format(dev, rgb, M2M_QUEUE_OUTPUT), "RGB24");
	check(m2m_set_format(dev, yuv420, M2M_QUEUE_CAPTURE), "YUV420");
	check(m2m_set_control(dev, V4L2_CID_HFLIP, 1), "HFLIP");
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "auto";
	struct m2m_device *a, *b, *one;
	struct m2m_format rgb, rgb_one, yuv420;
	struct m2m_buffer *in, *mid, *res;
	uint8_t *frame, *rgb_ref, *yuv_ref;
	size_t frame_size = WIDTH * HEIGHT * 2;
	int fd, n;

	frame = malloc(frame_size);
	if (!frame) {
		perror("dmabuf-share");
		return 1;
	}
	fill_yuyv(frame);

	/* Session A: one frame, YUYV to RGB24, into an MMAP buffer. */
	check(m2m_open(&a, name), name);
	step1_formats(a, &rgb);
	check(m2m_alloc_buffers(a, M2M_QUEUE_OUTPUT, M2M_MEMORY_MMAP, 1),
	      "A: OUTPUT buffers");
	check(m2m_alloc_buffers(a, M2M_QUEUE_CAPTURE, M2M_MEMORY_MMAP, 1),
	      "A: CAPTURE buffers");
	in = m2m_get_buffer(a, M2M_QUEUE_OUTPUT, 0);
	memcpy(in->data[0], frame, frame_size);
	check(m2m_queue_buffer(a, in), "A: queueing the frame");
	check(m2m_queue_buffer(a, m2m_get_buffer(a, M2M_QUEUE_CAPTURE, 0)),
	      "A: queueing CAPTURE");
	check(m2m_stream_on(a, M2M_QUEUE_OUTPUT), "A: m2m_stream_on");
	check(m2m_stream_on(a, M2M_QUEUE_CAPTURE), "A: m2m_stream_on");
	mid = take_capture(a, "A");
	/* What A produced, as the device laid it out (pitch included). */
	check(m2m_get_format(a, &rgb, M2M_QUEUE_CAPTURE), "A: CAPTURE format");
	check(m2m_export_buffer(a, &fd, mid, 0), "A: m2m_export_buffer");
	printf("A: %u bytes of RGB24 in CAPTURE buffer %u, exported as "
	       "DMABUF fd %d\n", mid->bytesused[0], mid->index, fd);

	/* Session B: that fd as its OUTPUT buffer, RGB24 to YUV420. */
	check(m2m_open(&b, name), name);
	step2_formats(b, &rgb, &yuv420);
	check(m2m_alloc_buffers(b, M2M_QUEUE_OUTPUT, M2M_MEMORY_DMABUF, 1),
	      "B: DMABUF OUTPUT buffers");
	check(m2m_alloc_buffers(b, M2M_QUEUE_CAPTURE, M2M_MEMORY_MMAP, 1),
	      "B: CAPTURE buffers");
	in = m2m_get_buffer(b, M2M_QUEUE_OUTPUT, 0);
	in->fd[0] = fd;		/* B reads A's memory: no copy */
	in->bytesused[0] = mid->bytesused[0];
	check(m2m_queue_buffer(b, in), "B: queueing the DMABUF");
	check(m2m_queue_buffer(b, m2m_get_buffer(b, M2M_QUEUE_CAPTURE, 0)),
	      "B: queueing CAPTURE");
	check(m2m_stream_on(b, M2M_QUEUE_OUTPUT), "B: m2m_stream_on");
	check(m2m_stream_on(b, M2M_QUEUE_CAPTURE), "B: m2m_stream_on");
	res = take_capture(b, "B");
	printf("B: %u bytes of YUV420 from the DMABUF\n", res->bytesused[0]);

	/* The reference: both steps in one session, MMAP, m2m_convert(). */
	check(m2m_open(&one, name), name);
	step1_formats(one, &rgb_one);
	check(m2m_get_format(one, &rgb_one, M2M_QUEUE_CAPTURE),
	      "one session: CAPTURE format");
	rgb_ref = malloc(m2m_format_frame_size(&rgb_one));
	yuv_ref = malloc(m2m_format_frame_size(&yuv420));
	if (!rgb_ref || !yuv_ref) {
		perror("dmabuf-share");
		return 1;
	}
	n = m2m_convert(one, rgb_ref, m2m_format_frame_size(&rgb_one), frame,
			frame_size);
	check(n, "one session: step 1");
	step2_formats(one, &rgb_one, &yuv420);
	n = m2m_convert(one, yuv_ref, m2m_format_frame_size(&yuv420), rgb_ref,
			m2m_format_frame_size(&rgb_one));
	check(n, "one session: step 2");

	if ((size_t)n != res->bytesused[0] ||
	    memcmp(yuv_ref, res->data[0], n) != 0) {
		fprintf(stderr, "dmabuf-share: FAILED: the two sessions' %u "
			"bytes differ from one session's %d\n",
			res->bytesused[0], n);
		return 1;
	}
	printf("dmabuf-share: OK: two sessions through a DMABUF equal one "
	       "session with MMAP (%d bytes)\n", n);

	close(fd);
	m2m_close(one);
	m2m_close(b);
	m2m_close(a);
	free(frame);
	free(rgb_ref);
	free(yuv_ref);
	return 0;
}
