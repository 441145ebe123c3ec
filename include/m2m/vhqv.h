/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR LGPL-2.1-or-later) */
/*
 * vhqv.h: what the vhqv driver adds to the V4L2 API.
 *
 * vhqv (the virtual HQV video engine, kmod/) is a V4L2 memory-to-memory
 * device. Besides the standard controls (HFLIP, VFLIP, ROTATE,
 * ALPHA_COMPONENT, BRIGHTNESS, CONTRAST, SATURATION, HUE and
 * DEINTERLACING_MODE) it has the driver-private controls below, in the
 * user control class. docs/vhqv.md describes the device.
 */
#ifndef VHQV_H
#define VHQV_H

#include <linux/v4l2-controls.h>

/* The first of vhqv's private controls. */
#define V4L2_CID_VHQV_BASE		(V4L2_CID_USER_BASE | 0xe000)

/*
 * Menu: the scaling filter, used when the CROP rectangle of OUTPUT and the
 * COMPOSE rectangle of CAPTURE differ in size. Default: bilinear.
 */
#define V4L2_CID_VHQV_SCALER		(V4L2_CID_VHQV_BASE + 0)
enum vhqv_scaler {
	VHQV_SCALER_NEAREST = 0,
	VHQV_SCALER_BILINEAR = 1,
	VHQV_SCALER_AREA = 2,	/* averages: for shrinking by more than 2x */
};

/*
 * Integer 0x000000..0xffffff: the full-range R'G'B' colour (0xRRGGBB) of
 * the capture frame outside the COMPOSE rectangle. Default: black.
 */
#define V4L2_CID_VHQV_BACKGROUND	(V4L2_CID_VHQV_BASE + 1)

/*
 * V4L2_CID_DEINTERLACING_MODE is a menu whose items each driver defines;
 * vhqv's, for OUTPUT formats with a field order other than NONE.
 */
enum vhqv_deinterlacing_mode {
	VHQV_DEINTERLACE_WEAVE = 0,	/* the two fields' lines interleaved */
	VHQV_DEINTERLACE_BOB = 1,	/* the missing lines interpolated */
	VHQV_DEINTERLACE_BLEND = 2,	/* every line (1, 2, 1)/4 vertically */
	VHQV_DEINTERLACE_MOTION_ADAPTIVE = 3,	/* weave where still, else bob */
};

#endif /* VHQV_H */
