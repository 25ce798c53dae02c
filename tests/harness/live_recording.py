"""A recording played as a live camera: each frame is due at its time on the wall clock, a read
waits for the next frame due, and the frames a slow reader missed are dropped, as a camera does.

    python -m tests.harness.live_recording STATS.json [cardtable arguments ...]

runs `cardtable` with camera kind `live-recording` (its `path` a folder of frames) made by this
module, and keeps in STATS.json when the recording started (wall clock), the frames read and
those dropped, and whether it has ended.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import cast

from drivers.camera import IMAGE_SUFFIXES, CameraSettings, FrameSource, Image, register_source
from drivers.errors import CameraError, ConfigError

KIND = "live-recording"
"""The camera kind this module registers."""


class LiveRecording:
    """The frames of a folder, each due `1 / fps` s after the one before from the first read."""

    def __init__(self, folder: Path, fps: float, stats: Path | None = None, *,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], object] = time.sleep) -> None:
        self.folder = folder
        self.fps = fps
        self.stats = stats
        self.name = f"{KIND}:{folder}"
        self.clock = clock
        self.sleep = sleep
        self.frames: list[Path] = []
        self.started_at = 0.0
        self.started_wall = 0.0
        self.next = 0
        self.read_count = 0
        self.dropped = 0

    def open(self) -> None:
        """List the frames; the recording starts at the first read."""
        if not self.folder.is_dir():
            raise CameraError(f"recording {self.folder} is not a folder of frames")
        self.frames = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.frames:
            raise CameraError(f"no frames in {self.folder}")
        self.next = 0

    def read(self) -> Image | None:
        """The frame due now (waiting for it when none is yet); None once the recording is over."""
        import cv2

        now = self.clock()
        if self.next == 0 and self.read_count == 0:
            self.started_at, self.started_wall = now, time.time()
        due = int((now - self.started_at) * self.fps)
        if due < self.next:
            self.sleep(self.started_at + self.next / self.fps - now)
            due = self.next
        if due >= len(self.frames):
            self.dropped += max(0, len(self.frames) - self.next)
            self.next = len(self.frames)
            self._save(ended=True)
            return None
        self.dropped += due - self.next
        self.next = due + 1
        image = cv2.imread(str(self.frames[due]), cv2.IMREAD_COLOR)
        if image is None:
            raise CameraError(f"cannot read frame {self.frames[due]}")
        self.read_count += 1
        if self.read_count % 10 == 1:
            self._save(ended=False)
        return cast("Image", image)

    def close(self) -> None:
        """Keep the figures."""
        if self.read_count:
            self._save(ended=self.next >= len(self.frames))

    def _save(self, *, ended: bool) -> None:
        if self.stats is None:
            return
        figures = {"started": self.started_wall, "read": self.read_count,
                   "dropped": self.dropped, "frames": len(self.frames), "ended": ended}
        partial = self.stats.with_suffix(".part")
        partial.write_text(json.dumps(figures), encoding="utf-8")
        partial.replace(self.stats)


def register_live_recordings(stats: Path | None) -> None:
    """Make camera kind `live-recording` in this process, its figures kept in `stats`."""

    def make(settings: CameraSettings, target: str | None, loop: bool) -> FrameSource:
        if target is None:
            raise ConfigError(f"a {KIND} camera needs the path of a folder of frames")
        return LiveRecording(Path(target), settings.fps, stats)

    register_source(KIND, make, runs_out=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Register the live recording, then run `cardtable` with the rest of the arguments."""
    from app.cli import main as cardtable

    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: python -m tests.harness.live_recording STATS.json [cardtable arguments]",
              file=sys.stderr)
        return 2
    register_live_recordings(Path(args[0]))
    return cardtable(args[1:])


if __name__ == "__main__":
    sys.exit(main())
