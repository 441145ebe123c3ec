// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The reference model: each function below is one step of docs/engine.md,
 * on pictures of doubles (steps 2 and 0 in that order: the specification
 * deinterlaces up-sampled rows). Nothing is rounded until ref_pack(); the only
 * clamp before that is the one the specification puts after the colour
 * step.
 */
#include <math.h>
#include <stdlib.h>

#include "reference.h"

#define PI 3.14159265358979323846

struct ref_picture *ref_picture_new(uint32_t width, uint32_t height)
{
	struct ref_picture *pic = calloc(1, sizeof(*pic));
	unsigned int ch;

	if (!pic)
		abort();
	pic->width = width;
	pic->height = height;
	for (ch = 0; ch < 4; ch++) {
		pic->c[ch] = calloc((size_t)width * height, sizeof(double));
		if (!pic->c[ch])
			abort();
	}
	return pic;
}

void ref_picture_free(struct ref_picture *pic)
{
	unsigned int ch;

	if (!pic)
		return;
	for (ch = 0; ch < 4; ch++)
		free(pic->c[ch]);
	free(pic);
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* Memory layout */

/* n / d, rounded up: chroma of odd sizes (docs/engine.md, Formats). */
static uint32_t div_up(uint32_t n, uint32_t d)
{
	return (n + d - 1) / d;
}

static uint32_t plane_lines(const struct hqv_image *img, unsigned int p)
{
	return p == 0 ? img->height : div_up(img->height, img->fmt->vsub);
}

/* A packed 4:2:2 line holds whole macropixels: an even count of pixels. */
void ref_plane(const struct hqv_image *img, uint8_t *const mem[HQV_MAX_PLANES],
	       unsigned int p, struct ref_plane *plane)
{
	const struct hqv_format *f = img->fmt;
	uint32_t groups = p ? div_up(img->width, f->hsub) :
			  f->family == HQV_FAMILY_PACKED_YUV ?
			  2 * div_up(img->width, 2) : img->width;

	plane->base = mem[p];
	plane->pitch = img->bytesperline[p];
	plane->line_bytes = groups * f->bytes_per_group[p];
	plane->lines = plane_lines(img, p);
}

static uint8_t *sample_at(const struct ref_plane *plane, uint32_t byte,
			  uint32_t line)
{
	return plane->base + (size_t)line * plane->pitch + byte;
}

/* Step 2: chroma up-sampling */

/*
 * Whether the job in ref_run() moves no chroma site across (h) or down (v),
 * so that chroma is copied instead of resampled (docs/engine.md, "Chroma
 * copy"). Set by ref_run() for its own unpacking and packing only.
 */
static struct {
	bool h, v;
} chroma_copy;

/*
 * A chroma plane of cw x ch samples to w x h: vertically (4:2:0) centred
 * between luma rows 2k and 2k+1, then horizontally co-sited with even luma
 * columns; neighbours' indices clamped to the plane.
 */
static void upsample(const double *c, uint32_t cw, uint32_t ch,
		     unsigned int hsub, unsigned int vsub, double *out,
		     uint32_t w, uint32_t h)
{
	double *rows = malloc(sizeof(double) * cw * h);
	uint32_t x, y;

	if (!rows)
		abort();
	for (y = 0; y < h; y++) {
		for (x = 0; x < cw; x++) {
			double v;

			if (vsub == 1) {
				v = c[(size_t)y * cw + x];
			} else if (chroma_copy.v) {
				v = c[(size_t)(y / 2) * cw + x];
			} else {
				uint32_t k = y / 2, n;

				if (y % 2 == 0)
					n = k ? k - 1 : 0;
				else
					n = min_u32(k + 1, ch - 1);

				v = 0.75 * c[(size_t)k * cw + x] +
				    0.25 * c[(size_t)n * cw + x];
			}
			rows[(size_t)y * cw + x] = v;
		}
	}
	for (y = 0; y < h; y++) {
		const double *r = rows + (size_t)y * cw;

		for (x = 0; x < w; x++) {
			double v;

			if (hsub == 1)
				v = r[x];
			else if (chroma_copy.h || x % 2 == 0)
				v = r[x / 2];
			else
				v = (r[(x - 1) / 2] +
				     r[min_u32((x + 1) / 2, cw - 1)]) / 2;
			out[(size_t)y * w + x] = v;
		}
	}
	free(rows);
}

/* Averaging with the same siting: vertically (4:2:0) rows 2k and 2k+1,
 * then horizontally [1 2 1] / 4 around even columns, indices clamped (at
 * an odd size, the row or column after the last is the last). */
static void downsample(const double *v, uint32_t w, uint32_t h,
		       unsigned int hsub, unsigned int vsub, double *c,
		       uint32_t cw, uint32_t ch)
{
	double *rows = malloc(sizeof(double) * w * ch);
	uint32_t x, y;

	if (!rows)
		abort();
	for (y = 0; y < ch; y++) {
		uint32_t below = min_u32(2 * y + 1, h - 1);

		for (x = 0; x < w; x++)
			rows[(size_t)y * w + x] = vsub == 1 ?
				v[(size_t)y * w + x] :
				chroma_copy.v ? v[(size_t)(2 * y) * w + x] :
				(v[(size_t)(2 * y) * w + x] +
				 v[(size_t)below * w + x]) / 2;
	}
	for (y = 0; y < ch; y++) {
		const double *r = rows + (size_t)y * w;

		for (x = 0; x < cw; x++)
			c[(size_t)y * cw + x] = hsub == 1 ? r[x] :
				chroma_copy.h ? r[2 * x] :
				(r[x ? 2 * x - 1 : 0] + 2 * r[2 * x] +
				 r[min_u32(2 * x + 1, w - 1)]) / 4;
	}
	free(rows);
}

/*
 * The byte of each Y'CbCr sample: packed formats hold Y0 Cb Y1 Cr in four
 * bytes; semi-planar ones interleave Cb and Cr in plane 1; planar ones name
 * the plane of Y, Cb and Cr.
 */
struct yuv_access {
	struct ref_plane luma;
	struct ref_plane cb, cr;
	uint32_t luma_step, chroma_step;	/* bytes between samples */
	uint32_t cb_offset, cr_offset;	/* byte of the first one */
	uint32_t cw, ch;			/* chroma samples */
};

static void yuv_access(const struct hqv_image *img,
		       uint8_t *const mem[HQV_MAX_PLANES],
		       struct yuv_access *a)
{
	const struct hqv_format *f = img->fmt;

	a->cw = div_up(img->width, f->hsub);
	a->ch = div_up(img->height, f->vsub);
	switch (f->family) {
	case HQV_FAMILY_PACKED_YUV:
		/* Luma at order[0] and order[2]: handled by the caller. */
		ref_plane(img, mem, 0, &a->luma);
		a->cb = a->luma;
		a->cr = a->luma;
		a->luma_step = 2;
		a->chroma_step = 4;
		a->cb_offset = f->order[1];
		a->cr_offset = f->order[3];
		break;
	case HQV_FAMILY_SEMIPLANAR:
		ref_plane(img, mem, 0, &a->luma);
		ref_plane(img, mem, 1, &a->cb);
		a->cr = a->cb;
		a->luma_step = 1;
		a->chroma_step = 2;
		a->cb_offset = f->order[0];
		a->cr_offset = f->order[1];
		break;
	default: /* HQV_FAMILY_PLANAR */
		ref_plane(img, mem, f->order[0], &a->luma);
		ref_plane(img, mem, f->order[1], &a->cb);
		ref_plane(img, mem, f->order[2], &a->cr);
		a->luma_step = 1;
		a->chroma_step = 1;
		a->cb_offset = 0;
		a->cr_offset = 0;
		break;
	}
}

static uint8_t *luma_byte(const struct hqv_image *img,
			  const struct yuv_access *a, uint32_t x, uint32_t y)
{
	if (img->fmt->family == HQV_FAMILY_PACKED_YUV)
		return sample_at(&a->luma, 4 * (x / 2) +
				 img->fmt->order[x % 2 ? 2 : 0], y);
	return sample_at(&a->luma, x, y);
}

static void unpack_yuv(const struct hqv_image *img, struct ref_picture *pic)
{
	const struct hqv_format *f = img->fmt;
	struct yuv_access a;
	double *cb, *cr;
	uint32_t x, y;

	yuv_access(img, img->planes, &a);
	for (y = 0; y < img->height; y++)
		for (x = 0; x < img->width; x++)
			REF_AT(pic, 0, x, y) = *luma_byte(img, &a, x, y);

	cb = malloc(sizeof(double) * a.cw * a.ch);
	cr = malloc(sizeof(double) * a.cw * a.ch);
	if (!cb || !cr)
		abort();
	for (y = 0; y < a.ch; y++) {
		for (x = 0; x < a.cw; x++) {
			uint32_t byte = x * a.chroma_step;

			cb[(size_t)y * a.cw + x] =
				*sample_at(&a.cb, byte + a.cb_offset, y);
			cr[(size_t)y * a.cw + x] =
				*sample_at(&a.cr, byte + a.cr_offset, y);
		}
	}
	upsample(cb, a.cw, a.ch, f->hsub, f->vsub, pic->c[1], pic->width,
		 pic->height);
	upsample(cr, a.cw, a.ch, f->hsub, f->vsub, pic->c[2], pic->width,
		 pic->height);
	free(cb);
	free(cr);
}

static bool is_yuv_family(const struct hqv_format *f)
{
	return f->family == HQV_FAMILY_PACKED_YUV ||
	       f->family == HQV_FAMILY_SEMIPLANAR ||
	       f->family == HQV_FAMILY_PLANAR;
}

static uint32_t rgb565_word(const uint8_t *b)
{
	return b[0] | (uint32_t)b[1] << 8;
}

void ref_unpack(const struct hqv_image *img, uint8_t alpha,
		struct ref_picture *pic)
{
	const struct hqv_format *f = img->fmt;
	struct ref_plane plane;
	uint32_t x, y;

	ref_plane(img, img->planes, 0, &plane);
	for (y = 0; y < img->height; y++) {
		for (x = 0; x < img->width; x++) {
			const uint8_t *b = sample_at(&plane,
					x * f->bytes_per_group[0], y);
			double v[4] = { 0, 128, 128, alpha };
			uint32_t word;

			switch (f->family) {
			case HQV_FAMILY_RGB:
				v[0] = b[f->order[0]];
				v[1] = b[f->order[1]];
				v[2] = b[f->order[2]];
				if (hqv_format_has_alpha(f))
					v[3] = b[f->order[3]];
				break;
			case HQV_FAMILY_RGB565:
				word = rgb565_word(b);
				v[0] = (word >> 11) << 3 | (word >> 11) >> 2;
				v[1] = ((word >> 5) & 63) << 2 |
				       ((word >> 5) & 63) >> 4;
				v[2] = (word & 31) << 3 | (word & 31) >> 2;
				break;
			case HQV_FAMILY_GREY:
				v[0] = b[0];
				break;
			default:	/* Y'CbCr: below */
				break;
			}
			REF_AT(pic, 0, x, y) = v[0];
			REF_AT(pic, 1, x, y) = v[1];
			REF_AT(pic, 2, x, y) = v[2];
			REF_AT(pic, 3, x, y) = v[3];
		}
	}
	if (is_yuv_family(f))
		unpack_yuv(img, pic);
}

/* Step 7: chroma down-sampling, rounding and packing */

static uint8_t round_code(double v)
{
	v = floor(v + 0.5);
	return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v;
}

static uint32_t round_bits(double v8, unsigned int bits)
{
	double max = (1u << bits) - 1;
	double v = floor(v8 * max / 255 + 0.5);

	return v < 0 ? 0 : v > max ? (uint32_t)max : (uint32_t)v;
}

static void pack_yuv(const struct hqv_image *img, const struct ref_picture *pic,
		     uint8_t *const mem[HQV_MAX_PLANES])
{
	const struct hqv_format *f = img->fmt;
	struct yuv_access a;
	double *cb, *cr;
	uint32_t x, y;

	yuv_access(img, mem, &a);
	for (y = 0; y < img->height; y++) {
		for (x = 0; x < img->width; x++)
			*luma_byte(img, &a, x, y) =
				round_code(REF_AT(pic, 0, x, y));
		/* Half a macropixel: its second luma repeats the last. */
		if (f->family == HQV_FAMILY_PACKED_YUV && img->width % 2)
			*luma_byte(img, &a, img->width, y) =
				*luma_byte(img, &a, img->width - 1, y);
	}

	cb = malloc(sizeof(double) * a.cw * a.ch);
	cr = malloc(sizeof(double) * a.cw * a.ch);
	if (!cb || !cr)
		abort();
	downsample(pic->c[1], pic->width, pic->height, f->hsub, f->vsub, cb,
		   a.cw, a.ch);
	downsample(pic->c[2], pic->width, pic->height, f->hsub, f->vsub, cr,
		   a.cw, a.ch);
	for (y = 0; y < a.ch; y++) {
		for (x = 0; x < a.cw; x++) {
			uint32_t byte = x * a.chroma_step;

			*sample_at(&a.cb, byte + a.cb_offset, y) =
				round_code(cb[(size_t)y * a.cw + x]);
			*sample_at(&a.cr, byte + a.cr_offset, y) =
				round_code(cr[(size_t)y * a.cw + x]);
		}
	}
	free(cb);
	free(cr);
}

void ref_pack(const struct hqv_image *img, const struct ref_picture *pic,
	      uint8_t *const mem[HQV_MAX_PLANES])
{
	const struct hqv_format *f = img->fmt;
	struct ref_plane plane;
	uint32_t x, y;

	if (is_yuv_family(f)) {
		pack_yuv(img, pic, mem);
		return;
	}
	ref_plane(img, mem, 0, &plane);
	for (y = 0; y < img->height; y++) {
		for (x = 0; x < img->width; x++) {
			uint8_t *b = sample_at(&plane,
					       x * f->bytes_per_group[0], y);
			double r = REF_AT(pic, 0, x, y);
			double g = REF_AT(pic, 1, x, y);
			double bl = REF_AT(pic, 2, x, y);
			double a = REF_AT(pic, 3, x, y);
			uint32_t word;

			switch (f->family) {
			case HQV_FAMILY_RGB:
				/* The X byte of a 4-byte format without
				 * alpha is the one no channel names. */
				if (f->bytes_per_group[0] == 4)
					memset(b, 0xff, 4);
				b[f->order[0]] = round_code(r);
				b[f->order[1]] = round_code(g);
				b[f->order[2]] = round_code(bl);
				if (hqv_format_has_alpha(f))
					b[f->order[3]] = round_code(a);
				break;
			case HQV_FAMILY_RGB565:
				word = round_bits(r, 5) << 11 |
				       round_bits(g, 6) << 5 |
				       round_bits(bl, 5);
				b[0] = word & 0xff;
				b[1] = word >> 8;
				break;
			default:	/* HQV_FAMILY_GREY */
				b[0] = round_code(r);
				break;
			}
		}
	}
}

/* Step 0: deinterlacing */

static bool is_alternate(enum hqv_field field)
{
	return field == HQV_FIELD_ALTERNATE_TOP ||
	       field == HQV_FIELD_ALTERNATE_BOTTOM;
}

/* Whether the field first in time (or the one an ALTERNATE buffer holds)
 * is the bottom one, i.e. the kept rows are the odd ones. */
static bool bottom_kept(enum hqv_field field)
{
	return field == HQV_FIELD_INTERLACED_BT || field == HQV_FIELD_SEQ_BT ||
	       field == HQV_FIELD_ALTERNATE_BOTTOM;
}

static void copy_row(struct ref_picture *to, uint32_t ty,
		     const struct ref_picture *from, uint32_t fy)
{
	unsigned int ch;

	for (ch = 0; ch < 4; ch++)
		memcpy(&REF_AT(to, ch, 0, ty), &REF_AT(from, ch, 0, fy),
		       sizeof(double) * to->width);
}

/*
 * The rows an image's memory holds, up-sampled, placed at their frame rows
 * (height rows); known[y] says which rows it holds (all but those of the
 * other field in an ALTERNATE buffer).
 */
/*
 * Field f (0: top) of a field-based image as a progressive image of half
 * its height: every other line of each plane when the fields are
 * interleaved (chroma too: 4:2:0 chroma is subsampled within each field),
 * one half of each plane when they are sequential, the buffer itself for
 * ALTERNATE.
 */
static struct hqv_image field_image(const struct hqv_image *img, unsigned int f)
{
	struct hqv_image out = *img;
	unsigned int p;

	out.field = HQV_FIELD_NONE;
	out.height = img->height / 2;
	for (p = 0; p < img->fmt->num_planes; p++) {
		uint32_t pitch = img->bytesperline[p];
		uint32_t half = plane_lines(img, p) / 2;
		size_t skip = 0;

		if (img->field == HQV_FIELD_INTERLACED_TB ||
		    img->field == HQV_FIELD_INTERLACED_BT) {
			skip = (size_t)f * pitch;
			out.bytesperline[p] = 2 * pitch;
		} else if (img->field == HQV_FIELD_SEQ_TB) {
			skip = f ? (size_t)half * pitch : 0;
		} else if (img->field == HQV_FIELD_SEQ_BT) {
			skip = f ? 0 : (size_t)half * pitch;
		}
		out.planes[p] = img->planes[p] + skip;
		out.plane_size[p] = img->plane_size[p] - skip;
	}
	return out;
}

/* Rows a field-based image captured, each field up-sampled on its own;
 * known[y] says whether frame row y is one of them. */
static struct ref_picture *captured_frame(const struct hqv_image *img,
					  uint8_t alpha, bool *known)
{
	struct ref_picture *frame = ref_picture_new(img->width, img->height);
	unsigned int f;
	uint32_t y;

	for (f = 0; f < 2; f++) {
		struct hqv_image field = field_image(img, f);
		struct ref_picture *rows;

		if (is_alternate(img->field) && f != bottom_kept(img->field)) {
			for (y = f; y < img->height; y += 2)
				known[y] = false;
			continue;
		}
		rows = ref_picture_new(field.width, field.height);
		ref_unpack(&field, alpha, rows);
		for (y = f; y < img->height; y += 2) {
			known[y] = true;
			copy_row(frame, y, rows, y / 2);
		}
		ref_picture_free(rows);
	}
	return frame;
}

static double bob(const struct ref_picture *f, unsigned int ch, uint32_t x,
		  uint32_t y)
{
	if (y == 0)
		return REF_AT(f, ch, x, 1);
	if (y + 1 == f->height)
		return REF_AT(f, ch, x, y - 1);
	return (REF_AT(f, ch, x, y - 1) + REF_AT(f, ch, x, y + 1)) / 2;
}

/*
 * Blend: [1 2 1] / 4 down the woven frame. docs/engine.md does not say what
 * r[y-1] and r[y+1] are at the first and last rows; the model mirrors (the
 * row beyond the edge is the one inside it, as bob takes "the one that
 * exists"), which keeps every row half its own field, half the other.
 */
static double blend(const struct ref_picture *f, unsigned int ch, uint32_t x,
		    uint32_t y)
{
	uint32_t above = y ? y - 1 : 1;
	uint32_t below = y + 1 < f->height ? y + 1 : y - 1;

	return (REF_AT(f, ch, x, above) + 2 * REF_AT(f, ch, x, y) +
		REF_AT(f, ch, x, below)) / 4;
}

/* The progressive source frame: step 2 (up-sampling) on the source's
 * memory, then step 0. */
static struct ref_picture *source_frame(const struct hqv_job *job)
{
	const struct hqv_image *src = &job->src;
	uint32_t w = src->width, h = src->height, x, y;
	struct ref_picture *cap, *prev = NULL, *out;
	bool *known = calloc(h, sizeof(bool));
	bool *prev_known = calloc(h, sizeof(bool));
	bool alternate = is_alternate(src->field);
	enum hqv_deinterlace mode = job->deinterlace;
	unsigned int ch;

	if (!known || !prev_known)
		abort();
	if (src->field == HQV_FIELD_NONE) {
		out = ref_picture_new(w, h);
		ref_unpack(src, job->alpha, out);
		goto done;
	}
	cap = captured_frame(src, job->alpha, known);
	if (job->prev)
		prev = captured_frame(job->prev, job->alpha, prev_known);
	/* The other field of an ALTERNATE buffer is captured only in a prev
	 * holding it; blend is bob there. */
	if (alternate) {
		for (y = 0; y < h; y++) {
			if (known[y] || !prev || !prev_known[y])
				continue;
			copy_row(cap, y, prev, y);
			known[y] = true;
		}
		if (mode == HQV_DEINTERLACE_BLEND)
			mode = HQV_DEINTERLACE_BOB;
	}

	out = ref_picture_new(w, h);
	for (y = 0; y < h; y++) {
		bool kept = y % 2 == bottom_kept(src->field);

		for (x = 0; x < w; x++) {
			bool captured;

			switch (mode) {
			case HQV_DEINTERLACE_WEAVE:
				captured = kept || known[y];
				break;
			case HQV_DEINTERLACE_BOB:
				captured = kept;
				break;
			case HQV_DEINTERLACE_BLEND:
				captured = true;
				break;
			default:	/* motion-adaptive */
				if (kept) {
					captured = true;
				} else if (alternate) {
					captured = known[y] &&
						fabs(REF_AT(cap, 0, x, y) -
						     bob(cap, 0, x, y)) <= 12;
				} else {
					captured = prev &&
						fabs(REF_AT(cap, 0, x, y) -
						     REF_AT(prev, 0, x, y))
						<= 12;
				}
				break;
			}
			for (ch = 0; ch < 4; ch++) {
				double v;

				if (mode == HQV_DEINTERLACE_BLEND)
					v = blend(cap, ch, x, y);
				else if (captured)
					v = REF_AT(cap, ch, x, y);
				else
					v = bob(cap, ch, x, y);
				REF_AT(out, ch, x, y) = v;
			}
		}
	}
	ref_picture_free(cap);
	ref_picture_free(prev);
done:
	free(known);
	free(prev_known);
	return out;
}

/* Step 3: colour */

static void luma_weights(enum hqv_encoding enc, double *kr, double *kb)
{
	switch (enc) {
	case HQV_ENC_BT709:
		*kr = 0.2126;
		*kb = 0.0722;
		break;
	case HQV_ENC_BT2020:
		*kr = 0.2627;
		*kb = 0.0593;
		break;
	default:
		*kr = 0.299;
		*kb = 0.114;
		break;
	}
}

static void ycbcr_from_rgb(enum hqv_encoding enc, const double rgb[3],
			   double ycc[3])
{
	double kr, kb, y;

	luma_weights(enc, &kr, &kb);
	y = kr * rgb[0] + (1 - kr - kb) * rgb[1] + kb * rgb[2];
	ycc[0] = y;
	ycc[1] = (rgb[2] - y) / (2 * (1 - kb));
	ycc[2] = (rgb[0] - y) / (2 * (1 - kr));
}

static void rgb_from_ycbcr(enum hqv_encoding enc, const double ycc[3],
			   double rgb[3])
{
	double kr, kb;

	luma_weights(enc, &kr, &kb);
	rgb[0] = ycc[0] + 2 * (1 - kr) * ycc[2];
	rgb[2] = ycc[0] + 2 * (1 - kb) * ycc[1];
	rgb[1] = (ycc[0] - kr * rgb[0] - kb * rgb[2]) / (1 - kr - kb);
}

/* Code values to Y 0..1, C -0.5..0.5 or R'G'B' 0..1, and back. */
static void normalise(const struct hqv_image *img, const double in[3],
		      double out[3])
{
	bool full = img->quantization == HQV_QUANT_FULL;
	unsigned int i;

	if (!img->fmt->is_yuv) {
		for (i = 0; i < 3; i++)
			out[i] = full ? in[i] / 255 : (in[i] - 16) / 219;
		return;
	}
	out[0] = full ? in[0] / 255 : (in[0] - 16) / 219;
	for (i = 1; i < 3; i++)
		out[i] = (in[i] - 128) / (full ? 255 : 224);
}

static void denormalise(const struct hqv_image *img, const double in[3],
			double out[3])
{
	bool full = img->quantization == HQV_QUANT_FULL;
	unsigned int i;

	if (!img->fmt->is_yuv) {
		for (i = 0; i < 3; i++)
			out[i] = full ? in[i] * 255 : in[i] * 219 + 16;
		return;
	}
	out[0] = full ? in[0] * 255 : in[0] * 219 + 16;
	for (i = 1; i < 3; i++)
		out[i] = in[i] * (full ? 255 : 224) + 128;
}

static double clamp_code(double v)
{
	return v < 0 ? 0 : v > 255 ? 255 : v;
}

static void procamp(const struct hqv_procamp *pa, double ycc[3])
{
	double g = (128.0 + pa->contrast) / 128;
	double s = (128.0 + pa->saturation) / 128;
	double h = pa->hue * PI / 180;
	double cb = ycc[1], cr = ycc[2];

	ycc[0] = g * ycc[0] + pa->brightness / 256.0;
	ycc[1] = g * s * (cb * cos(h) - cr * sin(h));
	ycc[2] = g * s * (cb * sin(h) + cr * cos(h));
}

/* Source code values to clamped destination code values. */
static void convert_colour(const struct hqv_job *job, const double in[3],
			   double out[3])
{
	const struct hqv_image *src = &job->src, *dst = &job->dst;
	enum hqv_encoding working = src->fmt->is_yuv ? src->encoding :
						       dst->encoding;
	double n[3], ycc[3], rgb[3];
	unsigned int i;

	normalise(src, in, n);
	if (src->fmt->is_yuv)
		memcpy(ycc, n, sizeof(ycc));
	else
		ycbcr_from_rgb(working, n, ycc);
	procamp(&job->procamp, ycc);
	if (dst->fmt->is_yuv) {
		if (dst->encoding == working) {
			memcpy(n, ycc, sizeof(n));
		} else {
			rgb_from_ycbcr(working, ycc, rgb);
			ycbcr_from_rgb(dst->encoding, rgb, n);
		}
	} else {
		rgb_from_ycbcr(working, ycc, n);
	}
	denormalise(dst, n, out);
	for (i = 0; i < 3; i++)
		out[i] = clamp_code(out[i]);
}

/* The background, full-range R'G'B', in the destination's space. */
static void background_colour(const struct hqv_job *job, double out[3])
{
	double rgb[3] = {
		((job->background >> 16) & 0xff) / 255.0,
		((job->background >> 8) & 0xff) / 255.0,
		(job->background & 0xff) / 255.0,
	};
	double ycc[3];

	if (job->dst.fmt->is_yuv) {
		ycbcr_from_rgb(job->dst.encoding, rgb, ycc);
		denormalise(&job->dst, ycc, out);
	} else {
		denormalise(&job->dst, rgb, out);
	}
}

/* Step 4: orientation */

/* The crop pixel that oriented pixel (i, j) shows: flips, then a
 * clockwise turn, undone in the opposite order. */
static void oriented_source(const struct hqv_job *job, uint32_t w, uint32_t h,
			    uint32_t i, uint32_t j, uint32_t *x, uint32_t *y)
{
	uint32_t fx, fy;

	switch (job->rotation) {
	case 90:
		fx = j;
		fy = h - 1 - i;
		break;
	case 180:
		fx = w - 1 - i;
		fy = h - 1 - j;
		break;
	case 270:
		fx = w - 1 - j;
		fy = i;
		break;
	default:
		fx = i;
		fy = j;
		break;
	}
	*x = job->hflip ? w - 1 - fx : fx;
	*y = job->vflip ? h - 1 - fy : fy;
}

static struct ref_picture *orient(const struct hqv_job *job,
				  const struct ref_picture *in)
{
	bool turned = job->rotation == 90 || job->rotation == 270;
	struct ref_picture *out = turned ?
		ref_picture_new(in->height, in->width) :
		ref_picture_new(in->width, in->height);
	uint32_t i, j, x, y;
	unsigned int ch;

	for (j = 0; j < out->height; j++) {
		for (i = 0; i < out->width; i++) {
			oriented_source(job, in->width, in->height, i, j, &x,
					&y);
			for (ch = 0; ch < 4; ch++)
				REF_AT(out, ch, i, j) = REF_AT(in, ch, x, y);
		}
	}
	return out;
}

/* Step 5: scaling */

/* weights[d * from + s]: how much source sample s gives destination d. */
static double *scale_weights(enum hqv_scaler scaler, uint32_t from,
			     uint32_t to)
{
	double *wt = calloc((size_t)from * to, sizeof(double));
	double ratio = (double)from / to;
	uint32_t d, s;

	if (!wt)
		abort();
	for (d = 0; d < to; d++) {
		double *row = wt + (size_t)d * from;

		if (scaler == HQV_SCALER_NEAREST) {
			/* floor((d + 0.5) * from / to), exactly */
			uint64_t s = (2 * (uint64_t)d + 1) * from / (2 * to);

			row[s] = 1;
		} else if (scaler == HQV_SCALER_BILINEAR) {
			double u = (d + 0.5) * ratio - 0.5;
			uint32_t s0;
			double f;

			if (u < 0)
				u = 0;
			if (u > from - 1)
				u = from - 1;
			s0 = (uint32_t)floor(u);
			f = u - s0;
			row[s0] += 1 - f;
			row[min_u32(s0 + 1, from - 1)] += f;
		} else {
			double a = d * ratio, b = (d + 1) * ratio;

			for (s = (uint32_t)floor(a); s < from && s < b; s++) {
				double lo = s > a ? s : a;
				double hi = s + 1 < b ? s + 1 : b;

				if (hi > lo)
					row[s] += (hi - lo) / (b - a);
			}
		}
	}
	return wt;
}

static struct ref_picture *scale(enum hqv_scaler scaler,
				 const struct ref_picture *in, uint32_t w,
				 uint32_t h)
{
	struct ref_picture *mid = ref_picture_new(w, in->height);
	struct ref_picture *out = ref_picture_new(w, h);
	double *wx = scale_weights(scaler, in->width, w);
	double *wy = scale_weights(scaler, in->height, h);
	uint32_t x, y, s;
	unsigned int ch;

	for (ch = 0; ch < 4; ch++) {
		for (y = 0; y < in->height; y++) {
			for (x = 0; x < w; x++) {
				double v = 0;

				for (s = 0; s < in->width; s++)
					v += wx[(size_t)x * in->width + s] *
					     REF_AT(in, ch, s, y);
				REF_AT(mid, ch, x, y) = v;
			}
		}
		for (y = 0; y < h; y++) {
			for (x = 0; x < w; x++) {
				double v = 0;

				for (s = 0; s < in->height; s++)
					v += wy[(size_t)y * in->height + s] *
					     REF_AT(mid, ch, x, s);
				REF_AT(out, ch, x, y) = v;
			}
		}
	}
	free(wx);
	free(wy);
	ref_picture_free(mid);
	return out;
}

/* The pipeline */

static struct hqv_rect rect_or_whole(const struct hqv_rect *r,
				     const struct hqv_image *img)
{
	struct hqv_rect whole = { 0, 0, img->width, img->height };

	return r->width ? *r : whole;
}

/* docs/engine.md, "Chroma copy": the conditions, from the job alone. */
static void plan_chroma_copy(const struct hqv_job *job,
			     const struct hqv_rect *crop,
			     const struct hqv_rect *compose)
{
	const struct hqv_image *src = &job->src, *dst = &job->dst;
	const struct hqv_format *s = src->fmt, *d = dst->fmt;
	const struct hqv_procamp *pa = &job->procamp;
	bool same = is_yuv_family(s) && is_yuv_family(d) &&
		    src->encoding == dst->encoding &&
		    src->quantization == dst->quantization &&
		    !pa->brightness && !pa->contrast && !pa->saturation &&
		    !pa->hue && job->rotation == 0;

	chroma_copy.h = same && s->hsub == d->hsub && !job->hflip &&
			crop->width == compose->width &&
			crop->left % s->hsub == 0 &&
			compose->left % d->hsub == 0;
	chroma_copy.v = same && s->vsub == d->vsub &&
			(src->field == HQV_FIELD_NONE || s->vsub == 1) &&
			(!job->vflip || s->vsub == 1) &&
			crop->height == compose->height &&
			crop->top % s->vsub == 0 &&
			compose->top % d->vsub == 0;
}

void ref_run(const struct hqv_job *job, uint8_t *const mem[HQV_MAX_PLANES])
{
	struct hqv_rect crop = rect_or_whole(&job->crop, &job->src);
	struct hqv_rect compose = rect_or_whole(&job->compose, &job->dst);
	struct ref_picture *src, *colour, *oriented, *scaled, *frame;
	double bg[3];
	uint32_t x, y;
	unsigned int ch;

	plan_chroma_copy(job, &crop, &compose);
	src = source_frame(job);

	colour = ref_picture_new(crop.width, crop.height);
	for (y = 0; y < crop.height; y++) {
		for (x = 0; x < crop.width; x++) {
			double in[3], out[3];

			for (ch = 0; ch < 3; ch++)
				in[ch] = REF_AT(src, ch, crop.left + x,
						crop.top + y);
			convert_colour(job, in, out);
			for (ch = 0; ch < 3; ch++)
				REF_AT(colour, ch, x, y) = out[ch];
			REF_AT(colour, 3, x, y) =
				REF_AT(src, 3, crop.left + x, crop.top + y);
		}
	}

	oriented = orient(job, colour);
	scaled = scale(job->scaler, oriented, compose.width, compose.height);

	frame = ref_picture_new(job->dst.width, job->dst.height);
	background_colour(job, bg);
	for (y = 0; y < frame->height; y++) {
		for (x = 0; x < frame->width; x++) {
			bool inside = x >= compose.left &&
				      x - compose.left < compose.width &&
				      y >= compose.top &&
				      y - compose.top < compose.height;

			for (ch = 0; ch < 4; ch++)
				REF_AT(frame, ch, x, y) = inside ?
					REF_AT(scaled, ch, x - compose.left,
					       y - compose.top) :
					ch < 3 ? bg[ch] : job->alpha;
		}
	}
	ref_pack(&job->dst, frame, mem);
	chroma_copy.h = chroma_copy.v = false;

	ref_picture_free(src);
	ref_picture_free(colour);
	ref_picture_free(oriented);
	ref_picture_free(scaled);
	ref_picture_free(frame);
}
