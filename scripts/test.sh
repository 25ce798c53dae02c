#!/usr/bin/env bash
# Runs every check on a fresh machine: installs into .venv, then ruff, mypy --strict and pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/venv.sh
.venv/bin/ruff check .
.venv/bin/mypy --strict table vision tools
set +e
.venv/bin/python -m pytest "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
    echo "pytest collected no tests: that is a failure here" >&2
    exit 1
fi
exit "$status"
