// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * USERPTR memory in the in-process device's jobs. vb2 pins a USERPTR
 * buffer's pages at QBUF, so that the application unmapping them while
 * the buffer is queued cannot fault the driver; a process cannot pin its
 * own pages. So a job runs on the context's own copy of such memory: the
 * OUTPUT frame copied in before the engine runs, the CAPTURE frame copied
 * out after (and in before when its lines are padded, as the engine
 * leaves padding as it was), through process_vm_readv() and
 * process_vm_writev() on this process, which fail with EFAULT where
 * memcpy() would fault. The frame whose memory is gone comes back with
 * V4L2_BUF_FLAG_ERROR, and the device goes on. (Checking the mappings
 * when the job starts would still race with an munmap() while it runs,
 * and a SIGSEGV handler is not a library's to set.)
 *
 * m2m_convert()'s memory is its caller's src and dst, which the call
 * waits on for as long as the job runs (the transport's hold): it is
 * used where it is, at no copy. So is the memory of an application that
 * promised to keep it mapped while it is queued (M2M_OPEN_USERPTR_MAPPED).
 */
#include <errno.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "inprocess.h"

/* Each plane's copy starts at a multiple of this, as rows like it. */
#define COPY_ALIGN 64

static size_t copy_align(size_t n)
{
	return (n + COPY_ALIGN - 1) & ~(size_t)(COPY_ALIGN - 1);
}

/*
 * Whether the engine writes every byte of a CAPTURE frame (compose's
 * outside too, with the background): each line as long as its samples,
 * and each memory plane its colour planes' lines, nothing more.
 */
static bool written_whole(const struct vhqv_q_data *q)
{
	const struct hqv_format *fmt = q->fmt;
	uint64_t bytes[VIDEO_MAX_PLANES] = { 0 };
	unsigned int p;

	for (p = 0; p < fmt->num_planes; p++) {
		uint32_t line = hqv_plane_line_bytes(fmt, p, q->width);

		if (q->bytesperline[p] != line)
			return false;
		bytes[fmt->mem_planes == 1 ? 0 : p] +=
			(uint64_t)line * hqv_plane_lines(fmt, p, q->height);
	}
	for (p = 0; p < fmt->mem_planes; p++)
		if (q->sizeimage[p] != bytes[p])
			return false;
	return true;
}

bool ip_job_planes(struct ip_ctx *ctx, unsigned int queue,
		   const struct ip_buffer *buf, const struct vhqv_q_data *q,
		   uint8_t *mem[], size_t size[])
{
	struct ip_copy *c = &ctx->copy[queue];
	size_t total = 0;
	unsigned int p;

	c->planes = 0;
	for (p = 0; p < buf->num_planes; p++) {
		mem[p] = buf->planes[p].addr;
		size[p] = buf->planes[p].length;
	}
	if (ctx->q[queue].memory != V4L2_MEMORY_USERPTR || ctx->held ||
	    ctx->userptr_mapped)
		return true;
	/* What the engine touches: a frame, after OUTPUT's data_offset. */
	for (p = 0; p < buf->num_planes; p++) {
		c->offset[p] = total;
		c->len[p] = q->sizeimage[p];
		if (queue == VHQV_SRC)
			c->len[p] += buf->planes[p].data_offset;
		total += copy_align(c->len[p]);
	}
	if (!ip_reserve(&c->mem, &c->size, total))
		return false;
	for (p = 0; p < buf->num_planes; p++) {
		mem[p] = (uint8_t *)c->mem + c->offset[p];
		size[p] = c->len[p];
	}
	c->planes = buf->num_planes;
	c->read_in = queue == VHQV_SRC || !written_whole(q);
	return true;
}

/*
 * Copy len bytes between this process's memory and its copy, true when
 * all were. A seccomp filter may refuse the calls (EPERM, ENOSYS): the
 * memory is then copied as it is, at its own risk, as before.
 */
static bool copy_user(void *copy, void *user, size_t len, bool out)
{
	struct iovec local = { copy, len }, remote = { user, len };
	ssize_t n;

	if (out)
		n = process_vm_writev(getpid(), &local, 1, &remote, 1, 0);
	else
		n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
	if (n < 0 && (errno == EPERM || errno == ENOSYS)) {
		memcpy(out ? user : copy, out ? copy : user, len);
		return true;
	}
	return n == (ssize_t)len;
}

bool ip_job_copy(struct ip_ctx *ctx, unsigned int queue,
		 const struct ip_buffer *buf, bool out)
{
	const struct ip_copy *c = &ctx->copy[queue];
	unsigned int p;

	if (!out && !c->read_in)
		return true;
	for (p = 0; p < c->planes; p++)
		if (!copy_user((uint8_t *)c->mem + c->offset[p],
			       buf->planes[p].addr, c->len[p], out))
			return false;
	return true;
}
