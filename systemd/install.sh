#!/usr/bin/env bash
# Installs cardtable as a system service on Raspberry Pi OS (Bookworm or newer). Run as root.
#   sudo systemd/install.sh            # install and start
#   systemd/install.sh --dry-run       # print what it would do
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/opt/cardtable
run() { if [ "${DRY_RUN:-0}" = 1 ]; then echo "+ $*"; else "$@"; fi; }
[ "${1:-}" = "--dry-run" ] && DRY_RUN=1

run apt-get install -y python3-venv python3-picamera2 python3-lgpio python3-libgpiod
id cardtable >/dev/null 2>&1 || run useradd --system --home-dir /var/lib/cardtable \
    --shell /usr/sbin/nologin --groups gpio,video,dialout,input,render cardtable
run mkdir -p "$prefix" /etc/cardtable
run cp -r "$here/." "$prefix/"
# --system-site-packages lets the venv see apt's picamera2 and lgpio, which PyPI lacks for the Pi.
run python3 -m venv --system-site-packages "$prefix/.venv"
run "$prefix/.venv/bin/pip" install "$prefix[pi]"
[ -e /etc/cardtable/table.toml ] || run cp "$here/hardware/table.example.toml" /etc/cardtable/table.toml
run install -m 0644 "$here/systemd/cardtable.service" /etc/systemd/system/cardtable.service
run systemctl daemon-reload
run systemctl enable --now cardtable.service
