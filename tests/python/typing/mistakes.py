# SPDX-License-Identifier: LGPL-2.1-or-later
"""Mistakes mypy finds through the package's hints (test_typing.py):
each line marked with an error comment must be reported, with its words."""
import numpy as np

import m2m

dev = m2m.open("inprocess", nonblock=1)  # error: "nonblock" to "open" has incompatible type "int"; expected "bool"
frame = m2m.Frame([np.zeros((2, 2), np.uint8)], "GREY")
dev.convert(frame, to="RGB24", rotate="90")  # error: "rotate" to "convert" of "Device" has incompatible type "str"
frame.to_rgb("inprocess")  # error: "to_rgb" of "Frame" has incompatible type "str"; expected "Optional[Device]"
height: str = frame.height  # error: (expression has type "int", variable has type "str")
session = dev.session("RGB24", (2, 2), buffers=2.0)  # error: "buffers" to "session" of "Device" has incompatible type "float"
out: m2m.Frame = session.dequeue(timeout="1")  # error: "dequeue" of "Session" has incompatible type "str"; expected "Optional[float]"
m2m.ir.encode("nec", "0x04a1")  # error: to "encode" has incompatible type "str"; expected "int"
