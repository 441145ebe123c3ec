# SPDX-License-Identifier: LGPL-2.1-or-later
"""A chain (include/m2m/codec.h's ``m2m_chain``): a stateful decoder's
frames through a converter (scaling, a format change) into an encoder,
packets in and packets out, the frames never coming up to Python.

libm2m hands each device's CAPTURE buffers to the next one's OUTPUT by
DMABUF, so no frame is copied on the way (GStreamer's
``io-mode=dmabuf``/``dmabuf-import`` pair does the same between its V4L2
elements); where two devices will not agree on a layout, or ``copy=True``
asks, a link copies instead, and :attr:`Chain.stats` counts the bytes.
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator, NamedTuple, Optional, Sequence, Union

from . import _args, capi
from ._errors import DeviceNotFound, NotFound, UnknownControl
from .codec import (CodedData, Packet, _check_packet, _coded, _control_ids, _control_values,
                    _format_code, _packet, _PacketCodec, _timeout_ms)


class ChainStats(NamedTuple):
    """What a :class:`Chain` moved so far, by libm2m's count
    (``struct m2m_chain_stats``).

    Example::

        st = chain.stats
        assert st.bytes_copied == 0 and st.dmabuf_links == 2
    """

    #: Frames the converter was given.
    frames: int
    #: Bytes of frames libm2m copied from one device's buffer to another's:
    #: 0 when both links share buffers by DMABUF.
    bytes_copied: int
    #: Bytes of frames handed on by DMABUF, uncopied.
    bytes_shared: int
    #: Links sharing by DMABUF (0, 1 or 2): decoder to converter,
    #: converter to encoder.
    dmabuf_links: int


class Chain(_PacketCodec):
    """A decoder, a converter and an encoder run as one: coded packets in,
    :class:`Packet` out. A context manager.

    :param decoder: the decoder's node path or driver name ("vicodec"), as
        :func:`m2m.open` takes; so are ``converter`` ("vhqv") and
        ``encoder``
    :param coded: the format the decoder takes: a four-character code
        ("FWHT") or a fourcc
    :param encoded: the format the encoder makes, likewise;
        :class:`DeviceNotFound` when ``encoder`` does not make it
    :param size: the encoded frames' (width, height): the converter scales
        the decoded picture (its visible rectangle) to it; None keeps the
        decoded picture's size
    :param format: the pixel format between the converter and the encoder
        ("YUV420", ...); None: the decoder's
    :param controls: the encoder's controls, as :class:`Encoder` takes them
    :param copy: copy every frame between the devices instead of sharing
        buffers by DMABUF: the same packets, the copies counted in
        :attr:`stats` (for comparison, and for drivers whose DMABUF import
        is broken)
    :param timeout: how long :meth:`send` may wait for the chain to move,
        in seconds (> 0); then :class:`Timeout`

    The converter and the encoder are set up when the decoder has read the
    stream's header. A chain takes one picture size: a resolution change
    in the stream raises :class:`NotSupported`. :meth:`run` is the usual
    way: it sends packets, yields packets as they come, and drains at the
    end. Step by step, :meth:`send` says whether the chain took a packet
    (False: receive first), :meth:`receive` takes a packet, iterating over
    the chain takes those ready now, :meth:`drain` ends the stream. A chain
    is one stream: once drained, :meth:`send` raises. Threads as with
    :class:`Decoder`.

    Example::

        packets = m2m.read_hdr_stream("clip.fwht")
        with m2m.Chain("vicodec", "vhqv", "vicodec", size=(1280, 720)) as chain:
            hd = b"".join(chain.run(packets))
            print(chain.stats)
    """

    _kind, _gives = "chain", "packet"
    _receive_call = staticmethod(capi.m2m_chain_receive)
    _release_call = staticmethod(capi.m2m_chain_release)

    def __init__(self, decoder: str, converter: str, encoder: str, *,
                 coded: Union[str, int] = "FWHT", encoded: Union[str, int] = "FWHT",
                 size: Optional[Sequence[int]] = None,
                 format: Optional[Union[str, int]] = None,  # noqa: A002
                 controls: Optional[dict[Any, Any]] = None, copy: bool = False,
                 timeout: float = 5.0) -> None:
        nodes = self._open(decoder=decoder, converter=converter, encoder=encoder)
        opts = capi.m2m_chain_options()
        opts.version = capi.M2M_CHAIN_OPTIONS_VERSION
        dec, enc = opts.decoder, opts.encoder
        dec.version = capi.M2M_DECODER_OPTIONS_VERSION
        enc.version = capi.M2M_ENCODER_OPTIONS_VERSION
        dec.coded_fourcc = _coded(coded)
        enc.coded_fourcc = _coded(encoded, "encoded")
        enc.raw_fourcc = 0 if format is None else _format_code(format, "format")
        if size is not None:
            enc.width, enc.height = _args.dimensions(size, "size")
        dec.timeout_ms = enc.timeout_ms = _timeout_ms(timeout)
        opts.flags = capi.M2M_CHAIN_COPY if _args.boolean(copy, "copy") else 0
        wanted = _control_values(controls)
        try:
            ids = _control_ids(nodes[2], wanted)
            self._opened(capi.m2m_py_chain_open(*nodes, opts, ids), "m2m_chain_close")
        except NotFound as e:
            if isinstance(e, UnknownControl):
                raise
            raise DeviceNotFound(e.errno, e.strerror) from None

    def __enter__(self) -> Chain:
        return self

    def close(self) -> None:
        """Close the chain and its three devices. Packets already given
        stay valid (they are bytes). Its methods raise
        :class:`DeviceClosed` afterwards, and so does a receive another
        thread is waiting in; closing twice is harmless.

        Example::

            chain = m2m.Chain("vicodec", "vhqv", "vicodec")
            chain.close()
        """
        self._close()

    @property
    def stats(self) -> ChainStats:
        """What the chain moved so far: a :class:`ChainStats` of frames,
        bytes copied, bytes shared and links sharing by DMABUF.

        Example::

            print(chain.stats.bytes_copied)
        """
        st = self._call(capi.m2m_chain_get_stats)
        return ChainStats(st.frames, st.bytes_copied, st.bytes_shared, st.dmabuf_links)

    def send(self, packet: Any, timestamp_ns: int = 0) -> bool:
        """Give the chain one packet of coded data, copied, as
        :meth:`Decoder.send` takes it; the packet encoded from its frame
        carries ``timestamp_ns`` in whole microseconds.

        :returns: True when the chain took it; False when the chain holds
            as much as it can and waits for packets to be received first
            (:meth:`receive`), then send it again
        :raises Timeout: nothing moved within ``timeout``
        :raises NotSupported: the stream's picture size changed
        :raises WrongType: a packet that is no C-contiguous buffer

        Example::

            while not chain.send(packet, timestamp_ns=ts):
                out.append(chain.receive(timeout=1.0))
        """
        timestamp_ns = _args.integer(timestamp_ns, "timestamp_ns", 0, 2 ** 64 - 1)
        _check_packet(packet, "packet")
        return self._send(packet, timestamp_ns)

    def _send(self, packet, timestamp_ns):
        return self._sent(capi.m2m_chain_send, packet, timestamp_ns)

    def __iter__(self) -> Iterator[Packet]:
        """The packets ready now, without waiting.

        Example::

            chain.send(packet)
            out.extend(chain)
        """
        return iter(lambda: self.receive(0), None)

    def drain(self, timeout: Optional[float] = 5.0) -> Iterator[Packet]:
        """End the stream: every packet sent comes out, through the three
        devices, and the iterator returned yields those packets, waiting
        up to ``timeout`` seconds for each (None: for ever);
        :class:`Timeout` if one does not come.

        Example::

            stream += b"".join(chain.drain())
        """
        timeout = _args.seconds(timeout)
        self._call(capi.m2m_chain_drain)
        return self._rest(timeout)

    def run(self, packets: Iterable[CodedData], timeout: Optional[float] = 5.0
            ) -> Iterator[Packet]:
        """Run a stream through: send each packet (bytes-like, or
        ``(bytes, timestamp_ns)``; a bare packet's timestamp is its index
        in ``packets`` in microseconds, ``1000 * i``), yield each packet
        made as it comes, and drain at the end, so every packet is given.
        Packets are waited for up to ``timeout`` seconds when the chain
        needs them taken before it takes more; :class:`Timeout` then.

        Example::

            with m2m.Chain("vicodec", "vhqv", "vicodec", size=(1280, 720)) as chain:
                packets = list(chain.run(m2m.read_hdr_stream("clip.fwht")))
        """
        timeout = _args.seconds(timeout)
        return self._through(packets, timeout, _packet)
