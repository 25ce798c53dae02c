"""The synthetic table's sensor noise: drawn afresh per frame, or reused from one field."""

from __future__ import annotations

import numpy as np
import pytest

from tools.table_synth import SynthConfig, TableScene

TRICK = [([("N", "9C"), ("E", "AH"), ("S", "JD"), ("W", "KS")], "E")]


def scene(noise: float, noise_reuse: bool) -> TableScene:
    """A small scene with every effect but the noise off, so frames differ only by it."""
    config = SynthConfig(width=320, height=180, seed=3, lighting=False, shadow=False, blur=0.0,
                         noise=noise, noise_reuse=noise_reuse)
    return TableScene(TRICK, config)


def noise_of(frame: np.ndarray, clean: np.ndarray) -> np.ndarray:
    """A frame's noise, read where the clean frame is clear of clipping."""
    inside = (clean > 20) & (clean < 235)
    return (frame.astype(np.float32) - clean.astype(np.float32))[inside]


@pytest.mark.parametrize("noise_reuse", [False, True], ids=["fresh", "reused"])
def test_each_frame_has_noise_of_the_asked_strength_and_its_own(noise_reuse: bool) -> None:
    clean = scene(0.0, False).render(1.0)
    noisy = scene(4.0, noise_reuse)
    first, second = noisy.render(1.0), noisy.render(1.0)
    for frame in (first, second):
        assert frame.shape == clean.shape and frame.dtype == np.uint8
        assert abs(float(noise_of(frame, clean).std()) - 4.0) < 0.3
    assert abs(float(noise_of(first, clean).mean())) < 0.6
    apart = first.astype(np.int16) - second.astype(np.int16)
    assert float(np.abs(apart).mean()) > 2.0  # not the same noise twice

