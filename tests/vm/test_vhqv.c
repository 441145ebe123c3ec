// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libm2m against the vhqv module, in the test VM (scripts/vm-run): frames
 * converted by the device match the engine run natively, controls apply,
 * control events arrive, and bad formats are corrected as V4L2 requires.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/videodev2.h>
#include <m2m/m2m.h>

#include "hqv.h"

#define W 320
#define H 240

static struct m2m_device *dev;

static void open_vhqv(void)
{
	int ret = m2m_open(&dev, "vhqv");

	cr_assert_eq(ret, 0, "m2m_open(vhqv): %s", m2m_last_error());
}

static void close_vhqv(void)
{
	m2m_close(dev);
}

TestSuite(vhqv, .init = open_vhqv, .fini = close_vhqv);

static void set_formats(const char *in, const char *out)
{
	struct m2m_format fmt;

	cr_assert_eq(m2m_format_init(&fmt, m2m_fourcc_from_name(in), W, H), 0);
	cr_assert_eq(m2m_set_format(dev, &fmt, M2M_QUEUE_OUTPUT), 0, "%s", m2m_last_error());
	cr_assert_eq(fmt.width, W);
	cr_assert_eq(m2m_format_init(&fmt, m2m_fourcc_from_name(out), W, H), 0);
	cr_assert_eq(m2m_set_format(dev, &fmt, M2M_QUEUE_CAPTURE), 0, "%s", m2m_last_error());
	cr_assert_eq(fmt.fourcc, m2m_fourcc_from_name(out));
}

/* What the engine makes of src natively, for comparison with the device. */
static void engine_reference(uint8_t *dst, const char *out, uint8_t *src,
			     const char *in, bool hflip, bool vflip)
{
	struct hqv_job job = { .hflip = hflip, .vflip = vflip };
	uint32_t size[HQV_MAX_PLANES];
	void *scratch;

	job.src.fmt = hqv_format_find(m2m_fourcc_from_name(in));
	job.dst.fmt = hqv_format_find(m2m_fourcc_from_name(out));
	job.src.width = job.dst.width = W;
	job.src.height = job.dst.height = H;
	hqv_format_layout(job.src.fmt, W, H, job.src.bytesperline, size);
	hqv_format_layout(job.dst.fmt, W, H, job.dst.bytesperline, size);
	job.src.planes[0] = src;
	job.dst.planes[0] = dst;
	job.src.plane_size[0] = job.dst.plane_size[0] = W * H * 2;
	/* vhqv's default colorimetry: Rec. 709, limited range. */
	job.src.encoding = job.dst.encoding = HQV_ENC_BT709;
	cr_assert_eq(hqv_job_prepare(&job), 0);
	scratch = malloc(hqv_job_scratch_size(&job));
	hqv_job_run(&job, scratch, 0, H);
	free(scratch);
}

static void random_frame(uint8_t *p, size_t n, unsigned int seed)
{
	srand(seed);
	for (size_t i = 0; i < n; i++)
		p[i] = rand() & 0xff;
}

static void convert_and_compare(const char *in, const char *out, bool hflip,
				bool vflip)
{
	static uint8_t src[W * H * 2], dst[W * H * 2], ref[W * H * 2];

	set_formats(in, out);
	cr_assert_eq(m2m_set_control(dev, V4L2_CID_HFLIP, hflip), 0, "%s", m2m_last_error());
	cr_assert_eq(m2m_set_control(dev, V4L2_CID_VFLIP, vflip), 0, "%s", m2m_last_error());
	random_frame(src, sizeof(src), 42);
	memset(dst, 0, sizeof(dst));
	cr_assert_eq(m2m_convert(dev, dst, sizeof(dst), src, sizeof(src)),
		     (int)sizeof(dst), "%s", m2m_last_error());
	engine_reference(ref, out, src, in, hflip, vflip);
	cr_assert_arr_eq(dst, ref, sizeof(dst), "%s -> %s hflip=%d vflip=%d", in,
			 out, hflip, vflip);
}

Test(vhqv, converts_yuyv_to_yuyv_unchanged)
{
	static uint8_t src[W * H * 2], dst[W * H * 2];

	set_formats("YUYV", "YUYV");
	random_frame(src, sizeof(src), 7);
	cr_assert_eq(m2m_convert(dev, dst, sizeof(dst), src, sizeof(src)), (int)sizeof(dst),
		     "%s", m2m_last_error());
	cr_assert_arr_eq(dst, src, sizeof(src));
}

Test(vhqv, converts_yuyv_to_uyvy_like_the_engine)
{
	convert_and_compare("YUYV", "UYVY", false, false);
}

Test(vhqv, applies_hflip_and_vflip_controls)
{
	convert_and_compare("YUYV", "VYUY", true, false);
	convert_and_compare("UYVY", "YUYV", false, true);
	convert_and_compare("YVYU", "UYVY", true, true);
}

Test(vhqv, converts_many_frames_reusing_buffers)
{
	static uint8_t src[W * H * 2], dst[W * H * 2];

	set_formats("YUYV", "UYVY");
	for (int i = 0; i < 20; i++) {
		random_frame(src, sizeof(src), i);
		cr_assert_eq(m2m_convert(dev, dst, sizeof(dst), src, sizeof(src)),
			     (int)sizeof(dst), "frame %d: %s", i, m2m_last_error());
		cr_assert_eq(dst[1], src[0], "frame %d", i);
	}
}

Test(vhqv, small_destination_gives_enospc_and_keeps_working)
{
	static uint8_t src[W * H * 2], dst[W * H * 2];

	set_formats("YUYV", "UYVY");
	cr_assert_eq(m2m_convert(dev, dst, sizeof(dst) - 1, src, sizeof(src)), -ENOSPC);
	cr_assert_eq(m2m_convert(dev, dst, sizeof(dst), src, sizeof(src) - 1), -ENOSPC);
	cr_assert_eq(m2m_convert(dev, dst, sizeof(dst), src, sizeof(src)), (int)sizeof(dst));
}

Test(vhqv, closed_handle_gives_einval)
{
	struct m2m_device *other;
	struct m2m_format fmt;

	cr_assert_eq(m2m_open(&other, "vhqv"), 0);
	m2m_close(other);
	cr_assert_eq(m2m_get_format(other, &fmt, M2M_QUEUE_OUTPUT), -EINVAL);
	cr_assert_not_null(strstr(m2m_last_error(), "closed"));
}

Test(vhqv, reports_its_identity)
{
	struct m2m_device_info info;

	cr_assert_eq(m2m_device_get_info(dev, &info), 0);
	cr_assert_str_eq(info.driver, "vhqv");
	cr_assert_str_eq(info.bus_info, "platform:vhqv.0");
	cr_assert_str_eq(info.path, getenv("VHQV_VIDEO"));
}

/* Raw ioctls on the node, for what the V4L2 spec asks of the driver. */

static int open_node(void)
{
	int fd = open(getenv("VHQV_VIDEO"), O_RDWR);

	cr_assert_geq(fd, 0, "open %s", getenv("VHQV_VIDEO"));
	return fd;
}

Test(driver, unsupported_pixel_format_is_replaced_by_a_supported_one)
{
	int fd = open_node();
	uint32_t types[] = { V4L2_BUF_TYPE_VIDEO_OUTPUT, V4L2_BUF_TYPE_VIDEO_CAPTURE };

	for (int t = 0; t < 2; t++) {
		struct v4l2_format f = { .type = types[t] };

		f.fmt.pix.pixelformat = v4l2_fourcc('Z', 'Z', 'Z', 'Z');
		f.fmt.pix.width = 640;
		f.fmt.pix.height = 480;
		cr_assert_eq(ioctl(fd, VIDIOC_TRY_FMT, &f), 0);
		cr_assert_not_null(hqv_format_find(f.fmt.pix.pixelformat));
		f.fmt.pix.pixelformat = v4l2_fourcc('Z', 'Z', 'Z', 'Z');
		cr_assert_eq(ioctl(fd, VIDIOC_S_FMT, &f), 0);
		cr_assert_not_null(hqv_format_find(f.fmt.pix.pixelformat));
		cr_assert_geq(f.fmt.pix.sizeimage, f.fmt.pix.bytesperline * f.fmt.pix.height);
	}
	close(fd);
}

Test(driver, absurd_sizes_are_clamped)
{
	int fd = open_node();
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT };

	f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	f.fmt.pix.width = 0xffffffff;
	f.fmt.pix.height = 0xffffffff;
	f.fmt.pix.bytesperline = 0xffffffff;
	cr_assert_eq(ioctl(fd, VIDIOC_S_FMT, &f), 0);
	cr_assert_eq(f.fmt.pix.width, 8192);
	cr_assert_eq(f.fmt.pix.height, 8192);
	cr_assert_eq(f.fmt.pix.bytesperline, 8192 * 2);
	cr_assert_eq(f.fmt.pix.sizeimage, 8192 * 2 * 8192);

	f.fmt.pix.width = 1;
	f.fmt.pix.height = 0;
	cr_assert_eq(ioctl(fd, VIDIOC_TRY_FMT, &f), 0);
	cr_assert_eq(f.fmt.pix.width, 2);
	cr_assert_eq(f.fmt.pix.height, 2);
	close(fd);
}

Test(driver, capture_follows_output_size_and_colorimetry)
{
	int fd = open_node();
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT };

	f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	f.fmt.pix.width = 352;
	f.fmt.pix.height = 288;
	f.fmt.pix.colorspace = V4L2_COLORSPACE_SMPTE170M;
	cr_assert_eq(ioctl(fd, VIDIOC_S_FMT, &f), 0);
	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	cr_assert_eq(ioctl(fd, VIDIOC_G_FMT, &f), 0);
	cr_assert_eq(f.fmt.pix.width, 352);
	cr_assert_eq(f.fmt.pix.height, 288);
	cr_assert_eq(f.fmt.pix.colorspace, V4L2_COLORSPACE_SMPTE170M);
	close(fd);
}

Test(vhqv, set_format_passes_encoding_quantization_and_transfer)
{
	struct m2m_format fmt;

	cr_assert_eq(m2m_format_init(&fmt, V4L2_PIX_FMT_YUYV, W, H), 0);
	fmt.colorspace = V4L2_COLORSPACE_SMPTE170M;
	fmt.ycbcr_enc = V4L2_YCBCR_ENC_709;
	fmt.quantization = V4L2_QUANTIZATION_FULL_RANGE;
	fmt.xfer_func = V4L2_XFER_FUNC_SRGB;
	cr_assert_eq(m2m_set_format(dev, &fmt, M2M_QUEUE_OUTPUT), 0, "%s",
		     m2m_last_error());
	cr_assert_eq(m2m_get_format(dev, &fmt, M2M_QUEUE_OUTPUT), 0);
	cr_assert_eq(fmt.ycbcr_enc, V4L2_YCBCR_ENC_709);
	cr_assert_eq(fmt.quantization, V4L2_QUANTIZATION_FULL_RANGE);
	cr_assert_eq(fmt.xfer_func, V4L2_XFER_FUNC_SRGB);
}

Test(driver, control_change_raises_a_control_event)
{
	int fd = open_node();
	struct v4l2_event_subscription sub = {
		.type = V4L2_EVENT_CTRL,
		.id = V4L2_CID_VFLIP,
		/* Controls are per file handle: ask for our own changes too. */
		.flags = V4L2_EVENT_SUB_FL_SEND_INITIAL |
			 V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK,
	};
	struct v4l2_control ctrl = { .id = V4L2_CID_VFLIP, .value = 1 };
	struct v4l2_event ev;
	struct pollfd pfd = { .fd = fd, .events = POLLPRI };

	cr_assert_eq(ioctl(fd, VIDIOC_SUBSCRIBE_EVENT, &sub), 0);
	cr_assert_eq(ioctl(fd, VIDIOC_DQEVENT, &ev), 0, "initial event");
	cr_assert_eq(ev.u.ctrl.value, 0);

	cr_assert_eq(ioctl(fd, VIDIOC_S_CTRL, &ctrl), 0);
	cr_assert_eq(poll(&pfd, 1, 1000), 1);
	cr_assert_eq(ioctl(fd, VIDIOC_DQEVENT, &ev), 0);
	cr_assert_eq(ev.type, V4L2_EVENT_CTRL);
	cr_assert_eq(ev.id, V4L2_CID_VFLIP);
	cr_assert(ev.u.ctrl.changes & V4L2_EVENT_CTRL_CH_VALUE);
	cr_assert_eq(ev.u.ctrl.value, 1);
	close(fd);
}

Test(vhqv, unknown_control_is_refused_with_enoent)
{
	int64_t value;

	cr_assert_eq(m2m_set_control(dev, V4L2_CID_AUDIO_VOLUME, 1), -ENOENT);
	cr_assert_not_null(strstr(m2m_last_error(), "no control"));
	cr_assert_eq(m2m_get_control(dev, &value, V4L2_CID_AUDIO_VOLUME), -ENOENT);
}
