# SPDX-License-Identifier: LGPL-2.1-or-later
"""A typed client of the m2m package: mypy --strict passes it
(test_typing.py), so the package's hints say what it returns."""
from typing import Any, List, Optional, Tuple

import numpy as np

import m2m


def planes_of(dev: m2m.Device, rgb: "np.ndarray[Any, np.dtype[np.uint8]]") -> Tuple[int, ...]:
    result = dev.convert(rgb, to="NV12", size=(64, 48), rotate=90, to_matrix="bt709")
    if isinstance(result, m2m.Frame):
        y: "np.ndarray[Any, np.dtype[Any]]" = result["Y"]
        picture: bytes = result._repr_png_()
        names: Tuple[str, ...] = result.plane_pictures().labels
        return y.shape + (len(picture), len(names))
    return result.shape


def shown(frame: m2m.Frame, dev: Optional[m2m.Device] = None) -> int:
    rgb = frame.to_rgb(dev)
    width: int = frame.width
    matrix: Optional[str] = frame.matrix
    return int(rgb.shape[1]) + width + len(matrix or "")


def stream(dev: m2m.Device, clip: List["np.ndarray[Any, np.dtype[np.uint8]]"]) -> List[int]:
    sequences: List[int] = []
    with dev.session("RGB24", (64, 48), to="NV12", buffers=2) as s:
        for out in s.process(clip):
            sequences.append(out.sequence or 0)
        s.drain()
    event: Optional[m2m.Event] = dev.events.get(timeout=0.0)
    return sequences + ([] if event is None else [event.sequence])


def main() -> None:
    names: List[str] = [info.path for info in m2m.devices()]
    with m2m.open("inprocess", nonblock=False, threads=2) as dev:
        rotate: m2m.Control = dev.controls.info("rotate")
        ready: m2m.Ready = dev.wait(0.0)
        shapes = m2m.plane_shapes(m2m.frame_format("NV12", 64, 48))
        print(names, rotate, ready, shapes, m2m.fourcc("NV12"), m2m.format_name(0x3231564E))
    with m2m.ir.open("auto") as rc:
        rc.protocols = {"nec"}
        rc.send("nec", 0x04A1)
        key: Optional[m2m.ir.Scancode] = rc.read(timeout=1.0)
        timings: List[int] = m2m.ir.encode("nec", 0x04A1)
        print(key, timings)
