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

static const uint8_t *src_row(const struct hqv_job *job, unsigned int p,
			      uint32_t row)
{
	return job->src.planes[p] + (size_t)row * job->src.bytesperline[p];
}

static uint8_t *dst_row(const struct hqv_job *job, unsigned int p,
			uint32_t row)
{
	return job->dst.planes[p] + (size_t)row * job->dst.bytesperline[p];
}

/* The same format on both sides: each plane's lines are copied. */
static void copy_pair(const struct hqv_job *job, void *scratch, uint32_t y)
{
	const struct hqv_format *fmt = job->src.fmt;
	unsigned int p, r;

	for (p = 0; p < fmt->num_planes; p++) {
		uint32_t bytes = (p ? job->src.width / fmt->hsub :
				  job->src.width) * fmt->bytes_per_group[p];

		if (p && fmt->vsub == 2) {
			memcpy(dst_row(job, p, y / 2), src_row(job, p, y / 2),
			       bytes);
			continue;
		}
		for (r = 0; r < 2; r++)
			memcpy(dst_row(job, p, y + r), src_row(job, p, y + r),
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
	const uint8_t *a = src_row(job, 0, y), *b = src_row(job, 0, y + 1);
	uint8_t *ya = dst_row(job, 0, y), *yb = dst_row(job, 0, y + 1);
	const size_t pairs = job->src.width / 2;

	if (d->family == HQV_FAMILY_SEMIPLANAR) {
		uint8_t *c = dst_row(job, 1, y / 2);

		packed422_rows(a, b, ya, yb, c, c + 1, 2, pairs, y0, c0, c1);
	} else {
		packed422_rows(a, b, ya, yb, dst_row(job, d->order[1], y / 2),
			       dst_row(job, d->order[2], y / 2), 1, pairs, y0,
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
 * Y'CbCr to 24- or 32-bit R'G'B' in two passes per row, over scratch
 * arrays of the row's width, so that each pass is a simple loop. The first
 * unpacks the row into samples exactly as the pipeline does: luma << 6,
 * chroma interpolated down (3/4 of its own chroma row, 1/4 of the
 * neighbour) and then across (an odd column takes the rounded mean of the
 * two around it). With an R'G'B' destination chroma is never copied, so
 * it is interpolated whenever it is subsampled. The second pass puts each
 * pixel through the plan's matrix, clamps, rounds to code values and
 * stores them at the destination's byte offsets, constants in each of its
 * wrappers.
 */

/* Samples per scratch array: whole 32-byte vectors. */
static size_t samples_stride(uint32_t width)
{
	return ((size_t)width + 15) & ~(size_t)15;
}

/*
 * One chroma channel up-sampled to luma columns, from count samples step
 * bytes apart in rows a (this chroma row) and b (its neighbour). Where
 * chroma is not subsampled down, b is a, and (3 a + a) * HQV_ONE / 4 is
 * a * HQV_ONE: one expression serves both.
 */
static inline __attribute__((always_inline)) void
chroma_up(const uint8_t *restrict a, const uint8_t *restrict b,
	  uint16_t *restrict out, size_t count, const size_t step,
	  const bool half)
{
	size_t k;

	if (!half) {
		for (k = 0; k < count; k++)
			out[k] = (3 * a[k * step] + b[k * step]) * (HQV_ONE / 4);
		return;
	}
	for (k = 0; k + 1 < count; k++) {
		uint32_t v0 = (3 * a[k * step] + b[k * step]) * (HQV_ONE / 4);
		uint32_t v1 = (3 * a[(k + 1) * step] + b[(k + 1) * step]) *
			      (HQV_ONE / 4);

		out[2 * k] = v0;
		out[2 * k + 1] = (v0 + v1 + 1) >> 1;
	}
	/* The last odd column's right neighbour is clamped to its left one,
	 * and the mean of a sample with itself is the sample. */
	out[2 * k] = out[2 * k + 1] =
		(3 * a[k * step] + b[k * step]) * (HQV_ONE / 4);
}

static inline __attribute__((always_inline)) void
chroma_up_pair(const struct hqv_yuv_row *r, uint16_t *restrict cb,
	       uint16_t *restrict cr, const size_t step)
{
	bool half = r->hdiv == 2;

	chroma_up(r->cb[0], r->cb[1], cb, r->c_count, step, half);
	chroma_up(r->cr[0], r->cr[1], cr, r->c_count, step, half);
}

/* Row y of the source as 4:4:4 samples, the pipeline's hqv_unpack(). */
static HQV_ROW_CLONES void
yuv_samples(const struct hqv_job *job, uint32_t y, uint16_t *restrict ys,
	    uint16_t *restrict cb, uint16_t *restrict cr)
{
	const size_t w = job->src.width;
	struct hqv_yuv_row row;
	size_t x;

	hqv_yuv_row_init(&row, job, &job->src, y);
	if (row.y_step == 1) {
		const uint8_t *restrict luma = row.y;

		for (x = 0; x < w; x++)
			ys[x] = luma[x] * HQV_ONE;
	} else {
		const uint8_t *restrict luma = row.y;

		for (x = 0; x < w; x++)
			ys[x] = luma[2 * x] * HQV_ONE;
	}
	/* The step as a constant in each loop, by family. */
	switch (row.c_step) {
	case 1:
		chroma_up_pair(&row, cb, cr, 1);
		break;
	case 2:
		chroma_up_pair(&row, cb, cr, 2);
		break;
	default:
		chroma_up_pair(&row, cb, cr, 4);
		break;
	}
}

/* The plan's matrix in registers: uint8_t stores could alias the plan. */
struct matrix {
	int32_t m[3][3];
	int32_t o[3];
};

static void matrix_of(const struct hqv_job *job, struct matrix *mx)
{
	unsigned int i;

	memcpy(mx->m, job->plan.matrix, sizeof(mx->m));
	for (i = 0; i < 3; i++)
		mx->o[i] = job->plan.offset[i] + (1 << (HQV_MATRIX_BITS - 1));
}

/* One sample through a row of the matrix, clamped, rounded to code. */
static inline __attribute__((always_inline)) uint8_t
matrix_code(int32_t m0, int32_t m1, int32_t m2, int32_t o, int32_t a,
	    int32_t b, int32_t c)
{
	int32_t v = (m0 * a + m1 * b + m2 * c + o) >> HQV_MATRIX_BITS;

	v = v < 0 ? 0 : v;
	v = v > HQV_MAX_SAMPLE ? HQV_MAX_SAMPLE : v;
	return (v + HQV_ONE / 2) >> HQV_FRAC_BITS;
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

/* w pixels of samples to R'G'B' bytes; the fourth byte (bpp 4) is extra. */
static inline __attribute__((always_inline)) void
samples_to_rgb(const struct matrix *mx, const uint16_t *restrict ys,
	       const uint16_t *restrict cb, const uint16_t *restrict cr,
	       uint8_t *restrict out, const size_t w, const size_t bpp,
	       const size_t o_r, const size_t o_g, const size_t o_b,
	       const uint8_t extra)
{
	const int32_t m00 = mx->m[0][0], m01 = mx->m[0][1], m02 = mx->m[0][2];
	const int32_t m10 = mx->m[1][0], m11 = mx->m[1][1], m12 = mx->m[1][2];
	const int32_t m20 = mx->m[2][0], m21 = mx->m[2][1], m22 = mx->m[2][2];
	const int32_t o0 = mx->o[0], o1 = mx->o[1], o2 = mx->o[2];
	const size_t fourth = 6 - o_r - o_g - o_b;
	size_t x;

	if (bpp == 4) {
		/* Each pixel as one 32-bit word, whose memory order the shifts
		 * give: the vectoriser stores it whole rather than by bytes. */
		for (x = 0; x < w; x++) {
			int32_t a = ys[x], b = cb[x], c = cr[x];
			uint32_t v = byte_at(matrix_code(m00, m01, m02, o0, a, b, c), o_r) |
				     byte_at(matrix_code(m10, m11, m12, o1, a, b, c), o_g) |
				     byte_at(matrix_code(m20, m21, m22, o2, a, b, c), o_b) |
				     byte_at(extra, fourth);

			memcpy(out + 4 * x, &v, 4);
		}
		return;
	}
	for (x = 0; x < w; x++) {
		int32_t a = ys[x], b = cb[x], c = cr[x];

		out[bpp * x + o_r] = matrix_code(m00, m01, m02, o0, a, b, c);
		out[bpp * x + o_g] = matrix_code(m10, m11, m12, o1, a, b, c);
		out[bpp * x + o_b] = matrix_code(m20, m21, m22, o2, a, b, c);
	}
}

static inline __attribute__((always_inline)) void
yuv_to_rgb_rows(const struct hqv_job *job, void *scratch, uint32_t y,
		const size_t bpp, const size_t o_r, const size_t o_g,
		const size_t o_b)
{
	const uint32_t w = job->src.width;
	const size_t stride = samples_stride(w);
	const uint8_t extra = hqv_format_has_alpha(job->dst.fmt) ?
			      job->alpha : 0xff;
	uint16_t *ys = scratch, *cb = ys + stride, *cr = cb + stride;
	struct matrix mx;
	uint32_t r;

	matrix_of(job, &mx);
	for (r = 0; r < 2; r++) {
		yuv_samples(job, y + r, ys, cb, cr);
		samples_to_rgb(&mx, ys, cb, cr, dst_row(job, 0, y + r), w, bpp,
			       o_r, o_g, o_b, extra);
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

static hqv_direct_fn *yuv_to_rgb_find(const struct hqv_format *d)
{
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

/* Whether a job keeps every pixel in its place. */
static bool in_place(const struct hqv_job *job)
{
	return job->src.field == HQV_FIELD_NONE &&
	       job->rotation == 0 && !job->hflip && !job->vflip &&
	       job->crop.left == 0 && job->crop.top == 0 &&
	       job->crop.width == job->src.width &&
	       job->crop.height == job->src.height &&
	       job->compose.left == 0 && job->compose.top == 0 &&
	       job->compose.width == job->dst.width &&
	       job->compose.height == job->dst.height &&
	       job->src.width == job->dst.width &&
	       job->src.height == job->dst.height;
}

hqv_direct_fn *hqv_direct_find(const struct hqv_job *job, size_t *scratch)
{
	const struct hqv_format *s = job->src.fmt, *d = job->dst.fmt;

	*scratch = 0;
	if (!in_place(job))
		return NULL;
	if (s->is_yuv && s->family != HQV_FAMILY_GREY &&
	    d->family == HQV_FAMILY_RGB) {
		*scratch = 3 * samples_stride(job->src.width) *
			   sizeof(uint16_t);
		return yuv_to_rgb_find(d);
	}
	if (!job->plan.identity)
		return NULL;
	/* Padding bytes (XRGB32's X) are written 0xff, not copied. */
	if (s == d && !(s->family == HQV_FAMILY_RGB &&
			s->bytes_per_group[0] == 4 && !hqv_format_has_alpha(s)))
		return copy_pair;
	if (s->family == HQV_FAMILY_PACKED_YUV && d->vsub == 2 &&
	    d->hsub == 2 && job->plan.chroma_copy_h) {
		/* Cb and Cr swap places for NV21 (and for planar ones the
		 * plane pointers do), so the byte written first is: */
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
