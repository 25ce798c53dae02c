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
WEB_UNIT = ROOT / "systemd" / "cardtable-web.service"
EXEC = "/opt/cardtable/.venv/bin/cardtable"


def _settings(unit: Path) -> list[str]:
    return [line.strip() for line in unit.read_text().splitlines()]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze absent")
@pytest.mark.parametrize("shipped", [UNIT, WEB_UNIT], ids=lambda unit: unit.name)
def test_unit_verifies_clean(tmp_path: Path, shipped: Path) -> None:
    fake = tmp_path / "cardtable"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    unit = tmp_path / shipped.name
    unit.write_text(shipped.read_text().replace(EXEC, str(fake)))
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
        "RestartPreventExitStatus=2",
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


def _dry_run(*extra: str) -> str:
    result = subprocess.run(
        ["bash", str(ROOT / "systemd" / "install.sh"), "--dry-run", *extra],
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout


def test_installer_dry_run_lists_its_steps_in_order() -> None:
    steps = [line[2:] for line in _dry_run().splitlines() if line.startswith("+ ")]
    assert steps[0] == "apt-get update"
    first = {step.split()[-1]: n for n, step in enumerate(steps) if step.startswith("apt-get")}
    assert {"libgbm1", "python3-picamera2", "python3-lgpio"} <= set(first)
    pip = next(n for n, step in enumerate(steps) if "/pip install" in step)
    assert "--constraint" in steps[pip] and steps[pip].endswith("/opt/cardtable/src[pi]")
    assert "ln -sf /opt/cardtable/.venv/bin/cardtable /usr/local/bin/cardtable" in steps
    assert steps[-1] == "systemctl enable cardtable.service cardtable-web.service"
    installed = [step.split()[-1] for step in steps if step.startswith("install -m 0644")]
    assert installed == ["/etc/systemd/system/cardtable.service",
                         "/etc/systemd/system/cardtable-web.service"]


def test_installer_leaves_the_clones_venv_behind() -> None:
    lines = _dry_run().splitlines()
    copy = next(line for line in lines if line.startswith("+ tar -C") and "-cf" in line)
    assert "--exclude=./.venv" in copy and "--exclude=./.git" in copy


def test_installer_starts_the_service_only_when_asked() -> None:
    started = "+ systemctl enable --now cardtable.service cardtable-web.service"
    assert started in _dry_run("--start")
    assert "--now" not in _dry_run()


def test_installer_refuses_an_unknown_option() -> None:
    result = subprocess.run(
        ["bash", str(ROOT / "systemd" / "install.sh"), "--bogus"], capture_output=True, text=True
    )
    assert result.returncode == 2 and "--bogus" in result.stderr


def test_unit_lets_gpiozero_read_the_board_and_lgpio_make_its_pipe() -> None:
    settings = [line.strip() for line in UNIT.read_text().splitlines()]
    assert "ProcSubset=pid" not in settings
    assert "WorkingDirectory=/var/lib/cardtable" in settings
    assert "RuntimeDirectory=cardtable" in settings
    assert "Environment=LG_WD=/run/cardtable" in settings


def test_the_table_stays_off_the_network_and_the_web_unit_holds_no_devices() -> None:
    table, web = _settings(UNIT), _settings(WEB_UNIT)
    assert "PrivateNetwork=yes" in table and "IPAddressDeny=any" in table
    assert next(line for line in table if line.startswith("ExecStart=")).endswith(" --no-web")
    assert "PrivateDevices=yes" in web and "DevicePolicy=closed" in web
    assert not [line for line in web if line.startswith(("DeviceAllow=", "SupplementaryGroups="))]
    allowed = next(line for line in web if line.startswith("IPAddressAllow=")).split("=")[1]
    assert "any" not in allowed.split() and "localhost" in allowed.split()
    assert f"ExecStart={EXEC} web --config /etc/cardtable/table.toml" in web


def test_the_web_unit_reaches_the_table_s_control_socket() -> None:
    table, web = _settings(UNIT), _settings(WEB_UNIT)
    for setting in ("User=cardtable", "Group=cardtable", "StateDirectory=cardtable"):
        assert setting in table and setting in web, setting  # the socket's owner, and its folder
    for unit in (table, web):
        families = next(line for line in unit if line.startswith("RestrictAddressFamilies="))
        assert "AF_UNIX" in families.split("=")[1].split()
        hidden = [line for line in unit if line.startswith(("InaccessiblePaths=", "ReadOnlyPaths=",
                                                            "TemporaryFileSystem="))]
        assert not [line for line in hidden if "/var/lib" in line]
    assert "WorkingDirectory=/var/lib/cardtable" in web


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze absent")
@pytest.mark.parametrize("shipped", [UNIT, WEB_UNIT], ids=lambda unit: unit.name)
def test_unit_exposure_stays_at_or_below_one(shipped: Path) -> None:
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", str(shipped)],
        capture_output=True, text=True, check=False,
    )
    overall = [line for line in result.stdout.splitlines() if "Overall exposure level" in line]
    assert overall, result.stdout + result.stderr
    level = float(overall[0].split(":")[1].split()[0])
    assert level <= 1.0


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
