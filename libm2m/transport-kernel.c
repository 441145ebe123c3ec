// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Device nodes, reached through the system calls or through libv4l2 (so
 * that libv4l plugins apply). Both give wait_fd() as an epoll fd watching
 * the node for V4L2's three poll bits, created on first use and closed
 * with the node.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef M2M_WITH_LIBV4L2
#include <libv4l2.h>
#endif

#include "m2m-private.h"

/* The epoll fd of each node that asked for one. */
struct wait_entry {
	int fd;
	int epoll_fd;
	struct wait_entry *next;
};

static pthread_mutex_t wait_lock = PTHREAD_MUTEX_INITIALIZER;
static struct wait_entry *wait_fds;

static int node_wait_fd(int fd)
{
	struct epoll_event ev = {
		.events = EPOLLIN | EPOLLOUT | EPOLLPRI,
		.data.fd = fd,
	};
	struct wait_entry *e;
	int ret = -1;

	pthread_mutex_lock(&wait_lock);
	for (e = wait_fds; e && e->fd != fd; e = e->next)
		;
	if (e) {
		ret = e->epoll_fd;
		goto unlock;
	}
	e = malloc(sizeof(*e));
	if (!e) {
		errno = ENOMEM;
		goto unlock;
	}
	e->fd = fd;
	e->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (e->epoll_fd < 0 ||
	    epoll_ctl(e->epoll_fd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		int err = errno;

		if (e->epoll_fd >= 0)
			close(e->epoll_fd);
		free(e);
		errno = err;
		goto unlock;
	}
	e->next = wait_fds;
	wait_fds = e;
	ret = e->epoll_fd;
unlock:
	pthread_mutex_unlock(&wait_lock);
	return ret;
}

static void node_wait_fd_close(int fd)
{
	struct wait_entry **p, *e = NULL;

	pthread_mutex_lock(&wait_lock);
	for (p = &wait_fds; *p; p = &(*p)->next) {
		if ((*p)->fd == fd) {
			e = *p;
			*p = e->next;
			break;
		}
	}
	pthread_mutex_unlock(&wait_lock);
	if (e) {
		close(e->epoll_fd);
		free(e);
	}
}

static int node_poll(int fd, short events, short *revents, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	int n = poll(&pfd, 1, timeout_ms);

	if (n > 0)
		*revents = pfd.revents;
	return n;
}

static int sys_open(const char *path, int flags)
{
	return open(path, flags);
}

static int sys_close(int fd)
{
	node_wait_fd_close(fd);
	return close(fd);
}

static int sys_ioctl(int fd, unsigned long request, void *arg)
{
	return ioctl(fd, request, arg);
}

static void *sys_mmap(void *start, size_t length, int prot, int flags,
		      int fd, int64_t offset)
{
	return mmap(start, length, prot, flags, fd, (off_t)offset);
}

const struct m2m_transport m2m_transport_syscall = {
	.name = "syscall",
	.open = sys_open,
	.close = sys_close,
	.ioctl = sys_ioctl,
	.mmap = sys_mmap,
	.munmap = munmap,
	.poll = node_poll,
	.wait_fd = node_wait_fd,
};

#ifdef M2M_WITH_LIBV4L2
/*
 * libv4l2 prints to stderr when a node is not what it expects (its
 * plugins too), and the library must not print: the node is checked with
 * the system calls before libv4l2 sees it. For m2m nodes, libv4l2 1.22
 * loads its plugins and otherwise passes the calls through (it converts
 * formats for capture devices only).
 */
static int v4l2_open_node(const char *path, int flags)
{
	struct v4l2_capability cap;
	int fd = open(path, flags);
	int err;

	if (fd < 0)
		return -1;
	if (ioctl(fd, VIDIOC_QUERYCAP, &cap) == 0 &&
	    v4l2_fd_open(fd, 0) == fd)
		return fd;
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

static int v4l2_close_node(int fd)
{
	node_wait_fd_close(fd);
	return v4l2_close(fd);
}

static int v4l2_ioctl_node(int fd, unsigned long request, void *arg)
{
	return v4l2_ioctl(fd, request, arg);
}

const struct m2m_transport m2m_transport_libv4l2 = {
	.name = "libv4l2",
	.open = v4l2_open_node,
	.close = v4l2_close_node,
	.ioctl = v4l2_ioctl_node,
	.mmap = v4l2_mmap,
	.munmap = v4l2_munmap,
	.poll = node_poll,
	.wait_fd = node_wait_fd,
};
#endif
