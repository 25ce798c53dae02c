"""Small synthetic recordings (video file or image folder) for tests, demos and self-checks."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from drivers.errors import CameraError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Image = npt.NDArray[np.uint8]
else:
    Image = Any


def sample_frame(index: int, width: int = 160, height: int = 120) -> Image:
    """A green-felt frame with a white card whose position and blue level encode `index`."""
    import cv2
    import numpy as np

    image = np.zeros((height, width, 3), np.uint8)
    image[:] = (40, 110, 30)  # felt green, BGR
    card_w, card_h = width // 5, height // 3
    x = (index * 7) % max(1, width - card_w)
    y = height // 3
    cv2.rectangle(image, (x, y), (x + card_w, y + card_h), (255, 255, 255), thickness=-1)
    image[:8, :8] = ((index * 20) % 256, 0, 0)
    frame: Image = image
    return frame


def frame_marker(image: Image) -> int:
    """The blue level of the top-left marker written by `sample_frame`."""
    return int(image[2:6, 2:6, 0].mean().round())


def write_video(
    path: Path, frames: int, *, width: int = 160, height: int = 120, fps: float = 30.0
) -> Path:
    """Write an MJPG .avi of `frames` test frames (works without a display or codecs)."""
    import cv2

    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), fps, (width, height))
    if not writer.isOpened():
        raise CameraError(f"cannot write video {path}")
    try:
        for index in range(frames):
            writer.write(sample_frame(index, width, height))
    finally:
        writer.release()
    return path


def write_images(folder: Path, frames: int, *, width: int = 160, height: int = 120) -> Path:
    """Write `frames` test frames as frame_0000.png, ... into `folder`."""
    import cv2

    folder.mkdir(parents=True, exist_ok=True)
    for index in range(frames):
        if not cv2.imwrite(
            str(folder / f"frame_{index:04d}.png"), sample_frame(index, width, height)
        ):
            raise CameraError(f"cannot write image into {folder}")
    return folder


def damage_video_frame(path: Path, index: int, length: int = 400) -> Path:
    """Overwrite the start of frame `index` of an MJPG video with zeros, as a bad sector would."""
    data = bytearray(path.read_bytes())
    starts = [at for at in range(len(data) - 1) if data[at : at + 2] == b"\xff\xd8"]
    if index >= len(starts):
        raise CameraError(f"{path} has no frame {index}")
    at = starts[index]
    data[at : at + length] = bytes(length)
    path.write_bytes(bytes(data))
    return path
