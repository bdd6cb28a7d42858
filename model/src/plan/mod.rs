//! Barrier planners: turn a program without barriers into the same program
//! with the barriers (and, before host accesses, the submits and fence
//! waits) it needs.
//!
//! This module owns the planners: `online` (streaming, one
//! `vkCmdPipelineBarrier2` before each command that has hazards), `offline`
//! (whole program, the fewest barrier points by greedy interval stabbing)
//! and the baselines `conservative`, `per-object` (ncnn's model) and
//! `none`. Planners drop the input's own barriers and plan from scratch.
//! What counts as a hazard is [`crate::sync::checker`]'s business; this module
//! only decides where barriers go and what bits they carry.
//!
//! # Minimality
//!
//! Every dependency a command needs is an interval `(producer, consumer]`
//! of barrier positions ("before command q"). The dependencies are those of
//! the barrier-free program: which prior access a new access must be
//! ordered after depends only on the order of accesses, never on barriers.
//! A barrier for a dependency carries exactly the producer's (stage,
//! access) as its source and the consumer's as its destination (a
//! write-after-read carries no access: an execution dependency suffices).
//! At each point the planner leaves out dependencies that earlier barriers
//! already satisfy through chaining, and then drops every barrier the
//! point's other barriers make redundant, so removing any barrier or any bit
//! brings a hazard back.

use crate::hazard::{check_resolved, detect_command, is_clean, step, Hazard};
use crate::ir::access::accesses;
use crate::ir::layout::{resolve, Layout, ProgramError, ProgramErrorKind};
use crate::ir::program::{
    Barrier, BindingAccess, Command, Dependency, ObjectId, ObjectKind, Program, Region,
};
use crate::semantics::Semantics;
use crate::sync::checker::{
    host_needs, read_satisfied, Checker, HazardKind, Reach, ResolvedBarrier, SyncVal,
};
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
use crate::vk::scope::{self, Side, StageAccess, StageSet};
use std::collections::{BTreeMap, HashMap};

/// Which planner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlannerKind {
    /// No barriers at all: the unsafe speed limit.
    None,
    /// A full `ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE` barrier between every
    /// two device commands.
    Conservative,
    /// ncnn's model: one last (stage, access) per object, reset when the
    /// allocator hands memory out again; barriers on copy sources and
    /// dispatch bindings only.
    PerObject,
    /// Streaming: before each command, the barriers its hazards need.
    Online,
    /// Whole program: the fewest barrier points.
    Offline,
}

impl PlannerKind {
    pub const ALL: [PlannerKind; 5] = [
        PlannerKind::None,
        PlannerKind::PerObject,
        PlannerKind::Conservative,
        PlannerKind::Online,
        PlannerKind::Offline,
    ];

    /// The planner's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            PlannerKind::None => "none",
            PlannerKind::Conservative => "conservative",
            PlannerKind::PerObject => "per-object",
            PlannerKind::Online => "online",
            PlannerKind::Offline => "offline",
        }
    }

    /// Looks a planner up by its name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// Global memory barriers or buffer-range barriers.
///
/// Global barriers are fewer and cheaper to record and are what drivers
/// implement anyway on most desktop GPUs (a buffer barrier's range is
/// rarely used to narrow cache maintenance). Buffer barriers say exactly
/// which bytes a dependency protects, which documents intent, lets
/// unrelated ranges keep their caches on hardware that honours ranges, and
/// is what a validation layer can check most precisely.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum BarrierForm {
    #[default]
    Global,
    Buffer,
}

/// Planner choice and barrier form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlanOptions {
    pub planner: PlannerKind,
    pub form: BarrierForm,
}

impl PlanOptions {
    pub fn new(planner: PlannerKind) -> Self {
        PlanOptions {
            planner,
            form: BarrierForm::Global,
        }
    }
}

/// A planned program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub program: Program,
    /// For each command of `program`: its index in the barrier-free input,
    /// or `None` for commands the planner inserted.
    pub origin: Vec<Option<usize>>,
    /// For each inserted barrier (index into `program.commands`), the
    /// hazards of the barrier-free input it answers (indices in those
    /// hazards refer to the barrier-free input).
    pub answers: Vec<(usize, Vec<Hazard>)>,
}

/// Plans barriers for `program`, whose own barriers are dropped first.
pub fn plan(program: &Program, opts: PlanOptions) -> Result<Plan, ProgramError> {
    let input = program.without_barriers();
    let layout = resolve(&input)?;
    let mut out = Emitter::new(&input);
    match opts.planner {
        PlannerKind::None => {
            for (i, c) in input.commands.iter().enumerate() {
                out.command(i, c);
            }
        }
        PlannerKind::Conservative => conservative(&input, &mut out),
        PlannerKind::PerObject => per_object(&input, &mut out),
        PlannerKind::Online => online(&input, &layout, opts.form, &mut out),
        PlannerKind::Offline => offline(&input, &layout, opts.form, &mut out),
    }
    let mut plan = out.finish();
    if opts.planner == PlannerKind::Offline && opts.form == BarrierForm::Global {
        improve_bits(&mut plan);
    }
    Ok(plan)
}

/// Plans of up to this many barrier points and commands get the joint
/// search of [`improve_bits`]; larger ones keep each point's own minimum
/// (each search step re-checks the whole program).
const IMPROVE_MAX_POINTS: usize = 8;
const IMPROVE_MAX_COMMANDS: usize = 64;

/// Lowers the total bit count of a small global plan by local search
/// across points, keeping the number of points. Each point is minimized
/// for the dependencies it answers, but the plan as a whole can sometimes
/// do with fewer bits: an earlier point can carry a dependency whose
/// availability then reaches a later point through a chain that point
/// needs anyway, or a point can sit at another place inside the intervals
/// it stabs. Two moves: add one concrete flag (a stage or access the
/// program's commands make) to one point, or move one point to another gap
/// before a device command; after either, every bit of every point that is
/// no longer needed is dropped. A move is kept when the plan is still
/// hazard-free and has fewer bits; the search repeats until no move helps.
fn improve_bits(plan: &mut Plan) {
    let is_point =
        |p: &Program, i: usize| matches!(&p.commands[i], Command::Barrier(d) if d.barriers.len() == 1);
    let points_of = |p: &Program| {
        (0..p.commands.len())
            .filter(|&i| is_point(p, i))
            .collect::<Vec<_>>()
    };
    let n_points = points_of(&plan.program).len();
    if n_points == 0 || n_points > IMPROVE_MAX_POINTS || plan.program.commands.len() > IMPROVE_MAX_COMMANDS {
        return;
    }
    let Ok(layout) = resolve(&plan.program) else {
        return;
    };
    let mut flags: Vec<(usize, u64)> = Vec::new();
    for c in &plan.program.commands {
        for a in accesses(c, &layout, Semantics::default()) {
            for f in [
                (0, a.sa.stage().flag().bits()),
                (1, a.sa.access().bits()),
                (2, a.sa.stage().flag().bits()),
                (3, a.sa.access().bits()),
            ] {
                if !flags.contains(&f) {
                    flags.push(f);
                }
            }
        }
    }
    let barrier = |p: &Program, i: usize| match &p.commands[i] {
        Command::Barrier(d) => d.barriers[0],
        _ => unreachable!("points are single-barrier commands"),
    };
    let set = |p: &mut Program, i: usize, b: Barrier| {
        if let Command::Barrier(d) = &mut p.commands[i] {
            d.barriers[0] = b;
        }
    };
    let valid = |b: &Barrier| {
        scope::validate(b.src_stage_mask, b.src_access_mask, Side::Src).is_ok()
            && scope::validate(b.dst_stage_mask, b.dst_access_mask, Side::Dst).is_ok()
    };
    let clean = |p: &Program| is_clean(p, &layout, Semantics::default());
    let total = |p: &Plan| p.program.barrier_bits();
    // Drops every bit of every point that is not needed (but `pinned`), in
    // a fixed order, until none can go (dropping an access can make a stage
    // droppable).
    let shrink = |p: &mut Program, pinned: Option<(usize, usize, u64)>| loop {
        let before = p.barrier_bits();
        for i in points_of(p) {
            for field in 0..4 {
                let bits = mask_bits(&barrier(p, i), field);
                for bit in (0..64)
                    .map(|k| 1u64 << k)
                    .filter(|b| bits & b != 0 && pinned != Some((i, field, *b)))
                {
                    let mut b = barrier(p, i);
                    let m = mask_bits(&b, field);
                    set_mask_bits(&mut b, field, m & !bit);
                    if valid(&b) {
                        let old = barrier(p, i);
                        set(p, i, b);
                        if !clean(p) {
                            set(p, i, old);
                        }
                    }
                }
            }
        }
        if p.barrier_bits() == before {
            break;
        }
    };
    loop {
        let before = total(plan);
        let mut best: Option<Plan> = None;
        let consider = |q: Plan, best: &mut Option<Plan>| {
            let better = best.as_ref().map_or(before, total);
            if total(&q) < better && clean(&q.program) {
                *best = Some(q);
            }
        };
        for i in points_of(&plan.program) {
            for &(field, bit) in &flags {
                let mut b = barrier(&plan.program, i);
                let m = mask_bits(&b, field);
                if m & bit != 0 {
                    continue;
                }
                set_mask_bits(&mut b, field, m | bit);
                if !valid(&b) {
                    continue;
                }
                let mut q = plan.clone();
                set(&mut q.program, i, b);
                // First what the new flag makes unnecessary elsewhere, then
                // anything, the new flag included. When the flag makes
                // nothing else unnecessary, the second shrink can only take
                // it out again (the plan was shrunk already): skip it.
                let added = q.program.barrier_bits();
                shrink(&mut q.program, Some((i, field, bit)));
                if q.program.barrier_bits() == added {
                    continue;
                }
                shrink(&mut q.program, None);
                consider(q, &mut best);
            }
            // Every other gap before a device command, not next to a point.
            for to in 0..plan.program.commands.len() {
                let next_to_point =
                    (to > 0 && is_point(&plan.program, to - 1)) || is_point(&plan.program, to);
                if to == i || to == i + 1 || next_to_point || !is_device(&plan.program.commands[to]) {
                    continue;
                }
                // Moved, then every point given every concrete flag its
                // side can take, then shrunk: the other points may need
                // different bits once this one is elsewhere.
                let mut q = plan.clone();
                move_command(&mut q, i, to);
                for j in points_of(&q.program) {
                    let mut b = barrier(&q.program, j);
                    for &(field, bit) in &flags {
                        let m = mask_bits(&b, field);
                        set_mask_bits(&mut b, field, m | bit);
                    }
                    if valid(&b) {
                        set(&mut q.program, j, b);
                    }
                }
                if clean(&q.program) {
                    shrink(&mut q.program, None);
                    consider(q, &mut best);
                }
            }
        }
        match best {
            Some(q) => *plan = q,
            None => break,
        }
    }
}

/// Moves command `from` of a plan to just before command `to` (an index
/// before the move), keeping `origin` and `answers` attached to their
/// commands.
fn move_command(plan: &mut Plan, from: usize, to: usize) {
    let c = plan.program.commands.remove(from);
    let o = plan.origin.remove(from);
    let dest = if to > from { to - 1 } else { to };
    plan.program.commands.insert(dest, c);
    plan.origin.insert(dest, o);
    for (idx, _) in plan.answers.iter_mut() {
        *idx = if *idx == from {
            dest
        } else {
            let after_removal = if *idx > from { *idx - 1 } else { *idx };
            if after_removal >= dest {
                after_removal + 1
            } else {
                after_removal
            }
        };
    }
    plan.answers.sort_by_key(|(idx, _)| *idx);
}

/// Builds the output program.
struct Emitter<'a> {
    input: &'a Program,
    commands: Vec<Command>,
    origin: Vec<Option<usize>>,
    answers: Vec<(usize, Vec<Hazard>)>,
}

impl<'a> Emitter<'a> {
    fn new(input: &'a Program) -> Self {
        Emitter {
            input,
            commands: Vec::with_capacity(input.commands.len() * 2),
            origin: Vec::with_capacity(input.commands.len() * 2),
            answers: Vec::new(),
        }
    }
    fn command(&mut self, i: usize, c: &Command) {
        self.command_from(Some(i), c);
    }
    fn command_from(&mut self, origin: Option<usize>, c: &Command) {
        self.commands.push(c.clone());
        self.origin.push(origin);
    }
    fn barrier(&mut self, barriers: Vec<Barrier>, answers: Vec<Hazard>) {
        if barriers.is_empty() {
            return;
        }
        if !answers.is_empty() {
            self.answers.push((self.commands.len(), answers));
        }
        self.commands.push(Command::Barrier(Dependency { barriers }));
        self.origin.push(None);
    }
    fn submit_wait(&mut self) {
        self.commands.push(Command::Submit);
        self.origin.push(None);
        self.commands.push(Command::Wait);
        self.origin.push(None);
    }
    fn finish(self) -> Plan {
        Plan {
            program: Program {
                objects: self.input.objects.clone(),
                commands: self.commands,
            },
            origin: self.origin,
            answers: self.answers,
        }
    }
}

fn is_device(c: &Command) -> bool {
    crate::ir::access::is_device_command(c)
}

fn is_host(c: &Command) -> bool {
    matches!(c, Command::HostRead { .. } | Command::HostWrite { .. })
}

/// The full barrier of the conservative baseline: every access of every
/// command made visible to every later access, the host's included
/// (`ALL_COMMANDS` does not include `HOST`).
pub fn full_barrier() -> Barrier {
    let rw = AccessFlags2::MEMORY_READ | AccessFlags2::MEMORY_WRITE;
    Barrier::global(
        PipelineStageFlags2::ALL_COMMANDS,
        rw,
        PipelineStageFlags2::ALL_COMMANDS | PipelineStageFlags2::HOST,
        rw,
    )
}

/// Tracks, for the baselines, whether device work is outstanding, so they
/// can submit and wait before host accesses.
#[derive(Default)]
struct Queue {
    recorded: bool,
    submitted: bool,
}

impl Queue {
    fn device(&mut self) {
        self.recorded = true;
    }
    fn observe(&mut self, c: &Command) {
        match c {
            Command::Submit => {
                if self.recorded {
                    self.submitted = true;
                }
                self.recorded = false;
            }
            Command::Wait if !self.recorded => self.submitted = false,
            _ => {}
        }
    }
    /// Device work not yet waited for: a host access needs submit + wait.
    fn outstanding(&self) -> bool {
        self.recorded || self.submitted
    }
    fn waited(&mut self) {
        self.recorded = false;
        self.submitted = false;
    }
}

fn conservative(input: &Program, out: &mut Emitter) {
    let mut q = Queue::default();
    for (i, c) in input.commands.iter().enumerate() {
        if is_host(c) && q.outstanding() {
            out.submit_wait();
            q.waited();
        }
        q.observe(c);
        out.command(i, c);
        if is_device(c) {
            q.device();
            out.barrier(vec![full_barrier()], vec![]);
        }
    }
}

/// ncnn's per-object tracking (`VkMat::data->access_flags/stage_flags`),
/// reproduced to measure against and to show the report's bug.
fn per_object(input: &Program, out: &mut Emitter) {
    let top = (PipelineStageFlags2::TOP_OF_PIPE, AccessFlags2::NONE);
    let mut last: Vec<(PipelineStageFlags2, AccessFlags2)> = vec![top; input.objects.len()];
    let mut q = Queue::default();
    let transfer = PipelineStageFlags2::TRANSFER;
    let compute = PipelineStageFlags2::COMPUTE_SHADER;
    let writes = AccessFlags2::SHADER_WRITE | AccessFlags2::TRANSFER_WRITE | AccessFlags2::HOST_WRITE;
    for (i, c) in input.commands.iter().enumerate() {
        let mut barriers = Vec::new();
        // A barrier from the object's last access to (stage, access), unless
        // the last access was a read in the same stage.
        let barrier_to = |last: &mut [(PipelineStageFlags2, AccessFlags2)],
                          region: Region,
                          stage,
                          access,
                          barriers: &mut Vec<Barrier>| {
            let obj: ObjectId = region.object;
            let (ls, la) = last[obj.0 as usize];
            if la.intersects(writes) || ls != stage {
                barriers.push(Barrier::global(ls, la, stage, access).on(region));
            }
            last[obj.0 as usize] = (stage, access);
        };
        match c {
            // The allocator hands memory out as if it were new: the state
            // resets, whatever commands still use that memory.
            Command::Alloc { blob } => last[blob.0 as usize] = top,
            Command::Copy { src, dst } => {
                // record_clone: barrier on the source only; the destination
                // gets "barrier device any @ null".
                barrier_to(
                    &mut last,
                    *src,
                    transfer,
                    AccessFlags2::TRANSFER_READ,
                    &mut barriers,
                );
                last[dst.object.0 as usize] = (transfer, AccessFlags2::TRANSFER_WRITE);
            }
            Command::Fill { dst, .. } | Command::Update { dst, .. } => {
                last[dst.object.0 as usize] = (transfer, AccessFlags2::TRANSFER_WRITE);
            }
            Command::Dispatch { bindings, .. } => {
                // record_pipeline: every binding is barriered to compute
                // read|write unless its last access was a compute read.
                for b in bindings {
                    let access = AccessFlags2::SHADER_READ | AccessFlags2::SHADER_WRITE;
                    barrier_to(&mut last, b.region, compute, access, &mut barriers);
                    let new = match b.access {
                        BindingAccess::Read => AccessFlags2::SHADER_READ,
                        _ => AccessFlags2::SHADER_WRITE,
                    };
                    last[b.region.object.0 as usize] = (compute, new);
                }
            }
            Command::HostRead { src } => {
                barrier_to(
                    &mut last,
                    *src,
                    PipelineStageFlags2::HOST,
                    AccessFlags2::HOST_READ,
                    &mut barriers,
                );
            }
            Command::HostWrite { dst, .. } => {
                last[dst.object.0 as usize] = (PipelineStageFlags2::HOST, AccessFlags2::HOST_WRITE);
            }
            _ => {}
        }
        // A barrier with a NONE source stage and access is no dependency;
        // TOP_OF_PIPE in the first scope is NONE under synchronization2.
        barriers.retain(|b| b.src_stage_mask != PipelineStageFlags2::TOP_OF_PIPE);
        for b in barriers.iter_mut() {
            // An access the source stage cannot make is invalid usage.
            if scope::validate(b.src_stage_mask, b.src_access_mask, Side::Src).is_err() {
                b.src_access_mask = AccessFlags2::NONE;
            }
        }
        if is_device(c) {
            q.device();
        }
        out.barrier(barriers, vec![]);
        if is_host(c) && q.outstanding() {
            out.submit_wait();
            q.waited();
        }
        q.observe(c);
        out.command(i, c);
    }
}

/// One dependency a command needs: a barrier somewhere in `(lo, hi]`.
#[derive(Clone, Debug)]
struct Req {
    lo: usize,
    hi: usize,
    hazard: Hazard,
}

impl Req {
    /// The direct barrier for this dependency, over the memory owner's
    /// bytes: a blob may not be allocated yet (or any more) where the
    /// barrier goes, but its pool always is, and the pool's `VkBuffer` is
    /// what a buffer barrier names anyway.
    fn barrier(&self, layout: &Layout) -> Barrier {
        // Invariant: requirements are built only from hazards whose fix has
        // a barrier.
        let b = self.hazard.fix.barrier.expect("requirement has a barrier");
        let mem = self.hazard.memory;
        let owner = layout.owner_object(mem.mem);
        b.on(Region {
            object: owner,
            range: mem.range,
        })
    }
}

/// The barrier-free program with a submit and a wait inserted before every
/// host access that needs one, and the origin of each of its commands. A
/// wait is needed whatever barriers are placed, and it may remove
/// dependencies that barriers would otherwise have to carry, so the
/// planners' dependencies are those of this program.
pub fn with_waits(input: &Program, layout: &Layout) -> (Program, Vec<Option<usize>>) {
    let mut checker = Checker::new(layout.memory_sizes.len());
    let mut commands = Vec::with_capacity(input.commands.len());
    let mut origin = Vec::with_capacity(input.commands.len());
    let mut queue = Queue::default();
    for (i, c) in input.commands.iter().enumerate() {
        if is_host(c) {
            let hazards = detect_command(&mut checker, layout, i, c);
            // A wait is needed when a prior access was not waited for. When
            // only a HOST barrier is missing but device work was recorded
            // since the last waited submit, a new submit and wait after that
            // work lets the barrier go after it too, where it can share a
            // point with the dependencies of that work.
            let needs_wait = hazards.iter().any(|h| h.fix.wait);
            let needs_barrier = hazards.iter().any(|h| h.fix.barrier.is_some());
            if needs_wait || (needs_barrier && queue.outstanding()) {
                commands.extend([Command::Submit, Command::Wait]);
                origin.extend([None, None]);
                checker.submit();
                checker.wait();
                queue.waited();
            }
        }
        if is_device(c) {
            queue.device();
        }
        queue.observe(c);
        let mut sink = Vec::new();
        step(&mut checker, layout, i, c, &mut sink);
        commands.push(c.clone());
        origin.push(Some(i));
    }
    let program = Program {
        objects: input.objects.clone(),
        commands,
    };
    (program, origin)
}

/// The dependencies of a barrier-free program whose host accesses need no
/// further waits (see [`with_waits`]).
fn requirements(input: &Program, layout: &Layout) -> Vec<Req> {
    let hazards = check_resolved(input, layout, Semantics::default());
    // For a host access after a waited-for device write, the barrier must be
    // recorded before the submit that precedes that wait: find, for each
    // command, the last submit followed by a wait before it.
    let mut last_waited_submit = vec![None; input.commands.len()];
    let mut pending_submit = None;
    let mut waited = None;
    for (i, c) in input.commands.iter().enumerate() {
        last_waited_submit[i] = waited;
        match c {
            Command::Submit => pending_submit = Some(i),
            Command::Wait => waited = pending_submit.or(waited),
            _ => {}
        }
    }
    let mut reqs = Vec::new();
    for h in hazards {
        if h.fix.barrier.is_none() {
            continue;
        }
        let hi = if crate::ir::access::is_host(h.current) {
            // Invariant (from `with_waits`): the prior was waited for, so a
            // submit after it was waited for before this command.
            last_waited_submit[h.command]
                .filter(|&s| s > h.prior_command)
                .unwrap_or(h.command)
        } else {
            h.command
        };
        reqs.push(Req {
            lo: h.prior_command,
            hi,
            hazard: h,
        });
    }
    reqs
}

/// Whether the prior access value `v` no longer conflicts with `cur`, as far
/// as barriers go (a fence wait, where needed, is inserted separately).
fn satisfied(v: SyncVal, cur: StageAccess, kind: HazardKind) -> bool {
    match kind {
        HazardKind::WriteAfterRead => read_satisfied(v, cur) || crate::ir::access::is_host(cur),
        // For the host, visibility a recorded barrier grants counts: the
        // planner follows host barriers with a submit and a wait.
        _ if crate::ir::access::is_host(cur) => v.granted().0 & host_needs().0 != 0,
        // A write after a write needs the earlier one available before it.
        HazardKind::WriteAfterWrite => v.order.contains(cur.stage()) || v.fenced,
        HazardKind::ReadAfterWrite => v.visible.contains(cur) || v.fenced,
    }
}

/// A requirement as seen at a barrier point: the prior's current values.
struct Live {
    req: Req,
    values: Vec<SyncVal>,
}

fn all_satisfied(live: &[Live], barriers: &[Barrier], layout: &Layout) -> bool {
    let resolved: Vec<_> = barriers.iter().map(|b| ResolvedBarrier::of(b, layout)).collect();
    live.iter().all(|l| {
        let mem = l.req.hazard.memory;
        l.values.iter().all(|v| {
            let after = v.apply(&resolved, |b| match b.range {
                None => Reach::Full,
                Some(r)
                    if r.mem == mem.mem
                        && r.range.start <= mem.range.start
                        && mem.range.end <= r.range.end =>
                {
                    Reach::Full
                }
                Some(_) => Reach::ExecOnly,
            });
            satisfied(after, l.req.hazard.current, l.req.hazard.kind)
        })
    })
}

/// Builds the barriers of one point.
///
/// Global form: one memory barrier with the union of the requirements'
/// direct fixes, then every bit dropped that the requirements do not need
/// ([`fewest_bits`]). One barrier never needs more bits than several:
/// merging two barriers unions their masks, and a barrier with larger
/// scopes orders at least as much.
///
/// Buffer form: one barrier per distinct source (stage, access) and
/// destination stage, carrying the union of the destination accesses, per
/// object and merged range; then each barrier the others make redundant is
/// dropped, then each bit.
fn point_barriers(live: &[Live], form: BarrierForm, layout: &Layout) -> Vec<Barrier> {
    if form == BarrierForm::Global {
        let mut merged = Barrier::global(
            PipelineStageFlags2::NONE,
            AccessFlags2::NONE,
            PipelineStageFlags2::NONE,
            AccessFlags2::NONE,
        );
        for l in live {
            let b = l.req.barrier(layout);
            merged.src_stage_mask |= b.src_stage_mask;
            merged.src_access_mask |= b.src_access_mask;
            merged.dst_stage_mask |= b.dst_stage_mask;
            merged.dst_access_mask |= b.dst_access_mask;
        }
        return vec![fewest_bits(merged, live, layout)];
    }
    let mut groups: BTreeMap<(u64, u64, u64), (AccessFlags2, Vec<Region>)> = BTreeMap::new();
    for l in live {
        let b = l.req.barrier(layout);
        let key = (
            b.src_stage_mask.bits(),
            b.src_access_mask.bits(),
            b.dst_stage_mask.bits(),
        );
        let g = groups.entry(key).or_insert((AccessFlags2::NONE, Vec::new()));
        g.0 |= b.dst_access_mask;
        // Invariant: requirement barriers always carry their region.
        g.1.push(b.region.expect("requirement region"));
    }
    let mut barriers = Vec::new();
    for ((ss, sa, ds), (da, mut regions)) in groups {
        let base = Barrier::global(
            PipelineStageFlags2::from_bits_retain(ss),
            AccessFlags2::from_bits_retain(sa),
            PipelineStageFlags2::from_bits_retain(ds),
            da,
        );
        match form {
            BarrierForm::Global => barriers.push(base),
            BarrierForm::Buffer => {
                regions.sort_by_key(|r| (r.object, r.range.start));
                let mut merged: Vec<Region> = Vec::new();
                for r in regions {
                    match merged.last_mut() {
                        Some(m) if m.object == r.object && r.range.start <= m.range.end => {
                            m.range.end = m.range.end.max(r.range.end)
                        }
                        _ => merged.push(r),
                    }
                }
                barriers.extend(merged.into_iter().map(|r| base.on(r)));
            }
        }
    }
    // Drop barriers the rest of the point makes redundant, then bits.
    let mut i = 0;
    while i < barriers.len() && barriers.len() > 1 {
        let mut without = barriers.clone();
        without.remove(i);
        if all_satisfied(live, &without, layout) {
            barriers = without;
        } else {
            i += 1;
        }
    }
    // Until no bit can go: dropping an access can make its stage droppable.
    loop {
        let before: u32 = barriers.iter().map(Barrier::bit_count).sum();
        for i in 0..barriers.len() {
            for field in 0..4 {
                let bits = mask_bits(&barriers[i], field);
                for bit in (0..64).map(|k| 1u64 << k).filter(|b| bits & b != 0) {
                    let mut candidate = barriers.clone();
                    set_mask_bits(&mut candidate[i], field, mask_bits(&barriers[i], field) & !bit);
                    let b = candidate[i];
                    let valid = scope::validate(b.src_stage_mask, b.src_access_mask, Side::Src).is_ok()
                        && scope::validate(b.dst_stage_mask, b.dst_access_mask, Side::Dst).is_ok();
                    if valid && all_satisfied(live, &candidate, layout) {
                        barriers = candidate;
                    }
                }
            }
        }
        if barriers.iter().map(Barrier::bit_count).sum::<u32>() == before {
            return barriers;
        }
    }
}

/// `b` with every bit dropped that is not needed for it to be valid usage
/// and satisfy `live` (`b` itself does), one at a time until none can go.
/// The optimality suite compares the plans this gives (with
/// [`improve_bits`] on small plans) with a brute-force minimum.
fn fewest_bits(b: Barrier, live: &[Live], layout: &Layout) -> Barrier {
    let bits: Vec<(usize, u64)> = (0..4)
        .flat_map(|field| {
            let m = mask_bits(&b, field);
            (0..64)
                .map(|k| 1u64 << k)
                .filter(move |bit| m & bit != 0)
                .map(move |bit| (field, bit))
        })
        .collect();
    let build = |chosen: &[bool]| {
        let mut masks = [0u64; 4];
        for (&(field, bit), &on) in bits.iter().zip(chosen) {
            if on {
                masks[field] |= bit;
            }
        }
        let mut c = b;
        for (field, m) in masks.iter().enumerate() {
            set_mask_bits(&mut c, field, *m);
        }
        c
    };
    let ok = |c: &Barrier| {
        scope::validate(c.src_stage_mask, c.src_access_mask, Side::Src).is_ok()
            && scope::validate(c.dst_stage_mask, c.dst_access_mask, Side::Dst).is_ok()
            && all_satisfied(live, std::slice::from_ref(c), layout)
    };
    // Greedy, until no bit can go (dropping an access can make its stage
    // droppable).
    let mut chosen = vec![true; bits.len()];
    loop {
        let mut changed = false;
        for i in 0..bits.len() {
            if !chosen[i] {
                continue;
            }
            chosen[i] = false;
            if ok(&build(&chosen)) {
                changed = true;
            } else {
                chosen[i] = true;
            }
        }
        if !changed {
            return build(&chosen);
        }
    }
}

/// The raw bits of one of a barrier's four masks (0: source stages,
/// 1: source accesses, 2: destination stages, 3: destination accesses).
fn mask_bits(b: &Barrier, field: usize) -> u64 {
    match field {
        0 => b.src_stage_mask.bits(),
        1 => b.src_access_mask.bits(),
        2 => b.dst_stage_mask.bits(),
        _ => b.dst_access_mask.bits(),
    }
}

fn set_mask_bits(b: &mut Barrier, field: usize, bits: u64) {
    match field {
        0 => b.src_stage_mask = PipelineStageFlags2::from_bits_retain(bits),
        1 => b.src_access_mask = AccessFlags2::from_bits_retain(bits),
        2 => b.dst_stage_mask = PipelineStageFlags2::from_bits_retain(bits),
        _ => b.dst_access_mask = AccessFlags2::from_bits_retain(bits),
    }
}

/// Looks up the current values of the requirements' priors and keeps those
/// not yet satisfied.
/// `completes`: a fence wait comes after this point and before the next
/// submit, so the point's barriers run after every access submitted so far
/// has completed; those accesses are then judged as the checker will judge
/// them at the wait (available, and reached by any later barrier).
fn live_requirements(checker: &mut Checker, reqs: impl Iterator<Item = Req>, completes: bool) -> Vec<Live> {
    reqs.filter_map(|req| {
        let h = &req.hazard;
        let mut values = checker.prior_values(h.memory.mem, h.memory.range, h.prior_command, h.prior);
        if completes {
            for v in values.iter_mut() {
                if v.submitted && !v.fenced {
                    *v = SyncVal {
                        fenced: true,
                        order: StageSet::ALL_DEVICE,
                        ..*v
                    };
                }
            }
        }
        // No value left: the prior access was dropped from the checker's
        // state because a later access of the same kind dominates it (see
        // `Checker`), and that access's own requirement covers this one.
        let done = values.iter().all(|v| satisfied(*v, h.current, h.kind));
        (!done).then_some(Live { req, values })
    })
    .collect()
}

/// Places one barrier point. `to_input` maps the command indices of the
/// program being walked back to the barrier-free input's, which is what
/// [`Plan::answers`] promises.
fn emit_point(
    out: &mut Emitter,
    checker: &mut Checker,
    layout: &Layout,
    live: Vec<Live>,
    form: BarrierForm,
    to_input: impl Fn(usize) -> usize,
) {
    if live.is_empty() {
        return;
    }
    let barriers = point_barriers(&live, form, layout);
    let resolved: Vec<_> = barriers.iter().map(|b| ResolvedBarrier::of(b, layout)).collect();
    checker.apply(&resolved);
    let answers = live
        .into_iter()
        .map(|l| Hazard {
            command: to_input(l.req.hazard.command),
            prior_command: to_input(l.req.hazard.prior_command),
            ..l.req.hazard
        })
        .collect();
    out.barrier(barriers, answers);
}

fn feed(out: &mut Emitter, checker: &mut Checker, layout: &Layout, i: usize, c: &Command) {
    let mut sink = Vec::new();
    step(checker, layout, i, c, &mut sink);
    out.command(i, c);
}

fn online(input: &Program, layout: &Layout, form: BarrierForm, out: &mut Emitter) {
    let mut checker = Checker::new(layout.memory_sizes.len());
    for (i, c) in input.commands.iter().enumerate() {
        let acc = accesses(c, layout, Semantics::default());
        if !acc.is_empty() {
            let hazards = detect_command(&mut checker, layout, i, c);
            let needs_wait = hazards.iter().any(|h| h.fix.wait);
            let with_barrier = hazards.into_iter().filter(|h| h.fix.barrier.is_some());
            let reqs = with_barrier.map(|h| Req {
                lo: h.prior_command,
                hi: i,
                hazard: h,
            });
            let live = live_requirements(&mut checker, reqs, false);
            let host_barrier = !live.is_empty() && is_host(c);
            emit_point(out, &mut checker, layout, live, form, |i| i);
            if needs_wait || host_barrier {
                out.submit_wait();
                checker.submit();
                checker.wait();
            }
        }
        feed(out, &mut checker, layout, i, c);
    }
}

fn offline(input: &Program, layout: &Layout, form: BarrierForm, out: &mut Emitter) {
    let (waited, origin) = with_waits(input, layout);
    let layout = &resolve(&waited).expect("inserting submits and waits keeps a program valid");
    let mut reqs = requirements(&waited, layout);
    // Greedy stabbing: by consumer position, a point at the first interval
    // no point stabs yet.
    reqs.sort_by_key(|r| (r.hi, r.lo));
    let mut points: Vec<usize> = Vec::new();
    for r in &reqs {
        if points.last().is_none_or(|&p| p <= r.lo) {
            points.push(r.hi);
        }
    }
    // Each interval goes to the last point inside it, so that every earlier
    // point's barriers are known when deciding what it still needs.
    let mut at_point: HashMap<usize, Vec<Req>> = HashMap::new();
    for r in reqs {
        let k = points.partition_point(|&p| p <= r.hi);
        // Invariant: the greedy left a point in (lo, hi], so the last point
        // at or before hi exists and lies after lo.
        let point = points[k - 1];
        debug_assert!(point > r.lo);
        at_point.entry(point).or_default().push(r);
    }
    // Whether a wait comes after each command before the next submit.
    let mut completes = vec![false; waited.commands.len()];
    let mut next_is_wait = false;
    for (i, c) in waited.commands.iter().enumerate().rev() {
        match c {
            Command::Submit => next_is_wait = false,
            Command::Wait => next_is_wait = true,
            _ => {}
        }
        completes[i] = next_is_wait;
    }
    let mut checker = Checker::new(layout.memory_sizes.len());
    for (i, c) in waited.commands.iter().enumerate() {
        if let Some(reqs) = at_point.remove(&i) {
            let live = live_requirements(&mut checker, reqs.into_iter(), completes[i]);
            // Invariant: hazards are between accesses, which all come from
            // the input (only submits and waits were inserted).
            let to_input = |i: usize| origin[i].expect("accesses come from the input");
            emit_point(out, &mut checker, layout, live, form, to_input);
        }
        let mut sink = Vec::new();
        step(&mut checker, layout, i, c, &mut sink);
        out.command_from(origin[i], c);
    }
}

/// The minimum number of barrier points any plan of `program` needs: the
/// size of a minimum stabbing set of its dependency intervals, computed
/// here independently of the planners (by the classic greedy over
/// intervals sorted by right end, on the hazards of the barrier-free
/// program).
pub fn stabbing_bound(program: &Program) -> Result<usize, ProgramError> {
    let input = program.without_barriers();
    let layout = resolve(&input)?;
    let (waited, _) = with_waits(&input, &layout);
    let layout = resolve(&waited)?;
    let reqs = requirements(&waited, &layout);
    let mut intervals: Vec<(usize, usize)> = reqs.iter().map(|r| (r.lo, r.hi)).collect();
    intervals.sort_by_key(|&(lo, hi)| (hi, lo));
    let mut count = 0;
    let mut last = None;
    for (lo, hi) in intervals {
        if last.is_none_or(|p| p <= lo) {
            count += 1;
            last = Some(hi);
        }
    }
    Ok(count)
}

/// The program with every blob turned into a buffer aliasing its pool at
/// the offset the allocator gave it, and `alloc`/`free` dropped: the same
/// memory accesses, now repeatable (a blob cannot be allocated twice).
fn flatten(p: &Program, layout: &Layout) -> Program {
    let mut q = p.clone();
    for (i, o) in q.objects.iter_mut().enumerate() {
        if let ObjectKind::Blob { pool } = o.kind {
            // Invariant: a valid program places every blob it allocates; a
            // blob never allocated is never accessed either.
            let offset = layout.place(ObjectId(i as u32)).map_or(0, |(_, off)| off);
            o.kind = ObjectKind::Buffer {
                alias: Some((pool, offset)),
            };
        }
    }
    q.commands
        .retain(|c| !matches!(c, Command::Alloc { .. } | Command::Free { .. }));
    q
}

/// The command stream a device runs when `program` is recorded into one
/// command buffer and submitted `times` times back to back, without a
/// fence wait between: its commands `times` times over, blobs turned into
/// buffers at the addresses of their one allocation (as recorded), `alloc`
/// and `free` dropped. Checking it shows the loop-carried hazards.
pub fn repeated(program: &Program, times: usize) -> Result<Program, ProgramError> {
    for (i, c) in program.commands.iter().enumerate() {
        if matches!(
            c,
            Command::HostRead { .. } | Command::HostWrite { .. } | Command::Submit | Command::Wait
        ) {
            return Err(ProgramError {
                at: crate::ir::layout::Location::Command(i),
                kind: ProgramErrorKind::NotRepeatable { keyword: c.keyword() },
            });
        }
    }
    let layout = resolve(program)?;
    let flat = flatten(program, &layout);
    let mut out = Program {
        objects: flat.objects,
        commands: Vec::with_capacity(flat.commands.len() * times),
    };
    for _ in 0..times {
        out.commands.extend_from_slice(&flat.commands);
    }
    Ok(out)
}

/// A planned program made safe to submit again and again with no fence
/// wait between the submissions (a prepared command buffer re-submitted
/// back to back): it gets, at its start, the one barrier its loop-carried
/// dependencies need (each repetition's accesses against the previous
/// repetition's), or is returned unchanged when it has none. A fence wait
/// between submissions needs no such barrier: the fence signal makes every
/// device write available, and the next `vkQueueSubmit` makes it visible to
/// every device access (`docs/planning.md`, "Repeated submission").
///
/// The program may hold device commands, barriers, `alloc` and `free`
/// only. Blobs keep the addresses of their one allocation, as the
/// recorded command buffer does.
pub fn for_repeated_submission(planned: &Program) -> Result<Program, ProgramError> {
    let flat = repeated(planned, 1)?;
    let flat_layout = resolve(&flat)?;
    let n = flat.commands.len();
    // The hazards of the second repetition, with `start` at the front of each.
    let loop_hazards = |start: &[Command]| {
        let mut twice = Program {
            objects: flat.objects.clone(),
            commands: Vec::with_capacity(2 * (n + 1)),
        };
        for _ in 0..2 {
            twice.commands.extend_from_slice(start);
            twice.commands.extend_from_slice(&flat.commands);
        }
        let from = start.len() + n;
        check_resolved(&twice, &flat_layout, Semantics::default())
            .into_iter()
            .filter(|h| h.command >= from)
            .collect::<Vec<_>>()
    };
    let hazards = loop_hazards(&[]);
    if hazards.is_empty() {
        return Ok(planned.clone());
    }
    let mut b = Barrier::global(
        PipelineStageFlags2::NONE,
        AccessFlags2::NONE,
        PipelineStageFlags2::NONE,
        AccessFlags2::NONE,
    );
    for h in &hazards {
        // Invariant: device accesses only, so every fix is a barrier.
        if let Some(f) = h.fix.barrier {
            b.src_stage_mask |= f.src_stage_mask;
            b.src_access_mask |= f.src_access_mask;
            b.dst_stage_mask |= f.dst_stage_mask;
            b.dst_access_mask |= f.dst_access_mask;
        }
    }
    let as_command = |b: Barrier| Command::Barrier(Dependency { barriers: vec![b] });
    // Drop every bit the loop does not need, until none can go.
    loop {
        let before = b.bit_count();
        for field in 0..4 {
            let bits = mask_bits(&b, field);
            for bit in (0..64).map(|k| 1u64 << k).filter(|x| bits & x != 0) {
                let mut c = b;
                let m = mask_bits(&c, field);
                set_mask_bits(&mut c, field, m & !bit);
                let valid = scope::validate(c.src_stage_mask, c.src_access_mask, Side::Src).is_ok()
                    && scope::validate(c.dst_stage_mask, c.dst_access_mask, Side::Dst).is_ok();
                if valid && loop_hazards(&[as_command(c)]).is_empty() {
                    b = c;
                }
            }
        }
        if b.bit_count() == before {
            break;
        }
    }
    let mut out = planned.clone();
    out.commands.insert(0, as_command(b));
    Ok(out)
}
