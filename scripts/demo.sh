#!/usr/bin/env bash
# Runs the demo on a fresh machine: installs cardtable into .venv, then `cardtable demo` with any
# arguments.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/venv.sh --runtime
exec .venv/bin/cardtable demo "$@"
