/* SPDX-License-Identifier: LGPL-2.1-or-later */
/**
 * @file m2m.h
 * @brief libm2m: video processing through V4L2 memory-to-memory devices.
 *
 * A memory-to-memory (m2m) device takes frames on its OUTPUT queue,
 * transforms them, and returns them on its CAPTURE queue. libm2m wraps the
 * ioctl sequences (S_FMT, REQBUFS, mmap, QBUF/DQBUF, STREAMON, events,
 * ENC_CMD) so that using such a device takes a few calls. It drives any
 * V4L2 m2m node, single- or multi-planar, and the HQV engine compiled into
 * the library itself (the in-process device, "inprocess"), which behaves as
 * the vhqv kernel module does and returns the same bytes.
 *
 * Two levels of use:
 * - m2m_convert(): one call converts one frame; buffers are managed inside.
 * - Streaming: m2m_alloc_buffers(), m2m_stream_on(), m2m_queue_buffer(),
 *   m2m_dequeue_buffer(), with m2m_get_fd() or m2m_wait() to wait, events
 *   (m2m_subscribe_event()) and draining (m2m_drain()).
 *
 * Conventions (docs/libm2m.md has the long form):
 * - Every function that can fail returns 0 (or a non-negative count) on
 *   success and a negative errno on failure; m2m_last_error() then holds a
 *   message naming the call, the ioctl and what was wrong.
 * - The library never prints, aborts or exits. An application that wants
 *   to see what it does sets a log callback (m2m_set_log_callback()).
 * - Handles are opaque. A NULL or closed handle gives -EINVAL, never a
 *   crash. Out-parameters come first after the handle they belong to.
 * - Thread safety: every function may be called from any thread. Each
 *   call holds a reference on its device, and calls on one device are
 *   serialised by its lock, m2m_convert()'s whole job included, except
 *   that streaming waits (m2m_wait(), m2m_wait_for(), a blocking
 *   m2m_dequeue_buffer()) happen without it, so one thread may wait for
 *   CAPTURE while another queues OUTPUT. m2m_close() marks the device
 *   closing: calls made from then on, and calls waiting (for the lock or
 *   for a frame), return -EINVAL at once with a message (a frame the
 *   in-process device is making is abandoned at its next band); it frees
 *   the device once every call in flight has returned. Buffers (struct
 *   m2m_buffer) belong to their device and live until their queue's
 *   buffers are freed (possibly by another thread's call) or the device
 *   is closed; a pointer kept past that is refused, not read. The log
 *   callback is per process; the last error message is per thread.
 *   docs/libm2m.md, "Threads", has the whole contract; IR handles (ir.h)
 *   and the codecs' decoders, encoders and chains (codec.h) follow it
 *   too.
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

/** libm2m's version, as numbers: 0.2.0. */
#define M2M_VERSION_MAJOR 0
#define M2M_VERSION_MINOR 2
#define M2M_VERSION_PATCH 0

/** Most memory planes a frame can have in libm2m. */
#define M2M_MAX_PLANES 3

/** Most pixel formats listed per queue in struct m2m_device_info. */
#define M2M_MAX_FORMATS 64

/** A V4L2 fourcc code: M2M_FOURCC('Y','U','Y','V') == V4L2_PIX_FMT_YUYV. */
#define M2M_FOURCC(a, b, c, d) \
	((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | \
	 ((uint32_t)(d) << 24))

/** The name m2m_open() takes for the in-process device. */
#define M2M_INPROCESS "inprocess"

/** An open memory-to-memory device. */
struct m2m_device;

/** The two queues of an m2m device, named as V4L2 names them. */
enum m2m_queue {
	/** Frames the application gives to the device (its source). */
	M2M_QUEUE_OUTPUT = 0,
	/** Frames the device gives back (its result). */
	M2M_QUEUE_CAPTURE = 1,
};

/* ---------------------------------------------------------------------
 * Errors and logging
 */

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

/** How much a log message matters. */
enum m2m_log_level {
	M2M_LOG_ERROR = 0, /**< a call failed: the message it left */
	M2M_LOG_DEBUG = 1, /**< every ioctl the library issues */
};

/**
 * Receives the library's log messages.
 * @param level    how much it matters
 * @param message  one line, without a newline
 * @param payload  what m2m_set_log_callback() was given
 */
typedef void (*m2m_log_fn)(enum m2m_log_level level, const char *message,
			   void *payload);

/**
 * Send log messages up to max_level to fn (NULL: no logging, the default).
 * The callback runs in the thread whose call logs, without any lock of
 * libm2m held. Calls of the callback this one replaces that have already
 * started in other threads finish after it returns: keep what their
 * payload points to alive until they have (a binding checks, under its
 * own lock, that its callback is still the one set).
 *
 * @code
 * static void log_to_stderr(enum m2m_log_level l, const char *m, void *p)
 * {
 *         fprintf(stderr, "libm2m: %s\n", m);
 * }
 * m2m_set_log_callback(log_to_stderr, M2M_LOG_DEBUG, NULL);
 * @endcode
 */
M2M_EXPORT void m2m_set_log_callback(m2m_log_fn fn,
				     enum m2m_log_level max_level,
				     void *payload);

/* ---------------------------------------------------------------------
 * Devices: discovery, opening, identity, waiting
 */

/** Where a device's frames are processed. */
enum m2m_backend {
	M2M_BACKEND_KERNEL = 0,    /**< a V4L2 device node */
	M2M_BACKEND_INPROCESS = 1, /**< the HQV engine in this process */
};

/** What a device says about itself (VIDIOC_QUERYCAP, VIDIOC_ENUM_FMT). */
struct m2m_device_info {
	char path[64];     /**< Device node, e.g. "/dev/video0", or "inprocess". */
	char driver[16];   /**< Driver name, e.g. "vhqv". */
	char card[32];     /**< Human-readable device name. */
	char bus_info[32]; /**< Location, e.g. "platform:vhqv.0". */
	uint32_t device_caps; /**< V4L2_CAP_* of the node. */
	int multiplanar;   /**< 1 when the node uses the multi-planar API. */
	enum m2m_backend backend; /**< Kernel node or in-process engine. */
	/** Pixel formats each queue takes, indexed by enum m2m_queue. */
	uint32_t formats[2][M2M_MAX_FORMATS];
	uint32_t num_formats[2]; /**< Entries used in formats[queue]. */
};

/**
 * List the m2m devices of the system: every V4L2 node with the M2M or
 * M2M_MPLANE capability, in /dev/videoN order, then the in-process device.
 *
 * @param[out] out    an array to release with m2m_free_device_list()
 * @param[out] count  its number of entries (at least 1: the in-process one)
 * @return 0 or a negative errno
 *
 * @code
 * struct m2m_device_info *list;
 * size_t n;
 * if (m2m_list_devices(&list, &n) == 0) {
 *         for (size_t i = 0; i < n; i++)
 *                 printf("%s: %s\n", list[i].path, list[i].driver);
 *         m2m_free_device_list(list);
 * }
 * @endcode
 */
M2M_EXPORT int m2m_list_devices(struct m2m_device_info **out, size_t *count);

/** Free what m2m_list_devices() returned. NULL is ignored. */
M2M_EXPORT void m2m_free_device_list(struct m2m_device_info *list);

/** Flags of struct m2m_open_options. */
enum m2m_open_flags {
	/**
	 * m2m_dequeue_buffer() returns -EAGAIN instead of waiting when no
	 * buffer is ready, as O_NONBLOCK does for VIDIOC_DQBUF.
	 */
	M2M_OPEN_NONBLOCK = 1 << 0,
	/**
	 * Use open(2), ioctl(2) and mmap(2) directly, not libv4l2 (which the
	 * library uses by default when built with it, so that libv4l plugins
	 * apply).
	 */
	M2M_OPEN_SYSCALLS = 1 << 1,
	/**
	 * A promise: the memory of every USERPTR buffer the application
	 * queues stays mapped until the buffer is dequeued or its queue
	 * stopped. The in-process device then works in that memory where it
	 * is; without the promise it copies it in and out of each job
	 * (process_vm_readv()/writev()), so that memory unmapped while queued
	 * fails that frame (M2M_BUFFER_ERROR) instead of the process. Kernel
	 * nodes ignore it: the kernel pins USERPTR pages when they are queued.
	 */
	M2M_OPEN_USERPTR_MAPPED = 1 << 2,
};

/** Version of struct m2m_open_options this header describes. */
#define M2M_OPEN_OPTIONS_VERSION 2

/**
 * How to open a device; start from M2M_OPEN_OPTIONS_INIT. Version 1 ends
 * before threads; m2m_open_ext() takes either.
 */
struct m2m_open_options {
	unsigned int version; /**< M2M_OPEN_OPTIONS_VERSION */
	unsigned int flags;   /**< enum m2m_open_flags, or-ed */
	/**
	 * The in-process device: the most threads a frame is split across,
	 * in bands (a frame takes one for each 256K pixels, up to this); 0,
	 * the default, is one per online CPU. Other devices ignore it.
	 */
	unsigned int threads;
};

/** Default options. */
#define M2M_OPEN_OPTIONS_INIT { M2M_OPEN_OPTIONS_VERSION, 0, 0 }

/**
 * Open an m2m device.
 *
 * @param[out] out  the device, on success; NULL on failure
 * @param name      what to open:
 *                  - a device node path ("/dev/video0");
 *                  - a driver name ("vhqv", "vim2m"): the first m2m node of
 *                    that driver;
 *                  - "inprocess" (M2M_INPROCESS): the HQV engine in this
 *                    process, a fresh context as opening a node gives;
 *                  - "auto": the first vhqv node, else the first m2m node,
 *                    else the in-process device.
 * @return 0, -ENOENT when no such device exists, -ENODEV when the node is
 *         not a streaming m2m device, or another negative errno
 *
 * @code
 * struct m2m_device *dev;
 * if (m2m_open(&dev, "auto") < 0)
 *         return -1;
 * ...
 * m2m_close(dev);
 * @endcode
 */
M2M_EXPORT int m2m_open(struct m2m_device **out, const char *name);

/**
 * Open an m2m device with options (see m2m_open() for name).
 *
 * @code
 * struct m2m_open_options opts = M2M_OPEN_OPTIONS_INIT;
 * opts.flags = M2M_OPEN_NONBLOCK;
 * int ret = m2m_open_ext(&dev, "/dev/video0", &opts);
 * @endcode
 */
M2M_EXPORT int m2m_open_ext(struct m2m_device **out, const char *name,
			    const struct m2m_open_options *opts);

/**
 * Close a device and free everything it holds: it stops streaming and
 * unmaps its buffers. Calls on it in other threads end first: those
 * waiting return -EINVAL at once, and it returns once all have returned.
 * NULL, and a handle already closed, are ignored; calls with the handle
 * afterwards return -EINVAL. Not from inside a call on the same device
 * (its log callback): it would wait for itself.
 */
M2M_EXPORT void m2m_close(struct m2m_device *dev);

/**
 * Describe an open device.
 * @param dev          the device
 * @param[out] info    its identity and the formats of both queues
 * @return 0 or a negative errno
 */
M2M_EXPORT int m2m_device_get_info(struct m2m_device *dev,
				   struct m2m_device_info *info);

/** What m2m_wait() found ready; bits. */
enum m2m_ready {
	/** A CAPTURE buffer can be dequeued, or CAPTURE has ended: after the
	 *  LAST buffer, dequeueing gives -EPIPE (as V4L2's poll says). */
	M2M_READY_CAPTURE = 1 << 0,
	M2M_READY_OUTPUT = 1 << 1,  /**< an OUTPUT buffer can be dequeued */
	M2M_READY_EVENT = 1 << 2,   /**< an event can be dequeued */
	/** Nothing can arrive: neither queue streams with a buffer queued. */
	M2M_READY_IDLE = 1 << 3,
};

/**
 * An fd for an application's event loop (poll, select, epoll, asyncio):
 * it is readable while m2m_wait() would return at once. Owned by the
 * device; do not read from it or close it.
 *
 * @return the fd, or a negative errno
 *
 * @code
 * struct pollfd pfd = { .fd = m2m_get_fd(dev), .events = POLLIN };
 * poll(&pfd, 1, -1);
 * unsigned int ready;
 * m2m_wait(dev, &ready, 0);
 * @endcode
 */
M2M_EXPORT int m2m_get_fd(struct m2m_device *dev);

/**
 * Say that the calling application waits for its frames in libm2m (hold
 * non-zero) until it says it is done (0); holds nest, each ended once.
 * Meanwhile the in-process device makes each frame in a wait (m2m_wait(),
 * m2m_wait_for(), m2m_dequeue_buffer()), as m2m_convert() does, instead
 * of handing it to a thread of its own when it is queued: two thread
 * switches a frame less, and no frame made while the application does
 * something else. So a frame queued under a hold is made only once some
 * thread waits in libm2m: not for an application that waits on
 * m2m_get_fd() alone. Devices whose frames the kernel makes ignore it.
 *
 * @return 0, -EINVAL when ending a hold none began, or a negative errno
 * @code
 * m2m_hold_jobs(dev, 1);
 * m2m_queue_buffer(dev, in);
 * m2m_queue_buffer(dev, out);
 * m2m_dequeue_buffer(dev, &done, M2M_QUEUE_CAPTURE); // makes the frame
 * m2m_hold_jobs(dev, 0);
 * @endcode
 */
M2M_EXPORT int m2m_hold_jobs(struct m2m_device *dev, int hold);

/**
 * Wait until a buffer or an event can be dequeued.
 *
 * @param dev          the device
 * @param[out] ready   enum m2m_ready bits; 0 on timeout
 * @param timeout_ms   how long to wait: 0 not at all, -1 forever
 * The in-process device makes a frame in the thread that waits for it
 * (this wait, m2m_wait_for(), m2m_dequeue_buffer(), m2m_convert()), in
 * bands of about 64K pixels. Such a wait ends with -EINTR when a signal
 * that asks the process to stop (SIGINT, as Ctrl-C sends, SIGQUIT,
 * SIGHUP, SIGTERM), not blocked in the waiting thread, comes meanwhile:
 * the frame is abandoned at its next band, its buffers come back flagged
 * M2M_BUFFER_ERROR, and the signal's handler runs before the call
 * returns. Other signals' handlers do not end a wait, nor do any on a
 * device node, whose frames the kernel makes. The library's own threads
 * keep those signals blocked, so that they reach the application's.
 *
 * @return 0 (also on timeout, with *ready 0), -EINVAL when another thread
 *         closes the device meanwhile, -EINTR (above), or a negative errno
 */
M2M_EXPORT int m2m_wait(struct m2m_device *dev, unsigned int *ready,
			int timeout_ms);

/**
 * Wait until one of the wanted things can be dequeued: m2m_wait() for a
 * subset, e.g. events alone while buffers are ready too.
 *
 * @param dev          the device
 * @param[out] ready   enum m2m_ready bits; 0 on timeout
 * @param wanted       enum m2m_ready bits: CAPTURE, OUTPUT, EVENT (IDLE is
 *                     reported with CAPTURE or OUTPUT, as V4L2 does)
 * @param timeout_ms   how long to wait: 0 not at all, -1 forever
 * @return 0 (also on timeout), -EINTR as m2m_wait(), or a negative errno
 * @code
 * unsigned int ready;
 * m2m_wait_for(dev, &ready, M2M_READY_EVENT, 1000);
 * if (ready & M2M_READY_EVENT)
 *         m2m_dequeue_event(dev, &ev);
 * @endcode
 */
M2M_EXPORT int m2m_wait_for(struct m2m_device *dev, unsigned int *ready,
			    unsigned int wanted, int timeout_ms);

/* ---------------------------------------------------------------------
 * Formats
 */

/** Flags of struct m2m_format. */
enum m2m_format_flags {
	/**
	 * CAPTURE only: convert to the ycbcr_enc and quantization given
	 * (V4L2_PIX_FMT_FLAG_SET_CSC), with fields left 0 as libm2m's rule
	 * gives them (struct m2m_format). libm2m sets the flag itself when a
	 * device would otherwise choose another encoding or range than the
	 * one asked for or promised; the driver keeps it when it honours the
	 * request. With colorspace 0, the library sends OUTPUT's colorspace:
	 * V4L2 discards the encoding and quantization of a format whose
	 * colorspace is the default.
	 */
	M2M_FORMAT_SET_CSC = 1 << 0,
};

/**
 * The layout of a frame on one queue, single- or multi-planar alike: a
 * memory plane is what one buffer plane holds (NV12: one, holding Y then
 * CbCr; NV12M: two).
 *
 * Colorimetry fields take V4L2's values (enum v4l2_colorspace,
 * v4l2_ycbcr_encoding, v4l2_quantization, v4l2_xfer_func): the matrix is
 * ycbcr_enc (V4L2_YCBCR_ENC_601, _709, _BT2020) and the range quantization
 * (V4L2_QUANTIZATION_LIM_RANGE, _FULL_RANGE). A field left 0 is untagged,
 * and libm2m's rule (docs/libm2m.md, "Colour") fills it in when the format
 * is set:
 * - on OUTPUT, what OpenCV, FFmpeg and libyuv take an untagged frame to
 *   be: Y'CbCr is BT.601 limited range (colorspace SMPTE 170M); R'G'B' and
 *   GREY are full range (sRGB); other fields V4L2's defaults for the
 *   colorspace;
 * - on CAPTURE, the colorspace is OUTPUT's; Y'CbCr from Y'CbCr, or R'G'B'
 *   and GREY from R'G'B' and GREY, keep OUTPUT's encoding and range; across
 *   the two, Y'CbCr is limited range in the colorspace's encoding (BT.601
 *   from sRGB) and R'G'B' and GREY are full range.
 * Fields set on CAPTURE are converted to (libm2m asks with SET_CSC).
 */
struct m2m_format {
	uint32_t fourcc;       /**< Pixel format, a V4L2 fourcc. */
	uint32_t width;        /**< Width in pixels. */
	uint32_t height;       /**< Height in pixels (a field's for ALTERNATE). */
	uint32_t num_planes;   /**< Memory planes in use. */
	uint32_t bytesperline[M2M_MAX_PLANES]; /**< Line pitch per plane. */
	uint32_t plane_size[M2M_MAX_PLANES];   /**< Bytes per plane. */
	uint32_t field;        /**< enum v4l2_field; 1 (NONE) is progressive. */
	uint32_t colorspace;   /**< enum v4l2_colorspace. */
	uint32_t ycbcr_enc;    /**< enum v4l2_ycbcr_encoding. */
	uint32_t quantization; /**< enum v4l2_quantization. */
	uint32_t xfer_func;    /**< enum v4l2_xfer_func. */
	uint32_t flags;        /**< enum m2m_format_flags. */
};

/**
 * Fill a format with the tightly packed layout of a fourcc at a size,
 * progressive and with default colorimetry, from libm2m's format table.
 *
 * Any size from 1x1 to 8192x8192 is valid, odd ones too: chroma planes
 * round up, as libyuv and FFmpeg do (a 4:2:0 plane of 451x427 is 226x214
 * samples), and a packed 4:2:2 line holds whole macropixels (YUYV 451
 * wide: 904 bytes). Where planes share one buffer (NV12, YUV420), the
 * luma pitch rounds up so that the chroma pitch V4L2 derives from it
 * holds a chroma line (YUV420 451 wide: 452, chroma 226).
 *
 * @param[out] fmt  the format
 * @param fourcc    a pixel format the table knows (see m2m_fourcc_from_name)
 * @param width     width in pixels, 1 to 8192
 * @param height    height in pixels, 1 to 8192
 * @return 0, or -EINVAL for an unknown fourcc or a size out of range
 *
 * @code
 * struct m2m_format nv12, yuv;
 * m2m_format_init(&nv12, M2M_FOURCC('N','V','1','2'), 1280, 720);
 * // nv12.plane_size[0] == 1280 * 720 * 3 / 2
 * m2m_format_init(&yuv, M2M_FOURCC('Y','U','1','2'), 451, 427);
 * // yuv.bytesperline[0] == 452, yuv.plane_size[0] == 452 * 427 + 2 * 226 * 214
 * @endcode
 */
M2M_EXPORT int m2m_format_init(struct m2m_format *fmt, uint32_t fourcc,
			       uint32_t width, uint32_t height);

/**
 * The fourcc of a format name, or 0 when the table has none. Names are
 * the table's ("NV12", "YUYV", "XBGR32", "YUV420M", ...), as
 * m2m_fourcc_to_name() gives them; four-character codes ("XR24") work too.
 */
M2M_EXPORT uint32_t m2m_fourcc_from_name(const char *name);

/**
 * The table's name of a fourcc ("NV12"), or NULL when it has none.
 * @code
 * printf("%s\n", m2m_fourcc_to_name(M2M_FOURCC('A','R','2','4')));
 * // ARGB32
 * @endcode
 */
M2M_EXPORT const char *m2m_fourcc_to_name(uint32_t fourcc);

/**
 * The index-th fourcc of libm2m's format table (every format the HQV
 * engine reads and writes), or 0 past its end.
 */
M2M_EXPORT uint32_t m2m_fourcc_at(unsigned int index);

/** Total bytes of a frame in this format (the sum of its plane sizes). */
M2M_EXPORT size_t m2m_format_frame_size(const struct m2m_format *fmt);

/**
 * Where one colour plane of a frame lies (a Y plane, an interleaved CbCr
 * plane, the one plane of YUYV or RGB24), for viewing it as an array of
 * height x width x channels samples. Chroma planes of odd sizes round up
 * ((w + 1) / 2 samples for 4:2:0 and 4:2:2); a packed 4:2:2 line holds
 * whole macropixels, so at an odd width it has one group more than the
 * frame's width (the last macropixel's second luma, a copy of the last).
 */
struct m2m_plane_layout {
	uint32_t memory_plane; /**< Which memory (buffer) plane holds it. */
	uint32_t offset;       /**< Its first byte in that memory plane. */
	uint32_t bytesperline; /**< Line pitch in bytes. */
	uint32_t width;        /**< Sample groups per line. */
	uint32_t height;       /**< Lines. */
	uint32_t channels;     /**< Samples per group (YUYV 2, RGB24 3). */
	uint32_t sample_bytes; /**< Bytes per sample (RGB565: 2, else 1). */
};

/**
 * The colour planes of a format the table knows, with its pitches.
 *
 * @param[out] planes  filled for each colour plane
 * @param fmt          the format (as m2m_format_init() or a device gave it)
 * @return the number of colour planes (1 to 3), or -EINVAL for a fourcc
 *         the table does not know
 *
 * @code
 * struct m2m_plane_layout pl[M2M_MAX_PLANES];
 * int n = m2m_format_planes(pl, &nv12);
 * // 2: Y (h, w, 1), CbCr ((h + 1) / 2, (w + 1) / 2, 2)
 * @endcode
 */
M2M_EXPORT int m2m_format_planes(struct m2m_plane_layout *planes,
				 const struct m2m_format *fmt);

/**
 * Ask the driver which format it would take (VIDIOC_TRY_FMT).
 * @param dev        the device
 * @param[in,out] fmt  the wanted format; on return the one the driver offers
 * @param queue      which queue
 * @return 0 or a negative errno
 */
M2M_EXPORT int m2m_try_format(struct m2m_device *dev, struct m2m_format *fmt,
			      enum m2m_queue queue);

/**
 * Set the format of a queue (VIDIOC_S_FMT). The driver may adjust it, as
 * V4L2 allows: fmt holds what was set on return. That queue's buffers
 * (and m2m_convert()'s) are freed first. Setting OUTPUT may change
 * CAPTURE's format too (vhqv makes it follow): set OUTPUT first, then
 * CAPTURE, or read CAPTURE back. Untagged colour fields are filled in as
 * struct m2m_format says; a device that cannot give CAPTURE the colour
 * asked for gives its own, which fmt then holds.
 *
 * @return 0, -EBUSY when the queue has buffers elsewhere, or a negative
 *         errno
 *
 * @code
 * struct m2m_format in;
 * m2m_format_init(&in, M2M_FOURCC('Y','U','Y','V'), 640, 480);
 * m2m_set_format(dev, &in, M2M_QUEUE_OUTPUT);
 * @endcode
 */
M2M_EXPORT int m2m_set_format(struct m2m_device *dev, struct m2m_format *fmt,
			      enum m2m_queue queue);

/** Read the current format of a queue (VIDIOC_G_FMT). */
M2M_EXPORT int m2m_get_format(struct m2m_device *dev, struct m2m_format *fmt,
			      enum m2m_queue queue);

/** A pixel format a queue takes (VIDIOC_ENUM_FMT). */
struct m2m_format_desc {
	uint32_t fourcc;          /**< The format. */
	uint32_t flags;           /**< V4L2_FMT_FLAG_*. */
	char description[32];     /**< The driver's name for it. */
};

/**
 * The index-th format a queue takes.
 * @return 0, -ENOENT past the last one, or a negative errno
 */
M2M_EXPORT int m2m_enum_format(struct m2m_device *dev,
			       struct m2m_format_desc *desc,
			       enum m2m_queue queue, unsigned int index);

/** The sizes a device takes for a format (VIDIOC_ENUM_FRAMESIZES). */
struct m2m_frame_sizes {
	uint32_t min_width, max_width, step_width;
	uint32_t min_height, max_height, step_height;
};

/**
 * The range of sizes for fourcc. A driver that lists discrete sizes is
 * described by the smallest and largest with step 0 between them.
 * @return 0, -ENOTTY when the driver does not say, or a negative errno
 */
M2M_EXPORT int m2m_get_frame_sizes(struct m2m_device *dev,
				   struct m2m_frame_sizes *sizes,
				   uint32_t fourcc);

/* ---------------------------------------------------------------------
 * Rectangles: the part of the source taken, where it goes in the result
 */

/** A rectangle in pixels. */
struct m2m_rect {
	int32_t left;
	int32_t top;
	uint32_t width;
	uint32_t height;
};

/** Which rectangle (V4L2 selection targets, on the queue they belong to). */
enum m2m_rect_target {
	/** The part of each OUTPUT frame processed (OUTPUT, CROP). */
	M2M_RECT_CROP = 0,
	/** Where the result goes in each CAPTURE frame (CAPTURE, COMPOSE);
	 *  the rest is filled (vhqv: with its background colour). */
	M2M_RECT_COMPOSE = 1,
	/** The largest crop (read only). */
	M2M_RECT_CROP_BOUNDS = 2,
	/** The largest compose rectangle (read only). */
	M2M_RECT_COMPOSE_BOUNDS = 3,
};

/**
 * Set a rectangle (VIDIOC_S_SELECTION); the driver may adjust it, and
 * rect holds what was set on return.
 * @return 0, -ENOTTY when the driver has no such rectangle, or a negative
 *         errno
 * @code
 * struct m2m_rect r = { 0, 0, 320, 240 };
 * m2m_set_rect(dev, &r, M2M_RECT_CROP);   // the top-left quarter
 * @endcode
 */
M2M_EXPORT int m2m_set_rect(struct m2m_device *dev, struct m2m_rect *rect,
			    enum m2m_rect_target target);

/** Read a rectangle (VIDIOC_G_SELECTION). */
M2M_EXPORT int m2m_get_rect(struct m2m_device *dev, struct m2m_rect *rect,
			    enum m2m_rect_target target);

/* ---------------------------------------------------------------------
 * Controls
 */

/** Kinds of control (the values of enum v4l2_ctrl_type). */
enum m2m_control_type {
	M2M_CONTROL_INTEGER = 1,
	M2M_CONTROL_BOOLEAN = 2,
	M2M_CONTROL_MENU = 3,
	M2M_CONTROL_BUTTON = 4,
	M2M_CONTROL_INTEGER64 = 5,
	M2M_CONTROL_INTEGER_MENU = 9,
	M2M_CONTROL_BITMASK = 8,
};

/** A control of a device (VIDIOC_QUERY_EXT_CTRL). */
struct m2m_control_info {
	uint32_t id;           /**< V4L2 control id, e.g. V4L2_CID_ROTATE. */
	uint32_t type;         /**< enum m2m_control_type, or another V4L2 type. */
	char name[32];         /**< The driver's name, e.g. "Rotate". */
	int64_t minimum;       /**< Smallest value (first menu index). */
	int64_t maximum;       /**< Largest value (last menu index). */
	uint64_t step;         /**< Values are minimum + n * step. */
	int64_t default_value; /**< Value at open. */
	uint32_t flags;        /**< V4L2_CTRL_FLAG_*. */
};

/** Number of controls of the device (control classes not counted). */
M2M_EXPORT int m2m_control_count(struct m2m_device *dev);

/**
 * The index-th control of the device, in the driver's order.
 * @return 0, -ENOENT past the last one, or a negative errno
 */
M2M_EXPORT int m2m_control_at(struct m2m_device *dev,
			      struct m2m_control_info *info,
			      unsigned int index);

/**
 * Find a control by id, or by name: the driver's name in any case
 * ("Horizontal Flip") or as an identifier ("horizontal_flip": lower case,
 * every run of other characters an underscore).
 * @param name  the name; or NULL to look up by id
 * @param id    the id, when name is NULL
 * @return 0, -ENOENT when the device has no such control, or a negative
 *         errno
 * @code
 * struct m2m_control_info rot;
 * m2m_find_control(dev, &rot, "rotate", 0);   // rot.maximum == 270
 * @endcode
 */
M2M_EXPORT int m2m_find_control(struct m2m_device *dev,
				struct m2m_control_info *info,
				const char *name, uint32_t id);

/** A menu item of a MENU or INTEGER_MENU control (VIDIOC_QUERYMENU). */
struct m2m_menu_item {
	uint32_t index;  /**< The control value that selects it. */
	char name[32];   /**< MENU: its name. */
	int64_t value;   /**< INTEGER_MENU: its value. */
};

/**
 * A menu item, by control value (index from the control's minimum to its
 * maximum).
 * @return 0, -ENOENT when the menu skips that index or it is out of range,
 *         or a negative errno
 */
M2M_EXPORT int m2m_get_menu_item(struct m2m_device *dev,
				 struct m2m_menu_item *item, uint32_t id,
				 uint32_t index);

/**
 * Set a control by id (VIDIOC_S_EXT_CTRLS), after checking the value
 * against the control's range, step and menu.
 * @return 0, -ENOENT for a control the device does not have, -ERANGE for
 *         a value it does not take (the message says which range), -EBUSY
 *         when the control cannot change now, or a negative errno
 * @code
 * m2m_set_control(dev, V4L2_CID_ROTATE, 90);
 * @endcode
 */
M2M_EXPORT int m2m_set_control(struct m2m_device *dev, uint32_t id,
			       int64_t value);

/** Set a control by name (see m2m_find_control()). */
M2M_EXPORT int m2m_set_control_by_name(struct m2m_device *dev,
				       const char *name, int64_t value);

/**
 * Set a MENU control to the item with this name (any case).
 * @return 0, -ENOENT for no such control, -ERANGE for no such item, or a
 *         negative errno
 * @code
 * m2m_set_control_menu(dev, V4L2_CID_DEINTERLACING_MODE, "Blend");
 * @endcode
 */
M2M_EXPORT int m2m_set_control_menu(struct m2m_device *dev, uint32_t id,
				    const char *item);

/** Read a control by id (VIDIOC_G_EXT_CTRLS). */
M2M_EXPORT int m2m_get_control(struct m2m_device *dev, int64_t *value,
			       uint32_t id);

/** Read a control by name (see m2m_find_control()). */
M2M_EXPORT int m2m_get_control_by_name(struct m2m_device *dev,
				       int64_t *value, const char *name);

/* ---------------------------------------------------------------------
 * Buffers and streaming
 */

/** Where a buffer's memory comes from (the values of enum v4l2_memory). */
enum m2m_memory {
	/** The device allocates it; the library maps it (data[]). */
	M2M_MEMORY_MMAP = 1,
	/** The application's memory: set data[] and length[] before queueing. */
	M2M_MEMORY_USERPTR = 2,
	/** DMABUF fds the application owns: set fd[] before queueing. */
	M2M_MEMORY_DMABUF = 4,
};

/** Flags of a buffer (V4L2_BUF_FLAG_* values). */
enum m2m_buffer_flags {
	M2M_BUFFER_ERROR = 0x00000040, /**< the device failed this frame */
	M2M_BUFFER_LAST = 0x00100000,  /**< the last CAPTURE buffer of a drain
					*  or of a geometry */
};

/**
 * A buffer of a queue. The library owns it; the application reads it
 * after a dequeue and fills the fields marked "in" before a queue.
 */
struct m2m_buffer {
	enum m2m_queue queue;     /**< Its queue. */
	uint32_t index;           /**< Its index in the queue. */
	enum m2m_memory memory;   /**< Where its memory comes from. */
	uint32_t num_planes;      /**< Memory planes. */
	/** Plane memory: mapped (MMAP, and DMABUF buffers the library
	 *  exported), or in: the application's (USERPTR). */
	void *data[M2M_MAX_PLANES];
	/** Bytes of each plane's memory (in for USERPTR). */
	uint32_t length[M2M_MAX_PLANES];
	/** Bytes holding data: in for OUTPUT (0: the format's plane size),
	 *  out for CAPTURE. */
	uint32_t bytesused[M2M_MAX_PLANES];
	/** in: DMABUF fd of each plane (the application keeps it open). */
	int fd[M2M_MAX_PLANES];
	/** In for OUTPUT, copied by the device to the CAPTURE buffer made
	 *  from it; V4L2 carries it to the microsecond. */
	uint64_t timestamp_ns;
	uint32_t sequence;        /**< out: frame number on its queue. */
	uint32_t flags;           /**< out: enum m2m_buffer_flags and other
				   *  V4L2_BUF_FLAG_* bits. */
	uint32_t field;           /**< in for OUTPUT (0: the format's field),
				   *  out for CAPTURE. */
	int queued;               /**< out: 1 while the device holds it. */
};

/**
 * Allocate (VIDIOC_REQBUFS) and, for MMAP, map the buffers of a queue,
 * freeing the ones it had.
 * @param dev     the device, its format set on that queue
 * @param queue   which queue
 * @param memory  where the memory comes from
 * @param count   how many buffers to ask for (the driver may give more)
 * @return the number of buffers allocated, or a negative errno (-EINVAL
 *         when the driver does not take that memory type)
 * @code
 * int n = m2m_alloc_buffers(dev, M2M_QUEUE_OUTPUT, M2M_MEMORY_MMAP, 4);
 * @endcode
 */
M2M_EXPORT int m2m_alloc_buffers(struct m2m_device *dev, enum m2m_queue queue,
				 enum m2m_memory memory, unsigned int count);

/** Stop a queue and free its buffers (REQBUFS 0). */
M2M_EXPORT int m2m_free_buffers(struct m2m_device *dev, enum m2m_queue queue);

/** Number of buffers a queue has. */
M2M_EXPORT int m2m_buffer_count(struct m2m_device *dev, enum m2m_queue queue);

/**
 * The index-th buffer of a queue, or NULL (with a message) when there is
 * none. Valid until the queue's buffers are freed.
 */
M2M_EXPORT struct m2m_buffer *m2m_get_buffer(struct m2m_device *dev,
					     enum m2m_queue queue,
					     unsigned int index);

/**
 * Give a buffer to the device (VIDIOC_QBUF): an OUTPUT buffer holding a
 * frame, or an empty CAPTURE buffer for a result.
 * @return 0, -EBUSY when it is queued already, or a negative errno
 * @code
 * struct m2m_buffer *in = m2m_get_buffer(dev, M2M_QUEUE_OUTPUT, 0);
 * memcpy(in->data[0], frame, size);
 * in->timestamp_ns = pts;
 * m2m_queue_buffer(dev, in);
 * @endcode
 */
M2M_EXPORT int m2m_queue_buffer(struct m2m_device *dev,
				struct m2m_buffer *buf);

/**
 * Take back a buffer the device is done with (VIDIOC_DQBUF): a processed
 * CAPTURE buffer, or an OUTPUT buffer free for the next frame. Blocks
 * until one is ready, without a timeout (bound the wait with m2m_wait()
 * first), unless the device was opened M2M_OPEN_NONBLOCK.
 * @param[out] out  the buffer
 * @return 0, -EAGAIN when none is ready (non-blocking), -EPIPE on CAPTURE
 *         after the LAST buffer (until m2m_restart() or a new stream),
 *         -EINVAL when another thread closes the device meanwhile, -EINTR
 *         as m2m_wait(), or a negative errno
 */
M2M_EXPORT int m2m_dequeue_buffer(struct m2m_device *dev,
				  struct m2m_buffer **out,
				  enum m2m_queue queue);

/**
 * Export a plane of an MMAP buffer as a DMABUF fd (VIDIOC_EXPBUF), to
 * hand to another device or session. The caller owns the fd.
 * @param[out] fd  the new fd
 * @return 0 or a negative errno
 */
M2M_EXPORT int m2m_export_buffer(struct m2m_device *dev, int *fd,
				 const struct m2m_buffer *buf,
				 unsigned int plane);

/** Start a queue (VIDIOC_STREAMON). */
M2M_EXPORT int m2m_stream_on(struct m2m_device *dev, enum m2m_queue queue);

/** Stop a queue (VIDIOC_STREAMOFF): its buffers come back unqueued. */
M2M_EXPORT int m2m_stream_off(struct m2m_device *dev, enum m2m_queue queue);

/**
 * Drain (VIDIOC_ENCODER_CMD STOP): the device finishes the OUTPUT buffers
 * queued so far, flags the last CAPTURE buffer M2M_BUFFER_LAST, and sends
 * an EOS event; m2m_dequeue_buffer() on CAPTURE then returns -EPIPE.
 * Returns at once.
 * @return 0, -ENOTTY when the driver cannot drain, or a negative errno
 */
M2M_EXPORT int m2m_drain(struct m2m_device *dev);

/** Resume after a drain (VIDIOC_ENCODER_CMD START). */
M2M_EXPORT int m2m_restart(struct m2m_device *dev);

/**
 * Convert one frame synchronously: copy src into an OUTPUT buffer, let the
 * device process it, copy the CAPTURE result into dst. Buffers are memory
 * mapped, allocated on the first call and reused until a format changes.
 * The in-process device copies nothing: it reads src and writes dst where
 * they are (USERPTR buffers), and leaves the bytes of dst that hold no
 * sample (line padding) as they were.
 * Frames are laid out as their format's memory planes one after another.
 * Not to be mixed with the streaming calls on the same device. One call:
 * calls from other threads on the device wait until it is done.
 *
 * @param dev       the device, with both formats set
 * @param dst       where the result goes
 * @param dst_size  bytes at dst: at least the CAPTURE frame size
 * @param src       the source frame, laid out as the OUTPUT format says
 * @param src_size  bytes at src: at least the OUTPUT frame size
 * @return the number of bytes written to dst, or a negative errno:
 *         -ENOSPC when dst_size or src_size is too small, -ETIMEDOUT when
 *         the device returns nothing within 5 seconds, -EIO when it
 *         returns the frame with an error, -EINTR when the in-process
 *         device abandoned the frame for a signal, as m2m_wait() says
 *         (Python's Ctrl-C: KeyboardInterrupt within a band's time)
 *
 * @code
 * struct m2m_format in, out;
 * m2m_format_init(&in, M2M_FOURCC('Y','U','Y','V'), 640, 480);
 * m2m_format_init(&out, M2M_FOURCC('N','V','1','2'), 640, 480);
 * m2m_set_format(dev, &in, M2M_QUEUE_OUTPUT);
 * m2m_set_format(dev, &out, M2M_QUEUE_CAPTURE);
 * int n = m2m_convert(dev, dst, sizeof(dst), src, sizeof(src));
 * @endcode
 */
M2M_EXPORT int m2m_convert(struct m2m_device *dev, void *dst, size_t dst_size,
			   const void *src, size_t src_size);

/* ---------------------------------------------------------------------
 * Events
 */

/** Event types (the values of V4L2_EVENT_*). */
enum m2m_event_type {
	M2M_EVENT_EOS = 2,           /**< a drain finished */
	M2M_EVENT_CTRL = 3,          /**< a control changed (id: which) */
	M2M_EVENT_FRAME_SYNC = 4,    /**< a frame starts being processed */
	M2M_EVENT_SOURCE_CHANGE = 5, /**< CAPTURE's geometry changed */
};

/** Flags of m2m_subscribe_event(). */
enum m2m_subscribe_flags {
	/** CTRL: send the current value at once (V4L2_EVENT_SUB_FL_SEND_INITIAL). */
	M2M_EVENT_SEND_INITIAL = 1 << 0,
	/**
	 * CTRL: also report changes this device handle makes itself
	 * (V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK); V4L2 reports only other
	 * handles' changes by default.
	 */
	M2M_EVENT_ALLOW_FEEDBACK = 1 << 1,
};

/** An event (VIDIOC_DQEVENT). */
struct m2m_event {
	uint32_t type;         /**< enum m2m_event_type, or another V4L2 type. */
	uint32_t id;           /**< CTRL: the control id. */
	uint32_t sequence;     /**< Events sent on this device so far. */
	uint32_t pending;      /**< Events still waiting after this one. */
	uint64_t timestamp_ns; /**< When it was sent (CLOCK_MONOTONIC). */
	/** CTRL: V4L2_EVENT_CTRL_CH_* bits; SOURCE_CHANGE:
	 *  V4L2_EVENT_SRC_CH_RESOLUTION. */
	uint32_t changes;
	int64_t value;         /**< CTRL: the control's value. */
	uint32_t frame_sequence; /**< FRAME_SYNC: the frame's sequence. */
};

/**
 * Ask for events of a type (VIDIOC_SUBSCRIBE_EVENT). V4L2 keeps one
 * pending CTRL event per control: a change replaces an unread one (its
 * changes bits merged), the initial value included.
 * @param type   enum m2m_event_type
 * @param id     CTRL: the control id (0 for other types)
 * @param flags  enum m2m_subscribe_flags
 * @return 0, -EINVAL when the driver does not send that type, or a
 *         negative errno
 * @code
 * m2m_subscribe_event(dev, M2M_EVENT_CTRL, V4L2_CID_ROTATE,
 *                     M2M_EVENT_SEND_INITIAL);
 * @endcode
 */
M2M_EXPORT int m2m_subscribe_event(struct m2m_device *dev, uint32_t type,
				   uint32_t id, unsigned int flags);

/** Stop events of a type (VIDIOC_UNSUBSCRIBE_EVENT). */
M2M_EXPORT int m2m_unsubscribe_event(struct m2m_device *dev, uint32_t type,
				     uint32_t id);

/**
 * Take the next pending event (VIDIOC_DQEVENT). Never blocks: wait with
 * m2m_wait() or m2m_get_fd().
 * @param[out] ev  the event
 * @return 0, -EAGAIN when none is pending, or a negative errno
 */
M2M_EXPORT int m2m_dequeue_event(struct m2m_device *dev, struct m2m_event *ev);

/**
 * Answer a geometry change: stop CAPTURE, read the format the device now
 * proposes, allocate as many buffers as before with the same memory, and
 * start CAPTURE again; the application then queues its CAPTURE buffers
 * again. Call it once both the SOURCE_CHANGE event and the LAST CAPTURE
 * buffer have arrived: earlier, it drops frames finished under the old
 * geometry that were not dequeued yet.
 * @param[out] capture  the new CAPTURE format (may be NULL)
 * @return the number of CAPTURE buffers, or a negative errno
 */
M2M_EXPORT int m2m_handle_source_change(struct m2m_device *dev,
					struct m2m_format *capture);

#ifdef __cplusplus
}
#endif

#endif /* M2M_M2M_H */
