"""Measure the glyph reader, the learned reader and their agreement on the dev halves.

Run: python -m tools.measure_reader observe DIR --out OBS.jsonl   (the glyph pipeline's cards)
     python -m tools.measure_reader score DIR OBS.jsonl [--model M.onnx] [--calibrate]

`observe` runs the pipeline with the learned reader off and keeps every card it reports; `score`
adds the learned reader's scores of each whole card, applies each decision rule, and scores the
calibration part and the measured half of every set with the folder's score.py. The calibration
part is the training half less what trained the model (tools.reader_data): the training halves of
the sets the model never saw and the calibration quarter of the others."""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from tools.reader_data import LICENSED_SETS, is_calibration
from tools.split import photo_set, training_keys
from vision.cards import CardObservation, Rank, Reading, Suit
from vision.config import VisionConfig
from vision.corners import cards_of_index
from vision.imageio import read_image
from vision.learned import (
    CardScores,
    LearnedReader,
    Rule,
    checked,
    load_reader,
    reading_of,
    shipped_reader,
    surer_of,
)

Record = dict[str, Any]
SHARED_SCORER = Path(__file__).resolve().parents[2] / "shared" / "vision" / "score.py"


def parts(labels: Record) -> dict[str, set[str]]:
    """The calibration part and the measured half of a labels document's images."""
    keys = list(labels["images"])
    trained = training_keys(keys)
    calibration = {k for k in trained
                   if photo_set(k) not in LICENSED_SETS or is_calibration(k)}
    return {"calibration": calibration, "measured": set(keys) - trained}


def observe(folder: Path, out: Path, keys: set[str] | None = None) -> None:
    """The glyph pipeline's cards of every labelled image, one JSON line per image."""
    from vision.model import GlyphModel
    from vision.pipeline import recognise

    labels = json.loads((folder / "labels.json").read_text())
    model = GlyphModel.load()
    config = replace(VisionConfig(), learned_reader=False)
    done = ({json.loads(line)["image"] for line in out.read_text().splitlines()}
            if out.exists() else set())
    with out.open("a") as stream:
        for key in labels["images"]:
            if key in done or (keys is not None and key not in keys):
                continue
            frame = read_image(folder / labels.get("image_root", "") / key)
            cards = [{"corners": o.corners.tolist(), "whole": o.whole, "card": o.name,
                      "confidence": o.confidence} for o in recognise(frame, model, config)]
            stream.write(json.dumps({"image": key, "cards": cards}) + "\n")
            stream.flush()


def add_scores(folder: Path, lines: list[Record], reader: LearnedReader) -> None:
    """The learned reader's scores of each whole card and of the card each named loose corner
    implies, in place ('rank', 'suit')."""
    labels = json.loads((folder / "labels.json").read_text())
    config = VisionConfig()
    for line in lines:
        whole = [c for c in line["cards"] if c["whole"]]
        loose = [c for c in line["cards"] if not c["whole"] and c["card"] is not None]
        if not whole + loose:
            continue
        frame = read_image(folder / labels.get("image_root", "") / line["image"])
        quads = [np.array(c["corners"], np.float32) for c in whole]
        for card in loose:
            quads += cards_of_index(np.array(card["corners"], np.float32), config)
        found = reader.scores(frame, quads)
        chosen = found[:len(whole)] + [
            surer_of(found[len(whole) + 2 * n:len(whole) + 2 * n + 2], glyph_reading(card),
                     reader.rule.courts) for n, card in enumerate(loose)]
        for card, scores in zip(whole + loose, chosen, strict=True):
            assert scores is not None
            card["rank"] = scores.rank.tolist()
            card["suit"] = scores.suit.tolist()


def glyph_reading(card: Record) -> Reading | None:
    """The glyph pipeline's reading of a stored card."""
    name = card["card"]
    if name is None:
        return None
    if name == "JK":
        return Reading(Rank.JOKER, None, card["confidence"])
    return Reading(Rank(name[0]), Suit(name[1]), card["confidence"])


def observations_of(line: Record) -> tuple[list[CardObservation], list[CardScores | None]]:
    """A stored image's observations and the network's scores of each (None if not seen)."""
    observations, scores = [], []
    for card in line["cards"]:
        observations.append(CardObservation(np.array(card["corners"], np.float32),
                                            glyph_reading(card), card["confidence"],
                                            card["whole"]))
        scores.append(CardScores(np.array(card["rank"], np.float32),
                                 np.array(card["suit"], np.float32)) if "rank" in card else None)
    return observations, scores


def rules(calibrated: Rule) -> dict[str, Rule | None]:
    """The decision rules compared: glyph alone, learned alone, learned with agreement, each of
    the last two also with no loose corner named."""
    never = 2.0
    return {"glyph": None,
            "learned": replace(calibrated, glyph=False, loose=0.0),
            "learned-whole": replace(calibrated, glyph=False, loose=never),
            "agree": replace(calibrated, loose=0.0),
            "agree-loose": calibrated,
            "agree-whole": replace(calibrated, loose=never)}


def predictions(lines: list[Record], rule: Rule | None) -> list[Record]:
    """Prediction lines under one rule (None: the glyph pipeline's own)."""
    out = []
    for line in lines:
        observations, scores = observations_of(line)
        if rule is not None:
            observations = checked(observations, scores, rule)
        out.append({"image": line["image"],
                    "cards": [{"card": o.name, "corners": o.corners.tolist(),
                               "confidence": o.confidence} for o in observations]})
    return out


def scorer_of(folder: Path) -> Path:
    """The folder's score.py, else the shared one (a scaled folder holds none)."""
    own = folder / "score.py"
    return own if own.is_file() else SHARED_SCORER


def score(folder: Path, preds: list[Record], keys: set[str]) -> Record:
    """score.py's summary (--json) for the predictions of some keys."""
    labels = json.loads((folder / "labels.json").read_text())
    subset = dict(labels, images={k: v for k, v in labels["images"].items() if k in keys})
    subset["sets"] = {name: info for name, info in labels["sets"].items()
                      if any(photo_set(k) == name for k in keys)}
    with tempfile.TemporaryDirectory() as tmp:
        label_path, pred_path, json_path = (Path(tmp) / n for n in
                                            ("labels.json", "pred.jsonl", "out.json"))
        label_path.write_text(json.dumps(subset))
        pred_path.write_text("".join(json.dumps(p) + "\n" for p in preds if p["image"] in keys))
        subprocess.run([sys.executable, str(scorer_of(folder)), str(pred_path), "--labels",
                        str(label_path), "--json", str(json_path)], check=True,
                       capture_output=True)
        result: Record = json.loads(json_path.read_text())
    return result


def evidence(folder: Path, lines: list[Record], keys: set[str],
             courts: bool = False) -> list[Record]:
    """Per whole card with scores: the glyph name's backing and the learned name's probability,
    each with whether that name is right (None where no truth card lies under it)."""
    labels = json.loads((folder / "labels.json").read_text())
    out = []
    for line in lines:
        if line["image"] not in keys:
            continue
        record = labels["images"][line["image"]]
        rank_only = bool(labels["sets"][record["set"]].get("rank_only"))
        for card in line["cards"]:
            truth = _under(np.mean(np.array(card["corners"]), axis=0), record["cards"])
            if truth is None or truth.get("ignore"):
                continue
            wanted = truth["rank"] if rank_only or not truth.get("card") else truth["card"]
            item: Record = {"set": record["set"]}
            glyph = glyph_reading(card)
            if not card["whole"] or "rank" not in card:
                if glyph is not None and glyph.is_euchre:
                    item["loose"] = (card["confidence"], glyph.name[:len(wanted)] == wanted)
                    if "rank" in card:
                        implied = CardScores(np.array(card["rank"], np.float32),
                                             np.array(card["suit"], np.float32))
                        suit = glyph.suit.value if glyph.suit else None
                        item["implied"] = (implied.support(glyph.rank.value, suit, courts),
                                           glyph.name[:len(wanted)] == wanted)
                out.append(item)
                continue
            scores = CardScores(np.array(card["rank"], np.float32),
                                np.array(card["suit"], np.float32))
            if glyph is not None and glyph.is_euchre:
                suit = glyph.suit.value if glyph.suit else None
                item["glyph"] = (scores.support(glyph.rank.value, suit, courts),
                                 glyph.name[:len(wanted)] == wanted)
            agreed = scores.agreed()
            if glyph is None and agreed is not None and reading_of(*agreed) is not None:
                item["learned"] = (agreed[1], agreed[0][:len(wanted)] == wanted)
            out.append(item)
    return out


PATHS = ("glyph", "learned", "loose")
"""Names kept by the network's backing, given by the network alone, read at loose corners."""
GRID = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99, 0.995, 0.999)


def curve(items: list[Record], path: str) -> list[Record]:
    """For each threshold of GRID: names kept at or above it on one path, and how many wrong."""
    values = [item[path] for item in items if path in item]
    rows = []
    for level in GRID:
        kept = [right for value, right in values if value >= level]
        rows.append({"from": level, "named": len(kept), "wrong": kept.count(False)})
    return rows


def bins(items: list[Record], path: str) -> list[Record]:
    """Names on one path per confidence bin (between consecutive GRID levels), and the wrong."""
    values = [item[path] for item in items if path in item]
    edges = (0.0, *GRID, 1.01)
    return [{"bin": [lo, hi], "named": sum(lo <= v < hi for v, _ in values),
             "wrong": sum(lo <= v < hi and not r for v, r in values)}
            for lo, hi in itertools.pairwise(edges)]


def pick(rows: list[Record], limit: float = 0.001) -> float:
    """The lowest threshold from which wrong names are at most `limit` of those named, and no
    lower threshold above it breaks that."""
    chosen = GRID[-1]
    for row in reversed(rows):
        if row["named"] and row["wrong"] > limit * row["named"]:
            break
        chosen = row["from"]
    return float(chosen)


def _under(point: np.ndarray, cards: list[Record]) -> Record | None:
    import cv2

    for card in cards:
        shape = card.get("quad")
        if shape is None:
            x0, y0, x1, y1 = card["box"]
            shape = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
        inside = cv2.pointPolygonTest(np.array(shape, np.float32),
                                      (float(point[0]), float(point[1])), False)
        if inside >= 0:
            return card
    return None


def main(argv: list[str] | None = None) -> int:
    """Handle the observe and score commands."""
    parser = argparse.ArgumentParser(prog="python -m tools.measure_reader")
    commands = parser.add_subparsers(dest="command", required=True)
    see = commands.add_parser("observe")
    see.add_argument("folder", type=Path)
    see.add_argument("--out", type=Path, required=True)
    rate = commands.add_parser("score")
    rate.add_argument("folder", type=Path)
    rate.add_argument("observations", type=Path)
    rate.add_argument("--model", type=Path)
    rate.add_argument("--threshold", type=float)
    rate.add_argument("--support", type=float)
    rate.add_argument("--loose-backed", type=float,
                      help="a loose corner from this confidence is named when the network "
                           "backs the card it implies")
    rate.add_argument("--loose-support", type=float,
                      help="the network's backing a loose corner's implied card needs")
    rate.add_argument("--overrule", type=float,
                      help="a glyph reading below this confidence gives way to the network")
    rate.add_argument("--overrule-threshold", type=float,
                      help="the network's joint probability needed to overrule it")
    rate.add_argument("--courts", choices=("yes", "no"),
                      help="back a glyph court card by the network's belief in any court card "
                           "of its suit (default: the manifest's)")
    rate.add_argument("--json", type=Path, help="write the figures here")
    rate.add_argument("--record", metavar="NAME",
                      help="store the shipped rule's measured-half figures and confidence bins "
                           "in the model's manifest under measured.NAME")
    rate.add_argument("--calibrate", action="store_true",
                      help="choose the thresholds on the calibration part, store them in the "
                           "model's manifest")
    args = parser.parse_args(argv)
    if not (args.folder / "labels.json").exists():
        print(f"measure reader: no labels.json in {str(args.folder)!r}", file=sys.stderr)
        return 2
    if args.command == "observe":
        observe(args.folder, args.out)
        return 0
    try:
        reader = load_reader(args.model) if args.model else shipped_reader()
        lines = [json.loads(line) for line in args.observations.read_text().splitlines()]
    except (OSError, ValueError) as error:
        print(f"measure reader: {error}", file=sys.stderr)
        return 2
    add_scores(args.folder, lines, reader)
    labels = json.loads((args.folder / "labels.json").read_text())
    rule = reader.rule
    if args.threshold is not None:
        rule = replace(rule, threshold=args.threshold)
    if args.support is not None:
        rule = replace(rule, support=args.support)
    if args.courts is not None:
        rule = replace(rule, courts=args.courts == "yes")
    if args.loose_backed is not None:
        rule = replace(rule, loose_backed=args.loose_backed)
    if args.loose_support is not None:
        rule = replace(rule, loose_support=args.loose_support)
    if args.overrule is not None:
        rule = replace(rule, overrule=args.overrule)
    if args.overrule_threshold is not None:
        rule = replace(rule, overrule_threshold=args.overrule_threshold)
    figures: Record = {}
    split = parts(labels)
    for part, keys in split.items():
        items = evidence(args.folder, lines, keys, rule.courts)
        figures[f"curve/{part}"] = {p: curve(items, p) for p in PATHS}
        figures[f"bins/{part}"] = {p: bins(items, p) for p in PATHS}
    if args.calibrate:
        curves = figures["curve/calibration"]
        rule = Rule(pick(curves["learned"]), pick(curves["glyph"]), pick(curves["loose"]),
                    courts=rule.courts, overrule=rule.overrule,
                    overrule_threshold=rule.overrule_threshold)
        model = args.model or Path(__file__).resolve().parents[1] / "vision/data/reader.onnx"
        manifest_path = model.with_suffix(".json")
        manifest = json.loads(manifest_path.read_text())
        manifest.update({"support": rule.support, "threshold": rule.threshold,
                         "loose": rule.loose, "courts": rule.courts,
                         "calibration": {"folder": str(args.folder.name),
                                         "part": "training halves not trained on",
                                         **figures["curve/calibration"]}})
        manifest_path.write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"rule {rule}")
    for key in ("curve/calibration", "curve/measured"):
        for path, rows in figures[key].items():
            print(key, path, " ".join(f"{r['from']}:{r['named']}/{r['wrong']}" for r in rows))
    for label, variant in rules(rule).items():
        preds = predictions(lines, variant)
        for part, keys in split.items():
            result = score(args.folder, preds, keys)
            figures[f"{label}/{part}"] = result["sets"]
            print(f"{label:13s} {part:12s} " + summary(result))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
    if args.record:
        model = args.model or Path(__file__).resolve().parents[1] / "vision/data/reader.onnx"
        manifest_path = model.with_suffix(".json")
        manifest = json.loads(manifest_path.read_text())
        sets = figures["agree-loose/measured"]
        manifest.setdefault("measured", {})[args.record] = {
            "part": "measured halves (tools.split)",
            "per_set": {name.split(" ")[0]: {k: sets[name][k] for k in
                                             ("recall", "precision", "truth", "identified",
                                              "reported_identities", "correct")}
                        for name in sets if not name.startswith("full")},
            "confidence_bins": figures["bins/measured"]}
        manifest_path.write_text(json.dumps(manifest, indent=1) + "\n")
    return 0


def summary(result: Record) -> str:
    """One line of per-set recall/precision from score.py's JSON."""
    rows = result.get("sets", {})
    return " ".join(f"{name.split(' ')[0]} {row['recall']:.3f}/{row['precision']:.3f}"
                    f"({row['identified']}/{row['truth']},"
                    f"w{row['reported_identities'] - row['correct']})"
                    for name, row in rows.items() if not name.startswith("full"))


if __name__ == "__main__":
    raise SystemExit(main())
