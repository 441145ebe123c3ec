# SPDX-License-Identifier: LGPL-2.1-or-later
"""Streaming sessions: frames in and out through mapped buffers."""
from __future__ import annotations

import collections
import time
from typing import TYPE_CHECKING, Iterable, Iterator, Optional

import numpy as np

from . import _args, _waiting, capi
from ._errors import (DeviceBusy, EndOfStream, InvalidArgument, NotSupported, OutOfRange,
                      Timeout)
from ._formats import PlanesCheck, check_plane, format_name, frame_format
from ._frame import Frame
from ._memory import QueueMemory
from .device import _QUEUE_NAMES, CAPTURE, OUTPUT, laid_out, same_layout, whole_frame

if TYPE_CHECKING:
    from .device import Source

# The C functions themselves, not SWIG's Python wrappers around them: one
# Python call less per buffer on the streaming path.
_queue_index = capi._capi.m2m_py_queue_index
_dequeue_index = capi._capi.m2m_py_dequeue_index
_wait_for = capi._capi.m2m_wait_for
_get_buffer = capi._capi.m2m_get_buffer
_set_userptr = capi._capi.m2m_py_buffer_set_userptr
_hold_jobs = capi._capi.m2m_hold_jobs
_READY = {OUTPUT: capi.M2M_READY_OUTPUT, CAPTURE: capi.M2M_READY_CAPTURE}


class Session:
    """Streaming through a device: MMAP buffers on both queues, started.
    Get one from :meth:`Device.session`; it is a context manager, and
    iterating over :meth:`process` is the usual way to use it.

    Every frame a session gives is a :class:`Frame` whose planes are views
    of a mapped buffer, not copies: an input frame from
    :meth:`input_frame` is written straight into the device's OUTPUT
    buffer, and an output frame shows the CAPTURE buffer the device wrote.
    An output frame is valid until the session queues its buffer again
    (the next step of :meth:`process`, or :meth:`release`): ``.copy()``
    keeps one.

    Example::

        with dev.session("YUYV", (640, 480), to="NV12") as s:
            for out in s.process(frames):       # frames: (480, 640, 2) arrays
                y, cbcr = out                   # views of the CAPTURE buffer
                total += int(y.mean())

        # The same, step by step, without copying the input:
        with dev.session("RGB24", (640, 480), to="YUYV", hflip=True) as s:
            inp = s.input_frame()
            inp.array[...] = picture            # into the OUTPUT buffer
            s.queue(inp)
            out = s.dequeue()
            result = out.copy()
            s.release(out)

    Arrays given to :meth:`queue` or :meth:`process` are copied into the
    OUTPUT buffers, so the caller may change an array as soon as the call
    returns (a generator may refill one array for every frame). With
    ``borrow=True`` they are taken in place instead (see :meth:`queue`).

    Threads: any thread may call a session's methods. Each result goes to
    one :meth:`dequeue`, so one thread may queue frames while others
    dequeue and release results; waits hold no lock. :meth:`process` is
    a generator, which one thread at a time runs.
    """

    def __init__(self, device, job, *, buffers=4, capture_buffers=None):
        with device._lock:
            self._start(device, job, buffers, capture_buffers)

    def _start(self, device, job, buffers, capture_buffers):
        if device._session is not None:
            raise DeviceBusy(16, f"{device.path} has a session open already")
        h = device._h()
        device._release_buffers()
        device._configure(job)
        self._packed = frame_format(job.src, job.width, job.height, field=job.field)
        # Every array queued is checked against the source's layout,
        # worked out once.
        self._check_source = PlanesCheck(self._packed, f"the {format_name(job.src)} "
                                         f"{job.width}x{job.height} frame")
        self._device = device
        self._h = h
        self._ptr = h.ptr
        try:
            for queue, asked, argument in ((OUTPUT, buffers, "buffers"),
                                           (CAPTURE, capture_buffers, "capture_buffers")):
                given = capi.m2m_alloc_buffers(h.ptr, queue, capi.M2M_MEMORY_MMAP, asked)
                if given < asked:
                    raise OutOfRange(34, f"{argument}={asked}: {device.driver} ({device.path}) "
                                     f"gives at most {given} {_QUEUE_NAMES[queue]} buffers")
            device._memory[OUTPUT] = self._inputs = QueueMemory(h, OUTPUT, _current(h, OUTPUT))
            device._memory[CAPTURE] = self._outputs = QueueMemory(h, CAPTURE,
                                                                  _current(h, CAPTURE))
            for index in range(len(self._outputs.frames)):
                _queue_index(self._ptr, CAPTURE, index, 0)
            capi.m2m_stream_on(h.ptr, OUTPUT)
            capi.m2m_stream_on(h.ptr, CAPTURE)
        except BaseException:
            device._release_buffers()
            raise
        self.input_format = self._inputs.format
        self.output_format = self._outputs.format
        # The device's lock guards what follows, as it does the device.
        self._lock = device._lock
        self._depth = len(self._inputs.frames)
        self._free = list(range(self._depth))[::-1]
        # OUTPUT's memory: MMAP buffers until the first borrowed frame,
        # the arrays queued (USERPTR) from then on (queue()).
        self._borrowing = False
        self._as_is = same_layout(self.input_format, self._packed)
        # The array each OUTPUT buffer points into while it is queued,
        # and each frame's borrowed array (None: not borrowed) in queue
        # order until its result is given: a reference until both let go.
        self._held = [None] * self._depth
        self._lent = collections.deque()
        # Frames queued whose results have not been dequeued yet.
        self._pending = 0
        self._count = 0
        self._closed = False
        # A drain: the results still to give before its end, and whether
        # the device still owes the empty LAST buffer that ends it (when
        # it had finished every frame queued before the drain, it cannot
        # flag one: V4L2 returns an empty buffer flagged LAST instead).
        self._draining = False
        self._drain_left = 0
        self._drain_owed = False
        # A source change: the LAST frame of the old geometry came.
        self._geometry_ended = False
        # The buffer of an empty LAST buffer taken (a drain's or a source
        # change's), to queue again when the stream goes on.
        self._empty_last = None
        device._session = self

    # ------------------------------------------------------------------

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop both queues. The buffers are freed when no frame of the
        session is referenced any more (else when the device is next
        reconfigured, or closed). Closing twice is harmless.

        Example::

            s = dev.session("YUYV", (64, 48))
            s.close()
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._device._session = None
            if self._device._handle is not self._h:
                return
            capi.m2m_stream_off(self._ptr, OUTPUT)
            capi.m2m_stream_off(self._ptr, CAPTURE)
            self._held = [None] * self._depth     # the device is done with them
            self._lent.clear()
            try:
                self._device._release_buffers()
            except DeviceBusy:
                pass   # frames still view the buffers: they stay mapped

    def _check(self):
        # A session the device's close() closed says so: DeviceClosed.
        self._device._h()
        if self._closed:
            raise InvalidArgument(22, "the session is closed")

    @property
    def inputs(self) -> tuple[Frame, ...]:
        """Every OUTPUT buffer as a Frame (for filling them up front)."""
        return tuple(self._mapped_inputs().frames)

    def _mapped_inputs(self):
        if self._borrowing:
            raise InvalidArgument(22, "the session's OUTPUT buffers are the arrays queued "
                                  "since queue(borrow=True): it has no input frames")
        return self._inputs

    # ------------------------------------------------------------------
    # Step by step

    def input_frame(self) -> Frame:
        """A free OUTPUT buffer, as a Frame to write the next source frame
        into (then :meth:`queue` it). Waits for the device to finish one
        when all are queued. Its planes hold whatever the buffer held.

        Example::

            inp = s.input_frame()
            inp.array[...] = picture
            s.queue(inp)
        """
        with self._lock:
            self._check()
            inputs = self._mapped_inputs()
            if self._free:
                return inputs.frames[self._free.pop()]
        return inputs.frames[self._take(OUTPUT, None, lambda index: index)]

    def _take(self, queue, timeout, took):
        """Dequeue a buffer of a queue once one is ready, and return
        took(its index), run with the lock held (the buffer's bookkeeping).

        The wait is in slices without the lock (m2m._waiting): other
        threads queue meanwhile, Ctrl-C gets through, and closing the
        session or the device ends it. The dequeue itself never waits: a
        buffer another thread took first is waited for again. A device
        opened nonblock is not waited for without a timeout: WouldBlock."""
        ready = _READY[queue]
        waits = timeout is not None or not self._device._nonblock
        timeout = _args.seconds(timeout)
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if waits:
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                if not _waiting.wait(lambda ms: self._ready(ready, ms), left):
                    raise Timeout(110, f"no frame from {self._device.path} in {timeout} s")
            with self._lock:
                self._check()
                if not waits or _wait_for(self._ptr, ready, 0) & ready:
                    return took(_dequeue_index(self._ptr, queue))

    def _ready(self, ready, ms):
        """One slice of a wait: the ready bits wanted, or an error once the
        device or the session was closed (by another thread)."""
        if self._closed:
            with self._lock:        # a Device.close() closing it finishes
                self._device._open(self._h)
            raise InvalidArgument(22, "the session was closed while waiting")
        return _wait_for(self._device._open(self._h), ready, ms) & ready

    def queue(self, frame: Source, *, timestamp_ns: Optional[int] = None,
              borrow: bool = False) -> None:
        """Give the device a source frame: an input Frame of this session
        (no copy), or numpy arrays as :meth:`Device.convert` takes them
        (copied into a free OUTPUT buffer, after checking dtype, shape and
        layout). The result it makes carries ``timestamp_ns`` (default: the
        frame's number in microseconds, as V4L2 keeps microseconds).

        :param borrow: take the arrays in place, without a copy: the
            device reads the caller's memory (USERPTR). The session keeps
            a reference to the array until the frame's result is
            dequeued, and **the caller must not change it until then**.
            Arrays the OUTPUT buffer cannot be (strided or padded lines,
            planes that do not lie end to end in one array) are copied
            into a new array instead, as :meth:`Device.convert` copies
            them.
            The first borrowed frame moves OUTPUT to the caller's memory
            for the rest of the session: every OUTPUT buffer must be back
            from the device then, and no input Frame referenced (else
            InvalidArgument or DeviceBusy); afterwards arrays queued
            without borrow are copied into new arrays, and
            :meth:`input_frame` and :attr:`inputs` raise.
        :raises UnsupportedFormat: an array of the wrong dtype or shape,
            or the wrong number of planes
        :raises NotSupported: ``borrow=True`` on a device without USERPTR
            OUTPUT buffers (the session goes on with its MMAP buffers)

        Example::

            s.queue(picture)                  # a (480, 640, 3) RGB24 array
            s.queue(picture, borrow=True)     # left alone until dequeued
        """
        self._check()
        if timestamp_ns is not None:
            timestamp_ns = _args.integer(timestamp_ns, "timestamp_ns", 0, 2 ** 64 - 1)
        self._queue(frame, timestamp_ns, _args.boolean(borrow, "borrow"))

    def _queue(self, frame, timestamp_ns, borrow):
        """queue() of arguments checked (process() checked borrow once)."""
        in_place = (borrow or self._borrowing) and not self._own_input(frame)
        index, memory = self._queue_in_place(frame, borrow) if in_place else \
            (self._queue_mapped(frame), None)
        with self._lock:
            self._check()
            if in_place:
                self._point(index, memory)
            self._count += 1
            try:
                _queue_index(self._ptr, OUTPUT, index,
                             self._count * 1000 if timestamp_ns is None else timestamp_ns)
            except BaseException:
                if in_place:
                    self._free.append(self._given_back(index))
                raise
            self._pending += 1
            self._lent.append(self._held[index])

    def _own_input(self, frame):
        """Whether a frame is one of this session's input Frames."""
        index = frame.index if isinstance(frame, Frame) and self._inputs is not None else None
        return index is not None and index < self._depth and \
            self._inputs.frames[index] is frame

    def _queue_mapped(self, frame):
        """The index of the MMAP OUTPUT buffer that holds a source frame:
        an input Frame's own, else a free one it is copied into."""
        if self._own_input(frame):
            index = frame.index
        else:
            planes = frame.planes if isinstance(frame, Frame) else \
                frame if isinstance(frame, (tuple, list)) else (frame,)
            target = self.input_frame()
            self._fill(target, planes)      # the buffer is this call's alone
            index = target.index
        return index

    def _queue_in_place(self, frame, borrow):
        """(the index of a free USERPTR OUTPUT buffer, the memory to point
        it at): a source frame's own when borrowed, as convert() takes it
        in place (whole_frame()), else a copy (laid_out())."""
        planes = list(frame.planes) if isinstance(frame, Frame) else \
            list(frame) if isinstance(frame, (tuple, list)) else [frame]
        self._check_source(planes)
        whole = whole_frame(planes, self._packed) if borrow and self._as_is else None
        memory = laid_out(self.input_format, planes) if whole is None else whole
        with self._lock:
            self._check()
            if not self._borrowing:
                self._borrow_output()
            index = self._free.pop() if self._free else None
        if index is None:
            index = self._take(OUTPUT, None, self._given_back)
        return index, memory

    def _point(self, index, memory):
        """Point a USERPTR OUTPUT buffer at memory, which it holds until
        the device gives the buffer back: with the lock held (the
        buffers are the session's while it is open)."""
        buf = self._in_buffers[index]
        address = memory.__array_interface__["data"][0]
        for plane, size in enumerate(self._in_sizes):
            _set_userptr(buf, plane, address, size)
            address += size
        self._held[index] = memory

    def _given_back(self, index):
        """An OUTPUT buffer the device gave back: its array is let go."""
        self._held[index] = None
        return index

    def _take_back_outputs(self):
        """Every OUTPUT buffer the device has given back, freed (and its
        array let go), without waiting."""
        while _wait_for(self._ptr, capi.M2M_READY_OUTPUT, 0) & capi.M2M_READY_OUTPUT:
            self._free.append(self._given_back(_dequeue_index(self._ptr, OUTPUT)))

    def _borrow_output(self):
        """Move OUTPUT from MMAP buffers to the caller's memory (USERPTR),
        for the first borrowed frame: run with the lock held."""
        self._take_back_outputs()
        if len(self._free) < self._depth:
            raise InvalidArgument(22, "queue(borrow=True) moves OUTPUT to the caller's "
                                  "memory, which needs every OUTPUT buffer back: take the "
                                  "results of the frames queued without borrow first")
        self._inputs.refuse_in_use(self._device.path, "this session (borrow=True frees them)")
        ptr = self._ptr
        capi.m2m_stream_off(ptr, OUTPUT)
        capi.m2m_free_buffers(ptr, OUTPUT)
        self._device._memory[OUTPUT] = None
        try:
            given = capi.m2m_alloc_buffers(ptr, OUTPUT, capi.M2M_MEMORY_USERPTR, self._depth)
        except (InvalidArgument, NotSupported) as e:
            # Back to MMAP buffers, as before the call.
            capi.m2m_alloc_buffers(ptr, OUTPUT, capi.M2M_MEMORY_MMAP, self._depth)
            self._device._memory[OUTPUT] = self._inputs = \
                QueueMemory(self._h, OUTPUT, self.input_format)
            capi.m2m_stream_on(ptr, OUTPUT)
            raise NotSupported(95, f"borrow=True: {self._device.driver} ({self._device.path}) "
                               f"takes no USERPTR OUTPUT buffers ({e.strerror})") from None
        capi.m2m_stream_on(ptr, OUTPUT)
        self._inputs = None
        self._borrowing = True
        self._depth = given
        self._free = list(range(given))[::-1]
        self._held = [None] * given
        self._in_buffers = [_get_buffer(ptr, OUTPUT, index) for index in range(given)]
        self._in_sizes = tuple(self.input_format.plane_size[:self._in_buffers[0].num_planes])

    def _fill(self, target, planes):
        try:
            if len(planes) != len(target.planes):
                raise InvalidArgument(22, f"{target.format} has {len(target.planes)} planes "
                                      f"{target.names}, not {len(planes)}")
            for name, dst, src in zip(target.names, target.planes, planes):
                what = f"the {name} plane of the {target.format} {target.width}x" \
                    f"{target.height} frame" if len(planes) > 1 else \
                    f"the {target.format} {target.width}x{target.height} frame"
                check_plane(src, dst.shape, dst.dtype, what)
                np.copyto(dst, src)
        except BaseException:
            with self._lock:
                self._free.append(target.index)
            raise

    def dequeue(self, timeout: Optional[float] = None) -> Frame:
        """The next result: a Frame viewing a CAPTURE buffer, the caller's
        until :meth:`release`. Waits for it (up to ``timeout`` seconds;
        None: for ever, Ctrl-C ending the wait). With nothing queued it
        waits too, as ``queue.Queue.get()`` does, for a frame another
        thread queues.

        After :meth:`drain`, the results of the frames queued before it
        come, the last with :attr:`Frame.last`; then EndOfStream, at once.
        A result is never empty: an empty LAST buffer, which V4L2 returns
        when the device had finished every frame before the drain (or a
        source change), is taken without being given.

        A source change (vhqv: ``rotate`` turned between landscape and
        portrait mid-session) is answered here, as
        ``m2m_handle_source_change()`` does in C: after the LAST result of
        the old geometry, the session restarts CAPTURE for the format the
        device now proposes (:attr:`output_format`) and goes on.

        :raises EndOfStream: after the last result of a drain, until
            :meth:`restart`
        :raises Timeout: when nothing came in time
        :raises DeviceBusy: when a source change needs larger CAPTURE
            buffers while frames or arrays still view the old ones

        Example::

            out = s.dequeue(timeout=1.0)
            print(out.sequence, out.timestamp_ns)
            s.release(out)
        """
        while True:
            with self._lock:
                self._check()
                if self._geometry_ended:
                    self._answer_source_change()
                if self._draining and not self._drain_left:
                    self._end_drain()
            frame = self._take(CAPTURE, timeout, self._result)
            if frame is not None:
                return frame

    def _result(self, index):
        """The Frame of a CAPTURE buffer just dequeued, or None for an
        empty LAST buffer, which is no result: it ends a drain or a
        geometry, and its buffer is kept to queue again."""
        buf = self._outputs.buffers[index]
        last = buf.flags & capi.M2M_BUFFER_LAST
        if last and not any(buf.bytesused[:buf.num_planes]):
            self._empty_last = index
            if self._draining:
                self._drain_left, self._drain_owed = 0, False
            else:
                self._geometry_ended = True
            return None
        frame = self._outputs.frames[index]
        self._pending -= 1
        if self._lent:
            self._lent.popleft()        # one result a source, in order
        if self._borrowing:
            # The device gave the frame's OUTPUT buffer back first: its
            # array is let go as the result is given.
            self._take_back_outputs()
        frame._ends_drain = False
        if self._draining:
            self._drain_left -= 1
            if last or self._drain_left <= 0:
                frame._ends_drain = True
                self._drain_left, self._drain_owed = 0, not last
        elif last:
            self._geometry_ended = True
        return frame

    def _end_drain(self):
        """EndOfStream: every result of the drain was given. The empty
        LAST buffer the device may still owe is taken first, if it came."""
        self._take_owed_last()
        raise EndOfStream(32, f"the session on {self._device.path} was drained: its last "
                          "CAPTURE buffer was dequeued (restart() goes on)")

    def _take_owed_last(self):
        """Take the empty LAST buffer that ends the device's drain, when
        it came: it comes as soon as a CAPTURE buffer is queued."""
        if self._drain_owed and _wait_for(self._ptr, capi.M2M_READY_CAPTURE, 0) & \
                capi.M2M_READY_CAPTURE:
            self._result(_dequeue_index(self._ptr, CAPTURE))

    def _answer_source_change(self):
        """CAPTURE restarted for the format the device now proposes, its
        buffers queued again: the same buffers when they are large enough
        (so views of them stay valid, as ever), else new ones."""
        h = self._device._h()
        fmt = _current(h, CAPTURE)
        buffers = self._outputs.buffers
        if all(b.length[p] >= fmt.plane_size[p] for b in buffers for p in range(fmt.num_planes)) \
                and fmt.num_planes == buffers[0].num_planes:
            queued = [b.index for b in buffers if b.queued or b.index == self._empty_last]
            capi.m2m_stream_off(self._ptr, CAPTURE)
            capi.m2m_stream_on(self._ptr, CAPTURE)
            earlier = self._outputs
        else:
            self._outputs.refuse_in_use(self._device.path, "the geometry before the source change")
            capi.m2m_handle_source_change(self._ptr, fmt)
            queued = range(len(buffers))
            earlier = None
        self._device._memory[CAPTURE] = self._outputs = QueueMemory(h, CAPTURE, fmt, earlier)
        self.output_format = self._outputs.format
        for index in queued:
            _queue_index(self._ptr, CAPTURE, index, 0)
        self._geometry_ended = False
        self._empty_last = None

    def release(self, frame: Frame) -> None:
        """Give a CAPTURE buffer back to the device for another result.

        Example::

            out = s.dequeue()
            s.release(out)
        """
        with self._lock:
            if not self._outputs.owns(frame):
                raise InvalidArgument(22, f"release() takes an output frame of this session, "
                                      f"not {frame!r}")
            _queue_index(self._ptr, CAPTURE, frame.index, 0)
            self._take_owed_last()

    def drain(self) -> None:
        """Ask the device to finish what is queued: :meth:`dequeue` gives
        the results of the frames queued so far, the last one with
        :attr:`Frame.last`, then raises :class:`EndOfStream` (at once
        when every result was given already). Draining again before
        :meth:`restart` does nothing.

        Example::

            s.drain()
            try:
                while True:
                    s.release(s.dequeue())
            except m2m.EndOfStream:
                s.restart()
        """
        with self._lock:
            self._check()
            if self._draining:
                return
            capi.m2m_drain(self._ptr)
            self._draining = True
            self._drain_left = self._pending
            # Nothing left to flag: the device ends it with an empty buffer.
            self._drain_owed = not self._pending

    def restart(self) -> None:
        """Resume after a drain: frames queued from then on (or during
        the drain) give results again.

        Example::

            s.restart()
        """
        with self._lock:
            self._check()
            self._take_owed_last()
            if self._drain_owed:
                # The device's drain ends with an empty LAST buffer in the
                # next CAPTURE buffer queued, and the caller holds them
                # all: restarting CAPTURE ends it, as V4L2's STREAMOFF does.
                capi.m2m_stream_off(self._ptr, CAPTURE)
                capi.m2m_stream_on(self._ptr, CAPTURE)
            else:
                capi.m2m_restart(self._ptr)
            if self._draining and self._empty_last is not None:
                _queue_index(self._ptr, CAPTURE, self._empty_last, 0)
                self._empty_last = None
            self._draining, self._drain_left, self._drain_owed = False, 0, False

    # ------------------------------------------------------------------
    # The loop

    def process(self, frames: Iterable[Source], *, borrow: bool = False) -> Iterator[Frame]:
        """Stream frames through the device, yielding each result as it
        comes, in order: one output Frame (viewing a CAPTURE buffer) per
        input. Each output is valid until the next one is asked for.

        :param frames: an iterable of source frames: numpy arrays (or
            plane sequences) as :meth:`Device.convert` takes them, copied
            into the OUTPUT buffers; or input Frames of this session
            (:meth:`input_frame`), queued as they are
        :param borrow: take the arrays in place, as :meth:`queue` does
            with ``borrow=True``: each array is referenced by the session
            until its result is yielded, and must be left alone until
            then (so not a generator refilling one array)

        Keeps every OUTPUT buffer busy: it takes the next source only while
        a buffer is free, so sources may be produced lazily. On the
        in-process device each frame is made as the generator waits for
        its result, as :meth:`Device.convert` makes its frame
        (``m2m_hold_jobs()``), so nothing is made while the loop's body
        runs; and, since one CAPTURE buffer queued at a time is then all
        it needs, it keeps the others out as they come, so that the
        results are written into the same memory, as :meth:`Device.convert`
        writes its results. Closing the generator (a ``break``) ends both:
        the buffers kept out are queued again.

        Example::

            with dev.session("RGB24", (640, 480), to="NV12") as s:
                for out in s.process(clip):
                    show(out["Y"])
        """
        self._check()
        try:
            frames = iter(frames)
        except TypeError:
            raise _args.wrong_type("frames", "an iterable of frames", frames) from None
        return self._process(frames, _args.boolean(borrow, "borrow"))

    def _process(self, frames, borrow):
        # Each frame is made as this generator waits for it, as convert()
        # makes its frame (m2m_hold_jobs(): two thread switches a frame
        # less on the in-process device), until the loop ends or is left;
        # not on a nonblock device, whose dequeue() does not wait.
        hold = not self._device._nonblock
        # Made in the waits, the in-process device's results need one
        # CAPTURE buffer queued at a time: the others are kept out as
        # they come (one stays queued, so the next wait has a buffer), so
        # that every result is written into the same memory, as convert()
        # writes into the same memory each call (four 1080p buffers in
        # turn are 24 MB, more than a cache keeps), and queued again when
        # the loop ends.
        parking = hold and self._device.info.backend == "inprocess"
        parked = []
        with self._lock:
            self._check()
            if hold:
                _hold_jobs(self._ptr, 1)
        try:
            depth = self._depth
            while True:
                if self._pending >= depth:
                    out = self.dequeue()
                    yield out
                    parking = self._give_back(out, parked if parking else None)
                    continue
                try:
                    frame = next(frames)
                except StopIteration:
                    break
                self._check()
                self._queue(frame, None, borrow)
                del frame       # a borrowed array is the session's to let go
            while self._pending:
                out = self.dequeue()
                yield out
                parking = self._give_back(out, parked if parking else None)
        finally:
            with self._lock:
                if self._device._handle is self._h:
                    if hold:
                        _hold_jobs(self._ptr, 0)
                    if not self._closed:
                        buffers = self._outputs.buffers
                        for index in parked:    # unless a source change queued it
                            if index < len(buffers) and not buffers[index].queued:
                                _queue_index(self._ptr, CAPTURE, index, 0)

    def _give_back(self, out, parked):
        """process()'s release(): on the in-process device (``parked`` a
        list, not None) the result's CAPTURE buffer is kept out, into
        ``parked``, while another is queued. Returns whether to go on
        keeping buffers out: not once one had to be queued."""
        if parked is not None:
            with self._lock:
                if any(b.queued for b in self._outputs.buffers):
                    parked.append(out.index)
                    return True
        self.release(out)
        return False

    def __repr__(self):
        i, o = self.input_format, self.output_format
        return (f"<m2m.Session {format_name(i.fourcc)} {i.width}x{i.height} -> "
                f"{format_name(o.fourcc)} {o.width}x{o.height}"
                f"{' closed' if self._closed else ''}>")


def _current(h, queue):
    fmt = capi.m2m_format()
    capi.m2m_get_format(h.ptr, fmt, queue)
    return fmt
