#!/usr/bin/env bash
# Checking a capture someone sends you: record an application with
# gfxreconstruct, replay the recording under `vksync capture`, and compare
# the trace with the one captured from the application directly
# (docs/capture.md, "Checking a capture someone sends you (gfxreconstruct)").
#
# Applications: the project's runtime (`vksync run --planner per-object
# examples/ncnn-batch-scale.trace`, which has the report's two hazards, and
# `vksync run --planner offline examples/three-layer.trace`), then real ncnn
# (tests/ncnn/networks.py in the venv tests/ncnn/run.sh makes). For each:
#   1. vksync capture -o direct.trace -- APP
#   2. APP with VK_INSTANCE_LAYERS=VK_LAYER_LUNARG_gfxreconstruct -> app.gfxr
#   3. vksync capture -o replayed.trace -- gfxrecon-replay --remove-unsupported app.gfxr
#   4. tests/gfxrecon/compare.py direct.trace replayed.trace (the rules are
#      in its docstring), and `vksync check` of both must say the same
#      (exit status and every line, the file name aside).
#
# Installs Debian's `gfxreconstruct` with apt-get when gfxrecon-replay is
# missing; prints `SKIPPED: reason` and exits 0 only when it cannot be
# installed. The ncnn part is skipped, with a printed reason, only when
# PyPI cannot be reached (as tests/ncnn/run.sh). Exits 1 on a failed
# assertion.
#
# Environment: VKSYNC_NCNN_VENV (default /tmp/vksync-ncnn-venv),
# CARGO_TARGET_DIR (as cargo), VKSYNC_GFXRECON_KEEP=DIR keeps the traces,
# the .gfxr files and the logs in DIR.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
fail() { echo "gfxrecon: FAILED: $*"; exit 1; }

if ! command -v gfxrecon-replay >/dev/null || [ ! -e /usr/share/vulkan/explicit_layer.d/VkLayer_gfxreconstruct.json ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    if ! command -v apt-get >/dev/null; then
        echo "gfxrecon: SKIPPED: gfxreconstruct is not installed and there is no apt-get to install it"
        exit 0
    fi
    echo "gfxrecon: installing Debian's gfxreconstruct"
    if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq gfxreconstruct >/dev/null; }; then
        echo "gfxrecon: SKIPPED: cannot install the gfxreconstruct package (no network, or not in this distribution's archive)"
        exit 0
    fi
fi
echo "gfxrecon: $(dpkg-query -W -f='gfxreconstruct ${Version}' gfxreconstruct 2>/dev/null || gfxrecon-replay --version | head -1)"

cargo build --quiet --release -p vksync-cli -p vksync-capture
vksync="${CARGO_TARGET_DIR:-$root/target}/release/vksync"
compare="$root/tests/gfxrecon/compare.py"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cases=0
# check_app NAME APP...: the four steps above, in $work/NAME.
check_app() {
    local name=$1; shift
    local dir="$work/$name"
    mkdir -p "$dir"
    set +e
    (cd "$dir" && "$vksync" capture -o direct.trace -- "$@") > "$dir/direct.log" 2>&1
    local direct=$?
    (cd "$dir" && VK_INSTANCE_LAYERS=VK_LAYER_LUNARG_gfxreconstruct \
        GFXRECON_CAPTURE_FILE="$dir/app.gfxr" GFXRECON_CAPTURE_FILE_TIMESTAMP=false \
        "$@") > "$dir/record.log" 2>&1
    local record=$?
    (cd "$dir" && "$vksync" capture -o replayed.trace -- gfxrecon-replay --remove-unsupported app.gfxr) \
        > "$dir/replay.log" 2>&1
    local replay=$?
    set -e
    [ -s "$dir/direct.trace" ] || { tail -5 "$dir/direct.log"; fail "$name: no direct trace (vksync capture exit status $direct)"; }
    [ -s "$dir/app.gfxr" ] || { tail -5 "$dir/record.log"; fail "$name: no .gfxr written (exit status $record)"; }
    grep -q 'Recording graphics API capture to' "$dir/record.log" || fail "$name: the gfxreconstruct layer did not load"
    [ -s "$dir/replayed.trace" ] || { tail -5 "$dir/replay.log"; fail "$name: no replayed trace (vksync capture exit status $replay)"; }
    grep -q '`gfxrecon-replay` exited with status 0' "$dir/replay.log" || { tail -5 "$dir/replay.log"; fail "$name: gfxrecon-replay failed"; }
    [ "$direct" = "$replay" ] || fail "$name: vksync capture exit status $direct direct, $replay replayed"
    echo "$name: $(stat -c %s "$dir/app.gfxr") byte .gfxr; $(grep "^# [0-9]* commands, " "$dir/direct.trace" | tail -1 | sed "s/^# //;s/ (see.*//") direct"
    python3 "$compare" "$dir/direct.trace" "$dir/replayed.trace" | sed 's/^/  /' | tee "$dir/compare.log"
    grep -q ': MATCH$' "$dir/compare.log" || fail "$name: the traces differ (above)"
    local cd=0 cr=0
    "$vksync" check "$dir/direct.trace" > "$dir/check-direct.log" 2>&1 || cd=$?
    "$vksync" check "$dir/replayed.trace" > "$dir/check-replayed.log" 2>&1 || cr=$?
    sed -i "s|$dir/direct.trace|TRACE|g" "$dir/check-direct.log"
    sed -i "s|$dir/replayed.trace|TRACE|g" "$dir/check-replayed.log"
    if [ "$cd" != "$cr" ] || ! cmp -s "$dir/check-direct.log" "$dir/check-replayed.log"; then
        diff "$dir/check-direct.log" "$dir/check-replayed.log" | head -20 || true
        fail "$name: vksync check differs (exit status $cd direct, $cr replayed)"
    fi
    echo "  vksync check, both: $(tail -1 "$dir/check-direct.log" | sed 's/^TRACE: //') (exit status $cd)"
    cases=$((cases + 1))
}

check_app per-object "$vksync" run --planner per-object "$root/examples/ncnn-batch-scale.trace"
grep -q '2 hazards (1 write-after-read, 1 write-after-write)' "$work/per-object/check-direct.log" \
    || fail "per-object: the report's two hazards are not in the trace"
check_app offline "$vksync" run --planner offline "$root/examples/three-layer.trace"

# Real ncnn: the venv of tests/ncnn/run.sh.
venv="${VKSYNC_NCNN_VENV:-/tmp/vksync-ncnn-venv}"
version="${VKSYNC_NCNN_VERSION:-1.0.20261020}"
ncnn_note=""
if ! "$venv/bin/python" -c "import ncnn, numpy, sys; sys.exit(ncnn.__version__ != '$version')" 2>/dev/null; then
    python3 -m venv "$venv" && "$venv/bin/pip" install --quiet --disable-pip-version-check --timeout 30 "ncnn==$version" numpy \
        || ncnn_note="ncnn SKIPPED: cannot install ncnn==$version and numpy from PyPI"
fi
if [ -z "$ncnn_note" ]; then
    # --destroy-gpu-instance: without it ncnn destroys its VkInstance from an
    # exit handler, after gfxreconstruct 0.9.18's layer has torn down its
    # state, and the recording process dies (SIGSEGV in the layer's
    # DestroyInstance) leaving an incomplete last block in the .gfxr.
    check_app ncnn "$venv/bin/python" "$root/tests/ncnn/networks.py" --destroy-gpu-instance
    ok=$(grep -c ': OK$' "$work/ncnn/direct.log" || true)
    rec_ok=$(grep -c ': OK$' "$work/ncnn/record.log" || true)
    [ "$ok" = 6 ] && [ "$rec_ok" = 6 ] || fail "ncnn: $ok and $rec_ok of 6 networks match the CPU (direct, recording)"
fi

if [ -n "${VKSYNC_GFXRECON_KEEP:-}" ]; then
    mkdir -p "$VKSYNC_GFXRECON_KEEP" && cp -r "$work"/* "$VKSYNC_GFXRECON_KEEP"/
fi
echo "gfxrecon: OK: $cases applications, replayed traces match the direct captures${ncnn_note:+; $ncnn_note}"
