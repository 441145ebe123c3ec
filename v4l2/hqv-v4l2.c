// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vhqv's V4L2 semantics, shared by vhqv.ko and libm2m's in-process device
 * (hqv-v4l2.h). Formats are kept as struct v4l2_pix_format_mplane; the
 * single-planar API converts from and to it, so there is one try/set path.
 * The OUTPUT format and its CROP rectangle describe the source, the
 * CAPTURE format and its COMPOSE rectangle the destination: the crop is
 * scaled into the compose rectangle (docs/vhqv.md).
 */
#include "hqv-v4l2.h"

/*
 * Formats
 */

/*
 * The single-planar node offers the formats whose planes share one buffer
 * (NV12, not NV12M), the multi-planar node all of them; the semi-planar
 * family unless vhqv's semiplanar parameter is off (docs/vhqv.md: Debian
 * 12's old v4l2-compliance fails today's kernels' names for it).
 */
bool vhqv_offers(const struct vhqv_offer *offer,
		 const struct hqv_format *fmt)
{
	if (fmt->family == HQV_FAMILY_SEMIPLANAR &&
	    !(offer->formats & VHQV_OFFER_SEMIPLANAR))
		return false;
	return (offer->formats & VHQV_OFFER_MPLANE) || fmt->mem_planes == 1;
}

const struct hqv_format *vhqv_format_at(const struct vhqv_offer *offer,
					unsigned int index)
{
	const struct hqv_format *fmt;
	unsigned int i;

	for (i = 0; (fmt = hqv_format_at(i)); i++)
		if (vhqv_offers(offer, fmt) && index-- == 0)
			return fmt;
	return NULL;
}

const struct hqv_format *vhqv_format_find(const struct vhqv_offer *offer,
					  uint32_t fourcc)
{
	const struct hqv_format *fmt = hqv_format_find(fourcc);

	return fmt && vhqv_offers(offer, fmt) ? fmt : NULL;
}

/* The format of a new context on both queues: offered by both nodes. */
static const struct hqv_format *default_format(void)
{
	return hqv_format_find(V4L2_PIX_FMT_YUYV);
}

int vhqv_enum_fmt(const struct vhqv_offer *offer, struct v4l2_fmtdesc *f)
{
	const struct hqv_format *fmt = vhqv_format_at(offer, f->index);

	if (!fmt)
		return -EINVAL;
	f->pixelformat = fmt->fourcc;
	/* CAPTURE converts to another encoding or range on request. */
	if (!V4L2_TYPE_IS_OUTPUT(f->type)) {
		f->flags = V4L2_FMT_FLAG_CSC_QUANTIZATION;
		if (fmt->is_yuv)
			f->flags |= V4L2_FMT_FLAG_CSC_YCBCR_ENC;
	}
	return 0;
}

int vhqv_enum_framesizes(const struct vhqv_offer *offer,
			 struct v4l2_frmsizeenum *fsize)
{
	if (fsize->index || !vhqv_format_find(offer, fsize->pixel_format))
		return -EINVAL;

	/* Every size in the range: CONTINUOUS, whose steps V4L2 wants 1. */
	fsize->type = V4L2_FRMSIZE_TYPE_CONTINUOUS;
	fsize->stepwise.min_width = HQV_MIN_WIDTH;
	fsize->stepwise.max_width = offer->max_size;
	fsize->stepwise.step_width = 1;
	fsize->stepwise.min_height = HQV_MIN_HEIGHT;
	fsize->stepwise.max_height = offer->max_size;
	fsize->stepwise.step_height = 1;
	return 0;
}

/* A size clamped into the engine's range and the node's largest size. */
static void clamp_size(const struct vhqv_offer *offer, uint32_t *width,
		       uint32_t *height)
{
	hqv_format_clamp_size(width, height);
	if (*width > offer->max_size)
		*width = offer->max_size;
	if (*height > offer->max_size)
		*height = offer->max_size;
}

uint32_t vhqv_frame_height(const struct vhqv_q_data *q)
{
	return q->field == V4L2_FIELD_ALTERNATE ? 2 * q->height : q->height;
}

/*
 * Fill in the layout of a queue for its format and size, keeping each
 * requested line pitch that is large enough.
 */
static void q_data_layout(struct vhqv_q_data *q, const uint32_t *bytesperline)
{
	const struct hqv_format *fmt = q->fmt;
	uint32_t total;
	unsigned int p;

	memset(q->bytesperline, 0, sizeof(q->bytesperline));
	for (p = 0; p < fmt->mem_planes; p++)
		q->bytesperline[p] = bytesperline ? bytesperline[p] : 0;
	total = hqv_format_layout(fmt, q->width, q->height, q->bytesperline,
				  q->plane_bytes);
	memset(q->sizeimage, 0, sizeof(q->sizeimage));
	if (fmt->mem_planes == 1)
		q->sizeimage[0] = total;
	else
		memcpy(q->sizeimage, q->plane_bytes, sizeof(q->sizeimage));
}

/* Whether a ROTATE value turns the picture to portrait. */
static bool is_portrait(uint32_t rotation)
{
	return rotation == 90 || rotation == 270;
}

static void rect_full(struct v4l2_rect *r, uint32_t width, uint32_t height)
{
	r->left = 0;
	r->top = 0;
	r->width = width;
	r->height = height;
}

/* The size CAPTURE takes by default: the crop, turned by ROTATE. */
static void capture_default_size(const struct vhqv_config *cfg,
				 uint32_t *width, uint32_t *height)
{
	const struct v4l2_rect *crop = &cfg->q[VHQV_SRC].rect;
	bool turned = is_portrait(cfg->rotation);

	*width = turned ? crop->height : crop->width;
	*height = turned ? crop->width : crop->height;
}

/*
 * Colorimetry (docs/vhqv.md, "Colour")
 */

/* Colorspaces V4L2 defines, less the deprecated BT878. */
static bool colorspace_valid(uint32_t colorspace)
{
	return colorspace && colorspace <= V4L2_COLORSPACE_DCI_P3 &&
	       colorspace != V4L2_COLORSPACE_BT878;
}

static bool xfer_func_valid(uint32_t xfer_func)
{
	return xfer_func && xfer_func <= V4L2_XFER_FUNC_SMPTE2084;
}

/* The encodings the engine converts to as V4L2 names them. */
static bool encoding_made(uint32_t enc)
{
	return enc == V4L2_YCBCR_ENC_601 || enc == V4L2_YCBCR_ENC_709 ||
	       enc == V4L2_YCBCR_ENC_BT2020;
}

static bool quantization_made(uint32_t quant)
{
	return quant == V4L2_QUANTIZATION_LIM_RANGE ||
	       quant == V4L2_QUANTIZATION_FULL_RANGE;
}

/* A queue's encoding and quantization, DEFAULT read in its colorspace. */
static uint32_t resolved_enc(const struct vhqv_q_data *q)
{
	return q->ycbcr_enc ? q->ycbcr_enc :
	       V4L2_MAP_YCBCR_ENC_DEFAULT(q->colorspace);
}

static uint32_t resolved_quant(const struct vhqv_q_data *q)
{
	return q->quantization ? q->quantization :
	       V4L2_MAP_QUANTIZATION_DEFAULT(!q->fmt->is_yuv, q->colorspace,
					     resolved_enc(q));
}

/*
 * The one colour rule: CAPTURE's encoding and quantization where the
 * application asks for none, for dst's format and colorspace. When both
 * queues hold the same kind of samples (Y'CbCr or R'G'B'), OUTPUT's:
 * v4l2-compliance's testM2MFormats wants that (DEFAULT stays DEFAULT, the
 * default of CAPTURE's colorspace, which GStreamer's probing expects when
 * it asks CAPTURE for another colorspace). Across kinds, what V4L2
 * defines for the CAPTURE format in its colorspace (R'G'B' is full range),
 * as mainline's imx-pxp does: OUTPUT's quantization describes Y'CbCr
 * samples, and would wash out R'G'B' ones.
 */
static void capture_colour(const struct vhqv_config *cfg,
			   struct vhqv_q_data *dst)
{
	const struct vhqv_q_data *src = &cfg->q[VHQV_SRC];

	if (src->fmt->is_yuv == dst->fmt->is_yuv) {
		dst->ycbcr_enc = src->ycbcr_enc;
		dst->quantization = src->quantization;
		return;
	}
	dst->ycbcr_enc = V4L2_MAP_YCBCR_ENC_DEFAULT(dst->colorspace);
	dst->quantization = V4L2_MAP_QUANTIZATION_DEFAULT(!dst->fmt->is_yuv,
							  dst->colorspace,
							  dst->ycbcr_enc);
}

/*
 * Whether a CAPTURE format asks for colorimetry of its own. It gets what
 * it asks for, with V4L2_PIX_FMT_FLAG_SET_CSC or without: GStreamer 1.22
 * asks for its caps' colorimetry without the flag, and fails when it gets
 * another. The engine converts to the encodings and quantizations it
 * makes; a colorspace or transfer function is a label it keeps, as
 * GStreamer's videoconvert and FFmpeg's swscale do by default.
 */
static bool capture_colour_asked(const struct hqv_format *fmt,
				 const struct v4l2_pix_format_mplane *pix)
{
	return colorspace_valid(pix->colorspace) ||
	       xfer_func_valid(pix->xfer_func) ||
	       (fmt->is_yuv && encoding_made(pix->ycbcr_enc)) ||
	       quantization_made(pix->quantization);
}

/* CAPTURE's colorimetry for a request: what it asks for, else the rule's. */
static void capture_colorimetry(const struct vhqv_config *cfg,
				const struct v4l2_pix_format_mplane *pix,
				struct vhqv_q_data *q)
{
	const struct vhqv_q_data *src = &cfg->q[VHQV_SRC];

	q->colorspace = colorspace_valid(pix->colorspace) ? pix->colorspace :
			src->colorspace;
	q->xfer_func = xfer_func_valid(pix->xfer_func) ? pix->xfer_func :
		       src->xfer_func;
	capture_colour(cfg, q);
	if (q->fmt->is_yuv && encoding_made(pix->ycbcr_enc))
		q->ycbcr_enc = pix->ycbcr_enc;
	if (quantization_made(pix->quantization))
		q->quantization = pix->quantization;
}

/*
 * The size of the source (turned), the whole frame composed, and the
 * colour rule's encoding and quantization unless CAPTURE asked for its own.
 */
void vhqv_capture_follow(struct vhqv_config *cfg)
{
	struct vhqv_q_data *dst = &cfg->q[VHQV_DST];

	capture_default_size(cfg, &dst->width, &dst->height);
	q_data_layout(dst, NULL);
	rect_full(&dst->rect, dst->width, dst->height);
	if (!cfg->csc_set) {
		dst->colorspace = cfg->q[VHQV_SRC].colorspace;
		dst->xfer_func = cfg->q[VHQV_SRC].xfer_func;
		capture_colour(cfg, dst);
	}
}

/* The controls' defaults included: V4L2 sets them at open. */
void vhqv_config_init(const struct vhqv_offer *offer,
		      struct vhqv_config *cfg)
{
	struct vhqv_q_data *src = &cfg->q[VHQV_SRC];
	unsigned int i;

	memset(cfg, 0, sizeof(*cfg));
	src->fmt = default_format();
	src->width = VHQV_DEF_WIDTH;
	src->height = VHQV_DEF_HEIGHT;
	clamp_size(offer, &src->width, &src->height);
	src->field = V4L2_FIELD_NONE;
	q_data_layout(src, NULL);
	rect_full(&src->rect, src->width, src->height);
	src->colorspace = V4L2_COLORSPACE_REC709;
	cfg->q[VHQV_DST] = *src;
	for (i = 0; i < VHQV_NUM_CTRLS; i++)
		vhqv_config_set_ctrl(cfg, vhqv_ctrls[i].id, vhqv_ctrls[i].def);
}

static const struct vhqv_q_data *q_data_of(const struct vhqv_config *cfg,
					   uint32_t type)
{
	return &cfg->q[V4L2_TYPE_IS_OUTPUT(type) ? VHQV_SRC : VHQV_DST];
}

void vhqv_get_fmt(const struct vhqv_config *cfg, uint32_t type,
		  struct v4l2_pix_format_mplane *pix)
{
	const struct vhqv_q_data *q = q_data_of(cfg, type);
	unsigned int p;

	memset(pix->reserved, 0, sizeof(pix->reserved));
	pix->width = q->width;
	pix->height = q->height;
	pix->pixelformat = q->fmt->fourcc;
	pix->field = q->field;
	pix->num_planes = q->fmt->mem_planes;
	for (p = 0; p < pix->num_planes; p++) {
		pix->plane_fmt[p].bytesperline = q->bytesperline[p];
		pix->plane_fmt[p].sizeimage = q->sizeimage[p];
		memset(pix->plane_fmt[p].reserved, 0,
		       sizeof(pix->plane_fmt[p].reserved));
	}
	pix->colorspace = q->colorspace;
	pix->xfer_func = q->xfer_func;
	pix->ycbcr_enc = q->ycbcr_enc;
	pix->quantization = q->quantization;
	pix->flags = 0;
}

static bool field_supported(uint32_t field)
{
	switch (field) {
	case V4L2_FIELD_NONE:
	case V4L2_FIELD_INTERLACED:
	case V4L2_FIELD_INTERLACED_TB:
	case V4L2_FIELD_INTERLACED_BT:
	case V4L2_FIELD_SEQ_TB:
	case V4L2_FIELD_SEQ_BT:
	case V4L2_FIELD_ALTERNATE:
		return true;
	}
	return false;
}

static uint32_t valid_or_default(uint32_t v, uint32_t max)
{
	return v <= max ? v : 0;
}

/*
 * Correct a format into one the device takes, as the V4L2 spec asks: an
 * unknown fourcc becomes the default, sizes are clamped into the engine's
 * range and the node's largest size (CAPTURE's may differ from OUTPUT's:
 * the device scales), a line pitch below the minimum is raised to it.
 * OUTPUT takes every field order the engine deinterlaces (4:2:0 fields
 * need an even field height); CAPTURE is progressive, with the
 * colorimetry it asks for (capture_colour_asked()) or else OUTPUT's
 * colorspace and the rule's.
 */
void vhqv_try_fmt(const struct vhqv_offer *offer,
		  const struct vhqv_config *cfg,
		  uint32_t type, struct v4l2_pix_format_mplane *pix)
{
	const struct hqv_format *fmt = vhqv_format_find(offer,
							 pix->pixelformat);
	uint32_t bytesperline[HQV_MAX_PLANES] = { 0 };
	struct vhqv_q_data q = { 0 };
	bool asked = false;
	unsigned int p;

	if (!fmt)
		fmt = default_format();
	for (p = 0; p < fmt->mem_planes && p < pix->num_planes; p++)
		bytesperline[p] = pix->plane_fmt[p].bytesperline;

	q.fmt = fmt;
	q.width = pix->width;
	if (V4L2_TYPE_IS_OUTPUT(type)) {
		q.field = field_supported(pix->field) ? pix->field :
			  V4L2_FIELD_NONE;
		if (q.field != V4L2_FIELD_ALTERNATE)
			q.height = pix->height;
		else if (pix->height > UINT32_MAX / 2)
			q.height = UINT32_MAX / 2 * 2;
		else
			q.height = pix->height * 2;
		clamp_size(offer, &q.width, &q.height);
		/*
		 * Progressive frames take any size; fields need as many
		 * lines each, and 4:2:0 fields whole chroma rows
		 * (docs/engine.md).
		 */
		if (q.field != V4L2_FIELD_NONE) {
			uint32_t unit = 2 * fmt->vsub;

			q.height = q.height < unit ? unit :
				   q.height - q.height % unit;
		}
		if (q.field == V4L2_FIELD_ALTERNATE)
			q.height /= 2;
		q.colorspace = colorspace_valid(pix->colorspace) ?
			       pix->colorspace : fmt->is_yuv ?
			       V4L2_COLORSPACE_REC709 : V4L2_COLORSPACE_SRGB;
		q.xfer_func = valid_or_default(pix->xfer_func,
					       V4L2_XFER_FUNC_SMPTE2084);
		q.ycbcr_enc = valid_or_default(pix->ycbcr_enc,
					       V4L2_YCBCR_ENC_SMPTE240M);
		q.quantization = valid_or_default(pix->quantization,
						  V4L2_QUANTIZATION_LIM_RANGE);
	} else {
		q.height = pix->height;
		q.field = V4L2_FIELD_NONE;
		clamp_size(offer, &q.width, &q.height);
		asked = capture_colour_asked(fmt, pix);
		capture_colorimetry(cfg, pix, &q);
	}
	q_data_layout(&q, bytesperline);

	pix->pixelformat = fmt->fourcc;
	pix->width = q.width;
	pix->height = q.height;
	pix->field = q.field;
	pix->num_planes = fmt->mem_planes;
	for (p = 0; p < fmt->mem_planes; p++) {
		pix->plane_fmt[p].bytesperline = q.bytesperline[p];
		pix->plane_fmt[p].sizeimage = q.sizeimage[p];
		memset(pix->plane_fmt[p].reserved, 0,
		       sizeof(pix->plane_fmt[p].reserved));
	}
	pix->colorspace = q.colorspace;
	pix->xfer_func = q.xfer_func;
	pix->ycbcr_enc = q.ycbcr_enc;
	pix->quantization = q.quantization;
	/* SET_CSC is kept where it was honoured. */
	pix->flags &= asked ? V4L2_PIX_FMT_FLAG_SET_CSC : 0;
	memset(pix->reserved, 0, sizeof(pix->reserved));
}

static void pix_mp_to_q_data(const struct v4l2_pix_format_mplane *pix,
			     struct vhqv_q_data *q)
{
	uint32_t bytesperline[HQV_MAX_PLANES] = { 0 };
	unsigned int p;

	q->fmt = hqv_format_find(pix->pixelformat);
	q->width = pix->width;
	q->height = pix->height;
	q->field = pix->field;
	q->colorspace = pix->colorspace;
	q->xfer_func = pix->xfer_func;
	q->ycbcr_enc = pix->ycbcr_enc;
	q->quantization = pix->quantization;
	for (p = 0; p < pix->num_planes; p++)
		bytesperline[p] = pix->plane_fmt[p].bytesperline;
	q_data_layout(q, bytesperline);
	rect_full(&q->rect, q->width, vhqv_frame_height(q));
}

void vhqv_set_fmt(const struct vhqv_offer *offer, struct vhqv_config *cfg,
		  uint32_t type, struct v4l2_pix_format_mplane *pix)
{
	struct v4l2_pix_format_mplane asked = *pix;

	vhqv_try_fmt(offer, cfg, type, pix);
	if (!V4L2_TYPE_IS_OUTPUT(type)) {
		pix_mp_to_q_data(pix, &cfg->q[VHQV_DST]);
		/* Kept through turns, until OUTPUT is set again. */
		cfg->csc_set = capture_colour_asked(cfg->q[VHQV_DST].fmt,
						    &asked);
		return;
	}
	pix_mp_to_q_data(pix, &cfg->q[VHQV_SRC]);
	cfg->csc_set = false;
	vhqv_capture_follow(cfg);
}

void vhqv_pix_to_mp(const struct v4l2_pix_format *pix,
		    struct v4l2_pix_format_mplane *mp)
{
	memset(mp, 0, sizeof(*mp));
	mp->width = pix->width;
	mp->height = pix->height;
	mp->pixelformat = pix->pixelformat;
	mp->field = pix->field;
	mp->colorspace = pix->colorspace;
	mp->xfer_func = pix->xfer_func;
	mp->ycbcr_enc = pix->ycbcr_enc;
	mp->quantization = pix->quantization;
	mp->flags = pix->flags;
	mp->num_planes = 1;
	mp->plane_fmt[0].bytesperline = pix->bytesperline;
	mp->plane_fmt[0].sizeimage = pix->sizeimage;
}

void vhqv_mp_to_pix(const struct v4l2_pix_format_mplane *mp,
		    struct v4l2_pix_format *pix)
{
	pix->width = mp->width;
	pix->height = mp->height;
	pix->pixelformat = mp->pixelformat;
	pix->field = mp->field;
	pix->colorspace = mp->colorspace;
	pix->xfer_func = mp->xfer_func;
	pix->ycbcr_enc = mp->ycbcr_enc;
	pix->quantization = mp->quantization;
	pix->flags = mp->flags;
	pix->bytesperline = mp->plane_fmt[0].bytesperline;
	pix->sizeimage = mp->plane_fmt[0].sizeimage;
	pix->priv = V4L2_PIX_FMT_PRIV_MAGIC;
}

/*
 * Selection: CROP on OUTPUT (in frame lines, also for ALTERNATE fields),
 * COMPOSE on CAPTURE. The engine takes any rectangle inside its image, so
 * a rectangle is only ever kept inside its frame and at least 1x1.
 */

static bool selection_target_ok(uint32_t type, uint32_t target)
{
	if (V4L2_TYPE_IS_OUTPUT(type))
		return target == V4L2_SEL_TGT_CROP ||
		       target == V4L2_SEL_TGT_CROP_DEFAULT ||
		       target == V4L2_SEL_TGT_CROP_BOUNDS;
	return target == V4L2_SEL_TGT_COMPOSE ||
	       target == V4L2_SEL_TGT_COMPOSE_DEFAULT ||
	       target == V4L2_SEL_TGT_COMPOSE_BOUNDS ||
	       target == V4L2_SEL_TGT_COMPOSE_PADDED;
}

/* Selection names the single-planar types for both APIs. */
static uint32_t selection_type(uint32_t type)
{
	switch (type) {
	case V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE:
		return V4L2_BUF_TYPE_VIDEO_OUTPUT;
	case V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE:
		return V4L2_BUF_TYPE_VIDEO_CAPTURE;
	}
	return type;
}

int vhqv_get_selection(const struct vhqv_config *cfg, struct v4l2_selection *s)
{
	uint32_t type = selection_type(s->type);
	const struct vhqv_q_data *q;

	if ((type != V4L2_BUF_TYPE_VIDEO_OUTPUT &&
	     type != V4L2_BUF_TYPE_VIDEO_CAPTURE) ||
	    !selection_target_ok(type, s->target))
		return -EINVAL;

	q = q_data_of(cfg, type);
	if (s->target == V4L2_SEL_TGT_CROP || s->target == V4L2_SEL_TGT_COMPOSE)
		s->r = q->rect;
	else
		rect_full(&s->r, q->width, vhqv_frame_height(q));
	return 0;
}

static int32_t clamp_s32(int32_t v, int32_t lo, int32_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static uint32_t clamp_u32(uint32_t v, uint32_t lo, uint32_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * One axis of a rectangle, its start and length, into a frame of size
 * samples. With no flag, or V4L2_SEL_FLAG_LE (never larger than asked,
 * but for the one sample a rectangle needs), a rectangle that does not
 * fit keeps its start and shrinks. With V4L2_SEL_FLAG_GE (never smaller;
 * with LE too, exactly as asked) it keeps its length, up to the frame's,
 * and moves inside: V4L2 puts the flags before the position.
 */
static void clamp_axis(int32_t *start, uint32_t *length, uint32_t size,
		       uint32_t flags)
{
	if (flags & V4L2_SEL_FLAG_GE) {
		*length = clamp_u32(*length, 1, size);
		*start = clamp_s32(*start, 0, (int32_t)(size - *length));
		return;
	}
	*start = clamp_s32(*start, 0, (int32_t)size - 1);
	*length = clamp_u32(*length, 1, size - *start);
}

static void clamp_rect(struct v4l2_rect *r, uint32_t width, uint32_t height,
		       uint32_t flags)
{
	clamp_axis(&r->left, &r->width, width, flags);
	clamp_axis(&r->top, &r->height, height, flags);
}

int vhqv_set_selection(struct vhqv_config *cfg, struct v4l2_selection *s)
{
	uint32_t type = selection_type(s->type);
	struct vhqv_q_data *q;

	if ((type != V4L2_BUF_TYPE_VIDEO_OUTPUT ||
	     s->target != V4L2_SEL_TGT_CROP) &&
	    (type != V4L2_BUF_TYPE_VIDEO_CAPTURE ||
	     s->target != V4L2_SEL_TGT_COMPOSE))
		return -EINVAL;

	q = &cfg->q[V4L2_TYPE_IS_OUTPUT(type) ? VHQV_SRC : VHQV_DST];
	clamp_rect(&s->r, q->width, vhqv_frame_height(q), s->flags);
	q->rect = s->r;
	return 0;
}

/*
 * Controls: each open file has its own. A value applies from the next
 * job, except a ROTATE that turns the picture between landscape and
 * portrait while CAPTURE has buffers, which is a geometry change.
 */

/* The uAPI's menu values are the engine's (checked in vhqv-ctrls.c). */
static const char * const scaler_menu[] = {
	[VHQV_SCALER_NEAREST] = "Nearest",
	[VHQV_SCALER_BILINEAR] = "Bilinear",
	[VHQV_SCALER_AREA] = "Area",
	NULL,
};

static const char * const deinterlacing_menu[] = {
	[VHQV_DEINTERLACE_WEAVE] = "Weave",
	[VHQV_DEINTERLACE_BOB] = "Bob",
	[VHQV_DEINTERLACE_BLEND] = "Blend",
	[VHQV_DEINTERLACE_MOTION_ADAPTIVE] = "Motion Adaptive",
	NULL,
};

/*
 * In the order of their ids, as V4L2_CTRL_FLAG_NEXT_CTRL lists them. The
 * names and flags of the standard ones are V4L2's (v4l2_ctrl_fill()).
 */
const struct vhqv_ctrl vhqv_ctrls[VHQV_NUM_CTRLS] = {
	{ V4L2_CID_BRIGHTNESS, "Brightness", V4L2_CTRL_TYPE_INTEGER,
	  -128, 127, 1, 0, V4L2_CTRL_FLAG_SLIDER, NULL, true },
	{ V4L2_CID_CONTRAST, "Contrast", V4L2_CTRL_TYPE_INTEGER,
	  -128, 127, 1, 0, V4L2_CTRL_FLAG_SLIDER, NULL, true },
	{ V4L2_CID_SATURATION, "Saturation", V4L2_CTRL_TYPE_INTEGER,
	  -128, 127, 1, 0, V4L2_CTRL_FLAG_SLIDER, NULL, true },
	{ V4L2_CID_HUE, "Hue", V4L2_CTRL_TYPE_INTEGER,
	  -180, 180, 1, 0, V4L2_CTRL_FLAG_SLIDER, NULL, true },
	{ V4L2_CID_HFLIP, "Horizontal Flip", V4L2_CTRL_TYPE_BOOLEAN,
	  0, 1, 1, 0, 0, NULL, true },
	{ V4L2_CID_VFLIP, "Vertical Flip", V4L2_CTRL_TYPE_BOOLEAN,
	  0, 1, 1, 0, 0, NULL, true },
	{ V4L2_CID_ROTATE, "Rotate", V4L2_CTRL_TYPE_INTEGER,
	  0, 270, 90, 0, 0, NULL, true },
	{ V4L2_CID_ALPHA_COMPONENT, "Alpha Component", V4L2_CTRL_TYPE_INTEGER,
	  0, 255, 1, 255, 0, NULL, true },
	{ V4L2_CID_VHQV_SCALER, "Scaling Filter", V4L2_CTRL_TYPE_MENU,
	  0, VHQV_SCALER_AREA, 0, VHQV_SCALER_BILINEAR, 0, scaler_menu,
	  false },
	{ V4L2_CID_VHQV_BACKGROUND, "Background Colour", V4L2_CTRL_TYPE_INTEGER,
	  0, 0xffffff, 1, 0, 0, NULL, false },
	{ V4L2_CID_DEINTERLACING_MODE, "Deinterlacing Mode",
	  V4L2_CTRL_TYPE_MENU, 0, VHQV_DEINTERLACE_MOTION_ADAPTIVE, 0,
	  VHQV_DEINTERLACE_BOB, 0, deinterlacing_menu, true },
};

bool vhqv_config_set_ctrl(struct vhqv_config *cfg, uint32_t id, int32_t val)
{
	switch (id) {
	case V4L2_CID_HFLIP:
		cfg->hflip = val;
		break;
	case V4L2_CID_VFLIP:
		cfg->vflip = val;
		break;
	case V4L2_CID_ROTATE:
		cfg->rotation = val;
		break;
	case V4L2_CID_ALPHA_COMPONENT:
		cfg->alpha = val;
		break;
	case V4L2_CID_BRIGHTNESS:
		cfg->procamp.brightness = val;
		break;
	case V4L2_CID_CONTRAST:
		cfg->procamp.contrast = val;
		break;
	case V4L2_CID_SATURATION:
		cfg->procamp.saturation = val;
		break;
	case V4L2_CID_HUE:
		cfg->procamp.hue = val;
		break;
	case V4L2_CID_DEINTERLACING_MODE:
		cfg->deinterlace = val;
		break;
	case V4L2_CID_VHQV_SCALER:
		cfg->scaler = val;
		break;
	case V4L2_CID_VHQV_BACKGROUND:
		cfg->background = val;
		break;
	default:
		return false;
	}
	return true;
}

/*
 * Buffers and jobs
 */

int vhqv_out_field(const struct vhqv_q_data *q, uint32_t *field)
{
	if (*field == V4L2_FIELD_ANY)
		*field = q->field == V4L2_FIELD_ALTERNATE ? V4L2_FIELD_TOP :
			 q->field;
	if (q->field == V4L2_FIELD_ALTERNATE)
		return *field == V4L2_FIELD_TOP ||
		       *field == V4L2_FIELD_BOTTOM ? 0 : -EINVAL;
	return *field == q->field ? 0 : -EINVAL;
}

static enum hqv_field engine_field(uint32_t field, uint32_t buf_field)
{
	switch (field) {
	case V4L2_FIELD_ALTERNATE:
		return buf_field == V4L2_FIELD_BOTTOM ?
		       HQV_FIELD_ALTERNATE_BOTTOM : HQV_FIELD_ALTERNATE_TOP;
	case V4L2_FIELD_INTERLACED_BT:
		return HQV_FIELD_INTERLACED_BT;
	case V4L2_FIELD_INTERLACED:
	case V4L2_FIELD_INTERLACED_TB:
		return HQV_FIELD_INTERLACED_TB;
	case V4L2_FIELD_SEQ_TB:
		return HQV_FIELD_SEQ_TB;
	case V4L2_FIELD_SEQ_BT:
		return HQV_FIELD_SEQ_BT;
	}
	return HQV_FIELD_NONE;
}

/* V4L2's colorimetry, DEFAULT values mapped as the V4L2 macros say. */
static void image_colour(struct hqv_image *img, const struct vhqv_q_data *q)
{
	uint32_t quant = resolved_quant(q);

	switch (resolved_enc(q)) {
	case V4L2_YCBCR_ENC_709:
	case V4L2_YCBCR_ENC_XV709:
		img->encoding = HQV_ENC_BT709;
		break;
	case V4L2_YCBCR_ENC_BT2020:
	case V4L2_YCBCR_ENC_BT2020_CONST_LUM:
		img->encoding = HQV_ENC_BT2020;
		break;
	default:
		img->encoding = HQV_ENC_BT601;
		break;
	}
	img->quantization = quant == V4L2_QUANTIZATION_FULL_RANGE ?
			    HQV_QUANT_FULL : HQV_QUANT_LIMITED;
}

/*
 * One-buffer formats keep their planes one after the other; others have a
 * buffer per plane, each from its data_offset on OUTPUT.
 */
void vhqv_image_init(struct hqv_image *img, const struct vhqv_config *cfg,
		     unsigned int queue, uint8_t *const mem[],
		     const size_t size[], const uint32_t offset[],
		     uint32_t buf_field)
{
	const struct vhqv_q_data *q = &cfg->q[queue];
	const struct hqv_format *fmt = q->fmt;
	size_t next = 0;
	unsigned int p;

	memset(img, 0, sizeof(*img));
	img->fmt = fmt;
	img->width = q->width;
	img->height = vhqv_frame_height(q);
	memcpy(img->bytesperline, q->bytesperline, sizeof(img->bytesperline));
	for (p = 0; p < fmt->num_planes; p++) {
		unsigned int mp = fmt->mem_planes == 1 ? 0 : p;
		size_t start = queue == VHQV_SRC ? offset[mp] : 0;

		if (fmt->mem_planes == 1) {
			start += next;
			next += q->plane_bytes[p];
		}
		img->planes[p] = mem[mp] + start;
		img->plane_size[p] = size[mp] > start ? size[mp] - start : 0;
	}
	img->field = engine_field(q->field, buf_field);
	image_colour(img, q);
}

void vhqv_job_from_config(struct hqv_job *job, const struct vhqv_config *cfg)
{
	const struct v4l2_rect *crop = &cfg->q[VHQV_SRC].rect;
	const struct v4l2_rect *compose = &cfg->q[VHQV_DST].rect;

	job->crop = (struct hqv_rect){ crop->left, crop->top, crop->width,
				       crop->height };
	job->compose = (struct hqv_rect){ compose->left, compose->top,
					  compose->width, compose->height };
	job->hflip = cfg->hflip;
	job->vflip = cfg->vflip;
	job->rotation = cfg->rotation;
	job->scaler = cfg->scaler;
	job->procamp = cfg->procamp;
	job->background = cfg->background;
	job->alpha = cfg->alpha;
	job->deinterlace = cfg->deinterlace;
}

uint32_t vhqv_plane_length(uint32_t memory, uint32_t size)
{
	if (memory != V4L2_MEMORY_MMAP || size >= VHQV_MIN_PLANE_LENGTH)
		return size;
	return VHQV_MIN_PLANE_LENGTH;
}

bool vhqv_job_needs_prev(const struct hqv_job *job)
{
	return job->src.field != HQV_FIELD_NONE &&
	       (job->deinterlace == HQV_DEINTERLACE_MOTION_ADAPTIVE ||
		job->src.field == HQV_FIELD_ALTERNATE_TOP ||
		job->src.field == HQV_FIELD_ALTERNATE_BOTTOM);
}

size_t vhqv_prev_size(const struct vhqv_q_data *q)
{
	size_t total = 0;
	unsigned int p;

	for (p = 0; p < q->fmt->num_planes; p++)
		total += q->plane_bytes[p];
	return total;
}

void vhqv_keep_prev(struct hqv_image *prev, void *buf,
		    const struct hqv_image *src, const struct vhqv_q_data *q)
{
	uint8_t *next = buf;
	unsigned int p;

	*prev = *src;
	for (p = 0; p < src->fmt->num_planes; p++) {
		prev->planes[p] = next;
		prev->plane_size[p] = q->plane_bytes[p];
		memcpy(next, src->planes[p], q->plane_bytes[p]);
		next += q->plane_bytes[p];
	}
}

/*
 * Draining and geometry changes: the state machine (hqv-v4l2.h). Draining
 * follows v4l2-mem2mem's helpers (v4l2_update_last_buf_state() and
 * friends), which vhqv used before this; a geometry change is vhqv's own,
 * after a stateful decoder's resolution change.
 */

void vhqv_flow_init(struct vhqv_flow *flow)
{
	memset(flow, 0, sizeof(*flow));
	flow->drain_src = -1;
	flow->change_src = -1;
}

bool vhqv_flow_may_run(const struct vhqv_flow *flow)
{
	return !flow->awaiting_capture;
}

static void flow_do_init(struct vhqv_flow_do *out)
{
	memset(out, 0, sizeof(*out));
}

/* Return an empty LAST buffer now if one is ready; true if it was. */
static bool empty_last_now(unsigned int *capture_ready,
			   struct vhqv_flow_do *out)
{
	if (out->empty_last >= *capture_ready)
		return false;
	out->empty_last++;
	return true;
}

/* v4l2_m2m_mark_stopped(). */
static void mark_stopped(struct vhqv_flow *flow)
{
	flow->draining = false;
	flow->drain_src = -1;
	flow->drain_next_capture = false;
	flow->stopped = true;
}

int vhqv_flow_stop(struct vhqv_flow *flow, int last_src,
		   unsigned int capture_ready, struct vhqv_flow_do *out)
{
	flow_do_init(out);
	if (flow->draining)
		return -EBUSY;
	if (flow->stopped) {
		out->eos = true;
		return 0;
	}
	flow->draining = true;
	flow->drain_src = last_src;
	if (last_src >= 0)
		return 0;
	/* Every frame is done: the next CAPTURE buffer ends the drain. */
	if (empty_last_now(&capture_ready, out)) {
		mark_stopped(flow);
		out->eos = true;
	} else {
		flow->drain_next_capture = true;
	}
	return 0;
}

int vhqv_flow_start(struct vhqv_flow *flow, struct vhqv_flow_do *out)
{
	flow_do_init(out);
	if (flow->draining)
		return -EBUSY;
	out->resume = flow->stopped;
	flow->stopped = false;
	return 0;
}

/* The new geometry takes effect; no job runs until CAPTURE restarts. */
static void change_now(struct vhqv_flow *flow, struct vhqv_flow_do *out)
{
	flow->change_pending = false;
	flow->change_src = -1;
	flow->awaiting_capture = true;
	out->apply = true;
	out->source_change = true;
}

/* No frame is left to flag: the next CAPTURE buffer, now or later. */
static void change_when_idle(struct vhqv_flow *flow,
			     unsigned int *capture_ready,
			     struct vhqv_flow_do *out)
{
	if (!empty_last_now(capture_ready, out))
		flow->change_next_capture = true;
	change_now(flow, out);
}

void vhqv_flow_change(struct vhqv_flow *flow, bool capture_streaming,
		      int last_src, unsigned int capture_ready,
		      struct vhqv_flow_do *out)
{
	flow_do_init(out);
	/* The frames of the change already pending are still the last. */
	if (flow->change_pending)
		return;
	if (!capture_streaming) {
		change_now(flow, out);
		return;
	}
	flow->change_pending = true;
	flow->change_src = last_src;
	if (last_src < 0)
		change_when_idle(flow, &capture_ready, out);
}

void vhqv_flow_capture_queued(struct vhqv_flow *flow,
			      struct vhqv_flow_do *out)
{
	flow_do_init(out);
	if (flow->draining && flow->drain_next_capture) {
		out->empty_last = 1;
		out->eos = true;
		mark_stopped(flow);
	} else if (flow->change_next_capture) {
		out->empty_last = 1;
		flow->change_next_capture = false;
	}
}

void vhqv_flow_job_done(struct vhqv_flow *flow, int src,
			struct vhqv_flow_do *out)
{
	flow_do_init(out);
	if (flow->draining && flow->drain_src == src) {
		out->flag_last = true;
		out->eos = true;
		mark_stopped(flow);
	}
	if (flow->change_pending && flow->change_src == src) {
		out->flag_last = true;
		change_now(flow, out);
	}
}

void vhqv_flow_streamon(struct vhqv_flow *flow, unsigned int queue)
{
	if (queue == VHQV_SRC) {
		/* v4l2_m2m_update_start_streaming_state(). */
		flow->drain_src = -1;
	} else {
		flow->awaiting_capture = false;
		flow->change_next_capture = false;
	}
}

void vhqv_flow_streamoff(struct vhqv_flow *flow, unsigned int queue,
			 unsigned int capture_ready, struct vhqv_flow_do *out)
{
	flow_do_init(out);
	if (queue == VHQV_DST) {
		/* v4l2_m2m_update_stop_streaming_state(): drained or not. */
		flow->draining = false;
		flow->drain_src = -1;
		flow->drain_next_capture = false;
		flow->stopped = false;
		if (flow->change_pending) {
			/* Nothing is left to flag. */
			flow->change_pending = false;
			flow->change_src = -1;
			out->apply = true;
			out->source_change = true;
		}
		return;
	}
	/* The frames a drain or a change waited for are gone. */
	if (flow->draining) {
		if (empty_last_now(&capture_ready, out))
			mark_stopped(flow);
		else
			flow->drain_next_capture = true;
		flow->drain_src = -1;
	}
	if (flow->change_pending)
		change_when_idle(flow, &capture_ready, out);
}

/*
 * A file's state: format and control changes
 */

void vhqv_state_init(const struct vhqv_offer *offer, struct vhqv_state *st)
{
	vhqv_config_init(offer, &st->cfg);
	st->next = st->cfg;
	vhqv_flow_init(&st->flow);
}

struct vhqv_config *vhqv_state_writable(struct vhqv_state *st)
{
	return st->flow.change_pending ? &st->next : &st->cfg;
}

/*
 * next is the configuration a change makes; with CAPTURE holding buffers
 * it is a geometry change, which waits in st->next for the frames queued
 * before it, else it takes effect now.
 */
static void state_change(struct vhqv_state *st, const struct vhqv_queues *qs,
			 const struct vhqv_config *next,
			 struct vhqv_flow_do *out)
{
	if (!qs->has_buffers[VHQV_DST]) {
		*vhqv_state_writable(st) = *next;
		return;
	}
	st->next = *next;
	vhqv_flow_change(&st->flow, qs->capture_streaming, qs->last_src,
			 qs->capture_ready, out);
}

/*
 * A new OUTPUT format resets the crop and makes CAPTURE follow (its size,
 * the source's turned); a new CAPTURE format resets the compose rectangle.
 */
int vhqv_state_set_fmt(const struct vhqv_offer *offer, struct vhqv_state *st,
		       const struct vhqv_queues *qs, uint32_t type,
		       struct v4l2_pix_format_mplane *pix,
		       struct vhqv_flow_do *out)
{
	struct vhqv_config *cfg = vhqv_state_writable(st), next = *cfg;
	unsigned int queue = V4L2_TYPE_IS_OUTPUT(type) ? VHQV_SRC : VHQV_DST;

	flow_do_init(out);
	if (qs->has_buffers[queue])
		return -EBUSY;
	vhqv_set_fmt(offer, &next, type, pix);
	if (!memcmp(&next.q[VHQV_DST], &cfg->q[VHQV_DST],
		    sizeof(next.q[VHQV_DST])))
		*cfg = next;
	else
		state_change(st, qs, &next, out);
	return 0;
}

int vhqv_state_set_ctrl(struct vhqv_state *st, const struct vhqv_queues *qs,
			uint32_t id, int32_t val, struct vhqv_flow_do *out)
{
	struct vhqv_config *cfg = vhqv_state_writable(st), next = *cfg;

	flow_do_init(out);
	if (!vhqv_config_set_ctrl(&next, id, val))
		return -EINVAL;
	if (id != V4L2_CID_ROTATE ||
	    is_portrait(next.rotation) == is_portrait(cfg->rotation)) {
		/* From the next job, even with a change pending. */
		vhqv_config_set_ctrl(&st->cfg, id, val);
		if (st->flow.change_pending)
			vhqv_config_set_ctrl(&st->next, id, val);
		return 0;
	}
	/* A turn between landscape and portrait: CAPTURE is resized. */
	vhqv_capture_follow(&next);
	state_change(st, qs, &next, out);
	return 0;
}

void vhqv_state_apply(struct vhqv_state *st, const struct vhqv_flow_do *out)
{
	if (out->apply)
		st->cfg = st->next;
}

bool vhqv_capture_fits(const struct vhqv_state *st, const uint32_t length[],
		       unsigned int num_planes)
{
	unsigned int p;

	for (p = 0; p < num_planes; p++)
		if (length[p] < st->cfg.q[VHQV_DST].sizeimage[p])
			return false;
	return true;
}

/*
 * Events
 */

void vhqv_event_init(struct v4l2_event *ev, uint32_t type, uint32_t arg)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	if (type == V4L2_EVENT_SOURCE_CHANGE)
		ev->u.src_change.changes = arg;
	else if (type == V4L2_EVENT_FRAME_SYNC)
		ev->u.frame_sync.frame_sequence = arg;
}
