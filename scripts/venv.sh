#!/usr/bin/env bash
# Creates .venv beside the project if needed and installs the project with its test extras;
# `scripts/venv.sh --runtime` installs the project alone (what the demo needs, in seconds).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
target='.[test]'
what="cardtable and its test tools"
if [ "${1:-}" = "--runtime" ]; then
    target='.'
    what="cardtable"
elif [ $# -gt 0 ]; then
    echo "scripts/venv.sh: unknown option $1 (only --runtime)" >&2
    exit 2
fi
if [ ! -x .venv/bin/python ]; then
    echo "== creating .venv with $("$PYTHON" --version)"
    "$PYTHON" -m venv .venv
    echo "== installing $what into .venv (under a minute the first time)"
else
    echo "== checking that .venv is up to date"
fi
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! .venv/bin/python -m pip install --disable-pip-version-check --progress-bar off \
        -c constraints.txt -e "$target" 2>&1 | tee "$log" \
        | { grep --line-buffered -E '^(Collecting|Successfully installed)' || true; } \
        | sed -u -E 's/^Collecting /   fetching /'; then
    echo "installing into .venv failed; pip said:" >&2
    tail -n 30 "$log" >&2
    exit 1
fi
