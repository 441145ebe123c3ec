# SPDX-License-Identifier: LGPL-2.1-or-later
"""m2m.ir without a device: protocol names, libm2m's encoder (its timings
read back bit by bit), bad input, the capi typemaps, documentation."""
import errno

import numpy as np
import pytest

import m2m
import m2m.ir

capi = m2m.capi


def test_protocol_names_are_lircs_and_the_21_kernel_encoded_ones_are_there():
    kernel = {"rc-5", "rc-5x-20", "rc-5-sz", "jvc", "sony-12", "sony-15", "sony-20", "nec",
              "nec-x", "nec-32", "sanyo", "rc-6-0", "rc-6-6a-20", "rc-6-6a-24", "rc-6-6a-32",
              "rc-6-mce", "sharp", "imon", "rc-mm-12", "rc-mm-24", "rc-mm-32"}
    assert kernel <= set(m2m.ir.PROTOCOLS)
    for name in m2m.ir.PROTOCOLS:
        assert capi.m2m_ir_protocol_name(capi.m2m_ir_protocol_from_name(name)) == name
    assert capi.m2m_ir_protocol_from_name("SONY12") == capi.m2m_ir_protocol_from_name("sony-12")


def test_encoders_are_the_six_libm2m_has():
    assert set(m2m.ir.ENCODERS) == {"nec", "nec-x", "nec-32", "rc-5", "rc-6-0", "sony-12"}
    assert sum(1 << capi.m2m_ir_protocol_from_name(p) for p in m2m.ir.ENCODERS) == \
        capi.m2m_ir_encoders()


def test_scancodes_are_checked_by_libm2ms_tables():
    # Before: m2m.ir carried its own copy of the kernel's table and rules.
    rc5 = capi.m2m_ir_protocol_from_name("rc-5")
    assert capi.m2m_ir_scancode_bits(rc5) == 0x1f7f
    with pytest.raises(m2m.OutOfRange, match="m2m_ir_check_scancode: 0x80 is out of the range "
                                             "of rc-5: its bits are 0x1f7f"):
        m2m.ir.encode("rc-5", 0x80)
    with pytest.raises(m2m.OutOfRange, match="m2m_ir_check_scancode: rc-6-mce scancode 0x1234: "
                                             "it lacks the MCE customer code 0x800f"):
        capi.m2m_ir_check_scancode(capi.m2m_ir_protocol_from_name("rc-6-mce"), 0x1234)
    assert capi.m2m_ir_check_scancode(rc5, 0x1e05) is None


def nec_bits(t):
    """NEC timings read back: leader 9 ms / 4.5 ms, 32 bits LSB first (a
    1 is a long space), a stop mark."""
    assert len(t) == 67 and 8900 < t[0] < 9100 and 4400 < t[1] < 4600
    bits = 0
    for i in range(32):
        mark, space = t[2 + 2 * i], t[3 + 2 * i]
        assert 500 < mark < 620 and (500 < space < 620 or 1600 < space < 1750)
        bits |= (space > 1000) << i
    return bits


def test_nec_timings_carry_address_command_and_their_complements():
    bits = nec_bits(m2m.ir.encode("nec", 0x04a1))
    assert bits == 0x04 | (0xfb << 8) | (0xa1 << 16) | (0x5e << 24)
    bits = nec_bits(m2m.ir.encode("nec-x", 0x1234a1))
    assert bits == 0x12 | (0x34 << 8) | (0xa1 << 16) | (0x5e << 24)


def manchester(t, half):
    """Bi-phase levels at half-bit resolution, marks as 1."""
    levels = []
    for i, d in enumerate(t):
        n = round(d / half)
        assert abs(d - n * half) < half / 4 and n in (1, 2, 3, 6), (i, d)
        levels += [1 - i % 2] * n
    return levels


def test_rc5_timings_are_the_start_bits_toggle_address_and_command():
    # A 1 is space then mark: the first half of S1 is the silence before.
    levels = [0] + manchester(m2m.ir.encode("rc-5", 0x1e05), 889)
    levels += [0] * (28 - len(levels))            # the trailing space is left out
    bits = [int(levels[2 * i:2 * i + 2] == [0, 1]) for i in range(14)]
    value = int("".join(map(str, bits)), 2)
    # S1 S2 T A4..A0 C5..C0: address 0x1e, command 0x05, field bit set.
    assert value >> 12 == 0b11 and (value >> 6) & 0x1f == 0x1e and value & 0x3f == 0x05


def test_sony12_timings_are_7_command_then_5_device_bits():
    # The kernel's Sony scancode is device << 16 | function.
    t = m2m.ir.encode("sony-12", 0x10015)
    assert len(t) == 25 and 2300 < t[0] < 2500
    bits = 0
    for i in range(12):
        assert 550 < t[1 + 2 * i] < 650
        bits |= (t[2 + 2 * i] > 900) << i
    assert bits & 0x7f == 0x15 and bits >> 7 == 0x01


def test_encode_takes_numpy_integers_and_gives_a_list_numpy_takes():
    t = m2m.ir.encode("rc-6-0", np.uint16(0x810f))
    assert isinstance(t, list) and len(t) % 2 == 1 and all(isinstance(v, int) for v in t)
    assert np.array(t, np.uint32).dtype == np.uint32


@pytest.mark.parametrize("protocol, scancode, exc, match", [
    ("nope", 1, m2m.InvalidArgument, "unknown IR protocol 'nope' .known: rc-5"),
    ("jvc", 1, m2m.InvalidArgument, "libm2m has no encoder for jvc .it encodes"),
    ("nec", 0x10000, m2m.OutOfRange, "0x10000 is out of the range of nec: its bits are 0xffff"),
    ("sony-12", 0x80, m2m.OutOfRange, "out of the range of sony-12: its bits are 0x1f007f"),
    ("nec", -3, m2m.OutOfRange, "out of the range of nec"),
    ("nec", 2 ** 64, m2m.OutOfRange, "18446744073709551616 is out of the range of nec"),
    ("nec-x", 0x12ed00, m2m.OutOfRange,
     "m2m_ir_check_scancode: nec-x scancode 0x12ed00: .* a nec scancode"),
    ("nec-32", 0x1234a15e, m2m.OutOfRange, "a nec or nec-x scancode"),
    ("nec", 1.0, m2m.WrongType, r"scancode takes a nec scancode, an integer, not 1.0 \(float\)"),
    ("nec", True, m2m.WrongType, r"not True \(bool\)"),
    (8, 1, m2m.WrongType, "protocol takes an IR protocol name such as"),
])
def test_bad_encode_input_is_named(protocol, scancode, exc, match):
    with pytest.raises(exc, match=match) as info:
        m2m.ir.encode(protocol, scancode)
    if isinstance(info.value, m2m.Error):
        assert info.value.errno in (errno.EINVAL, errno.ERANGE)
        assert isinstance(info.value, ValueError)


def test_capi_encode_returns_the_timings_and_reports_too_little_room():
    rc5 = capi.m2m_ir_protocol_from_name("rc-5")
    assert capi.m2m_ir_encode(256, rc5, 0x1e05) == m2m.ir.encode("rc-5", 0x1e05)
    with pytest.raises(m2m.BufferTooSmall, match="more than 3 timings"):
        capi.m2m_ir_encode(3, rc5, 0x1e05)
    with pytest.raises(m2m.InvalidArgument, match="no encoder for protocol 5 .jvc."):
        capi.m2m_ir_encode(256, capi.m2m_ir_protocol_from_name("jvc"), 1)


@pytest.mark.parametrize("timings", [[9000, 4500, 560], (9000, 4500, 560),
                                     np.array([9000, 4500, 560], np.uint32),
                                     np.array([9000, 4500, 560], np.int64)])
def test_capi_send_raw_takes_lists_and_arrays_to_the_call(timings):
    # No handle: the call itself answers, so the timings got through.
    with pytest.raises(m2m.InvalidArgument, match="m2m_ir_send_raw: IR handle is NULL"):
        capi.m2m_ir_send_raw(None, timings)


@pytest.mark.parametrize("timings, exc, match", [
    # Before issue 25: Python's TypeError and ValueError, not m2m's.
    ([9000, 4500.0, 560], m2m.WrongType,
     r"m2m_ir_send_raw: durations\[1\] is 4500.0 \(float\), not an integer"),
    ([9000, -1, 560], m2m.InvalidArgument, r"durations\[1\] is -1, not a duration"),
    ([2 ** 32], m2m.InvalidArgument, r"durations\[0\] is 4294967296"),
    (5, m2m.WrongType, r"durations takes a sequence of integers or a numpy uint32 array, "
     r"not 5 \(int\)"),
])
def test_capi_send_raw_names_a_bad_item(timings, exc, match):
    with pytest.raises(exc, match=match):
        capi.m2m_ir_send_raw(None, timings)


def test_capi_ir_calls_without_a_device():
    assert isinstance(capi.m2m_ir_list(), list)
    with pytest.raises(m2m.InvalidArgument, match="m2m_ir_get_raw_fd: IR handle is NULL"):
        capi.m2m_ir_get_raw_fd(None)
    with pytest.raises(m2m.NotFound, match='no rc device "no-such-remote"'):
        capi.m2m_ir_open("no-such-remote")
    with pytest.raises(m2m.InvalidArgument, match="unknown IR protocol \"zz\""):
        capi.m2m_ir_protocol_from_name("zz")
    assert capi.m2m_ir_protocol_name(999) is None
    info = capi.m2m_ir_info()
    info.can_send = 1                       # an int member is a value, not an errno
    assert info.can_send == 1


def test_open_of_a_missing_device_raises_device_not_found_naming_it():
    with pytest.raises(m2m.DeviceNotFound, match="no-such-remote") as info:
        m2m.ir.open("no-such-remote")
    assert info.value.errno == errno.ENOENT


def test_scancode_and_timing_read_lircs_values():
    sc = capi.m2m_ir_scancode()
    sc.protocol, sc.scancode, sc.keycode, sc.timestamp_ns = \
        capi.m2m_ir_protocol_from_name("rc-6-mce"), 0x800f0410, 512, 123
    sc.flags = capi.LIRC_SCANCODE_FLAG_TOGGLE
    key = m2m.ir.Scancode._from(sc)
    assert key == m2m.ir.Scancode("rc-6-mce", 0x800f0410, True, False, 512, 123)
    assert "scancode=0x800f0410, toggle=True" in repr(key)
    assert m2m.ir.Timing._from(capi.LIRC_MODE2_PULSE | 560) == ("pulse", 560)
    assert m2m.ir.Timing._from(capi.LIRC_MODE2_SPACE | 1690) == ("space", 1690)
    assert m2m.ir.Timing._from(capi.LIRC_MODE2_TIMEOUT | 125000).kind == "timeout"


def test_capi_ir_docstrings_come_from_ir_h():
    assert "Encode a scancode with libm2m's own encoders" in capi.m2m_ir_encode.__doc__
    assert "Read the next decoded scancode" in capi.m2m_ir_read_scancode.__doc__


@pytest.mark.parametrize("call, error, message", [
    (lambda: m2m.ir.open(3), m2m.WrongType, "name takes a device name"),
    (lambda: m2m.ir.encode(None, 1), m2m.WrongType, "protocol takes an IR protocol name"),
    (lambda: m2m.ir.encode("nec", "1"), m2m.WrongType, r"scancode takes .*'1' \(str\)"),
    (lambda: m2m.ir.encode("nec", np.float64(1)), m2m.WrongType, "scancode takes"),
])
def test_ir_functions_name_a_bad_argument(call, error, message):
    with pytest.raises(error, match=message):
        call()
