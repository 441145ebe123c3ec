/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The few freestanding definitions the HQV engine needs, from the kernel
 * when it is built into vhqv.ko and from libc when it is built into libm2m.
 * This is the only place in the engine that knows which one it is.
 */
#ifndef HQV_TYPES_H
#define HQV_TYPES_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/types.h>
#define hqv_div_s64(a, b)	div64_s64(a, b)
#define hqv_div_u64(a, b)	div64_u64(a, b)
#define hqv_mulhi_u64(a, b)	mul_u64_u64_shr(a, b, 64)
#define UINT32_MAX		U32_MAX
#define UINT64_MAX		U64_MAX
#else
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#define hqv_div_s64(a, b)	((int64_t)(a) / (int64_t)(b))
#define hqv_div_u64(a, b)	((uint64_t)(a) / (uint64_t)(b))
#define hqv_mulhi_u64(a, b)	\
	((uint64_t)(((unsigned __int128)(a) * (uint64_t)(b)) >> 64))
#endif

/*
 * HQV_ROW_CLONES marks a row function whose loops are written for the
 * compiler to vectorise: in user space on x86-64 GCC builds it once more
 * for AVX2 and picks at load time. The kernel builds it once, without
 * vector registers (they need kernel_fpu_begin/end, a later SIMD pass).
 */
#if !defined(__KERNEL__) && defined(__x86_64__) && defined(__GNUC__) && \
	!defined(__clang__) && defined(__SSE2__)
#define HQV_ROW_CLONES	__attribute__((target_clones("avx2", "default")))
#else
#define HQV_ROW_CLONES
#endif

/*
 * The SIMD rows a build has (hqv-rows.h): on x86-64, SSSE3 and AVX2
 * (hqv-rows-ssse3.c, hqv-rows-avx2.c), and in user space AVX-512BW
 * (hqv-rows-avx512.c, HQV_SIMD_AVX512), which the kernel module builds
 * with VHQV_SIMD (kmod/Kbuild) and calls between kernel_fpu_begin() and
 * kernel_fpu_end(); on arm64, NEON (hqv-rows-neon.c), which the module
 * builds with VHQV_SIMD too and calls between kernel_neon_begin() and
 * kernel_neon_end().
 * HQV_NO_SIMD leaves them out. hqv_cpu_ssse3(), hqv_cpu_avx2() and
 * hqv_cpu_avx512(), for the file that defines HQV_CPU_DETECT, ask the CPU
 * (and, for AVX2 and AVX-512, whether the kernel saves their registers);
 * the answers come from data the kernel, or libgcc at start-up, reads
 * once.
 */
#if defined(__x86_64__) && !defined(HQV_NO_SIMD) && \
	(!defined(__KERNEL__) || defined(VHQV_SIMD))
#define HQV_SIMD_X86	1
#else
#define HQV_SIMD_X86	0
#endif
/* The kernel module's rows stop at AVX2 (hqv-sources.mk says why). */
#if HQV_SIMD_X86 && !defined(__KERNEL__)
#define HQV_SIMD_AVX512	1
#else
#define HQV_SIMD_AVX512	0
#endif
#if defined(__aarch64__) && !defined(HQV_NO_SIMD) && \
	(!defined(__KERNEL__) || defined(VHQV_SIMD))
#define HQV_SIMD_NEON	1
#else
#define HQV_SIMD_NEON	0
#endif

/* Only for the file that asks (hqv-rows.c): the kernel's headers are many. */
#if HQV_SIMD_X86 && defined(__KERNEL__) && defined(HQV_CPU_DETECT)
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#define hqv_cpu_ssse3()	boot_cpu_has(X86_FEATURE_SSSE3)
#define hqv_cpu_avx2()	(boot_cpu_has(X86_FEATURE_AVX2) && \
			 cpu_has_xfeatures(XFEATURE_MASK_SSE | \
					   XFEATURE_MASK_YMM, NULL))
#elif HQV_SIMD_X86 && defined(HQV_CPU_DETECT)
#define hqv_cpu_ssse3()	__builtin_cpu_supports("ssse3")
#define hqv_cpu_avx2()	__builtin_cpu_supports("avx2")
/* libgcc sets avx512bw only where XCR0 says the OS saves ZMM state. */
#define hqv_cpu_avx512() __builtin_cpu_supports("avx512bw")
#endif

/*
 * HQV_SCALAR_ROWS is 1 where the row loops run without vector registers
 * (the kernel's default build, -mno-sse; -mgeneral-regs-only): there the
 * direct rows read the colour step's products from per-band tables
 * instead of multiplying (hqv-direct.c, struct color_lut).
 */
#if defined(__SSE2__) || defined(__ARM_NEON) || defined(__ALTIVEC__)
#define HQV_SCALAR_ROWS	0
#else
#define HQV_SCALAR_ROWS	1
#endif

#endif /* HQV_TYPES_H */
