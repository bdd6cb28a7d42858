#!/usr/bin/env bash
# The capture layer's cost on real ncnn, against no layer and against the
# Khronos validation layer with synchronization validation, in one run
# (docs/performance.md, "The capture layer's cost").
#
#   tests/ncnn/overhead.sh [INFERENCES] [ROUNDS]     (defaults 200 and 3)
#
# Runs the `block` network of tests/ncnn/networks.py INFERENCES times per
# process (load and pipeline creation excluded from the timing), in each of
# four configurations (no layer; the capture; the capture finding host
# writes by diffing all mapped memory instead of by page protection, left
# out with VKSYNC_OVERHEAD_DIFF=0; the validation layer), ROUNDS times
# interleaved, and prints the median
# milliseconds per inference of each, the commands per inference the
# capture recorded, and the cost per recorded command of each layer. Needs
# the venv of tests/ncnn/run.sh (VKSYNC_NCNN_VENV, default
# /tmp/vksync-ncnn-venv) and builds vksync and the layer in release.
# VKSYNC_BIN_BEFORE: another vksync with its layer beside it (an older
# build) timed as a fifth configuration in the same rounds, for a
# before/after comparison in one run.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
n="${1:-200}"
rounds="${2:-3}"
venv="${VKSYNC_NCNN_VENV:-/tmp/vksync-ncnn-venv}"
# VKSYNC_NCNN_PYTHON: a Python that imports ncnn (instead of the venv);
# VKSYNC_BIN: a built vksync with the layer beside it (instead of building).
python="${VKSYNC_NCNN_PYTHON:-$venv/bin/python}"
command -v "$python" > /dev/null || { echo "no Python at $python: run tests/ncnn/run.sh first" >&2; exit 2; }
if [ -n "${VKSYNC_BIN:-}" ]; then
    vksync="$VKSYNC_BIN"
else
    cargo build --quiet --release -p vksync-cli -p vksync-capture
    vksync="${CARGO_TARGET_DIR:-$root/target}/release/vksync"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'khronos_validation.enables = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT\n' > "$work/vk_layer_settings.txt"
app=("$python" "$root/tests/ncnn/networks.py" --only block --repeat "$n")
ms() { grep -o '[0-9.]* ms each' | cut -d' ' -f1; }
declare -A times
for r in $(seq "$rounds"); do
    # (`vksync capture` exits 1 when the trace has hazards: the timing
    # stands whatever the check says.)
    times[none]+="$("${app[@]}" 2>/dev/null | ms) "
    times[capture]+="$("$vksync" capture -o "$work/t.trace" -- "${app[@]}" 2>/dev/null | ms || true) "
    if [ -n "${VKSYNC_BIN_BEFORE:-}" ]; then
        times[before]+="$("$VKSYNC_BIN_BEFORE" capture -o "$work/b.trace" -- "${app[@]}" 2>/dev/null | ms || true) "
    fi
    if [ "${VKSYNC_OVERHEAD_DIFF:-1}" != 0 ]; then
        times[diff]+="$(VKSYNC_CAPTURE_HOST_WRITES=diff "$vksync" capture -o "$work/d.trace" -- "${app[@]}" 2>/dev/null | ms || true) "
    fi
    times[validation]+="$(VK_LAYER_SETTINGS_PATH="$work/vk_layer_settings.txt" VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "${app[@]}" 2>/dev/null | ms) "
done
commands=$(sed -n 's/^# \([0-9]*\) commands,.*/\1/p' "$work/t.trace")
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
none=$(echo "${times[none]}" | median)
cap=$(echo "${times[capture]}" | median)
dif=""
[ -z "${times[diff]:-}" ] || dif=$(echo "${times[diff]}" | median)
val=$(echo "${times[validation]}" | median)
bef=""
[ -z "${times[before]:-}" ] || bef=$(echo "${times[before]}" | median)
per=$(awk -v c="$commands" -v n="$n" 'BEGIN {printf "%.1f", c / n}')
echo "ncnn block network, $n inferences per process, $rounds rounds interleaved (medians); $per recorded commands per inference"
printf '%-44s %10s %14s\n' "configuration" "ms/infer." "us/command"
printf '%-44s %10.3f %14s\n' "no layer" "$none" "-"
awk -v t="$cap" -v b="$none" -v p="$per" 'BEGIN {printf "%-44s %10.3f %14.1f\n", "VK_LAYER_VKSYNC_capture (vksync capture)", t, (t - b) * 1000 / p}'
[ -z "$bef" ] || awk -v t="$bef" -v b="$none" -v p="$per" 'BEGIN {printf "%-44s %10.3f %14.1f\n", "  the same, VKSYNC_BIN_BEFORE'"'"'s layer", t, (t - b) * 1000 / p}'
[ -z "$dif" ] || awk -v t="$dif" -v b="$none" -v p="$per" 'BEGIN {printf "%-44s %10.3f %14.1f\n", "  the same, diffing all mapped memory", t, (t - b) * 1000 / p}'
awk -v t="$val" -v b="$none" -v p="$per" 'BEGIN {printf "%-44s %10.3f %14.1f\n", "VK_LAYER_KHRONOS_validation + sync validation", t, (t - b) * 1000 / p}'
