# SPDX-License-Identifier: LGPL-2.1-or-later
"""m2m.ir on vhqv's loopback IR device (vhqv-ir), in the test VM: what is
sent comes back decoded by the kernel's decoders."""
import asyncio
import errno
import os
import random
import selectors
import sys
import threading
import time

import numpy as np
import pytest

import m2m
import m2m.ir

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from interrupt import LATENCY_S, interrupt_latencies  # noqa: E402

# The kernel's scancode bits of every protocol it encodes, and its decoder
# family (enabled one at a time: some frames fit another family's timings).
KERNEL_ENCODED = {
    "rc-5": (0x1f7f, "rc-5"), "rc-5x-20": (0x1f7f3f, "rc-5"),
    "rc-5-sz": (0x2fff, "rc-5-sz"), "jvc": (0xffff, "jvc"),
    "sony-12": (0x1f007f, "sony-12"), "sony-15": (0xff007f, "sony-12"),
    "sony-20": (0x1fff7f, "sony-12"), "nec": (0xffff, "nec"),
    "nec-x": (0xffffff, "nec"), "nec-32": (0xffffffff, "nec"),
    "sanyo": (0x1fffff, "sanyo"), "rc-6-0": (0xffff, "rc-6-0"),
    "rc-6-6a-20": (0xfffff, "rc-6-0"), "rc-6-6a-24": (0xffffff, "rc-6-0"),
    "rc-6-6a-32": (0xffffffff, "rc-6-0"), "rc-6-mce": (0x7fff, "rc-6-0"),
    "sharp": (0x1fff, "sharp"), "imon": (0x7fffffff, "imon"),
    "rc-mm-12": (0xfff, "rc-mm-12"), "rc-mm-24": (0xffffff, "rc-mm-12"),
    "rc-mm-32": (0xffffffff, "rc-mm-12"),
}
SCANCODES = 10


def valid_scancode(rng, name):
    """A random scancode of the protocol that decodes as that protocol."""
    mask = KERNEL_ENCODED[name][0]
    while True:
        s = rng.getrandbits(32) & mask
        if name == "rc-6-mce":
            s |= 0x800f0000
        if name == "nec-x" and not ((s >> 16) ^ ~(s >> 8)) & 0xff:
            continue
        if name == "nec-32" and not ((s >> 8) ^ ~s) & 0xff:
            continue
        if name == "rc-6-6a-32" and s & 0xffff0000 == 0x800f0000:
            continue
        # RC-MM-32 without both mode bits: bit 15 is a toggle.
        if name == "rc-mm-32" and s & 0x000c0000 != 0x000c0000 and s & 0x8000:
            continue
        return s


@pytest.fixture
def rc():
    with m2m.ir.open("vhqv-ir") as d:
        yield d
        # Every scancode that came was accounted for.
        left = d.read(timeout=0.2)
        assert left is None, f"unexpected {left}"


@pytest.fixture
def rng():
    return random.Random(7)


def test_devices_list_vhqv_ir_with_its_lirc_node_and_protocols():
    found = [d for d in m2m.ir.devices() if d.name == "vhqv-ir"]
    assert len(found) == 1
    info = found[0]
    assert info.driver == "vhqv" and info.can_send
    assert info.lirc.startswith("/dev/lirc") and info.sysfs.startswith("/sys/class/rc/rc")
    assert {"nec", "rc-5", "rc-6-mce", "sony-20", "rc-mm-32"} <= info.protocols
    with m2m.ir.open(info.lirc) as by_node, m2m.ir.open("vhqv") as by_driver:
        assert by_node.name == by_driver.name == "vhqv-ir"


def test_protocols_are_set_and_read_back_by_family(rc):
    rc.protocols = {"rc-5", "sony-12"}
    assert rc.protocols == {"rc-5", "rc-5x-20", "sony-12", "sony-15", "sony-20"}
    assert rc.info.enabled == rc.protocols
    rc.protocols = "nec"
    assert rc.protocols == {"nec", "nec-x", "nec-32"}
    rc.protocols = ["RC6_0", "sony12"]                   # ir-ctl's spellings
    assert {"rc-6-0", "rc-6-mce", "sony-12"} <= rc.protocols
    assert "nec" not in rc.protocols
    rc.protocols = set()
    assert rc.protocols == frozenset()
    with open(f"{rc.sysfs}/protocols") as f:          # only lirc stays on
        assert [w for w in f.read().split() if w.startswith("[")] == ["[lirc]"]


def test_unknown_protocol_names_are_all_named(rc):
    rc.protocols = {"nec"}
    with pytest.raises(m2m.InvalidArgument, match="unknown IR protocols 'nope', 'nec-99'"):
        rc.protocols = ["nec", "nope", "nec-99"]
    assert rc.protocols == {"nec", "nec-x", "nec-32"}    # unchanged
    with pytest.raises(m2m.InvalidArgument, match="unknown IR protocol 'foo'"):
        rc.send("foo", 1)
    with pytest.raises(m2m.WrongType, match="protocols takes a set of names .*not 42"):
        rc.protocols = 42


def test_a_protocol_the_device_cannot_decode_is_named(rc):
    assert "cec" not in rc.supported_protocols
    with pytest.raises(m2m.InvalidArgument, match="vhqv-ir cannot decode cec"):
        rc.protocols = {"nec", "cec"}


@pytest.mark.parametrize("name", list(KERNEL_ENCODED))
def test_kernel_encoded_scancodes_round_trip(rc, rng, name):
    rc.protocols = {KERNEL_ENCODED[name][1]}
    for _ in range(SCANCODES):
        want = valid_scancode(rng, name)
        rc.send(name, want)
        key = rc.read(timeout=2.0)
        assert key is not None, f"{name} 0x{want:x}: nothing decoded"
        assert (key.protocol, key.scancode) == (name, want), f"{name} 0x{want:x} came back as {key}"
        assert key.timestamp_ns > 0


@pytest.mark.parametrize("name", ["nec", "nec-x", "nec-32", "rc-5", "rc-6-0", "sony-12"])
def test_libm2m_encoded_pulses_decode_to_the_scancodes_encoded(rc, rng, name):
    assert name in m2m.ir.ENCODERS
    rc.protocols = {name}
    for n in range(SCANCODES):
        want = valid_scancode(rng, name)
        timings = m2m.ir.encode(name, want)
        # As a list, and as a numpy uint32 array (passed without a copy).
        rc.send_raw(timings if n % 2 else np.array(timings, np.uint32))
        key = rc.read(timeout=2.0)
        assert key is not None, f"{name} 0x{want:x}: nothing decoded"
        assert (key.protocol, key.scancode) == (name, want), f"{name} 0x{want:x} came back as {key}"


def test_read_times_out_with_none(rc):
    rc.protocols = {"nec"}
    start = time.monotonic()
    assert rc.read(timeout=0.3) is None
    assert time.monotonic() - start >= 0.29
    assert rc.read(timeout=0) is None


def test_iteration_gives_keys_in_order_and_ends_after_a_quiet_timeout(rc):
    rc.protocols = {"nec"}
    sent = [0x0101, 0x0202, 0x0303]
    for s in sent:
        rc.send("nec", s)
    start = time.monotonic()
    got = [k.scancode for k in rc.scancodes(timeout=1.0)]
    assert got == sent
    assert time.monotonic() - start >= 1.0
    rc.send("nec", 0x0404)
    for key in rc:                     # waits for ever; one is there
        assert key.scancode == 0x0404 and key.protocol == "nec"
        break


def test_toggle_flags_come_with_rc6_mce(rc):
    rc.protocols = {"rc-6-mce"}
    rc.send("rc-6-mce", 0x800f0410)
    key = rc.read(timeout=2.0)
    assert key.protocol == "rc-6-mce" and key.scancode == 0x800f0410
    assert not key.repeat
    assert isinstance(key.toggle, bool)
    assert key.keycode != 0            # the rc-rc6-mce keymap maps it


def test_fileno_serves_selectors(rc):
    rc.protocols = {"nec"}
    sel = selectors.DefaultSelector()
    sel.register(rc, selectors.EVENT_READ)
    assert sel.select(timeout=0) == []
    rc.send("nec", 0x1234)
    ready = sel.select(timeout=2.0)
    assert [key.fileobj for key, _ in ready] == [rc]
    assert rc.read(timeout=0).scancode == 0x1234
    assert sel.select(timeout=0) == []
    sel.close()


def test_async_iteration(rc):
    rc.protocols = {"rc-5"}

    async def first_two():
        keys = []
        loop = asyncio.get_running_loop()
        loop.call_later(0.1, rc.send, "rc-5", 0x1e05)
        loop.call_later(0.2, rc.send, "rc-5", 0x0101)
        async for key in rc:
            keys.append(key.scancode)
            if len(keys) == 2:
                return keys
    assert asyncio.run(asyncio.wait_for(first_two(), 10)) == [0x1e05, 0x0101]


def test_raw_fileno_serves_selectors_for_raw_timings(rc):
    rc.protocols = {"nec"}
    while rc.read_raw(timeout=0.2):            # what came before
        pass
    sel = selectors.DefaultSelector()
    sel.register(rc.raw_fileno(), selectors.EVENT_READ)
    assert sel.select(timeout=0) == []
    rc.send("nec", 0x0606)
    assert len(sel.select(timeout=2.0)) == 1
    assert "pulse" in {t.kind for t in rc.read_raw(timeout=0)}
    assert rc.read(timeout=2.0).scancode == 0x0606   # scancodes apart
    sel.close()


def test_bad_read_arguments_are_named(rc):
    with pytest.raises(m2m.WrongType, match="timeout takes None"):
        rc.read(timeout="1")
    with pytest.raises(m2m.InvalidArgument, match="timeout takes .* >= 0, not -1"):
        rc.scancodes(timeout=-1)
    with pytest.raises(m2m.InvalidArgument, match="max_values takes an integer from 1 to"):
        rc.read_raw(timeout=0, max_values=0)


def test_raw_timings_come_back(rc):
    rc.protocols = {"sony-12"}
    sent = m2m.ir.encode("sony-12", 0x10015)
    rc.send_raw(sent)
    marks, kinds = [], set()
    while len(marks) < (len(sent) + 1) // 2:
        timings = rc.read_raw(timeout=2.0)
        assert timings is not None, f"only {len(marks)} marks came back"
        kinds |= {t.kind for t in timings}
        marks += [t.value for t in timings if t.kind == "pulse"]
    assert marks == sent[::2]
    assert kinds <= {"pulse", "space", "timeout"} and "space" in kinds
    assert rc.read(timeout=2.0).scancode == 0x10015    # scancodes apart


@pytest.mark.parametrize("name, scancode, match", [
    ("nec", 0x10000, "0x10000 is out of the range of nec: its bits are 0xffff"),
    ("rc-5", 0x80, "0x80 is out of the range of rc-5"),
    ("nec", -1, "out of the range of nec"),
    ("nec-x", 0x12ed00, "inverted: a nec scancode"),
    ("rc-6-mce", 0x1234, "0x800f"),
])
def test_scancodes_out_of_range_are_named(rc, name, scancode, match):
    with pytest.raises(m2m.OutOfRange, match=match):
        rc.send(name, scancode)


def test_non_integer_scancodes_raise_wrong_type(rc):
    with pytest.raises(m2m.WrongType, match=r"scancode takes a nec scancode, an integer, not 1.5"):
        rc.send("nec", 1.5)
    with pytest.raises(m2m.WrongType, match=r"not True \(bool\)"):
        rc.send("nec", True)


@pytest.mark.parametrize("timings, exc, match", [
    ([], m2m.InvalidArgument, "no timings"),
    ([9000, 4500], m2m.InvalidArgument, "2 timings: send an odd number"),
    ([9000, 0, 560], m2m.InvalidArgument, r"durations\[1\] is 0"),
    ([9000, -5, 560], m2m.InvalidArgument, r"durations\[1\] is -5"),
    ([9000, 2 ** 32, 560], m2m.InvalidArgument, r"durations\[1\] is 4294967296"),
    ([9000, 4500.0, 560], m2m.WrongType, r"durations\[1\] is 4500.0 \(float\)"),
    ([9000, "x", 560], m2m.WrongType, r"durations\[1\] is 'x'"),
    (np.array([9000.0, 4500.0, 560.0]), m2m.WrongType, "integers, not float64"),
    ("9000", m2m.WrongType, r"durations takes a sequence of microseconds.*\(str\)"),
    ([560] * 1025, m2m.InvalidArgument, "refused 1025 timings"),
])
def test_bad_raw_timings_are_named(rc, timings, exc, match):
    rc.protocols = {"nec"}
    with pytest.raises(exc, match=match):
        rc.send_raw(timings)


def test_a_closed_device_raises_device_closed():
    rc = m2m.ir.open("vhqv-ir")
    fd = rc.fileno()
    assert fd >= 0
    rc.close()
    assert rc.closed and "closed" in repr(rc)
    with pytest.raises(m2m.DeviceClosed, match="vhqv-ir is closed") as info:
        rc.send("nec", 1)
    assert info.value.errno == errno.EBADF
    with pytest.raises(m2m.DeviceClosed):
        rc.read(timeout=0)
    rc.close()


# ----------------------------------------------------------------------
# Waiting: Ctrl-C gets out of reads without a timeout; others run meanwhile

def test_ctrl_c_interrupts_every_read_without_timeout():
    setup = 'import m2m.ir\nrc = m2m.ir.open("vhqv-ir")\nrc.protocols = {"nec"}'
    latencies = interrupt_latencies({block: (setup, block) for block in
                                     ("rc.read()", "next(iter(rc))", "rc.read_raw()")})
    for block, latency in latencies.items():
        print(f"{block}: KeyboardInterrupt {latency * 1000:.1f} ms after SIGINT")
    assert {block: latency for block, latency in latencies.items() if latency >= LATENCY_S} == {}


def test_another_thread_runs_and_sends_while_one_reads(rc):
    rc.protocols = {"nec"}
    keys = []
    reader = threading.Thread(target=lambda: keys.append(rc.read()))
    reader.start()
    time.sleep(0.05)
    count, end = 0, time.monotonic() + 0.2
    while time.monotonic() < end:
        count += 1
    assert reader.is_alive() and not keys
    rc.send("nec", 0x0505)
    reader.join(10)
    assert [k.scancode for k in keys] == [0x0505]
    # Holding the GIL while reading would leave this thread at 0 or so.
    assert count > 1000
