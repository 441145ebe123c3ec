/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vhqv-priv.h: what the files of the vhqv driver share.
 *
 * vhqv-core.c   module, instances, nodes, open/release, statistics
 * vhqv-fmt.c    formats, selection, the ioctl tables of both nodes
 * vhqv-run.c    queues, jobs, draining, geometry changes, events
 * vhqv-ctrls.c  controls
 * vhqv-ir.c     the IR device (rc-core, raw, looped back)
 * vhqv-rcmm.c   an RC-MM decoder and encoder, where the kernel has none
 *
 * What V4L2 semantics need no kernel (formats, selection, the control
 * table, jobs) is v4l2/hqv-v4l2.c, shared with libm2m's in-process
 * device.
 */
#ifndef VHQV_PRIV_H
#define VHQV_PRIV_H

#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#ifdef CONFIG_FAULT_INJECTION
/* After the others: it is not self-contained (6.12). */
#include <linux/fault-inject.h>
#endif

#include <media/v4l2-ctrls.h>
#include <media/v4l2-device.h>
#include <media/v4l2-ioctl.h>
#include <media/v4l2-mem2mem.h>

#include "hqv-v4l2.h"

#define VHQV_NAME		"vhqv"
/* Workers a frame's bands run on at most (the workers parameter). */
#define VHQV_MAX_WORKERS	8

/* Each instance has a node for each buffer API. */
enum vhqv_node {
	VHQV_NODE_SINGLE,	/* V4L2_CAP_VIDEO_M2M: one-buffer formats */
	VHQV_NODE_MPLANE,	/* V4L2_CAP_VIDEO_M2M_MPLANE: all formats */
	VHQV_NODES,
};

struct vhqv_dev;
struct vhqv_ctx;

/* A worker that takes bands of the running job beside the job's own. */
struct vhqv_helper {
	struct work_struct work;
	struct vhqv_dev *dev;
	void *scratch;		/* its own engine scratch memory */
	size_t scratch_size;
};

/*
 * The running job's bands (vhqv-run.c), shared by its work and the
 * helpers it queues: set before they are queued, read-only until they
 * are done, but for the next band to take and whether one saw an abort.
 */
struct vhqv_bands {
	struct vhqv_ctx *ctx;
	u32 rows, count;
	atomic_t next;
	bool aborted;
	atomic_t helpers_left;
	struct completion helpers_done;
};

struct vhqv_dev {
	struct v4l2_device v4l2_dev;
	struct video_device vfd[VHQV_NODES];
	/* Serialises the ioctls of both nodes. */
	struct mutex dev_mutex;
	/* One job queue for both nodes: they share the engine. */
	struct v4l2_m2m_dev *m2m_dev;
	struct workqueue_struct *wq;
	struct work_struct run_work;
	/* Helpers for one job at a time (the m2m core runs one a device). */
	struct workqueue_struct *band_wq;
	struct vhqv_helper helpers[VHQV_MAX_WORKERS - 1];
	struct vhqv_bands bands;
	struct dentry *debugfs;
	/*
	 * Statistics, in debugfs: frames done, those split across workers,
	 * jobs aborted, engine time.
	 */
	atomic64_t frames;
	atomic64_t split_frames;
	atomic64_t aborted;
	atomic64_t busy_ns;
	atomic64_t last_ns;
	/* The IR receiver and transmitter, or NULL without rc-core. */
	struct vhqv_ir *ir;
};

struct vhqv_ctx {
	struct v4l2_fh fh;
	struct vhqv_dev *dev;
	bool mplane;
	/* The formats and sizes this file's node offers (hqv-v4l2.h). */
	struct vhqv_offer offer;
	struct v4l2_ctrl_handler hdl;
	/*
	 * The queues' lock: both vb2 queues of this context, and the m2m
	 * context's q_lock, so the V4L2 core holds it around every buffer
	 * and stream ioctl. What reads a queue's state and acts on it
	 * (S_FMT's "no buffers", a geometry change's "CAPTURE streams",
	 * ENC_CMD) holds it too, outside cfg_lock.
	 */
	struct mutex vb_mutex;
	/*
	 * Held while the worker returns a frame's two buffers and while
	 * poll() looks for them, so that poll() finds both or neither
	 * (vhqv_poll()). Taken with no other lock held.
	 */
	struct mutex pair_lock;
	/*
	 * Protects cfg, next and flow, which the ioctls (format, control,
	 * ENC_CMD, queue), the vb2 callbacks and the worker all touch: every
	 * writer asserts it. Taken inside the control handler's lock and the
	 * queues' vb_mutex, never around them.
	 */
	struct mutex cfg_lock;
	/*
	 * The configuration jobs use, and draining and geometry changes
	 * (hqv-v4l2.h's state machine): a change of the CAPTURE geometry
	 * while CAPTURE streams waits in st.next until the frames queued
	 * before it are done.
	 */
	struct vhqv_state st;
	/* vhqv_flow_may_run(), for job_ready, which cannot take cfg_lock. */
	bool may_run;
	/* Set by job_abort: the running job stops at its next band. */
	bool aborting;
	/* KCOV's handle of the last task whose call made a job ready. */
	u64 kcov_handle;
	u32 sequence[2];
	/* The job in progress and the engine's scratch memory. */
	struct hqv_job job;
	void *scratch;
	size_t scratch_size;
	/*
	 * The previous OUTPUT frame (or field), for motion-adaptive
	 * deinterlacing and for weaving ALTERNATE fields.
	 */
	struct hqv_image prev;
	void *prev_buf;
	size_t prev_size;
	bool prev_valid;
	/* Bytes of buffers allocated on each queue, held to the cap. */
	u64 mem_bytes[2];
};

static inline struct vhqv_ctx *file_to_ctx(struct file *file)
{
	return container_of(file->private_data, struct vhqv_ctx, fh);
}

/* vhqv-core.c */
extern unsigned int vhqv_ctx_mem_mb;
extern unsigned int vhqv_workers;

/* vhqv-fmt.c */
extern const struct v4l2_ioctl_ops vhqv_ioctl_ops[VHQV_NODES];

/* vhqv-run.c */
extern const struct v4l2_m2m_ops vhqv_m2m_ops;
int vhqv_queue_init(void *priv, struct vb2_queue *src_vq,
		    struct vb2_queue *dst_vq);
void vhqv_run_work(struct work_struct *work);
void vhqv_helper_work(struct work_struct *work);
void vhqv_m2m_ctx_release(struct vhqv_ctx *ctx);
__poll_t vhqv_poll(struct file *file, poll_table *wait);
#ifdef CONFIG_FAULT_INJECTION
/* vb2_plane_vaddr() fails (vhqv-run.c); debugfs vhqv/fail_vaddr. */
extern struct fault_attr vhqv_fail_vaddr;
#endif
void vhqv_read_queues(struct vhqv_ctx *ctx, struct vhqv_queues *qs);
struct vhqv_config *vhqv_config_for_write(struct vhqv_ctx *ctx);
void vhqv_queue_event(struct vhqv_ctx *ctx, u32 type, u32 arg);
void vhqv_flow_do(struct vhqv_ctx *ctx, const struct vhqv_flow_do *out);
int vhqv_drain_cmd(struct vhqv_ctx *ctx, u32 cmd);

/* vhqv-ctrls.c */
int vhqv_ctrls_init(struct vhqv_ctx *ctx);

/* vhqv-ir.c: only with rc-core (CONFIG_RC_CORE). */
#if IS_ENABLED(CONFIG_RC_CORE)
int vhqv_ir_register(struct vhqv_dev *dev, struct device *parent);
void vhqv_ir_unregister(struct vhqv_dev *dev);
#else
static inline int vhqv_ir_register(struct vhqv_dev *dev,
				   struct device *parent)
{
	return 0;
}

static inline void vhqv_ir_unregister(struct vhqv_dev *dev)
{
}
#endif

/*
 * vhqv-rcmm.c: only where the kernel lacks CONFIG_IR_RCMM_DECODER. Its
 * protocols are missing from RC_PROTO_BIT_ALL_IR_DECODER there, so the IR
 * device adds them to the protocols it allows.
 */
#ifdef VHQV_RCMM
#define VHQV_RCMM_PROTOCOLS	(RC_PROTO_BIT_RCMM12 | RC_PROTO_BIT_RCMM24 | \
				 RC_PROTO_BIT_RCMM32)
void vhqv_rcmm_register(void);
void vhqv_rcmm_unregister(void);
#else
#define VHQV_RCMM_PROTOCOLS	0
static inline void vhqv_rcmm_register(void)
{
}

static inline void vhqv_rcmm_unregister(void)
{
}
#endif

#endif /* VHQV_PRIV_H */
