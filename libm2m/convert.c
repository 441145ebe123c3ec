// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Synchronous conversion: one MMAP buffer per queue, allocated on first use
 * and kept, streaming, until the format changes or the device is closed.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>

#include "m2m-private.h"

#define CONVERT_TIMEOUT_MS 5000

static const char *queue_name(const struct m2m_queue_state *q)
{
	return q->type == V4L2_BUF_TYPE_VIDEO_OUTPUT ? "OUTPUT" : "CAPTURE";
}

static void queue_release(struct m2m_device *dev, struct m2m_queue_state *q)
{
	struct v4l2_requestbuffers req = {
		.type = q->type,
		.memory = V4L2_MEMORY_MMAP,
		.count = 0,
	};
	int type = q->type;

	if (q->streaming)
		M2M_IOCTL(dev, VIDIOC_STREAMOFF, &type);
	q->streaming = false;
	if (q->mapped.addr) {
		munmap(q->mapped.addr, q->mapped.length);
		M2M_IOCTL(dev, VIDIOC_REQBUFS, &req);
	}
	q->mapped.addr = NULL;
	q->mapped.length = 0;
}

void m2m_buffers_release(struct m2m_device *dev)
{
	queue_release(dev, &dev->queues[M2M_QUEUE_OUTPUT]);
	queue_release(dev, &dev->queues[M2M_QUEUE_CAPTURE]);
}

/* Read the queue's format, allocate and map one buffer, start streaming. */
static int queue_prepare(struct m2m_device *dev, enum m2m_queue queue)
{
	struct m2m_queue_state *q = &dev->queues[queue];
	struct v4l2_requestbuffers req = {
		.type = q->type,
		.memory = V4L2_MEMORY_MMAP,
		.count = 1,
	};
	struct v4l2_buffer buf = {
		.type = q->type,
		.memory = V4L2_MEMORY_MMAP,
		.index = 0,
	};
	int type = q->type;
	void *addr;
	int ret;

	ret = m2m_get_format(dev, queue, &q->format);
	if (ret < 0)
		return ret;
	ret = M2M_IOCTL(dev, VIDIOC_REQBUFS, &req);
	if (ret < 0)
		return ret;
	if (req.count < 1)
		return m2m_error(ENOMEM, "VIDIOC_REQBUFS on %s: no %s buffer",
				 dev->info.path, queue_name(q));
	ret = M2M_IOCTL(dev, VIDIOC_QUERYBUF, &buf);
	if (ret < 0)
		return ret;
	addr = mmap(NULL, buf.length, PROT_READ | PROT_WRITE, MAP_SHARED,
		    dev->fd, buf.m.offset);
	if (addr == MAP_FAILED)
		return m2m_error(errno, "mmap of a %s buffer of %s: %s",
				 queue_name(q), dev->info.path, strerror(errno));
	q->mapped.addr = addr;
	q->mapped.length = buf.length;

	ret = M2M_IOCTL(dev, VIDIOC_STREAMON, &type);
	if (ret < 0)
		return ret;
	q->streaming = true;
	return 0;
}

static int buffers_prepare(struct m2m_device *dev)
{
	int ret;

	if (dev->queues[M2M_QUEUE_OUTPUT].streaming &&
	    dev->queues[M2M_QUEUE_CAPTURE].streaming)
		return 0;
	m2m_buffers_release(dev);
	ret = queue_prepare(dev, M2M_QUEUE_OUTPUT);
	if (ret == 0)
		ret = queue_prepare(dev, M2M_QUEUE_CAPTURE);
	if (ret < 0)
		m2m_buffers_release(dev);
	return ret;
}

static int queue_buffer(struct m2m_device *dev, struct m2m_queue_state *q,
			uint32_t bytesused)
{
	struct v4l2_buffer buf = {
		.type = q->type,
		.memory = V4L2_MEMORY_MMAP,
		.index = 0,
		.bytesused = bytesused,
		.field = q->format.field,
	};

	return M2M_IOCTL(dev, VIDIOC_QBUF, &buf);
}

static int wait_capture(struct m2m_device *dev)
{
	struct pollfd pfd = { .fd = dev->fd, .events = POLLIN };
	int n;

	do
		n = poll(&pfd, 1, CONVERT_TIMEOUT_MS);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return m2m_error(errno, "poll on %s: %s", dev->info.path,
				 strerror(errno));
	if (n == 0)
		return m2m_error(ETIMEDOUT,
				 "m2m_convert: %s returned no frame in %d ms",
				 dev->info.path, CONVERT_TIMEOUT_MS);
	return 0;
}

int m2m_convert(struct m2m_device *dev, void *dst, size_t dst_size,
		const void *src, size_t src_size)
{
	struct m2m_queue_state *out, *cap;
	struct v4l2_buffer done = { .memory = V4L2_MEMORY_MMAP };
	uint32_t in_size;
	int ret;

	M2M_CHECK_DEVICE(dev);
	out = &dev->queues[M2M_QUEUE_OUTPUT];
	cap = &dev->queues[M2M_QUEUE_CAPTURE];
	if (!dst || !src)
		return m2m_error(EINVAL, "m2m_convert: %s is NULL",
				 dst ? "src" : "dst");
	ret = buffers_prepare(dev);
	if (ret < 0)
		return ret;

	in_size = out->format.plane_size[0];
	if (src_size < in_size)
		return m2m_error(ENOSPC,
				 "m2m_convert: source holds %zu bytes, the "
				 "OUTPUT format needs %u", src_size, in_size);
	if (dst_size < cap->format.plane_size[0])
		return m2m_error(ENOSPC,
				 "m2m_convert: destination holds %zu bytes, "
				 "the CAPTURE format needs %u", dst_size,
				 cap->format.plane_size[0]);

	memcpy(out->mapped.addr, src, in_size);
	ret = queue_buffer(dev, out, in_size);
	if (ret == 0)
		ret = queue_buffer(dev, cap, 0);
	if (ret == 0)
		ret = wait_capture(dev);
	if (ret < 0) {
		/* Streaming off returns whatever the device still holds. */
		m2m_buffers_release(dev);
		return ret;
	}

	done.type = cap->type;
	ret = M2M_IOCTL(dev, VIDIOC_DQBUF, &done);
	if (ret == 0) {
		struct v4l2_buffer src_done = {
			.type = out->type,
			.memory = V4L2_MEMORY_MMAP,
		};

		ret = M2M_IOCTL(dev, VIDIOC_DQBUF, &src_done);
	}
	if (ret < 0) {
		m2m_buffers_release(dev);
		return ret;
	}
	if (done.flags & V4L2_BUF_FLAG_ERROR)
		return m2m_error(EIO, "m2m_convert: %s flagged the frame as "
				 "failed", dev->info.path);
	if (done.bytesused > dst_size || done.bytesused > cap->mapped.length)
		return m2m_error(EIO, "m2m_convert: %s returned %u bytes, more "
				 "than the CAPTURE format's %u",
				 dev->info.path, done.bytesused,
				 cap->format.plane_size[0]);

	memcpy(dst, cap->mapped.addr, done.bytesused);
	return (int)done.bytesused;
}
