"""Screenshots of the pages in headless Chromium, at a phone's size and a desktop's."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

SIZES = {"phone": (390, 844), "desktop": (1366, 768)}
# Chromium's virtual clock stands still while a request is open: the server ends its event
# streams soon and the page reconnects, so the page settles within the budget.
SHORT_STREAMS = {"stream_s": 0.3, "retry_ms": 500}
BUDGET_MS = 3000


class ScreenshotError(Exception):
    """No browser to take the screenshots with, or it failed; the message says which."""


def chromium() -> str:
    """The Chromium command; ScreenshotError naming the package when it is missing."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        raise ScreenshotError("headless Chromium is needed: sudo apt-get install chromium")
    return found


def screenshot(url: str, out: Path, size: tuple[int, int], browser: str | None = None) -> Path:
    """One page at one size, written as PNG once its script has run."""
    with tempfile.TemporaryDirectory() as profile:
        command = [browser or chromium(), "--headless", "--no-sandbox", "--disable-gpu",
                   "--hide-scrollbars", f"--user-data-dir={profile}",
                   f"--window-size={size[0]},{size[1]}", f"--virtual-time-budget={BUDGET_MS}",
                   f"--screenshot={out}", url]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if done.returncode != 0 or not out.is_file():
        raise ScreenshotError(f"Chromium could not take {url}: {done.stderr.strip()[-300:]}")
    return out


def screenshots(base_url: str, pages: dict[str, str], outdir: Path) -> list[Path]:
    """Each named page (a path after the server's address) at every size, into `outdir`."""
    outdir.mkdir(parents=True, exist_ok=True)
    browser = chromium()
    return [screenshot(base_url + page, outdir / f"{name}_{size_name}.png", size, browser)
            for name, page in pages.items() for size_name, size in SIZES.items()]
