#!/usr/bin/env bash
# Installs what vksync needs on Debian or Ubuntu: the Vulkan loader, Mesa's
# lavapipe (a CPU Vulkan device, so no GPU is needed) and the Khronos
# validation layer (synchronization validation). Uses sudo when not root.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"

need=()
[ -e /usr/lib/x86_64-linux-gnu/libvulkan.so.1 ] || [ -e /usr/lib/aarch64-linux-gnu/libvulkan.so.1 ] || need+=(libvulkan1)
# Mesa names lavapipe's manifest lvp_icd.x86_64.json (Debian 12) or
# lvp_icd.json (Mesa 25 and 26: Debian 13, forky).
ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1 || need+=(mesa-vulkan-drivers)
[ -e /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ] || need+=(vulkan-validationlayers)
# tests/capture-apps/run.sh compiles small C applications against the
# Vulkan headers and libvulkan.so (both in libvulkan-dev), with a C compiler.
[ -e /usr/include/vulkan/vulkan.h ] || need+=(libvulkan-dev)
command -v cc >/dev/null || need+=(gcc libc6-dev)
# tests/ncnn/run.sh makes a venv for the ncnn wheel.
python3 -c "import ensurepip, venv" >/dev/null 2>&1 || need+=(python3-venv)
# The registries below come over HTTP with curl (minimal images, e.g. a
# debootstrap --variant=minbase root or a slim container, have none).
command -v curl >/dev/null || need+=(curl)
install_packages() {
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if ! command -v apt-get >/dev/null; then
    echo "install-deps: no apt-get; install these packages by hand: ${need[*]}" >&2
    exit 1
  fi
  echo "install-deps: installing ${need[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
}
if [ ${#need[@]} -eq 0 ]; then
  echo "install-deps: libvulkan1, libvulkan-dev, mesa-vulkan-drivers, vulkan-validationlayers, a C compiler, python3-venv and curl are installed"
else
  install_packages
fi

# The definitional semantics' stage/access tables are re-extracted, by a
# unit test, from the Vulkan registry's vk.xml 1.4.309 and 1.4.363: Debian
# 13's libvulkan-dev ships the first (Debian 12's 1.3.239 predates the
# <sync> tables), Debian forky's the second (from 1.4.327 on <syncsupport
# queues> spells VK_QUEUE_*_BIT). Fetch each file into .cache/registry/
# (the .deb checked by SHA-256).
fetch_registry() { # VERSION DEB SHA256 FILE
  local registry="$here/.cache/registry/$4"
  [ -s "$registry" ] && return 0
  local tmp
  tmp="$(mktemp -d)"
  echo "install-deps: fetching vk.xml $1 (Debian $2)"
  curl -fsSL -o "$tmp/$2" "http://deb.debian.org/debian/pool/main/v/vulkan-loader/$2"
  echo "$3  $tmp/$2" | sha256sum -c --quiet -
  dpkg-deb -x "$tmp/$2" "$tmp/root"
  mkdir -p "$(dirname "$registry")"
  cp "$tmp/root/usr/share/vulkan/registry/vk.xml" "$registry"
  rm -rf "$tmp"
}
fetch_registry 1.4.309 libvulkan-dev_1.4.309.0-1_amd64.deb \
  8d329d465e16168afff58b1bd0dd6db46aac2cc3f56054a481b25a04e90b345a vk.xml
fetch_registry 1.4.363 libvulkan-dev_1.4.363.0-1_amd64.deb \
  518e000aa44620ed45e3c842b81488e019b9794e234746366ece31f01221702c vk-1.4.363.xml
