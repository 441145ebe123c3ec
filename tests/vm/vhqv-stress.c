// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Stress and fuzz vhqv through raw V4L2, for the debug kernel's lane
 * (tests/vm/stress, docs/testing.md): what it checks is mostly that the
 * kernel log stays free of KASAN, lockdep, UBSAN, DEBUG_OBJECTS and
 * kmemleak reports while the driver is pushed, which scripts/vm-run
 * scans. Everything random comes from one seed, printed, so a run can be
 * repeated: the same seed makes the same calls with the same arguments
 * (what the kernel answers can still differ with timing).
 *
 *   vhqv-stress streams SEED N NODE...  N files at once over the nodes,
 *       each with random formats, sizes and controls, streaming frames
 *       in one poll() loop; some drain at the end. Fails if a file does
 *       not get its frames.
 *   vhqv-stress kill SEED ROUNDS NODE...  in each round, children stream
 *       as above and are killed with SIGKILL at a random moment.
 *   vhqv-stress fuzz SEED COUNT NODE...  COUNT random ioctls (and a few
 *       polls, closes and reopens) spread over four handles a node, with
 *       arguments mostly near valid values; then a plain stream must
 *       still work.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include "vhqv-test.h"

static const char *prog = "vhqv-stress";

static void die(const char *fmt, const char *what, int err)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, what);
	if (err)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
	exit(1);
}

static bool node_is_mplane(int fd)
{
	struct v4l2_capability cap = { 0 };

	if (xioctl(fd, VIDIOC_QUERYCAP, &cap) < 0)
		die("QUERYCAP on %s", "node", errno);
	return cap.device_caps & V4L2_CAP_VIDEO_M2M_MPLANE;
}

/*
 * Streaming files
 */

#define STREAM_BUFS	2

struct stream {
	int fd;
	bool mplane;
	uint32_t type[2];	/* OUTPUT, CAPTURE */
	unsigned int planes[2];
	void *mem[2][STREAM_BUFS][VIDEO_MAX_PLANES];
	size_t len[2][STREAM_BUFS][VIDEO_MAX_PLANES];
	unsigned int done, wanted;
	bool draining, drained;
};

static const uint32_t controls[][3] = {
	/* id, min, max */
	{ V4L2_CID_HFLIP, 0, 1 },
	{ V4L2_CID_VFLIP, 0, 1 },
	{ V4L2_CID_BRIGHTNESS, (uint32_t)-128, 127 },
	{ V4L2_CID_CONTRAST, (uint32_t)-128, 127 },
	{ V4L2_CID_SATURATION, (uint32_t)-128, 127 },
	{ V4L2_CID_HUE, (uint32_t)-180, 180 },
	{ V4L2_CID_ALPHA_COMPONENT, 0, 255 },
	{ V4L2_CID_DEINTERLACING_MODE, 0, 3 },
};

/* A format the node offers, at random. */
static uint32_t random_format(int fd, uint32_t type)
{
	struct v4l2_fmtdesc f = { .type = type };
	uint32_t n = 0;

	while (f.index = n, xioctl(fd, VIDIOC_ENUM_FMT, &f) == 0)
		n++;
	f.index = below(n);
	if (xioctl(fd, VIDIOC_ENUM_FMT, &f) < 0)
		die("ENUM_FMT %s", "index", errno);
	return f.pixelformat;
}

static void set_format(struct stream *s, int q, uint32_t w, uint32_t h)
{
	struct v4l2_format f = { .type = s->type[q] };
	uint32_t fourcc = random_format(s->fd, s->type[q]);

	if (s->mplane) {
		f.fmt.pix_mp.pixelformat = fourcc;
		f.fmt.pix_mp.width = w;
		f.fmt.pix_mp.height = h;
		f.fmt.pix_mp.field = V4L2_FIELD_NONE;
	} else {
		f.fmt.pix.pixelformat = fourcc;
		f.fmt.pix.width = w;
		f.fmt.pix.height = h;
		f.fmt.pix.field = V4L2_FIELD_NONE;
	}
	if (xioctl(s->fd, VIDIOC_S_FMT, &f) < 0)
		die("S_FMT %s", q ? "CAPTURE" : "OUTPUT", errno);
}

static void queue_buffer(struct stream *s, int q, unsigned int index)
{
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
	struct v4l2_buffer b = {
		.type = s->type[q], .memory = V4L2_MEMORY_MMAP, .index = index,
	};
	unsigned int p;

	memset(planes, 0, sizeof(planes));
	if (s->mplane) {
		b.m.planes = planes;
		b.length = s->planes[q];
		for (p = 0; p < s->planes[q]; p++)
			planes[p].bytesused = q ? 0 : s->len[q][index][p];
	} else {
		b.bytesused = q ? 0 : s->len[q][index][0];
	}
	if (xioctl(s->fd, VIDIOC_QBUF, &b) < 0)
		die("QBUF %s", q ? "CAPTURE" : "OUTPUT", errno);
}

static void map_buffers(struct stream *s, int q)
{
	struct v4l2_requestbuffers rb = {
		.count = STREAM_BUFS, .type = s->type[q],
		.memory = V4L2_MEMORY_MMAP,
	};
	unsigned int i, p;

	if (xioctl(s->fd, VIDIOC_REQBUFS, &rb) < 0 || rb.count != STREAM_BUFS)
		die("REQBUFS %s", q ? "CAPTURE" : "OUTPUT", errno);
	for (i = 0; i < STREAM_BUFS; i++) {
		struct v4l2_plane planes[VIDEO_MAX_PLANES];
		struct v4l2_buffer b = {
			.type = s->type[q], .memory = V4L2_MEMORY_MMAP,
			.index = i, .m.planes = planes,
			.length = VIDEO_MAX_PLANES,
		};

		if (xioctl(s->fd, VIDIOC_QUERYBUF, &b) < 0)
			die("QUERYBUF %s", q ? "CAPTURE" : "OUTPUT", errno);
		s->planes[q] = s->mplane ? b.length : 1;
		for (p = 0; p < s->planes[q]; p++) {
			size_t len = s->mplane ? planes[p].length : b.length;
			off_t off = s->mplane ? planes[p].m.mem_offset :
						b.m.offset;

			s->mem[q][i][p] = mmap(NULL, len, PROT_READ | PROT_WRITE,
					       MAP_SHARED, s->fd, off);
			if (s->mem[q][i][p] == MAP_FAILED)
				die("mmap %s", q ? "CAPTURE" : "OUTPUT", errno);
			s->len[q][i][p] = len;
			if (!q)
				memset(s->mem[q][i][p], rng() & 0xff, len);
		}
	}
}

static void stream_open(struct stream *s, const char *node, unsigned int frames)
{
	static const uint32_t rotations[] = { 0, 90, 180, 270 };
	uint32_t w = 1 + below(160), h = 1 + below(120);
	struct v4l2_control c;
	enum v4l2_buf_type t;
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->wanted = frames;
	s->fd = open(node, O_RDWR | O_NONBLOCK);
	if (s->fd < 0)
		die("cannot open %s", node, errno);
	s->mplane = node_is_mplane(s->fd);
	s->type[0] = s->mplane ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE :
				 V4L2_BUF_TYPE_VIDEO_OUTPUT;
	s->type[1] = s->mplane ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE :
				 V4L2_BUF_TYPE_VIDEO_CAPTURE;
	c.id = V4L2_CID_ROTATE;
	c.value = PICK(rotations);
	if (xioctl(s->fd, VIDIOC_S_CTRL, &c) < 0)
		die("S_CTRL %s", "ROTATE", errno);
	set_format(s, 0, w, h);
	set_format(s, 1, 1 + below(160), 1 + below(120));
	for (i = 0; i < 3; i++) {
		const uint32_t *ctrl = controls[below(ARRAY_SIZE(controls))];

		c.id = ctrl[0];
		c.value = (int32_t)ctrl[1] +
			  (int32_t)below(ctrl[2] - ctrl[1] + 1);
		if (xioctl(s->fd, VIDIOC_S_CTRL, &c) < 0)
			die("S_CTRL %s", "control", errno);
	}
	map_buffers(s, 0);
	map_buffers(s, 1);
	for (i = 0; i < STREAM_BUFS; i++) {
		queue_buffer(s, 0, i);
		queue_buffer(s, 1, i);
	}
	for (i = 0; i < 2; i++) {
		t = s->type[i];
		if (xioctl(s->fd, VIDIOC_STREAMON, &t) < 0)
			die("STREAMON %s", i ? "CAPTURE" : "OUTPUT", errno);
	}
}

/* Dequeue what is ready; requeue while more frames are wanted. */
static void stream_service(struct stream *s)
{
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
	struct v4l2_buffer b;
	int q;

	for (q = 0; q < 2; q++) {
		memset(&b, 0, sizeof(b));
		b.type = s->type[q];
		b.memory = V4L2_MEMORY_MMAP;
		b.m.planes = planes;
		b.length = VIDEO_MAX_PLANES;
		if (xioctl(s->fd, VIDIOC_DQBUF, &b) < 0) {
			if (errno == EAGAIN)
				continue;
			if (q && errno == EPIPE && s->draining) {
				s->drained = true;
				continue;
			}
			die("DQBUF %s", q ? "CAPTURE" : "OUTPUT", errno);
		}
		if (q) {
			uint32_t used = s->mplane ? planes[0].bytesused :
						    b.bytesused;

			if (b.flags & V4L2_BUF_FLAG_ERROR)
				die("a %s frame came back with ERROR", "CAPTURE", 0);
			if (b.flags & V4L2_BUF_FLAG_LAST)
				s->drained = true;
			if (used)
				s->done++;
		}
		if (s->draining)
			continue;
		if (s->done + STREAM_BUFS < s->wanted || q)
			queue_buffer(s, q, b.index);
	}
	if (!s->draining && s->done >= s->wanted) {
		struct v4l2_encoder_cmd cmd = { .cmd = V4L2_ENC_CMD_STOP };

		s->draining = true;
		if (xioctl(s->fd, VIDIOC_ENCODER_CMD, &cmd) < 0)
			die("ENCODER_CMD %s", "STOP", errno);
	}
}

static void stream_close(struct stream *s)
{
	unsigned int q, i, p;

	for (q = 0; q < 2; q++)
		for (i = 0; i < STREAM_BUFS; i++)
			for (p = 0; p < s->planes[q]; p++)
				munmap(s->mem[q][i][p], s->len[q][i][p]);
	close(s->fd);
}

/* n files over the nodes, frames each, until every one has drained. */
static void run_streams(char **nodes, int n_nodes, unsigned int n,
			unsigned int frames, bool forever)
{
	struct stream *s = calloc(n, sizeof(*s));
	struct pollfd *pfd = calloc(n, sizeof(*pfd));
	unsigned int i, left = n;

	if (!s || !pfd)
		die("%s", "out of memory", 0);
	for (i = 0; i < n; i++) {
		stream_open(&s[i], nodes[i % n_nodes], forever ? ~0u : frames);
		pfd[i].fd = s[i].fd;
		pfd[i].events = POLLIN | POLLOUT;
	}
	while (left) {
		if (poll(pfd, n, 20000) <= 0)
			die("%s", "no file made progress for 20 s", errno);
		for (i = 0; i < n; i++) {
			if (pfd[i].fd < 0 || !pfd[i].revents)
				continue;
			stream_service(&s[i]);
			if (s[i].drained) {
				if (s[i].done < frames)
					die("a file drained after %s frames", "too few", 0);
				pfd[i].fd = -1;
				left--;
			}
		}
	}
	for (i = 0; i < n; i++)
		stream_close(&s[i]);
	free(s);
	free(pfd);
}

/*
 * Fuzzing
 */

#define FUZZ_HANDLES	4
#define POOL		16

struct fuzz {
	char **nodes;
	int n_nodes;
	int (*fd)[FUZZ_HANDLES];
	int dmabufs[POOL];
	void *user;
	size_t user_len;
	unsigned long calls[64];
	unsigned long ok[64];
};

static const uint32_t fourccs[] = {
	V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_UYVY, V4L2_PIX_FMT_YVYU,
	V4L2_PIX_FMT_VYUY, V4L2_PIX_FMT_NV12, V4L2_PIX_FMT_NV21,
	V4L2_PIX_FMT_NV16, V4L2_PIX_FMT_NV61, V4L2_PIX_FMT_NV24,
	V4L2_PIX_FMT_NV12M, V4L2_PIX_FMT_NV21M, V4L2_PIX_FMT_YUV420,
	V4L2_PIX_FMT_YVU420, V4L2_PIX_FMT_YUV420M, V4L2_PIX_FMT_YVU420M,
	V4L2_PIX_FMT_YUV422P, V4L2_PIX_FMT_YUV444M, V4L2_PIX_FMT_GREY,
	V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24, V4L2_PIX_FMT_XRGB32,
	V4L2_PIX_FMT_XBGR32, V4L2_PIX_FMT_ARGB32, V4L2_PIX_FMT_ABGR32,
	V4L2_PIX_FMT_RGB565, 0, 0x20202020, 0xffffffff,
};

static const uint32_t types[] = {
	V4L2_BUF_TYPE_VIDEO_OUTPUT, V4L2_BUF_TYPE_VIDEO_CAPTURE,
	V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE, V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE,
	V4L2_BUF_TYPE_VIDEO_OUTPUT, V4L2_BUF_TYPE_VIDEO_CAPTURE,
	V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE, V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE,
	0, V4L2_BUF_TYPE_VIDEO_OVERLAY, 0xff,
};

/* Mostly small (frames stay quick under TCG), now and then extreme. */
static uint32_t fuzz_size(void)
{
	static const uint32_t extreme[] = {
		0, 1920, 4096, 8192, 8193, 65535, 0x7fffffff, 0xffffffff,
	};

	if (chance(100))
		return PICK(extreme);
	return 1 + below(chance(4) ? 200 : 48);
}

static uint32_t fuzz_u32(void)
{
	static const uint32_t special[] = {
		0, 1, 2, 3, 7, 16, 255, 4096, 0x7fffffff, 0x80000000,
		0xffffffff,
	};

	return chance(3) ? PICK(special) : below(chance(2) ? 16 : 1 << 20);
}

static void fuzz_format(struct v4l2_format *f)
{
	unsigned int p;

	memset(f, 0, sizeof(*f));
	f->type = PICK(types);
	if (f->type == V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE ||
	    f->type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE) {
		struct v4l2_pix_format_mplane *mp = &f->fmt.pix_mp;

		mp->pixelformat = PICK(fourccs);
		mp->width = fuzz_size();
		mp->height = fuzz_size();
		mp->field = below(12);
		mp->colorspace = below(14);
		mp->ycbcr_enc = below(10);
		mp->quantization = below(4);
		mp->xfer_func = below(9);
		mp->flags = chance(4) ? V4L2_PIX_FMT_FLAG_SET_CSC : 0;
		mp->num_planes = below(10);
		for (p = 0; p < VIDEO_MAX_PLANES; p++) {
			mp->plane_fmt[p].bytesperline = chance(2) ? 0 : fuzz_u32();
			mp->plane_fmt[p].sizeimage = chance(2) ? 0 : fuzz_u32();
		}
	} else {
		struct v4l2_pix_format *pix = &f->fmt.pix;

		pix->pixelformat = PICK(fourccs);
		pix->width = fuzz_size();
		pix->height = fuzz_size();
		pix->field = below(12);
		pix->colorspace = below(14);
		pix->bytesperline = chance(2) ? 0 : fuzz_u32();
		pix->sizeimage = chance(2) ? 0 : fuzz_u32();
		pix->priv = chance(2) ? V4L2_PIX_FMT_PRIV_MAGIC : 0;
		pix->ycbcr_enc = below(10);
		pix->quantization = below(4);
	}
}

static uint32_t fuzz_memory(void)
{
	static const uint32_t memory[] = {
		V4L2_MEMORY_MMAP, V4L2_MEMORY_MMAP, V4L2_MEMORY_MMAP,
		V4L2_MEMORY_USERPTR, V4L2_MEMORY_DMABUF, 0, 3, 99,
	};

	return PICK(memory);
}

static void fuzz_buffer(struct fuzz *z, struct v4l2_buffer *b,
			struct v4l2_plane *planes)
{
	unsigned int p;

	memset(b, 0, sizeof(*b));
	memset(planes, 0, sizeof(*planes) * VIDEO_MAX_PLANES);
	b->type = PICK(types);
	b->memory = fuzz_memory();
	b->index = below(chance(10) ? 64 : 6);
	b->flags = chance(3) ? rng() : 0;
	b->field = below(12);
	b->bytesused = chance(2) ? 0 : fuzz_u32();
	b->timestamp.tv_sec = rng();
	if (b->type == V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE ||
	    b->type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE) {
		b->m.planes = planes;
		b->length = below(chance(10) ? 12 : 4);
		for (p = 0; p < VIDEO_MAX_PLANES; p++) {
			planes[p].bytesused = chance(2) ? 0 : fuzz_u32();
			planes[p].length = chance(2) ? z->user_len : fuzz_u32();
			planes[p].data_offset = chance(4) ? fuzz_u32() : 0;
			if (b->memory == V4L2_MEMORY_USERPTR)
				planes[p].m.userptr = chance(8) ? rng() :
					(unsigned long)z->user;
			else if (b->memory == V4L2_MEMORY_DMABUF)
				planes[p].m.fd = chance(4) ? (int)rng() :
					z->dmabufs[below(POOL)];
		}
	} else {
		b->length = chance(2) ? z->user_len : fuzz_u32();
		if (b->memory == V4L2_MEMORY_USERPTR)
			b->m.userptr = chance(8) ? rng() : (unsigned long)z->user;
		else if (b->memory == V4L2_MEMORY_DMABUF)
			b->m.fd = chance(4) ? (int)rng() : z->dmabufs[below(POOL)];
	}
}

static uint32_t fuzz_ctrl_id(void)
{
	static const uint32_t ids[] = {
		V4L2_CID_HFLIP, V4L2_CID_VFLIP, V4L2_CID_ROTATE,
		V4L2_CID_ROTATE, V4L2_CID_ALPHA_COMPONENT,
		V4L2_CID_BRIGHTNESS, V4L2_CID_CONTRAST, V4L2_CID_SATURATION,
		V4L2_CID_HUE, V4L2_CID_DEINTERLACING_MODE,
		V4L2_CID_USER_BASE + 0x1000, V4L2_CID_USER_BASE + 0x1001,
		V4L2_CID_USER_BASE + 0x1002, V4L2_CID_GAIN, 0,
		V4L2_CTRL_FLAG_NEXT_CTRL, 0xffffffff,
	};

	return PICK(ids);
}

static int32_t fuzz_ctrl_value(uint32_t id)
{
	static const int32_t rot[] = { 0, 90, 180, 270, 45, -90, 360 };

	if (id == V4L2_CID_ROTATE && !chance(8))
		return rot[below(ARRAY_SIZE(rot))];
	if (chance(6))
		return (int32_t)fuzz_u32();
	return (int32_t)below(512) - 256;
}

static void fuzz_reopen(struct fuzz *z, int node, int h)
{
	if (z->fd[node][h] >= 0)
		close(z->fd[node][h]);
	z->fd[node][h] = open(z->nodes[node], O_RDWR | O_NONBLOCK);
	if (z->fd[node][h] < 0)
		die("cannot open %s", z->nodes[node], errno);
}

/* One call; the index of the ioctl in the tally, with its result. */
static void fuzz_one(struct fuzz *z)
{
	int node = below(z->n_nodes), h = below(FUZZ_HANDLES);
	int fd = z->fd[node][h], ret = 0, op = below(28);
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
	struct v4l2_ext_control ext[4];
	union {
		struct v4l2_format f;
		struct v4l2_fmtdesc fd;
		struct v4l2_requestbuffers rb;
		struct v4l2_create_buffers cb;
		struct v4l2_buffer b;
		struct v4l2_exportbuffer eb;
		struct v4l2_control c;
		struct v4l2_ext_controls ec;
		struct v4l2_queryctrl qc;
		struct v4l2_query_ext_ctrl qec;
		struct v4l2_querymenu qm;
		struct v4l2_selection sel;
		struct v4l2_encoder_cmd cmd;
		struct v4l2_decoder_cmd dcmd;
		struct v4l2_event_subscription sub;
		struct v4l2_event ev;
		struct v4l2_frmsizeenum fs;
		struct v4l2_capability cap;
		enum v4l2_priority prio;
		int type;
	} a;
	unsigned int i;

	memset(&a, 0, sizeof(a));
	switch (op) {
	case 0:
		ret = xioctl(fd, VIDIOC_QUERYCAP, &a.cap);
		break;
	case 1:
		a.fd.type = PICK(types);
		a.fd.index = below(40);
		ret = xioctl(fd, VIDIOC_ENUM_FMT, &a.fd);
		break;
	case 2:
		fuzz_format(&a.f);
		ret = xioctl(fd, VIDIOC_G_FMT, &a.f);
		break;
	case 3:
	case 4:
		fuzz_format(&a.f);
		ret = xioctl(fd, VIDIOC_S_FMT, &a.f);
		break;
	case 5:
		fuzz_format(&a.f);
		ret = xioctl(fd, VIDIOC_TRY_FMT, &a.f);
		break;
	case 6:
		a.rb.type = PICK(types);
		a.rb.memory = fuzz_memory();
		a.rb.count = chance(3) ? 0 : below(chance(20) ? 64 : 5);
		ret = xioctl(fd, VIDIOC_REQBUFS, &a.rb);
		break;
	case 7:
		fuzz_format(&a.cb.format);
		a.cb.memory = fuzz_memory();
		a.cb.count = below(chance(20) ? 64 : 4);
		ret = xioctl(fd, VIDIOC_CREATE_BUFS, &a.cb);
		break;
	case 8:
		fuzz_buffer(z, &a.b, planes);
		ret = xioctl(fd, VIDIOC_QUERYBUF, &a.b);
		break;
	case 9:
	case 10:
	case 11:
		fuzz_buffer(z, &a.b, planes);
		ret = xioctl(fd, VIDIOC_QBUF, &a.b);
		break;
	case 12:
	case 13:
		fuzz_buffer(z, &a.b, planes);
		ret = xioctl(fd, VIDIOC_DQBUF, &a.b);
		break;
	case 14:
		fuzz_buffer(z, &a.b, planes);
		ret = xioctl(fd, VIDIOC_PREPARE_BUF, &a.b);
		break;
	case 15:
		a.eb.type = PICK(types);
		a.eb.index = below(6);
		a.eb.plane = below(4);
		a.eb.flags = chance(2) ? O_CLOEXEC | O_RDWR : rng();
		ret = xioctl(fd, VIDIOC_EXPBUF, &a.eb);
		if (!ret) {
			i = below(POOL);
			if (z->dmabufs[i] >= 0)
				close(z->dmabufs[i]);
			z->dmabufs[i] = a.eb.fd;
		}
		break;
	case 16:
	case 17:
		a.type = PICK(types);
		ret = xioctl(fd, chance(2) ? VIDIOC_STREAMON : VIDIOC_STREAMOFF,
			     &a.type);
		break;
	case 18:
		a.c.id = fuzz_ctrl_id();
		a.c.value = fuzz_ctrl_value(a.c.id);
		ret = xioctl(fd, chance(4) ? VIDIOC_G_CTRL : VIDIOC_S_CTRL,
			     &a.c);
		break;
	case 19:
		a.ec.which = chance(4) ? below(4) << 16 : V4L2_CTRL_WHICH_CUR_VAL;
		a.ec.count = below(5);
		a.ec.controls = ext;
		for (i = 0; i < ARRAY_SIZE(ext); i++) {
			memset(&ext[i], 0, sizeof(ext[i]));
			ext[i].id = fuzz_ctrl_id();
			ext[i].value = fuzz_ctrl_value(ext[i].id);
		}
		ret = xioctl(fd, PICK(((const uint32_t[]){ VIDIOC_G_EXT_CTRLS,
			     VIDIOC_S_EXT_CTRLS, VIDIOC_TRY_EXT_CTRLS })), &a.ec);
		break;
	case 20:
		a.qec.id = fuzz_ctrl_id() | (chance(2) ?
			   V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND : 0);
		ret = xioctl(fd, VIDIOC_QUERY_EXT_CTRL, &a.qec);
		break;
	case 21:
		a.qm.id = fuzz_ctrl_id();
		a.qm.index = below(6);
		ret = xioctl(fd, VIDIOC_QUERYMENU, &a.qm);
		break;
	case 22:
		a.sel.type = PICK(types);
		a.sel.target = below(0x104);
		if (chance(2))
			a.sel.target = chance(2) ? V4L2_SEL_TGT_CROP :
						   V4L2_SEL_TGT_COMPOSE;
		a.sel.flags = below(8);
		a.sel.r.left = (int32_t)fuzz_u32();
		a.sel.r.top = chance(2) ? (int32_t)below(64) : (int32_t)fuzz_u32();
		a.sel.r.width = fuzz_size();
		a.sel.r.height = fuzz_size();
		ret = xioctl(fd, chance(3) ? VIDIOC_G_SELECTION :
				 VIDIOC_S_SELECTION, &a.sel);
		break;
	case 23:
		a.cmd.cmd = below(5);
		a.cmd.flags = chance(4) ? rng() : 0;
		ret = xioctl(fd, chance(4) ? VIDIOC_TRY_ENCODER_CMD :
				 VIDIOC_ENCODER_CMD, &a.cmd);
		break;
	case 24:
		a.sub.type = PICK(((const uint32_t[]){ V4L2_EVENT_EOS,
			V4L2_EVENT_FRAME_SYNC, V4L2_EVENT_SOURCE_CHANGE,
			V4L2_EVENT_CTRL, V4L2_EVENT_ALL, V4L2_EVENT_VSYNC, 77 }));
		a.sub.id = a.sub.type == V4L2_EVENT_CTRL ? fuzz_ctrl_id() : below(3);
		a.sub.flags = below(4);
		ret = xioctl(fd, chance(3) ? VIDIOC_UNSUBSCRIBE_EVENT :
				 VIDIOC_SUBSCRIBE_EVENT, &a.sub);
		break;
	case 25:
		ret = xioctl(fd, VIDIOC_DQEVENT, &a.ev);
		break;
	case 26:
		a.fs.pixel_format = PICK(fourccs);
		a.fs.index = below(3);
		ret = xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &a.fs);
		break;
	default:
		if (chance(50)) {
			op = 27;
			fuzz_reopen(z, node, h);
		} else if (chance(2)) {
			struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT |
					    POLLPRI };

			ret = poll(&p, 1, 0) < 0 ? -1 : 0;
		} else {
			a.prio = below(5);
			ret = xioctl(fd, chance(2) ? VIDIOC_G_PRIORITY :
					 VIDIOC_S_PRIORITY, &a.prio);
		}
		break;
	}
	z->calls[op]++;
	if (ret == 0)
		z->ok[op]++;
	else if (errno == EFAULT && (op < 9 || op > 11) && op != 14)
		die("an ioctl (%s) failed with EFAULT", "of valid memory", 0);
}

static void run_fuzz(char **nodes, int n_nodes, unsigned long count)
{
	struct fuzz z = { .nodes = nodes, .n_nodes = n_nodes };
	unsigned long n, total_ok = 0;
	int i, h;

	z.fd = calloc(n_nodes, sizeof(*z.fd));
	z.user_len = 8 << 20;
	z.user = aligned_alloc(4096, z.user_len);
	if (!z.fd || !z.user)
		die("%s", "out of memory", 0);
	memset(z.user, 0x5a, z.user_len);
	for (i = 0; i < POOL; i++)
		z.dmabufs[i] = -1;
	for (i = 0; i < n_nodes; i++)
		for (h = 0; h < FUZZ_HANDLES; h++) {
			z.fd[i][h] = -1;
			fuzz_reopen(&z, i, h);
		}
	for (n = 0; n < count; n++) {
		fuzz_one(&z);
		if ((n + 1) % 50000 == 0)
			fprintf(stderr, "%s: %lu calls\n", prog, n + 1);
	}
	for (i = 0; i < (int)ARRAY_SIZE(z.calls); i++)
		total_ok += z.ok[i];
	printf("%s: fuzz: %lu calls, %lu succeeded; by operation (calls/ok):",
	       prog, count, total_ok);
	for (i = 0; i < 28; i++)
		printf(" %d:%lu/%lu", i, z.calls[i], z.ok[i]);
	printf("\n");
	for (i = 0; i < n_nodes; i++)
		for (h = 0; h < FUZZ_HANDLES; h++)
			close(z.fd[i][h]);
	for (i = 0; i < POOL; i++)
		if (z.dmabufs[i] >= 0)
			close(z.dmabufs[i]);
	free(z.user);
	free(z.fd);
}

/* Children streaming forever, killed at random moments. */
static void run_kill(char **nodes, int n_nodes, unsigned int rounds)
{
	unsigned int r, c;

	for (r = 0; r < rounds; r++) {
		pid_t pid[4];
		uint64_t seeds[4];
		struct timespec ts;

		for (c = 0; c < 4; c++)
			seeds[c] = rng();
		for (c = 0; c < 4; c++) {
			pid[c] = fork();
			if (pid[c] < 0)
				die("%s", "fork", errno);
			if (pid[c] == 0) {
				rng_seed(seeds[c]);
				run_streams(nodes, n_nodes, 4, 1000000, true);
				_exit(0);
			}
		}
		ts.tv_sec = 0;
		ts.tv_nsec = (200 + below(1300)) * 1000000l;
		nanosleep(&ts, NULL);
		for (c = 0; c < 4; c++)
			kill(pid[c], SIGKILL);
		for (c = 0; c < 4; c++)
			waitpid(pid[c], NULL, 0);
	}
	printf("%s: kill: %u rounds of 4 clients killed mid-stream\n", prog,
	       rounds);
}

int main(int argc, char **argv)
{
	unsigned long seed, n;

	if (argc < 5) {
		fprintf(stderr, "usage: %s streams|kill|fuzz SEED N NODE...\n",
			prog);
		return 2;
	}
	seed = strtoul(argv[2], NULL, 0);
	n = strtoul(argv[3], NULL, 0);
	rng_seed(seed);
	printf("%s: %s, seed %lu\n", prog, argv[1], seed);
	fflush(stdout);
	if (!strcmp(argv[1], "streams")) {
		run_streams(argv + 4, argc - 4, n, 12, false);
		printf("%s: streams: %lu files, 12 frames each, drained\n",
		       prog, n);
	} else if (!strcmp(argv[1], "kill")) {
		run_kill(argv + 4, argc - 4, n);
	} else if (!strcmp(argv[1], "fuzz")) {
		run_fuzz(argv + 4, argc - 4, n);
	} else {
		fprintf(stderr, "%s: unknown mode %s\n", prog, argv[1]);
		return 2;
	}
	return 0;
}
