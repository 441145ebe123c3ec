// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libm2m's stateful decoder (include/m2m/codec.h) on vicodec's stateful
 * decoder, against v4l2-ctl decoding the same streams on the same node:
 * frame for frame identical, through resolution changes, drains and a
 * seek. tests/vm/vicodec-decode encodes the streams with v4l2-ctl
 * (--stream-to-hdr) and decodes the references (--stream-to), then runs
 * this program with
 *   VICODEC_DECODER  the decoder node
 *   STREAM_ONE       12 frames at 640x360
 *   STREAM_MIXED     640x360, 1280x720 and 800x480, two frames each, twice
 *   REF_ONE, REF_MIXED  v4l2-ctl's decodes of them, frames back to back
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <m2m/codec.h>

#define FWHT M2M_FOURCC('F', 'W', 'H', 'T')

struct bytes {
	unsigned char *data;
	size_t size;
};

static struct bytes read_file(const char *var)
{
	const char *path = getenv(var);
	struct bytes b = { 0 };
	FILE *f;

	cr_assert(path, "$%s is not set (run by tests/vm/vicodec-decode)", var);
	f = fopen(path, "rb");
	cr_assert(f, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	b.size = ftell(f);
	fseek(f, 0, SEEK_SET);
	b.data = malloc(b.size ? b.size : 1);
	cr_assert(fread(b.data, 1, b.size, f) == b.size);
	fclose(f);
	return b;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/*
 * The frames of a v4l2-ctl --stream-to-hdr file: each is the fourcc
 * "Vhdr" and the frame's length, both as big-endian words, then the frame.
 * Returns how many, up to max.
 */
static unsigned int split(const struct bytes *s, const unsigned char **frames,
			  size_t *sizes, unsigned int max)
{
	size_t at = 0;
	unsigned int n = 0;

	while (at + 8 <= s->size && n < max) {
		cr_assert_eq(be32(s->data + at), M2M_FOURCC('V', 'h', 'd', 'r'),
			     "no Vhdr at byte %zu", at);
		sizes[n] = be32(s->data + at + 4);
		frames[n] = s->data + at + 8;
		at += 8 + sizes[n];
		cr_assert(at <= s->size, "frame %u runs past the file", n);
		n++;
	}
	return n;
}

static struct m2m_decoder *open_decoder(void)
{
	struct m2m_decoder_options opts = M2M_DECODER_OPTIONS_INIT;
	struct m2m_decoder *dec;
	const char *node = getenv("VICODEC_DECODER");
	int ret;

	cr_assert(node, "$VICODEC_DECODER is not set");
	opts.coded_fourcc = FWHT;
	ret = m2m_decoder_open(&dec, node, &opts);
	cr_assert_eq(ret, 0, "m2m_decoder_open: %s", m2m_last_error());
	return dec;
}

/* What a decode gave: the frames' bytes back to back, and their count. */
struct decoded {
	struct bytes out;
	unsigned int frames;
	uint64_t timestamps[64];
};

static void take(struct decoded *d, const struct m2m_frame *f)
{
	size_t n = f->bytesused[0];

	cr_assert_eq(f->format.num_planes, 1);
	cr_assert_eq(f->flags, 0, "frame %u flagged ERROR", d->frames);
	d->out.data = realloc(d->out.data, d->out.size + n);
	memcpy(d->out.data + d->out.size, f->data[0], n);
	d->out.size += n;
	if (d->frames < 64)
		d->timestamps[d->frames] = f->timestamp_ns;
	d->frames++;
}

/* Receive every frame ready, releasing each; stop at -EAGAIN/-ENODATA. */
static int receive_all(struct m2m_decoder *dec, struct decoded *d,
		       int timeout_ms)
{
	struct m2m_frame f;
	int ret;

	while ((ret = m2m_decoder_receive(dec, &f, timeout_ms)) == 0) {
		take(d, &f);
		cr_assert_eq(m2m_decoder_release(dec, &f), 0, "%s",
			     m2m_last_error());
	}
	return ret;
}

/* Send frames [first, first + count) with timestamps (i + 1) ms. */
static void send_frames(struct m2m_decoder *dec, struct decoded *d,
			const unsigned char **frames, const size_t *sizes,
			unsigned int first, unsigned int count)
{
	unsigned int i;

	for (i = first; i < first + count; i++) {
		uint64_t ts = (uint64_t)(i + 1) * 1000000;
		int ret;

		while ((ret = m2m_decoder_send(dec, frames[i], sizes[i], ts)) ==
		       -EAGAIN)
			cr_assert_eq(receive_all(dec, d, 0), -EAGAIN, "%s",
				     m2m_last_error());
		cr_assert_eq(ret, 0, "send of frame %u: %s", i,
			     m2m_last_error());
		receive_all(dec, d, 0);
	}
}

/* Drain and take every frame up to the end; the end must come. */
static void drain(struct m2m_decoder *dec, struct decoded *d)
{
	cr_assert_eq(m2m_decoder_drain(dec), 0, "%s", m2m_last_error());
	cr_assert_eq(receive_all(dec, d, 5000), -ENODATA,
		     "the drain did not end: %s", m2m_last_error());
}

static struct decoded decode(const char *stream_var, unsigned int *count)
{
	struct bytes s = read_file(stream_var);
	const unsigned char *frames[64];
	size_t sizes[64];
	unsigned int n = split(&s, frames, sizes, 64);
	struct m2m_decoder *dec = open_decoder();
	struct decoded d = { 0 };

	send_frames(dec, &d, frames, sizes, 0, n);
	drain(dec, &d);
	m2m_decoder_close(dec);
	*count = n;
	return d;
}

static void assert_same(const struct decoded *d, const char *ref_var)
{
	struct bytes ref = read_file(ref_var);

	cr_assert_eq(d->out.size, ref.size,
		     "libm2m gave %zu bytes, v4l2-ctl %zu", d->out.size,
		     ref.size);
	cr_assert(!memcmp(d->out.data, ref.data, ref.size),
		  "libm2m's frames differ from v4l2-ctl's");
}

Test(decoder, one_size_matches_v4l2_ctl_frame_for_frame)
{
	unsigned int n;
	struct decoded d = decode("STREAM_ONE", &n);

	cr_assert_eq(d.frames, n, "%u frames of %u", d.frames, n);
	assert_same(&d, "REF_ONE");
}

Test(decoder, resolution_changes_lose_no_frame_and_match_v4l2_ctl)
{
	unsigned int n;
	struct decoded d = decode("STREAM_MIXED", &n);

	cr_assert_eq(d.frames, n, "%u frames of %u", d.frames, n);
	assert_same(&d, "REF_MIXED");
}

Test(decoder, frames_keep_their_timestamps_in_order)
{
	unsigned int n, i;
	struct decoded d = decode("STREAM_MIXED", &n);

	for (i = 0; i < d.frames; i++)
		cr_assert_eq(d.timestamps[i], (uint64_t)(i + 1) * 1000000,
			     "frame %u has timestamp %llu", i,
			     (unsigned long long)d.timestamps[i]);
}

Test(decoder, drain_after_no_frame_ends_at_once)
{
	struct m2m_decoder *dec = open_decoder();
	struct decoded d = { 0 };

	drain(dec, &d);
	cr_assert_eq(d.frames, 0);
	m2m_decoder_close(dec);
}

static void drain_after(unsigned int count)
{
	struct bytes s = read_file("STREAM_ONE");
	const unsigned char *frames[64];
	size_t sizes[64];
	unsigned int n = split(&s, frames, sizes, 64);
	struct m2m_decoder *dec = open_decoder();
	struct decoded d = { 0 };

	cr_assert(count <= n);
	send_frames(dec, &d, frames, sizes, 0, count);
	drain(dec, &d);
	cr_assert_eq(d.frames, count, "%u frames after a drain of %u",
		     d.frames, count);
	m2m_decoder_close(dec);
}

Test(decoder, drain_after_one_frame_gives_it)
{
	drain_after(1);
}

Test(decoder, drain_after_n_frames_gives_them_all)
{
	drain_after(12);
}

Test(decoder, sending_after_a_drain_decodes_a_new_stream_whole)
{
	struct bytes s = read_file("STREAM_ONE");
	const unsigned char *frames[64];
	size_t sizes[64];
	unsigned int n = split(&s, frames, sizes, 64);
	struct m2m_decoder *dec = open_decoder();
	struct decoded first = { 0 }, second = { 0 };

	send_frames(dec, &first, frames, sizes, 0, n);
	drain(dec, &first);
	send_frames(dec, &second, frames, sizes, 0, n);
	drain(dec, &second);
	m2m_decoder_close(dec);
	cr_assert_eq(second.frames, n, "%u frames of %u after the drain",
		     second.frames, n);
	assert_same(&second, "REF_ONE");
}

Test(decoder, drain_before_the_header_was_read_gives_the_frame)
{
	struct bytes s = read_file("STREAM_ONE");
	const unsigned char *frames[64];
	size_t sizes[64];
	struct m2m_decoder *dec = open_decoder();
	struct decoded d = { 0 };

	/* STOP before CAPTURE streams: vicodec ignores it, so the decoder
	 * must send it again once CAPTURE is set up. */
	cr_assert(split(&s, frames, sizes, 64) >= 1);
	cr_assert_eq(m2m_decoder_send(dec, frames[0], sizes[0], 1000000), 0,
		     "%s", m2m_last_error());
	drain(dec, &d);
	cr_assert_eq(d.frames, 1, "%u frames of 1", d.frames);
	m2m_decoder_close(dec);
}

Test(decoder, drain_during_a_resolution_change_gives_every_frame)
{
	struct bytes s = read_file("STREAM_MIXED");
	const unsigned char *frames[64];
	size_t sizes[64];
	unsigned int n = split(&s, frames, sizes, 64), i;
	struct m2m_decoder *dec = open_decoder();
	struct decoded d = { 0 };

	/* Two frames of 640x360, then the first of 1280x720, and STOP at
	 * once: the change's LAST comes first, then the drain's. */
	cr_assert(n >= 3);
	for (i = 0; i < 3; i++)
		cr_assert_eq(m2m_decoder_send(dec, frames[i], sizes[i],
					      (i + 1) * 1000000ull), 0, "%s",
			     m2m_last_error());
	drain(dec, &d);
	cr_assert_eq(d.frames, 3, "%u frames of 3", d.frames);
	m2m_decoder_close(dec);
}

Test(decoder, drain_with_every_frame_held_gives_them_after_release)
{
	struct bytes s = read_file("STREAM_ONE");
	const unsigned char *frames[64];
	size_t sizes[64];
	unsigned int n = split(&s, frames, sizes, 64), sent = 0, got = 0;
	struct m2m_decoder *dec = open_decoder();
	struct m2m_frame held[64];
	int ret;

	/* Hold every frame: CAPTURE fills up, and send must say so. */
	while (sent < n) {
		ret = m2m_decoder_send(dec, frames[sent], sizes[sent], sent);
		if (ret == -EAGAIN) {
			ret = m2m_decoder_receive(dec, &held[got], 1000);
			if (ret == -EAGAIN)
				break;
			cr_assert_eq(ret, 0, "%s", m2m_last_error());
			got++;
			continue;
		}
		cr_assert_eq(ret, 0, "%s", m2m_last_error());
		sent++;
	}
	cr_assert(sent < n, "CAPTURE never filled up");
	cr_assert(got > 0);
	cr_assert_eq(m2m_decoder_drain(dec), 0, "%s", m2m_last_error());
	while (got)
		cr_assert_eq(m2m_decoder_release(dec, &held[--got]), 0);
	{
		struct decoded d = { 0 };

		cr_assert_eq(receive_all(dec, &d, 5000), -ENODATA, "%s",
			     m2m_last_error());
	}
	m2m_decoder_close(dec);
}

Test(decoder, seek_to_the_start_decodes_it_again)
{
	struct bytes s = read_file("STREAM_ONE");
	const unsigned char *frames[64];
	size_t sizes[64];
	unsigned int n = split(&s, frames, sizes, 64);
	struct m2m_decoder *dec = open_decoder();
	struct decoded before = { 0 }, after = { 0 };

	send_frames(dec, &before, frames, sizes, 0, n / 2);
	cr_assert_eq(m2m_decoder_seek(dec), 0, "%s", m2m_last_error());
	send_frames(dec, &after, frames, sizes, 0, n);
	drain(dec, &after);
	m2m_decoder_close(dec);
	cr_assert_eq(after.frames, n, "%u frames after the seek, of %u",
		     after.frames, n);
	assert_same(&after, "REF_ONE");
}

Test(decoder, open_refuses_a_format_the_node_does_not_decode)
{
	struct m2m_decoder_options opts = M2M_DECODER_OPTIONS_INIT;
	struct m2m_decoder *dec;

	opts.coded_fourcc = M2M_FOURCC('H', '2', '6', '4');
	cr_assert_eq(m2m_decoder_open(&dec, getenv("VICODEC_DECODER"), &opts),
		     -ENODEV);
	cr_assert_null(dec);
	cr_assert(strstr(m2m_last_error(), "does not decode"), "%s",
		  m2m_last_error());
}

Test(fwht, header_of_every_frame_gives_its_size)
{
	struct bytes s = read_file("STREAM_MIXED");
	const unsigned char *frames[64];
	size_t sizes[64];
	unsigned int n = split(&s, frames, sizes, 64), i;
	struct m2m_fwht_header h;

	for (i = 0; i < n; i++) {
		cr_assert_eq(m2m_fwht_parse_header(&h, frames[i], sizes[i]),
			     (long)sizes[i], "frame %u", i);
		cr_assert(h.width == 640 || h.width == 1280 || h.width == 800,
			  "frame %u is %u wide", i, h.width);
	}
	cr_assert_eq(m2m_fwht_parse_header(&h, frames[0], 10), -EAGAIN);
	cr_assert_eq(m2m_fwht_parse_header(&h, s.data, sizes[0]), -EINVAL);
}
