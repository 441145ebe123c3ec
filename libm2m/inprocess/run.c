// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The in-process device's jobs: one OUTPUT and one CAPTURE buffer are
 * taken when both queues stream and have buffers ready, as v4l2-mem2mem
 * schedules vhqv, by the context's worker thread or by a thread waiting
 * for them (below), which runs the engine on them in bands across its
 * band pool (pool.c), checking for an abort between bands. The job is
 * v4l2/hqv-v4l2.c's, as in vhqv-run.c.
 *
 * Also here, as vhqv and v4l2-mem2mem have them: draining (ENC_CMD STOP,
 * V4L2_BUF_FLAG_LAST, EOS) and geometry changes while CAPTURE streams
 * (LAST, then SOURCE_CHANGE), docs/vhqv.md.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "inprocess.h"

/* The OUTPUT buffer queued last (a running job's included), or -1. */
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

/* Return a CAPTURE buffer empty, numbered as the next frame, with LAST. */
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
 * Do what the drain and geometry-change state machine said
 * (v4l2/hqv-v4l2.h, vhqv_flow_do() in the module), but for a job's LAST
 * flag, which is run_job()'s.
 */
void ip_flow_do(struct ip_ctx *ctx, const struct vhqv_flow_do *out)
{
	struct ip_buffer *dst;
	unsigned int i;

	vhqv_state_apply(&ctx->st, out);
	if (out->eos)
		ip_queue_simple_event(ctx, V4L2_EVENT_EOS, 0);
	if (out->source_change)
		ip_queue_simple_event(ctx, V4L2_EVENT_SOURCE_CHANGE,
				      V4L2_EVENT_SRC_CH_RESOLUTION);
	for (i = 0; i < out->empty_last; i++) {
		dst = dst_buf_remove(ctx);
		if (dst)
			capture_last_empty(ctx, dst);
	}
}

/* vhqv_read_queues(): all of it is the context lock's. */
void ip_read_queues(const struct ip_ctx *ctx, struct vhqv_queues *qs)
{
	qs->has_buffers[VHQV_SRC] = ctx->q[VHQV_SRC].num_buffers;
	qs->has_buffers[VHQV_DST] = ctx->q[VHQV_DST].num_buffers;
	qs->capture_streaming = ctx->q[VHQV_DST].streaming;
	qs->last_src = last_src_buf(ctx);
	qs->capture_ready = ctx->q[VHQV_DST].n_ready;
}

/* vhqv_capture_fits() of a buffer of ours. */
static bool capture_fits(const struct ip_ctx *ctx, const struct ip_buffer *buf)
{
	uint32_t length[VIDEO_MAX_PLANES];
	unsigned int p;

	for (p = 0; p < buf->num_planes; p++)
		length[p] = buf->planes[p].length;
	return vhqv_capture_fits(&ctx->st, length, buf->num_planes);
}

/* vhqv_buf_queue(). */
void ip_buf_queue(struct ip_ctx *ctx, unsigned int queue,
		  struct ip_buffer *buf)
{
	struct ip_queue *q = &ctx->q[queue];
	struct vhqv_flow_do out = { 0 };
	unsigned int p;

	if (queue == VHQV_DST && q->streaming)
		vhqv_flow_capture_queued(&ctx->st.flow, &out);
	if (out.empty_last) {
		out.empty_last = 0;
		ip_flow_do(ctx, &out);
		capture_last_empty(ctx, buf);
		return;
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
	if (queue == VHQV_SRC)
		ctx->prev_valid = false;
	vhqv_flow_streamon(&ctx->st.flow, queue);
}

/*
 * vhqv_stop_streaming(): the device's buffers come back with ERROR;
 * OUTPUT stopping mid-drain ends the drain, and a change waiting for
 * OUTPUT's frames happens now.
 */
void ip_stop_streaming(struct ip_ctx *ctx, unsigned int queue)
{
	struct ip_queue *q = &ctx->q[queue];
	struct vhqv_flow_do out;

	while (q->n_ready) {
		struct ip_buffer *buf = &q->bufs[q->ready[0]];

		ip_ready_remove(q, buf->index);
		ip_buf_done(ctx, queue, buf, true);
	}
	vhqv_flow_streamoff(&ctx->st.flow, queue, ctx->q[VHQV_DST].n_ready,
			    &out);
	ip_flow_do(ctx, &out);
}

/*
 * Draining: STOP and START as a stateful encoder has them (vhqv's
 * vhqv_encoder_cmd()), decided by the state machine. PAUSE and RESUME get
 * EINVAL; without both queues streaming, STOP and START do nothing.
 */
int ip_encoder_cmd(struct ip_ctx *ctx, unsigned long request,
		   struct v4l2_encoder_cmd *ec)
{
	struct vhqv_flow_do out;
	int ret;

	if (ec->cmd != V4L2_ENC_CMD_STOP && ec->cmd != V4L2_ENC_CMD_START)
		return -EINVAL;
	ec->flags = 0;
	memset(&ec->raw, 0, sizeof(ec->raw));
	if (request == VIDIOC_TRY_ENCODER_CMD ||
	    !ctx->q[VHQV_SRC].streaming || !ctx->q[VHQV_DST].streaming)
		return 0;

	if (ec->cmd == V4L2_ENC_CMD_STOP)
		ret = vhqv_flow_stop(&ctx->st.flow, last_src_buf(ctx),
				     ctx->q[VHQV_DST].n_ready, &out);
	else
		ret = vhqv_flow_start(&ctx->st.flow, &out);
	if (ret)
		return ret;
	ip_flow_do(ctx, &out);
	/* DQBUF on CAPTURE stops failing with EPIPE. */
	if (out.resume)
		ctx->q[VHQV_DST].last_buffer_dequeued = false;
	return 0;
}

/*
 * Jobs: the worker's, and a waiter's. A thread that would wait in DQBUF
 * or poll() runs a ready job itself (ip_run_ready_job()), so that a call
 * such as m2m_convert() that queues both buffers and waits for them costs
 * no switch to the worker and back; the worker runs the jobs nobody waits
 * for in the library (a client polling the eventfd itself). Whoever takes
 * the lock first runs the job; job_running keeps it to one.
 */

static bool job_ready(const struct ip_ctx *ctx)
{
	return !ctx->job_running && !ctx->closing &&
	       ctx->q[VHQV_SRC].streaming && ctx->q[VHQV_DST].streaming &&
	       ctx->q[VHQV_SRC].n_ready && ctx->q[VHQV_DST].n_ready &&
	       vhqv_flow_may_run(&ctx->st.flow);
}

static bool image_from_buf(struct ip_ctx *ctx, struct hqv_image *img,
			   const struct vhqv_config *cfg, unsigned int queue,
			   const struct ip_buffer *buf)
{
	uint8_t *mem[VIDEO_MAX_PLANES];
	size_t size[VIDEO_MAX_PLANES];
	uint32_t offset[VIDEO_MAX_PLANES];
	unsigned int p;

	if (!ip_job_planes(ctx, queue, buf, &cfg->q[queue], mem, size))
		return false;
	for (p = 0; p < buf->num_planes; p++)
		offset[p] = buf->planes[p].data_offset;
	vhqv_image_init(img, cfg, queue, mem, size, offset, buf->field);
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

/* Keep a copy of a job's source frame for the next job to compare with. */
struct keep_args {
	struct ip_ctx *ctx;
	const struct hqv_image *src;
	const struct vhqv_q_data *q;
};

static void keep_prev(void *arg)
{
	struct keep_args *k = arg;
	struct ip_ctx *ctx = k->ctx;

	ctx->prev_valid = ip_reserve(&ctx->prev_buf, &ctx->prev_size,
				     vhqv_prev_size(k->q));
	if (ctx->prev_valid)
		vhqv_keep_prev(&ctx->prev, ctx->prev_buf, k->src, k->q);
}

/*
 * One job, entered and left with the lock held, which is dropped while
 * the engine runs: the buffers stay on the ready lists until the job is
 * done, so that a STOP or a geometry change that comes meanwhile finds
 * this OUTPUT buffer as the last one queued, and flags this frame. A
 * waiter's job is interruptible (pool.c): -EINTR when a signal that asks
 * the process to stop abandoned the frame, else 0.
 */
static int run_job(struct ip_ctx *ctx, bool waiter)
{
	struct ip_queue *sq = &ctx->q[VHQV_SRC], *dq = &ctx->q[VHQV_DST];
	struct ip_buffer *src = &sq->bufs[sq->ready[0]];
	struct ip_buffer *dst = &dq->bufs[dq->ready[0]];
	struct vhqv_config cfg = ctx->st.cfg;
	struct vhqv_flow_do out;
	struct hqv_job job;
	struct keep_args keep;
	int ret = -EINVAL;
	bool done, kept, memory;
	unsigned int p;

	ctx->job_running = true;
	__atomic_store_n(&ctx->aborting, false, __ATOMIC_RELAXED);
	ip_queue_simple_event(ctx, V4L2_EVENT_FRAME_SYNC,
			      ctx->sequence[VHQV_SRC]);
	ip_changed(ctx);
	memset(&job, 0, sizeof(job));
	memory = image_from_buf(ctx, &job.src, &cfg, VHQV_SRC, src) &&
		 image_from_buf(ctx, &job.dst, &cfg, VHQV_DST, dst);
	vhqv_job_from_config(&job, &cfg);
	if (vhqv_job_needs_prev(&job) && ctx->prev_valid)
		job.prev = &ctx->prev;
	pthread_mutex_unlock(&ctx->lock);

	/*
	 * Every field-based frame is kept, not only those that read prev: the
	 * mode may change before the next frame, which then compares with
	 * this. A job that does not read prev (blend, bob) has it copied by
	 * this thread while the helpers take their first bands; one that does
	 * (vhqv_job_needs_prev()) reads the old copy, so it is replaced after.
	 * The ioctls keep the queues consistent: a refusal is a bug.
	 */
	keep.ctx = ctx;
	keep.src = &job.src;
	keep.q = &cfg.q[VHQV_SRC];
	kept = job.src.field != HQV_FIELD_NONE;
	if (memory && ip_job_copy(ctx, VHQV_SRC, src, false) &&
	    ip_job_copy(ctx, VHQV_DST, dst, false) && !hqv_job_prepare(&job))
		ret = ip_pool_run(&ctx->pool, &job, &ctx->scratch,
				  &ctx->scratch_size, &ctx->aborting, waiter,
				  kept && !job.prev ? keep_prev : NULL, &keep);
	done = ret == 0;
	if (done)
		done = ip_job_copy(ctx, VHQV_DST, dst, true);
	if (kept && job.prev && done)
		keep_prev(&keep);
	/*
	 * A frame not made (aborted by STREAMOFF or close, interrupted, out
	 * of memory, USERPTR memory gone: userptr.c) leaves none to compare
	 * with: the next one starts afresh, as after STREAMON (as vhqv does).
	 */
	if (!done)
		ctx->prev_valid = false;

	pthread_mutex_lock(&ctx->lock);
	src->sequence = ctx->sequence[VHQV_SRC]++;
	dst->sequence = ctx->sequence[VHQV_DST]++;
	copy_metadata(src, dst);
	dst->field = V4L2_FIELD_NONE;
	/* A failed job's buffer may be smaller than the frame: no payload. */
	for (p = 0; p < cfg.q[VHQV_DST].fmt->mem_planes; p++)
		dst->planes[p].bytesused = done ?
					   cfg.q[VHQV_DST].sizeimage[p] : 0;
	vhqv_flow_job_done(&ctx->st.flow, src->index, &out);
	ip_flow_do(ctx, &out);
	ip_ready_remove(sq, src->index);
	ip_ready_remove(dq, dst->index);
	if (out.flag_last)
		dst->flags |= V4L2_BUF_FLAG_LAST;
	/* OUTPUT first, as vhqv returns them (under the lock: seen together). */
	ip_buf_done(ctx, VHQV_SRC, src, !done);
	ip_buf_done(ctx, VHQV_DST, dst, !done);
	ctx->job_running = false;
	ip_changed(ctx);
	return ret == -EINTR ? ret : 0;
}

int ip_run_ready_job(struct ip_ctx *ctx)
{
	if (!job_ready(ctx))
		return 0;
	return run_job(ctx, true) ? -EINTR : 1;
}

int ip_wait(struct ip_ctx *ctx, const struct timespec *deadline)
{
	int err = 0;

	ctx->waiters++;
	if (deadline)
		err = pthread_cond_timedwait(&ctx->changed, &ctx->lock,
					     deadline);
	else
		pthread_cond_wait(&ctx->changed, &ctx->lock);
	ctx->waiters--;
	/* Leaving with a job ready that the others may not see. */
	ip_kick_worker(ctx);
	return err;
}

void ip_kick_worker(struct ip_ctx *ctx)
{
	if (!ctx->waiters && job_ready(ctx))
		pthread_cond_signal(&ctx->work);
}

static void *worker(void *arg)
{
	struct ip_ctx *ctx = arg;

	pthread_mutex_lock(&ctx->lock);
	while (!ctx->quit) {
		/* A job someone will wait for is theirs (ip_kick_worker()). */
		if (!ctx->waiters && job_ready(ctx))
			run_job(ctx, false);
		else
			pthread_cond_wait(&ctx->work, &ctx->lock);
	}
	pthread_mutex_unlock(&ctx->lock);
	return NULL;
}

int ip_worker_start(struct ip_ctx *ctx)
{
	return -ip_thread_create(&ctx->worker, worker, ctx, IP_THREAD_WORKER);
}

void ip_worker_stop(struct ip_ctx *ctx)
{
	pthread_mutex_lock(&ctx->lock);
	ctx->quit = true;
	pthread_cond_signal(&ctx->work);
	pthread_mutex_unlock(&ctx->lock);
	pthread_join(ctx->worker, NULL);
}

void ip_abort_job(struct ip_ctx *ctx)
{
	if (ctx->job_running)
		__atomic_store_n(&ctx->aborting, true, __ATOMIC_RELAXED);
}

/* job_abort: the running job stops at its next band; wait for it. */
void ip_cancel_job(struct ip_ctx *ctx)
{
	ip_abort_job(ctx);
	while (ctx->job_running)
		pthread_cond_wait(&ctx->changed, &ctx->lock);
}
