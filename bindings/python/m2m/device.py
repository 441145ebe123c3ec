# SPDX-License-Identifier: LGPL-2.1-or-later
"""Devices: open one, convert frames through it."""
import numpy as np

from . import capi
from ._errors import Error, UnsupportedFormat

_QUEUES = {"output": capi.M2M_QUEUE_OUTPUT, "capture": capi.M2M_QUEUE_CAPTURE}
_V4L2_CID_HFLIP = 0x00980914
_V4L2_CID_VFLIP = 0x00980915


def fourcc(name):
    """The V4L2 fourcc code of a pixel format name.

    Example::

        >>> hex(m2m.fourcc("YUYV"))
        '0x56595559'

    Raises :class:`UnsupportedFormat` for a name libm2m does not know.
    """
    code = capi.m2m_fourcc_from_name(name) if isinstance(name, str) else 0
    if not code or capi.m2m_fourcc_to_name(code) is None:
        raise UnsupportedFormat(0, f"unknown pixel format {name!r}")
    return code


def frame_format(name, width, height):
    """The tightly packed layout of a frame, as a ``capi.m2m_format``.

    Example::

        >>> m2m.frame_format("YUYV", 640, 480).bytesperline[0]
        1280
    """
    fmt = capi.m2m_format()
    capi.m2m_format_init(fmt, fourcc(name), width, height)
    return fmt


def frame_shape(fmt):
    """The numpy shape of a packed frame: (height, width, bytes per pixel).

    Example::

        >>> m2m.frame_shape(m2m.frame_format("YUYV", 640, 480))
        (480, 640, 2)

    Raises :class:`UnsupportedFormat` for formats with several planes
    (NV12, YUV420, ...), which this version does not shape yet.
    """
    if fmt.plane_size[0] != fmt.height * fmt.bytesperline[0] or fmt.num_planes != 1:
        raise UnsupportedFormat(0, "formats with several planes are not shaped as numpy arrays yet")
    return (fmt.height, fmt.width, fmt.bytesperline[0] // fmt.width)


class Device:
    """An open V4L2 memory-to-memory device. Use :func:`m2m.open` to get one.

    A device is a context manager; leaving the ``with`` block closes it.

    Example::

        with m2m.open("vhqv") as dev:
            print(dev.driver, dev.path)
    """

    def __init__(self, name):
        self._dev = None
        self._dev = capi.m2m_open(name)
        info = capi.m2m_device_info()
        capi.m2m_device_get_info(self._dev, info)
        self.path = info.path
        self.driver = info.driver
        self.card = info.card
        self.bus_info = info.bus_info

    def close(self):
        """Close the device. Closing twice is harmless.

        Example::

            dev = m2m.open("vhqv")
            dev.close()
        """
        if self._dev is not None:
            capi.m2m_close(self._dev)
            self._dev = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def __repr__(self):
        state = "closed" if self._dev is None else self.path
        return f"<m2m.Device {self.driver} {state}>"

    def _handle(self):
        if self._dev is None:
            raise Error(9, "the device is closed")  # EBADF
        return self._dev

    def convert(self, frame, fmt, to=None, *, hflip=False, vflip=False):
        """Convert one frame through the device and return the result.

        :param frame: a C-contiguous ``uint8`` numpy array shaped as
            :func:`frame_shape` says for ``fmt`` (for YUYV: height, width, 2)
        :param fmt: the pixel format of ``frame``, e.g. ``"YUYV"``
        :param to: the pixel format wanted (default: ``fmt``)
        :param hflip: mirror left to right
        :param vflip: mirror top to bottom
        :returns: a new numpy array holding the converted frame

        Example::

            with m2m.open("vhqv") as dev:
                uyvy = dev.convert(yuyv, "YUYV", to="UYVY", hflip=True)
        """
        dev = self._handle()
        if not isinstance(frame, np.ndarray):
            raise UnsupportedFormat(0, f"frame must be a numpy array, not {type(frame).__name__}")
        if frame.dtype != np.uint8:
            raise UnsupportedFormat(0, f"frame dtype must be uint8, not {frame.dtype}")
        if frame.ndim != 3:
            raise UnsupportedFormat(0, f"frame must be (height, width, bytes per pixel), not shape {frame.shape}")
        if not frame.flags.c_contiguous:
            raise UnsupportedFormat(0, "frame must be C-contiguous (use numpy.ascontiguousarray)")
        height, width = frame.shape[:2]
        src = frame_format(fmt, width, height)
        if frame.shape != frame_shape(src):
            raise UnsupportedFormat(0, f"a {width}x{height} {fmt} frame has shape {frame_shape(src)}, not {frame.shape}")
        dst = frame_format(to or fmt, width, height)

        capi.m2m_set_format(dev, src, _QUEUES["output"])
        capi.m2m_set_format(dev, dst, _QUEUES["capture"])
        capi.m2m_set_control(dev, _V4L2_CID_HFLIP, int(bool(hflip)))
        capi.m2m_set_control(dev, _V4L2_CID_VFLIP, int(bool(vflip)))
        out = np.empty(frame_shape(dst), dtype=np.uint8)
        capi.m2m_convert(dev, out, frame)
        return out


def open(name):  # pylint: disable=redefined-builtin
    """Open a memory-to-memory device by node path or driver name.

    :param name: ``"/dev/video0"``, or a driver name such as ``"vhqv"``
    :raises DeviceNotFound: when there is no such device

    Example::

        with m2m.open("vhqv") as dev:
            out = dev.convert(frame, "YUYV", to="UYVY")
    """
    return Device(name)
