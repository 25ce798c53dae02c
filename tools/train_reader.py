"""Train the learned card reader and write it as ONNX with its manifest.

Run: python -m tools.train_reader --out vision/data/reader.onnx [--cache DIR] [--epochs N]
Needs the `train` extra (torch, onnx). The views come from tools.reader_data (cached); training
resumes from the checkpoint in the cache folder."""

from __future__ import annotations

import itertools
import json
import sys
import time
import zlib
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from tools.reader_data import HELD_OUT_DECKS, NO_SUIT, RECIPES, Recipe, Views, build
from tools.training import ready, resume, save, training_parser
from vision.learned import (
    INDEX_HEIGHT,
    INDEX_WIDTH,
    RANK_CLASSES,
    SUIT_CLASSES,
    VIEW_HEIGHT,
    VIEW_WIDTH,
    as_blob,
)

CHANNELS = (8, 16, 32, 64)
"""Output channels of the four conv blocks (16, 32, 48, 64 read no better and cost 3x)."""
INDEX_CHANNELS = (16, 32, 64)
"""Output channels of the index reader's three conv blocks (over a 32x48 index view)."""
SHAPES = {"card": (VIEW_WIDTH, VIEW_HEIGHT, CHANNELS),
          "index": (INDEX_WIDTH, INDEX_HEIGHT, INDEX_CHANNELS)}
"""Input width, height and conv channels of each kind of view (`Recipe.view`)."""
INPUTS = {"card": "BGR card view rectified from the outline (vision.learned.rectify), each "
                  "channel standardised over the view (vision.learned.as_blob), NCHW",
          "index": "BGR index corner view rectified from the outline (vision.learned."
                   "rectify_index), each channel standardised over the view (vision.learned."
                   "as_blob), NCHW"}

TRAINING_DATA = (
    "npm svg-cards 4.0.2 (52 faces, 2 jokers, 17 backs; LGPL-2.1); npm "
    "@younestouati/playing-cards-standard-deck 3.0.0 (52 faces, joker, back; LGPL-3.0); faces "
    "drawn with the fonts of Debian's fonts-dejavu, fonts-liberation, fonts-freefont-ttf, "
    "fonts-urw-base35 and fonts-noto-core (index in two corners, pips, figure blocks, German B/D "
    "indices, backs, lettering); 33 deck themes (618 faces) of Debian's kdegames-card-data-kf5 "
    "(GPL-2+; tigullio LGPL-2+, penguins GPL-3+), gnome-cards-data and aisleriot (GPL-3+), less "
    "the three held out (tools.reader_decks.HELD_OUT), drawn with rsvg-convert: of each the 24 "
    "euchre cards, two low ranks, the joker and the back, where drawn whole (half the court "
    "views with another deck's figure of another court rank of the suit); cards of the "
    "training half of the dev sets edje_train (Apache-2.0, rank only, outlines from "
    "vision.propose.find_cards) and webcam_felt (MIT, rank only), less the calibration quarter "
    "(tools.reader_data.is_calibration)")


def network(view: str = "card") -> Any:
    """The reader CNN: conv blocks over a view (`SHAPES`), a rank head and a suit head."""
    import torch
    from torch import nn

    class ReaderNet(nn.Module):
        """Four conv blocks over views standardised per channel (vision.learned.as_blob)."""

        def __init__(self) -> None:
            super().__init__()
            width, height, convs = SHAPES[view]
            layers: list[nn.Module] = []
            channels = [3, *convs]
            for a, b in itertools.pairwise(channels):
                layers += [nn.Conv2d(a, b, 3, padding=1, bias=False), nn.BatchNorm2d(b),
                           nn.ReLU(inplace=True), nn.MaxPool2d(2)]
            self.features = nn.Sequential(*layers)
            reduced = 2 ** len(convs)
            flat = convs[-1] * (height // reduced) * (width // reduced)
            self.hidden = nn.Sequential(nn.Flatten(), nn.Dropout(0.3), nn.Linear(flat, 128),
                                        nn.ReLU(inplace=True))
            self.rank = nn.Linear(128, len(RANK_CLASSES))
            self.suit = nn.Linear(128, len(SUIT_CLASSES))

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            h = self.hidden(self.features(x))
            return self.rank(h), self.suit(h)

    return ReaderNet()


def as_tensor(images: np.ndarray) -> Any:
    """uint8 (N, H, W, 3) BGR views as the network's input, exactly as at run time."""
    import torch

    return torch.from_numpy(as_blob(list(images)))


def jittered(images: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The views of a batch each drawn again as an outline found a little off would give
    them: turned half round at random (the reader sees both ends), shifted up to 4 % of the
    view, scaled 0.92 to 1.06 and turned up to 3 degrees; the edge is filled from the view."""
    import cv2

    out = np.empty_like(images)
    height, width = images.shape[1:3]
    centre = (width / 2, height / 2)
    for k, view in enumerate(images):
        if rng.random() < 0.5:
            view = view[::-1, ::-1]
        matrix = np.asarray(cv2.getRotationMatrix2D(centre, float(rng.uniform(-3, 3)),
                                                    float(rng.uniform(0.92, 1.06))), np.float64)
        matrix[:, 2] += rng.uniform(-0.04, 0.04, 2) * np.array([width, height], np.float64)
        out[k] = cv2.warpAffine(np.ascontiguousarray(view), matrix, (width, height),
                                flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out


def train(views: Views, epochs: int, checkpoint: Path | None = None, batch: int = 128,
          seed: int = 0, log: Any = print, max_steps: int | None = None,
          jitter: bool = False, view: str = "card") -> Any:
    """Train a fresh (or checkpointed) network on the views; returns it in eval mode."""
    import torch
    from torch import nn

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    model = network(view)
    steps_per_epoch = max(1, len(views) // batch)
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3,
                                                   total_steps=epochs * steps_per_epoch)
    start = 0
    state = resume(checkpoint, model, optimiser, schedule)
    if state:
        start = state["epoch"]
        log(f"train reader: resumed after epoch {start}")
    rank_loss = nn.CrossEntropyLoss(label_smoothing=0.05)
    suit_loss = nn.CrossEntropyLoss(ignore_index=NO_SUIT, label_smoothing=0.05)
    ranks = torch.from_numpy(views.ranks)
    suits = torch.from_numpy(views.suits)
    generator = np.random.default_rng(seed)
    for epoch in range(start, epochs):
        model.train()
        order = generator.permutation(len(views))
        began, total = time.perf_counter(), 0.0
        for step in range(steps_per_epoch):
            if max_steps is not None and step >= max_steps:
                break
            pick = np.sort(order[step * batch:(step + 1) * batch])
            images = views.images[pick]
            x = as_tensor(jittered(images, generator) if jitter else images)
            rank_out, suit_out = model(x)
            loss = rank_loss(rank_out, ranks[pick])
            if bool((suits[pick] != NO_SUIT).any()):
                loss = loss + suit_loss(suit_out, suits[pick])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach())
        log(f"train reader: epoch {epoch + 1}/{epochs} loss {total / steps_per_epoch:.4f} "
            f"({time.perf_counter() - began:.0f} s)")
        if checkpoint is not None:
            save(checkpoint, model, optimiser, schedule, epoch=epoch + 1)
    model.eval()
    return model


def predict(model: Any, images: np.ndarray, batch: int = 512) -> tuple[np.ndarray, np.ndarray]:
    """Rank and suit class indices the torch model gives for uint8 views."""
    import torch

    rank_all, suit_all = [], []
    with torch.no_grad():
        for k in range(0, len(images), batch):
            rank_out, suit_out = model(as_tensor(images[k:k + batch]))
            rank_all.append(rank_out.argmax(1).numpy())
            suit_all.append(suit_out.argmax(1).numpy())
    return np.concatenate(rank_all), np.concatenate(suit_all)


def accuracy(model: Any, views: Views) -> dict[str, float]:
    """Rank, suit and whole-name accuracy on views (suits only where known)."""
    rank, suit = predict(model, views.images)
    known = views.suits != NO_SUIT
    rank_ok = rank == views.ranks
    suit_ok = suit == views.suits
    return {"views": len(views), "rank": round(float(rank_ok.mean()), 4),
            "suit": round(float(suit_ok[known].mean()) if known.any() else 0.0, 4),
            "name": round(float((rank_ok & suit_ok)[known].mean()) if known.any() else 0.0, 4)}


def export(model: Any, out: Path, view: str = "card") -> None:
    """Write the model as ONNX (batch of any size; outputs 'rank' and 'suit' logits)."""
    import torch

    width, height, _ = SHAPES[view]
    dummy = torch.zeros(2, 3, height, width)
    torch.onnx.export(model, (dummy,), str(out), input_names=["views"],
                      output_names=["rank", "suit"], opset_version=13,
                      dynamic_axes={"views": {0: "n"}, "rank": {0: "n"}, "suit": {0: "n"}},
                      dynamo=False)


def write_manifest(out: Path, extra: dict[str, Any], view: str = "card") -> None:
    """The manifest beside the model: input, classes, training data, then any measured figures."""
    width, height, _ = SHAPES[view]
    manifest = {
        "model": out.name, "view": view, "input_width": width, "input_height": height,
        "input": INPUTS[view],
        "rank_classes": list(RANK_CLASSES), "suit_classes": list(SUIT_CLASSES),
        "training_data": TRAINING_DATA, **extra}
    out.with_suffix(".json").write_text(json.dumps(manifest, indent=1) + "\n")


def recipe_problem(args: Any) -> str | None:
    """What is wrong with the recipe options asked for, or None."""
    for name in ("occlusion", "sideways"):
        if not 0.0 <= getattr(args, name) <= 1.0:
            return f"--{name} is a share from 0 to 1"
    if args.sideways and args.view != "index":
        return "--sideways is for the index view (--view index)"
    return None


def main(argv: list[str] | None = None) -> int:
    """Build the views, train, export and write the manifest."""
    parser = training_parser("python -m tools.train_reader", __doc__, "views and checkpoint")
    parser.add_argument("--epochs", type=int, default=7)
    parser.add_argument("--jitter", action="store_true",
                        help="draw each batch's views again a little off (tools.train_reader."
                             "jittered)")
    parser.add_argument("--view", choices=sorted(SHAPES), default="card",
                        help="what the network reads: the whole card, or its index corner")
    parser.add_argument("--labelled-suits", action="store_true",
                        help="rank-only crops listed in tools/data/suit_labels.json teach their "
                             "suit too (tools.suit_labels)")
    parser.add_argument("--occlusion", type=float, default=0.0,
                        help="share of rendered views with something over part of the card "
                             "(tools.reader_data.occluded)")
    parser.add_argument("--sideways", type=float, default=0.0,
                        help="share of rendered index views taken at a corner hypothesis that "
                             "sees the card sideways, labelled no card (tools.reader_data."
                             "sideways_view; --view index only)")
    problem = recipe_problem(parser.parse_args(argv))
    if problem is not None:
        print(f"train reader: {problem}", file=sys.stderr)
        return 2
    args = ready(parser, argv, "train reader")
    if args is None:
        return 2
    recipes_used = [replace(recipe, view=args.view, labelled_suits=args.labelled_suits,
                            occlusion=args.occlusion, sideways=args.sideways)
                    for recipe in RECIPES]
    built = [build(args.cache, args.shared, recipe, seed=args.seed + 7 * k)
             for k, recipe in enumerate(recipes_used)]
    views = Views(*(np.concatenate([getattr(v, f) for v in built])
                    for f in ("images", "ranks", "suits")))
    held = build(args.cache, args.shared, Recipe(deck_views=2, font_views=600, crop_views=0,
                                                 view=args.view), seed=args.seed + 1000)
    decks = build(args.cache, args.shared, replace(HELD_OUT_DECKS, view=args.view),
                  seed=args.seed + 2000)
    print(f"train reader: {len(views)} training views, {len(held)} synthetic hold-out views, "
          f"{len(decks)} views of held-out decks")
    recipes = zlib.crc32("".join(recipe.key() for recipe in recipes_used).encode())
    jitter = "-jitter" if args.jitter else ""
    convs = SHAPES[args.view][2]
    checkpoint = args.cache / (f"checkpoint-{args.seed}-{len(views)}-{args.epochs}-{convs}-"
                               f"{recipes:08x}{jitter}.pt")
    model = train(views, args.epochs, checkpoint, seed=args.seed, jitter=args.jitter,
                  view=args.view)
    figures = {"synthetic_hold_out": accuracy(model, held),
               "held_out_decks": accuracy(model, decks),
               "training_views": accuracy(model, views)}
    print(f"train reader: {figures}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export(model, args.out, args.view)
    write_manifest(args.out, {"accuracy": figures, "epochs": args.epochs,
                              "jitter": args.jitter}, args.view)
    print(f"train reader: wrote {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
