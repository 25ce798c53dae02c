"""A camera thread that crashes or hangs in a real `cardtable run`: the fault harness's rows.

The table runs with its recorded camera failing on purpose (tests/harness/camera_fault.py)
while the game is played on the panel. The table must show it, restart the camera with backoff,
feed systemd's watchdog only while it is well (read from a notify socket the harness listens
on, as systemd does), exit 1 naming the failures, and lose nothing the panel was told.
"""

from __future__ import annotations

import re
import shutil
import socket
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.harness.faultcheck import (
    CAMERA_CONFIG,
    STOPPED,
    Game,
    Rig,
    Row,
    _row,
    rig_for,
    write_camera,
)

THREAD_FRAMES = 200
STUCK_AFTER_S = 2.0
"""`--stuck-after` for the run: a hung camera is seen this long after its last frame."""
THREAD_FAULTS = {"raise": "raise:20:3", "hang": "hang:30"}
"""Three crashes 20 frames apart (backoff 0.5, 1, 2 s), or one read that never returns."""
STOPS = {"raise": 3, "hang": 1}
CAUSES = {"raise": "InjectedCameraFault", "hang": "no sign of life for "}
"""What the stops the fault makes say (a loaded machine may add others: they are named)."""
RECOVERY_TIMEOUT_S = 30.0
STOPPED_SAID = "camera stopped: "
WELL_SAID = "camera works again"


@dataclass
class NotifyListener:
    """A systemd notify socket: every field the table sends (READY=1, STATUS=..., WATCHDOG=1),
    in the order sent."""

    folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="ctnotify")))
    fields: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.path = self.folder / "notify"  # short: a socket's path has at most 107 bytes
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._socket.bind(str(self.path))
        self._socket.settimeout(0.1)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while not self._stop.is_set():
            try:
                data = self._socket.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                return
            self.fields += data.decode(errors="replace").splitlines()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self._socket.close()
        shutil.rmtree(self.folder, ignore_errors=True)


@dataclass(frozen=True)
class WatchdogRecord:
    """What systemd heard: pings while the table said it was unwell, and in all."""

    pings: int
    pings_while_unwell: int
    unwell_spells: int


def watchdog_record(fields: list[str]) -> WatchdogRecord:
    """Count WATCHDOG=1 while the last STATUS named a stopped camera."""
    unwell, pings, while_unwell, spells = False, 0, 0, 0
    for line in fields:
        if line.startswith("STATUS="):
            now_unwell = STOPPED_SAID in line
            spells += now_unwell and not unwell
            unwell = now_unwell
        elif line == "WATCHDOG=1":
            pings += 1
            while_unwell += unwell
    return WatchdogRecord(pings, while_unwell, spells)


def fault_camera_thread(game: Game, root: Path, how: str) -> Row:
    """The camera's thread raises (three times) or hangs while the panel plays the game."""
    name = {"raise": f"camera thread raises ({STOPS['raise']} times)",
            "hang": "camera thread hangs (a frame read that never returns)"}[how]
    with rig_for(game, f"thread-{how}", root) as rig:
        write_camera(rig.folder, THREAD_FRAMES, bad={})
        with rig.config.open("a") as config:
            config.write(CAMERA_CONFIG)
        notify = NotifyListener()
        try:
            table = rig.start(
                env={"NOTIFY_SOCKET": str(notify.path)},
                camera_fault=THREAD_FAULTS[how],
                extra=("--stuck-after", f"{STUCK_AFTER_S:g}"),
            )
            rig.settle(table)
            half = len(game.steps) // 2
            step = rig.play(table, 0, half)
            end = time.monotonic() + RECOVERY_TIMEOUT_S
            while time.monotonic() < end and table.alive:  # the panel is served meanwhile
                news = camera_news(rig)
                stops = sum(line.startswith(STOPPED_SAID + CAUSES[how]) for line in news)
                if stops >= STOPS[how] and news[-1] == WELL_SAID:
                    break
                rig.panel.pump(0.1)
            step = rig.play(table, step, len(game.steps))
            code, same = rig.finish(table)
        finally:
            notify.close()
            (rig.folder / "notify.log").write_text("".join(f"{f}\n" for f in notify.fields))
        return _row(rig, name, _judge(rig, how, code, same, watchdog_record(notify.fields)))

    return _row(rig, name, STOPPED)


def table_log(rig: Rig) -> list[str]:
    """The lines the table logged (not the notices it printed), without their prefix."""
    return [line.removeprefix("cardtable: ") for line in
            rig.log.read_text(errors="replace").splitlines() if line.startswith("cardtable: ")]


def camera_news(rig: Rig) -> list[str]:
    """The table's log lines about the camera's health, oldest first."""
    return [line for line in table_log(rig)
            if line.startswith((WELL_SAID, "camera restarted", STOPPED_SAID))]


def _judge(rig: Rig, how: str, code: int, same: bool, dog: WatchdogRecord) -> str:
    """What the table did about the camera, from its log and what systemd heard; the rig
    notes what falls short."""
    lines = table_log(rig)
    stops = [line for line in lines if line.startswith(STOPPED_SAID)]
    delays = [float(d) for line in stops for d in re.findall(r"; restart in ([\d.]+) s$", line)]
    restarts = sum(line.startswith("camera restarted (attempt") for line in lines)
    news = camera_news(rig)
    caused = [line for line in stops if line.startswith(STOPPED_SAID + CAUSES[how])]
    if len(caused) != STOPS[how] or restarts != len(stops):
        rig.notes.append(f"{len(caused)} stops of the fault shown, {restarts} restarts")
    if delays != sorted(delays):
        rig.notes.append(f"restarts after {delays} s: no backoff")
    others = [line.split(";")[0] for line in stops if line not in caused]
    if news and news[-1] != WELL_SAID:
        rig.notes.append(f"the camera's last news: {news[-1]}")
    if dog.pings_while_unwell or not dog.pings or not dog.unwell_spells:
        rig.notes.append(f"watchdog: {dog.pings_while_unwell} of {dog.pings} pings while down")
    named = any("feed failure(s)" in line for line in lines)
    if code != 1 or not named or not same:
        rig.notes.append(f"exit {code}, final game {'same' if same else 'differs'}")
    fed = (f"none of them while it was down ({dog.unwell_spells} spells)"
           if not dog.pings_while_unwell else f"{dog.pings_while_unwell} of them while DOWN")
    also = f" (also: {'; '.join(others)})" if others else ""
    said = caused[0].split(";")[0] if caused else STOPPED_SAID + CAUSES[how]
    said = said if len(said) < 60 else said[:said.index(":", len(STOPPED_SAID)) + 1] + " ..."
    return (f"shown {len(caused)} times ('{said}'){also}, restarted "
            f"after {', '.join(f'{d:g}' for d in delays)} s, well again at the end; the watchdog "
            f"fed {dog.pings} times, {fed}; final game {'the same' if same else 'DIFFERS'}, "
            f"exit {code} naming the failures")
