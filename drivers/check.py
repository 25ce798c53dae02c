"""`cardtable check-hardware`: a walk through buttons, lights, buzzer, panel and camera."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from drivers.buttons import ButtonPanel
from drivers.camera import CameraSettings, FrameSource, RecordedSource, ResilientCamera
from drivers.clock import ManualClock
from drivers.config import HardwareConfig
from drivers.debounce import KeyTiming
from drivers.inputs import (
    DriverEvent,
    NewGameConfirmed,
    NewGameRequested,
    PanelConnected,
)
from drivers.keys import SHARED_PANEL_KEYS, press_event
from drivers.outputs import ACCEPT_TICK_MS, RENEGE_ALARM_MS, GpioOutputs, PanelOutputs
from drivers.outputs import PatternPlayer as Player
from drivers.panel_link import PanelLink
from drivers.pinmap import PinMap

Say = Callable[[str], None]
Ask = Callable[[str], bool]


@dataclass
class CheckReport:
    """Each step's name, whether it worked and what was seen."""

    steps: list[tuple[str, bool, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every step worked (and there was at least one)."""
        return bool(self.steps) and all(ok for _, ok, _ in self.steps)

    def add(self, name: str, ok: bool, detail: str) -> None:
        """Record a step."""
        self.steps.append((name, ok, detail))


def mark(ok: bool) -> str:
    """The column that says whether a step worked."""
    return "ok  " if ok else "FAIL"


def describe(events: list[DriverEvent]) -> str:
    """Events as a short readable list."""
    return ", ".join(repr(event) for event in events) or "nothing"


Presser = Callable[[str, int], list[DriverEvent]]


def check_buttons(panel: ButtonPanel, press: Presser, say: Say, report: CheckReport) -> None:
    """Press each button in turn (`press(label, gpio)` returns what the panel saw)."""
    for spec in panel.pin_map.buttons:
        events = press(spec.label, spec.gpio)
        expected = press_event(spec.name, spec.seat)
        ok = events == [expected]
        seen = describe(events)
        say(f"  {mark(ok)} {spec.label:<12} GPIO{spec.gpio:<3} saw {seen}")
        report.add(f"button {spec.label}", ok, describe(events))


@contextmanager
def mock_factory() -> Iterator[Any]:
    """A fresh gpiozero MockFactory, reset afterwards."""
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    try:
        yield factory
    finally:
        factory.reset()


def mock_buttons(pin_map: PinMap, say: Say, report: CheckReport) -> None:
    """Press every button on mock pins, then hold UNDO and confirm a new game with OK."""
    say("Buttons (mock pins):")
    clock = ManualClock()
    with mock_factory() as factory, ButtonPanel(pin_map, factory, clock=clock) as panel:

        def press(label: str, gpio: int, hold: float = 0.1) -> list[DriverEvent]:
            pin = factory.pin(gpio)
            pin.drive_low()
            clock.advance(hold)
            events = panel.poll()
            pin.drive_high()
            clock.advance(0.4)
            return events + panel.poll()

        check_buttons(panel, press, say, report)
        labels = {spec.label: spec.gpio for spec in pin_map.buttons}
        undo = next((label for label in labels if label.endswith("UNDO")), None)
        ok_key = next((label for label in labels if label.endswith("OK")), None)
        if undo and ok_key:
            events = press(undo, labels[undo], hold=KeyTiming().hold_s + 0.5)
            events += press(ok_key, labels[ok_key])
            good = [type(e) for e in events] == [NewGameRequested, NewGameConfirmed]
            say(f"  {mark(good)} hold {undo}, then {ok_key}: {describe(events)}")
            report.add("new game (hold UNDO, OK)", good, describe(events))


def mock_outputs(pin_map: PinMap, say: Say, report: CheckReport) -> None:
    """Drive every light and the buzzer on mock pins and read the pins back."""
    spec = pin_map.outputs
    say("Outputs (mock pins):")
    clock = ManualClock()
    with mock_factory() as factory:
        outputs = GpioOutputs(spec, factory, player=Player(background=False, sleep=clock.sleep))
        try:
            for seat, gpio in spec.turn_leds.items():
                outputs.turn_light(seat)
                lit = [s for s, pin in spec.turn_leds.items() if factory.pin(pin).state]
                ok = lit == [seat]
                say(f"  {mark(ok)} turn light {seat} (GPIO{gpio}): lit {lit}")
                report.add(f"turn light {seat}", ok, f"lit {lit}")
            if spec.buzzer is not None:
                for name, play, pattern in (
                    ("accept tick", outputs.accept_tick, ACCEPT_TICK_MS),
                    ("renege alarm", outputs.renege_alarm, RENEGE_ALARM_MS),
                ):
                    pin = factory.pin(spec.buzzer)
                    pin.clear_states()
                    play()
                    ons = sum(1 for change in pin.states[1:] if change.state)
                    ok = ons == (len(pattern) + 1) // 2 and not pin.state
                    say(f"  {mark(ok)} buzzer {name}: {ons} beep(s)")
                    report.add(f"buzzer {name}", ok, f"{ons} beep(s)")
        finally:
            outputs.close()


def mock_panel(say: Say, report: CheckReport) -> None:
    """A fake panel on loop://: handshake, every key, lights and buzzer, unplug and replug."""
    from drivers.fake_panel import LoopPanel

    say("Serial panel (fake panel on loop://):")
    fake = LoopPanel()
    clock = ManualClock()
    link = PanelLink("loop://", open_port=fake.open, clock=clock, ack_on_receipt=True)

    def pump(rounds: int = 4) -> list[DriverEvent]:
        events: list[DriverEvent] = []
        for _ in range(rounds):
            events += link.poll()
            clock.advance(0.05)
        return events

    events = pump()
    connected = any(isinstance(e, PanelConnected) for e in events)
    say(f"  {mark(connected)} handshake: {describe(events)}")
    report.add("panel handshake", connected, describe(events))
    for key in SHARED_PANEL_KEYS:
        fake.press(key)
        events = pump()
        ok = events == [press_event(key, None)]
        say(f"  {mark(ok)} panel {key:<9} saw {describe(events)}")
        report.add(f"panel button {key}", ok, describe(events))
    signals = PanelOutputs(link)
    signals.turn_light("E")
    signals.renege_alarm()
    signals.accept_tick()
    ok = fake.buzzes == [list(RENEGE_ALARM_MS), list(ACCEPT_TICK_MS)] and bool(fake.lights.get("E"))
    say(f"  {mark(ok)} panel lights {fake.lights}, buzzer {fake.buzzes}")
    report.add("panel lights and buzzer", ok, f"{fake.lights} {fake.buzzes}")
    fake.unplug()
    events = pump()
    fake.press("OK")  # while unplugged: kept by the panel until acknowledged
    fake.plug()
    clock.advance(2.0)
    events += pump(8)
    kinds = [type(e).__name__ for e in events]
    ok = kinds == ["PanelDisconnected", "PanelConnected", "ConfirmPressed"]
    say(f"  {mark(ok)} unplug and replug: {describe(events)}")
    report.add("panel reconnect", ok, describe(events))
    link.close()


def check_camera(
    source: FrameSource,
    settings: CameraSettings,
    frames: int,
    say: Say,
    report: CheckReport,
    timeout_s: float = 10.0,
    *,
    clock: Callable[[], float] = time.perf_counter,
    sleep: Callable[[float], Any] = time.sleep,
) -> None:
    """Read `frames` frames (giving up after `timeout_s`) and report resolution and rate."""
    camera = ResilientCamera(source, clock=clock)
    got = 0
    size: tuple[int, int] | None = None
    failures: list[DriverEvent] = []
    start = clock()
    first_by = start + timeout_s  # no frame by then: give up
    deadline = first_by + 3 * frames / settings.fps
    while got < frames and clock() < (deadline if got else first_by):
        frame, events = camera.read()
        failures += events
        if frame is None:
            if isinstance(source, RecordedSource) and camera.is_open:
                break  # end of the recording
            sleep(0.01)
            continue
        got += 1
        size = frame.size
    elapsed = clock() - start
    camera.close()
    rate = got / elapsed if elapsed > 0 else 0.0
    ok = got == frames and not failures
    detail = f"{source.name}: {size[0]}x{size[1]}, " if size else f"{source.name}: no frames, "
    detail += f"{got} frames in {elapsed:.2f} s = {rate:.1f} fps"
    if failures:
        detail += f"; {describe(failures)}"
    say(f"  {mark(ok)} camera {detail}")
    report.add("camera", ok, detail)


def mock_camera(say: Say, report: CheckReport, frames: int = 90) -> None:
    """Write a small recording and read it back as the camera."""
    from drivers.recording import write_video

    say("Camera (recorded input):")
    settings = CameraSettings(640, 480, 30)
    with tempfile.TemporaryDirectory(prefix="cardtable-check-") as tmp:
        path = write_video(Path(tmp) / "check.avi", frames, width=640, height=480)
        check_camera(RecordedSource(path), settings, frames, say, report)
        size_ok = report.steps[-1][2].startswith(f"recorded:{path}: 640x480")
        if not size_ok:
            report.add("camera resolution", False, "expected 640x480")


def run_mock_check(pin_map: PinMap, say: Say = print) -> CheckReport:
    """The whole walk on fake hardware; nothing here needs a person or a Pi."""
    report = CheckReport()
    say(f"Pin map: {len(pin_map.buttons)} buttons, outputs {pin_map.outputs}")
    report.add("pin map", True, f"{len(pin_map.buttons)} buttons")
    mock_buttons(pin_map, say, report)
    mock_outputs(pin_map, say, report)
    mock_panel(say, report)
    mock_camera(say, report)
    return report


def _wait_for_input(
    poll: Callable[[], list[DriverEvent]],
    wait_s: float,
    clock: Callable[[], float],
    sleep: Callable[[float], Any],
) -> list[DriverEvent]:
    """Poll until something arrives (then half a second more for stragglers) or time runs out."""
    events: list[DriverEvent] = []
    deadline = clock() + wait_s
    while clock() < deadline:
        found = poll()
        if found and not events:
            deadline = min(deadline, clock() + 0.5)
        events += found
        sleep(0.01)
    return events


def run_live_check(
    config: HardwareConfig,
    say: Say = print,
    ask: Ask | None = None,
    *,
    wait_s: float = 30.0,
    pin_factory: Any = None,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], Any] = time.sleep,
) -> CheckReport:
    """The walk with a person at the table: they press, watch and listen; `ask` gets answers.

    `pin_factory`, `clock` and `sleep` default to the real ones; tests pass fakes.
    """
    from drivers.buttons import make_pin_factory
    from drivers.camera import make_source

    answer: Ask = ask or (lambda q: input(f"{q} [y/n] ").strip().lower().startswith("y"))
    report = CheckReport()
    if config.pin_map is not None:
        pin_map = config.pin_map
        factory = pin_factory or make_pin_factory(config.pin_factory)
        say(f"Buttons ({len(pin_map.buttons)}), pin factory {type(factory).__name__}:")
        with ButtonPanel(pin_map, factory, clock=clock) as panel:

            def press(label: str, gpio: int) -> list[DriverEvent]:
                say(f"  press {label} (GPIO{gpio}) and let go ...")
                return _wait_for_input(panel.poll, wait_s, clock, sleep)

            check_buttons(panel, press, say, report)
            if config.outputs == "gpio":
                player = Player(background=False, sleep=sleep)
                outputs = GpioOutputs(pin_map.outputs, factory, player=player)
                try:
                    for seat in pin_map.outputs.turn_leds:
                        outputs.turn_light(seat)
                        ok = answer(f"  Is the {seat} turn light on, and no other?")
                        report.add(f"turn light {seat}", ok, "yes" if ok else "no")
                    outputs.turn_light(None)
                    if pin_map.outputs.buzzer is not None:
                        outputs.accept_tick()
                        report.add("buzzer accept tick", answer("  Did you hear a short tick?"), "")
                        outputs.renege_alarm()
                        report.add("buzzer renege alarm", answer("  Did you hear the alarm?"), "")
                finally:
                    outputs.close()
    port = config.panel_port
    if port is not None:
        say(f"Serial panel on {port}:")
        link = PanelLink(port, clock=clock, ack_on_receipt=True)  # nothing to commit here
        events = _wait_for_input(link.poll, 5.0, clock, sleep)
        hello = [e for e in events if isinstance(e, PanelConnected)]
        report.add("panel handshake", bool(hello), describe(events))
        say(f"  {mark(bool(hello))} {describe(events)}")
        if hello:
            say("  press OK on the panel ...")
            events = _wait_for_input(link.poll, wait_s, clock, sleep)
            say(f"  saw {describe(events)}")
            report.add("panel button", bool(events), describe(events))
            if config.outputs == "panel":
                signals = PanelOutputs(link)
                signals.turn_light("N")
                signals.accept_tick()
                report.add("panel signals", answer("  N light on and a tick heard?"), "")
                signals.close()
        link.close()
    if config.camera_kind != "none":
        say("Camera:")
        source = make_source(config.camera_kind, config.camera, config.camera_target)
        frames = int(config.camera.fps * 3)
        check_camera(
            source, config.camera, frames, say, report, wait_s, clock=clock, sleep=sleep
        )
    if not report.steps:
        report.add("configuration", False, "nothing to check: no pins, panel or camera configured")
    return report
