// SPDX-License-Identifier: LGPL-2.1-or-later
/* Opening, identifying and closing m2m devices; the handle registry. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "m2m-private.h"

/*
 * Every open handle is listed here, so that a call with a closed or bogus
 * handle is refused with -EINVAL instead of touching freed memory.
 */
struct handle_entry {
	const struct m2m_device *dev;
	struct handle_entry *next;
};

static pthread_mutex_t handles_lock = PTHREAD_MUTEX_INITIALIZER;
static struct handle_entry *handles;

static int handle_add(const struct m2m_device *dev)
{
	struct handle_entry *e = malloc(sizeof(*e));

	if (!e)
		return m2m_error(ENOMEM, "m2m_open: out of memory");
	pthread_mutex_lock(&handles_lock);
	e->dev = dev;
	e->next = handles;
	handles = e;
	pthread_mutex_unlock(&handles_lock);
	return 0;
}

/* Remove dev from the registry; false when it was not there. */
static bool handle_remove(const struct m2m_device *dev)
{
	struct handle_entry **p, *e = NULL;

	pthread_mutex_lock(&handles_lock);
	for (p = &handles; *p; p = &(*p)->next) {
		if ((*p)->dev == dev) {
			e = *p;
			*p = e->next;
			break;
		}
	}
	pthread_mutex_unlock(&handles_lock);
	free(e);
	return e != NULL;
}

int m2m_device_check(const struct m2m_device *dev, const char *func)
{
	const struct handle_entry *e;
	bool found = false;

	if (!dev)
		return m2m_error(EINVAL, "%s: device handle is NULL", func);
	pthread_mutex_lock(&handles_lock);
	for (e = handles; e && !found; e = e->next)
		found = e->dev == dev;
	pthread_mutex_unlock(&handles_lock);
	if (!found)
		return m2m_error(EINVAL, "%s: device handle is closed or invalid",
				 func);
	return 0;
}

int m2m_xioctl(struct m2m_device *dev, unsigned long request,
	       const char *request_name, void *arg)
{
	int ret;

	do
		ret = ioctl(dev->fd, request, arg);
	while (ret < 0 && errno == EINTR);
	if (ret < 0)
		return m2m_error(errno, "%s on %s: %s", request_name,
				 dev->info.path, strerror(errno));
	return ret;
}

static void copy_field(char *dst, size_t size, const __u8 *src, size_t len)
{
	size_t n = strnlen((const char *)src, len);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Open path and check that it is a single-planar m2m node. */
static int open_node(struct m2m_device **out, const char *path)
{
	struct v4l2_capability cap = { 0 };
	struct m2m_device *dev;
	__u32 caps;
	int ret;

	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return m2m_error(ENOMEM, "m2m_open: out of memory");
	snprintf(dev->info.path, sizeof(dev->info.path), "%s", path);

	dev->fd = open(path, O_RDWR | O_CLOEXEC);
	if (dev->fd < 0) {
		ret = m2m_error(errno, "m2m_open: cannot open %s: %s", path,
				strerror(errno));
		free(dev);
		return ret;
	}

	ret = M2M_IOCTL(dev, VIDIOC_QUERYCAP, &cap);
	if (ret < 0)
		goto err_close;

	caps = cap.capabilities & V4L2_CAP_DEVICE_CAPS ? cap.device_caps :
							 cap.capabilities;
	if (caps & V4L2_CAP_VIDEO_M2M_MPLANE && !(caps & V4L2_CAP_VIDEO_M2M)) {
		ret = m2m_error(ENOTSUP,
				"m2m_open: %s is a multi-planar m2m node, which this "
				"version of libm2m does not drive", path);
		goto err_close;
	}
	if (!(caps & V4L2_CAP_VIDEO_M2M) || !(caps & V4L2_CAP_STREAMING)) {
		ret = m2m_error(ENODEV,
				"m2m_open: %s is not a streaming m2m device "
				"(device caps 0x%08x)", path, caps);
		goto err_close;
	}

	copy_field(dev->info.driver, sizeof(dev->info.driver), cap.driver,
		   sizeof(cap.driver));
	copy_field(dev->info.card, sizeof(dev->info.card), cap.card,
		   sizeof(cap.card));
	copy_field(dev->info.bus_info, sizeof(dev->info.bus_info),
		   cap.bus_info, sizeof(cap.bus_info));
	dev->queues[M2M_QUEUE_OUTPUT].type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	dev->queues[M2M_QUEUE_CAPTURE].type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	ret = handle_add(dev);
	if (ret < 0)
		goto err_close;
	*out = dev;
	return 0;

err_close:
	close(dev->fd);
	free(dev);
	return ret;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

/*
 * Find the first m2m node, in /dev/videoN order, whose driver is name. The
 * nodes are listed from sysfs, which works with or without udev.
 */
static int open_by_driver(struct m2m_device **out, const char *name)
{
	struct dirent **nodes = NULL;
	int n, i, ret = -ENOENT;

	/* No video4linux class at all is just another "not found". */
	n = scandir("/sys/class/video4linux", &nodes, NULL, by_name);
	for (i = 0; i < n; i++) {
		struct m2m_device *dev;
		char path[64];

		if (ret == -ENOENT &&
		    !strncmp(nodes[i]->d_name, "video", 5)) {
			snprintf(path, sizeof(path), "/dev/%.58s",
				 nodes[i]->d_name);
			if (open_node(&dev, path) == 0) {
				if (!strcmp(dev->info.driver, name)) {
					*out = dev;
					ret = 0;
				} else {
					m2m_close(dev);
				}
			}
		}
		free(nodes[i]);
	}
	free(nodes);
	if (ret < 0)
		return m2m_error(ENOENT,
				 "m2m_open: no m2m device with driver \"%s\"",
				 name);
	return 0;
}

int m2m_open(struct m2m_device **out, const char *name)
{
	if (!out)
		return m2m_error(EINVAL, "m2m_open: out is NULL");
	*out = NULL;
	if (!name || !*name)
		return m2m_error(EINVAL, "m2m_open: device name is empty");
	if (strchr(name, '/'))
		return open_node(out, name);
	return open_by_driver(out, name);
}

void m2m_close(struct m2m_device *dev)
{
	if (!dev || !handle_remove(dev))
		return;
	m2m_buffers_release(dev);
	close(dev->fd);
	free(dev);
}

int m2m_device_get_info(struct m2m_device *dev, struct m2m_device_info *info)
{
	M2M_CHECK_DEVICE(dev);
	if (!info)
		return m2m_error(EINVAL, "m2m_device_get_info: info is NULL");
	*info = dev->info;
	return 0;
}
