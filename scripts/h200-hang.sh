#!/usr/bin/env bash
# The open hang of docs/testing.md ("An open problem: a planned program
# that hangs on the H200"), one device call: the planned trace of seed
# 100006 and variants of it that change one suspect each, every one run R
# times in a fresh process, with a short fence timeout.
#
#   scripts/h200-hang.sh VKSYNC_BIN OUT_DIR [R]        (default R = 5)
#
# `.vulkan-device` must be in the repository root. Variants (written to
# OUT_DIR, so the record holds what ran):
#   planned     docs/h200/planned-hang-p100006.trace as it is (binary
#               semaphore sem0 signalled and waited three times, between
#               the compute family and the transfer family)
#   timeline    sem0 a timeline semaphore, values 1, 2, 3
#   binary3     one binary semaphore per signal (sem0, sem1, sem2)
#   one-family  queue t on the compute family (model family 0), its
#               ownership transfer dropped (no second family left)
#   ordered     as planned, with `wait t` before c1's wait of sem0: the
#               host knows t's wait of sem0 complete before c1 waits on
#               it (VUID-vkQueueSubmit2-semaphore-03871: no two queues
#               may wait on one binary semaphore at once)
# Writes OUT_DIR/hang.txt (every run's output) and prints one line per
# variant: runs, completed, hung (fence timeout), wrong bytes. Each hung
# run costs about twice the fence timeout (the runtime waits once more
# before it gives up); at most 5 x R x 15 s.
set -uo pipefail
bin="$1"; out="$2"; runs="${3:-5}"
here="$(cd "$(dirname "$0")/.." && pwd)"
src="$here/docs/h200/planned-hang-p100006.trace"
# VKSYNC_DEVICE_ENV: another environment script (/dev/null and
# VKSYNC_DEVICE=llvmpipe try the script on lavapipe, whose shader loops
# stop at 65,535 iterations: wrong bytes there are expected).
source "${VKSYNC_DEVICE_ENV:-$here/.vulkan-device/env.sh}"
export VKSYNC_DEVICE="${VKSYNC_DEVICE:-NVIDIA}" VKSYNC_VALIDATION=1 VKSYNC_FENCE_TIMEOUT_MS=5000
mkdir -p "$out"
cp "$src" "$out/planned.trace"
# Signals and waits of sem0 in trace order get values 1, 2, 3 (each wait
# follows its signal).
awk '/^semaphore sem0$/ { print "semaphore sem0 timeline"; next }
     /signal sem0/ { n++; sub(/signal sem0/, "signal sem0:" n) }
     /wait sem0@/ { m++; sub(/wait sem0@/, "wait sem0:" m "@") }
     { print }' "$src" > "$out/timeline.trace"
awk '/^semaphore sem0$/ { print; print "semaphore sem1"; print "semaphore sem2"; next }
     /signal sem0/ { sub(/signal sem0/, "signal sem" (n + 0)); n++ }
     /wait sem0@/ { sub(/wait sem0@/, "wait sem" (m + 0) "@"); m++ }
     { print }' "$src" > "$out/binary3.trace"
sed -e 's/^queue t family 1$/queue t/' -e 's/ ownership 0->1$//' "$src" > "$out/one-family.trace"
awk '/^submit c1 wait sem0@/ { print "wait t" } { print }' "$src" > "$out/ordered.trace"
for v in planned timeline binary3 one-family ordered; do
  "$bin" check "$out/$v.trace" > "$out/$v.check.txt" 2>&1 ||
    { echo "$v: vksync check refused it:"; cat "$out/$v.check.txt"; }
done
{
  for v in planned timeline binary3 one-family ordered; do
    for k in $(seq 1 "$runs"); do
      s=$(date +%s%N)
      echo "=== $v run $k"
      timeout 30 "$bin" run --as-written "$out/$v.trace" 2>&1 | grep -v '^    '
      echo "exit ${PIPESTATUS[0]} after $(( ($(date +%s%N) - s) / 1000000 )) ms"
    done
  done
} > "$out/hang.txt" 2>&1
for v in planned timeline binary3 one-family ordered; do
  awk -v v="$v" '
    $0 == "=== " v " run " substr($0, length("=== " v " run ") + 1) { in_v = 1; runs++; next }
    /^=== / { in_v = 0 }
    in_v && /did not complete within/ { hung++ }
    in_v && /reference: [0-9]+ mismatching bytes/ {
      done++; match($0, /reference: [0-9]+/); wrong += substr($0, RSTART + 11, RLENGTH - 11)
    }
    END { printf "%-10s runs %d, completed %d, hung %d, wrong bytes %d\n", v, runs, done, hung, wrong }
  ' "$out/hang.txt"
done | tee "$out/summary.txt"
