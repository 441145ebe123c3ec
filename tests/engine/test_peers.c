// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libyuv as an oracle: where it implements an operation with the same
 * colorimetry, the engine agrees with it within 2 code values on every
 * sample. The pictures are smooth (gentle gradients): the two differ by
 * design in chroma siting and filters (libyuv replicates chroma when it
 * up-samples and averages 2x2 boxes when it down-samples; the engine
 * interpolates and uses co-sited [1 2 1] filters, docs/engine.md), and on
 * smooth pictures those differences stay below a code value. Only this
 * file links libyuv.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include <libyuv.h>

#include "frames.h"

#define W 64
#define H 48

/*
 * Gentle gradients: each sample rises by 1 code value every two sample
 * groups across and every line down, every byte of a group from its own
 * base, so no channel has an edge. Chroma then changes by at most 1 from
 * one chroma sample to the next, so replicating instead of interpolating
 * it moves it by at most 1/2, which the colour matrix (gain up to 2.02)
 * and one rounding on each side keep within 2.
 */
static void fill_smooth(struct hqv_image *img)
{
	uint32_t size[HQV_MAX_PLANES], bpl[HQV_MAX_PLANES] = { 0 };
	unsigned int p;

	hqv_format_layout(img->fmt, img->width, img->height, bpl, size);
	for (p = 0; p < img->fmt->num_planes; p++) {
		uint32_t lines = hqv_plane_lines(img->fmt, p, img->height);
		uint32_t group = img->fmt->bytes_per_group[p], x, y;

		for (y = 0; y < lines; y++)
			for (x = 0; x < bpl[p]; x++)
				img->planes[p][y * img->bytesperline[p] + x] =
					40 + x / (2 * group) + y + 30 * (x % group) +
					20 * p;
	}
}

static struct hqv_job job_sized(const char *from, uint32_t sw, uint32_t sh,
				const char *to, uint32_t dw, uint32_t dh)
{
	struct hqv_job job = { .alpha = 255 };

	image_alloc(&job.src, from, sw, sh, 0);
	image_alloc(&job.dst, to, dw, dh, 0);
	fill_smooth(&job.src);
	return job;
}

static struct hqv_job job_for(const char *from, const char *to, uint32_t dw,
			      uint32_t dh)
{
	return job_sized(from, W, H, to, dw, dh);
}

/* The largest difference between two planes of the same layout. */
static int max_diff(const uint8_t *a, uint32_t a_pitch, const uint8_t *b,
		    uint32_t b_pitch, uint32_t line_bytes, uint32_t lines,
		    uint32_t *at)
{
	int worst = 0;

	for (uint32_t y = 0; y < lines; y++) {
		for (uint32_t x = 0; x < line_bytes; x++) {
			int d = abs(a[y * a_pitch + x] - b[y * b_pitch + x]);

			if (d > worst) {
				worst = d;
				*at = y * line_bytes + x;
			}
		}
	}
	return worst;
}

static void expect_plane_within(const struct hqv_image *img, unsigned int p,
				const uint8_t *peer, uint32_t peer_pitch,
				int tolerance, const char *what)
{
	uint32_t lines = hqv_plane_lines(img->fmt, p, img->height);
	uint32_t line_bytes = hqv_plane_line_bytes(img->fmt, p, img->width);
	uint32_t at = 0;
	int worst;

	worst = max_diff(img->planes[p], img->bytesperline[p], peer, peer_pitch,
			 line_bytes, lines, &at);
	cr_expect_leq(worst, tolerance,
		      "%s: plane %u differs from libyuv by %d at line %u byte %u",
		      what, p, worst, at / line_bytes, at % line_bytes);
}

Test(peers, yuyv_to_argb_bt601_limited_agrees_with_libyuv_yuy2toargb)
{
	struct hqv_job job = job_for("YUYV", "ABGR32", W, H);
	uint8_t *peer = malloc(W * H * 4);

	engine_run(&job, BAND_ROWS);
	cr_assert_eq(YUY2ToARGB(job.src.planes[0], job.src.bytesperline[0],
				peer, W * 4, W, H), 0);
	expect_plane_within(&job.dst, 0, peer, W * 4, 2, "YUY2ToARGB");
	free(peer);
	job_free(&job);
}

Test(peers, nv12_to_argb_bt601_limited_agrees_with_libyuv_nv12toargb)
{
	struct hqv_job job = job_for("NV12", "ABGR32", W, H);
	uint8_t *peer = malloc(W * H * 4);

	engine_run(&job, BAND_ROWS);
	cr_assert_eq(NV12ToARGB(job.src.planes[0], job.src.bytesperline[0],
				job.src.planes[1], job.src.bytesperline[1],
				peer, W * 4, W, H), 0);
	expect_plane_within(&job.dst, 0, peer, W * 4, 2, "NV12ToARGB");
	free(peer);
	job_free(&job);
}

Test(peers, argb_to_yuv420_agrees_with_libyuv_argbtoi420)
{
	struct hqv_job job = job_for("ABGR32", "YUV420", W, H);
	uint8_t *y = malloc(W * H), *u = malloc(W * H / 4), *v = malloc(W * H / 4);

	engine_run(&job, BAND_ROWS);
	cr_assert_eq(ARGBToI420(job.src.planes[0], job.src.bytesperline[0],
				y, W, u, W / 2, v, W / 2, W, H), 0);
	expect_plane_within(&job.dst, 0, y, W, 2, "ARGBToI420 Y");
	expect_plane_within(&job.dst, 1, u, W / 2, 2, "ARGBToI420 U");
	expect_plane_within(&job.dst, 2, v, W / 2, 2, "ARGBToI420 V");
	free(y);
	free(u);
	free(v);
	job_free(&job);
}

static void expect_i420_within(const struct hqv_image *img, const uint8_t *y,
			       const uint8_t *u, const uint8_t *v, int tolerance,
			       const char *what)
{
	uint32_t w = img->width;

	expect_plane_within(img, 0, y, w, tolerance, what);
	expect_plane_within(img, 1, u, (w + 1) / 2, tolerance, what);
	expect_plane_within(img, 2, v, (w + 1) / 2, tolerance, what);
}

Test(peers, yuv420_quarter_turns_agree_with_libyuv_i420rotate)
{
	static const enum RotationMode modes[] = { kRotate90, kRotate180, kRotate270 };
	static const uint32_t degrees[] = { 90, 180, 270 };

	for (unsigned int i = 0; i < ARRAY_SIZE(modes); i++) {
		bool quarter = degrees[i] != 180;
		uint32_t dw = quarter ? H : W, dh = quarter ? W : H;
		struct hqv_job job = job_for("YUV420", "YUV420", dw, dh);
		uint8_t *y = malloc(W * H), *u = malloc(W * H / 4);
		uint8_t *v = malloc(W * H / 4);
		char what[32];

		job.rotation = degrees[i];
		engine_run(&job, BAND_ROWS);
		cr_assert_eq(I420Rotate(job.src.planes[0], job.src.bytesperline[0],
					job.src.planes[1], job.src.bytesperline[1],
					job.src.planes[2], job.src.bytesperline[2],
					y, dw, u, dw / 2, v, dw / 2, W, H, modes[i]), 0);
		snprintf(what, sizeof(what), "I420Rotate %u", degrees[i]);
		expect_i420_within(&job.dst, y, u, v, 2, what);
		free(y);
		free(u);
		free(v);
		job_free(&job);
	}
}

/*
 * Bilinear scaling: libyuv and the engine both sample at pixel centres,
 * but libyuv interpolates 4:2:0 chroma planes directly, at chroma sites,
 * while the engine scales 4:4:4 and averages down again; on these pictures
 * that costs at most 2.
 */
Test(peers, yuv420_bilinear_scaling_agrees_with_libyuv_i420scale)
{
	static const uint32_t sizes[][2] = { { 40, 30 }, { 96, 72 }, { 32, 48 } };

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		uint32_t dw = sizes[i][0], dh = sizes[i][1];
		struct hqv_job job = job_for("YUV420", "YUV420", dw, dh);
		uint8_t *y = malloc(dw * dh), *u = malloc(dw * dh / 4);
		uint8_t *v = malloc(dw * dh / 4);
		char what[32];

		job.scaler = HQV_SCALER_BILINEAR;
		engine_run(&job, BAND_ROWS);
		cr_assert_eq(I420Scale(job.src.planes[0], job.src.bytesperline[0],
				       job.src.planes[1], job.src.bytesperline[1],
				       job.src.planes[2], job.src.bytesperline[2],
				       W, H, y, dw, u, dw / 2, v, dw / 2, dw, dh,
				       kFilterBilinear), 0);
		snprintf(what, sizeof(what), "I420Scale to %ux%u", dw, dh);
		expect_i420_within(&job.dst, y, u, v, 2, what);
		free(y);
		free(u);
		free(v);
		job_free(&job);
	}
}

/*
 * Odd sizes: libyuv rounds chroma planes up as the engine does, siting
 * the last chroma column and row on the last luma ones (its box filter
 * takes a lone last pixel or row, the engine's filters clamp), so on
 * smooth pictures the two agree as closely as at even sizes.
 */
#define OW 45
#define OH 27
#define OCW ((OW + 1) / 2)
#define OCH ((OH + 1) / 2)

Test(peers, odd_sizes_agree_with_libyuv_both_ways_through_4_2_0)
{
	struct hqv_job to_yuv = job_sized("ABGR32", OW, OH, "YUV420", OW, OH);
	struct hqv_job to_rgb = job_sized("NV12", OW, OH, "ABGR32", OW, OH);
	uint8_t *y = malloc(OW * OH), *u = malloc(OCW * OCH);
	uint8_t *v = malloc(OCW * OCH), *argb = malloc(OW * OH * 4);

	engine_run(&to_yuv, BAND_ROWS);
	cr_assert_eq(ARGBToI420(to_yuv.src.planes[0],
				to_yuv.src.bytesperline[0], y, OW, u, OCW, v,
				OCW, OW, OH), 0);
	expect_i420_within(&to_yuv.dst, y, u, v, 2, "ARGBToI420 45x27");

	engine_run(&to_rgb, BAND_ROWS);
	cr_assert_eq(NV12ToARGB(to_rgb.src.planes[0], to_rgb.src.bytesperline[0],
				to_rgb.src.planes[1], to_rgb.src.bytesperline[1],
				argb, OW * 4, OW, OH), 0);
	expect_plane_within(&to_rgb.dst, 0, argb, OW * 4, 2, "NV12ToARGB 45x27");
	free(y);
	free(u);
	free(v);
	free(argb);
	job_free(&to_yuv);
	job_free(&to_rgb);
}

Test(peers, odd_sizes_turn_and_scale_as_libyuv_does)
{
	static const enum RotationMode modes[] = { kRotate90, kRotate180, kRotate270 };
	static const uint32_t degrees[] = { 90, 180, 270 };
	static const uint32_t sizes[][2] = { { 31, 17 }, { 91, 55 } };

	for (unsigned int i = 0; i < ARRAY_SIZE(modes); i++) {
		bool quarter = degrees[i] != 180;
		uint32_t dw = quarter ? OH : OW, dh = quarter ? OW : OH;
		struct hqv_job job = job_sized("YUV420", OW, OH, "YUV420", dw,
					       dh);
		uint32_t dcw = (dw + 1) / 2, dch = (dh + 1) / 2;
		uint8_t *y = malloc(dw * dh), *u = malloc(dcw * dch);
		uint8_t *v = malloc(dcw * dch);
		char what[40];

		job.rotation = degrees[i];
		engine_run(&job, BAND_ROWS);
		cr_assert_eq(I420Rotate(job.src.planes[0], job.src.bytesperline[0],
					job.src.planes[1], job.src.bytesperline[1],
					job.src.planes[2], job.src.bytesperline[2],
					y, dw, u, dcw, v, dcw, OW, OH, modes[i]), 0);
		snprintf(what, sizeof(what), "I420Rotate %u 45x27", degrees[i]);
		expect_i420_within(&job.dst, y, u, v, 2, what);
		free(y);
		free(u);
		free(v);
		job_free(&job);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		uint32_t dw = sizes[i][0], dh = sizes[i][1];
		uint32_t dcw = (dw + 1) / 2, dch = (dh + 1) / 2;
		struct hqv_job job = job_sized("YUV420", OW, OH, "YUV420", dw,
					       dh);
		uint8_t *y = malloc(dw * dh), *u = malloc(dcw * dch);
		uint8_t *v = malloc(dcw * dch);
		char what[40];

		job.scaler = HQV_SCALER_BILINEAR;
		engine_run(&job, BAND_ROWS);
		cr_assert_eq(I420Scale(job.src.planes[0], job.src.bytesperline[0],
				       job.src.planes[1], job.src.bytesperline[1],
				       job.src.planes[2], job.src.bytesperline[2],
				       OW, OH, y, dw, u, dcw, v, dcw, dw, dh,
				       kFilterBilinear), 0);
		snprintf(what, sizeof(what), "I420Scale 45x27 to %ux%u", dw,
			 dh);
		expect_i420_within(&job.dst, y, u, v, 2, what);
		free(y);
		free(u);
		free(v);
		job_free(&job);
	}
}
