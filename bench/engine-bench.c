// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * engine-bench: how long the HQV engine takes to produce one 1920x1080
 * frame, beside the faster of libyuv and OpenCV (one thread) doing the
 * same operation (memcpy, or a plain C loop, where neither has it), timed
 * in the same run on the same core; and how long the same job takes
 * through libm2m's public API (m2m_convert() on the in-process device)
 * with one thread and with two. A second table sets defaults against
 * defaults, as a user meets them: m2m_convert() on the in-process device
 * opened with no options against OpenCV with its default threads, both
 * in wall-clock time.
 *
 * Each operation is set up so that every side reads and writes the same
 * memory layout: a peer writes into a second destination laid out like
 * the engine's, and the last column is the largest byte difference
 * between the engine's output and the faster peer's, so a mismatched byte
 * order or rotation shows up at once. Colours are BT.601 limited range
 * for Y'CbCr and full range for R'G'B', which is what libyuv's unsuffixed
 * functions use (OpenCV's differ a little: its differences are larger),
 * and full range for GREY, as libyuv's J400 and OpenCV's GRAY.
 *
 * Figures are for reading, not asserted: they depend on the machine, the
 * build type and what else runs.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libyuv/convert.h>
#include <libyuv/convert_argb.h>
#include <libyuv/convert_from_argb.h>
#include <libyuv/cpu_id.h>
#include <libyuv/planar_functions.h>
#include <libyuv/rotate.h>
#include <libyuv/rotate_argb.h>
#include <libyuv/scale.h>
#include <libyuv/scale_rgb.h>
#include <libyuv/version.h>
#include <linux/videodev2.h>
#include <m2m/m2m.h>
#include <m2m/vhqv.h>

#include "hqv.h"
#include "opencv-peer.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define WIDTH	1920
#define HEIGHT	1080
#define BENCH_CPU	0

/*
 * Each time is the median of RUNS runs; the frames in a run are chosen
 * so that it lasts about RUN_SECONDS, keeping the whole program well under
 * 30 s.
 */
#define RUNS		9
#define RUN_SECONDS	0.1
/* Runs of the public API's wall-clock times. */
#define API_RUNS	5

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
	/* The peers: libyuv's (or memcpy, or a C loop), OpenCV's; or NULL. */
	const char *reference;
	reference_fn *run_reference;
	const char *opencv;
	reference_fn *run_opencv;
	uint32_t src_fourcc, dst_fourcc;
	uint32_t dst_width, dst_height;
	uint32_t rotation;
	bool hflip;
	enum hqv_scaler scaler;
	enum hqv_field field;
	enum hqv_deinterlace deinterlace;
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

static void ref_nv12_to_raw(const struct hqv_image *s, struct hqv_image *d)
{
	NV12ToRAW(s->planes[0], s->bytesperline[0], s->planes[1],
		  s->bytesperline[1], d->planes[0], d->bytesperline[0],
		  s->width, s->height);
}

static void ref_raw_to_i420(const struct hqv_image *s, struct hqv_image *d)
{
	RAWToI420(s->planes[0], s->bytesperline[0], d->planes[0],
		  d->bytesperline[0], d->planes[1], d->bytesperline[1],
		  d->planes[2], d->bytesperline[2], s->width, s->height);
}

static void ref_raw_to_j400(const struct hqv_image *s, struct hqv_image *d)
{
	RAWToJ400(s->planes[0], s->bytesperline[0], d->planes[0],
		  d->bytesperline[0], s->width, s->height);
}

static void ref_raw_to_rgb24(const struct hqv_image *s, struct hqv_image *d)
{
	RAWToRGB24(s->planes[0], s->bytesperline[0], d->planes[0],
		   d->bytesperline[0], s->width, s->height);
}

static void ref_raw_mirror(const struct hqv_image *s, struct hqv_image *d)
{
	RGB24Mirror(s->planes[0], s->bytesperline[0], d->planes[0],
		    d->bytesperline[0], s->width, s->height);
}

static void ref_raw_scale(const struct hqv_image *s, struct hqv_image *d,
			  enum FilterMode filter)
{
	RGBScale(s->planes[0], s->bytesperline[0], s->width, s->height,
		 d->planes[0], d->bytesperline[0], d->width, d->height, filter);
}

static void ref_raw_bilinear(const struct hqv_image *s, struct hqv_image *d)
{
	ref_raw_scale(s, d, kFilterBilinear);
}

static void ref_raw_box(const struct hqv_image *s, struct hqv_image *d)
{
	ref_raw_scale(s, d, kFilterBox);
}

static void ref_argb_rotate(const struct hqv_image *s, struct hqv_image *d)
{
	ARGBRotate(s->planes[0], s->bytesperline[0], d->planes[0],
		   d->bytesperline[0], s->width, s->height, kRotate90);
}

static void ref_yuy2_to_argb(const struct hqv_image *s, struct hqv_image *d)
{
	YUY2ToARGB(s->planes[0], s->bytesperline[0], d->planes[0],
		   d->bytesperline[0], s->width, s->height);
}

static void ref_argb_to_nv12(const struct hqv_image *s, struct hqv_image *d)
{
	ARGBToNV12(s->planes[0], s->bytesperline[0], d->planes[0],
		   d->bytesperline[0], d->planes[1], d->bytesperline[1],
		   s->width, s->height);
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
/* V4L2 RGB24 is R, G, B in memory: libyuv's "RAW"; BGR24 its "RGB24". */
#define RGB24	HQV_FOURCC('R', 'G', 'B', '3')
#define BGR24	HQV_FOURCC('B', 'G', 'R', '3')
/* V4L2 XBGR32 'XR24' is B, G, R, X in memory: libyuv's "ARGB". */
#define XBGR32	HQV_FOURCC('X', 'R', '2', '4')

#define FRAME(src, dst)	.src_fourcc = src, .dst_fourcc = dst,		\
			.dst_width = WIDTH, .dst_height = HEIGHT
#define TURNED(src, dst) .src_fourcc = src, .dst_fourcc = dst,		\
			.dst_width = HEIGHT, .dst_height = WIDTH, .rotation = 90
#define LIBYUV(name, fn)	.reference = name, .run_reference = fn
#define OPENCV(name, fn)	.opencv = name, .run_opencv = fn

static const struct operation operations[] = {
	{ .section = "R'G'B' byte orders and flips",
	  .name = "RGB24 -> BGR24", FRAME(RGB24, BGR24),
	  LIBYUV("RAWToRGB24", ref_raw_to_rgb24),
	  OPENCV("cvtColor RGB2BGR", opencv_rgb_to_bgr) },
	{ .name = "hflip RGB24", FRAME(RGB24, RGB24), .hflip = true,
	  LIBYUV("RGB24Mirror", ref_raw_mirror),
	  OPENCV("flip", opencv_hflip_rgb) },
	{ .section = "Y'CbCr <-> R'G'B'",
	  .name = "RGB24 -> YUV420", FRAME(RGB24, YUV420),
	  LIBYUV("RAWToI420", ref_raw_to_i420),
	  OPENCV("cvtColor RGB2YUV_I420", opencv_rgb_to_i420) },
	{ .name = "XBGR32 -> NV12", FRAME(XBGR32, NV12),
	  LIBYUV("ARGBToNV12", ref_argb_to_nv12) },
	{ .name = "NV12 -> RGB24", FRAME(NV12, RGB24),
	  LIBYUV("NV12ToRAW", ref_nv12_to_raw),
	  OPENCV("cvtColor YUV2RGB_NV12", opencv_nv12_to_rgb) },
	{ .name = "YUYV -> RGB24", FRAME(YUYV, RGB24),
	  OPENCV("cvtColor YUV2RGB_YUYV", opencv_yuyv_to_rgb) },
	{ .name = "YUYV -> XBGR32", FRAME(YUYV, XBGR32),
	  LIBYUV("YUY2ToARGB", ref_yuy2_to_argb) },
	{ .name = "NV12 -> XBGR32", FRAME(NV12, XBGR32),
	  LIBYUV("NV12ToARGB", ref_nv12_to_argb),
	  OPENCV("cvtColor YUV2BGRA_NV12", opencv_nv12_to_bgra) },
	{ .name = "XBGR32 -> YUV420", FRAME(XBGR32, YUV420),
	  LIBYUV("ARGBToI420", ref_argb_to_i420),
	  OPENCV("cvtColor BGRA2YUV_I420", opencv_bgra_to_i420) },
	{ .name = "RGB24 -> GREY", FRAME(RGB24, GREY),
	  LIBYUV("RAWToJ400", ref_raw_to_j400),
	  OPENCV("cvtColor RGB2GRAY", opencv_rgb_to_grey) },
	{ .section = "Y'CbCr repacking",
	  .name = "YUYV -> NV12", FRAME(YUYV, NV12),
	  LIBYUV("YUY2ToNV12", ref_yuy2_to_nv12) },
	{ .section = "scaling",
	  .name = "RGB24 bilinear to 1280x720", .src_fourcc = RGB24,
	  .dst_fourcc = RGB24, .dst_width = 1280, .dst_height = 720,
	  .scaler = HQV_SCALER_BILINEAR,
	  LIBYUV("RGBScale bilinear", ref_raw_bilinear),
	  OPENCV("resize INTER_LINEAR", opencv_rgb_bilinear) },
	{ .name = "RGB24 area to 160x120", .src_fourcc = RGB24,
	  .dst_fourcc = RGB24, .dst_width = 160, .dst_height = 120,
	  .scaler = HQV_SCALER_AREA,
	  LIBYUV("RGBScale box", ref_raw_box),
	  OPENCV("resize INTER_AREA", opencv_rgb_area) },
	{ .name = "YUV420 bilinear to 1280x720", .src_fourcc = YUV420,
	  .dst_fourcc = YUV420, .dst_width = 1280, .dst_height = 720,
	  .scaler = HQV_SCALER_BILINEAR,
	  LIBYUV("I420Scale bilinear", ref_i420_scale) },
	{ .section = "rotation",
	  .name = "rotate 90 RGB24", TURNED(RGB24, RGB24),
	  OPENCV("rotate", opencv_rotate_rgb) },
	{ .name = "rotate 90 XBGR32", TURNED(XBGR32, XBGR32),
	  LIBYUV("ARGBRotate", ref_argb_rotate),
	  OPENCV("rotate", opencv_rotate_bgra) },
	{ .name = "rotate 90 GREY", TURNED(GREY, GREY),
	  LIBYUV("RotatePlane", ref_rotate_plane),
	  OPENCV("rotate", opencv_rotate_grey) },
	{ .name = "rotate 90 NV12 -> YUV420", TURNED(NV12, YUV420),
	  LIBYUV("NV12ToI420Rotate", ref_nv12_to_i420_rotate) },
	{ .section = "copy (peer: memcpy) and deinterlacing (peer: a C loop)",
	  .name = "copy YUYV", FRAME(YUYV, YUYV),
	  LIBYUV("memcpy", ref_memcpy) },
	{ .name = "deinterlace blend YUYV", FRAME(YUYV, YUYV),
	  .field = HQV_FIELD_INTERLACED_TB,
	  .deinterlace = HQV_DEINTERLACE_BLEND,
	  LIBYUV("C loop", ref_blend) },
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

static double wall_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* An operation's job through libm2m: m2m_convert() on a device. */
struct api_job {
	struct m2m_device *dev;
	uint8_t *src, *dst;
	size_t in_size, out_size;
};

/*
 * What a timed run does: the engine's job, a peer, or libm2m's call; and
 * the clock it is timed by.
 */
struct side {
	struct bench *b;
	reference_fn *peer;	/* with b: a peer; NULL: the engine */
	struct api_job *api;	/* not NULL: m2m_convert() */
	double (*now)(void);
};

static void side_frame(const struct side *side)
{
	struct bench *b = side->b;

	if (side->api)
		m2m_convert(side->api->dev, side->api->dst,
			    side->api->out_size, side->api->src,
			    side->api->in_size);
	else if (side->peer)
		side->peer(&b->job.src, &b->ref);
	else
		hqv_job_run(&b->job, b->scratch, 0, b->job.dst.height);
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(v[0]), compare_doubles);
	return v[n / 2];
}

/* Frames per run: two frames warm caches and fault in the destination. */
static unsigned int frames_per_run(const struct side *side)
{
	double start, once = 0;
	unsigned int i, frames;

	for (i = 0; i < 2; i++) {
		start = side->now();
		side_frame(side);
		once = side->now() - start;
	}
	frames = once > 0 ? RUN_SECONDS / once : 1000;
	return frames ? frames : 1;
}

static double run_ms(const struct side *side, unsigned int frames)
{
	double start = side->now();
	unsigned int i;

	for (i = 0; i < frames; i++)
		side_frame(side);
	return (side->now() - start) * 1e3 / frames;
}

/*
 * Milliseconds per frame of two sides (ours, then a peer), each the median
 * of RUNS runs, and their ratio, the median of the ratios of the runs
 * taken in turns: the machine's speed drifts (other VMs on the host), and
 * two neighbouring runs see nearly the same machine.
 */
static void time_both(const struct side *ours, const struct side *other,
		      double *ours_ms, double *peer_ms, double *ratio)
{
	unsigned int e = frames_per_run(ours), r = frames_per_run(other);
	double ems[RUNS], rms[RUNS], ratios[RUNS];
	unsigned int run;

	for (run = 0; run < RUNS; run++) {
		ems[run] = run_ms(ours, e);
		rms[run] = run_ms(other, r);
		ratios[run] = ems[run] / rms[run];
	}
	*ours_ms = median(ems, RUNS);
	*peer_ms = median(rms, RUNS);
	*ratio = median(ratios, RUNS);
}

static void api_check(int ret, const char *what)
{
	if (ret < 0) {
		fprintf(stderr, "engine-bench: %s: %s\n", what,
			m2m_last_error());
		exit(1);
	}
}

/*
 * The operation's job through m2m_convert() on an in-process device whose
 * frames are split across threads threads (0: the default, one per CPU).
 */
static void api_open(struct api_job *job, const struct operation *op,
		     unsigned int threads)
{
	struct m2m_open_options opts = M2M_OPEN_OPTIONS_INIT;
	struct m2m_format in, out;
	struct m2m_device *dev;
	size_t i;

	opts.threads = threads;
	api_check(m2m_open_ext(&dev, M2M_INPROCESS, &opts), "m2m_open_ext");
	api_check(m2m_format_init(&in, op->src_fourcc, WIDTH, HEIGHT),
		  "m2m_format_init");
	if (op->field != HQV_FIELD_NONE)
		in.field = V4L2_FIELD_INTERLACED_TB;
	api_check(m2m_format_init(&out, op->dst_fourcc, op->dst_width,
				  op->dst_height), "m2m_format_init");
	api_check(m2m_set_format(dev, &in, M2M_QUEUE_OUTPUT), "OUTPUT format");
	api_check(m2m_set_format(dev, &out, M2M_QUEUE_CAPTURE),
		  "CAPTURE format");
	if (op->rotation)
		api_check(m2m_set_control(dev, V4L2_CID_ROTATE, op->rotation),
			  "rotate");
	if (op->hflip)
		api_check(m2m_set_control(dev, V4L2_CID_HFLIP, 1), "hflip");
	if (op->scaler != HQV_SCALER_NEAREST)
		api_check(m2m_set_control(dev, V4L2_CID_VHQV_SCALER,
					  op->scaler == HQV_SCALER_AREA ?
					  VHQV_SCALER_AREA :
					  VHQV_SCALER_BILINEAR), "scaler");
	if (op->deinterlace == HQV_DEINTERLACE_BLEND)
		api_check(m2m_set_control(dev, V4L2_CID_DEINTERLACING_MODE,
					  VHQV_DEINTERLACE_BLEND),
			  "deinterlacing");
	job->dev = dev;
	job->in_size = m2m_format_frame_size(&in);
	job->out_size = m2m_format_frame_size(&out);
	job->src = xaligned_alloc(job->in_size);
	job->dst = xaligned_alloc(job->out_size);
	for (i = 0; i < job->in_size; i++)
		job->src[i] = 32 + i % 191;
	/* A call that fails here would fail unseen in the timed runs. */
	api_check(m2m_convert(dev, job->dst, job->out_size, job->src,
			      job->in_size), "m2m_convert");
}

static void api_close(struct api_job *job)
{
	free(job->dst);
	free(job->src);
	m2m_close(job->dev);
}

/*
 * Wall-clock milliseconds per frame of the operation through m2m_convert()
 * on an in-process device whose frames are split across threads threads:
 * the median of API_RUNS runs of about RUN_SECONDS.
 */
static double api_ms(const struct operation *op, unsigned int threads)
{
	struct api_job job;
	const struct side api = { NULL, NULL, &job, wall_seconds };
	unsigned int run, frames;
	double ms[API_RUNS];

	api_open(&job, op, threads);
	frames = frames_per_run(&api);
	for (run = 0; run < API_RUNS; run++)
		ms[run] = run_ms(&api, frames);
	api_close(&job);
	return median(ms, API_RUNS);
}

/* This thread on one CPU (the engine's and the peers' times), or on all. */
static void pin(bool one)
{
	cpu_set_t set;
	int cpu;

	CPU_ZERO(&set);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (cpu == BENCH_CPU || !one)
			CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("engine-bench: sched_setaffinity (figures unpinned)");
}

/* The engine's job for an operation, its source filled, and a peer's
 * destination. */
static void bench_init(struct bench *b, const struct operation *op)
{
	int ret;

	memset(b, 0, sizeof(*b));
	image_alloc(&b->job.src, op->src_fourcc, WIDTH, HEIGHT);
	image_alloc(&b->job.dst, op->dst_fourcc, op->dst_width,
		    op->dst_height);
	image_alloc(&b->ref, op->dst_fourcc, op->dst_width, op->dst_height);
	image_fill(&b->job.src);
	/*
	 * GREY is full range, as libm2m takes an untagged GREY frame and as
	 * libyuv's J400 and OpenCV's GRAY are (the engine's own default for
	 * it, a Y'CbCr format, is limited).
	 */
	if (b->job.src.fmt->family == HQV_FAMILY_GREY)
		b->job.src.quantization = HQV_QUANT_FULL;
	if (b->job.dst.fmt->family == HQV_FAMILY_GREY)
		b->job.dst.quantization = HQV_QUANT_FULL;
	b->job.rotation = op->rotation;
	b->job.hflip = op->hflip;
	b->job.scaler = op->scaler;
	b->job.src.field = op->field;
	b->job.deinterlace = op->deinterlace;

	ret = hqv_job_prepare(&b->job);
	if (ret) {
		fprintf(stderr, "engine-bench: %s: hqv_job_prepare: %d\n",
			op->name, ret);
		exit(1);
	}
	b->scratch = xaligned_alloc(hqv_job_scratch_size(&b->job));
}

static void bench_free(struct bench *b)
{
	free(b->scratch);
	image_free(&b->ref);
	image_free(&b->job.dst);
	image_free(&b->job.src);
}

static void bench_row(const struct operation *op)
{
	reference_fn *peers[2] = { op->run_reference, op->run_opencv };
	const char *names[2] = { op->reference, op->opencv };
	struct bench b;
	const struct side engine = { &b, NULL, NULL, seconds_now };
	double engine_ms = 0, peer_ms = 0, ratio = 0, one, two;
	int best = -1, diff = -1;
	unsigned int p;

	bench_init(&b, op);
	pin(true);
	for (p = 0; p < 2; p++) {
		const struct side peer = { &b, peers[p], NULL, seconds_now };
		double e, r, q;

		if (!peers[p])
			continue;
		time_both(&engine, &peer, &e, &r, &q);
		if (best < 0 || r < peer_ms) {
			best = p;
			engine_ms = e;
			peer_ms = r;
			ratio = q;
		}
	}
	/* The faster peer's output, for the difference column. */
	peers[best](&b.job.src, &b.ref);
	diff = image_max_difference(&b.job.dst, &b.ref);
	pin(false);
	one = api_ms(op, 1);
	two = api_ms(op, 2);

	printf("%-28s %-24s %7.2f %7.2f %6.2f %8.2f %8.2f %5.2f %5d\n",
	       op->name, names[best], engine_ms, peer_ms, ratio, one, two,
	       one / two, diff);
	bench_free(&b);
}

/*
 * Defaults against defaults: m2m_convert() on the in-process device
 * opened without options, against OpenCV on its default threads, wall
 * clock, on every CPU; the rows OpenCV has.
 */
static void defaults_row(const struct operation *op)
{
	struct bench b;
	struct api_job job;
	const struct side api = { NULL, NULL, &job, wall_seconds },
			  peer = { &b, op->run_opencv, NULL, wall_seconds };
	double m2m_ms, peer_ms, ratio;

	bench_init(&b, op);
	api_open(&job, op, 0);
	pin(false);
	time_both(&api, &peer, &m2m_ms, &peer_ms, &ratio);
	printf("%-28s %-24s %7.2f %7.2f %6.2f\n", op->name, op->opencv,
	       m2m_ms, peer_ms, ratio);
	api_close(&job);
	bench_free(&b);
}

/*
 * With arguments, only the rows whose name contains one of them; options
 * (starting with "--") do not pick rows.
 */
static bool selected(const struct operation *op, int argc, char **argv)
{
	bool any = false;
	int a;

	for (a = 1; a < argc; a++) {
		if (!strncmp(argv[a], "--", 2))
			continue;
		any = true;
		if (strstr(op->name, argv[a]))
			return true;
	}
	return !any;
}

static bool option(const char *name, int argc, char **argv)
{
	int a;

	for (a = 1; a < argc; a++)
		if (!strcmp(argv[a], name))
			return true;
	return false;
}

static void one_core_table(int argc, char **argv)
{
	const char *config = BENCH_CONFIG;
	size_t i;

	opencv_peer_threads(1);
	printf("HQV engine vs libyuv %d (AVX2: %s) and OpenCV (one thread), "
	       "%dx%d source, ms per frame\n", LIBYUV_VERSION,
	       TestCpuFlag(kCpuHasAVX2) ? "yes" : "no", WIDTH, HEIGHT);
	printf("engine build type: %s\n",
	       *config ? config : "none (unoptimised: use RelWithDebInfo)");
	printf("engine, peer: thread CPU time on CPU %d, median of %d runs of "
	       "about %.2f s,\n  in turns; ratio: median of the runs' ratios, "
	       "against the faster peer\n", BENCH_CPU, RUNS, RUN_SECONDS);
	printf("1 thr, 2 thr: wall clock through m2m_convert() on the "
	       "in-process device\n  with 1 and 2 threads (median of %d runs)\n",
	       API_RUNS);
	printf("Y'CbCr: BT.601 limited range; R'G'B' and GREY: full range\n");
	printf("XBGR32 'XR24' is B,G,R,X in memory, as libyuv's ARGB\n");
	printf("diff: largest byte difference from the faster peer's output\n\n");

	printf("%-28s %-24s %7s %7s %6s %8s %8s %5s %5s\n", "operation",
	       "faster peer", "engine", "peer", "ratio", "1 thr", "2 thr",
	       "1/2", "diff");
	for (i = 0; i < ARRAY_SIZE(operations); i++) {
		if (!selected(&operations[i], argc, argv))
			continue;
		if (operations[i].section)
			printf("-- %s\n", operations[i].section);
		bench_row(&operations[i]);
	}
}

static void defaults_table(int argc, char **argv)
{
	int threads = opencv_peer_threads(-1);
	size_t i;

	printf("Defaults against defaults, %dx%d source, ms per frame: "
	       "m2m_convert() on\n  the in-process device opened without "
	       "options (one thread per online CPU),\n  against OpenCV with "
	       "its default threads (%d); wall clock on every CPU,\n  median "
	       "of %d runs of about %.2f s in turns; ratio: median of the "
	       "runs' ratios\n\n", WIDTH, HEIGHT, threads, RUNS, RUN_SECONDS);
	printf("%-28s %-24s %7s %7s %6s\n", "operation", "OpenCV", "m2m",
	       "OpenCV", "ratio");
	for (i = 0; i < ARRAY_SIZE(operations); i++)
		if (operations[i].run_opencv &&
		    selected(&operations[i], argc, argv))
			defaults_row(&operations[i]);
}

int main(int argc, char **argv)
{
	bool defaults = option("--defaults", argc, argv);

	if (!defaults) {
		one_core_table(argc, argv);
		printf("\n");
	}
	defaults_table(argc, argv);
	return 0;
}
