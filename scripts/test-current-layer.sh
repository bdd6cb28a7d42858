#!/usr/bin/env bash
# Runs the workspace's test binaries against a current Vulkan stack in the
# root that scripts/current-layer.sh builds: Debian 13 (trixie: validation
# layer 1.4.309, Mesa 25 lavapipe) or Debian forky (1.4.363, Mesa 26). The
# binaries are the ones `cargo test` built on the host (same profile; glibc
# is older on the host, so they run there unchanged); each runs from its
# package directory, as cargo runs it.
#
#   scripts/test-current-layer.sh [--suite trixie|forky] [ROOT]
#       (default suite: trixie; default root: $VKSYNC_CURRENT_ROOT for
#        trixie, else ~/.cache/vksync/SUITE-root)
#
# Exit status: the number of failing test binaries (0: all passed).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
suite=trixie
if [ "${1:-}" = "--suite" ]; then
  suite=${2:?"--suite needs trixie or forky"}
  shift 2
fi
default_root=$HOME/.cache/vksync/$suite-root
[ "$suite" != trixie ] || default_root=${VKSYNC_CURRENT_ROOT:-$default_root}
root="${1:-$default_root}"
cd "$here"

# Reading cargo's JSON messages takes python3 (not on every fresh machine).
if ! command -v python3 >/dev/null; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "test-current-layer: installing python3"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3 >/dev/null
fi

# The test binaries of the last `cargo test` build, with their packages,
# less those that never load Vulkan: their results in the root are the
# host's, and running them twice more (the exhaustive and differential
# suites) doubled CI's time. A binary never loads Vulkan when it belongs to
# the model crate (`vksync`: pure by design, no I/O, no Vulkan) or is a
# `vksync-proptests` target whose source names neither the runtime
# (`vksync_runtime`) nor a device (`test_device`). VKSYNC_CURRENT_ALL=1 runs
# every binary.
list="$(mktemp)"
trap 'rm -f "$list"' EXIT
cargo test --workspace --no-run --message-format=json 2>/dev/null |
  VKSYNC_CURRENT_ALL="${VKSYNC_CURRENT_ALL:-}" python3 -c '
import json, os, sys
every = os.environ["VKSYNC_CURRENT_ALL"] == "1"
skipped = []
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if not (m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]):
        continue
    name = m["target"]["name"]
    package = os.path.basename(os.path.dirname(m["manifest_path"]))
    pure = package == "model"
    if package == "proptests":
        source = open(m["target"]["src_path"]).read()
        pure = "vksync_runtime" not in source and "test_device" not in source
    if pure and not every:
        skipped.append(name)
        continue
    print(name, m["executable"], m["manifest_path"])
if skipped:
    print("test-current-layer: not run in the root (never load Vulkan):", " ".join(sorted(skipped)), file=sys.stderr)
' >"$list"
echo "test-current-layer: $(wc -l <"$list") test binaries"

# What runs inside the root: each binary from its package directory. Insta
# finds the snapshots through INSTA_WORKSPACE_ROOT (there is no cargo in
# the root) and must not write new ones.
runner="$(mktemp -p "$here/target")"
cat >"$runner" <<'EOF'
set -u
fails=0
while read -r name exe manifest; do
  dir=$(dirname "$manifest")
  out=$(cd "$dir" && INSTA_WORKSPACE_ROOT="$REPO" INSTA_UPDATE=no XDG_RUNTIME_DIR=/tmp "$exe" 2>&1)
  rc=$?
  echo "test-current-layer: $name ($(basename "$dir")): exit $rc, $(echo "$out" | grep -E '^test result' | tail -1)"
  if [ $rc -ne 0 ]; then
    fails=$((fails + 1))
    echo "$out" | tail -40
  fi
done <"$LIST"
echo "test-current-layer: $fails failing test binaries ($SECONDS s in the root)"
exit "$fails"
EOF
status=0
REPO="$here" LIST="$list" bash "$here/scripts/current-layer.sh" --suite "$suite" "$root" -- bash "$runner" || status=$?
rm -f "$runner"
exit "$status"
