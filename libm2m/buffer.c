// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Buffers and streaming: REQBUFS and mmap, QBUF/DQBUF in either buffer API
 * (the application sees struct m2m_buffer whatever the node uses),
 * EXPBUF, STREAMON/OFF, and draining with ENC_CMD. A blocking dequeue
 * waits in poll() without the device lock, so other threads keep using
 * the device meanwhile (m2m_convert() waits with it).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "m2m-private.h"

static const char *queue_name(enum m2m_queue queue)
{
	return queue == M2M_QUEUE_OUTPUT ? "OUTPUT" : "CAPTURE";
}

static const char *memory_name(enum m2m_memory memory)
{
	switch (memory) {
	case M2M_MEMORY_MMAP:
		return "MMAP";
	case M2M_MEMORY_USERPTR:
		return "USERPTR";
	case M2M_MEMORY_DMABUF:
		return "DMABUF";
	}
	return "unknown";
}

/* A v4l2_buffer for buf, its planes array in planes. */
static void to_v4l2(const struct m2m_device *dev, struct v4l2_buffer *v,
		    struct v4l2_plane *planes, enum m2m_queue queue,
		    enum m2m_memory memory, uint32_t index)
{
	memset(v, 0, sizeof(*v));
	v->type = m2m_buf_type(dev, queue);
	v->memory = memory;
	v->index = index;
	if (dev->mplane) {
		memset(planes, 0, VIDEO_MAX_PLANES * sizeof(*planes));
		v->m.planes = planes;
		v->length = VIDEO_MAX_PLANES;
	}
}

static void unmap_planes(struct m2m_device *dev, struct m2m_buffer *buf)
{
	unsigned int p;

	for (p = 0; p < buf->num_planes; p++) {
		if (buf->memory == M2M_MEMORY_MMAP && buf->data[p])
			dev->tp->munmap(buf->data[p], buf->length[p]);
		buf->data[p] = NULL;
	}
}

int m2m_stream_locked(struct m2m_device *dev, enum m2m_queue queue, bool on)
{
	struct m2m_queue_state *q = &dev->queues[queue];
	int type = q->type;
	unsigned int i;
	int ret;

	ret = on ? M2M_IOCTL(dev, VIDIOC_STREAMON, &type) :
		   M2M_IOCTL(dev, VIDIOC_STREAMOFF, &type);
	if (ret < 0)
		return ret;
	q->streaming = on;
	/* Stopping returns every buffer to the application. */
	for (i = 0; !on && i < q->count; i++)
		q->buffers[i].queued = 0;
	return 0;
}

int m2m_free_buffers_locked(struct m2m_device *dev, enum m2m_queue queue)
{
	struct m2m_queue_state *q = &dev->queues[queue];
	struct v4l2_requestbuffers req = {
		.type = q->type,
		.memory = q->memory ? q->memory : V4L2_MEMORY_MMAP,
	};
	unsigned int i;

	if (q->streaming)
		m2m_stream_locked(dev, queue, false);
	q->streaming = false;
	for (i = 0; i < q->count; i++)
		unmap_planes(dev, &q->buffers[i]);
	if (q->count)
		m2m_xioctl_quiet(dev, VIDIOC_REQBUFS, &req);
	free(q->buffers);
	q->buffers = NULL;
	q->count = 0;
	q->for_convert = false;
	return 0;
}

/* Describe buffer index from QUERYBUF, and map it for MMAP. */
static int buffer_setup(struct m2m_device *dev, struct m2m_buffer *buf,
			enum m2m_queue queue, enum m2m_memory memory,
			uint32_t index)
{
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
	struct v4l2_buffer v;
	unsigned int p;
	int ret;

	to_v4l2(dev, &v, planes, queue, memory, index);
	ret = M2M_IOCTL(dev, VIDIOC_QUERYBUF, &v);
	if (ret < 0)
		return ret;
	memset(buf, 0, sizeof(*buf));
	/* Refused before it is recorded: freeing walks num_planes planes. */
	if (dev->mplane && v.length > M2M_MAX_PLANES)
		return m2m_error(ENOTSUP, "VIDIOC_QUERYBUF on %s: %u planes, "
				 "libm2m handles at most %d", dev->info.path,
				 v.length, M2M_MAX_PLANES);
	buf->queue = queue;
	buf->index = index;
	buf->memory = memory;
	buf->num_planes = dev->mplane ? v.length : 1;
	for (p = 0; p < buf->num_planes; p++) {
		uint32_t length = dev->mplane ? planes[p].length : v.length;
		uint32_t offset = dev->mplane ? planes[p].m.mem_offset :
						v.m.offset;
		void *addr;

		buf->fd[p] = -1;
		buf->length[p] = length;
		if (memory != M2M_MEMORY_MMAP)
			continue;
		addr = dev->tp->mmap(NULL, length, PROT_READ | PROT_WRITE,
				     MAP_SHARED, dev->fd, offset);
		if (addr == MAP_FAILED)
			return m2m_error(errno, "mmap of %s buffer %u plane %u "
					 "of %s: %s", queue_name(queue), index,
					 p, dev->info.path, strerror(errno));
		buf->data[p] = addr;
	}
	return 0;
}

int m2m_alloc_buffers_locked(struct m2m_device *dev, enum m2m_queue queue,
			     enum m2m_memory memory, unsigned int count)
{
	struct m2m_queue_state *q = &dev->queues[queue];
	struct v4l2_requestbuffers req = {
		.type = q->type,
		.memory = memory,
		.count = count,
	};
	unsigned int i;
	int ret;

	if (memory != M2M_MEMORY_MMAP && memory != M2M_MEMORY_USERPTR &&
	    memory != M2M_MEMORY_DMABUF)
		return m2m_error(EINVAL, "m2m_alloc_buffers: invalid memory "
				 "type %d", memory);
	if (count == 0)
		return m2m_error(EINVAL, "m2m_alloc_buffers: count is 0 (free "
				 "buffers with m2m_free_buffers)");
	m2m_free_buffers_locked(dev, queue);
	ret = m2m_get_format_locked(dev, &q->format, queue);
	if (ret < 0)
		return ret;

	ret = M2M_IOCTL(dev, VIDIOC_REQBUFS, &req);
	if (ret == -EINVAL)
		return m2m_error(EINVAL, "VIDIOC_REQBUFS on %s: the %s queue "
				 "does not take %s memory", dev->info.path,
				 queue_name(queue), memory_name(memory));
	if (ret < 0)
		return ret;
	if (req.count == 0)
		return m2m_error(ENOMEM, "VIDIOC_REQBUFS on %s: no %s buffer "
				 "allocated", dev->info.path,
				 queue_name(queue));
	q->buffers = calloc(req.count, sizeof(*q->buffers));
	if (!q->buffers) {
		req.count = 0;
		m2m_xioctl_quiet(dev, VIDIOC_REQBUFS, &req);
		return m2m_error(ENOMEM, "m2m_alloc_buffers: out of memory");
	}
	q->memory = memory;
	q->count = req.count;
	q->caps = req.capabilities;
	for (i = 0; i < req.count; i++) {
		ret = buffer_setup(dev, &q->buffers[i], queue, memory, i);
		if (ret < 0) {
			m2m_free_buffers_locked(dev, queue);
			return ret;
		}
	}
	return (int)req.count;
}

int m2m_alloc_buffers(struct m2m_device *dev, enum m2m_queue queue,
		      enum m2m_memory memory, unsigned int count)
{
	int ret;

	M2M_ENTER(dev);
	ret = m2m_check_queue(queue, __func__);
	if (ret == 0)
		ret = m2m_alloc_buffers_locked(dev, queue, memory, count);
	return m2m_leave(dev, ret);
}

int m2m_free_buffers(struct m2m_device *dev, enum m2m_queue queue)
{
	int ret;

	M2M_ENTER(dev);
	ret = m2m_check_queue(queue, __func__);
	if (ret == 0)
		ret = m2m_free_buffers_locked(dev, queue);
	return m2m_leave(dev, ret);
}

int m2m_buffer_count(struct m2m_device *dev, enum m2m_queue queue)
{
	int ret;

	M2M_ENTER(dev);
	ret = m2m_check_queue(queue, __func__);
	if (ret == 0)
		ret = (int)dev->queues[queue].count;
	return m2m_leave(dev, ret);
}

struct m2m_buffer *m2m_get_buffer(struct m2m_device *dev,
				  enum m2m_queue queue, unsigned int index)
{
	struct m2m_buffer *buf = NULL;

	if (m2m_enter(dev, __func__) < 0)
		return NULL;
	if (m2m_check_queue(queue, __func__) < 0)
		goto out;
	if (index >= dev->queues[queue].count) {
		m2m_error(EINVAL, "m2m_get_buffer: the %s queue of %s has %u "
			  "buffers, no buffer %u", queue_name(queue),
			  dev->info.path, dev->queues[queue].count, index);
		goto out;
	}
	buf = &dev->queues[queue].buffers[index];
out:
	m2m_leave(dev, 0);
	return buf;
}

/*
 * Whether buf is one of dev's buffers (and not a copy or a stale one).
 * Only its address is looked at: a stale one may point into memory that
 * another thread's call freed.
 */
static bool owns(const struct m2m_device *dev, const struct m2m_buffer *buf)
{
	uintptr_t p = (uintptr_t)buf;
	int q;

	for (q = M2M_QUEUE_OUTPUT; q <= M2M_QUEUE_CAPTURE; q++) {
		uintptr_t first = (uintptr_t)dev->queues[q].buffers;
		size_t n = dev->queues[q].count;

		if (n && p >= first && p < first + n * sizeof(*buf) &&
		    (p - first) % sizeof(*buf) == 0)
			return true;
	}
	return false;
}

/* VIDIOC_QBUF of buf, in the media request request_fd (-1: none). */
static int queue_buffer(struct m2m_device *dev, struct m2m_buffer *buf,
			int request_fd)
{
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
	const struct m2m_format *fmt;
	struct v4l2_buffer v;
	unsigned int p;
	int ret;

	if (!buf || !owns(dev, buf))
		return m2m_error(EINVAL, "m2m_queue_buffer: not a buffer of "
				 "%s (freed, or from another device)",
				 dev->info.path);
	if (buf->queued)
		return m2m_error(EBUSY, "m2m_queue_buffer: %s buffer %u is "
				 "queued already", queue_name(buf->queue),
				 buf->index);
	fmt = &dev->queues[buf->queue].format;
	to_v4l2(dev, &v, planes, buf->queue, buf->memory, buf->index);
	v.field = buf->field ? buf->field : fmt->field;
	v.timestamp.tv_sec = (time_t)(buf->timestamp_ns / 1000000000u);
	v.timestamp.tv_usec = (suseconds_t)(buf->timestamp_ns % 1000000000u /
					    1000u);
	if (dev->mplane)
		v.length = buf->num_planes;
	for (p = 0; p < buf->num_planes; p++) {
		uint32_t used = buf->bytesused[p] ? buf->bytesused[p] :
				fmt->plane_size[p];
		struct v4l2_plane *pl = &planes[p];

		if (buf->queue == M2M_QUEUE_CAPTURE)
			used = 0;
		if (!dev->mplane) {
			v.bytesused = used;
			v.length = buf->length[0];
			if (buf->memory == M2M_MEMORY_USERPTR)
				v.m.userptr = (unsigned long)buf->data[0];
			else if (buf->memory == M2M_MEMORY_DMABUF)
				v.m.fd = buf->fd[0];
			break;
		}
		pl->bytesused = used;
		pl->length = buf->length[p];
		if (buf->memory == M2M_MEMORY_USERPTR)
			pl->m.userptr = (unsigned long)buf->data[p];
		else if (buf->memory == M2M_MEMORY_DMABUF)
			pl->m.fd = buf->fd[p];
	}
	if (request_fd >= 0) {
		v.flags |= V4L2_BUF_FLAG_REQUEST_FD;
		v.request_fd = request_fd;
	}
	ret = M2M_IOCTL(dev, VIDIOC_QBUF, &v);
	if (ret == 0)
		buf->queued = 1;
	return ret;
}

int m2m_queue_buffer_locked(struct m2m_device *dev, struct m2m_buffer *buf)
{
	return queue_buffer(dev, buf, -1);
}

int m2m_queue_buffer_request(struct m2m_device *dev, struct m2m_buffer *buf,
			     int request_fd)
{
	M2M_ENTER(dev);
	if (request_fd < 0)
		return m2m_leave(dev, m2m_error(EINVAL, "%s: request_fd is "
						"%d", __func__, request_fd));
	return m2m_leave(dev, queue_buffer(dev, buf, request_fd));
}

int m2m_queue_buffer(struct m2m_device *dev, struct m2m_buffer *buf)
{
	M2M_ENTER(dev);
	/* m2m_convert()'s buffers may point into memory of a call gone. */
	if (buf && owns(dev, buf) && dev->queues[buf->queue].for_convert)
		return m2m_leave(dev, m2m_error(EBUSY, "m2m_queue_buffer: the "
				 "%s queue's buffers are m2m_convert()'s",
				 queue_name(buf->queue)));
	return m2m_leave(dev, m2m_queue_buffer_locked(dev, buf));
}

/* What DQBUF said, into the buffer it names. */
static struct m2m_buffer *dequeued(struct m2m_device *dev,
				   enum m2m_queue queue,
				   const struct v4l2_buffer *v)
{
	struct m2m_queue_state *q = &dev->queues[queue];
	struct m2m_buffer *buf;
	unsigned int p;

	if (v->index >= q->count)
		return NULL;
	buf = &q->buffers[v->index];
	for (p = 0; p < buf->num_planes; p++)
		buf->bytesused[p] = dev->mplane ? v->m.planes[p].bytesused :
				    v->bytesused;
	buf->timestamp_ns = (uint64_t)v->timestamp.tv_sec * 1000000000u +
			    (uint64_t)v->timestamp.tv_usec * 1000u;
	buf->sequence = v->sequence;
	buf->flags = v->flags;
	buf->field = v->field;
	buf->queued = 0;
	return buf;
}

int m2m_dequeue_buffer_locked(struct m2m_device *dev, struct m2m_buffer **out,
			      enum m2m_queue queue, int timeout_ms,
			      enum m2m_wait_lock lock)
{
	short want = queue == M2M_QUEUE_OUTPUT ? POLLOUT : POLLIN;
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
	struct m2m_queue_state *q = &dev->queues[queue];
	struct v4l2_buffer v;
	int ret, revents;

	if (!out)
		return m2m_error(EINVAL, "m2m_dequeue_buffer: out is NULL");
	*out = NULL;
	if (!q->count)
		return m2m_error(EINVAL, "m2m_dequeue_buffer: the %s queue of "
				 "%s has no buffers", queue_name(queue),
				 dev->info.path);
	for (;;) {
		to_v4l2(dev, &v, planes, queue, q->memory, 0);
		ret = m2m_xioctl_quiet(dev, VIDIOC_DQBUF, &v);
		if (ret != -EAGAIN || dev->flags & M2M_OPEN_NONBLOCK)
			break;
		revents = m2m_poll_device(dev, want, timeout_ms, lock);
		if (revents < 0)
			return revents;
		if (revents == 0)
			return m2m_error(ETIMEDOUT, "m2m_dequeue_buffer: %s "
					 "returned no %s buffer in %d ms",
					 dev->info.path, queue_name(queue),
					 timeout_ms);
		if (revents & POLLERR && !(revents & want))
			return m2m_error(ENODATA, "m2m_dequeue_buffer: no %s "
					 "buffer can come back from %s: nothing "
					 "is queued or it is not streaming",
					 queue_name(queue), dev->info.path);
		/* The queues may have changed while we waited. */
		if (!q->count)
			return m2m_error(EINVAL, "m2m_dequeue_buffer: the %s "
					 "buffers were freed meanwhile",
					 queue_name(queue));
	}
	if (ret == -EAGAIN)
		return m2m_error(EAGAIN, "m2m_dequeue_buffer: no %s buffer is "
				 "ready", queue_name(queue));
	if (ret == -EPIPE)
		return m2m_error(EPIPE, "m2m_dequeue_buffer: the last %s "
				 "buffer was dequeued (drained, or the "
				 "geometry changed)", queue_name(queue));
	if (ret < 0)
		return m2m_error(-ret, "VIDIOC_DQBUF on %s: %s",
				 dev->info.path, strerror(-ret));
	*out = dequeued(dev, queue, &v);
	if (!*out)
		return m2m_error(EIO, "VIDIOC_DQBUF on %s: buffer index %u out "
				 "of range", dev->info.path, v.index);
	return 0;
}

int m2m_dequeue_buffer(struct m2m_device *dev, struct m2m_buffer **out,
		       enum m2m_queue queue)
{
	int ret;

	M2M_ENTER(dev);
	ret = m2m_check_queue(queue, __func__);
	if (ret == 0)
		ret = m2m_dequeue_buffer_locked(dev, out, queue, -1,
						M2M_WAIT_UNLOCKED);
	return m2m_leave(dev, ret);
}

int m2m_export_buffer(struct m2m_device *dev, int *fd,
		      const struct m2m_buffer *buf, unsigned int plane)
{
	struct v4l2_exportbuffer e = { .flags = O_RDWR | O_CLOEXEC };
	int ret;

	M2M_ENTER(dev);
	if (!fd || !buf || !owns(dev, buf))
		return m2m_leave(dev, m2m_error(EINVAL, "m2m_export_buffer: "
				 "%s", !fd ? "fd is NULL" :
				 "not a buffer of this device"));
	if (plane >= buf->num_planes)
		return m2m_leave(dev, m2m_error(EINVAL, "m2m_export_buffer: "
				 "plane %u of a buffer with %u", plane,
				 buf->num_planes));
	e.type = m2m_buf_type(dev, buf->queue);
	e.index = buf->index;
	e.plane = plane;
	ret = M2M_IOCTL(dev, VIDIOC_EXPBUF, &e);
	if (ret == 0)
		*fd = e.fd;
	return m2m_leave(dev, ret);
}

int m2m_stream_on(struct m2m_device *dev, enum m2m_queue queue)
{
	int ret;

	M2M_ENTER(dev);
	ret = m2m_check_queue(queue, __func__);
	if (ret == 0)
		ret = m2m_stream_locked(dev, queue, true);
	return m2m_leave(dev, ret);
}

int m2m_stream_off(struct m2m_device *dev, enum m2m_queue queue)
{
	int ret;

	M2M_ENTER(dev);
	ret = m2m_check_queue(queue, __func__);
	if (ret == 0)
		ret = m2m_stream_locked(dev, queue, false);
	return m2m_leave(dev, ret);
}

static int encoder_cmd(struct m2m_device *dev, uint32_t cmd)
{
	struct v4l2_encoder_cmd ec = { .cmd = cmd };

	return M2M_IOCTL(dev, VIDIOC_ENCODER_CMD, &ec);
}

int m2m_drain(struct m2m_device *dev)
{
	M2M_ENTER(dev);
	return m2m_leave(dev, encoder_cmd(dev, V4L2_ENC_CMD_STOP));
}

int m2m_restart(struct m2m_device *dev)
{
	M2M_ENTER(dev);
	return m2m_leave(dev, encoder_cmd(dev, V4L2_ENC_CMD_START));
}
