// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Direct row functions: for jobs that only repack samples (no crop, turn,
 * flip, scaling, compose or deinterlacing, colours unchanged), a pair of
 * destination rows is written straight from the source rows, bypassing
 * the 4:4:4 intermediate lines. Each gives exactly what the general
 * pipeline gives (docs/engine.md: chroma copy, and the mean of two rows
 * where 4:2:2 becomes 4:2:0), only faster; the tests hold both to the same
 * model. These inner loops are where a SIMD pass would go.
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
static void copy_pair(const struct hqv_job *job, uint32_t y)
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
 * The byte offsets are constants in each caller, so the compiler can turn
 * the loop into shuffles.
 */
static inline __attribute__((always_inline)) void
packed422_to_420(const struct hqv_job *job, uint32_t y, const uint32_t y0,
		 const uint32_t o_cb, const uint32_t o_cr)
{
	const struct hqv_format *d = job->dst.fmt;
	const uint8_t *restrict a = src_row(job, 0, y);
	const uint8_t *restrict b = src_row(job, 0, y + 1);
	uint8_t *restrict ya = dst_row(job, 0, y);
	uint8_t *restrict yb = dst_row(job, 0, y + 1);
	uint32_t pairs = job->src.width / 2, k;

	for (k = 0; k < 2 * pairs; k++) {
		ya[k] = a[2 * k + y0];
		yb[k] = b[2 * k + y0];
	}
	if (d->family == HQV_FAMILY_SEMIPLANAR) {
		uint8_t *restrict c = dst_row(job, 1, y / 2);
		uint32_t d_cb = d->order[0], d_cr = d->order[1];

		for (k = 0; k < pairs; k++) {
			c[2 * k + d_cb] = (a[4 * k + o_cb] + b[4 * k + o_cb] + 1) >> 1;
			c[2 * k + d_cr] = (a[4 * k + o_cr] + b[4 * k + o_cr] + 1) >> 1;
		}
	} else {
		uint8_t *restrict cb = dst_row(job, d->order[1], y / 2);
		uint8_t *restrict cr = dst_row(job, d->order[2], y / 2);

		for (k = 0; k < pairs; k++) {
			cb[k] = (a[4 * k + o_cb] + b[4 * k + o_cb] + 1) >> 1;
			cr[k] = (a[4 * k + o_cr] + b[4 * k + o_cr] + 1) >> 1;
		}
	}
}

static void yuyv_to_420_pair(const struct hqv_job *job, uint32_t y)
{
	packed422_to_420(job, y, 0, 1, 3);
}

static void uyvy_to_420_pair(const struct hqv_job *job, uint32_t y)
{
	packed422_to_420(job, y, 1, 0, 2);
}

static void yvyu_to_420_pair(const struct hqv_job *job, uint32_t y)
{
	packed422_to_420(job, y, 0, 3, 1);
}

static void vyuy_to_420_pair(const struct hqv_job *job, uint32_t y)
{
	packed422_to_420(job, y, 1, 2, 0);
}

/* Whether a job only repacks samples, the same pixels in the same place. */
static bool repacks_only(const struct hqv_job *job)
{
	const struct hqv_plan *p = &job->plan;

	return p->identity && job->src.field == HQV_FIELD_NONE &&
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

hqv_direct_fn *hqv_direct_find(const struct hqv_job *job)
{
	const struct hqv_format *s = job->src.fmt, *d = job->dst.fmt;

	if (!repacks_only(job))
		return NULL;
	/* Padding bytes (XRGB32's X) are written 0xff, not copied. */
	if (s == d && !(s->family == HQV_FAMILY_RGB &&
			s->bytes_per_group[0] == 4 && !hqv_format_has_alpha(s)))
		return copy_pair;
	if (s->family == HQV_FAMILY_PACKED_YUV && d->vsub == 2 &&
	    d->hsub == 2 && job->plan.chroma_copy_h) {
		/* By the source's byte order: Y0 and Cb offsets name it. */
		switch (s->order[0] << 4 | s->order[1]) {
		case 0x01:
			return yuyv_to_420_pair;
		case 0x10:
			return uyvy_to_420_pair;
		case 0x03:
			return yvyu_to_420_pair;
		case 0x12:
			return vyuy_to_420_pair;
		}
	}
	return NULL;
}
