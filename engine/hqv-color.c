// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Colour: one 3x3 matrix and offset per job, from source code values to
 * destination code values, composed once in prepare from the encodings,
 * quantizations and proc-amp (docs/engine.md, step 3). Integers only: the
 * normalised matrices are Q30 constants, composed in 64-bit arithmetic.
 */
#include "hqv-internal.h"

#define Q30		(1LL << 30)

typedef int64_t mat3[3][3];

/*
 * Normalised R'G'B' (0..1) to Y'CbCr (Y' 0..1, CbCr -0.5..0.5) and back, in
 * Q30, from Kr and Kb: BT.601 0.299, 0.114; BT.709 0.2126, 0.0722;
 * BT.2020 0.2627, 0.0593. Y = Kr R + Kg G + Kb B, Cb = (B - Y) / (2 - 2 Kb),
 * Cr = (R - Y) / (2 - 2 Kr), and the inverse.
 */
static const mat3 rgb_to_yuv[] = {
	[HQV_ENC_BT601] = { { 321048805, 630286451, 122406568 },
			    { -181178784, -355692128, 536870912 },
			    { 536870912, -449562376, -87308536 } },
	[HQV_ENC_BT709] = { { 228277512, 767940153, 77524160 },
			    { -123020862, -413850050, 536870912 },
			    { 536870912, -487642972, -49227940 } },
	[HQV_ENC_BT2020] = { { 282071977, 727996957, 63672890 },
			     { -149926638, -386944274, 536870912 },
			     { 536870912, -493691141, -43179771 } },
};

static const mat3 yuv_to_rgb[] = {
	[HQV_ENC_BT601] = { { 1073741824, 0, 1505386037 },
			    { 1073741824, -369513524, -766797999 },
			    { 1073741824, 1902670512, 0 } },
	[HQV_ENC_BT709] = { { 1073741824, 0, 1690928624 },
			    { 1073741824, -201137906, -502644611 },
			    { 1073741824, 1992435329, 0 } },
	[HQV_ENC_BT2020] = { { 1073741824, 0, 1583339694 },
			     { 1073741824, -176687575, -613485749 },
			     { 1073741824, 2020137868, 0 } },
};

/* sin(d degrees) in Q14 for d = 0..90. */
static const int16_t sin_q14[91] = {
	0, 286, 572, 857, 1143, 1428, 1713, 1997, 2280, 2563, 2845, 3126,
	3406, 3686, 3964, 4240, 4516, 4790, 5063, 5334, 5604, 5872, 6138,
	6402, 6664, 6924, 7182, 7438, 7692, 7943, 8192, 8438, 8682, 8923,
	9162, 9397, 9630, 9860, 10087, 10311, 10531, 10749, 10963, 11174,
	11381, 11585, 11786, 11982, 12176, 12365, 12551, 12733, 12911, 13085,
	13255, 13421, 13583, 13741, 13894, 14044, 14189, 14330, 14466, 14598,
	14726, 14849, 14968, 15082, 15191, 15296, 15396, 15491, 15582, 15668,
	15749, 15826, 15897, 15964, 16026, 16083, 16135, 16182, 16225, 16262,
	16294, 16322, 16344, 16362, 16374, 16382, 16384,
};

/* sin of any whole degree in -180..180, in Q30. */
static int64_t sin_q30(int32_t deg)
{
	int32_t sign = deg < 0 ? -1 : 1;

	deg *= sign;
	if (deg > 90)
		deg = 180 - deg;
	return sign * ((int64_t)sin_q14[deg] << 16);
}

static int64_t mul_q30(int64_t a, int64_t b)
{
	return (a * b + (Q30 >> 1)) >> 30;
}

static void mat_mul(mat3 out, const mat3 a, const mat3 b)
{
	mat3 r;
	int i, j, k;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			for (r[i][j] = 0, k = 0; k < 3; k++)
				r[i][j] += mul_q30(a[i][k], b[k][j]);
	memcpy(out, r, sizeof(r));
}

static void mat_identity(mat3 m)
{
	memset(m, 0, sizeof(mat3));
	m[0][0] = m[1][1] = m[2][2] = Q30;
}

/* Code values of one side: code = offset + normalised * range. */
struct side {
	int32_t offset[3];
	int32_t range[3];
};

static void side_of(struct side *s, bool is_yuv, enum hqv_quantization q)
{
	bool full = q == HQV_QUANT_FULL;
	int i;

	for (i = 0; i < 3; i++) {
		bool chroma = is_yuv && i > 0;

		s->offset[i] = chroma ? 128 : full ? 0 : 16;
		s->range[i] = full ? 255 : chroma ? 224 : 219;
	}
}

static bool procamp_neutral(const struct hqv_procamp *p)
{
	return !p->brightness && !p->contrast && !p->saturation && !p->hue;
}

/*
 * The matrix from source code values to destination code values, k, and
 * its offset, as the colour step applies them (docs/engine.md,
 * Precision): coefficients k * 2^HQV_MATRIX_BITS, and offsets in eighths
 * of a code value that also hold what centring the inputs on 128 takes
 * away (1024 k per input, in eighths); all rounded to nearest.
 */
static void compose(int32_t coef[3][3], int32_t offset[3], bool src_yuv,
		    enum hqv_quantization src_q, bool dst_yuv,
		    enum hqv_quantization dst_q, enum hqv_encoding work_enc,
		    enum hqv_encoding dst_enc, const struct hqv_procamp *pa)
{
	struct side in, out;
	int64_t bias[3] = { 0, 0, 0 }, adj[3];
	mat3 m, step;
	int i, j;

	side_of(&in, src_yuv, src_q);
	side_of(&out, dst_yuv, dst_q);

	if (!src_yuv && !dst_yuv && procamp_neutral(pa)) {
		mat_identity(m);
	} else {
		int64_t g = ((int64_t)(128 + pa->contrast) << 30) / 128;
		int64_t gs = mul_q30(g, ((int64_t)(128 + pa->saturation) << 30) / 128);
		int64_t s = sin_q30(pa->hue);
		int64_t c = sin_q30(90 - (pa->hue < 0 ? -pa->hue : pa->hue));

		/* Into Y'CbCr of the working encoding. */
		if (src_yuv)
			mat_identity(m);
		else
			memcpy(m, rgb_to_yuv[work_enc], sizeof(mat3));

		/* Proc-amp. */
		memset(step, 0, sizeof(step));
		step[0][0] = g;
		step[1][1] = mul_q30(gs, c);
		step[1][2] = -mul_q30(gs, s);
		step[2][1] = mul_q30(gs, s);
		step[2][2] = mul_q30(gs, c);
		mat_mul(m, step, m);
		bias[0] = (int64_t)pa->brightness * (Q30 / 256);

		/* Out to the destination. */
		if (!dst_yuv)
			memcpy(step, yuv_to_rgb[work_enc], sizeof(mat3));
		else if (dst_enc != work_enc)
			mat_mul(step, rgb_to_yuv[dst_enc], yuv_to_rgb[work_enc]);
		else
			mat_identity(step);
		mat_mul(m, step, m);
		for (i = 0; i < 3; i++)
			for (adj[i] = 0, j = 0; j < 3; j++)
				adj[i] += mul_q30(step[i][j], bias[j]);
		memcpy(bias, adj, sizeof(bias));
	}

	for (i = 0; i < 3; i++) {
		/* Q30 of code values, then in eighths with the centring. */
		int64_t off = ((int64_t)out.offset[i] << 30) +
			      bias[i] * out.range[i];

		for (j = 0; j < 3; j++) {
			int64_t k = hqv_div_s64(m[i][j] * out.range[i],
						in.range[j]);

			coef[i][j] = (int32_t)((k + (1 << (29 -
						HQV_MATRIX_BITS))) >>
					       (30 - HQV_MATRIX_BITS));
			off += k * (128 - in.offset[j]);
		}
		offset[i] = (int32_t)((off * (1 << HQV_COLOR_BITS) +
				       (1LL << 29)) >> 30);
	}
}

int hqv_color_plan(struct hqv_job *job)
{
	struct hqv_plan *plan = &job->plan;
	const struct hqv_image *src = &job->src, *dst = &job->dst;
	bool src_yuv = src->fmt->is_yuv, dst_yuv = dst->fmt->is_yuv;
	enum hqv_encoding work = src_yuv ? src->encoding : dst->encoding;
	int32_t coef[3][3], offset[3];
	uint8_t bg[3] = { job->background >> 16, job->background >> 8,
			  job->background };
	int i, j;

	compose(plan->matrix, plan->offset, src_yuv, src->quantization,
		dst_yuv, dst->quantization, work, dst->encoding,
		&job->procamp);
	plan->identity = src_yuv == dst_yuv &&
			 src->quantization == dst->quantization &&
			 (!src_yuv || src->encoding == dst->encoding) &&
			 procamp_neutral(&job->procamp);

	/* The background is full-range R'G'B', with no proc-amp. */
	compose(coef, offset, false, HQV_QUANT_FULL, dst_yuv,
		dst->quantization, dst->encoding, dst->encoding,
		&(struct hqv_procamp){ 0 });
	for (i = 0; i < 3; i++) {
		int32_t v = offset[i];

		for (j = 0; j < 3; j++)
			v += hqv_color_product(hqv_color_in_code(bg[j]),
					       coef[i][j]);
		v = v < 0 ? 0 : v > HQV_COLOR_MAX ? HQV_COLOR_MAX : v;
		plan->background[i] = v << (HQV_FRAC_BITS - HQV_COLOR_BITS);
	}
	plan->background[3] = job->alpha * HQV_ONE;
	return 0;
}

/* The colour step's output sample from its sum (docs/engine.md). */
static inline __attribute__((always_inline)) uint16_t color_out(int32_t v)
{
	v = v < 0 ? 0 : v > HQV_COLOR_MAX ? HQV_COLOR_MAX : v;
	return v << (HQV_FRAC_BITS - HQV_COLOR_BITS);
}

void hqv_color_apply(const struct hqv_plan *plan, struct hqv_line *line,
		     uint32_t n)
{
	const int32_t m00 = plan->matrix[0][0], m01 = plan->matrix[0][1],
		      m02 = plan->matrix[0][2], m10 = plan->matrix[1][0],
		      m11 = plan->matrix[1][1], m12 = plan->matrix[1][2],
		      m20 = plan->matrix[2][0], m21 = plan->matrix[2][1],
		      m22 = plan->matrix[2][2];
	const int32_t o0 = plan->offset[0], o1 = plan->offset[1];
	const int32_t o2 = plan->offset[2];
	uint16_t *restrict c0 = line->c[0], *restrict c1 = line->c[1];
	uint16_t *restrict c2 = line->c[2];
	size_t x;

	/* Straight-line arithmetic on distinct arrays: vectorisable. */
	for (x = 0; x < n; x++) {
		int32_t a = hqv_color_in(c0[x]), b = hqv_color_in(c1[x]);
		int32_t c = hqv_color_in(c2[x]);

		c0[x] = color_out(hqv_color_product(a, m00) +
				  hqv_color_product(b, m01) +
				  hqv_color_product(c, m02) + o0);
		c1[x] = color_out(hqv_color_product(a, m10) +
				  hqv_color_product(b, m11) +
				  hqv_color_product(c, m12) + o1);
		c2[x] = color_out(hqv_color_product(a, m20) +
				  hqv_color_product(b, m21) +
				  hqv_color_product(c, m22) + o2);
	}
}
