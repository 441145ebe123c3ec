# SPDX-License-Identifier: LGPL-2.1-or-later
"""The library's own path, timed as Python users take it on the in-process
device, beside OpenCV (one thread) where it does the same job:

- a small frame: 160x120 RGB24 -> BGR24 through ``dev.convert()`` and
  ``cv2.cvtColor()``: the fixed cost of a call;
- streaming against one call: 1920x1080 RGB24 -> BGR24 over a clip of
  distinct frames (larger than the cache together), through ``convert()``
  frame by frame (its results dropped, so that the next one reuses their
  memory, or the last four kept, as a program that uses them does) and
  through a session's ``process()`` (4 buffers a queue), which copies
  each array into an OUTPUT buffer, or with ``borrow=True`` takes the
  arrays in place (USERPTR); and a session whose sources are its own
  buffers, filled once (``input_frame()``), the device's loop without
  that copy, with 4 CAPTURE buffers and with 1;
- alternating jobs: RGB24 -> BGR24 and RGB24 -> YUYV at 1080p taking
  turns, against the two repeated, per pair of calls.

Each figure is the median over rounds in which the contenders take turns;
a ratio is the median of the rounds' ratios. Printed, not asserted.

Usage: python3 bench/python-path.py [ROUNDS]
"""
import itertools
import statistics
import sys

import cv2
import numpy as np

import m2m
from timing import per_call, rounds, show

SMALL = (120, 160, 3)
FULL = (1080, 1920, 3)
CLIP = 12                      # 12 x 6 MB: beyond a 32 MB cache


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    cv2.setNumThreads(1)
    rng = np.random.default_rng(1)
    small = rng.integers(0, 256, SMALL, np.uint8)
    clip = [rng.integers(0, 256, FULL, np.uint8) for _ in range(CLIP)]
    print(f"OpenCV {cv2.__version__}, one thread; the in-process device with its default "
          "threads; each ratio is to the first line of its group")

    with m2m.open("inprocess") as dev:
        show("160x120 RGB24 -> BGR24, one call", rounds({
            "cv2.cvtColor()": lambda: cv2.cvtColor(small, cv2.COLOR_RGB2BGR),
            "dev.convert()": lambda: dev.convert(small, "RGB24", to="BGR24"),
        }, count), "us")

        frames = itertools.cycle(clip)

        def one_call():
            dev.convert(next(frames), "RGB24", to="BGR24")

        kept = []

        def one_call_kept():
            kept.append(dev.convert(next(frames), "RGB24", to="BGR24"))
            del kept[:-4]

        def session(own_buffers, capture_buffers=4, borrow=False):
            """A call that times a session over the clip, per frame."""
            def timed():
                with dev.session("RGB24", (1920, 1080), to="BGR24", buffers=4,
                                 capture_buffers=capture_buffers) as s:
                    if own_buffers:
                        for inp, src in zip(s.inputs, clip):
                            inp.array[...] = src
                        sources = iter(s.input_frame, None)
                    else:
                        sources = itertools.cycle(clip)
                    results = s.process(sources, borrow=borrow)
                    for _ in range(8):
                        next(results)
                    took = per_call(lambda: next(results), 0.3)
                    results.close()
                return took
            return timed

        times = {"convert(), frame by frame": [],
                 "convert(), keeping the last 4 results": [],
                 "session process(), arrays": [],
                 "session process(borrow=True), arrays": [],
                 "session process(), its own buffers": [],
                 "the same, 1 CAPTURE buffer": []}
        calls = (lambda: per_call(one_call, 0.3), lambda: per_call(one_call_kept, 0.3),
                 session(False), session(False, borrow=True), session(True),
                 session(True, 1))
        for _ in range(count):
            for name, call in zip(times, calls):
                times[name].append(call())
        show(f"1920x1080 RGB24 -> BGR24 over {CLIP} distinct frames, per frame",
             {name: (statistics.median(t),
                     statistics.median(a / b for a, b in
                                       zip(t, times["convert(), frame by frame"])))
              for name, t in times.items()}, "ms")

        show("1920x1080 RGB24 -> BGR24 and -> YUYV, per pair of calls",
             alternating(dev, clip[0], count), "ms")


def alternating(dev, src, count):
    """Alternating two jobs against the same two repeated: seconds per
    pair of calls."""
    def repeated():
        for _ in range(4):
            dev.convert(src, "RGB24", to="BGR24")
        for _ in range(4):
            dev.convert(src, "RGB24", to="YUYV")

    def taking_turns():
        for _ in range(4):
            dev.convert(src, "RGB24", to="BGR24")
            dev.convert(src, "RGB24", to="YUYV")

    results = rounds({"each repeated (4 of one, then 4 of the other)": repeated,
                      "taking turns": taking_turns}, count)
    return {name: (t / 4, ratio) for name, (t, ratio) in results.items()}


if __name__ == "__main__":
    main()
