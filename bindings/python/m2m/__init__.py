# SPDX-License-Identifier: LGPL-2.1-or-later
"""m2m: video processing through V4L2 memory-to-memory devices.

Open a device - a V4L2 memory-to-memory node such as vhqv, or the HQV
engine inside this process ("inprocess") - and convert numpy frames
through it: pixel formats, scaling, crop, rotation, flips, deinterlacing::

    import m2m, numpy as np

    rgb = np.zeros((480, 640, 3), np.uint8)              # an RGB24 picture
    with m2m.open("auto") as dev:                       # or "vhqv", "inprocess"
        yuyv = dev.convert(rgb, to="YUYV", hflip=True)  # (480, 640, 2) array
        y, cbcr = dev.convert(rgb, to="NV12", size=(1280, 720), rotate=90)

Colour goes by name; an untagged frame is what libm2m, like OpenCV, takes
it to be (Y'CbCr BT.601 limited range, R'G'B' and GREY full range), and
results are tagged with what the device made. A picture of another shape
can be fitted into a size::

    hd = dev.convert(rgb, to="NV12", to_matrix="bt709")   # hd.matrix == "bt709"
    again = dev.convert(hd, to="RGB24")                    # read as BT.709
    boxed = dev.convert(rgb, size=(640, 640), fit="letterbox", background=(0, 0, 0))

Stream many frames through mapped buffers, without copies on the way out::

    with dev.session("RGB24", (640, 480), to="NV12") as s:
        for out in s.process(clip):        # each out views a CAPTURE buffer
            print(out.sequence, out["Y"].mean())

Controls, as attributes or by name, checked against their ranges and
menus; events as an iterator, an async iterator or an fd::

    dev.controls.rotate = 90
    dev.controls["Deinterlacing Mode"] = "blend"
    dev.events.subscribe("ctrl", "rotate")
    ev = dev.events.get(timeout=1)

Frames: a format with one colour plane is one numpy array - YUYV
``(h, w, 2)``, RGB24 ``(h, w, 3)``, XRGB32 ``(h, w, 4)``, GREY ``(h, w)``,
RGB565 ``(h, w)`` uint16; with several planes, a :class:`Frame` of arrays
- NV12: Y ``(h, w)`` and CbCr ``((h + 1) // 2, (w + 1) // 2, 2)``, chroma
rounded up at odd sizes. Arrays that view device
buffers keep that memory alive, also after the device is closed.

In a notebook a :class:`Frame` shows as a picture (``_repr_png_``, of
:meth:`Frame.to_rgb`, read with its own colour tags), and
:meth:`Frame.plane_pictures` shows its planes side by side::

    hd                                   # a cell's last value: a picture
    rgb = hd.to_rgb()                    # (h, w, 3) uint8, full range

``python3 -m m2m`` runs the ``m2m`` command (list, info, convert,
events, ir).

Remote controls (rc-core IR devices such as vhqv's loopback ``vhqv-ir``)
are :mod:`m2m.ir`: send scancodes and raw timings, read decoded keys::

    with m2m.ir.open("vhqv-ir") as rc:
        rc.protocols = {"nec"}
        rc.send("nec", 0x04a1)
        for key in rc.scancodes(timeout=1.0):
            print(key.protocol, hex(key.scancode))

Coded streams decode through a stateful decoder node (vicodec's FWHT,
...) into frames of the visible picture, with their timestamps::

    with m2m.Decoder("vicodec") as dec:
        for frame in dec.decode(m2m.read_hdr_stream("clip.fwht")):
            y, cb, cr = frame

and frames encode through a stateful encoder node into packets (bytes,
with their timestamps)::

    with m2m.Encoder("/dev/video0", "FWHT", format="YUV420", size=(640, 360)) as enc:
        stream = [packet for packet in enc.encode(frames)]

A :class:`Chain` runs a decoder's frames through a converter into an
encoder, the devices sharing buffers by DMABUF (packets in, packets out)::

    with m2m.Chain("vicodec", "vhqv", "vicodec", size=(1280, 720)) as chain:
        hd = b"".join(chain.run(m2m.read_hdr_stream("clip.fwht")))

Failures raise :class:`Error` subclasses (an :class:`OSError` with errno)
carrying libm2m's message. The C API itself is :mod:`m2m.capi`.
"""
from . import capi, ir
from .chain import Chain, ChainStats
from .codec import DecodedFrame, Decoder, Encoder, Packet, read_hdr_stream
from ._controls import Control, Controls
from ._errors import (BufferTooSmall, DeviceBusy, DeviceClosed, DeviceNotFound,
                      EndOfStream, Error, InvalidArgument, NotFound, NotSupported,
                      OutOfRange, Timeout, UnknownControl, UnsupportedFormat,
                      WouldBlock, WrongType, from_errno)
from ._events import Event, Events
from ._formats import (FIELDS, format_name, formats, fourcc, frame_format, plane_layouts,
                       plane_names, plane_shapes, plane_views)
from ._frame import Frame
from ._picture import PlanePictures
from ._session import Session
from .device import Device, DeviceInfo, Ready, devices, open

__version__ = f"{capi.M2M_VERSION_MAJOR}.{capi.M2M_VERSION_MINOR}.{capi.M2M_VERSION_PATCH}"

__all__ = [
    "BufferTooSmall", "Chain", "ChainStats", "Control", "Controls", "DecodedFrame", "Decoder", "Device",
    "DeviceBusy", "DeviceClosed",
    "DeviceInfo", "DeviceNotFound", "Encoder", "EndOfStream", "Error", "Event", "Events",
    "FIELDS", "Frame", "InvalidArgument", "NotFound", "NotSupported", "OutOfRange", "Packet",
    "PlanePictures",
    "Ready", "Session", "Timeout", "UnknownControl", "UnsupportedFormat", "WouldBlock",
    "WrongType", "devices",
    "format_name", "formats", "fourcc", "frame_format", "from_errno", "ir", "open",
    "plane_layouts", "plane_names", "plane_shapes", "plane_views", "read_hdr_stream",
]
