/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the parts of libm2m share and applications do not see.
 *
 * error.c      the error convention and the log callback
 * transport-kernel.c  device nodes through syscalls or libv4l2
 * device.c     the handle registry, opening, discovery, waiting
 * format.c     the format table, formats, rectangles
 * colour.c     what untagged colorimetry means, what CAPTURE asks for
 * control.c    controls
 * buffer.c     buffers, streaming, draining
 * event.c      events, source changes
 * convert.c    one-call conversion, on top of buffer.c
 * media.c      a node's media device, and its requests
 * inprocess/   the in-process device, a transport of its own
 */
#ifndef M2M_PRIVATE_H
#define M2M_PRIVATE_H

#include <pthread.h>
#include <stdbool.h>
#include <linux/videodev2.h>

#include "m2m/m2m.h"
#include "handle.h"
#include "transport.h"

/* One queue of an open device. */
struct m2m_queue_state {
	enum v4l2_buf_type type;
	enum m2m_memory memory;
	struct m2m_buffer *buffers;
	unsigned int count;
	/* The format the buffers were allocated for: it cannot change
	 * while they exist. */
	struct m2m_format format;
	bool streaming;
	/* V4L2_BUF_CAP_* that REQBUFS reported for them. */
	uint32_t caps;
	/* The buffers are m2m_convert()'s, allocated and started by it. */
	bool for_convert;
};

struct m2m_device {
	/* Listed while open: calls find it and hold a reference (device.c). */
	struct m2m_handle handle;
	const struct m2m_transport *tp;
	int fd;
	unsigned int flags;	/* enum m2m_open_flags */
	bool mplane;
	/*
	 * Serialises calls on this device. Streaming waits (m2m_wait(), a
	 * blocking m2m_dequeue_buffer()) drop it; m2m_convert() keeps it.
	 */
	pthread_mutex_t lock;
	struct m2m_device_info info;
	struct m2m_queue_state queues[2];
	/* The controls, read once at open (control classes left out). */
	struct m2m_control_info *controls;
	unsigned int num_controls;
	/* m2m_hold_jobs()'s holds, which the transport counts too. */
	unsigned int jobs_held;
};

/*
 * Record an error for m2m_last_error() and the log: err is a positive or
 * negative errno, the message is formatted like printf. Returns -abs(err),
 * so a caller can write `return m2m_error(EINVAL, "...")`.
 */
int m2m_error(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Send a message to the log callback, when one takes that level. */
void m2m_log(enum m2m_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * An ioctl on the device through its transport, retried on EINTR. On
 * failure records a message naming the ioctl and returns -errno.
 */
int m2m_xioctl(struct m2m_device *dev, unsigned long request,
	       const char *request_name, void *arg);
#define M2M_IOCTL(dev, request, arg) m2m_xioctl(dev, request, #request, arg)

/* The same, for an ioctl whose failure is an answer, not an error
 * (enumerations ending, optional ioctls): no message is recorded. */
int m2m_xioctl_quiet(struct m2m_device *dev, unsigned long request,
		     void *arg);

/*
 * Check that dev is an open handle, take a reference on it and its lock:
 * 0, or -EINVAL with a message naming func when it is NULL, not open, or
 * being closed. Every exported function on a device starts with
 * M2M_ENTER and leaves through m2m_leave(), which returns ret.
 */
int m2m_enter(struct m2m_device *dev, const char *func);
#define M2M_ENTER(dev)                                                     \
	do {                                                               \
		int enter_ret_ = m2m_enter(dev, __func__);                 \
		if (enter_ret_ < 0)                                        \
			return enter_ret_;                                 \
	} while (0)
int m2m_leave(struct m2m_device *dev, int ret);

/*
 * The message for a call refused by m2m_handle_enter() (ret: -ENOENT or
 * -ESHUTDOWN) on a handle of kind what ("device", "IR"): -EINVAL.
 */
int m2m_refuse_handle(int ret, const char *what, const char *func);

/*
 * m2m_open() of path through a given transport; the library's tests use
 * it to open a device through a transport of their own.
 */
int m2m_open_via(struct m2m_device **out, const char *path,
		 const struct m2m_transport *tp, unsigned int flags);

/* Which of a driver's nodes m2m_open_node() takes, with its argument. */
struct m2m_node_match {
	/* Whether to take this node (open, of the driver asked for). */
	bool (*fn)(struct m2m_device *dev, const void *arg);
	const void *arg;
	const char *what;	/* what it takes, for the message: "FWHT decoder" */
};

/*
 * m2m_open_ext(), where a driver name takes the first of that driver's
 * nodes that match keeps, as one driver often has several nodes (vicodec:
 * an encoder, a decoder, a stateless decoder); a path is opened as it is.
 */
int m2m_open_node(struct m2m_device **out, const char *name,
		  const struct m2m_open_options *opts,
		  const struct m2m_node_match *match);

/* The V4L2 buffer type of a queue on this device. */
enum v4l2_buf_type m2m_buf_type(const struct m2m_device *dev,
				enum m2m_queue queue);

/* A queue argument checked: 0 or -EINVAL naming func. */
int m2m_check_queue(enum m2m_queue queue, const char *func);

/* Whether a wait lets other calls on the device run meanwhile. */
enum m2m_wait_lock {
	M2M_WAIT_UNLOCKED,	/* streaming: one thread waits, others queue */
	M2M_WAIT_LOCKED,	/* m2m_convert(): its job is one call */
};

/*
 * Wait until poll() reports one of events or timeout_ms passes, the lock
 * held or dropped meanwhile as lock says. Returns the revents, 0 on
 * timeout, -EINVAL when another thread closes the device meanwhile, or a
 * negative errno.
 */
int m2m_poll_device(struct m2m_device *dev, short events, int timeout_ms,
		    enum m2m_wait_lock lock);

/* format.c: a format to and from V4L2's, in the device's API. */
void m2m_format_to_v4l2(const struct m2m_device *dev, struct v4l2_format *v,
			enum m2m_queue queue, const struct m2m_format *fmt);
int m2m_format_from_v4l2(struct m2m_format *fmt, const struct v4l2_format *v);
int m2m_get_format_locked(struct m2m_device *dev, struct m2m_format *fmt,
			  enum m2m_queue queue);

/*
 * colour.c: what an untagged (0) colorimetry field stands for. OUTPUT's
 * are filled in; CAPTURE's wanted colour is worked out from OUTPUT's
 * format (-ENOENT for a format outside libm2m's table).
 */
void m2m_colour_untagged_output(struct m2m_format *f);
int m2m_colour_wanted_capture(struct m2m_format *want,
			      const struct m2m_format *cap,
			      const struct m2m_format *out);

/* control.c: read the controls of a new device into dev->controls. */
int m2m_controls_load(struct m2m_device *dev);

/* buffer.c, with the lock held. */
int m2m_alloc_buffers_locked(struct m2m_device *dev, enum m2m_queue queue,
			     enum m2m_memory memory, unsigned int count);
int m2m_free_buffers_locked(struct m2m_device *dev, enum m2m_queue queue);
int m2m_queue_buffer_locked(struct m2m_device *dev, struct m2m_buffer *buf);
int m2m_dequeue_buffer_locked(struct m2m_device *dev, struct m2m_buffer **out,
			      enum m2m_queue queue, int timeout_ms,
			      enum m2m_wait_lock lock);
int m2m_stream_locked(struct m2m_device *dev, enum m2m_queue queue, bool on);

/* buffer.c: VIDIOC_QBUF of buf in the media request request_fd. */
int m2m_queue_buffer_request(struct m2m_device *dev, struct m2m_buffer *buf,
			     int request_fd);

/* control.c: set a compound control's value (size bytes at ptr) in the
 * media request request_fd (V4L2_CTRL_WHICH_REQUEST_VAL). */
int m2m_set_control_request(struct m2m_device *dev, uint32_t id,
			    const void *ptr, uint32_t size, int request_fd);

/*
 * media.c. The media device dev's node belongs to (the one whose
 * topology lists its device number), opened into *media_fd: 0, or
 * -ENODEV when there is none (an in-process device has none).
 */
int m2m_media_open_for(struct m2m_device *dev, int *media_fd);
/* MEDIA_IOC_REQUEST_ALLOC: -ENOTTY when the device takes no requests. */
int m2m_media_request_alloc(int media_fd, int *req_fd);
int m2m_media_request_queue(int req_fd);
int m2m_media_request_reinit(int req_fd);
/* Wait for a queued request to complete: 1 done, 0 on timeout. */
int m2m_media_request_wait(int req_fd, int timeout_ms);

#endif /* M2M_PRIVATE_H */
