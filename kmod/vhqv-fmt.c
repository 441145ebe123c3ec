// SPDX-License-Identifier: GPL-2.0
/*
 * vhqv: formats, selection rectangles, and the ioctl tables of both nodes.
 *
 * What a format or a rectangle becomes is v4l2/hqv-v4l2.c's, shared with
 * libm2m's in-process device; here are the locks, the buffer checks and
 * the geometry changes around it. Both nodes keep their formats as struct
 * v4l2_pix_format_mplane; the single-planar ioctls convert from and to
 * struct v4l2_pix_format, so there is one try/set path.
 */
#include <linux/module.h>

#include <media/v4l2-event.h>
#include <media/v4l2-ioctl.h>

#include "vhqv-priv.h"

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

static int vidioc_enum_fmt(struct file *file, void *priv,
			   struct v4l2_fmtdesc *f)
{
	return vhqv_enum_fmt(&file_to_ctx(file)->offer, f);
}

static int vidioc_enum_framesizes(struct file *file, void *priv,
				  struct v4l2_frmsizeenum *fsize)
{
	return vhqv_enum_framesizes(&file_to_ctx(file)->offer, fsize);
}

/* The configuration ioctls read and write: see vhqv_config_for_write(). */
static int vhqv_g_fmt_mp(struct vhqv_ctx *ctx, u32 type,
			 struct v4l2_pix_format_mplane *pix)
{
	mutex_lock(&ctx->cfg_lock);
	vhqv_get_fmt(vhqv_config_for_write(ctx), type, pix);
	mutex_unlock(&ctx->cfg_lock);
	return 0;
}

static int vhqv_try_fmt_mp(struct vhqv_ctx *ctx, u32 type,
			   struct v4l2_pix_format_mplane *pix)
{
	mutex_lock(&ctx->cfg_lock);
	vhqv_try_fmt(&ctx->offer, vhqv_config_for_write(ctx), type, pix);
	mutex_unlock(&ctx->cfg_lock);
	return 0;
}

/*
 * What a new format does is vhqv_state_set_fmt()'s. The queues it decides
 * with are read and acted on under the queues' lock, which REQBUFS,
 * CREATE_BUFS, QBUF and STREAMON hold, so that no buffer is made and no
 * queue starts between the answer and the new format.
 */
static int vhqv_s_fmt_mp(struct vhqv_ctx *ctx, u32 type,
			 struct v4l2_pix_format_mplane *pix)
{
	struct vhqv_queues qs;
	struct vhqv_flow_do out;
	int ret;

	mutex_lock(&ctx->vb_mutex);
	mutex_lock(&ctx->cfg_lock);
	vhqv_read_queues(ctx, &qs);
	ret = vhqv_state_set_fmt(&ctx->offer, &ctx->st, &qs, type, pix, &out);
	vhqv_flow_do(ctx, &out);
	mutex_unlock(&ctx->cfg_lock);
	mutex_unlock(&ctx->vb_mutex);
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
	return vhqv_try_fmt_mp(file_to_ctx(file), f->type, &f->fmt.pix_mp);
}

static int vhqv_s_fmt_mplane(struct file *file, void *priv,
			     struct v4l2_format *f)
{
	return vhqv_s_fmt_mp(file_to_ctx(file), f->type, &f->fmt.pix_mp);
}

/* The single-planar ioctls, through the multi-planar ones. */

static int vidioc_g_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct v4l2_pix_format_mplane mp;

	vhqv_pix_to_mp(&f->fmt.pix, &mp);
	vhqv_g_fmt_mp(file_to_ctx(file), f->type, &mp);
	vhqv_mp_to_pix(&mp, &f->fmt.pix);
	return 0;
}

static int vidioc_try_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct v4l2_pix_format_mplane mp;

	vhqv_pix_to_mp(&f->fmt.pix, &mp);
	vhqv_try_fmt_mp(file_to_ctx(file), f->type, &mp);
	vhqv_mp_to_pix(&mp, &f->fmt.pix);
	return 0;
}

static int vidioc_s_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct v4l2_pix_format_mplane mp;
	int ret;

	vhqv_pix_to_mp(&f->fmt.pix, &mp);
	ret = vhqv_s_fmt_mp(file_to_ctx(file), f->type, &mp);
	if (!ret)
		vhqv_mp_to_pix(&mp, &f->fmt.pix);
	return ret;
}

/* Selection: CROP on OUTPUT, COMPOSE on CAPTURE (hqv-v4l2.c). */

static int vhqv_g_selection(struct file *file, void *priv,
			    struct v4l2_selection *s)
{
	struct vhqv_ctx *ctx = file_to_ctx(file);
	int ret;

	mutex_lock(&ctx->cfg_lock);
	ret = vhqv_get_selection(vhqv_config_for_write(ctx), s);
	mutex_unlock(&ctx->cfg_lock);
	return ret;
}

static int vhqv_s_selection(struct file *file, void *priv,
			    struct v4l2_selection *s)
{
	struct vhqv_ctx *ctx = file_to_ctx(file);
	int ret;

	mutex_lock(&ctx->cfg_lock);
	ret = vhqv_set_selection(vhqv_config_for_write(ctx), s);
	mutex_unlock(&ctx->cfg_lock);
	return ret;
}

/*
 * Draining: STOP and START as a stateful encoder has them (vicodec's
 * shape), decided by hqv-v4l2.c's state machine (vhqv_drain_cmd()).
 * PAUSE and RESUME get EINVAL; without both queues streaming, STOP and
 * START succeed and do nothing. Under the queues' lock, as STREAMON,
 * STREAMOFF and DQBUF are: the queues' state stays what was read.
 */
static int vhqv_encoder_cmd(struct file *file, void *priv,
			    struct v4l2_encoder_cmd *ec)
{
	struct vhqv_ctx *ctx = file_to_ctx(file);
	struct v4l2_m2m_ctx *m2m_ctx = ctx->fh.m2m_ctx;
	int ret;

	ret = v4l2_m2m_ioctl_try_encoder_cmd(file, priv, ec);
	if (ret)
		return ret;
	mutex_lock(&ctx->vb_mutex);
	if (vb2_is_streaming(&m2m_ctx->cap_q_ctx.q) &&
	    vb2_is_streaming(&m2m_ctx->out_q_ctx.q))
		ret = vhqv_drain_cmd(ctx, ec->cmd);
	mutex_unlock(&ctx->vb_mutex);
	return ret;
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
	.vidioc_enum_framesizes		= vidioc_enum_framesizes,	\
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
		.vidioc_enum_fmt_vid_cap	= vidioc_enum_fmt,
		.vidioc_g_fmt_vid_cap		= vidioc_g_fmt,
		.vidioc_try_fmt_vid_cap		= vidioc_try_fmt,
		.vidioc_s_fmt_vid_cap		= vidioc_s_fmt,
		.vidioc_enum_fmt_vid_out	= vidioc_enum_fmt,
		.vidioc_g_fmt_vid_out		= vidioc_g_fmt,
		.vidioc_try_fmt_vid_out		= vidioc_try_fmt,
		.vidioc_s_fmt_vid_out		= vidioc_s_fmt,
	},
	[VHQV_NODE_MPLANE] = {
		VHQV_COMMON_IOCTLS,
		.vidioc_enum_fmt_vid_cap	= vidioc_enum_fmt,
		.vidioc_g_fmt_vid_cap_mplane	= vhqv_g_fmt_mplane,
		.vidioc_try_fmt_vid_cap_mplane	= vhqv_try_fmt_mplane,
		.vidioc_s_fmt_vid_cap_mplane	= vhqv_s_fmt_mplane,
		.vidioc_enum_fmt_vid_out	= vidioc_enum_fmt,
		.vidioc_g_fmt_vid_out_mplane	= vhqv_g_fmt_mplane,
		.vidioc_try_fmt_vid_out_mplane	= vhqv_try_fmt_mplane,
		.vidioc_s_fmt_vid_out_mplane	= vhqv_s_fmt_mplane,
	},
};
