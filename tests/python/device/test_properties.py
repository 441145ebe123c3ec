# SPDX-License-Identifier: LGPL-2.1-or-later
"""Property-based tests (Hypothesis) of convert()'s arguments: any mix of
valid and invalid values raises nothing but m2m.Error and its
subclasses, and valid ones give arrays of the size asked for.

Derandomized (the examples follow from the test's source, so every run
tries the same ones and a failure reproduces) with a fixed budget: about
3 s on the in-process device; fewer examples on vhqv in the TCG guest."""
import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import m2m
from conftest import DEVICE

EXAMPLES = 250 if DEVICE == "inprocess" else 40
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

FORMATS = tuple(m2m.formats())
# What the device under test takes on each queue (vhqv's single-planar
# node takes no format whose planes have buffers of their own).
with m2m.open(DEVICE) as _d:
    OUTPUT_FORMATS = _d.info.output_formats
    CAPTURE_FORMATS = _d.info.capture_formats
YCBCR = tuple(f for f in FORMATS if f.startswith(("YU", "YV", "UY", "VY", "NV")))
SCALERS = ("nearest", "bilinear", "area")
DEINTERLACERS = ("weave", "bob", "blend", "motion_adaptive")
# Field orders of whole frames: one field a buffer ("top", "bottom",
# "alternate") is refused, as no call of the package says it per buffer.
FIELDS = ("none", "interlaced", "interlaced_tb", "interlaced_bt", "seq_tb", "seq_bt")
SIDE = st.integers(1, 40)

# Values of every wrong kind, for any argument.
JUNK = st.sampled_from([
    None, True, False, 0, 1, -1, 7, 2 ** 40, -2 ** 63, 1.5, 90.0, float("nan"), "", "x",
    "NV12", "bt709", "Bilinear", b"NV12", (), (1,), (3, 2), (1, 2, 3), (0, 0, 4, 4),
    (1, 2, 3, 4, 5), ("a", 1), [2, 2], {1: 2}, {1, 2}, object(), np.float64(2),
    np.bool_(True), np.int64(-3), np.array([4, 4]), np.zeros((2, 2)),
])


@pytest.fixture(scope="module")
def device():
    with m2m.open(DEVICE) as d:
        yield d


def planes_of(fmt, width, height, value=0):
    """A frame of fmt as convert() takes it: an array, or a tuple of them."""
    planes = [np.full(shape, value, dtype) for shape, dtype in
              m2m.plane_shapes(m2m.frame_format(fmt, width, height))]
    return planes[0] if len(planes) == 1 else tuple(planes)


def expected_shapes(frame, fmt, kwargs):
    """The plane shapes a successful convert() must return."""
    to = kwargs.get("to") or fmt
    if "size" in kwargs:
        width, height = kwargs["size"]
    else:
        if "src_size" in kwargs:
            width, height = kwargs["src_size"]
        else:
            first = frame[0] if isinstance(frame, tuple) else frame
            width, height = first.shape[1], first.shape[0]
        if "crop" in kwargs:
            width, height = kwargs["crop"][2:]
        if kwargs.get("rotate") in (90, 270):
            width, height = height, width
    return [shape for shape, _ in m2m.plane_shapes(m2m.frame_format(to, int(width),
                                                                   int(height)))]


def device_format(frame):
    """The format convert() takes a lone array to be."""
    return {2: "GREY", 3: {2: "YUYV", 3: "RGB24", 4: "RGBA32"}.get(frame.shape[-1])}.get(
        frame.ndim) if isinstance(frame, np.ndarray) else None


def result_shapes(result):
    planes = result.planes if isinstance(result, m2m.Frame) else (result,)
    return [p.shape for p in planes]


def rectangle_in(width, height):
    """A rectangle inside width x height."""
    return st.tuples(st.integers(0, width - 1), st.integers(0, height - 1)).flatmap(
        lambda lt: st.tuples(st.just(lt[0]), st.just(lt[1]), st.integers(1, width - lt[0]),
                             st.integers(1, height - lt[1])))


def sometimes_junk(valid):
    """Mostly a valid value, one time in six one of JUNK."""
    return st.integers(0, 5).flatmap(lambda i: JUNK if i == 0 else valid)


@st.composite
def any_call(draw):
    """A convert() call: format, size, frame and every argument drawn from
    valid values and junk alike, rectangles anywhere."""
    fmt = draw(st.sampled_from(FORMATS))
    width, height = draw(SIDE), draw(SIDE)
    frame = planes_of(fmt, width, height)
    if draw(st.integers(0, 7)) == 0:       # a frame of the wrong type, dtype or shape
        frame = draw(st.one_of(JUNK, st.just(np.zeros((height, width, 3), np.float32)),
                               st.just(planes_of("GREY", width + 1, height)),
                               st.just([planes_of("GREY", width, height)] * 3)))
    coordinate = st.integers(-8, 48)
    optional = {
        "fmt": sometimes_junk(st.sampled_from(FORMATS)),
        "to": sometimes_junk(st.sampled_from(FORMATS)),
        "size": sometimes_junk(st.tuples(SIDE, SIDE)),
        "src_size": sometimes_junk(st.tuples(SIDE, SIDE)),
        "crop": sometimes_junk(st.tuples(coordinate, coordinate, coordinate, coordinate)),
        "compose": sometimes_junk(st.tuples(coordinate, coordinate, coordinate, coordinate)),
        "fit": sometimes_junk(st.sampled_from(("stretch", "letterbox", "crop"))),
        "background": sometimes_junk(st.one_of(st.integers(0, 0xFFFFFF),
                                               st.tuples(*[st.integers(0, 255)] * 3))),
        "rotate": sometimes_junk(st.sampled_from((0, 90, 180, 270, 45))),
        "hflip": sometimes_junk(st.booleans()),
        "vflip": sometimes_junk(st.booleans()),
        "scaler": sometimes_junk(st.sampled_from(SCALERS + (None,))),
        "deinterlace": sometimes_junk(st.sampled_from(DEINTERLACERS + (None,))),
        "field": sometimes_junk(st.sampled_from(FIELDS + ("alternate", "top", None))),
        "matrix": sometimes_junk(st.sampled_from(("bt601", "bt709", "bt2020", None))),
        "range": sometimes_junk(st.sampled_from(("limited", "full", None))),
        "to_matrix": sometimes_junk(st.sampled_from(("bt601", "bt709", "bt2020", None))),
        "to_range": sometimes_junk(st.sampled_from(("limited", "full", None))),
    }
    kwargs = draw(st.fixed_dictionaries({}, optional=optional))
    positional = kwargs.pop("fmt", fmt if isinstance(frame, tuple) else None)
    return frame, positional, kwargs


@st.composite
def valid_call(draw):
    """A convert() call the device must do: formats it takes, rectangles
    inside the frame and the result, fields with whole 4:2:0 fields."""
    fmt = draw(st.sampled_from(OUTPUT_FORMATS))
    to = draw(st.sampled_from(CAPTURE_FORMATS))
    interlaced = draw(st.booleans())
    width = draw(SIDE)
    height = 4 * draw(st.integers(1, 10)) if interlaced else draw(SIDE)
    kwargs = {"to": to}
    if interlaced:
        if draw(st.booleans()):
            kwargs["deinterlace"] = draw(st.sampled_from(DEINTERLACERS))
        kwargs["field"] = draw(st.sampled_from(FIELDS[1:]))
    crop = draw(st.one_of(st.none(), rectangle_in(width, height)))
    if crop is not None:
        kwargs["crop"] = crop
    rotate = draw(st.sampled_from((0, 90, 180, 270)))
    kwargs.update(rotate=rotate, hflip=draw(st.booleans()), vflip=draw(st.booleans()),
                  scaler=draw(st.sampled_from(SCALERS + (None,))),
                  background=draw(st.integers(0, 0xFFFFFF)))
    cw, ch = crop[2:] if crop else (width, height)
    size = draw(st.one_of(st.none(), st.tuples(SIDE, SIDE)))
    if size is not None:
        kwargs["size"] = size
    out_w, out_h = size or ((ch, cw) if rotate in (90, 270) else (cw, ch))
    fit = draw(st.sampled_from(("stretch", "letterbox", "crop")))
    kwargs["fit"] = fit
    if fit == "stretch" and draw(st.booleans()):
        kwargs["compose"] = draw(rectangle_in(out_w, out_h))
    if fmt in YCBCR:
        kwargs["matrix"] = draw(st.sampled_from(("bt601", "bt709", "bt2020", None)))
        kwargs["range"] = draw(st.sampled_from(("limited", "full", None)))
    if to in YCBCR and fmt in YCBCR:
        kwargs["to_matrix"] = draw(st.sampled_from(("bt601", "bt709", "bt2020", None)))
        kwargs["to_range"] = draw(st.sampled_from(("limited", "full", None)))
    kwargs["src_size"] = (width, height)
    frame = planes_of(fmt, width, height, draw(st.integers(0, 255)))
    return frame, fmt, kwargs


@SETTINGS
@given(call=any_call())
def test_any_arguments_raise_only_m2m_errors(device, call):
    frame, fmt, kwargs = call
    try:
        result = device.convert(frame, fmt, **kwargs)
    except m2m.Error as e:
        event(f"raised {type(e).__name__}")
        return
    event("converted")
    assert result_shapes(result) == expected_shapes(frame, fmt or device_format(frame), kwargs)


@SETTINGS
@given(call=valid_call())
def test_valid_arguments_give_arrays_of_the_size_asked(device, call):
    frame, fmt, kwargs = call
    result = device.convert(frame, fmt, **kwargs)
    assert result_shapes(result) == expected_shapes(frame, fmt, kwargs)
