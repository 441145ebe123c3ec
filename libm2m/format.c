// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Formats: libm2m's view of the engine's format table, struct m2m_format
 * to and from V4L2's single- and multi-planar formats (so applications
 * never see which API a node uses), TRY/S/G_FMT, the formats and sizes a
 * device takes, and the crop and compose rectangles.
 */
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
				 "(%ux%u to %ux%u)", width, height,
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
	if (name && strlen(name) == 4)
		return M2M_FOURCC(name[0], name[1], name[2], name[3]);
	return 0;
}

const char *m2m_fourcc_to_name(uint32_t fourcc)
{
	const struct hqv_format *hf = hqv_format_find(fourcc);

	return hf ? hf->name : NULL;
}

uint32_t m2m_fourcc_at(unsigned int index)
{
	const struct hqv_format *hf = hqv_format_at(index);

	return hf ? hf->fourcc : 0;
}

size_t m2m_format_frame_size(const struct m2m_format *fmt)
{
	size_t total = 0;
	unsigned int p;

	for (p = 0; fmt && p < fmt->num_planes && p < M2M_MAX_PLANES; p++)
		total += fmt->plane_size[p];
	return total;
}

int m2m_format_planes(struct m2m_plane_layout *planes,
		      const struct m2m_format *fmt)
{
	uint32_t bytesperline[HQV_MAX_PLANES] = { 0 };
	uint32_t size[HQV_MAX_PLANES], offset = 0;
	uint32_t width, height;
	const struct hqv_format *hf;
	unsigned int p;

	if (!planes || !fmt)
		return m2m_error(EINVAL, "m2m_format_planes: %s is NULL",
				 planes ? "fmt" : "planes");
	hf = hqv_format_find(fmt->fourcc);
	if (!hf)
		return m2m_error(EINVAL, "m2m_format_planes: unknown pixel "
				 "format 0x%08x", fmt->fourcc);
	width = fmt->width;
	height = fmt->height;
	hqv_format_clamp_size(&width, &height);
	if (width != fmt->width || height != fmt->height)
		return m2m_error(EINVAL, "m2m_format_planes: %ux%u is not a "
				 "valid size", fmt->width, fmt->height);
	for (p = 0; p < hf->mem_planes && p < M2M_MAX_PLANES; p++)
		bytesperline[p] = fmt->bytesperline[p];
	hqv_format_layout(hf, width, height, bytesperline, size);

	for (p = 0; p < hf->num_planes; p++) {
		struct m2m_plane_layout *pl = &planes[p];

		pl->memory_plane = hf->mem_planes == 1 ? 0 : p;
		pl->offset = hf->mem_planes == 1 ? offset : 0;
		offset += size[p];
		pl->bytesperline = bytesperline[p];
		/* Chroma rounded up; whole macropixels of packed 4:2:2. */
		pl->width = hqv_plane_groups(hf, p, width);
		pl->height = hqv_plane_lines(hf, p, height);
		pl->sample_bytes = hf->family == HQV_FAMILY_RGB565 ? 2 : 1;
		pl->channels = hf->bytes_per_group[p] / pl->sample_bytes;
	}
	return hf->num_planes;
}

void m2m_format_to_v4l2(const struct m2m_device *dev, struct v4l2_format *v,
			enum m2m_queue queue, const struct m2m_format *fmt)
{
	unsigned int p;

	memset(v, 0, sizeof(*v));
	v->type = m2m_buf_type(dev, queue);
	if (dev->mplane) {
		struct v4l2_pix_format_mplane *mp = &v->fmt.pix_mp;

		mp->width = fmt->width;
		mp->height = fmt->height;
		mp->pixelformat = fmt->fourcc;
		mp->field = fmt->field;
		mp->num_planes = fmt->num_planes;
		for (p = 0; p < fmt->num_planes && p < M2M_MAX_PLANES; p++) {
			mp->plane_fmt[p].bytesperline = fmt->bytesperline[p];
			mp->plane_fmt[p].sizeimage = fmt->plane_size[p];
		}
		mp->colorspace = fmt->colorspace;
		mp->ycbcr_enc = fmt->ycbcr_enc;
		mp->quantization = fmt->quantization;
		mp->xfer_func = fmt->xfer_func;
		if (fmt->flags & M2M_FORMAT_SET_CSC)
			mp->flags |= V4L2_PIX_FMT_FLAG_SET_CSC;
		return;
	}

	v->fmt.pix.width = fmt->width;
	v->fmt.pix.height = fmt->height;
	v->fmt.pix.pixelformat = fmt->fourcc;
	v->fmt.pix.field = fmt->field;
	v->fmt.pix.bytesperline = fmt->bytesperline[0];
	v->fmt.pix.sizeimage = fmt->plane_size[0];
	v->fmt.pix.colorspace = fmt->colorspace;
	v->fmt.pix.ycbcr_enc = fmt->ycbcr_enc;
	v->fmt.pix.quantization = fmt->quantization;
	v->fmt.pix.xfer_func = fmt->xfer_func;
	/* Without the magic, the V4L2 core zeroes every field after priv
	 * (encoding, quantization, transfer function, flags) before the
	 * driver sees them. */
	v->fmt.pix.priv = V4L2_PIX_FMT_PRIV_MAGIC;
	if (fmt->flags & M2M_FORMAT_SET_CSC)
		v->fmt.pix.flags |= V4L2_PIX_FMT_FLAG_SET_CSC;
}

int m2m_format_from_v4l2(struct m2m_format *fmt, const struct v4l2_format *v)
{
	unsigned int p;

	memset(fmt, 0, sizeof(*fmt));
	if (!V4L2_TYPE_IS_MULTIPLANAR(v->type)) {
		const struct v4l2_pix_format *pix = &v->fmt.pix;

		fmt->fourcc = pix->pixelformat;
		fmt->width = pix->width;
		fmt->height = pix->height;
		fmt->num_planes = 1;
		fmt->bytesperline[0] = pix->bytesperline;
		fmt->plane_size[0] = pix->sizeimage;
		fmt->field = pix->field;
		fmt->colorspace = pix->colorspace;
		if (pix->priv == V4L2_PIX_FMT_PRIV_MAGIC) {
			fmt->ycbcr_enc = pix->ycbcr_enc;
			fmt->quantization = pix->quantization;
			fmt->xfer_func = pix->xfer_func;
			if (pix->flags & V4L2_PIX_FMT_FLAG_SET_CSC)
				fmt->flags |= M2M_FORMAT_SET_CSC;
		}
		return 0;
	}

	if (v->fmt.pix_mp.num_planes > M2M_MAX_PLANES)
		return m2m_error(ENOTSUP, "format 0x%08x has %u planes, "
				 "libm2m handles at most %d",
				 v->fmt.pix_mp.pixelformat,
				 v->fmt.pix_mp.num_planes, M2M_MAX_PLANES);
	fmt->fourcc = v->fmt.pix_mp.pixelformat;
	fmt->width = v->fmt.pix_mp.width;
	fmt->height = v->fmt.pix_mp.height;
	fmt->num_planes = v->fmt.pix_mp.num_planes;
	for (p = 0; p < fmt->num_planes; p++) {
		fmt->bytesperline[p] = v->fmt.pix_mp.plane_fmt[p].bytesperline;
		fmt->plane_size[p] = v->fmt.pix_mp.plane_fmt[p].sizeimage;
	}
	fmt->field = v->fmt.pix_mp.field;
	fmt->colorspace = v->fmt.pix_mp.colorspace;
	fmt->ycbcr_enc = v->fmt.pix_mp.ycbcr_enc;
	fmt->quantization = v->fmt.pix_mp.quantization;
	fmt->xfer_func = v->fmt.pix_mp.xfer_func;
	if (v->fmt.pix_mp.flags & V4L2_PIX_FMT_FLAG_SET_CSC)
		fmt->flags |= M2M_FORMAT_SET_CSC;
	return 0;
}

/* A caller's format checked for what V4L2 cannot express. */
static int check_format(const struct m2m_device *dev,
			const struct m2m_format *fmt, const char *func)
{
	if (!fmt)
		return m2m_error(EINVAL, "%s: fmt is NULL", func);
	if (fmt->num_planes > M2M_MAX_PLANES)
		return m2m_error(EINVAL, "%s: num_planes %u is more than %d",
				 func, fmt->num_planes, M2M_MAX_PLANES);
	if (!dev->mplane && fmt->num_planes > 1)
		return m2m_error(EINVAL, "%s: %s is a single-planar node: a "
				 "format with %u memory planes (0x%08x) cannot "
				 "be used there", func, dev->info.path,
				 fmt->num_planes, fmt->fourcc);
	return 0;
}

/*
 * What is sent for a caller's format: with a zero plane count, the table's
 * count for the fourcc; with SET_CSC and the default colorspace, the
 * queue's colorspace, or V4L2 would drop the encoding and quantization
 * asked for.
 */
static struct m2m_format to_send(struct m2m_device *dev,
				 const struct m2m_format *fmt,
				 enum m2m_queue queue)
{
	const struct hqv_format *hf = hqv_format_find(fmt->fourcc);
	struct m2m_format f = *fmt, current;

	if (!f.num_planes)
		f.num_planes = hf ? hf->mem_planes : 1;
	if (f.flags & M2M_FORMAT_SET_CSC && !f.colorspace &&
	    m2m_get_format_locked(dev, &current, queue) == 0)
		f.colorspace = current.colorspace;
	return f;
}

int m2m_get_format_locked(struct m2m_device *dev, struct m2m_format *fmt,
			  enum m2m_queue queue)
{
	struct v4l2_format v = { .type = m2m_buf_type(dev, queue) };
	int ret;

	if (!dev->mplane)
		v.fmt.pix.priv = V4L2_PIX_FMT_PRIV_MAGIC;
	ret = M2M_IOCTL(dev, VIDIOC_G_FMT, &v);
	return ret < 0 ? ret : m2m_format_from_v4l2(fmt, &v);
}

/* TRY_FMT or S_FMT of a format as it is to be sent. */
static int format_ioctl(struct m2m_device *dev, struct m2m_format *f,
			enum m2m_queue queue, bool set)
{
	struct v4l2_format v;
	int ret;

	m2m_format_to_v4l2(dev, &v, queue, f);
	ret = set ? M2M_IOCTL(dev, VIDIOC_S_FMT, &v) :
		    M2M_IOCTL(dev, VIDIOC_TRY_FMT, &v);
	return ret < 0 ? ret : m2m_format_from_v4l2(f, &v);
}

/*
 * CAPTURE in the colour libm2m promises (colour.c), asked for with
 * SET_CSC; a device that converts to no other colour gives its own.
 * Formats outside libm2m's table go as they are.
 */
static int capture_in_colour(struct m2m_device *dev, struct m2m_format *f,
			     bool set)
{
	struct m2m_format out, want;

	if (m2m_get_format_locked(dev, &out, M2M_QUEUE_OUTPUT) == 0 &&
	    m2m_colour_wanted_capture(&want, f, &out) == 0) {
		want.flags |= M2M_FORMAT_SET_CSC;
		*f = want;
	}
	return format_ioctl(dev, f, M2M_QUEUE_CAPTURE, set);
}

/* TRY_FMT or S_FMT of a caller's format, with the lock held. */
static int try_or_set(struct m2m_device *dev, struct m2m_format *fmt,
		      enum m2m_queue queue, bool set, const char *func)
{
	struct m2m_format f;
	int ret;

	ret = m2m_check_queue(queue, func);
	if (ret == 0)
		ret = check_format(dev, fmt, func);
	if (ret < 0)
		return ret;
	if (set) {
		/* The driver refuses S_FMT on a queue that has buffers; a new
		 * OUTPUT format may change CAPTURE's, so m2m_convert()'s go
		 * too. */
		m2m_free_buffers_locked(dev, queue);
		if (dev->queues[M2M_QUEUE_CAPTURE].for_convert)
			m2m_free_buffers_locked(dev, M2M_QUEUE_CAPTURE);
		if (dev->queues[M2M_QUEUE_OUTPUT].for_convert)
			m2m_free_buffers_locked(dev, M2M_QUEUE_OUTPUT);
	}
	f = to_send(dev, fmt, queue);
	if (queue == M2M_QUEUE_OUTPUT) {
		m2m_colour_untagged_output(&f);
		ret = format_ioctl(dev, &f, queue, set);
	} else {
		ret = capture_in_colour(dev, &f, set);
	}
	if (ret == 0)
		*fmt = f;
	return ret;
}

int m2m_try_format(struct m2m_device *dev, struct m2m_format *fmt,
		   enum m2m_queue queue)
{
	M2M_ENTER(dev);
	return m2m_leave(dev, try_or_set(dev, fmt, queue, false, __func__));
}

int m2m_set_format(struct m2m_device *dev, struct m2m_format *fmt,
		   enum m2m_queue queue)
{
	M2M_ENTER(dev);
	return m2m_leave(dev, try_or_set(dev, fmt, queue, true, __func__));
}

int m2m_get_format(struct m2m_device *dev, struct m2m_format *fmt,
		   enum m2m_queue queue)
{
	int ret;

	M2M_ENTER(dev);
	ret = m2m_check_queue(queue, __func__);
	if (ret == 0 && !fmt)
		ret = m2m_error(EINVAL, "m2m_get_format: fmt is NULL");
	if (ret == 0)
		ret = m2m_get_format_locked(dev, fmt, queue);
	return m2m_leave(dev, ret);
}

int m2m_enum_format(struct m2m_device *dev, struct m2m_format_desc *desc,
		    enum m2m_queue queue, unsigned int index)
{
	struct v4l2_fmtdesc d = { .index = index };
	int ret;

	M2M_ENTER(dev);
	ret = m2m_check_queue(queue, __func__);
	if (ret == 0 && !desc)
		ret = m2m_error(EINVAL, "m2m_enum_format: desc is NULL");
	if (ret < 0)
		return m2m_leave(dev, ret);
	d.type = m2m_buf_type(dev, queue);
	ret = m2m_xioctl_quiet(dev, VIDIOC_ENUM_FMT, &d);
	if (ret == -EINVAL)
		return m2m_leave(dev, m2m_error(ENOENT, "m2m_enum_format: "
				 "%s has %u formats on that queue",
				 dev->info.path, index));
	if (ret < 0)
		return m2m_leave(dev, m2m_error(-ret, "VIDIOC_ENUM_FMT on %s: "
				 "%s", dev->info.path, strerror(-ret)));
	desc->fourcc = d.pixelformat;
	desc->flags = d.flags;
	memcpy(desc->description, d.description, sizeof(desc->description));
	desc->description[sizeof(desc->description) - 1] = '\0';
	return m2m_leave(dev, 0);
}

int m2m_get_frame_sizes(struct m2m_device *dev, struct m2m_frame_sizes *sizes,
			uint32_t fourcc)
{
	struct v4l2_frmsizeenum fs = { .pixel_format = fourcc };
	int ret;

	M2M_ENTER(dev);
	if (!sizes)
		return m2m_leave(dev, m2m_error(EINVAL,
				 "m2m_get_frame_sizes: sizes is NULL"));
	ret = M2M_IOCTL(dev, VIDIOC_ENUM_FRAMESIZES, &fs);
	if (ret < 0)
		return m2m_leave(dev, ret);
	memset(sizes, 0, sizeof(*sizes));
	if (fs.type != V4L2_FRMSIZE_TYPE_DISCRETE) {
		sizes->min_width = fs.stepwise.min_width;
		sizes->max_width = fs.stepwise.max_width;
		sizes->step_width = fs.stepwise.step_width;
		sizes->min_height = fs.stepwise.min_height;
		sizes->max_height = fs.stepwise.max_height;
		sizes->step_height = fs.stepwise.step_height;
		return m2m_leave(dev, 0);
	}
	sizes->min_width = sizes->max_width = fs.discrete.width;
	sizes->min_height = sizes->max_height = fs.discrete.height;
	for (fs.index = 1; m2m_xioctl_quiet(dev, VIDIOC_ENUM_FRAMESIZES,
					    &fs) == 0; fs.index++) {
		if (fs.discrete.width < sizes->min_width)
			sizes->min_width = fs.discrete.width;
		if (fs.discrete.width > sizes->max_width)
			sizes->max_width = fs.discrete.width;
		if (fs.discrete.height < sizes->min_height)
			sizes->min_height = fs.discrete.height;
		if (fs.discrete.height > sizes->max_height)
			sizes->max_height = fs.discrete.height;
	}
	return m2m_leave(dev, 0);
}

/* The queue and selection target of a rectangle. */
static int rect_selection(struct v4l2_selection *sel,
			  enum m2m_rect_target target, const char *func)
{
	static const struct {
		enum m2m_queue queue;
		uint32_t target;
	} map[] = {
		[M2M_RECT_CROP] = { M2M_QUEUE_OUTPUT, V4L2_SEL_TGT_CROP },
		[M2M_RECT_COMPOSE] = { M2M_QUEUE_CAPTURE, V4L2_SEL_TGT_COMPOSE },
		[M2M_RECT_CROP_BOUNDS] = { M2M_QUEUE_OUTPUT,
					   V4L2_SEL_TGT_CROP_BOUNDS },
		[M2M_RECT_COMPOSE_BOUNDS] = { M2M_QUEUE_CAPTURE,
					      V4L2_SEL_TGT_COMPOSE_BOUNDS },
	};

	if ((unsigned int)target >= sizeof(map) / sizeof(map[0]))
		return m2m_error(EINVAL, "%s: invalid rectangle %d", func,
				 target);
	memset(sel, 0, sizeof(*sel));
	/* The selection API takes the single-planar types on both APIs. */
	sel->type = map[target].queue == M2M_QUEUE_OUTPUT ?
		    V4L2_BUF_TYPE_VIDEO_OUTPUT : V4L2_BUF_TYPE_VIDEO_CAPTURE;
	sel->target = map[target].target;
	return 0;
}

/* S_SELECTION (set) or G_SELECTION of a rectangle, with the lock held. */
static int selection(struct m2m_device *dev, struct m2m_rect *rect,
		     enum m2m_rect_target target, bool set, const char *func)
{
	struct v4l2_selection sel;
	int ret;

	ret = rect_selection(&sel, target, func);
	if (ret == 0 && !rect)
		ret = m2m_error(EINVAL, "%s: rect is NULL", func);
	if (ret == 0 && set && (target == M2M_RECT_CROP_BOUNDS ||
				target == M2M_RECT_COMPOSE_BOUNDS))
		ret = m2m_error(EINVAL, "%s: bounds are read only", func);
	if (ret < 0)
		return ret;
	if (set) {
		sel.r.left = rect->left;
		sel.r.top = rect->top;
		sel.r.width = rect->width;
		sel.r.height = rect->height;
	}
	ret = set ? M2M_IOCTL(dev, VIDIOC_S_SELECTION, &sel) :
		    M2M_IOCTL(dev, VIDIOC_G_SELECTION, &sel);
	if (ret < 0)
		return ret;
	rect->left = sel.r.left;
	rect->top = sel.r.top;
	rect->width = sel.r.width;
	rect->height = sel.r.height;
	return 0;
}

int m2m_set_rect(struct m2m_device *dev, struct m2m_rect *rect,
		 enum m2m_rect_target target)
{
	M2M_ENTER(dev);
	return m2m_leave(dev, selection(dev, rect, target, true, __func__));
}

int m2m_get_rect(struct m2m_device *dev, struct m2m_rect *rect,
		 enum m2m_rect_target target)
{
	M2M_ENTER(dev);
	return m2m_leave(dev, selection(dev, rect, target, false, __func__));
}
