# SPDX-License-Identifier: LGPL-2.1-or-later
"""m2m.Decoder on vicodec's stateful decoder, against v4l2-ctl decoding the
same streams on the same node: frame for frame identical, through
resolution changes, drains and a seek. Run by tests/vm/vicodec-decode
under vm-run --vicodec, which sets
  VICODEC_DECODER     the decoder node
  STREAM_ONE          12 frames of 640x360 (vicodec's encoder rounds a
                      4:2:0 height up to 16: coded as 640x368, cropped)
  STREAM_MIXED        640x360, 1280x720 and 800x480, two frames each, twice
  STREAM_CROPPED      4 frames of 640x360 coded as 640x368
  REF_ONE, REF_MIXED, REF_CROPPED  v4l2-ctl's decodes of them: the visible
                      picture of each frame (COMPOSE), back to back

"""
import os

import numpy as np
import pytest

import m2m

ONE = [(640, 360)] * 12
CROPPED = [(640, 360)] * 4
MIXED = [(640, 360), (640, 360), (1280, 720), (1280, 720), (800, 480), (800, 480)] * 2


def env(name):
    value = os.environ.get(name)
    assert value, f"${name} is not set: run under tests/vm/vicodec-decode"
    return value


def packets(stream):
    return list(m2m.read_hdr_stream(env(stream)))


def decoder(**kwargs):
    return m2m.Decoder(env("VICODEC_DECODER"), "FWHT", **kwargs)


def reference(ref, sizes):
    """v4l2-ctl's frames, cut into their Y, Cb, Cr planes: v4l2-ctl
    writes each frame's visible picture, a YUV420 frame of sizes[i]."""
    raw = np.fromfile(env(ref), np.uint8)
    frames, at = [], 0
    for width, height in sizes:
        planes = []
        for w, h in ((width, height), (width // 2, height // 2), (width // 2, height // 2)):
            planes.append(raw[at:at + w * h].reshape(h, w))
            at += w * h
        frames.append(planes)
    assert at == raw.size, f"v4l2-ctl's {ref} has {raw.size} bytes, the sizes {at}"
    return frames


def assert_same(frames, ref, sizes, count=None):
    """frames are v4l2-ctl's (the first count of them: all by default)."""
    expected = reference(ref, sizes)[:count]
    assert len(frames) == len(expected)
    for i, (frame, planes) in enumerate(zip(frames, expected)):
        assert frame.format == "YUV420", i
        assert (frame.width, frame.height) == sizes[i], i
        assert not frame.error, i
        for name, got, want in zip(("Y", "Cb", "Cr"), frame.planes, planes):
            assert got.shape == want.shape, (i, name)
            assert np.array_equal(got, want), f"frame {i} {name} differs from v4l2-ctl's"


def test_one_size_matches_v4l2_ctl_frame_for_frame():
    with decoder() as dec:
        frames = list(dec.decode(packets("STREAM_ONE")))
    assert_same(frames, "REF_ONE", ONE)
    assert all(f.visible == (0, 0, 640, 360) for f in frames)


def test_a_cropped_stream_gives_its_picture_as_v4l2_ctl_does():
    with decoder() as dec:
        frames = list(dec.decode(packets("STREAM_CROPPED")))
        fmt = dec.format
        assert (fmt.width, fmt.height) == (640, 368)
        assert dec.visible == (0, 0, 640, 360)
    assert_same(frames, "REF_CROPPED", CROPPED)
    assert all(f.visible == (0, 0, 640, 360) for f in frames)
    assert [p.shape for p in frames[0].planes] == [(360, 640), (180, 320), (180, 320)]


def test_resolution_changes_lose_no_frame_and_match_v4l2_ctl():
    with decoder() as dec:
        frames = list(dec.decode(packets("STREAM_MIXED")))
    assert_same(frames, "REF_MIXED", MIXED)


def test_frames_keep_their_timestamps_in_order():
    stream = packets("STREAM_MIXED")
    with decoder() as dec:
        bare = [f.timestamp_ns for f in dec.decode(stream)]
        given = [f.timestamp_ns for f in dec.decode((p, 1000 * i + 7)
                                                    for i, p in enumerate(stream))]
    # V4L2 carries microseconds: the 7 ns are dropped.
    assert bare == [1000 * i for i in range(len(stream))]
    assert given == [1000 * i for i in range(len(stream))]


def test_format_is_none_until_the_header_was_read():
    with decoder() as dec:
        assert dec.format is None and dec.visible is None
        list(dec.decode(packets("STREAM_MIXED")[:3]))
        fmt = dec.format
        assert (m2m.format_name(fmt.fourcc), fmt.width, fmt.height) == ("YUV420", 1280, 720)
        assert dec.visible == (0, 0, 1280, 720)


def test_drain_after_no_frame_ends_at_once():
    with decoder() as dec:
        assert list(dec.drain()) == []


@pytest.mark.parametrize("count", [1, 12])
def test_drain_after_frames_gives_them_all(count):
    stream = packets("STREAM_ONE")[:count]
    got = []
    with decoder() as dec:
        for i, packet in enumerate(stream):
            while not dec.send(packet, 1000 * i):
                got.append(dec.receive(timeout=5))
        got += dec.drain()
        with pytest.raises(m2m.EndOfStream, match="the drain ended"):
            dec.receive()
    assert [f.timestamp_ns for f in got] == [1000 * i for i in range(count)]
    assert_same(got, "REF_ONE", ONE, count)


def test_drain_during_a_resolution_change_gives_every_frame():
    stream = packets("STREAM_MIXED")
    with decoder() as dec:
        for i in range(3):         # 640x360 twice, then 1280x720: STOP at once
            assert dec.send(stream[i], 1000 * i)
        frames = list(dec.drain())
    assert [(f.width, f.height) for f in frames] == MIXED[:3]


def test_send_says_false_until_frames_are_received():
    stream = packets("STREAM_ONE")
    with decoder() as dec:
        sent = 0
        while sent < len(stream) and dec.send(stream[sent], 1000 * sent):
            sent += 1
        assert sent < len(stream), "the decoder took every packet without a receive"
        frame = dec.receive(timeout=5)
        assert frame is not None and frame.timestamp_ns == 0
        rest = ((p, 1000 * (sent + i)) for i, p in enumerate(stream[sent:]))
        frames = [frame] + list(dec.decode(rest))
    assert [f.timestamp_ns for f in frames] == [1000 * i for i in range(len(stream))]


def test_drain_with_every_buffer_full_gives_every_frame():
    """Sent until the decoder takes no more (every OUTPUT buffer queued and
    CAPTURE full of frames not yet received), then drained: every frame
    sent comes out, in order and right."""
    stream = packets("STREAM_ONE")
    with decoder() as dec:
        sent = 0
        while sent < len(stream) and dec.send(stream[sent], 1000 * sent):
            sent += 1
        assert 1 < sent < len(stream), f"the decoder took {sent} packets"
        frames = list(dec.drain())
    assert [f.timestamp_ns for f in frames] == [1000 * i for i in range(sent)]
    assert_same(frames, "REF_ONE", ONE, sent)


def test_sending_after_a_drain_starts_a_new_stream():
    stream = packets("STREAM_ONE")
    with decoder() as dec:
        first = list(dec.decode(stream))
        second = list(dec.decode(stream))
    assert_same(first, "REF_ONE", ONE)
    assert_same(second, "REF_ONE", ONE)


def test_seek_to_the_start_decodes_it_again():
    stream = packets("STREAM_ONE")
    with decoder() as dec:
        for i, packet in enumerate(stream[:6]):
            while not dec.send(packet, 1000 * (100 + i)):
                dec.receive(timeout=5)
        dec.seek()
        frames = list(dec.decode(stream))
    assert [f.timestamp_ns for f in frames] == [1000 * i for i in range(len(stream))]
    assert_same(frames, "REF_ONE", ONE)


def test_frames_are_copies_that_outlive_the_decoder():
    with decoder() as dec:
        frames = list(dec.decode(packets("STREAM_ONE")[:3]))
    assert dec.closed
    for frame in frames:
        for plane in frame.planes:
            assert plane.flags.owndata and plane.flags.writeable
    assert_same(frames, "REF_ONE", ONE, 3)


def test_a_closed_decoder_raises_device_closed():
    dec = decoder()
    dec.close()
    dec.close()
    for call in (lambda: dec.send(b"x"), dec.receive, dec.drain, dec.seek,
                 lambda: dec.format):
        with pytest.raises(m2m.DeviceClosed, match="closed"):
            call()


def test_a_format_vicodec_does_not_decode_is_device_not_found():
    with pytest.raises(m2m.DeviceNotFound, match="does not decode"):
        m2m.Decoder(env("VICODEC_DECODER"), "H264")


@pytest.mark.parametrize("call, error, words", [
    (lambda d: d.send("text"), m2m.WrongType, "packet takes bytes-like"),
    (lambda d: d.send(np.zeros((4, 4), np.uint8)[:, ::2]), m2m.InvalidArgument,
     "packet is not C-contiguous"),
    (lambda d: d.send(b"x", -1), m2m.InvalidArgument, "timestamp_ns takes"),
    (lambda d: d.send(b"x", 1.5), m2m.WrongType, "timestamp_ns takes"),
    (lambda d: d.send(b"x" * (1 << 26)), m2m.BufferTooSmall, "m2m_decoder_send"),
    (lambda d: d.receive(-1), m2m.InvalidArgument, "timeout takes"),
    (lambda d: d.receive("1"), m2m.WrongType, "timeout takes"),
    (lambda d: d.drain(timeout=-1), m2m.InvalidArgument, "timeout takes"),
    (lambda d: list(d.decode([packets("STREAM_ONE")[0], 3])), m2m.WrongType,
     r"packets\[1\] takes"),
    (lambda d: list(d.decode([(b"x",)])), m2m.WrongType, r"packets\[0\] takes"),
    (lambda d: list(d.decode([(b"x", -2)])), m2m.InvalidArgument, r"packets\[0\]\[1\] takes"),
    (lambda d: list(d.decode([("x", 0)])), m2m.WrongType, r"packets\[0\]\[0\] takes"),
    (lambda d: d.decode([], timeout="no"), m2m.WrongType, "timeout takes"),
], ids=["str packet", "strided packet", "negative timestamp", "float timestamp",
        "packet larger than a buffer", "negative timeout", "str timeout", "drain timeout",
        "int packet", "1-tuple packet", "negative packet timestamp", "str packet data",
        "decode timeout"])
def test_bad_arguments_raise_m2m_errors_naming_them(call, error, words):
    with decoder() as dec:
        with pytest.raises(error, match=words):
            call(dec)
