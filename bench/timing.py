# SPDX-License-Identifier: LGPL-2.1-or-later
"""How the Python benchmarks time a call: medians over rounds in which the
contenders take turns, in wall-clock time."""
import statistics
import time


def per_call(call, seconds=0.1):
    """Seconds a call, over as many calls as fill about ``seconds``."""
    call()
    n = 1
    while True:
        start = time.perf_counter()
        for _ in range(n):
            call()
        took = time.perf_counter() - start
        if took >= seconds:
            return took / n
        n *= 2


def rounds(contenders, count):
    """Each contender's median time, and each one's median ratio to the
    first, over ``count`` rounds in which they take turns."""
    times = {name: [] for name in contenders}
    for _ in range(count):
        for name, call in contenders.items():
            times[name].append(per_call(call))
    first = next(iter(contenders))
    return {name: (statistics.median(t),
                   statistics.median(a / b for a, b in zip(t, times[first])))
            for name, t in times.items()}


def show(title, results, unit):
    print(title)
    scale = {"us": 1e6, "ms": 1e3}[unit]
    for name, (t, ratio) in results.items():
        print(f"  {name:42s} {t * scale:8.3f} {unit}  {ratio:5.2f}x")
