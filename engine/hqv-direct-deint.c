// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A direct row for blend deinterlacing (docs/engine.md, step 0) into the
 * same format and size: every row of the woven frame becomes
 * (r[y - 1] + 2 r[y] + r[y + 1]) / 4, mirrored at the edges.
 *
 * Where no chroma is resampled (luma, R'G'B', chroma not subsampled down:
 * across, chroma is copied since nothing moves), the pipeline's samples
 * are code values << 6, its blend (64 (a + 2 b + c) + 2) >> 2 is exactly
 * 16 (a + 2 b + c), and packing rounds that to (a + 2 b + c + 2) >> 2: a
 * blend of bytes. 4:2:0 chroma is up-sampled within each field, every
 * 4:4:4 row is 16 v with v = 3 a + b of its field's chroma rows, the blend
 * gives 4 (v[t - 1] + 2 v[t] + v[t + 1]) and averaging rows 2m and 2m + 1
 * down gives (v[2m - 1] + 3 v[2m] + 3 v[2m + 1] + v[2m + 2] + 16) >> 5,
 * per chroma byte, Cb and Cr alike.
 */
#include "hqv-internal.h"

/* Memory row of plane p holding frame row t (a luma row number). */
static const uint8_t *frame_row(const struct hqv_job *job, unsigned int p,
				uint32_t t)
{
	const struct hqv_image *f = &job->plan.fields[t % 2];

	return hqv_row(f, p, t / 2);
}

/*
 * Chroma row of plane p of frame row t, in a 4:2:0 source: its field's
 * chroma row (e == 0), or the one it is interpolated with (e == 1), as
 * hqv_yuv_row_init() picks them within the field.
 */
static const uint8_t *chroma_row(const struct hqv_job *job, unsigned int p,
				 uint32_t t, unsigned int e)
{
	const struct hqv_image *f = &job->plan.fields[t % 2];
	uint32_t q = t / 2, rows = f->height / 2, k = q / 2, k2 = k;

	if (e) {
		k2 = q % 2 ? k + 1 : k - 1;
		if (q % 2 == 0 && k == 0)
			k2 = 0;
		if (k2 >= rows)
			k2 = rows - 1;
	}
	return hqv_row(f, p, k2);
}

static inline __attribute__((always_inline)) void
blend_bytes(const uint8_t *restrict a, const uint8_t *restrict b,
	    const uint8_t *restrict c, uint8_t *restrict out, size_t n)
{
	size_t x;

	for (x = 0; x < n; x++)
		out[x] = (a[x] + 2 * b[x] + c[x] + 2) >> 2;
}

/* Frame rows above and below t, mirrored at the edges. */
static uint32_t above(uint32_t t, uint32_t h)
{
	return t > 0 ? t - 1 : t + 1;
}

static uint32_t below(uint32_t t, uint32_t h)
{
	return t + 1 < h ? t + 1 : t - 1;
}

/* Padding bytes of 32-bit R'G'B' (XRGB32's X) are written 0xff. */
static inline __attribute__((always_inline)) void
pad_bytes(uint8_t *restrict out, size_t pixels, size_t at)
{
	size_t x;

	for (x = 0; x < pixels; x++)
		out[4 * x + at] = 0xff;
}

static HQV_ROW_CLONES void
blend_pair(const struct hqv_job *job, struct hqv_band *band, uint32_t y)
{
	const struct hqv_format *fmt = job->src.fmt;
	const uint32_t h = job->src.height, w = job->src.width;
	const bool pad = fmt->family == HQV_FAMILY_RGB &&
			 fmt->bytes_per_group[0] == 4 &&
			 !hqv_format_has_alpha(fmt);
	unsigned int p, r;

	for (p = 0; p < fmt->num_planes; p++) {
		size_t bytes = hqv_plane_line_bytes(fmt, p, w);

		if (p && fmt->vsub == 2) {
			const uint8_t *restrict a0, *restrict a1, *restrict b0;
			const uint8_t *restrict b1, *restrict c0, *restrict c1;
			const uint8_t *restrict d0, *restrict d1;
			uint8_t *restrict out = hqv_row(&job->dst, p, y / 2);
			uint32_t ta = above(y, h), td = below(y + 1, h);
			size_t x;

			a0 = chroma_row(job, p, ta, 0);
			a1 = chroma_row(job, p, ta, 1);
			b0 = chroma_row(job, p, y, 0);
			b1 = chroma_row(job, p, y, 1);
			c0 = chroma_row(job, p, y + 1, 0);
			c1 = chroma_row(job, p, y + 1, 1);
			d0 = chroma_row(job, p, td, 0);
			d1 = chroma_row(job, p, td, 1);
			for (x = 0; x < bytes; x++)
				out[x] = (3 * a0[x] + a1[x] +
					  3 * (3 * b0[x] + b1[x]) +
					  3 * (3 * c0[x] + c1[x]) +
					  3 * d0[x] + d1[x] + 16) >> 5;
			continue;
		}
		for (r = 0; r < 2; r++) {
			uint32_t t = y + r;
			uint8_t *out = hqv_row(&job->dst, p, t);

			blend_bytes(frame_row(job, p, above(t, h)),
				    frame_row(job, p, t),
				    frame_row(job, p, below(t, h)), out, bytes);
			if (pad)
				pad_bytes(out, w, 6 - fmt->order[0] -
					  fmt->order[1] - fmt->order[2]);
			/* The byte past an odd width's pixels blended too. */
			hqv_pad_packed_line(fmt, out, w);
		}
	}
}

hqv_direct_fn *hqv_direct_deint_find(const struct hqv_job *job,
				     size_t *scratch)
{
	const struct hqv_format *s = job->src.fmt;

	*scratch = 0;
	if (job->deinterlace != HQV_DEINTERLACE_BLEND ||
	    job->src.field == HQV_FIELD_NONE ||
	    hqv_is_alternate(job->src.field) ||
	    s != job->dst.fmt || !job->plan.identity ||
	    job->rotation || job->hflip || job->vflip || !hqv_job_whole(job))
		return NULL;
	if (s->family == HQV_FAMILY_RGB565)
		return NULL;
	return blend_pair;
}
