// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Horizontal scaling of one line (docs/engine.md, step 5). Positions are
 * 32.32 fixed point, the step rounded up (see hqv_job_prepare()), so no
 * division is needed per pixel but in the area filter's normalisation.
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

static void area(const uint16_t *in, uint16_t *out, uint32_t n_in,
		 uint32_t n_out, uint64_t step)
{
	uint64_t start = 0, last = (uint64_t)n_in << 32;
	uint32_t d;

	for (d = 0; d < n_out; d++, start += step) {
		uint64_t end = start + step < last ? start + step : last;
		uint64_t sum = 0, total = 0;
		uint32_t i;

		for (i = start >> 32; ((uint64_t)i << 32) < end; i++) {
			uint64_t lo = (uint64_t)i << 32, hi = lo + ONE32;
			uint64_t w = ((hi < end ? hi : end) -
				      (lo > start ? lo : start)) >> 16;

			sum += w * in[i];
			total += w;
		}
		out[d] = (sum + total / 2) / total;
	}
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
		case HQV_SCALER_AREA:
			area(in->c[c], out->c[c], n_in, n_out, plan->step_x);
			break;
		}
	}
}
