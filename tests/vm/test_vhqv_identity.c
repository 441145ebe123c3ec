// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Output identity of vhqv: for a matrix of jobs, the bytes the device
 * returns on CAPTURE equal, byte for byte, what the engine computes
 * natively in this process on the same input.
 *
 * Built twice: vm.vhqv_identity runs it in the test VM (scripts/vm-run) on
 * the kernel's nodes through the syscall transport; inprocess.identity
 * runs it here on libm2m's in-process device (m2m_transport_inprocess,
 * M2M_TEST_INPROCESS). Same cases, same expected bytes: the in-process
 * device's results are the module's.
 *
 * The device runs the very engine this test links (hqv_engine), so any
 * difference is the driver describing a job differently from what the
 * application asked for: a wrong plane offset or pitch, colorimetry, field
 * order, rectangle, control value or previous frame. The native job is
 * therefore built from what V4L2 and docs/vhqv.md promise (the formats as
 * the driver reports them, V4L2's rules for DEFAULT colorimetry, the
 * controls as set), never from the driver's own code.
 *
 * Everything goes through raw V4L2 ioctls (struct session below) on a
 * struct m2m_transport: one open file per case, MMAP buffers, one buffer
 * per queue, frames one at a time. Sizes are small (64x48 and around) so
 * the whole matrix stays well under a minute in the TCG guest. CTest loads
 * the module with semiplanar=1, so the nodes offer every format of the
 * engine's table, NV12 and NV12M among them, as the in-process device
 * does.
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
#include <sys/stat.h>
#include <unistd.h>

#include <linux/videodev2.h>
#include <m2m/vhqv.h>

#include "hqv.h"
#include "transport.h"

/*
 * The in-process device has vhqv's multi-planar node only: the cases of
 * the single-planar node run on it with that node's formats (one memory
 * plane), through the multi-planar API, which is how vhqv handles them
 * inside too.
 */
#ifdef M2M_TEST_INPROCESS
static const struct m2m_transport *const transport = &m2m_transport_inprocess;
static const bool single_planar_api = false;
#else
static const struct m2m_transport *const transport = &m2m_transport_syscall;
static const bool single_planar_api = true;
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define W 64
#define H 48
#define MAX_FORMATS 64
#define MAX_FRAMES 6
/*
 * Capture buffers are filled with this before each frame: the engine must
 * leave line padding alone, natively and in the device alike.
 */
#define CAPTURE_FILL 0xa5

enum { OUT, CAP };

/*
 * One queue's format as a case asks for it. height is V4L2's: a field's
 * for ALTERNATE. pad is added to each memory plane's minimum line pitch.
 * enc and quant are V4L2 values (0: DEFAULT); on CAPTURE they are only
 * sent with V4L2_PIX_FMT_FLAG_SET_CSC (set_csc).
 */
struct side {
	uint32_t fourcc;
	uint32_t width;
	uint32_t height;
	uint32_t field;
	uint32_t pad[HQV_MAX_PLANES];
	uint32_t colorspace;
	uint32_t enc;
	uint32_t quant;
	bool set_csc;
};

struct controls {
	int32_t hflip;
	int32_t vflip;
	int32_t rotate;
	int32_t alpha;
	int32_t brightness;
	int32_t contrast;
	int32_t saturation;
	int32_t hue;
	int32_t deinterlace;
	int32_t scaler;
	int32_t background;
};

/* The controls' defaults (docs/vhqv.md). */
#define DEFAULT_CONTROLS { .alpha = 255, \
			   .deinterlace = VHQV_DEINTERLACE_BOB, \
			   .scaler = VHQV_SCALER_BILINEAR }

enum picture { PICTURE_RANDOM, PICTURE_MOVING };

struct job_case {
	bool mplane;
	struct side out;
	struct side cap;
	/* Width 0: left at the default, the whole frame. */
	struct v4l2_rect crop;
	struct v4l2_rect compose;
	struct controls ctrl;
	/*
	 * If set, the controls of each frame, set before it is queued: a new
	 * value applies from the next frame (docs/vhqv.md).
	 */
	const struct controls *frame_ctrl;
	/*
	 * Frames in sequence; the first RANDOM ones are noise, the rest
	 * a still picture with noise and a moving block (for deinterlacing).
	 */
	unsigned int frames;
	unsigned int random_frames;
	/* ALTERNATE: the field of each OUTPUT buffer. */
	uint32_t buf_field[MAX_FRAMES];
	uint32_t seed;
};

/* Counted per test (each Criterion test runs in its own process). */
static unsigned int cases_run, frames_run, frames_differing;

static const char *fourcc_str(uint32_t fourcc, char buf[5])
{
	for (int i = 0; i < 4; i++)
		buf[i] = (fourcc >> (8 * i)) & 0xff;
	buf[4] = '\0';
	return buf;
}

static void describe(const struct job_case *c, char *buf, size_t len)
{
	const struct controls *k = c->frame_ctrl ? &c->frame_ctrl[0] : &c->ctrl;
	char a[5], b[5];

	snprintf(buf, len,
		 "%s: %s %ux%u field %u pad %u/%u/%u cs %u enc %u q %u -> %s %ux%u pad %u/%u/%u%s enc %u q %u; crop %d,%d %ux%u compose %d,%d %ux%u; rot %d flip %d%d scaler %d deint %d procamp %d/%d/%d/%d alpha %d bg %06x; %u frames seed %u",
		 c->mplane ? "mplane" : "single",
		 fourcc_str(c->out.fourcc, a), c->out.width, c->out.height,
		 c->out.field, c->out.pad[0], c->out.pad[1], c->out.pad[2],
		 c->out.colorspace, c->out.enc, c->out.quant,
		 fourcc_str(c->cap.fourcc, b), c->cap.width, c->cap.height,
		 c->cap.pad[0], c->cap.pad[1], c->cap.pad[2],
		 c->cap.set_csc ? " SET_CSC" : "", c->cap.enc, c->cap.quant,
		 c->crop.left, c->crop.top, c->crop.width, c->crop.height,
		 c->compose.left, c->compose.top, c->compose.width,
		 c->compose.height, k->rotate, k->hflip, k->vflip, k->scaler,
		 k->deinterlace, k->brightness, k->contrast, k->saturation,
		 k->hue, k->alpha, k->background, c->frames, c->seed);
	if (c->frame_ctrl)
		snprintf(buf + strlen(buf), len - strlen(buf),
			 "; controls per frame, deint %d %d %d %d %d %d",
			 c->frame_ctrl[0].deinterlace,
			 c->frame_ctrl[1].deinterlace,
			 c->frame_ctrl[2].deinterlace,
			 c->frame_ctrl[3].deinterlace,
			 c->frame_ctrl[4].deinterlace,
			 c->frame_ctrl[5].deinterlace);
}

/*
 * The raw V4L2 session: one open file of a vhqv node, a format and an MMAP
 * buffer on each queue.
 */
struct session {
	int fd;
	bool mplane;
	uint32_t type[2];
	struct v4l2_format fmt[2];
	unsigned int mem_planes[2];
	uint8_t *map[2][VIDEO_MAX_PLANES];
	size_t map_len[2][VIDEO_MAX_PLANES];
	const char *what;
};

static const char *node_path(bool mplane)
{
	const char *var = mplane ? "VHQV_MPLANE_VIDEO" : "VHQV_VIDEO";
	const char *path = getenv(var);

	if (!single_planar_api)
		return M2M_INPROCESS_PATH;
	cr_assert_not_null(path, "%s is not set: run in the test VM", var);
	return path;
}

static void session_open(struct session *s, bool mplane, const char *what)
{
	memset(s, 0, sizeof(*s));
	s->what = what;
	s->mplane = mplane || !single_planar_api;
	mplane = s->mplane;
	s->type[OUT] = mplane ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE :
				V4L2_BUF_TYPE_VIDEO_OUTPUT;
	s->type[CAP] = mplane ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE :
				V4L2_BUF_TYPE_VIDEO_CAPTURE;
	s->fd = transport->open(node_path(mplane), O_RDWR);
	cr_assert_geq(s->fd, 0, "open %s: %s", node_path(mplane),
		      strerror(errno));
}

#define xioctl(s, req, arg)						\
	cr_assert_eq(transport->ioctl((s)->fd, req, arg), 0, "%s: %s\n%s", \
		     #req, strerror(errno), (s)->what)

/* The values the device took must be those asked for. */
static void session_set_controls(struct session *s, const struct controls *c)
{
	struct v4l2_ext_control ctl[] = {
		{ .id = V4L2_CID_HFLIP, .value = c->hflip },
		{ .id = V4L2_CID_VFLIP, .value = c->vflip },
		{ .id = V4L2_CID_ROTATE, .value = c->rotate },
		{ .id = V4L2_CID_ALPHA_COMPONENT, .value = c->alpha },
		{ .id = V4L2_CID_BRIGHTNESS, .value = c->brightness },
		{ .id = V4L2_CID_CONTRAST, .value = c->contrast },
		{ .id = V4L2_CID_SATURATION, .value = c->saturation },
		{ .id = V4L2_CID_HUE, .value = c->hue },
		{ .id = V4L2_CID_DEINTERLACING_MODE, .value = c->deinterlace },
		{ .id = V4L2_CID_VHQV_SCALER, .value = c->scaler },
		{ .id = V4L2_CID_VHQV_BACKGROUND, .value = c->background },
	};
	struct v4l2_ext_controls ctls = {
		.which = V4L2_CTRL_WHICH_CUR_VAL,
		.count = ARRAY_SIZE(ctl),
		.controls = ctl,
	};
	int32_t want[ARRAY_SIZE(ctl)];

	for (unsigned int i = 0; i < ctls.count; i++)
		want[i] = ctl[i].value;
	xioctl(s, VIDIOC_S_EXT_CTRLS, &ctls);
	for (unsigned int i = 0; i < ctls.count; i++) {
		struct v4l2_control g = { .id = ctl[i].id };

		xioctl(s, VIDIOC_G_CTRL, &g);
		cr_assert_eq(g.value, want[i], "control %#x is %d, set %d\n%s",
			     ctl[i].id, g.value, want[i], s->what);
	}
}

/* The minimum line pitch of each memory plane. */
static void min_pitches(const struct hqv_format *fmt, uint32_t width,
			uint32_t height, uint32_t bpl[HQV_MAX_PLANES])
{
	uint32_t size[HQV_MAX_PLANES];

	memset(bpl, 0, HQV_MAX_PLANES * sizeof(*bpl));
	hqv_format_layout(fmt, width, height, bpl, size);
}

/*
 * S_FMT, then check what the device kept: the fourcc, size and field
 * asked for (the cases ask for valid ones), pitches at least the ones
 * asked for, and the colorimetry V4L2 and docs/vhqv.md promise.
 */
static void session_set_format(struct session *s, int q,
			       const struct side *side)
{
	const struct hqv_format *fmt = hqv_format_find(side->fourcc);
	uint32_t bpl[HQV_MAX_PLANES];
	struct v4l2_format f = { .type = s->type[q] };
	uint32_t flags = q == CAP && side->set_csc ?
			 V4L2_PIX_FMT_FLAG_SET_CSC : 0;
	uint32_t colorspace = side->colorspace;
	uint32_t got_bpl, enc, quant;

	cr_assert_not_null(fmt);
	/*
	 * The core drops the encoding and quantization of a format whose
	 * colorspace is not valid, DEFAULT included: CAPTURE echoes OUTPUT's,
	 * as an application does.
	 */
	if (q == CAP && !colorspace)
		colorspace = s->mplane ? s->fmt[OUT].fmt.pix_mp.colorspace :
			     s->fmt[OUT].fmt.pix.colorspace;
	min_pitches(fmt, side->width, side->height, bpl);
	for (unsigned int p = 0; p < fmt->mem_planes; p++)
		bpl[p] += side->pad[p];
	if (s->mplane) {
		struct v4l2_pix_format_mplane *mp = &f.fmt.pix_mp;

		mp->width = side->width;
		mp->height = side->height;
		mp->pixelformat = side->fourcc;
		mp->field = q == OUT ? side->field : V4L2_FIELD_NONE;
		mp->colorspace = colorspace;
		mp->ycbcr_enc = side->enc;
		mp->quantization = side->quant;
		mp->flags = flags;
		mp->num_planes = fmt->mem_planes;
		for (unsigned int p = 0; p < fmt->mem_planes; p++)
			mp->plane_fmt[p].bytesperline = bpl[p];
	} else {
		struct v4l2_pix_format *pix = &f.fmt.pix;

		pix->width = side->width;
		pix->height = side->height;
		pix->pixelformat = side->fourcc;
		pix->field = q == OUT ? side->field : V4L2_FIELD_NONE;
		pix->bytesperline = bpl[0];
		/* Without it, the core clears the fields that follow. */
		pix->priv = V4L2_PIX_FMT_PRIV_MAGIC;
		pix->colorspace = colorspace;
		pix->ycbcr_enc = side->enc;
		pix->quantization = side->quant;
		pix->flags = flags;
	}
	xioctl(s, VIDIOC_S_FMT, &f);
	memset(&f, 0, sizeof(f));
	f.type = s->type[q];
	xioctl(s, VIDIOC_G_FMT, &f);
	s->fmt[q] = f;
	s->mem_planes[q] = fmt->mem_planes;

	if (s->mplane) {
		const struct v4l2_pix_format_mplane *mp = &f.fmt.pix_mp;

		cr_assert_eq(mp->pixelformat, side->fourcc, "%s", s->what);
		cr_assert_eq(mp->width, side->width, "%s", s->what);
		cr_assert_eq(mp->height, side->height, "%s", s->what);
		cr_assert_eq(mp->num_planes, fmt->mem_planes, "%s", s->what);
		for (unsigned int p = 0; p < fmt->mem_planes; p++) {
			got_bpl = mp->plane_fmt[p].bytesperline;
			cr_assert_geq(got_bpl, bpl[p], "plane %u\n%s", p,
				      s->what);
		}
		enc = mp->ycbcr_enc;
		quant = mp->quantization;
	} else {
		const struct v4l2_pix_format *pix = &f.fmt.pix;

		cr_assert_eq(pix->pixelformat, side->fourcc, "%s", s->what);
		cr_assert_eq(pix->width, side->width, "%s", s->what);
		cr_assert_eq(pix->height, side->height, "%s", s->what);
		cr_assert_geq(pix->bytesperline, bpl[0], "%s", s->what);
		enc = pix->ycbcr_enc;
		quant = pix->quantization;
	}
	if (q == OUT) {
		uint32_t field = s->mplane ? f.fmt.pix_mp.field :
				 f.fmt.pix.field;

		cr_assert_eq(field, side->field, "OUTPUT field %u\n%s", field,
			     s->what);
		cr_assert_eq(enc, side->enc, "OUTPUT encoding %u\n%s", enc,
			     s->what);
		cr_assert_eq(quant, side->quant, "OUTPUT quantization %u\n%s",
			     quant, s->what);
	} else {
		const struct v4l2_format *o = &s->fmt[OUT];
		uint32_t out_fourcc = s->mplane ? o->fmt.pix_mp.pixelformat :
				      o->fmt.pix.pixelformat;
		uint32_t out_colorspace = s->mplane ? o->fmt.pix_mp.colorspace :
					  o->fmt.pix.colorspace;
		uint32_t want_enc = s->mplane ? o->fmt.pix_mp.ycbcr_enc :
				    o->fmt.pix.ycbcr_enc;
		uint32_t want_quant = s->mplane ? o->fmt.pix_mp.quantization :
				      o->fmt.pix.quantization;

		/*
		 * CAPTURE keeps OUTPUT's when both are Y'CbCr or both R'G'B';
		 * across, it takes V4L2's defaults for its own format in
		 * OUTPUT's colorspace; what the case asks for wins, with
		 * SET_CSC or without.
		 */
		if (hqv_format_find(out_fourcc)->is_yuv != fmt->is_yuv) {
			want_enc = V4L2_MAP_YCBCR_ENC_DEFAULT(out_colorspace);
			want_quant = V4L2_MAP_QUANTIZATION_DEFAULT(
				!fmt->is_yuv, out_colorspace, want_enc);
		}
		if (fmt->is_yuv && side->enc)
			want_enc = side->enc;
		if (side->quant)
			want_quant = side->quant;

		cr_assert_eq(enc, want_enc, "CAPTURE encoding %u, not %u\n%s",
			     enc, want_enc, s->what);
		cr_assert_eq(quant, want_quant,
			     "CAPTURE quantization %u, not %u\n%s", quant,
			     want_quant, s->what);
	}
}

static void session_set_selection(struct session *s, int q,
				  const struct v4l2_rect *r)
{
	struct v4l2_selection sel = {
		.type = s->type[q],
		.target = q == OUT ? V4L2_SEL_TGT_CROP : V4L2_SEL_TGT_COMPOSE,
		.r = *r,
	};

	xioctl(s, VIDIOC_S_SELECTION, &sel);
	memset(&sel.r, 0, sizeof(sel.r));
	xioctl(s, VIDIOC_G_SELECTION, &sel);
	cr_assert(sel.r.left == r->left && sel.r.top == r->top &&
		  sel.r.width == r->width && sel.r.height == r->height,
		  "rectangle %d,%d %ux%u became %d,%d %ux%u\n%s", r->left,
		  r->top, r->width, r->height, sel.r.left, sel.r.top,
		  sel.r.width, sel.r.height, s->what);
}

static uint32_t plane_sizeimage(const struct session *s, int q,
				unsigned int p)
{
	return s->mplane ? s->fmt[q].fmt.pix_mp.plane_fmt[p].sizeimage :
			   s->fmt[q].fmt.pix.sizeimage;
}

/* One MMAP buffer on each queue, mapped; both queues streaming. */
static void session_start(struct session *s)
{
	for (int q = OUT; q <= CAP; q++) {
		struct v4l2_requestbuffers req = {
			.count = 1,
			.type = s->type[q],
			.memory = V4L2_MEMORY_MMAP,
		};
		struct v4l2_plane planes[VIDEO_MAX_PLANES];
		struct v4l2_buffer buf = {
			.type = s->type[q],
			.memory = V4L2_MEMORY_MMAP,
			.index = 0,
		};

		xioctl(s, VIDIOC_REQBUFS, &req);
		cr_assert_eq(req.count, 1, "%s", s->what);
		if (s->mplane) {
			buf.m.planes = planes;
			buf.length = VIDEO_MAX_PLANES;
		}
		xioctl(s, VIDIOC_QUERYBUF, &buf);
		for (unsigned int p = 0; p < s->mem_planes[q]; p++) {
			size_t len = s->mplane ? planes[p].length : buf.length;
			off_t off = s->mplane ? planes[p].m.mem_offset :
				    buf.m.offset;
			void *m = transport->mmap(NULL, len,
						  PROT_READ | PROT_WRITE,
						  MAP_SHARED, s->fd, off);

			cr_assert_neq(m, MAP_FAILED, "mmap: %s\n%s",
				      strerror(errno), s->what);
			cr_assert_geq(len, plane_sizeimage(s, q, p), "%s",
				      s->what);
			s->map[q][p] = m;
			s->map_len[q][p] = len;
		}
	}
	xioctl(s, VIDIOC_STREAMON, &s->type[OUT]);
	xioctl(s, VIDIOC_STREAMON, &s->type[CAP]);
}

static void session_qbuf(struct session *s, int q, uint32_t field)
{
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
	struct v4l2_buffer buf = {
		.type = s->type[q],
		.memory = V4L2_MEMORY_MMAP,
		.index = 0,
		.field = field,
	};

	memset(planes, 0, sizeof(planes));
	if (s->mplane) {
		buf.m.planes = planes;
		buf.length = s->mem_planes[q];
		for (unsigned int p = 0; p < s->mem_planes[q]; p++)
			planes[p].bytesused = q == OUT ?
					      plane_sizeimage(s, q, p) : 0;
	} else if (q == OUT) {
		buf.bytesused = plane_sizeimage(s, q, 0);
	}
	xioctl(s, VIDIOC_QBUF, &buf);
}

static void session_dqbuf(struct session *s, int q)
{
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
	struct v4l2_buffer buf = {
		.type = s->type[q],
		.memory = V4L2_MEMORY_MMAP,
	};

	if (s->mplane) {
		buf.m.planes = planes;
		buf.length = VIDEO_MAX_PLANES;
	}
	xioctl(s, VIDIOC_DQBUF, &buf);
	cr_assert_not(buf.flags & V4L2_BUF_FLAG_ERROR, "%s buffer error\n%s",
		      q == OUT ? "OUTPUT" : "CAPTURE", s->what);
	if (q == CAP) {
		cr_assert_eq(buf.field, V4L2_FIELD_NONE, "%s", s->what);
		for (unsigned int p = 0; p < s->mem_planes[q]; p++)
			cr_assert_eq(s->mplane ? planes[p].bytesused :
				     buf.bytesused, plane_sizeimage(s, q, p),
				     "plane %u\n%s", p, s->what);
	}
}

/*
 * One frame through the device: src holds each OUTPUT memory plane's
 * bytes; the CAPTURE planes are left in the mapping.
 */
static void session_frame(struct session *s, uint8_t *const src[],
			  uint32_t field)
{
	short revents;

	for (unsigned int p = 0; p < s->mem_planes[OUT]; p++)
		memcpy(s->map[OUT][p], src[p], plane_sizeimage(s, OUT, p));
	for (unsigned int p = 0; p < s->mem_planes[CAP]; p++)
		memset(s->map[CAP][p], CAPTURE_FILL,
		       plane_sizeimage(s, CAP, p));
	session_qbuf(s, OUT, field);
	session_qbuf(s, CAP, V4L2_FIELD_ANY);
	cr_assert_eq(transport->poll(s->fd, POLLIN, &revents, 10000), 1,
		     "no frame in 10 s\n%s", s->what);
	session_dqbuf(s, CAP);
	session_dqbuf(s, OUT);
}

static void session_close(struct session *s)
{
	for (int q = OUT; q <= CAP; q++) {
		struct v4l2_requestbuffers req = {
			.type = s->type[q],
			.memory = V4L2_MEMORY_MMAP,
		};

		xioctl(s, VIDIOC_STREAMOFF, &s->type[q]);
		for (unsigned int p = 0; p < s->mem_planes[q]; p++)
			if (s->map[q][p])
				transport->munmap(s->map[q][p],
						  s->map_len[q][p]);
		xioctl(s, VIDIOC_REQBUFS, &req);
	}
	transport->close(s->fd);
}

/*
 * The native side: an engine image for memory laid out as a V4L2 format
 * says, and its colorimetry as V4L2 defines it.
 */

static enum hqv_encoding engine_encoding(uint32_t enc)
{
	switch (enc) {
	case V4L2_YCBCR_ENC_601:
	case V4L2_YCBCR_ENC_XV601:
		return HQV_ENC_BT601;
	case V4L2_YCBCR_ENC_709:
	case V4L2_YCBCR_ENC_XV709:
		return HQV_ENC_BT709;
	case V4L2_YCBCR_ENC_BT2020:
	case V4L2_YCBCR_ENC_BT2020_CONST_LUM:
		return HQV_ENC_BT2020;
	}
	cr_assert_fail("Y'CbCr encoding %u is not one the cases use", enc);
	return HQV_ENC_BT601;
}

/* V4L2's field orders; INTERLACED is taken as TB (docs/vhqv.md). */
static enum hqv_field engine_field(uint32_t field, uint32_t buf_field)
{
	switch (field) {
	case V4L2_FIELD_NONE:
		return HQV_FIELD_NONE;
	case V4L2_FIELD_INTERLACED:
	case V4L2_FIELD_INTERLACED_TB:
		return HQV_FIELD_INTERLACED_TB;
	case V4L2_FIELD_INTERLACED_BT:
		return HQV_FIELD_INTERLACED_BT;
	case V4L2_FIELD_SEQ_TB:
		return HQV_FIELD_SEQ_TB;
	case V4L2_FIELD_SEQ_BT:
		return HQV_FIELD_SEQ_BT;
	case V4L2_FIELD_ALTERNATE:
		return buf_field == V4L2_FIELD_BOTTOM ?
		       HQV_FIELD_ALTERNATE_BOTTOM : HQV_FIELD_ALTERNATE_TOP;
	}
	cr_assert_fail("field %u is not one the cases use", field);
	return HQV_FIELD_NONE;
}

static void image_from_format(struct hqv_image *img, const struct session *s,
			      int q, uint8_t *const mem[], uint32_t buf_field)
{
	const struct v4l2_format *f = &s->fmt[q];
	uint32_t fourcc, width, height, field, colorspace, enc, quant;
	uint32_t bpl[HQV_MAX_PLANES] = { 0 }, size[HQV_MAX_PLANES];
	const struct hqv_format *fmt;
	size_t offset = 0;

	if (s->mplane) {
		const struct v4l2_pix_format_mplane *mp = &f->fmt.pix_mp;

		fourcc = mp->pixelformat;
		width = mp->width;
		height = mp->height;
		field = mp->field;
		colorspace = mp->colorspace;
		enc = mp->ycbcr_enc;
		quant = mp->quantization;
		for (unsigned int p = 0; p < mp->num_planes; p++)
			bpl[p] = mp->plane_fmt[p].bytesperline;
	} else {
		const struct v4l2_pix_format *pix = &f->fmt.pix;

		fourcc = pix->pixelformat;
		width = pix->width;
		height = pix->height;
		field = pix->field;
		colorspace = pix->colorspace;
		enc = pix->ycbcr_enc;
		quant = pix->quantization;
		bpl[0] = pix->bytesperline;
	}
	fmt = hqv_format_find(fourcc);
	memset(img, 0, sizeof(*img));
	img->fmt = fmt;
	img->width = width;
	/* An ALTERNATE buffer holds a field; the engine wants the frame. */
	img->height = field == V4L2_FIELD_ALTERNATE ? 2 * height : height;
	img->field = engine_field(field, buf_field);

	/* V4L2's layout: one buffer's planes follow each other. */
	hqv_format_layout(fmt, width, height, bpl, size);
	memcpy(img->bytesperline, bpl, sizeof(bpl));
	for (unsigned int p = 0; p < fmt->num_planes; p++) {
		if (fmt->mem_planes == 1) {
			img->planes[p] = mem[0] + offset;
			img->plane_size[p] = plane_sizeimage(s, q, 0) - offset;
			offset += size[p];
		} else {
			img->planes[p] = mem[p];
			img->plane_size[p] = plane_sizeimage(s, q, p);
			cr_assert_eq(plane_sizeimage(s, q, p), size[p],
				     "plane %u\n%s", p, s->what);
		}
	}
	if (fmt->mem_planes == 1)
		cr_assert_eq(plane_sizeimage(s, q, 0), offset, "%s", s->what);

	if (enc == V4L2_YCBCR_ENC_DEFAULT)
		enc = V4L2_MAP_YCBCR_ENC_DEFAULT(colorspace);
	if (quant == V4L2_QUANTIZATION_DEFAULT)
		quant = V4L2_MAP_QUANTIZATION_DEFAULT(!fmt->is_yuv, colorspace,
						      enc);
	img->encoding = engine_encoding(enc);
	img->quantization = quant == V4L2_QUANTIZATION_FULL_RANGE ?
			    HQV_QUANT_FULL : HQV_QUANT_LIMITED;
}

static struct hqv_rect engine_rect(const struct v4l2_rect *r)
{
	return (struct hqv_rect){ r->left, r->top, r->width, r->height };
}

/* Whether the engine reads job->prev (struct hqv_job). */
static bool uses_prev(const struct hqv_job *job)
{
	return job->src.field != HQV_FIELD_NONE &&
	       (job->deinterlace == HQV_DEINTERLACE_MOTION_ADAPTIVE ||
		job->src.field == HQV_FIELD_ALTERNATE_TOP ||
		job->src.field == HQV_FIELD_ALTERNATE_BOTTOM);
}

/* The job a case describes, run natively into dst. */
static void engine_frame(const struct job_case *c, const struct controls *k,
			 const struct session *s, uint8_t *const src[],
			 uint32_t field, const struct hqv_image *prev,
			 uint8_t *const dst[], struct hqv_image *src_img)
{
	struct hqv_job job = {
		.hflip = k->hflip,
		.vflip = k->vflip,
		.rotation = k->rotate,
		.scaler = (enum hqv_scaler)k->scaler,
		.procamp = { k->brightness, k->contrast, k->saturation,
			     k->hue },
		.background = k->background,
		.alpha = k->alpha,
		.deinterlace = (enum hqv_deinterlace)k->deinterlace,
	};
	void *scratch;

	image_from_format(&job.src, s, OUT, src, field);
	image_from_format(&job.dst, s, CAP, dst, V4L2_FIELD_NONE);
	job.crop = engine_rect(&c->crop);
	job.compose = engine_rect(&c->compose);
	/* The previous OUTPUT frame of this stream, if any. */
	if (uses_prev(&job))
		job.prev = prev;
	*src_img = job.src;

	cr_assert_eq(hqv_job_prepare(&job), 0, "engine refused\n%s", s->what);
	scratch = malloc(hqv_job_scratch_size(&job) + 1);
	cr_assert_not_null(scratch);
	hqv_job_run(&job, scratch, 0, job.dst.height);
	free(scratch);
}

/*
 * Deterministic pictures: xorshift32 noise, or a still picture (a
 * gradient with noise of up to 15 code values) crossed by a moving block
 * of noise, so motion-adaptive deinterlacing meets both.
 */
static uint32_t rng_next(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

static void fill_picture(uint8_t *p, size_t n, uint32_t bpl,
			 enum picture kind, unsigned int frame, uint32_t seed)
{
	uint32_t rng = seed * 2654435761u + frame * 40503u + 1;

	for (size_t i = 0; i < n; i++) {
		uint32_t x = i % bpl, y = i / bpl;
		uint32_t bx = 8 + 6 * frame, by = 4 + 3 * frame;
		uint32_t r = rng_next(&rng);

		if (kind == PICTURE_RANDOM ||
		    (x >= bx && x < bx + 20 && y >= by && y < by + 12))
			p[i] = r;
		else
			p[i] = 40 + (x * 3 + y * 2) % 160 + (r & 15);
	}
}

static uint32_t plane_pitch(const struct session *s, int q, unsigned int p)
{
	return s->mplane ? s->fmt[q].fmt.pix_mp.plane_fmt[p].bytesperline :
			   s->fmt[q].fmt.pix.bytesperline;
}

/* Report how the device's plane differs from the engine's. */
static bool planes_equal(const uint8_t *got, const uint8_t *want, size_t n,
			 uint32_t bpl, unsigned int plane, unsigned int frame,
			 const char *what)
{
	size_t first = n, count = 0;
	int worst = 0;

	for (size_t i = 0; i < n; i++) {
		int d = abs((int)got[i] - (int)want[i]);

		if (!d)
			continue;
		if (first == n)
			first = i;
		count++;
		worst = d > worst ? d : worst;
	}
	if (!count)
		return true;
	cr_expect_fail("frame %u plane %u: %zu of %zu bytes differ, most by %d; first at byte %zu (line %zu, byte %zu): device %u, engine %u\n%s",
		       frame, plane, count, n, worst, first, first / bpl,
		       first % bpl, got[first], want[first], what);
	return false;
}

/*
 * Run a case through the device and natively; count the frames that
 * differ.
 */
static void run_case(const struct job_case *c)
{
	uint8_t *src[MAX_FRAMES][VIDEO_MAX_PLANES] = { { NULL } };
	uint8_t *dst[VIDEO_MAX_PLANES] = { NULL };
	struct hqv_image src_img[MAX_FRAMES];
	struct session s;
	char what[512];

	cr_assert_leq(c->frames, MAX_FRAMES);
	describe(c, what, sizeof(what));
	session_open(&s, c->mplane, what);
	session_set_controls(&s, c->frame_ctrl ? &c->frame_ctrl[0] : &c->ctrl);
	session_set_format(&s, OUT, &c->out);
	session_set_format(&s, CAP, &c->cap);
	if (c->crop.width)
		session_set_selection(&s, OUT, &c->crop);
	if (c->compose.width)
		session_set_selection(&s, CAP, &c->compose);
	session_start(&s);

	for (unsigned int p = 0; p < s.mem_planes[CAP]; p++)
		dst[p] = malloc(plane_sizeimage(&s, CAP, p));
	for (unsigned int i = 0; i < c->frames; i++) {
		uint32_t field = c->out.field == V4L2_FIELD_ALTERNATE ?
				 c->buf_field[i] : c->out.field;
		const struct controls *k = c->frame_ctrl ? &c->frame_ctrl[i] :
					   &c->ctrl;
		bool equal = true;

		for (unsigned int p = 0; p < s.mem_planes[OUT]; p++) {
			size_t n = plane_sizeimage(&s, OUT, p);

			src[i][p] = malloc(n);
			cr_assert_not_null(src[i][p]);
			fill_picture(src[i][p], n, plane_pitch(&s, OUT, p),
				     i < c->random_frames ? PICTURE_RANDOM :
				     PICTURE_MOVING, i, c->seed + 7 * p);
		}
		if (i && c->frame_ctrl)
			session_set_controls(&s, k);
		session_frame(&s, src[i], field);

		for (unsigned int p = 0; p < s.mem_planes[CAP]; p++)
			memset(dst[p], CAPTURE_FILL,
			       plane_sizeimage(&s, CAP, p));
		engine_frame(c, k, &s, src[i], field,
			     i ? &src_img[i - 1] : NULL, dst, &src_img[i]);
		for (unsigned int p = 0; p < s.mem_planes[CAP]; p++)
			equal &= planes_equal(s.map[CAP][p], dst[p],
					      plane_sizeimage(&s, CAP, p),
					      plane_pitch(&s, CAP, p), p, i,
					      what);
		frames_run++;
		frames_differing += !equal;
	}
	session_close(&s);
	cases_run++;

	for (unsigned int i = 0; i < c->frames; i++)
		for (unsigned int p = 0; p < VIDEO_MAX_PLANES; p++)
			free(src[i][p]);
	for (unsigned int p = 0; p < VIDEO_MAX_PLANES; p++)
		free(dst[p]);
}

static void report(const char *test)
{
	fprintf(stderr, "identity.%s: %u cases, %u frames, %u differ\n", test,
		cases_run, frames_run, frames_differing);
	cr_assert_gt(cases_run, 0);
}

/*
 * The formats a node offers on a queue (ENUM_FMT); on the in-process
 * device, the single-planar node's are those of one memory plane.
 */
static unsigned int offered(bool mplane, int q, uint32_t *fourcc)
{
	struct session s;
	unsigned int n = 0;

	session_open(&s, mplane, "ENUM_FMT");
	for (unsigned int i = 0;; i++) {
		struct v4l2_fmtdesc d = { .index = i, .type = s.type[q] };
		const struct hqv_format *fmt;

		if (transport->ioctl(s.fd, VIDIOC_ENUM_FMT, &d))
			break;
		cr_assert_lt(n, MAX_FORMATS);
		fmt = hqv_format_find(d.pixelformat);
		cr_assert_not_null(fmt);
		if (mplane || fmt->mem_planes == 1)
			fourcc[n++] = d.pixelformat;
	}
	transport->close(s.fd);
	cr_assert_gt(n, 0);
	return n;
}

static struct side side_of(uint32_t fourcc, uint32_t width, uint32_t height)
{
	return (struct side){ .fourcc = fourcc, .width = width,
			      .height = height, .field = V4L2_FIELD_NONE };
}

static struct job_case simple_case(bool mplane, uint32_t in, uint32_t out,
				   uint32_t seed)
{
	return (struct job_case){
		.mplane = mplane,
		.out = side_of(in, W, H),
		.cap = side_of(out, W, H),
		.ctrl = DEFAULT_CONTROLS,
		.frames = 1,
		.random_frames = 1,
		.seed = seed,
	};
}

TestSuite(identity);

Test(identity, every_format_pair_of_the_single_planar_node)
{
	uint32_t in[MAX_FORMATS], out[MAX_FORMATS];
	unsigned int n_in = offered(false, OUT, in);
	unsigned int n_out = offered(false, CAP, out);

	for (unsigned int i = 0; i < n_in; i++) {
		for (unsigned int o = 0; o < n_out; o++) {
			struct job_case c = simple_case(false, in[i], out[o],
							i * 100 + o + 1);

			/* Noise, then a picture. */
			c.frames = 2;
			run_case(&c);
		}
	}
	report("formats");
}

static bool is_multi_buffer(uint32_t fourcc)
{
	return hqv_format_find(fourcc)->mem_planes > 1;
}

Test(identity, multi_planar_formats_to_and_from_every_other)
{
	uint32_t in[MAX_FORMATS], out[MAX_FORMATS];
	unsigned int n_in = offered(true, OUT, in);
	unsigned int n_out = offered(true, CAP, out);
	unsigned int multi = 0;

	for (unsigned int i = 0; i < n_in; i++) {
		multi += is_multi_buffer(in[i]);
		for (unsigned int o = 0; o < n_out; o++) {
			struct job_case c = simple_case(true, in[i], out[o],
							i * 100 + o + 1);

			if (!is_multi_buffer(in[i]) && !is_multi_buffer(out[o]))
				continue;
			c.frames = 2;
			run_case(&c);
		}
	}
	/* YUV420M, YVU420M and YUV444M at least (NV12M with semiplanar). */
	cr_assert_geq(multi, 3);
	report("mplane");
}

/*
 * Format pairs for the geometry and control cases: packed, planar 4:2:0
 * and 4:2:2, grey, 24-, 16- and 32-bit R'G'B', one buffer or several.
 */
static const struct {
	bool mplane;
	uint32_t in, out;
} geometry_pairs[] = {
	{ false, V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_YUYV },
	{ false, V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YUV420 },
	{ false, V4L2_PIX_FMT_XRGB32, V4L2_PIX_FMT_YUV422P },
	{ false, V4L2_PIX_FMT_YUV422P, V4L2_PIX_FMT_RGB24 },
	{ false, V4L2_PIX_FMT_GREY, V4L2_PIX_FMT_GREY },
	{ false, V4L2_PIX_FMT_RGB565, V4L2_PIX_FMT_ABGR32 },
	{ true, V4L2_PIX_FMT_YUV420M, V4L2_PIX_FMT_YUV444M },
	{ false, V4L2_PIX_FMT_NV12, V4L2_PIX_FMT_NV21 },
	{ true, V4L2_PIX_FMT_NV12M, V4L2_PIX_FMT_NV24 },
};

#define N_GEOMETRY_PAIRS ARRAY_SIZE(geometry_pairs)

static struct job_case pair_case(unsigned int i, uint32_t iw, uint32_t ih,
				 uint32_t ow, uint32_t oh, uint32_t seed)
{
	struct job_case c = simple_case(geometry_pairs[i].mplane,
					geometry_pairs[i].in,
					geometry_pairs[i].out, seed);

	c.out.width = iw;
	c.out.height = ih;
	c.cap.width = ow;
	c.cap.height = oh;
	/* A picture too: noise alone hides misplaced rows less well. */
	c.frames = 2;
	return c;
}

/*
 * vhqv's frames split across workers (debugfs split_frames), or 0 where
 * there are no statistics (the in-process device, whose pool
 * inprocess.threads checks).
 */
static unsigned long long split_frames(void)
{
	unsigned long long n = 0;
	char line[128];
	FILE *f;

	if (!single_planar_api)
		return 0;
	f = fopen("/sys/kernel/debug/vhqv/vhqv.0/stats", "r");
	if (!f) {
		mkdir("/sys/kernel/debug", 0755);
		cr_assert_eq(mount("none", "/sys/kernel/debug", "debugfs", 0,
				   NULL), 0, "mounting debugfs: %s",
			     strerror(errno));
		f = fopen("/sys/kernel/debug/vhqv/vhqv.0/stats", "r");
	}
	cr_assert_not_null(f, "vhqv's debugfs stats: %s", strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "split_frames: %llu", &n) == 1)
			break;
	fclose(f);
	return n;
}

/*
 * Frames large enough to be split across workers (engine/hqv.h,
 * HQV_PIXELS_PER_THREAD): the same bytes as the engine's in one piece.
 */
Test(identity, frames_split_across_workers)
{
	static const struct {
		unsigned int pair;
		uint32_t iw, ih, ow, oh;
		int32_t rotate, scaler;
	} big[] = {
		{ 3, 1280, 720, 1280, 720, 0, VHQV_SCALER_BILINEAR },
		{ 1, 1280, 720, 1920, 1080, 0, VHQV_SCALER_BILINEAR },
		{ 8, 1281, 721, 721, 1281, 90, VHQV_SCALER_BILINEAR },
		{ 2, 2560, 1440, 160, 4, 0, VHQV_SCALER_AREA },
	};
	unsigned long long before = split_frames();

	for (unsigned int i = 0; i < ARRAY_SIZE(big); i++) {
		struct job_case c = pair_case(big[i].pair, big[i].iw,
					      big[i].ih, big[i].ow,
					      big[i].oh, 900 + i);

		c.ctrl.rotate = big[i].rotate;
		c.ctrl.scaler = big[i].scaler;
		run_case(&c);
	}
	report("split");
	if (single_planar_api) {
		cr_assert_gt(sysconf(_SC_NPROCESSORS_ONLN), 1,
			     "the VM has one CPU: nothing to split across");
		cr_assert_geq(split_frames() - before, 2 * ARRAY_SIZE(big),
			      "vhqv split %llu of %zu frames across workers",
			      split_frames() - before, 2 * ARRAY_SIZE(big));
	}
}

Test(identity, every_rotation_and_flip)
{
	static const int32_t rotations[] = { 0, 90, 180, 270 };

	for (unsigned int i = 0; i < N_GEOMETRY_PAIRS; i++) {
		for (unsigned int r = 0; r < 4; r++) {
			for (unsigned int flip = 0; flip < 4; flip++) {
				bool turned = rotations[r] % 180;
				struct job_case c =
					pair_case(i, W, H, turned ? H : W,
						  turned ? W : H,
						  i * 16 + r * 4 + flip + 1);

				c.ctrl.rotate = rotations[r];
				c.ctrl.hflip = flip & 1;
				c.ctrl.vflip = flip >> 1;
				run_case(&c);
			}
		}
	}
	report("orientation");
}

Test(identity, scaling_with_each_scaler_and_independent_ratios)
{
	static const struct {
		uint32_t iw, ih, ow, oh;
		int32_t rotate;
	} sizes[] = {
		{ 64, 48, 32, 24, 0 },		/* half */
		{ 64, 48, 16, 12, 0 },		/* a quarter */
		{ 64, 48, 96, 72, 0 },		/* 1.5x: past one band */
		{ 48, 32, 128, 40, 0 },		/* x 2.67, y 1.25 */
		{ 64, 48, 24, 80, 0 },		/* x down, y up */
		{ 64, 48, 62, 46, 0 },		/* nearly 1 */
		{ 64, 48, 30, 100, 90 },	/* turned, then scaled */
	};
	static const unsigned int pairs[] = { 0, 1, 2, 3, 6 };

	for (unsigned int pi = 0; pi < ARRAY_SIZE(pairs); pi++) {
		for (unsigned int z = 0; z < ARRAY_SIZE(sizes); z++) {
			for (int32_t scaler = VHQV_SCALER_NEAREST;
			     scaler <= VHQV_SCALER_AREA; scaler++) {
				uint32_t seed = pi * 100 + z * 4 + scaler + 1;
				struct job_case c =
					pair_case(pairs[pi], sizes[z].iw,
						  sizes[z].ih, sizes[z].ow,
						  sizes[z].oh, seed);

				c.ctrl.scaler = scaler;
				c.ctrl.rotate = sizes[z].rotate;
				run_case(&c);
			}
		}
	}
	report("scaling");
}

Test(identity, crop_and_compose_with_a_background_colour)
{
	static const struct v4l2_rect crops[] = {
		{ 0, 0, 0, 0 }, { 6, 4, 40, 30 }, { 2, 10, 62, 36 },
		{ 0, 0, 2, 2 }, { 62, 46, 2, 2 },
	};
	static const struct v4l2_rect composes[] = {
		{ 0, 0, 0, 0 }, { 10, 8, 30, 20 }, { 34, 26, 30, 22 },
		{ 0, 0, 64, 2 },
	};
	static const int32_t backgrounds[] = {
		0x3366cc, 0xff0000, 0x00ff80, 0xffffff,
	};
	static const struct {
		uint32_t in, out;
		int32_t alpha;
	} pairs[] = {
		{ V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_YUV420, 255 },
		{ V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_ARGB32, 128 },
		{ V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_YVYU, 255 },
		{ V4L2_PIX_FMT_GREY, V4L2_PIX_FMT_RGB565, 255 },
		{ V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YUV420, 255 },
		{ V4L2_PIX_FMT_NV24, V4L2_PIX_FMT_NV12, 255 },
	};
	unsigned int n = 0;

	for (unsigned int pi = 0; pi < ARRAY_SIZE(pairs); pi++) {
		for (unsigned int k = 0; k < ARRAY_SIZE(crops); k++) {
			for (unsigned int m = 0; m < ARRAY_SIZE(composes);
			     m++) {
				struct job_case c = simple_case(false,
								pairs[pi].in,
								pairs[pi].out,
								++n);

				c.crop = crops[k];
				c.compose = composes[m];
				c.ctrl.alpha = pairs[pi].alpha;
				c.ctrl.background = backgrounds[n % 4];
				run_case(&c);
			}
		}
	}

	/* Crop and compose with a turn, a flip and another filter. */
	struct job_case c = simple_case(true, V4L2_PIX_FMT_YVU420M,
					V4L2_PIX_FMT_BGRA32, ++n);

	c.cap.width = H;
	c.cap.height = W;
	c.crop = (struct v4l2_rect){ 4, 2, 50, 40 };
	c.compose = (struct v4l2_rect){ 6, 12, 36, 40 };
	c.ctrl.rotate = 270;
	c.ctrl.hflip = 1;
	c.ctrl.scaler = VHQV_SCALER_AREA;
	c.ctrl.background = 0x123456;
	c.ctrl.alpha = 9;
	run_case(&c);
	report("crop_compose");
}

Test(identity, every_encoding_and_range_pair_by_set_csc_or_the_colour_rule)
{
	static const uint32_t encs[] = {
		V4L2_YCBCR_ENC_601, V4L2_YCBCR_ENC_709, V4L2_YCBCR_ENC_BT2020,
	};
	static const uint32_t quants[] = {
		V4L2_QUANTIZATION_LIM_RANGE, V4L2_QUANTIZATION_FULL_RANGE,
	};
	static const uint32_t pairs[][2] = {
		{ V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_YUV420 },
		{ V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_XRGB32 },
		{ V4L2_PIX_FMT_XRGB32, V4L2_PIX_FMT_YUYV },
		{ V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGRX32 },
	};
	/* And V4L2's defaults, for each colorspace that has its own. */
	static const uint32_t colorspaces[] = {
		V4L2_COLORSPACE_SMPTE170M, V4L2_COLORSPACE_REC709,
		V4L2_COLORSPACE_BT2020, V4L2_COLORSPACE_JPEG,
		V4L2_COLORSPACE_SRGB,
	};
	unsigned int n = 0;

	for (unsigned int pi = 0; pi < 4; pi++) {
		for (unsigned int e = 0; e < 9; e++) {
			for (unsigned int q = 0; q < 4; q++) {
				struct job_case c = simple_case(false,
								pairs[pi][0],
								pairs[pi][1],
								++n);

				c.out.colorspace = V4L2_COLORSPACE_REC709;
				c.out.enc = encs[e / 3];
				c.out.quant = quants[q / 2];
				c.cap.set_csc = true;
				c.cap.enc = encs[e % 3];
				c.cap.quant = quants[q % 2];
				run_case(&c);
			}
		}
		/*
		 * Tagged OUTPUT, and CAPTURE left to the colour rule or
		 * asking without SET_CSC, as GStreamer does.
		 */
		for (unsigned int e = 0; e < 12; e++) {
			struct job_case c = simple_case(false, pairs[pi][0],
							pairs[pi][1], ++n);

			c.out.colorspace = V4L2_COLORSPACE_SMPTE170M;
			c.out.enc = encs[e / 4];
			c.out.quant = quants[e / 2 % 2];
			if (e % 2) {
				c.cap.enc = encs[(e / 4 + 1) % 3];
				c.cap.quant = quants[(e / 2 + 1) % 2];
			}
			run_case(&c);
		}
		for (unsigned int k = 0; k < 5; k++) {
			struct job_case c = simple_case(false, pairs[pi][0],
							pairs[pi][1], ++n);

			c.out.colorspace = colorspaces[k];
			run_case(&c);
		}
	}
	report("csc");
}

Test(identity, every_deinterlace_mode_and_field_order_over_frames)
{
	static const uint32_t fields[] = {
		V4L2_FIELD_INTERLACED, V4L2_FIELD_INTERLACED_TB,
		V4L2_FIELD_INTERLACED_BT, V4L2_FIELD_SEQ_TB, V4L2_FIELD_SEQ_BT,
		V4L2_FIELD_ALTERNATE,
	};
	static const struct {
		bool mplane;
		uint32_t in, out;
	} pairs[] = {
		{ false, V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_YUYV },
		{ false, V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YUV420 },
		{ false, V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_XRGB32 },
		{ true, V4L2_PIX_FMT_YUV420M, V4L2_PIX_FMT_UYVY },
		{ false, V4L2_PIX_FMT_NV12, V4L2_PIX_FMT_NV16 },
		{ true, V4L2_PIX_FMT_NV21M, V4L2_PIX_FMT_YUV420M },
	};
	/*
	 * ALTERNATE buffers: fields alternate, then one repeats (its prev
	 * holds the same field, not the other one).
	 */
	static const uint32_t alternate[2][MAX_FRAMES] = {
		{ V4L2_FIELD_TOP, V4L2_FIELD_BOTTOM, V4L2_FIELD_TOP,
		  V4L2_FIELD_BOTTOM, V4L2_FIELD_BOTTOM, V4L2_FIELD_TOP },
		{ V4L2_FIELD_BOTTOM, V4L2_FIELD_TOP, V4L2_FIELD_BOTTOM,
		  V4L2_FIELD_TOP, V4L2_FIELD_TOP, V4L2_FIELD_BOTTOM },
	};
	unsigned int n = 0;

	for (unsigned int pi = 0; pi < ARRAY_SIZE(pairs); pi++) {
		for (unsigned int f = 0; f < 6; f++) {
			for (int32_t mode = VHQV_DEINTERLACE_WEAVE;
			     mode <= VHQV_DEINTERLACE_MOTION_ADAPTIVE; mode++) {
				struct job_case c =
					simple_case(pairs[pi].mplane,
						    pairs[pi].in,
						    pairs[pi].out, ++n);

				c.out.field = fields[f];
				if (fields[f] == V4L2_FIELD_ALTERNATE)
					c.out.height = H / 2;
				memcpy(c.buf_field, alternate[n % 2],
				       sizeof(c.buf_field));
				c.ctrl.deinterlace = mode;
				c.frames = MAX_FRAMES;
				c.random_frames = 0;
				/* Crop in frame lines, also for fields. */
				if (pi == 1)
					c.crop = (struct v4l2_rect){ 4, 6, 48,
								     30 };
				run_case(&c);
			}
		}
	}
	report("deinterlace");
}

Test(identity, procamp_in_every_colour_direction)
{
	static const struct hqv_procamp settings[] = {
		{ 30, 0, 0, 0 }, { 0, -40, 0, 0 }, { 0, 0, 60, 0 },
		{ 0, 0, 0, 45 }, { -20, 25, -50, -120 },
		{ 127, 127, 127, 180 }, { -128, -128, -128, -180 },
		{ 5, 90, -128, 90 },
	};
	static const uint32_t pairs[][2] = {
		{ V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_YUV420 },
		{ V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_XRGB32 },
		{ V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24 },
		{ V4L2_PIX_FMT_XRGB32, V4L2_PIX_FMT_YUYV },
		{ V4L2_PIX_FMT_GREY, V4L2_PIX_FMT_RGB24 },
	};
	unsigned int n = 0;

	for (unsigned int pi = 0; pi < 5; pi++) {
		for (unsigned int k = 0; k < 8; k++) {
			struct job_case c = simple_case(false, pairs[pi][0],
							pairs[pi][1], ++n);

			c.ctrl.brightness = settings[k].brightness;
			c.ctrl.contrast = settings[k].contrast;
			c.ctrl.saturation = settings[k].saturation;
			c.ctrl.hue = settings[k].hue;
			c.frames = 2;
			run_case(&c);
		}
	}
	report("procamp");
}

Test(identity, alpha_component_into_every_alpha_format)
{
	static const int32_t alphas[] = { 0, 77, 255 };
	static const uint32_t in[] = {
		V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_ARGB32,
		V4L2_PIX_FMT_RGBA32,
	};
	static const uint32_t out[] = {
		V4L2_PIX_FMT_ARGB32, V4L2_PIX_FMT_ABGR32, V4L2_PIX_FMT_RGBA32,
		V4L2_PIX_FMT_BGRA32,
	};
	unsigned int n = 0;

	for (unsigned int a = 0; a < 3; a++) {
		for (unsigned int i = 0; i < 4; i++) {
			for (unsigned int o = 0; o < 4; o++) {
				struct job_case c = simple_case(false, in[i],
								out[o], ++n);

				c.ctrl.alpha = alphas[a];
				run_case(&c);
			}
		}
	}
	report("alpha");
}

Test(identity, padded_bytesperline_on_both_queues)
{
	uint32_t fmts[MAX_FORMATS];
	unsigned int n_fmts = offered(false, OUT, fmts);
	unsigned int n = 0;
	static const struct {
		uint32_t fourcc;
		uint32_t pad[HQV_MAX_PLANES];
	} multi[] = {
		{ V4L2_PIX_FMT_YUV420M, { 16, 40, 8 } },
		{ V4L2_PIX_FMT_YVU420M, { 8, 8, 24 } },
		{ V4L2_PIX_FMT_YUV444M, { 4, 12, 36 } },
		{ V4L2_PIX_FMT_YUYV, { 20 } },
		{ V4L2_PIX_FMT_XRGB32, { 36 } },
		{ V4L2_PIX_FMT_YUV420, { 24 } },
		{ V4L2_PIX_FMT_NV12M, { 12, 20 } },
		{ V4L2_PIX_FMT_NV21M, { 6, 2 } },
	};
	const unsigned int n_multi = ARRAY_SIZE(multi);

	/* Every single-planar format, to itself and converted. */
	for (unsigned int i = 0; i < n_fmts; i++) {
		const struct hqv_format *fmt = hqv_format_find(fmts[i]);
		uint32_t other = fmt->is_yuv ? V4L2_PIX_FMT_XRGB32 :
				 V4L2_PIX_FMT_YUV420;
		struct job_case c = simple_case(false, fmts[i], fmts[i], ++n);

		c.out.pad[0] = 24;
		c.cap.pad[0] = 40;
		run_case(&c);
		c = simple_case(false, fmts[i], other, ++n);
		c.out.pad[0] = 48;
		c.cap.pad[0] = 16;
		run_case(&c);
		c = simple_case(false, other, fmts[i], ++n);
		c.out.pad[0] = 8;
		c.cap.pad[0] = 32;
		run_case(&c);
	}
	/* Each plane its own padding, on the multi-planar node. */
	for (unsigned int i = 0; i < n_multi; i++) {
		for (unsigned int o = 0; o < n_multi; o++) {
			struct job_case c = simple_case(true, multi[i].fourcc,
							multi[o].fourcc, ++n);

			if (!is_multi_buffer(multi[i].fourcc) &&
			    !is_multi_buffer(multi[o].fourcc))
				continue;
			memcpy(c.out.pad, multi[i].pad, sizeof(c.out.pad));
			memcpy(c.cap.pad, multi[o].pad, sizeof(c.cap.pad));
			/* Not the same pitch as the same format on OUTPUT. */
			c.cap.pad[0] += 4;
			run_case(&c);
		}
	}
	report("padding");
}

/*
 * Odd sizes, as real pictures have: each side keeps the size asked for
 * (session_set_format() checks), chroma rounds up, and the device's bytes
 * are the engine's.
 */
static struct job_case odd_case(bool mplane, uint32_t in, uint32_t iw,
				uint32_t ih, uint32_t out, uint32_t ow,
				uint32_t oh, uint32_t seed)
{
	struct job_case c = simple_case(mplane, in, out, seed);

	c.out.width = iw;
	c.out.height = ih;
	c.cap.width = ow;
	c.cap.height = oh;
	return c;
}

/*
 * A photo's size both ways through 4:2:0, one buffer and several; the
 * single samples of 1x1, 3x1 and 1x3 (half a YUYV macropixel); the other
 * layouts at 45x27; turns of odd 4:2:0, which take the engine's pipeline
 * rather than a direct row.
 */
Test(identity, odd_sizes_through_every_layout_and_turn)
{
	static const struct {
		bool mplane;
		uint32_t in, iw, ih, out, ow, oh;
		int32_t rotate;
	} cases[] = {
		{ false, V4L2_PIX_FMT_RGB24, 451, 427, V4L2_PIX_FMT_NV12,
		  451, 427, 0 },
		{ false, V4L2_PIX_FMT_NV12, 451, 427, V4L2_PIX_FMT_RGB24,
		  451, 427, 0 },
		{ true, V4L2_PIX_FMT_RGB24, 451, 427, V4L2_PIX_FMT_YUV420M,
		  451, 427, 0 },
		{ true, V4L2_PIX_FMT_YUV420M, 451, 427, V4L2_PIX_FMT_YUYV,
		  451, 427, 0 },
		{ false, V4L2_PIX_FMT_YUV420, 63, 427, V4L2_PIX_FMT_YUV420,
		  427, 63, 90 },
		{ false, V4L2_PIX_FMT_YUV420, 63, 427, V4L2_PIX_FMT_NV12,
		  63, 427, 180 },
		{ true, V4L2_PIX_FMT_NV12M, 45, 27, V4L2_PIX_FMT_YVU420M,
		  27, 45, 270 },
		{ false, V4L2_PIX_FMT_GREY, 45, 27, V4L2_PIX_FMT_GREY,
		  27, 45, 90 },
		{ false, V4L2_PIX_FMT_GREY, 1, 1, V4L2_PIX_FMT_GREY, 1, 1, 0 },
		{ false, V4L2_PIX_FMT_GREY, 1, 1, V4L2_PIX_FMT_YUYV, 1, 1, 0 },
		{ false, V4L2_PIX_FMT_YUV420, 1, 1, V4L2_PIX_FMT_RGB24,
		  1, 1, 0 },
		{ false, V4L2_PIX_FMT_YUYV, 3, 1, V4L2_PIX_FMT_YUYV, 3, 1, 0 },
		{ false, V4L2_PIX_FMT_YUYV, 3, 1, V4L2_PIX_FMT_NV12, 3, 1, 0 },
		{ false, V4L2_PIX_FMT_RGB24, 3, 1, V4L2_PIX_FMT_UYVY, 3, 1, 0 },
		{ false, V4L2_PIX_FMT_YUV420, 1, 3, V4L2_PIX_FMT_XRGB32,
		  1, 3, 0 },
		{ false, V4L2_PIX_FMT_UYVY, 45, 27, V4L2_PIX_FMT_YUV422P,
		  45, 27, 0 },
		{ false, V4L2_PIX_FMT_XRGB32, 45, 27, V4L2_PIX_FMT_YVYU,
		  45, 27, 0 },
		{ false, V4L2_PIX_FMT_NV24, 45, 27, V4L2_PIX_FMT_NV61,
		  45, 27, 0 },
		{ true, V4L2_PIX_FMT_YUV444M, 45, 27, V4L2_PIX_FMT_NV21M,
		  45, 27, 0 },
		{ false, V4L2_PIX_FMT_RGB565, 45, 27, V4L2_PIX_FMT_VYUY,
		  45, 27, 0 },
	};
	unsigned int n = 0;

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		for (unsigned int flip = 0; flip < (cases[i].iw > 3 ? 2 : 1);
		     flip++) {
			struct job_case c = odd_case(cases[i].mplane,
						     cases[i].in, cases[i].iw,
						     cases[i].ih, cases[i].out,
						     cases[i].ow, cases[i].oh,
						     ++n);

			c.ctrl.rotate = cases[i].rotate;
			c.ctrl.hflip = flip;
			run_case(&c);
		}
	}
	report("odd_sizes");
}

/* Each scaler up and down between odd sizes; odd rectangles. */
Test(identity, odd_sizes_scaled_cropped_and_composed)
{
	static const struct {
		uint32_t iw, ih, ow, oh;
	} sizes[] = {
		{ 45, 27, 31, 17 }, { 45, 27, 91, 55 }, { 31, 17, 46, 27 },
	};
	static const unsigned int pairs[] = { 0, 1, 6 };
	static const struct v4l2_rect crops[] = {
		{ 3, 5, 31, 19 }, { 1, 0, 44, 27 }, { 44, 26, 1, 1 },
	};
	static const struct v4l2_rect composes[] = {
		{ 7, 3, 21, 11 }, { 0, 1, 45, 26 }, { 0, 0, 0, 0 },
	};
	unsigned int n = 0;

	for (unsigned int pi = 0; pi < ARRAY_SIZE(pairs); pi++) {
		for (unsigned int z = 0; z < ARRAY_SIZE(sizes); z++) {
			for (int32_t scaler = VHQV_SCALER_NEAREST;
			     scaler <= VHQV_SCALER_AREA; scaler++) {
				struct job_case c =
					pair_case(pairs[pi], sizes[z].iw,
						  sizes[z].ih, sizes[z].ow,
						  sizes[z].oh, ++n);

				c.ctrl.scaler = scaler;
				run_case(&c);
			}
		}
	}
	for (unsigned int k = 0; k < ARRAY_SIZE(crops); k++) {
		for (unsigned int m = 0; m < ARRAY_SIZE(composes); m++) {
			struct job_case c = odd_case(false, V4L2_PIX_FMT_YUYV,
						     45, 27,
						     V4L2_PIX_FMT_YUV420, 45,
						     27, ++n);

			c.crop = crops[k];
			c.compose = composes[m];
			c.ctrl.background = 0x3366cc;
			run_case(&c);
		}
	}
	report("odd_scaling_crop_compose");
}

/*
 * Interlaced sources of an odd width (their heights stay whole fields),
 * and odd sizes with padded pitches: one buffer's luma pitch rounds up to
 * even, each plane of several buffers takes its own.
 */
Test(identity, odd_widths_of_fields_and_padded_odd_sizes)
{
	static const uint32_t fields[] = {
		V4L2_FIELD_INTERLACED_TB, V4L2_FIELD_SEQ_BT,
		V4L2_FIELD_ALTERNATE,
	};
	static const uint32_t formats[] = {
		V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_YUV420,
	};
	static const uint32_t alternate[MAX_FRAMES] = {
		V4L2_FIELD_TOP, V4L2_FIELD_BOTTOM, V4L2_FIELD_TOP,
		V4L2_FIELD_BOTTOM,
	};
	unsigned int n = 0;

	for (unsigned int f = 0; f < ARRAY_SIZE(formats); f++) {
		for (unsigned int i = 0; i < ARRAY_SIZE(fields); i++) {
			for (int32_t mode = VHQV_DEINTERLACE_BOB;
			     mode <= VHQV_DEINTERLACE_BLEND; mode++) {
				struct job_case c =
					odd_case(false, formats[f], 45, H,
						 formats[f], 45, H, ++n);

				c.out.field = fields[i];
				if (fields[i] == V4L2_FIELD_ALTERNATE)
					c.out.height = H / 2;
				memcpy(c.buf_field, alternate,
				       sizeof(c.buf_field));
				c.ctrl.deinterlace = mode;
				c.frames = 4;
				c.random_frames = 0;
				run_case(&c);
			}
		}
	}
	for (unsigned int pad = 0; pad < 3; pad++) {
		struct job_case c = odd_case(false, V4L2_PIX_FMT_YUV420, 451,
					     27, V4L2_PIX_FMT_YUYV, 451, 27,
					     ++n);

		c.out.pad[0] = 2 * pad + 1;
		c.cap.pad[0] = 4 * pad + 3;
		run_case(&c);
		c = odd_case(true, V4L2_PIX_FMT_YUV420M, 45, 27,
			     V4L2_PIX_FMT_NV12M, 45, 27, ++n);
		c.out.pad[0] = pad + 1;
		c.out.pad[1] = 2 * pad + 3;
		c.out.pad[2] = pad;
		c.cap.pad[0] = 3;
		c.cap.pad[1] = pad + 1;
		run_case(&c);
	}
	report("odd_fields_padding");
}

/*
 * Controls changed between the frames of one stream apply from the next
 * frame; motion-adaptive deinterlacing compares with the previous OUTPUT
 * frame even when that frame was deinterlaced in another mode.
 */
Test(identity, controls_changed_while_streaming_apply_from_the_next_frame)
{
	static const struct controls turns[MAX_FRAMES] = {
		{ .alpha = 255, .deinterlace = 1, .scaler = 1 },
		{ .alpha = 40, .deinterlace = 1, .scaler = 0, .hflip = 1,
		  .rotate = 180, .background = 0x804020 },
		{ .alpha = 255, .deinterlace = 1, .scaler = 2, .vflip = 1,
		  .brightness = 20, .hue = 30 },
		{ .alpha = 0, .deinterlace = 1, .scaler = 1, .rotate = 180,
		  .contrast = -30, .saturation = 50 },
		{ .alpha = 255, .deinterlace = 1, .scaler = 0, .hflip = 1,
		  .vflip = 1, .background = 0xffffff },
		{ .alpha = 255, .deinterlace = 1, .scaler = 1 },
	};
	static const int32_t modes[][MAX_FRAMES] = {
		{ 1, 3, 1, 3, 0, 3 },
		{ 0, 2, 3, 3, 1, 3 },
	};
	static const uint32_t fields[] = {
		V4L2_FIELD_INTERLACED_TB, V4L2_FIELD_SEQ_BT,
		V4L2_FIELD_ALTERNATE,
	};
	struct controls ctrl[MAX_FRAMES];
	unsigned int n = 0;

	/* Orientation, filter, colour and alpha, frame by frame. */
	struct job_case c = simple_case(false, V4L2_PIX_FMT_YUYV,
					V4L2_PIX_FMT_ARGB32, ++n);

	c.cap.width = 40;
	c.cap.height = 36;
	c.compose = (struct v4l2_rect){ 4, 2, 32, 30 };
	c.frames = MAX_FRAMES;
	c.frame_ctrl = turns;
	run_case(&c);

	/* The deinterlacing mode, frame by frame. */
	for (unsigned int m = 0; m < 2; m++) {
		for (unsigned int f = 0; f < 3; f++) {
			c = simple_case(f == 2, f == 2 ? V4L2_PIX_FMT_YUV420M :
					V4L2_PIX_FMT_YUV420,
					V4L2_PIX_FMT_YUYV, ++n);
			c.out.field = fields[f];
			if (fields[f] == V4L2_FIELD_ALTERNATE)
				c.out.height = H / 2;
			for (unsigned int i = 0; i < MAX_FRAMES; i++) {
				ctrl[i] = (struct controls)DEFAULT_CONTROLS;
				ctrl[i].deinterlace = modes[m][i];
				c.buf_field[i] = i % 2 ? V4L2_FIELD_BOTTOM :
						 V4L2_FIELD_TOP;
			}
			c.frames = MAX_FRAMES;
			c.random_frames = 0;
			c.frame_ctrl = ctrl;
			run_case(&c);
		}
	}
	report("controls_midstream");
}
