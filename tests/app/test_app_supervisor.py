"""Feed threads watched by the main loop: a dead or stuck one is shown, restarted with backoff,
and the systemd watchdog waits for the whole table to be well."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from app.config import AppConfig
from app.controller import NoticeKind, TableController
from app.journal import Journal
from app.run import Item, TableApp, current_view, feed_from_thread
from app.runner import exit_status
from app.sdnotify import Notifier
from app.sightings import Sighting, SightingKind
from display.view import ProblemKind
from drivers import inputs
from drivers.clock import ManualClock
from table import Card, Rules, Seat
from tests.app.tablerig import bid_hand

STUCK_S = 5.0


class Listener:
    """A systemd notify socket: what the table told it."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.setblocking(False)
        self.path = path

    def said(self) -> list[str]:
        out = []
        while True:
            try:
                out.append(self.sock.recv(1000).decode())
            except BlockingIOError:
                return out


@contextmanager
def table(tmp_path: Path) -> Iterator[tuple[TableApp, ManualClock, Listener]]:
    clock = ManualClock(100.0)
    listener = Listener(tmp_path / "notify.sock")
    with Journal(tmp_path / "journal.sqlite") as journal:
        controller = TableController(journal, Rules(), clock=clock)
        app = TableApp(AppConfig(state_dir=tmp_path), controller, clock=clock,
                       notifier=Notifier(str(listener.path)), stuck_after_s=STUCK_S)
        try:
            yield app, clock, listener
        finally:
            app.stop.set()
            listener.sock.close()


def sighting(seat: str, card: str) -> Sighting:
    return Sighting(SightingKind.PLACED, 0.0, Seat(seat), Card.parse(card), 0.9)


class Camera:
    """Producers for the camera feed: each start is a fresh generator, told what to do."""

    def __init__(self) -> None:
        self.starts = 0
        self.release = threading.Event()
        self.plan: list[str] = []  # per start: "raise", "hang", "beat"
        self.beats = threading.Semaphore(0)
        self.go_on = threading.Event()
        self.hanging = threading.Event()

    def make(self) -> Iterator[Item | None]:
        what = self.plan[self.starts] if self.starts < len(self.plan) else "beat"
        self.starts += 1
        return self._run(what)

    def _run(self, what: str) -> Iterator[Item | None]:
        yield inputs.CameraReopened("camera")
        if what == "raise":
            raise RuntimeError("sensor gone")
        if what == "hang":
            self.hanging.set()
            self.release.wait()  # stuck until the test lets it go
            yield sighting("E", "AS")  # woke up late: must reach nobody
            return
        while not self.go_on.is_set():
            yield None
            self.beats.release()
            self.go_on.wait(0.01)


def drain_queue(app: TableApp) -> list[Item]:
    items = []
    while not app.items.empty():
        items.append(app.items.get_nowait())
    return items


def wait_for_beat(camera: Camera) -> None:
    assert camera.beats.acquire(timeout=10)


def test_a_thread_that_raises_is_shown_restarted_and_the_watchdog_waits(tmp_path: Path) -> None:
    with table(tmp_path) as (app, clock, listener):
        camera = Camera()
        camera.plan = ["raise", "beat"]
        feed = feed_from_thread(app, camera.make, "camera")
        assert feed.thread is not None
        feed.thread.join(timeout=10)
        notices = app.drain()
        assert [(n.kind, n.message) for n in notices] == [
            (NoticeKind.FAULT, "camera stopped: RuntimeError: sensor gone; restart in 0.5 s")
        ]
        problems = current_view(app).problems
        assert [(p.kind, p.detail) for p in problems] == [
            (ProblemKind.FAULT, "camera stopped: RuntimeError: sensor gone")
        ]
        listener.said()
        app.keep_alive()
        assert listener.said() == ["STATUS=camera stopped: RuntimeError: sensor gone"]
        clock.advance(0.4)
        assert app.drain() == [] and camera.starts == 1  # the backoff has not run out
        clock.advance(0.1)
        assert [n.message for n in app.drain()] == ["camera restarted (attempt 1)"]
        wait_for_beat(camera)
        assert [n.kind for n in app.drain()] == [NoticeKind.RECOVERED]
        assert app.healthy and current_view(app).problems == ()
        app.keep_alive()
        assert listener.said() == ["STATUS=running", "WATCHDOG=1"]
        camera.go_on.set()


def test_a_thread_that_hangs_is_stuck_after_the_silence_and_its_late_items_are_dropped(
    tmp_path: Path,
) -> None:
    with table(tmp_path) as (app, clock, listener):
        camera = Camera()
        camera.plan = ["hang", "beat"]
        feed = feed_from_thread(app, camera.make, "camera")
        hung = feed.thread
        assert hung is not None and camera.hanging.wait(timeout=10)
        clock.advance(STUCK_S - 0.5)
        assert app.drain() == [] and app.healthy
        clock.advance(0.5)
        notices = app.drain()
        assert [n.message for n in notices] == [
            "camera stopped: no sign of life for 5 s; restart in 0.5 s"
        ]
        app.keep_alive()
        assert "WATCHDOG=1" not in listener.said()
        clock.advance(0.5)
        app.drain()
        wait_for_beat(camera)
        assert [n.kind for n in app.drain()] == [NoticeKind.RECOVERED]
        assert camera.starts == 2 and app.healthy
        camera.release.set()
        hung.join(timeout=10)
        camera.go_on.set()
        assert feed.thread is not None
        feed.thread.join(timeout=10)
        late = [item for item in drain_queue(app) if isinstance(item, Sighting)]
        assert late == []


def test_restarts_back_off_while_the_thread_keeps_dying(tmp_path: Path) -> None:
    with table(tmp_path) as (app, clock, _):
        camera = Camera()
        camera.plan = ["raise"] * 5
        feed = feed_from_thread(app, camera.make, "camera")
        delays = []
        for _ in range(4):
            assert feed.thread is not None
            feed.thread.join(timeout=10)
            app.drain()
            assert feed.restart_at is not None
            delays.append(feed.restart_at - clock())
            clock.advance(delays[-1])
            app.drain()
        assert delays == [0.5, 1.0, 2.0, 4.0]
        assert camera.starts == 5
        assert len(app.supervisor.failures()) == 4


def test_a_table_whose_camera_died_does_not_exit_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with table(tmp_path) as (app, clock, _):
        assert exit_status(app) == 0
        camera = Camera()
        camera.plan = ["raise"]
        feed = feed_from_thread(app, camera.make, "camera")
        assert feed.thread is not None
        feed.thread.join(timeout=10)
        app.drain()
        clock.advance(1.0)
        app.drain()  # restarted; runs well from now on
        wait_for_beat(camera)
        capsys.readouterr()
        assert exit_status(app) == 1
        camera.go_on.set()
    assert capsys.readouterr().err == (
        "cardtable: the table ran with 1 feed failure(s): camera: RuntimeError: sensor gone\n"
    )


def test_a_recording_that_ends_is_no_failure(tmp_path: Path) -> None:
    with table(tmp_path) as (app, clock, _):
        feed = feed_from_thread(app, lambda: iter([sighting("E", "AS"), None]), "camera",
                                ends=True)
        assert feed.thread is not None
        feed.thread.join(timeout=10)
        clock.advance(60.0)
        app.drain()
        assert app.healthy and not app.feeds_running() and exit_status(app) == 0
        assert app.controller.held == {Seat.E: Card.parse("AS")}  # the sighting was taken


def test_a_recording_that_ends_right_after_its_restart_leaves_the_table_well(
    tmp_path: Path,
) -> None:
    starts: list[int] = []

    def recording() -> Iterator[Item | None]:
        starts.append(1)
        if len(starts) == 1:
            raise RuntimeError("decoder crashed")
        yield None  # the rest of the recording, then its end

    with table(tmp_path) as (app, clock, listener):
        feed = feed_from_thread(app, recording, "camera", ends=True)
        assert feed.thread is not None
        feed.thread.join(timeout=10)
        assert [n.kind for n in app.drain()] == [NoticeKind.FAULT]
        clock.advance(0.5)
        assert [n.message for n in app.drain()] == ["camera restarted (attempt 1)"]
        feed.thread.join(timeout=10)  # it ran to its end before the next look
        assert [(n.kind, n.message) for n in app.drain()] == [
            (NoticeKind.RECOVERED, "camera works again")]
        assert app.healthy and not app.feeds_running()
        listener.said()
        app.keep_alive()
        assert listener.said() == ["STATUS=running", "WATCHDOG=1"]
        assert exit_status(app) == 1  # it did fail once


def test_a_panel_thread_that_ends_when_it_should_not_is_a_failure(tmp_path: Path) -> None:
    with table(tmp_path) as (app, _, _):
        feed = feed_from_thread(app, lambda: iter([None]), "panel")
        assert feed.thread is not None
        feed.thread.join(timeout=10)
        assert [n.message for n in app.drain()] == [
            "panel stopped: its thread ended; restart in 0.5 s"
        ]


class BrokenBuzzer:
    """Outputs whose buzzer fails, as a GPIO line lost to another program would."""

    def renege_alarm(self) -> None: ...

    def accept_tick(self) -> None:
        raise OSError(16, "Device or resource busy")

    def turn_light(self, seat: inputs.Seat | None) -> None: ...

    def close(self) -> None: ...


def test_failing_outputs_are_a_standing_problem_not_a_crash(tmp_path: Path) -> None:
    with table(tmp_path) as (app, _, _):
        app.outputs = BrokenBuzzer()
        bid_hand(app.controller)
        notices = app.handle(sighting("E", "AS"))
        assert notices[0].message == "E plays A♠"
        problems = current_view(app).problems
        assert [p.detail for p in problems] == [
            "outputs failed: OSError: [Errno 16] Device or resource busy"
        ]
        assert app.healthy  # the watchdog still runs: the game goes on
