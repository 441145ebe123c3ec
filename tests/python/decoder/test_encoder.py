# SPDX-License-Identifier: LGPL-2.1-or-later
"""m2m.Encoder on vicodec's stateful encoder: its packets byte for byte
those of `m2m encode` (libm2m's C encoder), and as v4l2-ctl's encoder
makes them on the same frames but for two differences shown, and a round
trip through m2m.Decoder holding the PSNR
tests/vm/test_vicodec_codec.c holds. Run by tests/vm/vicodec-decode
under vm-run --vicodec, which sets VICODEC_ENCODER, VICODEC_DECODER,
RAW_TESTSRC2 (12 frames of FFmpeg's testsrc2, 640x360 YUV420) and
RAW_PHOTOS (4 scikit-image photos at that size); ctest sets M2M_TOOL.
"""
import math
import os
import subprocess

import numpy as np
import pytest

import m2m

W, H = 640, 360
FRAME = W * H * 3 // 2
# tests/vm/test_vicodec_codec.c's floors: 1 dB under what vicodec's
# default QP gives (docs/status.md).
PSNR_FLOOR = {"RAW_TESTSRC2": 39.1, "RAW_PHOTOS": 37.4}


def env(name):
    value = os.environ.get(name)
    assert value, f"${name} is not set: run under tests/vm/vicodec-decode"
    return value


def raw_frames(var):
    """The frames of a raw YUV420 file, each its Y, Cb, Cr planes."""
    raw = np.fromfile(env(var), np.uint8)
    assert raw.size % FRAME == 0 and raw.size, f"{var} has {raw.size} bytes"
    frames = []
    for at in range(0, raw.size, FRAME):
        y = raw[at:at + W * H].reshape(H, W)
        cb = raw[at + W * H:at + W * H * 5 // 4].reshape(H // 2, W // 2)
        cr = raw[at + W * H * 5 // 4:at + FRAME].reshape(H // 2, W // 2)
        frames.append((y, cb, cr))
    return frames


def encoder(**kwargs):
    return m2m.Encoder(env("VICODEC_ENCODER"), "FWHT", format="YUV420", size=(W, H),
                       **kwargs)


def hdr_stream(packets):
    """The packets as v4l2-ctl --stream-to-hdr and m2m encode write them."""
    return b"".join(b"rdhV" + len(p).to_bytes(4, "big") + p for p in packets)


def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return math.inf if mse == 0 else 10 * math.log10(255 ** 2 / mse)


@pytest.mark.parametrize("var", ["RAW_TESTSRC2", "RAW_PHOTOS"])
def test_round_trip_through_the_decoder_holds_its_psnr(var):
    frames = raw_frames(var)
    with encoder() as enc:
        packets = list(enc.encode(frames))
    assert len(packets) == len(frames)
    with m2m.Decoder(env("VICODEC_DECODER"), "FWHT") as dec:
        decoded = list(dec.decode(packets))
    assert len(decoded) == len(frames)
    got = np.concatenate([p.ravel() for f in decoded for p in f.planes])
    want = np.concatenate([p.ravel() for f in frames for p in f])
    db = psnr(want, got)
    print(f"{var}: {len(frames)} frames, {sum(map(len, packets))} bytes, PSNR {db:.2f} dB")
    assert db >= PSNR_FLOOR[var], f"{var}: PSNR {db:.2f} dB, under {PSNR_FLOOR[var]}"


@pytest.mark.parametrize("controls, options", [
    (None, []),
    ({"fwht_i_frame_qp_value": 10, "Video GOP Size": 4},
     ["-C", "fwht_i_frame_qp_value=10", "-C", "video_gop_size=4"]),
], ids=["default", "controls by name"])
def test_packets_are_m2m_encode_s_bytes(tmp_path, controls, options):
    out = tmp_path / "m2m.fwht"
    subprocess.run([env("M2M_TOOL"), "encode", "-d", env("VICODEC_ENCODER"), *options,
                    "-s", f"{W}x{H}", "-f", "yuv420", env("RAW_TESTSRC2"), str(out)],
                   check=True)
    with encoder(controls=controls) as enc:
        packets = list(enc.encode(raw_frames("RAW_TESTSRC2")))
    assert hdr_stream(packets) == out.read_bytes()


def fwht_header(packet):
    size, hdr = m2m.capi.m2m_fwht_parse_header(packet)
    assert size == len(packet)
    return hdr


def decoded(packets):
    with m2m.Decoder(env("VICODEC_DECODER"), "FWHT") as dec:
        return [np.concatenate([p.ravel() for p in f.planes]) for f in dec.decode(packets)]


def test_packets_agree_with_v4l2_ctl_s(tmp_path):
    # v4l2-ctl encodes the same file on the same node, the picture
    # cropped to 640x360 as tests/vm/vicodec-decode does. Two things
    # differ, by design: libm2m tags its frames as it reads untagged
    # Y'CbCr (BT.601, limited range; docs/python.md), v4l2-ctl leaves
    # vicodec's default (Rec. 709), and the headers say so; and the
    # lines under the picture (360 to 367 of the coded 368) are libm2m's
    # zeros, v4l2-ctl's not, which codes the key frames (0 and 10 of GOP
    # 10) differently but decodes to the same pictures. The other frames,
    # coded as differences, are byte for byte the same.
    # The clip looped and 4 frames more encoded on 4 OUTPUT buffers, the
    # first 12 kept: after its STOP v4l2-ctl gives each frame only half
    # a second (tests/vm/hdr-streams.sh).
    out = tmp_path / "v4l2-ctl.fwht"
    subprocess.run(["v4l2-ctl", "-d", env("VICODEC_ENCODER"), "--stream-mmap",
                    "--stream-out-mmap=4", "-x", f"width={W},height={H},pixelformat=YU12",
                    f"--set-selection-output=target=crop,width={W},height={H}",
                    "--stream-count=16", "--stream-loop", f"--stream-from={env('RAW_TESTSRC2')}",
                    f"--stream-to-hdr={out}"], check=True, stdout=subprocess.DEVNULL)
    theirs = list(m2m.read_hdr_stream(out))
    assert len(theirs) >= 12, f"v4l2-ctl encoded {len(theirs)} frames of 12"
    theirs = theirs[:12]
    raw = np.fromfile(env("RAW_TESTSRC2"), np.uint8)
    with encoder() as enc:     # frames as their packed bytes this time
        ours = list(enc.encode(raw[at:at + FRAME] for at in range(0, raw.size, FRAME)))
    assert len(ours) == len(theirs) == 12
    capi = m2m.capi
    for i, (a, b) in enumerate(zip(ours, theirs)):
        ha, hb = fwht_header(a), fwht_header(b)
        assert (ha.version, ha.width, ha.height, ha.flags, ha.xfer_func) == \
            (hb.version, hb.width, hb.height, hb.flags, hb.xfer_func), i
        assert (ha.colorspace, ha.ycbcr_enc, ha.quantization) == (
            capi.V4L2_COLORSPACE_SMPTE170M, capi.V4L2_YCBCR_ENC_601,
            capi.V4L2_QUANTIZATION_LIM_RANGE), i
        assert hb.colorspace == capi.V4L2_COLORSPACE_REC709, i
        if not ha.flags & capi.V4L2_FWHT_FL_I_FRAME:
            assert a[capi.M2M_FWHT_HEADER_SIZE:] == b[capi.M2M_FWHT_HEADER_SIZE:], i
    assert [p.keyframe for p in ours] == [i % 10 == 0 for i in range(12)]
    for i, (a, b) in enumerate(zip(decoded(ours), decoded(theirs))):
        assert np.array_equal(a, b), f"frame {i} decodes differently from v4l2-ctl's"


def test_packets_keep_timestamps_and_say_which_are_key_frames():
    frames = raw_frames("RAW_TESTSRC2")
    with encoder(controls={"video_gop_size": 5}) as enc:
        packets = list(enc.encode((f, 1000 * (7 + i)) for i, f in enumerate(frames)))
    assert [p.timestamp_ns for p in packets] == [1000 * (7 + i) for i in range(12)]
    assert [p.keyframe for p in packets] == [i % 5 == 0 for i in range(12)]
    assert not any(p.error for p in packets)
    # The header agrees (vicodec flags no buffer KEYFRAME: it is FWHT's).
    for i, p in enumerate(packets):
        hdr = fwht_header(p)
        assert (hdr.width, hdr.height) == (W, H)
        assert bool(hdr.flags & m2m.capi.V4L2_FWHT_FL_I_FRAME) == (i % 5 == 0)


def test_frames_decoded_encode_as_their_planes_do():
    frames = raw_frames("RAW_TESTSRC2")[:4]
    with encoder() as enc:
        first = list(enc.encode(frames))
        with m2m.Decoder(env("VICODEC_DECODER"), "FWHT") as dec:
            decoded = list(dec.decode(first))
        assert all(isinstance(f, m2m.DecodedFrame) for f in decoded)
        again = list(enc.encode(decoded))
        planes = list(enc.encode([tuple(f.planes) for f in decoded]))
        frame_objects = list(enc.encode([m2m.Frame(list(f.planes), "YUV420")
                                         for f in decoded]))
    assert again == planes == frame_objects
    assert len(again) == 4


def test_drain_after_no_frame_ends_at_once():
    with encoder() as enc:
        assert list(enc.drain()) == []


def test_send_says_false_until_packets_are_received_and_none_is_lost():
    frames = raw_frames("RAW_TESTSRC2")
    with encoder() as enc:
        sent = 0
        while sent < len(frames) and enc.send(frames[sent], 1000 * sent):
            sent += 1
        assert sent < len(frames), "the encoder took every frame without a receive"
        packet = enc.receive(timeout=5)
        assert packet is not None and packet.timestamp_ns == 0 and packet.sequence == 0
        rest = ((f, 1000 * (sent + i)) for i, f in enumerate(frames[sent:]))
        packets = [packet] + list(enc.encode(rest))
        with pytest.raises(m2m.EndOfStream, match="the drain ended"):
            enc.receive()
    assert [p.timestamp_ns for p in packets] == [1000 * i for i in range(len(frames))]


def test_a_second_stream_after_a_drain_is_the_first_again():
    frames = raw_frames("RAW_TESTSRC2")
    with encoder() as enc:
        first = list(enc.encode(frames))
        second = list(enc.encode(frames))
    assert first == second


def test_a_closed_encoder_raises_device_closed():
    enc = encoder()
    assert "closed" not in repr(enc)
    enc.close()
    enc.close()
    assert enc.closed and "closed" in repr(enc)
    y = np.zeros((H, W), np.uint8)
    c = np.zeros((H // 2, W // 2), np.uint8)
    for call in (lambda: enc.send((y, c, c)), enc.receive, enc.drain, lambda: enc.format):
        with pytest.raises(m2m.DeviceClosed, match="closed"):
            call()


def test_a_decoder_node_is_device_not_found():
    with pytest.raises(m2m.DeviceNotFound, match="does not make"):
        m2m.Encoder(env("VICODEC_DECODER"), "FWHT", size=(W, H))


Y = np.zeros((H, W), np.uint8)
C = np.zeros((H // 2, W // 2), np.uint8)


@pytest.mark.parametrize("call, error, words", [
    (lambda e: e.send((Y, C)), m2m.UnsupportedFormat, r"frame \(a YUV420 640x360 frame\) has 3"),
    (lambda e: e.send((Y, C, C[:, :-1])), m2m.UnsupportedFormat,
     r"the Cr plane of frame .* must have shape \(180, 320\)"),
    (lambda e: e.send((Y.astype(np.uint16), C, C)), m2m.UnsupportedFormat,
     "the Y plane of frame .* must have dtype uint8"),
    (lambda e: e.send(m2m.Frame([Y[:, :320], C[:, :160], C[:, :160]], "YUV420")),
     m2m.UnsupportedFormat, r"frame \(a YUV420 640x360 frame\) is a YUV420 320x360 Frame"),
    (lambda e: e.send(b"x" * 10), m2m.UnsupportedFormat, "frame .* is 345600 bytes packed"),
    (lambda e: e.send("frame"), m2m.WrongType, "frame takes an m2m.Frame"),
    (lambda e: e.send((Y, C, C), -1), m2m.InvalidArgument, "timestamp_ns takes"),
    (lambda e: e.receive(-1), m2m.InvalidArgument, "timeout takes"),
    (lambda e: list(e.encode([(Y, C, C), (Y, C)])), m2m.UnsupportedFormat,
     r"frames\[1\] \(a YUV420"),
    (lambda e: list(e.encode([((Y, C, C), -5)])), m2m.InvalidArgument,
     r"frames\[0\]\[1\] takes"),
    (lambda e: e.drain(timeout="no"), m2m.WrongType, "timeout takes"),
], ids=["two planes", "Cr shape", "Y dtype", "Frame of another size", "short bytes",
        "str frame", "negative timestamp", "negative timeout", "frames[1]",
        "negative frame timestamp", "drain timeout"])
def test_bad_frames_raise_m2m_errors_naming_them(call, error, words):
    with encoder() as enc:
        with pytest.raises(error, match=words):
            call(enc)


def test_controls_the_encoder_does_not_take_are_named():
    with pytest.raises(m2m.UnknownControl, match=r"controls\['no_such_control'\]"):
        encoder(controls={"no_such_control": 1})
    with pytest.raises(m2m.OutOfRange, match="40"):
        encoder(controls={"fwht_p_frame_qp_value": 40})
