# SPDX-License-Identifier: LGPL-2.1-or-later
"""Codecs (include/m2m/codec.h): a decoder, coded packets in and numpy
frames out, and an encoder, frames in and packets out.

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
from typing import Any, Iterable, Iterator, Optional, Sequence, Tuple, Union

import numpy as np

from . import _args, _waiting, capi
from ._errors import (DeviceClosed, DeviceNotFound, EndOfStream, InvalidArgument, NotFound,
                      Timeout, UnknownControl, UnsupportedFormat, WouldBlock)
from ._formats import check_planes, format_name, fourcc, plane_layouts, plane_views
from ._frame import Frame
from ._memory import Handle

#: What Decoder.decode() takes: coded bytes (any C-contiguous buffer:
#: bytes, bytearray, memoryview, a uint8 numpy array, an encoder's
#: Packet), or (bytes, timestamp in ns).
CodedData = Union[bytes, bytearray, memoryview, Tuple[Any, int]]

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


class _Codec:
    """What a Decoder, an Encoder and a Chain share: a libm2m handle that
    any thread may call (libm2m serialises the calls, and a wait lets the
    others run), closed once, DeviceClosed afterwards. Each call keeps the
    Handle in a local, so that the C object outlives a call another
    thread closes it under; a wait looks each slice whether it was
    closed."""

    _handle: Optional[Handle] = None
    _kind = "codec"     # "decoder", "encoder": for messages
    _gives = "result"   # "frame", "packet"

    def _open(self, **nodes):
        """Checks the nodes (argument name=value), named by the arguments,
        for the messages; returns them."""
        self._handle = None
        checked = [_args.string(value, argument, "a node path or a driver name")
                   for argument, value in nodes.items()]
        self._node = " -> ".join(checked)
        return checked

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()

    def close(self) -> None:  # overridden, for its docstring
        raise NotImplementedError

    def _opened(self, ptr, close):
        """Keep the C object open() gave, closed by capi's close (a name)."""
        self._handle = Handle(ptr, close)

    def _close(self):
        """Let go of the C object: closed now, or when the calls other
        threads are making have returned (a wait within a slice)."""
        self._handle = None

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._handle is None

    def __repr__(self) -> str:
        closed = " closed" if self._handle is None else ""
        return f"<m2m.{type(self).__name__} {self._node}{closed}>"

    def _h(self):
        """The Handle, for one call, or DeviceClosed."""
        h = self._handle
        if h is None:
            raise DeviceClosed(9, f"the {self._kind} on {self._node} is closed")
        return h

    def _call(self, function, *args):
        """function(handle, *args), or DeviceClosed."""
        return function(self._h().ptr, *args)

    def _wait(self, call, timeout):
        """_waiting.wait() of call(h, ms) on this object's Handle h:
        DeviceClosed when another thread closes it meanwhile."""
        h = self._h()

        def slice_of(ms):
            if self._handle is not h:
                raise DeviceClosed(9, f"the {self._kind} on {self._node} was closed "
                                   "while waiting")
            return call(h, ms)
        return _waiting.wait(slice_of, timeout)

    def _sent(self, send, payload, timestamp_ns):
        """send(handle, payload, timestamp_ns): whether it was taken
        (False: every OUTPUT buffer is taken, receive first)."""
        try:
            self._call(send, payload, timestamp_ns)
        except WouldBlock:
            return False
        return True

    @staticmethod
    def _take(h, ms, receive, release, copy):
        """copy() of what receive(h's pointer, ms) gives, which goes back
        to libm2m at once (release); None when nothing came."""
        try:
            got = receive(h.ptr, ms)
        except WouldBlock:
            return None
        try:
            return copy(got)
        finally:
            release(h.ptr, got)

    def _rest(self, timeout):
        """What receive() gives until the drain ends: Timeout when one
        does not come within timeout."""
        while True:
            try:
                got = self.receive(timeout)  # type: ignore[attr-defined]
            except EndOfStream:
                return
            if got is None:
                raise self._timed_out(timeout)
            yield got

    def _through(self, items, timeout, parse):
        """Send each of items, as parse(item, i) gives it (payload,
        timestamp_ns), yielding what comes as it comes, then drain: what
        decode(), encode() and Chain.run() do."""
        for i, item in enumerate(items):
            payload, timestamp_ns = parse(item, i)
            while not self._send(payload, timestamp_ns):  # type: ignore[attr-defined]
                got = self.receive(timeout)  # type: ignore[attr-defined]
                if got is None:
                    raise self._timed_out(timeout)
                yield got
            yield from iter(lambda: self.receive(0), None)  # type: ignore[attr-defined]
        yield from self.drain(timeout)  # type: ignore[attr-defined]

    def _timed_out(self, timeout):
        return Timeout(110, f"the {self._kind} on {self._node} gave no {self._gives} "
                       f"within {timeout} s")


class Decoder(_Codec):
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
    come first, then the new ones. Any thread may call it, one thread
    sending while another receives: libm2m serialises the calls, and a
    wait lets the others run. :meth:`close` from another thread ends a
    :meth:`receive` waiting (iterating too) within 20 ms with
    :class:`DeviceClosed`; a :meth:`send` waiting for room finishes
    first.

    Example::

        packets = m2m.read_hdr_stream("clip.fwht")   # v4l2-ctl --stream-to-hdr
        with m2m.Decoder("vicodec") as dec:
            for frame in dec.decode(packets):
                y, cb, cr = frame
    """

    _kind, _gives = "decoder", "frame"

    def __init__(self, node: str, coded: Union[str, int] = "FWHT", *,
                 capture: Optional[Union[str, int]] = None,
                 size: Optional[Sequence[int]] = None, timeout: float = 5.0) -> None:
        self._open(node=node)
        opts = capi.m2m_decoder_options()
        opts.version = capi.M2M_DECODER_OPTIONS_VERSION
        opts.coded_fourcc = _coded(coded)
        opts.capture_fourcc = 0 if capture is None else _format_code(capture, "capture")
        if size is not None:
            opts.width, opts.height = _args.dimensions(size, "size")
        opts.timeout_ms = _timeout_ms(timeout)
        try:
            self._opened(capi.m2m_decoder_open(node, opts), "m2m_decoder_close")
        except NotFound as e:
            raise DeviceNotFound(e.errno, e.strerror) from None

    def __enter__(self) -> Decoder:
        return self

    def close(self) -> None:
        """Close the decoder: the node stops and its buffers are freed.
        Frames already given stay valid (they are copies). Its methods
        raise :class:`DeviceClosed` afterwards, and so does a receive
        another thread is waiting in; closing twice is harmless.

        Example::

            dec = m2m.Decoder("vicodec")
            dec.close()
        """
        self._close()

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
        return self._send(packet, timestamp_ns)

    def _send(self, packet, timestamp_ns):
        return self._sent(capi.m2m_decoder_send, packet, timestamp_ns)

    def receive(self, timeout: Optional[float] = 0.0) -> Optional[DecodedFrame]:
        """The next decoded frame, waiting up to ``timeout`` seconds (None:
        for ever, Ctrl-C ending the wait); None when none came in time.

        :raises EndOfStream: after a drain's last frame (:meth:`drain`)

        Example::

            frame = dec.receive(timeout=0.5)
        """
        timeout = _args.seconds(timeout)
        return self._wait(self._receive, timeout)

    def _receive(self, h, ms):
        """One receive of up to ms: a DecodedFrame, or None."""
        return self._take(h, ms, capi.m2m_decoder_receive, capi.m2m_decoder_release, _copied)

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

    def seek(self) -> None:
        """Drop what was sent and not yet received (dev-decoder.rst,
        "Seek"): packets sent afterwards decode as a new start, from a key
        frame.

        Example::

            dec.seek()
            frames = list(dec.decode(packets[keyframe:]))
        """
        self._call(capi.m2m_decoder_seek)

    def decode(self, packets: Iterable[CodedData], timeout: Optional[float] = 5.0
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
        return self._through(packets, timeout, _packet)


class Packet(bytes):
    """A coded packet an :class:`Encoder` made: its bytes (a ``bytes``,
    the caller's: copied out of the encoder's buffer), with the
    :attr:`timestamp_ns` of the frame it was made from, its
    :attr:`sequence`, :attr:`flags` and :attr:`keyframe`. A
    :class:`Decoder` takes it as any bytes.

    Example::

        for packet in enc.encode(frames):
            out.write(packet)
            print(packet.timestamp_ns, packet.keyframe, len(packet))
    """

    timestamp_ns: int
    sequence: int
    flags: int
    keyframe: bool

    @property
    def error(self) -> bool:
        """Whether the encoder flagged this packet as failed.

        Example::

            assert not packet.error
        """
        return bool(self.flags & capi.M2M_BUFFER_ERROR)

    def __repr__(self) -> str:
        key = " key" if self.keyframe else ""
        return f"<m2m.Packet {len(self)} bytes{key} at {self.timestamp_ns} ns>"


class _PacketCodec(_Codec):
    """What an Encoder and a Chain share: Packets out, taken with
    _receive_call and given back with _release_call (capi's)."""

    _receive_call = staticmethod(capi.m2m_encoder_receive)
    _release_call = staticmethod(capi.m2m_encoder_release)

    def receive(self, timeout: Optional[float] = 0.0) -> Optional[Packet]:
        """The next packet, waiting up to ``timeout`` seconds (None: for
        ever, Ctrl-C ending the wait); None when none came in time.

        :raises EndOfStream: after a drain's last packet (:meth:`drain`)

        Example::

            packet = enc.receive(timeout=0.5)
        """
        timeout = _args.seconds(timeout)
        return self._wait(self._receive, timeout)

    def _receive(self, h, ms):
        """One receive of up to ms: a Packet, or None."""
        return self._take(h, ms, self._receive_call, self._release_call,
                          _packet_of)


#: A frame Encoder.send() takes: an m2m.Frame (a DecodedFrame too), a
#: sequence of plane arrays, a lone array for a one-plane format, or the
#: frame's bytes laid out as libm2m packs it.
RawFrame = Union[Frame, Sequence[Any], np.ndarray, bytes, bytearray, memoryview]


class Encoder(_PacketCodec):
    """A stateful encoder node: frames in, :class:`Packet` out. A
    context manager.

    :param node: a node path ("/dev/video0") or a driver name, as
        :func:`m2m.open` takes
    :param coded: the coded format made: a four-character code ("FWHT")
        or a fourcc; :class:`DeviceNotFound` when the node does not make it
    :param format: the frames' pixel format ("YUV420", ...)
    :param size: the frames' (width, height)
    :param controls: controls set before streaming, each read back (one
        the encoder does not keep raises): a dict of name or id to an
        integer (True and False for a boolean control). Names as
        :attr:`Device.controls` takes them: the driver's ("FWHT I-Frame
        QP Value") or as an identifier ("fwht_i_frame_qp_value")
    :param rate: frames a second, ``(numerator, denominator)``, or None
        for the encoder's default (vicodec has none to set)
    :param timeout: how long :meth:`send` may wait for the encoder to take
        a frame, in seconds (> 0); then :class:`Timeout`

    :meth:`encode` is the usual way: it sends frames, yields packets as
    they come, and drains at the end so that none is lost. Step by step,
    :meth:`send` says whether the encoder took a frame (False: receive
    first), :meth:`receive` takes a packet, :meth:`drain` ends the
    stream. Threads as with :class:`Decoder`.

    Example::

        with m2m.Encoder("/dev/video0", "FWHT", format="YUV420", size=(640, 360),
                         controls={"fwht_i_frame_qp_value": 10}) as enc:
            stream = b"".join(enc.encode(frames))      # frames: m2m.Frame
    """

    _kind, _gives = "encoder", "packet"

    def __init__(self, node: str, coded: Union[str, int] = "FWHT", *,
                 format: Union[str, int] = "YUV420",  # noqa: A002
                 size: Sequence[int], controls: Optional[dict[Any, Any]] = None,
                 rate: Optional[Sequence[int]] = None, timeout: float = 5.0) -> None:
        self._open(node=node)
        opts = capi.m2m_encoder_options()
        opts.version = capi.M2M_ENCODER_OPTIONS_VERSION
        opts.coded_fourcc = _coded(coded)
        opts.raw_fourcc = _format_code(format, "format")
        opts.width, opts.height = _args.dimensions(size, "size")
        if rate is not None:
            opts.rate_num, opts.rate_den = _rate(rate)
        opts.timeout_ms = _timeout_ms(timeout)
        wanted = _control_values(controls)
        try:
            ids = _control_ids(node, wanted)
            self._opened(capi.m2m_py_encoder_open(node, opts, ids), "m2m_encoder_close")
        except NotFound as e:
            if isinstance(e, UnknownControl):
                raise
            raise DeviceNotFound(e.errno, e.strerror) from None
        self._raw = self._call(capi.m2m_encoder_get_format)
        self._raw_name = format_name(self._raw.fourcc)

    def __enter__(self) -> Encoder:
        return self

    def close(self) -> None:
        """Close the encoder: the node stops and its buffers are freed.
        Packets already given stay valid (they are bytes). Its methods
        raise :class:`DeviceClosed` afterwards, and so does a receive
        another thread is waiting in; closing twice is harmless.

        Example::

            enc = m2m.Encoder("/dev/video0", size=(640, 360))
            enc.close()
        """
        self._close()

    @property
    def format(self) -> capi.m2m_format:
        """The frames' layout :meth:`send` takes, a ``capi.m2m_format``
        (libm2m's packed one for the format and size given).

        Example::

            print(m2m.plane_shapes(enc.format))   # [((360, 640), uint8), ...]
        """
        return self._call(capi.m2m_encoder_get_format)

    def send(self, frame: RawFrame, timestamp_ns: int = 0) -> bool:
        """Give the encoder one frame, copied. The packet made from it
        carries ``timestamp_ns`` in whole microseconds (V4L2's, as for
        :meth:`Decoder.send`). Sending after a drain starts a new stream.

        :param frame: a :class:`Frame` of the encoder's format and size
            (a :class:`DecodedFrame` too); or its planes, a sequence of
            numpy arrays shaped per :func:`plane_shapes` of
            :attr:`format` (any strides); or for a one-plane format the
            array alone; or bytes-like of the whole frame packed as
            :attr:`format` says (a frame read from a raw file)
        :returns: True when the encoder took it; False when every OUTPUT
            buffer is taken and the encoder waits for packets to be
            received first (:meth:`receive`), then send it again
        :raises Timeout: the encoder took nothing within ``timeout``
        :raises UnsupportedFormat: a frame of another format, size, plane
            count, shape or dtype, naming ``frame``

        Example::

            while not enc.send(frame, timestamp_ns=ts):
                packets.append(enc.receive(timeout=1.0))
        """
        timestamp_ns = _args.integer(timestamp_ns, "timestamp_ns", 0, 2 ** 64 - 1)
        return self._send(self._packed(frame, "frame"), timestamp_ns)

    def _send(self, raw, timestamp_ns):
        return self._sent(capi.m2m_encoder_send, raw, timestamp_ns)

    def _packed(self, frame, argument):
        """frame as the bytes m2m_encoder_send() takes, checked; the
        argument's name for the message."""
        fmt, name = self._raw, self._raw_name
        what = f"{argument} (a {name} {fmt.width}x{fmt.height} frame)"
        if isinstance(frame, Frame):
            if frame.format != name or (frame.width, frame.height) != (fmt.width, fmt.height):
                raise UnsupportedFormat(22, f"{what} is a {frame.format} "
                                        f"{frame.width}x{frame.height} Frame")
            planes = list(frame.planes)
        elif isinstance(frame, (tuple, list)):
            planes = list(frame)
        elif isinstance(frame, np.ndarray) and frame.ndim != 1:
            planes = [frame]
        else:
            return _packed_bytes(frame, capi.m2m_format_frame_size(fmt), what, argument)
        return _packed_planes(planes, fmt, what)

    def drain(self, timeout: Optional[float] = 5.0) -> Iterator[Packet]:
        """End the stream: the encoder finishes what it was sent
        (V4L2_ENC_CMD_STOP, at once), and the iterator returned yields
        those packets, waiting up to ``timeout`` seconds for each (None:
        for ever); :class:`Timeout` if one does not come.

        Example::

            stream += b"".join(enc.drain())
        """
        timeout = _args.seconds(timeout)
        self._call(capi.m2m_encoder_drain)
        return self._rest(timeout)

    def encode(self, frames: Iterable[Any], timeout: Optional[float] = 5.0
               ) -> Iterator[Packet]:
        """Encode a stream: send each frame (as :meth:`send` takes it, or
        ``(frame, timestamp_ns)``; a bare frame's timestamp is its index
        in ``frames`` in microseconds, ``1000 * i``), yield each packet as
        it comes, and drain at the end, so every packet is given. Packets
        are waited for up to ``timeout`` seconds when the encoder needs
        them taken before it takes more; :class:`Timeout` then.

        Example::

            with m2m.Encoder("/dev/video0", size=(640, 360)) as enc:
                packets = list(enc.encode(frames))
        """
        timeout = _args.seconds(timeout)
        return self._through(frames, timeout, self._frame_of)

    def _frame_of(self, item, i):
        """(raw bytes, timestamp_ns) of encode()'s i-th frame."""
        timestamp_ns = i * 1000
        if isinstance(item, tuple) and len(item) == 2 and _args.is_integer(item[1]):
            item, timestamp_ns = item[0], _args.integer(
                item[1], f"frames[{i}][1]", 0, 2 ** 64 - 1, takes="a timestamp in ns >= 0")
        return self._packed(item, f"frames[{i}]"), timestamp_ns


def _packed_planes(planes, fmt, what):
    """The planes, checked, copied into one buffer packed as fmt."""
    check_planes(planes, fmt, what)
    raw = np.empty(capi.m2m_format_frame_size(fmt), np.uint8)
    for view, plane in zip(plane_views(fmt, [raw]), planes):
        np.copyto(view, plane)
    return raw


def _packed_bytes(frame, size, what, argument):
    """A frame given as its packed bytes, checked."""
    takes = "an m2m.Frame, a sequence of plane arrays, or the frame's bytes"
    try:
        view = memoryview(frame)
    except TypeError:
        raise _args.wrong_type(argument, takes, frame) from None
    with view:
        if not view.c_contiguous:
            raise InvalidArgument(22, f"{argument} is not C-contiguous: "
                                  "numpy.ascontiguousarray() makes one that is")
        if view.nbytes != size:
            raise UnsupportedFormat(22, f"{what} is {size} bytes packed, not {view.nbytes}")
    return frame


def _packet_of(packet):
    """A Packet of copies of the bytes of capi packet."""
    data = ctypes.string_at(capi.m2m_py_buffer_address(packet.buffer, 0), packet.size)
    made = Packet(data)
    made.timestamp_ns = packet.timestamp_ns
    made.sequence = packet.sequence
    made.flags = packet.flags
    # libm2m flags an FWHT packet from its header (vicodec flags none).
    made.keyframe = bool(packet.flags & capi.V4L2_BUF_FLAG_KEYFRAME)
    return made


def _format_code(value, argument):
    try:
        return fourcc(value)
    except InvalidArgument as e:
        raise type(e)(e.errno, f"{argument}={value!r}: {e.strerror}") from None


def _rate(value):
    takes = "(numerator, denominator) frames a second, positive integers"
    pair = _args.integers(value, 2, "rate", takes)
    if min(pair) <= 0:
        raise InvalidArgument(22, f"rate takes {takes}, not {value!r}")
    return pair


def _control_values(controls):
    """{name or id: value} checked: [(name or id, int value)]."""
    takes = "a dict of control names or ids to integers"
    if controls is None:
        return []
    if not isinstance(controls, dict):
        raise _args.wrong_type("controls", takes, controls)
    checked = []
    for key, value in controls.items():
        if not isinstance(key, str) and not _args.is_integer(key):
            raise _args.wrong_type("controls", f"{takes}; a key is a name or an id",
                                   key)
        if _args.is_integer(key):
            key = _args.integer(key, f"controls[{key!r}]", 1, 2 ** 32 - 1,
                                takes="an id from 1 to 2**32 - 1")
        argument = f"controls[{key!r}]"
        if isinstance(value, (bool, np.bool_)):
            value = int(value)
        checked.append((key, _args.integer(value, argument, -2 ** 63, 2 ** 63 - 1,
                                           takes="an integer of 64 bits (or True, False)")))
    return checked


def _control_ids(node, wanted):
    """[(id, value)] of [(name or id, value)], names looked up on node
    (the encoder's controls are set while it opens, by id)."""
    if not any(isinstance(key, str) for key, _ in wanted):
        return wanted
    dev = capi.m2m_open(node)
    try:
        ids = []
        for key, value in wanted:
            if isinstance(key, str):
                try:
                    key = capi.m2m_find_control(dev, key, 0).id
                except NotFound:
                    raise UnknownControl(2, f"controls[{key!r}]: {node} has no such "
                                         "control") from None
            ids.append((key, value))
        return ids
    finally:
        capi.m2m_close(dev)


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


def _coded(value, argument="coded"):
    """A coded format's fourcc: four characters ("FWHT") or the code;
    the argument's name for the message."""
    if isinstance(value, str) and len(value) == 4 and value.isascii():
        return sum(ord(c) << (8 * i) for i, c in enumerate(value))
    if _args.is_integer(value) and 0 < value < 2 ** 32:
        return int(value)
    if isinstance(value, str) or _args.is_integer(value):
        raise InvalidArgument(22, f"{argument} takes a four-character code such as "
                              f"\"FWHT\" or a fourcc, not {value!r}")
    raise _args.wrong_type(argument, "a four-character code such as \"FWHT\" or a fourcc",
                           value)


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
