# SPDX-License-Identifier: LGPL-2.1-or-later
"""m2m.Decoder without a decoder node: bad arguments named, v4l2-ctl's
--stream-to-hdr files split, the capi typemaps of include/m2m/codec.h.
tests/python/decoder decodes on vicodec in the VM."""
import errno
import struct

import numpy as np
import pytest

import m2m

capi = m2m.capi


def fwht_header(width, height, payload):
    """An FWHT frame header (vicodec's codec-fwht.h, big-endian words):
    the two magic words, version, width, height, flags, colorspace,
    xfer_func, ycbcr_enc, quantization, payload size."""
    return struct.pack(">11I", 0x4f4f4f4f, 0xffffffff, 3, width, height, 0, 8, 1, 1, 2,
                       payload)


def hdr_file(tmp_path, packets, name="s.fwht"):
    """A file as v4l2-ctl --stream-to-hdr writes it."""
    path = tmp_path / name
    path.write_bytes(b"".join(b"rdhV" + struct.pack(">I", len(p)) + p for p in packets))
    return path


# Checked before the node is opened: no node is needed, and none is
# named, so a check that let a bad value through would fail on "x".
@pytest.mark.parametrize("kwargs, error, words", [
    (dict(node=3), m2m.WrongType, "node takes a node path"),
    (dict(node="x", coded="FWHTX"), m2m.InvalidArgument, "coded takes a four-character"),
    (dict(node="x", coded=""), m2m.InvalidArgument, "coded takes"),
    (dict(node="x", coded=0), m2m.InvalidArgument, "coded takes"),
    (dict(node="x", coded=2 ** 32), m2m.InvalidArgument, "coded takes"),
    (dict(node="x", coded=b"FWHT"), m2m.WrongType, "coded takes"),
    (dict(node="x", coded=1.0), m2m.WrongType, "coded takes"),
    (dict(node="x", capture="nope"), m2m.UnsupportedFormat, "capture='nope'"),
    (dict(node="x", capture=[1]), m2m.WrongType, "a pixel format"),
    (dict(node="x", size=(0, 360)), m2m.InvalidArgument, "size takes (width, height)"),
    (dict(node="x", size=640), m2m.WrongType, "size takes (width, height)"),
    (dict(node="x", timeout=0), m2m.InvalidArgument, "timeout takes a number of seconds > 0"),
    (dict(node="x", timeout=-1), m2m.InvalidArgument, "timeout takes"),
    (dict(node="x", timeout=float("nan")), m2m.InvalidArgument, "timeout takes"),
    (dict(node="x", timeout=1e9), m2m.InvalidArgument, "timeout takes"),
    (dict(node="x", timeout=None), m2m.WrongType, "timeout takes"),
    (dict(node="x", timeout="1"), m2m.WrongType, "timeout takes"),
    (dict(node="x", timeout=True), m2m.WrongType, "timeout takes"),
], ids=lambda v: repr(v) if isinstance(v, dict) else "")
def test_decoder_refuses_bad_arguments_naming_them(kwargs, error, words):
    with pytest.raises(error) as caught:
        m2m.Decoder(**kwargs)
    assert words in str(caught.value)
    assert caught.value.errno == errno.EINVAL


def test_decoder_on_a_node_that_decodes_nothing_is_device_not_found():
    with pytest.raises(m2m.DeviceNotFound, match="does not decode"):
        m2m.Decoder("inprocess")


def test_decoder_on_no_such_node_is_device_not_found():
    with pytest.raises(m2m.DeviceNotFound):
        m2m.Decoder("/dev/no-such-video")


def test_read_hdr_stream_gives_the_packets_v4l2_ctl_wrote(tmp_path):
    packets = [fwht_header(64, 48, 3) + b"abc", b"", bytes(range(256)) * 3]
    assert list(m2m.read_hdr_stream(hdr_file(tmp_path, packets))) == packets
    assert list(m2m.read_hdr_stream(str(hdr_file(tmp_path, [], "empty")))) == []


def test_read_hdr_stream_magic_is_v4l2_fourcc_Vhdr_big_endian(tmp_path):
    # v4l2-ctl writes htonl(v4l2_fourcc('V', 'h', 'd', 'r')): the bytes
    # "rdhV", which tests/vm/test_vicodec_codec.c reads the same way.
    path = tmp_path / "s"
    vhdr = ord("V") | ord("h") << 8 | ord("d") << 16 | ord("r") << 24
    path.write_bytes(struct.pack(">II", vhdr, 2) + b"xy")
    assert list(m2m.read_hdr_stream(path)) == [b"xy"]


@pytest.mark.parametrize("content, words", [
    (b"Vhdr\0\0\0\2xy", "no packet header at byte 0"),
    (b"rdhV\0\0\0\2xyrdhV\0\0", "6 bytes at byte 10"),
    (b"rdhV\0\0\0\2xyrdhV\0\0\0\5abc", "the packet at byte 10 has 5 bytes, the file 3"),
], ids=["wrong magic", "short header", "short packet"])
def test_read_hdr_stream_names_the_file_and_the_byte_of_what_is_wrong(tmp_path, content,
                                                                      words):
    path = tmp_path / "bad"
    path.write_bytes(content)
    with pytest.raises(m2m.InvalidArgument, match=words) as caught:
        list(m2m.read_hdr_stream(path))
    assert str(path) in str(caught.value)


def test_read_hdr_stream_refuses_what_is_no_path():
    with pytest.raises(m2m.WrongType, match="path takes"):
        m2m.read_hdr_stream(3)


def test_fwht_parse_header_gives_the_frame_size_and_the_header():
    size, hdr = capi.m2m_fwht_parse_header(fwht_header(640, 360, 1000) + bytes(10))
    assert size == capi.M2M_FWHT_HEADER_SIZE + 1000
    assert (hdr.width, hdr.height, hdr.payload_size, hdr.version) == (640, 360, 1000, 3)
    # numpy arrays and memoryviews are read without copying, as bytes are.
    as_array = np.frombuffer(fwht_header(8, 8, 0), np.uint8)
    assert capi.m2m_fwht_parse_header(as_array)[0] == capi.M2M_FWHT_HEADER_SIZE


def test_fwht_parse_header_errors_say_what_is_wrong():
    with pytest.raises(m2m.WouldBlock, match="fewer bytes than a frame header"):
        capi.m2m_fwht_parse_header(fwht_header(8, 8, 0)[:43])
    with pytest.raises(m2m.InvalidArgument, match="no FWHT frame header"):
        capi.m2m_fwht_parse_header(bytes(44))
    with pytest.raises(m2m.WrongType, match="data takes a C-contiguous buffer"):
        capi.m2m_fwht_parse_header("not bytes")


def test_decoded_frames_end_of_drain_is_end_of_stream():
    # libm2m says -ENODATA after a drain's last frame, as the session's
    # CAPTURE says -EPIPE: one exception for both.
    assert isinstance(m2m.from_errno(errno.ENODATA, "drained"), m2m.EndOfStream)


def test_release_leaves_the_frame_to_python():
    # The frame receive gave is Python's: release must not free it too.
    frame = capi.m2m_frame()
    with pytest.raises(m2m.InvalidArgument, match="dec is NULL"):
        capi.m2m_decoder_release(None, frame)
    assert frame.sequence == 0
    del frame       # Python's free(); a second one aborts (glibc)
    with pytest.raises(m2m.WrongType, match="frame takes a capi.m2m_frame"):
        capi.m2m_decoder_release(None, b"frame")
