//! What a validation layer reports for a program, predicted: the model's
//! checker run under a layer's [`Semantics`], plus the behaviours no
//! semantics toggle expresses because they are about *when and how much*
//! the layer looks, not about what orders what (K1-K4 of
//! `docs/testing.md`):
//!
//! * **K1, one command buffer at a time.** A layer that validates at
//!   record time only starts every command buffer from an empty state. The
//!   runtime ends a command buffer at `submit` and before each host access
//!   (its implicit submit), so the prediction starts afresh there.
//! * **K2, no host accesses.** The layer records no host access: host reads
//!   and writes are neither checked nor recorded.
//! * **K3, one report per access.** The layer's range detection stops at
//!   the first hazard (lowest address) of an access. A dispatch
//!   write-after-write the layer suppresses (D6) is dropped after that, so
//!   it can hide a write-after-read above it. An image barrier's layout
//!   transition is one access over its subresource range, however many
//!   byte ranges (barrier parts) the model holds it as.
//! * **K4, an unrecorded tail (1.3.239 only).** See [`recorded_range`].
//!
//! Semaphores are outside [`predict`] (the runtime turns the layer's
//! submit-time validation off, and without it the layer sees no
//! semaphore). [`on_one_queue`] gives what a layer with submit-time
//! validation orders across the batches of one device queue, with either
//! reading of a semaphore's access scopes (D20).
//!
//! The prediction is exact, not a tolerance: the differential suites
//! require the layer's report to *equal* it. This module owns that
//! emulation; it does not talk to a layer (the runtime captures messages)
//! and it does not decide which layer the runtime has ([`super::Layer`]).

use super::{Emulation, SemaphoreScopes, VertexReads};
use crate::hazard::{apply_dependency, lift, Hazard};
use crate::ir::access::{accesses, Access};
use crate::ir::error::{Location, ProgramErrorKind};
use crate::ir::image::{Filter, ImageOp};
use crate::ir::layout::{resolve, Layout, MemRange, ProgramError};
use crate::ir::program::{Barrier, ByteRange, Command, Dependency, Program};
use crate::ir::queue::{QueueId, SemaphoreSignal, Submission, WaitFor};
use crate::semantics::Semantics;
use crate::sync::checker::{Checker, HazardKind, PieceHazards, RawHazard};
use crate::vk::flags::{AccessFlags2 as A, PipelineStageFlags2 as S};
use crate::vk::scope::StageAccess;

/// The hazards the layer described by `emulation` reports for `program`,
/// each at the command being recorded when it is reported.
pub fn predict(program: &Program, emulation: &Emulation) -> Result<Vec<Hazard>, ProgramError> {
    // K3: of the pieces of a run an access races, the layer names the
    // first; the others would be dropped below.
    let pieces = if emulation.first_hazard_only {
        PieceHazards::First
    } else {
        PieceHazards::Each
    };
    predict_with(program, emulation, pieces)
}

/// [`predict`], the checker naming `pieces` of a run (its tests ask both).
pub(crate) fn predict_with(
    program: &Program,
    emulation: &Emulation,
    pieces: PieceHazards,
) -> Result<Vec<Hazard>, ProgramError> {
    let layout = resolve(program)?;
    program.require_single_queue()?;
    crate::hazard::refuse_far_subpass_scopes(program)?;
    // D6 is a reporting filter in the layer (`SupressedBoundDescriptorWAW`),
    // applied after detection stopped at the first hazard of the range (K3):
    // a suppressed write-after-write at a lower address hides a
    // write-after-read above it. So detect without D6 and filter afterwards.
    let suppress = emulation.semantics.suppress_dispatch_waw;
    let sem = Semantics {
        suppress_dispatch_waw: false,
        ..emulation.semantics
    };
    let fresh = || {
        let mut c = Checker::with_semantics(layout.memory_sizes.len(), sem);
        c.set_pieces(pieces);
        c
    };
    let mut checker = fresh();
    // K4: the byte ranges the layer holds access state for, per memory
    // object, in the current command buffer.
    let mut entries = Recorded::new(layout.memory_sizes.len());
    let mut out = Vec::new();
    // D22: inside a `begin-rendering` instance that a layer without
    // dynamic rendering support does not see.
    let mut unseen_instance = false;
    for (i, c) in program.commands.iter().enumerate() {
        if let Command::Render(rc) = c {
            if rc.op.begins_instance() {
                unseen_instance =
                    !emulation.dynamic_rendering && matches!(rc.op, crate::ir::render::RenderOp::Begin(_));
            }
        }
        match c {
            // The runtime submits the open command buffer at `submit` and
            // before a host access; the next device command opens a new one.
            Command::Submit(_) | Command::HostRead { .. } | Command::HostWrite { .. } => {
                checker = fresh();
                entries = Recorded::new(layout.memory_sizes.len());
            }
            // Waiting does not close a command buffer.
            Command::Wait(_) => {}
            Command::Barrier(dep) => {
                // A layout transition is checked as the layer checks it: a
                // write against its barrier's first scopes (with D12, the
                // reads since the last write when there are any), the first
                // hazard of its range only (K3). K4 is not applied to it:
                // images are never run, so there is no layer to match.
                let mut found = apply_dependency(&mut checker, &layout, i, dep);
                if emulation.first_hazard_only {
                    // The range is the image barrier's whole subresource
                    // range: one `VkImageMemoryBarrier2` of several mips or
                    // layers is several byte ranges here (one barrier part
                    // each), walked by the layer in address order as one.
                    let key = |a: &Access| {
                        dep.barriers
                            .iter()
                            .find(|b| b.transition && b.region == Some(a.region))
                            .and_then(|b| b.image)
                            .ok_or(*a)
                    };
                    let mut firsts: Vec<(RawHazard, Access)> = Vec::new();
                    for (h, a) in found.drain(..) {
                        match firsts.iter_mut().find(|(_, b)| key(b) == key(&a)) {
                            Some(first) if h.range.start < first.0.range.start => *first = (h, a),
                            Some(_) => {}
                            None => firsts.push((h, a)),
                        }
                    }
                    found = firsts;
                }
                out.extend(found.iter().map(|(h, a)| lift(h, a)));
            }
            _ => {
                // The layer orders a rendering instance's attachment
                // accesses as the spec does (syncval's design: the load
                // operation's "effective barrier", rasterization order, the
                // store operation after the draws): the implicit
                // dependencies (`crate::ir::render`). A layer that does
                // not see the instance (D22) applies none of them.
                let unseen = unseen_instance && matches!(c, Command::Render(_));
                if let Command::Render(rc) = c {
                    if unseen {
                        // Nothing to order: only the draws' other accesses
                        // are seen (below).
                    } else {
                        // A render pass's subpass dependencies and layout
                        // transitions, as a barrier just before. Their
                        // scopes are the subpasses they name, as the
                        // spec's: syncval resolves a subpass's accesses
                        // through the dependencies into that subpass only.
                        let found = crate::hazard::apply_pre_barriers(&mut checker, &layout, i, rc);
                        out.extend(found.iter().map(|(h, a)| lift(h, a)));
                        crate::hazard::apply_implicit(&mut checker, &layout, i, rc);
                    }
                }
                // D30: a blit's source as the layer records it, the region
                // whatever the filter.
                let nearest = (emulation.blit_region_only)
                    .then(|| blit_with_nearest(program, c))
                    .flatten();
                let mut acc = accesses(nearest.as_ref().unwrap_or(c), &layout, sem);
                if let (true, Command::Render(rc)) = (emulation.vertex_reads != VertexReads::Fetched, c) {
                    if let crate::ir::render::RenderOp::Draw(d) = &rc.op {
                        // D24, D26: the layer's vertex buffer ranges.
                        acc.retain(|a| a.sa != StageAccess::VertexAttributeInputVertexAttributeRead);
                        for v in &d.vertex {
                            if let Some(region) = layer_vertex_region(program, d, v, emulation.vertex_reads) {
                                let at = layout.at(region);
                                acc.push(Access {
                                    region,
                                    mem: at.mem,
                                    range: at.range,
                                    sa: StageAccess::VertexAttributeInputVertexAttributeRead,
                                });
                            }
                        }
                    }
                }
                if let (true, Some(buffer)) = (emulation.buffer_image_copy_hull, image_copy_buffer(c)) {
                    // D25: one range per buffer side, padding included.
                    let mut hulls: Vec<Access> = Vec::new();
                    acc.retain(|a| {
                        if a.region.object != buffer {
                            return true;
                        }
                        match hulls.iter_mut().find(|h| h.sa == a.sa && h.mem == a.mem) {
                            Some(h) => {
                                h.region.range = ByteRange::new(
                                    h.region.range.start.min(a.region.range.start),
                                    h.region.range.end.max(a.region.range.end),
                                );
                                h.range = ByteRange::new(
                                    h.range.start.min(a.range.start),
                                    h.range.end.max(a.range.end),
                                );
                            }
                            None => hulls.push(*a),
                        }
                        false
                    });
                    acc.extend(hulls);
                }
                if unseen {
                    // D22: no load, store, resolve or draw attachment access.
                    acc.retain(|a| !is_attachment(a.sa));
                }
                if !emulation.shader_accesses {
                    // D10: only a dispatch's indirect read is seen.
                    acc.retain(|a| {
                        !matches!(
                            a.sa,
                            StageAccess::ComputeShaderStorageRead | StageAccess::ComputeShaderStorageWrite
                        )
                    });
                }
                for a in &acc {
                    let mut raw = checker.detect(i, std::slice::from_ref(a));
                    if emulation.first_hazard_only {
                        raw.sort_by_key(|h| h.range.start);
                        raw.truncate(1);
                    }
                    if suppress {
                        raw.retain(|h| {
                            !(h.kind == HazardKind::WriteAfterWrite
                                && h.current == StageAccess::ComputeShaderStorageWrite
                                && h.prior == StageAccess::ComputeShaderStorageWrite)
                        });
                    }
                    out.extend(raw.iter().map(|h| lift(h, a)));
                }
                if emulation.unrecorded_tail && emulation.shader_accesses {
                    // K4: what the layer records of each access, in its
                    // recording order (which decides the map it records
                    // into).
                    let (slots, slot_of) = layer_slots(c, &acc, &layout, sem);
                    let mut recorded = Vec::with_capacity(slots.len());
                    for s in &slots {
                        recorded.push(match s {
                            Slot::Buffer(at) => {
                                let m = at.mem.0 as usize;
                                let r = entries.range(m, at.range);
                                entries.push(m, r);
                                r
                            }
                            // A storage image's bytes are in the layer's
                            // other address space: not cut by this map and
                            // not put in it (`Slot::Image`).
                            Slot::Image(at) => at.range,
                        });
                    }
                    for (a, &s) in acc.iter_mut().zip(&slot_of) {
                        a.range = recorded[s];
                    }
                    // A buffer-image copy's buffer side (one range, D25) is
                    // recorded in the same map as every buffer access; its
                    // image side is not: the layer keeps images of optimal
                    // tiling (all the runtime creates) in a second address
                    // space ("idealized"), so they are never above a buffer
                    // in this map. Without this, a fill over bytes such a
                    // copy read was recorded whole here and cut by the layer
                    // (7 of 2,403 H200 runs of the image suite, 2026-12-02).
                    if let Some(buffer) = image_copy_buffer(c) {
                        for a in acc.iter_mut().filter(|a| a.region.object == buffer) {
                            let m = a.mem.0 as usize;
                            let r = entries.range(m, a.range);
                            entries.push(m, r);
                            a.range = r;
                        }
                    }
                }
                checker.record(i, &acc);
            }
        }
    }
    Ok(out)
}

/// D31: `program` without the barriers the layer may skip, so that its
/// prediction is the most such a layer reports ([`Emulation`]'s
/// `repeated_barriers_skipped`). Each pipeline barrier of exactly one
/// global memory barrier whose stage and access masks equal those of such a
/// barrier recorded earlier in the same command buffer (K1: the runtime
/// ends one at `submit` and before a host access) orders nothing here; it
/// stays in place as a barrier of no memory barrier, so every command keeps
/// its index. Layers 1.4.338 and later keep each such barrier once per
/// command buffer (up to eight distinct ones) and replay the list on an
/// access state when it is next touched, skipping a barrier that already
/// applied to that state in the same replay: a read that the barriers
/// between brought into its first scope then misses it. A single buffer or
/// image barrier's execution dependency takes the same path in those
/// layers; it is not left out here.
pub fn without_repeated_barriers(program: &Program) -> Program {
    let mut out = program.clone();
    let mut seen: Vec<(S, A, S, A)> = Vec::new();
    for c in &mut out.commands {
        match c {
            Command::Submit(_) | Command::HostRead { .. } | Command::HostWrite { .. } => seen.clear(),
            Command::Barrier(dep) => {
                let [b] = dep.barriers.as_slice() else {
                    continue;
                };
                if b.region.is_some() || b.image.is_some() || b.ownership.is_some() || b.transition {
                    continue;
                }
                let masks = (
                    b.src_stage_mask,
                    b.src_access_mask,
                    b.dst_stage_mask,
                    b.dst_access_mask,
                );
                if seen.contains(&masks) {
                    dep.barriers.clear();
                } else {
                    seen.push(masks);
                }
            }
            _ => {}
        }
    }
    out
}

/// D31: the most a layer that skips repeated barriers
/// ([`Emulation`]'s `repeated_barriers_skipped`) may report for `program`:
/// the prediction for [`without_repeated_barriers`] with every hazard of
/// each access (K3 off: a skipped barrier can put a new hazard below the
/// one K3 names in the prediction). [`predict`] is the least.
pub fn predict_most(program: &Program, emulation: &Emulation) -> Result<Vec<Hazard>, ProgramError> {
    let every = Emulation {
        first_hazard_only: false,
        ..*emulation
    };
    predict(&without_repeated_barriers(program), &every)
}

/// D24, D26: the bytes of vertex binding `v` a layer records for draw `d`
/// ([`VertexReads`]). Cut at the buffer's end; `None` when nothing is
/// left or the layer records no read of the binding.
fn layer_vertex_region(
    program: &Program,
    d: &crate::ir::render::Draw,
    v: &crate::ir::render::VertexBuffer,
    reads: VertexReads,
) -> Option<crate::ir::program::Region> {
    if reads == VertexReads::Layer1_4
        && (v.rate == crate::ir::render::VertexRate::Instance
            || matches!(
                d.kind,
                crate::ir::render::DrawKind::Indirect { .. }
                    | crate::ir::render::DrawKind::IndirectCount { .. }
            ))
    {
        return None;
    }
    let size = program.object(v.buffer).map_or(0, |o| o.size);
    let (start, end) = match d.kind {
        crate::ir::render::DrawKind::Draw {
            vertex_count,
            first_vertex,
            ..
        } => {
            let start = v
                .offset
                .saturating_add(u64::from(first_vertex).saturating_mul(v.stride));
            (
                start,
                start.saturating_add(u64::from(vertex_count).saturating_mul(v.stride)),
            )
        }
        _ => (v.offset, size),
    };
    let end = end.min(size);
    (start < end).then_some(crate::ir::program::Region {
        object: v.buffer,
        range: ByteRange::new(start, end),
    })
}

/// A program with several queues and semaphores as one device queue runs
/// it (lavapipe's single queue runs every queue of a trace, in trace
/// order): each semaphore wait becomes a global barrier at the start of
/// its batch, from the signal it pairs with (the latest earlier signal of
/// its semaphore, of a value at least the wait's for a timeline) to the
/// wait, with the access scopes `scopes` gives them (D20); every submit
/// goes to the first queue. `origin[i]`: the command of `program` that
/// lowered command `i` stands for (the waiting submit, for a barrier).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OneQueue {
    /// The program on one queue.
    pub program: Program,
    /// For each of its commands, the original command's index.
    pub origin: Vec<usize>,
}

/// [`OneQueue`] for `program`. Refuses (as
/// [`ProgramErrorKind::MultiQueueNotSupported`]) a wait with no earlier
/// signal to pair with, and host semaphore operations.
pub fn on_one_queue(program: &Program, scopes: SemaphoreScopes) -> Result<OneQueue, ProgramError> {
    let refuse = |i: usize, what: &str| ProgramError {
        at: Location::Command(i),
        kind: ProgramErrorKind::MultiQueueNotSupported {
            what: what.to_string(),
        },
    };
    let mut commands = Vec::with_capacity(program.commands.len());
    let mut origin = Vec::with_capacity(program.commands.len());
    let mut signals: Vec<SemaphoreSignal> = Vec::new();
    // Where the open batch starts in `commands`.
    let mut batch_start = 0;
    for (i, c) in program.commands.iter().enumerate() {
        match c {
            Command::Submit(sub) => {
                let mut barriers = Vec::new();
                for w in &sub.waits {
                    let paired = signals
                        .iter()
                        .rev()
                        .find(|s| s.semaphore == w.semaphore && s.value >= w.value)
                        .ok_or_else(|| refuse(i, "a semaphore wait with no earlier signal"))?;
                    let (src_stage_mask, src_access_mask) =
                        semaphore_scope(paired.stages, S::BOTTOM_OF_PIPE, A::MEMORY_WRITE, scopes);
                    let (dst_stage_mask, dst_access_mask) =
                        semaphore_scope(w.stages, S::TOP_OF_PIPE, A::MEMORY_READ | A::MEMORY_WRITE, scopes);
                    barriers.push(Barrier {
                        src_stage_mask,
                        src_access_mask,
                        dst_stage_mask,
                        dst_access_mask,
                        region: None,
                        transition: false,
                        ownership: None,
                        image: None,
                    });
                }
                if !barriers.is_empty() {
                    commands.insert(batch_start, Command::Barrier(Dependency { barriers }));
                    origin.insert(batch_start, i);
                }
                signals.extend(sub.signals.iter().copied());
                commands.push(Command::Submit(Submission {
                    queue: QueueId(0),
                    waits: Vec::new(),
                    signals: Vec::new(),
                }));
                origin.push(i);
                batch_start = commands.len();
            }
            Command::Wait(WaitFor::Queue(_)) => {
                commands.push(Command::Wait(WaitFor::All));
                origin.push(i);
            }
            Command::HostSignal { .. } | Command::HostWait { .. } => {
                return Err(refuse(i, "a host semaphore operation"));
            }
            _ => {
                commands.push(c.clone());
                origin.push(i);
            }
        }
    }
    let mut one = program.clone();
    one.commands = commands;
    Ok(OneQueue { program: one, origin })
}

/// The stage and access masks of a barrier that stands for a semaphore
/// operation's half with stage mask `stages`: `pipe` is the stage that is
/// `ALL_COMMANDS` with no access on that side (`BOTTOM_OF_PIPE` for a
/// signal, `TOP_OF_PIPE` for a wait). The specification's access scope is
/// every device access in the synchronization scope, so `pipe` becomes
/// `ALL_COMMANDS` with `all`; the older layers keep `pipe` as a barrier
/// has it, and access only what the other stages named make.
fn semaphore_scope(stages: S, pipe: S, all: A, scopes: SemaphoreScopes) -> (S, A) {
    match scopes {
        SemaphoreScopes::Device if stages.contains(pipe) => ((stages - pipe) | S::ALL_COMMANDS, all),
        _ if (stages - S::TOP_OF_PIPE - S::BOTTOM_OF_PIPE).is_empty() => (stages, A::NONE),
        _ => (stages, all),
    }
}

/// K4, a recording bug of the 1.3.239 layer (`UpdateMemoryAccessState`,
/// `synchronization_validation.cpp` lines 1754-1791 at v1.3.239; fixed by
/// "syncval: New generic range traversal", first in v1.3.256): a command
/// buffer keeps one range map over a fake address space in which memory
/// objects lie in allocation order (`MemId` order here: the runtime
/// allocates them in the layout's order). An access that overlaps recorded
/// state is filled in only up to the next entry above it, so when nothing
/// is recorded above it anywhere in the map, the part past the topmost
/// entry is never recorded, and a later access there draws no hazard.
/// Leading and inner gaps are recorded; detection has no such gap.
/// `recorded[m]`: what the layer recorded so far in this command buffer in
/// memory object `m`. Exact: it matches the layer on 37 hand-written
/// traces (`docs/testing.md`) and on every random comparison of the suites.
pub fn recorded_range(recorded: &[Vec<ByteRange>], mem: usize, range: ByteRange) -> ByteRange {
    let mut r = Recorded::new(recorded.len());
    for (m, ranges) in recorded.iter().enumerate() {
        for &e in ranges {
            r.push(m, e);
        }
    }
    r.range(mem, range)
}

/// What the 1.3.239 layer recorded so far in one command buffer, kept so
/// that [`recorded_range`]'s question costs O(log n) in the ranges
/// recorded, not O(n) (a command buffer of 65,535 small copies made
/// [`predict`] quadratic: 30 s). Per memory object: the union of the
/// non-empty ranges recorded (disjoint, adjacent ones joined: a range
/// overlaps the union exactly when it overlaps one of them), the empty
/// ones apart (`ByteRange::overlaps` holds for an empty range strictly
/// inside another; never seen, kept for exactness), and the highest end;
/// and the highest memory object with anything recorded.
#[derive(Clone, Debug, Default)]
struct Recorded {
    mems: Vec<RecordedIn>,
    /// The highest memory object with a recorded range, if any.
    top_mem: Option<usize>,
}

#[derive(Clone, Debug, Default)]
struct RecordedIn {
    /// Start -> end of the disjoint, non-adjacent union of the non-empty
    /// ranges recorded.
    union: std::collections::BTreeMap<u64, u64>,
    empty: Vec<ByteRange>,
    /// The highest end recorded (empty ranges included).
    top: Option<u64>,
}

impl Recorded {
    fn new(mems: usize) -> Self {
        Recorded {
            mems: vec![RecordedIn::default(); mems],
            top_mem: None,
        }
    }

    /// Records `r` in memory object `mem` (which [`Recorded::new`] counted).
    fn push(&mut self, mem: usize, r: ByteRange) {
        self.top_mem = self.top_mem.max(Some(mem));
        let here = &mut self.mems[mem];
        here.top = here.top.max(Some(r.end));
        if r.start >= r.end {
            here.empty.push(r);
            return;
        }
        // Join every range of the union that overlaps or touches `r`.
        let (mut start, mut end) = (r.start, r.end);
        let joined: Vec<(u64, u64)> = here
            .union
            .range(..=r.end)
            .rev()
            .take_while(|&(_, &e)| e >= r.start)
            .map(|(&s, &e)| (s, e))
            .collect();
        for (s, e) in joined {
            here.union.remove(&s);
            start = start.min(s);
            end = end.max(e);
        }
        here.union.insert(start, end);
    }

    /// [`recorded_range`]'s answer for this state.
    fn range(&self, mem: usize, range: ByteRange) -> ByteRange {
        let Some(here) = self.mems.get(mem) else {
            return range;
        };
        // The union's intervals are sorted by start and by end alike, so
        // the last one starting below `range.end` reaches highest.
        let overlaps = here
            .union
            .range(..range.end)
            .next_back()
            .is_some_and(|(_, &e)| e > range.start)
            || here.empty.iter().any(|e| e.overlaps(range));
        if !overlaps || self.top_mem.is_some_and(|t| t > mem) {
            return range;
        }
        match here.top {
            Some(top) => ByteRange::new(range.start, range.end.min(top)),
            None => range,
        }
    }
}

/// The order the 1.3.239 layer records a dispatch's storage bindings in:
/// the hash order of the shader's SPIR-V variable ids
/// (`shader_module.cpp`), measured for the runtime's kernels as naga
/// compiles them (traces c1-c8 of `docs/testing.md`). Rebuilding the
/// kernels with another compiler can change it; the differential suites
/// would then fail on K4 keys.
fn binding_record_order(kernel: &str, n: usize) -> Vec<usize> {
    match kernel {
        "scale_add" | "slow" if n == 2 => vec![1, 0],
        _ => (0..n).collect(),
    }
}

/// D30: blit `c` with `NEAREST` in place of its `LINEAR` or `CUBIC_EXT`
/// filter, whose accesses are the source region's texels only, as the
/// layers record a blit's source; `None` for every other command.
fn blit_with_nearest(program: &Program, c: &Command) -> Option<Command> {
    let Command::Image(ic) = c else { return None };
    let ImageOp::BlitImage { filter, .. } = ic.op else {
        return None;
    };
    if filter == Filter::Nearest {
        return None;
    }
    let mut op = ic.op.clone();
    if let ImageOp::BlitImage { filter, .. } = &mut op {
        *filter = Filter::Nearest;
    }
    program.image_command(op).ok()
}

/// The buffer of a `vkCmdCopyBufferToImage` or `vkCmdCopyImageToBuffer`
/// (D25 takes the hull of its side of the copy; K4 records that side,
/// [`layer_slots`] covering the buffer commands and dispatches).
fn image_copy_buffer(c: &Command) -> Option<crate::ir::program::ObjectId> {
    use crate::ir::image::ImageOp;
    match c {
        Command::Image(ic) => match &ic.op {
            ImageOp::CopyBufferToImage { buffer, .. } | ImageOp::CopyImageToBuffer { buffer, .. } => {
                Some(*buffer)
            }
            _ => None,
        },
        _ => None,
    }
}

/// One range [`layer_slots`] gives the layer's recording, by the map it
/// goes to.
#[derive(Clone, Copy, Debug)]
enum Slot {
    /// Recorded in the buffer map (the linear address space), where K4
    /// cuts it.
    Buffer(MemRange),
    /// A dispatch's storage or sampled image, a draw's attachment (an
    /// entry that keeps the slots of [`draw_slots`] one per access): the
    /// 1.3.239 layer keeps an
    /// image of optimal tiling (all the runtime creates) in its second map,
    /// the "idealized" address space (`GetAccessAddressType`), so the
    /// access neither is cut by the buffer map nor becomes its topmost
    /// entry. Before this, a dispatch's image binding counted as an entry
    /// above every buffer (images are declared after the buffers, so their
    /// memory objects come last), and a later fill of a staging buffer was
    /// predicted recorded whole where the layer cut it (K4): the
    /// `READ_AFTER_WRITE` the layer did not report at a later copy's read
    /// above the cut (`tests/layer-versions/k4-dispatch-image.trace`).
    /// What K4 does inside the idealized map is not emulated (as for the
    /// image side of a copy).
    Image(MemRange),
}

/// The ranges the layer records for a command, in its order (a copy: its
/// source, then its destination; a dispatch: its bindings in
/// [`binding_record_order`], then the indirect buffer; a draw:
/// [`draw_slots`]), each with the map it goes to, and for each access of
/// `acc` (the command's [`accesses`], a draw's vertex reads as the layer
/// has them) the index of its range.
fn layer_slots(c: &Command, acc: &[Access], layout: &Layout, sem: Semantics) -> (Vec<Slot>, Vec<usize>) {
    match c {
        Command::Render(rc) => match &rc.op {
            crate::ir::render::RenderOp::Draw(d) => draw_slots(d, acc),
            _ => (vec![], vec![]),
        },
        Command::Copy { src, dst } => (
            vec![Slot::Buffer(layout.at(*src)), Slot::Buffer(layout.at(*dst))],
            vec![0, 1],
        ),
        Command::Fill { dst, .. } | Command::Update { dst, .. } => {
            (vec![Slot::Buffer(layout.at(*dst))], vec![0])
        }
        Command::Dispatch {
            kernel,
            bindings,
            indirect,
            ..
        } => {
            let order = binding_record_order(kernel, bindings.len());
            let mut slots: Vec<Slot> = order
                .iter()
                .map(|&b| {
                    let at = layout.at(bindings[b].region);
                    if bindings[b].access.is_image() {
                        Slot::Image(at)
                    } else {
                        Slot::Buffer(at)
                    }
                })
                .collect();
            let slot = |b: usize| order.iter().position(|&x| x == b).unwrap_or(b);
            let mut of = Vec::new();
            // `accesses` lists the indirect read first, then per binding its
            // read and its write.
            if let Some(ind) = indirect {
                slots.push(Slot::Buffer(layout.at(*ind)));
                of.push(slots.len() - 1);
            }
            for (i, b) in bindings.iter().enumerate() {
                for _ in b.access.stage_accesses(sem.rw_binding_write_only) {
                    of.push(slot(i));
                }
            }
            (slots, of)
        }
        _ => (vec![], vec![]),
    }
}

/// A draw's [`layer_slots`]: the 1.3.239 layer records a draw's buffer
/// reads in the buffer map, so K4 cuts them as it cuts a copy's
/// (`tests/layer-versions/k4-draw-vertex.trace`: a 6-vertex draw's
/// instance-rate read of `rec[0..96]` after a 3-vertex draw's `rec[0..48]`
/// is recorded as `rec[0..48]` only, and the dispatch writing `rec[0..256]`
/// after a barrier over `rec[0..48]` draws no `WRITE_AFTER_READ` from that
/// layer). Its order (`PreCallRecordCmdDraw*` at v1.3.239): the descriptor
/// bindings, the attachments, the indirect records, the count, the index
/// buffer, the vertex bindings; the model's [`accesses`] list the count
/// first, then the records, the index and vertex reads, the bindings (a
/// read-write binding as two accesses of one range) and the attachments.
/// Attachments and image view bindings are images, in the layer's other
/// address space ([`Slot::Image`]). Not matched: the layer records one range for more
/// than `MAX_SEPARATE_RECORDS` indirect records, where the model has their
/// hull, and only the first record of a count draw (the runtime runs
/// neither).
fn draw_slots(d: &crate::ir::render::Draw, acc: &[Access]) -> (Vec<Slot>, Vec<usize>) {
    use crate::ir::render::DrawKind;
    let at = |a: &Access| MemRange {
        mem: a.mem,
        range: a.range,
    };
    // (the layer's order, the slot) per range, in the model's order.
    let mut keyed: Vec<(u8, Slot)> = Vec::new();
    let mut of_keyed = Vec::with_capacity(acc.len());
    let mut count_seen = !matches!(d.kind, DrawKind::IndirectCount { .. });
    for (i, a) in acc.iter().enumerate() {
        let key = match a.sa {
            sa if is_attachment(sa) => 1,
            StageAccess::DrawIndirectIndirectCommandRead if !count_seen => {
                count_seen = true;
                3
            }
            StageAccess::DrawIndirectIndirectCommandRead => 2,
            StageAccess::IndexInputIndexRead => 4,
            StageAccess::VertexAttributeInputVertexAttributeRead => 5,
            _ => 0,
        };
        // A read-write binding's write shares its read's range.
        if key == 0 && i > 0 && acc[i - 1].region == a.region && keyed.last().is_some_and(|(k, _)| *k == 0) {
            of_keyed.push(keyed.len() - 1);
            continue;
        }
        // An image view binding is in the image address space too, as a
        // dispatch's.
        let image_binding = key == 0
            && d.bindings
                .iter()
                .any(|b| b.binding.region == a.region && b.binding.access.is_image());
        keyed.push((
            key,
            if key == 1 || image_binding {
                Slot::Image(at(a))
            } else {
                Slot::Buffer(at(a))
            },
        ));
        of_keyed.push(keyed.len() - 1);
    }
    let mut order: Vec<usize> = (0..keyed.len()).collect();
    order.sort_by_key(|&k| keyed[k].0);
    let mut rank = vec![0; keyed.len()];
    for (r, &k) in order.iter().enumerate() {
        rank[k] = r;
    }
    (
        order.iter().map(|&k| keyed[k].1).collect(),
        of_keyed.iter().map(|&k| rank[k]).collect(),
    )
}

/// An attachment access (load, store, resolve, a draw's depth/stencil
/// tests and color output): always on an image.
fn is_attachment(sa: StageAccess) -> bool {
    matches!(
        sa,
        StageAccess::EarlyFragmentTestsDepthStencilRead
            | StageAccess::EarlyFragmentTestsDepthStencilWrite
            | StageAccess::LateFragmentTestsDepthStencilRead
            | StageAccess::LateFragmentTestsDepthStencilWrite
            | StageAccess::ColorAttachmentOutputColorRead
            | StageAccess::ColorAttachmentOutputColorWrite
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `recorded_range` over a map where memory object `m` holds `entries`.
    #[test]
    fn the_tail_is_cut_only_at_the_top_of_the_map() {
        let r = |s, e| ByteRange::new(s, e);
        // (recorded per memory object, memory, access range, recorded range)
        type Case = (&'static [&'static [(u64, u64)]], usize, (u64, u64), (u64, u64));
        let cases: &[Case] = &[
            // Nothing overlapping: recorded whole.
            (&[&[(100, 104)], &[]], 0, (0, 64), (0, 64)),
            // Overlapping, nothing above: cut at the topmost end.
            (&[&[(0, 4)], &[]], 0, (0, 256), (0, 4)),
            (&[&[(0, 4), (40, 44)], &[]], 0, (0, 64), (0, 44)),
            // Something recorded in a later memory object: whole.
            (&[&[(0, 4)], &[(8, 12)]], 0, (0, 256), (0, 256)),
            // An entry of the same object above the range's end is the top.
            (&[&[(0, 4), (200, 204)]], 0, (0, 64), (0, 64)),
        ];
        for (maps, mem, (s, e), (ws, we)) in cases {
            let recorded: Vec<Vec<ByteRange>> = maps
                .iter()
                .map(|m| m.iter().map(|&(a, b)| r(a, b)).collect())
                .collect();
            assert_eq!(
                recorded_range(&recorded, *mem, r(*s, *e)),
                r(*ws, *we),
                "{maps:?} {mem} {s}..{e}"
            );
        }
    }

    /// The incremental state answers as the definition does (scan every
    /// recorded range: the body `recorded_range` had), on pseudo-random
    /// pushes and questions over three memory objects, empty ranges
    /// included.
    #[test]
    fn the_incremental_state_agrees_with_the_scan() {
        fn by_scan(recorded: &[Vec<ByteRange>], mem: usize, range: ByteRange) -> ByteRange {
            let here = &recorded[mem];
            if !here.iter().any(|e| e.overlaps(range)) || recorded[mem + 1..].iter().any(|v| !v.is_empty()) {
                return range;
            }
            match here.iter().map(|e| e.end).max() {
                Some(top) => ByteRange::new(range.start, range.end.min(top)),
                None => range,
            }
        }
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for round in 0..200 {
            let mut scan: Vec<Vec<ByteRange>> = vec![Vec::new(); 3];
            let mut inc = Recorded::new(3);
            for step in 0..40 {
                let mem = next(3) as usize;
                let start = next(64);
                let len = if next(10) == 0 { 0 } else { 1 + next(16) };
                let range = ByteRange::new(start, start + len);
                let want = by_scan(&scan, mem, range);
                assert_eq!(
                    inc.range(mem, range),
                    want,
                    "round {round} step {step}: {scan:?} {mem} {range:?}"
                );
                scan[mem].push(want);
                inc.push(mem, want);
            }
        }
    }
}
