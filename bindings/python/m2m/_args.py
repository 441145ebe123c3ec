# SPDX-License-Identifier: LGPL-2.1-or-later
"""Arguments: the one place that checks what a caller passes.

Every public function of :mod:`m2m` and :mod:`m2m.ir` checks its
arguments here before anything reaches libm2m, so that no SWIG message,
bare TypeError or OverflowError gets to the caller: a value of the wrong
type raises :class:`~m2m.WrongType` (also a TypeError), a value of the
right type that is not taken :class:`~m2m.InvalidArgument`, both naming
the argument and what it takes.

The rules, strict so that a mistake is never taken for something else:

- **booleans** are ``True`` or ``False`` (or a ``numpy.bool_``, what numpy
  comparisons give); ``0``, ``1``, ``"no"`` and None are refused;
- **integers** are Python or numpy integers; bools and floats (``90.0``
  too) are refused;
- **names** (rotation is a number; scaler, deinterlace, field, fit,
  matrix, range, queue and event kind are names) are strings, exactly as
  listed: the case counts;
- **sizes and rectangles** are tuples, lists or 1-D numpy arrays of
  integers;
- **timeouts** are None (for ever) or a number of seconds >= 0.
"""
import math
import numbers
from collections.abc import Sequence

import numpy as np

from ._errors import InvalidArgument, WrongType

EINVAL = 22


def _type(value):
    return type(value).__name__


def wrong_type(argument, takes, value):
    """The WrongType to raise for ``argument``, which takes ``takes``."""
    return WrongType(EINVAL, f"{argument} takes {takes}, not {value!r} ({_type(value)})")


def is_integer(value):
    """Whether value is a Python or numpy integer, and not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def boolean(value, argument):
    """``value`` as a bool: True, False or a numpy.bool_ only."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise wrong_type(argument, "True or False", value)


def integer(value, argument, minimum=None, maximum=None, takes=None):
    """``value`` as an int, from ``minimum`` to ``maximum`` (None: no
    bound); ``takes`` says what it is, for the message."""
    if minimum is not None and maximum is not None:
        what = takes or f"an integer from {minimum} to {maximum}"
    elif minimum is not None:
        what = takes or f"an integer >= {minimum}"
    else:
        what = takes or "an integer"
    if not is_integer(value):
        raise wrong_type(argument, what, value)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise InvalidArgument(EINVAL, f"{argument} takes {what}, not {value!r}")
    return int(value)


def name(value, names, argument, *, optional=False):
    """``value`` if it is one of ``names`` exactly (or None when
    ``optional``)."""
    if value is None and optional:
        return None
    listed = ", ".join(repr(n) for n in names) + (" or None" if optional else "")
    if not isinstance(value, str):
        raise wrong_type(argument, listed, value)
    if value not in names:
        raise InvalidArgument(EINVAL, f"{argument} takes {listed}, not {value!r}")
    return value


def integers(value, count, argument, takes):
    """A tuple of ``count`` ints that fit 32 bits (C's), from a tuple, a
    list or a 1-D numpy array; ``takes`` says what they are."""
    ok_container = (isinstance(value, Sequence) and not isinstance(value, (str, bytes))) or \
        (isinstance(value, np.ndarray) and value.ndim == 1)
    if not ok_container or len(value) != count or not all(is_integer(v) for v in value):
        raise wrong_type(argument, takes, value)
    if not all(-2 ** 31 <= v < 2 ** 31 for v in value):
        raise InvalidArgument(EINVAL, f"{argument} takes {takes} that fit 32 bits, "
                              f"not {value!r}")
    return tuple(int(v) for v in value)


def dimensions(value, argument):
    """(width, height), both positive integers."""
    takes = "(width, height), positive integers"
    pair = integers(value, 2, argument, takes)
    if min(pair) <= 0:
        raise InvalidArgument(EINVAL, f"{argument} takes {takes}, not {value!r}")
    return pair


def rect(value, argument):
    """(left, top, width, height) of integers, sizes positive."""
    takes = "(left, top, width, height), integers with a positive width and height"
    box = integers(value, 4, argument, takes)
    if min(box[2:]) <= 0:
        raise InvalidArgument(EINVAL, f"{argument} takes {takes}, not {value!r}")
    return box


def count(value, argument):
    """A positive integer that fits 32 bits."""
    return integer(value, argument, 1, 2 ** 31 - 1, takes="a positive integer")


def seconds(value, argument="timeout"):
    """A timeout: None (for ever) or a number of seconds >= 0, as a float."""
    takes = "None (for ever) or a number of seconds >= 0"
    if value is None:
        return None
    if not isinstance(value, numbers.Real) or isinstance(value, (bool, np.bool_)):
        raise wrong_type(argument, takes, value)
    if math.isnan(value) or value < 0:
        raise InvalidArgument(EINVAL, f"{argument} takes {takes}, not {value!r}")
    return float(value)


def string(value, argument, takes):
    """``value`` if it is a str."""
    if not isinstance(value, str):
        raise wrong_type(argument, takes, value)
    return value
