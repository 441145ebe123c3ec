// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What S_FMT and S_CTRL do to a file's state (struct vhqv_state,
 * v4l2/hqv-v4l2.c): the one decision vhqv.ko and the in-process device
 * both make, given their queues (struct vhqv_queues). docs/vhqv.md,
 * "Geometry changes", is the behaviour; vm.vhqv_stream and
 * inprocess.stream drive it through V4L2, these pin each case.
 */
#include <criterion/criterion.h>

#include "hqv-v4l2.h"

#define OUTPUT	V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE
#define CAPTURE	V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE

static const struct vhqv_offer offer = { .max_size = HQV_MAX_WIDTH };
static struct vhqv_state st;
static struct vhqv_flow_do out;

static void setup(void)
{
	vhqv_state_init(&offer, &st);
}

TestSuite(state, .init = setup);

/* A format of this size, as the application would ask it. */
static struct v4l2_pix_format_mplane yuyv(uint32_t width, uint32_t height)
{
	struct v4l2_pix_format_mplane pix = {
		.width = width, .height = height,
		.pixelformat = V4L2_PIX_FMT_YUYV, .field = V4L2_FIELD_NONE,
	};

	return pix;
}

/*
 * CAPTURE with two buffers ready, streaming or not; OUTPUT's frames up to
 * buffer last_src queued (-1: OUTPUT has no buffers, as S_FMT of OUTPUT
 * wants).
 */
static struct vhqv_queues capture_with_buffers(bool streaming, int last_src)
{
	struct vhqv_queues qs = {
		.has_buffers = { last_src >= 0, true },
		.capture_streaming = streaming,
		.last_src = last_src,
		.capture_ready = 2,
	};

	return qs;
}

Test(state, a_queue_with_buffers_keeps_its_format)
{
	struct vhqv_queues qs = { .has_buffers = { true, false }, .last_src = -1 };
	struct v4l2_pix_format_mplane pix = yuyv(320, 240);

	cr_assert_eq(vhqv_state_set_fmt(&offer, &st, &qs, OUTPUT, &pix, &out),
		     -EBUSY);
	cr_assert_eq(st.cfg.q[VHQV_SRC].width, VHQV_DEF_WIDTH);
	qs.has_buffers[VHQV_SRC] = false;
	qs.has_buffers[VHQV_DST] = true;
	pix = yuyv(320, 240);
	cr_assert_eq(vhqv_state_set_fmt(&offer, &st, &qs, CAPTURE, &pix, &out),
		     -EBUSY);
	cr_assert_eq(st.cfg.q[VHQV_DST].width, VHQV_DEF_WIDTH);
}

Test(state, with_no_capture_buffers_a_new_output_format_takes_effect_at_once)
{
	struct vhqv_queues qs = { .last_src = -1 };
	struct v4l2_pix_format_mplane pix = yuyv(320, 240);

	cr_assert_eq(vhqv_state_set_fmt(&offer, &st, &qs, OUTPUT, &pix, &out), 0);
	/* CAPTURE follows, with no event and no pending change. */
	cr_assert_eq(st.cfg.q[VHQV_DST].width, 320);
	cr_assert(!out.source_change && !out.apply && !st.flow.change_pending);
}

Test(state, a_new_output_format_while_capture_streams_ends_it_with_an_empty_last)
{
	struct vhqv_queues qs = capture_with_buffers(true, -1);
	struct v4l2_pix_format_mplane pix = yuyv(320, 240);

	cr_assert_eq(vhqv_state_set_fmt(&offer, &st, &qs, OUTPUT, &pix, &out), 0);
	/* No frame left to flag: a ready CAPTURE buffer goes back with LAST. */
	cr_assert_eq(out.empty_last, 1);
	cr_assert(out.apply && out.source_change && !st.flow.change_pending);
	vhqv_state_apply(&st, &out);
	cr_assert_eq(st.cfg.q[VHQV_DST].width, 320);
}

Test(state, a_new_output_format_with_capture_stopped_changes_at_once_with_the_event)
{
	struct vhqv_queues qs = capture_with_buffers(false, -1);
	struct v4l2_pix_format_mplane pix = yuyv(320, 240);

	cr_assert_eq(vhqv_state_set_fmt(&offer, &st, &qs, OUTPUT, &pix, &out), 0);
	cr_assert(out.apply && out.source_change && !out.empty_last);
	vhqv_state_apply(&st, &out);
	cr_assert_eq(st.cfg.q[VHQV_DST].width, 320);
	cr_assert(!vhqv_flow_may_run(&st.flow));	/* until CAPTURE restarts */
}

Test(state, an_output_format_that_leaves_capture_as_it_is_is_no_change)
{
	struct vhqv_queues qs = capture_with_buffers(true, -1);
	struct v4l2_pix_format_mplane pix = yuyv(VHQV_DEF_WIDTH,
						 VHQV_DEF_HEIGHT);

	pix.pixelformat = V4L2_PIX_FMT_UYVY;
	cr_assert_eq(vhqv_state_set_fmt(&offer, &st, &qs, OUTPUT, &pix, &out), 0);
	cr_assert(!st.flow.change_pending && !out.source_change);
	cr_assert_eq(st.cfg.q[VHQV_SRC].fmt->fourcc, V4L2_PIX_FMT_UYVY);
}

Test(state, a_turn_to_portrait_resizes_capture_and_with_buffers_is_a_change)
{
	struct vhqv_queues none = { .last_src = -1 };
	struct vhqv_queues qs = capture_with_buffers(true, 4);

	cr_assert_eq(vhqv_state_set_ctrl(&st, &none, V4L2_CID_ROTATE, 90, &out),
		     0);
	cr_assert_eq(st.cfg.q[VHQV_DST].width, VHQV_DEF_HEIGHT);
	cr_assert(!out.source_change);
	/* Back to landscape while CAPTURE streams: waits for frame 4. */
	cr_assert_eq(vhqv_state_set_ctrl(&st, &qs, V4L2_CID_ROTATE, 0, &out), 0);
	cr_assert(st.flow.change_pending && st.flow.change_src == 4);
	cr_assert(st.cfg.rotation == 90 && !out.apply && !out.source_change);
	/* Jobs keep the old geometry; the ioctls see the new one. */
	cr_assert_eq(st.cfg.q[VHQV_DST].width, VHQV_DEF_HEIGHT);
	cr_assert_eq(vhqv_state_writable(&st)->q[VHQV_DST].width,
		     VHQV_DEF_WIDTH);
	/* The frame of OUTPUT buffer 4 is the old geometry's last. */
	vhqv_flow_job_done(&st.flow, 4, &out);
	cr_assert(out.flag_last && out.apply && out.source_change);
	vhqv_state_apply(&st, &out);
	cr_assert_eq(st.cfg.q[VHQV_DST].width, VHQV_DEF_WIDTH);
	cr_assert_eq(st.cfg.rotation, 0);
}

Test(state, other_controls_apply_from_the_next_job_even_with_a_change_pending)
{
	struct vhqv_queues qs = capture_with_buffers(true, 1);

	vhqv_state_set_ctrl(&st, &qs, V4L2_CID_ROTATE, 90, &out);
	cr_assert(st.flow.change_pending);
	cr_assert_eq(vhqv_state_set_ctrl(&st, &qs, V4L2_CID_HFLIP, 1, &out), 0);
	cr_assert(st.cfg.hflip && st.next.hflip);
	/* 90 to 270 keeps portrait: no change, both configurations. */
	cr_assert_eq(vhqv_state_set_ctrl(&st, &qs, V4L2_CID_ROTATE, 270, &out),
		     0);
	cr_assert(st.next.rotation == 270 && st.cfg.rotation == 270);
	cr_assert(!out.source_change && !out.apply);
}

Test(state, a_control_not_ours_is_refused)
{
	struct vhqv_queues qs = { .last_src = -1 };
	struct vhqv_config before = st.cfg;

	cr_assert_eq(vhqv_state_set_ctrl(&st, &qs, V4L2_CID_GAIN, 3, &out),
		     -EINVAL);
	cr_assert(!memcmp(&before, &st.cfg, sizeof(before)));
}

Test(state, a_capture_buffer_fits_when_each_plane_holds_the_frame)
{
	uint32_t length[1] = { VHQV_DEF_WIDTH * VHQV_DEF_HEIGHT * 2 };

	cr_assert(vhqv_capture_fits(&st, length, 1));
	length[0]--;
	cr_assert_not(vhqv_capture_fits(&st, length, 1));
}

Test(state, events_carry_their_argument_where_v4l2_puts_it)
{
	struct v4l2_event ev;

	vhqv_event_init(&ev, V4L2_EVENT_SOURCE_CHANGE,
			V4L2_EVENT_SRC_CH_RESOLUTION);
	cr_assert_eq(ev.u.src_change.changes, V4L2_EVENT_SRC_CH_RESOLUTION);
	vhqv_event_init(&ev, V4L2_EVENT_FRAME_SYNC, 7);
	cr_assert_eq(ev.u.frame_sync.frame_sequence, 7);
	vhqv_event_init(&ev, V4L2_EVENT_EOS, 9);
	cr_assert_eq(ev.type, V4L2_EVENT_EOS);
	cr_assert_eq(ev.u.frame_sync.frame_sequence, 0);
}
