# SPDX-License-Identifier: LGPL-2.1-or-later
"""Infrared: Linux remote-control (rc-core) devices through libm2m's IR API.

An rc device receives infrared as mark/space timings that the kernel
decodes into scancodes, for the protocols enabled on it, and may send
them. vhqv's ``vhqv-ir`` loops what it sends back into its receiver::

    import m2m.ir

    with m2m.ir.open("vhqv-ir") as rc:
        rc.protocols = {"nec", "rc-6"}       # enable decoders
        rc.send("nec", 0x04a1)                # the kernel encodes it
        key = rc.read(timeout=1.0)            # Scancode(protocol='nec', scancode=0x4a1, ...)
        rc.send_raw(m2m.ir.encode("rc-5", 0x1e05))   # libm2m's encoder, raw pulses
        for key in rc.scancodes(timeout=1.0): # until none comes for 1 s
            print(key.protocol, hex(key.scancode))

Protocols are named as lirc and ``ir-ctl`` name them (:data:`PROTOCOLS`:
"nec", "nec-x", "rc-5", "rc-6-0", "sony-12", ...; any case, and ir-ctl's
spellings without dashes such as "sony12" or "rc6_0" are taken too).
Unknown names, scancodes a protocol cannot carry (libm2m's
``m2m_ir_check_scancode()``, the kernel's rules) and timings lirc would
refuse raise :class:`~m2m.InvalidArgument` (a :class:`ValueError`) naming
the problem before anything is sent; values of the wrong type (a float
scancode, a bool) raise :class:`~m2m.WrongType` (also a
:class:`TypeError`).

:meth:`Device.read` returns None when nothing came in time, as
``dev.events.get()`` does; iterating a Device waits for ever for each
scancode, :meth:`Device.scancodes` stops after a quiet ``timeout``,
``async for`` waits in an asyncio loop, and :meth:`Device.fileno` serves
``selectors`` (:meth:`Device.raw_fileno` for raw timings).
"""
from __future__ import annotations

import asyncio
import errno as _errno
from dataclasses import dataclass
from typing import (AbstractSet, Any, AsyncIterator, FrozenSet, Iterable, Iterator, List, NamedTuple,
                    Optional, Sequence, Union)

import numpy as np

from . import _args, _waiting, capi
from ._errors import DeviceClosed, DeviceNotFound, InvalidArgument, NotFound, OutOfRange
from ._memory import Handle

# Room for encoded timings: lirc's own limit for one write (LIRCBUF_SIZE).
_MAX_TIMINGS = 1024

# Every name libm2m knows, by enum rc_proto value.
_NAMES = {p: capi.m2m_ir_protocol_name(p) for p in range(64)
          if capi.m2m_ir_protocol_name(p) is not None}
_NUMBERS = {name: p for p, name in _NAMES.items()}

#: Every IR protocol name libm2m knows (enum rc_proto order), e.g. "nec".
PROTOCOLS = tuple(_NAMES.values())

#: The protocols :func:`encode` (libm2m's own encoder) encodes, as libm2m
#: says (m2m_ir_encoders()): "nec", "nec-x", "nec-32", "rc-5", "rc-6-0",
#: "sony-12".
ENCODERS = tuple(name for p, name in _NAMES.items() if capi.m2m_ir_encoders() >> p & 1)

# Raw values' kinds (the top byte of lirc's LIRC_MODE_MODE2 values).
_KINDS = {
    capi.LIRC_MODE2_PULSE: "pulse",
    capi.LIRC_MODE2_SPACE: "space",
    capi.LIRC_MODE2_FREQUENCY: "frequency",
    capi.LIRC_MODE2_TIMEOUT: "timeout",
    capi.LIRC_MODE2_OVERFLOW: "overflow",
}


def _protocol(name, argument="protocol"):
    """The enum rc_proto value and the canonical name of a protocol name."""
    _args.string(name, argument, "an IR protocol name such as \"nec\"")
    try:
        number = capi.m2m_ir_protocol_from_name(name)
    except InvalidArgument:
        raise InvalidArgument(_errno.EINVAL, f"unknown IR protocol {name!r} "
                              f"(known: {', '.join(PROTOCOLS)})") from None
    return number, _NAMES[number]


def _protocol_set(names):
    """{number: canonical name} of a name or an iterable of names; every
    unknown name is named in one exception."""
    if isinstance(names, str):
        names = [names]
    try:
        names = list(names)
    except TypeError:
        raise _args.wrong_type("protocols", "a set of names such as {\"nec\", \"rc-5\"}, "
                               "or one name", names) from None
    found, unknown = {}, []
    for name in names:
        try:
            number, canonical = _protocol(name, "protocols")
        except InvalidArgument as e:
            if isinstance(e, TypeError):
                raise
            unknown.append(name)
            continue
        found[number] = canonical
    if unknown:
        what = ", ".join(repr(n) for n in unknown)
        raise InvalidArgument(_errno.EINVAL, f"unknown IR protocol{'s' if len(unknown) > 1 else ''} "
                              f"{what} (known: {', '.join(PROTOCOLS)})")
    return found


def _names(bits):
    return frozenset(name for p, name in _NAMES.items() if bits >> p & 1)


def _check_scancode(number, name, scancode):
    """A scancode the protocol can carry, by libm2m's check (the kernel's
    scancode bits and rc_validate_scancode()), else OutOfRange saying
    why; a value that is not an integer is WrongType."""
    if not _args.is_integer(scancode):
        raise _args.wrong_type("scancode", f"a {name} scancode, an integer", scancode)
    scancode = int(scancode)
    if not 0 <= scancode < 2 ** 64:
        raise OutOfRange(_errno.ERANGE, f"scancode {scancode} is out of the range of {name}: "
                         f"its bits are 0x{capi.m2m_ir_scancode_bits(number):x}")
    capi.m2m_ir_check_scancode(number, scancode)
    return scancode


def _check_durations(durations):
    """Timings to send, checked as lirc checks them (a mark first: an odd
    count, none 0); a numpy uint32 array as it is, else a list."""
    takes = "a sequence of microseconds (a list or a numpy uint32 array)"
    if isinstance(durations, (str, bytes)) or not hasattr(durations, "__len__"):
        raise _args.wrong_type("durations", takes, durations)
    if isinstance(durations, np.ndarray):
        if durations.ndim != 1:
            raise InvalidArgument(_errno.EINVAL, f"durations must be one-dimensional, "
                                  f"not shaped {durations.shape}")
        if durations.dtype.kind not in "iu":
            raise _args.WrongType(_errno.EINVAL, f"durations takes {takes}: integers, "
                                  f"not {durations.dtype}")
        values = durations
    else:
        values = list(durations)
        for i, v in enumerate(values):
            if not _args.is_integer(v):
                raise _args.WrongType(_errno.EINVAL, f"durations[{i}] is {v!r} "
                                      f"({type(v).__name__}), not an integer number of "
                                      "microseconds")
    count = len(values)
    if count == 0:
        raise InvalidArgument(_errno.EINVAL, "no timings to send: give at least one mark")
    if count % 2 == 0:
        raise InvalidArgument(_errno.EINVAL, f"{count} timings: send an odd number, "
                              "mark, space, ..., mark")
    for i, v in enumerate(values):
        if not 0 < int(v) <= 0xffffffff:
            raise InvalidArgument(_errno.EINVAL, f"durations[{i}] is {int(v)}: each "
                                  "timing must be from 1 to 2**32 - 1 microseconds")
    if isinstance(values, np.ndarray):
        return np.ascontiguousarray(values, dtype=np.uint32)
    return [int(v) for v in values]


@dataclass(frozen=True)
class Scancode:
    """A decoded scancode (lirc's struct lirc_scancode).

    ``protocol`` is its protocol's name ("nec"), ``scancode`` the value,
    ``toggle`` and ``repeat`` lirc's flags (RC-5 and RC-6 toggle a bit on
    each new press; NEC sends repeat codes), ``keycode`` the input key the
    device's keymap gives it (0, KEY_RESERVED, if none) and
    ``timestamp_ns`` when it was decoded (CLOCK_MONOTONIC).

    Example::

        key = rc.read(timeout=1.0)
        if key is not None and key.protocol == "nec":
            print(hex(key.scancode), key.keycode, key.repeat)
    """
    protocol: str
    scancode: int
    toggle: bool = False
    repeat: bool = False
    keycode: int = 0
    timestamp_ns: int = 0

    @classmethod
    def _from(cls, sc):
        return cls(_NAMES.get(sc.protocol, str(sc.protocol)), sc.scancode,
                   bool(sc.flags & capi.LIRC_SCANCODE_FLAG_TOGGLE),
                   bool(sc.flags & capi.LIRC_SCANCODE_FLAG_REPEAT),
                   sc.keycode, sc.timestamp_ns)

    def __repr__(self):
        flags = "".join(f", {f}=True" for f in ("toggle", "repeat") if getattr(self, f))
        return (f"Scancode(protocol={self.protocol!r}, scancode=0x{self.scancode:x}{flags}, "
                f"keycode={self.keycode}, timestamp_ns={self.timestamp_ns})")


class Timing(NamedTuple):
    """A received raw value (lirc LIRC_MODE_MODE2): ``kind`` is "pulse"
    (a mark), "space", "timeout" (the receiver's idle timeout ended a
    frame), "frequency" (a measured carrier, in Hz) or "overflow";
    ``value`` is microseconds (Hz for a frequency).

    Example::

        marks = [t.value for t in rc.read_raw(timeout=1) if t.kind == "pulse"]
    """
    kind: str
    value: int

    @classmethod
    def _from(cls, raw):
        return cls(_KINDS.get(raw & capi.LIRC_MODE2_MASK, f"0x{raw >> 24:02x}"),
                   raw & capi.LIRC_VALUE_MASK)


@dataclass(frozen=True)
class DeviceInfo:
    """What an rc device says about itself: ``name`` ("vhqv-ir"),
    ``driver`` ("vhqv"), ``sysfs`` ("/sys/class/rc/rc0"), ``lirc``
    ("/dev/lirc0", "" if none), ``protocols`` (the names it can decode),
    ``enabled`` (those it decodes now) and ``can_send``.

    Example::

        for info in m2m.ir.devices():
            print(info.name, info.lirc, sorted(info.enabled))
    """
    name: str
    driver: str
    sysfs: str
    lirc: str
    protocols: FrozenSet[str]
    enabled: FrozenSet[str]
    can_send: bool

    @classmethod
    def _from(cls, info):
        return cls(info.name, info.driver, info.sysfs, info.lirc, _names(info.protocols),
                   _names(info.enabled), bool(info.can_send))


def devices() -> List[DeviceInfo]:
    """Every rc device of the system, in /sys/class/rc order.

    Example::

        >>> [d.name for d in m2m.ir.devices()]
        ['vhqv-ir']
    """
    return [DeviceInfo._from(i) for i in capi.m2m_ir_list()]


def encode(protocol: str, scancode: int) -> List[int]:
    """Encode a scancode with libm2m's own encoder, for devices that send
    raw timings but cannot encode: "nec", "nec-x", "nec-32", "rc-5",
    "rc-6-0" and "sony-12", with the kernel's scancode layouts and timings.

    :returns: the mark/space timings in microseconds, a mark first (an odd
        count), as a list of ints; :meth:`Device.send_raw` sends them
    :raises InvalidArgument: an unknown protocol, or one libm2m does not
        encode (naming it)
    :raises OutOfRange: a scancode the protocol cannot carry (naming its
        bits)

    Example::

        >>> m2m.ir.encode("rc-5", 0x1e05)[:4]
        [889, 889, 1778, 1778]
        rc.send_raw(m2m.ir.encode("nec", 0x04a1))
    """
    number, name = _protocol(protocol)
    if name not in ENCODERS:
        raise InvalidArgument(_errno.EINVAL, f"libm2m has no encoder for {name} (it encodes "
                              f"{', '.join(ENCODERS)}); Device.send() has the kernel "
                              "encode it")
    scancode = _check_scancode(number, name, scancode)
    return capi.m2m_ir_encode(_MAX_TIMINGS, number, scancode)


def open(name: str = "auto") -> Device:  # pylint: disable=redefined-builtin
    """Open an rc device.

    :param name: its device name ("vhqv-ir"), its driver ("vhqv"), "rcN",
        its lirc node ("/dev/lirc0"), or "auto" (the first that can send,
        else the first)
    :raises DeviceNotFound: when there is no such device, or it has no
        lirc node

    Example::

        with m2m.ir.open("vhqv-ir") as rc:
            rc.protocols = {"nec"}
            rc.send("nec", 0x04a1)
            print(rc.read(timeout=1.0))
    """
    return Device(name)


class Device:
    """An open rc device; :func:`open` gives one. A context manager.

    - :attr:`protocols`: the decoders enabled, as a set of names;
    - :meth:`send` a scancode (the kernel encodes it), :meth:`send_raw`
      timings (e.g. from :func:`encode`);
    - :meth:`read` the next decoded :class:`Scancode` (None on timeout),
      or iterate: ``for key in rc`` (for ever), :meth:`scancodes` (until a
      quiet timeout), ``async for key in rc``;
    - :meth:`read_raw` received timings; :meth:`fileno` and
      :meth:`raw_fileno` for selectors.

    Closing (``close()``, leaving ``with``) makes every method raise
    :class:`~m2m.DeviceClosed`.

    Example::

        with m2m.ir.open("vhqv-ir") as rc:
            rc.protocols = {"rc-5"}
            rc.send("rc-5", 0x1e05)
            for key in rc:                   # waits for each
                print(key.protocol, hex(key.scancode))
                break
    """

    def __init__(self, name="auto"):
        self._handle = None
        _args.string(name, "name", "a device name, a driver, \"rcN\", a lirc node or \"auto\"")
        try:
            ptr = capi.m2m_ir_open(name)
        except NotFound as e:
            raise DeviceNotFound(e.errno, e.strerror) from None
        self._handle = Handle(ptr, "m2m_ir_close")
        info = DeviceInfo._from(capi.m2m_ir_get_info(ptr))
        self.name, self.driver, self.sysfs, self.lirc = (info.name, info.driver, info.sysfs,
                                                         info.lirc)
        self.can_send = info.can_send

    def close(self) -> None:
        """Close the device; its methods raise :class:`~m2m.DeviceClosed`
        afterwards. Closing twice is harmless.

        Example::

            rc = m2m.ir.open("vhqv-ir")
            rc.close()
        """
        self._handle = None

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._handle is None

    def __enter__(self) -> Device:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self):
        return f"<m2m.ir.Device {self.name} {'closed' if self.closed else self.lirc}>"

    def _h(self):
        h = self._handle
        if h is None:
            raise DeviceClosed(_errno.EBADF, f"the IR device {self.name} is closed")
        return h

    @property
    def info(self) -> DeviceInfo:
        """A :class:`DeviceInfo`, with the protocols as they are now.

        Example::

            print(rc.info.lirc, sorted(rc.info.protocols))
        """
        return DeviceInfo._from(capi.m2m_ir_get_info(self._h().ptr))

    @property
    def supported_protocols(self) -> FrozenSet[str]:
        """The names of the protocols the device can decode (a frozenset).

        Example::

            if "rc-6-mce" in rc.supported_protocols:
                rc.protocols = {"rc-6-mce"}
        """
        return self.info.protocols

    @property
    def protocols(self) -> AbstractSet[str]:  # a frozenset, set from any set
        """The protocols decoded now, as a frozenset of names; set it to a
        set of names (or one name) to enable exactly their decoders, as
        ``ir-keytable -p`` does. A decoder decodes its whole family, so
        after ``rc.protocols = {"nec"}`` this reads ``{"nec", "nec-x",
        "nec-32"}``; an empty set disables every decoder. Unknown names,
        and protocols the device cannot decode, raise
        :class:`~m2m.InvalidArgument` naming them.

        Example::

            rc.protocols = {"nec", "rc-6-0"}
            assert "nec-x" in rc.protocols
            rc.protocols = set()             # decode nothing
        """
        return self.info.enabled

    @protocols.setter
    def protocols(self, names: Union[str, Iterable[str]]) -> None:
        wanted = _protocol_set(names)
        h = self._h()
        supported = DeviceInfo._from(capi.m2m_ir_get_info(h.ptr)).protocols
        missing = sorted(name for name in wanted.values() if name not in supported)
        if missing:
            raise InvalidArgument(_errno.EINVAL, f"{self.name} cannot decode "
                                  f"{', '.join(missing)} (it decodes: "
                                  f"{', '.join(p for p in PROTOCOLS if p in supported)})")
        bits = 0
        for number in wanted:
            bits |= 1 << number
        capi.m2m_ir_set_protocols(h.ptr, bits)

    def send(self, protocol: str, scancode: int) -> None:
        """Send a scancode, encoded by the kernel's encoder for the protocol
        (lirc LIRC_MODE_SCANCODE). Enable the protocol's decoder to read it
        back on vhqv-ir.

        :raises InvalidArgument: an unknown protocol (naming it), or one
            the kernel does not encode
        :raises OutOfRange: a scancode the protocol cannot carry (naming
            its bits)

        Example::

            rc.send("nec", 0x04a1)
            rc.send("rc-6-mce", 0x800f0410)
        """
        number, name = _protocol(protocol)
        scancode = _check_scancode(number, name, scancode)
        h = self._h()
        try:
            capi.m2m_ir_send_scancode(h.ptr, number, scancode)
        except InvalidArgument as e:
            raise InvalidArgument(e.errno, f"{self.lirc} refused {name} scancode "
                                  f"0x{scancode:x}: the kernel has no encoder for {name} "
                                  f"({e.strerror})") from None

    def send_raw(self, durations: Union[Sequence[int], np.ndarray[Any, np.dtype[Any]]]) -> None:
        """Send mark/space timings in microseconds, a mark first (lirc
        LIRC_MODE_PULSE): an odd count, none 0.

        :param durations: a list (any sequence) of integers, or a numpy
            integer array (uint32 is passed without a copy)
        :raises InvalidArgument: no timings, an even count, or a timing
            that is 0, negative or too large (naming it); more timings, or
            longer in all, than the device takes (lirc: 512 or 1024 values,
            500 ms)
        :raises TypeError: a value that is not an integer (naming it)

        Example::

            rc.send_raw([9000, 4500, 560])                 # an NEC leader
            rc.send_raw(np.array(m2m.ir.encode("rc-5", 0x1e05), np.uint32))
        """
        values = _check_durations(durations)
        h = self._h()
        try:
            capi.m2m_ir_send_raw(h.ptr, values)
        except InvalidArgument as e:
            raise InvalidArgument(e.errno, f"{self.lirc} refused {len(values)} timings "
                                  f"({sum(int(v) for v in values)} us): more than it sends "
                                  f"at once, or too long ({e.strerror})") from None

    def read(self, timeout: Optional[float] = None) -> Optional[Scancode]:
        """The next decoded scancode, waiting up to ``timeout`` seconds
        (None: for ever, Ctrl-C ending the wait; 0: not at all); None when
        none came in time.

        Example::

            key = rc.read(timeout=1.0)
            if key is None:
                print("no key in a second")
        """
        h = self._h()

        def take(ms):
            try:
                return Scancode._from(capi.m2m_ir_read_scancode(h.ptr, ms))
            except TimeoutError:
                return None
        return _waiting.wait(take, timeout)

    def scancodes(self, timeout: Optional[float] = None) -> Iterator[Scancode]:
        """An iterator of decoded scancodes as they come; it ends when none
        comes for ``timeout`` seconds (None: it never ends).

        Example::

            rc.send("nec", 0x0101)
            rc.send("nec", 0x0202)
            codes = [k.scancode for k in rc.scancodes(timeout=0.5)]   # [0x101, 0x202]
        """
        timeout = _args.seconds(timeout)
        self._h()
        return self._scancodes(timeout)

    def _scancodes(self, timeout):
        while (key := self.read(timeout)) is not None:
            yield key

    def __iter__(self) -> Iterator[Scancode]:
        return self.scancodes()

    def __aiter__(self) -> AsyncIterator[Scancode]:
        return self

    async def __anext__(self) -> Scancode:
        """The next decoded scancode, waiting in the running asyncio loop."""
        loop = asyncio.get_running_loop()
        fd = self.fileno()
        while True:
            key = self.read(timeout=0)
            if key is not None:
                return key
            readable = loop.create_future()
            loop.add_reader(fd, _waiting.settle, readable)
            try:
                await readable
            finally:
                loop.remove_reader(fd)

    def read_raw(self, timeout: Optional[float] = None,
                 max_values: int = 512) -> Optional[List[Timing]]:
        """Received raw timings (lirc LIRC_MODE_MODE2), as many as are
        there (up to ``max_values``, 1 to 2**20) once the first came within
        ``timeout`` seconds (None: for ever, Ctrl-C ending the wait; 0: not
        at all): a list of :class:`Timing`, or None when none came. They
        are kept apart from scancodes (each has its own lirc file): what is
        read here is not taken from :meth:`read`. :meth:`raw_fileno` is
        readable when there are some.

        Example::

            rc.send("sony-12", 0x10015)
            timings = rc.read_raw(timeout=1.0)
            marks = [t.value for t in timings if t.kind == "pulse"]
        """
        max_values = _args.integer(max_values, "max_values", 1, 1 << 20)
        h = self._h()

        def take(ms):
            try:
                return capi.m2m_ir_read_raw(h.ptr, max_values, ms)
            except TimeoutError:
                return None
        values = _waiting.wait(take, timeout)
        return None if values is None else [Timing._from(v) for v in values]

    def raw_fileno(self) -> int:
        """An fd for ``select``/``selectors``/asyncio, readable when
        :meth:`read_raw` has timings (m2m_ir_get_raw_fd(): the raw lirc
        file, apart from the scancodes'). Do not read or close it.

        Example::

            sel = selectors.DefaultSelector()
            sel.register(rc.raw_fileno(), selectors.EVENT_READ)
            if sel.select(timeout=1.0):
                print(rc.read_raw(timeout=0))
        """
        return capi.m2m_ir_get_raw_fd(self._h().ptr)

    def fileno(self) -> int:
        """An fd for ``select``/``selectors``/asyncio, readable when
        :meth:`read` has a scancode. Do not read or close it.

        Example::

            sel = selectors.DefaultSelector()
            sel.register(rc, selectors.EVENT_READ)
            for _ in sel.select(timeout=1.0):
                print(rc.read(timeout=0))
        """
        return capi.m2m_ir_get_fd(self._h().ptr)


__all__ = ["ENCODERS", "PROTOCOLS", "Device", "DeviceInfo", "Scancode", "Timing", "devices", "encode",
           "open"]
