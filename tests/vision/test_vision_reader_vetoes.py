"""Labels that are no answer veto a classification when nearest, and take no margin."""

from __future__ import annotations

import numpy as np

from vision.model import GlyphSet


def _set() -> GlyphSet:
    features = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.8, 0.6, 0.0]], np.float32)
    return GlyphSet(features, np.array(["A", "B", "V"]))


def test_a_nearest_veto_label_gives_no_answer() -> None:
    vector = np.array([0.8, 0.6, 0.0], np.float32)
    assert _set().classify_vector(vector, vetoes=frozenset("V")) is None
    plain = _set().classify_vector(vector)
    assert plain is not None and plain.label == "V"


def test_a_veto_label_takes_no_margin() -> None:
    vector = np.array([0.9, 0.1, 0.0], np.float32)
    vector /= np.linalg.norm(vector)
    with_veto = _set().classify_vector(vector, vetoes=frozenset("V"))
    without = _set().classify_vector(vector)
    assert with_veto is not None and without is not None
    assert with_veto.label == without.label == "A"
    # Without the veto the runner-up is V, close to A; with it, B, far from A.
    assert with_veto.margin > without.margin
    assert np.isclose(with_veto.margin, float(vector[0] - vector[1]))
