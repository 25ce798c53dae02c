"""`cardtable calibrate`, `cardtable vision synth` and `cardtable vision track` (lazy imports)."""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

CAMERA_PREFIXES = ("usb", "picamera2", "camera")


def register(subparsers: Any) -> None:
    """Add the top-level `calibrate` command."""
    calibrate = subparsers.add_parser(
        "calibrate", help="mark the play area and the four seat zones on the camera view",
        description=(
            "Shows the camera view in a window; click the corners of the play area and of each "
            "seat zone (N, E, S, W) and save. With --still, draws given zones and the cards "
            "found on one image into an annotated PNG instead (no window needed)."))
    calibrate.add_argument("--still", type=Path, metavar="IMAGE",
                           help="work on this image without a window")
    calibrate.add_argument("--zones", metavar="ZONES",
                           help="zones to start from: a JSON or TOML calibration file, inline "
                                "JSON, or 'default' (play area cut along its diagonals)")
    calibrate.add_argument("--out", type=Path, metavar="PNG",
                           help="annotated image (with --still; default IMAGE_zones.png)")
    calibrate.add_argument("--save", type=Path, metavar="FILE",
                           help="write the calibration here (.json, or the [calibration] table "
                                "of a .toml config)")
    calibrate.add_argument("--camera", default="usb:0", metavar="KIND[:TARGET]",
                           help="camera for the window: usb:0, picamera2, or a recording path")
    calibrate.add_argument("--config", type=Path, metavar="HARDWARE.toml",
                           help="take the camera from this config; the calibration is saved "
                                "into it unless --save is given")
    calibrate.add_argument("--deck", type=Path, metavar="PROFILE", help="deck profile (.npz)")
    calibrate.set_defaults(handler=run_calibrate)


def add_vision_commands(vision_subparsers: Any) -> None:
    """Add `synth` and `track` to the `cardtable vision` group."""
    synth = vision_subparsers.add_parser(
        "synth", help="render a table log being played as camera frames with true events")
    synth.add_argument("--log", type=Path, required=True, metavar="GAME.jsonl")
    synth.add_argument("--out", type=Path, required=True, metavar="DIR")
    synth.add_argument("--seed", type=int, default=0)
    synth.add_argument("--size", default="1280x720", metavar="WxH")
    synth.add_argument("--fps", type=float, default=10.0)
    synth.add_argument("--tricks", type=int, default=None, metavar="N",
                       help="render only the first N tricks")
    synth.add_argument("--plain", action="store_true",
                       help="no lighting changes, shadow, blur, noise, hand passes or nudges")
    synth.add_argument("--card-px", type=float, default=None, metavar="PX",
                       help="the cards' long side on the table, in pixels (default: a quarter "
                            "of the frame's height; a camera over the table shows 90-140)")
    synth.set_defaults(handler=run_synth)

    track = vision_subparsers.add_parser(
        "track",
        help="print card events (placed, removed, unreadable, identified) from a camera stream")
    track.add_argument("source", metavar="SOURCE",
                       help="video file, folder of frames, or a camera: usb:0, picamera2")
    track.add_argument("--json", action="store_true", help="one JSON line per event")
    track.add_argument("--zones", metavar="ZONES",
                       help="calibration (.json or .toml), inline JSON, or 'default' (the frame "
                            "cut along its diagonals); a synth folder carries its own")
    track.add_argument("--fps", type=float, default=None,
                       help="frame rate of a recording (default: scene.json, the video's, or 30)")
    track.add_argument("--stable", type=float, default=0.3, metavar="SECONDS",
                       help="how long a card must lie still (or be gone) before it counts")
    track.add_argument("--deck", type=Path, metavar="PROFILE", help="deck profile (.npz)")
    track.add_argument("--check", action="store_true",
                       help="compare with the folder's truth.jsonl; exit 1 on any mistake")
    track.set_defaults(handler=run_track)


def _error(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _size(text: str) -> tuple[int, int]:
    width, _, height = text.lower().partition("x")
    if not (width.isdigit() and height.isdigit()):
        raise ValueError(f"size {text!r} is not WIDTHxHEIGHT")
    return int(width), int(height)


def _load_model(deck: Path | None) -> Any:
    from vision.api import GlyphModel, with_profile

    model = GlyphModel.load()
    return with_profile(model, GlyphModel.load(deck)) if deck is not None else model


def zones_from_argument(text: str, width: int, height: int) -> Any:
    """Zones from a file path, inline JSON or 'default', for frames of width x height."""
    from vision.api import CalibrationError, TableZones, default_zones, load_zones

    if text == "default":
        return default_zones(width, height)
    if text.lstrip().startswith("{"):
        try:
            return TableZones.from_dict(json.loads(text))
        except json.JSONDecodeError as error:
            raise CalibrationError(f"--zones is not JSON: {error}") from error
    return load_zones(Path(text))


def run_synth(args: argparse.Namespace) -> int:
    """Handle `vision synth`."""
    from dataclasses import replace

    from tools.table_synth import SynthConfig, TableScene, tricks_from_log, write_scene
    from vision.api import VisionError

    try:
        width, height = _size(args.size)
        config = SynthConfig(width=width, height=height, fps=args.fps, seed=args.seed,
                             max_tricks=args.tricks)
        if args.card_px is not None:
            if not 40 <= args.card_px <= 0.6 * height:
                return _error(f"--card-px {args.card_px:g}: give a card length of 40 to "
                              f"{0.6 * height:g} px for a frame {height} px high")
            config = replace(config, card_size=args.card_px / height)
        if args.plain:
            config = replace(config, lighting=False, shadow=False, blur=0.0, noise=0.0,
                             hand_passes=False, nudges=False)
        scene = TableScene(tricks_from_log(args.log), config)
        count = write_scene(scene, args.out, args.log.name)
    except (VisionError, ValueError) as error:
        return _error(str(error))
    placed = sum(event.event == "placed" for event in scene.truth)
    print(f"wrote {count} frames ({scene.duration:.1f} s at {config.fps:g} fps), {placed} cards "
          f"placed, truth.jsonl and calibration.json into {args.out}")
    return 0


def _frames(source: str, fps: float | None) -> Iterator[tuple[float, Any]]:
    """(time, frame) from a recording (times from the frame rate) or a live camera (clock)."""
    import time

    from drivers.camera import CameraSettings, RecordedSource, make_source

    kind, _, target = source.partition(":")
    if kind in CAMERA_PREFIXES and not Path(source).exists():
        camera = make_source("usb" if kind == "camera" else kind, CameraSettings(), target or None)
        camera.open()
        start = time.monotonic()
        try:
            while True:
                image = camera.read()
                if image is None:
                    return
                yield time.monotonic() - start, image
        finally:
            camera.close()
    recording = RecordedSource(Path(source))
    recording.open()
    rate = fps or _recorded_fps(Path(source)) or 30.0
    index = 0
    try:
        while (image := recording.read()) is not None:
            yield index / rate, image
            index += 1
    finally:
        recording.close()


def _recorded_fps(path: Path) -> float | None:
    """The frame rate from a synth folder's scene.json or a video file's header."""
    if path.is_dir():
        meta = path / "scene.json"
        if meta.exists():
            return float(json.loads(meta.read_text(encoding="utf-8")).get("fps", 0)) or None
        return None
    import cv2

    capture = cv2.VideoCapture(str(path))
    rate = float(capture.get(cv2.CAP_PROP_FPS) or 0.0)
    capture.release()
    return rate if 0 < rate <= 240 else None


def run_track(args: argparse.Namespace) -> int:
    """Handle `vision track`."""
    from drivers.errors import DriverError
    from vision.api import TableWatcher, TrackerConfig, VisionError

    source = Path(args.source)
    is_device = args.source.split(":", 1)[0] in CAMERA_PREFIXES and not source.exists()
    if not is_device and not source.exists():
        return _error(f"{args.source!r}: no such video or folder of frames (or give usb:N or "
                      "picamera2)")
    zones_text = args.zones
    if zones_text is None and source.is_dir() and (source / "calibration.json").exists():
        zones_text = str(source / "calibration.json")
    if zones_text is None:
        return _error(f"no calibration for {args.source!r}: give --zones (a file, or 'default'; "
                      "cardtable calibrate writes one)")
    try:
        zones = None if zones_text == "default" else zones_from_argument(zones_text, 0, 0)
        model = _load_model(args.deck)
        frames = _frames(args.source, args.fps)
        first = next(frames, None)
        if first is None:
            return _error(f"{args.source!r} gave no frame")
        if zones is None:
            height, width = first[1].shape[:2]
            zones = zones_from_argument(zones_text, width, height)
        watcher = TableWatcher(model, zones,
                               tracker_config=TrackerConfig(stable_time=args.stable))
        reported = []
        for t, frame in itertools.chain([first], frames):
            for event in watcher.process(t, frame):
                reported.append(event.to_json())
                if args.json:
                    print(json.dumps(event.to_json()), flush=True)
                else:
                    card = event.card or "unreadable card"
                    print(f"{event.t:8.2f}s  {event.kind.value:<10} {card:<15} seat {event.seat}"
                          f"  confidence {event.confidence:.2f}", flush=True)
    except (VisionError, DriverError, ValueError) as error:
        return _error(str(error))
    except KeyboardInterrupt:
        return 0
    print(f"{watcher.frames} frames, recognition run on {watcher.recognised}", file=sys.stderr)
    if args.check:
        return _check(source, reported)
    return 0


def _check(source: Path, reported: list[dict[str, Any]]) -> int:
    from tools.table_synth import TruthEvent, compare_events

    truth_path = source / "truth.jsonl"
    if not truth_path.exists():
        return _error(f"--check needs {truth_path}")
    truth = [TruthEvent(**json.loads(line)) for line in truth_path.read_text().splitlines()
             if line.strip()]
    comparison = compare_events(truth, reported)
    print(json.dumps(comparison.summary()), file=sys.stderr)
    for problem in (*comparison.wrong, *comparison.wrong_seat, *comparison.missed,
                    *comparison.phantoms):
        print(f"  {problem}", file=sys.stderr)
    return 0 if comparison.is_faithful else 1


def run_calibrate(args: argparse.Namespace) -> int:
    """Handle `calibrate`: headless with --still, else the pygame window."""
    if args.still is not None:
        return _calibrate_still(args)
    return _calibrate_window(args)


def _calibrate_still(args: argparse.Namespace) -> int:
    import cv2
    import numpy as np

    from vision.api import VisionError, draw_zones, read_image, recognise, save_zones

    if args.zones is None:
        return _error("--still needs --zones (a calibration file, inline JSON or 'default')")
    try:
        image = read_image(args.still)
        height, width = image.shape[:2]
        zones = zones_from_argument(args.zones, width, height).scaled_to(width, height)
        observations = recognise(image, _load_model(args.deck))
        out = args.out or args.still.with_name(args.still.stem + "_zones.png")
        if not cv2.imwrite(str(out), draw_zones(np.asarray(image, np.uint8), zones, observations)):
            return _error(f"cannot write {out}")
        if args.save is not None:
            save_zones(zones, args.save)
    except VisionError as error:
        return _error(str(error))
    print(f"wrote {out}")
    for observation in observations:
        x, y = (float(v) for v in observation.corners.mean(axis=0))
        seat = zones.seat_of((x, y)) or "no seat"
        print(f"  {observation.name or 'unreadable':<10} {observation.confidence:.2f} "
              f"at ({x:.0f}, {y:.0f}): {seat}")
    if args.save is not None:
        print(f"saved calibration to {args.save}")
    return 0


def _calibrate_window(args: argparse.Namespace) -> int:
    from display.calibrate import CalibrationEditor, run_window
    from drivers.camera import CameraSettings, make_source
    from drivers.errors import DriverError
    from vision.api import VisionError, recognise, save_zones

    kind, _, target = args.camera.partition(":")
    save_to = args.save
    try:
        if args.config is not None:
            from drivers.config import load_hardware_config

            hardware = load_hardware_config(args.config)
            kind, target, settings = hardware.camera_kind, hardware.camera_target or "", \
                hardware.camera
            save_to = save_to or args.config
        else:
            settings = CameraSettings()
            if kind not in CAMERA_PREFIXES:
                kind, target = "recorded", args.camera
        source = make_source("usb" if kind == "camera" else kind, settings, target or None)
        source.open()
        first = source.read()
        if first is None:
            return _error(f"camera {args.camera!r} gave no frame")
        height, width = first.shape[:2]
        zones = zones_from_argument(args.zones, width, height) if args.zones else None
        model = _load_model(args.deck)
        editor = CalibrationEditor((width, height), zones)
        save_path = save_to or Path("calibration.json")
        saved = run_window(source.read, editor, lambda frame: recognise(frame, model),
                           lambda zones: save_zones(zones, save_path))
        source.close()
    except (VisionError, DriverError) as error:
        return _error(str(error))
    if saved:
        print(f"saved calibration to {save_path}")
    return 0
