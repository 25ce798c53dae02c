"""Frame sources behind one interface: USB camera (OpenCV), Pi camera (picamera2), recordings."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from drivers.backoff import Backoff
from drivers.errors import CameraError, ConfigError
from drivers.inputs import CameraFailed, CameraReopened, DriverEvent

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Image = npt.NDArray[np.uint8]
else:
    Image = Any

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp"})


class BadFrame(CameraError):
    """One frame of a source could not be read; the source skipped it and goes on."""


@dataclass(frozen=True)
class CameraSettings:
    """What to ask of a camera; exposure and focus are fixed when given (picamera2)."""

    width: int = 1280
    height: int = 720
    fps: float = 30.0
    exposure_us: int | None = None
    analogue_gain: float | None = None
    lens_position: float | None = None  # dioptres: 1 / distance in metres; None = autofocus

    def __post_init__(self) -> None:
        if self.width <= 0 or self.height <= 0:
            raise ConfigError(f"camera resolution {self.width}x{self.height} must be positive")
        if not 0 < self.fps <= 240:
            raise ConfigError(f"camera frame rate {self.fps} must be in (0, 240]")


@dataclass(frozen=True)
class Frame:
    """One picture in OpenCV's BGR order, numbered from 0 and stamped on the reader's clock."""

    image: Image
    index: int
    timestamp: float

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        return int(self.image.shape[1]), int(self.image.shape[0])


class FrameSource(Protocol):
    """Anything that delivers BGR frames; `read()` returns None at the end of a recording."""

    name: str

    def open(self) -> None: ...

    def read(self) -> Image | None: ...

    def close(self) -> None: ...


class OpenCVCamera:
    """A USB camera (V4L2 on the Pi) or anything else `cv2.VideoCapture` opens."""

    def __init__(self, device: int | str, settings: CameraSettings | None = None) -> None:
        self.device = device
        self.settings = settings or CameraSettings()
        self.name = f"opencv:{device}"
        self._capture: Any = None

    def open(self) -> None:
        """Open the device and ask for the configured size and rate (MJPG keeps USB fast)."""
        import cv2

        backend = cv2.CAP_V4L2 if isinstance(self.device, int) else cv2.CAP_ANY
        capture = cv2.VideoCapture(self.device, backend)
        if not capture.isOpened():
            capture.release()
            raise CameraError(f"cannot open camera {self.device!r}")
        capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.settings.width)
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.settings.height)
        capture.set(cv2.CAP_PROP_FPS, self.settings.fps)
        self._capture = capture

    def read(self) -> Image:
        """The next frame; raises CameraError when the device gives none."""
        if self._capture is None:
            raise CameraError(f"camera {self.device!r} is not open")
        ok, image = self._capture.read()
        if not ok or image is None:
            raise CameraError(f"camera {self.device!r} returned no frame")
        frame: Image = image
        return frame

    def close(self) -> None:
        """Release the device."""
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class Picamera2Camera:
    """The Raspberry Pi camera module through picamera2 (imported only when opened)."""

    def __init__(self, settings: CameraSettings | None = None, camera_num: int = 0) -> None:
        self.settings = settings or CameraSettings()
        self.camera_num = camera_num
        self.name = f"picamera2:{camera_num}"
        self._camera: Any = None

    def controls(self) -> dict[str, Any]:
        """libcamera controls for the settings: frame rate, fixed exposure, fixed focus."""
        controls: dict[str, Any] = {"FrameRate": self.settings.fps}
        if self.settings.exposure_us is not None:
            controls["AeEnable"] = False
            controls["ExposureTime"] = self.settings.exposure_us
        if self.settings.analogue_gain is not None:
            controls["AnalogueGain"] = self.settings.analogue_gain
        if self.settings.lens_position is not None:
            controls["AfMode"] = 0  # libcamera AfModeManual
            controls["LensPosition"] = self.settings.lens_position
        return controls

    def open(self) -> None:
        """Configure and start the camera; RGB888 in picamera2 is B, G, R in memory (BGR)."""
        try:
            from picamera2 import Picamera2
        except ImportError as error:
            raise CameraError(
                f"picamera2 is not installed ({error}); on Raspberry Pi OS: "
                "sudo apt install python3-picamera2"
            ) from error
        except ValueError as error:
            # apt's picamera2 and simplejpeg are built against the system numpy; a different
            # numpy in the venv fails at import with "numpy.dtype size changed".
            import numpy

            raise CameraError(
                f"picamera2 cannot be imported with numpy {numpy.__version__} ({error}): it is "
                "built against the system numpy; reinstall with systemd/install.sh, which keeps "
                "the venv on the system numpy"
            ) from error
        try:
            camera = Picamera2(self.camera_num)
            size = (self.settings.width, self.settings.height)
            config = camera.create_video_configuration(
                main={"size": size, "format": "RGB888"}, controls=self.controls()
            )
            camera.configure(config)
            camera.start()
        except (RuntimeError, OSError, IndexError) as error:
            raise CameraError(f"cannot start Pi camera {self.camera_num}: {error}") from error
        self._camera = camera

    def read(self) -> Image:
        """The next frame as a BGR array."""
        if self._camera is None:
            raise CameraError(f"Pi camera {self.camera_num} is not open")
        try:
            with self._camera.captured_request() as request:
                image: Image = request.make_array("main")
        except (RuntimeError, OSError, TimeoutError) as error:
            raise CameraError(f"Pi camera {self.camera_num} read failed: {error}") from error
        return image

    def close(self) -> None:
        """Stop and release the camera."""
        if self._camera is not None:
            camera, self._camera = self._camera, None
            camera.stop()
            camera.close()


class RecordedSource:
    """Frames from a video file or a folder of images (sorted by name), optionally looping."""

    def __init__(self, path: Path, *, loop: bool = False) -> None:
        self.path = Path(path)
        self.loop = loop
        self.name = f"recorded:{self.path}"
        self._capture: Any = None
        self._images: list[Path] | None = None
        self._position = 0

    def open(self) -> None:
        """Open the video or list the images; raises CameraError if there is nothing to read."""
        import cv2

        self.close()
        if self.path.is_dir():
            images = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not images:
                raise CameraError(f"no images ({', '.join(sorted(IMAGE_SUFFIXES))}) in {self.path}")
            self._images = images
        elif self.path.is_file():
            capture = cv2.VideoCapture(str(self.path))
            if not capture.isOpened():
                capture.release()
                raise CameraError(f"cannot read video {self.path}")
            self._capture = capture
        else:
            raise CameraError(f"recording {self.path} does not exist")
        self._position = 0

    def read(self) -> Image | None:
        """The next frame; None at the end (unless looping); CameraError for a bad image."""
        if self._images is not None:
            return self._read_image()
        if self._capture is None:
            raise CameraError(f"recording {self.path} is not open")
        ok, image = self._capture.read()
        if not ok and self._position < self._frame_count():
            self._position += 1  # a frame that does not decode, not the end: skip it
            raise BadFrame(f"skipped frame {self._position - 1} of {self.path}: it does not decode")
        if not ok:
            if not self.loop or self._position == 0:
                return None
            self.open()
            ok, image = self._capture.read()
            if not ok:
                return None
        self._position += 1
        frame: Image = image
        return frame

    def _frame_count(self) -> int:
        """The frames the video says it holds (0 when it does not say)."""
        import cv2

        return max(0, int(self._capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0))

    def _read_image(self) -> Image | None:
        import cv2

        assert self._images is not None
        if self._position >= len(self._images):
            if not self.loop:
                return None
            self._position = 0
        path = self._images[self._position]
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            if not path.is_file():
                raise CameraError(f"cannot read image {path}: it is gone")
            self._position += 1
            size = path.stat().st_size
            why = "an empty file (0 bytes)" if size == 0 else f"not an image ({size} bytes)"
            raise BadFrame(f"skipped {path}: {why}")
        self._position += 1
        return cast("Image", image)

    def close(self) -> None:
        """Release the video file."""
        if self._capture is not None:
            self._capture.release()
        self._capture = None
        self._images = None


class ResilientCamera:
    """Wraps a source: a failure becomes an event and the source is reopened with backoff.

    `read()` never raises CameraError; it returns (frame or None, events).
    """

    def __init__(
        self,
        source: FrameSource,
        *,
        clock: Callable[[], float] = time.monotonic,
        backoff: Backoff | None = None,
    ) -> None:
        self.source = source
        self.clock = clock
        self.backoff = backoff or Backoff(0.5, 2.0, 10.0)
        self.failures = 0
        self._open = False
        self._failed = False
        self._retry_at = float("-inf")
        self._index = 0
        self._told = ""
        self.ended = False
        """True once the source ran out (a recording's end), not merely failed."""

    @property
    def is_open(self) -> bool:
        """Whether the source is open right now."""
        return self._open

    def read(self) -> tuple[Frame | None, list[DriverEvent]]:
        """The next frame if there is one, and any failure or recovery events."""
        now = self.clock()
        events: list[DriverEvent] = []
        if now < self._retry_at:
            return None, events
        if not self._open:
            try:
                self.source.open()
            except CameraError as error:
                return None, self._fail(now, str(error))
            self._open = True
        try:
            image = self.source.read()
        except BadFrame as error:  # skipped: the source goes on from the next frame
            return None, self._fail(now, str(error), reopen=False)
        except CameraError as error:
            return None, self._fail(now, str(error))
        if image is None:
            self.ended = True
            return None, events
        if self._failed:
            self._failed = False
            self.backoff.reset()
            events.append(CameraReopened(self.source.name))
        frame = Frame(image, self._index, now)
        self._index += 1
        return frame, events

    def close(self) -> None:
        """Close the source."""
        if self._open:
            self.source.close()
            self._open = False

    def _fail(self, now: float, reason: str, *, reopen: bool = True) -> list[DriverEvent]:
        self.failures += 1
        if reopen:
            self.close()
        self._retry_at = now + self.backoff.next_delay()
        if self._failed and (reopen or reason == self._told):
            return []  # told once per outage; a skipped frame is told for each file
        self._failed, self._told = True, reason
        return [CameraFailed(self.source.name, reason)]


SourceMaker = Callable[[CameraSettings, str | None, bool], FrameSource]
"""Makes a frame source from the camera's settings, its target (device or path) and whether a
recording starts over at its end."""


def _usb(settings: CameraSettings, target: str | None, loop: bool) -> FrameSource:
    device: int | str = 0 if target is None else int(target) if target.isdigit() else target
    return OpenCVCamera(device, settings)


def _picamera2(settings: CameraSettings, target: str | None, loop: bool) -> FrameSource:
    return Picamera2Camera(settings, int(target or 0))


def _recorded(settings: CameraSettings, target: str | None, loop: bool) -> FrameSource:
    if target is None:
        raise ConfigError("a recorded camera needs a path (video file or image folder)")
    return RecordedSource(Path(target), loop=loop)


SOURCES: dict[str, SourceMaker] = {"usb": _usb, "picamera2": _picamera2, "recorded": _recorded}
"""The camera kinds a config may name, and what makes each."""


RUNS_OUT = {"recorded"}
"""The camera kinds whose frames run out by themselves (recordings)."""


def register_source(kind: str, maker: SourceMaker, *, runs_out: bool = False) -> None:
    """Make camera `kind` with `maker` from now on in this process, a new kind or a known one;
    `runs_out`: its frames come to an end by themselves, as a recording's do."""
    if not kind or kind == "none":
        raise ValueError(f"camera kind {kind!r}: expected a name other than 'none'")
    SOURCES[kind] = maker
    if runs_out:
        RUNS_OUT.add(kind)
    else:
        RUNS_OUT.discard(kind)


def make_source(
    kind: str, settings: CameraSettings, target: str | None = None, *, loop: bool = True
) -> FrameSource:
    """A frame source by name: `usb` (device index or path), `picamera2`, `recorded` (path),
    or a kind given to `register_source`.

    A recording starts over at its end unless `loop` is False.
    """
    maker = SOURCES.get(kind)
    if maker is None:
        raise ConfigError(f"unknown camera kind {kind!r}: expected {', '.join(SOURCES)}")
    return maker(settings, target, loop)
