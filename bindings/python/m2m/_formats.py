# SPDX-License-Identifier: LGPL-2.1-or-later
"""Pixel formats: names, layouts, and numpy views of frames.

libm2m's format table (the engine's) says how a frame lies in memory;
:func:`plane_layouts` gives it per colour plane, and every numpy view of a
frame in this package is built from it by :func:`plane_views`:

===========  ==============================================  =======
format       arrays (one per colour plane)                   dtype
===========  ==============================================  =======
GREY         (h, w)                                          uint8
YUYV, UYVY   (h, w + w % 2, 2)                               uint8
RGB24, BGR24 (h, w, 3)                                       uint8
XRGB32, ...  (h, w, 4)                                       uint8
RGB565       (h, w)                                          uint16
NV12, NV12M  Y (h, w), CbCr ((h + 1) // 2, (w + 1) // 2, 2)  uint8
YUV420       Y (h, w), Cb, Cr ((h + 1) // 2, (w + 1) // 2)   uint8
===========  ==============================================  =======

Any size from 1x1 is a valid one, odd ones too: chroma planes round up,
as libyuv and FFmpeg do, and a YUYV line holds whole macropixels, so at an
odd width its array has a pixel more than the frame (the last macropixel's
second luma, a copy of the last one).

A padded line pitch (``bytesperline``) gives strided views, not copies.
"""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _args, capi
from ._errors import UnsupportedFormat

#: V4L2 field orders by name (enum v4l2_field); "none" is progressive.
FIELDS = {
    "none": 1, "top": 2, "bottom": 3, "interlaced": 4, "seq_tb": 5,
    "seq_bt": 6, "alternate": 7, "interlaced_tb": 8, "interlaced_bt": 9,
}
_FIELD_NAMES = {v: k for k, v in FIELDS.items()}


def formats() -> List[str]:
    """Every pixel format name of libm2m's table, in the table's order.

    Example::

        >>> "NV12" in m2m.formats()
        True
    """
    names: List[str] = []
    i = 0
    while True:
        code = capi.m2m_fourcc_at(i)
        if not code:
            return names
        names.append(capi.m2m_fourcc_to_name(code))
        i += 1


def fourcc(name: Union[str, int]) -> int:
    """The V4L2 fourcc code of a pixel format, by the table's name (any
    case) or four-character code; a known code passes through.

    Example::

        >>> hex(m2m.fourcc("YUYV"))
        '0x56595559'
        >>> m2m.fourcc("nv12") == m2m.fourcc("NV12")
        True

    Raises :class:`UnsupportedFormat` naming a format libm2m does not know,
    :class:`WrongType` for what is neither a name nor a code.
    """
    code = 0
    if _args.is_integer(name):
        code = int(name) if 0 < int(name) < 2 ** 32 else 0
    elif isinstance(name, str):
        code = capi.m2m_fourcc_from_name(name)
        if capi.m2m_fourcc_to_name(code) is None:
            code = capi.m2m_fourcc_from_name(name.upper())
    else:
        raise _args.wrong_type("a pixel format", "a name such as \"NV12\" or a fourcc code",
                               name)
    if not code or capi.m2m_fourcc_to_name(code) is None:
        known = ", ".join(formats())
        raise UnsupportedFormat(22, f"unknown pixel format {name!r} (known: {known})")
    return code


def format_name(code: Union[str, int]) -> str:
    """The table's name of a fourcc code (or of a name, normalised).

    Example::

        >>> m2m.format_name(0x3231564e)
        'NV12'
    """
    return capi.m2m_fourcc_to_name(fourcc(code))


def field_code(field):
    """The V4L2 field value of a field order name ("interlaced_tb", ...)."""
    return FIELDS[_args.name(field, tuple(FIELDS), "field")]


def field_name(code):
    """The name of a V4L2 field value (1: "none")."""
    return _FIELD_NAMES.get(code, str(code))


def frame_format(name: Union[str, int], width: int, height: int, *, field: Optional[str] = None,
                 bytesperline: Optional[Sequence[int]] = None) -> capi.m2m_format:
    """The tightly packed layout of a frame, as a ``capi.m2m_format``
    (progressive, default colorimetry), optionally with padded lines.

    :param name: a pixel format name, e.g. ``"NV12"``
    :param width, height: the size in pixels, 1 to 8192 (odd sizes too)
    :param field: a field order name (:data:`FIELDS`), default "none"
    :param bytesperline: line pitch per memory plane, at least the minimum

    Example::

        >>> m2m.frame_format("YUYV", 640, 480).bytesperline[0]
        1280
        >>> m2m.frame_format("GREY", 64, 8, bytesperline=[80]).plane_size[0]
        640
    """
    fmt = capi.m2m_format()
    code = fourcc(name)
    width = _args.integer(width, "width", 0, 2 ** 32 - 1, takes="a size in pixels, 1 to 8192")
    height = _args.integer(height, "height", 0, 2 ** 32 - 1, takes="a size in pixels, 1 to 8192")
    capi.m2m_format_init(fmt, code, width, height)
    if field is not None:
        fmt.field = field_code(field)
    if bytesperline is not None:
        takes = f"a pitch in bytes per memory plane of {name} ({fmt.num_planes})"
        pitches = _args.integers(bytesperline, fmt.num_planes, "bytesperline", takes)
        for p, (given, least) in enumerate(zip(pitches, fmt.bytesperline)):
            if given < least:
                raise UnsupportedFormat(22, f"bytesperline[{p}] {given} is below {name}'s "
                                        f"minimum {least} at width {width}")
        fmt.bytesperline = pitches
        sizes = list(fmt.plane_size)
        layouts = capi.m2m_format_planes(fmt)
        for p in range(fmt.num_planes):
            sizes[p] = sum(pl.bytesperline * pl.height for pl in layouts
                           if pl.memory_plane == p)
        fmt.plane_size = sizes
    return fmt


def describe(fmt):
    """A short text for a ``capi.m2m_format``: "NV12 640x480"."""
    name = capi.m2m_fourcc_to_name(fmt.fourcc) or f"0x{fmt.fourcc:08x}"
    return f"{name} {fmt.width}x{fmt.height}"


def plane_names(name: Union[str, int]) -> Tuple[str, ...]:
    """The names of a format's colour planes: ("Y", "CbCr") for NV12,
    ("Y", "Cb", "Cr") for YUV420, (name,) for one-plane formats.

    Example::

        >>> m2m.plane_names("NV21")
        ('Y', 'CrCb')
    """
    name = format_name(name)
    n = len(capi.m2m_format_planes(frame_format(name, 2, 2)))
    if n == 1:
        return (name,)
    swapped = name.startswith(("NV21", "NV61", "YVU"))
    if n == 2:
        return ("Y", "CrCb" if swapped else "CbCr")
    return ("Y", "Cr", "Cb") if swapped else ("Y", "Cb", "Cr")


def plane_layouts(fmt: capi.m2m_format) -> List[capi.m2m_plane_layout]:
    """The colour planes of a ``capi.m2m_format``: a list of
    ``capi.m2m_plane_layout`` (memory_plane, offset, bytesperline, width,
    height, channels, sample_bytes).

    Example::

        >>> [p.channels for p in m2m.plane_layouts(m2m.frame_format("NV12", 64, 48))]
        [1, 2]
    """
    return capi.m2m_format_planes(format_argument(fmt))


def format_argument(fmt, argument="fmt"):
    """``fmt`` if it is a ``capi.m2m_format``, else WrongType."""
    if not isinstance(fmt, capi.m2m_format):
        raise _args.wrong_type(argument, "a capi.m2m_format (m2m.frame_format(), "
                               "Device.get_format())", fmt)
    return fmt


def _shape(pl):
    return (pl.height, pl.width) if pl.channels == 1 else (pl.height, pl.width, pl.channels)


def _dtype(pl):
    return np.dtype(np.uint8 if pl.sample_bytes == 1 else "<u2")


def plane_shapes(fmt: capi.m2m_format) -> List[Tuple[Tuple[int, ...], np.dtype[Any]]]:
    """The numpy (shape, dtype) of each colour plane of a format.

    Example::

        >>> m2m.plane_shapes(m2m.frame_format("NV12", 64, 48))
        [((48, 64), dtype('uint8')), ((24, 32, 2), dtype('uint8'))]
    """
    return [(_shape(pl), _dtype(pl)) for pl in plane_layouts(fmt)]


def plane_views(fmt: capi.m2m_format, memory: Sequence[Any],
                layouts: Optional[Sequence[capi.m2m_plane_layout]] = None,
                ) -> Tuple[np.ndarray[Any, np.dtype[Any]], ...]:
    """Numpy views of a frame's colour planes, without copying.

    :param fmt: the frame's ``capi.m2m_format``
    :param memory: one object per memory plane exporting the buffer
        protocol (a ctypes array over mapped memory, a numpy array); each
        view's ``base`` is that object, which therefore stays alive
    :returns: a tuple of arrays shaped per :func:`plane_shapes`, strided
        when lines are padded

    Example::

        raw = np.zeros(m2m.capi.m2m_format_frame_size(fmt), np.uint8)
        y, cbcr = m2m.plane_views(fmt, [raw])
    """
    layouts = layouts or plane_layouts(fmt)
    memory = _memory_planes(memory, fmt)
    views: List[np.ndarray[Any, np.dtype[Any]]] = []
    for pl in layouts:
        shape, dtype, strides = view_geometry(pl)
        views.append(np.ndarray(shape, dtype, buffer=memory[pl.memory_plane],
                                offset=pl.offset, strides=strides))
    return tuple(views)


def view_geometry(pl):
    """(shape, dtype, strides) of the numpy view of one plane layout."""
    group = pl.channels * pl.sample_bytes
    strides = (pl.bytesperline, group) if pl.channels == 1 else \
        (pl.bytesperline, group, pl.sample_bytes)
    return _shape(pl), _dtype(pl), strides


def _memory_planes(memory, fmt):
    """The memory planes plane_views() takes: one object with the buffer
    protocol per memory plane of fmt, each large enough."""
    takes = f"{fmt.num_planes} objects with the buffer protocol (numpy arrays, ctypes " \
        "arrays), one per memory plane"
    if not isinstance(memory, (list, tuple)) or len(memory) < fmt.num_planes:
        raise _args.wrong_type("memory", takes, memory)
    for p in range(fmt.num_planes):
        try:
            size = memoryview(memory[p]).nbytes
        except TypeError:
            raise _args.wrong_type(f"memory[{p}]", takes, memory[p]) from None
        if size < fmt.plane_size[p]:
            raise UnsupportedFormat(22, f"memory[{p}] holds {size} bytes: plane {p} of "
                                    f"{describe(fmt)} needs {fmt.plane_size[p]}")
    return memory


def check_plane(array, shape, dtype, what):
    """Raise :class:`UnsupportedFormat` naming what is wrong with an
    array given as a plane of ``what`` (e.g. "the YUYV 640x480 frame").
    Any strides will do: planes are copied into the device's buffers
    (padded lines, views of a larger picture, planes of another frame)."""
    if not isinstance(array, np.ndarray):
        raise UnsupportedFormat(22, f"{what} must be a numpy array, not {type(array).__name__}")
    if array.dtype != dtype:
        raise UnsupportedFormat(22, f"{what} must have dtype {dtype}, not {array.dtype}")
    if array.shape != tuple(shape):
        raise UnsupportedFormat(22, f"{what} must have shape {tuple(shape)}, not {array.shape}")


def check_planes(planes, fmt, what):
    """Raise :class:`UnsupportedFormat` unless ``planes`` (a list of
    arrays) are the colour planes of a frame laid out as ``fmt`` (a
    ``capi.m2m_format``): their count, then each one's shape and dtype
    (:func:`check_plane`); ``what`` names the frame ("the NV12 640x480
    frame"), and each plane is named within it."""
    PlanesCheck(fmt, what)(planes)


class PlanesCheck:
    """:func:`check_planes` for one format, worked out once: a session
    checks every frame it is given with one (the format's plane shapes
    and names are tens of microseconds of Python to work out, more than
    a small frame's conversion), and messages are written only for
    what fails."""

    def __init__(self, fmt, what):
        self._shapes = [(tuple(shape), dtype) for shape, dtype in plane_shapes(fmt)]
        self._names = plane_names(fmt.fourcc)
        self._what = what

    def __call__(self, planes):
        shapes, what = self._shapes, self._what
        if len(planes) != len(shapes):
            raise UnsupportedFormat(22, f"{what} has {len(shapes)} planes {self._names}, "
                                    f"not {len(planes)}")
        for plane, (shape, dtype), name in zip(planes, shapes, self._names):
            if not (isinstance(plane, np.ndarray) and plane.dtype == dtype and
                    plane.shape == shape):
                check_plane(plane, shape, dtype, f"the {name} plane of {what}"
                            if len(shapes) > 1 else what)


#: Formats guessed from a lone array's shape, when no format is named.
_GUESS = {2: "GREY", 3: {2: "YUYV", 3: "RGB24", 4: "RGBA32"}}


def guess_format(array):
    """The format a lone array is taken to be when none is named: (h, w)
    GREY, (h, w, 2) YUYV, (h, w, 3) RGB24, (h, w, 4) RGBA32."""
    if not isinstance(array, np.ndarray):
        raise UnsupportedFormat(22, f"frame must be a numpy array or an m2m.Frame, "
                                f"not {type(array).__name__}")
    guess = _GUESS.get(array.ndim)
    if isinstance(guess, dict):
        guess = guess.get(array.shape[2])
    if guess is None:
        raise UnsupportedFormat(22, f"cannot tell the pixel format of an array of shape "
                                f"{array.shape}: name it (e.g. fmt=\"YUYV\")")
    return guess
