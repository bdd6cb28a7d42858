#!/usr/bin/env bash
# Multi-queue programs on the GPU machine (NVIDIA H200), from binaries
# built here:
#
#   scripts/h200-queues.sh BIN_DIR OUT_DIR [N] [LARGE_N]
#
# BIN_DIR holds `queue_races` (release build of
# proptests/examples/queue_races.rs) and, optionally, `runtime-queues`
# (the release executable of runtime/tests/queues.rs, the hand-written
# cases). `.vulkan-device` (shared/device/prepare-vulkan.sh) must be in the
# repository root. N (default 200) random programs in the small suite,
# LARGE_N (default 50) in the large one; the whole script stays under ten
# minutes (each suite starts no new program after 120 s and 200 s). Writes to OUT_DIR:
#   handwritten.txt   the hand-written cases (semaphores, timelines, host
#                     signal/wait, wait QUEUE, events, an ownership
#                     transfer), with validation, and the queue mapping
#   races-small.txt   N programs, 4 KiB buffers, validation on with
#                     queue-submit validation: every synchronized program
#                     must give 0 wrong bytes and no message; each variant
#                     without one wait runs twice (the totals count the runs
#                     the layer flags with a SYNC-HAZARD: the differential)
#   races-large.txt   LARGE_N programs, 64 KiB buffers, slow(2000000) (a
#                     few ms per dispatch on the GPU; the reference
#                     composes the LCG in O(log n)), validation off, each
#                     variant without one wait run 5 times: the race
#                     evidence (wrong bytes when a wait is missing)
# Each file ends with a `totals:` line and the exit status.
set -uo pipefail
bin="$1"; out="$2"; n="${3:-200}"; large="${4:-50}"
source .vulkan-device/env.sh
export VKSYNC_DEVICE="${VKSYNC_DEVICE:-NVIDIA}"
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt" 2>&1
if [ -x "$bin/runtime-queues" ]; then
  { VKSYNC_VALIDATION=1 timeout 60 "$bin/runtime-queues" --nocapture --test-threads 1; echo "exit $?"; } > "$out/handwritten.txt" 2>&1
fi
{
  s0=$(date +%s)
  # Submit-time synchronization validation (opt-in in the 1.3.239 layer,
  # off by default in the runtime for 1.4): hazards between submissions
  # and queues, the layer differential; the programs it flags are printed.
  VKSYNC_VALIDATION=1 timeout 200 "$bin/queue_races" --cases "$n" --seed 1 --repeat 2 --seconds 120 \
    --print-first --print-messages --submit-validation
  echo "exit $? ($(( $(date +%s) - s0 )) s)"
} > "$out/races-small.txt" 2>&1
{
  s0=$(date +%s)
  VKSYNC_VALIDATION=0 timeout 260 "$bin/queue_races" --cases "$large" --seed 100001 --repeat 5 \
    --bytes 65536 --slow-iters 2000000 --batches 8 --seconds 200
  echo "exit $? ($(( $(date +%s) - s0 )) s)"
} > "$out/races-large.txt" 2>&1
tail -n 2 "$out"/*.txt
