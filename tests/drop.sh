#!/usr/bin/env bash
# Fault injection on a real application (docs/capture.md, "Fault
# injection"): the positive control of issue 23, for any application.
#
#   tests/drop.sh NAME -- COMMAND ARGS...
#
# Captures COMMAND once unchanged and asks `vksync plan --compare
# recorded` which of its pipeline barriers are needed (removing that one
# alone brings a hazard back) and which are redundant. Then captures it
# once per pipeline barrier call N with `vksync capture --drop-barrier N`
# and checks, for each N:
#   - the trace says which call was dropped;
#   - where the application records the same stream every run (ncnn), the
#     capture under fault injection is the unchanged capture minus the
#     dropped barrier's line (commands in order; host writes, host waits
#     and comments aside), and `vksync check` says of it what it says of
#     the unchanged trace with that line deleted; where the stream varies
#     between runs (wgpu's polls), VKSYNC_DROP_EXACT=0 skips this check and
#     says so, and so is it skipped (and said) for a run whose own result
#     checks failed (a drop that changed bytes on a real GPU: the
#     application stops at the first wrong result);
#   - a barrier the comparison calls needed is reported: `vksync check`
#     finds hazards the unchanged run does not have, and the first of them
#     names an application object (`bN`/`iN`/`mN` or its debug name);
#   - a barrier the comparison calls redundant is not: the hazards are
#     those of the unchanged run (the same summary line);
# and prints one row per N: the barrier, the hazards, and how many of the
# application's own result checks passed (lines matching VKSYNC_DROP_OK,
# a grep -E pattern; on lavapipe a missing barrier changes no byte; on the
# H200 it may: that count is the wrong-bytes measure there).
#
# Environment: VKSYNC_BIN (a built `vksync` with its capture layer beside
# it; else the release build of this tree), VKSYNC_DROP_OK (default
# `^ok `), VKSYNC_DROP_N (the barriers to drop, default all),
# VKSYNC_DROP_EXACT (default 1), VKSYNC_DROP_KEEP=DIR keeps the traces.
# Exits 1 on a failed check.
set -euo pipefail
[ $# -ge 3 ] && [ "$2" = "--" ] || { echo "usage: tests/drop.sh NAME -- COMMAND ARGS..." >&2; exit 2; }
name=$1
shift 2
cd "$(dirname "$0")/.."
root=$(pwd)
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
if [ -n "${VKSYNC_BIN:-}" ]; then
    vksync="$VKSYNC_BIN"
else
    cargo build --quiet --release -p vksync-cli -p vksync-capture
    vksync="${CARGO_TARGET_DIR:-$root/target}/release/vksync"
fi
ok="${VKSYNC_DROP_OK:-^ok }"
exact="${VKSYNC_DROP_EXACT:-1}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "$name-drop: FAILED: $*"; failures=$((failures + 1)); }

# The commands of a trace in order, without comments, host writes and host
# waits (their order and number depend on the host's timing),
# fault-injection notes, and a buffer's offset in its memory: wgpu's
# allocator placed one buffer 8 KiB apart between two runs of the same
# program on a loaded machine (`buffer b9 4096 alias m0 538688` against
# `530496`, a clean-clone rehearsal on 2026-12-07); the hazard summaries
# below still compare what a placement changes.
body() { grep -v '^#' "$1" | grep -Ev '^(host-write|host-wait) ' | sed 's/  #.*//' | sed -E 's/^(buffer [^ ]+ [0-9]+ alias [^ ]+) [0-9]+/\1 _/'; }
# `vksync check`'s summary line of a trace, its file name (and the line
# and column of an error: the fault-injection note moves the lines) left
# out. A dropped layout transition makes the program invalid: the error
# is its summary.
summary() { { "$vksync" check "$1" 2>&1 || true; } | tail -1 | sed -E 's/^[^ ]*\.trace(:[0-9]+)*: //'; }
# The hazard lines of `vksync check`, line numbers, file name and fix left
# out: the fix of a host access names what the program lacks, the barrier
# or also the wait, and which host waits a capture holds depends on what
# the application's polls saw (wgpu's `vkWaitSemaphores`): the same race
# is new or not whatever its fix says (a clean-clone run on 2026-12-06
# counted one as new for its fix text alone). Where the stream varies
# between runs (VKSYNC_DROP_EXACT=0) the host's own accesses race or not
# with the host's timing (wgpu's staging writes before its polls see the
# copy done), so only hazards of device commands count there.
hazards() {
    { "$vksync" check "$1" 2>&1 || true; } | { grep 'SYNC-HAZARD' || true; } | sed 's/^[^ ]* //; s/line [0-9]*/line _/g; s/; fix: .*//' \
        | { if [ "$exact" = 1 ]; then cat; else grep -v ': the host ' || true; fi; } | sort
}

run() { # N (0: unchanged) -> $work/N.trace, $work/N.log
    local n=$1 opts=()
    shift
    [ "$n" = 0 ] || opts=(--drop-barrier "$n")
    (cd "$work" && "$vksync" capture "${opts[@]}" -o "$work/$n.trace" -- "$@") > "$work/$n.log" 2>&1 || true
}
app=("$@")
capture() { run "$1" "${app[@]}"; }

capture 0
[ -s "$work/0.trace" ] || { cat "$work/0.log"; fail "no trace of the unchanged run"; exit 1; }
base=$(summary "$work/0.trace")
hazards "$work/0.trace" > "$work/0.hazards"
# The barrier calls in recording order (call sequence numbers; a command
# buffer may be submitted in another order than it was recorded in).
mapfile -t seqs < <(grep -o '# vkCmdPipelineBarrier2\? #[0-9]*' "$work/0.trace" | awk '{print $NF}' | tr -d '#' | sort -n -u)
"$vksync" plan --compare recorded "$work/0.trace" > "$work/0.compare" 2>&1 || true
compare=$(tail -1 "$work/0.compare")
echo "$name-drop: ${#seqs[@]} pipeline barrier calls; unchanged run: $base"
echo "$name-drop: vksync plan --compare recorded: $compare"
case "$compare" in
    *"barriers recorded"*) ;;
    *) fail "plan --compare recorded did not answer: $compare"; exit 1 ;;
esac
# The comparison's verdict per trace line: its rows list the recorded
# barriers in program order (`| barrier ...`, `# redundant` when removing
# that one alone brings no hazard back; a barrier with a layout transition
# is judged on its synchronization, its transition kept, and its kept form
# follows as a numbered line).
grep -E '^ +\| barrier' "$work/0.compare" | awk '{print (/# redundant/ ? "redundant" : "needed")}' > "$work/0.verdicts"
grep -n '^barrier' "$work/0.trace" | cut -d: -f1 > "$work/0.removable"
[ "$(wc -l < "$work/0.removable")" = "$(wc -l < "$work/0.verdicts")" ] \
    || { fail "plan --compare lists $(wc -l < "$work/0.verdicts") recorded barriers, the trace has $(wc -l < "$work/0.removable")"; exit 1; }
paste -d' ' "$work/0.removable" "$work/0.verdicts" > "$work/0.lines"
# verdict SEQ: `needed` when the comparison needs one of the call's lines,
# `redundant` when the call is one line it calls redundant, `redundant-alone`
# when the call is several lines each redundant alone (together they may
# be needed: two barriers of one call can stand in for each other).
verdict() {
    local lines v
    lines=$(grep -n "# vkCmdPipelineBarrier2\? #$1\( \|$\)" "$work/0.trace" | cut -d: -f1)
    # A call with a layout transition: the comparison keeps the transition
    # when it removes the barrier, the fault injection drops it with the
    # call, so the comparison says nothing of the drop.
    if grep "# vkCmdPipelineBarrier2\? #$1\( \|$\)" "$work/0.trace" | sed 's/  #.*//' \
        | grep -oE '[A-Z_]+->[A-Z_]+|transition' | awk -F'->' '$0 == "transition" || $1 != $2 {found=1} END {exit !found}'; then
        echo transitions
        return
    fi
    v=$(for l in $lines; do awk -v l="$l" '$1 == l {print $2}' "$work/0.lines"; done | sort -u)
    case "$v" in
        *needed*) echo needed ;;
        redundant) [ "$(echo "$lines" | wc -w)" = 1 ] && echo redundant || echo redundant-alone ;;
        *) echo transitions ;;
    esac
}
needed=0
redundant=0
together=0
agree=0
ns="${VKSYNC_DROP_N:-$(seq -s ' ' 1 "${#seqs[@]}")}"
for n in $ns; do
    seq=${seqs[$((n - 1))]}
    line=$(grep -n "# vkCmdPipelineBarrier2\? #$seq\( \|$\)" "$work/0.trace" | head -1 | cut -d: -f1)
    verdict=$(verdict "$seq")
    capture "$n"
    t="$work/$n.trace"
    dropped=$(sed -n "s/^# fault injection (VKSYNC_CAPTURE_DROP=barrier:$n): vkCmdPipelineBarrier2\? #\([0-9]*\) dropped.*/\1/p" "$t" | head -1)
    [ -n "$dropped" ] || { fail "barrier $n: the trace does not say a barrier was dropped"; continue; }
    if [ "$dropped" != "$seq" ]; then
        # The application numbered its calls differently in this run: its
        # polls (vkGetSemaphoreCounterValue, vkWaitSemaphores) come as
        # often as the host's timing makes them, which a loaded machine
        # changes (a CI rehearsal saw wgpu `render`'s 21st barrier at call
        # #2208, not #176). With VKSYNC_DROP_EXACT=1 the capture is still
        # compared with the unchanged one line by line below, call numbers
        # and host waits left out, which says the dropped call is this one.
        seq_note=" (call #$dropped in this run)"
    else
        seq_note=""
    fi
    got=$(summary "$t")
    # An application whose own result check failed (a dropped barrier that
    # changed bytes on a real GPU) stops there: its stream is the unchanged
    # one cut short, not comparable line by line.
    stopped=0
    [ "$(grep -Ec "$ok" "$work/$n.log" || true)" -lt "$(grep -Ec "$ok" "$work/0.log" || true)" ] && stopped=1
    if [ "$exact" = 1 ] && [ "$stopped" = 1 ]; then
        echo "$name-drop: barrier $n (#$seq): the application's results differed and it stopped early: not compared line by line"
    elif [ "$exact" = 1 ]; then
        grep -v "# vkCmdPipelineBarrier2\? #$seq\( \|$\)" "$work/0.trace" > "$work/$n.expected.trace"
        if ! diff <(body "$work/$n.expected.trace") <(body "$t") > "$work/$n.diff"; then
            fail "barrier $n (#$seq): the capture is not the unchanged one minus the barrier:"; head -5 "$work/$n.diff"
        fi
        want=$(summary "$work/$n.expected.trace")
        [ "$want" = "$got" ] || fail "barrier $n (#$seq): check says \`$got\`, the unchanged trace minus the barrier \`$want\`"
    fi
    # Hazards of this run that the unchanged run does not have.
    first=$(hazards "$t" | comm -23 - "$work/0.hazards" | head -1)
    if [ "$verdict" = redundant-alone ] || [ "$verdict" = transitions ]; then
        # No verdict of the comparison to hold the capture to; the
        # line-by-line check above still compares it with the trace.
        together=$((together + 1))
    elif [ "$verdict" = needed ]; then
        needed=$((needed + 1))
        if [ -z "$first" ]; then
            fail "barrier $n (#$seq, line $line): plan --compare calls it needed, but dropping it brings no new hazard ($got)"
        else
            agree=$((agree + 1))
            echo "$first" | grep -Eq ' [a-z][A-Za-z0-9_.-]*\[' || fail "barrier $n: the race names no object: $first"
        fi
    else
        redundant=$((redundant + 1))
        if [ -n "$first" ]; then
            fail "barrier $n (#$seq, line $line): plan --compare calls it redundant, but dropping it brings a hazard: $first"
        else
            agree=$((agree + 1))
        fi
    fi
    match=$(grep -Ec "$ok" "$work/$n.log" || true)
    printf '%s-drop: barrier %3d (#%s, %-15s) %-45s | %s | results matching: %s\n' "$name" "$n" "$seq" "$verdict" \
        "$(grep -m1 "# vkCmdPipelineBarrier2\? #$seq\( \|$\)" "$work/0.trace" | sed 's/  #.*//' | cut -c1-45)" "$got$seq_note" "$match"
    [ -z "$first" ] || echo "$name-drop:     $first" | cut -c1-220
done
if [ -n "${VKSYNC_DROP_KEEP:-}" ]; then
    mkdir -p "$VKSYNC_DROP_KEEP" && cp "$work"/*.trace "$work"/*.log "$VKSYNC_DROP_KEEP"/
fi
[ "$exact" = 1 ] || echo "$name-drop: VKSYNC_DROP_EXACT=0: the captures were not compared with the unchanged one line by line (the application's stream varies between runs)"
[ "$failures" = 0 ] || { echo "$name-drop: FAILED: $failures check(s)"; exit 1; }
echo "$name-drop: OK: $((needed + redundant + together)) barrier calls dropped one at a time: $needed needed by plan --compare, each reported as a new race naming an object; $redundant redundant, none brought a hazard; $together of several barriers each redundant alone or of transitions only (checked line by line only)"
