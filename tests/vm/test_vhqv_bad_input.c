// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vhqv given bad input, through raw V4L2 ioctls: each case gets the error
 * code the V4L2 spec (or videobuf2, which implements it) names, or the
 * correction TRY_FMT, S_FMT and S_SELECTION are documented to make, or a
 * clean stop.
 *
 * Built twice, on a struct m2m_transport: vm.vhqv_bad_input runs in the
 * test VM (scripts/vm-run) on both of vhqv's nodes through the syscall
 * transport, where vm-run fails the test if the guest kernel log shows a
 * warning, so "no warning" is checked for every case too;
 * inprocess.bad_input runs here on libm2m's in-process device
 * (M2M_TEST_INPROCESS), vhqv's multi-planar node, with the same cases and
 * codes. The memory cap parameter and the aborts counted in debugfs are
 * the kernel's only.
 *
 * Criterion must run this with --jobs 1: the memory cap is a module
 * parameter and the statistics are the instance's, shared by all files.
 */
#define _GNU_SOURCE
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
#include <m2m/vhqv.h>

#include "transport.h"

#ifdef M2M_TEST_INPROCESS
static const struct m2m_transport *const transport = &m2m_transport_inprocess;
/* The in-process device is vhqv's multi-planar node only. */
static const int first_node = 1;
#else
static const struct m2m_transport *const transport = &m2m_transport_syscall;
static const int first_node;
#endif

#define W 64
#define H 48
/* A frame the guest (TCG) takes long enough over to be caught in a job. */
#define BIG 4096

#define STATS "/sys/kernel/debug/vhqv/vhqv.0/stats"
#define CTX_MEM_MB "/sys/module/vhqv/parameters/ctx_mem_mb"

/* One open file on one of the two nodes, and the buffer types it uses. */
struct node {
	int fd;
	bool mplane;
	uint32_t out;
	uint32_t cap;
};

static struct node open_node(bool mplane)
{
	const char *var = mplane ? "VHQV_MPLANE_VIDEO" : "VHQV_VIDEO";
	const char *path = first_node ? M2M_INPROCESS_PATH : getenv(var);
	struct node n = { .mplane = mplane };

	cr_assert(path, "$%s is not set: no vhqv node in the VM", var);
	n.fd = transport->open(path, O_RDWR | O_NONBLOCK);
	cr_assert_geq(n.fd, 0, "open %s: %s", path, strerror(errno));
	n.out = mplane ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE :
			 V4L2_BUF_TYPE_VIDEO_OUTPUT;
	n.cap = mplane ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE :
			 V4L2_BUF_TYPE_VIDEO_CAPTURE;
	return n;
}

/* The errno of an ioctl, 0 on success. */
static int xioctl(int fd, unsigned long req, void *arg)
{
	return transport->ioctl(fd, req, arg) ? errno : 0;
}

/* A format in one shape for both nodes, as far as these tests need. */
struct fmt {
	uint32_t fourcc;
	uint32_t width;
	uint32_t height;
	uint32_t field;
	uint32_t bytesperline;
	uint32_t sizeimage;
	uint32_t num_planes;
};

static int do_fmt(const struct node *n, unsigned long req, uint32_t type,
		  struct fmt *fmt)
{
	struct v4l2_format f = { .type = type };
	int ret;

	if (n->mplane) {
		f.fmt.pix_mp.pixelformat = fmt->fourcc;
		f.fmt.pix_mp.width = fmt->width;
		f.fmt.pix_mp.height = fmt->height;
		f.fmt.pix_mp.field = fmt->field;
		f.fmt.pix_mp.num_planes = 1;
		f.fmt.pix_mp.plane_fmt[0].bytesperline = fmt->bytesperline;
	} else {
		f.fmt.pix.pixelformat = fmt->fourcc;
		f.fmt.pix.width = fmt->width;
		f.fmt.pix.height = fmt->height;
		f.fmt.pix.field = fmt->field;
		f.fmt.pix.bytesperline = fmt->bytesperline;
	}
	ret = xioctl(n->fd, req, &f);
	if (ret)
		return ret;
	if (n->mplane) {
		fmt->fourcc = f.fmt.pix_mp.pixelformat;
		fmt->width = f.fmt.pix_mp.width;
		fmt->height = f.fmt.pix_mp.height;
		fmt->field = f.fmt.pix_mp.field;
		fmt->bytesperline = f.fmt.pix_mp.plane_fmt[0].bytesperline;
		fmt->sizeimage = f.fmt.pix_mp.plane_fmt[0].sizeimage;
		fmt->num_planes = f.fmt.pix_mp.num_planes;
	} else {
		fmt->fourcc = f.fmt.pix.pixelformat;
		fmt->width = f.fmt.pix.width;
		fmt->height = f.fmt.pix.height;
		fmt->field = f.fmt.pix.field;
		fmt->bytesperline = f.fmt.pix.bytesperline;
		fmt->sizeimage = f.fmt.pix.sizeimage;
		fmt->num_planes = 1;
	}
	return 0;
}

/* Set a format that must be taken as asked; its sizeimage. */
static uint32_t set_fmt(const struct node *n, uint32_t type, uint32_t fourcc,
			uint32_t width, uint32_t height, uint32_t field)
{
	struct fmt f = { .fourcc = fourcc, .width = width, .height = height,
			 .field = field };

	cr_assert_eq(do_fmt(n, VIDIOC_S_FMT, type, &f), 0);
	cr_assert_eq(f.fourcc, fourcc);
	cr_assert_eq(f.width, width);
	cr_assert_eq(f.height, height);
	cr_assert_eq(f.field, field);
	return f.sizeimage;
}

static void set_both(const struct node *n, uint32_t out_fourcc,
		     uint32_t cap_fourcc, uint32_t width, uint32_t height)
{
	set_fmt(n, n->out, out_fourcc, width, height, V4L2_FIELD_NONE);
	set_fmt(n, n->cap, cap_fourcc, width, height, V4L2_FIELD_NONE);
}

static int reqbufs(const struct node *n, uint32_t type, uint32_t memory,
		   uint32_t count)
{
	struct v4l2_requestbuffers rb = {
		.count = count, .type = type, .memory = memory,
	};

	return xioctl(n->fd, VIDIOC_REQBUFS, &rb);
}

/* What to queue: a buffer of one plane, described in both APIs. */
struct qb {
	uint32_t type;
	uint32_t memory;
	uint32_t index;
	uint32_t bytesused;
	uint32_t data_offset;
	uint32_t length;
	unsigned long userptr;
	int dmabuf;
	uint32_t field;
	/* Filled in by DQBUF. */
	uint32_t flags;
};

static void qb_to_v4l2(const struct node *n, const struct qb *b,
		       struct v4l2_buffer *buf, struct v4l2_plane *plane)
{
	memset(buf, 0, sizeof(*buf));
	memset(plane, 0, sizeof(*plane));
	buf->type = b->type;
	buf->memory = b->memory;
	buf->index = b->index;
	buf->field = b->field;
	if (n->mplane) {
		buf->m.planes = plane;
		buf->length = 1;
		plane->bytesused = b->bytesused;
		plane->data_offset = b->data_offset;
		plane->length = b->length;
		if (b->memory == V4L2_MEMORY_USERPTR)
			plane->m.userptr = b->userptr;
		else if (b->memory == V4L2_MEMORY_DMABUF)
			plane->m.fd = b->dmabuf;
	} else {
		buf->bytesused = b->bytesused;
		buf->length = b->length;
		if (b->memory == V4L2_MEMORY_USERPTR)
			buf->m.userptr = b->userptr;
		else if (b->memory == V4L2_MEMORY_DMABUF)
			buf->m.fd = b->dmabuf;
	}
}

static int qbuf(const struct node *n, const struct qb *b)
{
	struct v4l2_buffer buf;
	struct v4l2_plane plane;

	qb_to_v4l2(n, b, &buf, &plane);
	return xioctl(n->fd, VIDIOC_QBUF, &buf);
}

/* Dequeue from a queue of MMAP buffers; b gets index and flags. */
static int dqbuf(const struct node *n, uint32_t type, struct qb *b)
{
	struct v4l2_buffer buf = { .type = type, .memory = V4L2_MEMORY_MMAP };
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
	int ret;

	if (n->mplane) {
		buf.m.planes = planes;
		buf.length = VIDEO_MAX_PLANES;
	}
	ret = xioctl(n->fd, VIDIOC_DQBUF, &buf);
	memset(b, 0, sizeof(*b));
	b->index = buf.index;
	b->flags = buf.flags;
	b->bytesused = n->mplane ? planes[0].bytesused : buf.bytesused;
	b->length = n->mplane ? planes[0].length : buf.length;
	return ret;
}

/* An MMAP OUTPUT buffer carrying a whole frame of the given size. */
static struct qb out_buf(const struct node *n, uint32_t index, uint32_t size)
{
	return (struct qb){ .type = n->out, .memory = V4L2_MEMORY_MMAP,
			    .index = index, .bytesused = size };
}

static struct qb cap_buf(const struct node *n, uint32_t index)
{
	return (struct qb){ .type = n->cap, .memory = V4L2_MEMORY_MMAP,
			    .index = index };
}

static void streamon(const struct node *n, uint32_t type)
{
	cr_assert_eq(xioctl(n->fd, VIDIOC_STREAMON, &type), 0);
}

/*
 * Wait for a buffer on a non-blocking node: poll for that queue's
 * direction only (a job returns its OUTPUT buffer first), then DQBUF.
 */
static int dqbuf_wait(const struct node *n, uint32_t type, struct qb *b)
{
	short events = V4L2_TYPE_IS_OUTPUT(type) ? POLLOUT : POLLIN, revents;

	cr_assert_eq(transport->poll(n->fd, events, &revents, 60000), 1,
		     "no buffer within 60 s");
	return dqbuf(n, type, b);
}

static const char *node_name(const struct node *n)
{
	return n->mplane ? "vhqv-mplane" : "vhqv";
}

/* Run a case on both nodes, each in a fresh open file. */
#define ON_BOTH_NODES(fn)					\
	do {							\
		for (int mp_ = first_node; mp_ < 2; mp_++) {	\
			struct node n_ = open_node(mp_);	\
								\
			fn(&n_);				\
			transport->close(n_.fd);		\
		}						\
	} while (0)

/*
 * Formats: bad sizes are corrected, never refused (VIDIOC_S_FMT: "drivers
 * should not return an error code unless the type field is invalid").
 */

static void check_size_correction(const struct node *n, uint32_t width,
				  uint32_t height, uint32_t want_w,
				  uint32_t want_h)
{
	const unsigned long reqs[] = { VIDIOC_TRY_FMT, VIDIOC_S_FMT };
	const uint32_t types[] = { n->out, n->cap };

	for (unsigned int r = 0; r < 2; r++) {
		for (unsigned int t = 0; t < 2; t++) {
			struct fmt f = { .fourcc = V4L2_PIX_FMT_YUYV,
					 .width = width, .height = height };

			cr_assert_eq(do_fmt(n, reqs[r], types[t], &f), 0,
				     "%s %ux%u", node_name(n), width, height);
			cr_assert_eq(f.width, want_w, "%s: width %u for %u",
				     node_name(n), f.width, width);
			cr_assert_eq(f.height, want_h, "%s: height %u for %u",
				     node_name(n), f.height, height);
			/* YUYV: whole macropixels of 4 bytes. */
			cr_assert_eq(f.bytesperline, (want_w + 1) / 2 * 4);
			cr_assert_eq(f.sizeimage, (want_w + 1) / 2 * 4 * want_h);
		}
	}
}

static void zero_size(const struct node *n)
{
	check_size_correction(n, 0, 0, 1, 1);
}

Test(fmt, zero_size_is_raised_to_the_minimum)
{
	ON_BOTH_NODES(zero_size);
}

static void huge_size(const struct node *n)
{
	check_size_correction(n, 0xffffffff, 0xffffffff, 8192, 8192);
}

Test(fmt, huge_size_is_clamped_to_the_maximum)
{
	ON_BOTH_NODES(huge_size);
}

/* Odd sizes are sizes: YUYV 451 wide is 226 macropixels, 904 bytes. */
static void odd_size(const struct node *n)
{
	check_size_correction(n, 641, 479, 641, 479);
	check_size_correction(n, 451, 427, 451, 427);
	check_size_correction(n, 1, 1, 1, 1);
	check_size_correction(n, 3, 1, 3, 1);
}

Test(fmt, odd_sizes_are_kept)
{
	ON_BOTH_NODES(odd_size);
}

/*
 * A one-buffer YUV420 of an odd width: V4L2 makes its chroma pitch half
 * the luma pitch, so the luma pitch rounds up to even (451: 452, chroma
 * 226 for 226 samples); a pitch asked for rounds up too.
 */
static void odd_yuv420(const struct node *n)
{
	struct fmt f = { .fourcc = V4L2_PIX_FMT_YUV420, .width = 451,
			 .height = 427 };

	cr_assert_eq(do_fmt(n, VIDIOC_TRY_FMT, n->out, &f), 0);
	cr_assert_eq(f.width, 451);
	cr_assert_eq(f.height, 427);
	cr_assert_eq(f.bytesperline, 452, "%s: bytesperline %u",
		     node_name(n), f.bytesperline);
	cr_assert_eq(f.sizeimage, 452 * 427 + 2 * 226 * 214);
	f.bytesperline = 461;
	cr_assert_eq(do_fmt(n, VIDIOC_TRY_FMT, n->cap, &f), 0);
	cr_assert_eq(f.bytesperline, 462);
	cr_assert_eq(f.sizeimage, 462 * 427 + 2 * 231 * 214);
}

Test(fmt, one_buffer_yuv420_of_an_odd_width_rounds_its_pitch_up)
{
	ON_BOTH_NODES(odd_yuv420);
}

/* One buffer per plane: each plane has its own minimum pitch. */
Test(fmt, multi_planar_yuv420m_of_an_odd_size_keeps_each_planes_minimum)
{
	struct node n = open_node(true);
	struct v4l2_format f = { .type = n.out };
	struct v4l2_pix_format_mplane *mp = &f.fmt.pix_mp;

	mp->pixelformat = V4L2_PIX_FMT_YUV420M;
	mp->width = 451;
	mp->height = 427;
	mp->num_planes = 3;
	cr_assert_eq(xioctl(n.fd, VIDIOC_TRY_FMT, &f), 0);
	cr_assert_eq(mp->width, 451);
	cr_assert_eq(mp->height, 427);
	cr_assert_eq(mp->num_planes, 3);
	cr_assert_eq(mp->plane_fmt[0].bytesperline, 451);
	cr_assert_eq(mp->plane_fmt[0].sizeimage, 451 * 427);
	for (unsigned int p = 1; p < 3; p++) {
		cr_assert_eq(mp->plane_fmt[p].bytesperline, 226);
		cr_assert_eq(mp->plane_fmt[p].sizeimage, 226 * 214);
	}
	transport->close(n.fd);
}

/*
 * Field-based OUTPUT formats keep their fields whole: as many lines each
 * (an even frame height) and, for 4:2:0, whole chroma rows per field (a
 * multiple of 4); widths stay odd. ALTERNATE's height is a field's.
 */
static void odd_fields(const struct node *n)
{
	static const struct {
		uint32_t fourcc, field, height, want;
	} cases[] = {
		{ V4L2_PIX_FMT_YUYV, V4L2_FIELD_INTERLACED, 47, 46 },
		{ V4L2_PIX_FMT_YUYV, V4L2_FIELD_SEQ_TB, 1, 2 },
		{ V4L2_PIX_FMT_YUV420, V4L2_FIELD_INTERLACED_BT, 47, 44 },
		{ V4L2_PIX_FMT_YUV420, V4L2_FIELD_SEQ_BT, 46, 44 },
		{ V4L2_PIX_FMT_YUV420, V4L2_FIELD_ALTERNATE, 23, 22 },
		{ V4L2_PIX_FMT_YUYV, V4L2_FIELD_ALTERNATE, 23, 23 },
		{ V4L2_PIX_FMT_YUV420, V4L2_FIELD_NONE, 47, 47 },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fmt f = { .fourcc = cases[i].fourcc, .width = 45,
				 .height = cases[i].height,
				 .field = cases[i].field };

		cr_assert_eq(do_fmt(n, VIDIOC_S_FMT, n->out, &f), 0);
		cr_assert_eq(f.field, cases[i].field);
		cr_assert_eq(f.width, 45);
		cr_assert_eq(f.height, cases[i].want, "%s: field %u, height "
			     "%u for %u, expected %u", node_name(n),
			     cases[i].field, f.height, cases[i].height,
			     cases[i].want);
	}
}

Test(fmt, field_based_heights_keep_whole_fields)
{
	ON_BOTH_NODES(odd_fields);
}

/* A pitch no frame could use would overflow sizeimage: the minimum. */
static void huge_pitch(const struct node *n)
{
	struct fmt f = { .fourcc = V4L2_PIX_FMT_YUYV, .width = W,
			 .height = H, .bytesperline = 0xffffffff };

	cr_assert_eq(do_fmt(n, VIDIOC_S_FMT, n->out, &f), 0);
	cr_assert_eq(f.bytesperline, W * 2);
	cr_assert_eq(f.sizeimage, W * H * 2);
}

Test(fmt, huge_bytesperline_becomes_the_minimum)
{
	ON_BOTH_NODES(huge_pitch);
}

/* ALTERNATE: the height is a field's, so the frame's limit is halved. */
static void huge_alternate(const struct node *n)
{
	struct fmt f = { .fourcc = V4L2_PIX_FMT_YUYV, .width = 0xffffffff,
			 .height = 0xffffffff, .field = V4L2_FIELD_ALTERNATE };

	cr_assert_eq(do_fmt(n, VIDIOC_S_FMT, n->out, &f), 0);
	cr_assert_eq(f.field, V4L2_FIELD_ALTERNATE);
	cr_assert_eq(f.width, 8192);
	cr_assert_eq(f.height, 4096);
	cr_assert_eq(f.sizeimage, 8192 * 4096 * 2);
}

Test(fmt, huge_alternate_size_is_clamped_to_a_field)
{
	ON_BOTH_NODES(huge_alternate);
}

static int s_selection(const struct node *n, uint32_t type, uint32_t target,
		       uint32_t flags, struct v4l2_rect *r)
{
	struct v4l2_selection s = {
		.type = type, .target = target, .flags = flags, .r = *r,
	};
	int ret = xioctl(n->fd, VIDIOC_S_SELECTION, &s);

	*r = s.r;
	return ret;
}

static void check_rect(const struct v4l2_rect *r, int32_t left, int32_t top,
		       uint32_t width, uint32_t height)
{
	cr_assert(r->left == left && r->top == top && r->width == width &&
		  r->height == height,
		  "got (%d,%d) %ux%u, want (%d,%d) %ux%u", r->left, r->top,
		  r->width, r->height, left, top, width, height);
}

/*
 * Selection rectangles take any coordinates and sizes from 1x1 inside the
 * frame, and are kept inside it: never an error. One that does not fit
 * keeps its position and shrinks, without flags or with LE; with GE (and
 * with GE and LE) it keeps its size, up to the frame's, and moves.
 */
static void bad_rects(const struct node *n)
{
	const uint32_t types[] = { n->out, n->cap };
	const uint32_t targets[] = { V4L2_SEL_TGT_CROP, V4L2_SEL_TGT_COMPOSE };
	const uint32_t both = V4L2_SEL_FLAG_GE | V4L2_SEL_FLAG_LE;

	set_both(n, V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_YUYV, 640, 480);
	for (unsigned int t = 0; t < 2; t++) {
		struct v4l2_rect r;

		r = (struct v4l2_rect){ 0, 0, 0, 0 };
		cr_assert_eq(s_selection(n, types[t], targets[t], 0, &r), 0);
		check_rect(&r, 0, 0, 1, 1);

		r = (struct v4l2_rect){ 0, 0, 0xffffffff, 0xffffffff };
		cr_assert_eq(s_selection(n, types[t], targets[t], 0, &r), 0);
		check_rect(&r, 0, 0, 640, 480);

		r = (struct v4l2_rect){ 0, 0, 0xffffffff, 0xffffffff };
		cr_assert_eq(s_selection(n, types[t], targets[t],
					 V4L2_SEL_FLAG_GE, &r), 0);
		check_rect(&r, 0, 0, 640, 480);

		r = (struct v4l2_rect){ 0x7fffffff, 0x7fffffff, 0xffffffff,
					0xffffffff };
		cr_assert_eq(s_selection(n, types[t], targets[t], 0, &r), 0);
		check_rect(&r, 639, 479, 1, 1);

		r = (struct v4l2_rect){ -5, -0x7fffffff - 1, 101, 77 };
		cr_assert_eq(s_selection(n, types[t], targets[t], 0, &r), 0);
		check_rect(&r, 0, 0, 101, 77);

		/* Odd edges and sizes that fit are kept, whatever the flags. */
		r = (struct v4l2_rect){ 3, 5, 101, 77 };
		cr_assert_eq(s_selection(n, types[t], targets[t],
					 V4L2_SEL_FLAG_GE, &r), 0);
		check_rect(&r, 3, 5, 101, 77);
		r = (struct v4l2_rect){ 3, 5, 101, 77 };
		cr_assert_eq(s_selection(n, types[t], targets[t],
					 V4L2_SEL_FLAG_LE, &r), 0);
		check_rect(&r, 3, 5, 101, 77);

		/* Past the bottom right: shrink in place, or move whole. */
		r = (struct v4l2_rect){ 601, 401, 101, 99 };
		cr_assert_eq(s_selection(n, types[t], targets[t], 0, &r), 0);
		check_rect(&r, 601, 401, 39, 79);
		r = (struct v4l2_rect){ 601, 401, 101, 99 };
		cr_assert_eq(s_selection(n, types[t], targets[t],
					 V4L2_SEL_FLAG_LE, &r), 0);
		check_rect(&r, 601, 401, 39, 79);
		r = (struct v4l2_rect){ 601, 401, 101, 99 };
		cr_assert_eq(s_selection(n, types[t], targets[t],
					 V4L2_SEL_FLAG_GE, &r), 0);
		check_rect(&r, 539, 381, 101, 99);
		r = (struct v4l2_rect){ 601, 401, 101, 99 };
		cr_assert_eq(s_selection(n, types[t], targets[t], both, &r),
			     0);
		check_rect(&r, 539, 381, 101, 99);
	}
}

Test(fmt, bad_selection_rectangles_are_corrected)
{
	ON_BOTH_NODES(bad_rects);
}

/*
 * Field orders: OUTPUT takes NONE, INTERLACED(_TB/_BT), SEQ_TB/BT and
 * ALTERNATE; anything else becomes NONE. CAPTURE is progressive.
 */
static void bad_fields(const struct node *n)
{
	const uint32_t bad[] = { V4L2_FIELD_TOP, V4L2_FIELD_BOTTOM, 99,
				 0xffffffff };

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct fmt f = { .fourcc = V4L2_PIX_FMT_YUYV, .width = W,
				 .height = H, .field = bad[i] };

		cr_assert_eq(do_fmt(n, VIDIOC_S_FMT, n->out, &f), 0);
		cr_assert_eq(f.field, V4L2_FIELD_NONE, "field %u -> %u",
			     bad[i], f.field);
	}
	for (uint32_t field = 0; field <= V4L2_FIELD_INTERLACED_BT; field++) {
		struct fmt f = { .fourcc = V4L2_PIX_FMT_YUYV, .width = W,
				 .height = H, .field = field };

		cr_assert_eq(do_fmt(n, VIDIOC_S_FMT, n->cap, &f), 0);
		cr_assert_eq(f.field, V4L2_FIELD_NONE, "capture field %u -> %u",
			     field, f.field);
	}
}

Test(fmt, unsupported_field_orders_become_none)
{
	ON_BOTH_NODES(bad_fields);
}

static void fmt_busy(const struct node *n)
{
	struct fmt f = { .fourcc = V4L2_PIX_FMT_UYVY, .width = 320,
			 .height = 240 };

	cr_assert_eq(reqbufs(n, n->out, V4L2_MEMORY_MMAP, 2), 0);
	cr_assert_eq(do_fmt(n, VIDIOC_S_FMT, n->out, &f), EBUSY);
	/* TRY_FMT changes nothing, so it is never busy. */
	cr_assert_eq(do_fmt(n, VIDIOC_TRY_FMT, n->out, &f), 0);
	cr_assert_eq(reqbufs(n, n->cap, V4L2_MEMORY_MMAP, 2), 0);
	cr_assert_eq(do_fmt(n, VIDIOC_S_FMT, n->cap, &f), EBUSY);
	cr_assert_eq(reqbufs(n, n->out, V4L2_MEMORY_MMAP, 0), 0);
	cr_assert_eq(reqbufs(n, n->cap, V4L2_MEMORY_MMAP, 0), 0);
	cr_assert_eq(do_fmt(n, VIDIOC_S_FMT, n->cap, &f), 0);
	cr_assert_eq(do_fmt(n, VIDIOC_S_FMT, n->out, &f), 0);
}

Test(fmt, s_fmt_while_buffers_are_allocated_is_ebusy)
{
	ON_BOTH_NODES(fmt_busy);
}

/*
 * bytesused and data_offset
 */

static uint32_t mmap_setup(const struct node *n, uint32_t count)
{
	uint32_t size = set_fmt(n, n->out, V4L2_PIX_FMT_YUYV, W, H,
				V4L2_FIELD_NONE);

	set_fmt(n, n->cap, V4L2_PIX_FMT_YUYV, W, H, V4L2_FIELD_NONE);
	cr_assert_eq(reqbufs(n, n->out, V4L2_MEMORY_MMAP, count), 0);
	cr_assert_eq(reqbufs(n, n->cap, V4L2_MEMORY_MMAP, count), 0);
	return size;
}

/* The length of MMAP buffer 0 of a queue. */
static uint32_t buffer_length(const struct node *n, uint32_t type)
{
	struct v4l2_buffer buf = { .type = type, .memory = V4L2_MEMORY_MMAP };
	struct v4l2_plane planes[VIDEO_MAX_PLANES];

	if (n->mplane) {
		buf.m.planes = planes;
		buf.length = VIDEO_MAX_PLANES;
	}
	cr_assert_eq(xioctl(n->fd, VIDIOC_QUERYBUF, &buf), 0);
	return n->mplane ? planes[0].length : buf.length;
}

static void bytesused_too_big(const struct node *n)
{
	uint32_t length;
	struct qb b;

	mmap_setup(n, 1);
	length = buffer_length(n, n->out);
	b = out_buf(n, 0, length + 1);
	cr_assert_eq(qbuf(n, &b), EINVAL, "%s", node_name(n));
	b.bytesused = 0xffffffff;
	cr_assert_eq(qbuf(n, &b), EINVAL, "%s", node_name(n));
	/* The buffer was not taken: it can still be queued. */
	b.bytesused = length;
	cr_assert_eq(qbuf(n, &b), 0, "%s", node_name(n));
}

Test(qbuf, bytesused_beyond_the_buffer_is_einval)
{
	ON_BOTH_NODES(bytesused_too_big);
}

static void bytesused_short(const struct node *n)
{
	uint32_t size = mmap_setup(n, 1);
	struct qb b = out_buf(n, 0, size - 1);

	cr_assert_eq(qbuf(n, &b), EINVAL, "%s", node_name(n));
	b.bytesused = 1;
	cr_assert_eq(qbuf(n, &b), EINVAL, "%s", node_name(n));
}

Test(qbuf, output_bytesused_below_sizeimage_is_einval)
{
	ON_BOTH_NODES(bytesused_short);
}

/*
 * vb2 takes bytesused 0 on OUTPUT as the whole buffer (with a one-time
 * deprecation notice in the log, which is no warning): the frame converts.
 */
static void bytesused_zero(const struct node *n)
{
	uint32_t size = mmap_setup(n, 1);
	struct qb b = out_buf(n, 0, 0);

	cr_assert_eq(qbuf(n, &b), 0, "%s", node_name(n));
	b = cap_buf(n, 0);
	cr_assert_eq(qbuf(n, &b), 0);
	streamon(n, n->out);
	streamon(n, n->cap);
	cr_assert_eq(dqbuf_wait(n, n->cap, &b), 0);
	cr_assert_eq(b.flags & V4L2_BUF_FLAG_ERROR, 0, "%s", node_name(n));
	cr_assert_eq(b.bytesused, size);
	cr_assert_eq(dqbuf_wait(n, n->out, &b), 0);
	cr_assert_eq(b.flags & V4L2_BUF_FLAG_ERROR, 0);
	cr_assert_eq(b.bytesused, buffer_length(n, n->out));
}

Test(qbuf, output_bytesused_zero_means_the_whole_buffer)
{
	ON_BOTH_NODES(bytesused_zero);
}

/* The multi-planar node: data_offset must leave a whole frame after it. */
Test(qbuf, data_offset_past_the_frame_is_einval)
{
	struct node n = open_node(true);
	uint32_t size = mmap_setup(&n, 1);
	uint32_t length = buffer_length(&n, n.out);
	struct v4l2_create_buffers cb = {
		.memory = V4L2_MEMORY_MMAP,
		.format = { .type = n.out },
	};
	struct qb b = out_buf(&n, 0, length);

	/* vb2: data_offset at or past bytesused (so past length). */
	b.data_offset = length;
	cr_assert_eq(qbuf(&n, &b), EINVAL);
	b.data_offset = 0xffffffff;
	cr_assert_eq(qbuf(&n, &b), EINVAL);
	/* vhqv: less than sizeimage after data_offset. */
	b.data_offset = 4096;
	cr_assert_eq(qbuf(&n, &b), EINVAL);

	/* A buffer with room for the offset takes it, and converts. */
	cr_assert_eq(xioctl(n.fd, VIDIOC_G_FMT, &cb.format), 0);
	cb.count = 1;
	cb.format.fmt.pix_mp.plane_fmt[0].sizeimage = size + 4096;
	cr_assert_eq(xioctl(n.fd, VIDIOC_CREATE_BUFS, &cb), 0);
	cr_assert_eq(cb.index, 1);
	b = out_buf(&n, 1, size + 4096);
	b.data_offset = 4096;
	cr_assert_eq(qbuf(&n, &b), 0);
	b = cap_buf(&n, 0);
	cr_assert_eq(qbuf(&n, &b), 0);
	streamon(&n, n.out);
	streamon(&n, n.cap);
	cr_assert_eq(dqbuf_wait(&n, n.cap, &b), 0);
	cr_assert_eq(b.flags & V4L2_BUF_FLAG_ERROR, 0);
	transport->close(n.fd);
}

/*
 * A CAPTURE buffer queued (before STREAMON) for a small frame, then OUTPUT
 * gets a larger format: CAPTURE, holding buffers but stopped, changes at
 * once (docs/vhqv.md). The buffer, checked at QBUF against the old size,
 * cannot take the new frame: it comes back flagged ERROR, and the driver
 * neither writes past it nor claims more payload than it holds (which
 * vb2_set_plane_payload() would WARN about). The OUTPUT frame waits.
 */
static void capture_too_small(const struct node *n)
{
	uint32_t type = n->cap;
	uint32_t size;
	struct qb b;

	set_both(n, V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_YUYV, W, H);
	cr_assert_eq(reqbufs(n, n->cap, V4L2_MEMORY_MMAP, 1), 0);
	b = cap_buf(n, 0);
	cr_assert_eq(qbuf(n, &b), 0);
	size = set_fmt(n, n->out, V4L2_PIX_FMT_YUYV, 640, 480,
		       V4L2_FIELD_NONE);
	cr_assert_eq(reqbufs(n, n->out, V4L2_MEMORY_MMAP, 1), 0);
	b = out_buf(n, 0, size);
	cr_assert_eq(qbuf(n, &b), 0);
	streamon(n, n->out);
	streamon(n, n->cap);
	cr_assert_eq(dqbuf_wait(n, n->cap, &b), 0);
	cr_assert_neq(b.flags & V4L2_BUF_FLAG_ERROR, 0, "%s: flags %#x",
		      node_name(n), b.flags);
	cr_assert_leq(b.bytesused, b.length, "%s: bytesused %u, length %u",
		      node_name(n), b.bytesused, b.length);

	/* The OUTPUT frame waited: a buffer of the new size gets it. */
	cr_assert_eq(xioctl(n->fd, VIDIOC_STREAMOFF, &type), 0);
	cr_assert_eq(reqbufs(n, n->cap, V4L2_MEMORY_MMAP, 0), 0);
	cr_assert_eq(reqbufs(n, n->cap, V4L2_MEMORY_MMAP, 1), 0);
	b = cap_buf(n, 0);
	cr_assert_eq(qbuf(n, &b), 0);
	streamon(n, n->cap);
	cr_assert_eq(dqbuf_wait(n, n->cap, &b), 0);
	cr_assert_eq(b.flags & V4L2_BUF_FLAG_ERROR, 0);
	cr_assert_eq(b.bytesused, size);
}

Test(qbuf, capture_buffer_queued_before_the_frame_grew_is_an_error)
{
	ON_BOTH_NODES(capture_too_small);
}

/*
 * A buffer's field must match the format's (vb2's buf_out_validate);
 * ANY takes the format's. ALTERNATE buffers are TOP or BOTTOM.
 */
static void field_mismatch(const struct node *n)
{
	uint32_t size;
	struct qb b;

	size = set_fmt(n, n->out, V4L2_PIX_FMT_YUYV, W, H,
		       V4L2_FIELD_INTERLACED_TB);
	cr_assert_eq(reqbufs(n, n->out, V4L2_MEMORY_MMAP, 2), 0);
	b = out_buf(n, 0, size);
	b.field = V4L2_FIELD_NONE;
	cr_assert_eq(qbuf(n, &b), EINVAL);
	b.field = V4L2_FIELD_INTERLACED_BT;
	cr_assert_eq(qbuf(n, &b), EINVAL);
	b.field = V4L2_FIELD_TOP;
	cr_assert_eq(qbuf(n, &b), EINVAL);
	b.field = V4L2_FIELD_INTERLACED_TB;
	cr_assert_eq(qbuf(n, &b), 0);
	b = out_buf(n, 1, size);
	b.field = V4L2_FIELD_ANY;
	cr_assert_eq(qbuf(n, &b), 0);
	cr_assert_eq(reqbufs(n, n->out, V4L2_MEMORY_MMAP, 0), 0);

	size = set_fmt(n, n->out, V4L2_PIX_FMT_YUYV, W, H,
		       V4L2_FIELD_NONE);
	cr_assert_eq(reqbufs(n, n->out, V4L2_MEMORY_MMAP, 1), 0);
	b = out_buf(n, 0, size);
	b.field = V4L2_FIELD_INTERLACED;
	cr_assert_eq(qbuf(n, &b), EINVAL);
	b.field = V4L2_FIELD_BOTTOM;
	cr_assert_eq(qbuf(n, &b), EINVAL);
	b.field = 99;
	cr_assert_eq(qbuf(n, &b), EINVAL);
}

Test(qbuf, buffer_field_not_matching_the_format_is_einval)
{
	ON_BOTH_NODES(field_mismatch);
}

static void alternate_fields(const struct node *n)
{
	const uint32_t bad[] = { V4L2_FIELD_NONE, V4L2_FIELD_INTERLACED,
				 V4L2_FIELD_SEQ_TB, V4L2_FIELD_ALTERNATE };
	uint32_t size = set_fmt(n, n->out, V4L2_PIX_FMT_YUYV, W, H / 2,
				V4L2_FIELD_ALTERNATE);
	struct qb b;

	cr_assert_eq(reqbufs(n, n->out, V4L2_MEMORY_MMAP, 2), 0);
	b = out_buf(n, 0, size);
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		b.field = bad[i];
		cr_assert_eq(qbuf(n, &b), EINVAL, "%s: field %u",
			     node_name(n), bad[i]);
	}
	b.field = V4L2_FIELD_TOP;
	cr_assert_eq(qbuf(n, &b), 0);
	b = out_buf(n, 1, size);
	b.field = V4L2_FIELD_BOTTOM;
	cr_assert_eq(qbuf(n, &b), 0);
}

Test(qbuf, alternate_buffer_must_be_top_or_bottom)
{
	ON_BOTH_NODES(alternate_fields);
}

/*
 * USERPTR to memory that is not there: vb2 cannot pin it and QBUF fails
 * with EFAULT (vb2_create_framevec), the buffer untouched.
 */
static void userptr_unmapped(const struct node *n)
{
	const uint32_t types[] = { n->out, n->cap };
	uint32_t size = mmap_setup(n, 0);
	size_t len = (size + 4095) & ~4095ul;
	uint8_t *p;

	for (unsigned int t = 0; t < 2; t++) {
		struct qb b = { .type = types[t],
				.memory = V4L2_MEMORY_USERPTR,
				.bytesused = size, .length = size };

		cr_assert_eq(reqbufs(n, types[t], V4L2_MEMORY_USERPTR, 1), 0);

		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		cr_assert_neq(p, MAP_FAILED);
		cr_assert_eq(munmap(p, len), 0);
		b.userptr = (unsigned long)p;
		cr_assert_eq(qbuf(n, &b), EFAULT, "%s type %u: unmapped",
			     node_name(n), types[t]);

		b.userptr = 0x1000;
		cr_assert_eq(qbuf(n, &b), EFAULT, "%s type %u: 0x1000",
			     node_name(n), types[t]);

		/* Only its first page mapped. */
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		cr_assert_neq(p, MAP_FAILED);
		memset(p, 0, len);
		cr_assert_eq(munmap(p + 4096, len - 4096), 0);
		b.userptr = (unsigned long)p;
		cr_assert_eq(qbuf(n, &b), EFAULT, "%s type %u: partly mapped",
			     node_name(n), types[t]);
		cr_assert_eq(munmap(p, 4096), 0);

		/* Mapped, but shorter than the format: EINVAL. */
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		cr_assert_neq(p, MAP_FAILED);
		b.userptr = (unsigned long)p;
		b.length = b.bytesused = size / 2;
		cr_assert_eq(qbuf(n, &b), EINVAL, "%s type %u: short",
			     node_name(n), types[t]);
		/* And the same memory, whole, is taken. */
		b.length = b.bytesused = size;
		cr_assert_eq(qbuf(n, &b), 0, "%s type %u: whole",
			     node_name(n), types[t]);
		cr_assert_eq(reqbufs(n, types[t], V4L2_MEMORY_USERPTR, 0), 0);
		cr_assert_eq(munmap(p, len), 0);
	}
}

Test(qbuf, userptr_to_unmapped_memory_is_efault)
{
	ON_BOTH_NODES(userptr_unmapped);
}

/*
 * USERPTR CAPTURE memory the process may read but not write (a shared
 * mapping without PROT_WRITE): vb2 pins CAPTURE memory for writing, which
 * such a mapping refuses even to the kernel, so QBUF fails with EFAULT
 * and the device never writes there.
 */
static void userptr_read_only_capture(const struct node *n)
{
	uint32_t size = mmap_setup(n, 0);
	size_t len = (size + 4095) & ~4095ul;
	struct qb b = { .type = n->cap, .memory = V4L2_MEMORY_USERPTR,
			.length = size };
	int fd = memfd_create("read-only", MFD_CLOEXEC);
	uint8_t *p;

	cr_assert_geq(fd, 0);
	cr_assert_eq(ftruncate(fd, len), 0);
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	cr_assert_neq(p, MAP_FAILED);
	cr_assert_eq(reqbufs(n, n->cap, V4L2_MEMORY_USERPTR, 1), 0);
	b.userptr = (unsigned long)p;
	cr_assert_eq(qbuf(n, &b), EFAULT, "%s: read-only CAPTURE memory",
		     node_name(n));
	cr_assert_eq(reqbufs(n, n->cap, V4L2_MEMORY_USERPTR, 0), 0);
	cr_assert_eq(munmap(p, len), 0);
	close(fd);
}

Test(qbuf, userptr_capture_memory_without_write_access_is_efault)
{
	ON_BOTH_NODES(userptr_read_only_capture);
}

/*
 * DMABUF: a buffer exported by another vhqv file (EXPBUF), smaller than
 * the importing queue's sizeimage. Given its own size (length and
 * bytesused 0), vb2 refuses it with EINVAL; claiming a larger length than
 * the dma-buf has, videobuf2-vmalloc refuses to attach it (EFAULT). Never
 * read past it.
 */
static void dmabuf_small(const struct node *n)
{
	struct node exporter = open_node(n->mplane);
	const uint32_t types[] = { n->out, n->cap };
	struct v4l2_exportbuffer eb = { .type = exporter.cap };
	uint32_t size;

	set_fmt(&exporter, exporter.cap, V4L2_PIX_FMT_YUYV, W, H,
			V4L2_FIELD_NONE);
	cr_assert_eq(reqbufs(&exporter, exporter.cap, V4L2_MEMORY_MMAP, 1), 0);
	cr_assert_eq(xioctl(exporter.fd, VIDIOC_EXPBUF, &eb), 0);

	size = set_fmt(n, n->out, V4L2_PIX_FMT_YUYV, 640, 480,
		       V4L2_FIELD_NONE);
	set_fmt(n, n->cap, V4L2_PIX_FMT_YUYV, 640, 480, V4L2_FIELD_NONE);
	for (unsigned int t = 0; t < 2; t++) {
		struct qb b = { .type = types[t],
				.memory = V4L2_MEMORY_DMABUF,
				.dmabuf = eb.fd };

		cr_assert_eq(reqbufs(n, types[t], V4L2_MEMORY_DMABUF, 1), 0);
		cr_assert_eq(qbuf(n, &b), EINVAL, "%s type %u: length 0",
			     node_name(n), types[t]);
		b.length = size;
		b.bytesused = size;
		cr_assert_eq(qbuf(n, &b), EFAULT,
			     "%s type %u: length %u claimed", node_name(n),
			     types[t], size);
	}
	close(eb.fd);
	transport->close(exporter.fd);
}

Test(qbuf, dmabuf_smaller_than_sizeimage_is_refused)
{
	ON_BOTH_NODES(dmabuf_small);
}

/* The same exporter, at the right size: the import works. */
static void dmabuf_fits(const struct node *n)
{
	struct node exporter = open_node(n->mplane);
	struct v4l2_exportbuffer eb = { .type = exporter.cap };
	uint32_t size;
	struct qb b;

	set_fmt(&exporter, exporter.cap, V4L2_PIX_FMT_YUYV, W, H,
		V4L2_FIELD_NONE);
	cr_assert_eq(reqbufs(&exporter, exporter.cap, V4L2_MEMORY_MMAP, 1), 0);
	cr_assert_eq(xioctl(exporter.fd, VIDIOC_EXPBUF, &eb), 0);

	size = mmap_setup(n, 0);
	cr_assert_eq(reqbufs(n, n->out, V4L2_MEMORY_DMABUF, 1), 0);
	cr_assert_eq(reqbufs(n, n->cap, V4L2_MEMORY_MMAP, 1), 0);
	b = (struct qb){ .type = n->out, .memory = V4L2_MEMORY_DMABUF,
			 .dmabuf = eb.fd, .bytesused = size, .length = size };
	cr_assert_eq(qbuf(n, &b), 0, "%s: %s", node_name(n), strerror(errno));
	b = cap_buf(n, 0);
	cr_assert_eq(qbuf(n, &b), 0);
	streamon(n, n->out);
	streamon(n, n->cap);
	cr_assert_eq(dqbuf_wait(n, n->cap, &b), 0);
	cr_assert_eq(b.flags & V4L2_BUF_FLAG_ERROR, 0);
	close(eb.fd);
	transport->close(exporter.fd);
}

Test(qbuf, dmabuf_of_the_right_size_converts)
{
	ON_BOTH_NODES(dmabuf_fits);
}

#ifndef M2M_TEST_INPROCESS
/*
 * The memory cap: ctx_mem_mb, writable at run time, restored afterwards
 * (the kernel's only: the in-process device's is fixed at the default).
 */

static char saved_cap[32];

static void write_param(const char *value)
{
	FILE *f = fopen(CTX_MEM_MB, "w");

	cr_assert(f, "%s: %s", CTX_MEM_MB, strerror(errno));
	cr_assert_gt(fprintf(f, "%s\n", value), 0);
	cr_assert_eq(fclose(f), 0);
}

static void save_cap(void)
{
	FILE *f = fopen(CTX_MEM_MB, "r");

	cr_assert(f, "%s: %s", CTX_MEM_MB, strerror(errno));
	cr_assert(fgets(saved_cap, sizeof(saved_cap), f));
	fclose(f);
	saved_cap[strcspn(saved_cap, "\n")] = 0;
}

static void restore_cap(void)
{
	write_param(saved_cap);
}

TestSuite(mem, .init = save_cap, .fini = restore_cap);

/* 640x480 YUYV: 600 KiB a buffer (150 pages). */
static void cap_enforced(const struct node *n)
{
	struct v4l2_create_buffers cb = {
		.count = 4,
		.memory = V4L2_MEMORY_MMAP,
		.format = { .type = n->cap },
	};

	write_param("8");
	set_both(n, V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_YUYV, 640, 480);
	/* 14 buffers are 8.2 MiB. */
	cr_assert_eq(reqbufs(n, n->out, V4L2_MEMORY_MMAP, 14), ENOMEM,
		     "%s", node_name(n));
	cr_assert_eq(reqbufs(n, n->out, V4L2_MEMORY_MMAP, 8), 0);
	/* The two queues share the cap: 8 + 6 buffers are past it. */
	cr_assert_eq(reqbufs(n, n->cap, V4L2_MEMORY_MMAP, 6), ENOMEM);
	cr_assert_eq(reqbufs(n, n->cap, V4L2_MEMORY_MMAP, 4), 0);
	cr_assert_eq(xioctl(n->fd, VIDIOC_G_FMT, &cb.format), 0);
	cr_assert_eq(xioctl(n->fd, VIDIOC_CREATE_BUFS, &cb), ENOMEM);
	cb.count = 1;
	cr_assert_eq(xioctl(n->fd, VIDIOC_CREATE_BUFS, &cb), 0);
	/* Memory the driver does not allocate is not counted. */
	cr_assert_eq(reqbufs(n, n->out, V4L2_MEMORY_USERPTR, 32), 0);
	/* Freed buffers are uncounted. */
	cr_assert_eq(reqbufs(n, n->cap, V4L2_MEMORY_MMAP, 0), 0);
	cr_assert_eq(reqbufs(n, n->cap, V4L2_MEMORY_MMAP, 13), 0);
	restore_cap();
}

Test(mem, reqbufs_past_ctx_mem_mb_is_enomem)
{
	ON_BOTH_NODES(cap_enforced);
}

#endif /* M2M_TEST_INPROCESS */

/* 8192x8192 XRGB32 is 256 MiB a buffer: two fit the default 512 MiB. */
static void huge_frames(const struct node *n)
{
	set_both(n, V4L2_PIX_FMT_XBGR32, V4L2_PIX_FMT_XBGR32, 8192, 8192);
	cr_assert_eq(reqbufs(n, n->out, V4L2_MEMORY_MMAP, 32), ENOMEM,
		     "%s", node_name(n));
	cr_assert_eq(reqbufs(n, n->out, V4L2_MEMORY_MMAP, 3), ENOMEM);
	cr_assert_eq(reqbufs(n, n->out, V4L2_MEMORY_MMAP, 1), 0);
	cr_assert_eq(reqbufs(n, n->cap, V4L2_MEMORY_MMAP, 2), ENOMEM);
	cr_assert_eq(reqbufs(n, n->cap, V4L2_MEMORY_MMAP, 1), 0);
}

Test(mem, huge_frames_with_many_buffers_are_enomem)
{
#ifndef M2M_TEST_INPROCESS
	write_param("512");
#endif
	ON_BOTH_NODES(huge_frames);
}

/*
 * Stopping in the middle of a job: the job stops at its next band, its
 * buffers come back with V4L2_BUF_FLAG_ERROR, the statistics count it.
 * The kernel's only: the statistics are debugfs's, and the in-process
 * engine, unemulated, finishes a big frame too soon to be sure of being
 * caught in it.
 */
#ifndef M2M_TEST_INPROCESS

static void mount_debugfs(void)
{
	int ret;

	if (access(STATS, R_OK) == 0)
		return;
	ret = mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	cr_assert(ret == 0 || errno == EBUSY, "mount debugfs: %s",
		  strerror(errno));
	cr_assert_eq(access(STATS, R_OK), 0, "%s: %s", STATS, strerror(errno));
}

static unsigned long long stat_value(const char *name)
{
	unsigned long long v = 0;
	char line[128];
	size_t len = strlen(name);
	bool found = false;
	FILE *f = fopen(STATS, "r");

	cr_assert(f, "%s: %s", STATS, strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, len) && line[len] == ':')
			found = sscanf(line + len + 1, "%llu", &v) == 1;
	fclose(f);
	cr_assert(found, "no %s in %s", name, STATS);
	return v;
}

TestSuite(stop, .init = mount_debugfs);

/*
 * Two big frames queued on both queues, both streaming, and the first
 * job started (its FRAME_SYNC event): the caller stops it.
 */
static void start_big_job(const struct node *n)
{
	struct v4l2_event_subscription sub = { .type = V4L2_EVENT_FRAME_SYNC };
	struct pollfd pfd = { .fd = n->fd, .events = POLLPRI };
	struct v4l2_event ev;
	uint32_t size;

	size = set_fmt(n, n->out, V4L2_PIX_FMT_YUYV, BIG, BIG,
		       V4L2_FIELD_NONE);
	set_fmt(n, n->cap, V4L2_PIX_FMT_XBGR32, BIG, BIG, V4L2_FIELD_NONE);
	cr_assert_eq(xioctl(n->fd, VIDIOC_SUBSCRIBE_EVENT, &sub), 0);
	cr_assert_eq(reqbufs(n, n->out, V4L2_MEMORY_MMAP, 2), 0);
	cr_assert_eq(reqbufs(n, n->cap, V4L2_MEMORY_MMAP, 2), 0);
	for (uint32_t i = 0; i < 2; i++) {
		struct qb b = out_buf(n, i, size);

		cr_assert_eq(qbuf(n, &b), 0);
		b = cap_buf(n, i);
		cr_assert_eq(qbuf(n, &b), 0);
	}
	streamon(n, n->out);
	streamon(n, n->cap);
	cr_assert_eq(poll(&pfd, 1, 60000), 1, "no job started in 60 s");
	cr_assert_eq(xioctl(n->fd, VIDIOC_DQEVENT, &ev), 0);
	cr_assert_eq(ev.type, V4L2_EVENT_FRAME_SYNC);
}

/*
 * STREAMOFF on one queue: the job in progress stops, and its buffer on
 * the other queue, still streaming, comes back flagged ERROR; the queue
 * stopped has all its buffers back (none queued or done).
 */
static void streamoff_mid_job(const struct node *n, bool stop_output)
{
	uint32_t stopped = stop_output ? n->out : n->cap;
	uint32_t other = stop_output ? n->cap : n->out;
	unsigned long long aborted = stat_value("aborted");
	struct qb b;

	start_big_job(n);
	cr_assert_eq(xioctl(n->fd, VIDIOC_STREAMOFF, &stopped), 0);
	cr_assert_eq(stat_value("aborted"), aborted + 1, "%s",
		     node_name(n));
	cr_assert_eq(dqbuf_wait(n, other, &b), 0);
	cr_assert_eq(b.index, 0);
	cr_assert_neq(b.flags & V4L2_BUF_FLAG_ERROR, 0, "%s: flags %#x",
		      node_name(n), b.flags);
	/* Nothing more runs: the other buffer stays queued. */
	cr_assert_eq(dqbuf(n, other, &b), EAGAIN);
	for (uint32_t i = 0; i < 2; i++) {
		struct v4l2_buffer buf = { .type = stopped, .index = i,
					   .memory = V4L2_MEMORY_MMAP };
		struct v4l2_plane planes[VIDEO_MAX_PLANES];

		if (n->mplane) {
			buf.m.planes = planes;
			buf.length = VIDEO_MAX_PLANES;
		}
		cr_assert_eq(xioctl(n->fd, VIDIOC_QUERYBUF, &buf), 0);
		cr_assert_eq(buf.flags & (V4L2_BUF_FLAG_QUEUED |
					  V4L2_BUF_FLAG_DONE), 0);
	}
	cr_assert_eq(xioctl(n->fd, VIDIOC_STREAMOFF, &other), 0);
}

static void streamoff_output(const struct node *n)
{
	streamoff_mid_job(n, true);
}

static void streamoff_capture(const struct node *n)
{
	streamoff_mid_job(n, false);
}

Test(stop, streamoff_output_mid_job_aborts_it, .timeout = 120)
{
	ON_BOTH_NODES(streamoff_output);
}

Test(stop, streamoff_capture_mid_job_aborts_it, .timeout = 120)
{
	ON_BOTH_NODES(streamoff_capture);
}

/* Closing the file mid-job: the job stops, the file goes. */
static void close_mid_job(const struct node *n)
{
	struct node twin = open_node(n->mplane);
	unsigned long long aborted = stat_value("aborted");

	start_big_job(&twin);
	cr_assert_eq(close(twin.fd), 0);
	cr_assert_eq(stat_value("aborted"), aborted + 1, "%s",
		     node_name(n));
}

Test(stop, close_while_streaming_aborts_the_job, .timeout = 120)
{
	ON_BOTH_NODES(close_mid_job);
}
#endif /* M2M_TEST_INPROCESS */

/*
 * Commands and controls
 */

static void pause_resume(const struct node *n)
{
	const uint32_t cmds[] = { V4L2_ENC_CMD_PAUSE, V4L2_ENC_CMD_RESUME };
	uint32_t size = mmap_setup(n, 1);
	struct qb b = out_buf(n, 0, size);

	for (int streaming = 0; streaming < 2; streaming++) {
		for (unsigned int i = 0; i < 2; i++) {
			struct v4l2_encoder_cmd ec = { .cmd = cmds[i] };

			cr_assert_eq(xioctl(n->fd, VIDIOC_TRY_ENCODER_CMD, &ec),
				     EINVAL);
			cr_assert_eq(xioctl(n->fd, VIDIOC_ENCODER_CMD, &ec),
				     EINVAL, "%s cmd %u streaming %d",
				     node_name(n), cmds[i], streaming);
		}
		if (!streaming) {
			cr_assert_eq(qbuf(n, &b), 0);
			streamon(n, n->out);
			streamon(n, n->cap);
		}
	}
}

Test(ctrl, encoder_pause_and_resume_are_einval)
{
	ON_BOTH_NODES(pause_resume);
}

static void unknown_control(const struct node *n)
{
	struct v4l2_control c = { .id = V4L2_CID_VHQV_BASE + 0x100 };
	struct v4l2_ext_control ec = { .id = V4L2_CID_AUTO_WHITE_BALANCE };
	struct v4l2_ext_controls ecs = {
		.which = V4L2_CTRL_WHICH_CUR_VAL, .count = 1, .controls = &ec,
	};
	struct v4l2_queryctrl q = { .id = V4L2_CID_GAIN };

	cr_assert_eq(xioctl(n->fd, VIDIOC_S_CTRL, &c), EINVAL);
	cr_assert_eq(xioctl(n->fd, VIDIOC_G_CTRL, &c), EINVAL);
	cr_assert_eq(xioctl(n->fd, VIDIOC_QUERYCTRL, &q), EINVAL);
	cr_assert_eq(xioctl(n->fd, VIDIOC_S_EXT_CTRLS, &ecs), EINVAL);
}

Test(ctrl, unknown_control_is_einval)
{
	ON_BOTH_NODES(unknown_control);
}

static int32_t set_ctrl(const struct node *n, uint32_t id, int32_t value,
			int *err)
{
	struct v4l2_control c = { .id = id, .value = value };

	*err = xioctl(n->fd, VIDIOC_S_CTRL, &c);
	return c.value;
}

/*
 * Out-of-range integers are rounded to the control's step and clamped
 * (v4l2-ctrls); menus and bitmasks out of range get ERANGE.
 */
static void out_of_range(const struct node *n)
{
	const struct { uint32_t id; int32_t in, out; } rounded[] = {
		{ V4L2_CID_ROTATE, 45, 90 },
		{ V4L2_CID_ROTATE, 44, 0 },
		{ V4L2_CID_ROTATE, 1000, 270 },
		{ V4L2_CID_ROTATE, -90, 0 },
		{ V4L2_CID_BRIGHTNESS, 1000, 127 },
		{ V4L2_CID_HUE, -1000, -180 },
		{ V4L2_CID_ALPHA_COMPONENT, 256, 255 },
		{ V4L2_CID_VHQV_BACKGROUND, -1, 0 },
		{ V4L2_CID_HFLIP, 7, 1 },
	};
	const struct { uint32_t id; int32_t in; } refused[] = {
		{ V4L2_CID_DEINTERLACING_MODE, 4 },
		{ V4L2_CID_DEINTERLACING_MODE, -1 },
		{ V4L2_CID_VHQV_SCALER, 3 },
	};
	struct v4l2_control c, after;
	int err;

	for (unsigned int i = 0; i < sizeof(rounded) / sizeof(rounded[0]);
	     i++) {
		int32_t v = set_ctrl(n, rounded[i].id, rounded[i].in, &err);

		cr_assert_eq(err, 0, "control %#x = %d", rounded[i].id,
			     rounded[i].in);
		cr_assert_eq(v, rounded[i].out, "control %#x = %d gave %d",
			     rounded[i].id, rounded[i].in, v);
		c = (struct v4l2_control){ .id = rounded[i].id };
		cr_assert_eq(xioctl(n->fd, VIDIOC_G_CTRL, &c), 0);
		cr_assert_eq(c.value, rounded[i].out);
	}
	for (unsigned int i = 0; i < sizeof(refused) / sizeof(refused[0]);
	     i++) {
		c = (struct v4l2_control){ .id = refused[i].id };
		cr_assert_eq(xioctl(n->fd, VIDIOC_G_CTRL, &c), 0);
		set_ctrl(n, refused[i].id, refused[i].in, &err);
		cr_assert_eq(err, ERANGE, "control %#x = %d", refused[i].id,
			     refused[i].in);
		/* The value is unchanged. */
		after = (struct v4l2_control){ .id = refused[i].id };
		cr_assert_eq(xioctl(n->fd, VIDIOC_G_CTRL, &after), 0);
		cr_assert_eq(after.value, c.value);
	}
}

Test(ctrl, out_of_range_values_are_rounded_or_erange)
{
	ON_BOTH_NODES(out_of_range);
}
