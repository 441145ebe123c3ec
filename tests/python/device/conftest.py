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


def photo(name):
    """A scikit-image photo: astronaut (512x512), coffee (600x400),
    chelsea (451x300), rocket (640x427) in RGB24, camera (512x512) in
    GREY."""
    import skimage.data
    return getattr(skimage.data, name)()


def psnr(a, b):
    """PSNR in dB of two 8-bit pictures (inf when equal)."""
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return float("inf") if mse == 0 else 10 * np.log10(255 ** 2 / mse)


def channel_psnr(a, b):
    """PSNR of each channel of two (h, w, c) pictures, as a tuple."""
    return tuple(round(psnr(a[..., c], b[..., c]), 1) for c in range(a.shape[-1]))


def max_diff(a, b):
    """The largest absolute difference between two pictures."""
    return int(np.abs(a.astype(np.int32) - b.astype(np.int32)).max())
