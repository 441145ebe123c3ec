// SPDX-License-Identifier: GPL-2.0
/*
 * vhqv: controls. Each context has its own; a value written here is used
 * from the next job on, except a ROTATE that turns the picture between
 * landscape and portrait while CAPTURE has buffers, which is a geometry
 * change (vhqv_change_capture()). The controls (ids, ranges, defaults,
 * menus and names) are hqv-v4l2.c's table, shared with libm2m.
 */
#include <linux/build_bug.h>

#include "vhqv-priv.h"

/* The uAPI's menu values are the engine's: the shared table uses both. */
static_assert(VHQV_SCALER_AREA == (int)HQV_SCALER_AREA);
static_assert(VHQV_DEINTERLACE_MOTION_ADAPTIVE ==
	      (int)HQV_DEINTERLACE_MOTION_ADAPTIVE);

static int vhqv_s_ctrl(struct v4l2_ctrl *ctrl)
{
	struct vhqv_ctx *ctx = container_of(ctrl->handler, struct vhqv_ctx,
					    hdl);
	struct vb2_queue *cap_vq;
	struct vhqv_config *cfg, next;
	int ret = 0;

	/* A turn may be a geometry change: see vhqv_s_fmt_mp(). */
	mutex_lock(&ctx->vb_mutex);
	mutex_lock(&ctx->cfg_lock);
	cfg = vhqv_config_for_write(ctx);
	next = *cfg;
	if (!vhqv_config_set_ctrl(&next, ctrl->id, ctrl->val)) {
		ret = -EINVAL;
		goto unlock;
	}
	if (ctrl->id != V4L2_CID_ROTATE ||
	    vhqv_is_portrait(next.rotation) == vhqv_is_portrait(cfg->rotation)) {
		/* Takes effect from the next job, even with a change pending. */
		vhqv_config_set_ctrl(&ctx->cfg, ctrl->id, ctrl->val);
		if (ctx->flow.change_pending)
			vhqv_config_set_ctrl(&ctx->next, ctrl->id, ctrl->val);
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
	mutex_unlock(&ctx->vb_mutex);
	return ret;
}

static const struct v4l2_ctrl_ops vhqv_ctrl_ops = {
	.s_ctrl = vhqv_s_ctrl,
};

/* A control of the shared table (hqv-v4l2.c), V4L2's own or vhqv's. */
static void vhqv_ctrl_new(struct v4l2_ctrl_handler *hdl,
			  const struct vhqv_ctrl *c)
{
	struct v4l2_ctrl_config cfg = {
		.ops = &vhqv_ctrl_ops,
		.id = c->id,
		.name = c->name,
		.type = c->type,
		.min = c->min,
		.max = c->max,
		.step = c->step,
		.def = c->def,
		.flags = c->flags,
		.qmenu = c->menu,
	};

	if (c->standard && c->menu)
		v4l2_ctrl_new_std_menu_items(hdl, &vhqv_ctrl_ops, c->id, c->max,
					     0, c->def, c->menu);
	else if (c->standard)
		v4l2_ctrl_new_std(hdl, &vhqv_ctrl_ops, c->id, c->min, c->max,
				  c->step, c->def);
	else
		v4l2_ctrl_new_custom(hdl, &cfg, NULL);
}

int vhqv_ctrls_init(struct vhqv_ctx *ctx)
{
	struct v4l2_ctrl_handler *hdl = &ctx->hdl;
	unsigned int i;
	int ret;

	v4l2_ctrl_handler_init(hdl, VHQV_NUM_CTRLS);
	for (i = 0; i < VHQV_NUM_CTRLS; i++)
		vhqv_ctrl_new(hdl, &vhqv_ctrls[i]);
	if (hdl->error) {
		ret = hdl->error;
		v4l2_ctrl_handler_free(hdl);
		return ret;
	}
	ctx->fh.ctrl_handler = hdl;
	return 0;
}
