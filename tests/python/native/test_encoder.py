# SPDX-License-Identifier: LGPL-2.1-or-later
"""m2m.Encoder without an encoder node: bad arguments named, the capi
typemaps of include/m2m/codec.h's encoder. tests/python/decoder encodes
on vicodec in the VM."""
import errno

import pytest

import m2m

capi = m2m.capi


# Checked before the node is opened: "x" is no node, so a check that let
# a bad value through would fail with DeviceNotFound instead.
@pytest.mark.parametrize("kwargs, error, words", [
    (dict(node=3), m2m.WrongType, "node takes a node path"),
    (dict(coded="FWHTX"), m2m.InvalidArgument, "coded takes a four-character"),
    (dict(coded=1.0), m2m.WrongType, "coded takes"),
    (dict(format="nope"), m2m.UnsupportedFormat, "format='nope'"),
    (dict(format=[1]), m2m.WrongType, "a pixel format"),
    (dict(size=None), m2m.WrongType, "size takes (width, height)"),
    (dict(size=(640, 0)), m2m.InvalidArgument, "size takes (width, height)"),
    (dict(rate=25), m2m.WrongType, "rate takes (numerator, denominator)"),
    (dict(rate=(25, 0)), m2m.InvalidArgument, "rate takes"),
    (dict(timeout=0), m2m.InvalidArgument, "timeout takes a number of seconds > 0"),
    (dict(timeout="1"), m2m.WrongType, "timeout takes"),
    (dict(controls=[("video_gop_size", 4)]), m2m.WrongType, "controls takes a dict"),
    (dict(controls={1.5: 4}), m2m.WrongType, "a key is a name or an id"),
    (dict(controls={0: 4}), m2m.InvalidArgument, "controls[0] takes an id"),
    (dict(controls={"video_gop_size": 4.0}), m2m.WrongType,
     "controls['video_gop_size'] takes an integer"),
    (dict(controls={"video_gop_size": "4"}), m2m.WrongType, "controls['video_gop_size']"),
    (dict(controls={"video_gop_size": 2 ** 63}), m2m.InvalidArgument,
     "controls['video_gop_size'] takes an integer of 64 bits"),
], ids=lambda v: repr(v) if isinstance(v, dict) else "")
def test_encoder_refuses_bad_arguments_naming_them(kwargs, error, words):
    args = dict(node="x", size=(640, 360))
    args.update(kwargs)
    with pytest.raises(error) as caught:
        m2m.Encoder(**args)
    assert words in str(caught.value)
    assert caught.value.errno == errno.EINVAL


def test_encoder_on_a_node_that_encodes_nothing_is_device_not_found():
    with pytest.raises(m2m.DeviceNotFound, match="does not make"):
        m2m.Encoder("inprocess", size=(64, 48))


def test_encoder_on_no_such_node_is_device_not_found():
    with pytest.raises(m2m.DeviceNotFound):
        m2m.Encoder("/dev/no-such-video", size=(64, 48))
    # Controls by name are looked up on the node first: the same error.
    with pytest.raises(m2m.DeviceNotFound):
        m2m.Encoder("/dev/no-such-video", size=(64, 48), controls={"video_gop_size": 4})


def test_a_control_the_node_lacks_is_unknown_control_naming_it():
    with pytest.raises(m2m.UnknownControl, match=r"controls\['no_such_control'\]"):
        m2m.Encoder("inprocess", size=(64, 48), controls={"no_such_control": 1})
    # A known name and a boolean value pass the checks; inprocess then
    # makes no FWHT.
    with pytest.raises(m2m.DeviceNotFound, match="does not make"):
        m2m.Encoder("inprocess", size=(64, 48), controls={"horizontal_flip": True})


def test_packet_is_bytes_with_its_metadata():
    packet = m2m.Packet(b"abc")
    packet.timestamp_ns, packet.sequence, packet.flags, packet.keyframe = 5000, 1, 0, True
    assert packet == b"abc" and isinstance(packet, bytes)
    assert not packet.error and "3 bytes key at 5000 ns" in repr(packet)
    packet.flags = capi.M2M_BUFFER_ERROR
    assert packet.error


def test_py_encoder_open_controls_typemap_names_what_it_refuses():
    opts = capi.m2m_encoder_options()
    opts.version = capi.M2M_ENCODER_OPTIONS_VERSION
    with pytest.raises(m2m.WrongType, match="controls takes a list of"):
        capi.m2m_py_encoder_open("x", opts, (1, 2))
    with pytest.raises(m2m.WrongType, match=r"controls\[1\] takes an \(id, value\) pair"):
        capi.m2m_py_encoder_open("x", opts, [(1, 2), (1, "2")])
    with pytest.raises(m2m.InvalidArgument, match=r"controls\[0\] takes an id of 32 bits"):
        capi.m2m_py_encoder_open("x", opts, [(2 ** 32, 2)])
    # Taken: libm2m then refuses options without a format.
    with pytest.raises(m2m.InvalidArgument, match="opts needs coded_fourcc"):
        capi.m2m_py_encoder_open("x", opts, [(1, 2)])
    with pytest.raises(m2m.InvalidArgument, match="opts is NULL"):
        capi.m2m_py_encoder_open("x", None, [])


def test_encoder_calls_name_their_arguments_not_swig():
    with pytest.raises(m2m.WrongType, match="m2m_encoder_send: frame takes a C-contiguous"):
        capi.m2m_encoder_send(None, "frame", 0)
    with pytest.raises(m2m.InvalidArgument, match="enc is NULL"):
        capi.m2m_encoder_send(None, b"frame", 0)
    with pytest.raises(m2m.InvalidArgument, match="enc is NULL"):
        capi.m2m_encoder_receive(None, 0)
    with pytest.raises(m2m.InvalidArgument, match="enc is NULL"):
        capi.m2m_encoder_get_format(None)


def test_release_leaves_the_packet_to_python():
    packet = capi.m2m_packet()
    with pytest.raises(m2m.InvalidArgument, match="enc is NULL"):
        capi.m2m_encoder_release(None, packet)
    assert packet.size == 0
    del packet      # Python's free(); a second one aborts (glibc)
    with pytest.raises(m2m.WrongType, match="packet takes a capi.m2m_packet"):
        capi.m2m_encoder_release(None, b"packet")
