// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Step 0 of docs/engine.md: field-based sources made progressive by weave,
 * bob, blend or motion-adaptive deinterlacing, against the reference model
 * (within 1 code value, 2 when scaling, turning and converting too), and
 * the cases that must come out exactly as they went in.
 */
#include <criterion/criterion.h>
#include <stdio.h>

#include "frames.h"

#define W 64
#define H 48
#define TOLERANCE 1
#define TOLERANCE_SCALE_TURN_CONVERT 2

static const char *const field_names[] = {
	"progressive", "interlaced TB", "interlaced BT", "sequential TB",
	"sequential BT", "alternate top", "alternate bottom",
};

static const char *const mode_names[] = {
	"weave", "bob", "blend", "motion-adaptive",
};

/*
 * A previous frame like img with every byte moved: some by at most 12,
 * some by 13 or more, so that motion-adaptive deinterlacing takes both
 * branches, and right at its threshold of 12.
 */
static void image_alloc_moved(struct hqv_image *prev,
			      const struct hqv_image *img)
{
	static const int moves[] = { 0, 5, -12, 13, -40, 90, 12, -13 };

	image_alloc_like(prev, img);
	for (unsigned int p = 0; p < HQV_MAX_PLANES; p++) {
		for (size_t i = 0; img->planes[p] && i < img->plane_size[p];
		     i++) {
			int v = img->planes[p][i] + moves[(i / 5 + p) % 8];

			prev->planes[p][i] = v < 0 ? 0 : v > 255 ? 255 : v;
		}
	}
}

static const char *const pairs[][2] = {
	{ "YUYV", "XRGB32" },	/* 4:2:2 Y'CbCr, packed */
	{ "NV16", "NV12" },	/* 4:2:2 semi-planar, to 4:2:0 */
	{ "NV12", "YUV420" },	/* 4:2:0: chroma subsampled within each field */
	{ "YUV420", "XRGB32" },
	{ "XRGB32", "YUV444M" },	/* R'G'B': the first channel is red */
	{ "ARGB32", "RGBA32" },	/* alpha too */
	{ "GREY", "GREY" },
};

#define NUM_PAIRS (sizeof(pairs) / sizeof(pairs[0]))

/* The job on every test picture, its previous frame (with_prev) made from
 * each picture anew. */
static void check_fields(struct verdict *v, struct hqv_job *job, bool with_prev,
			 int tolerance, const char *what)
{
	for (unsigned int p = 0; p < NUM_PATTERNS; p++) {
		struct hqv_image prev;

		image_fill(&job->src, p, 100 + p);
		if (with_prev) {
			image_alloc_moved(&prev, &job->src);
			job->prev = &prev;
		}
		check_matches_reference(v, job, tolerance, "%s %s%s%s, %s%s "
					"to %s, %s",
					field_names[job->src.field],
					mode_names[job->deinterlace],
					*what ? " " : "", what,
					job->src.fmt->name,
					with_prev ? " and a previous one" : "",
					job->dst.fmt->name, pattern_names[p]);
		if (with_prev) {
			job->prev = NULL;
			image_free(&prev);
		}
	}
}

Test(deinterlace, every_field_order_and_mode_matches_reference)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int f = HQV_FIELD_INTERLACED_TB; f <= HQV_FIELD_SEQ_BT;
	     f++) {
		for (unsigned int m = 0; m < 5; m++) {
			for (unsigned int i = 0; i < NUM_PAIRS; i++) {
				struct hqv_job job = { 0 };

				image_alloc_field(&job.src, pairs[i][0], W, H,
						  (enum hqv_field)f);
				image_alloc(&job.dst, pairs[i][1], W, H, 0);
				/* The fifth: motion-adaptive, no previous. */
				job.deinterlace = (enum hqv_deinterlace)(m % 4);
				job.alpha = 0x77;
				check_fields(&v, &job, m == 3, TOLERANCE, "");
				job_free(&job);
			}
		}
	}
	expect_no_failure(&v);
}

/* ALTERNATE buffers, each mode with no previous buffer, with the other
 * field's, and with one of the same field (which weave cannot use). */
Test(deinterlace, alternate_fields_match_reference)
{
	static const char *const prev_names[] = {
		"no previous buffer", "previous: the other field",
		"previous: the same field",
	};
	struct verdict v = VERDICT_INIT;

	for (unsigned int f = HQV_FIELD_ALTERNATE_TOP;
	     f <= HQV_FIELD_ALTERNATE_BOTTOM; f++) {
		for (unsigned int m = 0; m < 4; m++) {
			for (unsigned int k = 0; k < 3; k++) {
				for (unsigned int i = 0; i < NUM_PAIRS; i++) {
					struct hqv_job job = { 0 };
					struct hqv_image prev;
					unsigned int pf = k == 1 ?
						HQV_FIELD_ALTERNATE_TOP +
						HQV_FIELD_ALTERNATE_BOTTOM - f :
						f;

					image_alloc_field(&job.src, pairs[i][0],
							  W, H,
							  (enum hqv_field)f);
					image_alloc(&job.dst, pairs[i][1], W, H,
						    0);
					job.deinterlace =
						(enum hqv_deinterlace)m;
					if (k) {
						image_alloc_field(&prev,
							pairs[i][0], W, H,
							(enum hqv_field)pf);
						image_fill(&prev,
							   PATTERN_RANDOM,
							   110 + k);
						job.prev = &prev;
					}
					check_fields(&v, &job, false, TOLERANCE,
						     prev_names[k]);
					if (k)
						image_free(&prev);
					job_free(&job);
				}
			}
		}
	}
	expect_no_failure(&v);
}

/* Runs a job whose destination is the source's format and size. */
static void run_into(struct hqv_job *job, struct hqv_image *src,
		     struct hqv_image *out)
{
	memset(job, 0, sizeof(*job));
	job->src = *src;
	image_alloc(out, src->fmt->name, src->width, src->height, 0);
	image_set_colour(out, src->encoding, src->quantization);
	job->dst = *out;
	engine_run(job, BAND_ROWS);
}

Test(deinterlace, weaving_interlaced_rows_gives_the_frame_back_unchanged)
{
	static const char *const formats[] = { "YUV444M", "ARGB32", "GREY" };

	for (unsigned int i = 0; i < 3; i++) {
		for (unsigned int f = HQV_FIELD_INTERLACED_TB;
		     f <= HQV_FIELD_INTERLACED_BT; f++) {
			struct hqv_image src, out;
			struct hqv_job job;

			image_alloc_field(&src, formats[i], W, H,
					  (enum hqv_field)f);
			image_fill(&src, PATTERN_RANDOM, 120);
			run_into(&job, &src, &out);
			expect_same_samples(&out, &src, "%s %s woven",
					    formats[i], field_names[f]);
			image_free(&src);
			image_free(&out);
		}
	}
}

/* Sequential fields are the interleaved rows, reordered in memory. */
Test(deinterlace, sequential_fields_weave_like_their_interleaved_rows)
{
	for (unsigned int bt = 0; bt < 2; bt++) {
		struct hqv_image seq, interleaved, a, b;
		struct hqv_job job;
		enum hqv_field seq_field = bt ? HQV_FIELD_SEQ_BT :
						HQV_FIELD_SEQ_TB;
		enum hqv_field int_field = bt ? HQV_FIELD_INTERLACED_BT :
						HQV_FIELD_INTERLACED_TB;

		image_alloc_field(&seq, "YUYV", W, H, seq_field);
		image_alloc_field(&interleaved, "YUYV", W, H, int_field);
		image_fill(&seq, PATTERN_RANDOM, 121);
		for (uint32_t y = 0; y < H; y++) {
			/* The field first in time is first in memory. */
			bool first = y % 2 == bt;
			uint32_t m = (first ? 0 : H / 2) + y / 2;

			memcpy(interleaved.planes[0] +
			       (size_t)y * interleaved.bytesperline[0],
			       seq.planes[0] + (size_t)m * seq.bytesperline[0],
			       W * 2);
		}
		run_into(&job, &seq, &a);
		run_into(&job, &interleaved, &b);
		expect_same_samples(&a, &b, "%s and %s", field_names[seq_field],
				    field_names[int_field]);
		image_free(&seq);
		image_free(&interleaved);
		image_free(&a);
		image_free(&b);
	}
}

/* Step 0 is for field-based sources: a progressive one goes through
 * untouched whatever the mode. */
Test(deinterlace, progressive_sources_are_not_deinterlaced)
{
	struct hqv_image src, woven;
	struct hqv_job job;

	image_alloc(&src, "YUYV", W, H, 0);
	image_fill(&src, PATTERN_RANDOM, 122);
	run_into(&job, &src, &woven);
	for (unsigned int m = 1; m < 4; m++) {
		struct hqv_image out;

		memset(&job, 0, sizeof(job));
		job.src = src;
		job.deinterlace = (enum hqv_deinterlace)m;
		job.prev = &src;
		image_alloc(&out, "YUYV", W, H, 0);
		job.dst = out;
		engine_run(&job, BAND_ROWS);
		expect_same_samples(&out, &woven, "progressive, %s",
				    mode_names[m]);
		image_free(&out);
	}
	image_free(&src);
	image_free(&woven);
}

Test(deinterlace, cropped_turned_and_scaled_matches_reference_within_2)
{
	struct verdict v = VERDICT_INIT;

	for (unsigned int m = 0; m < 4; m++) {
		struct hqv_job job = { 0 };

		image_alloc_field(&job.src, "UYVY", W, H, HQV_FIELD_SEQ_BT);
		image_alloc(&job.dst, "NV12", 50, 36, 0);
		image_set_colour(&job.src, HQV_ENC_BT709, HQV_QUANT_LIMITED);
		image_set_colour(&job.dst, HQV_ENC_BT601, HQV_QUANT_FULL);
		job.crop = (struct hqv_rect){ 4, 3, 50, 41 };
		job.compose = (struct hqv_rect){ 1, 2, 45, 33 };
		job.rotation = 90;
		job.scaler = HQV_SCALER_BILINEAR;
		job.background = 0x204060;
		job.deinterlace = (enum hqv_deinterlace)m;
		check_fields(&v, &job, m == HQV_DEINTERLACE_MOTION_ADAPTIVE,
			     TOLERANCE_SCALE_TURN_CONVERT,
			     "cropped, turned, scaled");
		job_free(&job);
	}
	expect_no_failure(&v);
}
