# SPDX-License-Identifier: LGPL-2.1-or-later
"""Pictures of frames: R'G'B' for screens, PNG for notebooks.

A frame becomes R'G'B' through a device's conversion (:meth:`Frame.to_rgb`:
the in-process device unless another is given), never through colour
arithmetic of its own here, so a picture shows what the engine makes of
the frame's matrix and range. PNG is written with zlib and struct: 8-bit
grey or RGB, one IDAT chunk, no filter, which every decoder reads.
"""
from __future__ import annotations

import struct
import threading
import zlib
from typing import TYPE_CHECKING, Any, Optional, Tuple, cast

import numpy as np

from . import _args
from ._errors import UnsupportedFormat

if TYPE_CHECKING:
    from ._frame import Frame
    from .device import Device

#: The black columns between two pictures of :class:`PlanePictures`.
GAP = 8

_display: Optional[Device] = None
_display_lock = threading.Lock()


def rgb(frame: Frame, device: Optional[Device]) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """``frame`` as a full-range RGB24 array, converted by ``device``
    (None: this process's in-process device, opened on first use and
    kept; threads share it as they share any Device)."""
    from .device import Device, open  # pylint: disable=redefined-builtin
    global _display  # pylint: disable=global-statement
    if device is None:
        with _display_lock:         # opened once
            _display = _display or open("inprocess")
        result = _display.convert(frame, to="RGB24", to_range="full")
    elif isinstance(device, Device):
        result = device.convert(frame, to="RGB24", to_range="full")
    else:
        raise _args.wrong_type("device", "an m2m.Device or None (the in-process device)",
                               device)
    # RGB24 has one plane, so convert() gives an array.
    return cast("np.ndarray[Any, np.dtype[np.uint8]]", result)


def png(pixels: np.ndarray[Any, np.dtype[Any]]) -> bytes:
    """PNG bytes of an (h, w) grey or (h, w, 3) RGB uint8 array."""
    height, width = pixels.shape[:2]
    colour_type = 2 if pixels.ndim == 3 else 0
    rows = np.zeros((height, 1 + pixels[0].size), np.uint8)   # filter byte 0: none
    rows[:, 1:] = pixels.reshape(height, -1)
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + \
        _chunk(b"IDAT", zlib.compress(rows.tobytes(), 6)) + _chunk(b"IEND", b"")


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + \
        struct.pack(">I", zlib.crc32(kind + data))


class PlanePictures:
    """A frame's planes as grey pictures side by side, for a notebook:
    what :meth:`Frame.plane_pictures` gives.

    Each plane is a picture, left to right in plane order (NV12: Y, then
    CbCr), a plane of several channels one picture a channel, in memory
    order (NV12's CbCr: Cb then Cr; YUYV's one plane: Y, then the
    alternating Cb and Cr). They are top-aligned, :data:`GAP` black
    columns apart; :attr:`labels` names them (``"CbCr[0]"`` is CbCr's
    first channel) and :attr:`tiles` holds each ``(label, left, array)``.

    Example::

        frame.plane_pictures()           # a notebook shows Y, Cb, Cr
        open("planes.png", "wb").write(frame.plane_pictures()._repr_png_())
    """

    __slots__ = ("format", "tiles")
    format: str
    tiles: Tuple[Tuple[str, int, np.ndarray[Any, np.dtype[Any]]], ...]

    def __init__(self, frame: Frame) -> None:
        self.format = frame.format
        tiles, left = [], 0
        for name, plane in zip(frame.names, frame.planes):
            if plane.dtype != np.uint8:
                raise UnsupportedFormat(22, f"a {frame.format} frame packs its samples in "
                                        f"{plane.dtype.itemsize * 8}-bit words, which are no "
                                        "grey pictures: show it with frame.to_rgb()")
            channels = [(name, plane)] if plane.ndim == 2 else \
                [(f"{name}[{c}]", plane[..., c]) for c in range(plane.shape[2])]
            for label, picture in channels:
                tiles.append((label, left, picture))
                left += picture.shape[1] + GAP
        #: ``(label, left column, 2-D uint8 array)`` of each picture.
        self.tiles = tuple(tiles)

    @property
    def labels(self) -> Tuple[str, ...]:
        """The pictures' names, left to right: ``("Y", "CbCr[0]",
        "CbCr[1]")`` for NV12."""
        return tuple(label for label, _, _ in self.tiles)

    def pixels(self) -> np.ndarray[Any, np.dtype[Any]]:
        """The tiled grey picture, an (h, w) uint8 array.

        Example::

            grey = frame.plane_pictures().pixels()
        """
        height = max(p.shape[0] for _, _, p in self.tiles)
        _, left, last = self.tiles[-1]
        canvas = np.zeros((height, left + last.shape[1]), np.uint8)
        for _, left, picture in self.tiles:
            canvas[:picture.shape[0], left:left + picture.shape[1]] = picture
        return canvas

    def _repr_png_(self) -> bytes:
        return png(self.pixels())

    def __repr__(self) -> str:
        return f"<m2m.PlanePictures {self.format}: {', '.join(self.labels)}>"
