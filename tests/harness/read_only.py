"""Files and folders that refuse writes even to root, for the fault harness and its tests.

chmod does not stop root, and a file already open for writing keeps writing whatever its mode.
The immutable flag (`chattr +i`) does, on file systems that check it on every write (ext4 and
XFS do; tmpfs does not): writes through open descriptors fail with EPERM. A read-only bind
mount refuses every new open with EROFS.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

PROBE_NAME = ".immutable-probe"


def _chattr(flag: str, paths: list[Path]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["chattr", flag, *map(str, paths)], capture_output=True, text=True,
                          check=False)


def immutable_unsupported(folder: Path) -> str | None:
    """Why `chattr +i` cannot stop writes in `folder` here (None: it can). Tried for real: a
    file open for writing is made immutable and written once more."""
    if shutil.which("chattr") is None:
        return "no chattr command"
    if os.geteuid() != 0:
        return "setting the immutable flag needs root"
    probe = folder / PROBE_NAME
    with probe.open("wb", buffering=0) as out:
        done = _chattr("+i", [probe])
        if done.returncode != 0:
            probe.unlink()
            return f"chattr +i refused here: {done.stderr.strip() or done.returncode}"
        try:
            out.write(b"x")
            refused = False
        except OSError:
            refused = True
        finally:
            _chattr("-i", [probe])
    probe.unlink()
    return None if refused else "this file system ignores the immutable flag on open files"


def refuse_writes(paths: list[Path]) -> Callable[[], None]:
    """Make the existing `paths` immutable; returns what makes them writable again."""
    present = [path for path in paths if path.exists()]
    done = _chattr("+i", present)
    if done.returncode != 0:
        raise OSError(f"chattr +i {' '.join(map(str, present))}: {done.stderr.strip()}")

    def allow() -> None:
        _chattr("-i", present)

    return allow


@contextmanager
def immutable(paths: list[Path]) -> Iterator[None]:
    """The existing `paths` immutable for the block, writable again after it, whatever happens."""
    allow = refuse_writes(paths)
    try:
        yield
    finally:
        allow()


@contextmanager
def read_only_mount(folder: Path) -> Iterator[str | None]:
    """`folder` bind-mounted read-only over itself for the block; yields why not (None: done)."""
    if os.geteuid() != 0:
        yield "a bind mount needs root"
        return
    bound = subprocess.run(["mount", "--bind", str(folder), str(folder)], capture_output=True,
                           text=True, check=False)
    if bound.returncode != 0:
        yield f"cannot bind-mount here: {bound.stderr.strip() or bound.returncode}"
        return
    try:
        ro = subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], capture_output=True,
                            text=True, check=False)
        yield None if ro.returncode == 0 else f"cannot remount read-only: {ro.stderr.strip()}"
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True, check=False)
