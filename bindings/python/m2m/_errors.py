# SPDX-License-Identifier: LGPL-2.1-or-later
"""The exceptions of the m2m package, one class per kind of failure.

Every failure arrives as an instance of :class:`Error` (an :class:`OSError`)
with ``errno`` set and a message; libm2m's failures carry the library's
message, which names the call, the ioctl and what was wrong. Classes for
bad values also derive from :class:`ValueError`, of wrong types from
:class:`TypeError`, lookups from :class:`LookupError`, so generic
``except`` clauses work too.

=====================  ================  ==================================
class                  errno             when
=====================  ================  ==================================
``NotFound``           ENOENT            no such control, menu item, ...
``DeviceNotFound``     ENOENT, ENODEV    no such device, or not an m2m one
``UnknownControl``     ENOENT            ``dev.controls["no such"]``
``DeviceBusy``         EBUSY             in use (a buffer, a session)
``DeviceClosed``       EBADF             the Device was closed
``UnsupportedFormat``  EINVAL            a format, size or frame refused
``InvalidArgument``    EINVAL            an argument refused
``WrongType``          EINVAL            an argument of the wrong type
``OutOfRange``         ERANGE            a control value out of range
``BufferTooSmall``     ENOSPC            a frame smaller than its format
``WouldBlock``         EAGAIN            nothing ready (non-blocking)
``EndOfStream``        EPIPE, ENODATA    CAPTURE after the LAST buffer;
                                         a decoder after its drain's end
``Timeout``            ETIMEDOUT         the device returned nothing
``NotSupported``       ENOTSUP, ENOTTY   the device cannot do that
=====================  ================  ==================================
"""
from __future__ import annotations

import errno as _errno


class Error(OSError):
    """Base class of every error the m2m package raises.

    Example::

        try:
            m2m.open("/dev/video99")
        except m2m.Error as e:
            print(e.errno, e.strerror)
    """


class NotFound(Error, LookupError):
    """No such thing (ENOENT): a control, a menu item, a device.

    Example::

        try:
            dev.controls.info("no such control")
        except m2m.NotFound as e:
            print(e)
    """


class DeviceNotFound(NotFound):
    """No device of that name or path exists, or it is no m2m device
    (ENOENT, ENODEV).

    Example::

        try:
            m2m.open("/dev/video99")
        except m2m.DeviceNotFound:
            dev = m2m.open("inprocess")
    """


class UnknownControl(NotFound, KeyError):
    """The device has no control of that name (``dev.controls["x"]``).

    Example::

        if "rotate" not in dev.controls:
            print("no rotation here")
    """

    def __str__(self):
        return OSError.__str__(self)


class DeviceBusy(Error):
    """The device, a queue or a buffer is in use (EBUSY).

    Example::

        with dev.session("YUYV", (640, 480)):
            dev.convert(frame)     # raises DeviceBusy: a session streams
    """


class DeviceClosed(Error):
    """The :class:`~m2m.Device` was closed (EBADF).

    Example::

        dev.close()
        dev.convert(frame)         # raises DeviceClosed
    """


class InvalidArgument(Error, ValueError):
    """An argument the library refused (EINVAL).

    Example::

        m2m.frame_format("YUYV", 641, 480)   # odd width: InvalidArgument
    """


class WrongType(InvalidArgument, TypeError):
    """An argument of the wrong type (EINVAL): the message names the
    argument and what it takes. Also a :class:`TypeError`.

    Example::

        try:
            dev.convert(rgb, hflip="no")
        except m2m.WrongType as e:
            print(e)    # hflip takes True or False, not 'no' (str)
    """


class UnsupportedFormat(InvalidArgument):
    """A pixel format, size or frame (array) that cannot be used; the
    message names the problem (dtype, shape, contiguity, format name).

    Example::

        dev.convert(np.zeros((480, 640), np.float32))   # dtype: uint8
    """


class OutOfRange(InvalidArgument):
    """A control value out of its range or step, or no item of its menu
    (ERANGE); the message gives the range.

    Example::

        dev.controls.rotate = 45   # OutOfRange: 0 to 270 in steps of 90
    """


class BufferTooSmall(InvalidArgument):
    """A frame buffer smaller than its format needs (ENOSPC).

    Example::

        capi.m2m_convert(handle, bytearray(10), src)   # BufferTooSmall
    """


class WouldBlock(Error, BlockingIOError):
    """Nothing is ready and the call was not to wait (EAGAIN).

    Example::

        try:
            ev = dev.events.get(timeout=0)
        except m2m.WouldBlock:
            pass
    """


class EndOfStream(Error):
    """CAPTURE after its LAST buffer: the stream was drained or its
    geometry changed (EPIPE); a :class:`~m2m.Decoder` after the last
    frame of a drain (ENODATA).

    Example::

        session.drain()
        try:
            while True:
                session.release(session.dequeue())
        except m2m.EndOfStream:
            pass
    """


class Timeout(Error, TimeoutError):
    """The device returned nothing in time (ETIMEDOUT).

    Example::

        try:
            out = session.dequeue(timeout=1.0)
        except m2m.Timeout:
            print("device stalled")
    """


class NotSupported(Error):
    """The device cannot do that (ENOTSUP, ENOTTY).

    Example::

        try:
            session.drain()
        except m2m.NotSupported:
            pass    # a driver without ENC_CMD
    """


_BY_ERRNO = {
    _errno.ENOENT: NotFound,
    _errno.ENODEV: DeviceNotFound,
    _errno.EBUSY: DeviceBusy,
    _errno.EBADF: DeviceClosed,
    _errno.EINVAL: InvalidArgument,
    _errno.ERANGE: OutOfRange,
    _errno.ENOSPC: BufferTooSmall,
    _errno.EAGAIN: WouldBlock,
    _errno.EPIPE: EndOfStream,
    _errno.ENODATA: EndOfStream,
    _errno.ETIMEDOUT: Timeout,
    _errno.ENOTSUP: NotSupported,
    _errno.ENOTTY: NotSupported,
}


def from_errno(err: int, message: str) -> Error:
    """The exception for a negative-errno failure of libm2m (capi uses it).

    Example::

        >>> m2m.from_errno(errno.EPIPE, "drained")
        EndOfStream(32, 'drained')
    """
    if not isinstance(err, int) or isinstance(err, bool) or not isinstance(message, str):
        raise WrongType(_errno.EINVAL, f"from_errno takes an errno (int) and a message (str), "
                        f"not {err!r} ({type(err).__name__}) and {message!r} "
                        f"({type(message).__name__})")
    return _BY_ERRNO.get(err, Error)(err, message)
