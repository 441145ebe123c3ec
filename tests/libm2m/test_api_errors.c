// SPDX-License-Identifier: LGPL-2.1-or-later
/* Bad input to libm2m gets a negative errno and a message, never a crash. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include <m2m/ir.h>
#include <m2m/m2m.h>

static void assert_message_mentions(const char *what)
{
	cr_assert_not_null(strstr(m2m_last_error(), what),
			   "message \"%s\" mentions \"%s\"", m2m_last_error(), what);
}

Test(errors, last_error_is_never_null)
{
	cr_assert_not_null(m2m_last_error());
}

Test(errors, null_handle_gives_einval_with_the_function_name)
{
	struct m2m_format fmt;
	int64_t value;
	char buf[4];

	cr_assert_eq(m2m_get_format(NULL, &fmt, M2M_QUEUE_OUTPUT), -EINVAL);
	assert_message_mentions("m2m_get_format");
	cr_assert_eq(m2m_set_format(NULL, &fmt, M2M_QUEUE_CAPTURE), -EINVAL);
	cr_assert_eq(m2m_try_format(NULL, &fmt, M2M_QUEUE_CAPTURE), -EINVAL);
	cr_assert_eq(m2m_set_control(NULL, 0x00980914, 1), -EINVAL);
	cr_assert_eq(m2m_get_control(NULL, &value, 0x00980914), -EINVAL);
	cr_assert_eq(m2m_convert(NULL, buf, sizeof(buf), buf, sizeof(buf)), -EINVAL);
	assert_message_mentions("m2m_convert");
	assert_message_mentions("NULL");
	cr_assert_eq(m2m_device_get_info(NULL, NULL), -EINVAL);
	cr_assert_eq(m2m_hold_jobs(NULL, 1), -EINVAL);
	assert_message_mentions("m2m_hold_jobs");
	m2m_close(NULL);
}

/* Holds nest; ending one that no call began is refused, not counted. */
Test(errors, hold_jobs_ends_only_what_began)
{
	struct m2m_device *dev;

	cr_assert_eq(m2m_open(&dev, "inprocess"), 0);
	cr_assert_eq(m2m_hold_jobs(dev, 0), -EINVAL);
	assert_message_mentions("nothing is held");
	cr_assert_eq(m2m_hold_jobs(dev, 1), 0);
	cr_assert_eq(m2m_hold_jobs(dev, 1), 0);
	cr_assert_eq(m2m_hold_jobs(dev, 0), 0);
	cr_assert_eq(m2m_hold_jobs(dev, 0), 0);
	cr_assert_eq(m2m_hold_jobs(dev, 0), -EINVAL);
	m2m_close(dev);
}

Test(errors, forged_handle_gives_einval_not_a_crash)
{
	/* Never returned by m2m_open: must be refused without being read. */
	struct m2m_device *bogus = (struct m2m_device *)(uintptr_t)0x1000;
	struct m2m_format fmt;

	cr_assert_eq(m2m_get_format(bogus, &fmt, M2M_QUEUE_OUTPUT), -EINVAL);
	assert_message_mentions("closed or invalid");
	m2m_close(bogus);
}

Test(errors, forged_ir_handle_gives_einval_not_a_crash)
{
	struct m2m_ir *bogus = (struct m2m_ir *)(uintptr_t)0x1000;
	const uint32_t pulses[3] = { 500, 500, 500 };
	struct m2m_ir_scancode sc;
	struct m2m_ir_info info;
	uint32_t raw[4];

	cr_assert_eq(m2m_ir_get_fd(bogus), -EINVAL);
	assert_message_mentions("closed or invalid");
	cr_assert_eq(m2m_ir_get_info(bogus, &info), -EINVAL);
	cr_assert_eq(m2m_ir_set_protocols(bogus, 0), -EINVAL);
	cr_assert_eq(m2m_ir_send_raw(bogus, pulses, 3), -EINVAL);
	cr_assert_eq(m2m_ir_send_scancode(bogus, 0, 1), -EINVAL);
	cr_assert_eq(m2m_ir_read_scancode(bogus, &sc, 0), -EINVAL);
	cr_assert_eq(m2m_ir_read_raw(bogus, raw, 4, 0), -EINVAL);
	assert_message_mentions("m2m_ir_read_raw");
	m2m_ir_close(bogus);
}

Test(errors, open_of_a_missing_node_gives_enoent)
{
	struct m2m_device *dev = (struct m2m_device *)1;

	cr_assert_eq(m2m_open(&dev, "/dev/no-such-video-node"), -ENOENT);
	cr_assert_null(dev, "out is cleared on failure");
	assert_message_mentions("/dev/no-such-video-node");
}

Test(errors, open_of_a_non_v4l2_node_fails_cleanly)
{
	struct m2m_device *dev;
	int ret = m2m_open(&dev, "/dev/null");

	cr_assert_lt(ret, 0);
	cr_assert_null(dev);
	assert_message_mentions("VIDIOC_QUERYCAP");
}

Test(errors, open_of_an_unknown_driver_gives_enoent)
{
	struct m2m_device *dev;

	cr_assert_eq(m2m_open(&dev, "no-such-driver"), -ENOENT);
	assert_message_mentions("no-such-driver");
}

Test(errors, open_with_bad_arguments_gives_einval)
{
	struct m2m_device *dev;

	cr_assert_eq(m2m_open(NULL, "vhqv"), -EINVAL);
	cr_assert_eq(m2m_open(&dev, NULL), -EINVAL);
	cr_assert_eq(m2m_open(&dev, ""), -EINVAL);
}

/* Every flag m2m.h names opens; one it does not is refused, named. */
Test(errors, open_takes_the_flags_it_knows_and_names_others)
{
	struct m2m_open_options opts = M2M_OPEN_OPTIONS_INIT;
	struct m2m_device *dev;

	opts.flags = M2M_OPEN_NONBLOCK | M2M_OPEN_SYSCALLS |
		     M2M_OPEN_USERPTR_MAPPED;
	cr_assert_eq(m2m_open_ext(&dev, M2M_INPROCESS, &opts), 0, "%s",
		     m2m_last_error());
	m2m_close(dev);
	opts.flags = M2M_OPEN_USERPTR_MAPPED << 1;
	cr_assert_eq(m2m_open_ext(&dev, M2M_INPROCESS, &opts), -EINVAL);
	cr_assert_null(dev);
	assert_message_mentions("unknown flags 0x8");
}

Test(formats, init_computes_a_packed_layout)
{
	struct m2m_format fmt;

	cr_assert_eq(m2m_format_init(&fmt, M2M_FOURCC('Y', 'U', 'Y', 'V'), 640, 480), 0);
	cr_assert_eq(fmt.num_planes, 1);
	cr_assert_eq(fmt.bytesperline[0], 1280);
	cr_assert_eq(fmt.plane_size[0], 1280 * 480);
	cr_assert_eq(m2m_format_frame_size(&fmt), 1280 * 480);
}

/*
 * Odd sizes are sizes: chroma rounds up (YUYV: whole macropixels), one
 * buffer rounds the luma pitch up to keep chroma lines whole, one buffer
 * per plane keeps each plane's own minimum.
 */
Test(formats, init_takes_odd_sizes_with_chroma_rounded_up)
{
	struct m2m_format fmt;

	cr_assert_eq(m2m_format_init(&fmt, M2M_FOURCC('Y', 'U', 'Y', 'V'), 451, 427), 0);
	cr_assert_eq(fmt.width, 451);
	cr_assert_eq(fmt.bytesperline[0], 904);
	cr_assert_eq(fmt.plane_size[0], 904 * 427);
	cr_assert_eq(m2m_format_init(&fmt, M2M_FOURCC('Y', 'U', '1', '2'), 451, 427), 0);
	cr_assert_eq(fmt.bytesperline[0], 452);
	cr_assert_eq(fmt.plane_size[0], 452 * 427 + 2 * 226 * 214);
	cr_assert_eq(m2m_format_init(&fmt, M2M_FOURCC('Y', 'M', '1', '2'), 451, 427), 0);
	cr_assert_eq(fmt.num_planes, 3);
	cr_assert_eq(fmt.bytesperline[0], 451);
	cr_assert_eq(fmt.bytesperline[1], 226);
	cr_assert_eq(fmt.plane_size[2], 226 * 214);
	cr_assert_eq(m2m_format_init(&fmt, M2M_FOURCC('G', 'R', 'E', 'Y'), 1, 1), 0);
	cr_assert_eq(m2m_format_frame_size(&fmt), 1);
	cr_assert_eq(m2m_format_init(&fmt, M2M_FOURCC('N', 'V', '1', '2'), 1, 1), 0);
	cr_assert_eq(m2m_format_frame_size(&fmt), 2 + 2);
}

Test(formats, init_rejects_unknown_formats_and_bad_sizes)
{
	struct m2m_format fmt;

	cr_assert_eq(m2m_format_init(&fmt, M2M_FOURCC('X', 'X', 'X', 'X'), 64, 64), -EINVAL);
	assert_message_mentions("unknown pixel format");
	cr_assert_eq(m2m_format_init(&fmt, M2M_FOURCC('Y', 'U', 'Y', 'V'), 0, 64), -EINVAL);
	assert_message_mentions("0x64");
	cr_assert_eq(m2m_format_init(&fmt, M2M_FOURCC('Y', 'U', 'Y', 'V'), 8193, 1), -EINVAL);
	assert_message_mentions("8193x1");
	cr_assert_eq(m2m_format_init(&fmt, M2M_FOURCC('Y', 'U', 'Y', 'V'), 64, 100000), -EINVAL);
	cr_assert_eq(m2m_format_init(NULL, M2M_FOURCC('Y', 'U', 'Y', 'V'), 64, 64), -EINVAL);
}

Test(formats, names_map_to_v4l2_fourccs)
{
	cr_assert_eq(m2m_fourcc_from_name("UYVY"), M2M_FOURCC('U', 'Y', 'V', 'Y'));
	cr_assert_eq(m2m_fourcc_from_name("XBGR32"), M2M_FOURCC('X', 'R', '2', '4'));
	cr_assert_str_eq(m2m_fourcc_to_name(M2M_FOURCC('N', 'M', '1', '2')), "NV12M");
	cr_assert_null(m2m_fourcc_to_name(M2M_FOURCC('N', 'O', 'P', 'E')));
	cr_assert_eq(m2m_fourcc_from_name("NV12 "), 0);
	cr_assert_eq(m2m_fourcc_from_name(NULL), 0);
}
