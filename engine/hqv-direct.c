// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Direct row functions: for jobs that keep every pixel in its place (no
 * crop, turn, flip, scaling, compose or deinterlacing), a pair of
 * destination rows is written straight from the source rows, bypassing
 * the 4:4:4 intermediate lines. Each gives exactly what the general
 * pipeline gives (the same sample arithmetic, docs/engine.md), only
 * faster; the tests hold both to the same model. These inner loops are
 * where a SIMD pass would go.
 */
#include "hqv-internal.h"

/* The same format on both sides: each plane's lines are copied. */
static void copy_pair(const struct hqv_job *job, void *scratch, uint32_t y)
{
	const struct hqv_format *fmt = job->src.fmt;
	unsigned int p, r;

	for (p = 0; p < fmt->num_planes; p++) {
		uint32_t bytes = (p ? job->src.width / fmt->hsub :
				  job->src.width) * fmt->bytes_per_group[p];

		if (p && fmt->vsub == 2) {
			memcpy(hqv_row(&job->dst, p, y / 2), hqv_row(&job->src, p, y / 2),
			       bytes);
			continue;
		}
		for (r = 0; r < 2; r++)
			memcpy(hqv_row(&job->dst, p, y + r), hqv_row(&job->src, p, y + r),
			       bytes);
	}
}

/*
 * Packed 4:2:2 to semi-planar or planar 4:2:0: lumas are picked out of
 * each row, and each chroma sample is the rounded mean of the two rows'.
 * One pass reads each source group of four bytes once and writes all that
 * comes of it. The byte offsets are constants in each caller (y0: the
 * first luma; c0, c1: the chroma written first and second, Cb and Cr for
 * NV12 and planar, Cr and Cb for NV21), so the compiler can turn the loop
 * into shuffles.
 */
static inline __attribute__((always_inline)) void
packed422_rows(const uint8_t *restrict a, const uint8_t *restrict b,
	       uint8_t *restrict ya, uint8_t *restrict yb,
	       uint8_t *restrict c0_out, uint8_t *restrict c1_out,
	       const size_t c_step, const size_t pairs, const size_t y0,
	       const size_t c0, const size_t c1)
{
	size_t k;

	for (k = 0; k < pairs; k++) {
		ya[2 * k] = a[4 * k + y0];
		ya[2 * k + 1] = a[4 * k + y0 + 2];
		yb[2 * k] = b[4 * k + y0];
		yb[2 * k + 1] = b[4 * k + y0 + 2];
		c0_out[c_step * k] = (a[4 * k + c0] + b[4 * k + c0] + 1) >> 1;
		c1_out[c_step * k] = (a[4 * k + c1] + b[4 * k + c1] + 1) >> 1;
	}
}

static inline __attribute__((always_inline)) void
packed422_to_420(const struct hqv_job *job, uint32_t y, const size_t y0,
		 const size_t c0, const size_t c1)
{
	const struct hqv_format *d = job->dst.fmt;
	const uint8_t *a = hqv_row(&job->src, 0, y), *b = hqv_row(&job->src, 0, y + 1);
	uint8_t *ya = hqv_row(&job->dst, 0, y), *yb = hqv_row(&job->dst, 0, y + 1);
	const size_t pairs = job->src.width / 2;

	if (d->family == HQV_FAMILY_SEMIPLANAR) {
		uint8_t *c = hqv_row(&job->dst, 1, y / 2);

		packed422_rows(a, b, ya, yb, c, c + 1, 2, pairs, y0, c0, c1);
	} else {
		packed422_rows(a, b, ya, yb, hqv_row(&job->dst, d->order[1], y / 2),
			       hqv_row(&job->dst, d->order[2], y / 2), 1, pairs, y0,
			       c0, c1);
	}
}

/* Named by the source bytes of the luma and of the chroma written first. */
#define PACKED422_TO_420(name, y0, c0, c1)				\
static HQV_ROW_CLONES void name(const struct hqv_job *job,		\
				void *scratch, uint32_t y)		\
{									\
	packed422_to_420(job, y, y0, c0, c1);				\
}

PACKED422_TO_420(packed422_to_420_013, 0, 1, 3)
PACKED422_TO_420(packed422_to_420_031, 0, 3, 1)
PACKED422_TO_420(packed422_to_420_102, 1, 0, 2)
PACKED422_TO_420(packed422_to_420_120, 1, 2, 0)

/*
 * Y'CbCr to 24- or 32-bit R'G'B', two simple loops per row. The pipeline
 * computes, for each pixel, the clamped sample
 *   v = clamp((m0 Y + m1 Cb + m2 Cr + off + 2^11) >> 12, 0, 255 << 6)
 * and the code value (v + 2^5) >> 6, with Y = luma << 6 and Cb, Cr
 * interpolated down (3/4 of the own chroma row, 1/4 of the neighbour's:
 * multiples of 16) and then across (an odd column the rounded mean of the
 * two around it). That equals
 *   clamp((m0 Y + T + 2^17) >> 18, 0, 255),  T = m1 Cb + m2 Cr + off + 2^11
 * (a floor of a floor is one floor, and whatever v the clamp moves rounds
 * to 0 or past 255 alike). T is linear in Cb and Cr, and an odd column's
 * chroma is an exact mean (the sum of two multiples of 16 is even), so its
 * T is the exact mean of its neighbours' T: the first loop computes T for
 * each chroma sample, six products per sample instead of per pixel, and
 * the second adds the luma term, the same for R, G and B (Y'CbCr to R'G'B'
 * weighs luma alike in all three; other matrices take the pipeline), and
 * stores bytes at offsets that are constants in each wrapper.
 */

/* Elements per scratch array: whole 32-byte vectors, one spare sample. */
static size_t terms_stride(uint32_t width)
{
	return ((size_t)width + 1 + 7) & ~(size_t)7;
}

/* The plan's matrix in registers: uint8_t stores could alias the plan. */
struct terms_matrix {
	int32_t luma;		/* m0 << HQV_FRAC_BITS, for code values */
	int32_t cb[3], cr[3];	/* R, G, B */
	int32_t off[3];		/* with both roundings */
};

/*
 * T of R, G and B for count chroma samples, step bytes apart in rows a
 * (this chroma row) and b (its neighbour). Where chroma is not subsampled
 * down, b is a, and (3 a + a) * HQV_ONE / 4 is a * HQV_ONE: one expression
 * serves both. t[count] repeats the last, the clamped right neighbour.
 */
static inline __attribute__((always_inline)) void
chroma_terms(const struct terms_matrix *mx, const uint8_t *restrict a_cb,
	     const uint8_t *restrict b_cb, const uint8_t *restrict a_cr,
	     const uint8_t *restrict b_cr, size_t count, const size_t step,
	     int32_t *restrict tr, int32_t *restrict tg, int32_t *restrict tb)
{
	const int32_t r1 = mx->cb[0], r2 = mx->cr[0], r0 = mx->off[0];
	const int32_t g1 = mx->cb[1], g2 = mx->cr[1], g0 = mx->off[1];
	const int32_t b1 = mx->cb[2], b2 = mx->cr[2], b0 = mx->off[2];
	size_t k;

	for (k = 0; k < count; k++) {
		int32_t cb = (3 * a_cb[k * step] + b_cb[k * step]) *
			     (HQV_ONE / 4);
		int32_t cr = (3 * a_cr[k * step] + b_cr[k * step]) *
			     (HQV_ONE / 4);

		tr[k] = r1 * cb + r2 * cr + r0;
		tg[k] = g1 * cb + g2 * cr + g0;
		tb[k] = b1 * cb + b2 * cr + b0;
	}
	tr[count] = tr[count - 1];
	tg[count] = tg[count - 1];
	tb[count] = tb[count - 1];
}

/*
 * The chroma terms of source row y, and where its lumas are, one byte
 * apart: in the source, or picked out of a packed row into lbuf.
 */
static HQV_ROW_CLONES void
yuv_terms(const struct hqv_job *job, const struct terms_matrix *mx,
	  uint32_t y, uint8_t *restrict lbuf, int32_t *tr, int32_t *tg,
	  int32_t *tb, const uint8_t **lumas)
{
	const size_t w = job->src.width;
	struct hqv_yuv_row row;
	const uint8_t *luma;
	size_t x;

	hqv_yuv_row_init(&row, job, &job->src, y);
	luma = row.y;
	if (row.y_step != 1) {
		const uint8_t *restrict packed = row.y;

		for (x = 0; x < w; x++)
			lbuf[x] = packed[2 * x];
		luma = lbuf;
	}
	/* The step as a constant in each loop, by family. */
	switch (row.c_step) {
	case 1:
		chroma_terms(mx, row.cb[0], row.cb[1], row.cr[0], row.cr[1],
			     row.c_count, 1, tr, tg, tb);
		break;
	case 2:
		chroma_terms(mx, row.cb[0], row.cb[1], row.cr[0], row.cr[1],
			     row.c_count, 2, tr, tg, tb);
		break;
	default:
		chroma_terms(mx, row.cb[0], row.cb[1], row.cr[0], row.cr[1],
			     row.c_count, 4, tr, tg, tb);
		break;
	}
	*lumas = luma;
}

/* A code value from a sum that holds both roundings. */
static inline __attribute__((always_inline)) uint32_t
code_of(int32_t v)
{
	v >>= HQV_MATRIX_BITS + HQV_FRAC_BITS;
	v = v < 0 ? 0 : v;
	return v > 255 ? 255 : v;
}

/* A byte at memory offset o of a 32-bit word, in the CPU's byte order. */
static inline __attribute__((always_inline)) uint32_t
byte_at(uint32_t v, const size_t o)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return v << (8 * (3 - o));
#else
	return v << (8 * o);
#endif
}

/*
 * One pixel from its luma term and chroma terms, at out: one 32-bit word,
 * so that the vectoriser stores it whole rather than byte by byte.
 */
static inline __attribute__((always_inline)) void
rgb_pixel(uint8_t *restrict out, int32_t yt, int32_t r, int32_t g,
	  int32_t b, const size_t o_r, const size_t o_g, const size_t o_b,
	  uint32_t extra)
{
	uint32_t v = byte_at(code_of(yt + r), o_r) |
		     byte_at(code_of(yt + g), o_g) |
		     byte_at(code_of(yt + b), o_b) |
		     byte_at(extra, 6 - o_r - o_g - o_b);

	memcpy(out, &v, 4);
}

/* A row of w pixels from lumas and terms; half: chroma every other pixel. */
static inline __attribute__((always_inline)) void
terms_to_rgb(const uint8_t *restrict luma, const int32_t *restrict tr,
	     const int32_t *restrict tg, const int32_t *restrict tb,
	     uint8_t *restrict out, const size_t w, const int32_t ly,
	     const bool half, const size_t o_r, const size_t o_g,
	     const size_t o_b, const uint32_t extra)
{
	size_t k;

	if (!half) {
		for (k = 0; k < w; k++)
			rgb_pixel(out + 4 * k, ly * luma[k], tr[k], tg[k],
				  tb[k], o_r, o_g, o_b, extra);
		return;
	}
	/* The odd pixel's terms: the exact mean of its neighbours'. */
	for (k = 0; k < w / 2; k++) {
		rgb_pixel(out + 8 * k, ly * luma[2 * k], tr[k], tg[k], tb[k],
			  o_r, o_g, o_b, extra);
		rgb_pixel(out + 8 * k + 4, ly * luma[2 * k + 1],
			  (tr[k] + tr[k + 1]) >> 1, (tg[k] + tg[k + 1]) >> 1,
			  (tb[k] + tb[k + 1]) >> 1, o_r, o_g, o_b, extra);
	}
}

/* 24-bit pixels from 32-bit ones: a loop of its own that vectorises. */
static inline __attribute__((always_inline)) void
rgb32_to_24(const uint8_t *restrict in, uint8_t *restrict out, size_t w)
{
	size_t x;

	for (x = 0; x < w; x++) {
		out[3 * x] = in[4 * x];
		out[3 * x + 1] = in[4 * x + 1];
		out[3 * x + 2] = in[4 * x + 2];
	}
}

static inline __attribute__((always_inline)) void
yuv_to_rgb_rows(const struct hqv_job *job, void *scratch, uint32_t y,
		const size_t bpp, const size_t o_r, const size_t o_g,
		const size_t o_b)
{
	const struct hqv_plan *plan = &job->plan;
	const uint32_t w = job->src.width;
	const size_t stride = terms_stride(w);
	const uint32_t extra = hqv_format_has_alpha(job->dst.fmt) ?
			       job->alpha : 0xff;
	const bool half = job->src.fmt->hsub == 2;
	int32_t *tr = scratch, *tg = tr + stride, *tb = tg + stride;
	uint8_t *lbuf = (uint8_t *)(tb + stride);
	/* 24-bit rows are built as 32-bit ones first, bytes 0 to 2. */
	uint8_t *wbuf = lbuf + 4 * stride;
	struct terms_matrix mx;
	unsigned int i;
	uint32_t r;

	mx.luma = plan->matrix[0][0] * HQV_ONE;
	for (i = 0; i < 3; i++) {
		mx.cb[i] = plan->matrix[i][1];
		mx.cr[i] = plan->matrix[i][2];
		mx.off[i] = plan->offset[i] + (1 << (HQV_MATRIX_BITS - 1)) +
			    (1 << (HQV_MATRIX_BITS + HQV_FRAC_BITS - 1));
	}
	for (r = 0; r < 2; r++) {
		const uint8_t *luma;

		yuv_terms(job, &mx, y + r, lbuf, tr, tg, tb, &luma);

		if (bpp == 4) {
			terms_to_rgb(luma, tr, tg, tb, hqv_row(&job->dst, 0, y + r),
				     w, mx.luma, half, o_r, o_g, o_b, extra);
		} else {
			terms_to_rgb(luma, tr, tg, tb, wbuf, w, mx.luma, half,
				     o_r, o_g, o_b, extra);
			rgb32_to_24(wbuf, hqv_row(&job->dst, 0, y + r), w);
		}
	}
}

/* Named by the destination's bytes per pixel and bytes of R, G and B. */
#define YUV_TO_RGB(name, bpp, o_r, o_g, o_b)				\
static HQV_ROW_CLONES void name(const struct hqv_job *job,		\
				void *scratch, uint32_t y)		\
{									\
	yuv_to_rgb_rows(job, scratch, y, bpp, o_r, o_g, o_b);		\
}

YUV_TO_RGB(yuv_to_rgb_3_012, 3, 0, 1, 2)
YUV_TO_RGB(yuv_to_rgb_3_210, 3, 2, 1, 0)
YUV_TO_RGB(yuv_to_rgb_4_012, 4, 0, 1, 2)
YUV_TO_RGB(yuv_to_rgb_4_123, 4, 1, 2, 3)
YUV_TO_RGB(yuv_to_rgb_4_210, 4, 2, 1, 0)
YUV_TO_RGB(yuv_to_rgb_4_321, 4, 3, 2, 1)

static hqv_direct_fn *yuv_to_rgb_find(const struct hqv_job *job,
				      size_t *scratch)
{
	const struct hqv_format *d = job->dst.fmt;
	const int32_t(*m)[3] = job->plan.matrix;

	/* The luma term is computed once for R, G and B. */
	if (m[1][0] != m[0][0] || m[2][0] != m[0][0])
		return NULL;
	/* Terms, packed lumas, 24-bit destinations' 32-bit row. */
	*scratch = terms_stride(job->src.width) * (3 * sizeof(int32_t) + 8);
	switch (d->bytes_per_group[0] << 12 | d->order[0] << 8 |
		d->order[1] << 4 | d->order[2]) {
	case 0x3012:
		return yuv_to_rgb_3_012;
	case 0x3210:
		return yuv_to_rgb_3_210;
	case 0x4012:
		return yuv_to_rgb_4_012;
	case 0x4123:
		return yuv_to_rgb_4_123;
	case 0x4210:
		return yuv_to_rgb_4_210;
	case 0x4321:
		return yuv_to_rgb_4_321;
	}
	return NULL;
}

/*
 * 24- or 32-bit R'G'B' to Y'CbCr, the pipeline's arithmetic in simple
 * loops. The first, one per source byte order, puts each pixel of a row
 * through the matrix: luma straight to code values (clamping and the two
 * roundings folded into one shift, as for Y'CbCr to R'G'B' above), Cb and
 * Cr to clamped samples in scratch arrays, since chroma is averaged before
 * it is rounded. The second averages chroma down as hqv-pack.c does: the
 * [1 2 1] / 4 filter across (left index clamped; the right one never
 * needs it, widths being even) over the sum of the row pair for 4:2:0,
 * all in one rounding, and stores the code values in the destination's
 * layout.
 */

/* Samples per scratch array: whole 32-byte vectors. */
static size_t samples_stride(uint32_t width)
{
	return ((size_t)width + 15) & ~(size_t)15;
}

/*
 * The plan's matrix in registers, applied to code values rather than
 * samples (code << 6): (64 s + o) >> n is (s + (o >> 6)) >> (n - 6) for
 * n >= 6, since the bits o loses are less than one step of 64 s.
 */
struct rgb_matrix {
	int32_t m[3][3];
	int32_t o[3];		/* with the roundings, >> HQV_FRAC_BITS */
};

/* A byte at memory offset o of a 32-bit word, in the CPU's byte order. */
static inline __attribute__((always_inline)) uint32_t
byte_of(uint32_t v, const size_t o)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return (v >> (8 * (3 - o))) & 0xff;
#else
	return (v >> (8 * o)) & 0xff;
#endif
}

/* A clamped sample from a sum over code values. */
static inline __attribute__((always_inline)) uint16_t
clamp_shift(int32_t v)
{
	return hqv_clamp_sample(v >> (HQV_MATRIX_BITS - HQV_FRAC_BITS));
}

/* A code value from a sum over code values that holds both roundings. */
static inline __attribute__((always_inline)) uint32_t
code_of_codes(int32_t v)
{
	v >>= HQV_MATRIX_BITS;
	v = v < 0 ? 0 : v;
	return v > 255 ? 255 : v;
}

/*
 * One row of w pixels to luma codes and chroma samples; with add, the
 * samples are added to those cb and cr hold (a row pair's sums for 4:2:0,
 * at most 2 * 255 << 6).
 */
static inline __attribute__((always_inline)) void
rgb_to_samples(const struct rgb_matrix *mx, const uint8_t *restrict in,
	       uint8_t *restrict yc, uint16_t *restrict cb,
	       uint16_t *restrict cr, const size_t w, const size_t bpp,
	       const size_t o_r, const size_t o_g, const size_t o_b,
	       const bool add)
{
	const int32_t m00 = mx->m[0][0], m01 = mx->m[0][1], m02 = mx->m[0][2];
	const int32_t m10 = mx->m[1][0], m11 = mx->m[1][1], m12 = mx->m[1][2];
	const int32_t m20 = mx->m[2][0], m21 = mx->m[2][1], m22 = mx->m[2][2];
	const int32_t o0 = mx->o[0], o1 = mx->o[1], o2 = mx->o[2];
	size_t x;

	for (x = 0; x < w; x++) {
		int32_t r, g, b;

		if (bpp == 4) {
			/* One 32-bit load: the vectoriser reads it whole. */
			uint32_t v;

			memcpy(&v, in + 4 * x, 4);
			r = byte_of(v, o_r);
			g = byte_of(v, o_g);
			b = byte_of(v, o_b);
		} else {
			r = in[bpp * x + o_r];
			g = in[bpp * x + o_g];
			b = in[bpp * x + o_b];
		}
		yc[x] = code_of_codes(m00 * r + m01 * g + m02 * b + o0);
		cb[x] = (add ? cb[x] : 0) +
			clamp_shift(m10 * r + m11 * g + m12 * b + o1);
		cr[x] = (add ? cr[x] : 0) +
			clamp_shift(m20 * r + m21 * g + m22 * b + o2);
	}
}

/*
 * cw chroma codes from the samples of one row, or from the sums of a row
 * pair's (rows 2), by [1 2 1] / 4 across and one rounding; every step
 * bytes, step a constant in each caller.
 */
static inline __attribute__((always_inline)) void
chroma_down(const uint16_t *restrict a, uint8_t *restrict out,
	    const size_t cw, const size_t step, const unsigned int rows)
{
	const unsigned int shift = HQV_FRAC_BITS + 1 + rows;
	const uint32_t half = 1u << (shift - 1);
	size_t k;

	out[0] = (3 * a[0] + a[1] + half) >> shift;
	for (k = 1; k < cw; k++)
		out[k * step] = (a[2 * k - 1] + 2 * a[2 * k] + a[2 * k + 1] +
				 half) >> shift;
}

/* Chroma not subsampled across: each sample rounded to its code. */
static inline __attribute__((always_inline)) void
chroma_codes(const uint16_t *restrict a, uint8_t *restrict out,
	     const size_t cw, const size_t step)
{
	size_t k;

	for (k = 0; k < cw; k++)
		out[k * step] = (a[k] + HQV_ONE / 2) >> HQV_FRAC_BITS;
}

/* Packed 4:2:2 from luma codes and chroma codes, y0: the first luma's byte. */
static inline __attribute__((always_inline)) void
pack422(const uint8_t *restrict yc, const uint8_t *restrict c0,
	const uint8_t *restrict c1, uint8_t *restrict out, const size_t cw,
	const size_t y0)
{
	const size_t c = 1 - y0;
	size_t k;

	for (k = 0; k < cw; k++) {
		out[4 * k + y0] = yc[2 * k];
		out[4 * k + y0 + 2] = yc[2 * k + 1];
		out[4 * k + c] = c0[k];
		out[4 * k + c + 2] = c1[k];
	}
}

/*
 * The destination's chroma (and luma, when packed) for rows y and y + 1
 * from the scratch of rgb_to_yuv_rows(): lumas yc[2], samples cb[2], cr[2].
 */
static HQV_ROW_CLONES void
yuv_from_samples(const struct hqv_job *job, uint32_t y, uint8_t *const yc[2],
		 const uint16_t *const cb[2], const uint16_t *const cr[2],
		 uint8_t *restrict tmp)
{
	const struct hqv_format *d = job->dst.fmt;
	const size_t w = job->dst.width, cw = w / d->hsub;
	unsigned int r;

	if (d->family == HQV_FAMILY_GREY)
		return;
	if (d->vsub == 2) {
		/* 4:2:0: one chroma row from the pair. */
		if (d->family == HQV_FAMILY_SEMIPLANAR) {
			uint8_t *c = hqv_row(&job->dst, 1, y / 2);

			chroma_down(cb[0], c + d->order[0], cw, 2, 2);
			chroma_down(cr[0], c + d->order[1], cw, 2, 2);
		} else {
			uint8_t *pb = hqv_row(&job->dst, d->order[1], y / 2);
			uint8_t *pr = hqv_row(&job->dst, d->order[2], y / 2);

			chroma_down(cb[0], pb, cw, 1, 2);
			chroma_down(cr[0], pr, cw, 1, 2);
		}
		return;
	}
	for (r = 0; r < 2; r++) {
		if (d->family == HQV_FAMILY_PACKED_YUV) {
			/* Chroma codes into scratch, then one interleave. */
			uint8_t *c0 = tmp, *c1 = tmp + cw;
			const uint16_t *s0 = cb[r], *s1 = cr[r];

			/* Chroma byte first: Cb (YUYV, UYVY), Cr (YVYU). */
			if (d->order[3] < d->order[1]) {
				s0 = cr[r];
				s1 = cb[r];
			}
			chroma_down(s0, c0, cw, 1, 1);
			chroma_down(s1, c1, cw, 1, 1);
			if (d->order[0] == 0)
				pack422(yc[r], c0, c1, hqv_row(&job->dst, 0, y + r),
					cw, 0);
			else
				pack422(yc[r], c0, c1, hqv_row(&job->dst, 0, y + r),
					cw, 1);
		} else if (d->family == HQV_FAMILY_SEMIPLANAR) {
			uint8_t *c = hqv_row(&job->dst, 1, y + r);

			uint8_t *pb = c + d->order[0], *pr = c + d->order[1];

			if (d->hsub == 2) {
				chroma_down(cb[r], pb, cw, 2, 1);
				chroma_down(cr[r], pr, cw, 2, 1);
			} else {
				chroma_codes(cb[r], pb, cw, 2);
				chroma_codes(cr[r], pr, cw, 2);
			}
		} else {
			uint8_t *pb = hqv_row(&job->dst, d->order[1], y + r);
			uint8_t *pr = hqv_row(&job->dst, d->order[2], y + r);

			if (d->hsub == 2) {
				chroma_down(cb[r], pb, cw, 1, 1);
				chroma_down(cr[r], pr, cw, 1, 1);
			} else {
				chroma_codes(cb[r], pb, cw, 1);
				chroma_codes(cr[r], pr, cw, 1);
			}
		}
	}
}

static inline __attribute__((always_inline)) void
rgb_to_yuv_rows(const struct hqv_job *job, void *scratch, uint32_t y,
		const size_t bpp, const size_t o_r, const size_t o_g,
		const size_t o_b)
{
	const struct hqv_plan *plan = &job->plan;
	const size_t w = job->src.width, stride = samples_stride(w);
	const bool packed = job->dst.fmt->family == HQV_FAMILY_PACKED_YUV;
	uint16_t *cb[2], *cr[2];
	uint8_t *yc[2], *tmp;
	struct rgb_matrix mx;
	unsigned int i, j, r;

	cb[0] = scratch;
	cr[0] = cb[0] + stride;
	cb[1] = cr[0] + stride;
	cr[1] = cb[1] + stride;
	yc[0] = (uint8_t *)(cr[1] + stride);
	yc[1] = yc[0] + stride;
	tmp = yc[1] + stride;
	for (i = 0; i < 3; i++) {
		for (j = 0; j < 3; j++)
			mx.m[i][j] = plan->matrix[i][j];
		mx.o[i] = plan->offset[i] + (1 << (HQV_MATRIX_BITS - 1));
	}
	mx.o[0] += 1 << (HQV_MATRIX_BITS + HQV_FRAC_BITS - 1);
	for (i = 0; i < 3; i++)
		mx.o[i] >>= HQV_FRAC_BITS;
	for (r = 0; r < 2; r++)
		if (!packed)
			yc[r] = hqv_row(&job->dst, 0, y + r);
	if (job->dst.fmt->vsub == 2) {
		/* 4:2:0 wants only the pair's sums: the second row adds. */
		rgb_to_samples(&mx, hqv_row(&job->src, 0, y), yc[0], cb[0], cr[0],
			       w, bpp, o_r, o_g, o_b, false);
		rgb_to_samples(&mx, hqv_row(&job->src, 0, y + 1), yc[1], cb[0], cr[0],
			       w, bpp, o_r, o_g, o_b, true);
	} else {
		for (r = 0; r < 2; r++)
			rgb_to_samples(&mx, hqv_row(&job->src, 0, y + r), yc[r],
				       cb[r], cr[r], w, bpp, o_r, o_g, o_b,
				       false);
	}
	yuv_from_samples(job, y, yc, (const uint16_t *const *)cb,
			 (const uint16_t *const *)cr, tmp);
}

/* Named by the source's bytes per pixel and bytes of R, G and B. */
#define RGB_TO_YUV(name, bpp, o_r, o_g, o_b)				\
static HQV_ROW_CLONES void name(const struct hqv_job *job,		\
				void *scratch, uint32_t y)		\
{									\
	rgb_to_yuv_rows(job, scratch, y, bpp, o_r, o_g, o_b);		\
}

RGB_TO_YUV(rgb_to_yuv_3_012, 3, 0, 1, 2)
RGB_TO_YUV(rgb_to_yuv_3_210, 3, 2, 1, 0)
RGB_TO_YUV(rgb_to_yuv_4_012, 4, 0, 1, 2)
RGB_TO_YUV(rgb_to_yuv_4_123, 4, 1, 2, 3)
RGB_TO_YUV(rgb_to_yuv_4_210, 4, 2, 1, 0)
RGB_TO_YUV(rgb_to_yuv_4_321, 4, 3, 2, 1)

static hqv_direct_fn *rgb_to_yuv_find(const struct hqv_job *job,
				      size_t *scratch)
{
	const struct hqv_format *s = job->src.fmt;

	/* Four sample arrays, two luma rows and packed chroma codes. */
	*scratch = samples_stride(job->src.width) *
		   (4 * sizeof(uint16_t) + 3);
	switch (s->bytes_per_group[0] << 12 | s->order[0] << 8 |
		s->order[1] << 4 | s->order[2]) {
	case 0x3012:
		return rgb_to_yuv_3_012;
	case 0x3210:
		return rgb_to_yuv_3_210;
	case 0x4012:
		return rgb_to_yuv_4_012;
	case 0x4123:
		return rgb_to_yuv_4_123;
	case 0x4210:
		return rgb_to_yuv_4_210;
	case 0x4321:
		return rgb_to_yuv_4_321;
	}
	return NULL;
}

/* Whether a job keeps every pixel in its place. */
bool hqv_job_whole(const struct hqv_job *job)
{
	return job->crop.left == 0 && job->crop.top == 0 &&
	       job->crop.width == job->src.width &&
	       job->crop.height == job->src.height &&
	       job->compose.left == 0 && job->compose.top == 0 &&
	       job->compose.width == job->dst.width &&
	       job->compose.height == job->dst.height &&
	       job->src.width == job->dst.width &&
	       job->src.height == job->dst.height;
}

static bool in_place(const struct hqv_job *job)
{
	return job->src.field == HQV_FIELD_NONE &&
	       job->rotation == 0 && !job->hflip && !job->vflip &&
	       hqv_job_whole(job);
}

hqv_direct_fn *hqv_direct_find(const struct hqv_job *job, size_t *scratch)
{
	hqv_direct_fn *fn;

	*scratch = 0;
	if (in_place(job))
		return hqv_direct_place_find(job, scratch);
	fn = hqv_direct_turn_find(job, scratch);
	if (!fn)
		fn = hqv_direct_flip_find(job, scratch);
	return fn ? fn : hqv_direct_scale_find(job, scratch);
}

hqv_direct_fn *hqv_direct_place_find(const struct hqv_job *job,
				     size_t *scratch)
{
	const struct hqv_format *s = job->src.fmt, *d = job->dst.fmt;

	*scratch = 0;
	if (s->is_yuv && s->family != HQV_FAMILY_GREY &&
	    d->family == HQV_FAMILY_RGB)
		return yuv_to_rgb_find(job, scratch);
	if (s->family == HQV_FAMILY_RGB && d->is_yuv)
		return rgb_to_yuv_find(job, scratch);
	if (!job->plan.identity)
		return NULL;
	/* Padding bytes (XRGB32's X) are written 0xff, not copied. */
	if (s == d && !(s->family == HQV_FAMILY_RGB &&
			s->bytes_per_group[0] == 4 && !hqv_format_has_alpha(s)))
		return copy_pair;
	if (s->family == HQV_FAMILY_PACKED_YUV && d->vsub == 2 &&
	    d->hsub == 2 && job->plan.chroma_copy_h) {
		/*
		 * The source byte of the chroma written first: Cr for NV21,
		 * else Cb (planar ones take their planes' order from the
		 * plane pointers).
		 */
		uint32_t c0 = s->order[d->family == HQV_FAMILY_SEMIPLANAR &&
				       d->order[0] ? 3 : 1];

		switch (s->order[0] << 4 | c0) {
		case 0x01:
			return packed422_to_420_013;
		case 0x03:
			return packed422_to_420_031;
		case 0x10:
			return packed422_to_420_102;
		case 0x12:
			return packed422_to_420_120;
		}
	}
	return NULL;
}
