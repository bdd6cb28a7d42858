#!/usr/bin/env bash
# Installs what vksync needs on Debian or Ubuntu: the Vulkan loader, Mesa's
# lavapipe (a CPU Vulkan device, so no GPU is needed) and the Khronos
# validation layer (synchronization validation). Uses sudo when not root.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"

# The definitional semantics' stage/access tables are re-extracted, by a
# unit test, from the Vulkan registry's vk.xml 1.4.309: Debian 13's
# libvulkan-dev ships it (Debian 12's 1.3.239 predates the <sync> tables).
# Fetch that one file into .cache/registry/ (checked by SHA-256).
registry="$here/.cache/registry/vk.xml"
if [ ! -s "$registry" ]; then
  deb=libvulkan-dev_1.4.309.0-1_amd64.deb
  sha=8d329d465e16168afff58b1bd0dd6db46aac2cc3f56054a481b25a04e90b345a
  tmp="$(mktemp -d)"
  echo "install-deps: fetching vk.xml 1.4.309 (Debian 13 $deb)"
  curl -fsSL -o "$tmp/$deb" "http://deb.debian.org/debian/pool/main/v/vulkan-loader/$deb"
  echo "$sha  $tmp/$deb" | sha256sum -c --quiet -
  dpkg-deb -x "$tmp/$deb" "$tmp/root"
  mkdir -p "$(dirname "$registry")"
  cp "$tmp/root/usr/share/vulkan/registry/vk.xml" "$registry"
  rm -rf "$tmp"
fi

need=()
[ -e /usr/lib/x86_64-linux-gnu/libvulkan.so.1 ] || [ -e /usr/lib/aarch64-linux-gnu/libvulkan.so.1 ] || need+=(libvulkan1)
ls /usr/share/vulkan/icd.d/lvp_icd.*.json >/dev/null 2>&1 || need+=(mesa-vulkan-drivers)
[ -e /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ] || need+=(vulkan-validationlayers)
# tests/capture-apps/run.sh compiles small C applications against the
# Vulkan headers and libvulkan.so (both in libvulkan-dev), with a C compiler.
[ -e /usr/include/vulkan/vulkan.h ] || need+=(libvulkan-dev)
command -v cc >/dev/null || need+=(gcc libc6-dev)
# tests/ncnn/run.sh makes a venv for the ncnn wheel.
python3 -c "import ensurepip, venv" >/dev/null 2>&1 || need+=(python3-venv)
if [ ${#need[@]} -eq 0 ]; then
  echo "install-deps: libvulkan1, libvulkan-dev, mesa-vulkan-drivers, vulkan-validationlayers, a C compiler and python3-venv are installed"
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
