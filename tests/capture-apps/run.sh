#!/usr/bin/env bash
# Small C applications under `vksync capture` (docs/capture.md, "Ordinary
# applications"): each built twice, linked with -lvulkan and loading
# libvulkan.so.1 with dlopen (tests/capture-apps/vk.h), each run plain and
# then under `vksync capture` with a time limit, so that a hang fails
# instead of blocking CI.
#
# One table (the `run_case` lines at the end), one helper: a case names the
# application and its argument, the exit status `vksync capture` must end
# with (and the one the plain run must end with), and checks on the
# trace and on the capture's output:
#   trace:RE     a line of the trace matches the extended regex RE
#   no-trace:RE  no line of the trace matches RE
#   count:N:RE   exactly N lines of the trace match RE
#   out:RE       a line of vksync capture's output (stdout and stderr)
#   no-out:RE    no line of that output matches RE
#   show:RE      prints the lines matching RE of the plain run's output and
#                of the capture's (timings, for docs/capture.md)
# and, once: the layer library exports only
# vkNegotiateLoaderLayerInterfaceVersion, and under LD_DEBUG=bindings none
# of its references binds to libvulkan.so.1 (issue 27's hang).
#
# CAPTURE_OPTS, set for one run_case, are options of `vksync capture`
# (fault injection: `--drop-barrier N`, `--drop-wait N`).
#
# Exits 1 on a failed check, a time-out or a wrong status; needs a C
# compiler and the Vulkan headers (scripts/install-deps.sh installs
# libvulkan-dev) and a Vulkan device (lavapipe).
#
# Environment: VKSYNC_CAPTURE_APPS_TIMEOUT (seconds per run, default 60),
# VKSYNC_BIN (a vksync binary with libvksync_capture.so beside it; default:
# build the release one), CARGO_TARGET_DIR (as cargo),
# VKSYNC_CAPTURE_APPS_KEEP=DIR keeps the traces and logs in DIR,
# VKSYNC_CAPTURE_APPS_ONLY=RE runs only the cases whose name matches the
# extended regex RE (the symbol checks still run),
# VKSYNC_CAPTURE_APPS_BUILT=DIR takes the applications built in DIR
# (APP-linked, APP-dlopen) instead of compiling them and leaves out the
# symbol checks: for a root with no compiler or binutils, as
# tests/capture-apps/run-current.sh runs it.
#
# An application that exits with status 3 and prints `unsupported:` lacks
# a device feature (descriptor indexing on Debian 12's lavapipe): its
# cases are not run here, are counted and named at the end as run
# elsewhere (run-current.sh runs them in the Debian 13 root, and CI runs
# that), and fail wherever VKSYNC_CAPTURE_APPS_BUILT is set.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
limit="${VKSYNC_CAPTURE_APPS_TIMEOUT:-60}"
src="$root/tests/capture-apps"

if [ -n "${VKSYNC_BIN:-}" ]; then
    vksync="$VKSYNC_BIN"
else
    cargo build --quiet --release -p vksync-cli -p vksync-capture
    vksync="${CARGO_TARGET_DIR:-$root/target}/release/vksync"
fi
layer="$(dirname "$vksync")/libvksync_capture.so"
[ -f "$layer" ] || { echo "capture-apps: FAILED: no layer library at $layer"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passed=0
elsewhere=()
fail() { echo "capture-apps: FAILED: $*"; failures=$((failures + 1)); }

# Both builds of every application.
if [ -n "${VKSYNC_CAPTURE_APPS_BUILT:-}" ]; then
    cp "$VKSYNC_CAPTURE_APPS_BUILT"/*-linked "$VKSYNC_CAPTURE_APPS_BUILT"/*-dlopen "$work"/
else
    for c in "$src"/*.c; do
        app=$(basename "$c" .c)
        cc -O1 -Wall -Werror -o "$work/$app-linked" "$c" -lvulkan -lpthread
        cc -O1 -Wall -Werror -DVKS_DLOPEN -o "$work/$app-dlopen" "$c" -ldl -lpthread
    done
fi

# The root cause of the hang, checked on the library itself.
if [ -z "${VKSYNC_CAPTURE_APPS_BUILT:-}" ]; then
exported=$(nm -D --defined-only "$layer" | awk '$3 ~ /^vk/ {print $3}' | sort | tr '\n' ' ')
[ "$exported" = "vkNegotiateLoaderLayerInterfaceVersion " ] \
    || fail "the layer exports Vulkan names other than the negotiation: $exported"
mkdir -p "$work/bindings"
LD_DEBUG=bindings LD_DEBUG_OUTPUT="$work/bindings/b" timeout "$limit" \
    "$vksync" capture -o "$work/bindings.trace" -- "$work/min-linked" > "$work/bindings.log" 2>&1 || true
grep -hq 'libvksync_capture.so .*normal symbol `vkNegotiateLoaderLayerInterfaceVersion' "$work"/bindings/b.* \
    || fail "LD_DEBUG=bindings: the layer was not loaded into min-linked"
wrong=$(grep -h 'binding file [^ ]*libvksync_capture.so .* to [^ ]*libvulkan.so' "$work"/bindings/b.* || true)
[ -z "$wrong" ] || fail "LD_DEBUG=bindings: the layer's references bind to the loader: $wrong"
fi

# run_case NAME APP ARG CAPTURE_STATUS PLAIN_STATUS CHECK...: both builds.
run_case() {
    local name=$1 app=$2 arg=$3 want=$4 plain_want=$5
    shift 5
    [[ "$name" =~ ${VKSYNC_CAPTURE_APPS_ONLY:-.} ]] || return 0
    local build
    for build in linked dlopen; do
        local exe="$work/$app-$build" tag="$name ($build)" t="$work/$name-$build.trace"
        local log="$work/$name-$build.log" st=0 plain=0 ok=1
        # shellcheck disable=SC2086
        timeout "$limit" "$exe" $arg > "$log.plain" 2>&1 || plain=$?
        if [ "$plain" = 3 ] && [ -z "${VKSYNC_CAPTURE_APPS_BUILT:-}" ] && grep -q 'unsupported:' "$log.plain"; then
            echo "capture-apps: elsewhere $tag: $(grep -m1 'unsupported:' "$log.plain")"
            elsewhere+=("$tag")
            continue
        fi
        if [ "$plain" != "$plain_want" ]; then
            fail "$tag: the plain run exited with status $plain, not $plain_want"; cat "$log.plain"; continue
        fi
        local t0 t1
        t0=$(date +%s%N)
        # shellcheck disable=SC2086
        timeout "$limit" "$vksync" capture ${CAPTURE_OPTS:-} -o "$t" -- "$exe" $arg > "$log" 2>&1 || st=$?
        t1=$(date +%s%N)
        if [ "$st" = 124 ] || [ "$st" = 137 ]; then
            fail "$tag: timed out after $limit s under vksync capture (a hang)"; sed 's/^/  /' "$log" | head -20; continue
        fi
        [ "$st" = "$want" ] || { fail "$tag: vksync capture exited with status $st, not $want"; ok=0; }
        touch "$t"
        local check re n got
        for check in "$@"; do
            case "$check" in
            trace:*) re=${check#trace:}; grep -Eq -- "$re" "$t" || { fail "$tag: no trace line matches /$re/"; ok=0; } ;;
            no-trace:*) re=${check#no-trace:}; if grep -Eq -- "$re" "$t"; then fail "$tag: $(grep -Ec -- "$re" "$t") trace line(s) match /$re/, e.g. $(grep -Em1 -- "$re" "$t")"; ok=0; fi ;;
            count:*) n=${check#count:}; re=${n#*:}; n=${n%%:*}; got=$(grep -Ec -- "$re" "$t" || true)
                [ "$got" = "$n" ] || { fail "$tag: $got trace lines match /$re/, not $n"; ok=0; } ;;
            out:*) re=${check#out:}; grep -Eq -- "$re" "$log" || { fail "$tag: no output line matches /$re/"; ok=0; } ;;
            no-out:*) re=${check#no-out:}; if grep -Eq -- "$re" "$log"; then fail "$tag: output matches /$re/: $(grep -Em1 -- "$re" "$log")"; ok=0; fi ;;
            show:*) re=${check#show:}; echo "capture-apps:   $tag plain:   $(grep -Em1 -- "$re" "$log.plain" || true)"
                echo "capture-apps:   $tag capture: $(grep -Em1 -- "$re" "$log" || true)" ;;
            *) fail "$tag: unknown check $check"; ok=0 ;;
            esac
        done
        if [ "$ok" = 1 ]; then
            passed=$((passed + 1))
            printf 'capture-apps: ok %-28s status %-3s %5d ms under capture, %s trace lines\n' \
                "$tag" "$st" "$(((t1 - t0) / 1000000))" "$(wc -l < "$t")"
        else
            sed 's/^/  | /' "$log" | head -30
        fi
    done
}

summary='^# [0-9]+ commands, [0-9]+ submissions, 0 calls not modelled'
# (a) Issue 27's minimal application: it used to hang when linked.
run_case min min "" 2 0 \
    'out:exited with status 0$' 'out:no trace written'
# (b) No vkDestroyDevice: the wait and the host read are still there.
run_case no-destroy no-destroy "" 0 0 \
    'out:4096 bytes read back, all 42' 'out:no hazards' \
    'trace:^fill b0\[0\.\.4096\] ' 'trace:^barrier ALL_TRANSFER:TRANSFER_WRITE -> HOST:HOST_READ b0\[0\.\.4096\]' \
    'trace:^submit  # vkQueueSubmit' 'trace:^wait  # vkWaitForFences' \
    'trace:^# the application exited without vkDestroyDevice' 'trace:^host-read b0\[0\.\.4096\]' \
    "trace:$summary" 'no-trace:unfinished'
# (b) ... and a forked child calling exit() does not finish the parent's
# trace (one summary line, after the parent's wait).
run_case fork fork "" 0 0 \
    'out:the child exited 0; 4096 bytes read back' 'out:no hazards' \
    'trace:^wait  # vkWaitForFences' 'count:1:^# the application exited without vkDestroyDevice' \
    "count:1:$summary" 'no-trace:unfinished'
# (c) The application's own SIGSEGV handler, installed at three points.
for when in before after after-map; do
    extra=()
    [ "$when" = after-map ] && extra=('trace:^# the application replaced the SIGSEGV handler' 'out:page guard steps aside')
    run_case "segv-$when" segv "$when" 0 0 \
        "out:segv \\($when\\): 2 trap faults handled" 'out:no hazards' \
        'trace:^host-write b0\[0\.\.32768\] ' 'trace:^wait  # vkWaitForFences' 'trace:^host-read b0\[0\.\.65536\]' \
        "trace:$summary" "${extra[@]}"
done
# (c) ... and dying through it: vksync capture reports status 77 and an
# unfinished trace.
run_case segv-die segv die 77 77 \
    'out:exited with status 77$' 'out:is unfinished' 'out:exit status 77, the application' \
    'trace:^submit  # vkQueueSubmit' 'trace:^# unfinished: the command exited with status 77'
# (d) Threads waiting while another submits (vkDeviceWaitIdle and
# vkQueueWaitIdle: invalid usage that happens; each thread's own fence:
# valid): no host write (the host never writes the buffer), no hazard (each
# thread's next fill is ordered after its wait), every wait written (a
# `wait`, or a `host-wait` on the marker before the submission that came
# during or after what it waited for), one trace line per application
# submission and no comment saying a wait was left out.
for wait in "device 2" "queue 2" "fence 4"; do
    read -r how threads <<< "$wait"
    run_case "wait-idle-$how-$threads" wait-idle "$wait" 0 0 \
        "out:wait-idle \\($how\\): $threads threads x 150 rounds, bytes read back" 'out:no hazards' \
        'no-trace:^host-write' "count:$((threads * 150)):^submit  # vkQueueSubmit #" \
        'no-trace:waits for part of the submitted work' "trace:$summary"
done
# (f) A frame loop synchronized only by a timeline semaphore (issue 23):
# each of the 100 frames has its upload's host-write, one host-wait (polls
# that prove nothing new write none) and its host read; no hazard. Without
# the barrier to HOST, the host reads race with the copy.
for how in wait poll any; do
    run_case "timeline-$how" timeline "$how" 0 0 \
        "out:timeline \\($how\\): 100 frames read back" 'out:no hazards' \
        'count:100:^host-write b0\[' 'count:100:^host-wait s0 ' 'count:100:^host-read b0\[' \
        'count:100:^submit signal s0:' 'no-trace:^not-modelled' "trace:$summary"
done
run_case timeline-no-host-barrier timeline "wait no-host-barrier" 1 0 \
    'out:SYNC-HAZARD-READ-AFTER-WRITE: the host reads b0\[' 'count:100:^host-read b0\[' \
    'count:100:^host-wait s0 ' "trace:$summary"
# (e) A thread writing a mapped buffer while the main thread submits 200
# times: one host-write line per submission (the spans of the buffer
# merged: no device access touches it), no hazard.
run_case host-writer host-writer 200 0 0 \
    'out:200 submissions in' 'out:no hazards' 'count:200:^host-write b0\[' 'count:200:^submit ' \
    "trace:$summary" 'show:submissions in' 'show:CPU time'

# (g) Fault injection's positive control (docs/capture.md, "Fault
# injection"): drop.c records three barriers. Unchanged, no hazard; with
# the needed barrier 1 (fill -> copy) dropped, the copy's read of src
# races with the fill; with the redundant barrier 2 (on spare, which
# nothing touches) dropped, still no hazard; with the needed barrier 3
# (copy -> HOST) dropped, the host's read of dst races with the copy. The
# trace says what was dropped, and has the other two barriers. dst and
# spare are named after they are bound: the finished trace (and so the
# race) uses their names all the same.
run_case drop-none drop "" 0 0 \
    'out:no hazards' 'count:3:^barrier ' 'no-trace:fault injection' "trace:$summary" \
    'trace:^buffer src 4096 alias m0 0' 'trace:^buffer dst 4096 alias m1 0' \
    'trace:^# src is VkBuffer 0x[0-9a-f]+, named `src` by the application' \
    'trace:^# rename b0 -> dst \(named `dst` by the application at vkSetDebugUtilsObjectNameEXT #[0-9]+, after it was declared; `vksync capture` renames it throughout\)$' \
    'trace:^# rename b1 -> spare \(named `spare`' 'trace:^buffer spare 4096 alias m2 0' 'no-trace:^[^#]*b[01]\b' \
    'trace:^# label `upload` begins \(vkCmdBeginDebugUtilsLabelEXT #[0-9]+ in cb0\)' \
    'trace:^copy src\[0\.\.4096\] -> dst\[0\.\.4096\]  # vkCmdCopyBuffer #[0-9]+ in cb0, label upload$' \
    'trace:^# label `upload` ends'
CAPTURE_OPTS="--drop-barrier 1" run_case drop-1 drop "" 1 0 \
    'out:drop: [0-9]+ of 4096 bytes of dst wrong' \
    'out:SYNC-HAZARD-READ-AFTER-WRITE: vkCmdCopyBuffer reads src\[0\.\.4096\].*written at line [0-9]+ by vkCmdFillBuffer' \
    'out:1 hazard' 'count:2:^barrier ' 'out:dropped pipeline barrier 1 \(vkCmdPipelineBarrier #' \
    'trace:^# fault injection \(VKSYNC_CAPTURE_DROP=barrier:1\): vkCmdPipelineBarrier #[0-9]+ dropped'
CAPTURE_OPTS="--drop-barrier 2" run_case drop-2 drop "" 0 0 \
    'out:no hazards' 'count:2:^barrier ' 'no-trace:^barrier .*spare\[' \
    'trace:^# fault injection \(VKSYNC_CAPTURE_DROP=barrier:2\): vkCmdPipelineBarrier #[0-9]+ dropped'
CAPTURE_OPTS="--drop-barrier 3" run_case drop-3 drop "" 1 0 \
    'out:SYNC-HAZARD-READ-AFTER-WRITE: the host reads dst\[0\.\.4096\]' \
    'out:1 hazard' 'count:2:^barrier ' \
    'trace:^# fault injection \(VKSYNC_CAPTURE_DROP=barrier:3\)'
CAPTURE_OPTS="--drop-barrier 4" run_case drop-4 drop "" 0 0 \
    'out:no hazards' 'count:3:^barrier ' \
    'out:--drop-barrier 4: no trace says a barrier was dropped'

# (g) ... and of a semaphore wait (VKSYNC_CAPTURE_DROP=wait:N): semwait.c's
# only dependency between a fill and a copy in two submissions is a binary
# semaphore; dropped, the copy's read races with the fill.
run_case semwait-none semwait "" 0 0 'out:no hazards' 'trace:^submit wait s0@ALL_TRANSFER' "trace:$summary"
CAPTURE_OPTS="--drop-wait 1" run_case semwait-drop-1 semwait "" 1 0 \
    'out:semwait: [0-9]+ of 4096 bytes of dst wrong' \
    'out:SYNC-HAZARD-READ-AFTER-WRITE: vkCmdCopyBuffer reads src\[0\.\.4096\].*by vkCmdFillBuffer' 'out:1 hazard' \
    'no-trace:^submit wait' \
    'trace:^# fault injection \(VKSYNC_CAPTURE_DROP=wait:1\): semaphore wait 0 of batch 0 of the next vkQueueSubmit dropped'
CAPTURE_OPTS="--drop-wait 2" run_case semwait-drop-2 semwait "" 0 0 \
    'out:no hazards' 'out:--drop-wait 2: no trace says a semaphore wait was dropped'

# (h) Which host reads are assumed (docs/capture.md, "Host reads"): of
# mapped results after a wait (result, out), of memory mapped only after
# the wait (late-map), at vkInvalidateMappedMemoryRanges (invalidated);
# none of memory never mapped (never-mapped) nor of a result the device
# consumes next (intermediate, which has no barrier to HOST: an assumed
# read there would be a false hazard). The timestamps' copy
# (vkCmdCopyQueryPoolResults) is a `copy` from the pool's results object
# `qp0` into `queries`, and the values arrive.
run_case host-reads host-reads "" 0 0 \
    'out:host-reads: result, out, invalidated, late-map read back; timestamps in order' 'out:no hazards' \
    'count:1:^host-read result\[0\.\.4096\]  # host read assumed after the last wait' \
    'count:1:^host-read out\[0\.\.4096\]' 'count:1:^host-read late-map\[0\.\.4096\]' \
    'count:1:^host-read invalidated\[0\.\.4096\]  # host read assumed at vkInvalidateMappedMemoryRanges #[0-9]+' \
    'no-trace:^host-read never-mapped' 'no-trace:^host-read intermediate' \
    'trace:^buffer qp0 32$' \
    'count:1:^copy qp0\[0\.\.16\] -> queries\[0\.\.16\]  # vkCmdCopyQueryPoolResults #[0-9]+ in cb1$' \
    'no-trace:^not-modelled' "trace:$summary"
# ... and the late and invalidated reads are checked: without the barrier
# to HOST of late-map (barrier 2) or of invalidated (barrier 3), the host's
# read races with the fill.
CAPTURE_OPTS="--drop-barrier 2" run_case host-reads-drop-2 host-reads "" 1 0 \
    'out:SYNC-HAZARD-READ-AFTER-WRITE: the host reads late-map\[0\.\.4096\]' 'out:1 hazard'
CAPTURE_OPTS="--drop-barrier 3" run_case host-reads-drop-3 host-reads "" 1 0 \
    'out:SYNC-HAZARD-READ-AFTER-WRITE: the host reads invalidated\[0\.\.4096\]' 'out:1 hazard'
# ... and without the barrier to HOST after the timestamps' copy (barrier
# 6), the host's read of `queries` races with it (a race the capture missed
# while the copy was `not-modelled`).
CAPTURE_OPTS="--drop-barrier 6" run_case host-reads-drop-6 host-reads "" 1 0 \
    'out:SYNC-HAZARD-READ-AFTER-WRITE: the host reads queries\[0\.\.16\] \(HOST:HOST_READ\), previously written at line [0-9]+ by vkCmdCopyQueryPoolResults' 'out:1 hazard'

# (i) A storage image (issue 23): declared exactly, its layout transition,
# the dispatch's image binding, the same-layout barrier that orders the
# dispatch before the copy, the exact copy to a buffer, no hazard, nothing
# not modelled. With barrier 2 (dispatch -> copy, GENERAL -> GENERAL)
# dropped, the copy's read races with the dispatch's write, named by the
# image and its subresource.
run_case storage-image storage-image "" 0 0 \
    'out:storage-image: 256 texels read back, 0 wrong' 'out:no hazards' \
    'trace:^image i0 R32_UINT 16x16 exclusive alias m0 0$' \
    'trace:^barrier TOP_OF_PIPE:NONE -> COMPUTE_SHADER:SHADER_WRITE i0 COLOR:0:0 UNDEFINED->GENERAL  # vkCmdPipelineBarrier' \
    'trace:^dispatch s0_main image-write i0 COLOR:0:0  # vkCmdDispatch' \
    'trace:^barrier COMPUTE_SHADER:SHADER_WRITE -> ALL_TRANSFER:TRANSFER_READ i0 COLOR:0:0 GENERAL->GENERAL  # ' \
    'trace:^copy-image-to-buffer i0 GENERAL -> b0 bufferOffset=0 bufferRowLength=0 bufferImageHeight=0 imageSubresource=COLOR:0:0 imageOffset=0,0,0 imageExtent=16,16,1  # vkCmdCopyImageToBuffer' \
    'no-trace:^not-modelled' "trace:$summary"
# ... the same image descriptor written through an update template, pushed,
# and pushed through a template, with the KHR calls and with the `2` forms
# of VK_KHR_maintenance6 (pushes, and the set bound with
# vkCmdBindDescriptorSets2KHR; Mesa 25's lavapipe and later: run elsewhere
# on Debian 12): kept the same way (issue 23), so the same dispatch line
# and nothing not modelled.
for how in template push push-template push2 push-template2 set2; do
    run_case "storage-image-$how" storage-image "$how" 0 0 \
        'out:storage-image: 256 texels read back, 0 wrong' 'out:no hazards' \
        'trace:^dispatch s0_main image-write i0 COLOR:0:0  # vkCmdDispatch' \
        'no-trace:^not-modelled' "trace:$summary"
done
CAPTURE_OPTS="--drop-barrier 2" run_case storage-image-drop-2 storage-image "" 1 0 \
    'out:SYNC-HAZARD-READ-AFTER-WRITE: vkCmdCopyImageToBuffer reads i0\[COLOR:0:0\] \(COPY:TRANSFER_READ\), previously written at line [0-9]+ by vkCmdDispatch \(COMPUTE_SHADER:SHADER_STORAGE_WRITE\)' \
    'out:1 hazard \(1 read-after-write\)'

# (i2) A linear image the host writes through its mapping (linear-image.c):
# the capture asks the driver for its row pitch (vkGetImageSubresourceLayout;
# the 5-byte rows of R8_UNORM 5x4 are 64 bytes apart on lavapipe, 32 on
# NVIDIA's H100) and declares it (`rowPitch=64`), so a host write of row 1
# while the copy that reads it is pending races on exactly row 1's bytes
# (m0[64..69] on lavapipe), and one of the padding after row 0 races
# nothing. With rows packed tightly the model put row 1 at bytes 5..10: the
# race was missed and the padding write was a false alarm. The expected
# pitch is what the application itself prints in a plain run.
pitch=
if [ -x "$work/linear-image-linked" ]; then
    pitch=$(timeout "$limit" "$work/linear-image-linked" wait 2>/dev/null | sed -n 's/.*rowPitch \([0-9]*\), .*/\1/p' || true)
fi
pitch=${pitch:-unknown}
row1="m0\[$pitch\.\.$((${pitch/unknown/0} + 5))\]"
run_case linear-image linear-image wait 0 0 \
    "out:linear-image \(wait\): rowPitch $pitch, offset 0, 20 texels read back, 0 wrong" 'out:no hazards' \
    "trace:^image i0 R8_UNORM 5x4 linear rowPitch=$pitch exclusive initial PREINITIALIZED alias m0 0\$" \
    'no-trace:^not-modelled' "trace:$summary"
run_case linear-image-race linear-image race 1 0 \
    "out:SYNC-HAZARD-WRITE-AFTER-READ: the host writes $row1 \(HOST:HOST_WRITE\), previously read at line [0-9]+ by vkCmdCopyImageToBuffer" \
    'out:1 hazard \(1 write-after-read\)'
run_case linear-image-pad linear-image pad 0 0 \
    "trace:^host-write m0\[5\.\.$pitch\]" 'out:no hazards'

# (j) The graphics pipeline (draw.c): a dispatch writes a vertex buffer, an
# indexed draw reads it into a color and a depth image, the color image is
# copied to a buffer. Dynamic rendering: the attachments' transitions, the
# rendering instance and the draw with its state, no hazard, nothing not
# modelled; with barrier 1 (dispatch -> vertex input) dropped, the draw's
# vertex read races with the dispatch's write, named by the buffer.
run_case draw draw dynamic 0 0 \
    'out:draw \(dynamic\): 256 pixels read back, 0 not red' 'out:no hazards' \
    'trace:^image i0 R8G8B8A8_UNORM 16x16 exclusive alias m0 0$' 'trace:^image i1 D32_SFLOAT 16x16 exclusive alias m1 0$' \
    'trace:^barrier COMPUTE_SHADER:SHADER_WRITE -> VERTEX_INPUT:VERTEX_ATTRIBUTE_READ b0\[0\.\.48\]  # vkCmdPipelineBarrier' \
    'trace:^begin-rendering color i0 COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE ; depth i1 DEPTH:0:0 DEPTH_ATTACHMENT_OPTIMAL CLEAR DONT_CARE  # vkCmdBeginRendering' \
    'trace:^draw-indexed indexCount=3 instanceCount=1 firstIndex=0 firstInstance=0 vertex b[0-9]+ 0 16 index b[0-9]+ 0 u16 depth-test depth-write  # vkCmdDrawIndexed' \
    'trace:^end-rendering  # vkCmdEndRendering' \
    'no-trace:^not-modelled' "trace:$summary"
CAPTURE_OPTS="--drop-barrier 1" run_case draw-drop-1 draw dynamic 1 0 \
    'out:SYNC-HAZARD-READ-AFTER-WRITE: vkCmdDrawIndexed reads b[0-9]+\[0\.\.48\] \(VERTEX_ATTRIBUTE_INPUT:VERTEX_ATTRIBUTE_READ\), previously written at line [0-9]+ by vkCmdDispatch' \
    'out:1 hazard \(1 read-after-write\)'
# ... and suspended at the end of a first command buffer, resumed at the
# start of a second of the same batch: the flags on both begins, no hazard
# (one instance: no store at the suspension, no load at the resumption),
# nothing not modelled.
run_case draw-suspend draw suspend 0 0 \
    'out:draw \(suspend\): 256 pixels read back, 0 not red' 'out:no hazards' \
    'trace:^begin-rendering suspending color i0 COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE ; depth i1 DEPTH:0:0 DEPTH_ATTACHMENT_OPTIMAL CLEAR DONT_CARE  # vkCmdBeginRendering' \
    'trace:^begin-rendering resuming color i0 COLOR:0:0 COLOR_ATTACHMENT_OPTIMAL CLEAR STORE ; depth i1 DEPTH:0:0 DEPTH_ATTACHMENT_OPTIMAL CLEAR DONT_CARE  # vkCmdBeginRendering' \
    'count:2:^end-rendering' \
    'no-trace:^not-modelled' "trace:$summary"
# ... and a render pass (one subpass, dependencies EXTERNAL->0 and
# 0->EXTERNAL): the model's render pass lines, checked by pattern, and
# `vksync check` finds no hazard (the dependencies order the dispatch
# before the draw and the store before the copy).
run_case draw-render-pass draw render-pass 0 0 \
    'out:draw \(render-pass\): 256 pixels read back, 0 not red' 'out:no hazards' \
    'trace:^render-pass rp0 attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->TRANSFER_SRC_OPTIMAL ; attachment D32_SFLOAT CLEAR DONT_CARE UNDEFINED->DEPTH_STENCIL_ATTACHMENT_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL depth 1 DEPTH_STENCIL_ATTACHMENT_OPTIMAL ; dependency EXTERNAL->0 COMPUTE_SHADER:SHADER_WRITE -> VERTEX_INPUT:VERTEX_ATTRIBUTE_READ ; dependency 0->EXTERNAL COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> ALL_TRANSFER:TRANSFER_READ  # vkCreateRenderPass' \
    'trace:^begin-render-pass rp0 i0 COLOR:0:0 ; i1 DEPTH:0:0  # vkCmdBeginRenderPass' \
    'trace:^draw-indexed indexCount=3 instanceCount=1 firstIndex=0 firstInstance=0 vertex b[0-9]+ 0 16 index b[0-9]+ 0 u16 depth-test depth-write  # vkCmdDrawIndexed' \
    'trace:^end-render-pass  # vkCmdEndRenderPass' \
    'trace:^copy-image-to-buffer i0 TRANSFER_SRC_OPTIMAL -> ' \
    'no-trace:^host-read b0' 'no-trace:^not-modelled' "trace:$summary"
# ... and with a second subpass that reads the depth image as an input
# attachment (pInputAttachments): the `input` reference in the declaration,
# the 0->1 dependency, the `next-subpass`, no hazard.
run_case draw-render-pass-input draw render-pass-input 0 0 \
    'out:draw \(render-pass-input\): 256 pixels read back, 0 not red' 'out:no hazards' \
    'trace:^render-pass rp0 attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->TRANSFER_SRC_OPTIMAL ; attachment D32_SFLOAT CLEAR DONT_CARE UNDEFINED->DEPTH_STENCIL_READ_ONLY_OPTIMAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL depth 1 DEPTH_STENCIL_ATTACHMENT_OPTIMAL ; subpass input 1 DEPTH_STENCIL_READ_ONLY_OPTIMAL ; dependency EXTERNAL->0 COMPUTE_SHADER:SHADER_WRITE -> VERTEX_INPUT:VERTEX_ATTRIBUTE_READ ; dependency 0->EXTERNAL COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> ALL_TRANSFER:TRANSFER_READ ; dependency 0->1 LATE_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_WRITE -> FRAGMENT_SHADER:INPUT_ATTACHMENT_READ by-region  # vkCreateRenderPass' \
    'trace:^next-subpass  # vkCmdNextSubpass' \
    'trace:^end-render-pass  # vkCmdEndRenderPass' \
    'no-trace:^not-modelled' "trace:$summary"
# ... and the same with multiview (issue 24): both images with two layers,
# every subpass's view mask 0b11, the 0->1 dependency view-local: the view
# masks and `view-local` in the declaration, the 2D array views' layers in
# the begin, no hazard, nothing not modelled.
run_case draw-render-pass-multiview draw render-pass-multiview 0 0 \
    'out:draw \(render-pass-multiview\): 256 pixels read back, 0 not red' 'out:no hazards' \
    'trace:^image i0 R8G8B8A8_UNORM 16x16 layers 2 exclusive alias m0 0$' \
    'trace:^render-pass rp0 attachment R8G8B8A8_UNORM CLEAR STORE UNDEFINED->TRANSFER_SRC_OPTIMAL ; attachment D32_SFLOAT CLEAR DONT_CARE UNDEFINED->DEPTH_STENCIL_READ_ONLY_OPTIMAL ; subpass viewMask=3 color 0 COLOR_ATTACHMENT_OPTIMAL depth 1 DEPTH_STENCIL_ATTACHMENT_OPTIMAL ; subpass viewMask=3 input 1 DEPTH_STENCIL_READ_ONLY_OPTIMAL ; dependency EXTERNAL->0 COMPUTE_SHADER:SHADER_WRITE -> VERTEX_INPUT:VERTEX_ATTRIBUTE_READ ; dependency 0->EXTERNAL COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> ALL_TRANSFER:TRANSFER_READ ; dependency 0->1 LATE_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_WRITE -> FRAGMENT_SHADER:INPUT_ATTACHMENT_READ by-region view-local  # vkCreateRenderPass' \
    'trace:^begin-render-pass rp0 i0 COLOR:0:0\.\.2 ; i1 DEPTH:0:0\.\.2  # vkCmdBeginRenderPass' \
    'no-trace:^not-modelled' "trace:$summary"

# (h) Descriptor indexing (issue 23; Mesa 25's lavapipe and later): a
# storage buffer descriptor written after the dispatch was recorded
# (UPDATE_AFTER_BIND) and rewritten between the two submissions of the one
# command buffer: each submission's dispatch names the buffer written by
# then; the binding used only on a path never taken, left unwritten
# (PARTIALLY_BOUND), adds nothing and is not `not-modelled`. With dst
# rewritten too before the second submission, the host's read of out2 is
# not covered by the barrier on `out`: the race is found.
run_case descriptor-indexing descriptor-indexing after 0 0 \
    'out:descriptor-indexing \(after\): 2 submissions, 0 and 0 wrong words' 'out:no hazards' \
    'count:1:^dispatch s0_main read a\[0\.\.256\] write out\[0\.\.256\]  # vkCmdDispatch #31 in cb0$' \
    'count:1:^dispatch s0_main read b\[0\.\.256\] write out\[0\.\.256\]  # vkCmdDispatch #31 in cb0$' \
    'count:2:^submit ' 'no-trace:^not-modelled' "trace:$summary"
run_case descriptor-indexing-race descriptor-indexing race 1 0 \
    'out:SYNC-HAZARD-READ-AFTER-WRITE: the host reads out2\[0\.\.256\] \(HOST:HOST_READ\), previously written at line [0-9]+ by vkCmdDispatch' \
    'out:1 hazard \(1 read-after-write\)' \
    'count:1:^dispatch s0_main read b\[0\.\.256\] write out2\[0\.\.256\]  # vkCmdDispatch #31 in cb0$' \
    'no-trace:^not-modelled' "trace:$summary"

# (k) Descriptor updates running on into the next binding (review36): one
# write, or one copy, of three descriptors from binding 0 fills bindings
# 0, 1 and 2; the dispatch names each binding's buffer (before, binding 1
# was "never written" and the dispatch not modelled), and with out2 in
# binding 1 the host's read of out2 races with it.
for way in write copy; do
    run_case "consecutive-$way" consecutive "$way" 0 0 \
        "out:consecutive \($way\): 0 wrong words" 'out:no hazards' \
        'count:1:^dispatch s0_main read src\[0\.\.256\] write out\[0\.\.256\] read extra\[0\.\.256\]  #' \
        'no-trace:^not-modelled' "trace:$summary"
done
run_case consecutive-race consecutive race 1 0 \
    'out:SYNC-HAZARD-READ-AFTER-WRITE: the host reads out2\[0\.\.256\] \(HOST:HOST_READ\), previously written at line [0-9]+ by vkCmdDispatch' \
    'out:1 hazard \(1 read-after-write\)' \
    'count:1:^dispatch s0_main read src\[0\.\.256\] write out2\[0\.\.256\] read extra\[0\.\.256\]  #' \
    'no-trace:^not-modelled' "trace:$summary"

if [ -n "${VKSYNC_CAPTURE_APPS_KEEP:-}" ]; then
    mkdir -p "$VKSYNC_CAPTURE_APPS_KEEP" && cp "$work"/*.trace "$work"/*.log "$VKSYNC_CAPTURE_APPS_KEEP"/
fi
if [ "$failures" != 0 ]; then
    echo "capture-apps: FAILED: $failures failed check(s); $passed runs passed"
    exit 1
fi
echo "capture-apps: OK: $passed runs (each application linked and dlopen'ed) under vksync capture"
if [ "${#elsewhere[@]}" != 0 ]; then
    echo "capture-apps: ${#elsewhere[@]} runs need a device feature this one lacks, run by tests/capture-apps/run-current.sh in the Debian 13 root: ${elsewhere[*]}"
fi
