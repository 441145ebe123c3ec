// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What the in-process device (m2m_transport_inprocess) adds to what the
 * shared tests (inprocess.identity, .stream, .bad_input) check of it: its
 * identity, the ioctls it does not have, control enumeration and events,
 * frame metadata, the wait fd, memory shared between handles (EXPBUF,
 * DMABUF import, USERPTR), blocking DQBUF, and threads.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/videodev2.h>
#include <m2m/vhqv.h>

#include "transport.h"

static const struct m2m_transport *const t = &m2m_transport_inprocess;

#define OUT V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE
#define CAP V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE
#define W 64
#define H 48
#define SIZE (W * H * 2)

static int xioctl(int fd, unsigned long req, void *arg)
{
	return t->ioctl(fd, req, arg) ? errno : 0;
}

static int dev_open(int flags)
{
	int fd = t->open(M2M_INPROCESS_PATH, O_RDWR | flags);

	cr_assert_geq(fd, 0, "open: %s", strerror(errno));
	return fd;
}

/* A one-plane format, its pitch asked for (0: the shortest); size expected. */
static void set_fmt_layout(int fd, uint32_t type, uint32_t fourcc,
			   uint32_t width, uint32_t height, uint32_t pitch,
			   uint32_t size)
{
	struct v4l2_format f = { .type = type };

	f.fmt.pix_mp.width = width;
	f.fmt.pix_mp.height = height;
	f.fmt.pix_mp.pixelformat = fourcc;
	f.fmt.pix_mp.num_planes = 1;
	f.fmt.pix_mp.plane_fmt[0].bytesperline = pitch;
	cr_assert_eq(xioctl(fd, VIDIOC_S_FMT, &f), 0);
	cr_assert_eq(f.fmt.pix_mp.plane_fmt[0].sizeimage, size);
}

static void set_fmt(int fd, uint32_t type, uint32_t fourcc)
{
	set_fmt_layout(fd, type, fourcc, W, H, 0, SIZE);
}

static void reqbufs(int fd, uint32_t type, uint32_t memory, uint32_t count)
{
	struct v4l2_requestbuffers rb = {
		.count = count, .type = type, .memory = memory,
	};

	cr_assert_eq(xioctl(fd, VIDIOC_REQBUFS, &rb), 0);
	cr_assert_eq(rb.count, count);
}

static void streamon(int fd, uint32_t type)
{
	cr_assert_eq(xioctl(fd, VIDIOC_STREAMON, &type), 0);
}

/* One plane of a buffer: QBUF, DQBUF and QUERYBUF take this shape. */
struct buf {
	struct v4l2_buffer b;
	struct v4l2_plane plane;
};

static struct v4l2_buffer *buf_init(struct buf *x, uint32_t type,
				    uint32_t memory, uint32_t index)
{
	memset(x, 0, sizeof(*x));
	x->b.type = type;
	x->b.memory = memory;
	x->b.index = index;
	x->b.m.planes = &x->plane;
	x->b.length = 1;
	return &x->b;
}

static void *map_buffer(int fd, uint32_t type, uint32_t index)
{
	struct buf x;
	void *p;

	cr_assert_eq(xioctl(fd, VIDIOC_QUERYBUF,
			    buf_init(&x, type, V4L2_MEMORY_MMAP, index)), 0);
	p = t->mmap(NULL, x.plane.length, PROT_READ | PROT_WRITE, MAP_SHARED,
		    fd, x.plane.m.mem_offset);
	cr_assert_neq(p, MAP_FAILED, "mmap: %s", strerror(errno));
	return p;
}

static void qbuf_mmap(int fd, uint32_t type, uint32_t index)
{
	struct buf x;

	buf_init(&x, type, V4L2_MEMORY_MMAP, index);
	x.plane.bytesused = type == OUT ? SIZE : 0;
	cr_assert_eq(xioctl(fd, VIDIOC_QBUF, &x.b), 0);
}

static void dqbuf_memory(int fd, uint32_t type, uint32_t memory,
			 struct buf *x)
{
	short revents;

	cr_assert_eq(t->poll(fd, type == OUT ? POLLOUT : POLLIN, &revents,
			     10000), 1, "no buffer in 10 s");
	cr_assert_eq(xioctl(fd, VIDIOC_DQBUF, buf_init(x, type, memory, 0)),
		     0);
}

static void dqbuf_wait(int fd, uint32_t type, struct buf *x)
{
	dqbuf_memory(fd, type, V4L2_MEMORY_MMAP, x);
}

Test(device, querycap_names_vhqv_in_process)
{
	struct v4l2_capability cap;
	int fd = dev_open(0);

	cr_assert_eq(xioctl(fd, VIDIOC_QUERYCAP, &cap), 0);
	cr_assert_str_eq((char *)cap.driver, "vhqv");
	cr_assert_str_eq((char *)cap.card, "Virtual HQV engine (in-process)");
	cr_assert_str_eq((char *)cap.bus_info, "inprocess:vhqv");
	cr_assert_eq(cap.device_caps,
		     V4L2_CAP_VIDEO_M2M_MPLANE | V4L2_CAP_STREAMING);
	cr_assert_eq(cap.capabilities,
		     cap.device_caps | V4L2_CAP_DEVICE_CAPS);
	t->close(fd);
}

Test(device, other_paths_ioctls_and_buffer_types_are_refused)
{
	struct v4l2_streamparm parm = { .type = OUT };
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_fmtdesc d = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT };
	int fd = dev_open(0);

	cr_assert_eq(t->open("/dev/video0", O_RDWR), -1);
	cr_assert_eq(errno, ENOENT);
	cr_assert_eq(xioctl(fd, VIDIOC_G_PARM, &parm), ENOTTY);
	cr_assert_eq(xioctl(fd, VIDIOC_G_FMT, &f), EINVAL);
	cr_assert_eq(xioctl(fd, VIDIOC_ENUM_FMT, &d), EINVAL);
	cr_assert_eq(xioctl(fd + 1000, VIDIOC_G_FMT, &f), EBADF);
	t->close(fd);
	cr_assert_eq(xioctl(fd, VIDIOC_G_FMT, &f), EBADF);
}

/* Every format of the engine's table, with V4L2's descriptions. */
Test(device, enum_fmt_offers_all_29_formats_with_descriptions)
{
	int fd = dev_open(0);
	unsigned int n = 0;
	struct v4l2_fmtdesc d;

	for (;; n++) {
		d = (struct v4l2_fmtdesc){ .index = n, .type = CAP };
		if (xioctl(fd, VIDIOC_ENUM_FMT, &d))
			break;
		cr_assert_neq(d.description[0], 0);
		cr_assert(d.flags & V4L2_FMT_FLAG_CSC_QUANTIZATION);
	}
	cr_assert_eq(n, 29);
	d = (struct v4l2_fmtdesc){ .index = 4, .type = OUT };
	cr_assert_eq(xioctl(fd, VIDIOC_ENUM_FMT, &d), 0);
	cr_assert_eq(d.pixelformat, V4L2_PIX_FMT_NV12);
	cr_assert_str_eq((char *)d.description, "Y/UV 4:2:0");
	cr_assert_eq(d.flags, 0);
	t->close(fd);
}

/*
 * NEXT_CTRL lists the class controls and vhqv's eleven controls in id
 * order; menus have their items.
 */
Test(device, controls_enumerate_in_id_order_with_classes_and_menus)
{
	struct v4l2_query_ext_ctrl q = { .id = V4L2_CTRL_FLAG_NEXT_CTRL };
	struct v4l2_querymenu m = { .id = V4L2_CID_VHQV_SCALER, .index = 2 };
	uint32_t last = 0;
	unsigned int n = 0, classes = 0;
	int fd = dev_open(0);

	while (!xioctl(fd, VIDIOC_QUERY_EXT_CTRL, &q)) {
		cr_assert_gt(q.id, last);
		last = q.id;
		n++;
		classes += q.type == V4L2_CTRL_TYPE_CTRL_CLASS;
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	}
	cr_assert_eq(n, 13);
	cr_assert_eq(classes, 2);
	cr_assert_eq(xioctl(fd, VIDIOC_QUERYMENU, &m), 0);
	cr_assert_str_eq((char *)m.name, "Area");
	m.index = 3;
	cr_assert_eq(xioctl(fd, VIDIOC_QUERYMENU, &m), EINVAL);
	q = (struct v4l2_query_ext_ctrl){ .id = V4L2_CID_ROTATE };
	cr_assert_eq(xioctl(fd, VIDIOC_QUERY_EXT_CTRL, &q), 0);
	cr_assert_str_eq(q.name, "Rotate");
	cr_assert_eq(q.step, 90);
	t->close(fd);
}

Test(device, ext_ctrls_read_defaults_and_check_the_class)
{
	struct v4l2_ext_control c[2] = {
		{ .id = V4L2_CID_ALPHA_COMPONENT, .value = 3 },
		{ .id = V4L2_CID_DEINTERLACING_MODE },
	};
	struct v4l2_ext_controls cs = {
		.which = V4L2_CTRL_WHICH_CUR_VAL, .count = 1, .controls = c,
	};
	int fd = dev_open(0);

	cr_assert_eq(xioctl(fd, VIDIOC_S_EXT_CTRLS, &cs), 0);
	cs.which = V4L2_CTRL_WHICH_DEF_VAL;
	cs.count = 2;
	cr_assert_eq(xioctl(fd, VIDIOC_G_EXT_CTRLS, &cs), 0);
	cr_assert_eq(c[0].value, 255);
	cr_assert_eq(c[1].value, VHQV_DEINTERLACE_BOB);
	cr_assert_eq(xioctl(fd, VIDIOC_S_EXT_CTRLS, &cs), EINVAL);
	/* Not all of the user class: the second is image processing's. */
	cs.which = V4L2_CTRL_CLASS_USER;
	cr_assert_eq(xioctl(fd, VIDIOC_G_EXT_CTRLS, &cs), EINVAL);
	cr_assert_eq(cs.error_idx, 1);
	cs.which = V4L2_CTRL_WHICH_CUR_VAL;
	cr_assert_eq(xioctl(fd, VIDIOC_G_EXT_CTRLS, &cs), 0);
	cr_assert_eq(c[0].value, 3);
	t->close(fd);
}

/*
 * SEND_INITIAL queues the current value; a handle hears of its own changes
 * only with ALLOW_FEEDBACK.
 */
Test(device, ctrl_events_initial_value_and_feedback)
{
	struct v4l2_event_subscription sub = {
		.type = V4L2_EVENT_CTRL, .id = V4L2_CID_HFLIP,
		.flags = V4L2_EVENT_SUB_FL_SEND_INITIAL,
	};
	struct v4l2_control c = { .id = V4L2_CID_HFLIP, .value = 1 };
	struct v4l2_event ev;
	int fd = dev_open(0);

	cr_assert_eq(xioctl(fd, VIDIOC_SUBSCRIBE_EVENT, &sub), 0);
	cr_assert_eq(xioctl(fd, VIDIOC_DQEVENT, &ev), 0);
	cr_assert_eq(ev.type, V4L2_EVENT_CTRL);
	cr_assert_eq(ev.id, V4L2_CID_HFLIP);
	cr_assert_eq(ev.u.ctrl.value, 0);
	cr_assert_eq(ev.u.ctrl.changes,
		     V4L2_EVENT_CTRL_CH_VALUE | V4L2_EVENT_CTRL_CH_FLAGS);
	cr_assert_eq(xioctl(fd, VIDIOC_S_CTRL, &c), 0);
	cr_assert_eq(xioctl(fd, VIDIOC_DQEVENT, &ev), ENOENT);

	cr_assert_eq(xioctl(fd, VIDIOC_UNSUBSCRIBE_EVENT, &sub), 0);
	sub.flags = V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK;
	cr_assert_eq(xioctl(fd, VIDIOC_SUBSCRIBE_EVENT, &sub), 0);
	c.value = 0;
	cr_assert_eq(xioctl(fd, VIDIOC_S_CTRL, &c), 0);
	cr_assert_eq(xioctl(fd, VIDIOC_DQEVENT, &ev), 0);
	cr_assert_eq(ev.u.ctrl.value, 0);
	cr_assert_eq(ev.u.ctrl.changes, V4L2_EVENT_CTRL_CH_VALUE);
	sub.id = V4L2_CID_GAIN;
	cr_assert_eq(xioctl(fd, VIDIOC_SUBSCRIBE_EVENT, &sub), EINVAL);
	t->close(fd);
}

/*
 * Each frame: a FRAME_SYNC event with the OUTPUT sequence number, and a
 * CAPTURE buffer with the same sequence and the OUTPUT timestamp.
 */
Test(device, frames_carry_sequence_timestamp_and_frame_sync)
{
	struct v4l2_event_subscription sub = { .type = V4L2_EVENT_FRAME_SYNC };
	int fd = dev_open(O_NONBLOCK);
	struct v4l2_event ev;
	struct buf x;

	set_fmt(fd, OUT, V4L2_PIX_FMT_YUYV);
	set_fmt(fd, CAP, V4L2_PIX_FMT_UYVY);
	reqbufs(fd, OUT, V4L2_MEMORY_MMAP, 3);
	reqbufs(fd, CAP, V4L2_MEMORY_MMAP, 3);
	cr_assert_eq(xioctl(fd, VIDIOC_SUBSCRIBE_EVENT, &sub), 0);
	for (uint32_t i = 0; i < 3; i++) {
		buf_init(&x, OUT, V4L2_MEMORY_MMAP, i);
		x.plane.bytesused = SIZE;
		x.b.timestamp = (struct timeval){ 100 + i, 7 * i };
		cr_assert_eq(xioctl(fd, VIDIOC_QBUF, &x.b), 0);
		qbuf_mmap(fd, CAP, i);
	}
	streamon(fd, OUT);
	streamon(fd, CAP);
	for (uint32_t i = 0; i < 3; i++) {
		dqbuf_wait(fd, CAP, &x);
		cr_assert_eq(x.b.sequence, i);
		cr_assert_eq(x.b.timestamp.tv_sec, 100 + i);
		cr_assert_eq(x.b.timestamp.tv_usec, 7 * i);
		cr_assert(x.b.flags & V4L2_BUF_FLAG_TIMESTAMP_COPY);
		cr_assert(x.b.flags & V4L2_BUF_FLAG_DONE);
		cr_assert_eq(x.plane.bytesused, SIZE);
		cr_assert_eq(xioctl(fd, VIDIOC_DQEVENT, &ev), 0);
		cr_assert_eq(ev.type, V4L2_EVENT_FRAME_SYNC);
		cr_assert_eq(ev.u.frame_sync.frame_sequence, i);
	}
	cr_assert_eq(xioctl(fd, VIDIOC_DQBUF,
			    buf_init(&x, CAP, V4L2_MEMORY_MMAP, 0)), EAGAIN);
	t->close(fd);
}

static bool readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1;
}

/* wait_fd is readable exactly while poll() has something to report. */
Test(device, wait_fd_follows_poll)
{
	int fd = dev_open(O_NONBLOCK);
	int wfd = t->wait_fd(fd);
	short revents;
	struct buf x;

	/* Nothing streams: POLLERR, as for a kernel m2m node. */
	cr_assert(readable(wfd));
	cr_assert_eq(t->poll(fd, POLLIN, &revents, 0), 1);
	cr_assert_eq(revents, POLLERR);
	set_fmt(fd, OUT, V4L2_PIX_FMT_YUYV);
	set_fmt(fd, CAP, V4L2_PIX_FMT_YUYV);
	reqbufs(fd, OUT, V4L2_MEMORY_MMAP, 2);
	reqbufs(fd, CAP, V4L2_MEMORY_MMAP, 1);
	qbuf_mmap(fd, OUT, 0);
	streamon(fd, OUT);
	streamon(fd, CAP);
	/* An OUTPUT frame waits for a CAPTURE buffer: nothing to report. */
	cr_assert_not(readable(wfd));
	cr_assert_eq(t->poll(fd, POLLIN | POLLOUT, &revents, 50), 0);
	qbuf_mmap(fd, CAP, 0);
	cr_assert_eq(t->poll(fd, POLLIN, &revents, 10000), 1);
	cr_assert(revents & POLLIN);
	cr_assert(readable(wfd));
	/* The next frame waits for a CAPTURE buffer again. */
	qbuf_mmap(fd, OUT, 1);
	dqbuf_wait(fd, CAP, &x);
	cr_assert(readable(wfd));
	dqbuf_wait(fd, OUT, &x);
	cr_assert_not(readable(wfd));
	/* With nothing queued at all, nothing can arrive: POLLERR. */
	cr_assert_eq(xioctl(fd, VIDIOC_STREAMOFF, &(uint32_t){ OUT }), 0);
	cr_assert(readable(wfd));
	t->close(fd);
}

/*
 * A buffer exported by one handle (EXPBUF) imported by another (DMABUF),
 * into a USERPTR buffer: the memory is shared, not copied.
 */
Test(device, expbuf_dmabuf_and_userptr_share_memory)
{
	int a = dev_open(0), b = dev_open(O_NONBLOCK);
	struct v4l2_exportbuffer eb = { .type = CAP, .flags = O_CLOEXEC };
	uint8_t *exported, *mapped, *user;
	struct buf x;

	set_fmt(a, CAP, V4L2_PIX_FMT_YUYV);
	reqbufs(a, CAP, V4L2_MEMORY_MMAP, 1);
	cr_assert_eq(xioctl(a, VIDIOC_EXPBUF, &eb), 0);
	exported = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, eb.fd,
			0);
	cr_assert_neq(exported, MAP_FAILED);
	mapped = map_buffer(a, CAP, 0);
	for (unsigned int i = 0; i < SIZE; i++)
		exported[i] = i * 7;
	cr_assert_eq(memcmp(exported, mapped, SIZE), 0);

	set_fmt(b, OUT, V4L2_PIX_FMT_YUYV);
	set_fmt(b, CAP, V4L2_PIX_FMT_UYVY);
	reqbufs(b, OUT, V4L2_MEMORY_DMABUF, 1);
	reqbufs(b, CAP, V4L2_MEMORY_USERPTR, 1);
	buf_init(&x, OUT, V4L2_MEMORY_DMABUF, 0);
	x.plane.m.fd = eb.fd;
	/* vb2 takes bytesused 0 as the length given, here 0: too short. */
	cr_assert_eq(xioctl(b, VIDIOC_QBUF, &x.b), EINVAL);
	x.plane.length = SIZE;
	x.plane.bytesused = SIZE;
	cr_assert_eq(xioctl(b, VIDIOC_QBUF, &x.b), 0);
	user = aligned_alloc(4096, 2 * 4096);
	cr_assert_not_null(user);
	buf_init(&x, CAP, V4L2_MEMORY_USERPTR, 0);
	x.plane.m.userptr = (unsigned long)user;
	x.plane.length = SIZE;
	cr_assert_eq(xioctl(b, VIDIOC_QBUF, &x.b), 0);
	streamon(b, OUT);
	streamon(b, CAP);
	dqbuf_wait(b, CAP, &x);
	cr_assert_eq(x.b.flags & V4L2_BUF_FLAG_ERROR, 0);
	/* YUYV to UYVY swaps the bytes of each pair. */
	for (unsigned int i = 0; i < SIZE; i++)
		cr_assert_eq(user[i], exported[i ^ 1], "byte %u", i);

	t->close(b);
	t->close(a);
	/* The exported memory outlives the device's handle. */
	exported[0] = 1;
	cr_assert_eq(munmap(exported, SIZE), 0);
	cr_assert_eq(munmap(mapped, SIZE), 0);
	close(eb.fd);
	free(user);
}

/* The memory of a one-plane USERPTR or DMABUF buffer, queued. */
static int qbuf_memory(int fd, uint32_t type, uint32_t memory, void *addr,
		       int dmabuf)
{
	struct buf x;

	buf_init(&x, type, memory, 0);
	x.plane.length = SIZE;
	x.plane.bytesused = type == OUT ? SIZE : 0;
	if (memory == V4L2_MEMORY_USERPTR)
		x.plane.m.userptr = (unsigned long)addr;
	else
		x.plane.m.fd = dmabuf;
	return xioctl(fd, VIDIOC_QBUF, &x.b);
}

/*
 * Memory a job could not use is refused at QBUF with EFAULT, as vb2
 * refuses memory it cannot pin, instead of the worker faulting on it
 * (which killed the process): CAPTURE memory must be writable (a private
 * read-only mapping, which a 6.1 kernel would pin by forcing a copy, and
 * a DMABUF the process may only read), OUTPUT memory readable.
 */
Test(device, memory_without_the_access_a_job_needs_is_efault)
{
	int fd = dev_open(O_NONBLOCK), memfd, read_only;
	size_t len = (SIZE + 4095) & ~4095ul;
	char path[64];
	void *p;

	set_fmt(fd, OUT, V4L2_PIX_FMT_YUYV);
	set_fmt(fd, CAP, V4L2_PIX_FMT_YUYV);
	reqbufs(fd, OUT, V4L2_MEMORY_USERPTR, 1);
	reqbufs(fd, CAP, V4L2_MEMORY_USERPTR, 1);
	p = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	cr_assert_neq(p, MAP_FAILED);
	cr_assert_eq(qbuf_memory(fd, CAP, V4L2_MEMORY_USERPTR, p, -1), EFAULT);
	cr_assert_eq(qbuf_memory(fd, OUT, V4L2_MEMORY_USERPTR, p, -1), 0);
	cr_assert_eq(mprotect(p, len, PROT_NONE), 0);
	reqbufs(fd, OUT, V4L2_MEMORY_USERPTR, 1);
	cr_assert_eq(qbuf_memory(fd, OUT, V4L2_MEMORY_USERPTR, p, -1), EFAULT);
	munmap(p, len);

	memfd = memfd_create("frame", MFD_CLOEXEC);
	cr_assert_geq(memfd, 0);
	cr_assert_eq(ftruncate(memfd, len), 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
	read_only = open(path, O_RDONLY | O_CLOEXEC);
	cr_assert_geq(read_only, 0);
	reqbufs(fd, CAP, V4L2_MEMORY_DMABUF, 1);
	cr_assert_eq(qbuf_memory(fd, CAP, V4L2_MEMORY_DMABUF, NULL, read_only),
		     EFAULT);
	cr_assert_eq(qbuf_memory(fd, CAP, V4L2_MEMORY_DMABUF, NULL, memfd), 0);
	close(read_only);
	close(memfd);
	t->close(fd);
}

/* Importing a DMABUF reads its size without moving the fd's offset. */
Test(device, dmabuf_import_leaves_the_fd_offset_alone)
{
	int fd = dev_open(O_NONBLOCK), memfd = memfd_create("frame", 0);
	static const char header[] = "written by the application";

	cr_assert_geq(memfd, 0);
	cr_assert_eq(ftruncate(memfd, SIZE), 0);
	cr_assert_eq(write(memfd, header, sizeof(header)), sizeof(header));
	set_fmt(fd, OUT, V4L2_PIX_FMT_YUYV);
	reqbufs(fd, OUT, V4L2_MEMORY_DMABUF, 1);
	cr_assert_eq(qbuf_memory(fd, OUT, V4L2_MEMORY_DMABUF, NULL, memfd), 0);
	cr_assert_eq(lseek(memfd, 0, SEEK_CUR), (off_t)sizeof(header));
	close(memfd);
	t->close(fd);
}

struct dq_arg {
	int fd;
	int err;
	uint32_t sequence;
};

static void *blocking_dqbuf(void *p)
{
	struct dq_arg *arg = p;
	struct buf x;

	arg->err = xioctl(arg->fd, VIDIOC_DQBUF,
			  buf_init(&x, CAP, V4L2_MEMORY_MMAP, 0));
	arg->sequence = x.b.sequence;
	return NULL;
}

/*
 * One handle, two threads: a blocking DQBUF waits until another thread's
 * QBUF makes a frame; a STREAMOFF ends a wait with EINVAL, a close with
 * EBADF.
 */
Test(device, blocking_dqbuf_waits_for_another_threads_frame)
{
	struct dq_arg arg = { .fd = dev_open(0), .err = -1 };
	uint32_t type = CAP;
	pthread_t th;

	set_fmt(arg.fd, OUT, V4L2_PIX_FMT_YUYV);
	set_fmt(arg.fd, CAP, V4L2_PIX_FMT_YUYV);
	reqbufs(arg.fd, OUT, V4L2_MEMORY_MMAP, 1);
	reqbufs(arg.fd, CAP, V4L2_MEMORY_MMAP, 1);
	streamon(arg.fd, OUT);
	streamon(arg.fd, CAP);
	cr_assert_eq(pthread_create(&th, NULL, blocking_dqbuf, &arg), 0);
	usleep(20000);
	qbuf_mmap(arg.fd, CAP, 0);
	qbuf_mmap(arg.fd, OUT, 0);
	pthread_join(th, NULL);
	cr_assert_eq(arg.err, 0);
	cr_assert_eq(arg.sequence, 0);

	arg.err = -1;
	cr_assert_eq(pthread_create(&th, NULL, blocking_dqbuf, &arg), 0);
	usleep(20000);
	cr_assert_eq(xioctl(arg.fd, VIDIOC_STREAMOFF, &type), 0);
	pthread_join(th, NULL);
	cr_assert_eq(arg.err, EINVAL);

	/* Closing the handle ends a wait, which then finds no handle. */
	streamon(arg.fd, CAP);
	arg.err = -1;
	cr_assert_eq(pthread_create(&th, NULL, blocking_dqbuf, &arg), 0);
	usleep(20000);
	cr_assert_eq(t->close(arg.fd), 0);
	pthread_join(th, NULL);
	cr_assert_eq(arg.err, EBADF);
}

#define THREADS 4
#define FRAMES 40

/* A handle per thread, each its own format and flip. */
static void *convert_frames(void *p)
{
	uintptr_t id = (uintptr_t)p;
	int fd = dev_open(O_NONBLOCK);
	struct v4l2_control c = { .id = V4L2_CID_HFLIP, .value = id & 1 };
	uint8_t *in, *out;
	struct buf x;

	set_fmt(fd, OUT, V4L2_PIX_FMT_YUYV);
	set_fmt(fd, CAP, V4L2_PIX_FMT_YUYV);
	cr_assert_eq(xioctl(fd, VIDIOC_S_CTRL, &c), 0);
	reqbufs(fd, OUT, V4L2_MEMORY_MMAP, 1);
	reqbufs(fd, CAP, V4L2_MEMORY_MMAP, 1);
	in = map_buffer(fd, OUT, 0);
	out = map_buffer(fd, CAP, 0);
	streamon(fd, OUT);
	streamon(fd, CAP);
	for (unsigned int f = 0; f < FRAMES; f++) {
		memset(in, 128, SIZE);
		in[0] = id * FRAMES + f;
		qbuf_mmap(fd, OUT, 0);
		qbuf_mmap(fd, CAP, 0);
		dqbuf_wait(fd, CAP, &x);
		cr_assert_eq(x.b.sequence, f);
		/* HFLIP moves the first pixel's luma to the line's end. */
		cr_assert_eq(out[(id & 1) ? (W - 1) * 2 : 0], id * FRAMES + f);
		dqbuf_wait(fd, OUT, &x);
	}
	t->munmap(in, SIZE);
	t->munmap(out, SIZE);
	t->close(fd);
	return NULL;
}

Test(device, handles_in_threads_are_independent)
{
	pthread_t th[THREADS];

	for (uintptr_t i = 0; i < THREADS; i++)
		cr_assert_eq(pthread_create(&th[i], NULL, convert_frames,
					    (void *)i), 0);
	for (unsigned int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
}

#define BIG_W 1280
#define BIG_H 720
#define BIG_SIZE (BIG_W * BIG_H * 2)
#define BIG_BUFFERS 4

/*
 * The band pool replaced (the transport's threads) while the worker runs
 * jobs on it: the replacement waits for the running job, under the
 * context's lock, and every frame is made, YUYV to UYVY.
 */
Test(device, threads_change_while_jobs_run)
{
	int fd = dev_open(O_NONBLOCK);
	uint8_t *in[BIG_BUFFERS], *out[BIG_BUFFERS];
	unsigned int i, round, wrong;
	struct buf x;

	/* Large enough to be split across threads (engine/hqv.h). */
	set_fmt_layout(fd, OUT, V4L2_PIX_FMT_YUYV, BIG_W, BIG_H, 0, BIG_SIZE);
	set_fmt_layout(fd, CAP, V4L2_PIX_FMT_UYVY, BIG_W, BIG_H, 0, BIG_SIZE);
	reqbufs(fd, OUT, V4L2_MEMORY_MMAP, BIG_BUFFERS);
	reqbufs(fd, CAP, V4L2_MEMORY_MMAP, BIG_BUFFERS);
	for (i = 0; i < BIG_BUFFERS; i++) {
		in[i] = map_buffer(fd, OUT, i);
		out[i] = map_buffer(fd, CAP, i);
		for (unsigned int b = 0; b < BIG_SIZE; b++)
			in[i][b] = b * 7 + i;
	}
	streamon(fd, OUT);
	streamon(fd, CAP);
	for (round = 0; round < 4; round++) {
		for (i = 0; i < BIG_BUFFERS; i++) {
			struct buf q;

			buf_init(&q, CAP, V4L2_MEMORY_MMAP, i);
			cr_assert_eq(xioctl(fd, VIDIOC_QBUF, &q.b), 0);
			buf_init(&q, OUT, V4L2_MEMORY_MMAP, i);
			q.plane.bytesused = BIG_SIZE;
			cr_assert_eq(xioctl(fd, VIDIOC_QBUF, &q.b), 0);
		}
		/* The worker runs the frames meanwhile. */
		for (i = 0; i < BIG_BUFFERS; i++)
			cr_assert_eq(m2m_transport_inprocess.threads(fd, 1 + i % 3), 0);
		for (i = 0; i < BIG_BUFFERS; i++) {
			dqbuf_wait(fd, CAP, &x);
			cr_assert_eq(x.b.flags & V4L2_BUF_FLAG_ERROR, 0);
			for (wrong = 0; wrong < BIG_SIZE; wrong++)
				if (out[x.b.index][wrong] !=
				    in[x.b.index][wrong ^ 1])
					break;
			cr_assert_eq(wrong, BIG_SIZE, "frame %u byte %u",
				     x.b.index, wrong);
			dqbuf_wait(fd, OUT, &x);
		}
	}
	for (i = 0; i < BIG_BUFFERS; i++) {
		t->munmap(in[i], BIG_SIZE);
		t->munmap(out[i], BIG_SIZE);
	}
	t->close(fd);
}

/* Queue buffer 0 of type at addr (a USERPTR one, of SIZE bytes). */
static void qbuf_userptr(int fd, uint32_t type, void *addr)
{
	cr_assert_eq(qbuf_memory(fd, type, V4L2_MEMORY_USERPTR, addr, -1), 0);
}

/* Both buffers back from a frame made (YUYV to UYVY swaps byte pairs). */
static void userptr_frame_made(int fd, const uint8_t *in, const uint8_t *out)
{
	struct buf x;
	unsigned int i;

	dqbuf_memory(fd, CAP, V4L2_MEMORY_USERPTR, &x);
	cr_assert_eq(x.b.flags & V4L2_BUF_FLAG_ERROR, 0);
	cr_assert_eq(x.plane.bytesused, SIZE);
	for (i = 0; i < SIZE; i++)
		cr_assert_eq(out[i], in[i ^ 1], "byte %u", i);
	dqbuf_memory(fd, OUT, V4L2_MEMORY_USERPTR, &x);
	cr_assert_eq(x.b.flags & V4L2_BUF_FLAG_ERROR, 0);
}

/*
 * USERPTR memory unmapped while its buffer is queued, which vb2 would
 * have pinned: the job fails that frame (ERROR on both buffers, no
 * payload) instead of faulting, and the next frame, on memory that is
 * there, is made. Before, the job's read or write killed the process
 * (Criterion: CRASH). A frame made first leaves the job nothing to
 * allocate. The memory is made to go by mapping no-access pages over it,
 * which fails the job's copy (EFAULT) as an unmapped range does.
 */
static void userptr_unmapped_while_queued(uint32_t unmapped)
{
	int fd = dev_open(O_NONBLOCK);
	size_t len = (SIZE + 4095) & ~4095ul;
	uint32_t other = unmapped == OUT ? CAP : OUT;
	unsigned int gone = unmapped == OUT ? 0 : 1, i;
	uint8_t *mem[2];
	struct buf x;

	set_fmt(fd, OUT, V4L2_PIX_FMT_YUYV);
	set_fmt(fd, CAP, V4L2_PIX_FMT_UYVY);
	reqbufs(fd, OUT, V4L2_MEMORY_USERPTR, 1);
	reqbufs(fd, CAP, V4L2_MEMORY_USERPTR, 1);
	for (i = 0; i < 2; i++) {
		mem[i] = mmap(NULL, len, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		cr_assert_neq(mem[i], MAP_FAILED);
	}
	for (i = 0; i < SIZE; i++)
		mem[0][i] = i * 7;
	streamon(fd, OUT);
	streamon(fd, CAP);
	qbuf_userptr(fd, OUT, mem[0]);
	qbuf_userptr(fd, CAP, mem[1]);
	userptr_frame_made(fd, mem[0], mem[1]);

	/*
	 * Gone before the other buffer makes the job ready: its pages
	 * dropped and the range left with no access, in one call. A plain
	 * munmap() leaves a hole the next small mmap() takes (under ASan,
	 * the allocator's or a thread's own), where the job's copy would
	 * then succeed: CI saw that once.
	 */
	qbuf_userptr(fd, unmapped, mem[gone]);
	cr_assert_eq(mmap(mem[gone], len, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0),
		     (void *)mem[gone]);
	qbuf_userptr(fd, other, mem[!gone]);
	dqbuf_memory(fd, CAP, V4L2_MEMORY_USERPTR, &x);
	cr_assert_eq(x.b.flags & V4L2_BUF_FLAG_ERROR, V4L2_BUF_FLAG_ERROR);
	cr_assert_eq(x.plane.bytesused, 0);
	dqbuf_memory(fd, OUT, V4L2_MEMORY_USERPTR, &x);
	cr_assert_eq(x.b.flags & V4L2_BUF_FLAG_ERROR, V4L2_BUF_FLAG_ERROR);

	cr_assert_eq(munmap(mem[gone], len), 0);
	mem[gone] = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	cr_assert_neq(mem[gone], MAP_FAILED);
	for (i = 0; i < SIZE; i++)
		mem[0][i] = i * 3;
	qbuf_userptr(fd, OUT, mem[0]);
	qbuf_userptr(fd, CAP, mem[1]);
	userptr_frame_made(fd, mem[0], mem[1]);
	t->close(fd);
	munmap(mem[0], len);
	munmap(mem[1], len);
}

Test(device, userptr_output_unmapped_while_queued_fails_the_frame)
{
	userptr_unmapped_while_queued(OUT);
}

Test(device, userptr_capture_unmapped_while_queued_fails_the_frame)
{
	userptr_unmapped_while_queued(CAP);
}

/*
 * The promise to keep USERPTR memory mapped while it is queued
 * (M2M_OPEN_USERPTR_MAPPED, the transport's userptr_mapped): jobs then
 * use it where it is. The copies go through process_vm_readv() and
 * process_vm_writev(), which this program defines over the system calls
 * to count them: the frames are made right either way, with copies
 * without the promise and with none after it.
 */
static unsigned int vm_copies;

ssize_t process_vm_readv(pid_t pid, const struct iovec *local,
			 unsigned long liovcnt, const struct iovec *remote,
			 unsigned long riovcnt, unsigned long flags)
{
	__atomic_add_fetch(&vm_copies, 1, __ATOMIC_RELAXED);
	return syscall(SYS_process_vm_readv, pid, local, liovcnt, remote,
		       riovcnt, flags);
}

ssize_t process_vm_writev(pid_t pid, const struct iovec *local,
			  unsigned long liovcnt, const struct iovec *remote,
			  unsigned long riovcnt, unsigned long flags)
{
	__atomic_add_fetch(&vm_copies, 1, __ATOMIC_RELAXED);
	return syscall(SYS_process_vm_writev, pid, local, liovcnt, remote,
		       riovcnt, flags);
}

Test(device, userptr_memory_kept_mapped_is_used_in_place)
{
	int fd = dev_open(O_NONBLOCK);
	uint8_t *in = aligned_alloc(4096, 2 * 4096);
	uint8_t *out = aligned_alloc(4096, 2 * 4096);
	unsigned int i, copies;

	cr_assert(in && out);
	set_fmt(fd, OUT, V4L2_PIX_FMT_YUYV);
	set_fmt(fd, CAP, V4L2_PIX_FMT_UYVY);
	reqbufs(fd, OUT, V4L2_MEMORY_USERPTR, 1);
	reqbufs(fd, CAP, V4L2_MEMORY_USERPTR, 1);
	streamon(fd, OUT);
	streamon(fd, CAP);
	for (i = 0; i < SIZE; i++)
		in[i] = i * 7;
	copies = __atomic_load_n(&vm_copies, __ATOMIC_RELAXED);
	qbuf_userptr(fd, OUT, in);
	qbuf_userptr(fd, CAP, out);
	userptr_frame_made(fd, in, out);
	cr_assert_gt(__atomic_load_n(&vm_copies, __ATOMIC_RELAXED), copies,
		     "without the promise, the job copies");

	cr_assert_eq(t->userptr_mapped(fd), 0);
	for (i = 0; i < SIZE; i++)
		in[i] = i * 3;
	copies = __atomic_load_n(&vm_copies, __ATOMIC_RELAXED);
	qbuf_userptr(fd, OUT, in);
	qbuf_userptr(fd, CAP, out);
	userptr_frame_made(fd, in, out);
	cr_assert_eq(__atomic_load_n(&vm_copies, __ATOMIC_RELAXED), copies,
		     "with the promise, the job copies nothing");
	t->close(fd);
	free(in);
	free(out);
}

/*
 * m2m_hold_jobs(): under a job hold a frame queued is made by the thread
 * that waits for it, not by the device's worker; without one the worker
 * makes it for a client that only polls the wait fd.
 */
Test(device, a_job_hold_leaves_frames_to_waits)
{
	int fd = dev_open(O_NONBLOCK);
	int wfd = t->wait_fd(fd);
	struct pollfd pfd = { .fd = wfd, .events = POLLIN };
	short revents;
	struct buf x;

	set_fmt(fd, OUT, V4L2_PIX_FMT_YUYV);
	set_fmt(fd, CAP, V4L2_PIX_FMT_UYVY);
	reqbufs(fd, OUT, V4L2_MEMORY_MMAP, 1);
	reqbufs(fd, CAP, V4L2_MEMORY_MMAP, 1);
	streamon(fd, OUT);
	streamon(fd, CAP);
	cr_assert_eq(t->hold(fd, M2M_TP_HOLD_JOBS, true), 0);
	qbuf_mmap(fd, OUT, 0);
	qbuf_mmap(fd, CAP, 0);
	/* Nobody waits: the frame stays to make. */
	cr_assert_eq(poll(&pfd, 1, 200), 0);
	cr_assert_eq(t->poll(fd, POLLIN, &revents, 0), 0);
	/* A wait makes it. */
	cr_assert_eq(t->poll(fd, POLLIN, &revents, 10000), 1);
	cr_assert(revents & POLLIN);
	dqbuf_wait(fd, CAP, &x);
	cr_assert_eq(x.b.flags & V4L2_BUF_FLAG_ERROR, 0);
	dqbuf_wait(fd, OUT, &x);
	/* Held again, a frame left queued goes to the worker once the
	 * hold ends. */
	qbuf_mmap(fd, OUT, 0);
	qbuf_mmap(fd, CAP, 0);
	cr_assert_eq(poll(&pfd, 1, 200), 0);
	cr_assert_eq(t->hold(fd, M2M_TP_HOLD_JOBS, false), 0);
	cr_assert_eq(poll(&pfd, 1, 10000), 1, "the worker made no frame");
	dqbuf_wait(fd, CAP, &x);
	dqbuf_wait(fd, OUT, &x);
	/* Unheld, the worker makes a frame queued for a poller. */
	qbuf_mmap(fd, OUT, 0);
	qbuf_mmap(fd, CAP, 0);
	cr_assert_eq(poll(&pfd, 1, 10000), 1, "the worker made no frame");
	t->close(fd);
}

/*
 * A job hold says nothing of memory: USERPTR memory queued under one is
 * still checked (a pointer to nothing is EFAULT at QBUF); m2m_convert()'s
 * memory hold takes it as the caller's promise.
 */
Test(device, a_job_hold_still_checks_userptr_memory)
{
	int fd = dev_open(O_NONBLOCK);

	set_fmt(fd, OUT, V4L2_PIX_FMT_YUYV);
	set_fmt(fd, CAP, V4L2_PIX_FMT_UYVY);
	reqbufs(fd, OUT, V4L2_MEMORY_USERPTR, 1);
	cr_assert_eq(t->hold(fd, M2M_TP_HOLD_JOBS, true), 0);
	cr_assert_eq(qbuf_memory(fd, OUT, V4L2_MEMORY_USERPTR,
				 (void *)(1ul << 47), -1), EFAULT);
	cr_assert_eq(t->hold(fd, M2M_TP_HOLD_JOBS, false), 0);
	t->close(fd);
}

/*
 * Under the promise OUTPUT memory is not looked up in /proc/self/maps at
 * QBUF (buffers.c, userptr_get()), but a pointer to nothing is still
 * refused with EFAULT: the first address past a 4-level user space, which
 * nothing (ASan's and TSan's shadows included) maps there.
 */
Test(device, userptr_output_promised_mapped_still_refuses_nothing)
{
	int fd = dev_open(O_NONBLOCK);
	uint8_t *in = aligned_alloc(4096, 2 * 4096);

	cr_assert(in);
	set_fmt(fd, OUT, V4L2_PIX_FMT_YUYV);
	set_fmt(fd, CAP, V4L2_PIX_FMT_UYVY);
	reqbufs(fd, OUT, V4L2_MEMORY_USERPTR, 1);
	cr_assert_eq(t->userptr_mapped(fd), 0);
	cr_assert_eq(qbuf_memory(fd, OUT, V4L2_MEMORY_USERPTR,
				 (void *)(1ul << 47), -1), EFAULT);
	cr_assert_eq(qbuf_memory(fd, OUT, V4L2_MEMORY_USERPTR, in, -1), 0);
	t->close(fd);
	free(in);
}

/*
 * A USERPTR CAPTURE frame with padded lines: the job, which works on a
 * copy of the memory (userptr.c), leaves the padding as the application
 * had it, as the engine does in place.
 */
Test(device, userptr_capture_keeps_line_padding)
{
	int fd = dev_open(O_NONBLOCK);
	uint32_t pitch = W * 2 + 32, size = pitch * H, y, i;
	uint8_t *in, *out;
	struct buf x;

	set_fmt(fd, OUT, V4L2_PIX_FMT_YUYV);
	set_fmt_layout(fd, CAP, V4L2_PIX_FMT_YUYV, W, H, pitch, size);
	reqbufs(fd, OUT, V4L2_MEMORY_USERPTR, 1);
	reqbufs(fd, CAP, V4L2_MEMORY_USERPTR, 1);
	in = aligned_alloc(4096, 4 * 4096);
	out = aligned_alloc(4096, 4 * 4096);
	cr_assert(in && out);
	for (i = 0; i < SIZE; i++)
		in[i] = i * 7;
	memset(out, 0xa5, size);
	cr_assert_eq(qbuf_memory(fd, OUT, V4L2_MEMORY_USERPTR, in, -1), 0);
	buf_init(&x, CAP, V4L2_MEMORY_USERPTR, 0);
	x.plane.m.userptr = (unsigned long)out;
	x.plane.length = size;
	cr_assert_eq(xioctl(fd, VIDIOC_QBUF, &x.b), 0);
	streamon(fd, OUT);
	streamon(fd, CAP);
	dqbuf_memory(fd, CAP, V4L2_MEMORY_USERPTR, &x);
	cr_assert_eq(x.b.flags & V4L2_BUF_FLAG_ERROR, 0);
	for (y = 0; y < H; y++) {
		cr_assert_eq(memcmp(out + y * pitch, in + y * W * 2, W * 2), 0,
			     "line %u", y);
		for (i = W * 2; i < pitch; i++)
			cr_assert_eq(out[y * pitch + i], 0xa5,
				     "line %u byte %u", y, i);
	}
	t->close(fd);
	free(in);
	free(out);
}
