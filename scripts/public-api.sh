#!/usr/bin/env bash
# The public API of the vksync crate, as listed by scripts/public-api.py from
# rustdoc's JSON output (a nightly-only output format: RUSTC_BOOTSTRAP=1 on
# the stable toolchain, for this listing only), compared with the committed
# model/public-api.txt so that the surface changes only on purpose.
#
#   bash scripts/public-api.sh          # fail (exit 1) with a diff if it changed
#   bash scripts/public-api.sh --bless  # rewrite model/public-api.txt
set -euo pipefail
cd "$(dirname "$0")/.."
RUSTC_BOOTSTRAP=1 cargo rustdoc --quiet -p vksync --all-features -- \
    -Z unstable-options --output-format json 2>/dev/null
json="${CARGO_TARGET_DIR:-target}/doc/vksync.json"
listed=$(mktemp)
trap 'rm -f "$listed"' EXIT
python3 scripts/public-api.py "$json" > "$listed"
if [ "${1:-}" = "--bless" ]; then
    cp "$listed" model/public-api.txt
    echo "public-api: wrote model/public-api.txt ($(wc -l < model/public-api.txt) items)"
    exit 0
fi
if ! diff -u model/public-api.txt "$listed"; then
    echo "public-api: FAILED: the public API of vksync changed (lines above: - removed, + added); if on purpose, run bash scripts/public-api.sh --bless and commit model/public-api.txt"
    exit 1
fi
echo "public-api: OK ($(wc -l < "$listed") items, unchanged)"
