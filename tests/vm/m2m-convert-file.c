// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * m2m-convert-file: convert a file of raw frames through an m2m device with
 * libm2m, one m2m_convert() per frame. tests/vm/gstreamer runs it on the
 * frames GStreamer fed v4l2convert, to get what v4l2convert should have
 * produced from them.
 *
 * Usage: m2m-convert-file DEVICE SRC DST INFILE OUTFILE [CONTROL=VALUE...]
 *
 *   SRC, DST  FORMAT:WIDTHxHEIGHT[:COLORIMETRY], FORMAT a name of libm2m's
 *             table (YUYV, YUV420, RGB24, XBGR32, ...), COLORIMETRY one of
 *             bt601, bt709, srgb (GStreamer's names; OUTPUT only, since
 *             CAPTURE takes OUTPUT's). Frames are tightly packed.
 *   CONTROL   horizontal_flip, vertical_flip or rotate, named as v4l2-ctl
 *             and GStreamer's extra-controls name them
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/videodev2.h>
#include <m2m/m2m.h>

static const struct {
	const char *name;
	uint32_t colorspace, ycbcr_enc, quantization, xfer_func;
} colorimetries[] = {
	/* As GStreamer's v4l2 plugin sets them for these caps. */
	{ "bt601", V4L2_COLORSPACE_SMPTE170M, V4L2_YCBCR_ENC_601,
	  V4L2_QUANTIZATION_LIM_RANGE, V4L2_XFER_FUNC_709 },
	{ "bt709", V4L2_COLORSPACE_REC709, V4L2_YCBCR_ENC_709,
	  V4L2_QUANTIZATION_LIM_RANGE, V4L2_XFER_FUNC_709 },
	{ "srgb", V4L2_COLORSPACE_SRGB, V4L2_YCBCR_ENC_DEFAULT,
	  V4L2_QUANTIZATION_FULL_RANGE, V4L2_XFER_FUNC_SRGB },
};

static const struct {
	const char *name;
	uint32_t id;
} controls[] = {
	{ "horizontal_flip", V4L2_CID_HFLIP },
	{ "vertical_flip", V4L2_CID_VFLIP },
	{ "rotate", V4L2_CID_ROTATE },
};

static int fail(const char *what, const char *detail)
{
	fprintf(stderr, "m2m-convert-file: %s: %s\n", what, detail);
	return 1;
}

/* FORMAT:WIDTHxHEIGHT[:COLORIMETRY] into a packed format. */
static int parse_format(struct m2m_format *fmt, const char *spec)
{
	char name[32], colorimetry[16] = "";
	unsigned int w, h, i;

	if (sscanf(spec, "%31[^:]:%ux%u:%15s", name, &w, &h, colorimetry) < 3 ||
	    m2m_format_init(fmt, m2m_fourcc_from_name(name), w, h) < 0)
		return fail(spec, "not FORMAT:WIDTHxHEIGHT[:COLORIMETRY] with "
			    "a format and size libm2m knows");
	if (!colorimetry[0])
		return 0;
	for (i = 0; i < sizeof(colorimetries) / sizeof(colorimetries[0]); i++) {
		if (strcmp(colorimetries[i].name, colorimetry))
			continue;
		fmt->colorspace = colorimetries[i].colorspace;
		fmt->ycbcr_enc = colorimetries[i].ycbcr_enc;
		fmt->quantization = colorimetries[i].quantization;
		fmt->xfer_func = colorimetries[i].xfer_func;
		return 0;
	}
	return fail(colorimetry, "unknown colorimetry");
}

static int set_control(struct m2m_device *dev, const char *spec)
{
	char name[32];
	unsigned int i;
	int value;

	if (sscanf(spec, "%31[^=]=%d", name, &value) != 2)
		return fail(spec, "not CONTROL=VALUE");
	for (i = 0; i < sizeof(controls) / sizeof(controls[0]); i++)
		if (!strcmp(controls[i].name, name))
			return m2m_set_control(dev, controls[i].id, value) < 0 ?
			       fail(spec, m2m_last_error()) : 0;
	return fail(name, "unknown control");
}

/*
 * The driver may adjust what it is asked for; the files are packed frames
 * of exactly the asked layout, so anything else is an error.
 */
static int set_format(struct m2m_device *dev, enum m2m_queue queue,
		      const struct m2m_format *want, const char *spec)
{
	struct m2m_format got = *want;

	if (m2m_set_format(dev, &got, queue) < 0)
		return fail(spec, m2m_last_error());
	if (got.fourcc != want->fourcc || got.width != want->width ||
	    got.height != want->height ||
	    got.bytesperline[0] != want->bytesperline[0] ||
	    got.plane_size[0] != want->plane_size[0])
		return fail(spec, "the device changed the format");
	return 0;
}

static int convert_frames(struct m2m_device *dev, FILE *in, FILE *out,
			  size_t src_size, size_t dst_size)
{
	unsigned char *src = malloc(src_size), *dst = malloc(dst_size);
	unsigned int frames = 0;
	size_t got;
	int ret = 1, n;

	if (!src || !dst)
		goto out;
	while ((got = fread(src, 1, src_size, in)) == src_size) {
		n = m2m_convert(dev, dst, dst_size, src, src_size);
		if (n < 0 || (size_t)n != dst_size) {
			fail("m2m_convert", n < 0 ? m2m_last_error() :
			     "short frame");
			goto out;
		}
		if (fwrite(dst, 1, dst_size, out) != dst_size) {
			fail("write", strerror(errno));
			goto out;
		}
		frames++;
	}
	if (got != 0 || ferror(in)) {
		fail("read", "the input is not a whole number of frames");
		goto out;
	}
	printf("m2m-convert-file: %u frames\n", frames);
	ret = 0;
out:
	free(src);
	free(dst);
	return ret;
}

int main(int argc, char **argv)
{
	struct m2m_format src, dst;
	struct m2m_device *dev;
	FILE *in = NULL, *out = NULL;
	int i, ret = 1;

	if (argc < 6) {
		fprintf(stderr, "usage: %s DEVICE SRC DST INFILE OUTFILE "
			"[CONTROL=VALUE...]\n", argv[0]);
		return 2;
	}
	if (parse_format(&src, argv[2]) || parse_format(&dst, argv[3]))
		return 1;
	if (m2m_open(&dev, argv[1]) < 0)
		return fail(argv[1], m2m_last_error());

	/* OUTPUT first: setting it resets CAPTURE to follow it. Controls
	 * before CAPTURE, since a quarter turn swaps CAPTURE's size. */
	if (set_format(dev, M2M_QUEUE_OUTPUT, &src, argv[2]))
		goto out;
	for (i = 6; i < argc; i++)
		if (set_control(dev, argv[i]))
			goto out;
	if (set_format(dev, M2M_QUEUE_CAPTURE, &dst, argv[3]))
		goto out;

	in = fopen(argv[4], "rb");
	if (!in) {
		fail(argv[4], strerror(errno));
		goto out;
	}
	out = fopen(argv[5], "wb");
	if (!out) {
		fail(argv[5], strerror(errno));
		goto out;
	}
	ret = convert_frames(dev, in, out, m2m_format_frame_size(&src),
			     m2m_format_frame_size(&dst));
	if (fclose(out) && !ret)
		ret = fail(argv[5], strerror(errno));
	out = NULL;
out:
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	m2m_close(dev);
	return ret;
}
