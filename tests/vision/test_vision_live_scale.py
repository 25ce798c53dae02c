"""The live watcher at the camera's card size: a 720p table whose cards are 90 px long."""

from __future__ import annotations

from app.camera_demo import DEMO_GAME
from tools.table_synth import SynthConfig, TableScene, compare_events, tricks_from_log
from vision.live import TableWatcher
from vision.model import GlyphModel


def test_a_trick_of_cards_90_px_long_is_named_at_a_720p_table() -> None:
    # 90 px in the table plane; the far seat's card shows about 80 px in the frame.
    config = SynthConfig(width=1280, height=720, seed=3, max_tricks=1, card_size=90 / 720)
    scene = TableScene(tricks_from_log(DEMO_GAME), config)
    watcher = TableWatcher(GlyphModel.load(), scene.zones())
    reported = [{"event": e.kind.value, "t": e.t, "seat": e.seat, "card": e.card}
                for t, frame in scene.frames() for e in watcher.process(t, frame)]
    found = compare_events(scene.truth, reported)
    assert found.placed == 4
    assert (found.right, found.wrong, found.missed, found.phantoms) == (4, [], [], [])
