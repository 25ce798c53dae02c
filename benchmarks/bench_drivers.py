"""Driver figures: key reading, panel protocol, panel latency over a pty, recorded frame rate.

Run: .venv/bin/python benchmarks/bench_drivers.py
"""

from __future__ import annotations

import select
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from drivers.camera import RecordedSource
from drivers.debounce import KeyId, KeyReader
from drivers.fake_panel import LoopPanel, PtyPanel
from drivers.inputs import PanelConnected
from drivers.panel_link import PanelLink
from drivers.panel_protocol import PanelSession, frame
from drivers.recording import write_images, write_video


def bench_key_reader(presses: int = 50_000) -> None:
    reader = KeyReader()
    keys = [KeyId(name) for name in ("3", "4", "PASS", "OK", "HEARTS")]
    now = 0.0
    start = time.perf_counter()
    events = 0
    for index in range(presses):
        key = keys[index % len(keys)]
        events += len(reader.edge(key, True, now))
        now += 0.08
        events += len(reader.edge(key, False, now))
        now += 0.3
    elapsed = time.perf_counter() - start
    print(f"key reader: {2 * presses / elapsed:,.0f} edges/s ({events} events)")


def acknowledge(events: list[Any]) -> None:
    """What the table does once each input is committed."""
    for event in events:
        done = getattr(event, "acknowledge", None)
        if done is not None:
            done()


def bench_session(lines: int = 50_000) -> None:
    session = PanelSession("bench", ack_on_receipt=True)
    session.line_received(frame("HELLO cardtable-panel 2 2.0.0 - b 1"))
    text = []
    for seq in range(1, lines + 1):
        verb = "DOWN" if seq % 2 else "UP"
        text.append(frame(f"{verb} {seq} {seq * 200} OK"))
    start = time.perf_counter()
    for line in text:
        session.line_received(line)
    elapsed = time.perf_counter() - start
    print(f"panel session: {lines / elapsed:,.0f} lines/s parsed, acknowledged and read")


def bench_loop_link(presses: int = 2_000) -> None:
    fake = LoopPanel()
    link = PanelLink("loop://", open_port=fake.open)
    while not link.connected:
        link.poll()
    start = time.perf_counter()
    got = 0
    for _ in range(presses):
        fake.press("OK")
        events = link.poll()
        acknowledge(events)
        got += len(events)
    elapsed = time.perf_counter() - start
    print(f"panel over loop://: {presses / elapsed:,.0f} presses/s end to end ({got} events)")


def bench_pty_latency(presses: int = 200) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        panel = PtyPanel(Path(tmp) / "usb-MicroPython_Board-if00")
        link = PanelLink(str(panel.link_path))
        while not link.connected:
            events = link.poll()
            assert panel._master is not None
            select.select([panel._master], [], [], 0.01)
            panel.service()
            if any(isinstance(e, PanelConnected) for e in events):
                break
        latencies = []
        for _ in range(presses):
            sent = time.perf_counter()
            panel.press("PASS", hold_ms=100)
            while not (events := link.poll()):
                pass
            acknowledge(events)
            latencies.append((time.perf_counter() - sent) * 1000)
            panel.service()  # read the ACKs
        panel.close()
        link.close()
    latencies.sort()
    p99 = latencies[int(0.99 * len(latencies)) - 1]
    print(
        f"panel over a pty: press to event median {statistics.median(latencies):.3f} ms, "
        f"p99 {p99:.3f} ms ({presses} presses, busy polling)"
    )


def bench_recorded(width: int, height: int, frames: int = 120) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for kind, path in (
            ("MJPG video", write_video(Path(tmp) / "v.avi", frames, width=width, height=height)),
            ("PNG folder", write_images(Path(tmp) / "png", frames, width=width, height=height)),
        ):
            source = RecordedSource(path)
            source.open()
            start = time.perf_counter()
            count = 0
            while source.read() is not None:
                count += 1
            elapsed = time.perf_counter() - start
            source.close()
            print(f"recorded {kind} {width}x{height}: {count / elapsed:,.0f} frames/s ({count})")


def main() -> None:
    bench_key_reader()
    bench_session()
    bench_loop_link()
    bench_pty_latency()
    bench_recorded(640, 480)
    bench_recorded(1280, 720)
    bench_recorded(1920, 1080, frames=60)


if __name__ == "__main__":
    main()
