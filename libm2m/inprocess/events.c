// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The in-process device's events, as v4l2-event keeps them for a file
 * handle: a subscription per type (and control id) holding up to a number
 * of events, the oldest dropped on overflow (CTRL and SOURCE_CHANGE keep
 * one, their changes merged), one sequence number per handle. vhqv
 * subscribes EOS with 2, FRAME_SYNC with VIDEO_MAX_FRAME.
 */
#include <string.h>
#include <time.h>

#include "inprocess.h"

static struct ip_sub *sub_find(struct ip_ctx *ctx, uint32_t type, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < ctx->n_subs; i++)
		if (ctx->subs[i].type == type && ctx->subs[i].id == id)
			return &ctx->subs[i];
	return NULL;
}

/* Take the pending event at position i off the queue. */
static void event_remove(struct ip_ctx *ctx, unsigned int i)
{
	ctx->events[i].sub->in_use--;
	memmove(&ctx->events[i], &ctx->events[i + 1],
		(ctx->n_events - i - 1) * sizeof(ctx->events[0]));
	ctx->n_events--;
}

/* The oldest pending event of a subscription, or -1. */
static int event_oldest(const struct ip_ctx *ctx, const struct ip_sub *sub)
{
	unsigned int i;

	for (i = 0; i < ctx->n_events; i++)
		if (ctx->events[i].sub == sub)
			return i;
	return -1;
}

/* CTRL and SOURCE_CHANGE: a newer event keeps the older one's changes. */
static bool merges(uint32_t type)
{
	return type == V4L2_EVENT_CTRL || type == V4L2_EVENT_SOURCE_CHANGE;
}

static void merge_changes(struct v4l2_event *into, const struct v4l2_event *old)
{
	if (into->type == V4L2_EVENT_CTRL)
		into->u.ctrl.changes |= old->u.ctrl.changes;
	else
		into->u.src_change.changes |= old->u.src_change.changes;
}

static void queue_for(struct ip_ctx *ctx, struct ip_sub *sub,
		      const struct v4l2_event *ev)
{
	struct ip_event *e;
	struct v4l2_event merged = *ev;
	struct timespec ts;

	ctx->event_sequence++;
	if (sub->in_use == sub->elems) {
		int oldest = event_oldest(ctx, sub);

		if (merges(ev->type))
			merge_changes(&merged, &ctx->events[oldest].ev);
		event_remove(ctx, oldest);
	}
	if (ctx->n_events == IP_MAX_EVENTS)
		event_remove(ctx, 0);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	e = &ctx->events[ctx->n_events++];
	e->ev = merged;
	e->ev.id = sub->id;
	e->ev.sequence = ctx->event_sequence;
	e->ev.timestamp = ts;
	e->sub = sub;
	sub->in_use++;
}

void ip_queue_event(struct ip_ctx *ctx, const struct v4l2_event *ev)
{
	struct ip_sub *sub = sub_find(ctx, ev->type, ev->id);

	if (sub)
		queue_for(ctx, sub, ev);
}

void ip_queue_simple_event(struct ip_ctx *ctx, uint32_t type, uint32_t arg)
{
	struct v4l2_event ev;

	vhqv_event_init(&ev, type, arg);
	ip_queue_event(ctx, &ev);
}

/*
 * The handle that changed a control does not hear of it unless it asked
 * to (V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK): here every change comes from the
 * context's own handle.
 */
void ip_send_ctrl_event(struct ip_ctx *ctx, unsigned int index,
			uint32_t changes)
{
	struct ip_sub *sub = sub_find(ctx, V4L2_EVENT_CTRL,
				      vhqv_ctrls[index].id);
	struct v4l2_event ev;

	if (!sub || !(sub->flags & V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK))
		return;
	ip_ctrl_event(ctx, index, changes, &ev);
	queue_for(ctx, sub, &ev);
}

int ip_subscribe_event(struct ip_ctx *ctx,
		       const struct v4l2_event_subscription *sub)
{
	unsigned int elems = 1, index;
	struct ip_sub *s;

	switch (sub->type) {
	case V4L2_EVENT_EOS:
		elems = 2;
		break;
	case V4L2_EVENT_FRAME_SYNC:
		elems = VIDEO_MAX_FRAME;
		break;
	case V4L2_EVENT_SOURCE_CHANGE:
		break;
	case V4L2_EVENT_CTRL:
		if (!ip_ctrl_find(sub->id, &index) &&
		    sub->id != V4L2_CID_USER_CLASS &&
		    sub->id != V4L2_CID_IMAGE_PROC_CLASS)
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	/* Already subscribed: nothing changes, no initial event. */
	if (sub_find(ctx, sub->type, sub->id))
		return 0;
	if (ctx->n_subs == IP_MAX_SUBS)
		return -ENOMEM;
	s = &ctx->subs[ctx->n_subs++];
	*s = (struct ip_sub){ .type = sub->type, .id = sub->id,
			      .flags = sub->flags, .elems = elems };
	if (sub->type == V4L2_EVENT_CTRL &&
	    (sub->flags & V4L2_EVENT_SUB_FL_SEND_INITIAL) &&
	    ip_ctrl_find(sub->id, &index)) {
		struct v4l2_event ev;

		ip_ctrl_event(ctx, index, V4L2_EVENT_CTRL_CH_VALUE |
			      V4L2_EVENT_CTRL_CH_FLAGS, &ev);
		queue_for(ctx, s, &ev);
	}
	return 0;
}

static void unsubscribe(struct ip_ctx *ctx, struct ip_sub *s)
{
	unsigned int i, n = s - ctx->subs;
	int e;

	while ((e = event_oldest(ctx, s)) >= 0)
		event_remove(ctx, e);
	/* Subscriptions move down: re-point their pending events. */
	for (i = 0; i < ctx->n_events; i++)
		if (ctx->events[i].sub > s)
			ctx->events[i].sub--;
	memmove(s, s + 1, (ctx->n_subs - n - 1) * sizeof(*s));
	ctx->n_subs--;
}

int ip_unsubscribe_event(struct ip_ctx *ctx,
			 const struct v4l2_event_subscription *sub)
{
	struct ip_sub *s;

	if (sub->type == V4L2_EVENT_ALL) {
		while (ctx->n_subs)
			unsubscribe(ctx, &ctx->subs[ctx->n_subs - 1]);
		return 0;
	}
	s = sub_find(ctx, sub->type, sub->id);
	if (s)
		unsubscribe(ctx, s);
	return 0;
}

int ip_dqevent(struct ip_ctx *ctx, struct v4l2_event *ev)
{
	if (!ctx->n_events)
		return -ENOENT;
	*ev = ctx->events[0].ev;
	event_remove(ctx, 0);
	ev->pending = ctx->n_events;
	memset(ev->reserved, 0, sizeof(ev->reserved));
	return 0;
}
