"""What the training commands share: their common arguments and what they need to run."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import Any

DEFAULT_CACHE = Path.home() / ".cache" / "cardtable-reader"
DEFAULT_SHARED = Path(__file__).resolve().parents[1] / ".." / "shared" / "vision"


def training_parser(prog: str, description: str | None, cache_help: str) -> argparse.ArgumentParser:
    """A parser with --out, --cache, --shared and --seed."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--out", type=Path, required=True, help="the ONNX file to write")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help=cache_help)
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED,
                        help="the shared vision folder (labels.json, dev/)")
    parser.add_argument("--seed", type=int, default=0)
    return parser


def ready(parser: argparse.ArgumentParser, argv: list[str] | None,
          name: str) -> argparse.Namespace | None:
    """The parsed arguments with the cache folder made, or None (the reason printed) when the
    run lacks the train extra's torch or the shared folder's labels."""
    args = parser.parse_args(argv)
    lacking = None
    if importlib.util.find_spec("torch") is None:
        lacking = "torch is missing; install the train extra"
    elif not (args.shared / "labels.json").exists():
        lacking = f"no labels.json in {str(args.shared)!r}"
    if lacking is not None:
        print(f"{name}: {lacking}", file=sys.stderr)
        return None
    args.cache.mkdir(parents=True, exist_ok=True)
    return args


def resume(checkpoint: Path | None, model: Any, optimiser: Any, schedule: Any) -> dict[str, Any]:
    """Load a checkpoint into the model, optimiser and schedule when it exists; its saved
    state (counters included), or an empty dict."""
    if checkpoint is None or not checkpoint.exists():
        return {}
    import torch

    state: dict[str, Any] = torch.load(checkpoint, weights_only=False)
    model.load_state_dict(state["model"])
    optimiser.load_state_dict(state["optimiser"])
    schedule.load_state_dict(state["schedule"])
    return state


def save(checkpoint: Path, model: Any, optimiser: Any, schedule: Any, **counters: int) -> None:
    """Write a checkpoint that `resume` reads back."""
    import torch

    torch.save({"model": model.state_dict(), "optimiser": optimiser.state_dict(),
                "schedule": schedule.state_dict(), **counters}, checkpoint)
