"""The table's main loop: inputs from every source through the referee to screen and outputs."""

from __future__ import annotations

import logging
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from app.config import AppConfig
from app.controller import Notice, NoticeKind, TableController
from app.journal import JournalUnavailable
from app.journal_pause import JournalPause
from app.prompts import PageInput, TouchInput
from app.sdnotify import Notifier
from app.sightings import Sighting, SightingKind
from app.supervisor import STUCK_AFTER_S, Feed, Supervisor
from display.targets import Touched
from drivers import inputs
from drivers.outputs import NullOutputs, Outputs

if TYPE_CHECKING:
    from app.control import PageRequest
    from display.loop import ButtonPressed
    from display.view import View

WATCHDOG_EVERY_S = 2.0
logger = logging.getLogger(__name__)
Item: TypeAlias = (
    "inputs.PlayerInput | inputs.StatusEvent | Sighting | TouchInput | Touched | ButtonPressed"
    " | PageInput | PageRequest"
)
"""What reaches the table: a press, a device's status, a card sighting, a tap on the screen
(as the display hands it out, or already read as the referee's touch input), a correction
from the phone page (waiting for its answer)."""
Poll: TypeAlias = Callable[[], "Sequence[Item]"]
"""A source the main loop asks for what came in (buttons, the window)."""


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
        watch_clock: Callable[[], float] | None = None,
        stuck_after_s: float = STUCK_AFTER_S,
    ) -> None:
        """`watch_clock` times the feed threads' heartbeats (default `clock`); a feed silent
        for `stuck_after_s` counts as stuck."""
        self.config = config
        self.controller = controller
        controller.journal.seat_names = dict(config.seat_names) or None  # kept with each game
        self.outputs: Outputs = outputs or NullOutputs()
        self.notifier = notifier or Notifier()
        self.clock = clock
        self.items: queue.Queue[Item] = queue.Queue()
        self.devices_down: dict[str, str] = {}
        self.listeners: list[Callable[[list[Notice]], None]] = []
        self.stop = threading.Event()
        self.supervisor: Supervisor[Item] = Supervisor(
            self.items, watch_clock or clock, stuck_after_s=stuck_after_s, stopping=self.stop
        )
        self.journal_pause = JournalPause(controller.journal, clock)
        self.output_problem: str | None = None
        self._last_watchdog = -1e9
        self._held_acks: list[Callable[[], None]] = []  # keys of a card still being keyed in
        self._paused_keys: list[tuple[inputs.PanelKey, Callable[[], None] | None]] = []
        self._held_keys: list[inputs.PanelKey] = []  # their identities, recorded with the card
        self._told_status = ""

    @property
    def feeds(self) -> list[Feed[Item]]:
        """The feed threads (camera, panel), as the supervisor watches them."""
        return self.supervisor.feeds

    def feeds_running(self) -> bool:
        """True while a feed that ends by itself (a recording) still runs."""
        return any(feed.ends and not feed.finished and feed.is_alive() for feed in self.feeds)

    # ---- one item ----------------------------------------------------------------------

    def handle(self, item: Item) -> list[Notice]:
        """Route one item to the referee or the device status; report what it caused.

        An input is answered only once final: committed to the journal, or refused by the
        rules; then its `acknowledge` is called. One the journal could not take leaves the
        table as it was, is not acknowledged, and pauses input until the journal writes again.
        A panel key's identity is recorded in the transaction of its events (the keys of a
        half-keyed card with the card), so a key resent after a restart is only acknowledged.
        """
        if isinstance(item, inputs.StatusEvent):
            return self._report(self._status(item))
        from app.control import PageRequest, Reply

        if isinstance(item, PageRequest):  # answered like a press: once committed or refused
            try:
                notices = self.handle(item.pressed)
            except BaseException:
                item.answer(Reply(False, "the table failed on this request"))
                raise
            paused = self.journal_pause.paused
            item.answer(Reply.of(notices, paused=paused, game=self.controller.game_id,
                                 seq=len(self.controller.events)))
            return notices
        acknowledge = getattr(item, "acknowledge", None)
        key: inputs.PanelKey | None = getattr(item, "key", None)
        if self.journal_pause.paused:
            self._refused_in_pause(key, acknowledge)
            return self._report([Notice(NoticeKind.REFUSED, self.journal_pause.message)])
        journal = self.controller.journal
        if key is not None and journal.holds_key(key):
            logger.debug("panel key %s %s answered before: acknowledged again, not applied",
                         key.boot, ",".join(map(str, key.seqs)))
            if acknowledge is not None:
                acknowledge()
            return self._report([])
        keys = [*self._held_keys, key] if key is not None else list(self._held_keys)
        try:
            with self.controller.all_or_nothing():  # the events and the keys commit together
                notices = self._route(item)
                if not self.controller.entry.partial:
                    journal.record_keys(keys)
        except JournalUnavailable as error:
            self.journal_pause.fail(error)
            log(f"{error}; input paused")
            self._refused_in_pause(key, acknowledge)
            return self._report([Notice(NoticeKind.FAULT, self.journal_pause.message)])
        if acknowledge is not None:
            self._held_acks.append(acknowledge)
        if self.controller.entry.partial:  # a half-keyed card is not in the journal yet
            self._held_keys = keys
        else:
            self._held_keys = []
            while self._held_acks:
                self._held_acks.pop(0)()  # the panel hears ACK only for what the journal holds
        return self._report(notices)

    def tick(self) -> list[Notice]:
        """Let time pass on the referee (a card unreadable too long is asked for), and try
        the journal again when input is paused for it."""
        notices: list[Notice] = []
        if self.journal_pause.retry() and self._settle_paused_keys():
            log("the journal writes again; input resumed")
            notices.append(Notice(NoticeKind.RECOVERED, "journal writes again: input resumed"))
        notices.extend(self.controller.tick())
        notices.extend(self.supervise())
        return self._report(notices) if notices else []

    def _refused_in_pause(
        self, key: inputs.PanelKey | None, acknowledge: Callable[[], None] | None
    ) -> None:
        """A panel key refused because the journal could not write: its refusal is made final
        (recorded, then acknowledged) once the journal writes again, so the panel never sends
        it later into a game that has moved on."""
        if key is not None:
            self._paused_keys.append((key, acknowledge))

    def _settle_paused_keys(self) -> bool:
        """Record the keys refused during the pause and acknowledge them; False if the journal
        failed again (input stays paused)."""
        if not self._paused_keys:
            return True
        try:
            with self.controller.journal.atomic():
                self.controller.journal.record_keys(key for key, _ in self._paused_keys)
        except JournalUnavailable as error:
            self.journal_pause.fail(error)
            return False
        for _, acknowledge in self._paused_keys:
            if acknowledge is not None:
                acknowledge()
        self._paused_keys = []
        return True

    def supervise(self) -> list[Notice]:
        """Check the feed threads: a dead or stuck one is shown, logged and restarted."""
        notices = []
        for news in self.supervisor.check():
            log(news.text)
            kind = NoticeKind.FAULT if news.bad else NoticeKind.RECOVERED
            notices.append(Notice(kind, news.text))
        return notices

    @property
    def healthy(self) -> bool:
        """True when every feed thread runs and beats."""
        return self.supervisor.healthy

    def _report(self, notices: list[Notice]) -> list[Notice]:
        turn = self.controller.state.turn
        try:
            for notice in notices:
                if notice.kind is NoticeKind.RENEGE:
                    self.outputs.renege_alarm()
                elif notice.kind is NoticeKind.ACCEPTED and notice.card is not None:
                    self.outputs.accept_tick()
            self.outputs.turn_light(turn.value if turn else None)
        except Exception as error:  # a buzzer or light that fails must not stop the table
            if self.output_problem is None:
                log(f"outputs failed: {type(error).__name__}: {error}")
            self.output_problem = f"outputs failed: {type(error).__name__}: {error}"
        else:
            self.output_problem = None
        for listener in self.listeners:
            listener(notices)
        return notices

    def _status(self, item: inputs.StatusEvent) -> list[Notice]:
        """Keep a device's state; a change is a notice, so the screen shows it at once."""
        match item:
            case inputs.PanelDisconnected(_, reason):
                log(f"panel: {reason}")
                self.devices_down["panel"] = reason
                return [Notice(NoticeKind.FAULT, f"panel disconnected: {reason}")]
            case inputs.PanelConnected():
                if self.devices_down.pop("panel", None) is not None:
                    return [Notice(NoticeKind.RECOVERED, "panel connected")]
            case inputs.PanelKeysLost(_, count, reason):
                text = f"panel lost {count} key presses ({reason}): press them again"
                log(text)
                return [Notice(NoticeKind.FAULT, text)]
            case inputs.CameraFailed(_, reason):
                log(f"camera: {reason}")
                self.devices_down["camera"] = reason
                return [Notice(NoticeKind.FAULT, f"camera: {reason}")]
            case inputs.CameraReopened():
                if self.devices_down.pop("camera", None) is not None:
                    return [Notice(NoticeKind.RECOVERED, "camera delivers frames again")]
        return []

    def _route(self, item: Item) -> list[Notice]:
        controller = self.controller
        if isinstance(item, Sighting):
            if item.kind is SightingKind.REMOVED:
                return controller.on_card_removed(item.seat, item.card)
            identified = item.kind is SightingKind.IDENTIFIED
            return controller.on_card(item.seat, item.card, identified=identified)
        if isinstance(item, Touched):  # a tap on the screen: a card, a prompt's button
            from app.screen_prompts import touch_input

            touch = touch_input(item.target)
            return controller.on_input(touch) if touch is not None else []
        if isinstance(item, inputs.PlayerInput | TouchInput | PageInput):
            return controller.on_input(item)
        if isinstance(item, inputs.StatusEvent):
            return self._status(item)
        from app.control import PageRequest

        if isinstance(item, PageRequest):
            return controller.on_input(item.pressed)
        # an on-screen OK or UNDO
        pressed = inputs.ConfirmPressed(None) if item.action == "ok" else inputs.UndoPressed(None)
        return controller.on_input(pressed)

    # ---- the loop ----------------------------------------------------------------------

    def drain(self, polls: Iterable[Poll] = ()) -> list[Notice]:
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
        """Feed the systemd watchdog from the main loop, at most every few seconds, and only
        while every feed thread is well: a table that stays sick is restarted by systemd."""
        problems = [*self.supervisor.problems(), *self.standing()]
        status = "; ".join(problems) or "running"
        if status != self._told_status:
            self.notifier.send(f"STATUS={status}")
            self._told_status = status
        if not self.healthy:
            return
        now = self.clock()
        if now - self._last_watchdog >= WATCHDOG_EVERY_S:
            self.notifier.watchdog()
            self._last_watchdog = now

    def standing(self) -> list[str]:
        """The table's own standing problems besides the feeds: the journal, the outputs."""
        problems = [self.journal_pause.message] if self.journal_pause.paused else []
        return problems + ([self.output_problem] if self.output_problem else [])


def log(line: str) -> None:
    """One line of the table's log (stderr, which systemd's journal keeps)."""
    print(f"cardtable: {line}", file=sys.stderr, flush=True)


def feed_from_thread(
    app: TableApp, make: Callable[[], Iterable[Item | None]], name: str, *, ends: bool = False
) -> Feed[Item]:
    """Run a producer (a serial link, a camera tracker) in its own supervised thread.

    `make()` gives a fresh producer at each (re)start; it yields items for `app.items`, or
    None now and then to show it is alive. `ends`: it may run out by itself (a recording).
    """
    return app.supervisor.start(name, make, ends=ends)


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


def current_view(app: TableApp) -> View:
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
    if app.journal_pause.paused:
        problems.append(
            Problem(ProblemKind.FAULT, device="journal", detail=app.journal_pause.message)
        )
    problems += [
        Problem(ProblemKind.FAULT, device=feed.name, detail=feed.problem)
        for feed in app.feeds
        if feed.problem is not None
    ]
    if app.output_problem is not None:
        problems.append(Problem(ProblemKind.FAULT, device="outputs", detail=app.output_problem))
    from dataclasses import replace

    from app.screen_prompts import prompt_view

    view = view_from_state(controller.state, app.config.seat_names, problems)
    return replace(view, prompt=prompt_view(controller))
