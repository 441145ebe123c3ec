// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Direct row functions: for jobs that keep every pixel in its place (no
 * crop, turn, flip, scaling, compose or deinterlacing), a pair of
 * destination rows is written straight from the source rows, bypassing
 * the 4:4:4 intermediate lines. Each gives exactly what the general
 * pipeline gives (the same sample arithmetic, docs/engine.md), only
 * faster; the tests hold both to the same model. Their inner loops are
 * written for the compiler's vectoriser, and where hand-written SIMD
 * pays, they are row functions (hqv-rows.h) whose C entries are the
 * same arithmetic: R'G'B' byte orders, and the colour step between
 * R'G'B' and Y'CbCr.
 */
#include "hqv-internal.h"

/*
 * The same format on both sides: rows [y0, y1) (y0 and y1 even) of each
 * plane are copied, in one memcpy() where neither image has bytes
 * between its lines: a memcpy() a row took about 10% longer than the
 * peer's one of a 1080p YUYV frame (one core, AMD EPYC, Zen 5).
 */
static void copy_rows(const struct hqv_job *job, uint32_t y0, uint32_t y1)
{
	const struct hqv_format *fmt = job->src.fmt;
	unsigned int p;
	uint32_t r;

	for (p = 0; p < fmt->num_planes; p++) {
		uint32_t bytes = hqv_plane_line_bytes(fmt, p, job->src.width);
		uint32_t sub = p && fmt->vsub == 2 ? 2 : 1;
		uint32_t first = y0 / sub, end = y1 / sub;

		if (job->src.bytesperline[p] == bytes &&
		    job->dst.bytesperline[p] == bytes)
			memcpy(hqv_row(&job->dst, p, first),
			       hqv_row(&job->src, p, first),
			       (size_t)(end - first) * bytes);
		else
			for (r = first; r < end; r++)
				memcpy(hqv_row(&job->dst, p, r),
				       hqv_row(&job->src, p, r), bytes);
		/* The source's byte past its last pixel is not ours. */
		if (job->src.width % 2)
			for (r = first; r < end; r++)
				hqv_pad_packed_line(fmt,
						    hqv_row(&job->dst, p, r),
						    job->src.width);
	}
}

/* A copy's row pair, for a caller that moves the planes between pairs. */
static void copy_pair(const struct hqv_job *job, struct hqv_band *band,
		      uint32_t y)
{
	copy_rows(job, y, y + 2);
}

/* A copy's band: all of it at its first pair. */
static void copy_band(const struct hqv_job *job, struct hqv_band *band,
		      uint32_t y)
{
	copy_rows(job, y, band->end);
	band->written = band->end;
}

void hqv_rgb_shuffle_init(const struct hqv_job *job, struct hqv_shuffle *k)
{
	const struct hqv_format *s = job->src.fmt, *d = job->dst.fmt;
	uint8_t map[4] = { HQV_SHUFFLE_FILL, HQV_SHUFFLE_FILL,
			   HQV_SHUFFLE_FILL, HQV_SHUFFLE_FILL };
	bool alpha = hqv_format_has_alpha(d);
	unsigned int c;

	for (c = 0; c < 3; c++)
		map[d->order[c]] = s->order[c];
	if (alpha && hqv_format_has_alpha(s))
		map[d->order[3]] = s->order[3];
	hqv_shuffle_init(k, s->bytes_per_group[0], d->bytes_per_group[0], map,
			 alpha ? job->alpha : 0xff);
}

/*
 * R'G'B' to R'G'B' of another byte order or size, colours unchanged: each
 * output byte is a byte of its input pixel, alpha (or the job's alpha
 * where the source has none), or 0xff in a padding byte. The row
 * function's constants are made once a band.
 */
static void shuffle_pair(const struct hqv_job *job, struct hqv_band *band,
			 uint32_t y)
{
	const struct hqv_format *s = job->src.fmt, *d = job->dst.fmt;
	unsigned int ib = s->bytes_per_group[0], ob = d->bytes_per_group[0];
	const struct hqv_row_op *op = ib == 3 ?
		(ob == 3 ? &hqv_row_shuffle33 : &hqv_row_shuffle34) :
		(ob == 3 ? &hqv_row_shuffle43 : &hqv_row_shuffle44);
	struct hqv_shuffle *k = band->scratch;
	unsigned int r;

	if (band->fresh) {
		hqv_rgb_shuffle_init(job, k);
		band->fresh = false;
	}
	for (r = 0; r < 2; r++) {
		struct hqv_row_args a = {
			.in = { hqv_row(&job->src, 0, y + r) },
			.out = { hqv_row(&job->dst, 0, y + r) },
			.k = k,
		};

		hqv_job_row(job, op, &a, job->src.width);
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
	const size_t w = job->src.width, pairs = w / 2;
	uint8_t *c0_out, *c1_out;
	size_t c_step;

	if (d->family == HQV_FAMILY_SEMIPLANAR) {
		c0_out = hqv_row(&job->dst, 1, y / 2);
		c1_out = c0_out + 1;
		c_step = 2;
		packed422_rows(a, b, ya, yb, c0_out, c1_out, 2, pairs, y0, c0,
			       c1);
	} else {
		c0_out = hqv_row(&job->dst, d->order[1], y / 2);
		c1_out = hqv_row(&job->dst, d->order[2], y / 2);
		c_step = 1;
		packed422_rows(a, b, ya, yb, c0_out, c1_out, 1, pairs, y0, c0,
			       c1);
	}
	if (w % 2) {
		/* Half a macropixel: its first luma and its chroma. */
		const size_t k = pairs;

		ya[2 * k] = a[4 * k + y0];
		yb[2 * k] = b[4 * k + y0];
		c0_out[c_step * k] = (a[4 * k + c0] + b[4 * k + c0] + 1) >> 1;
		c1_out[c_step * k] = (a[4 * k + c1] + b[4 * k + c1] + 1) >> 1;
	}
}

/* Named by the source bytes of the luma and of the chroma written first. */
#define PACKED422_TO_420(name, y0, c0, c1)				\
static HQV_ROW_CLONES void name(const struct hqv_job *job,		\
				struct hqv_band *band, uint32_t y)	\
{									\
	packed422_to_420(job, y, y0, c0, c1);				\
}

PACKED422_TO_420(packed422_to_420_013, 0, 1, 3)
PACKED422_TO_420(packed422_to_420_031, 0, 3, 1)
PACKED422_TO_420(packed422_to_420_102, 1, 0, 2)
PACKED422_TO_420(packed422_to_420_120, 1, 2, 0)

/*
 * The colour step (docs/engine.md, Precision) in 16-bit lanes: the plan's
 * matrix and offsets as int16_t, used when no partial sum of the step can
 * leave int16_t (each product is at most |m| / 2 + 1 in size, the inputs
 * d being at most 2^14); jobs whose sums could take the pipeline (none
 * on a grid of every encoding, quantization and extreme proc-amp: |m|
 * stays below 17500). The offsets hold a rounding to code values when
 * asked.
 */
static bool color16_init(const struct hqv_plan *plan, struct hqv_color16 *c,
			 const bool *to_code)
{
	unsigned int i, j;

	for (i = 0; i < 3; i++) {
		int32_t o = plan->offset[i] +
			    (to_code[i] ? 1 << (HQV_COLOR_BITS - 1) : 0);
		int32_t bound = o < 0 ? -o : o;

		for (j = 0; j < 3; j++) {
			int32_t m = plan->matrix[i][j];

			bound += (m < 0 ? -m : m) / 2 + 1;
			c->m[i][j] = m;
		}
		if (bound > 32767)
			return false;
		c->o[i] = o;
	}
	return true;
}

/*
 * Whether output i of the colour step never leaves 0..max for inputs d
 * in lo..hi: each product is monotonic in d, so the sum's extremes are
 * at the ends.
 */
static bool color16_within(const struct hqv_color16 *c, unsigned int i,
			   int32_t lo, int32_t hi, int32_t max)
{
	int32_t v_lo = c->o[i], v_hi = c->o[i];
	unsigned int j;

	for (j = 0; j < 3; j++) {
		int32_t a = hqv_color_product(lo, c->m[i][j]);
		int32_t b = hqv_color_product(hi, c->m[i][j]);

		v_lo += a < b ? a : b;
		v_hi += a < b ? b : a;
	}
	return v_lo >= 0 && v_hi <= max;
}

/* One output of the colour step, before the clamp. */
static inline __attribute__((always_inline)) int16_t
color16_sum(const int16_t m[3], int16_t o, int16_t a, int16_t b, int16_t c)
{
	return (int16_t)(hqv_color_product(a, m[0]) +
			 hqv_color_product(b, m[1]) +
			 hqv_color_product(c, m[2]) + o);
}

/* A code value from a sum that holds its rounding. */
static inline __attribute__((always_inline)) uint8_t code_of(int16_t v)
{
	v >>= HQV_COLOR_BITS;
	v = v < 0 ? 0 : v;
	return v > 255 ? 255 : v;
}

/*
 * Without vector registers (HQV_SCALAR_ROWS: the kernel's default build) a
 * product costs a multiply and three more operations, and R'G'B' to
 * Y'CbCr takes nine of them a pixel. Their inputs there are bytes, so the
 * 256 products of each coefficient, p[i][j][v] = hqv_color_product(d of
 * code v, m[i][j]), the same numbers, are made once a band into a table
 * at the start of the row's scratch, and each product becomes a load.
 */
struct color_lut {
	int16_t p[3][3][256];
};

/*
 * The same for Y'CbCr to R'G'B': luma inputs are bytes; chroma inputs are
 * interpolated, d = 16 s - 16384 for a sum s of 0..2040 (chroma_ds()), and
 * their table is indexed by s.
 */
#define CHROMA_SUMS	2041

struct color_lut_ds {
	int16_t y[3][256];		/* output i, luma code v */
	int16_t c[3][2][CHROMA_SUMS];	/* output i, Cb or Cr, sum s */
};

/*
 * Scratch bytes before a row's arrays: for a table of lut bytes (scalar
 * builds) or the row function's constants of k bytes (SIMD builds), both
 * made once when the band starts, not for every row pair: building the
 * constants' shuffle masks took some 8% of a row pair's time.
 */
static size_t color_head_bytes(size_t lut, size_t k)
{
	return ((HQV_SCALAR_ROWS ? lut : k) + 63) & ~(size_t)63;
}

/* The band's table of c's products in scratch, made when the band starts. */
static const struct color_lut *color_lut_get(const struct hqv_color16 *c,
					      struct hqv_band *band)
{
	struct color_lut *t = band->scratch;
	unsigned int i, j, v;

	if (!band->fresh)
		return t;
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			for (v = 0; v < 256; v++)
				t->p[i][j][v] = (int16_t)hqv_color_product(
					hqv_color_in_code(v), c->m[i][j]);
	band->fresh = false;
	return t;
}

/* The band's table for Y'CbCr inputs, made when the band starts. */
static const struct color_lut_ds *color_lut_ds_get(const struct hqv_color16 *c,
						    struct hqv_band *band)
{
	struct color_lut_ds *t = band->scratch;
	unsigned int i, j, v;

	if (!band->fresh)
		return t;
	for (i = 0; i < 3; i++) {
		for (v = 0; v < 256; v++)
			t->y[i][v] = (int16_t)hqv_color_product(
				hqv_color_in_code(v), c->m[i][0]);
		for (j = 0; j < 2; j++)
			for (v = 0; v < CHROMA_SUMS; v++)
				t->c[i][j][v] = (int16_t)hqv_color_product(
					16 * (int32_t)v - (256 << HQV_FRAC_BITS),
					c->m[i][j + 1]);
	}
	band->fresh = false;
	return t;
}

/* The table index of a chroma input d. */
static inline __attribute__((always_inline)) uint32_t ds_index(int16_t d)
{
	return (uint32_t)(d + (256 << HQV_FRAC_BITS)) >> 4;
}

/* Output i of the colour step for code values a, b, c, from the table. */
static inline __attribute__((always_inline)) int16_t
color_lut_sum(const struct color_lut *t, int16_t o, unsigned int i,
	      uint8_t a, uint8_t b, uint8_t c)
{
	return (int16_t)(t->p[i][0][a] + t->p[i][1][b] + t->p[i][2][c] + o);
}

/*
 * Y'CbCr to 24- or 32-bit R'G'B', two simple loops per row. The first
 * interpolates chroma to every pixel as the pipeline does (down, 3/4 of
 * the own chroma row and 1/4 of the neighbour's; across, an odd column
 * the mean of the two around it, which is exact: both are multiples of
 * 16) and keeps it as the colour step's inputs d; the second puts each
 * pixel through the colour step and stores bytes at offsets that are
 * constants in each wrapper.
 */

/* Chroma samples before each of rgb_to_yuv_rows()' chroma rows. */
#define CHROMA_GAP	32

/*
 * Elements per scratch array: whole 32-byte vectors, and one more than a
 * row, which an odd width's chroma pairs reach (chroma_ds() writes a d
 * past the last pixel; chroma_down() reads the clamped sample there).
 */
static size_t row_stride(uint32_t width)
{
	return ((size_t)width + 1 + 31) & ~(size_t)31;
}

/* d of the chroma sample 16 u (u: 3 a + b, or 4 a where not interpolated). */
static inline __attribute__((always_inline)) int16_t chroma_d(uint32_t u)
{
	return (int16_t)(32 * u - (256 << HQV_FRAC_BITS));
}

/*
 * d of one chroma channel for every pixel of a row: count samples, step
 * bytes apart, in rows a (this chroma row) and b (its neighbour; a where
 * chroma is not subsampled down: 3 a + a is 4 a); half: a sample every
 * other pixel, the odd ones between two (the last, beside the one before;
 * at an odd width it lies past the row, unused). Two loops for half: the
 * sums u of each sample into u (count + 1), then each pixel's d from
 * them, so that neither needs more than one stride.
 */
static inline __attribute__((always_inline)) void
chroma_ds(const uint8_t *restrict a, const uint8_t *restrict b, size_t count,
	  const size_t step, const bool half, uint16_t *restrict u,
	  int16_t *restrict d)
{
	size_t k;

	if (!half) {
		for (k = 0; k < count; k++)
			d[k] = chroma_d(3 * a[k * step] + b[k * step]);
		return;
	}
	for (k = 0; k < count; k++)
		u[k] = 3 * a[k * step] + b[k * step];
	u[count] = u[count - 1];
	for (k = 0; k < count; k++) {
		d[2 * k] = chroma_d(u[k]);
		d[2 * k + 1] = (int16_t)(16 * (u[k] + u[k + 1]) -
					 (256 << HQV_FRAC_BITS));
	}
}

HQV_ROW_CLONES
void hqv_yuv_ds(const struct hqv_job *job, uint32_t y, uint8_t *restrict lbuf,
		uint16_t *u, int16_t *dcb, int16_t *dcr, const uint8_t **lumas)
{
	const size_t w = job->src.width;
	const bool half = job->src.fmt->hsub == 2;
	const struct hqv_packed_ds *k;
	struct hqv_yuv_row row;
	const uint8_t *luma;
	size_t x;

	hqv_yuv_row_init(&row, job, &job->src, y);
	/* Packed 4:2:2 in one pass rather than five (a row function). */
	k = row.c_step == 4 && half && row.c_count ?
	    hqv_packed_ds_k(job->src.fmt->order) : NULL;
	if (k) {
		struct hqv_row_args a = {
			.in = { row.y - job->src.fmt->order[0] },
			.out = { lbuf, (uint8_t *)dcb, (uint8_t *)dcr },
			.k = k,
		};

		hqv_job_row(job, &hqv_row_packed_ds, &a, row.c_count);
		*lumas = lbuf;
		return;
	}
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
		chroma_ds(row.cb[0], row.cb[1], row.c_count, 1, half, u, dcb);
		chroma_ds(row.cr[0], row.cr[1], row.c_count, 1, half, u, dcr);
		break;
	case 2:
		if (half) {
			/* Both channels a row function, from the pairs' first. */
			const bool cb_first = row.cb[0] < row.cr[0];
			struct hqv_row_args a = {
				.in = { cb_first ? row.cb[0] : row.cr[0],
					cb_first ? row.cb[1] : row.cr[1] },
				.out = { (uint8_t *)(cb_first ? dcb : dcr),
					 (uint8_t *)(cb_first ? dcr : dcb) },
			};

			hqv_job_row(job, &hqv_row_semi_ds, &a, row.c_count);
		} else {
			chroma_ds(row.cb[0], row.cb[1], row.c_count, 2, false,
				  u, dcb);
			chroma_ds(row.cr[0], row.cr[1], row.c_count, 2, false,
				  u, dcr);
		}
		break;
	default:
		chroma_ds(row.cb[0], row.cb[1], row.c_count, 4, true, u, dcb);
		chroma_ds(row.cr[0], row.cr[1], row.c_count, 4, true, u, dcr);
		break;
	}
	*lumas = luma;
}

/* The 16 bits whose bytes in memory are b0, then b1. */
static inline __attribute__((always_inline)) uint16_t
bytes16(uint8_t b0, uint8_t b1)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return (uint16_t)(b0 << 8 | b1);
#else
	return (uint16_t)(b0 | b1 << 8);
#endif
}

/* Of R, G, B and the fourth byte, the one at byte offset o of a pixel. */
static inline __attribute__((always_inline)) uint8_t
byte_for(const size_t o, const size_t o_r, const size_t o_g,
	 const size_t o_b, uint8_t r, uint8_t g, uint8_t b, uint8_t extra)
{
	return o == o_r ? r : o == o_g ? g : o == o_b ? b : extra;
}

/*
 * A row of w 32-bit pixels from lumas and chroma d. Each pixel is stored
 * as two 16-bit halves, which the vectoriser interleaves whole. lean: the
 * matrix weighs luma alike in R, G and B, and R takes no Cb, B no Cr (as
 * Y'CbCr to R'G'B' does without a hue turn), so the products that are
 * equal or zero are left out; the sums are the same.
 */
static inline __attribute__((always_inline)) void
ds_to_rgb(const struct hqv_color16 *c, const uint8_t *restrict luma,
	  const int16_t *restrict dcb, const int16_t *restrict dcr,
	  uint8_t *restrict out, const size_t w, const size_t o_r,
	  const size_t o_g, const size_t o_b, const uint8_t extra,
	  const bool lean)
{
	const int16_t *mr = c->m[0], *mg = c->m[1], *mb = c->m[2];
	const int16_t m_r[3] = { mr[0], mr[1], mr[2] };
	const int16_t m_g[3] = { mg[0], mg[1], mg[2] };
	const int16_t m_b[3] = { mb[0], mb[1], mb[2] };
	const int16_t or = c->o[0], og = c->o[1], ob = c->o[2];
	size_t x;

	for (x = 0; x < w; x++) {
		int16_t a = (int16_t)hqv_color_in_code(luma[x]);
		uint8_t r, g, b;
		uint16_t lo, hi;

		if (lean) {
			int16_t l = hqv_color_product(a, m_r[0]);

			r = code_of(l + hqv_color_product(dcr[x], m_r[2]) + or);
			g = code_of(l + hqv_color_product(dcb[x], m_g[1]) +
				    hqv_color_product(dcr[x], m_g[2]) + og);
			b = code_of(l + hqv_color_product(dcb[x], m_b[1]) + ob);
		} else {
			r = code_of(color16_sum(m_r, or, a, dcb[x], dcr[x]));
			g = code_of(color16_sum(m_g, og, a, dcb[x], dcr[x]));
			b = code_of(color16_sum(m_b, ob, a, dcb[x], dcr[x]));
		}
		lo = bytes16(byte_for(0, o_r, o_g, o_b, r, g, b, extra),
			     byte_for(1, o_r, o_g, o_b, r, g, b, extra));
		hi = bytes16(byte_for(2, o_r, o_g, o_b, r, g, b, extra),
			     byte_for(3, o_r, o_g, o_b, r, g, b, extra));

		memcpy(out + 4 * x, &lo, 2);
		memcpy(out + 4 * x + 2, &hi, 2);
	}
}

/* The same without vector registers: products from the band's table. */
static inline __attribute__((always_inline)) void
ds_to_rgb_lut(const struct hqv_color16 *c, const struct color_lut_ds *t,
	      const uint8_t *restrict luma, const int16_t *restrict dcb,
	      const int16_t *restrict dcr, uint8_t *restrict out,
	      const size_t w, const size_t o_r, const size_t o_g,
	      const size_t o_b, const uint8_t extra)
{
	size_t x;

	for (x = 0; x < w; x++) {
		uint32_t l = luma[x], u = ds_index(dcb[x]), v = ds_index(dcr[x]);
		uint8_t *px = out + 4 * x;

		px[o_r] = code_of((int16_t)(t->y[0][l] + t->c[0][0][u] +
					    t->c[0][1][v] + c->o[0]));
		px[o_g] = code_of((int16_t)(t->y[1][l] + t->c[1][0][u] +
					    t->c[1][1][v] + c->o[1]));
		px[o_b] = code_of((int16_t)(t->y[2][l] + t->c[2][0][u] +
					    t->c[2][1][v] + c->o[2]));
		px[6 - o_r - o_g - o_b] = extra;
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

/* Every output of Y'CbCr to R'G'B' is a code value. */
static const bool yuv_to_rgb_codes[3] = { true, true, true };

bool hqv_yuv_rgb_prepare(const struct hqv_job *job, struct hqv_yuv_rgb *k)
{
	const struct hqv_format *d = job->dst.fmt;
	const uint8_t order[3] = { d->order[0], d->order[1], d->order[2] };
	struct hqv_color16 c;

	if (!color16_init(&job->plan, &c, yuv_to_rgb_codes))
		return false;
	hqv_yuv_rgb_init(k, d->bytes_per_group[0], &c, order,
			 hqv_format_has_alpha(d) ? job->alpha : 0xff);
	return true;
}

/*
 * Row y of a packed 4:2:2 or semi-planar source subsampled across, of
 * whole groups, straight to bpp-byte pixels (packed_rgb4, semi_rgb3,
 * semi_rgb4: hqv_yuv_ds()'s packed_ds or semi_ds and yuv_rgb3 or
 * yuv_rgb4 in one pass, the chroma never stored); false for other
 * sources, and packed ones to 3-byte pixels.
 */
static bool yuv_to_rgb_fused(const struct hqv_job *job, uint32_t y,
			     const struct hqv_yuv_rgb *k, const size_t bpp)
{
	struct hqv_yuv_row row;
	struct hqv_packed_rgb pk = { .rgb = k };
	struct hqv_semi_rgb sk = { .rgb = k };
	struct hqv_row_args a = { .out = { hqv_row(&job->dst, 0, y) } };

	if (job->src.fmt->hsub != 2 || job->src.width % 2)
		return false;
	hqv_yuv_row_init(&row, job, &job->src, y);
	if (!row.c_count)
		return false;
	if (row.c_step == 2) {
		/* The pairs' first bytes, as hqv_yuv_ds() gives semi_ds. */
		sk.cr_first = row.cr[0] < row.cb[0];
		a.in[0] = row.y;
		a.in[1] = sk.cr_first ? row.cr[0] : row.cb[0];
		a.in[2] = sk.cr_first ? row.cr[1] : row.cb[1];
		a.k = &sk;
		hqv_job_row(job, bpp == 3 ? &hqv_row_semi_rgb3 :
			    &hqv_row_semi_rgb4, &a, row.c_count);
		return true;
	}
	pk.ds = row.c_step == 4 && bpp == 4 ?
		hqv_packed_ds_k(job->src.fmt->order) : NULL;
	if (!pk.ds)
		return false;
	a.in[0] = row.y - job->src.fmt->order[0];
	a.k = &pk;
	hqv_job_row(job, &hqv_row_packed_rgb4, &a, row.c_count);
	return true;
}

static inline __attribute__((always_inline)) void
yuv_to_rgb_rows(const struct hqv_job *job, struct hqv_band *band, uint32_t y,
		const size_t bpp, const size_t o_r, const size_t o_g,
		const size_t o_b)
{
	const uint32_t w = job->src.width;
	const size_t stride = row_stride(w);
	const uint8_t extra = hqv_format_has_alpha(job->dst.fmt) ?
			      job->alpha : 0xff;
	int16_t *dcb = (int16_t *)((uint8_t *)band->scratch +
			color_head_bytes(sizeof(struct color_lut_ds),
					 sizeof(struct hqv_yuv_rgb)));
	int16_t *dcr = dcb + stride;
	uint16_t *u = (uint16_t *)(dcr + stride);
	uint8_t *lbuf = (uint8_t *)(u + stride);
	/* 24-bit rows are built as 32-bit ones first, bytes 0 to 2. */
	uint8_t *wbuf = lbuf + stride;
	struct hqv_color16 c;
	struct hqv_yuv_rgb *k = band->scratch;
	uint32_t r;
	bool lean;

	/* Checked by yuv_to_rgb_find(). */
	color16_init(&job->plan, &c, yuv_to_rgb_codes);
	lean = c.m[1][0] == c.m[0][0] && c.m[2][0] == c.m[0][0] &&
	       !c.m[0][1] && !c.m[2][2];
	if (!HQV_SCALAR_ROWS && job->plan.isa != HQV_ISA_C && band->fresh) {
		const uint8_t order[3] = { o_r, o_g, o_b };

		hqv_yuv_rgb_init(k, bpp, &c, order, extra);
		band->fresh = false;
	}
	for (r = 0; r < 2; r++) {
		uint8_t *out = bpp == 4 ? hqv_row(&job->dst, 0, y + r) : wbuf;
		const uint8_t *luma;

		if (!HQV_SCALAR_ROWS && job->plan.isa != HQV_ISA_C &&
		    yuv_to_rgb_fused(job, y + r, k, bpp))
			continue;
		hqv_yuv_ds(job, y + r, lbuf, u, dcb, dcr, &luma);
		if (!HQV_SCALAR_ROWS && job->plan.isa != HQV_ISA_C) {
			struct hqv_row_args a = {
				.in = { luma, (const uint8_t *)dcb,
					(const uint8_t *)dcr },
				.out = { hqv_row(&job->dst, 0, y + r) },
				.k = k,
			};

			hqv_job_row(job, bpp == 3 ? &hqv_row_yuv_rgb3 :
				    &hqv_row_yuv_rgb4, &a, w);
			continue;
		}
		if (HQV_SCALAR_ROWS)
			ds_to_rgb_lut(&c, color_lut_ds_get(&c, band), luma,
				      dcb, dcr, out, w, o_r, o_g, o_b, extra);
		else if (lean)
			ds_to_rgb(&c, luma, dcb, dcr, out, w, o_r, o_g, o_b,
				  extra, true);
		else
			ds_to_rgb(&c, luma, dcb, dcr, out, w, o_r, o_g, o_b,
				  extra, false);
		if (bpp == 3)
			rgb32_to_24(wbuf, hqv_row(&job->dst, 0, y + r), w);
	}
}

/* Named by the destination's bytes per pixel and bytes of R, G and B. */
#define YUV_TO_RGB(name, bpp, o_r, o_g, o_b)				\
static HQV_ROW_CLONES void name(const struct hqv_job *job,		\
				struct hqv_band *band, uint32_t y)	\
{									\
	yuv_to_rgb_rows(job, band, y, bpp, o_r, o_g, o_b);		\
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
	struct hqv_color16 c;

	if (!color16_init(&job->plan, &c, yuv_to_rgb_codes))
		return NULL;
	/* Chroma d, sums, packed lumas, 24-bit destinations' 32-bit row. */
	*scratch = color_head_bytes(sizeof(struct color_lut_ds),
				    sizeof(struct hqv_yuv_rgb)) +
		   row_stride(job->src.width) * (3 * sizeof(int16_t) + 1 + 4);
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
 * through the colour step: luma straight to code values, Cb and Cr to
 * clamped sums in eighths of a code value in scratch arrays, since chroma
 * is averaged before it is rounded. The second averages chroma down as
 * hqv-pack.c does: the [1 2 1] / 4 filter across (left index clamped; the
 * right one, which only an odd width reaches, by rgb_to_yuv_rows()) over
 * the sum of the row pair for 4:2:0, all in one rounding (the pipeline's
 * samples are eighths times 2^(HQV_FRAC_BITS - HQV_COLOR_BITS), which its
 * rounding drops exactly), and stores the code values in the
 * destination's layout.
 */

/* Byte o of a 32-bit pixel read as two 16-bit halves, in memory order. */
static inline __attribute__((always_inline)) uint32_t
byte_in(const uint16_t h[2], const size_t o)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return o % 2 ? h[o / 2] & 0xff : h[o / 2] >> 8;
#else
	return o % 2 ? h[o / 2] >> 8 : h[o / 2] & 0xff;
#endif
}

/* A chroma output in eighths, clamped as the colour step clamps. */
static inline __attribute__((always_inline)) uint16_t
clamp_eighths(int16_t v)
{
	v = v < 0 ? 0 : v;
	return v > HQV_COLOR_MAX ? HQV_COLOR_MAX : v;
}

/*
 * One row of w pixels to luma codes and chroma in eighths; with add, the
 * chroma is added to what cb and cr hold (a row pair's sums for 4:2:0, at
 * most 2 * HQV_COLOR_MAX). Without clamp, the caller has found that no
 * chroma can need clamping (as with the usual matrices), and the loop
 * leaves the clamps out (luma codes keep theirs: without, the vectoriser
 * no longer sees the rounded high product).
 */
static inline __attribute__((always_inline)) void
rgb_to_samples(const struct hqv_color16 *c, const uint8_t *restrict in,
	       uint8_t *restrict yc, uint16_t *restrict cb,
	       uint16_t *restrict cr, const size_t w, const size_t bpp,
	       const size_t o_r, const size_t o_g, const size_t o_b,
	       const bool add, const bool clamp)
{
	const int16_t m_y[3] = { c->m[0][0], c->m[0][1], c->m[0][2] };
	const int16_t m_b[3] = { c->m[1][0], c->m[1][1], c->m[1][2] };
	const int16_t m_r[3] = { c->m[2][0], c->m[2][1], c->m[2][2] };
	const int16_t oy = c->o[0], ob = c->o[1], or = c->o[2];
	size_t x;

	for (x = 0; x < w; x++) {
		int16_t r, g, b, vy, vb, vr;

		if (bpp == 4) {
			/* Two 16-bit halves: two streams to split, not four. */
			uint16_t h[2];

			memcpy(&h[0], in + 4 * x, 2);
			memcpy(&h[1], in + 4 * x + 2, 2);
			r = (int16_t)hqv_color_in_code(byte_in(h, o_r));
			g = (int16_t)hqv_color_in_code(byte_in(h, o_g));
			b = (int16_t)hqv_color_in_code(byte_in(h, o_b));
		} else {
			r = (int16_t)hqv_color_in_code(in[bpp * x + o_r]);
			g = (int16_t)hqv_color_in_code(in[bpp * x + o_g]);
			b = (int16_t)hqv_color_in_code(in[bpp * x + o_b]);
		}

		vy = color16_sum(m_y, oy, r, g, b);
		vb = color16_sum(m_b, ob, r, g, b);
		vr = color16_sum(m_r, or, r, g, b);
		yc[x] = code_of(vy);
		if (clamp) {
			vb = clamp_eighths(vb);
			vr = clamp_eighths(vr);
		}
		cb[x] = (add ? cb[x] : 0) + vb;
		cr[x] = (add ? cr[x] : 0) + vr;
	}
}

/* The same without vector registers: products from the band's table. */
static inline __attribute__((always_inline)) void
rgb_to_samples_lut(const struct hqv_color16 *c, const struct color_lut *t,
		   const uint8_t *restrict in, uint8_t *restrict yc,
		   uint16_t *restrict cb, uint16_t *restrict cr,
		   const size_t w, const size_t bpp, const size_t o_r,
		   const size_t o_g, const size_t o_b, const bool add,
		   const bool clamp)
{
	size_t x;

	for (x = 0; x < w; x++) {
		const uint8_t *px = in + bpp * x;
		uint8_t r = px[o_r], g = px[o_g], b = px[o_b];
		int16_t vb = color_lut_sum(t, c->o[1], 1, r, g, b);
		int16_t vr = color_lut_sum(t, c->o[2], 2, r, g, b);

		yc[x] = code_of(color_lut_sum(t, c->o[0], 0, r, g, b));
		if (clamp) {
			vb = clamp_eighths(vb);
			vr = clamp_eighths(vr);
		}
		cb[x] = (add ? cb[x] : 0) + vb;
		cr[x] = (add ? cr[x] : 0) + vr;
	}
}

/*
 * cw chroma codes from the eighths of one row, or from the sums of a row
 * pair's (rows 2), by [1 2 1] / 4 across and one rounding.
 */
static inline __attribute__((always_inline)) void
chroma_down(const uint16_t *restrict a, uint8_t *restrict out,
	    const size_t cw, const unsigned int rows)
{
	const unsigned int shift = HQV_COLOR_BITS + 1 + rows;
	const uint32_t half = 1u << (shift - 1);
	size_t k;

	out[0] = (3 * a[0] + a[1] + half) >> shift;
	for (k = 1; k < cw; k++)
		out[k] = (a[2 * k - 1] + 2 * a[2 * k] + a[2 * k + 1] +
			  half) >> shift;
}

/* Chroma not subsampled across: each sample rounded to its code. */
static inline __attribute__((always_inline)) void
chroma_codes(const uint16_t *restrict a, uint8_t *restrict out,
	     const size_t cw)
{
	size_t k;

	for (k = 0; k < cw; k++)
		out[k] = (a[k] + (1 << (HQV_COLOR_BITS - 1))) >>
			 HQV_COLOR_BITS;
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

/* Two rows of n chroma codes interleaved, a's first: semi-planar. */
static inline __attribute__((always_inline)) void
interleave2(const uint8_t *restrict a, const uint8_t *restrict b,
	    uint8_t *restrict out, const size_t n)
{
	size_t k;

	for (k = 0; k < n; k++) {
		out[2 * k] = a[k];
		out[2 * k + 1] = b[k];
	}
}

/*
 * The chroma codes of one destination chroma row, Cb into cbc and Cr into
 * crc, from the eighths of one row or the sums of a row pair (rows 2).
 */
static inline __attribute__((always_inline)) void
chroma_row_codes(const struct hqv_job *job, const uint16_t *cb,
		 const uint16_t *cr, uint8_t *cbc, uint8_t *crc,
		 const size_t cw, const unsigned int rows)
{
	if (job->dst.fmt->hsub == 1) {
		chroma_codes(cb, cbc, cw);
		chroma_codes(cr, crc, cw);
	} else if (!HQV_SCALAR_ROWS && job->plan.isa != HQV_ISA_C) {
		/* From the sample left of the first, a copy of it (below). */
		const struct hqv_down k = { HQV_COLOR_BITS + 1 + rows };
		const struct hqv_row_args a = {
			.in = { (const uint8_t *)(cb - 1),
				(const uint8_t *)(cr - 1) },
			.out = { cbc, crc },
			.k = &k,
		};

		hqv_job_row(job, &hqv_row_down, &a, cw);
	} else if (rows == 2) {
		chroma_down(cb, cbc, cw, 2);
		chroma_down(cr, crc, cw, 2);
	} else {
		chroma_down(cb, cbc, cw, 1);
		chroma_down(cr, crc, cw, 1);
	}
}

/*
 * The same into a semi-planar row c subsampled across, with the SIMD
 * rows: codes straight into their interleaved places, first's first.
 */
static inline __attribute__((always_inline)) void
semi_row_codes(const struct hqv_job *job, const uint16_t *first,
	       const uint16_t *second, uint8_t *c, const size_t cw,
	       const unsigned int rows)
{
	/* From the sample left of the first, a copy of it (below). */
	const struct hqv_down k = { HQV_COLOR_BITS + 1 + rows };
	const struct hqv_row_args a = {
		.in = { (const uint8_t *)(first - 1),
			(const uint8_t *)(second - 1) },
		.out = { c },
		.k = &k,
	};

	hqv_job_row(job, &hqv_row_down_semi, &a, cw);
}

/*
 * The destination's chroma (and luma, when packed) for rows y and y + 1
 * from the scratch of rgb_to_yuv_rows(): lumas yc[2], chroma cb[2],
 * cr[2]. Codes go straight into planar rows, and with the SIMD rows into
 * semi-planar ones subsampled across; for other interleaved layouts into
 * tmp (2 cw bytes) first, then into the row in one interleaving loop.
 */
static HQV_ROW_CLONES void
yuv_from_samples(const struct hqv_job *job, uint32_t y, uint8_t *const yc[2],
		 const uint16_t *const cb[2], const uint16_t *const cr[2],
		 uint8_t *restrict tmp)
{
	const struct hqv_format *d = job->dst.fmt;
	const size_t w = job->dst.width, cw = hqv_plane_groups(d, 1, w);
	const unsigned int rows = d->vsub == 2 ? 2 : 1;
	unsigned int r;

	if (d->family == HQV_FAMILY_GREY)
		return;
	for (r = 0; r < 3 - rows; r++) {
		/* 4:2:0: one chroma row from the pair's sums. */
		uint32_t row = rows == 2 ? y / 2 : y + r;
		uint8_t *cbc = tmp, *crc = tmp + cw;

		if (d->family == HQV_FAMILY_SEMIPLANAR && d->hsub == 2 &&
		    !HQV_SCALAR_ROWS && job->plan.isa != HQV_ISA_C) {
			semi_row_codes(job, d->order[0] == 0 ? cb[r] : cr[r],
				       d->order[0] == 0 ? cr[r] : cb[r],
				       hqv_row(&job->dst, 1, row), cw, rows);
			continue;
		}
		if (d->family == HQV_FAMILY_PLANAR) {
			cbc = hqv_row(&job->dst, d->order[1], row);
			crc = hqv_row(&job->dst, d->order[2], row);
		}
		chroma_row_codes(job, cb[r], cr[r], cbc, crc, cw, rows);
		if (d->family == HQV_FAMILY_SEMIPLANAR) {
			uint8_t *c = hqv_row(&job->dst, 1, row);

			if (d->order[0] == 0)
				interleave2(cbc, crc, c, cw);
			else
				interleave2(crc, cbc, c, cw);
		} else if (d->family == HQV_FAMILY_PACKED_YUV) {
			const uint8_t *c0 = cbc, *c1 = crc;
			uint8_t *line = hqv_row(&job->dst, 0, y + r);

			/* Chroma byte first: Cb (YUYV, UYVY), Cr (YVYU). */
			if (d->order[3] < d->order[1]) {
				c0 = crc;
				c1 = cbc;
			}
			if (d->order[0] == 0)
				pack422(yc[r], c0, c1, line, cw, 0);
			else
				pack422(yc[r], c0, c1, line, cw, 1);
			/* At an odd width pack422() put yc[w] in the pad. */
			hqv_pad_packed_line(d, line, w);
		}
	}
}

/* Luma rounded to code values; chroma kept in eighths. */
static const bool rgb_to_yuv_codes[3] = { true, false, false };

static inline __attribute__((always_inline)) void
rgb_to_yuv_rows(const struct hqv_job *job, struct hqv_band *band, uint32_t y,
		const size_t bpp, const size_t o_r, const size_t o_g,
		const size_t o_b)
{
	const size_t w = job->src.width, stride = row_stride(w);
	const bool packed = job->dst.fmt->family == HQV_FAMILY_PACKED_YUV;
	/* The inputs d of code values 0 and 255. */
	const int32_t lo = hqv_color_in_code(0), hi = hqv_color_in_code(255);
	uint16_t *cb[2], *cr[2];
	uint8_t *yc[2], *tmp;
	struct hqv_color16 c;
	struct hqv_rgb_yuv *k = band->scratch;
	unsigned int r;
	bool clamp, pair;

	/*
	 * Each chroma row has a cache line before it, for the sample left
	 * of its first: the rows' loads of the [1 2 1] filter stay aligned.
	 */
	cb[0] = (uint16_t *)((uint8_t *)band->scratch +
			     color_head_bytes(sizeof(struct color_lut),
					      sizeof(struct hqv_rgb_yuv))) +
		CHROMA_GAP;
	cr[0] = cb[0] + stride + CHROMA_GAP;
	cb[1] = cr[0] + stride + CHROMA_GAP;
	cr[1] = cb[1] + stride + CHROMA_GAP;
	yc[0] = (uint8_t *)(cr[1] + stride);
	yc[1] = yc[0] + stride;
	tmp = yc[1] + stride;
	/* Checked by rgb_to_yuv_find(). */
	color16_init(&job->plan, &c, rgb_to_yuv_codes);
	clamp = !color16_within(&c, 1, lo, hi, HQV_COLOR_MAX) ||
		!color16_within(&c, 2, lo, hi, HQV_COLOR_MAX);
	for (r = 0; r < 2; r++)
		if (!packed)
			yc[r] = hqv_row(&job->dst, 0, y + r);
	if (!HQV_SCALAR_ROWS && job->plan.isa != HQV_ISA_C) {
		const uint8_t order[3] = { o_r, o_g, o_b };

		if (band->fresh) {
			hqv_rgb_yuv_init(k, bpp, &c, order);
			k->clamp = clamp;
			k->chroma = job->dst.fmt->family != HQV_FAMILY_GREY;
			band->fresh = false;
		}
	}
	/* 4:2:0 with SIMD rows: the pair's lumas and chroma sums at once. */
	pair = !HQV_SCALAR_ROWS && job->plan.isa != HQV_ISA_C &&
	       job->dst.fmt->vsub == 2 && k->chroma;
	if (pair) {
		const struct hqv_row_args a = {
			.in = { hqv_row(&job->src, 0, y),
				hqv_row(&job->src, 0, y + 1) },
			.out = { yc[0], yc[1], (uint8_t *)cb[0],
				 (uint8_t *)cr[0] },
			.k = k,
		};

		hqv_job_row(job, bpp == 3 ? &hqv_row_rgb3_yuv_pair :
			    &hqv_row_rgb4_yuv_pair, &a, w);
	}
	for (r = 0; !pair && r < 2; r++) {
		const uint8_t *in = hqv_row(&job->src, 0, y + r);
		/* 4:2:0 wants only the pair's sums: the second row adds. */
		unsigned int c_row = job->dst.fmt->vsub == 2 ? 0 : r;
		bool add = job->dst.fmt->vsub == 2 && r;

		if (!HQV_SCALAR_ROWS && job->plan.isa != HQV_ISA_C) {
			struct hqv_row_args a = {
				.in = { in },
				.out = { yc[r], (uint8_t *)cb[c_row],
					 (uint8_t *)cr[c_row] },
				.k = k,
			};

			k->add = add;
			hqv_job_row(job, bpp == 3 ? &hqv_row_rgb3_yuv :
				    &hqv_row_rgb4_yuv, &a, w);
		} else if (HQV_SCALAR_ROWS)
			rgb_to_samples_lut(&c, color_lut_get(&c, band), in,
					   yc[r], cb[c_row], cr[c_row], w, bpp,
					   o_r, o_g, o_b, add, clamp);
		else if (clamp && add)
			rgb_to_samples(&c, in, yc[r], cb[c_row], cr[c_row], w,
				       bpp, o_r, o_g, o_b, true, true);
		else if (clamp)
			rgb_to_samples(&c, in, yc[r], cb[c_row], cr[c_row], w,
				       bpp, o_r, o_g, o_b, false, true);
		else if (add)
			rgb_to_samples(&c, in, yc[r], cb[c_row], cr[c_row], w,
				       bpp, o_r, o_g, o_b, true, false);
		else
			rgb_to_samples(&c, in, yc[r], cb[c_row], cr[c_row], w,
				       bpp, o_r, o_g, o_b, false, false);
	}
	/*
	 * The [1 2 1] filter of the first chroma sample reads the column left
	 * of it, and of an odd width's last the column right of the last:
	 * clamped to them as the pipeline clamps.
	 */
	for (r = 0; r < 2; r++) {
		cb[r][-1] = cb[r][0];
		cr[r][-1] = cr[r][0];
		cb[r][w] = cb[r][w - 1];
		cr[r][w] = cr[r][w - 1];
	}
	yuv_from_samples(job, y, yc, (const uint16_t *const *)cb,
			 (const uint16_t *const *)cr, tmp);
}

bool hqv_rgb_yuv_prepare(const struct hqv_job *job, struct hqv_rgb_yuv *k)
{
	const struct hqv_format *s = job->src.fmt;
	const uint8_t order[3] = { s->order[0], s->order[1], s->order[2] };
	struct hqv_color16 c;

	if (!color16_init(&job->plan, &c, rgb_to_yuv_codes))
		return false;
	hqv_rgb_yuv_init(k, s->bytes_per_group[0], &c, order);
	k->chroma = job->dst.fmt->family != HQV_FAMILY_GREY;
	return true;
}

/* Named by the source's bytes per pixel and bytes of R, G and B. */
#define RGB_TO_YUV(name, bpp, o_r, o_g, o_b)				\
static HQV_ROW_CLONES void name(const struct hqv_job *job,		\
				struct hqv_band *band, uint32_t y)	\
{									\
	rgb_to_yuv_rows(job, band, y, bpp, o_r, o_g, o_b);		\
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
	struct hqv_color16 c;

	if (!color16_init(&job->plan, &c, rgb_to_yuv_codes))
		return NULL;
	/* Four chroma arrays, two luma rows and two rows of chroma codes. */
	*scratch = color_head_bytes(sizeof(struct color_lut),
				    sizeof(struct hqv_rgb_yuv)) +
		   4 * CHROMA_GAP * sizeof(uint16_t) +
		   row_stride(job->src.width) * (4 * sizeof(uint16_t) + 4);
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

bool hqv_job_oriented_whole(const struct hqv_job *job)
{
	const struct hqv_plan *p = &job->plan;

	return job->src.field == HQV_FIELD_NONE &&
	       job->crop.left == 0 && job->crop.top == 0 &&
	       job->crop.width == job->src.width &&
	       job->crop.height == job->src.height &&
	       job->compose.left == 0 && job->compose.top == 0 &&
	       job->compose.width == job->dst.width &&
	       job->compose.height == job->dst.height &&
	       p->oriented_width == job->dst.width &&
	       p->oriented_height == job->dst.height;
}

static bool in_place(const struct hqv_job *job)
{
	return job->src.field == HQV_FIELD_NONE &&
	       job->rotation == 0 && !job->hflip && !job->vflip &&
	       hqv_job_whole(job);
}

hqv_direct_fn *hqv_direct_find(const struct hqv_job *job, size_t *scratch,
			       uint32_t *band_least)
{
	hqv_direct_fn *fn;

	*scratch = 0;
	/*
	 * A copy takes a band at once here; as the direct row in place of a
	 * turn (hqv-direct-orient.c), whose band is one row pair moved each
	 * time, a pair.
	 */
	if (in_place(job))
		return hqv_direct_copies(job) ? copy_band :
		       hqv_direct_place_find(job, scratch);
	fn = hqv_direct_turn_find(job, scratch);
	if (!fn)
		fn = hqv_direct_orient_find(job, scratch, band_least);
	return fn ? fn : hqv_direct_scale_find(job, scratch);
}

bool hqv_direct_copies(const struct hqv_job *job)
{
	const struct hqv_format *s = job->src.fmt;

	/* Padding bytes (XRGB32's X) are written 0xff, not copied. */
	return job->plan.identity && s == job->dst.fmt &&
	       !(s->family == HQV_FAMILY_RGB && s->bytes_per_group[0] == 4 &&
		 !hqv_format_has_alpha(s));
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
	if (hqv_direct_copies(job))
		return copy_pair;
	if (s->family == HQV_FAMILY_RGB && d->family == HQV_FAMILY_RGB) {
		*scratch = sizeof(struct hqv_shuffle);
		return shuffle_pair;
	}
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
