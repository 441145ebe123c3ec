/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * vhqv's V4L2 semantics without the kernel: the formats a node offers and
 * how TRY_FMT corrects a request, the selection rectangles, the control
 * table, and the engine job a configuration describes. Compiled into
 * vhqv.ko (kmod/) and into libm2m's in-process device (libm2m/inprocess/),
 * so both negotiate the same formats and hand the engine the same jobs:
 * byte-identical results come from this one place. docs/vhqv.md is the
 * behaviour, for applications.
 *
 * Besides the engine, this depends only on the V4L2 uAPI header, which
 * both worlds have.
 */
#ifndef HQV_V4L2_H
#define HQV_V4L2_H

#include <linux/videodev2.h>

#include "hqv.h"
#include "vhqv.h"

#define VHQV_DEF_WIDTH		640
#define VHQV_DEF_HEIGHT		480

/* The queues: OUTPUT is the job's source, CAPTURE its destination. */
enum { VHQV_SRC = 0, VHQV_DST = 1 };

/* Which formats a node offers (vhqv_offers()). */
#define VHQV_OFFER_MPLANE	0x1	/* one buffer per plane too (NV12M) */
#define VHQV_OFFER_SEMIPLANAR	0x2	/* NV12, NV21, NV16, NV61, NV24 */

/*
 * The smallest largest size a node may offer: a 4:2:0 frame of fields
 * takes 4 lines at least (vhqv_try_fmt()).
 */
#define VHQV_MIN_MAX_SIZE	4

/*
 * What a node offers: its formats, and the largest width and height it
 * takes (the engine's HQV_MAX_WIDTH and HQV_MAX_HEIGHT, or less: vhqv's
 * max_size parameter). The bound is the same for both, as the engine's
 * is, so that a frame turned by ROTATE still fits.
 */
struct vhqv_offer {
	unsigned int formats;	/* VHQV_OFFER_* */
	uint32_t max_size;	/* VHQV_MIN_MAX_SIZE to HQV_MAX_WIDTH */
};

/* A queue's format, and its rectangle (OUTPUT: crop; CAPTURE: compose). */
struct vhqv_q_data {
	const struct hqv_format *fmt;
	uint32_t width;
	uint32_t height;
	uint32_t field;
	uint32_t bytesperline[HQV_MAX_PLANES];
	/*
	 * Bytes of each colour plane, and of each memory plane (NV12: one
	 * memory plane holds both colour planes; NV12M: one each).
	 */
	uint32_t plane_bytes[HQV_MAX_PLANES];
	uint32_t sizeimage[HQV_MAX_PLANES];
	uint32_t colorspace;
	uint32_t xfer_func;
	uint32_t ycbcr_enc;
	uint32_t quantization;
	struct v4l2_rect rect;
};

/* Everything a job reads: formats, rectangles and control values. */
struct vhqv_config {
	struct vhqv_q_data q[2];
	/*
	 * CAPTURE's colorimetry is what the application asked for, kept until
	 * OUTPUT is set again; else OUTPUT's colorspace and the colour rule's
	 * encoding and quantization (docs/vhqv.md, "Colour").
	 */
	bool csc_set;
	/* Control values. */
	uint32_t rotation;
	bool hflip;
	bool vflip;
	uint8_t alpha;
	struct hqv_procamp procamp;
	enum hqv_deinterlace deinterlace;
	enum hqv_scaler scaler;
	uint32_t background;
};

/*
 * Formats
 */

bool vhqv_offers(const struct vhqv_offer *offer,
		 const struct hqv_format *fmt);
/* The index-th format offered, or NULL past the last. */
const struct hqv_format *vhqv_format_at(const struct vhqv_offer *offer,
					unsigned int index);
/* The format with this fourcc if it is offered, else NULL. */
const struct hqv_format *vhqv_format_find(const struct vhqv_offer *offer,
					  uint32_t fourcc);
/* ENUM_FMT's pixelformat and flags; -EINVAL past the last format. */
int vhqv_enum_fmt(const struct vhqv_offer *offer, struct v4l2_fmtdesc *f);
/* ENUM_FRAMESIZES; -EINVAL for a format not offered or index > 0. */
int vhqv_enum_framesizes(const struct vhqv_offer *offer,
			 struct v4l2_frmsizeenum *fsize);

/*
 * The configuration of a new open file: 640x480 YUYV, each side at most
 * the offer's largest size.
 */
void vhqv_config_init(const struct vhqv_offer *offer,
		      struct vhqv_config *cfg);
/* Lines of the frame: an ALTERNATE buffer's height is a field's. */
uint32_t vhqv_frame_height(const struct vhqv_q_data *q);
/* CAPTURE after a new OUTPUT format or a turn (docs/vhqv.md). */
void vhqv_capture_follow(struct vhqv_config *cfg);

/* G_FMT: a queue's format as V4L2's multi-planar format. */
void vhqv_get_fmt(const struct vhqv_config *cfg, uint32_t type,
		  struct v4l2_pix_format_mplane *pix);
/* TRY_FMT: correct pix into a format the device takes, for cfg. */
void vhqv_try_fmt(const struct vhqv_offer *offer,
		  const struct vhqv_config *cfg,
		  uint32_t type, struct v4l2_pix_format_mplane *pix);
/*
 * S_FMT without the buffer checks: correct pix, then set it in cfg. A new
 * OUTPUT format resets the crop and makes CAPTURE follow; the caller
 * decides whether CAPTURE's change is a geometry change.
 */
void vhqv_set_fmt(const struct vhqv_offer *offer, struct vhqv_config *cfg,
		  uint32_t type, struct v4l2_pix_format_mplane *pix);

/* The single-planar API's format, through the multi-planar one. */
void vhqv_pix_to_mp(const struct v4l2_pix_format *pix,
		    struct v4l2_pix_format_mplane *mp);
void vhqv_mp_to_pix(const struct v4l2_pix_format_mplane *mp,
		    struct v4l2_pix_format *pix);

/*
 * Selection: CROP on OUTPUT, COMPOSE on CAPTURE; -EINVAL for another
 * target or type. Setting keeps the rectangle in its frame.
 */
int vhqv_get_selection(const struct vhqv_config *cfg, struct v4l2_selection *s);
int vhqv_set_selection(struct vhqv_config *cfg, struct v4l2_selection *s);

/*
 * Controls
 */

/* A control as V4L2 describes it; the kernel creates them from this. */
struct vhqv_ctrl {
	uint32_t id;
	const char *name;
	uint32_t type;		/* V4L2_CTRL_TYPE_INTEGER, _BOOLEAN, _MENU */
	int32_t min;
	int32_t max;
	int32_t step;
	int32_t def;
	uint32_t flags;
	/* For menus: the item names, NULL-terminated. */
	const char * const *menu;
	/* V4L2 names it (v4l2_ctrl_new_std), else it is vhqv's own. */
	bool standard;
};

extern const struct vhqv_ctrl vhqv_ctrls[];
#define VHQV_NUM_CTRLS	11

/* Set a control's value in a configuration; false if it is not ours. */
bool vhqv_config_set_ctrl(struct vhqv_config *cfg, uint32_t id, int32_t val);

/*
 * Buffers and jobs
 */

/*
 * The length of a memory plane of a buffer, for a request of size bytes
 * (the format's sizeimage, or more by CREATE_BUFS) with memory
 * V4L2_MEMORY_*: what the device allocates (MMAP) is 2 bytes at least. A
 * plane of 1 byte (GREY, YUV420M, YUV444M at 1x1) takes no payload short
 * of its length: bytesused 0 means the whole plane (V4L2), so such a
 * plane cannot be told apart from a short one, and v4l2-compliance's test
 * of a short plane fails. Memory the application brings (USERPTR, DMABUF)
 * needs only size: a 1x1 GREY frame is one byte.
 */
#define VHQV_MIN_PLANE_LENGTH	2
uint32_t vhqv_plane_length(uint32_t memory, uint32_t size);

/*
 * Check and complete an OUTPUT buffer's field against the format (ANY
 * becomes the format's, or TOP for ALTERNATE); -EINVAL if it does not fit.
 */
int vhqv_out_field(const struct vhqv_q_data *q, uint32_t *field);

/*
 * Describe a buffer to the engine. mem[], size[] and offset[] are each
 * memory plane's address, length and data_offset (OUTPUT only); buf_field
 * is the buffer's field (for ALTERNATE).
 */
void vhqv_image_init(struct hqv_image *img, const struct vhqv_config *cfg,
		     unsigned int queue, uint8_t *const mem[],
		     const size_t size[], const uint32_t offset[],
		     uint32_t buf_field);
/* The engine job of a configuration, for the images in job->src/dst. */
void vhqv_job_from_config(struct hqv_job *job, const struct vhqv_config *cfg);
/* Whether the job needs the previous source frame: see struct hqv_job. */
bool vhqv_job_needs_prev(const struct hqv_job *job);
/* Bytes a copy of a source frame takes (vhqv_keep_prev()). */
size_t vhqv_prev_size(const struct vhqv_q_data *q);
/*
 * Copy the source frame into buf (vhqv_prev_size() bytes), described by
 * prev, laid out as the source is: the engine wants prev to match src in
 * format, size and pitch.
 */
void vhqv_keep_prev(struct hqv_image *prev, void *buf,
		    const struct hqv_image *src, const struct vhqv_q_data *q);

/*
 * Draining and geometry changes
 *
 * docs/vhqv.md's "Draining" and "Geometry changes" as one state machine
 * with no buffers in it, as vicodec keeps its decisions out of the driver:
 * the caller (vhqv-run.c, libm2m/inprocess/run.c) calls these under the
 * lock that guards its queues' ready lists and its configuration, and does
 * what the returned struct vhqv_flow_do says with its own buffers.
 * Buffers are named by their index in their queue; -1 is none.
 */
struct vhqv_flow {
	/* ENC_CMD STOP: the frame of drain_src (-1: none queued) ends it. */
	bool draining;
	int drain_src;
	/* Drained: the LAST buffer went out; until START or STREAMOFF. */
	bool stopped;
	/*
	 * The next CAPTURE buffer queued comes back empty with LAST: it ends
	 * a drain that had no frame to flag, or a geometry change's.
	 */
	bool drain_next_capture;
	bool change_next_capture;
	/* A geometry change waits for the frame of change_src. */
	bool change_pending;
	int change_src;
	/* The change took effect: no job until CAPTURE restarts. */
	bool awaiting_capture;
};

/* What the caller does after a transition, in this order. */
struct vhqv_flow_do {
	/*
	 * Take this many CAPTURE buffers off the front of the ready list and
	 * return each empty, numbered as the next frame, with LAST (at most
	 * the capture_ready the call was given).
	 */
	unsigned int empty_last;
	/* The job's CAPTURE buffer carries V4L2_BUF_FLAG_LAST. */
	bool flag_last;
	/* The pending configuration becomes the one jobs use. */
	bool apply;
	/* Queue V4L2_EVENT_EOS, V4L2_EVENT_SOURCE_CHANGE (RESOLUTION). */
	bool eos;
	bool source_change;
	/* START after a drain: DQBUF on CAPTURE no longer fails with EPIPE. */
	bool resume;
};

void vhqv_flow_init(struct vhqv_flow *flow);
/* Whether a job may start (m2m's job_ready, beside the buffer counts). */
bool vhqv_flow_may_run(const struct vhqv_flow *flow);
/*
 * ENC_CMD STOP and START with both queues streaming; -EBUSY while a drain
 * is in progress. last_src is the OUTPUT buffer queued last (a running
 * job's included), capture_ready the CAPTURE buffers ready.
 */
int vhqv_flow_stop(struct vhqv_flow *flow, int last_src,
		   unsigned int capture_ready, struct vhqv_flow_do *out);
int vhqv_flow_start(struct vhqv_flow *flow, struct vhqv_flow_do *out);
/*
 * A geometry change is asked for (the caller keeps the configuration it
 * will apply); capture_streaming is whether CAPTURE streams.
 */
void vhqv_flow_change(struct vhqv_flow *flow, bool capture_streaming,
		      int last_src, unsigned int capture_ready,
		      struct vhqv_flow_do *out);
/*
 * A CAPTURE buffer is queued while CAPTURE streams: out->empty_last says
 * to return it at once instead of queueing it.
 */
void vhqv_flow_capture_queued(struct vhqv_flow *flow,
			      struct vhqv_flow_do *out);
/* The job that read OUTPUT buffer src is done. */
void vhqv_flow_job_done(struct vhqv_flow *flow, int src,
			struct vhqv_flow_do *out);
/* A queue starts streaming (VHQV_SRC or VHQV_DST). */
void vhqv_flow_streamon(struct vhqv_flow *flow, unsigned int queue);
/*
 * A queue stopped streaming, after the caller returned its buffers;
 * capture_ready as above (none when CAPTURE stopped).
 */
void vhqv_flow_streamoff(struct vhqv_flow *flow, unsigned int queue,
			 unsigned int capture_ready, struct vhqv_flow_do *out);

/*
 * A file's state, and what format and control changes do to it
 *
 * What both devices decide when S_FMT or S_CTRL comes: whether the queue
 * may change, and whether the change moves CAPTURE's geometry under its
 * buffers. The caller reads its queues into struct vhqv_queues and calls
 * these under the lock that its queues' buffer ioctls (REQBUFS,
 * CREATE_BUFS, QBUF, STREAMON) and its ready lists are guarded by, so that
 * nothing changes between the reading and the decision; then it does what
 * *out says with its own buffers, as after any transition of the flow.
 */
struct vhqv_state {
	/* The configuration jobs use. */
	struct vhqv_config cfg;
	/* The one a pending geometry change brings (flow.change_pending). */
	struct vhqv_config next;
	struct vhqv_flow flow;
};

/* The queues, as a decision needs them. */
struct vhqv_queues {
	bool has_buffers[2];		/* VHQV_SRC, VHQV_DST */
	bool capture_streaming;
	/* The OUTPUT buffer queued last (a running job's included), or -1. */
	int last_src;
	unsigned int capture_ready;	/* CAPTURE buffers ready */
};

/* A new open file: vhqv_config_init()'s configuration, nothing pending. */
void vhqv_state_init(const struct vhqv_offer *offer, struct vhqv_state *st);
/*
 * The configuration the ioctls read and change: the one a pending
 * geometry change brings, else the one jobs use (docs/vhqv.md).
 */
struct vhqv_config *vhqv_state_writable(struct vhqv_state *st);
/*
 * S_FMT: -EBUSY while the queue has buffers. Else pix is corrected and
 * set; a new OUTPUT format that moves CAPTURE's while CAPTURE has buffers
 * is a geometry change (vhqv_flow_change()), and *out says what follows.
 */
int vhqv_state_set_fmt(const struct vhqv_offer *offer, struct vhqv_state *st,
		       const struct vhqv_queues *qs, uint32_t type,
		       struct v4l2_pix_format_mplane *pix,
		       struct vhqv_flow_do *out);
/*
 * S_CTRL of a value already validated: -EINVAL for a control not ours. A
 * value applies from the next job, even with a change pending; a turn
 * between landscape and portrait resizes CAPTURE, a geometry change while
 * CAPTURE has buffers (*out as above).
 */
int vhqv_state_set_ctrl(struct vhqv_state *st, const struct vhqv_queues *qs,
			uint32_t id, int32_t val, struct vhqv_flow_do *out);
/* What out->apply asks: the pending configuration becomes the one used. */
void vhqv_state_apply(struct vhqv_state *st, const struct vhqv_flow_do *out);
/*
 * Whether a CAPTURE buffer of num_planes planes, length[] bytes each,
 * holds the frame jobs make. One queued while CAPTURE was stopped was
 * checked at QBUF against the geometry of then, which a new OUTPUT format
 * or a turn may have grown since.
 */
bool vhqv_capture_fits(const struct vhqv_state *st, const uint32_t length[],
		       unsigned int num_planes);

/*
 * Events: EOS, SOURCE_CHANGE (arg: its changes) or FRAME_SYNC (arg: the
 * frame's sequence), as both devices queue them.
 */
void vhqv_event_init(struct v4l2_event *ev, uint32_t type, uint32_t arg);

#endif /* HQV_V4L2_H */
