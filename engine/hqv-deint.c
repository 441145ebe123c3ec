// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Deinterlacing (docs/engine.md, step 0): frame row y of a field-based
 * source, as a progressive row of 4:4:4 samples. The kept field is the one
 * first in time (the top field of a TB frame), or the field an ALTERNATE
 * buffer holds; the other field's rows are woven, interpolated, blended
 * or chosen between the two by motion.
 */
#include "hqv-internal.h"

/* Luma change, in code values, above which a pixel counts as moving. */
#define HQV_MOTION_THRESHOLD	12

/* 0 for the top field (even rows), 1 for the bottom field. */
static uint32_t kept_field(enum hqv_field f)
{
	return f == HQV_FIELD_INTERLACED_BT || f == HQV_FIELD_SEQ_BT ||
	       f == HQV_FIELD_ALTERNATE_BOTTOM;
}

/* Frame row y of img (the source or prev): row y / 2 of its field. */
static void read_row(const struct hqv_job *job, const struct hqv_image *img,
		     uint32_t y, uint32_t x0, uint32_t n, uint16_t *out[4])
{
	const struct hqv_image *fields = img == &job->src ?
		job->plan.fields : job->plan.prev_fields;

	hqv_unpack(job, &fields[y % 2], y / 2, x0, n, out);
}

static void average(uint16_t *out[4], uint16_t *const a[4],
		    uint16_t *const b[4], uint32_t n)
{
	uint32_t c, i;

	for (c = 0; c < 4; c++)
		for (i = 0; i < n; i++)
			out[c][i] = (a[c][i] + b[c][i] + 1) / 2;
}

/* Row y of the other field, interpolated from the kept rows around it. */
static void interpolate(const struct hqv_job *job, struct hqv_line *tmp,
			uint32_t y, uint32_t x0, uint32_t n, uint16_t *out[4])
{
	uint32_t h = job->src.height;
	uint32_t above = y > 0 ? y - 1 : y + 1;
	uint32_t below = y + 1 < h ? y + 1 : y - 1;

	read_row(job, &job->src, above, x0, n, tmp[0].c);
	read_row(job, &job->src, below, x0, n, tmp[1].c);
	average(out, tmp[0].c, tmp[1].c, n);
}

/*
 * The other field's row y as it was captured: in this frame, or for
 * ALTERNATE in the previous buffer when that holds the other field.
 * Returns false when there is no such row.
 */
static bool woven(const struct hqv_job *job, uint32_t y, uint32_t x0,
		  uint32_t n, uint16_t *out[4])
{
	const struct hqv_image *prev = job->prev;

	if (!hqv_is_alternate(job->src.field)) {
		read_row(job, &job->src, y, x0, n, out);
		return true;
	}
	if (!prev || kept_field(prev->field) == kept_field(job->src.field))
		return false;
	read_row(job, prev, y, x0, n, out);
	return true;
}

/* Blend: every row of the woven frame low-passed down, [1 2 1] / 4. */
static void blend(const struct hqv_job *job, struct hqv_line *tmp, uint32_t y,
		  uint32_t x0, uint32_t n, uint16_t *out[4])
{
	uint32_t h = job->src.height, c, i;
	uint32_t above = y > 0 ? y - 1 : y + 1;
	uint32_t below = y + 1 < h ? y + 1 : y - 1;

	read_row(job, &job->src, above, x0, n, tmp[0].c);
	read_row(job, &job->src, y, x0, n, out);
	read_row(job, &job->src, below, x0, n, tmp[1].c);
	for (c = 0; c < 4; c++)
		for (i = 0; i < n; i++)
			out[c][i] = (tmp[0].c[c][i] + 2 * out[c][i] +
				     tmp[1].c[c][i] + 2) / 4;
}

/*
 * Motion-adaptive: the captured row where the picture is still, the
 * interpolated one where it moved. Motion is the luma change of the
 * pixel against the previous frame; for ALTERNATE, whose previous buffer
 * is the other field itself, against the interpolation.
 */
static void motion_adaptive(const struct hqv_job *job, struct hqv_line *tmp,
			    uint32_t y, uint32_t x0, uint32_t n,
			    uint16_t *out[4])
{
	const uint32_t threshold = HQV_MOTION_THRESHOLD * HQV_ONE;
	const uint16_t *reference;
	uint32_t c, i;

	interpolate(job, tmp, y, x0, n, out);
	if (!woven(job, y, x0, n, tmp[0].c))
		return;
	if (hqv_is_alternate(job->src.field)) {
		reference = out[0];
	} else if (job->prev) {
		read_row(job, job->prev, y, x0, n, tmp[1].c);
		reference = tmp[1].c[0];
	} else {
		return;		/* no history: every pixel may have moved */
	}
	for (i = 0; i < n; i++) {
		uint32_t d = tmp[0].c[0][i] > reference[i] ?
			     tmp[0].c[0][i] - reference[i] :
			     reference[i] - tmp[0].c[0][i];

		if (d <= threshold)
			for (c = 0; c < 4; c++)
				out[c][i] = tmp[0].c[c][i];
	}
}

void hqv_source_row(const struct hqv_job *job, struct hqv_line *tmp,
		    uint32_t y, uint32_t x0, uint32_t n, uint16_t *out[4])
{
	enum hqv_field field = job->src.field;

	if (field == HQV_FIELD_NONE) {
		hqv_unpack(job, &job->src, y, x0, n, out);
		return;
	}
	if (job->deinterlace == HQV_DEINTERLACE_BLEND && !hqv_is_alternate(field)) {
		blend(job, tmp, y, x0, n, out);
		return;
	}
	if (y % 2 == kept_field(field)) {
		read_row(job, &job->src, y, x0, n, out);
		return;
	}
	switch (job->deinterlace) {
	case HQV_DEINTERLACE_WEAVE:
		if (!woven(job, y, x0, n, out))
			interpolate(job, tmp, y, x0, n, out);
		break;
	case HQV_DEINTERLACE_BOB:
	case HQV_DEINTERLACE_BLEND:	/* one field: nothing to blend with */
		interpolate(job, tmp, y, x0, n, out);
		break;
	case HQV_DEINTERLACE_MOTION_ADAPTIVE:
		motion_adaptive(job, tmp, y, x0, n, out);
		break;
	}
}
