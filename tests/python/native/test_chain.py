# SPDX-License-Identifier: LGPL-2.1-or-later
"""m2m.Chain without codec nodes: bad arguments named, the capi typemaps
of include/m2m/codec.h's chain. tests/python/decoder runs a chain on
vicodec and vhqv in the VM."""
import errno

import pytest

import m2m

capi = m2m.capi


# Checked before a node is opened: "x" is no node, so a check that let a
# bad value through would fail with DeviceNotFound instead.
@pytest.mark.parametrize("kwargs, error, words", [
    (dict(decoder=3), m2m.WrongType, "decoder takes a node path"),
    (dict(converter=None), m2m.WrongType, "converter takes a node path"),
    (dict(encoder=b"x"), m2m.WrongType, "encoder takes a node path"),
    (dict(coded="FWHTX"), m2m.InvalidArgument, "coded takes a four-character"),
    (dict(encoded="FWH"), m2m.InvalidArgument, "encoded takes a four-character"),
    (dict(encoded=1.0), m2m.WrongType, "encoded takes"),
    (dict(format="nope"), m2m.UnsupportedFormat, "format='nope'"),
    (dict(format=[1]), m2m.WrongType, "a pixel format"),
    (dict(size=1280), m2m.WrongType, "size takes (width, height)"),
    (dict(size=(1280, 0)), m2m.InvalidArgument, "size takes (width, height)"),
    (dict(copy=1), m2m.WrongType, "copy takes"),
    (dict(timeout=0), m2m.InvalidArgument, "timeout takes a number of seconds > 0"),
    (dict(controls=[("video_gop_size", 4)]), m2m.WrongType, "controls takes a dict"),
    (dict(controls={"video_gop_size": 4.0}), m2m.WrongType,
     "controls['video_gop_size'] takes an integer"),
], ids=lambda v: repr(v) if isinstance(v, dict) else "")
def test_chain_refuses_bad_arguments_naming_them(kwargs, error, words):
    args = dict(decoder="x", converter="x", encoder="x")
    args.update(kwargs)
    with pytest.raises(error) as caught:
        m2m.Chain(**args)
    assert words in str(caught.value)
    assert caught.value.errno == errno.EINVAL


def test_chain_on_no_such_node_is_device_not_found():
    with pytest.raises(m2m.DeviceNotFound):
        m2m.Chain("/dev/no-such-video", "inprocess", "inprocess")


def test_chain_whose_decoder_decodes_nothing_is_device_not_found():
    # The in-process device converts: it neither decodes nor encodes.
    with pytest.raises(m2m.DeviceNotFound):
        m2m.Chain("inprocess", "inprocess", "inprocess")


def test_a_control_the_encoder_lacks_is_unknown_control_naming_it():
    with pytest.raises(m2m.UnknownControl, match=r"controls\['no_such_control'\]"):
        m2m.Chain("inprocess", "inprocess", "inprocess", controls={"no_such_control": 1})


def test_py_chain_open_passes_options_and_controls_to_libm2m():
    opts = capi.m2m_chain_options()
    opts.version = capi.M2M_CHAIN_OPTIONS_VERSION
    # Libm2m's own checks come back as m2m exceptions with its words.
    with pytest.raises(m2m.InvalidArgument, match="needs coded_fourcc"):
        capi.m2m_py_chain_open("x", "x", "x", opts, [(1, 2)])
    opts.encoder.coded_fourcc = m2m.fourcc("YU12")
    opts.flags = 0x80
    with pytest.raises(m2m.InvalidArgument, match="unknown flags 0x80"):
        capi.m2m_py_chain_open("x", "x", "x", opts, [])
    with pytest.raises(m2m.InvalidArgument, match="opts is NULL"):
        capi.m2m_py_chain_open("x", "x", "x", None, [])
    with pytest.raises(m2m.WrongType, match=r"controls\[0\] takes an \(id, value\) pair"):
        capi.m2m_py_chain_open("x", "x", "x", opts, [1])


def test_chain_calls_name_their_arguments_not_swig():
    with pytest.raises(m2m.WrongType, match="m2m_chain_send: data takes a C-contiguous"):
        capi.m2m_chain_send(None, "packet", 0)
    with pytest.raises(m2m.InvalidArgument, match="chain is NULL"):
        capi.m2m_chain_send(None, b"packet", 0)
    with pytest.raises(m2m.InvalidArgument, match="chain is NULL"):
        capi.m2m_chain_receive(None, 0)
    with pytest.raises(m2m.InvalidArgument, match="chain is NULL"):
        capi.m2m_chain_drain(None)
    with pytest.raises(m2m.InvalidArgument, match="chain is NULL"):
        capi.m2m_chain_get_stats(None)
    with pytest.raises(m2m.InvalidArgument, match="chain is NULL"):
        capi.m2m_chain_release(None, capi.m2m_packet())
    with pytest.raises(m2m.WrongType, match="packet takes a capi.m2m_packet"):
        capi.m2m_chain_release(None, b"packet")


def test_chain_stats_is_a_named_tuple_of_the_c_fields():
    stats = capi.m2m_chain_stats()
    assert (stats.frames, stats.bytes_copied, stats.bytes_shared, stats.dmabuf_links) == \
        (0, 0, 0, 0)
    assert m2m.ChainStats._fields == ("frames", "bytes_copied", "bytes_shared",
                                      "dmabuf_links")
