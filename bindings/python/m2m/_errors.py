# SPDX-License-Identifier: LGPL-2.1-or-later
"""The exceptions of the m2m package, one class per kind of failure.

Every failure of libm2m arrives as an instance of :class:`Error` (an
:class:`OSError`), with ``errno`` set and the library's message, which names
the call and what was wrong.
"""
import errno as _errno


class Error(OSError):
    """Base class of every error the m2m package raises.

    Example::

        try:
            m2m.open("/dev/video99")
        except m2m.Error as e:
            print(e.errno, e.strerror)
    """


class DeviceNotFound(Error):
    """No device of that name or path exists (ENOENT, ENODEV)."""


class DeviceBusy(Error):
    """The device or queue is in use elsewhere (EBUSY)."""


class UnsupportedFormat(Error, ValueError):
    """A pixel format, size or frame layout that cannot be used."""


class InvalidArgument(Error, ValueError):
    """An argument the library refused (EINVAL, ERANGE)."""


class BufferTooSmall(Error, ValueError):
    """A frame buffer smaller than its format needs (ENOSPC)."""


class Timeout(Error, TimeoutError):
    """The device returned nothing in time (ETIMEDOUT)."""


class NotSupported(Error):
    """The device or node type is not supported (ENOTSUP, ENOTTY)."""


_BY_ERRNO = {
    _errno.ENOENT: DeviceNotFound,
    _errno.ENODEV: DeviceNotFound,
    _errno.EBUSY: DeviceBusy,
    _errno.EINVAL: InvalidArgument,
    _errno.ERANGE: InvalidArgument,
    _errno.ENOSPC: BufferTooSmall,
    _errno.ETIMEDOUT: Timeout,
    _errno.ENOTSUP: NotSupported,
    _errno.ENOTTY: NotSupported,
}


def from_errno(err, message):
    """The exception for a negative-errno failure of libm2m (used by capi)."""
    return _BY_ERRNO.get(err, Error)(err, message)
