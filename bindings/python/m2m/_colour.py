# SPDX-License-Identifier: LGPL-2.1-or-later
"""Colour: the names the package gives a frame's matrix and range, and the
V4L2 values of a ``capi.m2m_format`` they stand for. This is the one
place that maps between them, both ways.

A matrix is the Y'CbCr encoding (``ycbcr_enc``); setting one also sets
the colorspace that goes with it, since V4L2 drops the encoding of a
format whose colorspace is the default, and libm2m derives the matrix of
a Y'CbCr made from R'G'B' from the colorspace. A range is the
``quantization``. None leaves the field 0: untagged, for libm2m to fill
in by its rule (docs/libm2m.md, "Colour"), which this package does not
repeat.
"""
from . import _args, capi

#: Matrix names: (ycbcr_enc, the colorspace set with it).
_MATRICES = {
    "bt601": (capi.V4L2_YCBCR_ENC_601, capi.V4L2_COLORSPACE_SMPTE170M),
    "bt709": (capi.V4L2_YCBCR_ENC_709, capi.V4L2_COLORSPACE_REC709),
    "bt2020": (capi.V4L2_YCBCR_ENC_BT2020, capi.V4L2_COLORSPACE_BT2020),
}
#: Range names: quantization.
_RANGES = {
    "limited": capi.V4L2_QUANTIZATION_LIM_RANGE,
    "full": capi.V4L2_QUANTIZATION_FULL_RANGE,
}

MATRICES = tuple(_MATRICES)
RANGES = tuple(_RANGES)


def check_matrix(value, argument="matrix"):
    """``value`` if it is a matrix name or None (untagged), else
    InvalidArgument naming ``argument`` and the names it takes."""
    return _args.name(value, MATRICES, argument, optional=True)


def check_range(value, argument="range"):
    """``value`` if it is a range name or None (untagged), else
    InvalidArgument naming ``argument`` and the names it takes."""
    return _args.name(value, RANGES, argument, optional=True)


def tag(fmt, matrix, range_):
    """Set a format's ycbcr_enc and colorspace from a matrix name and its
    quantization from a range name; None leaves a field as it is."""
    if matrix is not None:
        fmt.ycbcr_enc, fmt.colorspace = _MATRICES[matrix]
    if range_ is not None:
        fmt.quantization = _RANGES[range_]


def matrix_of(fmt):
    """The name of a format's ycbcr_enc, or None for one without a name
    here (0, the default, from a device that does not say)."""
    return next((n for n, (enc, _) in _MATRICES.items() if enc == fmt.ycbcr_enc), None)


def range_of(fmt):
    """The name of a format's quantization, or None (0: not said)."""
    return next((n for n, q in _RANGES.items() if q == fmt.quantization), None)
