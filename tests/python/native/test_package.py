# SPDX-License-Identifier: LGPL-2.1-or-later
"""The m2m package without a device: formats, plane views, errors,
documentation."""
import errno
import inspect
import pydoc
import sys
import threading
import time

import numpy as np
import pytest

import m2m
import m2m.ir

capi = m2m.capi


def test_fourcc_matches_v4l2_and_names_are_case_blind():
    assert m2m.fourcc("YUYV") == 0x56595559
    assert m2m.fourcc("nv12") == m2m.fourcc("NV12") == 0x3231564E
    assert m2m.format_name(0x3231564E) == "NV12"


def test_unknown_format_name_raises_unsupported_format_naming_it():
    with pytest.raises(m2m.UnsupportedFormat, match="'NOPE'.*known: YUYV") as info:
        m2m.fourcc("NOPE")
    assert info.value.errno == errno.EINVAL


def test_plane_shapes_follow_the_format_table():
    def shapes(name):
        return [s for s, _ in m2m.plane_shapes(m2m.frame_format(name, 64, 48))]
    assert shapes("NV12") == [(48, 64), (24, 32, 2)]
    assert shapes("NV12M") == [(48, 64), (24, 32, 2)]
    assert shapes("YUV420") == [(48, 64), (24, 32), (24, 32)]
    assert shapes("YUYV") == [(48, 64, 2)]
    assert shapes("RGB24") == [(48, 64, 3)]
    assert shapes("XRGB32") == [(48, 64, 4)]
    assert shapes("GREY") == [(48, 64)]
    assert m2m.plane_shapes(m2m.frame_format("RGB565", 64, 48))[0][1] == np.uint16
    assert m2m.plane_names("YVU420") == ("Y", "Cr", "Cb")


def test_padded_lines_give_strided_views_of_the_same_memory():
    fmt = m2m.frame_format("NV12", 64, 48, bytesperline=[80])
    assert fmt.plane_size[0] == 80 * 48 * 3 // 2
    raw = np.arange(fmt.plane_size[0], dtype=np.uint32).astype(np.uint8)
    y, cbcr = m2m.plane_views(fmt, [raw])
    assert y.strides == (80, 1) and cbcr.strides == (80, 2, 1)
    assert y.base is raw and np.shares_memory(y, raw) and np.shares_memory(cbcr, raw)
    assert cbcr.__array_interface__["data"][0] == raw.ctypes.data + 80 * 48
    y[1, 0] = 7
    assert raw[80] == 7


def test_a_pitch_below_the_minimum_is_refused_with_it():
    with pytest.raises(m2m.UnsupportedFormat, match="bytesperline.0. 100 is below YUYV's minimum 128"):
        m2m.frame_format("YUYV", 64, 48, bytesperline=[100])


def test_a_size_out_of_range_raises_invalid_argument_with_the_library_message():
    with pytest.raises(m2m.InvalidArgument, match="8193x480"):
        m2m.frame_format("YUYV", 8193, 480)


def test_odd_sizes_round_chroma_up_in_plane_shapes():
    u8 = np.dtype(np.uint8)
    assert m2m.plane_shapes(m2m.frame_format("NV12", 451, 427)) == [
        ((427, 451), u8), ((214, 226, 2), u8)]
    assert m2m.plane_shapes(m2m.frame_format("YUV420M", 451, 427)) == [
        ((427, 451), u8), ((214, 226), u8), ((214, 226), u8)]
    # Whole macropixels: the last one's second luma lies past the picture.
    assert m2m.plane_shapes(m2m.frame_format("YUYV", 451, 427)) == [((427, 452, 2), u8)]
    assert m2m.frame_format("YUV420", 451, 427).bytesperline[0] == 452
    assert m2m.plane_shapes(m2m.frame_format("GREY", 1, 1)) == [((1, 1), u8)]


def test_missing_device_raises_device_not_found_with_the_path():
    with pytest.raises(m2m.DeviceNotFound, match="/dev/no-such-node") as info:
        m2m.open("/dev/no-such-node")
    assert info.value.errno == errno.ENOENT
    assert isinstance(info.value, m2m.Error)


@pytest.mark.parametrize("err, cls, base", [
    (errno.EAGAIN, m2m.WouldBlock, BlockingIOError),
    (errno.EPIPE, m2m.EndOfStream, m2m.Error),
    (errno.ERANGE, m2m.OutOfRange, ValueError),
    (errno.EBUSY, m2m.DeviceBusy, m2m.Error),
    (errno.ETIMEDOUT, m2m.Timeout, TimeoutError),
    (errno.ENOENT, m2m.NotFound, LookupError),
    (errno.ENODEV, m2m.DeviceNotFound, m2m.NotFound),
    (errno.EIO, m2m.Error, OSError),
])
def test_errno_maps_to_a_class_carrying_the_message(err, cls, base):
    e = m2m.from_errno(err, "the library's message")
    assert type(e) is cls and isinstance(e, base) and isinstance(e, m2m.Error)
    assert e.errno == err and e.strerror == "the library's message"


def test_capi_raises_the_errno_class_with_m2m_last_error():
    with pytest.raises(m2m.InvalidArgument, match="m2m_format_planes: unknown pixel format") as info:
        m2m.capi.m2m_format_planes(m2m.capi.m2m_format())
    assert info.value.strerror == m2m.capi.m2m_last_error()


def read_only(array):
    array.flags.writeable = False
    return array


@pytest.mark.parametrize("dst, src", [(np.zeros(16, np.uint8), b"0123456789abcdef"),
                                      (bytearray(16), np.zeros((4, 4), np.uint8)),
                                      (memoryview(bytearray(16)), bytearray(16))],
                         ids=["array, bytes", "bytearray, array", "memoryview, bytearray"])
def test_capi_convert_takes_contiguous_buffers_to_the_call(dst, src):
    # No handle: the call itself answers, so the frames got through.
    with pytest.raises(m2m.InvalidArgument, match="m2m_convert: device handle is NULL"):
        capi.m2m_convert(None, dst, src)


@pytest.mark.parametrize("dst, src, error, message", [
    # Issue 25: SWIG's TypeError ("in method 'm2m_convert', argument 2 of
    # type '(void *dst, size_t dst_size)'") for a read-only result.
    (read_only(np.zeros(16, np.uint8)), bytes(16), m2m.InvalidArgument,
     r"m2m_convert: dst is read-only \(a numpy.ndarray\): the result is written into it"),
    (b"0123456789abcdef", bytes(16), m2m.InvalidArgument, r"dst is read-only \(a bytes\)"),
    (np.zeros(32, np.uint8)[::2], bytes(16), m2m.InvalidArgument,
     r"dst is not C-contiguous \(a numpy.ndarray\): numpy.ascontiguousarray\(\)"),
    (bytearray(16), np.zeros((4, 8), np.uint8)[:, ::2], m2m.InvalidArgument,
     "src is not C-contiguous"),
    ("out", bytes(16), m2m.WrongType, r"dst takes a C-contiguous buffer .*, not 'out' \(str\)"),
    (bytearray(16), [1, 2], m2m.WrongType, r"src takes a C-contiguous buffer .*\(list\)"),
], ids=["read-only array", "bytes", "strided dst", "strided src", "str", "list"])
def test_capi_convert_names_a_frame_it_cannot_take(dst, src, error, message):
    with pytest.raises(error, match=message):
        capi.m2m_convert(None, dst, src)


@pytest.mark.parametrize("room, error, message", [
    # Before: Python's OverflowError and TypeError, naming nothing.
    (-1, m2m.InvalidArgument, "m2m_ir_encode: max takes room for 0 to 1048576 timings, not -1"),
    (2 ** 21, m2m.InvalidArgument, "max takes room for 0 to 1048576 timings, not 2097152"),
    ("64", m2m.WrongType, r"max takes the number of timings .*, not '64' \(str\)"),
    (True, m2m.WrongType, r"not True \(bool\)"),
])
def test_capi_encode_names_a_bad_room(room, error, message):
    with pytest.raises(error, match=message):
        capi.m2m_ir_encode(room, capi.m2m_ir_protocol_from_name("rc-5"), 0x1e05)


def test_the_log_callback_receives_the_library_messages():
    seen = []
    m2m.capi.m2m_py_set_log_callback(lambda level, msg: seen.append((level, msg)),
                                     m2m.capi.M2M_LOG_DEBUG)
    try:
        with pytest.raises(m2m.DeviceNotFound):
            m2m.open("/dev/no-such-node")
    finally:
        m2m.capi.m2m_py_set_log_callback(None, m2m.capi.M2M_LOG_ERROR)
    assert any("/dev/no-such-node" in msg for _, msg in seen)


def test_help_documents_the_package_and_convert():
    text = pydoc.render_doc(m2m, renderer=pydoc.plaintext)
    for words in ("memory-to-memory", "m2m.open", "convert", "session", "controls",
                  "events", "keep that memory alive", "Frame"):
        assert words in text, words
    convert = pydoc.render_doc(m2m.Device.convert, renderer=pydoc.plaintext)
    for words in ("Example", "hflip", "rotate", "deinterlace", "size", "crop",
                  "UnsupportedFormat", "Frame", "numpy array"):
        assert words in convert, words


def public_callables():
    """Every public name of m2m and of m2m.ir, with its members."""
    for module, prefix in ((m2m, ""), (m2m.ir, "ir.")):
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj):
                yield prefix + name, obj
                for attr, member in vars(obj).items():
                    if not attr.startswith("_") and (callable(member) or isinstance(member, property)):
                        yield f"{prefix}{name}.{attr}", member
            elif callable(obj):
                yield prefix + name, obj


@pytest.mark.parametrize("name, obj", list(public_callables()), ids=lambda v: v if isinstance(v, str) else "")
def test_every_public_function_and_class_has_a_docstring_with_an_example(name, obj):
    doc = inspect.getdoc(obj) or ""
    if isinstance(obj, property):
        assert len(doc) > 20, name
    else:
        assert "Example" in doc or ">>>" in doc, name


def test_capi_docstrings_come_from_the_doxygen_comments():
    assert "Convert one frame synchronously" in m2m.capi.m2m_convert.__doc__
    assert "Wait until a buffer or an event" in m2m.capi.m2m_wait.__doc__


def capi_struct_members():
    """(struct name, member name) of every C structure m2m.capi wraps."""
    for name, cls in sorted(vars(m2m.capi).items()):
        if inspect.isclass(cls) and name.startswith("m2m_") and hasattr(cls, "thisown"):
            for member, prop in vars(cls).items():
                if isinstance(prop, property) and member != "thisown":
                    yield name, member


@pytest.mark.parametrize("struct, member", list(capi_struct_members()),
                         ids=lambda v: v)
def test_every_capi_struct_member_reads_as_a_value(struct, member):
    # SWIG allocates structs zeroed: an int member caught by the errno
    # typemap (a function's 0 is success) reads None instead of 0. A
    # pointer member reads None when NULL, as it should.
    value = getattr(getattr(m2m.capi, struct)(), member)
    assert value is not None or (struct, member) in _POINTER_MEMBERS, \
        f"{struct}.{member} reads as None"


_POINTER_MEMBERS = {("m2m_frame", "buffer"), ("m2m_packet", "data"),
                    ("m2m_packet", "buffer"), ("m2m_encoder_options", "controls")}


def test_rect_members_read_back_what_was_set_negative_ones_too():
    rect = m2m.capi.m2m_rect()
    rect.left, rect.top, rect.width, rect.height = -6, 4, 320, 240
    assert (rect.left, rect.top, rect.width, rect.height) == (-6, 4, 320, 240)


def log_from_another_thread_while_this_one_changes_the_callback(change):
    """A thread opens the in-process device, which logs (DEBUG), while this
    thread holds the GIL: libm2m has chosen the binding's C callback, which
    waits for the GIL. This thread then runs change(seen) - clearing or
    replacing the Python callback - before letting the GIL go. Returns what
    reached the callbacks after the change and sys.unraisablehook. An
    attempt in which the message came before this thread took the GIL
    shows nothing, and is made again."""
    old_hook, old_interval = sys.unraisablehook, sys.getswitchinterval()
    try:
        for _ in range(20):
            seen, unraisable, changed = [], [], []
            sys.unraisablehook = unraisable.append
            capi.m2m_py_set_log_callback(
                lambda level, msg: seen.append(("first", msg, bool(changed))),
                capi.M2M_LOG_DEBUG)
            opened = []
            thread = threading.Thread(target=lambda: opened.append(capi.m2m_open("inprocess")))
            # This thread takes the GIL when the other enters m2m_open()
            # (SWIG releases it there), and keeps it until join().
            sys.setswitchinterval(30)
            thread.start()
            end = time.monotonic() + 0.1
            while time.monotonic() < end:
                pass
            change(seen, changed)
            changed.append(True)
            thread.join()
            sys.setswitchinterval(old_interval)
            capi.m2m_py_set_log_callback(None, capi.M2M_LOG_ERROR)
            capi.m2m_close(opened[0])
            if all(after for _, _, after in seen):
                return seen, unraisable
    finally:
        sys.setswitchinterval(old_interval)
        capi.m2m_py_set_log_callback(None, capi.M2M_LOG_ERROR)
        sys.unraisablehook = old_hook
    pytest.fail("the other thread logged before this one held the GIL, 20 times")


def test_a_cleared_log_callback_is_not_called_by_a_call_already_logging():
    seen, unraisable = log_from_another_thread_while_this_one_changes_the_callback(
        lambda seen, changed: capi.m2m_py_set_log_callback(None, capi.M2M_LOG_ERROR))
    # Before: the C callback called the cleared (NULL) callable, and the
    # SystemError went to sys.unraisablehook.
    assert [u.exc_value for u in unraisable] == []
    assert seen == []


def test_a_replaced_log_callback_gets_only_the_levels_it_asked_for():
    def replace(seen, changed):
        capi.m2m_py_set_log_callback(
            lambda level, msg: seen.append(("second", msg, bool(changed))), capi.M2M_LOG_ERROR)
    seen, unraisable = log_from_another_thread_while_this_one_changes_the_callback(replace)
    assert [u.exc_value for u in unraisable] == []
    # The DEBUG message libm2m was logging is not the new callback's.
    assert seen == []


# ----------------------------------------------------------------------
# Strict arguments of the functions without a device

GREY = np.zeros((4, 6), np.uint8)


@pytest.mark.parametrize("call, error, message", [
    # Before: SWIG's OverflowError ("argument 3 of type 'uint32_t'").
    (lambda: m2m.frame_format("NV12", -1, 4), m2m.InvalidArgument, "width takes a size"),
    (lambda: m2m.frame_format("NV12", 4, 2 ** 40), m2m.InvalidArgument, "height takes a size"),
    # Before: ValueError from int().
    (lambda: m2m.frame_format("NV12", "a", 4), m2m.WrongType, r"width takes .*'a' \(str\)"),
    (lambda: m2m.frame_format("NV12", 4.0, 4), m2m.WrongType, "width takes"),
    (lambda: m2m.frame_format("NV12", 4, 4, field=8), m2m.WrongType, "field takes 'none'"),
    (lambda: m2m.frame_format("GREY", 4, 4, bytesperline=[8.5]), m2m.WrongType,
     "bytesperline takes a pitch"),
    (lambda: m2m.fourcc(2 ** 40), m2m.UnsupportedFormat, "unknown pixel format 1099511627776"),
    (lambda: m2m.fourcc(None), m2m.WrongType, "a pixel format takes a name"),
    (lambda: m2m.fourcc(True), m2m.WrongType, "a pixel format takes a name"),
    # Before: SWIG's "in method 'm2m_format_planes', argument 2".
    (lambda: m2m.plane_layouts("NV12"), m2m.WrongType, "fmt takes a capi.m2m_format"),
    (lambda: m2m.plane_shapes(None), m2m.WrongType, "fmt takes a capi.m2m_format"),
    # Before: numpy's TypeError ("buffer is too small").
    (lambda: m2m.plane_views(m2m.frame_format("GREY", 6, 4), [bytearray(10)]),
     m2m.UnsupportedFormat, r"memory\[0\] holds 10 bytes: plane 0 of GREY 6x4 needs 24"),
    (lambda: m2m.plane_views(m2m.frame_format("GREY", 6, 4), [3]), m2m.WrongType,
     r"memory\[0\] takes 1 objects with the buffer protocol"),
    (lambda: m2m.from_errno("x", 5), m2m.WrongType, "from_errno takes an errno"),
])
def test_module_functions_name_a_bad_argument(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("args, kwargs, error, message", [
    # Before: every one of these made a Frame.
    ((3, "GREY", 6, 4), {}, m2m.WrongType, r"planes takes a tuple or list of 1 numpy arrays"),
    (([GREY], "XXXX", 6, 4), {}, m2m.UnsupportedFormat, "format='XXXX': unknown pixel format"),
    (([GREY], "GREY", -6, 4), {}, m2m.InvalidArgument, r"\(width, height\) takes"),
    (([GREY], "GREY", "6", 4), {}, m2m.WrongType, r"\(width, height\) takes"),
    (([GREY], "GREY", 8, 4), {}, m2m.UnsupportedFormat, r"must have shape \(4, 8\), not \(4, 6\)"),
    (([GREY.astype(np.float32)], "GREY", 6, 4), {}, m2m.UnsupportedFormat, "dtype uint8"),
    (([GREY, GREY], "GREY", 6, 4), {}, m2m.UnsupportedFormat, "planes takes .* not 2"),
    (([GREY], "GREY", 6, 4), dict(names=("Y",)), m2m.InvalidArgument,
     r"names of a GREY frame are \('GREY',\)"),
    (([GREY], "GREY", 6, 4), dict(matrix="srgb"), m2m.InvalidArgument, "matrix takes"),
    (([GREY], "GREY", 6, 4), dict(range=1), m2m.WrongType, "range takes"),
    (([GREY], "GREY", 6, 4), dict(buffer=object()), m2m.WrongType, "buffer takes"),
    (([GREY], "GREY", 6, 4), dict(index=-1), m2m.InvalidArgument, "index takes"),
])
def test_frame_checks_what_it_is_made_of(args, kwargs, error, message):
    with pytest.raises(error, match=message):
        m2m.Frame(*args, **kwargs)


def test_a_frame_made_by_hand_is_the_frame_of_its_planes():
    y, cbcr = np.zeros((5, 7), np.uint8), np.zeros((3, 4, 2), np.uint8)
    frame = m2m.Frame((y, cbcr), "nv12", 7, 5, matrix="bt709")
    assert (frame.format, frame.names, frame.matrix) == ("NV12", ("Y", "CbCr"), "bt709")
    assert frame["CbCr"] is cbcr and frame[-1] is cbcr
    # Before: KeyError, and IndexError.
    with pytest.raises(m2m.NotFound, match=r"planes \('Y', 'CbCr'\), not 'Cb'"):
        frame["Cb"]
    with pytest.raises(m2m.NotFound, match="not 2"):
        frame[2]
    with pytest.raises(m2m.WrongType, match="a plane takes its name or index"):
        frame[1.0]
