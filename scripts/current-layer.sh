#!/usr/bin/env bash
# Runs a command against a current Vulkan stack, while Debian 12 hosts have
# the validation layer 1.3.239 and Mesa 22:
#
#   suite    Debian          validation layer   lavapipe
#   trixie   13              1.4.309            Mesa 25
#   forky    14 (testing)    1.4.363            Mesa 26
#
# The root of SUITE is built once in DIR; the command runs in it with the
# repository at its own absolute path, so host-built binaries (glibc 2.36,
# older than either suite's) and their absolute paths work unchanged.
#
#   scripts/current-layer.sh [--suite SUITE] DIR [-- COMMAND ARGS...]
#                            (default suite: trixie; default command: bash)
#
# VKSYNC_LAYER_BINDS: extra host paths, colon-separated, to bind at the same
#   path (e.g. "$CARGO_TARGET_DIR:$HOME/.cargo:$HOME/.rustup" for cargo).
# VKSYNC_LAYER_EXPECT: required layer version prefix (default: the suite's
#   version above; empty to accept whatever the suite has now).
set -euo pipefail

die() { echo "current-layer: $*" >&2; exit 1; }
usage="usage: $0 [--suite trixie|forky] DIR [-- COMMAND ARGS...]"
suite=trixie
if [ "${1:-}" = "--suite" ]; then
  [ $# -ge 2 ] || die "$usage"
  suite=$2; shift 2
fi
# The layer version each suite was established with (docs/testing.md).
case "$suite" in
  trixie) expect_default=1.4.309 ;;
  forky) expect_default=1.4.363 ;;
  *) die "unknown suite '$suite' (trixie or forky)" ;;
esac
if [ $# -lt 1 ] || [ "$1" = "--" ]; then die "$usage"; fi
root=$(realpath -m "$1"); shift
self=$(realpath "${BASH_SOURCE[0]}")
if [ $# -gt 0 ]; then
  [ "$1" = "--" ] || die "expected -- before the command, got '$1'"
  shift
fi
[ $# -gt 0 ] || set -- bash
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
# Mounts and chroot need root; re-run as root, keeping the environment.
[ -z "$sudo" ] || exec sudo -E bash "$self" --suite "$suite" "$root" -- "$@"

# A private mount namespace: our mounts are invisible to the host and to
# concurrent runs, and vanish with us even if the trap never gets to run.
if [ -z "${CURRENT_LAYER_NS:-}" ]; then
  CURRENT_LAYER_NS=1 exec unshare --mount --propagation private bash "$self" --suite "$suite" "$root" -- "$@"
fi

repo=$(git -C "$PWD" rev-parse --show-toplevel 2>/dev/null || echo "$PWD")
mounted=()
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount -R "${mounted[i]}" 2>/dev/null || umount -lR "${mounted[i]}" || true
  done
}
trap cleanup EXIT
bind() { # host path -> same path inside the root
  [ -e "$1" ] || die "cannot bind $1: no such path on the host"
  mkdir -p "$root$1"
  mount --rbind "$1" "$root$1" || die "mounting $1 into $root failed"
  mounted+=("$root$1")
}

packages=(libvulkan1 mesa-vulkan-drivers vulkan-validationlayers libvulkan-dev vulkan-tools)
if [ ! -e "$root/.current-layer-ready" ]; then
  if [ ! -x "$root/usr/bin/apt-get" ]; then
    # A debootstrap that died half-way cannot be resumed; say so rather than guess.
    [ ! -e "$root/debootstrap" ] || die "$root holds an unfinished debootstrap; remove it and run again"
    command -v debootstrap >/dev/null || {
      echo "current-layer: installing debootstrap on the host"
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
    } || die "could not install debootstrap"
    # Debian 12's debootstrap has no script named forky; testing's is sid's.
    script=/usr/share/debootstrap/scripts/$suite
    [ -e "$script" ] || script=/usr/share/debootstrap/scripts/sid
    echo "current-layer: debootstrap $suite into $root (a few minutes)"
    mkdir -p "$(dirname "$root")"  # its log goes beside it
    debootstrap --variant=minbase "$suite" "$root" http://deb.debian.org/debian "$script" >"$root.debootstrap.log" 2>&1 ||
      die "debootstrap failed; see $root.debootstrap.log"
  fi
  cp /etc/resolv.conf "$root/etc/resolv.conf"  # apt inside needs the host's DNS
  bind /proc; bind /dev
  echo "current-layer: installing ${packages[*]}"
  # Testing's Release files carry a Valid-Until a week ahead; a mirror (or
  # clock) that lags behind makes apt refuse them as expired. Signatures are
  # still checked.
  { chroot "$root" apt-get -o Acquire::Check-Valid-Until=false update -qq &&
    DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -qq --no-install-recommends "${packages[@]}"
  } >"$root.apt.log" 2>&1 || die "apt-get in $root failed; see $root.apt.log"
  touch "$root/.current-layer-ready"
fi

manifest=$root/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json
[ -e "$manifest" ] || die "no validation layer manifest in $root"
layer=$(sed -n 's/.*"api_version": *"\([^"]*\)".*/\1/p' "$manifest" | head -n1)
pkgver() { chroot "$root" dpkg-query -W -f "\${Version}" "$1" 2>/dev/null || die "$1 is not installed in $root"; }
vvl=$(pkgver vulkan-validationlayers); mesa=$(pkgver mesa-vulkan-drivers)
echo "current-layer: validation layer $layer (vulkan-validationlayers $vvl), mesa-vulkan-drivers $mesa" >&2
codename=$(sed -n 's/^VERSION_CODENAME=//p' "$root/etc/os-release")
# A root of another suite would silently test another layer.
[ "$codename" = "$suite" ] || die "$root is a $codename root, not $suite"
expect=${VKSYNC_LAYER_EXPECT-$expect_default}
[[ "$layer" == "$expect"* ]] || die "layer is $layer, expected $expect (set VKSYNC_LAYER_EXPECT= to accept it)"

mountpoint -q "$root/proc" || bind /proc
mountpoint -q "$root/dev" || bind /dev
bind /sys; bind /tmp
[[ "$repo" == /tmp/* ]] || bind "$repo"
IFS=: read -ra extra <<<"${VKSYNC_LAYER_BINDS:-}"
for p in "${extra[@]}"; do [ -z "$p" ] || bind "$(realpath "$p")"; done

# The whole environment passes (VK_*, VKSYNC_* included); lavapipe wants a
# runtime dir, and the host's may not exist inside.
export XDG_RUNTIME_DIR=/tmp
# shellcheck disable=SC2016 # expanded by the inner shell
chroot "$root" /bin/sh -c 'cd "$0" && exec "$@"' "$PWD" "$@"
