"""Train the learned card finder and write it as ONNX with its manifest.

Run: python -m tools.train_finder --out vision/data/finder.onnx [--cache DIR] [--steps N]
Needs the `train` extra (torch, onnx). Scenes are made afresh for every step by
tools.finder_data in a second process; training resumes from the checkpoint in the cache
folder."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from tools.finder_data import IGNORE, SCENE, SceneMaker, gimp_patterns, real_photos
from tools.training import ready, resume, save, training_parser
from vision.finder_net import CLASSES, INPUT, STRIDE

CHANNELS = (8, 16, 32, 64)
"""Output channels at 1/2, 1/4, 1/8 and 1/16 of the input."""
TRAINING_DATA = (
    "scenes drawn by tools.finder_data: the reader's card faces (npm svg-cards 4.0.2, "
    "LGPL-2.1; npm @younestouati/playing-cards-standard-deck 3.0.0, LGPL-3.0; 33 deck themes "
    "of Debian's kdegames-card-data-kf5, gnome-cards-data and aisleriot, GPL-2+/GPL-3+, less "
    "the three held out) laid out lone, in piles, fans, columns and rows at 26-220 px card "
    "length (8 % with a dark taped border), on drawn tables, on the texture patterns of "
    "Debian's gimp-data (GPL-3+) and on the training half of the dev sets edje_train "
    "(Apache-2.0) and webcam_felt (MIT) less the calibration quarter, whose own cards are "
    "labelled from their quads or from the outlines vision.propose.find_cards pairs with their"
    " boxes; with backs, paper, printed table graphics, lettering, hands and shadows that are"
    " no card; then blur, white balance, glare, noise, JPEG and a tilt")
WEIGHTS = (1.0, 1.0, 5.0)
"""Loss weight of each class: the edge band is thin and parts touching cards."""


def network(channels: tuple[int, ...] = CHANNELS) -> Any:
    """The finder: a small U-Net giving class scores at 1/2 of its input."""
    import torch
    from torch import nn

    def block(a: int, b: int, stride: int = 1, dilation: int = 1) -> Any:
        return nn.Sequential(nn.Conv2d(a, b, 3, stride=stride, padding=dilation,
                                       dilation=dilation, bias=False),
                             nn.BatchNorm2d(b), nn.ReLU(inplace=True))

    class FinderNet(nn.Module):
        """Encoder to 1/16 (dilated at the bottom for a card's reach), decoder back to 1/2."""

        def __init__(self) -> None:
            super().__init__()
            c1, c2, c3, c4 = channels
            self.e1 = nn.Sequential(block(3, c1, 2), block(c1, c1))
            self.e2 = nn.Sequential(nn.MaxPool2d(2), block(c1, c2), block(c2, c2))
            self.e3 = nn.Sequential(nn.MaxPool2d(2), block(c2, c3), block(c3, c3))
            self.e4 = nn.Sequential(nn.MaxPool2d(2), block(c3, c4), block(c4, c4, dilation=2),
                                    block(c4, c4, dilation=4))
            self.up = nn.Upsample(scale_factor=2, mode="nearest")
            self.d3 = block(c4 + c3, c3)
            self.d2 = block(c3 + c2, c2)
            self.d1 = block(c2 + c1, c1)
            self.out = nn.Conv2d(c1, len(CLASSES), 1)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            x = (x - INPUT["mean"]) / INPUT["scale"]
            a = self.e1(x)
            b = self.e2(a)
            c = self.e3(b)
            d = self.e4(c)
            y = self.d3(torch.cat([self.up(d), c], 1))
            y = self.d2(torch.cat([self.up(y), b], 1))
            y = self.d1(torch.cat([self.up(y), a], 1))
            out: torch.Tensor = self.out(y)
            return out

    return FinderNet()


def scenes(maker: SceneMaker, seed: int, worker: int) -> Any:
    """An endless stream of (image, labels) scenes for one data worker."""
    rng = np.random.default_rng([seed, worker, int(time.time())])
    while True:
        yield maker.make(rng)


def scene_maker(shared: Path, cache: Path) -> SceneMaker:
    """A scene maker over every training source (faces drawn once into the cache)."""
    from tools.reader_decks import HELD_OUT, THEMES, deck_cards, theme_faces
    from tools.reader_faces import standard_deck, svg_cards_deck

    faces = svg_cards_deck(cache) + standard_deck(cache)
    for index, theme in enumerate(THEMES):
        if theme.name not in HELD_OUT:
            faces += theme_faces(theme, deck_cards(index), cache)
    return SceneMaker(faces, gimp_patterns(cache), shared, real_photos(shared, cache))


def stream(maker: SceneMaker, seed: int, batch: int) -> Any:
    """Batches of scenes made in a second process (torch's DataLoader)."""
    import torch
    from torch.utils.data import DataLoader, IterableDataset, get_worker_info

    class Scenes(IterableDataset[tuple[Any, Any]]):
        def __iter__(self) -> Any:
            info = get_worker_info()
            worker = info.id if info is not None else 0
            for image, labels in scenes(maker, seed, worker):
                yield (torch.from_numpy(image.transpose(2, 0, 1).astype(np.float32)),
                       torch.from_numpy(labels.astype(np.int64)))

    return iter(DataLoader(Scenes(), batch_size=batch, num_workers=1, prefetch_factor=4,
                           persistent_workers=True))


def validation(maker: SceneMaker, count: int = 240) -> tuple[Any, Any]:
    """A fixed set of scenes (seeded) to follow training by."""
    rng = np.random.default_rng(12345)
    made = [maker.make(rng) for _ in range(count)]
    images = np.stack([m[0] for m in made])
    labels = np.stack([m[1] for m in made])
    return images, labels


def scores(model: Any, images: np.ndarray, labels: np.ndarray) -> dict[str, float]:
    """Intersection over union of the inside and edge classes on labelled pixels."""
    import torch

    model.eval()
    predicted = []
    with torch.no_grad():
        for k in range(0, len(images), 16):
            x = torch.from_numpy(images[k:k + 16].transpose(0, 3, 1, 2).astype(np.float32))
            predicted.append(model(x).argmax(1).numpy())
    guess = np.concatenate(predicted)
    known = labels != IGNORE
    out = {}
    for index, name in enumerate(CLASSES):
        a, b = (guess == index) & known, (labels == index) & known
        union = int((a | b).sum())
        out[name] = round(int((a & b).sum()) / union, 4) if union else 0.0
    return out


def train(maker: SceneMaker, steps: int, checkpoint: Path, batch: int = 12,
          seed: int = 0, log: Any = print, start: Path | None = None, every: int = 500,
          validate: int = 240) -> Any:
    """Train (or go on training) the finder for `steps` batches, from the weights of `start`
    when given; returns it in eval mode."""
    import torch
    from torch import nn

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    model = network()
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps,
                                                   pct_start=0.1)
    done = 0
    if start is not None and not checkpoint.exists():
        model.load_state_dict(torch.load(start, weights_only=False)["model"])
        log(f"train finder: starting from the weights of {start}")
    state = resume(checkpoint, model, optimiser, schedule)
    if state:
        done = state["step"]
        log(f"train finder: resumed after step {done}")
    loss_of = nn.CrossEntropyLoss(weight=torch.tensor(WEIGHTS), ignore_index=IGNORE)
    images, labels = validation(maker, count=validate)
    batches = stream(maker, seed, batch)
    began, total = time.perf_counter(), 0.0
    while done < steps:
        model.train()
        x, y = next(batches)
        loss = loss_of(model(x), y)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        total += float(loss.detach())
        done += 1
        if done % every == 0 or done == steps:
            figures = scores(model, images, labels)
            log(f"train finder: step {done}/{steps} loss {total / every:.4f} "
                f"validation IoU {figures} ({time.perf_counter() - began:.0f} s)")
            total = 0.0
            save(checkpoint, model, optimiser, schedule, step=done)
    model.eval()
    return model


def export(model: Any, out: Path) -> None:
    """Write the model as ONNX (any input size divisible by 16; output 'classes')."""
    import torch

    dummy = torch.zeros(1, 3, SCENE, SCENE)
    torch.onnx.export(model, (dummy,), str(out), input_names=["frame"],
                      output_names=["classes"], opset_version=13,
                      dynamic_axes={"frame": {2: "h", 3: "w"}, "classes": {2: "h", 3: "w"}},
                      dynamo=False)


def main(argv: list[str] | None = None) -> int:
    """Train, export and write the manifest."""
    parser = training_parser("python -m tools.train_finder", __doc__,
                             "faces, patterns and checkpoint")
    parser.add_argument("--steps", type=int, default=12000)
    parser.add_argument("--start", type=Path, help="a checkpoint whose weights to start from")
    args = ready(parser, argv, "train finder")
    if args is None:
        return 2
    begun = f"-from-{args.start.stem}" if args.start else ""
    checkpoint = args.cache / f"finder-{args.seed}-{args.steps}-{CHANNELS}{begun}.pt"
    maker = scene_maker(args.shared, args.cache)
    model = train(maker, args.steps, checkpoint, seed=args.seed, start=args.start)
    images, labels = validation(maker)
    figures = scores(model, images, labels)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export(model, args.out)
    manifest = {"model": args.out.name, "classes": list(CLASSES), "stride": STRIDE,
                "input": INPUT, "channels": list(CHANNELS), "steps": args.steps,
                "validation_iou": figures, "training_data": TRAINING_DATA}
    args.out.with_suffix(".json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"train finder: wrote {args.out} ({args.out.stat().st_size} bytes), {figures}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
