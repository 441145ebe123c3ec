// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The stateful decoder (include/m2m/codec.h), as the kernel's
 * dev-decoder.rst says, over the same device calls converters use.
 *
 * Everything the device reports is handled in one place, service(): events
 * (SOURCE_CHANGE), OUTPUT buffers coming back free, and CAPTURE buffers,
 * which go to a queue of frames ready for the caller. A CAPTURE buffer
 * flagged LAST (or DQBUF's EPIPE) ends a geometry or a drain; which one is
 * decided by what came before it: a SOURCE_CHANGE event, or our STOP.
 * Never by counting buffers, and never by the EOS event.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"

/* Timestamps sent since the last seek that a frame may carry. */
#define SENT_RING 64

static struct m2m_codec_kind decoders = M2M_CODEC_KIND_INIT("decoder", "dec");

struct m2m_decoder {
	struct m2m_codec_handle handle;
	struct m2m_device *dev;
	struct m2m_decoder_options opts;
	/* A stateless node's decoder (stateless.c): the calls go there. */
	struct m2m_stateless *stateless;
	/* CAPTURE is set up and streaming in the format below. */
	bool capture_ready;
	struct m2m_format capture;
	struct m2m_rect visible;
	/* A SOURCE_CHANGE came: the next LAST ends the old geometry. */
	bool change_pending;
	/* The old geometry ended: CAPTURE restarts once its frames are out. */
	bool reconfigure;
	/* OUTPUT started; STOP sent; drained once its LAST came. */
	struct m2m_codec_flow flow;
	/* Frames decoded and not yet received, and those the caller holds. */
	struct m2m_codec_frames frames;
	/* After a seek, the timestamps sent since (in microseconds, as V4L2
	 * carries them): frames with others were decoded before it. */
	bool after_seek;
	uint64_t sent[SENT_RING];
	unsigned int sent_count;
};

static int queue_capture(struct m2m_decoder *dec, unsigned int index)
{
	struct m2m_buffer *buf = m2m_get_buffer(dec->dev, M2M_QUEUE_CAPTURE,
						index);

	return buf ? m2m_queue_buffer(dec->dev, buf) : -EINVAL;
}

/* Queue every CAPTURE buffer the caller does not hold, and start. */
static int start_capture(struct m2m_decoder *dec)
{
	unsigned int i, count = m2m_buffer_count(dec->dev, M2M_QUEUE_CAPTURE);
	int ret = m2m_stream_on(dec->dev, M2M_QUEUE_CAPTURE);

	for (i = 0; ret == 0 && i < count; i++)
		if (!dec->frames.held[i])
			ret = queue_capture(dec, i);
	dec->capture_ready = ret == 0;
	return ret;
}

/* The decoded format and picture the device now gives. */
static int read_capture_format(struct m2m_decoder *dec)
{
	int ret = m2m_get_format(dec->dev, &dec->capture, M2M_QUEUE_CAPTURE);

	if (ret < 0)
		return ret;
	if (m2m_get_rect(dec->dev, &dec->visible, M2M_RECT_COMPOSE) < 0) {
		dec->visible.left = dec->visible.top = 0;
		dec->visible.width = dec->capture.width;
		dec->visible.height = dec->capture.height;
	}
	return 0;
}

/*
 * CAPTURE buffers: the decoder's minimum (V4L2_CID_MIN_BUFFERS_FOR_CAPTURE,
 * which a decoder need not offer: vicodec does not), plus the frames the
 * caller holds, plus one so that the decoder always has one to fill.
 */
static unsigned int capture_count(struct m2m_decoder *dec)
{
	struct m2m_control_info info;
	int64_t min = 1;

	if (m2m_find_control(dec->dev, &info, "min_buffers_for_capture", 0) == 0)
		m2m_get_control(dec->dev, &min, V4L2_CID_MIN_BUFFERS_FOR_CAPTURE);
	if (min < 1)
		min = 1;
	return (unsigned int)min + dec->opts.held_frames + 1;
}

/* dev-decoder.rst, "Capture Setup": the format, buffers, STREAMON. */
static int setup_capture(struct m2m_decoder *dec)
{
	unsigned int want = capture_count(dec);
	int n, ret;

	if (dec->opts.capture_fourcc) {
		struct m2m_format f;

		ret = m2m_get_format(dec->dev, &f, M2M_QUEUE_CAPTURE);
		f.fourcc = dec->opts.capture_fourcc;
		f.num_planes = 0;
		if (ret == 0)
			ret = m2m_set_format(dec->dev, &f, M2M_QUEUE_CAPTURE);
		if (ret < 0)
			return ret;
	}
	ret = read_capture_format(dec);
	if (ret < 0)
		return ret;
	n = m2m_alloc_buffers(dec->dev, M2M_QUEUE_CAPTURE, M2M_MEMORY_MMAP,
			      want);
	if (n < 0)
		return n;
	ret = m2m_codec_frames_alloc(&dec->frames, n);
	return ret < 0 ? ret : start_capture(dec);
}

/* Whether every plane of every CAPTURE buffer holds the new format. */
static bool buffers_fit(struct m2m_decoder *dec, unsigned int want)
{
	unsigned int i, p, count = m2m_buffer_count(dec->dev, M2M_QUEUE_CAPTURE);

	if (count < want)
		return false;
	for (i = 0; i < count; i++) {
		struct m2m_buffer *b = m2m_get_buffer(dec->dev,
						      M2M_QUEUE_CAPTURE, i);

		if (!b || b->num_planes != dec->capture.num_planes)
			return false;
		for (p = 0; p < b->num_planes; p++)
			if (b->length[p] < dec->capture.plane_size[p])
				return false;
	}
	return true;
}

/*
 * dev-decoder.rst, "Dynamic Resolution Change", once the old geometry's
 * frames are all out: CAPTURE restarts in the new format, in the buffers
 * it has when they are large enough and enough, else in new ones, which
 * waits for the caller's frames (they are mapped from the old ones).
 */
static int reconfigure(struct m2m_decoder *dec)
{
	int ret;

	ret = read_capture_format(dec);
	if (ret < 0)
		return ret;
	ret = m2m_stream_off(dec->dev, M2M_QUEUE_CAPTURE);
	if (ret < 0)
		return ret;
	dec->capture_ready = false;
	if (buffers_fit(dec, capture_count(dec))) {
		ret = start_capture(dec);
	} else {
		if (dec->frames.held_count)
			return m2m_error(EBUSY, "m2m_decoder_receive: the "
					 "stream's size changed to %ux%u: "
					 "release the %u frames held so that "
					 "CAPTURE can be allocated again",
					 dec->capture.width,
					 dec->capture.height,
					 dec->frames.held_count);
		ret = setup_capture(dec);
	}
	if (ret == 0)
		dec->reconfigure = false;
	/* STREAMOFF of CAPTURE ends a drain in v4l2-mem2mem
	 * (v4l2_m2m_clear_state(), so in vicodec), which would then never
	 * send its LAST: STOP again. A decoder still draining says EBUSY,
	 * and the drain goes on. */
	if (ret == 0 && dec->flow.draining)
		ret = m2m_codec_cmd(dec->dev, true, V4L2_DEC_CMD_STOP, true);
	return ret;
}

/* A LAST buffer (or EPIPE): the end of a geometry or of a drain. */
static void capture_ended(struct m2m_decoder *dec)
{
	if (dec->change_pending) {
		dec->change_pending = false;
		dec->reconfigure = true;
	} else if (dec->flow.draining) {
		dec->flow.draining = false;
		dec->flow.drained = true;
	} else {
		/* A geometry ended before its event was read: restart in
		 * whatever format the device now gives. */
		dec->reconfigure = true;
	}
}

static bool sent_since_seek(struct m2m_decoder *dec, uint64_t ts_ns)
{
	unsigned int i, n = dec->sent_count < SENT_RING ? dec->sent_count :
							  SENT_RING;

	for (i = 0; i < n; i++)
		if (dec->sent[i] == ts_ns / 1000)
			return true;
	return false;
}

/* A decoded CAPTURE buffer: to the caller, or back to the device. */
static int captured(struct m2m_decoder *dec, struct m2m_buffer *buf)
{
	bool empty = buf->bytesused[0] == 0 && !(buf->flags & M2M_BUFFER_ERROR);
	bool stale = dec->after_seek && !sent_since_seek(dec, buf->timestamp_ns);
	int ret = 0;

	if (!empty && !stale)
		m2m_codec_frames_add(&dec->frames, buf->index);
	else if (!(buf->flags & M2M_BUFFER_LAST))
		ret = m2m_queue_buffer(dec->dev, buf);
	if (buf->flags & M2M_BUFFER_LAST)
		capture_ended(dec);
	return ret;
}

/*
 * Whether CAPTURE's format differs from the one it streams in. A decoder
 * may repeat the event of a stream's first header after OUTPUT restarts
 * (a seek: vicodec does) with nothing changed, and then sends no LAST.
 */
static bool format_changed(struct m2m_decoder *dec)
{
	struct m2m_format now;

	if (m2m_get_format(dec->dev, &now, M2M_QUEUE_CAPTURE) < 0)
		return true;
	return now.fourcc != dec->capture.fourcc ||
	       now.width != dec->capture.width ||
	       now.height != dec->capture.height ||
	       memcmp(now.plane_size, dec->capture.plane_size,
		      sizeof(now.plane_size));
}

static int take_events(struct m2m_decoder *dec)
{
	struct m2m_event ev;
	int ret;

	while ((ret = m2m_dequeue_event(dec->dev, &ev)) == 0) {
		if (ev.type != M2M_EVENT_SOURCE_CHANGE ||
		    !(ev.changes & V4L2_EVENT_SRC_CH_RESOLUTION))
			continue;
		/* The first: the stream's header was read. Later ones end
		 * the geometry at the next LAST, when it did change. */
		if (!dec->capture_ready && !dec->reconfigure) {
			ret = setup_capture(dec);
			/* A STOP sent before CAPTURE streamed may have been
			 * ignored (vicodec's needs both queues streaming). */
			if (ret == 0 && dec->flow.draining)
				ret = m2m_codec_cmd(dec->dev, true,
						    V4L2_DEC_CMD_STOP, true);
		} else if (format_changed(dec))
			dec->change_pending = true;
		if (ret < 0)
			return ret;
	}
	return ret == -EAGAIN ? 0 : ret;
}

static int take_output(struct m2m_decoder *dec)
{
	return dec->flow.output_streaming ? m2m_codec_take_output(dec->dev) : 0;
}

static int take_capture(struct m2m_decoder *dec)
{
	struct m2m_buffer *buf;
	int ret;

	while (dec->capture_ready && !dec->reconfigure && !dec->flow.drained) {
		ret = m2m_dequeue_buffer(dec->dev, &buf, M2M_QUEUE_CAPTURE);
		if (ret == -EAGAIN)
			return 0;
		if (ret == -EPIPE) {
			capture_ended(dec);
			return 0;
		}
		if (ret == 0)
			ret = captured(dec, buf);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * Wait up to timeout_ms for the device to report anything, then handle
 * everything it reports. Returns 1 when something was ready, 0 on
 * timeout, or a negative errno.
 */
static int service(struct m2m_decoder *dec, int timeout_ms)
{
	unsigned int wanted = M2M_READY_EVENT | M2M_READY_OUTPUT;
	int news, ret;

	if (dec->capture_ready)
		wanted |= M2M_READY_CAPTURE;
	news = m2m_codec_wait(&dec->handle, dec->dev, wanted, timeout_ms);
	if (news < 0)
		return news;
	/* Events first: a SOURCE_CHANGE decides what a LAST means. */
	ret = take_events(dec);
	if (ret == 0)
		ret = take_output(dec);
	if (ret == 0)
		ret = take_capture(dec);
	return ret < 0 ? ret : news;
}

/* The decoder can make no frame until the caller receives or releases. */
static bool waits_for_caller(struct m2m_decoder *dec)
{
	unsigned int count = m2m_buffer_count(dec->dev, M2M_QUEUE_CAPTURE);

	return dec->frames.ready_count ||
	       (dec->capture_ready && dec->frames.held_count >= count) ||
	       (dec->reconfigure && dec->frames.held_count);
}

/*
 * CAPTURE again for a new stream after a drain. STREAMOFF and STREAMON of
 * CAPTURE resume a stopped decoder (dev-decoder.rst, "Drain") as START
 * does, and more surely: vicodec's START leaves vb2's last buffer
 * dequeued (it asks has_stopped after v4l2-mem2mem cleared it), so DQBUF
 * would say EPIPE and the new stream's first frame be lost. It also
 * queues again the empty buffer that carried LAST.
 */
static int restart_capture(struct m2m_decoder *dec)
{
	int ret;

	if (!dec->capture_ready || dec->frames.ready_count)
		return 0;
	ret = m2m_stream_off(dec->dev, M2M_QUEUE_CAPTURE);
	if (ret < 0)
		return ret;
	dec->capture_ready = false;
	return start_capture(dec);
}

static int send_coded(struct m2m_decoder *dec, const void *data, size_t size,
		uint64_t timestamp_ns)
{
	int64_t end = m2m_codec_deadline(dec->opts.timeout_ms);
	struct m2m_buffer *buf;
	int ret;

	if (dec->flow.drained || dec->flow.draining) {
		/* A new stream after a drain (dev-decoder.rst, "Drain"). */
		ret = m2m_codec_cmd(dec->dev, true, V4L2_DEC_CMD_START, false);
		if (ret == 0 && dec->flow.drained)
			ret = restart_capture(dec);
		if (ret < 0)
			return ret;
		dec->flow.drained = dec->flow.draining = false;
	}
	ret = take_output(dec);
	while (ret == 0 && !(buf = m2m_codec_free_output(dec->dev))) {
		if (waits_for_caller(dec))
			return m2m_error(EAGAIN, "m2m_decoder_send: every "
					 "OUTPUT buffer is taken: receive "
					 "or release frames first");
		ret = service(dec, m2m_codec_left(end));
		if (ret == 0)
			return m2m_error(ETIMEDOUT, "m2m_decoder_send: the "
					 "decoder took no data in %d ms",
					 dec->opts.timeout_ms);
		ret = ret < 0 ? ret : 0;
	}
	if (ret < 0)
		return ret;
	if (size > buf->length[0])
		return m2m_error(ENOSPC, "m2m_decoder_send: %zu bytes, an "
				 "OUTPUT buffer holds %u", size,
				 buf->length[0]);
	if (size)
		memcpy(buf->data[0], data, size);
	buf->bytesused[0] = size;
	buf->timestamp_ns = timestamp_ns;
	ret = m2m_codec_queue_output(dec->dev, &dec->flow, buf);
	if (ret == 0 && dec->after_seek)
		dec->sent[dec->sent_count++ % SENT_RING] = timestamp_ns / 1000;
	return ret;
}

int m2m_decoder_send(struct m2m_decoder *dec, const void *data, size_t size,
		     uint64_t timestamp_ns)
{
	int ret;

	M2M_CODEC_ENTER(&decoders, dec);
	if (!data && size)
		ret = m2m_error(EINVAL, "m2m_decoder_send: data is NULL");
	else if (dec->stateless)
		ret = m2m_stateless_send(dec->stateless, data, size,
					 timestamp_ns);
	else
		ret = send_coded(dec, data, size, timestamp_ns);
	return m2m_codec_leave(&dec->handle, ret, __func__);
}

int m2m_decoder_drain(struct m2m_decoder *dec)
{
	M2M_CODEC_ENTER(&decoders, dec);
	return m2m_codec_leave(&dec->handle, dec->stateless ?
			       m2m_stateless_drain(dec->stateless) :
			       m2m_codec_drain(dec->dev, &dec->flow),
			       __func__);
}

static int receive_frame(struct m2m_decoder *dec, struct m2m_frame *frame,
		   int timeout_ms)
{
	int64_t end = m2m_codec_deadline(timeout_ms);
	int ret;

	for (;;) {
		if (dec->frames.ready_count) {
			unsigned int index = m2m_codec_frames_take(&dec->frames,
								   true);

			m2m_codec_fill_frame(frame, &dec->capture,
					     &dec->visible,
					     m2m_get_buffer(dec->dev,
							    M2M_QUEUE_CAPTURE,
							    index));
			return 0;
		}
		if (dec->flow.drained)
			return -ENODATA;
		if (dec->reconfigure) {
			ret = reconfigure(dec);
			if (ret < 0)
				return ret;
			continue;
		}
		ret = service(dec, m2m_codec_left(end));
		if (ret < 0)
			return ret;
		if (ret == 0 && !dec->frames.ready_count && !dec->flow.drained &&
		    !dec->reconfigure)
			return -EAGAIN;
	}
}

int m2m_decoder_receive(struct m2m_decoder *dec, struct m2m_frame *frame,
			int timeout_ms)
{
	int ret;

	M2M_CODEC_ENTER(&decoders, dec);
	if (!frame)
		ret = m2m_error(EINVAL, "m2m_decoder_receive: frame is NULL");
	else if (dec->stateless)
		ret = m2m_stateless_receive(dec->stateless, frame, timeout_ms);
	else
		ret = receive_frame(dec, frame, timeout_ms);
	return m2m_codec_leave(&dec->handle, ret, __func__);
}

static int release_frame(struct m2m_decoder *dec, const struct m2m_frame *frame)
{
	int ret = m2m_codec_frames_release(&dec->frames, dec->dev, frame);

	if (ret < 0)
		return ret;
	/* Stopped CAPTURE (a resolution change) takes it at its restart. */
	return dec->capture_ready ? m2m_queue_buffer(dec->dev, frame->buffer) :
				    0;
}

int m2m_decoder_release(struct m2m_decoder *dec, const struct m2m_frame *frame)
{
	int ret;

	M2M_CODEC_ENTER(&decoders, dec);
	if (!frame || !frame->buffer)
		ret = m2m_error(EINVAL, "m2m_decoder_release: frame is NULL");
	else if (dec->stateless)
		ret = m2m_stateless_release(dec->stateless, frame);
	else
		ret = release_frame(dec, frame);
	return m2m_codec_leave(&dec->handle, ret, __func__);
}

static int seek(struct m2m_decoder *dec)
{
	int ret;

	if (dec->flow.output_streaming) {
		ret = m2m_stream_off(dec->dev, M2M_QUEUE_OUTPUT);
		if (ret < 0)
			return ret;
		dec->flow.output_streaming = false;
	}
	/* Frames decoded before the seek and not received go back. */
	while (dec->frames.ready_count) {
		ret = queue_capture(dec, m2m_codec_frames_take(&dec->frames,
							       false));
		if (ret < 0)
			return ret;
	}
	dec->after_seek = true;
	dec->sent_count = 0;
	return 0;
}

int m2m_decoder_seek(struct m2m_decoder *dec)
{
	M2M_CODEC_ENTER(&decoders, dec);
	return m2m_codec_leave(&dec->handle, dec->stateless ?
			       m2m_stateless_seek(dec->stateless) : seek(dec),
			       __func__);
}

static int get_format(struct m2m_decoder *dec, struct m2m_format *format,
		      struct m2m_rect *visible)
{
	if (!dec->capture_ready && !dec->reconfigure)
		return m2m_error(EAGAIN, "m2m_decoder_get_format: the decoder "
				 "has not read the stream's header yet");
	*format = dec->capture;
	if (visible)
		*visible = dec->visible;
	return 0;
}

int m2m_decoder_get_format(struct m2m_decoder *dec, struct m2m_format *format,
			   struct m2m_rect *visible)
{
	int ret;

	M2M_CODEC_ENTER(&decoders, dec);
	if (!format)
		ret = m2m_error(EINVAL, "m2m_decoder_get_format: format is "
				"NULL");
	else if (dec->stateless)
		ret = m2m_stateless_get_format(dec->stateless, format,
					       visible);
	else
		ret = get_format(dec, format, visible);
	return m2m_codec_leave(&dec->handle, ret, __func__);
}

struct m2m_device *m2m_decoder_device(struct m2m_decoder *dec)
{
	struct m2m_device *dev;

	if (m2m_codec_enter(&decoders, dec, __func__) < 0)
		return NULL;
	dev = dec->dev;
	m2m_codec_leave(&dec->handle, 0, __func__);
	return dev;
}

/* dev-decoder.rst, "Initialization": OUTPUT's format, buffers, events. */
static int init_output(struct m2m_decoder *dec)
{
	const struct m2m_decoder_options *o = &dec->opts;
	struct m2m_format f;
	int ret, n;

	if (!m2m_codec_lists_coded(dec->dev, M2M_QUEUE_OUTPUT,
				   o->coded_fourcc))
		return m2m_error(ENODEV, "m2m_decoder_open: %s does not "
				 "decode 0x%08x (not among its OUTPUT "
				 "queue's compressed formats)",
				 dec->dev->info.path, o->coded_fourcc);
	ret = m2m_get_format(dec->dev, &f, M2M_QUEUE_OUTPUT);
	if (ret < 0)
		return ret;
	f.fourcc = o->coded_fourcc;
	f.width = o->width;
	f.height = o->height;
	f.num_planes = 1;
	f.bytesperline[0] = 0;
	/* sizeimage 0: the decoder's choice for the size. */
	f.plane_size[0] = 0;
	ret = m2m_set_format(dec->dev, &f, M2M_QUEUE_OUTPUT);
	if (ret == 0)
		ret = m2m_subscribe_event(dec->dev, M2M_EVENT_SOURCE_CHANGE,
					  0, 0);
	if (ret < 0)
		return ret;
	n = m2m_alloc_buffers(dec->dev, M2M_QUEUE_OUTPUT, M2M_MEMORY_MMAP,
			      o->output_buffers);
	if (n < 0)
		return n;
	/* The size given: CAPTURE's format follows OUTPUT's at once. */
	return o->width && o->height ? setup_capture(dec) : 0;
}

/* What open made, once no other thread can reach it. */
static void decoder_free(struct m2m_decoder *dec)
{
	m2m_close(dec->dev);
	m2m_stateless_close(dec->stateless);
	m2m_codec_frames_free(&dec->frames);
	m2m_codec_handle_destroy(&dec->handle);
	free(dec);
}

/* A node that decodes the coded format, statefully or not. */
static bool decodes(struct m2m_device *dev, const void *arg)
{
	uint32_t coded_fourcc = *(const uint32_t *)arg;

	return m2m_codec_lists_coded(dev, M2M_QUEUE_OUTPUT, coded_fourcc) ||
	       m2m_stateless_takes(dev, coded_fourcc);
}

int m2m_decoder_open(struct m2m_decoder **out, const char *name,
		     const struct m2m_decoder_options *opts)
{
	struct m2m_open_options open_opts = M2M_OPEN_OPTIONS_INIT;
	struct m2m_node_match match = { decodes, NULL, "decoder" };
	struct m2m_decoder *dec;
	int ret;

	if (!out)
		return m2m_error(EINVAL, "m2m_decoder_open: out is NULL");
	*out = NULL;
	if (!opts || opts->version != M2M_DECODER_OPTIONS_VERSION)
		return m2m_error(EINVAL, "m2m_decoder_open: opts is %s",
				 opts ? "of an unknown version" : "NULL");
	if (!opts->coded_fourcc)
		return m2m_error(EINVAL, "m2m_decoder_open: "
				 "opts->coded_fourcc is 0");
	dec = calloc(1, sizeof(*dec));
	if (!dec)
		return m2m_error(ENOMEM, "m2m_decoder_open: no memory");
	m2m_codec_handle_init(&dec->handle, &decoders);
	dec->flow.decoder = true;
	dec->opts = *opts;
	if (!dec->opts.held_frames)
		dec->opts.held_frames = 2;
	if (!dec->opts.output_buffers)
		dec->opts.output_buffers = 4;
	if (dec->opts.timeout_ms <= 0)
		dec->opts.timeout_ms = 5000;
	/* Dequeues never block: service() waits, with a timeout. */
	open_opts.flags = M2M_OPEN_NONBLOCK;
	match.arg = &dec->opts.coded_fourcc;
	ret = m2m_open_node(&dec->dev, name, &open_opts, &match);
	if (ret == 0 && m2m_stateless_takes(dec->dev, opts->coded_fourcc))
		ret = m2m_stateless_open(&dec->stateless, dec->dev,
					 &dec->handle, &dec->opts);
	else if (ret == 0)
		ret = init_output(dec);
	if (ret < 0) {
		decoder_free(dec);
		return ret;
	}
	m2m_codec_handle_add(&dec->handle, dec);
	*out = dec;
	return 0;
}

void m2m_decoder_close(struct m2m_decoder *dec)
{
	struct m2m_codec_handle *h = m2m_codec_close_begin(&decoders, dec);

	if (!h)
		return;
	/* Calls waiting on the device end now, and calls waiting for the
	 * lock fail when they have it. */
	m2m_codec_interrupt(dec->dev);
	m2m_codec_close_end(h);
	decoder_free(dec);
}
