"""Recognition held to one thread: OpenCV's thread pool and numpy's OpenBLAS.

The frames' arrays are small: a pool's threads cost more in waking and waiting than they give,
and far more when the machine's cores are busy (a 24 x 2016 by 2016 x 98 product of the
known-deck matcher took 18 ms with OpenBLAS's threads on a loaded machine, 0.2 ms on one).
"""

from __future__ import annotations

import ctypes
from pathlib import Path

import cv2

SETTERS = ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads",
           "openblas_set_num_threads64_", "openblas_set_num_threads")
"""The names OpenBLAS builds give their thread-count setter (numpy's wheels, Debian's)."""


def one_thread() -> int:
    """Hold OpenCV and every OpenBLAS loaded in this process to one thread; returns how many
    OpenBLAS libraries were told (0 where none is loaded or it cannot be told)."""
    cv2.setNumThreads(1)
    told = 0
    for path in _loaded_blas():
        try:
            library = ctypes.CDLL(str(path))
        except OSError:
            continue
        setter = next((getattr(library, name) for name in SETTERS if hasattr(library, name)),
                      None)
        if setter is not None:
            setter(ctypes.c_int(1))
            told += 1
    return told


def _loaded_blas() -> list[Path]:
    """The OpenBLAS shared libraries mapped into this process (Linux's /proc/self/maps)."""
    maps = Path("/proc/self/maps")
    if not maps.exists():
        return []
    fields = (line.split() for line in maps.read_text().splitlines())
    paths = {f[-1] for f in fields if len(f) >= 6 and f[-1].startswith("/")
             and "openblas" in Path(f[-1]).name.lower() and ".so" in Path(f[-1]).name}
    return sorted(Path(p) for p in paths)
