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

/* Chroma sample k of a row in samples, interpolated down when subsampled. */
static inline uint32_t chroma_sample(const struct hqv_yuv_row *r,
				     const uint8_t *const c[2], uint32_t k)
{
	uint32_t off = k * r->c_step;

	return r->interp_v ? (3 * c[0][off] + c[1][off]) * (HQV_ONE / 4) :
			     c[0][off] * HQV_ONE;
}

/* The plan's matrix in registers: uint8_t stores could alias the plan. */
struct matrix {
	int32_t m[3][3];
	int32_t o[3];
};

/* One pixel through the matrix, rounded to code values. */
static inline void yuv_pixel_to_rgb(const struct matrix *mx, int32_t y,
				    int32_t cb, int32_t cr, uint8_t *out,
				    uint32_t o_r, uint32_t o_g, uint32_t o_b)
{
	int32_t r = (mx->m[0][0] * y + mx->m[0][1] * cb + mx->m[0][2] * cr +
		     mx->o[0]) >> HQV_MATRIX_BITS;
	int32_t g = (mx->m[1][0] * y + mx->m[1][1] * cb + mx->m[1][2] * cr +
		     mx->o[1]) >> HQV_MATRIX_BITS;
	int32_t b = (mx->m[2][0] * y + mx->m[2][1] * cb + mx->m[2][2] * cr +
		     mx->o[2]) >> HQV_MATRIX_BITS;

	out[o_r] = (hqv_clamp_sample(r) + HQV_ONE / 2) >> HQV_FRAC_BITS;
	out[o_g] = (hqv_clamp_sample(g) + HQV_ONE / 2) >> HQV_FRAC_BITS;
	out[o_b] = (hqv_clamp_sample(b) + HQV_ONE / 2) >> HQV_FRAC_BITS;
}

/*
 * Y'CbCr to 24- or 32-bit R'G'B' in one pass per row: the same sample
 * arithmetic as the pipeline (chroma interpolated across and down, the
 * plan's matrix, a clamp, one rounding), without its intermediate lines.
 * With chroma subsampled across, pixels go by pairs: the even one on its
 * chroma sample, the odd one between it and the next.
 */
static void yuv_to_rgb_pair(const struct hqv_job *job, void *scratch, uint32_t y)
{
	const struct hqv_format *d = job->dst.fmt;
	const uint32_t bpp = d->bytes_per_group[0];
	const uint32_t o_r = d->order[0], o_g = d->order[1], o_b = d->order[2];
	const uint32_t fourth = 6 - o_r - o_g - o_b;
	const uint8_t extra = hqv_format_has_alpha(d) ? job->alpha : 0xff;
	const uint32_t w = job->src.width;
	struct matrix mx;
	uint32_t r, x, i;

	memcpy(mx.m, job->plan.matrix, sizeof(mx.m));
	for (i = 0; i < 3; i++)
		mx.o[i] = job->plan.offset[i] + (1 << (HQV_MATRIX_BITS - 1));

	for (r = 0; r < 2; r++) {
		struct hqv_yuv_row row;
		uint8_t *restrict out = dst_row(job, 0, y + r);
		const uint8_t *luma;
		uint32_t step;

		hqv_yuv_row_init(&row, job, &job->src, y + r);
		luma = row.y;
		step = row.y_step;
		if (row.hdiv == 1) {
			for (x = 0; x < w; x++, out += bpp) {
				yuv_pixel_to_rgb(&mx, luma[x * step] * HQV_ONE,
						 chroma_sample(&row, row.cb, x),
						 chroma_sample(&row, row.cr, x),
						 out, o_r, o_g, o_b);
				if (bpp == 4)
					out[fourth] = extra;
			}
			continue;
		}
		{
			int32_t cb = chroma_sample(&row, row.cb, 0);
			int32_t cr = chroma_sample(&row, row.cr, 0);
			uint32_t k, last = row.c_count - 1;

			for (k = 0; k <= last; k++, out += 2 * bpp) {
				uint32_t k2 = k < last ? k + 1 : k;
				int32_t cb2 = chroma_sample(&row, row.cb, k2);
				int32_t cr2 = chroma_sample(&row, row.cr, k2);
				int32_t cbo = (cb + cb2 + 1) / 2;
				int32_t cro = (cr + cr2 + 1) / 2;

				yuv_pixel_to_rgb(&mx, luma[2 * k * step] * HQV_ONE,
						 cb, cr, out, o_r, o_g, o_b);
				yuv_pixel_to_rgb(&mx,
						 luma[(2 * k + 1) * step] * HQV_ONE,
						 row.interp_h ? cbo : cb,
						 row.interp_h ? cro : cr,
						 out + bpp, o_r, o_g, o_b);
				if (bpp == 4)
					out[fourth] = out[bpp + fourth] = extra;
				cb = cb2;
				cr = cr2;
			}
		}
	}
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
	    d->family == HQV_FAMILY_RGB)
		return yuv_to_rgb_pair;
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
