// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Horizontal scaling of one line (docs/engine.md, step 5), and the area
 * filter's boxes. Positions are 32.32 fixed point, the step rounded up
 * (see hqv_job_prepare()), so no division is needed per pixel.
 */
#include "hqv-internal.h"

#define ONE32	(1ULL << 32)

static void nearest(const uint16_t *in, uint16_t *out, uint32_t n_in,
		    uint32_t n_out, uint64_t step)
{
	uint64_t pos = step / 2;
	uint32_t d;

	for (d = 0; d < n_out; d++, pos += step) {
		uint32_t i = pos >> 32;

		out[d] = in[i < n_in ? i : n_in - 1];
	}
}

static void bilinear(const uint16_t *in, uint16_t *out, uint32_t n_in,
		     uint32_t n_out, uint64_t step)
{
	/* Centre of destination pixel d, in source pixels: (d + 0.5) * step - 0.5. */
	int64_t pos = (int64_t)(step / 2) - (int64_t)(ONE32 / 2);
	int64_t last = (int64_t)(n_in - 1) << 32;
	uint32_t d;

	for (d = 0; d < n_out; d++, pos += step) {
		int64_t u = pos < 0 ? 0 : pos > last ? last : pos;
		uint32_t i = u >> 32, f = (u >> 16) & 0xffff;
		uint32_t j = i + 1 < n_in ? i + 1 : i;

		out[d] = (in[i] * (65536 - f) + in[j] * f + 32768) >> 16;
	}
}

/*
 * The area filter's box along one axis (docs/engine.md, step 5):
 * destination pixel d covers [d step, (d + 1) step) of the n source
 * pixels, its end cut at the last one (the step is rounded up). Each
 * pixel it touches weighs its overlap in units of 2^-16 of the step,
 * rounded down to a power of two (the step's top 16 bits: at least 4
 * bits at 1:8192): whole pixels weigh a power of two alike, a box's
 * weights sum to under 2^16 at any ratio, and two axes' products times
 * a sample fit 46 bits. A weight is within one unit of its overlap.
 */
void hqv_area_span(uint64_t step, uint32_t n, uint32_t d,
		   struct hqv_area_span *span)
{
	const unsigned int shift = hqv_area_shift(step);
	const uint64_t last = (uint64_t)n << 32, start = d * step;
	uint64_t end = start + step < last ? start + step : last;
	uint64_t first_end = ((start >> 32) + 1) << 32;

	span->first = start >> 32;
	span->count = (uint32_t)(((end + ONE32 - 1) >> 32) - span->first);
	if (span->count == 1) {
		span->w_first = (end - start) >> shift;
		span->w_last = 0;
		span->total = span->w_first;
		return;
	}
	span->w_first = (first_end - start) >> shift;
	span->w_last = (end - ((end - 1) >> 32 << 32)) >> shift;
	span->total = span->w_first + span->w_last +
		      (span->count - 2) * (uint32_t)(ONE32 >> shift);
}

void hqv_scale_line(const struct hqv_job *job, const struct hqv_line *in,
		    struct hqv_line *out)
{
	const struct hqv_plan *plan = &job->plan;
	uint32_t n_in = plan->oriented_width, n_out = job->compose.width, c;

	for (c = 0; c < plan->channels; c++) {
		switch (job->scaler) {
		case HQV_SCALER_NEAREST:
			nearest(in->c[c], out->c[c], n_in, n_out, plan->step_x);
			break;
		case HQV_SCALER_BILINEAR:
			bilinear(in->c[c], out->c[c], n_in, n_out, plan->step_x);
			break;
		case HQV_SCALER_AREA:	/* both ways at once: hqv.c */
			break;
		}
	}
}
