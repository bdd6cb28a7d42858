#!/usr/bin/env bash
# Fault injection on real taichi (docs/capture.md, "Fault injection"):
# tests/drop.sh on tests/taichi/app.py (each pipeline barrier call dropped
# in turn; what is checked is said there). taichi does not record the same
# stream every run (its allocations and call numbers vary), so the
# captures are not compared line by line (VKSYNC_DROP_EXACT=0): each drop
# is judged by the hazards it adds to those of the unchanged run.
#
# Environment: VKSYNC_APPS_VENV (default /tmp/vksync-taichi-venv, made by
# tests/taichi/run.sh, which runs first in .ci/run), VKSYNC_BIN as in
# tests/drop.sh. Prints `SKIPPED: reason` and exits 0 when the venv is
# missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
py="${VKSYNC_APPS_PYTHON:-${VKSYNC_APPS_VENV:-/tmp/vksync-taichi-venv}/bin/python}"
"$py" -c 'import taichi, numpy' 2>/dev/null || { echo "taichi-drop: SKIPPED: no python with taichi ($py; tests/taichi/run.sh makes it)"; exit 0; }
VKSYNC_DROP_EXACT=0 exec bash tests/drop.sh taichi -- "$py" "$root/tests/taichi/app.py"
