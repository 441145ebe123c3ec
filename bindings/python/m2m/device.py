# SPDX-License-Identifier: LGPL-2.1-or-later
"""Devices: discover and open them, convert frames, start sessions."""
from __future__ import annotations

import enum
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, Sequence, Tuple, Union

import numpy as np

from . import _args, _waiting, capi
from ._colour import matrix_of, range_of, tag
from ._controls import Controls, identifier
from ._errors import (DeviceBusy, DeviceClosed, DeviceNotFound, InvalidArgument,
                      NotFound, NotSupported, OutOfRange, UnsupportedFormat)
from ._events import Events
from ._formats import (check_planes, describe, field_name, format_name, frame_format,
                       guess_format, plane_layouts, plane_views, view_geometry)
from ._frame import Frame, plane_size
from ._job import Job, format_argument, job
from ._memory import _QUEUE_NAMES, Handle

if TYPE_CHECKING:
    from ._session import Session

#: A plane: an array of uint8 (uint16 for RGB565) samples.
Array = np.ndarray[Any, np.dtype[Any]]
#: What convert() takes: one plane, the planes of a format, or a Frame.
Source = Union[Array, Sequence[Array], Frame]
#: Sizes, rectangles and colours: tuples, lists or 1-D arrays of integers.
Ints = Union[Sequence[int], Array]

OUTPUT = capi.M2M_QUEUE_OUTPUT
CAPTURE = capi.M2M_QUEUE_CAPTURE


class Ready(enum.IntFlag):
    """What :meth:`Device.wait` found ready (enum m2m_ready), as bits.

    Example::

        ready = dev.wait(1.0)
        if m2m.Ready.EVENT in ready:
            print(dev.events.get(timeout=0))
    """
    CAPTURE = capi.M2M_READY_CAPTURE
    OUTPUT = capi.M2M_READY_OUTPUT
    EVENT = capi.M2M_READY_EVENT
    IDLE = capi.M2M_READY_IDLE


@dataclass(frozen=True)
class DeviceInfo:
    """What a device says about itself.

    ``path`` ("/dev/video0" or "inprocess"), ``driver``, ``card``,
    ``bus_info``, ``backend`` ("kernel" or "inprocess"), ``multiplanar``,
    and the format names each queue takes: ``output_formats``,
    ``capture_formats``.

    Example::

        for info in m2m.devices():
            print(info.path, info.driver, info.output_formats[:3])
    """
    path: str
    driver: str
    card: str
    bus_info: str
    backend: str
    multiplanar: bool
    output_formats: Tuple[str, ...]
    capture_formats: Tuple[str, ...]

    @classmethod
    def _from(cls, info):
        def names(codes):
            return tuple(capi.m2m_fourcc_to_name(c) or f"0x{c:08x}" for c in codes)
        return cls(info.path, info.driver, info.card, info.bus_info,
                   "inprocess" if info.backend == capi.M2M_BACKEND_INPROCESS else "kernel",
                   bool(info.multiplanar), names(info.formats[OUTPUT]),
                   names(info.formats[CAPTURE]))


def devices() -> list[DeviceInfo]:
    """Every m2m device of the system: V4L2 nodes in /dev/videoN order,
    then the in-process device.

    Example::

        >>> [d.driver for d in m2m.devices()]
        ['vhqv', 'vhqv', 'inprocess']
    """
    return [DeviceInfo._from(i) for i in capi.m2m_list_devices()]


class Device:
    """An open V4L2 memory-to-memory device (or the in-process one). Use
    :func:`m2m.open` to get one; it is a context manager.

    - :meth:`convert`: one frame in, one out (numpy arrays);
    - :meth:`session`: streaming, with frames that view the mapped buffers;
    - :attr:`controls`: controls as attributes and as a mapping;
    - :attr:`events`: events as an iterator, an async iterator, an fd.

    Closing (``close()``, leaving ``with``) makes every method raise
    :class:`DeviceClosed`; arrays that view the device's buffers stay
    valid: they keep the memory (and the C device) alive until they are
    gone.

    Threads may share a Device: each call is one step, as
    ``m2m_convert()`` is in C, so a call's result is the one its own
    arguments give whatever other threads do meanwhile (docs/python.md,
    "Waiting, threads and Ctrl-C").

    Example::

        with m2m.open("auto") as dev:
            print(dev.driver, dev.path, dev.info.output_formats)
            rgb = dev.convert(yuyv, "YUYV", to="RGB24")
    """

    def __init__(self, name: str = "auto", *, nonblock: bool = False,
                 syscalls: bool = False, threads: Optional[int] = None) -> None:
        self._handle = None
        self._session = None
        _args.string(name, "name", "a node path, a driver name, \"inprocess\" or \"auto\"")
        self._nonblock = _args.boolean(nonblock, "nonblock")
        syscalls = _args.boolean(syscalls, "syscalls")
        if threads is not None:
            threads = _args.integer(threads, "threads", 1, 2 ** 31 - 1,
                                    takes="None (one per CPU) or a positive integer")
        # A call on the device is several libm2m calls (a conversion sets
        # controls, formats and rectangles, then converts; a session's
        # bookkeeping follows each buffer), and libm2m serialises each of
        # them, not the run. This lock makes every method of the Device,
        # its controls and its session one step; waits never hold it.
        self._lock = threading.RLock()
        self._memory = {OUTPUT: None, CAPTURE: None}
        self._convert_setup: Optional[_ConvertSetup] = None
        # convert()'s set-up of each job it ran, by job (_Known), so that
        # jobs taking turns ask for formats worked out once and skip the
        # checks where the device takes the same ones again.
        self._known: dict[Job, _Known] = {}
        # The raw value this Device last set each control a job drives to,
        # by id: _configure() sets only those that differ, so that jobs
        # taking turns do not set six controls on each switch. Dropped
        # whenever anything else sets a control (_before_control()). Only
        # this handle can change them: V4L2 m2m drivers keep controls per
        # open file (vhqv: its context's v4l2_fh.ctrl_handler,
        # kmod/vhqv-ctrls.c; the in-process device per context), and
        # neither changes a control's value on its own.
        self._controls_set: dict[int, int] = {}
        # What each (control, argument's value) a job sets works out to
        # (_control_value()), which depends only on the device.
        self._control_values: dict[Any, Any] = {}
        opts = capi.m2m_open_options()
        opts.version = capi.M2M_OPEN_OPTIONS_VERSION
        # The package queues USERPTR memory only where it holds the array
        # until the buffer is back (convert() waits; a session keeps each
        # borrowed array until its OUTPUT buffer is dequeued or OUTPUT is
        # stopped), and an array's memory stays mapped while it is
        # referenced: the promise lets the in-process device work in it
        # in place, without copying it through process_vm_readv().
        opts.flags = (capi.M2M_OPEN_NONBLOCK if nonblock else 0) | \
            (capi.M2M_OPEN_SYSCALLS if syscalls else 0) | capi.M2M_OPEN_USERPTR_MAPPED
        opts.threads = threads or 0
        try:
            ptr = capi.m2m_open_ext(name, opts)
        except NotFound as e:
            raise DeviceNotFound(e.errno, e.strerror) from None
        self._handle = Handle(ptr)
        self.info = DeviceInfo._from(capi.m2m_device_get_info(ptr))
        self.controls = Controls(self)
        self.events = Events(self)

    path = property(lambda self: self.info.path, doc="The node path, or \"inprocess\".")
    driver = property(lambda self: self.info.driver, doc="The driver's name, e.g. \"vhqv\".")
    card = property(lambda self: self.info.card, doc="The device's human-readable name.")
    bus_info = property(lambda self: self.info.bus_info, doc="The device's location.")

    def close(self) -> None:
        """Close the device: stop a session, then let go of the C device.
        Its methods raise :class:`DeviceClosed` afterwards; a call another
        thread is making finishes first, and its waits end with
        DeviceClosed. Arrays still viewing its buffers keep them mapped
        (and the C device open) until they are gone, so they stay safe to
        use. Closing twice is harmless.

        Example::

            dev = m2m.open("inprocess")
            dev.close()
        """
        with self._lock:
            if self._session is not None:
                self._session.close()
            self._memory = {OUTPUT: None, CAPTURE: None}
            self._convert_setup = None
            self._known.clear()
            self._controls_set.clear()
            self._handle = None

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._handle is None

    def __enter__(self) -> Device:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._handle is None else self.path
        return f"<m2m.Device {self.driver} {state}>"

    def _h(self):
        """The handle, for one call (callers keep it in a local, so that
        the C device outlives the call even if another thread closes)."""
        h = self._handle
        if h is None:
            raise DeviceClosed(9, f"the device {self.path} is closed")
        return h

    def _open(self, h):
        """h's pointer, or DeviceClosed once the device was closed: what a
        wait calls each slice, so that closing in another thread ends it."""
        if self._handle is not h:
            raise DeviceClosed(9, f"the device {self.path} was closed while waiting")
        return h.ptr

    # ------------------------------------------------------------------
    # Waiting

    def fileno(self) -> int:
        """An fd for ``select``/``selectors``/asyncio, readable while a
        buffer or an event can be dequeued (m2m_get_fd()). Do not read or
        close it.

        Example::

            select.select([dev], [], [], 1.0)
        """
        return capi.m2m_get_fd(self._h().ptr)

    def wait(self, timeout: Optional[float] = None) -> Ready:
        """Wait until a buffer or an event can be dequeued, up to
        ``timeout`` seconds (None: for ever, Ctrl-C ending the wait); what
        is ready, as :class:`Ready` bits (empty on timeout).

        Example::

            if dev.wait(0.5) & m2m.Ready.CAPTURE:
                out = session.dequeue()
        """
        h = self._h()
        return Ready(_waiting.wait(lambda ms: capi.m2m_wait(self._open(h), ms), timeout) or 0)

    # ------------------------------------------------------------------
    # Formats

    def get_format(self, queue: str) -> capi.m2m_format:
        """The current format of a queue ("output" or "capture"), as a
        ``capi.m2m_format``.

        Example::

            fmt = dev.get_format("capture")
            print(m2m.format_name(fmt.fourcc), fmt.width, fmt.height)
        """
        fmt = capi.m2m_format()
        capi.m2m_get_format(self._h().ptr, fmt, _queue(queue))
        return fmt

    def frame_sizes(self, fmt: Union[str, int]) -> Tuple[int, int, int, int, int, int]:
        """The sizes the device takes for a format: (min_width, max_width,
        step_width, min_height, max_height, step_height).

        Example::

            >>> dev.frame_sizes("NV12")
            (1, 8192, 1, 1, 8192, 1)
        """
        s = capi.m2m_get_frame_sizes(self._h().ptr, capi.m2m_fourcc_from_name(format_name(fmt)))
        return (s.min_width, s.max_width, s.step_width, s.min_height, s.max_height,
                s.step_height)

    # ------------------------------------------------------------------
    # Buffers: lifetimes and configuration shared by convert() and sessions

    # What follows until convert() runs with self._lock held.

    def _release_buffers(self):
        """Free both queues' buffers, unless frames still view them."""
        h = self._h()
        for queue in (OUTPUT, CAPTURE):
            memory = self._memory[queue]
            if memory is not None:
                memory.refuse_in_use(self.path, "an earlier session")
            capi.m2m_free_buffers(h.ptr, queue)
            self._memory[queue] = None
        self._convert_setup = None

    def _before_control(self, control):
        """A control is about to change through dev.controls: the values
        _configure() remembers setting may no longer hold."""
        self._controls_set.clear()
        if self._session is None and self._convert_setup is not None:
            # convert() skips setting up when its arguments repeat. A
            # control set meanwhile may be one a call sets (which the next
            # call must set to its own argument again), or ROTATE, which
            # changes the geometry under the buffers.
            self._release_buffers()

    def _set_control(self, key, value, argument):
        """Set a control a job's argument drives: the value given, or the
        control's default for None (unless this Device set it to that
        last: _controls_set)."""
        memo = (key, value, type(value))     # True and 1 differ
        found = self._control_values.get(memo)
        if found is None:
            found = self._control_values[memo] = self._control_value(key, value, argument)
        cid, raw, value = found
        if cid is None or self._controls_set.get(cid) == raw:
            return
        # Forgotten first: a set that fails leaves the value unknown.
        self._controls_set.pop(cid, None)
        try:
            capi.m2m_set_control(self._h().ptr, cid, raw)
        except InvalidArgument as e:
            raise type(e)(e.errno, f"{argument}={value!r}: {e.strerror}") from None
        self._controls_set[cid] = raw

    def _control_value(self, key, value, argument):
        """(the control's id, the raw value, the value) a job's argument
        sets, (None, None, None) for None on a device without the control.
        A value the control refuses raises naming the argument; a device
        without the control refuses any value but None. A name (scaler,
        deinterlace) must be one of the menu's items as identifiers,
        exactly ("bilinear")."""
        if key not in self.controls:
            if value is not None:
                raise NotSupported(95, f"{self.driver} ({self.path}) has no control {key!r} "
                                   f"for {argument}={value!r}")
            return None, None, None
        control = self.controls.info(key)
        if value is None:
            value = control.default
        elif isinstance(value, str) and control.menu:
            names = {identifier(item): item for item in control.menu.values()}
            if value not in names:
                raise OutOfRange(34, f"{argument} takes "
                                 f"{', '.join(repr(n) for n in names)} or None, not {value!r}")
            value = names[value]
        try:
            return control.id, control.to_value(value), value
        except InvalidArgument as e:
            raise type(e)(e.errno, f"{argument}={value!r}: {e.strerror}") from None

    def _configure(self, job, known=None):
        """Set up the device for a job (m2m._job): the controls its
        arguments drive, both formats, the rectangles. Returns the
        (OUTPUT, CAPTURE) formats the device took. ``known`` is what an
        earlier call of the same job set up (_Known): its formats are asked
        for again, and checked only when the device takes others than
        last time (then ``known.setup`` is dropped)."""
        h = self._h()
        known = known or _Known(job)
        # Per job: each control an argument drives is set, to the
        # argument or to the control's default, so no call inherits
        # another's (skipped where this Device set that value last and
        # nothing set a control since: _controls_set). Controls set only
        # through dev.controls (proc-amp, alpha) keep their values.
        self._set_control("rotate", job.rotate or None, "rotate")
        self._set_control("horizontal_flip", job.hflip or None, "hflip")
        self._set_control("vertical_flip", job.vflip or None, "vflip")
        self._set_control("scaling_filter", job.scaler, "scaler")
        self._set_control("deinterlacing_mode", job.deinterlace, "deinterlace")
        self._set_control("background_colour", job.background or None, "background")

        took = known.took or (None, None)
        known.took = None       # until both are checked
        wanted = known.wanted[0]
        out = _copy_format(wanted)
        capi.m2m_set_format(h.ptr, out, OUTPUT)
        out_key = _format_key(out)
        if out_key != took[0]:
            known.setup = None
            _check_taken(self, wanted, out, "OUTPUT")
            self._check_colour(out, job.matrix, job.range, "matrix", "range", "sources")

        wanted = known.wanted[1]
        cap = _copy_format(wanted)
        capi.m2m_set_format(h.ptr, cap, CAPTURE)
        cap_key = _format_key(cap)
        if cap_key != took[1]:
            known.setup = None
            _check_taken(self, wanted, cap, "CAPTURE")
            self._check_colour(cap, job.to_matrix, job.to_range, "to_matrix", "to_range",
                               "results")
        known.took = (out_key, cap_key)

        by_fit = "" if job.fit == "stretch" else f" (for fit={job.fit!r})"
        if job.crop is not None:
            self._set_rect(job.crop, capi.M2M_RECT_CROP, "crop" + by_fit)
        if job.compose is not None:
            self._set_rect(job.compose, capi.M2M_RECT_COMPOSE, "compose" + by_fit)
        return out, cap

    def _check_colour(self, took, matrix, range_, matrix_arg, range_arg, what):
        """Raise NotSupported, naming the argument, when the device did not
        take the matrix or range asked for."""
        name = format_name(took.fourcc)
        for argument, asked, given in ((matrix_arg, matrix, matrix_of(took)),
                                       (range_arg, range_, range_of(took))):
            if asked is None or asked == given:
                continue
            why = ""
            if what == "results":
                flag = capi.V4L2_FMT_FLAG_CSC_YCBCR_ENC if argument == "to_matrix" else \
                    capi.V4L2_FMT_FLAG_CSC_QUANTIZATION
                if not self._capture_flags(took.fourcc) & flag:
                    why = f" ({self.driver} lets no {name} result choose its {argument[3:]}: " \
                        "ENUM_FMT does not flag it V4L2_FMT_FLAG_CSC_" \
                        f"{'YCBCR_ENC' if argument == 'to_matrix' else 'QUANTIZATION'})"
            took_as = "it gives" if what == "results" else "it reads them as"
            raise NotSupported(95, f"{self.driver} ({self.path}) does not take "
                               f"{argument}={asked!r} for {name} {what}: {took_as} "
                               f"{given!r}{why}")

    def _capture_flags(self, fourcc):
        """The V4L2_FMT_FLAG_* bits the device gives a CAPTURE format."""
        h = self._h()
        for index in range(len(self.info.capture_formats)):
            desc = capi.m2m_enum_format(h.ptr, CAPTURE, index)
            if desc.fourcc == fourcc:
                return desc.flags
        return 0

    def _set_rect(self, asked, target, argument):
        """Set a rectangle; raise InvalidArgument naming it when the device
        moves it, rather than work on a rectangle not asked for."""
        rect = capi.m2m_rect()
        rect.left, rect.top, rect.width, rect.height = asked
        try:
            capi.m2m_set_rect(self._h().ptr, rect, target)
        except NotSupported as e:
            raise NotSupported(e.errno, f"{argument} {asked}: {e.strerror}") from None
        took = (rect.left, rect.top, rect.width, rect.height)
        if took != asked:
            raise InvalidArgument(22, f"{self.driver} ({self.path}) takes {argument} {took}, "
                                  f"not {asked} (vhqv keeps rectangles inside the frame, "
                                  "at least 1x1)")

    # ------------------------------------------------------------------
    # One frame

    def convert(self, frame: Source, fmt: Optional[str] = None, to: Optional[str] = None, *,
                size: Optional[Ints] = None, crop: Optional[Ints] = None,
                compose: Optional[Ints] = None, fit: str = "stretch",
                background: Union[int, Ints] = 0, rotate: int = 0, hflip: bool = False,
                vflip: bool = False, deinterlace: Optional[str] = None,
                field: Optional[str] = None, scaler: Optional[str] = None,
                matrix: Optional[str] = None, range: Optional[str] = None,  # noqa: A002
                to_matrix: Optional[str] = None, to_range: Optional[str] = None,
                src_size: Optional[Ints] = None) -> Union[Array, Frame]:
        """Convert one frame through the device and return the result.

        :param frame: the source: a numpy array for one-plane formats
            (shaped per plane, any strides: YUYV ``(h, w, 2)``, RGB24
            ``(h, w, 3)``, GREY ``(h, w)``, RGB565 ``(h, w)`` uint16), a
            sequence of plane arrays for the others (NV12: ``(y, cbcr)``
            shaped ``(h, w)`` and ``((h + 1) // 2, (w + 1) // 2, 2)``), or
            an :class:`Frame`
        :param fmt: the source's pixel format, e.g. ``"YUYV"``; default: a
            Frame's own, else guessed from the array's shape: ``(h, w)``
            GREY, ``(h, w, 2)`` YUYV, ``(h, w, 3)`` RGB24, ``(h, w, 4)``
            RGBA32
        :param to: the pixel format wanted (default: ``fmt``)
        :param size: the result's ``(width, height)``: scales (default: the
            crop's size, or the source's, turned by ``rotate``)
        :param crop: ``(left, top, width, height)`` of the source to take
        :param compose: ``(left, top, width, height)`` of the result to put
            the picture in (default: all of it); the rest is ``background``
        :param fit: how a picture of another shape fills ``size``:
            "stretch" (default: to the whole of it), "letterbox" (all of
            the picture at its aspect ratio, centred, ``background``
            around it), "crop" (the centre of the source, within ``crop``,
            at the aspect ratio of ``size``, fills it)
        :param background: the colour outside the picture: ``(r, g, b)``
            0..255 or ``0xRRGGBB`` (default: black); R'G'B', full range
        :param rotate: 0, 90, 180 or 270 degrees clockwise
        :param hflip: mirror left to right
        :param vflip: mirror top to bottom
        :param deinterlace: "weave", "bob", "blend" or "motion_adaptive";
            implies ``field="interlaced_tb"`` unless given
        :param field: the source's field order: "none", "interlaced",
            "interlaced_tb", "interlaced_bt", "seq_tb", "seq_bt" (a buffer
            holds a whole frame: one field a buffer, "top", "bottom" and
            "alternate", is refused)
        :param scaler: "nearest", "bilinear" or "area" (vhqv's filter;
            default: the device's, bilinear on vhqv)
        :param matrix: the source's Y'CbCr matrix: "bt601", "bt709",
            "bt2020"; default: a Frame's own, else untagged
        :param range: the source's range: "limited" or "full"; default: a
            Frame's own, else untagged
        :param to_matrix: the result's matrix (default: libm2m's rule)
        :param to_range: the result's range (default: libm2m's rule)
        :param src_size: the source's ``(width, height)`` where its arrays
            cannot say: a packed 4:2:2 line (YUYV) holds pixel pairs, so a
            451-wide picture is a ``(h, 452, 2)`` array; default: a
            Frame's own size, else the first array's
        :returns: a new numpy array for one-plane formats; for formats with
            several planes a :class:`Frame` of new arrays (``y, cbcr =
            dev.convert(rgb, to="NV12")``), tagged with the matrix and
            range the device gave
        :raises UnsupportedFormat: a frame of the wrong type, dtype, shape
            or memory layout, or a format the device does not take; the
            message names the problem
        :raises InvalidArgument: an argument that is not one of the values
            it takes, or a ``crop`` or ``compose`` the device would move
            (the message names the argument and what the device takes)
        :raises OutOfRange: a rotation or menu value the device does not
            take, naming the range
        :raises NotSupported: a device without what an argument asks for
            (vim2m: rotation, ``to_matrix``, ``to_range``, ...)

        **Colour.** An untagged source (a plain array, no ``matrix`` or
        ``range``) is what libm2m takes it to be, as OpenCV, FFmpeg and
        libyuv do: Y'CbCr is BT.601 limited range, R'G'B' and GREY full
        range. An untagged result follows libm2m's rule: Y'CbCr from
        Y'CbCr, or R'G'B' and GREY from R'G'B' and GREY, keep the
        source's matrix and range; across the two, Y'CbCr is limited
        range in the source's matrix (BT.601 from an untagged R'G'B'), and
        R'G'B' and GREY full range (docs/libm2m.md, "Colour").

        **Every argument is per call**: each call sets the whole geometry
        and colour, and what it leaves out is the default, not what an
        earlier call gave. Controls set only through :attr:`controls`
        (brightness, contrast, saturation, hue, alpha) keep their values.
        The device's buffers are kept between calls with the same
        arguments.

        Rectangles ``fit`` works out are whole pixels: sizes the nearest,
        positions rounded down; a ``crop`` or ``compose`` the device would
        move raises instead of being moved silently.

        Example::

            with m2m.open("auto") as dev:
                nv12 = dev.convert(rgb, to="NV12", size=(1280, 720))
                y, cbcr = nv12.planes
                back = dev.convert(nv12, to="RGB24")        # nv12's colours
                hd = dev.convert(rgb, to="NV12", to_matrix="bt709")
                boxed = dev.convert(rgb, size=(640, 640), fit="letterbox",
                                    background=(40, 40, 40))
                turned = dev.convert(yuyv, "YUYV", to="RGB24", rotate=90)
                frame = dev.convert(woven, "YUYV", deinterlace="blend")
        """
        plan, planes, whole = _planned(frame, (fmt, to, size, crop, compose, fit, background,
                                               rotate, hflip, vflip, deinterlace, field,
                                               scaler, matrix, range, to_matrix, to_range,
                                               src_size))
        with self._lock:
            h = self._h()
            if self._session is not None:
                raise DeviceBusy(16, f"a streaming session is open on {self.path}: "
                                 "close it before convert()")
            setup = self._convert_setup
            if setup is None or (plan.job is not setup.job and plan.job != setup.job):
                self._release_buffers()
                known = self._known.get(plan.job) or _Known(plan.job)
                out, cap = self._configure(plan.job, known)
                setup = known.setup
                if setup is None:
                    setup = known.setup = _ConvertSetup(plan, out, cap)
                if len(self._known) >= _MAX_KNOWN and plan.job not in self._known:
                    self._known.clear()
                self._known[plan.job] = known
                self._convert_setup = setup
            source = whole if whole is not None and setup.same_planes else \
                laid_out(setup.out, planes)
            result = np.empty(setup.result_size, np.uint8)
            _convert(h.ptr, result, source)
        return setup.result(result)

    # ------------------------------------------------------------------
    # Streaming

    def session(self, src: str, src_size: Ints, to: Optional[str] = None,
                size: Optional[Ints] = None, *, buffers: int = 4,
                capture_buffers: Optional[int] = None, crop: Optional[Ints] = None,
                compose: Optional[Ints] = None, fit: str = "stretch",
                background: Union[int, Ints] = 0, rotate: int = 0, hflip: bool = False,
                vflip: bool = False, deinterlace: Optional[str] = None,
                field: Optional[str] = None, scaler: Optional[str] = None,
                matrix: Optional[str] = None, range: Optional[str] = None,  # noqa: A002
                to_matrix: Optional[str] = None, to_range: Optional[str] = None) -> Session:
        """Start streaming: a :class:`Session` with ``buffers`` mapped
        buffers on each queue, both queues started. Frames it gives are
        views of those buffers, tagged with the matrix and range of their
        queue's format. Arguments as for :meth:`convert`, with the source
        described by its format name and ``(width, height)``; they hold
        for the whole session.

        Example::

            with dev.session("RGB24", (640, 480), to="YUYV", hflip=True) as s:
                for out in s.process(frames):     # numpy arrays in
                    print(out.sequence, out.array.shape)
            with dev.session("NV12", (1920, 1080), to="RGB24", size=(640, 640),
                             matrix="bt709", fit="letterbox") as s:
                print(s.output_format.quantization)
        """
        from ._session import Session
        width, height = _args.dimensions(src_size, "src_size")
        this = job(src, width, height, to=to, size=size, crop=crop, compose=compose, fit=fit,
                   background=background, rotate=rotate, hflip=hflip, vflip=vflip,
                   deinterlace=deinterlace, field=field, scaler=scaler, matrix=matrix,
                   range=range, to_matrix=to_matrix, to_range=to_range, src_argument="src")
        buffers = _args.count(buffers, "buffers")
        capture_buffers = buffers if capture_buffers is None else \
            _args.count(capture_buffers, "capture_buffers")
        return Session(self, this, buffers=buffers, capture_buffers=capture_buffers)


_QUEUES = {"output": OUTPUT, "capture": CAPTURE}


def _queue(queue):
    return _QUEUES[_args.name(queue, tuple(_QUEUES), "queue")]


def _copy_format(fmt):
    copy = capi.m2m_format()
    for name in ("fourcc", "width", "height", "num_planes", "bytesperline", "plane_size",
                 "field", "colorspace", "ycbcr_enc", "quantization", "xfer_func", "flags"):
        setattr(copy, name, getattr(fmt, name))
    return copy


def _format_key(fmt):
    """A format's fields as a tuple, to tell whether a device took the same
    format as before."""
    return (fmt.fourcc, fmt.width, fmt.height, fmt.num_planes, tuple(fmt.bytesperline),
            tuple(fmt.plane_size), fmt.field, fmt.colorspace, fmt.ycbcr_enc, fmt.quantization,
            fmt.xfer_func, fmt.flags)


class _Known:
    """What convert() set the device up with for one job: the formats it
    asks for (worked out once), the keys of those the device took when
    they were checked, and the _ConvertSetup made from them. A job it ran
    before skips that work (about 30 us of the 50 a switch between two
    jobs took): the device is still set up in full each time, and a
    format it takes otherwise is checked again."""

    __slots__ = ("wanted", "took", "setup")

    took: Optional[Tuple[Any, Any]]
    setup: Optional[_ConvertSetup]

    def __init__(self, job):
        out = frame_format(job.src, job.width, job.height, field=job.field)
        tag(out, job.matrix, job.range)
        cap = frame_format(job.to, *job.size)
        tag(cap, job.to_matrix, job.to_range)
        self.wanted = (out, cap)
        self.took = None
        self.setup = None


# The jobs a Device's convert() keeps a _Known of; cleared when full.
_MAX_KNOWN = 8


def _check_taken(device, wanted, took, queue):
    if (took.fourcc, took.width, took.height) != (wanted.fourcc, wanted.width, wanted.height):
        raise UnsupportedFormat(22, f"{device.driver} ({device.path}) does not take "
                                f"{describe(wanted)} on {queue}: it offers {describe(took)}")
    if took.field != wanted.field:
        raise UnsupportedFormat(22, f"{device.driver} ({device.path}) does not take field order "
                                f"{field_name(wanted.field)!r} on {queue}: it offers "
                                f"{field_name(took.field)!r}")


def _split(raw, fmt):
    """A flat frame buffer cut into its memory planes."""
    pieces, offset = [], 0
    for p in range(fmt.num_planes):
        pieces.append(raw[offset:offset + fmt.plane_size[p]])
        offset += fmt.plane_size[p]
    return pieces


# The C function itself, not SWIG's Python wrapper around it: one Python
# call less on convert()'s path.
_convert = capi._capi.m2m_convert


class _ConvertSetup:
    """What convert() set the device up for, kept while calls repeat its
    job: the formats the device took, and the geometry of a result's
    planes in the flat memory m2m_convert() fills, so that each call only
    makes the views."""

    __slots__ = ("job", "same_planes", "result_size", "out", "_views", "_frame")

    def __init__(self, plan, out, cap):
        self.job = plan.job
        #: The OUTPUT format the device took.
        self.out = out
        #: The source's planes, as convert() checked them, are the memory
        #: planes the device takes: a contiguous array goes in as it is.
        self.same_planes = same_layout(out, plan.wanted)
        self.result_size = capi.m2m_format_frame_size(cap)
        starts = [sum(cap.plane_size[:p]) for p in range(cap.num_planes)]
        layouts = plane_layouts(cap)
        self._views = tuple(_view_of(pl, starts[pl.memory_plane] + pl.offset) for pl in layouts)
        # A format of several colour planes comes back as a Frame.
        self._frame = None if len(layouts) == 1 else Frame._of(
            [np.empty(0, np.uint8)] * len(layouts), format_name(cap.fourcc), cap)

    def result(self, raw):
        """The result in raw, as convert() gives it: the one plane's view,
        or a Frame of them."""
        if self._frame is None:
            return self._views[0](raw)
        return self._frame._with(tuple(view(raw) for view in self._views))


def laid_out(fmt, planes):
    """A source's planes (checked) copied into one flat array laid out as
    the device's OUTPUT format ``fmt`` (padded lines, the memory planes
    one after another): what convert() hands m2m_convert(), and a session
    borrows, when the planes are not that memory already (whole_frame())."""
    source = np.empty(capi.m2m_format_frame_size(fmt), np.uint8)
    for dst, src_plane in zip(plane_views(fmt, _split(source, fmt)), planes):
        np.copyto(dst, src_plane)
    return source


def same_layout(took, packed):
    """Whether a format a device took lays out a frame as the packed
    format of the same size does (the same plane sizes): then a
    frame in its own memory goes in as it is (whole_frame())."""
    return tuple(took.plane_size) == tuple(packed.plane_size)


def _view_of(pl, offset):
    """A function making the view of a plane laid out as pl, at offset in
    a flat uint8 buffer: a slice reshaped when its lines are packed (half
    the time of a strided view, which the others take)."""
    shape, dtype, strides = view_geometry(pl)
    if pl.sample_bytes != 1 or pl.bytesperline != pl.width * pl.channels:
        return lambda raw: np.ndarray(shape, dtype, buffer=raw, offset=offset, strides=strides)
    part = slice(offset, offset + pl.bytesperline * pl.height)
    return lambda raw: raw[part].reshape(shape)


@dataclass(frozen=True)
class _Plan:
    """What convert() worked out from its arguments and its source's
    layout: the job, the source's format, and whether its one plane is a
    contiguous array that can be handed to the device as it is."""
    job: Job
    wanted: Any
    contiguous: bool


# Plans of earlier calls, by _plan_key(): a call that repeats one skips
# the checking (tens of microseconds of Python, more than a small frame's
# conversion). Cleared when full. Shared by every Device and thread: a
# plan is only ever added whole, and a lost one is worked out again.
_PLANS: dict[Any, _Plan] = {}
_MAX_PLANS = 64
# convert()'s arguments that may be tuples of numbers: size, crop,
# compose, background, src_size.
_TUPLE_ARGS = (2, 3, 4, 6, 17)


def _plan_key(frame, args):
    """A key for a call on a plain array (None for others), which hashes
    when every argument does. It holds the arguments' types, and those of
    the numbers in their tuples, since the checks tell 640 from 640.0 and
    True from 1, which compare equal."""
    if type(frame) is not np.ndarray:  # pylint: disable=unidiomatic-typecheck
        return None
    key = (frame.shape, frame.strides, frame.dtype, args, tuple(map(type, args)))
    for i in _TUPLE_ARGS:
        if type(args[i]) is tuple:  # pylint: disable=unidiomatic-typecheck
            key += (i, tuple(map(type, args[i])))
    return key


def _planned(frame, args):
    """convert()'s plan for a source and its arguments (in convert()'s
    order), from _PLANS when the call repeats an earlier one: (_Plan, the
    source's planes, the whole frame as one flat array the device can
    take in place, or None)."""
    key = _plan_key(frame, args)
    try:
        plan = _PLANS.get(key)
    except TypeError:               # an argument that does not hash
        key = plan = None
    if plan is not None:
        return plan, (frame,), frame if plan.contiguous else None
    plan, planes = _plan(frame, *args)
    if key is not None:
        if len(_PLANS) >= _MAX_PLANS:
            _PLANS.clear()
        _PLANS[key] = plan
    return plan, planes, planes[0] if plan.contiguous else whole_frame(planes, plan.wanted)


def whole_frame(planes, fmt):
    """A source's planes (checked) as one flat array over their own
    memory, laid out as ``fmt`` (the packed format) lays a frame out, for
    the device to take in place: the one plane when C-contiguous, planes
    that lie end to end (_end_to_end()); else None, and they are copied
    (laid_out()). convert() and a session's borrow both ask it."""
    if len(planes) == 1:
        return planes[0] if planes[0].flags.c_contiguous else None
    return _end_to_end(planes, fmt)


def _address(array):
    return array.__array_interface__["data"][0]


def _root(array):
    """The array whose memory a view is of."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


def _end_to_end(planes, fmt):
    """Planes that lie end to end in one array exactly as ``fmt`` lays a
    frame out in memory, as one flat uint8 array over that memory, which
    the device takes in place; else None, and convert() copies them. Such
    are the planes of m2m's own Frames (views of one buffer), and an NV12
    or I420 buffer cut into its planes, as OpenCV keeps them."""
    layouts = plane_layouts(fmt)
    root = _root(planes[0])
    if len(planes) != len(layouts) or not root.flags.c_contiguous:
        return None
    start = _address(planes[0]) - layouts[0].offset
    starts = [sum(fmt.plane_size[:p]) for p in range(fmt.num_planes)]
    for plane, pl in zip(planes, layouts):
        if (not plane.flags.c_contiguous or plane.strides[0] != pl.bytesperline
                or _address(plane) != start + starts[pl.memory_plane] + pl.offset
                or _root(plane) is not root):
            return None
    flat = root.reshape(-1).view(np.uint8)
    offset = start - _address(root)
    size = capi.m2m_format_frame_size(fmt)
    return flat[offset:offset + size] if offset >= 0 and offset + size <= flat.size else None


def _plan(frame, fmt, to, size, crop, compose, fit, background, rotate, hflip, vflip,
          deinterlace, field, scaler, matrix, range, to_matrix, to_range,  # noqa: A002
          src_size):
    """Check convert()'s arguments and source: (_Plan, the source's planes)."""
    planes, src, ours = _source_planes(frame, fmt)
    if ours:
        matrix = frame.matrix if matrix is None else matrix
        range = frame.range if range is None else range  # noqa: A001
    if src_size is not None:
        width, height = _args.dimensions(src_size, "src_size")
    elif ours:
        width, height = frame.width, frame.height
    else:
        width, height = plane_size(planes[0], src)
    this = job(src, width, height, to=to, size=size, crop=crop, compose=compose, fit=fit,
               background=background, rotate=rotate, hflip=hflip, vflip=vflip,
               deinterlace=deinterlace, field=field, scaler=scaler, matrix=matrix,
               range=range, to_matrix=to_matrix, to_range=to_range,
               size_argument="src_size" if src_size is not None else "the frame's size")
    wanted = frame_format(src, width, height)
    _check_planes(planes, wanted, src)
    return _Plan(this, wanted, len(planes) == 1 and planes[0].flags.c_contiguous), planes


def _source_planes(frame, fmt):
    """(plane arrays, format name, whether they are a Frame of ours)."""
    if fmt is not None:
        fmt = format_argument(fmt, "fmt")
    if isinstance(frame, Frame):
        return list(frame.planes), fmt or frame.format, True
    if isinstance(frame, (tuple, list)):
        if fmt is None:
            raise UnsupportedFormat(22, "name the format of a frame given as planes "
                                    "(e.g. fmt=\"NV12\")")
        if not frame:
            raise UnsupportedFormat(22, "a frame needs at least one plane")
        return list(frame), fmt, False
    return [frame], fmt or guess_format(frame), False


def _check_planes(planes, fmt, src):
    check_planes(planes, fmt, f"the {src} {fmt.width}x{fmt.height} frame")


def open(name: str = "auto", *, nonblock: bool = False,  # pylint: disable=redefined-builtin
         syscalls: bool = False, threads: Optional[int] = None) -> Device:
    """Open a memory-to-memory device.

    :param name: a node path (``"/dev/video0"``), a driver name
        (``"vhqv"``, ``"vim2m"``), ``"inprocess"`` (the HQV engine in this
        process, no kernel module needed) or ``"auto"`` (vhqv, else any
        m2m node, else the in-process device)
    :param nonblock: dequeueing raises :class:`WouldBlock` instead of
        waiting
    :param syscalls: use the system calls, not libv4l2
    :param threads: the in-process device: the most threads a frame is
        split across, in bands (a frame takes one for each 256K pixels, up
        to this; libm2m uses at most 64); None: one per CPU. Other devices
        ignore it (``m2m_open_options.threads``)
    :raises DeviceNotFound: when there is no such device

    Example::

        with m2m.open("vhqv") as dev:
            out = dev.convert(frame, "YUYV", to="UYVY")
        one_core = m2m.open("inprocess", threads=1)
    """
    return Device(name, nonblock=nonblock, syscalls=syscalls, threads=threads)
