// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vhqv's streaming behaviour through the plain V4L2 API: draining and
 * restarting, the geometry change flow (LAST, SOURCE_CHANGE,
 * re-negotiation) of docs/vhqv.md, and, on the kernel's device only, many
 * file handles streaming at once and served in turn, and the statistics
 * in debugfs.
 *
 * Built twice, on a struct m2m_transport: vm.vhqv_stream runs in the test
 * VM on vhqv's single-planar node through the syscall transport;
 * inprocess.stream runs here on libm2m's in-process device
 * (M2M_TEST_INPROCESS), which has the multi-planar API only. The
 * behaviour expected is the same.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include "transport.h"

#ifdef M2M_TEST_INPROCESS
static const struct m2m_transport *const transport = &m2m_transport_inprocess;
static const bool mplane = true;
#else
static const struct m2m_transport *const transport = &m2m_transport_syscall;
static const bool mplane;
#endif

#define MAX_BUFS	16

/* One open file of the device, with MMAP buffers. */
struct session {
	int fd;
	unsigned int width, height;
	unsigned int out_size, cap_size;
	unsigned int nbufs;
	void *out[MAX_BUFS];
	size_t out_len[MAX_BUFS];
	void *cap[MAX_BUFS];
	size_t cap_len[MAX_BUFS];
	/* The plane of a multi-planar struct v4l2_buffer. */
	struct v4l2_plane plane;
};

enum queue { OUT, CAP };

static uint32_t buf_type(enum queue q)
{
	if (mplane)
		return q == OUT ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE :
		       V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
	return q == OUT ? V4L2_BUF_TYPE_VIDEO_OUTPUT :
	       V4L2_BUF_TYPE_VIDEO_CAPTURE;
}

/*
 * A buffer of queue q in either API: the single plane's bytesused, length
 * and offset are b's own fields (copied back by buf_done()).
 */
static void buf_init(struct session *s, struct v4l2_buffer *b, enum queue q,
		     unsigned int index)
{
	memset(b, 0, sizeof(*b));
	b->index = index;
	b->type = buf_type(q);
	b->memory = V4L2_MEMORY_MMAP;
	if (mplane) {
		memset(&s->plane, 0, sizeof(s->plane));
		b->m.planes = &s->plane;
		b->length = 1;
	}
}

static void buf_set_bytesused(struct session *s, struct v4l2_buffer *b,
			      unsigned int bytesused)
{
	if (mplane)
		s->plane.bytesused = bytesused;
	else
		b->bytesused = bytesused;
}

static void buf_done(struct session *s, struct v4l2_buffer *b)
{
	if (!mplane)
		return;
	b->bytesused = s->plane.bytesused;
	b->length = s->plane.length;
	b->m.offset = s->plane.m.mem_offset;
}

static int xioctl(struct session *s, unsigned long req, void *arg)
{
	int ret;

	do
		ret = transport->ioctl(s->fd, req, arg);
	while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : 0;
}

static unsigned int set_format(struct session *s, enum queue q,
			       uint32_t fourcc, unsigned int w, unsigned int h)
{
	struct v4l2_format fmt = { .type = buf_type(q) };

	if (mplane) {
		fmt.fmt.pix_mp.width = w;
		fmt.fmt.pix_mp.height = h;
		fmt.fmt.pix_mp.pixelformat = fourcc;
		fmt.fmt.pix_mp.num_planes = 1;
	} else {
		fmt.fmt.pix.width = w;
		fmt.fmt.pix.height = h;
		fmt.fmt.pix.pixelformat = fourcc;
	}
	cr_assert_eq(xioctl(s, VIDIOC_S_FMT, &fmt), 0, "S_FMT");
	return mplane ? fmt.fmt.pix_mp.plane_fmt[0].sizeimage :
	       fmt.fmt.pix.sizeimage;
}

/* The format of a queue: its size, and its one plane's sizeimage. */
static struct v4l2_pix_format get_format(struct session *s, enum queue q)
{
	struct v4l2_format fmt = { .type = buf_type(q) };
	const struct v4l2_pix_format_mplane *mp = &fmt.fmt.pix_mp;

	cr_assert_eq(xioctl(s, VIDIOC_G_FMT, &fmt), 0, "G_FMT");
	if (!mplane)
		return fmt.fmt.pix;
	return (struct v4l2_pix_format){
		.width = mp->width, .height = mp->height,
		.pixelformat = mp->pixelformat,
		.sizeimage = mp->plane_fmt[0].sizeimage,
	};
}

static void subscribe(struct session *s, uint32_t type)
{
	struct v4l2_event_subscription sub = { .type = type };

	cr_assert_eq(xioctl(s, VIDIOC_SUBSCRIBE_EVENT, &sub), 0,
		     "SUBSCRIBE_EVENT %u", type);
}

static void set_ctrl(struct session *s, uint32_t id, int value)
{
	struct v4l2_control c = { .id = id, .value = value };

	cr_assert_eq(xioctl(s, VIDIOC_S_CTRL, &c), 0, "S_CTRL 0x%x", id);
}

static void map_buffers(struct session *s, enum queue q, unsigned int count)
{
	struct v4l2_requestbuffers req = {
		.count = count, .type = buf_type(q), .memory = V4L2_MEMORY_MMAP,
	};
	void **maps = q == OUT ? s->out : s->cap;
	size_t *lens = q == OUT ? s->out_len : s->cap_len;

	cr_assert_eq(xioctl(s, VIDIOC_REQBUFS, &req), 0, "REQBUFS");
	cr_assert_geq(req.count, count);
	for (unsigned int i = 0; i < count; i++) {
		struct v4l2_buffer b;

		buf_init(s, &b, q, i);
		cr_assert_eq(xioctl(s, VIDIOC_QUERYBUF, &b), 0);
		buf_done(s, &b);
		maps[i] = transport->mmap(NULL, b.length,
					  PROT_READ | PROT_WRITE, MAP_SHARED,
					  s->fd, b.m.offset);
		cr_assert_neq(maps[i], MAP_FAILED);
		lens[i] = b.length;
	}
}

static void unmap_buffers(struct session *s, enum queue q)
{
	struct v4l2_requestbuffers req = {
		.count = 0, .type = buf_type(q), .memory = V4L2_MEMORY_MMAP,
	};
	void **maps = q == OUT ? s->out : s->cap;
	size_t *lens = q == OUT ? s->out_len : s->cap_len;

	for (unsigned int i = 0; i < s->nbufs; i++)
		transport->munmap(maps[i], lens[i]);
	cr_assert_eq(xioctl(s, VIDIOC_REQBUFS, &req), 0, "REQBUFS 0");
}

/* Open vhqv, YUYV in and out at w x h, nbufs buffers on each queue. */
static void session_open(struct session *s, unsigned int w, unsigned int h,
			 unsigned int nbufs)
{
	const char *node = mplane ? M2M_INPROCESS_PATH : getenv("VHQV_VIDEO");

	cr_assert_not_null(node, "VHQV_VIDEO is set by scripts/vm-run");
	memset(s, 0, sizeof(*s));
	s->fd = transport->open(node, O_RDWR | O_NONBLOCK);
	cr_assert_geq(s->fd, 0, "open %s: %s", node, strerror(errno));
	s->width = w;
	s->height = h;
	s->nbufs = nbufs;
	s->out_size = set_format(s, OUT, V4L2_PIX_FMT_YUYV, w, h);
	s->cap_size = set_format(s, CAP, V4L2_PIX_FMT_YUYV, w, h);
	map_buffers(s, OUT, nbufs);
	map_buffers(s, CAP, nbufs);
}

static void session_close(struct session *s)
{
	for (unsigned int i = 0; i < s->nbufs; i++) {
		transport->munmap(s->out[i], s->out_len[i]);
		transport->munmap(s->cap[i], s->cap_len[i]);
	}
	transport->close(s->fd);
}

static void stream(struct session *s, enum queue q, bool on)
{
	uint32_t type = buf_type(q);

	cr_assert_eq(xioctl(s, on ? VIDIOC_STREAMON : VIDIOC_STREAMOFF,
			    &type), 0, "STREAM%s", on ? "ON" : "OFF");
}

/* Queue OUTPUT buffer i as it is. */
static void queue_out_as_is(struct session *s, unsigned int i)
{
	struct v4l2_buffer b;

	buf_init(s, &b, OUT, i);
	buf_set_bytesused(s, &b, s->out_size);
	cr_assert_eq(xioctl(s, VIDIOC_QBUF, &b), 0, "QBUF OUTPUT %u", i);
}

/* Queue OUTPUT buffer i filled with value. */
static void queue_out(struct session *s, unsigned int i, uint8_t value)
{
	memset(s->out[i], value, s->out_size);
	queue_out_as_is(s, i);
}

static void queue_cap(struct session *s, unsigned int i)
{
	struct v4l2_buffer b;

	buf_init(s, &b, CAP, i);
	cr_assert_eq(xioctl(s, VIDIOC_QBUF, &b), 0, "QBUF CAPTURE %u", i);
}

/* Wait for what poll() says, up to 10 s (frames are slow under TCG). */
static short wait_for(struct session *s, short events)
{
	short revents;

	cr_assert_eq(transport->poll(s->fd, events, &revents, 10000), 1,
		     "poll for 0x%x timed out", events);
	return revents;
}

/* Dequeue a buffer, waiting for it; returns -errno on failure. */
static int dequeue(struct session *s, enum queue q, struct v4l2_buffer *b)
{
	int ret;

	for (;;) {
		buf_init(s, b, q, 0);
		ret = xioctl(s, VIDIOC_DQBUF, b);
		buf_done(s, b);
		if (ret != -EAGAIN)
			return ret;
		wait_for(s, q == OUT ? POLLOUT : POLLIN);
	}
}

static bool next_event(struct session *s, struct v4l2_event *ev)
{
	return xioctl(s, VIDIOC_DQEVENT, ev) == 0;
}

static void expect_event(struct session *s, uint32_t type)
{
	struct v4l2_event ev;

	cr_assert(next_event(s, &ev), "an event of type %u is pending", type);
	cr_assert_eq(ev.type, type, "event %u, expected %u", ev.type, type);
}

static void encoder_cmd(struct session *s, uint32_t cmd)
{
	struct v4l2_encoder_cmd ec = { .cmd = cmd };

	cr_assert_eq(xioctl(s, VIDIOC_ENCODER_CMD, &ec), 0, "ENCODER_CMD %u",
		     cmd);
}

/*
 * STOP comes before the frames are processed, not after: no job can start
 * before CAPTURE buffers are queued, which they are after STOP.
 */
Test(stream, drain_flags_the_last_frame_then_start_resumes)
{
	struct session s;
	struct v4l2_buffer b;
	unsigned int i;

	session_open(&s, 64, 48, 4);
	subscribe(&s, V4L2_EVENT_EOS);
	for (i = 0; i < 4; i++)
		queue_out(&s, i, 40 + i);
	stream(&s, OUT, true);
	stream(&s, CAP, true);
	encoder_cmd(&s, V4L2_ENC_CMD_STOP);
	for (i = 0; i < 4; i++)
		queue_cap(&s, i);

	for (i = 0; i < 4; i++) {
		cr_assert_eq(dequeue(&s, CAP, &b), 0);
		cr_assert_eq(b.sequence, i);
		cr_assert_eq(b.bytesused, s.cap_size);
		cr_assert_eq(!!(b.flags & V4L2_BUF_FLAG_LAST), i == 3,
			     "only frame 3 is LAST (frame %u)", i);
	}
	expect_event(&s, V4L2_EVENT_EOS);
	cr_assert_eq(dequeue(&s, CAP, &b), -EPIPE, "DQBUF after LAST");

	/* START: frames flow again. */
	encoder_cmd(&s, V4L2_ENC_CMD_START);
	cr_assert_eq(dequeue(&s, OUT, &b), 0);
	queue_out(&s, b.index, 99);
	queue_cap(&s, 0);
	cr_assert_eq(dequeue(&s, CAP, &b), 0, "a frame after START");
	cr_assert_eq(b.bytesused, s.cap_size);
	cr_assert_eq(((uint8_t *)s.cap[b.index])[0], 99);
	session_close(&s);
}

Test(stream, drain_with_nothing_queued_returns_an_empty_last_buffer)
{
	struct session s;
	struct v4l2_buffer b;

	session_open(&s, 64, 48, 2);
	subscribe(&s, V4L2_EVENT_EOS);
	stream(&s, OUT, true);
	stream(&s, CAP, true);
	encoder_cmd(&s, V4L2_ENC_CMD_STOP);
	queue_cap(&s, 0);
	cr_assert_eq(dequeue(&s, CAP, &b), 0);
	cr_assert(b.flags & V4L2_BUF_FLAG_LAST);
	cr_assert_eq(b.bytesused, 0);
	expect_event(&s, V4L2_EVENT_EOS);
	session_close(&s);
}

/*
 * The CAPTURE buffer that comes back LAST is the one queued first, as the
 * m2m core returns them: that one must be emptied, whatever an earlier
 * frame left in it, even with more buffers queued behind it.
 */
Test(stream, drain_with_buffers_queued_empties_the_first_one)
{
	struct session s;
	struct v4l2_buffer b;

	session_open(&s, 64, 48, 2);
	subscribe(&s, V4L2_EVENT_EOS);
	stream(&s, OUT, true);
	stream(&s, CAP, true);
	queue_out(&s, 0, 7);
	queue_cap(&s, 0);
	cr_assert_eq(dequeue(&s, CAP, &b), 0);
	cr_assert_eq(b.bytesused, s.cap_size, "a whole frame first");
	cr_assert_eq(dequeue(&s, OUT, &b), 0);

	queue_cap(&s, 0);
	queue_cap(&s, 1);
	encoder_cmd(&s, V4L2_ENC_CMD_STOP);
	cr_assert_eq(dequeue(&s, CAP, &b), 0);
	cr_assert_eq(b.index, 0, "the first queued comes back");
	cr_assert(b.flags & V4L2_BUF_FLAG_LAST);
	cr_assert_eq(b.bytesused, 0, "LAST with the earlier frame's %u bytes",
		     b.bytesused);
	expect_event(&s, V4L2_EVENT_EOS);
	session_close(&s);
}

/*
 * docs/vhqv.md, "Geometry changes": ROTATE 90 while streaming finishes the
 * queued frames at the old size, flags the last, signals SOURCE_CHANGE,
 * then waits for CAPTURE to be re-negotiated.
 */
Test(stream, rotation_to_portrait_while_streaming_is_a_source_change)
{
	struct session s;
	struct v4l2_buffer b;
	struct v4l2_event ev;
	struct v4l2_pix_format pix;
	unsigned int i;

	session_open(&s, 64, 48, 3);
	subscribe(&s, V4L2_EVENT_SOURCE_CHANGE);
	stream(&s, OUT, true);
	stream(&s, CAP, true);
	for (i = 0; i < 3; i++)
		queue_out(&s, i, 50);
	set_ctrl(&s, V4L2_CID_ROTATE, 90);
	for (i = 0; i < 3; i++)
		queue_cap(&s, i);

	for (i = 0; i < 3; i++) {
		cr_assert_eq(dequeue(&s, CAP, &b), 0);
		cr_assert_eq(b.bytesused, s.cap_size, "old size for frame %u",
			     i);
		cr_assert_eq(!!(b.flags & V4L2_BUF_FLAG_LAST), i == 2);
	}
	cr_assert(next_event(&s, &ev));
	cr_assert_eq(ev.type, V4L2_EVENT_SOURCE_CHANGE);
	cr_assert_eq(ev.u.src_change.changes, V4L2_EVENT_SRC_CH_RESOLUTION);
	cr_assert_eq(dequeue(&s, CAP, &b), -EPIPE);
	pix = get_format(&s, CAP);
	cr_assert_eq(pix.width, 48);
	cr_assert_eq(pix.height, 64);

	/* Nothing is processed until CAPTURE is re-negotiated. */
	for (i = 0; i < 3; i++) {
		cr_assert_eq(dequeue(&s, OUT, &b), 0);
		queue_out(&s, b.index, 60);
	}
	stream(&s, CAP, false);
	unmap_buffers(&s, CAP);
	map_buffers(&s, CAP, 3);
	stream(&s, CAP, true);
	for (i = 0; i < 3; i++)
		queue_cap(&s, i);
	for (i = 0; i < 3; i++) {
		cr_assert_eq(dequeue(&s, CAP, &b), 0);
		cr_assert_eq(b.bytesused, pix.sizeimage, "new size, frame %u",
			     i);
		cr_assert_eq(((uint8_t *)s.cap[b.index])[0], 60);
	}
	session_close(&s);
}

Test(stream, new_output_size_while_capture_streams_is_a_source_change)
{
	struct session s;
	struct v4l2_buffer b;
	struct v4l2_pix_format pix;

	session_open(&s, 64, 48, 2);
	subscribe(&s, V4L2_EVENT_SOURCE_CHANGE);
	stream(&s, CAP, true);
	queue_cap(&s, 0);
	unmap_buffers(&s, OUT);
	s.out_size = set_format(&s, OUT, V4L2_PIX_FMT_YUYV, 32, 16);
	expect_event(&s, V4L2_EVENT_SOURCE_CHANGE);
	cr_assert_eq(dequeue(&s, CAP, &b), 0);
	cr_assert(b.flags & V4L2_BUF_FLAG_LAST);
	cr_assert_eq(b.bytesused, 0);
	pix = get_format(&s, CAP);
	cr_assert_eq(pix.width, 32);
	cr_assert_eq(pix.height, 16);
	map_buffers(&s, OUT, 2);
	session_close(&s);
}

#ifndef M2M_TEST_INPROCESS
/*
 * The kernel's device only: the mem2mem core's one job queue for all files
 * (the in-process device runs each file on its own thread), and debugfs.
 */

/*
 * Another file's large frame, to keep the engine busy for a while (a
 * 4096x4096 frame takes tenths of a second in the VM), so that what a
 * test does meanwhile happens before any of its own frames is processed.
 */
static void busy_start(struct session *busy)
{
	session_open(busy, 4096, 4096, 1);
	queue_out(busy, 0, 90);
	queue_cap(busy, 0);
	stream(busy, OUT, true);
	stream(busy, CAP, true);
}

static void busy_end(struct session *busy)
{
	struct v4l2_buffer b;

	cr_assert_eq(dequeue(busy, CAP, &b), 0, "the large frame came back");
	session_close(busy);
}

/*
 * 32 files stream at once, each its own frames and HFLIP setting, all
 * queued up front, and started while a large frame of another file keeps
 * the engine busy (so neither how fast this test queues nor which file
 * starts first can matter). The mem2mem core then takes one frame from each file in
 * turn, so by the time any file has all its frames, every other file has
 * nearly all of its own.
 */
#define FILES	32
#define FRAMES	12

/* Dequeues every frame file i has made so far, checking it is its own. */
static void take_frames(struct session *s, unsigned int i, unsigned int *done)
{
	struct v4l2_buffer b = { .type = buf_type(CAP),
				 .memory = V4L2_MEMORY_MMAP };

	while (*done < FRAMES && !xioctl(s, VIDIOC_DQBUF, &b)) {
		const uint8_t *px = s->cap[b.index];

		/* HFLIP moves the first pixel to the end. */
		cr_assert_eq(px[(i & 1) ? (32 - 1) * 2 : 0], i,
			     "file %u got its own frame", i);
		++*done;
	}
}

Test(stream, thirty_two_files_stream_at_once_and_are_served_in_turn)
{
	static struct session s[FILES];
	unsigned int done[FILES] = { 0 }, finished = 0, first = FILES;
	unsigned int i, f, least_when_first = FRAMES;
	struct session busy;

	for (i = 0; i < FILES; i++) {
		session_open(&s[i], 32, 16, FRAMES);
		set_ctrl(&s[i], V4L2_CID_HFLIP, i & 1);
		for (f = 0; f < FRAMES; f++) {
			uint8_t *p = s[i].out[f];

			memset(p, 128, s[i].out_size);
			p[0] = i;	/* the first pixel's luma names the file */
			queue_out_as_is(&s[i], f);
			queue_cap(&s[i], f);
		}
	}
	/* All files join the job queue while the engine is busy. */
	busy_start(&busy);
	for (i = 0; i < FILES; i++) {
		stream(&s[i], OUT, true);
		stream(&s[i], CAP, true);
	}

	while (finished < FILES) {
		struct pollfd p[FILES];

		for (i = 0; i < FILES; i++)
			p[i] = (struct pollfd){ .fd = s[i].fd,
				.events = done[i] < FRAMES ? POLLIN : 0 };
		cr_assert_gt(poll(p, FILES, 10000), 0,
			     "frames stopped coming");
		/* Take every frame done so far, then look at the counts. */
		for (i = 0; i < FILES; i++) {
			unsigned int before = done[i];

			take_frames(&s[i], i, &done[i]);
			if (before < FRAMES && done[i] == FRAMES)
				finished++;
		}
		if (finished && first == FILES) {
			for (i = 0; i < FILES && first == FILES; i++)
				if (done[i] == FRAMES)
					first = i;
			/*
			 * The files before it were read earlier in the pass,
			 * while the engine went on (a loaded emulator can
			 * stretch a pass over many jobs): read them again, so
			 * that every count is of the moment it finished.
			 */
			for (i = 0; i < first; i++)
				take_frames(&s[i], i, &done[i]);
			for (i = 0; i < FILES; i++)
				if (done[i] < least_when_first)
					least_when_first = done[i];
			finished = 0;
			for (i = 0; i < FILES; i++)
				finished += done[i] == FRAMES;
		}
	}
	cr_assert_geq(least_when_first, FRAMES - 2,
		      "when file %u had all %d frames, one file had only %u",
		      first, FRAMES, least_when_first);
	busy_end(&busy);
	for (i = 0; i < FILES; i++)
		session_close(&s[i]);
}

static unsigned long long stat_value(const char *name)
{
	char line[128], key[64];
	unsigned long long v, found = ~0ULL;
	FILE *f = fopen("/sys/kernel/debug/vhqv/vhqv.0/stats", "r");

	cr_assert_not_null(f, "vhqv's statistics in debugfs");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63[^:]: %llu", key, &v) == 2 &&
		    !strcmp(key, name))
			found = v;
	fclose(f);
	cr_assert_neq(found, ~0ULL, "statistic %s", name);
	return found;
}

Test(stream, statistics_count_frames_and_time)
{
	unsigned long long before, busy;
	struct session s;
	struct v4l2_buffer b;
	unsigned int i;

	/* The VM's init does not mount debugfs. */
	mount("none", "/sys/kernel/debug", "debugfs", 0, NULL);
	before = stat_value("frames");
	busy = stat_value("busy_ns");
	session_open(&s, 64, 48, 4);
	for (i = 0; i < 4; i++) {
		queue_out(&s, i, 70);
		queue_cap(&s, i);
	}
	stream(&s, OUT, true);
	stream(&s, CAP, true);
	for (i = 0; i < 4; i++)
		cr_assert_eq(dequeue(&s, CAP, &b), 0);
	cr_assert_eq(stat_value("frames"), before + 4);
	cr_assert_gt(stat_value("busy_ns"), busy);
	cr_assert_gt(stat_value("last_frame_ns"), 0);
	session_close(&s);
}
#endif /* M2M_TEST_INPROCESS */
