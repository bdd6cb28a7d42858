#!/usr/bin/env bash
# Fault injection on real ncnn (docs/capture.md, "Fault injection"): the
# positive control of issue 23 on a real application. Captures
# tests/ncnn/networks.py once unchanged, then once per pipeline barrier
# call N with `vksync capture --drop-barrier N`, and for each N checks:
#   - the capture under fault injection is the unchanged capture minus the
#     dropped barrier's line (commands compared in order, host writes and
#     comments aside; the dropped call keeps its sequence number);
#   - `vksync check` of it says what `vksync check` says of the unchanged
#     trace with that line deleted (the same summary line): a barrier the
#     model needs is reported as a race, one it does not need is not;
#   - a reported race names the application's objects (`bN`/`mN` or their
#     debug names: ncnn sets none) and the call of the command it races;
# and prints one row per N: the barrier, the hazards, whether ncnn's
# results still matched its CPU path (on lavapipe a missing barrier
# changes no byte; on the H200 it may: this script is what to run there).
#
# Environment: as tests/ncnn/run.sh (VKSYNC_NCNN_VENV, CARGO_TARGET_DIR),
# VKSYNC_NCNN_DROP_ONLY (networks, default conv_relu), VKSYNC_NCNN_DROP_N
# (the barriers to drop, default all), VKSYNC_NCNN_KEEP=DIR keeps the
# traces; on a machine without cargo or PyPI (the H200,
# scripts/h200-apps.sh): VKSYNC_BIN (a built `vksync`, its capture layer
# beside it) and VKSYNC_NCNN_PYTHON (a python that imports ncnn). Prints `SKIPPED: reason` and exits 0 when the ncnn venv is
# missing and cannot be made; exits 1 on a failed check.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
venv="${VKSYNC_NCNN_VENV:-/tmp/vksync-ncnn-venv}"
only="${VKSYNC_NCNN_DROP_ONLY:-conv_relu}"
version="${VKSYNC_NCNN_VERSION:-1.0.20261020}"
py="${VKSYNC_NCNN_PYTHON:-$venv/bin/python}"
if [ -z "${VKSYNC_NCNN_PYTHON:-}" ] && ! "$venv/bin/python" -c "import ncnn, numpy, sys; sys.exit(ncnn.__version__ != '$version')" 2>/dev/null; then
    python3 -m venv "$venv" || { echo "ncnn-drop: SKIPPED: python3 -m venv failed"; exit 0; }
    "$venv/bin/pip" install --quiet --disable-pip-version-check --timeout 30 "ncnn==$version" numpy \
        || { echo "ncnn-drop: SKIPPED: cannot install ncnn==$version from PyPI"; exit 0; }
fi
if [ -n "${VKSYNC_BIN:-}" ]; then
    vksync="$VKSYNC_BIN"
else
    cargo build --quiet --release -p vksync-cli -p vksync-capture
    vksync="${CARGO_TARGET_DIR:-$root/target}/release/vksync"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "ncnn-drop: FAILED: $*"; failures=$((failures + 1)); }

# The commands of a trace in order, without comments, host writes (their
# order within a group is not fixed) and fault-injection notes.
body() { grep -v '^#' "$1" | grep -v '^host-write ' | sed 's/  #.*//'; }
# `vksync check`'s summary line of a trace, its file name left out.
summary() { { "$vksync" check "$1" 2>&1 || true; } | tail -1 | sed 's/^[^:]*: //'; }

run() { # N (0: unchanged) -> $work/N.trace, $work/N.log
    local opts=()
    [ "$1" = 0 ] || opts=(--drop-barrier "$1")
    (cd "$work" && "$vksync" capture "${opts[@]}" -o "$work/$1.trace" -- \
        "$py" "$root/tests/ncnn/networks.py" --only "$only") > "$work/$1.log" 2>&1 || true
}

run 0
[ -s "$work/0.trace" ] || { cat "$work/0.log"; fail "no trace of the unchanged run"; exit 1; }
grep -q 'no hazards' "$work/0.log" || fail "the unchanged run has hazards"
# The barrier calls in recording order: their sequence numbers.
mapfile -t seqs < <(grep -o '# vkCmdPipelineBarrier2\? #[0-9]*' "$work/0.trace" | awk '!seen[$0]++ {print $NF}' | tr -d '#')
echo "ncnn-drop: networks $only: ${#seqs[@]} pipeline barrier calls, $(grep -c '^dispatch ' "$work/0.trace") dispatches"
needed=0
redundant=0
ns="${VKSYNC_NCNN_DROP_N:-$(seq -s ' ' 1 "${#seqs[@]}")}"
for n in $ns; do
    seq=${seqs[$((n - 1))]}
    run "$n"
    t="$work/$n.trace"
    grep -q "^# fault injection (VKSYNC_CAPTURE_DROP=barrier:$n): vkCmdPipelineBarrier2\? #$seq dropped" "$t" \
        || { fail "barrier $n: the trace does not say #$seq was dropped"; continue; }
    # The unchanged trace minus the dropped call's line(s).
    grep -v "# vkCmdPipelineBarrier2\? #$seq\( \|$\)" "$work/0.trace" > "$work/$n.expected.trace"
    if ! diff <(body "$work/$n.expected.trace") <(body "$t") > "$work/$n.diff"; then
        fail "barrier $n (#$seq): the capture is not the unchanged one minus the barrier:"; head -5 "$work/$n.diff"
    fi
    want=$(summary "$work/$n.expected.trace")
    got=$(summary "$t")
    [ "$want" = "$got" ] || fail "barrier $n (#$seq): check says \`$got\`, the unchanged trace minus the barrier \`$want\`"
    first=$({ "$vksync" check "$t" 2>&1 || true; } | grep -m1 'SYNC-HAZARD' | sed 's/^[^ ]* //' || true)
    if [ -n "$first" ]; then
        needed=$((needed + 1))
        echo "$first" | grep -Eq ' [a-z][A-Za-z0-9_.-]*\[[0-9]+\.\.[0-9]+\]' || fail "barrier $n: the race names no object: $first"
    else
        redundant=$((redundant + 1))
    fi
    match=$(grep -c ': OK$' "$work/$n.log" || true)
    printf 'ncnn-drop: barrier %3d (#%s) %-45s | %s | networks matching the CPU: %s\n' "$n" "$seq" \
        "$(grep -m1 "# vkCmdPipelineBarrier2\? #$seq\( \|$\)" "$work/0.trace" | sed 's/  #.*//' | cut -c1-45)" "$got" "$match"
    [ -z "$first" ] || echo "ncnn-drop:     $first" | cut -c1-220
done
if [ -n "${VKSYNC_NCNN_KEEP:-}" ]; then
    mkdir -p "$VKSYNC_NCNN_KEEP" && cp "$work"/*.trace "$work"/*.log "$VKSYNC_NCNN_KEEP"/
fi
[ "$failures" = 0 ] || { echo "ncnn-drop: FAILED: $failures check(s)"; exit 1; }
echo "ncnn-drop: OK: $((needed + redundant)) barriers dropped one at a time: $needed reported as races (needed), $redundant not (redundant); each capture is the unchanged one minus that barrier"
