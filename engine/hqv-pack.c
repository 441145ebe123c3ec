// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reading source pixels into 4:4:4 lines (with chroma up-sampling) and
 * writing destination rows from them (with chroma down-sampling): the only
 * code that knows how formats lay out their bytes, driven by the format
 * table's family, planes and order fields. The siting is docs/engine.md's:
 * chroma co-sited with even luma columns, and centred between luma rows
 * 2k and 2k+1 when vertically subsampled.
 */
#include "hqv-internal.h"

/* Where the samples of a Y'CbCr source row are, whatever the family. */
struct yuv_row {
	const uint8_t *y;	/* luma of pixel 0 */
	uint32_t y_step;	/* bytes from one luma sample to the next */
	const uint8_t *cb[2], *cr[2];	/* chroma of this row and its neighbour */
	uint32_t c_step;	/* bytes from one chroma sample to the next */
	uint32_t c_count;	/* chroma samples in a row */
	uint32_t hdiv;		/* luma columns per chroma sample */
	bool interp_h, interp_v;	/* interpolate across, down */
};

static const uint8_t *plane_row(const struct hqv_image *img, unsigned int p,
				uint32_t row)
{
	return img->planes[p] + (size_t)row * img->bytesperline[p];
}

static void yuv_row_init(struct yuv_row *r, const struct hqv_job *job,
			 const struct hqv_image *img, uint32_t y)
{
	const struct hqv_format *fmt = img->fmt;
	uint32_t k = y, k2 = y, rows = img->height;
	const uint8_t *a, *b;
	unsigned int i;

	r->hdiv = fmt->hsub;
	r->interp_h = fmt->hsub == 2 && !job->plan.chroma_copy_h;
	r->interp_v = fmt->vsub == 2 && !job->plan.chroma_copy_v;
	r->c_count = img->width / fmt->hsub;
	if (fmt->vsub == 2) {
		/* Chroma row k sits between luma rows 2k and 2k + 1. */
		rows = img->height / 2;
		k = k2 = y / 2;
	}
	if (r->interp_v) {
		k2 = y % 2 ? k + 1 : k - 1;
		if (y % 2 == 0 && k == 0)
			k2 = 0;
		if (k2 >= rows)
			k2 = rows - 1;
	}

	switch (fmt->family) {
	case HQV_FAMILY_PACKED_YUV:
		a = plane_row(img, 0, y);
		r->y = a + fmt->order[0];
		r->y_step = 2;
		r->cb[0] = r->cb[1] = a + fmt->order[1];
		r->cr[0] = r->cr[1] = a + fmt->order[3];
		r->c_step = 4;
		break;
	case HQV_FAMILY_SEMIPLANAR:
		r->y = plane_row(img, 0, y);
		r->y_step = 1;
		a = plane_row(img, 1, k);
		b = plane_row(img, 1, k2);
		r->cb[0] = a + fmt->order[0];
		r->cb[1] = b + fmt->order[0];
		r->cr[0] = a + fmt->order[1];
		r->cr[1] = b + fmt->order[1];
		r->c_step = 2;
		break;
	default: /* HQV_FAMILY_PLANAR */
		r->y = plane_row(img, 0, y);
		r->y_step = 1;
		i = fmt->order[1];
		r->cb[0] = plane_row(img, i, k);
		r->cb[1] = plane_row(img, i, k2);
		i = fmt->order[2];
		r->cr[0] = plane_row(img, i, k);
		r->cr[1] = plane_row(img, i, k2);
		r->c_step = 1;
		break;
	}
}

/* Chroma sample k of a row, vertically interpolated, in samples. */
static inline uint32_t chroma_at(const struct yuv_row *r,
				 const uint8_t *const c[2], uint32_t k)
{
	uint32_t off = k * r->c_step;

	if (!r->interp_v)
		return c[0][off] * HQV_ONE;
	return (3 * c[0][off] + c[1][off]) * (HQV_ONE / 4);
}

/* Chroma at luma column x: co-sited, or between two samples. */
static inline uint16_t chroma_h(const struct yuv_row *r,
				const uint8_t *const c[2], uint32_t x)
{
	uint32_t k = x / r->hdiv, k2;

	if (!r->interp_h || x % 2 == 0)
		return chroma_at(r, c, k);
	k2 = k + 1 < r->c_count ? k + 1 : k;
	return (chroma_at(r, c, k) + chroma_at(r, c, k2) + 1) / 2;
}

static void unpack_yuv(const struct hqv_job *job, const struct hqv_image *img,
		       uint32_t y, uint32_t x0, uint32_t n, uint16_t *out[4])
{
	struct yuv_row r;
	uint32_t i;

	yuv_row_init(&r, job, img, y);
	for (i = 0; i < n; i++) {
		uint32_t x = x0 + i;

		out[0][i] = r.y[x * r.y_step] * HQV_ONE;
		out[1][i] = chroma_h(&r, r.cb, x);
		out[2][i] = chroma_h(&r, r.cr, x);
	}
}

static void unpack_grey(const struct hqv_image *img, uint32_t y, uint32_t x0,
			uint32_t n, uint16_t *out[4])
{
	const uint8_t *p = plane_row(img, 0, y) + x0;
	uint32_t i;

	for (i = 0; i < n; i++) {
		out[0][i] = p[i] * HQV_ONE;
		out[1][i] = out[2][i] = 128 * HQV_ONE;
	}
}

static void unpack_rgb(const struct hqv_image *img, uint32_t y, uint32_t x0,
		       uint32_t n, uint16_t *out[4])
{
	const struct hqv_format *fmt = img->fmt;
	uint32_t bpp = fmt->bytes_per_group[0], i;
	const uint8_t *p = plane_row(img, 0, y) + x0 * bpp;
	const uint8_t *r = p + fmt->order[0], *g = p + fmt->order[1];
	const uint8_t *b = p + fmt->order[2];

	for (i = 0; i < n; i++) {
		out[0][i] = r[i * bpp] * HQV_ONE;
		out[1][i] = g[i * bpp] * HQV_ONE;
		out[2][i] = b[i * bpp] * HQV_ONE;
	}
	if (hqv_format_has_alpha(fmt)) {
		const uint8_t *a = p + fmt->order[3];

		for (i = 0; i < n; i++)
			out[3][i] = a[i * bpp] * HQV_ONE;
	}
}

static void unpack_rgb565(const struct hqv_image *img, uint32_t y,
			  uint32_t x0, uint32_t n, uint16_t *out[4])
{
	const uint8_t *p = plane_row(img, 0, y) + 2 * x0;
	uint32_t i;

	for (i = 0; i < n; i++) {
		uint32_t v = p[2 * i] | p[2 * i + 1] << 8;
		uint32_t r = v >> 11, g = (v >> 5) & 0x3f, b = v & 0x1f;

		out[0][i] = ((r << 3) | (r >> 2)) * HQV_ONE;
		out[1][i] = ((g << 2) | (g >> 4)) * HQV_ONE;
		out[2][i] = ((b << 3) | (b >> 2)) * HQV_ONE;
	}
}

void hqv_unpack(const struct hqv_job *job, const struct hqv_image *img,
		uint32_t y, uint32_t x0, uint32_t n, uint16_t *out[4])
{
	switch (img->fmt->family) {
	case HQV_FAMILY_GREY:
		unpack_grey(img, y, x0, n, out);
		break;
	case HQV_FAMILY_RGB:
		unpack_rgb(img, y, x0, n, out);
		break;
	case HQV_FAMILY_RGB565:
		unpack_rgb565(img, y, x0, n, out);
		break;
	default:
		unpack_yuv(job, img, y, x0, n, out);
		break;
	}
}

static void reverse(uint16_t *v, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n / 2; i++) {
		uint16_t t = v[i];

		v[i] = v[n - 1 - i];
		v[n - 1 - i] = t;
	}
}

void hqv_fetch(const struct hqv_job *job, struct hqv_line *tmp,
	       struct hqv_line *out, int32_t x, int32_t y, int32_t dx,
	       int32_t dy, uint32_t n)
{
	const struct hqv_image *src = &job->src;
	bool alpha = hqv_format_has_alpha(src->fmt);
	uint32_t i, c;

	if (dy == 0) {
		/* Along a row: one run, reversed when walking backwards. */
		uint32_t first = dx < 0 ? (uint32_t)x - (n - 1) : (uint32_t)x;

		hqv_source_row(job, tmp, y, first, n, out->c);
		if (dx < 0)
			for (c = 0; c < (alpha ? 4u : 3u); c++)
				reverse(out->c[c], n);
	} else {
		/* Down or up a column (a quarter turn): pixel by pixel. */
		for (i = 0; i < n; i++) {
			uint16_t *px[4] = { out->c[0] + i, out->c[1] + i,
					    out->c[2] + i, out->c[3] + i };

			hqv_source_row(job, tmp, y + (int32_t)i * dy,
				       x + (int32_t)i * dx, 1, px);
		}
	}
	if (!alpha)
		for (i = 0; i < n; i++)
			out->c[3][i] = job->plan.background[3];
}

/*
 * Writing. The two lines hold destination rows y and y + 1 at full width;
 * samples are rounded to code values here, chroma after averaging.
 */

static inline uint8_t to_code(uint32_t v)
{
	return (v + HQV_ONE / 2) >> HQV_FRAC_BITS;
}

/*
 * A chroma sample k averaged from the destination samples it covers:
 * [1 2 1] / 4 across co-sited columns, and the mean of rows a and b when
 * vertically subsampled (b is NULL otherwise).
 */
static inline uint8_t chroma_down(const uint16_t *a, const uint16_t *b,
				  uint32_t k, uint32_t width, bool hsub,
				  bool average_h)
{
	uint32_t sum, shift;

	if (hsub && !average_h)
		k *= 2;		/* copied: the co-sited sample */
	if (!average_h) {
		if (!b)
			return to_code(a[k]);
		sum = a[k] + b[k];
		shift = 1;
	} else {
		uint32_t x = 2 * k;
		uint32_t l = x ? x - 1 : 0, r = x + 1 < width ? x + 1 : x;

		sum = a[l] + 2 * a[x] + a[r];
		shift = 2;
		if (b) {
			sum += b[l] + 2 * b[x] + b[r];
			shift = 3;
		}
	}
	return (sum + (HQV_ONE << shift) / 2) >> (HQV_FRAC_BITS + shift);
}

static uint8_t *dst_row(const struct hqv_image *img, unsigned int p,
			uint32_t row)
{
	return img->planes[p] + (size_t)row * img->bytesperline[p];
}

static void pack_yuv(const struct hqv_job *job, const struct hqv_line *rows,
		     uint32_t y)
{
	const struct hqv_image *dst = &job->dst;
	const struct hqv_format *fmt = dst->fmt;
	bool hsub = fmt->hsub == 2, vsub = fmt->vsub == 2;
	bool average_h = hsub && !job->plan.chroma_copy_h;
	bool average_v = vsub && !job->plan.chroma_copy_v;
	uint32_t w = dst->width, cw = w / fmt->hsub, r, x, k;

	for (r = 0; r < 2; r++) {
		const uint16_t *luma = rows[r].c[0];
		uint8_t *p;
		uint32_t step;

		if (fmt->family == HQV_FAMILY_PACKED_YUV) {
			p = dst_row(dst, 0, y + r) + fmt->order[0];
			step = 2;
		} else {
			p = dst_row(dst, 0, y + r);
			step = 1;
		}
		for (x = 0; x < w; x++)
			p[x * step] = to_code(luma[x]);
	}

	for (r = 0; r < (vsub ? 1u : 2u); r++) {
		uint32_t row = vsub ? y / 2 : y + r;
		const struct hqv_line *a = &rows[r];
		const struct hqv_line *b = average_v ? &rows[1] : NULL;
		uint8_t *cb, *cr;
		uint32_t step;

		switch (fmt->family) {
		case HQV_FAMILY_PACKED_YUV:
			cb = dst_row(dst, 0, row) + fmt->order[1];
			cr = dst_row(dst, 0, row) + fmt->order[3];
			step = 4;
			break;
		case HQV_FAMILY_SEMIPLANAR:
			cb = dst_row(dst, 1, row) + fmt->order[0];
			cr = dst_row(dst, 1, row) + fmt->order[1];
			step = 2;
			break;
		default:
			cb = dst_row(dst, fmt->order[1], row);
			cr = dst_row(dst, fmt->order[2], row);
			step = 1;
			break;
		}
		for (k = 0; k < cw; k++) {
			cb[k * step] = chroma_down(a->c[1], b ? b->c[1] : NULL,
						   k, w, hsub, average_h);
			cr[k * step] = chroma_down(a->c[2], b ? b->c[2] : NULL,
						   k, w, hsub, average_h);
		}
	}
}

static void pack_grey(const struct hqv_job *job, const struct hqv_line *rows,
		      uint32_t y)
{
	uint32_t r, x;

	for (r = 0; r < 2; r++) {
		uint8_t *p = dst_row(&job->dst, 0, y + r);

		for (x = 0; x < job->dst.width; x++)
			p[x] = to_code(rows[r].c[0][x]);
	}
}

static void pack_rgb(const struct hqv_job *job, const struct hqv_line *rows,
		     uint32_t y)
{
	const struct hqv_format *fmt = job->dst.fmt;
	uint32_t bpp = fmt->bytes_per_group[0], r, x;
	/* The byte that is neither R, G nor B: alpha, or padding. */
	uint32_t fourth = 6 - fmt->order[0] - fmt->order[1] - fmt->order[2];
	bool alpha = hqv_format_has_alpha(fmt);

	for (r = 0; r < 2; r++) {
		uint8_t *p = dst_row(&job->dst, 0, y + r);
		const struct hqv_line *l = &rows[r];

		for (x = 0; x < job->dst.width; x++, p += bpp) {
			p[fmt->order[0]] = to_code(l->c[0][x]);
			p[fmt->order[1]] = to_code(l->c[1][x]);
			p[fmt->order[2]] = to_code(l->c[2][x]);
			if (bpp == 4)
				p[fourth] = alpha ? to_code(l->c[3][x]) : 0xff;
		}
	}
}

static void pack_rgb565(const struct hqv_job *job, const struct hqv_line *rows,
			uint32_t y)
{
	const uint32_t full = 255 * HQV_ONE;
	uint32_t r, x;

	for (r = 0; r < 2; r++) {
		uint8_t *p = dst_row(&job->dst, 0, y + r);
		const struct hqv_line *l = &rows[r];

		for (x = 0; x < job->dst.width; x++) {
			uint32_t red = (l->c[0][x] * 31 + full / 2) / full;
			uint32_t green = (l->c[1][x] * 63 + full / 2) / full;
			uint32_t blue = (l->c[2][x] * 31 + full / 2) / full;
			uint32_t v = red << 11 | green << 5 | blue;

			p[2 * x] = v & 0xff;
			p[2 * x + 1] = v >> 8;
		}
	}
}

void hqv_pack_pair(const struct hqv_job *job, const struct hqv_line *rows,
		   uint32_t y)
{
	switch (job->dst.fmt->family) {
	case HQV_FAMILY_GREY:
		pack_grey(job, rows, y);
		break;
	case HQV_FAMILY_RGB:
		pack_rgb(job, rows, y);
		break;
	case HQV_FAMILY_RGB565:
		pack_rgb565(job, rows, y);
		break;
	default:
		pack_yuv(job, rows, y);
		break;
	}
}
