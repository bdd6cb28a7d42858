# Shared steps of the real-application tests (tests/wgpu/run.sh,
# tests/taichi/run.sh): a venv from PyPI, the release binaries, one run of
# an application under `vksync capture` with the Khronos validation layer
# (synchronization validation) in the same process, and the checks every
# application gets. Sourced, not run; the caller sets `app` (its name in
# messages) before calling these functions.
#
# The checks, per run (`capture_run NAME ARGS...`, then `judge NAME ...`):
# - the application's own results match numpy (it prints `ok ...` lines and
#   exits 0; a mismatch exits 1);
# - the trace was written; the number of `not-modelled` lines is the one
#   documented for that run (docs/capture.md, "Real applications");
# - every hazard `vksync check` reports is a host access after a device
#   write without a barrier to HOST (the one class of real hazard these
#   applications have; docs/capture.md): any other hazard fails the test as
#   a false alarm until shown otherwise;
# - the validation layer ran with synchronization validation and sent no
#   SYNC-HAZARD message;
# - `vksync plan` plans the trace and the plan checks clean, or refuses it
#   with the documented reason.

apps_fail() { echo "$app: FAILED: $*"; exit 1; }

# apps_venv VENV PACKAGE==VERSION...: creates or reuses the venv; prints
# SKIPPED and exits 0 when PyPI cannot be reached.
apps_venv() {
    local venv=$1
    shift
    local want
    want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
    if [ "$(cat "$venv/.vksync-packages" 2>/dev/null)" != "$want" ]; then
        rm -rf "$venv"
        python3 -m venv "$venv" || { echo "$app: SKIPPED: python3 -m venv failed (install python3-venv)"; exit 0; }
        if ! "$venv/bin/pip" install --quiet --disable-pip-version-check --timeout 30 "$@"; then
            echo "$app: SKIPPED: cannot install $* from PyPI (no network, or no wheel for this platform)"
            exit 0
        fi
        echo "$want" > "$venv/.vksync-packages"
    fi
}

# apps_build: the release vksync and capture layer; sets `vksync`.
apps_build() {
    cargo build --quiet --release -p vksync-cli -p vksync-capture
    vksync="${CARGO_TARGET_DIR:-$root/target}/release/vksync"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    cat > "$work/vk_layer_settings.txt" <<'SETTINGS'
khronos_validation.enables = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT
khronos_validation.report_flags = error,warn,info
khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG
SETTINGS
}

# capture_run NAME CMD...: runs CMD plain (timed) and under vksync capture
# with the validation layer (timed); leaves $work/NAME.{trace,log,plain}.
capture_run() {
    local name=$1
    shift
    local t0 t1 t2
    t0=$(date +%s.%N)
    "$@" > "$work/$name.plain" 2>&1 || { cat "$work/$name.plain"; apps_fail "$name: the application fails without the capture"; }
    t1=$(date +%s.%N)
    set +e
    (cd "$work" && VK_LAYER_SETTINGS_PATH="$work/vk_layer_settings.txt" \
        VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation \
        "$vksync" capture -o "$work/$name.trace" -- "$@") > "$work/$name.log" 2>&1
    capture_status=$?
    set -e
    t2=$(date +%s.%N)
    plain_s=$(awk "BEGIN { printf \"%.2f\", $t1 - $t0 }")
    capture_s=$(awk "BEGIN { printf \"%.2f\", $t2 - $t1 }")
    if [ -n "${VKSYNC_APPS_KEEP:-}" ]; then
        mkdir -p "$VKSYNC_APPS_KEEP" && cp "$work/$name".* "$VKSYNC_APPS_KEEP"/
    fi
}

# judge NAME OK_LINES NOT_MODELLED PLAN: the checks above; PLAN is `plans`
# or the start of the refusal `vksync plan` documents for this run.
judge() {
    local name=$1 want_ok=$2 want_nm=$3 want_plan=$4
    local trace="$work/$name.trace" log="$work/$name.log"
    [ -s "$trace" ] || { tail -20 "$log"; apps_fail "$name: no trace written (vksync capture exit status $capture_status)"; }
    local ok
    ok=$(grep -c '^ok ' "$log" || true)
    [ "$ok" = "$want_ok" ] || { grep -E '^(ok|MISMATCH)' "$log"; apps_fail "$name: $ok of $want_ok results match numpy under the capture"; }
    grep -q 'Current Enables: VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION' "$log" \
        || apps_fail "$name: the validation layer did not report synchronization validation enabled"
    local layer_hazards
    layer_hazards=$(grep -c '\[ SYNC-HAZARD' "$log" || true)
    local nm
    nm=$(grep -c '^not-modelled' "$trace" || true)
    [ "$nm" = "$want_nm" ] || { grep '^not-modelled' "$trace" | sort | uniq -c | head; apps_fail "$name: $nm calls not modelled (documented: $want_nm)"; }
    local check_status=0
    "$vksync" check "$trace" > "$work/$name.check" 2>&1 || check_status=$?
    [ "$check_status" -le 1 ] || { cat "$work/$name.check"; apps_fail "$name: vksync check exit status $check_status"; }
    local hazards other
    # vksync's own hazards (`FILE:LINE: SYNC-HAZARD-...`), not the `layer:`
    # notes of what the installed validation layer would also report (known
    # differences, which do not count in vksync's exit status either).
    hazards=$(grep -c -E '^[^ ]+:[0-9]+: SYNC-HAZARD-' "$work/$name.check" || true)
    other=$(grep -E '^[^ ]+:[0-9]+: SYNC-HAZARD-' "$work/$name.check" | grep -v -E ': the host (reads|writes) ' || true)
    [ -z "$other" ] || { echo "$other" | head -5 | cut -c1-400; apps_fail "$name: hazards other than host accesses after device writes (false alarms until shown otherwise)"; }
    # The validation layer's own hazards are checked after vksync's, so that
    # a failure shows vksync's view of the same program first.
    [ "$layer_hazards" = 0 ] || { grep '\[ SYNC-HAZARD' "$log" | head -3 | cut -c1-400; apps_fail "$name: $layer_hazards SYNC-HAZARD messages from the validation layer"; }
    local plan_status=0 plan_result
    "$vksync" plan "$trace" > "$work/$name.plan" 2> "$work/$name.plan.err" || plan_status=$?
    if [ "$plan_status" = 0 ]; then
        local planned_status=0
        "$vksync" check "$work/$name.plan" > "$work/$name.plan.check" 2>&1 || planned_status=$?
        # 0: clean, 1: hazards (host ones are allowed below); anything else
        # (2: the plan does not parse) fails.
        [ "$planned_status" -le 1 ] || { head -5 "$work/$name.plan.check"; apps_fail "$name: vksync check of the plan: exit status $planned_status"; }
        # The plan covers device-side hazards; a host access after a device
        # write with no wait in the trace stays what the application did.
        other=$(grep -E '^[^ ]+:[0-9]+: SYNC-HAZARD-' "$work/$name.plan.check" | grep -v -E ': the host (reads|writes) ' || true)
        [ -z "$other" ] || { echo "$other" | head -3; apps_fail "$name: the plan does not check clean"; }
        plan_result="plans ($(grep -c '^barrier' "$work/$name.plan" || true) barriers planned, $(grep -c '^barrier' "$trace" || true) recorded)"
        [ "$want_plan" = plans ] || apps_fail "$name: vksync plan now plans the trace; update the documented refusal ($want_plan)"
    else
        plan_result="refused: $(grep -m1 'error' "$work/$name.plan.err" | sed 's/^[^ ]*: error: //')"
        [ "$want_plan" != plans ] || { cat "$work/$name.plan.err" | head -3; apps_fail "$name: vksync plan exit status $plan_status"; }
        grep -q -F "$want_plan" "$work/$name.plan.err" || { head -3 "$work/$name.plan.err"; apps_fail "$name: vksync plan refused with another reason than documented ($want_plan)"; }
    fi
    echo "$app: $name: OK: $ok results match numpy; $(grep "^# [0-9]* commands, " "$trace" | tail -1 | sed "s/^# //"); vksync check: $hazards host hazards, no other; layer: 0 SYNC-HAZARD; plan: $plan_result; wall: plain ${plain_s}s, capture+check ${capture_s}s"
}
