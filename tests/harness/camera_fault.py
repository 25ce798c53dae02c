"""A fault put into a recorded camera on purpose, to try the table's supervision for real.

    python -m tests.harness.camera_fault FAULT [cardtable arguments ...]

runs `cardtable` with its recorded camera (`kind = "recorded"`) failing as FAULT says:

- `raise:N` or `raise:N:TIMES`: the Nth frame read raises (and every Nth after it, TIMES in
  all; 1 unless given), as a camera driver that crashes its thread does;
- `hang:N` or `hang:N:SECONDS`: the Nth frame read blocks for SECONDS (for ever unless given),
  as a camera that stops answering does.

Only a recorded camera fails, so a live camera never does. The table itself knows no such
fault: this module registers its recording as the `recorded` camera source of this process.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from drivers.camera import CameraSettings, FrameSource, Image, RecordedSource, register_source
from drivers.errors import ConfigError


class InjectedCameraFault(RuntimeError):
    """The crash a `raise:...` fault asked for."""


@dataclass(frozen=True, slots=True)
class CameraFault:
    """What goes wrong and when: `kind` raise or hang, at every `every`th frame read; a raise
    `times` times in all, a hang for `seconds` (None: for ever)."""

    kind: str
    every: int
    times: int = 1
    seconds: float | None = None

    @property
    def text(self) -> str:
        """The fault as it is spelt."""
        if self.kind == "raise":
            return f"raise:{self.every}:{self.times}"
        return f"hang:{self.every}" + ("" if self.seconds is None else f":{self.seconds:g}")


def parse_fault(text: str) -> CameraFault:
    """`raise:N[:TIMES]` or `hang:N[:SECONDS]`; ConfigError naming the text otherwise."""
    kind, _, rest = text.strip().partition(":")
    parts = rest.split(":") if rest else []
    problem = f"camera fault {text!r}: expected raise:N[:TIMES] or hang:N[:SECONDS], N >= 1"
    if kind not in ("raise", "hang") or not 1 <= len(parts) <= 2 or not parts[0].isdigit():
        raise ConfigError(problem)
    every = int(parts[0])
    if every < 1:
        raise ConfigError(problem)
    if kind == "raise":
        times = int(parts[1]) if len(parts) == 2 and parts[1].isdigit() else None
        if len(parts) == 2 and (times is None or times < 1):
            raise ConfigError(problem)
        return CameraFault("raise", every, times or 1)
    try:
        seconds = float(parts[1]) if len(parts) == 2 else None
    except ValueError:
        raise ConfigError(problem) from None
    if seconds is not None and not seconds > 0:
        raise ConfigError(problem)
    return CameraFault("hang", every, seconds=seconds)


class FaultyRecording:
    """A frame source that raises or hangs at the frames its fault names, else passes through."""

    def __init__(
        self,
        source: FrameSource,
        fault: CameraFault,
        wait: Callable[[float | None], object] | None = None,
    ) -> None:
        """`wait(seconds)` is the hang (default: an event nobody sets, waited on)."""
        self.source = source
        self.fault = fault
        self.name = source.name
        self.reads = 0
        self.raised = 0
        self.hung = 0
        self._wait = wait or threading.Event().wait

    def open(self) -> None:
        self.source.open()

    def read(self) -> Image | None:
        """The next frame, unless this read is the fault's."""
        self.reads += 1
        if self.reads % self.fault.every == 0:
            if self.fault.kind == "raise" and self.raised < self.fault.times:
                self.raised += 1
                raise InjectedCameraFault(
                    f"camera fault {self.fault.text} at frame read {self.reads} of {self.name}")
            if self.fault.kind == "hang" and not self.hung:
                self.hung += 1
                self._wait(self.fault.seconds)
        return self.source.read()

    def close(self) -> None:
        self.source.close()


def register_faulty_recordings(fault: CameraFault) -> None:
    """From now on in this process a recorded camera fails as `fault` says."""

    def faulty(settings: CameraSettings, target: str | None, loop: bool) -> FrameSource:
        if target is None:
            raise ConfigError("a recorded camera needs a path (video file or image folder)")
        return FaultyRecording(RecordedSource(Path(target), loop=loop), fault)

    register_source("recorded", faulty)


def main(argv: Sequence[str] | None = None) -> int:
    """`FAULT [cardtable arguments ...]`: the table with its recording failing as FAULT says."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("camera_fault: expected FAULT (raise:N[:TIMES] or hang:N[:SECONDS]) and the "
              "cardtable arguments", file=sys.stderr)
        return 2
    try:
        fault = parse_fault(args[0])
    except ConfigError as error:
        print(f"camera_fault: {error}", file=sys.stderr)
        return 2
    register_faulty_recordings(fault)
    from app.cli import main as cardtable

    return cardtable(args[1:])


if __name__ == "__main__":
    sys.exit(main())
