/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* engine-bench's OpenCV peers (opencv-peer.cpp), callable from C. */
#ifndef OPENCV_PEER_H
#define OPENCV_PEER_H

#include "hqv.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * How many threads OpenCV splits work across: 1 for the one-core table,
 * a negative number for OpenCV's default (one per CPU). Returns the number
 * it then uses.
 */
int opencv_peer_threads(int threads);

typedef void opencv_fn(const struct hqv_image *src, struct hqv_image *dst);
opencv_fn opencv_rgb_to_bgr, opencv_rgb_to_i420, opencv_nv12_to_rgb,
	opencv_yuyv_to_rgb, opencv_nv12_to_bgra, opencv_bgra_to_i420,
	opencv_rgb_to_grey, opencv_rgb_bilinear, opencv_rgb_area,
	opencv_rotate_rgb, opencv_rotate_bgra, opencv_rotate_grey,
	opencv_hflip_rgb;

#ifdef __cplusplus
}
#endif

#endif /* OPENCV_PEER_H */
