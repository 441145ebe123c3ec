// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One-call conversion: one buffer per queue, allocated and started on
 * first use and kept until a format changes or the device is closed, on
 * top of the streaming calls of buffer.c. A conversion is one call: it
 * keeps the device's lock while it waits for its frame, so calls from
 * other threads come before or after it.
 *
 * Kernel devices get MMAP buffers, and the frames are copied in and out
 * of them (USERPTR would pin the caller's pages on every call, and not
 * every driver takes it). The in-process device works on the caller's
 * memory: its buffers are USERPTR ones that point into src and dst, which
 * it checks only when they move (as vb2 re-pins only then), so a call
 * costs no copy.
 */
#include <errno.h>
#include <string.h>

#include "m2m-private.h"

#define CONVERT_TIMEOUT_MS 5000

/* Whether the device reads and writes the caller's memory (above). */
static bool in_place(const struct m2m_device *dev)
{
	return dev->tp->hold != NULL;
}

/* Allocate and start both queues' buffers, unless they are ready. */
static int buffers_prepare(struct m2m_device *dev)
{
	enum m2m_memory memory = in_place(dev) ? M2M_MEMORY_USERPTR :
						 M2M_MEMORY_MMAP;
	int q, ret = 0;

	for (q = M2M_QUEUE_OUTPUT; q <= M2M_QUEUE_CAPTURE; q++) {
		struct m2m_queue_state *qs = &dev->queues[q];

		if (qs->for_convert && qs->streaming)
			continue;
		if (qs->count && !qs->for_convert)
			return m2m_error(EBUSY, "m2m_convert: the %s queue has "
					 "buffers of the streaming API",
					 q == M2M_QUEUE_OUTPUT ? "OUTPUT" :
					 "CAPTURE");
		ret = m2m_alloc_buffers_locked(dev, q, memory, 1);
		if (ret >= 0)
			ret = m2m_stream_locked(dev, q, true);
		if (ret < 0)
			break;
		qs->for_convert = true;
	}
	if (ret < 0) {
		m2m_free_buffers_locked(dev, M2M_QUEUE_OUTPUT);
		m2m_free_buffers_locked(dev, M2M_QUEUE_CAPTURE);
	}
	return ret < 0 ? ret : 0;
}

static int convert(struct m2m_device *dev, void *dst, size_t dst_size,
		   const void *src, size_t src_size)
{
	struct m2m_buffer *in, *out, *done;
	size_t in_size, out_size, offset;
	unsigned int p;
	int ret;

	if (!dst || !src)
		return m2m_error(EINVAL, "m2m_convert: %s is NULL",
				 dst ? "src" : "dst");
	ret = buffers_prepare(dev);
	if (ret < 0)
		return ret;
	in = &dev->queues[M2M_QUEUE_OUTPUT].buffers[0];
	out = &dev->queues[M2M_QUEUE_CAPTURE].buffers[0];

	in_size = m2m_format_frame_size(&dev->queues[M2M_QUEUE_OUTPUT].format);
	out_size = m2m_format_frame_size(&dev->queues[M2M_QUEUE_CAPTURE].format);
	if (src_size < in_size)
		return m2m_error(ENOSPC, "m2m_convert: source holds %zu bytes, "
				 "the OUTPUT format needs %zu", src_size,
				 in_size);
	if (dst_size < out_size)
		return m2m_error(ENOSPC, "m2m_convert: destination holds %zu "
				 "bytes, the CAPTURE format needs %zu",
				 dst_size, out_size);

	offset = 0;
	for (p = 0; p < in->num_planes; p++) {
		uint32_t n = dev->queues[M2M_QUEUE_OUTPUT].format.plane_size[p];

		if (in_place(dev)) {
			in->data[p] = (uint8_t *)src + offset;
			in->length[p] = n;
		} else if (n > in->length[p]) {
			/* A node that lies: as CAPTURE is checked below. */
			return m2m_error(EIO, "m2m_convert: %s gave plane %u "
					 "an OUTPUT buffer of %u bytes, the "
					 "format needs %u", dev->info.path, p,
					 in->length[p], n);
		} else {
			memcpy(in->data[p], (const uint8_t *)src + offset, n);
		}
		in->bytesused[p] = n;
		offset += n;
	}
	offset = 0;
	for (p = 0; in_place(dev) && p < out->num_planes; p++) {
		uint32_t n = dev->queues[M2M_QUEUE_CAPTURE].format.plane_size[p];

		out->data[p] = (uint8_t *)dst + offset;
		out->length[p] = n;
		offset += n;
	}
	/* The in-process device: this thread runs the job as it waits. */
	if (in_place(dev))
		dev->tp->hold(dev->fd, M2M_TP_HOLD_JOBS |
				     M2M_TP_HOLD_MEMORY, true);
	ret = m2m_queue_buffer_locked(dev, in);
	if (ret == 0)
		ret = m2m_queue_buffer_locked(dev, out);
	/* With the lock held throughout: no other call may free or refill
	 * the buffers before their frame is copied out. */
	if (ret == 0)
		ret = m2m_dequeue_buffer_locked(dev, &done, M2M_QUEUE_CAPTURE,
						CONVERT_TIMEOUT_MS,
						M2M_WAIT_LOCKED);
	if (ret == 0)
		ret = m2m_dequeue_buffer_locked(dev, &done, M2M_QUEUE_OUTPUT,
						CONVERT_TIMEOUT_MS,
						M2M_WAIT_LOCKED);
	if (in_place(dev))
		dev->tp->hold(dev->fd, M2M_TP_HOLD_JOBS |
				     M2M_TP_HOLD_MEMORY, false);
	if (ret < 0) {
		/* Freeing stops streaming, which returns what the device
		 * still holds; the next call starts afresh. */
		m2m_free_buffers_locked(dev, M2M_QUEUE_OUTPUT);
		m2m_free_buffers_locked(dev, M2M_QUEUE_CAPTURE);
		return ret;
	}
	if (out->flags & M2M_BUFFER_ERROR)
		return m2m_error(EIO, "m2m_convert: %s flagged the frame as "
				 "failed", dev->info.path);

	offset = 0;
	for (p = 0; p < out->num_planes; p++) {
		if (out->bytesused[p] > out->length[p] ||
		    out->bytesused[p] > dst_size - offset)
			return m2m_error(EIO, "m2m_convert: %s returned %u "
					 "bytes in plane %u, more than the "
					 "CAPTURE format's", dev->info.path,
					 out->bytesused[p], p);
		if (!in_place(dev))
			memcpy((uint8_t *)dst + offset, out->data[p],
			       out->bytesused[p]);
		offset += out->bytesused[p];
	}
	return (int)offset;
}

int m2m_convert(struct m2m_device *dev, void *dst, size_t dst_size,
		const void *src, size_t src_size)
{
	M2M_ENTER(dev);
	return m2m_leave(dev, convert(dev, dst, dst_size, src, src_size));
}
