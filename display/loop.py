"""The display's main loop: poll events, take new views, draw only on change, flip, tick.

Output: every tap or click on a touch target (`display.touch.hit_test`) goes on the loop's
`presses` queue: the OK and UNDO buttons (and the Enter/Space and Backspace/U keys) as
`ButtonPressed(action, source)`, every other target as `display.targets.Touched(target, source)`.
The same target tapped again within `debounce_seconds` is a bounce and is dropped. Escape or Q,
or closing the window, stops the loop (`step()` returns False).
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum

import pygame

from display.cards import Renege
from display.render import flash_on, render
from display.style import Style
from display.targets import ScreenButton, Touched, TouchTarget
from display.touch import hit_test
from display.view import Phase, View

OK_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)
UNDO_KEYS = (pygame.K_BACKSPACE, pygame.K_u)
QUIT_KEYS = (pygame.K_ESCAPE, pygame.K_q)
NOTHING_SHOWN = View(phase=Phase.BIDDING, dealer="N")
"""What taps are tested against before the first view: only OK, UNDO and CORRECT answer."""


class Action(StrEnum):
    """What an on-screen button asks for."""

    OK = "ok"
    UNDO = "undo"


@dataclass(frozen=True)
class ButtonPressed:
    """A press of OK or UNDO on the screen (touch or mouse) or the keyboard."""

    action: Action
    source: str


LoopOutput = ButtonPressed | Touched
"""What the loop puts on its `presses` queue."""


class DisplayLoop:
    """Draws views taken from `views`; puts OK/UNDO presses and other taps on `presses`.

    Runs in the main thread. Another thread puts a `View` on `views` whenever the state
    changes, or None to stop the loop. A newly proven renege (`view.alarm`) flashes for
    `alarm_seconds` and is then drawn without the alarm. `size` None with `fullscreen`
    takes the screen's own resolution.
    """

    def __init__(
        self,
        views: queue.Queue[View | None],
        presses: queue.Queue[LoopOutput],
        *,
        size: tuple[int, int] | None = (800, 480),
        fullscreen: bool = False,
        style: Style | None = None,
        clock: Callable[[], float] = time.monotonic,
        alarm_seconds: float = 6.0,
        fps: int = 30,
        idle_fps: int = 10,
        debounce_seconds: float = 0.25,
        pressed_seconds: float = 0.2,
    ) -> None:
        self.views = views
        self.presses = presses
        self.size = size
        self.fullscreen = fullscreen or size is None
        self.style = style or Style()
        self.clock = clock
        self.alarm_seconds = alarm_seconds
        self.fps = fps
        self.idle_fps = idle_fps
        self.debounce_seconds = debounce_seconds
        self.pressed_seconds = pressed_seconds
        self.view: View | None = None
        self.alarm: Renege | None = None
        self.alarm_started = 0.0
        self.last_alarm_seen: Renege | None = None
        self.pressed: Action | None = None
        self.pressed_at = -1e9
        self.last_press: dict[Action | TouchTarget, float] = {}
        self.touched: TouchTarget | None = None
        self.frames_drawn = 0
        self.running = True
        self._dirty = True
        self._drawn_flash: bool | None = None
        self._screen: pygame.Surface | None = None

    # -- set-up -------------------------------------------------------------------------------

    def open(self) -> pygame.Surface:
        """Open the window (or the whole screen when `size` is None) and return its surface."""
        pygame.display.init()
        pygame.font.init()
        if self.fullscreen:
            screen = pygame.display.set_mode(self.size or (0, 0), pygame.FULLSCREEN)
            pygame.mouse.set_visible(False)
        else:
            screen = pygame.display.set_mode(self.size or (800, 480))
        pygame.display.set_caption("cardtable")
        pygame.event.set_blocked([pygame.MOUSEMOTION, pygame.FINGERMOTION])
        self._screen = screen
        self._dirty = True
        return screen

    def run(self, max_seconds: float | None = None) -> None:
        """Loop until the window closes, None arrives on the queue, or `max_seconds` pass."""
        if self._screen is None:
            self.open()
        ticker = pygame.time.Clock()
        started = self.clock()
        while self.step():
            if max_seconds is not None and self.clock() - started >= max_seconds:
                break
            ticker.tick(self.fps if self.animating() else self.idle_fps)

    # -- one turn of the loop -----------------------------------------------------------------

    def step(self) -> bool:
        """Handle events, take new views, draw if anything changed; False once stopped."""
        now = self.clock()
        for event in pygame.event.get():
            self.handle(event, now)
        self.take_views(now)
        self.update(now)
        if self.running and self.needs_drawing(now):
            self.draw(now)
        return self.running

    def handle(self, event: pygame.event.Event, now: float) -> None:
        """React to one pygame event."""
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type in (pygame.WINDOWEXPOSED, pygame.WINDOWSIZECHANGED, pygame.VIDEORESIZE):
            self._dirty = True
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if not getattr(event, "touch", False):
                self.press_at(event.pos, "mouse", now)
        elif event.type == pygame.FINGERDOWN:
            width, height = self.screen().get_size()
            self.press_at((round(event.x * width), round(event.y * height)), "touch", now)
        elif event.type == pygame.KEYDOWN:
            if event.key in QUIT_KEYS:
                self.running = False
            elif event.key in OK_KEYS:
                self.press(Action.OK, "key", now)
            elif event.key in UNDO_KEYS:
                self.press(Action.UNDO, "key", now)

    def press_at(self, position: tuple[int, int], source: str, now: float) -> None:
        """A tap or click at `position`: reported if it lands on a touch target."""
        view = self.shown_view() or NOTHING_SHOWN
        target = hit_test(view, self.screen().get_size(), position)
        if isinstance(target, ScreenButton):
            self.press(Action(target.name), source, now)
        elif target is not None:
            self.touch(target, source, now)

    def press(self, action: Action, source: str, now: float) -> None:
        """Report a press, unless the same button was pressed a moment ago (a bounce)."""
        if self.bounced(action, now):
            return
        self.presses.put(ButtonPressed(action, source))
        self.pressed, self.pressed_at = action, now
        self._dirty = True

    def touch(self, target: TouchTarget, source: str, now: float) -> None:
        """Report a tap on `target`, unless it was tapped a moment ago (a bounce)."""
        if self.bounced(target, now):
            return
        self.presses.put(Touched(target, source))
        self.touched, self.pressed_at = target, now
        self._dirty = True

    def bounced(self, what: Action | TouchTarget, now: float) -> bool:
        """Whether `what` was pressed less than `debounce_seconds` ago; notes the press if not."""
        if now - self.last_press.get(what, -1e9) < self.debounce_seconds:
            return True
        self.last_press[what] = now
        return False

    def take_views(self, now: float) -> None:
        """Take every view waiting on the queue; the last one is shown, no alarm is missed."""
        while True:
            try:
                view = self.views.get_nowait()
            except queue.Empty:
                return
            if view is None:
                self.running = False
                return
            if view.alarm is not None and view.alarm != self.last_alarm_seen:
                self.alarm, self.alarm_started = view.alarm, now
            self.last_alarm_seen = view.alarm
            if view != self.view:
                self.view = view
                self._dirty = True

    def update(self, now: float) -> None:
        """End the alarm and the pressed look when their time is up."""
        if self.alarm is not None and now - self.alarm_started >= self.alarm_seconds:
            self.alarm = None
            self._dirty = True
        pressing = self.pressed is not None or self.touched is not None
        if pressing and now - self.pressed_at >= self.pressed_seconds:
            self.pressed = self.touched = None
            self._dirty = True

    def animating(self) -> bool:
        """Whether something moves on screen without a new view (the alarm, a pressed button)."""
        return self.alarm is not None or self.pressed is not None or self.touched is not None

    def needs_drawing(self, now: float) -> bool:
        """Whether the screen would look different from the last frame drawn."""
        if self.view is None:
            return False
        if self._dirty:
            return True
        return self.alarm is not None and flash_on(now - self.alarm_started) != self._drawn_flash

    def shown_view(self) -> View | None:
        """The view as drawn now: with the running alarm, or none once it has ended."""
        if self.view is None:
            return None
        return replace(self.view, alarm=self.alarm)

    def draw(self, now: float) -> None:
        """Draw the current view and flip it onto the screen."""
        view = self.shown_view()
        if view is None:
            return
        screen = self.screen()
        render(view, screen, now - self.alarm_started, style=self.style,
               pressed=self.pressed.value if self.pressed else None, touched=self.touched)
        pygame.display.flip()
        self.frames_drawn += 1
        self._dirty = False
        self._drawn_flash = flash_on(now - self.alarm_started) if self.alarm else None

    def screen(self) -> pygame.Surface:
        """The display surface, opening it if needed."""
        if self._screen is None:
            return self.open()
        return self._screen
