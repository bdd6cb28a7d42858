#!/usr/bin/env bash
# Fault injection on real wgpu (docs/capture.md, "Fault injection"):
# tests/drop.sh on tests/wgpu/app.py's `uniform`, `frames 3` and `render`
# workloads
# (each pipeline barrier call dropped in turn; what is checked is said
# there). `uniform` records the same stream every run but for its host
# waits (its polls), which tests/drop.sh leaves out of the line-by-line
# comparison; the frame loop's polls also shift its call numbers and its
# staging offsets, so its captures are judged by the hazards each drop
# adds only (VKSYNC_DROP_EXACT=0).
#
# Environment: VKSYNC_APPS_VENV (default /tmp/vksync-wgpu-venv, made by
# tests/wgpu/run.sh, which runs first in .ci/run), VKSYNC_BIN as in
# tests/drop.sh, VKSYNC_WGPU_DROP (workloads, default
# `uniform,frames 3,render`).
# Prints `SKIPPED: reason` and exits 0 when the venv is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
py="${VKSYNC_APPS_PYTHON:-${VKSYNC_APPS_VENV:-/tmp/vksync-wgpu-venv}/bin/python}"
"$py" -c 'import wgpu, numpy' 2>/dev/null || { echo "wgpu-drop: SKIPPED: no python with wgpu ($py; tests/wgpu/run.sh makes it)"; exit 0; }
IFS=',' read -ra workloads <<< "${VKSYNC_WGPU_DROP:-uniform,frames 3,render}"
for w in "${workloads[@]}"; do
    exact=1
    [ "${w%% *}" = frames ] && exact=0
    # shellcheck disable=SC2086
    VKSYNC_DROP_EXACT=$exact bash tests/drop.sh "wgpu-${w// /-}" -- "$py" "$root/tests/wgpu/app.py" $w
done
