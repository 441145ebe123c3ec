# SPDX-License-Identifier: LGPL-2.1-or-later
"""A session's sources copied by default, taken in place with
borrow=True (issue 29 (e)): the session holds each borrowed array until
its result is out, and arrays that cannot be borrowed are named or
copied as documented."""
import select
import time
import weakref

import numpy as np
import pytest

import m2m
from conftest import DEVICE

SHAPE = (48, 64, 3)


@pytest.fixture
def clip(rng):
    return [rng.integers(0, 256, size=SHAPE, dtype=np.uint8) for _ in range(9)]


def expected(pictures, **job):
    with m2m.open(DEVICE) as other:
        return [other.convert(p, to="YUYV", **job) for p in pictures]


def test_a_generator_refilling_one_array_gives_every_frame_without_borrow(dev, clip):
    # The default copy: the caller may refill its array as soon as the
    # session has taken it, while earlier frames are still in flight.
    def refilled():
        one = np.empty(SHAPE, np.uint8)
        for picture in clip:
            one[...] = picture
            yield one

    with dev.session("RGB24", (64, 48), to="YUYV", buffers=4) as s:
        got = [out.copy().array for out in s.process(refilled())]
    assert len(got) == len(clip)
    for result, want in zip(got, expected(clip)):
        np.testing.assert_array_equal(result, want)


def test_process_borrow_holds_each_array_until_its_result_is_yielded(dev, clip):
    refs = []

    def fresh():
        for picture in clip:
            array = picture.copy()
            refs.append(weakref.ref(array))
            yield array

    got = []
    with dev.session("RGB24", (64, 48), to="YUYV", buffers=3) as s:
        for i, out in enumerate(s.process(fresh(), borrow=True)):
            # Queued and not out yet: only the session holds them.
            assert all(r() is not None for r in refs[i + 1:]), i
            # Out: let go.
            assert all(r() is None for r in refs[:i + 1]), i
            got.append(out.copy().array)
    assert len(got) == len(clip)
    for result, want in zip(got, expected(clip)):
        np.testing.assert_array_equal(result, want)


def test_a_process_left_half_way_leaves_later_frames_to_a_poller(dev, clip):
    # process() makes each frame as it waits for it, as convert() does
    # (m2m_hold_jobs(): on the in-process device, no hand-off to its
    # worker); left half-way it ends that, so the frame it had queued is
    # made for an application that only selects on the device's fd.
    with dev.session("RGB24", (64, 48), to="YUYV", buffers=2) as s:
        loop = s.process(iter(clip), borrow=True)
        first = next(loop).copy().array
        loop.close()
        assert select.select([dev], [], [], 10)[0], "the second frame was not made"
        second = s.dequeue(timeout=10)    # a node may return OUTPUT first
        np.testing.assert_array_equal([first, second.array], expected(clip[:2]))
        s.release(second)


def test_queue_borrow_takes_the_array_itself_until_its_result_is_dequeued(dev, clip):
    with dev.session("RGB24", (64, 48), to="YUYV", hflip=True, buffers=2) as s:
        array = clip[0].copy()
        ref = weakref.ref(array)
        s.queue(array, borrow=True)
        address = array.__array_interface__["data"][0]
        buf = m2m.capi.m2m_get_buffer(dev._h().ptr, m2m.capi.M2M_QUEUE_OUTPUT, 0)
        assert m2m.capi.m2m_py_buffer_address(buf, 0) == address      # no copy
        del array
        assert ref() is not None
        out = s.dequeue(timeout=5)
        assert ref() is None
        np.testing.assert_array_equal(out.array, expected(clip[:1], hflip=True)[0])
        s.release(out)


def test_an_array_finished_before_an_earlier_result_is_out_is_still_held(dev, clip):
    # Taking back the first result takes back every OUTPUT buffer the
    # device is done with; the second array is still held until its own
    # result is out (before: let go with its buffer, sometimes).
    with dev.session("RGB24", (64, 48), to="YUYV", buffers=2) as s:
        first, second = clip[0].copy(), clip[1].copy()
        refs = weakref.ref(first), weakref.ref(second)
        s.queue(first, borrow=True)
        s.queue(second, borrow=True)
        del first, second
        time.sleep(0.2)                  # both frames done by the device
        out = s.dequeue(timeout=5)
        assert refs[0]() is None and refs[1]() is not None
        s.release(out)
        out = s.dequeue(timeout=5)
        assert refs[1]() is None
        np.testing.assert_array_equal(out.array, expected(clip[1:2])[0])
        s.release(out)


def test_arrays_that_cannot_be_borrowed_as_they_are_are_copied(dev, clip):
    # Strided: the OUTPUT buffer cannot be it, so it is copied (as
    # convert() copies it), and the caller's array is not held.
    wide = np.zeros((48, 128, 3), np.uint8)
    wide[:, ::2] = clip[0]
    strided = wide[:, ::2]
    ref = weakref.ref(wide)
    with dev.session("RGB24", (64, 48), to="YUYV") as s:
        s.queue(strided, borrow=True)
        del wide, strided
        assert ref() is None
        out = s.dequeue(timeout=5)
        np.testing.assert_array_equal(out.array, expected(clip[:1])[0])
        s.release(out)


def test_after_a_borrow_arrays_without_it_are_copied_and_input_frames_refused(dev, clip):
    with dev.session("RGB24", (64, 48), to="YUYV", buffers=2) as s:
        got = [out.copy().array for out in s.process(clip[:3], borrow=True)]
        got += [out.copy().array for out in s.process(clip[3:])]
        with pytest.raises(m2m.InvalidArgument, match="no input frames"):
            s.input_frame()
        with pytest.raises(m2m.InvalidArgument, match="no input frames"):
            s.inputs
    for result, want in zip(got, expected(clip)):
        np.testing.assert_array_equal(result, want)
    assert len(got) == len(clip)


def test_bad_borrowed_arrays_raise_naming_the_problem_and_keep_the_buffers(dev):
    with dev.session("RGB24", (64, 48), to="YUYV", buffers=2) as s:
        with pytest.raises(m2m.UnsupportedFormat, match="dtype uint8"):
            s.queue(np.zeros(SHAPE, np.int16), borrow=True)
        with pytest.raises(m2m.UnsupportedFormat, match=r"must have shape \(48, 64, 3\)"):
            s.queue(np.zeros((48, 64, 4), np.uint8), borrow=True)
        with pytest.raises(m2m.UnsupportedFormat, match="has 1 planes"):
            s.queue([np.zeros(SHAPE, np.uint8)] * 2, borrow=True)
        with pytest.raises(m2m.WrongType, match="borrow"):
            s.queue(np.zeros(SHAPE, np.uint8), borrow=1)
        with pytest.raises(m2m.WrongType, match="borrow"):
            s.process([], borrow="yes")
        assert len(s._free) == 2
        # Refused before OUTPUT moved: input frames still work.
        s.queue(s.input_frame())
        s.release(s.dequeue(timeout=5))


def test_a_first_borrow_while_copies_are_in_flight_is_refused(dev, clip):
    # With its one CAPTURE buffer held, the device cannot give back the
    # OUTPUT buffer of the frame queued next: OUTPUT cannot move yet.
    with dev.session("RGB24", (64, 48), to="YUYV", buffers=2, capture_buffers=1) as s:
        s.queue(clip[0])
        held = s.dequeue(timeout=5)
        s.queue(clip[1])
        with pytest.raises(m2m.InvalidArgument, match="every OUTPUT buffer back"):
            s.queue(clip[2], borrow=True)
        s.release(held)
        np.testing.assert_array_equal(s.dequeue(timeout=5).array, expected(clip[1:2])[0])


def test_a_first_borrow_while_an_input_frame_is_held_is_refused(dev, clip):
    with dev.session("RGB24", (64, 48), to="YUYV") as s:
        inputs = s.inputs
        with pytest.raises(m2m.DeviceBusy, match="borrow=True frees them"):
            s.queue(clip[0], borrow=True)
        del inputs
        s.queue(clip[0], borrow=True)
        np.testing.assert_array_equal(s.dequeue(timeout=5).array, expected(clip[:1])[0])


def test_a_device_without_userptr_refuses_borrow_and_the_session_goes_on(dev, clip,
                                                                         monkeypatch):
    real = m2m.capi.m2m_alloc_buffers

    def no_userptr(ptr, queue, memory, count):
        if memory == m2m.capi.M2M_MEMORY_USERPTR:
            raise m2m.InvalidArgument(22, "VIDIOC_REQBUFS: Invalid argument")
        return real(ptr, queue, memory, count)

    with dev.session("RGB24", (64, 48), to="YUYV", buffers=2) as s:
        monkeypatch.setattr(m2m.capi, "m2m_alloc_buffers", no_userptr)
        with pytest.raises(m2m.NotSupported, match="borrow=True: .* takes no USERPTR"):
            s.queue(clip[0], borrow=True)
        got = [out.copy().array for out in s.process(clip[:3])]
        inp = s.input_frame()
        inp.array[...] = clip[3]
        s.queue(inp)
        del inp
        got.append(s.dequeue(timeout=5).copy().array)
    for result, want in zip(got, expected(clip[:4])):
        np.testing.assert_array_equal(result, want)
