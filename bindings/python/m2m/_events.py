# SPDX-License-Identifier: LGPL-2.1-or-later
"""Events: control changes, frame starts, end of stream, source changes."""
from __future__ import annotations

from typing import Iterator, Optional, Union, cast

import asyncio
from dataclasses import dataclass

from . import _args, _waiting, capi
from ._errors import InvalidArgument, WouldBlock

#: Event kinds by name (enum m2m_event_type).
KINDS = {
    "eos": capi.M2M_EVENT_EOS,
    "ctrl": capi.M2M_EVENT_CTRL,
    "frame_sync": capi.M2M_EVENT_FRAME_SYNC,
    "source_change": capi.M2M_EVENT_SOURCE_CHANGE,
}
_KIND_NAMES = {v: k for k, v in KINDS.items()}

# The device's fd is also readable while buffers are ready; while only
# those are, async iteration polls at this interval instead of spinning.
_POLL_S = 0.002


@dataclass(frozen=True)
class Event:
    """An event of a device.

    ``kind`` is "eos", "ctrl", "frame_sync" or "source_change";
    ``control`` the control's identifier (ctrl) and ``value`` its new
    value; ``frame_sequence`` the frame that starts (frame_sync);
    ``changes`` V4L2's change bits; ``sequence`` counts the device's
    events, ``pending`` those still queued; ``timestamp_ns`` is
    CLOCK_MONOTONIC.

    Example::

        ev = dev.events.get(timeout=1)
        if ev.kind == "ctrl":
            print(ev.control, ev.value)
    """
    kind: str
    control: Optional[str] = None
    value: Optional[int] = None
    frame_sequence: Optional[int] = None
    changes: int = 0
    sequence: int = 0
    pending: int = 0
    timestamp_ns: int = 0


class Events:
    """The events of a device: subscribe, then take them with
    :meth:`get`, by iterating (blocking), with ``async for``, or from a
    ``selectors``/asyncio loop through :meth:`fileno`.

    Example::

        dev.events.subscribe("ctrl", "rotate", initial=True)
        for ev in dev.events:              # blocks for each event
            print(ev.control, ev.value)
            break

        async def watch():
            async for ev in dev.events:
                print(ev)

        sel = selectors.DefaultSelector()
        sel.register(dev.events, selectors.EVENT_READ)

    :meth:`get` and iteration wait for events alone. The device's fd is
    also readable while buffers can be dequeued; while only buffers are
    ready, ``async for`` polls every 2 ms.
    """

    def __init__(self, device):
        self._device = device

    def _control(self, control):
        return self._device.controls.info(control)

    def subscribe(self, kind: str, control: Union[str, int, None] = None, *,
                  initial: bool = False, feedback: bool = True) -> None:
        """Ask for events of a kind: "eos", "frame_sync", "source_change",
        or "ctrl" for one control (by name).

        :param initial: ctrl: send the current value at once
        :param feedback: ctrl: also report changes made through this
            device (V4L2 reports only other handles' by default)

        Example::

            dev.events.subscribe("ctrl", "rotate", initial=True)
            dev.events.subscribe("eos")
        """
        kind = self._kind(kind)
        flags = (capi.M2M_EVENT_SEND_INITIAL if _args.boolean(initial, "initial") else 0) | \
            (capi.M2M_EVENT_ALLOW_FEEDBACK if _args.boolean(feedback, "feedback") else 0)
        capi.m2m_subscribe_event(self._device._h().ptr, kind, self._id(kind, control), flags)

    def unsubscribe(self, kind: str, control: Union[str, int, None] = None) -> None:
        """Stop events of a kind (see :meth:`subscribe`).

        Example::

            dev.events.unsubscribe("ctrl", "rotate")
        """
        kind = self._kind(kind)
        capi.m2m_unsubscribe_event(self._device._h().ptr, kind, self._id(kind, control))

    @staticmethod
    def _kind(kind):
        return KINDS[_args.name(kind, tuple(KINDS), "kind")]

    def _id(self, kind, control):
        """The control id a subscription names: ctrl events need one, the
        others take none."""
        if kind == capi.M2M_EVENT_CTRL:
            if control is None:
                raise InvalidArgument(22, "kind 'ctrl' takes a control: subscribe(\"ctrl\", "
                                      "\"rotate\")")
            return self._control(control).id
        if control is not None:
            raise InvalidArgument(22, f"control is for kind 'ctrl' only, not "
                                  f"{_KIND_NAMES[kind]!r}: {control!r}")
        return 0

    def _event(self, ev):
        kind = _KIND_NAMES.get(ev.type, str(ev.type))
        control = value = frame_sequence = None
        if ev.type == capi.M2M_EVENT_CTRL:
            c = self._control(ev.id)
            control, value = c.key, c.from_value(ev.value)
        elif ev.type == capi.M2M_EVENT_FRAME_SYNC:
            frame_sequence = ev.frame_sequence
        return Event(kind, control, value, frame_sequence, ev.changes, ev.sequence,
                     ev.pending, ev.timestamp_ns)

    def fileno(self) -> int:
        """The device's fd for ``select``/``selectors``/asyncio: readable
        while an event (or a buffer) can be dequeued. Do not read or close
        it.

        Example::

            sel.register(dev.events, selectors.EVENT_READ)
        """
        return capi.m2m_get_fd(self._device._h().ptr)

    def get(self, timeout: Optional[float] = None) -> Optional[Event]:
        """The next event, waiting up to ``timeout`` seconds (None: for
        ever, Ctrl-C ending the wait; 0: not at all); None when none came.

        Example::

            ev = dev.events.get(timeout=0.5)
        """
        h = self._device._h()

        def take(ms):
            ready = capi.m2m_wait_for(self._device._open(h), capi.M2M_READY_EVENT, ms)
            if not ready & capi.M2M_READY_EVENT:
                return None
            try:
                return self._event(capi.m2m_dequeue_event(h.ptr))
            except WouldBlock:      # another thread took it
                return None
        return _waiting.wait(take, timeout)

    def pending(self) -> list[Event]:
        """Every event queued now, without waiting.

        Example::

            for ev in dev.events.pending():
                print(ev.kind)
        """
        events = []
        while (ev := self.get(timeout=0)) is not None:
            events.append(ev)
        return events

    def __iter__(self) -> Iterator[Event]:
        while True:
            yield cast(Event, self.get())   # None only on a timeout

    def __aiter__(self) -> Events:
        return self

    async def __anext__(self) -> Event:
        """The next event, waiting in the running asyncio loop."""
        loop = asyncio.get_running_loop()
        fd = self.fileno()
        h = self._device._h()
        while True:
            try:
                return self._event(capi.m2m_dequeue_event(h.ptr))
            except WouldBlock:
                pass
            readable = loop.create_future()
            loop.add_reader(fd, _waiting.settle, readable)
            try:
                await readable
            finally:
                loop.remove_reader(fd)
            if not capi.m2m_wait(h.ptr, 0) & capi.M2M_READY_EVENT:
                await asyncio.sleep(_POLL_S)
