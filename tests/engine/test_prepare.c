// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * hqv_job_prepare() accepts every valid job and rejects, with -EINVAL,
 * anything that would make hqv_job_run() read or write outside its planes
 * or that the engine cannot do. Rejected jobs are never run. Buffers are
 * exactly the size the layout needs, so a sanitizer would catch a plane
 * read past its end.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "frames.h"

#define W 64
#define H 48
/* Odd sizes: chroma rounds up (docs/engine.md, Formats). */
#define W_ODD 45
#define H_ODD 27

static void check_rejected(struct verdict *v, struct hqv_job *job,
			   const char *what)
{
	int ret = hqv_job_prepare(job);

	verdict_case(v, ret != -EINVAL, "%s: hqv_job_prepare() returned %d, "
		     "expected -EINVAL", what, ret);
}

static void check_accepted(struct verdict *v, struct hqv_job *job,
			   const char *what)
{
	int ret = hqv_job_prepare(job);

	verdict_case(v, ret != 0, "%s: hqv_job_prepare() returned %d", what,
		     ret);
}

/* A valid job, checked as such: NV12 to YUYV, same size. */
static void valid_job(struct hqv_job *job)
{
	memset(job, 0, sizeof(*job));
	image_alloc(&job->src, "NV12", W, H, 0);
	image_alloc(&job->dst, "YUYV", W, H, 0);
	cr_assert_eq(hqv_job_prepare(job), 0, "the unchanged job is valid");
}

/* The image of the job in role 0 (source) or 1 (destination). */
static struct hqv_image *role(struct hqv_job *job, unsigned int r)
{
	return r == 0 ? &job->src : &job->dst;
}

static const char *const role_names[] = { "source", "destination" };

/* A job with fmt as the source (r = 0) or the destination (r = 1) and
 * XRGB32 as the other image, both w x h. */
static void job_sized(struct hqv_job *job, const char *fmt, unsigned int r,
		      uint32_t pad, uint32_t w, uint32_t h)
{
	memset(job, 0, sizeof(*job));
	image_alloc(role(job, r), fmt, w, h, pad);
	image_alloc(role(job, !r), "XRGB32", w, h, 0);
}

static void job_with(struct hqv_job *job, const char *fmt, unsigned int r,
		     uint32_t pad)
{
	job_sized(job, fmt, r, pad, W, H);
}

/* Even, odd, and the one-pixel-wide or -high images chroma rounds up in. */
static const uint32_t sizes[][2] = {
	{ W, H }, { W_ODD, H_ODD }, { 1, 1 }, { 3, 1 }, { 1, 3 },
};

Test(prepare, accepts_exactly_sized_planes_of_every_format_at_any_size)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int f = 0; f < NUM_FORMATS; f++) {
		for (unsigned int r = 0; r < 2; r++) {
			for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
				for (uint32_t pad = 0; pad < 4; pad += 3) {
					struct hqv_job job;
					char what[80];

					job_sized(&job, format_names[f], r, pad,
						  sizes[i][0], sizes[i][1]);
					snprintf(what, sizeof(what), "%s %ux%u "
						 "as the %s, pad %u",
						 format_names[f], sizes[i][0],
						 sizes[i][1], role_names[r],
						 pad);
					check_accepted(&v, &job, what);
					job_free(&job);
				}
			}
		}
	}
	expect_no_failure(&v);
}

/* What a test does to plane p of a valid image to make it invalid. */
typedef void spoil_fn(struct hqv_image *img, unsigned int p);

/* Each plane of every format, as the source and as the destination,
 * spoiled in turn (planes that share a buffer too: each has its pointer,
 * pitch and size in struct hqv_image), at an even and an odd size. */
static void check_every_plane_rejected(spoil_fn *spoil, const char *how)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int f = 0; f < NUM_FORMATS; f++) {
		const struct hqv_format *fmt = format_by_name(format_names[f]);
		unsigned int planes = fmt->num_planes;

		for (unsigned int r = 0; r < 2; r++) {
			for (unsigned int p = 0; p < planes; p++) {
				for (unsigned int i = 0; i < 2; i++) {
					struct hqv_job job;
					uint8_t *kept;
					char what[96];

					job_sized(&job, format_names[f], r, 0,
						  sizes[i][0], sizes[i][1]);
					kept = role(&job, r)->planes[p];
					spoil(role(&job, r), p);
					snprintf(what, sizeof(what), "%s %ux%u "
						 "as the %s, plane %u %s",
						 format_names[f], sizes[i][0],
						 sizes[i][1], role_names[r], p,
						 how);
					check_rejected(&v, &job, what);
					role(&job, r)->planes[p] = kept;
					job_free(&job);
				}
			}
		}
	}
	expect_no_failure(&v);
}

/*
 * One byte short of what the plane needs: its last line's samples, not
 * its whole pitch (which, rounded up where planes share a buffer, may
 * hold a byte more).
 */
static void shorten_plane(struct hqv_image *img, unsigned int p)
{
	const struct hqv_format *f = img->fmt;

	img->plane_size[p] = (size_t)img->bytesperline[p] *
			     (hqv_plane_lines(f, p, img->height) - 1) +
			     hqv_plane_line_bytes(f, p, img->width) - 1;
}

static void remove_plane(struct hqv_image *img, unsigned int p)
{
	img->planes[p] = NULL;
}

/*
 * The plane is still long enough: only the pitch is wrong. A pitch is
 * shortened to one byte below its line's samples: the pitches of planes
 * sharing a buffer are rounded up (451-wide YUV420: 452), which the engine
 * does not ask for.
 */
static void shorten_pitch(struct hqv_image *img, unsigned int p)
{
	img->bytesperline[p] = hqv_plane_line_bytes(img->fmt, p,
						    img->width) - 1;
}

Test(prepare, rejects_a_plane_one_byte_too_small)
{
	check_every_plane_rejected(shorten_plane, "one byte short");
}

Test(prepare, rejects_a_missing_plane)
{
	check_every_plane_rejected(remove_plane, "NULL");
}

Test(prepare, rejects_a_pitch_below_the_minimum)
{
	check_every_plane_rejected(shorten_pitch, "pitch one byte short");
}

Test(prepare, rejects_a_missing_format)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int r = 0; r < 2; r++) {
		struct hqv_job job;

		const struct hqv_format *kept;

		valid_job(&job);
		kept = role(&job, r)->fmt;
		role(&job, r)->fmt = NULL;
		check_rejected(&v, &job, role_names[r]);
		role(&job, r)->fmt = kept;
		job_free(&job);
	}
	expect_no_failure(&v);
}

/*
 * An odd pitch between the samples and V4L2's rounded-up one is enough:
 * the engine asks each plane for its own samples only (docs/engine.md,
 * Planes).
 */
Test(prepare, accepts_the_pitch_of_a_planes_samples_at_odd_sizes)
{
	struct verdict v = VERDICT_INIT;
	struct hqv_job job;

	job_sized(&job, "YUV420", 0, 0, W_ODD, H_ODD);
	cr_assert_eq(job.src.bytesperline[0], W_ODD + 1);
	job.src.bytesperline[0] = W_ODD;
	check_accepted(&v, &job, "YUV420, luma pitch the width");
	job_free(&job);
	expect_no_failure(&v);
}

/* GREY in a buffer big enough for 8193x1: only the size is wrong. */
Test(prepare, rejects_sizes_out_of_range)
{
	static const uint32_t bad[][2] = {
		{ HQV_MAX_WIDTH + 1, 1 }, { 0, 1 }, { 1, 0 },
	};
	struct verdict v = VERDICT_INIT;
	size_t bytes = (HQV_MAX_WIDTH + 2) * 2;
	uint8_t *big = calloc(1, bytes);

	cr_assert_not_null(big);
	for (unsigned int i = 0; i < 3; i++) {
		struct hqv_job job;
		char what[32];

		valid_job(&job);
		image_free(&job.dst);
		job.dst.fmt = format_by_name("GREY");
		job.dst.width = bad[i][0];
		job.dst.height = bad[i][1];
		job.dst.bytesperline[0] = HQV_MAX_WIDTH + 2;
		job.dst.planes[0] = big;
		job.dst.plane_size[0] = bytes;
		snprintf(what, sizeof(what), "%ux%u", bad[i][0], bad[i][1]);
		check_rejected(&v, &job, what);
		job.dst.planes[0] = NULL;
		job_free(&job);
	}
	free(big);
	expect_no_failure(&v);
}

static const struct hqv_rect outside[] = {
	{ 0, 0, W + 2, H },
	{ 0, 0, W, H + 2 },
	{ 2, 0, W, H },
	{ 0, 2, W, H },
	{ W, 0, 2, 2 },
	{ 0, H, 2, 2 },
	/* left + width wraps around in 32 bits */
	{ UINT32_MAX - 1, 0, 4, 2 },
	{ 0, UINT32_MAX - 1, 2, 4 },
};

#define NUM_OUTSIDE (sizeof(outside) / sizeof(outside[0]))

static void check_rects_rejected(bool compose)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int i = 0; i < NUM_OUTSIDE; i++) {
		struct hqv_job job;
		char what[64];

		valid_job(&job);
		if (compose)
			job.compose = outside[i];
		else
			job.crop = outside[i];
		snprintf(what, sizeof(what), "%s %u,%u %ux%u",
			 compose ? "compose" : "crop", outside[i].left,
			 outside[i].top, outside[i].width, outside[i].height);
		check_rejected(&v, &job, what);
		job_free(&job);
	}
	expect_no_failure(&v);
}

Test(prepare, rejects_a_crop_outside_the_source)
{
	check_rects_rejected(false);
}

Test(prepare, rejects_a_compose_outside_the_destination)
{
	check_rects_rejected(true);
}

Test(prepare, accepts_rectangles_that_touch_the_edges)
{
	struct verdict v = VERDICT_INIT;
	struct hqv_job job;

	valid_job(&job);
	job.crop = (struct hqv_rect){ 2, 4, W - 2, H - 4 };
	job.compose = (struct hqv_rect){ W - 2, H - 2, 2, 2 };
	check_accepted(&v, &job, "crop and compose at the bottom right");
	job_free(&job);
	expect_no_failure(&v);
}

Test(prepare, rejects_a_rotation_other_than_quarter_turns)
{
	static const uint32_t bad[] = { 45, 1, 89, 360, 450, UINT32_MAX };
	struct verdict v = VERDICT_INIT;

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct hqv_job job;
		char what[32];

		valid_job(&job);
		job.rotation = bad[i];
		snprintf(what, sizeof(what), "rotation %u", bad[i]);
		check_rejected(&v, &job, what);
		job_free(&job);
	}
	expect_no_failure(&v);
}

Test(prepare, rejects_an_unknown_scaler)
{
	struct verdict v = VERDICT_INIT;
	struct hqv_job job;

	valid_job(&job);
	job.scaler = (enum hqv_scaler)(HQV_SCALER_AREA + 1);
	check_rejected(&v, &job, "the scaler after area");
	job.scaler = (enum hqv_scaler)-1;
	check_rejected(&v, &job, "scaler -1");
	job_free(&job);
	expect_no_failure(&v);
}

Test(prepare, rejects_an_unknown_encoding_or_quantization)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int r = 0; r < 2; r++) {
		struct hqv_job job;
		char what[64];

		valid_job(&job);
		role(&job, r)->encoding =
			(enum hqv_encoding)(HQV_ENC_BT2020 + 1);
		snprintf(what, sizeof(what), "%s encoding after BT.2020",
			 role_names[r]);
		check_rejected(&v, &job, what);
		role(&job, r)->encoding = HQV_ENC_BT709;
		role(&job, r)->quantization =
			(enum hqv_quantization)(HQV_QUANT_FULL + 1);
		snprintf(what, sizeof(what), "%s quantization after full",
			 role_names[r]);
		check_rejected(&v, &job, what);
		job_free(&job);
	}
	expect_no_failure(&v);
}

Test(prepare, rejects_a_procamp_value_out_of_range)
{
	static const struct {
		struct hqv_procamp procamp;
		const char *what;
	} bad[] = {
		{ { .brightness = 128 }, "brightness 128" },
		{ { .brightness = -129 }, "brightness -129" },
		{ { .contrast = 128 }, "contrast 128" },
		{ { .contrast = -129 }, "contrast -129" },
		{ { .saturation = 128 }, "saturation 128" },
		{ { .saturation = -129 }, "saturation -129" },
		{ { .hue = 181 }, "hue 181" },
		{ { .hue = -181 }, "hue -181" },
		{ { .brightness = INT32_MIN }, "brightness INT32_MIN" },
		{ { .hue = INT32_MAX }, "hue INT32_MAX" },
	};
	struct verdict v = VERDICT_INIT;

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct hqv_job job;

		valid_job(&job);
		job.procamp = bad[i].procamp;
		check_rejected(&v, &job, bad[i].what);
		job_free(&job);
	}
	expect_no_failure(&v);
}

Test(prepare, accepts_procamp_values_at_their_limits)
{
	static const struct hqv_procamp limits[] = {
		{ 127, 127, 127, 180 },
		{ -128, -128, -128, -180 },
	};
	struct verdict v = VERDICT_INIT;

	for (unsigned int i = 0; i < 2; i++) {
		struct hqv_job job;

		valid_job(&job);
		job.procamp = limits[i];
		check_accepted(&v, &job, i ? "lower limits" : "upper limits");
		job_free(&job);
	}
	expect_no_failure(&v);
}

/* Each field of a 4:2:0 frame has its own chroma rows, so a field-based
 * 4:2:0 source needs a height that is a multiple of 4. */
Test(prepare, takes_field_based_4_2_0_sources_of_a_height_multiple_of_4)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int f = 0; f < NUM_FORMATS; f++) {
		if (format_by_name(format_names[f])->vsub == 1)
			continue;
		for (unsigned int field = HQV_FIELD_INTERLACED_TB;
		     field <= HQV_FIELD_ALTERNATE_BOTTOM; field++) {
			struct hqv_job job = { 0 };
			char what[64];

			image_alloc_field(&job.src, format_names[f], W, H,
					  (enum hqv_field)field);
			image_alloc(&job.dst, "XRGB32", W, H, 0);
			snprintf(what, sizeof(what), "%s %ux%u, field order %u",
				 format_names[f], W, H, field);
			check_accepted(&v, &job, what);
			job_free(&job);

			image_alloc_field(&job.src, format_names[f], W, H - 2,
					  (enum hqv_field)field);
			image_alloc(&job.dst, "XRGB32", W, H - 2, 0);
			snprintf(what, sizeof(what), "%s %ux%u, field order %u",
				 format_names[f], W, H - 2, field);
			check_rejected(&v, &job, what);
			job_free(&job);
		}
	}
	expect_no_failure(&v);
}

/*
 * The two fields of a frame have as many lines as each other: a
 * field-based source of an odd height is refused, whatever its format,
 * while its width may be odd (docs/engine.md, step 0).
 */
Test(prepare, takes_field_based_sources_of_an_even_height_and_any_width)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int f = 0; f < NUM_FORMATS; f++) {
		for (unsigned int field = HQV_FIELD_INTERLACED_TB;
		     field <= HQV_FIELD_SEQ_BT; field++) {
			struct hqv_job job = { 0 };
			char what[64];

			image_alloc_field(&job.src, format_names[f], W_ODD, H,
					  (enum hqv_field)field);
			image_alloc(&job.dst, "XRGB32", W_ODD, H, 0);
			snprintf(what, sizeof(what), "%s %ux%u, field order %u",
				 format_names[f], W_ODD, H, field);
			check_accepted(&v, &job, what);
			job_free(&job);

			image_alloc_field(&job.src, format_names[f], W, H_ODD,
					  (enum hqv_field)field);
			image_alloc(&job.dst, "XRGB32", W, H_ODD, 0);
			snprintf(what, sizeof(what), "%s %ux%u, field order %u",
				 format_names[f], W, H_ODD, field);
			check_rejected(&v, &job, what);
			job_free(&job);
		}
	}
	expect_no_failure(&v);
}

Test(prepare, rejects_an_unknown_field_order_or_deinterlacing_mode)
{
	struct verdict v = VERDICT_INIT;
	struct hqv_job job;

	job_with(&job, "YUYV", 0, 0);
	job.src.field = (enum hqv_field)(HQV_FIELD_ALTERNATE_BOTTOM + 1);
	check_rejected(&v, &job, "field order after alternate bottom");
	job.src.field = HQV_FIELD_INTERLACED_TB;
	job.deinterlace =
		(enum hqv_deinterlace)(HQV_DEINTERLACE_MOTION_ADAPTIVE + 1);
	check_rejected(&v, &job, "mode after motion-adaptive");
	job_free(&job);
	expect_no_failure(&v);
}

/* An ALTERNATE buffer holds one field: half the lines, exactly. */
Test(prepare, takes_an_alternate_buffer_of_half_the_height)
{
	struct verdict v = VERDICT_INIT;
	struct hqv_job job;

	memset(&job, 0, sizeof(job));
	image_alloc_field(&job.src, "YUYV", W, H, HQV_FIELD_ALTERNATE_TOP);
	image_alloc(&job.dst, "XRGB32", W, H, 0);
	cr_assert_eq(job.src.plane_size[0], W * 2 * H / 2);
	check_accepted(&v, &job, "YUYV, H / 2 lines");
	job.src.plane_size[0]--;
	check_rejected(&v, &job, "YUYV, H / 2 lines but one byte");
	job_free(&job);
	expect_no_failure(&v);
}

/* Motion-adaptive and ALTERNATE weaving read the previous frame as they
 * read the source: it must be laid out alike. */
Test(prepare, rejects_a_previous_frame_unlike_the_source)
{
	static const char *const spoilt[] = {
		"another format", "another width", "a shorter pitch",
		"a plane one byte short", "a missing plane",
		"progressive while the source has fields",
	};
	struct verdict v = VERDICT_INIT;

	for (unsigned int i = 0; i < 6; i++) {
		struct hqv_job job;
		struct hqv_image prev;

		job_with(&job, "YUV422P", 0, 0);
		job.src.field = HQV_FIELD_INTERLACED_TB;
		job.deinterlace = HQV_DEINTERLACE_MOTION_ADAPTIVE;
		image_alloc(&prev, "YUV422P", W, H, 0);
		prev.field = HQV_FIELD_INTERLACED_TB;
		job.prev = &prev;
		check_accepted(&v, &job, "a previous frame like the source");
		switch (i) {
		case 0:
			prev.fmt = format_by_name("NV16");
			break;
		case 1:
			prev.width = W - 2;
			break;
		case 2:
			prev.bytesperline[2]--;
			break;
		case 3:
			prev.plane_size[2]--;
			break;
		case 5:
			prev.field = HQV_FIELD_NONE;
			break;
		default:
			prev.planes[1] = NULL;
			break;
		}
		check_rejected(&v, &job, spoilt[i]);
		if (i == 0)
			prev.fmt = format_by_name("YUV422P");
		if (i == 4)
			prev.planes[1] = prev.planes[0] + prev.plane_size[0];
		image_free(&prev);
		job_free(&job);
	}
	expect_no_failure(&v);
}
