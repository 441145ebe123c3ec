// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The pixel-format table and the plane arithmetic derived from it.
 * Byte orders are V4L2's (Documentation/userspace-api/media/v4l/pixfmt-*).
 */
#include "hqv-format.h"

#define FMT(a, b, c, d, str, fam, yuv, np, mp, g0, g1, g2, hs, vs, o0, o1, o2, o3) \
	{								\
		.fourcc = HQV_FOURCC(a, b, c, d), .name = str,		\
		.family = HQV_FAMILY_##fam, .is_yuv = yuv,		\
		.num_planes = np, .mem_planes = mp,			\
		.bytes_per_group = { g0, g1, g2 },			\
		.hsub = hs, .vsub = vs, .order = { o0, o1, o2, o3 },	\
	}

#define PACKED_YUV(a, b, c, d, str, y0, cb, y1, cr) \
	FMT(a, b, c, d, str, PACKED_YUV, true, 1, 1, 2, 0, 0, 2, 1, y0, cb, y1, cr)
#define SEMIPLANAR(a, b, c, d, str, mp, hs, vs, cb, cr) \
	FMT(a, b, c, d, str, SEMIPLANAR, true, 2, mp, 1, 2, 0, hs, vs, cb, cr, 0, 0)
#define PLANAR(a, b, c, d, str, mp, hs, vs, cb, cr) \
	FMT(a, b, c, d, str, PLANAR, true, 3, mp, 1, 1, 1, hs, vs, 0, cb, cr, 0)
#define RGB(a, b, c, d, str, bytes, r, g, bl, al) \
	FMT(a, b, c, d, str, RGB, false, 1, 1, bytes, 0, 0, 1, 1, r, g, bl, al)

#define NA HQV_NO_ALPHA

static const struct hqv_format hqv_formats[] = {
	PACKED_YUV('Y', 'U', 'Y', 'V', "YUYV", 0, 1, 2, 3),
	PACKED_YUV('U', 'Y', 'V', 'Y', "UYVY", 1, 0, 3, 2),
	PACKED_YUV('Y', 'V', 'Y', 'U', "YVYU", 0, 3, 2, 1),
	PACKED_YUV('V', 'Y', 'U', 'Y', "VYUY", 1, 2, 3, 0),
	SEMIPLANAR('N', 'V', '1', '2', "NV12", 1, 2, 2, 0, 1),
	SEMIPLANAR('N', 'V', '2', '1', "NV21", 1, 2, 2, 1, 0),
	SEMIPLANAR('N', 'V', '1', '6', "NV16", 1, 2, 1, 0, 1),
	SEMIPLANAR('N', 'V', '6', '1', "NV61", 1, 2, 1, 1, 0),
	SEMIPLANAR('N', 'V', '2', '4', "NV24", 1, 1, 1, 0, 1),
	PLANAR('Y', 'U', '1', '2', "YUV420", 1, 2, 2, 1, 2),
	PLANAR('Y', 'V', '1', '2', "YVU420", 1, 2, 2, 2, 1),
	PLANAR('4', '2', '2', 'P', "YUV422P", 1, 2, 1, 1, 2),
	FMT('G', 'R', 'E', 'Y', "GREY", GREY, true, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0),
	RGB('R', 'G', 'B', '3', "RGB24", 3, 0, 1, 2, NA),
	RGB('B', 'G', 'R', '3', "BGR24", 3, 2, 1, 0, NA),
	FMT('R', 'G', 'B', 'P', "RGB565", RGB565, false, 1, 1, 2, 0, 0, 1, 1, 0, 0, 0, 0),
	RGB('B', 'X', '2', '4', "XRGB32", 4, 1, 2, 3, NA),
	RGB('X', 'R', '2', '4', "XBGR32", 4, 2, 1, 0, NA),
	RGB('B', 'A', '2', '4', "ARGB32", 4, 1, 2, 3, 0),
	RGB('A', 'R', '2', '4', "ABGR32", 4, 2, 1, 0, 3),
	RGB('X', 'B', '2', '4', "RGBX32", 4, 0, 1, 2, NA),
	RGB('A', 'B', '2', '4', "RGBA32", 4, 0, 1, 2, 3),
	RGB('R', 'X', '2', '4', "BGRX32", 4, 3, 2, 1, NA),
	RGB('R', 'A', '2', '4', "BGRA32", 4, 3, 2, 1, 0),
	/* One memory plane per colour plane (multi-planar API only). */
	SEMIPLANAR('N', 'M', '1', '2', "NV12M", 2, 2, 2, 0, 1),
	SEMIPLANAR('N', 'M', '2', '1', "NV21M", 2, 2, 2, 1, 0),
	PLANAR('Y', 'M', '1', '2', "YUV420M", 3, 2, 2, 1, 2),
	PLANAR('Y', 'M', '2', '1', "YVU420M", 3, 2, 2, 2, 1),
	PLANAR('Y', 'M', '2', '4', "YUV444M", 3, 1, 1, 1, 2),
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

static uint32_t clamp(uint32_t v, uint32_t min, uint32_t max)
{
	return v < min ? min : v > max ? max : v;
}

void hqv_format_clamp_size(uint32_t *width, uint32_t *height)
{
	*width = clamp(*width, HQV_MIN_WIDTH, HQV_MAX_WIDTH);
	*height = clamp(*height, HQV_MIN_HEIGHT, HQV_MAX_HEIGHT);
}

uint32_t hqv_format_layout(const struct hqv_format *fmt, uint32_t width,
			   uint32_t height, uint32_t bytesperline[HQV_MAX_PLANES],
			   uint32_t size[HQV_MAX_PLANES])
{
	bool contiguous = fmt->mem_planes == 1 && fmt->num_planes > 1;
	/* In one buffer, a chroma line is a fixed fraction of a luma line. */
	uint32_t align = contiguous ? fmt->hsub * fmt->bytes_per_group[0] : 1;
	uint32_t total = 0;
	unsigned int p;

	for (p = 0; p < HQV_MAX_PLANES; p++) {
		uint32_t min, lines;

		if (p >= fmt->num_planes) {
			bytesperline[p] = 0;
			size[p] = 0;
			continue;
		}
		min = hqv_plane_line_bytes(fmt, p, width);
		lines = hqv_plane_lines(fmt, p, height);
		if (p > 0 && contiguous) {
			bytesperline[p] = bytesperline[0] * fmt->bytes_per_group[p] /
					  (fmt->bytes_per_group[0] * fmt->hsub);
		} else {
			if (bytesperline[p] < min ||
			    bytesperline[p] > HQV_MAX_BYTESPERLINE)
				bytesperline[p] = min;
			bytesperline[p] += (align - bytesperline[p] % align) % align;
		}
		size[p] = bytesperline[p] * lines;
		total += size[p];
	}
	return total;
}
