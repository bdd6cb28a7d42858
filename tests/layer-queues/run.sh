#!/usr/bin/env bash
# The layer differential on hand-written multi-queue traces: each trace of
# this directory run as written (`vksync run --as-written`) with the
# validation layer's synchronization validation, with and without its
# submit-time validation (`--submit-validation`: opt-in in the 1.3.239
# layer, and turned off by the runtime for 1.4 layers), and vksync's own
# verdict (`vksync check`). On a device with several queues (the H200);
# lavapipe has one queue, so every model queue shares it there.
#
#   tests/layer-queues/run.sh VKSYNC_BIN OUT_FILE [LAYER_DIR]
#
# With LAYER_DIR (tests/layer-queues/make-layer-dir.sh), vksync runs with
# that directory's layer and glibc (tests/layer-queues/with-layer.sh).
set -uo pipefail
bin="$1"; out="$2"; layer="${3:-}"
here0="$(cd "$(dirname "$0")" && pwd)"
if [ -n "$layer" ]; then
  real="$bin"
  bin="$(mktemp)"
  printf '#!/usr/bin/env bash\nexec %q %q %q "$@"\n' "$here0/with-layer.sh" "$layer" "$real" > "$bin"
  chmod +x "$bin"
fi
here="$(cd "$(dirname "$0")" && pwd)"
{
  for t in "$here"/*.trace; do
    echo "=== $(basename "$t")"
    "$bin" check "$t" 2>&1 | sed 's/^/check: /'
    echo "--- sync validation, no queue-submit validation"
    VKSYNC_VALIDATION=1 "$bin" run --as-written "$t" 2>&1 | grep -v '^    '
    echo "--- sync validation with queue-submit validation"
    VKSYNC_VALIDATION=1 "$bin" run --as-written --submit-validation "$t" 2>&1
  done
} > "$out" 2>&1
