// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A chain (include/m2m/codec.h): decoder -> converter -> encoder, each
 * device's CAPTURE buffers handed to the next one's OUTPUT by DMABUF.
 *
 * Buffer indices line up so that nothing is ever remapped: the decoder's
 * CAPTURE buffer i is the converter's OUTPUT buffer i, and the converter's
 * CAPTURE buffer i is the encoder's OUTPUT buffer i. A buffer goes back
 * to the device it belongs to when the next device has dequeued it: that
 * is the back-pressure, and the only bookkeeping.
 *
 * A link whose devices do not agree on a layout (or every link, with
 * M2M_CHAIN_COPY) copies frames through MMAP buffers instead, and counts
 * the bytes. Everything moves in one place, pump().
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "codec.h"

/* How long one wait for the three devices lasts before looking again. */
#define CHAIN_POLL_MS 10

static struct m2m_codec_kind chains = M2M_CODEC_KIND_INIT("chain", "chain");

struct m2m_chain {
	struct m2m_codec_handle handle;
	struct m2m_chain_options opts;
	char *converter_name, *encoder_name;
	struct m2m_decoder *dec;
	struct m2m_device *conv;
	struct m2m_encoder *enc;
	/* The converter and the encoder are set up (at the first frame). */
	bool ready;
	/* Links sharing by DMABUF: decoder -> converter, converter ->
	 * encoder. */
	bool share_in, share_out;
	/* The decoder's frames (their layout and picture), and the
	 * converter's results. */
	struct m2m_format in, out;
	struct m2m_rect visible;
	/* share_in: per converter OUTPUT buffer, the decoder frame in it;
	 * per decoder CAPTURE buffer, its exported fd. */
	struct m2m_frame *lent;
	bool *lent_valid;
	int *dec_fd;
	const struct m2m_buffer **dec_fd_of;
	unsigned int in_count;
	/* share_out: per converter CAPTURE buffer, its exported fd, and
	 * whether the encoder holds it. */
	int *conv_fd;
	bool *at_encoder;
	unsigned int out_count;
	/* Converter results not yet given to the encoder (indices). */
	unsigned int *pending;
	unsigned int pending_head, pending_count;
	/* Frames in the converter. */
	unsigned int converting;
	bool draining, decoder_done, encoder_draining;
	/* -ENOTSUP once the picture changed: the chain stops. */
	int failed;
	struct m2m_chain_stats stats;
};

static bool same_layout(const struct m2m_format *a, const struct m2m_format *b)
{
	unsigned int p;

	if (a->fourcc != b->fourcc || a->width != b->width ||
	    a->height != b->height || a->num_planes != b->num_planes)
		return false;
	for (p = 0; p < a->num_planes; p++)
		if (a->bytesperline[p] != b->bytesperline[p])
			return false;
	return true;
}

/* The converter's OUTPUT takes the decoder's frames: by DMABUF when it
 * takes their layout as it is, else copied into its own buffers. */
static int setup_converter_output(struct m2m_chain *c)
{
	struct m2m_device *dec_dev = m2m_decoder_device(c->dec);
	struct m2m_format fmt = c->in;
	struct m2m_rect crop = c->visible;
	int n, ret;

	ret = m2m_set_format(c->conv, &fmt, M2M_QUEUE_OUTPUT);
	if (ret < 0)
		return ret;
	if (fmt.fourcc != c->in.fourcc || fmt.width != c->in.width ||
	    fmt.height != c->in.height)
		return m2m_error(ENOTSUP, "m2m_chain: %s does not take the "
				 "decoder's %ux%u 0x%08x frames",
				 c->converter_name, c->in.width, c->in.height,
				 c->in.fourcc);
	c->share_in = !(c->opts.flags & M2M_CHAIN_COPY) &&
		      same_layout(&fmt, &c->in) && fmt.num_planes == 1 &&
		      fmt.plane_size[0] <= c->in.plane_size[0];
	if (!c->share_in)
		m2m_log(M2M_LOG_DEBUG, "m2m_chain: decoder to %s copies "
			"frames (%u-byte lines against %u)", c->converter_name,
			c->in.bytesperline[0], fmt.bytesperline[0]);
	if (crop.width != fmt.width || crop.height != fmt.height) {
		ret = m2m_set_rect(c->conv, &crop, M2M_RECT_CROP);
		if (ret < 0)
			return ret;
		if (memcmp(&crop, &c->visible, sizeof(crop)))
			return m2m_error(ENOTSUP, "m2m_chain: %s will not crop "
					 "the decoded picture", c->converter_name);
	}
	if (c->share_in) {
		c->in_count = m2m_buffer_count(dec_dev, M2M_QUEUE_CAPTURE);
		n = m2m_alloc_buffers(c->conv, M2M_QUEUE_OUTPUT,
				      M2M_MEMORY_DMABUF, c->in_count);
		if (n >= 0 && (unsigned int)n < c->in_count)
			return m2m_error(ENOTSUP, "m2m_chain: %s gives %d "
					 "OUTPUT buffers for the decoder's %u",
					 c->converter_name, n, c->in_count);
		c->lent = calloc(c->in_count, sizeof(*c->lent));
		c->lent_valid = calloc(c->in_count, sizeof(*c->lent_valid));
		c->dec_fd = malloc(c->in_count * sizeof(*c->dec_fd));
		c->dec_fd_of = calloc(c->in_count, sizeof(*c->dec_fd_of));
		if (!c->lent || !c->lent_valid || !c->dec_fd || !c->dec_fd_of)
			return m2m_error(ENOMEM, "m2m_chain: no memory");
		for (n = 0; (unsigned int)n < c->in_count; n++)
			c->dec_fd[n] = -1;
		n = 0;
	} else {
		n = m2m_alloc_buffers(c->conv, M2M_QUEUE_OUTPUT,
				      M2M_MEMORY_MMAP, 4);
	}
	c->in = c->share_in ? c->in : fmt;
	return n < 0 ? n : m2m_stream_on(c->conv, M2M_QUEUE_OUTPUT);
}

/* The converter scales, and changes the format where asked: the colour
 * stays the decoded frames'. */
static int set_converter_capture(struct m2m_chain *c, struct m2m_format *fmt)
{
	fmt->colorspace = c->in.colorspace;
	fmt->ycbcr_enc = c->in.ycbcr_enc;
	fmt->quantization = c->in.quantization;
	fmt->xfer_func = c->in.xfer_func;
	return m2m_set_format(c->conv, fmt, M2M_QUEUE_CAPTURE);
}

/* The encoder takes the converter's results: by DMABUF when the converter
 * writes the encoder's own layout, else through the encoder's send(). */
static int setup_encoder(struct m2m_chain *c)
{
	struct m2m_encoder_options eo = c->opts.encoder;
	struct m2m_format want, got;
	int ret;

	eo.raw_fourcc = eo.raw_fourcc ? eo.raw_fourcc : c->in.fourcc;
	eo.width = eo.width ? eo.width : c->visible.width;
	eo.height = eo.height ? eo.height : c->visible.height;
	if (!(c->opts.flags & M2M_CHAIN_COPY)) {
		ret = m2m_encoder_open_memory(&c->enc, c->encoder_name, &eo,
					      M2M_MEMORY_DMABUF);
		if (ret < 0)
			return ret;
		ret = m2m_get_format(m2m_encoder_device(c->enc), &want,
				     M2M_QUEUE_OUTPUT);
		if (ret < 0)
			return ret;
		got = want;
		ret = set_converter_capture(c, &got);
		if (ret < 0)
			return ret;
		c->share_out = same_layout(&got, &want) &&
			       got.num_planes == 1 && want.width == eo.width &&
			       want.height == eo.height &&
			       got.plane_size[0] >= want.plane_size[0];
		if (c->share_out) {
			c->out = got;
			return 0;
		}
		m2m_log(M2M_LOG_DEBUG, "m2m_chain: %s to %s copies frames "
			"(the encoder takes %ux%u, %u-byte lines)",
			c->converter_name, c->encoder_name, want.width,
			want.height, want.bytesperline[0]);
		m2m_encoder_close(c->enc);
		c->enc = NULL;
	}
	ret = m2m_encoder_open(&c->enc, c->encoder_name, &eo);
	if (ret == 0)
		ret = m2m_encoder_get_format(c->enc, &want);
	if (ret < 0)
		return ret;
	got = want;
	ret = set_converter_capture(c, &got);
	if (ret < 0)
		return ret;
	if (!same_layout(&got, &want))
		return m2m_error(ENOTSUP, "m2m_chain: %s will not make %ux%u "
				 "0x%08x as the encoder takes it",
				 c->converter_name, want.width, want.height,
				 want.fourcc);
	c->out = got;
	return 0;
}

static int setup_converter_capture(struct m2m_chain *c)
{
	struct m2m_device *enc_dev = m2m_encoder_device(c->enc);
	unsigned int i, want = 4;
	int n, ret;

	if (c->share_out)
		want = m2m_buffer_count(enc_dev, M2M_QUEUE_OUTPUT);
	n = m2m_alloc_buffers(c->conv, M2M_QUEUE_CAPTURE, M2M_MEMORY_MMAP,
			      want);
	if (n < 0)
		return n;
	if (c->share_out && (unsigned int)n > want)
		return m2m_error(ENOTSUP, "m2m_chain: %s gives %d CAPTURE "
				 "buffers for the encoder's %u",
				 c->converter_name, n, want);
	c->out_count = n;
	c->pending = calloc(n, sizeof(*c->pending));
	c->conv_fd = malloc(n * sizeof(*c->conv_fd));
	c->at_encoder = calloc(n, sizeof(*c->at_encoder));
	if (!c->pending || !c->conv_fd || !c->at_encoder)
		return m2m_error(ENOMEM, "m2m_chain: no memory");
	for (i = 0; i < c->out_count; i++)
		c->conv_fd[i] = -1;
	for (i = 0; i < c->out_count; i++) {
		struct m2m_buffer *b = m2m_get_buffer(c->conv,
						      M2M_QUEUE_CAPTURE, i);

		ret = c->share_out ? m2m_export_buffer(c->conv, &c->conv_fd[i],
						       b, 0) : 0;
		if (ret == 0)
			ret = m2m_queue_buffer(c->conv, b);
		if (ret < 0)
			return ret;
	}
	return m2m_stream_on(c->conv, M2M_QUEUE_CAPTURE);
}

/* At the first frame: the converter and the encoder, for its picture. */
static int setup(struct m2m_chain *c, const struct m2m_frame *f)
{
	int ret;

	c->in = f->format;
	c->visible = f->visible;
	ret = setup_converter_output(c);
	if (ret == 0)
		ret = setup_encoder(c);
	if (ret == 0)
		ret = setup_converter_capture(c);
	if (ret < 0)
		return ret;
	c->stats.dmabuf_links = c->share_in + c->share_out;
	c->ready = true;
	return 0;
}

/* Give the converter a decoded frame: the decoder's buffer itself, or a
 * copy in one of the converter's. */
static int convert_frame(struct m2m_chain *c, struct m2m_frame *f)
{
	struct m2m_device *dec_dev = m2m_decoder_device(c->dec);
	struct m2m_buffer *b;
	unsigned int i = f->buffer->index;
	int ret;

	if (f->format.width != c->in.width || f->format.height != c->in.height ||
	    f->format.fourcc != c->in.fourcc ||
	    memcmp(&f->visible, &c->visible, sizeof(f->visible))) {
		m2m_decoder_release(c->dec, f);
		c->failed = m2m_error(ENOTSUP, "m2m_chain: the picture "
				      "changed from %ux%u to %ux%u; a chain "
				      "takes one size", c->visible.width,
				      c->visible.height, f->visible.width,
				      f->visible.height);
		return c->failed;
	}
	if (c->share_in) {
		if (c->dec_fd_of[i] != f->buffer) {
			if (c->dec_fd[i] >= 0)
				close(c->dec_fd[i]);
			c->dec_fd[i] = -1;
			ret = m2m_export_buffer(dec_dev, &c->dec_fd[i],
						f->buffer, 0);
			if (ret < 0)
				return ret;
			c->dec_fd_of[i] = f->buffer;
		}
		b = m2m_get_buffer(c->conv, M2M_QUEUE_OUTPUT, i);
		if (!b)
			return -EINVAL;
		b->fd[0] = c->dec_fd[i];
		b->bytesused[0] = c->in.plane_size[0];
		c->lent[i] = *f;
		c->lent_valid[i] = true;
		c->stats.bytes_shared += m2m_format_frame_size(&c->in);
	} else {
		b = m2m_codec_free_output(c->conv);
		ret = m2m_codec_copy_frame(b->data[0], &c->in, f->data[0],
					   &f->format);
		if (ret == 0)
			ret = m2m_decoder_release(c->dec, f);
		if (ret < 0)
			return ret;
		b->bytesused[0] = c->in.plane_size[0];
		c->stats.bytes_copied += m2m_format_frame_size(&c->in);
	}
	b->timestamp_ns = f->timestamp_ns;
	ret = m2m_queue_buffer(c->conv, b);
	if (ret == 0) {
		c->converting++;
		c->stats.frames++;
	}
	return ret;
}

/* Whether the converter can take a frame now. */
static bool converter_has_room(struct m2m_chain *c)
{
	return !c->ready || c->share_in || m2m_codec_free_output(c->conv);
}

/* Give the encoder the converter's next result. 1 when it took it. */
static int encode_pending(struct m2m_chain *c)
{
	unsigned int i = c->pending[c->pending_head];
	struct m2m_buffer *b = m2m_get_buffer(c->conv, M2M_QUEUE_CAPTURE, i);
	struct m2m_device *enc_dev = m2m_encoder_device(c->enc);
	int ret;

	if (c->share_out) {
		ret = m2m_encoder_queue_dmabuf(c->enc, i, c->conv_fd[i],
					       b->timestamp_ns);
		if (ret < 0)
			return ret;
		c->at_encoder[i] = true;
		c->stats.bytes_shared += m2m_format_frame_size(&c->out);
	} else {
		if (!m2m_codec_free_output(enc_dev))
			return 0;
		ret = m2m_encoder_send(c->enc, b->data[0], b->length[0],
				       b->timestamp_ns);
		if (ret == 0)
			ret = m2m_queue_buffer(c->conv, b);
		if (ret < 0)
			return ret;
		c->stats.bytes_copied += m2m_format_frame_size(&c->out);
	}
	c->pending_head = (c->pending_head + 1) % c->out_count;
	c->pending_count--;
	return 1;
}

/* Move everything that can move, without waiting: 1 when something did,
 * 0 when nothing could, or a negative errno. */
static int pump(struct m2m_chain *c)
{
	struct m2m_device *enc_dev;
	struct m2m_buffer *b;
	struct m2m_frame f;
	bool moved = false;
	unsigned int i;
	int ret;

	if (c->failed)
		return c->failed;
	/* The converter's OUTPUT done: the decoder gets its buffers back. */
	ret = c->ready ? m2m_codec_take_output(c->conv) : 0;
	for (i = 0; ret == 0 && c->ready && c->share_in && i < c->in_count; i++) {
		b = m2m_get_buffer(c->conv, M2M_QUEUE_OUTPUT, i);
		if (c->lent_valid[i] && b && !b->queued) {
			c->lent_valid[i] = false;
			ret = m2m_decoder_release(c->dec, &c->lent[i]);
			moved = true;
		}
	}
	/* Decoded frames into the converter. */
	while (ret == 0 && !c->decoder_done && converter_has_room(c)) {
		ret = m2m_decoder_receive(c->dec, &f, 0);
		/* EBUSY: a resolution change waits for frames the
		 * converter still holds. */
		if (ret == -EAGAIN || ret == -EBUSY) {
			ret = 0;
			break;
		}
		if (ret == -ENODATA) {
			c->decoder_done = true;
			ret = 0;
			break;
		}
		if (ret == 0 && !c->ready) {
			ret = setup(c, &f);
			if (ret < 0)
				m2m_decoder_release(c->dec, &f);
		}
		if (ret == 0)
			ret = convert_frame(c, &f);
		if (ret < 0)
			return ret;
		moved = true;
	}
	if (ret < 0 || !c->ready)
		return ret < 0 ? ret : moved;
	enc_dev = m2m_encoder_device(c->enc);
	/* Its results, in order. */
	while (ret == 0) {
		ret = m2m_dequeue_buffer(c->conv, &b, M2M_QUEUE_CAPTURE);
		if (ret < 0)
			break;
		if (b->flags & M2M_BUFFER_ERROR)
			return m2m_error(EIO, "m2m_chain: %s failed a frame",
					 c->converter_name);
		c->pending[(c->pending_head + c->pending_count++) %
			   c->out_count] = b->index;
		c->converting--;
		moved = true;
	}
	if (ret != -EAGAIN && ret != -ENODATA)
		return ret;
	/* The encoder's OUTPUT done: the converter gets its buffers back.
	 * (Its OUTPUT streams from the first frame on: DQBUF before that is
	 * EINVAL.) */
	ret = c->stats.frames > c->converting + c->pending_count ?
	      m2m_codec_take_output(enc_dev) : 0;
	for (i = 0; ret == 0 && c->share_out && i < c->out_count; i++) {
		struct m2m_buffer *e = m2m_get_buffer(enc_dev,
						      M2M_QUEUE_OUTPUT, i);

		if (c->at_encoder[i] && e && !e->queued) {
			c->at_encoder[i] = false;
			ret = m2m_queue_buffer(c->conv, m2m_get_buffer(c->conv,
					       M2M_QUEUE_CAPTURE, i));
			moved = true;
		}
	}
	while (ret == 0 && c->pending_count && (ret = encode_pending(c)) > 0) {
		moved = true;
		ret = 0;
	}
	if (ret < 0)
		return ret;
	/* Every frame through: the encoder drains. */
	if (c->draining && c->decoder_done && !c->converting &&
	    !c->pending_count && !c->encoder_draining) {
		ret = m2m_encoder_drain(c->enc);
		if (ret < 0)
			return ret;
		c->encoder_draining = true;
		moved = true;
	}
	return moved;
}

/* Wait for any of the three devices, at most CHAIN_POLL_MS and without
 * the chain's lock: a device whose queues are idle reports POLLERR at
 * once, so the wait is short and pump() looks again. 0, or -EINVAL when
 * the chain began closing meanwhile. */
static int wait_devices(struct m2m_chain *c, int timeout_ms)
{
	struct pollfd fds[3];
	nfds_t n = 0;

	fds[n++] = (struct pollfd){ m2m_get_fd(m2m_decoder_device(c->dec)),
				    POLLIN | POLLOUT | POLLPRI, 0 };
	if (c->ready) {
		fds[n++] = (struct pollfd){ m2m_get_fd(c->conv),
					    POLLIN | POLLOUT, 0 };
		fds[n++] = (struct pollfd){
			m2m_get_fd(m2m_encoder_device(c->enc)),
			POLLIN | POLLOUT, 0 };
	}
	if (timeout_ms < 0 || timeout_ms > CHAIN_POLL_MS)
		timeout_ms = CHAIN_POLL_MS;
	m2m_codec_unlock(&c->handle);
	if (poll(fds, n, timeout_ms) > 0) {
		/* Ready, or idle (POLLERR): pace the loop either way. */
		struct timespec pause = { 0, 1000000 };

		nanosleep(&pause, NULL);
	}
	return m2m_codec_relock(&c->handle);
}

static int send_coded(struct m2m_chain *chain, const void *data, size_t size,
		      uint64_t timestamp_ns)
{
	int64_t end = m2m_codec_deadline(chain->opts.decoder.timeout_ms);
	bool waited = false;
	int ret;

	if (chain->failed)
		return chain->failed;
	if (chain->draining && chain->decoder_done)
		return m2m_error(EINVAL, "m2m_chain_send: the chain was "
				 "drained");
	for (;;) {
		ret = m2m_decoder_send(chain->dec, data, size, timestamp_ns);
		if (ret != -EAGAIN)
			return ret;
		ret = pump(chain);
		if (ret < 0)
			return ret;
		if (ret > 0)
			continue;
		/* Nothing moves and the decoder waits for its frames to be
		 * taken: the chain downstream is full, up to the packets. */
		if (chain->ready && waited)
			return m2m_error(EAGAIN, "m2m_chain_send: the chain "
					 "is full: receive packets first");
		if (!m2m_codec_left(end))
			return m2m_error(ETIMEDOUT, "m2m_chain_send: nothing "
					 "moved in %d ms",
					 chain->opts.decoder.timeout_ms);
		ret = wait_devices(chain, m2m_codec_left(end));
		if (ret < 0)
			return ret;
		waited = true;
	}
}

int m2m_chain_send(struct m2m_chain *chain, const void *data, size_t size,
		   uint64_t timestamp_ns)
{
	M2M_CODEC_ENTER(&chains, chain);
	return m2m_codec_leave(&chain->handle, send_coded(chain, data, size,
							  timestamp_ns),
			       __func__);
}

int m2m_chain_drain(struct m2m_chain *chain)
{
	M2M_CODEC_ENTER(&chains, chain);
	chain->draining = true;
	return m2m_codec_leave(&chain->handle, m2m_decoder_drain(chain->dec),
			       __func__);
}

static int receive_packet(struct m2m_chain *chain, struct m2m_packet *packet,
			  int timeout_ms)
{
	int64_t end = m2m_codec_deadline(timeout_ms);
	int ret;

	for (;;) {
		ret = pump(chain);
		if (ret < 0)
			return ret;
		if (chain->enc) {
			ret = m2m_encoder_receive(chain->enc, packet, 0);
			if (ret != -EAGAIN &&
			    (ret != -ENODATA || chain->encoder_draining))
				return ret;
		} else if (chain->draining && chain->decoder_done) {
			return -ENODATA;   /* drained before any frame */
		}
		if (!m2m_codec_left(end))
			return -EAGAIN;
		ret = wait_devices(chain, m2m_codec_left(end));
		if (ret < 0)
			return ret;
	}
}

int m2m_chain_receive(struct m2m_chain *chain, struct m2m_packet *packet,
		      int timeout_ms)
{
	M2M_CODEC_ENTER(&chains, chain);
	return m2m_codec_leave(&chain->handle, packet ?
			       receive_packet(chain, packet, timeout_ms) :
			       m2m_error(EINVAL, "m2m_chain_receive: packet "
					 "is NULL"), __func__);
}

int m2m_chain_release(struct m2m_chain *chain, const struct m2m_packet *packet)
{
	M2M_CODEC_ENTER(&chains, chain);
	return m2m_codec_leave(&chain->handle, chain->enc ?
			       m2m_encoder_release(chain->enc, packet) :
			       m2m_error(EINVAL, "m2m_chain_release: the chain "
					 "made no packet"), __func__);
}

int m2m_chain_get_stats(struct m2m_chain *chain,
			struct m2m_chain_stats *stats)
{
	M2M_CODEC_ENTER(&chains, chain);
	if (stats)
		*stats = chain->stats;
	return m2m_codec_leave(&chain->handle, stats ? 0 :
			       m2m_error(EINVAL, "m2m_chain_get_stats: stats "
					 "is NULL"), __func__);
}

/* The converter now, and the encoder's node checked now: a wrong name
 * fails the open, not the first frame. The encoder is set up at the
 * first frame, when the picture's size is known. */
static int open_converter_and_check_encoder(struct m2m_chain *c)
{
	struct m2m_open_options open_opts = M2M_OPEN_OPTIONS_INIT;
	struct m2m_device *enc;
	bool makes;
	int ret;

	open_opts.flags = M2M_OPEN_NONBLOCK;
	ret = m2m_open_ext(&c->conv, c->converter_name, &open_opts);
	if (ret < 0)
		return ret;
	ret = m2m_open(&enc, c->encoder_name);
	if (ret < 0)
		return ret;
	makes = m2m_codec_lists_coded(enc, M2M_QUEUE_CAPTURE,
				      c->opts.encoder.coded_fourcc);
	m2m_close(enc);
	return makes ? 0 : m2m_error(ENODEV, "m2m_chain_open: %s does not "
				     "make 0x%08x (not among its CAPTURE "
				     "queue's compressed formats)",
				     c->encoder_name,
				     c->opts.encoder.coded_fourcc);
}

/* What open made, once no other thread can reach it. */
static void chain_free(struct m2m_chain *c)
{
	unsigned int i;

	/* The importers first, then the exporters. */
	m2m_encoder_close(c->enc);
	m2m_close(c->conv);
	for (i = 0; c->conv_fd && i < c->out_count; i++)
		if (c->conv_fd[i] >= 0)
			close(c->conv_fd[i]);
	for (i = 0; c->dec_fd && i < c->in_count; i++)
		if (c->dec_fd[i] >= 0)
			close(c->dec_fd[i]);
	m2m_decoder_close(c->dec);
	free(c->lent);
	free(c->lent_valid);
	free(c->dec_fd);
	free(c->dec_fd_of);
	free(c->conv_fd);
	free(c->at_encoder);
	free(c->pending);
	free(c->converter_name);
	free(c->encoder_name);
	m2m_codec_handle_destroy(&c->handle);
	free(c);
}

int m2m_chain_open(struct m2m_chain **out, const char *decoder,
		   const char *converter, const char *encoder,
		   const struct m2m_chain_options *opts)
{
	struct m2m_decoder_options dec_opts;
	struct m2m_chain *c;
	int ret;

	if (!out)
		return m2m_error(EINVAL, "m2m_chain_open: out is NULL");
	*out = NULL;
	if (!decoder || !converter || !encoder)
		return m2m_error(EINVAL, "m2m_chain_open: %s is NULL",
				 !decoder ? "decoder" :
				 !converter ? "converter" : "encoder");
	if (!opts || opts->version != M2M_CHAIN_OPTIONS_VERSION)
		return m2m_error(EINVAL, "m2m_chain_open: opts is %s",
				 opts ? "of an unknown version" : "NULL");
	if (opts->flags & ~(unsigned int)M2M_CHAIN_COPY)
		return m2m_error(EINVAL, "m2m_chain_open: unknown flags 0x%x",
				 opts->flags);
	if (!opts->encoder.coded_fourcc)
		return m2m_error(EINVAL, "m2m_chain_open: opts->encoder needs "
				 "coded_fourcc");
	c = calloc(1, sizeof(*c));
	if (!c)
		return m2m_error(ENOMEM, "m2m_chain_open: no memory");
	m2m_codec_handle_init(&c->handle, &chains);
	c->opts = *opts;
	if (c->opts.decoder.timeout_ms <= 0)
		c->opts.decoder.timeout_ms = 5000;
	c->converter_name = strdup(converter);
	c->encoder_name = strdup(encoder);
	dec_opts = opts->decoder;
	/* The converter holds frames too: room for its queue. */
	if (!dec_opts.held_frames)
		dec_opts.held_frames = 4;
	ret = c->converter_name && c->encoder_name ? 0 :
	      m2m_error(ENOMEM, "m2m_chain_open: no memory");
	if (ret == 0)
		ret = m2m_decoder_open(&c->dec, decoder, &dec_opts);
	if (ret == 0)
		ret = open_converter_and_check_encoder(c);
	if (ret < 0) {
		chain_free(c);
		return ret;
	}
	m2m_codec_handle_add(&c->handle, c);
	*out = c;
	return 0;
}

void m2m_chain_close(struct m2m_chain *c)
{
	struct m2m_codec_handle *h = m2m_codec_close_begin(&chains, c);

	if (!h)
		return;
	/* The chain's waits end now: its own poll at its next turn, a send
	 * waiting in the decoder at once. The encoder is not waited on (a
	 * frame goes to it only when it has room). */
	m2m_codec_interrupt(m2m_decoder_device(c->dec));
	m2m_codec_interrupt(c->conv);
	m2m_codec_close_end(h);
	chain_free(c);
}
