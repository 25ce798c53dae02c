"""Draw found cards and their readings on a copy of a frame, for a person to check."""

from __future__ import annotations

import cv2
import numpy as np

from vision.api import CardObservation, Image

READ_COLOUR = (40, 200, 40)
UNREAD_COLOUR = (0, 140, 255)


def annotate(frame: Image, observations: list[CardObservation]) -> Image:
    """Return a copy of the frame with each card's outline and label drawn."""
    out = frame.copy()
    scale = max(0.5, max(frame.shape[:2]) / 1000.0)
    for observation in observations:
        colour = READ_COLOUR if observation.reading else UNREAD_COLOUR
        corners = np.round(observation.corners).astype(np.int32)
        cv2.polylines(out, [corners], True, colour, max(1, round(2 * scale)))
        label = f"{observation.name or '?'} {observation.confidence:.2f}"
        x, y = (int(v) for v in corners.min(axis=0))
        cv2.putText(out, label, (x, max(12, y - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.7 * scale,
                    colour, max(1, round(2 * scale)), cv2.LINE_AA)
    return out
