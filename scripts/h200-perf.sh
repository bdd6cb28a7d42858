#!/usr/bin/env bash
# Split barriers, async compute and per-primitive costs on the GPU machine
# (NVIDIA H200), from binaries built here:
#
#   scripts/h200-perf.sh BIN_DIR OUT_DIR
#
# BIN_DIR holds `vksync-bench` (release build: `cargo build --release -p
# vksync-bench`). `.vulkan-device` (shared/device/prepare-vulkan.sh) must
# be in the repository root. Validation is off. Writes to OUT_DIR:
#   gpu.txt          `vksync-bench gpu --verify` with plans none, offline,
#                    split (events) and async (two compute queues and a
#                    transfer queue) at 256 B, 64 KiB and 4 MiB, all timed
#                    by the default --method prepared (recorded once, each
#                    execution's batches submitted back to back behind the
#                    start gate; GPU span over its batches), interleaved
#   primitives.txt   `vksync-bench primitives`: chains of 256 dispatches
#                    with a global barrier, a buffer barrier, an event
#                    pair, a submit+barrier or a semaphore between queues
#                    between each pair, at 256 B and 1 MiB, --method
#                    prepared (records before it were --method run)
#   device.txt       nvidia-smi: GPU name and driver
# Each file ends with its exit status and seconds; the whole script stays
# under nine minutes (timeouts 330 s and 180 s).
set -uo pipefail
bin="$1"; out="$2"
source .vulkan-device/env.sh
export VKSYNC_DEVICE="${VKSYNC_DEVICE:-NVIDIA}" VKSYNC_VALIDATION=0
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/device.txt" 2>&1
{
  s0=$(date +%s)
  timeout 330 "$bin/vksync-bench" gpu --verify --planners none,offline,scheduled,split,async \
    --sizes 256,64KiB,4MiB --reps 200 --warmup 5 --seconds-per-size 60
  echo "exit $? ($(( $(date +%s) - s0 )) s)"
} > "$out/gpu.txt" 2>&1
{
  s0=$(date +%s)
  timeout 180 "$bin/vksync-bench" primitives --n 256 --sizes 256,1MiB --reps 100 --warmup 3 \
    --seconds-per-size 60
  echo "exit $? ($(( $(date +%s) - s0 )) s)"
} > "$out/primitives.txt" 2>&1
tail -n 4 "$out"/gpu.txt "$out"/primitives.txt
