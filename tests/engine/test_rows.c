// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Every SIMD entry of every row operation (engine/hqv-rows.h) gives, byte
 * for byte, what the operation's C entry gives: over random rows, random
 * constants and every length up to several vectors (so every tail the C
 * entry finishes), and a few long rows. Operands are surrounded with
 * guard bytes, which must come out as they went in: a vector may not
 * store past the units it was given. Instruction sets this CPU lacks are
 * skipped with a message (under qemu-user every NEON entry runs).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>

#include "hqv-internal.h"
#include "hqv-rows.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Units around each operand, filled too: neighbours a row reads. */
#define PAD_UNITS	40
#define GUARD		64

static const char *const isa_names[HQV_ISA_COUNT] = {
	"C", "SSSE3", "AVX2", "AVX-512BW", "NEON",
};

static uint32_t rng = 12345;

static uint32_t rnd(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 8;
}

static void fill_random(uint8_t *p, size_t n)
{
	while (n--)
		*p++ = rnd();
}

/*
 * A colour step with coefficients as large as any job's (|m| below 17500)
 * and any offsets: the entries must agree even where sums wrap.
 */
static void random_color(struct hqv_color16 *c)
{
	unsigned int i, j;

	for (i = 0; i < 3; i++) {
		c->o[i] = (int16_t)rnd();
		for (j = 0; j < 3; j++)
			c->m[i][j] = (int16_t)(rnd() % 35001) - 17500;
	}
}

/* Three different bytes of a b-byte pixel, for R, G and B. */
static const uint8_t *random_order(unsigned int b)
{
	static uint8_t order[3];
	unsigned int i, j;

	for (i = 0; i < 3; i++) {
	again:
		order[i] = rnd() % b;
		for (j = 0; j < i; j++)
			if (order[j] == order[i])
				goto again;
	}
	return order;
}

/* Constants of Y'CbCr to ob-byte R'G'B', in k. */
static const struct hqv_yuv_rgb *random_yuv_rgb(struct hqv_yuv_rgb *k,
						unsigned int ob)
{
	struct hqv_color16 c16;

	random_color(&c16);
	/* Half of them lean, as Y'CbCr to R'G'B' matrices are. */
	if (rnd() % 2) {
		c16.m[1][0] = c16.m[2][0] = c16.m[0][0];
		c16.m[0][1] = c16.m[2][2] = 0;
	}
	hqv_yuv_rgb_init(k, ob, &c16, random_order(ob), rnd());
	return k;
}

/* The constants of a packed 4:2:2 byte order, one of the four. */
static const struct hqv_packed_ds *random_packed(void)
{
	/* YUYV, UYVY, YVYU, VYUY (struct hqv_format's order). */
	static const uint8_t orders[4][4] = {
		{ 0, 1, 2, 3 }, { 1, 0, 3, 2 }, { 0, 3, 2, 1 },
		{ 1, 2, 3, 0 },
	};
	const struct hqv_packed_ds *pk = hqv_packed_ds_k(orders[rnd() % 4]);

	cr_assert_not_null(pk);
	return pk;
}

/* The constants of an operation, random but valid, in k (aligned). */
static const void *make_k(const struct hqv_row_op *op, void *k)
{
	unsigned int ib, ob, i;

	if (sscanf(op->name, "shuffle%1u%1u", &ib, &ob) == 2) {
		uint8_t map[4] = { HQV_SHUFFLE_FILL, HQV_SHUFFLE_FILL,
				   HQV_SHUFFLE_FILL, HQV_SHUFFLE_FILL };

		/* Any input byte, repeated or not; a fourth may be filled. */
		for (i = 0; i < ob; i++)
			map[i] = rnd() % (ib + (ob == 4)) < ib ?
				 rnd() % ib : HQV_SHUFFLE_FILL;
		hqv_shuffle_init(k, ib, ob, map, rnd());
		return k;
	}
	if (sscanf(op->name, "rgb%1u_yuv", &ib) == 1) {
		struct hqv_rgb_yuv *c = k;
		struct hqv_color16 c16;

		random_color(&c16);
		hqv_rgb_yuv_init(c, ib, &c16, random_order(ib));
		c->add = rnd() % 2;
		c->clamp = rnd() % 2;
		/* A pair's rows are 4:2:0's, which has chroma. */
		c->chroma = strstr(op->name, "pair") || rnd() % 4 != 0;
		return k;
	}
	if (sscanf(op->name, "yuv_rgb%1u", &ob) == 1)
		return random_yuv_rgb(k, ob);
	if (!strcmp(op->name, "packed_ds")) {
		memcpy(k, random_packed(), sizeof(struct hqv_packed_ds));
		return k;
	}
	if (!strcmp(op->name, "packed_rgb4")) {
		/* Its two operations' constants after the pointers to them. */
		struct hqv_packed_rgb *pk = k;
		struct hqv_yuv_rgb *rgb = (struct hqv_yuv_rgb *)(pk + 1);

		pk->ds = random_packed();
		pk->rgb = random_yuv_rgb(rgb, 4);
		return k;
	}
	if (sscanf(op->name, "semi_rgb%1u", &ob) == 1) {
		/* Its constants after it, as packed_rgb4's. */
		struct hqv_semi_rgb *sk = k;
		struct hqv_yuv_rgb *rgb = (struct hqv_yuv_rgb *)(sk + 1);

		sk->cr_first = rnd() % 2;
		sk->rgb = random_yuv_rgb(rgb, ob);
		return k;
	}
	if (!strncmp(op->name, "down", 4)) {
		struct hqv_down *dk = k;

		/* One row's eighths, two rows' sums, now and then another. */
		dk->shift = rnd() % 8 ? HQV_COLOR_BITS + 2 + rnd() % 2 :
			    1 + rnd() % 8;
		return k;
	}
	if (sscanf(op->name, "vtap%1u", &ob) == 1) {
		static const uint8_t grey[3] = { 0, 1, 2 };
		struct hqv_vtap *v = k;

		/* 1-byte pixels: channel 0 alone, into byte 0. */
		hqv_vtap_init(v, ob, ob == 1 ? grey : random_order(ob),
			      rnd() % 2);
		/* Now and then a weight at either end, or at a half. */
		v->g = rnd() % 4 ? rnd() : rnd() % 3 * 32768 % 65536;
		return k;
	}
	if (!strcmp(op->name, "htap1"))
		return k;	/* its row: htap_operands() */
	if (!strncmp(op->name, "area", 4))
		return k;	/* its row: area_operands() */
	return NULL;	/* mirrors, splits: none */
}

struct operand {
	uint8_t *mem;	/* the whole allocation */
	size_t size;
	uint8_t *at;	/* where the row's operand points */
};

/*
 * Horizontal taps of n columns (in[0] i, in[1] wb, in[2] their table)
 * and the row they read, exactly its bytes: columns a random step apart
 * (at most 3 bytes; the SIMD entries take 8 within 16 bytes), now and
 * then a jump that no 16 bytes hold, weights even from 0 to 2^17, now
 * and then at either end. Returns the row, which the caller frees.
 */
static uint8_t *htap_operands(struct operand in[HQV_ROW_INS], size_t n,
			      struct hqv_htap *k)
{
	int32_t *idx = (int32_t *)in[0].at, *wb = (int32_t *)in[1].at;
	uint32_t step = rnd() % (3 << 16), pos = rnd() % (40 << 16);
	size_t width, d;
	uint8_t *row;

	for (d = 0; d < n; d++) {
		idx[d] = pos >> 16;
		wb[d] = rnd() % 8 ? 2 * (rnd() % 65536) :
			rnd() % 2 << 17;
		pos += rnd() % 64 ? step : rnd() % (64 << 16);
	}
	width = (n ? idx[n - 1] + 2 : 1) + (rnd() % 2 ? 0 : rnd() % 20);
	hqv_htap_table(in[2].at, idx, wb, n, width);
	row = malloc(width);
	cr_assert_not_null(row);
	fill_random(row, width);
	k->row = row;
	return row;
}

/*
 * Whole boxes of n columns (in[0] their first pixels) and the row of sums
 * they read, of ob-byte pixels: boxes of 1 to 24 pixels across, now and
 * then up to 255, and of rows down that mostly keep them within the SIMD
 * entries' 256 pixels, each sum at most 255 times the rows; boxes mostly
 * side by side, now and then apart or overlapping; 4-byte pixels now and
 * then with a byte filled. The row is readable 16 bytes past its last
 * box, as the entries ask. Returns the row, which the caller frees.
 */
static uint16_t *area_operands(struct operand in[HQV_ROW_INS], size_t n,
			       struct hqv_area *k, unsigned int ob)
{
	uint32_t *first = (uint32_t *)in[0].at;
	uint32_t count = 1 + rnd() % (rnd() % 4 ? 24 : 255);
	uint32_t fit = 256 / count ? 256 / count : 1;
	uint32_t rows = 1 + rnd() % (rnd() % 8 ? fit : 256);
	uint32_t pos = rnd() % 40;
	size_t d, sums;
	uint16_t *row;

	hqv_area_init(k, ob, count, rows, ob == 4 ? rnd() % 5 : 4);
	for (d = 0; d < n; d++) {
		first[d] = pos;
		pos += rnd() % 32 ? count : rnd() % (4 * count + 1);
	}
	sums = ((n ? first[n - 1] : 0) + count) * ob + 8;
	row = malloc(2 * sums);
	cr_assert_not_null(row);
	for (d = 0; d < sums; d++)
		row[d] = rnd() % (255 * rows + 1);
	k->row = row;
	return row;
}

static void operand_alloc(struct operand *o, int step, size_t n)
{
	size_t unit = step < 0 ? -step : step;
	size_t body = unit * (n + 2 * PAD_UNITS);

	o->size = body + 2 * GUARD;
	o->mem = malloc(o->size);
	cr_assert_not_null(o->mem);
	fill_random(o->mem, o->size);
	o->at = o->mem + GUARD + unit * PAD_UNITS;
	if (step < 0)
		o->at += unit * (n ? n - 1 : 0);
}

/* Run op with isa's entry (through hqv_row_run()) and with C; compare. */
static void check(const struct hqv_row_op *op, enum hqv_isa isa, size_t n)
{
	struct operand in[HQV_ROW_INS], out[2][HQV_ROW_OUTS];
	struct hqv_row_args args[2];
	uint64_t kmem[1024];
	const void *k = make_k(op, kmem);
	uint8_t *row = NULL;
	unsigned int i, r;

	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	memset(args, 0, sizeof(args));
	for (i = 0; i < HQV_ROW_INS; i++)
		if (op->in_step[i])
			operand_alloc(&in[i], op->in_step[i], n);
	for (i = 0; i < HQV_ROW_OUTS; i++) {
		if (!op->out_step[i])
			continue;
		operand_alloc(&out[0][i], op->out_step[i], n);
		out[1][i] = out[0][i];
		out[1][i].mem = malloc(out[0][i].size);
		cr_assert_not_null(out[1][i].mem);
		memcpy(out[1][i].mem, out[0][i].mem, out[0][i].size);
		out[1][i].at = out[1][i].mem + (out[0][i].at - out[0][i].mem);
	}
	/*
	 * Vertical taps read 4 channels of samples a row: every channel of
	 * n units and padding, in_pitch apart, its samples codes with 6
	 * fractional bits.
	 */
	if (!strncmp(op->name, "vtap", 4))
		for (i = 0; i < 2; i++) {
			uint16_t *v;
			size_t u;

			free(in[i].mem);
			operand_alloc(&in[i], 2, 4 * (n + 2 * PAD_UNITS));
			v = (uint16_t *)(in[i].mem + GUARD);
			for (u = 0; u < 4 * (n + 2 * PAD_UNITS); u++)
				v[u] %= (255 << 6) + 1;
			args[0].in_pitch = args[1].in_pitch =
				2 * (n + 2 * PAD_UNITS);
		}
	if (!strcmp(op->name, "htap1"))
		row = htap_operands(in, n, (struct hqv_htap *)kmem);
	if (sscanf(op->name, "area%1u", &i) == 1)
		row = (uint8_t *)area_operands(in, n, (struct hqv_area *)kmem,
					       i);
	for (r = 0; r < 2; r++) {
		for (i = 0; i < HQV_ROW_INS; i++)
			args[r].in[i] = in[i].at;
		for (i = 0; i < HQV_ROW_OUTS; i++)
			args[r].out[i] = out[r][i].at;
		args[r].k = k;
	}
	op->row[HQV_ISA_C](&args[0], n);
	hqv_row_run(op, isa, &args[1], n);
	for (i = 0; i < HQV_ROW_OUTS; i++) {
		size_t b;

		if (!op->out_step[i])
			continue;
		for (b = 0; b < out[0][i].size; b++)
			if (out[0][i].mem[b] != out[1][i].mem[b])
				cr_assert_fail("%s, %s, %zu units: output %u byte %td "
					"from the row's start is %u, C gives %u",
					op->name, isa_names[isa], n, i,
					(ptrdiff_t)b - (out[0][i].at - out[0][i].mem),
					out[1][i].mem[b], out[0][i].mem[b]);
		free(out[0][i].mem);
		free(out[1][i].mem);
	}
	for (i = 0; i < HQV_ROW_INS; i++)
		free(in[i].mem);
	free(row);
}

Test(rows, every_simd_entry_matches_its_c_entry)
{
	static const size_t long_rows[] = { 1280, 1920, 1921, 4097 };
	enum hqv_isa best = hqv_isa_best();
	unsigned int o, tested = 0;

	for (o = 0; hqv_row_ops[o]; o++) {
		const struct hqv_row_op *op = hqv_row_ops[o];
		enum hqv_isa isa;

		cr_assert_not_null(op->row[HQV_ISA_C], "%s has a C entry",
				   op->name);
		for (isa = HQV_ISA_SSSE3; isa < HQV_ISA_COUNT; isa++) {
			size_t n, i;

			if (!op->row[isa])
				continue;
			/* x86's sets nest; NEON stands alone. */
			if (isa == HQV_ISA_NEON ? best != HQV_ISA_NEON :
			    best == HQV_ISA_NEON || isa > best) {
				cr_log_warn("%s: skipped, no %s here", op->name,
					    isa_names[isa]);
				continue;
			}
			for (n = 0; n <= 200; n++)
				check(op, isa, n);
			for (i = 0; i < ARRAY_SIZE(long_rows); i++)
				check(op, isa, long_rows[i]);
			tested++;
		}
	}
	cr_log_info("%u SIMD entries checked", tested);
}

/* What the area rows' SIMD entries compute, for every box and sum. */
Test(rows, area_simd_division_is_exact_for_every_sum)
{
	struct hqv_area k;
	uint32_t pixels, t, q;

	for (pixels = 2; pixels <= 256; pixels++) {
		hqv_area_init(&k, 3, pixels, 1, 4);
		cr_assert_neq(k.m16, 0, "%u pixels", pixels);
		for (t = 0; t < 65536; t++) {
			q = (t * k.m16) >> 16;
			q = (q + ((t - q) >> 1)) >> k.shift16;
			if (q != t / pixels)
				cr_assert_fail("%u / %u gives %u", t, pixels,
					       q);
		}
	}
	hqv_area_init(&k, 3, 257, 1, 4);
	cr_assert_eq(k.m16, 0, "no SIMD division past 256 pixels");
}

Test(rows, the_isa_is_chosen_once_and_has_rows)
{
	enum hqv_isa best = hqv_isa_best();

	cr_assert_eq(hqv_isa_best(), best);
#if defined(__x86_64__)
	cr_assert(best == HQV_ISA_C || best == HQV_ISA_SSSE3 ||
		  best == HQV_ISA_AVX2 || best == HQV_ISA_AVX512);
	/* The best is the CPU's best that the build has (hqv-rows.c). */
	if (__builtin_cpu_supports("avx512bw"))
		cr_assert_eq(best, HQV_ISA_AVX512);
	else if (__builtin_cpu_supports("avx2"))
		cr_assert_eq(best, HQV_ISA_AVX2);
#elif defined(__aarch64__)
	cr_assert_eq(best, HQV_ISA_NEON);
#endif
}
