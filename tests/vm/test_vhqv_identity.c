// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Output identity of the vhqv device, in the test VM (scripts/vm-run): for a
 * matrix of jobs, the bytes vhqv returns on CAPTURE equal, byte for byte,
 * what the engine computes natively in this process on the same input.
 *
 * The device runs the very engine this test links (hqv_engine), so any
 * difference is the driver describing a job differently from what the
 * application asked for: a wrong plane offset or pitch, colorimetry, field
 * order, rectangle, control value or previous frame. The native job is
 * therefore built from what V4L2 and docs/vhqv.md promise (the formats as
 * the driver reports them, V4L2's rules for DEFAULT colorimetry, the
 * controls as set), never from the driver's own code.
 *
 * Everything goes through raw V4L2 ioctls (struct session below): one open
 * file per case, MMAP buffers, one buffer per queue, frames one at a time.
 * Sizes are small (64x48 and around) so the whole matrix stays well under a
 * minute in the TCG guest.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/videodev2.h>
#include <m2m/vhqv.h>

#include "hqv.h"

#define W 64
#define H 48
#define MAX_FORMATS 64
#define MAX_FRAMES 6
/* Capture buffers are filled with this before each frame: the engine must
 * leave line padding alone, natively and in the device alike. */
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
	/* Frames in sequence; the first RANDOM ones are noise, the rest
	 * a still picture with noise and a moving block (for deinterlacing). */
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
	const struct controls *k = &c->ctrl;
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

	cr_assert_not_null(path, "%s is not set: run in the test VM", var);
	return path;
}

static void session_open(struct session *s, bool mplane, const char *what)
{
	memset(s, 0, sizeof(*s));
	s->what = what;
	s->mplane = mplane;
	s->type[OUT] = mplane ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE :
				V4L2_BUF_TYPE_VIDEO_OUTPUT;
	s->type[CAP] = mplane ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE :
				V4L2_BUF_TYPE_VIDEO_CAPTURE;
	s->fd = open(node_path(mplane), O_RDWR);
	cr_assert_geq(s->fd, 0, "open %s: %s", node_path(mplane),
		      strerror(errno));
}

#define xioctl(s, req, arg)						\
	cr_assert_eq(ioctl((s)->fd, req, arg), 0, "%s: %s\n%s", #req,	\
		     strerror(errno), (s)->what)

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
		.count = sizeof(ctl) / sizeof(ctl[0]),
		.controls = ctl,
	};
	int32_t want[sizeof(ctl) / sizeof(ctl[0])];

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
	uint32_t got_bpl, enc, quant;

	cr_assert_not_null(fmt);
	min_pitches(fmt, side->width, side->height, bpl);
	for (unsigned int p = 0; p < fmt->mem_planes; p++)
		bpl[p] += side->pad[p];
	if (s->mplane) {
		struct v4l2_pix_format_mplane *mp = &f.fmt.pix_mp;

		mp->width = side->width;
		mp->height = side->height;
		mp->pixelformat = side->fourcc;
		mp->field = q == OUT ? side->field : V4L2_FIELD_NONE;
		mp->colorspace = side->colorspace;
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
		pix->colorspace = side->colorspace;
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

		cr_assert_eq(field, side->field, "%s", s->what);
		cr_assert_eq(enc, side->enc, "%s", s->what);
		cr_assert_eq(quant, side->quant, "%s", s->what);
	} else {
		const struct v4l2_format *o = &s->fmt[OUT];
		uint32_t out_enc = s->mplane ? o->fmt.pix_mp.ycbcr_enc :
				   o->fmt.pix.ycbcr_enc;
		uint32_t out_quant = s->mplane ? o->fmt.pix_mp.quantization :
				     o->fmt.pix.quantization;

		/* CAPTURE keeps OUTPUT's unless it asked for its own. */
		cr_assert_eq(enc, side->set_csc && fmt->is_yuv ? side->enc :
			     out_enc, "%s", s->what);
		cr_assert_eq(quant, side->set_csc ? side->quant : out_quant,
			     "%s", s->what);
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
			void *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
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
	struct pollfd pfd = { .fd = s->fd, .events = POLLIN };

	for (unsigned int p = 0; p < s->mem_planes[OUT]; p++)
		memcpy(s->map[OUT][p], src[p], plane_sizeimage(s, OUT, p));
	for (unsigned int p = 0; p < s->mem_planes[CAP]; p++)
		memset(s->map[CAP][p], CAPTURE_FILL, plane_sizeimage(s, CAP, p));
	session_qbuf(s, OUT, field);
	session_qbuf(s, CAP, V4L2_FIELD_ANY);
	cr_assert_eq(poll(&pfd, 1, 10000), 1, "no frame in 10 s\n%s", s->what);
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
				munmap(s->map[q][p], s->map_len[q][p]);
		xioctl(s, VIDIOC_REQBUFS, &req);
	}
	close(s->fd);
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
static void engine_frame(const struct job_case *c, const struct session *s,
			 uint8_t *const src[], uint32_t field,
			 const struct hqv_image *prev, uint8_t *const dst[],
			 struct hqv_image *src_img)
{
	const struct controls *k = &c->ctrl;
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

/* Deterministic pictures: xorshift32 noise, or a still picture (a
 * gradient with noise of up to 15 code values) crossed by a moving block
 * of noise, so motion-adaptive deinterlacing meets both. */
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

/* Run a case through the device and natively; count the frames that
 * differ. */
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
	session_set_controls(&s, &c->ctrl);
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
		bool equal = true;

		for (unsigned int p = 0; p < s.mem_planes[OUT]; p++) {
			size_t n = plane_sizeimage(&s, OUT, p);

			src[i][p] = malloc(n);
			cr_assert_not_null(src[i][p]);
			fill_picture(src[i][p], n, plane_pitch(&s, OUT, p),
				     i < c->random_frames ? PICTURE_RANDOM :
				     PICTURE_MOVING, i, c->seed + 7 * p);
		}
		session_frame(&s, src[i], field);

		for (unsigned int p = 0; p < s.mem_planes[CAP]; p++)
			memset(dst[p], CAPTURE_FILL,
			       plane_sizeimage(&s, CAP, p));
		engine_frame(c, &s, src[i], field, i ? &src_img[i - 1] : NULL,
			     dst, &src_img[i]);
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

/* The formats a node offers on a queue (ENUM_FMT). */
static unsigned int offered(bool mplane, int q, uint32_t *fourcc)
{
	struct session s;
	unsigned int n = 0;

	session_open(&s, mplane, "ENUM_FMT");
	for (;;) {
		struct v4l2_fmtdesc d = { .index = n, .type = s.type[q] };

		if (ioctl(s.fd, VIDIOC_ENUM_FMT, &d))
			break;
		cr_assert_lt(n, MAX_FORMATS);
		cr_assert_not_null(hqv_format_find(d.pixelformat));
		fourcc[n++] = d.pixelformat;
	}
	close(s.fd);
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
