/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Row functions: the inner loops of the direct rows (hqv-direct*.c), each
 * an operation on n units of a row (pixels, pixel pairs, chroma samples),
 * written once in plain C (hqv-rows.c), the reference, and again with
 * SIMD instructions where that pays (hqv-rows-simd.h, built for SSSE3,
 * AVX2 and AVX-512BW on x86-64 and for NEON on arm64), as libyuv's row
 * tables do.
 *
 * An operation (struct hqv_row_op) has one entry per instruction set. A
 * SIMD entry does what it can in whole vectors and returns how many units
 * it did; hqv_row_run() lets the next entry down do the rest (AVX-512's
 * tail goes to AVX2, whose vectors are half as wide, then to C), with
 * every operand advanced by as many units, so a row of any length gives, byte for byte,
 * what the C entry alone gives (tests/engine/test_rows.c holds every
 * entry to its C row over random rows and every tail length). The
 * instruction set is asked of the CPU once (hqv_isa_best()); each job's
 * plan keeps the one its rows use.
 *
 * Operands are byte pointers in a struct hqv_row_args; each operation
 * says how far each moves per unit (negative: the row is read backwards)
 * and what its constants (k) are. Rows that read neighbours (a filter's
 * taps) read them from memory the caller has filled past the row's ends,
 * so that no entry treats its first or last unit differently.
 */
#ifndef HQV_ROWS_H
#define HQV_ROWS_H

#include "hqv-types.h"

/* Instruction sets, in order of preference within an architecture. */
enum hqv_isa {
	HQV_ISA_C,
	HQV_ISA_SSSE3,
	HQV_ISA_AVX2,
	HQV_ISA_AVX512,		/* AVX-512BW, user space only */
	HQV_ISA_NEON,
	HQV_ISA_COUNT,
};

#define HQV_ROW_INS	3
#define HQV_ROW_OUTS	4

struct hqv_row_args {
	const uint8_t *in[HQV_ROW_INS];
	uint8_t *out[HQV_ROW_OUTS];
	/* For operations on blocks of rows: bytes from a row to the next. */
	ptrdiff_t in_pitch, out_pitch;
	const void *k;		/* the operation's constants */
};

/* n units of an operation; returns how many it did (C entries: n). */
typedef size_t hqv_row_fn(const struct hqv_row_args *a, size_t n);

struct hqv_row_op {
	const char *name;
	hqv_row_fn *row[HQV_ISA_COUNT];
	/* Bytes each operand moves per unit (0: unused). */
	int8_t in_step[HQV_ROW_INS];
	int8_t out_step[HQV_ROW_OUTS];
};

/* The best instruction set of this CPU that the engine has rows for. */
enum hqv_isa hqv_isa_best(void);

/* The entry an operation runs with for isa: isa's, or the next best. */
hqv_row_fn *hqv_row_pick(const struct hqv_row_op *op, enum hqv_isa isa);

/* n units of op with isa's entry, narrower entries finishing the row. */
void hqv_row_run(const struct hqv_row_op *op, enum hqv_isa isa,
		 const struct hqv_row_args *a, size_t n);

/* Every operation, for the tests and the benchmark; NULL-terminated. */
extern const struct hqv_row_op *const hqv_row_ops[];

/*
 * The operations and their constants
 */

/*
 * 24- and 32-bit R'G'B' from R'G'B' of another byte order or size:
 * byte i of each output pixel is byte map[i] of its input pixel, or fill
 * where map[i] is HQV_SHUFFLE_FILL. Named by input and output bytes per
 * pixel; a unit is a pixel.
 */
#define HQV_SHUFFLE_FILL	0xff
struct hqv_shuffle {
	uint8_t map[4];
	uint8_t fill;
	/*
	 * For the SIMD entries (hqv_shuffle_init()), which take 16 pixels at
	 * a time: byte t of output vector j is byte mask[j][i][t] of input
	 * vector i (16 bytes each), none where it is 0x80, or the fill byte
	 * fills[j][t] (0 where a byte is taken).
	 */
	uint8_t mask[4][4][16];
	uint8_t fills[4][16];
};
/* k for ib-byte to ob-byte pixels with map and fill. */
void hqv_shuffle_init(struct hqv_shuffle *k, unsigned int ib, unsigned int ob,
		      const uint8_t map[4], uint8_t fill);
extern const struct hqv_row_op hqv_row_shuffle33, hqv_row_shuffle44,
	hqv_row_shuffle34, hqv_row_shuffle43;

/*
 * Groups of 1 to 4 bytes in reverse order: in[0] points at the row's last
 * group, read backwards; a unit is a group. No constants.
 */
extern const struct hqv_row_op hqv_row_mirror1, hqv_row_mirror2,
	hqv_row_mirror3, hqv_row_mirror4;

/*
 * The colour step (docs/engine.md, Precision) in 16-bit lanes, as the
 * direct rows of hqv-direct.c hold it: m and o are the job's matrix and
 * offsets, o holding the rounding of outputs that become code values.
 */
struct hqv_color16 {
	int16_t m[3][3];
	int16_t o[3];
};

/*
 * 24- or 32-bit R'G'B' to luma codes and chroma in eighths of a code value
 * (hqv-direct.c, rgb_to_samples()): out[0] the luma codes, out[1] and
 * out[2] Cb and Cr as uint16_t, added to what they hold with add,
 * clamped to 0..HQV_COLOR_MAX with clamp, left alone without chroma
 * (GREY). Named by input bytes per pixel; a unit is a pixel.
 */
struct hqv_rgb_yuv {
	struct hqv_color16 c;
	uint8_t order[3];	/* the bytes of R, G and B in a pixel */
	bool add, clamp, chroma;
	/*
	 * For the SIMD entries: byte t of channel c's vector (16 pixels) is
	 * byte mask[c][i][t] of input vector i, none where it is 0x80.
	 */
	uint8_t mask[3][4][16];
	/*
	 * 4-byte pixels: byte t of each input vector (4 pixels) is byte
	 * split[t] of it, R, G and B of the 4 pixels in turn (4 bytes each,
	 * then 4 of none), which unpacking puts together: 4 shuffles a
	 * lane rather than 12, and their 9 ors.
	 */
	uint8_t split[16];
};
/* k for ib-byte pixels with R, G and B at order; add, clamp, chroma false. */
void hqv_rgb_yuv_init(struct hqv_rgb_yuv *k, unsigned int ib,
		      const struct hqv_color16 *c, const uint8_t order[3]);
extern const struct hqv_row_op hqv_row_rgb3_yuv, hqv_row_rgb4_yuv;

/*
 * The same for a row pair of 4:2:0 (hqv-direct.c, rgb_to_yuv_rows()):
 * rows in[0] and in[1] to luma codes out[0] and out[1], and the sums of
 * their chroma eighths (each row's clamped with clamp) to out[2] (Cb) and
 * out[3] (Cr), as rgb_yuv of the first row and then, adding, of the
 * second give them; add unused, chroma true. Read side by side, the two
 * rows' sums never go through memory.
 */
extern const struct hqv_row_op hqv_row_rgb3_yuv_pair, hqv_row_rgb4_yuv_pair;

/*
 * Lumas (in[0], bytes) and each pixel's chroma inputs d (in[1] Cb, in[2]
 * Cr, int16_t; hqv-direct.c, yuv_ds()) to 24- or 32-bit R'G'B' codes
 * (out[0]), through the colour step; a pixel's byte order[i] is R, G or B
 * for i 0, 1, 2, and its other byte, in 32-bit ones, extra. Named by
 * output bytes per pixel; a unit is a pixel.
 */
struct hqv_yuv_rgb {
	struct hqv_color16 c;
	uint8_t order[3];
	uint8_t extra;
	/*
	 * Luma weighs alike in R, G and B, R takes no Cb and B no Cr (as
	 * Y'CbCr to R'G'B' does without a hue turn): products left out.
	 */
	bool lean;
	/* For the SIMD entries: pixels R, G, B, extra to the output's order. */
	struct hqv_shuffle out;
};
void hqv_yuv_rgb_init(struct hqv_yuv_rgb *k, unsigned int ob,
		      const struct hqv_color16 *c, const uint8_t order[3],
		      uint8_t extra);
extern const struct hqv_row_op hqv_row_yuv_rgb3, hqv_row_yuv_rgb4;

/*
 * Bilinear scaling's R'G'B' channels (hqv-direct-scale.c): byte c of each
 * pixel into out[c] (bytes), c from 0 to ib - 1, each then a row of one
 * channel for htap1. Named by bytes per pixel (ib); a unit is a pixel.
 * No constants.
 */
extern const struct hqv_row_op hqv_row_split3, hqv_row_split4;

/*
 * A packed 4:2:2 row to the colour step's inputs (hqv_yuv_ds(),
 * hqv-direct.c): a unit is a group of two pixels, 4 bytes with luma at
 * oy and oy + 2, Cb at ocb and Cr at ocr. out[0] takes the two lumas,
 * out[1] and out[2] each pixel's d (int16_t, hqv_color_in_code()) of Cb
 * and of Cr: the group's own sample at the even pixel and the mean of it
 * and the next group's at the odd one; the row's last group, with none
 * after it, its own at both (docs/engine.md, step 2).
 */
struct hqv_packed_ds {
	uint8_t oy, ocb, ocr;
	/*
	 * For the SIMD entries, which make a lane's 8 groups from its 32
	 * bytes in two halves of 16: byte t of the lane's lumas is byte
	 * luma[h][t] of half h (0x80 in the other); Cb's 16-bit lane w has
	 * the sample, byte cb[h][2 w + 1] of half h, as its high byte.
	 */
	uint8_t luma[2][16], cb[2][16], cr[2][16];
};
/* k of a packed 4:2:2 format's order (struct hqv_format), or NULL. */
const struct hqv_packed_ds *hqv_packed_ds_k(const uint8_t order[4]);
extern const struct hqv_row_op hqv_row_packed_ds;

/*
 * A packed 4:2:2 row straight to 4-byte R'G'B' pixels: packed_ds, then
 * yuv_rgb4 of its outputs, each pixel's chroma inputs kept in registers
 * rather than stored and loaded again. A unit is a group of two pixels
 * (in[0] as packed_ds's, out[0] 8 bytes a unit); the row's last group,
 * as packed_ds's, takes its own chroma at both pixels.
 */
struct hqv_packed_rgb {
	const struct hqv_packed_ds *ds;
	const struct hqv_yuv_rgb *rgb;		/* of 4-byte pixels */
};
extern const struct hqv_row_op hqv_row_packed_rgb4;

/*
 * A semi-planar chroma row subsampled across (NV12, NV21, NV16, NV61) to
 * the colour step's inputs (hqv_yuv_ds()): a unit is a pair of samples
 * (the two bytes of a chroma site), in[0] this chroma row's, in[1] its
 * neighbour's (the same row where chroma is not subsampled down). Of
 * each byte of the pair, u = 3 a + b (step 2), and out[0] (first byte)
 * and out[1] (second) take each pixel's d (int16_t): 32 u - 2^(8 +
 * HQV_FRAC_BITS) at the even pixel, 16 (u + u') less the same at the odd
 * one, u' the next site's (the row's last site: its own). No constants.
 */
extern const struct hqv_row_op hqv_row_semi_ds;

/*
 * A semi-planar row (subsampled across) straight to 24- or 32-bit R'G'B'
 * pixels: semi_ds, then yuv_rgb3 or yuv_rgb4 of its outputs, the chroma
 * inputs kept in registers as packed_rgb4's are. A unit is a chroma
 * site, two pixels: in[0] their lumas (2 bytes a unit), in[1] and in[2]
 * semi_ds's in[0] and in[1], out[0] 6 or 8 bytes a unit; the row's last
 * site, as semi_ds's, is its own next. Named by output bytes per pixel.
 */
struct hqv_semi_rgb {
	const struct hqv_yuv_rgb *rgb;		/* of the output's pixels */
	bool cr_first;		/* a site's first byte is Cr (NV21, NV61) */
};
extern const struct hqv_row_op hqv_row_semi_rgb3, hqv_row_semi_rgb4;

/*
 * Chroma codes from eighths, subsampled across by [1 2 1] / 4 with one
 * rounding (hqv-direct.c, chroma_down()): a unit is a code, out[c][j] of
 * in[c]'s uint16_t samples s[2 j], s[2 j + 1] and s[2 j + 2] for c 0 and
 * 1, (s[2 j] + 2 s[2 j + 1] + s[2 j + 2] + 2^(shift - 1)) >> shift, the
 * sum in 16 bits (the eighths of two rows sum to at most 16320), the
 * code its low byte. The caller points in[c] at the sample before the
 * first code's own. The SIMD entries take the shifts of one row's eighths
 * and of two rows' sums, HQV_COLOR_BITS + 2 and + 3, and leave others
 * to C; a row of at least a vector's codes they do whole, the last vector
 * ending at its end and writing codes again (the same bytes).
 */
struct hqv_down {
	uint8_t shift;
};
extern const struct hqv_row_op hqv_row_down;
/* The same, the codes interleaved into out[0]: in[0]'s, then in[1]'s. */
extern const struct hqv_row_op hqv_row_down_semi;

/*
 * Bilinear scaling's vertical pass (hqv-direct-scale.c): channel c of
 * rows a and b, uint16_t samples of code values with 6 fractional bits
 * (at most 255 << 6), channel c of row a at in[0] + c in_pitch and of row b
 * at in[1] + c in_pitch, weighed 65536 - g and g and rounded to a code,
 * (a (65536 - g) + b g + 2^15 + 2^21) >> 22, into byte order[c] of each
 * out[0] pixel: channels 0-2 (0 alone for 1-byte pixels), and 3, alpha,
 * into a 4-byte pixel's fourth byte (order[3]), or 0xff there without
 * alpha. Named by output bytes per pixel; a unit is a pixel.
 *
 * It is a + round((b - a) g / 2^16), a code with 6 fractional bits,
 * rounded: 16-bit lanes do it exactly with the high and low halves of
 * one product, where the 32-bit products of the sum need twice the lanes.
 */
struct hqv_vtap {
	uint16_t g;		/* row b's weight, in 65536ths */
	uint8_t order[4];
	bool alpha;
	/* For the SIMD entries: pixels of channels 0-3 to out's order. */
	struct hqv_shuffle out;
};
/* k for ob-byte pixels, channels at order, with or without alpha; g 0. */
void hqv_vtap_init(struct hqv_vtap *k, unsigned int ob, const uint8_t order[3],
		   bool alpha);
extern const struct hqv_row_op hqv_row_vtap1, hqv_row_vtap3, hqv_row_vtap4;

/*
 * Bilinear scaling's horizontal pass, one channel (hqv-direct-scale.c):
 * for each unit d, a destination column, out[0] (uint16_t) takes
 * ((p << 17) + (q - p) wb + 1024) >> 11, p and q bytes i and i + 1 of the
 * source row k->row, i = in[0][d] and wb = in[1][d] (int32_t, wb even,
 * 0 to 2^17): a code with 6 fractional bits, p (65536 - wb / 2) + q wb / 2
 * in 65536ths, rounded. in[2] is the SIMD entries' table of the same taps
 * (hqv_htap_table()), made for a row of n units from its first.
 *
 * It is the vertical pass's a + round((b - a) g / 2^16) with a = p << 6,
 * b = q << 6 and g = wb / 2, and the SIMD entries do it as vtap's do:
 * each 128-bit lane takes 8 columns whose bytes lie in 16 of the row,
 * gathered with one shuffle each for p and q.
 */
struct hqv_htap {
	const uint8_t *row;
};
/* One tap before its rounding: p (2^17 - wb) + q wb, the spec's 2^17ths. */
static inline uint32_t hqv_tap(int32_t p, int32_t q, int32_t wb)
{
	return (p << 17) + (q - p) * wb;
}
/*
 * The table, 6 bytes a unit (HQV_HTAP_TABLE_BYTES()): for each 8 columns
 * from the first, 16 bytes of shuffle for p (byte 2 l of column l: i less
 * the first column's i; byte 2 l + 1: 0x80, none), 16 for q, and 8 g of
 * 16 bits; all 0xff bytes where the 8 do not fit: past n, wb 2^17, bytes
 * i and i + 1 not all within the 16 from the first's i, or those past
 * width, the row's bytes. The SIMD entries stop at such columns.
 */
#define HQV_HTAP_TABLE_BYTES(n)	(6 * (((n) + 7) & ~(size_t)7))
void hqv_htap_table(uint8_t *table, const int32_t *idx, const int32_t *wb,
		    size_t n, size_t width);
extern const struct hqv_row_op hqv_row_htap1;

/*
 * Area scaling's horizontal pass of whole boxes (hqv-direct-scale.c): for
 * each unit d, a destination pixel of ob bytes (1, 3 or 4), byte b is
 * floor((S + half) / N), S the sum of k->row[(f + i) ob + b] for i from
 * 0 to count - 1, f = in[0][d] (uint32_t, the box's first pixel), and N
 * the box's pixels: k->row holds each byte of a row as the sum of the
 * box's rows of it (uint16_t), so N = count * rows, under 2^16, and S +
 * half < 2^24. Byte fill of a 4-byte pixel (alpha left out) is 0xff.
 * The SIMD entries read up to 16 bytes past a box's last sum (the caller
 * makes them readable) and take boxes of 2 to 256 pixels, whose sums
 * fit 16-bit lanes, and at least 8 across for 1-byte pixels and 2 for
 * the others, leaving rows of other boxes to C. Named by ob; a unit is
 * a destination pixel.
 */
struct hqv_area {
	const uint16_t *row;
	uint32_t count;
	uint32_t half;		/* floor(65 N / 128): docs/engine.md */
	/* floor(v / N) = (v magic) >> shift, v < 2^24 (engine.md: Precision) */
	uint32_t magic;
	uint8_t shift;
	uint8_t fill;		/* 4: none */
	/*
	 * For the SIMD entries, where N <= 256: floor(t / N) for t < 2^16
	 * is (q + ((t - q) >> 1)) >> shift16, q = (t m16) >> 16 (Granlund
	 * and Montgomery's round-up with an add); m16 0 where N is not 2
	 * to 256.
	 */
	uint16_t m16;
	uint8_t shift16;
	/* Pixels of channels 0-3 to out's bytes (3-byte pixels). */
	struct hqv_shuffle out;
};
/* k for ob-byte pixels, boxes of count pixels across and rows down. */
void hqv_area_init(struct hqv_area *k, unsigned int ob, uint32_t count,
		   uint32_t rows, uint8_t fill);
extern const struct hqv_row_op hqv_row_area1, hqv_row_area3, hqv_row_area4;

/*
 * The entries built for each instruction set (hqv-rows-simd.h); the
 * tables in hqv-rows.c name those that exist for the target.
 */
#define HQV_ROWS_DECLARE(isa)						\
	hqv_row_fn hqv_shuffle33_##isa, hqv_shuffle44_##isa,		\
		hqv_shuffle34_##isa, hqv_shuffle43_##isa,		\
		hqv_mirror1_##isa, hqv_mirror2_##isa,			\
		hqv_mirror3_##isa, hqv_mirror4_##isa,			\
		hqv_rgb3_yuv_##isa, hqv_rgb4_yuv_##isa,			\
		hqv_rgb3_yuv_pair_##isa, hqv_rgb4_yuv_pair_##isa,	\
		hqv_yuv_rgb3_##isa, hqv_yuv_rgb4_##isa,			\
		hqv_split3_##isa, hqv_split4_##isa,			\
		hqv_packed_ds_##isa, hqv_packed_rgb4_##isa,		\
		hqv_semi_ds_##isa, hqv_semi_rgb3_##isa,			\
		hqv_semi_rgb4_##isa,					\
		hqv_down_##isa, hqv_down_semi_##isa,			\
		hqv_vtap1_##isa, hqv_vtap3_##isa, hqv_vtap4_##isa,	\
		hqv_htap1_##isa,					\
		hqv_area1_##isa, hqv_area3_##isa, hqv_area4_##isa;
HQV_ROWS_DECLARE(ssse3)
HQV_ROWS_DECLARE(avx2)
HQV_ROWS_DECLARE(avx512)
HQV_ROWS_DECLARE(neon)

#endif /* HQV_ROWS_H */
