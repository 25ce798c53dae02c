"""`cardtable deck enroll --camera`: the cards asked for one at a time, the profile written."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from vision.enrol_camera import CameraEnrolment, card_label, enrolment_cards


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
    from drivers.errors import DriverError
    from vision.errors import VisionError
    from vision.model import GlyphModel

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
    from vision.errors import VisionError

    if problem:
        print(f"{problem} before every card was learnt", file=sys.stderr)
    if not any(name for name in enrolment.learnt if name != "JK"):
        print("error: no card was learnt; nothing written", file=sys.stderr)
        return 1
    try:
        profile = enrolment.profile()
        if add and out.exists():
            from vision.model import GlyphModel
            from vision.profile import with_profile

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
