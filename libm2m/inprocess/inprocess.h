/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The in-process device (m2m_transport_inprocess): vhqv's multi-planar
 * node, loaded with semiplanar=1, emulated in this process over the HQV
 * engine. What a format, a rectangle, a control or a job is comes from
 * v4l2/hqv-v4l2.c, which vhqv.ko runs too; these files emulate what the
 * kernel around it does (videobuf2, v4l2-mem2mem, v4l2-ctrls, v4l2-event)
 * with V4L2's error codes.
 *
 * context.c   the transport table, open/close, the ioctl switch, poll
 * formats.c   QUERYCAP, formats, frame sizes, selection
 * controls.c  the control ioctls
 * buffers.c   buffers and queues: REQBUFS ... STREAMOFF, mmap
 * events.c    event subscriptions and the event queue
 * run.c       the worker thread: jobs, draining, geometry changes
 * pool.c      the band pool: a frame's bands across threads
 * userptr.c   USERPTR memory in a job: copied, so that an munmap() fails
 *             the frame instead of faulting
 *
 * One mutex per context guards all of it; the worker drops it while the
 * engine runs. Contexts are independent.
 */
#ifndef M2M_INPROCESS_H
#define M2M_INPROCESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/time.h>
#include <linux/videodev2.h>

#include "hqv-v4l2.h"
#include "../handle.h"

#define IP_MAX_BUFFERS		VIDEO_MAX_FRAME
/* MMAP memory one context may hold on its two queues: vhqv's ctx_mem_mb. */
#define IP_CTX_MEM_BYTES	(512ull << 20)
/* vb2 gives CAPTURE's mmap offsets this base (DST_QUEUE_OFF_BASE). */
#define IP_DST_OFFSET_BASE	(1u << 30)
/* Threads a frame's bands run on at most (struct m2m_open_options). */
#define IP_MAX_THREADS		64
#define IP_MAX_SUBS		32
#define IP_MAX_EVENTS		128

enum ip_buf_state {
	IP_BUF_DEQUEUED,	/* the application's */
	IP_BUF_QUEUED,		/* queued, waiting for STREAMON */
	IP_BUF_ACTIVE,		/* the device's: on the ready list or in a job */
	IP_BUF_DONE,		/* on the done list, for DQBUF */
};

struct ip_plane {
	/* V4L2's view: the length, and the bytes used from data_offset. */
	uint32_t length;
	uint32_t min_length;		/* what the format needed at REQBUFS */
	uint32_t bytesused;
	uint32_t data_offset;
	uint32_t mem_offset;		/* MMAP: what mmap() takes */
	unsigned long userptr;		/* USERPTR */
	int dmabuf_fd;			/* DMABUF: the application's fd */
	/* The memory: a memfd (MMAP) or a dup of the dma-buf, mapped. */
	int fd;
	uint8_t *addr;
	size_t map_len;
};

struct ip_buffer {
	unsigned int index;
	enum ip_buf_state state;
	bool error;
	/* Flags the application set that the buffer keeps, plus LAST. */
	uint32_t flags;
	uint32_t field;
	uint32_t sequence;
	struct timeval timestamp;
	struct v4l2_timecode timecode;
	unsigned int num_planes;
	struct ip_plane planes[VIDEO_MAX_PLANES];
};

struct ip_queue {
	uint32_t type;
	uint32_t memory;		/* 0 while it has no buffers */
	unsigned int num_buffers;
	struct ip_buffer bufs[IP_MAX_BUFFERS];
	bool streaming;
	/* DQBUF returned a LAST buffer: it now fails with EPIPE. */
	bool last_buffer_dequeued;
	/* FIFOs of buffer indices: queued before STREAMON, ready, done. */
	unsigned int queued[IP_MAX_BUFFERS], n_queued;
	unsigned int ready[IP_MAX_BUFFERS], n_ready;
	unsigned int done[IP_MAX_BUFFERS], n_done;
	/* Bytes of MMAP buffers, held to IP_CTX_MEM_BYTES with the other. */
	uint64_t mem_bytes;
};

struct ip_sub {
	uint32_t type;
	uint32_t id;
	uint32_t flags;
	unsigned int elems;
	unsigned int in_use;
};

struct ip_event {
	struct v4l2_event ev;
	struct ip_sub *sub;
};

struct ip_pool;

struct ip_helper {
	struct ip_pool *pool;
	pthread_t thread;
	void *scratch;		/* its own band scratch */
	size_t scratch_size;
};

/* pool.c's: the context's worker and threads - 1 helpers. */
struct ip_pool {
	unsigned int threads;
	bool started;
	unsigned int n_helpers;
	struct ip_helper helpers[IP_MAX_THREADS - 1];
	/*
	 * Helpers yet to take the job (each takes one ticket), and those
	 * that took it and are still on it: written under lock with atomic
	 * stores, since a thread about to sleep watches them without it
	 * (pool.c, spin_on()).
	 */
	pthread_mutex_t lock;
	pthread_cond_t start, done;
	unsigned int tickets, busy;
	bool quit;
	/* The job, set before the helpers start on it. */
	const struct hqv_job *job;
	size_t scratch_size;
	uint32_t band_rows, bands;
	/*
	 * atomic: how many bands were taken from the top of the frame (the
	 * low 32 bits, by the job's thread) and from the bottom (the high
	 * 32, by the helpers), in one word so that each take sees both.
	 */
	uint64_t taken;
	const bool *aborting;
	bool aborted;		/* atomic */
	/* The job's thread found a stop signal pending (pool.c). */
	bool interrupted;	/* atomic */
};

/* userptr.c's: the running job's copy of a queue's USERPTR memory. */
struct ip_copy {
	void *mem;
	size_t size;
	/* The planes copied, 0 when the job uses the memory where it is. */
	unsigned int planes;
	/* The copy is filled from the memory before the job (not when the
	 * engine writes all of it). */
	bool read_in;
	size_t offset[VIDEO_MAX_PLANES];
	size_t len[VIDEO_MAX_PLANES];
};

struct ip_ctx {
	/* Listed by fd, for calls from any thread (context.c). */
	struct m2m_handle handle;
	int fd;			/* an eventfd: the handle, and wait_fd */
	bool nonblock;
	/* The application keeps USERPTR memory mapped while it is queued
	 * (M2M_OPEN_USERPTR_MAPPED): jobs use it in place (userptr.c). */
	bool userptr_mapped;
	bool fd_watched;	/* wait_fd() handed it out: it follows poll() */
	bool signalled;		/* the eventfd is readable */
	pthread_mutex_t lock;
	/*
	 * Any change of state: DQBUF and poll() wait on it, running a ready
	 * job first (run.c). waiters: threads that will run a ready job
	 * themselves, those waiting and the transport's job holds
	 * (m2m_convert()'s, m2m_hold_jobs()'s). held: memory holds,
	 * m2m_convert()'s, whose USERPTR memory is valid until it is done
	 * (userptr.c).
	 */
	pthread_cond_t changed;
	unsigned int waiters;
	unsigned int held;
	/* A job is ready and no one waits to run it: the worker's. */
	pthread_cond_t work;
	pthread_t worker;
	bool quit;
	/* Being closed: waits end, a running job is abandoned (context.c). */
	bool closing;

	/*
	 * What jobs read, a geometry change waiting to take effect, and
	 * draining and geometry changes (v4l2/hqv-v4l2.h), run.c's.
	 */
	struct vhqv_state st;
	int32_t ctrl_val[VHQV_NUM_CTRLS];

	struct ip_queue q[2];
	uint32_t sequence[2];
	/* A job runs (its buffers stay on the ready lists); abort it. */
	bool job_running;
	bool aborting;

	struct ip_sub subs[IP_MAX_SUBS];
	unsigned int n_subs;
	struct ip_event events[IP_MAX_EVENTS];
	unsigned int n_events;
	uint32_t event_sequence;

	/* The worker's: the previous OUTPUT frame, and engine scratch. */
	struct hqv_image prev;
	void *prev_buf;
	size_t prev_size;
	bool prev_valid;
	void *scratch;
	size_t scratch_size;
	/* Replaced under the lock while no job runs (context.c). */
	struct ip_pool pool;
	struct ip_copy copy[2];
};

static inline unsigned int ip_queue_of(uint32_t type)
{
	return V4L2_TYPE_IS_OUTPUT(type) ? VHQV_SRC : VHQV_DST;
}

/* pool.c */
bool ip_reserve(void **buf, size_t *have, size_t size);
/*
 * A thread of the library's: the signals that ask to stop stay blocked,
 * and it has a name (IP_THREAD_*: what top -H, gdb and /proc show).
 */
#define IP_THREAD_WORKER	"m2m-worker"
#define IP_THREAD_BANDS		"m2m-bands"
int ip_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg,
		     const char *name);
/* threads 0: one per online CPU. */
void ip_pool_init(struct ip_pool *pool, unsigned int threads);
/*
 * A prepared job's bands on the pool: 0, -ECANCELED when *aborting was
 * set, -ENOMEM, or, when interruptible (the calling thread runs the job
 * for a caller's wait), -EINTR when a signal that asks the process to
 * stop reached it, whose handler has then run.
 */
int ip_pool_run(struct ip_pool *pool, const struct hqv_job *job,
		void **scratch, size_t *scratch_size, const bool *aborting,
		bool interruptible, void (*side)(void *), void *side_arg);
void ip_pool_free(struct ip_pool *pool);

/* userptr.c */
/*
 * Under the lock: where the job reads (OUTPUT) or writes (CAPTURE) buf's
 * planes, the context's copy for USERPTR memory; false: out of memory.
 */
bool ip_job_planes(struct ip_ctx *ctx, unsigned int queue,
		   const struct ip_buffer *buf, const struct vhqv_q_data *q,
		   uint8_t *mem[], size_t size[]);
/* Fill the copy from buf's memory, or buf's memory from it (out): false
 * when the memory is gone. Nothing to do without a copy. */
bool ip_job_copy(struct ip_ctx *ctx, unsigned int queue,
		 const struct ip_buffer *buf, bool out);

/* context.c */
bool ip_type_ok(uint32_t type);
/* The state changed: wake waiters, make the eventfd follow poll(). */
void ip_changed(struct ip_ctx *ctx);
short ip_poll_mask(const struct ip_ctx *ctx);

/* formats.c */
/* Every format at every size the engine takes, as vhqv's defaults. */
extern const struct vhqv_offer ip_offer;
int ip_querycap(struct ip_ctx *ctx, struct v4l2_capability *cap);
int ip_enum_fmt(struct ip_ctx *ctx, struct v4l2_fmtdesc *f);
int ip_enum_framesizes(struct ip_ctx *ctx, struct v4l2_frmsizeenum *fsize);
int ip_g_fmt(struct ip_ctx *ctx, struct v4l2_format *f);
int ip_try_fmt(struct ip_ctx *ctx, struct v4l2_format *f);
int ip_s_fmt(struct ip_ctx *ctx, struct v4l2_format *f);
int ip_g_selection(struct ip_ctx *ctx, struct v4l2_selection *s);
int ip_s_selection(struct ip_ctx *ctx, struct v4l2_selection *s);

/* controls.c */
void ip_ctrls_init(struct ip_ctx *ctx);
int ip_queryctrl(struct ip_ctx *ctx, struct v4l2_queryctrl *qc);
int ip_query_ext_ctrl(struct ip_ctx *ctx, struct v4l2_query_ext_ctrl *qc);
int ip_querymenu(struct ip_ctx *ctx, struct v4l2_querymenu *qm);
int ip_g_ctrl(struct ip_ctx *ctx, struct v4l2_control *c);
int ip_s_ctrl(struct ip_ctx *ctx, struct v4l2_control *c);
int ip_ext_ctrls(struct ip_ctx *ctx, unsigned long request,
		 struct v4l2_ext_controls *cs);
/* For CTRL events: the control's description, or NULL. */
const struct vhqv_ctrl *ip_ctrl_find(uint32_t id, unsigned int *index);
void ip_ctrl_event(const struct ip_ctx *ctx, unsigned int index,
		   uint32_t changes, struct v4l2_event *ev);

/* buffers.c */
int ip_reqbufs(struct ip_ctx *ctx, struct v4l2_requestbuffers *req);
int ip_create_bufs(struct ip_ctx *ctx, struct v4l2_create_buffers *cb);
int ip_querybuf(struct ip_ctx *ctx, struct v4l2_buffer *b);
int ip_qbuf(struct ip_ctx *ctx, struct v4l2_buffer *b);
int ip_dqbuf(struct ip_ctx *ctx, struct v4l2_buffer *b);
int ip_expbuf(struct ip_ctx *ctx, struct v4l2_exportbuffer *eb);
int ip_streamon(struct ip_ctx *ctx, const uint32_t *type);
int ip_streamoff(struct ip_ctx *ctx, const uint32_t *type);
void *ip_mmap(struct ip_ctx *ctx, void *start, size_t length, int prot,
	      int flags, int64_t offset);
/* Free both queues' buffers (close). */
void ip_buffers_free(struct ip_ctx *ctx);
/* The device is done with a buffer: onto the done list. */
void ip_buf_done(struct ip_ctx *ctx, unsigned int queue,
		 struct ip_buffer *buf, bool error);
/* Take a buffer off a queue's ready list. */
void ip_ready_remove(struct ip_queue *q, unsigned int index);

/* events.c */
int ip_subscribe_event(struct ip_ctx *ctx,
		       const struct v4l2_event_subscription *sub);
int ip_unsubscribe_event(struct ip_ctx *ctx,
			 const struct v4l2_event_subscription *sub);
int ip_dqevent(struct ip_ctx *ctx, struct v4l2_event *ev);
/* Queue an event if subscribed to, as v4l2_event_queue_fh() does. */
void ip_queue_event(struct ip_ctx *ctx, const struct v4l2_event *ev);
/* The common events: SOURCE_CHANGE's changes, FRAME_SYNC's sequence. */
void ip_queue_simple_event(struct ip_ctx *ctx, uint32_t type, uint32_t arg);
/* A control changed: CTRL events for those subscribed to it. */
void ip_send_ctrl_event(struct ip_ctx *ctx, unsigned int index,
			uint32_t changes);

/* run.c */
int ip_worker_start(struct ip_ctx *ctx);
void ip_worker_stop(struct ip_ctx *ctx);
/*
 * A thread about to wait runs the job that is ready, if any: 1 if it did,
 * 0 if none was, -EINTR if a signal that asks the process to stop made it
 * abandon the frame (its buffers come back flagged ERROR): the wait ends.
 */
int ip_run_ready_job(struct ip_ctx *ctx);
/* Wait on changed as a waiter that runs jobs (run.c); timedwait's result. */
int ip_wait(struct ip_ctx *ctx, const struct timespec *deadline);
/* A job is ready that no waiter will run: wake the worker. */
void ip_kick_worker(struct ip_ctx *ctx);
/* What a transition of the flow asks (vhqv_flow_do() in the module). */
void ip_flow_do(struct ip_ctx *ctx, const struct vhqv_flow_do *out);
/* The queues as S_FMT and S_CTRL decide with (vhqv_read_queues()). */
void ip_read_queues(const struct ip_ctx *ctx, struct vhqv_queues *qs);
int ip_encoder_cmd(struct ip_ctx *ctx, unsigned long request,
		   struct v4l2_encoder_cmd *ec);
/* The running job, if any, stops at its next band (close's). */
void ip_abort_job(struct ip_ctx *ctx);
/* STREAMOFF and close: stop the running job and wait until it is done. */
void ip_cancel_job(struct ip_ctx *ctx);
/* vhqv's vb2 buf_queue: a buffer goes to the device. */
void ip_buf_queue(struct ip_ctx *ctx, unsigned int queue,
		  struct ip_buffer *buf);
void ip_start_streaming(struct ip_ctx *ctx, unsigned int queue);
void ip_stop_streaming(struct ip_ctx *ctx, unsigned int queue);

#endif /* M2M_INPROCESS_H */
