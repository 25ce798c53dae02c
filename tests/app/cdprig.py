"""For the browser tests that act on a page: headless Chromium driven over its DevTools pipe."""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import subprocess
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ANSWER_S = 60.0


class BrowserError(RuntimeError):
    """The browser failed, ended, or a script on the page threw; the message says which."""


class Browser:
    """One headless Chromium with one tab, spoken to in DevTools protocol messages (fds 3, 4)."""

    def __init__(self, profile: Path, size: tuple[int, int] = (390, 844)) -> None:
        assert CHROMIUM is not None
        to_browser, self._commands = os.pipe()
        self._answers, from_browser = os.pipe()

        def on_fds_3_and_4() -> None:
            os.dup2(to_browser, 3)
            os.dup2(from_browser, 4)

        self.process = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             f"--user-data-dir={profile}", f"--window-size={size[0]},{size[1]}",
             "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=on_fds_3_and_4, pass_fds=(3, 4))
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = b""
        self._next_id = 0
        self.events: list[str] = []  # the names of the events seen, in order
        self.session: str | None = None
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target,
                                 flatten=True)["sessionId"]

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        """One command; its result (events on the way are passed over)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if self.session is not None and not method.startswith(("Target.", "Browser.")):
            message["sessionId"] = self.session
        os.write(self._commands, json.dumps(message).encode("utf-8") + b"\0")
        while True:
            answer = self._read()
            if "method" in answer:
                self.events.append(answer["method"])
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise BrowserError(f"{method}: {answer['error']}")
                result: dict[str, Any] = answer["result"]
                return result

    def open(self, url: str) -> None:
        """Go to `url` and wait until the page has loaded (its scripts have run)."""
        self.send("Page.enable")
        self.events.clear()
        self.send("Page.navigate", url=url)
        while "Page.loadEventFired" not in self.events:
            answer = self._read()
            if "method" in answer:
                self.events.append(answer["method"])

    def evaluate(self, expression: str) -> Any:
        """The value of a script on the page (a promise is waited for)."""
        result = self.send("Runtime.evaluate", expression=expression, awaitPromise=True,
                           returnByValue=True)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise BrowserError(details.get("exception", {}).get("description", str(details)))
        return result["result"].get("value")

    def wait_for(self, condition: str, value: str = "true", timeout_ms: int = 30000) -> Any:
        """Run `value` on the page once `condition` holds there (checked on each frame)."""
        return self.evaluate(
            "new Promise((resolve, reject) => { const until = Date.now() + " + str(timeout_ms)
            + "; const check = () => { if (" + condition + ") resolve(" + value + "); "
            "else if (Date.now() > until) reject(new Error('not on the page: ' + "
            + json.dumps(condition) + ")); else requestAnimationFrame(check); }; check(); })")

    def click(self, selector: str) -> None:
        """A left click in the middle of the element, as a finger or a mouse would."""
        box = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)}); "
            "e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect(); "
            "return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        x, y = box
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left",
                      clickCount=1)

    def type_into(self, selector: str, text: str) -> None:
        """Focus the field, empty it, and type `text` into it."""
        self.evaluate(f"(() => {{ const e = document.querySelector({json.dumps(selector)}); "
                      "e.focus(); e.select && e.select(); })()")
        self.send("Input.dispatchKeyEvent", type="keyDown", key="Backspace", code="Backspace",
                  windowsVirtualKeyCode=8)
        self.send("Input.dispatchKeyEvent", type="keyUp", key="Backspace", code="Backspace",
                  windowsVirtualKeyCode=8)
        self.send("Input.insertText", text=text)

    def choose(self, selector: str, value: str) -> None:
        """Pick an option of a select, as a change by the user."""
        self.evaluate(f"(() => {{ const e = document.querySelector({json.dumps(selector)}); "
                      f"e.value = {json.dumps(value)}; "
                      "e.dispatchEvent(new Event('change', {bubbles: true})); })()")

    def _read(self) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            ready, _, _ = select.select([self._answers], [], [], ANSWER_S)
            if not ready:
                raise BrowserError(f"Chromium did not answer within {ANSWER_S:g} s")
            chunk = os.read(self._answers, 1 << 16)
            if not chunk:
                raise BrowserError(f"Chromium ended (exit {self.process.poll()})")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        answer: dict[str, Any] = json.loads(message)
        return answer

    def close(self) -> None:
        """Close the browser."""
        with contextlib.suppress(BrowserError):
            self.send("Browser.close")
        os.close(self._commands)
        os.close(self._answers)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
