/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the parts of libm2m share and applications do not see. */
#ifndef M2M_PRIVATE_H
#define M2M_PRIVATE_H

#include <stdbool.h>
#include <linux/videodev2.h>

#include "m2m/m2m.h"

/* A buffer of one queue, mapped into our address space. */
struct m2m_mapped_buffer {
	void *addr;
	size_t length;
};

/* One queue of an open device. */
struct m2m_queue_state {
	enum v4l2_buf_type type;
	struct m2m_format format;
	/* Buffers allocated for m2m_convert(), or none when mapped.addr == NULL. */
	struct m2m_mapped_buffer mapped;
	bool streaming;
};

struct m2m_device {
	int fd;
	struct m2m_device_info info;
	struct m2m_queue_state queues[2];
};

/*
 * Record an error for m2m_last_error(): err is a positive or negative errno,
 * the message is formatted like printf. Returns -abs(err), so a caller can
 * write `return m2m_error(EINVAL, "...")`.
 */
int m2m_error(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * ioctl() on the device, retried on EINTR. On failure records a message
 * naming the ioctl and returns -errno.
 */
int m2m_xioctl(struct m2m_device *dev, unsigned long request,
	       const char *request_name, void *arg);
#define M2M_IOCTL(dev, request, arg) m2m_xioctl(dev, request, #request, arg)

/* 0 when dev is an open handle, else -EINVAL with a message naming func. */
int m2m_device_check(const struct m2m_device *dev, const char *func);
#define M2M_CHECK_DEVICE(dev)                                              \
	do {                                                               \
		int check_ret_ = m2m_device_check(dev, __func__);          \
		if (check_ret_ < 0)                                        \
			return check_ret_;                                 \
	} while (0)

/* Unmap and free the buffers of both queues, stopping streaming. */
void m2m_buffers_release(struct m2m_device *dev);

#endif /* M2M_PRIVATE_H */
