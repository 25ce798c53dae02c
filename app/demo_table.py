"""`cardtable run --demo`: the table program itself, on the demo's recorded camera and buttons.

The demo game's frames (rendered as a camera above the table sees them) are read by the real
recognition and tracker in the camera's thread, the scripted players press the bids and trump
when the table asks, and `cardtable run`'s loop, journal and screen do the rest. The game
lands in the state directory's journal like any other: `cardtable games` lists it.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from app.camera_demo import ScriptedButtons, demo_faces, demo_scene, demo_start, enroll_deck
from app.config import AppConfig, DisplayConfig
from app.controller import TableController
from app.journal import Journal, JournalError
from app.journal_check import JournalDamaged, guard_for_start, mark_created
from app.recorded_frames import at_recorded_pace, read_ahead
from app.run import Item, Poll, TableApp, feed_from_thread
from app.screens import WindowScreen, open_screen
from app.state_lock import StateLock, TableRunning
from app.table_loop import loop, print_notices, stop_on_signal
from table import Team

DEMO_STATE = Path("demo-out") / "table"
"""Where the demo table keeps its journal unless --state-dir says otherwise."""
HOLD_FPS = 30


class RenderedCamera:
    """The demo's recorded table as a camera: each call gives the next frame, then None.

    `now()` is the recording's time, the table's clock: a card lies unreadable for 3 s of
    the recorded table before it is asked for, however fast the frames are read. They are
    rendered ahead in a thread of their own, and given as fast as they are read unless
    `real_time` paces them as the camera recorded them.
    """

    def __init__(self, scene: Any, real_time: bool = False) -> None:
        frames = read_ahead(scene.frames())
        self.frames = at_recorded_pace(frames) if real_time else frames
        self.fps = float(scene.config.fps)
        self.count = int(scene.frame_count)
        self.index = 0
        self.t = 0.0

    def now(self) -> float:
        """The time of the last frame read."""
        return self.t

    def read(self) -> tuple[Any, list[Any]]:
        """The next frame (a drivers Frame) and no status events; None once it has ended."""
        from drivers.camera import Frame

        taken = next(self.frames, None)
        if taken is None:
            return None, []
        t, image = taken
        self.t = float(t)
        frame = Frame(image=image, index=self.index, timestamp=t)
        self.index += 1
        return frame, []


def refusal(args: argparse.Namespace) -> str | None:
    """Why these options cannot go with --demo, or None."""
    if not args.demo and args.tricks is not None:
        return "--tricks goes with --demo (it stops the demo's recording after that many tricks)"
    if not args.demo:
        return "--real-time goes with --demo (it plays the demo's recording at its own pace)"
    if args.config is not None or args.script is not None:
        return "--demo brings its own table: leave out --config and --script"
    if args.tricks is not None and args.tricks < 1:
        return f"--tricks must be at least 1, not {args.tricks}"
    return None


def run_demo_table(args: argparse.Namespace) -> int:
    """Run the table on the demo recording; exit 2 on a bad option or a journal problem."""
    problem = refusal(args)
    if problem:
        print(f"cardtable run: {problem}", file=sys.stderr)
        return 2
    start = demo_start()
    config = AppConfig(
        rules=start.rules,
        dealer=start.dealer,
        state_dir=(args.state_dir or DEMO_STATE).expanduser(),
        display=DisplayConfig(width=800, height=480, fullscreen=False),
    )
    try:
        config.state_dir.mkdir(parents=True, exist_ok=True)
        lock = StateLock(config.state_dir)
        lock.acquire("a second table")
        guard_for_start(config.journal_path)
        journal = Journal(config.journal_path)
        mark_created(config.journal_path)
    except (JournalError, JournalDamaged, TableRunning) as error:
        print(f"cardtable run: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"cardtable run: {error.filename}: {error.strerror}", file=sys.stderr)
        return 2
    faces = demo_faces()
    with tempfile.TemporaryDirectory() as folder:
        model = enroll_deck(faces, Path(folder))
    scene = demo_scene(faces, max_tricks=args.tricks)
    print(f"cardtable run --demo: {scene.frame_count} recorded frames, journal in "
          f"{config.state_dir}", flush=True)
    camera = RenderedCamera(scene, real_time=args.real_time)
    with lock, journal, contextlib.ExitStack() as stack:
        controller = TableController(
            journal, config.rules, config.dealer, clock=camera.now,
            unreadable_prompt_s=config.vision.unreadable_prompt_s,
        )
        if controller.state.hands or controller.state.winner:
            controller.new_game()  # each run of the demo plays a game of its own
        app = TableApp(config, controller)
        if args.verbose:
            app.listeners.append(print_notices)
        screen = stack.enter_context(open_screen(app, args))
        buttons = ScriptedButtons(controller)
        stack.enter_context(camera_feed(app, camera, scene.zones(), model, config.vision.stable_s))
        stop_on_signal(app)
        app.notifier.ready(f"game {controller.game_id}")
        screen.show("start")
        polls: list[Poll] = [screen.poll, buttons.due]
        loop(app, args, [], polls, screen.show)
        while notices := app.drain(polls):  # what the camera saw last
            screen.show(notices[-1].message)
        screen.show(f"the_end_{controller.state.winner or 'no_winner'}")
        if controller.state.winner is not None:
            hold_window(screen)
        app.notifier.stopping()
        if camera.index < camera.count:
            print(f"stopped at frame {camera.index} of {camera.count}", flush=True)
        print(summary(controller, config.state_dir))
    return 0


@contextlib.contextmanager
def camera_feed(
    app: TableApp, camera: RenderedCamera, zones: Any, model: Any, stable_s: float
) -> Iterator[Any]:
    """The recorded frames through recognition and tracking in the camera's thread.

    When the recording ends, the table stops (as `cardtable run --script` stops when its
    script and camera are done); the main loop then takes what is left in the queue.
    """
    from app.camera_feed import watch
    from vision.api import TableWatcher, TrackerConfig, VisionConfig

    watcher = TableWatcher(model, zones, VisionConfig(copies=app.config.rules.copies),
                           tracker_config=TrackerConfig(stable_time=stable_s))

    def until_the_end() -> Iterator[Item | None]:
        yield from watch(camera.read, watcher, lambda: not app.stop.is_set(),
                         recorded_fps=camera.fps)
        app.stop.set()

    feed = feed_from_thread(app, until_the_end, "camera", ends=True)
    try:
        yield feed
    finally:
        app.stop.set()
        if feed.thread is not None:
            feed.thread.join()


def hold_window(screen: Any) -> None:
    """In a window, keep the last screen up until it is closed (Escape or Q)."""
    if not isinstance(screen, WindowScreen):
        return
    print("the recording has ended: close the window (Escape or Q) to finish", flush=True)
    while screen.loop.step():
        time.sleep(1 / HOLD_FPS)


def summary(controller: TableController, state_dir: Path) -> str:
    """How the game stands, and the commands that read it back from the journal."""
    state, game = controller.state, controller.game_id
    scores = f"NS {state.scores[Team.NS]}, EW {state.scores[Team.EW]}"
    outcome = f"{state.winner} won the game" if state.winner else "no winner yet"
    where = f"--state-dir {state_dir}"
    return (f"game {game}: {outcome}, {scores}\n"
            f"  cardtable games {where}\n"
            f"  cardtable export {game} {where} --out game.jsonl")
