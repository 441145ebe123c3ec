# SPDX-License-Identifier: LGPL-2.1-or-later
"""Ctrl-C in a wait: a child Python runs each case's setup, says so, then
blocks in a call of the m2m package without a timeout; it is sent SIGINT
(what Ctrl-C and a notebook's "interrupt kernel" send) and reports when
its KeyboardInterrupt came. One child runs every case, each as often as
asked. Shared by tests/python/device and tests/python/vm."""
import json
import os
import select
import signal
import subprocess
import sys
import time

#: How soon KeyboardInterrupt must come (issue 14: "about 100 ms").
LATENCY_S = 0.1

# The child: for each line it reads, a JSON [setup, block], it runs setup,
# prints "waiting", runs block, and prints when KeyboardInterrupt came.
# It takes SIGINT as a program run from a terminal does: a process started
# with SIGINT ignored (a background job of a shell script, as the tests
# may be) keeps ignoring it, and Python then never raises
# KeyboardInterrupt, in any wait, m2m's or time.sleep().
_CHILD = """\
import json, signal, sys, time
import numpy as np
import m2m, m2m.ir
signal.signal(signal.SIGINT, signal.default_int_handler)
for line in sys.stdin:
    setup, block = json.loads(line)
    scope = {"np": np, "m2m": m2m}
    exec(setup, scope)
    print("waiting", flush=True)
    try:
        exec(block, scope)
    except KeyboardInterrupt:
        print("interrupted", time.monotonic(), flush=True)
    else:
        print("returned", flush=True)
    del scope
"""


#: Python's own wait, interrupted the same way: what SIGINT costs any wait
#: at that moment on this machine (its scheduling, a loaded test VM's).
REFERENCE = ("import time", "time.sleep(3600)")


def interrupt_latencies(cases):
    """The typical seconds from SIGINT to KeyboardInterrupt of each case
    of ``cases`` ({name: (setup statements, block statement)}), run in
    one child Python, beyond what Python's own ``time.sleep()`` takes
    (REFERENCE) when interrupted right after: a wait of the package may
    add nothing a user would notice to what Python itself takes, and two
    guests on two cores (make check's lanes) can delay any wake-up by
    more than LATENCY_S. Each figure is the median of three tries, or the
    larger of the first two when both are within LATENCY_S, so that a
    moment's load is not taken for the wait's. A case whose child is
    still waiting 10 s after SIGINT, or whose call returns, fails the
    test."""
    child = subprocess.Popen([sys.executable, "-c", _CHILD], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=os.environ.copy())
    typical = {}
    try:
        for name, (setup, block) in cases.items():
            tries = []
            while len(tries) < 3 and sum(t < LATENCY_S for t in tries) < 2:
                latency = _once(child, setup, block)
                tries.append(max(0.0, latency - _once(child, *REFERENCE)))
            typical[name] = sorted(tries)[1]
    finally:
        child.kill()
        child.wait()
    return typical


def _once(child, setup, block, *, settle=0.2, give_up=10.0):
    child.stdin.write(json.dumps([setup, block]) + "\n")
    child.stdin.flush()
    line = child.stdout.readline()
    if line != "waiting\n":
        child.kill()
        raise AssertionError(f"the child did not start waiting in {block}: {line!r} "
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
