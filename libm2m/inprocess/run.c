// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The in-process device's jobs: a worker thread per context takes one
 * OUTPUT and one CAPTURE buffer when both queues stream and have buffers
 * ready, as v4l2-mem2mem schedules vhqv, and runs the engine on them in
 * bands of IP_BAND_ROWS rows, checking for an abort between bands. The
 * job is engine/hqv-v4l2.c's, as in vhqv-run.c.
 *
 * Also here, as vhqv and v4l2-mem2mem have them: draining (ENC_CMD STOP,
 * V4L2_BUF_FLAG_LAST, EOS) and geometry changes while CAPTURE streams
 * (LAST, then SOURCE_CHANGE), docs/vhqv.md.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "inprocess.h"

/* The OUTPUT buffer queued last, or -1. */
static int last_src_buf(const struct ip_ctx *ctx)
{
	const struct ip_queue *q = &ctx->q[VHQV_SRC];

	return q->n_ready ? (int)q->ready[q->n_ready - 1] : -1;
}

/* Take the first CAPTURE buffer off the ready list, or NULL. */
static struct ip_buffer *dst_buf_remove(struct ip_ctx *ctx)
{
	struct ip_queue *q = &ctx->q[VHQV_DST];
	struct ip_buffer *buf;

	if (!q->n_ready)
		return NULL;
	buf = &q->bufs[q->ready[0]];
	ip_ready_remove(q, buf->index);
	return buf;
}

/* v4l2_m2m_mark_stopped(). */
static void mark_stopped(struct ip_ctx *ctx)
{
	ctx->next_buf_last = false;
	ctx->is_draining = false;
	ctx->has_stopped = true;
}

/* v4l2_m2m_last_buffer_done(): the buffer as it is, flagged LAST. */
static void last_buffer_done(struct ip_ctx *ctx, struct ip_buffer *buf)
{
	buf->flags |= V4L2_BUF_FLAG_LAST;
	ip_buf_done(ctx, VHQV_DST, buf, false);
	mark_stopped(ctx);
}

/* Return a CAPTURE buffer empty, flagged LAST. */
static void capture_last_empty(struct ip_ctx *ctx, struct ip_buffer *buf)
{
	unsigned int p;

	for (p = 0; p < buf->num_planes; p++)
		buf->planes[p].bytesused = 0;
	memset(&buf->timestamp, 0, sizeof(buf->timestamp));
	buf->field = V4L2_FIELD_NONE;
	buf->sequence = ctx->sequence[VHQV_DST]++;
	buf->flags |= V4L2_BUF_FLAG_LAST;
	ip_buf_done(ctx, VHQV_DST, buf, false);
}

/*
 * The new geometry takes effect: CAPTURE's format changes, the application
 * is told, and no job runs until it has restarted CAPTURE.
 */
static void change_now(struct ip_ctx *ctx)
{
	ctx->cfg = ctx->next;
	ctx->change_pending = false;
	ctx->change_src = -1;
	ctx->awaiting_capture = true;
	ip_queue_simple_event(ctx, V4L2_EVENT_SOURCE_CHANGE,
			      V4L2_EVENT_SRC_CH_RESOLUTION);
}

/*
 * The change has no frame left to wait for: the next CAPTURE buffer (now,
 * or when it is queued) comes back empty with LAST, and it takes effect.
 */
static void change_when_idle(struct ip_ctx *ctx)
{
	struct ip_buffer *dst = dst_buf_remove(ctx);

	if (dst)
		capture_last_empty(ctx, dst);
	else
		ctx->next_capture_last = true;
	change_now(ctx);
}

/* vhqv_change_capture(): see docs/vhqv.md, "Geometry changes". */
int ip_change_capture(struct ip_ctx *ctx, const struct vhqv_config *next)
{
	ctx->next = *next;
	if (ctx->change_pending)
		return 0;
	ctx->change_pending = true;
	if (!ctx->q[VHQV_DST].streaming) {
		change_now(ctx);
		return 0;
	}
	ctx->change_src = last_src_buf(ctx);
	if (ctx->change_src < 0)
		change_when_idle(ctx);
	return 0;
}

/*
 * Whether a CAPTURE buffer holds the frame jobs make. One queued while
 * CAPTURE was stopped was checked at QBUF against the geometry of then.
 */
static bool capture_fits(const struct ip_ctx *ctx, const struct ip_buffer *buf)
{
	unsigned int p;

	for (p = 0; p < buf->num_planes; p++)
		if (buf->planes[p].length < ctx->cfg.q[VHQV_DST].sizeimage[p])
			return false;
	return true;
}

/* vhqv_buf_queue(). */
void ip_buf_queue(struct ip_ctx *ctx, unsigned int queue,
		  struct ip_buffer *buf)
{
	struct ip_queue *q = &ctx->q[queue];
	unsigned int p;

	if (queue == VHQV_DST && q->streaming) {
		/* Draining with nothing left to drain. */
		if (ctx->is_draining && ctx->next_buf_last) {
			capture_last_empty(ctx, buf);
			mark_stopped(ctx);
			ip_queue_simple_event(ctx, V4L2_EVENT_EOS, 0);
			return;
		}
		/* A geometry change that had no frame to flag. */
		if (ctx->next_capture_last) {
			ctx->next_capture_last = false;
			capture_last_empty(ctx, buf);
			return;
		}
	}
	if (queue == VHQV_DST && !capture_fits(ctx, buf)) {
		for (p = 0; p < buf->num_planes; p++)
			buf->planes[p].bytesused = 0;
		ip_buf_done(ctx, queue, buf, true);
		return;
	}
	q->ready[q->n_ready++] = buf->index;
}

void ip_start_streaming(struct ip_ctx *ctx, unsigned int queue)
{
	ctx->sequence[queue] = 0;
	if (queue == VHQV_SRC) {
		ctx->last_src = -1;
		ctx->prev_valid = false;
	} else {
		ctx->awaiting_capture = false;
		ctx->next_capture_last = false;
	}
}

/*
 * vhqv_stop_streaming() with v4l2_m2m_update_stop_streaming_state(): the
 * device's buffers come back with ERROR; OUTPUT stopping mid-drain ends
 * the drain, and a change waiting for OUTPUT's frames happens now.
 */
void ip_stop_streaming(struct ip_ctx *ctx, unsigned int queue)
{
	struct ip_queue *q = &ctx->q[queue];

	while (q->n_ready) {
		struct ip_buffer *buf = &q->bufs[q->ready[0]];

		ip_ready_remove(q, buf->index);
		ip_buf_done(ctx, queue, buf, true);
	}
	if (queue == VHQV_SRC && ctx->is_draining) {
		struct ip_buffer *dst = dst_buf_remove(ctx);

		ctx->last_src = -1;
		if (dst)
			last_buffer_done(ctx, dst);
		else
			ctx->next_buf_last = true;
	} else if (queue == VHQV_DST) {
		ctx->next_buf_last = false;
		ctx->is_draining = false;
		ctx->has_stopped = false;
	}

	if (queue == VHQV_SRC && ctx->change_pending) {
		ctx->change_src = -1;
		change_when_idle(ctx);
	} else if (queue == VHQV_DST && ctx->change_pending) {
		/* CAPTURE stopped: nothing is left to flag. */
		ctx->cfg = ctx->next;
		ctx->change_pending = false;
		ctx->change_src = -1;
		ip_queue_simple_event(ctx, V4L2_EVENT_SOURCE_CHANGE,
				      V4L2_EVENT_SRC_CH_RESOLUTION);
	}
}

/* v4l2_update_last_buf_state(): STOP marks the last frame queued. */
static int drain(struct ip_ctx *ctx)
{
	struct ip_buffer *dst;

	if (ctx->is_draining)
		return -EBUSY;
	if (ctx->has_stopped)
		return 0;
	ctx->last_src = last_src_buf(ctx);
	ctx->is_draining = true;
	if (ctx->last_src >= 0)
		return 0;
	/* Every frame is done: the next CAPTURE buffer comes back empty
	 * (vhqv_drain_prepare() in the module). */
	dst = dst_buf_remove(ctx);
	if (dst) {
		capture_last_empty(ctx, dst);
		mark_stopped(ctx);
	} else {
		ctx->next_buf_last = true;
	}
	return 0;
}

/*
 * Draining: STOP and START as a stateful encoder has them (vhqv's
 * vhqv_encoder_cmd() over the mem2mem helpers). PAUSE and RESUME get
 * EINVAL; without both queues streaming, STOP and START do nothing.
 */
int ip_encoder_cmd(struct ip_ctx *ctx, unsigned long request,
		   struct v4l2_encoder_cmd *ec)
{
	bool was_stopped;
	int ret;

	if (ec->cmd != V4L2_ENC_CMD_STOP && ec->cmd != V4L2_ENC_CMD_START)
		return -EINVAL;
	ec->flags = 0;
	memset(&ec->raw, 0, sizeof(ec->raw));
	if (request == VIDIOC_TRY_ENCODER_CMD ||
	    !ctx->q[VHQV_SRC].streaming || !ctx->q[VHQV_DST].streaming)
		return 0;

	was_stopped = ctx->has_stopped;
	if (ec->cmd == V4L2_ENC_CMD_STOP) {
		ret = drain(ctx);
		if (ret)
			return ret;
		if (ctx->has_stopped)
			ip_queue_simple_event(ctx, V4L2_EVENT_EOS, 0);
		return 0;
	}
	if (ctx->is_draining)
		return -EBUSY;
	ctx->has_stopped = false;
	/* DQBUF on CAPTURE stops failing with EPIPE. */
	if (was_stopped)
		ctx->q[VHQV_DST].last_buffer_dequeued = false;
	return 0;
}

/*
 * The worker
 */

static bool job_ready(const struct ip_ctx *ctx)
{
	return ctx->q[VHQV_SRC].streaming && ctx->q[VHQV_DST].streaming &&
	       ctx->q[VHQV_SRC].n_ready && ctx->q[VHQV_DST].n_ready &&
	       !ctx->awaiting_capture;
}

static void image_from_buf(struct hqv_image *img, const struct vhqv_config *cfg,
			   unsigned int queue, const struct ip_buffer *buf)
{
	uint8_t *mem[VIDEO_MAX_PLANES];
	size_t size[VIDEO_MAX_PLANES];
	uint32_t offset[VIDEO_MAX_PLANES];
	unsigned int p;

	for (p = 0; p < buf->num_planes; p++) {
		mem[p] = buf->planes[p].addr;
		size[p] = buf->planes[p].length;
		offset[p] = buf->planes[p].data_offset;
	}
	vhqv_image_init(img, cfg, queue, mem, size, offset, buf->field);
}

/* Grow a buffer to size bytes, keeping it while it is large enough. */
static bool reserve(void **buf, size_t *have, size_t size)
{
	if (size <= *have)
		return true;
	free(*buf);
	*buf = malloc(size);
	*have = *buf ? size : 0;
	return *buf;
}

/* The engine on a prepared job, band by band; false when aborted. */
static bool run_bands(struct ip_ctx *ctx, const struct hqv_job *job)
{
	uint32_t y;

	for (y = 0; y < job->dst.height; y += IP_BAND_ROWS) {
		if (__atomic_load_n(&ctx->aborting, __ATOMIC_RELAXED))
			return false;
		hqv_job_run(job, ctx->scratch, y, y + IP_BAND_ROWS);
	}
	return true;
}

/* v4l2_m2m_buf_copy_metadata(), with the frame flags. */
static void copy_metadata(const struct ip_buffer *src, struct ip_buffer *dst)
{
	const uint32_t mask = V4L2_BUF_FLAG_TIMECODE | V4L2_BUF_FLAG_KEYFRAME |
			      V4L2_BUF_FLAG_PFRAME | V4L2_BUF_FLAG_BFRAME;

	dst->timestamp = src->timestamp;
	if (src->flags & V4L2_BUF_FLAG_TIMECODE)
		dst->timecode = src->timecode;
	dst->flags = (dst->flags & ~mask) | (src->flags & mask);
}

/*
 * One job, entered and left with the lock held, which is dropped while
 * the engine runs: the buffers stay on the ready lists until the job is
 * done, so that a STOP or a geometry change that comes meanwhile finds
 * this OUTPUT buffer as the last one queued, and flags this frame.
 */
static void run_job(struct ip_ctx *ctx)
{
	struct ip_queue *sq = &ctx->q[VHQV_SRC], *dq = &ctx->q[VHQV_DST];
	struct ip_buffer *src = &sq->bufs[sq->ready[0]];
	struct ip_buffer *dst = &dq->bufs[dq->ready[0]];
	struct vhqv_config cfg = ctx->cfg;
	struct hqv_job job;
	bool done = false, last = false;
	unsigned int p;

	ctx->job_running = true;
	__atomic_store_n(&ctx->aborting, false, __ATOMIC_RELAXED);
	ip_queue_simple_event(ctx, V4L2_EVENT_FRAME_SYNC,
			      ctx->sequence[VHQV_SRC]);
	ip_changed(ctx);
	memset(&job, 0, sizeof(job));
	image_from_buf(&job.src, &cfg, VHQV_SRC, src);
	image_from_buf(&job.dst, &cfg, VHQV_DST, dst);
	vhqv_job_from_config(&job, &cfg);
	if (vhqv_job_needs_prev(&job) && ctx->prev_valid)
		job.prev = &ctx->prev;
	pthread_mutex_unlock(&ctx->lock);

	/* The ioctls keep the queues consistent: a refusal is a bug. */
	if (!hqv_job_prepare(&job) &&
	    reserve(&ctx->scratch, &ctx->scratch_size,
		    hqv_job_scratch_size(&job)))
		done = run_bands(ctx, &job);
	/*
	 * Every field-based frame, not only those that read prev: the mode
	 * may change before the next frame, which then compares with this.
	 */
	if (done && job.src.field != HQV_FIELD_NONE) {
		ctx->prev_valid = reserve(&ctx->prev_buf, &ctx->prev_size,
					  vhqv_prev_size(&cfg.q[VHQV_SRC]));
		if (ctx->prev_valid)
			vhqv_keep_prev(&ctx->prev, ctx->prev_buf, &job.src,
				       &cfg.q[VHQV_SRC]);
	}

	pthread_mutex_lock(&ctx->lock);
	src->sequence = ctx->sequence[VHQV_SRC]++;
	dst->sequence = ctx->sequence[VHQV_DST]++;
	copy_metadata(src, dst);
	dst->field = V4L2_FIELD_NONE;
	/* A failed job's buffer may be smaller than the frame: no payload. */
	for (p = 0; p < cfg.q[VHQV_DST].fmt->mem_planes; p++)
		dst->planes[p].bytesused = done ?
					   cfg.q[VHQV_DST].sizeimage[p] : 0;
	if (ctx->is_draining && ctx->last_src == (int)src->index) {
		last = true;
		mark_stopped(ctx);
		ip_queue_simple_event(ctx, V4L2_EVENT_EOS, 0);
	}
	if (ctx->change_pending && ctx->change_src == (int)src->index) {
		last = true;
		change_now(ctx);
	}
	ip_ready_remove(sq, src->index);
	ip_ready_remove(dq, dst->index);
	if (last)
		dst->flags |= V4L2_BUF_FLAG_LAST;
	/* The result first, as vhqv returns them. */
	ip_buf_done(ctx, VHQV_DST, dst, !done);
	ip_buf_done(ctx, VHQV_SRC, src, !done);
	ctx->job_running = false;
	ip_changed(ctx);
}

static void *worker(void *arg)
{
	struct ip_ctx *ctx = arg;

	pthread_mutex_lock(&ctx->lock);
	while (!ctx->quit) {
		if (job_ready(ctx))
			run_job(ctx);
		else
			pthread_cond_wait(&ctx->changed, &ctx->lock);
	}
	pthread_mutex_unlock(&ctx->lock);
	return NULL;
}

int ip_worker_start(struct ip_ctx *ctx)
{
	return -pthread_create(&ctx->worker, NULL, worker, ctx);
}

void ip_worker_stop(struct ip_ctx *ctx)
{
	pthread_mutex_lock(&ctx->lock);
	ctx->quit = true;
	pthread_cond_broadcast(&ctx->changed);
	pthread_mutex_unlock(&ctx->lock);
	pthread_join(ctx->worker, NULL);
}

/* job_abort: the running job stops at its next band; wait for it. */
void ip_cancel_job(struct ip_ctx *ctx)
{
	if (!ctx->job_running)
		return;
	__atomic_store_n(&ctx->aborting, true, __ATOMIC_RELAXED);
	while (ctx->job_running)
		pthread_cond_wait(&ctx->changed, &ctx->lock);
}
