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


def _channel_distance(lab: Image, colour: Image) -> Image:
    """The largest per-channel difference (uint8) of a Lab image from a colour image."""
    difference = cv2.absdiff(lab, colour)
    channels = cv2.split(difference)
    distance: Image = cv2.max(cv2.max(channels[0], channels[1]), channels[2])
    return distance


def cloth_colour(lab: Image, config: FeltFinderConfig) -> Floats | None:
    """The Lab colour of the most common colour bin of the frame, or None when that bin holds
    too little of the frame or looks like card paper (light and grey)."""
    step = 256 // config.bins
    sample = lab[::4, ::4].reshape(-1, 3)
    quantised = (sample // step).astype(np.int32)
    index = (quantised[:, 0] * config.bins + quantised[:, 1]) * config.bins + quantised[:, 2]
    counts = np.bincount(index, minlength=config.bins**3)
    pixels = sample[index == int(counts.argmax())]
    colour: Floats = np.median(pixels, axis=0).astype(np.float32)
    near = np.abs(sample.astype(np.int16) - colour.astype(np.int16)).max(axis=1)
    if float(np.mean(near < config.seed_radius)) < config.min_cloth_share:
        return None
    chroma = float(np.hypot(colour[1] - 128.0, colour[2] - 128.0))
    if colour[0] > config.max_cloth_lightness and chroma < config.paper_chroma:
        return None
    return colour


SHADE_STEP = 8
"""The cloth's local colour is estimated at this fraction of the frame's resolution: it changes
slowly across the frame, and blurring at full size would cost many times more."""


def _shaded(lab: Image, seeds: Image, colour: Floats, config: FeltFinderConfig) -> Image:
    """The seeds' colour blurred across the frame at a coarse scale (the cloth's colour where
    too few seeds are near), back at the frame's size."""
    height, width = lab.shape[:2]
    coarse = (max(1, width // SHADE_STEP), max(1, height // SHADE_STEP))
    small_seeds = cv2.resize(seeds, coarse, interpolation=cv2.INTER_AREA).astype(np.float32)
    masked = cv2.bitwise_and(lab, lab, mask=seeds)
    small_values = cv2.resize(masked, coarse, interpolation=cv2.INTER_AREA).astype(np.float32)
    size = max(3, int(config.shade_share * max(coarse)) | 1)
    weight = cv2.GaussianBlur(small_seeds, (size, size), 0)[:, :, None]
    blurred = cv2.GaussianBlur(small_values, (size, size), 0) * 255.0
    shaded = np.where(weight > 0.25, blurred / np.maximum(weight, 0.25), colour[None, None, :])
    coarse_local = np.clip(np.rint(shaded), 0, 255).astype(np.uint8)
    local: Image = cv2.resize(coarse_local, (width, height), interpolation=cv2.INTER_LINEAR)
    return local


def local_cloth(lab: Image, colour: Floats, config: FeltFinderConfig) -> tuple[Image, Image]:
    """The cloth's local colour at every pixel (a uint8 Lab image) and the cloth seeds (pixels
    within `seed_radius` of the cloth's colour in every channel)."""
    flat = np.full_like(lab, np.rint(colour).astype(np.uint8))
    seeds = (_channel_distance(lab, flat) < config.seed_radius).astype(np.uint8) * 255
    return _shaded(lab, seeds, colour, config), seeds


def object_mask(small: Image, config: FeltFinderConfig) -> tuple[Image, Image] | None:
    """Binary masks of what differs from the cloth and of what is lighter than it, in the
    frame given (BGR); None when the frame shows no plain cloth."""
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (3, 3), 0), cv2.COLOR_BGR2LAB)
    colour = cloth_colour(lab, config)
    if colour is None:
        return None
    local, seeds = local_cloth(lab, colour, config)
    distance = _channel_distance(lab, local)
    on_cloth = distance[::2, ::2][seeds[::2, ::2] > 0]
    spread = float(np.median(on_cloth)) * 1.4826 + 1.0 if on_cloth.size else 1.0
    level = max(config.min_distance, config.spread_factor * spread)
    differs = cv2.threshold(distance, level, 255, cv2.THRESH_BINARY)[1]
    lighter = cv2.threshold(cv2.subtract(lab[:, :, 0], local[:, :, 0]), config.light_step, 255,
                            cv2.THRESH_BINARY)[1]
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
