"""Reading images from files, upright after EXIF orientation."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.cards import Image
from vision.errors import ImageReadError


def read_image(path: Path) -> Image:
    """Read a BGR image (OpenCV applies the EXIF orientation); raises ImageReadError."""
    if not path.exists():
        raise ImageReadError(f"{str(path)!r}: no such image file")
    if not path.is_file():
        raise ImageReadError(f"{str(path)!r}: a folder, not an image file")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise ImageReadError(f"{str(path)!r}: not an image OpenCV can read (JPEG, PNG, ...)")
    return np.ascontiguousarray(image)
