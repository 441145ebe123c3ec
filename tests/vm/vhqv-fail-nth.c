// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Injected failures (issue 26), on the debug kernel: every step an
 * application takes with vhqv, each tried with its nth allocation or user
 * copy failed, for n = 1, 2, ... until the step makes no more of them, as
 * syzkaller does: /proc/thread-self/fail-nth fails the nth fault point of
 * this thread (failslab, fail_page_alloc and fail_usercopy, which
 * tests/vm/fail-nth sets to fail any allocation).
 *
 * A step is one system call, made on a file brought to the state before
 * it without injection. After each injected failure:
 *   - the call failed with ENOMEM or EFAULT (as the spec gives for them),
 *     or succeeded where the kernel has a way round the failure;
 *   - nothing is lost: while both queues stream, every OUTPUT buffer
 *     queued comes back, and CAPTURE buffers with it, done or flagged
 *     ERROR, each done one with its whole frame;
 *   - the same file works again: a frame made through it end to end (or
 *     through a new file after close or open).
 * The steps: open; SUBSCRIBE_EVENT; S_FMT; S_EXT_CTRLS; REQBUFS;
 * CREATE_BUFS; mmap; QBUF; STREAMON of each queue; QBUF that starts a
 * frame; DQBUF; DQEVENT; ENCODER_CMD STOP (a drain); STREAMOFF; close;
 * on both nodes. Then a frame whose nth buffer plane has no kernel mapping
 * (vhqv's own fault point, debugfs vhqv/fail_vaddr): that frame's buffers
 * come back flagged ERROR. Then vhqv-ir's: open of its lirc node, its send mode, a
 * scancode sent, one read, close; each checked with a scancode that must
 * come back. Then the module's: unloading it, and loading it again (its
 * nodes must be all there or none; see module_step()). scripts/vm-run fails the test on any
 * Oops, WARN, KASAN, lockdep or UBSAN report, and on kmemleak's leaks
 * after vhqv is unloaded.
 *
 *   vhqv-fail-nth VHQV_KO [PARAMS]
 *
 * Prints each step's count of injected failures, and the total.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/lirc.h>
#include <linux/videodev2.h>

#define W		64
#define H		48
#define BUFS		2
/* More than a frame or a scancode takes in the debug guest under TCG. */
#define WAIT_MS		5000
/* A step that still fails its nth point past this is in a loop. */
#define MAX_N		5000

static const char *prog = "vhqv-fail-nth";

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

/* ---- fail-nth ---- */

static int fail_nth = -1;

static void inject(unsigned int n)
{
	char text[16];
	int len = snprintf(text, sizeof(text), "%u", n);

	if (pwrite(fail_nth, text, len, 0) != len)
		die("writing %u to fail-nth: %s", n, strerror(errno));
}

/*
 * Whether the failure injected is spent (the step made it), and no more
 * injection. Reading fail-nth is a user copy, which may itself be the nth
 * point: then the step did not make it.
 */
static bool injected(void)
{
	char text[16] = "";
	bool spent;

	spent = pread(fail_nth, text, sizeof(text) - 1, 0) > 0 &&
		strtoul(text, NULL, 10) == 0;
	/* Writing is a user copy too, made before the count is set. */
	while (pwrite(fail_nth, "0", 1, 0) != 1)
		if (errno != EFAULT)
			die("resetting fail-nth: %s", strerror(errno));
	return spent;
}

/* ---- a file of a vhqv node ---- */

struct file {
	const char *path;
	bool mplane;
	int fd;
	uint32_t type[2];		/* OUTPUT, CAPTURE */
	unsigned int count[2];		/* buffers */
	void *map[2][BUFS];
	size_t length[2][BUFS];
	bool streaming[2];
	struct v4l2_format capture;	/* for CREATE_BUFS */
	uint32_t capture_fourcc;	/* set_formats()'s; 0: RGB24 */
	uint32_t map_offset, map_length; /* a CAPTURE buffer's, for mmap */
};

static int xioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do
		ret = ioctl(fd, req, arg);
	while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : 0;
}

#define MUST(call) must(call, #call, __LINE__)

static void must(int ret, const char *what, int line)
{
	if (ret < 0)
		die("line %d: %s: %s", line, what, strerror(-ret));
}

static int file_open(struct file *f)
{
	f->fd = open(f->path, O_RDWR | O_NONBLOCK);
	return f->fd < 0 ? -errno : 0;
}

static int set_format(struct file *f, int q, uint32_t fourcc)
{
	struct v4l2_format fmt = { .type = f->type[q] };

	if (f->mplane) {
		fmt.fmt.pix_mp.width = W;
		fmt.fmt.pix_mp.height = H;
		fmt.fmt.pix_mp.pixelformat = fourcc;
		fmt.fmt.pix_mp.num_planes = 1;
	} else {
		fmt.fmt.pix.width = W;
		fmt.fmt.pix.height = H;
		fmt.fmt.pix.pixelformat = fourcc;
	}
	return xioctl(f->fd, VIDIOC_S_FMT, &fmt);
}

static int set_formats(struct file *f)
{
	int ret = set_format(f, 0, V4L2_PIX_FMT_YUYV);

	return ret ? ret : set_format(f, 1, f->capture_fourcc ?
					  f->capture_fourcc : V4L2_PIX_FMT_RGB24);
}

static int reqbufs(struct file *f, int q, unsigned int count)
{
	struct v4l2_requestbuffers req = {
		.count = count,
		.type = f->type[q],
		.memory = V4L2_MEMORY_MMAP,
	};
	int ret = xioctl(f->fd, VIDIOC_REQBUFS, &req);

	if (!ret)
		f->count[q] = req.count;
	return ret;
}

/* Buffer i of queue q, QUERYBUF'd (or its flags, for QBUF and DQBUF). */
static void buffer_init(struct file *f, int q, unsigned int i,
			struct v4l2_buffer *b, struct v4l2_plane *plane)
{
	memset(b, 0, sizeof(*b));
	memset(plane, 0, sizeof(*plane));
	b->type = f->type[q];
	b->memory = V4L2_MEMORY_MMAP;
	b->index = i;
	if (f->mplane) {
		b->m.planes = plane;
		b->length = 1;
	}
}

static uint32_t buffer_flags(struct file *f, int q, unsigned int i)
{
	struct v4l2_plane plane;
	struct v4l2_buffer b;

	buffer_init(f, q, i, &b, &plane);
	MUST(xioctl(f->fd, VIDIOC_QUERYBUF, &b));
	return b.flags;
}

static int map_buffer(struct file *f, int q, unsigned int i, void **map,
		      size_t *length)
{
	struct v4l2_plane plane;
	struct v4l2_buffer b;
	uint32_t offset;
	int ret;

	buffer_init(f, q, i, &b, &plane);
	ret = xioctl(f->fd, VIDIOC_QUERYBUF, &b);
	if (ret)
		return ret;
	*length = f->mplane ? plane.length : b.length;
	offset = f->mplane ? plane.m.mem_offset : b.m.offset;
	*map = mmap(NULL, *length, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd,
		    offset);
	return *map == MAP_FAILED ? -errno : 0;
}

static int queue_buffer(struct file *f, int q, unsigned int i)
{
	struct v4l2_plane plane;
	struct v4l2_buffer b;

	buffer_init(f, q, i, &b, &plane);
	/* A whole OUTPUT frame: its buffer's length is its sizeimage. */
	if (f->mplane)
		plane.bytesused = q ? 0 : f->length[q][i];
	else
		b.bytesused = q ? 0 : f->length[q][i];
	return xioctl(f->fd, VIDIOC_QBUF, &b);
}

static int stream(struct file *f, int q, bool on)
{
	int type = f->type[q];
	int ret = xioctl(f->fd, on ? VIDIOC_STREAMON : VIDIOC_STREAMOFF,
			 &type);

	if (!ret)
		f->streaming[q] = on;
	return ret;
}

static int subscribe(struct file *f, uint32_t type)
{
	/* A control event names its control. */
	struct v4l2_event_subscription sub = {
		.type = type,
		.id = type == V4L2_EVENT_CTRL ? V4L2_CID_ROTATE : 0,
	};

	return xioctl(f->fd, VIDIOC_SUBSCRIBE_EVENT, &sub);
}

static int wait_fd(int fd, short events)
{
	struct pollfd p = { .fd = fd, .events = events };
	int ret = poll(&p, 1, WAIT_MS);

	return ret == 1 ? 0 : ret == 0 ? -ETIMEDOUT : -errno;
}

static int wait_for(struct file *f, short events)
{
	return wait_fd(f->fd, events);
}

/*
 * A buffer the device is done with, if one is: 0 and its index, flags and
 * bytesused, -EAGAIN if none, else DQBUF's error.
 */
static int dequeue(struct file *f, int q, struct v4l2_buffer *b,
		   uint32_t *bytesused)
{
	struct v4l2_plane plane;
	int ret;

	buffer_init(f, q, 0, b, &plane);
	ret = xioctl(f->fd, VIDIOC_DQBUF, b);
	*bytesused = f->mplane ? plane.bytesused : b->bytesused;
	return ret;
}

static void unmap_all(struct file *f)
{
	unsigned int q, i;

	for (q = 0; q < 2; q++)
		for (i = 0; i < BUFS; i++)
			if (f->map[q][i]) {
				munmap(f->map[q][i], f->length[q][i]);
				f->map[q][i] = NULL;
			}
}

static void file_close(struct file *f)
{
	unmap_all(f);
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	f->count[0] = f->count[1] = 0;
	f->streaming[0] = f->streaming[1] = false;
}

/* The states a step starts from, each the one before it and more. */
enum state {
	CLOSED,
	OPENED,		/* subscribed to EOS, SOURCE_CHANGE and FRAME_SYNC */
	FORMATTED,	/* YUYV in, RGB24 out, W x H */
	ALLOCATED,	/* BUFS buffers a queue, mapped */
	CAPTURE_QUEUED,	/* every CAPTURE buffer queued */
	STREAMING,	/* both queues */
	FRAME_DONE,	/* OUTPUT buffer 0 queued and its frame done */
};

static void reach(struct file *f, enum state s)
{
	unsigned int q, i;

	if (s < OPENED)
		return;
	MUST(file_open(f));
	MUST(subscribe(f, V4L2_EVENT_EOS));
	MUST(subscribe(f, V4L2_EVENT_SOURCE_CHANGE));
	MUST(subscribe(f, V4L2_EVENT_FRAME_SYNC));
	if (s < FORMATTED)
		return;
	MUST(set_formats(f));
	if (s < ALLOCATED)
		return;
	for (q = 0; q < 2; q++) {
		MUST(reqbufs(f, q, BUFS));
		if (f->count[q] != BUFS)
			die("REQBUFS gave %u buffers", f->count[q]);
		for (i = 0; i < BUFS; i++)
			MUST(map_buffer(f, q, i, &f->map[q][i],
					&f->length[q][i]));
	}
	if (s < CAPTURE_QUEUED)
		return;
	for (i = 0; i < BUFS; i++)
		MUST(queue_buffer(f, 1, i));
	if (s < STREAMING)
		return;
	MUST(stream(f, 0, true));
	MUST(stream(f, 1, true));
	if (s < FRAME_DONE)
		return;
	MUST(queue_buffer(f, 0, 0));
	MUST(wait_for(f, POLLIN));
}

static int set_controls(struct file *f, int rotate, int hflip,
			int brightness)
{
	struct v4l2_ext_control c[] = {
		{ .id = V4L2_CID_ROTATE, .value = rotate },
		{ .id = V4L2_CID_HFLIP, .value = hflip },
		{ .id = V4L2_CID_BRIGHTNESS, .value = brightness },
	};
	struct v4l2_ext_controls cs = {
		.which = V4L2_CTRL_WHICH_CUR_VAL,
		.count = 3,
		.controls = c,
	};

	return xioctl(f->fd, VIDIOC_S_EXT_CTRLS, &cs);
}

/*
 * Nothing is lost: while both queues stream, every OUTPUT buffer queued
 * comes back, each with a CAPTURE buffer done or flagged ERROR; a CAPTURE
 * buffer done without ERROR holds a whole frame, or none after a drain
 * (LAST). What is left queued is CAPTURE's, waiting for OUTPUT.
 */
static void assert_nothing_lost(struct file *f, const char *step,
				unsigned int n)
{
	unsigned int q, i, queued;
	struct v4l2_buffer b;
	uint32_t bytesused;
	int ret;

	if (!f->streaming[0] || !f->streaming[1])
		return;
	for (;;) {
		for (q = 0; q < 2; q++)
			while (!(ret = dequeue(f, q, &b, &bytesused)))
				if (q == 1 && !(b.flags & V4L2_BUF_FLAG_ERROR) &&
				    bytesused != f->length[1][b.index] &&
				    !(b.flags & V4L2_BUF_FLAG_LAST))
					die("%s, failure %u: a CAPTURE buffer "
					    "done with %u bytes of %zu", step,
					    n, bytesused, f->length[1][b.index]);
		for (queued = 0, i = 0; i < f->count[0]; i++)
			queued += !!(buffer_flags(f, 0, i) &
				     (V4L2_BUF_FLAG_QUEUED |
				      V4L2_BUF_FLAG_DONE));
		if (!queued)
			return;
		/* A drain's LAST stops CAPTURE until STREAMOFF. */
		if (wait_for(f, POLLIN | POLLOUT) == -ETIMEDOUT)
			die("%s, failure %u: %u OUTPUT buffer(s) never came "
			    "back", step, n, queued);
	}
}

/*
 * The file works: stopped, its buffers freed, then a frame made end to
 * end through it.
 */
static void assert_works(struct file *f, const char *step, unsigned int n)
{
	struct v4l2_buffer b;
	uint32_t bytesused;
	unsigned int q;

	if (f->fd < 0)
		MUST(file_open(f));
	for (q = 0; q < 2; q++)
		MUST(stream(f, q, false));
	unmap_all(f);
	for (q = 0; q < 2; q++)
		MUST(reqbufs(f, q, 0));
	/* The controls a step may have set: a failed S_EXT_CTRLS may have
	 * set them all and failed to copy the result back (EFAULT). */
	MUST(set_controls(f, 0, 0, 0));
	MUST(set_formats(f));
	for (q = 0; q < 2; q++) {
		MUST(reqbufs(f, q, 1));
		MUST(map_buffer(f, q, 0, &f->map[q][0], &f->length[q][0]));
	}
	memset(f->map[0][0], 0x80, f->length[0][0]);
	MUST(queue_buffer(f, 1, 0));
	MUST(queue_buffer(f, 0, 0));
	MUST(stream(f, 0, true));
	MUST(stream(f, 1, true));
	if (wait_for(f, POLLIN))
		die("%s, failure %u: no frame from the file afterwards", step,
		    n);
	MUST(dequeue(f, 1, &b, &bytesused));
	if (b.flags & (V4L2_BUF_FLAG_ERROR | V4L2_BUF_FLAG_LAST) ||
	    bytesused != f->length[1][0])
		die("%s, failure %u: the frame afterwards has flags 0x%x, "
		    "%u bytes", step, n, b.flags, bytesused);
	/* YUYV grey is RGB24 grey. */
	if (((uint8_t *)f->map[1][0])[0] != 0x82 &&
	    ((uint8_t *)f->map[1][0])[0] != 0x80)
		die("%s, failure %u: grey came out as %u", step, n,
		    ((uint8_t *)f->map[1][0])[0]);
	MUST(dequeue(f, 0, &b, &bytesused));
	file_close(f);
}

/* ---- the steps of a node ---- */

/*
 * From the state, what the step does without injection (prepare, when
 * given), then its call, with injection.
 */
struct step {
	const char *name;
	enum state from;
	void (*prepare)(struct file *f);
	int (*call)(struct file *f);
};

static int do_open(struct file *f)
{
	return file_open(f);
}

static int do_subscribe(struct file *f)
{
	return subscribe(f, V4L2_EVENT_CTRL);
}

static int do_s_fmt(struct file *f)
{
	return set_format(f, 0, V4L2_PIX_FMT_NV12);
}

static int do_s_ext_ctrls(struct file *f)
{
	return set_controls(f, 90, 1, 10);
}

static int do_reqbufs(struct file *f)
{
	return reqbufs(f, 0, BUFS);
}

static void get_capture_format(struct file *f)
{
	f->capture.type = f->type[1];
	MUST(xioctl(f->fd, VIDIOC_G_FMT, &f->capture));
}

static int do_create_bufs(struct file *f)
{
	struct v4l2_create_buffers c = {
		.count = 1,
		.memory = V4L2_MEMORY_MMAP,
		.format = f->capture,
	};

	return xioctl(f->fd, VIDIOC_CREATE_BUFS, &c);
}

/* A second mapping of CAPTURE buffer 1, where QUERYBUF says. */
static void query_capture(struct file *f)
{
	struct v4l2_plane plane;
	struct v4l2_buffer b;

	buffer_init(f, 1, 1, &b, &plane);
	MUST(xioctl(f->fd, VIDIOC_QUERYBUF, &b));
	f->map_length = f->mplane ? plane.length : b.length;
	f->map_offset = f->mplane ? plane.m.mem_offset : b.m.offset;
}

static int do_mmap(struct file *f)
{
	void *map = mmap(NULL, f->map_length, PROT_READ | PROT_WRITE,
			 MAP_SHARED, f->fd, f->map_offset);

	if (map == MAP_FAILED)
		return -errno;
	munmap(map, f->map_length);
	return 0;
}

static int do_qbuf(struct file *f)
{
	return queue_buffer(f, 1, 0);
}

static int do_streamon_output(struct file *f)
{
	return stream(f, 0, true);
}

/* A frame waits for CAPTURE's STREAMON. */
static void frame_waiting(struct file *f)
{
	MUST(stream(f, 0, true));
	MUST(queue_buffer(f, 0, 0));
}

static int do_streamon_capture(struct file *f)
{
	return stream(f, 1, true);
}

/* A second frame, after the first. */
static void second_frame(struct file *f)
{
	MUST(queue_buffer(f, 0, 1));
}

static int do_frame(struct file *f)
{
	return queue_buffer(f, 0, 1);
}

static int do_dqbuf(struct file *f)
{
	struct v4l2_buffer b;
	uint32_t bytesused;

	return dequeue(f, 1, &b, &bytesused);
}

static int do_dqevent(struct file *f)
{
	struct v4l2_event ev;

	return xioctl(f->fd, VIDIOC_DQEVENT, &ev);
}

static int do_drain(struct file *f)
{
	struct v4l2_encoder_cmd cmd = { .cmd = V4L2_ENC_CMD_STOP };

	return xioctl(f->fd, VIDIOC_ENCODER_CMD, &cmd);
}

static int do_streamoff(struct file *f)
{
	return stream(f, 1, false);
}

static int do_close(struct file *f)
{
	int fd = f->fd;

	unmap_all(f);
	f->fd = -1;
	f->streaming[0] = f->streaming[1] = false;
	return close(fd) < 0 ? -errno : 0;
}

static const struct step video_steps[] = {
	{ "open", CLOSED, NULL, do_open },
	{ "SUBSCRIBE_EVENT", OPENED, NULL, do_subscribe },
	{ "S_FMT", OPENED, NULL, do_s_fmt },
	{ "S_EXT_CTRLS", OPENED, NULL, do_s_ext_ctrls },
	{ "REQBUFS", FORMATTED, NULL, do_reqbufs },
	{ "CREATE_BUFS", FORMATTED, get_capture_format, do_create_bufs },
	{ "mmap", ALLOCATED, query_capture, do_mmap },
	{ "QBUF", ALLOCATED, NULL, do_qbuf },
	{ "STREAMON OUTPUT", CAPTURE_QUEUED, NULL, do_streamon_output },
	{ "STREAMON CAPTURE", CAPTURE_QUEUED, frame_waiting,
	  do_streamon_capture },
	{ "QBUF, a frame", STREAMING, NULL, do_frame },
	{ "DQBUF", FRAME_DONE, NULL, do_dqbuf },
	{ "DQEVENT", FRAME_DONE, NULL, do_dqevent },
	{ "ENCODER_CMD STOP", FRAME_DONE, second_frame, do_drain },
	{ "STREAMOFF", FRAME_DONE, second_frame, do_streamoff },
	{ "close", FRAME_DONE, second_frame, do_close },
};

static unsigned long total;

/*
 * Whether the step made no nth point (the failure was not spent): then
 * its call must have succeeded, and its count is printed.
 */
static bool step_done(const char *what, unsigned int n, unsigned int errors,
		      int ret, bool spent)
{
	if (spent)
		return false;
	if (ret)
		die("%s without a failure injected: %s", what, strerror(-ret));
	printf("%s: %s: %u failures injected, %u of them returned as "
	       "errors\n", prog, what, n - 1, errors);
	total += n - 1;
	return true;
}

static void check_error(const char *what, unsigned int n, int ret)
{
	if (ret && ret != -ENOMEM && ret != -EFAULT)
		die("%s, failure %u: %s, not ENOMEM or EFAULT", what, n,
		    strerror(-ret));
}

static void video_step(const char *node, bool mplane, const struct step *s)
{
	struct file f = { .path = node, .mplane = mplane, .fd = -1 };
	unsigned int n, errors = 0;
	char what[128];
	int ret;

	f.type[0] = mplane ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE :
			     V4L2_BUF_TYPE_VIDEO_OUTPUT;
	f.type[1] = mplane ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE :
			     V4L2_BUF_TYPE_VIDEO_CAPTURE;
	snprintf(what, sizeof(what), "%s %s", mplane ? "vhqv-mplane" : "vhqv",
		 s->name);
	for (n = 1; n <= MAX_N; n++) {
		bool spent;

		reach(&f, s->from);
		if (s->prepare)
			s->prepare(&f);
		inject(n);
		ret = s->call(&f);
		spent = injected();
		if (step_done(what, n, errors, ret, spent)) {
			file_close(&f);
			return;
		}
		check_error(what, n, ret);
		errors += ret != 0;
		assert_nothing_lost(&f, what, n);
		assert_works(&f, what, n);
	}
	die("%s: still failing at the %uth point", what, n);
}

/* ---- vhqv's own fault point: a plane with no kernel mapping ---- */

#define FAIL_VADDR	"/sys/kernel/debug/vhqv/fail_vaddr/"

static void fault_attr_write(const char *name, const char *value)
{
	char path[128];
	FILE *fp;

	snprintf(path, sizeof(path), FAIL_VADDR "%s", name);
	fp = fopen(path, "w");
	if (!fp || fputs(value, fp) < 0 || fclose(fp))
		die("%s: %s (a kernel without CONFIG_FAULT_INJECTION_DEBUG_FS?)",
		    path, strerror(errno));
}

static unsigned long fault_attr_read(const char *name)
{
	char path[128], text[32] = "";
	FILE *fp;

	snprintf(path, sizeof(path), FAIL_VADDR "%s", name);
	fp = fopen(path, "r");
	if (!fp || !fgets(text, sizeof(text), fp))
		die("%s: %s", path, strerror(errno));
	fclose(fp);
	return strtoul(text, NULL, 10);
}

/* Bytes before an OUTPUT frame in its buffer (multi-planar API only). */
#define VADDR_OFFSET	64

/*
 * Streaming, as reach(STREAMING) but for OUTPUT: one buffer made by
 * CREATE_BUFS with room for the frame after VADDR_OFFSET bytes.
 */
static void vaddr_stream(struct file *f)
{
	struct v4l2_create_buffers c = { .count = 1, .memory = V4L2_MEMORY_MMAP };
	unsigned int i;

	reach(f, FORMATTED);
	c.format.type = f->type[0];
	MUST(xioctl(f->fd, VIDIOC_G_FMT, &c.format));
	if (f->mplane)
		c.format.fmt.pix_mp.plane_fmt[0].sizeimage += VADDR_OFFSET;
	MUST(xioctl(f->fd, VIDIOC_CREATE_BUFS, &c));
	f->count[0] = 1;
	MUST(map_buffer(f, 0, 0, &f->map[0][0], &f->length[0][0]));
	MUST(reqbufs(f, 1, BUFS));
	for (i = 0; i < BUFS; i++) {
		MUST(map_buffer(f, 1, i, &f->map[1][i], &f->length[1][i]));
		MUST(queue_buffer(f, 1, i));
	}
	MUST(stream(f, 0, true));
	MUST(stream(f, 1, true));
}

/* The OUTPUT frame, after VADDR_OFFSET bytes where the API has them. */
static int vaddr_queue_frame(struct file *f)
{
	struct v4l2_plane plane;
	struct v4l2_buffer b;

	buffer_init(f, 0, 0, &b, &plane);
	if (f->mplane) {
		plane.bytesused = f->length[0][0];
		plane.data_offset = VADDR_OFFSET;
	} else {
		b.bytesused = f->length[0][0];
	}
	return xioctl(f->fd, VIDIOC_QBUF, &b);
}

/*
 * vb2_plane_vaddr() gives NULL for a plane with no kernel mapping:
 * videobuf2-vmalloc never does, other allocators may, and the job must
 * not run on it. The engine refuses a NULL plane, but an OUTPUT frame
 * after a data_offset starts past the NULL mapping (and CAPTURE YUV420's
 * second and third planes, one buffer, past its first): without vhqv's
 * own check the engine reads and writes near address 0. The fault point
 * fails the nth plane a job maps (one failure after a budget of space),
 * for every n until a frame maps no nth plane: the frame comes back,
 * OUTPUT and CAPTURE, flagged ERROR, and the next frame of the same
 * stream is whole.
 */
static void vaddr_step(const char *node, bool mplane)
{
	struct file f = { .path = node, .mplane = mplane, .fd = -1,
			  .capture_fourcc = V4L2_PIX_FMT_YUV420 };
	const char *what = mplane ? "vhqv-mplane, a frame's plane unmapped" :
				    "vhqv, a frame's plane unmapped";
	struct v4l2_buffer b;
	uint32_t bytesused;
	unsigned int n, q;
	char space[16];

	f.type[0] = mplane ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE :
			     V4L2_BUF_TYPE_VIDEO_OUTPUT;
	f.type[1] = mplane ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE :
			     V4L2_BUF_TYPE_VIDEO_CAPTURE;
	fault_attr_write("verbose", "0");
	fault_attr_write("probability", "100");
	fault_attr_write("interval", "1");
	vaddr_stream(&f);
	for (n = 1; n <= MAX_N; n++) {
		/* should_fail() passes while space exceeds the size (1). */
		snprintf(space, sizeof(space), "%u", n > 1 ? n : 0);
		fault_attr_write("space", space);
		fault_attr_write("times", "1");
		MUST(vaddr_queue_frame(&f));
		if (wait_for(&f, POLLIN))
			die("%s, failure %u: no frame came back", what, n);
		for (q = 0; q < 2; q++) {
			MUST(dequeue(&f, q, &b, &bytesused));
			if (fault_attr_read("times") == 0 &&
			    !(b.flags & V4L2_BUF_FLAG_ERROR))
				die("%s, failure %u: the %s buffer came back "
				    "without ERROR", what, n,
				    q ? "CAPTURE" : "OUTPUT");
		}
		if (fault_attr_read("times")) {
			/* No nth plane: the frame was whole. */
			if (b.flags & V4L2_BUF_FLAG_ERROR ||
			    bytesused != f.length[1][b.index])
				die("%s: a frame with no failure has flags "
				    "0x%x, %u bytes", what, b.flags, bytesused);
			fault_attr_write("times", "0");
			printf("%s: %s: %u failures injected\n", prog, what,
			       n - 1);
			total += n - 1;
			file_close(&f);
			return;
		}
		MUST(queue_buffer(&f, 1, b.index));
	}
	die("%s: still failing at the %uth point", what, n);
}

/* ---- devices in sysfs ---- */

/*
 * The entry of /sys/class/CLASS whose file has the line (newline
 * included), into entry; false if none has.
 */
static bool sysfs_find(const char *class, const char *file, const char *line,
		       char *entry, size_t size)
{
	char path[600], text[64];
	struct dirent *e;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/class/%s", class);
	d = opendir(path);
	while (d && !found && (e = readdir(d))) {
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/%s/%s/%s", class,
			 e->d_name, file);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (!found && fgets(text, sizeof(text), f))
			found = !strcmp(text, line);
		fclose(f);
		if (found)
			snprintf(entry, size, "%s", e->d_name);
	}
	if (d)
		closedir(d);
	return found;
}

/* ---- vhqv-ir's lirc node ---- */

/* /dev/lircN of the rc device named vhqv-ir. */
static void find_lirc(char *path, size_t size)
{
	char rc[256], dir[300];
	struct dirent *e;
	DIR *d;

	path[0] = '\0';
	if (!sysfs_find("rc", "uevent", "DEV_NAME=vhqv-ir\n", rc, sizeof(rc)))
		die("no rc device named vhqv-ir");
	snprintf(dir, sizeof(dir), "/sys/class/rc/%s", rc);
	d = opendir(dir);
	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, "lirc", 4))
			snprintf(path, size, "/dev/%s", e->d_name);
	if (d)
		closedir(d);
	if (!path[0])
		die("vhqv-ir has no lirc node");
}

static int lirc_open(const char *path)
{
	unsigned int mode = LIRC_MODE_SCANCODE;
	int fd = open(path, O_RDWR | O_NONBLOCK);

	if (fd < 0)
		die("open %s: %s", path, strerror(errno));
	MUST(xioctl(fd, LIRC_SET_REC_MODE, &mode));
	MUST(xioctl(fd, LIRC_SET_SEND_MODE, &mode));
	return fd;
}

/* Of the protocol vhqv-ir's keymap (rc-rc6-mce) decodes. */
static const struct lirc_scancode key = {
	.rc_proto = RC_PROTO_RC6_MCE,
	.scancode = 0x800f040c,
};

static int lirc_send(int fd)
{
	return write(fd, &key, sizeof(key)) == sizeof(key) ? 0 : -errno;
}

/* The scancode waiting, which must be the one sent. */
static int lirc_read(int fd)
{
	struct lirc_scancode sc;

	if (read(fd, &sc, sizeof(sc)) != sizeof(sc))
		return -errno;
	return sc.rc_proto == key.rc_proto && sc.scancode == key.scancode ?
	       0 : -EBADMSG;
}

/* The next scancode, which must be the one sent. */
static int lirc_receive(int fd)
{
	int ret = wait_fd(fd, POLLIN);

	return ret ? ret : lirc_read(fd);
}

/* Whatever is left to read, read. */
static void lirc_flush(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct lirc_scancode sc;

	while (poll(&p, 1, 300) == 1 && read(fd, &sc, sizeof(sc)) > 0)
		;
}

enum ir_step { IR_OPEN, IR_MODE, IR_SEND, IR_READ, IR_CLOSE };

static const char *const ir_names[] = {
	"open", "LIRC_SET_SEND_MODE", "write (send)", "read", "close",
};

static void ir_step(const char *path, enum ir_step s)
{
	unsigned int n, errors = 0, mode = LIRC_MODE_SCANCODE;
	char what[64];
	int fd = -1, ret;

	snprintf(what, sizeof(what), "vhqv-ir %s", ir_names[s]);
	for (n = 1; n <= MAX_N; n++) {
		bool spent;

		if (s != IR_OPEN)
			fd = lirc_open(path);
		if (s == IR_READ) {
			MUST(lirc_send(fd));
			MUST(wait_fd(fd, POLLIN));
		}
		inject(n);
		switch (s) {
		case IR_OPEN:
			fd = open(path, O_RDWR | O_NONBLOCK);
			ret = fd < 0 ? -errno : 0;
			break;
		case IR_MODE:
			ret = xioctl(fd, LIRC_SET_SEND_MODE, &mode);
			break;
		case IR_SEND:
			ret = lirc_send(fd);
			break;
		case IR_READ:
			ret = lirc_read(fd);
			break;
		case IR_CLOSE:
		default:
			ret = close(fd) < 0 ? -errno : 0;
			fd = -1;
			break;
		}
		spent = injected();
		if (fd >= 0)
			close(fd);
		if (step_done(what, n, errors, ret, spent))
			return;
		check_error(what, n, ret);
		errors += ret != 0;
		/* It works afterwards: a scancode sent comes back. */
		fd = lirc_open(path);
		lirc_flush(fd);
		MUST(lirc_send(fd));
		if (lirc_receive(fd))
			die("%s, failure %u: the scancode sent afterwards did "
			    "not come back", what, n);
		close(fd);
	}
	die("%s: still failing at the %uth point", what, n);
}

/* ---- the module ---- */

/* The /dev/videoN named name, into path ("" if none). */
static void find_video(const char *name, char *path, size_t size)
{
	char line[64], node[256];

	snprintf(line, sizeof(line), "%s\n", name);
	path[0] = '\0';
	if (sysfs_find("video4linux", "name", line, node, sizeof(node)))
		snprintf(path, size, "/dev/%s", node);
}

static bool loaded(void)
{
	return access("/sys/module/vhqv", F_OK) == 0;
}

/* vhqv.ko, open: finit_module() reads it from the start each time. */
static int ko = -1;

static int load(const char *params)
{
	return syscall(SYS_finit_module, ko, params, 0) ? -errno : 0;
}

static int unload(void)
{
	return syscall(SYS_delete_module, "vhqv", O_NONBLOCK) ? -errno : 0;
}

/* Loaded: both nodes and the IR device there; unloaded: none of them. */
static void assert_whole(const char *what, unsigned int n)
{
	char video[300], mplane[300];

	find_video("vhqv", video, sizeof(video));
	find_video("vhqv-mplane", mplane, sizeof(mplane));
	if (loaded() != !!video[0] || loaded() != !!mplane[0])
		die("%s, failure %u: vhqv is %sloaded, its nodes are%s%s", what,
		    n, loaded() ? "" : "not ", video[0] ? " vhqv" : "",
		    mplane[0] ? " vhqv-mplane" : "");
}

/*
 * Unloading, and loading, with the nth point failed. A failed unload
 * leaves the module working; a failed load leaves nothing (no module, no
 * node), and the next load, with the next point failed, shows that it
 * can be loaded again; the last, with none failed, that it works. A load
 * fails with whatever error the failure became on its way through the
 * module loader and the driver core: ENOMEM mostly, EINVAL where
 * platform_device_add() ignored dev_set_name()'s ENOMEM and device_add()
 * refused the nameless device, ENODEV where the device was added but
 * never probed (vhqv_init() fails the load then).
 */
static void module_step(const char *params, bool load_step)
{
	const char *what = load_step ? "module load" : "module unload";
	char video[300];
	struct file f = {
		.path = video,
		.fd = -1,
		.type = { V4L2_BUF_TYPE_VIDEO_OUTPUT,
			  V4L2_BUF_TYPE_VIDEO_CAPTURE },
	};
	unsigned int n, errors = 0;
	int ret;

	for (n = 1; n <= MAX_N; n++) {
		bool spent;

		if (load_step && loaded())
			MUST(unload());
		if (!load_step && !loaded())
			MUST(load(params));
		inject(n);
		ret = load_step ? load(params) : unload();
		spent = injected();
		assert_whole(what, n);
		if (step_done(what, n, errors, ret, spent))
			break;
		if (!load_step)
			check_error(what, n, ret);
		errors += ret != 0;
		/* What is loaded works. */
		if (loaded()) {
			find_video("vhqv", video, sizeof(video));
			assert_works(&f, what, n);
		}
	}
	if (n > MAX_N)
		die("%s: still failing at the %uth point", what, n);
	if (!loaded())
		MUST(load(params));
	find_video("vhqv", video, sizeof(video));
	assert_works(&f, what, n);
}

int main(int argc, char **argv)
{
	const char *params = argc > 2 ? argv[2] : "";
	char video[300], mplane[300], lirc[300];
	unsigned int i;

	if (argc < 2)
		die("usage: %s VHQV_KO [PARAMS]", prog);
	/* No page fault of this process may meet an injected failure. */
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		die("mlockall: %s", strerror(errno));
	setvbuf(stdout, NULL, _IOLBF, 0);
	fail_nth = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fail_nth < 0)
		die("/proc/thread-self/fail-nth: %s (a kernel without "
		    "CONFIG_FAULT_INJECTION)", strerror(errno));

	find_video("vhqv", video, sizeof(video));
	find_video("vhqv-mplane", mplane, sizeof(mplane));
	if (!video[0] || !mplane[0])
		die("vhqv's nodes are not there");
	for (i = 0; i < sizeof(video_steps) / sizeof(*video_steps); i++) {
		video_step(video, false, &video_steps[i]);
		video_step(mplane, true, &video_steps[i]);
	}
	vaddr_step(video, false);
	vaddr_step(mplane, true);
	find_lirc(lirc, sizeof(lirc));
	for (i = IR_OPEN; i <= IR_CLOSE; i++)
		ir_step(lirc, i);
	ko = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (ko < 0)
		die("open %s: %s", argv[1], strerror(errno));
	module_step(params, false);
	module_step(params, true);
	printf("%s: %lu failures injected in all, none lost a buffer or "
	       "broke the device\n", prog, total);
	return 0;
}
