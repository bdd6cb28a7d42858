#!/usr/bin/env bash
# The capture applications that need a newer lavapipe than Debian 12's
# (tests/capture-apps/run.sh names them "elsewhere"), run by run.sh in the
# Debian 13 root of scripts/current-layer.sh (Mesa 25 lavapipe, validation
# layer 1.4.309): built on the host (the root has no compiler; host binaries
# run there unchanged), run there with VKSYNC_CAPTURE_APPS_BUILT, where a
# missing feature is a failure.
#
#   tests/capture-apps/run-current.sh [ROOT]   (default: as test-current-layer.sh)
#
# Environment: VKSYNC_BIN (a vksync binary with libvksync_capture.so beside
# it, under the repository; default: build the release one), as run.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
root_dir=$(pwd)
root="${1:-${VKSYNC_CURRENT_ROOT:-$HOME/.cache/vksync/trixie-root}}"
if [ -z "${VKSYNC_BIN:-}" ]; then
    cargo build --quiet --release -p vksync-cli -p vksync-capture
    VKSYNC_BIN="${CARGO_TARGET_DIR:-$root_dir/target}/release/vksync"
fi
# Under the repository: the root sees it at the same path.
built="$root_dir/target/capture-apps-built"
rm -rf "$built" && mkdir -p "$built"
for app in descriptor-indexing storage-image; do
    cc -O1 -Wall -Werror -o "$built/$app-linked" "tests/capture-apps/$app.c" -lvulkan -lpthread
    cc -O1 -Wall -Werror -DVKS_DLOPEN -o "$built/$app-dlopen" "tests/capture-apps/$app.c" -ldl -lpthread
done
VKSYNC_BIN="$VKSYNC_BIN" VKSYNC_CAPTURE_APPS_BUILT="$built" VKSYNC_CAPTURE_APPS_ONLY='^(descriptor-indexing.*|storage-image-push2|storage-image-push-template2|storage-image-set2)$' \
    bash scripts/current-layer.sh --suite trixie "$root" -- bash tests/capture-apps/run.sh
