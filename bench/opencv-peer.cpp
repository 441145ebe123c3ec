// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * engine-bench's OpenCV peers (OpenCV 4, C++, one thread): each takes the
 * source and destination images engine-bench allocates and does the
 * operation with OpenCV's own function, writing the same layout.
 */
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "opencv-peer.h"

static cv::Mat plane(const struct hqv_image *img, int type, int rows)
{
	return cv::Mat(rows, (int)img->width, type, img->planes[0],
		       img->bytesperline[0]);
}

/* A frame of one buffer whose planes follow the luma plane: rows lines. */
static cv::Mat frame(const struct hqv_image *img, int rows)
{
	return cv::Mat(rows, (int)img->width, CV_8UC1, img->planes[0],
		       img->bytesperline[0]);
}

extern "C" {

int opencv_peer_threads(int threads)
{
	cv::setNumThreads(threads);
	return cv::getNumThreads();
}

#define CONVERT(name, src_mat, dst_mat, code)				\
void opencv_##name(const struct hqv_image *s, struct hqv_image *d)	\
{									\
	cv::Mat in = src_mat, out = dst_mat;				\
	cv::cvtColor(in, out, code);					\
}

CONVERT(rgb_to_bgr, plane(s, CV_8UC3, s->height), plane(d, CV_8UC3, d->height),
	cv::COLOR_RGB2BGR)
CONVERT(rgb_to_i420, plane(s, CV_8UC3, s->height),
	frame(d, d->height * 3 / 2), cv::COLOR_RGB2YUV_I420)
CONVERT(nv12_to_rgb, frame(s, s->height * 3 / 2), plane(d, CV_8UC3, d->height),
	cv::COLOR_YUV2RGB_NV12)
CONVERT(yuyv_to_rgb, plane(s, CV_8UC2, s->height), plane(d, CV_8UC3, d->height),
	cv::COLOR_YUV2RGB_YUYV)
CONVERT(nv12_to_bgra, frame(s, s->height * 3 / 2),
	plane(d, CV_8UC4, d->height), cv::COLOR_YUV2BGRA_NV12)
CONVERT(bgra_to_i420, plane(s, CV_8UC4, s->height),
	frame(d, d->height * 3 / 2), cv::COLOR_BGRA2YUV_I420)
CONVERT(rgb_to_grey, plane(s, CV_8UC3, s->height), plane(d, CV_8UC1, d->height),
	cv::COLOR_RGB2GRAY)

static void resize(const struct hqv_image *s, struct hqv_image *d, int type,
		   int interpolation)
{
	cv::Mat out = plane(d, type, d->height);

	cv::resize(plane(s, type, s->height), out, out.size(), 0, 0,
		   interpolation);
}

void opencv_rgb_bilinear(const struct hqv_image *s, struct hqv_image *d)
{
	resize(s, d, CV_8UC3, cv::INTER_LINEAR);
}

void opencv_rgb_area(const struct hqv_image *s, struct hqv_image *d)
{
	resize(s, d, CV_8UC3, cv::INTER_AREA);
}

static void rotate90(const struct hqv_image *s, struct hqv_image *d, int type)
{
	cv::Mat out = plane(d, type, d->height);

	cv::rotate(plane(s, type, s->height), out, cv::ROTATE_90_CLOCKWISE);
}

void opencv_rotate_rgb(const struct hqv_image *s, struct hqv_image *d)
{
	rotate90(s, d, CV_8UC3);
}

void opencv_rotate_bgra(const struct hqv_image *s, struct hqv_image *d)
{
	rotate90(s, d, CV_8UC4);
}

void opencv_rotate_grey(const struct hqv_image *s, struct hqv_image *d)
{
	rotate90(s, d, CV_8UC1);
}

void opencv_hflip_rgb(const struct hqv_image *s, struct hqv_image *d)
{
	cv::Mat out = plane(d, CV_8UC3, d->height);

	cv::flip(plane(s, CV_8UC3, s->height), out, 1);
}

} /* extern "C" */
