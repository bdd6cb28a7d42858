#!/usr/bin/env bash
# Fault injection on real ncnn (docs/capture.md, "Fault injection"): the
# positive control of issue 23 on a real application: tests/drop.sh (each
# pipeline barrier call dropped in turn with `vksync capture
# --drop-barrier N`; what it checks is said there) on
# tests/ncnn/networks.py. ncnn records the same stream every run, so each
# capture is also compared line by line with the unchanged one minus the
# barrier. The last column counts the networks whose results still match
# ncnn's CPU path (on lavapipe a missing barrier changes no byte; on the
# H200 it may: this script is what to run there).
#
# Environment: as tests/ncnn/run.sh (VKSYNC_NCNN_VENV, CARGO_TARGET_DIR),
# VKSYNC_NCNN_DROP_ONLY (networks, default conv_relu), VKSYNC_NCNN_DROP_N
# (the barriers to drop, default all), VKSYNC_NCNN_KEEP=DIR keeps the
# traces; on a machine without cargo or PyPI (the H200,
# scripts/h200-apps.sh): VKSYNC_BIN (a built `vksync`, its capture layer
# beside it) and VKSYNC_NCNN_PYTHON (a python that imports ncnn). Prints `SKIPPED: reason` and exits 0 when the ncnn venv is
# missing and cannot be made; exits 1 on a failed check.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
venv="${VKSYNC_NCNN_VENV:-/tmp/vksync-ncnn-venv}"
only="${VKSYNC_NCNN_DROP_ONLY:-conv_relu}"
version="${VKSYNC_NCNN_VERSION:-1.0.20261020}"
py="${VKSYNC_NCNN_PYTHON:-$venv/bin/python}"
if [ -z "${VKSYNC_NCNN_PYTHON:-}" ] && ! "$venv/bin/python" -c "import ncnn, numpy, sys; sys.exit(ncnn.__version__ != '$version')" 2>/dev/null; then
    python3 -m venv "$venv" || { echo "ncnn-drop: SKIPPED: python3 -m venv failed"; exit 0; }
    "$venv/bin/pip" install --quiet --disable-pip-version-check --timeout 30 "ncnn==$version" numpy \
        || { echo "ncnn-drop: SKIPPED: cannot install ncnn==$version from PyPI"; exit 0; }
fi
# The drops and checks are tests/drop.sh's; ncnn's result lines end `: OK`.
VKSYNC_DROP_OK=': OK$' VKSYNC_DROP_N="${VKSYNC_NCNN_DROP_N:-}" VKSYNC_DROP_KEEP="${VKSYNC_NCNN_KEEP:-}" \
    exec bash tests/drop.sh ncnn -- "$py" "$root/tests/ncnn/networks.py" --only "$only"
