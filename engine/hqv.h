/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The HQV engine: a software video processing engine, in plain C with no
 * dependency on the kernel or libc beyond memcpy/memset, integer arithmetic
 * only. The same code runs inside vhqv.ko and inside libm2m.
 *
 * A job describes one frame's work: a source image, a destination image and
 * the operations to apply. hqv_job_prepare() validates it against the
 * buffers it names and computes what every row needs; hqv_job_run() then
 * produces destination rows [y0, y1), so a caller can cut a frame into bands
 * (preemption points in the kernel, threads in user space), each band with
 * its own scratch memory of hqv_job_scratch_size() bytes.
 *
 * What a job does to a pixel, in this order (docs/engine.md has the exact
 * arithmetic, which the tests' floating-point reference model follows):
 *  0. deinterlacing of a field-based source into a progressive frame;
 *  1. crop: the source rectangle job->crop is the input;
 *  2. chroma up-sampling to 4:4:4, by interpolation;
 *  3. colour: source code values to the destination's colour space,
 *     through the proc-amp, then clamped to 0..255;
 *  4. orientation: horizontal and vertical flips, then a clockwise turn
 *     by job->rotation degrees;
 *  5. scaling to the compose rectangle's size (nearest, bilinear or area);
 *  6. compose: placed at job->compose in the destination, the rest of the
 *     destination filled with job->background;
 *  7. chroma down-sampling by averaging, and packing.
 */
#ifndef HQV_H
#define HQV_H

#include "hqv-format.h"

/* Y'CbCr encodings (the matrix between R'G'B' and Y'CbCr). */
enum hqv_encoding {
	HQV_ENC_BT601,
	HQV_ENC_BT709,
	HQV_ENC_BT2020,		/* non-constant luminance */
};

/* Code value ranges: limited is Y' 16..235, CbCr 16..240, R'G'B' 16..235. */
enum hqv_quantization {
	HQV_QUANT_LIMITED,
	HQV_QUANT_FULL,
};

enum hqv_scaler {
	HQV_SCALER_NEAREST,
	HQV_SCALER_BILINEAR,
	/* Each destination pixel averages the source area it covers: the
	 * filter for shrinking by more than 2x without aliasing. */
	HQV_SCALER_AREA,
};

/*
 * How the source's lines are laid out in time (V4L2's field orders). A
 * frame holds both fields, interleaved (TB: top field first in time) or
 * one after the other (SEQ); ALTERNATE buffers hold one field each, of
 * height / 2 lines, and say which.
 */
enum hqv_field {
	HQV_FIELD_NONE,		/* progressive */
	HQV_FIELD_INTERLACED_TB,
	HQV_FIELD_INTERLACED_BT,
	HQV_FIELD_SEQ_TB,
	HQV_FIELD_SEQ_BT,
	HQV_FIELD_ALTERNATE_TOP,
	HQV_FIELD_ALTERNATE_BOTTOM,
};

/* Turning fields into a progressive frame (docs/engine.md, step 0). */
enum hqv_deinterlace {
	HQV_DEINTERLACE_WEAVE,
	HQV_DEINTERLACE_BOB,
	HQV_DEINTERLACE_BLEND,
	HQV_DEINTERLACE_MOTION_ADAPTIVE,
};

struct hqv_rect {
	uint32_t left;
	uint32_t top;
	uint32_t width;
	uint32_t height;
};

struct hqv_image {
	const struct hqv_format *fmt;
	uint32_t width;
	uint32_t height;
	uint32_t bytesperline[HQV_MAX_PLANES];
	uint8_t *planes[HQV_MAX_PLANES];
	/* Bytes available at planes[p]: the job never touches more. */
	size_t plane_size[HQV_MAX_PLANES];
	enum hqv_encoding encoding;
	enum hqv_quantization quantization;
	/*
	 * Source only. A field-based image needs an even height, 4:2:0 a
	 * multiple of 4 (each field's chroma is subsampled within the
	 * field).
	 */
	enum hqv_field field;
};

/*
 * Proc-amp, applied in Y'CbCr normalised to Y' 0..1 and Cb, Cr -0.5..0.5,
 * with gains g = (128 + contrast) / 128 and s = (128 + saturation) / 128:
 * Y' = g * Y' + brightness / 256, (Cb, Cr) = g * s * rotate((Cb, Cr), hue).
 * All zero is neutral.
 */
struct hqv_procamp {
	int32_t brightness;	/* -128..127 */
	int32_t contrast;	/* -128..127 */
	int32_t saturation;	/* -128..127 */
	int32_t hue;		/* degrees, -180..180, counter-clockwise */
};

struct hqv_job;
struct hqv_band;
/* Destination rows y and y + 1 of a job, in a band (engine/hqv-internal.h). */
typedef void hqv_direct_fn(const struct hqv_job *job, struct hqv_band *band,
			   uint32_t y);

/* What hqv_job_prepare() computes; read-only while rows are produced. */
struct hqv_plan {
	/* A direct row function for jobs that only repack, or NULL. */
	hqv_direct_fn *direct;
	/* Destination space from source samples (code values <<
	 * HQV_FRAC_BITS), in 16-bit steps: coefficients with 11 fractional
	 * bits, offsets in eighths of a code value (docs/engine.md,
	 * Precision; hqv_color_apply()). */
	int32_t matrix[3][3];
	int32_t offset[3];
	bool identity;
	/* Background and constant alpha in destination space. */
	uint16_t background[4];
	/* Orientation: the source pixel of oriented pixel (i, j) is
	 * (x0 + i * di_x + j * dj_x, y0 + i * di_y + j * dj_y). */
	int32_t x0, y0, di_x, di_y, dj_x, dj_y;
	uint32_t oriented_width, oriented_height;
	/* Scale steps: source pixels per destination pixel, in 2^-32. */
	uint64_t step_x, step_y;
	/* Chroma samples copied, not resampled, across / down (see
	 * docs/engine.md: when the job moves no chroma site). */
	bool chroma_copy_h, chroma_copy_v;
	/* A field-based source and prev as two progressive images each, one
	 * per field (0: top), for deinterlacing. */
	struct hqv_image fields[2], prev_fields[2];
	/* Channels carried through: 3, or 4 when the destination has alpha. */
	uint32_t channels;
	size_t scratch_size;
	/*
	 * The fewest rows a band holds (hqv_band_rows()): 2, or for quarter
	 * turns, which read a tile of source columns at a time, the tile's.
	 */
	uint32_t band_least;
	/* The instruction set of the direct rows' row functions (enum
	 * hqv_isa, engine/hqv-rows.h): the CPU's best. */
	uint8_t isa;
};

struct hqv_job {
	struct hqv_image src;
	struct hqv_image dst;
	/* Source and destination rectangles; a zero width means the whole
	 * image. */
	struct hqv_rect crop;
	struct hqv_rect compose;
	bool hflip;
	bool vflip;
	uint32_t rotation;	/* 0, 90, 180 or 270, clockwise */
	enum hqv_scaler scaler;
	struct hqv_procamp procamp;
	/* Full-range R'G'B' 0xRRGGBB outside the compose rectangle. */
	uint32_t background;
	/* Alpha written to formats with alpha when the source has none. */
	uint8_t alpha;
	/* For interlaced sources: the mode, and the previous source frame (or
	 * field) for motion-adaptive and ALTERNATE weaving; prev may be NULL
	 * and must otherwise match src in format, size and pitch. */
	enum hqv_deinterlace deinterlace;
	const struct hqv_image *prev;

	struct hqv_plan plan;	/* filled by hqv_job_prepare() */
};

/*
 * Describe a frame lying in one buffer as V4L2's single-planar API lays it
 * out: its planes one after the other, with the pitches hqv_format_layout()
 * gives for bytesperline0 (0 for the minimum). Colour is set to BT.601 in
 * V4L2's default range for the format (limited for Y'CbCr, full for
 * R'G'B'), progressive; callers change what differs. Returns the bytes the
 * frame needs; with a shorter length, hqv_job_prepare() refuses the job.
 */
uint32_t hqv_image_init(struct hqv_image *img, const struct hqv_format *fmt,
			uint32_t width, uint32_t height, uint32_t bytesperline0,
			uint8_t *buffer, size_t length);

/* Intermediate samples are code values with this many fractional bits. */
#define HQV_FRAC_BITS	6

/*
 * Validate a job against the memory it names and fill job->plan. Returns 0,
 * or -EINVAL for anything the engine cannot do or that would read or write
 * outside a plane: a missing format or plane, a size out of range, a line
 * pitch below the minimum, a plane shorter than its lines, a rectangle
 * outside its image, an unknown rotation, scaler, encoding or proc-amp
 * value.
 */
int hqv_job_prepare(struct hqv_job *job);

/* Bytes of scratch memory one hqv_job_run() call on a prepared job needs. */
size_t hqv_job_scratch_size(const struct hqv_job *job);

/*
 * Produce destination rows [y0, y1) of a prepared job. y0 and y1 must be
 * even (or y1 the height, which may be odd): vertically subsampled chroma
 * is written a pair of rows at a time. scratch holds
 * hqv_job_scratch_size() bytes, aligned for uint32_t; bands run at once
 * need a scratch each.
 */
void hqv_job_run(const struct hqv_job *job, void *scratch, uint32_t y0,
		 uint32_t y1);

/*
 * How a prepared job's frame is split for threads (the in-process
 * device's pool, vhqv's workers): bands of about HQV_BAND_PIXELS pixels
 * of the job's size, the larger of its source's and its result's, in row
 * pairs (a quarter turn's bands at least its tile's rows: each band
 * reads its tiles afresh), and one thread for each HQV_PIXELS_PER_THREAD
 * of it, so that a
 * thread is woken only for work that outweighs its wake-up (tens of
 * microseconds when its core sleeps). A band is small enough that two
 * threads' shares of a 1080p frame differ by a band in 32, and a small
 * frame is one band, its rows' set-up made once.
 */
#define HQV_BAND_PIXELS		(64u * 1024)
#define HQV_PIXELS_PER_THREAD	(256u * 1024)

/* Rows of a band: even, at least 2 (plan.band_least). */
uint32_t hqv_band_rows(const struct hqv_job *job);
/* Threads worth the job: from 1 to the fewest of its bands and max. */
unsigned int hqv_job_threads(const struct hqv_job *job, uint32_t bands,
			     unsigned int max);

#endif /* HQV_H */
