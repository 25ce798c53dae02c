"""The systemd unit, its installer, and the notify protocol."""

from __future__ import annotations

import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from app.sdnotify import Notifier

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "cardtable.service"
EXEC = "/opt/cardtable/.venv/bin/cardtable"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze absent")
def test_unit_verifies_clean(tmp_path: Path) -> None:
    fake = tmp_path / "cardtable"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    unit = tmp_path / "cardtable.service"
    unit.write_text(UNIT.read_text().replace(EXEC, str(fake)))
    result = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, check=False
    )
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_unit_has_the_service_settings_the_table_needs() -> None:
    text = UNIT.read_text()
    for line in (
        "Type=notify",
        "WatchdogSec=",
        "Restart=on-failure",
        "User=cardtable",
        "SupplementaryGroups=gpio video dialout input render",
        "StateDirectory=cardtable",
        "ProtectSystem=strict",
        "ProtectHome=yes",
        "NoNewPrivileges=yes",
        "PrivateTmp=yes",
        "DevicePolicy=closed",
        f"ExecStart={EXEC} run",
    ):
        assert line in text, line


def test_installer_dry_run_lists_its_steps() -> None:
    result = subprocess.run(
        ["bash", str(ROOT / "systemd" / "install.sh"), "--dry-run"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "+ systemctl enable --now cardtable.service" in result.stdout
    assert "python3-picamera2" in result.stdout


def test_notifier_sends_ready_and_watchdog(tmp_path: Path) -> None:
    path = tmp_path / "notify.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(path))
        notifier = Notifier(str(path))
        assert notifier.ready("playing") and notifier.watchdog()
        assert server.recv(100) == b"READY=1\nSTATUS=playing"
        assert server.recv(100) == b"WATCHDOG=1"


def test_notifier_is_silent_outside_systemd() -> None:
    notifier = Notifier("")
    assert not notifier.enabled and not notifier.watchdog()
