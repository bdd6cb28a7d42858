//! Barrier points: the dependencies a barrier-free program needs (each an
//! interval of positions where one barrier would serve it), the fence waits
//! host accesses need whatever barriers are placed, and the barriers of one
//! point with the fewest bits that satisfy what is still open there. The
//! online and offline planners differ only in where they put points; both
//! build them here, under the semantics their checker follows (the plan's
//! [`crate::Reading`]).

use super::emit::{is_device, is_host, Emitter, Queue};
use super::BarrierForm;
use crate::hazard::{detect_command, step, walk, Hazard};
use crate::ir::layout::Layout;
use crate::ir::program::{Barrier, ByteRange, Command, Dependency, Program, Region};
use crate::semantics::Semantics;
use crate::sync::checker::{
    host_needs, read_satisfied, write_conflict, Checker, HazardKind, Reach, ResolvedBarrier, SyncVal,
};
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
use crate::vk::scope::{self, Side, Stage, StageAccess, StageSet};
use std::collections::BTreeMap;

/// One dependency a command needs, as a point sees it: a hazard with a
/// barrier fix, due somewhere in `(hazard.prior_command, hi]` (`hi` from
/// [`Deadlines::hi`], or the command itself for the online planner).
#[derive(Clone, Debug)]
pub(crate) struct Req {
    pub(crate) hazard: Hazard,
    /// When the current access is a render pass's automatic layout
    /// transition that the barrier chains into ([`recordable`]): that
    /// transition's own barrier (the masks of the dependencies from
    /// `EXTERNAL` it takes), which the checker applies at the render pass
    /// command after the point; the requirement is met when the prior
    /// access is ordered before the transition then.
    into: Option<ResolvedBarrier>,
}

impl Req {
    /// The requirement of hazard `hazard` of `program` (one [`recordable`]
    /// gave; `program` `None`: no render pass).
    pub(crate) fn new(program: Option<&Program>, layout: &Layout, hazard: Hazard) -> Req {
        let into = program
            .filter(|_| hazard.current.is_layout_transition())
            .and_then(|p| crate::ir::renderpass::external_transition(p, &hazard, true))
            .map(|t| ResolvedBarrier::of(&t, layout));
        Req { hazard, into }
    }

    /// Whether the prior access's value `v` (after a point's barriers) no
    /// longer conflicts with the current access ([`satisfied`]), or, for a
    /// transition this point chains into, is ordered before it.
    fn satisfied_by(&self, v: SyncVal, sem: Semantics) -> bool {
        match &self.into {
            Some(t) => crate::sync::checker::transition_ordered(v, t, sem),
            None => satisfied(v, self.hazard.current, self.hazard.kind, sem),
        }
    }

    /// The direct barrier for this dependency, over the memory owner's
    /// bytes: a blob may not be allocated yet (or any more) where the
    /// barrier goes, but its pool always is, and the pool's `VkBuffer` is
    /// what a buffer barrier names anyway.
    fn barrier(&self, layout: &Layout) -> Barrier {
        // Invariant: requirements are built only from hazards whose fix has
        // a barrier.
        let b = self.hazard.fix.barrier.expect("requirement has a barrier");
        let mem = self.hazard.memory;
        // Invariant: hazards are over memory of the program's own layout.
        let owner = layout.owner_object(mem.mem).expect("memory of this layout");
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
///
/// `eager`: also wait before a host access that needs only a barrier when
/// device work was recorded since the last wait, so that the barrier can
/// go after that work and share a point with its dependencies. That helps
/// most programs and hurts some (the earlier wait can take the place of a
/// later one that would have ordered more); the offline planner tries both.
/// The flag returned says whether that rule added a wait: when it did not,
/// the placement is the lazy one too.
pub(crate) fn with_waits(
    input: &Program,
    layout: &Layout,
    sem: Semantics,
    eager: bool,
) -> (Program, Vec<Option<usize>>, bool) {
    let mut eager_fired = false;
    let mut checker = Checker::with_semantics(layout.memory_sizes.len(), sem);
    // Only whether a host access needs a wait or a barrier is asked, and
    // every piece of a run answers alike.
    checker.set_pieces(crate::sync::checker::PieceHazards::First);
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
            let eager_wait = eager && needs_barrier && queue.outstanding();
            eager_fired |= eager_wait && !needs_wait;
            if needs_wait || eager_wait {
                commands.extend([Command::SUBMIT, Command::WAIT]);
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
    let program = input.with_commands(commands);
    (program, origin, eager_fired)
}

/// Hazard `h` with the barrier a planner records for it, if one orders
/// it: its own fix, or, against a render pass's automatic layout
/// transition from `initialLayout` or into `finalLayout` with a command
/// outside the instance, the barrier that chains with the transition's
/// dependency from or to `EXTERNAL`
/// ([`crate::ir::renderpass::chained_fix`], read from `program`'s render
/// pass commands). `None` for the rest of the fixes that are a layout
/// transition's own scopes: a recorded transition's are the planners'
/// input already (`transitions`), and a render pass's only its subpass
/// dependencies order (`with_needed_dependencies`, else refused).
pub(crate) fn recordable(program: Option<&Program>, mut h: Hazard) -> Option<Hazard> {
    let b = h.fix.barrier?;
    if b.transition {
        h.fix.barrier = Some(crate::ir::renderpass::chained_fix(program?, &h)?);
    }
    Some(h)
}

/// One dependency of a barrier-free program (a hazard a barrier fixes,
/// due in the interval `(lo, hi]`, `lo` its prior command, `hi` from
/// [`Deadlines::hi`]), kept compact (a long program has
/// millions): what a barrier point needs of the checker's [`Hazard`] (its
/// fix is a direct barrier between the two accesses, or one that chains
/// with a render pass's dependency from or to `EXTERNAL` ([`recordable`]),
/// rebuilt by [`Need::hazard`]), about a third of its size.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Need {
    pub(crate) command: u32,
    pub(crate) prior_command: u32,
    kind: HazardKind,
    current: StageAccess,
    prior: StageAccess,
    provisional: bool,
    /// The fix's source access mask is the prior's access (else none).
    src_access: bool,
    /// The fix's destination access mask is the current's access.
    dst_access: bool,
    region: Region,
    memory: crate::ir::layout::MemRange,
    /// The fix's stage masks: the two accesses' stages, or on the side of
    /// a render pass's automatic layout transition the stages of its
    /// dependency from or to `EXTERNAL` that the barrier chains with.
    src_stage: PipelineStageFlags2,
    dst_stage: PipelineStageFlags2,
}

impl Need {
    /// The compact form of hazard `h` of `program`, if a barrier to record
    /// fixes it ([`recordable`]).
    fn of(program: &Program, h: Hazard) -> Option<Need> {
        let h = recordable(Some(program), h)?;
        // Invariant: `recordable` gives hazards with a barrier.
        let b = h.fix.barrier.expect("a recordable hazard has a barrier");
        // A direct barrier's stages are the accesses' own (an ownership
        // transfer's `ALL_COMMANDS` is not kept: the point thins from the
        // stage), a chained one's on the transition's side.
        let stage = |transition: bool, sa: StageAccess, mask: PipelineStageFlags2| {
            if transition {
                mask
            } else {
                sa.stage().flag()
            }
        };
        Some(Need {
            src_stage: stage(h.prior.is_layout_transition(), h.prior, b.src_stage_mask),
            dst_stage: stage(h.current.is_layout_transition(), h.current, b.dst_stage_mask),
            command: h.command as u32,
            prior_command: h.prior_command as u32,
            kind: h.kind,
            current: h.current,
            prior: h.prior,
            provisional: h.provisional,
            src_access: !b.src_access_mask.is_empty(),
            dst_access: !b.dst_access_mask.is_empty(),
            region: h.region,
            memory: h.memory,
        })
    }

    pub(crate) fn lo(&self) -> usize {
        self.prior_command as usize
    }

    /// The hazard again, with its direct barrier fix (see
    /// [`crate::hazard::Fix`]).
    pub(crate) fn hazard(&self) -> Hazard {
        let access = |on: bool, sa: StageAccess| if on { sa.access() } else { AccessFlags2::NONE };
        Hazard {
            kind: self.kind,
            command: self.command as usize,
            prior_command: self.prior_command as usize,
            region: self.region,
            memory: self.memory,
            current: self.current,
            prior: self.prior,
            fix: crate::hazard::Fix {
                barrier: Some(Barrier {
                    src_stage_mask: self.src_stage,
                    src_access_mask: access(self.src_access, self.prior),
                    dst_stage_mask: self.dst_stage,
                    dst_access_mask: access(self.dst_access, self.current),
                    region: Some(self.region),
                    ..Barrier::default()
                }),
                wait: false,
                semaphore: None,
            },
            provisional: self.provisional,
            pieces: None,
        }
    }
}

/// The intervals `(lo, hi)` of the [`Need`]s alone, sorted and without
/// repeats: what counting the fewest points needs (most hazards share
/// their interval with others, over different bytes). Each command's are
/// deduplicated as it is checked.
pub(crate) fn requirement_intervals(
    input: &Program,
    layout: &Layout,
    sem: Semantics,
    horizon: Option<&[Option<usize>]>,
) -> Vec<(u32, u32)> {
    let deadlines = Deadlines::of(input, horizon);
    let mut checker = Checker::with_semantics(layout.memory_sizes.len(), sem);
    // A run's pieces share the later access's deadline: the nearest
    // piece's interval lies inside every other piece's.
    checker.set_pieces(crate::sync::checker::PieceHazards::Nearest);
    // Twelve bytes an interval (a long program has millions).
    let mut intervals: Vec<(u32, u32, bool)> = walk(
        input,
        layout,
        checker,
        |found| {
            let mut v: Vec<(u32, u32, bool)> = found
                .drain(..)
                .filter_map(|h| Need::of(input, h))
                .map(|n| (n.prior_command, deadlines.hi(&n) as u32, n.provisional))
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        },
        |&(lo, hi, provisional)| (hi.max(lo) as usize, provisional),
    );
    intervals.sort_unstable();
    intervals.dedup_by_key(|(lo, hi, _)| (*lo, *hi));
    intervals.into_iter().map(|(lo, hi, _)| (lo, hi)).collect()
}

/// The [`Need`]s of a barrier-free program whose host accesses need no
/// further waits (see [`with_waits`]), produced as the checker's walk
/// advances, so that a planner holds only those of the points it has not
/// placed yet (a long program has millions; issue 27). The walk is
/// [`crate::hazard::walk`]'s, one command at a time: each batch at its
/// submit, host operations in place, a provisional hazard held until the
/// submit that makes it one or the wait that removes it.
pub(crate) struct NeedStream<'a> {
    program: &'a Program,
    layout: &'a Layout,
    checker: Checker,
    order: Vec<usize>,
    pos: usize,
    pending: Vec<Need>,
    found: Vec<Hazard>,
    /// Commands walked whose requirements may still be pending.
    unsettled: Vec<usize>,
    settled: Vec<bool>,
    /// Every command below is settled.
    upto: usize,
    /// Per command, the least deadline a requirement of it or of a later
    /// command can have (a host access's can lie before it).
    least_hi_from: Vec<usize>,
}

impl<'a> NeedStream<'a> {
    pub(crate) fn new(
        program: &'a Program,
        layout: &'a Layout,
        sem: Semantics,
        deadlines: &Deadlines,
    ) -> Self {
        let n = program.commands.len();
        let mut least_hi_from = vec![usize::MAX; n + 1];
        for c in (0..n).rev() {
            let own = if is_host(&program.commands[c]) {
                deadlines.waited(c).map_or(c, |s| s.min(c))
            } else {
                deadlines.device(c)
            };
            least_hi_from[c] = least_hi_from[c + 1].min(own);
        }
        NeedStream {
            program,
            layout,
            checker: Checker::with_semantics(layout.memory_sizes.len(), sem),
            order: crate::ir::execution::order(program),
            pos: 0,
            pending: Vec::new(),
            found: Vec::new(),
            unsettled: Vec::new(),
            settled: vec![false; n],
            upto: 0,
            least_hi_from,
        }
    }

    /// Walks on until every requirement whose deadline lies before `x` has
    /// been handed to `sink` (in the walk's order).
    pub(crate) fn advance(&mut self, x: usize, mut sink: impl FnMut(Need)) {
        // Requirements with a deadline before `x` come from commands
        // before the first one from which on every deadline is `x` or
        // later.
        let need_upto = self.least_hi_from.partition_point(|&h| h < x);
        while self.upto < need_upto.min(self.settled.len()) {
            if self.pos == self.order.len() {
                // Work still recorded at the end is submitted without a
                // wait.
                for n in self.pending.drain(..) {
                    sink(n);
                }
                self.settle();
                break;
            }
            let i = self.order[self.pos];
            self.pos += 1;
            let c = &self.program.commands[i];
            step(&mut self.checker, self.layout, i, c, &mut self.found);
            for h in self.found.drain(..) {
                if let Some(n) = Need::of(self.program, h) {
                    if n.provisional {
                        self.pending.push(n);
                    } else {
                        sink(n);
                    }
                }
            }
            match c {
                Command::Wait(_) => self.pending.clear(),
                Command::Submit(_) => {
                    for n in self.pending.drain(..) {
                        sink(n);
                    }
                }
                _ => {}
            }
            self.unsettled.push(i);
            if self.pending.is_empty() {
                self.settle();
            }
        }
    }

    fn settle(&mut self) {
        for i in self.unsettled.drain(..) {
            self.settled[i] = true;
        }
        while self.upto < self.settled.len() && self.settled[self.upto] {
            self.upto += 1;
        }
    }
}

/// Where a hazard's barrier may go at the latest: before the command
/// itself, or, for a host access, before the last submit followed by a
/// wait before it. A `horizon`, when given, says for each command of a
/// host access the last submit that is ordered before it instead. The
/// multi-queue planner gives it: a host access there may be ordered after
/// a submit through another queue's fence and a semaphore, which no wait
/// of the queue's own program says (see `queues`).
pub(crate) struct Deadlines<'h> {
    /// For each command, the last submit followed by a wait before it.
    last_waited_submit: Vec<Option<usize>>,
    horizon: Option<&'h [Option<usize>]>,
    /// For each command, the `vkCmdBeginRendering` of the rendering
    /// instance it belongs to, or the `vkCmdBeginRenderPass` of the render
    /// pass instance: a barrier may not be recorded inside an instance, so
    /// a draw's or an end's must go before its begin (every subpass's
    /// before the pass's).
    instance: Vec<Option<usize>>,
}

impl<'h> Deadlines<'h> {
    pub(crate) fn of(input: &Program, horizon: Option<&'h [Option<usize>]>) -> Self {
        // For a host access after a waited-for device write, the barrier
        // must be recorded before the submit that precedes that wait.
        let mut last_waited_submit = vec![None; input.commands.len()];
        let mut pending_submit = None;
        let mut waited = None;
        for (i, c) in input.commands.iter().enumerate() {
            last_waited_submit[i] = waited;
            match c {
                Command::Submit(_) => pending_submit = Some(i),
                Command::Wait(_) => waited = pending_submit.or(waited),
                _ => {}
            }
        }
        // Inside a render pass instance, every subpass's (and the
        // next-subpass's and the end's own transitions and load
        // operations): before the pass's begin, the last place outside it.
        let instance = crate::ir::render::barrier_points(&input.commands);
        Deadlines {
            last_waited_submit,
            horizon,
            instance,
        }
    }

    /// The last barrier position for a device access of `command`: before
    /// it, or before its rendering instance's begin.
    pub(crate) fn device(&self, command: usize) -> usize {
        self.instance.get(command).copied().flatten().unwrap_or(command)
    }

    /// For a host access at `command`, the last submit ordered before it
    /// by a wait (its horizon when given).
    fn waited(&self, command: usize) -> Option<usize> {
        match self.horizon {
            Some(horizon) => horizon.get(command).copied().flatten(),
            None => self.last_waited_submit[command],
        }
    }

    /// The last barrier position for requirement `n`.
    pub(crate) fn hi(&self, n: &Need) -> usize {
        let (command, prior_command) = (n.command as usize, n.prior_command as usize);
        if n.current.stage() == Stage::Host {
            // Invariant (from `with_waits`, or from the multi-queue
            // planner's waits for a horizon): the prior was waited for, so
            // a submit after it was waited for before this command.
            self.waited(command)
                .filter(|&s| s > prior_command)
                .unwrap_or(command)
        } else {
            self.device(command)
        }
    }
}

/// Whether the prior access value `v` no longer conflicts with `cur`, as far
/// as barriers go (a fence wait, where needed, is inserted separately): the
/// checker's own rules ([`read_satisfied`], [`write_conflict`]) under `sem`,
/// except that for the host, visibility a recorded barrier grants counts
/// (the planners follow host barriers with a submit and a wait).
fn satisfied(v: SyncVal, cur: StageAccess, kind: HazardKind, sem: Semantics) -> bool {
    let cur_host = cur.stage() == Stage::Host;
    match kind {
        HazardKind::WriteAfterRead => read_satisfied(v, cur) || cur_host,
        _ if cur_host => v.granted().0 & host_needs().0 != 0,
        _ => write_conflict(v, cur, sem.waw_needs_visibility).is_none(),
    }
}

/// A requirement as seen at a barrier point: the prior's current values,
/// each with the bytes that hold it (sorted, disjoint). Judged per value
/// on its own bytes: one earlier write ordered differently on two
/// subresources (a transition over each) needs no barrier beside the two
/// transitions (review30's case, `model/tests/tracker_images.rs`).
pub(crate) struct Live {
    req: Req,
    values: Vec<(SyncVal, Vec<ByteRange>)>,
}

/// Whether sorted, disjoint `ranges` meet `[start, end)`.
fn meets(ranges: &[ByteRange], start: u64, end: u64) -> bool {
    let i = ranges.partition_point(|r| r.end <= start);
    ranges.get(i).is_some_and(|r| r.start < end)
}

fn all_satisfied(live: &[Live], barriers: &[Barrier], layout: &Layout, sem: Semantics) -> bool {
    let resolved: Vec<_> = barriers.iter().map(|b| ResolvedBarrier::of(b, layout)).collect();
    live.iter().all(|l| live_satisfied(l, &resolved, sem))
}

/// Whether the barriers `resolved`, applied together (one point), satisfy
/// requirement `l`.
///
/// Monotone in the barriers: a value's state after several barriers is the
/// union of what each adds ([`SyncVal::apply`] computes every barrier's
/// effect from the value before the point), [`satisfied`] only asks
/// whether stage and access sets contain something, and splitting a piece
/// at another barrier's boundary leaves each barrier's reach on the
/// smaller pieces what it was on the piece (its own boundaries are cuts
/// already). So a requirement one barrier satisfies alone stays satisfied
/// by any set holding that barrier; [`Singles`] relies on it.
fn live_satisfied(l: &Live, resolved: &[ResolvedBarrier], sem: Semantics) -> bool {
    let mem = l.req.hazard.memory;
    // Buffer barriers may cover the hazard's bytes piecewise: split them
    // at every barrier boundary inside, so that each barrier either
    // holds a piece whole (its memory dependency reaches it) or misses
    // it (its execution dependency still counts).
    let mut cuts = vec![mem.range.start, mem.range.end];
    for b in resolved {
        if let Some(r) = b.range.filter(|r| r.mem == mem.mem) {
            for x in [r.range.start, r.range.end] {
                if mem.range.start < x && x < mem.range.end {
                    cuts.push(x);
                }
            }
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    #[cfg(test)]
    tests::EFFECTS.with(|c| c.set(c.get() + (resolved.len() * l.values.len() * (cuts.len() - 1)) as u64));
    cuts.windows(2).all(|piece| {
        let (start, end) = (piece[0], piece[1]);
        l.values
            .iter()
            .filter(|(_, bytes)| meets(bytes, start, end))
            .all(|(v, _)| {
                let after = v.apply(resolved, |b| match b.range {
                    None => Reach::Full,
                    Some(r) if r.mem == mem.mem && r.range.start <= start && end <= r.range.end => {
                        Reach::Full
                    }
                    Some(_) => Reach::ExecOnly,
                });
                l.req.satisfied_by(after, sem)
            })
    })
}

/// The barriers of a point being thinned (buffer form), resolved once,
/// with which live requirements each satisfies on its own.
///
/// Dropping a barrier, or a bit of one, can only unsatisfy a requirement
/// that no other barrier satisfies alone (satisfaction is monotone, see
/// [`live_satisfied`]): only those are checked against the whole candidate
/// set, which gives the same answer as checking every requirement. This
/// keeps thinning a point of B barriers and L requirements at about
/// O(B·L) single checks instead of O(B²·L) full ones.
struct Singles<'a> {
    live: &'a [Live],
    layout: &'a Layout,
    sem: Semantics,
    barriers: Vec<Barrier>,
    resolved: Vec<ResolvedBarrier>,
    /// Per barrier: the requirements it satisfies alone.
    alone: Vec<Vec<usize>>,
    /// Per requirement: how many barriers satisfy it alone.
    count: Vec<usize>,
}

impl<'a> Singles<'a> {
    fn new(barriers: Vec<Barrier>, live: &'a [Live], layout: &'a Layout, sem: Semantics) -> Self {
        let mut s = Singles {
            live,
            layout,
            sem,
            resolved: barriers.iter().map(|b| ResolvedBarrier::of(b, layout)).collect(),
            alone: vec![Vec::new(); barriers.len()],
            count: vec![0; live.len()],
            barriers,
        };
        for i in 0..s.barriers.len() {
            s.count_alone(i);
        }
        s
    }

    /// Records which requirements barrier `i` satisfies alone.
    fn count_alone(&mut self, i: usize) {
        let r = std::slice::from_ref(&self.resolved[i]);
        let alone: Vec<usize> = (0..self.live.len())
            .filter(|&l| live_satisfied(&self.live[l], r, self.sem))
            .collect();
        for &l in &alone {
            self.count[l] += 1;
        }
        self.alone[i] = alone;
    }

    fn forget_alone(&mut self, i: usize) {
        for &l in &self.alone[i] {
            self.count[l] -= 1;
        }
        self.alone[i].clear();
    }

    /// Whether every requirement is still satisfied with barrier `i`
    /// replaced by `with` (or left out, for `None`): exactly
    /// `all_satisfied` on that candidate set.
    fn satisfied_with(&self, i: usize, with: Option<&Barrier>) -> bool {
        let mine = |l: usize| self.alone[i].binary_search(&l).is_ok();
        let open: Vec<usize> = (0..self.live.len())
            .filter(|&l| self.count[l] == usize::from(mine(l)))
            .collect();
        if open.is_empty() {
            return true;
        }
        let mut candidate = self.resolved.clone();
        match with {
            Some(b) => candidate[i] = ResolvedBarrier::of(b, self.layout),
            None => {
                candidate.remove(i);
            }
        }
        open.iter()
            .all(|&l| live_satisfied(&self.live[l], &candidate, self.sem))
    }

    fn remove(&mut self, i: usize) {
        self.forget_alone(i);
        self.barriers.remove(i);
        self.resolved.remove(i);
        self.alone.remove(i);
    }

    fn replace(&mut self, i: usize, b: Barrier) {
        self.forget_alone(i);
        self.barriers[i] = b;
        self.resolved[i] = ResolvedBarrier::of(&b, self.layout);
        self.count_alone(i);
    }
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
pub(crate) fn point_barriers(
    live: &[Live],
    form: BarrierForm,
    layout: &Layout,
    sem: Semantics,
) -> Vec<Barrier> {
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
        return vec![fewest_bits(merged, live, layout, sem)];
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
    // Drop barriers the rest of the point makes redundant, then bits, then
    // merge barriers that became equal but for touching ranges of one
    // object; again until nothing changes.
    loop {
        let count = barriers.len();
        barriers = without_redundant(barriers, live, layout, sem);
        barriers = without_spare_bits(barriers, live, layout, sem);
        barriers = merged_touching(barriers);
        if barriers.len() == count {
            return barriers;
        }
    }
}

/// Each barrier the others make redundant, dropped (first to last).
fn without_redundant(barriers: Vec<Barrier>, live: &[Live], layout: &Layout, sem: Semantics) -> Vec<Barrier> {
    let mut s = Singles::new(barriers, live, layout, sem);
    let mut i = 0;
    while i < s.barriers.len() && s.barriers.len() > 1 {
        if s.satisfied_with(i, None) {
            s.remove(i);
        } else {
            i += 1;
        }
    }
    s.barriers
}

/// Barriers with the same masks over overlapping or adjacent ranges of one
/// object, merged into one over the union (which orders at least as much).
fn merged_touching(barriers: Vec<Barrier>) -> Vec<Barrier> {
    let mut out: Vec<Barrier> = Vec::with_capacity(barriers.len());
    for b in barriers {
        let same_masks = |a: &Barrier| {
            (
                a.src_stage_mask,
                a.src_access_mask,
                a.dst_stage_mask,
                a.dst_access_mask,
            ) == (
                b.src_stage_mask,
                b.src_access_mask,
                b.dst_stage_mask,
                b.dst_access_mask,
            )
        };
        let touching = out.iter_mut().find(|a| {
            same_masks(a)
                && match (a.region, b.region) {
                    (None, None) => true,
                    (Some(x), Some(y)) => {
                        x.object == y.object && x.range.start <= y.range.end && y.range.start <= x.range.end
                    }
                    _ => false,
                }
        });
        match touching {
            Some(a) => {
                if let (Some(x), Some(y)) = (&mut a.region, b.region) {
                    x.range = ByteRange::new(x.range.start.min(y.range.start), x.range.end.max(y.range.end));
                }
            }
            None => out.push(b),
        }
    }
    out
}

/// Every bit each barrier does not need dropped, until none can go
/// (dropping an access can make its stage droppable).
fn without_spare_bits(
    barriers: Vec<Barrier>,
    live: &[Live],
    layout: &Layout,
    sem: Semantics,
) -> Vec<Barrier> {
    let mut s = Singles::new(barriers, live, layout, sem);
    loop {
        let before: u32 = s.barriers.iter().map(Barrier::bit_count).sum();
        for i in 0..s.barriers.len() {
            for field in 0..4 {
                let bits = mask_bits(&s.barriers[i], field);
                for bit in (0..64).map(|k| 1u64 << k).filter(|b| bits & b != 0) {
                    let mut b = s.barriers[i];
                    set_mask_bits(&mut b, field, mask_bits(&s.barriers[i], field) & !bit);
                    let valid = scope::validate(b.src_stage_mask, b.src_access_mask, Side::Src).is_ok()
                        && scope::validate(b.dst_stage_mask, b.dst_access_mask, Side::Dst).is_ok();
                    if valid && s.satisfied_with(i, Some(&b)) {
                        s.replace(i, b);
                    }
                }
            }
        }
        if s.barriers.iter().map(Barrier::bit_count).sum::<u32>() == before {
            return s.barriers;
        }
    }
}

/// `b` with every bit dropped that is not needed for it to be valid usage
/// and satisfy `live` (`b` itself does), one at a time until none can go.
/// The optimality suite compares the plans this gives (with
/// [`improve_bits`] on small plans) with a brute-force minimum.
fn fewest_bits(b: Barrier, live: &[Live], layout: &Layout, sem: Semantics) -> Barrier {
    // The union of the requirements' direct fixes satisfies them all; if not,
    // a fix is wrong and dropping bits could only hide it.
    debug_assert!(
        all_satisfied(live, std::slice::from_ref(&b), layout, sem),
        "the merged direct fixes do not satisfy their requirements"
    );
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
            && all_satisfied(live, std::slice::from_ref(c), layout, sem)
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
pub(crate) fn mask_bits(b: &Barrier, field: usize) -> u64 {
    match field {
        0 => b.src_stage_mask.bits(),
        1 => b.src_access_mask.bits(),
        2 => b.dst_stage_mask.bits(),
        _ => b.dst_access_mask.bits(),
    }
}

pub(crate) fn set_mask_bits(b: &mut Barrier, field: usize, bits: u64) {
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
pub(crate) fn live_requirements(
    checker: &mut Checker,
    reqs: impl Iterator<Item = Req>,
    completes: bool,
) -> Vec<Live> {
    let sem = checker.semantics();
    reqs.filter_map(|req| {
        let h = &req.hazard;
        let mut values = checker.prior_values(h.memory.mem, h.memory.range, h.prior_command, h.prior);
        if completes {
            for (v, _) in values.iter_mut() {
                if v.submitted && !v.fenced {
                    *v = SyncVal {
                        fenced: true,
                        order: StageSet::ALL_DEVICE,
                        exec: if v.sa.is_write() {
                            StageSet::ALL_DEVICE
                        } else {
                            v.exec
                        },
                        ..*v
                    };
                }
            }
        }
        // No value left: the prior access was dropped from the checker's
        // state because a later access of the same kind dominates it (see
        // `Checker`), and that access's own requirement covers this one.
        let done = values.iter().all(|(v, _)| req.satisfied_by(*v, sem));
        (!done).then_some(Live { req, values })
    })
    .collect()
}

/// Places one barrier point. `to_input` maps the command indices of the
/// program being walked back to the barrier-free input's, which is what
/// [`Plan::answers`] promises.
pub(crate) fn emit_point(
    out: &mut Emitter,
    checker: &mut Checker,
    layout: &Layout,
    live: Vec<Live>,
    form: BarrierForm,
    to_input: impl Fn(usize) -> usize,
) {
    let (barriers, answers) = place_point(checker, layout, live, form);
    let answers = answers
        .into_iter()
        .map(|h| Hazard {
            command: to_input(h.command),
            prior_command: to_input(h.prior_command),
            ..h
        })
        .collect();
    out.barrier(barriers, answers);
}

/// The barriers of one point for the requirements still open there,
/// applied to the checker, and the hazards they answer (nothing when
/// nothing is open).
pub(crate) fn place_point(
    checker: &mut Checker,
    layout: &Layout,
    live: Vec<Live>,
    form: BarrierForm,
) -> (Vec<Barrier>, Vec<Hazard>) {
    if live.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let barriers = point_barriers(&live, form, layout, checker.semantics());
    let resolved: Vec<_> = barriers.iter().map(|b| ResolvedBarrier::of(b, layout)).collect();
    checker.apply(&resolved);
    (barriers, live.into_iter().map(|l| l.req.hazard).collect())
}

/// The barriers of a point that falls at a layout transition's command
/// `dep` (they join it, applied together), for the requirements still
/// open there, and the hazards they answer; nothing is applied to the
/// checker (the caller steps the merged command). A requirement the
/// transition's own barriers satisfy is left to them.
pub(crate) fn point_with_transition(
    checker: &Checker,
    layout: &Layout,
    live: Vec<Live>,
    form: BarrierForm,
    dep: &Dependency,
) -> (Vec<Barrier>, Vec<Hazard>) {
    let sem = checker.semantics();
    let fixed: Vec<_> = dep
        .barriers
        .iter()
        .map(|b| ResolvedBarrier::of(b, layout))
        .collect();
    let live: Vec<Live> = live
        .into_iter()
        .filter(|l| !live_satisfied(l, &fixed, sem))
        .collect();
    if live.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let barriers = point_barriers(&live, form, layout, sem);
    (barriers, live.into_iter().map(|l| l.req.hazard).collect())
}

pub(crate) fn feed(out: &mut Emitter, checker: &mut Checker, layout: &Layout, i: usize, c: &Command) {
    let mut sink = Vec::new();
    step(checker, layout, i, c, &mut sink);
    out.command(i, c);
}

#[cfg(test)]
mod tests {
    use super::super::{plan, BarrierForm, PlanOptions, PlannerKind};
    use std::cell::Cell;

    thread_local! {
        /// Barrier effects [`super::live_satisfied`] has evaluated (one per
        /// barrier, value and piece): the work of thinning points.
        pub(super) static EFFECTS: Cell<u64> = const { Cell::new(0) };
    }

    /// `k` buffers each written from `src`, then each read and written
    /// again: one point before the second half with `k` buffer barriers
    /// and `k` requirements (issue 27).
    fn effects_planning(k: usize) -> u64 {
        let mut s = String::from("buffer src 256\n");
        for j in 0..k {
            s.push_str(&format!("buffer x{j} 256\n"));
        }
        for j in 0..k {
            s.push_str(&format!(
                "dispatch scale_add(2,1) read src[0..256] write x{j}[0..256]\n"
            ));
        }
        for j in 0..k {
            s.push_str(&format!("dispatch scale_add(2,1) rw x{j}[0..256]\n"));
        }
        s.push_str("submit\n");
        let program = crate::trace::parse(&s).expect("trace parses").program;
        EFFECTS.with(|c| c.set(0));
        let p = plan(
            &program,
            PlanOptions::new(PlannerKind::Offline).form(BarrierForm::Buffer),
        )
        .expect("plans");
        assert_eq!(p.program.barrier_points(), 1);
        EFFECTS.with(Cell::get)
    }

    /// Thinning a point of B barriers for L requirements evaluates about
    /// B·L barrier effects (each barrier alone against each requirement,
    /// then the whole point for the few no single barrier covers), not
    /// B²·L (the whole point against every requirement, per barrier and
    /// per bit dropped): four times the buffers, about 16 times the work,
    /// where it used to be 64 (800 buffers took 15 s).
    #[test]
    fn thinning_a_point_is_quadratic_not_cubic() {
        let (small, large) = (effects_planning(20), effects_planning(80));
        let ratio = large as f64 / small as f64;
        assert!(
            ratio < 24.0,
            "{small} effects for 20 buffers, {large} for 80: ratio {ratio:.1}"
        );
    }
}
