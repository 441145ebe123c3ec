// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reading source pixels into 4:4:4 lines (with chroma up-sampling) and
 * writing destination rows from them (with chroma down-sampling), driven by
 * the format table's family, planes and order fields; with hqv-direct.c,
 * the only code that knows how formats lay out their bytes. The siting is
 * docs/engine.md's: chroma co-sited with even luma columns, and centred
 * between luma rows 2k and 2k+1 when vertically subsampled.
 */
#include "hqv-internal.h"

void hqv_yuv_row_init(struct hqv_yuv_row *r, const struct hqv_job *job,
		      const struct hqv_image *img, uint32_t y)
{
	const struct hqv_format *fmt = img->fmt;
	uint32_t k = y, k2 = y, rows = img->height;
	const uint8_t *a, *b;
	unsigned int i;

	r->hdiv = fmt->hsub;
	r->interp_h = fmt->hsub == 2 && !job->plan.chroma_copy_h;
	r->interp_v = fmt->vsub == 2 && !job->plan.chroma_copy_v;
	r->c_count = hqv_plane_groups(fmt, 1, img->width);
	if (fmt->vsub == 2) {
		/* Chroma row k sits between luma rows 2k and 2k + 1. */
		rows = hqv_plane_lines(fmt, 1, img->height);
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
		a = hqv_row(img, 0, y);
		r->y = a + fmt->order[0];
		r->y_step = 2;
		r->cb[0] = r->cb[1] = a + fmt->order[1];
		r->cr[0] = r->cr[1] = a + fmt->order[3];
		r->c_step = 4;
		break;
	case HQV_FAMILY_SEMIPLANAR:
		r->y = hqv_row(img, 0, y);
		r->y_step = 1;
		a = hqv_row(img, 1, k);
		b = hqv_row(img, 1, k2);
		r->cb[0] = a + fmt->order[0];
		r->cb[1] = b + fmt->order[0];
		r->cr[0] = a + fmt->order[1];
		r->cr[1] = b + fmt->order[1];
		r->c_step = 2;
		break;
	default: /* HQV_FAMILY_PLANAR */
		r->y = hqv_row(img, 0, y);
		r->y_step = 1;
		i = fmt->order[1];
		r->cb[0] = hqv_row(img, i, k);
		r->cb[1] = hqv_row(img, i, k2);
		i = fmt->order[2];
		r->cr[0] = hqv_row(img, i, k);
		r->cr[1] = hqv_row(img, i, k2);
		r->c_step = 1;
		break;
	}
}

/*
 * One chroma channel for luma columns [x0, x0 + n), in row passes with no
 * per-pixel branching: each column first takes the chroma sample it falls
 * on (vertically interpolated when subsampled down), then, when chroma is
 * interpolated across, the columns between two co-sited samples take
 * their mean.
 */
static void chroma_row(const struct hqv_yuv_row *r, const uint8_t *const c[2],
		       uint32_t x0, uint32_t n, uint16_t *out)
{
	const uint8_t *a = c[0], *b = c[1];
	uint32_t step = r->c_step, shift = r->hdiv == 2, i;

	if (r->interp_v) {
		for (i = 0; i < n; i++) {
			uint32_t off = ((x0 + i) >> shift) * step;

			out[i] = (3 * a[off] + b[off]) * (HQV_ONE / 4);
		}
	} else {
		for (i = 0; i < n; i++)
			out[i] = a[((x0 + i) >> shift) * step] * HQV_ONE;
	}
	if (!r->interp_h)
		return;

	/* Odd columns: out[i] holds sample k, out[i + 1] sample k + 1. */
	for (i = (x0 + 1) % 2; i < n; i += 2) {
		uint32_t right;

		if (i + 1 < n) {
			right = out[i + 1];
		} else {
			uint32_t k = (x0 + i) / 2;
			uint32_t off = (k + 1 < r->c_count ? k + 1 : k) * step;

			right = r->interp_v ?
				(3 * a[off] + b[off]) * (HQV_ONE / 4) :
				a[off] * HQV_ONE;
		}
		out[i] = (out[i] + right + 1) / 2;
	}
}

static void unpack_yuv(const struct hqv_job *job, const struct hqv_image *img,
		       uint32_t y, uint32_t x0, uint32_t n, uint16_t *out[4])
{
	struct hqv_yuv_row r;
	const uint8_t *luma;
	uint32_t i;

	hqv_yuv_row_init(&r, job, img, y);
	luma = r.y + x0 * r.y_step;
	if (r.y_step == 1)
		for (i = 0; i < n; i++)
			out[0][i] = luma[i] * HQV_ONE;
	else
		for (i = 0; i < n; i++)
			out[0][i] = luma[2 * i] * HQV_ONE;
	chroma_row(&r, r.cb, x0, n, out[1]);
	chroma_row(&r, r.cr, x0, n, out[2]);
}

static void unpack_grey(const struct hqv_image *img, uint32_t y, uint32_t x0,
			uint32_t n, uint16_t *out[4])
{
	const uint8_t *p = hqv_row(img, 0, y) + x0;
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
	const uint8_t *p = hqv_row(img, 0, y) + x0 * bpp;
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
	const uint8_t *p = hqv_row(img, 0, y) + 2 * x0;
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
	       uint32_t n)
{
	bool alpha = hqv_format_has_alpha(job->src.fmt);
	uint32_t first = dx < 0 ? (uint32_t)x - (n - 1) : (uint32_t)x, c;

	/* One run, reversed when walking backwards. */
	hqv_source_row(job, tmp, y, first, n, out->c);
	if (dx < 0)
		for (c = 0; c < (alpha ? 4u : 3u); c++)
			reverse(out->c[c], n);
}

void hqv_fill_alpha(const struct hqv_job *job, struct hqv_line *line,
		    uint32_t n)
{
	uint32_t i;

	if (!hqv_format_has_alpha(job->src.fmt) && job->plan.channels == 4)
		for (i = 0; i < n; i++)
			line->c[3][i] = job->plan.background[3];
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
 * One chroma channel of a destination row: cw samples, each averaged from
 * the destination samples it covers ([1 2 1] / 4 across co-sited columns
 * when average_h, and rows a and b when b is not NULL), or copied from the
 * co-sited sample (every hdiv-th). Written every step bytes.
 */
static void chroma_row_down(const uint16_t *restrict a,
			    const uint16_t *restrict b, uint32_t width,
			    uint32_t cw, uint32_t hdiv, bool average_h,
			    uint8_t *restrict out, uint32_t step)
{
	uint32_t k;

	if (!average_h) {
		if (b)
			for (k = 0; k < cw; k++)
				out[k * step] = (a[k * hdiv] + b[k * hdiv] +
						 HQV_ONE) >> (HQV_FRAC_BITS + 1);
		else
			for (k = 0; k < cw; k++)
				out[k * step] = to_code(a[k * hdiv]);
		return;
	}
	for (k = 0; k < cw; k++) {
		uint32_t x = 2 * k, l = x ? x - 1 : 0;
		uint32_t r = x + 1 < width ? x + 1 : x;
		uint32_t sum = a[l] + 2 * a[x] + a[r];

		if (b)
			out[k * step] = (sum + b[l] + 2 * b[x] + b[r] +
					 4 * HQV_ONE) >> (HQV_FRAC_BITS + 3);
		else
			out[k * step] = (sum + 2 * HQV_ONE) >> (HQV_FRAC_BITS + 2);
	}
}

static void pack_yuv(const struct hqv_job *job, const struct hqv_line *rows,
		     uint32_t y)
{
	const struct hqv_image *dst = &job->dst;
	const struct hqv_format *fmt = dst->fmt;
	bool hsub = fmt->hsub == 2, vsub = fmt->vsub == 2;
	bool average_h = hsub && !job->plan.chroma_copy_h;
	bool average_v = vsub && !job->plan.chroma_copy_v;
	uint32_t w = dst->width, cw = hqv_plane_groups(fmt, 1, w), r, x;
	uint32_t n = hqv_pair_rows(job, y);

	for (r = 0; r < n; r++) {
		const uint16_t *luma = rows[r].c[0];
		uint8_t *p;
		uint32_t step;

		if (fmt->family == HQV_FAMILY_PACKED_YUV) {
			p = hqv_row(dst, 0, y + r) + fmt->order[0];
			step = 2;
		} else {
			p = hqv_row(dst, 0, y + r);
			step = 1;
		}
		for (x = 0; x < w; x++)
			p[x * step] = to_code(luma[x]);
		hqv_pad_packed_line(fmt, hqv_row(dst, 0, y + r), w);
	}

	for (r = 0; r < (vsub ? 1u : n); r++) {
		uint32_t row = vsub ? y / 2 : y + r;
		const struct hqv_line *a = &rows[r];
		/* Alone, the last row of an odd height is its own pair. */
		const struct hqv_line *b = average_v ? &rows[n - 1] : NULL;
		uint8_t *cb, *cr;
		uint32_t step;

		switch (fmt->family) {
		case HQV_FAMILY_PACKED_YUV:
			cb = hqv_row(dst, 0, row) + fmt->order[1];
			cr = hqv_row(dst, 0, row) + fmt->order[3];
			step = 4;
			break;
		case HQV_FAMILY_SEMIPLANAR:
			cb = hqv_row(dst, 1, row) + fmt->order[0];
			cr = hqv_row(dst, 1, row) + fmt->order[1];
			step = 2;
			break;
		default:
			cb = hqv_row(dst, fmt->order[1], row);
			cr = hqv_row(dst, fmt->order[2], row);
			step = 1;
			break;
		}
		chroma_row_down(a->c[1], b ? b->c[1] : NULL, w, cw, fmt->hsub,
				average_h, cb, step);
		chroma_row_down(a->c[2], b ? b->c[2] : NULL, w, cw, fmt->hsub,
				average_h, cr, step);
	}
}

static void pack_grey(const struct hqv_job *job, const struct hqv_line *rows,
		      uint32_t y)
{
	uint32_t r, x;

	for (r = 0; r < hqv_pair_rows(job, y); r++) {
		uint8_t *p = hqv_row(&job->dst, 0, y + r);

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

	const uint32_t o0 = fmt->order[0], o1 = fmt->order[1];
	const uint32_t o2 = fmt->order[2], w = job->dst.width;

	for (r = 0; r < hqv_pair_rows(job, y); r++) {
		uint8_t *restrict p = hqv_row(&job->dst, 0, y + r);
		const uint16_t *c0 = rows[r].c[0], *c1 = rows[r].c[1];
		const uint16_t *c2 = rows[r].c[2], *c3 = rows[r].c[3];

		for (x = 0; x < w; x++, p += bpp) {
			p[o0] = to_code(c0[x]);
			p[o1] = to_code(c1[x]);
			p[o2] = to_code(c2[x]);
			if (bpp == 4)
				p[fourth] = alpha ? to_code(c3[x]) : 0xff;
		}
	}
}

static void pack_rgb565(const struct hqv_job *job, const struct hqv_line *rows,
			uint32_t y)
{
	const uint32_t full = 255 * HQV_ONE;
	uint32_t r, x;

	for (r = 0; r < hqv_pair_rows(job, y); r++) {
		uint8_t *p = hqv_row(&job->dst, 0, y + r);
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
