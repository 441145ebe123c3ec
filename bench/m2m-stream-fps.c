// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * m2m-stream-fps: frames per second of a device through libm2m's streaming
 * API, in a plain C loop: the yardstick for the Python session's loop
 * (bench/python-fps.py does the same job, step for step).
 *
 * Usage: m2m-stream-fps [-t SECONDS] [-b BUFFERS] [-s WIDTHxHEIGHT] [-u]
 *        DEVICE
 *
 * 640x480 (or -s) RGB24 -> YUYV with HFLIP (as m2m-fps), BUFFERS MMAP
 * buffers per queue (-u: USERPTR ones, in memory of this program's), all
 * queued; each CAPTURE buffer that comes back is queued again, then the
 * OUTPUT buffer it freed. Frames are counted over SECONDS (default 5)
 * after a warm-up of one second.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/v4l2-controls.h>
#include <m2m/m2m.h>

#define WARMUP_S 1.0

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int check(int ret, const char *what)
{
	if (ret < 0) {
		fprintf(stderr, "m2m-stream-fps: %s: %s\n", what, m2m_last_error());
		exit(1);
	}
	return ret;
}

/* USERPTR: each buffer's one plane in page-aligned memory of its own. */
static void give_memory(struct m2m_device *dev, enum m2m_queue queue,
			unsigned int count, uint32_t size)
{
	size_t len = (size + 4095) & ~(size_t)4095;
	unsigned int i;

	for (i = 0; i < count; i++) {
		struct m2m_buffer *buf = m2m_get_buffer(dev, queue, i);

		buf->data[0] = aligned_alloc(4096, len);
		if (!buf->data[0]) {
			fprintf(stderr, "m2m-stream-fps: out of memory\n");
			exit(1);
		}
		memset(buf->data[0], 0, len);
		buf->length[0] = size;
	}
}

int main(int argc, char **argv)
{
	struct m2m_format in, out;
	struct m2m_device *dev;
	struct m2m_buffer *buf;
	double seconds = 5, start, end = 0;
	unsigned int buffers = 4, frames = 0, width = 640, height = 480;
	enum m2m_memory memory = M2M_MEMORY_MMAP;
	int opt, n, i, measuring = 0;

	while ((opt = getopt(argc, argv, "t:b:s:u")) != -1) {
		if (opt == 't')
			seconds = atof(optarg);
		else if (opt == 'b')
			buffers = atoi(optarg);
		else if (opt == 's' &&
			 sscanf(optarg, "%ux%u", &width, &height) == 2)
			continue;
		else if (opt == 'u')
			memory = M2M_MEMORY_USERPTR;
		else
			goto usage;
	}
	if (optind + 1 != argc || seconds <= 0 || buffers < 1 || !width ||
	    !height || width > 8192 || height > 8192)
		goto usage;

	check(m2m_open(&dev, argv[optind]), "m2m_open");
	m2m_format_init(&in, M2M_FOURCC('R', 'G', 'B', '3'), width, height);
	m2m_format_init(&out, M2M_FOURCC('Y', 'U', 'Y', 'V'), width, height);
	check(m2m_set_control(dev, V4L2_CID_HFLIP, 1), "HFLIP");
	check(m2m_set_format(dev, &in, M2M_QUEUE_OUTPUT), "OUTPUT format");
	check(m2m_set_format(dev, &out, M2M_QUEUE_CAPTURE), "CAPTURE format");
	n = check(m2m_alloc_buffers(dev, M2M_QUEUE_OUTPUT, memory, buffers),
		  "OUTPUT buffers");
	if (memory == M2M_MEMORY_USERPTR)
		give_memory(dev, M2M_QUEUE_OUTPUT, n, in.plane_size[0]);
	for (i = 0; i < n; i++) {
		buf = m2m_get_buffer(dev, M2M_QUEUE_OUTPUT, i);
		for (size_t b = 0; b < in.plane_size[0]; b++)
			((unsigned char *)buf->data[0])[b] = (unsigned char)(b * 7 + i);
	}
	n = check(m2m_alloc_buffers(dev, M2M_QUEUE_CAPTURE, memory, buffers),
		  "CAPTURE buffers");
	if (memory == M2M_MEMORY_USERPTR)
		give_memory(dev, M2M_QUEUE_CAPTURE, n, out.plane_size[0]);
	for (i = 0; i < n; i++)
		check(m2m_queue_buffer(dev, m2m_get_buffer(dev, M2M_QUEUE_CAPTURE, i)),
		      "queue CAPTURE");
	for (i = 0; i < check(m2m_buffer_count(dev, M2M_QUEUE_OUTPUT), "count"); i++)
		check(m2m_queue_buffer(dev, m2m_get_buffer(dev, M2M_QUEUE_OUTPUT, i)),
		      "queue OUTPUT");
	check(m2m_stream_on(dev, M2M_QUEUE_OUTPUT), "stream on OUTPUT");
	check(m2m_stream_on(dev, M2M_QUEUE_CAPTURE), "stream on CAPTURE");

	start = now() + WARMUP_S;
	for (;;) {
		double t;

		check(m2m_dequeue_buffer(dev, &buf, M2M_QUEUE_CAPTURE), "dequeue CAPTURE");
		check(m2m_queue_buffer(dev, buf), "queue CAPTURE");
		check(m2m_dequeue_buffer(dev, &buf, M2M_QUEUE_OUTPUT), "dequeue OUTPUT");
		check(m2m_queue_buffer(dev, buf), "queue OUTPUT");
		t = now();
		if (!measuring && t >= start) {
			measuring = 1;
			start = t;
		} else if (measuring) {
			frames++;
			end = t;
			if (t - start >= seconds)
				break;
		}
	}
	printf("C (libm2m streaming API): %ux%u RGB24 -> YUYV hflip, %d %s "
	       "buffers: %u frames in %.2f s: %.1f fps\n", width, height, n,
	       memory == M2M_MEMORY_USERPTR ? "USERPTR" : "MMAP", frames,
	       end - start, frames / (end - start));
	m2m_close(dev);
	return 0;

usage:
	fprintf(stderr, "usage: %s [-t SECONDS] [-b BUFFERS] [-s WIDTHxHEIGHT] "
		"[-u] DEVICE\n", argv[0]);
	return 2;
}
