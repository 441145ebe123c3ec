# SPDX-License-Identifier: LGPL-2.1-or-later
"""Defaults against defaults, as a Python user meets them: each 1080p job of
engine-bench's that OpenCV has, through ``m2m.open("inprocess")`` opened
without options (its pool one thread per online CPU) and through OpenCV
on its default threads, both returning new arrays.

Each figure is the median over rounds in which the two take turns, in
wall-clock time; a ratio is m2m's time over OpenCV's, the median of the
rounds' ratios. Printed, not asserted. engine-bench prints the same table
from C (``engine-bench --defaults``).

Usage: python3 bench/python-defaults.py [ROUNDS] [NAME...]
"""
import os
import platform
import sys

import cv2
import numpy as np

import m2m
from timing import rounds

W, H = 1920, 1080


def jobs(dev, rng):
    """(name, m2m's call, OpenCV's call) for each row."""
    def frame(shape):
        return rng.integers(0, 256, shape, np.uint8)

    rgb, bgra, grey = frame((H, W, 3)), frame((H, W, 4)), frame((H, W))
    yuyv = frame((H, W, 2))
    # NV12 in one buffer, as OpenCV takes it; m2m takes its two planes.
    nv12 = frame((H * 3 // 2, W))
    nv12_planes = (nv12[:H], nv12[H:].reshape(H // 2, W // 2, 2))
    return [
        ("RGB24 -> BGR24",
         lambda: dev.convert(rgb, "RGB24", to="BGR24"),
         lambda: cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)),
        ("hflip RGB24",
         lambda: dev.convert(rgb, "RGB24", hflip=True),
         lambda: cv2.flip(rgb, 1)),
        ("RGB24 -> YUV420",
         lambda: dev.convert(rgb, "RGB24", to="YUV420"),
         lambda: cv2.cvtColor(rgb, cv2.COLOR_RGB2YUV_I420)),
        ("NV12 -> RGB24",
         lambda: dev.convert(nv12_planes, "NV12", to="RGB24"),
         lambda: cv2.cvtColor(nv12, cv2.COLOR_YUV2RGB_NV12)),
        ("YUYV -> RGB24",
         lambda: dev.convert(yuyv, "YUYV", to="RGB24"),
         lambda: cv2.cvtColor(yuyv, cv2.COLOR_YUV2RGB_YUYV)),
        ("NV12 -> XBGR32",
         lambda: dev.convert(nv12_planes, "NV12", to="XBGR32"),
         lambda: cv2.cvtColor(nv12, cv2.COLOR_YUV2BGRA_NV12)),
        ("XBGR32 -> YUV420",
         lambda: dev.convert(bgra, "XBGR32", to="YUV420"),
         lambda: cv2.cvtColor(bgra, cv2.COLOR_BGRA2YUV_I420)),
        ("RGB24 -> GREY",
         lambda: dev.convert(rgb, "RGB24", to="GREY"),
         lambda: cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)),
        ("RGB24 bilinear to 1280x720",
         lambda: dev.convert(rgb, "RGB24", size=(1280, 720), scaler="bilinear"),
         lambda: cv2.resize(rgb, (1280, 720), interpolation=cv2.INTER_LINEAR)),
        ("RGB24 area to 160x120",
         lambda: dev.convert(rgb, "RGB24", size=(160, 120), scaler="area"),
         lambda: cv2.resize(rgb, (160, 120), interpolation=cv2.INTER_AREA)),
        ("rotate 90 RGB24",
         lambda: dev.convert(rgb, "RGB24", rotate=90),
         lambda: cv2.rotate(rgb, cv2.ROTATE_90_CLOCKWISE)),
        ("rotate 90 XBGR32",
         lambda: dev.convert(bgra, "XBGR32", rotate=90),
         lambda: cv2.rotate(bgra, cv2.ROTATE_90_CLOCKWISE)),
        ("rotate 90 GREY",
         lambda: dev.convert(grey, "GREY", rotate=90),
         lambda: cv2.rotate(grey, cv2.ROTATE_90_CLOCKWISE)),
    ]


def main():
    args = sys.argv[1:]
    count = int(args.pop(0)) if args and args[0].isdigit() else 5
    cpu = platform.processor() or platform.machine()
    with open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    print(f"Defaults against defaults, {W}x{H}, ms per frame, wall clock; {cpu}, "
          f"{os.cpu_count()} CPUs")
    print(f"OpenCV {cv2.__version__} on its default threads ({cv2.getNumThreads()}); "
          "m2m.open(\"inprocess\") without options")
    print(f"{'operation':28s} {'m2m':>7s} {'OpenCV':>7s} {'ratio':>6s}")
    with m2m.open("inprocess") as dev:
        for name, ours, theirs in jobs(dev, np.random.default_rng(1)):
            if args and not any(a in name for a in args):
                continue
            got = rounds({"OpenCV": theirs, "m2m": ours}, count)
            print(f"{name:28s} {got['m2m'][0] * 1e3:7.2f} "
                  f"{got['OpenCV'][0] * 1e3:7.2f} {got['m2m'][1]:6.2f}")


if __name__ == "__main__":
    main()
