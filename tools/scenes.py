"""Synthetic table scenes: card faces pasted onto a background with known outlines."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from tools.synthetic import suit_shape
from vision.cards import Image, Quad
from vision.detect import order_corners


@dataclass(frozen=True)
class PlacedCard:
    """A card face placed in a scene, with its true outline."""

    name: str
    corners: Quad


def table_background(width: int, height: int, seed: int = 0) -> Image:
    """A green, slightly textured and unevenly lit table surface."""
    rng = np.random.default_rng(seed)
    base = np.zeros((height, width, 3), np.float32)
    base[:] = (40, 90, 35)
    noise = rng.normal(0.0, 8.0, (height // 4 + 1, width // 4 + 1, 1)).astype(np.float32)
    base += cv2.resize(noise, (width, height))[:, :, None]
    ramp = np.linspace(0.8, 1.15, width, dtype=np.float32)[None, :, None]
    table: Image = np.clip(base * ramp, 0, 255).astype(np.uint8)
    return table


def plain_card(rank_text: str, suit: str | None, width: int = 338) -> Image:
    """A white card with a Hershey-font index (and a drawn suit, if any) in two opposite corners."""
    height = round(width * 1.45)
    colour = (30, 30, 200) if suit in ("H", "D") else (25, 25, 25)
    card = np.full((height, width, 3), 250, np.uint8)
    index = np.full((150, 70, 3), 250, np.uint8)
    if rank_text:
        x = 4 if len(rank_text) > 1 else 12
        scale = 1.2 if len(rank_text) > 1 else 1.6
        cv2.putText(index, rank_text, (x, 55), cv2.FONT_HERSHEY_DUPLEX, scale, colour, 4,
                    cv2.LINE_AA)
    if suit:
        shape = cv2.resize(suit_shape(suit, 0.9), (36, 40), interpolation=cv2.INTER_AREA)
        index[70:110, 14:50][shape > 127] = colour
    card[8:158, 6:76] = index
    cv2.rectangle(card, (0, 0), (width - 1, height - 1), (150, 150, 150), 3)
    card[height - 158 : height - 8, width - 76 : width - 6] = cv2.rotate(index, cv2.ROTATE_180)
    return card


def paste_card(scene: Image, face: Image, centre: tuple[float, float], long_side: float,
               angle: float, tilt: float = 0.0) -> Quad:
    """Warp a card face into the scene (rotated by `angle` degrees); returns its outline."""
    height, width = face.shape[:2]
    scale = long_side / max(height, width)
    half_w, half_h = width * scale / 2, height * scale / 2
    local = np.array([[-half_w, -half_h], [half_w, -half_h], [half_w, half_h], [-half_w, half_h]],
                     np.float32)
    local[:2, 0] *= 1.0 - tilt
    theta = np.deg2rad(angle)
    rotation = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]],
                        np.float32)
    target = (local @ rotation.T + np.array(centre, np.float32)).astype(np.float32)
    source = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]],
                      np.float32)
    matrix = cv2.getPerspectiveTransform(source, target)
    size = (scene.shape[1], scene.shape[0])
    warped = cv2.warpPerspective(face, matrix, size, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((height, width), 255, np.uint8), matrix, size)
    scene[mask > 127] = warped[mask > 127]
    return order_corners(target)


def seen_at_slant(scene: Image, outlines: list[Quad], tilt: float,
                  distance: float = 1.3) -> tuple[Image, list[Quad]]:
    """The scene as a table seen square on, pictured instead by a camera tilted `tilt` degrees
    about the frame's middle row (the top farther away), at `distance` times the frame's long
    side, with a focal length of that long side and its centre in the frame's: the picture
    and the outlines in it."""
    height, width = scene.shape[:2]
    focal = float(max(width, height))
    centre = np.array([width / 2.0, height / 2.0])
    theta = np.deg2rad(tilt)

    def pictured(points: npt.ArrayLike) -> npt.NDArray[np.float64]:
        across, down = (np.asarray(points, np.float64) - centre).T
        depth = distance * focal - down * np.sin(theta)
        seen: npt.NDArray[np.float64] = np.stack(
            [focal * across / depth, focal * down * np.cos(theta) / depth], axis=1) + centre
        return seen

    frame_corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
    matrix = cv2.getPerspectiveTransform(frame_corners.astype(np.float32),
                                         pictured(frame_corners).astype(np.float32))
    picture = cv2.warpPerspective(scene, matrix, (width, height), flags=cv2.INTER_AREA,
                                  borderMode=cv2.BORDER_REPLICATE)
    return picture, [pictured(quad).astype(np.float32) for quad in outlines]
