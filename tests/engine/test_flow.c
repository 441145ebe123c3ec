// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The drain and geometry-change state machine of v4l2/hqv-v4l2.c, which
 * vhqv.ko and the in-process device both run: each transition docs/vhqv.md
 * describes ("Draining", "Geometry changes"), with the actions the callers
 * carry out. vm.vhqv_stream and inprocess.stream drive the same machine
 * through V4L2; these pin its decisions one by one.
 */
#include <criterion/criterion.h>

#include "hqv-v4l2.h"

static struct vhqv_flow flow;
static struct vhqv_flow_do out;

static void setup(void)
{
	vhqv_flow_init(&flow);
}

TestSuite(flow, .init = setup);

Test(flow, stop_flags_the_frame_of_the_last_output_buffer_then_start_resumes)
{
	cr_assert_eq(vhqv_flow_stop(&flow, 3, 2, &out), 0);
	cr_assert(flow.draining && !out.empty_last && !out.eos);
	vhqv_flow_job_done(&flow, 2, &out);
	cr_assert(!out.flag_last && !out.eos && flow.draining);
	vhqv_flow_job_done(&flow, 3, &out);
	cr_assert(out.flag_last && out.eos && !out.apply);
	cr_assert(flow.stopped && !flow.draining);
	cr_assert(vhqv_flow_may_run(&flow));
	/* STOP when stopped says EOS again; START resumes. */
	cr_assert_eq(vhqv_flow_stop(&flow, -1, 1, &out), 0);
	cr_assert(out.eos && !out.empty_last);
	cr_assert_eq(vhqv_flow_start(&flow, &out), 0);
	cr_assert(out.resume && !flow.stopped);
	cr_assert_eq(vhqv_flow_start(&flow, &out), 0);
	cr_assert(!out.resume);
}

Test(flow, stop_and_start_while_draining_are_busy)
{
	vhqv_flow_stop(&flow, 0, 1, &out);
	cr_assert_eq(vhqv_flow_stop(&flow, 0, 1, &out), -EBUSY);
	cr_assert_eq(vhqv_flow_start(&flow, &out), -EBUSY);
}

Test(flow, stop_with_every_frame_done_returns_a_ready_capture_buffer_empty)
{
	cr_assert_eq(vhqv_flow_stop(&flow, -1, 2, &out), 0);
	cr_assert_eq(out.empty_last, 1);
	cr_assert(out.eos && flow.stopped);
}

Test(flow, stop_with_no_capture_buffer_ends_with_the_next_one_queued)
{
	vhqv_flow_stop(&flow, -1, 0, &out);
	cr_assert(!out.empty_last && !out.eos && flow.draining);
	vhqv_flow_capture_queued(&flow, &out);
	cr_assert_eq(out.empty_last, 1);
	cr_assert(out.eos && flow.stopped);
	vhqv_flow_capture_queued(&flow, &out);
	cr_assert_eq(out.empty_last, 0);
}

Test(flow, change_with_capture_stopped_is_immediate)
{
	vhqv_flow_change(&flow, false, 4, 1, &out);
	cr_assert(out.apply && out.source_change && !out.empty_last);
	cr_assert(!flow.change_pending);
}

Test(flow, change_waits_for_the_last_output_buffer_then_capture_restart)
{
	vhqv_flow_change(&flow, true, 5, 1, &out);
	cr_assert(flow.change_pending && !out.apply && !out.source_change);
	/* A second change while one waits: the same frame is still last. */
	vhqv_flow_change(&flow, true, 6, 1, &out);
	cr_assert_eq(flow.change_src, 5);
	vhqv_flow_job_done(&flow, 4, &out);
	cr_assert(!out.flag_last && !out.apply);
	vhqv_flow_job_done(&flow, 5, &out);
	cr_assert(out.flag_last && out.apply && out.source_change && !out.eos);
	cr_assert(!vhqv_flow_may_run(&flow));
	vhqv_flow_streamon(&flow, VHQV_SRC);
	cr_assert(!vhqv_flow_may_run(&flow));
	vhqv_flow_streamon(&flow, VHQV_DST);
	cr_assert(vhqv_flow_may_run(&flow));
}

Test(flow, change_with_nothing_queued_returns_the_next_capture_buffer_empty)
{
	vhqv_flow_change(&flow, true, -1, 1, &out);
	cr_assert_eq(out.empty_last, 1);
	cr_assert(out.apply && out.source_change && !out.eos);

	vhqv_flow_init(&flow);
	vhqv_flow_change(&flow, true, -1, 0, &out);
	cr_assert(out.apply && !out.empty_last && flow.change_next_capture);
	vhqv_flow_capture_queued(&flow, &out);
	cr_assert(out.empty_last == 1 && !out.eos);
	/* Restarting CAPTURE forgets it. */
	vhqv_flow_change(&flow, true, -1, 0, &out);
	vhqv_flow_streamon(&flow, VHQV_DST);
	vhqv_flow_capture_queued(&flow, &out);
	cr_assert_eq(out.empty_last, 0);
}

Test(flow, output_streamoff_ends_a_drain_and_a_change_with_a_buffer_each)
{
	vhqv_flow_stop(&flow, 1, 3, &out);
	vhqv_flow_change(&flow, true, 1, 3, &out);
	vhqv_flow_streamoff(&flow, VHQV_SRC, 3, &out);
	cr_assert_eq(out.empty_last, 2);
	cr_assert(out.apply && out.source_change && !out.eos);
	cr_assert(flow.stopped && !flow.change_pending);
}

Test(flow, output_streamoff_with_one_capture_buffer_leaves_the_change_for_the_next)
{
	vhqv_flow_stop(&flow, 1, 1, &out);
	vhqv_flow_change(&flow, true, 1, 1, &out);
	vhqv_flow_streamoff(&flow, VHQV_SRC, 1, &out);
	cr_assert_eq(out.empty_last, 1);
	cr_assert(flow.change_next_capture);
}

Test(flow, capture_streamoff_applies_a_pending_change_and_clears_the_drain)
{
	vhqv_flow_stop(&flow, 2, 1, &out);
	vhqv_flow_change(&flow, true, 2, 1, &out);
	vhqv_flow_streamoff(&flow, VHQV_DST, 0, &out);
	cr_assert(out.apply && out.source_change && !out.empty_last);
	cr_assert(!flow.draining && !flow.stopped && !flow.change_pending);
	cr_assert(vhqv_flow_may_run(&flow));
}
