// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The direct row functions (engine/hqv-direct*.c) are shortcuts: each must
 * give, byte for byte, what the general pipeline gives for the same job.
 * Every case here first checks that the job does take a direct row (so a
 * shortcut that stops applying fails instead of passing vacuously), then
 * runs the job twice, once with the plan's direct row cleared, and compares
 * the two destinations, padding included. Widths that are not multiples of
 * a vector (and odd numbers of chroma samples) catch loop tails; pitches
 * with padding catch rows that run past their samples.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frames.h"
#include "hqv-rows.h"

struct direct_case {
	const char *src, *dst;
	uint32_t width, height;		/* source */
	uint32_t dst_width, dst_height;	/* 0: as the source (turned) */
	uint32_t rotation;
	enum hqv_scaler scaler;
	enum hqv_field field;
	enum hqv_deinterlace deinterlace;
	enum hqv_encoding dst_encoding;
	enum hqv_quantization dst_quantization;
	bool dst_colour;		/* dst_encoding/quantization apply */
	bool hflip, vflip;
	struct hqv_rect crop;		/* zero: the whole source */
	struct hqv_procamp procamp;
	bool tight;			/* no bytes between lines */
};

/* A job that keeps every pixel in place. */
#define PLAIN(s, d, w, h) { .src = s, .dst = d, .width = w, .height = h }
/* The same with lines that follow each other (a copy takes whole bands). */
#define TIGHT(s, d, w, h) { .src = s, .dst = d, .width = w, .height = h, \
	.tight = true }

/* Every turn and flip of a whole image but the identity. */
#define TURN(s, d, w, h, r, hf, vf) \
	{ .src = s, .dst = d, .width = w, .height = h, .rotation = r, \
	  .hflip = hf, .vflip = vf }
#define TURNS(s, d, w, h) \
	TURN(s, d, w, h, 90, false, false), \
	TURN(s, d, w, h, 180, false, false), \
	TURN(s, d, w, h, 270, false, false), \
	TURN(s, d, w, h, 0, true, false), \
	TURN(s, d, w, h, 0, false, true), \
	TURN(s, d, w, h, 0, true, true), \
	TURN(s, d, w, h, 90, true, false), \
	TURN(s, d, w, h, 90, false, true), \
	TURN(s, d, w, h, 270, true, false), \
	TURN(s, d, w, h, 180, true, true), \
	TURN(s, d, w, h, 180, true, false)
/* Each flip of a whole image: across, down, both. */
#define FLIPS(s, d, w, h) \
	TURN(s, d, w, h, 0, true, false), \
	TURN(s, d, w, h, 0, false, true), \
	TURN(s, d, w, h, 0, true, true)
/* Area scaling within one format. */
#define AREA(f, w, h, dw, dh) { .src = f, .dst = f, .width = w, .height = h, \
	.dst_width = dw, .dst_height = dh, .scaler = HQV_SCALER_AREA }
/* Bilinear scaling within one format. */
#define SCALE(f, w, h, dw, dh) { .src = f, .dst = f, .width = w, .height = h, \
	.dst_width = dw, .dst_height = dh, .scaler = HQV_SCALER_BILINEAR }

/* Blend deinterlacing within one format, in each field order. */
#define BLEND1(f, w, h, o) { .src = f, .dst = f, .width = w, .height = h, \
	.field = o, .deinterlace = HQV_DEINTERLACE_BLEND }
#define BLEND(f, w, h) BLEND1(f, w, h, HQV_FIELD_INTERLACED_TB), \
	BLEND1(f, w, h, HQV_FIELD_INTERLACED_BT), \
	BLEND1(f, w, h, HQV_FIELD_SEQ_TB), BLEND1(f, w, h, HQV_FIELD_SEQ_BT)

static const struct direct_case cases[] = {
	PLAIN("YUYV", "YUYV", 38, 10),
	PLAIN("NV12", "NV12", 38, 10),
	PLAIN("YUV420", "YUV420", 38, 10),
	PLAIN("ARGB32", "ARGB32", 38, 10),
	PLAIN("YUYV", "NV12", 38, 10),
	PLAIN("UYVY", "NV21", 38, 10),
	PLAIN("YVYU", "YUV420", 38, 10),
	PLAIN("VYUY", "YVU420", 38, 10),
	PLAIN("YUYV", "NV12", 1920, 6),
	PLAIN("YUYV", "NV21", 38, 12),
	PLAIN("UYVY", "NV12", 38, 12),
	PLAIN("YVYU", "NV21M", 38, 12),
	PLAIN("VYUY", "NV12M", 38, 12),
	PLAIN("YUYV", "YVU420M", 38, 12),
	PLAIN("UYVY", "YUV420M", 38, 12),
	PLAIN("VYUY", "NV21", 1920, 4),
	PLAIN("UYVY", "YUV420", 1920, 4),
	PLAIN("NV12", "XBGR32", 38, 10),
	PLAIN("NV12", "XRGB32", 1920, 6),
	PLAIN("NV21", "RGB24", 38, 10),
	PLAIN("YUV420", "BGR24", 38, 10),
	PLAIN("YUYV", "ARGB32", 38, 10),
	PLAIN("UYVY", "RGBA32", 38, 10),
	PLAIN("YUV422P", "BGRX32", 38, 10),
	PLAIN("NV24", "XBGR32", 38, 10),
	{ "NV12", "XBGR32", 38, 10, .dst_colour = true,
	  .dst_encoding = HQV_ENC_BT709, .dst_quantization = HQV_QUANT_FULL },
	/* R'G'B' byte orders and sizes (shuffle rows): padding, alpha. */
	PLAIN("RGB24", "BGR24", 38, 10),
	PLAIN("BGR24", "RGB24", 1921, 5),
	PLAIN("RGB24", "XBGR32", 45, 7),
	PLAIN("BGR24", "ARGB32", 1921, 3),
	PLAIN("XRGB32", "BGR24", 1921, 3),
	PLAIN("ABGR32", "RGB24", 45, 7),
	PLAIN("XRGB32", "XRGB32", 45, 7),
	PLAIN("XRGB32", "XBGR32", 1921, 3),
	PLAIN("RGBA32", "ARGB32", 45, 7),
	PLAIN("BGRX32", "RGBA32", 45, 7),
	PLAIN("ARGB32", "BGRX32", 3, 3),
	/* Turns and flips of the whole image, colours kept (hqv-direct-turn.c). */
	TURNS("RGB24", "RGB24", 38, 12),
	TURNS("RGB24", "BGR24", 45, 7),
	TURNS("XBGR32", "XBGR32", 38, 12),
	TURNS("ARGB32", "ARGB32", 45, 7),
	TURNS("RGBX32", "RGBX32", 7, 45),
	TURNS("ARGB32", "RGB24", 45, 7),
	TURNS("BGR24", "RGBA32", 45, 7),
	TURNS("XRGB32", "ABGR32", 1921, 3),
	TURNS("GREY", "GREY", 38, 12),
	TURNS("GREY", "GREY", 1920, 16),
	TURNS("NV12", "YUV420", 38, 12),
	TURNS("NV12", "YUV420", 1920, 16),
	TURNS("NV12", "YUV420", 2, 2),
	TURNS("YUV420", "YUV420", 38, 12),
	TURNS("NV12", "NV12", 38, 12),
	TURNS("NV21", "NV12M", 38, 12),
	TURNS("YVU420", "NV21", 38, 12),
	TURNS("YUV420M", "GREY", 38, 12),
	TURNS("NV12", "GREY", 1920, 16),
	/* Tall sources: four 8 x 8 blocks at once, then one, then a tail. */
	TURNS("GREY", "GREY", 38, 84),
	TURNS("NV12", "YUV420", 38, 84),
	TURNS("YUV420", "NV21", 38, 84),
	TURNS("NV21", "NV12", 64, 140),
	{ "NV12", "YUV420", 38, 12, .rotation = 90, .scaler =
	  HQV_SCALER_AREA },
	{ "NV12", "YUV420", 38, 12, .rotation = 270, .scaler =
	  HQV_SCALER_BILINEAR },
	/*
	 * Turns that convert sources without chroma subsampling
	 * (hqv-direct-orient.c): each layout and chroma subsampling
	 * written, R'G'B' from 4:4:4, copies of 2-byte pixels; sources
	 * taller than a tile (84 rows) and than a band (BAND_ROWS).
	 */
	TURNS("RGB24", "NV12", 38, 12),
	TURNS("RGB24", "YUV420", 38, 84),
	TURNS("BGR24", "GREY", 38, 12),
	TURNS("RGB24", "YUYV", 38, 12),
	TURNS("XRGB32", "NV21", 38, 12),
	TURNS("ABGR32", "YUV420M", 38, 84),
	TURNS("RGBA32", "NV24", 38, 12),
	TURNS("BGR24", "NV16", 38, 12),
	TURNS("XBGR32", "GREY", 1920, 16),
	TURNS("RGB24", "NV12", 1920, 16),
	TURNS("NV24", "RGB24", 38, 12),
	TURNS("YUV444M", "BGRA32", 38, 84),
	TURNS("NV24", "NV24", 38, 12),
	TURNS("RGB565", "RGB565", 38, 12),
	/*
	 * Turns from Y'CbCr with subsampled chroma to R'G'B'
	 * (hqv-direct-orient.c): each source layout, each chroma
	 * subsampling, 24- and 32-bit byte orders, and alpha.
	 */
	TURNS("NV12", "RGB24", 38, 12),
	TURNS("NV21", "XBGR32", 38, 84),
	TURNS("YUV420", "BGR24", 38, 12),
	TURNS("YVU420M", "ARGB32", 38, 12),
	TURNS("NV12M", "RGBA32", 38, 12),
	TURNS("YUYV", "RGB24", 38, 12),
	TURNS("UYVY", "XRGB32", 38, 84),
	TURNS("YVYU", "BGRX32", 38, 12),
	TURNS("VYUY", "ABGR32", 38, 12),
	TURNS("NV16", "RGB24", 38, 12),
	TURNS("NV61", "XBGR32", 38, 12),
	TURNS("YUV422P", "BGR24", 38, 84),
	TURNS("NV12", "XRGB32", 1920, 16),
	TURNS("YUYV", "RGB24", 1920, 16),
	{ "NV12", "XBGR32", 38, 12, .rotation = 90,
	  .procamp = { 20, 60, 90, 33 } },
	{ "YUYV", "RGB24", 38, 12, .rotation = 270, .vflip = true,
	  .procamp = { -30, 127, 127, -150 } },
	{ "RGB24", "NV12", 38, 12, .rotation = 90,
	  .procamp = { 40, 127, 127, 45 } },
	{ "XRGB32", "YUV420", 38, 12, .rotation = 270, .hflip = true,
	  .dst_colour = true, .dst_encoding = HQV_ENC_BT709,
	  .dst_quantization = HQV_QUANT_FULL },
	/*
	 * Flips of sources without chroma subsampling (hqv-direct-orient.c):
	 * every bytes-per-pixel of a plane, 4:2:0, 4:2:2 and 4:4:4 chroma
	 * written, R'G'B' from 4:4:4.
	 */
	FLIPS("RGB24", "YUYV", 38, 12),
	FLIPS("RGB24", "YUYV", 1920, 4),
	FLIPS("RGB24", "NV12", 38, 12),
	FLIPS("BGR24", "YUV420", 38, 12),
	FLIPS("XRGB32", "YUYV", 38, 12),
	FLIPS("XRGB32", "NV12", 1920, 4),
	FLIPS("ABGR32", "YUV420", 38, 12),
	FLIPS("RGBA32", "NV24", 38, 12),
	FLIPS("XBGR32", "GREY", 38, 12),
	FLIPS("RGB24", "RGB24", 38, 12),
	FLIPS("ARGB32", "ARGB32", 38, 12),
	FLIPS("RGB565", "RGB565", 38, 12),
	FLIPS("NV24", "RGB24", 38, 12),
	FLIPS("NV24", "XBGR32", 1920, 4),
	FLIPS("YUV444M", "BGRA32", 38, 12),
	FLIPS("NV24", "NV24", 38, 12),
	FLIPS("YUV444M", "YUV444M", 38, 12),
	FLIPS("GREY", "GREY", 38, 12),
	{ "RGB24", "YUYV", 38, 12, .hflip = true,
	  .procamp = { 40, 127, 127, 45 } },
	{ "NV24", "XBGR32", 38, 12, .hflip = true, .vflip = true,
	  .procamp = { 20, 60, 90, 33 } },
	/* Bilinear scaling: down, up, each direction alone, with crops. */
	SCALE("YUV420", 38, 12, 26, 10),
	SCALE("NV12", 38, 12, 26, 10),
	SCALE("NV21", 26, 10, 38, 12),
	SCALE("YVU420", 26, 10, 38, 12),
	SCALE("NV12", 38, 12, 54, 8),
	SCALE("YUV420", 38, 12, 22, 30),
	SCALE("NV12", 38, 12, 38, 6),
	SCALE("YUV420", 38, 12, 38, 26),
	SCALE("NV12", 38, 12, 26, 12),
	SCALE("YUV420", 38, 12, 62, 12),
	SCALE("NV16", 38, 12, 26, 10),
	SCALE("YUV422P", 26, 10, 38, 14),
	SCALE("NV61", 38, 12, 38, 6),
	SCALE("NV24", 38, 12, 26, 10),
	SCALE("YUV444M", 26, 10, 38, 12),
	SCALE("NV12M", 38, 12, 26, 10),
	SCALE("GREY", 38, 12, 26, 10),
	SCALE("GREY", 26, 10, 38, 14),
	SCALE("RGB24", 38, 12, 26, 10),
	SCALE("BGR24", 26, 10, 38, 14),
	SCALE("XBGR32", 38, 12, 22, 30),
	SCALE("ARGB32", 38, 12, 54, 8),
	SCALE("RGBA32", 26, 10, 26, 13),
	SCALE("RGB24", 1920, 1080, 1366, 768),
	SCALE("RGB24", 1920, 16, 160, 12),
	/* Area scaling of GREY and R'G'B': down, up, uneven, with crops. */
	AREA("RGB24", 38, 12, 26, 10),
	AREA("BGR24", 26, 10, 38, 14),
	AREA("XBGR32", 38, 12, 22, 30),
	AREA("ARGB32", 38, 12, 5, 3),
	AREA("GREY", 38, 12, 7, 5),
	AREA("GREY", 26, 10, 38, 13),
	AREA("RGB24", 1920, 1080, 160, 120),
	AREA("RGB24", 1920, 1080, 1366, 768),
	AREA("XRGB32", 1000, 62, 17, 9),
	/*
	 * Whole boxes (whole-number steps): 2x1, 2x3, 4x2, 12x3, 5x13 (an odd
	 * count of pixels over 64, where the rounding's h is not N / 2), the
	 * largest box they take (255x256 pixels), and past it (257 rows,
	 * 300x256 pixels), which weigh.
	 */
	AREA("GREY", 38, 12, 19, 12),
	AREA("RGB24", 640, 260, 128, 20),
	AREA("XBGR32", 38, 12, 19, 4),
	AREA("ARGB32", 40, 12, 10, 6),
	AREA("BGR24", 36, 12, 3, 4),
	AREA("GREY", 510, 512, 2, 2),
	AREA("GREY", 514, 514, 2, 2),
	AREA("GREY", 600, 256, 2, 1),
	{ "RGB24", "RGB24", 38, 12, 9, 5, .scaler = HQV_SCALER_AREA,
	  .crop = { 3, 1, 29, 9 } },
	{ "GREY", "GREY", 38, 12, 40, 14, .scaler = HQV_SCALER_AREA,
	  .crop = { 5, 1, 31, 9 } },
	SCALE("YUV420", 4, 2, 26, 10),
	SCALE("NV12", 38, 12, 2, 2),
	SCALE("YUV420", 1920, 16, 1280, 12),
	SCALE("NV12", 1920, 16, 1280, 12),
	SCALE("YUV420", 1280, 12, 1920, 16),
	/*
	 * Uneven ratios over many rows: an intermediate rounding one unit
	 * off reaches some output byte, as it seldom does in small images.
	 */
	SCALE("YUV420", 1920, 1080, 1366, 768),
	SCALE("NV12", 1000, 62, 702, 46),
	{ "YUV420", "YUV420", 38, 12, 26, 10, .scaler = HQV_SCALER_BILINEAR,
	  .crop = { 3, 1, 29, 9 } },
	{ "NV12", "NV12", 38, 12, 26, 10, .scaler = HQV_SCALER_BILINEAR,
	  .crop = { 4, 2, 30, 8 } },
	{ "NV12", "NV12", 38, 12, 30, 8, .scaler = HQV_SCALER_BILINEAR,
	  .crop = { 4, 2, 30, 8 } },
	{ "YUV420", "YUV420", 38, 12, 34, 10, .scaler = HQV_SCALER_BILINEAR,
	  .crop = { 1, 3, 35, 7 } },
	{ "GREY", "GREY", 38, 12, 40, 14, .scaler = HQV_SCALER_BILINEAR,
	  .crop = { 5, 1, 31, 9 } },
	{ "RGB24", "RGB24", 38, 12, 26, 10, .scaler = HQV_SCALER_BILINEAR,
	  .crop = { 3, 1, 29, 9 } },
	{ "XRGB32", "XRGB32", 38, 12, 40, 14, .scaler = HQV_SCALER_BILINEAR,
	  .crop = { 5, 1, 31, 9 } },
	/* Blend deinterlacing, each field order. */
	BLEND("YUYV", 38, 12), BLEND("UYVY", 38, 12), BLEND("NV12", 38, 12),
	BLEND("YUV420", 38, 12), BLEND("NV21M", 38, 12),
	BLEND("NV16", 38, 12), BLEND("YUV422P", 38, 12),
	BLEND("NV24", 38, 12), BLEND("GREY", 38, 12), BLEND("RGB24", 38, 12),
	BLEND("XRGB32", 38, 12), BLEND("ARGB32", 38, 12),
	BLEND("YUV420", 38, 4), BLEND("YUYV", 1920, 8), BLEND("NV12", 1920, 8),
	/* Every source layout, every R'G'B' byte order. */
	PLAIN("NV12", "XBGR32", 1920, 4),
	PLAIN("NV21", "ABGR32", 38, 12),
	PLAIN("NV12M", "RGBX32", 38, 12),
	PLAIN("NV21M", "RGBA32", 38, 12),
	PLAIN("NV16", "BGRA32", 38, 12),
	PLAIN("NV61", "ARGB32", 38, 12),
	PLAIN("NV24", "RGB24", 38, 12),
	PLAIN("YUV420", "XRGB32", 38, 12),
	PLAIN("YVU420", "BGRX32", 38, 12),
	PLAIN("YUV420M", "RGB24", 38, 12),
	PLAIN("YVU420M", "BGR24", 38, 12),
	PLAIN("YUV422P", "ABGR32", 38, 12),
	PLAIN("YUV444M", "RGBA32", 38, 12),
	PLAIN("YVYU", "XBGR32", 38, 12),
	PLAIN("VYUY", "BGR24", 38, 12),
	PLAIN("YUYV", "BGRA32", 1920, 4),
	PLAIN("YUV420", "RGB24", 1920, 4),
	/* R'G'B' to every Y'CbCr layout, every source byte order. */
	PLAIN("XBGR32", "YUV420", 38, 12),
	PLAIN("XBGR32", "YUV420", 1920, 4),
	PLAIN("XRGB32", "NV12", 1920, 4),
	PLAIN("ARGB32", "NV21", 38, 12),
	PLAIN("ABGR32", "YVU420", 38, 12),
	PLAIN("RGBX32", "NV12M", 38, 12),
	PLAIN("RGBA32", "YUV420M", 38, 12),
	PLAIN("BGRX32", "YVU420M", 38, 12),
	PLAIN("BGRA32", "NV21M", 38, 12),
	PLAIN("RGB24", "YUV420", 38, 12),
	PLAIN("BGR24", "NV12", 38, 12),
	PLAIN("RGB24", "YUYV", 38, 12),
	PLAIN("XBGR32", "UYVY", 38, 12),
	PLAIN("XRGB32", "YVYU", 38, 12),
	PLAIN("BGR24", "VYUY", 38, 12),
	PLAIN("XBGR32", "NV16", 38, 12),
	PLAIN("RGBA32", "NV61", 38, 12),
	PLAIN("BGRX32", "YUV422P", 38, 12),
	PLAIN("XRGB32", "NV24", 38, 12),
	PLAIN("RGB24", "YUV444M", 38, 12),
	PLAIN("ABGR32", "GREY", 38, 12),
	PLAIN("BGR24", "YUYV", 1920, 4),
	{ "XBGR32", "NV12", 38, 12, .dst_colour = true,
	  .dst_encoding = HQV_ENC_BT2020, .dst_quantization = HQV_QUANT_FULL },
	{ "RGB24", "YUV420", 38, 12, .procamp = { 40, 127, 127, 45 } },
	{ "XRGB32", "YUYV", 38, 12, .procamp = { -128, -60, 127, -170 } },
	{ "BGRA32", "NV24", 38, 12, .procamp = { 127, 127, -128, 179 } },
	/* Proc-amp hue: all nine coefficients non-zero, some clamping. */
	{ "NV12", "XBGR32", 38, 12, .procamp = { 20, 60, 90, 33 } },
	{ "YUYV", "RGB24", 38, 12, .procamp = { -30, 127, 127, -150 } },
	{ "YUV444M", "BGRA32", 38, 12, .procamp = { 5, -40, 127, 100 } },
	/* The colour step's 16-bit lanes: whole vectors, tails, extremes. */
	{ "NV12", "XBGR32", 1920, 4, .procamp = { 20, 60, 90, 33 } },
	{ "XBGR32", "YUV420", 1920, 4, .procamp = { -128, 127, 127, 179 } },
	{ "NV21", "RGB24", 1920, 4, .procamp = { 127, 127, 127, -90 } },
	PLAIN("NV12", "XBGR32", 2, 2),
	PLAIN("XBGR32", "YUV420", 2, 2),
	PLAIN("YUYV", "XRGB32", 2, 2),
	/*
	 * Odd sizes: the last chroma column and row alone, half a packed
	 * macropixel, and an odd height's last row, which the pipeline makes
	 * after the direct row's pairs. Every direct row that takes odd
	 * sizes, with vector tails (1921) where it has vector loops.
	 */
	PLAIN("YUYV", "YUYV", 45, 27),
	TIGHT("YUYV", "YUYV", 45, 27), TIGHT("YUYV", "YUYV", 38, 10),
	TIGHT("NV12", "NV12", 38, 27), TIGHT("YUV420M", "YUV420M", 38, 27),
	PLAIN("UYVY", "UYVY", 3, 3),
	PLAIN("NV12", "NV12", 45, 27),
	PLAIN("YUV420", "YUV420", 45, 27),
	PLAIN("YUV420M", "YUV420M", 45, 27),
	PLAIN("NV61", "NV61", 45, 27),
	PLAIN("ARGB32", "ARGB32", 45, 27),
	PLAIN("GREY", "GREY", 45, 27),
	PLAIN("YUYV", "NV12", 45, 27),
	PLAIN("UYVY", "YUV420", 45, 27),
	PLAIN("YVYU", "NV21M", 45, 28),
	PLAIN("VYUY", "YVU420", 3, 3),
	PLAIN("YUYV", "NV21", 1921, 5),
	PLAIN("NV12", "XBGR32", 45, 27),
	PLAIN("NV21", "RGB24", 45, 27),
	PLAIN("YUV420", "BGR24", 1, 3),
	PLAIN("YUYV", "ARGB32", 45, 27),
	PLAIN("UYVY", "RGB24", 3, 3),
	PLAIN("YUV422P", "BGRX32", 45, 27),
	PLAIN("NV24", "XBGR32", 45, 27),
	PLAIN("YUV444M", "RGBA32", 45, 27),
	PLAIN("NV12", "XRGB32", 1921, 5),
	PLAIN("YVYU", "BGR24", 1921, 5),
	PLAIN("XBGR32", "YUV420", 45, 27),
	PLAIN("RGB24", "YUYV", 45, 27),
	PLAIN("XRGB32", "UYVY", 3, 3),
	PLAIN("BGR24", "NV12", 1921, 5),
	PLAIN("RGBA32", "NV21M", 45, 27),
	PLAIN("XBGR32", "NV16", 45, 27),
	PLAIN("BGRX32", "YUV422P", 45, 27),
	PLAIN("XRGB32", "NV24", 45, 27),
	PLAIN("ABGR32", "GREY", 45, 27),
	PLAIN("RGB24", "YUV420M", 1, 3),
	PLAIN("BGR24", "VYUY", 1921, 5),
	{ "XRGB32", "YUYV", 45, 27, .procamp = { -128, -60, 127, -170 } },
	{ "NV12", "XBGR32", 45, 27, .procamp = { 20, 60, 90, 33 } },
	FLIPS("RGB24", "YUYV", 45, 27),
	FLIPS("XRGB32", "NV12", 45, 27),
	FLIPS("BGR24", "YUV420", 1921, 5),
	FLIPS("GREY", "GREY", 45, 27),
	FLIPS("NV24", "RGB24", 45, 27),
	FLIPS("YUV444M", "YUV444M", 45, 27),
	FLIPS("ARGB32", "ARGB32", 3, 3),
	TURNS("GREY", "GREY", 45, 27),
	TURNS("GREY", "GREY", 37, 85),
	TURNS("RGB24", "NV12", 45, 27),
	TURNS("BGR24", "YUV420", 27, 45),
	TURNS("RGB24", "YUYV", 45, 27),
	TURNS("XRGB32", "NV16", 45, 27),
	TURNS("RGB24", "GREY", 1, 3),
	TURNS("RGB24", "YUV420", 3, 1921),
	TURNS("NV24", "XBGR32", 45, 27),
	TURNS("YUV444M", "RGB24", 45, 27),
	TURNS("NV12", "RGB24", 45, 27),
	TURNS("YUV420", "XBGR32", 27, 45),
	TURNS("YUYV", "BGR24", 45, 27),
	TURNS("UYVY", "ARGB32", 3, 3),
	TURNS("NV16", "XRGB32", 45, 27),
	TURNS("YUV422P", "RGB24", 1, 3),
	TURNS("NV21", "RGB24", 1921, 5),
	TURNS("YVYU", "XBGR32", 5, 1921),
	TURNS("NV12", "GREY", 45, 27),
	TURNS("YUV420M", "GREY", 1, 3),
	SCALE("YUV420", 45, 27, 31, 17),
	SCALE("NV12", 31, 17, 45, 27),
	SCALE("NV21", 45, 27, 45, 13),
	SCALE("NV16", 45, 27, 31, 17),
	SCALE("YUV422P", 31, 17, 45, 27),
	SCALE("NV24", 45, 27, 31, 17),
	SCALE("YUV444M", 31, 17, 45, 27),
	SCALE("GREY", 45, 27, 31, 17),
	SCALE("NV12", 3, 3, 1, 2),
	SCALE("YUV420", 1921, 17, 1281, 11),
	{ "YUV420", "YUV420", 45, 27, 29, 9, .scaler = HQV_SCALER_BILINEAR,
	  .crop = { 3, 1, 29, 9 } },
	{ "NV12", "NV12", 45, 27, 31, 19, .scaler = HQV_SCALER_BILINEAR,
	  .crop = { 5, 3, 39, 23 } },
	BLEND("YUYV", 45, 12), BLEND("NV12", 45, 12), BLEND("YUV420", 45, 4),
	BLEND("NV16", 45, 12), BLEND("GREY", 45, 12),
	BLEND("XRGB32", 45, 12),
};

static void image_pad_alloc(struct hqv_image *img, const char *format,
			    uint32_t w, uint32_t h, enum hqv_field field,
			    bool tight)
{
	if (field != HQV_FIELD_NONE)
		image_alloc_field(img, format, w, h, field);
	else
		image_alloc(img, format, w, h, tight ? 0 : 6);
}

static void run_case(const struct direct_case *c)
{
	bool turned = c->rotation == 90 || c->rotation == 270;
	uint32_t dw = c->dst_width ? c->dst_width :
		      turned ? c->height : c->width;
	uint32_t dh = c->dst_height ? c->dst_height :
		      turned ? c->width : c->height;
	struct hqv_image general;
	struct hqv_job job;
	char what[200];
	int pass;

	snprintf(what, sizeof(what), "%s %ux%u to %s %ux%u turned %u%s%s, "
		 "crop %u,%u %ux%u, field %d", c->src, c->width, c->height,
		 c->dst, dw, dh, c->rotation, c->hflip ? " hflip" : "",
		 c->vflip ? " vflip" : "", c->crop.left, c->crop.top,
		 c->crop.width, c->crop.height, c->field);
	memset(&job, 0, sizeof(job));
	image_pad_alloc(&job.src, c->src, c->width, c->height, c->field,
			c->tight);
	image_alloc(&job.dst, c->dst, dw, dh, c->tight ? 0 : 6);
	if (c->dst_colour)
		image_set_colour(&job.dst, c->dst_encoding,
				 c->dst_quantization);
	image_fill(&job.src, PATTERN_RANDOM, 7);
	image_alloc_like(&general, &job.dst);
	image_fill_byte(&job.dst, 0x5a);
	image_fill_byte(&general, 0x5a);
	job.rotation = c->rotation;
	job.hflip = c->hflip;
	job.vflip = c->vflip;
	job.crop = c->crop;
	job.scaler = c->scaler;
	job.deinterlace = c->deinterlace;
	job.alpha = 0xc3;
	job.procamp = c->procamp;

	engine_run(&job, BAND_ROWS);
	cr_assert_not_null(job.plan.direct, "%s takes a direct row", what);

	/* In bands of BAND_ROWS, then in one band (tiles that fit a band). */
	for (pass = 0; pass < 2; pass++) {
		struct hqv_image direct = job.dst;

		if (pass) {
			image_fill_byte(&job.dst, 0x5a);
			engine_run(&job, dh);
		}

		job.dst = general;
		cr_assert_eq(hqv_job_prepare(&job), 0);
		job.plan.direct = NULL;
		engine_run_prepared(&job, BAND_ROWS);
		expect_same_samples(&direct, &general, "%s: direct row versus "
				    "the general pipeline", what);
		expect_padding_is(&direct, 0x5a, what);
		job.dst = direct;
	}
	/* The direct row again with the C row functions alone. */
	{
		struct hqv_image direct = job.dst;

		image_fill_byte(&job.dst, 0x5a);
		cr_assert_eq(hqv_job_prepare(&job), 0);
		job.plan.isa = HQV_ISA_C;
		engine_run_prepared(&job, BAND_ROWS);
		expect_same_samples(&direct, &general, "%s: direct row with C "
				    "row functions versus the general pipeline",
				    what);
		job.dst = direct;
	}
	image_free(&general);
	job_free(&job);
}

Test(direct, every_direct_row_matches_the_general_pipeline)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		run_case(&cases[i]);
}

/*
 * A white source puts whole boxes' sums at their bounds (255 times the
 * box's pixels): the largest box the direct row adds without weights, the
 * largest the area rows' SIMD entries divide in 16 bits (256 pixels,
 * 16x16 and 2x128), and the benchmark's 12x9, give white.
 */
Test(direct, whole_boxes_of_white_give_white)
{
	static const struct direct_case white[] = {
		AREA("GREY", 510, 512, 2, 2),
		AREA("GREY", 512, 512, 32, 32),
		AREA("RGB24", 64, 256, 32, 2),
		AREA("RGB24", 1920, 1080, 160, 120),
	};

	for (size_t i = 0; i < ARRAY_SIZE(white); i++) {
		const struct direct_case *c = &white[i];
		struct hqv_job job = { .scaler = c->scaler };
		size_t bytes = (size_t)c->dst_width *
			       (strcmp(c->src, "GREY") ? 3 : 1);

		image_alloc(&job.src, c->src, c->width, c->height, 0);
		image_alloc(&job.dst, c->dst, c->dst_width, c->dst_height, 0);
		image_fill_byte(&job.src, 0xff);
		image_fill_byte(&job.dst, 0);
		engine_run(&job, BAND_ROWS);
		cr_assert_not_null(job.plan.direct, "%s takes a direct row",
				   c->src);
		for (uint32_t y = 0; y < c->dst_height; y++) {
			const uint8_t *row = job.dst.planes[0] +
				(size_t)y * job.dst.bytesperline[0];

			for (size_t x = 0; x < bytes; x++)
				cr_assert_eq(row[x], 0xff, "%s %ux%u: byte %zu "
					     "of row %u", c->src, c->width,
					     c->height, x, y);
		}
		job_free(&job);
	}
}

/*
 * The 4:2:0 turns' chroma filters take destination rows and columns in
 * pairs of source chroma sites, which odd sizes break: such jobs take the
 * general pipeline (docs/engine.md, Direct rows), which the geometry tests
 * hold to the model.
 */
Test(direct, turns_of_odd_4_2_0_take_the_general_pipeline)
{
	static const uint32_t sizes[][2] = { { 45, 28 }, { 46, 27 } };

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		for (uint32_t r = 0; r < 360; r += 90) {
			bool turned = r % 180;
			struct hqv_job job = { .rotation = r, .vflip = !r };

			image_alloc(&job.src, "NV12", sizes[i][0], sizes[i][1],
				    0);
			image_alloc(&job.dst, "YUV420",
				    turned ? sizes[i][1] : sizes[i][0],
				    turned ? sizes[i][0] : sizes[i][1], 0);
			cr_assert_eq(hqv_job_prepare(&job), 0);
			cr_assert_null(job.plan.direct, "NV12 %ux%u turned %u "
				       "takes the pipeline", sizes[i][0],
				       sizes[i][1], r);
			job_free(&job);
		}
	}
}
