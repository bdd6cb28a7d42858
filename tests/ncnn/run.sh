#!/usr/bin/env bash
# Real ncnn under vksync capture and the Khronos validation layer with
# synchronization validation, in one run (docs/capture.md, "Real ncnn").
#
# Creates a venv with the `ncnn` wheel from PyPI (built with Vulkan), runs
# tests/ncnn/networks.py (its own small networks, each checked against
# ncnn's CPU path) under `vksync capture` with both layers enabled, and
# asserts: every network matches the CPU; the trace parses and has
# dispatches; nothing is `not-modelled`, and the layout transitions of
# ncnn's dummy images are recorded; `vksync check` reports the
# hazards documented in docs/capture.md (none); the validation layer ran
# with synchronization validation on and sent no SYNC-HAZARD message.
#
# Prints `SKIPPED: reason` and exits 0 when PyPI cannot be reached; exits 1
# on a failed assertion, and when the wheel sees no Vulkan device.
#
# Environment: VKSYNC_NCNN_VENV (default /tmp/vksync-ncnn-venv, reused when
# it has the version), VKSYNC_NCNN_VERSION (default 1.0.20261020, the one
# documented), CARGO_TARGET_DIR (as cargo), VKSYNC_NCNN_KEEP=DIR keeps the
# trace and the logs in DIR.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
venv="${VKSYNC_NCNN_VENV:-/tmp/vksync-ncnn-venv}"
fail() { echo "ncnn: FAILED: $*"; exit 1; }

# The version whose results docs/capture.md documents.
version="${VKSYNC_NCNN_VERSION:-1.0.20261020}"
if ! "$venv/bin/python" -c "import ncnn, numpy, sys; sys.exit(ncnn.__version__ != '$version')" 2>/dev/null; then
    python3 -m venv "$venv" || { echo "ncnn: SKIPPED: python3 -m venv failed (install python3-venv)"; exit 0; }
    if ! "$venv/bin/pip" install --quiet --disable-pip-version-check --timeout 30 "ncnn==$version" numpy; then
        echo "ncnn: SKIPPED: cannot install ncnn==$version and numpy from PyPI (no network, or no wheel for this platform)"
        exit 0
    fi
fi
gpus=$("$venv/bin/python" -c "import ncnn; print(ncnn.get_gpu_count())" 2>/dev/null | tail -1)
if [ "${gpus:-0}" = 0 ]; then
    # Not a skip: lavapipe is installed wherever this runs (install-deps.sh).
    fail "the ncnn wheel sees no Vulkan device (ncnn.get_gpu_count() = ${gpus:-error})"
fi

cargo build --quiet --release -p vksync-cli -p vksync-capture
vksync="${CARGO_TARGET_DIR:-$root/target}/release/vksync"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Synchronization validation through the layer's settings file (the layer
# 1.3.239 also reads VK_LAYER_ENABLES, but only the file's report_flags
# make it print the status message that proves the setting took).
cat > "$work/vk_layer_settings.txt" <<'SETTINGS'
khronos_validation.enables = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT
khronos_validation.report_flags = error,warn,info
khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG
SETTINGS

set +e
(cd "$work" && VK_LAYER_SETTINGS_PATH="$work/vk_layer_settings.txt" \
    VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation \
    "$vksync" capture -o "$work/ncnn.trace" -- "$venv/bin/python" "$root/tests/ncnn/networks.py") \
    > "$work/capture.log" 2>&1
status=$?
set -e
if [ -n "${VKSYNC_NCNN_KEEP:-}" ]; then
    mkdir -p "$VKSYNC_NCNN_KEEP" && cp "$work"/ncnn.trace "$work"/capture.log "$VKSYNC_NCNN_KEEP"/
fi
grep -v '^\[0 ' "$work/capture.log" | grep -v '^ *$' | sed 's/^/  /' | cut -c1-240 | head -40

trace="$work/ncnn.trace"
[ -s "$trace" ] || fail "no trace written (vksync capture exit status $status)"
grep -q 'Current Enables: VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION' "$work/capture.log" \
    || fail "the validation layer did not report synchronization validation enabled"
networks=$("$venv/bin/python" "$root/tests/ncnn/networks.py" --list | wc -l)
ok=$(grep -c ': OK$' "$work/capture.log" || true)
[ "$ok" = "$networks" ] || fail "$ok of $networks networks match ncnn's CPU path"
"$vksync" check "$trace" > "$work/check.log" 2>&1
check=$?
[ "$check" = 0 ] || { cat "$work/check.log"; fail "vksync check exit status $check (documented: no hazards)"; }
[ "$status" = 0 ] || fail "vksync capture exit status $status"
dispatches=$(grep -c '^dispatch ' "$trace" || true)
[ "$dispatches" -gt 0 ] || fail "no dispatch in the trace"
if grep -q '^not-modelled vkCmdDispatch' "$trace"; then
    grep '^not-modelled vkCmdDispatch' "$trace" | head -5
    fail "dispatches not modelled"
fi
other=$(grep '^not-modelled' "$trace" || true)
[ -z "$other" ] || { echo "$other" | head -5; fail "calls not modelled (documented: none on lavapipe)"; }
# ncnn's dummy images are R32_SFLOAT: declared exactly, their transitions
# name the subresources and layouts (`i0 COLOR:0:0 UNDEFINED->GENERAL`).
grep -Eq '^image i[0-9]+ R32_SFLOAT ' "$trace" || fail "ncnn's images were not declared exactly"
grep -Eq ' i[0-9]+ COLOR:[^ ]+ UNDEFINED->GENERAL  # vkCmdPipelineBarrier ' "$trace" \
    || fail "ncnn's image layout transitions were not recorded"
hazards=$(grep -c 'SYNC-HAZARD' "$work/capture.log" || true)
[ "$hazards" = 0 ] || fail "$hazards SYNC-HAZARD messages from the validation layer (documented: none)"
echo "ncnn: OK: $networks networks match the CPU; $(grep "^# [0-9]* commands, " "$trace" | tail -1 | sed "s/^# //"), $dispatches dispatches; vksync check: no hazards; validation layer (synchronization validation): 0 SYNC-HAZARD messages"
