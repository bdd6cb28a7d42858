#!/usr/bin/env bash
# Race evidence for a missing queue family ownership transfer, on the GPU
# machine (NVIDIA H200), from binaries built here:
#
#   scripts/h200-ownership.sh BIN_DIR OUT_DIR [N] [LARGE_N]
#
# BIN_DIR holds `queue_races` (release build of
# proptests/examples/queue_races.rs); `.vulkan-device` must be in the
# repository root. Runs `queue_races --planned --drop-ownership`: every
# generated program planned by `plan_queues` (exclusive buffers get
# ownership transfers), then, for each plan with a transfer, the plan
# without one buffer's transfer (barriers kept, `ownership` dropped) and
# without its release and acquire barriers, each run R times against the
# CPU reference. N (default 200) small programs (4 KiB buffers, R = 3),
# LARGE_N (default 50) large ones (64 KiB, slow(2000000), R = 5),
# validation off; under six minutes. Writes planned-small.txt and
# planned-large.txt to OUT_DIR, each ending with the totals.
set -uo pipefail
bin="$1"; out="$2"; n="${3:-200}"; large="${4:-50}"
source .vulkan-device/env.sh
# slow(2000000) chains on 64 KiB take longer than the default 10 s fence
# timeout.
export VKSYNC_DEVICE="${VKSYNC_DEVICE:-NVIDIA}" VKSYNC_VALIDATION=0 VKSYNC_FENCE_TIMEOUT_MS=60000
mkdir -p "$out"
{
  s0=$(date +%s)
  timeout 160 "$bin/queue_races" --planned --drop-ownership --cases "$n" --seed 1 --repeat 3 --seconds 120
  echo "exit $? ($(( $(date +%s) - s0 )) s)"
} > "$out/planned-small.txt" 2>&1
{
  s0=$(date +%s)
  timeout 200 "$bin/queue_races" --planned --drop-ownership --cases "$large" --seed 100001 --repeat 5 \
    --bytes 65536 --slow-iters 2000000 --batches 8 --seconds 150
  echo "exit $? ($(( $(date +%s) - s0 )) s)"
} > "$out/planned-large.txt" 2>&1
tail -n 3 "$out"/planned-*.txt
