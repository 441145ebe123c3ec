// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A libFuzzer target for the HQV engine: each input describes one job
 * (formats, sizes, pitches, plane lengths, rectangles, orientation, scaler,
 * proc-amp, colorimetry, fields, deinterlacing, a previous frame), often
 * invalid on purpose. hqv_job_prepare() must refuse what it cannot do;
 * what it accepts must then run, in bands, without touching a byte outside
 * the planes and the scratch memory it asked for. Every plane is its own
 * heap buffer of exactly the length the job declares, so AddressSanitizer
 * sees any access past one; UndefinedBehaviorSanitizer watches the
 * arithmetic.
 *
 * The input is read front to back, one choice at a time; a byte of 0 (or
 * the end of the input) always picks the plainest valid choice, so the
 * empty input is a valid job (YUYV 2x2 to YUYV 2x2).
 *
 * Debugging: FUZZ_ENGINE_DUMP=1 prints each job and what prepare said,
 * FUZZ_ENGINE_STATS=1 prints at exit how many jobs were valid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hqv.h"

/*
 * Prepared jobs whose rows would take more work than this (samples fetched
 * and written, roughly: see run_work()) are not run. Some valid jobs on
 * small buffers take seconds under the sanitizers: a 2x8190 destination
 * from a 8190x2 source fetches an 8190-pixel row for each of its rows; an
 * 8192x30 source turned 90 degrees and area-scaled to 8192x30 scales 8192
 * rows to 8192 pixels each. libFuzzer would spend its time on them. This
 * still runs 8192-pixel lines and 8192-line images a few pixels across.
 */
#define MAX_RUN_WORK	(1u << 19)

/*
 * Plane lengths above this are replaced by short ones, so that a job
 * asking for a huge image is still tried (and refused) quickly.
 */
#define MAX_PLANE_BYTES	(1u << 20)

struct input {
	const uint8_t *data;
	size_t size;
};

static uint8_t take_u8(struct input *in)
{
	if (!in->size)
		return 0;
	in->size--;
	return *in->data++;
}

static uint16_t take_u16(struct input *in)
{
	return take_u8(in) | (uint16_t)take_u8(in) << 8;
}

static uint32_t take_u32(struct input *in)
{
	return take_u16(in) | (uint32_t)take_u16(in) << 16;
}

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* One of values[], by the next byte. */
#define take_from(in, v)	((v)[take_u8(in) % ARRAY_SIZE(v)])

static unsigned int num_formats;

/* A format of the table, or now and then none. */
static const struct hqv_format *pick_format(struct input *in)
{
	uint8_t v = take_u8(in);

	return v == 255 ? NULL : hqv_format_at(v % num_formats);
}

/*
 * Mostly small sizes, even (bytes below 48, as the seeds were written)
 * or odd; sometimes zero or outside the range.
 */
static uint32_t pick_size(struct input *in)
{
	static const uint32_t unusual[] = {
		0, 1, 3, 63, HQV_MAX_WIDTH - 2, HQV_MAX_WIDTH - 1,
		HQV_MAX_WIDTH, HQV_MAX_WIDTH + 1, HQV_MAX_WIDTH + 2, 65536,
		INT32_MAX, UINT32_MAX - 1, UINT32_MAX,
	};
	uint8_t v = take_u8(in);

	if (v < 48)
		return 2 + 2 * v;
	if (v < 224)
		return 1 + 2 * ((v - 48) % 48);
	return take_from(in, unusual);
}

/* A valid value of an enumeration of n values mostly, else anything. */
static uint32_t pick_enum(struct input *in, uint32_t n)
{
	uint8_t v = take_u8(in);

	return v < 248 ? v % n : take_u32(in);
}

/* Which lines a field-based buffer holds; progressive half the time. */
static enum hqv_field pick_field(struct input *in)
{
	uint8_t v = take_u8(in);

	if (v < 128)
		return HQV_FIELD_NONE;
	if (v < 248)
		return v % (HQV_FIELD_ALTERNATE_BOTTOM + 1);
	return take_u32(in);
}

static bool is_alternate(enum hqv_field f)
{
	return f == HQV_FIELD_ALTERNATE_TOP || f == HQV_FIELD_ALTERNATE_BOTTOM;
}

/*
 * Lines and shortest line of plane p, chroma rounded up, whatever the
 * size (in 64 bits, as the sizes may be far out of range).
 */
static uint64_t div_up(uint64_t n, uint64_t d)
{
	return (n + d - 1) / d;
}

static uint64_t plane_lines(const struct hqv_image *img, unsigned int p)
{
	uint64_t lines = p ? div_up(img->height, img->fmt->vsub) :
			 img->height;

	return is_alternate(img->field) ? lines / 2 : lines;
}

static uint64_t plane_min_pitch(const struct hqv_image *img, unsigned int p)
{
	const struct hqv_format *fmt = img->fmt;
	uint64_t chroma = div_up(img->width, fmt->hsub);
	uint64_t groups = p ? chroma :
			  fmt->family == HQV_FAMILY_PACKED_YUV ?
			  chroma * fmt->hsub : img->width;

	return groups * fmt->bytes_per_group[p];
}

/*
 * Line pitches: V4L2's layout mostly (hqv_format_layout(), which keeps
 * the planes of one buffer in proportion), else padded, random, below the
 * minimum or absurd, plane by plane.
 */
static void pick_pitches(struct input *in, struct hqv_image *img)
{
	static const uint32_t absurd[] = {
		0, 1, HQV_MAX_BYTESPERLINE, HQV_MAX_BYTESPERLINE + 1,
		INT32_MAX, UINT32_MAX,
	};
	uint32_t size[HQV_MAX_PLANES];
	uint8_t mode = take_u8(in) % 8;
	unsigned int p;

	if (!img->fmt)
		return;
	for (p = 0; p < HQV_MAX_PLANES; p++)
		img->bytesperline[p] = p < img->fmt->num_planes ?
				       plane_min_pitch(img, p) : 0;
	if (mode < 4 && img->width >= HQV_MIN_WIDTH &&
	    img->width <= HQV_MAX_WIDTH && img->height >= HQV_MIN_HEIGHT &&
	    img->height <= HQV_MAX_HEIGHT) {
		img->bytesperline[0] += mode == 0 ? 0 : take_u8(in);
		hqv_format_layout(img->fmt, img->width, img->height,
				  img->bytesperline, size);
		return;
	}
	for (p = 0; p < HQV_MAX_PLANES; p++) {
		switch (mode) {
		case 4:
			img->bytesperline[p] += take_u8(in);
			break;
		case 5:
			img->bytesperline[p] = take_u16(in);
			break;
		case 6:
			img->bytesperline[p] -= 1 + take_u8(in) % 4;
			break;
		default:
			img->bytesperline[p] = take_from(in, absurd);
			break;
		}
	}
}

static uint32_t next_random(uint32_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}

/*
 * Plane buffers, one heap block each: mostly exactly as long as the engine
 * needs (the last line without its padding) or as V4L2 would make them,
 * sometimes short, empty or missing. Filled with noise from seed (zeros
 * when it is 0).
 */
static void pick_planes(struct input *in, struct hqv_image *img,
			uint32_t seed)
{
	unsigned int p;
	size_t i;

	for (p = 0; img->fmt && p < img->fmt->num_planes; p++) {
		uint64_t lines = plane_lines(img, p);
		uint64_t tight = lines ? img->bytesperline[p] * (lines - 1) +
					 plane_min_pitch(img, p) : 0;
		uint64_t len;
		uint8_t mode = take_u8(in) % 16;

		if (mode < 8)
			len = tight;
		else if (mode < 12)
			len = img->bytesperline[p] * lines;
		else if (mode == 12)
			len = tight - (tight ? 1 + take_u8(in) % tight : 0);
		else if (mode == 13)
			len = 0;
		else if (mode == 14)
			continue;	/* no plane */
		else
			len = take_u16(in);
		if (len > MAX_PLANE_BYTES)
			len = take_u16(in);

		img->plane_size[p] = len;
		img->planes[p] = malloc(len ? len : 1);
		if (!img->planes[p])
			abort();
		if (!seed)
			memset(img->planes[p], 0, len);
		for (i = 0; seed && i < len; i++)
			img->planes[p][i] = next_random(&seed) >> 24;
	}
}

static void free_planes(struct hqv_image *img)
{
	unsigned int p;

	for (p = 0; p < HQV_MAX_PLANES; p++)
		free(img->planes[p]);
}

/* Everything of an image but its buffers and field. */
static void pick_image(struct input *in, struct hqv_image *img)
{
	img->fmt = pick_format(in);
	img->width = pick_size(in);
	img->height = pick_size(in);
	img->encoding = pick_enum(in, HQV_ENC_BT2020 + 1);
	img->quantization = pick_enum(in, HQV_QUANT_FULL + 1);
}

/* The whole image mostly, else inside it, anywhere, or just outside. */
static void pick_rect(struct input *in, struct hqv_rect *r,
		      const struct hqv_image *img)
{
	uint8_t mode = take_u8(in) % 8;

	memset(r, 0, sizeof(*r));
	if (mode < 3 || !img->width || !img->height)
		return;
	if (mode < 6) {
		r->width = 1 + take_u16(in) % img->width;
		r->height = 1 + take_u16(in) % img->height;
		r->left = take_u16(in) % (img->width - r->width + 1);
		r->top = take_u16(in) % (img->height - r->height + 1);
	} else if (mode == 6) {
		r->left = take_u16(in);
		r->top = take_u16(in);
		r->width = take_u16(in);
		r->height = take_u16(in);
	} else {
		/* One past an edge, or wrapping around it. */
		r->width = img->width;
		r->height = img->height;
		switch (take_u8(in) % 4) {
		case 0:
			r->left = 1;
			break;
		case 1:
			r->height++;
			break;
		case 2:
			r->left = UINT32_MAX - r->width + 2;
			break;
		default:
			r->width = 0;	/* only partly the whole image */
			break;
		}
	}
}

static void pick_procamp(struct input *in, struct hqv_procamp *pa)
{
	static const int32_t edges[] = {
		-129, -128, 127, 128, -181, -180, 180, 181, INT32_MIN,
		INT32_MAX,
	};
	uint8_t mode = take_u8(in) % 8;

	memset(pa, 0, sizeof(*pa));
	if (mode < 4)
		return;
	if (mode < 6) {
		pa->brightness = (int8_t)take_u8(in);
		pa->contrast = (int8_t)take_u8(in);
		pa->saturation = (int8_t)take_u8(in);
		pa->hue = take_u16(in) % 361 - 180;
	} else if (mode == 6) {
		pa->brightness = take_u32(in);
		pa->contrast = take_u32(in);
		pa->saturation = take_u32(in);
		pa->hue = take_u32(in);
	} else {
		pa->brightness = take_from(in, edges);
		pa->contrast = take_from(in, edges);
		pa->saturation = take_from(in, edges);
		pa->hue = take_from(in, edges);
	}
}

static uint32_t pick_rotation(struct input *in)
{
	static const uint32_t unusual[] = {
		1, 45, 89, 91, 271, 360, 450, UINT32_MAX - 89, UINT32_MAX,
	};
	uint8_t v = take_u8(in);

	if (v < 240)
		return 90 * (v % 4);
	return take_from(in, unusual);
}

/*
 * The previous frame for deinterlacing: none mostly, else one laid out as
 * the source (with a field of the same kind, usually), or any image at all.
 */
static bool pick_prev(struct input *in, struct hqv_image *prev,
		      const struct hqv_image *src)
{
	uint8_t mode = take_u8(in) % 4;

	if (mode < 2 || !src->fmt)
		return false;
	if (mode == 2) {
		*prev = *src;
		memset(prev->planes, 0, sizeof(prev->planes));
		memset(prev->plane_size, 0, sizeof(prev->plane_size));
		if (take_u8(in) >= 224)
			prev->field = pick_field(in);
		else if (is_alternate(src->field))
			prev->field = HQV_FIELD_ALTERNATE_TOP + take_u8(in) % 2;
		else
			prev->field = take_u8(in) % HQV_FIELD_ALTERNATE_TOP;
	} else {
		pick_image(in, prev);
		prev->field = pick_field(in);
		pick_pitches(in, prev);
	}
	pick_planes(in, prev, take_u32(in));
	return true;
}

static void dump_image(const char *what, const struct hqv_image *img)
{
	unsigned int p;

	fprintf(stderr, "  %s: %s %ux%u enc %d quant %d field %d\n", what,
		img->fmt ? img->fmt->name : "(none)", (unsigned int)img->width,
		(unsigned int)img->height, (int)img->encoding,
		(int)img->quantization, (int)img->field);
	for (p = 0; p < HQV_MAX_PLANES; p++)
		fprintf(stderr, "    plane %u: bytesperline %u, %s%zu bytes\n",
			p, (unsigned int)img->bytesperline[p],
			img->planes[p] ? "" : "no buffer, ",
			img->plane_size[p]);
}

static void dump_rect(const char *what, const struct hqv_rect *r)
{
	fprintf(stderr, "  %s: (%u, %u) %ux%u\n", what, (unsigned int)r->left,
		(unsigned int)r->top, (unsigned int)r->width,
		(unsigned int)r->height);
}

/* Before prepare, which resolves the rectangles: what the caller asked. */
static void dump_job(const struct hqv_job *job)
{
	const struct hqv_procamp *pa = &job->procamp;

	fprintf(stderr, "job:\n");
	dump_image("src", &job->src);
	dump_image("dst", &job->dst);
	if (job->prev)
		dump_image("prev", job->prev);
	dump_rect("crop", &job->crop);
	dump_rect("compose", &job->compose);
	fprintf(stderr, "  rotation %u, hflip %d, vflip %d, scaler %d\n",
		(unsigned int)job->rotation, job->hflip, job->vflip,
		(int)job->scaler);
	fprintf(stderr, "  deinterlace %d\n", (int)job->deinterlace);
	fprintf(stderr, "  procamp %d %d %d %d\n", (int)pa->brightness,
		(int)pa->contrast, (int)pa->saturation, (int)pa->hue);
	fprintf(stderr, "  background %06x, alpha %u\n",
		(unsigned int)job->background, job->alpha);
}

static bool dump_jobs;
static unsigned long jobs_tried, jobs_prepared, jobs_run;

static void print_stats(void)
{
	double total = jobs_tried ? jobs_tried : 1;

	fprintf(stderr, "fuzz-engine: %lu jobs, %lu prepared (%.1f%%), ",
		jobs_tried, jobs_prepared, 100.0 * jobs_prepared / total);
	fprintf(stderr, "%lu run (%.1f%%)\n", jobs_run,
		100.0 * jobs_run / total);
}

/*
 * Every destination row fetches at least one oriented row, and every
 * oriented row may be fetched (the area filter reads them all); each fetched
 * row is scaled across to the destination's width before rows are
 * combined.
 */
static uint64_t run_work(const struct hqv_job *job)
{
	const struct hqv_plan *plan = &job->plan;
	uint64_t rows = job->dst.height > plan->oriented_height ?
			job->dst.height : plan->oriented_height;

	return rows * (plan->oriented_width + job->dst.width) +
	       (uint64_t)job->src.width * job->src.height;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	while (hqv_format_at(num_formats))
		num_formats++;
	dump_jobs = getenv("FUZZ_ENGINE_DUMP");
	if (getenv("FUZZ_ENGINE_STATS"))
		atexit(print_stats);
	return 0;
}

/*
 * The frame in random even bands, then again in one band into a second
 * destination: bands are independent (hqv.h), so both must agree.
 */
static void run_in_bands(struct input *in, struct hqv_job *job)
{
	uint32_t height = job->dst.height, y0, y1;
	struct hqv_job whole = *job;
	void *scratch = malloc(hqv_job_scratch_size(job));
	unsigned int p;

	if (!scratch)
		abort();
	for (p = 0; p < job->dst.fmt->num_planes; p++) {
		whole.dst.planes[p] = malloc(job->dst.plane_size[p] ?
					     job->dst.plane_size[p] : 1);
		if (!whole.dst.planes[p])
			abort();
		memcpy(whole.dst.planes[p], job->dst.planes[p],
		       job->dst.plane_size[p]);
	}

	for (y0 = 0; y0 < height; y0 = y1) {
		uint8_t v = take_u8(in);

		y1 = v && 2 * v < height - y0 ? y0 + 2 * v : height;
		hqv_job_run(job, scratch, y0, y1);
	}
	hqv_job_run(&whole, scratch, 0, height);

	for (p = 0; p < job->dst.fmt->num_planes; p++) {
		if (memcmp(whole.dst.planes[p], job->dst.planes[p],
			   job->dst.plane_size[p])) {
			fprintf(stderr, "fuzz-engine: plane %u differs %s\n",
				p, "between banded and whole-frame runs");
			abort();
		}
		free(whole.dst.planes[p]);
	}
	free(scratch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	struct hqv_image prev = { 0 };
	struct hqv_job job = { 0 };
	uint32_t flips;
	int ret;

	pick_image(&in, &job.src);
	pick_image(&in, &job.dst);
	job.src.field = pick_field(&in);
	if (take_u8(&in) >= 248)
		job.dst.field = pick_field(&in);	/* never valid */
	pick_pitches(&in, &job.src);
	pick_pitches(&in, &job.dst);
	pick_planes(&in, &job.src, take_u32(&in));
	pick_planes(&in, &job.dst, 0);
	if (pick_prev(&in, &prev, &job.src))
		job.prev = &prev;
	job.deinterlace = pick_enum(&in, HQV_DEINTERLACE_MOTION_ADAPTIVE + 1);
	pick_rect(&in, &job.crop, &job.src);
	pick_rect(&in, &job.compose, &job.dst);
	job.rotation = pick_rotation(&in);
	flips = take_u8(&in);
	job.hflip = flips & 1;
	job.vflip = flips & 2;
	job.scaler = pick_enum(&in, HQV_SCALER_AREA + 1);
	pick_procamp(&in, &job.procamp);
	job.background = take_u32(&in);
	job.alpha = take_u8(&in);

	if (dump_jobs)
		dump_job(&job);
	jobs_tried++;
	ret = hqv_job_prepare(&job);
	if (dump_jobs)
		fprintf(stderr, "  prepare: %d\n", ret);
	if (ret == 0)
		jobs_prepared++;
	if (ret == 0 && run_work(&job) <= MAX_RUN_WORK) {
		jobs_run++;
		run_in_bands(&in, &job);
	}

	free_planes(&prev);
	free_planes(&job.src);
	free_planes(&job.dst);
	return 0;
}
