// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The in-process device's capabilities, formats and rectangles: the
 * ioctls around v4l2/hqv-v4l2.c, as vhqv-fmt.c has them for the
 * multi-planar node, plus what the V4L2 core adds (descriptions, type
 * checks, cleared fields).
 */
#include <linux/version.h>
#include <stdio.h>
#include <string.h>

#include "inprocess.h"

int ip_querycap(struct ip_ctx *ctx, struct v4l2_capability *cap)
{
	memset(cap, 0, sizeof(*cap));
	snprintf((char *)cap->driver, sizeof(cap->driver), "vhqv");
	/* 31 characters: "Virtual HQV video engine (in-process)" would not fit. */
	snprintf((char *)cap->card, sizeof(cap->card),
		 "Virtual HQV engine (in-process)");
	snprintf((char *)cap->bus_info, sizeof(cap->bus_info),
		 "inprocess:vhqv");
	cap->version = LINUX_VERSION_CODE;
	cap->device_caps = V4L2_CAP_VIDEO_M2M_MPLANE | V4L2_CAP_STREAMING;
	cap->capabilities = cap->device_caps | V4L2_CAP_DEVICE_CAPS;
	return 0;
}

/*
 * The descriptions the V4L2 core gives these formats (v4l_fill_fmtdesc()
 * in Linux 6.1, whose names vhqv reports), for applications that show
 * them.
 */
static const struct {
	uint32_t fourcc;
	const char *description;
} descriptions[] = {
	{ V4L2_PIX_FMT_YUYV, "YUYV 4:2:2" },
	{ V4L2_PIX_FMT_UYVY, "UYVY 4:2:2" },
	{ V4L2_PIX_FMT_YVYU, "YVYU 4:2:2" },
	{ V4L2_PIX_FMT_VYUY, "VYUY 4:2:2" },
	{ V4L2_PIX_FMT_NV12, "Y/UV 4:2:0" },
	{ V4L2_PIX_FMT_NV21, "Y/VU 4:2:0" },
	{ V4L2_PIX_FMT_NV16, "Y/UV 4:2:2" },
	{ V4L2_PIX_FMT_NV61, "Y/VU 4:2:2" },
	{ V4L2_PIX_FMT_NV24, "Y/UV 4:4:4" },
	{ V4L2_PIX_FMT_YUV420, "Planar YUV 4:2:0" },
	{ V4L2_PIX_FMT_YVU420, "Planar YVU 4:2:0" },
	{ V4L2_PIX_FMT_YUV422P, "Planar YUV 4:2:2" },
	{ V4L2_PIX_FMT_GREY, "8-bit Greyscale" },
	{ V4L2_PIX_FMT_RGB24, "24-bit RGB 8-8-8" },
	{ V4L2_PIX_FMT_BGR24, "24-bit BGR 8-8-8" },
	{ V4L2_PIX_FMT_RGB565, "16-bit RGB 5-6-5" },
	{ V4L2_PIX_FMT_XRGB32, "32-bit XRGB 8-8-8-8" },
	{ V4L2_PIX_FMT_XBGR32, "32-bit BGRX 8-8-8-8" },
	{ V4L2_PIX_FMT_ARGB32, "32-bit ARGB 8-8-8-8" },
	{ V4L2_PIX_FMT_ABGR32, "32-bit BGRA 8-8-8-8" },
	{ V4L2_PIX_FMT_RGBX32, "32-bit RGBX 8-8-8-8" },
	{ V4L2_PIX_FMT_RGBA32, "32-bit RGBA 8-8-8-8" },
	{ V4L2_PIX_FMT_BGRX32, "32-bit XBGR 8-8-8-8" },
	{ V4L2_PIX_FMT_BGRA32, "32-bit ABGR 8-8-8-8" },
	{ V4L2_PIX_FMT_NV12M, "Y/UV 4:2:0 (N-C)" },
	{ V4L2_PIX_FMT_NV21M, "Y/VU 4:2:0 (N-C)" },
	{ V4L2_PIX_FMT_YUV420M, "Planar YUV 4:2:0 (N-C)" },
	{ V4L2_PIX_FMT_YVU420M, "Planar YVU 4:2:0 (N-C)" },
	{ V4L2_PIX_FMT_YUV444M, "Planar YUV 4:4:4 (N-C)" },
};

static const char *description(const struct hqv_format *fmt)
{
	unsigned int i;

	for (i = 0; i < sizeof(descriptions) / sizeof(descriptions[0]); i++)
		if (descriptions[i].fourcc == fmt->fourcc)
			return descriptions[i].description;
	return fmt->name;
}

const struct vhqv_offer ip_offer = {
	.formats = VHQV_OFFER_MPLANE | VHQV_OFFER_SEMIPLANAR,
	.max_size = HQV_MAX_WIDTH,
};

int ip_enum_fmt(struct ip_ctx *ctx, struct v4l2_fmtdesc *f)
{
	uint32_t index = f->index, type = f->type;
	int ret;

	if (!ip_type_ok(type))
		return -EINVAL;
	memset(f, 0, sizeof(*f));
	f->index = index;
	f->type = type;
	ret = vhqv_enum_fmt(&ip_offer, f);
	if (ret)
		return ret;
	snprintf((char *)f->description, sizeof(f->description), "%s",
		 description(vhqv_format_find(&ip_offer, f->pixelformat)));
	return 0;
}

int ip_enum_framesizes(struct ip_ctx *ctx, struct v4l2_frmsizeenum *fsize)
{
	memset(fsize->reserved, 0, sizeof(fsize->reserved));
	return vhqv_enum_framesizes(&ip_offer, fsize);
}

int ip_g_fmt(struct ip_ctx *ctx, struct v4l2_format *f)
{
	if (!ip_type_ok(f->type))
		return -EINVAL;
	memset(&f->fmt, 0, sizeof(f->fmt));
	vhqv_get_fmt(vhqv_state_writable(&ctx->st), f->type, &f->fmt.pix_mp);
	return 0;
}

int ip_try_fmt(struct ip_ctx *ctx, struct v4l2_format *f)
{
	if (!ip_type_ok(f->type))
		return -EINVAL;
	vhqv_try_fmt(&ip_offer, vhqv_state_writable(&ctx->st), f->type,
		     &f->fmt.pix_mp);
	return 0;
}

/* vhqv_s_fmt_mp(): the decision is vhqv_state_set_fmt()'s. */
int ip_s_fmt(struct ip_ctx *ctx, struct v4l2_format *f)
{
	struct vhqv_queues qs;
	struct vhqv_flow_do out;
	int ret;

	if (!ip_type_ok(f->type))
		return -EINVAL;
	ip_read_queues(ctx, &qs);
	ret = vhqv_state_set_fmt(&ip_offer, &ctx->st, &qs, f->type,
				 &f->fmt.pix_mp, &out);
	ip_flow_do(ctx, &out);
	return ret;
}

int ip_g_selection(struct ip_ctx *ctx, struct v4l2_selection *s)
{
	return vhqv_get_selection(vhqv_state_writable(&ctx->st), s);
}

int ip_s_selection(struct ip_ctx *ctx, struct v4l2_selection *s)
{
	return vhqv_set_selection(vhqv_state_writable(&ctx->st), s);
}
