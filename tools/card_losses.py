"""Where the labelled euchre cards of each dev set are lost: not outlined, unreadable, read wrong.

Every counted truth card (rank 9 to A, not partial, not ignored) is put in one class by the
predictions that lie on it (IoU with its box of at least 0.5, or centre inside it and at most
four times its area, as score.py matches):

- **identified**: one of them names it rightly (rank only in a rank-only set);
- **read wrong**: some name it, none rightly;
- **unreadable outline**: a whole outline lies on it, named nothing;
- **unreadable corner**: only a loose corner or index (not whole) lies on it, named nothing;
- **not outlined**: nothing lies on it.

    python -m tools.card_losses [--shared ../shared/vision] [--scale 140] [--half measured]
                                [--without FIELD] [--work DIR] [--reuse]
                                [--predictions FILE.jsonl] [--list]
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from tools.evaluate import read_labels, write_predictions
from tools.scaling import cached_scaled_folder
from tools.split import training_keys
from vision.config import VisionConfig
from vision.errors import VisionError
from vision.model import GlyphModel

CLASSES = ("identified", "read wrong", "unreadable outline", "unreadable corner", "not outlined")
EUCHRE = set("9TJQKA")
Box = tuple[float, float, float, float]


def _name(card: Any) -> str | None:
    """A prediction's card name as score.py takes it (T for a ten), or None."""
    if not isinstance(card, str):
        return None
    name = card.strip().upper()
    name = "T" + name[2:] if name.startswith("10") else name
    return name if len(name) == 2 and name[1] in "CDHS" and name[0] in "23456789TJQKA" else None


def _truth_rank(card: dict[str, Any]) -> str | None:
    rank = card.get("rank") or (card.get("card") or "")[:1] or None
    rank = "T" if rank == "10" else rank
    if isinstance(card.get("card"), str) and card["card"].upper().startswith("10"):
        rank = "T"
    return rank.upper() if isinstance(rank, str) else None


def _box_of(points: Sequence[Sequence[float]]) -> Box:
    xs, ys = [float(p[0]) for p in points], [float(p[1]) for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _area(box: Box) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _iou(a: Box, b: Box) -> float:
    across = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    down = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = across * down
    union = _area(a) + _area(b) - inter
    return inter / union if union > 0 else 0.0


def _on_card(prediction: dict[str, Any], truth: Box) -> bool:
    """True when a prediction lies on a truth card the way score.py makes it eligible."""
    corners = prediction.get("corners")
    if not corners:
        return False
    box = _box_of(corners)
    if _iou(box, truth) >= 0.5:
        return True
    cx = sum(float(p[0]) for p in corners) / len(corners)
    cy = sum(float(p[1]) for p in corners) / len(corners)
    inside = truth[0] <= cx <= truth[2] and truth[1] <= cy <= truth[3]
    return inside and _area(box) <= 4 * _area(truth)


def card_class(truth: dict[str, Any], predictions: Iterable[dict[str, Any]],
               rank_only: bool) -> str:
    """The class (one of CLASSES) of one counted truth card among an image's predictions."""
    box: Box = tuple(float(v) for v in truth["box"])  # type: ignore[assignment]
    lying = [p for p in predictions if _on_card(p, box)]
    names = [_name(p.get("card")) for p in lying]
    if rank_only or truth.get("card") is None:
        right = any(n is not None and n[0] == _truth_rank(truth) for n in names)
    else:
        right = any(n is not None and n == _name(truth["card"]) for n in names)
    if right:
        return "identified"
    if not lying:
        return "not outlined"
    # Otherwise the prediction that overlaps it most says how it was lost (a neighbour's
    # outline may reach over it too).
    nearest = max(lying, key=lambda p: _iou(_box_of(p["corners"]), box))
    if _name(nearest.get("card")) is not None:
        return "read wrong"
    return "unreadable outline" if nearest.get("whole", True) else "unreadable corner"


def counted(truth: dict[str, Any]) -> bool:
    """True for a truth card in the recall count: a euchre rank, with a box, not partial."""
    return (bool(truth.get("box")) and not truth.get("partial") and not truth.get("ignore")
            and _truth_rank(truth) in EUCHRE)


def card_classes(document: dict[str, Any], lines: Iterable[dict[str, Any]],
                 keys: set[str]) -> list[tuple[str, dict[str, Any], str]]:
    """Every counted card of the given images, in image order: (image key, truth, class)."""
    cards = {line["image"]: line["cards"] for line in lines}
    rank_only = {name: bool(meta.get("rank_only"))
                 for name, meta in (document.get("sets") or {}).items()}
    out = []
    for key in sorted(keys):
        record = document["images"][key]
        for truth in record["cards"]:
            if counted(truth):
                found = card_class(truth, cards.get(key, []),
                                   rank_only.get(record["set"], False))
                out.append((key, truth, found))
    return out


def set_losses(document: dict[str, Any], lines: Iterable[dict[str, Any]],
               keys: set[str]) -> dict[str, Counter[str]]:
    """Per set (and 'ALL'), how many counted cards of the given images fall in each class."""
    out: dict[str, Counter[str]] = {}
    for key, _, found in card_classes(document, lines, keys):
        for group in (document["images"][key]["set"], "ALL"):
            out.setdefault(group, Counter())[found] += 1
    return out


def lost_lines(document: dict[str, Any], lines: Iterable[dict[str, Any]],
               keys: set[str]) -> list[str]:
    """One line per counted card not identified: image, its label, how it was lost, its box."""
    out = []
    for key, truth, found in card_classes(document, lines, keys):
        if found != "identified":
            label = truth.get("card") or truth.get("rank")
            box = " ".join(f"{float(v):.0f}" for v in truth["box"])
            out.append(f"{key}  {label}  {found}  box {box}")
    return out


def table(losses: dict[str, Counter[str]]) -> list[str]:
    """Markdown lines: one row per set, the count in each class and the recall."""
    lines = ["| set | cards | " + " | ".join(CLASSES) + " | recall |",
             "|---|---|" + "---|" * len(CLASSES) + "---|"]
    for name in sorted(losses, key=lambda n: (n == "ALL", n)):
        row = losses[name]
        total = sum(row.values())
        cells = " | ".join(str(row[c]) for c in CLASSES)
        lines.append(f"| {name} | {total} | {cells} | {row['identified'] / total:.3f} |")
    return lines


def switched_off(value: Any) -> Any:
    """The value that turns a stage off: False for a switch, () for levels, else None."""
    if isinstance(value, bool):
        return False
    if isinstance(value, tuple):
        return ()
    return None


def half_keys(document: dict[str, Any], half: str) -> set[str]:
    """The image keys of one half ('measured', 'training') or of all."""
    keys = set(document["images"])
    if half == "all":
        return keys
    training = training_keys(keys)
    return training if half == "training" else keys - training


def config_value(text: str) -> Any:
    """A Python literal, or a config class of `vision.config` called with literals
    (`LearnedFinderConfig(rank=-5.0)`); ValueError when it is neither."""
    from vision import config as settings

    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError as error:
        raise ValueError(f"not a Python expression: {text!r}") from error
    if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name):
        kind = getattr(settings, tree.func.id, None)
        if not (isinstance(kind, type) and tree.func.id.endswith("Config")) or tree.args:
            raise ValueError(f"not a config of vision.config with keywords: {text!r}")
        try:
            return kind(**{k.arg: ast.literal_eval(k.value) for k in tree.keywords if k.arg})
        except TypeError as error:
            raise ValueError(str(error)) from error
    return ast.literal_eval(tree)


def main(argv: Sequence[str] | None = None) -> int:
    """Read the chosen half of every dev set at one scale and print where its cards are lost."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--shared", type=Path,
                        default=Path(__file__).resolve().parents[2] / "shared" / "vision")
    parser.add_argument("--scale", type=float, default=0.0, metavar="PX",
                        help="card length to shrink to (0: as photographed)")
    parser.add_argument("--half", choices=("measured", "training", "all"), default="measured")
    parser.add_argument("--sets", default="", help="comma-separated set names (default: all)")
    parser.add_argument("--without", action="append", default=[], metavar="FIELD",
                        help="a VisionConfig stage to turn off (None, False or ())")
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                        help="a VisionConfig field set to a Python literal (True, 0.5, ...) or "
                             "a config of vision.config (LearnedFinderConfig(rank=-5.0))")
    parser.add_argument("--work", type=Path, metavar="DIR", help="keep the predictions here")
    parser.add_argument("--reuse", action="store_true",
                        help="with --work: use predictions already there")
    parser.add_argument("--predictions", type=Path, metavar="FILE.jsonl",
                        help="classify the cards of this prediction file instead of reading")
    parser.add_argument("--knowing-length", action="store_true",
                        help="read each image knowing the card length its labels give (a "
                             "folder of play-area views: tools.table_frame)")
    parser.add_argument("--list", action="store_true",
                        help="also list every card not identified, with how it was lost")
    args = parser.parse_args(argv)
    if not (args.shared / "labels.json").is_file():
        print(f"error: {str(args.shared)!r} has no labels.json", file=sys.stderr)
        return 2
    config = VisionConfig()
    for name in args.without:
        if name not in {f.name for f in fields(VisionConfig)}:
            print(f"error: VisionConfig has no field {name!r}", file=sys.stderr)
            return 2
        config = replace(config, **{name: switched_off(getattr(config, name))})
    for setting in args.set:
        name, _, text = setting.partition("=")
        try:
            if name not in {f.name for f in fields(VisionConfig)}:
                raise ValueError(f"VisionConfig has no field {name!r}")
            value = config_value(text)
        except ValueError as error:
            print(f"error: --set {setting!r}: give a VisionConfig field and a Python literal "
                  f"({error})", file=sys.stderr)
            return 2
        config = replace(config, **{name: value})
    try:
        folder = cached_scaled_folder(args.shared, args.scale) if args.scale else args.shared
        document = read_labels(folder / "labels.json")
        keys = half_keys(document, args.half)
        wanted = {s for s in args.sets.split(",") if s}
        if wanted:
            keys = {k for k in keys if document["images"][k]["set"] in wanted}
        with tempfile.TemporaryDirectory() as tmp:
            work = args.work or Path(tmp)
            work.mkdir(parents=True, exist_ok=True)
            tag = f"{args.scale:g}px" if args.scale else "photo"
            off = "".join(f"-no_{name}" for name in sorted(args.without)) + "".join(
                f"-{setting}" for setting in sorted(args.set)) + (
                "-knowing_length" if args.knowing_length else "")
            chosen = "_".join(sorted(wanted)) or "all"
            out = work / f"predictions-{tag}-{args.half}-{chosen}{off}.jsonl"
            if args.predictions is not None:
                out = args.predictions
            elif not (args.reuse and out.exists()):
                write_predictions(folder, GlyphModel.load(), config, out, keys,
                                  knowing_length=args.knowing_length)
            lines = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
        if not all(isinstance(line, dict) and isinstance(line.get("image"), str)
                   and isinstance(line.get("cards"), list) for line in lines):
            raise ValueError(f"{str(out)!r} holds a line that is not an image's predictions")
    except (VisionError, OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print("\n".join(table(set_losses(document, lines, keys))))
    if args.list:
        print("\n".join(["", "cards not identified:", *lost_lines(document, lines, keys)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
