// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Format and colour conversion, without geometry: the engine against the
 * reference model, within 1 code value (docs/engine.md), on random bytes
 * and on structured pictures (ramps, hard edges, bars of extreme values).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "frames.h"

#define W 64
#define H 48

/* Conversion alone: one rounding away from the model. */
#define TOLERANCE 1

static void job_alloc_sized(struct hqv_job *job, const char *src,
			    uint32_t src_pad, const char *dst,
			    uint32_t dst_pad, uint32_t w, uint32_t h)
{
	memset(job, 0, sizeof(*job));
	image_alloc(&job->src, src, w, h, src_pad);
	image_alloc(&job->dst, dst, w, h, dst_pad);
}

static void job_alloc(struct hqv_job *job, const char *src, uint32_t src_pad,
		      const char *dst, uint32_t dst_pad)
{
	job_alloc_sized(job, src, src_pad, dst, dst_pad, W, H);
}

/* The job on every test picture; seed tells random pictures apart. */
static void check_every_picture(struct verdict *v, struct hqv_job *job,
				int tolerance, uint32_t seed, const char *what)
{
	for (unsigned int p = 0; p < NUM_PATTERNS; p++) {
		image_fill(&job->src, p, seed);
		check_matches_reference(v, job, tolerance, "%s%s%s to %s, %s",
					what, *what ? " " : "",
					job->src.fmt->name, job->dst.fmt->name,
					pattern_names[p]);
	}
}

static void check_conversion(struct verdict *v, const char *src,
			     uint32_t src_pad, const char *dst,
			     uint32_t dst_pad, uint32_t seed)
{
	struct hqv_job job;

	job_alloc(&job, src, src_pad, dst, dst_pad);
	check_every_picture(v, &job, TOLERANCE, seed, "");
	job_free(&job);
}

static bool is_yuv(const char *name)
{
	return format_by_name(name)->is_yuv;
}

Test(convert, every_format_to_xrgb32_matches_reference)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int f = 0; f < NUM_FORMATS; f++)
		check_conversion(&v, format_names[f], 0, "XRGB32", 0, 1);
	expect_no_failure(&v);
}

Test(convert, xrgb32_to_every_format_matches_reference)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int f = 0; f < NUM_FORMATS; f++)
		check_conversion(&v, "XRGB32", 0, format_names[f], 0, 2);
	expect_no_failure(&v);
}

Test(convert, yuv444m_to_every_ycbcr_format_matches_reference)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int f = 0; f < NUM_FORMATS; f++)
		if (is_yuv(format_names[f]))
			check_conversion(&v, "YUV444M", 0, format_names[f],
					 0, 3);
	expect_no_failure(&v);
}

Test(convert, nv24_to_every_ycbcr_format_matches_reference)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int f = 0; f < NUM_FORMATS; f++)
		if (is_yuv(format_names[f]))
			check_conversion(&v, "NV24", 0, format_names[f], 0, 4);
	expect_no_failure(&v);
}

/* Subsampled formats to themselves are not copies: docs/engine.md
 * up-samples by interpolation, then down-samples by averaging. */
Test(convert, every_format_to_itself_matches_reference)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int f = 0; f < NUM_FORMATS; f++)
		check_conversion(&v, format_names[f], 0, format_names[f], 0, 5);
	expect_no_failure(&v);
}

Test(convert, nv12_to_xrgb32_bt709_full_matches_reference)
{
	struct verdict v = VERDICT_INIT;
	struct hqv_job job;

	job_alloc(&job, "NV12", 0, "XRGB32", 0);
	image_set_colour(&job.src, HQV_ENC_BT709, HQV_QUANT_FULL);
	image_set_colour(&job.dst, HQV_ENC_BT709, HQV_QUANT_FULL);
	check_every_picture(&v, &job, TOLERANCE, 6, "BT.709 full");
	job_free(&job);
	expect_no_failure(&v);
}

/*
 * Lines longer than their samples, by odd amounts where the layout allows
 * it (where planes share a buffer, hqv_format_layout() rounds the pitch up
 * so that chroma lines stay whole); multi-planar formats get a different
 * pitch per plane buffer.
 */
Test(convert, every_format_with_padded_lines_matches_reference)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int f = 0; f < NUM_FORMATS; f++) {
		check_conversion(&v, format_names[f], 3, "ARGB32", 5, 7);
		check_conversion(&v, "BGR24", 1, format_names[f], 7, 8);
	}
	expect_no_failure(&v);
}

Test(convert, line_padding_is_never_written)
{
	for (unsigned int f = 0; f < NUM_FORMATS; f++) {
		struct hqv_job job;

		job_alloc(&job, "NV12", 0, format_names[f], 9);
		image_fill(&job.src, PATTERN_RANDOM, 9);
		image_fill_byte(&job.dst, 0xa5);
		engine_run(&job, BAND_ROWS);
		expect_padding_is(&job.dst, 0xa5, "NV12 to padded lines");
		job_free(&job);
	}
}

/*
 * Odd sizes (docs/engine.md, Formats): chroma planes round up, the last
 * chroma column and row sit on the last luma ones, and averaging down
 * clamps the column or row after the last to it. Both odd, each alone,
 * and the one-pixel lines and columns where a chroma sample has a single
 * luma sample.
 */
static const uint32_t odd_sizes[][2] = {
	{ 45, 27 }, { 45, 28 }, { 46, 27 }, { 1, 1 }, { 3, 1 }, { 1, 3 },
	{ 2, 1 }, { 1, 2 },
};

static void check_odd_conversion(struct verdict *v, const char *src,
				 uint32_t src_pad, const char *dst,
				 uint32_t dst_pad, uint32_t w, uint32_t h,
				 uint32_t seed)
{
	struct hqv_job job;
	char what[32];

	snprintf(what, sizeof(what), "%ux%u", w, h);
	job_alloc_sized(&job, src, src_pad, dst, dst_pad, w, h);
	check_every_picture(v, &job, TOLERANCE, seed, what);
	job_free(&job);
}

Test(odd_sizes, every_format_to_and_from_xrgb32_matches_reference)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int i = 0; i < ARRAY_SIZE(odd_sizes); i++) {
		for (unsigned int f = 0; f < NUM_FORMATS; f++) {
			check_odd_conversion(&v, format_names[f], 0, "XRGB32",
					     0, odd_sizes[i][0],
					     odd_sizes[i][1], 12);
			check_odd_conversion(&v, "XRGB32", 0, format_names[f],
					     0, odd_sizes[i][0],
					     odd_sizes[i][1], 13);
		}
	}
	expect_no_failure(&v);
}

/* Every pair of formats, both odd, and the chroma copies among them. */
Test(odd_sizes, every_format_to_every_format_matches_reference)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int f = 0; f < NUM_FORMATS; f++)
		for (unsigned int g = 0; g < NUM_FORMATS; g++)
			check_odd_conversion(&v, format_names[f], 0,
					     format_names[g], 0, 45, 27, 14);
	expect_no_failure(&v);
}

/* Padded lines at odd sizes: the rounded-up pitch and more. */
Test(odd_sizes, padded_lines_match_reference_and_padding_is_never_written)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int f = 0; f < NUM_FORMATS; f++) {
		struct hqv_job job;

		check_odd_conversion(&v, format_names[f], 3, "ARGB32", 5, 45,
				     27, 15);
		check_odd_conversion(&v, "BGR24", 1, format_names[f], 7, 45,
				     27, 16);
		job_alloc_sized(&job, "NV12", 0, format_names[f], 9, 45, 27);
		image_fill(&job.src, PATTERN_RANDOM, 17);
		image_fill_byte(&job.dst, 0xa5);
		engine_run(&job, BAND_ROWS);
		expect_padding_is(&job.dst, 0xa5, "NV12 45x27 to padded lines");
		job_free(&job);
	}
	expect_no_failure(&v);
}

/* One memory plane per colour plane changes where planes are, not what
 * they hold. */
Test(convert, multi_planar_formats_hold_what_their_one_buffer_twins_hold)
{
	static const char *const twins[][2] = {
		{ "NV12M", "NV12" }, { "NV21M", "NV21" },
		{ "YUV420M", "YUV420" }, { "YVU420M", "YVU420" },
	};

	for (unsigned int i = 0; i < sizeof(twins) / sizeof(twins[0]); i++) {
		struct hqv_job apart, together;

		job_alloc(&apart, "XRGB32", 0, twins[i][0], 3);
		job_alloc(&together, "XRGB32", 0, twins[i][1], 0);
		image_fill(&apart.src, PATTERN_RANDOM, 10);
		memcpy(together.src.planes[0], apart.src.planes[0],
		       apart.src.plane_size[0]);
		engine_run(&apart, BAND_ROWS);
		engine_run(&together, BAND_ROWS);
		expect_same_samples(&apart.dst, &together.dst, "%s and %s",
				    twins[i][0], twins[i][1]);
		job_free(&apart);
		job_free(&together);
	}
	for (unsigned int i = 0; i < sizeof(twins) / sizeof(twins[0]); i++) {
		struct hqv_job apart, together;

		job_alloc(&apart, twins[i][0], 5, "XRGB32", 0);
		job_alloc(&together, twins[i][1], 0, "XRGB32", 0);
		image_fill(&together.src, PATTERN_RANDOM, 11);
		for (unsigned int p = 0; p < apart.src.fmt->num_planes; p++) {
			struct ref_plane from, to;

			ref_plane(&together.src, together.src.planes, p, &from);
			ref_plane(&apart.src, apart.src.planes, p, &to);
			for (uint32_t y = 0; y < from.lines; y++)
				memcpy(to.base + (size_t)y * to.pitch,
				       from.base + (size_t)y * from.pitch,
				       from.line_bytes);
		}
		engine_run(&apart, BAND_ROWS);
		engine_run(&together, BAND_ROWS);
		expect_same_samples(&apart.dst, &together.dst, "from %s and %s",
				    twins[i][0], twins[i][1]);
		job_free(&apart);
		job_free(&together);
	}
}

/* Colour: every encoding and range, both ways and across */

static const char *const encoding_names[] = { "BT.601", "BT.709", "BT.2020" };
static const char *const quant_names[] = { "limited", "full" };

/* Colour space i of 6: encoding i / 2, quantization i % 2. */
#define ENC(i) ((enum hqv_encoding)((i) / 2))
#define QUANT(i) ((enum hqv_quantization)((i) % 2))

Test(colour, ycbcr_to_rgb_in_every_encoding_and_range_matches_reference)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int i = 0; i < 6; i++) {
		for (unsigned int q = 0; q < 2; q++) {
			struct hqv_job job;
			char what[64];

			job_alloc(&job, "YUV444M", 0, q ? "XRGB32" : "RGB24",
				  0);
			image_set_colour(&job.src, ENC(i), QUANT(i));
			image_set_colour(&job.dst, HQV_ENC_BT601, QUANT(q));
			snprintf(what, sizeof(what), "%s %s to %s R'G'B':",
				 encoding_names[i / 2], quant_names[i % 2],
				 quant_names[q]);
			check_every_picture(&v, &job, TOLERANCE, 20, what);
			job_free(&job);
		}
	}
	expect_no_failure(&v);
}

Test(colour, rgb_to_ycbcr_in_every_encoding_and_range_matches_reference)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int i = 0; i < 6; i++) {
		for (unsigned int q = 0; q < 2; q++) {
			struct hqv_job job;
			char what[64];

			job_alloc(&job, q ? "XRGB32" : "RGB24", 0, "YUV444M",
				  0);
			/* Only the destination's encoding counts. */
			image_set_colour(&job.src, HQV_ENC_BT2020, QUANT(q));
			image_set_colour(&job.dst, ENC(i), QUANT(i));
			snprintf(what, sizeof(what), "%s R'G'B' to %s %s:",
				 quant_names[q], encoding_names[i / 2],
				 quant_names[i % 2]);
			check_every_picture(&v, &job, TOLERANCE, 21, what);
			job_free(&job);
		}
	}
	expect_no_failure(&v);
}

Test(colour, ycbcr_across_encodings_and_ranges_matches_reference)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int i = 0; i < 6; i++) {
		for (unsigned int o = 0; o < 6; o++) {
			struct hqv_job job;
			char what[64];

			job_alloc(&job, "YUV444M", 0, "YUV444M", 0);
			image_set_colour(&job.src, ENC(i), QUANT(i));
			image_set_colour(&job.dst, ENC(o), QUANT(o));
			snprintf(what, sizeof(what), "%s %s to %s %s:",
				 encoding_names[i / 2], quant_names[i % 2],
				 encoding_names[o / 2], quant_names[o % 2]);
			check_every_picture(&v, &job, TOLERANCE, 22, what);
			job_free(&job);
		}
	}
	expect_no_failure(&v);
}

Test(colour, rgb_to_rgb_across_ranges_matches_reference)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int i = 0; i < 4; i++) {
		struct hqv_job job;
		char what[64];

		job_alloc(&job, "XRGB32", 0, "BGR24", 0);
		image_set_colour(&job.src, HQV_ENC_BT709, QUANT(i / 2));
		image_set_colour(&job.dst, HQV_ENC_BT2020, QUANT(i));
		snprintf(what, sizeof(what), "%s to %s R'G'B':",
			 quant_names[i / 2], quant_names[i % 2]);
		check_every_picture(&v, &job, TOLERANCE, 23, what);
		job_free(&job);
	}
	expect_no_failure(&v);
}

/*
 * R'G'B' through full-range YUV444M and back: 8-bit Y'CbCr holds R'G'B'
 * to about 1 code value (each of Y', Cb, Cr rounded by up to 1/2, weighed
 * by at most 2 (1 - Kb) < 1.9 in the return matrix), so at most 2 per
 * channel.
 */
Test(colour, rgb_through_full_range_yuv444m_and_back_loses_at_most_2)
{
	for (unsigned int e = 0; e < 3; e++) {
		struct hqv_job there, back;
		struct ref_plane in, out;
		int worst = 0;

		job_alloc(&there, "XRGB32", 0, "YUV444M", 0);
		image_set_colour(&there.dst, (enum hqv_encoding)e,
				 HQV_QUANT_FULL);
		image_fill(&there.src, PATTERN_RANDOM, 24 + e);
		engine_run(&there, BAND_ROWS);
		job_alloc(&back, "YUV444M", 0, "XRGB32", 0);
		image_set_colour(&back.src, (enum hqv_encoding)e,
				 HQV_QUANT_FULL);
		for (unsigned int p = 0; p < 3; p++)
			memcpy(back.src.planes[p], there.dst.planes[p],
			       there.dst.plane_size[p]);
		engine_run(&back, BAND_ROWS);

		ref_plane(&there.src, there.src.planes, 0, &in);
		ref_plane(&back.dst, back.dst.planes, 0, &out);
		for (uint32_t y = 0; y < H; y++) {
			const uint8_t *a = in.base + (size_t)y * in.pitch;
			const uint8_t *b = out.base + (size_t)y * out.pitch;

			/* XRGB32: R, G, B are bytes 1 to 3 of each 4. */
			for (uint32_t i = 0; i < 4 * W; i++) {
				int d = abs(a[i] - b[i]);

				if (i % 4 == 0)
					continue;
				cr_assert_leq(d, 2, "%s: pixel (%u, %u) byte "
					      "%u: %u came back as %u",
					      encoding_names[e], i / 4, y,
					      i % 4, a[i], b[i]);
				worst = d > worst ? d : worst;
			}
		}
		cr_log_info("%s: R'G'B' came back within %d",
			    encoding_names[e], worst);
		job_free(&there);
		job_free(&back);
	}
}

/* Proc-amp */

Test(procamp, every_control_matches_reference)
{
	static const struct {
		struct hqv_procamp procamp;
		const char *what;
	} settings[] = {
		{ { .brightness = 40 }, "brightness 40" },
		{ { .brightness = -128 }, "brightness -128" },
		{ { .contrast = 127 }, "contrast 127" },
		{ { .contrast = -100 }, "contrast -100" },
		{ { .saturation = 127 }, "saturation 127" },
		{ { .saturation = -128 }, "saturation -128" },
		{ { .hue = 30 }, "hue 30" },
		{ { .hue = -90 }, "hue -90" },
		{ { .hue = 180 }, "hue 180" },
		{ { -20, 30, -40, 135 }, "all four" },
		{ { 127, 127, 127, -180 }, "all at their limits" },
	};
	static const char *const pairs[][2] = {
		{ "NV12", "XRGB32" },	/* Y'CbCr to R'G'B' */
		{ "XRGB32", "BGR24" },	/* R'G'B' to R'G'B', via Y'CbCr */
		{ "BGRA32", "YUYV" },	/* R'G'B' to Y'CbCr */
		{ "YUV444M", "NV16" },	/* across encodings */
	};
	struct verdict v = VERDICT_INIT;

	for (unsigned int s = 0; s < sizeof(settings) / sizeof(settings[0]);
	     s++) {
		for (unsigned int i = 0; i < sizeof(pairs) / sizeof(pairs[0]);
		     i++) {
			struct hqv_job job;

			job_alloc(&job, pairs[i][0], 0, pairs[i][1], 0);
			if (i == 3) {
				image_set_colour(&job.src, HQV_ENC_BT601,
						 HQV_QUANT_FULL);
				image_set_colour(&job.dst, HQV_ENC_BT709,
						 HQV_QUANT_LIMITED);
			}
			job.procamp = settings[s].procamp;
			check_every_picture(&v, &job, TOLERANCE, 30,
					    settings[s].what);
			job_free(&job);
		}
	}
	expect_no_failure(&v);
}

/* Alpha */

static const char *const alpha_formats[] = {
	"ARGB32", "ABGR32", "RGBA32", "BGRA32",
};

static const char *const x_formats[] = {
	"XRGB32", "XBGR32", "RGBX32", "BGRX32",
};

#define NUM_ALPHA 4

/* Byte b of every pixel of a 4-byte format. */
static void expect_byte_everywhere(const struct hqv_image *img, unsigned int b,
				   const struct hqv_image *like, uint8_t value,
				   const char *what)
{
	for (uint32_t y = 0; y < img->height; y++) {
		for (uint32_t x = 0; x < img->width; x++) {
			uint8_t got = img->planes[0][y * img->bytesperline[0] +
						     4 * x + b];
			uint8_t want = like ? like->planes[0][y *
				like->bytesperline[0] + 4 * x +
				like->fmt->order[3]] : value;

			cr_assert_eq(got, want, "%s: %s pixel (%u, %u) byte "
				     "%u is 0x%02x, expected 0x%02x", what,
				     img->fmt->name, x, y, b, got, want);
		}
	}
}

Test(alpha, source_alpha_reaches_every_alpha_format_unchanged)
{
	for (unsigned int s = 0; s < NUM_ALPHA; s++) {
		for (unsigned int d = 0; d < NUM_ALPHA; d++) {
			struct hqv_job job;

			job_alloc(&job, alpha_formats[s], 0, alpha_formats[d],
				  0);
			job.alpha = 0x5c;
			image_fill(&job.src, PATTERN_RANDOM, 40 + s);
			engine_run(&job, BAND_ROWS);
			expect_byte_everywhere(&job.dst, job.dst.fmt->order[3],
					       &job.src, 0, alpha_formats[s]);
			job_free(&job);
		}
	}
}

Test(alpha, job_alpha_is_written_when_the_source_has_none)
{
	static const char *const sources[] = {
		"NV12", "YUYV", "GREY", "RGB565", "RGB24", "XBGR32",
	};

	for (unsigned int s = 0; s < ARRAY_SIZE(sources); s++) {
		for (unsigned int d = 0; d < NUM_ALPHA; d++) {
			struct hqv_job job;

			job_alloc(&job, sources[s], 0, alpha_formats[d], 0);
			job.alpha = 0x5c;
			image_fill(&job.src, PATTERN_RANDOM, 41);
			engine_run(&job, BAND_ROWS);
			expect_byte_everywhere(&job.dst, job.dst.fmt->order[3],
					       NULL, 0x5c, sources[s]);
			job_free(&job);
		}
	}
}

/* The byte no channel names. */
static unsigned int x_byte(const struct hqv_format *f)
{
	return 6 - f->order[0] - f->order[1] - f->order[2];
}

Test(alpha, x_bytes_are_written_0xff)
{
	static const char *const sources[] = { "NV12", "ARGB32" };

	for (unsigned int s = 0; s < 2; s++) {
		for (unsigned int d = 0; d < NUM_ALPHA; d++) {
			struct hqv_job job;

			job_alloc(&job, sources[s], 0, x_formats[d], 0);
			job.alpha = 0x5c;
			image_fill(&job.src, PATTERN_RANDOM, 42);
			image_fill_byte(&job.dst, 0);
			engine_run(&job, BAND_ROWS);
			expect_byte_everywhere(&job.dst, x_byte(job.dst.fmt),
					       NULL, 0xff, sources[s]);
			job_free(&job);
		}
	}
}
