#!/bin/bash
# Issue 27's scaling table: every class of proptests/src/scale.rs at the
# sizes given (default 10000 100000 1000000), `vksync check` and the
# `vksync plan` runs the class stresses, each with its wall time and peak
# resident memory (GNU time), in Markdown on stdout. Release binaries.
#
#   bash scripts/scale-table.sh [LINES...]        (CLASSES="pool flood" to pick)
#
# Each run has --time-limit (LIMIT seconds, default 600) and --max-memory
# 8G: a run that reaches one shows status 5. VKSYNC_BIN=PATH measures
# another binary (one from before the limits existed: set OLD=1, and
# `timeout LIMIT` stops it instead, status 124).
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ $# -eq 0 ] && sizes=(10000 100000 1000000)
[ -x /usr/bin/time ] || { echo "scale-table: needs GNU time (apt install time)" >&2; exit 2; }
cargo build --release -q -p vksync-cli
cargo build --release -q -p vksync-proptests --example scale_trace
bin=${VKSYNC_BIN:-target/release/vksync}
limit=${LIMIT:-600}
if [ -n "${OLD:-}" ]; then
  limits=(timeout "$limit" "$bin")
else
  limits=("$bin" --time-limit "$limit" --max-memory 8G)
fi
classes=${CLASSES:-"flood pool batches pieces event events-reverse timeline frames ownership buffers"}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export VKSYNC_VALIDATION=0
echo "| class | lines | command | status | time | peak memory |"
echo "| --- | --- | --- | --- | --- | --- |"
for n in "${sizes[@]}"; do
  for c in $classes; do
    f="$dir/$c-$n.trace"
    target/release/examples/scale_trace "$c" "$n" > "$f"
    runs=("check" "plan")
    case $c in
      pool) runs+=("plan --schedule" "plan --async-compute");;
      buffers) runs+=("plan --buffer-barriers");;
    esac
    for r in "${runs[@]}"; do
      set +e
      # shellcheck disable=SC2086
      /usr/bin/time -f "%e %M" -o "$dir/time" "${limits[@]}" $r "$f" > /dev/null 2> "$dir/err"
      st=$?
      set -e
      read -r secs kb < <(tail -1 "$dir/time") || true
      echo "| $c | $(wc -l < "$f") | \`$r\` | $st | ${secs} s | $((kb / 1024)) MB |"
    done
  done
done
