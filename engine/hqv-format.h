/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one pixel-format table of the project.
 *
 * The engine, the vhqv module, libm2m and the Python bindings all derive
 * what they know about a format (its planes, its subsampling, how many bytes
 * a line takes) from this table. Fourcc values are V4L2's, so a format is
 * named by the same 32-bit code everywhere.
 */
#ifndef HQV_FORMAT_H
#define HQV_FORMAT_H

#include "hqv-types.h"

#define HQV_FOURCC(a, b, c, d) \
	((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | \
	 ((uint32_t)(d) << 24))

#define HQV_MAX_PLANES	3

/*
 * Sizes the engine accepts: any width and height in this range, odd ones
 * too, whatever the chroma subsampling (hqv_plane_groups() rounds chroma
 * up).
 */
#define HQV_MIN_WIDTH	1
#define HQV_MIN_HEIGHT	1
#define HQV_MAX_WIDTH	8192
#define HQV_MAX_HEIGHT	8192
/* The widest line pitch accepted: the widest line of the widest format. */
#define HQV_MAX_BYTESPERLINE	(4 * HQV_MAX_WIDTH)

/* How the samples of a format are laid out in memory. */
enum hqv_family {
	/* Y'CbCr 4:2:2, two pixels in four bytes: order = Y0, Cb, Y1, Cr. */
	HQV_FAMILY_PACKED_YUV,
	/* A luma plane and an interleaved chroma plane: order = Cb, Cr. */
	HQV_FAMILY_SEMIPLANAR,
	/* Three planes: order = the plane index of Y, Cb, Cr. */
	HQV_FAMILY_PLANAR,
	/* Luma only. */
	HQV_FAMILY_GREY,
	/* 3 or 4 bytes per pixel: order = the byte of R, G, B, A (A: -1). */
	HQV_FAMILY_RGB,
	/* 16-bit little-endian words, red in the high 5 bits. */
	HQV_FAMILY_RGB565,
};

#define HQV_NO_ALPHA	0xff

struct hqv_format {
	uint32_t fourcc;
	const char *name;
	enum hqv_family family;
	/* Y'CbCr (true) or R'G'B' (false) samples. */
	bool is_yuv;
	/* Colour planes (1 to 3), and memory planes: 1 when all planes share
	 * one buffer, one after the other (NV12), else num_planes (NV12M). */
	uint8_t num_planes;
	uint8_t mem_planes;
	/* Bytes one sample group of each plane takes: 2 for YUYV (a pixel),
	 * 2 for NV12's CbCr plane (one Cb, one Cr), 4 for XRGB32. */
	uint8_t bytes_per_group[HQV_MAX_PLANES];
	/* Chroma subsampling: horizontal and vertical divisors. */
	uint8_t hsub, vsub;
	/* Family-specific sample positions, see enum hqv_family. */
	uint8_t order[4];
};

/* The format with this fourcc, or NULL. */
const struct hqv_format *hqv_format_find(uint32_t fourcc);

/* The index-th format of the table, or NULL past its end. */
const struct hqv_format *hqv_format_at(unsigned int index);

/* True when the format has an alpha channel. */
static inline bool hqv_format_has_alpha(const struct hqv_format *fmt)
{
	return fmt->family == HQV_FAMILY_RGB && fmt->order[3] != HQV_NO_ALPHA;
}

/*
 * The sample groups on a line of colour plane p of a width-pixel image.
 * Chroma rounds up, as libyuv and FFmpeg do: a 4:2:0 plane of a 451x427
 * image is 226x214 samples, its last column and row sited on the image's
 * last luma column and row. A packed 4:2:2 line holds whole macropixels,
 * so its groups (one a pixel) round up to even: at an odd width the last
 * macropixel's second luma lies past the image.
 */
static inline uint32_t hqv_plane_groups(const struct hqv_format *fmt,
					unsigned int p, uint32_t width)
{
	uint32_t chroma = (width + fmt->hsub - 1) / fmt->hsub;

	if (p)
		return chroma;
	return fmt->family == HQV_FAMILY_PACKED_YUV ? chroma * fmt->hsub :
						      width;
}

/* The lines of colour plane p of a height-line image, chroma rounded up. */
static inline uint32_t hqv_plane_lines(const struct hqv_format *fmt,
				       unsigned int p, uint32_t height)
{
	return p ? (height + fmt->vsub - 1) / fmt->vsub : height;
}

/* The bytes a line of plane p's samples takes: its shortest pitch. */
static inline uint32_t hqv_plane_line_bytes(const struct hqv_format *fmt,
					    unsigned int p, uint32_t width)
{
	return hqv_plane_groups(fmt, p, width) * fmt->bytes_per_group[p];
}

/*
 * Plane layout of a width x height image: fills bytesperline[] and size[]
 * for each plane. A bytesperline[] value the caller asks for is kept when it
 * is at least the minimum (hqv_plane_line_bytes()) and at most
 * HQV_MAX_BYTESPERLINE; otherwise it is replaced by the minimum. When the
 * format keeps all planes in one buffer, only bytesperline[0] is asked for
 * and the other planes' pitches follow from it, as V4L2 defines (YUV420:
 * half); so that their lines stay whole, it is rounded up to a multiple of
 * the subsampling, as V4L2's v4l2_fill_pixfmt() aligns the width (YUV420
 * 451 wide: 452, chroma 226). Width and height must already be valid
 * sizes. Returns the total size in bytes.
 */
uint32_t hqv_format_layout(const struct hqv_format *fmt, uint32_t width,
			   uint32_t height, uint32_t bytesperline[HQV_MAX_PLANES],
			   uint32_t size[HQV_MAX_PLANES]);

/* Clamp a requested size into the engine's range. */
void hqv_format_clamp_size(uint32_t *width, uint32_t *height);

#endif /* HQV_FORMAT_H */
