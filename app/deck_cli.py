"""`cardtable deck enroll`: a deck learnt from photos, or from the camera one card at a time."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.enrol_camera import CameraEnrolment


def register(subparsers: Any) -> None:
    """Add the `deck` command group."""
    deck = subparsers.add_parser("deck", help="deck profiles")
    deck_cmds = deck.add_subparsers(dest="deck_command", metavar="ACTION", required=True)
    enroll = deck_cmds.add_parser(
        "enroll", help="learn a deck from single-card photos, or from the camera one card at a time"
    )
    enroll.add_argument("folder", type=Path, nargs="?", metavar="FOLDER",
                        help="photos named by card, such as JH.jpg or JK.jpg (the joker)")
    enroll.add_argument("--camera", metavar="SOURCE",
                        help="learn from the camera instead: usb[:N], picamera2[:N] or "
                             "recorded:PATH (a video or a folder of frames)")
    enroll.add_argument("--cards", metavar="LIST",
                        help="with --camera: the cards to learn, such as 9C,TD,JK "
                             "(default: the 24 cards, then the joker)")
    enroll.add_argument("--add", action="store_true",
                        help="with --camera: add the cards learnt to the profile already in --out")
    enroll.add_argument("--out", type=Path, required=True, metavar="PROFILE.npz")
    enroll.set_defaults(handler=run_enroll)


def run_enroll(args: argparse.Namespace) -> int:
    """Handle `deck enroll`."""
    if (args.folder is None) == (args.camera is None):
        print("error: give either a FOLDER of card photos or --camera SOURCE", file=sys.stderr)
        return 2
    if args.camera is not None:
        return enrol_from_camera(args.camera, args.cards, args.out, args.add)
    from vision.api import VisionConfig, VisionError, enroll_images, folder_images

    try:
        photos = folder_images(args.folder)
        profile, failed = enroll_images(photos, VisionConfig())
    except VisionError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    profile.save(args.out)
    print(f"wrote {args.out}: {len(profile.ranks.labels)} index glyphs, "
          f"{len(profile.faces)} faces{' (joker included)' if profile.faces.has_joker else ''}")
    if failed:
        print(f"no index read on: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


def camera_source(text: str) -> Any:
    """A frame source from `usb[:N]`, `picamera2[:N]`, `recorded:PATH` or a bare recording path."""
    from drivers.camera import CameraSettings, make_source

    kind, _, target = text.partition(":")
    if kind not in ("usb", "picamera2", "recorded"):
        kind, target = "recorded", text
    return make_source(kind, CameraSettings(), target or None, loop=False)


def enrol_from_camera(
    source_text: str, cards_text: str | None, out: Path, add: bool = False
) -> int:
    """Run an enrolment from the camera; the profile learnt so far is written even if stopped."""
    from app.enrol_camera import CameraEnrolment, enrolment_cards
    from drivers.errors import DriverError
    from vision.api import GlyphModel, VisionError

    try:
        cards = enrolment_cards(cards_text)
        source = camera_source(source_text)
        source.open()
    except (VisionError, DriverError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    enrolment = CameraEnrolment(cards, GlyphModel.load())
    print(f"learning {len(cards)} cards from {source_text}: show each card alone, face up, "
          "and hold it still until it is learnt", flush=True)
    problem = None
    try:
        while not enrolment.done:
            frame = source.read()
            if frame is None:
                problem = "the recording ended"
                break
            for prompt in enrolment.feed(frame):
                print(prompt.message, flush=True)
    except KeyboardInterrupt:
        problem = "stopped"
    except DriverError as error:
        problem = f"camera failed: {error}"
    finally:
        source.close()
    return _write(enrolment, out, problem, add)


def _write(enrolment: CameraEnrolment, out: Path, problem: str | None, add: bool) -> int:
    """Save what was learnt and say what is missing; 0 only when every card was learnt."""
    from app.enrol_camera import card_label
    from vision.api import VisionError

    if problem:
        print(f"{problem} before every card was learnt", file=sys.stderr)
    if not any(name for name in enrolment.learnt if name != "JK"):
        print("error: no card was learnt; nothing written", file=sys.stderr)
        return 1
    try:
        profile = enrolment.profile()
        if add and out.exists():
            from vision.api import GlyphModel, with_profile

            profile = with_profile(GlyphModel.load(out), profile)
        profile.save(out)
    except (VisionError, OSError) as error:
        print(f"error: cannot write {out}: {error}", file=sys.stderr)
        return 2
    print(f"wrote {out}: {len(enrolment.learnt)} cards learnt")
    if enrolment.missing:
        missing = ", ".join(card_label(name) for name in enrolment.missing)
        print(f"not learnt: {missing} (run again with --cards and --add to add them)",
              file=sys.stderr)
        return 1
    return 0
