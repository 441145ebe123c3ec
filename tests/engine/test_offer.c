// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The largest size a node offers (struct vhqv_offer, v4l2/hqv-v4l2.c):
 * vhqv's max_size parameter, which the in-process device keeps at the
 * engine's 8192. ENUM_FRAMESIZES, TRY_FMT and S_FMT on both queues, and
 * the configuration of a new file, all keep to it; vm.vhqv_compliance_
 * formats streams every format pair up to it.
 */
#include <criterion/criterion.h>

#include "hqv-v4l2.h"

static const struct vhqv_offer capped = {
	.formats = VHQV_OFFER_MPLANE | VHQV_OFFER_SEMIPLANAR,
	.max_size = 640,
};

static const struct vhqv_offer uncapped = {
	.formats = VHQV_OFFER_MPLANE | VHQV_OFFER_SEMIPLANAR,
	.max_size = HQV_MAX_WIDTH,
};

static struct v4l2_pix_format_mplane request(uint32_t fourcc, uint32_t width,
					     uint32_t height, uint32_t field)
{
	struct v4l2_pix_format_mplane pix = {
		.pixelformat = fourcc,
		.width = width,
		.height = height,
		.field = field,
	};

	return pix;
}

/* TRY_FMT on OUTPUT of a new file. */
static struct v4l2_pix_format_mplane try_output(const struct vhqv_offer *offer,
						uint32_t fourcc, uint32_t width,
						uint32_t height, uint32_t field)
{
	struct v4l2_pix_format_mplane pix = request(fourcc, width, height,
						    field);
	struct vhqv_config cfg;

	vhqv_config_init(offer, &cfg);
	vhqv_try_fmt(offer, &cfg, V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE, &pix);
	return pix;
}

/* S_FMT on OUTPUT of a new file, progressive YUYV. */
static void set_output(struct vhqv_config *cfg, uint32_t width,
		       uint32_t height)
{
	struct v4l2_pix_format_mplane pix =
		request(V4L2_PIX_FMT_YUYV, width, height, V4L2_FIELD_NONE);

	vhqv_config_init(&capped, cfg);
	vhqv_set_fmt(&capped, cfg, V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE, &pix);
}

Test(offer, enum_framesizes_names_the_largest_size_offered)
{
	struct v4l2_frmsizeenum fsize = {
		.pixel_format = V4L2_PIX_FMT_NV12M,
	};

	cr_assert_eq(vhqv_enum_framesizes(&capped, &fsize), 0);
	cr_assert_eq(fsize.type, V4L2_FRMSIZE_TYPE_CONTINUOUS);
	cr_assert_eq(fsize.stepwise.min_width, 1);
	cr_assert_eq(fsize.stepwise.min_height, 1);
	cr_assert_eq(fsize.stepwise.max_width, 640);
	cr_assert_eq(fsize.stepwise.max_height, 640);

	cr_assert_eq(vhqv_enum_framesizes(&uncapped, &fsize), 0);
	cr_assert_eq(fsize.stepwise.max_width, 8192);
	cr_assert_eq(fsize.stepwise.max_height, 8192);
}

Test(offer, try_fmt_clamps_both_queues_to_the_largest_size)
{
	static const uint32_t types[] = {
		V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE,
		V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE,
	};
	struct vhqv_config cfg;
	unsigned int i;

	vhqv_config_init(&capped, &cfg);
	for (i = 0; i < 2; i++) {
		struct v4l2_pix_format_mplane pix =
			request(V4L2_PIX_FMT_RGB24, 8192, ~0u, V4L2_FIELD_NONE);

		vhqv_try_fmt(&capped, &cfg, types[i], &pix);
		cr_assert_eq(pix.width, 640, "type %u", types[i]);
		cr_assert_eq(pix.height, 640, "type %u", types[i]);
		cr_assert_eq(pix.plane_fmt[0].sizeimage, 640 * 640 * 3);

		/* Odd sizes below it are kept. */
		pix = request(V4L2_PIX_FMT_RGB24, 451, 639, V4L2_FIELD_NONE);
		vhqv_try_fmt(&capped, &cfg, types[i], &pix);
		cr_assert_eq(pix.width, 451);
		cr_assert_eq(pix.height, 639);
	}
}

/* An ALTERNATE format's height is a field's: the frame is what is capped. */
Test(offer, try_fmt_caps_the_frame_of_alternate_fields)
{
	struct v4l2_pix_format_mplane pix =
		try_output(&capped, V4L2_PIX_FMT_YUV420M, 1000, 1000,
			   V4L2_FIELD_ALTERNATE);

	cr_assert_eq(pix.field, V4L2_FIELD_ALTERNATE);
	cr_assert_eq(pix.height, 320);
}

/* 4:2:0 fields take 4 lines at least: the smallest cap still holds them. */
Test(offer, smallest_cap_holds_a_frame_of_4_2_0_fields)
{
	const struct vhqv_offer tiny = {
		.formats = VHQV_OFFER_MPLANE,
		.max_size = VHQV_MIN_MAX_SIZE,
	};
	struct v4l2_pix_format_mplane pix =
		try_output(&tiny, V4L2_PIX_FMT_YUV420, 1, 1,
			   V4L2_FIELD_INTERLACED_TB);

	cr_assert_eq(pix.field, V4L2_FIELD_INTERLACED_TB);
	cr_assert_eq(pix.height, 4);
	cr_assert_leq(pix.height, VHQV_MIN_MAX_SIZE);
}

Test(offer, s_fmt_sets_the_clamped_size_and_capture_follows)
{
	struct vhqv_config cfg;

	set_output(&cfg, 1920, 1080);
	cr_assert_eq(cfg.q[VHQV_SRC].width, 640);
	cr_assert_eq(cfg.q[VHQV_SRC].height, 640);
	cr_assert_eq(cfg.q[VHQV_DST].width, 640);
	cr_assert_eq(cfg.q[VHQV_DST].height, 640);
}

/* One bound for width and height: a turned frame stays within it. */
Test(offer, a_turned_frame_stays_within_the_largest_size)
{
	struct vhqv_config cfg;

	set_output(&cfg, 640, 360);
	cr_assert(vhqv_config_set_ctrl(&cfg, V4L2_CID_ROTATE, 90));
	vhqv_capture_follow(&cfg);
	cr_assert_eq(cfg.q[VHQV_DST].width, 360);
	cr_assert_eq(cfg.q[VHQV_DST].height, 640);
}

Test(offer, a_new_file_starts_at_640x480_or_the_largest_size_below_it)
{
	const struct vhqv_offer small = {
		.formats = VHQV_OFFER_MPLANE,
		.max_size = 320,
	};
	struct vhqv_config cfg;
	unsigned int q;

	vhqv_config_init(&uncapped, &cfg);
	cr_assert_eq(cfg.q[VHQV_SRC].width, VHQV_DEF_WIDTH);
	cr_assert_eq(cfg.q[VHQV_SRC].height, VHQV_DEF_HEIGHT);

	vhqv_config_init(&small, &cfg);
	for (q = 0; q < 2; q++) {
		cr_assert_eq(cfg.q[q].width, 320, "queue %u", q);
		cr_assert_eq(cfg.q[q].height, 320, "queue %u", q);
		cr_assert_eq(cfg.q[q].sizeimage[0], 320 * 320 * 2);
		cr_assert_eq(cfg.q[q].rect.width, 320);
		cr_assert_eq(cfg.q[q].rect.height, 320);
	}
}

/*
 * An MMAP buffer's memory plane is 2 bytes at least: with 1 byte, bytesused
 * 0 (the whole plane) is its only payload below its length, and
 * v4l2-compliance -f's short plane at 1x1 GREY or YUV420M is not short.
 * Memory the application brings needs only the frame's bytes.
 */
Test(buffers, an_mmap_plane_is_2_bytes_at_least)
{
	cr_assert_eq(vhqv_plane_length(V4L2_MEMORY_MMAP, 1), 2);
	cr_assert_eq(vhqv_plane_length(V4L2_MEMORY_MMAP, 2), 2);
	cr_assert_eq(vhqv_plane_length(V4L2_MEMORY_MMAP, 640 * 480 * 2),
		     640 * 480 * 2);
	cr_assert_eq(vhqv_plane_length(V4L2_MEMORY_USERPTR, 1), 1);
	cr_assert_eq(vhqv_plane_length(V4L2_MEMORY_DMABUF, 1), 1);
}
