/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file m2m.h
 * @brief libm2m: video processing through V4L2 memory-to-memory devices.
 *
 * A memory-to-memory (m2m) device takes frames on its OUTPUT queue,
 * transforms them, and returns them on its CAPTURE queue. libm2m wraps the
 * ioctl sequence (S_FMT, REQBUFS, mmap, QBUF/DQBUF, STREAMON) so that
 * converting a frame takes a few calls.
 *
 * Conventions:
 * - Every function that can fail returns 0 (or a non-negative count) on
 *   success and a negative errno on failure; m2m_last_error() then holds a
 *   message naming what failed. The library never prints, aborts or exits.
 * - Handles are opaque. A NULL or closed handle gives -EINVAL, never a crash.
 * - Out-parameters come first after the handle they belong to.
 * - Thread safety: a device handle may be used by one thread at a time;
 *   different handles may be used from different threads at once. The last
 *   error message is per thread.
 */
#ifndef M2M_M2M_H
#define M2M_M2M_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(M2M_BUILDING_LIBRARY)
#define M2M_EXPORT __attribute__((visibility("default")))
#else
#define M2M_EXPORT
#endif

/** Most memory planes a frame can have. */
#define M2M_MAX_PLANES 3

/** A V4L2 fourcc code: M2M_FOURCC('Y','U','Y','V') == V4L2_PIX_FMT_YUYV. */
#define M2M_FOURCC(a, b, c, d) \
	((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | \
	 ((uint32_t)(d) << 24))

/** An open memory-to-memory device. */
struct m2m_device;

/**
 * The two queues of an m2m device, named as V4L2 names them.
 */
enum m2m_queue {
	/** Frames the application gives to the device (its source). */
	M2M_QUEUE_OUTPUT = 0,
	/** Frames the device gives back (its result). */
	M2M_QUEUE_CAPTURE = 1,
};

/**
 * The layout of a frame on one queue.
 *
 * Colorimetry fields take V4L2's values (enum v4l2_colorspace,
 * v4l2_ycbcr_encoding, v4l2_quantization, v4l2_xfer_func); 0 is "default".
 */
struct m2m_format {
	uint32_t fourcc;       /**< Pixel format, a V4L2 fourcc. */
	uint32_t width;        /**< Width in pixels. */
	uint32_t height;       /**< Height in pixels. */
	uint32_t num_planes;   /**< Memory planes in use. */
	uint32_t bytesperline[M2M_MAX_PLANES]; /**< Line pitch per plane. */
	uint32_t plane_size[M2M_MAX_PLANES];   /**< Bytes per plane. */
	uint32_t field;        /**< enum v4l2_field; 1 (NONE) is progressive. */
	uint32_t colorspace;   /**< enum v4l2_colorspace. */
	uint32_t ycbcr_enc;    /**< enum v4l2_ycbcr_encoding. */
	uint32_t quantization; /**< enum v4l2_quantization. */
	uint32_t xfer_func;    /**< enum v4l2_xfer_func. */
};

/** What a device says about itself (VIDIOC_QUERYCAP). */
struct m2m_device_info {
	char path[64];     /**< Device node, e.g. "/dev/video0". */
	char driver[16];   /**< Driver name, e.g. "vhqv". */
	char card[32];     /**< Human-readable device name. */
	char bus_info[32]; /**< Location, e.g. "platform:vhqv". */
};

/**
 * The message of the last error on this thread.
 *
 * @return the message; never NULL ("no error" when nothing failed yet).
 *
 * @code
 * if (m2m_open(&dev, "vhqv") < 0)
 *         fprintf(stderr, "%s\n", m2m_last_error());
 * @endcode
 */
M2M_EXPORT const char *m2m_last_error(void);

/**
 * Open an m2m device.
 *
 * @param[out] out  the device, on success; NULL on failure
 * @param name      a device node path ("/dev/video0"), or a driver name
 *                  ("vhqv", "vim2m"): the first m2m node whose driver has
 *                  that name
 * @return 0, -ENOENT when no such device exists, -ENODEV when the node is
 *         not an m2m device, -ENOTSUP when it is a multi-planar node, or
 *         another negative errno
 */
M2M_EXPORT int m2m_open(struct m2m_device **out, const char *name);

/**
 * Close a device and free everything it holds. NULL is ignored.
 * The handle must not be used afterwards (calls with it return -EINVAL).
 */
M2M_EXPORT void m2m_close(struct m2m_device *dev);

/**
 * Describe an open device.
 * @param dev          the device
 * @param[out] info    filled with the node path, driver, card and bus info
 * @return 0 or a negative errno
 */
M2M_EXPORT int m2m_device_get_info(struct m2m_device *dev,
				   struct m2m_device_info *info);

/**
 * Fill a format with the tightly packed layout of a fourcc at a size,
 * progressive and with default colorimetry, from libm2m's format table.
 *
 * @param[out] fmt  the format
 * @param fourcc    a pixel format the table knows (see m2m_fourcc_from_name)
 * @param width     width in pixels
 * @param height    height in pixels
 * @return 0, or -EINVAL for an unknown fourcc or an odd or out-of-range size
 */
M2M_EXPORT int m2m_format_init(struct m2m_format *fmt, uint32_t fourcc,
			       uint32_t width, uint32_t height);

/**
 * The fourcc of a format name such as "YUYV", or 0 when the table has none.
 */
M2M_EXPORT uint32_t m2m_fourcc_from_name(const char *name);

/** Total bytes of a frame in this format (the sum of its plane sizes). */
M2M_EXPORT size_t m2m_format_frame_size(const struct m2m_format *fmt);

/**
 * Ask the driver which format it would take (VIDIOC_TRY_FMT).
 * @param dev        the device
 * @param queue      which queue
 * @param[in,out] fmt  the wanted format; on return the one the driver offers
 * @return 0 or a negative errno
 */
M2M_EXPORT int m2m_try_format(struct m2m_device *dev, enum m2m_queue queue,
			      struct m2m_format *fmt);

/**
 * Set the format of a queue (VIDIOC_S_FMT). The driver may adjust it, as
 * V4L2 allows: fmt holds what was set on return. Buffers held by the
 * device for m2m_convert() are released first.
 * @return 0, -EBUSY when the queue is streaming elsewhere, or a negative errno
 */
M2M_EXPORT int m2m_set_format(struct m2m_device *dev, enum m2m_queue queue,
			      struct m2m_format *fmt);

/** Read the current format of a queue (VIDIOC_G_FMT). */
M2M_EXPORT int m2m_get_format(struct m2m_device *dev, enum m2m_queue queue,
			      struct m2m_format *fmt);

/**
 * Set a control by its V4L2 id (VIDIOC_S_CTRL), e.g. V4L2_CID_HFLIP.
 * @return 0, -EINVAL for an unknown control, -ERANGE for a value out of
 *         its range, or a negative errno
 */
M2M_EXPORT int m2m_set_control(struct m2m_device *dev, uint32_t id,
			       int32_t value);

/** Read a control by its V4L2 id into *value (VIDIOC_G_CTRL). */
M2M_EXPORT int m2m_get_control(struct m2m_device *dev, int32_t *value,
			       uint32_t id);

/**
 * Convert one frame synchronously: copy src into an OUTPUT buffer, let the
 * device process it, copy the CAPTURE result into dst. Buffers are memory
 * mapped, allocated on the first call and reused until the format changes.
 *
 * @param dev       the device, with both formats set
 * @param dst       where the result goes
 * @param dst_size  bytes at dst: at least the CAPTURE frame size
 * @param src       the source frame, laid out as the OUTPUT format says
 * @param src_size  bytes at src: at least the OUTPUT frame size
 * @return the number of bytes written to dst, or a negative errno:
 *         -ENOSPC when dst_size or src_size is too small, -ETIMEDOUT when
 *         the device returns nothing within 5 seconds, -EIO when it
 *         returns the frame with an error
 *
 * @code
 * struct m2m_format in, out;
 * m2m_format_init(&in, M2M_FOURCC('Y','U','Y','V'), 640, 480);
 * m2m_format_init(&out, M2M_FOURCC('U','Y','V','Y'), 640, 480);
 * m2m_set_format(dev, M2M_QUEUE_OUTPUT, &in);
 * m2m_set_format(dev, M2M_QUEUE_CAPTURE, &out);
 * int n = m2m_convert(dev, dst, sizeof(dst), src, sizeof(src));
 * @endcode
 */
M2M_EXPORT int m2m_convert(struct m2m_device *dev, void *dst, size_t dst_size,
			   const void *src, size_t src_size);

#ifdef __cplusplus
}
#endif

#endif /* M2M_M2M_H */
