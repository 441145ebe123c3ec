# SPDX-License-Identifier: LGPL-2.1-or-later
"""A job: every geometry and colour argument of one conversion or
session, checked and worked out (the size, the rectangles a ``fit``
asks for, the background as 0xRRGGBB). :meth:`Device.convert` and
:meth:`Device.session` both build one with :func:`job`; the Device sets
it up on the device, and convert() compares jobs to know when the
device's buffers can be reused."""
import math
from dataclasses import dataclass

from . import _args
from ._colour import check_matrix, check_range
from ._errors import InvalidArgument
from ._formats import FIELDS, format_name, frame_format

#: What ``fit`` takes: how a picture of another shape goes into ``size``.
FITS = ("stretch", "letterbox", "crop")

#: The field orders of a buffer holding a whole frame, which is what
#: convert() and sessions queue; "top", "bottom" and "alternate" buffers
#: hold one field each, and which one is said per buffer, as they do not.
FRAME_FIELDS = ("none", "interlaced", "interlaced_tb", "interlaced_bt", "seq_tb", "seq_bt")


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
        to_range=None, src_argument="fmt", size_argument="src_size"):
    """Check a conversion's arguments (m2m._args) and work out its
    geometry. ``src_argument`` and ``size_argument`` name where the
    source's format and size came from, for messages."""
    fit = _args.name(fit, FITS, "fit")
    if compose is not None and fit != "stretch":
        raise InvalidArgument(22, f"compose and fit={fit!r} both place the picture: give "
                              "compose with fit='stretch' (the default), or fit alone")
    src = format_argument(src, src_argument)
    to = src if to is None else format_argument(to, "to")
    rotate = _args.integer(rotate, "rotate", takes="0, 90, 180 or 270 (degrees clockwise)")
    scaler = _args.string(scaler, "scaler", "a filter name or None") \
        if scaler is not None else None
    deinterlace = _args.string(deinterlace, "deinterlace", "a mode name or None") \
        if deinterlace is not None else None
    field = _args.name(field, tuple(FIELDS), "field", optional=True)
    if field is not None and field not in FRAME_FIELDS:
        raise InvalidArgument(22, f"field={field!r} is one field a buffer, and which one is "
                              "said per buffer; convert() and sessions queue whole frames: "
                              f"give {', '.join(repr(f) for f in FRAME_FIELDS)}")
    if deinterlace is not None and field is None:
        field = "interlaced_tb"
    _frame_size(src, (width, height), size_argument)
    frame = (0, 0, width, height)
    crop = None if crop is None else _args.rect(crop, "crop")
    compose = None if compose is None else _args.rect(compose, "compose")
    turned = rotate in (90, 270)
    left, top, cw, ch = crop or frame
    oriented = (ch, cw) if turned else (cw, ch)
    size = oriented if size is None else _args.dimensions(size, "size")
    _frame_size(to, size, "size")
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
               fit, colour_code(background), rotate, _args.boolean(hflip, "hflip"),
               _args.boolean(vflip, "vflip"), deinterlace, scaler,
               check_matrix(matrix, "matrix"), check_range(range, "range"),
               check_matrix(to_matrix, "to_matrix"), check_range(to_range, "to_range"))


def format_argument(value, argument):
    """A pixel format's name, or UnsupportedFormat (WrongType) naming the
    argument."""
    try:
        return format_name(value)
    except InvalidArgument as e:
        raise type(e)(e.errno, f"{argument}={value!r}: {e.strerror}") from None


def _frame_size(fmt, size, argument):
    """Refuse a size libm2m does not take for a format (1x1 to 8192x8192),
    naming the argument it came from."""
    try:
        frame_format(fmt, *size)
    except InvalidArgument as e:
        raise type(e)(e.errno, f"{argument} {size!r}: {e.strerror}") from None


def colour_code(value):
    """A colour as 0xRRGGBB from (r, g, b) of 0..255 or 0xRRGGBB."""
    takes = "(r, g, b), each 0 to 255, or an integer 0xRRGGBB"
    if _args.is_integer(value):
        return _args.integer(value, "background", 0, 0xFFFFFF, takes=takes)
    rgb = _args.integers(value, 3, "background", takes)
    if not all(0 <= c <= 255 for c in rgb):
        raise InvalidArgument(22, f"background takes {takes}, not {value!r}")
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
