"""Measure known-deck reading: recall, wrong names and match margins, with and without a profile.

Cases: `vosloo_crops` (one variant per card enrolled, the other eight measured), `phone_felt`
and `felt_tricks` (`--cases felt`; each enrolled from its training half through the labelled
outlines, measured on the other half), the drawn deck of `tools/drawn_deck.py` (enrolled
from single renders, measured on scenes) and, with `--designs`, any design of
`tools.decision_data` (`--designs anglo_poker,rheinland,tango`: the Debian deck themes the
readers never trained on; enrolled from single renders, measured on the play-area views of
`decision_data scenes` at seed 7). Each case prints the CPU per labelled card read without and
with the profile.
Run: .venv/bin/python -m tools.deck_measure [--scaled DIR140 DIR95] [--scenes N] [--table]
[--designs NAMES]
With --table every case is read with the table's settings for a play-area view
(`vision.live.view_config`: outlines sought at up to 1088 px), not a photo's (shrunk to 640 px).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from tools.decision_data import design_of, scene
from tools.drawn_deck import EUCHRE, camera_look, drawn_scene, single_render
from tools.scenes import paste_card, table_background
from tools.split import training_keys
from vision.cards import CardObservation, Image, Quad
from vision.config import VisionConfig
from vision.deck_config import DeckMatchConfig
from vision.deck_faces import DeckFaces, face_views
from vision.deck_match import DeckMatcher
from vision.errors import VisionError
from vision.imageio import read_image
from vision.live import LiveConfig, view_config
from vision.model import GlyphModel
from vision.pipeline import recognise
from vision.profile import enroll_images
from vision.tracker import TrackerConfig

SHARED = Path(os.environ.get("CARDTABLE_SHARED", Path(__file__).resolve().parents[2] / "shared"))
NOT_EUCHRE = ("2H", "5S", "7C", "8D", "3S", "6H", "--")
TABLE_CONFIDENCE = TrackerConfig().read_confidence
"""A reading counts as the table's vote from this confidence (names below are asked)."""


@dataclass(frozen=True)
class Truth:
    """A labelled card: its name (None where unknown), outline, and whether recall counts it."""

    name: str | None
    corners: Quad
    counted: bool


@dataclass
class Tally:
    """Right and wrong names, and margins of the right card's match over the next card's."""

    counted: int = 0
    right: int = 0
    wrong: int = 0
    margins: list[float] = field(default_factory=list)
    stranger_margins: list[float] = field(default_factory=list)
    """Best-match leads on cards that are not in the profile (a 2-8 or a blank)."""
    wrongs: list[str] = field(default_factory=list)
    other_wrong: int = 0
    """Wrong names that are not euchre cards (a 6 read as an 8)."""
    overrides: list[bool] = field(default_factory=list)
    """Per card the profile renamed from the glyph reader's reading: whether it was right."""
    lost: list[str] = field(default_factory=list)
    """Counted cards named rightly without the profile and not with it."""
    taken_right: int = 0
    taken_wrong: int = 0
    """Counted cards named rightly, and wrong euchre names, at the confidence the table takes
    a reading at (`TrackerConfig.read_confidence`)."""
    cards: int = 0
    seconds: float = 0.0
    """Labelled cards read (counted or not) and the CPU time of reading their frames."""

    def ms_per_card(self) -> float:
        """The CPU time of reading per labelled card, in milliseconds."""
        return 1000.0 * self.seconds / max(1, self.cards)

    def row(self) -> str:
        recall = self.right / self.counted if self.counted else float("nan")
        return f"{self.counted:4d} {recall:6.3f} {self.wrong:3d} ({self.other_wrong} other)"

    def taken_row(self) -> str:
        recall = self.taken_right / self.counted if self.counted else float("nan")
        return f"{self.counted:4d} {recall:6.3f} {self.taken_wrong:3d}"


def inside(point: np.ndarray, quad: Quad) -> bool:
    """Whether a point lies inside a card outline."""
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2).astype(np.float32),
                                (float(point[0]), float(point[1])), False) >= 0


def tally_image(observations: list[CardObservation], truths: list[Truth],
                tally: Tally) -> set[int]:
    """Add one image's named observations to the tally (one right name per truth card); the
    truth cards named rightly."""
    named = set()
    for truth in truths:
        tally.counted += truth.counted
    for observation in observations:
        if observation.name is None:
            continue
        centre = observation.corners.mean(axis=0)
        hits = [k for k, t in enumerate(truths) if inside(centre, t.corners)]
        match = next((k for k in hits if truths[k].name == observation.name), None)
        taken = observation.confidence >= TABLE_CONFIDENCE
        if match is not None and match not in named:
            named.add(match)
            tally.right += truths[match].counted
            tally.taken_right += truths[match].counted and taken
        elif not (hits and all(truths[k].name is None for k in hits)):
            euchre = observation.name[0] in "9TJQKA"
            tally.wrong += euchre
            tally.taken_wrong += euchre and taken
            tally.other_wrong += not euchre
            seen = truths[hits[0]].name if hits else "nothing"
            tally.wrongs.append(f"{seen}->{observation.name} {observation.confidence:.2f}")
    return named


def tally_overrides(before: list[CardObservation], after: list[CardObservation],
                    truths: list[Truth], tally: Tally) -> None:
    """Note each outline the profile renamed from another name the glyph reader gave it."""
    for old in before:
        new = next((o for o in after if o.whole and np.array_equal(o.corners, old.corners)), None)
        if new is None or old.name is None or new.name is None or new.name == old.name:
            continue
        centre = new.corners.mean(axis=0)
        tally.overrides.append(any(t.name == new.name and inside(centre, t.corners)
                                   for t in truths))


def tally_margins(matcher: DeckMatcher, frame: Image, truths: list[Truth], tally: Tally) -> None:
    """Margins at the labelled outlines: the right card's similarity less the best other's."""
    for truth in truths:
        if truth.name is None or (not truth.counted and truth.name != "--"):
            continue
        card = face_views_frame(matcher, frame, truth.corners)
        scores = {name: float(card[matcher.names == name].max()) for name in matcher.distinct}
        if truth.name in scores:
            others = [s for n, s in scores.items() if n != truth.name]
            tally.margins.append(scores[truth.name] - max(others))
        else:
            ranked = sorted(scores.values(), reverse=True)
            tally.stranger_margins.append(ranked[0] - ranked[1])


def face_views_frame(matcher: DeckMatcher, frame: Image, corners: Quad) -> np.ndarray:
    """Per-sample similarities of the outlined card."""
    scores: np.ndarray = matcher.looks(frame, [corners])[0][0]
    return scores


def quantiles(values: list[float]) -> str:
    """Least, 1st and 5th percentile and median of a list of margins."""
    if not values:
        return "-"
    least, p1, p5, median = np.percentile(values, [0, 1, 5, 50])
    return f"min {least:+.3f} p1 {p1:+.3f} p5 {p5:+.3f} median {median:+.3f} (n {len(values)})"


def measure(name: str, frames: Iterable[tuple[Image, list[Truth]]], base: GlyphModel,
            profiled: GlyphModel, config: VisionConfig) -> None:
    """Print one case's row: recall and wrong names without and with the profile, margins."""
    assert profiled.deck is not None
    matcher = DeckMatcher(profiled.deck)
    plain, known = Tally(), Tally()
    for frame, truths in frames:
        started = time.thread_time()
        before = recognise(frame, base, config)
        between = time.thread_time()
        after = recognise(frame, profiled, config)
        plain.seconds += between - started
        known.seconds += time.thread_time() - between
        plain.cards += len(truths)
        known.cards += len(truths)
        right_before = tally_image(before, truths, plain)
        right_after = tally_image(after, truths, known)
        known.lost += [str(truths[k].name) for k in sorted(right_before - right_after)
                       if truths[k].counted]
        tally_overrides(before, after, truths, known)
        tally_margins(matcher, frame, truths, known)
    print(f"{name:28s} without {plain.row()}  with {known.row()}", flush=True)
    print(f"{'  taken at the table':28s} without {plain.taken_row()}  with {known.taken_row()}")
    print(f"{'':28s} right-card margin {quantiles(known.margins)}")
    print(f"{'':28s} CPU per card {plain.ms_per_card():.2f} ms without, "
          f"{known.ms_per_card():.2f} ms with "
          f"({known.ms_per_card() - plain.ms_per_card():+.2f} ms)")
    if known.overrides:
        print(f"{'':28s} renamed from the glyph reader's name: {sum(known.overrides)} right, "
              f"{len(known.overrides) - sum(known.overrides)} wrong")
    if known.stranger_margins:
        print(f"{'':28s} not-in-profile lead {quantiles(known.stranger_margins)}")
    if known.lost:
        print(f"{'':28s} named without the profile, not with it: {', '.join(known.lost)}")
    for label, tally in (("without", plain), ("with", known)):
        if tally.wrongs:
            print(f"{'':28s} wrong {label}: {', '.join(tally.wrongs)}")


def labelled(root: Path) -> dict[str, dict[str, object]]:
    """The images of a labelled folder."""
    images: dict[str, dict[str, object]] = json.loads((root / "labels.json").read_text())["images"]
    return images


def truths_of(record: dict[str, object]) -> list[Truth]:
    """The labelled cards of one image."""
    out = []
    for card in record["cards"]:  # type: ignore[attr-defined]
        name = card.get("card")
        counted = bool(name) and name[0] in "9TJQKA" and not card.get("partial")
        out.append(Truth(name, np.array(card["quad"], np.float32), counted))
    return out


def vosloo(roots: list[tuple[str, Path]], base: GlyphModel, config: VisionConfig) -> None:
    """Enrol variant 00 of each card (as photographed), measure the other eight per scale."""
    folder = SHARED / "vision" / "dev" / "vosloo_crops"
    photos = [(path.stem.split("_")[0].replace("10", "T"), path)
              for path in sorted(folder.glob("*_00.jpg"))]
    profile, failed = enroll_images(photos, config)
    if failed:
        print(f"vosloo_crops: no index read on {failed} (faces still enrolled)")
    profiled = GlyphModel(base.ranks, base.suits, base.faces, profile.deck)
    for scale, root in roots:
        images = labelled(root)
        keys = [k for k in images if k.startswith("vosloo_crops/") and "_00." not in k]
        frames = ((read_image(root / "dev" / k), truths_of(images[k])) for k in sorted(keys))
        measure(f"vosloo_crops {scale}", frames, base, profiled, config)


FULLY_SHOWN = 0.95
"""A labelled card is enrolled only where at least this share of it is in view."""


def enrolled_from_half(set_name: str, roots: list[tuple[str, Path]], base: GlyphModel,
                       config: VisionConfig) -> None:
    """Enrol each card once from a set's training half (its labelled outlines, as
    photographed, where no other card lies over it), measure its other half at every scale."""
    images = labelled(SHARED / "vision")
    keys = sorted(k for k in images if k.startswith(f"{set_name}/"))
    training = training_keys(keys)
    samples = {}
    for key in sorted(training):
        frame = read_image(SHARED / "vision" / "dev" / key)
        cards = images[key]["cards"]
        for truth, card in zip(truths_of(images[key]), cards, strict=True):  # type: ignore[call-overload]
            # Enrolled as a card is shown to `deck enroll`: whole, nothing lying over it.
            shown = (card.get("visible_fraction") or 1.0) >= FULLY_SHOWN
            if truth.name and truth.counted and shown and truth.name not in samples:
                samples[truth.name] = face_views(frame, truth.corners, DeckMatchConfig())
    deck = DeckFaces.of(sorted(samples.items()))
    print(f"{set_name}: {len(samples)} cards enrolled: {' '.join(sorted(samples))}")
    profiled = GlyphModel(base.ranks, base.suits, base.faces, deck)
    for scale, root in roots:
        scaled = labelled(root)
        measured = [k for k in keys if k not in training]
        frames = ((read_image(root / "dev" / k), truths_of(scaled[k])) for k in measured)
        measure(f"{set_name} {scale}", frames, base, profiled, config)


def drawn_frames(long_side: float, seeds: Iterable[int]) -> Iterator[tuple[Image, list[Truth]]]:
    """Scenes of the drawn deck: every euchre card once per three scenes, strangers among them."""
    for seed in seeds:
        rng = np.random.default_rng(1000 + seed)
        names = [str(n) for n in rng.permutation(list(EUCHRE))[:8]]
        names += [str(rng.choice(NOT_EUCHRE))]
        frame, cards = drawn_scene(names, long_side, seed)
        yield frame, [Truth(None if c.name == "--" else c.name, c.corners, c.name in EUCHRE)
                      for c in cards]


def drawn(scenes: int, base: GlyphModel, config: VisionConfig, out: Path,
          first_scene: int = 0, table: bool = False) -> None:
    """Enrol the drawn deck from single renders (through `deck enroll`'s folder path); with
    `table`, its scenes (the table's views) are read knowing the card length."""
    out.mkdir(parents=True, exist_ok=True)
    for name in EUCHRE:
        cv2.imwrite(str(out / f"{name}.png"), single_render(name, seed=EUCHRE.index(name)))
    photos = [(name, out / f"{name}.png") for name in EUCHRE]
    profile, _ = enroll_images(photos, config)
    profiled = GlyphModel(base.ranks, base.suits, base.faces, profile.deck)
    for long_side in (140, 95):
        measure(f"drawn deck {long_side} px",
                drawn_frames(long_side, range(first_scene, first_scene + scenes)), base,
                profiled, reading_config(True, long_side) if table else config)


SCENE_SEED = 7
"""The seed of the designs' scenes: that of the record of decks never seen, never fitted on."""
RENDER_SIDE = 320
"""The side of a design's single render, the card 200 px long in its middle."""


def designs(names: list[str], scenes: int, base: GlyphModel, out: Path) -> None:
    """Enrol each design of `tools.decision_data` from single renders of its euchre faces
    (through `deck enroll`'s folder path), then read `scenes` of its play-area views at 140 and
    95 px as the table does, knowing the card length."""
    for design in names:
        make, cards = design_of(design)
        folder = out / design
        folder.mkdir(parents=True, exist_ok=True)
        photos = []
        for k, name in enumerate(c for c in cards if c in EUCHRE):
            rng = np.random.default_rng(k)
            frame = table_background(RENDER_SIDE, RENDER_SIDE, seed=k)
            paste_card(frame, make(name), (RENDER_SIDE / 2, RENDER_SIDE / 2), 200.0,
                       angle=float(rng.uniform(-20, 20)))
            path = folder / f"{name}.png"
            # One light for the whole deck, as `deck enroll` sees it in one sitting.
            cv2.imwrite(str(path), camera_look(frame, np.random.default_rng(0)))
            photos.append((name, path))
        profile, failed = enroll_images(photos, reading_config(True))
        print(f"{design}: {len(photos)} cards enrolled"
              + (f" (no index read on {', '.join(failed)}; faces still enrolled)"
                 if failed else ""))
        profiled = GlyphModel(base.ranks, base.suits, base.faces, profile.deck)
        for length in (140, 95):
            frames = design_frames(design, length, scenes)
            measure(f"{design} {length} px", frames, base, profiled,
                    reading_config(True, length))


def design_frames(design: str, length: float, scenes: int
                  ) -> Iterator[tuple[Image, list[Truth]]]:
    """A design's play-area views (`tools.decision_data.scene`, seed `SCENE_SEED`), each
    euchre card counted where no other card lies over or under it (the table's whole cards)."""
    for k in range(scenes):
        frame, labels = scene(design, length, SCENE_SEED * 100_000 + k)
        quads = [np.array(label["quad"], np.float32) for label in labels]
        yield frame, [Truth(label["card"], quad, label["card"] in EUCHRE and not any(
            overlap(quad, other) for j, other in enumerate(quads) if j != n))
            for n, (label, quad) in enumerate(zip(labels, quads, strict=True))]


def overlap(a: Quad, b: Quad) -> bool:
    """Whether two card outlines share any area."""
    area, _ = cv2.intersectConvexConvex(a.reshape(-1, 1, 2), b.reshape(-1, 1, 2))
    return float(area) > 1.0


def reading_config(table: bool, card_length: float | None = None) -> VisionConfig:
    """The recognition settings the cases are read with: a photo's, or the table's for a
    play-area view (`vision.live.view_config`), knowing the card length when given (as the
    table does once it has named a card)."""
    if not table:
        return VisionConfig()
    return replace(view_config(VisionConfig(), LiveConfig()), card_length=card_length)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scaled", nargs=2, type=Path, metavar=("DIR140", "DIR95"),
                        help="scale.py copies of vosloo_crops and phone_felt at 140 and 95 px")
    parser.add_argument("--scenes", type=int, default=30)
    parser.add_argument("--first-scene", type=int, default=0,
                        help="the drawn deck's first scene (the standing figures use 0; "
                             "settings are tried on others, such as 100)")
    parser.add_argument("--cases", default="vosloo,phone,drawn")
    parser.add_argument("--renders", type=Path, default=Path("/tmp/drawn_deck_enrol"))
    parser.add_argument("--designs", default="",
                        help="decision_data designs to enrol and read, comma-separated "
                             "(anglo_poker,rheinland,tango: the themes never trained on)")
    parser.add_argument("--table", action="store_true",
                        help="read with the table's settings for a play-area view "
                             "(vision.live.view_config) instead of a photo's")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    config = reading_config(args.table)
    base = GlyphModel.load()
    roots = [("as photographed", SHARED / "vision")]
    if args.scaled:
        roots += [("140 px", args.scaled[0]), ("95 px", args.scaled[1])]
    print(f"{'case':28s} {'':7s} cards recall wrong-euchre  cards recall wrong-euchre")
    cases = set(args.cases.split(","))
    if "vosloo" in cases:
        vosloo(roots, base, config)
    if "phone" in cases:
        enrolled_from_half("phone_felt", roots, base, config)
    if "felt" in cases:
        enrolled_from_half("felt_tricks", roots, base, config)
    if "drawn" in cases:
        drawn(args.scenes, base, config, args.renders, args.first_scene, args.table)
    if args.designs:
        try:
            designs(args.designs.split(","), args.scenes, base, args.renders)
        except VisionError as error:
            print(f"deck_measure: {error}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
