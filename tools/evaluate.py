"""Run recognition over a labelled photo folder and score it with the folder's scorer."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from typing import Any

from tools.split import training_keys
from vision.cards import CardObservation
from vision.config import VisionConfig
from vision.errors import VisionError
from vision.imageio import read_image
from vision.model import GlyphModel
from vision.pipeline import recognise
from vision.tracker import TrackerConfig


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
    for key, path, _ in labelled_records(folder):
        yield key, path


def labelled_records(folder: Path) -> Iterator[tuple[str, Path, dict[str, Any]]]:
    """(key, path, labels) of every image listed in the folder's labels.json."""
    labels = read_labels(folder / "labels.json")
    root = folder / labels.get("image_root", "")
    for key, record in labels["images"].items():
        yield key, root / key, record


def known_length(record: dict[str, Any]) -> float | None:
    """The card length an image's labels give (`tools.table_frame`: the length of the cards
    in a play-area view), or None."""
    value = record.get("card_length")
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        return None
    return float(value)


def predict_folder(
    folder: Path, model: GlyphModel, config: VisionConfig, keys: set[str] | None = None,
    *, knowing_length: bool = False,
) -> Iterator[dict[str, Any]]:
    """Prediction lines for the labelled images of a folder (optionally only `keys`); with
    `knowing_length`, each image is read knowing the card length its labels give, as the table
    reads its view knowing the length of the cards it has read (`vision.live`)."""
    for key, path, record in labelled_records(folder):
        if keys is not None and key not in keys:
            continue
        frame = read_image(path)
        length = known_length(record) if knowing_length else None
        seen = replace(config, card_length=length) if length is not None else config
        start = time.perf_counter()
        observations = recognise(frame, model, seen)
        ms = (time.perf_counter() - start) * 1000.0
        yield image_record(key, observations, ms)


def run_scorer(scorer: Path, predictions: Path, labels: Path, options: Sequence[str] = ()) -> int:
    """Print score.py's table for a prediction file (with score.py's `options`); returns its
    exit status."""
    command = [sys.executable, str(scorer), str(predictions), "--labels", str(labels), *options]
    done = subprocess.run(command, check=False, capture_output=True, text=True)
    print(done.stdout, end="")
    print(done.stderr, end="", file=sys.stderr)
    return done.returncode


def read_labels(path: Path) -> dict[str, Any]:
    """A labels.json document; raises VisionError naming the file when it cannot be read."""
    try:
        document: dict[str, Any] = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise VisionError(f"cannot read labels {str(path)!r}: {error}") from error
    return document


def labels_subset(document: dict[str, Any], keys: set[str]) -> dict[str, Any]:
    """The labels of only these images, with only the sets they belong to."""
    images = {key: document["images"][key] for key in sorted(keys) if key in document["images"]}
    used = {record["set"] for record in images.values()}
    sets = {name: meta for name, meta in (document.get("sets") or {}).items() if name in used}
    return dict(document, images=images, sets=sets)


def measured_keys(document: dict[str, Any]) -> set[str]:
    """The images of the measured half of every set (those no training or fitting may see)."""
    keys = set(document["images"])
    return keys - training_keys(keys)


def write_predictions(folder: Path, model: GlyphModel, config: VisionConfig, out: Path,
                      keys: set[str] | None = None, *, knowing_length: bool = False) -> None:
    """Write the prediction lines of a labelled folder (optionally only `keys`) to a file."""
    with out.open("w") as handle:
        for record in predict_folder(folder, model, config, keys,
                                     knowing_length=knowing_length):
            handle.write(json.dumps(record) + "\n")


def score_folder(folder: Path, scorer: Path, model: GlyphModel, config: VisionConfig,
                 out: Path, work: Path, *, measured: bool = False, halves: bool = False,
                 knowing_length: bool = False, options: Sequence[str] = ()) -> int:
    """Predict a labelled folder into `out` and print score.py's table (the measured half only,
    when asked; then edje_train's fit and measure halves apart, when asked); `knowing_length`
    as `predict_folder`; `options` go to every score.py run (such as `--whole`)."""
    labels = folder / "labels.json"
    keys = None
    work.mkdir(parents=True, exist_ok=True)
    if measured:
        document = read_labels(labels)
        keys = measured_keys(document)
        labels = work / "labels-measured.json"
        labels.write_text(json.dumps(labels_subset(document, keys)))
    write_predictions(folder, model, config, out, keys, knowing_length=knowing_length)
    status = run_scorer(scorer, out, labels, options)
    if status == 0:
        threshold = TrackerConfig().read_confidence
        print(f"\nnamed at the table (names of confidence {level_text(threshold)} or more, the "
              "decision's threshold on the calibrated probability that a name is right: the ones "
              "the tracker counts as votes; the rest are asked of the players):", flush=True)
        at_table = work / f"{out.stem}-at-table.jsonl"
        at_table.write_text("".join(json.dumps(line) + "\n" for line in table_lines(
            out.read_text().splitlines(), threshold)))
        status = run_scorer(scorer, at_table, labels, options)
    if status == 0:
        print("\nwrong names by confidence (score.py's reported and correct identities, every "
              "name below the level taken as unread):", flush=True)
        levels = sorted({*CONFIDENCE_LEVELS, threshold})
        for line in confidence_lines(scorer, out, labels, work, threshold, levels, options):
            print(line, flush=True)
    if halves and status == 0:
        status = score_halves(scorer, out, labels, work, options)
    return status


CONFIDENCE_LEVELS = (0.0, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)
"""The levels `confidence_lines` scores the names from (and the table's threshold)."""


def level_text(level: float) -> str:
    """A confidence level as printed: two decimals, four where two would round it."""
    return f"{level:.2f}" if round(level, 2) == level else f"{level:.4f}"


def reported_and_correct(scorer: Path, predictions: Path, labels: Path, report: Path,
                         options: Sequence[str] = ()) -> tuple[int, int]:
    """score.py's reported and correct identities over every set (its `ALL` row)."""
    command = [sys.executable, str(scorer), str(predictions), "--labels", str(labels),
               "--json", str(report), *options]
    subprocess.run(command, check=True, capture_output=True, text=True)
    sets = json.loads(report.read_text())["sets"]
    row = next(value for name, value in sets.items() if name.startswith("ALL"))
    return int(row["reported_identities"]), int(row["correct"])


def confidence_lines(scorer: Path, predictions: Path, labels: Path, work: Path,
                     threshold: float, levels: Iterable[float] = CONFIDENCE_LEVELS,
                     options: Sequence[str] = ()) -> Iterator[str]:
    """How often a name is wrong from each confidence level on, and between levels: the
    predictions scored by score.py with every name below the level taken as unread."""
    lines = predictions.read_text().splitlines()
    counts: list[tuple[float, int, int]] = []
    for level in levels:
        kept = work / f"{predictions.stem}-from-{level_text(level)}.jsonl"
        kept.write_text("".join(json.dumps(line) + "\n" for line in table_lines(lines, level)))
        reported, correct = reported_and_correct(scorer, kept, labels,
                                                 work / f"{kept.stem}.json", options)
        counts.append((level, reported, correct))
    for level, reported, correct in counts:
        wrong = reported - correct
        rate = f"1 in {reported / wrong:.0f}" if wrong else "none"
        mark = "  <- the table's threshold" if level == threshold else ""
        yield (f"  from {level_text(level)}: {reported:5d} names, {wrong:3d} wrong ({rate})"
               f"{mark}")
    for (low, reported, correct), (high, above, above_correct) in pairwise(counts):
        yield (f"  {level_text(low)}-{level_text(high)}: {reported - above:5d} names, "
               f"{(reported - correct) - (above - above_correct):3d} wrong")
    if counts:
        last, reported, correct = counts[-1]
        yield (f"  {level_text(last)}-1.00: {reported:5d} names, {reported - correct:3d} "
               "wrong")


def table_lines(lines: Iterable[str], threshold: float) -> Iterator[dict[str, Any]]:
    """Prediction lines as the table takes them: a name below `threshold` is no name."""
    for text in lines:
        if not text.strip():
            continue
        line = json.loads(text)
        line["cards"] = [card if card.get("card") is None or card["confidence"] >= threshold
                         else {**card, "card": None} for card in line["cards"]]
        yield line


def score_halves(scorer: Path, predictions: Path, labels: Path, folder: Path,
                 options: Sequence[str] = ()) -> int:
    """Score the rank-only set's fit half and measure half apart (the glyph model saw the first)."""
    from tools.fitting import is_fit_photo

    document = read_labels(labels)
    lines = [json.loads(line) for line in predictions.read_text().splitlines() if line.strip()]
    status = 0
    for half, wanted in (("fit half (glyphs harvested here)", True),
                         ("measure half (never fitted on)", False)):
        keys = {key for key, record in document["images"].items()
                if record["set"] == "edje_train" and is_fit_photo(key) == wanted}
        if not keys:
            continue
        subset = labels_subset(document, keys)
        half_labels = folder / f"labels-{wanted}.json"
        half_predictions = folder / f"predictions-{wanted}.jsonl"
        half_labels.write_text(json.dumps(subset))
        half_predictions.write_text(
            "".join(json.dumps(line) + "\n" for line in lines if line["image"] in keys))
        print(f"\nedje_train, {half}:")
        status = max(status, run_scorer(scorer, half_predictions, half_labels, options))
    return status
