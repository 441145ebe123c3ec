# SPDX-License-Identifier: LGPL-2.1-or-later
"""Converting and turning in one call against two (issue 25, item 8),
timed as Python users take them on the in-process device, beside OpenCV:

- one call: ``dev.convert(rgb, to=X, rotate=90)``;
- two calls, each order: turned first (``dev.convert(dev.convert(rgb,
  rotate=90), to=X)``) and converted first (``dev.convert(dev.convert(rgb,
  to=X), rotate=90)``), each shown only where it gives the one call's
  bytes (converting RGB24 to 4:2:0 first averages other chroma pairs);
- OpenCV: ``cv2.cvtColor(cv2.rotate(rgb, cv2.ROTATE_90_CLOCKWISE), code)``
  (I420 for NV12 and YUV420, which OpenCV does not make as NV12; its own
  chroma filter, so not the same bytes), with its default threads as the
  device has its own.

for RGB24 to NV12, YUV420 and GREY at 1920x1080 and 8192x8192. Each
figure is the median over rounds in which the contenders take turns; a
ratio is the median of the rounds' ratios to the one call. Printed, not
asserted.

Usage: python3 bench/turn-convert.py [ROUNDS]
"""
import importlib.util
import os
import sys

import cv2
import numpy as np

import m2m

# python-path.py's timing: per call, and contenders taking turns.
_SPEC = importlib.util.spec_from_file_location(
    "python_path", os.path.join(os.path.dirname(os.path.abspath(__file__)), "python-path.py"))
python_path = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(python_path)

SIZES = ((1920, 1080), (8192, 8192))
TARGETS = {"NV12": cv2.COLOR_RGB2YUV_I420, "YUV420": cv2.COLOR_RGB2YUV_I420,
           "GREY": cv2.COLOR_RGB2GRAY}


def planes(result):
    """The bytes of a result, a Frame's planes one after another."""
    if isinstance(result, np.ndarray):
        return result.tobytes()
    return b"".join(np.ascontiguousarray(p).tobytes() for p in result.planes)


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    rng = np.random.default_rng(1)
    print(f"OpenCV {cv2.__version__} ({cv2.getNumThreads()} threads), the in-process "
          "device with its default threads; ms per frame, ratio to the one call")
    with m2m.open("inprocess") as dev:
        for width, height in SIZES:
            rgb = rng.integers(0, 256, (height, width, 3), np.uint8)
            for to, code in TARGETS.items():
                one = lambda: dev.convert(rgb, to=to, rotate=90)  # noqa: E731
                contenders = {"one call": one}
                routes = {
                    "turned, then converted":
                        lambda: dev.convert(dev.convert(rgb, rotate=90), to=to),
                    "converted, then turned":
                        lambda: dev.convert(dev.convert(rgb, to=to), rotate=90),
                }
                want = planes(one())
                for name, call in routes.items():
                    if planes(call()) == want:
                        contenders[name] = call
                contenders["OpenCV rotate + cvtColor"] = (
                    lambda: cv2.cvtColor(cv2.rotate(rgb, cv2.ROTATE_90_CLOCKWISE), code))
                python_path.show(f"RGB24 {width}x{height} -> {to}, turned 90",
                                 python_path.rounds(contenders, count), "ms")


if __name__ == "__main__":
    main()
