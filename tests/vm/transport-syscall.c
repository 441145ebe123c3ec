// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The tests' syscall transport: struct m2m_transport over open(2),
 * ioctl(2), mmap(2) and poll(2), so that a test written against the table
 * runs on a kernel node as on libm2m's in-process device. libm2m's own
 * m2m_transport_syscall does the same for the library; the tests keep
 * theirs so they link nothing of libm2m's but the transport they test.
 */
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <fcntl.h>

#include "transport-syscall.h"

static int sys_open(const char *path, int flags)
{
	return open(path, flags);
}

static int sys_ioctl(int fd, unsigned long request, void *arg)
{
	return ioctl(fd, request, arg);
}

static void *sys_mmap(void *start, size_t length, int prot, int flags, int fd,
		      int64_t offset)
{
	return mmap(start, length, prot, flags, fd, offset);
}

static int sys_poll(int fd, short events, short *revents, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = events };
	int ret = poll(&p, 1, timeout_ms);

	*revents = ret > 0 ? p.revents : 0;
	return ret;
}

static int sys_wait_fd(int fd)
{
	return fd;
}

const struct m2m_transport test_transport_syscall = {
	.name = "syscall",
	.open = sys_open,
	.close = close,
	.ioctl = sys_ioctl,
	.mmap = sys_mmap,
	.munmap = munmap,
	.poll = sys_poll,
	.wait_fd = sys_wait_fd,
};
