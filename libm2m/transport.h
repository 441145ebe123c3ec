/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * How libm2m reaches a device: a table of the few calls V4L2 needs, as
 * v4l-utils' v4l-helpers.h does it, so that one implementation of the API
 * runs on any of them:
 *
 * - m2m_transport_libv4l2: libv4l2's v4l2_open/v4l2_ioctl/v4l2_mmap, so that
 *   libv4l plugins apply (the default build; -DM2M_WITH_LIBV4L2=OFF drops
 *   it);
 * - m2m_transport_syscall: open(2), ioctl(2), mmap(2) directly;
 * - m2m_transport_inprocess: a V4L2 m2m device emulated in this process
 *   over the HQV engine (libm2m/inprocess/). It behaves as vhqv's
 *   multi-planar node does: same formats, controls, rectangles, events and
 *   bytes.
 *
 * Every call has its POSIX counterpart's contract: -1 (MAP_FAILED for mmap)
 * with errno set on failure. poll() has V4L2's meaning of the bits: POLLIN
 * when a CAPTURE buffer can be dequeued, POLLOUT when an OUTPUT buffer can,
 * POLLPRI when an event is pending, POLLERR when nothing can arrive.
 */
#ifndef M2M_TRANSPORT_H
#define M2M_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <m2m/m2m.h>

/* What a transport's hold holds (below). */
enum m2m_tp_hold {
	M2M_TP_HOLD_JOBS = 1 << 0,
	M2M_TP_HOLD_MEMORY = 1 << 1,
};

struct m2m_transport {
	const char *name;
	int (*open)(const char *path, int flags);
	int (*close)(int fd);
	int (*ioctl)(int fd, unsigned long request, void *arg);
	void *(*mmap)(void *start, size_t length, int prot, int flags, int fd,
		      int64_t offset);
	int (*munmap)(void *start, size_t length);
	/* events: POLLIN | POLLOUT | POLLPRI; returns 1 with *revents set,
	 * 0 on timeout (timeout_ms < 0 waits forever), -1 with errno;
	 * -1 with ECANCELED once interrupt(fd) was called; -1 with EINTR
	 * when the wait made a frame itself (the in-process device) and a
	 * signal that asks the process to stop (SIGINT, SIGQUIT, SIGHUP,
	 * SIGTERM) reached it: the frame was abandoned, its buffers come
	 * back flagged ERROR. Other signals' handlers do not end it. */
	int (*poll)(int fd, short events, short *revents, int timeout_ms);
	/*
	 * End every poll() on fd, those waiting now and those to come, with
	 * ECANCELED, until close(fd): another thread is closing the device
	 * (a close(2) of the fd would leave a poll(2) in progress waiting).
	 * A frame the device is making is abandoned at its next band (the
	 * in-process device). Safe to call while other threads use fd.
	 */
	int (*interrupt)(int fd);
	/*
	 * An fd that is readable (POLLIN) while poll() would report any of
	 * POLLIN, POLLOUT, POLLPRI or POLLERR, for applications' event loops;
	 * owned by the transport and closed by close(fd).
	 */
	int (*wait_fd)(int fd);
	/* Where the device runs: the info m2m_get_info() reports. */
	enum m2m_backend backend;
	/*
	 * What only some transports do; NULL where the device decides alone
	 * (a kernel node). The library asks for behaviour through these, not
	 * by which transport it holds.
	 *
	 * threads: the threads the device's frames are split across (0: one
	 * per online CPU), from its next job on; a job running ends first.
	 *
	 * hold: what (enum m2m_tp_hold, or-ed) from now (on true) until the
	 * caller is done (false); holds are counted. M2M_TP_HOLD_JOBS: the
	 * caller will wait for its jobs in libm2m, so the device leaves each
	 * job to a wait rather than to a thread of its own
	 * (m2m_hold_jobs()). M2M_TP_HOLD_MEMORY: USERPTR memory queued is
	 * used where it is, unchecked, as the caller keeps it valid until it
	 * is done. m2m_convert() holds both and hands a transport with hold
	 * the caller's memory in place (USERPTR) instead of copying it
	 * through MMAP buffers.
	 *
	 * userptr_mapped: the application keeps USERPTR memory mapped while
	 * it is queued (M2M_OPEN_USERPTR_MAPPED): the device uses it where it
	 * is, as it does under hold.
	 */
	int (*threads)(int fd, unsigned int threads);
	int (*hold)(int fd, unsigned int what, bool hold);
	int (*userptr_mapped)(int fd);
};

extern const struct m2m_transport m2m_transport_syscall;
#ifdef M2M_WITH_LIBV4L2
extern const struct m2m_transport m2m_transport_libv4l2;
#endif
extern const struct m2m_transport m2m_transport_inprocess;

/* The name m2m_open() takes for the in-process device. */
#define M2M_INPROCESS_PATH "inprocess"

#endif /* M2M_TRANSPORT_H */
