# SPDX-License-Identifier: LGPL-2.1-or-later
"""m2m.Chain: vicodec's decoder -> vhqv scaling 640x360 to 1280x720 ->
vicodec's encoder, buffers handed on by DMABUF. Its packets must be byte
for byte those of the three steps done in Python (m2m.Decoder, vhqv's
convert(), m2m.Encoder), as tests/vm/test_vicodec_chain.c holds for the
C steps, with no byte copied; copy=True gives the same packets and counts
its copies. Run by tests/vm/vicodec-decode under vm-run --vicodec, which
sets VICODEC_DECODER, VICODEC_ENCODER, VHQV_VIDEO, STREAM_ONE (12 frames
of 640x360 coded as 640x368) and STREAM_MIXED (sizes changing).
"""
import ctypes
import os

import numpy as np
import pytest

import m2m
from m2m._colour import matrix_of, range_of

capi = m2m.capi

SIZE = (1280, 720)
COUNT = 12
# Bytes of one YUV420 frame: the decoder's coded 640x368 buffer, which
# the converter reads cropped, and the converter's 1280x720 result.
DECODED, SCALED = 640 * 368 * 3 // 2, 1280 * 720 * 3 // 2


def env(name):
    value = os.environ.get(name)
    assert value, f"${name} is not set: run under tests/vm/vicodec-decode"
    return value


def timed(stream):
    """The stream's packets with the C test's timestamps, 40 ms apart."""
    return [(p, (i + 1) * 40_000_000)
            for i, p in enumerate(m2m.read_hdr_stream(env(stream)))]


def chain(**kwargs):
    return m2m.Chain(env("VICODEC_DECODER"), env("VHQV_VIDEO"), env("VICODEC_ENCODER"),
                     size=SIZE, **kwargs)


def coded_frames(stream):
    """(planes, visible, matrix, range, timestamp_ns) of each frame
    vicodec decodes, the planes copies of its whole coded buffer
    (640x368), as tests/vm/test_vicodec_chain.c's steps give the
    converter: m2m.Decoder gives only the visible picture, and vhqv's
    chroma filter reads the rows under a crop
    (test_vhqv_reads_chroma_rows_under_the_crop)."""
    opts = capi.m2m_decoder_options()
    opts.version = capi.M2M_DECODER_OPTIONS_VERSION
    opts.coded_fourcc = int.from_bytes(b"FWHT", "little")
    dec = capi.m2m_decoder_open(env("VICODEC_DECODER"), opts)
    try:
        for data, timestamp_ns in timed(stream) + [(None, 0)]:
            if data is None:
                capi.m2m_decoder_drain(dec)
            else:
                capi.m2m_decoder_send(dec, data, timestamp_ns)
            while True:
                try:
                    frame = capi.m2m_decoder_receive(dec, 0 if data else 10000)
                except (m2m.WouldBlock, m2m.EndOfStream):
                    break
                try:
                    yield whole(frame)
                finally:
                    capi.m2m_decoder_release(dec, frame)
    finally:
        capi.m2m_decoder_close(dec)


def whole(frame):
    fmt = frame.format
    memory = [(ctypes.c_uint8 * fmt.plane_size[p]).from_address(
        capi.m2m_py_buffer_address(frame.buffer, p)) for p in range(fmt.num_planes)]
    planes = [np.array(view) for view in m2m.plane_views(fmt, memory)]
    visible = frame.visible
    return (planes, (visible.left, visible.top, visible.width, visible.height),
            matrix_of(fmt), range_of(fmt), frame.timestamp_ns)


def steps(stream):
    """The packets of the three steps one after another in Python, as
    tests/vm/test_vicodec_chain.c's run_steps does them: the decoder's
    frames cropped to their visible rectangle and scaled by vhqv's
    convert(), the colour kept (an untagged result keeps the source's),
    then m2m.Encoder."""
    with m2m.open(env("VHQV_VIDEO")) as conv, \
            m2m.Encoder(env("VICODEC_ENCODER"), "FWHT", format="YUV420", size=SIZE) as enc:
        scaled = ((conv.convert(planes, "YUV420", size=SIZE, crop=crop, matrix=matrix,
                                range=range_), timestamp_ns)
                  for planes, crop, matrix, range_, timestamp_ns in coded_frames(stream))
        return list(enc.encode(scaled))


def assert_same(got, want):
    assert len(got) == len(want)
    for i, (a, b) in enumerate(zip(got, want)):
        assert bytes(a) == bytes(b), f"packet {i}: {len(a)} bytes against {len(b)}"
        assert a.timestamp_ns == b.timestamp_ns, f"packet {i}'s timestamp"
        assert not a.error


def test_vhqv_reads_chroma_rows_under_the_crop():
    """What keeps m2m.Decoder's frames (the visible picture alone) from
    standing for the decoder's buffer cropped: vhqv's 2x chroma upscale
    reads the chroma row under a crop's last, so the last two chroma rows
    of the result follow what lies under the picture. FFmpeg's crop and
    scale filters, and libyuv, read the crop alone. Luma does not."""
    planes = next(coded_frames("STREAM_ONE"))[0]
    results = []
    with m2m.open(env("VHQV_VIDEO")) as conv:
        for fill in (0, 255):
            filled = [p.copy() for p in planes]
            filled[0][360:] = fill
            filled[1][180:] = filled[2][180:] = fill
            results.append(conv.convert(filled, "YUV420", size=SIZE, crop=(0, 0, 640, 360)))
    zero, full = results
    assert np.array_equal(zero.planes[0], full.planes[0])
    for p in (1, 2):
        rows = sorted(set(np.argwhere(zero.planes[p] != full.planes[p])[:, 0].tolist()))
        assert rows == [358, 359], f"plane {p}: rows {rows} differ"


@pytest.fixture(scope="module")
def by_steps():
    packets = steps("STREAM_ONE")
    assert len(packets) == COUNT
    return packets


def test_chain_equals_the_steps_in_python_and_copies_nothing(by_steps):
    with chain() as ch:
        packets = list(ch.run(timed("STREAM_ONE")))
        stats = ch.stats
    assert_same(packets, by_steps)
    assert all(isinstance(p, m2m.Packet) for p in packets)
    assert packets[0].keyframe
    # Both links by DMABUF: the decoder's frames and vhqv's results, each
    # handed on uncopied.
    assert stats == m2m.ChainStats(frames=COUNT, bytes_copied=0,
                                   bytes_shared=COUNT * (DECODED + SCALED), dmabuf_links=2)


def test_copying_gives_the_same_packets_and_counts_its_copies(by_steps):
    with chain(copy=True) as ch:
        packets = list(ch.run(timed("STREAM_ONE")))
        stats = ch.stats
    assert_same(packets, by_steps)
    assert stats.bytes_copied == COUNT * (DECODED + SCALED) > 0
    assert (stats.frames, stats.bytes_shared, stats.dmabuf_links) == (COUNT, 0, 0)


def test_a_full_chain_says_false_and_step_by_step_loses_nothing(by_steps):
    stream = timed("STREAM_ONE")
    packets = []
    with chain() as ch:
        # Nobody receives: the chain fills, and says so.
        sent = 0
        while sent < COUNT and ch.send(*stream[sent]):
            sent += 1
        assert 0 < sent < COUNT
        for data, timestamp_ns in stream[sent:]:
            while not ch.send(data, timestamp_ns):
                packet = ch.receive(timeout=10)
                assert packet is not None, "a full chain gave no packet"
                packets.append(packet)
            packets.extend(ch)          # those ready now
        packets.extend(ch.drain(timeout=10))
        with pytest.raises(m2m.EndOfStream):
            ch.receive()
        # A chain is one stream.
        with pytest.raises(m2m.InvalidArgument, match="the chain was drained"):
            ch.send(stream[0][0])
    assert_same(packets, by_steps)


def test_a_size_change_is_not_supported():
    with chain() as ch, pytest.raises(m2m.NotSupported, match="a chain takes one size"):
        list(ch.run(timed("STREAM_MIXED")))


def test_format_none_keeps_the_decoders_and_size_none_its_picture():
    with m2m.Chain(env("VICODEC_DECODER"), env("VHQV_VIDEO"), env("VICODEC_ENCODER")) as ch:
        packets = list(ch.run(timed("STREAM_ONE")))
        stats = ch.stats
    assert len(packets) == COUNT
    with m2m.Decoder(env("VICODEC_DECODER"), "FWHT") as dec:
        frames = list(dec.decode(packets))
    assert {(f.format, f.width, f.height) for f in frames} == {("YUV420", 640, 360)}
    assert stats.frames == COUNT


def test_an_encoder_that_makes_nothing_is_device_not_found_and_closed_raises():
    with pytest.raises(m2m.DeviceNotFound, match="does not make"):
        m2m.Chain(env("VICODEC_DECODER"), env("VHQV_VIDEO"), env("VICODEC_DECODER"))
    ch = chain()
    assert repr(ch).startswith("<m2m.Chain ") and not ch.closed
    ch.close()
    ch.close()
    assert ch.closed
    with pytest.raises(m2m.DeviceClosed, match="the chain on .* is closed"):
        ch.send(b"\0" * 64)
    with pytest.raises(m2m.DeviceClosed):
        ch.stats  # pylint: disable=pointless-statement
