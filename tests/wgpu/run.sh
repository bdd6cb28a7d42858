#!/usr/bin/env bash
# Real wgpu (the `wgpu` PyPI package: wgpu-native, Rust wgpu-core's barrier
# tracker) under vksync capture and the Khronos validation layer with
# synchronization validation, one run per workload of tests/wgpu/app.py
# (docs/capture.md, "Real applications"). The checks are those of
# tests/real-apps.sh; the documented figures per run are in the table below.
#
# Also times a 100-frame write_buffer / dispatch / read_buffer loop plain
# and under `vksync capture` alone (no validation layer), and prints the
# ratio (issue 23 asks for at most 2x).
#
# Prints `SKIPPED: reason` and exits 0 when PyPI cannot be reached.
# Environment: VKSYNC_APPS_VENV (default /tmp/vksync-wgpu-venv),
# VKSYNC_APPS_KEEP=DIR keeps traces and logs, CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
app=wgpu
# shellcheck source=tests/real-apps.sh
. tests/real-apps.sh
venv="${VKSYNC_APPS_VENV:-/tmp/vksync-wgpu-venv}"
apps_venv "$venv" wgpu==0.32.0 numpy==2.4.6
apps_build
py="$venv/bin/python"

# name | arguments | results | not-modelled | plan
runs=(
    "uniform|uniform|1|0|${VKSYNC_WGPU_PLAN:-plans}"
    "frames|frames 20|1|0|${VKSYNC_WGPU_PLAN:-plans}"
    "textures|textures|1|${VKSYNC_WGPU_TEXTURES_NOT_MODELLED:-0}|${VKSYNC_WGPU_TEXTURES_PLAN:-plans}"
)
for r in "${runs[@]}"; do
    IFS='|' read -r name args ok nm plan <<< "$r"
    # shellcheck disable=SC2086
    capture_run "$name" "$py" "$root/tests/wgpu/app.py" $args
    judge "$name" "$ok" "$nm" "$plan"
done

# The frame loop's cost: plain, then under the capture alone.
t0=$(date +%s.%N)
"$py" "$root/tests/wgpu/app.py" frames 100 > "$work/loop.plain" 2>&1 || apps_fail "frames 100 fails plain"
t1=$(date +%s.%N)
(cd "$work" && "$vksync" capture -o "$work/loop.trace" -- "$py" "$root/tests/wgpu/app.py" frames 100) > "$work/loop.log" 2>&1 || true
t2=$(date +%s.%N)
grep -q '^ok frames 100' "$work/loop.log" || apps_fail "frames 100 under the capture"
echo "wgpu: frames 100: $(awk "BEGIN { printf \"plain %.2f s, capture + check %.2f s (%.2fx)\", $t1 - $t0, $t2 - $t1, ($t2 - $t1) / ($t1 - $t0) }")"
