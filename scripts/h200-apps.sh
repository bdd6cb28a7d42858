#!/usr/bin/env bash
# Real applications on the GPU machine (NVIDIA H200), from binaries built
# here:
#
#   scripts/h200-apps.sh BIN_DIR OUT_DIR
#
# BIN_DIR holds `vksync`, `libvksync_capture.so` and `calls` (release,
# stripped); `.vulkan-device` and `.whl` (the ncnn and wgpu wheels with
# cffi, pycparser, rendercanvas for the machine's Python 3.12, as
# docs/capture.md says) must be in the repository root. Writes to OUT_DIR:
# what scripts/h200-ncnn.sh writes (50 inferences for the overhead),
# `ncnn-drop.txt` (tests/ncnn/drop.sh: each pipeline barrier of the
# conv_relu network dropped in turn, whether the network still matches
# its CPU path: the wrong bytes a drop causes on this GPU), and
# `wgpu.txt` (tests/wgpu/app.py's workloads plain and under `vksync
# capture`, the 100-frame loops timed both ways), and `wgpu-drop.txt`
# (tests/wgpu/drop.sh: each barrier of `uniform`, `frames 3` and `render`
# dropped in turn, whether wgpu's results still match numpy: the wrong
# bytes and pixels a drop causes on this GPU). VKSYNC_H200_SKIP_NCNN=1
# leaves out scripts/h200-ncnn.sh and the ncnn wheel.
set -uo pipefail
bin=$(cd "$1" && pwd); out="$2"
[ -n "${VKSYNC_H200_SKIP_NCNN:-}" ] || bash scripts/h200-ncnn.sh "$bin" "$out" 50
source .vulkan-device/env.sh
[ -d /tmp/site/wgpu ] || python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export VKSYNC_DEVICE="${VKSYNC_DEVICE:-NVIDIA}" PYTHONPATH=/tmp/site
if [ -z "${VKSYNC_H200_SKIP_NCNN:-}" ]; then
    VKSYNC_BIN="$bin/vksync" VKSYNC_NCNN_PYTHON=python3 timeout 300 bash tests/ncnn/drop.sh > "$out/ncnn-drop.txt" 2>&1
    echo "exit $?" >> "$out/ncnn-drop.txt"
fi
VKSYNC_BIN="$bin/vksync" VKSYNC_APPS_PYTHON=python3 timeout 420 bash tests/wgpu/drop.sh > "$out/wgpu-drop.txt" 2>&1
echo "exit $?" >> "$out/wgpu-drop.txt"
w=$(mktemp -d)
{
  for wl in uniform textures "frames 20" render; do
    echo "== $wl: plain"
    # shellcheck disable=SC2086
    timeout 120 python3 tests/wgpu/app.py $wl 2>&1 | tail -3
    echo "== $wl: under vksync capture"
    # shellcheck disable=SC2086
    (cd "$w" && timeout 180 "$bin/vksync" capture -o "$w/${wl%% *}.trace" -- python3 "$OLDPWD/tests/wgpu/app.py" $wl) 2>&1 \
      | grep -v '^.*SYNC-HAZARD' | tail -4
    grep -c ': SYNC-HAZARD' <("$bin/vksync" check "$w/${wl%% *}.trace" 2>&1) | sed 's/^/vksync check hazards: /'
    grep '^# [0-9]* commands, ' "$w/${wl%% *}.trace"
    grep '^not-modelled' "$w/${wl%% *}.trace" | sed 's/  #.*//' | sort | uniq -c
  done
  for loop in frames render; do
    echo "== $loop 100: plain, then under vksync capture (with its check)"
    s0=$(date +%s%N); timeout 120 python3 tests/wgpu/app.py $loop 100 | tail -1; s1=$(date +%s%N)
    (cd "$w" && timeout 240 "$bin/vksync" capture -o "$w/$loop-loop.trace" -- python3 "$OLDPWD/tests/wgpu/app.py" $loop 100) 2>&1 | tail -1
    s2=$(date +%s%N)
    echo "plain $(( (s1 - s0) / 1000000 )) ms, capture + check $(( (s2 - s1) / 1000000 )) ms"
  done
  cp "$w"/*.trace "$out"/ 2>/dev/null
} > "$out/wgpu.txt" 2>&1
rm -rf "$w"
