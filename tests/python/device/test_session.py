# SPDX-License-Identifier: LGPL-2.1-or-later
"""Streaming sessions: frames are views of the mapped buffers (zero copy),
results equal convert()'s, and arrays stay safe after close."""
import ctypes
import gc
import time
import weakref

import numpy as np
import pytest

import m2m
from conftest import DEVICE


def frames(rng, n, shape=(48, 64, 3)):
    return [rng.integers(0, 256, size=shape, dtype=np.uint8) for _ in range(n)]


def dev_convert(picture):
    """The session's job as one call, on a device of its own."""
    with m2m.open(DEVICE) as other:
        return other.convert(picture, to="YUYV")


def plane_address(frame, plane):
    """Where libm2m mapped the memory a plane of a session frame lies in."""
    layout = m2m.plane_layouts(frame_format(frame))[plane]
    return m2m.capi.m2m_py_buffer_address(frame.buffer, layout.memory_plane) + layout.offset


def frame_format(frame):
    return m2m.frame_format(frame.format, frame.width, frame.height)


def test_output_frames_are_the_mapped_capture_buffers(dev, rng):
    with dev.session("RGB24", (64, 48), to="NV12") as s:
        for out in s.process(frames(rng, 6)):
            buf = out.buffer
            assert buf.queue == m2m.capi.M2M_QUEUE_CAPTURE and not buf.queued
            for p, plane in enumerate(out.planes):
                assert plane.__array_interface__["data"][0] == plane_address(out, p)
                # numpy's base is the ctypes array over the mapping, which
                # holds the device handle.
                base = plane.base
                assert isinstance(base, ctypes.Array)
                assert ctypes.addressof(base) == \
                    m2m.capi.m2m_py_buffer_address(buf, m2m.plane_layouts(frame_format(out))[p].memory_plane)
                assert base._m2m_owner is dev._handle
                assert not plane.flags.owndata
            y, cbcr = out
            assert y.shape == (48, 64) and cbcr.shape == (24, 32, 2)


def test_writing_into_an_input_view_reaches_the_device(dev, rng):
    picture = frames(rng, 1)[0]
    with dev.session("RGB24", (64, 48), to="YUYV", hflip=True) as s:
        inp = s.input_frame()
        assert inp.buffer.queue == m2m.capi.M2M_QUEUE_OUTPUT
        assert inp.array.__array_interface__["data"][0] == plane_address(inp, 0)
        inp.array[...] = picture          # straight into the OUTPUT buffer
        s.queue(inp)
        out = s.dequeue(timeout=5)
        got = out.copy().array
        s.release(out)
        del inp, out
    np.testing.assert_array_equal(got, dev.convert(picture, to="YUYV", hflip=True))


def test_process_gives_convert_results_in_order(dev, rng):
    clip = frames(rng, 9)
    with dev.session("RGB24", (64, 48), to="YUYV", buffers=3) as s:
        results = [(out.sequence, out.timestamp_ns, out.copy().array) for out in s.process(clip)]
    assert [r[0] for r in results] == list(range(9))
    assert [r[1] for r in results] == [1000 * (i + 1) for i in range(9)]
    for (_, _, got), picture in zip(results, clip):
        np.testing.assert_array_equal(got, dev.convert(picture, to="YUYV"))


def test_process_on_the_inprocess_device_writes_one_capture_buffer(dev, rng):
    # Made as the loop waits (m2m_hold_jobs()), the in-process device's
    # results need one CAPTURE buffer queued: process() keeps the others
    # out as they come, so every later result is written into the same
    # memory, as convert()'s are; a kernel node's results go round all
    # four. Whichever, the buffers kept out are queued again when the loop
    # ends, or is left: four frames queued then give four results at once.
    clip = frames(rng, 12)
    with dev.session("RGB24", (64, 48), to="YUYV", buffers=4) as s:
        seen = [(out.index, out.copy().array) for out in s.process(clip)]
        if dev.info.backend == "inprocess":
            assert len({index for index, _ in seen[3:]}) == 1, seen
        else:
            assert {index for index, _ in seen[8:]} == {0, 1, 2, 3}, seen
        for (_, got), picture in zip(seen, clip):
            np.testing.assert_array_equal(got, dev_convert(picture))
        for left_after in (2, 0):
            loop = s.process(clip[:4])
            held = [next(loop) for _ in range(left_after)]
            loop.close()        # a break; its last frame is the caller's
            for out in held[-1:]:
                s.release(out)
            del held
            while s._pending:   # what the break left in flight
                s.release(s.dequeue(timeout=10))
            for picture in clip[:4]:
                s.queue(picture)
            outs = [s.dequeue(timeout=10) for _ in range(4)]
            assert sorted(out.index for out in outs) == [0, 1, 2, 3], left_after
            for out, picture in zip(outs, clip[:4]):
                np.testing.assert_array_equal(out.array, dev_convert(picture))
                s.release(out)


def test_bad_frames_in_a_session_raise_naming_the_problem(dev):
    with dev.session("RGB24", (64, 48), to="YUYV") as s:
        with pytest.raises(m2m.UnsupportedFormat, match="dtype uint8"):
            s.queue(np.zeros((48, 64, 3), np.int16))
        with pytest.raises(m2m.UnsupportedFormat, match=r"shape \(48, 64, 3\)"):
            s.queue(np.zeros((48, 64, 4), np.uint8))
        # Refused frames give their buffer back.
        assert len(s._free) == len(s.inputs)


def test_closing_the_device_keeps_old_arrays_alive_and_safe(rng):
    dev = m2m.open(DEVICE)
    handle = weakref.ref(dev._handle)
    with dev.session("RGB24", (64, 48), to="YUYV") as s:
        out = next(iter(s.process(frames(rng, 1))))
        kept = out.array
        expected = kept.copy()
    dev.close()
    with pytest.raises(m2m.DeviceClosed):
        dev.session("RGB24", (64, 48))
    assert handle() is not None           # the arrays hold the C device
    np.testing.assert_array_equal(kept, expected)
    kept[...] = 1                         # still mapped, still writable
    assert (kept == 1).all()
    del out, kept, s
    gc.collect()
    assert handle() is None               # the last array gone: m2m_close ran


def test_views_of_an_old_session_block_reconfiguring_until_deleted(dev, rng):
    with dev.session("RGB24", (64, 48), to="YUYV") as s:
        out = next(iter(s.process(frames(rng, 1))))
        row = out.array[3]
    with pytest.raises(m2m.DeviceBusy, match="still view"):
        dev.convert(np.zeros((48, 64), np.uint8))
    del out, row, s
    assert dev.convert(np.zeros((48, 64), np.uint8)).shape == (48, 64)


def test_one_session_at_a_time_and_no_convert_meanwhile(dev):
    with dev.session("RGB24", (64, 48)):
        with pytest.raises(m2m.DeviceBusy, match="session"):
            dev.session("RGB24", (64, 48))
        with pytest.raises(m2m.DeviceBusy, match="session"):
            dev.convert(np.zeros((48, 64), np.uint8))


def drained(s):
    """What dequeue() gives after a drain: (sequence, last, bytes used) of
    each result, until EndOfStream."""
    results = []
    while True:
        try:
            out = s.dequeue(timeout=5)
        except m2m.EndOfStream as e:
            assert "last CAPTURE" in str(e)
            return results
        results.append((out.sequence, out.last, sum(out.buffer.bytesused)))
        s.release(out)
        assert len(results) <= 4, f"no end after {results}"


def test_drain_gives_each_result_once_the_last_flagged_then_ends(dev, rng):
    # Issue 25: queue one frame and drain, 100 times: in 54 runs (38 on
    # vhqv) a second frame came, sequence 1, LAST, empty: V4L2's empty
    # LAST buffer, when the device had finished the frame before the
    # drain, was given as a result.
    clip = frames(rng, 100)
    with dev.session("RGB24", (64, 48), to="YUYV") as s:
        drains = []
        for picture in clip:
            s.queue(picture)
            s.drain()
            drains.append([(last, used) for _, last, used in drained(s)])
            s.restart()
    assert [d for d in drains if d != [(True, 64 * 48 * 2)]] == []


def test_a_drain_after_the_device_finished_every_frame_gives_no_empty_frame(dev, rng):
    # The device finished the frame before the drain came, so it ends the
    # drain with an empty LAST buffer, every time: the session takes it
    # and flags the frame before it.
    clip = frames(rng, 2)
    with dev.session("RGB24", (64, 48), to="YUYV") as s:
        s.queue(clip[0])
        assert dev.wait(5) & m2m.Ready.CAPTURE
        s.drain()
        assert drained(s) == [(0, True, 64 * 48 * 2)]
        with pytest.raises(m2m.EndOfStream):
            s.dequeue(timeout=5)
        s.restart()
        s.queue(clip[1])
        out = s.dequeue(timeout=5)
        assert not out.last
        np.testing.assert_array_equal(out.array, dev_convert(clip[1]))


def test_a_drain_with_nothing_left_ends_at_once(dev, rng):
    clip = frames(rng, 2)
    with dev.session("RGB24", (64, 48), to="YUYV") as s:
        s.queue(clip[0])
        s.release(s.dequeue(timeout=5))
        s.drain()
        started = time.monotonic()
        assert drained(s) == []
        assert time.monotonic() - started < 1
        s.restart()
        s.queue(clip[1])
        np.testing.assert_array_equal(s.dequeue(timeout=5).array, dev_convert(clip[1]))


@pytest.mark.parametrize("release_before_restart", [True, False])
def test_a_drain_while_the_caller_holds_every_capture_buffer(dev, rng, release_before_restart):
    # With no CAPTURE buffer queued the device cannot return the empty
    # LAST buffer that ends its drain until one is released; the session
    # ends the stream at once all the same, and restart() goes on either
    # way (before: dequeue() waited for ever).
    clip = frames(rng, 2)
    with dev.session("RGB24", (64, 48), to="YUYV", buffers=1, capture_buffers=1) as s:
        s.queue(clip[0])
        held = s.dequeue(timeout=5)
        s.drain()
        with pytest.raises(m2m.EndOfStream):
            s.dequeue(timeout=5)
        if release_before_restart:
            s.release(held)
        s.restart()
        if not release_before_restart:
            s.release(held)
        del held
        s.queue(clip[1])
        out = s.dequeue(timeout=5)
        got = (out.sequence is not None, out.last, out.copy().array)
        s.release(out)
    assert got[:2] == (True, False)
    np.testing.assert_array_equal(got[2], dev_convert(clip[1]))


def test_a_rotation_mid_session_is_answered_and_the_stream_goes_on(dev, rng):
    # Issue 14: the session ended with EndOfStream after the LAST frame of
    # the landscape geometry; it now restarts CAPTURE in portrait.
    clip = frames(rng, 12)
    with dev.session("RGB24", (64, 48), to="YUYV", buffers=3) as s:
        results = []
        for i, out in enumerate(s.process(clip)):
            results.append((out.timestamp_ns, out.last, out.copy().array))
            if i == 4:
                dev.controls.rotate = 90
        assert (s.output_format.width, s.output_format.height) == (48, 64)
    del out
    assert [r[0] for r in results] == [1000 * (i + 1) for i in range(12)]
    turned = [r[2].shape == (64, 48, 2) for r in results]
    # The frames queued before the change keep the old geometry, the last
    # of them flagged LAST when the device had not finished it yet (else
    # an empty LAST buffer, which the session takes without giving it);
    # every frame after it is turned.
    first = turned.index(True)
    assert 5 <= first < 12 and all(turned[first:])
    assert not any(last for _, last, _ in results[:first - 1] + results[first:])
    for (_, _, got), picture, rotated in zip(results, clip, turned):
        np.testing.assert_array_equal(got, dev.convert(picture, to="YUYV",
                                                       rotate=90 if rotated else 0))


def test_a_rotation_between_frames_is_answered_step_by_step(dev, rng):
    # Nothing in flight when the rotation comes: the device returns an
    # empty LAST buffer, which the session takes without giving it.
    clip = frames(rng, 4)
    with dev.session("RGB24", (64, 48), to="YUYV") as s:
        results = []
        for i, picture in enumerate(clip):
            if i == 2:
                dev.controls.rotate = 270
            s.queue(picture)
            out = s.dequeue(timeout=5)
            results.append(out.copy().array)
            s.release(out)
    del out
    for i, (got, picture) in enumerate(zip(results, clip)):
        np.testing.assert_array_equal(got, dev.convert(picture, to="YUYV",
                                                       rotate=270 if i >= 2 else 0))


def test_a_source_change_needing_larger_buffers_waits_for_old_views_to_go(dev, rng):
    # YUYV 45x27 turned is 27x45: 28 pixels a line (whole macropixels)
    # of 45 lines need more than the 2484 bytes of a landscape buffer.
    clip = frames(rng, 2, shape=(27, 45, 3))
    with dev.session("RGB24", (45, 27), to="YUYV") as s:
        s.queue(clip[0])
        held = s.dequeue(timeout=5)
        s.release(held)
        dev.controls.rotate = 90
        s.queue(clip[1])
        with pytest.raises(m2m.DeviceBusy, match="CAPTURE buffers of the geometry before"):
            s.dequeue(timeout=5)
        del held
        out = s.dequeue(timeout=5)
        assert s.output_format.plane_size[0] > 2484
        got = out.copy().array
        del out
    np.testing.assert_array_equal(got, dev.convert(clip[1], to="YUYV", rotate=90))


def test_a_frame_held_across_a_source_change_stays_valid_and_is_released(dev, rng):
    # A turned YUYV 64x48 fits the same buffers: they are kept, so a frame
    # of the old geometry still views mapped memory; release() takes it,
    # and the buffers are not freed while it lives.
    clip = frames(rng, 2)
    with dev.session("RGB24", (64, 48), to="YUYV") as s:
        s.queue(clip[0])
        held = s.dequeue(timeout=5)
        dev.controls.rotate = 90
        s.queue(clip[1])
        out = s.dequeue(timeout=5)
        assert out.array.shape == (64, 48, 2) and held.array.shape == (48, 64, 2)
        s.release(held)
        s.release(out)
        del out
    with pytest.raises(m2m.DeviceBusy, match="still view the CAPTURE buffers"):
        dev.convert(np.zeros((48, 64), np.uint8))
    del held
    assert dev.convert(np.zeros((48, 64), np.uint8)).shape == (48, 64)
