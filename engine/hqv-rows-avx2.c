// SPDX-License-Identifier: LGPL-2.1-or-later
/* The row functions' AVX2 entries (hqv-rows-simd.h), built for AVX2 only. */
#define HQV_VEC_AVX2
#include "hqv-rows-simd.h"
