"""Suits for a rank-only dev set's training half, taken from the pipeline's own sure readings.

`edje_train` is labelled by rank only, so the learned readers never learn its deck's suits and
stay unsure of them at camera scale. Where the whole pipeline, shown the photo as photographed,
names a labelled card with the labelled rank at `--sure` or more, the suit it reads is written
to `tools/data/suit_labels.json`; the card's crops then teach the suit as well. Only the training
half less its calibration quarter is read: the measured half and the calibration part keep
their rank-only labels.

    python -m tools.suit_labels [--shared ../shared/vision] [--set edje_train] [--sure 0.9]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from tools.reader_data import is_calibration
from tools.split import photo_set, training_keys
from vision.cards import CardObservation
from vision.config import VisionConfig
from vision.errors import VisionError
from vision.imageio import read_image
from vision.model import GlyphModel
from vision.pipeline import recognise

OUT = Path(__file__).parent / "data" / "suit_labels.json"


def box_iou(a: list[float], b: list[float]) -> float:
    """Intersection over union of two (x0, y0, x1, y1) boxes."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def sure_suit(box: list[float], rank: str, seen: list[CardObservation], sure: float) -> str | None:
    """The suit of the one whole observation on `box` naming `rank` at `sure` or more."""
    suits = set()
    for obs in seen:
        if not obs.whole or obs.name is None or obs.confidence < sure or obs.name[0] != rank:
            continue
        pts = np.asarray(obs.corners)
        outline = [float(pts[:, 0].min()), float(pts[:, 1].min()),
                   float(pts[:, 0].max()), float(pts[:, 1].max())]
        if box_iou(box, outline) >= 0.5:
            suits.add(obs.name[1])
    return suits.pop() if len(suits) == 1 else None


def suit_labels(shared: Path, chosen_set: str, sure: float) -> dict[str, Any]:
    """Per photo key, the labelled boxes given a suit, with the reading that gave it."""
    labels = json.loads((shared / "labels.json").read_text())
    model = GlyphModel.load()
    found: dict[str, Any] = {}
    for key in sorted(training_keys(labels["images"])):
        if photo_set(key) != chosen_set or is_calibration(key):
            continue
        seen = recognise(read_image(shared / "dev" / key), model, VisionConfig())
        cards = []
        for card in labels["images"][key]["cards"]:
            rank = "T" if card.get("rank") == "10" else card.get("rank")
            if card.get("partial") or not rank:
                continue
            suit = sure_suit(card["box"], rank, seen, sure)
            if suit is not None:
                cards.append({"box": card["box"], "rank": rank, "suit": suit})
        if cards:
            found[key] = cards
    return found


def main(argv: list[str] | None = None) -> int:
    """Write the suit labels file."""
    parser = argparse.ArgumentParser(prog="python -m tools.suit_labels", description=__doc__)
    parser.add_argument("--shared", type=Path, default=Path("../shared/vision"))
    parser.add_argument("--set", dest="chosen_set", default="edje_train")
    parser.add_argument("--sure", type=float, default=0.9)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if not (args.shared / "labels.json").is_file():
        print(f"error: no labels.json in {args.shared}", file=sys.stderr)
        return 2
    if not 0.0 < args.sure <= 1.0:
        print(f"error: --sure {args.sure} is not a confidence above 0 and at most 1",
              file=sys.stderr)
        return 2
    try:
        found = suit_labels(args.shared, args.chosen_set, args.sure)
    except (VisionError, ValueError, KeyError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    record = {"set": args.chosen_set, "sure": args.sure,
              "how": "suits the pipeline names as photographed, with the labelled rank",
              "images": found}
    args.out.write_text(json.dumps(record, indent=1) + "\n")
    print(f"{sum(len(v) for v in found.values())} cards of {len(found)} photos -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
