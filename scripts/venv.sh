#!/usr/bin/env bash
# Creates .venv beside the project if needed and installs the project with its test extras.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    echo "== creating .venv with $("$PYTHON" --version)"
    "$PYTHON" -m venv .venv
    echo "== installing cardtable and its test tools into .venv (about a minute the first time)"
else
    echo "== checking that .venv is up to date"
fi
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! .venv/bin/python -m pip install --disable-pip-version-check --progress-bar off \
        -c constraints.txt -e '.[test]' 2>&1 | tee "$log" \
        | { grep --line-buffered -E '^(Collecting|Successfully installed)' || true; } \
        | sed -u -E 's/^Collecting /   fetching /'; then
    echo "installing into .venv failed; pip said:" >&2
    tail -n 30 "$log" >&2
    exit 1
fi
