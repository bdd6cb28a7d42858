#!/usr/bin/env bash
# Checks that scripts/install-deps.sh works from a minimal Debian image (a
# `debootstrap --variant=minbase` root: no curl, no compiler, no Vulkan),
# as a slim container or a fresh cloud image is:
#
#   scripts/test-minimal-setup.sh [--suite trixie|forky|bookworm] [DIR]
#
# Builds the root once (DIR, default ~/.cache/vksync/minimal-SUITE-root; a
# pristine copy is kept as DIR.tar so every run starts from the minimal
# image again), copies the repository's scripts/ into a fresh copy, runs
# install-deps.sh there as root, and checks that
#   - it exits 0 and fetched both registries (.cache/registry/, checked by
#     SHA-256 inside the script);
#   - lavapipe's manifest, the validation layer's manifest, the Vulkan
#     headers, cc, python3's venv and curl are then present;
#   - a second run installs nothing (it finds everything present, whatever
#     Mesa calls lavapipe's manifest).
# Needs root (or sudo) and Debian's archive. Exits 1 on a failed check.
set -euo pipefail
suite=trixie
if [ "${1:-}" = "--suite" ]; then suite=$2; shift 2; fi
root=$(realpath -m "${1:-$HOME/.cache/vksync/minimal-$suite-root}")
here=$(cd "$(dirname "$0")/.." && pwd)
self=$(realpath "${BASH_SOURCE[0]}")
[ "$(id -u)" -eq 0 ] || exec sudo -E bash "$self" --suite "$suite" "$root"
if [ -z "${MINIMAL_SETUP_NS:-}" ]; then
  MINIMAL_SETUP_NS=1 exec unshare --mount --propagation private bash "$self" --suite "$suite" "$root"
fi
die() { echo "minimal-setup: FAILED: $*"; exit 1; }
if [ ! -s "$root.tar" ]; then
  command -v debootstrap >/dev/null || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  } || die "could not install debootstrap"
  script=/usr/share/debootstrap/scripts/$suite
  [ -e "$script" ] || script=/usr/share/debootstrap/scripts/sid
  rm -rf "$root" && mkdir -p "$root"
  echo "minimal-setup: debootstrap --variant=minbase $suite (a few minutes)"
  debootstrap --variant=minbase "$suite" "$root" http://deb.debian.org/debian "$script" > "$root.debootstrap.log" 2>&1 \
    || die "debootstrap failed; see $root.debootstrap.log"
  tar -C "$root" -cf "$root.tar" .
fi
rm -rf "$root" && mkdir -p "$root" && tar -C "$root" -xf "$root.tar"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount --rbind /proc "$root/proc"; mount --rbind /dev "$root/dev"
trap 'umount -lR "$root/proc" "$root/dev" 2>/dev/null || true' EXIT
for tool in curl cc; do
  ! chroot "$root" sh -c "command -v $tool" >/dev/null || die "the minimal root already has $tool: it does not test what it should"
done
mkdir -p "$root/src" && cp -r "$here/scripts" "$root/src/"
# Testing's Release files may carry a Valid-Until the mirror lags behind.
echo 'Acquire::Check-Valid-Until "false";' > "$root/etc/apt/apt.conf.d/99minimal-setup"
echo "minimal-setup: scripts/install-deps.sh in a minimal $suite root"
chroot "$root" bash /src/scripts/install-deps.sh > "$root.first.log" 2>&1 || { tail -20 "$root.first.log"; die "install-deps.sh failed in the minimal root"; }
grep '^install-deps:' "$root.first.log" | sed 's/^/  /'
for f in /src/.cache/registry/vk.xml /src/.cache/registry/vk-1.4.363.xml \
         /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json /usr/include/vulkan/vulkan.h; do
  [ -s "$root$f" ] || die "$f is missing after install-deps.sh"
done
ls "$root"/usr/share/vulkan/icd.d/lvp_icd*.json > /dev/null 2>&1 || die "no lavapipe manifest after install-deps.sh"
chroot "$root" sh -c 'command -v cc && command -v curl && python3 -c "import ensurepip, venv"' > /dev/null || die "cc, curl or python3-venv missing"
chroot "$root" bash /src/scripts/install-deps.sh > "$root.second.log" 2>&1 || die "the second run failed"
grep -q 'are installed' "$root.second.log" && ! grep -q 'installing' "$root.second.log" \
  || { cat "$root.second.log"; die "the second run installed packages again"; }
echo "minimal-setup: OK: $suite minbase root: install-deps.sh installed $(sed -n 's/^install-deps: installing //p' "$root.first.log"), fetched both registries; a second run installs nothing ($(ls "$root"/usr/share/vulkan/icd.d/ | grep lvp))"
