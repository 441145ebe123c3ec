// SPDX-License-Identifier: LGPL-2.1-or-later
/* What the decoder and the encoder share: see codec.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codec.h"

/* The longest a codec's wait goes without looking at what other calls
 * did meanwhile. */
#define M2M_CODEC_SLICE_MS 20

void m2m_codec_handle_init(struct m2m_codec_handle *ch,
			   struct m2m_codec_kind *kind)
{
	pthread_mutex_init(&ch->lock, NULL);
	ch->kind = kind;
}

void m2m_codec_handle_destroy(struct m2m_codec_handle *ch)
{
	pthread_mutex_destroy(&ch->lock);
}

void m2m_codec_handle_add(struct m2m_codec_handle *ch, const void *obj)
{
	m2m_handle_add(&ch->kind->registry, &ch->handle, (uintptr_t)obj,
		       &ch->lock);
}

int m2m_codec_enter(struct m2m_codec_kind *kind, const void *obj,
		    const char *func)
{
	struct m2m_handle *h;
	int ret;

	if (!obj)
		return m2m_error(EINVAL, "%s: %s is NULL", func, kind->arg);
	ret = m2m_handle_enter(&kind->registry, (uintptr_t)obj, &h);
	return ret ? m2m_refuse_handle(ret, kind->name, func) : 0;
}

int m2m_codec_leave(struct m2m_codec_handle *ch, int ret, const char *func)
{
	if (ret < 0 && m2m_handle_closing(&ch->handle))
		ret = m2m_refuse_handle(-ESHUTDOWN, ch->kind->name, func);
	ch->unlocks++;
	m2m_handle_leave(&ch->kind->registry, &ch->handle);
	return ret;
}

struct m2m_codec_handle *m2m_codec_close_begin(struct m2m_codec_kind *kind,
					       const void *obj)
{
	struct m2m_handle *h = obj ? m2m_handle_close(&kind->registry,
						      (uintptr_t)obj) : NULL;

	return h ? m2m_container_of(h, struct m2m_codec_handle, handle) : NULL;
}

void m2m_codec_close_end(struct m2m_codec_handle *ch)
{
	m2m_handle_drain(&ch->kind->registry, &ch->handle);
}

void m2m_codec_interrupt(struct m2m_device *dev)
{
	if (dev)
		dev->tp->interrupt(dev->fd);
}

void m2m_codec_unlock(struct m2m_codec_handle *ch)
{
	ch->unlocks++;
	pthread_mutex_unlock(&ch->lock);
}

int m2m_codec_relock(struct m2m_codec_handle *ch)
{
	pthread_mutex_lock(&ch->lock);
	if (m2m_handle_closing(&ch->handle))
		return m2m_error(EINVAL, "the %s handle was closed by another "
				 "thread during a wait", ch->kind->name);
	return 0;
}

int64_t m2m_codec_deadline(int timeout_ms)
{
	struct timespec ts;

	if (timeout_ms < 0)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 + timeout_ms;
}

int m2m_codec_left(int64_t deadline)
{
	int64_t left;

	if (deadline < 0)
		return -1;
	left = deadline - m2m_codec_deadline(0);
	return left > 0 ? (int)left : 0;
}

int m2m_codec_cmd(struct m2m_device *dev, bool decoder, uint32_t cmd,
		  bool quiet_busy)
{
	struct v4l2_decoder_cmd dc = { .cmd = cmd };
	struct v4l2_encoder_cmd ec = { .cmd = cmd };
	const char *name = decoder ? "VIDIOC_DECODER_CMD" :
				     "VIDIOC_ENCODER_CMD";
	int ret;

	M2M_ENTER(dev);
	ret = decoder ? m2m_xioctl_quiet(dev, VIDIOC_DECODER_CMD, &dc) :
			m2m_xioctl_quiet(dev, VIDIOC_ENCODER_CMD, &ec);
	if (ret == -EBUSY && quiet_busy)
		ret = 0;
	else if (ret < 0)
		ret = m2m_error(-ret, "%s %u on %s: %s", name, cmd,
				dev->info.path, strerror(-ret));
	return m2m_leave(dev, ret);
}

int m2m_codec_queue_output(struct m2m_device *dev, struct m2m_codec_flow *flow,
			   struct m2m_buffer *buf)
{
	int ret = m2m_queue_buffer(dev, buf);

	if (ret == 0 && !flow->output_streaming) {
		ret = m2m_stream_on(dev, M2M_QUEUE_OUTPUT);
		flow->output_streaming = ret == 0;
	}
	return ret;
}

int m2m_codec_drain(struct m2m_device *dev, struct m2m_codec_flow *flow)
{
	int ret;

	if (flow->draining || flow->drained)
		return 0;
	/* Nothing was sent: there is nothing to finish. */
	if (!flow->output_streaming) {
		flow->drained = true;
		return 0;
	}
	ret = m2m_codec_cmd(dev, flow->decoder, flow->decoder ?
			    V4L2_DEC_CMD_STOP : V4L2_ENC_CMD_STOP, false);
	if (ret == 0)
		flow->draining = true;
	return ret;
}

bool m2m_codec_lists_coded(struct m2m_device *dev, enum m2m_queue queue,
			   uint32_t fourcc)
{
	struct m2m_format_desc desc;
	unsigned int i;

	for (i = 0; m2m_enum_format(dev, &desc, queue, i) == 0; i++)
		if (desc.fourcc == fourcc)
			return desc.flags & V4L2_FMT_FLAG_COMPRESSED;
	return false;
}

int m2m_codec_wait(struct m2m_codec_handle *ch, struct m2m_device *dev,
		   unsigned int wanted, int timeout_ms)
{
	int64_t end = m2m_codec_deadline(timeout_ms);
	unsigned int ready, unlocks;
	int ret, slice;

	do {
		/* Another call may take what this one waits for while it
		 * waits (a send's service() the frame a receive waits for),
		 * and the device then has nothing more to say: the wait
		 * looks at the calls made meanwhile each slice. */
		slice = m2m_codec_left(end);
		if (slice < 0 || slice > M2M_CODEC_SLICE_MS)
			slice = M2M_CODEC_SLICE_MS;
		unlocks = ch->unlocks + 1;	/* this unlock's */
		m2m_codec_unlock(ch);
		ret = m2m_wait_for(dev, &ready, wanted, slice);
		if (m2m_codec_relock(ch) < 0)
			return -EINVAL;
		if (ret < 0)
			return ret;
		/* IDLE alone (POLLERR: nothing queued that could come back)
		 * is no news: with every CAPTURE buffer held by the caller
		 * and nothing on OUTPUT, vicodec says it at once and for
		 * ever, and a receive that took it for news would spin. */
		if (ready)
			return (ready & ~M2M_READY_IDLE) != 0;
		if (ch->unlocks != unlocks)
			return 1;
	} while (m2m_codec_left(end) != 0);
	return 0;
}

int m2m_codec_take_output(struct m2m_device *dev)
{
	struct m2m_buffer *buf;
	int ret;

	while ((ret = m2m_dequeue_buffer(dev, &buf, M2M_QUEUE_OUTPUT)) == 0)
		;
	/* ENODATA: nothing queued; EINVAL: no buffers or not streaming. */
	return ret == -EAGAIN || ret == -ENODATA ? 0 : ret;
}

struct m2m_buffer *m2m_codec_free_output(struct m2m_device *dev)
{
	int i, count = m2m_buffer_count(dev, M2M_QUEUE_OUTPUT);

	for (i = 0; i < count; i++) {
		struct m2m_buffer *b = m2m_get_buffer(dev, M2M_QUEUE_OUTPUT, i);

		if (b && !b->queued)
			return b;
	}
	return NULL;
}

int m2m_codec_frames_alloc(struct m2m_codec_frames *f, unsigned int count)
{
	unsigned int *ready = calloc(count, sizeof(*ready));
	bool *held = calloc(count, sizeof(*held));

	if (!ready || !held) {
		free(ready);
		free(held);
		return m2m_error(ENOMEM, "m2m_decoder: no memory for %u "
				 "CAPTURE buffers", count);
	}
	m2m_codec_frames_free(f);
	f->count = count;
	f->ready = ready;
	f->held = held;
	return 0;
}

void m2m_codec_frames_free(struct m2m_codec_frames *f)
{
	free(f->ready);
	free(f->held);
	memset(f, 0, sizeof(*f));
}

void m2m_codec_frames_add(struct m2m_codec_frames *f, unsigned int index)
{
	f->ready[(f->ready_head + f->ready_count++) % f->count] = index;
}

unsigned int m2m_codec_frames_take(struct m2m_codec_frames *f, bool hold)
{
	unsigned int index = f->ready[f->ready_head];

	f->ready_head = (f->ready_head + 1) % f->count;
	f->ready_count--;
	if (hold) {
		f->held[index] = true;
		f->held_count++;
	}
	return index;
}

int m2m_codec_frames_release(struct m2m_codec_frames *f,
			     struct m2m_device *dev,
			     const struct m2m_frame *frame)
{
	unsigned int index = frame->buffer->index;

	if (index >= f->count || !f->held[index] ||
	    m2m_get_buffer(dev, M2M_QUEUE_CAPTURE, index) != frame->buffer)
		return m2m_error(EINVAL, "m2m_decoder_release: the frame is "
				 "not one the caller holds");
	f->held[index] = false;
	f->held_count--;
	return (int)index;
}

void m2m_codec_fill_frame(struct m2m_frame *frame,
			  const struct m2m_format *format,
			  const struct m2m_rect *visible,
			  struct m2m_buffer *buf)
{
	unsigned int p;

	memset(frame, 0, sizeof(*frame));
	frame->format = *format;
	frame->visible = *visible;
	for (p = 0; p < buf->num_planes && p < M2M_MAX_PLANES; p++) {
		frame->data[p] = buf->data[p];
		frame->bytesused[p] = buf->bytesused[p];
	}
	frame->timestamp_ns = buf->timestamp_ns;
	frame->sequence = buf->sequence;
	frame->flags = buf->flags & M2M_BUFFER_ERROR;
	frame->buffer = buf;
}

/* Where a colour plane starts: its memory plane's bytes before it. */
static size_t plane_start(const struct m2m_format *fmt,
			  const struct m2m_plane_layout *pl)
{
	size_t start = pl->offset;
	uint32_t i;

	for (i = 0; i < pl->memory_plane; i++)
		start += fmt->plane_size[i];
	return start;
}

int m2m_codec_copy_frame(void *dst, const struct m2m_format *dst_fmt,
			 const void *src, const struct m2m_format *src_fmt)
{
	struct m2m_plane_layout dpl[M2M_MAX_PLANES], spl[M2M_MAX_PLANES];
	int n = m2m_format_planes(dpl, dst_fmt), p;

	if (n < 0 || m2m_format_planes(spl, src_fmt) != n)
		return n < 0 ? n : m2m_error(EINVAL, "m2m_codec_copy_frame: "
					     "two layouts of different formats");
	for (p = 0; p < n; p++) {
		uint32_t lines = dpl[p].height < spl[p].height ?
				 dpl[p].height : spl[p].height;
		uint32_t width = dpl[p].width < spl[p].width ?
				 dpl[p].width : spl[p].width;
		size_t row = (size_t)width * dpl[p].channels *
			     dpl[p].sample_bytes;
		unsigned char *d = (unsigned char *)dst +
				   plane_start(dst_fmt, &dpl[p]);
		const unsigned char *s = (const unsigned char *)src +
					 plane_start(src_fmt, &spl[p]);
		uint32_t y;

		for (y = 0; y < lines; y++)
			memcpy(d + (size_t)y * dpl[p].bytesperline,
			       s + (size_t)y * spl[p].bytesperline, row);
	}
	return 0;
}
