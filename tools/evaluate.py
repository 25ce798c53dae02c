"""Run recognition over a labelled photo folder and score it with the folder's scorer."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from vision.cards import CardObservation
from vision.config import VisionConfig
from vision.errors import VisionError
from vision.imageio import read_image
from vision.model import GlyphModel
from vision.pipeline import recognise


def observation_record(observation: CardObservation) -> dict[str, Any]:
    """One card in the prediction format read by score.py."""
    return {
        "card": observation.name,
        "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in observation.corners],
        "confidence": observation.confidence,
        "whole": observation.whole,
    }


def image_record(name: str, observations: list[CardObservation], ms: float) -> dict[str, Any]:
    """One image's prediction line."""
    return {"image": name, "cards": [observation_record(o) for o in observations],
            "ms": round(ms, 2)}


def labelled_images(folder: Path) -> Iterator[tuple[str, Path]]:
    """(key, path) of every image listed in the folder's labels.json."""
    labels_path = folder / "labels.json"
    try:
        labels = json.loads(labels_path.read_text())
    except (OSError, ValueError) as error:
        raise VisionError(f"cannot read labels {str(labels_path)!r}: {error}") from error
    root = folder / labels.get("image_root", "")
    for key in labels["images"]:
        yield key, root / key


def predict_folder(
    folder: Path, model: GlyphModel, config: VisionConfig, keys: set[str] | None = None
) -> Iterator[dict[str, Any]]:
    """Prediction lines for the labelled images of a folder (optionally only `keys`)."""
    for key, path in labelled_images(folder):
        if keys is not None and key not in keys:
            continue
        frame = read_image(path)
        start = time.perf_counter()
        observations = recognise(frame, model, config)
        ms = (time.perf_counter() - start) * 1000.0
        yield image_record(key, observations, ms)


def run_scorer(scorer: Path, predictions: Path, labels: Path) -> int:
    """Print score.py's table for a prediction file; returns its exit status."""
    command = [sys.executable, str(scorer), str(predictions), "--labels", str(labels)]
    done = subprocess.run(command, check=False, capture_output=True, text=True)
    print(done.stdout, end="")
    print(done.stderr, end="", file=sys.stderr)
    return done.returncode


def score_halves(scorer: Path, predictions: Path, labels: Path, folder: Path) -> int:
    """Score the rank-only set's fit half and measure half apart (the glyph model saw the first)."""
    from tools.fitting import is_fit_photo

    document = json.loads(labels.read_text())
    lines = [json.loads(line) for line in predictions.read_text().splitlines() if line.strip()]
    status = 0
    for half, wanted in (("fit half (glyphs harvested here)", True),
                         ("measure half (never fitted on)", False)):
        keys = {key for key, record in document["images"].items()
                if record["set"] == "edje_train" and is_fit_photo(key) == wanted}
        if not keys:
            continue
        subset = dict(document, images={k: document["images"][k] for k in sorted(keys)})
        subset["sets"] = {"edje_train": document["sets"]["edje_train"]}
        half_labels = folder / f"labels-{wanted}.json"
        half_predictions = folder / f"predictions-{wanted}.jsonl"
        half_labels.write_text(json.dumps(subset))
        half_predictions.write_text(
            "".join(json.dumps(line) + "\n" for line in lines if line["image"] in keys))
        print(f"\nedje_train, {half}:")
        status = max(status, run_scorer(scorer, half_predictions, half_labels))
    return status
