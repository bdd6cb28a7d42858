#!/usr/bin/env bash
# Copies, from a Debian 13 root (scripts/current-layer.sh builds one), what
# tests/layer-queues/with-layer.sh needs: the dynamic loader, glibc,
# libstdc++, the Vulkan loader and the 1.4.309 validation layer.
#
#   tests/layer-queues/make-layer-dir.sh ROOT DIR
set -euo pipefail
root="$1"; dir="$2"
mkdir -p "$dir/lib" "$dir/layers"
cp -L "$root/lib64/ld-linux-x86-64.so.2" "$dir/"
for l in libc.so.6 libm.so.6 libstdc++.so.6 libgcc_s.so.1 libdl.so.2 libpthread.so.0 librt.so.1 libvulkan.so.1; do
  cp -L "$root/usr/lib/x86_64-linux-gnu/$l" "$dir/lib/"
done
cp -L "$root/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so" "$dir/layers/"
sed 's#"library_path": *"[^"]*"#"library_path": "./libVkLayer_khronos_validation.so"#' \
  "$root/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json" > "$dir/layers/VkLayer_khronos_validation.json"
