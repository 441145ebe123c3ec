// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libm2m's colour promises (include/m2m/m2m.h, struct m2m_format;
 * docs/libm2m.md, "Colour") on whatever device M2M_DEVICE names (default
 * "inprocess"): an untagged frame is what OpenCV, FFmpeg and libyuv take
 * it to be, so a round trip with default arguments gives a photo back;
 * R'G'B' made from Y'CbCr is full range whatever the source's range; GREY
 * is full range; colour fields set on CAPTURE are converted to.
 *
 * The photos are scikit-image's, written as PPM and PGM into M2M_PHOTOS
 * by tests/photos.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/videodev2.h>
#include <m2m/m2m.h>

#define FMT(s) m2m_fourcc_from_name(s)
#define OK(call) cr_assert_geq((call), 0, "%s: %s", #call, m2m_last_error())

static struct m2m_device *dev;

static void open_device(void)
{
	const char *name = getenv("M2M_DEVICE");

	OK(m2m_open(&dev, name && *name ? name : M2M_INPROCESS));
}

static void close_device(void)
{
	m2m_close(dev);
	dev = NULL;
}

TestSuite(colour, .init = open_device, .fini = close_device);

struct picture {
	uint32_t width, height, channels;
	uint8_t *data;
};

/* A binary PPM (P6) or PGM (P5) of tests/photos. */
static struct picture read_photo(const char *name)
{
	const char *dir = getenv("M2M_PHOTOS");
	struct picture pic = { 0 };
	char path[512], magic[3] = "";
	unsigned int max;
	size_t size;
	FILE *f;

	cr_assert(dir && *dir, "M2M_PHOTOS names no directory of photos");
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	cr_assert_not_null(f, "cannot open %s", path);
	cr_assert_eq(fscanf(f, "%2s %u %u %u", magic, &pic.width, &pic.height,
			    &max), 4, "%s: not a PPM/PGM header", path);
	cr_assert_eq(fgetc(f), '\n');
	pic.channels = !strcmp(magic, "P6") ? 3 : 1;
	size = (size_t)pic.width * pic.height * pic.channels;
	pic.data = malloc(size);
	cr_assert_eq(fread(pic.data, 1, size, f), size, "%s is short", path);
	fclose(f);
	return pic;
}

/*
 * Convert one frame with formats made by m2m_format_init() (untagged), or
 * with the colour fields given; returns the result and its format.
 */
static uint8_t *convert(const struct m2m_format *in, const uint8_t *src,
			struct m2m_format *out)
{
	struct m2m_format src_fmt = *in;
	uint8_t *dst;
	size_t size;

	OK(m2m_set_format(dev, &src_fmt, M2M_QUEUE_OUTPUT));
	OK(m2m_set_format(dev, out, M2M_QUEUE_CAPTURE));
	size = m2m_format_frame_size(out);
	dst = malloc(size);
	OK(m2m_convert(dev, dst, size, src, m2m_format_frame_size(&src_fmt)));
	return dst;
}

static uint8_t *convert_untagged(const char *from, const uint8_t *src,
				 uint32_t w, uint32_t h, const char *to)
{
	struct m2m_format in, out;

	OK(m2m_format_init(&in, FMT(from), w, h));
	OK(m2m_format_init(&out, FMT(to), w, h));
	return convert(&in, src, &out);
}

/* PSNR of one channel of two w x h pictures of c channels. */
static double psnr(const uint8_t *a, const uint8_t *b, size_t pixels,
		   unsigned int c, unsigned int channel)
{
	double sum = 0;

	for (size_t i = 0; i < pixels; i++) {
		double d = (double)a[i * c + channel] - b[i * c + channel];

		sum += d * d;
	}
	return sum ? 10 * log10(255.0 * 255.0 * pixels / sum) : INFINITY;
}

static void assert_round_trip(const char *photo, const char *through,
			      double least_db)
{
	struct picture pic = read_photo(photo);
	size_t pixels = (size_t)pic.width * pic.height;
	uint8_t *mid, *back;

	mid = convert_untagged("RGB24", pic.data, pic.width, pic.height,
			       through);
	back = convert_untagged(through, mid, pic.width, pic.height, "RGB24");
	for (unsigned int ch = 0; ch < 3; ch++) {
		double db = psnr(pic.data, back, pixels, 3, ch);

		cr_assert_geq(db, least_db, "%s RGB24 -> %s -> RGB24: "
			      "channel %u at %.2f dB", photo, through, ch, db);
	}
	free(back);
	free(mid);
	free(pic.data);
}

/*
 * 4:2:0 and 4:2:2 keep a quarter or half of the chroma, and limited range
 * quantizes 256 levels into 220: what a photo loses depends on its colour
 * detail. The cat (chelsea, 451 wide) loses little: 40 dB a channel,
 * the bar, which OpenCV's own RGB -> I420 -> RGB also clears
 * (43.6, 49.7, 40.5 dB; libm2m 46.4, 51.2, 43.5). Astronaut and coffee
 * have saturated detail that 4:2:0 cannot hold: OpenCV gets 37.0, 43.2,
 * 34.3 and 35.1, 42.1, 34.3 dB; libm2m's filters keep more (about 38-41,
 * 46, 38 dB), and 36 dB a channel still fails any wrong matrix or range
 * (a BT.709 decode of BT.601 is below 30 dB). The rocket (427 tall) has a
 * saturated blue sky against white: OpenCV 34.4, 44.2, 28.9 dB, libm2m
 * 37.1, 46.4, 31.5.
 */
Test(colour, rgb_round_trips_through_nv12_yuv420_yuyv_with_defaults)
{
	static const struct {
		const char *photo;
		double least_db;
	} photos[] = {
		{ "chelsea.ppm", 40.0 },
		{ "astronaut.ppm", 36.0 },
		{ "coffee.ppm", 36.0 },
		{ "rocket.ppm", 30.0 },
	};
	static const char *const through[] = { "NV12", "YUV420", "YUYV" };

	for (unsigned int p = 0; p < 4; p++)
		for (unsigned int t = 0; t < 3; t++)
			assert_round_trip(photos[p].photo, through[t],
					  photos[p].least_db);
}

/* One pixel value converted between untagged formats of 2x2 frames. */
static void convert_2x2(const char *from, const uint8_t *src,
			const char *to, uint8_t *dst, size_t dst_size)
{
	uint8_t *out = convert_untagged(from, src, 2, 2, to);

	memcpy(dst, out, dst_size);
	free(out);
}

static void assert_near(const uint8_t *got, const uint8_t *want, size_t n,
			int tolerance, const char *what)
{
	for (size_t i = 0; i < n; i++)
		cr_assert_leq(abs(got[i] - want[i]), tolerance,
			      "%s: byte %zu is %u, not %u (+-%d)", what, i,
			      got[i], want[i], tolerance);
}

/*
 * BT.601 limited range, as OpenCV's COLOR_YUV2RGB_NV12, libyuv's
 * NV12ToARGB and swscale's default read it: white is Y' 235, black 16,
 * and red (81, 90, 240).
 */
Test(colour, untagged_yuyv_is_bt601_limited_range)
{
	static const struct {
		uint8_t yuyv[4], rgb[3];
	} cases[] = {
		{ { 235, 128, 235, 128 }, { 255, 255, 255 } },
		{ { 16, 128, 16, 128 }, { 0, 0, 0 } },
		{ { 81, 90, 81, 240 }, { 255, 0, 0 } },
		{ { 145, 54, 145, 34 }, { 0, 255, 0 } },
		{ { 41, 240, 41, 110 }, { 0, 0, 255 } },
	};

	for (unsigned int i = 0; i < 5; i++) {
		uint8_t yuyv[8], rgb[12], back[8];

		memcpy(yuyv, cases[i].yuyv, 4);
		memcpy(yuyv + 4, cases[i].yuyv, 4);
		convert_2x2("YUYV", yuyv, "RGB24", rgb, sizeof(rgb));
		assert_near(rgb, cases[i].rgb, 3, 1, "YUYV -> RGB24");
		convert_2x2("RGB24", rgb, "YUYV", back, sizeof(back));
		assert_near(back, cases[i].yuyv, 4, 1, "RGB24 -> YUYV");
	}
}

/*
 * GStreamer's case: Y'CbCr tagged limited range (bt601 caps) to R'G'B'
 * left untagged is full range R'G'B', not limited (washed out).
 */
Test(colour, rgb_from_limited_range_yuv_is_full_range)
{
	/* A white row over a black one. */
	uint8_t yuyv[8] = { 235, 128, 235, 128, 16, 128, 16, 128 };
	struct m2m_format in, out;
	uint8_t *rgb;

	OK(m2m_format_init(&in, FMT("YUYV"), 2, 2));
	in.colorspace = V4L2_COLORSPACE_SMPTE170M;
	in.ycbcr_enc = V4L2_YCBCR_ENC_601;
	in.quantization = V4L2_QUANTIZATION_LIM_RANGE;
	OK(m2m_format_init(&out, FMT("XBGR32"), 2, 2));
	rgb = convert(&in, yuyv, &out);
	cr_assert_eq(out.quantization, V4L2_QUANTIZATION_FULL_RANGE,
		     "CAPTURE quantization %u", out.quantization);
	for (unsigned int c = 0; c < 3; c++) {
		cr_assert_eq(rgb[c], 255, "white's channel %u is %u", c,
			     rgb[c]);
		cr_assert_eq(rgb[8 + c], 0, "black's channel %u is %u", c,
			     rgb[8 + c]);
	}
	free(rgb);
}

/*
 * A grey photo is full range (OpenCV's, Pillow's and FFmpeg's grey): it
 * goes to R'G'B' and back, and through NV12 and back, without clipping.
 */
Test(colour, grey_photo_is_full_range_and_round_trips)
{
	static const char *const through[] = { "RGB24", "NV12", "YUYV" };
	struct picture pic = read_photo("camera.pgm");
	size_t pixels = (size_t)pic.width * pic.height;
	uint8_t lo = 255, hi = 0;

	for (size_t i = 0; i < pixels; i++) {
		lo = pic.data[i] < lo ? pic.data[i] : lo;
		hi = pic.data[i] > hi ? pic.data[i] : hi;
	}
	cr_assert(lo < 16 && hi > 235, "camera spans %u..%u", lo, hi);
	for (unsigned int t = 0; t < 3; t++) {
		uint8_t *mid = convert_untagged("GREY", pic.data, pic.width,
						pic.height, through[t]);
		uint8_t *back = convert_untagged(through[t], mid, pic.width,
						 pic.height, "GREY");
		/* R'G'B' holds grey exactly; limited-range Y' has 220
		 * levels for 256, so a level may move by one. */
		int tolerance = t == 0 ? 0 : 1;

		assert_near(back, pic.data, pixels, tolerance, through[t]);
		free(back);
		free(mid);
	}
	free(pic.data);
}

/* GREY from R'G'B' is BT.601 luma in full range, as OpenCV's RGB2GRAY. */
Test(colour, grey_from_rgb_is_full_range_bt601_luma)
{
	static const uint8_t rgb[4][3] = {
		{ 255, 255, 255 }, { 0, 0, 0 }, { 255, 0, 0 }, { 0, 0, 255 },
	};
	/* 0.299 * 255, 0.114 * 255, rounded. */
	static const uint8_t want[4] = { 255, 0, 76, 29 };
	uint8_t grey[4];

	convert_2x2("RGB24", &rgb[0][0], "GREY", grey, sizeof(grey));
	assert_near(grey, want, 4, 1, "RGB24 -> GREY");
}

/* Colour fields set on CAPTURE are what the device converts to. */
Test(colour, capture_fields_set_are_converted_to)
{
	struct m2m_format in, out;
	uint8_t yuyv[8] = { 235, 128, 235, 128, 235, 128, 235, 128 };
	uint8_t *full;

	OK(m2m_format_init(&in, FMT("YUYV"), 2, 2));
	OK(m2m_format_init(&out, FMT("YUYV"), 2, 2));
	out.quantization = V4L2_QUANTIZATION_FULL_RANGE;
	full = convert(&in, yuyv, &out);
	cr_assert_eq(out.quantization, V4L2_QUANTIZATION_FULL_RANGE);
	cr_assert_eq(full[0], 255, "limited white became Y' %u, not 255",
		     full[0]);
	free(full);
}
