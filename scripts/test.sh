#!/usr/bin/env bash
# Runs every check on a fresh machine: installs into .venv, then ruff, mypy --strict and pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/venv.sh
echo "== ruff"
.venv/bin/ruff check .
echo "== mypy --strict table vision tools app drivers display tests/harness"
.venv/bin/mypy --strict table vision tools app drivers display tests/harness
echo "== pytest (about 15 minutes; tests that need ../shared say so when it is absent)"
set +e
.venv/bin/python -m pytest "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
    echo "pytest collected no tests: that is a failure here" >&2
    exit 1
fi
exit "$status"
