// SPDX-License-Identifier: LGPL-2.1-or-later
/* The row functions' SSSE3 entries (hqv-rows-simd.h), built for SSSE3 only. */
#define HQV_VEC_SSSE3
#include "hqv-rows-simd.h"
