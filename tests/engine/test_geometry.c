// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Orientation, scaling, crop and compose, and cutting a frame into bands:
 * the engine against the reference model, and the round trips that must
 * give the input back exactly.
 *
 * Tolerances: docs/engine.md keeps the engine within 1 code value of the
 * model, and within 2 when it scales, turns and converts at once; the tests
 * hold it to exactly that. Scaling without the other two can stay within 1
 * because the two differ by less than one code value before the final
 * rounding (so by at most 1 after it): samples between stages keep 6
 * fractional bits (at most 2^-7 lost per stage, a handful of stages), and
 * positions are exact to 2^-16 of a source pixel per step, so across the at
 * most 128 destination pixels used here a bilinear or area position is off
 * by under 128 * 2^-16 = 1/512 pixel, which moves a sample by under 255/512
 * of a code value even between neighbours 255 apart. Nearest has no such
 * slack: it is exact or a whole pixel off, so floor((d + 0.5) * W / w) must
 * be computed exactly (64 to 96 lands on whole pixels).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "frames.h"

#define TOLERANCE 1
#define TOLERANCE_SCALE_TURN_CONVERT 2

/* A job's geometry. */
struct geometry {
	const char *src;
	const char *dst;
	uint32_t src_width, src_height;
	uint32_t dst_width, dst_height;
	struct hqv_rect crop;
	struct hqv_rect compose;
	uint32_t rotation;
	bool hflip, vflip;
	enum hqv_scaler scaler;
};

static const char *const scaler_names[] = { "nearest", "bilinear", "area" };

static void describe(const struct geometry *g, char *buf, size_t size)
{
	snprintf(buf, size, "%s %ux%u crop %u,%u %ux%u%s%s turned %u to %s "
		 "%ux%u compose %u,%u %ux%u %s", g->src, g->src_width,
		 g->src_height, g->crop.left, g->crop.top, g->crop.width,
		 g->crop.height, g->hflip ? " hflip" : "",
		 g->vflip ? " vflip" : "", g->rotation, g->dst, g->dst_width,
		 g->dst_height, g->compose.left, g->compose.top,
		 g->compose.width, g->compose.height, scaler_names[g->scaler]);
}

static void job_from(struct hqv_job *job, const struct geometry *g)
{
	memset(job, 0, sizeof(*job));
	image_alloc(&job->src, g->src, g->src_width, g->src_height, 0);
	image_alloc(&job->dst, g->dst, g->dst_width, g->dst_height, 0);
	job->crop = g->crop;
	job->compose = g->compose;
	job->rotation = g->rotation;
	job->hflip = g->hflip;
	job->vflip = g->vflip;
	job->scaler = g->scaler;
	job->background = 0x3080c0;
	job->alpha = 0x99;
}

/* The job of a geometry, without colour conversion beyond the formats',
 * on every test picture. */
static void check_geometry(struct verdict *v, const struct geometry *g,
			   int tolerance)
{
	struct hqv_job job;
	char what[200];

	describe(g, what, sizeof(what));
	job_from(&job, g);
	for (unsigned int p = 0; p < NUM_PATTERNS; p++) {
		image_fill(&job.src, p, 50 + p);
		check_matches_reference(v, &job, tolerance, "%s, %s", what,
					pattern_names[p]);
	}
	job_free(&job);
}

/* Orientation */

/* A pair of formats and the crop each turn and flip is checked on. */
struct orientation_case {
	const char *src, *dst;
	struct hqv_rect crop;
};

/*
 * Every turn with every flip of each case, from a width x height source,
 * without scaling: the destination is the crop turned.
 */
static void check_every_turn_and_flip(const struct orientation_case *cases,
				      unsigned int n, uint32_t width,
				      uint32_t height)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int i = 0; i < 16; i++) {
		for (unsigned int c = 0; c < n; c++) {
			struct geometry g = {
				.src = cases[c].src, .dst = cases[c].dst,
				.src_width = width, .src_height = height,
				.crop = cases[c].crop,
				.rotation = 90 * (i / 4),
				.hflip = i & 1, .vflip = i & 2,
			};
			bool turned = g.rotation % 180;

			g.dst_width = turned ? g.crop.height : g.crop.width;
			g.dst_height = turned ? g.crop.width : g.crop.height;
			check_geometry(&v, &g, TOLERANCE);
		}
	}
	expect_no_failure(&v);
}

/* Four pairs of formats. */
Test(orientation, every_turn_and_flip_matches_reference)
{
	static const struct orientation_case cases[] = {
		{ "NV12", "XRGB32", { 0, 0, 64, 48 } },
		{ "YUYV", "UYVY", { 0, 0, 64, 48 } },
		{ "YUV420", "NV16", { 6, 4, 40, 30 } },
		{ "RGB565", "YUV420M", { 2, 10, 36, 22 } },
	};

	check_every_turn_and_flip(cases, ARRAY_SIZE(cases), 64, 48);
}

/*
 * The same at odd sizes: odd sources, odd crops at odd positions, so that
 * every turn and flip moves a lone last chroma column or row to the other
 * edge or to the other axis; 4:2:0 on both sides and luma alone too.
 */
Test(orientation, every_turn_and_flip_of_odd_sizes_matches_reference)
{
	static const struct orientation_case cases[] = {
		{ "NV12", "XRGB32", { 0, 0, 45, 27 } },
		{ "YUYV", "UYVY", { 0, 0, 45, 27 } },
		{ "NV12", "YUV420", { 0, 0, 45, 27 } },
		{ "YUV420", "NV16", { 3, 5, 31, 19 } },
		{ "RGB565", "YUV420M", { 1, 2, 37, 21 } },
		{ "GREY", "GREY", { 0, 0, 45, 27 } },
		{ "XBGR32", "NV21", { 0, 0, 45, 27 } },
	};

	check_every_turn_and_flip(cases, ARRAY_SIZE(cases), 45, 27);
}

/* Runs src through the job, into a new image of the destination format,
 * sized as the job's geometry makes it. */
static void engine_pass(const struct hqv_image *src, struct hqv_image *out,
			uint32_t rotation, bool hflip, bool vflip)
{
	struct hqv_job job = { .rotation = rotation, .hflip = hflip,
			       .vflip = vflip };
	bool turned = rotation % 180;

	job.src = *src;
	image_alloc(out, src->fmt->name, turned ? src->height : src->width,
		    turned ? src->width : src->height, 0);
	image_set_colour(out, src->encoding, src->quantization);
	job.dst = *out;
	engine_run(&job, BAND_ROWS);
}

static const char *const exact_formats[] = { "YUV444M", "ARGB32" };

/* An even size and an odd one. */
static const uint32_t trip_sizes[][2] = { { 64, 48 }, { 45, 27 } };

Test(orientation, four_quarter_turns_give_the_input_back)
{
	for (unsigned int n = 0; n < 4; n++) {
		unsigned int f = n % 2, z = n / 2;
		struct hqv_image img[5];

		image_alloc(&img[0], exact_formats[f], trip_sizes[z][0],
			    trip_sizes[z][1], 0);
		image_fill(&img[0], PATTERN_RANDOM, 60);
		for (unsigned int i = 0; i < 4; i++)
			engine_pass(&img[i], &img[i + 1], 90, false, false);
		expect_same_samples(&img[4], &img[0], "%s %ux%u turned four "
				    "times", exact_formats[f], img[0].width,
				    img[0].height);
		for (unsigned int i = 0; i < 5; i++)
			image_free(&img[i]);
	}
}

Test(orientation, flipping_twice_gives_the_input_back)
{
	for (unsigned int n = 0; n < 4; n++) {
		unsigned int f = n % 2, z = n / 2;

		for (unsigned int flips = 1; flips < 4; flips++) {
			struct hqv_image img[3];

			image_alloc(&img[0], exact_formats[f], trip_sizes[z][0],
				    trip_sizes[z][1], 0);
			image_fill(&img[0], PATTERN_RANDOM, 61);
			for (unsigned int i = 0; i < 2; i++)
				engine_pass(&img[i], &img[i + 1], 0, flips & 1,
					    flips & 2);
			expect_same_samples(&img[2], &img[0], "%s flipped "
					    "twice,%s%s", exact_formats[f],
					    flips & 1 ? " hflip" : "",
					    flips & 2 ? " vflip" : "");
			for (unsigned int i = 0; i < 3; i++)
				image_free(&img[i]);
		}
	}
}

/* Both flips and a half turn move every pixel to the same place. */
Test(orientation, half_turn_equals_both_flips)
{
	static const char *const formats[] = { "NV12", "YUYV", "RGB24" };

	for (unsigned int n = 0; n < 6; n++) {
		unsigned int f = n % 3, z = n / 3;
		struct hqv_image src, turned, flipped;

		image_alloc(&src, formats[f], trip_sizes[z][0],
			    trip_sizes[z][1], 0);
		image_fill(&src, PATTERN_RANDOM, 62);
		engine_pass(&src, &turned, 180, false, false);
		engine_pass(&src, &flipped, 0, true, true);
		expect_same_samples(&turned, &flipped, "%s %ux%u", formats[f],
				    src.width, src.height);
		image_free(&src);
		image_free(&turned);
		image_free(&flipped);
	}
}

/* Scaling */

struct scale_size {
	uint32_t src_width, src_height, dst_width, dst_height;
};

/* Down, up, by non-integer and by more than 2x (area's use), with
 * independent ratios across and down, from and to small sizes. 64 to 96
 * (2/3 of a source pixel per destination pixel) puts nearest's
 * floor((d + 0.5) * W / w) exactly on whole pixels. */
static const struct scale_size scale_sizes[] = {
	{ 64, 48, 32, 24 },
	{ 64, 48, 128, 96 },
	{ 64, 48, 96, 72 },
	{ 64, 48, 40, 80 },
	{ 64, 48, 100, 30 },
	{ 64, 48, 16, 12 },
	{ 64, 48, 12, 10 },
	{ 64, 48, 62, 46 },
	{ 64, 48, 2, 2 },
	{ 30, 20, 64, 48 },
	{ 2, 2, 18, 14 },
	{ 200, 8, 14, 36 },
	/* Odd sizes: lone last chroma samples scaled both ways. */
	{ 45, 27, 31, 17 },
	{ 45, 27, 91, 55 },
	{ 31, 17, 45, 27 },
	{ 45, 27, 64, 13 },
	{ 1, 1, 7, 5 },
	{ 7, 5, 1, 1 },
	{ 3, 1, 5, 3 },
};

static void check_scaler(enum hqv_scaler scaler)
{
	static const char *const pairs[][2] = {
		{ "XRGB32", "XRGB32" },	/* scaling alone */
		{ "NV12", "YUV420" },	/* 4:2:0 on both sides */
		{ "YUYV", "BGRA32" },	/* with a conversion */
	};
	struct verdict v = VERDICT_INIT;

	for (unsigned int i = 0; i < ARRAY_SIZE(scale_sizes); i++) {
		for (unsigned int p = 0; p < 3; p++) {
			const struct scale_size *s = &scale_sizes[i];
			struct geometry g = {
				.src = pairs[p][0], .dst = pairs[p][1],
				.src_width = s->src_width,
				.src_height = s->src_height,
				.dst_width = s->dst_width,
				.dst_height = s->dst_height,
				.scaler = scaler,
			};

			check_geometry(&v, &g, TOLERANCE);
		}
	}
	expect_no_failure(&v);
}

Test(scale, nearest_matches_reference)
{
	check_scaler(HQV_SCALER_NEAREST);
}

Test(scale, bilinear_matches_reference)
{
	check_scaler(HQV_SCALER_BILINEAR);
}

Test(scale, area_matches_reference)
{
	check_scaler(HQV_SCALER_AREA);
}

/* Every scaler with every turn, converting between encodings through the
 * proc-amp: the one case docs/engine.md allows 2. */
Test(scale, with_a_turn_and_a_conversion_matches_reference_within_2)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int i = 0; i < 12; i++) {
		struct geometry g = {
			.src = i % 2 ? "NV12" : "YUYV",
			.dst = i % 2 ? "ARGB32" : "NV21",
			.src_width = 64, .src_height = 48,
			.dst_width = 50, .dst_height = 70,
			.rotation = 90 * (i % 4),
			.hflip = i % 3 == 1,
			.scaler = (enum hqv_scaler)(i / 4),
		};
		struct hqv_job job;
		char what[200];

		describe(&g, what, sizeof(what));
		job_from(&job, &g);
		image_set_colour(&job.src, HQV_ENC_BT709, HQV_QUANT_LIMITED);
		image_set_colour(&job.dst, HQV_ENC_BT601, HQV_QUANT_FULL);
		job.procamp = (struct hqv_procamp){ 10, -20, 30, -40 };
		for (unsigned int p = 0; p < NUM_PATTERNS; p++) {
			image_fill(&job.src, p, 70 + p);
			check_matches_reference(&v, &job,
						TOLERANCE_SCALE_TURN_CONVERT,
						"%s, BT.709 limited to BT.601 "
						"full, proc-amp, %s", what,
						pattern_names[p]);
		}
		job_free(&job);
	}
	expect_no_failure(&v);
}

/* Crop and compose */

/* Crops at even and odd offsets, of even sizes (no scaling) and of odd
 * sizes (scaled to the next even size). */
Test(compose, crop_matches_reference)
{
	static const struct hqv_rect crops[] = {
		{ 8, 6, 48, 36 },
		{ 3, 5, 40, 30 },
		{ 1, 1, 37, 27 },
		{ 0, 0, 2, 2 },
		{ 62, 46, 2, 2 },
	};
	static const char *const pairs[][2] = {
		{ "NV12", "XRGB32" },
		{ "YUYV", "NV12" },
		{ "BGR24", "YUV422P" },
	};
	struct verdict v = VERDICT_INIT;

	for (unsigned int i = 0; i < sizeof(crops) / sizeof(crops[0]); i++) {
		for (unsigned int p = 0; p < 3; p++) {
			const struct hqv_rect *c = &crops[i];
			struct geometry g = {
				.src = pairs[p][0], .dst = pairs[p][1],
				.src_width = 64, .src_height = 48,
				.crop = *c,
				.dst_width = c->width + c->width % 2,
				.dst_height = c->height + c->height % 2,
				.scaler = HQV_SCALER_BILINEAR,
			};

			check_geometry(&v, &g, TOLERANCE);
		}
	}
	expect_no_failure(&v);
}

/*
 * Crops at odd edges, of odd sizes, unscaled: the destination is the crop,
 * so a crop's odd left edge is honoured as it is (a chroma sample of the
 * source is then interpolated between two).
 */
Test(compose, odd_crops_into_odd_destinations_match_reference)
{
	static const struct hqv_rect crops[] = {
		{ 3, 5, 41, 29 },
		{ 1, 0, 63, 48 },
		{ 0, 1, 64, 47 },
		{ 63, 47, 1, 1 },
		{ 7, 9, 3, 1 },
	};
	static const char *const pairs[][2] = {
		{ "NV12", "XRGB32" },
		{ "YUYV", "NV12" },
		{ "YUV420", "YUV420M" },
		{ "BGR24", "YUV422P" },
		{ "GREY", "YUYV" },
	};
	struct verdict v = VERDICT_INIT;

	for (unsigned int i = 0; i < ARRAY_SIZE(crops); i++) {
		for (unsigned int p = 0; p < ARRAY_SIZE(pairs); p++) {
			const struct hqv_rect *c = &crops[i];
			struct geometry g = {
				.src = pairs[p][0], .dst = pairs[p][1],
				.src_width = 64, .src_height = 48,
				.crop = *c,
				.dst_width = c->width,
				.dst_height = c->height,
				.scaler = HQV_SCALER_BILINEAR,
			};

			check_geometry(&v, &g, TOLERANCE);
		}
	}
	expect_no_failure(&v);
}

/* The whole source placed at a rectangle of its size (no scaling), at
 * even and odd positions, the rest the background; then one scaled. */
Test(compose, rectangle_and_background_match_reference)
{
	static const struct hqv_rect rects[] = {
		{ 10, 8, 32, 24 },
		{ 7, 11, 32, 24 },
		{ 32, 24, 32, 24 },
		{ 3, 2, 50, 17 },	/* scaled */
	};
	static const char *const dsts[] = {
		"NV12", "XRGB32", "YUYV", "ARGB32", "GREY", "RGB565",
	};
	struct verdict v = VERDICT_INIT;

	for (unsigned int i = 0; i < sizeof(rects) / sizeof(rects[0]); i++) {
		for (unsigned int d = 0; d < sizeof(dsts) / sizeof(dsts[0]);
		     d++) {
			struct geometry g = {
				.src = "YUV420", .dst = dsts[d],
				.src_width = 32, .src_height = 24,
				.dst_width = 64, .dst_height = 48,
				.compose = rects[i],
				.scaler = HQV_SCALER_AREA,
			};

			check_geometry(&v, &g, TOLERANCE);
		}
	}
	expect_no_failure(&v);
}

/* Odd destinations, rectangles at odd positions and of odd sizes. */
Test(compose, odd_rectangles_in_odd_destinations_match_reference)
{
	static const struct hqv_rect rects[] = {
		{ 7, 5, 31, 19 },
		{ 0, 0, 45, 27 },
		{ 44, 26, 1, 1 },
		{ 1, 1, 43, 25 },	/* scaled */
	};
	static const char *const dsts[] = {
		"NV12", "YUV420", "XRGB32", "YUYV", "NV16", "GREY",
	};
	struct verdict v = VERDICT_INIT;

	for (unsigned int i = 0; i < ARRAY_SIZE(rects); i++) {
		for (unsigned int d = 0; d < ARRAY_SIZE(dsts); d++) {
			struct geometry g = {
				.src = "YUV420", .dst = dsts[d],
				.src_width = 31, .src_height = 19,
				.dst_width = 45, .dst_height = 27,
				.compose = rects[i],
				.scaler = HQV_SCALER_AREA,
			};

			check_geometry(&v, &g, TOLERANCE);
		}
	}
	expect_no_failure(&v);
}

/* Crop, flip, turn, scale, compose and convert in one job. */
Test(compose, everything_at_once_matches_reference_within_2)
{
	struct geometry g = {
		.src = "NV21", .dst = "YUV420M",
		.src_width = 64, .src_height = 48,
		.dst_width = 80, .dst_height = 60,
		.crop = { 5, 3, 41, 29 },
		.compose = { 9, 5, 57, 33 },
		.rotation = 270, .vflip = true,
		.scaler = HQV_SCALER_BILINEAR,
	};
	struct verdict v = VERDICT_INIT;
	struct hqv_job job;
	char what[200];

	describe(&g, what, sizeof(what));
	job_from(&job, &g);
	image_set_colour(&job.src, HQV_ENC_BT2020, HQV_QUANT_FULL);
	image_set_colour(&job.dst, HQV_ENC_BT709, HQV_QUANT_LIMITED);
	job.procamp = (struct hqv_procamp){ -5, 15, -25, 60 };
	for (unsigned int p = 0; p < NUM_PATTERNS; p++) {
		image_fill(&job.src, p, 80 + p);
		check_matches_reference(&v, &job, TOLERANCE_SCALE_TURN_CONVERT,
					"%s, %s", what, pattern_names[p]);
	}
	job_free(&job);
	expect_no_failure(&v);
}

/* Alpha is a channel like the others through turns and scaling; outside
 * the compose rectangle it is the job's. */
Test(compose, alpha_is_scaled_and_the_background_has_the_job_alpha)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int s = 0; s < 3; s++) {
		struct geometry g = {
			.src = "ARGB32", .dst = "RGBA32",
			.src_width = 64, .src_height = 48,
			.dst_width = 64, .dst_height = 48,
			.compose = { 6, 4, 30, 40 },
			.rotation = 90,
			.scaler = (enum hqv_scaler)s,
		};

		check_geometry(&v, &g, TOLERANCE);
	}
	expect_no_failure(&v);
}

/* Bands */

/* A job that exercises every stage that crosses rows: 4:2:0 on both
 * sides, a turn, bilinear scaling, crop and compose; dst_height rows. */
static void banded_job(struct hqv_job *job, uint32_t dst_height)
{
	struct geometry g = {
		.src = "NV12", .dst = "YUV420",
		.src_width = 64, .src_height = 48,
		.dst_width = 64, .dst_height = dst_height,
		.crop = { 4, 2, 56, 42 },
		.compose = { 2, 3, 60, dst_height - 9 },
		.rotation = 90,
		.scaler = HQV_SCALER_BILINEAR,
	};

	job_from(job, &g);
	image_fill(&job->src, PATTERN_RANDOM, 90);
}

/* A job of an odd height whose row pairs take a direct row, and whose
 * last row the pipeline makes. */
static void banded_direct_job(struct hqv_job *job, uint32_t dst_height)
{
	struct geometry g = {
		.src = "YUYV", .dst = "NV12",
		.src_width = 45, .src_height = dst_height,
		.dst_width = 45, .dst_height = dst_height,
	};

	job_from(job, &g);
	image_fill(&job->src, PATTERN_RANDOM, 91);
}

/* Bands run last to first, each with a scratch of its own, so no band
 * can lean on what an earlier one left behind. */
static void run_bands_backwards(struct hqv_job *job, uint32_t rows)
{
	uint32_t first = (job->dst.height - 1) / rows * rows;

	cr_assert_eq(hqv_job_prepare(job), 0);
	for (uint32_t y = first + rows; y > 0; y -= rows) {
		uint32_t y0 = y - rows;
		uint32_t y1 = y < job->dst.height ? y : job->dst.height;
		size_t size = hqv_job_scratch_size(job);
		void *scratch = malloc(size ? size : 1);

		cr_assert_not_null(scratch);
		memset(scratch, 0xee, size);
		hqv_job_run(job, scratch, y0, y1);
		free(scratch);
	}
}

static void check_band_splits(void (*make)(struct hqv_job *, uint32_t),
			      uint32_t height, const char *what)
{
	static const uint32_t band_rows[] = { 2, 4, 6, 14, 30 };
	struct hqv_job whole;

	make(&whole, height);
	engine_run(&whole, whole.dst.height);
	for (unsigned int i = 0; i < ARRAY_SIZE(band_rows); i++) {
		struct hqv_job banded;

		make(&banded, height);
		run_bands_backwards(&banded, band_rows[i]);
		expect_same_samples(&banded.dst, &whole.dst, "%s, %u rows, "
				    "bands of %u rows", what, height,
				    band_rows[i]);
		job_free(&banded);
	}
	job_free(&whole);
}

/* An odd height ends in a band whose last row is alone. */
Test(bands, any_even_band_split_gives_the_same_frame)
{
	check_band_splits(banded_job, 70, "pipeline");
	check_band_splits(banded_job, 69, "pipeline");
	check_band_splits(banded_direct_job, 27, "direct rows");
}

/* The band [y0, y1) writes its luma rows and the chroma rows they
 * round up to, no others. */
static void check_band_rows(uint32_t height, uint32_t y0, uint32_t y1)
{
	struct hqv_job job;
	void *scratch;

	banded_job(&job, height);
	image_fill_byte(&job.dst, 0xa5);
	cr_assert_eq(hqv_job_prepare(&job), 0);
	scratch = malloc(hqv_job_scratch_size(&job) + 1);
	cr_assert_not_null(scratch);
	hqv_job_run(&job, scratch, y0, y1);
	free(scratch);
	for (unsigned int p = 0; p < 3; p++) {
		struct ref_plane pl;
		uint32_t sub = p ? 2 : 1;

		ref_plane(&job.dst, job.dst.planes, p, &pl);
		for (uint32_t y = 0; y < pl.lines; y++) {
			const uint8_t *line = pl.base + (size_t)y * pl.pitch;
			bool inside = y >= y0 / sub &&
				      y < (y1 + sub - 1) / sub;
			bool written = false;

			for (uint32_t x = 0; x < pl.line_bytes; x++)
				written |= line[x] != 0xa5;
			cr_assert_eq(written, inside, "%u rows: plane %u line "
				     "%u %s written by the band of rows "
				     "[%u, %u)", height, p, y,
				     written ? "was" : "was not", y0, y1);
		}
	}
	job_free(&job);
}

Test(bands, a_band_writes_only_its_own_rows)
{
	check_band_rows(70, 14, 28);
	check_band_rows(69, 56, 69);
}

/* The split for threads (engine/hqv.h), from the job's sizes alone. */
Test(split, bands_follow_pixels_and_threads_follow_work)
{
	static const struct {
		const char *what;
		uint32_t sw, sh, dw, dh;
		unsigned int max;
		uint32_t rows, bands;
		unsigned int threads;
	} cases[] = {
		/* 2073600 / 262144: 7 threads' worth, held to max. */
		{ "1080p", 1920, 1080, 1920, 1080, 64, 34, 32, 7 },
		{ "1080p on 2", 1920, 1080, 1920, 1080, 2, 34, 32, 2 },
		{ "a small frame", 160, 120, 160, 120, 64, 408, 1, 1 },
		{ "a downscale follows its source", 1920, 1080, 160, 120, 64,
		  2, 60, 7 },
		{ "fewer bands than threads", 2560, 1440, 160, 4, 3, 2, 2, 2 },
		{ "8K", 8192, 8192, 8192, 8192, 64, 8, 1024, 64 },
		{ "a row over the size", 8192, 8192, 1, 8192, 64, 8, 1024, 64 },
		{ "rows are pairs at least", 8192, 8192, 8192, 2, 64, 2, 1, 1 },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hqv_job job = {
			.src = { .width = cases[i].sw, .height = cases[i].sh },
			.dst = { .width = cases[i].dw, .height = cases[i].dh },
		};
		uint32_t rows = hqv_band_rows(&job);
		uint32_t bands = (cases[i].dh + rows - 1) / rows;
		unsigned int threads = hqv_job_threads(&job, bands,
						       cases[i].max);

		cr_assert_eq(rows, cases[i].rows, "%s: %u rows a band",
			     cases[i].what, rows);
		cr_assert_eq(bands, cases[i].bands, "%s: %u bands",
			     cases[i].what, bands);
		cr_assert_eq(threads, cases[i].threads, "%s: %u threads",
			     cases[i].what, threads);
	}
}

/*
 * A quarter turn's rows are source columns, read a tile of columns at a
 * time, afresh in each band: its bands hold a tile at least (the
 * pipeline's and the direct rows' 16, R'G'B' to GREY's 32), however wide.
 */
Test(split, quarter_turns_bands_hold_a_tile)
{
	static const struct {
		const char *from, *to;
		uint32_t rotation, rows;
	} cases[] = {
		{ "RGB24", "NV12", 0, 8 },
		{ "RGB24", "NV12", 180, 8 },
		{ "RGB24", "NV12", 90, 16 },
		{ "NV12", "NV12", 270, 16 },
		{ "RGB24", "GREY", 90, 32 },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool turned = cases[i].rotation % 180;
		struct hqv_job job = { .rotation = cases[i].rotation };
		uint32_t rows;

		/* Each destination row 8192 pixels: 8 rows in 64K. */
		image_alloc(&job.src, cases[i].from, turned ? 64 : 8192,
			    turned ? 8192 : 64, 0);
		image_alloc(&job.dst, cases[i].to, 8192, 64, 0);
		cr_assert_eq(hqv_job_prepare(&job), 0);
		rows = hqv_band_rows(&job);
		cr_assert_eq(rows, cases[i].rows, "%s to %s turned %u: %u rows",
			     cases[i].from, cases[i].to, cases[i].rotation,
			     rows);
		job_free(&job);
	}
}
