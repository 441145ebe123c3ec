# SPDX-License-Identifier: LGPL-2.1-or-later
"""Decoders: coded packets in, numpy frames out (include/m2m/codec.h).

:class:`Decoder` drives a stateful decoder node (vicodec, bcm2835-codec,
venus, ...) as the kernel's dev-decoder.rst says, through libm2m's
``m2m_decoder``: resolution changes, drains and seeks are the library's.
Its frames are copies of the visible picture, the caller's to keep: the
decoder's CAPTURE buffer goes back to it at once, so a caller that keeps
frames never stalls the decoder, and no array ever views memory that a
resolution change unmaps. (PyAV's frames are references to FFmpeg's
buffers instead; a frame here costs one copy: 6 us for 640x360 4:2:0,
70 us for 1920x1080, numpy on an AMD EPYC with the frame in cache.)
"""
from __future__ import annotations

import ctypes
import math
import numbers
import os
import struct
import threading
from typing import Any, Iterable, Iterator, Optional, Sequence, Tuple, Union

import numpy as np

from . import _args, _waiting, capi
from ._errors import (DeviceClosed, DeviceNotFound, EndOfStream, InvalidArgument, NotFound,
                      Timeout, WouldBlock)
from ._formats import format_name, fourcc, plane_layouts, plane_views
from ._frame import Frame

#: A packet: coded bytes (any C-contiguous buffer: bytes, bytearray,
#: memoryview, a uint8 numpy array), or (bytes, timestamp in ns).
Packet = Union[bytes, bytearray, memoryview, Tuple[Any, int]]

# v4l2-ctl --stream-to-hdr's packet header: v4l2_fourcc('V','h','d','r')
# then the packet's length, both written with htonl() (big-endian).
_HDR_MAGIC = ord("V") | ord("h") << 8 | ord("d") << 16 | ord("r") << 24
_HDR = struct.Struct(">II")

# The longest send() timeout: libm2m's is an int of milliseconds.
_MAX_TIMEOUT_S = (2 ** 31 - 1) // 1000


class DecodedFrame(Frame):
    """A decoded picture: a :class:`Frame` of copies of the visible
    rectangle (V4L2's COMPOSE on CAPTURE, e.g. 640x360 of vicodec's
    640x368 coded buffer), with the :attr:`timestamp_ns` of the packet it
    came from, its :attr:`sequence` and :attr:`error`.

    Example::

        for frame in dec.decode(packets):
            y, cb, cr = frame                  # YUV420 planes, owned
            print(frame.timestamp_ns, frame.width, frame.height)
    """

    __slots__ = ("_meta_values",)

    _meta_values: dict[str, Any]

    def _meta(self, name, default=None):
        return self._meta_values.get(name, default)

    @property
    def visible(self) -> Tuple[int, int, int, int]:
        """(left, top, width, height) of the picture in the decoder's
        coded buffer: what these planes were cut from.

        Example::

            left, top, width, height = frame.visible
        """
        return self._meta_values["visible"]


class Decoder:
    """A stateful decoder node: packets in, :class:`DecodedFrame` out. A
    context manager.

    :param node: a node path ("/dev/video1") or a driver name
        ("vicodec"), as :func:`m2m.open` takes
    :param coded: the coded format: a four-character code ("FWHT") or a
        fourcc; :class:`DeviceNotFound` when the node does not decode it
    :param capture: the decoded pixel format ("YUV420", ...), or None for
        the decoder's choice
    :param size: (width, height) of the stream when known, or None: the
        decoder reads it from the stream
    :param timeout: how long :meth:`send` may wait for the decoder to take
        a packet, in seconds (> 0); then :class:`Timeout`

    :meth:`decode` is the usual way: it sends packets, yields frames as
    they come, and drains at the end so that none is lost. Step by step,
    :meth:`send` says whether the decoder took a packet (False: receive
    first), :meth:`receive` takes a frame, :meth:`drain` ends the stream.
    A resolution change in the stream is followed: frames of the old size
    come first, then the new ones. One thread at a time: calls take the
    decoder's lock, and :meth:`close` from another thread waits for the
    call running.

    Example::

        packets = m2m.read_hdr_stream("clip.fwht")   # v4l2-ctl --stream-to-hdr
        with m2m.Decoder("vicodec") as dec:
            for frame in dec.decode(packets):
                y, cb, cr = frame
    """

    def __init__(self, node: str, coded: Union[str, int] = "FWHT", *,
                 capture: Optional[Union[str, int]] = None,
                 size: Optional[Sequence[int]] = None, timeout: float = 5.0) -> None:
        self._ptr = None
        self._lock = threading.Lock()
        self._node = _args.string(node, "node", "a node path or a driver name")
        opts = capi.m2m_decoder_options()
        opts.version = capi.M2M_DECODER_OPTIONS_VERSION
        opts.coded_fourcc = _coded(coded)
        opts.capture_fourcc = 0 if capture is None else _capture(capture)
        if size is not None:
            opts.width, opts.height = _args.dimensions(size, "size")
        opts.timeout_ms = _timeout_ms(timeout)
        try:
            self._ptr = capi.m2m_decoder_open(node, opts)
        except NotFound as e:
            raise DeviceNotFound(e.errno, e.strerror) from None

    def __enter__(self) -> Decoder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()

    def close(self) -> None:
        """Close the decoder: the node stops and its buffers are freed.
        Frames already given stay valid (they are copies). Its methods
        raise :class:`DeviceClosed` afterwards; closing twice is harmless.

        Example::

            dec = m2m.Decoder("vicodec")
            dec.close()
        """
        lock = getattr(self, "_lock", None)
        if lock is None:
            return
        with lock:
            ptr, self._ptr = self._ptr, None
            if ptr is not None and capi is not None and capi.m2m_decoder_close is not None:
                capi.m2m_decoder_close(ptr)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._ptr is None

    def __repr__(self) -> str:
        return f"<m2m.Decoder {self._node}{' closed' if self._ptr is None else ''}>"

    def _call(self, function, *args):
        """function(decoder, *args) under the lock, or DeviceClosed."""
        with self._lock:
            if self._ptr is None:
                raise DeviceClosed(9, f"the decoder on {self._node} is closed")
            return function(self._ptr, *args)

    @property
    def format(self) -> Optional[capi.m2m_format]:
        """The decoded (CAPTURE) format, a ``capi.m2m_format`` of the
        coded size, or None before the decoder has read the stream's
        header.

        Example::

            fmt = dec.format
            print(m2m.format_name(fmt.fourcc), fmt.width, fmt.height)
        """
        found = self._format()
        return None if found is None else found[0]

    @property
    def visible(self) -> Optional[Tuple[int, int, int, int]]:
        """(left, top, width, height) of the picture in :attr:`format`, or
        None before the decoder has read the stream's header.

        Example::

            left, top, width, height = dec.visible    # (0, 0, 640, 360)
        """
        found = self._format()
        return None if found is None else _rect(found[1])

    def _format(self):
        try:
            return self._call(capi.m2m_decoder_get_format)
        except WouldBlock:
            return None

    def send(self, packet: Any, timestamp_ns: int = 0) -> bool:
        """Give the decoder one packet (a coded frame; a chunk of the
        stream for a byte-stream format), copied. The frame decoded from
        it carries ``timestamp_ns`` in whole microseconds, which is what
        V4L2 carries (``struct timeval``): the nanoseconds below are
        dropped, as in FFmpeg's and GStreamer's V4L2 decoders, so a
        stream's timestamps must differ by 1 us at least. Sending after a
        drain starts a new stream.

        :returns: True when the decoder took it; False when every OUTPUT
            buffer is taken and the decoder waits for frames to be
            received first (:meth:`receive`), then send it again
        :raises Timeout: the decoder took nothing within ``timeout``
        :raises BufferTooSmall: the packet is larger than an OUTPUT buffer
        :raises WrongType: a packet that is no C-contiguous buffer

        Example::

            while not dec.send(packet, timestamp_ns=ts):
                frames.append(dec.receive(timeout=1.0))
        """
        timestamp_ns = _args.integer(timestamp_ns, "timestamp_ns", 0, 2 ** 64 - 1)
        _check_packet(packet, "packet")
        try:
            self._call(capi.m2m_decoder_send, packet, timestamp_ns)
        except WouldBlock:
            return False
        return True

    def receive(self, timeout: Optional[float] = 0.0) -> Optional[DecodedFrame]:
        """The next decoded frame, waiting up to ``timeout`` seconds (None:
        for ever, Ctrl-C ending the wait); None when none came in time.

        :raises EndOfStream: after a drain's last frame (:meth:`drain`)

        Example::

            frame = dec.receive(timeout=0.5)
        """
        timeout = _args.seconds(timeout)
        return _waiting.wait(self._receive, timeout)

    def _receive(self, ms):
        """One receive of up to ms: a DecodedFrame, or None."""
        with self._lock:
            if self._ptr is None:
                raise DeviceClosed(9, f"the decoder on {self._node} was closed")
            try:
                frame = capi.m2m_decoder_receive(self._ptr, ms)
            except WouldBlock:
                return None
            try:
                return _copied(frame)
            finally:
                capi.m2m_decoder_release(self._ptr, frame)

    def drain(self, timeout: Optional[float] = 5.0) -> Iterator[DecodedFrame]:
        """End the stream: the decoder finishes what it was sent
        (V4L2_DEC_CMD_STOP, at once), and the iterator returned yields
        those frames, waiting up to ``timeout`` seconds for each (None:
        for ever); :class:`Timeout` if one does not come. A drain before
        anything was sent yields nothing.

        Example::

            for frame in dec.drain():
                keep(frame)
        """
        timeout = _args.seconds(timeout)
        self._call(capi.m2m_decoder_drain)
        return self._rest(timeout)

    def _rest(self, timeout):
        while True:
            try:
                frame = self.receive(timeout)
            except EndOfStream:
                return
            if frame is None:
                raise _timeout(self._node, timeout)
            yield frame

    def seek(self) -> None:
        """Drop what was sent and not yet received (dev-decoder.rst,
        "Seek"): packets sent afterwards decode as a new start, from a key
        frame.

        Example::

            dec.seek()
            frames = list(dec.decode(packets[keyframe:]))
        """
        self._call(capi.m2m_decoder_seek)

    def decode(self, packets: Iterable[Packet], timeout: Optional[float] = 5.0
               ) -> Iterator[DecodedFrame]:
        """Decode a stream: send each packet (bytes-like, or ``(bytes,
        timestamp_ns)``; a bare packet's timestamp is its index in
        ``packets`` in microseconds, ``1000 * i``), yield each frame as
        it comes, and drain at the end, so every frame is given. Frames are waited for up to
        ``timeout`` seconds when the decoder needs them taken before it
        takes more; :class:`Timeout` then.

        Example::

            with m2m.Decoder("vicodec") as dec:
                frames = list(dec.decode(m2m.read_hdr_stream("clip.fwht")))
        """
        timeout = _args.seconds(timeout)
        return self._decode(packets, timeout)

    def _decode(self, packets, timeout):
        for i, packet in enumerate(packets):
            data, timestamp_ns = _packet(packet, i)
            while not self.send(data, timestamp_ns):
                frame = self.receive(timeout)
                if frame is None:
                    raise _timeout(self._node, timeout)
                yield frame
            yield from iter(lambda: self.receive(0), None)
        yield from self.drain(timeout)


def read_hdr_stream(path: Union[str, os.PathLike[str]]) -> Iterator[bytes]:
    """The packets of a file v4l2-ctl wrote with ``--stream-to-hdr``: each
    is the word ``v4l2_fourcc('V','h','d','r')`` and the packet's length,
    both big-endian, then the packet (the bytes "rdhV" on disk).

    :raises InvalidArgument: naming the file and the byte where it is not
        such a stream, or where a packet runs past its end

    Example::

        with m2m.Decoder("vicodec") as dec:
            frames = list(dec.decode(m2m.read_hdr_stream("clip.fwht")))
    """
    if not isinstance(path, (str, os.PathLike)):
        raise _args.wrong_type("path", "a file's path (str or os.PathLike)", path)
    return _hdr_packets(os.fspath(path))


def _hdr_packets(path):
    with open(path, "rb") as f:
        at = 0
        while True:
            head = f.read(_HDR.size)
            if not head:
                return
            if len(head) < _HDR.size:
                raise InvalidArgument(22, f"path {path!r}: {len(head)} bytes at byte {at}, "
                                      "not a packet header")
            magic, size = _HDR.unpack(head)
            if magic != _HDR_MAGIC:
                raise InvalidArgument(22, f"path {path!r}: no packet header at byte {at} "
                                      f"(0x{magic:08x}, not Vhdr): not a v4l2-ctl "
                                      "--stream-to-hdr file")
            packet = f.read(size)
            if len(packet) < size:
                raise InvalidArgument(22, f"path {path!r}: the packet at byte {at} has "
                                      f"{size} bytes, the file {len(packet)} more")
            at += _HDR.size + size
            yield packet


def _copied(frame):
    """A DecodedFrame of copies of the visible picture of capi frame."""
    fmt = frame.format
    name = format_name(fmt.fourcc)
    memory = [(ctypes.c_uint8 * fmt.plane_size[p]).from_address(
        capi.m2m_py_buffer_address(frame.buffer, p)) for p in range(fmt.num_planes)]
    left, top, width, height = visible = _rect(frame.visible)
    planes = []
    for pl, view in zip(plane_layouts(fmt), plane_views(fmt, memory)):
        # A plane's subsampling: YUV420's chroma planes are half the size.
        x_sub, y_sub = fmt.width // pl.width, fmt.height // pl.height
        planes.append(np.array(view[top // y_sub:(top + height + y_sub - 1) // y_sub,
                                    left // x_sub:(left + width + x_sub - 1) // x_sub]))
    decoded = DecodedFrame._of(planes, name, fmt)
    decoded.width, decoded.height = width, height
    decoded._meta_values = {"timestamp_ns": frame.timestamp_ns, "sequence": frame.sequence,
                            "flags": frame.flags, "visible": visible}
    return decoded


def _rect(rect):
    return (rect.left, rect.top, rect.width, rect.height)


def _coded(value):
    """A coded format's fourcc: four characters ("FWHT") or the code."""
    if isinstance(value, str) and len(value) == 4 and value.isascii():
        return sum(ord(c) << (8 * i) for i, c in enumerate(value))
    if _args.is_integer(value) and 0 < value < 2 ** 32:
        return int(value)
    if isinstance(value, str) or _args.is_integer(value):
        raise InvalidArgument(22, f"coded takes a four-character code such as \"FWHT\" "
                              f"or a fourcc, not {value!r}")
    raise _args.wrong_type("coded", "a four-character code such as \"FWHT\" or a fourcc",
                           value)


def _capture(value):
    try:
        return fourcc(value)
    except InvalidArgument as e:
        raise type(e)(e.errno, f"capture={value!r}: {e.strerror}") from None


def _timeout_ms(value):
    """send()'s timeout in whole ms, at least 1 (0 is libm2m's default)."""
    takes = f"a number of seconds > 0, at most {_MAX_TIMEOUT_S}"
    if not isinstance(value, numbers.Real) or isinstance(value, (bool, np.bool_)):
        raise _args.wrong_type("timeout", takes, value)
    if not 0 < value <= _MAX_TIMEOUT_S:
        raise InvalidArgument(22, f"timeout takes {takes}, not {value!r}")
    return max(1, math.ceil(value * 1000))


def _check_packet(packet, argument):
    """A packet is a C-contiguous buffer; refuse others naming argument."""
    try:
        view = memoryview(packet)
    except TypeError:
        raise _args.wrong_type(argument, "bytes-like coded data (bytes, bytearray, "
                               "memoryview, a uint8 numpy array)", packet) from None
    with view:
        if not view.c_contiguous:
            raise InvalidArgument(22, f"{argument} is not C-contiguous: "
                                  "numpy.ascontiguousarray() makes one that is")


def _packet(packet, i):
    """(data, timestamp_ns) of decode()'s i-th packet."""
    if isinstance(packet, tuple):
        if len(packet) != 2:
            raise _args.wrong_type(f"packets[{i}]", "bytes-like data or (data, "
                                   "timestamp_ns)", packet)
        data, timestamp_ns = packet
        _check_packet(data, f"packets[{i}][0]")
        return data, _args.integer(timestamp_ns, f"packets[{i}][1]", 0, 2 ** 64 - 1,
                                   takes="a timestamp in ns >= 0")
    _check_packet(packet, f"packets[{i}]")
    return packet, i * 1000


def _timeout(node, timeout):
    return Timeout(110, f"the decoder on {node} gave no frame within {timeout} s")
