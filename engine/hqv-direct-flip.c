// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Direct rows for flips of sources whose chroma is not subsampled
 * (R'G'B', GREY, 4:4:4): jobs that only mirror the whole image across,
 * down or both (no turn, crop, scaling, compose or deinterlacing).
 *
 * Such a source's pixels each carry all their samples, and colour is
 * computed per pixel (docs/engine.md, steps 2 and 3: there is no chroma to
 * interpolate), so the pipeline's oriented line for destination row y is
 * source row y (H - 1 - y with a vertical flip) with its pixels in reverse
 * order for a horizontal flip, converted pixel by pixel. Chroma
 * down-sampling comes after orientation and sees only those lines. So a
 * flip is a copy of the source rows in destination order, reversed where
 * the job flips across, into the band's scratch memory, and then the
 * direct row of the same job without the flip on that copy: it gives
 * what the pipeline gives, byte for byte (tests/engine/test_direct.c).
 */
#include "hqv-internal.h"

/*
 * The scratch: this header, a copy of the job whose planes are moved for
 * each row pair onto the copied source rows and onto the destination
 * rows, the copied rows, and the scratch of the direct row it calls, in
 * a band of its own that starts with the flip's.
 */
struct flip_head {
	hqv_direct_fn *place;	/* the direct row without the flip */
	struct hqv_band place_band;
};

#define FLIP_ALIGN	64

static size_t aligned(size_t n)
{
	return (n + FLIP_ALIGN - 1) & ~(size_t)(FLIP_ALIGN - 1);
}

static size_t job_offset(void)
{
	return aligned(sizeof(struct flip_head));
}

static size_t rows_offset(void)
{
	return job_offset() + aligned(sizeof(struct hqv_job));
}

/*
 * The 32-bit format with a 24-bit R'G'B' source's byte order, which the
 * copied rows take when they go to Y'CbCr (whose direct rows read bytes,
 * not formats, so the result is the same); else NULL.
 */
static const struct hqv_format *widened(const struct hqv_job *job)
{
	const struct hqv_format *s = job->src.fmt;

	if (s->family != HQV_FAMILY_RGB || s->bytes_per_group[0] != 3 ||
	    !job->dst.fmt->is_yuv)
		return NULL;
	return hqv_format_find(s->order[0] ? HQV_FOURCC('X', 'R', '2', '4') :
				HQV_FOURCC('X', 'B', '2', '4'));
}

/* Bytes of one copied row of plane p (all planes have every pixel). */
static size_t row_bytes(const struct hqv_job *job, unsigned int p)
{
	uint32_t g = job->src.fmt->bytes_per_group[p];

	return aligned((size_t)job->src.width * (widened(job) ? 4 : g));
}

static size_t place_offset(const struct hqv_job *job)
{
	size_t n = rows_offset();
	unsigned int p;

	for (p = 0; p < job->src.fmt->num_planes; p++)
		n += 2 * row_bytes(job, p);
	return n;
}

/* The row function mirroring groups of g bytes. */
static const struct hqv_row_op *const mirror[] = {
	NULL, &hqv_row_mirror1, &hqv_row_mirror2, &hqv_row_mirror3,
	&hqv_row_mirror4,
};

/* n groups of g bytes from s, in reverse order. */
static void mirror_row(const struct hqv_job *job, uint8_t *d,
		       const uint8_t *s, size_t n, size_t g)
{
	struct hqv_row_args a = { .in = { s + g * (n - 1) }, .out = { d } };

	hqv_job_row(job, mirror[g], &a, n);
}

/*
 * n 24-bit pixels in reverse order as 32-bit ones, the fourth byte 0xff:
 * 32-bit pixels convert in vector registers where three-byte groups,
 * without a byte shuffle (SSE2), do not.
 */
static HQV_ROW_CLONES void
mirror_widen(uint8_t *restrict d, const uint8_t *restrict s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		d[4 * i] = s[3 * (n - 1 - i)];
		d[4 * i + 1] = s[3 * (n - 1 - i) + 1];
		d[4 * i + 2] = s[3 * (n - 1 - i) + 2];
		d[4 * i + 3] = 0xff;
	}
}

/* The same, in order. */
static HQV_ROW_CLONES void
widen(uint8_t *restrict d, const uint8_t *restrict s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		d[4 * i] = s[3 * i];
		d[4 * i + 1] = s[3 * i + 1];
		d[4 * i + 2] = s[3 * i + 2];
		d[4 * i + 3] = 0xff;
	}
}

static void flip_pair(const struct hqv_job *job, struct hqv_band *band,
		      uint32_t y)
{
	const struct hqv_format *s = job->src.fmt, *d = job->dst.fmt;
	uint8_t *scratch = band->scratch;
	struct flip_head *head = band->scratch;
	struct hqv_job *view = (void *)(scratch + job_offset());
	uint8_t *rows = scratch + rows_offset();
	unsigned int p, r;

	if (band->fresh) {
		size_t unused;

		*view = *job;
		if (widened(job))
			view->src.fmt = widened(job);
		for (p = 0; p < s->num_planes; p++)
			view->src.bytesperline[p] = row_bytes(job, p);
		head->place = hqv_direct_place_find(view, &unused);
		/* The row it calls writes rows 0 and 1 of the view. */
		head->place_band.scratch = scratch + place_offset(job);
		head->place_band.end = 2;
		head->place_band.fresh = true;
		band->fresh = false;
	}
	for (p = 0; p < s->num_planes; p++) {
		size_t bytes = row_bytes(job, p);

		view->src.planes[p] = rows;
		for (r = 0; r < 2; r++) {
			uint32_t sy = job->vflip ? job->src.height - 1 - y - r :
				      y + r;
			const uint8_t *from = hqv_row(&job->src, p, sy);

			if (view->src.fmt != s && job->hflip)
				mirror_widen(rows, from, job->src.width);
			else if (view->src.fmt != s)
				widen(rows, from, job->src.width);
			else if (job->hflip)
				mirror_row(job, rows, from, job->src.width,
					   s->bytes_per_group[p]);
			else
				memcpy(rows, from, (size_t)job->src.width *
				       s->bytes_per_group[p]);
			rows += bytes;
		}
	}
	/* The direct row writes its rows 0 and 1: destination rows y, y + 1. */
	for (p = 0; p < d->num_planes; p++)
		view->dst.planes[p] = hqv_row(&job->dst, p,
					      p && d->vsub == 2 ? y / 2 : y);
	head->place(view, &head->place_band, 0);
}

/*
 * A flip that copies (the same format on both sides, colours unchanged)
 * mirrors the source rows straight into the destination.
 */
static void mirror_pair(const struct hqv_job *job, struct hqv_band *band,
			uint32_t y)
{
	const struct hqv_format *s = job->src.fmt;
	unsigned int p, r;

	for (p = 0; p < s->num_planes; p++) {
		uint32_t g = s->bytes_per_group[p], w = job->src.width;

		for (r = 0; r < 2; r++) {
			uint32_t sy = job->vflip ? job->src.height - 1 - y - r :
				      y + r;
			const uint8_t *from = hqv_row(&job->src, p, sy);
			uint8_t *to = hqv_row(&job->dst, p, y + r);

			if (job->hflip)
				mirror_row(job, to, from, w, g);
			else
				memcpy(to, from, (size_t)g * w);
		}
	}
}

hqv_direct_fn *hqv_direct_flip_find(const struct hqv_job *job, size_t *scratch)
{
	const struct hqv_format *s = job->src.fmt;
	size_t place_scratch;

	*scratch = 0;
	if (job->src.field != HQV_FIELD_NONE || job->rotation ||
	    !(job->hflip || job->vflip) || s->hsub != 1 || s->vsub != 1 ||
	    !hqv_job_whole(job))
		return NULL;
	if (hqv_direct_copies(job))
		return mirror_pair;
	if (!hqv_direct_place_find(job, &place_scratch))
		return NULL;
	*scratch = place_offset(job) + place_scratch;
	return flip_pair;
}
