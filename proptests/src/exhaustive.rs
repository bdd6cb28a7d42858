//! Small-scope exhaustive checking: every program of up to K commands over
//! a small alphabet, and a brute-force search for the fewest barrier points
//! and bits a program needs.
//!
//! The alphabet ([`ALPHABET`]) has device commands over two 12-byte
//! buffers of three 4-byte cells (copies, a fill, dispatches with read,
//! write and read-write bindings, an indirect dispatch), host accesses,
//! `submit` and `wait`, and barriers drawn from a set of masks that covers
//! `TOP_OF_PIPE`, `BOTTOM_OF_PIPE`, `ALL_COMMANDS`, `NONE`, meta stages and
//! accesses, a buffer barrier, a call with two barriers, and a call whose
//! second barrier performs an image layout transition (which writes). Each program is
//! enumerated over two memory layouts ([`LAYOUTS`]): separate buffers, and
//! `b` aliasing the last two cells of `a`'s memory. Programs are text
//! (trace lines), so a failure prints as a trace. A third alphabet
//! ([`IMAGE_ALPHABET`]) has exact images: two images of a few
//! subresources, one linear and aliasing a buffer, with transitions,
//! copies, blits, clears and storage and sampled image dispatches. A
//! fourth ([`GRAPHICS_ALPHABET`]) has rendering instances (one color and
//! one depth attachment, load and store operations, draws reading a vertex
//! buffer that aliases a storage buffer written by dispatches) among
//! dispatches, copies and clears: each of its entries is a whole instance
//! or one command outside one, so every sequence is valid.
//!
//! The brute force ([`min_points`], [`min_bits`]) knows nothing of the
//! planners: it places full barriers on subsets of the gaps between
//! commands to find the fewest points, then searches single global
//! barriers of concrete flags (stages and accesses the program's commands
//! make; no meta flag) at those gaps by increasing total bit count, and
//! decides race freedom with the definitional semantics.

use vksync::spec::{races, Reading};
use vksync::spec::{validate, Side};
use vksync::vk::{AccessFlags2 as A, PipelineStageFlags2 as S};
use vksync::{Barrier, Command, Dependency, Program};

/// The memory declarations each program is enumerated with.
pub const LAYOUTS: [&str; 2] = [
    "buffer a 12\nbuffer b 12\n",
    "buffer m 16\nbuffer a 12 alias m 0\nbuffer b 12 alias m 4\n",
];

/// The command alphabet (trace lines).
pub const ALPHABET: &[&str] = &[
    "fill a[0..12] 1",
    "copy a[0..4] -> b[0..4]",
    "copy b[4..12] -> a[0..8]",
    "dispatch k read b[0..4] write a[8..12]",
    "dispatch k rw a[4..8]",
    "dispatch k indirect b[0..12] write a[0..4]",
    "host-write a[0..8] 5",
    "host-read b[0..12]",
    "submit",
    "wait",
    "barrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_READ",
    "barrier CLEAR:TRANSFER_WRITE -> COPY:NONE",
    "barrier COMPUTE_SHADER:SHADER_WRITE -> ALL_TRANSFER:TRANSFER_READ|TRANSFER_WRITE",
    "barrier ALL_COMMANDS:MEMORY_WRITE -> ALL_COMMANDS|HOST:MEMORY_READ|MEMORY_WRITE",
    "barrier TOP_OF_PIPE:NONE -> BOTTOM_OF_PIPE:NONE",
    "barrier BOTTOM_OF_PIPE:NONE -> TOP_OF_PIPE:NONE",
    "barrier COPY|COMPUTE_SHADER:NONE -> CLEAR|DRAW_INDIRECT:NONE",
    "barrier ALL_TRANSFER:MEMORY_WRITE -> HOST:HOST_READ",
    "barrier COMPUTE_SHADER:SHADER_WRITE -> COPY:TRANSFER_READ a[0..4]",
    "barrier CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:NONE; COMPUTE_SHADER:NONE -> COPY|DRAW_INDIRECT:MEMORY_READ",
    "barrier COPY:NONE -> CLEAR:NONE; COMPUTE_SHADER:SHADER_WRITE -> COPY:TRANSFER_READ a[4..12] transition",
];

/// How many leading entries of [`ALPHABET`] are not barriers.
pub const NON_BARRIERS: usize = 10;

/// The declarations of the multi-queue alphabet's programs: two queues of
/// different families, an exclusive buffer `a` and a concurrent `b`, a
/// binary and a timeline semaphore.
pub const MULTI_QUEUE_HEADER: &str = "queue qa family 0
queue qb family 1
semaphore s
semaphore t timeline
buffer a 8 exclusive
buffer b 8
";

/// The multi-queue alphabet: device and host accesses, submits to either
/// queue with binary and timeline waits and signals (in `ALL_COMMANDS` and
/// in narrower stages), `wait QUEUE`, `host-wait`, a release and an
/// acquire of `a` from family 0 to family 1, and barriers. Sequences whose
/// semaphore operations are invalid (a binary wait with no pending signal)
/// are refused by the parser and skipped.
pub const MULTI_QUEUE_ALPHABET: &[&str] = &[
    "fill a[0..8] 1",
    "copy a[0..4] -> b[0..4]",
    "dispatch k read b[0..4] write a[4..8]",
    "host-read a[0..8]",
    "submit qa",
    "submit qb",
    "submit qa signal s@ALL_COMMANDS",
    "submit qb wait s@ALL_COMMANDS",
    "submit qb wait s@COPY signal t:1@COMPUTE_SHADER",
    "submit qa wait t:1@ALL_COMMANDS",
    "wait qb",
    "host-wait t 1",
    "barrier CLEAR:TRANSFER_WRITE -> NONE:NONE a[0..8] ownership 0->1",
    "barrier NONE:NONE -> COPY:TRANSFER_READ a[0..8] ownership 0->1",
    "barrier ALL_COMMANDS:MEMORY_WRITE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE",
    "barrier COPY:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_READ",
];

/// The declarations of the image alphabet's programs: a 2x2 `R8_UNORM`
/// image `t` of 2 mips and 2 layers (10 notional bytes, its own memory), a
/// linear 2x1 `R32_UINT` image `l` bound at byte 8 of `m`, a buffer `b`
/// over bytes 0..16 of `m` (so `b[8..16]` is `l`'s texels), a staging
/// buffer `s`; both images are first moved to `GENERAL` by a transition
/// whose second scope holds every later access, so every sequence of the
/// alphabet is valid.
pub const IMAGE_HEADER: &str = "buffer m 32
buffer b 16 alias m 0
buffer s 16
image t R8_UNORM 2x2 mips 2 layers 2
image l R32_UINT 2x1 linear alias m 8
barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE t COLOR:0..:0.. UNDEFINED->GENERAL
barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE l COLOR:0:0 UNDEFINED->GENERAL
";

/// The image alphabet: buffer-image copies of single rows (disjoint rows
/// of one subresource, both layers), a blit and a copy between mips and
/// layers of one image, a clear of the linear image, storage and sampled
/// image dispatches, a fill through the buffer that aliases the linear
/// image; then barriers: a transition from `UNDEFINED` whose second scope
/// has no access, an image barrier without transition, a global barrier,
/// a transition of the linear image, an image barrier whose range is
/// two byte ranges (layer 1 of both mips), a transition with empty scopes
/// and two barriers that hold transitions through `ALL_COMMANDS` (first
/// scope with `MEMORY_WRITE`, second scope: `docs/semantics.md`, "Layout
/// transitions and `ALL_COMMANDS`").
pub const IMAGE_ALPHABET: &[&str] = &[
    "copy-buffer-to-image s -> t GENERAL imageSubresource=COLOR:0:0 imageExtent=2,1,1",
    "copy-image-to-buffer t GENERAL -> s bufferOffset=4 imageSubresource=COLOR:0:0..2 imageOffset=0,1,0 imageExtent=2,1,1",
    "blit-image t GENERAL -> t GENERAL srcSubresource=COLOR:0:1 srcOffsets=0,0,0:2,2,1 dstSubresource=COLOR:1:1 dstOffsets=0,0,0:1,1,1",
    "copy-image t GENERAL -> t GENERAL srcSubresource=COLOR:1:0 dstSubresource=COLOR:0:1 dstOffset=1,1,0 extent=1,1,1",
    "clear-color-image l GENERAL COLOR:0:0",
    "dispatch k image-rw t COLOR:1:0.. read b[8..12]",
    "dispatch k sampled-image t COLOR:0:0.. GENERAL write b[0..12]",
    "fill b[4..16] 0",
    "submit",
    "barrier NONE:NONE -> ALL_COMMANDS:NONE t COLOR:0..:0.. UNDEFINED->GENERAL",
    "barrier ALL_TRANSFER:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_STORAGE_READ|SHADER_SAMPLED_READ t COLOR:0:0.. GENERAL->GENERAL",
    "barrier COMPUTE_SHADER:SHADER_WRITE -> ALL_TRANSFER:TRANSFER_READ|TRANSFER_WRITE",
    "barrier CLEAR:TRANSFER_WRITE -> COMPUTE_SHADER:SHADER_READ l COLOR:0:0 UNDEFINED->GENERAL",
    "barrier COPY|BLIT:TRANSFER_WRITE -> BLIT|COPY:TRANSFER_READ|TRANSFER_WRITE t COLOR:0..:1 GENERAL->GENERAL",
    "barrier NONE:NONE -> NONE:NONE l COLOR:0:0 UNDEFINED->GENERAL",
    "barrier ALL_COMMANDS:MEMORY_WRITE -> COMPUTE_SHADER:SHADER_READ",
    "barrier ALL_TRANSFER:TRANSFER_WRITE -> ALL_COMMANDS:NONE",
];

/// How many leading entries of [`IMAGE_ALPHABET`] are not barriers.
pub const IMAGE_NON_BARRIERS: usize = 9;

/// The declarations of the graphics alphabet's programs: a storage buffer
/// `s` over bytes 0..16 of `m`, a vertex buffer `v` over bytes 8..24 (so
/// `v[0..8]` is `s[8..16]`), a 2x2 `R8_UNORM` color image `c` and a 1x1
/// `D32_SFLOAT` depth image `d` and a 2x2 `R8_UNORM` resolve target `r`,
/// all first moved to `GENERAL` by a transition whose second scope holds
/// every later access.
pub const GRAPHICS_HEADER: &str = "buffer m 32
buffer s 16 alias m 0
buffer v 16 alias m 8
image c R8_UNORM 2x2
image d D32_SFLOAT 1x1
image r R8_UNORM 2x2
barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE c COLOR:0:0 UNDEFINED->GENERAL
barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE d DEPTH:0:0 UNDEFINED->GENERAL
barrier NONE:NONE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE r COLOR:0:0 UNDEFINED->GENERAL
render-pass rp1 attachment R8_UNORM LOAD STORE GENERAL->GENERAL ; attachment D32_SFLOAT CLEAR STORE GENERAL->GENERAL ; subpass color 0 GENERAL depth 1 GENERAL ; dependency EXTERNAL->0 COPY|CLEAR:TRANSFER_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ ; dependency 0->0 VERTEX_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ
render-pass rp2 attachment R8_UNORM CLEAR STORE GENERAL->GENERAL ; subpass color 0 COLOR_ATTACHMENT_OPTIMAL ; subpass color 0 GENERAL ; dependency 0->1 FRAGMENT_SHADER|COLOR_ATTACHMENT_OUTPUT:SHADER_WRITE|COLOR_ATTACHMENT_WRITE -> VERTEX_ATTRIBUTE_INPUT|COLOR_ATTACHMENT_OUTPUT:VERTEX_ATTRIBUTE_READ|COLOR_ATTACHMENT_WRITE by-region
render-pass rp3 attachment R8_UNORM LOAD STORE GENERAL->GENERAL ; subpass ; subpass ; subpass color 0 GENERAL ; dependency EXTERNAL->0 COPY|CLEAR|COMPUTE_SHADER:TRANSFER_WRITE|SHADER_WRITE -> ALL_GRAPHICS:MEMORY_READ|MEMORY_WRITE ; dependency EXTERNAL->2 COPY|CLEAR:TRANSFER_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE ; dependency 0->1 FRAGMENT_SHADER:SHADER_WRITE -> FRAGMENT_SHADER:NONE ; dependency 1->EXTERNAL FRAGMENT_SHADER:NONE -> COMPUTE_SHADER:SHADER_READ|SHADER_WRITE ; dependency 2->EXTERNAL ALL_GRAPHICS:MEMORY_WRITE -> COPY|CLEAR|COMPUTE_SHADER:TRANSFER_READ|TRANSFER_WRITE|SHADER_READ|SHADER_WRITE
render-pass rp4 attachment R8_UNORM LOAD STORE GENERAL->GENERAL ; subpass color 0 GENERAL ; subpass input 0 SHADER_READ_ONLY_OPTIMAL ; dependency 0->1 COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER:INPUT_ATTACHMENT_READ by-region
";

/// The graphics alphabet: whole rendering instances (a color attachment
/// loaded and stored with a draw reading `v`; cleared with two draws, one
/// writing `s` from the fragment shader and one blending; with the depth
/// attachment tested and written and an indexed draw reading its indices
/// from `s`; with `NONE` load and store operations; loaded, blended and
/// resolved into `r`; two in a row are two instances, which nothing
/// orders), a dispatch writing
/// `s`, a sampled read of `c` in a dispatch, a clear of `c`, a copy of `c`
/// to `s`, a `submit`; then barriers: the dispatch's write to the vertex
/// input, the attachments' writes to transfer and compute, transfer writes
/// to the attachment stages, the fragment shader's write to compute, and
/// a global `ALL_GRAPHICS` one, a color write to a color write only (a
/// blend's read is not in it) and a depth write in `LATE_FRAGMENT_TESTS`
/// to `EARLY_FRAGMENT_TESTS` (the two depth stages' chains). Two render
/// pass instances come before the dispatch: `rp1` (one subpass, color and
/// depth, an `EXTERNAL->0` dependency from transfer writes, a
/// self-dependency and a barrier inside the subpass between a vertex
/// shader's write of `s` and a fragment shader's read of it, whose scopes
/// hold no command outside the subpass, a draw and a depth
/// `clear-attachments`) and `rp2` (two subpasses with layout
/// transitions at the begin and between them, a `by-region` dependency:
/// the fragment shader's write to `s` and a vertex read of `v`, which
/// aliases it, are not ordered by it), and `rp3` (three subpasses: the
/// first without attachments reads and writes `s` in its shaders, the
/// second is empty, the third loads and blends `c`; `EXTERNAL->0` and
/// `2->EXTERNAL` dependencies whose scopes are those subpasses only, so
/// `c`'s load and store are not in them, nor is `s` in `2->EXTERNAL`'s;
/// `EXTERNAL->2`, which skips two boundaries, from transfer writes to
/// `c`'s load and store; and `0->1` then `1->EXTERNAL`, a chain through
/// the empty subpass from the fragment shader's write of `s` to compute),
/// and `rp4` (deferred shading: subpass 0 draws `c`, subpass 1 reads it
/// as an input attachment in `SHADER_READ_ONLY_OPTIMAL`, through a
/// `by-region` dependency from the color write to the input read and the
/// layout transitions between the subpasses and back at the end).
pub const GRAPHICS_ALPHABET: &[&str] = &[
    "begin-rendering color c COLOR:0:0 GENERAL LOAD STORE\ndraw vertexCount=2 vertex v 0 8\nend-rendering",
    "begin-rendering color c COLOR:0:0 GENERAL CLEAR STORE\ndraw vertexCount=1 vertex v 0 8 fs write s[8..16]\ndraw vertexCount=1 blend\nend-rendering",
    "begin-rendering color c COLOR:0:0 GENERAL DONT_CARE STORE ; depth d DEPTH:0:0 GENERAL LOAD DONT_CARE\ndraw-indexed indexCount=2 index s 4 u16 depth-test depth-write\nend-rendering",
    "begin-rendering color c COLOR:0:0 GENERAL NONE NONE\ndraw vertexCount=1 vs read s[0..4] no-color-write\nend-rendering",
    "begin-rendering color c COLOR:0:0 GENERAL LOAD NONE resolve r COLOR:0:0 GENERAL\ndraw vertexCount=1 blend\nend-rendering",
    "begin-render-pass rp1 c COLOR:0:0 ; d DEPTH:0:0\ndraw vertexCount=1 vs write s[0..4] no-color-write\nbarrier VERTEX_SHADER:SHADER_STORAGE_WRITE -> FRAGMENT_SHADER:SHADER_STORAGE_READ\ndraw vertexCount=1 depth-test depth-write blend fs read s[0..4]\nclear-attachments depth\nend-render-pass",
    "begin-render-pass rp2 c COLOR:0:0\ndraw vertexCount=1 fs write s[8..16]\nnext-subpass\ndraw vertexCount=2 vertex v 0 8\nend-render-pass",
    "begin-render-pass rp3 c COLOR:0:0\ndraw vertexCount=1 vs read s[0..4] fs write s[8..12] no-color-write\nnext-subpass\nnext-subpass\ndraw vertexCount=1 blend\nend-render-pass",
    "begin-render-pass rp4 c COLOR:0:0\ndraw vertexCount=1\nnext-subpass\ndraw vertexCount=1\nend-render-pass",
    "dispatch k write s[0..16]",
    "dispatch k sampled-image c COLOR:0:0 GENERAL write s[0..4]",
    "clear-color-image c GENERAL COLOR:0:0",
    "copy-image-to-buffer c GENERAL -> s bufferOffset=12 imageSubresource=COLOR:0:0 imageExtent=2,2,1",
    "submit",
    "barrier COMPUTE_SHADER:SHADER_WRITE -> VERTEX_ATTRIBUTE_INPUT|INDEX_INPUT:VERTEX_ATTRIBUTE_READ|INDEX_READ",
    "barrier COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COPY|CLEAR|COMPUTE_SHADER:TRANSFER_READ|TRANSFER_WRITE|SHADER_SAMPLED_READ",
    "barrier COPY|CLEAR:TRANSFER_WRITE -> COLOR_ATTACHMENT_OUTPUT|VERTEX_SHADER:COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE|SHADER_STORAGE_READ",
    "barrier FRAGMENT_SHADER:SHADER_WRITE -> COMPUTE_SHADER:SHADER_WRITE",
    "barrier ALL_GRAPHICS:MEMORY_WRITE -> ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE",
    "barrier COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE -> COLOR_ATTACHMENT_OUTPUT:COLOR_ATTACHMENT_WRITE",
    "barrier LATE_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_WRITE -> EARLY_FRAGMENT_TESTS:DEPTH_STENCIL_ATTACHMENT_READ|DEPTH_STENCIL_ATTACHMENT_WRITE",
];

/// How many leading entries of [`GRAPHICS_ALPHABET`] are not barriers.
pub const GRAPHICS_NON_BARRIERS: usize = 14;

/// The program text of a sequence of alphabet indices over a layout.
pub fn text(layout: &str, seq: &[usize]) -> String {
    text_of(ALPHABET, layout, seq)
}

/// [`text`] over another alphabet.
pub fn text_of(alphabet: &[&str], layout: &str, seq: &[usize]) -> String {
    let mut t = layout.to_string();
    for &i in seq {
        t.push_str(alphabet[i]);
        t.push('\n');
    }
    t
}

/// Calls `f` with every sequence of exactly `len` indices below `n`.
pub fn for_each_sequence(n: usize, len: usize, mut f: impl FnMut(&[usize])) {
    let mut seq = vec![0usize; len];
    loop {
        f(&seq);
        let mut i = len;
        loop {
            if i == 0 {
                return;
            }
            i -= 1;
            seq[i] += 1;
            if seq[i] < n {
                break;
            }
            seq[i] = 0;
        }
    }
}

/// Whether a program has no race under the definitional semantics with
/// `reading`.
pub fn race_free(p: &Program, reading: Reading) -> bool {
    races(p, reading).map(|r| r.is_empty()).unwrap_or(false)
}

/// The program with a barrier command before each command index in
/// `gaps` (sorted), each holding `barriers[i]`.
fn with_barriers(p: &Program, gaps: &[usize], barriers: &[Barrier]) -> Program {
    let mut commands = Vec::with_capacity(p.commands().len() + gaps.len());
    let mut next = 0;
    for (i, c) in p.commands().iter().enumerate() {
        while next < gaps.len() && gaps[next] == i {
            commands.push(Command::Barrier(Dependency {
                barriers: vec![barriers[next]],
            }));
            next += 1;
        }
        commands.push(c.clone());
    }
    Program::from_parts(p.objects().to_vec(), commands).expect("barriers over valid programs stay valid")
}

/// The gaps a barrier can go in: before each device command but the first.
fn gaps(p: &Program) -> Vec<usize> {
    let device: Vec<usize> = (0..p.commands().len())
        .filter(|&i| vksync::is_device_command(&p.commands()[i]))
        .collect();
    device.into_iter().skip(1).collect()
}

fn full_barrier() -> Barrier {
    let rw = A::MEMORY_READ | A::MEMORY_WRITE;
    Barrier::global(S::ALL_COMMANDS, rw, S::ALL_COMMANDS, rw)
}

/// The fewest barrier points that make a device-only, barrier-free
/// program race-free, found by placing full barriers on every subset of
/// gaps in order of size; `None` if even a barrier in every gap does not.
pub fn min_points(p: &Program, reading: Reading) -> Option<(usize, Vec<Vec<usize>>)> {
    let g = gaps(p);
    for k in 0..=g.len() {
        let mut found = Vec::new();
        for_each_subset(&g, k, |chosen| {
            let full = vec![full_barrier(); chosen.len()];
            if race_free(&with_barriers(p, chosen, &full), reading) {
                found.push(chosen.to_vec());
            }
        });
        if !found.is_empty() {
            return Some((k, found));
        }
    }
    None
}

fn for_each_subset(items: &[usize], k: usize, mut f: impl FnMut(&[usize])) {
    fn rec(items: &[usize], k: usize, start: usize, cur: &mut Vec<usize>, f: &mut dyn FnMut(&[usize])) {
        if cur.len() == k {
            f(cur);
            return;
        }
        for i in start..items.len() {
            cur.push(items[i]);
            rec(items, k, i + 1, cur, f);
            cur.pop();
        }
    }
    rec(items, k, 0, &mut Vec::new(), &mut f);
}

/// The concrete stage and access flags a program's commands make (what a
/// minimal barrier can need).
fn concrete_flags(p: &Program) -> (Vec<S>, Vec<A>) {
    let layout = vksync::resolve(p).expect("valid program");
    let mut stages = Vec::new();
    let mut accesses = Vec::new();
    for c in p.commands() {
        for a in vksync::accesses(c, &layout, vksync::Semantics::SPEC).expect("its own layout") {
            let (s, x) = (a.sa.stage().flag(), a.sa.access());
            if !stages.contains(&s) {
                stages.push(s);
            }
            if !accesses.contains(&x) {
                accesses.push(x);
            }
        }
    }
    (stages, accesses)
}

/// Every valid global barrier over the given concrete flags with a
/// source and a destination stage (a barrier without either orders
/// nothing, and a plan with the fewest points has none), with its bit
/// count, fewest bits first.
fn candidate_barriers(stages: &[S], accesses: &[A]) -> Vec<(usize, Barrier)> {
    let subsets = |n: usize| 0u32..(1 << n);
    let pick_s = |m: u32| {
        stages
            .iter()
            .enumerate()
            .filter(|(i, _)| m & (1 << i) != 0)
            .fold(S::NONE, |a, (_, s)| a | *s)
    };
    let pick_a = |m: u32| {
        accesses
            .iter()
            .enumerate()
            .filter(|(i, _)| m & (1 << i) != 0)
            .fold(A::NONE, |x, (_, a)| x | *a)
    };
    let mut src = Vec::new();
    let mut dst = Vec::new();
    for sm in subsets(stages.len()).filter(|m| *m != 0) {
        for am in subsets(accesses.len()) {
            let (st, ac) = (pick_s(sm), pick_a(am));
            let bits = (sm.count_ones() + am.count_ones()) as usize;
            if validate(st, ac, Side::First).is_ok() {
                src.push((bits, st, ac));
            }
            if validate(st, ac, Side::Second).is_ok() {
                dst.push((bits, st, ac));
            }
        }
    }
    let mut out: Vec<(usize, Barrier)> = src
        .iter()
        .flat_map(|&(b1, s1, a1)| {
            dst.iter()
                .map(move |&(b2, s2, a2)| (b1 + b2, Barrier::global(s1, a1, s2, a2)))
        })
        .collect();
    out.sort_by_key(|(b, _)| *b);
    out
}

/// The fewest stage and access bits over plans with the fewest points,
/// each point one global barrier of concrete flags (a point's several
/// barriers can always be merged into one with no more bits: the merged
/// masks are the unions, and larger scopes order at least as much). Every
/// choice of gaps that [`min_points`] found is tried, with every
/// assignment of candidate barriers whose bits add up to `bits` = 0, 1, 2,
/// ... The search decides race freedom with the fast checker and confirms
/// the answer with the definitional semantics. `None` when no plan within
/// `max_bits` exists.
pub fn min_bits(p: &Program, max_bits: usize, reading: Reading) -> Option<usize> {
    min_bits_plan(p, max_bits, reading).map(|(bits, _)| bits)
}

/// [`min_bits`], with a plan that has that many bits. `reading` decides
/// what race-free means, for the search and its confirmation alike.
pub fn min_bits_plan(p: &Program, max_bits: usize, reading: Reading) -> Option<(usize, Program)> {
    let (_, choices) = min_points(p, reading)?;
    let (stages, accesses) = concrete_flags(p);
    let candidates = candidate_barriers(&stages, &accesses);
    let sem = vksync::Semantics::for_reading(reading);
    let clean = |q: &Program| vksync::check_with(q, sem).map(|h| h.is_empty()).unwrap_or(false);
    // Adding bits to a barrier never adds a hazard, so a candidate that is
    // not clean at its gap with full barriers at the others is never part
    // of a clean plan: each gap keeps only the candidates that pass that.
    let per_gap: Vec<Vec<Vec<(usize, Barrier)>>> = choices
        .iter()
        .map(|gaps| {
            (0..gaps.len())
                .map(|i| {
                    let mut barriers = vec![full_barrier(); gaps.len()];
                    candidates
                        .iter()
                        .filter(|&&(_, c)| {
                            barriers[i] = c;
                            clean(&with_barriers(p, gaps, &barriers))
                        })
                        .copied()
                        .collect()
                })
                .collect()
        })
        .collect();
    for bits in 0..=max_bits {
        for (gaps, candidates) in choices.iter().zip(&per_gap) {
            let mut chosen: Vec<Barrier> = Vec::with_capacity(gaps.len());
            if let Some(q) = assign(p, gaps, candidates, bits, &mut chosen, &clean) {
                assert!(
                    race_free(&q, reading),
                    "the fast checker and the definitional semantics differ on\n{}",
                    vksync::trace::print(&q)
                );
                return Some((bits, q));
            }
        }
    }
    None
}

/// Tries every assignment of candidates to the remaining gaps whose bits
/// add up to `left`; returns the first clean plan.
fn assign(
    p: &Program,
    gaps: &[usize],
    candidates: &[Vec<(usize, Barrier)>],
    left: usize,
    chosen: &mut Vec<Barrier>,
    clean: &dyn Fn(&Program) -> bool,
) -> Option<Program> {
    if chosen.len() == gaps.len() {
        if left != 0 {
            return None;
        }
        let q = with_barriers(p, gaps, chosen);
        return clean(&q).then_some(q);
    }
    let remaining_points = gaps.len() - chosen.len() - 1;
    for &(b, barrier) in &candidates[chosen.len()] {
        // Every later point needs at least two bits.
        if b + 2 * remaining_points > left {
            break;
        }
        if remaining_points == 0 && b != left {
            continue;
        }
        chosen.push(barrier);
        let found = assign(p, gaps, candidates, left - b, chosen, clean);
        chosen.pop();
        if found.is_some() {
            return found;
        }
    }
    None
}
