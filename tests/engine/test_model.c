// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The reference model against values computed by hand from docs/engine.md,
 * so that the engine is compared with something known to be right.
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "frames.h"

/* A job between two tiny images; the source filled with one pixel. */
static void job_init(struct hqv_job *job, const char *src, uint32_t sw,
		     uint32_t sh, const char *dst, uint32_t dw, uint32_t dh)
{
	memset(job, 0, sizeof(*job));
	image_alloc(&job->src, src, sw, sh, 0);
	image_alloc(&job->dst, dst, dw, dh, 0);
}

/* Every pixel of a YUV444M or 4-byte RGB source, in its byte order. */
static void fill_pixels(struct hqv_image *img, uint8_t c0, uint8_t c1,
			uint8_t c2, uint8_t a)
{
	const struct hqv_format *f = img->fmt;
	uint32_t i, n = img->width * img->height;

	if (f->family == HQV_FAMILY_PLANAR) {
		memset(img->planes[0], c0, n);
		memset(img->planes[1], c1, n);
		memset(img->planes[2], c2, n);
		return;
	}
	for (i = 0; i < n; i++) {
		uint8_t *b = img->planes[0] + 4 * i;

		b[f->order[0]] = c0;
		b[f->order[1]] = c1;
		b[f->order[2]] = c2;
		if (hqv_format_has_alpha(f))
			b[f->order[3]] = a;
	}
}

/* The model's frame, in a buffer laid out as the destination. */
static void model_run(struct hqv_job *job, struct hqv_image *out)
{
	image_alloc_like(out, &job->dst);
	image_fill_byte(out, 0);
	ref_run(job, out->planes);
}

/* Channel ch (Y', Cb, Cr as planes 0..2 of YUV444M, or R, G, B, A of a
 * 4-byte RGB format) of pixel (x, y). */
static unsigned int channel(const struct hqv_image *img, unsigned int ch,
			    uint32_t x, uint32_t y)
{
	const struct hqv_format *f = img->fmt;

	if (f->family == HQV_FAMILY_PLANAR) {
		cr_assert_lt(ch, 3, "YUV444M has no alpha");
		return img->planes[ch % 3][y * img->bytesperline[ch % 3] + x];
	}
	return img->planes[0][y * img->bytesperline[0] + 4 * x + f->order[ch]];
}

static void expect_pixel(const struct hqv_image *img, uint32_t x, uint32_t y,
			 unsigned int c0, unsigned int c1, unsigned int c2,
			 const char *what)
{
	unsigned int v[3] = {
		channel(img, 0, x, y), channel(img, 1, x, y),
		channel(img, 2, x, y),
	};

	cr_assert(v[0] == c0 && v[1] == c1 && v[2] == c2,
		  "%s: pixel (%u, %u) is (%u, %u, %u), expected (%u, %u, %u)",
		  what, x, y, v[0], v[1], v[2], c0, c1, c2);
}

/* One pixel value through the model, between YUV444M and XRGB32. */
static void expect_conversion(const char *src, enum hqv_encoding senc,
			      enum hqv_quantization squant, const uint8_t in[3],
			      const char *dst, enum hqv_encoding denc,
			      enum hqv_quantization dquant, unsigned int c0,
			      unsigned int c1, unsigned int c2,
			      const char *what)
{
	struct hqv_job job;
	struct hqv_image out;

	job_init(&job, src, 2, 2, dst, 2, 2);
	image_set_colour(&job.src, senc, squant);
	image_set_colour(&job.dst, denc, dquant);
	fill_pixels(&job.src, in[0], in[1], in[2], 0xff);
	model_run(&job, &out);
	expect_pixel(&out, 1, 1, c0, c1, c2, what);
	image_free(&out);
	job_free(&job);
}

Test(model, bt601_limited_white_and_black_are_full_range_rgb_extremes)
{
	expect_conversion("YUV444M", HQV_ENC_BT601, HQV_QUANT_LIMITED,
			  (const uint8_t[]){ 235, 128, 128 }, "XRGB32",
			  HQV_ENC_BT601, HQV_QUANT_FULL, 255, 255, 255,
			  "white");
	expect_conversion("YUV444M", HQV_ENC_BT601, HQV_QUANT_LIMITED,
			  (const uint8_t[]){ 16, 128, 128 }, "XRGB32",
			  HQV_ENC_BT601, HQV_QUANT_FULL, 0, 0, 0, "black");
}

/*
 * Full-range red, by hand: Y = Kr; Cb = -Kr / (2 (1 - Kb)); Cr = 1/2.
 * BT.601 limited: 16 + 219 * 0.299 = 81.48; 128 - 224 * 0.1687 = 90.20; 240.
 * BT.709 full: 255 * 0.2126 = 54.21; 128 - 255 * 0.1146 = 98.78;
 * 128 + 127.5 = 255.5, clamped to 255.
 * BT.2020 limited: 16 + 219 * 0.2627 = 73.53; 128 - 224 * 0.1396 = 96.72; 240.
 */
Test(model, full_range_red_gives_hand_computed_ycbcr_in_each_encoding)
{
	static const uint8_t red[3] = { 255, 0, 0 };

	expect_conversion("XRGB32", HQV_ENC_BT601, HQV_QUANT_FULL, red,
			  "YUV444M", HQV_ENC_BT601, HQV_QUANT_LIMITED,
			  81, 90, 240, "BT.601 limited");
	expect_conversion("XRGB32", HQV_ENC_BT709, HQV_QUANT_FULL, red,
			  "YUV444M", HQV_ENC_BT709, HQV_QUANT_FULL,
			  54, 99, 255, "BT.709 full");
	expect_conversion("XRGB32", HQV_ENC_BT2020, HQV_QUANT_FULL, red,
			  "YUV444M", HQV_ENC_BT2020, HQV_QUANT_LIMITED,
			  74, 97, 240, "BT.2020 limited");
}

/*
 * BT.709 limited (63, 102, 240), red rounded to code values, back to
 * R'G'B': (255.51, 0.58, -0.20), so (255, 1, 0) once clamped and rounded.
 */
Test(model, bt709_limited_red_gives_full_range_red)
{
	expect_conversion("YUV444M", HQV_ENC_BT709, HQV_QUANT_LIMITED,
			  (const uint8_t[]){ 63, 102, 240 }, "XRGB32",
			  HQV_ENC_BT709, HQV_QUANT_FULL, 255, 1, 0, "red");
}

/*
 * Y'CbCr of one encoding to another goes through R'G'B', unclamped:
 * BT.709 limited (63, 102, 240) is R'G'B' (1.0020, 0.0023, -0.0008), which
 * is BT.601 limited (81.89, 89.87, 240.02).
 */
Test(model, ycbcr_across_encodings_goes_through_unclamped_rgb)
{
	expect_conversion("YUV444M", HQV_ENC_BT709, HQV_QUANT_LIMITED,
			  (const uint8_t[]){ 63, 102, 240 }, "YUV444M",
			  HQV_ENC_BT601, HQV_QUANT_LIMITED, 82, 90, 240, "red");
}

/* 0 -> 16, 255 -> 235, 128 -> 16 + 219 * 128 / 255 = 125.93. */
Test(model, limited_range_rgb_spans_16_to_235)
{
	expect_conversion("XRGB32", HQV_ENC_BT601, HQV_QUANT_FULL,
			  (const uint8_t[]){ 0, 128, 255 }, "XBGR32",
			  HQV_ENC_BT601, HQV_QUANT_LIMITED, 16, 126, 235,
			  "to limited");
	expect_conversion("XBGR32", HQV_ENC_BT709, HQV_QUANT_LIMITED,
			  (const uint8_t[]){ 16, 126, 235 }, "XRGB32",
			  HQV_ENC_BT709, HQV_QUANT_FULL, 0, 128, 255,
			  "from limited");
}

/* r = 16, g = 33, b = 1: (16 << 3) | (16 >> 2) = 132,
 * (33 << 2) | (33 >> 4) = 134, (1 << 3) | (1 >> 2) = 8. */
Test(model, rgb565_fields_expand_by_bit_replication)
{
	struct hqv_job job;
	struct hqv_image out;
	uint32_t word = 16 << 11 | 33 << 5 | 1;

	job_init(&job, "RGB565", 2, 2, "XRGB32", 2, 2);
	for (unsigned int i = 0; i < 4; i++) {
		job.src.planes[0][2 * i] = word & 0xff;
		job.src.planes[0][2 * i + 1] = word >> 8;
	}
	model_run(&job, &out);
	expect_pixel(&out, 0, 0, 132, 134, 8, "expanded");
	image_free(&out);
	job_free(&job);
}

/* round(8 * 31 / 255 = 0.97) = 1, round(134 * 63 / 255 = 33.1) = 33,
 * round(4 * 31 / 255 = 0.49) = 0, round(2 * 63 / 255 = 0.49) = 0. */
Test(model, rgb565_quantises_with_rounding)
{
	static const uint8_t in[2][3] = { { 8, 134, 255 }, { 4, 2, 132 } };
	static const uint32_t expected[2] = {
		1 << 11 | 33 << 5 | 31, 0 << 11 | 0 << 5 | 16,
	};

	for (unsigned int i = 0; i < 2; i++) {
		struct hqv_job job;
		struct hqv_image out;
		uint32_t word;

		job_init(&job, "XRGB32", 2, 2, "RGB565", 2, 2);
		fill_pixels(&job.src, in[i][0], in[i][1], in[i][2], 0);
		model_run(&job, &out);
		word = out.planes[0][0] | out.planes[0][1] << 8;
		cr_assert_eq(word, expected[i], "case %u: 0x%04x, expected "
			     "0x%04x", i, word, expected[i]);
		image_free(&out);
		job_free(&job);
	}
}

Test(model, grey_source_has_neutral_chroma_and_grey_keeps_luma)
{
	struct hqv_job job;
	struct hqv_image out;

	/* (126 - 16) / 219 * 255 = 128.08 */
	job_init(&job, "GREY", 2, 2, "XRGB32", 2, 2);
	memset(job.src.planes[0], 126, 4);
	model_run(&job, &out);
	expect_pixel(&out, 0, 0, 128, 128, 128, "grey 126");
	image_free(&out);
	job_free(&job);

	/* Full-range BT.601 luma of red: 0.299 * 255 = 76.2 */
	job_init(&job, "XRGB32", 2, 2, "GREY", 2, 2);
	job.dst.quantization = HQV_QUANT_FULL;
	fill_pixels(&job.src, 255, 0, 0, 0);
	model_run(&job, &out);
	cr_assert_eq(out.planes[0][0], 76);
	image_free(&out);
	job_free(&job);
}

Test(model, x_bytes_are_0xff_and_alpha_comes_from_source_or_job)
{
	struct hqv_job job;
	struct hqv_image out;

	job_init(&job, "XRGB32", 2, 2, "XBGR32", 2, 2);
	fill_pixels(&job.src, 1, 2, 3, 0);
	model_run(&job, &out);
	/* XBGR32 is B, G, R, X in memory. */
	cr_assert_eq(out.planes[0][3], 0xff, "X byte");
	image_free(&out);
	job_free(&job);

	job_init(&job, "NV12", 2, 2, "ARGB32", 2, 2);
	job.alpha = 0x40;
	model_run(&job, &out);
	cr_assert_eq(channel(&out, 3, 1, 1), 0x40, "the job's alpha");
	image_free(&out);
	job_free(&job);

	job_init(&job, "ABGR32", 2, 2, "RGBA32", 2, 2);
	job.alpha = 0x40;
	fill_pixels(&job.src, 1, 2, 3, 0x33);
	model_run(&job, &out);
	cr_assert_eq(channel(&out, 3, 1, 1), 0x33, "the source's alpha");
	image_free(&out);
	job_free(&job);
}

/*
 * NV12 4x4 with Cb samples [0 200; 100 40]. Vertically first, rows
 * 0: c0, 1: 3/4 c0 + 1/4 c1, 2: 3/4 c1 + 1/4 c0, 3: c1 (clamped); then
 * across, odd columns average their neighbours, the last one clamped.
 */
Test(model, chroma_up_sampling_is_co_sited_across_and_centred_down)
{
	static const unsigned int expected[4][4] = {
		{ 0, 100, 200, 200 },
		{ 25, 93, 160, 160 },	/* 92.5 rounds up */
		{ 75, 78, 80, 80 },	/* 77.5 rounds up */
		{ 100, 70, 40, 40 },
	};
	struct hqv_job job;
	struct hqv_image out;
	struct ref_plane chroma;

	job_init(&job, "NV12", 4, 4, "YUV444M", 4, 4);
	memset(job.src.planes[0], 100, job.src.plane_size[0]);
	ref_plane(&job.src, job.src.planes, 1, &chroma);
	/* Cb, Cr pairs; Cr stays neutral. */
	memcpy(chroma.base, (const uint8_t[]){ 0, 128, 200, 128 }, 4);
	memcpy(chroma.base + chroma.pitch,
	       (const uint8_t[]){ 100, 128, 40, 128 }, 4);
	model_run(&job, &out);
	for (uint32_t y = 0; y < 4; y++)
		for (uint32_t x = 0; x < 4; x++)
			cr_assert_eq(channel(&out, 1, x, y), expected[y][x],
				     "Cb at (%u, %u): %u, expected %u", x, y,
				     channel(&out, 1, x, y), expected[y][x]);
	image_free(&out);
	job_free(&job);
}

/*
 * YUV444M 4x4 to NV12: rows averaged in pairs, then [1 2 1] / 4 around
 * even columns, the first clamped. Cb rows 0 and 1 average to
 * [10 50 90 130]: (10 + 2 * 10 + 50) / 4 = 20, (50 + 2 * 90 + 130) / 4 = 90;
 * rows 2 and 3 (255 and 0) average to 127.5, which rounds up.
 */
Test(model, chroma_down_sampling_averages_with_the_same_siting)
{
	static const uint8_t cb[4][4] = {
		{ 0, 40, 80, 120 }, { 20, 60, 100, 140 },
		{ 255, 255, 255, 255 }, { 0, 0, 0, 0 },
	};
	struct hqv_job job;
	struct hqv_image out;
	struct ref_plane chroma;

	job_init(&job, "YUV444M", 4, 4, "NV12", 4, 4);
	memset(job.src.planes[0], 100, job.src.plane_size[0]);
	memset(job.src.planes[2], 128, job.src.plane_size[2]);
	for (unsigned int y = 0; y < 4; y++)
		memcpy(job.src.planes[1] + y * job.src.bytesperline[1], cb[y],
		       4);
	model_run(&job, &out);
	ref_plane(&out, out.planes, 1, &chroma);
	cr_assert_eq(chroma.base[0], 20);
	cr_assert_eq(chroma.base[2], 90);
	cr_assert_eq(chroma.base[chroma.pitch], 128);
	cr_assert_eq(chroma.base[chroma.pitch + 2], 128);
	cr_assert_eq(chroma.base[1], 128, "Cr stays neutral");
	image_free(&out);
	job_free(&job);
}

/* Red of source pixel (x, y) = 10 y + x in a 4x2 XRGB32 image. */
static void fill_positions(struct hqv_image *img)
{
	for (uint32_t y = 0; y < img->height; y++)
		for (uint32_t x = 0; x < img->width; x++)
			img->planes[0][y * img->bytesperline[0] + 4 * x + 1] =
				10 * y + x;
}

Test(model, quarter_turn_is_clockwise_and_comes_after_the_flips)
{
	struct hqv_job job;
	struct hqv_image out;

	job_init(&job, "XRGB32", 4, 2, "XRGB32", 2, 4);
	fill_positions(&job.src);
	job.rotation = 90;
	model_run(&job, &out);
	/* The left column, bottom up, becomes the top row. */
	cr_assert_eq(channel(&out, 0, 0, 0), 10);
	cr_assert_eq(channel(&out, 0, 1, 0), 0);
	cr_assert_eq(channel(&out, 0, 0, 3), 13);
	image_free(&out);

	/* Mirrored first, the right column becomes the top row. */
	job.hflip = true;
	model_run(&job, &out);
	cr_assert_eq(channel(&out, 0, 0, 0), 13);
	cr_assert_eq(channel(&out, 0, 1, 0), 3);
	image_free(&out);

	/* Turned by 270, the right column, top down, is the top row. */
	job.hflip = false;
	job.rotation = 270;
	model_run(&job, &out);
	cr_assert_eq(channel(&out, 0, 0, 0), 3);
	cr_assert_eq(channel(&out, 0, 1, 0), 13);
	image_free(&out);
	job_free(&job);
}

/* Red along a row of 4: 0 40 80 120, scaled across. */
static void expect_scaled_row(enum hqv_scaler scaler, uint32_t dw,
			      uint32_t compose_width, const unsigned int *row)
{
	struct hqv_job job;
	struct hqv_image out;

	job_init(&job, "XRGB32", 4, 2, "XRGB32", dw, 2);
	for (uint32_t i = 0; i < 8; i++)
		job.src.planes[0][4 * i + 1] = 40 * (i % 4);
	job.scaler = scaler;
	job.compose = (struct hqv_rect){ 0, 0, compose_width, 2 };
	model_run(&job, &out);
	for (uint32_t x = 0; x < compose_width; x++)
		cr_assert_eq(channel(&out, 0, x, 1), row[x],
			     "scaler %d to %u: pixel %u is %u, expected %u",
			     scaler, compose_width, x, channel(&out, 0, x, 1),
			     row[x]);
	image_free(&out);
	job_free(&job);
}

/*
 * Doubling: nearest takes floor((d + 0.5) / 2); bilinear interpolates at
 * u = (d + 0.5) / 2 - 0.5 clamped (0, 0.25, 0.75, ... 3); area replicates.
 * Shrinking 4 to 3, area weighs [0, 4/3) etc.: (40/3) / (4/3) = 10,
 * (2/3 40 + 2/3 80) / (4/3) = 60, (1/3 80 + 120) / (4/3) = 110.
 */
Test(model, scalers_sample_where_the_spec_says)
{
	expect_scaled_row(HQV_SCALER_NEAREST, 8, 8, (const unsigned int[]){
		0, 0, 40, 40, 80, 80, 120, 120 });
	expect_scaled_row(HQV_SCALER_BILINEAR, 8, 8, (const unsigned int[]){
		0, 10, 30, 50, 70, 90, 110, 120 });
	expect_scaled_row(HQV_SCALER_AREA, 8, 8, (const unsigned int[]){
		0, 0, 40, 40, 80, 80, 120, 120 });
	expect_scaled_row(HQV_SCALER_AREA, 2, 2, (const unsigned int[]){
		20, 100 });
	expect_scaled_row(HQV_SCALER_AREA, 4, 3, (const unsigned int[]){
		10, 60, 110 });
	expect_scaled_row(HQV_SCALER_BILINEAR, 4, 3, (const unsigned int[]){
		/* u = 1/6, 3/2, 17/6: 6.67, 60, 113.3 */
		7, 60, 113 });
	expect_scaled_row(HQV_SCALER_NEAREST, 4, 3, (const unsigned int[]){
		/* floor(2/3, 2, 10/3) */
		0, 80, 120 });
}

/* A YUV444M pixel (y0, 192, 128) through the proc-amp: Cb = 64 / 255 from
 * neutral in full range. */
static void expect_procamp(struct hqv_procamp pa, enum hqv_quantization quant,
			   uint8_t y0, unsigned int y, unsigned int cb,
			   unsigned int cr, const char *what)
{
	struct hqv_job job;
	struct hqv_image out;

	job_init(&job, "YUV444M", 2, 2, "YUV444M", 2, 2);
	image_set_colour(&job.src, HQV_ENC_BT601, quant);
	image_set_colour(&job.dst, HQV_ENC_BT601, quant);
	fill_pixels(&job.src, y0, 192, 128, 0);
	job.procamp = pa;
	model_run(&job, &out);
	expect_pixel(&out, 0, 0, y, cb, cr, what);
	image_free(&out);
	job_free(&job);
}

Test(model, procamp_offsets_and_scales_luma_and_scales_and_turns_chroma)
{
	const enum hqv_quantization full = HQV_QUANT_FULL;

	/* 128 + 255 / 4 = 191.75 */
	expect_procamp((struct hqv_procamp){ .brightness = 64 }, full, 128,
		       192, 192, 128, "brightness 64");
	/* Limited: 100 + 219 * 108 / 256 = 192.39 (a divisor of 255 would
	 * give 192.75) */
	expect_procamp((struct hqv_procamp){ .brightness = 108 },
		       HQV_QUANT_LIMITED, 100, 192, 192, 128,
		       "brightness 108, limited");
	/* g = 1.5 on Y and C */
	expect_procamp((struct hqv_procamp){ .contrast = 64 }, full, 128,
		       192, 224, 128, "contrast 64");
	/* s = 0.5 on C only */
	expect_procamp((struct hqv_procamp){ .saturation = -64 }, full, 128,
		       128, 160, 128, "saturation -64");
	/* a quarter turn counter-clockwise: (Cb, Cr) = (-Cr, Cb) */
	expect_procamp((struct hqv_procamp){ .hue = 90 }, full, 128, 128,
		       128, 192, "hue 90");
	expect_procamp((struct hqv_procamp){ .hue = 180 }, full, 128, 128,
		       64, 128, "hue 180");
}

/*
 * A 2x2 source composed at the left of a 4x2 destination: the two right
 * columns are the background, BT.601 limited red (81, 90, 240) whatever the
 * proc-amp, with the job's alpha.
 */
Test(model, background_is_converted_without_procamp_with_the_job_alpha)
{
	struct hqv_job job;
	struct hqv_image out;

	job_init(&job, "YUV444M", 2, 2, "YUV444M", 4, 2);
	job.compose = (struct hqv_rect){ 0, 0, 2, 2 };
	job.background = 0xff0000;
	job.procamp.brightness = 100;
	job.procamp.hue = 45;
	model_run(&job, &out);
	expect_pixel(&out, 3, 1, 81, 90, 240, "background");
	image_free(&out);
	job_free(&job);

	job_init(&job, "XRGB32", 2, 2, "ARGB32", 4, 2);
	job.compose = (struct hqv_rect){ 0, 0, 2, 2 };
	job.background = 0x102030;
	job.alpha = 0x40;
	model_run(&job, &out);
	expect_pixel(&out, 2, 0, 0x10, 0x20, 0x30, "background");
	cr_assert_eq(channel(&out, 3, 2, 0), 0x40, "background alpha");
	image_free(&out);
	job_free(&job);
}

/* A GREY column of 4 frame rows through step 0, both columns alike. */
static void expect_deinterlaced(enum hqv_field field, const uint8_t *rows,
				enum hqv_deinterlace mode,
				const struct hqv_image *prev,
				const unsigned int expected[4],
				const char *what)
{
	struct hqv_job job;
	struct hqv_image out;
	uint32_t lines = field == HQV_FIELD_ALTERNATE_TOP ||
			 field == HQV_FIELD_ALTERNATE_BOTTOM ? 2 : 4;

	job_init(&job, "GREY", 2, 4, "GREY", 2, 4);
	job.src.field = field;
	for (uint32_t y = 0; y < lines; y++)
		memset(job.src.planes[0] + 2 * y, rows[y], 2);
	job.deinterlace = mode;
	job.prev = prev;
	model_run(&job, &out);
	for (uint32_t y = 0; y < 4; y++)
		cr_assert_eq(out.planes[0][2 * y + 1], expected[y],
			     "%s: row %u is %u, expected %u", what, y,
			     out.planes[0][2 * y + 1], expected[y]);
	image_free(&out);
	job_free(&job);
}

/*
 * Frame rows 10 100 30 200, top field first: bob keeps rows 0 and 2 and
 * averages the others' neighbours (row 3 has only row 2); blend filters
 * every row [1 2 1] / 4, mirrored at the ends: (100 + 20 + 100) / 4 = 55,
 * (10 + 200 + 30) / 4 = 60, (100 + 60 + 200) / 4 = 90,
 * (30 + 400 + 30) / 4 = 115; motion-adaptive against a previous frame
 * 10 95 30 150 keeps row 1 (5 away) and bobs row 3 (50 away).
 */
Test(model, deinterlacing_weaves_bobs_blends_and_adapts_as_specified)
{
	static const uint8_t frame[4] = { 10, 100, 30, 200 };
	static const uint8_t sequential[4] = { 10, 30, 100, 200 };
	struct hqv_image prev, other_field;

	expect_deinterlaced(HQV_FIELD_INTERLACED_TB, frame,
			    HQV_DEINTERLACE_WEAVE, NULL,
			    (const unsigned int[]){ 10, 100, 30, 200 },
			    "weave");
	expect_deinterlaced(HQV_FIELD_SEQ_TB, sequential,
			    HQV_DEINTERLACE_WEAVE, NULL,
			    (const unsigned int[]){ 10, 100, 30, 200 },
			    "weave, sequential");
	expect_deinterlaced(HQV_FIELD_INTERLACED_TB, frame, HQV_DEINTERLACE_BOB,
			    NULL, (const unsigned int[]){ 10, 20, 30, 30 },
			    "bob");
	expect_deinterlaced(HQV_FIELD_INTERLACED_BT, frame, HQV_DEINTERLACE_BOB,
			    NULL, (const unsigned int[]){ 100, 100, 150, 200 },
			    "bob, bottom first");
	expect_deinterlaced(HQV_FIELD_INTERLACED_TB, frame,
			    HQV_DEINTERLACE_BLEND, NULL,
			    (const unsigned int[]){ 55, 60, 90, 115 }, "blend");

	image_alloc(&prev, "GREY", 2, 4, 0);
	prev.field = HQV_FIELD_INTERLACED_TB;
	memcpy(prev.planes[0], (const uint8_t[]){ 10, 10, 95, 95, 30, 30,
						  150, 150 }, 8);
	expect_deinterlaced(HQV_FIELD_INTERLACED_TB, frame,
			    HQV_DEINTERLACE_MOTION_ADAPTIVE, &prev,
			    (const unsigned int[]){ 10, 100, 30, 30 },
			    "motion-adaptive");
	expect_deinterlaced(HQV_FIELD_INTERLACED_TB, frame,
			    HQV_DEINTERLACE_MOTION_ADAPTIVE, NULL,
			    (const unsigned int[]){ 10, 20, 30, 30 },
			    "motion-adaptive without a previous frame");
	image_free(&prev);

	/* The top field 10 30; the previous buffer held the bottom one. */
	image_alloc(&other_field, "GREY", 2, 4, 0);
	other_field.field = HQV_FIELD_ALTERNATE_BOTTOM;
	memcpy(other_field.planes[0], (const uint8_t[]){ 100, 100, 200, 200 },
	       4);
	expect_deinterlaced(HQV_FIELD_ALTERNATE_TOP, sequential,
			    HQV_DEINTERLACE_WEAVE, &other_field,
			    (const unsigned int[]){ 10, 100, 30, 200 },
			    "weave, alternate");
	expect_deinterlaced(HQV_FIELD_ALTERNATE_TOP, sequential,
			    HQV_DEINTERLACE_WEAVE, NULL,
			    (const unsigned int[]){ 10, 20, 30, 30 },
			    "weave, alternate, no previous field");
	/* Rows 1 and 3 are 80 and 170 away from their bob values. */
	expect_deinterlaced(HQV_FIELD_ALTERNATE_TOP, sequential,
			    HQV_DEINTERLACE_MOTION_ADAPTIVE, &other_field,
			    (const unsigned int[]){ 10, 20, 30, 30 },
			    "motion-adaptive, alternate");
	image_free(&other_field);
}
