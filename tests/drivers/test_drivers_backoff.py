"""Reconnect backoff: doubles up to a cap, starts over after a success, rejects nonsense."""

from __future__ import annotations

import pytest

from drivers.backoff import Backoff


def test_doubles_to_the_cap_and_resets() -> None:
    backoff = Backoff(0.5, 2.0, 4.0)
    assert [backoff.next_delay() for _ in range(6)] == [0.5, 1.0, 2.0, 4.0, 4.0, 4.0]
    backoff.reset()
    assert backoff.next_delay() == 0.5


@pytest.mark.parametrize(
    ("initial", "factor", "maximum"), [(0, 2, 10), (-1, 2, 10), (5, 2, 1), (1, 0.5, 10)]
)
def test_rejects_bad_parameters(initial: float, factor: float, maximum: float) -> None:
    with pytest.raises(ValueError, match=f"initial={initial}"):
        Backoff(initial, factor, maximum)
