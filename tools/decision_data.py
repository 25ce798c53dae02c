"""Candidates for the calibrated decision: every name the pipeline gives, with its evidence.

Run: .venv/bin/python -m tools.decision_data dev FOLDER --half training|measured --out OUT.jsonl
                                             [--photo]
     .venv/bin/python -m tools.decision_data reweigh CANDIDATES.jsonl FOLDER --out OUT.jsonl
                                             [--photo]
     .venv/bin/python -m tools.decision_data scenes OUTDIR --design drawn|artwork|plain|tango|...
                                             --length 140 --count 60 --seed 1
A folder is read as `cardtable vision eval --in-frame` reads it (the play-area view's settings,
each image knowing its card length); each prediction line is score.py's, each card with its
`evidence` (`vision.evidence`); a whole outline left unread carries the card network's
`proposal` and the evidence for it. `reweigh` computes the evidence of a candidates file's
outlines afresh (today's cues, the pipeline not run again). `scenes` renders a labelled folder
of play-area views of one deck design: drawn, the svg-cards artwork, a plain deck, or one of the
Debian deck themes the readers never trained on (anglo_poker, rheinland, tango).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tools.drawn_deck import camera_look, drawn_face
from tools.evaluate import image_record, known_length, labelled_records, read_labels
from tools.reader_decks import HELD_OUT, THEMES, theme_faces
from tools.scenes import paste_card, plain_card, table_background
from tools.split import training_keys
from tools.table_frame import frame_size
from tools.table_synth import ARTWORK
from vision.cards import CardObservation, Rank, Reading, parse_card
from vision.config import VisionConfig
from vision.errors import VisionError
from vision.evidence import frame_evidence, proposals
from vision.imageio import read_image
from vision.live import LiveConfig, view_config
from vision.model import GlyphModel
from vision.pipeline import read_frame

EUCHRE = [rank + suit for rank in "9TJQKA" for suit in "CDHS"]
LOW = [rank + suit for rank in "2345678" for suit in "CDHS"]


def collect(folder: Path, out: Path, keys: set[str] | None, *, photo: bool = False) -> int:
    """Write the prediction lines of a labelled folder's images (only `keys` when given) with
    the evidence of every name, read in the play-area view's settings (with `photo`, a
    photo's); returns the number of images."""
    model = GlyphModel.load()
    config = VisionConfig() if photo else view_config(VisionConfig(), LiveConfig())
    count = 0
    with out.open("w") as handle:
        for key, path, record in labelled_records(folder):
            if keys is not None and key not in keys:
                continue
            frame = read_image(path)
            length = None if photo else known_length(record)
            seen = replace(config, card_length=length) if length is not None else config
            start = time.process_time()
            observations = read_frame(frame, model, seen)
            ms = (time.process_time() - start) * 1000.0
            start = time.process_time()
            evidence = frame_evidence(frame, observations, seen)
            evidence_ms = (time.process_time() - start) * 1000.0
            proposed = proposals(frame, observations)
            weighed = [replace(o, reading=p) if p is not None else o
                       for o, p in zip(observations, proposed, strict=True)]
            unread_evidence = frame_evidence(frame, weighed, seen)
            line = image_record(key, observations, ms)
            line["evidence_ms"] = round(evidence_ms, 2)
            line["set"] = record.get("set")
            for card, cues, proposal, other in zip(line["cards"], evidence, proposed,
                                                   unread_evidence, strict=True):
                card["evidence"] = cues
                if proposal is not None:
                    card["proposal"] = proposal.name
                    card["evidence"] = other
            handle.write(json.dumps(line) + "\n")
            count += 1
    return count


def reweigh(candidates: Path, folder: Path, out: Path, *, photo: bool = False) -> int:
    """Write a candidates file's lines again, the evidence of every name and proposal computed
    afresh on the outlines they hold (the images read from `folder` as `collect` read them);
    returns the number of images."""
    config = VisionConfig() if photo else view_config(VisionConfig(), LiveConfig())
    records = {key: (path, record) for key, path, record in labelled_records(folder)}
    count = 0
    with candidates.open() as source, out.open("w") as handle:
        for text in source:
            if not text.strip():
                continue
            line = json.loads(text)
            if line["image"] not in records:
                raise VisionError(f"{line['image']!r} is not in {str(folder)!r}")
            path, record = records[line["image"]]
            frame = read_image(path)
            length = None if photo else known_length(record)
            seen = replace(config, card_length=length) if length is not None else config
            named = [_stored(card, card.get("card")) for card in line["cards"]]
            proposed = [_stored(card, card.get("proposal")) if card.get("proposal") else o
                        for card, o in zip(line["cards"], named, strict=True)]
            for card, cues, other in zip(line["cards"], frame_evidence(frame, named, seen),
                                         frame_evidence(frame, proposed, seen), strict=True):
                card["evidence"] = other if card.get("proposal") else cues
            handle.write(json.dumps(line) + "\n")
            count += 1
    return count


def _stored(card: dict[str, Any], name: str | None) -> CardObservation:
    """The observation a candidate line's card holds, named `name` (None: unread)."""
    reading = None
    if name == Rank.JOKER.value:
        reading = Reading(Rank.JOKER, None, card["confidence"])
    elif name is not None:
        rank, suit = parse_card(name)
        reading = Reading(rank, suit, card["confidence"])
    one_end = bool((card.get("evidence") or {}).get("one_end"))
    return CardObservation(np.array(card["corners"], np.float32), reading, card["confidence"],
                           card["whole"], one_end)


def artwork_face(name: str) -> np.ndarray:
    """A card of the svg-cards artwork on white (euchre cards only)."""
    face = cv2.imread(str(ARTWORK / f"{name}.png"), cv2.IMREAD_UNCHANGED)
    if face is None:
        raise VisionError(f"no artwork for {name!r}")
    alpha = face[:, :, 3:4].astype(np.float32) / 255.0
    blended = face[:, :, :3].astype(np.float32) * alpha + 255.0 * (1.0 - alpha)
    return np.asarray(blended, np.uint8)


def plain_face(name: str) -> np.ndarray:
    """A plain white card with a Hershey index."""
    return plain_card("10" if name[0] == "T" else name[0], name[1])


DESIGNS: dict[str, tuple[Callable[[str], np.ndarray], list[str]]] = {
    "drawn": (drawn_face, EUCHRE),
    "artwork": (artwork_face, EUCHRE),
    "plain": (plain_face, EUCHRE + LOW),
}
"""Each deck design's face maker and the cards it draws."""
THEME_CACHE = Path(tempfile.gettempdir()) / "cardtable-decks"
"""Where the Debian deck themes are fetched and drawn once."""


@cache
def design_of(design: str) -> tuple[Callable[[str], np.ndarray], list[str]]:
    """A design's face maker and cards: one of `DESIGNS`, or a Debian deck theme the readers
    never trained on (`tools.reader_decks.HELD_OUT`; fetched with apt-get, drawn with
    rsvg-convert), its euchre cards on white."""
    if design in DESIGNS:
        return DESIGNS[design]
    theme = next((t for t in THEMES if t.name == design and t.name in HELD_OUT), None)
    if theme is None:
        raise VisionError(f"no deck design {design!r}")
    faces = {}
    for face in theme_faces(theme, EUCHRE, THEME_CACHE):
        alpha = face.image[:, :, 3:4].astype(np.float32) / 255.0
        blended = face.image[:, :, :3].astype(np.float32) * alpha + 255.0 * (1.0 - alpha)
        faces[face.rank + (face.suit or "")] = np.asarray(blended, np.uint8)
    if len(faces) < 8:
        raise VisionError(f"the deck theme {design!r} gave {len(faces)} euchre faces")
    return faces.__getitem__, sorted(faces)


def scene(design: str, length: float, seed: int) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """A play-area view of cards of one design, `length` px long, some laid partly over
    another as in a trick, with their labels."""
    make, names = design_of(design)
    rng = np.random.default_rng(seed)
    width, height = frame_size(length)
    frame = table_background(width, height, seed=seed)
    step = length * 1.3
    columns, rows = max(1, int(width // step)), max(1, int(height // step))
    cells = rng.permutation(columns * rows)[: min(8, columns * rows)]
    # One deck holds each card once: the cards laid over others are drawn from the rest.
    order = rng.permutation(len(names))
    chosen, rest = order[: len(cells)], list(order[len(cells):])
    cards: list[dict[str, Any]] = []
    for cell, pick in zip(cells, chosen, strict=True):
        centre = ((cell % columns + 0.5) * step + rng.uniform(-8, 8),
                  (cell // columns + 0.5) * step + rng.uniform(-8, 8))
        name = names[int(pick)]
        angle = float(rng.uniform(-180, 180))
        quad = paste_card(frame, make(name), centre, length, angle,
                          tilt=float(rng.uniform(0.0, 0.06)))
        cards.append(_label(name, quad))
        if rest and rng.uniform() < 0.3:
            # A card laid partly over it, as the next card of a trick.
            over = names[int(rest.pop())]
            turn = np.deg2rad(angle)
            shift = 0.55 * length * np.array([-np.sin(turn), np.cos(turn)])
            quad = paste_card(frame, make(over), (centre[0] + shift[0], centre[1] + shift[1]),
                              length, angle + float(rng.uniform(-25, 25)))
            cards.append(_label(over, quad))
    return camera_look(frame, rng), cards


def _label(name: str, quad: np.ndarray) -> dict[str, Any]:
    """A labels.json card: its name, box and quad."""
    xs, ys = quad[:, 0], quad[:, 1]
    return {"card": name, "box": [float(xs.min()), float(ys.min()), float(xs.max()),
                                  float(ys.max())],
            "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in quad]}


def render_scenes(out: Path, design: str, length: float, count: int, seed: int) -> int:
    """Write `count` labelled scenes of one design into `out` (images and labels.json)."""
    set_name = f"{design}_{length:g}"
    (out / set_name).mkdir(parents=True, exist_ok=True)
    images: dict[str, Any] = {}
    for k in range(count):
        frame, cards = scene(design, length, seed * 100_000 + k)
        key = f"{set_name}/{seed}_{k:04d}.jpg"
        cv2.imwrite(str(out / key), frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
        images[key] = {"set": set_name, "cards": cards, "card_length": length}
    labels = out / "labels.json"
    document = read_labels(labels) if labels.exists() else {"sets": {}, "images": {}}
    document["sets"][set_name] = {"description": f"rendered {design} deck at {length:g} px"}
    document["images"].update(images)
    labels.write_text(json.dumps(document))
    return count


def main(argv: list[str] | None = None) -> int:
    """Collect candidates of a labelled folder, or render scenes."""
    parser = argparse.ArgumentParser(prog="decision_data", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    dev = commands.add_parser("dev")
    dev.add_argument("folder", type=Path)
    dev.add_argument("--half", choices=("training", "measured", "all"), default="all")
    dev.add_argument("--out", type=Path, required=True)
    dev.add_argument("--photo", action="store_true",
                     help="read as photographed (a photo's settings), not in a play-area view")
    again = commands.add_parser("reweigh")
    again.add_argument("candidates", type=Path)
    again.add_argument("folder", type=Path)
    again.add_argument("--out", type=Path, required=True)
    again.add_argument("--photo", action="store_true",
                       help="the candidates were read as photographed")
    scenes = commands.add_parser("scenes")
    scenes.add_argument("out", type=Path)
    scenes.add_argument("--design", choices=sorted(DESIGNS) + sorted(HELD_OUT),
                        required=True)
    scenes.add_argument("--length", type=float, default=140.0)
    scenes.add_argument("--count", type=int, default=40)
    scenes.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        if args.command == "scenes":
            render_scenes(args.out, args.design, args.length, args.count, args.seed)
            return 0
        if args.command == "reweigh":
            reweigh(args.candidates, args.folder, args.out, photo=args.photo)
            return 0
        document = read_labels(args.folder / "labels.json")
        keys = None
        if args.half != "all":
            training = training_keys(document["images"])
            keys = training if args.half == "training" else set(document["images"]) - training
        collect(args.folder, args.out, keys, photo=args.photo)
    except VisionError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
