# SPDX-License-Identifier: LGPL-2.1-or-later
"""m2m: video processing through V4L2 memory-to-memory devices.

Open a device with :func:`open`, by driver name (``"vhqv"``) or node path,
and convert numpy frames through it::

    import m2m, numpy as np

    frame = np.zeros((480, 640, 2), np.uint8)          # a YUYV frame
    with m2m.open("vhqv") as dev:
        out = dev.convert(frame, "YUYV", to="UYVY", hflip=True)

Failures raise :class:`Error` subclasses carrying libm2m's message.
"""
from ._errors import (BufferTooSmall, DeviceBusy, DeviceNotFound, Error,
                      InvalidArgument, NotSupported, Timeout,
                      UnsupportedFormat)
from .device import Device, fourcc, frame_format, frame_shape, open

__all__ = [
    "BufferTooSmall", "Device", "DeviceBusy", "DeviceNotFound", "Error",
    "InvalidArgument", "NotSupported", "Timeout", "UnsupportedFormat",
    "fourcc", "frame_format", "frame_shape", "open",
]
