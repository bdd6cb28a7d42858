#!/usr/bin/env python3
"""Random render pass programs through both checkers.

run.py [--plan] [N] [FIRST_SEED]: N programs (default 300) from gen.py,
seeds FIRST_SEED.. (default: fresh, from the clock, printed so that a
failure can be reproduced with `python3 gen.py SEED`), each checked by
`vksync check` and `vksync check --by-definition`; the sets of (line,
hazard kind) must be equal. With --plan, each valid program is also given
to `vksync plan` (offline, the default reading, visible-to-writes): a
plan must check clean under both checkers and both readings, and a
refusal (exit status 2: a hazard no barrier the planner places can
order, such as two draws of one subpass) is counted by its reason.
VKSYNC_BIN names the binary (default target/debug/vksync). Exit 1 on a
disagreement or an unclean plan (the trace and the outputs are printed),
or when more than 5% of the programs are refused as invalid (the
generator would have drifted from the model's rules).
"""
import os, re, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import gen  # noqa: E402

root = os.path.dirname(os.path.dirname(here))
binary = os.environ.get("VKSYNC_BIN", os.path.join(root, "target", "debug", "vksync"))
args = sys.argv[1:]
plan = "--plan" in args
args = [a for a in args if a != "--plan"]
n = int(args[0]) if len(args) > 0 else 300
first = int(args[1]) if len(args) > 1 else int(time.time()) % 1_000_000
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


def planned(path, out):
    """`vksync plan` of `path` into `out`: None when planned and clean, else
    (False, reason) for a refusal, (True, what) for an unclean plan."""
    p = subprocess.run([binary, "plan", path], capture_output=True, text=True, timeout=300, env=env)
    if p.returncode == 2:
        m = re.search(r"error: (.*?)(,| on line| \(|$)", p.stderr)
        return False, m.group(1) if m else p.stderr[:80]
    if p.returncode != 0:
        return True, f"vksync plan exited {p.returncode}: {p.stderr}"
    with open(out, "w") as f:
        f.write(p.stdout)
    for extra in ([], ["--by-definition"]):
        for reading in ("memory-model", "visible-to-writes"):
            c = subprocess.run([binary, "check", "--reading", reading] + extra + [out],
                               capture_output=True, text=True, timeout=300, env=env)
            if c.returncode != 0:
                return True, f"the plan is not clean ({reading} {' '.join(extra)}):\n{p.stdout}{c.stdout}{c.stderr}"
    return None


print(f"render-pass-random: seeds {first}..{first + n - 1}, {binary}{', plans too' if plan else ''}", flush=True)
invalid = compared = hazards = plans = 0
refusals = {}
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
        if plan:
            got = planned(path, os.path.join(tmp, "planned.trace"))
            if got is None:
                plans += 1
            elif got[0]:
                bad.append(seed)
                print(f"seed {seed}: {got[1]}\n{text}", flush=True)
            else:
                refusals[got[1]] = refusals.get(got[1], 0) + 1
print(f"render-pass-random: {n} programs, {invalid} refused as invalid, {compared} agree "
      f"({hazards} with hazards), {len(bad)} disagree{' or planned unclean' if plan else ''}"
      f"{': seeds ' + str(bad) if bad else ''}")
if plan:
    print(f"render-pass-random: {plans} planned, each clean under both checkers and both readings; "
          f"{sum(refusals.values())} refused by the planner:")
    for why, count in sorted(refusals.items(), key=lambda x: -x[1]):
        print(f"render-pass-random:   {count:5d}  {why}")
sys.exit(1 if bad or invalid > n // 20 else 0)
