"""`cardtable run` on a recorded camera (1280x720, 10 fps): CPU against the recording's length.

The demo (`cardtable demo`) prints the latency from a card lying still to the screen showing
it; this measures the whole process, start-up included, as the service would run it.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from app.camera_demo import write_recording


def main() -> None:
    """Print the figures."""
    tricks = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    with tempfile.TemporaryDirectory() as folder:
        config, presses = write_recording(Path(folder) / "rec", max_tricks=tricks)
        frames = len(list((config.parent / "frames").glob("frame_*.jpg")))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "app", "run", "--config", str(config), "--script",
             str(presses), "--no-display", "--state-dir", str(Path(folder) / "state")],
            check=True, stdout=subprocess.DEVNULL,
        )
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    seconds = frames / 10
    print(f"recording: {frames} frames at 1280x720 = {seconds:.0f} s of table at 10 fps")
    print(f"cardtable run: {wall:.1f} s wall, {cpu:.1f} s CPU (decoding JPEG frames included)")
    print(f"CPU use when paced at 10 fps: {100 * cpu / seconds:.0f}% of one core")
    print(f"peak memory: {after.ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
