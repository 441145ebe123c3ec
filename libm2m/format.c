// SPDX-License-Identifier: LGPL-2.1-or-later
/* Frame formats: the engine's table, and TRY/S/G_FMT on a device. */
#include <errno.h>
#include <string.h>

#include "hqv-format.h"
#include "m2m-private.h"

int m2m_format_init(struct m2m_format *fmt, uint32_t fourcc, uint32_t width,
		    uint32_t height)
{
	const struct hqv_format *hf = hqv_format_find(fourcc);
	uint32_t w = width, h = height, total;

	if (!fmt)
		return m2m_error(EINVAL, "m2m_format_init: fmt is NULL");
	if (!hf)
		return m2m_error(EINVAL,
				 "m2m_format_init: unknown pixel format 0x%08x",
				 fourcc);
	hqv_format_clamp_size(&w, &h);
	if (w != width || h != height)
		return m2m_error(EINVAL,
				 "m2m_format_init: %ux%u is not a valid size "
				 "(even, %ux%u to %ux%u)", width, height,
				 HQV_MIN_WIDTH, HQV_MIN_HEIGHT, HQV_MAX_WIDTH,
				 HQV_MAX_HEIGHT);

	memset(fmt, 0, sizeof(*fmt));
	fmt->fourcc = fourcc;
	fmt->width = width;
	fmt->height = height;
	fmt->field = V4L2_FIELD_NONE;
	total = hqv_format_layout(hf, width, height, fmt->bytesperline,
				  fmt->plane_size);
	/* As V4L2 describes it: planes sharing a buffer are one plane with
	 * the luma pitch; the others have a plane each. */
	fmt->num_planes = hf->mem_planes;
	if (hf->mem_planes == 1) {
		memset(&fmt->bytesperline[1], 0, sizeof(fmt->bytesperline) -
		       sizeof(fmt->bytesperline[0]));
		memset(fmt->plane_size, 0, sizeof(fmt->plane_size));
		fmt->plane_size[0] = total;
	}
	return 0;
}

uint32_t m2m_fourcc_from_name(const char *name)
{
	const struct hqv_format *hf;
	unsigned int i;

	for (i = 0; name && (hf = hqv_format_at(i)); i++)
		if (!strcmp(hf->name, name))
			return hf->fourcc;
	return 0;
}

size_t m2m_format_frame_size(const struct m2m_format *fmt)
{
	size_t total = 0;
	unsigned int p;

	for (p = 0; fmt && p < fmt->num_planes && p < M2M_MAX_PLANES; p++)
		total += fmt->plane_size[p];
	return total;
}

static void to_v4l2(struct v4l2_format *v, enum v4l2_buf_type type,
		    const struct m2m_format *fmt)
{
	struct v4l2_pix_format *pix = &v->fmt.pix;

	memset(v, 0, sizeof(*v));
	v->type = type;
	pix->width = fmt->width;
	pix->height = fmt->height;
	pix->pixelformat = fmt->fourcc;
	pix->field = fmt->field;
	pix->bytesperline = fmt->bytesperline[0];
	pix->sizeimage = fmt->plane_size[0];
	pix->colorspace = fmt->colorspace;
	pix->ycbcr_enc = fmt->ycbcr_enc;
	pix->quantization = fmt->quantization;
	pix->xfer_func = fmt->xfer_func;
	/* Without the magic, the V4L2 core zeroes every field after priv
	 * (encoding, quantization, transfer function) before the driver
	 * sees them. */
	pix->priv = V4L2_PIX_FMT_PRIV_MAGIC;
}

static void from_v4l2(struct m2m_format *fmt, const struct v4l2_format *v)
{
	const struct v4l2_pix_format *pix = &v->fmt.pix;

	memset(fmt, 0, sizeof(*fmt));
	fmt->fourcc = pix->pixelformat;
	fmt->width = pix->width;
	fmt->height = pix->height;
	fmt->num_planes = 1;
	fmt->bytesperline[0] = pix->bytesperline;
	fmt->plane_size[0] = pix->sizeimage;
	fmt->field = pix->field;
	fmt->colorspace = pix->colorspace;
	fmt->ycbcr_enc = pix->ycbcr_enc;
	fmt->quantization = pix->quantization;
	fmt->xfer_func = pix->xfer_func;
}

/*
 * TRY_FMT, S_FMT or G_FMT on a queue: fmt goes in (but for G_FMT) and the
 * driver's answer comes back in it. S_FMT and G_FMT remember the answer.
 */
static int format_ioctl(struct m2m_device *dev, enum m2m_queue queue,
			struct m2m_format *fmt, unsigned long request,
			const char *request_name, const char *func)
{
	struct m2m_queue_state *q;
	struct v4l2_format v = { 0 };
	int ret;

	ret = m2m_device_check(dev, func);
	if (ret < 0)
		return ret;
	if (queue != M2M_QUEUE_OUTPUT && queue != M2M_QUEUE_CAPTURE)
		return m2m_error(EINVAL, "%s: invalid queue %d", func, queue);
	if (!fmt)
		return m2m_error(EINVAL, "%s: fmt is NULL", func);

	q = &dev->queues[queue];
	if (request == VIDIOC_G_FMT)
		v.type = q->type;
	else
		to_v4l2(&v, q->type, fmt);
	ret = m2m_xioctl(dev, request, request_name, &v);
	if (ret < 0)
		return ret;
	from_v4l2(fmt, &v);
	if (request != VIDIOC_TRY_FMT)
		q->format = *fmt;
	return 0;
}

int m2m_try_format(struct m2m_device *dev, enum m2m_queue queue,
		   struct m2m_format *fmt)
{
	return format_ioctl(dev, queue, fmt, VIDIOC_TRY_FMT, "VIDIOC_TRY_FMT",
			    __func__);
}

int m2m_set_format(struct m2m_device *dev, enum m2m_queue queue,
		   struct m2m_format *fmt)
{
	M2M_CHECK_DEVICE(dev);
	/* The driver refuses S_FMT on a queue that has buffers. */
	m2m_buffers_release(dev);
	return format_ioctl(dev, queue, fmt, VIDIOC_S_FMT, "VIDIOC_S_FMT",
			    __func__);
}

int m2m_get_format(struct m2m_device *dev, enum m2m_queue queue,
		   struct m2m_format *fmt)
{
	return format_ioctl(dev, queue, fmt, VIDIOC_G_FMT, "VIDIOC_G_FMT",
			    __func__);
}
