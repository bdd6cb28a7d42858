//! Planning around image layout transitions: what a planner keeps of the
//! input's barriers, and the scopes each kept transition needs.
//!
//! A layout transition is part of what a program does (a write of its
//! region that its barrier performs, `docs/semantics.md`, "Image layout
//! transitions"), not only synchronization, so a planner cannot drop it
//! with the other barriers. Each barrier with [`Barrier::transition`] set
//! stays where it is, with its region and ownership transfer, as a fixed
//! barrier point; every other barrier is dropped
//! ([`planning_input`]). Its scopes are then what the program needs of
//! them ([`with_transition_scopes`]): the checker finds, on the program
//! whose transitions have empty scopes, every earlier access that must be
//! ordered before each transition (the spec orders a transition after the
//! availability operations of its own barrier only, so a transition with
//! an empty first scope is ordered after nothing but earlier transitions
//! and host accesses) and every later access that must be ordered after it
//! (only the transition's own second scope reaches its write); each such
//! hazard's fix is one side of the transition's own barrier
//! ([`crate::hazard::Fix`]), and their union is a superset of what the
//! transition needs. The planners plan the rest with the transitions in
//! place, merge a point that falls at a transition into its
//! `vkCmdPipelineBarrier2`, and [`fewest_transition_bits`] drops every bit
//! of a transition the finished plan does not need.
//!
//! This module does not decide hazards (the checker does) and does not
//! know how a transition's region is laid out: it goes through
//! [`crate::ir::access`]'s accesses of a barrier, whatever an image
//! barrier's region is.

use super::points::{mask_bits, set_mask_bits};
use super::Plan;
use crate::hazard::{is_clean, step, Hazard};
use crate::ir::access::accesses;
use crate::ir::layout::{resolve, Layout, ProgramError};
use crate::ir::program::{Barrier, Command, Dependency, Program};
use crate::semantics::Semantics;
use crate::sync::checker::Checker;
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
use crate::vk::scope::{self, Side};

/// Whether a planner drops command `c` of its input: every barrier command
/// but those that perform a layout transition (their other barriers are
/// dropped, see [`planning_input`]), and every event command (`set-event`,
/// `wait-events`, their synchronization-1 forms, `reset-event`,
/// `host-set-event`, `host-reset-event`): an event is a barrier cut in two
/// (`docs/semantics.md`, "Events"), synchronization the plan makes anew;
/// but an event command that performs a layout transition (a `set-event`
/// whose barriers transition, at the set; a `wait-events1` whose barriers
/// do, at the wait) stays as those transitions, a pipeline barrier at its
/// place (`transition_part`). (A host set is never waited for by a batch
/// submitted before it, which would order the host's earlier writes before
/// that batch: see `host_signal_waited_early`.) The commands a planner
/// keeps are those its [`Plan::origin`] indices count.
pub fn is_planned_away(c: &Command) -> bool {
    (matches!(c, Command::Barrier(_)) || is_event_command(c)) && transition_part(c).is_none()
}

/// The layout transitions command `c` performs, as one barrier command
/// with empty scopes over their regions ([`transitions_only`]): a
/// pipeline barrier's; a `vkCmdSetEvent2`'s, which the set performs
/// (its second synchronization scope "includes ... image layout
/// transitions defined by pDependencyInfo"), so a barrier at the set's
/// place makes the same layout change at the same point of execution; a
/// `vkCmdWaitEvents`'s, part of the wait's memory dependency, at the
/// wait's place. `None` for a command that performs none (a
/// `vkCmdWaitEvents2` performs none: its set did).
pub(crate) fn transition_part(c: &Command) -> Option<Dependency> {
    match c {
        Command::Barrier(d)
        | Command::SetEvent { dependency: d, .. }
        | Command::WaitEvents1 { dependency: d, .. } => transitions_only(d),
        _ => None,
    }
}

/// Whether `c` is one of the event commands [`is_planned_away`] drops.
fn is_event_command(c: &Command) -> bool {
    matches!(
        c,
        Command::SetEvent { .. }
            | Command::WaitEvents { .. }
            | Command::SetEvent1 { .. }
            | Command::WaitEvents1 { .. }
            | Command::ResetEvent { .. }
            | Command::HostSetEvent { .. }
            | Command::HostResetEvent { .. }
    )
}

/// The program a planner starts from: every barrier and event command
/// dropped but the layout transitions ([`is_planned_away`]), each kept at
/// its place as a barrier with empty scopes over its region (with its
/// ownership transfer, if any); a `vkCmdPipelineBarrier2` with several
/// transitions keeps them together, and so does an event command
/// (`transition_part`).
pub fn planning_input(program: &Program) -> Program {
    let commands = program
        .commands
        .iter()
        .filter_map(|c| match c {
            c if matches!(c, Command::Barrier(_)) || is_event_command(c) => {
                transition_part(c).map(Command::Barrier)
            }
            c => Some(c.clone()),
        })
        .collect();
    program.with_commands(commands)
}

/// What is left of barrier command `dep` without its synchronization: its
/// layout transitions with empty scopes, or nothing (the one rule of
/// [`planning_input`] and of removing a recorded barrier).
pub(crate) fn transitions_only(dep: &Dependency) -> Option<Dependency> {
    let barriers: Vec<Barrier> = dep
        .barriers
        .iter()
        .filter(|b| b.transition)
        .map(|b| Barrier {
            src_stage_mask: PipelineStageFlags2::NONE,
            src_access_mask: AccessFlags2::NONE,
            dst_stage_mask: PipelineStageFlags2::NONE,
            dst_access_mask: AccessFlags2::NONE,
            ..*b
        })
        .collect();
    (!barriers.is_empty()).then_some(Dependency { barriers })
}

/// Whether command `c` performs a layout transition.
pub(crate) fn is_transition(c: &Command) -> bool {
    matches!(c, Command::Barrier(d) if d.barriers.iter().any(|b| b.transition))
}

/// `input` (from [`planning_input`]) with each transition's scopes set to
/// the union of the fixes of the hazards at and after it, in recording
/// order: every earlier
/// access the transition must follow in its first scopes, every later
/// access that must follow it in its second. With those scopes no hazard
/// involves a transition any more; [`fewest_transition_bits`] later drops
/// what the finished plan makes unnecessary.
pub(crate) fn with_transition_scopes(input: Program, layout: &Layout, sem: Semantics) -> Program {
    let mut out = input;
    if !out.commands.iter().any(is_transition) {
        return out;
    }
    // Until no hazard involves a transition: a transition whose scopes grow
    // may stop standing for an earlier one of the same bytes (the checker
    // drops a write that a later transition covers, and covering depends
    // on the later one's scopes), which then shows hazards of its own.
    // Scopes only grow, so this ends; most programs need one round.
    while widen(&mut out, layout, sem) {}
    out
}

/// One round of [`with_transition_scopes`]: whether a scope grew.
fn widen(out: &mut Program, layout: &Layout, sem: Semantics) -> bool {
    // In recording order, with the hazards against work not yet waited
    // for (a streaming caller's view): a superset of what any placement of
    // submits and waits leaves, so that the planners, which insert some
    // before host accesses, never meet a hazard of a transition.
    let mut checker = Checker::with_semantics(layout.memory_sizes.len(), sem);
    let mut found = Vec::new();
    for (i, c) in out.commands.iter().enumerate() {
        step(&mut checker, layout, i, c, &mut found);
    }
    let mut grew = false;
    for h in found {
        let Some(fix) = h.fix.barrier.filter(|b| b.transition) else {
            continue;
        };
        // The transition's command, and the barriers of it whose write
        // holds the hazard's bytes.
        let at = if h.current.is_layout_transition() {
            h.command
        } else {
            h.prior_command
        };
        if let Command::Barrier(d) = &mut out.commands[at] {
            grew |= widen_hit(d, &h, fix, layout, sem);
        }
    }
    grew
}

/// Widens the scopes of `input`'s transitions (the program `plan` was
/// planned from) by the fixes of the hazards of a transition that `plan`
/// still has (single-queue plans: the fast checker's walk); whether a
/// scope grew.
pub(crate) fn widen_from_plan(input: &mut Program, plan: &Plan, sem: Semantics) -> bool {
    // Only a hazard whose fix names a transition of `input` widens
    // (`widen_by`): with none, the check of the whole plan below would
    // find nothing to do (it was a sixth of planning time on programs
    // with no image, issue 25).
    if !input.commands.iter().any(is_transition) {
        return false;
    }
    let Ok(layout) = resolve(&plan.program) else {
        return false;
    };
    if is_clean(&plan.program, &layout, sem) {
        return false;
    }
    let hazards = crate::hazard::check_resolved(&plan.program, &layout, sem);
    widen_by(input, plan, &hazards, &layout, sem)
}

/// Widens the scopes of `input`'s transitions by the fixes of `hazards`
/// (of `plan`, whose layout is `layout`) that name a transition; whether
/// a scope grew. The one rule of [`widen_from_plan`] and of the
/// multi-queue planner, which finds the hazards with the multi-queue
/// checker.
pub(crate) fn widen_by(
    input: &mut Program,
    plan: &Plan,
    hazards: &[Hazard],
    layout: &Layout,
    sem: Semantics,
) -> bool {
    let mut grew = false;
    for h in hazards {
        let Some(mut fix) = h.fix.barrier.filter(|b| b.transition) else {
            continue;
        };
        // A later operation in no pipeline stage (a queue family
        // ownership release or acquire, which writes the bytes): only
        // ALL_COMMANDS in the transition's second scope reaches it through
        // the operation's barrier (whose first scope the multi-queue
        // planner gives ALL_COMMANDS then).
        if !h.current.is_layout_transition() && h.current.stage().flag().is_empty() {
            fix.dst_stage_mask |= PipelineStageFlags2::ALL_COMMANDS;
        }
        let at = if h.current.is_layout_transition() {
            h.command
        } else {
            h.prior_command
        };
        // Transitions keep their origin: their index in `input`.
        let Some(Some(i)) = plan.origin.get(at).copied() else {
            continue;
        };
        if let Command::Barrier(d) = &mut input.commands[i] {
            grew |= widen_hit(d, h, fix, layout, sem);
        }
    }
    grew
}

/// Widens by `fix` each transition of barrier command `dep` whose write
/// holds bytes of hazard `h` (a transition's barrier may carry several,
/// over other regions, which the hazard does not concern); whether a scope
/// grew. The one rule of [`with_transition_scopes`], [`widen_by`] and the
/// loop-carried dependencies of a repeated command buffer
/// (`super::repeat`).
pub(crate) fn widen_hit(
    dep: &mut Dependency,
    h: &Hazard,
    fix: Barrier,
    layout: &Layout,
    sem: Semantics,
) -> bool {
    let mut grew = false;
    for b in dep.barriers.iter_mut().filter(|b| b.transition) {
        let one = Command::Barrier(Dependency { barriers: vec![*b] });
        let hit = accesses(&one, layout, sem)
            .iter()
            .any(|a| a.mem == h.memory.mem && a.range.overlaps(h.memory.range));
        if hit {
            let before = *b;
            b.src_stage_mask |= fix.src_stage_mask;
            b.src_access_mask |= fix.src_access_mask;
            b.dst_stage_mask |= fix.dst_stage_mask;
            b.dst_access_mask |= fix.dst_access_mask;
            grew |= *b != before;
        }
    }
    // A part that grew widens the whole image memory barrier it is part
    // of: the other parts hold the hazard's bytes in no way the printed
    // barrier could express.
    unify_parts(dep);
    grew
}

/// Gives every part of an image memory barrier in `dep` (the model
/// barriers over the byte ranges of one subresource range, which share
/// [`Barrier::image`]) the union of the parts' masks.
///
/// Invariant of every plan: the parts of one image memory barrier carry
/// the same masks. The trace format writes an image barrier once, with
/// one set of masks (`trace::print` writes part 0's), and the parser gives
/// each part those masks; a planner that widened or thinned one part alone
/// would print a plan other than the one it checked (a review found a
/// copy into mip 2 whose barrier printed mip 1's empty masks and raced).
pub(crate) fn unify_parts(dep: &mut Dependency) {
    for j in 0..dep.barriers.len() {
        let Some(r) = dep.barriers[j].image else { continue };
        // Each image barrier once, at its first part.
        if dep.barriers[..j].iter().any(|b| b.image == Some(r)) {
            continue;
        }
        let mut u = dep.barriers[j];
        for b in dep.barriers[j + 1..].iter().filter(|b| b.image == Some(r)) {
            u.src_stage_mask |= b.src_stage_mask;
            u.src_access_mask |= b.src_access_mask;
            u.dst_stage_mask |= b.dst_stage_mask;
            u.dst_access_mask |= b.dst_access_mask;
        }
        set_part(dep, j, u);
    }
}

/// Sets barrier `j` of `dep` to `b`, and every other part of the same
/// image memory barrier to `b`'s masks (the invariant of [`unify_parts`]):
/// the one way the planners thin or widen one barrier of a kept
/// transition.
pub(crate) fn set_part(dep: &mut Dependency, j: usize, b: Barrier) {
    dep.barriers[j] = b;
    let Some(r) = b.image else { return };
    for x in dep.barriers.iter_mut().filter(|x| x.image == Some(r)) {
        x.src_stage_mask = b.src_stage_mask;
        x.src_access_mask = b.src_access_mask;
        x.dst_stage_mask = b.dst_stage_mask;
        x.dst_access_mask = b.dst_access_mask;
    }
}

/// Whether barrier `j` of `dep` is a later part of an image memory barrier
/// whose first part comes earlier in `dep` (thinning tries each image
/// barrier once, at its first part: [`set_part`] changes them all).
pub(crate) fn later_part(dep: &Dependency, j: usize) -> bool {
    dep.barriers[j]
        .image
        .is_some_and(|r| dep.barriers[..j].iter().any(|b| b.image == Some(r)))
}

/// Drops every bit of the plan's layout-transition barrier commands (the
/// transitions' scopes and the planned barriers that joined them, each of
/// which may go whole) that the plan does not need (it stays race-free
/// without it and the barrier valid), one at a time until none can go,
/// last transition first, but the bits of `floor` (the program the plan
/// was planned from, whose transitions' scopes another planner needs:
/// the multi-queue planner's, for what other queues need of them).
///
/// Cost: a change at a transition cannot change what the checker found
/// before the transition runs, so each try is judged from a copy of the
/// checker's state there (one walk of the plan per pass gives them all),
/// a try costs the plan after the transition, not the whole plan
/// (`docs/planning.md`, "Layout transitions").
///
/// A planned barrier that goes, or a bit that goes, takes its answers
/// with it: the command's answers are then what removing the command's
/// synchronization (its transitions kept, with empty scopes) brings back,
/// found on the finished plan (a hazard an earlier point orders too is
/// then no answer of this command's).
pub(crate) fn fewest_transition_bits(plan: &mut Plan, sem: Semantics, floor: &Program) {
    let at: Vec<usize> = (0..plan.program.commands.len())
        .filter(|&i| is_transition(&plan.program.commands[i]))
        .collect();
    if at.is_empty() {
        return;
    }
    let Ok(layout) = resolve(&plan.program) else {
        return;
    };
    // A plan with a hazard already is widened and planned again by the
    // caller; every try would fail on it.
    if !is_clean(&plan.program, &layout, sem) {
        return;
    }
    let order = crate::ir::execution::order(&plan.program);
    let barrier = |p: &Program, i: usize, j: usize| match &p.commands[i] {
        Command::Barrier(d) => d.barriers[j],
        _ => unreachable!("transition points are barrier commands"),
    };
    // The floor of barrier `j` of transition command `i`: the scopes of
    // the same transition in `floor` (the input's transition commands hold
    // their transitions only, in the order the plan keeps after the
    // planned barriers that join them).
    let origin = plan.origin.clone();
    let floor_of = |p: &Program, i: usize, j: usize| -> Barrier {
        let none = Barrier::default();
        let (Some(Some(o)), Command::Barrier(d)) = (origin.get(i).copied(), &p.commands[i]) else {
            return none;
        };
        if !d.barriers[j].transition {
            return none;
        }
        let k = d.barriers[..j].iter().filter(|b| b.transition).count();
        match floor.commands.get(o) {
            Some(Command::Barrier(f)) => f
                .barriers
                .iter()
                .filter(|b| b.transition)
                .nth(k)
                .copied()
                .unwrap_or(none),
            _ => none,
        }
    };
    // Whether transition command `i` has anything to try: a planned
    // barrier beside its transitions, or a bit above its floor. Only
    // those get the walk's state before them, a clone of the checker each
    // (review37: 4,000 transitions with nothing to thin, one per buffer,
    // cloned it 4,000 times, a quadratic 17 s).
    let tryable = |p: &Program, i: usize| match &p.commands[i] {
        Command::Barrier(d) => (0..d.barriers.len()).any(|j| {
            !later_part(d, j)
                && (!d.barriers[j].transition || {
                    let keep = floor_of(p, i, j);
                    (0..4).any(|f| mask_bits(&d.barriers[j], f) & !mask_bits(&keep, f) != 0)
                })
        }),
        _ => false,
    };
    let mut thinned_away: Vec<usize> = Vec::new();
    loop {
        let before = plan.program.barrier_bits();
        let live: Vec<usize> = at
            .iter()
            .copied()
            .filter(|&i| tryable(&plan.program, i))
            .collect();
        if live.is_empty() {
            break;
        }
        let states = states_before(&plan.program, &layout, sem, &order, &live);
        for (&i, (pos, state)) in live.iter().zip(states).rev() {
            let clean = |p: &Program| clean_from(p, &layout, state.clone(), &order[pos..]);
            let n = match &plan.program.commands[i] {
                Command::Barrier(d) => d.barriers.len(),
                _ => 0,
            };
            for j in (0..n).rev() {
                if matches!(&plan.program.commands[i], Command::Barrier(d) if later_part(d, j)) {
                    continue;
                }
                // A planned barrier that joined the transition was thinned
                // for its point alone; applied together with the
                // transition, the pair can need less (the transition's
                // scopes were a superset then).
                if !barrier(&plan.program, i, j).transition {
                    let old = remove(&mut plan.program, i, j);
                    if clean(&plan.program) {
                        thinned_away.push(i);
                        continue;
                    }
                    insert(&mut plan.program, i, j, old);
                }
                let keep = floor_of(&plan.program, i, j);
                for field in 0..4 {
                    let bits = mask_bits(&barrier(&plan.program, i, j), field) & !mask_bits(&keep, field);
                    for bit in (0..64).map(|k| 1u64 << k).filter(|b| bits & b != 0) {
                        let old = barrier(&plan.program, i, j);
                        let mut b = old;
                        set_mask_bits(&mut b, field, mask_bits(&old, field) & !bit);
                        if !valid(&b) {
                            continue;
                        }
                        set(&mut plan.program, i, j, b);
                        if clean(&plan.program) {
                            // Its answers were the bits' before: found
                            // again below, like a barrier that went.
                            thinned_away.push(i);
                        } else {
                            set(&mut plan.program, i, j, old);
                        }
                    }
                }
            }
        }
        if plan.program.barrier_bits() == before {
            break;
        }
    }
    thinned_away.sort_unstable();
    thinned_away.dedup();
    if !thinned_away.is_empty() {
        reanswer(plan, &layout, sem, &thinned_away);
    }
}

/// Whether a barrier's two sides are valid (every access supported by a
/// stage of its side).
fn valid(b: &Barrier) -> bool {
    scope::validate(b.src_stage_mask, b.src_access_mask, Side::Src).is_ok()
        && scope::validate(b.dst_stage_mask, b.dst_access_mask, Side::Dst).is_ok()
}

/// The checker's walk (as [`is_clean`]'s) of a clean program up to each
/// command of `at` (sorted): per command, its position in `order` and the
/// state before it runs (the checker, and whether a provisional hazard
/// waits for a submit).
fn states_before(
    program: &Program,
    layout: &Layout,
    sem: Semantics,
    order: &[usize],
    at: &[usize],
) -> Vec<(usize, (Checker, bool))> {
    let mut checker = Checker::with_semantics(layout.memory_sizes.len(), sem);
    let mut pending = false;
    let mut found = Vec::new();
    let mut out = Vec::with_capacity(at.len());
    for (pos, &i) in order.iter().enumerate() {
        if at.binary_search(&i).is_ok() {
            out.push((i, (pos, (checker.clone(), pending))));
        }
        let c = &program.commands[i];
        step(&mut checker, layout, i, c, &mut found);
        pending |= found.drain(..).any(|h| h.provisional);
        if matches!(c, Command::Wait(_)) {
            pending = false;
        }
    }
    // In command order (a transition runs after every earlier one).
    out.sort_unstable_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, s)| s).collect()
}

/// [`is_clean`] of `program` from a state of its walk on: `rest` is the
/// execution order from there.
fn clean_from(program: &Program, layout: &Layout, state: (Checker, bool), rest: &[usize]) -> bool {
    let (mut checker, mut pending) = state;
    let mut found = Vec::new();
    for &i in rest {
        let c = &program.commands[i];
        step(&mut checker, layout, i, c, &mut found);
        for h in found.drain(..) {
            if !h.provisional {
                return false;
            }
            pending = true;
        }
        match c {
            Command::Wait(_) => pending = false,
            Command::Submit(_) if pending => return false,
            _ => {}
        }
    }
    !pending
}

/// The answers of the transition commands at `at` of a clean plan, found
/// again: the hazards removing each command's synchronization alone (its
/// transitions kept with empty scopes, as [`transitions_only`]) brings
/// back, in the input's indices.
fn reanswer(plan: &mut Plan, layout: &Layout, sem: Semantics, at: &[usize]) {
    for &i in at {
        let Command::Barrier(dep) = &plan.program.commands[i] else {
            continue;
        };
        let mut without = plan.program.clone();
        without.commands[i] = match transitions_only(dep) {
            Some(d) => Command::Barrier(d),
            None => continue,
        };
        let answers: Vec<Hazard> = crate::hazard::check_resolved(&without, layout, sem)
            .into_iter()
            .filter_map(|h| {
                Some(Hazard {
                    command: plan.origin.get(h.command).copied().flatten()?,
                    prior_command: plan.origin.get(h.prior_command).copied().flatten()?,
                    ..h
                })
            })
            .collect();
        let k = plan.answers.partition_point(|(x, _)| *x < i);
        let here = plan.answers.get(k).is_some_and(|(x, _)| *x == i);
        match (here, answers.is_empty()) {
            (true, true) => {
                plan.answers.remove(k);
            }
            (true, false) => plan.answers[k].1 = answers,
            (false, false) => plan.answers.insert(k, (i, answers)),
            (false, true) => {}
        }
    }
}

fn remove(p: &mut Program, i: usize, j: usize) -> Barrier {
    match &mut p.commands[i] {
        Command::Barrier(d) => d.barriers.remove(j),
        _ => unreachable!("transition points are barrier commands"),
    }
}

fn insert(p: &mut Program, i: usize, j: usize, b: Barrier) {
    if let Command::Barrier(d) = &mut p.commands[i] {
        d.barriers.insert(j, b);
    }
}

fn set(p: &mut Program, i: usize, j: usize, b: Barrier) {
    if let Command::Barrier(d) = &mut p.commands[i] {
        set_part(d, j, b);
    }
}

/// The input of every planner: [`planning_input`] with the transitions'
/// scopes set ([`with_transition_scopes`]), validated.
pub(crate) fn prepared(program: &Program, sem: Semantics) -> Result<(Program, Layout), ProgramError> {
    let stripped = planning_input(program);
    let layout = resolve(&stripped)?;
    // As `plan` plans it (host accesses ahead of the commands they run
    // before), which the bound counts for.
    let (stripped, layout) = match crate::ir::execution::with_host_accesses_first(&stripped, &layout) {
        None => (stripped, layout),
        Some((moved, _)) => {
            let layout = resolve(&moved)?;
            (moved, layout)
        }
    };
    let input = with_transition_scopes(stripped, &layout, sem);
    Ok((input, layout))
}
