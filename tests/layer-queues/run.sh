#!/usr/bin/env bash
# The layer differential on hand-written multi-queue traces: each trace of
# this directory run as written (`vksync run --as-written`) with the
# validation layer's synchronization validation, with and without its
# queue-submit validation (opt-in in the 1.3.239 layer), and vksync's own
# verdict (`vksync check`). On a device with several queues (the H200);
# lavapipe has one queue, so every model queue shares it there.
#
#   tests/layer-queues/run.sh VKSYNC_BIN OUT_FILE
set -uo pipefail
bin="$1"; out="$2"
here="$(cd "$(dirname "$0")" && pwd)"
{
  for t in "$here"/*.trace; do
    echo "=== $(basename "$t")"
    "$bin" check "$t" 2>&1 | sed 's/^/check: /'
    echo "--- sync validation, no queue-submit validation"
    VKSYNC_VALIDATION=1 "$bin" run --as-written "$t" 2>&1 | grep -v '^    '
    echo "--- sync validation with queue-submit validation"
    VK_LAYER_ENABLES=VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT \
      VKSYNC_VALIDATION=1 "$bin" run --as-written "$t" 2>&1
  done
} > "$out" 2>&1
