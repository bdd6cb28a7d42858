#!/bin/bash
# Issue 27's scaling table: every class of proptests/src/scale.rs at the
# sizes given (default 10000 100000 1000000), `vksync check` and the
# `vksync plan` runs the class stresses, each with its wall time and peak
# resident memory (GNU time), in Markdown on stdout. Release binaries.
#
#   bash scripts/scale-table.sh [LINES...]        (CLASSES="pool flood" to pick)
#
# Each run has --time-limit 600 and --max-memory 8G: a run that reaches one
# shows status 5 in the table instead of its time.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ $# -eq 0 ] && sizes=(10000 100000 1000000)
[ -x /usr/bin/time ] || { echo "scale-table: needs GNU time (apt install time)" >&2; exit 2; }
cargo build --release -q -p vksync-cli
cargo build --release -q -p vksync-proptests --example scale_trace
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
      /usr/bin/time -f "%e %M" -o "$dir/time" target/release/vksync --time-limit 600 --max-memory 8G $r "$f" > /dev/null 2> "$dir/err"
      st=$?
      set -e
      read -r secs kb < "$dir/time" || true
      echo "| $c | $(wc -l < "$f") | \`$r\` | $st | ${secs} s | $((kb / 1024)) MB |"
    done
  done
done
