#!/usr/bin/env bash
# Runs vksync on the GPU machine (NVIDIA H200) from binaries built here.
#   scripts/h200.sh BIN_DIR OUT_DIR [suite args...]
# BIN_DIR holds release builds copied from this machine (vksync, the runtime
# test executables, device_suite, vksync-bench); .vulkan-device must be in
# the repository root (shared/device/prepare-vulkan.sh). Each step's output
# goes to OUT_DIR; a step that is not in BIN_DIR is skipped.
set -uo pipefail
bin="$1"; out="$2"; shift 2
source .vulkan-device/env.sh
export VKSYNC_DEVICE="${VKSYNC_DEVICE:-NVIDIA}"
{
  echo "== vksync run on every example (offline plan, validation on)"
  for f in examples/*.trace; do
    echo "\$ vksync run $f"; "$bin/vksync" run "$f"; echo "exit $?"
  done
  echo "\$ vksync run examples/ncnn-batch-scale.trace --planner per-object"
  "$bin/vksync" run examples/ncnn-batch-scale.trace --planner per-object; echo "exit $?"
  echo "\$ vksync run examples/ncnn-batch-scale.trace --planner online --buffer-barriers"
  "$bin/vksync" run examples/ncnn-batch-scale.trace --planner online --buffer-barriers; echo "exit $?"
} > "$out/run.txt" 2>&1
{
  for t in "$bin"/errors-* "$bin"/ncnn-* "$bin"/patterns-* "$bin"/planned-* "$bin"/repeat-*; do
    [ -x "$t" ] || continue
    echo "\$ $(basename "$t")"; "$t" --test-threads=1 2>&1 | tail -25
  done
} > "$out/runtime-tests.txt" 2>&1
if [ -x "$bin/device_suite" ]; then
  "$bin/device_suite" "$@" > "$out/suite.txt" 2>&1; echo "exit $?" >> "$out/suite.txt"
fi
if [ -x "$bin/vksync-bench" ]; then
  VKSYNC_VALIDATION=0 "$bin/vksync-bench" gpu --quick > "$out/bench.txt" 2>&1; echo "exit $?" >> "$out/bench.txt"
fi
ls -la "$out"
