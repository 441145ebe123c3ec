// SPDX-License-Identifier: GPL-2.0
/*
 * vhqv: the queues and the jobs.
 *
 * A job takes one OUTPUT buffer and one CAPTURE buffer. The m2m core calls
 * device_run with its job lock held, so the work is done on the device's
 * ordered workqueue, in process context, in bands with a preemption point
 * (and a check for job_abort) between them, split across helpers on an
 * unbound workqueue when the frame is large (run_bands()). The core
 * queues contexts round-robin, one job each, which is what shares the
 * engine fairly between file handles.
 *
 * Also here: draining (ENC_CMD STOP, V4L2_BUF_FLAG_LAST, EOS) and geometry
 * changes while CAPTURE streams (LAST, then SOURCE_CHANGE), see
 * docs/vhqv.md.
 */
#include <linux/kcov.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/sched.h>

#include <media/v4l2-event.h>
#include <media/videobuf2-vmalloc.h>

#include "vhqv-compat.h"
#include "vhqv-priv.h"

void vhqv_queue_event(struct vhqv_ctx *ctx, u32 type, u32 arg)
{
	struct v4l2_event ev;

	vhqv_event_init(&ev, type, arg);
	v4l2_event_queue_fh(&ctx->fh, &ev);
}

/* The configuration ioctls read and change (vhqv_state_writable()). */
struct vhqv_config *vhqv_config_for_write(struct vhqv_ctx *ctx)
{
	lockdep_assert_held(&ctx->cfg_lock);
	return vhqv_state_writable(&ctx->st);
}

/* Return a CAPTURE buffer empty, numbered as the next frame, with LAST. */
static void capture_last_empty(struct vhqv_ctx *ctx,
			       struct vb2_v4l2_buffer *vbuf)
{
	unsigned int p;

	for (p = 0; p < vbuf->vb2_buf.num_planes; p++)
		vb2_set_plane_payload(&vbuf->vb2_buf, p, 0);
	vbuf->vb2_buf.timestamp = 0;
	vbuf->field = V4L2_FIELD_NONE;
	vbuf->sequence = ctx->sequence[VHQV_DST]++;
	vbuf->flags |= V4L2_BUF_FLAG_LAST;
	vb2_buffer_done(&vbuf->vb2_buf, VB2_BUF_STATE_DONE);
}

/*
 * Do what the drain and geometry-change state machine said (hqv-v4l2.h),
 * but for a job's LAST flag, which is the worker's. The events go first:
 * an application that dequeues the LAST buffer finds them queued.
 */
void vhqv_flow_do(struct vhqv_ctx *ctx, const struct vhqv_flow_do *out)
{
	struct vb2_v4l2_buffer *dst;
	unsigned int i;

	lockdep_assert_held(&ctx->cfg_lock);
	vhqv_state_apply(&ctx->st, out);
	if (out->eos)
		vhqv_queue_event(ctx, V4L2_EVENT_EOS, 0);
	if (out->source_change)
		vhqv_queue_event(ctx, V4L2_EVENT_SOURCE_CHANGE,
				 V4L2_EVENT_SRC_CH_RESOLUTION);
	for (i = 0; i < out->empty_last; i++) {
		dst = v4l2_m2m_dst_buf_remove(ctx->fh.m2m_ctx);
		if (dst)
			capture_last_empty(ctx, dst);
	}
	WRITE_ONCE(ctx->may_run, vhqv_flow_may_run(&ctx->st.flow));
}

/* The OUTPUT buffer queued last (a running job's included), or -1. */
static int last_src_index(struct vhqv_ctx *ctx)
{
	struct vb2_v4l2_buffer *src = v4l2_m2m_last_src_buf(ctx->fh.m2m_ctx);

	return src ? src->vb2_buf.index : -1;
}

static unsigned int capture_ready(struct vhqv_ctx *ctx)
{
	return v4l2_m2m_num_dst_bufs_ready(ctx->fh.m2m_ctx);
}

/*
 * The queues as S_FMT and S_CTRL decide with (struct vhqv_queues): their
 * buffers and CAPTURE's streaming state are the queues' lock's, the ready
 * lists cfg_lock's; with both held, none changes before the decision.
 */
void vhqv_read_queues(struct vhqv_ctx *ctx, struct vhqv_queues *qs)
{
	struct v4l2_m2m_ctx *m2m_ctx = ctx->fh.m2m_ctx;
	struct vb2_queue *cap_vq;

	lockdep_assert_held(&ctx->vb_mutex);
	lockdep_assert_held(&ctx->cfg_lock);
	memset(qs, 0, sizeof(*qs));
	qs->last_src = -1;
	/* The controls' setup at open comes before the queues exist. */
	if (!m2m_ctx)
		return;
	cap_vq = v4l2_m2m_get_dst_vq(m2m_ctx);
	qs->has_buffers[VHQV_SRC] = vb2_is_busy(v4l2_m2m_get_src_vq(m2m_ctx));
	qs->has_buffers[VHQV_DST] = vb2_is_busy(cap_vq);
	qs->capture_streaming = vb2_is_streaming(cap_vq);
	qs->last_src = last_src_index(ctx);
	qs->capture_ready = capture_ready(ctx);
}

/*
 * ENC_CMD STOP or START with both queues streaming (vhqv_encoder_cmd()),
 * under the queues' lock, which DQBUF takes to read what START clears.
 * The worker flags the last frame under cfg_lock, so STOP finds the
 * OUTPUT buffer of a running job either still queued or done.
 */
int vhqv_drain_cmd(struct vhqv_ctx *ctx, u32 cmd)
{
	struct v4l2_m2m_ctx *m2m_ctx = ctx->fh.m2m_ctx;
	struct vhqv_flow_do out;
	int ret;

	lockdep_assert_held(&ctx->vb_mutex);
	mutex_lock(&ctx->cfg_lock);
	if (cmd == V4L2_ENC_CMD_STOP)
		ret = vhqv_flow_stop(&ctx->st.flow, last_src_index(ctx),
				     capture_ready(ctx), &out);
	else
		ret = vhqv_flow_start(&ctx->st.flow, &out);
	if (!ret)
		vhqv_flow_do(ctx, &out);
	mutex_unlock(&ctx->cfg_lock);
	if (ret)
		return ret;
	/* DQBUF on CAPTURE stops failing with EPIPE. */
	if (out.resume)
		vb2_clear_last_buffer_dequeued(&m2m_ctx->cap_q_ctx.q);
	if (cmd == V4L2_ENC_CMD_START)
		v4l2_m2m_try_schedule(m2m_ctx);
	return 0;
}

#ifdef CONFIG_FAULT_INJECTION
/* Off unless set in debugfs (vhqv/fail_vaddr, vhqv_init()). */
DECLARE_FAULT_ATTR(vhqv_fail_vaddr);
#endif

/*
 * A plane's kernel mapping, or NULL: videobuf2-vmalloc's buffers always
 * have one, but vb2_plane_vaddr() may give NULL (vim2m checks it too).
 * The fault point makes it so on the debug kernel, where
 * tests/vm/vhqv-fail-nth.c checks that the frame fails alone.
 */
static u8 *plane_vaddr(struct vb2_buffer *vb, unsigned int p)
{
#ifdef CONFIG_FAULT_INJECTION
	if (should_fail(&vhqv_fail_vaddr, 1))
		return NULL;
#endif
	return vb2_plane_vaddr(vb, p);
}

/*
 * Describe a buffer to the engine (hqv-v4l2.c): false when it is not the
 * queue's format's (as many planes, which the ioctls keep so) or a plane
 * is not mapped, so that a job never runs on what it cannot read.
 */
static bool image_from_buf(struct hqv_image *img,
			   const struct vhqv_config *cfg, unsigned int queue,
			   struct vb2_v4l2_buffer *vbuf)
{
	struct vb2_buffer *vb = &vbuf->vb2_buf;
	u8 *mem[VIDEO_MAX_PLANES] = {};
	size_t size[VIDEO_MAX_PLANES] = {};
	u32 offset[VIDEO_MAX_PLANES] = {};
	unsigned int p;

	if (vb->num_planes != cfg->q[queue].fmt->mem_planes)
		return false;
	for (p = 0; p < vb->num_planes; p++) {
		mem[p] = plane_vaddr(vb, p);
		if (!mem[p])
			return false;
		size[p] = vb2_plane_size(vb, p);
		offset[p] = vb->planes[p].data_offset;
	}
	vhqv_image_init(img, cfg, queue, mem, size, offset, vbuf->field);
	return true;
}

/*
 * Grow a buffer (engine scratch, the previous frame) to size bytes,
 * keeping it while it is large enough: false when out of memory.
 */
static bool reserve(void **buf, size_t *have, size_t size)
{
	if (size <= *have)
		return true;
	kvfree(*buf);
	*buf = kvmalloc(size, GFP_KERNEL);
	*have = *buf ? size : 0;
	return *buf;
}

/* Keep a copy of the source frame for the next job. */
static void keep_prev(struct vhqv_ctx *ctx, const struct hqv_image *src,
		      const struct vhqv_q_data *q)
{
	size_t size = vhqv_prev_size(q);

	ctx->prev_valid = false;
	if (!reserve(&ctx->prev_buf, &ctx->prev_size, size))
		return;
	vhqv_keep_prev(&ctx->prev, ctx->prev_buf, src, q);
	ctx->prev_valid = true;
}

/*
 * Prepare a job, size its scratch memory and split it into bands for
 * threads (dev->bands' rows and count, and how many threads). Every
 * engine call is inside a section with vector registers (vhqv-compat.h),
 * without sleeping: the engine's objects are built with them
 * (kmod/Kbuild, tests/kmod-fpu-fence).
 */
static int prepare_job(struct hqv_job *job, struct vhqv_bands *b,
		       unsigned int *threads, size_t *scratch)
{
	int ret;

	vhqv_simd_begin();
	ret = hqv_job_prepare(job);
	if (!ret) {
		*scratch = hqv_job_scratch_size(job);
		b->rows = hqv_band_rows(job);
		b->count = DIV_ROUND_UP(job->dst.height, b->rows);
		*threads = hqv_job_threads(job, b->count, vhqv_workers);
	}
	vhqv_simd_end();
	return ret;
}

/*
 * The bands of the running job (dev->bands) until none is left or the job
 * is aborted. Each band is one section with vector registers, which keeps
 * preemption off: the preemption point comes between bands.
 */
static void take_bands(struct vhqv_bands *b, void *scratch)
{
	const struct hqv_job *job = &b->ctx->job;
	u32 band;

	while ((band = atomic_inc_return(&b->next) - 1) < b->count) {
		u32 y = band * b->rows;

		if (READ_ONCE(b->ctx->aborting)) {
			WRITE_ONCE(b->aborted, true);
			return;
		}
		vhqv_simd_begin();
		hqv_job_run(job, scratch, y, y + b->rows);
		vhqv_simd_end();
		cond_resched();
	}
}

void vhqv_helper_work(struct work_struct *work)
{
	struct vhqv_helper *h = container_of(work, struct vhqv_helper, work);
	struct vhqv_bands *b = &h->dev->bands;

	take_bands(b, h->scratch);
	if (atomic_dec_and_test(&b->helpers_left))
		complete(&b->helpers_done);
}

/*
 * Run the engine on a job, in the bands prepare_job() split it into,
 * across this work and threads - 1 helpers on the device's unbound
 * workqueue, each band taken by whichever is free next; false when
 * aborted. The helpers are
 * waited for, so none outlives the job.
 */
static bool run_bands(struct vhqv_ctx *ctx, unsigned int threads,
		      size_t scratch)
{
	struct vhqv_dev *dev = ctx->dev;
	struct vhqv_bands *b = &dev->bands;
	unsigned int helpers = threads - 1, i;

	b->ctx = ctx;
	atomic_set(&b->next, 0);
	b->aborted = false;
	/* Out of memory for a helper's scratch: fewer helpers. */
	for (i = 0; i < helpers; i++)
		if (!reserve(&dev->helpers[i].scratch,
			     &dev->helpers[i].scratch_size, scratch))
			break;
	helpers = i;
	if (helpers) {
		reinit_completion(&b->helpers_done);
		atomic_set(&b->helpers_left, helpers);
		for (i = 0; i < helpers; i++)
			queue_work(dev->band_wq, &dev->helpers[i].work);
	}
	take_bands(b, ctx->scratch);
	if (helpers) {
		wait_for_completion(&b->helpers_done);
		atomic64_inc(&dev->split_frames);
	}
	return !READ_ONCE(b->aborted);
}

/* The current job of the device's m2m queue, start to finish. */
static void run_job(struct vhqv_dev *dev, struct vhqv_ctx *ctx)
{
	struct v4l2_m2m_ctx *m2m_ctx = ctx->fh.m2m_ctx;
	enum vb2_buffer_state state = VB2_BUF_STATE_ERROR;
	struct vb2_v4l2_buffer *src, *dst;
	struct hqv_job *job = &ctx->job;
	struct vhqv_flow_do out;
	struct vhqv_config cfg;
	unsigned int threads, p;
	size_t scratch;
	u64 start;

	/*
	 * The buffers stay queued until the job is done, so that a STOP or a
	 * geometry change that comes meanwhile finds this OUTPUT buffer as
	 * the last one queued, and flags this frame.
	 */
	src = v4l2_m2m_next_src_buf(m2m_ctx);
	dst = v4l2_m2m_next_dst_buf(m2m_ctx);

	mutex_lock(&ctx->cfg_lock);
	cfg = ctx->st.cfg;
	mutex_unlock(&ctx->cfg_lock);

	start = ktime_get_ns();
	vhqv_queue_event(ctx, V4L2_EVENT_FRAME_SYNC, ctx->sequence[VHQV_SRC]);
	memset(job, 0, sizeof(*job));
	if (!image_from_buf(&job->src, &cfg, VHQV_SRC, src) ||
	    !image_from_buf(&job->dst, &cfg, VHQV_DST, dst)) {
		v4l2_err(&dev->v4l2_dev,
			 "buffers not of the job's formats, or not mapped\n");
		goto done;
	}
	vhqv_job_from_config(job, &cfg);
	if (vhqv_job_needs_prev(job) && ctx->prev_valid)
		job->prev = &ctx->prev;

	if (prepare_job(job, &dev->bands, &threads, &scratch)) {
		/* The ioctls keep the queues consistent: a driver bug. */
		v4l2_err(&dev->v4l2_dev, "engine rejected the job\n");
	} else if (reserve(&ctx->scratch, &ctx->scratch_size, scratch)) {
		if (run_bands(ctx, threads, scratch)) {
			state = VB2_BUF_STATE_DONE;
			/*
			 * Every field-based frame, not only those that read
			 * prev: the deinterlacing mode may change before the
			 * next frame, which then compares with this one.
			 */
			if (job->src.field != HQV_FIELD_NONE)
				keep_prev(ctx, &job->src, &cfg.q[VHQV_SRC]);
		} else {
			atomic64_inc(&dev->aborted);
		}
	}
done:
	if (state == VB2_BUF_STATE_DONE) {
		u64 ns = ktime_get_ns() - start;

		atomic64_inc(&dev->frames);
		atomic64_add(ns, &dev->busy_ns);
		atomic64_set(&dev->last_ns, ns);
	} else {
		/*
		 * A frame not made (aborted by STREAMOFF or close, out of
		 * memory) leaves none to compare with: the next one starts
		 * afresh, as after STREAMON (as the in-process device does).
		 */
		ctx->prev_valid = false;
	}

	src->sequence = ctx->sequence[VHQV_SRC]++;
	dst->sequence = ctx->sequence[VHQV_DST]++;
	v4l2_m2m_buf_copy_metadata(src, dst, true);
	dst->field = V4L2_FIELD_NONE;
	/* A failed job's buffer may be smaller than the frame: no payload. */
	for (p = 0; p < dst->vb2_buf.num_planes; p++)
		vb2_set_plane_payload(&dst->vb2_buf, p,
				      state == VB2_BUF_STATE_DONE ?
				      cfg.q[VHQV_DST].sizeimage[p] : 0);

	/*
	 * Whether this frame is the last before a drain or a geometry change,
	 * and taking its buffers off the queues, in one section: STOP and
	 * vhqv_read_queues() pick the last OUTPUT buffer queued under the
	 * same lock, so they find this one either still queued (and it is
	 * flagged here) or gone.
	 */
	mutex_lock(&ctx->cfg_lock);
	vhqv_flow_job_done(&ctx->st.flow, src->vb2_buf.index, &out);
	vhqv_flow_do(ctx, &out);
	v4l2_m2m_src_buf_remove(m2m_ctx);
	v4l2_m2m_dst_buf_remove(m2m_ctx);
	mutex_unlock(&ctx->cfg_lock);
	if (out.flag_last)
		dst->flags |= V4L2_BUF_FLAG_LAST;

	/*
	 * OUTPUT first, then CAPTURE, as vim2m and
	 * v4l2_m2m_buf_done_and_job_finish() return them, and as one pair
	 * for poll() (vhqv_poll()).
	 */
	mutex_lock(&ctx->pair_lock);
	v4l2_m2m_buf_done(src, state);
	v4l2_m2m_buf_done(dst, state);
	mutex_unlock(&ctx->pair_lock);
	v4l2_m2m_job_finish(dev->m2m_dev, m2m_ctx);
}

void vhqv_run_work(struct work_struct *work)
{
	struct vhqv_dev *dev = container_of(work, struct vhqv_dev, run_work);
	struct vhqv_ctx *ctx = v4l2_m2m_get_curr_priv(dev->m2m_dev);

	/*
	 * With KCOV (the debug kernel), the job's coverage goes to the task
	 * whose call started it, as if the call had run it (the fuzzer,
	 * tests/vm/vhqv-fuzz.c); nothing without. ctx may be gone after
	 * run_job(), which finishes the job.
	 */
	kcov_remote_start_common(ctx->kcov_handle);
	run_job(dev, ctx);
	kcov_remote_stop();
}

/*
 * poll() finds a frame's two buffers back together, or neither.
 * v4l2-mem2mem's poll looks at OUTPUT, then CAPTURE, each under its own
 * done_lock, and the worker returns them one after the other: a reader
 * between the two saw one buffer alone. v4l2-compliance's select and
 * epoll loops, which count frames by OUTPUT buffers and stop only after
 * reading a CAPTURE one, then took one frame too many and never ended
 * (under load, on a TCG guest: an interrupt between the two is enough).
 * Turning interrupts or preemption off around the pair would not do: it
 * orders nothing on another CPU, and on PREEMPT_RT the done_lock sleeps.
 */
__poll_t vhqv_poll(struct file *file, poll_table *wait)
{
	struct vhqv_ctx *ctx = file_to_ctx(file);
	__poll_t ret;

	mutex_lock(&ctx->pair_lock);
	ret = v4l2_m2m_poll(file, ctx->fh.m2m_ctx, wait);
	mutex_unlock(&ctx->pair_lock);
	return ret;
}

static void vhqv_device_run(void *priv)
{
	struct vhqv_ctx *ctx = priv;
	u64 handle;

	WRITE_ONCE(ctx->aborting, false);
	/*
	 * device_run runs in the call that made the job ready, or after the
	 * job before, in v4l2-mem2mem's worker, whose handle is 0: a
	 * context's jobs keep the handle of the last call that had one, so
	 * that every frame of a stream counts, not only its first.
	 */
	handle = kcov_common_handle();
	if (handle)
		ctx->kcov_handle = handle;
	queue_work(ctx->dev->wq, &ctx->dev->run_work);
}

static void vhqv_job_abort(void *priv)
{
	struct vhqv_ctx *ctx = priv;

	WRITE_ONCE(ctx->aborting, true);
}

/*
 * Free a file's m2m context (vhqv_release(), under dev_mutex).
 * v4l2_m2m_ctx_release() alone would free it while the worker may still be
 * inside v4l2_m2m_job_finish() for it: the core wakes the waiter as it
 * clears TRANS_RUNNING, then reads the context again to queue its next
 * job (KASAN saw that use after free on the debug kernel, a loaded host
 * having stopped the vCPU in between). So no new job starts, this file's
 * running one is told to stop, the current job ends and the worker
 * returns; only then is the context freed, and the other files' jobs go on.
 */
void vhqv_m2m_ctx_release(struct vhqv_ctx *ctx)
{
	struct vhqv_dev *dev = ctx->dev;

	vhqv_job_abort(ctx);
	v4l2_m2m_suspend(dev->m2m_dev);
	flush_work(&dev->run_work);
	v4l2_m2m_ctx_release(ctx->fh.m2m_ctx);
	v4l2_m2m_resume(dev->m2m_dev);
}

/* Called under the m2m core's spinlock: flags only, no cfg_lock. */
static int vhqv_job_ready(void *priv)
{
	struct vhqv_ctx *ctx = priv;

	return READ_ONCE(ctx->may_run) &&
	       v4l2_m2m_num_src_bufs_ready(ctx->fh.m2m_ctx) > 0 &&
	       v4l2_m2m_num_dst_bufs_ready(ctx->fh.m2m_ctx) > 0;
}

const struct v4l2_m2m_ops vhqv_m2m_ops = {
	.device_run	= vhqv_device_run,
	.job_ready	= vhqv_job_ready,
	.job_abort	= vhqv_job_abort,
};

/*
 * Queue operations
 */

static struct vhqv_q_data *queue_q_data(struct vhqv_ctx *ctx,
					struct vb2_queue *vq)
{
	struct vhqv_config *cfg = vhqv_config_for_write(ctx);

	return &cfg->q[V4L2_TYPE_IS_OUTPUT(vq->type) ? VHQV_SRC : VHQV_DST];
}

/*
 * Buffers are sized from the queue's format, MMAP planes 2 bytes at least
 * (vhqv_plane_length()). The memory the driver allocates (MMAP buffers,
 * both queues of a context) is held to the ctx_mem_mb module parameter:
 * a request past it gets ENOMEM before anything is allocated. REQBUFS
 * has freed the queue's buffers (and buf_cleanup uncounted them) before
 * it gets here; CREATE_BUFS adds.
 */
static int vhqv_queue_setup(struct vb2_queue *vq, unsigned int *nbuffers,
			    unsigned int *nplanes, unsigned int sizes[],
			    struct device *alloc_devs[])
{
	struct vhqv_ctx *ctx = vb2_get_drv_priv(vq);
	u64 cap = (u64)vhqv_ctx_mem_mb << 20, per_buffer = 0;
	struct vhqv_q_data q;
	unsigned int p;

	mutex_lock(&ctx->cfg_lock);
	q = *queue_q_data(ctx, vq);
	mutex_unlock(&ctx->cfg_lock);

	if (*nplanes) {
		if (*nplanes != q.fmt->mem_planes)
			return -EINVAL;
		for (p = 0; p < *nplanes; p++)
			if (sizes[p] < q.sizeimage[p])
				return -EINVAL;
	} else {
		*nplanes = q.fmt->mem_planes;
		for (p = 0; p < *nplanes; p++)
			sizes[p] = q.sizeimage[p];
	}
	for (p = 0; p < *nplanes; p++) {
		sizes[p] = vhqv_plane_length(vq->memory, sizes[p]);
		per_buffer += PAGE_ALIGN(sizes[p]);
	}

	if (vq->memory == VB2_MEMORY_MMAP &&
	    per_buffer * *nbuffers + ctx->mem_bytes[VHQV_SRC] +
	    ctx->mem_bytes[VHQV_DST] > cap)
		return -ENOMEM;
	return 0;
}

static u64 *mem_counter(struct vb2_buffer *vb)
{
	struct vhqv_ctx *ctx = vb2_get_drv_priv(vb->vb2_queue);

	return &ctx->mem_bytes[V4L2_TYPE_IS_OUTPUT(vb->vb2_queue->type) ?
			       VHQV_SRC : VHQV_DST];
}

static u64 buffer_bytes(struct vb2_buffer *vb)
{
	u64 bytes = 0;
	unsigned int p;

	for (p = 0; p < vb->num_planes; p++)
		bytes += PAGE_ALIGN(vb->planes[p].length);
	return bytes;
}

static int vhqv_buf_init(struct vb2_buffer *vb)
{
	if (vb->memory == VB2_MEMORY_MMAP)
		*mem_counter(vb) += buffer_bytes(vb);
	return 0;
}

static void vhqv_buf_cleanup(struct vb2_buffer *vb)
{
	if (vb->memory == VB2_MEMORY_MMAP)
		*mem_counter(vb) -= min(*mem_counter(vb), buffer_bytes(vb));
}

static int vhqv_buf_out_validate(struct vb2_buffer *vb)
{
	struct vb2_v4l2_buffer *vbuf = to_vb2_v4l2_buffer(vb);
	struct vhqv_ctx *ctx = vb2_get_drv_priv(vb->vb2_queue);
	struct vhqv_q_data q;

	mutex_lock(&ctx->cfg_lock);
	q = *queue_q_data(ctx, vb->vb2_queue);
	mutex_unlock(&ctx->cfg_lock);

	return vhqv_out_field(&q, &vbuf->field);
}

/*
 * Each plane must hold the queue's format; an OUTPUT plane must also carry
 * a whole frame after its data_offset.
 */
static int vhqv_buf_prepare(struct vb2_buffer *vb)
{
	struct vhqv_ctx *ctx = vb2_get_drv_priv(vb->vb2_queue);
	bool is_output = V4L2_TYPE_IS_OUTPUT(vb->vb2_queue->type);
	struct vhqv_q_data q;
	unsigned int p;

	mutex_lock(&ctx->cfg_lock);
	q = *queue_q_data(ctx, vb->vb2_queue);
	mutex_unlock(&ctx->cfg_lock);

	if (vb->num_planes != q.fmt->mem_planes)
		return -EINVAL;
	for (p = 0; p < vb->num_planes; p++) {
		u32 offset = is_output ? vb->planes[p].data_offset : 0;

		if (vb2_plane_size(vb, p) < q.sizeimage[p] + (u64)offset)
			return -EINVAL;
		if (is_output && vb2_get_plane_payload(vb, p) <
				 q.sizeimage[p] + (u64)offset)
			return -EINVAL;
		if (!is_output)
			vb2_set_plane_payload(vb, p, q.sizeimage[p]);
	}
	return 0;
}

/* vhqv_capture_fits() of a vb2 buffer. */
static bool capture_fits(struct vhqv_ctx *ctx, struct vb2_buffer *vb)
{
	u32 length[VB2_MAX_PLANES];
	unsigned int p;

	lockdep_assert_held(&ctx->cfg_lock);
	for (p = 0; p < vb->num_planes; p++)
		length[p] = vb2_plane_size(vb, p);
	return vhqv_capture_fits(&ctx->st, length, vb->num_planes);
}

/*
 * A CAPTURE buffer comes back at once, empty, when it ends a drain or a
 * geometry change that had no frame to flag (vhqv_flow_capture_queued()),
 * or with ERROR when it is too small for the frame.
 */
static void capture_queue(struct vhqv_ctx *ctx, struct vb2_v4l2_buffer *vbuf)
{
	struct vb2_buffer *vb = &vbuf->vb2_buf;
	struct vhqv_flow_do out = {};
	unsigned int p;

	mutex_lock(&ctx->cfg_lock);
	if (vb2_is_streaming(vb->vb2_queue))
		vhqv_flow_capture_queued(&ctx->st.flow, &out);
	if (out.empty_last) {
		out.empty_last = 0;
		vhqv_flow_do(ctx, &out);
		capture_last_empty(ctx, vbuf);
	} else if (!capture_fits(ctx, vb)) {
		for (p = 0; p < vb->num_planes; p++)
			vb2_set_plane_payload(vb, p, 0);
		vb2_buffer_done(vb, VB2_BUF_STATE_ERROR);
	} else {
		v4l2_m2m_buf_queue(ctx->fh.m2m_ctx, vbuf);
	}
	mutex_unlock(&ctx->cfg_lock);
}

static void vhqv_buf_queue(struct vb2_buffer *vb)
{
	struct vhqv_ctx *ctx = vb2_get_drv_priv(vb->vb2_queue);
	struct vb2_v4l2_buffer *vbuf = to_vb2_v4l2_buffer(vb);

	if (V4L2_TYPE_IS_OUTPUT(vb->vb2_queue->type))
		v4l2_m2m_buf_queue(ctx->fh.m2m_ctx, vbuf);
	else
		capture_queue(ctx, vbuf);
}

static int vhqv_start_streaming(struct vb2_queue *vq, unsigned int count)
{
	struct vhqv_ctx *ctx = vb2_get_drv_priv(vq);
	unsigned int queue = V4L2_TYPE_IS_OUTPUT(vq->type) ? VHQV_SRC : VHQV_DST;

	ctx->sequence[queue] = 0;
	if (queue == VHQV_SRC)
		ctx->prev_valid = false;
	mutex_lock(&ctx->cfg_lock);
	vhqv_flow_streamon(&ctx->st.flow, queue);
	WRITE_ONCE(ctx->may_run, vhqv_flow_may_run(&ctx->st.flow));
	mutex_unlock(&ctx->cfg_lock);
	return 0;
}

/*
 * The queue's buffers come back with ERROR; OUTPUT stopping mid-drain ends
 * the drain, and a change waiting for OUTPUT's frames happens now.
 */
static void vhqv_stop_streaming(struct vb2_queue *vq)
{
	struct vhqv_ctx *ctx = vb2_get_drv_priv(vq);
	struct v4l2_m2m_ctx *m2m_ctx = ctx->fh.m2m_ctx;
	bool is_output = V4L2_TYPE_IS_OUTPUT(vq->type);
	struct vb2_v4l2_buffer *vbuf;
	struct vhqv_flow_do out;

	for (;;) {
		vbuf = is_output ? v4l2_m2m_src_buf_remove(m2m_ctx) :
				   v4l2_m2m_dst_buf_remove(m2m_ctx);
		if (!vbuf)
			break;
		v4l2_m2m_buf_done(vbuf, VB2_BUF_STATE_ERROR);
	}

	mutex_lock(&ctx->cfg_lock);
	vhqv_flow_streamoff(&ctx->st.flow, is_output ? VHQV_SRC : VHQV_DST,
			    capture_ready(ctx), &out);
	vhqv_flow_do(ctx, &out);
	mutex_unlock(&ctx->cfg_lock);
}

static const struct vb2_ops vhqv_qops = {
	.queue_setup		= vhqv_queue_setup,
	.buf_init		= vhqv_buf_init,
	.buf_out_validate	= vhqv_buf_out_validate,
	.buf_prepare		= vhqv_buf_prepare,
	.buf_queue		= vhqv_buf_queue,
	.buf_cleanup		= vhqv_buf_cleanup,
	.start_streaming	= vhqv_start_streaming,
	.stop_streaming		= vhqv_stop_streaming,
	.wait_prepare		= vb2_ops_wait_prepare,
	.wait_finish		= vb2_ops_wait_finish,
};

int vhqv_queue_init(void *priv, struct vb2_queue *src_vq,
		    struct vb2_queue *dst_vq)
{
	struct vhqv_ctx *ctx = priv;
	struct vb2_queue *queues[] = { src_vq, dst_vq };
	unsigned int i;
	int ret;

	src_vq->type = ctx->mplane ? V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE :
				     V4L2_BUF_TYPE_VIDEO_OUTPUT;
	dst_vq->type = ctx->mplane ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE :
				     V4L2_BUF_TYPE_VIDEO_CAPTURE;
	for (i = 0; i < ARRAY_SIZE(queues); i++) {
		struct vb2_queue *vq = queues[i];

		vq->io_modes = VB2_MMAP | VB2_USERPTR | VB2_DMABUF;
		vq->drv_priv = ctx;
		vq->buf_struct_size = sizeof(struct v4l2_m2m_buffer);
		vq->ops = &vhqv_qops;
		vq->mem_ops = &vb2_vmalloc_memops;
		vq->timestamp_flags = V4L2_BUF_FLAG_TIMESTAMP_COPY;
		vq->lock = &ctx->vb_mutex;
		ret = vb2_queue_init(vq);
		if (ret)
			return ret;
	}
	return 0;
}
