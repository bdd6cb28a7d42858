#!/usr/bin/env bash
# Real ncnn on the GPU machine (NVIDIA H200), from binaries built here:
#
#   scripts/h200-ncnn.sh BIN_DIR OUT_DIR [INFERENCES]
#
# BIN_DIR holds `vksync` and `libvksync_capture.so` (release, stripped),
# and optionally `calls` (capture/examples/calls.rs, captured first);
# `.vulkan-device` (shared/device/prepare-vulkan.sh) and `.whl` (the ncnn
# wheel for the machine's Python, as docs/capture.md says) must be in the
# repository root. Writes to OUT_DIR: `ncnn-capture.txt` (the networks
# without a layer, then under `vksync capture` with the validation layer's
# synchronization validation in the same run, `vksync check` on the trace),
# the trace `ncnn-h200.trace`, and `ncnn-overhead.txt` (tests/ncnn/overhead.sh
# with INFERENCES, default 200).
set -uo pipefail
bin="$1"; out="$2"; n="${3:-200}"
source .vulkan-device/env.sh
export VKSYNC_DEVICE="${VKSYNC_DEVICE:-NVIDIA}"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site
work=$(mktemp -d)
cat > "$work/vk_layer_settings.txt" <<'SETTINGS'
khronos_validation.enables = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT
khronos_validation.report_flags = error,warn,info
khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG
SETTINGS
if [ -x "$bin/calls" ]; then
  # capture/examples/calls.rs: images, a secondary command buffer,
  # vkCmdCopyBuffer2 and vkCmdDispatchBase on the real driver.
  { "$bin/vksync" capture -o "$out/calls.trace" -- "$bin/calls"; echo "exit $?"; } > "$out/calls.txt" 2>&1
fi
{
  echo "== networks, GPU vs CPU, no layer"
  python3 tests/ncnn/networks.py
  echo "== under vksync capture and the validation layer (sync validation)"
  VK_LAYER_SETTINGS_PATH="$work/vk_layer_settings.txt" VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation \
    "$bin/vksync" capture -o "$out/ncnn-h200.trace" -- python3 tests/ncnn/networks.py > "$work/capture.log" 2>&1
  echo "capture exit $? (networks.py exits 1 on a mismatch with the CPU)"
  echo "networks matching the CPU under the capture: $(grep -c ': OK$' "$work/capture.log")"
  grep -v '^\[0 ' "$work/capture.log" | grep -v 'Validation Information' | head -60
  echo "validation layer SYNC-HAZARD messages: $(grep -c '\[ SYNC-HAZARD' "$work/capture.log")"
  echo "== vksync check"
  s0=$(date +%s%N); timeout 300 "$bin/vksync" check "$out/ncnn-h200.trace"; echo "check exit $? ($(( ($(date +%s%N) - s0) / 1000000 )) ms)"
  grep '^# [0-9]* commands, ' "$out/ncnn-h200.trace"
  echo "dispatches: $(grep -c '^dispatch ' "$out/ncnn-h200.trace")"
  echo "not-modelled lines:"; grep '^not-modelled' "$out/ncnn-h200.trace" | sed 's/  #.*//' | sort | uniq -c
} > "$out/ncnn-capture.txt" 2>&1
{
  VKSYNC_OVERHEAD_DIFF=0 VKSYNC_NCNN_PYTHON=python3 VKSYNC_BIN="$bin/vksync" bash tests/ncnn/overhead.sh "$n" 3
  echo "exit $?"
  # Diffing all mapped memory at every submission, for comparison (slow
  # here: a few inferences, once, with a time limit).
  echo "== host writes by diffing, block network, 5 inferences"
  VKSYNC_CAPTURE_HOST_WRITES=diff timeout 240 "$bin/vksync" capture -o "$work/d.trace" -- \
    python3 tests/ncnn/networks.py --only block --repeat 5 2>&1 | grep 'ms each'
  echo "exit ${PIPESTATUS[0]}"
} > "$out/ncnn-overhead.txt" 2>&1
rm -rf "$work"
