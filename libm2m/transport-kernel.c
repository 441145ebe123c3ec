// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Device nodes, reached through the system calls or through libv4l2 (so
 * that libv4l plugins apply). Each node opened has an eventfd that
 * interrupt() makes readable, which poll() watches beside the node; and,
 * for wait_fd(), an epoll fd watching the node for V4L2's three poll bits,
 * created on first use. Both are closed with the node.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef M2M_WITH_LIBV4L2
#include <libv4l2.h>
#endif

#include "m2m-private.h"

/* What each open node has besides its fd. */
struct node {
	int fd;
	int wake_fd;	/* readable once interrupt() was called */
	int epoll_fd;	/* wait_fd(), or -1 until asked for */
	struct node *next;
};

static pthread_mutex_t nodes_lock = PTHREAD_MUTEX_INITIALIZER;
static struct node *nodes;

/* With nodes_lock held. */
static struct node *node_find(int fd)
{
	struct node *n;

	for (n = nodes; n && n->fd != fd; n = n->next)
		;
	return n;
}

/* A node was opened: give it its eventfd. 0, or -1 with errno. */
static int node_add(int fd)
{
	struct node *n = malloc(sizeof(*n));
	int err = ENOMEM;

	if (n) {
		n->fd = fd;
		n->epoll_fd = -1;
		n->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		err = errno;
	}
	if (!n || n->wake_fd < 0) {
		free(n);
		errno = err;
		return -1;
	}
	pthread_mutex_lock(&nodes_lock);
	n->next = nodes;
	nodes = n;
	pthread_mutex_unlock(&nodes_lock);
	return 0;
}

static void node_remove(int fd)
{
	struct node **p, *n = NULL;

	pthread_mutex_lock(&nodes_lock);
	for (p = &nodes; *p; p = &(*p)->next) {
		if ((*p)->fd == fd) {
			n = *p;
			*p = n->next;
			break;
		}
	}
	pthread_mutex_unlock(&nodes_lock);
	if (!n)
		return;
	if (n->epoll_fd >= 0)
		close(n->epoll_fd);
	close(n->wake_fd);
	free(n);
}

static int node_wait_fd(int fd)
{
	struct epoll_event ev = {
		.events = EPOLLIN | EPOLLOUT | EPOLLPRI,
		.data.fd = fd,
	};
	struct node *n;
	int ret = -1;

	pthread_mutex_lock(&nodes_lock);
	n = node_find(fd);
	if (!n) {
		errno = EBADF;
		goto unlock;
	}
	if (n->epoll_fd < 0) {
		int epoll_fd = epoll_create1(EPOLL_CLOEXEC);

		if (epoll_fd >= 0 &&
		    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &ev) < 0) {
			int err = errno;

			close(epoll_fd);
			errno = err;
			epoll_fd = -1;
		}
		n->epoll_fd = epoll_fd;
	}
	ret = n->epoll_fd;
unlock:
	pthread_mutex_unlock(&nodes_lock);
	return ret;
}

static int node_wake_fd(int fd)
{
	struct node *n;
	int wake_fd;

	pthread_mutex_lock(&nodes_lock);
	n = node_find(fd);
	wake_fd = n ? n->wake_fd : -1;
	pthread_mutex_unlock(&nodes_lock);
	return wake_fd;
}

/* A signal's handler does not end the wait: the node's frame goes on. */
static int node_poll(int fd, short events, short *revents, int timeout_ms)
{
	struct pollfd pfd[2] = {
		{ .fd = fd, .events = events },
		{ .fd = node_wake_fd(fd), .events = POLLIN },
	};
	int n;

	do
		n = poll(pfd, 2, timeout_ms);
	while (n < 0 && errno == EINTR);

	if (n > 0 && pfd[1].revents) {
		errno = ECANCELED;
		return -1;
	}
	if (n > 0)
		*revents = pfd[0].revents;
	return n;
}

/* The eventfd is never read: once interrupted, every poll ends. */
static int node_interrupt(int fd)
{
	uint64_t one = 1;
	int wake_fd = node_wake_fd(fd);

	if (wake_fd < 0) {
		errno = EBADF;
		return -1;
	}
	return write(wake_fd, &one, sizeof(one)) == sizeof(one) ? 0 : -1;
}

static int sys_open(const char *path, int flags)
{
	int fd = open(path, flags);
	int err;

	if (fd < 0 || node_add(fd) == 0)
		return fd;
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

static int sys_close(int fd)
{
	node_remove(fd);
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
	.interrupt = node_interrupt,
	.wait_fd = node_wait_fd,
	.backend = M2M_BACKEND_KERNEL,
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
	if (ioctl(fd, VIDIOC_QUERYCAP, &cap) < 0 || v4l2_fd_open(fd, 0) != fd)
		goto err_close;
	if (node_add(fd) == 0)
		return fd;
	err = errno;
	v4l2_close(fd);
	errno = err;
	return -1;
err_close:
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

static int v4l2_close_node(int fd)
{
	node_remove(fd);
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
	.interrupt = node_interrupt,
	.wait_fd = node_wait_fd,
	.backend = M2M_BACKEND_KERNEL,
};
#endif
