# SPDX-License-Identifier: LGPL-2.1-or-later
"""Frames: a picture as one numpy array per colour plane."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Optional, Sequence, Tuple, Union, overload

import numpy as np

from . import _args, capi
from ._colour import check_matrix, check_range, matrix_of, range_of
from ._errors import InvalidArgument, NotFound, UnsupportedFormat
from ._formats import check_planes, format_name, frame_format, plane_names

if TYPE_CHECKING:
    from ._picture import PlanePictures
    from .device import Device

#: A plane: an array of uint8 (uint16 for RGB565) samples.
Array = np.ndarray[Any, np.dtype[Any]]


class Frame:
    """A picture: one numpy array per colour plane, with its format.

    :attr:`planes` holds the arrays (NV12: Y ``(h, w)`` and CbCr
    ``(h/2, w/2, 2)``; YUYV: one ``(h, w, 2)``); iterating over a frame
    gives them too, so ``y, cbcr = frame`` works, and ``frame["Y"]`` picks
    one by name. A one-plane frame is also usable as that array:
    :attr:`array`, ``numpy.asarray(frame)``.

    :attr:`matrix` ("bt601", "bt709", "bt2020") and :attr:`range`
    ("limited", "full") say how its samples code colour, as the device
    that made it reported; :meth:`Device.convert` takes them from a Frame
    it converts, so a round trip keeps the colours. None is untagged.

    Frames from a :class:`~m2m.Session` are views of the device's mapped
    buffers, not copies (see :attr:`buffer`): valid until the session
    reuses the buffer (the next iteration, or :meth:`Session.release`);
    :meth:`copy` keeps one. Their memory stays mapped while any of their
    arrays is alive, even after the device is closed.

    Made by hand, a frame is checked as :meth:`Device.convert` checks a
    source: ``planes`` a tuple or list of numpy arrays shaped and typed
    per :func:`~m2m.plane_shapes` (any strides), ``format`` a pixel
    format, ``width`` and ``height`` positive integers (None: the first
    plane's, as :meth:`Device.convert` reads a source's), ``names`` (None:
    the format's) its :func:`~m2m.plane_names`, ``matrix`` and ``range``
    names or None; anything else raises an :class:`~m2m.InvalidArgument`
    naming it. ``buffer`` and ``index`` are a session's.

    Example::

        y, cbcr = dev.convert(rgb, to="NV12")        # a Frame, unpacked
        with dev.session("RGB24", (640, 480), to="YUYV") as s:
            for out in s.process(frames):
                print(out.sequence, out.array.shape)   # (480, 640, 2)
        grey = m2m.Frame([np.zeros((48, 64), np.uint8)], "GREY", 64, 48)
        shown = m2m.Frame([rgb], "RGB24")   # size from the array; a notebook
                                            # shows it (to_rgb(), _repr_png_())
    """

    __slots__ = ("planes", "format", "width", "height", "names", "_buffer",
                 "index", "matrix", "range", "_ends_drain", "__weakref__")

    planes: Tuple[Array, ...]
    format: str
    width: int
    height: int
    names: Tuple[str, ...]
    index: Optional[int]
    matrix: Optional[str]
    range: Optional[str]

    def __init__(self, planes: Sequence[Array], format: Union[str, int],  # noqa: A002
                 width: Optional[int] = None, height: Optional[int] = None,
                 names: Optional[Sequence[str]] = None, buffer: Optional[capi.m2m_buffer] = None,
                 index: Optional[int] = None, matrix: Optional[str] = None,
                 range: Optional[str] = None) -> None:  # noqa: A002
        #: The Y'CbCr matrix: "bt601", "bt709", "bt2020", or None
        #: (untagged). Of an R'G'B' frame, a label: the matrix of the
        #: Y'CbCr it was made from, which Y'CbCr made from it takes.
        self.matrix = check_matrix(matrix)
        #: "limited" (Y' 16..235) or "full" (0..255), or None (untagged).
        self.range = check_range(range)
        self.format = _format(format)
        if width is None or height is None:
            shape_width, shape_height = _first_shape(planes, self.format)
            width = shape_width if width is None else width
            height = shape_height if height is None else height
        self.width, self.height = _args.dimensions((width, height), "(width, height)")
        own = plane_names(self.format)
        if names is not None and (not isinstance(names, (tuple, list)) or tuple(names) != own):
            raise InvalidArgument(22, f"names of a {self.format} frame are {own} (or None), "
                                  f"not {names!r}")
        self.names = own
        self.planes = _planes(planes, self.format, self.width, self.height, own)
        if buffer is not None and not isinstance(buffer, capi.m2m_buffer):
            raise _args.wrong_type("buffer", "a session's capi.m2m_buffer or None", buffer)
        self._buffer = buffer
        self.index = None if index is None else _args.integer(index, "index", 0)
        self._ends_drain = False

    @property
    def buffer(self) -> Optional[capi.m2m_buffer]:
        """The ``capi.m2m_buffer`` this frame views (session frames), else
        None.

        Example::

            addr = m2m.capi.m2m_py_buffer_address(frame.buffer, 0)
        """
        return self._buffer

    @property
    def array(self) -> Array:
        """The one plane of a one-plane frame (YUYV, RGB24, GREY, ...).

        Example::

            rgb = out.array            # (h, w, 3) for RGB24

        Raises :class:`UnsupportedFormat` for formats with several planes.
        """
        if len(self.planes) != 1:
            raise UnsupportedFormat(22, f"a {self.format} frame has {len(self.planes)} planes "
                                    f"{self.names}: use frame.planes or frame[name]")
        return self.planes[0]

    def __array__(self, dtype: Any = None) -> Array:
        return self.array if dtype is None else self.array.astype(dtype)

    def __iter__(self) -> Iterator[Array]:
        return iter(self.planes)

    def __len__(self) -> int:
        return len(self.planes)

    @overload
    def __getitem__(self, key: Union[str, int]) -> Array: ...

    @overload
    def __getitem__(self, key: slice) -> Tuple[Array, ...]: ...

    def __getitem__(self, key: Any) -> Union[Array, Tuple[Array, ...]]:
        """A plane by index or by name ("Y", "CbCr", ...); :class:`NotFound`
        for one the frame does not have."""
        if isinstance(key, str) and key in self.names:
            return self.planes[self.names.index(key)]
        if _args.is_integer(key) and -len(self.planes) <= key < len(self.planes):
            return self.planes[key]
        if isinstance(key, slice):
            return self.planes[key]
        if not isinstance(key, str) and not _args.is_integer(key):
            raise _args.wrong_type("a plane", "its name or index", key)
        raise NotFound(2, f"a {self.format} frame has planes {self.names}, not {key!r}")

    def _meta(self, name, default=None):
        return default if self._buffer is None else getattr(self._buffer, name)

    @property
    def sequence(self) -> Optional[int]:
        """Frame number on its queue (session frames), else None."""
        return self._meta("sequence")

    @property
    def timestamp_ns(self) -> Optional[int]:
        """The timestamp carried from the OUTPUT frame (ns), else None."""
        return self._meta("timestamp_ns")

    @property
    def flags(self) -> int:
        """V4L2_BUF_FLAG_* bits of the buffer (session frames), else 0."""
        return self._meta("flags", 0)

    @property
    def last(self) -> bool:
        """Whether this is the last frame of a drain (always flagged, by
        the device or by its session) or of a geometry (when the device
        flagged it: the LAST flag of :attr:`flags`)."""
        return self._ends_drain or bool(self.flags & capi.M2M_BUFFER_LAST)

    @property
    def error(self) -> bool:
        """Whether the device flagged this frame as failed."""
        return bool(self.flags & capi.M2M_BUFFER_ERROR)

    def copy(self) -> Frame:
        """A frame holding copies of the planes, detached from any buffer.

        Example::

            kept = [out.copy() for out in session.process(frames)]
        """
        return Frame([np.array(p) for p in self.planes], self.format, self.width,
                     self.height, self.names, matrix=self.matrix, range=self.range)

    def to_rgb(self, device: Optional[Device] = None) -> np.ndarray[Any, np.dtype[np.uint8]]:
        """The picture as full-range R'G'B': a new ``(h, w, 3)`` uint8
        array, what :meth:`Device.convert` gives for RGB24 (and what
        ``matplotlib``'s ``imshow``, ``PIL.Image.fromarray`` and
        ``cv2.cvtColor(..., COLOR_RGB2BGR)`` take).

        The conversion is the device's: ``device`` (an open
        :class:`Device`) or, by default, the in-process one (the HQV
        engine, which vhqv computes too), opened on first use and kept.
        It reads the frame's own :attr:`matrix` and :attr:`range`, so a
        BT.709 or full-range frame shows its true colours; untagged, it is
        read as libm2m reads any (BT.601 limited-range Y'CbCr).

        Example::

            hd = dev.convert(rgb, to="NV12", to_matrix="bt709")
            plt.imshow(hd.to_rgb())              # read as BT.709
            same = hd.to_rgb(dev)                # converted by dev instead

        Raises :class:`WrongType` naming ``device`` for anything but a
        Device or None; a device's errors as :meth:`Device.convert`.
        """
        from ._picture import rgb
        return rgb(self, device)

    def _repr_png_(self) -> bytes:
        """PNG bytes of :meth:`to_rgb`'s picture: what a notebook (IPython)
        shows for a frame."""
        from ._picture import png
        return png(self.to_rgb())

    def plane_pictures(self) -> PlanePictures:
        """The frame's planes as grey pictures side by side, for a
        notebook: a :class:`PlanePictures`, whose PNG shows each plane (a
        plane of several channels one picture a channel) left to right in
        plane order, with their labels in :attr:`PlanePictures.labels`.

        Example::

            nv12.plane_pictures()       # shows Y, then CbCr's Cb and Cr

        Raises :class:`UnsupportedFormat` for a format of 16-bit words
        (RGB565), which is no grey picture: use :meth:`to_rgb`.
        """
        from ._picture import PlanePictures
        return PlanePictures(self)

    @classmethod
    def _of(cls, planes, name, fmt, buffer=None, index=None):
        """A frame of a format a device gave, tagged with its colour. Its
        planes are views laid out by that format (plane_views()), so they
        are not checked again."""
        frame = cls.__new__(cls)
        frame.planes = tuple(planes)
        frame.format = name
        frame.width, frame.height = fmt.width, fmt.height
        frame.names = plane_names(name)
        frame._buffer = buffer
        frame.index = index
        frame.matrix, frame.range = matrix_of(fmt), range_of(fmt)
        frame._ends_drain = False
        return frame

    def _with(self, planes):
        """A frame like this one (format, size, colour) of other planes of
        the same layout: each result of a conversion set up once."""
        frame = Frame.__new__(Frame)
        frame.planes = planes
        frame.format, frame.width, frame.height = self.format, self.width, self.height
        frame.names, frame.matrix, frame.range = self.names, self.matrix, self.range
        frame._buffer = frame.index = None
        frame._ends_drain = False
        return frame

    def __repr__(self) -> str:
        shapes = ", ".join(f"{n} {p.shape}" for n, p in zip(self.names, self.planes))
        tags = "".join(f" {t}" for t in (self.matrix, self.range) if t)
        return f"<m2m.Frame {self.format} {self.width}x{self.height}{tags}: {shapes}>"


def _format(value):
    try:
        return format_name(value)
    except InvalidArgument as e:
        raise type(e)(e.errno, f"format={value!r}: {e.strerror}") from None


def _first_shape(planes, fmt):
    """(width, height) of a frame's first plane, as convert() reads a
    source's size from its first array."""
    if not isinstance(planes, (tuple, list)) or not planes:
        raise _args.wrong_type("planes", "a tuple or list of numpy arrays", planes)
    return plane_size(planes[0], fmt)


def plane_size(first, fmt):
    """(width, height) of a fmt frame whose first plane is the array first."""
    if not isinstance(first, np.ndarray):
        raise UnsupportedFormat(22, f"a {fmt} frame must be a numpy array, "
                                f"not {type(first).__name__}")
    if first.ndim < 2:
        raise UnsupportedFormat(22, f"a {fmt} frame's first plane must have shape "
                                f"(height, width, ...), not {first.shape}")
    return first.shape[1], first.shape[0]


def _planes(planes, fmt, width, height, names):
    """The planes of a frame, checked against its format and size."""
    takes = f"a tuple or list of {len(names)} numpy arrays {names}"
    if not isinstance(planes, (tuple, list)):
        raise _args.wrong_type("planes", takes, planes)
    if len(planes) != len(names):
        raise UnsupportedFormat(22, f"planes takes {takes}, not {len(planes)}")
    check_planes(list(planes), frame_format(fmt, width, height),
                 f"the {fmt} {width}x{height} frame")
    return tuple(planes)
