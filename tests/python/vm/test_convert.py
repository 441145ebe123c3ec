# SPDX-License-Identifier: LGPL-2.1-or-later
"""The m2m package converting frames through vhqv, in the test VM."""
import numpy as np
import pytest

import m2m


@pytest.fixture
def dev():
    with m2m.open("vhqv") as d:
        yield d


@pytest.fixture
def yuyv():
    rng = np.random.default_rng(1)
    return rng.integers(0, 256, size=(240, 320, 2), dtype=np.uint8)


def test_open_by_driver_name_finds_vhqv(dev):
    assert dev.driver == "vhqv"
    assert dev.path.startswith("/dev/video")


def test_yuyv_to_uyvy_swaps_bytes_in_each_pair(dev, yuyv):
    out = dev.convert(yuyv, "YUYV", to="UYVY")
    assert out.shape == (240, 320, 2)
    expected = yuyv.reshape(240, 160, 2, 2)[:, :, :, ::-1].reshape(240, 320, 2)
    np.testing.assert_array_equal(out, expected)


def test_hflip_mirrors_luma(dev, yuyv):
    out = dev.convert(yuyv, "YUYV", hflip=True)
    np.testing.assert_array_equal(out[:, :, 0], yuyv[:, ::-1, 0])


def test_vflip_reverses_rows(dev, yuyv):
    out = dev.convert(yuyv, "YUYV", vflip=True)
    np.testing.assert_array_equal(out, yuyv[::-1])


@pytest.mark.parametrize("frame, problem", [
    (np.zeros((240, 320, 2), np.uint16), "dtype"),
    (np.zeros((240, 320), np.uint8), "shape"),
    (np.zeros((240, 640, 2), np.uint8)[:, ::2], "C-contiguous"),
    (np.zeros((240, 320, 3), np.uint8), "shape"),
    ([[0]], "numpy array"),
])
def test_bad_frames_raise_unsupported_format_naming_the_problem(dev, frame, problem):
    with pytest.raises(m2m.UnsupportedFormat, match=problem):
        dev.convert(frame, "YUYV")


def test_unknown_target_format_raises(dev, yuyv):
    with pytest.raises(m2m.UnsupportedFormat, match="'XRGB'"):
        dev.convert(yuyv, "YUYV", to="XRGB")


def test_closed_device_raises_instead_of_crashing(yuyv):
    d = m2m.open("vhqv")
    d.close()
    d.close()
    with pytest.raises(m2m.Error, match="closed"):
        d.convert(yuyv, "YUYV")
