// SPDX-License-Identifier: GPL-2.0
/*
 * vhqv: controls. Each context has its own; a value written here is used
 * from the next job on, except a ROTATE that turns the picture between
 * landscape and portrait while CAPTURE has buffers, which is a geometry
 * change (vhqv_state_set_ctrl()). The controls (ids, ranges, defaults,
 * menus and names) are hqv-v4l2.c's table, shared with libm2m.
 */
#include <linux/build_bug.h>

#include "vhqv-priv.h"

/* The uAPI's menu values are the engine's: the shared table uses both. */
static_assert(VHQV_SCALER_AREA == (int)HQV_SCALER_AREA);
static_assert(VHQV_DEINTERLACE_MOTION_ADAPTIVE ==
	      (int)HQV_DEINTERLACE_MOTION_ADAPTIVE);

/* A turn may be a geometry change: see vhqv_s_fmt_mp(). */
static int vhqv_s_ctrl(struct v4l2_ctrl *ctrl)
{
	struct vhqv_ctx *ctx = container_of(ctrl->handler, struct vhqv_ctx,
					    hdl);
	struct vhqv_queues qs;
	struct vhqv_flow_do out;
	int ret;

	mutex_lock(&ctx->vb_mutex);
	mutex_lock(&ctx->cfg_lock);
	vhqv_read_queues(ctx, &qs);
	ret = vhqv_state_set_ctrl(&ctx->st, &qs, ctrl->id, ctrl->val, &out);
	vhqv_flow_do(ctx, &out);
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
