#!/usr/bin/env python3
"""Random render pass programs through both checkers.

run.py [N] [FIRST_SEED]: N programs (default 300) from gen.py, seeds
FIRST_SEED.. (default: fresh, from the clock, printed so that a failure
can be reproduced with `python3 gen.py SEED`), each checked by
`vksync check` and `vksync check --by-definition`; the sets of (line,
hazard kind) must be equal. VKSYNC_BIN names the binary (default
target/debug/vksync). Exit 1 on a disagreement (the trace and both
outputs are printed), or when more than 5% of the programs are refused as
invalid (the generator would have drifted from the model's rules).
"""
import os, re, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import gen  # noqa: E402

root = os.path.dirname(os.path.dirname(here))
binary = os.environ.get("VKSYNC_BIN", os.path.join(root, "target", "debug", "vksync"))
n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
first = int(sys.argv[2]) if len(sys.argv) > 2 else int(time.time()) % 1_000_000
env = dict(os.environ, VKSYNC_VALIDATION="0")


def check(path, by_definition):
    args = [binary, "check"] + (["--by-definition"] if by_definition else []) + [path]
    p = subprocess.run(args, capture_output=True, text=True, timeout=300, env=env)
    found = set()
    for line in p.stdout.splitlines():
        m = re.match(r"^.*?:(\d+): (SYNC-HAZARD-[A-Z-]+):", line)
        if m:
            found.add((int(m.group(1)), m.group(2)))
    return p.returncode, found, p.stdout + p.stderr


print(f"render-pass-random: seeds {first}..{first + n - 1}, {binary}", flush=True)
invalid = compared = hazards = 0
bad = []
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "p.trace")
    for seed in range(first, first + n):
        text = gen.prog(seed)
        with open(path, "w") as f:
            f.write(text)
        rc_fast, fast, out_fast = check(path, False)
        if rc_fast == 2:
            invalid += 1
            continue
        rc_def, by_def, out_def = check(path, True)
        if rc_fast not in (0, 1) or rc_def not in (0, 1) or fast != by_def:
            bad.append(seed)
            print(f"seed {seed}: the checkers disagree (status {rc_fast} and {rc_def})\n{text}"
                  f"--- check:\n{out_fast}--- check --by-definition:\n{out_def}", flush=True)
            continue
        compared += 1
        hazards += rc_fast == 1
print(f"render-pass-random: {n} programs, {invalid} refused as invalid, {compared} agree "
      f"({hazards} with hazards), {len(bad)} disagree{': seeds ' + str(bad) if bad else ''}")
sys.exit(1 if bad or invalid > n // 20 else 0)
