// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The row functions' AVX-512BW entries (hqv-rows-simd.h), built for
 * AVX-512BW only, in user space only (hqv-sources.mk says why).
 */
#define HQV_VEC_AVX512
#include "hqv-rows-simd.h"
