#!/usr/bin/env bash
# Random programs with images on the GPU machine (NVIDIA H200), from
# binaries built here:
#
#   scripts/h200-images.sh BIN_DIR OUT_DIR [N] [LARGE_N]
#
# BIN_DIR holds `device_images`, the release executable of
# proptests/tests/device_images.rs, and optionally `runtime-images` (the
# release executable of runtime/tests/images.rs) and `vksync`:
#
#   cargo test --release -p vksync-proptests --test device_images --no-run
#   cargo test --release -p vksync-runtime --test images --no-run
#   cargo build --release -p vksync-cli
#   mkdir -p h200-bin && strip -o h200-bin/device_images target/release/deps/device_images-HASH \
#     && strip -o h200-bin/runtime-images target/release/deps/images-HASH \
#     && strip -o h200-bin/vksync target/release/vksync
#
# (the HASHes are the paths `--no-run` prints). `.vulkan-device`
# (shared/device/prepare-vulkan.sh) must be in the repository root. Writes
# to OUT_DIR, each file ending with the exit status:
#   gpu.txt             the GPU and driver
#   image-storage.txt   `vksync run examples/image-storage.trace` (validation on)
#   runtime-images.txt  the hand-written image programs (validation on)
#   images-small.txt    N programs (default 200), 16x16 images, validation
#                       on: every plan gives the reference's bytes
#                       (asserted) and no core validation message
#                       (asserted); without barriers, wrong bytes counted
#   images-large.txt    LARGE_N programs (default 100), 256x256 images,
#                       image_slow(20000), validation off, each program
#                       without barriers run 3 times: the wrong bytes a
#                       missing barrier gives on the GPU (counted), planned
#                       runs 0 wrong bytes (asserted)
# The suites start no case after 150 s and 240 s, so the whole script
# stays under ten minutes.
set -uo pipefail
bin="$1"; out="$2"; n="${3:-200}"; large="${4:-100}"
source .vulkan-device/env.sh
export VKSYNC_DEVICE="${VKSYNC_DEVICE:-NVIDIA}"
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt" 2>&1
if [ -x "$bin/vksync" ]; then
  { timeout 60 "$bin/vksync" run examples/image-storage.trace; echo "exit $?"; } > "$out/image-storage.txt" 2>&1
fi
if [ -x "$bin/runtime-images" ]; then
  { timeout 60 "$bin/runtime-images" --test-threads 1; echo "exit $?"; } > "$out/runtime-images.txt" 2>&1
fi
{
  PROPTEST_CASES="$n" VKSYNC_IMAGE_SECONDS=150 timeout 200 "$bin/device_images" --nocapture
  echo "exit $?"
} > "$out/images-small.txt" 2>&1
{
  VKSYNC_VALIDATION=0 VKSYNC_IMAGE_SIZE=256 VKSYNC_IMAGE_SLOW=20000 VKSYNC_IMAGE_REPEAT=3 \
    PROPTEST_CASES="$large" VKSYNC_IMAGE_SECONDS=240 timeout 300 "$bin/device_images" --nocapture
  echo "exit $?"
} > "$out/images-large.txt" 2>&1
tail -n 3 "$out"/*.txt
