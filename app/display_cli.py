"""`cardtable screenshots` and `cardtable display-demo`: every display state, headless or shown."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

DEFAULT_SIZES = ((800, 480), (1920, 1080))


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the display's subcommands."""
    parser = subparsers.add_parser(
        "screenshots",
        help="render every display state to PNG files, headless",
        description="Render every display state at 800x480 and 1920x1080 into OUTDIR as PNGs.",
    )
    parser.add_argument("outdir", type=Path, metavar="OUTDIR", help="folder for the PNG files")
    parser.add_argument("--four-colour", action="store_true",
                        help="draw every suit in its own colour")
    parser.add_argument("--size", action="append", type=parse_size, metavar="WxH",
                        help="a screen size (repeatable); default 800x480 and 1920x1080")
    parser.set_defaults(handler=screenshots)

    demo = subparsers.add_parser(
        "display-demo",
        help="show every display state in turn on the screen",
        description="Cycle through every display state on the screen; OK/UNDO taps are counted.",
    )
    demo.add_argument("--size", type=parse_size, metavar="WxH",
                      help="window size; default: the whole screen")
    demo.add_argument("--seconds", type=float, default=4.0, help="seconds per state (default 4)")
    demo.add_argument("--rounds", type=int, default=1, help="times through all states")
    demo.add_argument("--four-colour", action="store_true",
                      help="draw every suit in its own colour")
    demo.set_defaults(handler=display_demo)


def parse_size(text: str) -> tuple[int, int]:
    """"800x480" -> (800, 480)."""
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        message = f"size {text!r} is not WIDTHxHEIGHT, e.g. 800x480"
        raise argparse.ArgumentTypeError(message) from None
    if width < 320 or height < 200:
        raise argparse.ArgumentTypeError(f"size {text!r} is smaller than 320x200")
    return width, height


def screenshots(args: argparse.Namespace) -> int:
    """Write one PNG per state and size; print each path."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from display.screens import write_screenshots
    from display.style import Style

    sizes = tuple(args.size) if args.size else DEFAULT_SIZES
    try:
        paths = write_screenshots(args.outdir, sizes, Style(four_colour=args.four_colour))
    except OSError as error:
        print(f"cannot write screenshots to {str(args.outdir)!r}: {error}", file=sys.stderr)
        return 2
    for path in paths:
        print(path)
    return 0


def display_demo(args: argparse.Namespace) -> int:
    """Show the sample states on the screen; print how many button presses were seen."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if args.seconds <= 0 or args.rounds < 1:
        print("--seconds must be above 0 and --rounds at least 1", file=sys.stderr)
        return 2
    import pygame

    from display.demo import run_demo
    from display.style import Style

    try:
        presses = run_demo(args.size, args.seconds, args.rounds,
                           Style(four_colour=args.four_colour))
    except pygame.error as error:
        print(f"cannot open the display: {error}", file=sys.stderr)
        return 1
    finally:
        pygame.display.quit()
    print(f"{presses} button presses")
    return 0
