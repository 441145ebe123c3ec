# SPDX-License-Identifier: LGPL-2.1-or-later
"""The device every test here runs on: M2M_TEST_DEVICE, by default the
in-process one; in the VM, vhqv (loaded with semiplanar=1 for NV12)."""
import os

import numpy as np
import pytest

import m2m

DEVICE = os.environ.get("M2M_TEST_DEVICE", "inprocess")


@pytest.fixture
def dev():
    with m2m.open(DEVICE) as d:
        yield d


@pytest.fixture
def rng():
    return np.random.default_rng(1)


@pytest.fixture
def yuyv(rng):
    return rng.integers(0, 256, size=(48, 64, 2), dtype=np.uint8)


@pytest.fixture
def grey(rng):
    return rng.integers(0, 256, size=(48, 64), dtype=np.uint8)


@pytest.fixture
def smooth_rgb():
    """A smooth picture: conversions to 4:2:0 and back stay close to it."""
    y, x = np.mgrid[0:48, 0:64]
    return np.stack([x * 3, y * 4, 255 - x * 2 - y], axis=-1).astype(np.uint8)
