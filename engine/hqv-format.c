// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The pixel-format table and the plane arithmetic derived from it.
 */
#include "hqv-format.h"

#define PACKED_422(a, b, c, d, str, y0, cb, y1, cr)				\
	{								\
		.fourcc = HQV_FOURCC(a, b, c, d),			\
		.name = str,						\
		.layout = HQV_LAYOUT_PACKED_422,			\
		.num_planes = 1,					\
		.bytes_per_pixel = { 2 },				\
		.hsub = 2, .vsub = 1,					\
		.order = { y0, cb, y1, cr },				\
	}

static const struct hqv_format hqv_formats[] = {
	PACKED_422('Y', 'U', 'Y', 'V', "YUYV", 0, 1, 2, 3),
	PACKED_422('U', 'Y', 'V', 'Y', "UYVY", 1, 0, 3, 2),
	PACKED_422('Y', 'V', 'Y', 'U', "YVYU", 0, 3, 2, 1),
	PACKED_422('V', 'Y', 'U', 'Y', "VYUY", 1, 2, 3, 0),
};

#define HQV_NUM_FORMATS (sizeof(hqv_formats) / sizeof(hqv_formats[0]))

const struct hqv_format *hqv_format_at(unsigned int index)
{
	return index < HQV_NUM_FORMATS ? &hqv_formats[index] : NULL;
}

const struct hqv_format *hqv_format_find(uint32_t fourcc)
{
	unsigned int i;

	for (i = 0; i < HQV_NUM_FORMATS; i++)
		if (hqv_formats[i].fourcc == fourcc)
			return &hqv_formats[i];
	return NULL;
}

static uint32_t clamp_step(uint32_t v, uint32_t min, uint32_t max)
{
	if (v < min)
		v = min;
	if (v > max)
		v = max;
	return v & ~(uint32_t)(HQV_SIZE_STEP - 1);
}

void hqv_format_clamp_size(uint32_t *width, uint32_t *height)
{
	*width = clamp_step(*width, HQV_MIN_WIDTH, HQV_MAX_WIDTH);
	*height = clamp_step(*height, HQV_MIN_HEIGHT, HQV_MAX_HEIGHT);
}

uint32_t hqv_format_layout(const struct hqv_format *fmt, uint32_t width,
			   uint32_t height, uint32_t bytesperline[HQV_MAX_PLANES],
			   uint32_t size[HQV_MAX_PLANES])
{
	uint32_t total = 0;
	unsigned int p;

	for (p = 0; p < HQV_MAX_PLANES; p++) {
		uint32_t min, lines;

		if (p >= fmt->num_planes) {
			bytesperline[p] = 0;
			size[p] = 0;
			continue;
		}
		min = width * fmt->bytes_per_pixel[p];
		lines = height;
		if (p > 0) {
			min /= fmt->hsub;
			lines /= fmt->vsub;
		}
		if (bytesperline[p] < min ||
		    bytesperline[p] > HQV_MAX_BYTESPERLINE)
			bytesperline[p] = min;
		size[p] = bytesperline[p] * lines;
		total += size[p];
	}
	return total;
}
