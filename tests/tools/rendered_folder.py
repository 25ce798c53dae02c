"""A labelled photo folder (labels.json in shared/vision's format) of rendered artwork cards."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tools.scenes import paste_card, table_background
from tools.synthetic import artwork_cards
from vision.faces import ARTWORK

FRAME = (1280, 720)
SPOTS = ((360.0, 360.0), (920.0, 360.0))
"""Where the two cards of each image lie."""


def rendered_folder(root: Path, sets: dict[str, int], long_side: float = 420.0,
                    scorer: Path | None = None) -> Path:
    """Write `root` with `sets[name]` images of two artwork cards each, at `long_side` pixels."""
    faces = [(name, face) for name, face in artwork_cards(ARTWORK) if name != "JK"]
    images: dict[str, Any] = {}
    number = 0
    for set_name, count in sets.items():
        (root / "dev" / set_name).mkdir(parents=True, exist_ok=True)
        for index in range(count):
            scene = table_background(*FRAME, seed=number)
            cards: list[dict[str, Any]] = []
            for spot, angle in zip(SPOTS, (-8.0 + 3 * index, 6.0 - 2 * index), strict=True):
                name, face = faces[(7 * number + len(cards) * 5) % len(faces)]
                quad = paste_card(scene, face, spot, long_side, angle)
                x0, y0 = (float(v) for v in quad.min(axis=0))
                x1, y1 = (float(v) for v in quad.max(axis=0))
                cards.append({"card": name, "box": [x0, y0, x1, y1],
                              "quad": np.round(quad, 1).tolist()})
            key = f"{set_name}/{index:02d}.jpg"
            cv2.imwrite(str(root / "dev" / key), scene, [cv2.IMWRITE_JPEG_QUALITY, 95])
            images[key] = {"set": set_name, "width": FRAME[0], "height": FRAME[1],
                           "cards": cards}
            number += 1
    labels = {"version": 1, "image_root": "dev",
              "sets": {name: {"description": f"{count} rendered scenes", "rank_only": False}
                       for name, count in sets.items()},
              "images": images}
    (root / "labels.json").write_text(json.dumps(labels))
    if scorer is not None:
        shutil.copy(scorer, root / "score.py")
    return root
