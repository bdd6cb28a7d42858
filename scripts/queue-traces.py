# Traces for the multi-queue memory measurements of docs/performance.md ("The
# candidates' memory"): python3 scripts/queue-traces.py DIR writes queues-N, rr4-N and
# the two-queue shapes of model/tests/multi_queue_scaling.rs into DIR.
import sys, random
out = sys.argv[1]
def w(name, lines):
    open(f"{out}/{name}.trace", "w").write("\n".join(lines) + "\n")
def queues(n):
    t = ["semaphore t timeline", "buffer shared 256"]
    for i in range(n): t += [f"queue q{i}", f"buffer b{i} 256"]
    for i in range(n):
        t += [f"fill b{i}[0..256] 1", "barrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ", f"copy b{i}[0..256] -> shared[0..256]"]
        t.append(f"submit q{i} wait t:{i}@ALL_COMMANDS signal t:{i+1}" if i else "submit q0 signal t:1")
    t.append(f"host-wait t {n}")
    return t
# round robin: n queues, r rounds, each batch waits for the one before
def rr(n, r):
    t = ["semaphore t timeline", "buffer shared 256"]
    for i in range(n): t += [f"queue q{i}", f"buffer b{i} 256"]
    v = 0
    for k in range(r):
        for i in range(n):
            t += [f"fill b{i}[0..256] 1", "barrier CLEAR:TRANSFER_WRITE -> COPY:TRANSFER_READ", f"copy b{i}[0..256] -> shared[0..256]"]
            t.append(f"submit q{i} wait t:{v}@ALL_COMMANDS signal t:{v+1}" if v else "submit q0 signal t:1")
            v += 1
    t.append(f"host-wait t {v}")
    return t
def ownership(lines, wait):
    t = ["queue qa", "queue qb family 1", "semaphore t timeline", "buffer a 256 exclusive"]
    v, n = 0, 4
    while n < lines:
        n += 8
        t += ["fill a[0..256] 1", "barrier CLEAR:TRANSFER_WRITE -> NONE:NONE a[0..256] ownership 0->1"]
        v += 1
        t.append(f"submit qa wait t:{v-1}@{wait} signal t:{v}" if v > 1 else f"submit qa signal t:{v}")
        t += ["barrier NONE:NONE -> CLEAR:TRANSFER_WRITE a[0..256] ownership 0->1", "fill a[0..256] 2",
              "barrier CLEAR:TRANSFER_WRITE -> NONE:NONE a[0..256] ownership 1->0"]
        v += 1
        t.append(f"submit qb wait t:{v-1}@{wait} signal t:{v}")
        t.append("barrier NONE:NONE -> CLEAR:TRANSFER_WRITE a[0..256] ownership 1->0")
    t += ["submit qa", "wait"]
    return t
def timeline(lines):
    t = ["queue qa", "queue qb", "semaphore t timeline", "buffer a 64", "buffer b 64"]
    v, n = 0, 5
    while n < lines:
        n += 4
        t.append("fill a[0..64] 1"); v += 1
        t.append(f"submit qa wait t:{v-1}@CLEAR signal t:{v}" if v > 1 else f"submit qa signal t:{v}")
        t.append("copy a[0..64] -> b[0..64]"); v += 1
        t.append(f"submit qb wait t:{v-1}@COPY signal t:{v}")
    t.append(f"host-wait t {v}")
    return t
def frames(lines):
    t = ["queue qa", "semaphore t timeline", "buffer st 256", "buffer w 256", "buffer o 256", "buffer rb 256"]
    v, n = 0, 6
    while n < lines:
        n += 10
        t += ["host-write st[0..256] 3", "copy st[0..256] -> w[0..256]",
              "barrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ",
              "dispatch scale_add(2,1) read w[0..256] write o[0..256]",
              "barrier COMPUTE_SHADER:SHADER_STORAGE_WRITE -> COPY:TRANSFER_READ",
              "copy o[0..256] -> rb[0..256]", "barrier COPY:TRANSFER_WRITE -> HOST:HOST_READ"]
        v += 1
        t += [f"submit qa signal t:{v}", f"host-wait t {v}", "host-read rb[0..256]"]
    return t
def long_lived(lines):
    t = ["queue qa", "queue qb", "semaphore t timeline", "buffer a 64", "buffer b 64", "buffer c 64", "fill a[0..64] 1", "submit qa signal t:1"]
    v, n = 1, 8
    while n < lines:
        n += 4; v += 1
        t += ["copy a[0..64] -> b[0..64]", f"submit qb wait t:{v-1}@ALL_COMMANDS signal t:{v}"]
        v += 1
        t += ["copy a[0..64] -> c[0..64]", f"submit qa wait t:{v-1}@ALL_COMMANDS signal t:{v}"]
    t.append(f"host-wait t {v}")
    return t
for n in (4000, 8000, 16000): w(f"queues-{n}", queues(n))
for n in (1000, 2000, 4000): w(f"rr4-{n}", rr(n, 4))
w("ownership-40k", ownership(40000, "ALL_COMMANDS"))
w("ownership-bad-40k", ownership(40000, "CLEAR"))
w("timeline-200k", timeline(200000))
w("frames-200k", frames(200000))
w("long-lived-200k", long_lived(200000))
