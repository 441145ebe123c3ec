// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The HQV engine's pixel pipeline.
 */
#include "hqv.h"

static int check_image(const struct hqv_image *img)
{
	uint32_t bpl[HQV_MAX_PLANES], size[HQV_MAX_PLANES];
	unsigned int p;

	if (!img->fmt || img->width < HQV_MIN_WIDTH ||
	    img->width > HQV_MAX_WIDTH || img->height < HQV_MIN_HEIGHT ||
	    img->height > HQV_MAX_HEIGHT || img->width % HQV_SIZE_STEP ||
	    img->height % HQV_SIZE_STEP)
		return -EINVAL;

	memcpy(bpl, img->bytesperline, sizeof(bpl));
	hqv_format_layout(img->fmt, img->width, img->height, bpl, size);
	for (p = 0; p < img->fmt->num_planes; p++)
		if (!img->planes[p] || bpl[p] != img->bytesperline[p])
			return -EINVAL;
	return 0;
}

int hqv_job_check(const struct hqv_job *job)
{
	if (check_image(&job->src) || check_image(&job->dst))
		return -EINVAL;
	if (job->src.width != job->dst.width ||
	    job->src.height != job->dst.height)
		return -EINVAL;
	return 0;
}

/*
 * Packed 4:2:2 to packed 4:2:2: each pair of pixels (Y0 Cb Y1 Cr) is read in
 * the source byte order and written in the destination's. A horizontal flip
 * walks the source pairs backwards and swaps the two lumas of each pair,
 * which keeps the shared chroma sample with the pixels it belongs to.
 */
static void packed422_row(const struct hqv_job *job, const uint8_t *src,
			  uint8_t *dst)
{
	const uint8_t *si = job->src.fmt->order, *di = job->dst.fmt->order;
	uint32_t pairs = job->dst.width / 2, x;

	for (x = 0; x < pairs; x++) {
		const uint8_t *s = src + 4 * (job->hflip ? pairs - 1 - x : x);
		uint8_t *d = dst + 4 * x;

		d[di[0]] = s[si[job->hflip ? 2 : 0]];
		d[di[1]] = s[si[1]];
		d[di[2]] = s[si[job->hflip ? 0 : 2]];
		d[di[3]] = s[si[3]];
	}
}

void hqv_job_run(const struct hqv_job *job, uint32_t y0, uint32_t y1)
{
	const struct hqv_image *src = &job->src, *dst = &job->dst;
	uint32_t y;

	if (y1 > dst->height)
		y1 = dst->height;

	for (y = y0; y < y1; y++) {
		uint32_t sy = job->vflip ? src->height - 1 - y : y;

		packed422_row(job, src->planes[0] + sy * src->bytesperline[0],
			      dst->planes[0] + y * dst->bytesperline[0]);
	}
}
