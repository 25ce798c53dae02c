#!/usr/bin/env bash
# Installs cardtable as a system service on Raspberry Pi OS (Bookworm or newer). Run as root.
#   sudo systemd/install.sh            # install and enable; start it after check-hardware
#   sudo systemd/install.sh --start    # install, enable and start now
#   systemd/install.sh --dry-run       # print every step, change nothing
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/opt/cardtable
DRY_RUN=0
START=0
for arg in "$@"; do
    case "$arg" in
        --dry-run) DRY_RUN=1 ;;
        --start) START=1 ;;
        -h|--help) sed -n '2,5s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option $arg (use --dry-run, --start or --help)" >&2; exit 2 ;;
    esac
done

say() { echo "== $*"; }
run() { if [ "$DRY_RUN" = 1 ]; then echo "+ $*"; else "$@"; fi; }
has_candidate() {
    # True when apt knows an installable version of the package (after apt-get update).
    local candidate
    candidate="$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p')"
    [ -n "$candidate" ] && [ "$candidate" != "(none)" ]
}

if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run it as root (sudo systemd/install.sh), or --dry-run to see the steps" >&2
    exit 2
fi

say "package lists"
run apt-get update

say "Debian packages: venv, the system numpy, GPIO character devices, the console screen (kmsdrm)"
run apt-get install -y python3-venv python3-pip python3-numpy python3-libgpiod libdrm2 libgbm1

say "Raspberry Pi archive packages (Raspberry Pi OS has this archive; plain Debian does not)"
for package in python3-picamera2 python3-lgpio; do
    if [ "$DRY_RUN" = 1 ] || has_candidate "$package"; then
        run apt-get install -y "$package"
    else
        echo "   $package is not in this machine's archives (it comes from the Raspberry Pi" \
             "archive): skipped. Without picamera2 use [camera] kind = \"usb\"; without lgpio" \
             "use [gpio] pin_factory = \"rpigpio\" on a Pi 4." >&2
    fi
done

say "the cardtable user and its device groups"
for group in gpio video dialout input render; do
    getent group "$group" >/dev/null 2>&1 || run groupadd --system "$group"
done
if id cardtable >/dev/null 2>&1; then
    run usermod --append --groups gpio,video,dialout,input,render cardtable
else
    run useradd --system --home-dir /var/lib/cardtable --shell /usr/sbin/nologin \
        --groups gpio,video,dialout,input,render cardtable
fi

say "the program in $prefix (the clone's own .venv, .git and outputs stay behind)"
run mkdir -p "$prefix/src" /etc/cardtable
run tar -C "$here" --exclude=./.venv --exclude=./.git --exclude=./demo-out \
    --exclude='__pycache__' --exclude='*.egg-info' -cf "$prefix/src.tar" .
run tar -C "$prefix/src" -xf "$prefix/src.tar"
run rm -f "$prefix/src.tar"
# --system-site-packages lets the venv see apt's picamera2 and lgpio, which PyPI lacks for the Pi.
# apt's picamera2 and simplejpeg are built against the system numpy, so the venv keeps that numpy
# (the constraint) and pip picks the newest OpenCV built for it.
run python3 -m venv --system-site-packages "$prefix/.venv"
if [ "$DRY_RUN" = 1 ]; then
    echo "+ echo numpy==<the system numpy's version> > $prefix/constraints.txt"
else
    python3 -c 'import numpy; print("numpy==" + numpy.__version__)' > "$prefix/constraints.txt"
fi
run "$prefix/.venv/bin/pip" install --constraint "$prefix/constraints.txt" "$prefix/src[pi]"
run ln -sf "$prefix/.venv/bin/cardtable" /usr/local/bin/cardtable

say "config and service"
[ -e /etc/cardtable/table.toml ] || run cp "$here/hardware/table.example.toml" /etc/cardtable/table.toml
# The table (devices, no network) and its web page and MQTT (network, no devices), apart.
for unit in cardtable.service cardtable-web.service; do
    run install -m 0644 "$here/systemd/$unit" "/etc/systemd/system/$unit"
done
run systemctl daemon-reload
if [ "$START" = 1 ]; then
    run systemctl enable --now cardtable.service cardtable-web.service
else
    run systemctl enable cardtable.service cardtable-web.service
fi

cat <<'NEXT'
== next steps
  cardtable check-hardware --config /etc/cardtable/table.toml   # buttons, lights, buzzer, camera
  cardtable calibrate --config /etc/cardtable/table.toml        # the play area and the seat zones
  sudo systemctl start cardtable cardtable-web                  # then the table runs at every boot
NEXT
