# SPDX-License-Identifier: LGPL-2.1-or-later
"""m2m.Decoder, m2m.Encoder and m2m.Chain from several threads, as
libm2m's codec objects promise (include/m2m/codec.h, docs/python.md):
close() from another thread ends a receive waiting with DeviceClosed, as
a Device's close() ends its waits; and one thread sending while another
receives without a timeout loses nothing. Run by tests/vm/vicodec-decode
under vm-run --vicodec (the variables of test_vicodec.py, test_encoder.py
and test_chain.py)."""
import os
import threading
import time

import numpy as np
import pytest

import m2m

W, H = 640, 360
FRAME = W * H * 3 // 2


def env(name):
    value = os.environ.get(name)
    assert value, f"${name} is not set: run under tests/vm/vicodec-decode"
    return value


def packets():
    return list(m2m.read_hdr_stream(env("STREAM_ONE")))


def raw_frames():
    """testsrc2's 640x360 YUV420 frames, each its Y, Cb, Cr planes."""
    raw = np.fromfile(env("RAW_TESTSRC2"), np.uint8)
    assert raw.size % FRAME == 0 and raw.size
    return [(raw[at:at + W * H].reshape(H, W),
             raw[at + W * H:at + W * H * 5 // 4].reshape(H // 2, W // 2),
             raw[at + W * H * 5 // 4:at + FRAME].reshape(H // 2, W // 2))
            for at in range(0, raw.size, FRAME)]


def decoder():
    return m2m.Decoder(env("VICODEC_DECODER"), "FWHT")


def encoder():
    return m2m.Encoder(env("VICODEC_ENCODER"), "FWHT", format="YUV420", size=(W, H))


def chain():
    return m2m.Chain(env("VICODEC_DECODER"), env("VHQV_VIDEO"), env("VICODEC_ENCODER"),
                     size=(1280, 720))


OPENERS = {"decoder": decoder, "encoder": encoder, "chain": chain}


@pytest.mark.parametrize("kind", OPENERS)
def test_close_ends_a_receive_waiting_with_device_closed(kind):
    obj = OPENERS[kind]()
    result = {}

    def wait():
        started = time.monotonic()
        try:
            result["got"] = obj.receive(timeout=10)
        except m2m.Error as e:
            result["error"] = e
        result["took"] = time.monotonic() - started

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.3)
    assert waiter.is_alive(), f"the {kind}'s receive did not wait: {result}"
    obj.close()
    waiter.join(5)
    assert not waiter.is_alive(), f"the {kind}'s receive still waited 5 s after close()"
    assert isinstance(result.get("error"), m2m.DeviceClosed), result
    assert "was closed while waiting" in str(result["error"])
    assert result["took"] < 2, f"the {kind}'s receive took {result['took']:.2f} s"
    with pytest.raises(m2m.DeviceClosed):
        obj.receive()


def feed(obj, items, finished):
    """Send each (payload, timestamp_ns) as the object takes it (False:
    the other thread has to receive first), then drain: drain() asks for
    it at once, and the rest comes to the receiving thread."""
    try:
        for payload, timestamp_ns in items:
            while not obj.send(payload, timestamp_ns):
                time.sleep(0.001)
        obj.drain()
    except BaseException as e:      # for the main thread to raise
        finished["error"] = e


def receive_while_fed(obj, items):
    """What receive(timeout=None) gives in this thread while another
    thread sends items, up to the drain's end."""
    finished = {}
    feeder = threading.Thread(target=feed, args=(obj, items, finished))
    feeder.start()
    got = []
    try:
        while True:
            got.append(obj.receive(timeout=None))
    except m2m.EndOfStream:
        pass
    feeder.join(10)
    assert not feeder.is_alive()
    if "error" in finished:
        raise finished["error"]
    return got


def test_a_decoder_fed_by_one_thread_gives_every_frame_to_another():
    timed = [(p, (i + 1) * 1_000_000) for i, p in enumerate(packets())]
    with decoder() as dec:
        frames = receive_while_fed(dec, timed)
    with decoder() as dec:
        alone = list(dec.decode(timed))
    assert len(frames) == len(alone) == len(timed)
    for i, (a, b) in enumerate(zip(frames, alone)):
        assert a.timestamp_ns == b.timestamp_ns == timed[i][1]
        assert all(np.array_equal(p, q) for p, q in zip(a.planes, b.planes)), i


def test_an_encoder_fed_by_one_thread_gives_every_packet_to_another():
    timed = [(f, (i + 1) * 1_000_000) for i, f in enumerate(raw_frames())]
    with encoder() as enc:
        packets = receive_while_fed(enc, timed)
    with encoder() as enc:
        alone = list(enc.encode(timed))
    assert [bytes(p) for p in packets] == [bytes(p) for p in alone]
    assert [p.timestamp_ns for p in packets] == [t for _, t in timed]


def test_a_chain_fed_by_one_thread_gives_every_packet_to_another():
    timed = [(p, (i + 1) * 40_000_000) for i, p in enumerate(packets())]
    with chain() as ch:
        got = receive_while_fed(ch, timed)
    assert [p.timestamp_ns for p in got] == [t for _, t in timed]
    assert all(len(p) for p in got)
