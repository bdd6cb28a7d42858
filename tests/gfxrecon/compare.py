#!/usr/bin/env python3
"""Compare a trace captured from an application (`vksync capture -- APP`)
with one captured from a gfxreconstruct replay of a recording of APP
(`vksync capture -- gfxrecon-replay FILE.gfxr`), modulo handles.

What "the same trace modulo handles" means here (docs/capture.md,
"Checking a capture someone sends you"):

* Names are normalized by first appearance: memory objects `mN`, buffers
  `bN` and kernels `sN_ENTRY` become `M0, M1...`, `B0, B1...` and
  `K0_ENTRY...` in the order each trace first mentions them. (The layer
  numbers them by creation on the device, so a replay that creates the
  same objects in the same order gives the same names anyway.)
* Every command line (dispatch, copy, fill, update, barrier, submit, wait,
  host-read, not-modelled) is compared as text after renaming, in order,
  with the Vulkan call named in its comment; buffer ranges are in each
  buffer's own coordinates, so they do not depend on where the memory sits.
* `host-write` lines between two device commands are an unordered group
  (the layer writes them before a submission's commands, one per changed
  span of each mapped buffer) and are matched by buffer. A replayed
  host-write may be *wider* than the direct one: gfxreconstruct's default
  memory tracking (page_guard) records whole dirty 4 KiB pages and the
  replay writes those pages into mapped memory, so bytes of the page the
  application did not write but that differ from what the replay's
  allocation held show up as written. And the layer finds host writes by
  diffing mapped memory against its contents at vkMapMemory, which
  lavapipe does not zero: a written byte equal to what was there is
  invisible, so both spans depend on what the memory held before (the
  direct one too), and a widened page can come out as several spans.
  Accepted, per buffer and group: every replayed span lies inside the
  direct spans rounded out to 4 KiB pages of the memory object, and every
  direct span overlaps a replayed one. Each such difference is listed.
* Declarations (`buffer ...`): buffer sizes must be equal in order. Memory
  objects and alias offsets must be equal too, unless --placement=loose
  (gfxrecon-replay -m rebind: VMA places buffers in its own large blocks),
  in which case only buffer sizes are compared and the placement
  differences are listed.
* Sequence numbers (`# vkCmdDispatch #135`) are reported (equal or not),
  never required: a replay may make more or fewer intercepted calls.

Exit status 0 when the traces match by these rules, 1 otherwise.
Usage: compare.py [--placement=exact|loose] DIRECT REPLAYED
"""

import re
import sys
from collections import OrderedDict

PAGE = 4096
NAME = re.compile(r"\b(m\d+|b\d+|s\d+_\w+)\b")
RANGE = re.compile(r"^host-write (\S+)\[(\d+)\.\.(\d+)\](.*)$")


class Trace:
    def __init__(self, path):
        self.path = path
        self.rename = {}
        self.counts = {"m": 0, "b": 0, "s": 0}
        self.decls = []  # (code, raw)
        self.body = []  # items: ("cmd", code, call, seq) or ("hw", [(code, raw)])
        self.alias = {}  # normalized buffer -> (memory, offset)
        self.sizes = {}
        for raw in open(path):
            raw = raw.rstrip("\n")
            code, _, comment = raw.partition("#")
            code = self.norm(code.strip())
            if not code:
                continue
            m = re.match(r"\s*(vk\w+)(?: #(\d+))?", comment)
            call, seq = (m.group(1), m.group(2)) if m else ("", None)
            if code.startswith("buffer "):
                self.decls.append(code)
                f = code.split()
                self.sizes[f[1]] = int(f[2])
                if len(f) >= 5 and f[3] == "alias":
                    self.alias[f[1]] = (f[4], int(f[5]))
            elif code.startswith("host-write "):
                if not self.body or self.body[-1][0] != "hw":
                    self.body.append(("hw", []))
                self.body[-1][1].append(code)
            else:
                self.body.append(("cmd", code, call, seq))

    def norm(self, code):
        def sub(m):
            tok = m.group(1)
            if tok not in self.rename:
                kind = tok[0]
                n = self.counts[kind]
                self.counts[kind] += 1
                if kind == "s":
                    self.rename[tok] = f"K{n}_{tok.split('_', 1)[1]}"
                else:
                    self.rename[tok] = f"{kind.upper()}{n}"
            return self.rename[tok]

        return NAME.sub(sub, code)


def host_writes(group):
    out = OrderedDict()
    for code in group:
        m = RANGE.match(code)
        out.setdefault(m.group(1), []).append((int(m.group(2)), int(m.group(3)), m.group(4)))
    return out


def main(argv):
    placement = "exact"
    args = []
    for a in argv:
        if a.startswith("--placement="):
            placement = a.split("=", 1)[1]
        else:
            args.append(a)
    if len(args) != 2 or placement not in ("exact", "loose"):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    d, r = Trace(args[0]), Trace(args[1])
    problems, notes = [], []

    # Declarations.
    dsizes = [c.split()[2] for c in d.decls if c.split()[1].startswith("B")]
    rsizes = [c.split()[2] for c in r.decls if c.split()[1].startswith("B")]
    if dsizes != rsizes:
        problems.append(f"buffer sizes differ: {dsizes} vs {rsizes}")
    if placement == "exact":
        if d.decls != r.decls:
            for a, b in zip(d.decls + [""] * len(r.decls), r.decls + [""] * len(d.decls)):
                if a != b:
                    problems.append(f"declaration differs: `{a}` vs `{b}`")
                    break
    else:
        dm = [c for c in d.decls if c.split()[1].startswith("M")]
        rm = [c for c in r.decls if c.split()[1].startswith("M")]
        notes.append(f"placement (loose): {len(dm)} memory objects direct, {len(rm)} replayed")
        moved = sum(1 for b in d.alias if d.alias.get(b) != r.alias.get(b))
        notes.append(f"placement (loose): {moved} of {len(d.alias)} buffers bound elsewhere")

    # Body.
    cmds = page_diff = page_bytes = hw = 0
    seq_equal = seq_total = 0
    if len(d.body) != len(r.body):
        problems.append(f"{len(d.body)} body items direct, {len(r.body)} replayed")
    for i, (a, b) in enumerate(zip(d.body, r.body)):
        if a[0] != b[0]:
            problems.append(f"item {i}: `{a[1] if a[0] == 'cmd' else 'host-write'}` vs `{b[1] if b[0] == 'cmd' else 'host-write'}`")
            break
        if a[0] == "cmd":
            cmds += 1
            if (a[1], a[2]) != (b[1], b[2]):
                problems.append(f"command {cmds}: `{a[1]}  # {a[2]}` vs `{b[1]}  # {b[2]}`")
                if len(problems) > 10:
                    break
            seq_total += 1
            seq_equal += a[3] == b[3]
            continue
        ha, hb = host_writes(a[1]), host_writes(b[1])
        if set(ha) != set(hb):
            problems.append(f"host writes before command {cmds + 1}: buffers {list(ha)} vs {list(hb)}")
            continue
        for buf, spans in ha.items():
            other = hb[buf]
            hw += len(spans)
            if spans == other:
                continue
            # The pages of the memory object the direct spans touch.
            mem, off = d.alias.get(buf, (buf, 0))
            size = d.sizes.get(buf, max(e for _, e, _ in spans))
            pages = []
            for s, e, _ in spans:
                lo = (s + off) // PAGE * PAGE - off
                hi = min(-(-(e + off) // PAGE) * PAGE - off, size)
                if pages and lo <= pages[-1][1]:
                    pages[-1] = (pages[-1][0], max(hi, pages[-1][1]))
                else:
                    pages.append((max(lo, 0), hi))
            inside = all(any(lo <= s2 and e2 <= hi for lo, hi in pages) for s2, e2, _ in other)
            covered = all(any(s2 < e and s < e2 for s2, e2, _ in other) for s, e, _ in spans)
            values = {v for _, _, v in spans} == {v for _, _, v in other}
            d_txt = " ".join(f"{buf}[{s}..{e}]" for s, e, _ in spans)
            r_txt = " ".join(f"{buf}[{s}..{e}]" for s, e, _ in other)
            p_txt = " ".join(f"{buf}[{lo}..{hi}]" for lo, hi in pages)
            if inside and covered and values:
                extra = sum(e - s for s, e, _ in other) - sum(e - s for s, e, _ in spans)
                page_diff += 1
                page_bytes += extra
                notes.append(f"host-write {d_txt} replayed as {r_txt} (inside the 4 KiB pages {p_txt})")
            else:
                problems.append(f"host-write {d_txt} replayed as {r_txt}: not overlapping it inside the 4 KiB pages {p_txt}")

    for n in notes:
        print(f"  {n}")
    for p in problems:
        print(f"  DIFFERS: {p}")
    print(f"compare: {cmds} commands equal in order ({seq_equal} of {seq_total} with the same call sequence number), "
          f"{hw} host-write spans, equal but for {page_diff} buffers' spans that differ inside the written pages ({page_bytes:+} bytes), "
          f"{len(d.decls)} declarations ({placement}): {'MATCH' if not problems else 'DIFFER'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
