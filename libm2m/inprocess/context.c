// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The in-process device's transport table: open() makes a context (as
 * opening a video node does), and the rest find it by the handle open()
 * returned. The handle is an eventfd, wait_fd() too: once wait_fd() has
 * handed it out, it is kept readable exactly while poll() would report
 * something (before, no one can wait on it, and a frame costs no
 * eventfd read and write).
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "inprocess.h"
#include "../transport.h"

/*
 * Every open context, listed by its handle (the fd) as handle.h has it: a
 * call holds a reference while it runs, so that close() from another
 * thread wakes it if it waits and frees the context only after it left.
 */
static struct m2m_registry contexts = M2M_REGISTRY_INIT;

/* The context of a handle, with a reference; NULL once it is closing. */
static struct ip_ctx *context_get(int fd)
{
	struct m2m_handle *h;

	if (m2m_handle_get(&contexts, (uintptr_t)fd, &h))
		return NULL;
	return m2m_container_of(h, struct ip_ctx, handle);
}

static void context_put(struct ip_ctx *ctx)
{
	m2m_handle_put(&contexts, &ctx->handle);
}

/*
 * Waits on the context end: poll() with ECANCELED, DQBUF with EBADF; a
 * job running for one of them is abandoned at its next band, so that
 * close() does not wait for a whole frame, and no job starts.
 */
static void context_wake(struct ip_ctx *ctx)
{
	pthread_mutex_lock(&ctx->lock);
	ctx->closing = true;
	ip_abort_job(ctx);
	pthread_cond_broadcast(&ctx->changed);
	pthread_mutex_unlock(&ctx->lock);
}

static int fail(int err)
{
	errno = err;
	return -1;
}

bool ip_type_ok(uint32_t type)
{
	return type == V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE ||
	       type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
}

/* A queue has buffers the application queued and not yet dequeued. */
static bool has_queued(const struct ip_queue *q)
{
	unsigned int i;

	for (i = 0; i < q->num_buffers; i++)
		if (q->bufs[i].state != IP_BUF_DEQUEUED)
			return true;
	return false;
}

/* v4l2_m2m_poll(), with every event asked for. */
short ip_poll_mask(const struct ip_ctx *ctx)
{
	const struct ip_queue *src = &ctx->q[VHQV_SRC];
	const struct ip_queue *dst = &ctx->q[VHQV_DST];
	short mask = 0;

	if (ctx->n_events)
		mask |= POLLPRI;
	if ((!src->streaming || !has_queued(src)) &&
	    (!dst->streaming ||
	     (!has_queued(dst) && !dst->last_buffer_dequeued)))
		return mask | POLLERR;
	if (src->n_done)
		mask |= POLLOUT | POLLWRNORM;
	if (dst->n_done || dst->last_buffer_dequeued)
		mask |= POLLIN | POLLRDNORM;
	return mask;
}

void ip_changed(struct ip_ctx *ctx)
{
	uint64_t v = 1;
	bool ready;

	pthread_cond_broadcast(&ctx->changed);
	ip_kick_worker(ctx);
	if (!ctx->fd_watched)
		return;
	ready = ip_poll_mask(ctx) != 0;
	if (ready == ctx->signalled)
		return;
	/* A nonblocking eventfd with a counter of 0 or 1 cannot fail here. */
	if (ready)
		ctx->signalled = write(ctx->fd, &v, sizeof(v)) == sizeof(v);
	else
		ctx->signalled = read(ctx->fd, &v, sizeof(v)) != sizeof(v);
}

static void ctx_free(struct ip_ctx *ctx)
{
	ip_buffers_free(ctx);
	pthread_cond_destroy(&ctx->work);
	pthread_cond_destroy(&ctx->changed);
	pthread_mutex_destroy(&ctx->lock);
	free(ctx->prev_buf);
	free(ctx->scratch);
	free(ctx->copy[VHQV_SRC].mem);
	free(ctx->copy[VHQV_DST].mem);
	ip_pool_free(&ctx->pool);
	close(ctx->fd);
	free(ctx);
}

static int ip_open(const char *path, int flags)
{
	pthread_condattr_t attr;
	struct ip_ctx *ctx;
	int err;

	if (!path || strcmp(path, M2M_INPROCESS_PATH))
		return fail(ENOENT);
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return fail(ENOMEM);
	ctx->fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (ctx->fd < 0) {
		err = errno;
		free(ctx);
		return fail(err);
	}
	ctx->nonblock = flags & O_NONBLOCK;
	pthread_mutex_init(&ctx->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&ctx->changed, &attr);
	pthread_condattr_destroy(&attr);
	pthread_cond_init(&ctx->work, NULL);
	vhqv_state_init(&ip_offer, &ctx->st);
	ip_ctrls_init(ctx);
	ctx->q[VHQV_SRC].type = V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE;
	ctx->q[VHQV_DST].type = V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
	ip_pool_init(&ctx->pool, 0);

	pthread_mutex_lock(&ctx->lock);
	ip_changed(ctx);
	pthread_mutex_unlock(&ctx->lock);
	err = ip_worker_start(ctx);
	if (err)
		goto err_free_ctx;
	/* Its calls take ctx->lock themselves: waits drop it. */
	m2m_handle_add(&contexts, &ctx->handle, (uintptr_t)ctx->fd, NULL);
	return ctx->fd;

err_free_ctx:
	ctx_free(ctx);
	return fail(-err);
}

/* As release: the running job stops, the buffers go, then the context. */
static int ip_close(int fd)
{
	struct m2m_handle *h = m2m_handle_close(&contexts, (uintptr_t)fd);
	struct ip_ctx *ctx;

	if (!h)
		return fail(EBADF);
	ctx = m2m_container_of(h, struct ip_ctx, handle);
	context_wake(ctx);
	m2m_handle_drain(&contexts, h);
	pthread_mutex_lock(&ctx->lock);
	ip_cancel_job(ctx);
	pthread_mutex_unlock(&ctx->lock);
	ip_worker_stop(ctx);
	ctx_free(ctx);
	return 0;
}

static int dispatch(struct ip_ctx *ctx, unsigned long request, void *arg)
{
	switch (request) {
	case VIDIOC_QUERYCAP:
		return ip_querycap(ctx, arg);
	case VIDIOC_ENUM_FMT:
		return ip_enum_fmt(ctx, arg);
	case VIDIOC_ENUM_FRAMESIZES:
		return ip_enum_framesizes(ctx, arg);
	case VIDIOC_G_FMT:
		return ip_g_fmt(ctx, arg);
	case VIDIOC_S_FMT:
		return ip_s_fmt(ctx, arg);
	case VIDIOC_TRY_FMT:
		return ip_try_fmt(ctx, arg);
	case VIDIOC_G_SELECTION:
		return ip_g_selection(ctx, arg);
	case VIDIOC_S_SELECTION:
		return ip_s_selection(ctx, arg);
	case VIDIOC_QUERYCTRL:
		return ip_queryctrl(ctx, arg);
	case VIDIOC_QUERY_EXT_CTRL:
		return ip_query_ext_ctrl(ctx, arg);
	case VIDIOC_QUERYMENU:
		return ip_querymenu(ctx, arg);
	case VIDIOC_G_CTRL:
		return ip_g_ctrl(ctx, arg);
	case VIDIOC_S_CTRL:
		return ip_s_ctrl(ctx, arg);
	case VIDIOC_G_EXT_CTRLS:
	case VIDIOC_S_EXT_CTRLS:
	case VIDIOC_TRY_EXT_CTRLS:
		return ip_ext_ctrls(ctx, request, arg);
	case VIDIOC_REQBUFS:
		return ip_reqbufs(ctx, arg);
	case VIDIOC_CREATE_BUFS:
		return ip_create_bufs(ctx, arg);
	case VIDIOC_QUERYBUF:
		return ip_querybuf(ctx, arg);
	case VIDIOC_QBUF:
		return ip_qbuf(ctx, arg);
	case VIDIOC_DQBUF:
		return ip_dqbuf(ctx, arg);
	case VIDIOC_EXPBUF:
		return ip_expbuf(ctx, arg);
	case VIDIOC_STREAMON:
		return ip_streamon(ctx, arg);
	case VIDIOC_STREAMOFF:
		return ip_streamoff(ctx, arg);
	case VIDIOC_SUBSCRIBE_EVENT:
		return ip_subscribe_event(ctx, arg);
	case VIDIOC_UNSUBSCRIBE_EVENT:
		return ip_unsubscribe_event(ctx, arg);
	case VIDIOC_DQEVENT:
		return ip_dqevent(ctx, arg);
	case VIDIOC_ENCODER_CMD:
	case VIDIOC_TRY_ENCODER_CMD:
		return ip_encoder_cmd(ctx, request, arg);
	}
	return -ENOTTY;
}

static int ip_ioctl(int fd, unsigned long request, void *arg)
{
	struct ip_ctx *ctx = context_get(fd);
	int ret = -EFAULT;

	if (!ctx)
		return fail(EBADF);
	pthread_mutex_lock(&ctx->lock);
	if (arg)
		ret = dispatch(ctx, request, arg);
	ip_changed(ctx);
	pthread_mutex_unlock(&ctx->lock);
	context_put(ctx);
	return ret < 0 ? fail(-ret) : ret;
}

static void *ip_transport_mmap(void *start, size_t length, int prot,
			       int flags, int fd, int64_t offset)
{
	struct ip_ctx *ctx = context_get(fd);
	void *addr;

	if (!ctx) {
		errno = EBADF;
		return MAP_FAILED;
	}
	pthread_mutex_lock(&ctx->lock);
	addr = ip_mmap(ctx, start, length, prot, flags, offset);
	pthread_mutex_unlock(&ctx->lock);
	context_put(ctx);
	return addr;
}

/* Mappings are of memfds: unmapping is the system's. */
static int ip_munmap(void *start, size_t length)
{
	return munmap(start, length);
}

static void deadline_after(struct timespec *t, int ms)
{
	clock_gettime(CLOCK_MONOTONIC, t);
	t->tv_sec += ms / 1000;
	t->tv_nsec += (long)(ms % 1000) * 1000000;
	if (t->tv_nsec >= 1000000000) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000;
	}
}

/* POLLERR comes only with POLLIN or POLLOUT asked for, as in m2m. */
static short poll_revents(const struct ip_ctx *ctx, short events)
{
	short mask = ip_poll_mask(ctx);

	if (!(events & (POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM)))
		mask &= POLLPRI;
	return mask & (events | POLLERR);
}

static int ip_poll(int fd, short events, short *revents, int timeout_ms)
{
	struct ip_ctx *ctx = context_get(fd);
	struct timespec deadline;
	bool cancelled;
	int err = 0, ran = 0;

	if (!ctx)
		return fail(EBADF);
	if (timeout_ms > 0)
		deadline_after(&deadline, timeout_ms);
	pthread_mutex_lock(&ctx->lock);
	while (!(*revents = poll_revents(ctx, events)) && timeout_ms &&
	       !ctx->closing) {
		ran = ip_run_ready_job(ctx);
		if (ran < 0)
			break;
		if (ran)
			continue;
		if (err == ETIMEDOUT)
			break;
		err = ip_wait(ctx, timeout_ms < 0 ? NULL : &deadline);
	}
	cancelled = ctx->closing;
	pthread_mutex_unlock(&ctx->lock);
	context_put(ctx);
	if (cancelled)
		return fail(ECANCELED);
	if (ran < 0)
		return fail(EINTR);
	return *revents ? 1 : 0;
}

/* Another thread is closing the device: its waits end. */
static int ip_interrupt(int fd)
{
	struct ip_ctx *ctx = context_get(fd);

	if (!ctx)
		return fail(EBADF);
	context_wake(ctx);
	context_put(ctx);
	return 0;
}

static int ip_wait_fd(int fd)
{
	struct ip_ctx *ctx = context_get(fd);

	if (!ctx)
		return fail(EBADF);
	pthread_mutex_lock(&ctx->lock);
	ctx->fd_watched = true;
	ip_changed(ctx);
	pthread_mutex_unlock(&ctx->lock);
	context_put(ctx);
	return fd;
}

static int ip_threads(int fd, unsigned int threads)
{
	struct ip_ctx *ctx = context_get(fd);

	if (!ctx)
		return fail(EBADF);
	/*
	 * A running job uses the pool without the lock: it ends first. The
	 * old pool's helpers are joined under the lock, which they never
	 * take (only the pool's own).
	 */
	pthread_mutex_lock(&ctx->lock);
	while (ctx->job_running)
		pthread_cond_wait(&ctx->changed, &ctx->lock);
	ip_pool_free(&ctx->pool);
	memset(&ctx->pool, 0, sizeof(ctx->pool));
	ip_pool_init(&ctx->pool, threads);
	pthread_mutex_unlock(&ctx->lock);
	context_put(ctx);
	return 0;
}

/* Without a memory hold, a streaming client's USERPTR memory is copied
 * (userptr.c) or checked (buffers.c); without a job hold, a job nobody
 * waits for is the worker's. */
static int ip_hold(int fd, unsigned int what, bool hold)
{
	struct ip_ctx *ctx = context_get(fd);
	unsigned int jobs = !!(what & M2M_TP_HOLD_JOBS);
	unsigned int memory = !!(what & M2M_TP_HOLD_MEMORY);

	if (!ctx)
		return fail(EBADF);
	pthread_mutex_lock(&ctx->lock);
	if (hold) {
		ctx->waiters += jobs;
		ctx->held += memory;
	} else {
		ctx->waiters -= jobs;
		ctx->held -= memory;
		ip_kick_worker(ctx);
	}
	pthread_mutex_unlock(&ctx->lock);
	context_put(ctx);
	return 0;
}

/* M2M_OPEN_USERPTR_MAPPED: USERPTR memory is used in place (userptr.c). */
static int ip_userptr_mapped(int fd)
{
	struct ip_ctx *ctx = context_get(fd);

	if (!ctx)
		return fail(EBADF);
	pthread_mutex_lock(&ctx->lock);
	ctx->userptr_mapped = true;
	pthread_mutex_unlock(&ctx->lock);
	context_put(ctx);
	return 0;
}

const struct m2m_transport m2m_transport_inprocess = {
	.name = "inprocess",
	.open = ip_open,
	.close = ip_close,
	.ioctl = ip_ioctl,
	.mmap = ip_transport_mmap,
	.munmap = ip_munmap,
	.poll = ip_poll,
	.interrupt = ip_interrupt,
	.wait_fd = ip_wait_fd,
	.backend = M2M_BACKEND_INPROCESS,
	.threads = ip_threads,
	.hold = ip_hold,
	.userptr_mapped = ip_userptr_mapped,
};
