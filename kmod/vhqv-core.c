// SPDX-License-Identifier: GPL-2.0
/*
 * vhqv: a virtual HQV video processing engine, exposed as a V4L2
 * memory-to-memory device.
 *
 * Frames queued on the OUTPUT queue are converted by the HQV engine
 * (engine/, shared with libm2m) and returned on the CAPTURE queue. The
 * engine runs in process context, on the device's workqueue, one band of
 * rows at a time with a preemption point between bands.
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <media/v4l2-ctrls.h>
#include <media/v4l2-device.h>
#include <media/v4l2-event.h>
#include <media/v4l2-ioctl.h>
#include <media/v4l2-mem2mem.h>
#include <media/videobuf2-vmalloc.h>

#include "hqv.h"

#define VHQV_NAME		"vhqv"
#define VHQV_DEF_WIDTH		640
#define VHQV_DEF_HEIGHT		480
/* Rows the engine converts between two preemption points. */
#define VHQV_BAND_ROWS		64

enum { VHQV_SRC = 0, VHQV_DST = 1 };

struct vhqv_q_data {
	const struct hqv_format *fmt;
	u32 width;
	u32 height;
	u32 bytesperline[HQV_MAX_PLANES];
	u32 sizeimage;
	u32 sequence;
};

struct vhqv_dev {
	struct v4l2_device v4l2_dev;
	struct video_device vfd;
	/* Serialises file operations on the video node. */
	struct mutex dev_mutex;
	struct v4l2_m2m_dev *m2m_dev;
	struct workqueue_struct *wq;
	/* The job in progress: the m2m core runs one at a time per device. */
	struct work_struct run_work;
};

struct vhqv_ctx {
	struct v4l2_fh fh;
	struct vhqv_dev *dev;
	struct v4l2_ctrl_handler hdl;
	/* Protects both vb2 queues of this context. */
	struct mutex vb_mutex;
	struct vhqv_q_data q_data[2];
	/* Colorimetry of the OUTPUT queue, which CAPTURE follows. */
	u32 colorspace;
	u32 xfer_func;
	u32 ycbcr_enc;
	u32 quantization;
	/* Control values, written by s_ctrl and read by the running job. */
	bool hflip;
	bool vflip;
	/* Set by job_abort: the running job stops at its next band. */
	bool aborting;
	/* The job in progress and the engine's scratch memory. */
	struct hqv_job job;
	void *scratch;
	size_t scratch_size;
};

static inline struct vhqv_ctx *file_to_ctx(struct file *file)
{
	return container_of(file->private_data, struct vhqv_ctx, fh);
}

static struct vhqv_q_data *get_q_data(struct vhqv_ctx *ctx,
				      enum v4l2_buf_type type)
{
	return &ctx->q_data[V4L2_TYPE_IS_OUTPUT(type) ? VHQV_SRC : VHQV_DST];
}

/* Fill in the geometry of q_data from a format, computing the plane layout. */
static void q_data_set(struct vhqv_q_data *q, const struct hqv_format *fmt,
		       u32 width, u32 height, u32 bytesperline)
{
	u32 size[HQV_MAX_PLANES];

	q->fmt = fmt;
	q->width = width;
	q->height = height;
	memset(q->bytesperline, 0, sizeof(q->bytesperline));
	q->bytesperline[0] = bytesperline;
	q->sizeimage = hqv_format_layout(fmt, width, height, q->bytesperline,
					 size);
}

/*
 * mem2mem operations
 */

/* The engine's encoding and quantization for a queue's V4L2 colorimetry. */
static void vhqv_image_colour(struct hqv_image *img, const struct vhqv_ctx *ctx)
{
	u32 enc = ctx->ycbcr_enc, quant = ctx->quantization;

	if (enc == V4L2_YCBCR_ENC_DEFAULT)
		enc = V4L2_MAP_YCBCR_ENC_DEFAULT(ctx->colorspace);
	if (quant == V4L2_QUANTIZATION_DEFAULT)
		quant = V4L2_MAP_QUANTIZATION_DEFAULT(!img->fmt->is_yuv,
						      ctx->colorspace, enc);
	switch (enc) {
	case V4L2_YCBCR_ENC_709:
	case V4L2_YCBCR_ENC_XV709:
		img->encoding = HQV_ENC_BT709;
		break;
	case V4L2_YCBCR_ENC_BT2020:
	case V4L2_YCBCR_ENC_BT2020_CONST_LUM:
		img->encoding = HQV_ENC_BT2020;
		break;
	default:
		img->encoding = HQV_ENC_BT601;
		break;
	}
	img->quantization = quant == V4L2_QUANTIZATION_FULL_RANGE ?
			    HQV_QUANT_FULL : HQV_QUANT_LIMITED;
}

/* Describe a buffer to the engine: its planes follow one another. */
static void vhqv_image_from_buf(struct hqv_image *img,
				const struct vhqv_ctx *ctx,
				const struct vhqv_q_data *q,
				struct vb2_v4l2_buffer *vbuf)
{
	hqv_image_init(img, q->fmt, q->width, q->height, q->bytesperline[0],
		       vb2_plane_vaddr(&vbuf->vb2_buf, 0),
		       vb2_plane_size(&vbuf->vb2_buf, 0));
	vhqv_image_colour(img, ctx);
}

/* Scratch memory for the engine, kept while the geometry does not grow. */
static int vhqv_scratch_reserve(struct vhqv_ctx *ctx, size_t size)
{
	if (size <= ctx->scratch_size)
		return 0;
	kvfree(ctx->scratch);
	ctx->scratch = kvmalloc(size, GFP_KERNEL);
	ctx->scratch_size = ctx->scratch ? size : 0;
	return ctx->scratch ? 0 : -ENOMEM;
}

static void vhqv_run_work(struct work_struct *work)
{
	struct vhqv_dev *dev = container_of(work, struct vhqv_dev, run_work);
	struct vhqv_ctx *ctx = v4l2_m2m_get_curr_priv(dev->m2m_dev);
	struct vhqv_q_data *q_src = &ctx->q_data[VHQV_SRC];
	struct vhqv_q_data *q_dst = &ctx->q_data[VHQV_DST];
	enum vb2_buffer_state state = VB2_BUF_STATE_DONE;
	struct vb2_v4l2_buffer *src, *dst;
	struct hqv_job *job = &ctx->job;
	u32 y;

	src = v4l2_m2m_src_buf_remove(ctx->fh.m2m_ctx);
	dst = v4l2_m2m_dst_buf_remove(ctx->fh.m2m_ctx);

	memset(job, 0, sizeof(*job));
	vhqv_image_from_buf(&job->src, ctx, q_src, src);
	vhqv_image_from_buf(&job->dst, ctx, q_dst, dst);
	job->hflip = READ_ONCE(ctx->hflip);
	job->vflip = READ_ONCE(ctx->vflip);

	if (hqv_job_prepare(job)) {
		/* try_fmt keeps the queues consistent; this is a driver bug. */
		v4l2_err(&dev->v4l2_dev, "engine rejected the job\n");
		state = VB2_BUF_STATE_ERROR;
	} else if (vhqv_scratch_reserve(ctx, hqv_job_scratch_size(job))) {
		state = VB2_BUF_STATE_ERROR;
	}

	for (y = 0; state == VB2_BUF_STATE_DONE && y < job->dst.height;
	     y += VHQV_BAND_ROWS) {
		if (READ_ONCE(ctx->aborting)) {
			state = VB2_BUF_STATE_ERROR;
			break;
		}
		hqv_job_run(job, ctx->scratch, y, y + VHQV_BAND_ROWS);
		cond_resched();
	}

	src->sequence = q_src->sequence++;
	dst->sequence = q_dst->sequence++;
	v4l2_m2m_buf_copy_metadata(src, dst, true);
	vb2_set_plane_payload(&dst->vb2_buf, 0, q_dst->sizeimage);

	v4l2_m2m_buf_done(src, state);
	v4l2_m2m_buf_done(dst, state);
	v4l2_m2m_job_finish(dev->m2m_dev, ctx->fh.m2m_ctx);
}

static void vhqv_device_run(void *priv)
{
	struct vhqv_ctx *ctx = priv;

	WRITE_ONCE(ctx->aborting, false);
	queue_work(ctx->dev->wq, &ctx->dev->run_work);
}

static void vhqv_job_abort(void *priv)
{
	struct vhqv_ctx *ctx = priv;

	WRITE_ONCE(ctx->aborting, true);
}

static int vhqv_job_ready(void *priv)
{
	struct vhqv_ctx *ctx = priv;

	return v4l2_m2m_num_src_bufs_ready(ctx->fh.m2m_ctx) > 0 &&
	       v4l2_m2m_num_dst_bufs_ready(ctx->fh.m2m_ctx) > 0;
}

static const struct v4l2_m2m_ops vhqv_m2m_ops = {
	.device_run	= vhqv_device_run,
	.job_ready	= vhqv_job_ready,
	.job_abort	= vhqv_job_abort,
};

/*
 * Video ioctls
 */

static int vhqv_querycap(struct file *file, void *priv,
			 struct v4l2_capability *cap)
{
	strscpy(cap->driver, VHQV_NAME, sizeof(cap->driver));
	strscpy(cap->card, "Virtual HQV video engine", sizeof(cap->card));
	snprintf(cap->bus_info, sizeof(cap->bus_info), "platform:%s",
		 VHQV_NAME);
	return 0;
}

/*
 * Whether the single-planar node offers a format: those whose planes share
 * one buffer (NV12, not NV12M). The semi-planar family is held back for
 * now: the kernel 6.1 names it "Y/UV 4:2:0" where the v4l2-compliance of
 * Debian 12 (v4l-utils 1.22.1) still expects "Y/CbCr 4:2:0" and fails
 * ENUM_FMT (docs/status.md).
 */
static bool vhqv_offers(const struct hqv_format *fmt)
{
	return fmt->mem_planes == 1 && fmt->family != HQV_FAMILY_SEMIPLANAR;
}

static const struct hqv_format *vhqv_format_at(unsigned int index)
{
	const struct hqv_format *fmt;
	unsigned int i;

	for (i = 0; (fmt = hqv_format_at(i)); i++)
		if (vhqv_offers(fmt) && index-- == 0)
			return fmt;
	return NULL;
}

static const struct hqv_format *vhqv_format_find(u32 fourcc)
{
	const struct hqv_format *fmt = hqv_format_find(fourcc);

	return fmt && vhqv_offers(fmt) ? fmt : NULL;
}

static int vhqv_enum_fmt(struct file *file, void *priv,
			 struct v4l2_fmtdesc *f)
{
	const struct hqv_format *fmt = vhqv_format_at(f->index);

	if (!fmt)
		return -EINVAL;
	f->pixelformat = fmt->fourcc;
	return 0;
}

static int vhqv_enum_framesizes(struct file *file, void *priv,
				struct v4l2_frmsizeenum *fsize)
{
	if (fsize->index || !vhqv_format_find(fsize->pixel_format))
		return -EINVAL;

	fsize->type = V4L2_FRMSIZE_TYPE_STEPWISE;
	fsize->stepwise.min_width = HQV_MIN_WIDTH;
	fsize->stepwise.max_width = HQV_MAX_WIDTH;
	fsize->stepwise.step_width = HQV_SIZE_STEP;
	fsize->stepwise.min_height = HQV_MIN_HEIGHT;
	fsize->stepwise.max_height = HQV_MAX_HEIGHT;
	fsize->stepwise.step_height = HQV_SIZE_STEP;
	return 0;
}

static int vhqv_g_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct vhqv_ctx *ctx = file_to_ctx(file);
	struct vhqv_q_data *q = get_q_data(ctx, f->type);
	struct v4l2_pix_format *pix = &f->fmt.pix;

	pix->width = q->width;
	pix->height = q->height;
	pix->pixelformat = q->fmt->fourcc;
	pix->field = V4L2_FIELD_NONE;
	pix->bytesperline = q->bytesperline[0];
	pix->sizeimage = q->sizeimage;
	pix->colorspace = ctx->colorspace;
	pix->xfer_func = ctx->xfer_func;
	pix->ycbcr_enc = ctx->ycbcr_enc;
	pix->quantization = ctx->quantization;
	pix->flags = 0;
	return 0;
}

/*
 * Correct a format into one the device takes, as the V4L2 spec asks: an
 * unknown fourcc becomes the first of the table, sizes are clamped into the
 * engine's range, and a line pitch below the minimum is raised to it.
 * The engine does not scale yet, so CAPTURE takes the OUTPUT size, and
 * CAPTURE colorimetry follows OUTPUT.
 */
static void vhqv_try_fmt(struct vhqv_ctx *ctx, struct v4l2_format *f)
{
	struct v4l2_pix_format *pix = &f->fmt.pix;
	const struct hqv_format *fmt = vhqv_format_find(pix->pixelformat);
	struct vhqv_q_data q;

	if (!fmt)
		fmt = vhqv_format_at(0);

	if (V4L2_TYPE_IS_OUTPUT(f->type)) {
		hqv_format_clamp_size(&pix->width, &pix->height);
		if (pix->colorspace == V4L2_COLORSPACE_DEFAULT)
			pix->colorspace = V4L2_COLORSPACE_REC709;
	} else {
		pix->width = ctx->q_data[VHQV_SRC].width;
		pix->height = ctx->q_data[VHQV_SRC].height;
		pix->colorspace = ctx->colorspace;
		pix->xfer_func = ctx->xfer_func;
		pix->ycbcr_enc = ctx->ycbcr_enc;
		pix->quantization = ctx->quantization;
	}

	q_data_set(&q, fmt, pix->width, pix->height, pix->bytesperline);
	pix->pixelformat = fmt->fourcc;
	pix->bytesperline = q.bytesperline[0];
	pix->sizeimage = q.sizeimage;
	pix->field = V4L2_FIELD_NONE;
	pix->flags = 0;
}

static int vhqv_try_fmt_ioctl(struct file *file, void *priv,
			      struct v4l2_format *f)
{
	vhqv_try_fmt(file_to_ctx(file), f);
	return 0;
}

static int vhqv_s_fmt(struct file *file, void *priv, struct v4l2_format *f)
{
	struct vhqv_ctx *ctx = file_to_ctx(file);
	struct v4l2_pix_format *pix = &f->fmt.pix;
	struct vhqv_q_data *q = get_q_data(ctx, f->type);
	struct vhqv_q_data *dst = &ctx->q_data[VHQV_DST];
	struct vb2_queue *vq = v4l2_m2m_get_vq(ctx->fh.m2m_ctx, f->type);
	bool is_output = V4L2_TYPE_IS_OUTPUT(f->type);
	struct vb2_queue *dst_vq;

	if (vb2_is_busy(vq))
		return -EBUSY;

	vhqv_try_fmt(ctx, f);

	/* A new OUTPUT size changes CAPTURE's, which must not be in use. */
	dst_vq = v4l2_m2m_get_dst_vq(ctx->fh.m2m_ctx);
	if (is_output && vb2_is_busy(dst_vq) &&
	    (pix->width != dst->width || pix->height != dst->height))
		return -EBUSY;

	q_data_set(q, vhqv_format_find(pix->pixelformat), pix->width,
		   pix->height, pix->bytesperline);

	if (is_output) {
		ctx->colorspace = pix->colorspace;
		ctx->xfer_func = pix->xfer_func;
		ctx->ycbcr_enc = pix->ycbcr_enc;
		ctx->quantization = pix->quantization;
		q_data_set(dst, dst->fmt, pix->width, pix->height,
			   dst->bytesperline[0]);
	}
	return 0;
}

static const struct v4l2_ioctl_ops vhqv_ioctl_ops = {
	.vidioc_querycap		= vhqv_querycap,
	.vidioc_enum_framesizes		= vhqv_enum_framesizes,

	.vidioc_enum_fmt_vid_cap	= vhqv_enum_fmt,
	.vidioc_g_fmt_vid_cap		= vhqv_g_fmt,
	.vidioc_try_fmt_vid_cap		= vhqv_try_fmt_ioctl,
	.vidioc_s_fmt_vid_cap		= vhqv_s_fmt,

	.vidioc_enum_fmt_vid_out	= vhqv_enum_fmt,
	.vidioc_g_fmt_vid_out		= vhqv_g_fmt,
	.vidioc_try_fmt_vid_out		= vhqv_try_fmt_ioctl,
	.vidioc_s_fmt_vid_out		= vhqv_s_fmt,

	.vidioc_reqbufs			= v4l2_m2m_ioctl_reqbufs,
	.vidioc_querybuf		= v4l2_m2m_ioctl_querybuf,
	.vidioc_qbuf			= v4l2_m2m_ioctl_qbuf,
	.vidioc_dqbuf			= v4l2_m2m_ioctl_dqbuf,
	.vidioc_prepare_buf		= v4l2_m2m_ioctl_prepare_buf,
	.vidioc_create_bufs		= v4l2_m2m_ioctl_create_bufs,
	.vidioc_expbuf			= v4l2_m2m_ioctl_expbuf,

	.vidioc_streamon		= v4l2_m2m_ioctl_streamon,
	.vidioc_streamoff		= v4l2_m2m_ioctl_streamoff,

	.vidioc_subscribe_event		= v4l2_ctrl_subscribe_event,
	.vidioc_unsubscribe_event	= v4l2_event_unsubscribe,
};

/*
 * Queue operations
 */

static int vhqv_queue_setup(struct vb2_queue *vq, unsigned int *nbuffers,
			    unsigned int *nplanes, unsigned int sizes[],
			    struct device *alloc_devs[])
{
	struct vhqv_ctx *ctx = vb2_get_drv_priv(vq);
	struct vhqv_q_data *q = get_q_data(ctx, vq->type);

	if (*nplanes)
		return sizes[0] < q->sizeimage ? -EINVAL : 0;

	*nplanes = 1;
	sizes[0] = q->sizeimage;
	return 0;
}

static int vhqv_buf_out_validate(struct vb2_buffer *vb)
{
	struct vb2_v4l2_buffer *vbuf = to_vb2_v4l2_buffer(vb);

	if (vbuf->field == V4L2_FIELD_ANY)
		vbuf->field = V4L2_FIELD_NONE;
	return vbuf->field == V4L2_FIELD_NONE ? 0 : -EINVAL;
}

static int vhqv_buf_prepare(struct vb2_buffer *vb)
{
	struct vhqv_ctx *ctx = vb2_get_drv_priv(vb->vb2_queue);
	struct vhqv_q_data *q = get_q_data(ctx, vb->vb2_queue->type);

	if (vb2_plane_size(vb, 0) < q->sizeimage)
		return -EINVAL;
	if (!V4L2_TYPE_IS_OUTPUT(vb->vb2_queue->type))
		vb2_set_plane_payload(vb, 0, q->sizeimage);
	return 0;
}

static void vhqv_buf_queue(struct vb2_buffer *vb)
{
	struct vhqv_ctx *ctx = vb2_get_drv_priv(vb->vb2_queue);

	v4l2_m2m_buf_queue(ctx->fh.m2m_ctx, to_vb2_v4l2_buffer(vb));
}

static int vhqv_start_streaming(struct vb2_queue *vq, unsigned int count)
{
	struct vhqv_ctx *ctx = vb2_get_drv_priv(vq);

	get_q_data(ctx, vq->type)->sequence = 0;
	return 0;
}

static void vhqv_stop_streaming(struct vb2_queue *vq)
{
	struct vhqv_ctx *ctx = vb2_get_drv_priv(vq);
	struct vb2_v4l2_buffer *vbuf;

	for (;;) {
		if (V4L2_TYPE_IS_OUTPUT(vq->type))
			vbuf = v4l2_m2m_src_buf_remove(ctx->fh.m2m_ctx);
		else
			vbuf = v4l2_m2m_dst_buf_remove(ctx->fh.m2m_ctx);
		if (!vbuf)
			return;
		v4l2_m2m_buf_done(vbuf, VB2_BUF_STATE_ERROR);
	}
}

static const struct vb2_ops vhqv_qops = {
	.queue_setup		= vhqv_queue_setup,
	.buf_out_validate	= vhqv_buf_out_validate,
	.buf_prepare		= vhqv_buf_prepare,
	.buf_queue		= vhqv_buf_queue,
	.start_streaming	= vhqv_start_streaming,
	.stop_streaming		= vhqv_stop_streaming,
	.wait_prepare		= vb2_ops_wait_prepare,
	.wait_finish		= vb2_ops_wait_finish,
};

static int vhqv_queue_init(void *priv, struct vb2_queue *src_vq,
			   struct vb2_queue *dst_vq)
{
	struct vhqv_ctx *ctx = priv;
	struct vb2_queue *queues[] = { src_vq, dst_vq };
	unsigned int i;
	int ret;

	src_vq->type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	dst_vq->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
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

/*
 * Controls
 */

static int vhqv_s_ctrl(struct v4l2_ctrl *ctrl)
{
	struct vhqv_ctx *ctx = container_of(ctrl->handler, struct vhqv_ctx,
					    hdl);

	switch (ctrl->id) {
	case V4L2_CID_HFLIP:
		WRITE_ONCE(ctx->hflip, ctrl->val);
		return 0;
	case V4L2_CID_VFLIP:
		WRITE_ONCE(ctx->vflip, ctrl->val);
		return 0;
	}
	return -EINVAL;
}

static const struct v4l2_ctrl_ops vhqv_ctrl_ops = {
	.s_ctrl = vhqv_s_ctrl,
};

static int vhqv_init_controls(struct vhqv_ctx *ctx)
{
	struct v4l2_ctrl_handler *hdl = &ctx->hdl;

	v4l2_ctrl_handler_init(hdl, 2);
	v4l2_ctrl_new_std(hdl, &vhqv_ctrl_ops, V4L2_CID_HFLIP, 0, 1, 1, 0);
	v4l2_ctrl_new_std(hdl, &vhqv_ctrl_ops, V4L2_CID_VFLIP, 0, 1, 1, 0);
	if (hdl->error) {
		int ret = hdl->error;

		v4l2_ctrl_handler_free(hdl);
		return ret;
	}
	ctx->fh.ctrl_handler = hdl;
	return v4l2_ctrl_handler_setup(hdl);
}

/*
 * File operations
 */

static int vhqv_open(struct file *file)
{
	struct vhqv_dev *dev = video_drvdata(file);
	struct vhqv_ctx *ctx;
	int ret;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;

	ctx->dev = dev;
	mutex_init(&ctx->vb_mutex);
	v4l2_fh_init(&ctx->fh, video_devdata(file));
	file->private_data = &ctx->fh;

	ret = vhqv_init_controls(ctx);
	if (ret)
		goto err_free_ctx;

	q_data_set(&ctx->q_data[VHQV_SRC], vhqv_format_at(0), VHQV_DEF_WIDTH,
		   VHQV_DEF_HEIGHT, 0);
	ctx->q_data[VHQV_DST] = ctx->q_data[VHQV_SRC];
	ctx->colorspace = V4L2_COLORSPACE_REC709;

	ctx->fh.m2m_ctx = v4l2_m2m_ctx_init(dev->m2m_dev, ctx,
					    vhqv_queue_init);
	if (IS_ERR(ctx->fh.m2m_ctx)) {
		ret = PTR_ERR(ctx->fh.m2m_ctx);
		goto err_free_controls;
	}

	v4l2_fh_add(&ctx->fh);
	return 0;

err_free_controls:
	v4l2_ctrl_handler_free(&ctx->hdl);
err_free_ctx:
	v4l2_fh_exit(&ctx->fh);
	kfree(ctx);
	return ret;
}

static int vhqv_release(struct file *file)
{
	struct vhqv_dev *dev = video_drvdata(file);
	struct vhqv_ctx *ctx = file_to_ctx(file);

	v4l2_fh_del(&ctx->fh);
	mutex_lock(&dev->dev_mutex);
	v4l2_m2m_ctx_release(ctx->fh.m2m_ctx);
	mutex_unlock(&dev->dev_mutex);
	v4l2_ctrl_handler_free(&ctx->hdl);
	v4l2_fh_exit(&ctx->fh);
	kvfree(ctx->scratch);
	kfree(ctx);
	return 0;
}

static const struct v4l2_file_operations vhqv_fops = {
	.owner		= THIS_MODULE,
	.open		= vhqv_open,
	.release	= vhqv_release,
	.poll		= v4l2_m2m_fop_poll,
	.unlocked_ioctl	= video_ioctl2,
	.mmap		= v4l2_m2m_fop_mmap,
};

/*
 * Device
 */

static void vhqv_video_release(struct video_device *vfd)
{
	struct vhqv_dev *dev = container_of(vfd, struct vhqv_dev, vfd);

	destroy_workqueue(dev->wq);
	v4l2_m2m_release(dev->m2m_dev);
	v4l2_device_unregister(&dev->v4l2_dev);
	kfree(dev);
}

static const struct video_device vhqv_videodev = {
	.name		= VHQV_NAME,
	.vfl_dir	= VFL_DIR_M2M,
	.fops		= &vhqv_fops,
	.ioctl_ops	= &vhqv_ioctl_ops,
	.minor		= -1,
	.release	= vhqv_video_release,
	.device_caps	= V4L2_CAP_VIDEO_M2M | V4L2_CAP_STREAMING,
};

static int vhqv_probe(struct platform_device *pdev)
{
	struct vhqv_dev *dev;
	int ret;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;

	mutex_init(&dev->dev_mutex);
	INIT_WORK(&dev->run_work, vhqv_run_work);

	ret = v4l2_device_register(&pdev->dev, &dev->v4l2_dev);
	if (ret)
		goto err_free_dev;

	dev->wq = alloc_ordered_workqueue("%s", 0, dev_name(&pdev->dev));
	if (!dev->wq) {
		ret = -ENOMEM;
		goto err_unregister_v4l2;
	}

	dev->m2m_dev = v4l2_m2m_init(&vhqv_m2m_ops);
	if (IS_ERR(dev->m2m_dev)) {
		ret = PTR_ERR(dev->m2m_dev);
		goto err_destroy_wq;
	}

	dev->vfd = vhqv_videodev;
	dev->vfd.lock = &dev->dev_mutex;
	dev->vfd.v4l2_dev = &dev->v4l2_dev;
	video_set_drvdata(&dev->vfd, dev);
	platform_set_drvdata(pdev, dev);

	ret = video_register_device(&dev->vfd, VFL_TYPE_VIDEO, -1);
	if (ret)
		goto err_release_m2m;

	v4l2_info(&dev->v4l2_dev, "registered as %s\n",
		  video_device_node_name(&dev->vfd));
	return 0;

err_release_m2m:
	v4l2_m2m_release(dev->m2m_dev);
err_destroy_wq:
	destroy_workqueue(dev->wq);
err_unregister_v4l2:
	v4l2_device_unregister(&dev->v4l2_dev);
err_free_dev:
	kfree(dev);
	return ret;
}

static int vhqv_remove(struct platform_device *pdev)
{
	struct vhqv_dev *dev = platform_get_drvdata(pdev);

	/* The last reference to the video device frees dev (video_release). */
	video_unregister_device(&dev->vfd);
	return 0;
}

static struct platform_driver vhqv_driver = {
	.probe	= vhqv_probe,
	.remove	= vhqv_remove,
	.driver	= {
		.name = VHQV_NAME,
	},
};

static struct platform_device *vhqv_pdev;

static int __init vhqv_init(void)
{
	int ret;

	ret = platform_driver_register(&vhqv_driver);
	if (ret)
		return ret;

	vhqv_pdev = platform_device_register_simple(VHQV_NAME,
						    PLATFORM_DEVID_NONE,
						    NULL, 0);
	if (IS_ERR(vhqv_pdev)) {
		platform_driver_unregister(&vhqv_driver);
		return PTR_ERR(vhqv_pdev);
	}
	return 0;
}

static void __exit vhqv_exit(void)
{
	platform_device_unregister(vhqv_pdev);
	platform_driver_unregister(&vhqv_driver);
}

module_init(vhqv_init);
module_exit(vhqv_exit);

MODULE_DESCRIPTION("Virtual HQV video processing engine (V4L2 mem2mem)");
MODULE_LICENSE("GPL");
MODULE_SOFTDEP("pre: v4l2-mem2mem videobuf2-vmalloc");
