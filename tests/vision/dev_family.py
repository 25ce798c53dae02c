"""The training halves of the dev sets as one family of recorded cases: a stage is judged by what
it adds or takes away over every photo that may fit anything, never by one photo. The family is
read as photographed or shrunk to the table camera's card length (`tools.scaling`)."""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tools.card_losses import card_classes
from tools.evaluate import labels_subset, predict_folder, reported_and_correct
from tools.scaling import cached_scaled_folder
from tools.split import photo_set, training_keys
from vision.config import VisionConfig
from vision.model import GlyphModel


@dataclass(frozen=True)
class FamilyReading:
    """What one config names on the family, scored by score.py and by card."""

    identified: frozenset[str]
    """Each counted card named right, as "image key @ its labelled box"."""
    reported: int
    """Euchre names reported on labelled cards (score.py's reported identities)."""
    correct: int
    """Of those, the right ones (score.py's correct identities)."""

    @property
    def wrong(self) -> int:
        """Reported names that are not the card's."""
        return self.reported - self.correct

    def count(self, set_name: str) -> int:
        """How many cards of one dev set are named right."""
        return sum(photo_set(card) == set_name for card in self.identified)


def family_folder(shared_dir: Path, scale: float = 0.0) -> Path:
    """The dev sets' labelled folder as photographed (`scale` 0) or with every card shrunk to
    `scale` pixels long (made once and kept)."""
    vision = shared_dir / "vision"
    return cached_scaled_folder(vision, scale) if scale else vision


def family_keys(vision: Path, sets: tuple[str, ...] = ()) -> frozenset[str]:
    """The training-half image keys of every dev set (or only of `sets`)."""
    labels: dict[str, Any] = json.loads((vision / "labels.json").read_text())
    keys = training_keys(labels["images"])
    return frozenset(key for key in keys if not sets or photo_set(key) in sets)


@cache
def family_reading(vision: Path, config: VisionConfig, sets: tuple[str, ...] = (),
                   scorer: Path | None = None, every: int = 1,
                   knowing_length: bool = False) -> FamilyReading:
    """The family in a labelled folder (`family_folder`) read with `config` and scored by the
    folder's score.py or `scorer` (kept for the session: each config is read once); with
    `every` over 1, every `every`-th photo in key order (a spread of it); `knowing_length` as
    `tools.evaluate.predict_folder`."""
    labels: dict[str, Any] = json.loads((vision / "labels.json").read_text())
    keys = set(sorted(family_keys(vision, sets))[::every])
    lines = list(predict_folder(vision, GlyphModel.load(), config, keys,
                                knowing_length=knowing_length))
    identified = frozenset(
        f"{key} @ {truth['box']}" for key, truth, found in card_classes(labels, lines, keys)
        if found == "identified")
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        predictions = folder / "predictions.jsonl"
        predictions.write_text("".join(json.dumps(line) + "\n" for line in lines))
        subset = folder / "labels.json"
        subset.write_text(json.dumps(labels_subset(labels, keys)))
        reported, correct = reported_and_correct(scorer or vision / "score.py", predictions, subset,
                                                 folder / "report.json")
    return FamilyReading(identified, reported, correct)


def family_sample(vision: Path, set_name: str, every: int) -> list[str]:
    """Every `every`-th training-half key of one set, in key order: a spread of its photos."""
    return sorted(family_keys(vision, (set_name,)))[::every]


@cache
def outlined_in_family(vision: Path, config: VisionConfig) -> frozenset[str]:
    """The family's whole labelled cards (not partial) that `find_cards` outlines: an outline
    whose box meets the label's box at IoU over 0.8, as "image key @ its labelled box"."""
    import numpy as np

    from vision.imageio import read_image
    from vision.outline_boxes import box_iou
    from vision.propose import find_cards

    labels: dict[str, Any] = json.loads((vision / "labels.json").read_text())
    outlined = set()
    for key in sorted(family_keys(vision)):
        quads = find_cards(read_image(vision / labels.get("image_root", "dev") / key), config)
        for card in labels["images"][key]["cards"]:
            if card.get("partial"):
                continue
            x0, y0, x1, y1 = card["box"]
            truth = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
            if any(box_iou(quad, truth) > 0.8 for quad in quads):
                outlined.add(f"{key} @ {card['box']}")
    return frozenset(outlined)


def family_cards(vision: Path) -> int:
    """How many of the family's labelled cards count towards recall (score.py's truth cards)."""
    from tools.card_losses import counted

    labels: dict[str, Any] = json.loads((vision / "labels.json").read_text())
    return sum(counted(card) for key in family_keys(vision)
               for card in labels["images"][key]["cards"])
