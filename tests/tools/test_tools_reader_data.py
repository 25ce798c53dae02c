"""Training views of the learned reader: drawn faces, their labels, the cache, one training step."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tools.reader_data import (
    NO_SUIT,
    Recipe,
    _paired,
    build,
    camera_faults,
    dev_crops,
    is_calibration,
    label_indices,
    labelled_suits,
    occluded,
    place_face,
    sideways_quad,
    swapped_figure,
    view_of,
)
from tools.reader_faces import (
    FACE_HEIGHT,
    FACE_WIDTH,
    Face,
    FontFaces,
    all_cards,
    label_of,
    system_fonts,
)
from tools.split import training_keys
from tools.train_reader import main as train_reader_main
from vision.learned import (
    INDEX_BOX,
    INDEX_HEIGHT,
    INDEX_WIDTH,
    RANK_CLASSES,
    SUIT_CLASSES,
    VIEW_HEIGHT,
    VIEW_WIDTH,
)

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "vision"


@pytest.fixture(scope="module")
def fonts() -> FontFaces:
    found = system_fonts(limit=4)
    if not found:
        pytest.skip("no system fonts")
    return FontFaces(found)


@pytest.mark.parametrize("card", [*all_cards(), "back", "none"])
def test_every_card_is_drawn_with_its_label(fonts: FontFaces, card: str) -> None:
    face = fonts.face(card, np.random.default_rng(len(card) + ord(card[0])))
    assert face.image.shape == (FACE_HEIGHT, FACE_WIDTH, 4)
    assert (face.rank, face.suit) == label_of(card)
    assert face.image[0, 0, 3] == 0 and face.image[FACE_HEIGHT // 2, FACE_WIDTH // 2, 3] == 255
    if card not in ("back", "none"):
        ink = face.image[:, :, :3].min(axis=2) < 200
        assert ink[: FACE_HEIGHT // 4, : FACE_WIDTH // 3].any()  # an index in the top corner


@pytest.mark.parametrize("card", ["TH", "5S", "JK", "back"])
def test_labels_index_the_heads(card: str) -> None:
    rank, suit = label_indices(*label_of(card))
    assert RANK_CLASSES[rank] == {"TH": "T", "5S": "low", "JK": "JK", "back": "none"}[card]
    assert SUIT_CLASSES[suit] == {"TH": "H", "5S": "S", "JK": "none", "back": "none"}[card]
    assert label_indices("T", None, rank_only=True)[1] == NO_SUIT


@pytest.mark.parametrize("seed", range(4))
def test_a_view_shows_the_card_at_camera_size(fonts: FontFaces, seed: int) -> None:
    rng = np.random.default_rng(seed)
    face = fonts.face("9C", rng)
    length = 85.0 + 20 * seed
    frame, quad = place_face(face, length, rng)
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    assert abs(max(sides) - length) < 0.2 * length
    faulted = camera_faults(frame, length, rng)
    assert faulted.dtype == np.uint8 and faulted.shape == frame.shape
    view = view_of(faulted, quad, length, rng)
    assert view.shape == (VIEW_HEIGHT, VIEW_WIDTH, 3)
    centre = view[VIEW_HEIGHT // 4: -VIEW_HEIGHT // 4, VIEW_WIDTH // 4: -VIEW_WIDTH // 4]
    border = cv2.cvtColor(faulted, cv2.COLOR_BGR2GRAY)[:4].mean()
    assert centre.mean() > border  # the paper, not the table


def test_boxes_pair_with_the_outline_they_cover() -> None:
    outlines: list[list[list[float]]] = [[[0, 0], [50, 0], [50, 80], [0, 80]],
                                         [[100, 0], [160, 0], [160, 90], [100, 90]]]
    assert _paired([98, 2, 158, 88], outlines) == outlines[1]
    assert _paired([0, 0, 50, 20], outlines) is None


def test_a_tiny_build_has_the_documented_shapes_and_is_cached(tmp_path: Path,
                                                             fonts: FontFaces) -> None:
    recipe = Recipe(deck_views=0, font_views=7, crop_views=0)
    views = build(tmp_path, SHARED, recipe, log=lambda _: None)
    assert views.images.shape == (7, VIEW_HEIGHT, VIEW_WIDTH, 3)
    assert views.images.dtype == np.uint8
    assert set(views.ranks) <= set(range(len(RANK_CLASSES)))
    assert set(views.suits) <= {NO_SUIT, *range(len(SUIT_CLASSES))}
    again = build(tmp_path, SHARED, recipe, log=lambda _: None)
    assert np.array_equal(again.images, views.images)
    assert len(list(tmp_path.glob("views-*/chunk*.npz"))) == 1


@pytest.mark.parametrize("view", ["card", "index"])
def test_training_runs_one_step_and_exports_for_opencv(tmp_path: Path, fonts: FontFaces,
                                                       view: str) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from tools.train_reader import export, train, write_manifest
    from vision.learned import as_blob, load_reader
    from vision.learned_index import load_index_reader

    views = build(tmp_path, SHARED, Recipe(deck_views=0, font_views=6, crop_views=0, view=view),
                  log=lambda _: None)
    model = train(views, epochs=1, checkpoint=tmp_path / "ckpt.pt", batch=4, log=lambda _: None,
                  view=view)
    assert (tmp_path / "ckpt.pt").exists()
    out = tmp_path / f"{view}.onnx"
    export(model, out, view)
    write_manifest(out, {}, view)
    net = load_reader(out).net if view == "card" else load_index_reader(out).net
    blob = as_blob(list(views.images[:3]))
    net.setInput(blob)
    rank, suit = net.forward(["rank", "suit"])
    with torch.no_grad():
        expected = model(torch.from_numpy(blob))
    assert np.allclose(rank, expected[0].numpy(), atol=1e-3)
    assert np.allclose(suit, expected[1].numpy(), atol=1e-3)


def test_a_recipe_names_its_cache_by_the_fields_it_sets() -> None:
    plain, suitless = Recipe(), Recipe(suitless_sets=("webcam_felt",))
    assert "suitless_sets" not in plain.key() and plain.key().startswith("Recipe(deck_views=48")
    assert suitless.key() != plain.key() and "webcam_felt" in suitless.key()
    assert Recipe(theme_views=3).key() != plain.key()
    assert Recipe(theme_views=3, held_out_themes=True).key() != Recipe(theme_views=3).key()
    assert ", view=" not in plain.key() and Recipe(view="index").key() != plain.key()


def test_index_views_are_the_same_cards_seen_at_their_corner(tmp_path: Path,
                                                            fonts: FontFaces) -> None:
    cards = build(tmp_path, SHARED, Recipe(deck_views=0, font_views=5, crop_views=0),
                  log=lambda _: None)
    corners = build(tmp_path, SHARED, Recipe(deck_views=0, font_views=5, crop_views=0,
                                             view="index"), log=lambda _: None)
    assert corners.images.shape == (5, INDEX_HEIGHT, INDEX_WIDTH, 3)
    assert np.array_equal(corners.ranks, cards.ranks)
    assert np.array_equal(corners.suits, cards.suits)
    # Drawn from the same frames: each corner view is the top-left of its card's view.
    for whole, corner in zip(cards.images, corners.images, strict=True):
        cut = cv2.resize(whole[:round(0.34 * VIEW_HEIGHT), :round(0.30 * VIEW_WIDTH)],
                         (INDEX_WIDTH, INDEX_HEIGHT), interpolation=cv2.INTER_AREA)
        other = cv2.resize(whole[-round(0.34 * VIEW_HEIGHT):, -round(0.30 * VIEW_WIDTH):],
                           (INDEX_WIDTH, INDEX_HEIGHT), interpolation=cv2.INTER_AREA)
        near = np.abs(cut.astype(int) - corner.astype(int)).mean()
        assert near < np.abs(other.astype(int) - corner.astype(int)).mean() + 1


def test_crops_of_a_suitless_set_teach_the_rank_only(tmp_path: Path, shared_dir: Path) -> None:
    photos = shared_dir / "vision"
    plain = dev_crops(photos, ("webcam_felt",), "train", tmp_path)
    suitless = dev_crops(photos, ("webcam_felt",), "train", tmp_path, ("webcam_felt",))
    assert plain and len(plain) == len(suitless)
    assert not any(c.rank_only for c in plain) and all(c.rank_only for c in suitless)
    assert [(c.rank, c.suit) for c in plain] == [(c.rank, c.suit) for c in suitless]
    assert label_indices(suitless[0].rank, suitless[0].suit, suitless[0].rank_only)[1] == NO_SUIT


def test_a_swapped_figure_keeps_the_index_and_label_and_takes_another_ranks_figure() -> None:
    def court(rank: str, suit: str, source: str, shade: int) -> Face:
        image = np.full((FACE_HEIGHT, FACE_WIDTH, 4), 255, np.uint8)
        image[:, :, :3] = shade
        return Face(image, rank, suit, source)

    face = court("J", "H", "a", 10)
    donors = [court("J", "H", "b", 50), court("Q", "S", "b", 90), court("K", "H", "c", 130),
              court("Q", "H", "a", 170)]
    swapped = swapped_figure(face, donors, np.random.default_rng(0))
    assert (swapped.rank, swapped.suit, swapped.source) == ("J", "H", "a")
    assert swapped.image[FACE_HEIGHT // 2, FACE_WIDTH // 2, 0] == 130  # the other deck's king
    assert swapped.image[5, 5, 0] == 10 and swapped.image[-5, -5, 0] == 10  # corners kept
    assert face.image[FACE_HEIGHT // 2, FACE_WIDTH // 2, 0] == 10  # the face itself untouched
    assert swapped_figure(face, donors[:2], np.random.default_rng(0)) is face



def test_jittered_views_are_the_same_cards_drawn_a_little_off() -> None:
    from tools.train_reader import jittered

    artwork = Path(__file__).resolve().parents[2] / "vision" / "data" / "artwork"
    names = ["9C", "TD", "JH", "QS", "KC", "AD"]
    views = np.stack([cv2.resize(cv2.imread(str(artwork / f"{n}.png")), (64, 96),
                                 interpolation=cv2.INTER_AREA) for n in names])
    out = jittered(views, np.random.default_rng(0))
    assert out.shape == views.shape and out.dtype == np.uint8
    assert not np.array_equal(out, views)

    def apart(a: np.ndarray, b: np.ndarray) -> float:
        """Mean difference of the two views blurred past a few pixels' shift, either end up."""
        soft = [cv2.GaussianBlur(v, (0, 0), 4).astype(int) for v in (a, b, b[::-1, ::-1])]
        return min(float(np.abs(soft[0] - v).mean()) for v in soft[1:])

    for k, after in enumerate(out):
        # Each view is its own card moved a little (or turned half round), not another card.
        own = apart(after, views[k])
        assert all(own < apart(after, other) for j, other in enumerate(views) if j != k)


def test_rank_only_crops_listed_with_a_suit_teach_it(tmp_path: Path, shared_dir: Path) -> None:
    photos = shared_dir / "vision"
    suits = labelled_suits()
    plain = dev_crops(photos, ("edje_train",), "train", tmp_path)
    taught = dev_crops(photos, ("edje_train",), "train", tmp_path, suits=suits)
    assert plain and len(plain) == len(taught) and all(c.rank_only for c in plain)
    listed = [c for c in taught if not c.rank_only]
    assert 0 < len(listed) < len(taught)
    for crop in listed:
        assert crop.suit in "CDHS" and label_indices(crop.rank, crop.suit)[1] != NO_SUIT
    assert {c.key for c in listed} <= {key for key, _ in suits}


def test_suit_labels_come_from_the_training_part_only(shared_dir: Path) -> None:
    labels = json.loads((shared_dir / "vision" / "labels.json").read_text())
    keys = {key for key, _ in labelled_suits()}
    assert keys and keys <= training_keys(labels["images"])
    assert not any(is_calibration(key) for key in keys)
    assert Recipe(labelled_suits=True).key() != Recipe().key()
    assert "labelled_suits" not in Recipe().key()


def _inside(quad: np.ndarray, shape: tuple[int, ...], shrink: float) -> np.ndarray:
    """A mask of the quad shrunk towards its centre by `shrink`."""
    centre = quad.mean(axis=0)
    inner = (centre + (quad - centre) * shrink).astype(np.int32)
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [inner], 1)
    return mask.astype(bool)


def _corner_patch(quad: np.ndarray, corner: int, shape: tuple[int, ...]) -> np.ndarray:
    """A mask of the card's index corner: the quarter-size quad at one of its corners."""
    tip = quad[corner]
    patch = (tip + (quad - tip) * 0.2).astype(np.int32)
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [patch], 1)
    return mask.astype(bool)


@pytest.mark.parametrize("seed", range(30))
def test_something_over_a_card_leaves_one_index_in_view(fonts: FontFaces, seed: int) -> None:
    rng = np.random.default_rng(seed)
    face = fonts.face("QH", rng)
    length = float(rng.uniform(85, 150))
    frame, quad = place_face(face, length, rng)
    covered = occluded(frame, quad, length, rng)
    assert covered.shape == frame.shape and covered.dtype == frame.dtype
    changed = np.abs(covered - frame).max(axis=2) > 8
    card = _inside(quad, frame.shape, 0.95)
    assert 0.002 < changed[card].mean() < 0.6
    index_changes = [changed[_corner_patch(quad, k, frame.shape)].mean() for k in (0, 2)]
    assert min(index_changes) < 0.35


def test_an_occluded_build_keeps_its_labels_in_a_cache_of_its_own(tmp_path: Path,
                                                                 fonts: FontFaces) -> None:
    plain = build(tmp_path, SHARED, Recipe(deck_views=0, font_views=40, crop_views=0),
                  log=lambda _: None)
    some = build(tmp_path, SHARED, Recipe(deck_views=0, font_views=40, crop_views=0,
                                          occlusion=0.3), log=lambda _: None)
    assert np.array_equal(plain.ranks, some.ranks) and np.array_equal(plain.suits, some.suits)
    assert not np.array_equal(plain.images, some.images)
    assert len(list(tmp_path.glob("views-*"))) == 2
    assert Recipe(occlusion=0.3).key() != Recipe().key() and "occlusion" not in Recipe().key()


@pytest.mark.parametrize("seed", range(40))
def test_a_sideways_corner_implies_a_card_whose_index_lies_on_this_ones_body(
        fonts: FontFaces, seed: int) -> None:
    rng = np.random.default_rng(seed)
    length = float(rng.uniform(85, 150))
    _, quad = place_face(fonts.face("TD", rng), length, rng)
    implied = sideways_quad(quad, rng)
    edges = [quad[(k + 1) % 4] - quad[k] for k in range(4)]
    by_length = sorted(edges, key=lambda edge: float(np.linalg.norm(edge)))
    short, long = by_length[:2], by_length[2:]
    across = implied[1] - implied[0]
    width = float(np.linalg.norm(across))
    # Its top edge runs along one of the card's long sides, about the card's width long.
    assert max(abs(float(np.dot(across, side))) / (width * float(np.linalg.norm(side)))
               for side in long) > 0.999
    lengths = [float(np.linalg.norm(side)) for side in short]
    assert 0.9 * min(lengths) - 1e-3 < width < 1.1 * max(lengths) + 1e-3
    # One of its top corners is a corner of the card; it is drawn as a card, not mirrored.
    assert min(np.linalg.norm(quad - implied[k], axis=1).min() for k in (0, 1)) < 1e-3
    x, y = implied[:, 0], implied[:, 1]
    assert float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) > 0
    # Its index box lies on the card.
    left, top, right, bottom = INDEX_BOX
    down = implied[3] - implied[0]
    centre = implied[0] + (left + right) / 2 * across + (top + bottom) / 2 * down
    inside = cv2.pointPolygonTest(quad.reshape(-1, 1, 2).astype(np.float32),
                                  (float(centre[0]), float(centre[1])), False)
    assert inside > 0


def test_a_sideways_build_labels_some_index_views_no_card(tmp_path: Path,
                                                          fonts: FontFaces) -> None:
    plain = build(tmp_path, SHARED, Recipe(deck_views=0, font_views=60, crop_views=0,
                                           view="index"), log=lambda _: None)
    some = build(tmp_path, SHARED, Recipe(deck_views=0, font_views=60, crop_views=0,
                                          view="index", sideways=0.5), log=lambda _: None)
    none_rank, none_suit = label_indices("none", None)
    turned = some.ranks != plain.ranks
    assert 5 < int(turned.sum()) < 55
    assert np.all(some.ranks[turned] == none_rank) and np.all(some.suits[turned] == none_suit)
    assert some.images.shape == plain.images.shape
    cards = build(tmp_path, SHARED, Recipe(deck_views=0, font_views=20, crop_views=0,
                                           sideways=0.5), log=lambda _: None)
    card_plain = build(tmp_path, SHARED, Recipe(deck_views=0, font_views=20, crop_views=0),
                       log=lambda _: None)
    assert np.array_equal(cards.images, card_plain.images)
    assert "sideways" not in Recipe().key() and Recipe(sideways=0.1).key() != Recipe().key()


@pytest.mark.parametrize(("options", "problem"), [
    (["--sideways", "1.5"], "--sideways is a share from 0 to 1"),
    (["--occlusion", "-0.1"], "--occlusion is a share from 0 to 1"),
    (["--sideways", "0.1"], "--sideways is for the index view"),
])
def test_training_options_out_of_range_are_refused(tmp_path: Path, options: list[str],
                                                   problem: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code = train_reader_main(["--out", str(tmp_path / "r.onnx"), "--cache", str(tmp_path),
                              *options])
    assert code == 2 and problem in capsys.readouterr().err
    assert not (tmp_path / "r.onnx").exists()
