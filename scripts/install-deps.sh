#!/usr/bin/env bash
# Installs what vksync needs on Debian or Ubuntu: the Vulkan loader, Mesa's
# lavapipe (a CPU Vulkan device, so no GPU is needed) and the Khronos
# validation layer (synchronization validation). Uses sudo when not root.
set -euo pipefail
need=()
[ -e /usr/lib/x86_64-linux-gnu/libvulkan.so.1 ] || [ -e /usr/lib/aarch64-linux-gnu/libvulkan.so.1 ] || need+=(libvulkan1)
ls /usr/share/vulkan/icd.d/lvp_icd.*.json >/dev/null 2>&1 || need+=(mesa-vulkan-drivers)
[ -e /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ] || need+=(vulkan-validationlayers)
if [ ${#need[@]} -eq 0 ]; then
  echo "install-deps: libvulkan1, mesa-vulkan-drivers and vulkan-validationlayers are installed"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if ! command -v apt-get >/dev/null; then
  echo "install-deps: no apt-get; install these packages by hand: ${need[*]}" >&2
  exit 1
fi
echo "install-deps: installing ${need[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
