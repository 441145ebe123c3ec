// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libm2m's chain (include/m2m/codec.h): vicodec's decoder -> vhqv scaling
 * 640x360 to 1280x720 -> vicodec's encoder, buffers handed on by DMABUF.
 * Its packets must be byte for byte those of the three steps run one after
 * another (m2m_decoder, m2m_convert(), m2m_encoder), with no byte copied
 * by the library; the same chain copying (M2M_CHAIN_COPY) gives the same
 * packets and counts its copies. Run by tests/vm/vicodec-decode under
 * vm-run --vicodec: VICODEC_DECODER, VICODEC_ENCODER, VHQV_VIDEO,
 * STREAM_ONE (12 frames of 640x360 in 640x368) and STREAM_MIXED (sizes
 * changing).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <m2m/codec.h>

#include "vicodec-streams.h"

#define FWHT M2M_FOURCC('F', 'W', 'H', 'T')
#define YU12 M2M_FOURCC('Y', 'U', '1', '2')
#define OUT_W 1280
#define OUT_H 720
#define MAX_PACKETS 64

/* Packets, kept in order. */
struct packets {
	unsigned int count;
	struct bytes p[MAX_PACKETS];
	uint64_t ts[MAX_PACKETS];
};

static void keep(struct packets *out, const struct m2m_packet *pkt)
{
	struct bytes *b = &out->p[out->count];

	cr_assert_lt(out->count, MAX_PACKETS);
	cr_assert_eq(pkt->flags & M2M_BUFFER_ERROR, 0, "packet %u flagged "
		     "ERROR", out->count);
	b->data = malloc(pkt->size);
	memcpy(b->data, pkt->data, pkt->size);
	b->size = pkt->size;
	out->ts[out->count++] = pkt->timestamp_ns;
}

static void assert_same(const struct packets *a, const struct packets *b)
{
	unsigned int i;

	cr_assert_eq(a->count, b->count, "%u packets against %u", a->count,
		     b->count);
	for (i = 0; i < a->count; i++) {
		cr_assert_eq(a->p[i].size, b->p[i].size, "packet %u: %zu bytes "
			     "against %zu", i, a->p[i].size, b->p[i].size);
		cr_assert(!memcmp(a->p[i].data, b->p[i].data, a->p[i].size),
			  "packet %u differs", i);
		cr_assert_eq(a->ts[i], b->ts[i], "packet %u's timestamp", i);
	}
}

static struct m2m_chain_options chain_options(unsigned int flags)
{
	struct m2m_chain_options o = M2M_CHAIN_OPTIONS_INIT;

	o.decoder.coded_fourcc = FWHT;
	o.encoder.coded_fourcc = FWHT;
	o.encoder.width = OUT_W;
	o.encoder.height = OUT_H;
	o.flags = flags;
	return o;
}

static struct m2m_chain *open_chain(unsigned int flags)
{
	struct m2m_chain_options o = chain_options(flags);
	struct m2m_chain *chain;
	int ret = m2m_chain_open(&chain, env("VICODEC_DECODER"),
				 env("VHQV_VIDEO"), env("VICODEC_ENCODER"), &o);

	cr_assert_eq(ret, 0, "m2m_chain_open: %s", m2m_last_error());
	return chain;
}

static void receive_chain(struct m2m_chain *chain, struct packets *out,
			  int timeout_ms)
{
	struct m2m_packet pkt;
	int ret;

	while ((ret = m2m_chain_receive(chain, &pkt, timeout_ms)) == 0) {
		keep(out, &pkt);
		cr_assert_eq(m2m_chain_release(chain, &pkt), 0, "%s",
			     m2m_last_error());
	}
	cr_assert(ret == -EAGAIN || ret == -ENODATA, "m2m_chain_receive: %d "
		  "(%s)", ret, m2m_last_error());
}

/* The stream through the chain; how many sends said -EAGAIN. */
static unsigned int run_chain(struct m2m_chain *chain, const char *stream,
			      struct packets *out)
{
	const unsigned char *frames[64];
	size_t sizes[64];
	struct bytes s = read_file(stream);
	unsigned int n = split(&s, frames, sizes, 64), i, again = 0;
	int ret;

	for (i = 0; i < n; i++) {
		while ((ret = m2m_chain_send(chain, frames[i], sizes[i],
					     (i + 1) * 40000000ull)) ==
		       -EAGAIN) {
			struct m2m_packet pkt;

			again++;
			ret = m2m_chain_receive(chain, &pkt, 10000);
			cr_assert_eq(ret, 0, "a full chain gave no packet: %d "
				     "(%s)", ret, m2m_last_error());
			keep(out, &pkt);
			m2m_chain_release(chain, &pkt);
		}
		cr_assert_eq(ret, 0, "m2m_chain_send of frame %u: %s", i,
			     m2m_last_error());
	}
	cr_assert_eq(m2m_chain_drain(chain), 0, "%s", m2m_last_error());
	receive_chain(chain, out, 10000);
	free(s.data);
	return again;
}

/* The same, one step after another: every frame decoded, then scaled by
 * m2m_convert() on vhqv, then encoded. */
static void run_steps(const char *stream, struct packets *out)
{
	struct m2m_decoder_options dopts = M2M_DECODER_OPTIONS_INIT;
	struct m2m_encoder_options eopts = M2M_ENCODER_OPTIONS_INIT;
	const unsigned char *frames[64];
	size_t sizes[64];
	struct bytes s = read_file(stream), scaled;
	unsigned int n = split(&s, frames, sizes, 64), i;
	struct m2m_decoder *dec;
	struct m2m_encoder *enc;
	struct m2m_device *conv = NULL;
	struct m2m_format out_fmt;
	struct m2m_packet pkt;
	struct m2m_frame f;
	int ret;

	dopts.coded_fourcc = FWHT;
	cr_assert_eq(m2m_decoder_open(&dec, env("VICODEC_DECODER"), &dopts), 0);
	eopts.coded_fourcc = FWHT;
	eopts.raw_fourcc = YU12;
	eopts.width = OUT_W;
	eopts.height = OUT_H;
	cr_assert_eq(m2m_encoder_open(&enc, env("VICODEC_ENCODER"), &eopts), 0,
		     "%s", m2m_last_error());
	m2m_format_init(&out_fmt, YU12, OUT_W, OUT_H);
	scaled.size = m2m_format_frame_size(&out_fmt);
	scaled.data = malloc(scaled.size);
	for (i = 0; i <= n; i++) {
		if (i < n)
			cr_assert_eq(m2m_decoder_send(dec, frames[i], sizes[i],
					(i + 1) * 40000000ull), 0, "%s",
				     m2m_last_error());
		else
			cr_assert_eq(m2m_decoder_drain(dec), 0);
		while ((ret = m2m_decoder_receive(dec, &f, i < n ? 0 : 10000))
		       == 0) {
			if (!conv) {
				struct m2m_format in = f.format, o = out_fmt;
				struct m2m_rect crop = f.visible;

				/* Scaled only: the colour stays the frames'. */
				o.colorspace = in.colorspace;
				o.ycbcr_enc = in.ycbcr_enc;
				o.quantization = in.quantization;
				o.xfer_func = in.xfer_func;

				cr_assert_eq(m2m_open(&conv, env("VHQV_VIDEO")),
					     0);
				cr_assert_eq(m2m_set_format(conv, &in,
						M2M_QUEUE_OUTPUT), 0);
				cr_assert_eq(m2m_set_rect(conv, &crop,
						M2M_RECT_CROP), 0);
				cr_assert_eq(m2m_set_format(conv, &o,
						M2M_QUEUE_CAPTURE), 0);
			}
			cr_assert_gt(m2m_convert(conv, scaled.data, scaled.size,
						 f.data[0], f.bytesused[0]), 0,
				     "%s", m2m_last_error());
			cr_assert_eq(m2m_encoder_send(enc, scaled.data,
						      scaled.size,
						      f.timestamp_ns), 0);
			m2m_decoder_release(dec, &f);
			while (m2m_encoder_receive(enc, &pkt, 0) == 0) {
				keep(out, &pkt);
				m2m_encoder_release(enc, &pkt);
			}
		}
	}
	cr_assert_eq(m2m_encoder_drain(enc), 0);
	while (m2m_encoder_receive(enc, &pkt, 10000) == 0) {
		keep(out, &pkt);
		m2m_encoder_release(enc, &pkt);
	}
	m2m_close(conv);
	m2m_encoder_close(enc);
	m2m_decoder_close(dec);
	free(scaled.data);
	free(s.data);
}

Test(chain, dmabuf_copies_nothing_and_equals_the_steps, .timeout = 300)
{
	struct packets chained = { 0 }, steps = { 0 };
	struct m2m_chain_stats st;
	struct m2m_chain *chain = open_chain(0);
	struct m2m_format in, out;

	run_chain(chain, "STREAM_ONE", &chained);
	cr_assert_eq(m2m_chain_get_stats(chain, &st), 0);
	m2m_chain_close(chain);
	run_steps("STREAM_ONE", &steps);
	cr_assert_eq(steps.count, 12);
	assert_same(&chained, &steps);
	/* Both links by DMABUF: the decoder's 640x368 frames and vhqv's
	 * 1280x720 results, each handed on uncopied. */
	m2m_format_init(&in, YU12, 640, 368);
	m2m_format_init(&out, YU12, OUT_W, OUT_H);
	cr_assert_eq(st.dmabuf_links, 2);
	cr_assert_eq(st.frames, 12);
	cr_assert_eq(st.bytes_copied, 0, "%llu bytes copied",
		     (unsigned long long)st.bytes_copied);
	cr_assert_eq(st.bytes_shared, 12 * (m2m_format_frame_size(&in) +
					    m2m_format_frame_size(&out)));
}

Test(chain, copying_gives_the_same_packets_and_counts_its_copies,
     .timeout = 300)
{
	struct packets shared = { 0 }, copied = { 0 };
	struct m2m_chain_stats st;
	struct m2m_chain *chain = open_chain(0);
	struct m2m_format in, out;

	run_chain(chain, "STREAM_ONE", &shared);
	m2m_chain_close(chain);
	chain = open_chain(M2M_CHAIN_COPY);
	run_chain(chain, "STREAM_ONE", &copied);
	cr_assert_eq(m2m_chain_get_stats(chain, &st), 0);
	m2m_chain_close(chain);
	assert_same(&copied, &shared);
	m2m_format_init(&in, YU12, 640, 368);
	m2m_format_init(&out, YU12, OUT_W, OUT_H);
	cr_assert_eq(st.dmabuf_links, 0);
	cr_assert_eq(st.bytes_shared, 0);
	cr_assert_eq(st.bytes_copied, 12 * (m2m_format_frame_size(&in) +
					    m2m_format_frame_size(&out)),
		     "%llu bytes copied", (unsigned long long)st.bytes_copied);
}

Test(chain, a_full_chain_says_eagain_and_loses_nothing, .timeout = 300)
{
	const unsigned char *frames[64];
	size_t sizes[64];
	struct bytes s = read_file("STREAM_ONE");
	unsigned int n = split(&s, frames, sizes, 64), sent = 0;
	struct packets out = { 0 }, steps = { 0 };
	struct m2m_chain *chain = open_chain(0);
	int ret = 0;

	/* Nobody receives: the chain fills, and says so. */
	while (sent < n && (ret = m2m_chain_send(chain, frames[sent],
			sizes[sent], (sent + 1) * 40000000ull)) == 0)
		sent++;
	cr_assert_eq(ret, -EAGAIN, "send %u of %u: %d (%s)", sent, n, ret,
		     m2m_last_error());
	cr_assert_gt(sent, 0);
	/* Then everything goes through, in order. */
	receive_chain(chain, &out, 1000);
	for (; sent < n; sent++) {
		while ((ret = m2m_chain_send(chain, frames[sent], sizes[sent],
				(sent + 1) * 40000000ull)) == -EAGAIN)
			receive_chain(chain, &out, 200);
		cr_assert_eq(ret, 0, "%s", m2m_last_error());
	}
	cr_assert_eq(m2m_chain_drain(chain), 0);
	receive_chain(chain, &out, 10000);
	m2m_chain_close(chain);
	run_steps("STREAM_ONE", &steps);
	assert_same(&out, &steps);
	free(s.data);
}

Test(chain, a_size_change_is_enotsup, .timeout = 300)
{
	const unsigned char *frames[64];
	size_t sizes[64];
	struct bytes s = read_file("STREAM_MIXED");
	unsigned int n = split(&s, frames, sizes, 64), i;
	struct m2m_chain *chain = open_chain(0);
	struct m2m_packet pkt;
	int ret = 0;

	for (i = 0; i < n && ret != -ENOTSUP; i++) {
		ret = m2m_chain_send(chain, frames[i], sizes[i], i * 1000000);
		while (ret == -EAGAIN) {
			ret = m2m_chain_receive(chain, &pkt, 5000);
			if (ret == 0) {
				m2m_chain_release(chain, &pkt);
				ret = m2m_chain_send(chain, frames[i],
						     sizes[i], i * 1000000);
			}
		}
	}
	if (ret == 0) {
		m2m_chain_drain(chain);
		while ((ret = m2m_chain_receive(chain, &pkt, 5000)) == 0)
			m2m_chain_release(chain, &pkt);
	}
	cr_assert_eq(ret, -ENOTSUP, "%d (%s)", ret, m2m_last_error());
	cr_assert(strstr(m2m_last_error(), "a chain takes one size"), "%s",
		  m2m_last_error());
	m2m_chain_close(chain);
	free(s.data);
}

Test(chain, bad_arguments_are_named)
{
	struct m2m_chain_options o = chain_options(0);
	struct m2m_chain *chain = (void *)1;

	cr_assert_eq(m2m_chain_open(&chain, env("VICODEC_DECODER"), NULL,
				    env("VICODEC_ENCODER"), &o), -EINVAL);
	cr_assert_null(chain);
	cr_assert(strstr(m2m_last_error(), "converter is NULL"));
	o.flags = 0x80;
	cr_assert_eq(m2m_chain_open(&chain, env("VICODEC_DECODER"),
				    env("VHQV_VIDEO"), env("VICODEC_ENCODER"),
				    &o), -EINVAL);
	cr_assert(strstr(m2m_last_error(), "unknown flags 0x80"));
	o = chain_options(0);
	/* The encoder node must make the coded format: the decoder does not. */
	cr_assert_eq(m2m_chain_open(&chain, env("VICODEC_DECODER"),
				    env("VHQV_VIDEO"), env("VICODEC_DECODER"),
				    &o), -ENODEV);
	cr_assert(strstr(m2m_last_error(), "does not make"), "%s",
		  m2m_last_error());
	cr_assert_eq(m2m_chain_send(NULL, "", 0, 0), -EINVAL);
	m2m_chain_close(NULL);
}

/*
 * What a chain leans on: the decoder with every frame lent out (a chain's
 * converter holds them) and nothing left to decode. vicodec's poll then
 * says POLLERR at once, for ever; a receive must still return -EAGAIN
 * (before: m2m_decoder_receive(dec, &f, 0) spun, and the chain with it).
 */
Test(decoder, holding_every_frame_a_receive_returns, .timeout = 60)
{
	struct m2m_decoder_options opts = M2M_DECODER_OPTIONS_INIT;
	const unsigned char *frames[64];
	size_t sizes[64];
	struct bytes s = read_file("STREAM_ONE");
	unsigned int n = split(&s, frames, sizes, 64), sent = 0, got = 0;
	struct m2m_frame held[64];
	struct m2m_decoder *dec;
	int count = 0, ret;

	opts.coded_fourcc = FWHT;
	cr_assert_eq(m2m_decoder_open(&dec, env("VICODEC_DECODER"), &opts), 0);
	/* Exactly as many frames as CAPTURE has buffers, all received and
	 * none released. */
	while (count == 0 || got < (unsigned int)count) {
		if (sent < n && (count == 0 || sent < (unsigned int)count))
			cr_assert_eq(m2m_decoder_send(dec, frames[sent],
					sizes[sent], sent + 1), 0, "%s",
				     m2m_last_error());
		sent++;
		while (m2m_decoder_receive(dec, &held[got], 2000) == 0) {
			got++;
			count = m2m_buffer_count(m2m_decoder_device(dec),
						 M2M_QUEUE_CAPTURE);
			if (got == (unsigned int)count)
				break;
		}
		cr_assert_lt(sent, 64, "%u sent, %u frames of %d", sent, got,
			     count);
	}
	ret = m2m_decoder_receive(dec, &held[got], 0);
	cr_assert_eq(ret, -EAGAIN, "%d", ret);
	ret = m2m_decoder_receive(dec, &held[got], 200);
	cr_assert_eq(ret, -EAGAIN, "%d", ret);
	m2m_decoder_close(dec);
	free(s.data);
}

/*
 * Threads (codec-threads.h): the chain keeps m2m_device's contract too. A
 * close from another thread ends a receive waiting, and the handle is
 * refused after (before, the close freed what the waiting call read); a
 * receive keeps its timeout; and a send in one thread while another
 * receives without a timeout loses no packet.
 */
#include "codec-threads.h"

static int receive_chain_packet(void *chain, int timeout_ms)
{
	struct m2m_packet pkt;
	int ret = m2m_chain_receive(chain, &pkt, timeout_ms);

	if (ret == 0)
		m2m_chain_release(chain, &pkt);
	return ret;
}

static void close_chain(void *chain)
{
	m2m_chain_close(chain);
}

Test(threads, chain_close_ends_a_receive_waiting, .timeout = 60)
{
	close_ends_a_receive(open_chain(0), receive_chain_packet, close_chain,
			     "chain");
}

Test(threads, chain_receive_keeps_its_timeout, .timeout = 60)
{
	struct m2m_chain *chain = open_chain(0);

	receive_keeps_its_timeout(chain, receive_chain_packet, "chain");
	m2m_chain_close(chain);
}

static int send_to_chain(void *chain, const void *data, size_t size,
			 uint64_t timestamp_ns)
{
	return m2m_chain_send(chain, data, size, timestamp_ns);
}

static int drain_chain(void *chain)
{
	return m2m_chain_drain(chain);
}

Test(threads, chain_fed_by_one_thread_gives_every_packet_to_another,
     .timeout = 300)
{
	struct bytes s = read_file("STREAM_ONE");
	struct feed feed = { .obj = open_chain(0), .send = send_to_chain,
			     .drain = drain_chain, .step_ns = 40000000 };
	struct packets out = { 0 };
	struct m2m_packet pkt;
	unsigned int i;
	int ret;

	feed.count = split(&s, feed.data, feed.size, 64);
	start_feed(&feed);
	while ((ret = m2m_chain_receive(feed.obj, &pkt, -1)) == 0) {
		keep(&out, &pkt);
		cr_assert_eq(m2m_chain_release(feed.obj, &pkt), 0, "%s",
			     m2m_last_error());
	}
	finish_feed(&feed);
	cr_assert_eq(ret, -ENODATA, "receive: %d (%s)", ret, m2m_last_error());
	cr_assert_eq(out.count, feed.count, "%u packets of %u frames",
		     out.count, feed.count);
	for (i = 0; i < out.count; i++)
		cr_assert_eq(out.ts[i], (i + 1) * 40000000ull, "packet %u's "
			     "timestamp", i);
	m2m_chain_close(feed.obj);
	free(s.data);
}
