#!/usr/bin/env python3
"""Random multi-queue programs through both checkers.

run.py [N] [FIRST_SEED]: N programs (default 300) from each generator
(`mixed.py`, `chains.py`), seeds FIRST_SEED.. (default: fresh, from the
clock, printed so that a failure can be reproduced with
`python3 -c 'import mixed; print(mixed.prog(SEED), end="")'`), each checked
by `vksync check` and, where the fast checker decides it (no "checked by
the definitional semantics" note), by `vksync check --by-definition`: the
hazards (line, kind, object, byte in steps of 8) and the ownership issues
must be equal, and so must the exit statuses. A program `vksync check`
refuses (exit 2) is counted, not compared: `mixed.py` writes invalid
programs on purpose (about 15%). Then `vksync plan` of each valid program
of `chains.py` must check clean with the definitional semantics, or be
refused with a reason (exit 2). VKSYNC_BIN names the binary (default
target/debug/vksync). Exit 1 on a disagreement or a plan that does not
check clean (the trace and the outputs are printed), or on a crash.
"""
import os, re, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import chains  # noqa: E402
import mixed  # noqa: E402

root = os.path.dirname(os.path.dirname(here))
binary = os.environ.get("VKSYNC_BIN", os.path.join(root, "target", "debug", "vksync"))
n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
first = int(sys.argv[2]) if len(sys.argv) > 2 else int(time.time()) % 1_000_000
env = dict(os.environ, VKSYNC_VALIDATION="0")


def vksync(args, path, stdin=None):
    p = subprocess.run([binary] + args + [path], capture_output=True, text=True, timeout=300, env=env, input=stdin)
    return p.returncode, p.stdout, p.stderr


def found(out):
    keys = set()
    for line in out.splitlines():
        m = re.match(r"^.*?:(\d+): (SYNC-HAZARD-[A-Z-]+): .*? (?:reads|writes) (\w+)\[(\d+)\.\.(\d+)\]", line)
        if m:
            for byte in range(int(m.group(4)), int(m.group(5)), 8):
                keys.add((int(m.group(1)), m.group(2), m.group(3), byte))
        m = re.match(r"^.*?:(\d+): ownership: (.*?);", line)
        if m:
            keys.add((int(m.group(1)), "ownership", m.group(2), 0))
    return keys


print(f"queue-random: seeds {first}..{first + n - 1} of each generator, {binary}", flush=True)
bad = []
with tempfile.TemporaryDirectory() as tmp:
    for name, gen in (("mixed", mixed), ("chains", chains)):
        counts = dict(invalid=0, fallback=0, compared=0, hazards=0, planned=0, refused=0)
        for seed in range(first, first + n):
            text = gen.prog(seed)
            path = os.path.join(tmp, f"{name}-{seed}.trace")
            with open(path, "w") as f:
                f.write(text)
            rc, out, err = vksync(["check"], path)
            if rc == 2:
                counts["invalid"] += 1
                continue
            if rc not in (0, 1):
                bad.append((name, seed, f"check exit {rc}", text, out + err))
                continue
            if "checked by the definitional semantics" in err:
                counts["fallback"] += 1
            else:
                rc2, out2, err2 = vksync(["check", "--by-definition"], path)
                counts["compared"] += 1
                counts["hazards"] += rc == 1
                if (rc, found(out)) != (rc2, found(out2)):
                    bad.append((name, seed, "the checkers disagree", text, out + err + "--- by definition:\n" + out2 + err2))
            if gen is chains:
                prc, plan, perr = vksync(["plan"], path)
                if prc == 2:
                    counts["refused"] += 1
                elif prc != 0:
                    bad.append((name, seed, f"plan exit {prc}", text, plan + perr))
                else:
                    counts["planned"] += 1
                    crc, cout, cerr = vksync(["check", "--by-definition"], "-", stdin=plan)
                    if crc != 0:
                        bad.append((name, seed, "the plan does not check clean", plan, cout + cerr))
        print(f"queue-random: {name}: {n} programs, {counts['invalid']} refused as invalid, "
              f"{counts['fallback']} decided by the definitional semantics alone, {counts['compared']} compared "
              f"({counts['hazards']} with hazards)"
              + (f", {counts['planned']} planned and clean, {counts['refused']} plans refused" if gen is chains else ""),
              flush=True)
for name, seed, what, text, outputs in bad[:5]:
    print(f"\n=== {name} seed {seed}: {what}\n{text}\n--- outputs:\n{outputs}")
if bad:
    print(f"queue-random: {len(bad)} failures")
    sys.exit(1)
print("queue-random: 0 disagreements")
