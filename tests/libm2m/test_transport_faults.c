// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libm2m over a device that says what no device should: the in-process
 * device behind a transport that alters its answers (m2m_open_via()).
 * Each test names the answer it fakes and what libm2m must do with it:
 * refuse it with a message, and touch no memory it does not own.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "m2m-private.h"

static const struct m2m_transport *const real = &m2m_transport_inprocess;

/* QUERYBUF reports this many planes, when not 0. */
static unsigned int fake_planes;
/*
 * QUERYBUF gives OUTPUT buffers this length, when not 0, and mmap() of
 * that length hands out a heap block of it: ASan sees a write past it.
 */
static uint32_t fake_output_length;

/* What libm2m mapped and has not unmapped; on_heap: fake_mmap()'s own. */
#define MAX_MAPPED 64
static void *mapped[MAX_MAPPED];
static bool on_heap[MAX_MAPPED];

static int fake_open(const char *path, int flags)
{
	(void)path;
	return real->open(M2M_INPROCESS_PATH, flags);
}

static int fake_ioctl(int fd, unsigned long request, void *arg)
{
	int ret = real->ioctl(fd, request, arg);

	struct v4l2_buffer *b = arg;

	if (ret || request != VIDIOC_QUERYBUF)
		return ret;
	if (fake_planes)
		b->length = fake_planes;
	if (fake_output_length && V4L2_TYPE_IS_OUTPUT(b->type))
		b->m.planes[0].length = fake_output_length;
	return ret;
}

static void *fake_mmap(void *start, size_t length, int prot, int flags,
		       int fd, int64_t offset)
{
	bool heap = fake_output_length && length == fake_output_length;
	void *p = heap ? malloc(length) :
			 real->mmap(start, length, prot, flags, fd, offset);
	unsigned int i;

	cr_assert_not_null(p);
	for (i = 0; p != MAP_FAILED && i < MAX_MAPPED && mapped[i]; i++)
		;
	cr_assert_lt(i, MAX_MAPPED);
	if (p != MAP_FAILED) {
		mapped[i] = p;
		on_heap[i] = heap;
	}
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
	if (on_heap[i]) {
		free(start);
		return 0;
	}
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
	/* A kernel node's ways: m2m_convert() copies through MMAP buffers. */
	fake.backend = M2M_BACKEND_KERNEL;
	fake.hold = NULL;
	fake.threads = NULL;
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

/*
 * An OUTPUT buffer shorter than the plane m2m_convert() copies in (the
 * kernel path's MMAP copy; the CAPTURE side is checked as it is copied
 * out): refused with a message, nothing written past the buffer.
 */
Test(faults, an_output_buffer_shorter_than_the_plane_is_refused)
{
	uint8_t src[64 * 48 * 2] = { 0 }, dst[sizeof(src)];

	fake_output_length = sizeof(src) / 2;
	cr_assert_eq(m2m_convert(dev, dst, sizeof(dst), src, sizeof(src)),
		     -EIO);
	cr_assert_not_null(strstr(m2m_last_error(), "OUTPUT buffer of 3072 "
				  "bytes"), "%s", m2m_last_error());
	fake_output_length = 0;
}
