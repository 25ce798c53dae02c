"""What two prediction files name differently, image by image.

Two files of `cardtable vision eval --out` (one JSON line per image: its cards, each with its
name, confidence, corners and wholeness) are compared card by card in order: a change that
should read every photo the same is checked by every card, not by a summary figure, which can
hide two changes that cancel. Reading times (`ms`) are left out.

    python -m tools.prediction_diff BEFORE.jsonl AFTER.jsonl [--most 40]

Exit 0 when every image reads the same, 1 when some differ, 2 on a file it cannot read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

Card = dict[str, Any]


class PredictionError(ValueError):
    """A prediction file that cannot be read: the message names the file and the line."""


def read_predictions(path: Path) -> dict[str, list[Card]]:
    """The cards of each image in a prediction file, by image key."""
    try:
        lines = path.read_text().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise PredictionError(f"{path}: {error}") from None
    images: dict[str, list[Card]] = {}
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            line = json.loads(text)
        except json.JSONDecodeError as error:
            raise PredictionError(f"{path} line {number}: not JSON ({error.msg})") from None
        if (not isinstance(line, dict) or not isinstance(line.get("image"), str)
                or not isinstance(line.get("cards"), list)
                or not all(isinstance(card, dict) for card in line["cards"])):
            raise PredictionError(f"{path} line {number}: expected an object with 'image' and "
                                  "a list of 'cards'")
        images[line["image"]] = line["cards"]
    return images


def _card(card: Card | None) -> str:
    """A card as one short text: its name (or unread), confidence, and whether seen in part."""
    if card is None:
        return "nothing"
    name = card.get("card") or "unread"
    part = "" if card.get("whole", True) else ", in part"
    return f"{name} at {card.get('confidence', 0.0)}{part}"


def differences(before: dict[str, list[Card]], after: dict[str, list[Card]]) -> list[str]:
    """One line for each image read otherwise, naming each card that changed, in order."""
    lines = []
    for image in sorted(set(before) | set(after)):
        if image not in after:
            lines.append(f"{image}: only in the first file")
            continue
        if image not in before:
            lines.append(f"{image}: only in the second file")
            continue
        old, new = before[image], after[image]
        if old == new:
            continue
        changes = []
        for k in range(max(len(old), len(new))):
            first = old[k] if k < len(old) else None
            second = new[k] if k < len(new) else None
            if first == second:
                continue
            if first is not None and second is not None and _card(first) == _card(second):
                changes.append(f"card {k} {_card(first)}, outline moved")
            else:
                changes.append(f"card {k} {_card(first)} -> {_card(second)}")
        lines.append(f"{image}: " + "; ".join(changes))
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Print the images two prediction files read otherwise; 1 when any does."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--most", type=int, default=40, metavar="N",
                        help="list at most this many images (default 40)")
    args = parser.parse_args(argv)
    try:
        before, after = read_predictions(args.before), read_predictions(args.after)
    except PredictionError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    found = differences(before, after)
    for line in found[:max(0, args.most)]:
        print(line)
    if len(found) > args.most:
        print(f"... and {len(found) - args.most} more")
    images = len(set(before) | set(after))
    print(f"{len(found)} of {images} images read otherwise")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
