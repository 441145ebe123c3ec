// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * engine-bench: how long the HQV engine takes to produce one 1920x1080
 * frame, beside libyuv doing the same operation (and memcpy, the floor of
 * any frame-sized copy), timed in the same run on the same core.
 *
 * Each operation is set up so that both sides read and write the same
 * memory layout: the reference writes into a second destination laid out
 * like the engine's, and the last column is the largest byte difference
 * between the two outputs, so a mismatched byte order or rotation shows
 * up at once. Colours are BT.601 limited range for Y'CbCr and full range
 * for R'G'B', which is what libyuv's unsuffixed functions use.
 *
 * Figures are for reading, not asserted: they depend on the machine, the
 * build type and what else runs.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libyuv/convert.h>
#include <libyuv/convert_argb.h>
#include <libyuv/cpu_id.h>
#include <libyuv/planar_functions.h>
#include <libyuv/rotate.h>
#include <libyuv/scale.h>
#include <libyuv/version.h>

#include "hqv.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define WIDTH	1920
#define HEIGHT	1080
#define BENCH_CPU	0

/*
 * Each time is the median of RUNS runs; the frames in a run are chosen
 * so that it lasts about RUN_SECONDS, keeping the whole program well under
 * 30 s.
 */
#define RUNS		15
#define RUN_SECONDS	0.1

/* Where the engine's and the reference's figures come from. */
struct bench {
	struct hqv_job job;
	void *scratch;
	struct hqv_image ref;	/* the reference's output */
};

typedef void reference_fn(const struct hqv_image *src, struct hqv_image *dst);

struct operation {
	/* Printed as a heading above the row when not NULL. */
	const char *section;
	const char *name;
	const char *reference;	/* what the reference column runs */
	uint32_t src_fourcc, dst_fourcc;
	uint32_t dst_width, dst_height;
	uint32_t rotation;
	enum hqv_scaler scaler;
	enum hqv_field field;
	enum hqv_deinterlace deinterlace;
	reference_fn *run_reference;
};

static void *xaligned_alloc(size_t size)
{
	/*
	 * Cache-line aligned, as video buffers are, so SIMD code gets its
	 * fast paths.
	 */
	void *p = aligned_alloc(64, (size + 63) & ~(size_t)63);

	if (!p) {
		perror("engine-bench");
		exit(1);
	}
	return p;
}

/* A V4L2-style image: all planes in one buffer, minimum line pitch. */
static void image_alloc(struct hqv_image *img, uint32_t fourcc,
			uint32_t width, uint32_t height)
{
	const struct hqv_format *fmt = hqv_format_find(fourcc);
	uint32_t total = hqv_image_init(img, fmt, width, height, 0, NULL, 0);

	hqv_image_init(img, fmt, width, height, 0, xaligned_alloc(total), total);
}

static void image_free(struct hqv_image *img)
{
	free(img->planes[0]);
}

/*
 * Smooth ramps, a different one for each byte of a sample group (R, G, B
 * and X; Cb and Cr; Y and chroma), so that the engine's interpolated
 * chroma and libyuv's replicated chroma stay close and the difference
 * column measures arithmetic rather than filters meeting sharp content.
 */
static void image_fill(struct hqv_image *img)
{
	unsigned int p;

	for (p = 0; p < img->fmt->num_planes; p++) {
		uint32_t group = img->fmt->bytes_per_group[p];
		uint32_t bpl = img->bytesperline[p];
		uint32_t lines = img->plane_size[p] / bpl, x, y;

		for (y = 0; y < lines; y++)
			for (x = 0; x < bpl; x++)
				img->planes[p][(size_t)y * bpl + x] =
					32 + 20 * (x % group) +
					100 * y / lines + 60 * x / bpl;
	}
}

static int image_max_difference(const struct hqv_image *a,
				 const struct hqv_image *b)
{
	int worst = 0;
	unsigned int p;
	size_t i;

	for (p = 0; p < a->fmt->num_planes; p++)
		for (i = 0; i < a->plane_size[p]; i++) {
			int d = abs(a->planes[p][i] - b->planes[p][i]);

			if (d > worst)
				worst = d;
		}
	return worst;
}

static void ref_yuy2_to_nv12(const struct hqv_image *s, struct hqv_image *d)
{
	YUY2ToNV12(s->planes[0], s->bytesperline[0], d->planes[0],
		   d->bytesperline[0], d->planes[1], d->bytesperline[1],
		   s->width, s->height);
}

static void ref_nv12_to_argb(const struct hqv_image *s, struct hqv_image *d)
{
	NV12ToARGB(s->planes[0], s->bytesperline[0], s->planes[1],
		   s->bytesperline[1], d->planes[0], d->bytesperline[0],
		   s->width, s->height);
}

static void ref_argb_to_i420(const struct hqv_image *s, struct hqv_image *d)
{
	ARGBToI420(s->planes[0], s->bytesperline[0], d->planes[0],
		   d->bytesperline[0], d->planes[1], d->bytesperline[1],
		   d->planes[2], d->bytesperline[2], s->width, s->height);
}

static void ref_rotate_plane(const struct hqv_image *s, struct hqv_image *d)
{
	RotatePlane(s->planes[0], s->bytesperline[0], d->planes[0],
		    d->bytesperline[0], s->width, s->height, kRotate90);
}

static void ref_nv12_to_i420_rotate(const struct hqv_image *s,
				    struct hqv_image *d)
{
	NV12ToI420Rotate(s->planes[0], s->bytesperline[0], s->planes[1],
			 s->bytesperline[1], d->planes[0], d->bytesperline[0],
			 d->planes[1], d->bytesperline[1], d->planes[2],
			 d->bytesperline[2], s->width, s->height, kRotate90);
}

static void ref_i420_scale(const struct hqv_image *s, struct hqv_image *d)
{
	I420Scale(s->planes[0], s->bytesperline[0], s->planes[1],
		  s->bytesperline[1], s->planes[2], s->bytesperline[2],
		  s->width, s->height, d->planes[0], d->bytesperline[0],
		  d->planes[1], d->bytesperline[1], d->planes[2],
		  d->bytesperline[2], d->width, d->height, kFilterBilinear);
}

static void ref_memcpy(const struct hqv_image *s, struct hqv_image *d)
{
	memcpy(d->planes[0], s->planes[0], s->plane_size[0]);
}

/*
 * Linear blend of an interleaved frame, the plain way: every byte of a
 * packed row is (above + 2 * it + below) / 4, mirrored at the edges.
 * libyuv has no deinterlacer; this loop is what the engine should beat.
 */
static void ref_blend(const struct hqv_image *s, struct hqv_image *d)
{
	uint32_t bytes = s->width * s->fmt->bytes_per_group[0], x, y;
	uint32_t pitch = s->bytesperline[0], h = s->height;

	for (y = 0; y < h; y++) {
		const uint8_t *r = s->planes[0] + (size_t)y * pitch;
		const uint8_t *up = r + (y ? -(ptrdiff_t)pitch : (ptrdiff_t)pitch);
		const uint8_t *down = r + (y + 1 < h ? (ptrdiff_t)pitch :
						       -(ptrdiff_t)pitch);
		uint8_t *o = d->planes[0] + (size_t)y * d->bytesperline[0];

		for (x = 0; x < bytes; x++)
			o[x] = (up[x] + 2 * r[x] + down[x] + 2) >> 2;
	}
}

#define YUYV	HQV_FOURCC('Y', 'U', 'Y', 'V')
#define NV12	HQV_FOURCC('N', 'V', '1', '2')
#define YUV420	HQV_FOURCC('Y', 'U', '1', '2')
#define GREY	HQV_FOURCC('G', 'R', 'E', 'Y')
/* V4L2 XBGR32 'XR24' is B, G, R, X in memory: libyuv's "ARGB". */
#define XBGR32	HQV_FOURCC('X', 'R', '2', '4')

static const struct operation operations[] = {
	{ .name = "YUYV -> NV12", .reference = "YUY2ToNV12",
	  .src_fourcc = YUYV, .dst_fourcc = NV12,
	  .dst_width = WIDTH, .dst_height = HEIGHT,
	  .run_reference = ref_yuy2_to_nv12 },
	{ .name = "NV12 -> XBGR32 'XR24'", .reference = "NV12ToARGB",
	  .src_fourcc = NV12, .dst_fourcc = XBGR32,
	  .dst_width = WIDTH, .dst_height = HEIGHT,
	  .run_reference = ref_nv12_to_argb },
	{ .name = "XBGR32 'XR24' -> YUV420", .reference = "ARGBToI420",
	  .src_fourcc = XBGR32, .dst_fourcc = YUV420,
	  .dst_width = WIDTH, .dst_height = HEIGHT,
	  .run_reference = ref_argb_to_i420 },
	{ .name = "rotate 90, GREY plane", .reference = "RotatePlane",
	  .src_fourcc = GREY, .dst_fourcc = GREY,
	  .dst_width = HEIGHT, .dst_height = WIDTH, .rotation = 90,
	  .run_reference = ref_rotate_plane },
	{ .name = "rotate 90, NV12 -> YUV420", .reference = "NV12ToI420Rotate",
	  .src_fourcc = NV12, .dst_fourcc = YUV420,
	  .dst_width = HEIGHT, .dst_height = WIDTH, .rotation = 90,
	  .run_reference = ref_nv12_to_i420_rotate },
	{ .name = "scale to 1280x720 bilinear, YUV420",
	  .reference = "I420Scale",
	  .src_fourcc = YUV420, .dst_fourcc = YUV420,
	  .dst_width = 1280, .dst_height = 720, .scaler = HQV_SCALER_BILINEAR,
	  .run_reference = ref_i420_scale },
	/* The floor: the engine copying a frame it need not convert. */
	{ .section = "copy: the reference is memcpy, not libyuv",
	  .name = "copy YUYV -> YUYV", .reference = "memcpy",
	  .src_fourcc = YUYV, .dst_fourcc = YUYV,
	  .dst_width = WIDTH, .dst_height = HEIGHT,
	  .run_reference = ref_memcpy },
	{ .section = "deinterlace: the reference is a plain C loop, not libyuv",
	  .name = "deinterlace blend, interlaced YUYV", .reference = "C loop",
	  .src_fourcc = YUYV, .dst_fourcc = YUYV,
	  .dst_width = WIDTH, .dst_height = HEIGHT,
	  .field = HQV_FIELD_INTERLACED_TB,
	  .deinterlace = HQV_DEINTERLACE_BLEND, .run_reference = ref_blend },
};

/*
 * The CPU time of this thread, not the wall clock: time the scheduler
 * gives to other processes (a build, a VM) is not counted.
 */
static double seconds_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

typedef void frame_fn(struct bench *b, const struct operation *op);

static void engine_frame(struct bench *b, const struct operation *op)
{
	(void)op;
	hqv_job_run(&b->job, b->scratch, 0, b->job.dst.height);
}

static void reference_frame(struct bench *b, const struct operation *op)
{
	op->run_reference(&b->job.src, &b->ref);
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Frames per run: two frames warm caches and fault in the destination. */
static unsigned int frames_per_run(frame_fn *frame, struct bench *b,
				   const struct operation *op)
{
	double start, once = 0;
	unsigned int i, frames;

	for (i = 0; i < 2; i++) {
		start = seconds_now();
		frame(b, op);
		once = seconds_now() - start;
	}
	frames = once > 0 ? RUN_SECONDS / once : 1000;
	return frames ? frames : 1;
}

static double run_ms(frame_fn *frame, struct bench *b,
		     const struct operation *op, unsigned int frames)
{
	double start = seconds_now();
	unsigned int i;

	for (i = 0; i < frames; i++)
		frame(b, op);
	return (seconds_now() - start) * 1e3 / frames;
}

/*
 * Milliseconds per frame of the engine and of the reference, each the
 * median of RUNS runs, and their ratio, the median of the ratios of the
 * runs taken in turns: the machine's speed drifts (other VMs on the
 * host), and two neighbouring runs see nearly the same machine.
 */
static void time_both(struct bench *b, const struct operation *op,
		      double *engine_ms, double *reference_ms, double *ratio)
{
	unsigned int e = frames_per_run(engine_frame, b, op);
	unsigned int r = frames_per_run(reference_frame, b, op);
	double ems[RUNS], rms[RUNS], ratios[RUNS];
	unsigned int run;

	for (run = 0; run < RUNS; run++) {
		ems[run] = run_ms(engine_frame, b, op, e);
		rms[run] = run_ms(reference_frame, b, op, r);
		ratios[run] = ems[run] / rms[run];
	}
	qsort(ems, RUNS, sizeof(ems[0]), compare_doubles);
	qsort(rms, RUNS, sizeof(rms[0]), compare_doubles);
	qsort(ratios, RUNS, sizeof(ratios[0]), compare_doubles);
	*engine_ms = ems[RUNS / 2];
	*reference_ms = rms[RUNS / 2];
	*ratio = ratios[RUNS / 2];
}

static void bench_row(const struct operation *op)
{
	struct bench b = { 0 };
	double engine_ms, reference_ms, ratio;
	char label[64];
	int ret;

	image_alloc(&b.job.src, op->src_fourcc, WIDTH, HEIGHT);
	image_alloc(&b.job.dst, op->dst_fourcc, op->dst_width, op->dst_height);
	image_alloc(&b.ref, op->dst_fourcc, op->dst_width, op->dst_height);
	image_fill(&b.job.src);
	b.job.rotation = op->rotation;
	b.job.scaler = op->scaler;
	b.job.src.field = op->field;
	b.job.deinterlace = op->deinterlace;

	ret = hqv_job_prepare(&b.job);
	if (ret) {
		fprintf(stderr, "engine-bench: %s: hqv_job_prepare: %d\n",
			op->name, ret);
		exit(1);
	}
	b.scratch = xaligned_alloc(hqv_job_scratch_size(&b.job));

	time_both(&b, op, &engine_ms, &reference_ms, &ratio);

	snprintf(label, sizeof(label), "%s [%s]", op->name, op->reference);
	printf("%-50s %9.2f %9.2f %13.2f %10d\n", label, engine_ms,
	       reference_ms, ratio,
	       image_max_difference(&b.job.dst, &b.ref));

	free(b.scratch);
	image_free(&b.ref);
	image_free(&b.job.dst);
	image_free(&b.job.src);
}

static void pin_to_cpu(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(BENCH_CPU, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("engine-bench: sched_setaffinity (figures unpinned)");
	else
		printf("one thread, pinned to CPU %d\n", BENCH_CPU);
}

/* With arguments, only the rows whose name contains one of them. */
static bool selected(const struct operation *op, int argc, char **argv)
{
	int a;

	for (a = 1; a < argc; a++)
		if (strstr(op->name, argv[a]))
			return true;
	return argc < 2;
}

int main(int argc, char **argv)
{
	const char *config = BENCH_CONFIG;
	size_t i;

	printf("HQV engine vs libyuv %d (AVX2: %s), %dx%d source, %s\n",
	       LIBYUV_VERSION, TestCpuFlag(kCpuHasAVX2) ? "yes" : "no",
	       WIDTH, HEIGHT, "ms per frame");
	printf("engine build type: %s\n",
	       *config ? config : "none (unoptimised: use RelWithDebInfo)");
	pin_to_cpu();
	printf("times: median of %d runs of about %.2f s of thread CPU time,\n"
	       "engine and reference in turns; ratio: median of the runs' ratios\n",
	       RUNS, RUN_SECONDS);
	printf("Y'CbCr: BT.601 limited range; R'G'B': full range\n");
	printf("XBGR32 'XR24' is B,G,R,X in memory, as libyuv's ARGB\n");
	printf("last column: largest byte difference between the outputs\n\n");

	printf("%-50s %9s %9s %13s %10s\n", "operation [reference]",
	       "engine ms", "libyuv ms", "engine/libyuv", "max diff");
	for (i = 0; i < ARRAY_SIZE(operations); i++) {
		if (!selected(&operations[i], argc, argv))
			continue;
		if (operations[i].section)
			printf("-- %s\n", operations[i].section);
		bench_row(&operations[i]);
	}
	return 0;
}
