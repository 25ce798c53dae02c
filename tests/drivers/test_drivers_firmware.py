"""The Pico firmware's loop parts (debounced keys, buzzer player) on stand-in pins."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import pytest

from drivers.fake_panel import FIRMWARE_DIR, load_panel_core


class StandInPin:
    """machine.Pin as far as main.py uses it."""

    IN, OUT, PULL_UP = 0, 1, 2

    def __init__(self, number: int, mode: int = 0, pull: int | None = None, value: int = 1):
        self.number = number
        self.level = value if mode == self.OUT else 1  # pulled up
        self.history = [self.level]

    def value(self, level: int | None = None) -> int:
        if level is not None and level != self.level:
            self.level = level
            self.history.append(level)
        return self.level


@pytest.fixture
def firmware(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    machine = types.ModuleType("machine")
    machine.Pin = StandInPin  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "micropython", types.ModuleType("micropython"))
    monkeypatch.setitem(sys.modules, "panel_core", load_panel_core())
    source = (FIRMWARE_DIR / "main.py").read_text()
    body, call = source.rstrip().rsplit("\n", 1)
    assert call == "main()"
    namespace: dict[str, Any] = {"__name__": "firmware"}
    exec(compile(body, str(Path(FIRMWARE_DIR / "main.py")), "exec"), namespace)
    return namespace


def test_key_reports_edge_after_debounce_with_time_of_change(firmware: dict[str, Any]) -> None:
    sent: list[str] = []
    core = firmware["PanelCore"](sent.append)
    key = firmware["Key"]("OK", 13)
    debounce = firmware["DEBOUNCE_MS"]
    key.pin.level = 0  # pressed (to GND)
    key.poll(100, core)
    key.poll(100 + debounce - 1, core)
    assert sent == []
    key.pin.level = 1  # bounce
    key.poll(103, core)
    key.pin.level = 0
    key.poll(105, core)
    key.poll(105 + debounce, core)
    key.pin.level = 1
    key.poll(300, core)
    key.poll(300 + debounce, core)
    assert sent == ["DOWN 1 105 OK", "UP 2 300 OK"]


def test_buzzer_plays_pattern_without_blocking(firmware: dict[str, Any]) -> None:
    buzzer = firmware["Buzzer"](15)
    buzzer.play([100, 50, 200])
    levels = {}
    for ms in range(0, 400, 10):
        buzzer.update(ms)
        levels[ms] = buzzer.pin.level
    on = [ms for ms, level in levels.items() if level]
    assert on == list(range(0, 100, 10)) + list(range(150, 350, 10))
    assert buzzer.pin.history == [0, 1, 0, 1, 0]
