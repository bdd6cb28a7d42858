#!/usr/bin/env bash
# Real taichi (the `taichi` PyPI package, its Vulkan backend) under vksync
# capture and the Khronos validation layer with synchronization validation:
# tests/taichi/app.py (fields with atomics, an ndarray transformed in
# place), each result checked against numpy (docs/capture.md, "Real
# applications"). The checks are those of tests/real-apps.sh.
#
# Prints `SKIPPED: reason` and exits 0 when PyPI cannot be reached.
# Environment: VKSYNC_APPS_VENV (default /tmp/vksync-taichi-venv),
# VKSYNC_APPS_KEEP=DIR keeps traces and logs, CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
app=taichi
# shellcheck source=tests/real-apps.sh
. tests/real-apps.sh
venv="${VKSYNC_APPS_VENV:-/tmp/vksync-taichi-venv}"
apps_venv "$venv" taichi==1.7.4 numpy==2.4.6
apps_build
capture_run fields-ndarray "$venv/bin/python" "$root/tests/taichi/app.py"
judge fields-ndarray 3 0 plans
