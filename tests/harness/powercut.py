"""Power cuts, not just SIGKILLs: the journal rebuilt as the disk would hold it after one.

A SIGKILL keeps the page cache, so every write the table made survives it and fsync is never
put to the test. Here the table runs under an LD_PRELOAD shim (benchmarks/powercut/iolog.c)
that logs each write, truncate, sync and unlink on the journal's files. When the "power"
goes (a SIGKILL at a random moment, in play or during the start-up replay), the files are
rebuilt as of each one's last completed fsync, plus a random subset of the writes that came
after (the last one kept possibly torn at a 512-byte sector), the WAL index (-shm, never
synced) dropped, as SQLite's own crash-test VFS does. The table restarts on that image; what
the panel had been told was taken must all be there, and the game must end as it should.
"""

from __future__ import annotations

import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.harness.faultcheck import Game, Rig, Table, build_game, rig_for

SHIM_SOURCE = Path(__file__).resolve().parents[2] / "benchmarks" / "powercut" / "iolog.c"
HEAD = struct.Struct("<B7xqqqi4x")
SECTOR = 512
KEEP_UNSYNCED = 0.5  # the chance that each write made after the last fsync reached the disk
TEAR = 0.3  # the chance that the last write kept is torn


@dataclass(frozen=True)
class Op:
    """One logged operation: `kind` O, W, T, S or U on `path`."""

    kind: str
    path: str
    offset: int
    data: bytes = b""


def build_shim(folder: Path) -> Path:
    """Compile the shim with gcc; raises RuntimeError naming what is missing."""
    if shutil.which("gcc") is None:
        raise RuntimeError("the power-cut test needs gcc to build its I/O shim")
    target = folder / "iolog.so"
    result = subprocess.run(
        ["gcc", "-shared", "-fPIC", "-O2", "-o", str(target), str(SHIM_SOURCE), "-ldl",
         "-lpthread"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if result.returncode != 0:
        raise RuntimeError(f"cannot build {SHIM_SOURCE}: {result.stderr.strip()}")
    return target


def read_log(path: Path) -> list[Op]:
    """The operations in a shim log, in the order they happened (a torn last record dropped)."""
    data = path.read_bytes() if path.exists() else b""
    ops: list[Op] = []
    at = 0
    while at + HEAD.size <= len(data):
        kind, offset, length, _, path_length = HEAD.unpack_from(data, at)
        at += HEAD.size
        name = data[at : at + path_length].decode()
        at += path_length
        payload = b""
        if kind == ord("W"):
            payload = data[at : at + length]
            at += length
            if len(payload) < length:
                break
        ops.append(Op(chr(kind), name, offset, payload))
    return ops


def _apply(image: bytearray, op: Op, keep: int | None = None) -> None:
    if op.kind == "T":
        del image[op.offset :]
        image.extend(b"\0" * max(0, op.offset - len(image)))
        return
    data = op.data if keep is None else op.data[:keep]
    end = op.offset + len(data)
    if len(image) < op.offset:
        image.extend(b"\0" * (op.offset - len(image)))
    image[op.offset : end] = data


@dataclass
class Disk:
    """What is durable of each watched file, and what was written since its last fsync."""

    synced: dict[str, bytearray] = field(default_factory=dict)
    pending: dict[str, list[Op]] = field(default_factory=dict)
    syncs: int = 0
    writes: int = 0

    @classmethod
    def of(cls, files: dict[str, bytes]) -> Disk:
        return cls({name: bytearray(data) for name, data in files.items()})

    def replay(self, ops: list[Op]) -> None:
        for op in ops:
            if op.kind == "O":
                self.synced.setdefault(op.path, bytearray())
            elif op.kind in ("W", "T"):
                self.writes += op.kind == "W"
                self.synced.setdefault(op.path, bytearray())
                self.pending.setdefault(op.path, []).append(op)
            elif op.kind == "S":
                self.syncs += 1
                for pending in self.pending.pop(op.path, []):
                    _apply(self.synced.setdefault(op.path, bytearray()), pending)
            elif op.kind == "U":
                self.synced.pop(op.path, None)
                self.pending.pop(op.path, None)

    def after_cut(self, rng: random.Random) -> tuple[dict[str, bytes], int]:
        """Each file as the disk holds it after the power went; and how many writes it lost."""
        files: dict[str, bytes] = {}
        dropped = 0
        for name, durable in self.synced.items():
            if name.endswith("-shm"):
                continue  # the WAL index lives in shared memory; SQLite rebuilds it
            image = bytearray(durable)
            kept = [op for op in self.pending.get(name, []) if rng.random() < KEEP_UNSYNCED]
            dropped += len(self.pending.get(name, [])) - len(kept)
            for index, op in enumerate(kept):
                torn = index == len(kept) - 1 and op.kind == "W" and rng.random() < TEAR
                keep = rng.randrange(len(op.data) // SECTOR + 1) * SECTOR if torn else None
                _apply(image, op, keep)
            files[name] = bytes(image)
        return files, dropped


def snapshot(state_dir: Path) -> dict[str, bytes]:
    """The journal's files as they are now (the durable start of a run)."""
    files: dict[str, bytes] = {}
    for path in state_dir.glob("journal.sqlite*"):
        if path.name.endswith(("-wal", ".sqlite")):
            files[str(path.resolve())] = path.read_bytes()
    return files


def install(state_dir: Path, files: dict[str, bytes]) -> None:
    """Put the post-cut image in place of the files the killed table left in the cache."""
    for path in state_dir.glob("journal.sqlite*"):
        if path.name.endswith(("-wal", "-shm", ".sqlite")):
            path.unlink()
    for name, data in files.items():
        Path(name).write_bytes(data)


@dataclass
class CutReport:
    """What the power-cut check saw."""

    cuts: int = 0
    in_start_up: int = 0
    in_commit: int = 0  # cut within 2 ms of the table starting to write a commit
    unsynced_writes_dropped: int = 0
    syncs: int = 0
    acknowledged_missing: int = 0  # after the worst cut: acknowledged, not in the journal
    acknowledged: int = 0
    differs: list[str] = field(default_factory=list)
    tracebacks: int = 0

    @property
    def ok(self) -> bool:
        return not self.acknowledged_missing and not self.differs and not self.tracebacks


def power_cut_check(cuts: int = 20, seed: int = 3, limit: int | None = None,
                    keep: Path | None = None, lying_disk: bool = False) -> CutReport:
    """Play the game on the panel, cutting the power `cuts` times; compare with the game."""
    rng = random.Random(seed)
    game = build_game(seed, limit)
    report = CutReport()
    with tempfile.TemporaryDirectory() as folder:
        root = keep or Path(folder)
        root.mkdir(parents=True, exist_ok=True)
        shim = build_shim(Path(folder))
        with rig_for(game, f"powercut-{seed}", root) as rig:
            _cut_game(rig, game, rng, shim, cuts, report, lying_disk)
            report.acknowledged = rig.acknowledged
            report.tracebacks = rig.log.read_text(errors="replace").count("Traceback")
            report.differs += rig.notes
    return report


def _cut_game(rig: Rig, game: Game, rng: random.Random, shim: Path, cuts: int,
              report: CutReport, lying_disk: bool) -> None:
    moments = sorted(rng.sample(range(len(game.steps)), min(cuts, len(game.steps))))
    rig.state_dir.mkdir(parents=True, exist_ok=True)
    step, run, in_start_up = 0, 0, False
    while True:
        run += 1
        log = rig.folder / f"io-{run}.log"
        base = Disk.of(snapshot(rig.state_dir))
        env = {"LD_PRELOAD": str(shim), "CARDTABLE_IOLOG": str(log),
               "CARDTABLE_IOLOG_WATCH": "journal.sqlite"}
        if lying_disk:
            env["CARDTABLE_IOLOG_LIE"] = "1"
        table = rig.start(env)
        if in_start_up:
            in_start_up = False
            rig.panel.pump(rng.uniform(0.0, 1.0))
            _cut(rig, table, base, log, rng, report)
            report.in_start_up += 1
            continue
        if not rig.settle(table):
            rig.notes.append("the table died on its own at start")
            return
        step, _ = game.resume_at(rig.check_journal())
        target = max(moments.pop(0) if moments else len(game.steps), step)
        step = rig.play(table, step, target)
        if step >= len(game.steps):
            code, same = rig.finish(table)
            if code != 0:
                rig.notes.append(f"exit {code}")
            if not same:
                rig.notes.append("the final game")
            return
        size = log.stat().st_size if log.exists() else 0
        rig.press_step(table, step, wait=False)
        if rng.random() < 0.5:  # the power goes while that press is being committed
            _until_written(rig, log, size)
            time.sleep(rng.uniform(0.0, 0.002))
            report.in_commit += 1
        else:
            rig.panel.pump(rng.uniform(0.0, 0.04))
        _cut(rig, table, base, log, rng, report)
        in_start_up = rng.random() < 0.25


def _until_written(rig: Rig, log: Path, size: int, limit_s: float = 0.5) -> None:
    """Serve the panel until the table starts writing the journal (or `limit_s` passes)."""
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        if log.exists() and log.stat().st_size > size:
            return
        rig.panel.pump(0.0005)


def _cut(rig: Rig, table: Table, base: Disk, log: Path, rng: random.Random,
         report: CutReport) -> None:
    table.kill()
    base.replay(read_log(log))
    files, dropped = base.after_cut(rng)
    install(rig.state_dir, files)
    report.cuts += 1
    report.unsynced_writes_dropped += dropped
    report.syncs += base.syncs
    before = rig.lost
    rig.check_journal()
    report.acknowledged_missing = max(report.acknowledged_missing, rig.lost - before)
    rig.lost = before


def main(argv: list[str] | None = None) -> int:
    """`crash_test.py --power-cut [--kills N] [--seed S] [--steps N]`: prints the figures."""
    import argparse

    parser = argparse.ArgumentParser(prog="crash_test.py --power-cut")
    parser.add_argument("--power-cut", action="store_true")
    parser.add_argument("--kills", type=int, default=20, help="power cuts")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--steps", type=int, help="play only the first N steps of the game")
    parser.add_argument("--keep", type=Path, help="keep the state directory and logs here")
    parser.add_argument("--lying-disk", action="store_true",
                        help="a disk whose fsync does nothing: shows what the check catches")
    args = parser.parse_args(argv)
    if args.kills < 0 or (args.steps is not None and args.steps < 4):
        print("crash_test.py: --kills >= 0, --steps >= 4", file=sys.stderr)
        return 2
    try:
        report = power_cut_check(args.kills, args.seed, args.steps, args.keep, args.lying_disk)
    except RuntimeError as error:
        print(f"crash_test.py: {error}", file=sys.stderr)
        return 2
    print(
        f"cuts: {report.cuts}, acknowledged events missing: {report.acknowledged_missing}, "
        f"final game differs in: {', '.join(report.differs) or 'nothing'}"
    )
    print(
        f"cuts during start-up: {report.in_start_up}, while a commit was being written: "
        f"{report.in_commit}; events acknowledged: {report.acknowledged}, "
        f"fsyncs seen: {report.syncs}, "
        f"unsynced writes dropped by the cuts: {report.unsynced_writes_dropped}, "
        f"tracebacks: {report.tracebacks}"
    )
    return 0 if report.ok else 1
