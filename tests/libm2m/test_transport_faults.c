// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libm2m over a device that says what no device should: the in-process
 * device behind a transport that alters its answers (m2m_open_via()).
 * Each test names the answer it fakes and what libm2m must do with it:
 * refuse it with a message, and touch no memory it does not own.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "m2m-private.h"

static const struct m2m_transport *const real = &m2m_transport_inprocess;

/* QUERYBUF reports this many planes, when not 0. */
static unsigned int fake_planes;

/* What libm2m mapped and has not unmapped. */
#define MAX_MAPPED 64
static void *mapped[MAX_MAPPED];

static int fake_open(const char *path, int flags)
{
	(void)path;
	return real->open(M2M_INPROCESS_PATH, flags);
}

static int fake_ioctl(int fd, unsigned long request, void *arg)
{
	int ret = real->ioctl(fd, request, arg);

	if (ret == 0 && request == VIDIOC_QUERYBUF && fake_planes)
		((struct v4l2_buffer *)arg)->length = fake_planes;
	return ret;
}

static void *fake_mmap(void *start, size_t length, int prot, int flags,
		       int fd, int64_t offset)
{
	void *p = real->mmap(start, length, prot, flags, fd, offset);
	unsigned int i;

	for (i = 0; p != MAP_FAILED && i < MAX_MAPPED && mapped[i]; i++)
		;
	cr_assert_lt(i, MAX_MAPPED);
	if (p != MAP_FAILED)
		mapped[i] = p;
	return p;
}

static int fake_munmap(void *start, size_t length)
{
	unsigned int i;

	for (i = 0; i < MAX_MAPPED && mapped[i] != start; i++)
		;
	cr_assert_lt(i, MAX_MAPPED, "libm2m unmapped %p, which it never "
		     "mapped", start);
	mapped[i] = NULL;
	return real->munmap(start, length);
}

/* The in-process device's table, with the calls above. */
static struct m2m_transport fake;
static struct m2m_device *dev;

static void open_fake(void)
{
	struct m2m_format f;

	fake = *real;
	fake.name = "fake";
	fake.open = fake_open;
	fake.ioctl = fake_ioctl;
	fake.mmap = fake_mmap;
	fake.munmap = fake_munmap;
	cr_assert_eq(m2m_open_via(&dev, "fake", &fake, 0), 0, "%s",
		     m2m_last_error());
	cr_assert_eq(m2m_format_init(&f, M2M_FOURCC('Y', 'U', 'Y', 'V'), 64,
				     48), 0);
	cr_assert_eq(m2m_set_format(dev, &f, M2M_QUEUE_OUTPUT), 0);
}

static void close_fake(void)
{
	m2m_close(dev);
	for (unsigned int i = 0; i < MAX_MAPPED; i++)
		cr_assert_null(mapped[i], "%p is still mapped after close",
			       mapped[i]);
}

TestSuite(faults, .init = open_fake, .fini = close_fake);

/*
 * More planes than struct m2m_buffer has room for: refused before any is
 * recorded, so that freeing the buffers walks only the planes that are.
 */
Test(faults, a_buffer_of_more_planes_than_libm2m_handles_is_refused)
{
	fake_planes = M2M_MAX_PLANES + 1;
	cr_assert_eq(m2m_alloc_buffers(dev, M2M_QUEUE_OUTPUT, M2M_MEMORY_MMAP,
				       2), -ENOTSUP);
	cr_assert_not_null(strstr(m2m_last_error(), "4 planes"), "%s",
			   m2m_last_error());
	cr_assert_eq(m2m_buffer_count(dev, M2M_QUEUE_OUTPUT), 0);

	fake_planes = 0;
	cr_assert_eq(m2m_alloc_buffers(dev, M2M_QUEUE_OUTPUT, M2M_MEMORY_MMAP,
				       2), 2, "%s", m2m_last_error());
	cr_assert_not_null(mapped[0]);
}
