# SPDX-License-Identifier: LGPL-2.1-or-later
"""Ctrl-C during a long frame on the in-process device: ``convert()``,
one call that makes the frame in the calling thread, abandons it at its
next band and KeyboardInterrupt comes at once, not when the frame is
done (libm2m's -EINTR; docs/libm2m.md, "Threads"); a session's wait,
whose frame the device's own thread makes, ends within its slice as
every wait does. The frame goes through the general pipeline (converted
and scaled), about a second at 8192 x 8192, in bands of a millisecond or
two. Native only: in the test VM's emulated CPU a band takes a hundred
times as long."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from interrupt import LATENCY_S, interrupt_latencies  # noqa: E402

SOURCE = "src = np.zeros((8192, 8192, 3), np.uint8)\n"
JOB = 'to="NV12", size=(8190, 8190), scaler="bilinear"'
CONVERT = 'dev = m2m.open("inprocess")\n' + SOURCE
SESSION = (CONVERT + f's = dev.session("RGB24", (8192, 8192), {JOB}, buffers=1)\n'
           "s.queue(src)\n")

# (the setup, the call that makes the frame and waits for it).
LONG = {
    "Device.convert": (CONVERT, f"dev.convert(src, {JOB})"),
    "Session.dequeue": (SESSION, "s.dequeue()"),
}


def test_ctrl_c_abandons_a_long_in_process_frame():
    latencies = interrupt_latencies(LONG)
    for call, latency in latencies.items():
        print(f"{call}: KeyboardInterrupt {latency * 1000:.1f} ms after SIGINT")
    assert {call: latency for call, latency in latencies.items() if latency >= LATENCY_S} == {}
