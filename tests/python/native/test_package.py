# SPDX-License-Identifier: LGPL-2.1-or-later
"""The m2m package without a device: formats, errors, documentation."""
import pydoc

import numpy as np
import pytest

import m2m


def test_fourcc_matches_v4l2():
    assert m2m.fourcc("YUYV") == 0x56595559
    assert m2m.fourcc("UYVY") == 0x59565955


def test_unknown_format_name_raises_unsupported_format_naming_it():
    with pytest.raises(m2m.UnsupportedFormat, match="'NOPE'"):
        m2m.fourcc("NOPE")


def test_frame_format_and_shape_come_from_the_format_table():
    fmt = m2m.frame_format("YUYV", 640, 480)
    assert fmt.bytesperline[0] == 1280
    assert fmt.plane_size[0] == 1280 * 480
    assert m2m.frame_shape(fmt) == (480, 640, 2)


def test_odd_size_raises_invalid_argument_with_the_library_message():
    with pytest.raises(m2m.InvalidArgument, match="641x480"):
        m2m.frame_format("YUYV", 641, 480)


def test_missing_device_raises_device_not_found_with_the_path():
    with pytest.raises(m2m.DeviceNotFound, match="/dev/no-such-node") as info:
        m2m.open("/dev/no-such-node")
    assert info.value.errno == 2
    assert isinstance(info.value, m2m.Error)


def test_errors_are_oserrors():
    assert issubclass(m2m.Error, OSError)
    assert issubclass(m2m.UnsupportedFormat, ValueError)


def test_help_documents_the_package_and_convert():
    text = pydoc.render_doc(m2m, renderer=pydoc.plaintext)
    assert "memory-to-memory" in text
    convert = pydoc.render_doc(m2m.Device.convert, renderer=pydoc.plaintext)
    assert "Example" in convert and "hflip" in convert


def test_capi_docstrings_come_from_the_doxygen_comments():
    assert "Convert one frame synchronously" in m2m.capi.m2m_convert.__doc__


def test_planar_formats_are_refused_by_frame_shape_with_a_reason():
    with pytest.raises(m2m.UnsupportedFormat, match="several planes"):
        m2m.frame_shape(m2m.frame_format("NV12", 64, 48))


def test_rgb_frames_have_three_bytes_per_pixel():
    assert m2m.frame_shape(m2m.frame_format("RGB24", 64, 48)) == (48, 64, 3)
