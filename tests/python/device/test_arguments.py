# SPDX-License-Identifier: LGPL-2.1-or-later
"""convert() and session() arguments: colour by name, fit, compose and
background, every argument holding for its own call only, rectangles the
device would move, and bad arguments named."""
import numpy as np
import pytest

import m2m
from conftest import DEVICE, channel_psnr, photo

RED, BLUE = (255, 0, 0), (0, 0, 255)


@pytest.fixture
def picture(smooth_rgb):
    """64x48 R'G'B' whose every pixel differs from its neighbours."""
    return smooth_rgb


def planes(result):
    return tuple(result.planes) if isinstance(result, m2m.Frame) else (result,)


def same(a, b):
    return all(np.array_equal(x, y) for x, y in zip(planes(a), planes(b)))


# ----------------------------------------------------------------------
# Colour

def test_untagged_results_follow_libm2ms_rule(dev, picture):
    nv12 = dev.convert(picture, to="NV12")
    assert (nv12.matrix, nv12.range) == ("bt601", "limited")
    again = dev.convert(nv12, to="YUV420")           # Y'CbCr from Y'CbCr keeps them
    assert (again.matrix, again.range) == ("bt601", "limited")
    hd = dev.convert(picture, to="NV12", to_matrix="bt709", to_range="full")
    assert (hd.matrix, hd.range) == ("bt709", "full")
    assert dev.get_format("capture").ycbcr_enc == m2m.capi.V4L2_YCBCR_ENC_709


def test_bt709_on_both_sides_round_trips_a_photo(dev):
    rgb = photo("chelsea")
    hd = dev.convert(rgb, to="NV12", to_matrix="bt709")
    assert hd.matrix == "bt709"
    back = dev.convert(tuple(hd.planes), "NV12", to="RGB24", matrix="bt709")
    assert min(channel_psnr(back, rgb)) >= 40           # as BT.601 does (test_peers)
    # Read as BT.601, the same bytes lose 4-10 dB: the tag is what counts.
    wrong = dev.convert(tuple(hd.planes), "NV12", to="RGB24")
    assert min(channel_psnr(wrong, rgb)) < 38


def test_to_range_full_gives_luma_0_to_255(dev):
    black_white = np.zeros((48, 64, 3), np.uint8)
    black_white[:, 32:] = 255
    limited = dev.convert(black_white, to="NV12")
    assert (limited["Y"].min(), limited["Y"].max()) == (16, 235)
    full = dev.convert(black_white, to="NV12", to_range="full")
    assert (full["Y"].min(), full["Y"].max()) == (0, 255)
    assert full.range == "full"


def test_a_frame_carries_its_tags_through_convert(dev, picture):
    frame = dev.convert(picture, to="NV12", to_matrix="bt709", to_range="full")
    tagged = dev.convert(tuple(frame.planes), "NV12", to="RGB24", matrix="bt709", range="full")
    untagged = dev.convert(tuple(frame.planes), "NV12", to="RGB24")
    np.testing.assert_array_equal(dev.convert(frame, to="RGB24"), tagged)
    assert not np.array_equal(tagged, untagged)
    assert np.abs(tagged.astype(int) - picture).max() <= 12     # 4:2:0 on a smooth ramp


def test_a_call_overrides_a_frames_tags(dev, picture):
    frame = dev.convert(picture, to="NV12", to_matrix="bt709", to_range="full")
    overridden = dev.convert(frame, to="RGB24", matrix="bt601")
    np.testing.assert_array_equal(
        overridden, dev.convert(tuple(frame.planes), "NV12", to="RGB24", matrix="bt601",
                                range="full"))


def test_session_frames_carry_the_sessions_colour(dev, picture):
    expected = dev.convert(picture, to="NV12", to_matrix="bt709")
    with dev.session("RGB24", (64, 48), to="NV12", to_matrix="bt709") as s:
        assert (s.inputs[0].range, s.output_format.ycbcr_enc) == \
            ("full", m2m.capi.V4L2_YCBCR_ENC_709)
        out = next(s.process([picture]))
        assert (out.matrix, out.range) == ("bt709", "limited")
        assert same(out, expected)


# ----------------------------------------------------------------------
# fit, compose, background

def test_letterbox_centres_the_whole_picture_on_the_background(dev, picture):
    boxed = dev.convert(picture, size=(64, 64), fit="letterbox", background=RED)
    assert (boxed[:8] == RED).all() and (boxed[56:] == RED).all()
    np.testing.assert_array_equal(boxed[8:56], picture)
    pillar = dev.convert(picture, size=(128, 48), fit="letterbox", background=RED)
    assert (pillar[:, :32] == RED).all() and (pillar[:, 96:] == RED).all()
    np.testing.assert_array_equal(pillar[:, 32:96], picture)


def test_letterbox_scales_and_keeps_the_turned_aspect_ratio(dev, picture):
    turned = dev.convert(picture, size=(64, 64), rotate=90, fit="letterbox")
    assert (turned[:, :8] == 0).all() and (turned[:, 56:] == 0).all()   # black by default
    np.testing.assert_array_equal(turned[:, 8:56], np.rot90(picture, -1))
    small = dev.convert(picture, size=(32, 32), fit="letterbox")
    np.testing.assert_array_equal(small[4:28], dev.convert(picture, size=(32, 24)))


def test_fit_rectangles_are_whole_pixels(dev, picture):
    # 64x48 into 50x30: 40x30 at left (50 - 40) / 2 = 5.
    np.testing.assert_array_equal(
        dev.convert(picture, size=(50, 30), fit="letterbox"),
        dev.convert(picture, size=(50, 30), compose=(5, 0, 40, 30)))
    # Into 51x30: 40x30 at (51 - 40) / 2 = 5.5, rounded down to 5.
    np.testing.assert_array_equal(
        dev.convert(picture, size=(51, 30), fit="letterbox"),
        dev.convert(picture, size=(51, 30), compose=(5, 0, 40, 30)))


def test_fit_crop_fills_the_size_with_the_centre_of_the_crop(dev, picture):
    np.testing.assert_array_equal(dev.convert(picture, size=(48, 48), fit="crop"),
                                  picture[:, 8:56])
    np.testing.assert_array_equal(
        dev.convert(picture, crop=(0, 0, 32, 24), size=(24, 24), fit="crop"),
        picture[0:24, 4:28])
    # Turned: the oriented crop takes the aspect ratio of the size.
    np.testing.assert_array_equal(
        dev.convert(picture, size=(24, 48), rotate=90, fit="crop"),
        dev.convert(picture, crop=(0, 8, 64, 32), size=(24, 48), rotate=90))


def test_compose_places_the_picture_and_background_fills_the_rest(dev, picture):
    out = dev.convert(picture, compose=(8, 8, 32, 24), background=BLUE)
    np.testing.assert_array_equal(out[8:32, 8:40], dev.convert(picture, size=(32, 24)))
    outside = np.ones((48, 64), bool)
    outside[8:32, 8:40] = False
    assert (out[outside] == BLUE).all()


def test_background_as_an_integer_is_0xrrggbb(dev, picture):
    np.testing.assert_array_equal(
        dev.convert(picture, size=(64, 64), fit="letterbox", background=0x102030),
        dev.convert(picture, size=(64, 64), fit="letterbox", background=(16, 32, 48)))


# ----------------------------------------------------------------------
# Every argument holds for its own call only

def woven():
    frame = np.empty((48, 64), np.uint8)
    frame[0::2], frame[1::2] = 60, 200
    return frame


def nv12_planes(picture):
    with m2m.open("inprocess") as d:
        return tuple(d.convert(picture, to="NV12").planes), "NV12"


# (source, first call's arguments, second's): the results differ.
PAIRS = {
    "to": ("rgb", dict(to="RGB24"), dict(to="BGR24")),
    "size": ("rgb", dict(size=(64, 48)), dict(size=(32, 24))),
    "crop": ("rgb", dict(size=(64, 48)), dict(size=(64, 48), crop=(8, 8, 32, 24))),
    "compose": ("rgb", dict(compose=(0, 0, 32, 24)), dict(compose=(32, 24, 32, 24))),
    "fit": ("rgb", dict(size=(64, 64)), dict(size=(64, 64), fit="letterbox")),
    "background": ("rgb", dict(size=(64, 64), fit="letterbox", background=RED),
                   dict(size=(64, 64), fit="letterbox")),
    "rotate": ("rgb", dict(rotate=180), dict()),
    "hflip": ("rgb", dict(hflip=True), dict()),
    "vflip": ("rgb", dict(vflip=True), dict()),
    "scaler": ("rgb", dict(size=(96, 72), scaler="nearest"), dict(size=(96, 72))),
    "deinterlace": ("woven", dict(deinterlace="blend"), dict(field="interlaced_tb")),
    "field": ("woven", dict(field="interlaced_tb"), dict()),
    "matrix": ("nv12", dict(to="RGB24", matrix="bt709"), dict(to="RGB24")),
    "range": ("nv12", dict(to="RGB24", range="full"), dict(to="RGB24")),
    "to_matrix": ("rgb", dict(to="NV12", to_matrix="bt709"), dict(to="NV12")),
    "to_range": ("rgb", dict(to="NV12", to_range="full"), dict(to="NV12")),
}


@pytest.mark.parametrize("argument", list(PAIRS))
def test_each_argument_holds_for_its_call_only(dev, picture, argument):
    kind, first, second = PAIRS[argument]
    src, fmt = {"rgb": (picture, None), "woven": (woven(), None),
                "nv12": nv12_planes(picture)}[kind]
    a = dev.convert(src, fmt, **first)
    b = dev.convert(src, fmt, **second)
    with m2m.open(DEVICE) as fresh:
        expected = fresh.convert(src, fmt, **second)
    assert same(b, expected), f"{argument} of the first call leaked into the second"
    assert not same(a, b), f"{argument} made no difference: the test shows nothing"
    assert same(dev.convert(src, fmt, **first), a)


def test_controls_no_argument_drives_stay_as_set(dev, picture):
    dev.controls.brightness = 40
    brighter = dev.convert(picture, to="NV12")
    assert dev.controls.brightness == 40
    with m2m.open(DEVICE) as fresh:
        assert not same(brighter, fresh.convert(picture, to="NV12"))
    dev.controls.rotate = 90                # an argument's control: the call decides
    assert dev.convert(picture).shape == picture.shape


def test_alternating_calls_set_only_the_controls_that_differ(dev, picture, monkeypatch):
    # Issue 29: two jobs taking turns re-set six controls on each switch.
    # The Device remembers what it set; only hflip differs here.
    flipped = dev.convert(picture, hflip=True)
    plain = dev.convert(picture)
    set_ids = []
    real = m2m.capi.m2m_set_control
    monkeypatch.setattr(m2m.capi, "m2m_set_control",
                        lambda ptr, cid, value: set_ids.append(cid) or real(ptr, cid, value))
    assert same(dev.convert(picture, hflip=True), flipped)
    assert same(dev.convert(picture), plain)
    assert set_ids == [dev.controls.info("horizontal_flip").id] * 2


def test_alternating_calls_check_a_format_again_once_the_device_takes_another(
        dev, picture, monkeypatch):
    # Issue 29: a switch between two jobs asks for the formats worked out
    # the first time and skips checking what the device took when it took
    # the same again; a device that now takes another is caught as on the
    # first call (before the cache: every switch checked; without the
    # check, the field order below would go unnoticed).
    yuyv = dev.convert(picture, to="YUYV")
    plain = dev.convert(picture)
    assert same(dev.convert(picture, to="YUYV"), yuyv)
    real = m2m.capi.m2m_set_format

    def interlacing(ptr, fmt, queue):
        real(ptr, fmt, queue)
        if queue == m2m.capi.M2M_QUEUE_CAPTURE:
            fmt.field = 4           # V4L2_FIELD_INTERLACED
    monkeypatch.setattr(m2m.capi, "m2m_set_format", interlacing)
    with pytest.raises(m2m.UnsupportedFormat, match="does not take field order 'none' on CAPTURE"):
        dev.convert(picture)
    monkeypatch.setattr(m2m.capi, "m2m_set_format", real)
    assert same(dev.convert(picture), plain)
    assert same(dev.convert(picture, to="YUYV"), yuyv)


@pytest.mark.parametrize("how", ["controls", "reset", "session"])
def test_a_control_set_another_way_is_set_again_by_the_next_call(dev, picture, how):
    # The values a Device remembers setting are dropped whenever a control
    # is set other than by a call's arguments, or the next call would skip
    # setting it and inherit the other's value.
    plain = dev.convert(picture)
    flipped = dev.convert(picture, hflip=True)      # remembered: hflip on
    if how == "controls":
        dev.controls.horizontal_flip = False
    elif how == "reset":
        dev.controls.reset()
    else:
        with dev.session("RGB24", (64, 48)) as s:    # remembered: hflip off
            dev.controls.horizontal_flip = True
            for out in s.process([picture]):
                assert same(out.array, flipped)
            del out
        assert same(dev.convert(picture), plain)
    assert same(dev.convert(picture, hflip=True), flipped)
    assert not same(plain, flipped)


# ----------------------------------------------------------------------
# A rectangle the device moves is reported

def test_a_crop_the_device_moves_raises_naming_both(dev, picture):
    with pytest.raises(m2m.InvalidArgument,
                       match=r"takes crop \(40, 0, 24, 16\), not \(40, 0, 64, 16\)"):
        dev.convert(picture, crop=(40, 0, 64, 16), size=(64, 16))


def test_a_compose_the_device_moves_raises_naming_both(dev, picture):
    with pytest.raises(m2m.InvalidArgument,
                       match=r"takes compose \(0, 0, 64, 48\), not \(0, 0, 128, 48\)"):
        dev.convert(picture, compose=(0, 0, 128, 48))


# ----------------------------------------------------------------------
# Bad arguments, named with what they take

@pytest.mark.parametrize("args, error, message", [
    (dict(matrix="BT709"), m2m.InvalidArgument, "matrix takes 'bt601', 'bt709', 'bt2020'"),
    (dict(range="tv"), m2m.InvalidArgument, "range takes 'limited', 'full'"),
    (dict(to_matrix=709), m2m.InvalidArgument, "to_matrix takes 'bt601'"),
    (dict(to_range=True), m2m.InvalidArgument, "to_range takes 'limited'"),
    (dict(fit="fill"), m2m.InvalidArgument, "fit takes 'stretch', 'letterbox', 'crop'"),
    (dict(fit="letterbox", compose=(0, 0, 32, 24)), m2m.InvalidArgument,
     "compose and fit='letterbox'"),
    (dict(background=(256, 0, 0)), m2m.InvalidArgument, r"background takes \(r, g, b\)"),
    (dict(background="red"), m2m.InvalidArgument, "background takes"),
    (dict(background=0x1000000), m2m.InvalidArgument, "background takes"),
    (dict(crop=(0, 0, 0, 16)), m2m.InvalidArgument, r"crop takes \(left, top, width"),
    (dict(crop=(0, 0, 16)), m2m.InvalidArgument, "crop takes"),
    (dict(crop=(0, 0, 2 ** 40, 16)), m2m.InvalidArgument, "crop takes"),
    (dict(compose=(0, 0, 16.5, 16)), m2m.InvalidArgument, "compose takes"),
    (dict(size=(64.0, 48)), m2m.InvalidArgument, r"size takes \(width, height\)"),
    (dict(size=(2 ** 40, 48)), m2m.InvalidArgument, "size takes"),
    (dict(scaler="cubic"), m2m.OutOfRange,
     "scaler takes 'nearest', 'bilinear', 'area' or None, not 'cubic'"),
    (dict(rotate="90"), m2m.WrongType, r"rotate takes 0, 90, 180 or 270 .*, not '90' \(str\)"),
    (dict(rotate=45), m2m.OutOfRange, "rotate=45.*0 to 270 in steps of 90"),
    (dict(deinterlace="sideways"), m2m.OutOfRange, "deinterlace takes 'weave', 'bob'"),
    (dict(field="upside_down"), m2m.InvalidArgument, "field takes 'none', 'top'.*not 'upside_down'"),
])
def test_bad_arguments_raise_naming_the_argument(dev, picture, args, error, message):
    with pytest.raises(error, match=message):
        dev.convert(picture, **args)


def test_bad_session_arguments_are_named_too(dev):
    with pytest.raises(m2m.InvalidArgument, match="src_size takes"):
        dev.session("RGB24", (64,))
    with pytest.raises(m2m.InvalidArgument, match="to_matrix takes"):
        dev.session("RGB24", (64, 48), to="NV12", to_matrix="709")
    with pytest.raises(m2m.InvalidArgument, match="buffers takes a positive integer, not '4'"):
        dev.session("RGB24", (64, 48), buffers="4")
    with pytest.raises(m2m.InvalidArgument, match="capture_buffers takes a positive integer"):
        dev.session("RGB24", (64, 48), capture_buffers=-1)
    with pytest.raises(m2m.InvalidArgument, match="matrix takes"):
        m2m.Frame([np.zeros((4, 4), np.uint8)], "GREY", 4, 4, ("GREY",), matrix="srgb")


def test_a_matrix_the_device_does_not_give_raises_naming_it(dev, picture):
    # R'G'B' results take no matrix of their own (their ENUM_FMT does
    # not flag CSC_YCBCR_ENC): the device keeps the source's.
    with pytest.raises(m2m.NotSupported, match="to_matrix='bt709' for RGB24 results"):
        dev.convert(picture, to="RGB24", to_matrix="bt709")


# ----------------------------------------------------------------------
# Strict types: a mistake is refused, named, never taken for something else

def test_flips_take_real_booleans_and_numpy_bools(dev, picture):
    flipped = dev.convert(picture, hflip=True)
    np.testing.assert_array_equal(flipped, picture[:, ::-1])
    np.testing.assert_array_equal(dev.convert(picture, hflip=np.bool_(True)), flipped)
    np.testing.assert_array_equal(dev.convert(picture, vflip=np.array(3) > 2), picture[::-1])


@pytest.mark.parametrize("args, message", [
    # Before: 'no' flipped (a non-empty string is true), 1 and 0 were bools.
    (dict(hflip="no"), r"hflip takes True or False, not 'no' \(str\)"),
    (dict(hflip=1), r"hflip takes True or False, not 1 \(int\)"),
    (dict(vflip=0), r"vflip takes True or False, not 0 \(int\)"),
    (dict(vflip=None), r"vflip takes True or False, not None"),
    # Before: True was rotate=1 (OutOfRange), 90.0 a control's TypeError.
    (dict(rotate=True), r"rotate takes 0, 90, 180 or 270 .*not True \(bool\)"),
    (dict(rotate=90.0), r"rotate takes 0, 90, 180 or 270 .*not 90.0 \(float\)"),
    # Before: menu indexes (scaler=1 was bilinear, True too).
    (dict(scaler=1), r"scaler takes a filter name or None, not 1 \(int\)"),
    (dict(scaler=True), r"scaler takes a filter name or None, not True"),
    (dict(deinterlace=2), r"deinterlace takes a mode name or None, not 2"),
    # Before: field orders by number.
    (dict(field=8), r"field takes 'none', .* or None, not 8 \(int\)"),
    (dict(fit=["stretch"]), r"fit takes 'stretch', 'letterbox', 'crop', not \['stretch'\]"),
    (dict(size=3), r"size takes \(width, height\), positive integers, not 3 \(int\)"),
    # Before: a dict's keys made the size (1, 3).
    (dict(size={1: 2, 3: 4}), r"size takes \(width, height\).*\(dict\)"),
    (dict(size="ab"), r"size takes \(width, height\).*\(str\)"),
    (dict(src_size=(64.0, 48)), r"src_size takes \(width, height\).*\(tuple\)"),
    (dict(crop={0, 1, 8, 9}), r"crop takes \(left, top, width, height\).*\(set\)"),
    (dict(background=True), r"background takes \(r, g, b\).*not True \(bool\)"),
    (dict(to=b"NV12"), r"to=b'NV12': a pixel format takes a name such as \"NV12\""),
    (dict(fmt=3.5), r"fmt=3.5: a pixel format takes a name"),
    (dict(matrix=709), r"matrix takes 'bt601', 'bt709', 'bt2020' or None, not 709 \(int\)"),
    (dict(to_range=True), r"to_range takes 'limited', 'full' or None, not True \(bool\)"),
])
def test_wrong_types_raise_wrong_type_naming_the_argument(dev, picture, args, message):
    with pytest.raises(m2m.WrongType, match=message) as info:
        dev.convert(picture, **args)
    assert isinstance(info.value, TypeError) and isinstance(info.value, m2m.InvalidArgument)


@pytest.mark.parametrize("good, bad", [
    (dict(size=(64, 48)), dict(size=(64.0, 48))),
    (dict(hflip=True), dict(hflip=1)),
    (dict(rotate=0), dict(rotate=False)),
    (dict(rotate=90), dict(rotate=90.0)),
    (dict(background=1), dict(background=True)),
    (dict(crop=(0, 0, 32, 24)), dict(crop=(0, 0, 32.0, 24))),
])
def test_a_repeated_call_is_checked_as_the_first(dev, picture, good, bad):
    # convert() keeps what it worked out from a call's arguments for the
    # calls that repeat them: values that compare equal but are refused
    # (64.0 == 64, True == 1) must not pass as repeats.
    for _ in range(2):
        dev.convert(picture, **good)
        with pytest.raises(m2m.InvalidArgument, match=f"{next(iter(bad))}"):
            dev.convert(picture, **bad)


def test_a_repeated_call_reads_each_sources_own_layout(dev, picture):
    turned = dev.convert(picture, rotate=90)
    mirrored = picture[:, ::-1]                         # same shape, other strides
    np.testing.assert_array_equal(dev.convert(mirrored, rotate=90),
                                  dev.convert(np.ascontiguousarray(mirrored), rotate=90))
    np.testing.assert_array_equal(dev.convert(picture, rotate=90), turned)
    assert not np.array_equal(dev.convert(mirrored, rotate=90), turned)


@pytest.mark.parametrize("args, message", [
    (dict(scaler="Bilinear"), "scaler takes 'nearest', 'bilinear', 'area' or None, not 'Bilinear'"),
    (dict(field="Interlaced_TB"), "field takes 'none'.*not 'Interlaced_TB'"),
    # Before: "VIDIOC_QBUF on inprocess: Invalid argument", and "does not
    # take field order 2": no call of the package says a buffer's field.
    (dict(field="alternate"), "field='alternate' is one field a buffer.*give 'none', "),
    (dict(field="top"), "field='top' is one field a buffer"),
    # Before: OverflowError from SWIG, or libm2m's message without the argument.
    (dict(size=(-2, 100)), r"size takes \(width, height\), positive integers, not \(-2, 100\)"),
    (dict(size=(9000, 9000)), r"size \(9000, 9000\): m2m_format_init: .*1x1 to 8192x8192"),
    (dict(src_size=(2 ** 40, 48)), r"src_size takes \(width, height\).*that fit 32 bits"),
])
def test_values_of_the_right_type_not_taken_are_named(dev, picture, args, message):
    with pytest.raises(m2m.InvalidArgument, match=message):
        dev.convert(picture, **args)


def test_rectangles_and_colours_take_numpy_integers(dev, picture):
    np.testing.assert_array_equal(
        dev.convert(picture, crop=np.array([8, 8, 32, 24]), background=np.int64(0x102030)),
        dev.convert(picture, crop=(8, 8, 32, 24), background=0x102030))


def test_buffers_the_device_cannot_give_are_refused_naming_its_most(dev):
    # Before: silently 32 (V4L2's most per queue), or buffers for 0.
    with pytest.raises(m2m.OutOfRange, match=r"buffers=10000: .* gives at most \d+ OUTPUT buffers"):
        dev.session("GREY", (64, 48), buffers=10000)
    with pytest.raises(m2m.OutOfRange, match=r"capture_buffers=10000: .* at most \d+ CAPTURE"):
        dev.session("GREY", (64, 48), capture_buffers=10000)
    with pytest.raises(m2m.InvalidArgument, match="capture_buffers takes a positive integer, not 0"):
        dev.session("GREY", (64, 48), capture_buffers=0)
    with pytest.raises(m2m.WrongType, match="buffers takes a positive integer, not True"):
        dev.session("GREY", (64, 48), buffers=True)
    with dev.session("GREY", (64, 48), buffers=3, capture_buffers=2) as s:
        assert (len(s.inputs), len(s._outputs.frames)) == (3, 2)


def test_session_calls_check_their_arguments(dev):
    grey = np.zeros((48, 64), np.uint8)
    with dev.session("GREY", (64, 48)) as s:
        # Before: SWIG's OverflowError; a float went through as an int.
        with pytest.raises(m2m.InvalidArgument, match="timestamp_ns takes an integer from 0"):
            s.queue(grey, timestamp_ns=-1)
        with pytest.raises(m2m.WrongType, match=r"timestamp_ns takes .*not 1.5 \(float\)"):
            s.queue(grey, timestamp_ns=1.5)
        # Before: AttributeError ('numpy.ndarray' object has no attribute 'index').
        with pytest.raises(m2m.InvalidArgument, match="release.. takes an output frame"):
            s.release(grey)
        with pytest.raises(m2m.WrongType, match=r"frames takes an iterable of frames, not 5"):
            s.process(5)
        with pytest.raises(m2m.WrongType, match=r"timeout takes None \(for ever\) or a number"):
            s.dequeue(timeout="1")
        with pytest.raises(m2m.InvalidArgument, match=r"timeout takes .* >= 0, not -1"):
            s.dequeue(timeout=-1)


def test_a_session_takes_a_list_of_planes(dev):
    # Before: TypeError, a list's index() method taken for a frame's index.
    y, cbcr = np.full((48, 64), 80, np.uint8), np.full((24, 32, 2), 128, np.uint8)
    with dev.session("NV12", (64, 48), to="YUV420") as s:
        s.queue([y, cbcr])
        out = s.dequeue(timeout=5)
        assert (out["Y"] == 80).all() and (out["Cb"] == 128).all()
        s.release(out)


@pytest.mark.parametrize("call, error, message", [
    # Before: SWIG's "in method 'm2m_open_ext', argument 2 of type 'char const *'".
    (lambda dev: m2m.open(3), m2m.WrongType, "name takes a node path, a driver name"),
    # Before: taken as true.
    (lambda dev: m2m.open("inprocess", nonblock="no"), m2m.WrongType,
     "nonblock takes True or False"),
    # Before: 1 and True were CAPTURE, "CAPTURE" output's upper case.
    (lambda dev: dev.get_format(1), m2m.WrongType, "queue takes 'output', 'capture', not 1"),
    (lambda dev: dev.get_format(True), m2m.WrongType, "queue takes 'output', 'capture'"),
    (lambda dev: dev.get_format("CAPTURE"), m2m.InvalidArgument,
     "queue takes 'output', 'capture', not 'CAPTURE'"),
    # Before: ValueError from int().
    (lambda dev: dev.wait("x"), m2m.WrongType, "timeout takes None"),
    (lambda dev: dev.frame_sizes(3.3), m2m.WrongType, "a pixel format takes a name"),
    # Before: TypeError, unhashable list.
    (lambda dev: dev.events.subscribe(["ctrl"]), m2m.WrongType, "kind takes 'eos', 'ctrl'"),
    (lambda dev: dev.events.subscribe("CTRL", "rotate"), m2m.InvalidArgument,
     "kind takes 'eos', 'ctrl', 'frame_sync', 'source_change', not 'CTRL'"),
    (lambda dev: dev.events.subscribe("ctrl"), m2m.InvalidArgument, "kind 'ctrl' takes a control"),
    (lambda dev: dev.events.subscribe("eos", "rotate"), m2m.InvalidArgument,
     "control is for kind 'ctrl' only"),
    (lambda dev: dev.events.subscribe("ctrl", 3.5), m2m.WrongType,
     "a control takes its name or its id"),
    (lambda dev: dev.events.subscribe("ctrl", "rotate", initial="yes"), m2m.WrongType,
     "initial takes True or False"),
    # Before: TypeError, float + str.
    (lambda dev: dev.events.get(timeout="x"), m2m.WrongType, "timeout takes None"),
])
def test_device_calls_name_a_bad_argument(dev, call, error, message):
    with pytest.raises(error, match=message):
        call(dev)


def test_controls_give_and_take_their_defaults_as_values(dev):
    assert dev.controls.info("horizontal_flip").default is False
    mode = dev.controls.info("deinterlacing_mode")
    assert mode.default in mode.menu.values()
    dev.controls.horizontal_flip = np.bool_(True)
    assert dev.controls.horizontal_flip is True
    dev.controls.reset()
    assert dev.controls.horizontal_flip is False
    with pytest.raises(m2m.WrongType, match="a control takes its name or its id"):
        dev.controls[3.5]
    # Before: TypeError.
    with pytest.raises(m2m.NotSupported, match="controls cannot be deleted"):
        del dev.controls["rotate"]
