"""Cards on a plain cloth: light regions that differ from the cloth's colour, judged locally.

The cloth's colour is the most common colour of the frame (in Lab); where it shades across the
frame (a webcam's vignetting, a lamp), its local colour is the blurred colour of the pixels near
it that are cloth. Whatever lies on the cloth, away from the frame's border, and differs from
the local cloth colour by more than the cloth's own spread is an object; an object mostly
lighter than the cloth is a card, or cards touching, which are parted by opening.
This finds cards lying in a hole of a larger light region (a felt mat on a white table), which
the whiteness masks' outer contours do not reach.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import Image
from vision.config import FeltFinderConfig

Floats = npt.NDArray[np.float32]


def cloth_colour(lab: Image, config: FeltFinderConfig) -> Floats | None:
    """The Lab colour of the most common colour bin of the frame, or None when that bin holds
    too little of the frame or looks like card paper (light and grey)."""
    step = 256 // config.bins
    quantised = (lab // step).astype(np.int32).reshape(-1, 3)
    index = (quantised[:, 0] * config.bins + quantised[:, 1]) * config.bins + quantised[:, 2]
    counts = np.bincount(index, minlength=config.bins**3)
    best = int(counts.argmax())
    members = index == best
    pixels = lab.reshape(-1, 3)[members].astype(np.float32)
    colour: Floats = np.median(pixels, axis=0).astype(np.float32)
    near = np.linalg.norm(lab.reshape(-1, 3).astype(np.float32) - colour, axis=1)
    if float(np.mean(near < config.seed_radius)) < config.min_cloth_share:
        return None
    chroma = float(np.hypot(colour[1] - 128.0, colour[2] - 128.0))
    if colour[0] > config.max_cloth_lightness and chroma < config.paper_chroma:
        return None
    return colour


def local_cloth(lab: Image, colour: Floats, config: FeltFinderConfig) -> tuple[Floats, Image]:
    """The cloth's local colour at every pixel (float Lab) and the mask of cloth seeds used."""
    values = lab.astype(np.float32)
    near = np.linalg.norm(values - colour, axis=2)
    seeds = (near < config.seed_radius).astype(np.float32)
    size = max(3, int(config.shade_share * max(lab.shape[:2])) | 1)
    weight = cv2.GaussianBlur(seeds, (size, size), 0)
    local = np.empty_like(values)
    for channel in range(3):
        blurred = cv2.GaussianBlur(values[:, :, channel] * seeds, (size, size), 0)
        local[:, :, channel] = np.where(weight > 1e-3, blurred / np.maximum(weight, 1e-3),
                                        colour[channel])
    return local, (seeds > 0).astype(np.uint8) * 255


def object_mask(small: Image, config: FeltFinderConfig) -> tuple[Image, Image] | None:
    """Binary masks of what differs from the cloth and of what is lighter than it, in the
    frame given (BGR); None when the frame shows no plain cloth."""
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (3, 3), 0), cv2.COLOR_BGR2LAB)
    colour = cloth_colour(lab, config)
    if colour is None:
        return None
    local, seeds = local_cloth(lab, colour, config)
    values = lab.astype(np.float32)
    distance = np.linalg.norm(values - local, axis=2)
    spread = float(np.median(distance[seeds > 0])) * 1.4826 + 1.0
    level = max(config.min_distance, config.spread_factor * spread)
    differs = (distance > level).astype(np.uint8) * 255
    lighter = ((values[:, :, 0] - local[:, :, 0]) > config.light_step).astype(np.uint8) * 255
    closing = np.ones((3, 3), np.uint8)
    differs = cv2.morphologyEx(differs, cv2.MORPH_CLOSE, closing)
    return differs, lighter


def light_share(lighter: Image, contour: Image) -> float:
    """Share of a region (filled) whose pixels are lighter than the cloth."""
    x, y, w, h = cv2.boundingRect(contour)
    inside = np.zeros((h, w), np.uint8)
    cv2.drawContours(inside, [contour], -1, 255, -1, offset=(-x, -y))
    total = cv2.countNonZero(inside)
    if total == 0:
        return 0.0
    return cv2.countNonZero(cv2.bitwise_and(inside, lighter[y:y + h, x:x + w])) / total


def card_regions(differs: Image, lighter: Image, min_area: float, max_area: float,
                 config: FeltFinderConfig) -> list[Image]:
    """Outer contours of the objects on the cloth that are of card size, mostly lighter than
    the cloth and clear of the frame's border."""
    contours, hierarchy = cv2.findContours(differs, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    height, width = differs.shape[:2]
    regions: list[Image] = []
    for contour, links in zip(contours, hierarchy[0] if hierarchy is not None else [],
                              strict=False):
        # Holes are the second level; a component inside a hole is on the first.
        if links[3] != -1:
            continue
        area = cv2.contourArea(contour)
        if not min_area < area < max_area:
            continue
        x, y, w, h = cv2.boundingRect(contour)
        if x <= 1 or y <= 1 or x + w >= width - 1 or y + h >= height - 1:
            continue
        if light_share(lighter, contour) < config.min_light_share:
            continue
        regions.append(contour)
    return regions
