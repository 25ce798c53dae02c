"""One table per state directory: an advisory lock held for the life of the process."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

LOCK_NAME = "table.lock"


class TableRunning(Exception):
    """Another table holds this state directory; the message names the directory and its pid."""


class StateLock:
    """An exclusive flock on `DIR/table.lock`; the kernel releases it when the process dies."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = state_dir
        self.path = state_dir / LOCK_NAME
        self._fd: int | None = None

    def acquire(self, what: str = "the table") -> None:
        """Take the lock or raise TableRunning; writes this process's pid into the lock file."""
        self.state_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _pid_in(fd)
            os.close(fd)
            raise TableRunning(
                f"a table is already running on {self.state_dir} (pid {pid or 'unknown'}): "
                f"{what} would write into its journal; stop it first "
                "(sudo systemctl stop cardtable), or use the table's own buttons"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        """Give the lock back (closing the file releases it)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> StateLock:
        if self._fd is None:
            self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def running_table(state_dir: Path) -> int | None:
    """The pid of the table holding `state_dir`, or None when no table runs there."""
    path = state_dir / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return _pid_in(fd) or -1
    finally:
        os.close(fd)
    return None


def _pid_in(fd: int) -> int | None:
    text = os.pread(fd, 32, 0).decode(errors="replace").strip()
    return int(text) if text.isdigit() else None
