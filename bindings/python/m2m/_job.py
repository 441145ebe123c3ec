# SPDX-License-Identifier: LGPL-2.1-or-later
"""A job: every geometry and colour argument of one conversion or
session, checked and worked out (the size, the rectangles a ``fit``
asks for, the background as 0xRRGGBB). :meth:`Device.convert` and
:meth:`Device.session` both build one with :func:`job`; the Device sets
it up on the device, and convert() compares jobs to know when the
device's buffers can be reused."""
import math
import numbers
from dataclasses import dataclass

from ._colour import check_matrix, check_range
from ._errors import InvalidArgument
from ._formats import format_name

#: What ``fit`` takes: how a picture of another shape goes into ``size``.
FITS = ("stretch", "letterbox", "crop")


@dataclass(frozen=True)
class Job:
    """One conversion's arguments, as the device is to be set up."""
    src: str
    width: int
    height: int
    field: object
    to: str
    size: tuple
    crop: tuple        # the source rectangle to set, or None: the frame
    compose: tuple     # where the picture goes, or None: the whole result
    fit: str
    background: int    # 0xRRGGBB
    rotate: object
    hflip: bool
    vflip: bool
    deinterlace: object
    scaler: object
    matrix: str
    range: str
    to_matrix: str
    to_range: str


def job(src, width, height, *, to=None, size=None, crop=None, compose=None, fit="stretch",
        background=0, rotate=0, hflip=False, vflip=False, deinterlace=None, field=None,
        scaler=None, matrix=None, range=None, to_matrix=None,  # noqa: A002
        to_range=None):
    """Check a conversion's arguments and work out its geometry."""
    if fit not in FITS:
        raise InvalidArgument(22, f"fit takes {', '.join(repr(f) for f in FITS)}, not {fit!r}")
    if compose is not None and fit != "stretch":
        raise InvalidArgument(22, f"compose and fit={fit!r} both place the picture: give "
                              "compose with fit='stretch' (the default), or fit alone")
    src = format_name(src)
    to = src if to is None else format_name(to)
    if deinterlace is not None and field is None:
        field = "interlaced_tb"
    frame = (0, 0, width, height)
    crop = None if crop is None else rect(crop, "crop")
    compose = None if compose is None else rect(compose, "compose")
    turned = rotate in (90, 270)
    left, top, cw, ch = crop or frame
    oriented = (ch, cw) if turned else (cw, ch)
    size = oriented if size is None else dimensions(size, "size")
    if fit == "letterbox":
        compose = _letterbox(oriented, size)
    elif fit == "crop":
        inner = _centre_part(oriented, size)
        inner = (inner[1], inner[0]) if turned else inner
        crop = (left + _down((cw - inner[0]) / 2), top + _down((ch - inner[1]) / 2),
                *inner)
    return Job(src, width, height, field or "none", to, size,
               None if fit != "stretch" and crop == frame else crop,
               None if fit != "stretch" and compose == (0, 0, *size) else compose,
               fit, colour_code(background), rotate, bool(hflip), bool(vflip), deinterlace,
               scaler, check_matrix(matrix, "matrix"), check_range(range, "range"),
               check_matrix(to_matrix, "to_matrix"), check_range(to_range, "to_range"))


def _integers(value, count):
    """The ``count`` integers of a sequence, or None if it is not one.
    They must fit the C structures' 32 bits: larger ones would reach
    the user as SWIG's OverflowError."""
    try:
        items = tuple(value)
    except TypeError:
        return None
    if len(items) != count or not all(isinstance(v, numbers.Integral) and
                                      not isinstance(v, bool) and
                                      -2 ** 31 <= v < 2 ** 31 for v in items):
        return None
    return tuple(int(v) for v in items)


def dimensions(value, argument):
    """(width, height), both positive integers, or InvalidArgument
    naming the argument."""
    pair = _integers(value, 2)
    if pair is None or min(pair) <= 0:
        raise InvalidArgument(22, f"{argument} takes (width, height), positive integers, "
                              f"not {value!r}")
    return pair


def count(value, argument):
    """A positive integer that fits 32 bits, or InvalidArgument naming
    the argument."""
    if not (isinstance(value, numbers.Integral) and not isinstance(value, bool) and
            0 < value < 2 ** 31):
        raise InvalidArgument(22, f"{argument} takes a positive integer, not {value!r}")
    return int(value)


def rect(value, argument):
    """(left, top, width, height) of integers, sizes positive."""
    box = _integers(value, 4)
    if box is None or min(box[2:]) <= 0:
        raise InvalidArgument(22, f"{argument} takes (left, top, width, height), integers "
                              f"with a positive width and height, not {value!r}")
    return box


def colour_code(value):
    """A colour as 0xRRGGBB from (r, g, b) of 0..255 or 0xRRGGBB."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and \
            0 <= value <= 0xFFFFFF:
        return int(value)
    rgb = _integers(value, 3) if not isinstance(value, (str, bytes)) else None
    if rgb is None or not all(0 <= c <= 255 for c in rgb):
        raise InvalidArgument(22, "background takes (r, g, b), each 0 to 255, or an integer "
                              f"0xRRGGBB, not {value!r}")
    return rgb[0] << 16 | rgb[1] << 8 | rgb[2]


# Rectangles a fit makes are whole pixels: sizes go to the nearest, from 1
# to what holds them, positions down, so the rectangle stays inside and
# as near the centre as a pixel allows. Devices of the HQV engine take any
# rectangle inside the frame; one that moves it is reported (Device).

def _down(x):
    return int(math.floor(x))


def _nearest_within(x, limit):
    """x to the nearest whole number, from 1 to limit."""
    return max(1, min(int(math.floor(x + 0.5)), limit))


def _letterbox(picture, size):
    """The compose rectangle that shows all of a picture of size
    ``picture`` (w, h) in ``size`` at its own aspect ratio, centred."""
    (pw, ph), (width, height) = picture, size
    scale = min(width / pw, height / ph)
    w, h = _nearest_within(pw * scale, width), _nearest_within(ph * scale, height)
    return (_down((width - w) / 2), _down((height - h) / 2), w, h)


def _centre_part(picture, size):
    """The (w, h) of the largest part of ``picture`` with the aspect
    ratio of ``size``."""
    (pw, ph), (width, height) = picture, size
    if pw * height > ph * width:
        return (_nearest_within(ph * width / height, pw), ph)
    return (pw, _nearest_within(pw * height / width, ph))
