// SPDX-License-Identifier: LGPL-2.1-or-later
/* The row functions' NEON entries (hqv-rows-simd.h), built for NEON only. */
#define HQV_VEC_NEON
#include "hqv-rows-simd.h"
