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

/* Sizes the engine accepts: any even width and height in this range. */
#define HQV_MIN_WIDTH	2
#define HQV_MIN_HEIGHT	2
#define HQV_MAX_WIDTH	8192
#define HQV_MAX_HEIGHT	8192
#define HQV_SIZE_STEP	2

/* How the samples of a format are laid out in memory. */
enum hqv_layout {
	/* Y'CbCr 4:2:2, two pixels in four bytes (YUYV and its orderings). */
	HQV_LAYOUT_PACKED_422,
};

struct hqv_format {
	uint32_t fourcc;
	const char *name;
	enum hqv_layout layout;
	/* Memory planes, and for each the bytes one pixel column takes. */
	uint8_t num_planes;
	uint8_t bytes_per_pixel[HQV_MAX_PLANES];
	/* Chroma subsampling: horizontal and vertical divisors. */
	uint8_t hsub, vsub;
	/* HQV_LAYOUT_PACKED_422: byte offsets of Y0, Cb, Y1, Cr in a pair. */
	uint8_t order[4];
};

/* The format with this fourcc, or NULL. */
const struct hqv_format *hqv_format_find(uint32_t fourcc);

/* The index-th format of the table, or NULL past its end. */
const struct hqv_format *hqv_format_at(unsigned int index);

/*
 * Plane layout of a width x height image: fills bytesperline[] and size[]
 * for each plane. A bytesperline[] value the caller asks for is kept when it
 * is at least the minimum and at most HQV_MAX_BYTESPERLINE; otherwise it is
 * replaced by the minimum. Width and height must already be valid sizes.
 * Returns the total size in bytes.
 */
#define HQV_MAX_BYTESPERLINE	(4 * HQV_MAX_WIDTH * 2)
uint32_t hqv_format_layout(const struct hqv_format *fmt, uint32_t width,
			   uint32_t height, uint32_t bytesperline[HQV_MAX_PLANES],
			   uint32_t size[HQV_MAX_PLANES]);

/* Clamp a requested size into the engine's range, rounded to HQV_SIZE_STEP. */
void hqv_format_clamp_size(uint32_t *width, uint32_t *height);

#endif /* HQV_FORMAT_H */
