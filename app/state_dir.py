"""A state directory the table cannot use: the environment's fault (exit 1, systemd tries
again), told apart from a bad config or command line (exit 2, not restarted)."""

from __future__ import annotations

import errno
from pathlib import Path

ENVIRONMENT_EXIT = 1
"""The exit status for a disk or directory that fails: not in RestartPreventExitStatus=2."""

ENVIRONMENT_ERRNOS = {
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "not permitted (read-only, immutable or not this user's)",
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EIO: "a disk error",
    errno.ENOENT: "it is missing and cannot be made",
    errno.ENODEV: "its disk is gone",
    errno.ENXIO: "its disk is gone",
    errno.ESTALE: "its network share is gone",
}
"""What an OSError says about the disk or the directory itself, not about the config."""


def environment_problem(error: OSError, state_dir: Path) -> str | None:
    """One line naming `state_dir` and what is wrong with it when `error` is the environment's
    fault (read-only, not permitted, full, gone); None for a path that is simply wrong."""
    what = ENVIRONMENT_ERRNOS.get(error.errno or 0)
    if what is None:
        return None
    where = Path(error.filename) if error.filename else state_dir
    inside = f" ({where.name})" if where != state_dir and where.parent == state_dir else (
        "" if where == state_dir else f" ({where})")
    return (f"the state directory {state_dir} cannot be used: {what}{inside}; the table exits "
            f"{ENVIRONMENT_EXIT} so that systemd starts it again once the directory is writable")
