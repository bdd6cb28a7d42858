#!/usr/bin/env bash
# Rendering on the GPU machine (NVIDIA H200), from binaries built here:
#
#   scripts/h200-rendering.sh BIN_DIR OUT_DIR [N] [LARGE_N]
#
# BIN_DIR holds `runtime-rendering` and `device_rendering`, the release
# executables of runtime/tests/rendering.rs and
# proptests/tests/device_rendering.rs, and `vksync`:
#
#   cargo test --release -p vksync-runtime --test rendering --no-run
#   cargo test --release -p vksync-proptests --test device_rendering --no-run
#   cargo build --release -p vksync-cli
#   mkdir -p h200-bin && strip -o h200-bin/runtime-rendering target/release/deps/rendering-HASH \
#     && strip -o h200-bin/device_rendering target/release/deps/device_rendering-HASH \
#     && strip -o h200-bin/vksync target/release/vksync
#
# (the HASHes are the paths `--no-run` prints). `.vulkan-device`
# (shared/device/prepare-vulkan.sh) must be in the repository root. The
# H200's preferred queue family is compute-only: rendering programs run on
# its graphics family (`Device::run`), which this checks first. Writes to
# OUT_DIR, each file ending with the exit status:
#   gpu.txt                the GPU and driver
#   draw-rects.txt         `vksync run examples/draw-rects.trace` (planned,
#                          validation on): 0 mismatching bytes expected
#   draw-rects-bare.txt    the same as written (`--as-written`: no barrier
#                          before the draws): the layer's hazards and the
#                          wrong bytes a GPU shows, if any (exit 1 expected:
#                          vksync reports 4 hazards)
#   runtime-rendering.txt  the hand-written rendering programs and refusals
#                          (validation on)
#   rendering-small.txt    N random programs (default 200), 16x16, validation
#                          on: planned runs give the reference's bytes
#                          (asserted); without barriers, wrong bytes counted
#   rendering-large.txt    LARGE_N programs (default 100), 256x256,
#                          validation off, each run 3 times without barriers
#                          (wrong bytes counted), planned runs asserted
# Each command has a time limit; the whole script stays under ten minutes.
set -uo pipefail
bin="$1"; out="$2"; n="${3:-200}"; large="${4:-100}"
source .vulkan-device/env.sh
export VKSYNC_DEVICE="${VKSYNC_DEVICE:-NVIDIA}"
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt" 2>&1
{ timeout 60 "$bin/vksync" run examples/draw-rects.trace; echo "exit $?"; } > "$out/draw-rects.txt" 2>&1
{ timeout 60 "$bin/vksync" run --as-written examples/draw-rects.trace; echo "exit $?"; } > "$out/draw-rects-bare.txt" 2>&1
if [ -x "$bin/runtime-rendering" ]; then
  { timeout 60 "$bin/runtime-rendering" --test-threads 1; echo "exit $?"; } > "$out/runtime-rendering.txt" 2>&1
fi
if [ -x "$bin/device_rendering" ]; then
  {
    PROPTEST_CASES="$n" VKSYNC_RENDER_SECONDS=150 timeout 200 "$bin/device_rendering" --nocapture
    echo "exit $?"
  } > "$out/rendering-small.txt" 2>&1
  {
    VKSYNC_VALIDATION=0 VKSYNC_RENDER_SIZE=256 VKSYNC_RENDER_REPEAT=3 \
      PROPTEST_CASES="$large" VKSYNC_RENDER_SECONDS=200 timeout 260 "$bin/device_rendering" --nocapture
    echo "exit $?"
  } > "$out/rendering-large.txt" 2>&1
fi
tail -n 3 "$out"/*.txt
