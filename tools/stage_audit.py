"""What each switchable recognition stage adds at the camera's scale, on every dev set.

Every stage that `VisionConfig` can switch is turned the other way from the shipped settings in
turn; each labelled dev photo, shrunk to the camera's card length, is read with it off and on and
scored with the folder's score.py, on every photo and on the measured half of every set alone.

    python -m tools.stage_audit [--shared ../shared/vision] [--scale 140] [--out TABLE.md]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tools.evaluate import labels_subset, measured_keys, read_labels, write_predictions
from tools.scaling import cached_scaled_folder
from vision.config import CornerFinderConfig, VisionConfig
from vision.errors import VisionError
from vision.model import GlyphModel

WrongName = tuple[str, str]
"""(image key, the name reported) of a reported name that is not the card's."""


@dataclass(frozen=True)
class Stage:
    """A stage of recognition and the `VisionConfig` value that turns it the other way."""

    name: str
    field: str
    other: Any
    """The value that differs from the shipped one: off for a stage shipped on, on otherwise."""
    shipped_off: bool = False
    key: str = ""
    """What `--stages` calls it (the config field unless given: a finder's name)."""

    def shipped_on(self) -> bool:
        """True when the shipped settings run it (`other` turns it off)."""
        return not self.shipped_off

    @property
    def called(self) -> str:
        """What `--stages` calls it."""
        return self.key or self.field


def finder_off(name: str, finder: str) -> Stage:
    """The stage of the finder registered as `finder`: the shipped finders less that one."""
    shipped = VisionConfig().finders
    return Stage(name, "finders", tuple(f for f in shipped if f != finder), key=finder)


STAGES = (
    finder_off("loose corners", "corners"),
    Stage("loose corners in the brightest whiteness mask", "corner_finder",
          CornerFinderConfig(masks=2)),
    Stage("second look at lower ink levels", "second_look_shifts", ()),
    Stage("higher ink level at loose corners", "corner_shifts", ()),
    Stage("loose corner width from its long edge", "corner_width_from_edge", False),
    finder_off("cloth finder", "cloth"),
    finder_off("side finder", "sides"),
    Stage("sharpened look", "sharpen_looks", ()),
    Stage("grown outlines of blurred cards", "blurred_outline_growth", 0.0),
    finder_off("index finder", "index"),
    Stage("learned reader first: no rescue of cards it names surely", "learned_first", False),
    Stage("index reader: second opinion on unread cards and weak loose corners",
          "learned_index", False),
    Stage("close-ups unread by the glyphs shown to the learned reader shrunk",
          "learned_large_length", 0.0),
    Stage("sure nines, tens and aces named without a glyph look", "learned_skip_plain", False),
    Stage("sure courts the index reader names alike named without a glyph look",
          "learned_skip_courts", False),
    Stage("cards both networks name at the table's level named without a glyph look",
          "learned_skip_agreed", None),
    Stage("learned finder: a second look where the first leaves doubt", "learned_finder", None),
    Stage("pips counted: names they deny withdrawn", "pip_count", None),
    Stage("loose corners named by both networks", "learned_corners", None),
)


@dataclass(frozen=True)
class SetScore:
    """One set's figures from score.py, with the wrong names it counted."""

    found: int
    identified: int
    truth: int
    wrong: Counter[WrongName]


def _reported(card: Any) -> str | None:
    """The identity score.py takes from a prediction's card name, or None (joker, unread)."""
    if not isinstance(card, str):
        return None
    name = card.strip().upper()
    name = "T" + name[2:] if name.startswith("10") else name
    return name if len(name) == 2 and name[1] in "CDHS" and name[0] in "23456789TJQKA" else None


def wrong_names(predictions: dict[str, list[dict[str, Any]]],
                image: dict[str, Any], key: str) -> Counter[WrongName]:
    """The names reported on one image that score.py did not match to a card of that name."""
    matched = set((image.get("detail") or {}).get("matches", {}))
    names = [_reported(card.get("card")) for card in predictions.get(key, [])]
    wrong = Counter((key, name) for index, name in enumerate(names)
                    if name is not None and str(index) not in matched)
    if sum(wrong.values()) != image["wrong"]:  # matched by count, not by place
        return Counter({(key, f"{image['wrong']} wrong of {len(names)}"): 1} if image["wrong"]
                       else {})
    return wrong


def score(scorer: Path, predictions: Path, labels: Path, work: Path) -> dict[str, SetScore]:
    """Per set figures (and 'ALL') of a prediction file scored against a labels file."""
    report = work / (predictions.stem + "-" + labels.stem + ".json")
    command = [sys.executable, str(scorer), str(predictions), "--labels", str(labels),
               "--json", str(report)]
    done = subprocess.run(command, check=False, capture_output=True, text=True)
    if done.returncode != 0:
        raise VisionError(f"score.py failed on {predictions}: {done.stderr.strip()}")
    scored = json.loads(report.read_text())
    document = read_labels(labels)
    lines = [json.loads(line) for line in predictions.read_text().splitlines() if line.strip()]
    cards = {line["image"]: line["cards"] for line in lines}
    wrong: dict[str, Counter[WrongName]] = {}
    for key, image in scored["images"].items():
        names = wrong_names(cards, image, key)
        for group in (document["images"][key]["set"], "ALL"):
            wrong.setdefault(group, Counter()).update(names)
    result = {}
    for name, row in scored["sets"].items():
        group = "ALL" if name.startswith("ALL") else name
        if name.startswith("full-id"):
            continue
        result[group] = SetScore(row["found"], row["identified"], row["truth"],
                                 wrong.get(group, Counter()))
    return result


def _subset_predictions(predictions: Path, keys: set[str], out: Path) -> Path:
    lines = [line for line in predictions.read_text().splitlines()
             if line.strip() and json.loads(line)["image"] in keys]
    out.write_text("".join(line + "\n" for line in lines))
    return out


def _change(before: int, after: int) -> str:
    return f"{before}" if before == after else f"{before} → {after}"


def stage_rows(stage: Stage, half: str, off: dict[str, SetScore],
               on: dict[str, SetScore]) -> str:
    """One table row: the totals with the stage off and on, and the sets it changes."""
    total_off, total_on = off["ALL"], on["ALL"]
    added = total_on.wrong - total_off.wrong
    removed = total_off.wrong - total_on.wrong
    changes = []
    for name in off:
        if name == "ALL":
            continue
        a, b = off[name], on[name]
        wrong_a, wrong_b = sum(a.wrong.values()), sum(b.wrong.values())
        if (a.found, a.identified, wrong_a) != (b.found, b.identified, wrong_b):
            parts = [f"found {_change(a.found, b.found)}" if a.found != b.found else "",
                     f"identified {_change(a.identified, b.identified)}"
                     if a.identified != b.identified else "",
                     f"wrong {_change(wrong_a, wrong_b)}" if wrong_a != wrong_b else ""]
            changes.append(f"{name}: " + ", ".join(p for p in parts if p))
    listed = ", ".join(f"{key.rsplit('/', 1)[-1]} {name}" for key, name in sorted(added)) or "-"
    dropped = ", ".join(f"{key.rsplit('/', 1)[-1]} {name}" for key, name in sorted(removed))
    return (f"| {stage.name} (`{stage.called}`{'' if stage.shipped_on() else ', shipped off'}) "
            f"| {half} | {_change(total_off.found, total_on.found)} "
            f"| {_change(total_off.identified, total_on.identified)} "
            f"| {_change(sum(total_off.wrong.values()), sum(total_on.wrong.values()))} "
            f"| {listed} | {dropped or '-'} | {'; '.join(changes) or 'no change'} |")


HEADER = ("| stage (config field) | photos | found off → on | identified off → on "
          "| wrong names off → on | wrong names it adds | wrong names it removes "
          "| sets it changes |\n|---|---|---|---|---|---|---|---|")


def audit(shared: Path, scale: float, stages: Sequence[Stage], work: Path,
          reuse: bool = False) -> list[str]:
    """The table's lines for the given stages at one card length."""
    folder = cached_scaled_folder(shared, scale)
    scorer = shared / "score.py"
    document = read_labels(folder / "labels.json")
    measured = measured_keys(document)
    halves = {"all": (folder / "labels.json", set(document["images"]))}
    measured_labels = work / "labels-measured.json"
    measured_labels.write_text(json.dumps(labels_subset(document, measured)))
    halves["measured half"] = (measured_labels, measured)
    model = GlyphModel.load()
    scores: dict[tuple[str, str], dict[str, SetScore]] = {}

    def scored(config: VisionConfig, name: str) -> dict[str, dict[str, SetScore]]:
        predictions = work / f"predictions-{name}.jsonl"
        if not (reuse and predictions.exists()):
            print(f"reading {len(document['images'])} photos at {scale:g} px: {name}",
                  file=sys.stderr, flush=True)
            write_predictions(folder, model, config, predictions)
        result = {}
        for half, (labels, keys) in halves.items():
            if (name, half) not in scores:
                subset = _subset_predictions(predictions, keys,
                                             work / f"predictions-{name}-{half[:3]}.jsonl")
                scores[(name, half)] = score(scorer, subset, labels, work)
            result[half] = scores[(name, half)]
        return result

    shipped = scored(VisionConfig(), "shipped")
    lines = [HEADER]
    for stage in stages:
        other = scored(replace(VisionConfig(), **{stage.field: stage.other}), stage.called)
        off, on = (other, shipped) if stage.shipped_on() else (shipped, other)
        for half in halves:
            lines.append(stage_rows(stage, half, off[half], on[half]))
    base = shipped["all"]["ALL"]
    lines.append("")
    lines.append(f"Shipped settings at {scale:g} px: {base.identified} of {base.truth} cards "
                 f"identified, {base.found} found, {sum(base.wrong.values())} wrong names "
                 f"(measured half: {shipped['measured half']['ALL'].identified} of "
                 f"{shipped['measured half']['ALL'].truth}, "
                 f"{sum(shipped['measured half']['ALL'].wrong.values())} wrong).")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Run the audit and print (or write) the markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--shared", type=Path,
                        default=Path(__file__).resolve().parents[2] / "shared" / "vision",
                        help="labelled folder with labels.json and score.py")
    parser.add_argument("--scale", type=float, default=140.0, metavar="PX")
    parser.add_argument("--stages", default="", metavar="NAMES",
                        help="comma-separated config fields or finder names "
                             "(default: every stage)")
    parser.add_argument("--out", type=Path, metavar="TABLE.md")
    parser.add_argument("--work", type=Path, metavar="DIR",
                        help="keep the predictions here (default: a temporary folder)")
    parser.add_argument("--reuse", action="store_true",
                        help="with --work: score predictions already there instead of reading")
    args = parser.parse_args(argv)
    wanted = [field for field in args.stages.split(",") if field]
    unknown = sorted(set(wanted) - {stage.called for stage in STAGES})
    if unknown:
        print(f"error: no stage is switched by {', '.join(unknown)}", file=sys.stderr)
        return 2
    stages = [stage for stage in STAGES if not wanted or stage.called in wanted]
    if not (args.shared / "labels.json").is_file() or not (args.shared / "score.py").is_file():
        print(f"error: {str(args.shared)!r} has no labels.json or score.py", file=sys.stderr)
        return 2
    try:
        with tempfile.TemporaryDirectory() as tmp:
            work = args.work or Path(tmp)
            work.mkdir(parents=True, exist_ok=True)
            lines = audit(args.shared, args.scale, stages, work, args.reuse)
    except VisionError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
