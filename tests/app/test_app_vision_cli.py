"""The `cardtable vision` and `cardtable deck` commands, run through the real entry point."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from app.cli import main
from tests.tools.rendered_folder import rendered_folder
from tools.scenes import paste_card, plain_card, table_background


@pytest.fixture()
def scene_file(tmp_path: Path) -> Path:
    scene = table_background(960, 540, seed=5)
    paste_card(scene, plain_card("K", "D"), (300, 270), 260, 8)
    paste_card(scene, plain_card("", None), (650, 270), 260, -10)
    path = tmp_path / "two cards.png"
    cv2.imwrite(str(path), scene)
    return path


def test_detect_json_prints_the_prediction_format(scene_file: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vision", "detect", str(scene_file), "--json"]) == 0
    line = json.loads(capsys.readouterr().out.strip())
    assert line["image"] == str(scene_file)
    assert isinstance(line["ms"], float)
    cards = sorted(line["cards"], key=lambda c: c["corners"][0][0])
    assert [c["card"] for c in cards] == ["KD", None]
    assert all(len(c["corners"]) == 4 and 0.0 <= c["confidence"] <= 1.0 for c in cards)
    assert all(c["whole"] is True for c in cards)


def test_detect_readable_list_and_annotation(scene_file: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "annotated"
    assert main(["vision", "detect", str(scene_file), "--annotate", str(out_dir)]) == 0
    text = capsys.readouterr().out
    assert "2 card(s)" in text and "KD" in text and "unreadable" in text
    drawn = cv2.imread(str(out_dir / "two cards.png"))
    original = cv2.imread(str(scene_file))
    assert drawn is not None and original is not None
    assert drawn.shape == original.shape
    assert np.any(drawn != original)


def test_detect_reports_an_unreadable_file(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    bogus = tmp_path / "not an image.jpg"
    bogus.write_text("hello")
    assert main(["vision", "detect", str(bogus)]) == 2
    assert "not an image.jpg" in capsys.readouterr().err


def house_joker() -> np.ndarray:
    """A joker unlike the shipped artwork's: a white card with a large purple star and a word."""
    card = np.full((490, 338, 3), 250, np.uint8)
    star = [(169 + r * np.sin(a), 245 - r * np.cos(a))
            for a, r in zip(np.linspace(0, 4 * np.pi, 5, endpoint=False), [150] * 5, strict=True)]
    cv2.fillPoly(card, [np.array(star, np.int32)], (160, 40, 120))
    cv2.putText(card, "JOKER", (40, 470), cv2.FONT_HERSHEY_TRIPLEX, 1.8, (20, 20, 20), 3)
    cv2.rectangle(card, (0, 0), (337, 489), (150, 150, 150), 3)
    return card


def test_enroll_builds_a_profile_used_by_detect(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    photos = tmp_path / "deck"
    photos.mkdir()
    faces = {"KD": plain_card("K", "D"), "9S": plain_card("9", "S"),
             "10H": plain_card("10", "H"), "JK_red": house_joker()}
    for name, face in faces.items():
        image = table_background(400, 500, seed=6)
        paste_card(image, face, (200, 250), 380, 3)
        cv2.imwrite(str(photos / f"{name}.jpg"), image)
    profile = tmp_path / "deck.npz"
    assert main(["deck", "enroll", str(photos), "--out", str(profile)]) == 0
    out, err = capsys.readouterr()
    assert "6 index glyphs, 4 faces (joker included)" in out and not err
    scene = tmp_path / "scene.png"
    image = table_background(900, 480, seed=7)
    paste_card(image, plain_card("10", "H"), (250, 240), 300, -6)
    paste_card(image, house_joker(), (650, 240), 300, 170)
    cv2.imwrite(str(scene), image)
    assert main(["vision", "detect", str(scene), "--json"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert sorted(c["card"] or "?" for c in line["cards"]) == ["?", "TH"]
    assert main(["vision", "detect", str(scene), "--json", "--deck", str(profile)]) == 0
    line = json.loads(capsys.readouterr().out)
    assert sorted(c["card"] for c in line["cards"]) == ["JK", "TH"]


def test_enroll_rejects_photos_not_named_by_card(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    photos = tmp_path / "deck"
    photos.mkdir()
    cv2.imwrite(str(photos / "holiday.jpg"), np.zeros((10, 10, 3), np.uint8))
    assert main(["deck", "enroll", str(photos), "--out", str(tmp_path / "p.npz")]) == 2
    assert "holiday.jpg" in capsys.readouterr().err


def mini_folder(shared_dir: Path, tmp_path: Path, keep: list[str]) -> Path:
    """A labelled folder holding only the `keep` photos of the shared set, with its scorer."""
    folder = tmp_path / "mini"
    source = shared_dir / "vision"
    labels = json.loads((source / "labels.json").read_text())
    labels["images"] = {k: labels["images"][k] for k in keep}
    (folder / "dev").mkdir(parents=True)
    (folder / "labels.json").write_text(json.dumps(labels))
    for key in keep:
        (folder / "dev" / key).parent.mkdir(exist_ok=True)
        shutil.copy(source / "dev" / key, folder / "dev" / key)
    shutil.copy(source / "score.py", folder / "score.py")
    return folder


def test_eval_scores_a_labelled_folder(shared_dir: Path, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    folder = rendered_folder(tmp_path / "photos", {"rendered_felt": 3},
                             scorer=shared_dir / "vision" / "score.py")
    assert main(["vision", "eval", str(folder)]) == 0
    table = capsys.readouterr().out
    row = next(line for line in table.splitlines() if line.startswith("rendered_felt"))
    images, truth, found, identified = (int(v) for v in row.split()[1:5])
    assert (images, truth, found) == (3, 6, 6)
    assert identified >= 5


def test_eval_scores_the_rank_only_halves_apart(shared_dir: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from tools.fitting import is_fit_photo

    labels = json.loads((shared_dir / "vision" / "labels.json").read_text())
    edje = sorted(k for k in labels["images"] if k.startswith("edje_train/"))
    keep = [next(k for k in edje if is_fit_photo(k)), next(k for k in edje if not is_fit_photo(k))]
    folder = mini_folder(shared_dir, tmp_path, keep)
    assert main(["vision", "eval", str(folder), "--halves"]) == 0
    text = capsys.readouterr().out
    halves = text.split("edje_train, ")
    assert len(halves) == 3 and halves[1].startswith("fit half")
    assert halves[2].startswith("measure half")
    for half in halves[1:]:
        row = next(line for line in half.splitlines() if line.startswith("edje_train"))
        assert row.split()[2] == "1"  # one image in each half


def test_fit_model_without_its_fonts_says_which_and_writes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import tools.glyph_fonts

    monkeypatch.setattr(tools.glyph_fonts, "FONT_DIRS", (tmp_path / "no fonts",))
    (tmp_path / "shared" / "artwork").mkdir(parents=True)
    out = tmp_path / "model.npz"
    code = main(["vision", "fit-model", "--shared", str(tmp_path / "shared"), "--out", str(out)])
    assert code == 2
    error = capsys.readouterr().err
    assert error.startswith("error: font 'DejaVuSerif.ttf' not found")
    assert "fonts-dejavu-core" in error
    assert not out.exists()
