"""`cardtable vision ...` subcommands (heavy imports inside handlers)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any


def _default_shared() -> Path:
    """The shared photo folder: $CARDTABLE_SHARED/vision, else ../shared/vision by the checkout."""
    root = os.environ.get("CARDTABLE_SHARED")
    base = Path(root) if root else Path(__file__).resolve().parents[2] / "shared"
    return base / "vision"


DEFAULT_SHARED = _default_shared()


def register(subparsers: Any) -> None:
    """Add the `vision` command group."""
    vision = subparsers.add_parser("vision", help="recognise cards in photos")
    vision_cmds = vision.add_subparsers(dest="vision_command", metavar="ACTION", required=True)

    detect = vision_cmds.add_parser("detect", help="find and read the cards in images")
    detect.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    detect.add_argument("--json", action="store_true", help="one JSON line per image")
    detect.add_argument("--annotate", type=Path, metavar="OUTDIR",
                        help="write each image with outlines and labels drawn")
    detect.add_argument("--deck", type=Path, metavar="PROFILE", help="deck profile (.npz)")
    detect.set_defaults(handler=run_detect)

    evaluate = vision_cmds.add_parser("eval", help="score recognition on a labelled folder")
    evaluate.add_argument("folder", nargs="?", type=Path, default=DEFAULT_SHARED, metavar="DIR",
                          help="folder holding labels.json (default: ../shared/vision)")
    evaluate.add_argument("--deck", type=Path, metavar="PROFILE", help="deck profile (.npz)")
    evaluate.add_argument("--out", type=Path, metavar="PRED.jsonl",
                          help="also keep the predictions in this file")
    evaluate.add_argument("--halves", action="store_true",
                          help="also score edje_train's fit and measure halves apart")
    evaluate.add_argument("--measured", action="store_true",
                          help="score only the measured half of every set (never trained on)")
    evaluate.add_argument("--scale", type=_card_length, action="append", default=[],
                          metavar="PX",
                          help="also score the folder shrunk to this card length in pixels, as "
                               "the table camera sees cards (140 at 1080p, 95 at 720p); "
                               "repeatable")
    evaluate.add_argument("--in-frame", action="store_true",
                          help="set each shrunk photo into a play-area view (1080x1080 at 140 px, "
                               "in proportion otherwise) and search it as the table does")
    evaluate.add_argument("--whole", action="store_true",
                          help="count in recall only cards no other labelled card overlaps (the "
                               "table sees each card whole when it is played); names given to "
                               "covered cards are still judged")
    evaluate.set_defaults(handler=run_eval)

    clips = vision_cmds.add_parser("clips", help="score the tracker on labelled recorded clips")
    clips.add_argument("folder", nargs="?", type=Path, default=DEFAULT_SHARED / "clips",
                       metavar="DIR", help="videos with a NAME.json label beside each "
                                           "(default: ../shared/vision/clips)")
    clips.add_argument("--json", action="store_true",
                       help="one JSON object per clip, then one for the total")
    clips.add_argument("--clip", action="extend", nargs="+", default=[], metavar="NAME",
                       help="score only these clips (label file names without .json)")
    clips.set_defaults(handler=run_clips)

    fit = vision_cmds.add_parser("fit-model", help="rebuild the shipped glyph model")
    fit.add_argument("--shared", type=Path, default=DEFAULT_SHARED, metavar="DIR",
                     help="folder with artwork/ and the edje_train photos")
    fit.add_argument("--out", type=Path, default=None, metavar="MODEL.npz")
    fit.set_defaults(handler=run_fit)

    from app.vision_live_cli import add_vision_commands

    add_vision_commands(vision_cmds)


def _load_model(deck: Path | None) -> Any:
    """The shipped model, with a deck profile added when one is given."""
    from vision.api import GlyphModel, with_profile

    model = GlyphModel.load()
    if deck is not None:
        model = with_profile(model, GlyphModel.load(deck))
    return model


def run_detect(args: argparse.Namespace) -> int:
    """Handle `vision detect`."""
    import time

    import cv2

    from app.annotate import annotate
    from tools.evaluate import image_record
    from vision.api import VisionError, read_image, recognise

    try:
        model = _load_model(args.deck)
    except VisionError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.annotate:
        args.annotate.mkdir(parents=True, exist_ok=True)
    status = 0
    for path in args.images:
        try:
            frame = read_image(path)
        except VisionError as error:
            print(f"error: {error}", file=sys.stderr)
            status = 2
            continue
        start = time.perf_counter()
        observations = recognise(frame, model)
        ms = (time.perf_counter() - start) * 1000.0
        if args.json:
            print(json.dumps(image_record(str(path), observations, ms)))
        else:
            print(f"{path}: {len(observations)} card(s), {ms:.1f} ms")
            for o in observations:
                x, y = o.corners.mean(axis=0)
                label = o.name or "unreadable"
                where = "" if o.whole else " (corner only)"
                print(f"  {label:<11} confidence {o.confidence:.2f} at ({x:.0f}, {y:.0f}){where}")
        if args.annotate:
            cv2.imwrite(str(args.annotate / (path.stem + ".png")), annotate(frame, observations))
    return status


def _card_length(text: str) -> float:
    """A card length in pixels for `--scale`: a positive number."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not (value > 0 and value < 1e5):
        raise argparse.ArgumentTypeError(f"card length {text!r} is not a positive number of pixels")
    return value


def _scaled_out(out: Path | None, px: float) -> Path | None:
    """Where the predictions at one card length are kept, beside those of `--out`."""
    return None if out is None else out.with_name(f"{out.stem}-{px:g}px{out.suffix}")


def run_eval(args: argparse.Namespace) -> int:
    """Handle `vision eval`."""
    from tools.evaluate import score_folder
    from tools.scaling import cached_scaled_folder
    from tools.table_frame import cached_frame_folder, frame_size
    from vision.api import LiveConfig, VisionConfig, VisionError, view_config

    folder: Path = args.folder
    scorer = folder / "score.py"
    if not scorer.exists():
        scorer = DEFAULT_SHARED / "score.py"
    if not (folder / "labels.json").exists() or not scorer.exists():
        print(f"error: {str(folder)!r} has no labels.json or no score.py is found", file=sys.stderr)
        return 2
    try:
        model = _load_model(args.deck)
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            photo = VisionConfig()
            view = view_config(photo, LiveConfig()) if args.in_frame else photo
            runs: list[tuple[str, Path, Path | None, VisionConfig]] = [
                ("as photographed", folder, args.out, photo)]
            for px in args.scale:
                scaled = cached_scaled_folder(folder, px)
                heading = f"at {px:g} px card length"
                if args.in_frame:
                    scaled = cached_frame_folder(scaled, px)
                    heading += (" in a {}x{} play-area view (smaller for a photo whose cards are"
                                " shorter)").format(*frame_size(px))
                runs.append((heading, scaled, _scaled_out(args.out, px), view))
            status = 0
            for number, (heading, source, out, config) in enumerate(runs):
                if args.scale:
                    print(("\n" if number else "") + heading + ":", flush=True)
                predictions = out or work / f"predictions-{number}.jsonl"
                # The table knows its cards' length from the cards it has read (vision.live);
                # a photo set in a play-area view tells it by its labels (tools.table_frame).
                status = max(status, score_folder(
                    source, scorer, model, config, predictions, work / str(number),
                    measured=args.measured, halves=args.halves,
                    knowing_length=args.in_frame and number > 0,
                    options=("--whole",) if args.whole else ()))
            return status
    except VisionError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def run_clips(args: argparse.Namespace) -> int:
    """Handle `vision clips`: a measure, so 0 once every clip is scored."""
    from tools.clip_score import ClipError, report
    from vision.api import VisionError

    try:
        return report(args.folder, args.clip, args.json)
    except (ClipError, VisionError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def run_fit(args: argparse.Namespace) -> int:
    """Handle `vision fit-model`."""
    from tools.fitting import fit_model
    from tools.glyph_fonts import FontMissingError
    from vision.api import DEFAULT_MODEL, VisionConfig

    shared: Path = args.shared
    if not (shared / "artwork").is_dir():
        print(f"error: no artwork/ folder in {str(shared)!r}", file=sys.stderr)
        return 2
    try:
        model = fit_model(shared / "artwork", shared, VisionConfig())
    except FontMissingError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    out = args.out or DEFAULT_MODEL
    model.save(out)
    print(f"wrote {out}: {len(model.ranks.labels)} rank and {len(model.suits.labels)} suit glyphs")
    return 0
