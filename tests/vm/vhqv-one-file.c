// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Threads racing on one open file of a vhqv node, as a careless or hostile
 * application may: a check the driver makes under one lock must still hold
 * when it acts under another (issue 26). For SECONDS, on each node:
 *
 *   formats:  two threads of S_FMT on OUTPUT and CAPTURE, each between
 *             two formats whose plane counts (multi-planar node) or sizes
 *             differ;
 *   buffers:  REQBUFS(1) on a queue, QUERYBUF, G_FMT, REQBUFS(0): while
 *             the buffer exists the queue's format may not change, so its
 *             planes must be the format's (and an OUTPUT plane at least
 *             sizeimage long: CAPTURE's size follows OUTPUT's, a geometry
 *             change, but never its planes);
 *   stream:   both queues: REQBUFS, QBUF, STREAMON, ENC_CMD STOP now and
 *             then, DQBUF as frames come, STREAMOFF, REQBUFS(0), with the
 *             same check on the buffers it made;
 *   commands: ENC_CMD STOP and START, DQBUF on both queues, G_FMT.
 *
 * Then, on a file of its own, turns: ROTATE between landscape and
 * portrait against CAPTURE's STREAMON, a frame queued (race_turns()).
 *
 * The buffers and stream threads take turns (an application's own lock
 * around its buffers), so that a queue's buffers are the ones a thread
 * checks; the others race them.
 *
 * Fails when any buffer disagreed with its queue's format (before the fix,
 * 6% of allocations on the 6.1 guest), or a thread's ioctl failed with an
 * error the spec does not give for the case; scripts/vm-run also fails it
 * on any kernel report.
 *
 *   vhqv-one-file SECONDS NODE...
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/videodev2.h>

static const char *prog = "vhqv-one-file";

struct file_race {
	int fd;
	bool mplane;
	uint32_t type[2];	/* OUTPUT, CAPTURE */
	atomic_bool stop;
	pthread_mutex_t buffers_lock;
	/* What the threads saw. */
	atomic_ulong allocations, mismatches, fmt_set, fmt_busy, frames;
	atomic_ulong unexpected;
};

static int xioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do
		ret = ioctl(fd, req, arg);
	while (ret < 0 && errno == EINTR);
	return ret;
}

/* An ioctl's failure that no rule of the test allows. */
static void unexpected(struct file_race *r, const char *what, int err)
{
	if (atomic_fetch_add(&r->unexpected, 1) < 10)
		fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(err));
}

/*
 * The queue's format now: its plane count and each plane's sizeimage.
 * The single-planar node has one plane.
 */
static unsigned int queue_format(struct file_race *r, int q,
				 uint32_t sizeimage[VIDEO_MAX_PLANES])
{
	struct v4l2_format f = { .type = r->type[q] };
	unsigned int p;

	if (xioctl(r->fd, VIDIOC_G_FMT, &f) < 0) {
		unexpected(r, "G_FMT", errno);
		return 0;
	}
	if (!r->mplane) {
		sizeimage[0] = f.fmt.pix.sizeimage;
		return 1;
	}
	for (p = 0; p < f.fmt.pix_mp.num_planes; p++)
		sizeimage[p] = f.fmt.pix_mp.plane_fmt[p].sizeimage;
	return f.fmt.pix_mp.num_planes;
}

/*
 * Buffer 0 of queue q, which exists: its planes must be the format's.
 * Fills b (and planes) for QBUF.
 */
static void check_buffer(struct file_race *r, int q, struct v4l2_buffer *b,
			 struct v4l2_plane *planes)
{
	uint32_t sizeimage[VIDEO_MAX_PLANES];
	unsigned int n, p;
	bool ok;

	memset(b, 0, sizeof(*b));
	b->type = r->type[q];
	b->memory = V4L2_MEMORY_MMAP;
	if (r->mplane) {
		memset(planes, 0, VIDEO_MAX_PLANES * sizeof(*planes));
		b->m.planes = planes;
		b->length = VIDEO_MAX_PLANES;
	}
	if (xioctl(r->fd, VIDIOC_QUERYBUF, b) < 0) {
		unexpected(r, "QUERYBUF", errno);
		return;
	}
	n = queue_format(r, q, sizeimage);
	ok = r->mplane ? b->length == n : n == 1;
	for (p = 0; ok && q == 0 && p < n; p++)
		ok = (r->mplane ? planes[p].length : b->length) >=
		     sizeimage[p];
	atomic_fetch_add(&r->allocations, 1);
	if (!ok && atomic_fetch_add(&r->mismatches, 1) < 5)
		fprintf(stderr,
			"%s: %s buffer has %u plane(s), its format %u\n",
			prog, q ? "CAPTURE" : "OUTPUT",
			r->mplane ? b->length : 1, n);
}

static int reqbufs(struct file_race *r, int q, unsigned int count)
{
	struct v4l2_requestbuffers req = {
		.count = count,
		.type = r->type[q],
		.memory = V4L2_MEMORY_MMAP,
	};

	return xioctl(r->fd, VIDIOC_REQBUFS, &req);
}

/* Flip a queue between two formats; EBUSY while it has buffers. */
static void *formats_thread(void *arg)
{
	static const uint32_t out_mp[] = { V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_YUV420M };
	static const uint32_t cap_mp[] = { V4L2_PIX_FMT_NV12M, V4L2_PIX_FMT_RGB24 };
	static const uint32_t sizes[][2] = { { 64, 48 }, { 160, 120 } };
	struct file_race *r = arg;
	unsigned long i;

	for (i = 0; !atomic_load(&r->stop); i++) {
		struct v4l2_format f = { .type = r->type[i & 1] };
		const uint32_t *fourcc = i & 1 ? cap_mp : out_mp;
		unsigned int k = (i >> 1) & 1;

		if (r->mplane) {
			f.fmt.pix_mp.pixelformat = fourcc[k];
			f.fmt.pix_mp.width = sizes[k][0];
			f.fmt.pix_mp.height = sizes[k][1];
		} else {
			f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
			f.fmt.pix.width = sizes[k][0];
			f.fmt.pix.height = sizes[k][1];
		}
		if (xioctl(r->fd, VIDIOC_S_FMT, &f) == 0)
			atomic_fetch_add(&r->fmt_set, 1);
		else if (errno == EBUSY)
			atomic_fetch_add(&r->fmt_busy, 1);
		else
			unexpected(r, "S_FMT", errno);
	}
	return NULL;
}

/* Allocate one buffer on a queue and check it against the format. */
static void *buffers_thread(void *arg)
{
	struct file_race *r = arg;
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
	struct v4l2_buffer b;
	unsigned long i;

	for (i = 0; !atomic_load(&r->stop); i++) {
		int q = i & 1;

		pthread_mutex_lock(&r->buffers_lock);
		if (reqbufs(r, q, 1) == 0) {
			check_buffer(r, q, &b, planes);
			if (reqbufs(r, q, 0) < 0)
				unexpected(r, "REQBUFS(0)", errno);
		} else {
			unexpected(r, "REQBUFS(1)", errno);
		}
		pthread_mutex_unlock(&r->buffers_lock);
	}
	return NULL;
}

static void stream_once(struct file_race *r, unsigned long i)
{
	struct v4l2_plane planes[2][VIDEO_MAX_PLANES];
	struct v4l2_buffer b[2];
	struct pollfd pfd = { .fd = r->fd, .events = POLLIN };
	struct v4l2_encoder_cmd stop = { .cmd = V4L2_ENC_CMD_STOP };
	unsigned int p;
	int q, made = 0;

	for (q = 0; q < 2; q++) {
		if (reqbufs(r, q, 1) < 0) {
			unexpected(r, "stream REQBUFS(1)", errno);
			goto out;
		}
		made |= 1 << q;
		check_buffer(r, q, &b[q], planes[q]);
		if (q == 0 && r->mplane)
			for (p = 0; p < b[q].length; p++)
				planes[q][p].bytesused = planes[q][p].length;
		else if (q == 0)
			b[q].bytesused = b[q].length;
		if (xioctl(r->fd, VIDIOC_QBUF, &b[q]) < 0)
			unexpected(r, "QBUF", errno);
	}
	for (q = 0; q < 2; q++)
		if (xioctl(r->fd, VIDIOC_STREAMON, &r->type[q]) < 0)
			unexpected(r, "STREAMON", errno);
	/* EBUSY: the commands thread's STOP is still draining. */
	if (i % 3 == 0 && xioctl(r->fd, VIDIOC_ENCODER_CMD, &stop) < 0 &&
	    errno != EBUSY)
		unexpected(r, "ENC_CMD STOP", errno);
	if (poll(&pfd, 1, 200) > 0) {
		for (q = 1; q >= 0; q--) {
			struct v4l2_buffer d = {
				.type = r->type[q],
				.memory = V4L2_MEMORY_MMAP,
				.m.planes = planes[q],
				.length = r->mplane ? VIDEO_MAX_PLANES : 0,
			};

			if (xioctl(r->fd, VIDIOC_DQBUF, &d) == 0 && q == 1)
				atomic_fetch_add(&r->frames, 1);
		}
	}
	for (q = 0; q < 2; q++)
		if (xioctl(r->fd, VIDIOC_STREAMOFF, &r->type[q]) < 0)
			unexpected(r, "STREAMOFF", errno);
out:
	for (q = 0; q < 2; q++)
		if ((made & (1 << q)) && reqbufs(r, q, 0) < 0)
			unexpected(r, "stream REQBUFS(0)", errno);
}

static void *stream_thread(void *arg)
{
	struct file_race *r = arg;
	unsigned long i;

	for (i = 0; !atomic_load(&r->stop); i++) {
		pthread_mutex_lock(&r->buffers_lock);
		stream_once(r, i);
		pthread_mutex_unlock(&r->buffers_lock);
	}
	return NULL;
}

/*
 * Commands and dequeues from another thread: STOP and START succeed (they
 * do nothing unless both queues stream) or find a drain in progress
 * (EBUSY, as dev-encoder.rst has it); DQBUF finds a buffer, none
 * (EAGAIN), no buffers or a stopped queue (EINVAL), or a drained CAPTURE
 * (EPIPE).
 */
static void *commands_thread(void *arg)
{
	struct file_race *r = arg;
	uint32_t sizeimage[VIDEO_MAX_PLANES];
	unsigned long i;

	for (i = 0; !atomic_load(&r->stop); i++) {
		struct v4l2_encoder_cmd cmd = {
			.cmd = i & 1 ? V4L2_ENC_CMD_START : V4L2_ENC_CMD_STOP,
		};
		struct v4l2_plane planes[VIDEO_MAX_PLANES];
		struct v4l2_buffer d = {
			.type = r->type[(i >> 1) & 1],
			.memory = V4L2_MEMORY_MMAP,
			.m.planes = planes,
			.length = r->mplane ? VIDEO_MAX_PLANES : 0,
		};

		if (xioctl(r->fd, VIDIOC_ENCODER_CMD, &cmd) < 0 &&
		    errno != EBUSY)
			unexpected(r, "ENC_CMD", errno);
		if (xioctl(r->fd, VIDIOC_DQBUF, &d) < 0 && errno != EAGAIN &&
		    errno != EINVAL && errno != EPIPE)
			unexpected(r, "DQBUF", errno);
		queue_format(r, i & 1, sizeimage);
	}
	return NULL;
}

static bool race_node(const char *node, unsigned int seconds)
{
	void *(*const threads[])(void *) = {
		formats_thread, formats_thread, buffers_thread, stream_thread,
		commands_thread,
	};
	pthread_t tid[sizeof(threads) / sizeof(threads[0])];
	struct v4l2_capability cap = { 0 };
	struct file_race r = { 0 };
	unsigned int t;

	pthread_mutex_init(&r.buffers_lock, NULL);
	r.fd = open(node, O_RDWR | O_NONBLOCK);
	if (r.fd < 0 || xioctl(r.fd, VIDIOC_QUERYCAP, &cap) < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, node, strerror(errno));
		return false;
	}
	r.mplane = cap.device_caps & V4L2_CAP_VIDEO_M2M_MPLANE;
	r.type[0] = r.mplane ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE :
			       V4L2_BUF_TYPE_VIDEO_OUTPUT;
	r.type[1] = r.mplane ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE :
			       V4L2_BUF_TYPE_VIDEO_CAPTURE;
	for (t = 0; t < sizeof(tid) / sizeof(tid[0]); t++)
		if (pthread_create(&tid[t], NULL, threads[t], &r)) {
			fprintf(stderr, "%s: pthread_create failed\n", prog);
			exit(1);
		}
	sleep(seconds);
	atomic_store(&r.stop, true);
	for (t = 0; t < sizeof(tid) / sizeof(tid[0]); t++)
		pthread_join(tid[t], NULL);
	close(r.fd);
	printf("%s: %s: %lu buffers checked, %lu disagreed with their format; "
	       "S_FMT %lu set, %lu EBUSY; %lu frames; %lu unexpected errors\n",
	       prog, node, atomic_load(&r.allocations),
	       atomic_load(&r.mismatches), atomic_load(&r.fmt_set),
	       atomic_load(&r.fmt_busy), atomic_load(&r.frames),
	       atomic_load(&r.unexpected));
	return atomic_load(&r.allocations) > 0 && atomic_load(&r.fmt_set) > 0 &&
	       !atomic_load(&r.mismatches) && !atomic_load(&r.unexpected);
}

/*
 * turns: a frame queued and OUTPUT streaming, one thread turns the picture
 * to portrait (a geometry change) while another starts CAPTURE. In either
 * order a CAPTURE buffer comes back: the frame, turned or not, or, for a
 * change while CAPTURE streams, one flagged LAST. Before the fix a turn
 * read CAPTURE's streaming state outside the queues' lock, so a STREAMON
 * between that read and the change left CAPTURE streaming and the device
 * waiting for CAPTURE to restart, with no LAST buffer: nothing came.
 */
struct turn_race {
	int fd;
	bool mplane;
	uint32_t type[2];
	pthread_barrier_t go, done;
	bool stop;
	int32_t rotate;
	int err;
};

static int set_rotate(int fd, int32_t value)
{
	struct v4l2_control c = { .id = V4L2_CID_ROTATE, .value = value };

	return xioctl(fd, VIDIOC_S_CTRL, &c) < 0 ? errno : 0;
}

static void *turn_thread(void *arg)
{
	struct turn_race *t = arg;

	for (;;) {
		pthread_barrier_wait(&t->go);
		if (t->stop)
			return NULL;
		t->err = set_rotate(t->fd, t->rotate);
		pthread_barrier_wait(&t->done);
	}
}

/* QBUF buffer index of queue q, an OUTPUT one with a whole frame. */
static int turn_qbuf(struct turn_race *t, int q, unsigned int index)
{
	struct v4l2_plane planes[VIDEO_MAX_PLANES] = { 0 };
	struct v4l2_buffer b = {
		.type = t->type[q], .memory = V4L2_MEMORY_MMAP, .index = index,
		.m.planes = planes, .length = t->mplane ? VIDEO_MAX_PLANES : 0,
	};
	unsigned int p;

	if (xioctl(t->fd, VIDIOC_QUERYBUF, &b) < 0)
		return errno;
	if (q == 0 && t->mplane)
		for (p = 0; p < b.length; p++)
			planes[p].bytesused = planes[p].length;
	else if (q == 0)
		b.bytesused = b.length;
	return xioctl(t->fd, VIDIOC_QBUF, &b) < 0 ? errno : 0;
}

static int turn_reqbufs(struct turn_race *t, int q, unsigned int count)
{
	struct v4l2_requestbuffers req = {
		.count = count, .type = t->type[q], .memory = V4L2_MEMORY_MMAP,
	};

	return xioctl(t->fd, VIDIOC_REQBUFS, &req) < 0 ? errno : 0;
}

/* One round; false if nothing came back (or a call failed: err). */
static bool turn_once(struct turn_race *t, int *err, const char **what)
{
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
	struct v4l2_buffer d = {
		.type = t->type[1], .memory = V4L2_MEMORY_MMAP,
		.m.planes = planes, .length = t->mplane ? VIDEO_MAX_PLANES : 0,
	};
	struct pollfd pfd = { .fd = t->fd, .events = POLLIN };
	bool came;
	int q;

	*what = "S_CTRL ROTATE 0";
	if ((*err = set_rotate(t->fd, 0)))
		return false;
	*what = "REQBUFS";
	if ((*err = turn_reqbufs(t, 0, 1)) || (*err = turn_reqbufs(t, 1, 2)))
		return false;
	*what = "QBUF";
	if ((*err = turn_qbuf(t, 1, 0)) || (*err = turn_qbuf(t, 1, 1)) ||
	    (*err = turn_qbuf(t, 0, 0)))
		return false;
	*what = "STREAMON OUTPUT";
	if (xioctl(t->fd, VIDIOC_STREAMON, &t->type[0]) < 0) {
		*err = errno;
		return false;
	}
	t->rotate = 90;
	pthread_barrier_wait(&t->go);
	*err = xioctl(t->fd, VIDIOC_STREAMON, &t->type[1]) < 0 ? errno : 0;
	pthread_barrier_wait(&t->done);
	*what = *err ? "STREAMON CAPTURE" : "S_CTRL ROTATE 90";
	if (*err || (*err = t->err))
		return false;
	came = poll(&pfd, 1, 5000) > 0 && xioctl(t->fd, VIDIOC_DQBUF, &d) == 0;
	*what = "STREAMOFF, REQBUFS(0)";
	for (q = 0; q < 2; q++)
		if (xioctl(t->fd, VIDIOC_STREAMOFF, &t->type[q]) < 0 ||
		    turn_reqbufs(t, q, 0))
			*err = errno;
	return came;
}

static bool race_turns(const char *node, unsigned int seconds)
{
	struct turn_race t = { 0 };
	unsigned long rounds = 0, stuck = 0;
	struct v4l2_capability cap = { 0 };
	struct timespec now, end;
	const char *what;
	pthread_t tid;
	int q, err = 0;

	t.fd = open(node, O_RDWR | O_NONBLOCK);
	if (t.fd < 0 || xioctl(t.fd, VIDIOC_QUERYCAP, &cap) < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, node, strerror(errno));
		return false;
	}
	t.mplane = cap.device_caps & V4L2_CAP_VIDEO_M2M_MPLANE;
	for (q = 0; q < 2; q++) {
		struct v4l2_format f = { .type = q ? V4L2_BUF_TYPE_VIDEO_CAPTURE :
						     V4L2_BUF_TYPE_VIDEO_OUTPUT };

		if (t.mplane)
			f.type = q ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE :
				     V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE;
		t.type[q] = f.type;
		/* YUYV both sides: turned, 48x64 is 64x48's bytes. */
		if (t.mplane) {
			f.fmt.pix_mp.pixelformat = V4L2_PIX_FMT_YUYV;
			f.fmt.pix_mp.width = 64;
			f.fmt.pix_mp.height = 48;
		} else {
			f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
			f.fmt.pix.width = 64;
			f.fmt.pix.height = 48;
		}
		if (xioctl(t.fd, VIDIOC_S_FMT, &f) < 0) {
			fprintf(stderr, "%s: S_FMT: %s\n", prog, strerror(errno));
			return false;
		}
	}
	pthread_barrier_init(&t.go, NULL, 2);
	pthread_barrier_init(&t.done, NULL, 2);
	if (pthread_create(&tid, NULL, turn_thread, &t)) {
		fprintf(stderr, "%s: pthread_create failed\n", prog);
		exit(1);
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += seconds;
	do {
		rounds++;
		if (!turn_once(&t, &err, &what) && !err &&
		    stuck++ < 5)
			fprintf(stderr, "%s: %s: round %lu: no CAPTURE buffer "
				"came back in 5 s\n", prog, node, rounds);
		if (err) {
			fprintf(stderr, "%s: %s: round %lu: %s: %s\n", prog,
				node, rounds, what, strerror(err));
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec < end.tv_sec ||
		 (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
	t.stop = true;
	pthread_barrier_wait(&t.go);
	pthread_join(tid, NULL);
	close(t.fd);
	printf("%s: %s: turns against STREAMON: %lu rounds, %lu with no "
	       "CAPTURE buffer back\n", prog, node, rounds, stuck);
	return !err && !stuck;
}

int main(int argc, char **argv)
{
	unsigned int seconds;
	bool ok = true;
	int i;

	if (argc < 3) {
		fprintf(stderr, "usage: %s SECONDS NODE...\n", prog);
		return 2;
	}
	seconds = strtoul(argv[1], NULL, 0);
	for (i = 2; i < argc; i++)
		ok &= race_node(argv[i], seconds);
	for (i = 2; i < argc; i++)
		ok &= race_turns(argv[i], seconds);
	return ok ? 0 : 1;
}
