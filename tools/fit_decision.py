"""Fit, calibrate and measure the calibrated decision (`vision.decide`).

Run: .venv/bin/python -m tools.fit_decision fit --labels-of CANDIDATES.jsonl=FOLDER ... --out M.json
     .venv/bin/python -m tools.fit_decision measure --labels-of CANDIDATES.jsonl=FOLDER ...
                                           [--decision M.json]
Candidates come from `tools.decision_data`; each file is labelled by score.py's matching against
its folder's labels.json (`--whole`: covered cards judged, left out of recall). `fit` fits a
logistic regression on every name (each weight of its cue's known sign, `SIGNS`) and an
isotonic calibration on the same names scored by
regressions fitted without their images (three folds), and keeps the threshold from which the
calibrated wrong names are at most 1 in 1000. `measure` scores each
file as the table took names before the decision (each stage's confidence from 0.7 on) and by
the decision, per set. Names the deck constraint drops whatever the decision says (a loose
corner repeating a whole outline's name, `deck_kept`) are neither fitted on nor measured.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import zlib
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from tools.evaluate import labels_subset, read_labels
from vision.decide import Decision, decision_of, load_decision, name_probability
from vision.errors import VisionError
from vision.evidence import FEATURES, as_vector, log_odds
from vision.learned import reading_of, shipped_reader

SCORER = Path(os.environ.get("CARDTABLE_SHARED", Path(__file__).resolve().parents[2] / "shared")
              ) / "vision" / "score.py"
OLD_THRESHOLD = 0.7
"""The cut the table made before the decision: each stage's own confidence from 0.7 on."""
MOST_WRONG = 0.001
"""The share of wrong names the threshold allows (calibrated, over the names it takes)."""


def scorer_module(path: Path = SCORER) -> ModuleType:
    """score.py loaded as a module (its matching is the measure's)."""
    spec = importlib.util.spec_from_file_location("score", path)
    if spec is None or spec.loader is None:
        raise VisionError(f"cannot load the scorer {str(path)!r}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_lines(path: Path) -> list[dict[str, Any]]:
    """The prediction lines of a candidates file."""
    try:
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    except (OSError, ValueError) as error:
        raise VisionError(f"cannot read candidates {str(path)!r}: {error}") from error


def labelled_candidates(candidates: Path, folder: Path, *, proposed: bool = False
                        ) -> Iterator[tuple[str, str, np.ndarray, bool]]:
    """(image, set, evidence vector, right) of every name in a candidates file, and with
    `proposed` of every proposal for an unread outline, right as score.py's matching judges
    it with `--whole` (the proposals matched as if named)."""
    score = scorer_module()
    document = read_labels(folder / "labels.json")
    _, rank_only = score.set_info(document)
    for line in read_lines(candidates):
        record = document["images"][line["image"]]
        for k in score.touching(record):
            record["cards"][k] = dict(record["cards"][k], partial=True)
        kept = deck_kept(line["cards"])
        judged = [("card", [card if keep else dict(card, card=None)
                            for card, keep in zip(line["cards"], kept, strict=True)])]
        if proposed:
            judged.append(("proposal", [dict(card, card=card.get("proposal"))
                                        for card in line["cards"]]))
        for kind, cards in judged:
            result = score.score_image(record, cards, rank_only.get(record["set"], False),
                                       0.5, False)
            matches = (result.get("detail") or {}).get("matches", {})
            for k, card in enumerate(line["cards"]):
                if cards[k].get(kind) is None or card.get("evidence") is None:
                    continue
                yield (line["image"], record["set"], as_vector(card["evidence"]),
                       str(k) in matches)


def deck_kept(cards: list[dict[str, Any]]) -> list[bool]:
    """Whether the deck constraint (`vision.deck_limit.within_deck`, one copy) leaves each of an
    image's names to the table: of the cards carrying one name, a whole outline before a loose
    corner, then the most confident by its stage; the others' names never reach it, whatever
    the decision says."""
    order = sorted(range(len(cards)),
                   key=lambda k: (not cards[k]["whole"], -cards[k]["confidence"]))
    named: set[str] = set()
    kept = [True] * len(cards)
    for k in order:
        name = cards[k].get("card")
        if name is not None:
            kept[k] = name not in named
            named.add(name)
    return kept


def fit_logistic(x: np.ndarray, y: np.ndarray, penalty: float = 1.0,
                 steps: int = 50) -> tuple[np.ndarray, float]:
    """Weights and bias of an L2-penalised logistic regression (Newton's method)."""
    rows, size = x.shape
    design = np.hstack([x, np.ones((rows, 1))])
    theta = np.zeros(size + 1)
    ridge = np.full(size + 1, penalty)
    ridge[-1] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(design @ theta)))
        gradient = design.T @ (p - y) + ridge * theta
        hessian = (design * (p * (1 - p))[:, None]).T @ design + np.diag(ridge) + 1e-9
        step = np.linalg.solve(hessian, gradient)
        theta -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    return theta[:-1], float(theta[-1])


def isotonic(scores: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The increasing calibration curve of `y` over `scores` (pool adjacent violators), as
    points for `np.interp`: each block's share right from its lowest to its highest score."""
    order = np.argsort(scores, kind="stable")
    blocks: list[list[float]] = []  # [sum of y, count, lowest score, highest score]
    for s, v in zip(scores[order], y[order], strict=True):
        blocks.append([float(v), 1.0, float(s), float(s)])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] >= blocks[-1][0] / blocks[-1][1]:
            last = blocks.pop()
            blocks[-1] = [blocks[-1][0] + last[0], blocks[-1][1] + last[1], blocks[-1][2],
                          last[3]]
    at: list[float] = []
    share: list[float] = []
    for right, count, low, high in blocks:
        for point in (low, high):
            if at and point <= at[-1]:
                point = at[-1] + 1e-4
            at.append(point)
            share.append(right / count)
    return np.array(at), np.array(share)


def threshold_of(probabilities: np.ndarray, most_wrong: float = MOST_WRONG) -> float:
    """The least calibrated probability from which the names taken are, by the curve, wrong at
    most `most_wrong` of the time."""
    ordered = np.sort(probabilities)[::-1]
    wrong = np.cumsum(1.0 - ordered) / np.arange(1, ordered.size + 1)
    # A threshold takes every name of its probability: only the last of equal ones may end.
    last_of_equal = np.append(ordered[1:] < ordered[:-1], True)
    allowed = np.nonzero((wrong <= most_wrong + 1e-12) & last_of_equal)[0]
    return float(ordered[allowed[-1]]) if allowed.size else 1.0


FOLDS = 3


def fold_of(key: str) -> int:
    """The fold an image's names belong to (by a stable hash of its key): each fold is scored
    by a regression fitted on the others, so the calibration sees no name it was fitted on."""
    return zlib.crc32(key.encode()) % FOLDS


def standardised_fit(x: np.ndarray, y: np.ndarray, penalty: float
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Mean, scale, weights and bias of a regression on standardised evidence, each weight of
    the sign `SIGNS` gives its cue: while any weight has the other sign, the cue that most
    does is left out (weight 0) and the rest fitted again."""
    mean = x.mean(axis=0)
    spread = x.std(axis=0)
    scale = np.where(spread > 1e-9, spread, 1.0)
    standard = (x - mean) / scale
    signs = np.array([SIGNS[name] for name in FEATURES], np.float64)
    free = np.ones(x.shape[1], bool)
    while True:
        kept, bias = fit_logistic(standard[:, free], y, penalty)
        weights = np.zeros(x.shape[1])
        weights[free] = kept
        against = weights * signs < 0
        if not against.any():
            return mean, scale, weights, bias
        free[int(np.argmax(np.where(against, -weights * signs, 0.0)))] = False


SIGNS = {
    "confidence": 1, "whole": 1, "one_end": -1, "card_low": 1, "card_high": 1, "card_agree": 1,
    "index_low": 1, "index_high": 1, "pips": 1, "ink": 1, "length": -1, "repeated": -1,
    "spade_chroma": -1, "club_redness": -1, "heart_redness": 1, "diamond_chroma": 1,
    "card_low_rank": -1, "card_no_card": -1,
}
"""The sign each cue's weight may have, known before any fit: the networks backing the name,
the pips and the ink agreeing, a whole outline count for it; a name from one end, an outline
of another length, a name given twice, a spade's coloured or a club's red ink, a low rank or
no card seen count against; a heart's redness and a diamond's chroma for. A weight of the other
sign would be the fitting data's quirk (cues that move together), and an extrapolation the
table cannot afford."""


def fit(pairs: list[tuple[Path, Path]], penalty: float, proposed: bool = False
        ) -> dict[str, Any]:
    """The manifest of a decision fitted on these candidate files and calibrated on the same
    names scored out of fold (`fold_of`)."""
    rows = [row for candidates, folder in pairs
            for row in labelled_candidates(candidates, folder, proposed=proposed)]
    if not rows:
        raise VisionError("no named candidates to fit on")
    x = np.array([row[2] for row in rows])
    y = np.array([float(row[3]) for row in rows])
    folds = np.array([fold_of(row[0]) for row in rows])
    scores = np.zeros(len(rows))
    for fold in range(FOLDS):
        held = folds == fold
        if held.all() or not held.any():
            held = np.ones(len(rows), bool)
        mean, scale, weights, bias = standardised_fit(x[~held] if (~held).any() else x,
                                                      y[~held] if (~held).any() else y, penalty)
        scores[held] = ((x[held] - mean) / scale) @ weights + bias
    curve_scores, curve_probabilities = isotonic(scores, y)
    if curve_scores.size < 2:
        curve_scores = np.array([curve_scores[0] - 1.0, curve_scores[0] + 1.0])
        curve_probabilities = np.repeat(curve_probabilities[:1], 2)
    # The threshold is read off the curve as shipped (rounded): the table takes every name of
    # the lowest block it keeps.
    curve_scores, curve_probabilities = curve_scores.round(6), curve_probabilities.round(6)
    calibrated = np.interp(scores.round(6), curve_scores, curve_probabilities)
    threshold = threshold_of(calibrated)
    taken = calibrated >= threshold
    mean, scale, weights, bias = standardised_fit(x, y, penalty)
    sets = sorted({row[1] for row in rows})
    return {
        "features": list(FEATURES),
        "mean": mean.round(6).tolist(), "scale": scale.round(6).tolist(),
        "weights": weights.round(6).tolist(), "bias": round(bias, 6),
        "calibration": {"scores": curve_scores.tolist(),
                        "probabilities": curve_probabilities.tolist()},
        "threshold": threshold,
        "threshold_note": (f"the least calibrated probability from which the names taken, scored "
                           f"out of fold ({FOLDS} folds by image), are by the curve as shipped "
                           f"wrong at most {MOST_WRONG:g} of the time"),
        "record": "docs/decisions/2026-12-06-calibrated-decision.md",
        "fitted_on": {"files": [Path(c).name for c, _ in pairs], "sets": sets,
                      "names": len(rows), "wrong": int((y == 0).sum()), "penalty": penalty,
                      "proposals": proposed,
                      "signs": {name: SIGNS[name] for name in FEATURES},
                      "left_out_by_sign": [name for name, weight in zip(FEATURES, weights,
                                                                        strict=True)
                                           if weight == 0.0]},
        "calibrated_on": {"names": len(rows), "folds": FOLDS, "taken": int(taken.sum()),
                          "taken_wrong": int((y[taken] == 0).sum())},
    }


def table_file(lines: list[dict[str, Any]], keep: Any, proposed: bool = False) -> str:
    """Prediction lines with every name `keep(card)` refuses taken as unread (with `proposed`,
    every proposal it takes named)."""
    out = []
    for line in lines:
        cards = []
        for card, kept in zip(line["cards"], deck_kept(line["cards"]), strict=True):
            name = card.get("card") or (card.get("proposal") if proposed else None)
            cards.append({**card, "card": name if name is not None and kept and keep(card)
                          else None})
        out.append(json.dumps({"image": line["image"], "cards": cards}) + "\n")
    return "".join(out)


def scored_sets(predictions: str, labels: Path, work: Path) -> dict[str, Any]:
    """score.py's per-set rows (`--whole`) for predictions given as text."""
    path, report = work / "predictions.jsonl", work / "report.json"
    path.write_text(predictions)
    subprocess.run([sys.executable, str(SCORER), str(path), "--labels", str(labels),
                    "--whole", "--json", str(report)], check=True, capture_output=True)
    sets: dict[str, Any] = json.loads(report.read_text())["sets"]
    return sets


def measure(pairs: list[tuple[Path, Path]], decision: Decision, proposed: bool = False
            ) -> Iterator[str]:
    """Rows of named whole cards and wrong names per set, the former cut (0.7) and the
    decision's (with `proposed`, the decision weighs the proposals for unread outlines too)."""
    yield (f"{'file':<28} {'set':<22} {'whole':>5} | {'old named':>9} {'wrong':>5} | "
           f"{'new named':>9} {'wrong':>5}")

    support = log_odds(shipped_reader().rule.support)

    def new(card: dict[str, Any]) -> bool:
        reading = reading_of(str(card.get("card") or card.get("proposal")), 1.0)
        probability = (name_probability(decision, reading, card["evidence"], support)
                       if reading is not None else decision.probability(card["evidence"]))
        return bool(probability >= decision.threshold)

    for candidates, folder in pairs:
        lines = read_lines(candidates)
        document = read_labels(folder / "labels.json")
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            labels = work / "labels.json"
            labels.write_text(json.dumps(labels_subset(document, {ln["image"] for ln in lines})))
            old_sets = scored_sets(table_file(lines, lambda c: c["confidence"] >= OLD_THRESHOLD),
                                   labels, work)
            new_sets = scored_sets(table_file(lines, new, proposed), labels, work)
        for name, old in old_sets.items():
            fresh = new_sets[name]
            yield (f"{candidates.name:<28} {name[:22]:<22} {old['truth']:>5} | "
                   f"{old['identified']:>9} {old['reported_identities'] - old['correct']:>5} | "
                   f"{fresh['identified']:>9} "
                   f"{fresh['reported_identities'] - fresh['correct']:>5}")


def pair(text: str) -> tuple[Path, Path]:
    """CANDIDATES=FOLDER."""
    candidates, _, folder = text.partition("=")
    if not folder:
        raise argparse.ArgumentTypeError(f"{text!r} is not CANDIDATES.jsonl=FOLDER")
    return Path(candidates), Path(folder)


def main(argv: list[str] | None = None) -> int:
    """Fit or measure the decision."""
    parser = argparse.ArgumentParser(prog="fit_decision", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    fitting = commands.add_parser("fit")
    fitting.add_argument("--labels-of", type=pair, action="append", required=True)
    fitting.add_argument("--penalty", type=float, default=2.0,
                         help="L2 penalty (2: the most names taken out of fold at the "
                              "threshold, of 2, 3, 5 and 10)")
    fitting.add_argument("--out", type=Path, required=True)
    fitting.add_argument("--proposals", action="store_true",
                         help="also fit on the proposals for unread outlines")
    measuring = commands.add_parser("measure")
    measuring.add_argument("--labels-of", type=pair, action="append", required=True)
    measuring.add_argument("--decision", type=Path, default=None)
    measuring.add_argument("--proposals", action="store_true",
                           help="the decision also weighs the proposals for unread outlines")
    measuring.add_argument("--threshold", type=float, default=None,
                           help="take names from this calibrated probability instead of the "
                                "decision's threshold (to read the curve)")
    args = parser.parse_args(argv)
    try:
        if args.command == "fit":
            manifest = fit(args.labels_of, args.penalty, args.proposals)
            decision_of(manifest)
            args.out.write_text(json.dumps(manifest, indent=1) + "\n")
            print(json.dumps({k: manifest[k] for k in
                              ("weights", "threshold", "fitted_on", "calibrated_on")}, indent=1))
            return 0
        decision = load_decision(args.decision) if args.decision else load_decision()
        if args.threshold is not None:
            decision = replace(decision, threshold=args.threshold)
        for row in measure(args.labels_of, decision, args.proposals):
            print(row, flush=True)
    except VisionError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
