/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the engine's files share: the intermediate line and the stages of
 * the row pipeline. Not part of the engine's interface.
 */
#ifndef HQV_INTERNAL_H
#define HQV_INTERNAL_H

#include "hqv.h"
#include "hqv-rows.h"

#define HQV_ONE		(1 << HQV_FRAC_BITS)	/* one code value */
#define HQV_MAX_SAMPLE	(255 * HQV_ONE)

/*
 * The colour step's arithmetic (docs/engine.md, Precision), in 16-bit
 * lanes: a sample s becomes the signed d = 2 (s - 128 << HQV_FRAC_BITS);
 * coefficients have HQV_MATRIX_BITS fractional bits; each product is
 * rounded to eighths of a code value (HQV_COLOR_BITS), and their sum with
 * the offset, clamped to 0..255 << HQV_COLOR_BITS, is the output.
 */
#define HQV_MATRIX_BITS	11
#define HQV_COLOR_BITS	3
#define HQV_COLOR_MAX	(255 << HQV_COLOR_BITS)

/* d of a sample, and of a code value. */
static inline int32_t hqv_color_in(int32_t s)
{
	return 2 * s - (256 << HQV_FRAC_BITS);
}

static inline int32_t hqv_color_in_code(int32_t c)
{
	return (c << (HQV_FRAC_BITS + 1)) - (256 << HQV_FRAC_BITS);
}

/*
 * d * m / 2^15, rounded half up: eighths of a code value. Written as the
 * vectoriser's pattern for a rounded high product (x86: pmulhrsw).
 */
static inline __attribute__((always_inline)) int32_t
hqv_color_product(int32_t d, int32_t m)
{
	return ((d * m >> 14) + 1) >> 1;
}

/*
 * A line of 4:4:4 samples, one array per channel: Y'CbCr or R'G'B', then
 * alpha. Values are code values << HQV_FRAC_BITS.
 */
struct hqv_line {
	uint16_t *c[4];
};

/* Where the samples of a Y'CbCr source row are, whatever the family. */
struct hqv_yuv_row {
	const uint8_t *y;	/* luma of pixel 0 */
	uint32_t y_step;	/* bytes from one luma sample to the next */
	const uint8_t *cb[2], *cr[2];	/* chroma of this row and its neighbour */
	uint32_t c_step;	/* bytes from one chroma sample to the next */
	uint32_t c_count;	/* chroma samples in a row */
	uint32_t hdiv;		/* luma columns per chroma sample */
	bool interp_h, interp_v;	/* interpolate across, down */
};

/* Row y of img (a Y'CbCr image of the job), as the job reads it. */
void hqv_yuv_row_init(struct hqv_yuv_row *r, const struct hqv_job *job,
		      const struct hqv_image *img, uint32_t y);

/* Compute the colour matrix, background and alpha of a job's plan. */
int hqv_color_plan(struct hqv_job *job);

/* Apply the plan's matrix to n samples of a line, in place, clamping. */
void hqv_color_apply(const struct hqv_plan *plan, struct hqv_line *line,
		     uint32_t n);

/* Temporary source-width lines the deinterlacer needs. */
#define HQV_TMP_LINES	2

/*
 * Read n pixels of a row of the progressive source in 4:4:4 (chroma
 * interpolated, fields deinterlaced): from (x, y), stepping by dx, 1 or -1.
 */
void hqv_fetch(const struct hqv_job *job, struct hqv_line *tmp,
	       struct hqv_line *out, int32_t x, int32_t y, int32_t dx,
	       uint32_t n);

/* Give n samples the job's alpha when the source has none and it is kept. */
void hqv_fill_alpha(const struct hqv_job *job, struct hqv_line *line,
		    uint32_t n);

/* Read pixels [x0, x0 + n) of memory row row of img (src or prev). */
void hqv_unpack(const struct hqv_job *job, const struct hqv_image *img,
		uint32_t row, uint32_t x0, uint32_t n, uint16_t *out[4]);

/* Frame row y of the source, deinterlaced as the job asks. */
void hqv_source_row(const struct hqv_job *job, struct hqv_line *tmp,
		    uint32_t y, uint32_t x0, uint32_t n, uint16_t *out[4]);

/*
 * Destination rows are made in pairs from an even row y, for vertically
 * subsampled chroma: rows y and y + 1, or y alone when it is the last row
 * of an odd height (its chroma row then averages it with itself, the
 * second row's index clamped to the last).
 */
static inline uint32_t hqv_pair_rows(const struct hqv_job *job, uint32_t y)
{
	return y + 1 < job->dst.height ? 2 : 1;
}

/*
 * Write destination rows y and y + 1 (hqv_pair_rows()) from two
 * full-width lines of destination-space samples.
 */
void hqv_pack_pair(const struct hqv_job *job, const struct hqv_line *rows,
		   uint32_t y);

/* Horizontal scaling of one oriented line into the compose width. */
void hqv_scale_line(const struct hqv_job *job, const struct hqv_line *in,
		    struct hqv_line *out);

/*
 * The area filter's box of one destination pixel along an axis
 * (hqv-scale.c): count source pixels from first, the first weighing
 * w_first, the last w_last (when count > 1), those between
 * hqv_area_whole() (there are some only when the step passes a pixel);
 * total is their sum, under 2^16.
 */
struct hqv_area_span {
	uint32_t first, count;
	uint32_t w_first, w_last, total;
};

/* Weights are overlaps >> hqv_area_shift(step): the step's top 16 bits. */
static inline unsigned int hqv_area_shift(uint64_t step)
{
	unsigned int bits = 0;

	for (; step; step >>= 1)
		bits++;
	return bits - 16;
}

static inline uint32_t hqv_area_whole(uint64_t step)
{
	return (uint32_t)((1ULL << 32) >> hqv_area_shift(step));
}

void hqv_area_span(uint64_t step, uint32_t n, uint32_t d,
		   struct hqv_area_span *span);

/*
 * floor(n / d) for n < 2^63 and the inverse m = floor((2^64 - 1) / d):
 * n * m / 2^64 falls short of n / d by less than 2n / 2^64, under one, so
 * its floor is the quotient or one less, which the remainder tells. A
 * multiplication where a division took tens of cycles.
 */
static inline uint64_t hqv_div_by(uint64_t n, uint64_t d, uint64_t m)
{
	uint64_t q = hqv_mulhi_u64(n, m);

	return n - q * d >= d ? q + 1 : q;
}

/*
 * A direct row function: destination rows y and y + 1 straight from the
 * source, for jobs that only repack samples (hqv-direct.c); NULL when the
 * job needs the general pipeline. *scratch is set to the bytes of scratch
 * memory the function needs per band; *band_least raised to the rows its
 * tiles take, when a band should hold more.
 */
hqv_direct_fn *hqv_direct_find(const struct hqv_job *job, size_t *scratch,
			       uint32_t *band_least);

/*
 * Whether a job reads the whole source and writes the whole destination,
 * of the same size (no crop, compose or scaling), as most direct rows ask.
 */
bool hqv_job_whole(const struct hqv_job *job);

/*
 * Whether a progressive job turns or flips the whole source into the
 * whole destination, of the oriented size (no crop, compose or scaling).
 */
bool hqv_job_oriented_whole(const struct hqv_job *job);

/*
 * Whether the direct row of a job's formats and colours, with every pixel
 * in its place, copies the bytes of each plane's lines.
 */
bool hqv_direct_copies(const struct hqv_job *job);

/*
 * Lumas and chroma inputs d (docs/engine.md, Precision) of every pixel of
 * source row y of a job from Y'CbCr to R'G'B', chroma interpolated as the
 * pipeline does: *lumas points at them, one byte apart, in the source or,
 * for packed 4:2:2, in lbuf (width bytes); dcb and dcr get width + 1 d
 * (an odd width's last pair writes one past), u the chroma count + 1
 * sums (hqv-direct.c).
 */
void hqv_yuv_ds(const struct hqv_job *job, uint32_t y, uint8_t *lbuf,
		uint16_t *u, int16_t *dcb, int16_t *dcr, const uint8_t **lumas);

/*
 * The constants of a job's Y'CbCr to R'G'B' row functions (struct
 * hqv_yuv_rgb): false when its matrix does not fit their 16-bit steps.
 */
bool hqv_yuv_rgb_prepare(const struct hqv_job *job, struct hqv_yuv_rgb *k);

/*
 * The same for a job from 24- or 32-bit R'G'B' to Y'CbCr (struct
 * hqv_rgb_yuv: luma codes alone for GREY), add and clamp false.
 */
bool hqv_rgb_yuv_prepare(const struct hqv_job *job, struct hqv_rgb_yuv *k);

/*
 * The byte map of a job from 24- or 32-bit R'G'B' to 24- or 32-bit R'G'B'
 * with colours unchanged: each byte of a destination pixel is a byte of
 * its source pixel, the alpha (the source's or the job's) or 0xff.
 */
void hqv_rgb_shuffle_init(const struct hqv_job *job, struct hqv_shuffle *k);

/* n units of op, with the row functions of the job's instruction set. */
static inline void hqv_job_row(const struct hqv_job *job,
			       const struct hqv_row_op *op,
			       const struct hqv_row_args *a, size_t n)
{
	hqv_row_run(op, (enum hqv_isa)job->plan.isa, a, n);
}

/*
 * The direct row of a job's formats and colours as if it kept every pixel
 * in its place, whatever its orientation says; as hqv_direct_find().
 */
hqv_direct_fn *hqv_direct_place_find(const struct hqv_job *job,
				     size_t *scratch);

/*
 * The band a direct row works in, as hqv_job_run() hands it over: the
 * band's scratch memory (the bytes hqv_direct_find() asked for), the row
 * the band ends at, past which a row must not write, and whether the band
 * has just started. A row that keeps what it read for the next row pairs
 * of the band (a tile, scale taps, a table of products) makes it when
 * fresh is set and clears fresh, so that nothing outlives a band. A row
 * that writes more rows than its pair (a tile, a strip, the whole band)
 * raises written past them (an even row), and hqv_job_run() calls it next
 * for the first pair not written.
 */
struct hqv_band {
	void *scratch;
	uint32_t end;
	uint32_t written;
	bool fresh;
};

/*
 * Direct rows for jobs that move pixels, tried in this order: turns and
 * flips of the whole image that keep its colours (hqv-direct-turn.c),
 * turns and flips of the whole image that convert it, each pixel's
 * samples moved and then the direct row in place run on them
 * (hqv-direct-orient.c), then, through hqv_direct_scale_find(), bilinear
 * scaling with a crop (hqv-direct-scale.c) and blend deinterlacing
 * (hqv-direct-deint.c); each as hqv_direct_find().
 */
hqv_direct_fn *hqv_direct_turn_find(const struct hqv_job *job, size_t *scratch);
hqv_direct_fn *hqv_direct_orient_find(const struct hqv_job *job,
				      size_t *scratch, uint32_t *band_least);
hqv_direct_fn *hqv_direct_scale_find(const struct hqv_job *job,
				     size_t *scratch);
hqv_direct_fn *hqv_direct_deint_find(const struct hqv_job *job,
				     size_t *scratch);

/*
 * count rows of a quarter turn's tile, pitch bytes apart, from a run of
 * count bytes in each of n source rows: row i's run is at s + i * step,
 * and tile row t, byte i is the run's byte t (forwards) or count - 1 - t
 * (hqv-direct-turn.c).
 */
void hqv_turn_bytes(const uint8_t *s, ptrdiff_t step, size_t n, uint8_t *tile,
		    size_t pitch, uint32_t count, bool forwards);

/*
 * The leftmost source column of a quarter turn's lines [first, first +
 * count), source columns x0 + j dj_x: the run of columns they read.
 */
static inline uint32_t hqv_turn_run(const struct hqv_plan *p, uint32_t first,
				    uint32_t count)
{
	return p->dj_x > 0 ? (uint32_t)p->x0 + first :
			     (uint32_t)p->x0 - first - (count - 1);
}

/* Memory row `row` of plane p of an image. */
static inline uint8_t *hqv_row(const struct hqv_image *img, unsigned int p,
			       uint32_t row)
{
	return img->planes[p] + (size_t)row * img->bytesperline[p];
}

/*
 * A packed 4:2:2 line of an odd width ends in half a macropixel: its
 * second luma, past the image, repeats the last one (as libyuv's
 * I422ToYUY2 long did), so that every byte of the line is defined and
 * the same whichever way the line was made. Call it once the line's last
 * luma is written.
 */
static inline void hqv_pad_packed_line(const struct hqv_format *fmt,
				       uint8_t *line, uint32_t width)
{
	if (fmt->family == HQV_FAMILY_PACKED_YUV && width % 2)
		line[2 * width + fmt->order[0]] =
			line[2 * (width - 1) + fmt->order[0]];
}

static inline bool hqv_is_alternate(enum hqv_field f)
{
	return f == HQV_FIELD_ALTERNATE_TOP || f == HQV_FIELD_ALTERNATE_BOTTOM;
}

static inline uint16_t hqv_clamp_sample(int32_t v)
{
	v = v < 0 ? 0 : v;
	return v > HQV_MAX_SAMPLE ? HQV_MAX_SAMPLE : v;
}

#endif /* HQV_INTERNAL_H */
