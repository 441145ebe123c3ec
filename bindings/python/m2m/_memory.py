# SPDX-License-Identifier: LGPL-2.1-or-later
"""Lifetimes: who owns the C device handle, and the views of its buffers.

A numpy view of a mapped buffer is built on a ctypes array made with
``from_address()`` (no copy), which carries ``_m2m_owner``: the
:class:`Handle` that owns the C device. numpy keeps the ctypes array
alive as the view's ``base``, so as long as any view (or a view of it)
exists, the handle exists, and ``m2m_close()`` - which unmaps the
buffers - has not run. ``Device.close()`` only drops the Device's own
reference: closing never invalidates an array.

The other way libm2m unmaps buffers is freeing or reallocating a queue's
buffers (a new session, a format change, a conversion). Before that, the
Device asks :meth:`QueueMemory.in_use` whether anything outside this
package still refers to the views, and refuses with DeviceBusy if so.
"""
import ctypes
import sys

from . import capi
from ._errors import DeviceBusy
from ._formats import plane_layouts, plane_views
from ._frame import Frame

_QUEUE_NAMES = {capi.M2M_QUEUE_OUTPUT: "OUTPUT", capi.M2M_QUEUE_CAPTURE: "CAPTURE"}


class Handle:
    """Owns one C handle: its close function (capi's, by name:
    ``m2m_close()`` for a device, ``m2m_decoder_close()`` ...) runs when
    the last reference (the Device's, a buffer view's, a call's in
    flight) goes, so that a call another thread is making never finds
    the C object freed under it."""

    __slots__ = ("ptr", "_close", "__weakref__")

    def __init__(self, ptr, close="m2m_close"):
        self.ptr = ptr
        self._close = close

    def __del__(self):
        # capi's names are gone when the interpreter exits, and this may
        # run after.
        close = getattr(capi, self._close, None) if capi is not None else None
        if self.ptr is not None and close is not None:
            close(self.ptr)
            self.ptr = None


class QueueMemory:
    """The mapped buffers of one queue, each as a :class:`Frame` whose
    planes are views of the buffer's memory."""

    def __init__(self, handle, queue, fmt, earlier=None):
        self.queue = queue
        self.format = fmt
        self.buffers, self.frames, self._tracked = self._build(handle, queue, fmt)
        # Measured once the building's own references are gone.
        self._baseline = self._counts()
        #: The views of the same buffers in an earlier format (a session's
        #: CAPTURE after a source change), while anyone holds them.
        self.earlier = earlier if earlier is not None and earlier.in_use() else None

    @staticmethod
    def _build(handle, queue, fmt):
        layouts = plane_layouts(fmt)
        name = capi.m2m_fourcc_to_name(fmt.fourcc)
        buffers, frames, tracked = [], [], []
        for index in range(capi.m2m_buffer_count(handle.ptr, queue)):
            buf = capi.m2m_get_buffer(handle.ptr, queue, index)
            memory = []
            for plane in range(buf.num_planes):
                address = capi.m2m_py_buffer_address(buf, plane)
                array = (ctypes.c_uint8 * buf.length[plane]).from_address(address)
                array._m2m_owner = handle
                memory.append(array)
            frame = Frame._of(plane_views(fmt, memory, layouts), name, fmt, buffer=buf,
                              index=index)
            buffers.append(buf)
            frames.append(frame)
            tracked += [frame, *frame.planes, *memory]
        return buffers, frames, tracked

    def _counts(self):
        return [sys.getrefcount(o) for o in self._tracked]

    def in_use(self):
        """How many frames, views or buffers someone outside still holds
        (CPython reference counts above those this object holds)."""
        held = sum(now > then for now, then in zip(self._counts(), self._baseline))
        return held + (self.earlier.in_use() if self.earlier is not None else 0)

    def owns(self, frame):
        """Whether a frame is one of these buffers' (in any format)."""
        index = frame.index if isinstance(frame, Frame) else None
        memory = self
        while index is not None and memory is not None:
            if index < len(memory.frames) and memory.frames[index] is frame:
                return True
            memory = memory.earlier
        return False

    def refuse_in_use(self, path, whose):
        """DeviceBusy when the buffers are about to be freed while someone
        still views them."""
        held = self.in_use()
        if held:
            raise DeviceBusy(16, f"{held} frames or arrays still view the "
                             f"{_QUEUE_NAMES[self.queue]} buffers of {whose} of {path}: "
                             "delete them (or keep .copy()s) before the device is reconfigured")
