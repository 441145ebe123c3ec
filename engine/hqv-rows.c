// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The row functions' C entries, which are the reference every SIMD entry
 * is held to, the operations' tables, and choosing an instruction set
 * (hqv-rows.h). The C entries are written for the vectoriser where it
 * helps, and stay plain enough to read as the definition of each row.
 */
#define HQV_CPU_DETECT
#include "hqv-internal.h"

/*
 * Choosing
 */

static enum hqv_isa isa_detect(void)
{
#if HQV_SIMD_AVX512
	if (hqv_cpu_avx512() && hqv_cpu_avx2() && hqv_cpu_ssse3())
		return HQV_ISA_AVX512;
#endif
#if HQV_SIMD_X86
	if (hqv_cpu_avx2() && hqv_cpu_ssse3())
		return HQV_ISA_AVX2;
	if (hqv_cpu_ssse3())
		return HQV_ISA_SSSE3;
#elif HQV_SIMD_NEON
	return HQV_ISA_NEON;
#endif
	return HQV_ISA_C;
}

enum hqv_isa hqv_isa_best(void)
{
	/* Asked once; any thread may be first, and all find the same. */
	static int best = -1;
	int isa = __atomic_load_n(&best, __ATOMIC_RELAXED);

	if (isa < 0) {
		isa = isa_detect();
		__atomic_store_n(&best, isa, __ATOMIC_RELAXED);
	}
	return (enum hqv_isa)isa;
}

/* The set below isa that a machine with isa also has. */
static enum hqv_isa isa_below(enum hqv_isa isa)
{
	/* x86's sets nest: AVX-512BW machines have AVX2, AVX2 ones SSSE3. */
	switch (isa) {
	case HQV_ISA_AVX512:
		return HQV_ISA_AVX2;
	case HQV_ISA_AVX2:
		return HQV_ISA_SSSE3;
	default:
		return HQV_ISA_C;
	}
}

hqv_row_fn *hqv_row_pick(const struct hqv_row_op *op, enum hqv_isa isa)
{
	while (isa != HQV_ISA_C && !op->row[isa])
		isa = isa_below(isa);
	return op->row[isa];
}

void hqv_row_run(const struct hqv_row_op *op, enum hqv_isa isa,
		 const struct hqv_row_args *a, size_t n)
{
	hqv_row_fn *fn = hqv_row_pick(op, isa);
	size_t done = fn(a, n), all = done;
	struct hqv_row_args tail;
	unsigned int i;

	/*
	 * Each entry does what it can in whole vectors; the next one down
	 * takes the tail from where they stopped, and C finishes it. The
	 * operands are copied only for a tail: a copy of the caller's
	 * just-written struct in wider loads than its stores waits for them
	 * (a store-to-load forwarding stall on every call).
	 */
	if (all >= n || fn == op->row[HQV_ISA_C])
		return;
	tail = *a;
	for (;;) {
		for (i = 0; i < HQV_ROW_INS; i++)
			if (tail.in[i])
				tail.in[i] += (ptrdiff_t)done * op->in_step[i];
		for (i = 0; i < HQV_ROW_OUTS; i++)
			if (tail.out[i])
				tail.out[i] += (ptrdiff_t)done *
					       op->out_step[i];
		do
			isa = isa_below(isa);
		while (isa != HQV_ISA_C && op->row[isa] == fn);
		fn = hqv_row_pick(op, isa);
		done = fn(&tail, n - all);
		all += done;
		if (all >= n || fn == op->row[HQV_ISA_C])
			return;
	}
}

#if HQV_SIMD_X86
#define X86_ROWS_256(name) [HQV_ISA_SSSE3] = hqv_##name##_ssse3,	\
			   [HQV_ISA_AVX2] = hqv_##name##_avx2,
#else
#define X86_ROWS_256(name)
#endif
#if HQV_SIMD_AVX512
#define X86_ROWS(name)	X86_ROWS_256(name)				\
			[HQV_ISA_AVX512] = hqv_##name##_avx512,
#else
#define X86_ROWS(name)	X86_ROWS_256(name)
#endif
#if HQV_SIMD_NEON
#define NEON_ROWS(name)	[HQV_ISA_NEON] = hqv_##name##_neon,
#else
#define NEON_ROWS(name)
#endif

/* An operation with C, SSSE3, AVX2, AVX-512BW and NEON entries. */
#define ROW_OP(op, ins, outs)						\
const struct hqv_row_op hqv_row_##op = {				\
	.name = #op,							\
	.row = { [HQV_ISA_C] = op##_c, X86_ROWS(op) NEON_ROWS(op) },	\
	.in_step = ins, .out_step = outs,				\
}
/*
 * The same without an AVX-512BW entry, for byte moves whose chunks are
 * not 16 bytes apart: four 128-bit inserts and extracts a vector cost
 * more than the wider vector saves (RGB24 -> BGR24 0.15-0.16 ms with
 * AVX2, 0.17-0.18 with AVX-512BW, one core, AMD EPYC, Zen 5).
 */
#define ROW_OP_256(op, ins, outs)					\
const struct hqv_row_op hqv_row_##op = {				\
	.name = #op,							\
	.row = { [HQV_ISA_C] = op##_c, X86_ROWS_256(op) NEON_ROWS(op) }, \
	.in_step = ins, .out_step = outs,				\
}
#define STEPS(...)	{ __VA_ARGS__ }

/*
 * R'G'B' byte orders
 */

void hqv_shuffle_init(struct hqv_shuffle *k, unsigned int ib, unsigned int ob,
		      const uint8_t map[4], uint8_t fill)
{
	unsigned int j, i, t;

	memset(k, 0, sizeof(*k));
	memcpy(k->map, map, sizeof(k->map));
	k->fill = fill;
	memset(k->mask, 0x80, sizeof(k->mask));
	for (j = 0; j < ob; j++)
		for (t = 0; t < 16; t++) {
			unsigned int o = 16 * j + t, b = map[o % ob];

			if (b == HQV_SHUFFLE_FILL) {
				k->fills[j][t] = fill;
				continue;
			}
			b += o / ob * ib;	/* the input byte */
			k->mask[j][b / 16][t] = b % 16;
		}
	for (i = ob; i < 4; i++)
		memset(k->mask[i], 0x80, sizeof(k->mask[i]));
}

static inline __attribute__((always_inline)) void
shuffle_c(const struct hqv_row_args *a, size_t n, const size_t ib,
	  const size_t ob)
{
	const struct hqv_shuffle *k = a->k;
	const uint8_t *restrict in = a->in[0];
	uint8_t *restrict out = a->out[0];
	size_t x, i;

	for (x = 0; x < n; x++)
		for (i = 0; i < ob; i++)
			out[ob * x + i] = k->map[i] == HQV_SHUFFLE_FILL ?
					  k->fill : in[ib * x + k->map[i]];
}

#define SHUFFLE_C(ib, ob)						\
static size_t shuffle##ib##ob##_c(const struct hqv_row_args *a, size_t n) \
{									\
	shuffle_c(a, n, ib, ob);					\
	return n;							\
}									\
ROW_OP_256(shuffle##ib##ob, STEPS(ib), STEPS(ob));

SHUFFLE_C(3, 3)
SHUFFLE_C(4, 4)
SHUFFLE_C(3, 4)
SHUFFLE_C(4, 3)

/*
 * Mirroring
 */

#define MIRROR_C(g)							\
static size_t mirror##g##_c(const struct hqv_row_args *a, size_t n)	\
{									\
	const uint8_t *restrict in = a->in[0];				\
	uint8_t *restrict out = a->out[0];				\
	size_t x, b;							\
									\
	for (x = 0; x < n; x++)						\
		for (b = 0; b < g; b++)					\
			out[g * x + b] = in[(ptrdiff_t)b - (ptrdiff_t)(g * x)];	\
	return n;							\
}									\
ROW_OP(mirror##g, STEPS(-g), STEPS(g));

MIRROR_C(1)
MIRROR_C(2)
MIRROR_C(3)
MIRROR_C(4)

/*
 * The colour step
 */

static int16_t color_sum(const int16_t m[3], int16_t o, int32_t a, int32_t b,
			 int32_t c)
{
	return (int16_t)(hqv_color_product(a, m[0]) +
			 hqv_color_product(b, m[1]) +
			 hqv_color_product(c, m[2]) + o);
}

/* A code value from a sum that holds its rounding. */
static uint8_t code_of(int16_t v)
{
	v >>= HQV_COLOR_BITS;
	return v < 0 ? 0 : v > 255 ? 255 : v;
}

static uint16_t clamp_eighths(int16_t v)
{
	return v < 0 ? 0 : v > HQV_COLOR_MAX ? HQV_COLOR_MAX : v;
}

void hqv_rgb_yuv_init(struct hqv_rgb_yuv *k, unsigned int ib,
		      const struct hqv_color16 *c, const uint8_t order[3])
{
	unsigned int ch, t;

	memset(k, 0, sizeof(*k));
	k->c = *c;
	memcpy(k->order, order, sizeof(k->order));
	memset(k->mask, 0x80, sizeof(k->mask));
	for (ch = 0; ch < 3; ch++)
		for (t = 0; t < 16; t++) {
			unsigned int b = ib * t + order[ch];

			k->mask[ch][b / 16][t] = b % 16;
		}
	for (t = 0; t < 16; t++)
		k->split[t] = t < 12 ? 4 * (t % 4) + order[t / 4] : 0x80;
}

static inline __attribute__((always_inline)) void
rgb_yuv_c(const struct hqv_row_args *a, size_t n, const size_t ib,
	  const uint8_t *in, uint8_t *yc, const bool add)
{
	const struct hqv_rgb_yuv *k = a->k;
	uint16_t *cb = (uint16_t *)a->out[1], *cr = (uint16_t *)a->out[2];
	size_t x;

	for (x = 0; x < n; x++) {
		const uint8_t *px = in + ib * x;
		int32_t r = hqv_color_in_code(px[k->order[0]]);
		int32_t g = hqv_color_in_code(px[k->order[1]]);
		int32_t b = hqv_color_in_code(px[k->order[2]]);
		int16_t vb, vr;

		yc[x] = code_of(color_sum(k->c.m[0], k->c.o[0], r, g, b));
		if (!k->chroma)
			continue;
		vb = color_sum(k->c.m[1], k->c.o[1], r, g, b);
		vr = color_sum(k->c.m[2], k->c.o[2], r, g, b);
		if (k->clamp) {
			vb = clamp_eighths(vb);
			vr = clamp_eighths(vr);
		}
		cb[x] = (uint16_t)((add ? cb[x] : 0) + vb);
		cr[x] = (uint16_t)((add ? cr[x] : 0) + vr);
	}
}

/* A row pair: the first row as rgb_yuv sets, the second adding. */
static inline __attribute__((always_inline)) void
rgb_yuv_pair_c(const struct hqv_row_args *a, size_t n, const size_t ib)
{
	const struct hqv_row_args sums = {
		.out = { NULL, a->out[2], a->out[3] }, .k = a->k,
	};

	rgb_yuv_c(&sums, n, ib, a->in[0], a->out[0], false);
	rgb_yuv_c(&sums, n, ib, a->in[1], a->out[1], true);
}

#define RGB_YUV_C(ib)							\
static size_t rgb##ib##_yuv_c(const struct hqv_row_args *a, size_t n)	\
{									\
	const struct hqv_rgb_yuv *k = a->k;				\
									\
	rgb_yuv_c(a, n, ib, a->in[0], a->out[0], k->add);		\
	return n;							\
}									\
ROW_OP(rgb##ib##_yuv, STEPS(ib), STEPS(1, 2, 2));			\
static size_t rgb##ib##_yuv_pair_c(const struct hqv_row_args *a,	\
				   size_t n)				\
{									\
	rgb_yuv_pair_c(a, n, ib);					\
	return n;							\
}									\
ROW_OP(rgb##ib##_yuv_pair, STEPS(ib, ib), STEPS(1, 1, 2, 2));

RGB_YUV_C(3)
RGB_YUV_C(4)

void hqv_yuv_rgb_init(struct hqv_yuv_rgb *k, unsigned int ob,
		      const struct hqv_color16 *c, const uint8_t order[3],
		      uint8_t extra)
{
	uint8_t map[4] = { 3, 3, 3, 3 };
	unsigned int i;

	memset(k, 0, sizeof(*k));
	k->c = *c;
	memcpy(k->order, order, sizeof(k->order));
	k->extra = extra;
	k->lean = c->m[1][0] == c->m[0][0] && c->m[2][0] == c->m[0][0] &&
		  !c->m[0][1] && !c->m[2][2];
	for (i = 0; i < 3; i++)
		map[order[i]] = i;
	hqv_shuffle_init(&k->out, 4, ob, map, 0);
}

static inline __attribute__((always_inline)) void
yuv_rgb_c(const struct hqv_row_args *a, size_t n, const size_t ob)
{
	const struct hqv_yuv_rgb *k = a->k;
	const uint8_t *luma = a->in[0];
	const int16_t *dcb = (const int16_t *)a->in[1];
	const int16_t *dcr = (const int16_t *)a->in[2];
	uint8_t *out = a->out[0];
	size_t x;
	unsigned int i;

	for (x = 0; x < n; x++) {
		int32_t l = hqv_color_in_code(luma[x]);
		uint8_t *px = out + ob * x;

		if (ob == 4)
			memset(px, k->extra, 4);
		for (i = 0; i < 3; i++)
			px[k->order[i]] = code_of(color_sum(k->c.m[i],
							    k->c.o[i], l,
							    dcb[x], dcr[x]));
	}
}

#define YUV_RGB_C(ob)							\
static size_t yuv_rgb##ob##_c(const struct hqv_row_args *a, size_t n)	\
{									\
	yuv_rgb_c(a, n, ob);						\
	return n;							\
}									\
ROW_OP(yuv_rgb##ob, STEPS(1, 2, 2), STEPS(ob));

YUV_RGB_C(3)
YUV_RGB_C(4)

/*
 * R'G'B' channels
 */

static inline __attribute__((always_inline)) void
split_c(const struct hqv_row_args *a, size_t n, const size_t ib)
{
	const uint8_t *restrict in = a->in[0];
	size_t x, c;

	for (c = 0; c < ib; c++) {
		uint8_t *restrict out = a->out[c];

		for (x = 0; x < n; x++)
			out[x] = in[ib * x + c];
	}
}

static size_t split3_c(const struct hqv_row_args *a, size_t n)
{
	split_c(a, n, 3);
	return n;
}
ROW_OP_256(split3, STEPS(3), STEPS(1, 1, 1));

static size_t split4_c(const struct hqv_row_args *a, size_t n)
{
	split_c(a, n, 4);
	return n;
}
ROW_OP_256(split4, STEPS(4), STEPS(1, 1, 1, 1));

/*
 * Packed 4:2:2 to d
 */

#define X	0x80
#define PDS(oy, ocb, ocr) {						\
	oy, ocb, ocr,							\
	{ { oy, oy + 2, oy + 4, oy + 6, oy + 8, oy + 10, oy + 12,	\
	    oy + 14, X, X, X, X, X, X, X, X },				\
	  { X, X, X, X, X, X, X, X, oy, oy + 2, oy + 4, oy + 6,	\
	    oy + 8, oy + 10, oy + 12, oy + 14 } },			\
	{ PDS_C0(ocb), PDS_C1(ocb) }, { PDS_C0(ocr), PDS_C1(ocr) } }
#define PDS_C0(o)	{ X, o, X, o + 4, X, o + 8, X, o + 12,		\
			  X, X, X, X, X, X, X, X }
#define PDS_C1(o)	{ X, X, X, X, X, X, X, X,			\
			  X, o, X, o + 4, X, o + 8, X, o + 12 }

/* YUYV, UYVY, YVYU, VYUY: luma, Cb and Cr offsets in a group. */
static const struct hqv_packed_ds packed_ds_orders[] = {
	PDS(0, 1, 3), PDS(1, 0, 2), PDS(0, 3, 1), PDS(1, 2, 0),
};
#undef PDS_C1
#undef PDS_C0
#undef PDS
#undef X

const struct hqv_packed_ds *hqv_packed_ds_k(const uint8_t order[4])
{
	unsigned int i;

	for (i = 0; i < sizeof(packed_ds_orders) / sizeof(*packed_ds_orders);
	     i++)
		if (packed_ds_orders[i].oy == order[0] &&
		    packed_ds_orders[i].ocb == order[1] &&
		    packed_ds_orders[i].ocr == order[3])
			return &packed_ds_orders[i];
	return NULL;
}

/* d of a sample c: c << one less z; of a mean of two, half. */
static size_t packed_ds_c(const struct hqv_row_args *a, size_t n)
{
	const struct hqv_packed_ds *k = a->k;
	const size_t oy = k->oy, ocb = k->ocb, ocr = k->ocr;
	const uint8_t *restrict p = a->in[0];
	uint8_t *restrict lbuf = a->out[0];
	int16_t *restrict dcb = (int16_t *)a->out[1];
	int16_t *restrict dcr = (int16_t *)a->out[2];
	const int16_t z = 256 << HQV_FRAC_BITS;
	const unsigned int one = HQV_FRAC_BITS + 1, half = HQV_FRAC_BITS;
	size_t x, last;

	if (!n)
		return 0;
	last = n - 1;
	for (x = 0; x < last; x++) {
		const uint8_t *g = p + 4 * x;
		int16_t cb = g[ocb], cr = g[ocr];

		lbuf[2 * x] = g[oy];
		lbuf[2 * x + 1] = g[oy + 2];
		dcb[2 * x] = (int16_t)((cb << one) - z);
		dcb[2 * x + 1] = (int16_t)(((cb + g[4 + ocb]) << half) - z);
		dcr[2 * x] = (int16_t)((cr << one) - z);
		dcr[2 * x + 1] = (int16_t)(((cr + g[4 + ocr]) << half) - z);
	}
	p += 4 * last;
	lbuf[2 * last] = p[oy];
	lbuf[2 * last + 1] = p[oy + 2];
	dcb[2 * last] = dcb[2 * last + 1] = (int16_t)((p[ocb] << one) - z);
	dcr[2 * last] = dcr[2 * last + 1] = (int16_t)((p[ocr] << one) - z);
	return n;
}
ROW_OP(packed_ds, STEPS(4), STEPS(2, 4, 4));

/* Groups packed_rgb4's C entry takes at a time, through packed_ds_c(). */
#define PACKED_RGB_GROUPS	32

/*
 * The definition itself: packed_ds then yuv_rgb4, a few groups at a
 * time, each run of packed_ds given the group after its last (the next
 * run's first) as its neighbour, but for the row's last.
 */
static size_t packed_rgb4_c(const struct hqv_row_args *a, size_t n)
{
	const struct hqv_packed_rgb *k = a->k;
	uint8_t luma[2 * PACKED_RGB_GROUPS + 2];
	int16_t dcb[2 * PACKED_RGB_GROUPS + 2], dcr[2 * PACKED_RGB_GROUPS + 2];
	struct hqv_row_args ds = {
		.out = { luma, (uint8_t *)dcb, (uint8_t *)dcr },
		.k = k->ds,
	};
	struct hqv_row_args rgb = {
		.in = { luma, (const uint8_t *)dcb, (const uint8_t *)dcr },
		.k = k->rgb,
	};
	size_t x, m;

	for (x = 0; x < n; x += m) {
		m = n - x < PACKED_RGB_GROUPS ? n - x : PACKED_RGB_GROUPS;
		ds.in[0] = a->in[0] + 4 * x;
		packed_ds_c(&ds, m + (x + m < n));
		rgb.out[0] = a->out[0] + 8 * x;
		yuv_rgb4_c(&rgb, 2 * m);
	}
	return n;
}
ROW_OP(packed_rgb4, STEPS(4), STEPS(8));

static size_t semi_ds_c(const struct hqv_row_args *a, size_t n)
{
	const uint8_t *restrict pa = a->in[0], *restrict pb = a->in[1];
	const int16_t z = 256 << HQV_FRAC_BITS;
	size_t x;
	unsigned int c;

	for (c = 0; c < 2; c++) {
		int16_t *restrict d = (int16_t *)a->out[c];

		for (x = 0; x < n; x++) {
			int u = 3 * pa[2 * x + c] + pb[2 * x + c];
			int next = x + 1 < n ?
				   3 * pa[2 * x + 2 + c] + pb[2 * x + 2 + c] : u;

			d[2 * x] = (int16_t)(32 * u - z);
			d[2 * x + 1] = (int16_t)(16 * (u + next) - z);
		}
	}
	return n;
}
ROW_OP(semi_ds, STEPS(2, 2), STEPS(4, 4));

/* Sites semi_rgb's C entries take at a time, through semi_ds_c(). */
#define SEMI_RGB_SITES	32

/*
 * The definition itself: semi_ds then yuv_rgb3 or yuv_rgb4, a few
 * sites at a time, each run of semi_ds given the site after its last
 * (the next run's first) as its neighbour, but for the row's last.
 */
static inline __attribute__((always_inline)) void
semi_rgb_c(const struct hqv_row_args *a, size_t n, const size_t ob)
{
	const struct hqv_semi_rgb *k = a->k;
	int16_t dcb[2 * SEMI_RGB_SITES + 2], dcr[2 * SEMI_RGB_SITES + 2];
	uint8_t *first = (uint8_t *)(k->cr_first ? dcr : dcb);
	uint8_t *second = (uint8_t *)(k->cr_first ? dcb : dcr);
	struct hqv_row_args ds = { .out = { first, second } };
	struct hqv_row_args rgb = {
		.in = { NULL, (const uint8_t *)dcb, (const uint8_t *)dcr },
		.k = k->rgb,
	};
	size_t x, m;

	for (x = 0; x < n; x += m) {
		m = n - x < SEMI_RGB_SITES ? n - x : SEMI_RGB_SITES;
		ds.in[0] = a->in[1] + 2 * x;
		ds.in[1] = a->in[2] + 2 * x;
		semi_ds_c(&ds, m + (x + m < n));
		rgb.in[0] = a->in[0] + 2 * x;
		rgb.out[0] = a->out[0] + 2 * ob * x;
		yuv_rgb_c(&rgb, 2 * m, ob);
	}
}

static size_t semi_rgb3_c(const struct hqv_row_args *a, size_t n)
{
	semi_rgb_c(a, n, 3);
	return n;
}
ROW_OP(semi_rgb3, STEPS(2, 2, 2), STEPS(6));

static size_t semi_rgb4_c(const struct hqv_row_args *a, size_t n)
{
	semi_rgb_c(a, n, 4);
	return n;
}
ROW_OP(semi_rgb4, STEPS(2, 2, 2), STEPS(8));

/* Code x of in[c]'s samples s (hqv-rows.h, struct hqv_down). */
static uint8_t down_code(const struct hqv_row_args *a, unsigned int c,
			 size_t x)
{
	const struct hqv_down *k = a->k;
	const uint16_t *s = (const uint16_t *)a->in[c];
	const uint16_t half = 1u << (k->shift - 1);

	return (uint8_t)((uint16_t)(s[2 * x] + 2 * s[2 * x + 1] +
				    s[2 * x + 2] + half) >> k->shift);
}

static size_t down_c(const struct hqv_row_args *a, size_t n)
{
	size_t x;
	unsigned int c;

	for (c = 0; c < 2; c++)
		for (x = 0; x < n; x++)
			a->out[c][x] = down_code(a, c, x);
	return n;
}
ROW_OP(down, STEPS(4, 4), STEPS(1, 1));

static size_t down_semi_c(const struct hqv_row_args *a, size_t n)
{
	size_t x;
	unsigned int c;

	for (x = 0; x < n; x++)
		for (c = 0; c < 2; c++)
			a->out[0][2 * x + c] = down_code(a, c, x);
	return n;
}
ROW_OP(down_semi, STEPS(4, 4), STEPS(2));

/*
 * Bilinear scaling's vertical pass
 */

void hqv_vtap_init(struct hqv_vtap *k, unsigned int ob, const uint8_t order[3],
		   bool alpha)
{
	uint8_t map[4] = { 3, 3, 3, 3 };
	unsigned int i;

	memset(k, 0, sizeof(*k));
	memcpy(k->order, order, 3);
	/* The byte the three channels leave in a 4-byte pixel. */
	k->order[3] = ob == 4 ? 6 - order[0] - order[1] - order[2] : 0;
	k->alpha = alpha;
	for (i = 0; i < ob; i++)
		map[k->order[i]] = i;
	hqv_shuffle_init(&k->out, 4, ob == 1 ? 4 : ob, map, 0);
}

static inline __attribute__((always_inline)) uint8_t
vtap_code(uint32_t a, uint32_t b, uint32_t g)
{
	return (a * (65536 - g) + b * g + 32768 + (32 << 16)) >> 22;
}

static inline __attribute__((always_inline)) void
vtap_c(const struct hqv_row_args *a, size_t n, const size_t ob)
{
	const struct hqv_vtap *k = a->k;
	const unsigned int channels = ob == 1 ? 1 : ob == 3 || !k->alpha ? 3 : 4;
	const uint32_t g = k->g;
	uint8_t *restrict out = a->out[0];
	size_t x;
	unsigned int c;

	for (c = 0; c < channels; c++) {
		const uint16_t *restrict ra =
			(const uint16_t *)(a->in[0] + c * a->in_pitch);
		const uint16_t *restrict rb =
			(const uint16_t *)(a->in[1] + c * a->in_pitch);
		const unsigned int at = k->order[c];

		for (x = 0; x < n; x++)
			out[ob * x + at] = vtap_code(ra[x], rb[x], g);
	}
	if (ob == 4 && channels == 3)
		for (x = 0; x < n; x++)
			out[4 * x + k->order[3]] = 0xff;
}

#define VTAP_C(ob)							\
static size_t vtap##ob##_c(const struct hqv_row_args *a, size_t n)	\
{									\
	vtap_c(a, n, ob);						\
	return n;							\
}									\
ROW_OP(vtap##ob, STEPS(2, 2), STEPS(ob));

VTAP_C(1)
VTAP_C(3)
VTAP_C(4)

/*
 * Bilinear scaling's horizontal pass
 */

void hqv_htap_table(uint8_t *table, const int32_t *idx, const int32_t *wb,
		    size_t n, size_t width)
{
	size_t b, l;

	for (b = 0; b < n; b += 8) {
		uint8_t *t = table + 6 * b;
		int64_t s = idx[b];
		bool fit = b + 8 <= n && s + 16 <= (int64_t)width;

		for (l = 0; fit && l < 8; l++)
			fit = idx[b + l] >= s && idx[b + l] - s <= 14 &&
			      wb[b + l] < (1 << 17);
		if (!fit) {
			memset(t, 0xff, 48);
			continue;
		}
		for (l = 0; l < 8; l++) {
			uint16_t g = wb[b + l] >> 1;

			t[2 * l] = idx[b + l] - s;
			t[16 + 2 * l] = idx[b + l] - s + 1;
			t[2 * l + 1] = t[16 + 2 * l + 1] = 0x80;
			memcpy(t + 32 + 2 * l, &g, 2);
		}
	}
}

static size_t htap1_c(const struct hqv_row_args *a, size_t n)
{
	const uint8_t *restrict row = ((const struct hqv_htap *)a->k)->row;
	const int32_t *restrict idx = (const int32_t *)a->in[0];
	const int32_t *restrict wb = (const int32_t *)a->in[1];
	uint16_t *restrict out = (uint16_t *)a->out[0];
	size_t d;

	for (d = 0; d < n; d++) {
		int32_t p = row[idx[d]], q = row[idx[d] + 1];

		out[d] = (hqv_tap(p, q, wb[d]) + 1024) >> 11;
	}
	return n;
}
ROW_OP(htap1, STEPS(4, 4, 6), STEPS(2));

/*
 * Area scaling's horizontal pass of whole boxes
 */

/* The least l with 2^l >= n. */
static unsigned int log2_up(uint32_t n)
{
	unsigned int l = 0;

	while ((1ULL << l) < n)
		l++;
	return l;
}

void hqv_area_init(struct hqv_area *k, unsigned int ob, uint32_t count,
		   uint32_t rows, uint8_t fill)
{
	static const uint8_t channels[4] = { 0, 1, 2, 3 };
	const uint32_t pixels = count * rows;
	const unsigned int l = log2_up(pixels);

	memset(k, 0, sizeof(*k));
	k->count = count;
	k->half = (HQV_ONE + 1) * pixels / (2 * HQV_ONE);
	k->magic = (uint32_t)hqv_div_u64((1ULL << (24 + l)) + pixels - 1,
					 pixels);
	k->shift = (uint8_t)(24 + l);
	k->fill = fill;
	if (pixels >= 2 && pixels <= 256) {
		k->m16 = (uint16_t)(((65536u << l) - (pixels << 16)) / pixels +
				    1);
		k->shift16 = (uint8_t)(l - 1);
	}
	hqv_shuffle_init(&k->out, 4, ob == 1 ? 4 : ob, channels, 0);
}

static inline __attribute__((always_inline)) void
area_c(const struct hqv_row_args *a, size_t n, const size_t ob)
{
	const struct hqv_area *k = a->k;
	const uint32_t *restrict first = (const uint32_t *)a->in[0];
	uint8_t *restrict out = a->out[0];
	size_t d, b, i;

	for (d = 0; d < n; d++) {
		const uint16_t *restrict s = k->row + (size_t)first[d] * ob;

		for (b = 0; b < ob; b++) {
			uint32_t t = k->half;

			for (i = 0; i < k->count; i++)
				t += s[i * ob + b];
			out[ob * d + b] = b == k->fill ? 0xff :
				(uint8_t)(((uint64_t)t * k->magic) >> k->shift);
		}
	}
}

#define AREA_C(ob)							\
static size_t area##ob##_c(const struct hqv_row_args *a, size_t n)	\
{									\
	area_c(a, n, ob);						\
	return n;							\
}									\
ROW_OP(area##ob, STEPS(4), STEPS(ob));

AREA_C(1)
AREA_C(3)
AREA_C(4)

const struct hqv_row_op *const hqv_row_ops[] = {
	&hqv_row_shuffle33, &hqv_row_shuffle44, &hqv_row_shuffle34,
	&hqv_row_shuffle43,
	&hqv_row_mirror1, &hqv_row_mirror2, &hqv_row_mirror3,
	&hqv_row_mirror4,
	&hqv_row_rgb3_yuv, &hqv_row_rgb4_yuv,
	&hqv_row_rgb3_yuv_pair, &hqv_row_rgb4_yuv_pair,
	&hqv_row_yuv_rgb3, &hqv_row_yuv_rgb4,
	&hqv_row_split3, &hqv_row_split4,
	&hqv_row_packed_ds, &hqv_row_packed_rgb4, &hqv_row_semi_ds,
	&hqv_row_semi_rgb3, &hqv_row_semi_rgb4,
	&hqv_row_down, &hqv_row_down_semi,
	&hqv_row_vtap1, &hqv_row_vtap3, &hqv_row_vtap4,
	&hqv_row_htap1,
	&hqv_row_area1, &hqv_row_area3, &hqv_row_area4,
	NULL,
};
