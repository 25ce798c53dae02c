# cardtable serial panel firmware for a Raspberry Pi Pico (MicroPython).
# Reads the buttons, drives the lights and the buzzer, and talks to the Pi over USB serial.
# Copy main.py and panel_core.py to the board (see README.md in this folder).

import os
import select
import sys
import time

import machine
import micropython
from panel_core import PanelCore, frame

SEAT = None  # None for a shared panel; "N", "E", "S" or "W" for one seat's own pad
DEBOUNCE_MS = 15

# Button name -> GPx pin. Buttons connect the pin to GND; internal pull-ups are used.
BUTTONS = {
    "3": 2, "4": 3, "5": 4, "6": 5, "ASK": 6, "MOON": 7, "PASS": 8,
    "CLUBS": 9, "DIAMONDS": 10, "HEARTS": 11, "SPADES": 12, "OK": 13, "UNDO": 14,
    "CARD": 22, "CORRECT": 26,
}
BUZZER = 15
LEDS = {"N": 16, "E": 17, "S": 18, "W": 19, "ACCEPT": 20, "RENEGE": 21}


class Buzzer:
    """Plays an on/off pattern (milliseconds: on, off, on, ...) without blocking the loop."""

    def __init__(self, pin):
        self.pin = machine.Pin(pin, machine.Pin.OUT, value=0)
        self.steps = []
        self.index = 0
        self.until = None

    def play(self, pattern):
        self.steps = list(pattern)
        self.index = 0
        self.until = None

    def update(self, ms):
        if self.index >= len(self.steps):
            self.pin.value(0)
            return
        if self.until is None:
            self.until = ms + self.steps[0]
            self.pin.value(1)
        elif ms >= self.until:
            self.index += 1
            if self.index < len(self.steps):
                self.pin.value(1 if self.index % 2 == 0 else 0)
                self.until += self.steps[self.index]
            else:
                self.pin.value(0)


class Key:
    """One debounced button."""

    def __init__(self, label, pin):
        self.label = label
        self.pin = machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP)
        self.stable = False
        self.raw = False
        self.since = 0

    def poll(self, ms, core):
        raw = self.pin.value() == 0
        if raw != self.raw:
            self.raw = raw
            self.since = ms
        elif raw != self.stable and ms - self.since >= DEBOUNCE_MS:
            self.stable = raw
            core.key_edge(self.label, raw, self.since)


def write_line(line):
    sys.stdout.write(frame(line) + "\n")


def main():
    undo = machine.Pin(BUTTONS["UNDO"], machine.Pin.IN, machine.Pin.PULL_UP)
    if undo.value() == 0:
        return  # UNDO held while plugging in: stay at the REPL (for mpremote)
    micropython.kbd_intr(-1)  # a 0x03 byte on the line must not stop the firmware
    leds = {name: machine.Pin(pin, machine.Pin.OUT, value=0) for name, pin in LEDS.items()}
    buzzer = Buzzer(BUZZER)
    boot = "".join(f"{byte:02x}" for byte in os.urandom(4))  # new id each power-up
    core = PanelCore(
        write_line,
        seat=SEAT,
        boot=boot,
        on_led=lambda name, on: leds[name].value(1 if on else 0),
        on_buzz=buzzer.play,
    )
    core.start()
    keys = [Key(label, pin) for label, pin in BUTTONS.items()]
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    uptime = 0
    last = time.ticks_ms()
    while True:
        now = time.ticks_ms()
        uptime += time.ticks_diff(now, last)  # ticks_ms wraps; the sum does not
        last = now
        for key in keys:
            key.poll(uptime, core)
        while poller.poll(0):
            core.feed(sys.stdin.read(1))
        core.tick(uptime)
        buzzer.update(uptime)
        time.sleep_ms(2)


main()
