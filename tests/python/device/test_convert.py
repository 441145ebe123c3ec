# SPDX-License-Identifier: LGPL-2.1-or-later
"""Device.convert on the test device: formats, geometry, deinterlacing,
and bad input raising exceptions that name the problem."""
import sys

import numpy as np
import pytest

import m2m
from conftest import DEVICE


def test_open_gives_the_device_asked_for(dev):
    if DEVICE == "inprocess":
        assert dev.path == "inprocess" and dev.info.backend == "inprocess"
    else:
        assert dev.driver == DEVICE and dev.path.startswith("/dev/video")
        assert dev.info.backend == "kernel"
    assert "NV12" in dev.info.output_formats and "RGB24" in dev.info.capture_formats


def test_devices_lists_the_test_device_and_the_inprocess_one():
    found = m2m.devices()
    assert found[-1].backend == "inprocess"
    assert any(d.driver == DEVICE or d.path == DEVICE for d in found)


def test_yuyv_to_uyvy_swaps_bytes_in_each_pair(dev, yuyv):
    out = dev.convert(yuyv, "YUYV", to="UYVY")
    assert isinstance(out, np.ndarray) and out.shape == (48, 64, 2)
    expected = yuyv.reshape(48, 32, 2, 2)[:, :, :, ::-1].reshape(48, 64, 2)
    np.testing.assert_array_equal(out, expected)


def test_a_lone_array_of_two_channels_is_taken_as_yuyv(dev, yuyv):
    np.testing.assert_array_equal(dev.convert(yuyv), yuyv)


def test_flips_and_quarter_turns_move_grey_pixels(dev, grey):
    np.testing.assert_array_equal(dev.convert(grey, hflip=True), grey[:, ::-1])
    np.testing.assert_array_equal(dev.convert(grey, vflip=True), grey[::-1])
    np.testing.assert_array_equal(dev.convert(grey, rotate=90), np.rot90(grey, -1))
    np.testing.assert_array_equal(dev.convert(grey, rotate=180), grey[::-1, ::-1])
    # Each call says its whole geometry: no flip or turn carries over.
    np.testing.assert_array_equal(dev.convert(grey), grey)


def test_crop_takes_the_rectangle_asked_for(dev, grey):
    out = dev.convert(grey, crop=(8, 4, 32, 16), size=(32, 16))
    np.testing.assert_array_equal(out, grey[4:20, 8:40])


def test_size_scales(dev):
    flat = np.full((48, 64), 77, np.uint8)
    out = dev.convert(flat, size=(128, 96))
    assert out.shape == (96, 128)
    assert (out == 77).all()


def test_nv12_gives_a_frame_of_a_luma_and_an_interleaved_chroma_plane(dev, yuyv):
    frame = dev.convert(yuyv, "YUYV", to="NV12")
    assert isinstance(frame, m2m.Frame) and frame.names == ("Y", "CbCr")
    y, cbcr = frame
    assert y.shape == (48, 64) and cbcr.shape == (24, 32, 2)
    np.testing.assert_array_equal(y, yuyv[:, :, 0])
    np.testing.assert_array_equal(frame["Y"], y)


def test_planes_in_as_a_frame_or_a_tuple_round_trip(dev, yuyv):
    frame = dev.convert(yuyv, "YUYV", to="NV12")
    back = dev.convert(frame, to="YUYV")
    np.testing.assert_array_equal(back[:, :, 0], yuyv[:, :, 0])
    np.testing.assert_array_equal(dev.convert(tuple(frame.planes), "NV12", to="YUYV"), back)


def test_rgb_through_nv12_and_back_stays_close(dev, smooth_rgb):
    # The NV12 Frame carries the matrix and range it was made with to the
    # second conversion, so the colours come back.
    nv12 = dev.convert(smooth_rgb, to="NV12", rotate=90)
    assert nv12["Y"].shape == (64, 48)
    back = dev.convert(nv12, to="RGB24", rotate=270)
    assert back.shape == smooth_rgb.shape
    assert np.abs(back.astype(int) - smooth_rgb).max() <= 12


def test_rgb565_is_one_uint16_plane(dev, smooth_rgb):
    out = dev.convert(smooth_rgb, to="RGB565")
    assert out.shape == (48, 64) and out.dtype == np.uint16
    red = (out >> 11).astype(int)
    assert np.abs(red - (smooth_rgb[:, :, 0] >> 3)).max() <= 1


def test_weave_keeps_an_interlaced_frame_and_blend_mixes_its_fields(dev):
    woven = np.empty((48, 64), np.uint8)
    woven[0::2], woven[1::2] = 100, 200
    np.testing.assert_array_equal(dev.convert(woven, deinterlace="weave"), woven)
    blended = dev.convert(woven, deinterlace="blend")
    assert np.abs(blended[2:-2].astype(int) - 150).max() <= 1
    assert dev.controls.deinterlacing_mode == "Blend"


@pytest.mark.parametrize("frame, problem", [
    (np.zeros((48, 64, 2), np.uint16), "dtype uint8"),
    (np.zeros((48, 64, 2), np.float32), "dtype uint8"),
    (np.zeros((48, 64, 3), np.uint8), r"shape \(48, 64, 2\)"),
    (np.zeros(10, np.uint8), "shape"),
    ([[0]], "numpy array"),
])
def test_bad_frames_raise_unsupported_format_naming_the_problem(dev, frame, problem):
    with pytest.raises(m2m.UnsupportedFormat, match=problem):
        dev.convert(frame, "YUYV")


def test_strided_planes_are_taken_as_their_contiguous_copies(dev, rng):
    wide = rng.integers(0, 256, size=(48, 128, 2), dtype=np.uint8)
    np.testing.assert_array_equal(dev.convert(wide[:, ::2], "YUYV", to="RGB24"),
                                  dev.convert(wide[:, ::2].copy(), "YUYV", to="RGB24"))
    # The planes of a result with padded lines (an odd width) go back in.
    nv12 = dev.convert(rng.integers(0, 256, size=(27, 45, 3), dtype=np.uint8), to="NV12")
    assert not nv12["Y"].flags.c_contiguous
    np.testing.assert_array_equal(dev.convert(tuple(nv12.planes), "NV12", to="RGB24"),
                                  dev.convert(nv12, to="RGB24"))


@pytest.mark.parametrize("fmt", ["NV12", "YUV420"])
def test_planes_end_to_end_in_one_buffer_are_taken_in_place(dev, rng, monkeypatch, fmt):
    """An NV12 or I420 buffer cut into its planes, as OpenCV keeps it, and
    m2m's own Frames go to the device as they are; planes elsewhere are
    copied into one buffer, with the same result."""
    chroma = (24, 32, 2) if fmt == "NV12" else (24, 32)
    whole = rng.integers(0, 256, size=(72, 64), dtype=np.uint8)
    y = whole[:48]
    planes = (y, whole[48:].reshape(chroma)) if fmt == "NV12" else \
        (y, whole[48:60].reshape(chroma), whole[60:].reshape(chroma))
    apart = tuple(p.copy() for p in planes)
    copied = dev.convert(apart, fmt, to="RGB24")
    frame = dev.convert(copied, to=fmt)
    np.testing.assert_array_equal(dev.convert(planes, fmt, to="RGB24"),
                                  dev.convert(apart, fmt, to="RGB24"))

    def no_copy(*_):
        raise AssertionError("copied")
    monkeypatch.setattr(m2m.device, "laid_out", no_copy)
    np.testing.assert_array_equal(dev.convert(planes, fmt, to="RGB24"), copied)
    dev.convert(frame, to="RGB24")
    # The same planes in another order, or apart, are not one buffer.
    with pytest.raises(AssertionError, match="copied"):
        dev.convert(apart, fmt, to="RGB24")
    if fmt == "YUV420":
        with pytest.raises(AssertionError, match="copied"):
            dev.convert((y, planes[2], planes[1]), fmt, to="RGB24")


def test_bad_planes_are_named(dev):
    y = np.zeros((48, 64), np.uint8)
    with pytest.raises(m2m.UnsupportedFormat, match="CbCr plane.*shape"):
        dev.convert((y, np.zeros((24, 32), np.uint8)), "NV12")
    with pytest.raises(m2m.UnsupportedFormat, match="2 planes"):
        dev.convert((y,), "NV12")


def test_unknown_format_names_raise_naming_them(dev, yuyv):
    with pytest.raises(m2m.UnsupportedFormat, match="'XRGB'"):
        dev.convert(yuyv, "YUYV", to="XRGB")
    with pytest.raises(m2m.UnsupportedFormat, match="'NOPE'"):
        dev.convert(yuyv, "NOPE")


def test_out_of_range_values_raise_naming_the_range(dev, grey):
    with pytest.raises(m2m.OutOfRange, match="'rotate' takes 0 to 270 in steps of 90, not 45"):
        dev.convert(grey, rotate=45)
    with pytest.raises(m2m.OutOfRange, match="deinterlace takes 'weave', 'bob', 'blend', "
                       "'motion_adaptive' or None, not 'sideways'"):
        dev.convert(grey, deinterlace="sideways")


def test_odd_sizes_keep_their_size_with_chroma_rounded_up(dev):
    # A photo's size: its 4:2:0 chroma is 226x214, and it comes back.
    y, x = np.mgrid[0:427, 0:451]
    rgb = np.stack([x * 255 // 450, y * 255 // 426, 255 - x * 255 // 450],
                   axis=-1).astype(np.uint8)
    nv12 = dev.convert(rgb, to="NV12")
    assert nv12["Y"].shape == (427, 451) and nv12["CbCr"].shape == (214, 226, 2)
    back = dev.convert(nv12, to="RGB24")
    assert back.shape == rgb.shape
    assert np.abs(back.astype(int) - rgb).max() <= 12
    one = np.full((1, 1), 77, np.uint8)
    np.testing.assert_array_equal(dev.convert(one), one)


def test_sizes_out_of_range_raise_with_the_library_message(dev):
    with pytest.raises(m2m.InvalidArgument, match="8193x48"):
        dev.convert(np.zeros((48, 8193), np.uint8))


def test_closed_device_raises_instead_of_crashing(yuyv):
    d = m2m.open(DEVICE)
    d.close()
    d.close()
    with pytest.raises(m2m.DeviceClosed, match="closed"):
        d.convert(yuyv, "YUYV")
    with pytest.raises(m2m.DeviceClosed):
        d.controls.rotate = 90


@pytest.mark.parametrize("to, planes", [("BGR24", 1), ("NV12", 2), ("YUV420", 3)])
def test_a_repeated_call_only_converts_and_makes_the_result_views(dev, rng, to, planes):
    # Issue 25: a 160x120 RGB24 to I420 call cost 54 us of Python against
    # cv2's 16 for the whole: each call checked the three result planes it
    # had made and built the Frame through its checks, 130 Python function
    # calls. A call that repeats one needs the plan, the lock and a view a
    # plane; a function call costs about 0.1-1 us, so their count is the
    # fixed cost, without a clock on a busy machine.
    rgb = rng.integers(0, 256, size=(120, 160, 3), dtype=np.uint8)
    first = dev.convert(rgb, to=to)
    calls = []
    sys.setprofile(lambda frame, event, _: calls.append(frame.f_code.co_name)
                   if event == "call" else None)
    try:
        again = dev.convert(rgb, to=to)
    finally:
        sys.setprofile(None)
    assert len(calls) <= 8 + 2 * planes, calls
    assert [p.shape for p in getattr(again, "planes", (again,))] == \
        [p.shape for p in getattr(first, "planes", (first,))]
