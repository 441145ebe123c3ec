// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The in-process device's buffers and queues, as videobuf2 and
 * v4l2-mem2mem keep them for vhqv: REQBUFS, CREATE_BUFS, QUERYBUF, QBUF,
 * DQBUF, EXPBUF, STREAMON, STREAMOFF and mmap, with vb2's checks and
 * error codes, and vhqv's (vhqv-run.c: queue_setup, buf_out_validate,
 * buf_prepare).
 *
 * Memory: an MMAP plane is a memfd, so that EXPBUF can hand out a dup of
 * it and mmap() maps it; mmap offsets are vb2's (CAPTURE's from
 * IP_DST_OFFSET_BASE, as v4l2-mem2mem has them). A job copies a USERPTR
 * plane in and out (userptr.c); a DMABUF plane is mapped from the fd
 * given, which works for memfds and for dma-bufs that support mmap.
 * Memory a job could not read (OUTPUT) or write (CAPTURE) is refused at
 * QBUF with EFAULT, as vb2 refuses memory it cannot pin.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inprocess.h"

static size_t page_align(size_t n)
{
	size_t page = sysconf(_SC_PAGESIZE);

	return (n + page - 1) / page * page;
}

static bool memory_ok(uint32_t memory)
{
	return memory == V4L2_MEMORY_MMAP || memory == V4L2_MEMORY_USERPTR ||
	       memory == V4L2_MEMORY_DMABUF;
}

static uint32_t buffer_caps(void)
{
	return V4L2_BUF_CAP_SUPPORTS_MMAP | V4L2_BUF_CAP_SUPPORTS_USERPTR |
	       V4L2_BUF_CAP_SUPPORTS_DMABUF |
	       V4L2_BUF_CAP_SUPPORTS_ORPHANED_BUFS;
}

/*
 * vhqv_queue_setup(): buffers are sized from the queue's format (or, for
 * CREATE_BUFS, at least that), MMAP planes 2 bytes at least, and MMAP
 * memory is held to the cap before anything is allocated.
 */
static int queue_setup(struct ip_ctx *ctx, unsigned int queue,
		       unsigned int count, uint32_t memory,
		       unsigned int *nplanes, uint32_t sizes[])
{
	const struct vhqv_q_data *q = &vhqv_state_writable(&ctx->st)->q[queue];
	uint64_t per_buffer = 0;
	unsigned int p;

	if (*nplanes) {
		if (*nplanes != q->fmt->mem_planes)
			return -EINVAL;
		for (p = 0; p < *nplanes; p++)
			if (sizes[p] < q->sizeimage[p])
				return -EINVAL;
	} else {
		*nplanes = q->fmt->mem_planes;
		for (p = 0; p < *nplanes; p++)
			sizes[p] = q->sizeimage[p];
	}
	for (p = 0; p < *nplanes; p++) {
		sizes[p] = vhqv_plane_length(memory, sizes[p]);
		per_buffer += page_align(sizes[p]);
	}
	if (memory == V4L2_MEMORY_MMAP &&
	    per_buffer * count + ctx->q[VHQV_SRC].mem_bytes +
	    ctx->q[VHQV_DST].mem_bytes > IP_CTX_MEM_BYTES)
		return -ENOMEM;
	return 0;
}

static void plane_release(struct ip_plane *pl)
{
	if (pl->fd >= 0 && pl->addr)
		munmap(pl->addr, pl->map_len);
	if (pl->fd >= 0)
		close(pl->fd);
	pl->fd = -1;
	pl->addr = NULL;
	pl->map_len = 0;
}

/* vb2's offsets: each plane page-aligned after the one before. */
static uint32_t next_offset(const struct ip_queue *q)
{
	const struct ip_buffer *prev;
	const struct ip_plane *last;

	if (!q->num_buffers)
		return 0;
	prev = &q->bufs[q->num_buffers - 1];
	last = &prev->planes[prev->num_planes - 1];
	return page_align((size_t)last->mem_offset + last->length);
}

static int mmap_plane_alloc(struct ip_plane *pl, uint32_t size)
{
	size_t len = page_align(size);

	pl->fd = memfd_create("vhqv-buffer", MFD_CLOEXEC);
	if (pl->fd < 0)
		return -errno;
	if (ftruncate(pl->fd, len))
		goto err;
	pl->addr = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, pl->fd,
			0);
	if (pl->addr == MAP_FAILED) {
		pl->addr = NULL;
		goto err;
	}
	pl->map_len = len;
	return 0;
err:
	plane_release(pl);
	return -ENOMEM;
}

/* Add a buffer to a queue; false when its memory cannot be had. */
static bool buffer_add(struct ip_ctx *ctx, struct ip_queue *q,
		       unsigned int nplanes, const uint32_t sizes[])
{
	struct ip_buffer *buf = &q->bufs[q->num_buffers];
	uint32_t offset = next_offset(q);
	unsigned int p;

	memset(buf, 0, sizeof(*buf));
	buf->index = q->num_buffers;
	buf->num_planes = nplanes;
	buf->field = V4L2_FIELD_NONE;
	for (p = 0; p < nplanes; p++) {
		struct ip_plane *pl = &buf->planes[p];

		pl->fd = -1;
		pl->dmabuf_fd = -1;
		pl->length = sizes[p];
		pl->min_length = sizes[p];
		pl->mem_offset = offset;
		offset = page_align((size_t)offset + sizes[p]);
		if (q->memory != V4L2_MEMORY_MMAP)
			continue;
		if (mmap_plane_alloc(pl, sizes[p])) {
			while (p--)
				plane_release(&buf->planes[p]);
			return false;
		}
		q->mem_bytes += page_align(sizes[p]);
	}
	q->num_buffers++;
	return true;
}

/*
 * Buffers go with their memory. MMAP planes the application still has
 * mapped stay valid (vb2's orphaned buffers): a memfd lives as long as a
 * mapping of it.
 */
static void queue_free(struct ip_queue *q)
{
	unsigned int i, p;

	for (i = 0; i < q->num_buffers; i++)
		for (p = 0; p < q->bufs[i].num_planes; p++)
			plane_release(&q->bufs[i].planes[p]);
	q->num_buffers = 0;
	q->memory = 0;
	q->mem_bytes = 0;
	q->n_queued = 0;
	q->n_ready = 0;
	q->n_done = 0;
}

void ip_buffers_free(struct ip_ctx *ctx)
{
	queue_free(&ctx->q[VHQV_SRC]);
	queue_free(&ctx->q[VHQV_DST]);
}

int ip_reqbufs(struct ip_ctx *ctx, struct v4l2_requestbuffers *req)
{
	uint32_t sizes[VIDEO_MAX_PLANES];
	unsigned int nplanes = 0, count, queue;
	struct ip_queue *q;
	int ret;

	if (!ip_type_ok(req->type) || !memory_ok(req->memory))
		return -EINVAL;
	queue = ip_queue_of(req->type);
	q = &ctx->q[queue];
	req->capabilities = buffer_caps();
	req->flags = 0;
	memset(req->reserved, 0, sizeof(req->reserved));
	if (q->streaming)
		return -EBUSY;
	queue_free(q);
	if (!req->count)
		return 0;

	count = req->count < IP_MAX_BUFFERS ? req->count : IP_MAX_BUFFERS;
	ret = queue_setup(ctx, queue, count, req->memory, &nplanes, sizes);
	if (ret)
		return ret;
	q->memory = req->memory;
	while (q->num_buffers < count && buffer_add(ctx, q, nplanes, sizes))
		;
	if (!q->num_buffers) {
		q->memory = 0;
		return -ENOMEM;
	}
	req->count = q->num_buffers;
	return 0;
}

int ip_create_bufs(struct ip_ctx *ctx, struct v4l2_create_buffers *cb)
{
	const struct v4l2_pix_format_mplane *pix = &cb->format.fmt.pix_mp;
	uint32_t sizes[VIDEO_MAX_PLANES];
	unsigned int nplanes, count, p, queue;
	struct ip_queue *q;
	int ret;

	if (!ip_type_ok(cb->format.type) || !memory_ok(cb->memory))
		return -EINVAL;
	queue = ip_queue_of(cb->format.type);
	q = &ctx->q[queue];
	cb->capabilities = buffer_caps();
	cb->flags = 0;
	memset(cb->reserved, 0, sizeof(cb->reserved));
	cb->index = q->num_buffers;
	if (q->num_buffers && q->memory != cb->memory)
		return -EINVAL;
	if (!cb->count)
		return 0;
	if (q->num_buffers == IP_MAX_BUFFERS)
		return -ENOBUFS;

	nplanes = pix->num_planes;
	if (!nplanes || nplanes > VIDEO_MAX_PLANES)
		return -EINVAL;
	for (p = 0; p < nplanes; p++)
		sizes[p] = pix->plane_fmt[p].sizeimage;
	count = cb->count;
	if (count > IP_MAX_BUFFERS - q->num_buffers)
		count = IP_MAX_BUFFERS - q->num_buffers;
	ret = queue_setup(ctx, queue, count, cb->memory, &nplanes, sizes);
	if (ret)
		return ret;
	q->memory = cb->memory;
	count += q->num_buffers;
	while (q->num_buffers < count && buffer_add(ctx, q, nplanes, sizes))
		;
	cb->count = q->num_buffers - cb->index;
	if (!cb->count && !cb->index)
		q->memory = 0;
	return cb->count ? 0 : -ENOMEM;
}

/* The flags vb2 reports: the buffer's own, its state's, the timestamps'. */
static uint32_t buffer_flags(const struct ip_buffer *buf)
{
	uint32_t flags = buf->flags | V4L2_BUF_FLAG_TIMESTAMP_COPY;

	switch (buf->state) {
	case IP_BUF_QUEUED:
	case IP_BUF_ACTIVE:
		flags |= V4L2_BUF_FLAG_QUEUED;
		break;
	case IP_BUF_DONE:
		flags |= V4L2_BUF_FLAG_DONE;
		if (buf->error)
			flags |= V4L2_BUF_FLAG_ERROR;
		break;
	case IP_BUF_DEQUEUED:
		break;
	}
	return flags;
}

static void fill_buffer(const struct ip_queue *q, const struct ip_buffer *buf,
			struct v4l2_buffer *b)
{
	struct v4l2_plane *planes = b->m.planes;
	unsigned int p;

	b->index = buf->index;
	b->type = q->type;
	b->memory = q->memory;
	b->bytesused = 0;
	b->flags = buffer_flags(buf);
	b->field = buf->field;
	b->timestamp = buf->timestamp;
	b->timecode = buf->timecode;
	b->sequence = buf->sequence;
	b->length = buf->num_planes;
	b->reserved2 = 0;
	b->request_fd = 0;
	for (p = 0; p < buf->num_planes; p++) {
		const struct ip_plane *pl = &buf->planes[p];

		memset(&planes[p], 0, sizeof(planes[p]));
		planes[p].bytesused = pl->bytesused;
		planes[p].length = pl->length;
		planes[p].data_offset = pl->data_offset;
		if (q->memory == V4L2_MEMORY_MMAP)
			planes[p].m.mem_offset = pl->mem_offset +
				(q->type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE ?
				 IP_DST_OFFSET_BASE : 0);
		else if (q->memory == V4L2_MEMORY_USERPTR)
			planes[p].m.userptr = pl->userptr;
		else
			planes[p].m.fd = pl->dmabuf_fd;
	}
}

/* The buffer a QUERYBUF, QBUF or DQBUF names, planes array checked. */
static int buffer_of(struct ip_ctx *ctx, const struct v4l2_buffer *b,
		     struct ip_queue **q, struct ip_buffer **buf)
{
	if (!ip_type_ok(b->type))
		return -EINVAL;
	*q = &ctx->q[ip_queue_of(b->type)];
	if (b->index >= (*q)->num_buffers)
		return -EINVAL;
	*buf = &(*q)->bufs[b->index];
	if (!b->m.planes || b->length < (*buf)->num_planes ||
	    b->length > VIDEO_MAX_PLANES)
		return -EINVAL;
	return 0;
}

int ip_querybuf(struct ip_ctx *ctx, struct v4l2_buffer *b)
{
	struct ip_buffer *buf;
	struct ip_queue *q;
	int ret = buffer_of(ctx, b, &q, &buf);

	if (ret)
		return ret;
	fill_buffer(q, buf, b);
	return 0;
}

/* Whether the pages of [addr, addr + len) are there (msync fails on a hole). */
static bool pages_present(uintptr_t addr, size_t len)
{
	size_t page = sysconf(_SC_PAGESIZE);
	uintptr_t start = addr / page * page;

	return !msync((void *)start, addr + len - start, MS_ASYNC);
}

/*
 * Whether [addr, addr + len) is mapped with the access a job needs, as
 * vb2 pins USERPTR memory: for writing on CAPTURE, for reading on OUTPUT.
 * The mappings are read from /proc/self/maps; without /proc, only that
 * the pages are there is checked.
 */
static bool memory_allows(uintptr_t addr, size_t len, bool write)
{
	uintptr_t want = addr, end = addr + len, start, stop;
	char *line = NULL, perms[5];
	size_t size = 0;
	FILE *f;

	if (end < addr)
		return false;
	f = fopen("/proc/self/maps", "re");
	if (!f)
		return pages_present(addr, len);
	while (want < end && getline(&line, &size, f) > 0) {
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %4s", &start,
			   &stop, perms) != 3 || stop <= want)
			continue;
		/* The maps are in address order: a hole before this one. */
		if (start > want || perms[write ? 1 : 0] == '-')
			break;
		want = stop;
	}
	free(line);
	fclose(f);
	return want >= end;
}

/* How much of the application's USERPTR memory QBUF checks (userptr_get()). */
enum memory_check {
	CHECK_ACCESS,	/* mapped with the access the job needs */
	CHECK_PRESENT,	/* mapped: OUTPUT memory promised mapped */
	CHECK_NONE,	/* m2m_convert()'s, queued under hold */
};

/*
 * USERPTR: vb2 could not pin memory the job may not use (EFAULT). Memory
 * queued under hold is m2m_convert()'s src and dst, which its caller
 * gives as it would to memcpy() (a kernel node's m2m_convert() copies
 * them with it) and the job reads and writes in the caller's own wait:
 * it is not looked up in /proc/self/maps, which costs 20 us to over a
 * millisecond in a process with many mappings (Python with OpenCV: 2000)
 * and was most of what switching between two jobs cost. OUTPUT memory
 * promised mapped while queued (M2M_OPEN_USERPTR_MAPPED), which the job
 * reads in place as memcpy() would, is only checked to be mapped
 * (msync(), about 3 us for a 1080p frame, where the maps took 35-50 us
 * for Python's process(borrow=True)): a pointer to nothing is still
 * EFAULT, and memory mapped without read access is the application's
 * broken promise.
 */
static int userptr_get(struct ip_plane *pl, const struct v4l2_plane *vp,
		       bool capture, enum memory_check check)
{
	/* vb2 keeps what it pinned while the pointer and length stay. */
	if (pl->userptr && pl->userptr == vp->m.userptr &&
	    pl->length == vp->length)
		return 0;
	if (!vp->m.userptr ||
	    (check == CHECK_ACCESS &&
	     !memory_allows(vp->m.userptr, vp->length, capture)) ||
	    (check == CHECK_PRESENT &&
	     !pages_present(vp->m.userptr, vp->length)))
		return -EFAULT;
	pl->userptr = vp->m.userptr;
	pl->addr = (uint8_t *)vp->m.userptr;
	pl->length = vp->length;
	return 0;
}

/*
 * The size of a DMABUF, without moving the application's offset: a
 * memfd's from fstat(); a dma-buf has no size there, and seeks only to
 * its start or its end, where its offset means nothing.
 */
static off_t dmabuf_size(int fd, const struct stat *st)
{
	off_t size;

	if (S_ISREG(st->st_mode))
		return st->st_size;
	size = lseek(fd, 0, SEEK_END);
	lseek(fd, 0, SEEK_SET);
	return size;
}

/*
 * DMABUF: the fd's memory, mapped; the same buffer stays mapped. CAPTURE
 * memory the process may not write is refused as USERPTR's is.
 */
static int dmabuf_get(struct ip_plane *pl, const struct v4l2_plane *vp,
		      uint32_t min_length, bool capture)
{
	int prot = PROT_READ | (capture ? PROT_WRITE : 0);
	struct stat now, had;
	off_t size;
	int fd;

	if (fstat(vp->m.fd, &now))
		return -EINVAL;
	if (pl->fd >= 0 && !fstat(pl->fd, &had) && had.st_dev == now.st_dev &&
	    had.st_ino == now.st_ino && pl->length >= min_length) {
		pl->dmabuf_fd = vp->m.fd;
		return 0;
	}
	size = dmabuf_size(vp->m.fd, &now);
	if (size <= 0)
		return -EINVAL;
	if ((vp->length ? vp->length : (uint32_t)size) < min_length)
		return -EINVAL;
	/* videobuf2-vmalloc: a dma-buf smaller than the length claimed. */
	if (vp->length > size)
		return -EFAULT;
	fd = fcntl(vp->m.fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	plane_release(pl);
	pl->fd = fd;
	pl->addr = mmap(NULL, size, prot, MAP_SHARED, fd, 0);
	if (pl->addr == MAP_FAILED) {
		pl->addr = NULL;
		plane_release(pl);
		return capture ? -EFAULT : -EINVAL;
	}
	pl->map_len = size;
	pl->dmabuf_fd = vp->m.fd;
	pl->length = vp->length ? vp->length : size;
	return 0;
}

/*
 * What vb2 checks of a QBUF before the driver sees it: an OUTPUT plane's
 * bytesused (0: the length given, or the MMAP plane's) within that length,
 * data_offset before it; no ALTERNATE on an OUTPUT buffer (its field is
 * TOP or BOTTOM). used[] gets each plane's bytesused.
 */
static int verify_output(const struct ip_queue *q, const struct ip_buffer *buf,
			 const struct v4l2_buffer *b, uint32_t used[])
{
	unsigned int p;

	if (b->field == V4L2_FIELD_ALTERNATE)
		return -EINVAL;
	for (p = 0; p < buf->num_planes; p++) {
		const struct v4l2_plane *vp = &b->m.planes[p];
		uint32_t length = q->memory == V4L2_MEMORY_MMAP ?
				  buf->planes[p].length : vp->length;

		used[p] = vp->bytesused ? vp->bytesused : length;
		if (vp->bytesused > length)
			return -EINVAL;
		if (vp->data_offset && vp->data_offset >= used[p])
			return -EINVAL;
	}
	return 0;
}

/* The application's memory for each plane (USERPTR, DMABUF). */
static int memory_get(struct ip_queue *q, struct ip_buffer *buf,
		      const struct v4l2_buffer *b, enum memory_check check)
{
	bool capture = ip_queue_of(q->type) == VHQV_DST;
	unsigned int p;
	int ret = 0;

	for (p = 0; p < buf->num_planes && !ret; p++) {
		const struct v4l2_plane *vp = &b->m.planes[p];

		uint32_t min_length = buf->planes[p].min_length;

		if (q->memory == V4L2_MEMORY_USERPTR)
			ret = vp->length < min_length ? -EINVAL :
			      userptr_get(&buf->planes[p], vp, capture, check);
		else if (q->memory == V4L2_MEMORY_DMABUF)
			ret = dmabuf_get(&buf->planes[p], vp, min_length,
					 capture);
	}
	return ret;
}

/*
 * vhqv_buf_prepare(): each plane holds the queue's format; an OUTPUT
 * plane carries a whole frame after its data_offset.
 */
static int prepare(struct ip_ctx *ctx, unsigned int queue,
		   struct ip_buffer *buf)
{
	const struct vhqv_q_data *q = &vhqv_state_writable(&ctx->st)->q[queue];
	unsigned int p;

	if (buf->num_planes != q->fmt->mem_planes)
		return -EINVAL;
	for (p = 0; p < buf->num_planes; p++) {
		struct ip_plane *pl = &buf->planes[p];
		uint64_t need = (uint64_t)q->sizeimage[p] +
				(queue == VHQV_SRC ? pl->data_offset : 0);

		if (pl->length < need)
			return -EINVAL;
		if (queue == VHQV_SRC && pl->bytesused < need)
			return -EINVAL;
		if (queue == VHQV_DST)
			pl->bytesused = q->sizeimage[p];
	}
	return 0;
}

int ip_qbuf(struct ip_ctx *ctx, struct v4l2_buffer *b)
{
	uint32_t used[VIDEO_MAX_PLANES], field = b->field;
	const uint32_t kept = V4L2_BUF_FLAG_TIMECODE | V4L2_BUF_FLAG_KEYFRAME |
			      V4L2_BUF_FLAG_PFRAME | V4L2_BUF_FLAG_BFRAME |
			      V4L2_BUF_FLAG_TSTAMP_SRC_MASK;
	unsigned int queue, p;
	struct ip_buffer *buf;
	struct ip_queue *q;
	int ret = buffer_of(ctx, b, &q, &buf);

	if (ret)
		return ret;
	queue = ip_queue_of(b->type);
	if (b->memory != q->memory || buf->state != IP_BUF_DEQUEUED)
		return -EINVAL;
	if (queue == VHQV_SRC) {
		ret = verify_output(q, buf, b, used);
		if (!ret)
			ret = vhqv_out_field(&vhqv_state_writable(&ctx->st)->q[queue],
					     &field);
		if (ret)
			return ret;
	}
	ret = memory_get(q, buf, b,
			 ctx->held ? CHECK_NONE :
			 ctx->userptr_mapped && queue == VHQV_SRC ?
			 CHECK_PRESENT : CHECK_ACCESS);
	if (ret)
		return ret;
	for (p = 0; p < buf->num_planes && queue == VHQV_SRC; p++) {
		const struct v4l2_plane *vp = &b->m.planes[p];
		struct ip_plane *pl = &buf->planes[p];

		pl->bytesused = used[p];
		pl->data_offset = vp->data_offset;
	}
	ret = prepare(ctx, queue, buf);
	if (ret)
		return ret;

	if (queue == VHQV_SRC) {
		buf->flags = b->flags & kept;
		buf->field = field;
		buf->timestamp = b->timestamp;
		buf->timecode = b->timecode;
	} else {
		buf->flags = b->flags & V4L2_BUF_FLAG_TSTAMP_SRC_MASK;
	}
	buf->error = false;
	if (q->streaming) {
		buf->state = IP_BUF_ACTIVE;
		ip_buf_queue(ctx, queue, buf);
	} else {
		buf->state = IP_BUF_QUEUED;
		q->queued[q->n_queued++] = buf->index;
	}
	fill_buffer(q, buf, b);
	return 0;
}

void ip_buf_done(struct ip_ctx *ctx, unsigned int queue,
		 struct ip_buffer *buf, bool error)
{
	struct ip_queue *q = &ctx->q[queue];

	buf->state = IP_BUF_DONE;
	buf->error = error;
	q->done[q->n_done++] = buf->index;
}

static void fifo_remove(unsigned int *fifo, unsigned int *n,
			unsigned int index)
{
	unsigned int i;

	for (i = 0; i < *n; i++) {
		if (fifo[i] == index) {
			memmove(&fifo[i], &fifo[i + 1],
				(*n - i - 1) * sizeof(fifo[0]));
			(*n)--;
			return;
		}
	}
}

void ip_ready_remove(struct ip_queue *q, unsigned int index)
{
	fifo_remove(q->ready, &q->n_ready, index);
}

int ip_dqbuf(struct ip_ctx *ctx, struct v4l2_buffer *b)
{
	struct ip_buffer *buf;
	struct ip_queue *q;
	unsigned int queue;
	int ret;

	if (!ip_type_ok(b->type))
		return -EINVAL;
	queue = ip_queue_of(b->type);
	q = &ctx->q[queue];
	for (;;) {
		if (!q->streaming)
			return -EINVAL;
		if (queue == VHQV_DST && q->last_buffer_dequeued)
			return -EPIPE;
		if (q->n_done)
			break;
		if (ctx->nonblock)
			return -EAGAIN;
		/* Closed by another thread while waiting. */
		if (ctx->closing)
			return -EBADF;
		ret = ip_run_ready_job(ctx);
		if (ret < 0)
			return ret;
		if (!ret)
			ip_wait(ctx, NULL);
	}
	buf = &q->bufs[q->done[0]];
	if (!b->m.planes || b->length < buf->num_planes)
		return -EINVAL;
	fifo_remove(q->done, &q->n_done, buf->index);
	fill_buffer(q, buf, b);
	buf->state = IP_BUF_DEQUEUED;
	if (queue == VHQV_DST && (buf->flags & V4L2_BUF_FLAG_LAST))
		q->last_buffer_dequeued = true;
	return 0;
}

int ip_expbuf(struct ip_ctx *ctx, struct v4l2_exportbuffer *eb)
{
	struct ip_queue *q;
	int fd;

	if (!ip_type_ok(eb->type))
		return -EINVAL;
	q = &ctx->q[ip_queue_of(eb->type)];
	if (q->memory != V4L2_MEMORY_MMAP || eb->index >= q->num_buffers ||
	    eb->plane >= q->bufs[eb->index].num_planes ||
	    (eb->flags & ~(O_CLOEXEC | O_ACCMODE)))
		return -EINVAL;
	fd = fcntl(q->bufs[eb->index].planes[eb->plane].fd,
		   eb->flags & O_CLOEXEC ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
	if (fd < 0)
		return -errno;
	eb->fd = fd;
	memset(eb->reserved, 0, sizeof(eb->reserved));
	return 0;
}

/*
 * STREAMON gives the device the buffers queued before it (vb2 calls
 * buf_queue for them before start_streaming, with the queue not yet
 * streaming), then starts the queue.
 */
int ip_streamon(struct ip_ctx *ctx, const uint32_t *type)
{
	unsigned int queue, i;
	struct ip_queue *q;

	if (!ip_type_ok(*type))
		return -EINVAL;
	queue = ip_queue_of(*type);
	q = &ctx->q[queue];
	if (q->streaming)
		return 0;
	if (!q->num_buffers)
		return -EINVAL;
	for (i = 0; i < q->n_queued; i++) {
		struct ip_buffer *buf = &q->bufs[q->queued[i]];

		buf->state = IP_BUF_ACTIVE;
		ip_buf_queue(ctx, queue, buf);
	}
	q->n_queued = 0;
	ip_start_streaming(ctx, queue);
	q->streaming = true;
	return 0;
}

/*
 * STREAMOFF stops the running job (its buffers come back with ERROR),
 * lets the device return what it holds, then takes every buffer of the
 * queue back from the device and from the done list, as vb2 does.
 */
int ip_streamoff(struct ip_ctx *ctx, const uint32_t *type)
{
	unsigned int queue, i;
	struct ip_queue *q;

	if (!ip_type_ok(*type))
		return -EINVAL;
	queue = ip_queue_of(*type);
	q = &ctx->q[queue];
	ip_cancel_job(ctx);
	if (q->streaming)
		ip_stop_streaming(ctx, queue);
	for (i = 0; i < q->num_buffers; i++) {
		q->bufs[i].state = IP_BUF_DEQUEUED;
		q->bufs[i].error = false;
	}
	q->n_queued = 0;
	q->n_ready = 0;
	q->n_done = 0;
	q->streaming = false;
	q->last_buffer_dequeued = false;
	return 0;
}

/* vb2_mmap(): a shared mapping of one MMAP plane, readable or writable. */
void *ip_mmap(struct ip_ctx *ctx, void *start, size_t length, int prot,
	      int flags, int64_t offset)
{
	unsigned int queue = offset >= IP_DST_OFFSET_BASE ? VHQV_DST : VHQV_SRC;
	struct ip_queue *q = &ctx->q[queue];
	uint64_t off = offset - (queue == VHQV_DST ? IP_DST_OFFSET_BASE : 0);
	unsigned int i, p;

	if (offset < 0 || !(flags & MAP_SHARED) ||
	    q->memory != V4L2_MEMORY_MMAP ||
	    (queue == VHQV_SRC && !(prot & PROT_WRITE)) ||
	    (queue == VHQV_DST && !(prot & PROT_READ)))
		goto einval;
	for (i = 0; i < q->num_buffers; i++) {
		for (p = 0; p < q->bufs[i].num_planes; p++) {
			const struct ip_plane *pl = &q->bufs[i].planes[p];

			if (pl->mem_offset != off)
				continue;
			if (length > page_align(pl->length))
				goto einval;
			return mmap(start, length, prot, flags, pl->fd, 0);
		}
	}
einval:
	errno = EINVAL;
	return MAP_FAILED;
}
