"""The demo: a recorded table (rendered camera frames) through vision, referee and screen."""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from app.camera_feed import sighting_of
from app.config import AppConfig, DisplayConfig
from app.controller import NoticeKind, TableController
from app.journal import Journal
from app.prompts import Answer, CardNamed, MisreadPrompt, PickPrompt, PickReason, PromptAnswered
from app.recorded_frames import at_recorded_pace, read_ahead
from app.run import Item, TableApp, current_view
from app.screens import PngScreen, WindowScreen
from app.script import Wait, parse_script_line, script_from_events
from drivers.clock import ManualClock
from table import Card, GameStarted, Phase, Seat, Team, replay
from table.log import parse_lines

DATA = Path(__file__).with_name("data")
DEMO_GAME = DATA / "demo_camera_game.jsonl"
INDEX_SHARE = (0.24, 0.34)
"""The corner index area of a demo card face, as shares of its width and height."""


@dataclass
class DemoResult:
    """What the demo did and measured."""

    log: Path
    screens: int = 0
    frames: int = 0
    scene_seconds: float = 0.0
    cpu_seconds: float = 0.0
    """CPU time of the table's own thread: vision, referee and screen, rendering left out."""
    frame_ms: list[float] = field(default_factory=list)
    latency_s: list[float] = field(default_factory=list)
    cards_read: int = 0
    cards_unreadable: int = 0
    cards_named: int = 0
    """Cards the camera could not read, named by the players when the table asked."""
    reneges: int = 0
    shown_scores: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    hand_frames: dict[int, int] = field(default_factory=dict)
    hand_seconds: dict[int, float] = field(default_factory=dict)
    """Wall time per hand: rendering the frames (in a thread beside), vision, referee and
    screen."""
    hand_cpu: dict[int, float] = field(default_factory=dict)
    """CPU time per hand, the same work (both threads)."""

    def figures(self) -> str:
        """The measured figures, one per line."""
        cpu = self.cpu_seconds / self.scene_seconds if self.scene_seconds else 0.0
        wall = sum(self.hand_seconds.values())
        lines = [
            f"frames: {self.frames} ({self.scene_seconds:.0f} s of table at 10 fps), "
            f"{wall:.0f} s to play them here",
            *(
                f"  hand {hand}: {self.hand_frames[hand]} frames, {seconds:.0f} s "
                f"({self.hand_cpu[hand]:.0f} s of CPU)"
                for hand, seconds in sorted(self.hand_seconds.items())
            ),
            f"cards read by the camera: {self.cards_read}, unreadable: {self.cards_unreadable}, "
            f"named by the players: {self.cards_named}",
            f"reneges proven: {self.reneges}",
            f"per-frame time (vision, referee, screen): median "
            f"{statistics.median(self.frame_ms):.1f} ms, worst {max(self.frame_ms):.1f} ms",
            f"CPU of the table (rendering the frames left out) at 10 fps: {100 * cpu:.0f}% "
            "of one core",
        ]
        if self.latency_s:
            lines.append(
                f"card lying still to card on screen, in the table's time: median "
                f"{statistics.median(self.latency_s) * 1000:.0f} ms, worst "
                f"{max(self.latency_s) * 1000:.0f} ms (0.3 s stability window included)"
            )
        score = f"NS {self.shown_scores.get('NS', 0)}, EW {self.shown_scores.get('EW', 0)}"
        lines.append(f"{self.winner} won the game, {score}" if self.winner
                     else f"no winner yet: {score}")
        return "\n".join(lines)


def demo_faces(folder: Path | None = None) -> dict[str, Any]:
    """The demo deck: svg-cards faces with a standard corner index (rank over suit), BGRA."""
    from tools.scenes import plain_card
    from tools.table_synth import ARTWORK

    folder = folder or ARTWORK
    faces = {}
    for suit in "CDHS":
        for rank in "9TJQKA":
            art = cv2.imread(str(folder / f"{rank}{suit}.png"), cv2.IMREAD_UNCHANGED)
            if art is None:
                raise FileNotFoundError(f"card face {rank}{suit}.png is missing from {folder}")
            alpha = art[:, :, 3:4].astype(np.float32) / 255
            face = (art[:, :, :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
            height, width = face.shape[:2]
            index = cv2.resize(
                plain_card("10" if rank == "T" else rank, suit, width), (width, height)
            )
            w, h = int(width * INDEX_SHARE[0]), int(height * INDEX_SHARE[1])
            face[:h, :w] = index[:h, :w]
            face[height - h :, width - w :] = index[height - h :, width - w :]
            faces[rank + suit] = np.dstack([face, art[:, :, 3]])
    return faces


def learn_deck(faces: dict[str, Any], folder: Path) -> Any:
    """The demo deck's profile, learnt as `cardtable deck enroll` does: one photo per card."""
    from vision.api import VisionConfig, enroll_images

    folder.mkdir(parents=True, exist_ok=True)
    photos = []
    for name, face in faces.items():
        path = folder / f"{name}.png"
        cv2.imwrite(str(path), face[:, :, :3])
        photos.append((name, path))
    profile, _ = enroll_images(photos, VisionConfig())
    return profile


def enroll_deck(faces: dict[str, Any], folder: Path) -> Any:
    """The shipped model with the demo deck's profile added."""
    from vision.api import GlyphModel, with_profile

    return with_profile(GlyphModel.load(), learn_deck(faces, folder))


def demo_start() -> GameStarted:
    """The demo game's first event: its dealer and rules."""
    with DEMO_GAME.open(encoding="utf-8") as handle:
        _, start = next(iter(parse_lines(handle)))
    assert isinstance(start, GameStarted)
    return start


def demo_scene(
    faces: dict[str, Any],
    *,
    max_tricks: int | None = None,
    size: tuple[int, int] = (1280, 720),
    seed: int = 1,
) -> Any:
    """The demo game laid out as a camera above the table sees it (a tools TableScene)."""
    from tools.table_synth import SynthConfig, TableScene, tricks_from_log

    config = SynthConfig(width=size[0], height=size[1], seed=seed, max_tricks=max_tricks,
                         card_size=0.3, blur=0.5, noise_reuse=True)
    return TableScene(tricks_from_log(DEMO_GAME), config, faces=faces)


class ScriptedButtons:
    """The demo's players at the buttons: each hand's bids and trump once the table asks.

    A hand's presses wait until the table has finished the hand before (the camera sees the
    cards, the buttons never play them); a renege alarm is answered OK, as players who saw
    the renege would; a card the camera cannot read is named with a tap when the table asks
    for it, as the player who laid it would.
    """

    def __init__(self, controller: TableController, log: Path = DEMO_GAME) -> None:
        self.controller = controller
        self.presses = presses_by_hand(log)
        with log.open(encoding="utf-8") as handle:
            played = replay(event for _, event in parse_lines(handle))
        self.hands = {hand.number: hand for hand in played.completed}

    def due(self) -> list[Item]:
        """The next press, if the table is waiting for one; at most one a turn."""
        prompt = self.controller.prompt
        if isinstance(prompt, MisreadPrompt):
            return [PromptAnswered(Answer.OK)]
        if isinstance(prompt, PickPrompt) and prompt.reason is PickReason.UNREADABLE:
            card = self.lying(prompt.seat)
            return [CardNamed(card.code, prompt.seat)] if card is not None else []
        state = self.controller.state
        waiting = self.presses.get(state.hand.number)
        if waiting and state.winner is None and state.phase is not Phase.PLAY:
            return [waiting.pop(0)]
        return []

    def lying(self, seat: Seat) -> Card | None:
        """The card `seat` has laid in this hand and the table has not yet played."""
        state = self.controller.state
        hand = self.hands.get(state.hand.number)
        if hand is None:
            return None
        theirs = [card for trick in hand.tricks for who, card in trick.cards if who is seat]
        played = sum(who is seat for trick in state.hand.tricks for who, _ in trick.cards)
        return theirs[played] if played < len(theirs) else None


def presses_by_hand(log: Path) -> dict[int, list[Item]]:
    """The button presses of each hand of a table log (its cards come from the camera)."""
    with log.open(encoding="utf-8") as handle:
        events = [event for _, event in parse_lines(handle)]
    by_hand: dict[int, list[Item]] = {}
    for line in script_from_events(events):
        if "press" in line:
            item = parse_script_line(0, json.dumps(line))
            if not isinstance(item, Wait):
                by_hand.setdefault(int(str(line["hand"])), []).append(item)
    return by_hand


def run_demo(
    outdir: Path,
    *,
    headless: bool = True,
    max_tricks: int | None = None,
    size: tuple[int, int] = (1280, 720),
    seed: int = 1,
    say: Callable[[str], None] = print,
    real_time: bool = False,
) -> DemoResult:
    """Play the demo game from rendered frames; screens and the table log go to `outdir`.

    The frames are played as fast as they are rendered and read, on the recording's clock (a
    card unreadable for 3 s of the recording is asked for then); `real_time` plays them at
    their recorded pace instead, as a camera would give them.
    """
    from vision.api import EventKind, TableWatcher

    outdir.mkdir(parents=True, exist_ok=True)
    faces = demo_faces()
    with tempfile.TemporaryDirectory() as folder:
        model = enroll_deck(faces, Path(folder))
    say(f"learnt the demo deck ({len(faces)} cards); rendering the table")
    scene = demo_scene(faces, max_tricks=max_tricks, size=size, seed=seed)
    watcher = TableWatcher(model, scene.zones())
    landed = sorted(e.t for e in scene.truth if e.event == "placed")
    result = DemoResult(log=outdir / "game.jsonl", scene_seconds=scene.duration)
    with tempfile.TemporaryDirectory() as state, Journal(Path(state) / "journal.sqlite") as journal:
        start = demo_start()
        window = DisplayConfig(width=800, height=480, fullscreen=False)
        config = AppConfig(rules=start.rules, dealer=start.dealer, display=window)
        clock = ManualClock()  # the table's time is the scene's: an unreadable wait is scene time
        app = TableApp(config, TableController(journal, start.rules, start.dealer, clock=clock))
        buttons = ScriptedButtons(app.controller)
        screen = PngScreen(app, outdir / "screens") if headless else WindowScreen(app)
        frames = read_ahead(scene.frames())
        if real_time:
            frames = at_recorded_pace(frames)
        last, cpu_last = time.perf_counter(), time.process_time()
        for t, frame in frames:
            began, cpu_began = time.perf_counter(), time.thread_time()
            game = app.controller.state
            hand = game.completed[-1].number if game.winner and game.completed else game.hand.number
            clock.now = t
            notices = app.tick()
            pressed = []
            for press in buttons.due():
                pressed += app.handle(press)
                result.cards_named += isinstance(press, CardNamed)
            notices += pressed
            for event in watcher.process(t, frame):
                got = app.handle(sighting_of(event))
                notices += got
                if event.kind in (EventKind.PLACED, EventKind.IDENTIFIED) and event.card:
                    result.cards_read += 1
                if event.kind is EventKind.UNREADABLE:
                    result.cards_unreadable += 1
            for notice in notices:
                say(f"{t:6.1f}s  {notice.kind}: {notice.message}")
                seen = all(notice is not p for p in pressed)  # the camera's, not a player's
                if seen and notice.kind is NoticeKind.ACCEPTED and notice.card is not None:
                    previous = [x for x in landed if x <= t]
                    if previous:
                        result.latency_s.append(t - previous[-1])
                result.reneges += notice.kind is NoticeKind.RENEGE
            if notices:
                screen.show(f"{t:06.1f}_{notices[-1].message}")
                result.screens += 1
            screen.poll()
            result.frames += 1
            now = time.perf_counter()
            result.frame_ms.append((now - began) * 1000)
            result.cpu_seconds += time.thread_time() - cpu_began
            result.hand_frames[hand] = result.hand_frames.get(hand, 0) + 1
            result.hand_seconds[hand] = result.hand_seconds.get(hand, 0.0) + now - last
            result.hand_cpu[hand] = result.hand_cpu.get(hand, 0.0) + time.process_time() - cpu_last
            last, cpu_last = now, time.process_time()
        view = current_view(app)
        result.shown_scores = {"NS": view.scores.ns, "EW": view.scores.ew}
        result.winner = view.winner
        screen.show(f"the_end_{view.winner or 'no_winner'}")
        result.screens += 1
        result.log.write_text(journal.export(app.controller.game_id), encoding="utf-8")
    scores = app.controller.state.scores
    outcome = f"{result.winner} won" if result.winner else "no winner yet"
    say(f"final score: NS {scores[Team.NS]}, EW {scores[Team.EW]}; {outcome}; "
        f"table log: {result.log}")
    return result


def write_recording(
    outdir: Path, *, max_tricks: int | None = None, size: tuple[int, int] = (1280, 720)
) -> tuple[Path, Path]:
    """A recorded table for `cardtable run`: frames, zones, deck profile, config and presses.

    Returns the config file and the script of the first hand's presses.
    """
    from tools.table_synth import write_scene

    outdir.mkdir(parents=True, exist_ok=True)
    faces = demo_faces()
    learn_deck(faces, outdir / "deck_photos").save(outdir / "deck.npz")
    scene = demo_scene(faces, max_tricks=max_tricks, size=size)
    write_scene(scene, outdir / "frames", DEMO_GAME.name)
    start = demo_start()
    config = outdir / "table.toml"
    config.write_text(
        f'[game]\ndealer = "{start.dealer}"\n\n'
        f'[camera]\nkind = "recorded"\npath = "frames"\nwidth = {size[0]}\n'
        f"height = {size[1]}\nfps = 10\n\n"
        '[vision]\ncalibration = "frames/calibration.json"\ndeck = "deck.npz"\n\n'
        '[signals]\nvia = "none"\n',
        encoding="utf-8",
    )
    script = outdir / "presses.jsonl"
    with DEMO_GAME.open(encoding="utf-8") as handle:
        lines = script_from_events([event for _, event in parse_lines(handle)])
    script.write_text(
        "".join(json.dumps(line) + "\n" for line in lines if "press" in line and line["hand"] == 1),
        encoding="utf-8",
    )
    return config, script
