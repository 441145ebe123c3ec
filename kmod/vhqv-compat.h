/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vhqv-compat.h: the kernel API drift vhqv builds across, in one place.
 * The module is built and tested on Debian 12's 6.1 and 6.12 (generic and
 * PREEMPT_RT) and on the project's 6.12 debug kernel (docs/testing.md).
 * Each change below names the kernel that made it:
 *
 * - 6.11: struct rc_dev lost tx_resolution (never read by rc-core, so
 *   vhqv sets none; nothing to wrap).
 * - 6.11: platform_driver's remove() returns void (VHQV_PLATFORM_REMOVE).
 * - 6.18: v4l2_fh_add() and v4l2_fh_del() take the struct file
 *   (vhqv_fh_add, vhqv_fh_del).
 *
 * checkpatch warns about LINUX_VERSION_CODE, which is right for in-tree
 * code; an out-of-tree module built by DKMS against many kernels needs it.
 */
#ifndef VHQV_COMPAT_H
#define VHQV_COMPAT_H

#include <linux/platform_device.h>
#include <linux/version.h>
#include <media/v4l2-fh.h>

/* 6.18: v4l2_fh_add() and v4l2_fh_del() take the struct file too. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 18, 0)
#define vhqv_fh_add(fh, file)	v4l2_fh_add(fh, file)
#define vhqv_fh_del(fh, file)	v4l2_fh_del(fh, file)
#else
#define vhqv_fh_add(fh, file)	v4l2_fh_add(fh)
#define vhqv_fh_del(fh, file)	v4l2_fh_del(fh)
#endif

/*
 * 6.11: platform_driver's remove() returns void (6.3 to 6.10 spelled that
 * remove_new()). vhqv's remove callback is void; this wraps it where the
 * kernel still wants an int.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define VHQV_PLATFORM_REMOVE(fn)	.remove = fn
#define VHQV_DECLARE_REMOVE(fn)	static_assert(1)
#else
#define VHQV_PLATFORM_REMOVE(fn)	.remove = fn##_int
#define VHQV_DECLARE_REMOVE(fn)					\
	static int fn##_int(struct platform_device *pdev)	\
	{							\
		fn(pdev);					\
		return 0;					\
	}							\
	static_assert(1)
#endif

/*
 * The engine's objects use vector registers when built with VHQV_SIMD=y on
 * x86-64 or arm64 (kmod/Kbuild): the calls into them are fenced by these,
 * and must not sleep in between (both keep preemption, or on arm64 softirqs,
 * off). Otherwise the engine is scalar and needs no fence.
 */
#if defined(CONFIG_X86_64) && defined(VHQV_SIMD)
#include <asm/fpu/api.h>
#define vhqv_simd_begin()	kernel_fpu_begin()
#define vhqv_simd_end()		kernel_fpu_end()
#elif defined(CONFIG_ARM64) && defined(VHQV_SIMD)
#include <asm/neon.h>
#define vhqv_simd_begin()	kernel_neon_begin()
#define vhqv_simd_end()		kernel_neon_end()
#else
static inline void vhqv_simd_begin(void)
{
}

static inline void vhqv_simd_end(void)
{
}
#endif

#endif /* VHQV_COMPAT_H */
