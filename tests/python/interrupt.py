# SPDX-License-Identifier: LGPL-2.1-or-later
"""Ctrl-C in a wait: a child Python runs setup, says so, then blocks in
a call of the m2m package without a timeout; it is sent SIGINT (what
Ctrl-C and a notebook's "interrupt kernel" send) and reports when its
KeyboardInterrupt came. Shared by tests/python/device and
tests/python/vm."""
import os
import select
import signal
import subprocess
import sys
import textwrap
import time

#: How soon KeyboardInterrupt must come (issue 14: "about 100 ms").
LATENCY_S = 0.1

_CHILD = """\
import sys, time
import numpy as np
import m2m, m2m.ir
{setup}
print("waiting", flush=True)
try:
    {block}
except KeyboardInterrupt:
    print("interrupted", time.monotonic(), flush=True)
else:
    print("returned", flush=True)
"""


def interrupt_latency(setup, block, *, settle=0.3, give_up=10.0):
    """Seconds from SIGINT to the KeyboardInterrupt of ``block`` (a
    statement), run after ``setup`` (statements) in a child Python with
    this one's environment. Fails the test when the child does not get
    out within ``give_up`` seconds, or its call returns."""
    code = _CHILD.format(setup=textwrap.dedent(setup), block=block)
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=os.environ.copy())
    try:
        line = child.stdout.readline()
        if line != "waiting\n":
            child.kill()
            raise AssertionError(f"the child did not start waiting: {line!r} "
                                 f"{child.stderr.read()}")
        time.sleep(settle)                      # well inside the wait
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        readable, _, _ = select.select([child.stdout], [], [], give_up)
        if not readable:
            raise AssertionError(f"no KeyboardInterrupt {give_up} s after SIGINT: "
                                 f"{block} went on waiting")
        word, *when = child.stdout.readline().split()
        if word != "interrupted":
            raise AssertionError(f"{block} ended with {word!r}, not KeyboardInterrupt: "
                                 f"{child.stderr.read()}")
        return float(when[0]) - sent
    finally:
        child.kill()
        child.wait()
