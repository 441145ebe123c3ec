# SPDX-License-Identifier: LGPL-2.1-or-later
"""Frames per second of a device through the m2m package's streaming
session, the same job and loop as m2m-stream-fps.c: 640x480 RGB24 -> YUYV
with HFLIP, every buffer queued; each result that comes back goes back to
the device, then the source buffer it freed.

Usage: python3 bench/python-fps.py [SECONDS] [DEVICE]
"""
import sys
import time

import numpy as np

import m2m

WARMUP_S = 1.0


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    name = sys.argv[2] if len(sys.argv) > 2 else "vhqv"
    with m2m.open(name) as dev, \
            dev.session("RGB24", (640, 480), to="YUYV", hflip=True, buffers=4) as s:
        ramp = (np.arange(480 * 640 * 3, dtype=np.uint32) * 7).astype(np.uint8)
        # Fill every source buffer in place, then keep them all queued.
        for inp in [s.input_frame() for _ in s.inputs]:
            inp.array[...] = ramp.reshape(480, 640, 3)
            s.queue(inp)

        def sources():
            while True:
                yield s.input_frame()      # the buffer a result just freed

        start = time.monotonic() + WARMUP_S
        measuring, frames, end = False, 0, 0.0
        for _ in s.process(sources()):
            t = time.monotonic()
            if not measuring and t >= start:
                measuring, start = True, t
            elif measuring:
                frames, end = frames + 1, t
                if t - start >= seconds:
                    break
    print(f"Python (m2m session.process): 640x480 RGB24 -> YUYV hflip, 4 buffers: "
          f"{frames} frames in {end - start:.2f} s: {frames / (end - start):.1f} fps")


if __name__ == "__main__":
    main()
