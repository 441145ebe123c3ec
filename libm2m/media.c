// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The media controller side of a video node: finding the media device a
 * node belongs to, and the requests of the request API
 * (Documentation/userspace-api/media/mediactl/request-api.rst) that a
 * stateless decoder queues its frames in.
 *
 * The media device is matched by device number, never by name or by
 * "/dev/media0": several drivers (vicodec, vim2m, vhqv) may each register
 * one, and one media device may hold several video nodes. Its topology
 * lists an interface per video node (MEDIA_INTF_T_V4L_VIDEO, which
 * v4l2-mem2mem creates) with the node's major and minor.
 *
 * Media fds are plain fds: no libv4l2 and no transport, which are keyed
 * to the video node's fd. Only a kernel node has a media device.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/media.h>

#include "m2m-private.h"

static int media_ioctl(int fd, unsigned long request, void *arg)
{
	int ret;

	do
		ret = ioctl(fd, request, arg);
	while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : 0;
}

/*
 * Whether the media device at fd has a video interface for the device
 * number rdev: MEDIA_IOC_G_TOPOLOGY, first for the count of interfaces
 * (the kernel counts when the pointer is 0), then for them; again from
 * the start if the topology changed between the two.
 */
static bool has_video_node(int fd, dev_t rdev)
{
	struct media_v2_interface *intf = NULL;
	struct media_v2_topology topo;
	bool found = false;
	int tries, ret = -EAGAIN;
	uint32_t i;

	for (tries = 0; tries < 4 && ret == -EAGAIN; tries++) {
		uint64_t version;

		memset(&topo, 0, sizeof(topo));
		if (media_ioctl(fd, MEDIA_IOC_G_TOPOLOGY, &topo) < 0)
			break;
		version = topo.topology_version;
		free(intf);
		intf = calloc(topo.num_interfaces + 1, sizeof(*intf));
		if (!intf)
			break;
		topo.ptr_interfaces = (uintptr_t)intf;
		ret = media_ioctl(fd, MEDIA_IOC_G_TOPOLOGY, &topo);
		if (ret == -ENOSPC || (ret == 0 &&
				       topo.topology_version != version))
			ret = -EAGAIN;
	}
	for (i = 0; ret == 0 && i < topo.num_interfaces && !found; i++)
		found = intf[i].intf_type == MEDIA_INTF_T_V4L_VIDEO &&
			intf[i].devnode.major == major(rdev) &&
			intf[i].devnode.minor == minor(rdev);
	free(intf);
	return found;
}

/* Open path and keep it when it is the media device of rdev: its fd. */
static int try_media(const char *path, dev_t rdev)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (has_video_node(fd, rdev))
		return fd;
	close(fd);
	return -1;
}

/*
 * The media nodes in dir whose names start with "media", tried in turn:
 * the first that holds rdev, or -1.
 */
static int search_dir(const char *dir, const char *prefix, dev_t rdev)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int fd = -1;

	if (!d)
		return -1;
	while (fd < 0 && (e = readdir(d))) {
		char path[512];

		if (strncmp(e->d_name, "media", 5))
			continue;
		snprintf(path, sizeof(path), "%s%s", prefix, e->d_name);
		fd = try_media(path, rdev);
	}
	closedir(d);
	return fd;
}

/* MEDIA_IOC_DEVICE_INFO, logged; its bus_info must be the node's. */
static int check_info(struct m2m_device *dev, int fd)
{
	struct media_device_info info;
	int ret = media_ioctl(fd, MEDIA_IOC_DEVICE_INFO, &info);

	if (ret < 0)
		return m2m_error(-ret, "MEDIA_IOC_DEVICE_INFO for %s: %s",
				 dev->info.path, strerror(-ret));
	m2m_log(M2M_LOG_DEBUG, "%s: media device \"%s\" (%s, %s)",
		dev->info.path, info.model, info.driver, info.bus_info);
	if (strncmp(info.bus_info, dev->info.bus_info, sizeof(info.bus_info)))
		return m2m_error(ENODEV, "%s: its media device is on bus "
				 "\"%s\", the node on \"%s\"", dev->info.path,
				 info.bus_info, dev->info.bus_info);
	return 0;
}

int m2m_media_open_for(struct m2m_device *dev, int *media_fd)
{
	char dir[128];
	struct stat st;
	int fd, ret;

	M2M_ENTER(dev);
	*media_fd = -1;
	if (dev->tp->backend != M2M_BACKEND_KERNEL)
		return m2m_leave(dev, m2m_error(ENODEV, "%s: an in-process "
				 "device has no media device", dev->info.path));
	if (fstat(dev->fd, &st) < 0 || !S_ISCHR(st.st_mode))
		return m2m_leave(dev, m2m_error(ENODEV, "%s: not a character "
				 "device", dev->info.path));
	/* The siblings of the node's device first, as v4l2-ctl looks. */
	snprintf(dir, sizeof(dir), "/sys/dev/char/%u:%u/device",
		 major(st.st_rdev), minor(st.st_rdev));
	fd = search_dir(dir, "/dev/", st.st_rdev);
	if (fd < 0)
		fd = search_dir("/dev", "/dev/", st.st_rdev);
	if (fd < 0)
		return m2m_leave(dev, m2m_error(ENODEV, "%s: no media device "
				 "lists it", dev->info.path));
	ret = check_info(dev, fd);
	if (ret < 0)
		close(fd);
	else
		*media_fd = fd;
	return m2m_leave(dev, ret);
}

int m2m_media_request_alloc(int media_fd, int *req_fd)
{
	int ret = media_ioctl(media_fd, MEDIA_IOC_REQUEST_ALLOC, req_fd);

	if (ret == -ENOTTY)
		return m2m_error(ENOTTY, "MEDIA_IOC_REQUEST_ALLOC: the media "
				 "device does not support requests");
	if (ret < 0)
		return m2m_error(-ret, "MEDIA_IOC_REQUEST_ALLOC: %s",
				 strerror(-ret));
	return 0;
}

int m2m_media_request_queue(int req_fd)
{
	int ret = media_ioctl(req_fd, MEDIA_REQUEST_IOC_QUEUE, NULL);

	return ret < 0 ? m2m_error(-ret, "MEDIA_REQUEST_IOC_QUEUE: %s",
				   strerror(-ret)) : 0;
}

int m2m_media_request_reinit(int req_fd)
{
	int ret = media_ioctl(req_fd, MEDIA_REQUEST_IOC_REINIT, NULL);

	return ret < 0 ? m2m_error(-ret, "MEDIA_REQUEST_IOC_REINIT: %s",
				   strerror(-ret)) : 0;
}

int m2m_media_request_wait(int req_fd, int timeout_ms)
{
	/* A request reports completion as POLLPRI, and nothing else. */
	struct pollfd p = { .fd = req_fd, .events = POLLPRI };
	int n;

	do
		n = poll(&p, 1, timeout_ms);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return m2m_error(errno, "poll of a media request: %s",
				 strerror(errno));
	if (n && (p.revents & POLLERR))
		return m2m_error(EINVAL, "poll of a media request: it was "
				 "never queued");
	return n ? 1 : 0;
}
