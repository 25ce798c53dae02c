#!/usr/bin/env bash
# Creates .venv if needed, installs the project with its test extras, then runs ruff, mypy and pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'
.venv/bin/ruff check .
.venv/bin/mypy table
set +e
.venv/bin/python -m pytest "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
    echo "pytest collected no tests"
    exit 1
fi
exit "$status"
