// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The decoder (include/m2m/codec.h) on a stateless FWHT node, vicodec's
 * "stateless-decoder" (OUTPUT 'SFWH'), as the kernel's
 * dev-stateless-decoder.rst and request-api.rst say. The caller sends
 * whole FWHT frames as to the stateful decoder; here libm2m reads each
 * header itself, and the node decodes one frame per media request: the
 * payload in an OUTPUT buffer, the header's fields in the
 * V4L2_CID_STATELESS_FWHT_PARAMS control, both in the request of that
 * OUTPUT buffer (one request per buffer, reused after REINIT).
 *
 * What the stateful node does itself is done here:
 * - the CAPTURE format, from each header: kept while frames fit it, else
 *   set again, once every frame in flight is out and the caller released
 *   the frames it held (the node refuses S_FMT while buffers exist);
 * - references: a P-frame names its reference by the timestamp of the
 *   frame before it, which the node looks up among CAPTURE buffers. The
 *   frames carry timestamps of libm2m's own, n microseconds for the nth
 *   frame, unique and exact in a timeval, and mapped back to the caller's
 *   when they come out; and the CAPTURE buffer of the newest frame is not
 *   queued again until a newer frame is out, for the node reads the
 *   reference from it (and would decode into it, were it queued);
 * - the drain: no command on this node (no DECODER_CMD, no events), the
 *   end is when every request sent has come back (drained()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codec.h"

#define SFWH V4L2_PIX_FMT_FWHT_STATELESS

/* Frames sent and not yet received, at most every buffer of both queues
 * (vicodec allows 64 a queue). */
#define FRAME_RING 256

/* The picture a frame has, and the timestamp the caller gave it. */
struct sent_frame {
	uint64_t timestamp_ns;
	struct m2m_rect visible;
};

struct m2m_stateless {
	struct m2m_device *dev;
	/* The decoder's handle, whose lock waits drop. */
	struct m2m_codec_handle *owner;
	const struct m2m_decoder_options *opts;
	int media_fd;
	/* Per OUTPUT buffer: its request, and whether it was queued since
	 * its last REINIT. */
	int *requests;
	bool *request_used;
	unsigned int num_requests;
	bool output_streaming;
	/* CAPTURE streams in this format. */
	bool capture_ready;
	struct m2m_format capture;
	/* The last frame sent's picture. */
	struct m2m_rect visible;
	/* Frame n (from 1) carries timestamp n us: sent[n % FRAME_RING]. */
	struct sent_frame sent[FRAME_RING];
	uint64_t next_frame;
	/* Frames numbered below it were sent before the last seek. */
	uint64_t seek_mark;
	/* The frame a P-frame sent now refers to; 0: none. */
	uint64_t reference;
	/* Frames sent whose CAPTURE buffer has not come back. */
	unsigned int in_flight;
	bool draining;
	/* Frames decoded and not yet received, and those the caller holds. */
	struct m2m_codec_frames frames;
	/* The CAPTURE buffer of the newest frame decoded (-1: none), and
	 * whether the caller released it: it is queued again only when a
	 * newer frame is out. */
	int newest;
	bool newest_released;
};

bool m2m_stateless_takes(struct m2m_device *dev, uint32_t coded_fourcc)
{
	return (coded_fourcc == V4L2_PIX_FMT_FWHT || coded_fourcc == SFWH) &&
	       m2m_codec_lists_coded(dev, M2M_QUEUE_OUTPUT, SFWH) &&
	       !m2m_codec_lists_coded(dev, M2M_QUEUE_OUTPUT,
				      V4L2_PIX_FMT_FWHT);
}

static int queue_capture(struct m2m_stateless *sl, unsigned int index)
{
	struct m2m_buffer *buf = m2m_get_buffer(sl->dev, M2M_QUEUE_CAPTURE,
						index);

	return buf ? m2m_queue_buffer(sl->dev, buf) : -EINVAL;
}

/*
 * A request that was queued is reused once it completed: the node may
 * return the OUTPUT buffer before it completes the request, and REINIT
 * says EBUSY until then.
 */
static int reinit_request(struct m2m_stateless *sl, unsigned int i)
{
	int ret;

	if (!sl->request_used[i])
		return 0;
	ret = m2m_media_request_wait(sl->requests[i], sl->opts->timeout_ms);
	if (ret == 0)
		return m2m_error(ETIMEDOUT, "m2m_decoder: a request did not "
				 "complete in %d ms", sl->opts->timeout_ms);
	if (ret > 0)
		ret = m2m_media_request_reinit(sl->requests[i]);
	if (ret == 0)
		sl->request_used[i] = false;
	return ret;
}

static int stop_output(struct m2m_stateless *sl)
{
	unsigned int i;
	int ret = 0;

	if (sl->output_streaming) {
		/* Completes the requests still queued, undecoded. */
		ret = m2m_stream_off(sl->dev, M2M_QUEUE_OUTPUT);
		sl->output_streaming = ret < 0;
	}
	for (i = 0; ret == 0 && i < sl->num_requests; i++)
		ret = reinit_request(sl, i);
	return ret;
}

/* One request per OUTPUT buffer, for count buffers. */
static int add_requests(struct m2m_stateless *sl, unsigned int count)
{
	int *requests;
	bool *used;
	int ret;

	if (count <= sl->num_requests)
		return 0;
	requests = realloc(sl->requests, count * sizeof(*requests));
	if (requests)
		sl->requests = requests;
	used = realloc(sl->request_used, count * sizeof(*used));
	if (used)
		sl->request_used = used;
	if (!requests || !used)
		return m2m_error(ENOMEM, "m2m_decoder: no memory for %u "
				 "requests", count);
	for (; sl->num_requests < count; sl->num_requests++) {
		ret = m2m_media_request_alloc(sl->media_fd,
					      &requests[sl->num_requests]);
		if (ret < 0)
			return ret;
		used[sl->num_requests] = false;
	}
	return 0;
}

/*
 * OUTPUT in 'SFWH' at a size whose buffers hold at least payload bytes
 * (the node sizes them for the picture, and a frame's payload is never
 * more than its raw picture), and a request for each buffer.
 */
static int setup_output(struct m2m_stateless *sl, uint32_t width,
			uint32_t height, uint32_t payload)
{
	struct m2m_format f;
	struct m2m_buffer *b;
	int ret, n;

	ret = stop_output(sl);
	if (ret == 0)
		ret = m2m_free_buffers(sl->dev, M2M_QUEUE_OUTPUT);
	if (ret == 0)
		ret = m2m_get_format(sl->dev, &f, M2M_QUEUE_OUTPUT);
	if (ret < 0)
		return ret;
	f.fourcc = SFWH;
	f.width = width;
	f.height = height;
	f.num_planes = 1;
	f.bytesperline[0] = 0;
	f.plane_size[0] = 0;
	ret = m2m_set_format(sl->dev, &f, M2M_QUEUE_OUTPUT);
	if (ret < 0)
		return ret;
	n = m2m_alloc_buffers(sl->dev, M2M_QUEUE_OUTPUT, M2M_MEMORY_MMAP,
			      sl->opts->output_buffers);
	if (n < 0)
		return n;
	if (!(sl->dev->queues[M2M_QUEUE_OUTPUT].caps &
	      V4L2_BUF_CAP_SUPPORTS_REQUESTS))
		return m2m_error(ENODEV, "m2m_decoder_open: %s's OUTPUT "
				 "queue takes no requests",
				 sl->dev->info.path);
	b = m2m_get_buffer(sl->dev, M2M_QUEUE_OUTPUT, 0);
	if (b && b->length[0] < payload)
		return m2m_error(ENOSPC, "m2m_decoder_send: a frame of %u "
				 "bytes, the node's OUTPUT buffers for %ux%u "
				 "hold %u", payload, width, height,
				 b->length[0]);
	return add_requests(sl, n);
}

/* CAPTURE in a new format: new buffers, all queued, and streaming. */
static int setup_capture(struct m2m_stateless *sl, uint32_t fourcc,
			 uint32_t width, uint32_t height)
{
	unsigned int want = sl->opts->held_frames + 2;
	struct m2m_format f;
	int ret, n, i;

	sl->capture_ready = false;
	sl->reference = 0;
	sl->newest = -1;
	ret = m2m_free_buffers(sl->dev, M2M_QUEUE_CAPTURE);
	if (ret == 0)
		ret = m2m_get_format(sl->dev, &f, M2M_QUEUE_CAPTURE);
	if (ret < 0)
		return ret;
	f.fourcc = fourcc;
	f.width = width;
	f.height = height;
	f.num_planes = 0;
	memset(f.bytesperline, 0, sizeof(f.bytesperline));
	memset(f.plane_size, 0, sizeof(f.plane_size));
	ret = m2m_set_format(sl->dev, &f, M2M_QUEUE_CAPTURE);
	if (ret == 0)
		ret = m2m_get_format(sl->dev, &sl->capture, M2M_QUEUE_CAPTURE);
	if (ret < 0)
		return ret;
	n = m2m_alloc_buffers(sl->dev, M2M_QUEUE_CAPTURE, M2M_MEMORY_MMAP,
			      want);
	if (n < 0)
		return n;
	ret = m2m_codec_frames_alloc(&sl->frames, n);
	if (ret == 0)
		ret = m2m_stream_on(sl->dev, M2M_QUEUE_CAPTURE);
	for (i = 0; ret == 0 && i < n; i++)
		ret = queue_capture(sl, i);
	sl->capture_ready = ret == 0;
	return ret;
}

/* The CAPTURE buffers the node can decode into now. */
static unsigned int capture_queued(struct m2m_stateless *sl)
{
	int i, n = m2m_buffer_count(sl->dev, M2M_QUEUE_CAPTURE), queued = 0;

	for (i = 0; i < n; i++)
		queued += m2m_get_buffer(sl->dev, M2M_QUEUE_CAPTURE, i)->queued;
	return queued;
}

/* The node can decode nothing more until the caller receives or
 * releases frames. */
static bool waits_for_caller(struct m2m_stateless *sl)
{
	return sl->frames.ready_count ||
	       (sl->capture_ready && !capture_queued(sl));
}

/* The CAPTURE buffer of the newest frame: the reference of the next. */
static int set_newest(struct m2m_stateless *sl, int index)
{
	int old = sl->newest;

	sl->newest = index;
	if (old < 0 || old == index || !sl->newest_released)
		return 0;
	sl->newest_released = false;
	return queue_capture(sl, old);
}

/* A decoded CAPTURE buffer: to the caller, or back when from before a
 * seek. */
static int captured(struct m2m_stateless *sl, struct m2m_buffer *buf)
{
	uint64_t frame = buf->timestamp_ns / 1000;

	if (frame < sl->seek_mark || frame >= sl->next_frame)
		return m2m_queue_buffer(sl->dev, buf);
	sl->in_flight--;
	m2m_codec_frames_add(&sl->frames, buf->index);
	return set_newest(sl, (int)buf->index);
}

static int take_capture(struct m2m_stateless *sl)
{
	struct m2m_buffer *buf;
	int ret = 0;

	while (ret == 0 && sl->capture_ready) {
		ret = m2m_dequeue_buffer(sl->dev, &buf, M2M_QUEUE_CAPTURE);
		if (ret == 0)
			ret = captured(sl, buf);
	}
	return ret == -EAGAIN ? 0 : ret;
}

/*
 * Wait up to timeout_ms for the node to give back a buffer, then take
 * every buffer it gave. Returns 1 when something was ready, 0 on timeout,
 * or a negative errno.
 */
static int service(struct m2m_stateless *sl, int timeout_ms)
{
	unsigned int wanted = M2M_READY_OUTPUT;
	int news, ret;

	if (sl->capture_ready)
		wanted |= M2M_READY_CAPTURE;
	news = m2m_codec_wait(sl->owner, sl->dev, wanted, timeout_ms);
	ret = news < 0 ? news : 0;
	if (ret == 0 && sl->output_streaming)
		ret = m2m_codec_take_output(sl->dev);
	if (ret == 0)
		ret = take_capture(sl);
	return ret < 0 ? ret : news;
}

/*
 * Wait until every frame sent came back, as before a change of buffers:
 * -EAGAIN (func's message says why) when the caller must first receive
 * or release frames.
 */
static int settle(struct m2m_stateless *sl, const char *func)
{
	int64_t end = m2m_codec_deadline(sl->opts->timeout_ms);
	int ret;

	while (sl->in_flight) {
		if (waits_for_caller(sl))
			return m2m_error(EAGAIN, "%s: frames are waiting: "
					 "receive or release frames first",
					 func);
		ret = service(sl, m2m_codec_left(end));
		if (ret == 0)
			return m2m_error(ETIMEDOUT, "%s: the decoder gave "
					 "nothing in %d ms", func,
					 sl->opts->timeout_ms);
		if (ret < 0)
			return ret;
	}
	return sl->output_streaming ? m2m_codec_take_output(sl->dev) : 0;
}

/*
 * CAPTURE ready for a frame of this header: kept when the frame fits its
 * format, else set again, which waits for every frame sent to come back
 * and for the caller to release the frames it holds (they are mapped
 * from the old buffers).
 */
static int fit_capture(struct m2m_stateless *sl,
		       const struct m2m_fwht_header *hdr, bool p_frame)
{
	uint32_t fourcc, w, h;
	int ret;

	ret = m2m_fwht_raw_format(&fourcc, &w, &h, hdr,
				  sl->opts->capture_fourcc);
	if (ret < 0)
		return ret;
	if (sl->capture_ready && fourcc == sl->capture.fourcc &&
	    w <= sl->capture.width && h <= sl->capture.height)
		return 0;
	/* New buffers hold no reference. */
	if (p_frame)
		return m2m_error(EINVAL, "m2m_decoder_send: a P-frame of "
				 "%ux%u where the stream starts or changes "
				 "size: it needs an I-frame", hdr->width,
				 hdr->height);
	ret = settle(sl, "m2m_decoder_send");
	if (ret == 0 && (sl->frames.ready_count || sl->frames.held_count))
		ret = m2m_error(EAGAIN, "m2m_decoder_send: the stream's size "
				"changes to %ux%u: receive and release the "
				"%u frames out first", hdr->width, hdr->height,
				sl->frames.ready_count +
				sl->frames.held_count);
	return ret < 0 ? ret : setup_capture(sl, fourcc, w, h);
}

/* An OUTPUT buffer the node does not hold, with its request reusable. */
static int free_output(struct m2m_stateless *sl, struct m2m_buffer **out)
{
	int64_t end = m2m_codec_deadline(sl->opts->timeout_ms);
	struct m2m_buffer *buf = NULL;
	int ret = 0;

	if (sl->output_streaming)
		ret = m2m_codec_take_output(sl->dev);
	while (ret == 0 && !(buf = m2m_codec_free_output(sl->dev))) {
		if (waits_for_caller(sl))
			return m2m_error(EAGAIN, "m2m_decoder_send: every "
					 "OUTPUT buffer is taken: receive "
					 "or release frames first");
		ret = service(sl, m2m_codec_left(end));
		if (ret == 0)
			return m2m_error(ETIMEDOUT, "m2m_decoder_send: the "
					 "decoder took no data in %d ms",
					 sl->opts->timeout_ms);
		ret = ret < 0 ? ret : 0;
	}
	if (ret == 0)
		ret = reinit_request(sl, buf->index);
	*out = buf;
	return ret;
}

/* Queue the frame in buf's request: the params, the buffer, the request. */
static int queue_frame(struct m2m_stateless *sl, struct m2m_buffer *buf,
		       const struct v4l2_ctrl_fwht_params *params)
{
	int req = sl->requests[buf->index];
	int ret;

	ret = m2m_set_control_request(sl->dev, V4L2_CID_STATELESS_FWHT_PARAMS,
				      params, sizeof(*params), req);
	if (ret == 0)
		ret = m2m_queue_buffer_request(sl->dev, buf, req);
	if (ret == 0)
		ret = m2m_media_request_queue(req);
	if (ret < 0) {
		/* Its buffer and control go back with it. */
		m2m_media_request_reinit(req);
		buf->queued = 0;
		return ret;
	}
	sl->request_used[buf->index] = true;
	if (!sl->output_streaming) {
		ret = m2m_stream_on(sl->dev, M2M_QUEUE_OUTPUT);
		sl->output_streaming = ret == 0;
	}
	return ret;
}

/* The frame's header, checked: one whole FWHT frame. */
static int read_header(struct m2m_fwht_header *hdr, const void *data,
		       size_t size)
{
	long whole = m2m_fwht_parse_header(hdr, data, size);

	if (whole == -EAGAIN || (whole >= 0 && (size_t)whole != size))
		return m2m_error(EINVAL, "m2m_decoder_send: %zu bytes are not "
				 "one whole FWHT frame (its header says %ld)",
				 size, whole < 0 ? 0 : whole);
	if (whole >= 0 && hdr->payload_size == 0)
		return m2m_error(EINVAL, "m2m_decoder_send: an FWHT frame "
				 "with no payload");
	return whole < 0 ? (int)whole : 0;
}

int m2m_stateless_send(struct m2m_stateless *sl, const void *data,
		       size_t size, uint64_t timestamp_ns)
{
	struct v4l2_ctrl_fwht_params params = { 0 };
	struct m2m_fwht_header hdr;
	struct m2m_buffer *buf;
	struct sent_frame *sent;
	bool p_frame;
	int ret = read_header(&hdr, data, size);

	if (ret < 0)
		return ret;
	p_frame = !(hdr.flags & V4L2_FWHT_FL_I_FRAME);
	ret = fit_capture(sl, &hdr, p_frame);
	if (ret < 0)
		return ret;
	if (p_frame && !sl->reference)
		return m2m_error(EINVAL, "m2m_decoder_send: a P-frame with no "
				 "frame before it to refer to (the first, or "
				 "the first after a seek, must be an "
				 "I-frame)");
	buf = m2m_get_buffer(sl->dev, M2M_QUEUE_OUTPUT, 0);
	if (buf && buf->length[0] < hdr.payload_size) {
		ret = settle(sl, "m2m_decoder_send");
		if (ret == 0)
			ret = setup_output(sl, hdr.width, hdr.height,
					   hdr.payload_size);
		if (ret < 0)
			return ret;
	}
	ret = free_output(sl, &buf);
	if (ret < 0)
		return ret;
	memcpy(buf->data[0], (const unsigned char *)data +
	       M2M_FWHT_HEADER_SIZE, hdr.payload_size);
	buf->bytesused[0] = hdr.payload_size;
	buf->timestamp_ns = sl->next_frame * 1000;
	params.backward_ref_ts = p_frame ? sl->reference * 1000 : 0;
	params.version = hdr.version;
	params.width = hdr.width;
	params.height = hdr.height;
	params.flags = hdr.flags;
	params.colorspace = hdr.colorspace;
	params.xfer_func = hdr.xfer_func;
	params.ycbcr_enc = hdr.ycbcr_enc;
	params.quantization = hdr.quantization;
	ret = queue_frame(sl, buf, &params);
	if (ret < 0)
		return ret;
	sent = &sl->sent[sl->next_frame % FRAME_RING];
	sent->timestamp_ns = timestamp_ns;
	sent->visible = (struct m2m_rect){ 0, 0, hdr.width, hdr.height };
	sl->visible = sent->visible;
	sl->reference = sl->next_frame++;
	sl->in_flight++;
	sl->draining = false;
	return 0;
}

/*
 * The drain of a stateless decoder: the node has no command for it (nor
 * the events of the stateful one); it is over when every frame sent came
 * back and was received. Sending after it goes on with the stream.
 */
static bool drained(struct m2m_stateless *sl)
{
	return sl->draining && !sl->in_flight && !sl->frames.ready_count;
}

int m2m_stateless_drain(struct m2m_stateless *sl)
{
	sl->draining = true;
	return 0;
}

int m2m_stateless_receive(struct m2m_stateless *sl, struct m2m_frame *frame,
			  int timeout_ms)
{
	int64_t end = m2m_codec_deadline(timeout_ms);
	int ret;

	for (;;) {
		if (sl->frames.ready_count) {
			unsigned int index = m2m_codec_frames_take(&sl->frames,
								   true);
			struct m2m_buffer *buf = m2m_get_buffer(sl->dev,
					M2M_QUEUE_CAPTURE, index);
			const struct sent_frame *sent =
				&sl->sent[buf->timestamp_ns / 1000 % FRAME_RING];

			m2m_codec_fill_frame(frame, &sl->capture, &sent->visible,
					     buf);
			frame->timestamp_ns = sent->timestamp_ns;
			return 0;
		}
		if (drained(sl))
			return -ENODATA;
		/* Nothing to come, or nothing the node can decode into. */
		if (!sl->in_flight || waits_for_caller(sl))
			return -EAGAIN;
		ret = service(sl, m2m_codec_left(end));
		if (ret < 0)
			return ret;
		if (ret == 0 && !sl->frames.ready_count)
			return -EAGAIN;
	}
}

int m2m_stateless_release(struct m2m_stateless *sl,
			  const struct m2m_frame *frame)
{
	int index = m2m_codec_frames_release(&sl->frames, sl->dev, frame);

	if (index < 0)
		return index;
	if (index == sl->newest) {
		sl->newest_released = true;
		return 0;
	}
	return queue_capture(sl, index);
}

/*
 * Seek: STREAMOFF of OUTPUT completes the requests not yet decoded; the
 * frames decoded from them and not received go back, and so will those
 * still to come out (numbered below the seek mark). The next frame must
 * be an I-frame.
 */
int m2m_stateless_seek(struct m2m_stateless *sl)
{
	int ret = stop_output(sl);

	while (ret == 0 && sl->frames.ready_count)
		ret = queue_capture(sl, m2m_codec_frames_take(&sl->frames,
							      false));
	if (ret == 0 && sl->newest >= 0 && sl->newest_released)
		ret = queue_capture(sl, sl->newest);
	sl->newest = -1;
	sl->newest_released = false;
	sl->seek_mark = sl->next_frame;
	sl->in_flight = 0;
	sl->reference = 0;
	sl->draining = false;
	return ret;
}

int m2m_stateless_get_format(struct m2m_stateless *sl,
			     struct m2m_format *format,
			     struct m2m_rect *visible)
{
	if (!sl->capture_ready)
		return m2m_error(EAGAIN, "m2m_decoder_get_format: no frame "
				 "was sent yet");
	*format = sl->capture;
	if (visible)
		*visible = sl->visible;
	return 0;
}

/*
 * Open: the node's media device, and OUTPUT at the options' size (or the
 * node's smallest); CAPTURE is set at the first frame's header.
 */
int m2m_stateless_open(struct m2m_stateless **out, struct m2m_device *dev,
		       struct m2m_codec_handle *owner,
		       const struct m2m_decoder_options *opts)
{
	struct m2m_stateless *sl = calloc(1, sizeof(*sl));
	struct m2m_control_info info;
	int ret;

	*out = sl;
	if (!sl)
		return m2m_error(ENOMEM, "m2m_decoder_open: no memory");
	sl->dev = dev;
	sl->owner = owner;
	sl->opts = opts;
	sl->media_fd = -1;
	sl->newest = -1;
	sl->next_frame = 1;
	ret = m2m_find_control(dev, &info, NULL,
			       V4L2_CID_STATELESS_FWHT_PARAMS);
	if (ret == 0)
		ret = m2m_media_open_for(dev, &sl->media_fd);
	if (ret == 0)
		ret = setup_output(sl, opts->width, opts->height, 0);
	return ret;
}

void m2m_stateless_close(struct m2m_stateless *sl)
{
	unsigned int i;

	if (!sl)
		return;
	for (i = 0; i < sl->num_requests; i++)
		close(sl->requests[i]);
	if (sl->media_fd >= 0)
		close(sl->media_fd);
	free(sl->requests);
	free(sl->request_used);
	m2m_codec_frames_free(&sl->frames);
	free(sl);
}
