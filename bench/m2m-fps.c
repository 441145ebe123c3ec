// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * m2m-fps: frames per second of a V4L2 memory-to-memory device streaming
 * 640x480 RGB24 -> YUYV with HFLIP, the one job both vhqv and the kernel's
 * reference driver vim2m can do, so that the two can be compared.
 *
 * Usage: m2m-fps [-t SECONDS] [-b BUFFERS] [-s WIDTHxHEIGHT] DEVICE
 *        [CONTROL_ID=VALUE...]
 *
 * Raw V4L2 (single-planar API, MMAP), with BUFFERS buffers queued on each
 * queue so the device never waits for the application: every buffer that
 * comes back is queued again at once. Frames are counted on CAPTURE over
 * SECONDS (default 5) after a warm-up of one second. Extra controls (ids
 * in decimal or 0x hex) are set after HFLIP, e.g. vim2m's transaction
 * time.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/videodev2.h>

/* The frame size: 640x480 unless -s says otherwise. */
static unsigned int width = 640, height = 480;
#define MAX_BUFFERS 16
#define WARMUP_S 1.0
#define POLL_TIMEOUT_MS 5000

struct queue {
	enum v4l2_buf_type type;
	unsigned int count;
	uint32_t sizeimage;
	void *addr[MAX_BUFFERS];
	size_t length[MAX_BUFFERS];
};

static const char *device;

static void die(const char *what)
{
	fprintf(stderr, "m2m-fps: %s: %s: %s\n", device, what, strerror(errno));
	exit(1);
}

static void xioctl(int fd, unsigned long request, void *arg, const char *name)
{
	int ret;

	do
		ret = ioctl(fd, request, arg);
	while (ret < 0 && errno == EINTR);
	if (ret < 0)
		die(name);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* S_FMT, refusing any adjustment: the job must be the same everywhere. */
static void set_format(int fd, struct queue *q, uint32_t fourcc)
{
	struct v4l2_format f = { .type = q->type };

	f.fmt.pix.width = width;
	f.fmt.pix.height = height;
	f.fmt.pix.pixelformat = fourcc;
	f.fmt.pix.field = V4L2_FIELD_NONE;
	xioctl(fd, VIDIOC_S_FMT, &f, "VIDIOC_S_FMT");
	if (f.fmt.pix.width != width || f.fmt.pix.height != height ||
	    f.fmt.pix.pixelformat != fourcc) {
		fprintf(stderr, "m2m-fps: %s does not take %.4s %ux%u\n",
			device, (const char *)&fourcc, width, height);
		exit(1);
	}
	q->sizeimage = f.fmt.pix.sizeimage;
}

static void set_control(int fd, uint32_t id, int32_t value)
{
	struct v4l2_control ctrl = { .id = id, .value = value };

	xioctl(fd, VIDIOC_S_CTRL, &ctrl, "VIDIOC_S_CTRL");
	xioctl(fd, VIDIOC_G_CTRL, &ctrl, "VIDIOC_G_CTRL");
	if (ctrl.value != value) {
		fprintf(stderr, "m2m-fps: %s: control 0x%08x is %d, not %d\n",
			device, id, ctrl.value, value);
		exit(1);
	}
}

static void queue_buffer(int fd, struct queue *q, unsigned int index)
{
	struct v4l2_buffer buf = {
		.type = q->type,
		.memory = V4L2_MEMORY_MMAP,
		.index = index,
		.field = V4L2_FIELD_NONE,
	};

	if (V4L2_TYPE_IS_OUTPUT(q->type))
		buf.bytesused = q->sizeimage;
	xioctl(fd, VIDIOC_QBUF, &buf, "VIDIOC_QBUF");
}

static void setup_buffers(int fd, struct queue *q, unsigned int count)
{
	struct v4l2_requestbuffers req = {
		.type = q->type,
		.memory = V4L2_MEMORY_MMAP,
		.count = count,
	};
	unsigned int i;

	xioctl(fd, VIDIOC_REQBUFS, &req, "VIDIOC_REQBUFS");
	if (req.count < 1 || req.count > MAX_BUFFERS) {
		fprintf(stderr, "m2m-fps: %s: %u buffers\n", device, req.count);
		exit(1);
	}
	q->count = req.count;
	for (i = 0; i < q->count; i++) {
		struct v4l2_buffer buf = {
			.type = q->type,
			.memory = V4L2_MEMORY_MMAP,
			.index = i,
		};

		xioctl(fd, VIDIOC_QUERYBUF, &buf, "VIDIOC_QUERYBUF");
		q->length[i] = buf.length;
		q->addr[i] = mmap(NULL, buf.length, PROT_READ | PROT_WRITE,
				  MAP_SHARED, fd, buf.m.offset);
		if (q->addr[i] == MAP_FAILED)
			die("mmap");
	}
}

/* A horizontal ramp, so that the flip and the conversion have work. */
static void fill_source(struct queue *q)
{
	unsigned int i, x, y;

	for (i = 0; i < q->count; i++) {
		uint8_t *p = q->addr[i];

		for (y = 0; y < height; y++)
			for (x = 0; x < width; x++, p += 3) {
				p[0] = x * 255 / width;
				p[1] = y * 255 / height;
				p[2] = (x + y + i * 16) & 0xff;
			}
	}
}

/* Take back a finished buffer of q, if there is one, and queue it again. */
static int recycle(int fd, struct queue *q)
{
	struct v4l2_buffer buf = { .type = q->type, .memory = V4L2_MEMORY_MMAP };

	if (ioctl(fd, VIDIOC_DQBUF, &buf) < 0) {
		if (errno == EAGAIN)
			return 0;
		die("VIDIOC_DQBUF");
	}
	if (buf.flags & V4L2_BUF_FLAG_ERROR) {
		fprintf(stderr, "m2m-fps: %s returned a buffer with an error\n",
			device);
		exit(1);
	}
	queue_buffer(fd, q, buf.index);
	return 1;
}

int main(int argc, char **argv)
{
	struct queue out = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT };
	struct queue cap = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_capability caps;
	double seconds = 5, start, end = 0, t;
	unsigned int buffers = 4, i, frames = 0;
	bool measuring = false;
	int opt, fd, type;

	while ((opt = getopt(argc, argv, "t:b:s:")) != -1) {
		if (opt == 't')
			seconds = atof(optarg);
		else if (opt == 'b')
			buffers = atoi(optarg);
		else if (opt == 's' &&
			 sscanf(optarg, "%ux%u", &width, &height) != 2)
			goto usage;
		else if (opt != 's')
			goto usage;
	}
	if (optind >= argc || seconds <= 0 || buffers < 1 ||
	    buffers > MAX_BUFFERS || !width || !height || width > 8192 ||
	    height > 8192)
		goto usage;
	device = argv[optind++];

	fd = open(device, O_RDWR | O_NONBLOCK);
	if (fd < 0)
		die("open");
	xioctl(fd, VIDIOC_QUERYCAP, &caps, "VIDIOC_QUERYCAP");
	set_format(fd, &out, V4L2_PIX_FMT_RGB24);
	set_format(fd, &cap, V4L2_PIX_FMT_YUYV);
	set_control(fd, V4L2_CID_HFLIP, 1);
	for (; optind < argc; optind++) {
		char *end_id;
		unsigned long id = strtoul(argv[optind], &end_id, 0);

		if (*end_id != '=')
			goto usage;
		set_control(fd, id, atoi(end_id + 1));
	}

	setup_buffers(fd, &out, buffers);
	setup_buffers(fd, &cap, buffers);
	fill_source(&out);
	for (i = 0; i < cap.count; i++)
		queue_buffer(fd, &cap, i);
	for (i = 0; i < out.count; i++)
		queue_buffer(fd, &out, i);
	type = out.type;
	xioctl(fd, VIDIOC_STREAMON, &type, "VIDIOC_STREAMON");
	type = cap.type;
	xioctl(fd, VIDIOC_STREAMON, &type, "VIDIOC_STREAMON");

	/* Count from the first frame after the warm-up to the last one
	 * within SECONDS of it: whole frames over the time they took. */
	start = now() + WARMUP_S;
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN | POLLOUT };
		int n = poll(&pfd, 1, POLL_TIMEOUT_MS);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("poll");
		if (n == 0) {
			fprintf(stderr, "m2m-fps: %s returned no frame in "
				"%d ms\n", device, POLL_TIMEOUT_MS);
			return 1;
		}
		if (pfd.revents & POLLERR) {
			fprintf(stderr, "m2m-fps: %s: POLLERR\n", device);
			return 1;
		}
		while (recycle(fd, &out))
			;
		while (recycle(fd, &cap)) {
			t = now();
			if (!measuring && t >= start) {
				measuring = true;
				start = t;
			} else if (measuring) {
				frames++;
				end = t;
			}
		}
		if (measuring && now() - start >= seconds)
			break;
	}

	if (frames == 0) {
		fprintf(stderr, "m2m-fps: %s: no frame in %.1f s\n", device,
			seconds);
		return 1;
	}
	printf("%s %s: %ux%u RGB24 -> YUYV hflip, %u buffers: %u frames "
	       "in %.2f s: %.1f fps\n", (const char *)caps.driver, device,
	       width, height, out.count, frames, end - start,
	       frames / (end - start));
	close(fd);
	return 0;

usage:
	fprintf(stderr, "usage: %s [-t SECONDS] [-b BUFFERS] [-s WIDTHxHEIGHT] "
		"DEVICE [CONTROL_ID=VALUE...]\n", argv[0]);
	return 2;
}
