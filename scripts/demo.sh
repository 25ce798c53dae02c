#!/usr/bin/env bash
# Runs the demo on a fresh machine: installs into .venv, then `cardtable demo` with any arguments.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/venv.sh
exec .venv/bin/cardtable demo "$@"
