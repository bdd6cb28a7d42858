#!/usr/bin/env bash
# Shrinks a trace that vksync finds race-free but the validation layer
# flags, keeping both verdicts: delta debugging over the trace's lines
# (chunks of half, a quarter, ... then single lines, until no line can go).
# A candidate is kept when `vksync check` still passes (a valid trace, no
# hazard, no ownership issue) and `vksync run --as-written
# --submit-validation` still prints a synchronization hazard message that
# vksync does not report.
#
#   tests/layer-queues/minimize.sh VKSYNC_BIN TRACE OUT_TRACE [LAYER_DIR]
#
# LAYER_DIR as in run.sh (another layer and its glibc). Prints each
# accepted step; OUT_TRACE holds the smallest trace so far at every step,
# so a run stopped by a time limit still leaves its best.
set -uo pipefail
bin="$1"; trace="$2"; out="$3"; layer="${4:-}"
here="$(cd "$(dirname "$0")" && pwd)"
run=("$bin")
[ -n "$layer" ] && run=("$here/with-layer.sh" "$layer" "$bin")
tmp="$(mktemp -d)"
mapfile -t lines < "$trace"
keeps() { # $1: candidate file
  "$bin" check "$1" > /dev/null 2>&1 || return 1
  # The whole output first: `grep -q` stops reading at its match, and
  # under pipefail the writer's SIGPIPE would fail the pipeline.
  local said
  said="$(VKSYNC_VALIDATION=1 "${run[@]}" run --as-written --submit-validation "$1" 2>&1)"
  grep -q 'SYNC-HAZARD-[A-Z-]* (Error): not reported by vksync' <<< "$said"
}
printf '%s\n' "${lines[@]}" > "$out"
keeps "$out" || { echo "the input does not show the difference"; exit 2; }
tries=0
chunk=$(( (${#lines[@]} + 1) / 2 ))
while [ "$chunk" -ge 1 ]; do
  changed=0
  i=$(( ${#lines[@]} - chunk ))
  while [ "$i" -ge 0 ]; do
    cand=("${lines[@]:0:i}" "${lines[@]:i+chunk}")
    printf '%s\n' "${cand[@]}" > "$tmp/c.trace"
    tries=$((tries + 1))
    if keeps "$tmp/c.trace"; then
      lines=("${cand[@]}")
      cp "$tmp/c.trace" "$out"
      changed=1
      echo "removed $chunk line(s) at $i: ${#lines[@]} left ($tries tries)"
    fi
    i=$(( i - chunk ))
  done
  if [ "$changed" -eq 0 ] || [ "$chunk" -gt 1 ]; then
    [ "$chunk" -eq 1 ] && break
    chunk=$(( chunk / 2 ))
  fi
done
echo "minimal: ${#lines[@]} lines after $tries tries"
cat "$out"
