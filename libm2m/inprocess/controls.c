// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The in-process device's controls: v4l2/hqv-v4l2.c's table, with what
 * v4l2-ctrls does around a driver's controls (class controls, rounding
 * and range checks, the extended-control rules, CTRL events) and what
 * vhqv_s_ctrl() does with a new value (vhqv-ctrls.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inprocess.h"

/*
 * The control classes the table's controls belong to: V4L2 lists a
 * class control before the first control of each class.
 */
static const struct {
	uint32_t id;
	const char *name;
} classes[] = {
	{ V4L2_CID_USER_CLASS, "User Controls" },
	{ V4L2_CID_IMAGE_PROC_CLASS, "Image Processing Controls" },
};

#define N_CLASSES (sizeof(classes) / sizeof(classes[0]))

void ip_ctrls_init(struct ip_ctx *ctx)
{
	unsigned int i;

	for (i = 0; i < VHQV_NUM_CTRLS; i++)
		ctx->ctrl_val[i] = vhqv_ctrls[i].def;
}

const struct vhqv_ctrl *ip_ctrl_find(uint32_t id, unsigned int *index)
{
	unsigned int i;

	for (i = 0; i < VHQV_NUM_CTRLS; i++) {
		if (vhqv_ctrls[i].id == id) {
			if (index)
				*index = i;
			return &vhqv_ctrls[i];
		}
	}
	return NULL;
}

static int class_find(uint32_t id)
{
	unsigned int i;

	for (i = 0; i < N_CLASSES; i++)
		if (classes[i].id == id)
			return i;
	return -1;
}

/*
 * The controls and class controls in id order, as one list: entry i of
 * the table is a control (*ctrl set) or a class (*class set).
 */
struct any_ctrl {
	uint32_t id;
	const struct vhqv_ctrl *ctrl;
	int class;
};

static unsigned int all_ctrls(struct any_ctrl *out)
{
	unsigned int n = 0, i, j;

	for (j = 0; j < N_CLASSES; j++)
		out[n++] = (struct any_ctrl){ classes[j].id, NULL, j };
	for (i = 0; i < VHQV_NUM_CTRLS; i++)
		out[n++] = (struct any_ctrl){ vhqv_ctrls[i].id, &vhqv_ctrls[i],
					      -1 };
	/* A few entries: insertion sort. */
	for (i = 1; i < n; i++) {
		struct any_ctrl c = out[i];

		for (j = i; j > 0 && out[j - 1].id > c.id; j--)
			out[j] = out[j - 1];
		out[j] = c;
	}
	return n;
}

/* QUERY_EXT_CTRL's lookup: the id, or with NEXT_CTRL the one after it. */
static int find_for_query(uint32_t id, struct any_ctrl *found)
{
	struct any_ctrl list[VHQV_NUM_CTRLS + N_CLASSES];
	bool next = id & (V4L2_CTRL_FLAG_NEXT_CTRL |
			  V4L2_CTRL_FLAG_NEXT_COMPOUND);
	uint32_t bare = id & ~(V4L2_CTRL_FLAG_NEXT_CTRL |
			       V4L2_CTRL_FLAG_NEXT_COMPOUND);
	unsigned int n = all_ctrls(list), i;

	/* Our controls are all simple: NEXT_COMPOUND alone finds none. */
	if (next && !(id & V4L2_CTRL_FLAG_NEXT_CTRL))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (next ? list[i].id > bare : list[i].id == bare) {
			*found = list[i];
			return 0;
		}
	}
	return -EINVAL;
}

int ip_query_ext_ctrl(struct ip_ctx *ctx, struct v4l2_query_ext_ctrl *qc)
{
	struct any_ctrl c;
	int ret = find_for_query(qc->id, &c);

	if (ret)
		return ret;
	memset(qc, 0, sizeof(*qc));
	qc->id = c.id;
	if (c.ctrl) {
		snprintf(qc->name, sizeof(qc->name), "%s", c.ctrl->name);
		qc->type = c.ctrl->type;
		qc->minimum = c.ctrl->min;
		qc->maximum = c.ctrl->max;
		qc->step = c.ctrl->type == V4L2_CTRL_TYPE_MENU ? 1 :
			   c.ctrl->step;
		qc->default_value = c.ctrl->def;
		qc->flags = c.ctrl->flags;
	} else {
		snprintf(qc->name, sizeof(qc->name), "%s",
			 classes[c.class].name);
		qc->type = V4L2_CTRL_TYPE_CTRL_CLASS;
		qc->flags = V4L2_CTRL_FLAG_READ_ONLY |
			    V4L2_CTRL_FLAG_WRITE_ONLY;
	}
	qc->elem_size = sizeof(int32_t);
	qc->elems = 1;
	return 0;
}

int ip_queryctrl(struct ip_ctx *ctx, struct v4l2_queryctrl *qc)
{
	struct v4l2_query_ext_ctrl qec = { .id = qc->id };
	int ret = ip_query_ext_ctrl(ctx, &qec);

	if (ret)
		return ret;
	memset(qc, 0, sizeof(*qc));
	qc->id = qec.id;
	qc->type = qec.type;
	memcpy(qc->name, qec.name, sizeof(qc->name));
	qc->minimum = qec.minimum;
	qc->maximum = qec.maximum;
	qc->step = qec.step;
	qc->default_value = qec.default_value;
	qc->flags = qec.flags;
	return 0;
}

int ip_querymenu(struct ip_ctx *ctx, struct v4l2_querymenu *qm)
{
	const struct vhqv_ctrl *c = ip_ctrl_find(qm->id, NULL);
	uint32_t index = qm->index;

	if (!c || !c->menu || index < (uint32_t)c->min ||
	    index > (uint32_t)c->max || !c->menu[index])
		return -EINVAL;
	memset(qm->name, 0, sizeof(qm->name));
	snprintf((char *)qm->name, sizeof(qm->name), "%s", c->menu[index]);
	qm->reserved = 0;
	return 0;
}

/*
 * A value as v4l2-ctrls validates it: integers rounded to the step and
 * clamped (ROUND_TO_RANGE), booleans made 0 or 1, menus out of range
 * refused with ERANGE.
 */
static int validate(const struct vhqv_ctrl *c, int32_t *val)
{
	int64_t v = *val;

	switch (c->type) {
	case V4L2_CTRL_TYPE_BOOLEAN:
		*val = !!*val;
		return 0;
	case V4L2_CTRL_TYPE_MENU:
		if (*val < c->min || *val > c->max)
			return -ERANGE;
		return c->menu[*val] ? 0 : -EINVAL;
	}
	if (c->max >= 0 && v >= c->max - c->step / 2)
		v = c->max;
	else
		v += c->step / 2;
	v = v < c->min ? c->min : v > c->max ? c->max : v;
	*val = c->min + (int32_t)(c->step * ((v - c->min) / c->step));
	return 0;
}

/* vhqv_s_ctrl(): the decision is vhqv_state_set_ctrl()'s. */
static int apply(struct ip_ctx *ctx, uint32_t id, int32_t val)
{
	struct vhqv_queues qs;
	struct vhqv_flow_do out;
	int ret;

	ip_read_queues(ctx, &qs);
	ret = vhqv_state_set_ctrl(&ctx->st, &qs, id, val, &out);
	ip_flow_do(ctx, &out);
	return ret;
}

/* Set a validated value; a change is sent to CTRL event subscribers. */
static int set_value(struct ip_ctx *ctx, unsigned int index, int32_t val)
{
	int ret;

	if (ctx->ctrl_val[index] == val)
		return 0;
	ret = apply(ctx, vhqv_ctrls[index].id, val);
	if (ret)
		return ret;
	ctx->ctrl_val[index] = val;
	ip_send_ctrl_event(ctx, index, V4L2_EVENT_CTRL_CH_VALUE);
	return 0;
}

int ip_g_ctrl(struct ip_ctx *ctx, struct v4l2_control *c)
{
	unsigned int index;

	if (class_find(c->id) >= 0)
		return -EACCES;
	if (!ip_ctrl_find(c->id, &index))
		return -EINVAL;
	c->value = ctx->ctrl_val[index];
	return 0;
}

int ip_s_ctrl(struct ip_ctx *ctx, struct v4l2_control *c)
{
	const struct vhqv_ctrl *ctrl;
	unsigned int index;
	int32_t val = c->value;
	int ret;

	if (class_find(c->id) >= 0)
		return -EACCES;
	ctrl = ip_ctrl_find(c->id, &index);
	if (!ctrl)
		return -EINVAL;
	ret = validate(ctrl, &val);
	if (ret)
		return ret;
	ret = set_value(ctx, index, val);
	if (!ret)
		c->value = ctx->ctrl_val[index];
	return ret;
}

/*
 * G/S/TRY_EXT_CTRLS as v4l2-ctrls has them: which is the current value,
 * the default (G only) or a control class all ids must belong to;
 * error_idx names the control that failed (count when S failed before
 * anything was set). Requests are not supported.
 */
int ip_ext_ctrls(struct ip_ctx *ctx, unsigned long request,
		 struct v4l2_ext_controls *cs)
{
	bool get = request == VIDIOC_G_EXT_CTRLS;
	bool set = request == VIDIOC_S_EXT_CTRLS;
	unsigned int *idx = NULL, i;
	int32_t *val = NULL;
	int ret = 0;

	cs->error_idx = cs->count;
	if (cs->which == V4L2_CTRL_WHICH_REQUEST_VAL ||
	    (cs->which == V4L2_CTRL_WHICH_DEF_VAL && !get))
		return -EINVAL;
	if (!cs->count)
		return cs->which && cs->which != V4L2_CTRL_WHICH_DEF_VAL &&
		       class_find(cs->which | 1) < 0 ? -EINVAL : 0;
	if (cs->count > V4L2_CID_MAX_CTRLS || !cs->controls)
		return -EINVAL;
	idx = calloc(cs->count, sizeof(*idx));
	val = calloc(cs->count, sizeof(*val));
	if (!idx || !val) {
		ret = -ENOMEM;
		goto out;
	}

	for (i = 0; i < cs->count && !ret; i++) {
		struct v4l2_ext_control *c = &cs->controls[i];
		const struct vhqv_ctrl *ctrl = ip_ctrl_find(c->id, &idx[i]);

		cs->error_idx = i;
		if (cs->which && cs->which != V4L2_CTRL_WHICH_DEF_VAL &&
		    V4L2_CTRL_ID2WHICH(c->id) != cs->which)
			ret = -EINVAL;
		else if (class_find(c->id) >= 0)
			ret = -EACCES;
		else if (!ctrl)
			ret = -EINVAL;
		if (ret || get)
			continue;
		val[i] = c->value;
		ret = validate(ctrl, &val[i]);
	}
	if (ret) {
		if (set)
			cs->error_idx = cs->count;
		goto out;
	}

	for (i = 0; i < cs->count; i++) {
		struct v4l2_ext_control *c = &cs->controls[i];

		if (get) {
			c->value = cs->which == V4L2_CTRL_WHICH_DEF_VAL ?
				   vhqv_ctrls[idx[i]].def :
				   ctx->ctrl_val[idx[i]];
			continue;
		}
		if (set) {
			cs->error_idx = i;
			ret = set_value(ctx, idx[i], val[i]);
			if (ret)
				goto out;
		}
		c->value = val[i];
	}
	cs->error_idx = cs->count;
out:
	free(idx);
	free(val);
	return ret;
}

void ip_ctrl_event(const struct ip_ctx *ctx, unsigned int index,
		   uint32_t changes, struct v4l2_event *ev)
{
	const struct vhqv_ctrl *c = &vhqv_ctrls[index];

	memset(ev, 0, sizeof(*ev));
	ev->type = V4L2_EVENT_CTRL;
	ev->id = c->id;
	ev->u.ctrl.changes = changes;
	ev->u.ctrl.type = c->type;
	ev->u.ctrl.flags = c->flags;
	ev->u.ctrl.value = ctx->ctrl_val[index];
	ev->u.ctrl.minimum = c->min;
	ev->u.ctrl.maximum = c->max;
	ev->u.ctrl.step = c->type == V4L2_CTRL_TYPE_MENU ? 1 : c->step;
	ev->u.ctrl.default_value = c->def;
}
