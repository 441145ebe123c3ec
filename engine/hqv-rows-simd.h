/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The SIMD entries of the row functions (hqv-rows.h), written once over a
 * small set of vector operations and built four times: for SSSE3, AVX2
 * and AVX-512BW on x86-64 (hqv-rows-ssse3.c, hqv-rows-avx2.c,
 * hqv-rows-avx512.c, each compiled for its instruction set) and for NEON
 * on arm64 (hqv-rows-neon.c). Each C file defines HQV_VEC_SSSE3,
 * HQV_VEC_AVX2, HQV_VEC_AVX512 or HQV_VEC_NEON and includes this one.
 *
 * The model is a 128-bit lane, which every byte shuffle, unpack and pack
 * of SSSE3, AVX2, AVX-512BW and NEON works within. A vector holds LANES
 * lanes (AVX-512 4, AVX2 2, the others 1), and lane l works on the l-th
 * of LANES consecutive
 * chunks of a row: v_loadl(p, s) loads 16 bytes at p into lane 0, at
 * p + s into lane 1, and so on, and v_storel() stores the same way, so
 * that code written for one lane is right for any number (and a chunk of
 * 16 bytes, s == 16, is one plain load). Constants that are 16 bytes are
 * given for one lane and repeated in every lane (v_lane()).
 */
#include "hqv-internal.h"

#if defined(HQV_VEC_SSSE3) || defined(HQV_VEC_AVX2) || defined(HQV_VEC_AVX512)
#ifdef __KERNEL__
/* Not in the kernel: GCC's intrinsics reach for <stdlib.h> through it. */
#define _MM_MALLOC_H_INCLUDED
#define __MM_MALLOC_H
#endif
#include <immintrin.h>
#elif defined(HQV_VEC_NEON) && defined(__KERNEL__)
/* GCC's header, with the kernel's 64-bit types (long long). */
#include <asm/neon-intrinsics.h>
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
 * mulhi and mullo are the high and low halves of 16-bit products
 * (mulhiu: of unsigned ones); srl shifts by a count known at run time.
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
#define v_xor		_mm_xor_si128
#define v_add16		_mm_add_epi16
#define v_sub16		_mm_sub_epi16
#define v_mulhrs16	_mm_mulhrs_epi16
#define v_mulhi16	_mm_mulhi_epi16
#define v_mulhiu16	_mm_mulhi_epu16
#define v_mullo16	_mm_mullo_epi16
#define v_srai16	_mm_srai_epi16
#define v_srli16	_mm_srli_epi16
#define v_srl16(a, n)	_mm_srl_epi16(a, _mm_cvtsi32_si128(n))
#define v_slli16	_mm_slli_epi16
#define v_set1_16	_mm_set1_epi16
#define v_set1_8(x)	_mm_set1_epi8((char)(x))
#define v_zero		_mm_setzero_si128
#define v_packus16	_mm_packus_epi16
#define v_lo8		_mm_unpacklo_epi8
#define v_hi8		_mm_unpackhi_epi8
#define v_lo16		_mm_unpacklo_epi16
#define v_hi16		_mm_unpackhi_epi16
#define v_lo32		_mm_unpacklo_epi32
#define v_hi32		_mm_unpackhi_epi32
#define v_lo64		_mm_unpacklo_epi64
#define v_hi64		_mm_unpackhi_epi64
#define v_min16		_mm_min_epi16
#define v_max16		_mm_max_epi16
#define v_maddubs16	_mm_maddubs_epi16

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
#define v_xor		_mm256_xor_si256
#define v_add16		_mm256_add_epi16
#define v_sub16		_mm256_sub_epi16
#define v_mulhrs16	_mm256_mulhrs_epi16
#define v_mulhi16	_mm256_mulhi_epi16
#define v_mulhiu16	_mm256_mulhi_epu16
#define v_mullo16	_mm256_mullo_epi16
#define v_srai16	_mm256_srai_epi16
#define v_srli16	_mm256_srli_epi16
#define v_srl16(a, n)	_mm256_srl_epi16(a, _mm_cvtsi32_si128(n))
#define v_slli16	_mm256_slli_epi16
#define v_set1_16	_mm256_set1_epi16
#define v_set1_8(x)	_mm256_set1_epi8((char)(x))
#define v_zero		_mm256_setzero_si256
#define v_packus16	_mm256_packus_epi16
#define v_lo8		_mm256_unpacklo_epi8
#define v_hi8		_mm256_unpackhi_epi8
#define v_lo16		_mm256_unpacklo_epi16
#define v_hi16		_mm256_unpackhi_epi16
#define v_lo32		_mm256_unpacklo_epi32
#define v_hi32		_mm256_unpackhi_epi32
#define v_lo64		_mm256_unpacklo_epi64
#define v_hi64		_mm256_unpackhi_epi64
#define v_min16		_mm256_min_epi16
#define v_max16		_mm256_max_epi16
#define v_maddubs16	_mm256_maddubs_epi16

#elif defined(HQV_VEC_AVX512)
#define ROW(name)	hqv_##name##_avx512
#define LANES		4
typedef __m512i vec;
INLINE vec v_load(const void *p)
{
	return _mm512_loadu_si512(p);
}
INLINE void v_store(void *p, vec v)
{
	_mm512_storeu_si512(p, v);
}
INLINE vec v_loadl(const void *p, ptrdiff_t s)
{
	const uint8_t *b = (const uint8_t *)p;
	vec v;

	if (s == 16)
		return v_load(p);
	v = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)b));
	v = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(b + s)), 1);
	v = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(b + 2 * s)),
			       2);
	return _mm512_inserti32x4(v,
			_mm_loadu_si128((const __m128i *)(b + 3 * s)), 3);
}
INLINE void v_storel(void *p, ptrdiff_t s, vec v)
{
	uint8_t *b = (uint8_t *)p;

	if (s == 16) {
		v_store(p, v);
		return;
	}
	_mm_storeu_si128((__m128i *)b, _mm512_castsi512_si128(v));
	_mm_storeu_si128((__m128i *)(b + s), _mm512_extracti32x4_epi32(v, 1));
	_mm_storeu_si128((__m128i *)(b + 2 * s),
			 _mm512_extracti32x4_epi32(v, 2));
	_mm_storeu_si128((__m128i *)(b + 3 * s),
			 _mm512_extracti32x4_epi32(v, 3));
}
INLINE vec v_lane(const uint8_t c[16])
{
	return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)c));
}
#define v_shuf8		_mm512_shuffle_epi8
#define v_or		_mm512_or_si512
#define v_and		_mm512_and_si512
#define v_xor		_mm512_xor_si512
#define v_add16		_mm512_add_epi16
#define v_sub16		_mm512_sub_epi16
#define v_mulhrs16	_mm512_mulhrs_epi16
#define v_mulhi16	_mm512_mulhi_epi16
#define v_mulhiu16	_mm512_mulhi_epu16
#define v_mullo16	_mm512_mullo_epi16
#define v_srai16	_mm512_srai_epi16
#define v_srli16	_mm512_srli_epi16
#define v_srl16(a, n)	_mm512_srl_epi16(a, _mm_cvtsi32_si128(n))
#define v_slli16	_mm512_slli_epi16
#define v_set1_16	_mm512_set1_epi16
#define v_set1_8(x)	_mm512_set1_epi8((char)(x))
#define v_zero		_mm512_setzero_si512
#define v_packus16	_mm512_packus_epi16
#define v_lo8		_mm512_unpacklo_epi8
#define v_hi8		_mm512_unpackhi_epi8
#define v_lo16		_mm512_unpacklo_epi16
#define v_hi16		_mm512_unpackhi_epi16
#define v_lo32		_mm512_unpacklo_epi32
#define v_hi32		_mm512_unpackhi_epi32
#define v_lo64		_mm512_unpacklo_epi64
#define v_hi64		_mm512_unpackhi_epi64
#define v_min16		_mm512_min_epi16
#define v_max16		_mm512_max_epi16
#define v_maddubs16	_mm512_maddubs_epi16

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
#define v_xor		veorq_u8
#define v_add16(a, b)	B8(vaddq_s16(S16(a), S16(b)))
#define v_sub16(a, b)	B8(vsubq_s16(S16(a), S16(b)))
/* (2ab + 2^15) >> 16 = (ab + 2^14) >> 15: pmulhrsw, never saturating here. */
#define v_mulhrs16(a, b) B8(vqrdmulhq_s16(S16(a), S16(b)))
/* The high halves of the 32-bit products: their odd 16-bit elements. */
#define v_mulhi16(a, b)	B8(vuzp2q_s16(					\
	vreinterpretq_s16_s32(vmull_s16(vget_low_s16(S16(a)),		\
					vget_low_s16(S16(b)))),		\
	vreinterpretq_s16_s32(vmull_high_s16(S16(a), S16(b)))))
#define v_mulhiu16(a, b) BU(vuzp2q_u16(				\
	vreinterpretq_u16_u32(vmull_u16(vget_low_u16(U16(a)),		\
					vget_low_u16(U16(b)))),		\
	vreinterpretq_u16_u32(vmull_high_u16(U16(a), U16(b)))))
#define v_mullo16(a, b)	B8(vmulq_s16(S16(a), S16(b)))
#define v_srai16(a, n)	B8(vshrq_n_s16(S16(a), n))
#define v_srli16(a, n)	BU(vshrq_n_u16(U16(a), n))
#define v_srl16(a, n)	BU(vshlq_u16(U16(a), vdupq_n_s16(-(int16_t)(n))))
#define v_slli16(a, n)	B8(vshlq_n_s16(S16(a), n))
#define v_set1_16(x)	B8(vdupq_n_s16(x))
#define v_set1_8(x)	vdupq_n_u8(x)
#define v_zero()	vdupq_n_u8(0)
#define v_packus16(a, b) vcombine_u8(vqmovun_s16(S16(a)), vqmovun_s16(S16(b)))
#define v_lo8		vzip1q_u8
#define v_hi8		vzip2q_u8
#define v_lo16(a, b)	BU(vzip1q_u16(U16(a), U16(b)))
#define v_hi16(a, b)	BU(vzip2q_u16(U16(a), U16(b)))
#define U32(v)		vreinterpretq_u32_u8(v)
#define U64(v)		vreinterpretq_u64_u8(v)
#define v_lo32(a, b)	vreinterpretq_u8_u32(vzip1q_u32(U32(a), U32(b)))
#define v_hi32(a, b)	vreinterpretq_u8_u32(vzip2q_u32(U32(a), U32(b)))
#define v_lo64(a, b)	vreinterpretq_u8_u64(vzip1q_u64(U64(a), U64(b)))
#define v_hi64(a, b)	vreinterpretq_u8_u64(vzip2q_u64(U64(a), U64(b)))
#define v_min16(a, b)	B8(vminq_s16(S16(a), S16(b)))
#define v_max16(a, b)	B8(vmaxq_s16(S16(a), S16(b)))
#endif

/*
 * 16-bit elements of a lane's 16 pixels, its halves lo and hi, stored at
 * (and loaded from) p in pixel order: lane 0's lo, its hi, lane 1's lo...
 */
#if LANES == 4
/* 128-bit lanes of lo and hi, as 64-bit element pairs: lo0 hi0 lo1 hi1... */
INLINE void v_store_halves(void *p, vec lo, vec hi)
{
	const __m512i first = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0);
	const __m512i second = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);

	v_store(p, _mm512_permutex2var_epi64(lo, first, hi));
	v_store((uint8_t *)p + 64, _mm512_permutex2var_epi64(lo, second, hi));
}

INLINE void v_load_halves(const void *p, vec *lo, vec *hi)
{
	const __m512i even = _mm512_set_epi64(13, 12, 9, 8, 5, 4, 1, 0);
	const __m512i odd = _mm512_set_epi64(15, 14, 11, 10, 7, 6, 3, 2);
	vec a = v_load(p), b = v_load((const uint8_t *)p + 64);

	*lo = _mm512_permutex2var_epi64(a, even, b);
	*hi = _mm512_permutex2var_epi64(a, odd, b);
}
#elif LANES == 2
INLINE void v_store_halves(void *p, vec lo, vec hi)
{
	v_store(p, _mm256_permute2x128_si256(lo, hi, 0x20));
	v_store((uint8_t *)p + 32, _mm256_permute2x128_si256(lo, hi, 0x31));
}

INLINE void v_load_halves(const void *p, vec *lo, vec *hi)
{
	vec a = v_load(p), b = v_load((const uint8_t *)p + 32);

	*lo = _mm256_permute2x128_si256(a, b, 0x20);
	*hi = _mm256_permute2x128_si256(a, b, 0x31);
}
#else
INLINE void v_store_halves(void *p, vec lo, vec hi)
{
	v_store(p, lo);
	v_store((uint8_t *)p + 16, hi);
}

INLINE void v_load_halves(const void *p, vec *lo, vec *hi)
{
	*lo = v_load(p);
	*hi = v_load((const uint8_t *)p + 16);
}
#endif

/*
 * 4-byte pixels loaded plainly, a vector after another, and transposed in
 * each lane (rgb_yuv_loop()) leave a lane's 16 pixels dealt out: lane l
 * holds groups (of 4 pixels) l, l + LANES, l + 2 LANES and l + 3 LANES.
 * v_dealt_bytes() puts such a vector's bytes (a 4-byte group each) in
 * pixel order, v_deal_bytes() deals them out, and v_store_dealt() (below)
 * and v_load_dealt() are v_store_halves() and v_load_halves() for 16-bit
 * halves so dealt out. v_dealt_qwords() puts in order a vector whose
 * lane l holds the 64-bit elements l and l + LANES.
 */
#if LANES == 4
INLINE vec v_dealt_bytes(vec v)
{
	return _mm512_permutexvar_epi32(_mm512_set_epi32(15, 11, 7, 3,
			14, 10, 6, 2, 13, 9, 5, 1, 12, 8, 4, 0), v);
}

/* A transpose: its own inverse. */
INLINE vec v_deal_bytes(vec v)
{
	return v_dealt_bytes(v);
}

INLINE vec v_dealt_qwords(vec v)
{
	return _mm512_permutexvar_epi64(
		_mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0), v);
}

INLINE void v_load_dealt(const void *p, vec *lo, vec *hi)
{
	const __m512i order = _mm512_set_epi64(7, 3, 6, 2, 5, 1, 4, 0);

	*lo = _mm512_permutexvar_epi64(order, v_load(p));
	*hi = _mm512_permutexvar_epi64(order, v_load((const uint8_t *)p + 64));
}
#elif LANES == 2
INLINE vec v_dealt_bytes(vec v)
{
	return _mm256_permutevar8x32_epi32(v, _mm256_set_epi32(7, 3, 6, 2,
							       5, 1, 4, 0));
}

INLINE vec v_deal_bytes(vec v)
{
	return _mm256_permutevar8x32_epi32(v, _mm256_set_epi32(7, 5, 3, 1,
							       6, 4, 2, 0));
}

INLINE vec v_dealt_qwords(vec v)
{
	return _mm256_permute4x64_epi64(v, 0xd8);
}

INLINE void v_load_dealt(const void *p, vec *lo, vec *hi)
{
	*lo = _mm256_permute4x64_epi64(v_load(p), 0xd8);
	*hi = _mm256_permute4x64_epi64(v_load((const uint8_t *)p + 32), 0xd8);
}
#else
/* One lane: dealt out is pixel order. */
INLINE vec v_dealt_bytes(vec v)
{
	return v;
}

INLINE vec v_deal_bytes(vec v)
{
	return v;
}

INLINE vec v_dealt_qwords(vec v)
{
	return v;
}

INLINE void v_load_dealt(const void *p, vec *lo, vec *hi)
{
	v_load_halves(p, lo, hi);
}
#endif

/* Bytes a vector takes from a row: LANES chunks of 16. */
#define VB	(16 * LANES)

/*
 * Lane l loaded from the 16 bytes at p[l] + at: for chunks at no one
 * stride apart (bilinear's taps, area's boxes).
 */
INLINE vec v_loadp(const uint8_t *const p[LANES], ptrdiff_t at)
{
#if LANES == 4
	__m512i v = _mm512_castsi128_si512(
		_mm_loadu_si128((const __m128i *)(p[0] + at)));

	v = _mm512_inserti32x4(v,
		_mm_loadu_si128((const __m128i *)(p[1] + at)), 1);
	v = _mm512_inserti32x4(v,
		_mm_loadu_si128((const __m128i *)(p[2] + at)), 2);
	return _mm512_inserti32x4(v,
		_mm_loadu_si128((const __m128i *)(p[3] + at)), 3);
#elif LANES == 2
	return _mm256_inserti128_si256(_mm256_castsi128_si256(
		_mm_loadu_si128((const __m128i *)(p[0] + at))),
		_mm_loadu_si128((const __m128i *)(p[1] + at)), 1);
#else
	return v_load(p[0] + at);
#endif
}

/*
 * Halves dealt out are each the halves of two groups of 4 pixels in a
 * lane, lane l's first the 64-bit elements l and l + LANES of the step's
 * first vector: the same permute puts both in order.
 */
INLINE void v_store_dealt(void *p, vec lo, vec hi)
{
	v_store(p, v_dealt_qwords(lo));
	v_store((uint8_t *)p + VB, v_dealt_qwords(hi));
}

/* The entry name##p: loop, the operation's vector loop, for p bytes. */
#define ROW_ENTRY(name, loop, p)					\
size_t ROW(name##p)(const struct hqv_row_args *a, size_t n)		\
{									\
	return loop(a, n, p);						\
}

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
#if LANES < 4	/* no AVX-512BW entry (hqv-rows.c, ROW_OP_256) */
SHUFFLE(3, 3)
SHUFFLE(4, 4)
SHUFFLE(3, 4)
SHUFFLE(4, 3)
#endif

/*
 * Mirroring: a lane reverses the groups in 16 bytes, 5 of them for 3-byte
 * groups (15 bytes, the 16th stored is a byte of the next group, which
 * the next store or the tail writes again: so the last store must leave
 * a group after it, and the loads a byte before the row's last group).
 * The row is read backwards, which the hardware prefetchers follow late:
 * asking for the bytes MIRROR_PREFETCH ahead took hflip RGB24 from
 * 0.19-0.20 ms to 0.16-0.17 (AVX-512BW, one core, AMD EPYC, Zen 5).
 */
#define MIRROR_PREFETCH	1024

/* Groups x .. x + per LANES - 1 of a mirrored row (as mirror_rows()). */
INLINE void mirror_chunk(const uint8_t *in, uint8_t *out, size_t x, vec m,
			 const size_t g, const size_t per, const size_t bytes)
{
	/* The chunk's groups x .. x + per - 1 end at in - g x + g. */
	const uint8_t *p = in - (ptrdiff_t)(g * (x + per)) + g -
			   (ptrdiff_t)(16 - bytes);

	v_storel(out + g * x, bytes, v_shuf8(v_loadl(p, -(ptrdiff_t)bytes), m));
}

INLINE size_t mirror_rows(const struct hqv_row_args *a, size_t n,
			  const size_t g)
{
	/* Groups per lane, and the bytes of a lane's chunk. */
	const size_t per = g == 3 ? 5 : 16 / g, bytes = g * per;
	const size_t step = per * LANES, spill = g == 3;
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
	for (x = 0; x + step + spill <= n; x += step) {
		if (g * x + MIRROR_PREFETCH + 16 <= g * n)
			__builtin_prefetch(in - (ptrdiff_t)(g * x) -
					   MIRROR_PREFETCH);
		mirror_chunk(in, out, x, m, g, per, bytes);
	}
	/*
	 * The tail: one more chunk, over groups already written, that ends
	 * where the row ends (3-byte groups: a group before, which is then
	 * copied alone over the byte spilt into it), so that no narrower
	 * entry is called for it (a call each for AVX2, SSSE3 and C took a
	 * tenth of hflip RGB24's time).
	 */
	if (!x || x == n)
		return x;
	mirror_chunk(in, out, n - step - spill, m, g, per, bytes);
	if (spill)
		memcpy(out + g * (n - 1), in - g * (n - 1), g);
	return n;
}

ROW_ENTRY(mirror, mirror_rows, 1)
ROW_ENTRY(mirror, mirror_rows, 2)
ROW_ENTRY(mirror, mirror_rows, 3)
ROW_ENTRY(mirror, mirror_rows, 4)

/*
 * The colour step: d of a code value, 128 v - 16384; each product is
 * pmulhrsw's (d m + 2^14) >> 15, which is hqv_color_product(); sums wrap
 * in 16 bits as the C entries' casts do. Halves of a lane's 16 pixels
 * are worked on as 16-bit lanes, lo (its pixels 0 to 7) and hi.
 *
 * d of a vector of bytes v, its lo and hi halves: v - 128 as a signed
 * byte (v xor 0x80), unpacked as the high byte of a 16-bit lane, is
 * (v - 128) << 8, and shifted arithmetically (v - 128) << (FRAC + 1),
 * which is hqv_color_in_code(v): five operations for the two halves
 * where widening, shifting and subtracting took six.
 */
INLINE void color_d8(vec c, vec *lo, vec *hi)
{
	vec s = v_xor(c, v_set1_8(0x80));

	*lo = v_srai16(v_lo8(v_zero(), s), 7 - HQV_FRAC_BITS);
	*hi = v_srai16(v_hi8(v_zero(), s), 7 - HQV_FRAC_BITS);
}

/*
 * The same d where a lane's bytes are its pixels 0 and 8, 1 and 9, and so
 * on (zipped): pmaddubsw of 128 and 0 (lo) or 0 and 128 (hi) with v xor
 * 0x80 as signed bytes is 128 (v - 128) of the even or odd bytes, one
 * operation for each half where unpacking and shifting took two. NEON
 * shifts the even bytes' and masks the odd bytes' into the high byte.
 */
INLINE void color_d8_zipped(vec c, vec *lo, vec *hi)
{
	vec s = v_xor(c, v_set1_8(0x80));

#ifdef HQV_VEC_NEON
	*lo = v_srai16(v_slli16(s, 8), 7 - HQV_FRAC_BITS);
	*hi = v_srai16(v_and(s, v_set1_16((int16_t)0xff00)),
		       7 - HQV_FRAC_BITS);
#else
	/* Bytes 2^(FRAC + 1) and 0, or 0 and 2^(FRAC + 1): unsigned. */
	const int16_t k = 1 << (HQV_FRAC_BITS + 1);

	*lo = v_maddubs16(v_set1_16(k), s);
	*hi = v_maddubs16(v_set1_16((int16_t)(k << 8)), s);
#endif
}

struct color_vecs {
	vec m[3][3], o[3];
};

INLINE void color_vecs_init(struct color_vecs *cv, const struct hqv_color16 *c)
{
	unsigned int i, j;

	for (i = 0; i < 3; i++) {
		cv->o[i] = v_set1_16(c->o[i]);
		for (j = 0; j < 3; j++)
			cv->m[i][j] = v_set1_16(c->m[i][j]);
	}
}

/* The products of output i, without its offset. */
INLINE vec color_products(const struct color_vecs *cv, unsigned int i, vec a,
			  vec b, vec c)
{
	return v_add16(v_add16(v_mulhrs16(a, cv->m[i][0]),
			       v_mulhrs16(b, cv->m[i][1])),
		       v_mulhrs16(c, cv->m[i][2]));
}

INLINE vec color_sum(const struct color_vecs *cv, unsigned int i, vec a,
		     vec b, vec c)
{
	return v_add16(v_add16(v_mulhrs16(a, cv->m[i][0]),
			       v_mulhrs16(b, cv->m[i][1])),
		       v_add16(v_mulhrs16(c, cv->m[i][2]), cv->o[i]));
}

/* Codes of two halves' sums: >> HQV_COLOR_BITS, packing clamps. */
INLINE vec codes_of(vec lo, vec hi)
{
	return v_packus16(v_srai16(lo, HQV_COLOR_BITS),
			  v_srai16(hi, HQV_COLOR_BITS));
}

/*
 * R'G'B' to luma codes and chroma eighths: a lane's 16 pixels are picked
 * apart into R, G and B vectors by byte shuffles, as the shuffles above.
 * The flags are constants in each loop (RGB_YUV() below).
 */
INLINE vec chroma_eighths(vec v, const bool clamp)
{
	if (clamp)
		v = v_min16(v_max16(v, v_zero()), v_set1_16(HQV_COLOR_MAX));
	return v;
}

/* Halves in pixel order, or dealt out (v_store_dealt()). */
INLINE void chroma_out(uint8_t *p, vec lo, vec hi, const bool add,
		       const bool dealt)
{
	if (add) {
		vec a, b;

		if (dealt)
			v_load_dealt(p, &a, &b);
		else
			v_load_halves(p, &a, &b);
		lo = v_add16(lo, a);
		hi = v_add16(hi, b);
	}
	if (dealt)
		v_store_dealt(p, lo, hi);
	else
		v_store_halves(p, lo, hi);
}

/* The split and masks of k (struct hqv_rgb_yuv) as vectors. */
struct rgb_vecs {
	struct color_vecs cv;
	vec split, mask[3][4];
};

INLINE void rgb_vecs_init(struct rgb_vecs *rv, const struct hqv_rgb_yuv *k,
			  const size_t ib)
{
	size_t i, ch;

	color_vecs_init(&rv->cv, &k->c);
	rv->split = v_lane(k->split);
	for (ch = 0; ch < 3; ch++)
		for (i = 0; i < ib && ib != 4; i++) {
			/* Zipped (color_d8_zipped()): pixels t and 8 + t. */
			uint8_t zip[16];
			size_t t;

			for (t = 0; t < 8; t++) {
				zip[2 * t] = k->mask[ch][i][t];
				zip[2 * t + 1] = k->mask[ch][i][8 + t];
			}
			rv->mask[ch][i] = v_lane(zip);
		}
}

/*
 * A step's pixels from p: luma codes stored at yc, and with chroma the
 * halves of Cb and Cr eighths in cb and cr (dealt out for 4-byte pixels);
 * with bare (and no clamp), their products alone, the offsets left for
 * the caller to add (sums wrap in 16 bits in any order).
 */
INLINE void rgb_yuv_step(const struct rgb_vecs *rv, const uint8_t *p,
			 uint8_t *yc, const size_t ib, const bool chroma,
			 const bool clamp, const bool bare, vec cb[2],
			 vec cr[2])
{
	const struct color_vecs *cv = &rv->cv;
	vec v[4], d[3][2], c[3], o[2];
	size_t i, ch;
	unsigned int h;

	if (ib == 4) {
		/*
		 * R, G, B of a lane's 4 pixels in each vector, as 32-bit
		 * elements, transposed: the lanes' pixels dealt out
		 * (v_dealt_bytes()), for plain loads.
		 */
		vec t[4];

		for (i = 0; i < 4; i++)
			v[i] = v_shuf8(v_load(p + VB * i), rv->split);
		t[0] = v_lo32(v[0], v[1]);
		t[1] = v_hi32(v[0], v[1]);
		t[2] = v_lo32(v[2], v[3]);
		t[3] = v_hi32(v[2], v[3]);
		/* Zipped: a byte of vectors 0 and 1's, one of 2 and 3's. */
		c[0] = v_lo8(t[0], t[2]);
		c[1] = v_hi8(t[0], t[2]);
		c[2] = v_lo8(t[1], t[3]);
	} else {
		for (i = 0; i < ib; i++)
			v[i] = v_loadl(p + 16 * i, 16 * ib);
		for (ch = 0; ch < 3; ch++) {
			c[ch] = v_shuf8(v[0], rv->mask[ch][0]);
			for (i = 1; i < ib; i++)
				c[ch] = v_or(c[ch], v_shuf8(v[i],
						rv->mask[ch][i]));
		}
	}
	for (ch = 0; ch < 3; ch++)
		color_d8_zipped(c[ch], &d[ch][0], &d[ch][1]);
	o[0] = codes_of(color_sum(cv, 0, d[0][0], d[1][0], d[2][0]),
			color_sum(cv, 0, d[0][1], d[1][1], d[2][1]));
	v_store(yc, ib == 4 ? v_dealt_bytes(o[0]) : o[0]);
	if (!chroma)
		return;
	for (h = 0; h < 2; h++) {
		if (bare && !clamp) {
			cb[h] = color_products(cv, 1, d[0][h], d[1][h],
					       d[2][h]);
			cr[h] = color_products(cv, 2, d[0][h], d[1][h],
					       d[2][h]);
			continue;
		}
		cb[h] = chroma_eighths(color_sum(cv, 1, d[0][h], d[1][h],
						 d[2][h]), clamp);
		cr[h] = chroma_eighths(color_sum(cv, 2, d[0][h], d[1][h],
						 d[2][h]), clamp);
	}
}

INLINE size_t rgb_yuv_loop(const struct hqv_row_args *a, size_t n,
			   const size_t ib, const bool chroma, const bool add,
			   const bool clamp)
{
	const size_t px = 16 * LANES;
	const uint8_t *in = a->in[0];
	uint8_t *yc = a->out[0], *cb = a->out[1], *cr = a->out[2];
	struct rgb_vecs rv;
	size_t x;

	rgb_vecs_init(&rv, a->k, ib);
	for (x = 0; x + px <= n; x += px) {
		vec vb[2], vr[2];

		rgb_yuv_step(&rv, in + ib * x, yc + x, ib, chroma, clamp,
			     false, vb, vr);
		if (!chroma)
			continue;
		chroma_out(cb + 2 * x, vb[0], vb[1], add, ib == 4);
		chroma_out(cr + 2 * x, vr[0], vr[1], add, ib == 4);
	}
	return x;
}

/*
 * Two rows in one loop: the sums of their chroma never go through
 * memory, and the two rows are read side by side.
 */
INLINE size_t rgb_yuv_pair_loop(const struct hqv_row_args *a, size_t n,
			    const size_t ib, const bool clamp)
{
	const struct hqv_rgb_yuv *k = a->k;
	const size_t px = 16 * LANES;
	const uint8_t *in0 = a->in[0], *in1 = a->in[1];
	uint8_t *yc0 = a->out[0], *yc1 = a->out[1];
	uint8_t *cb = a->out[2], *cr = a->out[3];
	/* Unclamped, both rows' offsets at once. */
	const vec ob = v_set1_16(clamp ? 0 : (int16_t)(2 * k->c.o[1]));
	const vec or = v_set1_16(clamp ? 0 : (int16_t)(2 * k->c.o[2]));
	struct rgb_vecs rv;
	size_t x;
	unsigned int h;

	rgb_vecs_init(&rv, k, ib);
	for (x = 0; x + px <= n; x += px) {
		vec b0[2], r0[2], b1[2], r1[2];

		rgb_yuv_step(&rv, in0 + ib * x, yc0 + x, ib, true, clamp, true,
			     b0, r0);
		rgb_yuv_step(&rv, in1 + ib * x, yc1 + x, ib, true, clamp, true,
			     b1, r1);
		for (h = 0; h < 2; h++) {
			b0[h] = v_add16(v_add16(b0[h], b1[h]), ob);
			r0[h] = v_add16(v_add16(r0[h], r1[h]), or);
		}
		chroma_out(cb + 2 * x, b0[0], b0[1], false, ib == 4);
		chroma_out(cr + 2 * x, r0[0], r0[1], false, ib == 4);
	}
	return x;
}

/*
 * One function a combination of flags, each with a stack frame of its
 * own: inlined into one, their spilled vectors passed the kernel's 2 KiB
 * frame limit under KASAN.
 */
#define RGB_YUV_LOOP(ib, name, chroma, add, clamp)			\
static __attribute__((__noinline__)) size_t				\
rgb##ib##_yuv_##name(const struct hqv_row_args *a, size_t n)		\
{									\
	return rgb_yuv_loop(a, n, ib, chroma, add, clamp);		\
}

#define RGB_YUV_PAIR_LOOP(ib, name, clamp)				\
static __attribute__((__noinline__)) size_t				\
rgb##ib##_yuv_pair_##name(const struct hqv_row_args *a, size_t n)	\
{									\
	return rgb_yuv_pair_loop(a, n, ib, clamp);			\
}

#define RGB_YUV(ib)							\
RGB_YUV_LOOP(ib, luma, false, false, false)				\
RGB_YUV_LOOP(ib, add_clamp, true, true, true)				\
RGB_YUV_LOOP(ib, add, true, true, false)				\
RGB_YUV_LOOP(ib, clamp, true, false, true)				\
RGB_YUV_LOOP(ib, set, true, false, false)				\
RGB_YUV_PAIR_LOOP(ib, clamp, true)					\
RGB_YUV_PAIR_LOOP(ib, set, false)					\
size_t ROW(rgb##ib##_yuv)(const struct hqv_row_args *a, size_t n)	\
{									\
	const struct hqv_rgb_yuv *k = a->k;				\
									\
	if (!k->chroma)							\
		return rgb##ib##_yuv_luma(a, n);			\
	if (k->add)							\
		return k->clamp ? rgb##ib##_yuv_add_clamp(a, n) :	\
				  rgb##ib##_yuv_add(a, n);		\
	return k->clamp ? rgb##ib##_yuv_clamp(a, n) :			\
			  rgb##ib##_yuv_set(a, n);			\
}									\
size_t ROW(rgb##ib##_yuv_pair)(const struct hqv_row_args *a, size_t n)	\
{									\
	const struct hqv_rgb_yuv *k = a->k;				\
									\
	return k->clamp ? rgb##ib##_yuv_pair_clamp(a, n) :		\
			  rgb##ib##_yuv_pair_set(a, n);			\
}
RGB_YUV(3)
RGB_YUV(4)

/*
 * R, G and B codes where the matrix is lean (hqv_yuv_rgb_init()): one
 * luma product for all three, and the products of zero left out, which
 * leaves the sums as they were (16-bit sums wrap in any order).
 */
INLINE void yuv_rgb_lean(const struct color_vecs *cv, const vec dl[2],
			 const vec dcb[2], const vec dcr[2], vec ch[3])
{
	vec r[2], g[2], b[2];
	unsigned int h;

	for (h = 0; h < 2; h++) {
		vec l = v_mulhrs16(dl[h], cv->m[0][0]);

		r[h] = v_add16(v_add16(l, v_mulhrs16(dcr[h], cv->m[0][2])),
			       cv->o[0]);
		g[h] = v_add16(v_add16(l, v_mulhrs16(dcb[h], cv->m[1][1])),
			       v_add16(v_mulhrs16(dcr[h], cv->m[1][2]),
				       cv->o[1]));
		b[h] = v_add16(v_add16(l, v_mulhrs16(dcb[h], cv->m[2][1])),
			       cv->o[2]);
	}
	ch[0] = codes_of(r[0], r[1]);
	ch[1] = codes_of(g[0], g[1]);
	ch[2] = codes_of(b[0], b[1]);
}

/* Where rgbx_store() puts a lane's 16 pixels. */
enum px_layout {
	PX_CHUNKS,	/* lane l: the l-th of LANES chunks of 16 pixels */
	PX_DEALT,	/* dealt out (v_deal_bytes()) */
	/*
	 * Lane l: the step's pixels 8 l to 8 l + 7, then 8 LANES + 8 l to
	 * 8 LANES + 8 l + 7 (halves in pixel order).
	 */
	PX_HALVES,
};

/*
 * A lane's 16 pixels from their channels (ch[0-2] R, G, B, ch[3] extra,
 * bytes) into out (ob bytes a pixel): interleaved into four vectors of
 * R, G, B, extra pixels, which the shuffles above (m, an hqv_shuffle's
 * masks from 4-byte pixels) put into the output's order and size (m
 * NULL: ch are in the order of a 4-byte pixel's bytes already). With
 * 4-byte pixels dealt out (v_deal_bytes()), vector j is a lane's group j
 * in each lane, which is the vector's pixels in order: plain stores. In
 * halves, vectors 0 and 1 are each lane's first 8 pixels, which
 * v_store_halves() puts in order, and 2 and 3 its last 8.
 */
INLINE void rgbx_store(uint8_t *out, const vec ch[4], vec m[4][4],
		       const size_t ob, const enum px_layout layout)
{
	vec rg, bx, p[4], o[4];
	size_t i, j;

	rg = v_lo8(ch[0], ch[1]);
	bx = v_lo8(ch[2], ch[3]);
	p[0] = v_lo16(rg, bx);
	p[1] = v_hi16(rg, bx);
	rg = v_hi8(ch[0], ch[1]);
	bx = v_hi8(ch[2], ch[3]);
	p[2] = v_lo16(rg, bx);
	p[3] = v_hi16(rg, bx);
	for (j = 0; j < ob; j++) {
		o[j] = v_zero();
		for (i = 0; i < 4 && m; i++)
			if (shuffle_meets(4, ob, j, i))
				o[j] = v_or(o[j], v_shuf8(p[i], m[j][i]));
		if (!m)
			o[j] = p[j];
		if (layout == PX_DEALT)
			v_store(out + VB * j, o[j]);
		else if (layout == PX_CHUNKS)
			v_storel(out + 16 * j, 16 * ob, o[j]);
	}
	if (layout == PX_HALVES) {
		v_store_halves(out, o[0], o[1]);
		v_store_halves(out + 2 * VB, o[2], o[3]);
	}
}

/* R, G and B codes of a lane's 16 pixels from the halves of their d. */
INLINE void yuv_rgb_codes(const struct color_vecs *cv, const bool lean,
			  const vec dl[2], const vec dcb[2], const vec dcr[2],
			  vec ch[3])
{
	unsigned int c;

	if (lean) {
		yuv_rgb_lean(cv, dl, dcb, dcr, ch);
		return;
	}
	for (c = 0; c < 3; c++)
		ch[c] = codes_of(color_sum(cv, c, dl[0], dcb[0], dcr[0]),
				 color_sum(cv, c, dl[1], dcb[1], dcr[1]));
}

/* Y'CbCr to R'G'B': R, G and B codes, and the extra byte, stored. */
INLINE size_t yuv_rgb_rows(const struct hqv_row_args *a, size_t n,
			   const size_t ob)
{
	const struct hqv_yuv_rgb *k = a->k;
	const size_t px = 16 * LANES;
	const vec extra = v_set1_8(k->extra);
	const bool lean = k->lean;
	const uint8_t *luma = a->in[0], *dcbp = a->in[1], *dcrp = a->in[2];
	uint8_t *out = a->out[0];
	struct color_vecs cv;
	vec m[4][4];
	size_t x, i, j;

	color_vecs_init(&cv, &k->c);
	for (j = 0; j < ob; j++)
		for (i = 0; i < 4; i++)
			m[j][i] = v_lane(k->out.mask[j][i]);
	for (x = 0; x + px <= n; x += px) {
		vec l = v_load(luma + x), ch[4];
		vec dl[2], dcb[2], dcr[2];

		if (ob == 4) {
			/* Dealt out, for rgbx_store()'s plain stores. */
			l = v_deal_bytes(l);
			v_load_dealt(dcbp + 2 * x, &dcb[0], &dcb[1]);
			v_load_dealt(dcrp + 2 * x, &dcr[0], &dcr[1]);
		} else {
			v_load_halves(dcbp + 2 * x, &dcb[0], &dcb[1]);
			v_load_halves(dcrp + 2 * x, &dcr[0], &dcr[1]);
		}
		color_d8(l, &dl[0], &dl[1]);
		yuv_rgb_codes(&cv, lean, dl, dcb, dcr, ch);
		ch[3] = extra;
		rgbx_store(out + ob * x, ch, m, ob,
			   ob == 4 ? PX_DEALT : PX_CHUNKS);
	}
	return x;
}

ROW_ENTRY(yuv_rgb, yuv_rgb_rows, 3)
ROW_ENTRY(yuv_rgb, yuv_rgb_rows, 4)

/*
 * R'G'B' channels: a lane takes 16 pixels, ib vectors of 16 bytes, and
 * shuffles each channel's bytes out of each (hqv-rows.c, ROW_OP_256: no
 * AVX-512BW entry, whose lanes 16 ib bytes apart take four inserts).
 */
#if LANES < 4
INLINE size_t split_rows(const struct hqv_row_args *a, size_t n,
			 const size_t ib)
{
	const uint8_t *in = a->in[0];
	const size_t px = 16 * LANES;
	uint8_t mask[4][4][16];
	vec m[4][4];
	size_t x, c, i, t;

	for (c = 0; c < ib; c++)
		for (i = 0; i < ib; i++) {
			for (t = 0; t < 16; t++) {
				size_t b = ib * t + c;

				mask[c][i][t] = b / 16 == i ? b % 16 : 0x80;
			}
			m[c][i] = v_lane(mask[c][i]);
		}
	for (x = 0; x + px <= n; x += px) {
		const uint8_t *p = in + ib * x;
		vec v[4];

		for (i = 0; i < ib; i++)
			v[i] = v_loadl(p + 16 * i, 16 * ib);
		for (c = 0; c < ib; c++) {
			vec o = v_shuf8(v[0], m[c][0]);

			for (i = 1; i < ib; i++)
				o = v_or(o, v_shuf8(v[i], m[c][i]));
			v_storel(a->out[c] + x, 16, o);
		}
	}
	return x;
}

ROW_ENTRY(split, split_rows, 3)
ROW_ENTRY(split, split_rows, 4)
#endif

/*
 * 4-byte pixels' bytes are R, G, B, extra or B, G, R, extra (in order):
 * the channels interleaved in that order (R and B swapped) need no
 * shuffle, others one a vector, vector j from vector j (rgb4_masks()).
 */
INLINE bool rgb4_in_order(const struct hqv_yuv_rgb *k)
{
	return k->out.map[1] == 1 && k->out.map[3] == 3;
}

INLINE void rgb4_masks(const struct hqv_yuv_rgb *k, vec m[4][4])
{
	size_t j;

	for (j = 0; j < 4; j++)
		m[j][j] = v_lane(k->out.mask[0][0]);
}

/* In order, R and B swapped. */
INLINE bool rgb4_rb(const struct hqv_yuv_rgb *k)
{
	return k->out.map[0] == 2;
}

/* R, G, B and extra codes (ch) stored as rgbx_store() does. */
INLINE void rgb4_store(uint8_t *out, vec ch[4], vec m[4][4],
		       const bool rb, const bool in_order,
		       const enum px_layout layout)
{
	vec r;

	if (in_order && rb) {
		r = ch[0];
		ch[0] = ch[2];
		ch[2] = r;
	}
	rgbx_store(out, ch, in_order ? NULL : m, 4, layout);
}

/*
 * Packed 4:2:2 to d: a step loads two vectors plainly, a and b, and the
 * next groups' samples from the two one group on (na, nb), which the row
 * must have: the row's last group is the C entry's. Lane l makes 8 groups
 * (16 pixels) from 16 bytes of a and of b: 4 groups each, the step's
 * 4-group spans l and l + LANES, which leaves the halves of d in pixel
 * order, and the lumas as v_dealt_qwords() orders. d of a sample is
 * color_d8()'s, here of bytes moved to the high byte of 16-bit lanes; the
 * mean of two d, each a multiple of 2^(HQV_FRAC_BITS + 1), is exact.
 */
INLINE void packed_d(vec a, vec b, vec na, vec nb, vec m0, vec m1,
		     uint8_t *out, size_t x)
{
	vec d = v_srai16(v_or(v_shuf8(a, m0), v_shuf8(b, m1)),
			 7 - HQV_FRAC_BITS);
	vec dn = v_srai16(v_or(v_shuf8(na, m0), v_shuf8(nb, m1)),
			  7 - HQV_FRAC_BITS);
	vec odd = v_srai16(v_add16(d, dn), 1);

	v_store(out + 4 * x, v_lo16(d, odd));
	v_store(out + 4 * x + VB, v_hi16(d, odd));
}

size_t ROW(packed_ds)(const struct hqv_row_args *a, size_t n)
{
	const struct hqv_packed_ds *k = a->k;
	const size_t px = 8 * LANES;
	const uint8_t *in = a->in[0];
	const vec flip = v_set1_8(0x80);
	vec ly[2], cb[2], cr[2];
	size_t x, h;

	for (h = 0; h < 2; h++) {
		ly[h] = v_lane(k->luma[h]);
		cb[h] = v_lane(k->cb[h]);
		cr[h] = v_lane(k->cr[h]);
	}
	for (x = 0; x + px < n; x += px) {
		const uint8_t *p = in + 4 * x;
		vec a0 = v_load(p), b0 = v_load(p + VB);
		vec na = v_xor(v_load(p + 4), flip);
		vec nb = v_xor(v_load(p + VB + 4), flip);

		v_store(a->out[0] + 2 * x, v_dealt_qwords(
			v_or(v_shuf8(a0, ly[0]), v_shuf8(b0, ly[1]))));
		a0 = v_xor(a0, flip);
		b0 = v_xor(b0, flip);
		packed_d(a0, b0, na, nb, cb[0], cb[1], a->out[1], x);
		packed_d(a0, b0, na, nb, cr[0], cr[1], a->out[2], x);
	}
	return x;
}

/*
 * Packed 4:2:2 straight to 4-byte pixels: a step loads a and b, and the
 * two one group on, as packed_ds does, and each is a half: lane l of a
 * holds the step's pixels 8 l to 8 l + 7, of b the same of its next
 * 8 LANES (PX_HALVES). A half's d are shuffled from bytes moved to the
 * high byte of 16-bit lanes (packed_d()): its lumas; its 4 groups' Cb
 * then Cr, and the next 4's from the vector one group on, whose means
 * (the odd pixels') unpacked with them give each pixel's Cb and Cr.
 */
INLINE void packed_half(vec s, vec ns, vec ly, vec uv, vec *dl, vec *dcb,
			vec *dcr)
{
	vec own = v_srai16(v_shuf8(s, uv), 7 - HQV_FRAC_BITS);
	vec next = v_srai16(v_shuf8(ns, uv), 7 - HQV_FRAC_BITS);
	vec odd = v_srai16(v_add16(own, next), 1);

	*dl = v_srai16(v_shuf8(s, ly), 7 - HQV_FRAC_BITS);
	*dcb = v_lo16(own, odd);
	*dcr = v_hi16(own, odd);
}

/*
 * Whole steps; where the row ends with one, its last group's chroma is
 * that of a copy of the step with the group repeated after it (which is
 * what packed_ds gives the row's last group), so that a row of whole
 * steps leaves nothing to the narrower entries. in_order: rgb4_in_order().
 */
INLINE size_t packed_rgb4_loop(const struct hqv_row_args *a, size_t n,
			       const bool in_order)
{
	const struct hqv_packed_rgb *k = a->k;
	const struct hqv_packed_ds *ds = k->ds;
	const size_t px = 8 * LANES;
	const uint8_t *in = a->in[0];
	uint8_t *out = a->out[0];
	const vec flip = v_set1_8(0x80), extra = v_set1_8(k->rgb->extra);
	const bool lean = k->rgb->lean, rb = rgb4_rb(k->rgb);
	uint8_t lym[16], uvm[16], last[2 * VB + 4];
	struct color_vecs cv;
	vec ly, uv, m[4][4];
	size_t x, t;

	for (t = 0; t < 8; t++) {
		lym[2 * t] = uvm[2 * t] = 0x80;
		lym[2 * t + 1] = ds->oy + 2 * t;
		uvm[2 * t + 1] = (t < 4 ? ds->ocb : ds->ocr) + 4 * (t % 4);
	}
	ly = v_lane(lym);
	uv = v_lane(uvm);
	color_vecs_init(&cv, &k->rgb->c);
	rgb4_masks(k->rgb, m);
	for (x = 0; x + px <= n; x += px) {
		const uint8_t *p = in + 4 * x;
		vec dl[2], dcb[2], dcr[2], ch[4];
		unsigned int h;

		if (x + px == n) {
			memcpy(last, p, 2 * VB);
			memcpy(last + 2 * VB, p + 2 * VB - 4, 4);
			p = last;
		}
		for (h = 0; h < 2; h++)
			packed_half(v_xor(v_load(p + VB * h), flip),
				    v_xor(v_load(p + VB * h + 4), flip), ly, uv,
				    &dl[h], &dcb[h], &dcr[h]);
		yuv_rgb_codes(&cv, lean, dl, dcb, dcr, ch);
		ch[3] = extra;
		rgb4_store(out + 8 * x, ch, m, rb, in_order, PX_HALVES);
	}
	return x;
}

/* Each with a stack frame of its own, as rgb_yuv_loop()'s. */
static __attribute__((__noinline__)) size_t
packed_rgb4_in_order(const struct hqv_row_args *a, size_t n)
{
	return packed_rgb4_loop(a, n, true);
}

static __attribute__((__noinline__)) size_t
packed_rgb4_shuffled(const struct hqv_row_args *a, size_t n)
{
	return packed_rgb4_loop(a, n, false);
}

size_t ROW(packed_rgb4)(const struct hqv_row_args *a, size_t n)
{
	const struct hqv_packed_rgb *k = a->k;

	if (rgb4_in_order(k->rgb))
		return packed_rgb4_in_order(a, n);
	return packed_rgb4_shuffled(a, n);
}

/*
 * Semi-planar chroma to d: a lane makes 8 sites (16 pixels of each
 * channel) from 16 bytes of each row, and the next site's from the 16
 * bytes one site on, which the row must have: its last site is the C
 * entry's. Sums and d are 16-bit (u at most 1020, 32 u at most 32640).
 * Dealt (semi_rgb4): each row's bytes dealt out as 4-byte pixels are
 * (v_deal_bytes()), a 32-bit element being the two sites of a group of 4
 * pixels, and the next sites' the same, so that a lane's d are those of
 * the groups its lumas hold.
 */
INLINE void semi_u(const uint8_t *pa, const uint8_t *pb, const bool deal,
		   vec *lo, vec *hi)
{
	vec a = v_load(pa), b = v_load(pb), al, ah;

	if (deal) {
		a = v_deal_bytes(a);
		b = v_deal_bytes(b);
	}
	al = v_lo8(a, v_zero());
	ah = v_hi8(a, v_zero());
	*lo = v_add16(v_add16(v_slli16(al, 1), al), v_lo8(b, v_zero()));
	*hi = v_add16(v_add16(v_slli16(ah, 1), ah), v_hi8(b, v_zero()));
}

/* Pixels of the sites' first (*c0) and second (*c1) bytes, from e, o. */
INLINE void semi_split(vec e, vec o, vec pick, vec *c0, vec *c1)
{
	/* 32-bit elements: first, second, first, second byte's pixel pairs. */
	vec p = v_shuf8(v_lo16(e, o), pick), q = v_shuf8(v_hi16(e, o), pick);

	*c0 = v_lo64(p, q);
	*c1 = v_hi64(p, q);
}

/*
 * The halves of a step's d from the sites at pa and pb: c0 of the first
 * bytes, c1 of the second, or the other way round with pick swapped
 * (semi_pick()).
 */
INLINE void semi_step(const uint8_t *pa, const uint8_t *pb, const bool deal,
		      vec pick, vec c0[2], vec c1[2])
{
	const vec z = v_set1_16(256 << HQV_FRAC_BITS);
	vec u[2], un[2];
	unsigned int h;

	semi_u(pa, pb, deal, &u[0], &u[1]);
	semi_u(pa + 2, pb + 2, deal, &un[0], &un[1]);
	for (h = 0; h < 2; h++) {
		vec e = v_sub16(v_slli16(u[h], 5), z);
		vec o = v_sub16(v_slli16(v_add16(u[h], un[h]), 4), z);

		semi_split(e, o, pick, &c0[h], &c1[h]);
	}
}

/* semi_split()'s shuffle; swap: the second bytes' pixels into *c0. */
INLINE vec semi_pick(const bool swap)
{
	static const uint8_t order[2][16] = {
		{ 0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15 },
		{ 4, 5, 6, 7, 12, 13, 14, 15, 0, 1, 2, 3, 8, 9, 10, 11 },
	};

	return v_lane(order[swap]);
}

size_t ROW(semi_ds)(const struct hqv_row_args *a, size_t n)
{
	const size_t px = 8 * LANES;
	const vec pick = semi_pick(false);
	size_t x;

	for (x = 0; x + px < n; x += px) {
		vec c0[2], c1[2];

		semi_step(a->in[0] + 2 * x, a->in[1] + 2 * x, false, pick, c0,
			  c1);
		v_store_halves(a->out[0] + 4 * x, c0[0], c0[1]);
		v_store_halves(a->out[1] + 4 * x, c1[0], c1[1]);
	}
	return x;
}

/*
 * Semi-planar straight to R'G'B' pixels: a step is semi_ds's 8 LANES
 * sites and their lumas (16 LANES bytes); for 4-byte pixels both are
 * dealt out, so that rgbx_store() stores plainly. The step that ends the
 * row takes its chroma from a copy with the last site repeated after it
 * (its next, as semi_ds gives it); a row that is not whole steps ends
 * with one more step over pixels already written, whose bytes it writes
 * again, so that no narrower entry is called for the tail. in_order
 * (4-byte pixels) as packed_rgb4's.
 */
INLINE size_t semi_rgb_loop(const struct hqv_row_args *a, size_t n,
			    const size_t ob, const bool in_order)
{
	const struct hqv_semi_rgb *k = a->k;
	const size_t px = 8 * LANES;
	const bool deal = ob == 4, lean = k->rgb->lean, rb = rgb4_rb(k->rgb);
	const struct hqv_shuffle *sh = &k->rgb->out;
	const uint8_t *luma = a->in[0];
	uint8_t *out = a->out[0], copy[2][VB + 2];
	struct color_vecs cv;
	vec m[4][4], pick, extra;
	size_t x, i, j;

	if (n < px)
		return 0;
	color_vecs_init(&cv, &k->rgb->c);
	if (ob == 4)
		rgb4_masks(k->rgb, m);
	pick = semi_pick(k->cr_first);
	extra = v_set1_8(k->rgb->extra);
	for (x = 0;; x += px) {
		const uint8_t *pa, *pb;
		vec l, dl[2], dcb[2], dcr[2], ch[4];

		if (x + px >= n) {
			x = n - px;
			for (i = 0; i < 2; i++) {
				const uint8_t *p = a->in[1 + i] + 2 * x;

				memcpy(copy[i], p, VB);
				memcpy(copy[i] + VB, p + VB - 2, 2);
			}
			pa = copy[0];
			pb = copy[1];
		} else {
			pa = a->in[1] + 2 * x;
			pb = a->in[2] + 2 * x;
		}
		semi_step(pa, pb, deal, pick, dcb, dcr);
		l = v_load(luma + 2 * x);
		color_d8(deal ? v_deal_bytes(l) : l, &dl[0], &dl[1]);
		yuv_rgb_codes(&cv, lean, dl, dcb, dcr, ch);
		ch[3] = extra;
		if (ob == 4) {
			rgb4_store(out + 8 * x, ch, m, rb, in_order, PX_DEALT);
		} else {
			/*
			 * 3-byte pixels' 12 masks loaded a step at a time:
			 * held, they took the kernel's AVX2 frame (GCC 12)
			 * past its 2048 bytes.
			 */
			vec m3[4][4];

			for (j = 0; j < ob; j++)
				for (i = 0; i < 4; i++)
					m3[j][i] = v_lane(sh->mask[j][i]);
			rgbx_store(out + 2 * ob * x, ch, m3, ob, PX_CHUNKS);
		}
		if (x + px == n)
			return n;
	}
}

static __attribute__((__noinline__)) size_t
semi_rgb4_in_order(const struct hqv_row_args *a, size_t n)
{
	return semi_rgb_loop(a, n, 4, true);
}

static __attribute__((__noinline__)) size_t
semi_rgb4_shuffled(const struct hqv_row_args *a, size_t n)
{
	return semi_rgb_loop(a, n, 4, false);
}

size_t ROW(semi_rgb4)(const struct hqv_row_args *a, size_t n)
{
	const struct hqv_semi_rgb *k = a->k;

	if (rgb4_in_order(k->rgb))
		return semi_rgb4_in_order(a, n);
	return semi_rgb4_shuffled(a, n);
}

size_t ROW(semi_rgb3)(const struct hqv_row_args *a, size_t n)
{
	return semi_rgb_loop(a, n, 3, false);
}

/*
 * Chroma codes subsampled across: as 32-bit elements, a vector of s from
 * s[2 j] (x) and one from s[2 j + 1] (y) add, 16 bits at a time, to
 * s[2 j] + s[2 j + 1] below and s[2 j + 1] + s[2 j + 2] above, whose sum
 * (the upper moved down by a byte shuffle) is the code's, in the low byte
 * when shifted. Lane l of the step's vector i holds codes of its 4-code
 * group LANES i + l: picked into 32-bit element i, they are dealt out.
 * Each code is its samples' alone, so a row of at least a step's codes
 * is done whole: its last step ends at its end, redoing codes before.
 * Interleaved (semi), the two channels' dealt codes unpack into pairs
 * of 64-bit elements: groups l and LANES + l (lo), 2 LANES + l and
 * 3 LANES + l (hi), which v_dealt_qwords() puts in order.
 */
INLINE vec down_codes(const uint8_t *p, const vec up, const vec round,
		      const vec pick[4])
{
	vec o = v_zero();
	size_t i;

	for (i = 0; i < 4; i++) {
		vec sum = v_add16(v_load(p + VB * i), v_load(p + VB * i + 2));

		sum = v_mulhrs16(v_add16(sum, v_shuf8(sum, up)), round);
		o = v_or(o, v_shuf8(sum, pick[i]));
	}
	return o;
}

INLINE size_t down_rows(const struct hqv_row_args *a, size_t n,
			const unsigned int shift, const bool semi)
{
	static const uint8_t upper[16] = { 2, 3, 0x80, 0x80, 6, 7, 0x80, 0x80,
					   10, 11, 0x80, 0x80, 14, 15, 0x80,
					   0x80 };
	const size_t px = 16 * LANES;
	/*
	 * pmulhrsw by 2^(15 - shift) is (sum + 2^(shift - 1)) >> shift,
	 * signed: its low byte is the unsigned sum's, shifted alike.
	 */
	const vec up = v_lane(upper), round = v_set1_16(1 << (15 - shift));
	vec pick[4];
	size_t x, i, t;
	unsigned int c;

	for (i = 0; i < 4; i++) {
		uint8_t m[16];

		for (t = 0; t < 16; t++)
			m[t] = t / 4 == i ? 4 * (t % 4) : 0x80;
		pick[i] = v_lane(m);
	}
	if (n < px)
		return 0;
	/* The last step ends at the row's end, over codes done before. */
	for (x = 0;; x += px) {
		vec o[2];

		if (x + px > n)
			x = n - px;
		for (c = 0; c < 2; c++)
			o[c] = down_codes(a->in[c] + 4 * x, up, round, pick);
		if (semi) {
			v_store(a->out[0] + 2 * x,
				v_dealt_qwords(v_lo8(o[0], o[1])));
			v_store(a->out[0] + 2 * x + VB,
				v_dealt_qwords(v_hi8(o[0], o[1])));
		} else {
			for (c = 0; c < 2; c++)
				v_store(a->out[c] + x, v_dealt_bytes(o[c]));
		}
		if (x + px == n)
			return n;
	}
}

/* The shifts of one row and of two (NEON's shifts take constants). */
#define DOWN(name, semi)						\
size_t ROW(name)(const struct hqv_row_args *a, size_t n)		\
{									\
	const struct hqv_down *k = a->k;				\
									\
	if (k->shift == HQV_COLOR_BITS + 3)				\
		return down_rows(a, n, HQV_COLOR_BITS + 3, semi);	\
	if (k->shift == HQV_COLOR_BITS + 2)				\
		return down_rows(a, n, HQV_COLOR_BITS + 2, semi);	\
	return 0;							\
}
DOWN(down, false)
DOWN(down_semi, true)

/*
 * Bilinear scaling's vertical pass: a + round(d g / 2^16), d = b - a, is
 * a + h + (l >= 2^15), h and l the high and low halves of d g, then
 * rounded to a code (>> 6). pmulhw takes g as signed: for g >= 2^15 that
 * is g - 2^16, whose high half is d less than d g's.
 */
INLINE vec lerp16(vec a, vec b, vec g, vec g_high)
{
	vec d = v_sub16(b, a);
	vec h = v_add16(v_mulhi16(d, g), v_and(d, g_high));

	return v_add16(a, v_sub16(h, v_srai16(v_mullo16(d, g), 15)));
}

INLINE vec vtap_codes16(vec a, vec b, vec g, vec g_high, vec half)
{
	return v_srli16(v_add16(lerp16(a, b, g, g_high), half), 6);
}

INLINE size_t vtap_rows(const struct hqv_row_args *a, size_t n,
			const size_t ob)
{
	const struct hqv_vtap *k = a->k;
	const size_t px = 16 * LANES;
	const unsigned int channels = ob == 1 ? 1 :
				      ob == 3 || !k->alpha ? 3 : 4;
	const vec g = v_set1_16((int16_t)k->g);
	const vec g_high = v_set1_16(k->g >= 32768 ? -1 : 0);
	const vec half = v_set1_16(32);
	const uint8_t *ra = a->in[0], *rb = a->in[1];
	const ptrdiff_t pitch = a->in_pitch;
	uint8_t *out = a->out[0];
	vec m[4][4];
	size_t x, i, j;
	unsigned int c;

	for (j = 0; j < ob; j++)
		for (i = 0; i < 4; i++)
			m[j][i] = v_lane(k->out.mask[j][i]);
	for (x = 0; x + px <= n; x += px) {
		vec ch[4];

		ch[3] = v_set1_8(0xff);
		for (c = 0; c < channels; c++) {
			vec alo, ahi, blo, bhi;

			v_load_halves(ra + c * pitch + 2 * x, &alo, &ahi);
			v_load_halves(rb + c * pitch + 2 * x, &blo, &bhi);
			ch[c] = v_packus16(vtap_codes16(alo, blo, g, g_high, half),
					   vtap_codes16(ahi, bhi, g, g_high, half));
		}
		if (ob == 1)
			v_storel(out + x, 16, ch[0]);
		else
			rgbx_store(out + ob * x, ch, m, ob, PX_CHUNKS);
	}
	return x;
}

ROW_ENTRY(vtap, vtap_rows, 1)
ROW_ENTRY(vtap, vtap_rows, 3)
ROW_ENTRY(vtap, vtap_rows, 4)

/*
 * Bilinear scaling's horizontal pass: each lane's 16 bytes of the row from
 * its first column's byte, shuffled into p and q of its 8 columns (16-bit
 * lanes), then vtap's arithmetic without the rounding to a code. Columns
 * the table says do not fit are left to the entry below.
 */
INLINE vec htap_window(const uint8_t *row, const int32_t *idx)
{
	const uint8_t *p[LANES];
	size_t l;

	for (l = 0; l < LANES; l++)
		p[l] = row + idx[8 * l];
	return v_loadp(p, 0);
}

INLINE size_t htap_rows(const struct hqv_row_args *a, size_t n,
			const size_t channels)
{
	const uint8_t *row = ((const struct hqv_htap *)a->k)->row;
	const int32_t *idx = (const int32_t *)a->in[0];
	const uint8_t *t = a->in[2];
	uint8_t *out = a->out[0];
	size_t x, l;

	for (x = 0; x + 8 * LANES <= n; x += 8 * LANES) {
		const uint8_t *b = t + 6 * x;
		vec src, p, q, g;

		for (l = 0; l < LANES; l++)
			if (b[48 * l] == 0xff)
				return x;
		src = htap_window(row, idx + x);
		p = v_slli16(v_shuf8(src, v_loadl(b, 48)), 6);
		q = v_slli16(v_shuf8(src, v_loadl(b + 16, 48)), 6);
		g = v_loadl(b + 32, 48);
		v_store(out + 2 * x, lerp16(p, q, g, v_srai16(g, 15)));
	}
	return x;
}

ROW_ENTRY(htap, htap_rows, 1)

/*
 * Area scaling's horizontal pass of whole boxes: each lane takes 16
 * boxes, one at a time, each added up in 16-bit lanes from loads of 8
 * sums (1-byte pixels) or of 2 pixels' (3 and 4 bytes), the last masked
 * to the box's pixels, then folded to a sum per byte of a pixel. Eight
 * boxes' sums transposed are each byte's 8 boxes, which divide in 16-bit
 * lanes and are stored as vtap's channels are.
 */
/* Byte i of 16 at seq + s is byte i + s, or none past 15 (pshufb). */
static const uint8_t area_seq[32] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
};
/* The first r bytes of 16 at ones + 16 - r are 0xff, the rest 0. */
static const uint8_t area_ones[32] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

/* A box's sums in each lane: loads whole - 1 and more from p, chunk apart. */
INLINE vec area_box(const uint8_t *const p[LANES], const size_t chunk,
		    const size_t whole, const bool rest, const vec rest_mask)
{
	vec acc = v_loadp(p, 0);
	size_t c;

	for (c = 1; c < whole; c++)
		acc = v_add16(acc, v_loadp(p, c * chunk));
	if (rest)
		acc = v_add16(acc, v_and(v_loadp(p, whole * chunk),
					 rest_mask));
	return acc;
}

/* A box's loads folded to 16-bit lanes 0 to ob - 1: each byte's sum. */
INLINE vec area_fold(vec acc, const size_t ob)
{
	if (ob == 1) {
		acc = v_add16(acc, v_shuf8(acc, v_lane(area_seq + 8)));
		acc = v_add16(acc, v_shuf8(acc, v_lane(area_seq + 4)));
		return v_add16(acc, v_shuf8(acc, v_lane(area_seq + 2)));
	}
	return v_add16(acc, v_shuf8(acc, v_lane(area_seq + 2 * ob)));
}

/* Lanes 0-3 of 8 boxes' sums b to s[c], box j's sum c in lane j. */
INLINE void area_transpose(const vec b[8], vec s[4])
{
	vec u[4], w[4];
	size_t i;

	for (i = 0; i < 4; i++)
		u[i] = v_lo16(b[2 * i], b[2 * i + 1]);
	w[0] = v_lo32(u[0], u[1]);
	w[1] = v_hi32(u[0], u[1]);
	w[2] = v_lo32(u[2], u[3]);
	w[3] = v_hi32(u[2], u[3]);
	s[0] = v_lo64(w[0], w[2]);
	s[1] = v_hi64(w[0], w[2]);
	s[2] = v_lo64(w[1], w[3]);
	s[3] = v_hi64(w[1], w[3]);
}

/* floor((s + half) / N) (struct hqv_area: m16, shift16). */
INLINE vec area_div(vec s, vec half, vec m16, unsigned int shift16)
{
	vec t = v_add16(s, half), q = v_mulhiu16(t, m16);

	return v_srl16(v_add16(q, v_srli16(v_sub16(t, q), 1)), shift16);
}

INLINE size_t area_rows(const struct hqv_row_args *a, size_t n,
			const size_t ob)
{
	const struct hqv_area *k = a->k;
	const uint32_t *first = (const uint32_t *)a->in[0];
	const uint8_t *row = (const uint8_t *)k->row;
	const size_t per = ob == 1 ? 8 : 2, chunk = 2 * ob * per;
	const size_t whole = k->count / per, rest = k->count % per;
	const size_t px = 16 * LANES;
	const vec half = v_set1_16((int16_t)k->half);
	const vec m16 = v_set1_16((int16_t)k->m16);
	const vec rest_mask = v_lane(area_ones + 16 - 2 * ob * rest);
	uint8_t *out = a->out[0];
	vec fill[4], m[4][4];
	size_t x, i, j, h, l;

	if (!k->m16 || !whole)
		return 0;
	for (j = 0; j < 4; j++) {
		fill[j] = v_set1_8(j == k->fill ? 0xff : 0);
		for (i = 0; i < 4; i++)
			m[j][i] = v_lane(k->out.mask[j][i]);
	}
	for (x = 0; x + px <= n; x += px) {
		vec s[2][4], ch[4];

		for (h = 0; h < 2; h++) {
			vec b[8];

			for (j = 0; j < 8; j++) {
				const uint32_t *f = first + x + 8 * h + j;
				const uint8_t *p[LANES];

				for (l = 0; l < LANES; l++)
					p[l] = row + 2 * ob * (size_t)f[16 * l];
				b[j] = area_fold(area_box(p, chunk, whole, rest,
							  rest_mask), ob);
			}
			area_transpose(b, s[h]);
		}
		for (j = 0; j < 4; j++)
			ch[j] = j >= ob ? v_zero() :
				v_or(v_packus16(area_div(s[0][j], half, m16,
							 k->shift16),
						area_div(s[1][j], half, m16,
							 k->shift16)),
				     fill[j]);
		if (ob == 1)
			v_storel(out + x, 16, ch[0]);
		else
			rgbx_store(out + ob * x, ch, ob == 3 ? m : NULL, ob,
				   PX_CHUNKS);
	}
	return x;
}

ROW_ENTRY(area, area_rows, 1)
ROW_ENTRY(area, area_rows, 3)
ROW_ENTRY(area, area_rows, 4)
