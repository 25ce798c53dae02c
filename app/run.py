"""The table's main loop: inputs from every source through the referee to screen and outputs."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from app.config import AppConfig
from app.controller import Notice, NoticeKind, TableController
from app.sdnotify import Notifier
from app.sightings import Sighting, SightingKind
from drivers import inputs
from drivers.outputs import NullOutputs, Outputs

WATCHDOG_EVERY_S = 2.0
Item = Any  # a PlayerInput, a StatusEvent, a Sighting or a display ButtonPressed


class TableApp:
    """Owns the referee; every source hands it items through `items` (thread-safe)."""

    def __init__(
        self,
        config: AppConfig,
        controller: TableController,
        *,
        outputs: Outputs | None = None,
        notifier: Notifier | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.controller = controller
        self.outputs: Outputs = outputs or NullOutputs()
        self.notifier = notifier or Notifier()
        self.clock = clock
        self.items: queue.Queue[Item] = queue.Queue()
        self.devices_down: dict[str, str] = {}
        self.listeners: list[Callable[[list[Notice]], None]] = []
        self.stop = threading.Event()
        self.feeds: list[threading.Thread] = []
        self._last_watchdog = -1e9
        self._held_acks: list[Callable[[], None]] = []  # keys of a card still being keyed in

    # ---- one item ----------------------------------------------------------------------

    def handle(self, item: Item) -> list[Notice]:
        """Route one item to the referee or the device status; report what it caused."""
        notices = self._report(self._route(item))
        if (acknowledge := getattr(item, "acknowledge", None)) is not None:
            self._held_acks.append(acknowledge)
        if not self.controller.entry.partial:  # a half-keyed card is not in the journal yet
            while self._held_acks:
                self._held_acks.pop(0)()  # the panel hears ACK only for what the journal holds
        return notices

    def tick(self) -> list[Notice]:
        """Let time pass on the referee (a card unreadable too long is asked for)."""
        notices = self.controller.tick()
        return self._report(notices) if notices else []

    def _report(self, notices: list[Notice]) -> list[Notice]:
        for notice in notices:
            if notice.kind is NoticeKind.RENEGE:
                self.outputs.renege_alarm()
            elif notice.kind is NoticeKind.ACCEPTED and notice.card is not None:
                self.outputs.accept_tick()
        turn = self.controller.state.turn
        self.outputs.turn_light(turn.value if turn else None)
        for listener in self.listeners:
            listener(notices)
        return notices

    def _route(self, item: Item) -> list[Notice]:
        controller = self.controller
        if isinstance(item, Sighting):
            if item.kind is SightingKind.REMOVED:
                return controller.on_card_removed(item.seat, item.card)
            identified = item.kind is SightingKind.IDENTIFIED
            return controller.on_card(item.seat, item.card, identified=identified)
        if isinstance(item, inputs.PanelDisconnected):
            self.devices_down["panel"] = item.reason
            return []
        if isinstance(item, inputs.PanelConnected):
            self.devices_down.pop("panel", None)
            return []
        if isinstance(item, inputs.CameraFailed):
            self.devices_down["camera"] = item.reason
            return []
        if isinstance(item, inputs.CameraReopened):
            self.devices_down.pop("camera", None)
            return []
        if isinstance(item, inputs.NewGameRequested | inputs.NewGameCancelled):
            return []
        target = getattr(item, "target", None)
        if target is not None:  # a tap on the screen: a card, a prompt's button, a played card
            from app.screen_prompts import touch_input

            touch = touch_input(target)
            return controller.on_input(touch) if touch is not None else []
        action = getattr(item, "action", None)
        if action is not None:  # an on-screen OK or UNDO
            pressed = inputs.ConfirmPressed(None) if action == "ok" else inputs.UndoPressed(None)
            return controller.on_input(pressed)
        return controller.on_input(item)

    # ---- the loop ----------------------------------------------------------------------

    def drain(self, polls: Iterable[Callable[[], list[Any]]] = ()) -> list[Notice]:
        """Handle everything waiting: polled sources first, then the thread queue."""
        notices: list[Notice] = []
        for poll in polls:
            for item in poll():
                notices.extend(self.handle(item))
        while True:
            try:
                item = self.items.get_nowait()
            except queue.Empty:
                break
            notices.extend(self.handle(item))
        notices.extend(self.tick())
        return notices

    def keep_alive(self) -> None:
        """Feed the systemd watchdog from the main loop, at most every few seconds."""
        now = self.clock()
        if now - self._last_watchdog >= WATCHDOG_EVERY_S:
            self.notifier.watchdog()
            self._last_watchdog = now


def feed_from_thread(app: TableApp, produce: Iterable[Item], name: str) -> threading.Thread:
    """Run a producer (a serial link, a camera tracker) in its own thread, feeding `app.items`."""

    def pump() -> None:
        for item in produce:
            if app.stop.is_set():
                return
            app.items.put(item)

    thread = threading.Thread(target=pump, name=name, daemon=True)
    thread.start()
    return thread


def headless_writer(outdir: Path, size: tuple[int, int]) -> Callable[[TableApp, str], Path]:
    """A function that renders the app's current view to a numbered PNG in `outdir`."""
    import pygame

    from display.render import render
    from display.screens import file_label

    pygame.font.init()
    outdir.mkdir(parents=True, exist_ok=True)
    surface = pygame.Surface(size)
    counter = iter(range(1, 1_000_000))

    def write(app: TableApp, label: str) -> Path:
        render(current_view(app), surface)
        path = outdir / f"{next(counter):04d}_{file_label(label)}.png"
        pygame.image.save(surface, str(path))
        return path

    return write


def current_view(app: TableApp) -> Any:
    """The display's view of the game, with the problems the table needs a human for."""
    from display.from_state import view_from_state
    from display.view import Problem, ProblemKind

    controller = app.controller
    problems = [
        Problem(ProblemKind.UNREADABLE_CARD, seat.value)
        for seat in sorted(controller.problems.unreadable)
    ]
    problems += [
        Problem(ProblemKind.ALREADY_PLAYED, seat.value, card.code)
        for seat, card in sorted(controller.problems.already_played.items())
    ]
    problems += [
        Problem(ProblemKind.OUT_OF_TURN, seat.value, card.code)
        for seat, card in sorted(controller.problems.out_of_turn.items())
    ]
    problems += [
        Problem(ProblemKind.DISCONNECTED, device=device) for device in sorted(app.devices_down)
    ]
    from dataclasses import replace

    from app.screen_prompts import prompt_view

    view = view_from_state(controller.state, app.config.seat_names, problems)
    return replace(view, prompt=prompt_view(controller))
