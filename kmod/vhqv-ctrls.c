// SPDX-License-Identifier: GPL-2.0
/*
 * vhqv: controls. Each context has its own; a value written here is used
 * from the next job on, except a ROTATE that turns the picture between
 * landscape and portrait while CAPTURE has buffers, which is a geometry
 * change (vhqv_change_capture()).
 */
#include <linux/build_bug.h>

#include "vhqv-priv.h"

static const char * const vhqv_scaler_menu[] = {
	[VHQV_SCALER_NEAREST] = "Nearest",
	[VHQV_SCALER_BILINEAR] = "Bilinear",
	[VHQV_SCALER_AREA] = "Area",
	NULL,
};

static const char * const vhqv_deinterlacing_menu[] = {
	[VHQV_DEINTERLACE_WEAVE] = "Weave",
	[VHQV_DEINTERLACE_BOB] = "Bob",
	[VHQV_DEINTERLACE_BLEND] = "Blend",
	[VHQV_DEINTERLACE_MOTION_ADAPTIVE] = "Motion Adaptive",
	NULL,
};

/* The uAPI's menu values are the engine's. */
static_assert(VHQV_SCALER_AREA == (int)HQV_SCALER_AREA);
static_assert(VHQV_DEINTERLACE_MOTION_ADAPTIVE ==
	      (int)HQV_DEINTERLACE_MOTION_ADAPTIVE);

/* Set a control's value in a configuration; false if it is not ours. */
static bool config_set(struct vhqv_config *cfg, u32 id, s32 val)
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

static bool is_portrait(u32 rotation)
{
	return rotation == 90 || rotation == 270;
}

static int vhqv_s_ctrl(struct v4l2_ctrl *ctrl)
{
	struct vhqv_ctx *ctx = container_of(ctrl->handler, struct vhqv_ctx,
					    hdl);
	struct vb2_queue *cap_vq;
	struct vhqv_config *cfg, next;
	int ret = 0;

	mutex_lock(&ctx->cfg_lock);
	cfg = vhqv_config_for_write(ctx);
	next = *cfg;
	if (!config_set(&next, ctrl->id, ctrl->val)) {
		ret = -EINVAL;
		goto unlock;
	}
	if (ctrl->id != V4L2_CID_ROTATE ||
	    is_portrait(next.rotation) == is_portrait(cfg->rotation)) {
		/* Takes effect from the next job, even with a change pending. */
		config_set(&ctx->cfg, ctrl->id, ctrl->val);
		if (ctx->change_pending)
			config_set(&ctx->next, ctrl->id, ctrl->val);
		goto unlock;
	}

	/* A turn between landscape and portrait: CAPTURE is resized. */
	vhqv_capture_follow(&next);
	cap_vq = ctx->fh.m2m_ctx ? v4l2_m2m_get_dst_vq(ctx->fh.m2m_ctx) : NULL;
	if (cap_vq && vb2_is_busy(cap_vq))
		ret = vhqv_change_capture(ctx, &next);
	else
		*cfg = next;
unlock:
	mutex_unlock(&ctx->cfg_lock);
	return ret;
}

static const struct v4l2_ctrl_ops vhqv_ctrl_ops = {
	.s_ctrl = vhqv_s_ctrl,
};

static const struct v4l2_ctrl_config vhqv_scaler_ctrl = {
	.ops = &vhqv_ctrl_ops,
	.id = V4L2_CID_VHQV_SCALER,
	.name = "Scaling Filter",
	.type = V4L2_CTRL_TYPE_MENU,
	.max = VHQV_SCALER_AREA,
	.def = VHQV_SCALER_BILINEAR,
	.qmenu = vhqv_scaler_menu,
};

static const struct v4l2_ctrl_config vhqv_background_ctrl = {
	.ops = &vhqv_ctrl_ops,
	.id = V4L2_CID_VHQV_BACKGROUND,
	.name = "Background Colour",
	.type = V4L2_CTRL_TYPE_INTEGER,
	.max = 0xffffff,
	.step = 1,
};

int vhqv_ctrls_init(struct vhqv_ctx *ctx)
{
	struct v4l2_ctrl_handler *hdl = &ctx->hdl;
	const struct v4l2_ctrl_ops *ops = &vhqv_ctrl_ops;
	int ret;

	v4l2_ctrl_handler_init(hdl, 11);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_HFLIP, 0, 1, 1, 0);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_VFLIP, 0, 1, 1, 0);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_ROTATE, 0, 270, 90, 0);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_ALPHA_COMPONENT, 0, 255, 1, 255);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_BRIGHTNESS, -128, 127, 1, 0);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_CONTRAST, -128, 127, 1, 0);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_SATURATION, -128, 127, 1, 0);
	v4l2_ctrl_new_std(hdl, ops, V4L2_CID_HUE, -180, 180, 1, 0);
	v4l2_ctrl_new_std_menu_items(hdl, ops, V4L2_CID_DEINTERLACING_MODE,
				     VHQV_DEINTERLACE_MOTION_ADAPTIVE, 0,
				     VHQV_DEINTERLACE_BOB,
				     vhqv_deinterlacing_menu);
	v4l2_ctrl_new_custom(hdl, &vhqv_scaler_ctrl, NULL);
	v4l2_ctrl_new_custom(hdl, &vhqv_background_ctrl, NULL);
	if (hdl->error) {
		ret = hdl->error;
		v4l2_ctrl_handler_free(hdl);
		return ret;
	}
	ctx->fh.ctrl_handler = hdl;
	return 0;
}
