/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The tests' reference model of the HQV engine: docs/engine.md step by step,
 * in double precision, rounding once at the very end. It is written from the
 * specification, not from the engine: the only engine code it uses is the
 * format table (hqv_format_find() and the fields of struct hqv_format).
 */
#ifndef REFERENCE_H
#define REFERENCE_H

#include "hqv.h"

/*
 * A 4:4:4 picture of code values (0..255, fractions allowed): channels 0..2
 * are the samples of the format's colour space (Y', Cb, Cr or R', G', B'),
 * channel 3 is alpha.
 */
struct ref_picture {
	uint32_t width;
	uint32_t height;
	double *c[4];
};

#define REF_AT(pic, ch, x, y) \
	((pic)->c[ch][(size_t)(y) * (pic)->width + (x)])

struct ref_picture *ref_picture_new(uint32_t width, uint32_t height);
void ref_picture_free(struct ref_picture *pic);

/*
 * Colour plane p of an image whose planes are at mem[] (img->planes, or
 * another buffer laid out alike): its first byte, its pitch, the bytes its
 * samples take on a line and its number of lines.
 */
struct ref_plane {
	uint8_t *base;
	uint32_t pitch;
	uint32_t line_bytes;
	uint32_t lines;
};

void ref_plane(const struct hqv_image *img, uint8_t *const mem[HQV_MAX_PLANES],
	       unsigned int p, struct ref_plane *plane);

/*
 * Step 2: the samples of img (from img->planes), up-sampled to 4:4:4. The
 * alpha channel is alpha when the format has none.
 */
void ref_unpack(const struct hqv_image *img, uint8_t alpha,
		struct ref_picture *pic);

/*
 * Step 7: a picture of img's size in img's colour space, chroma down-sampled,
 * rounded (half up), clamped and packed into the colour planes mem[], laid
 * out as img. Only the bytes samples occupy are written, and the second
 * luma of an odd width's last packed macropixel, which repeats the last
 * luma; X bytes are written 0xff.
 */
void ref_pack(const struct hqv_image *img, const struct ref_picture *pic,
	      uint8_t *const mem[HQV_MAX_PLANES]);

/*
 * The destination frame of a valid job (one hqv_job_prepare() accepts),
 * written into the colour planes mem[], laid out as job->dst. The job's own
 * memory is only read (the source).
 */
void ref_run(const struct hqv_job *job, uint8_t *const mem[HQV_MAX_PLANES]);

#endif /* REFERENCE_H */
