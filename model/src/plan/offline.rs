//! The offline planner: the whole program's dependency intervals, stabbed
//! by the fewest barrier points (greedy by right end, which is optimal for
//! intervals), each point given the fewest bits for what is still open
//! there; then, for small plans, a local search across points for fewer
//! bits in total ([`improve_bits`]). Also the stabbing bound itself,
//! computed from the intervals alone, which the planner laws hold the
//! planner to.

use super::emit::{is_device, is_host, Emitter};
use super::points::{
    emit_point, live_requirements, mask_bits, point_with_transition, requirement_intervals, set_mask_bits,
    with_waits, Deadlines, Need, NeedStream, Req,
};
use super::transitions::is_transition;
use super::{BarrierForm, Plan};
use crate::hazard::{is_clean, step, Hazard};
use crate::ir::access::accesses;
use crate::ir::layout::{resolve, Layout, ProgramError};
use crate::ir::program::{Barrier, Command, Dependency, Program};
use crate::semantics::{Reading, Semantics};
use crate::sync::checker::Checker;
use crate::vk::scope::{self, Side};
use std::collections::BTreeMap;

/// A barrier-free program with its fence waits placed, and the origin of
/// each command (see [`with_waits`]).
/// Borrowed where no wait was inserted (most long programs): a program
/// copy less at the peak.
pub(crate) type Placement<'a> = (std::borrow::Cow<'a, Program>, Vec<Option<usize>>);

/// The fence-wait placements the offline planner tries: eager (see
/// [`with_waits`]) and, where its eager rule added a wait, lazy. Most
/// programs give one.
pub(crate) fn wait_placements<'a>(
    input: &'a Program,
    layout: &'a Layout,
    sem: Semantics,
) -> impl Iterator<Item = Placement<'a>> + 'a {
    // One at a time (each is a copy of the program): the lazy one only
    // where the eager rule added a wait.
    let mut eager_fired = None;
    let placed = move |(program, origin): (Program, Vec<Option<usize>>)| -> Placement<'a> {
        if program.commands.len() == input.commands.len() {
            (std::borrow::Cow::Borrowed(input), origin)
        } else {
            (std::borrow::Cow::Owned(program), origin)
        }
    };
    std::iter::from_fn(move || match eager_fired {
        // Waits go before host accesses only: a program with none is its
        // own placement, without `with_waits`' walk of the checker (a fifth
        // of the offline planner's time on a million device commands) or
        // its copy of the program.
        None if !input.commands.iter().any(is_host) => {
            eager_fired = Some(false);
            Some((
                std::borrow::Cow::Borrowed(input),
                (0..input.commands.len()).map(Some).collect(),
            ))
        }
        None => {
            let (program, origin, fired) = with_waits(input, layout, sem, true);
            eager_fired = Some(fired);
            Some(placed((program, origin)))
        }
        Some(true) => {
            eager_fired = Some(false);
            let (program, origin, _) = with_waits(input, layout, sem, false);
            Some(placed((program, origin)))
        }
        Some(false) => None,
    })
}

/// The offline plan of a program whose fence waits are placed; `horizon`
/// as for [`Deadlines`].
pub(crate) fn offline(
    placement: &Placement<'_>,
    form: BarrierForm,
    sem: Semantics,
    out: &mut Emitter,
    horizon: Option<&[Option<usize>]>,
) {
    let (waited, origin) = placement;
    let waited: &Program = waited;
    let layout = &resolve(waited).expect("inserting submits and waits keeps a program valid");
    // One walk of the checker over the barrier-free program hands each
    // requirement over as it is found; the points are placed as the
    // requirements come (`Points`), and each requirement is held only
    // until the plan walk reaches its point (issue 27: the whole list took
    // 4.7 GB at 1M lines). (A separate first walk for the intervals alone
    // was a third of the planner's time.)
    let deadlines = Deadlines::of(waited, horizon);
    // Each layout transition is a point already (`transitions`): a point
    // there joins its barrier command.
    let fixed: Vec<usize> = (0..waited.commands.len())
        .filter(|&i| is_transition(&waited.commands[i]))
        .collect();
    let mut points = Points {
        stream: NeedStream::new(waited, layout, sem, &deadlines),
        deadlines: &deadlines,
        greedy: Greedy::new(&fixed),
        placed: Vec::new(),
        waiting: BTreeMap::new(),
        done: 0,
        end: waited.commands.len(),
        buckets: BTreeMap::new(),
    };
    // The requirements of point `i`, in the order the whole sorted list
    // gave them (by deadline, then prior command, then command, then as
    // the walk found them).
    let take = |points: &mut Points<'_, '_>, i: usize| -> Vec<Req> {
        points.complete(i);
        let mut here = points.buckets.remove(&i).unwrap_or_default();
        here.sort_by_key(|n| (deadlines.hi(n), n.prior_command, n.command));
        here.into_iter()
            .map(|n| Req::new(Some(waited), layout, n.hazard()))
            .collect()
    };
    // Whether a wait comes after each command before the next submit.
    let mut completes = vec![false; waited.commands.len()];
    let mut next_is_wait = false;
    for (i, c) in waited.commands.iter().enumerate().rev() {
        match c {
            Command::Submit(_) => next_is_wait = false,
            Command::Wait(_) => next_is_wait = true,
            _ => {}
        }
        completes[i] = next_is_wait;
    }
    let mut checker = Checker::with_semantics(layout.memory_sizes.len(), sem);
    // Its hazards are dropped (the requirements come from `take`).
    checker.set_pieces(crate::sync::checker::PieceHazards::First);
    // Invariant: hazards are between accesses, which all come from the
    // input (only submits and waits were inserted).
    let to_input = |i: usize| origin[i].expect("accesses come from the input");
    for (i, c) in waited.commands.iter().enumerate() {
        if let (Command::Barrier(dep), true) = (c, is_transition(c)) {
            // A transition: the point's barriers join its command, applied
            // together with it (none chains into the transition, whose own
            // first scopes order what it needs).
            let here = take(&mut points, i).into_iter();
            let live = live_requirements(&mut checker, here, completes[i]);
            let (barriers, answers) = point_with_transition(&checker, layout, live, form, dep);
            let answers = answers
                .into_iter()
                .map(|h| Hazard {
                    command: to_input(h.command),
                    prior_command: to_input(h.prior_command),
                    ..h
                })
                .collect();
            let mut merged = barriers;
            merged.extend_from_slice(&dep.barriers);
            let merged = Command::Barrier(Dependency { barriers: merged });
            let mut sink = Vec::new();
            step(&mut checker, layout, i, &merged, &mut sink);
            out.merged_barrier(origin[i], merged, answers);
            continue;
        }
        if points.is_point(i) {
            let here = take(&mut points, i).into_iter();
            let live = live_requirements(&mut checker, here, completes[i]);
            emit_point(out, &mut checker, layout, live, form, to_input);
        }
        let mut sink = Vec::new();
        step(&mut checker, layout, i, c, &mut sink);
        out.command_from(origin[i], c);
    }
}

/// The classic greedy for a minimum stabbing set of intervals `(lo, hi]`,
/// handed in order of their right ends: a point at the right end of each
/// interval no point stabs yet. Layout transitions are points already
/// (`fixed`); an interval one of them stabs needs no other. The one home
/// of the rule for the offline planner (which hands the intervals over as
/// its walk finds them, [`Points`]) and [`stabbing_bound`] (which sorts
/// them first).
struct Greedy<'f> {
    fixed: &'f [usize],
    last: Option<usize>,
}

impl<'f> Greedy<'f> {
    fn new(fixed: &'f [usize]) -> Self {
        Greedy { fixed, last: None }
    }

    /// Offers the intervals with right end `hi` (their left ends `los`), all
    /// of them after every interval with a smaller right end; whether a point
    /// goes at `hi`. The order among them does not matter: before a point at
    /// `hi`, the last point is the same for each, and after it every one of
    /// them is stabbed.
    fn offer(&mut self, hi: usize, mut los: impl Iterator<Item = usize>) -> bool {
        let last = self.last;
        let fixed = self.fixed;
        let open = los.any(|lo| last.is_none_or(|p| p <= lo) && !stabbed(fixed, lo, hi));
        if open {
            self.last = Some(hi);
        }
        open
    }
}

/// Whether a point of `fixed` (sorted) lies in `(lo, hi]`.
fn stabbed(fixed: &[usize], lo: usize, hi: usize) -> bool {
    let k = fixed.partition_point(|&p| p <= lo);
    fixed.get(k).is_some_and(|&p| p <= hi)
}

/// The offline planner's points, placed as the requirements of the
/// barrier-free program come from its walk ([`NeedStream`]), and the
/// requirements of each point until the plan walk takes them.
///
/// Invariants: every requirement with deadline below `done` was offered to
/// the greedy (`placed` holds every point it placed below `done`, in
/// order) and is in the bucket of the last point at or before its
/// deadline; `waiting` holds the requirements walked with a deadline of
/// `done` or later, by deadline, each deadline's in the order the walk
/// found them.
struct Points<'a, 'd> {
    stream: NeedStream<'a>,
    deadlines: &'d Deadlines<'d>,
    greedy: Greedy<'d>,
    placed: Vec<usize>,
    waiting: BTreeMap<usize, Vec<Need>>,
    done: usize,
    /// The program's length: every deadline lies below it.
    end: usize,
    buckets: BTreeMap<usize, Vec<Need>>,
}

impl Points<'_, '_> {
    /// Offers the requirements with deadline `done` and moves `done` on by
    /// one.
    fn grow(&mut self) {
        let x = self.done + 1;
        let (waiting, deadlines) = (&mut self.waiting, self.deadlines);
        self.stream
            .advance(x, |n| waiting.entry(deadlines.hi(&n)).or_default().push(n));
        while let Some(entry) = self.waiting.first_entry() {
            let hi = *entry.key();
            if hi >= x {
                break;
            }
            let needs = entry.remove();
            if self.greedy.offer(hi, needs.iter().map(Need::lo)) {
                self.placed.push(hi);
            }
            // The last point at or before `hi`: every one is placed (the
            // greedy's own below `x`, the fixed ones from the start).
            let k = self.placed.partition_point(|&p| p <= hi);
            let f = self.greedy.fixed.partition_point(|&p| p <= hi);
            let point = match (k.checked_sub(1), f.checked_sub(1)) {
                (Some(a), Some(b)) => self.placed[a].max(self.greedy.fixed[b]),
                (Some(a), None) => self.placed[a],
                (None, Some(b)) => self.greedy.fixed[b],
                // Invariant: the greedy left a point in (lo, hi] for every
                // requirement.
                (None, None) => unreachable!("a requirement with no point at or before its deadline"),
            };
            debug_assert!(needs.iter().all(|n| point > n.lo()));
            self.buckets.entry(point).or_default().extend(needs);
        }
        self.done = x;
    }

    /// Whether command `i` is a point (the walk up to it decides).
    fn is_point(&mut self, i: usize) -> bool {
        while self.done <= i && self.done < self.end {
            self.grow();
        }
        self.placed.binary_search(&i).is_ok() || self.greedy.fixed.binary_search(&i).is_ok()
    }

    /// Walks on until the bucket of point `i` is whole: every requirement
    /// with a deadline before the next point after `i` is offered.
    fn complete(&mut self, i: usize) {
        let f = self.greedy.fixed.partition_point(|&p| p <= i);
        let next_fixed = self.greedy.fixed.get(f).copied().unwrap_or(usize::MAX);
        while self.done < self.end && self.done < next_fixed && self.placed.last().is_none_or(|&p| p <= i) {
            self.grow();
        }
    }
}

/// The fewest barrier points a plan of `program` needs once its fence
/// waits are placed: the size of a minimum stabbing set of its dependency
/// intervals, computed here independently of the planners (by the classic
/// greedy over intervals sorted by right end, on the hazards of the
/// barrier-free program), for each of the two wait placements the offline
/// planner tries, the smaller. Where a program has host accesses, other
/// wait placements exist, and the minimum over all of them is not
/// computed: this bounds plans that wait where the offline planner does.
/// Each layout transition counts as a point (it is one: the plan keeps
/// it), and intervals it stabs need no other.
pub fn stabbing_bound(program: &Program, reading: Reading) -> Result<usize, ProgramError> {
    super::refuse_unplanned(program)?;
    // Of the program the planners plan: with the subpass dependencies it
    // needs, which answer the hazards no barrier can.
    let program = &super::with_needed_dependencies(
        program,
        super::PlanOptions::new(super::PlannerKind::Offline).reading(reading),
    )?;
    let sem = Semantics::for_reading(reading);
    let (input, layout) = super::transitions::prepared(program, sem)?;
    let mut bound = usize::MAX;
    for (waited, _) in wait_placements(&input, &layout, sem) {
        bound = bound.min(stabbing_count(&waited, sem)?);
    }
    Ok(bound)
}

/// The size of a minimum stabbing set of a waited program's intervals
/// that holds its layout transitions (fixed points, see `transitions`).
fn stabbing_count(waited: &Program, sem: Semantics) -> Result<usize, ProgramError> {
    let layout = resolve(waited)?;
    let mut intervals = requirement_intervals(waited, &layout, sem, None);
    intervals.sort_by_key(|&(lo, hi)| (hi, lo));
    let fixed: Vec<usize> = (0..waited.commands.len())
        .filter(|&i| is_transition(&waited.commands[i]))
        .collect();
    let mut greedy = Greedy::new(&fixed);
    let mut count = fixed.len();
    for (lo, hi) in intervals {
        count += usize::from(greedy.offer(hi as usize, std::iter::once(lo as usize)));
    }
    Ok(count)
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
/// program's commands make), or a stage with its access, to one side of
/// one point; or move one point to another gap
/// before a device command; after either, every bit of every point that is
/// no longer needed is dropped. A move is kept when the plan is still
/// hazard-free and has fewer bits; the search repeats until no move helps.
pub(crate) fn improve_bits(plan: &mut Plan, sem: Semantics) {
    // A transition stays where it is (and is not a point of one barrier
    // anyway once a point joined it): only planned points move.
    let is_point = |p: &Program, i: usize| {
        matches!(&p.commands[i], Command::Barrier(d) if d.barriers.len() == 1)
            && !is_transition(&p.commands[i])
    };
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
    // The concrete flags, one per (field, bit); and the additions a point
    // can try: one flag, or a stage with its access on one side (an access
    // alone is often invalid at the point's stages, so carrying a further
    // dependency at an earlier point takes both at once).
    let mut flags: Vec<(usize, u64)> = Vec::new();
    let mut additions: Vec<Vec<(usize, u64)>> = Vec::new();
    for c in &plan.program.commands {
        for a in accesses(c, &layout, sem) {
            let (stage, access) = (a.sa.stage().flag().bits(), a.sa.access().bits());
            for f in [(0, stage), (1, access), (2, stage), (3, access)] {
                if !flags.contains(&f) {
                    flags.push(f);
                    additions.push(vec![f]);
                }
            }
            for pair in [vec![(0, stage), (1, access)], vec![(2, stage), (3, access)]] {
                if !additions.contains(&pair) {
                    additions.push(pair);
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
    let clean = |p: &Program| is_clean(p, &layout, sem);
    let total = |p: &Plan| p.program.barrier_bits();
    // Drops every bit of every point that is not needed (but `pinned`), in
    // a fixed order, until none can go (dropping an access can make a stage
    // droppable).
    let shrink = |p: &mut Program, pinned: &[(usize, usize, u64)]| loop {
        let before = p.barrier_bits();
        for i in points_of(p) {
            for field in 0..4 {
                let bits = mask_bits(&barrier(p, i), field);
                for bit in (0..64)
                    .map(|k| 1u64 << k)
                    .filter(|b| bits & b != 0 && !pinned.contains(&(i, field, *b)))
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
            for addition in &additions {
                let mut b = barrier(&plan.program, i);
                let mut pinned = Vec::with_capacity(addition.len());
                for &(field, bit) in addition {
                    let m = mask_bits(&b, field);
                    if m & bit == 0 {
                        set_mask_bits(&mut b, field, m | bit);
                        pinned.push((i, field, bit));
                    }
                }
                if pinned.len() != addition.len() || !valid(&b) {
                    // Already there in part (a smaller addition covers
                    // it), or not a valid barrier.
                    continue;
                }
                let mut q = plan.clone();
                set(&mut q.program, i, b);
                // First what the new flags make unnecessary elsewhere, then
                // anything, the new flags included. When they make nothing
                // else unnecessary, the second shrink can only take them
                // out again (the plan was shrunk already): skip it.
                let added = q.program.barrier_bits();
                shrink(&mut q.program, &pinned);
                if q.program.barrier_bits() == added {
                    continue;
                }
                shrink(&mut q.program, &[]);
                consider(q, &mut best);
            }
            // Every other gap before a device command, not next to a point
            // and not inside a rendering instance (before a draw or an end:
            // no barrier may be recorded there) nor a render pass instance
            // (before a next-subpass).
            let instances = crate::ir::render::barrier_points(&plan.program.commands);
            for (to, instance) in instances.iter().enumerate() {
                let next_to_point =
                    (to > 0 && is_point(&plan.program, to - 1)) || is_point(&plan.program, to);
                let inside = instance.is_some_and(|b| b != to);
                if to == i || to == i + 1 || next_to_point || inside || !is_device(&plan.program.commands[to])
                {
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
                    shrink(&mut q.program, &[]);
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
