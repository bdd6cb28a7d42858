#!/bin/bash
# Issue 27's bullets, one row each (docs/testing.md, "Issue 27, bullet by
# bullet"): every input the issue names, generated here at the size it
# names, run with the release binary under --time-limit and --max-memory,
# with the exit status, what was printed (lines) and GNU time's wall time
# (and user CPU time, steadier on a shared machine) and peak resident
# memory. Markdown on stdout.
#
#   bash scripts/issue27-audit.sh            (ONLY=RE runs the rows whose id matches)
#
# LIMIT (seconds, default 300) and MAXMEM (default 8G) are the limits of
# every run: one that reaches them shows status 5. The capture rows are
# tests/capture-apps/run.sh's (not here).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /usr/bin/time ] || { echo "issue27-audit: needs GNU time (apt install time)" >&2; exit 2; }
# VKSYNC_BIN and SCALE_TRACE name binaries built elsewhere (no build then).
if [ -z "${VKSYNC_BIN:-}" ]; then
  cargo build --release -q -p vksync-cli
  cargo build --release -q -p vksync-proptests --example scale_trace
fi
bin=${VKSYNC_BIN:-target/release/vksync}
scale=${SCALE_TRACE:-target/release/examples/scale_trace}
limit=${LIMIT:-300}
maxmem=${MAXMEM:-8G}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export VKSYNC_VALIDATION=0 XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}

# gen ID PYTHON: writes $dir/ID.trace from a Python snippet (print lines).
gen() { python3 -c "$2" > "$dir/$1.trace"; }
# cls ID CLASS LINES: a class of proptests/src/scale.rs.
cls() { "$scale" "$2" "$3" > "$dir/$1.trace"; }
# row ID ARGS...: runs `vksync ARGS $dir/ID.trace`, prints a row: the
# trace's lines, the command, status, output lines, the first line of
# stderr (cut), time, peak memory.
row() {
  local id=$1
  shift
  [[ "$id" =~ ${ONLY:-.} ]] || return 0
  local f="$dir/$id.trace" st=0 secs user kb err
  set +e
  /usr/bin/time -f "%e %U %M" -o "$dir/time" "$bin" --time-limit "$limit" --max-memory "$maxmem" \
    "$@" "$f" > "$dir/out" 2> "$dir/err"
  st=$?
  set -e
  read -r secs user kb < <(tail -1 "$dir/time") || true
  err=$(grep -v '^Command exited' "$dir/err" | grep -m1 . | cut -c1-110 | sed 's/|/\\|/g' || true)
  echo "| $id | $(wc -l < "$f") | \`$*\` | $st | $(wc -l < "$dir/out") | ${err:-} | ${secs} s (${user} s user) | $((kb / 1024)) MB |"
}

echo "| input | lines | command | status | stdout lines | stderr (first line) | time | peak memory |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"

# Floods: `buffer a 64`, then `fill a 1` / `submit` N times.
for n in 2000 8000; do
  gen "flood-$n" "print('buffer a 64'); [print('fill a[0..64] 1\nsubmit') for _ in range($n)]"
  row "flood-$n" check
  row "flood-$n" plan
done
# One event set, waited and reset 4,000 times.
gen event-4000 "
print('event e'); print('buffer a 64'); print('buffer b 64')
for _ in range(4000):
    print('fill a[0..64] 1'); print('set-event e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ')
    print('wait-events e CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ'); print('copy a[0..64] -> b[0..64]')
    print('reset-event e COPY'); print('barrier COPY:TRANSFER_READ|TRANSFER_WRITE -> ALL_TRANSFER:TRANSFER_WRITE')
print('submit')"
row event-4000 check
row event-4000 plan
# 20,000 events set, then waited in reverse order.
gen events-reverse-20000 "
k=20000
[print(f'event e{j}') for j in range(k)]; print('buffer a 64')
[print(f'set-event e{j} CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ') for j in range(k)]
[print(f'wait-events e{j} CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ') for j in reversed(range(k))]
print('submit')"
row events-reverse-20000 check
row events-reverse-20000 plan
# Hazard-free batches, a barrier in each, no waits: plan memory.
for n in 1000 4000 8000; do
  gen "batches-$n" "print('buffer a 64'); [print('fill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> CLEAR:NONE\nsubmit') for _ in range($n)]"
  row "batches-$n" plan
done
# Single-queue plan (pool recycling, barriers, a submit every 50 blobs).
cls pool-100k pool 100000
row pool-100k check
row pool-100k plan
row pool-100k plan --schedule
row pool-100k plan --async-compute
cls pool-1m pool 1000000
row pool-1m check
row pool-1m plan
# plan --buffer-barriers: N buffers each dispatched twice.
for k in 200 400 800; do
  gen "bb-$k" "
k=$k; print('buffer src 256'); [print(f'buffer x{j} 256') for j in range(k)]
[print(f'dispatch scale_add(2,1) read src[0..256] write x{j}[0..256]') for j in range(k)]
[print(f'dispatch scale_add(2,1) rw x{j}[0..256]') for j in range(k)]; print('submit')"
  row "bb-$k" plan --buffer-barriers
  row "bb-$k" plan
done
# A chain of binary semaphores over two queues (100k lines): each batch
# fills, waits for the other queue's last signal and signals a fresh one.
gen binary-chain-100k "
n=33334; print('queue qa'); print('queue qb'); print('buffer a 256')
for i in range(n):
    print(f'semaphore s{i}'); print(f'fill a[0..256] {i % 200}')
    w = f' wait s{i-1}@ALL_COMMANDS' if i else ''
    q = 'qa' if i % 2 == 0 else 'qb'
    print(f'submit {q}{w} signal s{i}')
print('wait')"
row binary-chain-100k check
row binary-chain-100k plan
# N queues (2,000), chained by one timeline semaphore, each filling its own
# buffer and copying into a shared one.
gen queues-2000 "
n=2000; print('semaphore t timeline'); print('buffer shared 256')
for i in range(n): print(f'queue q{i}'); print(f'buffer b{i} 256')
for i in range(n):
    print(f'fill b{i}[0..256] 1'); print('barrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ')
    print(f'copy b{i}[0..256] -> shared[0..256]')
    w = f' wait t:{i}@ALL_COMMANDS' if i else ''
    print(f'submit q{i}{w} signal t:{i+1}')
print(f'host-wait t {n}')"
row queues-2000 check
row queues-2000 plan
# 10k lines over two queues, 256 live byte ranges per buffer.
gen ranges-256 "
import random; random.seed(1)
print('queue qa'); print('queue qb'); print('semaphore t timeline')
print('buffer a 16384'); print('buffer b 16384')
v = 0
while v < 590:
    for _ in range(8):
        k, j = random.randrange(256), random.randrange(256)
        if random.random() < 0.5: print(f'fill a[{64*k}..{64*k+64}] {v % 100}')
        else: print(f'copy a[{64*k}..{64*k+64}] -> b[{64*j}..{64*j+64}]')
        print('barrier COPY|CLEAR:TRANSFER_WRITE -> COPY|CLEAR:TRANSFER_READ|TRANSFER_WRITE')
    w = f' wait t:{v}@ALL_COMMANDS' if v else ''
    q = 'qa' if v % 2 == 0 else 'qb'
    print(f'submit {q}{w} signal t:{v+1}'); v += 1
print(f'host-wait t {v}')"
row ranges-256 check
row ranges-256 plan
# Timeline waits several signals may satisfy (a narrow wait stage): 3,200
# batches over two queues.
gen timeline-3200 "
print('queue qa'); print('queue qb'); print('semaphore t timeline'); print('buffer a 64'); print('buffer b 64')
for i in range(1600):
    print('fill a[0..64] 1'); print(f'submit qa signal t:{i+1}')
    print('copy a[0..64] -> b[0..64]'); print(f'submit qb wait t:{i+1}@COPY')
print('wait')"
row timeline-3200 check
row timeline-3200 plan
# Multi-queue classes at 100k and 1M lines.
for n in 100000 1000000; do
  for c in timeline frames ownership; do
    cls "$c-$n" "$c" "$n"
    row "$c-$n" check
    row "$c-$n" plan
  done
done
# N^2 racing pairs: the report is linear; nothing aborts (a memory limit
# ends with status 5).
cls pieces-10k pieces 10000
row pieces-10k check
row pieces-10k plan
maxmem=1G row pieces-10k plan
# Deadlocks: a cycle of timeline waits across two queues; a batch waiting
# for a value only it signals; a wait-before-signal between two model
# queues that share one device queue (lavapipe has one).
gen cycle "print('queue qa\nqueue qb\nsemaphore t1 timeline\nsemaphore t2 timeline\nbuffer a 64\nfill a[0..64] 1\nsubmit qa wait t1:1@ALL_COMMANDS signal t2:1\nsubmit qb wait t2:1@ALL_COMMANDS signal t1:1')"
row cycle check
row cycle run --as-written
gen self-wait "print('queue qa\nsemaphore t timeline\nbuffer a 64\nfill a[0..64] 1\nsubmit qa wait t:1@ALL_COMMANDS signal t:1')"
row self-wait check
row self-wait run --as-written
gen wait-before-signal "print('queue qa\nqueue qb\nsemaphore t timeline\nbuffer a 64\nbuffer b 64\ncopy a[0..64] -> b[0..64]\nsubmit qb wait t:1@COPY\nfill a[0..64] 1\nsubmit qa signal t:1\nwait')"
row wait-before-signal check
row wait-before-signal run --as-written
# --as-written applies the layer differences: a fill read by a copy behind
# a CLEAR -> COPY barrier (D4 on the 1.3.239 layer).
gen d4 "print('buffer a 64\nbuffer b 64\nfill a[0..64] 1\nbarrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ\ncopy a[0..64] -> b[0..64]\nsubmit\nwait')"
VKSYNC_VALIDATION=1 row d4 run --as-written
VKSYNC_VALIDATION=1 row d4 run
