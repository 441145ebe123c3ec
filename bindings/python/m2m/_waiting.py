# SPDX-License-Identifier: LGPL-2.1-or-later
"""Waiting: every blocking wait of the package, cut into short calls.

One C call that waits for ever would keep Ctrl-C out: Python runs signal
handlers (KeyboardInterrupt; a notebook's "interrupt kernel" sends
SIGINT too) in the main thread only between bytecodes, so not until the
call returns. Each wait here is a run of libm2m calls of at most
:data:`SLICE_S` each, and the interpreter handles signals between them:
KeyboardInterrupt comes within a slice. Every call releases the GIL
(SWIG's ``-threads``), so other threads run while one waits; they lose
it for a moment each slice.
"""
import time

from . import _args

#: The longest one call waits: how late Ctrl-C may be noticed.
SLICE_S = 0.02

# When a call returns at once with nothing (a device reporting only that
# it is idle), the wait sleeps this long before the next, not to spin.
_POLL_S = 0.002


def wait(call, timeout):
    """Call ``call(ms)`` until it returns something true, and return that;
    None once ``timeout`` seconds (None: for ever, 0: one call that does
    not wait) passed. ``call`` waits up to ``ms`` milliseconds itself.

    Example::

        ready = wait(lambda ms: capi.m2m_wait_for(ptr, capi.M2M_READY_EVENT, ms), 1.0)
    """
    timeout = _args.seconds(timeout)
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        left = None if deadline is None else deadline - time.monotonic()
        ms = round(1000 * (SLICE_S if left is None else max(0.0, min(left, SLICE_S))))
        started = time.monotonic()
        found = call(ms)
        if found:
            return found
        if left is not None and left <= SLICE_S:
            return None
        rest = ms / 1000 - (time.monotonic() - started)
        if rest > 0:
            time.sleep(min(rest, _POLL_S))


def settle(future):
    """Mark an asyncio future done, if it is not yet: the reader callback
    of an ``async for`` waiting for an fd to become readable."""
    if not future.done():
        future.set_result(None)
