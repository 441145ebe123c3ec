# SPDX-License-Identifier: LGPL-2.1-or-later
"""Threads sharing a Device (docs/python.md, "Waiting, threads and
Ctrl-C"): each call is one step, whatever other threads do meanwhile, so
every result is the one its own arguments give; a session takes frames
from one thread and gives results to others; closing ends the waits of
other threads.

The stress is issue 25's: four threads, four different jobs, each result
compared with the same job run alone. M2M_THREAD_CALLS sets the calls
each thread makes (the issue's run: 1000); by default each makes as many
as fit in 2 s, so the test takes a few seconds in the VM too (where a
call is tens of times slower) and makes hundreds of calls natively."""
import os
import sys
import threading
import time

import numpy as np
import pytest

import m2m
from conftest import DEVICE

CALLS = int(os.environ.get("M2M_THREAD_CALLS", "0"))
SECONDS = 2.0


def calls():
    """A stress thread's iterations: M2M_THREAD_CALLS, else as many as
    fit in SECONDS, and at least 10."""
    end = time.monotonic() + SECONDS
    i = 0
    while (i < CALLS) if CALLS else (i < 10 or time.monotonic() < end):
        yield i
        i += 1


def picture(rng, shape):
    return rng.integers(0, 256, size=shape, dtype=np.uint8)


def issue_25_jobs(rng):
    """The user trial's four jobs: {name: call on a device}."""
    nv12 = m2m.Frame([picture(rng, (480, 512)), picture(rng, (240, 256, 2))], "NV12")
    grey = picture(rng, (120, 160))
    yuyv = picture(rng, (120, 160, 2))
    rgb = picture(rng, (120, 160, 3))
    return {
        "NV12 512x480 to RGB24": lambda dev: dev.convert(nv12, to="RGB24"),
        "GREY turned 90": lambda dev: dev.convert(grey, rotate=90),
        "YUYV 160x120 to NV12": lambda dev: dev.convert(yuyv, "YUYV", to="NV12"),
        "RGB24 scaled to 700x600": lambda dev: dev.convert(rgb, size=(700, 600)),
    }


def planes(result):
    """A result's planes as a tuple of arrays (a Frame or one array)."""
    return tuple(np.array(p) for p in result) if isinstance(result, m2m.Frame) else \
        (np.array(result),)


def run_in_threads(work, *args_of_each):
    """Run work(*args) in a thread for each args; raise the first error.
    The interpreter switches threads every 10 us meanwhile (5 ms by
    default), so that they take turns inside each other's calls."""
    errors = []

    def guarded(*args):
        try:
            work(*args)
        except BaseException as e:  # pylint: disable=broad-except
            errors.append(e)
    threads = [threading.Thread(target=guarded, args=args) for args in args_of_each]
    switching = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(600)
    finally:
        sys.setswitchinterval(switching)
    assert not any(t.is_alive() for t in threads), "a thread did not finish"
    if errors:
        raise errors[0]


def test_four_threads_sharing_a_device_each_get_their_own_jobs_results(dev, rng):
    # Issue 25: 5-49 results a run differed from the job run alone, up to
    # 875 BufferTooSmall, and IndexError where an array came back for a
    # Frame: the Python layer's formats, controls and buffers were set by
    # one call and used by another's.
    jobs = issue_25_jobs(rng)
    with m2m.open(DEVICE) as alone:
        expected = {name: planes(job(alone)) for name, job in jobs.items()}
    wrong = {name: 0 for name in jobs}
    failures = []

    def run(name):
        for _ in calls():
            try:
                got = planes(jobs[name](dev))
            except m2m.Error as e:
                failures.append(f"{name}: {type(e).__name__}: {e}")
                continue
            if len(got) != len(expected[name]) or \
                    not all(np.array_equal(a, b) for a, b in zip(got, expected[name])):
                wrong[name] += 1
    run_in_threads(run, *((name,) for name in jobs))
    assert (len(failures), failures[:3], wrong) == (0, [], {name: 0 for name in jobs})


def test_a_control_set_in_another_thread_never_reaches_a_call_in_the_middle(dev, rng):
    # A call sets the controls its arguments drive (hflip: False here) for
    # itself; another thread mirroring the device meanwhile lands between
    # calls, so no call is mirrored. The calls alternate vflip, so each
    # sets the device up again.
    grey = picture(rng, (48, 64))
    expected = [dev.convert(grey), dev.convert(grey, vflip=True)]
    results = []
    done = threading.Event()

    def convert():
        for i in calls():
            results.append((i % 2, dev.convert(grey, vflip=i % 2 == 1)))
        done.set()

    def mirror():
        while not done.is_set():
            dev.controls.horizontal_flip = True
    run_in_threads(lambda job: job(), (convert,), (mirror,))
    assert sum(not np.array_equal(r, expected[flipped]) for flipped, r in results) == 0


def test_a_session_takes_frames_from_one_thread_and_gives_results_to_others(dev, rng):
    clip = [picture(rng, (48, 64, 3)) for _ in range(CALLS or 60)]
    expected = [dev.convert(f, to="YUYV", hflip=True) for f in clip]
    got = {}
    with dev.session("RGB24", (64, 48), to="YUYV", hflip=True) as s:
        def produce():
            for f in clip:
                s.queue(f)

        def consume(count):
            for _ in range(count):
                out = s.dequeue(timeout=10)
                got.setdefault(out.timestamp_ns, []).append(out.copy().array)
                s.release(out)
        half = len(clip) // 2
        run_in_threads(lambda job, *args: job(*args), (produce,), (consume, half),
                       (consume, len(clip) - half))
    # Each result went to one consumer, once.
    assert sorted(got) == [1000 * (i + 1) for i in range(len(clip))]
    assert all(len(got[1000 * (i + 1)]) == 1 for i in range(len(clip)))
    for i, want in enumerate(expected):
        np.testing.assert_array_equal(got[1000 * (i + 1)][0], want)


@pytest.mark.parametrize("closing", ["session", "device"])
def test_closing_in_another_thread_ends_a_wait_without_timeout(closing):
    dev = m2m.open(DEVICE)
    s = dev.session("GREY", (64, 48))
    ended = []

    def wait():
        started = time.monotonic()
        try:
            s.dequeue()
        except m2m.Error as e:
            ended.append((type(e), time.monotonic() - started))
    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.2)                         # well inside the wait
    closed_at = time.monotonic()
    (s if closing == "session" else dev).close()
    waiter.join(5)
    alive = waiter.is_alive()
    dev.close()
    assert not alive, f"the dequeue still waited 5 s after the {closing} was closed"
    kind, _ = ended[0]
    assert issubclass(kind, m2m.DeviceClosed if closing == "device" else m2m.InvalidArgument)
    assert time.monotonic() - closed_at < 1


def test_a_session_its_device_closed_raises_device_closed():
    # The waiter above may wake after the device's close() is over; it
    # must still hear DeviceClosed, as every call on the session does
    # (before: InvalidArgument, "the session is closed", seen in CI when
    # the machine was loaded). A session closed alone says that.
    dev = m2m.open(DEVICE)
    s = dev.session("GREY", (64, 48))
    dev.close()
    for call in (lambda: s.queue(np.zeros((48, 64), np.uint8)),
                 lambda: s.dequeue(timeout=0), s.input_frame):
        with pytest.raises(m2m.DeviceClosed):
            call()
    with m2m.open(DEVICE) as dev:
        s = dev.session("GREY", (64, 48))
        s.close()
        with pytest.raises(m2m.InvalidArgument, match="the session is closed"):
            s.queue(np.zeros((48, 64), np.uint8))


def band_threads():
    """The in-process device's band helpers in this process, by their
    name: a thread of an earlier test may still be leaving (Python's
    join() returns before the thread is gone), so all threads is no
    count of the library's."""
    names = []
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/comm") as comm:
                names.append(comm.read().strip())
        except FileNotFoundError:
            pass                            # it left meanwhile
    return names.count("m2m-bands")


@pytest.mark.parametrize("threads, helpers", [(1, 0), (3, 2)])
def test_open_takes_the_in_process_devices_threads(rng, threads, helpers):
    # Issue 25: m2m.open() had no threads (m2m_open_options.threads). A
    # 1920x1080 frame is 8 bands: the device starts its helpers (threads
    # - 1 of them) for it, and the bytes are one thread's.
    frame = picture(rng, (1080, 1920, 3))
    with m2m.open("inprocess", threads=1) as one:
        expected = one.convert(frame, to="NV12", rotate=90)
    with m2m.open("inprocess", threads=threads) as dev:
        before = band_threads()
        got = dev.convert(frame, to="NV12", rotate=90)
        started = band_threads() - before
    assert started == helpers
    for a, b in zip(got, expected):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("threads, error, message", [
    (0, m2m.InvalidArgument, r"threads takes None \(one per CPU\) or a positive integer, not 0"),
    (2.0, m2m.WrongType, r"threads takes .*, not 2.0 \(float\)"),
    (True, m2m.WrongType, r"threads takes .*, not True \(bool\)"),
])
def test_open_names_a_bad_thread_count(threads, error, message):
    with pytest.raises(error, match=message):
        m2m.open("inprocess", threads=threads)
