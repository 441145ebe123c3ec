// SPDX-License-Identifier: LGPL-2.1-or-later
/* Events (SUBSCRIBE/UNSUBSCRIBE/DQEVENT) and the answer to SOURCE_CHANGE. */
#include <errno.h>
#include <string.h>

#include "m2m-private.h"

static int subscription(struct m2m_device *dev, unsigned long request,
			const char *request_name, uint32_t type, uint32_t id,
			unsigned int flags)
{
	struct v4l2_event_subscription sub = {
		.type = type,
		.id = id,
	};

	if (flags & ~(unsigned int)(M2M_EVENT_SEND_INITIAL |
				    M2M_EVENT_ALLOW_FEEDBACK))
		return m2m_error(EINVAL, "%s: unknown flags 0x%x", request_name,
				 flags);
	if (flags & M2M_EVENT_SEND_INITIAL)
		sub.flags |= V4L2_EVENT_SUB_FL_SEND_INITIAL;
	if (flags & M2M_EVENT_ALLOW_FEEDBACK)
		sub.flags |= V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK;
	return m2m_xioctl(dev, request, request_name, &sub);
}

int m2m_subscribe_event(struct m2m_device *dev, uint32_t type, uint32_t id,
			unsigned int flags)
{
	M2M_ENTER(dev);
	return m2m_leave(dev, subscription(dev, VIDIOC_SUBSCRIBE_EVENT,
					   "VIDIOC_SUBSCRIBE_EVENT", type, id,
					   flags));
}

int m2m_unsubscribe_event(struct m2m_device *dev, uint32_t type, uint32_t id)
{
	M2M_ENTER(dev);
	return m2m_leave(dev, subscription(dev, VIDIOC_UNSUBSCRIBE_EVENT,
					   "VIDIOC_UNSUBSCRIBE_EVENT", type, id,
					   0));
}

int m2m_dequeue_event(struct m2m_device *dev, struct m2m_event *ev)
{
	struct v4l2_event v;
	int ret;

	M2M_ENTER(dev);
	if (!ev)
		return m2m_leave(dev, m2m_error(EINVAL,
				 "m2m_dequeue_event: ev is NULL"));
	memset(&v, 0, sizeof(v));
	ret = m2m_xioctl_quiet(dev, VIDIOC_DQEVENT, &v);
	/* V4L2 says ENOENT when no event is pending. */
	if (ret == -ENOENT || ret == -EAGAIN)
		return m2m_leave(dev, m2m_error(EAGAIN, "m2m_dequeue_event: "
				 "no event pending on %s", dev->info.path));
	if (ret < 0)
		return m2m_leave(dev, m2m_error(-ret, "VIDIOC_DQEVENT on %s: %s",
				 dev->info.path, strerror(-ret)));
	memset(ev, 0, sizeof(*ev));
	ev->type = v.type;
	ev->id = v.id;
	ev->sequence = v.sequence;
	ev->pending = v.pending;
	ev->timestamp_ns = (uint64_t)v.timestamp.tv_sec * 1000000000u +
			   (uint64_t)v.timestamp.tv_nsec;
	switch (v.type) {
	case V4L2_EVENT_CTRL:
		ev->changes = v.u.ctrl.changes;
		ev->value = v.u.ctrl.type == V4L2_CTRL_TYPE_INTEGER64 ?
			    v.u.ctrl.value64 : v.u.ctrl.value;
		break;
	case V4L2_EVENT_FRAME_SYNC:
		ev->frame_sequence = v.u.frame_sync.frame_sequence;
		break;
	case V4L2_EVENT_SOURCE_CHANGE:
		ev->changes = v.u.src_change.changes;
		break;
	}
	return m2m_leave(dev, 0);
}

int m2m_handle_source_change(struct m2m_device *dev,
			     struct m2m_format *capture)
{
	struct m2m_queue_state *q;
	enum m2m_memory memory;
	unsigned int count;
	int ret;

	M2M_ENTER(dev);
	q = &dev->queues[M2M_QUEUE_CAPTURE];
	memory = q->memory ? q->memory : M2M_MEMORY_MMAP;
	count = q->count ? q->count : 1;
	/* Freeing the buffers stops CAPTURE; allocating reads the format
	 * the device now proposes. */
	ret = m2m_alloc_buffers_locked(dev, M2M_QUEUE_CAPTURE, memory, count);
	if (ret >= 0) {
		int started = m2m_stream_locked(dev, M2M_QUEUE_CAPTURE, true);

		if (started < 0)
			ret = started;
	}
	if (ret >= 0 && capture)
		*capture = q->format;
	return m2m_leave(dev, ret);
}
