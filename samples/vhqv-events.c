// SPDX-License-Identifier: MIT
/*
 * vhqv-events: watch a V4L2 memory-to-memory device's events while it
 * converts a few frames, then drain it.
 *
 * Usage: vhqv-events [DEVICE] [FRAMES]   (default /dev/video0, 8 frames)
 *
 * The sample subscribes to control, frame-sync, end-of-stream and
 * source-change events, streams FRAMES frames of YUYV to UYVY, flips the
 * picture half-way through (a control event), then asks the device to
 * stop with VIDIOC_ENCODER_CMD (V4L2_ENC_CMD_STOP) and prints every event
 * and buffer as poll() reports them, until the buffer flagged
 * V4L2_BUF_FLAG_LAST and the EOS event have both arrived. The LAST flag
 * comes on the last frame's buffer when the stop arrives before that frame
 * is done, else on an empty buffer after it (bytesused 0), which is no
 * frame. After the last buffer, VIDIOC_DQBUF fails with EPIPE, which it
 * shows too.
 *
 * It uses the plain V4L2 API, so it works with any m2m device that has
 * these events (vhqv does; see docs/vhqv.md).
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
#include <unistd.h>

#include <linux/videodev2.h>

#define WIDTH		320
#define HEIGHT		240
#define BUFFERS		4

static int fd;

static void die(const char *what)
{
	fprintf(stderr, "vhqv-events: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void xioctl(unsigned long request, void *arg, const char *what)
{
	if (ioctl(fd, request, arg) < 0)
		die(what);
}

static void set_format(enum v4l2_buf_type type, uint32_t fourcc)
{
	struct v4l2_format fmt = { .type = type };

	fmt.fmt.pix.width = WIDTH;
	fmt.fmt.pix.height = HEIGHT;
	fmt.fmt.pix.pixelformat = fourcc;
	fmt.fmt.pix.field = V4L2_FIELD_NONE;
	xioctl(VIDIOC_S_FMT, &fmt, "VIDIOC_S_FMT");
}

static void subscribe(uint32_t type, uint32_t id, uint32_t flags)
{
	struct v4l2_event_subscription sub = {
		.type = type, .id = id, .flags = flags,
	};

	xioctl(VIDIOC_SUBSCRIBE_EVENT, &sub, "VIDIOC_SUBSCRIBE_EVENT");
}

/* Allocate, map and (for CAPTURE) queue the buffers of one queue. */
static void setup_queue(enum v4l2_buf_type type, void *maps[BUFFERS])
{
	struct v4l2_requestbuffers req = {
		.count = BUFFERS, .type = type, .memory = V4L2_MEMORY_MMAP,
	};
	unsigned int i;

	xioctl(VIDIOC_REQBUFS, &req, "VIDIOC_REQBUFS");
	for (i = 0; i < BUFFERS; i++) {
		struct v4l2_buffer buf = {
			.index = i, .type = type, .memory = V4L2_MEMORY_MMAP,
		};

		xioctl(VIDIOC_QUERYBUF, &buf, "VIDIOC_QUERYBUF");
		maps[i] = mmap(NULL, buf.length, PROT_READ | PROT_WRITE,
			       MAP_SHARED, fd, buf.m.offset);
		if (maps[i] == MAP_FAILED)
			die("mmap");
		if (type == V4L2_BUF_TYPE_VIDEO_CAPTURE)
			xioctl(VIDIOC_QBUF, &buf, "VIDIOC_QBUF");
	}
}

/* Queue OUTPUT buffer index with a frame whose brightness moves. */
static void queue_frame(void *maps[BUFFERS], unsigned int index,
			unsigned int frame)
{
	struct v4l2_buffer buf = {
		.index = index, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT,
		.memory = V4L2_MEMORY_MMAP, .bytesused = WIDTH * HEIGHT * 2,
	};

	memset(maps[index], 16 + 20 * frame % 200, WIDTH * HEIGHT * 2);
	xioctl(VIDIOC_QBUF, &buf, "VIDIOC_QBUF");
}

static void set_hflip(int value)
{
	struct v4l2_control ctrl = { .id = V4L2_CID_HFLIP, .value = value };

	xioctl(VIDIOC_S_CTRL, &ctrl, "VIDIOC_S_CTRL");
	printf("set HFLIP=%d\n", value);
}

static void print_event(const struct v4l2_event *ev)
{
	switch (ev->type) {
	case V4L2_EVENT_CTRL:
		printf("event CTRL id=0x%x value=%d\n", ev->id,
		       ev->u.ctrl.value);
		break;
	case V4L2_EVENT_FRAME_SYNC:
		printf("event FRAME_SYNC frame_sequence=%u\n",
		       ev->u.frame_sync.frame_sequence);
		break;
	case V4L2_EVENT_EOS:
		printf("event EOS\n");
		break;
	case V4L2_EVENT_SOURCE_CHANGE:
		printf("event SOURCE_CHANGE changes=0x%x\n",
		       ev->u.src_change.changes);
		break;
	default:
		printf("event type=%u\n", ev->type);
		break;
	}
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/dev/video0";
	unsigned int frames = argc > 2 ? strtoul(argv[2], NULL, 0) : 8;
	enum v4l2_buf_type out = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	enum v4l2_buf_type cap = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	void *out_maps[BUFFERS], *cap_maps[BUFFERS];
	unsigned int queued = 0, captured = 0;
	bool last = false, eos = false, stopped = false;
	struct v4l2_encoder_cmd stop = { .cmd = V4L2_ENC_CMD_STOP };

	fd = open(path, O_RDWR | O_NONBLOCK);
	if (fd < 0)
		die(path);

	/* ALLOW_FEEDBACK: also report the changes this file makes. */
	subscribe(V4L2_EVENT_CTRL, V4L2_CID_HFLIP,
		  V4L2_EVENT_SUB_FL_SEND_INITIAL |
		  V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK);
	subscribe(V4L2_EVENT_FRAME_SYNC, 0, 0);
	subscribe(V4L2_EVENT_EOS, 0, 0);
	subscribe(V4L2_EVENT_SOURCE_CHANGE, 0, 0);

	set_format(out, V4L2_PIX_FMT_YUYV);
	set_format(cap, V4L2_PIX_FMT_UYVY);
	setup_queue(out, out_maps);
	setup_queue(cap, cap_maps);
	for (; queued < BUFFERS && queued < frames; queued++)
		queue_frame(out_maps, queued, queued);
	xioctl(VIDIOC_STREAMON, &out, "VIDIOC_STREAMON");
	xioctl(VIDIOC_STREAMON, &cap, "VIDIOC_STREAMON");

	while (!last || !eos) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN | POLLOUT | POLLPRI };
		struct v4l2_buffer buf = { .memory = V4L2_MEMORY_MMAP };

		if (poll(&pfd, 1, 30000) <= 0) {
			fprintf(stderr, "vhqv-events: nothing for 30 s\n");
			return 1;
		}
		if (pfd.revents & POLLPRI) {
			struct v4l2_event ev;

			while (ioctl(fd, VIDIOC_DQEVENT, &ev) == 0) {
				print_event(&ev);
				eos |= ev.type == V4L2_EVENT_EOS;
			}
		}
		buf.type = out;
		if ((pfd.revents & POLLOUT) &&
		    ioctl(fd, VIDIOC_DQBUF, &buf) == 0) {
			if (queued < frames)
				queue_frame(out_maps, buf.index, queued++);
		}
		buf.type = cap;
		if ((pfd.revents & POLLIN) &&
		    ioctl(fd, VIDIOC_DQBUF, &buf) == 0) {
			last = buf.flags & V4L2_BUF_FLAG_LAST;
			printf("buffer sequence=%u bytesused=%u%s\n",
			       buf.sequence, buf.bytesused,
			       last ? " LAST" : "");
			if (!last)
				ioctl(fd, VIDIOC_QBUF, &buf);
			if (buf.bytesused && ++captured == frames / 2)
				set_hflip(1);
		}
		/* Everything is queued: drain what is left. */
		if (queued == frames && !stopped) {
			xioctl(VIDIOC_ENCODER_CMD, &stop, "VIDIOC_ENCODER_CMD");
			printf("sent V4L2_ENC_CMD_STOP\n");
			stopped = true;
		}
	}

	{
		struct v4l2_buffer buf = {
			.type = cap, .memory = V4L2_MEMORY_MMAP,
		};

		if (ioctl(fd, VIDIOC_DQBUF, &buf) < 0 && errno == EPIPE)
			printf("after LAST: VIDIOC_DQBUF fails with EPIPE\n");
		else
			printf("after LAST: VIDIOC_DQBUF did not fail with EPIPE\n");
	}
	printf("%u frames converted, drained\n", captured);
	close(fd);
	return 0;
}
