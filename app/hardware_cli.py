"""`cardtable check-hardware`: walk through the table's hardware, or fake hardware with --mock."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    """Add the drivers' subcommands to the `cardtable` parser."""
    parser = subparsers.add_parser(
        "check-hardware",
        help="walk through buttons, lights, buzzer, serial panel and camera",
        description=(
            "Press each button, watch each light, hear the buzzer and see the camera's frame "
            "rate. With --mock the same walk runs unattended on fake hardware."
        ),
    )
    parser.add_argument(
        "--mock", action="store_true", help="fake pins, fake panel and a recorded camera"
    )
    parser.add_argument(
        "--config", type=Path, help="hardware TOML ([gpio], [panel], [camera], [signals])"
    )
    parser.add_argument(
        "--layout",
        choices=("shared", "seats"),
        help="use a shipped pin map instead of the config's (default: shared with --mock)",
    )
    parser.add_argument(
        "--wait", type=float, default=30.0, help="seconds to wait for each press (default 30)"
    )
    parser.set_defaults(handler=check_hardware)


def check_hardware(args: argparse.Namespace) -> int:
    """Run the walk; exit status 0 only if every step worked."""
    from dataclasses import replace

    from drivers.check import run_live_check, run_mock_check
    from drivers.config import HardwareConfig, load_hardware_config
    from drivers.errors import DriverError
    from drivers.pinmap import default_pin_map

    try:
        config = load_hardware_config(args.config) if args.config else HardwareConfig(None)
        if args.layout:
            config = replace(config, pin_map=default_pin_map(args.layout))
        if args.mock:
            report = run_mock_check(config.pin_map or default_pin_map("shared"))
        else:
            report = run_live_check(config, wait_s=args.wait)
    except (DriverError, OSError) as error:
        print(f"check-hardware: {error}", file=sys.stderr)
        return 2
    failed = [(name, detail) for name, ok, detail in report.steps if not ok]
    print(f"\n{len(report.steps) - len(failed)} of {len(report.steps)} steps worked.")
    for name, detail in failed:
        print(f"  FAILED: {name}: {detail}")
    return 0 if report.ok else 1
