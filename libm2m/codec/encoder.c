// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The stateful encoder (include/m2m/codec.h), as the kernel's
 * dev-encoder.rst says: initialisation in its order (CAPTURE's coded
 * format, OUTPUT's raw format and crop, S_PARM, controls read back), then
 * frames in and packets out, and a drain that ends at the CAPTURE buffer
 * flagged LAST (or EPIPE).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"

static struct m2m_codec_kind encoders = M2M_CODEC_KIND_INIT("encoder", "enc");

struct m2m_encoder {
	struct m2m_codec_handle handle;
	struct m2m_device *dev;
	struct m2m_encoder_options opts;
	/* The frames' layout the caller sends, and the encoder's own. */
	struct m2m_format raw, device_raw;
	struct m2m_codec_flow flow;
	/* MMAP (frames copied in by send) or DMABUF (a chain's frames). */
	enum m2m_memory output_memory;
	/* Packets made and not yet received: CAPTURE buffer indices. */
	unsigned int *ready;
	unsigned int ready_head, ready_count;
	/* Per CAPTURE buffer: the caller holds it. */
	bool *held;
	unsigned int held_count, capture_count;
};

/* Set each control and read it back: one the encoder changes or drops
 * is an error, not a setting silently ignored. */
static int set_controls(struct m2m_encoder *enc)
{
	unsigned int i;

	for (i = 0; i < enc->opts.num_controls; i++) {
		const struct m2m_encoder_control *c = &enc->opts.controls[i];
		int64_t value = c->value, back;
		int ret = m2m_set_control(enc->dev, c->id, value);

		if (ret == 0)
			ret = m2m_get_control(enc->dev, &back, c->id);
		if (ret < 0)
			return ret;
		if (back != c->value)
			return m2m_error(EINVAL, "m2m_encoder_open: control "
					 "0x%08x set to %lld reads back %lld "
					 "on %s", c->id, (long long)c->value,
					 (long long)back, enc->dev->info.path);
	}
	return 0;
}

static int set_rate(struct m2m_encoder *enc)
{
	struct v4l2_streamparm parm = {
		.type = enc->dev->mplane ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE :
					   V4L2_BUF_TYPE_VIDEO_OUTPUT,
	};
	struct m2m_device *dev = enc->dev;
	int ret;

	if (!enc->opts.rate_num || !enc->opts.rate_den)
		return 0;
	/* A frame interval is the rate upside down. */
	parm.parm.output.timeperframe.numerator = enc->opts.rate_den;
	parm.parm.output.timeperframe.denominator = enc->opts.rate_num;
	M2M_ENTER(dev);
	ret = m2m_xioctl_quiet(dev, VIDIOC_S_PARM, &parm);
	/* An encoder without S_PARM (vicodec) has no rate to be told. */
	if (ret == -ENOTTY) {
		m2m_log(M2M_LOG_DEBUG, "%s takes no frame rate (no S_PARM)",
			dev->info.path);
		ret = 0;
	} else if (ret < 0) {
		ret = m2m_error(-ret, "VIDIOC_S_PARM on %s: %s", dev->info.path,
				strerror(-ret));
	}
	return m2m_leave(dev, ret);
}

/* dev-encoder.rst, "Initialization", in its order. */
static int init_formats(struct m2m_encoder *enc)
{
	const struct m2m_encoder_options *o = &enc->opts;
	struct m2m_rect crop = { 0, 0, o->width, o->height };
	struct m2m_format coded, raw;
	int ret;

	if (!m2m_codec_lists_coded(enc->dev, M2M_QUEUE_CAPTURE,
				   o->coded_fourcc))
		return m2m_error(ENODEV, "m2m_encoder_open: %s does not make "
				 "0x%08x (not among its CAPTURE queue's "
				 "compressed formats)", enc->dev->info.path,
				 o->coded_fourcc);
	ret = m2m_format_init(&enc->raw, o->raw_fourcc, o->width, o->height);
	if (ret < 0)
		return ret;
	ret = m2m_get_format(enc->dev, &coded, M2M_QUEUE_CAPTURE);
	if (ret < 0)
		return ret;
	coded.fourcc = o->coded_fourcc;
	coded.width = o->width;
	coded.height = o->height;
	coded.num_planes = 1;
	coded.bytesperline[0] = 0;
	coded.plane_size[0] = 0;
	ret = m2m_set_format(enc->dev, &coded, M2M_QUEUE_CAPTURE);
	if (ret < 0)
		return ret;
	raw = enc->raw;
	ret = m2m_set_format(enc->dev, &raw, M2M_QUEUE_OUTPUT);
	if (ret < 0)
		return ret;
	if (raw.fourcc != o->raw_fourcc)
		return m2m_error(EINVAL, "m2m_encoder_open: %s does not take "
				 "0x%08x frames", enc->dev->info.path,
				 o->raw_fourcc);
	if (raw.num_planes != 1)
		return m2m_error(ENOTSUP, "m2m_encoder_open: %s takes 0x%08x "
				 "in %u buffer planes; libm2m's encoder fills "
				 "one", enc->dev->info.path, raw.fourcc,
				 raw.num_planes);
	enc->device_raw = raw;
	/* The picture inside the encoder's aligned size, which the stream's
	 * header carries. */
	if (raw.width != o->width || raw.height != o->height) {
		ret = m2m_set_rect(enc->dev, &crop, M2M_RECT_CROP);
		if (ret < 0)
			return ret;
	}
	ret = set_rate(enc);
	return ret < 0 ? ret : set_controls(enc);
}

static int init_buffers(struct m2m_encoder *enc)
{
	unsigned int i;
	int n;

	n = m2m_alloc_buffers(enc->dev, M2M_QUEUE_OUTPUT, enc->output_memory,
			      enc->opts.output_buffers);
	if (n < 0)
		return n;
	n = m2m_alloc_buffers(enc->dev, M2M_QUEUE_CAPTURE, M2M_MEMORY_MMAP,
			      enc->opts.held_packets + 2);
	if (n < 0)
		return n;
	enc->capture_count = n;
	enc->ready = calloc(n, sizeof(*enc->ready));
	enc->held = calloc(n, sizeof(*enc->held));
	if (!enc->ready || !enc->held)
		return m2m_error(ENOMEM, "m2m_encoder_open: no memory");
	for (i = 0; i < (unsigned int)n; i++) {
		int ret = m2m_queue_buffer(enc->dev,
				m2m_get_buffer(enc->dev, M2M_QUEUE_CAPTURE, i));

		if (ret < 0)
			return ret;
	}
	return m2m_stream_on(enc->dev, M2M_QUEUE_CAPTURE);
}

/* A CAPTURE buffer: a packet for the caller, or the drain's end. */
static int captured(struct m2m_encoder *enc, struct m2m_buffer *buf)
{
	if (buf->bytesused[0] || buf->flags & M2M_BUFFER_ERROR)
		enc->ready[(enc->ready_head + enc->ready_count++) %
			   enc->capture_count] = buf->index;
	else if (!(buf->flags & M2M_BUFFER_LAST))
		return m2m_queue_buffer(enc->dev, buf);
	if (buf->flags & M2M_BUFFER_LAST) {
		enc->flow.draining = false;
		enc->flow.drained = true;
	}
	return 0;
}

/* Wait up to timeout_ms for the device, then take what it gives: 1 when
 * something was ready, 0 on timeout, or a negative errno. */
static int service(struct m2m_encoder *enc, int timeout_ms)
{
	int news;
	struct m2m_buffer *buf;
	int ret;

	news = m2m_codec_wait(&enc->handle, enc->dev,
			      M2M_READY_CAPTURE | M2M_READY_OUTPUT, timeout_ms);
	if (news < 0)
		return news;
	ret = enc->flow.output_streaming ? m2m_codec_take_output(enc->dev) : 0;
	while (ret == 0 && !enc->flow.drained) {
		ret = m2m_dequeue_buffer(enc->dev, &buf, M2M_QUEUE_CAPTURE);
		if (ret == 0)
			ret = captured(enc, buf);
		else if (ret == -EPIPE)
			enc->flow.draining = false, enc->flow.drained = true;
	}
	if (ret == -EAGAIN || ret == -EPIPE)
		ret = 0;
	return ret < 0 ? ret : news;
}

/* After a drain: CAPTURE buffers neither held nor ready go back to the
 * encoder. */
static int requeue_idle(struct m2m_encoder *enc)
{
	unsigned int i, r;
	int ret = 0;

	for (i = 0; ret == 0 && i < enc->capture_count; i++) {
		struct m2m_buffer *b = m2m_get_buffer(enc->dev,
						      M2M_QUEUE_CAPTURE, i);
		bool ready = false;

		for (r = 0; r < enc->ready_count; r++)
			ready |= enc->ready[(enc->ready_head + r) %
					    enc->capture_count] == i;
		if (b && !b->queued && !enc->held[i] && !ready)
			ret = m2m_queue_buffer(enc->dev, b);
	}
	return ret;
}

/* Sending after a drain starts a new stream. START alone leaves vb2's
 * "last buffer dequeued" set in vicodec (it clears it only while stopped,
 * and START has just ended that), so DQBUF would say EPIPE: CAPTURE is
 * restarted too, as dev-encoder.rst allows. */
static int resume(struct m2m_encoder *enc)
{
	int ret;

	if (!enc->flow.drained && !enc->flow.draining)
		return 0;
	ret = m2m_stream_off(enc->dev, M2M_QUEUE_CAPTURE);
	if (ret == 0)
		ret = m2m_codec_cmd(enc->dev, false, V4L2_ENC_CMD_START, false);
	if (ret == 0)
		ret = m2m_stream_on(enc->dev, M2M_QUEUE_CAPTURE);
	if (ret == 0)
		ret = requeue_idle(enc);
	if (ret == 0)
		enc->flow.drained = enc->flow.draining = false;
	return ret;
}

static int send_frame(struct m2m_encoder *enc, const void *frame, size_t size,
		      uint64_t timestamp_ns)
{
	int64_t end = m2m_codec_deadline(enc->opts.timeout_ms);
	struct m2m_buffer *buf;
	int ret;

	if (enc->output_memory != M2M_MEMORY_MMAP)
		return m2m_error(EINVAL, "m2m_encoder_send: this encoder takes "
				 "DMABUF frames (m2m_encoder_queue_dmabuf)");
	if (size < m2m_format_frame_size(&enc->raw))
		return m2m_error(ENOSPC, "m2m_encoder_send: %zu bytes, a "
				 "frame is %zu", size,
				 m2m_format_frame_size(&enc->raw));
	ret = resume(enc);
	if (ret < 0)
		return ret;
	ret = enc->flow.output_streaming ? m2m_codec_take_output(enc->dev) : 0;
	while (ret == 0 && !(buf = m2m_codec_free_output(enc->dev))) {
		if (enc->ready_count || enc->held_count >= enc->capture_count)
			return m2m_error(EAGAIN, "m2m_encoder_send: every "
					 "OUTPUT buffer is taken: receive "
					 "or release packets first");
		ret = service(enc, m2m_codec_left(end));
		if (ret == 0)
			return m2m_error(ETIMEDOUT, "m2m_encoder_send: the "
					 "encoder took no frame in %d ms",
					 enc->opts.timeout_ms);
		ret = ret < 0 ? ret : 0;
	}
	if (ret < 0)
		return ret;
	ret = m2m_codec_copy_frame(buf->data[0], &enc->device_raw, frame,
				   &enc->raw);
	if (ret < 0)
		return ret;
	buf->bytesused[0] = enc->device_raw.plane_size[0];
	buf->timestamp_ns = timestamp_ns;
	return m2m_codec_queue_output(enc->dev, &enc->flow, buf);
}

int m2m_encoder_send(struct m2m_encoder *enc, const void *frame, size_t size,
		     uint64_t timestamp_ns)
{
	M2M_CODEC_ENTER(&encoders, enc);
	return m2m_codec_leave(&enc->handle, frame ?
			       send_frame(enc, frame, size, timestamp_ns) :
			       m2m_error(EINVAL, "m2m_encoder_send: frame is "
					 "NULL"), __func__);
}

static int queue_dmabuf(struct m2m_encoder *enc, unsigned int index, int fd,
			uint64_t timestamp_ns)
{
	struct m2m_buffer *buf;
	int ret;

	if (enc->output_memory != M2M_MEMORY_DMABUF)
		return m2m_error(EINVAL, "m2m_encoder_queue_dmabuf: the "
				 "encoder's OUTPUT buffers are MMAP");
	buf = m2m_get_buffer(enc->dev, M2M_QUEUE_OUTPUT, index);
	if (!buf)
		return -EINVAL;
	ret = resume(enc);
	if (ret < 0)
		return ret;
	buf->fd[0] = fd;
	buf->bytesused[0] = enc->device_raw.plane_size[0];
	buf->timestamp_ns = timestamp_ns;
	return m2m_codec_queue_output(enc->dev, &enc->flow, buf);
}

int m2m_encoder_queue_dmabuf(struct m2m_encoder *enc, unsigned int index,
			     int fd, uint64_t timestamp_ns)
{
	M2M_CODEC_ENTER(&encoders, enc);
	return m2m_codec_leave(&enc->handle, queue_dmabuf(enc, index, fd,
							  timestamp_ns),
			       __func__);
}

int m2m_encoder_drain(struct m2m_encoder *enc)
{
	M2M_CODEC_ENTER(&encoders, enc);
	return m2m_codec_leave(&enc->handle, m2m_codec_drain(enc->dev,
							     &enc->flow),
			       __func__);
}

/*
 * An FWHT packet's KEYFRAME or PFRAME flag, from its frame header: vicodec
 * flags neither on its CAPTURE buffers, and a caller (FFmpeg's
 * AV_PKT_FLAG_KEY, a muxer, a seek table) needs to know. 0 for other
 * formats, and where the driver flagged the buffer itself.
 */
static uint32_t fwht_frame_kind(const struct m2m_encoder *enc,
				const struct m2m_packet *packet)
{
	const uint32_t kinds = V4L2_BUF_FLAG_KEYFRAME | V4L2_BUF_FLAG_PFRAME |
			       V4L2_BUF_FLAG_BFRAME;
	struct m2m_fwht_header hdr;

	if (enc->opts.coded_fourcc != V4L2_PIX_FMT_FWHT ||
	    (packet->flags & kinds) ||
	    m2m_fwht_parse_header(&hdr, packet->data, packet->size) < 0)
		return 0;
	return hdr.flags & V4L2_FWHT_FL_I_FRAME ? V4L2_BUF_FLAG_KEYFRAME :
						  V4L2_BUF_FLAG_PFRAME;
}

static int receive_packet(struct m2m_encoder *enc, struct m2m_packet *packet,
			  int timeout_ms)
{
	int64_t end = m2m_codec_deadline(timeout_ms);
	int ret;

	for (;;) {
		if (enc->ready_count) {
			unsigned int index = enc->ready[enc->ready_head];
			struct m2m_buffer *buf = m2m_get_buffer(enc->dev,
						M2M_QUEUE_CAPTURE, index);

			enc->ready_head = (enc->ready_head + 1) %
					  enc->capture_count;
			enc->ready_count--;
			enc->held[index] = true;
			enc->held_count++;
			memset(packet, 0, sizeof(*packet));
			packet->data = buf->data[0];
			packet->size = buf->bytesused[0];
			packet->timestamp_ns = buf->timestamp_ns;
			packet->sequence = buf->sequence;
			packet->flags = buf->flags & (M2M_BUFFER_ERROR |
						      V4L2_BUF_FLAG_KEYFRAME |
						      V4L2_BUF_FLAG_PFRAME |
						      V4L2_BUF_FLAG_BFRAME);
			packet->flags |= fwht_frame_kind(enc, packet);
			packet->buffer = buf;
			return 0;
		}
		if (enc->flow.drained)
			return -ENODATA;
		ret = service(enc, m2m_codec_left(end));
		if (ret < 0)
			return ret;
		if (ret == 0 && !enc->ready_count && !enc->flow.drained)
			return -EAGAIN;
	}
}

int m2m_encoder_receive(struct m2m_encoder *enc, struct m2m_packet *packet,
			int timeout_ms)
{
	M2M_CODEC_ENTER(&encoders, enc);
	return m2m_codec_leave(&enc->handle, packet ?
			       receive_packet(enc, packet, timeout_ms) :
			       m2m_error(EINVAL, "m2m_encoder_receive: packet "
					 "is NULL"), __func__);
}

static int release_packet(struct m2m_encoder *enc,
			  const struct m2m_packet *packet)
{
	unsigned int index = packet->buffer->index;


	if (index >= enc->capture_count || !enc->held[index] ||
	    m2m_get_buffer(enc->dev, M2M_QUEUE_CAPTURE, index) !=
	    packet->buffer)
		return m2m_error(EINVAL, "m2m_encoder_release: the packet is "
				 "not one the caller holds");
	enc->held[index] = false;
	enc->held_count--;
	return m2m_queue_buffer(enc->dev, packet->buffer);
}

int m2m_encoder_release(struct m2m_encoder *enc,
			const struct m2m_packet *packet)
{
	M2M_CODEC_ENTER(&encoders, enc);
	return m2m_codec_leave(&enc->handle, packet && packet->buffer ?
			       release_packet(enc, packet) :
			       m2m_error(EINVAL, "m2m_encoder_release: packet "
					 "is NULL"), __func__);
}

int m2m_encoder_get_format(struct m2m_encoder *enc, struct m2m_format *raw)
{
	M2M_CODEC_ENTER(&encoders, enc);
	if (raw)
		*raw = enc->raw;
	return m2m_codec_leave(&enc->handle, raw ? 0 :
			       m2m_error(EINVAL, "m2m_encoder_get_format: raw "
					 "is NULL"), __func__);
}

struct m2m_device *m2m_encoder_device(struct m2m_encoder *enc)
{
	struct m2m_device *dev;

	if (m2m_codec_enter(&encoders, enc, __func__) < 0)
		return NULL;
	dev = enc->dev;
	m2m_codec_leave(&enc->handle, 0, __func__);
	return dev;
}

/* A node that makes the coded format. */
static bool encodes(struct m2m_device *dev, const void *arg)
{
	return m2m_codec_lists_coded(dev, M2M_QUEUE_CAPTURE,
				     *(const uint32_t *)arg);
}

int m2m_encoder_open(struct m2m_encoder **out, const char *name,
		     const struct m2m_encoder_options *opts)
{
	return m2m_encoder_open_memory(out, name, opts, M2M_MEMORY_MMAP);
}

/* What open made, once no other thread can reach it. */
static void encoder_free(struct m2m_encoder *enc)
{
	m2m_close(enc->dev);
	free(enc->ready);
	free(enc->held);
	m2m_codec_handle_destroy(&enc->handle);
	free(enc);
}

int m2m_encoder_open_memory(struct m2m_encoder **out, const char *name,
			    const struct m2m_encoder_options *opts,
			    enum m2m_memory output_memory)
{
	struct m2m_open_options open_opts = M2M_OPEN_OPTIONS_INIT;
	struct m2m_node_match match = { encodes, NULL, "encoder" };
	struct m2m_encoder *enc;
	int ret;

	if (!out)
		return m2m_error(EINVAL, "m2m_encoder_open: out is NULL");
	*out = NULL;
	if (!opts || opts->version != M2M_ENCODER_OPTIONS_VERSION)
		return m2m_error(EINVAL, "m2m_encoder_open: opts is %s",
				 opts ? "of an unknown version" : "NULL");
	if (!opts->coded_fourcc || !opts->raw_fourcc || !opts->width ||
	    !opts->height)
		return m2m_error(EINVAL, "m2m_encoder_open: opts needs "
				 "coded_fourcc, raw_fourcc, width and height");
	if (opts->num_controls && !opts->controls)
		return m2m_error(EINVAL, "m2m_encoder_open: opts->controls "
				 "is NULL");
	enc = calloc(1, sizeof(*enc));
	if (!enc)
		return m2m_error(ENOMEM, "m2m_encoder_open: no memory");
	m2m_codec_handle_init(&enc->handle, &encoders);
	enc->opts = *opts;
	enc->output_memory = output_memory;
	if (!enc->opts.held_packets)
		enc->opts.held_packets = 2;
	if (!enc->opts.output_buffers)
		enc->opts.output_buffers = 4;
	if (enc->opts.timeout_ms <= 0)
		enc->opts.timeout_ms = 5000;
	open_opts.flags = M2M_OPEN_NONBLOCK;
	match.arg = &enc->opts.coded_fourcc;
	ret = m2m_open_node(&enc->dev, name, &open_opts, &match);
	if (ret == 0)
		ret = init_formats(enc);
	if (ret == 0)
		ret = init_buffers(enc);
	if (ret < 0) {
		encoder_free(enc);
		return ret;
	}
	/* The controls pointer is the caller's; it is not kept. */
	enc->opts.controls = NULL;
	enc->opts.num_controls = 0;
	m2m_codec_handle_add(&enc->handle, enc);
	*out = enc;
	return 0;
}

void m2m_encoder_close(struct m2m_encoder *enc)
{
	struct m2m_codec_handle *h = m2m_codec_close_begin(&encoders, enc);

	if (!h)
		return;
	/* Calls waiting on the device end now, and calls waiting for the
	 * lock fail when they have it. */
	m2m_codec_interrupt(enc->dev);
	m2m_codec_close_end(h);
	encoder_free(enc);
}
