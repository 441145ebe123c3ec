// SPDX-License-Identifier: GPL-2.0
/*
 * vhqv: formats, selection rectangles, and the ioctl tables of both nodes.
 *
 * Both nodes keep their formats as struct v4l2_pix_format_mplane; the
 * single-planar ioctls convert from and to struct v4l2_pix_format, so there
 * is one try/set path. The OUTPUT format and its CROP rectangle describe
 * the source; the CAPTURE format and its COMPOSE rectangle the destination:
 * the crop is scaled into the compose rectangle (docs/vhqv.md).
 */
#include <linux/module.h>

#include <media/v4l2-event.h>
#include <media/v4l2-ioctl.h>

#include "vhqv-priv.h"

/*
 * Which formats a node offers: the single-planar node those whose planes
 * share one buffer (NV12, not NV12M), the multi-planar node all of them.
 * The semi-planar family only with the semiplanar module parameter: kernel
 * 6.1 names it "Y/UV 4:2:0" where the v4l2-compliance of Debian 12
 * (v4l-utils 1.22.1) expects "Y/CbCr 4:2:0" and fails ENUM_FMT (see
 * docs/vhqv.md); the engine and libm2m handle it all the same.
 */
bool vhqv_offers(const struct vhqv_ctx *ctx, const struct hqv_format *fmt)
{
	if (fmt->family == HQV_FAMILY_SEMIPLANAR && !vhqv_semiplanar)
		return false;
	return ctx->mplane || fmt->mem_planes == 1;
}

static const struct hqv_format *vhqv_format_at(const struct vhqv_ctx *ctx,
					       unsigned int index)
{
	const struct hqv_format *fmt;
	unsigned int i;

	for (i = 0; (fmt = hqv_format_at(i)); i++)
		if (vhqv_offers(ctx, fmt) && index-- == 0)
			return fmt;
	return NULL;
}

static const struct hqv_format *vhqv_format_find(const struct vhqv_ctx *ctx,
						 u32 fourcc)
{
	const struct hqv_format *fmt = hqv_format_find(fourcc);

	return fmt && vhqv_offers(ctx, fmt) ? fmt : NULL;
}

/* The format of a new context on both queues: offered by both nodes. */
const struct hqv_format *vhqv_default_format(void)
{
	return hqv_format_find(V4L2_PIX_FMT_YUYV);
}

/* Lines of the frame: an ALTERNATE buffer's height is a field's. */
u32 vhqv_frame_height(const struct vhqv_q_data *q)
{
	return q->field == V4L2_FIELD_ALTERNATE ? 2 * q->height : q->height;
}

/*
 * Fill in the layout of a queue for its format and size, keeping each
 * requested line pitch that is large enough.
 */
static void q_data_layout(struct vhqv_q_data *q, const u32 *bytesperline)
{
	const struct hqv_format *fmt = q->fmt;
	u32 total;
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

static void rect_full(struct v4l2_rect *r, u32 width, u32 height)
{
	r->left = 0;
	r->top = 0;
	r->width = width;
	r->height = height;
}

/* The size CAPTURE takes by default: the crop, turned by ROTATE. */
static void capture_default_size(const struct vhqv_config *cfg, u32 *width,
				 u32 *height)
{
	const struct v4l2_rect *crop = &cfg->q[VHQV_SRC].rect;
	bool turned = cfg->rotation == 90 || cfg->rotation == 270;

	*width = turned ? crop->height : crop->width;
	*height = turned ? crop->width : crop->height;
}

/*
 * CAPTURE after a new OUTPUT format: the size of the source (turned), the
 * whole frame composed, OUTPUT's colorimetry unless CAPTURE asked for its
 * own encoding and quantization.
 */
void vhqv_capture_follow(struct vhqv_config *cfg)
{
	struct vhqv_q_data *dst = &cfg->q[VHQV_DST];

	capture_default_size(cfg, &dst->width, &dst->height);
	q_data_layout(dst, NULL);
	rect_full(&dst->rect, dst->width, dst->height);
	if (!cfg->csc_set) {
		dst->ycbcr_enc = cfg->q[VHQV_SRC].ycbcr_enc;
		dst->quantization = cfg->q[VHQV_SRC].quantization;
	}
}

void vhqv_config_init(struct vhqv_config *cfg)
{
	struct vhqv_q_data *src = &cfg->q[VHQV_SRC];

	memset(cfg, 0, sizeof(*cfg));
	src->fmt = vhqv_default_format();
	src->width = VHQV_DEF_WIDTH;
	src->height = VHQV_DEF_HEIGHT;
	src->field = V4L2_FIELD_NONE;
	q_data_layout(src, NULL);
	rect_full(&src->rect, src->width, src->height);
	cfg->colorspace = V4L2_COLORSPACE_REC709;
	cfg->q[VHQV_DST] = *src;
	cfg->alpha = 255;
	cfg->scaler = HQV_SCALER_BILINEAR;
}

/*
 * Formats
 */

static int vhqv_querycap(struct file *file, void *priv,
			 struct v4l2_capability *cap)
{
	struct vhqv_ctx *ctx = file_to_ctx(file);

	strscpy(cap->driver, VHQV_NAME, sizeof(cap->driver));
	strscpy(cap->card, "Virtual HQV video engine", sizeof(cap->card));
	snprintf(cap->bus_info, sizeof(cap->bus_info), "platform:%s",
		 dev_name(ctx->dev->v4l2_dev.dev));
	return 0;
}

static int vhqv_enum_fmt(struct file *file, void *priv,
			 struct v4l2_fmtdesc *f)
{
	struct vhqv_ctx *ctx = file_to_ctx(file);
	const struct hqv_format *fmt = vhqv_format_at(ctx, f->index);

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

static int vhqv_enum_framesizes(struct file *file, void *priv,
				struct v4l2_frmsizeenum *fsize)
{
	struct vhqv_ctx *ctx = file_to_ctx(file);

	if (fsize->index || !vhqv_format_find(ctx, fsize->pixel_format))
		return -EINVAL;

	fsize->type = V4L2_FRMSIZE_TYPE_STEPWISE;
	fsize->stepwise.min_width = HQV_MIN_WIDTH;
	fsize->stepwise.max_width = HQV_MAX_WIDTH;
	fsize->stepwise.step_width = HQV_SIZE_STEP;
	fsize->stepwise.min_height = HQV_MIN_HEIGHT;
	fsize->stepwise.max_height = HQV_MAX_HEIGHT;
	fsize->stepwise.step_height = HQV_SIZE_STEP;
	return 0;
}

static void q_data_to_pix_mp(const struct vhqv_config *cfg,
			     const struct vhqv_q_data *q,
			     struct v4l2_pix_format_mplane *pix)
{
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
	pix->colorspace = cfg->colorspace;
	pix->xfer_func = cfg->xfer_func;
	pix->ycbcr_enc = q->ycbcr_enc;
	pix->quantization = q->quantization;
	pix->flags = 0;
}

/* The configuration ioctls read and write: see vhqv_config_for_write(). */
static int vhqv_g_fmt_mp(struct vhqv_ctx *ctx, u32 type,
			 struct v4l2_pix_format_mplane *pix)
{
	const struct vhqv_config *cfg;

	mutex_lock(&ctx->cfg_lock);
	cfg = vhqv_config_for_write(ctx);
	q_data_to_pix_mp(cfg, &cfg->q[V4L2_TYPE_IS_OUTPUT(type) ? VHQV_SRC :
				      VHQV_DST], pix);
	mutex_unlock(&ctx->cfg_lock);
	return 0;
}

static bool field_supported(u32 field)
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

static u32 valid_or_default(u32 v, u32 max)
{
	return v <= max ? v : 0;
}

/*
 * Correct a format into one the device takes, as the V4L2 spec asks: an
 * unknown fourcc becomes the default, sizes are clamped into the engine's
 * range (CAPTURE's may differ from OUTPUT's: the device scales), a line
 * pitch below the minimum is raised to it. OUTPUT takes every field order
 * the engine deinterlaces (4:2:0 fields need an even field height);
 * CAPTURE is progressive and keeps OUTPUT's colorimetry, or takes another
 * encoding and quantization with V4L2_PIX_FMT_FLAG_SET_CSC. With cfg NULL,
 * the result is not written anywhere (TRY_FMT).
 */
static void vhqv_try_fmt_mp(struct vhqv_ctx *ctx, const struct vhqv_config *cfg,
			    u32 type, struct v4l2_pix_format_mplane *pix)
{
	const struct hqv_format *fmt = vhqv_format_find(ctx, pix->pixelformat);
	u32 bytesperline[HQV_MAX_PLANES] = { 0 };
	struct vhqv_q_data q = { 0 };
	unsigned int p;

	if (!fmt)
		fmt = vhqv_default_format();
	for (p = 0; p < fmt->mem_planes && p < pix->num_planes; p++)
		bytesperline[p] = pix->plane_fmt[p].bytesperline;

	q.fmt = fmt;
	q.width = pix->width;
	if (V4L2_TYPE_IS_OUTPUT(type)) {
		q.field = field_supported(pix->field) ? pix->field :
			  V4L2_FIELD_NONE;
		q.height = q.field == V4L2_FIELD_ALTERNATE ?
			   min_t(u32, pix->height, U32_MAX / 2) * 2 :
			   pix->height;
		hqv_format_clamp_size(&q.width, &q.height);
		if (q.field != V4L2_FIELD_NONE && fmt->vsub == 2)
			q.height = max_t(u32, q.height & ~3u, 4);
		if (q.field == V4L2_FIELD_ALTERNATE)
			q.height /= 2;
		if (pix->colorspace == V4L2_COLORSPACE_DEFAULT ||
		    pix->colorspace > V4L2_COLORSPACE_DCI_P3)
			pix->colorspace = fmt->is_yuv ? V4L2_COLORSPACE_REC709 :
					  V4L2_COLORSPACE_SRGB;
		pix->xfer_func = valid_or_default(pix->xfer_func,
						  V4L2_XFER_FUNC_SMPTE2084);
		q.ycbcr_enc = valid_or_default(pix->ycbcr_enc,
					       V4L2_YCBCR_ENC_SMPTE240M);
		q.quantization = valid_or_default(pix->quantization,
						  V4L2_QUANTIZATION_LIM_RANGE);
	} else {
		bool set_csc = pix->flags & V4L2_PIX_FMT_FLAG_SET_CSC;

		q.height = pix->height;
		q.field = V4L2_FIELD_NONE;
		hqv_format_clamp_size(&q.width, &q.height);
		pix->colorspace = cfg->colorspace;
		pix->xfer_func = cfg->xfer_func;
		q.ycbcr_enc = cfg->q[VHQV_SRC].ycbcr_enc;
		q.quantization = cfg->q[VHQV_SRC].quantization;
		if (set_csc && fmt->is_yuv)
			q.ycbcr_enc = valid_or_default(pix->ycbcr_enc,
						       V4L2_YCBCR_ENC_SMPTE240M);
		if (set_csc)
			q.quantization = valid_or_default(pix->quantization,
							  V4L2_QUANTIZATION_LIM_RANGE);
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
	pix->ycbcr_enc = q.ycbcr_enc;
	pix->quantization = q.quantization;
	/* SET_CSC is kept where it was honoured. */
	pix->flags &= V4L2_TYPE_IS_OUTPUT(type) ? 0 : V4L2_PIX_FMT_FLAG_SET_CSC;
	memset(pix->reserved, 0, sizeof(pix->reserved));
}

static int vhqv_try_fmt_any(struct vhqv_ctx *ctx, u32 type,
			    struct v4l2_pix_format_mplane *pix)
{
	mutex_lock(&ctx->cfg_lock);
	vhqv_try_fmt_mp(ctx, vhqv_config_for_write(ctx), type, pix);
	mutex_unlock(&ctx->cfg_lock);
	return 0;
}

static void pix_mp_to_q_data(const struct v4l2_pix_format_mplane *pix,
			     struct vhqv_q_data *q)
{
	u32 bytesperline[HQV_MAX_PLANES] = { 0 };
	unsigned int p;

	q->fmt = hqv_format_find(pix->pixelformat);
	q->width = pix->width;
	q->height = pix->height;
	q->field = pix->field;
	q->ycbcr_enc = pix->ycbcr_enc;
	q->quantization = pix->quantization;
	for (p = 0; p < pix->num_planes; p++)
		bytesperline[p] = pix->plane_fmt[p].bytesperline;
	q_data_layout(q, bytesperline);
	rect_full(&q->rect, q->width, vhqv_frame_height(q));
}

/*
 * A new OUTPUT format resets the crop and makes CAPTURE follow (its size,
 * the source's turned); while CAPTURE streams, that is a geometry change
 * (vhqv_change_capture). A new CAPTURE format resets the compose
 * rectangle. Neither queue may have buffers.
 */
static int vhqv_s_fmt_any(struct vhqv_ctx *ctx, u32 type,
			  struct v4l2_pix_format_mplane *pix)
{
	struct vb2_queue *vq = v4l2_m2m_get_vq(ctx->fh.m2m_ctx, type);
	struct vb2_queue *cap_vq = v4l2_m2m_get_dst_vq(ctx->fh.m2m_ctx);
	struct vhqv_config *cfg, next;
	int ret = 0;

	if (vb2_is_busy(vq))
		return -EBUSY;

	mutex_lock(&ctx->cfg_lock);
	cfg = vhqv_config_for_write(ctx);
	vhqv_try_fmt_mp(ctx, cfg, type, pix);
	if (!V4L2_TYPE_IS_OUTPUT(type)) {
		pix_mp_to_q_data(pix, &cfg->q[VHQV_DST]);
		cfg->csc_set = pix->flags & V4L2_PIX_FMT_FLAG_SET_CSC;
		goto unlock;
	}

	next = *cfg;
	pix_mp_to_q_data(pix, &next.q[VHQV_SRC]);
	next.colorspace = pix->colorspace;
	next.xfer_func = pix->xfer_func;
	vhqv_capture_follow(&next);
	if (vb2_is_busy(cap_vq) && memcmp(&next.q[VHQV_DST], &cfg->q[VHQV_DST],
					  sizeof(next.q[VHQV_DST])))
		ret = vhqv_change_capture(ctx, &next);
	else
		*cfg = next;
unlock:
	mutex_unlock(&ctx->cfg_lock);
	return ret;
}

/* The multi-planar ioctls. */

static int vhqv_g_fmt_mplane(struct file *file, void *priv,
			     struct v4l2_format *f)
{
	return vhqv_g_fmt_mp(file_to_ctx(file), f->type, &f->fmt.pix_mp);
}

static int vhqv_try_fmt_mplane(struct file *file, void *priv,
			       struct v4l2_format *f)
{
	return vhqv_try_fmt_any(file_to_ctx(file), f->type, &f->fmt.pix_mp);
}

static int vhqv_s_fmt_mplane(struct file *file, void *priv,
			     struct v4l2_format *f)
{
	return vhqv_s_fmt_any(file_to_ctx(file), f->type, &f->fmt.pix_mp);
}

/* The single-planar ioctls, through the multi-planar ones. */

static void pix_to_mp(const struct v4l2_pix_format *pix,
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

static void mp_to_pix(const struct v4l2_pix_format_mplane *mp,
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

static int vhqv_g_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct v4l2_pix_format_mplane mp;

	pix_to_mp(&f->fmt.pix, &mp);
	vhqv_g_fmt_mp(file_to_ctx(file), f->type, &mp);
	mp_to_pix(&mp, &f->fmt.pix);
	return 0;
}

static int vhqv_try_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct v4l2_pix_format_mplane mp;

	pix_to_mp(&f->fmt.pix, &mp);
	vhqv_try_fmt_any(file_to_ctx(file), f->type, &mp);
	mp_to_pix(&mp, &f->fmt.pix);
	return 0;
}

static int vhqv_s_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct v4l2_pix_format_mplane mp;
	int ret;

	pix_to_mp(&f->fmt.pix, &mp);
	ret = vhqv_s_fmt_any(file_to_ctx(file), f->type, &mp);
	if (!ret)
		mp_to_pix(&mp, &f->fmt.pix);
	return ret;
}

/*
 * Selection: CROP on OUTPUT (in frame lines, also for ALTERNATE fields),
 * COMPOSE on CAPTURE. Rectangles are kept inside their frame, on even
 * coordinates and sizes of at least 2, as the engine's chroma wants.
 */

static bool selection_target_ok(u32 type, u32 target)
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

static u32 selection_type(u32 type)
{
	switch (type) {
	case V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE:
		return V4L2_BUF_TYPE_VIDEO_OUTPUT;
	case V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE:
		return V4L2_BUF_TYPE_VIDEO_CAPTURE;
	}
	return type;
}

static int vhqv_g_selection(struct file *file, void *priv,
			    struct v4l2_selection *s)
{
	struct vhqv_ctx *ctx = file_to_ctx(file);
	u32 type = selection_type(s->type);
	const struct vhqv_q_data *q;
	const struct vhqv_config *cfg;

	if ((type != V4L2_BUF_TYPE_VIDEO_OUTPUT &&
	     type != V4L2_BUF_TYPE_VIDEO_CAPTURE) ||
	    !selection_target_ok(type, s->target))
		return -EINVAL;

	mutex_lock(&ctx->cfg_lock);
	cfg = vhqv_config_for_write(ctx);
	q = &cfg->q[V4L2_TYPE_IS_OUTPUT(type) ? VHQV_SRC : VHQV_DST];
	if (s->target == V4L2_SEL_TGT_CROP || s->target == V4L2_SEL_TGT_COMPOSE)
		s->r = q->rect;
	else
		rect_full(&s->r, q->width, vhqv_frame_height(q));
	mutex_unlock(&ctx->cfg_lock);
	return 0;
}

/*
 * Round v to even, in the direction the selection flags ask. U32_MAX would
 * round up to 0, the smallest rectangle instead of the largest: it goes
 * down, and the frame clamps it anyway.
 */
static u32 round_even(u32 v, u32 flags)
{
	if ((flags & V4L2_SEL_FLAG_GE) && !(flags & V4L2_SEL_FLAG_LE) &&
	    v != U32_MAX)
		return v + (v & 1);
	return v & ~1u;
}

static void clamp_rect(struct v4l2_rect *r, u32 width, u32 height, u32 flags)
{
	s32 left = clamp_t(s32, r->left, 0, width - 2);
	s32 top = clamp_t(s32, r->top, 0, height - 2);

	r->left = left & ~1;
	r->top = top & ~1;
	r->width = clamp_t(u32, round_even(r->width, flags), 2,
			   width - r->left);
	r->height = clamp_t(u32, round_even(r->height, flags), 2,
			    height - r->top);
}

static int vhqv_s_selection(struct file *file, void *priv,
			    struct v4l2_selection *s)
{
	struct vhqv_ctx *ctx = file_to_ctx(file);
	u32 type = selection_type(s->type);
	struct vhqv_q_data *q;
	struct vhqv_config *cfg;

	if ((type != V4L2_BUF_TYPE_VIDEO_OUTPUT ||
	     s->target != V4L2_SEL_TGT_CROP) &&
	    (type != V4L2_BUF_TYPE_VIDEO_CAPTURE ||
	     s->target != V4L2_SEL_TGT_COMPOSE))
		return -EINVAL;

	mutex_lock(&ctx->cfg_lock);
	cfg = vhqv_config_for_write(ctx);
	q = &cfg->q[V4L2_TYPE_IS_OUTPUT(type) ? VHQV_SRC : VHQV_DST];
	clamp_rect(&s->r, q->width, vhqv_frame_height(q), s->flags);
	q->rect = s->r;
	mutex_unlock(&ctx->cfg_lock);
	return 0;
}

/*
 * Draining: STOP and START as a stateful encoder has them, through the
 * mem2mem helpers (vicodec's shape). PAUSE and RESUME get EINVAL.
 */
static int vhqv_encoder_cmd(struct file *file, void *priv,
			    struct v4l2_encoder_cmd *ec)
{
	struct vhqv_ctx *ctx = file_to_ctx(file);
	struct v4l2_m2m_ctx *m2m_ctx = ctx->fh.m2m_ctx;
	bool was_stopped;
	int ret;

	ret = v4l2_m2m_ioctl_try_encoder_cmd(file, priv, ec);
	if (ret)
		return ret;
	if (!vb2_is_streaming(&m2m_ctx->cap_q_ctx.q) ||
	    !vb2_is_streaming(&m2m_ctx->out_q_ctx.q))
		return 0;

	/* The worker flags the last frame under the same lock. */
	mutex_lock(&ctx->cfg_lock);
	was_stopped = v4l2_m2m_has_stopped(m2m_ctx);
	ret = v4l2_m2m_ioctl_encoder_cmd(file, priv, ec);
	mutex_unlock(&ctx->cfg_lock);
	if (ret)
		return ret;
	if (ec->cmd == V4L2_ENC_CMD_STOP && v4l2_m2m_has_stopped(m2m_ctx))
		vhqv_queue_event(ctx, V4L2_EVENT_EOS, 0);
	if (ec->cmd == V4L2_ENC_CMD_START) {
		/* DQBUF on CAPTURE stops failing with EPIPE. */
		if (was_stopped)
			vb2_clear_last_buffer_dequeued(&m2m_ctx->cap_q_ctx.q);
		v4l2_m2m_try_schedule(m2m_ctx);
	}
	return 0;
}

static int vhqv_subscribe_event(struct v4l2_fh *fh,
				const struct v4l2_event_subscription *sub)
{
	switch (sub->type) {
	case V4L2_EVENT_EOS:
		return v4l2_event_subscribe(fh, sub, 2, NULL);
	case V4L2_EVENT_FRAME_SYNC:
		return v4l2_event_subscribe(fh, sub, VIDEO_MAX_FRAME, NULL);
	case V4L2_EVENT_SOURCE_CHANGE:
		return v4l2_src_change_event_subscribe(fh, sub);
	}
	return v4l2_ctrl_subscribe_event(fh, sub);
}

#define VHQV_COMMON_IOCTLS						\
	.vidioc_querycap		= vhqv_querycap,		\
	.vidioc_enum_framesizes		= vhqv_enum_framesizes,		\
	.vidioc_g_selection		= vhqv_g_selection,		\
	.vidioc_s_selection		= vhqv_s_selection,		\
	.vidioc_reqbufs			= v4l2_m2m_ioctl_reqbufs,	\
	.vidioc_querybuf		= v4l2_m2m_ioctl_querybuf,	\
	.vidioc_qbuf			= v4l2_m2m_ioctl_qbuf,		\
	.vidioc_dqbuf			= v4l2_m2m_ioctl_dqbuf,		\
	.vidioc_prepare_buf		= v4l2_m2m_ioctl_prepare_buf,	\
	.vidioc_create_bufs		= v4l2_m2m_ioctl_create_bufs,	\
	.vidioc_expbuf			= v4l2_m2m_ioctl_expbuf,	\
	.vidioc_streamon		= v4l2_m2m_ioctl_streamon,	\
	.vidioc_streamoff		= v4l2_m2m_ioctl_streamoff,	\
	.vidioc_try_encoder_cmd		= v4l2_m2m_ioctl_try_encoder_cmd, \
	.vidioc_encoder_cmd		= vhqv_encoder_cmd,		\
	.vidioc_subscribe_event		= vhqv_subscribe_event,		\
	.vidioc_unsubscribe_event	= v4l2_event_unsubscribe

const struct v4l2_ioctl_ops vhqv_ioctl_ops[VHQV_NODES] = {
	[VHQV_NODE_SINGLE] = {
		VHQV_COMMON_IOCTLS,
		.vidioc_enum_fmt_vid_cap	= vhqv_enum_fmt,
		.vidioc_g_fmt_vid_cap		= vhqv_g_fmt,
		.vidioc_try_fmt_vid_cap		= vhqv_try_fmt,
		.vidioc_s_fmt_vid_cap		= vhqv_s_fmt,
		.vidioc_enum_fmt_vid_out	= vhqv_enum_fmt,
		.vidioc_g_fmt_vid_out		= vhqv_g_fmt,
		.vidioc_try_fmt_vid_out		= vhqv_try_fmt,
		.vidioc_s_fmt_vid_out		= vhqv_s_fmt,
	},
	[VHQV_NODE_MPLANE] = {
		VHQV_COMMON_IOCTLS,
		.vidioc_enum_fmt_vid_cap	= vhqv_enum_fmt,
		.vidioc_g_fmt_vid_cap_mplane	= vhqv_g_fmt_mplane,
		.vidioc_try_fmt_vid_cap_mplane	= vhqv_try_fmt_mplane,
		.vidioc_s_fmt_vid_cap_mplane	= vhqv_s_fmt_mplane,
		.vidioc_enum_fmt_vid_out	= vhqv_enum_fmt,
		.vidioc_g_fmt_vid_out_mplane	= vhqv_g_fmt_mplane,
		.vidioc_try_fmt_vid_out_mplane	= vhqv_try_fmt_mplane,
		.vidioc_s_fmt_vid_out_mplane	= vhqv_s_fmt_mplane,
	},
};
