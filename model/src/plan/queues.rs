//! Multi-queue planning: given a program whose commands are already
//! assigned to queues (each `submit QUEUE` ends a batch on that queue), drop
//! its barriers and semaphores and plan the fewest semaphore waits plus the
//! barriers each queue needs on its own.
//!
//! This module owns the cross-queue part only. What a hazard is stays the
//! checker's business, and where the barriers inside one queue go is the
//! single-queue planners' (each queue's batches are planned as one
//! single-queue program with [`super::plan_queue_part`], and the barriers
//! are put back in place, with the host accesses that conflict with the
//! queue's work and the host waits that complete it). Host accesses get
//! the fence waits they need (see "Host waits" below); a host access
//! between recording device work and submitting it comes before that work
//! and needs nothing (`crate::OrderNote`). A host wait on a timeline
//! semaphore (`host-wait`, a capture's `vkWaitSemaphores`) is dropped with
//! the semaphores: the fence waits planned before host accesses replace
//! it; so are events and host signals no earlier batch waits for. Layout
//! transitions stay in place, planned inside their queue, then widened for
//! what other queues need of them and thinned on the whole plan
//! (`docs/planning.md`, "Several queues", 9). Refused
//! ([`QueuePlanError::NotPlanned`]): a host signal a batch submitted
//! before it waits for, an exclusive image's ownership transfer; and, with
//! a planner other than the offline one inside the queues, a host access
//! whose barrier to `HOST` that planner records after the last submit
//! ([`QueuePlanError::HostNeedsSubmit`]).
//!
//! # Host waits
//!
//! The host's own vector clock (per queue, the latest batch ordered before
//! the host: fence waits join the clock after the latest batch of each
//! queue they wait for, semaphore chains included) is kept along the
//! trace. A host access needs, per queue, the latest batch submitted
//! before it that it conflicts with (its commands' accesses, or the
//! release or acquire operations of its ownership transfers, which write
//! the object); device work submitted after it needs nothing, its submit
//! orders the host access first. Where the clock falls short, one wait is
//! inserted right before the access, for it and the host accesses after
//! it up to the next submit or wait (no device work they need can be
//! submitted in between): `wait QUEUE` for a queue whose wait covers
//! every unmet need of them (a queue they conflict with first, then one
//! whose semaphore waits cover the others), else a single `wait` for
//! every queue (one wait instead of a `wait QUEUE` per queue, at the cost
//! of waiting for queues the accesses do not need too). A wait (the
//! input's or an inserted one) covers every later access it reaches, so
//! none is repeated. So each inserted wait answers a hazard of the access
//! it precedes that nothing else orders (removing it brings the hazard
//! back), and each run of host accesses between submits and waits gets
//! at most one, which is the fewest for that run. Over the whole program
//! it is not always the fewest: a narrower wait at one run can leave
//! work of another queue, submitted before it, to a wait at a later run
//! that a `wait` for every queue would have covered; waiting for every
//! queue every time would be the fewest waits (interval stabbing, a wait
//! as late as possible), but it stalls the host on work it does not read.
//!
//! The barrier to `HOST` a device write needs before its fence signal is
//! planned in the writer's queue: the host access is in that queue's part
//! with its *horizon*, the last submit of the queue ordered before it
//! (through a wait for another queue and a semaphore, that can be an
//! earlier batch than the queue's last submit, which no `wait` in the
//! part can say), and the offline planner places the barrier before it.
//!
//! # Invariants
//!
//! * Batches are numbered in submission order (the trace order of their
//!   `submit`; commands recorded after the last submit form a batch of the
//!   first queue, which gets an inserted `submit`). Every semaphore edge
//!   goes from an earlier batch to a later one, so a binary wait always
//!   has its signal earlier in the trace and no cycle of waits exists.
//! * Every signal and wait has stage mask `ALL_COMMANDS`: a signal then
//!   makes available every write earlier on its queue, a wait makes
//!   writes visible to every later access of its queue, execution chains
//!   pass through intermediate queues, and an ownership release/acquire
//!   (which happens in no pipeline stage) is ordered. Narrower masks would
//!   have to cover every chain that passes through the edge, not only the
//!   hazards of the two batches it joins.
//! * A cross-queue hazard between batch `a` (earlier) and batch `b` is
//!   covered when a path of queue order and semaphore edges leads from `a`
//!   to `b` (or a host `wait` for `a`'s queue lies between). Edges are
//!   chosen per consumer batch, in submission order: the batch's uncovered
//!   needs, per producing queue, are covered by the fewest edges, each from
//!   the *latest* batch of its queue submitted before the consumer (which
//!   covers everything an earlier one would). The subset is a minimum one
//!   (among those, the one covering most of what later batches need,
//!   which they may inherit; then the one with the fewest edges from
//!   queues the batch needs nothing of, which would order it after
//!   unrelated work; then the one after which the most is ordered), so
//!   removing any wait uncovers a hazard
//!   of its consumer batch: every wait is necessary. The total is the
//!   fewest for each consumer in turn, not a global minimum over all edge
//!   sets (an earlier consumer's choice can cost a later one a wait, and
//!   a batch that needs nothing takes no wait that would serve two later
//!   ones).
//! * Semaphores are binary, one reused only when its last wait is known
//!   complete before the new signal runs and before the new wait begins
//!   (the model's rule, `crate::ir::completion`; greedy colouring in
//!   signal order). Not one timeline per signalling queue with rising values: a
//!   wait for value `v` may then pair with any later signal `>= v` of that
//!   queue, the fast checker refuses such a wait, and the definitional
//!   semantics orders it only after what one availability operation
//!   before *every* candidate makes available, which is nothing when each
//!   candidate is its own availability operation (`fill a` / `signal t:1`
//!   / `wait t:1` / `copy a` with a later `signal t:2` on the same queue
//!   is a race in the model). A binary wait has exactly one signal.
//! * Exclusive objects: when a batch of family F uses an exclusive object
//!   last used by family G, the last batch of G that used it ends with a
//!   release (`<its stages>:<its writes> -> NONE:NONE REGION ownership
//!   G->F`), the matching acquire goes right before the batch's first
//!   command that uses it (same region, the whole object; `NONE:NONE ->
//!   ALL_COMMANDS:MEMORY_READ|MEMORY_WRITE`, since the acquire operation
//!   writes the object and every later use on the queue, which the
//!   per-queue plans do not see, must follow it; not at the batch's start,
//!   so that a host access recorded before that use stays before the
//!   acquire's write), and the batch must be ordered after the releasing
//!   batch (a need like a hazard's); other queues of family G that used
//!   it are ordered before the release, and other queues of family F that
//!   use it later after the acquire. A host access of the object after
//!   a release or an acquire gets a barrier to `HOST` chained to the
//!   operation (`ALL_COMMANDS:NONE -> HOST:HOST_READ|HOST_WRITE`, right
//!   after it).
//!   A change of family gets a transfer only when the bytes' contents are
//!   wanted: when the input without any transfer reads, on the new family
//!   (before the next change), bytes another family last had
//!   ([`crate::check_ownership`] on the stripped input). A family whose
//!   first use overwrites what it later reads takes ownership without a
//!   transfer ("the contents ... are undefined", and nothing reads them).
//!   If the plan then shows an ownership issue after all (a later release
//!   of bytes that family never took), it is planned again with a transfer
//!   at every change.

use super::deps::Touch;
use super::emit::is_device;
use super::{plan_queue_part, Plan, PlanOptions, PlannerKind};
use crate::hazard::Hazard;
use crate::ir::access::{accesses, Access};
use crate::ir::layout::{resolve, MemId, ProgramError};
use crate::ir::program::{Barrier, Command, Dependency, ObjectId, ObjectKind, Program, Region, SharingMode};
use crate::ir::queue::{
    QueueId, Semaphore, SemaphoreId, SemaphoreSignal, SemaphoreType, SemaphoreWait, Submission, WaitFor,
};
use crate::semantics::Semantics;
use crate::sync::rangemap::RangeMap;
use crate::vk::flags::{AccessFlags2, PipelineStageFlags2};
use crate::vk::scope::StageAccess;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// How to plan a multi-queue program: the single-queue options used for
/// each queue's barriers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct QueuePlanOptions {
    /// The planner, barrier form and reading used inside each queue.
    pub plan: PlanOptions,
}

impl QueuePlanOptions {
    /// Barriers inside each queue as `plan` says.
    pub fn new(plan: PlanOptions) -> Self {
        QueuePlanOptions { plan }
    }
}

/// A planned multi-queue program and what it costs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuePlan {
    /// The planned program; `origin` and `answers` refer to the input
    /// without its barriers (its submits keep their places, stripped of
    /// their semaphores).
    pub plan: Plan,
    /// Semaphore objects declared.
    pub semaphores: usize,
    /// Semaphore wait operations (each with its signal).
    pub waits: usize,
    /// Semaphore signal operations.
    pub signals: usize,
    /// Pipeline barrier commands inside queues, ownership transfers
    /// included.
    pub barrier_points: usize,
    /// Queue family ownership transfers (release/acquire pairs).
    pub ownership_transfers: usize,
    /// Fence waits inserted before host accesses (`wait QUEUE` or `wait`;
    /// the plan's commands with no origin that are waits).
    pub host_waits: usize,
}

/// Why a program cannot be planned across queues.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum QueuePlanError {
    /// The program is invalid, or a single-queue rule refuses it.
    #[error(transparent)]
    Program(#[from] ProgramError),
    /// A planner other than the offline one, planning a queue's barriers,
    /// inserted a submit and a fence wait before a host access: it records
    /// the barrier to `HOST` a device write needs after the last submit
    /// (the online planner meets the host access only after its wait), and
    /// the multi-queue planner does not add batches.
    #[error("command {at}: the {} planner inside a queue would submit again before the host access to record its barrier to HOST (plan with --planner offline)", planner.name())]
    HostNeedsSubmit {
        /// The host access's index in the input.
        at: usize,
        /// The planner used inside each queue.
        planner: PlannerKind,
    },
    /// A command this planner does not plan around.
    #[error("command {at}: {what} is not planned across queues")]
    NotPlanned {
        /// The command's index in the input.
        at: usize,
        /// What it is.
        what: String,
    },
}

/// Refuses a semaphore wait submitted before any signal that can satisfy
/// it (a timeline wait whose value neither the semaphore's initial value
/// nor an earlier submit or host signal reaches; a binary wait with no
/// earlier signal). Vulkan allows it for
/// timelines, and the batch then runs after work submitted later; the
/// planner orders batches by submission, so its plan could run them the
/// other way round and compute other bytes (a review found a plan that
/// checked clean and did).
fn refuse_wait_before_signal(program: &Program) -> Result<(), QueuePlanError> {
    use std::collections::HashMap;
    // Per semaphore: the largest timeline value signalled so far, and the
    // binary signals not yet waited for.
    let mut reached: HashMap<u32, u64> = HashMap::new();
    let mut pending: HashMap<u32, usize> = HashMap::new();
    let name = |s: crate::ir::queue::SemaphoreId| {
        program
            .semaphores()
            .get(s.0 as usize)
            .map_or_else(|| format!("semaphore {}", s.0), |x| format!("`{}`", x.name))
    };
    for (at, c) in program.commands.iter().enumerate() {
        match c {
            Command::Submit(sub) => {
                for w in &sub.waits {
                    let satisfied = match w.value {
                        // The payload starts at the initial value ("When
                        // created, the semaphore payload has the value given
                        // by the initialValue field"): a wait it reaches
                        // needs no signal.
                        Some(v) => {
                            let initial = program
                                .semaphores()
                                .get(w.semaphore.0 as usize)
                                .map_or(0, |x| x.kind.initial_value());
                            reached.get(&w.semaphore.0).copied().unwrap_or(0).max(initial) >= v
                        }
                        None => match pending.get_mut(&w.semaphore.0) {
                            Some(n) if *n > 0 => {
                                *n -= 1;
                                true
                            }
                            _ => false,
                        },
                    };
                    if !satisfied {
                        let value = w.value.map_or_else(String::new, |v| format!(" {v}"));
                        // In the barrier-free input's numbering, as every
                        // `NotPlanned` (review46: the trace's own counted
                        // its barriers, and the CLI named a line past the
                        // end).
                        let at = program.commands[..at]
                            .iter()
                            .filter(|c| !super::is_planned_away(c))
                            .count();
                        return Err(QueuePlanError::NotPlanned {
                            at,
                            what: format!(
                                "a wait for {}{value} submitted before any signal that satisfies it (the planner orders batches by submission; submit the signal first)",
                                name(w.semaphore)
                            ),
                        });
                    }
                }
                for sg in &sub.signals {
                    match sg.value {
                        Some(v) => {
                            let r = reached.entry(sg.semaphore.0).or_insert(0);
                            *r = (*r).max(v);
                        }
                        None => *pending.entry(sg.semaphore.0).or_insert(0) += 1,
                    }
                }
            }
            Command::HostSignal { semaphore, value } => {
                let r = reached.entry(semaphore.0).or_insert(0);
                *r = (*r).max(*value);
            }
            _ => {}
        }
    }
    Ok(())
}

/// One batch: its queue, its device commands and its `submit` (input
/// indices; `None` for the commands recorded after the last submit).
#[derive(Clone, Debug)]
pub(crate) struct Batch {
    pub(crate) queue: usize,
    pub(crate) cmds: Vec<usize>,
    pub(crate) submit: Option<usize>,
}

/// The batches of a program, in submission order.
pub(crate) fn batches(program: &Program) -> Vec<Batch> {
    let mut out = Vec::new();
    let mut open = Vec::new();
    for (i, c) in program.commands.iter().enumerate() {
        match c {
            Command::Submit(s) => out.push(Batch {
                queue: s.queue.0 as usize,
                cmds: std::mem::take(&mut open),
                submit: Some(i),
            }),
            c if is_device(c) => open.push(i),
            _ => {}
        }
    }
    if !open.is_empty() {
        out.push(Batch {
            queue: 0,
            cmds: open,
            submit: None,
        });
    }
    out
}

/// The input with its barriers and events dropped but its layout
/// transitions (with empty scopes, [`super::planning_input`]), its
/// submits stripped of semaphores and its host semaphore operations
/// dropped, with, per command, its index in `planning_input(program)`
/// (`None` for one made here); or the first command that is not planned.
///
/// A queue family ownership transfer that changes an image's layout
/// performs the transition once, between its release and its acquire
/// (neither half is a `transition` of the model: the transfer's
/// operations stand for it). The planner plans the transfers an exclusive
/// object needs itself ("Exclusive objects" above), so the pair goes, and
/// the layout change stays as a transition (empty scopes, no transfer) at
/// the release, on the queue that used the image last.
fn strip(program: &Program) -> Result<(Program, Vec<Option<usize>>), QueuePlanError> {
    if let Some((at, what)) = super::host_signal_waited_early(program) {
        let at = program.commands[..at]
            .iter()
            .filter(|c| !super::is_planned_away(c))
            .count();
        return Err(QueuePlanError::NotPlanned { at, what });
    }
    let queue_of = program.command_queues();
    let mut commands = Vec::with_capacity(program.commands.len());
    let mut kept = Vec::with_capacity(program.commands.len());
    let mut next = 0;
    for (i, c) in program.commands.iter().enumerate() {
        let index = next;
        if super::is_planned_away(c) {
            // The layout change of a release.
            if let Command::Barrier(d) = c {
                let fam = family(program, queue_of[i].0 as usize);
                let releases: Vec<Barrier> = d
                    .barriers
                    .iter()
                    .filter(|b| b.transfer().is_some_and(|t| t.src_queue_family == fam))
                    .filter(|b| {
                        program
                            .image_barrier_part(b)
                            .is_some_and(|(ib, _)| ib.old_layout != ib.new_layout)
                    })
                    .map(|b| Barrier {
                        src_stage_mask: PipelineStageFlags2::NONE,
                        src_access_mask: AccessFlags2::NONE,
                        dst_stage_mask: PipelineStageFlags2::NONE,
                        dst_access_mask: AccessFlags2::NONE,
                        transition: true,
                        ownership: None,
                        ..*b
                    })
                    .collect();
                if !releases.is_empty() {
                    commands.push(Command::Barrier(Dependency { barriers: releases }));
                    kept.push(None);
                }
            }
            continue;
        }
        next += 1;
        // A host wait on a timeline semaphore (`vkWaitSemaphores`) is
        // synchronization the plan makes anew, as the semaphores it waits
        // on: dropped, and the host accesses after it get the fence waits
        // they need ("Host waits" above), which order each after exactly
        // the work it conflicts with. So is a host signal no batch
        // submitted before it waits for (`host_signal_waited_early`).
        if matches!(c, Command::HostWait { .. } | Command::HostSignal { .. }) {
            continue;
        }
        let command = match c {
            Command::Submit(s) => Command::Submit(Submission {
                queue: s.queue,
                ..Submission::default()
            }),
            // A pipeline barrier's transitions, or an event command's
            // (`super::transitions::transition_part`).
            Command::Barrier(_) | Command::SetEvent { .. } | Command::WaitEvents1 { .. } => {
                let Some(mut d) = super::transitions::transition_part(c) else {
                    continue;
                };
                for b in &mut d.barriers {
                    b.ownership = None;
                }
                Command::Barrier(d)
            }
            c => c.clone(),
        };
        commands.push(command);
        kept.push(Some(index));
    }
    let mut stripped = program.with_commands(commands);
    stripped.semaphores.clear();
    Ok((stripped, kept))
}

/// A plan of the stripped input with its indices (origins, answers,
/// errors) put back into `program.without_barriers()`'s: `kept[i]` is
/// stripped command `i`'s index there.
fn unstripped(
    r: Result<QueuePlan, QueuePlanError>,
    kept: &[Option<usize>],
) -> Result<QueuePlan, QueuePlanError> {
    let back = |i: usize| kept.get(i).copied().flatten();
    match r {
        Ok(mut p) => {
            for o in p.plan.origin.iter_mut() {
                *o = o.and_then(back);
            }
            // A hazard of a transition made here (the layout change of an
            // ownership transfer) names no command of the input: left out.
            for (_, hs) in p.plan.answers.iter_mut() {
                hs.retain_mut(|h| match (back(h.command), back(h.prior_command)) {
                    (Some(c), Some(pc)) => {
                        h.command = c;
                        h.prior_command = pc;
                        true
                    }
                    _ => false,
                });
            }
            p.plan.answers.retain(|(_, hs)| !hs.is_empty());
            Ok(p)
        }
        Err(QueuePlanError::HostNeedsSubmit { at, planner }) => Err(QueuePlanError::HostNeedsSubmit {
            at: back(at).unwrap_or(at),
            planner,
        }),
        Err(QueuePlanError::NotPlanned { at, what }) => Err(QueuePlanError::NotPlanned {
            at: back(at).unwrap_or(at),
            what,
        }),
        Err(e) => Err(e),
    }
}

/// Whether two access lists conflict: overlapping bytes of one memory
/// object, one of them a write.
fn conflict(x: &[Access], y: &[Access]) -> bool {
    x.iter().any(|a| {
        y.iter()
            .any(|b| a.mem == b.mem && a.range.overlaps(b.range) && (a.sa.is_write() || b.sa.is_write()))
    })
}

/// Per-batch vector clocks: entry `q` is the latest batch ordinal of queue
/// `q` ordered before (absent: none, read as −1). Persistent
/// ([`crate::ir::completion::Clock`]): a clone is a pointer copy and raising
/// one entry copies one path, so a clock costs what changed since the one
/// it came from, not one entry per queue of the program (a chain through N
/// queues kept N dense clocks of N entries per batch, and the edge choice
/// compared them whole: cubic in N).
///
/// Every clock here is *closed*: where it holds ordinal `k` of queue `r`,
/// it also holds everything the clock after that batch holds. (The clock
/// after a batch is its clock before, closed by induction, plus its own
/// entry; a queue's clocks after grow along the queue, since each batch's
/// clock before includes the previous one's; a join of closed clocks is
/// closed.) So joining the clock after batch `p` into a clock that already
/// holds `p` changes nothing, which the fence waits use.
type Clock = crate::ir::completion::Clock;

/// Entry `r` of `c` (−1: none).
fn at(c: &Clock, r: usize) -> i64 {
    c.get(QueueId(r as u32)).map_or(-1, |v| v as i64)
}

/// Raises entry `r` of `c` to `v` (nothing for −1).
fn raise(c: &mut Clock, r: usize, v: i64) {
    if let Ok(v) = usize::try_from(v) {
        c.advance(QueueId(r as u32), v);
    }
}

/// Up to this many candidate edges, the fewest are found by trying every
/// subset (below); beyond, greedily.
const EXHAUSTIVE: usize = 12;

/// A dense clock over a few queues (the exhaustive search's projection).
type Dense = Vec<i64>;

fn join(a: &mut Dense, b: &Dense) {
    for (x, y) in a.iter_mut().zip(b) {
        *x = (*x).max(*y);
    }
}

/// The fewest of `candidates` (clocks after candidate batches; `direct[k]`:
/// candidate `k`'s queue has a need of its own) whose join with `base`
/// reaches `need` everywhere: exhaustive over subsets by size for a few
/// candidates, greedy beyond. `future` is what later batches need (per
/// queue, the latest batch), which decides among the smallest subsets.
fn fewest_edges(
    base: &Dense,
    need: &Dense,
    future: &Dense,
    candidates: &[(usize, Dense)],
    direct: &[bool],
) -> Vec<usize> {
    let covers = |set: &[usize]| {
        let mut c = base.clone();
        for &k in set {
            join(&mut c, &candidates[k].1);
        }
        c.iter().zip(need).all(|(x, n)| x >= n)
    };
    if covers(&[]) {
        return Vec::new();
    }
    let n = candidates.len();
    if n <= EXHAUSTIVE {
        // The smallest subsets first. Among those of the smallest size
        // that cover: the one that covers the most of what later batches
        // need (they may inherit this batch's clock), then the fewest
        // edges from a queue with no need of its own (such an edge orders
        // the consumer after that queue's unrelated work too, which async
        // compute wants to overlap), then the one after which the most is
        // known (the greatest sum of the joined clock).
        let mut masks: Vec<u32> = (1..(1u32 << n)).collect();
        masks.sort_by_key(|m| (m.count_ones(), *m));
        // The best key and subset so far (all of the smallest size).
        type Key = (i64, usize, i64);
        let mut best: Option<(Key, Vec<usize>)> = None;
        for m in masks {
            if best
                .as_ref()
                .is_some_and(|(_, set)| m.count_ones() as usize > set.len())
            {
                break;
            }
            let set: Vec<usize> = (0..n).filter(|k| m & (1 << k) != 0).collect();
            if covers(&set) {
                let mut c = base.clone();
                for &k in &set {
                    join(&mut c, &candidates[k].1);
                }
                let indirect = set.iter().filter(|&&k| !direct[k]).count();
                let useful: i64 = c.iter().zip(future).map(|(x, f)| (*x).min(*f)).sum();
                let key = (-useful, indirect, -c.iter().sum::<i64>());
                if best.as_ref().is_none_or(|(b, _)| key < *b) {
                    best = Some((key, set));
                }
            }
        }
        if let Some((_, set)) = best {
            return set;
        }
    }
    // Greedy: the candidate that covers the most still-unmet queues.
    let mut chosen = Vec::new();
    let mut c = base.clone();
    while !c.iter().zip(need).all(|(x, n)| x >= n) {
        let gain = |k: usize| {
            let mut d = c.clone();
            join(&mut d, &candidates[k].1);
            d.iter().zip(need).filter(|(x, n)| x >= n).count()
        };
        let Some(best) = (0..n)
            .filter(|k| !chosen.contains(k))
            .max_by_key(|&k| (gain(k), usize::MAX - k))
        else {
            break;
        };
        join(&mut c, &candidates[best].1);
        chosen.push(best);
    }
    chosen.sort_unstable();
    chosen
}

/// Per byte of memory, the clocks of the batches that wrote it and of those
/// that read it (per queue, the latest): what a later batch conflicts
/// with is read off the bytes it touches, whatever the number of queues.
/// (The states are indices into `slots`, since a range map's states are
/// plain values; a slot is never changed, an update makes a new one.)
///
/// Beside each slot, its [`Covers`]: a few batches whose clocks after,
/// once the edges are chosen, reach the slot's clocks (the last write and
/// the reads since), which the edge choice tests instead of every entry.
struct Written {
    mems: HashMap<MemId, RangeMap<u32>>,
    /// Slot 0: nothing written or read.
    slots: Vec<(Clock, Clock)>,
    /// Per slot, what covers it.
    covers: Vec<Covers>,
}

/// Up to this many reads since the last write are kept in a slot's
/// [`Covers`] (one per queue); beyond, the slot's covers are unknown and
/// the edge choice counts every need (a write with that many queues to
/// wait for costs that many lookups anyway).
const COVERS: usize = 32;

/// What reaches a slot's clocks, as batches `(queue, ordinal)`: the clock
/// after `write` (the last batch that wrote the bytes) reaches the write
/// clock, and with the clocks after `reads` (per queue, the latest batch
/// that read them since; `None`: more than [`COVERS`]) the read clock too.
/// This holds once those batches' edges are chosen, because each batch is
/// then ordered after all it needs (`Edges::decide`): a write needed every
/// earlier write and read of the bytes, a read every earlier write.
#[derive(Clone, Debug, Default)]
struct Covers {
    write: Option<(usize, usize)>,
    reads: Option<Vec<(usize, usize)>>,
}

impl Written {
    fn new() -> Self {
        Written {
            mems: HashMap::new(),
            slots: vec![(Clock::default(), Clock::default())],
            covers: vec![Covers {
                write: None,
                reads: Some(Vec::new()),
            }],
        }
    }

    /// Per queue, the latest batch that a batch making `touches` conflicts
    /// with (its own queue's included); and batches whose clocks after
    /// reach all of it (per queue the latest; `None` when a slot's reads
    /// are too many, [`Covers`]).
    fn before(&self, touches: &[Touch]) -> (Clock, Option<Vec<(usize, usize)>>) {
        let mut out = Clock::default();
        let mut reach: Option<BTreeMap<usize, usize>> = Some(BTreeMap::new());
        let add = |reach: &mut Option<BTreeMap<usize, usize>>, (q, o): (usize, usize)| {
            if let Some(m) = reach {
                let e = m.entry(q).or_insert(o);
                *e = (*e).max(o);
            }
        };
        for &(mem, range, write) in touches {
            let Some(map) = self.mems.get(&mem) else {
                continue;
            };
            for (piece, &slot) in map.overlapping(range) {
                if !piece.overlaps(range) {
                    continue;
                }
                let (w, r) = &self.slots[slot as usize];
                let covers = &self.covers[slot as usize];
                out.join(w);
                if let Some(e) = covers.write {
                    add(&mut reach, e);
                }
                if write {
                    out.join(r);
                    match &covers.reads {
                        Some(reads) => reads.iter().for_each(|&e| add(&mut reach, e)),
                        None => reach = None,
                    }
                }
            }
        }
        (out, reach.map(|m| m.into_iter().collect()))
    }

    /// Records batch ordinal `ord` of queue `q` making `touches`.
    fn record(&mut self, touches: &[Touch], q: usize, ord: usize) {
        let slots = &mut self.slots;
        let covers = &mut self.covers;
        for &(mem, range, write) in touches {
            if range.is_empty() {
                continue;
            }
            let map = self.mems.entry(mem).or_default();
            map.update(range, |slot| {
                let (w, r) = &slots[*slot as usize];
                let c = if write { w } else { r };
                if c.covers(QueueId(q as u32), ord) {
                    return;
                }
                let (mut w, mut r) = (w.clone(), r.clone());
                let mut cov = covers[*slot as usize].clone();
                if write {
                    w.advance(QueueId(q as u32), ord);
                    // This write needed every earlier write and read.
                    cov = Covers {
                        write: Some((q, ord)),
                        reads: Some(Vec::new()),
                    };
                } else {
                    r.advance(QueueId(q as u32), ord);
                    if let Some(reads) = &mut cov.reads {
                        // A later batch of a queue covers its earlier ones.
                        reads.retain(|&(x, _)| x != q);
                        reads.push((q, ord));
                        if reads.len() > COVERS {
                            cov.reads = None;
                        }
                    }
                }
                slots.push((w, r));
                covers.push(cov);
                *slot = (slots.len() - 1) as u32;
            });
            map.merge_around(range, |_| {});
        }
    }
}

/// The edges chosen consumer by consumer (module docs, "Invariants"), and
/// the clocks they give.
struct Edges<'a> {
    batches: &'a [Batch],
    ord: &'a [i64],
    /// Per batch, what it must be ordered after (its own queue's entry is
    /// not a need: [`Edges::need_at`]).
    need: &'a [Clock],
    /// Per batch, batches whose clocks after reach all of its `need`
    /// once chosen ([`Covers`]; `None`: unknown).
    reach: &'a [Option<Vec<(usize, usize)>>],
    /// The first queues to submit, up to one more than [`EXHAUSTIVE`]:
    /// every queue the exhaustive search ever sees is one of them.
    early: &'a [usize],
    /// Per batch, what the batches after it need of the `early` queues.
    future: &'a [Dense],
    clock_in: Vec<Clock>,
    clock_out: Vec<Clock>,
    /// Per batch, what is complete before its waits begin.
    before_waits: Vec<Clock>,
    last_on: Vec<Option<usize>>,
    /// The queues that have submitted, by the size of the clock after
    /// their latest batch (largest first), then by index.
    by_size: BTreeSet<(std::cmp::Reverse<usize>, usize)>,
    active: BTreeSet<usize>,
    edges: Vec<(usize, usize)>,
}

impl Edges<'_> {
    /// Batch `b`'s need of queue `x` (−1: none).
    fn need_at(&self, b: usize, x: usize) -> i64 {
        if x == self.batches[b].queue {
            -1
        } else {
            at(&self.need[b], x)
        }
    }

    /// Chooses batch `b`'s waits, the host's clock being `host`.
    fn decide(&mut self, b: usize, host: &Clock) {
        let q = self.batches[b].queue;
        let mut base = host.clone();
        if let Some(p) = self.last_on[q] {
            base.join(&self.clock_in[p]);
        }
        self.before_waits[b] = base.clone();
        for r in self.fewest_edges(b, &base) {
            let p = self.last_on[r].expect("a candidate queue has submitted");
            base.join(&self.clock_out[p]);
            self.edges.push((p, b));
        }
        let mut out = base.clone();
        raise(&mut out, q, self.ord[b]);
        self.clock_in[b] = base;
        if let Some(old) = self.last_on[q] {
            self.by_size
                .remove(&(std::cmp::Reverse(self.clock_out[old].len()), q));
        }
        self.by_size.insert((std::cmp::Reverse(out.len()), q));
        self.clock_out[b] = out;
        self.last_on[q] = Some(b);
        self.active.insert(q);
    }

    /// The queues whose latest batches batch `b` waits for: the fewest
    /// whose clocks after, joined with `base`, reach `b`'s needs, as
    /// [`fewest_edges`] chooses them among the latest batch of every other
    /// queue that has submitted. Only the needs `base` leaves unmet are
    /// looked at, and the greedy choice looks at candidates by the size of
    /// their clocks, largest first, until no smaller one can cover more.
    fn fewest_edges(&self, b: usize, base: &Clock) -> Vec<usize> {
        let q = self.batches[b].queue;
        let need = &self.need[b];
        let list = || -> Vec<(usize, i64)> {
            need.entries()
                .into_iter()
                .map(|(x, n)| (x.0 as usize, n as i64))
                .filter(|&(x, n)| x != q && n > at(base, x))
                .collect()
        };
        // The unmet needs, listed only when a count does not do: a chain
        // through N queues has N needs per batch, all met by the clock
        // after the batch before (module docs of `Written`, `Covers`).
        let mut unmet: Option<Vec<(usize, i64)>> = None;
        let mut count = if base.len() < need.len() {
            // The needs less those met: its own queue's and those `base`
            // reaches, found from `base`'s side.
            let met = base
                .entries()
                .into_iter()
                .filter(|&(x, v)| x.0 as usize != q && need.get(x).is_some_and(|n| n <= v))
                .count();
            need.len() - met - usize::from(need.get(QueueId(q as u32)).is_some())
        } else {
            let l = list();
            let n = l.len();
            unmet = Some(l);
            n
        };
        if count == 0 {
            return Vec::new();
        }
        let candidates = self.active.len() - usize::from(self.active.contains(&q));
        if candidates <= EXHAUSTIVE {
            // Dense over the queues that have submitted (every entry of
            // every clock and need here is one of them; the sums
            // `fewest_edges` compares leave out −1 per other queue, the
            // same for every subset).
            let act: Vec<usize> = self.active.iter().copied().collect();
            let project = |c: &Clock| act.iter().map(|&x| at(c, x)).collect::<Dense>();
            let base_d = project(base);
            let need_d: Dense = act.iter().map(|&x| self.need_at(b, x)).collect();
            let future_d: Dense = act
                .iter()
                .map(|&x| {
                    let j = self.early.iter().position(|&e| e == x);
                    j.map_or(-1, |j| self.future[b][j])
                })
                .collect();
            let cands: Vec<(usize, usize, Dense)> = act
                .iter()
                .enumerate()
                .filter(|&(_, &r)| r != q)
                .map(|(j, &r)| {
                    let p = self.last_on[r].expect("an active queue has submitted");
                    (r, j, project(&self.clock_out[p]))
                })
                .collect();
            let direct: Vec<bool> = cands.iter().map(|&(_, j, _)| need_d[j] > base_d[j]).collect();
            let listed: Vec<(usize, Dense)> = cands.iter().map(|(r, _, c)| (*r, c.clone())).collect();
            return fewest_edges(&base_d, &need_d, &future_d, &listed, &direct)
                .into_iter()
                .map(|k| listed[k].0)
                .collect();
        }
        // Greedy: the candidate that covers the most needs still unmet
        // (the lowest queue on a tie). Before the first choice, a
        // candidate whose clock reaches every batch of `reach` not on
        // this queue nor reached by `base` covers every unmet need (the
        // clocks are closed: each need is reached by the clock after one
        // of them, and each of them is below a need), so its gain is the
        // count, found without listing the needs; any other candidate
        // is counted on the list, as before.
        let reach: Option<Vec<(usize, usize)>> = self.reach[b].as_ref().map(|r| {
            r.iter()
                .copied()
                .filter(|&(x, o)| x != q && !base.covers(QueueId(x as u32), o))
                .collect()
        });
        let mut chosen: BTreeSet<usize> = BTreeSet::new();
        while count > 0 {
            let mut best: Option<(usize, usize)> = None;
            for &(std::cmp::Reverse(size), r) in &self.by_size {
                if r == q || chosen.contains(&r) {
                    continue;
                }
                // It covers at most its entries and what is unmet.
                let bound = size.min(count);
                if let Some((gain, at_r)) = best {
                    if bound < gain {
                        break;
                    }
                    if bound == gain && r > at_r {
                        continue;
                    }
                }
                let c = &self.clock_out[self.last_on[r].expect("an active queue has submitted")];
                // Only a gain that replaces `best` matters (at least its
                // gain from a lower queue, more from a higher one).
                let least = best.map_or(0, |(g, at_r)| if r < at_r { g } else { g + 1 });
                let all = chosen.is_empty()
                    && reach
                        .as_ref()
                        .is_some_and(|reach| reach.iter().all(|&(x, o)| c.covers(QueueId(x as u32), o)));
                let gain = if all {
                    Some(count)
                } else {
                    gain_at_least(c, unmet.get_or_insert_with(list), least)
                };
                if let Some(gain) = gain {
                    best = Some((gain, r));
                }
            }
            let Some((gain, r)) = best else {
                break;
            };
            if gain == count {
                count = 0;
            } else {
                let c = &self.clock_out[self.last_on[r].expect("an active queue has submitted")];
                let unmet = unmet.get_or_insert_with(list);
                unmet.retain(|&(x, n)| at(c, x) < n);
                count = unmet.len();
            }
            chosen.insert(r);
        }
        debug_assert_eq!(count, 0, "batch {b}: every need is coverable");
        chosen.into_iter().collect()
    }
}

/// How many of `unmet` (by queue, ascending) clock `c` reaches, if at
/// least `least` (else `None`, found as soon as too many are missed). The
/// greedy edge choice counts this per candidate: for the first candidate
/// of a batch the whole count, by one walk of both lists when `c` is not
/// much larger (a lookup per need made a chain through N queues spend
/// most of its time here); for the others mostly a few lookups, from the
/// latest queue down (in a chain, the queue just before is the one that
/// an earlier candidate misses).
fn gain_at_least(c: &Clock, unmet: &[(usize, i64)], least: usize) -> Option<usize> {
    let slack = unmet.len().checked_sub(least)?;
    if least == 0 && c.len() <= 4 * unmet.len() {
        let es = c.entries();
        let mut k = 0;
        let mut gain = 0;
        for &(x, n) in unmet {
            while k < es.len() && (es[k].0 .0 as usize) < x {
                k += 1;
            }
            if k < es.len() && es[k].0 .0 as usize == x && es[k].1 as i64 >= n {
                gain += 1;
            }
        }
        return Some(gain);
    }
    let mut missed = 0;
    for &(x, n) in unmet.iter().rev() {
        if at(c, x) < n {
            missed += 1;
            if missed > slack {
                return None;
            }
        }
    }
    Some(unmet.len() - missed)
}

/// A queue's part declaring only some of the input's objects (those it
/// uses, with every object sharing their memory), renumbered in id order:
/// the part's plan is the same as with every object declared, up to the
/// numbering (ids and memory ids keep their order), which
/// [`Narrow::plan_back`] undoes.
struct Narrow {
    /// The declarations, no command.
    program: Program,
    /// Per part object, its input id.
    old: Vec<ObjectId>,
    /// Per input object kept, its part id.
    new: HashMap<ObjectId, ObjectId>,
    /// Per part memory id, the input's.
    mem_old: Vec<MemId>,
}

impl Narrow {
    /// The part declaring the input's objects `kept` (ascending, closed
    /// under aliasing and pools); `None` if they cannot be declared alone.
    fn new(input: &Program, layout: &crate::ir::layout::Layout, kept: &[usize]) -> Option<Narrow> {
        let mut program = Program::new();
        program.layouts_unchecked = true;
        let mut new = HashMap::with_capacity(kept.len());
        let mut old = Vec::with_capacity(kept.len());
        let mut mem_old = Vec::new();
        for &i in kept {
            let mut o = input.objects[i].clone();
            match &mut o.kind {
                ObjectKind::Buffer {
                    alias: Some((other, _)),
                }
                | ObjectKind::Blob { pool: other } => *other = *new.get(other)?,
                _ => {}
            }
            let id = program.declare_any(o).ok()?;
            new.insert(ObjectId(i as u32), id);
            old.push(ObjectId(i as u32));
            // Memory ids are handed out in object order to the objects
            // owning memory.
            if let Some(m) = layout.owners.get(i).copied().flatten() {
                mem_old.push(m);
            }
        }
        Some(Narrow {
            program,
            old,
            new,
            mem_old,
        })
    }

    /// `c` with its objects renamed through `ids` (every object it names
    /// is there).
    fn rename(c: &Command, ids: impl Fn(ObjectId) -> ObjectId) -> Command {
        let mut c = c.clone();
        if let Command::Alloc { blob } | Command::Free { blob } = &mut c {
            *blob = ids(*blob);
        }
        c.for_each_region_mut(|r| r.object = ids(r.object));
        c
    }

    /// An input command as the part names its objects.
    fn to_part(&self, c: &Command) -> Command {
        Self::rename(c, |o| self.new[&o])
    }

    /// A part command as the input names its objects.
    fn back_of(&self, c: &Command) -> Command {
        Self::rename(c, |o| self.old[o.0 as usize])
    }

    /// The part's plan with the input's objects and memory ids.
    fn plan_back(&self, mut plan: Plan) -> Plan {
        for c in &mut plan.program.commands {
            *c = self.back_of(c);
        }
        for (_, hs) in &mut plan.answers {
            for h in hs {
                h.region.object = self.old[h.region.object.0 as usize];
                h.memory.mem = self.mem_old[h.memory.mem.0 as usize];
                if let Some(r) = h.fix.barrier.as_mut().and_then(|b| b.region.as_mut()) {
                    r.object = self.old[r.object.0 as usize];
                }
            }
        }
        plan
    }
}

fn family(program: &Program, q: usize) -> u32 {
    program.queues.get(q).map_or(0, |x| x.family)
}

/// The stage mask and access mask of accesses (writes only for `writes`).
fn masks<'a>(
    accs: impl Iterator<Item = &'a Access>,
    writes_only: bool,
) -> (PipelineStageFlags2, AccessFlags2) {
    let mut stages = PipelineStageFlags2::NONE;
    let mut access = AccessFlags2::NONE;
    for a in accs {
        stages |= a.sa.stage().flag();
        // A layout transition happens in no pipeline stage: only
        // ALL_COMMANDS continues its barrier's second scope (which the
        // multi-queue planner widens to ALL_COMMANDS for the release,
        // `transitions::widen_by`).
        if a.sa.is_layout_transition() {
            stages |= PipelineStageFlags2::ALL_COMMANDS;
        }
        if !writes_only || a.sa.is_write() {
            access |= a.sa.access();
        }
    }
    (stages, access)
}

/// Plans semaphores, ownership transfers and barriers for a program whose
/// commands are assigned to queues; its own barriers and semaphores are
/// dropped first; fence waits are inserted before host accesses that need
/// them (the input's `host-wait`s are dropped with its semaphores, its
/// events with its barriers); its layout transitions stay in place.
/// Refuses what the module documentation lists.
///
/// ```
/// use vksync::plan::{plan_queues, PlanOptions, PlannerKind, QueuePlanOptions};
/// let t = vksync::trace::parse(
///     "queue gfx family 0\nqueue xfer family 1\nbuffer a 256\nbuffer b 256\n\
///      fill a 1\nsubmit xfer\ncopy a -> b\nsubmit gfx\n",
/// )?;
/// let p = plan_queues(&t.program, QueuePlanOptions::new(PlanOptions::new(PlannerKind::Offline)))?;
/// assert_eq!((p.semaphores, p.waits), (1, 1));
/// assert!(vksync::check(&p.plan.program)?.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn plan_queues(program: &Program, opts: QueuePlanOptions) -> Result<QueuePlan, QueuePlanError> {
    // The subpass dependencies the render passes need first, as `plan`
    // amends them (a queue's part alone does not see the whole program's
    // hazards).
    let amended = super::with_needed_dependencies(program, opts.plan)?;
    let program: &Program = amended.as_ref();
    // And, as `plan` does, a hazard inside one rendering instance (or
    // between two subpasses of one) refused with what orders it, rather
    // than planned around and found racy at the end.
    // (By the definitional semantics where no fast checker takes the
    // program: rendering on several queues.)
    super::refuse_hazards_inside(program, opts.plan.reading, |p, sem| {
        crate::hazard::check_program(p, sem).map(|c| c.hazards)
    })?;
    let (mut input, kept) = strip(program)?;
    // After `strip`, whose refusal of a host signal an earlier batch waits
    // for names the signal.
    refuse_wait_before_signal(program)?;
    let sem = Semantics::for_reading(opts.plan.reading);
    // Whether a transition's scopes were widened for another queue (then
    // the final plan may not need all of the widening).
    let mut widened = false;
    let planned = (|| loop {
        let needed = needed_transfers(&input)?;
        let mut plan = plan_stripped(&input, opts, Some(&needed))?;
        // Transfers left out where no read wants the contents: if the plan
        // still has an ownership issue (bytes a family overwrote in part
        // and later released whole), every change of family gets its
        // transfer.
        if !crate::ownership::check_ownership(&plan.plan.program)?.is_empty() {
            plan = plan_stripped(&input, opts, None)?;
        }
        // A layout transition's scopes are planned inside its queue; what
        // another queue needs of it (a write of another queue ordered
        // before it through a semaphore wait, which only its first scopes
        // continue; a later access of another queue, which its second
        // scopes must reach before the signal) shows as a hazard of the
        // transition in the whole plan. Its fix widens the input's scopes,
        // which every later plan keeps (`plan_queue_part`), and the
        // program is planned again; scopes only grow, so this ends.
        if !input.commands.iter().any(super::transitions::is_transition) {
            return Ok(plan);
        }
        let layout = resolve(&plan.plan.program)?;
        // By the definitional semantics where no fast checker takes the
        // plan (rendering on several queues; review36: the walk's refusal
        // refused the whole plan of a program with a transition and a
        // rendering instance on two queues).
        let hazards = crate::hazard::check_program(&plan.plan.program, sem)?.hazards;
        if !super::transitions::widen_by(&mut input, &plan.plan, &hazards, &layout, sem) {
            // On one queue, never widened, each transition's scopes are
            // those its queue's planner chose seeing every command: the
            // thinning (a whole-plan check per bit) found nothing to drop
            // on wgpu's 100 rendered frames (503 bits tried, 503 kept) and
            // was most of `vksync plan`'s time there.
            if widened || input.queue_count() > 1 {
                thin_transitions(&mut plan.plan, sem);
            }
            return Ok(plan);
        }
        widened = true;
    })();
    let planned = planned.map(|mut p| {
        super::image_regions_global(&mut p.plan.program);
        p
    });
    unstripped(planned, &kept)
}

/// Drops each bit of a transition's scopes when the whole plan keeps its
/// hazards without it, one at a time until none can go. A transition's
/// scopes were planned inside its queue, which does not see the other
/// queues: their uses of its bytes (a transition there in between can
/// stand for this one), nor the semaphore edges that order two batches of
/// its own queue (a wait after a chain through another queue makes every
/// earlier write of the queue visible); and they were widened for an
/// earlier plan (`input`'s scopes, kept by the queues' plans), which the
/// final plan may not need. Each try is a check of the whole plan with the
/// multi-queue checker, so the cost is the transitions' bits times the
/// plan's length.
fn thin_transitions(plan: &mut Plan, sem: Semantics) {
    use crate::sync::checker::HazardKind;
    let key = |h: &Hazard| (h.kind, h.command, h.prior_command, h.memory);
    type Key = (HazardKind, usize, usize, crate::ir::layout::MemRange);
    let hazards = |p: &Program| -> Option<std::collections::HashSet<Key>> {
        crate::hazard::check_with(p, sem)
            .ok()
            .map(|hs| hs.iter().map(key).collect())
    };
    let Some(base) = hazards(&plan.program) else {
        return;
    };
    let at: Vec<usize> = (0..plan.program.commands.len())
        .filter(|&i| super::transitions::is_transition(&plan.program.commands[i]))
        .collect();
    loop {
        let before = plan.program.barrier_bits();
        for &i in at.iter().rev() {
            let n = match &plan.program.commands[i] {
                Command::Barrier(d) => d.barriers.len(),
                _ => 0,
            };
            for j in 0..n {
                for field in 0..4 {
                    let get = |p: &Program| match &p.commands[i] {
                        Command::Barrier(d) => d.barriers[j],
                        _ => unreachable!("transition points are barrier commands"),
                    };
                    let b0 = get(&plan.program);
                    let later = matches!(&plan.program.commands[i], Command::Barrier(d) if super::transitions::later_part(d, j));
                    if !b0.transition || later {
                        continue;
                    }
                    let bits = super::points::mask_bits(&b0, field);
                    for bit in (0..64).map(|k| 1u64 << k).filter(|x| bits & x != 0) {
                        let old = get(&plan.program);
                        let mut b = old;
                        super::points::set_mask_bits(
                            &mut b,
                            field,
                            super::points::mask_bits(&old, field) & !bit,
                        );
                        let valid = crate::vk::scope::validate(
                            b.src_stage_mask,
                            b.src_access_mask,
                            crate::vk::scope::Side::Src,
                        )
                        .is_ok()
                            && crate::vk::scope::validate(
                                b.dst_stage_mask,
                                b.dst_access_mask,
                                crate::vk::scope::Side::Dst,
                            )
                            .is_ok();
                        if !valid {
                            continue;
                        }
                        let set = |p: &mut Program, b: Barrier| {
                            if let Command::Barrier(d) = &mut p.commands[i] {
                                super::transitions::set_part(d, j, b);
                            }
                        };
                        set(&mut plan.program, b);
                        if hazards(&plan.program).is_none_or(|h| !h.is_subset(&base)) {
                            set(&mut plan.program, old);
                        }
                    }
                }
            }
        }
        if plan.program.barrier_bits() == before {
            return;
        }
    }
}

/// Each exclusive object's changes of queue family, batch by batch in
/// submission order: `(object, batch)` for every batch whose family
/// differs from the family of the object's previous user, with the
/// change that governs each later batch of the same family.
fn family_changes(
    input: &Program,
    batches: &[Batch],
    accs: &[Vec<Access>],
) -> BTreeMap<(ObjectId, usize), usize> {
    let mut last: BTreeMap<ObjectId, (u32, usize)> = BTreeMap::new();
    let mut governs = BTreeMap::new();
    for (b, batch) in batches.iter().enumerate() {
        let fam = family(input, batch.queue);
        for a in &accs[b] {
            let o = a.region.object;
            if input.sharing_of(o) != SharingMode::Exclusive {
                continue;
            }
            let e = last.entry(o).or_insert((fam, usize::MAX));
            if e.0 != fam {
                *e = (fam, b);
            }
            governs.insert((o, b), e.1);
        }
    }
    governs
}

/// The changes of family `(object, batch)` whose contents some read wants:
/// the ownership issues of the stripped input (no transfer anywhere), each
/// charged to the change that governs its batch.
fn needed_transfers(input: &Program) -> Result<BTreeSet<(ObjectId, usize)>, QueuePlanError> {
    let layout = resolve(input)?;
    let batches = batches(input);
    let accs = batch_accesses(input, &batches, &layout, Semantics::SPEC);
    let governs = family_changes(input, &batches, &accs);
    let batch_of: BTreeMap<usize, usize> = batches
        .iter()
        .enumerate()
        .flat_map(|(b, batch)| batch.cmds.iter().map(move |&i| (i, b)))
        .collect();
    let mut needed = BTreeSet::new();
    for issue in crate::ownership::check_ownership(input)? {
        if let Some(&change) = batch_of
            .get(&issue.command)
            .and_then(|b| governs.get(&(issue.region.object, *b)))
        {
            if change != usize::MAX {
                needed.insert((issue.region.object, change));
            }
        }
    }
    Ok(needed)
}

/// Each batch's accesses.
fn batch_accesses(
    input: &Program,
    batches: &[Batch],
    layout: &crate::ir::layout::Layout,
    sem: Semantics,
) -> Vec<Vec<Access>> {
    batches
        .iter()
        .map(|bt| {
            bt.cmds
                .iter()
                .flat_map(|&i| accesses(&input.commands[i], layout, sem))
                .collect()
        })
        .collect()
}

/// [`plan_queues`] on a stripped input; `needed`: the changes of family
/// that get a transfer (`None`: every one).
fn plan_stripped(
    input: &Program,
    opts: QueuePlanOptions,
    needed: Option<&BTreeSet<(ObjectId, usize)>>,
) -> Result<QueuePlan, QueuePlanError> {
    let input = input.clone();
    let layout = resolve(&input)?;
    let sem = Semantics::for_reading(opts.plan.reading);
    let batches = batches(&input);
    let nq = input.queue_count();
    let nb = batches.len();
    // Each batch's ordinal on its queue, and per queue its batches.
    let mut ord = vec![0i64; nb];
    let mut per_queue: Vec<Vec<usize>> = vec![Vec::new(); nq];
    for (b, batch) in batches.iter().enumerate() {
        ord[b] = per_queue[batch.queue].len() as i64;
        per_queue[batch.queue].push(b);
    }
    let accs = batch_accesses(&input, &batches, &layout, sem);
    // Needs: per consumer batch, per queue, the latest batch ordinal it
    // must be ordered after.
    // Kept per queue and byte (`deps`), not by comparing every two
    // batches: a long program has tens of thousands of batches.
    // (Each batch's own queue is in its clock too, and is no need of it:
    // `Edges::need_at`.)
    let mut need: Vec<Clock> = Vec::with_capacity(nb);
    let mut reach: Vec<Option<Vec<(usize, usize)>>> = Vec::with_capacity(nb);
    {
        let mut written = Written::new();
        for b in 0..nb {
            let touches: Vec<Touch> = accs[b]
                .iter()
                .map(|a| (a.mem, a.range, a.sa.is_write()))
                .collect();
            let (clock, covers) = written.before(&touches);
            need.push(clock);
            reach.push(covers);
            written.record(&touches, batches[b].queue, ord[b] as usize);
        }
    }
    // Per object and queue, the batches that access the object, in order.
    let mut batches_on: HashMap<(ObjectId, usize), Vec<usize>> = HashMap::new();
    for (b, acc) in accs.iter().enumerate() {
        for a in acc {
            let list = batches_on.entry((a.region.object, batches[b].queue)).or_default();
            if list.last() != Some(&b) {
                list.push(b);
            }
        }
    }
    // Ownership transfers of exclusive objects.
    let mut releases: BTreeMap<usize, Vec<Barrier>> = BTreeMap::new();
    let mut acquires: BTreeMap<usize, Vec<Barrier>> = BTreeMap::new();
    // Per exclusive object: the owning family, its batches that used the
    // object since it took ownership, and the batch that acquired it.
    let mut owners: BTreeMap<ObjectId, (u32, Vec<usize>, Option<usize>)> = BTreeMap::new();
    let mut transfers = 0;
    for b in 0..nb {
        let fam = family(&input, batches[b].queue);
        let mut objects: Vec<ObjectId> = accs[b].iter().map(|a| a.region.object).collect();
        objects.sort_unstable();
        objects.dedup();
        for o in objects {
            if input.sharing_of(o) != SharingMode::Exclusive {
                continue;
            }
            let entry = owners.entry(o).or_insert((fam, Vec::new(), None));
            if entry.0 != fam && needed.is_some_and(|n| !n.contains(&(o, b))) {
                // Nothing reads the contents the other family left: this
                // family takes ownership by using it. Its uses conflict
                // with the other family's through the needs above, and
                // with that family's acquire (a write of the whole object
                // the input does not show) through this one.
                if let Some(acq) = entry.2 {
                    let qa = batches[acq].queue;
                    if qa != batches[b].queue {
                        raise(&mut need[b], qa, ord[acq]);
                        reach[b] = None;
                    }
                }
                *entry = (fam, Vec::new(), None);
            } else if entry.0 != fam {
                // The transfer of an image is an image memory barrier in
                // the image's current layout, which this planner does not
                // follow: refused, at the batch's first use.
                if input.image(o).is_some() {
                    let uses = |j: &&usize| {
                        accesses(&input.commands[**j], &layout, sem)
                            .iter()
                            .any(|a| a.region.object == o)
                    };
                    let at = batches[b].cmds.iter().find(uses).copied().unwrap_or(0);
                    return Err(QueuePlanError::NotPlanned {
                        at,
                        what: format!(
                            "a queue family ownership transfer of image `{}` (exclusive, used by families {} and {}; \
                             the planner transfers buffers only: declare the image `concurrent`, or record its \
                             release and acquire and check the program with `vksync check`)",
                            input.obj(o).name,
                            entry.0,
                            fam
                        ),
                    });
                }
                let users = std::mem::take(&mut entry.1);
                let last = *users.last().expect("an owner has used the object");
                let ql = batches[last].queue;
                let region = input.whole(o);
                let on_o = |x: usize| accs[x].iter().filter(move |a| a.region.object == o);
                let (src_stages, src_access) = masks(
                    users
                        .iter()
                        .filter(|&&x| batches[x].queue == ql)
                        .flat_map(|&x| on_o(x)),
                    true,
                );
                // The acquire operation writes the whole object: every
                // later use on this queue, in this batch or a later one,
                // must see it, and the per-queue plans do not know it.
                let (dst_stages, dst_access) = (
                    PipelineStageFlags2::ALL_COMMANDS,
                    AccessFlags2::MEMORY_READ | AccessFlags2::MEMORY_WRITE,
                );
                let g = entry.0;
                releases.entry(last).or_default().push(
                    Barrier::global(
                        src_stages,
                        src_access,
                        PipelineStageFlags2::NONE,
                        AccessFlags2::NONE,
                    )
                    .on(region)
                    .with_ownership_transfer(g, fam),
                );
                acquires.entry(b).or_default().push(
                    Barrier::global(
                        PipelineStageFlags2::NONE,
                        AccessFlags2::NONE,
                        dst_stages,
                        dst_access,
                    )
                    .on(region)
                    .with_ownership_transfer(g, fam),
                );
                transfers += 1;
                raise(&mut need[b], ql, ord[last]);
                reach[b] = None;
                // The release writes the whole object too: every earlier
                // access of it on another queue comes first, also one
                // from before this family last took ownership (bytes a
                // later owner never touched).
                // (The latest such batch of each queue: ordinals grow with
                // the batch index on a queue.)
                for qx in (0..nq).filter(|&qx| qx != ql) {
                    let on = batches_on.get(&(o, qx)).map_or(&[][..], Vec::as_slice);
                    let k = on.partition_point(|&x| x < last);
                    if k > 0 {
                        raise(&mut need[last], qx, ord[on[k - 1]]);
                        reach[last] = None;
                    }
                }
                *entry = (fam, Vec::new(), Some(b));
            } else if let Some(acq) = entry.2 {
                // Another queue of the new owner's family uses it only
                // after the acquire.
                let qa = batches[acq].queue;
                if qa != batches[b].queue {
                    raise(&mut need[b], qa, ord[acq]);
                    reach[b] = None;
                }
            }
            entry.1.push(b);
        }
    }
    // Each acquire goes right before the batch's first command that uses
    // its object: every later use on the queue follows it, and a host
    // access recorded before that command in the batch (which runs
    // before the batch) stays before the acquire's write.
    let mut acquire_at: BTreeMap<usize, Vec<Barrier>> = BTreeMap::new();
    for (&b, list) in &acquires {
        for a in list {
            let uses = |j: &usize| {
                accesses(&input.commands[*j], &layout, sem)
                    .iter()
                    .any(|x| a.region.is_some_and(|reg| x.region.object == reg.object))
            };
            // Invariant: a batch acquires only objects its commands use.
            if let Some(&j) = batches[b].cmds.iter().find(|j| uses(j)) {
                acquire_at.entry(j).or_default().push(*a);
            }
        }
    }
    // What a host access conflicts with in each batch: its commands'
    // accesses, and the release and acquire operations of its ownership
    // transfers, which write the whole object ("may perform read and write
    // accesses on all memory bound to the ... buffer range").
    let transfer_write = |region: Region| {
        let m = layout.at(region);
        Access {
            region,
            mem: m.mem,
            range: m.range,
            sa: StageAccess::QueueFamilyOwnershipTransfer,
        }
    };
    let host_accs: Vec<Vec<Access>> = (0..nb)
        .map(|b| {
            let transfers = releases.get(&b).into_iter().chain(acquires.get(&b)).flatten();
            let writes = transfers.filter_map(|t| t.region).map(transfer_write);
            accs[b].iter().copied().chain(writes).collect()
        })
        .collect();
    // What the batches after each one need of the first queues to submit
    // (the exhaustive search's tie-break, `fewest_edges`, sees no others).
    let mut early: Vec<usize> = Vec::new();
    for bt in &batches {
        if early.len() > EXHAUSTIVE {
            break;
        }
        if !early.contains(&bt.queue) {
            early.push(bt.queue);
        }
    }
    let need_at = |b: usize, x: usize| {
        if x == batches[b].queue {
            -1
        } else {
            at(&need[b], x)
        }
    };
    let mut future: Vec<Dense> = vec![vec![-1; early.len()]; nb + 1];
    for b in (0..nb).rev() {
        let mut f = future[b + 1].clone();
        for (j, &x) in early.iter().enumerate() {
            f[j] = f[j].max(need_at(b, x));
        }
        future[b] = f;
    }
    // Edges, consumer by consumer in submission order, with host waits.
    let mut order = Edges {
        batches: &batches,
        ord: &ord,
        need: &need,
        reach: &reach,
        early: &early,
        future: &future[1..],
        clock_in: vec![Clock::default(); nb],
        clock_out: vec![Clock::default(); nb],
        before_waits: vec![Clock::default(); nb],
        last_on: vec![None; nq],
        by_size: BTreeSet::new(),
        active: BTreeSet::new(),
        edges: Vec::new(),
    };
    let mut host = Clock::default();
    let submit_of: BTreeMap<usize, usize> = batches
        .iter()
        .enumerate()
        .filter_map(|(b, bt)| bt.submit.map(|s| (s, b)))
        .collect();
    // A fence wait joins into the host's clock the clock after the latest
    // batch of each queue it waits for. It completes, per queue, every
    // batch submitted so far when the host's clock reaches the latest
    // (through a semaphore, the wait for one queue can complete another's
    // work); the queue's part of the per-queue plans then gets a `wait`
    // there (the queues returned, where the host's clock rose to that).
    // A wait for every queue joins the largest clocks first: a clock
    // after a batch the host's clock already holds adds nothing (closed
    // clocks, `Clock`), and is skipped.
    let wait_for = |w: WaitFor, host: &mut Clock, order: &Edges| {
        let before = host.clone();
        match w {
            WaitFor::All => {
                for &(_, r) in &order.by_size {
                    let p = order.last_on[r].expect("an active queue has submitted");
                    if at(host, r) < ord[p] {
                        host.join(&order.clock_out[p]);
                    }
                }
            }
            WaitFor::Queue(QueueId(x)) => {
                if let Some(p) = order.last_on.get(x as usize).copied().flatten() {
                    host.join(&order.clock_out[p]);
                }
            }
        }
        host.entries()
            .into_iter()
            .map(|(r, v)| (r.0 as usize, v as i64))
            .filter(|&(r, v)| order.last_on[r].is_some_and(|p| v >= ord[p] && at(&before, r) < v))
            .map(|(r, _)| r)
            .collect::<Vec<usize>>()
    };
    // Per queue, the latest batch of `0..submitted` a host access of
    // `acc` conflicts with, where the host's clock `host` falls short
    // (absent elsewhere). Device work submitted later needs nothing: its
    // submit orders the host access before it.
    // Read off `submitted_accs`, per byte the clocks of the submitted
    // batches that wrote and read it (`host_accs`), as the needs are: a
    // scan of every submitted batch per host access was quadratic.
    let unmet_of = |acc: &[Access], host: &Clock, submitted_accs: &Written| {
        let touches: Vec<Touch> = acc.iter().map(|a| (a.mem, a.range, a.sa.is_write())).collect();
        submitted_accs
            .before(&touches)
            .0
            .entries()
            .into_iter()
            .map(|(r, v)| (r.0 as usize, v as i64))
            .filter(|&(r, v)| v > at(host, r))
            .collect::<BTreeMap<usize, i64>>()
    };
    let mut submitted_accs = Written::new();
    // Per input `wait`, the queues it completes (as above); per host
    // access, the wait inserted before it (with the queues it completes)
    // and the host's clock at the access.
    let mut input_waits: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let mut inserted: BTreeMap<usize, (WaitFor, Vec<usize>)> = BTreeMap::new();
    let mut host_at: BTreeMap<usize, Clock> = BTreeMap::new();
    for (i, c) in input.commands.iter().enumerate() {
        match c {
            Command::Submit(_) => {
                let b = submit_of[&i];
                order.decide(b, &host);
                let touches: Vec<Touch> = host_accs[b]
                    .iter()
                    .map(|a| (a.mem, a.range, a.sa.is_write()))
                    .collect();
                submitted_accs.record(&touches, batches[b].queue, ord[b] as usize);
            }
            Command::Wait(w) => {
                let completes = wait_for(*w, &mut host, &order);
                input_waits.insert(i, completes);
            }
            Command::HostRead { .. } | Command::HostWrite { .. } => {
                // A device command recorded before the host access but
                // submitted after it runs after it (the submit orders the
                // pair, `crate::OrderNote`): nothing to plan for it.
                let acc = accesses(c, &layout, sem);
                let unmet = unmet_of(&acc, &host, &submitted_accs);
                if unmet.iter().any(|(&r, &u)| u > at(&host, r)) {
                    // One wait for the host accesses from here to the next
                    // submit or wait (the device work they need was all
                    // submitted before this one): `wait QUEUE` for a
                    // queue whose wait covers every unmet need (one the
                    // accesses conflict with first, then one that covers
                    // the others through its semaphore waits; the lowest
                    // index on a tie), else `wait` (every queue), which is
                    // fewer than one `wait QUEUE` per queue.
                    let mut needs = unmet;
                    for d in &input.commands[i + 1..] {
                        match d {
                            Command::Submit(_) | Command::Wait(_) => break,
                            Command::HostRead { .. } | Command::HostWrite { .. } => {
                                for (r, u) in unmet_of(&accesses(d, &layout, sem), &host, &submitted_accs) {
                                    let e = needs.entry(r).or_insert(-1);
                                    *e = (*e).max(u);
                                }
                            }
                            _ => {}
                        }
                    }
                    let covers = |r: usize| {
                        order.last_on[r].is_some_and(|p| {
                            let after = &order.clock_out[p];
                            needs.iter().all(|(&x, &n)| at(&host, x).max(at(after, x)) >= n)
                        })
                    };
                    // A queue with no batch yet covers nothing; every
                    // queue with an unmet need has one.
                    let unmet_queues: Vec<usize> = needs
                        .iter()
                        .filter(|&(&r, &n)| n > at(&host, r))
                        .map(|(&r, _)| r)
                        .collect();
                    let w = unmet_queues
                        .iter()
                        .copied()
                        .chain(
                            order
                                .active
                                .iter()
                                .copied()
                                .filter(|&r| needs.get(&r).copied().unwrap_or(-1) <= at(&host, r)),
                        )
                        .find(|&r| covers(r))
                        // A program that declares no queue has one, which
                        // only `wait` names (`wait QUEUE` needs a name).
                        .filter(|_| !input.queues.is_empty())
                        .map_or(WaitFor::All, |r| WaitFor::Queue(QueueId(r as u32)));
                    let completes = wait_for(w, &mut host, &order);
                    inserted.insert(i, (w, completes));
                }
                host_at.insert(i, host.clone());
            }
            _ => {}
        }
    }
    if batches.last().is_some_and(|b| b.submit.is_none()) {
        order.decide(nb - 1, &host);
    }
    let Edges {
        clock_in,
        before_waits,
        mut edges,
        ..
    } = order;
    // Semaphores for the edges.
    let mut semaphores: Vec<Semaphore> = Vec::new();
    let mut waits: Vec<Vec<SemaphoreWait>> = vec![Vec::new(); nb];
    let mut signals: Vec<Vec<SemaphoreSignal>> = vec![Vec::new(); nb];
    let all = PipelineStageFlags2::ALL_COMMANDS;
    edges.sort_unstable();
    // Greedy colouring by signal batch: an edge `p -> b` reuses a
    // semaphore whose latest wait (batch `w`) was submitted before `p`
    // and is known complete before `p` signals and before `b` begins to
    // wait, unless on the same queue (module `completion` of the model:
    // two queues never wait on one binary semaphore at once, and a signal
    // always finds it unsignalled; NVIDIA's driver pairs the waits the
    // other way round otherwise, `docs/h200/planned-hang-p100006.trace`).
    // A batch may signal the binary semaphore it waits for (`w == p`: the
    // wait unsignals it first). Until 2026-12-01 the planner avoided that,
    // blaming NVIDIA's driver for `docs/h200/planned-wrong-bytes-p100010.trace`
    // (a whole buffer wrong on every run); the cause was the overlapping
    // waits of line 48, which the model now refuses: with `wait c0` before
    // it and the batch that waits for and signals `sem0` kept, 5 of 5 runs
    // were right on the H200 (`docs/testing.md`).
    // Semaphore `s` is free for the edge when its latest wait `w` (on
    // queue `x`) has `w <= p` and `ord[w]` at most both clocks' entry of
    // `x` (no bound on a clock's own queue): so only the queues both
    // clocks hold (or their own) are looked at, and on each, its
    // semaphores by index up to the first that is free (a scan of every
    // semaphore per edge was quadratic in a chain through N queues).
    let mut busy_until: Vec<usize> = Vec::new();
    // Per queue, the semaphores whose latest wait is on it.
    let mut waited_on: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); nq];
    for &(p, b) in &edges {
        let (qp, qb) = (batches[p].queue, batches[b].queue);
        let (cp, cb) = (&clock_in[p], &before_waits[b]);
        let bound = |x: usize| {
            let t1 = if x == qp { i64::MAX } else { at(cp, x) };
            let t2 = if x == qb { i64::MAX } else { at(cb, x) };
            t1.min(t2)
        };
        let (small, own) = if cp.len() <= cb.len() { (cp, qp) } else { (cb, qb) };
        let mut queues: Vec<usize> = small.entries().into_iter().map(|(x, _)| x.0 as usize).collect();
        queues.push(own);
        let free = queues
            .into_iter()
            .filter_map(|x| {
                let t = bound(x);
                waited_on[x]
                    .iter()
                    .copied()
                    .find(|&s| busy_until[s] <= p && ord[busy_until[s]] <= t)
            })
            .min();
        let s = match free {
            Some(s) => {
                waited_on[batches[busy_until[s]].queue].remove(&s);
                s
            }
            None => {
                busy_until.push(0);
                semaphores.push(Semaphore {
                    name: format!("sem{}", semaphores.len()),
                    kind: SemaphoreType::Binary,
                });
                busy_until.len() - 1
            }
        };
        waited_on[qb].insert(s);
        busy_until[s] = b;
        let id = SemaphoreId(s as u32);
        signals[p].push(SemaphoreSignal {
            semaphore: id,
            value: None,
            stages: all,
        });
        waits[b].push(SemaphoreWait {
            semaphore: id,
            value: None,
            stages: all,
        });
    }
    // Barriers inside each queue, from the single-queue planner.
    let mut before: Vec<Vec<(Command, Option<Vec<Hazard>>)>> = vec![Vec::new(); input.commands.len() + 1];
    // Each layout transition as its queue's plan has it (input index).
    let mut replaced: BTreeMap<usize, (Command, Option<Vec<Hazard>>)> = BTreeMap::new();
    // Per queue, the input commands its part holds, in order, with
    // whether each is a wait inserted before the command (before it).
    // A host access takes part in the plan of each queue whose work it
    // conflicts with (the barriers to `HOST`). A fence wait, the input's
    // or an inserted one, takes part where it completes every batch of
    // the queue submitted so far: there the single-queue rules for a
    // `wait` hold (later submissions of the queue are ordered after the
    // batches, whose writes are available). Where the host's clock covers
    // only some of them (a semaphore from an earlier batch to the queue
    // waited for), a `wait` would order a later batch after a batch
    // submitted before it that nothing orders it after: the part has
    // none, and its host accesses have their horizons instead. A host
    // access that conflicts with nothing of a queue stays out of its
    // plan. (Built in one pass over the input, each command sent to the
    // parts it belongs to: a pass per queue was quadratic in queues.)
    let queue_accs: Vec<Vec<Access>> = per_queue
        .iter()
        .map(|bs| bs.iter().flat_map(|&b| accs[b].iter().copied()).collect())
        .collect();
    let mut queues_on: HashMap<MemId, BTreeSet<usize>> = HashMap::new();
    for (q, qa) in queue_accs.iter().enumerate() {
        for a in qa {
            queues_on.entry(a.mem).or_default().insert(q);
        }
    }
    let mut batch_queue: Vec<Option<usize>> = vec![None; input.commands.len()];
    for bt in &batches {
        for &i in bt.cmds.iter().chain(&bt.submit) {
            batch_queue[i] = Some(bt.queue);
        }
    }
    let with_batches: Vec<usize> = (0..nq).filter(|&q| !per_queue[q].is_empty()).collect();
    // Each part declares only the objects its commands use, with every
    // object sharing their memory (aliases, a pool's blobs: the blobs'
    // places depend on every `alloc` of the pool), renumbered in id
    // order; its plan's regions and memory ids are mapped back
    // (`Narrow`). Declaring every object in every part made each part's
    // planning (its layout, its checker's per-memory state, per try of
    // `improve_bits`) cost the whole program's objects: quadratic in a
    // chain through N queues, each with a buffer of its own. Not for
    // images and render passes, whose descriptions name objects too: then
    // every part declares every object.
    let narrow =
        (input.images.is_empty() && input.render_passes.is_empty() && input.image_barriers.is_empty())
            .then_some(());
    // Per object, the object owning its memory (objects name only earlier
    // ones: an alias's target, a blob's pool).
    let mut root: Vec<usize> = Vec::with_capacity(input.objects.len());
    for (i, o) in input.objects.iter().enumerate() {
        let r = match o.kind {
            ObjectKind::Buffer {
                alias: Some((other, _)),
            } => root[other.0 as usize],
            ObjectKind::Blob { pool } => root[pool.0 as usize],
            _ => i,
        };
        root.push(r);
    }
    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    if narrow.is_some() {
        for (i, &r) in root.iter().enumerate() {
            members.entry(r).or_default().push(i);
        }
    }
    // Per memory owner, the `alloc`s and `free`s of its blobs (input
    // indices, in order).
    let mut allocs_of: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut parts: Vec<Vec<(usize, bool)>> = vec![Vec::new(); nq];
    for (i, c) in input.commands.iter().enumerate() {
        if let Some((_, completes)) = inserted.get(&i) {
            for &q in completes {
                parts[q].push((i, true));
            }
        }
        let mut qs: Vec<usize> = batch_queue[i].into_iter().collect();
        if matches!(c, Command::HostRead { .. } | Command::HostWrite { .. }) {
            let acc = accesses(c, &layout, sem);
            let near: BTreeSet<usize> = acc
                .iter()
                .filter_map(|a| queues_on.get(&a.mem))
                .flatten()
                .copied()
                .collect();
            qs.extend(near.into_iter().filter(|&q| conflict(&acc, &queue_accs[q])));
        }
        if let Command::Alloc { blob } | Command::Free { blob } = c {
            if narrow.is_some() {
                // Sent below to the parts that use its pool's memory.
                allocs_of.entry(root[blob.0 as usize]).or_default().push(i);
            } else {
                qs.extend(&with_batches);
            }
        }
        if let (Command::Wait(_), Some(completes)) = (c, input_waits.get(&i)) {
            qs.extend(completes);
        }
        qs.sort_unstable();
        qs.dedup();
        for q in qs {
            parts[q].push((i, false));
        }
    }
    // What every part shares: the input's declarations, without its
    // queues and semaphores (made once, not per queue). Its images change
    // layout on other queues too: a part's transitions and uses need not
    // follow on from each other (the whole plan, whose order is the
    // input's, does).
    let mut part_base = input.with_commands(Vec::new());
    part_base.layouts_unchecked = true;
    part_base.clear_queues_and_semaphores();
    for (q, bs) in per_queue.iter().enumerate() {
        if bs.is_empty() {
            continue;
        }
        // The objects the part uses, by their memory owners; the `alloc`s
        // and `free`s of those owners' blobs join the part.
        let narrowed = narrow.and_then(|()| {
            let mut used: BTreeSet<usize> = BTreeSet::new();
            for &(i, _) in &parts[q] {
                let mut c = input.commands[i].clone();
                c.for_each_region_mut(|r| {
                    used.insert(root[r.object.0 as usize]);
                });
            }
            let mut extra: Vec<usize> = used
                .iter()
                .filter_map(|r| allocs_of.get(r))
                .flatten()
                .copied()
                .collect();
            if !extra.is_empty() {
                extra.sort_unstable();
                let mut merged: Vec<(usize, bool)> = Vec::with_capacity(parts[q].len() + extra.len());
                let mut e = extra.into_iter().peekable();
                for &(i, w) in &parts[q] {
                    // An inserted wait goes before its command; an `alloc`
                    // is no host access, so none goes before it.
                    while let Some(j) = e.next_if(|&j| j < i) {
                        merged.push((j, false));
                    }
                    merged.push((i, w));
                }
                merged.extend(e.map(|j| (j, false)));
                parts[q] = merged;
            }
            let mut kept: Vec<usize> = used.iter().flat_map(|r| members[r].iter().copied()).collect();
            kept.sort_unstable();
            Narrow::new(&input, &layout, &kept)
        });
        let mut map = Vec::new();
        let mut cmds = Vec::new();
        // Per batch ordinal of this queue, its submit's index in the part.
        let mut submit_at: Vec<usize> = Vec::with_capacity(bs.len());
        // Per command of the part, for a host access, the last submit of
        // the part ordered before it (see `plan_queue_part`).
        let mut horizon = Vec::new();
        for &(i, inserted_wait) in &parts[q] {
            if inserted_wait {
                map.push(i);
                cmds.push(Command::WAIT);
                horizon.push(None);
                continue;
            }
            let c = &input.commands[i];
            let host = matches!(c, Command::HostRead { .. } | Command::HostWrite { .. });
            if matches!(c, Command::Submit(_)) {
                submit_at.push(cmds.len());
            }
            let seen = host_at
                .get(&i)
                .filter(|_| host)
                .and_then(|clock| usize::try_from(at(clock, q)).ok());
            horizon.push(seen.and_then(|k| submit_at.get(k).copied()));
            map.push(i);
            cmds.push(match c {
                Command::Submit(_) => Command::SUBMIT,
                Command::Wait(_) => Command::WAIT,
                c => match &narrowed {
                    Some(nw) => nw.to_part(c),
                    None => c.clone(),
                },
            });
        }
        let planned = match &narrowed {
            Some(nw) => {
                let sub = nw.program.with_commands(cmds);
                match plan_queue_part(&sub, opts.plan, &horizon) {
                    Ok(p) => nw.plan_back(p),
                    // The part with every object declared, whose error
                    // names the input's objects.
                    Err(_) => {
                        let cmds = sub.commands.iter().map(|c| nw.back_of(c)).collect();
                        plan_queue_part(&part_base.with_commands(cmds), opts.plan, &horizon)?
                    }
                }
            }
            None => plan_queue_part(&part_base.with_commands(cmds), opts.plan, &horizon)?,
        };
        let mut pending: Vec<(Command, Option<Vec<Hazard>>)> = Vec::new();
        let answers: BTreeMap<usize, &Vec<Hazard>> = planned.answers.iter().map(|(k, v)| (*k, v)).collect();
        for (k, c) in planned.program.commands.iter().enumerate() {
            match planned.origin[k] {
                Some(j) => {
                    before[map[j]].append(&mut pending);
                    // A transition as its queue's plan left it: its
                    // scopes, and the barriers of a point there.
                    if super::transitions::is_transition(c) {
                        let hs = answers.get(&k).map(|hs| {
                            hs.iter()
                                .map(|h| Hazard {
                                    command: map[h.command],
                                    prior_command: map[h.prior_command],
                                    ..*h
                                })
                                .collect()
                        });
                        replaced.insert(map[j], (c.clone(), hs));
                    }
                }
                None if matches!(c, Command::Barrier(_)) => {
                    let hs = answers.get(&k).map(|hs| {
                        hs.iter()
                            .map(|h| Hazard {
                                command: map[h.command],
                                prior_command: map[h.prior_command],
                                ..*h
                            })
                            .collect()
                    });
                    pending.push((c.clone(), hs));
                }
                // A submit and fence wait a planner other than the
                // offline one inserted before a host access, to record
                // its barrier to `HOST` after the last one.
                None => {
                    let at = planned.origin[k + 1..]
                        .iter()
                        .find_map(|o| *o)
                        .map_or(input.commands.len(), |j| map[j]);
                    return Err(QueuePlanError::HostNeedsSubmit {
                        at,
                        planner: opts.plan.planner,
                    });
                }
            }
        }
        let n = input.commands.len();
        before[n].append(&mut pending);
    }
    // Assemble.
    let mut commands = Vec::new();
    let mut origin = Vec::new();
    let mut answers = Vec::new();
    let push_barrier = |commands: &mut Vec<Command>, origin: &mut Vec<Option<usize>>, b: Barrier| {
        commands.push(Command::Barrier(Dependency { barriers: vec![b] }));
        origin.push(None);
    };
    let submission = |b: usize| Submission {
        queue: QueueId(batches[b].queue as u32),
        waits: waits[b].clone(),
        signals: signals[b].clone(),
    };
    // A release or acquire operation writes the object, after (or before)
    // the batch's barriers to HOST: a later host access of it needs a
    // domain operation of its own, a barrier chained to the operation
    // (only ALL_COMMANDS holds it).
    let to_host = |transfer: &Barrier, after: usize| {
        let host_later = |reg: Region| {
            input.commands[after + 1..].iter().any(|x| match x {
                Command::HostRead { src } => src.object == reg.object,
                Command::HostWrite { dst, .. } => dst.object == reg.object,
                _ => false,
            })
        };
        transfer.region.filter(|&reg| host_later(reg)).map(|reg| {
            Barrier::global(
                PipelineStageFlags2::ALL_COMMANDS,
                AccessFlags2::NONE,
                PipelineStageFlags2::HOST,
                AccessFlags2::HOST_READ | AccessFlags2::HOST_WRITE,
            )
            .on(reg)
        })
    };
    for (i, c) in input.commands.iter().enumerate() {
        for a in acquire_at.remove(&i).unwrap_or_default() {
            let domain = to_host(&a, i);
            push_barrier(&mut commands, &mut origin, a);
            if let Some(d) = domain {
                push_barrier(&mut commands, &mut origin, d);
            }
        }
        for (c, hs) in std::mem::take(&mut before[i]) {
            if let Some(hs) = hs {
                answers.push((commands.len(), hs));
            }
            commands.push(c);
            origin.push(None);
        }
        if let Some((w, _)) = inserted.get(&i) {
            commands.push(Command::Wait(*w));
            origin.push(None);
        }
        match c {
            Command::Submit(_) => {
                let b = submit_of[&i];
                for r in releases.remove(&b).unwrap_or_default() {
                    let domain = to_host(&r, i);
                    push_barrier(&mut commands, &mut origin, r);
                    if let Some(d) = domain {
                        push_barrier(&mut commands, &mut origin, d);
                    }
                }
                commands.push(Command::Submit(submission(b)));
            }
            c => match replaced.remove(&i) {
                Some((t, hs)) => {
                    if let Some(hs) = hs {
                        answers.push((commands.len(), hs));
                    }
                    commands.push(t);
                }
                None => commands.push(c.clone()),
            },
        }
        origin.push(Some(i));
    }
    if batches.last().is_some_and(|b| b.submit.is_none()) {
        commands.push(Command::Submit(submission(nb - 1)));
        origin.push(None);
    }
    let mut out = input.with_commands(commands);
    out.set_semaphores(semaphores);
    // The plan is valid by construction; resolving checks the semaphore
    // order rules once more.
    resolve(&out)?;
    let plan = Plan {
        program: out,
        origin,
        answers,
    };
    Ok(QueuePlan {
        semaphores: plan.program.semaphores.len(),
        waits: edges.len(),
        signals: signals.iter().map(Vec::len).sum(),
        barrier_points: plan.program.barrier_points(),
        ownership_transfers: transfers,
        host_waits: inserted.len(),
        plan,
    })
}
