"""A short recorded clip of rendered artwork cards on a table, with a label file beside it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2

from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.faces import ARTWORK

SIZE = (640, 480)
FPS = 10.0
SPOTS = {"W": (200.0, 240.0), "E": (460.0, 240.0)}
"""Where cards lie: in the W and E zones of the whole frame cut along its diagonals."""
LANDS = 3
"""The frame at which the cards appear (the clip opens on bare table)."""


def write_clip(folder: Path, name: str, shown: Sequence[tuple[str, str]],
               labelled: Sequence[tuple[str, str]], frames: int = 14, seed: int = 3) -> Path:
    """Write `name`.avi showing `shown` (card, spot) from frame LANDS on, and `name`.json
    labelling the cards `labelled` (card, spot) as lying still from then on; returns the label."""
    folder.mkdir(parents=True, exist_ok=True)
    faces = dict(artwork_cards(ARTWORK))
    bare = table_background(*SIZE, seed=seed)
    scene = bare.copy()
    for number, (card, spot) in enumerate(shown):
        paste_card(scene, faces[card], SPOTS[spot], 200.0, 5.0 - 9.0 * number)
    video = folder / f"{name}.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), FPS, SIZE)
    for index in range(frames):
        writer.write(bare if index < LANDS else scene)
    writer.release()
    label: dict[str, Any] = {
        "clip": name, "file": video.name,
        "video": {"width": SIZE[0], "height": SIZE[1], "fps": FPS, "frames_decoded": frames},
        "cards": [{"id": number, "card": card, "first_still_s": LANDS / FPS, "leaves_s": None,
                   "pos_xy": list(SPOTS[spot])} for number, (card, spot) in enumerate(labelled, 1)],
    }
    path = folder / f"{name}.json"
    path.write_text(json.dumps(label), encoding="utf-8")
    return path
