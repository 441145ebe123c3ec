/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The SIMD entries of the row functions (hqv-rows.h), written once over a
 * small set of vector operations and built three times: for SSSE3 and
 * AVX2 on x86-64 (hqv-rows-ssse3.c, hqv-rows-avx2.c, each compiled for
 * its instruction set) and for NEON on arm64 (hqv-rows-neon.c). Each C
 * file defines HQV_VEC_SSSE3, HQV_VEC_AVX2 or HQV_VEC_NEON and includes
 * this one.
 *
 * The model is a 128-bit lane, which every byte shuffle, unpack and pack
 * of SSSE3, AVX2 and NEON works within. A vector holds LANES lanes (AVX2
 * 2, the others 1), and lane l works on the l-th of LANES consecutive
 * chunks of a row: v_loadl(p, s) loads 16 bytes at p into lane 0, at
 * p + s into lane 1, and so on, and v_storel() stores the same way, so
 * that code written for one lane is right for any number (and a chunk of
 * 16 bytes, s == 16, is one plain load). Constants that are 16 bytes are
 * given for one lane and repeated in every lane (v_lane()).
 */
#include "hqv-rows.h"

#if defined(HQV_VEC_SSSE3) || defined(HQV_VEC_AVX2)
#ifdef __KERNEL__
/* Not in the kernel: GCC's intrinsics reach for <stdlib.h> through it. */
#define _MM_MALLOC_H_INCLUDED
#define __MM_MALLOC_H
#endif
#include <immintrin.h>
#elif defined(HQV_VEC_NEON)
#include <arm_neon.h>
#else
#error "hqv-rows-simd.h: define the instruction set first"
#endif

#define INLINE	static inline __attribute__((always_inline))

/*
 * The vector operations. Bytes are unsigned, 16-bit lanes signed unless
 * said otherwise; unpacking interleaves the low (lo) or high (hi) halves
 * of two lanes' elements, packing saturates 16-bit to unsigned bytes.
 */
#if defined(HQV_VEC_SSSE3)
#define ROW(name)	hqv_##name##_ssse3
#define LANES		1
typedef __m128i vec;
INLINE vec v_load(const void *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}
INLINE void v_store(void *p, vec v)
{
	_mm_storeu_si128((__m128i *)p, v);
}
INLINE vec v_loadl(const void *p, ptrdiff_t s)
{
	return v_load(p);
}
INLINE void v_storel(void *p, ptrdiff_t s, vec v)
{
	v_store(p, v);
}
INLINE vec v_lane(const uint8_t c[16])
{
	return v_load(c);
}
#define v_shuf8		_mm_shuffle_epi8
#define v_or		_mm_or_si128
#define v_and		_mm_and_si128
#define v_add16		_mm_add_epi16
#define v_sub16		_mm_sub_epi16
#define v_mulhrs16	_mm_mulhrs_epi16
#define v_srai16	_mm_srai_epi16
#define v_srli16	_mm_srli_epi16
#define v_slli16	_mm_slli_epi16
#define v_set1_16	_mm_set1_epi16
#define v_set1_8(x)	_mm_set1_epi8((char)(x))
#define v_zero		_mm_setzero_si128
#define v_packus16	_mm_packus_epi16
#define v_lo8		_mm_unpacklo_epi8
#define v_hi8		_mm_unpackhi_epi8
#define v_lo16		_mm_unpacklo_epi16
#define v_hi16		_mm_unpackhi_epi16
#define v_min16		_mm_min_epi16
#define v_max16		_mm_max_epi16

#elif defined(HQV_VEC_AVX2)
#define ROW(name)	hqv_##name##_avx2
#define LANES		2
typedef __m256i vec;
INLINE vec v_load(const void *p)
{
	return _mm256_loadu_si256((const __m256i *)p);
}
INLINE void v_store(void *p, vec v)
{
	_mm256_storeu_si256((__m256i *)p, v);
}
INLINE vec v_loadl(const void *p, ptrdiff_t s)
{
	if (s == 16)
		return v_load(p);
	return _mm256_inserti128_si256(
		_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)p)),
		_mm_loadu_si128((const __m128i *)((const uint8_t *)p + s)), 1);
}
INLINE void v_storel(void *p, ptrdiff_t s, vec v)
{
	if (s == 16) {
		v_store(p, v);
		return;
	}
	_mm_storeu_si128((__m128i *)p, _mm256_castsi256_si128(v));
	_mm_storeu_si128((__m128i *)((uint8_t *)p + s),
			 _mm256_extracti128_si256(v, 1));
}
INLINE vec v_lane(const uint8_t c[16])
{
	return _mm256_broadcastsi128_si256(
		_mm_loadu_si128((const __m128i *)c));
}
#define v_shuf8		_mm256_shuffle_epi8
#define v_or		_mm256_or_si256
#define v_and		_mm256_and_si256
#define v_add16		_mm256_add_epi16
#define v_sub16		_mm256_sub_epi16
#define v_mulhrs16	_mm256_mulhrs_epi16
#define v_srai16	_mm256_srai_epi16
#define v_srli16	_mm256_srli_epi16
#define v_slli16	_mm256_slli_epi16
#define v_set1_16	_mm256_set1_epi16
#define v_set1_8(x)	_mm256_set1_epi8((char)(x))
#define v_zero		_mm256_setzero_si256
#define v_packus16	_mm256_packus_epi16
#define v_lo8		_mm256_unpacklo_epi8
#define v_hi8		_mm256_unpackhi_epi8
#define v_lo16		_mm256_unpacklo_epi16
#define v_hi16		_mm256_unpackhi_epi16
#define v_min16		_mm256_min_epi16
#define v_max16		_mm256_max_epi16

#else /* HQV_VEC_NEON */
#define ROW(name)	hqv_##name##_neon
#define LANES		1
typedef uint8x16_t vec;
#define S16(v)		vreinterpretq_s16_u8(v)
#define U16(v)		vreinterpretq_u16_u8(v)
#define B8(v)		vreinterpretq_u8_s16(v)
#define BU(v)		vreinterpretq_u8_u16(v)
INLINE vec v_load(const void *p)
{
	return vld1q_u8((const uint8_t *)p);
}
INLINE void v_store(void *p, vec v)
{
	vst1q_u8((uint8_t *)p, v);
}
INLINE vec v_loadl(const void *p, ptrdiff_t s)
{
	return v_load(p);
}
INLINE void v_storel(void *p, ptrdiff_t s, vec v)
{
	v_store(p, v);
}
INLINE vec v_lane(const uint8_t c[16])
{
	return v_load(c);
}
/* tbl gives 0 for an index past 15, as pshufb does for bit 7 set. */
#define v_shuf8(v, m)	vqtbl1q_u8(v, m)
#define v_or		vorrq_u8
#define v_and		vandq_u8
#define v_add16(a, b)	B8(vaddq_s16(S16(a), S16(b)))
#define v_sub16(a, b)	B8(vsubq_s16(S16(a), S16(b)))
/* (2ab + 2^15) >> 16 = (ab + 2^14) >> 15: pmulhrsw, never saturating here. */
#define v_mulhrs16(a, b) B8(vqrdmulhq_s16(S16(a), S16(b)))
#define v_srai16(a, n)	B8(vshrq_n_s16(S16(a), n))
#define v_srli16(a, n)	BU(vshrq_n_u16(U16(a), n))
#define v_slli16(a, n)	B8(vshlq_n_s16(S16(a), n))
#define v_set1_16(x)	B8(vdupq_n_s16(x))
#define v_set1_8(x)	vdupq_n_u8(x)
#define v_zero()	vdupq_n_u8(0)
#define v_packus16(a, b) vcombine_u8(vqmovun_s16(S16(a)), vqmovun_s16(S16(b)))
#define v_lo8		vzip1q_u8
#define v_hi8		vzip2q_u8
#define v_lo16(a, b)	BU(vzip1q_u16(U16(a), U16(b)))
#define v_hi16(a, b)	BU(vzip2q_u16(U16(a), U16(b)))
#define v_min16(a, b)	B8(vminq_s16(S16(a), S16(b)))
#define v_max16(a, b)	B8(vmaxq_s16(S16(a), S16(b)))
#endif

/* Bytes a vector takes from a row: LANES chunks of 16. */
#define VB	(16 * LANES)

/*
 * R'G'B' byte orders: 16 pixels a lane, ib vectors in, ob out. Output
 * vector j takes bytes of input vector i only where their pixels meet,
 * which the compiler works out from the constants.
 */
INLINE bool shuffle_meets(size_t ib, size_t ob, size_t j, size_t i)
{
	size_t first = 16 * j / ob, last = (16 * j + 15) / ob;

	return first * ib < 16 * (i + 1) && last * ib + ib > 16 * i;
}

INLINE size_t shuffle_rows(const struct hqv_row_args *a, size_t n,
			   const size_t ib, const size_t ob)
{
	const struct hqv_shuffle *k = a->k;
	const uint8_t *in = a->in[0];
	uint8_t *out = a->out[0];
	const size_t px = 16 * LANES;
	vec m[4][4], f[4];
	size_t x, i, j;

	for (j = 0; j < ob; j++) {
		f[j] = v_lane(k->fills[j]);
		for (i = 0; i < ib; i++)
			m[j][i] = v_lane(k->mask[j][i]);
	}
	for (x = 0; x + px <= n; x += px) {
		const uint8_t *p = in + ib * x;
		uint8_t *q = out + ob * x;
		vec v[4], o;

		for (i = 0; i < ib; i++)
			v[i] = v_loadl(p + 16 * i, 16 * ib);
		for (j = 0; j < ob; j++) {
			o = f[j];
			for (i = 0; i < ib; i++)
				if (shuffle_meets(ib, ob, j, i))
					o = v_or(o, v_shuf8(v[i], m[j][i]));
			v_storel(q + 16 * j, 16 * ob, o);
		}
	}
	return x;
}

#define SHUFFLE(ib, ob)							\
size_t ROW(shuffle##ib##ob)(const struct hqv_row_args *a, size_t n)	\
{									\
	return shuffle_rows(a, n, ib, ob);				\
}
SHUFFLE(3, 3)
SHUFFLE(4, 4)
SHUFFLE(3, 4)
SHUFFLE(4, 3)

/*
 * Mirroring: a lane reverses the groups in 16 bytes, 5 of them for 3-byte
 * groups (15 bytes, the 16th stored is a byte of the next group, which
 * the next store or the tail writes again: so the last store must leave
 * a group after it, and the loads a byte before the row's last group).
 */
INLINE size_t mirror_rows(const struct hqv_row_args *a, size_t n,
			  const size_t g)
{
	/* Groups per lane, and the bytes of a lane's chunk. */
	const size_t per = g == 3 ? 5 : 16 / g, bytes = g * per;
	const size_t step = per * LANES;
	uint8_t rev[16];
	const uint8_t *in = a->in[0];
	uint8_t *out = a->out[0];
	size_t x, t;
	vec m;

	/* Output byte t of a chunk is input byte (per - 1 - t / g) g + t % g
	 * of a chunk loaded g * per - 16 bytes before the chunk's first. */
	for (t = 0; t < 16; t++)
		rev[t] = t < bytes ? (per - 1 - t / g) * g + t % g +
				     (16 - bytes) : 0x80;
	m = v_lane(rev);
	for (x = 0; x + step + (g == 3) <= n; x += step) {
		/* The chunk's groups x .. x + per - 1 end at in - g x + g. */
		const uint8_t *p = in - (ptrdiff_t)(g * (x + per)) + g -
				   (ptrdiff_t)(16 - bytes);

		v_storel(out + g * x, bytes,
			 v_shuf8(v_loadl(p, -(ptrdiff_t)bytes), m));
	}
	return x;
}

#define MIRROR(g)							\
size_t ROW(mirror##g)(const struct hqv_row_args *a, size_t n)		\
{									\
	return mirror_rows(a, n, g);					\
}
MIRROR(1)
MIRROR(2)
MIRROR(3)
MIRROR(4)
