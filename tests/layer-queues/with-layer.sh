#!/usr/bin/env bash
# Runs COMMAND with another validation layer and the glibc it was built
# for, without installing anything: DIR holds that system's dynamic loader
# (`ld-linux-x86-64.so.2`), its libraries in `lib/` (glibc, libstdc++, the
# Vulkan loader) and the layer with its manifest in `layers/`. Used to run
# Debian 13's 1.4.309 layer on the GPU machine, whose system is older:
#
#   tests/layer-queues/with-layer.sh DIR COMMAND ARGS...
#
# Build DIR from the Debian 13 root (scripts/current-layer.sh) with
# tests/layer-queues/make-layer-dir.sh.
set -euo pipefail
dir="$(cd "$1" && pwd)"; shift
export VK_LAYER_PATH="$dir/layers" VK_ADD_LAYER_PATH="$dir/layers"
exec "$dir/ld-linux-x86-64.so.2" --library-path "$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}:/usr/lib/x86_64-linux-gnu:/lib/x86_64-linux-gnu" "$@"
