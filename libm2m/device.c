// SPDX-License-Identifier: LGPL-2.1-or-later
/* Opening, discovering, identifying and closing devices; waiting on them. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "m2m-private.h"

/*
 * Every open device is listed here (handle.h), so that a call with a
 * closed or forged handle is refused with -EINVAL instead of touching
 * freed memory, and m2m_close() frees a device only once no call uses it.
 */
static struct m2m_registry devices = M2M_REGISTRY_INIT;

int m2m_refuse_handle(int ret, const char *what, const char *func)
{
	if (ret == -ENOENT)
		return m2m_error(EINVAL, "%s: %s handle is closed or invalid",
				 func, what);
	return m2m_error(EINVAL, "%s: the %s handle was closed by another "
			 "thread", func, what);
}

int m2m_enter(struct m2m_device *dev, const char *func)
{
	struct m2m_handle *h;
	int ret;

	if (!dev)
		return m2m_error(EINVAL, "%s: device handle is NULL", func);
	ret = m2m_handle_enter(&devices, (uintptr_t)dev, &h);
	return ret ? m2m_refuse_handle(ret, "device", func) : 0;
}

int m2m_leave(struct m2m_device *dev, int ret)
{
	m2m_handle_leave(&devices, &dev->handle);
	return ret;
}

int m2m_check_queue(enum m2m_queue queue, const char *func)
{
	if (queue != M2M_QUEUE_OUTPUT && queue != M2M_QUEUE_CAPTURE)
		return m2m_error(EINVAL, "%s: invalid queue %d", func, queue);
	return 0;
}

enum v4l2_buf_type m2m_buf_type(const struct m2m_device *dev,
				enum m2m_queue queue)
{
	if (queue == M2M_QUEUE_OUTPUT)
		return dev->mplane ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE :
				     V4L2_BUF_TYPE_VIDEO_OUTPUT;
	return dev->mplane ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE :
			     V4L2_BUF_TYPE_VIDEO_CAPTURE;
}

int m2m_xioctl_quiet(struct m2m_device *dev, unsigned long request,
		     void *arg)
{
	int ret;

	do
		ret = dev->tp->ioctl(dev->fd, request, arg);
	while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : ret;
}

int m2m_xioctl(struct m2m_device *dev, unsigned long request,
	       const char *request_name, void *arg)
{
	int ret = m2m_xioctl_quiet(dev, request, arg);

	m2m_log(M2M_LOG_DEBUG, "%s on %s: %s", request_name, dev->info.path,
		ret < 0 ? strerror(-ret) : "ok");
	if (ret < 0)
		return m2m_error(-ret, "%s on %s: %s", request_name,
				 dev->info.path, strerror(-ret));
	return ret;
}

int m2m_poll_device(struct m2m_device *dev, short events, int timeout_ms,
		    enum m2m_wait_lock lock)
{
	short revents = 0;
	int n, err;

	if (lock == M2M_WAIT_UNLOCKED)
		pthread_mutex_unlock(&dev->lock);
	n = dev->tp->poll(dev->fd, events, &revents, timeout_ms);
	err = errno;
	if (lock == M2M_WAIT_UNLOCKED)
		pthread_mutex_lock(&dev->lock);
	/* m2m_close() interrupted the wait; it waits for this call. */
	if ((n < 0 && err == ECANCELED) || m2m_handle_closing(&dev->handle))
		return m2m_error(EINVAL, "poll on %s: the device handle was "
				 "closed by another thread", dev->info.path);
	if (n < 0 && err == EINTR)
		return m2m_error(EINTR, "poll on %s: interrupted by a signal "
				 "that asks the process to stop; the frame "
				 "being made was abandoned", dev->info.path);
	if (n < 0)
		return m2m_error(err, "poll on %s: %s", dev->info.path,
				 strerror(err));
	return n == 0 ? 0 : revents;
}

static void copy_field(char *dst, size_t size, const __u8 *src, size_t len)
{
	size_t n = strnlen((const char *)src, len);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* The formats each queue takes, into info. */
static void list_formats(struct m2m_device *dev)
{
	int q;

	for (q = M2M_QUEUE_OUTPUT; q <= M2M_QUEUE_CAPTURE; q++) {
		struct v4l2_fmtdesc desc = { .type = m2m_buf_type(dev, q) };
		uint32_t *n = &dev->info.num_formats[q];

		for (*n = 0; *n < M2M_MAX_FORMATS; (*n)++) {
			desc.index = *n;
			if (m2m_xioctl_quiet(dev, VIDIOC_ENUM_FMT, &desc) < 0)
				break;
			dev->info.formats[q][*n] = desc.pixelformat;
		}
	}
}

static void device_free(struct m2m_device *dev)
{
	if (dev->fd >= 0)
		dev->tp->close(dev->fd);
	pthread_mutex_destroy(&dev->lock);
	free(dev->controls);
	free(dev);
}

static const struct m2m_transport *node_transport(unsigned int flags)
{
#ifdef M2M_WITH_LIBV4L2
	if (!(flags & M2M_OPEN_SYSCALLS))
		return &m2m_transport_libv4l2;
#else
	(void)flags;
#endif
	return &m2m_transport_syscall;
}

/*
 * Open path through tp and check that it is a streaming m2m node. The fd is
 * always non-blocking: blocking calls wait in poll.
 */
int m2m_open_via(struct m2m_device **out, const char *path,
		 const struct m2m_transport *tp, unsigned int flags)
{
	struct v4l2_capability cap = { 0 };
	struct m2m_device *dev;
	__u32 caps;
	int q, ret;

	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return m2m_error(ENOMEM, "m2m_open: out of memory");
	pthread_mutex_init(&dev->lock, NULL);
	dev->tp = tp;
	dev->flags = flags;
	snprintf(dev->info.path, sizeof(dev->info.path), "%s", path);

	dev->fd = tp->open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (dev->fd < 0 && errno == ENOTTY) {
		ret = m2m_error(ENODEV, "m2m_open: %s is not a V4L2 device "
				"(VIDIOC_QUERYCAP: %s)", path, strerror(errno));
		goto err_free;
	}
	if (dev->fd < 0) {
		ret = m2m_error(errno, "m2m_open: cannot open %s: %s", path,
				strerror(errno));
		goto err_free;
	}

	ret = M2M_IOCTL(dev, VIDIOC_QUERYCAP, &cap);
	if (ret < 0)
		goto err_free;
	caps = cap.capabilities & V4L2_CAP_DEVICE_CAPS ? cap.device_caps :
							 cap.capabilities;
	if (!(caps & (V4L2_CAP_VIDEO_M2M | V4L2_CAP_VIDEO_M2M_MPLANE)) ||
	    !(caps & V4L2_CAP_STREAMING)) {
		ret = m2m_error(ENODEV,
				"m2m_open: %s is not a streaming m2m device "
				"(device caps 0x%08x)", path, caps);
		goto err_free;
	}
	dev->mplane = !(caps & V4L2_CAP_VIDEO_M2M);
	copy_field(dev->info.driver, sizeof(dev->info.driver), cap.driver,
		   sizeof(cap.driver));
	copy_field(dev->info.card, sizeof(dev->info.card), cap.card,
		   sizeof(cap.card));
	copy_field(dev->info.bus_info, sizeof(dev->info.bus_info),
		   cap.bus_info, sizeof(cap.bus_info));
	dev->info.device_caps = caps;
	dev->info.multiplanar = dev->mplane;
	dev->info.backend = tp->backend;
	for (q = M2M_QUEUE_OUTPUT; q <= M2M_QUEUE_CAPTURE; q++)
		dev->queues[q].type = m2m_buf_type(dev, q);
	list_formats(dev);

	ret = m2m_controls_load(dev);
	if (ret < 0)
		goto err_free;
	m2m_handle_add(&devices, &dev->handle, (uintptr_t)dev, &dev->lock);
	*out = dev;
	return 0;

err_free:
	device_free(dev);
	return ret;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

/* What open_nodes() looks for: a driver name, or any (NULL). */
typedef bool node_match_fn(const struct m2m_device *dev, const void *arg);

/*
 * Call fn for every m2m node, in /dev/videoN order, listed from sysfs
 * (which works with or without udev); stop at the first it keeps (returns
 * true for), which stays open in *out. Returns whether one was kept.
 */
static bool for_each_node(struct m2m_device **out, unsigned int flags,
			  node_match_fn *fn, const void *arg)
{
	struct dirent **nodes = NULL;
	bool kept = false;
	int n, i;

	/* No video4linux class at all is just another "not found". */
	n = scandir("/sys/class/video4linux", &nodes, NULL, by_name);
	for (i = 0; i < n; i++) {
		struct m2m_device *dev;
		char path[64];

		if (!kept && !strncmp(nodes[i]->d_name, "video", 5)) {
			snprintf(path, sizeof(path), "/dev/%.58s",
				 nodes[i]->d_name);
			if (m2m_open_via(&dev, path, node_transport(flags),
					 flags) == 0) {
				kept = fn(dev, arg);
				if (kept)
					*out = dev;
				else
					m2m_close(dev);
			}
		}
		free(nodes[i]);
	}
	free(nodes);
	return kept;
}

static bool driver_is(const struct m2m_device *dev, const void *name)
{
	return !strcmp(dev->info.driver, name);
}

struct driver_node {
	const char *driver;
	const struct m2m_node_match *match;
};

static bool driver_node_is(const struct m2m_device *dev, const void *arg)
{
	const struct driver_node *want = arg;

	/* The match may call the library on the node, which is not const. */
	return driver_is(dev, want->driver) &&
	       want->match->fn((struct m2m_device *)dev, want->match->arg);
}

static bool any_node(const struct m2m_device *dev, const void *arg)
{
	(void)dev;
	(void)arg;
	return true;
}

static int open_inprocess(struct m2m_device **out, unsigned int flags,
			  unsigned int threads)
{
	int ret = m2m_open_via(out, M2M_INPROCESS, &m2m_transport_inprocess,
			       flags);

	if (!ret && threads)
		(*out)->tp->threads((*out)->fd, threads);
	if (!ret && (flags & M2M_OPEN_USERPTR_MAPPED))
		(*out)->tp->userptr_mapped((*out)->fd);
	return ret;
}

int m2m_open_node(struct m2m_device **out, const char *name,
		  const struct m2m_open_options *opts,
		  const struct m2m_node_match *match)
{
	unsigned int flags = opts ? opts->flags : 0;
	/* Version 1 options end before threads. */
	unsigned int threads = opts && opts->version >= 2 ? opts->threads : 0;

	if (!out)
		return m2m_error(EINVAL, "m2m_open: out is NULL");
	*out = NULL;
	if (!name || !*name)
		return m2m_error(EINVAL, "m2m_open: device name is empty");
	if (opts && (opts->version < 1 ||
		     opts->version > M2M_OPEN_OPTIONS_VERSION))
		return m2m_error(EINVAL, "m2m_open: options version %u, this "
				 "libm2m knows %u", opts->version,
				 M2M_OPEN_OPTIONS_VERSION);
	if (flags & ~(unsigned int)(M2M_OPEN_NONBLOCK | M2M_OPEN_SYSCALLS |
				    M2M_OPEN_USERPTR_MAPPED))
		return m2m_error(EINVAL, "m2m_open: unknown flags 0x%x", flags);

	if (!strcmp(name, M2M_INPROCESS))
		return open_inprocess(out, flags, threads);
	if (strchr(name, '/'))
		return m2m_open_via(out, name, node_transport(flags), flags);
	if (!strcmp(name, "auto")) {
		if (for_each_node(out, flags, driver_is, "vhqv") ||
		    for_each_node(out, flags, any_node, NULL))
			return 0;
		return open_inprocess(out, flags, threads);
	}
	if (match) {
		struct driver_node want = { name, match };

		if (for_each_node(out, flags, driver_node_is, &want))
			return 0;
		return m2m_error(ENOENT, "m2m_open: no %s among the nodes of "
				 "driver \"%s\"", match->what, name);
	}
	if (for_each_node(out, flags, driver_is, name))
		return 0;
	return m2m_error(ENOENT, "m2m_open: no m2m device with driver \"%s\"",
			 name);
}

int m2m_open_ext(struct m2m_device **out, const char *name,
		 const struct m2m_open_options *opts)
{
	return m2m_open_node(out, name, opts, NULL);
}

int m2m_open(struct m2m_device **out, const char *name)
{
	return m2m_open_ext(out, name, NULL);
}

void m2m_close(struct m2m_device *dev)
{
	struct m2m_handle *h;
	int q;

	h = dev ? m2m_handle_close(&devices, (uintptr_t)dev) : NULL;
	if (!h)
		return;
	/* Calls waiting on the device end now; calls waiting for its lock
	 * fail when they have it. */
	dev->tp->interrupt(dev->fd);
	m2m_handle_drain(&devices, h);
	/* No other thread can reach the device any more. */
	for (q = M2M_QUEUE_OUTPUT; q <= M2M_QUEUE_CAPTURE; q++)
		m2m_free_buffers_locked(dev, q);
	device_free(dev);
}

int m2m_device_get_info(struct m2m_device *dev, struct m2m_device_info *info)
{
	M2M_ENTER(dev);
	if (!info)
		return m2m_leave(dev, m2m_error(EINVAL,
				 "m2m_device_get_info: info is NULL"));
	*info = dev->info;
	return m2m_leave(dev, 0);
}

/* Growing array of m2m_list_devices(). */
struct device_list {
	struct m2m_device_info *items;
	size_t count;
	int error;
};

static bool list_node(const struct m2m_device *dev, const void *arg)
{
	struct device_list *list = (struct device_list *)arg;
	struct m2m_device_info *items;

	items = realloc(list->items, (list->count + 1) * sizeof(*items));
	if (!items) {
		list->error = ENOMEM;
		return false;
	}
	items[list->count++] = dev->info;
	list->items = items;
	return false;
}

int m2m_list_devices(struct m2m_device_info **out, size_t *count)
{
	struct device_list list = { 0 };
	struct m2m_device *dev;

	if (!out || !count)
		return m2m_error(EINVAL, "m2m_list_devices: %s is NULL",
				 out ? "count" : "out");
	*out = NULL;
	*count = 0;
	for_each_node(&dev, 0, list_node, &list);
	/* The kernel's nodes are listed even if this fails. */
	if (open_inprocess(&dev, 0, 0) == 0) {
		list_node(dev, &list);
		m2m_close(dev);
	}
	if (list.error) {
		free(list.items);
		return m2m_error(list.error, "m2m_list_devices: out of memory");
	}
	*out = list.items;
	*count = list.count;
	return 0;
}

void m2m_free_device_list(struct m2m_device_info *list)
{
	free(list);
}

int m2m_get_fd(struct m2m_device *dev)
{
	int fd;

	M2M_ENTER(dev);
	fd = dev->tp->wait_fd(dev->fd);
	if (fd < 0)
		fd = m2m_error(errno, "m2m_get_fd on %s: %s", dev->info.path,
			       strerror(errno));
	return m2m_leave(dev, fd);
}

int m2m_hold_jobs(struct m2m_device *dev, int hold)
{
	int ret = 0;

	M2M_ENTER(dev);
	if (!hold && !dev->jobs_held)
		return m2m_leave(dev, m2m_error(EINVAL, "m2m_hold_jobs on %s: "
						"nothing is held",
						dev->info.path));
	if (dev->tp->hold && dev->tp->hold(dev->fd, M2M_TP_HOLD_JOBS,
					   hold != 0) < 0)
		ret = m2m_error(errno, "m2m_hold_jobs on %s: %s",
				dev->info.path, strerror(errno));
	else
		dev->jobs_held += hold ? 1 : -1;
	return m2m_leave(dev, ret);
}

/* What poll() bits mean, in enum m2m_ready. */
static unsigned int ready_from_poll(int revents)
{
	unsigned int ready = 0;

	if (revents & POLLIN)
		ready |= M2M_READY_CAPTURE;
	if (revents & POLLOUT)
		ready |= M2M_READY_OUTPUT;
	if (revents & POLLPRI)
		ready |= M2M_READY_EVENT;
	if (revents & POLLERR)
		ready |= M2M_READY_IDLE;
	return ready;
}

int m2m_wait_for(struct m2m_device *dev, unsigned int *ready,
		 unsigned int wanted, int timeout_ms)
{
	short events = 0;
	int revents;

	M2M_ENTER(dev);
	if (!ready)
		return m2m_leave(dev, m2m_error(EINVAL,
				 "m2m_wait: ready is NULL"));
	if (wanted & M2M_READY_CAPTURE)
		events |= POLLIN;
	if (wanted & M2M_READY_OUTPUT)
		events |= POLLOUT;
	if (wanted & M2M_READY_EVENT)
		events |= POLLPRI;
	if (!events)
		return m2m_leave(dev, m2m_error(EINVAL, "m2m_wait_for: wanted "
				 "0x%x names nothing to wait for", wanted));
	revents = m2m_poll_device(dev, events, timeout_ms, M2M_WAIT_UNLOCKED);
	if (revents < 0)
		return m2m_leave(dev, revents);
	*ready = ready_from_poll(revents);
	return m2m_leave(dev, 0);
}

int m2m_wait(struct m2m_device *dev, unsigned int *ready, int timeout_ms)
{
	return m2m_wait_for(dev, ready, M2M_READY_CAPTURE | M2M_READY_OUTPUT |
			    M2M_READY_EVENT, timeout_ms);
}
