/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The HQV engine: a software video processing engine, in plain C with no
 * dependency on the kernel or libc beyond memcpy/memset. The same code runs
 * inside vhqv.ko and inside libm2m.
 *
 * A job describes one frame's work: a source image, a destination image and
 * the operations to apply. hqv_job_check() validates it once; hqv_job_run()
 * then produces destination rows [y0, y1), so a caller can cut a frame into
 * bands (preemption points in the kernel, threads in user space).
 */
#ifndef HQV_H
#define HQV_H

#include "hqv-format.h"

struct hqv_image {
	const struct hqv_format *fmt;
	uint32_t width;
	uint32_t height;
	uint32_t bytesperline[HQV_MAX_PLANES];
	uint8_t *planes[HQV_MAX_PLANES];
};

struct hqv_job {
	struct hqv_image src;
	struct hqv_image dst;
	bool hflip;
	bool vflip;
};

/*
 * 0 when the engine can run the job, else -EINVAL (a missing format or
 * plane, sizes out of range or different between source and destination, a
 * line pitch below the minimum).
 */
int hqv_job_check(const struct hqv_job *job);

/* Produce destination rows [y0, y1) of a job that hqv_job_check() passed. */
void hqv_job_run(const struct hqv_job *job, uint32_t y0, uint32_t y1);

#endif /* HQV_H */
