# SPDX-License-Identifier: LGPL-2.1-or-later
"""Pictures of frames: Frame.to_rgb(), the PNG a notebook shows
(Frame._repr_png_(), decoded here by Pillow) and the planes side by
side (Frame.plane_pictures())."""
import io

import numpy as np
import pytest
from conftest import photo
from PIL import Image

import m2m


def decoded(png):
    """The pixels of PNG bytes, by Pillow: (mode, array)."""
    with Image.open(io.BytesIO(png)) as image:
        image.load()
        return image.mode, np.asarray(image)


@pytest.fixture
def picture():
    """chelsea, cut to an odd size: 4:2:0 chroma rounds up."""
    return np.ascontiguousarray(photo("chelsea")[:121, :161])


@pytest.mark.parametrize("to", ["NV12", "YUV420", "YUYV", "NV24", "GREY", "RGB565",
                                "RGB24", "XRGB32"])
def test_the_png_a_notebook_shows_is_exactly_to_rgb(dev, picture, to):
    result = dev.convert(picture, to=to, to_matrix="bt709") if to not in (
        "GREY", "RGB565", "RGB24", "XRGB32") else dev.convert(picture, to=to)
    frame = result if isinstance(result, m2m.Frame) else \
        m2m.Frame([result], to, src_size_of(result, to, picture))
    rgb = frame.to_rgb()
    assert rgb.shape == (121, 161, 3) and rgb.dtype == np.uint8
    mode, pixels = decoded(frame._repr_png_())
    assert mode == "RGB"
    assert np.array_equal(pixels, rgb)


def src_size_of(result, to, picture):
    """The width of a one-plane result: YUYV's array is a pixel wider."""
    return picture.shape[1] if to == "YUYV" else result.shape[1]


def test_to_rgb_reads_the_frames_own_matrix_and_range(dev, smooth_rgb):
    hd = dev.convert(smooth_rgb, to="NV12", to_matrix="bt709", to_range="full")
    assert (hd.matrix, hd.range) == ("bt709", "full")
    as_tagged = dev.convert(list(hd.planes), "NV12", to="RGB24", matrix="bt709",
                            range="full")
    untagged = dev.convert(list(hd.planes), "NV12", to="RGB24")
    assert np.array_equal(hd.to_rgb(), as_tagged)
    assert not np.array_equal(hd.to_rgb(), untagged)
    # 4:2:0 loses a little; read as BT.601 limited range, far more.
    assert np.abs(hd.to_rgb().astype(int) - smooth_rgb).max() <= 4
    assert np.abs(untagged.astype(int) - smooth_rgb).max() > 20


def test_to_rgb_by_the_in_process_device_is_the_devices_conversion(dev, smooth_rgb):
    nv12 = dev.convert(smooth_rgb, to="NV12", to_matrix="bt2020")
    by_dev = nv12.to_rgb(dev)
    assert np.array_equal(by_dev, dev.convert(nv12, to="RGB24"))
    assert np.array_equal(nv12.to_rgb(), by_dev)


def test_to_rgb_gives_full_range_from_a_limited_range_rgb_frame(dev, smooth_rgb):
    limited = dev.convert(smooth_rgb, to="RGB24", to_range="limited")
    assert limited.min() >= 16 and limited.max() <= 235
    frame = m2m.Frame([limited], "RGB24", range="limited")
    assert np.abs(frame.to_rgb().astype(int) - smooth_rgb).max() <= 1


def test_to_rgb_of_a_session_frame_is_new_memory(dev, smooth_rgb):
    with dev.session("RGB24", (64, 48), to="NV12") as s:
        out = next(s.process([smooth_rgb]))
        rgb = out.to_rgb()
        assert not np.shares_memory(rgb, out["Y"]) and not np.shares_memory(rgb, out["CbCr"])
        assert np.array_equal(rgb, out.copy().to_rgb())
        del out


def test_plane_pictures_tile_each_plane_left_to_right(dev, picture):
    nv12 = dev.convert(picture, to="NV12")
    y, cbcr = nv12
    planes = nv12.plane_pictures()
    assert planes.labels == ("Y", "CbCr[0]", "CbCr[1]")
    assert repr(planes) == "<m2m.PlanePictures NV12: Y, CbCr[0], CbCr[1]>"
    mode, pixels = decoded(planes._repr_png_())
    assert mode == "L"
    gap = m2m._picture.GAP
    cb_left = 161 + gap
    cr_left = cb_left + 81 + gap
    assert pixels.shape == (121, cr_left + 81)
    assert np.array_equal(pixels[:, :161], y)
    assert np.array_equal(pixels[:61, cb_left:cb_left + 81], cbcr[..., 0])
    assert np.array_equal(pixels[:61, cr_left:], cbcr[..., 1])
    assert not pixels[:, 161:cb_left].any() and not pixels[61:, cb_left:].any()
    assert np.array_equal(pixels, planes.pixels())


def test_plane_pictures_of_three_planes_and_of_a_packed_format(dev, smooth_rgb):
    assert dev.convert(smooth_rgb, to="YVU420").plane_pictures().labels == ("Y", "Cr", "Cb")
    yuyv = m2m.Frame([dev.convert(smooth_rgb, to="YUYV")], "YUYV")
    pictures = yuyv.plane_pictures()
    assert pictures.labels == ("YUYV[0]", "YUYV[1]")
    assert np.array_equal(pictures.pixels()[:, :64], yuyv.array[..., 0])


def test_a_frames_size_comes_from_its_first_plane_when_not_given(grey):
    frame = m2m.Frame([grey], "GREY")
    assert (frame.width, frame.height) == (64, 48)
    assert m2m.Frame([grey], "GREY", height=48).width == 64


def test_bad_input_is_named(dev, grey):
    frame = m2m.Frame([grey], "GREY")
    with pytest.raises(m2m.WrongType, match=r"] device takes an m2m.Device or None"):
        frame.to_rgb("inprocess")
    closed = m2m.open("inprocess")
    closed.close()
    with pytest.raises(m2m.DeviceClosed):
        frame.to_rgb(closed)
    rgb565 = m2m.Frame([np.zeros((4, 4), np.uint16)], "RGB565")
    with pytest.raises(m2m.UnsupportedFormat, match="RGB565.*16-bit words.*to_rgb"):
        rgb565.plane_pictures()
    assert rgb565.to_rgb().shape == (4, 4, 3)
    with pytest.raises(m2m.WrongType, match=r"] planes takes"):
        m2m.Frame(grey, "GREY")
    with pytest.raises(m2m.UnsupportedFormat, match="first plane must have shape"):
        m2m.Frame([np.zeros(5, np.uint8)], "GREY")
    with pytest.raises(m2m.UnsupportedFormat, match="must be a numpy array, not list"):
        m2m.Frame([[1, 2]], "GREY")
