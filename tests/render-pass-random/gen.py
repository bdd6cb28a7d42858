#!/usr/bin/env python3
"""Random valid render pass programs (fifteenth session's review).

gen.py SEED prints one trace: one or two render passes of one to three
subpasses over color and depth attachments, with load and store operations
(NONE included), initial and final layouts, subpass dependencies
(EXTERNAL, self, by-region, NONE scopes, TOP_OF_PIPE and BOTTOM_OF_PIPE),
draws reading and writing storage and vertex buffers, barriers and copies
before and after. run.py compares the two checkers on them.
"""
import random, sys

GFX_SRC = ["VERTEX_SHADER", "FRAGMENT_SHADER", "EARLY_FRAGMENT_TESTS", "LATE_FRAGMENT_TESTS",
           "COLOR_ATTACHMENT_OUTPUT", "VERTEX_ATTRIBUTE_INPUT", "ALL_GRAPHICS", "TOP_OF_PIPE",
           "BOTTOM_OF_PIPE", "NONE", "ALL_COMMANDS"]
EXT_STAGES = ["COPY", "CLEAR", "ALL_TRANSFER", "ALL_COMMANDS", "COMPUTE_SHADER", "NONE",
              "TOP_OF_PIPE", "BOTTOM_OF_PIPE", "FRAGMENT_SHADER", "COLOR_ATTACHMENT_OUTPUT",
              "LATE_FRAGMENT_TESTS", "EARLY_FRAGMENT_TESTS", "VERTEX_ATTRIBUTE_INPUT", "VERTEX_SHADER"]
FB = {"FRAGMENT_SHADER", "EARLY_FRAGMENT_TESTS", "LATE_FRAGMENT_TESTS", "COLOR_ATTACHMENT_OUTPUT"}
SHADER = {"VERTEX_SHADER", "FRAGMENT_SHADER", "COMPUTE_SHADER"}
# accesses each stage supports (subset of the registry)
SUPPORT = {
    "VERTEX_SHADER": ["SHADER_STORAGE_READ", "SHADER_STORAGE_WRITE", "SHADER_READ", "SHADER_WRITE", "UNIFORM_READ"],
    "FRAGMENT_SHADER": ["SHADER_STORAGE_READ", "SHADER_STORAGE_WRITE", "SHADER_READ", "SHADER_WRITE",
                        "INPUT_ATTACHMENT_READ", "COLOR_ATTACHMENT_READ", "DEPTH_STENCIL_ATTACHMENT_READ"],
    "COMPUTE_SHADER": ["SHADER_STORAGE_READ", "SHADER_STORAGE_WRITE"],
    "EARLY_FRAGMENT_TESTS": ["DEPTH_STENCIL_ATTACHMENT_READ", "DEPTH_STENCIL_ATTACHMENT_WRITE"],
    "LATE_FRAGMENT_TESTS": ["DEPTH_STENCIL_ATTACHMENT_READ", "DEPTH_STENCIL_ATTACHMENT_WRITE"],
    "COLOR_ATTACHMENT_OUTPUT": ["COLOR_ATTACHMENT_READ", "COLOR_ATTACHMENT_WRITE"],
    "VERTEX_ATTRIBUTE_INPUT": ["VERTEX_ATTRIBUTE_READ"],
    "COPY": ["TRANSFER_READ", "TRANSFER_WRITE"],
    "CLEAR": ["TRANSFER_WRITE"],
    "ALL_TRANSFER": ["TRANSFER_READ", "TRANSFER_WRITE"],
    "ALL_GRAPHICS": ["SHADER_STORAGE_READ", "SHADER_STORAGE_WRITE", "COLOR_ATTACHMENT_READ", "COLOR_ATTACHMENT_WRITE",
                     "DEPTH_STENCIL_ATTACHMENT_READ", "DEPTH_STENCIL_ATTACHMENT_WRITE", "INPUT_ATTACHMENT_READ",
                     "VERTEX_ATTRIBUTE_READ", "MEMORY_READ", "MEMORY_WRITE"],
    "ALL_COMMANDS": ["MEMORY_READ", "MEMORY_WRITE", "SHADER_STORAGE_WRITE", "COLOR_ATTACHMENT_WRITE",
                     "TRANSFER_WRITE", "TRANSFER_READ", "DEPTH_STENCIL_ATTACHMENT_WRITE", "SHADER_STORAGE_READ"],
}
WRITES = {"SHADER_STORAGE_WRITE", "SHADER_WRITE", "COLOR_ATTACHMENT_WRITE", "DEPTH_STENCIL_ATTACHMENT_WRITE",
          "TRANSFER_WRITE", "MEMORY_WRITE"}

COLOR_SUB = ["GENERAL", "COLOR_ATTACHMENT_OPTIMAL", "ATTACHMENT_OPTIMAL"]
COLOR_IO = ["GENERAL", "COLOR_ATTACHMENT_OPTIMAL", "TRANSFER_SRC_OPTIMAL", "TRANSFER_DST_OPTIMAL",
            "SHADER_READ_ONLY_OPTIMAL", "ATTACHMENT_OPTIMAL"]
INPUT_SUB = ["GENERAL", "SHADER_READ_ONLY_OPTIMAL", "READ_ONLY_OPTIMAL"]
D32_SUB = ["GENERAL", "DEPTH_ATTACHMENT_OPTIMAL", "DEPTH_STENCIL_ATTACHMENT_OPTIMAL", "ATTACHMENT_OPTIMAL"]
D32_RO = ["DEPTH_READ_ONLY_OPTIMAL", "READ_ONLY_OPTIMAL", "DEPTH_STENCIL_READ_ONLY_OPTIMAL"]
D32_IO = ["GENERAL", "DEPTH_ATTACHMENT_OPTIMAL", "DEPTH_READ_ONLY_OPTIMAL", "TRANSFER_SRC_OPTIMAL",
          "TRANSFER_DST_OPTIMAL", "SHADER_READ_ONLY_OPTIMAL", "ATTACHMENT_OPTIMAL"]
D24_SUB = ["GENERAL", "DEPTH_STENCIL_ATTACHMENT_OPTIMAL", "ATTACHMENT_OPTIMAL"]
D24_RO = ["DEPTH_STENCIL_READ_ONLY_OPTIMAL", "READ_ONLY_OPTIMAL"]
# The first-use layouts VUID-VkRenderPassCreateInfo2-pAttachments-02522
# (loadOp CLEAR) and -02523 (stencilLoadOp CLEAR) name.
READ_ONLY_FOR_CLEAR = ["SHADER_READ_ONLY_OPTIMAL", "DEPTH_STENCIL_READ_ONLY_OPTIMAL",
                       "DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL"]
READ_ONLY_FOR_STENCIL_CLEAR = ["SHADER_READ_ONLY_OPTIMAL", "DEPTH_STENCIL_READ_ONLY_OPTIMAL",
                               "DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL"]
D24_IO = ["GENERAL", "DEPTH_STENCIL_ATTACHMENT_OPTIMAL", "DEPTH_STENCIL_READ_ONLY_OPTIMAL", "TRANSFER_SRC_OPTIMAL",
          "TRANSFER_DST_OPTIMAL", "SHADER_READ_ONLY_OPTIMAL", "ATTACHMENT_OPTIMAL"]


class Img:
    def __init__(self, name, fmt, layout):
        self.name, self.fmt, self.layout = name, fmt, layout

    @property
    def depth(self):
        return self.fmt != "R8G8B8A8_UNORM"

    @property
    def aspects(self):
        return {"R8G8B8A8_UNORM": "COLOR", "D32_SFLOAT": "DEPTH", "D24_UNORM_S8_UINT": "DEPTH|STENCIL"}[self.fmt]

    def sub(self):
        return f"{self.aspects}:0:0"


def scope(r, stages_pool, allow_none=True, fb_only=False, read_only=False, no_access=False):
    """STAGES:ACCESS with accesses the stages support."""
    pool = [s for s in stages_pool if (not fb_only or s in FB)]
    if not allow_none:
        pool = [s for s in pool if s != "NONE"]
    k = r.choice([1, 1, 1, 2, 2, 3])
    st = sorted(set(r.sample(pool, min(k, len(pool)))))
    if "NONE" in st:
        st = ["NONE"]
    acc = set()
    if not no_access and st != ["NONE"]:
        cand = sorted({a for s in st for a in SUPPORT.get(s, [])} | ({"MEMORY_READ", "MEMORY_WRITE"} if r.random() < 0.1 else set()))
        if read_only:
            cand = [a for a in cand if a not in WRITES]
        if cand and r.random() < 0.85:
            acc = set(r.sample(cand, min(len(cand), r.choice([1, 1, 2, 3]))))
    a = "|".join(sorted(acc)) if acc else "NONE"
    return "|".join(st) + ":" + a


def gen_rp(r, name, imgs, two_instances_same=False):
    """Returns (decl, nsub, subpass descriptions, attachment list)."""
    natt = len(imgs)
    nsub = r.choice([1, 2, 2, 3, 3])
    # uses[s][a] = None | ("color"|"depth"|"input", layout)
    uses = [[None] * natt for _ in range(nsub)]
    for s in range(nsub):
        for a, im in enumerate(imgs):
            if r.random() < 0.6:
                if im.depth:
                    if r.random() < 0.2:
                        uses[s][a] = ("input", r.choice(INPUT_SUB[:1] + D32_RO[:2] if im.fmt == "D32_SFLOAT" else ["GENERAL"] + D24_RO))
                    elif r.random() < 0.2:
                        uses[s][a] = ("depth", r.choice(D32_RO if im.fmt == "D32_SFLOAT" else D24_RO))
                    else:
                        uses[s][a] = ("depth", r.choice(D32_SUB if im.fmt == "D32_SFLOAT" else D24_SUB))
                else:
                    if r.random() < 0.2:
                        uses[s][a] = ("input", r.choice(INPUT_SUB))
                    else:
                        uses[s][a] = ("color", r.choice(COLOR_SUB))
        # at most one depth attachment per subpass
        ds = [a for a in range(natt) if uses[s][a] and uses[s][a][0] == "depth"]
        for a in ds[1:]:
            uses[s][a] = None
    for a, im in enumerate(imgs):
        if not any(uses[s][a] for s in range(nsub)):
            s = r.randrange(nsub)
            if im.depth:
                if any(uses[s][b] and uses[s][b][0] == "depth" for b in range(natt)):
                    uses[s][a] = ("input", "GENERAL")
                else:
                    uses[s][a] = ("depth", r.choice(D32_SUB if im.fmt == "D32_SFLOAT" else D24_SUB))
            else:
                uses[s][a] = ("color", r.choice(COLOR_SUB))
    atts = []
    for a, im in enumerate(imgs):
        io = COLOR_IO if not im.depth else (D32_IO if im.fmt == "D32_SFLOAT" else D24_IO)
        init = "UNDEFINED" if r.random() < 0.45 else (im.layout if im.layout != "UNDEFINED" and r.random() < 0.6 else r.choice(io))
        if init in ("TRANSFER_DST_OPTIMAL",) and r.random() < 0.5:
            init = "UNDEFINED"
        fin = r.choice(io)
        load = r.choice(["LOAD", "CLEAR", "DONT_CARE", "NONE"])
        store = r.choice(["STORE", "DONT_CARE", "NONE"])
        # VUID-VkRenderPassCreateInfo2-pAttachments-02522/02523: a clear
        # needs a first use in a layout that allows its write (replaced
        # without drawing again, so that other seeds keep their programs).
        first = next(uses[s][a][1] for s in range(nsub) if uses[s][a])
        if load == "CLEAR" and first in READ_ONLY_FOR_CLEAR:
            load = "DONT_CARE"
        st = ""
        if im.fmt == "D24_UNORM_S8_UINT":
            sload = r.choice(['LOAD','CLEAR','DONT_CARE','NONE'])
            if sload == "CLEAR" and first in READ_ONLY_FOR_STENCIL_CLEAR:
                sload = "DONT_CARE"
            st = f" stencil {sload} {r.choice(['STORE','DONT_CARE','NONE'])}"
        atts.append((f"attachment {im.fmt} {load} {store}{st} {init}->{fin}", init, fin))
    subs = []
    for s in range(nsub):
        parts = []
        for a in range(natt):
            u = uses[s][a]
            if u and u[0] == "input":
                parts.append(f"input {a} {u[1]}")
        for a in range(natt):
            u = uses[s][a]
            if u and u[0] == "color":
                parts.append(f"color {a} {u[1]}")
        for a in range(natt):
            u = uses[s][a]
            if u and u[0] == "depth":
                parts.append(f"depth {a} {u[1]}")
        for a in range(natt):
            if uses[s][a] is None and r.random() < 0.2:
                parts.append(f"preserve {a}")
        subs.append("subpass" + ("" if not parts else " " + " ".join(parts)))
    deps = []
    selfdeps = {}
    for _ in range(r.choice([0, 1, 2, 2, 3, 3, 4, 5])):
        kind = r.random()
        byr = r.random() < 0.25
        if kind < 0.3:
            src, dst = "EXTERNAL", r.randrange(nsub)
            f = scope(r, EXT_STAGES)
            g = scope(r, GFX_SRC)
        elif kind < 0.55:
            src, dst = r.randrange(nsub), "EXTERNAL"
            f = scope(r, GFX_SRC)
            g = scope(r, EXT_STAGES)
        elif kind < 0.85 and nsub > 1:
            src = r.randrange(nsub - 1)
            dst = r.randrange(src + 1, nsub)
            f = scope(r, GFX_SRC)
            g = scope(r, GFX_SRC)
        else:
            # self-dependency
            src = dst = r.randrange(nsub)
            if r.random() < 0.5:
                f = scope(r, ["VERTEX_SHADER", "VERTEX_ATTRIBUTE_INPUT"], allow_none=False)
                g = scope(r, ["VERTEX_SHADER", "FRAGMENT_SHADER", "EARLY_FRAGMENT_TESTS"], allow_none=False, read_only=r.random() < 0.5)
                byr = byr and all(x.split("|")[0] in FB for x in [])
            else:
                f = scope(r, sorted(FB), allow_none=False)
                g = scope(r, sorted(FB), allow_none=False)
                byr = True
        # special shapes
        x = r.random()
        if x < 0.12:
            g = "NONE:NONE"
        elif x < 0.22:
            f = "NONE:NONE" if r.random() < 0.5 else "NONE"
        if src == dst and (f.startswith("NONE") or g.startswith("NONE")):
            continue
        if src == dst:
            selfdeps.setdefault(src, []).append((f, g))
        if byr and src != dst:
            # by-region is meaningful between framebuffer stages; allow anything
            pass
        deps.append(f"dependency {src}->{dst} {f} -> {g}" + (" by-region" if byr else ""))
    if r.random() < 0.5:
        full = []
        W = lambda: r.choice(["MEMORY_WRITE", "MEMORY_WRITE", "COLOR_ATTACHMENT_WRITE|DEPTH_STENCIL_ATTACHMENT_WRITE|SHADER_STORAGE_WRITE", "NONE", "COLOR_ATTACHMENT_WRITE"])
        R = lambda: r.choice(["MEMORY_READ|MEMORY_WRITE", "MEMORY_READ|MEMORY_WRITE", "NONE", "COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE|DEPTH_STENCIL_ATTACHMENT_READ|DEPTH_STENCIL_ATTACHMENT_WRITE|SHADER_STORAGE_READ|INPUT_ATTACHMENT_READ"])
        if r.random() < 0.8:
            full.append((lambda sst: f"dependency EXTERNAL->0 {sst}:{W() if sst=='ALL_COMMANDS' else ('TRANSFER_WRITE' if sst=='COPY|CLEAR' else 'NONE')} -> {r.choice(['ALL_GRAPHICS','ALL_COMMANDS'])}:{R()}")(r.choice(['ALL_COMMANDS','ALL_COMMANDS','COPY|CLEAR','NONE'])))
        for k in range(nsub - 1):
            if r.random() < 0.8:
                full.append(f"dependency {k}->{k+1} ALL_GRAPHICS:{W()} -> ALL_GRAPHICS:{R()}" + (" by-region" if r.random() < 0.2 else ""))
        if r.random() < 0.8:
            full.append(f"dependency {nsub-1}->EXTERNAL {r.choice(['ALL_GRAPHICS','ALL_COMMANDS'])}:{W()} -> " + r.choice(['ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE','COPY:TRANSFER_READ|TRANSFER_WRITE','COPY:TRANSFER_READ','NONE:NONE','ALL_COMMANDS:NONE']))
        deps = full + deps
    decl = f"render-pass {name} " + " ; ".join([a[0] for a in atts] + subs + deps)
    return decl, nsub, uses, atts, selfdeps


def draw(r, uses_s, imgs, bufs):
    parts = ["draw vertexCount=3"]
    if r.random() < 0.3:
        parts.append(f"vertex {r.choice(bufs)} 0 16")
    used = set()
    for _ in range(r.choice([0, 1, 1, 2])):
        b = r.choice(bufs)
        if b in used:
            continue
        used.add(b)
        parts.append(f"{r.choice(['fs', 'fs', 'vs'])} {r.choice(['read', 'write', 'read', 'rw'])} {b}[0..256]")
    has_depth = any(u and u[0] == "depth" for u in uses_s)
    ro = any(u and u[0] == "depth" and ("READ_ONLY" in u[1]) for u in uses_s)
    if has_depth and r.random() < 0.6:
        parts.append("depth-test")
        if not ro and r.random() < 0.6:
            parts.append("depth-write")
    has_color = any(u and u[0] == "color" for u in uses_s)
    if has_color and r.random() < 0.3:
        parts.append("blend")
    if has_color and r.random() < 0.15:
        parts.append("no-color-write")
    return " ".join(parts)


OUT_BARRIERS = [
    "ALL_COMMANDS:NONE -> NONE:NONE",
    "ALL_COMMANDS:MEMORY_WRITE -> NONE:NONE",
    "ALL_COMMANDS:NONE -> COPY:TRANSFER_READ",
    "ALL_COMMANDS:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE",
    "ALL_COMMANDS:MEMORY_WRITE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE",
    "COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COPY:TRANSFER_READ",
    "LATE_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_WRITE -> COPY:TRANSFER_READ",
    "FRAGMENT_SHADER:SHADER_STORAGE_WRITE -> COPY:TRANSFER_READ|TRANSFER_WRITE",
    "CLEAR|COPY:TRANSFER_WRITE -> NONE:NONE",
    "CLEAR|COPY:TRANSFER_WRITE -> FRAGMENT_SHADER|VERTEX_SHADER:SHADER_STORAGE_READ",
    "BOTTOM_OF_PIPE:NONE -> COPY:TRANSFER_READ",
    "ALL_COMMANDS:NONE -> FRAGMENT_SHADER:SHADER_STORAGE_READ|SHADER_STORAGE_WRITE",
    "NONE:NONE -> ALL_COMMANDS:NONE",
    "COPY:TRANSFER_WRITE -> VERTEX_ATTRIBUTE_INPUT:VERTEX_ATTRIBUTE_READ",
]


def outside(r, bufs, imgs, lines):
    c = r.random()
    if c < 0.25:
        lines.append(f"fill {r.choice(bufs)}[0..256] {r.randrange(5)}")
    elif c < 0.45:
        a, b = r.sample(bufs, 2)
        lines.append(f"copy {a}[0..256] -> {b}[0..256]")
    elif c < 0.75:
        lines.append("barrier " + r.choice(OUT_BARRIERS))
    elif c < 0.85:
        im = r.choice(imgs)
        if im.layout in ("TRANSFER_SRC_OPTIMAL", "GENERAL"):
            lines.append(f"copy-image-to-buffer {im.name} {im.layout} -> out imageSubresource={im.aspects.split('|')[0]}:0:0 imageExtent=4,4,1")
        else:
            lines.append(f"fill {r.choice(bufs)}[0..256] 7")
    else:
        im = r.choice(imgs)
        if im.layout in ("TRANSFER_DST_OPTIMAL", "GENERAL") and not im.depth:
            lines.append(f"copy-buffer-to-image out -> {im.name} {im.layout} imageSubresource=COLOR:0:0 imageExtent=4,4,1")
        else:
            lines.append(f"copy {r.choice(bufs)}[0..256] -> out[0..256]")


def transition(r, im, new, lines):
    old = im.layout if r.random() < 0.85 else "UNDEFINED"
    f = r.choice(["ALL_COMMANDS:NONE", "ALL_COMMANDS:MEMORY_WRITE", "NONE:NONE", "COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE",
                  "COPY:TRANSFER_WRITE", "LATE_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_WRITE", "COPY:TRANSFER_READ"])
    g = r.choice(["NONE:NONE", "ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE", "COPY:TRANSFER_READ", "COPY:TRANSFER_WRITE",
                  "COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE", "EARLY_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_READ|DEPTH_STENCIL_ATTACHMENT_WRITE"])
    lines.append(f"barrier {f} -> {g} {im.name} {im.sub()} {old}->{new}")
    im.layout = new


def prog(seed):
    r = random.Random(seed)
    bufs = ["sb", "sb2", "vb"]
    decls = ["buffer sb 256", "buffer sb2 256", "buffer vb 256", "buffer out 1024"]
    imgs = []
    ncol = r.choice([1, 1, 2])
    for i in range(ncol):
        lay = r.choice(["UNDEFINED", "UNDEFINED", "GENERAL", "COLOR_ATTACHMENT_OPTIMAL", "TRANSFER_SRC_OPTIMAL"])
        imgs.append(Img(f"col{i}", "R8G8B8A8_UNORM", lay))
    if r.random() < 0.55:
        fmt = r.choice(["D32_SFLOAT", "D32_SFLOAT", "D24_UNORM_S8_UINT"])
        lay = r.choice(["UNDEFINED", "UNDEFINED", "GENERAL"])
        imgs.append(Img("dep", fmt, lay))
    for im in imgs:
        decls.append(f"image {im.name} {im.fmt} 4x4" + (f" initial {im.layout}" if im.layout != "UNDEFINED" else ""))
    lines = []
    ninst = r.choice([1, 1, 2])
    rps = []
    for inst in range(ninst):
        for _ in range(r.choice([0, 1, 1, 2, 3])):
            outside(r, bufs, imgs, lines)
        pimgs = [im for im in imgs if r.random() < 0.8] or [imgs[0]]
        reuse = inst > 0 and r.random() < 0.4 and rps and rps[-1][1] == [im.name for im in pimgs]
        if reuse:
            name, _, nsub, uses, atts, selfdeps = rps[-1]
        else:
            name = f"rp{inst}"
            decl, nsub, uses, atts, selfdeps = gen_rp(r, name, pimgs)
            decls.append(decl)
            rps.append((name, [im.name for im in pimgs], nsub, uses, atts, selfdeps))
        # layouts for begin
        for a, im in enumerate(pimgs):
            init = atts[a][1]
            if init != "UNDEFINED" and im.layout != init:
                transition(r, im, init, lines)
            elif r.random() < 0.15:
                outside(r, bufs, imgs, lines)
        views = " ; ".join(f"{im.name} {im.sub()}" for im in pimgs)
        lines.append(f"begin-render-pass {name} {views}")
        for s in range(nsub):
            if s:
                lines.append("next-subpass")
            n = r.choice([0, 1, 1, 2, 3])
            for i in range(n):
                if r.random() < 0.12:
                    cs = [u for u in uses[s] if u and u[0] == "color"]
                    ds = [u for u in uses[s] if u and u[0] == "depth"]
                    p = []
                    if cs:
                        p.append(f"color {r.randrange(len(cs))}")
                    if ds and "READ_ONLY" not in ds[0][1]:
                        p.append("depth")
                    if p:
                        lines.append("clear-attachments " + " ; ".join(p))
                        continue
                if i > 0 and s in selfdeps and r.random() < 0.4:
                    f, g = r.choice(selfdeps[s])
                    lines.append(f"barrier {f} -> {g}")
                lines.append(draw(r, uses[s], pimgs, bufs))
        lines.append("end-render-pass")
        for a, im in enumerate(pimgs):
            im.layout = atts[a][2]
    # after: copies of images
    for _ in range(r.choice([0, 1, 2, 3])):
        if r.random() < 0.5:
            im = r.choice(imgs)
            if im.layout not in ("TRANSFER_SRC_OPTIMAL", "GENERAL"):
                transition(r, im, "TRANSFER_SRC_OPTIMAL", lines)
            if r.random() < 0.3:
                lines.append("barrier " + r.choice(OUT_BARRIERS))
            lines.append(f"copy-image-to-buffer {im.name} {im.layout} -> out imageSubresource={im.aspects.split('|')[0]}:0:0 imageExtent=4,4,1")
        else:
            outside(r, bufs, imgs, lines)
    return "\n".join(decls + lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(prog(int(sys.argv[1])))
